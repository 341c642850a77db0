#!/usr/bin/env python3
"""serve's keys: --auth KEYID:SECRET:SESSION_TOKEN (the request must carry exactly that
X-Amz-Security-Token), --auth-file and DYNOSCOPE_SERVE_AUTH, so that no secret need stand on a
command line; boto3 as the client. Secrets are never echoed."""
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

lib.use_system_python_for_boto3()
HAVE_BOTO3 = lib.has_boto3()
if HAVE_BOTO3:
    import boto3
    import botocore.config
    import botocore.exceptions

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"

KEY1, SECRET1 = "AKIDTEMPORARY1", "tmp-secret-one/K7MDENG+bPxRfiCYEXAMPLEKEY"
TOKEN1 = "FwoGZXIvYXdzEXAMPLE-session-token-one"
KEY2, SECRET2 = "AKIDFROMFILE2", "file-secret-two/K7MDENG+bPxRfiCYEXAMPLEKEY"
KEY3, SECRET3 = "AKIDFROMENV3", "env-secret-three/K7MDENG+bPxRfiCYEXAMPLEKEY"
TOKEN3 = "FwoGZXIvYXdzEXAMPLE-session-token-three"
SECRETS = (SECRET1, TOKEN1, SECRET2, SECRET3, TOKEN3)


class Server:
    def __init__(self, db, args, env=None):
        self.proc = subprocess.Popen([CLI, "--db", db, "serve", "--port", "0", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=env)
        ready, _, _ = select.select([self.proc.stdout], [], [], 30)
        if not ready:
            self.proc.kill()
            raise AssertionError("serve did not say it was listening")
        line = self.proc.stdout.readline()
        m = re.fullmatch(r"Listening on http://127\.0\.0\.1:(\d+)\n", line)
        if not m:
            self.proc.kill()
            raise AssertionError("unexpected first line %r; stderr %r"
                                 % (line, self.proc.stderr.read()))
        self.url = "http://127.0.0.1:%s" % m.group(1)

    def stop(self):
        self.proc.terminate()
        out, err = self.proc.communicate(timeout=60)
        return self.proc.returncode, out, err


@unittest.skipUnless(HAVE_BOTO3, "boto3 is not installed (apt-get install python3-boto3)")
class ServeAuth(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="dynoscope-serve-auth-")
        self.db = os.path.join(self.dir, "test.db")
        self.server = None

    def tearDown(self):
        if self.server is not None:
            status, out, err = self.server.stop()
            self.assertEqual(status, 0, err)
            for text in (out, err):
                for secret in SECRETS:
                    self.assertNotIn(secret, text)
        shutil.rmtree(self.dir)

    def client(self, key, secret, token=None):
        return boto3.client(
            "dynamodb", endpoint_url=self.server.url, region_name="us-east-1",
            aws_access_key_id=key, aws_secret_access_key=secret, aws_session_token=token,
            config=botocore.config.Config(retries={"max_attempts": 1}))

    def refused(self, code, message, key, secret, token=None):
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            self.client(key, secret, token).list_tables()
        self.assertEqual(cm.exception.response["Error"]["Code"], code)
        self.assertIn(message, cm.exception.response["Error"]["Message"])

    def test_session_token_on_the_command_line(self):
        self.server = Server(self.db, ["--auth", "%s:%s:%s" % (KEY1, SECRET1, TOKEN1)])
        self.assertEqual(self.client(KEY1, SECRET1, TOKEN1).list_tables()["TableNames"], [])
        invalid = "The security token included in the request is invalid."
        self.refused("UnrecognizedClientException", invalid, KEY1, SECRET1)
        self.refused("UnrecognizedClientException", invalid, KEY1, SECRET1, TOKEN1 + "x")
        self.refused("UnrecognizedClientException", invalid, KEY1, SECRET1, TOKEN1[:-1])
        # The signature is checked first: a wrong secret is a wrong signature.
        self.refused("InvalidSignatureException", "signature", KEY1, "wrong", TOKEN1)

    def test_keys_from_a_file_and_the_environment(self):
        path = os.path.join(self.dir, "keys")
        with open(path, "w") as f:
            f.write("# serve's keys\n\n  %s:%s  \n# %s:commented-out\n" % (KEY2, SECRET2, KEY3))
        os.chmod(path, 0o600)
        env = dict(os.environ, DYNOSCOPE_SERVE_AUTH="%s:%s:%s,\n%s:%s" % (
            KEY3, SECRET3, TOKEN3, KEY1, SECRET1))
        self.server = Server(self.db, ["--auth-file", path], env=env)
        self.client(KEY2, SECRET2).list_tables()
        self.client(KEY3, SECRET3, TOKEN3).list_tables()
        self.client(KEY1, SECRET1).list_tables()
        self.refused("UnrecognizedClientException", "is invalid", KEY3, SECRET3)
        self.refused("UnrecognizedClientException", "is invalid", "AKIDUNKNOWN", "x")
        # The process's command line holds no secret.
        with open("/proc/%d/cmdline" % self.server.proc.pid, "rb") as f:
            cmdline = f.read().decode()
        for secret in SECRETS:
            self.assertNotIn(secret, cmdline)

    def test_a_file_others_can_read_is_warned_about(self):
        path = os.path.join(self.dir, "keys")
        with open(path, "w") as f:
            f.write("%s:%s\n" % (KEY2, SECRET2))
        os.chmod(path, 0o644)
        self.server = Server(self.db, ["--auth-file", path])
        self.client(KEY2, SECRET2).list_tables()
        status, _, err = self.server.stop()
        self.server = None
        self.assertEqual(status, 0)
        self.assertIn("can be read by other users", err)
        self.assertNotIn(SECRET2, err)

    def test_malformed_keys(self):
        path = os.path.join(self.dir, "keys")
        with open(path, "w") as f:
            f.write("# ok\n%s:%s\nno-colon-%s\n" % (KEY2, SECRET2, SECRET3))
        os.chmod(path, 0o600)
        cases = (
            (["--auth", "KEY:" + SECRET1 + ":"], None,
             "--auth takes KEYID:SECRET or KEYID:SECRET:SESSION_TOKEN"),
            (["--auth", "KEY:%s:%s:extra" % (SECRET1, TOKEN1)], None, "--auth takes KEYID"),
            (["--auth-file", path], None, path + ":3: not KEYID:SECRET"),
            (["--auth-file", os.path.join(self.dir, "missing")], None, "--auth-file"),
            ([], "%s:%s,:%s" % (KEY1, SECRET1, SECRET3), "DYNOSCOPE_SERVE_AUTH (entry 2)"),
        )
        for args, env_value, message in cases:
            with self.subTest(args=args, env=env_value is not None):
                env = dict(os.environ)
                if env_value is not None:
                    env["DYNOSCOPE_SERVE_AUTH"] = env_value
                r = subprocess.run([CLI, "--db", self.db, "serve", "--port", "0", *args],
                                   capture_output=True, text=True, timeout=30, env=env)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(message, r.stderr)
                self.assertEqual(r.stdout, "")
                for secret in SECRETS:
                    self.assertNotIn(secret, r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
