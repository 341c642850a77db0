#!/usr/bin/env python3
"""dynoscope-cli import and export, run as a user runs them: the demo data in and out again
byte for byte, a Query on what was imported, a bad line reported as FILE:LINE with exit status 1,
export to standard output, Ctrl-C leaving nothing behind, --help."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"
HERE = os.path.dirname(os.path.abspath(__file__))
DEMO = os.path.join(HERE, "..", "..", "data", "demo", "workspaces.jsonl")
KEY = "EntityRef:S,Detail:S"
# The ARN an incremental export's manifest names, in AWS's shape.
INC_ARN = ("arn:aws:dynamodb:us-east-1:123456789012:table/Workspaces/export/"
           "01767225600000-abcdef12")


def run(*args, stdin=None):
    return subprocess.run([CLI, *args], input=stdin, capture_output=True, timeout=60)


class ImportExport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="dynoscope-cli-test-")
        self.db = os.path.join(self.dir, "test.db")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def imp(self, source, table="Workspaces", db=None, *extra):
        return run("--db", db or self.db, "import", "--table", table, "--key", KEY, *extra, source)

    def table_names(self, db=None):
        r = run("--db", db or self.db, "call", "ListTables")
        self.assertEqual(r.returncode, 0, r.stderr)
        return json.loads(r.stdout)["TableNames"]

    def test_round_trip(self):
        r = self.imp(DEMO)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, b"")

        r = run("--db", self.db, "call", "Query", json.dumps({
            "TableName": "Workspaces",
            "KeyConditionExpression": "EntityRef = :e AND begins_with(Detail, :p)",
            "ExpressionAttributeValues": {":e": {"S": "WS#acme"}, ":p": {"S": "PROJ#"}}}))
        self.assertEqual(r.returncode, 0, r.stderr)
        resp = json.loads(r.stdout)
        self.assertEqual(resp["Count"], 3)
        self.assertEqual([i["Detail"]["S"] for i in resp["Items"]],
                         ["PROJ#2026-0040", "PROJ#2026-0041", "PROJ#2026-0042"])
        # Exact numbers and binary survive the import.
        self.assertEqual(resp["Items"][2]["budget"], {"N": "12345678901234567890123456789012345678"})
        self.assertEqual(resp["Items"][2]["checksum"], {"B": "3q2+7w=="})

        first = self.path("first.jsonl")
        r = run("--db", self.db, "export", "--table", "Workspaces", first)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(first, "rb") as f:
            exported = f.read()
        with open(DEMO, "rb") as f:
            demo = f.read()
        # The export is in Scan order (partitions in hash order), not the file's, but every
        # line comes back with the same bytes (attribute order, number text).
        self.assertEqual(sorted(exported.splitlines()), sorted(demo.splitlines()))
        self.assertTrue(exported.endswith(b"\n"))
        self.assertFalse(os.path.exists(first + ".part"))

        # Imported again and exported again: the same bytes, order included.
        db2 = self.path("second.db")
        r = self.imp(first, "Workspaces", db2)
        self.assertEqual(r.returncode, 0, r.stderr)
        second = self.path("second.jsonl")
        r = run("--db", db2, "export", "--table", "Workspaces", "--format", "jsonl", second)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(second, "rb") as f:
            self.assertEqual(f.read(), exported)

        # "-" is standard output, the same bytes as the file.
        r = run("--db", db2, "export", "--table", "Workspaces", "-")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, exported)
        self.assertFalse(os.path.exists("-"))

    def test_export_stdout_formats(self):
        self.assertEqual(self.imp(DEMO).returncode, 0)
        r = run("--db", self.db, "export", "--table", "Workspaces", "--format", "json", "-")
        self.assertEqual(r.returncode, 0, r.stderr)
        items = json.loads(r.stdout)
        self.assertEqual(len(items), 7)
        self.assertIn({"EntityRef": "WS#acme#01", "Detail": "PROJ#2026-0100",
                       "name": "Shard one project", "status": "active"}, items)
        r = run("--db", self.db, "export", "--table", "Workspaces", "--format", "csv", "-")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.split(b"\r\n")
        self.assertTrue(lines[0].startswith(b"EntityRef,Detail,"), lines[0])
        self.assertEqual(len([l for l in lines if l]), 8)
        # An s3 export is a folder: a usage error, nothing written.
        r = run("--db", self.db, "export", "--table", "Workspaces", "--format", "s3", "-")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stdout, b"")
        self.assertIn(b"standard output", r.stderr)
        # A missing table: DynamoDB's error, exit 1, nothing on standard output.
        r = run("--db", self.db, "export", "--table", "Nope", "-")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, b"")
        self.assertTrue(r.stderr.startswith(b"ResourceNotFoundException: "), r.stderr)

    def test_nul_in_strings(self):
        """U+0000 is a valid DynamoDB string character: every format carries it out and in whole,
        in keys, values, set elements and nested lists, and a --query may ask for it."""
        items = [{"EntityRef": {"S": "WS#a\u0000b"}, "Detail": {"S": "\u0000"},
                  "v": {"S": "x\u0000y"}, "tags": {"SS": ["1\u00002", "1"]},
                  "l": {"L": [{"S": "\u0000\u0000"}]}},
                 {"EntityRef": {"S": "WS#a"}, "Detail": {"S": "z\u0000"}}]
        source = self.path("nul.jsonl")
        with open(source, "w") as f:
            f.write("".join(json.dumps(i, separators=(",", ":")) + "\n" for i in items))
        r = self.imp(source)
        self.assertEqual(r.returncode, 0, r.stderr)

        def scan(db):
            r = run("--db", db, "call", "Scan", '{"TableName": "Workspaces"}')
            self.assertEqual(r.returncode, 0, r.stderr)
            got = json.loads(r.stdout)["Items"]
            for i in got:
                if "tags" in i:
                    i["tags"]["SS"].sort()
            return sorted(got, key=lambda i: (i["EntityRef"]["S"], i["Detail"]["S"]))

        want = scan(self.db)
        self.assertEqual(len(want), 2)
        self.assertIn({"S": "x\u0000y"}, [i.get("v") for i in want])
        for fmt in ("jsonl", "json", "csv", "s3"):
            with self.subTest(fmt=fmt):
                dest = self.path("out-" + fmt + ("/" if fmt == "s3" else "." + fmt))
                r = run("--db", self.db, "export", "--table", "Workspaces", "--format", fmt, dest)
                self.assertEqual(r.returncode, 0, r.stderr)
                db2 = self.path(fmt + ".db")
                r = self.imp(dest, "Workspaces", db2, "--format", fmt)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(scan(db2), want)

        r = run("--db", self.db, "export", "--table", "Workspaces", "--query", json.dumps({
            "KeyConditionExpression": "EntityRef = :e",
            "ExpressionAttributeValues": {":e": {"S": "WS#a\u0000b"}}}), "-")
        self.assertEqual(r.returncode, 0, r.stderr)
        got = [json.loads(line) for line in r.stdout.splitlines()]
        self.assertEqual([i["v"] for i in got], [{"S": "x\u0000y"}])

    def test_bad_line(self):
        with open(DEMO, "rb") as f:
            lines = f.read().splitlines(keepends=True)
        bad = self.path("bad.jsonl")
        with open(bad, "wb") as f:
            f.write(b"".join(lines[:3]) + b'{"EntityRef":{"S":"WS#x"},"Detail":{"N":"1"}}\n'
                    + b"".join(lines[3:]))
        r = self.imp(bad)
        self.assertEqual(r.returncode, 1)
        err = r.stderr.decode()
        self.assertTrue(err.startswith("ValidationException: bad.jsonl:4: "), err)
        self.assertIn("Detail", err)
        self.assertEqual(err.count("\n"), 1, err)
        # Nothing left behind: no table, so the same import can be run again once fixed.
        self.assertEqual(self.table_names(), [])

        with open(bad, "wb") as f:
            f.write(b"".join(lines[:5]) + b'{"EntityRef": {"S": "WS#x"},\n' + b"".join(lines[5:]))
        r = self.imp(bad)
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stderr.decode().startswith("SerializationException: bad.jsonl:6: "),
                        r.stderr)
        self.assertEqual(self.table_names(), [])

    def test_ctrl_c_leaves_nothing(self):
        # Items come through a pipe, so the import is surely running when Ctrl-C arrives.
        p = subprocess.Popen([CLI, "--db", self.db, "import", "--table", "Big", "--key", "pk:S",
                              "--format", "jsonl", "/dev/stdin"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        def batch(start, n):
            return "".join('{"pk":{"S":"k%d"},"n":{"N":"%d"}}\n' % (i, i)
                           for i in range(start, start + n)).encode()
        p.stdin.write(batch(0, 5000))
        p.stdin.flush()
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
        time.sleep(0.2)
        try:
            for start in range(5000, 200000, 5000):
                p.stdin.write(batch(start, 5000))
                p.stdin.flush()
                time.sleep(0.01)
            p.stdin.close()
        except BrokenPipeError:
            pass
        out, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 130, err)
        self.assertIn(b"dynoscope-cli import: cancelled", err)
        self.assertEqual(self.table_names(), [])

    def test_ion_export(self):
        """export --format ion: AWS's layout with Ion data files, read back to the same items."""
        r = self.imp(DEMO)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = self.path("ion")
        r = run("--db", self.db, "export", "--table", "Workspaces", "--format", "ion", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "manifest-summary.json")) as f:
            self.assertEqual(json.load(f)["outputFormat"], "ION")
        import gzip
        data = [os.path.join(out, "data", n) for n in os.listdir(os.path.join(out, "data"))]
        self.assertTrue(data and all(n.endswith(".ion.gz") for n in data))
        lines = [l for n in data for l in gzip.open(n).read().decode().splitlines()]
        self.assertTrue(all(l.startswith("$ion_1_0 {Item:{") for l in lines), lines[:2])
        db2 = self.path("ion.db")
        r = run("--db", db2, "import", "--table", "Workspaces", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        a, b = self.path("a.jsonl"), self.path("b.jsonl")
        for db, dest in ((self.db, a), (db2, b)):
            r = run("--db", db, "export", "--table", "Workspaces", dest)
            self.assertEqual(r.returncode, 0, r.stderr)
        with open(a, "rb") as f1, open(b, "rb") as f2:
            self.assertEqual(f1.read(), f2.read())

    def test_incremental(self):
        """A full export written by `export --format s3`, then an incremental export as AWS
        writes one (an update, a delete, an insert, compacted), applied on import."""
        r = self.imp(DEMO)
        self.assertEqual(r.returncode, 0, r.stderr)
        full = self.path("full")
        r = run("--db", self.db, "export", "--table", "Workspaces", "--format", "s3", full)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(full, "manifest-summary.json")) as f:
            export_time = json.load(f)["exportTime"]
        items = {}
        with open(DEMO) as f:
            for line in f:
                item = json.loads(line)
                items[(item["EntityRef"]["S"], item["Detail"]["S"])] = item
        keys = sorted(items)
        upd, gone = keys[0], keys[1]
        new_item = {"EntityRef": {"S": "WS#new"}, "Detail": {"S": "META"},
                    "n": {"N": "-12345678901234567890123456789012345678"}}
        changed = dict(items[upd], note={"SS": ["a", "b"]})
        micros = 1767225600000000
        def keys_of(item):
            return {"EntityRef": item["EntityRef"], "Detail": item["Detail"]}
        records = [
            {"Metadata": {"WriteTimestampMicros": {"N": str(micros)}}, "Keys": keys_of(changed),
             "OldImage": items[upd], "NewImage": changed},
            {"Metadata": {"WriteTimestampMicros": {"N": str(micros + 1)}},
             "Keys": keys_of(items[gone]), "OldImage": items[gone]},
            {"Metadata": {"WriteTimestampMicros": {"N": str(micros + 2)}}, "Keys": keys_of(new_item),
             "NewImage": new_item},
        ]
        inc = self.path("inc")
        os.makedirs(os.path.join(inc, "data"))
        import gzip, hashlib, base64
        body = gzip.compress("".join(json.dumps(r) + "\n" for r in records).encode())
        with open(os.path.join(inc, "data", "abcdefghijklmnopqrstuvwxyz.json.gz"), "wb") as f:
            f.write(body)
        with open(os.path.join(inc, "manifest-files.json"), "w") as f:
            f.write(json.dumps({"itemCount": 3,
                                "md5Checksum": base64.b64encode(hashlib.md5(body).digest()).decode(),
                                "etag": hashlib.md5(body).hexdigest(),
                                "dataFileS3Key": "AWSDynamoDB/01767225600000-abcdef12/data/"
                                                 "abcdefghijklmnopqrstuvwxyz.json.gz"}) + "\n")
        with open(os.path.join(inc, "manifest-summary.json"), "w") as f:
            json.dump({"version": "2023-08-01", "exportType": "INCREMENTAL_EXPORT",
                       "exportFromTime": export_time, "exportToTime": "2099-01-01T00:00:00.000Z",
                       "outputFormat": "DYNAMODB_JSON", "outputView": "NEW_AND_OLD_IMAGES",
                       "itemCount": 3, "exportArn": INC_ARN}, f)
        db2 = self.path("inc.db")
        # alone, it is refused
        r = self.imp(inc, "Workspaces", db2)
        self.assertEqual(r.returncode, 1)
        self.assertIn(b"cannot be imported alone", r.stderr)
        r = run("--db", db2, "import", "--table", "Workspaces", full, inc)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = self.path("after.jsonl")
        r = run("--db", db2, "export", "--table", "Workspaces", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        want = dict(items)
        want[upd] = changed
        del want[gone]
        want[("WS#new", "META")] = new_item
        with open(out) as f:
            got = {(i["EntityRef"]["S"], i["Detail"]["S"]): i for i in map(json.loads, f)}
        self.assertEqual(got, want)
        # The base is the last export applied, as of its end; compare with the full export
        # shows what the incremental export changed.
        r = run("--db", db2, "snapshot", "base", "--table", "Workspaces")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(b"source=" + os.path.realpath(inc).encode() + b" ", r.stdout)
        self.assertIn(b"recorded=2099-01-01T00:00:00Z", r.stdout)
        self.assertIn(b" arn=" + INC_ARN.encode() + b"\n", r.stdout)
        r = run("--db", db2, "compare", "--table", "Workspaces", "--with-export", full, "--json")
        self.assertEqual(r.returncode, 1, r.stderr)  # they differ
        lines = [json.loads(l) for l in r.stdout.decode().splitlines()]
        self.assertEqual((lines[0]["same"], lines[0]["changed"], lines[0]["only_here"],
                          lines[0]["only_there"]), (len(items) - 2, 1, 1, 1))
        kinds = {(d["kind"], d["key"]["EntityRef"]["S"], d["key"]["Detail"]["S"])
                 for d in lines[1:] if "kind" in d}
        self.assertEqual(kinds, {("changed",) + upd, ("only-here", "WS#new", "META"),
                                 ("only-there",) + gone})
        # Without importing: the full export with the incremental one on top is the other side.
        # Against the full export's snapshot, the differences are what the incremental changed.
        r = run("--db", self.db, "compare", "--table", "Workspaces", "--with-export", full,
                "--with-incremental", inc, "--json")
        self.assertEqual(r.returncode, 1, r.stderr)
        lines = [json.loads(l) for l in r.stdout.decode().splitlines()]
        self.assertEqual((lines[0]["same"], lines[0]["changed"], lines[0]["only_here"],
                          lines[0]["only_there"], lines[0]["items_here"],
                          lines[0]["items_there"]),
                         (len(items) - 2, 1, 1, 1, len(items), len(items)))
        diffs = {(d["kind"], d["key"]["EntityRef"]["S"], d["key"]["Detail"]["S"]): d
                 for d in lines[1:] if "kind" in d}
        self.assertEqual(set(diffs), {("changed",) + upd, ("only-there", "WS#new", "META"),
                                      ("only-here",) + gone})
        self.assertEqual(diffs[("changed",) + upd]["diff"],
                         [{"path": "note", "new": {"SS": ["a", "b"]}}])
        self.assertEqual(diffs[("only-there", "WS#new", "META")]["item"], new_item)
        # and the snapshot of both is the same table
        r = run("--db", db2, "compare", "--table", "Workspaces", "--with-export", full,
                "--with-incremental", inc)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        r = run("--db", self.db, "compare", "--table", "Workspaces", "--with-db", db2,
                "--with-incremental", inc)
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"--with-incremental goes with --with-export", r.stderr)

    def test_help(self):
        r = run("import", "--help")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout.decode()
        for word in ("--table", "--key", "--gsi", "--format", "SOURCE", "FILE:LINE", "Exit status"):
            self.assertIn(word, out)
        r = run("export", "--help")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout.decode()
        for word in ("--table", "--format", "--query", "DEST", "standard output", "Exit status"):
            self.assertIn(word, out)
        # Usage errors: exit 2 with the usage line.
        r = run("--db", self.db, "import", "--table", "Workspaces")
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"missing SOURCE", r.stderr)
        self.assertIn(b"Usage:", r.stderr)
        # Sources after the first are incremental exports: a file is not one.
        r = run("--db", self.db, "import", "--table", "Workspaces", DEMO, DEMO)
        self.assertEqual(r.returncode, 1)
        self.assertIn(b"not a DynamoDB S3 export", r.stderr)
        self.assertEqual(self.table_names(), [])
        r = run("--db", self.db, "import", "--table", "Workspaces", "--key", "EntityRef:X", DEMO)
        self.assertEqual(r.returncode, 2)
        r = run("--db", self.db, "export", "--table", "Workspaces")
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"missing DEST", r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
