#!/usr/bin/env python3
"""dynoscope-cli compare: a table of one database against a table of another database, and
against the same data on AWS's DynamoDB Local (started here; that part is skipped only when
java or DynamoDB Local is not there). A few hundred items with exact expected counts: changed
items (a nested map path, a number, a set), items on one side only, values written differently
but equal (1.0 and 1, a set in another order), an excluded attribute; the text and the JSON
lines output and the exit status."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"
KEY = "pk:S,sk:N"
N = 300


def run(*args, timeout=120):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout,
                          env=lib.client_env({"AWS_REGION": "us-east-1"}))


def item(i, **over):
    it = {"pk": {"S": f"P{i % 7}"}, "sk": {"N": str(i)},
          "name": {"S": f"item {i}"},
          "n": {"N": "1.0" if i == 10 else "1"},
          "tags": {"SS": ["b", "a", "c"] if i == 11 else ["a", "b", "c"]},
          "cfg": {"M": {"theme": {"S": "dark"}, "size": {"N": str(i)}}},
          "updatedAt": {"S": "2024-01-01"}}
    it.update(over)
    return it


def here_items():
    return [item(i) for i in range(N)]


def there_items():
    """From here's items: 3 changed, 2 removed (only here), 4 added (only there), 5 with only
    updatedAt changed, and items 10 and 11 written differently but equal."""
    out = []
    for i in range(N):
        if i in (20, 21):
            continue
        if i == 30:
            out.append(item(i, cfg={"M": {"theme": {"S": "light"}, "size": {"N": "30"}}}))
        elif i == 31:
            out.append(item(i, n={"N": "2"}))
        elif i == 32:
            out.append(item(i, tags={"SS": ["a", "b"]}))
        elif 40 <= i < 45:
            out.append(item(i, updatedAt={"S": "2025-06-01"}))
        elif i == 10:
            out.append(item(i, n={"N": "1"}))
        elif i == 11:
            out.append(item(i, tags={"SS": ["c", "a", "b"]}))
        else:
            out.append(item(i))
    out += [item(1000 + i) for i in range(4)]
    return out


def write_jsonl(path, items):
    with open(path, "w", encoding="utf-8") as f:
        for it in items:
            f.write(json.dumps({"Item": it}) + "\n")


class Compare:
    """The tests, with the other side given by other_side() (the subclasses)."""

    @classmethod
    def make_db(cls, name, items):
        src = os.path.join(cls.tmp, name + ".jsonl")
        db = os.path.join(cls.tmp, name + ".db")
        write_jsonl(src, items)
        r = run("--db", db, "import", "--table", "Items", "--key", KEY, src)
        assert r.returncode == 0, r.stderr
        return db

    def compare(self, *extra, here=None):
        return run("--db", here or self.here_db, "compare", "--table", "Items",
                   *self.other_side(), *extra)

    def test_counts_and_differences(self):
        r = self.compare("--exclude", "updatedAt")
        self.assertEqual(r.returncode, 1, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], f"same={N - 2 - 3} changed=3 only_here=2 only_there=4")
        # This side was imported and never written since: its import is the base, and every
        # difference was made on the other side.
        self.assertEqual(lines[1], "edited_here=0 edited_there=9 both=0")
        self.assertTrue(lines[2].startswith(f"items_here={N} "), lines[2])
        self.assertIn(f"items_there={N - 2 + 4} ", lines[2])
        text = "\n".join(lines[3:])
        self.assertIn('changed edited-there {"pk":{"S":"P2"},"sk":{"N":"30"}}\n'
                      '  cfg.theme: {"S":"dark"} -> {"S":"light"}', text)
        self.assertIn('  n: {"N":"1"} -> {"N":"2"}', text)
        self.assertIn('  tags: {"SS":["a","b","c"]} -> {"SS":["a","b"]}', text)
        self.assertIn('only here edited-there {"pk":{"S":"P6"},"sk":{"N":"20"}}', text)
        self.assertIn('only there edited-there {"pk":{"S":"P0"},"sk":{"N":"1001"}}', text)
        self.assertNotIn("updatedAt", text)

    def test_no_base_is_two_way(self):
        r = self.compare("--exclude", "updatedAt", "--no-base")
        self.assertEqual(r.returncode, 1, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], f"same={N - 2 - 3} changed=3 only_here=2 only_there=4")
        self.assertTrue(lines[1].startswith(f"items_here={N} "), lines[1])
        self.assertIn('changed {"pk":{"S":"P2"},"sk":{"N":"30"}}', r.stdout)
        self.assertNotIn("edited", r.stdout)

    def test_without_exclude_timestamps_differ(self):
        r = self.compare()
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(r.stdout.splitlines()[0],
                         f"same={N - 2 - 8} changed=8 only_here=2 only_there=4")
        self.assertIn('  updatedAt: {"S":"2024-01-01"} -> {"S":"2025-06-01"}', r.stdout)

    def test_json_lines(self):
        r = self.compare("--exclude", "updatedAt", "--json")
        self.assertEqual(r.returncode, 1, r.stderr)
        docs = [json.loads(line) for line in r.stdout.splitlines()]
        head = docs[0]
        self.assertEqual((head["same"], head["changed"], head["only_here"], head["only_there"]),
                         (N - 5, 3, 2, 4))
        kinds = sorted(d["kind"] for d in docs[1:])
        self.assertEqual(kinds, ["changed"] * 3 + ["only-here"] * 2 + ["only-there"] * 4)
        changed = {d["key"]["sk"]["N"]: d["diff"] for d in docs[1:] if d["kind"] == "changed"}
        self.assertEqual(changed["30"], [{"path": "cfg.theme", "old": {"S": "dark"},
                                          "new": {"S": "light"}}])
        self.assertEqual(changed["31"], [{"path": "n", "old": {"N": "1"}, "new": {"N": "2"}}])
        only = [d for d in docs[1:] if d["kind"] == "only-there"]
        self.assertEqual(only[0]["item"]["name"], {"S": f"item {only[0]['key']['sk']['N']}"})

    def test_identical_exits_0(self):
        r = self.compare("--exclude", "updatedAt", here=self.there_db)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.splitlines()[0], f"same={N + 2} changed=0 only_here=0 "
                         "only_there=0")
        self.assertEqual(r.stdout.splitlines()[1], "edited_here=0 edited_there=0 both=0")
        self.assertEqual(len(r.stdout.splitlines()), 3)

    def test_missing_table_exits_3(self):
        r = run("--db", self.here_db, "compare", "--table", "Items", *self.other_side(),
                "--with-table", "Nope")
        self.assertEqual(r.returncode, 3, r.stdout)
        self.assertIn("ResourceNotFoundException", r.stderr)


class Databases(Compare, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="test-compare-")
        cls.here_db = cls.make_db("here", here_items())
        cls.there_db = cls.make_db("there", there_items())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def other_side(self):
        return ["--with-db", self.there_db]

    def test_usage_errors_exit_2(self):
        r = run("--db", self.here_db, "compare", "--table", "Items")
        self.assertEqual(r.returncode, 2)
        self.assertIn("one of --with-db, --with-endpoint or --with-export", r.stderr)
        r = run("--db", self.here_db, "compare", "--with-db", self.there_db)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--table is required", r.stderr)

    def test_key_schema_mismatch_exits_3(self):
        src = os.path.join(self.tmp, "other.jsonl")
        write_jsonl(src, [{"id": {"S": "a"}}])
        r = run("--db", self.there_db, "import", "--table", "ById", "--key", "id:S", src)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = run("--db", self.here_db, "compare", "--table", "Items", "--with-db", self.there_db,
                "--with-table", "ById")
        self.assertEqual(r.returncode, 3)
        self.assertIn("The key schemas differ", r.stderr)


class Export(Compare, unittest.TestCase):
    """Here a database, there a folder in the S3 export layout of the other database's table,
    read directly without importing it."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="test-compare-export-")
        cls.here_db = cls.make_db("here", here_items())
        cls.there_db = cls.make_db("there", there_items())
        cls.export = os.path.join(cls.tmp, "there-s3")
        r = run("--db", cls.there_db, "export", "--table", "Items", "--format", "s3", cls.export)
        assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def other_side(self):
        return ["--with-export", self.export]

    def test_missing_table_exits_3(self):
        r = run("--db", self.here_db, "compare", "--table", "Items", "--with-export",
                os.path.join(self.tmp, "nowhere"))
        self.assertEqual(r.returncode, 3, r.stdout)

    def test_usage_errors_exit_2(self):
        for extra in (["--stage"], ["--base", self.export, "--no-base"],
                      ["--staging", os.path.join(self.tmp, "st.db")]):
            r = self.compare(*extra)
            self.assertEqual(r.returncode, 2, (extra, r.stderr))

    def test_base_export_names_the_base(self):
        r = self.compare("--exclude", "updatedAt", "--base", self.export, "--json")
        self.assertEqual(r.returncode, 1, r.stderr)
        head = json.loads(r.stdout.splitlines()[0])
        # There is its own base: every difference was made here.
        self.assertEqual((head["edited_here"], head["edited_there"], head["both"]), (9, 0, 0))
        self.assertEqual(head["base"], f"export {self.export}")


class DynamoDBLocal(Compare, unittest.TestCase):
    """Here a database, there the same items as the other database but on DynamoDB Local."""

    @classmethod
    def setUpClass(cls):
        cls.server = lib.start_dynamodb_local()
        if cls.server is None:
            raise unittest.SkipTest("DynamoDB Local (java) is not available")
        cls.url = f"http://127.0.0.1:{cls.server.port}"
        cls.tmp = tempfile.mkdtemp(prefix="test-compare-ddbl-")
        cls.here_db = cls.make_db("here", here_items())
        cls.there_db = cls.make_db("there", there_items())
        src = os.path.join(cls.tmp, "there.jsonl")
        r = run("--endpoint", cls.url, "import", "--table", "Items",
                "--key", KEY, src)
        assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.tmp)

    def other_side(self):
        return ["--with-endpoint", self.url]

    def test_endpoint_against_database(self):
        r = run("--endpoint", self.url, "compare", "--table", "Items",
                "--with-db", self.here_db, "--exclude", "updatedAt")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(r.stdout.splitlines()[0], f"same={N - 5} changed=3 only_here=4 "
                         "only_there=2")


if __name__ == "__main__":
    unittest.main(verbosity=2)
