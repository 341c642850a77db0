#!/usr/bin/env python3
"""dynoscope-cli fanout, staged, commit and discard, run as a user runs them, against the embedded
engine (--db) or, with --target ddblocal, against AWS's DynamoDB Local (--endpoint; exit 77 when
java is missing, a failure when java is there but DynamoDB Local will not start).

The issue's check: a fan-out over 500 copies while 3 of them are changed behind our back (with
`call UpdateItem`) commits 497 and reports exactly those 3 as conflicts, left untouched."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

TARGET = "engine"
if "--target" in sys.argv:
    i = sys.argv.index("--target")
    TARGET = sys.argv[i + 1]
    del sys.argv[i:i + 2]
CLI = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli")

N = 500
BEHIND = (7, 250, 499)
SUMMARY = re.compile(r"^committed=(\d+) conflicts=(\d+) failed=(\d+)$", re.M)
DDBL = None  # the DynamoDB Local process, with --target ddblocal


def run(*args, stdin=None, timeout=300):
    return subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, env=lib.client_env({"AWS_REGION": "us-east-1"}))


class Base:
    """The tests; subclasses say what CONNECTION is."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.staging = os.path.join(self.tmp.name, "staging.db")
        self.table = "Posts_" + self.id().rsplit(".", 1)[1]

    def tearDown(self):
        self.tmp.cleanup()

    # -- helpers ------------------------------------------------------------------------------

    def cli(self, command, *args, staging=True, expect=0):
        extra = ["--staging", self.staging] if staging else []
        r = run(*self.connection(), command, *args, *extra)
        if expect is not None:
            self.assertEqual(r.returncode, expect, f"{command} {args}: {r.stdout}\n{r.stderr}")
        return r

    def call(self, operation, request):
        r = run(*self.connection(), "call", operation, json.dumps(request))
        self.assertEqual(r.returncode, 0, f"{operation}: {r.stderr}")
        return json.loads(r.stdout) if r.stdout.strip() else {}

    def create_posts(self, n=N):
        self.call("CreateTable", {
            "TableName": self.table, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"},
                                     {"AttributeName": "author_id", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
            "GlobalSecondaryIndexes": [{
                "IndexName": "by_author",
                "KeySchema": [{"AttributeName": "author_id", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"}}]})
        items = [{"id": {"S": f"POST#{i:03d}"}, "author_id": {"S": "USER#12"},
                  "author_name": {"S": "Mara Vance"}, "likes": {"N": str(i % 7)},
                  "body": {"S": f"text {i}"}} for i in range(n)]
        # another author's post holding the same name: not a copy, but a Scan finds it
        items.append({"id": {"S": "OTHER"}, "author_id": {"S": "USER#13"},
                      "author_name": {"S": "Mara Vance"}, "likes": {"N": "0"}})
        for start in range(0, len(items), 25):
            self.call("BatchWriteItem", {"RequestItems": {self.table: [
                {"PutRequest": {"Item": item}} for item in items[start:start + 25]]}})

    def change_behind_our_back(self):
        for i in BEHIND:
            self.call("UpdateItem", {
                "TableName": self.table, "Key": {"id": {"S": f"POST#{i:03d}"}},
                "UpdateExpression": "SET author_name = :n",
                "ExpressionAttributeValues": {":n": {"S": "Someone Else"}}})

    def names(self):
        """id -> author_name of every item, read consistently."""
        out, start = {}, None
        while True:
            req = {"TableName": self.table, "ConsistentRead": True}
            if start:
                req["ExclusiveStartKey"] = start
            resp = self.call("Scan", req)
            for item in resp["Items"]:
                out[item["id"]["S"]] = item["author_name"]["S"]
            start = resp.get("LastEvaluatedKey")
            if not start:
                return out

    def staged(self, *args):
        return json.loads(self.cli("staged", "--json", *args).stdout)

    def fanout(self, *how, frm="Mara Vance", to="Mara V."):
        return self.cli("fanout", "--table", self.table, *how, "--set", "author_name",
                        "--from", frm, "--to", to)

    def summary(self, r):
        m = SUMMARY.search(r.stdout)
        self.assertIsNotNone(m, r.stdout)
        return tuple(int(x) for x in m.groups())

    # -- the check ----------------------------------------------------------------------

    def check_fanout(self, how, single, expected_items):
        self.create_posts()
        r = self.fanout(*how)
        plan = dict(kv.split("=") for kv in r.stdout.splitlines()[0].split())
        self.assertEqual(int(plan["items"]), expected_items)
        self.assertGreater(int(plan["bytes"]), 0)
        self.assertEqual(int(plan["wcu_single"]), expected_items)  # each post is under 1 KB
        self.assertEqual(int(plan["wcu_transactions"]), 2 * expected_items)
        self.assertEqual(r.stdout.splitlines()[1], f"staged={expected_items}")
        changes = self.staged("--table", self.table)
        self.assertEqual(len(changes), expected_items)
        self.assertEqual({c["state"] for c in changes}, {"staged"})
        self.assertEqual(changes[0]["changes"], [{"path": "author_name",
                                                  "old": {"S": "Mara Vance"},
                                                  "new": {"S": "Mara V."}}])
        # nothing written before the commit
        self.assertEqual(set(self.names().values()), {"Mara Vance"})

        self.change_behind_our_back()
        r = self.cli("commit", *(["--single"] if single else []))
        self.assertEqual(self.summary(r), (expected_items - 3, 3, 0))
        self.assertIn(f"committed={expected_items - 3} conflicts=3 failed=0\n", r.stdout)
        # each conflict on standard error, with the value expected beside the one found
        conflicts = re.findall(r'^conflict: #\d+ update \S+ \{"id":\{"S":"(POST#\d+)"\}\}$',
                               r.stderr, re.M)
        self.assertEqual(sorted(conflicts), [f"POST#{i:03d}" for i in BEHIND])
        self.assertEqual(r.stderr.count('author_name: expected {"S":"Mara Vance"}, found '
                                        '{"S":"Someone Else"} (to write: {"S":"Mara V."})'), 3)

        names = self.names()
        for i in range(N):
            self.assertEqual(names[f"POST#{i:03d}"],
                             "Someone Else" if i in BEHIND else "Mara V.", i)
        self.assertEqual(names["OTHER"], "Mara V." if expected_items == N + 1 else "Mara Vance")

        # the conflicts stay staged, beside the item as found
        left = self.staged()
        self.assertEqual(sorted(c["key"]["id"]["S"] for c in left),
                         [f"POST#{i:03d}" for i in BEHIND])
        for c in left:
            self.assertEqual(c["state"], "conflict")
            self.assertEqual(c["current"]["author_name"], {"S": "Someone Else"})
        # and are not sent again
        r = self.cli("commit")
        self.assertEqual(r.stdout, "committed=0 conflicts=0 failed=0\n")
        self.assertEqual(self.names(), names)
        self.assertEqual(self.cli("discard").stdout, "discarded=3\n")
        self.assertEqual(self.staged(), [])

    def test_fanout_index_transactions(self):
        self.check_fanout(["--index", "by_author", "--key", "USER#12"], False, N)

    def test_fanout_scan_single(self):
        self.check_fanout(["--scan"], True, N + 1)

    # -- the rest -------------------------------------------------------------------------------

    def test_staged_and_discard(self):
        self.create_posts(4)
        self.fanout("--index", "by_author", "--key", "USER#12")
        r = self.cli("staged")
        self.assertEqual(r.stdout.count(" update " + self.table + " "), 4)
        self.assertEqual(r.stdout.count('  author_name: {"S":"Mara Vance"} -> {"S":"Mara V."}\n'),
                         4)
        self.assertEqual(self.staged("--table", "Nope"), [])
        self.assertEqual(self.cli("discard", "--table", "Nope").stdout, "discarded=0\n")
        one = self.staged()[0]["id"]
        self.assertEqual(self.cli("discard", "--change", str(one)).stdout, "discarded=1\n")
        self.assertEqual(len(self.staged()), 3)
        # another staging store holds nothing of ours
        r = run(*self.connection(), "staged", "--json", "--staging",
                os.path.join(self.tmp.name, "other.db"))
        self.assertEqual((r.returncode, json.loads(r.stdout)), (0, []))
        self.assertEqual(self.cli("discard", "--table", self.table).stdout, "discarded=3\n")
        self.assertEqual(self.staged(), [])
        self.assertEqual(self.cli("commit").stdout, "committed=0 conflicts=0 failed=0\n")
        self.assertEqual(set(self.names().values()), {"Mara Vance"})

    def test_typed_values_and_dry_run(self):
        self.create_posts(10)
        r = self.cli("fanout", "--table", self.table, "--scan", "--set", "likes",
                     "--from-json", '{"N": "3"}', "--to-json", '{"N": "30"}', "--dry-run")
        self.assertEqual(r.stdout.splitlines()[0].split()[0], "items=1")
        self.assertEqual(len(r.stdout.splitlines()), 1)
        self.assertEqual(self.staged(), [])
        r = self.cli("fanout", "--table", self.table, "--scan", "--set", "likes",
                     "--from-json", '{"N": "3"}', "--to-json", '{"N": "30"}')
        self.assertEqual(r.stdout.splitlines()[1], "staged=1")
        # a string "3" is not the number 3
        r = self.cli("fanout", "--table", self.table, "--scan", "--set", "likes",
                     "--from", "3", "--to", "4")
        self.assertTrue(r.stdout.startswith("items=0 "))
        self.assertEqual(self.cli("commit", "--single").stdout,
                         "committed=1 conflicts=0 failed=0\n")
        item = self.call("GetItem", {"TableName": self.table, "Key": {"id": {"S": "POST#003"}},
                                     "ConsistentRead": True})["Item"]
        self.assertEqual(item["likes"], {"N": "30"})

    def test_nul_in_strings(self):
        # U+0000 is a valid DynamoDB string character: staged, journaled, listed and committed
        # whole, in the key, the index key, the old value and the new one.
        self.create_posts(0)
        for i, name in ((1, "Mara\u0000Vance"), (2, "Mara\u0000Vance"), (3, "Mara")):
            self.call("PutItem", {"TableName": self.table, "Item": {
                "id": {"S": f"P\u0000{i}"}, "author_id": {"S": "U\u0000"},
                "author_name": {"S": name}}})
        r = self.cli("fanout", "--table", self.table, "--index", "by_author",
                     "--key-json", '{"S": "U\\u0000"}', "--set", "author_name",
                     "--from-json", '{"S": "Mara\\u0000Vance"}', "--to-json", '{"S": "M\\u0000V"}')
        self.assertEqual(r.stdout.splitlines()[1], "staged=2")
        changes = sorted(self.staged(), key=lambda c: c["key"]["id"]["S"])
        self.assertEqual([c["key"] for c in changes],
                         [{"id": {"S": "P\u00001"}}, {"id": {"S": "P\u00002"}}])
        self.assertEqual(changes[0]["changes"], [{"path": "author_name",
                                                  "old": {"S": "Mara\u0000Vance"},
                                                  "new": {"S": "M\u0000V"}}])
        self.assertIn('  author_name: {"S":"Mara\\u0000Vance"} -> {"S":"M\\u0000V"}\n',
                      self.cli("staged").stdout)
        # one changed behind our back to a value equal to the old one up to the NUL
        self.call("UpdateItem", {"TableName": self.table, "Key": {"id": {"S": "P\u00002"}},
                                 "UpdateExpression": "SET author_name = :n",
                                 "ExpressionAttributeValues": {":n": {"S": "Mara\u0000"}}})
        r = self.cli("commit", "--single")
        self.assertEqual(self.summary(r), (1, 1, 0))
        self.assertIn('author_name: expected {"S":"Mara\\u0000Vance"}, found {"S":"Mara\\u0000"}',
                      r.stderr)
        left = self.staged()
        self.assertEqual([c["current"]["author_name"] for c in left], [{"S": "Mara\u0000"}])
        self.assertEqual(self.names(), {"P\u00001": "M\u0000V", "P\u00002": "Mara\u0000",
                                        "P\u00003": "Mara", "OTHER": "Mara Vance"})

    def test_failed_exit_status(self):
        self.create_posts(3)
        # a fan-out over the table's key would change a key attribute: that write fails
        self.cli("fanout", "--table", self.table, "--scan", "--set", "id",
                 "--from", "POST#001", "--to", "POST#999")
        self.fanout("--index", "by_author", "--key", "USER#12")
        r = self.cli("commit", expect=1)
        committed, conflicts, failed = self.summary(r)
        self.assertEqual((conflicts, failed), (0, 1))
        self.assertIn("failed: #", r.stderr)
        # the failed change is the key one; the other posts went out (POST#001's name change
        # merged into the failed change, so only the 2 others)
        self.assertEqual(committed, 2)
        left = self.staged()
        self.assertEqual([c["state"] for c in left], ["failed"])
        self.assertIn("message", left[0])
        # failed changes are not sent again: the next commit fails nothing
        self.assertEqual(self.cli("commit").stdout, "committed=0 conflicts=0 failed=0\n")

    def test_usage(self):
        for command in ("fanout", "staged", "commit", "discard"):
            r = run(command, "--help")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("CONNECTION", r.stdout)
        r = run("fanout", "--help")
        self.assertIn("--from-json", r.stdout)
        bad = [
            ["--scan", "--set", "a", "--from", "x", "--to", "y"],  # no --table
            ["--table", "t", "--set", "a", "--from", "x", "--to", "y"],  # neither
            ["--table", "t", "--scan", "--index", "i", "--key", "k", "--set", "a", "--from", "x",
             "--to", "y"],
            ["--table", "t", "--index", "i", "--set", "a", "--from", "x", "--to", "y"],
            ["--table", "t", "--scan", "--from", "x", "--to", "y"],
            ["--table", "t", "--scan", "--set", "a", "--to", "y"],
            ["--table", "t", "--scan", "--set", "a", "--from", "x", "--from-json", '{"S":"x"}',
             "--to", "y"],
            ["--table", "t", "--scan", "--set", "a", "--from-json", '{"Q":"x"}', "--to", "y"],
            ["--table", "t", "--scan", "--set", "a", "--from", "x", "--to", "x"],
            ["--table", "t", "--scan", "--set", "a", "--from", "x", "--to", "y", "extra"],
        ]
        for args in bad:
            r = self.cli("fanout", *args, expect=2)
            self.assertTrue(r.stderr.startswith("dynoscope-cli fanout: "), r.stderr)
        self.cli("commit", "--bogus", expect=2)
        self.cli("staged", "extra", expect=2)
        # a missing table is an error of DynamoDB's, exit 1
        r = self.cli("fanout", "--table", "Missing", "--scan", "--set", "a", "--from", "x",
                     "--to", "y", expect=1)
        self.assertIn("ResourceNotFoundException", r.stderr)


class Engine(Base, unittest.TestCase):
    def connection(self):
        return ["--db", os.path.join(self.tmp.name, "data.db")]

    def test_connection_is_the_absolute_path(self):
        self.create_posts(2)
        self.fanout("--scan")
        # the same database through a relative path is the same connection
        r = subprocess.run([CLI, "--db", "data.db", "staged", "--json", "--staging",
                            self.staging], capture_output=True, text=True, cwd=self.tmp.name,
                           env=lib.client_env())
        self.assertEqual(len(json.loads(r.stdout)), 3)
        # another database is another connection
        r = run("--db", os.path.join(self.tmp.name, "other.db"), "staged", "--json",
                "--staging", self.staging)
        self.assertEqual(json.loads(r.stdout), [])
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "other.db")),
                         "listing must not create a database")


    def test_ctrl_c_then_resume(self):
        total = 1000
        self.create_posts(total)
        self.fanout("--index", "by_author", "--key", "USER#12")
        proc = subprocess.Popen([CLI, *self.connection(), "commit", "--single", "--staging",
                                 self.staging], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=lib.client_env())
        import signal
        import time
        # Ctrl-C once the first outcomes are journaled (single writes go out in groups, fast)
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            if len(self.staged()) < total:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        if proc.returncode == 0:
            self.skipTest("the commit finished before Ctrl-C")
        self.assertEqual(proc.returncode, 130, err)
        self.assertIn("dynoscope-cli commit: cancelled", err)
        done, conflicts, failed = self.summary(subprocess.CompletedProcess([], 0, out, err))
        self.assertEqual((conflicts, failed), (0, 0))
        self.assertLess(done, total)
        left = self.staged()
        self.assertEqual(len(left), total - done)
        self.assertTrue({c["state"] for c in left} <= {"staged", "sending"})
        # resumed: the rest goes out, nothing twice, no false conflicts
        r = self.cli("commit", "--single")
        self.assertEqual(r.stdout, f"committed={total - done} conflicts=0 failed=0\n")
        names = self.names()
        self.assertEqual([k for k, v in names.items() if v != "Mara V." and k != "OTHER"], [])
        self.assertEqual(self.staged(), [])


class DynamoDBLocal(Base, unittest.TestCase):
    def connection(self):
        return ["--endpoint", f"http://127.0.0.1:{DDBL.port}", "--region", "us-east-1"]


def main():
    global DDBL
    if TARGET == "ddblocal":
        if shutil.which("java") is None:
            print("1..0 # SKIP java is missing: DynamoDB Local cannot run")
            return lib.SKIP
        DDBL = lib.start_dynamodb_local()
        if DDBL is None:
            print("# DynamoDB Local did not start (java is there)")
            return 1
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(DynamoDBLocal)
    else:
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(Engine)
    try:
        result = unittest.TextTestRunner(verbosity=2).run(suite)
    finally:
        if DDBL is not None:
            DDBL.stop()
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
