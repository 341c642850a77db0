#!/usr/bin/env python3
"""Issue 14's round trip, run as a user runs it, against AWS's DynamoDB Local (started here;
exit 77 when java or DynamoDB Local is not there): a 5,000-item live table (38-digit numbers,
string and number and binary sets, binary, nested maps and lists) is exported in the S3 layout
and imported as a snapshot; the snapshot is edited offline through `dynoscope-cli --db call`
(updates of nested paths and list elements, replacements, deletes, creates) while the live table
is edited with boto3 (some of the same items, one of them deleted, items the snapshot did not
touch, one item changed identically on both sides). Then:

- `compare` prints the exact counts of both lines and the class of every key (--json), all
  derived from the edit lists below (and checked against the states actually read);
- `compare --stage` stages exactly the offline edits; a change made live behind the staging's
  back to a path one of them touches makes `commit` report that one as a conflict, left staged;
  a change behind its back to a path none touches is kept beside the pushed edit;
- after the commit every offline-only edit is live (read back with boto3's low-level client and
  compared attribute by attribute, numbers as exact strings), every live-only change is intact,
  every item changed on both sides is as live had it; `compare` classifies what is left.

A second, smaller case: a snapshot without an engine base (built with `call`) compared with
`--base EXPORT` gives the classes the engine's base gives; a `--no-base` (two-way) push makes
the live table equal to the snapshot."""
import base64
import decimal
import glob
import gzip
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

LINE1 = re.compile(r"^same=(\d+) changed=(\d+) only_here=(\d+) only_there=(\d+)$")
LINE2 = re.compile(r"^edited_here=(\d+) edited_there=(\d+) both=(\d+)$")
STAGED = re.compile(r"^staged=(\d+) creates=(\d+) updates=(\d+) deletes=(\d+) left_there=(\d+) "
                    r"conflicts=(\d+)$", re.M)
COMMITTED = re.compile(r"^committed=(\d+) conflicts=(\d+) failed=(\d+)$", re.M)
BASE_LINE = re.compile(r"^source=(\S+) format=(\S+) recorded=(\S+) items=(\d+) edited=(\d+)"
                  r"(?: arn=(\S+))?$")

KINDS = ("changed", "only-here", "only-there")
CLASSES = ("edited-here", "edited-there", "both")


def run(*args, timeout=120):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout, env=ENV)


# -- items ----------------------------------------------------------------------------------------

def b64(raw):
    return base64.b64encode(raw).decode()


def key_of(i):
    return {"PK": {"S": f"TENANT#{i % 50:02d}"}, "SK": {"S": f"ORDER#{i:05d}"}}


def new_key(name):
    return {"PK": {"S": "TENANT#NEW"}, "SK": {"S": name}}


def item(i):
    """Item I of the live table as first written: every attribute type, numbers of 38 digits
    (written canonically, so that both stores print them alike)."""
    it = dict(key_of(i))
    it.update({
        "amount": {"N": str(10 ** 37 + i * 982451653)},                 # 38 digits
        "ratio": {"N": f"-{i % 9 + 1}.{(i * 7919) % 10 ** 36:036d}7"},  # 38 digits
        "qty": {"N": str(i % 17)},
        "tags": {"SS": [f"t{i % 5}", f"t{(i + 1) % 5}", "all"]},
        "scores": {"NS": [str(i), f"{i}.5", "-1"]},
        "payload": {"B": b64(bytes([i % 256, (i * 7) % 256, 0, 255]) + f"#{i}".encode())},
        "chunks": {"BS": [b64(b"\x00\x01"), b64(bytes([i % 256]) + b"x")]},
        "profile": {"M": {"a": {"M": {"b": {"M": {"c": {"S": f"deep{i}"}, "d": {"N": str(i)}}}}},
                          "theme": {"S": "dark"}, "empty": {"M": {}}}},
        "history": {"L": [{"N": str(i)}, {"S": "created"},
                          {"M": {"at": {"S": "2024-01-01"}, "who": {"S": f"user{i % 13}"}}},
                          {"L": [{"BOOL": True}, {"NULL": True}]}]},
        "active": {"BOOL": i % 2 == 0},
        "gone": {"NULL": True},
        "note": {"S": f"order {i} of tenant {i % 50}"},
    })
    return it


def created(name, flavour="here"):
    """An item created after the export."""
    return {**new_key(name), "qty": {"N": "1"}, "origin": {"S": flavour},
            "amount": {"N": "98765432109876543210987654321098765432"},
            "tags": {"SS": ["new", flavour]}, "payload": {"B": b64(b"\xff\x00" + name.encode())},
            "doc": {"M": {"lines": {"L": [{"S": name}, {"N": "2"}]}}}}


