#!/usr/bin/env python3
"""dynoscope-cli stage-file against AWS's DynamoDB Local, as a user runs it: files in each format
(DynamoDB JSON lines, plain JSON, CSV) written from data that boto3 serialises (38-digit numbers,
sets, binary with odd bytes, nested maps and lists, empty strings, unicode), staged with
`stage-file`, sent with `commit`, and read back with boto3: the table holds exactly those items.
An item already there is a conflict left staged (and untouched in the table); --overwrite turns
it into an update; a file with bad lines is refused line by line with nothing staged.

Exit 77 when java or DynamoDB Local is missing, a failure when they are there but it will not
start."""
import base64
import decimal
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

lib.use_system_python_for_boto3()

CLI = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli")
REGION = "us-east-1"
ENV = lib.client_env({"AWS_REGION": REGION})
DDBL = None  # the DynamoDB Local process
STAGED = re.compile(r"^created=(\d+) overwritten=(\d+) unchanged=(\d+)$")
COMMITTED = re.compile(r"^committed=(\d+) conflicts=(\d+) failed=(\d+)$", re.M)


def run(*args, timeout=300):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout, env=ENV)


# -- the data, as boto3 makes it ------------------------------------------------------------------

def python_items(n):
    """Items as an application holds them: boto3's resource types."""
    from boto3.dynamodb.types import Binary
    D = decimal.Decimal
    strings = ["", "plain", "ünïcödé ✓ 日本語 🦆", "comma, \"quote\"", "line\nbreak"]
    out = []
    for i in range(n):
        item = {
            "pk": f"item-{i:04d}-{strings[i % len(strings)]}",
            "sk": D("12345678901234567890123456789012345678") if i % 3 == 0 else D(i) / D(8),
            "name": strings[(i + 1) % len(strings)],
            "big": D("-9.9999999999999999999999999999999999999E+125") if i % 2 else D("1E-130"),
            "tags": {"a", strings[2], f"t{i}"},
            "nums": {D("1"), D("0.5"), D("98765432109876543210987654321098765432")},
            "blob": Binary(bytes([0xff, 0x00, i % 256, 0x80])),
            "blobs": {Binary(b"\x00"), Binary(bytes([0xfe, i % 256]))},
            "flag": i % 2 == 0,
            "nothing": None,
            "doc": {"lines": [strings[i % len(strings)], D(2), {"deep": [None, True]}],
                    "empty": {}, "list": []},
        }
        out.append(item)
    return out


def low_level(items):
    """boto3's serialisation: the low-level form (binary as bytes)."""
    from boto3.dynamodb.types import TypeSerializer
    ser = TypeSerializer()
    return [{k: ser.serialize(v) for k, v in item.items()} for item in items]


def to_ddb_json(v):
    """Low-level (bytes) to DynamoDB JSON text form (base64)."""
    (t, x), = v.items()
    if t == "B":
        return {"B": base64.b64encode(bytes(x)).decode()}
    if t == "BS":
        return {"BS": [base64.b64encode(bytes(y)).decode() for y in x]}
    if t == "M":
        return {"M": {k: to_ddb_json(y) for k, y in x.items()}}
    if t == "L":
        return {"L": [to_ddb_json(y) for y in x]}
    return {t: x}


def plain(v):
    """Low-level to docs/plain-json.md's tagged plain JSON, as JSON text (numbers verbatim)."""
    (t, x), = v.items()
    if t == "S":
        return json.dumps(x, ensure_ascii=False)
    if t == "N":
        return x
    if t == "B":
        return json.dumps({"$B": base64.b64encode(bytes(x)).decode()})
    if t == "SS":
        return json.dumps({"$SS": list(x)}, ensure_ascii=False)
    if t == "NS":
        return '{"$NS": [' + ", ".join(x) + "]}"
    if t == "BS":
        return json.dumps({"$BS": [base64.b64encode(bytes(y)).decode() for y in x]})
    if t == "BOOL":
        return "true" if x else "false"
    if t == "NULL":
        return "null"
    if t == "L":
        return "[" + ", ".join(plain(y) for y in x) + "]"
    body = ", ".join(json.dumps(k, ensure_ascii=False) + ": " + plain(y) for k, y in x.items())
    if len(x) == 1 and next(iter(x)).startswith("$"):
        return '{"$M": {' + body + "}}"
    return "{" + body + "}"


def csv_cell(text):
    return '"' + text.replace('"', '""') + '"'


