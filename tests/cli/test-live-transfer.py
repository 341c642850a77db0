#!/usr/bin/env python3
"""dynoscope-cli import and export against a live endpoint (--endpoint): dynalite and AWS's
DynamoDB Local, started here (tests/lib). Import creates the table and writes with
BatchWriteItem, retrying UnprocessedItems (checked through a proxy to dynalite that leaves items
unprocessed); export reads with Scan (parallel segments) to jsonl and CSV; a bad line stops the
import with FILE:LINE and the count of items already written. Exits 77 (skip) only when neither
node nor java is there."""
import http.server
import json
import os
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
import unittest
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"
DEMO = os.path.join(lib.SRC, "data", "demo", "workspaces.jsonl")
KEY = "EntityRef:S,Detail:S"


def run(*args, timeout=120):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout,
                          env=lib.client_env())


def demo_lines():
    with open(DEMO, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def canonical(line):
    """A line's item with its attributes in name order (and sets sorted), for servers that do
    not keep attribute order."""
    def norm(v):
        (t, x), = v.items()
        if t in ("SS", "NS", "BS"):
            return {t: sorted(x)}
        if t == "M":
            return {t: {k: norm(y) for k, y in sorted(x.items())}}
        if t == "L":
            return {t: [norm(y) for y in x]}
        return v
    return json.dumps({k: norm(v) for k, v in sorted(json.loads(line).items())}, sort_keys=True)


class ProxyHandler(http.server.BaseHTTPRequestHandler):
    """Forwards DynamoDB requests to the upstream; answers the first BatchWriteItem requests
    itself after forwarding only part of their items, giving the rest back as UnprocessedItems
    (what a throttled table does). Counts every item it forwards."""
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        srv = self.server
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        target = self.headers.get("X-Amz-Target", "")
        if target.endswith(".BatchWriteItem"):
            req = json.loads(body)
            with srv.lock:
                srv.batch_calls += 1
                hold = srv.hold_rounds > 0
                if hold:
                    srv.hold_rounds -= 1
            if hold:
                (table, requests), = req["RequestItems"].items()
                keep = len(requests) // 3
                forwarded, unprocessed = requests[:keep], requests[keep:]
                if forwarded:
                    status, raw, _ = self.forward(json.dumps(
                        {"RequestItems": {table: forwarded}}).encode(), target)
                    if status != 200:
                        return self.send(status, raw)
                self.count(forwarded)
                with srv.lock:
                    srv.unprocessed_sent += len(unprocessed)
                return self.send(200, json.dumps({"UnprocessedItems": {table: unprocessed}})
                                 .encode())
            self.count(next(iter(req["RequestItems"].values())))
        status, raw, _ = self.forward(body, target)
        self.send(status, raw)

    def count(self, requests):
        with self.server.lock:
            for r in requests:
                item = r["PutRequest"]["Item"]
                key = (item["pk"]["S"],)
                self.server.puts[key] = self.server.puts.get(key, 0) + 1

    def forward(self, body, target):
        headers = {k: v for k, v in self.headers.items()
                   if k.lower() in ("content-type", "x-amz-target", "authorization",
                                    "x-amz-date")}
        headers["X-Amz-Target"] = target
        req = urllib.request.Request(self.server.upstream + "/", data=body, headers=headers,
                                     method="POST")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, resp.read(), resp.headers
        except urllib.error.HTTPError as e:
            return e.code, e.read(), e.headers

    def send(self, status, raw):
        import zlib
        self.send_response(status)
        self.send_header("Content-Type", "application/x-amz-json-1.0")
        self.send_header("Content-Length", str(len(raw)))
        self.send_header("x-amz-crc32", str(zlib.crc32(raw)))
        self.end_headers()
        self.wfile.write(raw)


class Proxy(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

    def __init__(self, upstream, hold_rounds):
        super().__init__(("127.0.0.1", 0), ProxyHandler)
        self.upstream = upstream
        self.hold_rounds = hold_rounds
        self.lock = threading.Lock()
        self.batch_calls = 0
        self.unprocessed_sent = 0
        self.puts = {}
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"

    def stop(self):
        self.shutdown()
        self.server_close()


class LiveTransfer:
    """The tests, run against each server (the subclasses start it)."""
    keeps_attribute_order = True
    counter = 0

    def endpoint(self, url=None):
        return ["--endpoint", url or self.url, "--region", "us-east-1"]

    def table(self, base):
        LiveTransfer.counter += 1
        return f"{base}-{LiveTransfer.counter}"

    def call(self, op, req, url=None):
        r = run(*self.endpoint(url), "call", "--compact", op, json.dumps(req))
        self.assertEqual(r.returncode, 0, r.stderr)
        return json.loads(r.stdout)

    def scan_count(self, table):
        return self.call("Scan", {"TableName": table, "Select": "COUNT"})["Count"]

    def assert_same_lines(self, got_lines):
        want = demo_lines()
        self.assertEqual(len(got_lines), len(want))
        if self.keeps_attribute_order:
            self.assertEqual(sorted(got_lines), sorted(want))
        else:
            self.assertEqual(sorted(map(canonical, got_lines)), sorted(map(canonical, want)))

    def test_nul_in_strings(self):
        # U+0000 is a valid DynamoDB string character: imported, exported (every format) and
        # imported again through the endpoint, whole.
        table = self.table("nuls")
        items = [{"EntityRef": {"S": "WS#a\u0000b"}, "Detail": {"S": "\u0000"},
                  "v": {"S": "x\u0000y"}, "tags": {"SS": ["\u0000"]}},
                 {"EntityRef": {"S": "WS#a"}, "Detail": {"S": "z\u0000"}}]

        def scan(name):
            got = self.call("Scan", {"TableName": name, "ConsistentRead": True})["Items"]
            return sorted(got, key=lambda i: (i["EntityRef"]["S"], i["Detail"]["S"]))

        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "nuls.jsonl")
            with open(source, "w") as f:
                f.write("".join(json.dumps(i) + "\n" for i in items))
            r = run(*self.endpoint(), "import", "--table", table, "--key", KEY, source)
            self.assertEqual(r.returncode, 0, r.stderr)
            want = scan(table)
            self.assertEqual(want, sorted(items, key=lambda i: (i["EntityRef"]["S"],
                                                                i["Detail"]["S"])))
            for fmt in ("jsonl", "json", "csv", "s3"):
                with self.subTest(fmt=fmt):
                    dest = os.path.join(tmp, "out-" + fmt + ("/" if fmt == "s3" else "." + fmt))
                    r = run(*self.endpoint(), "export", "--table", table, "--format", fmt, dest)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    again = self.table("nuls-" + fmt)
                    r = run(*self.endpoint(), "import", "--table", again, "--key", KEY,
                            "--format", fmt, dest)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    self.assertEqual(scan(again), want)

    def test_import_query_export(self):
        table = self.table("workspaces")
        r = run(*self.endpoint(), "import", "--table", table, "--key", KEY, DEMO)
        self.assertEqual(r.returncode, 0, r.stderr)
        desc = self.call("DescribeTable", {"TableName": table})["Table"]
        self.assertEqual(desc["TableStatus"], "ACTIVE")
        self.assertEqual(sorted((k["AttributeName"], k["KeyType"]) for k in desc["KeySchema"]),
                         [("Detail", "RANGE"), ("EntityRef", "HASH")])
        self.assertEqual(desc.get("BillingModeSummary", {}).get("BillingMode",
                                                                "PAY_PER_REQUEST"),
                         "PAY_PER_REQUEST")
        resp = self.call("Query", {"TableName": table,
                                   "KeyConditionExpression": "EntityRef = :p",
                                   "ExpressionAttributeValues": {":p": {"S": "WS#acme"}}})
        self.assertEqual(resp["Count"], 4)
        self.assertEqual([i["Detail"]["S"] for i in resp["Items"]],
                         ["META", "PROJ#2026-0040", "PROJ#2026-0041", "PROJ#2026-0042"])
        self.assertEqual(resp["Items"][3]["budget"],
                         {"N": "12345678901234567890123456789012345678"})

        with tempfile.TemporaryDirectory() as tmp:
            outs = {}
            for segments in ("1", "4"):
                out = os.path.join(tmp, f"out-{segments}.jsonl")
                r = run(*self.endpoint(), "export", "--table", table, "--segments", segments,
                        out)
                self.assertEqual(r.returncode, 0, r.stderr)
                with open(out, encoding="utf-8") as f:
                    outs[segments] = f.read().splitlines()
                self.assert_same_lines(outs[segments])
            # One segment: the Scan order, the same file each time.
            again = os.path.join(tmp, "again.jsonl")
            r = run(*self.endpoint(), "export", "--table", table, "--segments", "1", again)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(again, encoding="utf-8") as f:
                self.assertEqual(f.read().splitlines(), outs["1"])
            # Default segments, to standard output.
            r = run(*self.endpoint(), "export", "--table", table, "-")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assert_same_lines(r.stdout.splitlines())

            # CSV: a typed header, one record an item; read back into a database it gives the
            # same items.
            csv_path = os.path.join(tmp, "out.csv")
            r = run(*self.endpoint(), "export", "--table", table, csv_path)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(csv_path, encoding="utf-8", newline="") as f:
                text = f.read()
            records = text.split("\r\n")
            self.assertEqual(records[-1], "")
            self.assertEqual(len(records) - 2, 7)
            header = records[0].split(",")
            self.assertIn("seats (N)", header)
            self.assertIn("checksum (B)", header)
            db = os.path.join(tmp, "back.db")
            r = run("--db", db, "import", "--table", "back", "--key", KEY, csv_path)
            self.assertEqual(r.returncode, 0, r.stderr)
            r = run("--db", db, "export", "--table", "back", "-")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(sorted(map(canonical, r.stdout.splitlines())),
                             sorted(map(canonical, demo_lines())))

            # A query to a file.
            q = os.path.join(tmp, "q.jsonl")
            r = run(*self.endpoint(), "export", "--table", table, "--query",
                    json.dumps({"KeyConditionExpression": "EntityRef = :p",
                                "ExpressionAttributeValues": {":p": {"S": "WS#globex"}}}), q)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(q, encoding="utf-8") as f:
                self.assertEqual([json.loads(x)["Detail"]["S"] for x in f.read().splitlines()],
                                 ["META", "PROJ#2026-0007"])

        # The table exists now: a second import is refused, as on a database.
        r = run(*self.endpoint(), "import", "--table", table, "--key", KEY, DEMO)
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stderr.startswith("ResourceInUseException: "), r.stderr)

    def test_bad_line_reports_file_line_and_count(self):
        table = self.table("bad-line")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "items.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                for i in range(30):
                    f.write(json.dumps({"pk": {"S": f"k{i:03}"}, "n": {"N": str(i)}}) + "\n")
                f.write('{"pk": {"S": "k999"}, "n": {"N": "not a number"}}\n')
                f.write(json.dumps({"pk": {"S": "after"}}) + "\n")
            r = run(*self.endpoint(), "import", "--table", table, "--key", "pk:S", path)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
            self.assertTrue(r.stderr.startswith("ValidationException: items.jsonl:31: "),
                            r.stderr)
            self.assertIn("30 items were written before the error", r.stderr)
            self.assertIn("not undone", r.stderr)
        # Everything before the bad line is there, nothing after it.
        self.assertEqual(self.scan_count(table), 30)

    def test_help_says_not_atomic(self):
        r = run("import", "--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("NOT atomic", r.stdout)
        self.assertIn("written before the error", r.stdout)
        r = run("export", "--help")
        self.assertIn("--segments", r.stdout)
        self.assertIn("interleave", r.stdout)


class Dynalite(LiveTransfer, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cli = lib.find_dynalite() or lib.install_dynalite() if shutil.which("node") else None
        if cli is None:
            raise unittest.SkipTest("dynalite (node) is not available")
        cls.server = lib.Dynalite(cli)
        if not cls.server.start():
            raise unittest.SkipTest("dynalite did not start")
        cls.url = cls.server.url

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_unprocessed_items_retried(self):
        # The first BatchWriteItem requests get two thirds of their items back unprocessed:
        # they must be sent again (with backoff) until written, each item exactly once.
        proxy = Proxy(self.url, hold_rounds=6)
        try:
            table = self.table("unprocessed")
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "items.jsonl")
                with open(path, "w", encoding="utf-8") as f:
                    for i in range(60):
                        f.write(json.dumps({"pk": {"S": f"item-{i:03}"},
                                            "pad": {"S": "x" * i}}) + "\n")
                r = run(*self.endpoint(proxy.url), "import", "--table", table, "--key", "pk:S",
                        path)
                self.assertEqual(r.returncode, 0, r.stderr)
            self.assertGreater(proxy.unprocessed_sent, 0)
            self.assertGreater(proxy.batch_calls, 3)  # 3 batches of <= 25, plus the retries
            self.assertEqual(len(proxy.puts), 60)
            self.assertEqual(set(proxy.puts.values()), {1}, "every item written exactly once")
            self.assertEqual(self.scan_count(table), 60)
        finally:
            proxy.stop()

    def test_unprocessed_items_forever_gives_up(self):
        proxy = Proxy(self.url, hold_rounds=10 ** 6)
        try:
            table = self.table("stuck")
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "items.jsonl")
                with open(path, "w", encoding="utf-8") as f:
                    for i in range(2):
                        f.write(json.dumps({"pk": {"S": f"s{i}"}}) + "\n")
                r = run(*self.endpoint(proxy.url), "import", "--table", table, "--key", "pk:S",
                        path)
            # Two items: a third of two is none, so no round makes progress.
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("ProvisionedThroughputExceededException: BatchWriteItem left 2 items "
                          "unprocessed", r.stderr)
            self.assertIn("0 items were written before the error", r.stderr)
        finally:
            proxy.stop()


