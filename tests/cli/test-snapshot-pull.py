#!/usr/bin/env python3
"""dynoscope-cli snapshot pull: a live table (served by `dynoscope-cli serve`, and on DynamoDB
Local when java is there) copied into a database in one step, every item whole (38-digit
numbers, sets, binary, GSIs), with the live table recorded as the snapshot's base (format live)
and the temporary export removed; bad input is a usage error, a failure leaves nothing."""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

CLI = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli")
LINE = re.compile(r"^source=(\S+) format=(\S+) recorded=(\S+) items=(\d+) edited=(\d+)"
                  r"(?: arn=(\S+))?$")
N_ITEMS = 230


def live_items():
    for i in range(N_ITEMS):
        item = {"pk": {"S": f"c{i % 7}"}, "sk": {"N": str(i)},
                "big": {"N": "1234567890123456789012345678901234567" + str(i % 10)},
                "tags": {"SS": [f"t{i % 3}", "all"]}, "blob": {"B": "AAEC/w=="},
                "m": {"M": {"n": {"NS": ["1", "2.5"]}, "l": {"L": [{"BOOL": True}, {"NULL": True}]}}}}
        if i % 2 == 0:
            item["g"] = {"S": f"g{i % 5}"}
        yield item


def canonical(item):
    def norm(v):
        (t, x), = v.items()
        if t in ("SS", "NS", "BS"):
            return {t: sorted(x)}
        if t == "M":
            return {t: {k: norm(y) for k, y in sorted(x.items())}}
        if t == "L":
            return {t: [norm(y) for y in x]}
        return v
    return json.dumps({k: norm(v) for k, v in sorted(item.items())}, sort_keys=True)


