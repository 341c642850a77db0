#!/usr/bin/env python3
"""Issue 25's selection checks against AWS's DynamoDB Local, with the real window under Xvfb.

boto3 makes the table (1,000 items in the "doomed" collection, 300 in "kept", 50 in "other",
rich in 38-digit numbers, sets and binary with odd bytes) and a database file with two target
tables (one keyed as the source, holding three of the kept items with other values already;
one keyed "pk"/"sk"); the 50 "other" items are in a KEYS_ONLY index. test-bulk-gui then, in the app: selects the 1,000 rows with Ctrl+A,
stages their deletes and commits; copies the 300 kept rows through the Copy To dialog into
both target tables and commits; copies the index's rows, read whole from the table. Afterwards this script checks, with boto3 and with
dynoscope-cli on the file: DynamoDB Local holds exactly the kept and other items; the target
holds the kept items exactly (the three already there unchanged: conflicts, left staged), and
the renamed table holds them with their keys renamed.

Usage: test-bulk-ddblocal.py RUN_GUI_TEST GUI_TEST_PROGRAM DYNOSCOPE_CLI
Exit 77 when java is missing (DynamoDB Local cannot run)."""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

lib.use_system_python_for_boto3()
import boto3  # noqa: E402

RUN_GUI, GUI_TEST, CLI = (os.path.abspath(a) for a in sys.argv[1:4])
REGION = "us-east-1"
ODD = [b"", b"\x00", b"\xff\xfe\x00\x01", bytes(range(256)), "ünï".encode()]
EXISTING = (5, 150, 299)  # kept items the file's table holds already, with other values


def n38(i):
    return str(10 ** 37 + i * 7919)  # 38 digits


def item(pk, i):
    """A DynamoDB JSON item; every few items a different mix of types."""
    it = {
        "PK": {"S": pk},
        "SK": {"N": str(i)},
        "big": {"N": n38(i)},
        "small": {"N": f"-0.{'0' * 60}{i + 1}" if i % 5 == 0 else f"{i}.{'9' * 30}"},
        "name": {"S": f"item {i} \u2014 ünïcödé \U0001F600"},
        "tags": {"SS": [f"t{i}", f"t{i + 1}", "shared"]},
        "nums": {"NS": [n38(i), "0", "-1.5"]},
        "blob": {"B": base64.b64encode(ODD[i % len(ODD)] + bytes([i % 256])).decode()},
        "blobs": {"BS": [base64.b64encode(b"\x00" + bytes([i % 256])).decode(),
                         base64.b64encode(b"\xff").decode()]},
        "doc": {"M": {"list": {"L": [{"N": "1"}, {"S": ""}, {"NULL": True}, {"BOOL": i % 2 == 0},
                                     {"M": {"deep": {"L": [{"SS": ["x"]}]}}}]},
                      "empty": {"M": {}}}},
    }
    if i % 7 == 0:
        it["maybe"] = {"S": ""}
    return it


def low(it):
    """As the boto3 low-level client returns items: binary as bytes."""
    def conv(v):
        (t, x), = v.items()
        if t == "B":
            return {"B": base64.b64decode(x)}
        if t == "BS":
            return {"BS": [base64.b64decode(b) for b in x]}
        if t == "M":
            return {"M": {k: conv(e) for k, e in x.items()}}
        if t == "L":
            return {"L": [conv(e) for e in x]}
        return v
    return {k: conv(v) for k, v in it.items()}


def from_boto(it):
    def conv(v):
        (t, x), = v.items()
        if t == "B":
            return {"B": base64.b64encode(x).decode()}
        if t == "BS":
            return {"BS": [base64.b64encode(b).decode() for b in x]}
        if t == "M":
            return {"M": {k: conv(e) for k, e in x.items()}}
        if t == "L":
            return {"L": [conv(e) for e in x]}
        return v
    return {k: conv(v) for k, v in it.items()}


def cli(db, *args):
    r = subprocess.run([CLI, "--db", db, *args], capture_output=True, text=True, timeout=300,
                       env=lib.client_env())
    if r.returncode != 0:
        raise SystemExit(f"dynoscope-cli {args[:2]}: {r.stderr}")
    return json.loads(r.stdout) if r.stdout.strip() else {}


def scan_db(db, table):
    items, start = [], None
    while True:
        req = {"TableName": table}
        if start:
            req["ExclusiveStartKey"] = start
        page = cli(db, "call", "Scan", json.dumps(req))
        items += page["Items"]
        start = page.get("LastEvaluatedKey")
        if not start:
            return items


