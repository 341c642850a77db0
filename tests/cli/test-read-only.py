#!/usr/bin/env python3
"""dynoscope-cli --read-only (and DYNOSCOPE_READ_ONLY), run as a user runs it, on a database file
(--db) and on an endpoint (--endpoint, a `dynoscope-cli serve` of another database file).

The issue's check: a read-only connection's commit, PartiQL INSERT and DeleteTable are refused.
Here every write the CLI can make (call of each write operation, PartiQL writes in each shape,
import, staging commit, model apply; snapshot base/pull and serve on a database) fails with a
non-zero exit status and the refusal on standard error, leaving every table (description, TTL,
tags, items) as it was, and the database file byte for byte; every read (call of the reads,
PartiQL SELECT, export, sql, fanout's staging) answers exactly what it answers without
--read-only."""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

CLI = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli")
MODEL = os.path.join(lib.SRC, "data", "models", "blog.json")
REFUSAL = "this connection is read-only"
KEY_A1 = {"PK": {"S": "a"}, "SK": {"S": "1"}}


def run(*args, env=None, timeout=120):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout,
                          env=lib.client_env({"AWS_REGION": "us-east-1", **(env or {})}))


# (operation, request, what the message names) for each write; "@ARN@" is Posts' ARN.
WRITES = [
    ("PutItem", {"TableName": "Posts", "Item": {"PK": {"S": "z"}, "SK": {"S": "9"}}}, None),
    ("UpdateItem", {"TableName": "Posts", "Key": KEY_A1, "UpdateExpression": "SET y = :v",
                    "ExpressionAttributeValues": {":v": {"N": "1"}}}, None),
    ("DeleteItem", {"TableName": "Posts", "Key": KEY_A1}, None),
    ("BatchWriteItem", {"RequestItems": {"Posts": [{"DeleteRequest": {"Key": KEY_A1}}]}}, None),
    ("TransactWriteItems", {"TransactItems": [{"Delete": {"TableName": "Posts", "Key": KEY_A1}}]},
     None),
    ("CreateTable", {"TableName": "Votes", "BillingMode": "PAY_PER_REQUEST",
                     "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
                     "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]}, None),
    ("DeleteTable", {"TableName": "Posts"}, None),
    ("UpdateTable", {"TableName": "Posts", "BillingMode": "PROVISIONED",
                     "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}},
     None),
    ("UpdateTimeToLive", {"TableName": "Posts", "TimeToLiveSpecification": {
        "Enabled": False, "AttributeName": "exp"}}, None),
    ("TagResource", {"ResourceArn": "@ARN@", "Tags": [{"Key": "k", "Value": "v"}]}, None),
    ("UntagResource", {"ResourceArn": "@ARN@", "TagKeys": ["env"]}, None),
    ("CreateBackup", {"TableName": "Posts", "BackupName": "b"}, None),
    ("ExecuteStatement", {"Statement": "INSERT INTO Posts VALUE {'PK':'n','SK':'1'}"}, "INSERT"),
    ("ExecuteStatement", {"Statement": "insert into \"Posts\" value {'PK':'n','SK':'1'}"},
     "INSERT"),
    ("ExecuteStatement", {"Statement": "UPDATE Posts SET y = 1 WHERE PK = 'a' AND SK = '1'"},
     "UPDATE"),
    ("ExecuteStatement", {"Statement": "DELETE FROM Posts WHERE PK = ? AND SK = ?",
                          "Parameters": [{"S": "a"}, {"S": "1"}]}, "DELETE"),
    ("ExecuteStatement",
     {"Statement": "-- SELECT\n  DELETE FROM Posts WHERE PK = 'a' AND SK = '1'"}, "DELETE"),
    ("ExecuteStatement", {"Statement": "SELEC * FROM Posts"}, "does not parse"),
    ("ExecuteStatement", {"Statement": "SELECT * FROM Posts WHERE PK = ?"}, "does not parse"),
    ("BatchExecuteStatement", {"Statements": [
        {"Statement": "SELECT * FROM Posts WHERE PK = 'a' AND SK = '1'"},
        {"Statement": "INSERT INTO Posts VALUE {'PK':'n','SK':'2'}"}]}, "INSERT"),
    ("ExecuteTransaction", {"TransactStatements": [
        {"Statement": "EXISTS(SELECT * FROM Posts WHERE PK = 'a' AND SK = '1' AND x = 'red')"},
        {"Statement": "UPDATE Posts SET y = 4 WHERE PK = 'b' AND SK = '1'"}]}, "EXISTS"),
    ("DynamoDB_20120810.PutItem", {"TableName": "Posts", "Item": {"PK": {"S": "z"},
                                                                  "SK": {"S": "9"}}}, None),
    ("NoSuchOperation", {}, "not known"),
]

READS = [
    ("GetItem", {"TableName": "Posts", "Key": KEY_A1}),
    ("Query", {"TableName": "Posts", "KeyConditionExpression": "PK = :p",
               "ExpressionAttributeValues": {":p": {"S": "a"}}}),
    ("Query", {"TableName": "Posts", "IndexName": "byX", "KeyConditionExpression": "x = :x",
               "ExpressionAttributeValues": {":x": {"S": "red"}}}),
    ("Scan", {"TableName": "Posts"}),
    ("BatchGetItem", {"RequestItems": {"Posts": {"Keys": [KEY_A1]}}}),
    ("TransactGetItems", {"TransactItems": [{"Get": {"TableName": "Posts", "Key": KEY_A1}}]}),
    ("DescribeTable", {"TableName": "Posts"}),
    ("DescribeTimeToLive", {"TableName": "Posts"}),
    ("ListTables", {}),
    ("ListTagsOfResource", {"ResourceArn": "@ARN@"}),
    ("ExecuteStatement", {"Statement": "SELECT * FROM Posts WHERE PK = 'a'"}),
    ("ExecuteStatement", {"Statement": "  -- all\n select PK, x from \"Posts\" where PK = ?",
                          "Parameters": [{"S": "a"}]}),
    ("BatchExecuteStatement", {"Statements": [
        {"Statement": "SELECT * FROM Posts WHERE PK = 'a' AND SK = '1'"},
        {"Statement": "SELECT * FROM Posts WHERE PK = 'b' AND SK = '1'"}]}),
    ("ExecuteTransaction", {"TransactStatements": [
        {"Statement": "SELECT * FROM Posts WHERE PK = 'a' AND SK = '1'"}]}),
]


def file_digest(path):
    h = hashlib.sha256()
    for suffix in ("", "-wal"):
        if os.path.exists(path + suffix):
            with open(path + suffix, "rb") as f:
                h.update(f.read())
        h.update(b"|")
    return h.hexdigest()


class Base:
    """The tests; subclasses say what the connection is and where its database file is."""

    @classmethod
    def make_database(cls, path):
        def call(op, req):
            r = run("--db", path, "call", op, json.dumps(req))
            assert r.returncode == 0, (op, r.stderr)
            return json.loads(r.stdout) if r.stdout.strip() else {}

        call("CreateTable", {
            "TableName": "Posts", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": n, "AttributeType": "S"}
                                     for n in ("PK", "SK", "x")],
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                          {"AttributeName": "SK", "KeyType": "RANGE"}],
            "GlobalSecondaryIndexes": [{"IndexName": "byX", "KeySchema": [
                {"AttributeName": "x", "KeyType": "HASH"}], "Projection": {
                    "ProjectionType": "ALL"}}]})
        items = [
            {"PK": {"S": "a"}, "SK": {"S": "1"}, "x": {"S": "red"},
             "n": {"N": "12345678901234567890123456789012345678"}},
            {"PK": {"S": "a"}, "SK": {"S": "2"}, "x": {"S": "blue"}, "ss": {"SS": ["p", "q"]},
             "b": {"B": "AAEC"}},
            {"PK": {"S": "b"}, "SK": {"S": "1"}, "x": {"S": "red"}}]
        call("BatchWriteItem", {"RequestItems": {"Posts": [{"PutRequest": {"Item": item}}
                                                           for item in items]}})
        call("UpdateTimeToLive", {"TableName": "Posts", "TimeToLiveSpecification": {
            "Enabled": True, "AttributeName": "exp"}})
        arn = call("DescribeTable", {"TableName": "Posts"})["Table"]["TableArn"]
        call("TagResource", {"ResourceArn": arn, "Tags": [{"Key": "env", "Value": "prod"}]})
        return arn

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.staging = os.path.join(self.tmp.name, "staging.db")
        self.before = self.state()
        self.digest = file_digest(self.db)

    def tearDown(self):
        self.tmp.cleanup()

    def cli(self, *args, read_only=True, env=None):
        return run(*(["--read-only"] if read_only else []), *self.connection(), *args, env=env)

    def call(self, op, req, read_only=False, env=None):
        text = json.dumps(req).replace("@ARN@", self.arn)
        return self.cli("call", "--compact", op, text, read_only=read_only, env=env)

    def state(self):
        """Every table's description, TTL, tags and items, read without --read-only."""
        out = {}
        tables = json.loads(self.call("ListTables", {}).stdout)["TableNames"]
        for t in tables:
            d = json.loads(self.call("DescribeTable", {"TableName": t}).stdout)
            ttl = json.loads(self.call("DescribeTimeToLive", {"TableName": t}).stdout)
            tags = json.loads(self.call("ListTagsOfResource", {
                "ResourceArn": d["Table"]["TableArn"]}).stdout)
            items = json.loads(self.call("Scan", {"TableName": t}).stdout)["Items"]
            out[t] = (d, ttl, tags, sorted(json.dumps(i, sort_keys=True) for i in items))
        return out

    def assert_unchanged(self):
        self.assertEqual(self.state(), self.before)
        self.assertEqual(file_digest(self.db), self.digest)

    def assert_refused(self, r, *names):
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("read-only: ", r.stderr)
        self.assertIn(REFUSAL, r.stderr)
        for name in names:
            self.assertIn(name, r.stderr)
        self.assertEqual(r.stdout, "")

    # -- writes ---------------------------------------------------------------------------------

    def test_calls_refused(self):
        for op, req, kind in WRITES:
            with self.subTest(op=op, req=req):
                r = self.call(op, req, read_only=True)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assert_refused(r, op, *([kind] if kind else []))
                # The same through the environment.
                r = self.call(op, req, env={"DYNOSCOPE_READ_ONLY": "1"})
                self.assert_refused(r, op)
        self.assert_unchanged()

    def test_issue_writes_work_without_read_only(self):
        """PartiQL INSERT and DeleteTable do write without --read-only (DYNOSCOPE_READ_ONLY=0):
        the refusals are real ones."""
        insert = {"Statement": "INSERT INTO Posts VALUE {'PK':'n','SK':'1'}"}
        self.assert_refused(self.call("ExecuteStatement", insert, read_only=True), "INSERT")
        r = self.call("ExecuteStatement", insert, env={"DYNOSCOPE_READ_ONLY": "0"})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotEqual(self.state(), self.before)
        r = self.call("DeleteItem", {"TableName": "Posts", "Key": {"PK": {"S": "n"},
                                                                   "SK": {"S": "1"}}})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.state(), self.before)

        scratch = {"TableName": "Scratch", "BillingMode": "PAY_PER_REQUEST",
                   "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
                   "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]}
        self.assertEqual(self.call("CreateTable", scratch).returncode, 0)
        with_scratch = self.state()
        self.assert_refused(self.call("DeleteTable", {"TableName": "Scratch"}, read_only=True),
                            "DeleteTable")
        self.assertEqual(self.state(), with_scratch)
        r = self.call("DeleteTable", {"TableName": "Scratch"})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.state(), self.before)

    def test_import_refused(self):
        source = os.path.join(self.tmp.name, "items.jsonl")
        with open(source, "w") as f:
            f.write(json.dumps({"Item": {"id": {"S": "1"}}}) + "\n")
        r = self.cli("import", "--table", "Imported", "--key", "id:S", source)
        self.assert_refused(r, "import")
        self.assert_unchanged()

    def test_commit_refused(self):
        # Staging reads the table (fanout works read-only); the commit is what is refused.
        r = self.cli("fanout", "--table", "Posts", "--scan", "--set", "x", "--from", "red",
                     "--to", "green", "--staging", self.staging)
        self.assertEqual(r.returncode, 0, r.stderr)
        staged = self.cli("staged", "--json", "--staging", self.staging)
        self.assertEqual(staged.returncode, 0, staged.stderr)
        self.assertEqual([c["state"] for c in json.loads(staged.stdout)], ["staged"] * 2)
        r = self.cli("commit", "--staging", self.staging)
        self.assert_refused(r, "commit")
        r = self.cli("commit", "--staging", self.staging, env={"DYNOSCOPE_READ_ONLY": "yes"},
                     read_only=False)
        self.assert_refused(r, "commit")
        self.assert_unchanged()
        # Still staged, none marked failed.
        again = self.cli("staged", "--json", "--staging", self.staging)
        self.assertEqual(again.stdout, staged.stdout)

    def test_model_apply_refused(self):
        r = self.cli("model", "apply", MODEL, "--items", "3")
        self.assert_refused(r, "model apply")
        self.assert_unchanged()

    def test_bad_environment_value(self):
        r = self.call("ListTables", {}, env={"DYNOSCOPE_READ_ONLY": "maybe"})
        self.assertEqual(r.returncode, 2)
        self.assertIn("DYNOSCOPE_READ_ONLY", r.stderr)

    # -- reads ----------------------------------------------------------------------------------

    def test_reads_answered(self):
        for op, req in READS:
            with self.subTest(op=op, req=req):
                ro = self.call(op, req, read_only=True)
                self.assertEqual(ro.returncode, 0, ro.stderr)
                env = self.call(op, req, env={"DYNOSCOPE_READ_ONLY": "true"})
                rw = self.call(op, req)
                self.assertEqual(rw.returncode, 0, rw.stderr)
                self.assertEqual(json.loads(ro.stdout), json.loads(rw.stdout))
                self.assertEqual(env.stdout, ro.stdout)
        self.assert_unchanged()

    def test_export_and_sql(self):
        outs = []
        for read_only in (True, False):
            dest = os.path.join(self.tmp.name, f"out-{read_only}.jsonl")
            r = self.cli("export", "--table", "Posts", dest, read_only=read_only)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(dest) as f:
                exported = sorted(f.read().splitlines())
            sql = self.cli("sql", "--format", "jsonl",
                           "SELECT PK, SK, x FROM Posts ORDER BY PK, SK", read_only=read_only)
            self.assertEqual(sql.returncode, 0, sql.stderr)
            outs.append((exported, sql.stdout))
        self.assertEqual(outs[0], outs[1])
        self.assertEqual(len(outs[0][0]), 3)
        self.assertEqual(len(outs[0][1].splitlines()), 3)
        self.assert_unchanged()

    def test_help(self):
        r = run("--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("--read-only", r.stdout)
        self.assertIn("DYNOSCOPE_READ_ONLY", r.stdout)


class OnDatabase(Base, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.db = os.path.join(cls.dir.name, "data.db")
        cls.arn = cls.make_database(cls.db)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def connection(self):
        return ["--db", self.db]

    def test_snapshot_commands_refused(self):
        export = os.path.join(self.tmp.name, "posts.jsonl")
        with open(export, "w") as f:
            f.write(json.dumps({"Item": KEY_A1}) + "\n")
        r = self.cli("snapshot", "base", "--table", "Posts", export)
        self.assert_refused(r, "snapshot base")
        r = self.cli("snapshot", "pull", "--table", "Pulled", "--from-endpoint",
                     "http://127.0.0.1:9")
        self.assert_refused(r, "snapshot pull")
        # Printing the base is a read.
        r = self.cli("snapshot", "base", "--table", "Posts")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Posts has no base", r.stdout)
        self.assert_unchanged()

    def test_serve_refused(self):
        # Both spellings: the launcher must not hand DYNOSCOPE_READ_ONLY's serve to the lean
        # server, which knows nothing of it.
        plain = ["--db", self.db, "serve", "--port", "0"]
        for args, env in ((["--read-only", *plain], None), (plain, {"DYNOSCOPE_READ_ONLY": "1"})):
            with self.subTest(args=args, env=env):
                r = run(*args, env=env, timeout=60)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn("read-only", r.stderr)
        self.assertEqual(run("--read-only", "--db", self.db, "serve", "--help").returncode, 0)
        self.assert_unchanged()

    def test_missing_database_not_created(self):
        missing = os.path.join(self.tmp.name, "missing.db")
        r = run("--read-only", "--db", missing, "call", "ListTables", "{}")
        self.assert_refused(r, missing)
        self.assertFalse(os.path.exists(missing))
        r = run("--read-only", "--db", missing, "snapshot", "base", "--table", "Posts")
        self.assert_refused(r, "snapshot base")
        self.assertFalse(os.path.exists(missing))


class OnEndpoint(Base, unittest.TestCase):
    """The same through `dynoscope-cli serve`: the refusals come from the client side, before
    anything is sent."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.db = os.path.join(cls.dir.name, "served.db")
        cls.arn = cls.make_database(cls.db)
        port = lib.free_port()
        cls.proc = subprocess.Popen([CLI, "--db", cls.db, "serve", "--port", str(port)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                    start_new_session=True,
                                    env=lib.client_env({"DYNOSCOPE_TTL_INTERVAL": "86400"}))
        cls.url = "http://127.0.0.1:%d" % port
        if not lib.wait_http(cls.url, cls.proc, 60):
            lib.stop_process_group(cls.proc)
            raise RuntimeError("serve did not start")

    @classmethod
    def tearDownClass(cls):
        lib.stop_process_group(cls.proc)
        cls.dir.cleanup()

    def connection(self):
        return ["--endpoint", self.url]


if __name__ == "__main__":
    unittest.main(verbosity=2)
