#!/usr/bin/env python3
"""serve's keys: --auth KEYID:SECRET:SESSION_TOKEN (the request must carry exactly that
X-Amz-Security-Token), --auth-file and DYNOSCOPE_SERVE_AUTH, so that no secret need stand on a
command line; boto3 as the client. Secrets are never echoed. Presigned requests (the signature in
the query string) as botocore's SigV4QueryAuth makes them: accepted, and tampered copies refused
with DynamoDB's exception."""
import datetime
import http.client
import json
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
    import botocore.auth
    import botocore.awsrequest
    import botocore.config
    import botocore.credentials
    import botocore.exceptions

    class BodyKeepingQueryAuth(botocore.auth.SigV4QueryAuth):
        """botocore's presigner, the body kept where DynamoDB reads it: SigV4QueryAuth moves a
        body into the query string (as the query protocol's services want it); here the JSON
        stays the body, and its hash is what is signed (botocore's payload())."""

        def _modify_request_before_signing(self, request):
            data, request.data = request.data, b""
            try:
                super()._modify_request_before_signing(request)
            finally:
                request.data = data

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


def amz_time(when):
    return when.strftime("%Y%m%dT%H%M%SZ")


def presign(url, operation, request, key, secret, token=None, expires=300, when=None,
            service="dynamodb", header_auth=False):
    """A presigned POST of OPERATION as botocore's SigV4QueryAuth signs it (SigV4Auth.add_auth's
    steps, at WHEN): (path and query, headers, body)."""
    body = json.dumps(request).encode()
    req = botocore.awsrequest.AWSRequest(
        method="POST", url=url + "/", data=body,
        headers={"X-Amz-Target": "DynamoDB_20120810." + operation,
                 "Content-Type": "application/x-amz-json-1.0"})
    creds = botocore.credentials.Credentials(key, secret, token)
    auth = BodyKeepingQueryAuth(creds, service, "us-east-1", expires=expires)
    req.context["timestamp"] = amz_time(when or datetime.datetime.now(datetime.timezone.utc))
    auth._modify_request_before_signing(req)
    canonical = auth.canonical_request(req)
    auth._inject_signature_to_request(req, auth.signature(auth.string_to_sign(req, canonical),
                                                          req))
    if header_auth:
        botocore.auth.SigV4Auth(creds, service, "us-east-1").add_auth(req)
    target = req.url[len(url):]
    return target, dict(req.headers), body


def post(url, target, headers, body):
    """Sends the request as it is: (status, answer as JSON)."""
    host = url[len("http://"):]
    conn = http.client.HTTPConnection(host, timeout=30)
    try:
        conn.request("POST", target, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"{}")
    finally:
        conn.close()


def query_param(target, name):
    return re.search(r"[?&]" + re.escape(name) + r"=([^&]*)", target).group(1)


def edit(target, old, new):
    assert old in target, (old, target)
    return target.replace(old, new, 1)


