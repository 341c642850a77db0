#!/usr/bin/env python3
"""dynoscope-cli keys, run as a user runs it, on the demo database built as
build-aux/run-demo.sh builds it (data/demo/*.jsonl imported): the issue's check that `keys`
flags Orders' hot tenant TENANT#bigco and its ten shards, in text and in --json; and the same
figures read from an endpoint (`dynoscope-cli serve` on that database)."""
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


def run(*args, timeout=120):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout,
                          env=lib.client_env({"AWS_REGION": "us-east-1"}))


class KeysTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="dynoscope-keys-")
        cls.db = os.path.join(cls.dir, "demo.db")
        for table, key, source in (
                ("Orders", "TenantShard:S,CustomerCountryProduct:S", "orders.jsonl"),
                ("Workspaces", "EntityRef:S,Detail:S", "workspaces.jsonl")):
            r = run("--db", cls.db, "import", "--table", table, "--key", key,
                    os.path.join(DEMO, source))
            assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def keys(self, *args):
        return run("--db", self.db, "keys", "--table", "Orders", *args)

    def test_json_flags_hot_tenant_and_shards(self):
        r = self.keys("--json", "--rate", "40000:4000")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")  # no progress when stderr is not a terminal
        out = json.loads(r.stdout)
        self.assertEqual(out["read"], "all")
        self.assertEqual(out["items"], 67)
        self.assertEqual(out["cardinality"], 12)
        self.assertEqual(out["partitionKey"], "TenantShard")
        self.assertFalse(out["hasLocalSecondaryIndex"])
        family = out["shardedFamilies"][0]
        self.assertEqual(family["prefix"], "TENANT#bigco#")
        self.assertEqual(family["shardCount"], 10)
        self.assertEqual([s["key"] for s in family["shards"]],
                         ["TENANT#bigco#%02d" % i for i in range(1, 11)])
        self.assertEqual((family["items"], family["minItems"], family["maxItems"]), (60, 6, 6))
        self.assertAlmostEqual(family["itemShare"], 60 / 67)
        # 6/67 of 40,000 RCU is 3,582 a shard: all ten past 3,000, the small tenants not.
        hot = {h["key"]: h for h in out["hotPartitions"]}
        self.assertEqual(sorted(hot), ["TENANT#bigco#%02d" % i for i in range(1, 11)])
        self.assertAlmostEqual(hot["TENANT#bigco#07"]["rcu"], 40000 * 6 / 67)
        self.assertTrue(hot["TENANT#bigco#07"]["exceedsRcu"])
        self.assertFalse(hot["TENANT#bigco#07"]["exceedsWcu"])
        # 60/67 of 40,000 is 35,821 RCU, 12 partitions' worth: 20 suffixes instead of 10.
        self.assertTrue(any("TENANT#bigco#* is sharded with 10 suffixes but still too hot" in a
                            and "Shard this key with 20 suffixes" in a
                            and "20 Queries, one per suffix" in a for a in out["advice"]),
                        out["advice"])
        self.assertEqual([b["partitions"] for b in out["histogram"]], [0, 1, 11])
        self.assertEqual(out["heaviest"][0]["items"], 6)

    def test_text(self):
        r = self.keys()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Read: all 67 items", r.stdout)
        self.assertIn("distinct partition key values: 12", r.stdout)
        self.assertIn("TENANT#bigco#* (TENANT#bigco#01 … TENANT#bigco#10): 10 shards, 60 items "
                      "(89.6%)", r.stdout)
        self.assertIn("4-7 │" + "█" * 40 + " 11", r.stdout)
        self.assertIn("no local secondary index", r.stdout)
        self.assertIn("TENANT#bigco#* is a sharded key (10 shards) holding 89.6% of the items",
                      r.stdout)
        self.assertNotIn("At ", r.stdout)  # no rate, no warnings

    def test_sample(self):
        r = self.keys("--sample", "20", "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = json.loads(r.stdout)
        self.assertEqual((out["read"], out["items"]), ("sample", 20))
        r = self.keys("--sample", "20")
        self.assertIn("Read: a sample of 20 items", r.stdout)

    def test_other_table_and_index(self):
        r = run("--db", self.db, "keys", "--table", "Workspaces", "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["partitionKey"], "EntityRef")
        r = self.keys("--index", "Nope")
        self.assertEqual(r.returncode, 1)
        self.assertIn("no index named Nope", r.stderr)

    def test_endpoint_same_figures(self):
        port = lib.free_port()
        proc = subprocess.Popen([CLI, "--db", self.db, "serve", "--port", str(port)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            url = "http://127.0.0.1:%d" % port
            self.assertTrue(lib.wait_http(url, proc, 30), "serve did not start")
            r = run("--endpoint", url, "keys", "--table", "Orders", "--json", "--rate",
                    "40000:4000")
            self.assertEqual(r.returncode, 0, r.stderr)
            remote = json.loads(r.stdout)
        finally:
            lib.stop_process_group(proc)
        local = json.loads(self.keys("--json", "--rate", "40000:4000").stdout)
        self.assertEqual(remote, local)

    def test_errors(self):
        r = run("--db", self.db, "keys", "--table", "Missing")
        self.assertEqual(r.returncode, 1)
        self.assertIn("ResourceNotFoundException", r.stderr)
        for bad in (["--rate", "12"], ["--rate", "a:b"], ["--rate", "0:0"], ["--rate", "-1:5"],
                    ["--sample", "-3"], ["extra"]):
            r = self.keys(*bad)
            self.assertEqual(r.returncode, 2, (bad, r.stderr))
        r = run("--db", self.db, "keys")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--table is required", r.stderr)

    def program(self, r, start):
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Advice:", r.stdout)  # the report first
        self.assertIn("The fan-out Query for “TENANT#bigco#* ", r.stdout)
        return r.stdout[r.stdout.index(start):]

    def test_code_reads_the_family(self):
        # No rate: the family's own suffixes, 01 … 10.
        program = self.program(self.keys("--code", "python"), "#!/usr/bin/env python3")
        compile(program, "fanout.py", "exec")
        self.assertIn('PREFIX = "TENANT#bigco#"', program)
        self.assertIn("SUFFIXES = [str(n).zfill(2) for n in range(1, 10 + 1)]", program)
        self.assertIn('"ExpressionAttributeNames": {"#pk": "TenantShard"}', program)
        self.assertIn('"TableName": "Orders"', program)
        # Past the rate: the 20 suffixes advised, numbered as the family is.
        program = self.program(self.keys("--rate", "40000:4000", "--code", "cli",
                                         "--code-endpoint", "http://127.0.0.1:8000"),
                               "#!/usr/bin/env bash")
        self.assertIn("for ((n = 1; n <= 20; n++)); do", program)
        self.assertIn("printf -v suffix '%02d'", program)
        self.assertIn("--endpoint-url 'http://127.0.0.1:8000'", program)
        r = subprocess.run(["bash", "-n"], input=program, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_json_shard_advice(self):
        r = self.keys("--json", "--rate", "40000:4000")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = json.loads(r.stdout)
        advice = out["shardAdvice"]
        self.assertEqual(len(advice), 1)
        self.assertIn(advice[0]["advice"], out["advice"])
        self.assertEqual(advice[0]["fanout"], {
            "prefix": "TENANT#bigco#", "first": 1, "suffixes": 20, "width": 2,
            "placeholder": ":pk", "family": "TENANT#bigco#",
            "request": {"TableName": "Orders", "KeyConditionExpression": "#pk = :pk",
                        "ExpressionAttributeNames": {"#pk": "TenantShard"},
                        "ExpressionAttributeValues": {":pk": {"S": "TENANT#bigco#01"}}}})

    def test_code_without_shard_advice(self):
        r = run("--db", self.db, "keys", "--table", "Workspaces", "--code", "go")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Advice:", r.stdout)
        self.assertNotIn("package main", r.stdout)
        self.assertIn("no fan-out program", r.stderr)

    def test_code_usage_errors(self):
        for args, message in ((["--code", "cobol"], "--code must be one of"),
                              (["--code", "python", "--json"], "not with --json"),
                              (["--code-endpoint", "http://127.0.0.1:1"], "goes with --code")):
            r = self.keys(*args)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(r.stdout, "")
            self.assertIn(message, r.stderr)


if __name__ == "__main__":
    unittest.main()