class Pull:
    """The tests, against the endpoint a subclass starts (self.url) holding table Live."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="dynoscope-pull-test-")
        self.tmp = os.path.join(self.dir, "tmp")
        os.mkdir(self.tmp)
        self.db = os.path.join(self.dir, "snap.db")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_cli(self, *args):
        env = lib.client_env({"AWS_REGION": "us-east-1", "TMPDIR": self.tmp})
        return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120, env=env)

    def pull(self, *args, status=0):
        r = self.run_cli("--db", self.db, "snapshot", "pull", "--from-endpoint", self.url, *args)
        self.assertEqual(r.returncode, status, r.stderr)
        # The temporary export is gone, whatever happened.
        self.assertEqual(os.listdir(self.tmp), [])
        return r

    def scan(self, *target):
        r = self.run_cli(*target, "call", "--compact", "Scan", json.dumps({"TableName": "Live"
                                                                           if target[0] != "--db"
                                                                           else "Snap"}))
        self.assertEqual(r.returncode, 0, r.stderr)
        return sorted(canonical(i) for i in json.loads(r.stdout)["Items"])

    def test_pull_records_live_base(self):
        r = self.pull("--table", "Snap", "--from-table", "Live", "--segments", "3")
        self.assertIn(f"Pulled {N_ITEMS} items of {self.url}/Live into Snap", r.stdout)
        got = self.scan("--db", self.db)
        self.assertEqual(len(got), N_ITEMS)
        self.assertEqual(got, sorted(canonical(i) for i in live_items()))
        base = self.run_cli("--db", self.db, "snapshot", "base", "--table", "Snap")
        m = LINE.match(base.stdout.strip())
        self.assertIsNotNone(m, base.stdout + base.stderr)
        self.assertEqual((m.group(1), m.group(2), int(m.group(4)), int(m.group(5))),
                         (f"{self.url}/Live", "live", N_ITEMS, 0))
        # The key schema came along: a Query by key works, and an edit counts against the base.
        q = self.run_cli("--db", self.db, "call", "--compact", "Query", json.dumps({
            "TableName": "Snap", "KeyConditionExpression": "pk = :p AND sk = :s",
            "ExpressionAttributeValues": {":p": {"S": "c3"}, ":s": {"N": "10"}}}))
        self.assertEqual(q.returncode, 0, q.stderr)
        self.assertEqual(json.loads(q.stdout)["Count"], 1)
        e = self.run_cli("--db", self.db, "call", "PutItem", json.dumps({
            "TableName": "Snap", "Item": {"pk": {"S": "c3"}, "sk": {"N": "10"}}}))
        self.assertEqual(e.returncode, 0, e.stderr)
        base = self.run_cli("--db", self.db, "snapshot", "base", "--table", "Snap")
        self.assertTrue(base.stdout.strip().endswith("edited=1"), base.stdout)

    def test_compare_knows_the_base(self):
        # compare reads the pulled snapshot's base: an edit here and one there are told apart.
        self.pull("--table", "Snap", "--from-table", "Live")
        live = list(live_items())
        edited_there = live[5]
        put = self.run_cli("--db", self.db, "call", "PutItem", json.dumps(
            {"TableName": "Snap", "Item": dict(live[3], qty={"N": "99"})}))
        self.assertEqual(put.returncode, 0, put.stderr)
        try:
            put = self.run_cli("--endpoint", self.url, "call", "PutItem", json.dumps(
                {"TableName": "Live", "Item": dict(edited_there, qty={"N": "7"})}))
            self.assertEqual(put.returncode, 0, put.stderr)
            r = self.run_cli("--db", self.db, "compare", "--table", "Snap", "--with-endpoint",
                             self.url, "--with-table", "Live")
            self.assertEqual(r.returncode, 1, r.stderr)
            lines = r.stdout.splitlines()
            self.assertEqual(lines[0], f"same={N_ITEMS - 2} changed=2 only_here=0 only_there=0")
            self.assertEqual(lines[1], "edited_here=1 edited_there=1 both=0")
        finally:
            put = self.run_cli("--endpoint", self.url, "call", "PutItem", json.dumps(
                {"TableName": "Live", "Item": edited_there}))
            self.assertEqual(put.returncode, 0, put.stderr)

    def test_same_name_by_default(self):
        self.pull("--table", "Live")
        base = self.run_cli("--db", self.db, "snapshot", "base", "--table", "Live")
        self.assertIn(f"source={self.url}/Live format=live", base.stdout)
        # A live table's base names no export.
        self.assertNotIn(" arn=", base.stdout)

    def test_failures_leave_nothing(self):
        self.pull("--table", "Snap", "--from-table", "Live")
        # The table exists already: the import fails, the first snapshot is untouched.
        r = self.pull("--table", "Snap", "--from-table", "Live", status=1)
        self.assertIn("ResourceInUseException", r.stderr)
        self.assertEqual(len(self.scan("--db", self.db)), N_ITEMS)
        # No such live table.
        r = self.pull("--table", "Other", "--from-table", "Missing", status=1)
        self.assertIn("ResourceNotFoundException", r.stderr)
        t = self.run_cli("--db", self.db, "call", "--compact", "ListTables", "{}")
        self.assertEqual(json.loads(t.stdout)["TableNames"], ["Snap"])

    def test_usage_errors(self):
        for bad in ([], ["--table", "T", "--segments", "0"], ["--table", "T", "extra"]):
            r = self.pull(*bad, status=2)
            self.assertIn("Usage", r.stderr)
        r = self.run_cli("--db", self.db, "snapshot", "pull", "--table", "T")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--from-endpoint", r.stderr)
        r = self.run_cli("snapshot", "pull", "--table", "T", "--from-endpoint", self.url)
        self.assertEqual(r.returncode, 2)
        self.assertFalse(os.path.exists(self.db))


def create_live(url, env, work):
    src = os.path.join(work, "live.jsonl")
    with open(src, "w") as f:
        for item in live_items():
            f.write(json.dumps({"Item": item}) + "\n")
    r = subprocess.run([CLI, "--endpoint", url, "import", "--table", "Live", "--key",
                        "pk:S,sk:N", "--gsi", "ByG:g:S", src],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr


class Serve(Pull, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="dynoscope-pull-live-")
        port = lib.free_port()
        cls.proc = subprocess.Popen([CLI, "--db", os.path.join(cls.work, "live.db"), "serve",
                                     "--port", str(port)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                    start_new_session=True)
        cls.url = "http://127.0.0.1:%d" % port
        if not lib.wait_http(cls.url, cls.proc, 30):
            lib.stop_process_group(cls.proc)
            raise RuntimeError("serve did not start")
        create_live(cls.url, lib.client_env({"AWS_REGION": "us-east-1"}), cls.work)

    @classmethod
    def tearDownClass(cls):
        lib.stop_process_group(cls.proc)
        shutil.rmtree(cls.work)

    def test_gsi_came_along(self):
        self.pull("--table", "Snap", "--from-table", "Live")
        q = self.run_cli("--db", self.db, "call", "--compact", "Query", json.dumps({
            "TableName": "Snap", "IndexName": "ByG", "KeyConditionExpression": "g = :g",
            "ExpressionAttributeValues": {":g": {"S": "g0"}}}))
        self.assertEqual(q.returncode, 0, q.stderr)
        want = sum(1 for i in range(N_ITEMS) if i % 2 == 0 and i % 5 == 0)
        self.assertEqual(json.loads(q.stdout)["Count"], want)


class Interrupt(unittest.TestCase):
    """Ctrl-C while the export waits on an endpoint that never answers: exit 130, nothing left
    (no temporary folder, no table)."""

    def test_ctrl_c(self):
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        work = tempfile.mkdtemp(prefix="dynoscope-pull-int-")
        tmp = os.path.join(work, "tmp")
        os.mkdir(tmp)
        db = os.path.join(work, "snap.db")
        try:
            env = lib.client_env({"AWS_REGION": "us-east-1", "TMPDIR": tmp})
            proc = subprocess.Popen([CLI, "--db", db, "snapshot", "pull", "--table", "T",
                                     "--from-endpoint",
                                     "http://127.0.0.1:%d" % listener.getsockname()[1]],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    env=env)
            listener.accept()  # the request is in flight: the server holds it
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=30)
            self.assertEqual(proc.returncode, 130, err)
            self.assertIn("cancelled", err)
            self.assertEqual(os.listdir(tmp), [])
            r = subprocess.run([CLI, "--db", db, "call", "--compact", "ListTables", "{}"],
                               capture_output=True, text=True, env=env, timeout=30)
            self.assertEqual(json.loads(r.stdout)["TableNames"], [])
        finally:
            listener.close()
            shutil.rmtree(work)


class DynamoDBLocal(Pull, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = lib.start_dynamodb_local()
        if cls.server is None:
            raise unittest.SkipTest("DynamoDB Local (java) is not available")
        cls.url = f"http://127.0.0.1:{cls.server.port}"
        cls.work = tempfile.mkdtemp(prefix="dynoscope-pull-ddbl-")
        create_live(cls.url, lib.client_env({"AWS_REGION": "us-east-1"}), cls.work)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.work)


if __name__ == "__main__":
    unittest.main(verbosity=2)
