#!/usr/bin/env python3
"""Writes fuzz/corpus/snapshot/: seeds for fuzz-snapshot in its input encoding (see the top of
fuzz/fuzz-snapshot.c: a byte of flags, then a file or an export's parts separated by
"\\n--8<--\\n").

The data come from what others wrote: the developer guide's ProductCatalog export
(S3DataExport.Output: its manifests' members, its items, its Ion line for item 103 with 103.,
6d2, 2d3) as tests/exports/run-s3-import-tests.py writes it by hand, AWS's Ion examples and
incremental records in fuzz/corpus/ion/, the incremental export record shape of
tests/cli/test-import-export.py, the demo's DynamoDB JSON lines (data/demo/), and Python's own
json, csv and gzip writers for plain JSON, CSV and compressed data.

    fuzz/make-snapshot-seeds.py [OUT_DIR]
"""
import ast
import base64
import csv
import gzip
import io
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus", "snapshot")

SEP = b"\n--8<--\n"
# fuzz-snapshot.c's export ids and prefix.
IDS = ("01604474914028-9d2a5e0f", "01604475000000-1a2b3c4d")
PREFIX = "exports/"

# Flags of the first byte.
FOLDER, NESTED, BUCKET, JSONL, JSON, CSV, FOLDER_INC, BUCKET_INC = range(8)
GZ = 8
KEY_PK, KEY_PK_SK, KEY_ID = 0x10, 0x20, 0x30
GSI = 0x40
STREAM = 0x80


def from_test_script():
    """PRODUCT_CATALOG, EXTRA_PRODUCTS, ITEM_103_ION and the Ion writer (ion_line) of
    tests/exports/run-s3-import-tests.py, without importing it (it starts s3rver)."""
    path = os.path.join(TOP, "tests", "exports", "run-s3-import-tests.py")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    tree = ast.parse(text)
    env = {"json": json}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id in ("PRODUCT_CATALOG", "EXTRA_PRODUCTS", "ITEM_103_ION"):
            env[node.targets[0].id] = ast.literal_eval(node.value)
        elif isinstance(node, ast.FunctionDef) and node.name in (
                "ion_name", "ion_value", "ion_decimal", "ion_line"):
            exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), env)
    return env


T = from_test_script()
CATALOG = T["PRODUCT_CATALOG"]
EXTRA = T["EXTRA_PRODUCTS"]
ion_line = T["ion_line"]
ion_value = T["ion_value"]


def read(*parts):
    with open(os.path.join(TOP, *parts), "rb") as f:
        return f.read()


def item_lines(items):
    return "".join(json.dumps({"Item": x}) + "\n" for x in items).encode()


def ion_lines(items):
    text = "".join(ion_line(x) + "\n" for x in items)
    # The guide's own line for item 103, as AWS writes it.
    return text.replace(ion_line(CATALOG[2]), T["ITEM_103_ION"]).encode()


def summary(which, count, ion=False, incremental=False, **extra):
    s = {"version": "2020-06-30" if not incremental else "2023-08-01",
         "exportArn": "arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog/export/"
                      + IDS[which],
         "startTime": "2020-11-04T07:28:34.028Z", "endTime": "2020-11-04T07:33:43.897Z",
         "tableArn": "arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog",
         "tableId": "12345a12-abcd-123a-ab12-1234abc12345",
         "exportTime": "2020-11-04T07:28:34.028Z", "s3Bucket": "fuzz-bucket",
         "s3Prefix": PREFIX.rstrip("/"), "s3SseAlgorithm": "AES256", "s3SseKmsKeyId": None,
         "manifestFilesS3Key": PREFIX + "AWSDynamoDB/%s/manifest-files.json" % IDS[which],
         "billedSizeBytes": 0, "itemCount": count,
         "outputFormat": "ION" if ion else "DYNAMODB_JSON"}
    if incremental:
        del s["exportTime"]
        s.update({"exportType": "INCREMENTAL_EXPORT", "outputView": "NEW_AND_OLD_IMAGES",
                  "exportFromTime": "2020-11-04T07:28:34.028Z",
                  "exportToTime": "2020-11-04T08:28:34.028Z"})
    s.update(extra)
    return json.dumps(s).encode()


def manifest(which, counts, etag="@ETAG@"):
    """One line per data file; fuzz-snapshot fills @MD5@ and @ETAG@ from data/N."""
    return "".join(json.dumps({"itemCount": n, "md5Checksum": "@MD5@", "etag": etag,
                               "dataFileS3Key": PREFIX + "AWSDynamoDB/%s/data/%d" % (IDS[which], i)})
                   + "\n" for i, n in enumerate(counts)).encode()


def export(which, files, ion=False, incremental=False, etag="@ETAG@", **extra):
    """An export's four parts from its data files (a list of (bytes, count))."""
    parts = [summary(which, sum(n for _, n in files), ion, incremental, **extra),
             manifest(which, [n for _, n in files], etag)]
    parts += [data for data, _ in files]
    parts += [b""] * (4 - len(parts))
    return parts


