#!/usr/bin/env python3
"""dynoscope-cli call against an endpoint (--endpoint, --profile, --region): the same output and
exit statuses as with --db. Uses the fault-injecting server of tests/lib (always) and dynalite
(when node is there and it is installed in the cache)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"


def run(*args, stdin=None, env=None):
    return subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True, timeout=60,
                          env=lib.client_env(env))


class Endpoint(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fault = lib.FaultServer().start()
        cls.dynalite = None
        node_cli = lib.find_dynalite() if shutil.which("node") else None
        if node_cli is not None:
            cls.dynalite = lib.Dynalite(node_cli)
            if not cls.dynalite.start():
                cls.dynalite = None

    @classmethod
    def tearDownClass(cls):
        cls.fault.stop()
        if cls.dynalite is not None:
            cls.dynalite.stop()

    def script(self, steps, answer=None):
        import urllib.request
        body = json.dumps({"script": steps, "answer": answer or {"TableNames": ["t1"]}}).encode()
        urllib.request.urlopen(urllib.request.Request(self.fault.url + "/__script", data=body),
                               timeout=10).read()

    def test_endpoint_success(self):
        self.script([])
        r = run("--endpoint", self.fault.url, "--region", "us-east-1", "call", "ListTables")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout), {"TableNames": ["t1"]})
        self.assertEqual(r.stderr, "")

    def test_retried_then_success(self):
        self.script(["500", "throttle"])
        r = run("--endpoint", self.fault.url, "--region", "us-east-1", "call", "ListTables", "{}")
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_errors_as_with_db(self):
        self.script(["notfound"])
        r = run("--endpoint", self.fault.url, "--region", "us-east-1", "call", "DescribeTable",
                '{"TableName": "x"}')
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "")
        self.assertEqual(r.stderr, "ResourceNotFoundException: Requested resource not found\n")
        # An exception no code names keeps its name.
        self.script(["access"])
        r = run("--endpoint", self.fault.url, "--region", "us-east-1", "call", "ListTables")
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stderr.startswith("AccessDeniedException: User: arn:aws:iam::"),
                        r.stderr)
        self.assertEqual(len(r.stderr.splitlines()), 1)
        # Extra members on the next line, as with --db.
        self.script(["canceled"])
        r = run("--endpoint", self.fault.url, "--region", "us-east-1", "call",
                "TransactWriteItems", "{}")
        self.assertEqual(r.returncode, 1)
        first, rest = r.stderr.split("\n", 1)
        self.assertTrue(first.startswith("TransactionCanceledException: Transaction cancelled"))
        self.assertEqual([x["Code"] for x in json.loads(rest)["CancellationReasons"]],
                         ["None", "ConditionalCheckFailed"])

    def test_profile_endpoint_and_region(self):
        self.script([])
        with tempfile.TemporaryDirectory() as tmp:
            config = os.path.join(tmp, "config")
            creds = os.path.join(tmp, "credentials")
            with open(config, "w") as f:
                f.write(f"[profile local]\nregion = eu-west-1\nendpoint_url = {self.fault.url}\n")
            with open(creds, "w") as f:
                f.write("[local]\naws_access_key_id = AKIAPROFILEKEY000000\n"
                        "aws_secret_access_key = profile/secret\n")
            env = {"AWS_CONFIG_FILE": config, "AWS_SHARED_CREDENTIALS_FILE": creds}
            env_no_keys = dict(env)
            r = subprocess.run([CLI, "--profile", "local", "call", "ListTables"],
                               capture_output=True, text=True, timeout=60,
                               env={**{k: v for k, v in os.environ.items()
                                       if not k.startswith("AWS_")}, **env_no_keys})
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(json.loads(r.stdout), {"TableNames": ["t1"]})
            stats = json.loads(__import__("urllib.request").request.urlopen(
                self.fault.url + "/__stats", timeout=10).read())
            auth = stats["last_headers"]["authorization"]
            self.assertIn("Credential=AKIAPROFILEKEY000000/", auth)
            self.assertIn("/eu-west-1/dynamodb/aws4_request", auth)
            self.assertNotIn("profile/secret", json.dumps(stats))
            self.assertNotIn("profile/secret", r.stderr + r.stdout)
            # An unknown profile is a configuration error.
            r = run("--profile", "nope", "call", "ListTables", env=env)
            self.assertEqual(r.returncode, 2)
            self.assertIn("nope", r.stderr)

    def test_usage_and_configuration_errors(self):
        cases = [
            ["--db", "x.db", "--endpoint", self.fault.url, "call", "ListTables"],
            ["--db", "x.db", "--profile", "p", "call", "ListTables"],
            ["--endpoint"],
            ["--endpoint=", "call", "ListTables"],
            ["--endpoint", self.fault.url, "call"],
            ["call", "ListTables"],  # no region anywhere
            ["--endpoint", "not a url", "--region", "us-east-1", "call", "ListTables"],
            # import and export work on an endpoint (test-live-transfer.py); their usage errors
            # are still caught before anything is opened.
            ["--endpoint", self.fault.url, "--region", "us-east-1", "import", "x.json"],
            ["--endpoint", self.fault.url, "--region", "us-east-1", "export", "--table", "t",
             "--segments", "0", "x.json"],
            ["--endpoint", "not a url", "--region", "us-east-1", "export", "--table", "t",
             "x.json"],
        ]
        with tempfile.TemporaryDirectory() as tmp:
            for args in cases:
                with self.subTest(args=args):
                    r = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60,
                                       cwd=tmp, env=lib.client_env())
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertEqual(r.stdout, "")
                    self.assertNotEqual(r.stderr, "")
            self.assertEqual(os.listdir(tmp), [], "no database may be created")

    def test_unreachable(self):
        port = lib.free_port()
        r = run("--endpoint", f"http://127.0.0.1:{port}", "--region", "us-east-1", "call",
                "ListTables")
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stderr.startswith("dynoscope-cli call: Could not reach"), r.stderr)

    def test_dynalite_round_trip(self):
        if self.dynalite is None:
            self.skipTest("dynalite is not installed")
        base = ["--endpoint", self.dynalite.url, "--region", "us-east-1", "call"]
        table = {"TableName": "cli_t", "BillingMode": "PAY_PER_REQUEST",
                 "AttributeDefinitions": [{"AttributeName": "k", "AttributeType": "S"}],
                 "KeySchema": [{"AttributeName": "k", "KeyType": "HASH"}]}
        r = run(*base, "CreateTable", "-", stdin=json.dumps(table))
        self.assertEqual(r.returncode, 0, r.stderr)
        r = run(*base, "PutItem", json.dumps({"TableName": "cli_t", "Item": {
            "k": {"S": "a"}, "n": {"N": "12345678901234567890123456789012345678"}}}))
        self.assertEqual(r.returncode, 0, r.stderr)
        r = run(*base, "GetItem", json.dumps({"TableName": "cli_t", "Key": {"k": {"S": "a"}}}))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["Item"]["n"]["N"],
                         "12345678901234567890123456789012345678")
        r = run(*base, "PutItem", json.dumps({"TableName": "cli_t", "Item": {"k": {"S": "a"}},
                                              "ConditionExpression": "attribute_not_exists(k)"}))
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "ConditionalCheckFailedException: The conditional request "
                                   "failed\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
