#!/usr/bin/env python3
"""dynoscope-cli eval, run as a user runs it, over the demo data."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"
SRC = os.environ.get("DYNOSCOPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
DEMO = os.path.join(SRC, "data", "demo")


def run(*args, stdin=None):
    return subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True, timeout=30)


class Eval(unittest.TestCase):
    def test_help(self):
        r = run("--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("eval", r.stdout)
        r = run("eval", "--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("--condition", r.stdout)

    def test_unknown_command(self):
        r = run("frobnicate")
        self.assertEqual(r.returncode, 2)
        self.assertIn("frobnicate", r.stderr)

    def test_item_collection_query(self):
        r = run("eval", os.path.join(DEMO, "workspaces.jsonl"),
                "--condition", "#er = :er AND begins_with(#d, :p)",
                "--names", '{"#er": "EntityRef", "#d": "Detail"}',
                "--values", '{":er": {"S": "WS#acme"}, ":p": {"S": "PROJ#"}}')
        self.assertEqual(r.returncode, 0, r.stderr)
        items = [json.loads(line) for line in r.stdout.splitlines()]
        self.assertEqual([i["Detail"]["S"] for i in items],
                         ["PROJ#2026-0040", "PROJ#2026-0041", "PROJ#2026-0042"])
        self.assertIn("7 items read, 3 matched", r.stderr)

    def test_byte_exact_round_trip(self):
        path = os.path.join(DEMO, "workspaces.jsonl")
        r = run("eval", path)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(path) as f:
            self.assertEqual(r.stdout, f.read())
        self.assertIn('"N":"12345678901234567890123456789012345678"', r.stdout)
        self.assertIn('"NS":["1","2.5","-0.0000003"]', r.stdout)

    def test_nul_in_strings(self):
        # U+0000 is a valid DynamoDB string character: in the items, the values and the output.
        lines = '{"k":{"S":"a\\u0000b"},"v":{"S":"x"}}\n{"Item":{"k":{"S":"a"},"v":{"S":"\\u0000"}}}\n'
        r = run("eval", "--condition", "k = :k", "--update", "SET w = :w",
                "--values", '{":k": {"S": "a\\u0000b"}, ":w": {"S": "\\u0000z"}}', stdin=lines)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, '{"k":{"S":"a\\u0000b"},"v":{"S":"x"},"w":{"S":"\\u0000z"}}\n')
        self.assertIn("2 items read, 1 matched", r.stderr)
        r = run("eval", "--plain", "--condition", "v = :v", "--values", '{":v": {"S": "\\u0000"}}',
                stdin=lines)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout), {"k": "a", "v": "\u0000"})
        # No attribute name can hold U+0000 (a JSON object key cannot), so a name that does is
        # refused, not cut short into another attribute's name.
        r = run("eval", "--condition", "attribute_exists(#v)", "--names", '{"#v": "v\\u0000x"}',
                stdin=lines)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "")
        self.assertIn("cannot hold U+0000", r.stderr)

    def test_fan_out_rename_guarded(self):
        r = run("eval", os.path.join(DEMO, "posts.jsonl"),
                "--condition", "authorName = :old",
                "--update", "SET authorName = :new",
                "--values", '{":old": {"S": "Mara Vance"}, ":new": {"S": "Mara V."}}',
                "--projection", "PK, authorName")
        self.assertEqual(r.returncode, 0, r.stderr)
        items = [json.loads(line) for line in r.stdout.splitlines()]
        self.assertEqual(items, [
            {"PK": {"S": "POST#9f3"}, "authorName": {"S": "Mara V."}},
            {"PK": {"S": "POST#a71"}, "authorName": {"S": "Mara V."}},
        ])

    def test_exact_arithmetic(self):
        line = '{"pk":{"S":"a"},"n":{"N":"0.1"}}\n'
        r = run("eval", "--update", "SET n = n + :x", "--values", '{":x": {"N": "0.2"}}',
                stdin=line)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["n"], {"N": "0.3"})

    def test_s3_export_lines(self):
        lines = '{"Item":{"pk":{"S":"a"},"v":{"N":"1"}}}\n{"Item":{"pk":{"S":"b"},"v":{"N":"2"}}}\n'
        r = run("eval", "--condition", "v > :one", "--values", '{":one": {"N": "1.0"}}',
                stdin=lines)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, '{"pk":{"S":"b"},"v":{"N":"2"}}\n')

    def test_count(self):
        r = run("eval", os.path.join(DEMO, "posts.jsonl"), "--count",
                "--condition", "attribute_exists(authorName)")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "3")

    def test_bad_line_names_file_and_line(self):
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write('{"pk":{"S":"a"}}\n{"pk":{"N":"12abc"}}\n')
        try:
            r = run("eval", f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(r.returncode, 1)
        self.assertIn(f.name + ":2:", r.stderr)
        self.assertIn("12abc", r.stderr)

    def test_unused_placeholder_refused(self):
        r = run("eval", "--condition", "a = :a",
                "--values", '{":a": {"S": "x"}, ":b": {"S": "y"}}', stdin="")
        self.assertEqual(r.returncode, 1)
        self.assertIn("Value provided in ExpressionAttributeValues unused in expressions: keys: {:b}",
                      r.stderr)

    def test_reserved_word_refused(self):
        r = run("eval", "--condition", "name = :a", "--values", '{":a": {"S": "x"}}', stdin="")
        self.assertEqual(r.returncode, 1)
        self.assertIn("Attribute name is a reserved keyword; reserved keyword: name", r.stderr)

    def test_plain_output_keeps_binary_and_sets(self):
        r = run("eval", os.path.join(DEMO, "workspaces.jsonl"), "--plain",
                "--condition", "#d = :d", "--names", '{"#d": "Detail"}',
                "--values", '{":d": {"S": "PROJ#2026-0042"}}')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("3q2+7w==", r.stdout)
        self.assertIn("12345678901234567890123456789012345678", r.stdout)
        self.assertNotIn('"S":', r.stdout.replace(" ", ""))


if __name__ == "__main__":
    unittest.main(verbosity=2)