class Database(unittest.TestCase):
    """The same item stream and writers on a database: a parallel Scan export there too."""

    def test_parallel_export_from_database(self):
        with tempfile.TemporaryDirectory() as tmp:
            db = os.path.join(tmp, "t.db")
            r = run("--db", db, "import", "--table", "workspaces", "--key", KEY, DEMO)
            self.assertEqual(r.returncode, 0, r.stderr)
            r1 = run("--db", db, "export", "--table", "workspaces", "-")
            r3 = run("--db", db, "export", "--table", "workspaces", "--segments", "3", "-")
            self.assertEqual(r1.returncode, 0, r1.stderr)
            self.assertEqual(r3.returncode, 0, r3.stderr)
            self.assertEqual(sorted(r1.stdout.splitlines()), sorted(demo_lines()))
            self.assertEqual(sorted(r3.stdout.splitlines()), sorted(demo_lines()))
            r = run("--db", db, "export", "--table", "workspaces", "--segments", "2", "--query",
                    "{}", "-")
            self.assertEqual(r.returncode, 2)


class Cancellation(unittest.TestCase):
    """Ctrl-C while the import waits for a table that never becomes ACTIVE (the fault server
    answers every DescribeTable with CREATING): stopped at once, with what is left said."""

    def test_ctrl_c_while_waiting_for_active(self):
        import signal
        import time
        fault = lib.FaultServer().start()
        try:
            body = json.dumps({"script": [], "answer": {"Table": {"TableStatus": "CREATING"}}})
            urllib.request.urlopen(urllib.request.Request(fault.url + "/__script",
                                                          data=body.encode()), timeout=10).read()
            p = subprocess.Popen([CLI, "--endpoint", fault.url, "--region", "us-east-1", "import",
                                  "--table", "never-active", "--key", KEY, DEMO],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env=lib.client_env())
            time.sleep(1.5)
            self.assertIsNone(p.poll(), "still waiting")
            start = time.monotonic()
            p.send_signal(signal.SIGINT)
            _, err = p.communicate(timeout=20)
            self.assertLess(time.monotonic() - start, 5)
            self.assertEqual(p.returncode, 130, err)
            self.assertIn("cancelled", err)
            self.assertIn("0 items were written before the import was cancelled", err)
        finally:
            fault.stop()


class DynamoDBLocal(LiveTransfer, unittest.TestCase):
    # DynamoDB Local does not keep the order of an item's attributes: lines are compared as
    # items there (byte-exact against dynalite).
    keeps_attribute_order = False

    @classmethod
    def setUpClass(cls):
        cls.server = lib.start_dynamodb_local()
        if cls.server is None:
            raise unittest.SkipTest("DynamoDB Local (java) is not available")
        cls.url = f"http://127.0.0.1:{cls.server.port}"

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()


if __name__ == "__main__":
    if shutil.which("node") is None and shutil.which("java") is None:
        print("1..0 # SKIP neither node (dynalite) nor java (DynamoDB Local) is available")
        sys.exit(lib.SKIP)
    unittest.main(verbosity=2)
