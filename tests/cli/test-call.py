#!/usr/bin/env python3
"""dynoscope-cli call, run as a script runs it: requests in, response JSON out, errors and exit
status as documented in `dynoscope-cli call --help`."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"

TABLE = {
    "TableName": "Workspaces",
    "AttributeDefinitions": [{"AttributeName": "EntityRef", "AttributeType": "S"},
                             {"AttributeName": "Detail", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "EntityRef", "KeyType": "HASH"},
                  {"AttributeName": "Detail", "KeyType": "RANGE"}],
    "BillingMode": "PAY_PER_REQUEST",
}


# No AWS configuration from the machine running the tests: without --db the CLI would go to the
# configured region's real endpoint.
ENV = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
ENV["AWS_CONFIG_FILE"] = os.devnull
ENV["AWS_SHARED_CREDENTIALS_FILE"] = os.devnull


def run(*args, stdin=None):
    return subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True, timeout=30,
                          env=ENV)


class Call(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="dynoscope-cli-test-")
        self.db = os.path.join(self.dir, "test.db")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def call(self, op, request=None, stdin=None):
        args = ["--db", self.db, "call", op]
        if request is not None:
            args.append(request if isinstance(request, str) else json.dumps(request))
        return run(*args, stdin=stdin)

    def ok(self, op, request=None, **kw):
        r = self.call(op, request, **kw)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        return json.loads(r.stdout)

    def create(self):
        return self.ok("CreateTable", TABLE)

    def put(self, detail, **attrs):
        item = {"EntityRef": {"S": "WS#acme"}, "Detail": {"S": detail}, **attrs}
        return self.ok("PutItem", {"TableName": "Workspaces", "Item": item})

    def test_nul_in_strings(self):
        # U+0000 is a valid DynamoDB string character, in keys and values, in and out whole.
        self.create()
        item = {"EntityRef": {"S": "WS#\u0000"}, "Detail": {"S": "a\u0000b"},
                "v": {"S": "x\u0000y"}, "ss": {"SS": ["\u0000"]}, "m": {"M": {"k": {"S": "\u0000"}}}}
        self.ok("PutItem", {"TableName": "Workspaces", "Item": item})
        got = self.ok("GetItem", {"TableName": "Workspaces",
                                  "Key": {"EntityRef": item["EntityRef"], "Detail": item["Detail"]}})
        self.assertEqual(got, {"Item": item})
        # The request from standard input, and the raw text on the way out.
        r = self.call("Query", stdin=json.dumps({
            "TableName": "Workspaces", "KeyConditionExpression": "EntityRef = :e",
            "FilterExpression": "v = :v",
            "ExpressionAttributeValues": {":e": {"S": "WS#\u0000"}, ":v": {"S": "x\u0000y"}}}))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('"Detail":{"S":"a\\u0000b"}', r.stdout)
        self.assertEqual(json.loads(r.stdout)["Count"], 1)
        # A key that differs only after the NUL is another item.
        got = self.ok("GetItem", {"TableName": "Workspaces",
                                  "Key": {"EntityRef": item["EntityRef"], "Detail": {"S": "a"}}})
        self.assertEqual(got, {})

    def test_help(self):
        r = run("--help")
        self.assertEqual(r.returncode, 0)
        for cmd in ("call", "eval", "--db"):
            self.assertIn(cmd, r.stdout)
        r = run("call", "--help")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("OPERATION", r.stdout)
        self.assertIn("ErrorName: message", r.stdout)
        r = run("--db", self.db, "call", "--help")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertFalse(os.path.exists(self.db), "--help must not create the database")

    def test_create_put_get_query(self):
        desc = self.create()["TableDescription"]
        self.assertEqual(desc["TableName"], "Workspaces")
        self.assertEqual(desc["TableStatus"], "ACTIVE")
        self.put("META", name={"S": "Acme Corp"})
        for i in (40, 41, 42):
            self.put(f"PROJ#2026-00{i}", budget={"N": "12345678901234567890123456789012345678"})
        got = self.ok("GetItem", {"TableName": "Workspaces",
                                  "Key": {"EntityRef": {"S": "WS#acme"}, "Detail": {"S": "META"}}})
        self.assertEqual(got, {"Item": {"EntityRef": {"S": "WS#acme"}, "Detail": {"S": "META"},
                                        "name": {"S": "Acme Corp"}}})
        q = self.ok("Query", {"TableName": "Workspaces",
                              "KeyConditionExpression": "EntityRef = :ws AND begins_with(Detail, :p)",
                              "ExpressionAttributeValues": {":ws": {"S": "WS#acme"},
                                                            ":p": {"S": "PROJ#"}},
                              "ScanIndexForward": False})
        self.assertEqual([i["Detail"]["S"] for i in q["Items"]],
                         ["PROJ#2026-0042", "PROJ#2026-0041", "PROJ#2026-0040"])
        self.assertEqual(q["Count"], 3)
        self.assertEqual(q["ScannedCount"], 3)
        # Numbers keep every digit.
        self.assertEqual(q["Items"][0]["budget"], {"N": "12345678901234567890123456789012345678"})

    def test_streams_api_by_its_target_name(self):
        desc = self.ok("CreateTable", dict(TABLE, StreamSpecification={
            "StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}))["TableDescription"]
        self.put("META", name={"S": "Acme Corp"})
        streams = self.ok("DynamoDBStreams_20120810.ListStreams", {})["Streams"]
        self.assertEqual([s["StreamArn"] for s in streams], [desc["LatestStreamArn"]])
        d = self.ok("DynamoDBStreams_20120810.DescribeStream",
                    {"StreamArn": desc["LatestStreamArn"]})["StreamDescription"]
        it = self.ok("DynamoDBStreams_20120810.GetShardIterator", {
            "StreamArn": d["StreamArn"], "ShardId": d["Shards"][0]["ShardId"],
            "ShardIteratorType": "TRIM_HORIZON"})["ShardIterator"]
        recs = self.ok("DynamoDBStreams_20120810.GetRecords", {"ShardIterator": it})["Records"]
        self.assertEqual([r["eventName"] for r in recs], ["INSERT"])
        self.assertEqual(recs[0]["dynamodb"]["NewImage"]["name"], {"S": "Acme Corp"})
        r = self.call("DynamoDBStreams_20120810.GetRecords", {"ShardIterator": "x"})
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stderr.startswith("ValidationException: "), r.stderr)
        r = run("call", "--help")
        self.assertIn("DynamoDBStreams_20120810.GetRecords", r.stdout)

    def test_database_persists_between_runs(self):
        self.create()
        self.assertEqual(self.ok("ListTables"), {"TableNames": ["Workspaces"]})
        self.assertTrue(os.path.exists(self.db))

    def test_db_equals_form(self):
        r = run(f"--db={self.db}", "call", "ListTables", "{}")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout), {"TableNames": []})

    def test_request_from_stdin(self):
        r = run("--db", self.db, "call", "CreateTable", "-", stdin=json.dumps(TABLE))
        self.assertEqual(r.returncode, 0, r.stderr)
        # Absent request with a pipe on standard input: read from it too.
        r = run("--db", self.db, "call", "DescribeTable",
                stdin='{"TableName": "Workspaces"}')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["Table"]["TableName"], "Workspaces")
        # Empty input is the empty request.
        r = run("--db", self.db, "call", "ListTables", stdin="")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout), {"TableNames": ["Workspaces"]})

    def test_output_compact_unless_asked(self):
        r = run("--db", self.db, "call", "ListTables", "{}")
        self.assertEqual(r.stdout, '{"TableNames":[]}\n')
        r = run("--db", self.db, "call", "--pretty", "ListTables", "{}")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, '{\n  "TableNames": []\n}\n')
        r = run("--db", self.db, "call", "--pretty", "--compact", "ListTables", "{}")
        self.assertEqual(r.returncode, 2)

    def test_output_pretty_on_a_terminal(self):
        import pty
        master, slave = pty.openpty()
        try:
            p = subprocess.run([CLI, "--db", self.db, "call", "ListTables", "{}"],
                               stdout=slave, stderr=subprocess.PIPE, timeout=30)
            self.assertEqual(p.returncode, 0, p.stderr)
            out = os.read(master, 4096).decode().replace("\r\n", "\n")
        finally:
            os.close(master)
            os.close(slave)
        self.assertEqual(out, '{\n  "TableNames": []\n}\n')

    def test_dynamodb_error(self):
        r = self.call("DescribeTable", {"TableName": "Missing"})
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "")
        self.assertRegex(r.stderr, r"^ResourceNotFoundException: \S.*\n$")
        self.create()
        r = self.call("PutItem", {"TableName": "Workspaces",
                                  "Item": {"EntityRef": {"S": "x"}}})
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stderr.startswith("ValidationException: "), r.stderr)
        self.assertEqual(len(r.stderr.splitlines()), 1)

    def test_conditional_check_failed(self):
        self.create()
        self.put("META")
        r = self.call("PutItem", {"TableName": "Workspaces",
                                  "Item": {"EntityRef": {"S": "WS#acme"}, "Detail": {"S": "META"}},
                                  "ConditionExpression": "attribute_not_exists(Detail)"})
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "ConditionalCheckFailedException: The conditional request failed\n")

    def test_transaction_canceled_prints_reasons(self):
        self.create()
        self.put("META")
        r = self.call("TransactWriteItems", {"TransactItems": [
            {"Put": {"TableName": "Workspaces",
                     "Item": {"EntityRef": {"S": "WS#acme"}, "Detail": {"S": "NEW"}}}},
            {"ConditionCheck": {"TableName": "Workspaces",
                                "Key": {"EntityRef": {"S": "WS#acme"}, "Detail": {"S": "META"}},
                                "ConditionExpression": "attribute_not_exists(Detail)"}}]})
        self.assertEqual(r.returncode, 1)
        first, rest = r.stderr.split("\n", 1)
        self.assertTrue(first.startswith("TransactionCanceledException: "), first)
        self.assertIn("[None, ConditionalCheckFailed]", first)
        extra = json.loads(rest)
        self.assertEqual([x["Code"] for x in extra["CancellationReasons"]],
                         ["None", "ConditionalCheckFailed"])
        # Nothing was written.
        got = self.ok("GetItem", {"TableName": "Workspaces",
                                  "Key": {"EntityRef": {"S": "WS#acme"}, "Detail": {"S": "NEW"}}})
        self.assertEqual(got, {})

    def test_malformed_request(self):
        r = self.call("ListTables", '{"Limit": ')
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stderr.startswith("SerializationException: The request is not valid JSON"),
                        r.stderr)
        r = self.call("ListTables", "[1, 2]")
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stderr.startswith("SerializationException: The request must be a JSON "
                                            "object"), r.stderr)
        r = self.call("ListTables", "-", stdin="not json")
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stderr.startswith("SerializationException: "), r.stderr)

    def test_unknown_operation(self):
        r = self.call("Frobnicate", {})
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stderr, r"^UnknownOperationException: \S.*\n$")

    def test_usage_errors(self):
        cases = [
            ["call", "ListTables"],                      # no --db
            ["--db"],                                    # --db without a path
            ["--db=", "call", "ListTables"],             # empty path
            ["--db", self.db],                           # no command
            ["--db", self.db, "call"],                   # no operation
            ["--db", self.db, "call", "ListTables", "{}", "extra"],
            ["--db", self.db, "call", "--no-such-option", "ListTables"],
            ["--bogus", "call", "ListTables"],
            ["--db", self.db, "frobnicate"],
        ]
        for args in cases:
            with self.subTest(args=args):
                r = run(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(r.stdout, "")
                self.assertNotEqual(r.stderr, "")

    def test_eval_still_works_with_db(self):
        line = '{"pk":{"S":"a"},"n":{"N":"1"}}\n'
        r = run("--db", self.db, "eval", "--count", stdin=line)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "1\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