def write_file(path, fmt, items):
    """ITEMS (low-level) in FORMAT."""
    with open(path, "w", encoding="utf-8", newline="") as f:
        if fmt == "jsonl":
            for item in items:
                f.write(json.dumps({k: to_ddb_json(v) for k, v in item.items()},
                                   ensure_ascii=False) + "\n")
        elif fmt == "json":
            f.write("[\n" + ",\n".join(plain({"M": item}) for item in items) + "\n]\n")
        else:
            # S and N columns typed by the header; everything else a DynamoDB JSON cell.
            names = list(items[0].keys())
            header = []
            for n in names:
                t = next(iter(items[0][n]))
                header.append(n if t == "S" else f"{n} (N)" if t == "N" else f"{n} (DDB)")
            f.write(",".join(csv_cell(h) for h in header) + "\r\n")
            for item in items:
                cells = []
                for n in names:
                    (t, x), = item[n].items()
                    if t == "S":
                        cells.append(csv_cell(x))
                    elif t == "N":
                        cells.append(x)
                    else:
                        cells.append(csv_cell(json.dumps(to_ddb_json(item[n]),
                                                         ensure_ascii=False)))
                f.write(",".join(cells) + "\r\n")


CTX = decimal.Context(prec=60)


def norm(v):
    """A comparable form: binary as base64, sets sorted, numbers by exact value."""
    (t, x), = v.items()
    if t == "B":
        return ("B", base64.b64encode(bytes(x)).decode())
    if t == "BS":
        return ("BS", tuple(sorted(base64.b64encode(bytes(y)).decode() for y in x)))
    if t == "SS":
        return ("SS", tuple(sorted(x)))
    if t == "N":
        return ("N", str(CTX.normalize(decimal.Decimal(x))))
    if t == "NS":
        return ("NS", tuple(sorted(str(CTX.normalize(decimal.Decimal(y))) for y in x)))
    if t == "M":
        return ("M", tuple(sorted((k, norm(y)) for k, y in x.items())))
    if t == "L":
        return ("L", tuple(norm(y) for y in x))
    return (t, x)


def norm_item(item):
    return tuple(sorted((k, norm(v)) for k, v in item.items()))


# -- the tests ------------------------------------------------------------------------------------