def replaced(i):
    """Item I written again whole (PutItem) with other attributes."""
    return {**key_of(i), "amount": {"N": "-12345678901234567890123456789012345678"},
            "tags": {"SS": ["replaced"]}, "profile": {"M": {"theme": {"S": "solar"}}}}


# -- normalisation: DynamoDB JSON (the CLI) and boto3's low-level form (bytes) alike --------------

def norm(v):
    """A comparable form of a value: binary as base64 text, sets sorted, numbers as the exact
    strings the store gave (no numeric rounding)."""
    (t, x), = v.items()
    if t == "B":
        return {"B": b64(x) if isinstance(x, (bytes, bytearray)) else x}
    if t == "BS":
        return {"BS": sorted(b64(y) if isinstance(y, (bytes, bytearray)) else y for y in x)}
    if t in ("SS", "NS"):
        return {t: sorted(x)}
    if t == "M":
        return {"M": {k: norm(y) for k, y in sorted(x.items())}}
    if t == "L":
        return {"L": [norm(y) for y in x]}
    return {t: x}


def norm_item(it):
    return {k: norm(v) for k, v in sorted(it.items())}


CTX = decimal.Context(prec=60)


def by_value(v):
    """Like norm, with numbers by value (how compare decides equality)."""
    (t, x), = norm(v).items()
    if t == "N":
        return {"N": str(CTX.normalize(decimal.Decimal(x)))}
    if t == "NS":
        return {"NS": sorted(str(CTX.normalize(decimal.Decimal(y))) for y in x)}
    if t == "M":
        return {"M": {k: by_value(y) for k, y in x.items()}}
    if t == "L":
        return {"L": [by_value(y) for y in x]}
    return {t: x}


def to_boto(v):
    """DynamoDB JSON (binary in base64) to what boto3's low-level client sends (bytes)."""
    (t, x), = v.items()
    if t == "B":
        return {"B": base64.b64decode(x)}
    if t == "BS":
        return {"BS": [base64.b64decode(y) for y in x]}
    if t == "M":
        return {"M": {k: to_boto(y) for k, y in x.items()}}
    if t == "L":
        return {"L": [to_boto(y) for y in x]}
    return v


def to_boto_key(key):
    return {k: to_boto(v) for k, v in key.items()}


def kid(key):
    """A hashable id of a key map."""
    return (key["PK"]["S"], key["SK"]["S"])


# -- the edits: (key, operation, request fields); the same spellings for both sides --------------

def upd(expr, values=None, names=None):
    req = {"UpdateExpression": expr}
    if values:
        req["ExpressionAttributeValues"] = values
    if names:
        req["ExpressionAttributeNames"] = names
    return ("UpdateItem", req)


def put(it):
    return ("PutItem", {"Item": it})


DELETE = ("DeleteItem", {})

# Offline edits of items live leaves alone (edited here, pushed): one edit a kind.
HERE_UPDATES = [
    upd("SET profile.a.b.c = :v", {":v": {"S": "edited offline"}}),           # nested map path
    upd("SET history[1] = :v", {":v": {"S": "shipped"}}),                     # list element
    upd("SET history[2].who = :v", {":v": {"S": "offline-user"}}),             # map in a list
    upd("ADD amount :one", {":one": {"N": "1"}}),                              # 38-digit sum
    upd("REMOVE note"),                                                       # attribute removed
    upd("ADD tags :s", {":s": {"SS": ["urgent"]}}),                           # set grows
    upd("DELETE tags :s", {":s": {"SS": ["all"]}}),                           # set shrinks
    upd("SET payload = :b", {":b": {"B": b64(b"\x00\xfe offline \x01")}}),       # binary
    upd("SET profile.theme = :t, qty = qty + :n", {":t": {"S": "light"}, ":n": {"N": "5"}}),
    upd("SET #x = :m", {":m": {"M": {"k": {"L": [{"N": "1.5"}, {"BS": [b64(b"z")]}]}}}},
        {"#x": "extra"}),                                                     # new nested value
    upd("REMOVE history[0]"),                                                 # list shifts
    upd("SET scores = :ns, ratio = :r", {":ns": {"NS": ["0.1", "2"]},
                                         ":r": {"N": "0.12345678901234567890123456789012345678"}}),
    None,  # replaced whole with PutItem (filled in below)
]
HERE_DELETES = 4
HERE_CREATES = ["C-here-1", "C-here-2", "C-here-3", "C-here-4", "C-here-5"]

# Live edits of items the snapshot leaves alone (edited there: never reverted).
THERE_UPDATES = [
    upd("SET profile.a.b.c = :v", {":v": {"S": "edited live"}}),
    upd("ADD amount :n", {":n": {"N": "-3"}}),
    upd("ADD tags :s", {":s": {"SS": ["live"]}}),
    upd("SET history[3][0] = :f", {":f": {"BOOL": False}}),
    upd("SET qty = :q, note = :s", {":q": {"N": "99"}, ":s": {"S": "changed live"}}),
]
THERE_DELETES = 1
THERE_CREATES = ["C-there-1", "C-there-2"]

