#!/usr/bin/env python3
"""DynamoDB API edge cases on `dynoscope-cli serve` (issue 24), each as a table of cases:

- UpdateItem's ADD and DELETE on every kind of target (number, each set type, S, L, M, BOOL,
  NULL, B, a missing attribute, map members, list elements in and past the end) with every
  value type, and ReturnValues (UPDATED_OLD, UPDATED_NEW, ALL_OLD, ALL_NEW) for every action
  form on missing attributes, list indexes past the end and nested paths: compared with AWS's
  DynamoDB Local, and the rules the documentation gives checked on every case.
- CreateTable and UpdateTable with an attribute defined twice or given another type than the
  table's: DynamoDB Local's refusals, word for word.
- Tables created and deleted at once by many clients: only DynamoDB's errors, never a 500, and a
  consistent end.
- DynamoDB Streams with stream ARNs that name nothing or are malformed, and GetShardIterator's
  iterator types with and without a SequenceNumber.
- TagResource / UntagResource: ARNs, the characters, lengths and prefix AWS allows, 50 tags.
- DescribeEndpoints as AWS documents it.
- Time to Live: expired items leave the table and its indexes, with the service's REMOVE.

The comparisons with DynamoDB Local are skipped when java (or the emulator) is missing; the rest
always runs. Exits 77 when boto3 is missing."""
import base64
import collections
import importlib.util
import json
import os
import sys
import threading
import time
import unittest
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

lib.use_system_python_for_boto3()
HAVE_BOTO3 = lib.has_boto3()
if HAVE_BOTO3:
    import boto3
    import botocore.config

# The sweeper runs every second here (the default is 60 s: serve --help).
os.environ["DYNOSCOPE_TTL_INTERVAL"] = "1"

_spec = importlib.util.spec_from_file_location(
    "test_serve", os.path.join(os.path.dirname(os.path.abspath(__file__)), "test-serve.py"))
serve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve)

DDB = "DynamoDB_20120810"
STREAMS = "DynamoDBStreams_20120810"
SERVER = None
LOCAL = None


def setUpModule():
    global SERVER, LOCAL
    if not HAVE_BOTO3:
        return
    import tempfile
    SERVER = serve.Server(os.path.join(tempfile.mkdtemp(prefix="dynoscope-edges-"), "t.db"))
    LOCAL = lib.start_dynamodb_local()
    if LOCAL is None:
        lib.log("DynamoDB Local is not available: the comparisons with it are skipped")


def tearDownModule():
    if SERVER is not None:
        status, _, err = SERVER.stop()
        assert status == 0, err
    if LOCAL is not None:
        LOCAL.stop()


def call(port, op, req, target=DDB):
    """(status, body) of one signed request; an error body becomes (type, message)."""
    body = json.dumps(req).encode()
    host = "127.0.0.1:%d" % port
    headers = lib.sign_v4(host, "%s.%s" % (target, op), body)
    r = urllib.request.Request("http://%s/" % host, data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(r, timeout=60) as resp:
            raw = resp.read()
            return resp.status, json.loads(raw) if raw else {}
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            b = json.loads(raw)
        except ValueError:
            return e.code, raw
        return e.code, (b.get("__type", "").rsplit("#", 1)[-1], b.get("message", b.get("Message")))


def sorted_sets(v):
    """A value with its sets sorted (a set's order means nothing)."""
    if isinstance(v, dict):
        return {k: (sorted(x) if k in ("SS", "NS", "BS") else sorted_sets(x)) for k, x in v.items()}
    if isinstance(v, list):
        return [sorted_sets(x) for x in v]
    return v


def table(name, extra=None, hash_type="S"):
    t = {"TableName": name, "BillingMode": "PAY_PER_REQUEST",
         "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": hash_type}],
         "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}
    t.update(extra or {})
    return t


class Base(unittest.TestCase):
    def setUp(self):
        if not HAVE_BOTO3:
            self.skipTest("boto3 is missing")
        self.port = SERVER.port

    def need_local(self):
        if LOCAL is None:
            self.skipTest("DynamoDB Local is not available (java or the emulator missing)")

    def both(self, op, req, target=DDB):
        return call(LOCAL.port, op, req, target), call(self.port, op, req, target)

    def recreate(self, req, ports):
        for p in ports:
            call(p, "DeleteTable", {"TableName": req["TableName"]})
            st, body = call(p, "CreateTable", req)
            self.assertEqual(st, 200, body)


# ---- UpdateItem: ADD, DELETE and ReturnValues ----