@unittest.skipUnless(HAVE_BOTO3, "boto3 is not installed (apt-get install python3-boto3)")
class PresignedRequests(unittest.TestCase):
    """ListTables, CreateTable, PutItem and GetItem presigned by botocore, with and without a
    session token; each tampered part of a presigned request refused as DynamoDB refuses it."""

    ITEM = {"Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"},
            "Year": {"N": "2015"}}
    KEY = {"Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"}}

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="dynoscope-serve-presign-")
        cls.server = Server(os.path.join(cls.dir, "test.db"),
                            ["--auth", "%s:%s:%s" % (KEY1, SECRET1, TOKEN1),
                             "--auth", "%s:%s" % (KEY2, SECRET2)])
        cls.url = cls.server.url

    @classmethod
    def tearDownClass(cls):
        status, out, err = cls.server.stop()
        shutil.rmtree(cls.dir)
        assert status == 0, err
        for text in (out, err):
            for secret in SECRETS:
                assert secret not in text, "serve printed a secret"

    def call(self, operation, request, key=KEY2, secret=SECRET2, token=None, **kwargs):
        status, answer = post(self.url, *presign(self.url, operation, request, key, secret,
                                                 token, **kwargs))
        self.assertEqual(status, 200, answer)
        return answer

    def refused(self, code, message, target, headers, body):
        status, answer = post(self.url, target, headers, body)
        self.assertEqual(status, 400, answer)
        self.assertEqual(answer.get("__type", "").split("#")[-1], code, answer)
        self.assertIn(message, answer.get("message", ""))
        for secret in (SECRET1, SECRET2):
            self.assertNotIn(secret, answer.get("message", ""))

    def setUp(self):
        tables = self.call("ListTables", {})["TableNames"]
        if "Music" not in tables:
            self.call("CreateTable", {
                "TableName": "Music", "BillingMode": "PAY_PER_REQUEST",
                "KeySchema": [{"AttributeName": "Artist", "KeyType": "HASH"},
                              {"AttributeName": "SongTitle", "KeyType": "RANGE"}],
                "AttributeDefinitions": [{"AttributeName": "Artist", "AttributeType": "S"},
                                         {"AttributeName": "SongTitle", "AttributeType": "S"}]})

    def test_accepted(self):
        self.assertIn("Music", self.call("ListTables", {})["TableNames"])
        # With a session token: the key that has one must carry it, in the query.
        self.call("PutItem", {"TableName": "Music", "Item": self.ITEM}, KEY1, SECRET1, TOKEN1)
        got = self.call("GetItem", {"TableName": "Music", "Key": self.KEY, "ConsistentRead": True},
                        KEY1, SECRET1, TOKEN1)
        self.assertEqual(got["Item"], self.ITEM)
        # A week's lifetime; signed a while ago, still alive.
        now = datetime.datetime.now(datetime.timezone.utc)
        self.call("GetItem", {"TableName": "Music", "Key": self.KEY}, expires=604800,
                  when=now - datetime.timedelta(days=6))
        # Any region, as with the Authorization header; a presigned URL may be sent again.
        request = presign(self.url, "ListTables", {}, KEY2, SECRET2)
        for _ in range(2):
            self.assertEqual(post(self.url, *request)[0], 200)
        # The header-signed client still works beside.
        client = boto3.client(
            "dynamodb", endpoint_url=self.url, region_name="eu-west-3",
            aws_access_key_id=KEY1, aws_secret_access_key=SECRET1, aws_session_token=TOKEN1)
        self.assertIn("Music", client.list_tables()["TableNames"])

    def test_tampered(self):
        mismatch = "The request signature we calculated does not match"
        get = {"TableName": "Music", "Key": self.KEY}
        target, headers, body = presign(self.url, "GetItem", get, KEY1, SECRET1, TOKEN1)
        self.assertEqual(post(self.url, target, headers, body)[0], 200)
        sig = query_param(target, "X-Amz-Signature")
        flipped = sig[:-1] + ("1" if sig[-1] == "0" else "0")
        cases = {
            "signature": (edit(target, sig, flipped), headers, body),
            "signed header": (target, dict(headers, **{
                "X-Amz-Target": "DynamoDB_20120810.DeleteItem"}), body),
            "body": (target, headers, body.replace(b"Happy Day", b"Happy Days")),
            "expires": (edit(target, "X-Amz-Expires=300", "X-Amz-Expires=301"), headers, body),
            "added parameter": (edit(target, "?", "?Extra=1&"), headers, body),
            "signed headers": (edit(target, "X-Amz-SignedHeaders=content-type%3B",
                                    "X-Amz-SignedHeaders="), headers, body),
            "token": (edit(target, "X-Amz-Security-Token=", "X-Amz-Security-Token=x"), headers,
                      body),
        }
        for what, request in cases.items():
            with self.subTest(what=what):
                self.refused("InvalidSignatureException", mismatch, *request)

        # The scope: the service, the date.
        self.refused("InvalidSignatureException",
                     "Credential should be scoped to correct service: 'dynamodb'.",
                     *presign(self.url, "GetItem", get, KEY2, SECRET2, service="dynamo"))
        date = query_param(target, "X-Amz-Date")[:8]
        self.refused("InvalidSignatureException", "Date in Credential scope does not match",
                     edit(target, "%2F" + date + "%2F", "%2F20150830%2F"), headers, body)
        # The lifetime: expired, not yet current.
        now = datetime.datetime.now(datetime.timezone.utc)
        self.refused("InvalidSignatureException", "Signature expired: ",
                     *presign(self.url, "GetItem", get, KEY2, SECRET2, expires=60,
                              when=now - datetime.timedelta(seconds=600)))
        self.refused("InvalidSignatureException", "Signature not yet current: ",
                     *presign(self.url, "GetItem", get, KEY2, SECRET2,
                              when=now + datetime.timedelta(hours=1)))
        # X-Amz-Expires out of range.
        self.refused("IncompleteSignatureException", "X-Amz-Expires must be greater than 0",
                     *presign(self.url, "GetItem", get, KEY2, SECRET2, expires=0))
        self.refused("IncompleteSignatureException", "X-Amz-Expires must be less than a week",
                     *presign(self.url, "GetItem", get, KEY2, SECRET2, expires=604801))
        self.refused("IncompleteSignatureException", "X-Amz-Expires should be a number",
                     edit(target, "X-Amz-Expires=300", "X-Amz-Expires=5m"), headers, body)
        # A parameter missing, or twice.
        self.refused("IncompleteSignatureException",
                     "AWS query-string parameters must include 'X-Amz-Signature'. Re-examine",
                     edit(target, "&X-Amz-Signature=" + sig, ""), headers, body)
        self.refused("IncompleteSignatureException", "must include 'X-Amz-Date' only once",
                     target + "&X-Amz-Date=" + query_param(target, "X-Amz-Date"), headers, body)
        # Both kinds of signature at once.
        self.refused("InvalidSignatureException",
                     "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' "
                     "as HTTP header.",
                     *presign(self.url, "GetItem", get, KEY2, SECRET2, header_auth=True))

    def test_keys_and_tokens(self):
        get = {"TableName": "Music", "Key": self.KEY}
        invalid = "The security token included in the request is invalid."
        # An unknown key; a key's token missing, or another one (each signed as it is).
        self.refused("UnrecognizedClientException", invalid,
                     *presign(self.url, "GetItem", get, "AKIDUNKNOWN", "x"))
        self.refused("UnrecognizedClientException", invalid,
                     *presign(self.url, "GetItem", get, KEY1, SECRET1))
        self.refused("UnrecognizedClientException", invalid,
                     *presign(self.url, "GetItem", get, KEY1, SECRET1, TOKEN1 + "x"))
        # A header token does not stand in for the query's.
        target, headers, body = presign(self.url, "GetItem", get, KEY1, SECRET1)
        self.refused("UnrecognizedClientException", invalid, target,
                     dict(headers, **{"X-Amz-Security-Token": TOKEN1}), body)
        # The signature is checked first: a wrong secret is a wrong signature.
        self.refused("InvalidSignatureException", "signature",
                     *presign(self.url, "GetItem", get, KEY1, "wrong", TOKEN1))


if __name__ == "__main__":
    unittest.main(verbosity=2)