class StageFile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import boto3
        from botocore.config import Config
        cls.url = f"http://127.0.0.1:{DDBL.port}"
        cls.ddb = boto3.client("dynamodb", endpoint_url=cls.url, region_name=REGION,
                               aws_access_key_id=ENV["AWS_ACCESS_KEY_ID"],
                               aws_secret_access_key=ENV["AWS_SECRET_ACCESS_KEY"],
                               config=Config(retries={"max_attempts": 10}))

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="test-stage-file-")
        self.staging = os.path.join(self.tmp, "staging.db")
        self.table = "Stage_" + self.id().rsplit(".", 1)[1]
        self.ddb.create_table(
            TableName=self.table, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "N"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"}])
        self.ddb.get_waiter("table_exists").wait(TableName=self.table,
                                                  WaiterConfig={"Delay": 0.2})

    def tearDown(self):
        self.ddb.delete_table(TableName=self.table)
        shutil.rmtree(self.tmp)

    def cli(self, *args, expect=0):
        r = run("--endpoint", self.url, "--region", REGION, *args, "--staging", self.staging)
        if expect is not None:
            self.assertEqual(r.returncode, expect,
                             f"dynoscope-cli {' '.join(args)[:300]}\n{r.stdout[-3000:]}\n"
                             f"{r.stderr[-3000:]}")
        return r

    def stage(self, path, *extra, expect=0):
        r = self.cli("stage-file", self.table, path, *extra, expect=expect)
        m = STAGED.match(r.stdout.strip()) if expect == 0 else None
        return r, (tuple(int(x) for x in m.groups()) if m else None)

    def commit(self):
        r = self.cli("commit")
        m = COMMITTED.search(r.stdout)
        self.assertIsNotNone(m, r.stdout)
        return tuple(int(x) for x in m.groups())

    def staged(self):
        return json.loads(self.cli("staged", "--json").stdout)

    def scan(self):
        items, start = [], None
        while True:
            kw = {"TableName": self.table, "ConsistentRead": True}
            if start:
                kw["ExclusiveStartKey"] = start
            page = self.ddb.scan(**kw)
            items += page["Items"]
            start = page.get("LastEvaluatedKey")
            if not start:
                return items

    def assert_table_holds(self, items):
        got = sorted(norm_item(i) for i in self.scan())
        want = sorted(norm_item(i) for i in items)
        self.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            self.assertEqual(g, w)

    def check_format(self, fmt):
        items = low_level(python_items(120))
        path = os.path.join(self.tmp, f"items.{fmt}")
        write_file(path, fmt, items)
        _, counts = self.stage(path)
        self.assertEqual(counts, (len(items), 0, 0))
        self.assertEqual(len(self.staged()), len(items))
        self.assertEqual(self.scan(), [], "nothing is written before the commit")
        self.assertEqual(self.commit(), (len(items), 0, 0))
        self.assert_table_holds(items)
        self.assertEqual(self.staged(), [])

    def test_jsonl(self):
        self.check_format("jsonl")

    def test_json(self):
        self.check_format("json")

    def test_csv(self):
        self.check_format("csv")

    def test_existing_item_is_a_conflict_left_staged(self):
        items = low_level(python_items(30))
        there = {"pk": items[7]["pk"], "sk": items[7]["sk"], "was": {"S": "here first"}}
        self.ddb.put_item(TableName=self.table, Item=there)
        path = os.path.join(self.tmp, "items.jsonl")
        write_file(path, "jsonl", items)
        _, counts = self.stage(path)
        self.assertEqual(counts, (len(items), 0, 0))
        self.assertEqual(self.commit(), (len(items) - 1, 1, 0))
        left = self.staged()
        self.assertEqual(len(left), 1)
        self.assertEqual(left[0]["state"], "conflict")
        self.assertEqual(left[0]["kind"], "create")
        self.assert_table_holds([there] + items[:7] + items[8:])

    def test_overwrite(self):
        items = low_level(python_items(30))
        there = {"pk": items[3]["pk"], "sk": items[3]["sk"], "was": {"S": "old"}}
        self.ddb.put_item(TableName=self.table, Item=there)
        self.ddb.put_item(TableName=self.table, Item=items[4])
        path = os.path.join(self.tmp, "items.json")
        write_file(path, "json", items)
        _, counts = self.stage(path, "--overwrite")
        self.assertEqual(counts, (len(items) - 2, 1, 1))
        self.assertEqual(self.commit(), (len(items) - 1, 0, 0))
        self.assert_table_holds(items)

    def test_refused_lines(self):
        items = low_level(python_items(6))
        path = os.path.join(self.tmp, "bad.jsonl")
        write_file(path, "jsonl", items)
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        lines.insert(1, '{"pk": {"S": "x"}, "sk": {"S": "not a number"}}')   # line 2
        lines.insert(3, '{"pk": {"S": "y"}')                                 # line 4
        lines.insert(5, '{"pk": {"S": "z"}, "sk": {"N": "1"}, "s": {"SS": []}}')  # line 6
        lines.append(lines[0])                                               # a duplicate
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        r, _ = self.stage(path, expect=1)
        refused = [int(m.group(1)) for m in re.finditer(r"^bad\.jsonl:(\d+): ", r.stderr, re.M)]
        self.assertEqual(refused, [2, 4, 6, len(lines)], r.stderr)
        self.assertIn("Type mismatch for key sk", r.stderr)
        self.assertIn("4 items refused: nothing staged", r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertEqual(self.staged(), [])

    def test_usage(self):
        r = self.cli("stage-file", self.table, expect=2)
        self.assertIn("TABLE FILE", r.stderr)
        path = os.path.join(self.tmp, "x.jsonl")
        write_file(path, "jsonl", low_level(python_items(1)))
        r = self.cli("stage-file", self.table, path, "--format", "s3", expect=2)
        r = self.cli("stage-file", "Missing", path, expect=1)
        self.assertIn("ResourceNotFoundException", r.stderr)
        self.assertEqual(self.staged(), [])


def main():
    global DDBL
    if shutil.which("java") is None:
        print("1..0 # SKIP java is missing: DynamoDB Local cannot run")
        return lib.SKIP
    if not lib.has_boto3():
        print("1..0 # SKIP boto3 is missing")
        return lib.SKIP
    DDBL = lib.start_dynamodb_local()
    if DDBL is None:
        if lib.find_emulator() is None:
            print("1..0 # SKIP DynamoDB Local is not installed")
            return lib.SKIP
        print("# DynamoDB Local did not start (java and the jar are there)")
        return 1
    try:
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(StageFile)
        result = unittest.TextTestRunner(verbosity=2).run(suite)
    finally:
        DDBL.stop()
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