def scan_boto(ddb, table):
    items = []
    for page in ddb.get_paginator("scan").paginate(TableName=table):
        items += [from_boto(i) for i in page["Items"]]
    return items


def check(cond, what):
    if not cond:
        raise SystemExit(f"not ok: {what}")
    print(f"# ok: {what}")


def renamed(it):
    out = dict(it)
    out["pk"] = out.pop("PK")
    out["sk"] = out.pop("SK")
    return out


def main():
    if shutil.which("java") is None:
        print("1..0 # SKIP java is missing: DynamoDB Local cannot run")
        return lib.SKIP
    ddbl = lib.start_dynamodb_local()
    if ddbl is None:
        print("# DynamoDB Local did not start (java is there)")
        return 1
    tmp = tempfile.TemporaryDirectory()
    try:
        url = f"http://127.0.0.1:{ddbl.port}"
        ddb = boto3.client("dynamodb", endpoint_url=url, region_name=REGION,
                           aws_access_key_id=lib.DDBLOCAL_KEY_ID,
                           aws_secret_access_key=lib.DDBLOCAL_SECRET)
        keys = dict(AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                                          {"AttributeName": "SK", "AttributeType": "N"}],
                    KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                               {"AttributeName": "SK", "KeyType": "RANGE"}],
                    BillingMode="PAY_PER_REQUEST")
        gsi = dict(GlobalSecondaryIndexes=[{
            "IndexName": "ByGroup", "Projection": {"ProjectionType": "KEYS_ONLY"},
            "KeySchema": [{"AttributeName": "grp", "KeyType": "HASH"},
                          {"AttributeName": "SK", "KeyType": "RANGE"}]}])
        ddb.create_table(TableName="Events", **{
            **keys, **gsi, "AttributeDefinitions": keys["AttributeDefinitions"] + [
                {"AttributeName": "grp", "AttributeType": "S"}]})
        ddb.get_waiter("table_exists").wait(TableName="Events")
        source = {"doomed": [item("doomed", i) for i in range(1000)],
                  "kept": [item("kept", i) for i in range(300)],
                  "other": [dict(item("other", i), grp={"S": "g"}) for i in range(50)]}
        for group in source.values():
            for k in range(0, len(group), 25):
                ddb.batch_write_item(RequestItems={"Events": [
                    {"PutRequest": {"Item": low(it)}} for it in group[k:k + 25]]})

        db = os.path.join(tmp.name, "copy.db")
        cli(db, "call", "CreateTable", json.dumps({"TableName": "Events", **keys}))
        cli(db, "call", "CreateTable", json.dumps({
            "TableName": "Renamed", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "sk", "AttributeType": "N"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}]}))
        there = {}
        for i in EXISTING:
            there[i] = {"PK": {"S": "kept"}, "SK": {"N": str(i)}, "note": {"S": "was here first"}}
            cli(db, "call", "PutItem", json.dumps({"TableName": "Events", "Item": there[i]}))

        env = lib.client_env({"DYNOSCOPE_TEST_ENDPOINT": url, "DYNOSCOPE_TEST_DB": db,
                              "AWS_ACCESS_KEY_ID": lib.DDBLOCAL_KEY_ID,
                              "AWS_SECRET_ACCESS_KEY": lib.DDBLOCAL_SECRET})
        r = subprocess.run([RUN_GUI, GUI_TEST, "--tap"], env=env, timeout=1800)
        if r.returncode != 0:
            print("# the GUI test failed")
            return 1

        left = {lib.canon_item(i) for i in scan_boto(ddb, "Events")}
        want = {lib.canon_item(i) for i in source["kept"] + source["other"]}
        check(left == want, "DynamoDB Local holds exactly the kept and other items "
              f"({len(left)} items; the 1,000 deleted)")
        got = {lib.canon_item(i) for i in scan_db(db, "Events")}
        want = {lib.canon_item(there.get(i, it)) for i, it in enumerate(source["kept"])}
        check(got == want, "the copy holds the kept items exactly, the three already there "
              "unchanged")
        got = {lib.canon_item(i) for i in scan_db(db, "Renamed")}
        want = {lib.canon_item(renamed(it)) for it in source["kept"]}
        check(got == want, "the renamed copy holds the kept items with pk and sk")
        return 0
    finally:
        ddbl.stop()
        tmp.cleanup()


if __name__ == "__main__":
    sys.exit(main())