# Items changed on both sides (conflicts: never pushed, left as live has them).
BOTH_UPDATES = [  # (here, there): the same path twice, then different paths
    (upd("SET qty = :q", {":q": {"N": "1001"}}), upd("SET qty = :q", {":q": {"N": "2002"}})),
    (upd("SET profile.a.b.c = :v", {":v": {"S": "here"}}),
     upd("SET profile.a.b.c = :v", {":v": {"S": "there"}})),
    (upd("SET profile.theme = :t", {":t": {"S": "here"}}), upd("ADD tags :s", {":s": {"SS": ["x"]}})),
    (upd("REMOVE note"), upd("SET history[1] = :v", {":v": {"S": "live"}})),
]
# updated offline, deleted live; deleted offline, updated live; created on both differently
BOTH_UPDATE_DELETE = upd("SET qty = :q", {":q": {"N": "3003"}})
BOTH_DELETE_UPDATE = upd("SET qty = :q", {":q": {"N": "4004"}})
BOTH_CREATE = "C-both-differ"

# Edited offline and edited back (written, but equal to its base again), and changed live: the
# classes compare values, not whether an item was written (edited there).
REVERTED_HERE = upd("SET qty = :q", {":q": {"N": "5000"}})
REVERTED_THERE = upd("SET note = :s", {":s": {"S": "changed live, reverted offline"}})

# Equal on both sides in the end: the same change, the same create, a delete on both.
SAME_UPDATE = upd("SET qty = :q, profile.theme = :t", {":q": {"N": "777"}, ":t": {"S": "same"}})
SAME_CREATE = "C-both-same"


class Plan:
    """Which item gets which edit (indexes spread over the table), and what compare must say of
    each key: {kid: (kind, class)}, with the keys present on each side."""

    def __init__(self, n, first=7, step=97):
        picks = iter(range(first, n, step))
        self.n = n
        self.here_updates = [(next(picks), e) for e in HERE_UPDATES]
        self.here_updates[-1] = (self.here_updates[-1][0], put(replaced(self.here_updates[-1][0])))
        self.here_deletes = [next(picks) for _ in range(HERE_DELETES)]
        self.there_updates = [(next(picks), e) for e in THERE_UPDATES]
        self.there_deletes = [next(picks) for _ in range(THERE_DELETES)]
        self.both_updates = [(next(picks), h, t) for h, t in BOTH_UPDATES]
        self.both_update_delete = next(picks)
        self.both_delete_update = next(picks)
        self.same_update = next(picks)
        self.deleted_both = next(picks)
        self.reverted = next(picks)
        keys = {kid(key_of(i)) for i in range(n)}
        here, there = set(keys), set(keys)
        expect = {}

        def put_class(k, kind, klass):
            expect[k] = (kind, klass)

        for i, _ in self.here_updates:
            put_class(kid(key_of(i)), "changed", "edited-here")
        for i in self.here_deletes:
            here.discard(kid(key_of(i)))
            put_class(kid(key_of(i)), "only-there", "edited-here")
        for name in HERE_CREATES:
            here.add(kid(new_key(name)))
            put_class(kid(new_key(name)), "only-here", "edited-here")
        for i, _ in self.there_updates:
            put_class(kid(key_of(i)), "changed", "edited-there")
        for i in self.there_deletes:
            there.discard(kid(key_of(i)))
            put_class(kid(key_of(i)), "only-here", "edited-there")
        for name in THERE_CREATES:
            there.add(kid(new_key(name)))
            put_class(kid(new_key(name)), "only-there", "edited-there")
        for i, _, _ in self.both_updates:
            put_class(kid(key_of(i)), "changed", "both")
        there.discard(kid(key_of(self.both_update_delete)))
        put_class(kid(key_of(self.both_update_delete)), "only-here", "both")
        here.discard(kid(key_of(self.both_delete_update)))
        put_class(kid(key_of(self.both_delete_update)), "only-there", "both")
        here.add(kid(new_key(BOTH_CREATE)))
        there.add(kid(new_key(BOTH_CREATE)))
        put_class(kid(new_key(BOTH_CREATE)), "changed", "both")
        here.discard(kid(key_of(self.deleted_both)))
        there.discard(kid(key_of(self.deleted_both)))
        here.add(kid(new_key(SAME_CREATE)))
        there.add(kid(new_key(SAME_CREATE)))
        put_class(kid(key_of(self.reverted)), "changed", "edited-there")
        self.expect, self.here_keys, self.there_keys = expect, here, there
        # the keys written in the snapshot since its base (the engine keeps their base version)
        self.written_here = (len(self.here_updates) + len(self.here_deletes) + len(HERE_CREATES)
                             + len(self.both_updates) + 4 + 2 + 1)

    def here_edits(self):
        """(key, (operation, fields)) of the snapshot's edits."""
        out = [(key_of(i), e) for i, e in self.here_updates]
        out += [(key_of(i), DELETE) for i in self.here_deletes]
        out += [(new_key(n), put(created(n))) for n in HERE_CREATES]
        out += [(key_of(i), h) for i, h, _ in self.both_updates]
        out += [(key_of(self.both_update_delete), BOTH_UPDATE_DELETE),
                (key_of(self.both_delete_update), DELETE),
                (new_key(BOTH_CREATE), put(created(BOTH_CREATE, "here"))),
                (key_of(self.same_update), SAME_UPDATE),
                (key_of(self.deleted_both), DELETE),
                (new_key(SAME_CREATE), put(created(SAME_CREATE, "both"))),
                (key_of(self.reverted), REVERTED_HERE),
                (key_of(self.reverted),
                 upd("SET qty = :q", {":q": {"N": str(self.reverted % 17)}}))]
        return out

    def there_edits(self):
        out = [(key_of(i), e) for i, e in self.there_updates]
        out += [(key_of(i), DELETE) for i in self.there_deletes]
        out += [(new_key(n), put(created(n, "there"))) for n in THERE_CREATES]
        out += [(key_of(i), t) for i, _, t in self.both_updates]
        out += [(key_of(self.both_update_delete), DELETE),
                (key_of(self.both_delete_update), BOTH_DELETE_UPDATE),
                (new_key(BOTH_CREATE), put(created(BOTH_CREATE, "there"))),
                (key_of(self.same_update), SAME_UPDATE),
                (key_of(self.deleted_both), DELETE),
                (new_key(SAME_CREATE), put(created(SAME_CREATE, "both"))),
                (key_of(self.reverted), REVERTED_THERE)]
        return out


