#!/usr/bin/env python3
"""dynoscope-cli snapshot base: an import records its base, edits are counted, an export named
explicitly becomes the base of a table without one, bad input is a clear error."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"

ENV = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
ENV["AWS_CONFIG_FILE"] = os.devnull
ENV["AWS_SHARED_CREDENTIALS_FILE"] = os.devnull

LINE = re.compile(r"^source=(\S+) format=(\S+) recorded=(\S+) items=(\d+) edited=(\d+)"
                  r"(?: arn=(\S+))?$")


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=30, env=ENV)


class SnapshotBase(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="dynoscope-base-test-")
        self.db = os.path.join(self.dir, "snap.db")
        self.export = os.path.join(self.dir, "export.jsonl")
        with open(self.export, "w") as f:
            for i in range(5):
                f.write(json.dumps({"Item": {"pk": {"S": f"k{i}"}, "v": {"N": str(i)}}}) + "\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def cli(self, *args, status=0):
        r = run("--db", self.db, *args)
        self.assertEqual(r.returncode, status, r.stderr)
        return r

    def base(self, table):
        out = self.cli("snapshot", "base", "--table", table).stdout.strip()
        m = LINE.match(out)
        self.assertIsNotNone(m, out)
        return m.group(1), m.group(2), int(m.group(4)), int(m.group(5))

    def put(self, table, item):
        self.cli("call", "PutItem", json.dumps({"TableName": table, "Item": item}))

    def test_import_then_edits(self):
        self.cli("import", "--table", "Snap", self.export)
        self.assertEqual(self.base("Snap"), (self.export, "jsonl", 5, 0))
        self.put("Snap", {"pk": {"S": "k1"}, "v": {"N": "10"}})
        self.put("Snap", {"pk": {"S": "k1"}, "v": {"N": "11"}})
        self.put("Snap", {"pk": {"S": "new"}})
        self.cli("call", "DeleteItem",
                 json.dumps({"TableName": "Snap", "Key": {"pk": {"S": "k2"}}}))
        self.assertEqual(self.base("Snap"), (self.export, "jsonl", 5, 3))

    def test_explicit_base(self):
        self.cli("call", "CreateTable", json.dumps({
            "TableName": "Plain", "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}))
        self.put("Plain", {"pk": {"S": "a"}})
        self.assertEqual(self.cli("snapshot", "base", "--table", "Plain").stdout,
                         "Plain has no base\n")
        folder = os.path.join(self.dir, "s3-export")
        os.mkdir(folder)
        out = self.cli("snapshot", "base", "--table", "Plain", folder).stdout.strip()
        self.assertRegex(out, LINE)
        self.assertEqual(self.base("Plain"), (folder, "s3", 1, 0))
        self.put("Plain", {"pk": {"S": "a"}, "x": {"S": "y"}})
        self.assertEqual(self.base("Plain")[3], 1)

    def test_errors(self):
        r = self.cli("snapshot", "base", "--table", "Missing", status=1)
        self.assertIn("not found", r.stderr)
        self.cli("import", "--table", "Snap", self.export)
        missing = os.path.join(self.dir, "nope")
        r = self.cli("snapshot", "base", "--table", "Snap", missing, status=1)
        self.assertIn(missing, r.stderr)
        self.cli("snapshot", "base", status=2)
        self.cli("snapshot", status=2)
        r = run("snapshot", "base", "--table", "Snap")
        self.assertEqual(r.returncode, 2, r.stderr)


if __name__ == "__main__":
    unittest.main()