BASE_ITEM = {
    "pk": {"S": "k"}, "l": {"L": [{"S": "a"}, {"S": "b"}]}, "e": {"L": []}, "n": {"N": "5"},
    "s": {"S": "str"}, "ss": {"SS": ["x"]}, "ns": {"NS": ["1"]}, "bs": {"BS": ["AQ=="]},
    "b": {"BOOL": True}, "nul": {"NULL": True}, "bin": {"B": "AQ=="},
    "m": {"M": {"a": {"N": "1"}, "l": {"L": [{"N": "1"}]}, "mm": {"M": {}}}},
}
VALUES = {
    "N": {"N": "1"}, "SS": {"SS": ["y"]}, "NS": {"NS": ["2"]}, "BS": {"BS": ["Ag=="]},
    "S": {"S": "z"}, "L": {"L": [{"N": "1"}]}, "M": {"M": {}}, "BOOL": {"BOOL": False},
    "NULL": {"NULL": True}, "B": {"B": "AQ=="},
}
# Every kind of place an ADD or DELETE can name, with the type found there (None: nothing).
TARGETS = {
    "n": "N", "ss": "SS", "ns": "NS", "bs": "BS", "s": "S", "l": "L", "m": "M", "b": "BOOL",
    "nul": "NULL", "bin": "B", "zz": None, "m.a": "N", "m.zz": None, "m.mm.zz": None,
    "l[0]": "S", "l[5]": None, "m.l[0]": "N",
}
SET_TYPES = ("SS", "NS", "BS")
BAD_TYPE = "An operand in the update expression has an incorrect data type"
JAVA_TYPE = {"N": "NUMBER", "S": "STRING", "L": "LIST", "M": "MAP", "BOOL": "BOOLEAN",
             "NULL": "NULL", "B": "BINARY"}


def add_delete_expected(action, target_type, value_type):
    """What the Developer Guide's ADD and DELETE sections say of one case: None for success,
    else the error's message."""
    if action == "ADD" and value_type != "N" and value_type not in SET_TYPES:
        return ("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                "operator: ADD, operand type: %s, typeSet: ALLOWED_FOR_ADD_OPERAND"
                % JAVA_TYPE[value_type])
    if action == "DELETE" and value_type not in SET_TYPES:
        return ("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                "operator: DELETE, operand type: %s, typeSet: ALLOWED_FOR_DELETE_OPERAND"
                % JAVA_TYPE[value_type])
    # A missing attribute: ADD starts from 0 or the empty set; DELETE does nothing.
    if target_type is None or target_type == value_type:
        return None
    return BAD_TYPE


class AddDelete(Base):
    TABLE = "EdgeAddDelete"

    def run_matrix(self, ports):
        """{(action, target, value type): [(status, body) per port]} over the whole matrix."""
        self.recreate(table(self.TABLE), ports)
        out = {}
        for action in ("ADD", "DELETE"):
            for target in TARGETS:
                for vt, val in VALUES.items():
                    answers = []
                    for p in ports:
                        st, _ = call(p, "PutItem", {"TableName": self.TABLE, "Item": BASE_ITEM})
                        self.assertEqual(st, 200)
                        answers.append(call(p, "UpdateItem", {
                            "TableName": self.TABLE, "Key": {"pk": {"S": "k"}},
                            "UpdateExpression": "%s %s :v" % (action, target),
                            "ExpressionAttributeValues": {":v": val},
                            "ReturnValues": "ALL_NEW"}))
                    out[(action, target, vt)] = answers
        return out

    def test_every_form_as_documented(self):
        results = self.run_matrix([self.port])
        self.assertEqual(len(results), 2 * len(TARGETS) * len(VALUES))
        for (action, target, vt), [(st, body)] in results.items():
            with self.subTest(action=action, target=target, value=vt):
                want = add_delete_expected(action, TARGETS[target], vt)
                if want is not None:
                    self.assertEqual((st, body), (400, ("ValidationException", want)))
                    continue
                self.assertEqual(st, 200, body)
                new = body["Attributes"]
                path = target.replace("]", "").replace("[", ".").split(".")
                got = {"M": new}
                for step in path:
                    got = got["M"].get(step) if "M" in got else (
                        got["L"][int(step)] if int(step) < len(got["L"]) else None)
                    if got is None:
                        break
                if target == "l[5]":
                    # Past the end: ADD appends; DELETE of nothing changes nothing.
                    self.assertEqual(len(new["l"]["L"]), 3 if action == "ADD" else 2)
                    if action == "ADD":
                        self.assertEqual(new["l"]["L"][2], VALUES[vt])
                    continue
                old_type = TARGETS[target]
                if action == "DELETE":
                    if old_type is None:
                        self.assertIsNone(got)
                    else:
                        # The value's one element is not in the set: nothing removed.
                        self.assertEqual(list(got), [vt])
                elif vt == "N":
                    start = 0 if old_type is None else int(
                        {"n": 5, "m.a": 1, "m.l[0]": 1}[target])
                    self.assertEqual(got, {"N": str(start + 1)})
                else:
                    self.assertEqual(list(got), [vt])
                    self.assertIn(VALUES[vt][vt][0], got[vt])

    def test_same_answers_as_dynamodb_local(self):
        self.need_local()
        for key, (local, ours) in self.run_matrix([LOCAL.port, self.port]).items():
            with self.subTest(case=key):
                self.assertEqual(sorted_sets(local), sorted_sets(ours))

    def test_delete_takes_elements_away(self):
        self.recreate(table(self.TABLE), [self.port])
        item = dict(BASE_ITEM, ss={"SS": ["x", "y"]}, ns={"NS": ["1", "2"]},
                    bs={"BS": ["AQ==", "Ag=="]})
        for attr, val, left in (("ss", {"SS": ["y", "q"]}, {"SS": ["x"]}),
                                ("ns", {"NS": ["1"]}, {"NS": ["2"]}),
                                ("bs", {"BS": ["AQ==", "Ag=="]}, None)):
            with self.subTest(attr=attr):
                call(self.port, "PutItem", {"TableName": self.TABLE, "Item": item})
                st, body = call(self.port, "UpdateItem", {
                    "TableName": self.TABLE, "Key": {"pk": {"S": "k"}},
                    "UpdateExpression": "DELETE %s :v" % attr,
                    "ExpressionAttributeValues": {":v": val}, "ReturnValues": "ALL_NEW"})
                self.assertEqual(st, 200, body)
                # The last element gone, the attribute goes (a set is never empty).
                self.assertEqual(body["Attributes"].get(attr), left)