def seed(flags, parts):
    """The flags byte, then a file (bytes) or an export's parts."""
    return bytes([flags]) + (parts if isinstance(parts, bytes) else SEP.join(parts))


def plain_item(item):
    """A DynamoDB JSON item in plain JSON's tagged form (docs/plain-json.md)."""
    def conv(v):
        (t, x), = v.items()
        if t == "S":
            return x
        if t == "N":
            return json.loads(x) if "e" not in x.lower() else float(x)
        if t == "BOOL":
            return x
        if t == "NULL":
            return None
        if t == "B":
            return {"$B": x}
        if t == "SS":
            return {"$SS": x}
        if t == "NS":
            return {"$NS": [json.loads(n) for n in x]}
        if t == "BS":
            return {"$BS": x}
        if t == "L":
            return [conv(y) for y in x]
        return {k: conv(y) for k, y in x.items()}
    return {k: conv(v) for k, v in item.items()}


def incremental_records(ion):
    """An update, a delete and an insert of ProductCatalog, as AWS writes an incremental
    export's lines (the shape tests/cli/test-import-export.py writes)."""
    changed = dict(CATALOG[0], Price={"N": "25"}, Authors={"SS": ["Author1", "Author3"]})
    new = {"Id": {"N": "401"}, "Title": {"S": "Book 401 Title"}, "ProductCategory": {"S": "Book"}}
    micros = 1604475000000000
    records = [
        {"Metadata": {"WriteTimestampMicros": {"N": str(micros)}}, "Keys": {"Id": {"N": "101"}},
         "OldImage": CATALOG[0], "NewImage": changed},
        {"Metadata": {"WriteTimestampMicros": {"N": str(micros + 1)}},
         "Keys": {"Id": {"N": "205"}}, "OldImage": CATALOG[7]},
        {"Metadata": {"WriteTimestampMicros": {"N": str(micros + 2)}},
         "Keys": {"Id": {"N": "401"}}, "NewImage": new},
    ]
    if not ion:
        return "".join(json.dumps(r) + "\n" for r in records).encode()
    out = []
    for r in records:
        fields = ["Metadata:{WriteTimestampMicros:%s.}" % r["Metadata"]["WriteTimestampMicros"]["N"],
                  "Keys:%s" % ion_value({"M": r["Keys"]})]
        for name in ("OldImage", "NewImage"):
            if name in r:
                fields.append("%s:%s" % (name, ion_value({"M": r[name]})))
        out.append("$ion_1_0 {%s}\n" % ",".join(fields))
    return "".join(out).encode()


