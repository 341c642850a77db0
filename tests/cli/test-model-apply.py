#!/usr/bin/env python3
"""dynoscope-cli CONNECTION model apply on the seeds' models, into a fresh database (--db) and
into AWS's DynamoDB Local (--endpoint): the tables as the model defines them (DescribeTable),
the sample items or 200 generated items per entity written, and every access pattern's request
that `model check` prints finding items of its entity, in its order. Applying twice fails with
ResourceInUseException (exit 1); a bad model exits 2 and creates nothing; --dry-run prints the
requests only. Exits 77 (skip) when DynamoDB Local is absent, after the database part passed."""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"
MODELS = os.path.join(lib.SRC, "data", "models")
SEEDS = ["workspaces", "blog", "orders"]
GENERATED = 200


def run(*args, timeout=120):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout,
                          env=lib.client_env())


def model_path(name):
    return os.path.join(MODELS, name + ".json")


def load(name):
    with open(model_path(name)) as f:
        return json.load(f)


def template_regex(tpl):
    """A key template as a regex of what it renders to (field values hold no '#')."""
    out, i = "", 0
    for m in re.finditer(r"\{\{|\}\}|\{([^{}:]+)(?::(0\d+|%[^{}]*))?\}", tpl):
        out += re.escape(tpl[i:m.start()])
        if m.group(0) in ("{{", "}}"):
            out += re.escape(m.group(0)[0])
        elif m.group(2) and m.group(2).startswith("0"):
            out += r"\d{%d,}" % int(m.group(2))
        else:
            out += r"[^#]+"
        i = m.end()
    return "^" + out + re.escape(tpl[i:]) + "$"


def fields(tpl):
    return set(re.findall(r"(?<!\{)\{([^{}:]+)[^{}]*\}", tpl))


def key_value(value):
    """A key attribute's value in DynamoDB's order: numbers as numbers, strings and binary by
    their bytes."""
    (t, v), = value.items()
    return Decimal(v) if t == "N" else v.encode()


def resolutions(name):
    """(pattern name, operation, request) for each pattern `model check` prints."""
    r = run("model", "check", model_path(name))
    assert r.returncode == 0, r.stdout + r.stderr
    found = re.findall(r"\n([^ \n][^\n]*)\n  operation +(\w+)\n(?:  .*\n)*?  request +(.*)\n",
                       r.stdout)
    return [(p, op, json.loads(req)) for p, op, req in found]