# (expression, what UPDATED_OLD gives, what UPDATED_NEW gives): the paths the update touched,
# as a ProjectionExpression of them picks them from the old and the new item. Nothing old is
# at a list index past the end, so UPDATED_OLD of such a SET has no Attributes.
RETURN_CASES = [
    ("SET l[10] = :v", None, {"l": {"L": [{"S": "new"}]}}),
    ("SET l[2] = :v, l[3] = :v", None, {"l": {"L": [{"S": "new"}, {"S": "new"}]}}),
    ("SET e[0] = :v", None, {"e": {"L": [{"S": "new"}]}}),
    ("SET e[3] = :v", None, {"e": {"L": [{"S": "new"}]}}),
    ("SET m.l[5] = :v", None, {"m": {"M": {"l": {"L": [{"S": "new"}]}}}}),
    ("SET l[10] = list_append(if_not_exists(l[10], :e), :e)", None,
     {"l": {"L": [{"L": []}]}}),
    ("ADD l[10] :n", None, {"l": {"L": [{"N": "2"}]}}),
    ("SET l[1] = :v", {"l": {"L": [{"S": "b"}]}}, {"l": {"L": [{"S": "new"}]}}),
    ("SET l[0] = :v, l[10] = :v", {"l": {"L": [{"S": "a"}]}},
     {"l": {"L": [{"S": "new"}, {"S": "new"}]}}),
    ("SET zz = :v", None, {"zz": {"S": "new"}}),
    ("SET m.zz = :v", None, {"m": {"M": {"zz": {"S": "new"}}}}),
    ("SET m.mm.zz = :v", None, {"m": {"M": {"mm": {"M": {"zz": {"S": "new"}}}}}}),
    ("SET m.a = :v", {"m": {"M": {"a": {"N": "1"}}}}, {"m": {"M": {"a": {"S": "new"}}}}),
    ("SET n = n + :n", {"n": {"N": "5"}}, {"n": {"N": "7"}}),
    ("REMOVE l[10]", None, None),
    ("REMOVE zz", None, None),
    ("REMOVE m.zz", None, None),
    ("REMOVE m.l[3]", None, None),
    ("REMOVE l[0]", {"l": {"L": [{"S": "a"}]}}, None),
    ("REMOVE s", {"s": {"S": "str"}}, None),
    ("ADD zz :n", None, {"zz": {"N": "2"}}),
    ("ADD m.zz :n", None, {"m": {"M": {"zz": {"N": "2"}}}}),
    ("ADD n :n", {"n": {"N": "5"}}, {"n": {"N": "7"}}),
    ("ADD ss :ss", {"ss": {"SS": ["x"]}}, {"ss": {"SS": ["q", "x"]}}),
    ("DELETE zz :ss", None, None),
    ("DELETE l[10] :ss", None, None),
    ("DELETE ss :ss", {"ss": {"SS": ["x"]}}, {"ss": {"SS": ["x"]}}),
    ("DELETE ss :x", {"ss": {"SS": ["x"]}}, None),
]
RETURN_VALUES = {":v": {"S": "new"}, ":n": {"N": "2"}, ":ss": {"SS": ["q"]},
                 ":x": {"SS": ["x"]}, ":e": {"L": []}}
# Where DynamoDB Local answers otherwise and the documentation is followed instead: UPDATED_NEW
# of an element SET past the end is the element where it landed (Local returns nothing, as
# though the path were read as written), and of a removed list element nothing (Local returns
# the list). Everywhere else the top-level attributes named agree.
LOCAL_DIFFERS_NEW = {"SET l[10] = :v", "SET l[2] = :v, l[3] = :v", "SET e[3] = :v",
                     "SET m.l[5] = :v", "SET l[10] = list_append(if_not_exists(l[10], :e), :e)",
                     "ADD l[10] :n", "REMOVE l[0]"}


class ReturnValues(Base):
    TABLE = "EdgeReturn"

    def update(self, port, expr, rv):
        call(port, "PutItem", {"TableName": self.TABLE, "Item": BASE_ITEM})
        vals = {k: v for k, v in RETURN_VALUES.items()
                if (k + " ") in (expr + " ") or (k + ",") in expr or (k + ")") in expr}
        req = {"TableName": self.TABLE, "Key": {"pk": {"S": "k"}}, "UpdateExpression": expr,
               "ReturnValues": rv}
        if vals:
            req["ExpressionAttributeValues"] = vals
        st, body = call(port, "UpdateItem", req)
        self.assertEqual(st, 200, (expr, rv, body))
        return body.get("Attributes")

    def test_every_form(self):
        self.recreate(table(self.TABLE), [self.port])
        for expr, old, new in RETURN_CASES:
            with self.subTest(expr=expr):
                self.assertEqual(sorted_sets(self.update(self.port, expr, "UPDATED_OLD")),
                                 sorted_sets(old))
                self.assertEqual(sorted_sets(self.update(self.port, expr, "UPDATED_NEW")),
                                 sorted_sets(new))
                self.assertEqual(self.update(self.port, expr, "ALL_OLD"), BASE_ITEM)
                after = self.update(self.port, expr, "ALL_NEW")
                st, got = call(self.port, "GetItem", {"TableName": self.TABLE,
                                                      "Key": {"pk": {"S": "k"}}})
                self.assertEqual(after, got["Item"])
                self.assertIsNone(self.update(self.port, expr, "NONE"))

    def test_against_dynamodb_local(self):
        self.need_local()
        self.recreate(table(self.TABLE), [LOCAL.port, self.port])
        for expr, _, _ in RETURN_CASES:
            for rv in ("UPDATED_OLD", "UPDATED_NEW", "ALL_OLD", "ALL_NEW", "NONE"):
                with self.subTest(expr=expr, rv=rv):
                    local = self.update(LOCAL.port, expr, rv)
                    ours = self.update(self.port, expr, rv)
                    if rv.startswith("ALL") or rv == "NONE":
                        self.assertEqual(sorted_sets(local), sorted_sets(ours))
                    elif rv == "UPDATED_OLD" or expr not in LOCAL_DIFFERS_NEW:
                        # Local returns whole top-level attributes, we the paths updated
                        # (the getting-started tutorial's UPDATED_NEW): the same attributes.
                        self.assertEqual(sorted(local or {}), sorted(ours or {}))


