#!/usr/bin/env python3
"""dynoscope-cli CONNECTION model infer, run as a user runs it, on the demo tables built as
build-aux/run-demo.sh builds them (data/demo/*.jsonl imported): the issue's check that inference
finds their entities and templates; the printed NoSQL Workbench model reads back with
`model check`; --sample; errors; and the same model read through `dynoscope-cli serve` on that
database and from AWS's DynamoDB Local (skipped when java is not there)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

CLI = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli")
DEMO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "demo")
TABLES = (
    ("Workspaces", "EntityRef:S,Detail:S", None, "workspaces.jsonl"),
    ("Blog", "PK:S,SK:S", "ByAuthor:authorId:S,publishedAt:S", "blog.jsonl"),
    ("Orders", "TenantShard:S,CustomerCountryProduct:S", None, "orders.jsonl"),
)


def run(*args, timeout=120):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout,
                          env=lib.client_env({"AWS_REGION": "us-east-1"}))


def import_demo(connection):
    for table, key, gsi, source in TABLES:
        args = [*connection, "import", "--table", table, "--key", key]
        if gsi:
            args += ["--gsi", gsi]
        r = run(*args, os.path.join(DEMO, source))
        assert r.returncode == 0, r.stderr


def canonical(model):
    """The model with its sets sorted: a server need not keep a set's order."""
    def norm(v):
        if isinstance(v, dict):
            return {k: sorted(x) if k in ("SS", "NS", "BS") and isinstance(x, list) else norm(x)
                    for k, x in v.items()}
        if isinstance(v, list):
            return [norm(x) for x in v]
        return v
    return norm(model)


class InferTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="dynoscope-infer-")
        cls.db = os.path.join(cls.dir, "demo.db")
        import_demo(["--db", cls.db])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def infer(self, table, *args, connection=None):
        r = run(*(connection or ["--db", self.db]), "model", "infer", "--table", table, *args)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        return json.loads(r.stdout)

    @staticmethod
    def keys(model):
        return {name: e["keys"] for name, e in model["x-dynoscope"]["entities"].items()}

    @staticmethod
    def facets(model):
        return {f["FacetName"]: f.get("NonKeyAttributes", [])
                for f in model["DataModel"][0]["TableFacets"]}

    def test_workspaces(self):
        m = self.infer("Workspaces")
        self.assertEqual(self.keys(m), {
            "Workspace": {"EntityRef": "WS#{workspaceId}", "Detail": "META"},
            "Project": {"EntityRef": "WS#{workspaceId}", "Detail": "PROJ#{year}-{seq:04}"},
            "ShardedProject": {"EntityRef": "WS#{workspaceId}#{shard:02}",
                               "Detail": "PROJ#{year}-{seq:04}"},
        })
        self.assertEqual(self.facets(m), {
            "Workspace": ["createdAt", "name", "plan", "seats"],
            "Project": ["budget", "checksum", "name", "owners", "scores", "status", "tags"],
            "ShardedProject": ["name", "status"],
        })
        t = m["DataModel"][0]
        self.assertEqual(t["TableName"], "Workspaces")
        self.assertEqual(t["KeyAttributes"]["PartitionKey"],
                         {"AttributeName": "EntityRef", "AttributeType": "S"})
        self.assertEqual(t["KeyAttributes"]["SortKey"],
                         {"AttributeName": "Detail", "AttributeType": "S"})
        self.assertEqual(t["BillingMode"], "PAY_PER_REQUEST")
        types = {a["AttributeName"]: a["AttributeType"] for a in t["NonKeyAttributes"]}
        self.assertEqual(types["budget"], "N")
        self.assertEqual(types["checksum"], "B")
        self.assertEqual(types["scores"], "NS")
        self.assertEqual(types["owners"], "L")
        # The sample items, whole: the 38-digit number and the binary value as they were.
        self.assertEqual(len(t["TableData"]), 7)
        budgets = [i["budget"]["N"] for i in t["TableData"] if "budget" in i]
        self.assertIn("12345678901234567890123456789012345678", budgets)
        self.assertIn({"B": "3q2+7w=="}, [i.get("checksum") for i in t["TableData"]])
        lengths = m["x-dynoscope"]["entities"]["Project"]["maxLengths"]
        self.assertEqual(lengths, {"workspaceId": 6, "year": 4, "seq": 4})

    def test_blog(self):
        m = self.infer("Blog")
        self.assertEqual(self.keys(m), {
            "User": {"PK": "USER#{userId}", "SK": "META"},
            "Post": {"PK": "POST#{postId}", "SK": "META", "authorId": "U#{userId}",
                     "publishedAt": "{publishedAt}"},
            "Comment": {"PK": "POST#{postId}", "SK": "COMMENT#{date}#{n}"},
        })
        self.assertEqual(self.facets(m)["Comment"], ["by", "likes", "text"])
        gsi, = m["DataModel"][0]["GlobalSecondaryIndexes"]
        self.assertEqual(gsi["IndexName"], "ByAuthor")
        self.assertEqual(gsi["KeyAttributes"]["PartitionKey"]["AttributeName"], "authorId")
        self.assertEqual(gsi["KeyAttributes"]["SortKey"]["AttributeName"], "publishedAt")
        self.assertEqual(gsi["Projection"], {"ProjectionType": "ALL"})
        # At most five sample items an entity: 3 users, 5 of the 6 posts and of the 6 comments.
        self.assertEqual(len(m["DataModel"][0]["TableData"]), 13)

    def test_orders(self):
        m = self.infer("Orders")
        self.assertEqual(self.keys(m), {
            "ShardedCustomer": {"TenantShard": "TENANT#{tenantId}#{shard:02}",
                                "CustomerCountryProduct": "C#{customerId}#{country}#{product}"},
            "Customer": {"TenantShard": "TENANT#{tenantId}",
                         "CustomerCountryProduct": "C#{customerId}#{country}#{product}"},
        })
        self.assertEqual(self.facets(m)["Customer"], ["orderedAt", "qty", "status", "total"])

    def test_reads_back_with_model_check(self):
        for table, _, _, _ in TABLES:
            r = run("--db", self.db, "model", "infer", "--table", table)
            self.assertEqual(r.returncode, 0, r.stderr)
            path = os.path.join(self.dir, table + ".json")
            with open(path, "w", encoding="utf-8") as f:
                f.write(r.stdout)
            r = run("model", "check", path)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("No flags", r.stdout)

    def test_sample(self):
        m = self.infer("Orders", "--sample", "4")
        self.assertIn("from 4 items of table Orders", m["ModelMetadata"]["Description"])
        self.assertEqual(len(m["DataModel"][0]["TableData"]), 4)
        whole = self.infer("Orders")
        self.assertIn("from 67 items", whole["ModelMetadata"]["Description"])

    def test_errors(self):
        r = run("--db", self.db, "model", "infer", "--table", "Missing")
        self.assertEqual(r.returncode, 1)
        self.assertIn("ResourceNotFoundException", r.stderr)
        self.assertEqual(r.stdout, "")
        for bad in ([], ["--table", ""], ["--table", "Orders", "--sample", "-1"],
                    ["--table", "Orders", "--sample", "0"],
                    ["--table", "Orders", "extra"], ["--table", "Orders", "--sample", "x"]):
            r = run("--db", self.db, "model", "infer", *bad)
            self.assertEqual(r.returncode, 2, (bad, r.stderr))
        r = run("--db", self.db, "model", "infer")
        self.assertIn("--table is required", r.stderr)
        r = run("model", "--help")
        self.assertIn("model infer --table T", r.stdout)

    def test_endpoint_same_model(self):
        port = lib.free_port()
        proc = subprocess.Popen([CLI, "--db", self.db, "serve", "--port", str(port)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            url = "http://127.0.0.1:%d" % port
            self.assertTrue(lib.wait_http(url, proc, 30), "serve did not start")
            for table, _, _, _ in TABLES:
                remote = self.infer(table, connection=["--endpoint", url])
                self.assertEqual(remote, self.infer(table), table)
        finally:
            lib.stop_process_group(proc)


class DynamoDBLocalInferTest(unittest.TestCase):
    """The demo tables imported into DynamoDB Local give the models the engine gives."""

    @classmethod
    def setUpClass(cls):
        cls.server = lib.start_dynamodb_local()
        if cls.server is None:
            raise unittest.SkipTest("DynamoDB Local (java) is not available")
        cls.endpoint = ["--endpoint", f"http://127.0.0.1:{cls.server.port}",
                        "--region", "us-east-1"]
        cls.dir = tempfile.mkdtemp(prefix="dynoscope-infer-ddblocal-")
        cls.db = os.path.join(cls.dir, "demo.db")
        import_demo(cls.endpoint)
        import_demo(["--db", cls.db])

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_same_model(self):
        for table, _, _, _ in TABLES:
            got = []
            for connection in (self.endpoint, ["--db", self.db]):
                r = run(*connection, "model", "infer", "--table", table)
                self.assertEqual(r.returncode, 0, r.stderr)
                got.append(canonical(json.loads(r.stdout)))
            self.assertEqual(got[0], got[1], table)


if __name__ == "__main__":
    unittest.main(verbosity=2)