def counts(expect, here_keys, there_keys):
    """The two lines compare prints, from the classes of the differing keys."""
    kinds = [kind for kind, _ in expect.values()]
    classes = [klass for _, klass in expect.values()]
    changed = kinds.count("changed")
    line1 = (len(here_keys & there_keys) - changed, changed, kinds.count("only-here"),
             kinds.count("only-there"))
    line2 = tuple(classes.count(c) for c in CLASSES)
    return line1, line2


DIFF_LINE = re.compile(r"^(changed|only here|only there) (edited-here|edited-there|both) (\{.*\})$",
                       re.M)


def text_classes(text):
    """{kid: (kind, class)} of compare's text lines `KIND CLASS KEYJSON`."""
    out = {}
    for kind, klass, key in DIFF_LINE.findall(text):
        out[kid(json.loads(key))] = (kind.replace(" ", "-"), klass)
    return out


def three_way(base, here, there):
    """The classes of the differing keys computed from the items themselves, numbers by value:
    a check of the edits above (did each do what the plan says) independent of the CLI."""
    out = {}
    for k in set(here) | set(there):
        h, t, b = here.get(k), there.get(k), base.get(k)
        vh, vt, vb = (None if x is None else {a: by_value(v) for a, v in x.items()}
                      for x in (h, t, b))
        if vh == vt:
            continue
        kind = "changed" if h and t else "only-here" if h else "only-there"
        klass = "edited-there" if vh == vb else "edited-here" if vt == vb else "both"
        out[k] = (kind, klass)
    return out


# -- the test -------------------------------------------------------------------------------------

