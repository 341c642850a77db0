#!/usr/bin/env python3
"""`dynoscope-cli whoami` against a stand-in STS (AWS_ENDPOINT_URL_STS): the ARN, account,
provider and expiry of env keys and of a role with mfa_serial, whose code is asked on the
terminal (driven through a pseudo-terminal: no echo, Ctrl+C cancels, no terminal is a clear
error); and the client's re-resolve on ExpiredTokenException. No secret is ever printed."""
import datetime
import http.server
import json
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"

ACCOUNT = "123456789012"
BASE_KEY, BASE_SECRET = "AKIDBASEUSER0001", "base-secret/K7MDENG+bPxRfiCYEXAMPLEKEY"
ROLE_KEY, ROLE_SECRET = "ASIAROLESESSION01", "role-secret/K7MDENG+bPxRfiCYEXAMPLEKEY"
ROLE_TOKEN = "FwoGZXIvYXdzEXAMPLE-role-session-token"
OLD_KEY, OLD_SECRET = "AKIDOLDKEY000001", "old-secret/K7MDENG+bPxRfiCYEXAMPLEKEY"
NEW_KEY, NEW_SECRET = "AKIDNEWKEY000002", "new-secret/K7MDENG+bPxRfiCYEXAMPLEKEY"
SECRETS = (BASE_SECRET, ROLE_SECRET, ROLE_TOKEN, OLD_SECRET, NEW_SECRET)
MFA_SERIAL = "arn:aws:iam::%s:mfa/alice" % ACCOUNT
ROLE_ARN = "arn:aws:iam::%s:role/admin" % ACCOUNT
CODE = "493027"


class Fake(http.server.ThreadingHTTPServer):
    """STS (form bodies) and DynamoDB (X-Amz-Target) on one port; records every call."""
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.calls = []  # (operation, access key id, form or None)
        self.lock = threading.Lock()
        self.on_dynamodb = None  # f(key_id) -> (status, body dict)
        self.expiration = None
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self.server_address[1]

    def ops(self):
        with self.lock:
            return [c[0] for c in self.calls]


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
        auth = self.headers.get("Authorization", "")
        m = re.search(r"Credential=([^/]+)/", auth)
        key_id = m.group(1) if m else None
        fake = self.server
        target = self.headers.get("X-Amz-Target")
        if target:
            op = target.split(".", 1)[1]
            with fake.lock:
                fake.calls.append((op, key_id, None))
            status, answer = fake.on_dynamodb(key_id)
            return self.reply(status, json.dumps(answer), "application/x-amz-json-1.0")
        form = dict(urllib.parse.parse_qsl(body))
        op = form.get("Action")
        with fake.lock:
            fake.calls.append((op, key_id, form))
        if op == "AssumeRole":
            if key_id != BASE_KEY or form.get("TokenCode") != CODE:
                return self.reply(403, "<ErrorResponse><Error><Code>AccessDenied</Code><Message>"
                                  "MultiFactorAuthentication failed</Message></Error>"
                                  "</ErrorResponse>", "text/xml")
            return self.reply(200, (
                "<AssumeRoleResponse><AssumeRoleResult><Credentials>"
                "<AccessKeyId>%s</AccessKeyId><SecretAccessKey>%s</SecretAccessKey>"
                "<SessionToken>%s</SessionToken><Expiration>%s</Expiration></Credentials>"
                "<AssumedRoleUser><Arn>arn:aws:sts::%s:assumed-role/admin/s</Arn>"
                "<AssumedRoleId>AROAEXAMPLE:s</AssumedRoleId></AssumedRoleUser>"
                "</AssumeRoleResult></AssumeRoleResponse>")
                % (ROLE_KEY, ROLE_SECRET, ROLE_TOKEN, fake.expiration, ACCOUNT), "text/xml")
        if op == "GetCallerIdentity":
            arn = {BASE_KEY: "arn:aws:iam::%s:user/alice" % ACCOUNT,
                   ROLE_KEY: "arn:aws:sts::%s:assumed-role/admin/session" % ACCOUNT}.get(key_id)
            if arn is None:
                return self.reply(403, "<ErrorResponse><Error><Code>InvalidClientTokenId</Code>"
                                  "<Message>The security token included in the request is "
                                  "invalid.</Message></Error></ErrorResponse>", "text/xml")
            return self.reply(200, (
                "<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>%s</Arn>"
                "<UserId>AIDAEXAMPLE</UserId><Account>%s</Account></GetCallerIdentityResult>"
                "</GetCallerIdentityResponse>") % (arn, ACCOUNT), "text/xml")
        return self.reply(400, "<ErrorResponse/>", "text/xml")