class Apply:
    """The tests, against a target the subclasses give (target(): the global options)."""

    def call(self, op, request):
        r = run(*self.target(), "call", "--compact", op, json.dumps(request))
        self.assertEqual(r.returncode, 0, f"{op} {request}: {r.stderr}")
        return json.loads(r.stdout)

    def apply(self, name, *extra):
        return run(*self.target(), "model", "apply", model_path(name), *extra)

    def count(self, table):
        n, start = 0, None
        while True:
            req = {"TableName": table, "Select": "COUNT"}
            if start:
                req["ExclusiveStartKey"] = start
            resp = self.call("Scan", req)
            n += resp["Count"]
            start = resp.get("LastEvaluatedKey")
            if not start:
                return n

    def check_patterns(self, name, generated):
        model = load(name)
        ext = model["x-dynoscope"]
        patterns = {p["name"]: p for p in ext["patterns"]}
        tables = {t["TableName"]: t for t in model["DataModel"]}
        resolved = resolutions(name)
        self.assertEqual(len(resolved), len(patterns))
        for pname, op, request in resolved:
            with self.subTest(model=name, pattern=pname, generated=generated):
                pattern = patterns[pname]
                keys = ext["entities"][pattern["entity"]]["keys"]
                resp = self.call(op, request)
                items = [resp["Item"]] if "Item" in resp else resp.get("Items", [])
                self.assertTrue(items, f"{op} {json.dumps(request)} found nothing")
                for item in items:
                    for attr, tpl in keys.items():
                        self.assertIn(attr, item, f"{pname}: {item} is no {pattern['entity']}")
                        (_, v), = item[attr].items()
                        self.assertRegex(v, template_regex(tpl),
                                         f"{pname}: {item} is no {pattern['entity']}")
                if op != "Query":
                    continue
                table = tables[request["TableName"]]
                sort = table["KeyAttributes"]["SortKey"]["AttributeName"]
                if "IndexName" in request:
                    index = [g for g in table.get("GlobalSecondaryIndexes", [])
                             if g["IndexName"] == request["IndexName"]][0]
                    sort = index["KeyAttributes"]["SortKey"]["AttributeName"]
                got = [key_value(it[sort]) for it in items]
                want = sorted(got, reverse=pattern.get("order") == "descending")
                self.assertEqual(got, want, f"{pname}: not in its order")
                pk = (index["KeyAttributes"] if "IndexName" in request
                      else table["KeyAttributes"])["PartitionKey"]["AttributeName"]
                if generated and set(pattern["inputs"]) <= fields(keys[pk]):
                    # A whole partition, of the examples' tenant, the biggest one: it holds
                    # several items.
                    self.assertGreater(len(items), 1, f"{pname}: {items}")

    def check_described(self, name):
        for t in load(name)["DataModel"]:
            desc = self.call("DescribeTable", {"TableName": t["TableName"]})["Table"]
            ka = t["KeyAttributes"]
            self.assertEqual(desc["KeySchema"], [
                {"AttributeName": ka["PartitionKey"]["AttributeName"], "KeyType": "HASH"},
                {"AttributeName": ka["SortKey"]["AttributeName"], "KeyType": "RANGE"}])
            defs = {d["AttributeName"]: d["AttributeType"] for d in desc["AttributeDefinitions"]}
            want = {ka[k]["AttributeName"]: ka[k]["AttributeType"]
                    for k in ("PartitionKey", "SortKey")}
            gsis = {}
            for g in t.get("GlobalSecondaryIndexes", []):
                gk = g["KeyAttributes"]
                want.update({gk[k]["AttributeName"]: gk[k]["AttributeType"]
                             for k in ("PartitionKey", "SortKey") if k in gk})
                gsis[g["IndexName"]] = (
                    [{"AttributeName": gk["PartitionKey"]["AttributeName"], "KeyType": "HASH"}]
                    + ([{"AttributeName": gk["SortKey"]["AttributeName"], "KeyType": "RANGE"}]
                       if "SortKey" in gk else []),
                    g["Projection"]["ProjectionType"])
            self.assertEqual(defs, want)
            got = {g["IndexName"]: (g["KeySchema"], g["Projection"]["ProjectionType"])
                   for g in desc.get("GlobalSecondaryIndexes", [])}
            self.assertEqual(got, gsis)
            if t.get("BillingMode") == "PROVISIONED":
                tp = t["ProvisionedCapacitySettings"]["ProvisionedThroughput"]
                self.assertEqual(desc["ProvisionedThroughput"]["ReadCapacityUnits"],
                                 tp["ReadCapacityUnits"])
                self.assertEqual(desc["ProvisionedThroughput"]["WriteCapacityUnits"],
                                 tp["WriteCapacityUnits"])
            else:
                self.assertEqual(desc["BillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST")

    def test_sample_items(self):
        for name in SEEDS:
            with self.subTest(model=name):
                self.fresh()
                r = self.apply(name)
                self.assertEqual(r.returncode, 0, r.stderr)
                for t in load(name)["DataModel"]:
                    n = len(t["TableData"])
                    self.assertIn(f"Created table {t['TableName']} on ", r.stdout)
                    self.assertIn(f"and wrote {n} items", r.stdout)
                    self.assertEqual(self.count(t["TableName"]), n)
                self.check_described(name)
                self.check_patterns(name, generated=False)

    def test_generated_items(self):
        for name in SEEDS:
            with self.subTest(model=name):
                self.fresh()
                r = self.apply(name, "--items", str(GENERATED))
                self.assertEqual(r.returncode, 0, r.stderr)
                for t in load(name)["DataModel"]:
                    # Every generated item is there: no two of them share a key.
                    n = GENERATED * len(t["TableFacets"])
                    self.assertIn(f"and wrote {n} items", r.stdout)
                    self.assertEqual(self.count(t["TableName"]), n)
                self.check_described(name)
                self.check_patterns(name, generated=True)

    def test_apply_twice_fails(self):
        self.fresh()
        r = self.apply("blog")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = self.apply("blog")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("table Blog", r.stderr)
        self.assertRegex(r.stderr, r"ResourceInUseException: .+")
        self.assertEqual(self.count("Blog"), len(load("blog")["DataModel"][0]["TableData"]))
        # Told to, it writes into the existing table.
        r = self.apply("blog", "--existing", "--items", "3")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("and wrote 9 items", r.stdout)

    def test_bad_models_exit_2(self):
        self.fresh()
        with tempfile.TemporaryDirectory() as tmp:
            broken = os.path.join(tmp, "broken.json")
            with open(broken, "w") as f:
                f.write("{\"ModelName\": ")
            r = run(*self.target(), "model", "apply", broken)
            self.assertEqual(r.returncode, 2, r.stderr)
            # An entity without a template for a key of its table cannot be generated: nothing
            # is created.
            model = load("orders")
            del model["x-dynoscope"]["entities"]["Order"]["keys"]["CustomerCountryProduct"]
            bad = os.path.join(tmp, "bad.json")
            with open(bad, "w") as f:
                json.dump(model, f)
            r = run(*self.target(), "model", "apply", bad, "--items", "5")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("Order", r.stderr)
            self.assertNotIn("Orders", self.call("ListTables", {}).get("TableNames", []))
        r = run(*self.target(), "model", "apply")
        self.assertEqual(r.returncode, 2)
        r = run(*self.target(), "model", "apply", model_path("blog"), "--items", "-1")
        self.assertEqual(r.returncode, 2)

    def test_dry_run(self):
        self.fresh()
        r = self.apply("blog", "--dry-run")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("CreateTable Blog", r.stdout)
        body = r.stdout[r.stdout.index("{"):]
        req = json.loads(body)
        self.assertEqual(req["GlobalSecondaryIndexes"][0]["IndexName"], "ByAuthor")
        self.assertEqual(req["BillingMode"], "PAY_PER_REQUEST")
        self.assertEqual(self.call("ListTables", {}).get("TableNames", []), [])


class Database(Apply, unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.n = 0
        self.db = None

    def tearDown(self):
        self.tmp.cleanup()

    def fresh(self):
        self.n += 1
        self.db = os.path.join(self.tmp.name, f"t{self.n}.db")

    def target(self):
        return ["--db", self.db]

    def test_dry_run_opens_nothing(self):
        self.fresh()
        r = self.apply("orders", "--dry-run", "--items", "4")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("(then 8 items)", r.stdout)
        self.assertFalse(os.path.exists(self.db))


DDB_LOCAL_SKIPPED = []


class DynamoDBLocal(Apply, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = lib.start_dynamodb_local()
        if cls.server is None:
            DDB_LOCAL_SKIPPED.append(True)
            raise unittest.SkipTest("DynamoDB Local (java) is not available")
        cls.url = f"http://127.0.0.1:{cls.server.port}"

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def target(self):
        return ["--endpoint", self.url, "--region", "us-east-1"]

    def fresh(self):
        """Deletes every table (DynamoDB Local's tables live as long as it does)."""
        for t in self.call("ListTables", {}).get("TableNames", []):
            self.call("DeleteTable", {"TableName": t})


if __name__ == "__main__":
    result = unittest.main(verbosity=2, exit=False).result
    if not result.wasSuccessful():
        sys.exit(1)
    if DDB_LOCAL_SKIPPED:
        print("# SKIP DynamoDB Local is not available: only the database part ran")
        sys.exit(lib.SKIP)
    sys.exit(0)