# ---- CreateTable and UpdateTable: attributes defined twice or retyped ----

def defs(*pairs):
    return [{"AttributeName": a, "AttributeType": t} for a, t in pairs]


def gsi(name, *keys):
    return {"IndexName": name, "Projection": {"ProjectionType": "ALL"},
            "KeySchema": [{"AttributeName": k, "KeyType": kt}
                          for k, kt in zip(keys, ("HASH", "RANGE"))]}


TWICE = "Cannot have two attributes with the same name"
RETYPED = "invalid attribute, SchemaElement redefined should be of same type as previously defined"
HASH_ONLY = [{"AttributeName": "pk", "KeyType": "HASH"}]
WITH_SK = HASH_ONLY + [{"AttributeName": "sk", "KeyType": "RANGE"}]
CREATE_CASES = [
    (defs(("pk", "S"), ("pk", "S")), HASH_ONLY, {}, TWICE),
    (defs(("pk", "S"), ("pk", "N")), HASH_ONLY, {}, TWICE),
    (defs(("pk", "S"), ("x", "S"), ("pk", "B")), HASH_ONLY, {}, TWICE),
    (defs(("pk", "S"), ("pk", "S"), ("pk", "S")), HASH_ONLY, {}, TWICE),
    (defs(("pk", "S"), ("g", "S"), ("g", "N")), HASH_ONLY,
     {"GlobalSecondaryIndexes": [gsi("gidx", "g")]}, TWICE),
    (defs(("pk", "S"), ("g", "S"), ("g", "S")), HASH_ONLY,
     {"GlobalSecondaryIndexes": [gsi("gidx", "g")]}, TWICE),
    (defs(("pk", "S"), ("sk", "N"), ("sk", "S")), WITH_SK,
     {"LocalSecondaryIndexes": [gsi("lidx", "pk", "sk")]}, TWICE),
    (defs(("pk", "S"), ("g", "S"), ("h", "N"), ("g", "N")), HASH_ONLY,
     {"GlobalSecondaryIndexes": [gsi("gidx", "g"), gsi("hidx", "h", "g")]}, TWICE),
    (defs(("pk", "S"), ("sk", "N"), ("g", "S"), ("sk", "N")), WITH_SK,
     {"GlobalSecondaryIndexes": [gsi("gidx", "g", "sk")]}, TWICE),
    (defs(("pk", "S"), ("g", "S")), HASH_ONLY,
     {"GlobalSecondaryIndexes": [gsi("gidx", "g", "pk")]}, None),
]
# UpdateTable on a table keyed pk (S), sk (N), a GSI on sk: (definitions, new index keys, error).
UPDATE_CASES = [
    (defs(("pk", "N")), ("pk",), RETYPED),
    (defs(("sk", "S")), ("sk",), RETYPED),
    (defs(("x", "S"), ("pk", "N")), ("x",), RETYPED),
    (defs(("pk", "N")), ("x",), RETYPED),
    (defs(("x", "S"), ("sk", "B")), ("x", "sk"), RETYPED),
    (defs(("x", "S"), ("pk", "S")), ("x",), None),
    (defs(("x", "S"), ("sk", "N")), ("x", "sk"), None),
    (defs(("x", "S"), ("x", "S")), ("x",), None),
    (defs(("x", "B")), ("x",), None),
]