def csv_text(items, typed, bom=False):
    """Python's csv writer: a header row typed as snapshot.h describes, CRLF lines."""
    names = []
    for item in items:
        for k in item:
            if k not in names:
                names.append(k)
    types = {}
    for k in names:
        ts = {next(iter(i[k])) for i in items if k in i}
        t = ts.pop() if len(ts) == 1 else "DDB"
        types[k] = t if t in ("S", "N", "B", "BOOL", "NULL") else "DDB"
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["%s (%s)" % (k, types[k]) if typed or types[k] != "S" else k for k in names])
    for item in items:
        row = []
        for k in names:
            if k not in item:
                row.append("")
                continue
            (t, x), = item[k].items()
            if types[k] == "DDB":
                row.append(json.dumps(item[k]))
            elif t == "BOOL":
                row.append("true" if x else "false")
            elif t == "NULL":
                row.append("true")
            else:
                row.append(x)
        w.writerow(row)
    return (("\ufeff" if bom else "") + buf.getvalue()).encode()


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        os.unlink(os.path.join(OUT, name))
    seeds = {}
    half = len(CATALOG) // 2
    json_files = [(item_lines(CATALOG[:half]), half), (item_lines(CATALOG[half:]), len(CATALOG) - half)]
    ion_files = [(ion_lines(CATALOG[:half]), half), (ion_lines(CATALOG[half:]), len(CATALOG) - half)]

    # The S3 layout: DynamoDB JSON and Ion, from a folder, a folder above it, a bucket.
    seeds["s3-json-folder-gz"] = seed(FOLDER | GZ | KEY_ID, export(0, json_files))
    seeds["s3-json-nested"] = seed(NESTED | KEY_ID | STREAM, export(0, json_files))
    seeds["s3-json-bucket-gsi"] = seed(BUCKET | GZ | KEY_ID | GSI, export(0, json_files))
    seeds["s3-json-extra-types"] = seed(BUCKET | KEY_ID, export(0, [(item_lines(EXTRA), len(EXTRA))]))
    seeds["s3-ion-folder-gz"] = seed(FOLDER | GZ | KEY_ID, export(0, ion_files, ion=True))
    seeds["s3-ion-bucket"] = seed(BUCKET | KEY_ID | STREAM, export(0, ion_files, ion=True))
    pretty = read("fuzz", "corpus", "ion", "aws-example-pretty.ion")
    seeds["s3-ion-pretty"] = seed(NESTED | KEY_ID,
                                  export(0, [(pretty + b"\n" + ion_lines(EXTRA[:1]), 2)], ion=True))
    # A data file gzipped by Python, as the input gives it (not compressed by the target), and
    # a one-part multipart ETag; an empty data file.
    seeds["s3-json-raw-gzip"] = seed(FOLDER | KEY_ID, export(
        0, [(gzip.compress(item_lines(CATALOG), mtime=0), len(CATALOG))]))
    seeds["s3-json-multipart-etag"] = seed(BUCKET | GZ | KEY_ID,
                                           export(0, json_files[:1] + [(b"", 0)], etag="@ETAG1@"))
    # Inferred key: the demo's PK/SK lines wrapped as an export writes them.
    blog = [json.loads(l) for l in read("data", "demo", "blog.jsonl").splitlines() if l.strip()]
    seeds["s3-json-inferred"] = seed(FOLDER, export(0, [(item_lines(blog), len(blog))]))

    # Incremental exports on top of a full one.
    seeds["s3-json-incremental"] = seed(FOLDER_INC | GZ | KEY_ID, export(0, json_files)
                                        + export(1, [(incremental_records(False), 3)],
                                                 incremental=True))
    seeds["s3-ion-incremental"] = seed(BUCKET_INC | KEY_ID, export(0, ion_files, ion=True)
                                       + export(1, [(incremental_records(True), 3)], ion=True,
                                                incremental=True))
    inc_line = read("fuzz", "corpus", "ion", "incremental-line.ion")
    inc_delete = read("fuzz", "corpus", "ion", "incremental-delete.ion")
    pk_items = [{"PK": {"S": "A"}, "SK": {"N": "1"}, "x": {"S": "old"}},
                {"PK": {"S": "gone"}, "SK": {"N": "1"}}]
    seeds["s3-ion-incremental-aws"] = seed(BUCKET_INC, export(
        0, [(ion_lines(pk_items), 2)], ion=True) + export(
        1, [(inc_line + inc_delete.replace(b'{PK:"gone"}', b'{PK:"gone",SK:1.}'), 2)], ion=True,
            incremental=True))

    # DynamoDB JSON lines: the demo's (bare items), and wrapped, gzipped.
    seeds["jsonl-blog"] = seed(JSONL, read("data", "demo", "blog.jsonl"))
    seeds["jsonl-posts-stream"] = seed(JSONL | KEY_PK_SK | STREAM, read("data", "demo", "posts.jsonl"))
    # No key to infer (EntityRef, Detail and name are in every item).
    seeds["jsonl-workspaces-ambiguous"] = seed(JSONL, read("data", "demo", "workspaces.jsonl"))
    seeds["jsonl-wrapped-gz"] = seed(JSONL | GZ | KEY_ID, item_lines(CATALOG + EXTRA))

    # Two gzip members one after the other, as `cat a.gz b.gz` or pigz write them.
    posts = read("data", "demo", "posts.jsonl")
    cut = posts.index(b"\n", len(posts) // 2) + 1
    seeds["jsonl-gzip-members"] = seed(JSONL | KEY_PK_SK, gzip.compress(posts[:cut], mtime=0)
                                       + gzip.compress(posts[cut:], mtime=0))

    # Plain JSON (Python's json): an array over several lines, and an object a line.
    plain = [plain_item(x) for x in CATALOG + EXTRA[:1]]
    seeds["json-array"] = seed(JSON | KEY_ID, json.dumps(plain, indent=2, ensure_ascii=False).encode())
    seeds["json-lines-gz"] = seed(JSON | GZ | KEY_ID | STREAM,
                                  "".join(json.dumps(x) + "\n" for x in plain).encode())

    # CSV (Python's csv): typed header, untyped with a key given, with a BOM and a cell over
    # two lines.
    seeds["csv-typed"] = seed(CSV | KEY_ID, csv_text(CATALOG, typed=True))
    seeds["csv-untyped"] = seed(CSV | KEY_ID | STREAM, csv_text(CATALOG, typed=False))
    multi = [dict(CATALOG[3], Description={"S": "201, \"road\"\nsecond line"})] + CATALOG[4:6]
    seeds["csv-bom-multiline-gz"] = seed(CSV | GZ | KEY_ID, csv_text(multi, typed=False, bom=True))
    seeds["csv-extra-types"] = seed(CSV | KEY_ID, csv_text(EXTRA, typed=True))

    for name, data in sorted(seeds.items()):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print("%d seeds in %s" % (len(seeds), OUT))


if __name__ == "__main__":
    main()