class WhoamiTestCase(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="dynoscope-whoami-")
        os.mkdir(os.path.join(self.home, ".aws"))
        self.fake = Fake()
        expiry = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)
        self.fake.expiration = expiry.strftime("%Y-%m-%dT%H:%M:%SZ")

    def tearDown(self):
        self.fake.shutdown()
        self.fake.server_close()
        shutil.rmtree(self.home)

    def write(self, name, text):
        with open(os.path.join(self.home, ".aws", name), "w") as f:
            f.write(text)

    def env(self, **extra):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("AWS_") and not k.endswith("_proxy")
               and not k.endswith("_PROXY")}
        env.update(HOME=self.home, AWS_REGION="us-east-1", AWS_EC2_METADATA_DISABLED="true",
                   AWS_ENDPOINT_URL_STS=self.fake.url, LC_ALL="C.UTF-8", LANGUAGE="C")
        env.update(extra)
        return env

    def assert_no_secret(self, *texts):
        for text in texts:
            for secret in SECRETS + (CODE,):
                self.assertNotIn(secret, text)


class Whoami(WhoamiTestCase):
    def test_env_keys(self):
        env = self.env(AWS_ACCESS_KEY_ID=BASE_KEY, AWS_SECRET_ACCESS_KEY=BASE_SECRET)
        r = subprocess.run([CLI, "whoami"], capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("arn:aws:iam::%s:user/alice" % ACCOUNT, r.stdout)
        self.assertRegex(r.stdout, r"Account:\s+%s" % ACCOUNT)
        self.assertRegex(r.stdout, r"Provider:\s+env\n")
        self.assertRegex(r.stdout, r"Expires:\s+never")
        self.assert_no_secret(r.stdout, r.stderr)
        self.assertEqual(self.fake.ops(), ["GetCallerIdentity"])

        r = subprocess.run([CLI, "whoami", "--json"], capture_output=True, text=True, env=env,
                           timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = json.loads(r.stdout)
        self.assertEqual(out["Arn"], "arn:aws:iam::%s:user/alice" % ACCOUNT)
        self.assertEqual(out["Account"], ACCOUNT)
        self.assertEqual(out["Provider"], "env")
        self.assertIsNone(out["Expiration"])
        self.assert_no_secret(r.stdout, r.stderr)

    def test_without_a_region_sts_is_still_reached(self):
        env = self.env(AWS_ACCESS_KEY_ID=BASE_KEY, AWS_SECRET_ACCESS_KEY=BASE_SECRET)
        del env["AWS_REGION"]
        r = subprocess.run([CLI, "whoami", "--json"], capture_output=True, text=True, env=env,
                           timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["Account"], ACCOUNT)

    def test_refused_keys_and_usage(self):
        env = self.env(AWS_ACCESS_KEY_ID="AKIDUNKNOWN", AWS_SECRET_ACCESS_KEY=BASE_SECRET)
        r = subprocess.run([CLI, "whoami"], capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(r.returncode, 1)
        self.assertIn("InvalidClientTokenId", r.stderr)
        self.assert_no_secret(r.stdout, r.stderr)
        r = subprocess.run([CLI, "--db", ":memory:", "whoami"], capture_output=True, text=True,
                           env=env, timeout=60)
        self.assertEqual(r.returncode, 2)
        r = subprocess.run([CLI, "whoami", "extra"], capture_output=True, text=True, env=env,
                           timeout=60)
        self.assertEqual(r.returncode, 2)


def run_on_pty(args, env, answer=None, timeout=60):
    """Runs ARGS with a pseudo-terminal as its controlling terminal; once the MFA prompt shows,
    types ANSWER (bytes). Returns (status, everything the terminal showed)."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execve(args[0], args, env)
        finally:
            os._exit(127)
    seen = b""
    answered = answer is None
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 1)
            if not ready:
                continue
            try:
                data = os.read(fd, 4096)
            except OSError:
                break
            if not data:
                break
            seen += data
            if not answered and b"Enter MFA code for " + MFA_SERIAL.encode() + b": " in seen:
                answered = True
                os.write(fd, answer)
        else:
            os.kill(pid, signal.SIGKILL)
            raise AssertionError("timed out; the terminal showed %r" % seen)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    return os.waitstatus_to_exitcode(status), seen.decode(errors="replace")


class MfaPrompt(WhoamiTestCase):
    def setUp(self):
        super().setUp()
        self.write("config", "[profile admin]\nrole_arn = %s\nsource_profile = base\n"
                   "mfa_serial = %s\n" % (ROLE_ARN, MFA_SERIAL))
        self.write("credentials", "[base]\naws_access_key_id = %s\naws_secret_access_key = %s\n"
                   % (BASE_KEY, BASE_SECRET))

    def test_code_asked_on_the_terminal(self):
        status, shown = run_on_pty([CLI, "--profile", "admin", "whoami"], self.env(),
                                   answer=CODE.encode() + b"\r")
        self.assertEqual(status, 0, shown)
        self.assertIn("Enter MFA code for %s: " % MFA_SERIAL, shown)
        self.assertIn("assumed-role/admin", shown)
        self.assertRegex(shown, r"Provider:\s+assume-role")
        self.assertRegex(shown, r"Expires:\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in (59|60) minutes\)")
        # Not echoed, and never printed.
        self.assert_no_secret(shown)
        self.assertEqual(self.fake.ops(), ["AssumeRole", "GetCallerIdentity"])
        form = self.fake.calls[0][2]
        self.assertEqual(form["SerialNumber"], MFA_SERIAL)
        self.assertEqual(form["TokenCode"], CODE)
        self.assertEqual(form["RoleArn"], ROLE_ARN)

    def test_erase_then_code(self):
        status, shown = run_on_pty([CLI, "--profile", "admin", "whoami", "--json"], self.env(),
                                   answer=b"99\x7f\x7f" + CODE.encode() + b"\n")
        self.assertEqual(status, 0, shown)
        self.assertEqual(self.fake.calls[0][2]["TokenCode"], CODE)

    def test_ctrl_c_cancels(self):
        status, shown = run_on_pty([CLI, "--profile", "admin", "whoami"], self.env(),
                                   answer=b"12\x03")
        self.assertNotEqual(status, 0)
        self.assertIn("cancelled", shown)
        self.assertEqual(self.fake.ops(), [])

    def test_no_terminal(self):
        r = subprocess.run([CLI, "--profile", "admin", "whoami"], capture_output=True, text=True,
                           env=self.env(), stdin=subprocess.DEVNULL, start_new_session=True,
                           timeout=60)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no terminal", r.stderr)
        self.assertIn(MFA_SERIAL, r.stderr)
        self.assertEqual(self.fake.ops(), [])


class ReResolve(WhoamiTestCase):
    """The client answers ExpiredTokenException by resolving the profile again and sending the
    request once more."""

    def setUp(self):
        super().setUp()
        self.write("credentials", "[default]\naws_access_key_id = %s\naws_secret_access_key = %s\n"
                   % (OLD_KEY, OLD_SECRET))

    def expired(self):
        return 400, {"__type": "com.amazon.coral.service#ExpiredTokenException",
                     "message": "The security token included in the request is expired"}

    def test_fresh_keys_after_expired_token(self):
        def on_dynamodb(key_id):
            if key_id == OLD_KEY:
                # Someone (aws configure, a credential helper) renews the file meanwhile.
                self.write("credentials", "[default]\naws_access_key_id = %s\n"
                           "aws_secret_access_key = %s\n" % (NEW_KEY, NEW_SECRET))
                return self.expired()
            return 200, {"TableNames": ["renewed"]}
        self.fake.on_dynamodb = on_dynamodb
        r = subprocess.run([CLI, "--endpoint", self.fake.url, "call", "ListTables", "{}"],
                           capture_output=True, text=True, env=self.env(), timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["TableNames"], ["renewed"])
        self.assertEqual([c[1] for c in self.fake.calls], [OLD_KEY, NEW_KEY])
        self.assert_no_secret(r.stdout, r.stderr)

    def test_only_once(self):
        self.fake.on_dynamodb = lambda key_id: self.expired()
        r = subprocess.run([CLI, "--endpoint", self.fake.url, "call", "ListTables", "{}"],
                           capture_output=True, text=True, env=self.env(), timeout=60)
        self.assertEqual(r.returncode, 1)
        self.assertIn("ExpiredTokenException", r.stderr)
        self.assertEqual(self.fake.ops(), ["ListTables", "ListTables"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