class TableDefinitions(Base):
    def create_answers(self, port):
        out = []
        for i, (d, ks, extra, _) in enumerate(CREATE_CASES):
            name = "EdgeCreate%d" % i
            call(port, "DeleteTable", {"TableName": name})
            req = dict({"TableName": name, "AttributeDefinitions": d, "KeySchema": ks,
                        "BillingMode": "PAY_PER_REQUEST"}, **extra)
            out.append(call(port, "CreateTable", req))
            call(port, "DeleteTable", {"TableName": name})
        return out

    def update_answers(self, port):
        out = []
        for i, (d, keys, _) in enumerate(UPDATE_CASES):
            name = "EdgeUpdate%d" % i
            call(port, "DeleteTable", {"TableName": name})
            st, body = call(port, "CreateTable", {
                "TableName": name, "BillingMode": "PAY_PER_REQUEST", "KeySchema": WITH_SK,
                "AttributeDefinitions": defs(("pk", "S"), ("sk", "N")),
                "GlobalSecondaryIndexes": [gsi("bysk", "sk")]})
            self.assertEqual(st, 200, body)
            out.append(call(port, "UpdateTable", {
                "TableName": name, "AttributeDefinitions": d,
                "GlobalSecondaryIndexUpdates": [{"Create": gsi("newidx", *keys)}]}))
            call(port, "DeleteTable", {"TableName": name})
        return out

    def test_create_table(self):
        for (d, _, _, want), (st, body) in zip(CREATE_CASES, self.create_answers(self.port)):
            with self.subTest(defs=d):
                if want is None:
                    self.assertEqual(st, 200, body)
                else:
                    self.assertEqual((st, body), (400, ("ValidationException", want)))

    def test_update_table(self):
        for (d, keys, want), (st, body) in zip(UPDATE_CASES, self.update_answers(self.port)):
            with self.subTest(defs=d, keys=keys):
                if want is None:
                    self.assertEqual(st, 200, body)
                    got = {a["AttributeName"]: a["AttributeType"]
                           for a in body["TableDescription"]["AttributeDefinitions"]}
                    self.assertEqual(got["pk"], "S")
                    self.assertEqual(got["sk"], "N")
                    self.assertEqual(got["x"], dict((a["AttributeName"], a["AttributeType"])
                                                    for a in d)["x"])
                else:
                    self.assertEqual((st, body), (400, ("ValidationException", want)))

    def test_update_table_retyping_in_one_request(self):
        # Local takes the last of two types; which one was meant cannot be known: refused.
        name = "EdgeUpdateTwice"
        call(self.port, "DeleteTable", {"TableName": name})
        self.assertEqual(call(self.port, "CreateTable", table(name))[0], 200)
        st, body = call(self.port, "UpdateTable", {
            "TableName": name, "AttributeDefinitions": defs(("x", "S"), ("x", "N")),
            "GlobalSecondaryIndexUpdates": [{"Create": gsi("newidx", "x")}]})
        self.assertEqual((st, body), (400, ("ValidationException", RETYPED)))
        st, body = call(self.port, "DescribeTable", {"TableName": name})
        self.assertNotIn("GlobalSecondaryIndexes", body["Table"])

    def test_same_refusals_as_dynamodb_local(self):
        self.need_local()
        for case, local, ours in zip(CREATE_CASES, self.create_answers(LOCAL.port),
                                     self.create_answers(self.port)):
            with self.subTest(create=case[0]):
                self.assertEqual(local[0], ours[0])
                if local[0] != 200:
                    self.assertEqual(local, ours)
        for case, local, ours in zip(UPDATE_CASES, self.update_answers(LOCAL.port),
                                     self.update_answers(self.port)):
            with self.subTest(update=case[0]):
                self.assertEqual(local[0], ours[0])
                if local[0] != 200:
                    self.assertEqual(local, ours)