class RoundTrip(unittest.TestCase):
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
        self.tmp = tempfile.mkdtemp(prefix="test-compare-push-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def path(self, name):
        return os.path.join(self.tmp, name)

    # -- helpers ----------------------------------------------------------------------------------

    def cli(self, *args, expect=0):
        r = run(*args)
        if expect is not None:
            self.assertEqual(r.returncode, expect,
                             f"dynoscope-cli {' '.join(args)[:300]}\n{r.stdout[-3000:]}\n"
                             f"{r.stderr[-3000:]}")
        return r

    def create_live(self, table, n):
        self.ddb.create_table(
            TableName=table, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                                  {"AttributeName": "SK", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                       {"AttributeName": "SK", "KeyType": "RANGE"}])
        self.ddb.get_waiter("table_exists").wait(TableName=table,
                                                  WaiterConfig={"Delay": 0.2})
        self.batch_write(table, [item(i) for i in range(n)])

    def batch_write(self, table, items):
        for start in range(0, len(items), 25):
            pending = {table: [{"PutRequest": {"Item": {k: to_boto(v) for k, v in it.items()}}}
                               for it in items[start:start + 25]]}
            while pending:
                pending = self.ddb.batch_write_item(RequestItems=pending)["UnprocessedItems"]

    def live_items(self, table):
        """{kid: item} of the live table, read consistently, normalised."""
        out = {}
        for page in self.ddb.get_paginator("scan").paginate(TableName=table,
                                                           ConsistentRead=True):
            for it in page["Items"]:
                n = norm_item(it)
                out[kid(n)] = n
        return out

    def snapshot_items(self, db, table):
        """{kid: item} of a snapshot table, as `export` writes it."""
        out = self.path(f"{table}-{os.path.basename(db)}.jsonl")
        self.cli("--db", db, "export", "--table", table, "--format", "jsonl", out)
        return self.read_lines([out])

    @staticmethod
    def read_lines(files):
        items = {}
        for name in files:
            opener = gzip.open if name.endswith(".gz") else open
            with opener(name, "rt", encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        doc = json.loads(line)
                        # S3 export lines are {"Item": …}; jsonl exports are the item itself
                        it = norm_item(doc["Item"] if list(doc) == ["Item"] else doc)
                        items[kid(it)] = it
        return items

    def export_items(self, folder):
        """{kid: item} of a folder in the S3 export layout (its data files)."""
        files = glob.glob(os.path.join(folder, "**", "*.json.gz"), recursive=True)
        self.assertTrue(files, f"no data files in {folder}: {os.listdir(folder)}")
        return self.read_lines(files)

    def edit_snapshot(self, db, table, edits):
        for key, (op, fields) in edits:
            req = {"TableName": table, **fields}
            if op != "PutItem":
                req["Key"] = key
            self.cli("--db", db, "call", op, json.dumps(req))

    def edit_live(self, table, edits):
        for key, (op, fields) in edits:
            req = {"TableName": table}
            for name, value in fields.items():
                if name == "Item":
                    value = {k: to_boto(v) for k, v in value.items()}
                elif name == "ExpressionAttributeValues":
                    value = {k: to_boto(v) for k, v in value.items()}
                req[name] = value
            if op == "PutItem":
                self.ddb.put_item(**req)
            elif op == "DeleteItem":
                self.ddb.delete_item(Key=key, **req)
            else:
                self.ddb.update_item(Key=key, **req)

    def compare(self, db, table, *extra, expect=1):
        return self.cli("--db", db, "compare", "--table", table, "--with-endpoint", self.url,
                        *extra, expect=expect)

    def lines_of(self, r, with_base=True):
        lines = r.stdout.splitlines()
        m1 = LINE1.match(lines[0])
        self.assertIsNotNone(m1, r.stdout[:500])
        line1 = tuple(int(x) for x in m1.groups())
        if not with_base:
            self.assertIsNone(LINE2.match(lines[1]), r.stdout[:500])
            return line1, None
        m2 = LINE2.match(lines[1])
        self.assertIsNotNone(m2, r.stdout[:500])
        return line1, tuple(int(x) for x in m2.groups())

    def json_classes(self, r, with_base=True):
        """{kid: (kind, class)} of compare --json's difference lines, with its head."""
        docs = [json.loads(line) for line in r.stdout.splitlines()]
        head, out = docs[0], {}
        for d in docs[1:]:
            if "staged" in d:
                continue
            self.assertIn(d["kind"], KINDS, d)
            if with_base:
                self.assertIn(d["class"], CLASSES, d)
            else:
                self.assertNotIn("class", d, d)
            k = kid(d["key"])
            self.assertNotIn(k, out, f"{k} listed twice")
            out[k] = (d["kind"], d.get("class"))
        return head, out, docs

    def assert_same_items(self, got, want, what):
        self.assertEqual(sorted(got), sorted(want), f"{what}: the keys differ")
        bad = [k for k in want if got[k] != want[k]]
        self.assertEqual(bad, [], f"{what}: items differ, first: {bad[:1]}: "
                         f"{got[bad[0]] if bad else ''} != {want[bad[0]] if bad else ''}")

    # -- the issue's round trip -------------------------------------------------------------------

    def test_round_trip(self):
        table, n = "Orders", 5000
        plan = Plan(n)
        snap, staging = self.path("snap.db"), self.path("staging.db")
        export = self.path("export")

        # 1-2. the live table, its export (S3 layout), the snapshot, its base
        self.create_live(table, n)
        self.cli("--endpoint", self.url, "export", "--table", table, "--format", "s3", export)
        base = self.export_items(export)
        self.assertEqual(len(base), n)
        self.assertEqual(base[kid(key_of(42))], norm_item(item(42)))
        self.cli("--db", snap, "import", "--table", table, "--key", "PK:S,SK:S", export)
        m = BASE_LINE.match(self.cli("--db", snap, "snapshot", "base", "--table", table)
                            .stdout.strip())
        self.assertIsNotNone(m)
        self.assertEqual((m.group(1), m.group(2), int(m.group(4)), int(m.group(5))),
                         (os.path.realpath(export), "s3", n, 0))

        # 3. edits offline and live
        self.edit_snapshot(snap, table, plan.here_edits())
        self.edit_live(table, plan.there_edits())
        m = BASE_LINE.match(self.cli("--db", snap, "snapshot", "base", "--table", table)
                            .stdout.strip())
        self.assertEqual(int(m.group(5)), plan.written_here)
        here = self.snapshot_items(snap, table)
        there = self.live_items(table)
        self.assertEqual(set(here), plan.here_keys)
        self.assertEqual(set(there), plan.there_keys)
        # the edits did what the plan says (independently of compare)
        self.assertEqual(three_way(base, here, there), plan.expect)
        line1, line2 = counts(plan.expect, plan.here_keys, plan.there_keys)

        # 4. compare: both lines, every difference's class, a nested path's diff
        r = self.compare(snap, table)
        self.assertEqual(self.lines_of(r), (line1, line2))
        text = r.stdout
        self.assertEqual(text_classes(text), plan.expect)
        i = plan.here_updates[0][0]
        self.assertIn(f'changed edited-here {json.dumps(key_of(i), separators=(",", ":"))}\n'
                      f'  profile.a.b.c: {{"S":"edited offline"}} -> {{"S":"deep{i}"}}', text)
        r = self.compare(snap, table, "--json")
        head, classes, docs = self.json_classes(r)
        self.assertEqual((head["same"], head["changed"], head["only_here"], head["only_there"]),
                         line1)
        self.assertEqual((head["edited_here"], head["edited_there"], head["both"]), line2)
        self.assertIn(os.path.realpath(export), head["base"])
        self.assertEqual(head["items_here"], len(plan.here_keys))
        self.assertEqual(head["items_there"], len(plan.there_keys))
        self.assertEqual(classes, plan.expect)
        diffs = {kid(d["key"]): d for d in docs[1:]}
        i = plan.here_updates[1][0]  # SET history[1]: one list element
        self.assertEqual(diffs[kid(key_of(i))]["diff"],
                         [{"path": "history[1]", "old": {"S": "shipped"},
                           "new": {"S": "created"}}])
        i = plan.here_updates[3][0]  # ADD amount 1: exact at 38 digits
        self.assertEqual(diffs[kid(key_of(i))]["diff"],
                         [{"path": "amount", "old": {"N": str(10 ** 37 + i * 982451653 + 1)},
                           "new": {"N": str(10 ** 37 + i * 982451653)}}])

        # 5. stage the push on the live table's connection
        pushable = {k for k, (_, c) in plan.expect.items() if c == "edited-here"}
        kinds = [plan.expect[k][0] for k in pushable]
        r = self.compare(snap, table, "--stage", "--staging", staging)
        m = STAGED.search(r.stdout)
        self.assertIsNotNone(m, r.stdout[-500:])
        self.assertEqual(r.stdout.splitlines()[-1], m.group(0))
        self.assertEqual(tuple(int(x) for x in m.groups()),
                         (len(pushable), kinds.count("only-here"), kinds.count("changed"),
                          kinds.count("only-there"), line2[1], line2[2]))
        staged = json.loads(self.cli("--endpoint", self.url, "staged", "--staging", staging,
                                     "--json").stdout)
        change_kind = {"changed": "update", "only-here": "create", "only-there": "delete"}
        self.assertEqual({kid(c["key"]): c["kind"] for c in staged},
                         {k: change_kind[plan.expect[k][0]] for k in pushable})
        self.assertEqual({c["state"] for c in staged}, {"staged"})
        self.assertEqual({c["table"] for c in staged}, {table})
        # nothing written before the commit
        self.assert_same_items(self.live_items(table), there, "live before commit")
        # staging again over the open changes is refused, nothing staged
        r = self.compare(snap, table, "--stage", "--staging", staging, expect=3)
        self.assertEqual(len(json.loads(self.cli("--endpoint", self.url, "staged", "--staging",
                                                 staging, "--json").stdout)), len(pushable))

        # behind the staging's back: a path a pushed update touches, an item a pushed delete
        # removes, a key a pushed create writes (three conflicts) and, on another pushed item, an
        # attribute no pushed update touches (kept beside the pushed edit)
        conflict_i = plan.here_updates[8][0]  # SET profile.theme, qty = qty + 5
        kept_i = plan.here_updates[0][0]      # SET profile.a.b.c
        deleted_i = plan.here_deletes[0]
        k_update, k_kept = kid(key_of(conflict_i)), kid(key_of(kept_i))
        k_delete, k_create = kid(key_of(deleted_i)), kid(new_key(HERE_CREATES[0]))
        self.ddb.update_item(TableName=table, Key=to_boto_key(key_of(conflict_i)),
                             UpdateExpression="SET qty = :q",
                             ExpressionAttributeValues={":q": {"N": "424242"}})
        self.ddb.update_item(TableName=table, Key=to_boto_key(key_of(deleted_i)),
                             UpdateExpression="SET note = :s",
                             ExpressionAttributeValues={":s": {"S": "still wanted"}})
        self.ddb.put_item(TableName=table, Item={k: to_boto(v) for k, v in
                                                 created(HERE_CREATES[0], "behind").items()})
        self.ddb.update_item(TableName=table, Key=to_boto_key(key_of(kept_i)),
                             UpdateExpression="SET behind = :s",
                             ExpressionAttributeValues={":s": {"S": "behind your back"}})
        before = self.live_items(table)
        conflicted = {k_update: "update", k_delete: "delete", k_create: "create"}

        r = self.cli("--endpoint", self.url, "commit", "--staging", staging, "--table", table)
        m = COMMITTED.search(r.stdout)
        self.assertIsNotNone(m, r.stdout)
        self.assertEqual(tuple(int(x) for x in m.groups()),
                         (len(pushable) - len(conflicted), len(conflicted), 0))
        reported = re.findall(r"^conflict: #\d+ (\S+) \S+ (\{.*\})$", r.stderr, re.M)
        self.assertEqual({kid(json.loads(key)): kind for kind, key in reported}, conflicted,
                         r.stderr)
        self.assertIn('qty: expected {"N":"%d"}, found {"N":"424242"}' % (conflict_i % 17),
                      r.stderr)
        left = json.loads(self.cli("--endpoint", self.url, "staged", "--staging", staging,
                                   "--json").stdout)
        self.assertEqual({kid(c["key"]): (c["kind"], c["state"]) for c in left},
                         {k: (kind, "conflict") for k, kind in conflicted.items()})
        current = {kid(c["key"]): c["current"] for c in left}
        self.assertEqual(current[k_update]["qty"], {"N": "424242"})
        self.assertEqual(current[k_delete]["note"], {"S": "still wanted"})
        self.assertEqual(current[k_create]["origin"], {"S": "behind"})

        # what live holds now, item by item, attribute by attribute (numbers as exact strings)
        after = self.live_items(table)
        want = dict(before)
        for k in pushable - set(conflicted):
            if k in here:
                want[k] = here[k]
            else:
                del want[k]
        want[k_kept] = dict(here[k_kept], behind={"S": "behind your back"})
        self.assert_same_items(after, want, "live after commit")
        # spelled out for the reader: offline-only edits live, live-only ones intact, conflicts
        # as live had them, the ones changed behind our back as they were changed
        for k in pushable - set(conflicted) - {k_kept}:
            self.assertEqual(after.get(k), here.get(k), k)
        for k, (_, c) in plan.expect.items():
            if c in ("edited-there", "both"):
                self.assertEqual(after.get(k), there.get(k), k)
        self.assertEqual(after[k_update], dict(there[k_update], qty={"N": "424242"}))
        self.assertEqual(after[k_delete], dict(there[k_delete], note={"S": "still wanted"}))
        self.assertEqual(after[k_create], norm_item(created(HERE_CREATES[0], "behind")))
        i = plan.here_updates[3][0]
        self.assertEqual(after[kid(key_of(i))]["amount"], {"N": str(10 ** 37 + i * 982451653 + 1)})

        # compare again: the base still classifies what is left
        expect = {k: v for k, v in plan.expect.items() if v[1] != "edited-here"}
        # the conflicted items now differ from the base on both sides, and so does the one changed
        # behind our back (`behind` live, the pushed path on both)
        expect[k_update] = ("changed", "both")
        expect[k_delete] = ("only-there", "both")
        expect[k_create] = ("changed", "both")
        expect[k_kept] = ("changed", "both")
        self.assertEqual(three_way(base, here, after), expect)
        r = self.compare(snap, table, "--json")
        head, classes, _ = self.json_classes(r)
        self.assertEqual(classes, expect)
        r = self.compare(snap, table)
        self.assertEqual(self.lines_of(r), counts(expect, set(here), set(after)))
        self.assertEqual(text_classes(r.stdout), expect)

    # -- without an engine base -------------------------------------------------------------------

    def test_base_export_and_two_way_push(self):
        table, n = "Small", 300
        plan = Plan(n, first=3, step=9)
        export = self.path("small-export")
        with_base, no_base = self.path("with-base.db"), self.path("no-base.db")
        staging = self.path("staging2.db")
        self.create_live(table, n)
        self.cli("--endpoint", self.url, "export", "--table", table, "--format", "s3", export)
        base = self.export_items(export)
        # one snapshot imported (the engine's base), one built with call (no base at all)
        self.cli("--db", with_base, "import", "--table", table, "--key", "PK:S,SK:S", export)
        self.cli("--db", no_base, "call", "CreateTable", json.dumps({
            "TableName": table, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"},
                                     {"AttributeName": "SK", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                          {"AttributeName": "SK", "KeyType": "RANGE"}]}))
        items = [base[k] for k in sorted(base)]
        for start in range(0, len(items), 25):
            self.cli("--db", no_base, "call", "BatchWriteItem", json.dumps({"RequestItems": {
                table: [{"PutRequest": {"Item": it}} for it in items[start:start + 25]]}}))
        self.assertEqual(self.cli("--db", no_base, "snapshot", "base", "--table", table).stdout,
                         f"{table} has no base\n")
        for db in (with_base, no_base):
            self.edit_snapshot(db, table, plan.here_edits())
        self.edit_live(table, plan.there_edits())
        here = self.snapshot_items(no_base, table)
        self.assert_same_items(self.snapshot_items(with_base, table), here, "the two snapshots")
        self.assertEqual(three_way(base, here, self.live_items(table)), plan.expect)
        line1, line2 = counts(plan.expect, plan.here_keys, plan.there_keys)

        # --base EXPORT gives the classes the engine's base gives
        r = self.compare(with_base, table, "--json")
        _, engine_classes, _ = self.json_classes(r)
        r = self.compare(no_base, table, "--base", export, "--json")
        head, export_classes, _ = self.json_classes(r)
        self.assertEqual(engine_classes, plan.expect)
        self.assertEqual(export_classes, plan.expect)
        self.assertEqual((head["edited_here"], head["edited_there"], head["both"]), line2)
        self.assertEqual(self.lines_of(self.compare(no_base, table, "--base", export)),
                         (line1, line2))
        # from the live side, the other side's recorded base classifies: the mirror image
        r = self.cli("--endpoint", self.url, "compare", "--table", table, "--with-db", with_base,
                     "--json", expect=1)
        mirror = {"only-here": "only-there", "only-there": "only-here", "changed": "changed",
                  "edited-here": "edited-there", "edited-there": "edited-here", "both": "both"}
        self.assertEqual(self.json_classes(r)[1],
                         {k: (mirror[kind], mirror[klass])
                          for k, (kind, klass) in plan.expect.items()})
        # without a base (none recorded, or --no-base): no classes
        self.assertEqual(self.lines_of(self.compare(no_base, table), with_base=False),
                         (line1, None))
        r = self.compare(with_base, table, "--no-base", "--json")
        head, plain, _ = self.json_classes(r, with_base=False)
        self.assertEqual(plain, {k: (kind, None) for k, (kind, _) in plan.expect.items()})
        self.assertNotIn("edited_here", head)

        # the two-way push: the live table becomes the snapshot, whatever changed there
        r = self.compare(with_base, table, "--no-base", "--stage", "--staging", staging)
        m = STAGED.search(r.stdout)
        self.assertIsNotNone(m, r.stdout[-500:])
        _, changed, only_here, only_there = line1
        self.assertEqual(tuple(int(x) for x in m.groups()),
                         (changed + only_here + only_there, only_here, changed, only_there, 0, 0))
        r = self.cli("--endpoint", self.url, "commit", "--staging", staging, "--table", table)
        self.assertEqual(COMMITTED.search(r.stdout).groups(),
                         (str(changed + only_here + only_there), "0", "0"))
        self.assertEqual(json.loads(self.cli("--endpoint", self.url, "staged", "--staging",
                                             staging, "--json").stdout), [])
        self.assert_same_items(self.live_items(table), here, "live after the two-way push")
        for db in (no_base, with_base):
            r = self.compare(db, table, "--no-base", expect=0)
            self.assertEqual(r.stdout.splitlines()[0],
                             f"same={len(here)} changed=0 only_here=0 only_there=0")


def main():
    global DDBL
    if shutil.which("java") is None:
        print("1..0 # SKIP java is missing: DynamoDB Local cannot run")
        return lib.SKIP
    DDBL = lib.start_dynamodb_local()
    if DDBL is None:
        if lib.find_emulator() is None:
            print("1..0 # SKIP DynamoDB Local is not installed")
            return lib.SKIP
        print("# DynamoDB Local did not start (java and the jar are there)")
        return 1
    try:
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(RoundTrip)
        result = unittest.TextTestRunner(verbosity=2).run(suite)
    finally:
        DDBL.stop()
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