class ConcurrentTables(Base):
    def test_create_and_delete_from_many_clients(self):
        names = ["EdgeConc%d" % i for i in range(3)]
        allowed = {"OK", "ResourceInUseException", "ResourceNotFoundException"}
        counts = collections.Counter()
        unexpected = []
        lock = threading.Lock()
        spec = {"StreamSpecification": {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
                "GlobalSecondaryIndexes": [gsi("bypk", "pk")]}

        def worker(w):
            for i in range(40):
                name = names[(i + w) % len(names)]
                op = ("CreateTable", "DeleteTable", "DescribeTable", "PutItem")[(i + w) % 4]
                req = table(name, spec) if op == "CreateTable" else {"TableName": name}
                if op == "PutItem":
                    req["Item"] = {"pk": {"S": "w%d-%d" % (w, i)}}
                st, body = call(self.port, op, req)
                kind = "OK" if st == 200 else body[0]
                with lock:
                    counts[(op, name, kind)] += 1
                    if st >= 500 or kind not in allowed:
                        unexpected.append((op, st, body))

        threads = [threading.Thread(target=worker, args=(w,)) for w in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(unexpected, [])
        st, body = call(self.port, "ListTables", {})
        for name in names:
            with self.subTest(table=name):
                created = counts[("CreateTable", name, "OK")]
                deleted = counts[("DeleteTable", name, "OK")]
                # Each table is there exactly when one more create than delete succeeded.
                self.assertIn(created - deleted, (0, 1))
                self.assertEqual(name in body["TableNames"], created - deleted == 1)
                if name in body["TableNames"]:
                    st, d = call(self.port, "DescribeTable", {"TableName": name})
                    self.assertEqual(d["Table"]["TableStatus"], "ACTIVE")
                    self.assertEqual(call(self.port, "Scan", {"TableName": name})[0], 200)
                    st, q = call(self.port, "Scan", {"TableName": name, "IndexName": "bypk"})
                    self.assertEqual(st, 200, q)
                    call(self.port, "DeleteTable", {"TableName": name})


# ---- DynamoDB Streams: ARNs that name nothing, iterator types ----

class Streams(Base):
    def setUp(self):
        super().setUp()
        name = "EdgeStream"
        call(self.port, "DeleteTable", {"TableName": name})
        st, body = call(self.port, "CreateTable", table(name, {"StreamSpecification": {
            "StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}}))
        self.assertEqual(st, 200, body)
        self.arn = body["TableDescription"]["LatestStreamArn"]
        for i in range(3):
            call(self.port, "PutItem", {"TableName": name, "Item": {"pk": {"S": "p%d" % i}}})
        st, d = call(self.port, "DescribeStream", {"StreamArn": self.arn}, STREAMS)
        self.assertEqual(st, 200, d)
        shard = d["StreamDescription"]["Shards"][0]
        self.shard = shard["ShardId"]
        self.first = shard["SequenceNumberRange"]["StartingSequenceNumber"]

    def streams(self, op, req):
        return call(self.port, op, req, STREAMS)

    def unknown_arns(self):
        """Well-formed stream ARNs of no stream: another table, another label, a region."""
        table_part, label = self.arn.rsplit("/stream/", 1)
        return [table_part.replace("EdgeStream", "EdgeNoSuchTable") + "/stream/" + label,
                table_part + "/stream/2000-01-01T00:00:00.000",
                self.arn.replace(":ddblocal:", ":us-west-2:"),
                "arn:aws:dynamodb:us-east-1:123456789012:table/Nope/stream/2020-01-01T00:00:00.000"]

    def test_unknown_arn_is_resource_not_found(self):
        for arn in self.unknown_arns():
            with self.subTest(arn=arn):
                not_found = (400, ("ResourceNotFoundException",
                                   "Requested resource not found: Stream: %s not found" % arn))
                self.assertEqual(self.streams("DescribeStream", {"StreamArn": arn}), not_found)
                self.assertEqual(self.streams("GetShardIterator", {
                    "StreamArn": arn, "ShardId": self.shard,
                    "ShardIteratorType": "TRIM_HORIZON"}), not_found)
                self.assertEqual(self.streams("ListStreams", {"ExclusiveStartStreamArn": arn}),
                                 not_found)

    def test_malformed_arn_is_a_validation_error(self):
        # The API reference: StreamArn and ExclusiveStartStreamArn are 37 to 1024 characters.
        for arn in ("", "x", "arn:aws:s3:::bucket", "arn:aws:dynamodb:::table/T",
                    "arn:aws:dynamodb:us-east-1:1:table/T/stream/" + "x" * 1000):
            with self.subTest(arn=arn[:60]):
                short = len(arn) < 37
                constraint = ("Member must have length greater than or equal to 37" if short
                              else "Member must have length less than or equal to 1024")
                for op, member, req in (
                        ("DescribeStream", "streamArn", {"StreamArn": arn}),
                        ("GetShardIterator", "streamArn",
                         {"StreamArn": arn, "ShardId": self.shard,
                          "ShardIteratorType": "LATEST"}),
                        ("ListStreams", "exclusiveStartStreamArn",
                         {"ExclusiveStartStreamArn": arn})):
                    st, body = self.streams(op, req)
                    self.assertEqual((st, body[0]), (400, "ValidationException"), (op, body))
                    self.assertIn("at '%s' failed to satisfy constraint: %s" % (member, constraint),
                                  body[1])

    def test_list_streams_pages_from_a_known_arn(self):
        # This table's streams (earlier ones of deleted tables of the name live 24 hours).
        st, body = self.streams("ListStreams", {"TableName": "EdgeStream"})
        arns = [s["StreamArn"] for s in body["Streams"]]
        self.assertIn(self.arn, arns)
        for i, arn in enumerate(arns):
            st, page = self.streams("ListStreams", {"TableName": "EdgeStream",
                                                    "ExclusiveStartStreamArn": arn})
            self.assertEqual(st, 200, page)
            self.assertEqual([s["StreamArn"] for s in page["Streams"]], arns[i + 1:])

    def test_iterator_types(self):
        invalid_seq = (400, ("ValidationException",
                             "One or more parameter values were invalid: Invalid SequenceNumber"))
        forbidden = (400, ("ValidationException",
                           "One or more parameter values were invalid: SequenceNumber should not "
                           "be passed for this iterator type"))
        cases = {
            # type: (without SequenceNumber, with a record's, how many records the iterator reads)
            "TRIM_HORIZON": (None, forbidden, 3),
            "LATEST": (None, forbidden, 0),
            "AT_SEQUENCE_NUMBER": (invalid_seq, None, 3),
            "AFTER_SEQUENCE_NUMBER": (invalid_seq, None, 2),
        }
        for kind, (without, with_seq, n_records) in cases.items():
            for seq in (None, self.first):
                with self.subTest(type=kind, seq=seq):
                    req = {"StreamArn": self.arn, "ShardId": self.shard,
                           "ShardIteratorType": kind}
                    if seq is not None:
                        req["SequenceNumber"] = seq
                    st, body = self.streams("GetShardIterator", req)
                    want = with_seq if seq is not None else without
                    if want is not None:
                        self.assertEqual((st, body), want)
                        continue
                    self.assertEqual(st, 200, body)
                    st, recs = self.streams("GetRecords", {"ShardIterator": body["ShardIterator"]})
                    self.assertEqual(st, 200, recs)
                    self.assertEqual(len(recs["Records"]), n_records)
        st, body = self.streams("GetShardIterator", {"StreamArn": self.arn, "ShardId": self.shard,
                                                     "ShardIteratorType": "BOGUS"})
        self.assertEqual((st, body[0]), (400, "ValidationException"))
        self.assertIn("Member must satisfy enum value set: [TRIM_HORIZON, LATEST, "
                      "AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER]", body[1])


# ---- Tags and DescribeEndpoints ----

PATTERN = "Member must satisfy regular expression pattern: [\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*"
RESERVED = ("One or more parameter values were invalid: Tag keys and values may not begin with "
            "the prefix aws:, which AWS reserves for the tags it assigns")
# (key, value, None if accepted, else the constraint or message).
TAG_CASES = [
    ("a", "v", None), ("k" * 128, "v" * 256, None), ("kk", "", None),
    ("a b", "a b", None), ("a_b.c:d/e=f+g-h@i", "+-=._:/@", None),
    ("ü", "日本", None), ("日本", "ü", None), ("٣", "Ⅻ", None), ("a\u00a0b", "a\u2028b", None),
    ("awsx", "aws", None), ("user:x", "x:aws:", None),
    ("", "v", "Member must have length greater than or equal to 1"),
    ("k" * 129, "v", "Member must have length less than or equal to 128"),
    ("kk", "v" * 257, "Member must have length less than or equal to 256"),
]
for _c in "#,*$!%&()[]{}<>?;'\"\\|~`^\t\n\x00😀\u0301":
    TAG_CASES.append(("a" + _c, "v", PATTERN))
    TAG_CASES.append(("kk", "v" + _c, PATTERN))
for _p in ("aws:", "AWS:", "Aws:", "aWs:"):
    TAG_CASES.append((_p + "x", "v", RESERVED))
    TAG_CASES.append(("kk", _p + "x", RESERVED))
BAD_ARNS = ["x", "arn:aws:dynamodb:::table/T", "arn:aws:dynamodb:us-east-1::table/EdgeTags",
            "arn::dynamodb:us-east-1:000000000000:table/EdgeTags",
            "arn:aws:s3:::bucket", "arn:aws:dynamodb:us-east-1:000000000000:table/",
            "arn:aws:dynamodb:us-east-1:000000000000:tables/EdgeTags",
            "arn:aws:dynamodb:us-east-1:000000000000:table/EdgeTags/index/x",
            "arn:aws:dynamodb:us-east-1:000000000000:table/EdgeTags/stream/2020",
            "not an arn at all"]


class Tags(Base):
    def setUp(self):
        super().setUp()
        call(self.port, "DeleteTable", {"TableName": "EdgeTags"})
        st, body = call(self.port, "CreateTable", table("EdgeTags"))
        self.assertEqual(st, 200, body)
        self.arn = body["TableDescription"]["TableArn"]

    def tags(self):
        return call(self.port, "ListTagsOfResource", {"ResourceArn": self.arn})[1]["Tags"]

    def test_keys_and_values(self):
        for key, value, want in TAG_CASES:
            with self.subTest(key=key[:20], value=value[:20]):
                for op, req in (("TagResource", {"ResourceArn": self.arn,
                                                 "Tags": [{"Key": key, "Value": value}]}),
                                ("CreateTable", table("EdgeTagsNew", {
                                    "Tags": [{"Key": key, "Value": value}]}))):
                    st, body = call(self.port, op, req)
                    if want is None:
                        self.assertEqual(st, 200, (op, body))
                        call(self.port, "DeleteTable", {"TableName": "EdgeTagsNew"})
                    elif want == RESERVED:
                        self.assertEqual((st, body), (400, ("ValidationException", RESERVED)))
                    else:
                        self.assertEqual((st, body[0]), (400, "ValidationException"), op)
                        self.assertIn("failed to satisfy constraint: " + want, body[1])
                if want is None:
                    self.assertIn({"Key": key, "Value": value}, self.tags())
                    self.assertEqual(call(self.port, "UntagResource", {
                        "ResourceArn": self.arn, "TagKeys": [key]})[0], 200)
                    self.assertNotIn(key, [t["Key"] for t in self.tags()])
        self.assertEqual(self.tags(), [])

    def test_untag_checks_keys(self):
        for key, _, want in TAG_CASES:
            if want is None or key == "kk":
                continue
            with self.subTest(key=key[:20]):
                st, body = call(self.port, "UntagResource", {"ResourceArn": self.arn,
                                                              "TagKeys": [key]})
                self.assertEqual((st, body[0]), (400, "ValidationException"))
                if want == RESERVED:
                    self.assertEqual(body[1], RESERVED)
                else:
                    self.assertIn("at 'tagKeys.1.member' failed to satisfy constraint: " + want,
                                  body[1])

    def test_fifty_tags(self):
        tags = [{"Key": "k%02d" % i, "Value": "v"} for i in range(50)]
        self.assertEqual(call(self.port, "TagResource", {"ResourceArn": self.arn,
                                                         "Tags": tags})[0], 200)
        # Replacing values adds none.
        self.assertEqual(call(self.port, "TagResource", {
            "ResourceArn": self.arn, "Tags": [dict(t, Value="w") for t in tags[:10]]})[0], 200)
        too_many = (400, ("ValidationException",
                          "One or more parameter values were invalid: Too many tags"))
        self.assertEqual(call(self.port, "TagResource", {
            "ResourceArn": self.arn, "Tags": [{"Key": "one-more", "Value": "v"}]}), too_many)
        self.assertEqual(len(self.tags()), 50)
        st, body = call(self.port, "CreateTable", table("EdgeTags51", {
            "Tags": tags + [{"Key": "one-more", "Value": "v"}]}))
        self.assertEqual((st, body[0]), (400, "ValidationException"))

    def test_malformed_arns(self):
        for arn in BAD_ARNS:
            with self.subTest(arn=arn):
                want = (400, ("ValidationException",
                              "Invalid TableArn: Invalid ResourceArn provided as input " + arn))
                for op, req in (("TagResource", {"ResourceArn": arn,
                                                 "Tags": [{"Key": "k", "Value": "v"}]}),
                                ("UntagResource", {"ResourceArn": arn, "TagKeys": ["k"]}),
                                ("ListTagsOfResource", {"ResourceArn": arn})):
                    self.assertEqual(call(self.port, op, req), want, op)
        arn = "arn:aws:dynamodb:us-east-1:000000000000:table/EdgeNoSuchTable"
        self.assertEqual(call(self.port, "ListTagsOfResource", {"ResourceArn": arn}),
                         (400, ("ResourceNotFoundException",
                                "Requested resource not found: ResourcArn: %s not found" % arn)))

    def test_describe_endpoints(self):
        client = boto3.client("dynamodb", endpoint_url=SERVER.url, region_name="us-east-1",
                              aws_access_key_id="k", aws_secret_access_key="s",
                              config=botocore.config.Config(retries={"max_attempts": 1}))
        out = client.describe_endpoints()
        self.assertEqual(out["Endpoints"], [{"Address": "127.0.0.1:%d" % self.port,
                                             "CachePeriodInMinutes": 1440}])
        st, body = call(self.port, "DescribeEndpoints", {})
        self.assertEqual(st, 200)
        self.assertEqual(set(body), {"Endpoints"})


# ---- Time to Live ----

class TimeToLive(Base):
    def test_expired_items_leave_the_table_and_its_indexes(self):
        name = "EdgeTtl"
        call(self.port, "DeleteTable", {"TableName": name})
        st, body = call(self.port, "CreateTable", {
            "TableName": name, "BillingMode": "PAY_PER_REQUEST", "KeySchema": WITH_SK,
            "AttributeDefinitions": defs(("pk", "S"), ("sk", "N"), ("g", "S"), ("ls", "S")),
            "GlobalSecondaryIndexes": [gsi("byg", "g")],
            "LocalSecondaryIndexes": [gsi("byls", "pk", "ls")],
            "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}})
        self.assertEqual(st, 200, body)
        arn = body["TableDescription"]["LatestStreamArn"]
        self.assertEqual(call(self.port, "UpdateTimeToLive", {
            "TableName": name,
            "TimeToLiveSpecification": {"Enabled": True, "AttributeName": "exp"}})[0], 200)
        now = int(time.time())
        exps = {1: {"N": str(now - 10)}, 2: {"N": str(now + 3600)}, 3: {"N": "%d.5" % (now - 5)},
                4: {"S": str(now - 10)}, 5: {"N": str(now - 6 * 365 * 86400)}, 6: None}
        for i, exp in exps.items():
            item = {"pk": {"S": "p"}, "sk": {"N": str(i)}, "g": {"S": "g"}, "ls": {"S": "l%d" % i}}
            if exp is not None:
                item["exp"] = exp
            self.assertEqual(call(self.port, "PutItem", {"TableName": name, "Item": item})[0], 200)
        stay = {2, 4, 5, 6}

        def left(index=None):
            req = {"TableName": name}
            if index:
                req["IndexName"] = index
            return {int(it["sk"]["N"]) for it in call(self.port, "Scan", req)[1]["Items"]}

        deadline = time.time() + 60
        while time.time() < deadline and left() != stay:
            time.sleep(0.2)
        self.assertEqual(left(), stay)
        self.assertEqual(left("byg"), stay)
        self.assertEqual(left("byls"), stay)
        st, q = call(self.port, "Query", {"TableName": name, "IndexName": "byls",
                                          "KeyConditionExpression": "pk = :p AND ls = :l",
                                          "ExpressionAttributeValues": {":p": {"S": "p"},
                                                                        ":l": {"S": "l1"}}})
        self.assertEqual(q["Items"], [])
        st, d = call(self.port, "DescribeStream", {"StreamArn": arn}, STREAMS)
        st, it = call(self.port, "GetShardIterator", {
            "StreamArn": arn, "ShardId": d["StreamDescription"]["Shards"][0]["ShardId"],
            "ShardIteratorType": "TRIM_HORIZON"}, STREAMS)
        st, recs = call(self.port, "GetRecords", {"ShardIterator": it["ShardIterator"]}, STREAMS)
        removes = [r for r in recs["Records"] if r["eventName"] == "REMOVE"]
        self.assertEqual(sorted(r["dynamodb"]["Keys"]["sk"]["N"] for r in removes), ["1", "3"])
        for r in removes:
            # The Streams API's Identity shape (Lambda's event records spell it in lower case).
            self.assertEqual(r["userIdentity"], {"Type": "Service",
                                                 "PrincipalId": "dynamodb.amazonaws.com"})
            self.assertEqual(r["dynamodb"]["OldImage"]["exp"], exps[int(
                r["dynamodb"]["Keys"]["sk"]["N"])])
            self.assertNotIn("NewImage", r["dynamodb"])


if __name__ == "__main__":
    program = unittest.main(verbosity=2, exit=False)
    if not program.result.wasSuccessful():
        sys.exit(1)
    sys.exit(0 if HAVE_BOTO3 else 77)
