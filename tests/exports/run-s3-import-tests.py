#!/usr/bin/env python3
"""`dynoscope-cli --db X import --table T s3://...` (src/exports) against a real S3, s3rver:

  - exports written by `dynoscope-cli serve --export-dir` (ExportTableToPointInTime through
    boto3; DynamoDB JSON and Ion, full and incremental) uploaded to s3rver with boto3, imported
    and compared item for item with the source table (boto3 Scan of serve) at each export's time;
  - exports written by hand from the developer guide's S3DataExport.Output page (the
    ProductCatalog items, in DynamoDB JSON and in Ion as AWS writes it: 103., 6d2, annotated
    sets), with an empty data file and every type, the export's folder, its summary or a prefix;
  - that full export with two incremental exports on top, written by hand as AWS lays them out
    (DynamoDB JSON and Ion, NEW_AND_OLD_IMAGES and NEW_IMAGE), imported together and compared
    item for item with the writes replayed in time order;
  - locating: several exports under a prefix (named newest first), none, NoSuchBucket;
  - a truncated gzip object, a wrong item count, a corrupt Ion value, a flipped byte (MD5): each
    fails naming the data file, and no table is left;
  - Ctrl-C (SIGINT) while the data files come through a slow proxy: exit 130, no table;
  - a connection cut once mid-file by a proxy: the download resumes, the exact items arrive;
  - `--db X exports start` writing to s3rver in the process (both formats, read back the same;
    a missing bucket fails the export with S3NoSuchBucket);
  - serve stopped while an export's put waits on an endpoint that never answers: it exits at
    once and the put's process is gone.

    run-s3-import-tests.py DYNOSCOPE_CLI

Exit status: 0 when every test passed, 77 (skipped) when node, s3rver or boto3 are missing."""
import base64
import datetime
import gzip
import hashlib
import importlib.util
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "net"))
import dynoscope_testlib as lib  # noqa: E402
import s3rver_lib  # noqa: E402

lib.use_system_python_for_boto3()

CLI = sys.argv[1] if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"
# A sanitizer build runs several times slower.
TIMEOUT = 900
BUCKET = "exports"


def load_serve():
    """tests/server/test-serve.py's Server (it takes the CLI from its argv)."""
    saved = sys.argv
    sys.argv = [saved[0], CLI]
    try:
        spec = importlib.util.spec_from_file_location(
            "test_serve", os.path.join(HERE, "..", "server", "test-serve.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.argv = saved
    return module


# ---- Items ----

def wide_item(i, v=0):
    """An item of every type, 38-digit numbers and odd strings included, in DynamoDB JSON."""
    r = random.Random(i * 1000 + v)
    item = {"pk": {"S": "p%04d" % (i % 50)}, "sk": {"N": str(i)},
            "s": {"S": "".join(r.choice("aé€😀 \"\\\n\t<>{}") for _ in range(r.randint(0, 30)))},
            "n": {"N": r.choice(["12345678901234567890123456789012345678", "-0.000001",
                                 "3.14", "0", "-99999999999999999999999999999999999999",
                                 str(r.randint(-10**9, 10**9)), "1E+5", "9.9e-100"])},
            "b": {"B": base64.b64encode(r.randbytes(r.randint(1, 20))).decode()},
            "t": {"BOOL": r.random() < 0.5}, "z": {"NULL": True},
            "ss": {"SS": sorted({"x%d" % r.randint(0, 99) for _ in range(r.randint(1, 4))})},
            "ns": {"NS": sorted({str(r.randint(-50, 50)) + ".5" for _ in range(r.randint(1, 3))})},
            "bs": {"BS": sorted({base64.b64encode(bytes([r.randint(0, 255)] * r.randint(1, 3)))
                                 .decode() for _ in range(r.randint(1, 3))})},
            "l": {"L": [{"S": "a"}, {"N": "1"}, {"L": []}, {"M": {"k": {"NULL": True}}}]},
            "m": {"M": {"nested": {"M": {"deep": {"SS": ["q"]}}}, "e": {"S": ""}, "v": {"N": str(v)}}}}
    if i % 3 == 0:
        del item["b"]
    return item


def key_of(item):
    return tuple((k, json.dumps(item[k], sort_keys=True)) for k in ("pk", "sk", "Id") if k in item)


def norm(value):
    """A DynamoDB JSON value with sets sorted and numbers as Decimal text, for comparison."""
    (t, x), = value.items()
    if t in ("SS", "BS"):
        return {t: sorted(x)}
    if t == "NS":
        return {t: sorted(norm_number(n) for n in x)}
    if t == "N":
        return {t: norm_number(x)}
    if t == "M":
        return {t: {k: norm(y) for k, y in x.items()}}
    if t == "L":
        return {t: [norm(y) for y in x]}
    return {t: x}


def norm_number(text):
    from decimal import Decimal
    d = Decimal(text)
    return "0" if d == 0 else format(d.normalize(), "f") if abs(d.adjusted()) < 50 \
        else str(d.normalize())


def norm_item(item):
    return {k: norm(v) for k, v in item.items()}


def boto_to_wire(item):
    def conv(v):
        (t, x), = v.items()
        if t == "B":
            return {"B": base64.b64encode(x).decode()}
        if t == "BS":
            return {"BS": [base64.b64encode(b).decode() for b in x]}
        if t == "M":
            return {"M": {k: conv(y) for k, y in x.items()}}
        if t == "L":
            return {"L": [conv(y) for y in x]}
        return {t: x}
    return {k: conv(v) for k, v in item.items()}


# ---- Amazon Ion text as DynamoDB's export writes it ----

def ion_decimal(text):
    t = text.replace("e", "d").replace("E", "d")
    return t if ("." in t or "d" in t) else t + "."


def ion_name(name):
    ok = name and (name[0].isalpha() or name[0] in "_$") and all(
        c.isalnum() or c in "_$" for c in name) and name.isascii()
    return name if ok and name not in ("true", "false", "null", "nan") else json.dumps(name)


def ion_value(value):
    (t, x), = value.items()
    if t == "S":
        return json.dumps(x)
    if t == "N":
        return ion_decimal(x)
    if t == "B":
        return "{{%s}}" % x
    if t == "BOOL":
        return "true" if x else "false"
    if t == "NULL":
        return "null"
    if t == "SS":
        return "$dynamodb_SS::[%s]" % ",".join(json.dumps(s) for s in x)
    if t == "NS":
        return "$dynamodb_NS::[%s]" % ",".join(ion_decimal(n) for n in x)
    if t == "BS":
        return "$dynamodb_BS::[%s]" % ",".join("{{%s}}" % b for b in x)
    if t == "L":
        return "[%s]" % ",".join(ion_value(y) for y in x)
    return "{%s}" % ",".join("%s:%s" % (ion_name(k), ion_value(y)) for k, y in x.items())


def ion_line(item):
    return "$ion_1_0 {Item:{%s}}" % ",".join(
        "%s:%s" % (ion_name(k), ion_value(v)) for k, v in item.items())


# The developer guide's ProductCatalog table (its sample data), exported: S3DataExport.Output's
# example item is 103; its summary counts 8 items.
PRODUCT_CATALOG = [
    {"Id": {"N": "101"}, "Title": {"S": "Book 101 Title"}, "ISBN": {"S": "111-1111111111"},
     "Authors": {"SS": ["Author1"]}, "Price": {"N": "2"}, "Dimensions": {"S": "8.5 x 11.0 x 0.5"},
     "PageCount": {"N": "500"}, "InPublication": {"BOOL": True},
     "ProductCategory": {"S": "Book"}},
    {"Id": {"N": "102"}, "Title": {"S": "Book 102 Title"}, "ISBN": {"S": "222-2222222222"},
     "Authors": {"SS": ["Author1", "Author2"]}, "Price": {"N": "20"},
     "Dimensions": {"S": "8.5 x 11.0 x 0.8"}, "PageCount": {"N": "600"},
     "InPublication": {"BOOL": True}, "ProductCategory": {"S": "Book"}},
    {"Id": {"N": "103"}, "Title": {"S": "Book 103 Title"}, "ISBN": {"S": "333-3333333333"},
     "Authors": {"SS": ["Author1", "Author2"]}, "Price": {"N": "2000"},
     "Dimensions": {"S": "8.5 x 11.0 x 1.5"}, "PageCount": {"N": "600"},
     "InPublication": {"BOOL": False}, "ProductCategory": {"S": "Book"}},
    {"Id": {"N": "201"}, "Title": {"S": "18-Bike-201"}, "Description": {"S": "201 Description"},
     "BicycleType": {"S": "Road"}, "Brand": {"S": "Mountain A"}, "Price": {"N": "100"},
     "Color": {"SS": ["Red", "Black"]}, "ProductCategory": {"S": "Bicycle"}},
    {"Id": {"N": "202"}, "Title": {"S": "21-Bike-202"}, "Description": {"S": "202 Description"},
     "BicycleType": {"S": "Road"}, "Brand": {"S": "Brand-Company A"}, "Price": {"N": "200"},
     "Color": {"SS": ["Green", "Black"]}, "ProductCategory": {"S": "Bicycle"}},
    {"Id": {"N": "203"}, "Title": {"S": "19-Bike-203"}, "Description": {"S": "203 Description"},
     "BicycleType": {"S": "Road"}, "Brand": {"S": "Brand-Company B"}, "Price": {"N": "300"},
     "Color": {"SS": ["Red", "Green", "Black"]}, "ProductCategory": {"S": "Bicycle"}},
    {"Id": {"N": "204"}, "Title": {"S": "18-Bike-204"}, "Description": {"S": "204 Description"},
     "BicycleType": {"S": "Mountain"}, "Brand": {"S": "Brand-Company B"}, "Price": {"N": "400"},
     "Color": {"SS": ["Red"]}, "ProductCategory": {"S": "Bicycle"}},
    {"Id": {"N": "205"}, "Title": {"S": "18-Bike-204"}, "Description": {"S": "205 Description"},
     "BicycleType": {"S": "Hybrid"}, "Brand": {"S": "Brand-Company C"}, "Price": {"N": "500"},
     "Color": {"SS": ["Red", "Black"]}, "ProductCategory": {"S": "Bicycle"}},
]
# The page's own Ion line for item 103, as written there (6d2, 2d3, 103.).
ITEM_103_ION = ('$ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1","Author2"],'
                'Dimensions:"8.5 x 11.0 x 1.5",ISBN:"333-3333333333",Id:103.,'
                'InPublication:false,PageCount:6d2,Price:2d3,ProductCategory:"Book",'
                'Title:"Book 103 Title"}}')
# Items beyond the sample data, for the types it lacks (B, BS, NS, NULL, L, M).
EXTRA_PRODUCTS = [
    {"Id": {"N": "301"}, "Picture": {"B": "iVBORw0KGgo="}, "Thumbs": {"BS": ["AQI=", "AwQ="]},
     "Ratings": {"NS": ["4.5", "5", "-1", "12345678901234567890123456789012345678"]},
     "Discontinued": {"NULL": True}, "Related": {"L": [{"N": "101"}, {"S": "x"}, {"BOOL": True}]},
     "Specs": {"M": {"weight kg": {"N": "0.000000001"}, "Größe": {"S": "L"},
                     "parts": {"L": [{"M": {"n": {"N": "1E+3"}}}]}}},
     "ProductCategory": {"S": "Other"}},
    {"Id": {"N": "302.5"}, "ProductCategory": {"S": ""}},
]


# ---- Incremental exports as AWS writes them ----

def change_line(record, ion):
    """One record of an incremental export's data file, as AWS writes it (one a line): in
    DynamoDB JSON
        {"Metadata":{"WriteTimestampMicros":{"N":"…"}},"Keys":{…},"OldImage":{…},"NewImage":{…}}
    and in Ion
        $ion_1_0 {Metadata:{WriteTimestampMicros:1680109764000000.},Keys:{…},OldImage:{…},…}
    RECORD holds them in that order: an insert has no OldImage, a delete no NewImage, and in
    the NEW_IMAGE view no record has an OldImage (a delete is Keys alone)."""
    if not ion:
        return json.dumps(record)
    return "$ion_1_0 {%s}" % ",".join("%s:%s" % (name, ion_value({"M": record[name]}))
                                      for name in ("Metadata", "Keys", "OldImage", "NewImage")
                                      if name in record)


def summary_time(us):
    """A time as manifest-summary.json writes it: 2020-11-04T07:28:34.028Z."""
    t = datetime.datetime.fromtimestamp(us // 1_000_000, datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S") + ".%03dZ" % (us % 1_000_000 // 1000)


# The ProductCatalog export's exportTime (put_export's full summary: 2020-11-04T07:28:34.028Z)
# in microseconds; its incremental exports cover the hour after it, then the hour after that.
CATALOG_TIME_US = 1604474914028000
HOUR_US = 3600 * 1_000_000


def catalog_history():
    """The writes to the ProductCatalog table after its full export (PRODUCT_CATALOG +
    EXTRA_PRODUCTS), in time order: (microseconds, Id, the item's new image or None for a
    delete). The first hour makes one incremental export, the second the next."""
    base = {x["Id"]["N"]: x for x in PRODUCT_CATALOG + EXTRA_PRODUCTS}

    def at(minutes):
        # an odd number of microseconds: the timestamps are exact, not rounded to a second
        return CATALOG_TIME_US + minutes * 60_000_000 + 4321

    book_401 = {"Id": {"N": "401"}, "Title": {"S": "Book 401 Title"},
                "ProductCategory": {"S": "Book"}, "Price": {"N": "0.99"}}
    # Every type (38-digit numbers, odd strings, sets of each kind, nested lists and maps).
    wide = dict({k: v for k, v in wide_item(4, 1).items() if k not in ("pk", "sk")},
                Id={"N": "403"})
    return [
        # -- the first hour --
        # an update: new values, a set grown
        (at(1), "101", dict(base["101"], Price={"N": "25"},
                            Authors={"SS": ["Author1", "Author3"]})),
        # changed here and again in the second hour
        (at(2), "202", dict(base["202"], Price={"N": "210"}, Color={"SS": ["Green"]})),
        # a delete (it comes back in the second hour)
        (at(3), "205", None),
        # inserts: 401 is updated in the second hour, 402 deleted in it
        (at(4), "401", book_401),
        (at(5), "402", {"Id": {"N": "402"}, "Title": {"S": "Short-lived"},
                        "ProductCategory": {"S": "Book"}}),
        # every type changed and some attributes gone: the new image replaces the item, it
        # is not merged into it
        (at(6), "301", {"Id": {"N": "301"}, "Picture": {"B": "AAEC/w=="},
                        "Ratings": {"NS": ["0.5", "-99999999999999999999999999999999999999"]},
                        "Discontinued": {"BOOL": False},
                        "Related": {"L": [{"NULL": True}, {"SS": ["a", "b"]}]},
                        "Specs": {"M": {"Größe": {"S": "XL"}, "tags": {"BS": ["AQ=="]}}}}),
        # 101 written twice in one hour: AWS writes one record, its image after the second
        (at(7), "101", dict(base["101"], Price={"N": "30"},
                            Authors={"SS": ["Author1", "Author3"]})),
        # -- the second hour --
        (at(61), "202", dict(base["202"], Price={"N": "220"}, Color={"SS": ["Green", "Blue"]},
                             OnSale={"BOOL": True})),
        (at(62), "402", None),
        (at(63), "205", {"Id": {"N": "205"}, "Title": {"S": "18-Bike-205 (again)"},
                         "ProductCategory": {"S": "Bicycle"}, "Price": {"N": "450"}}),
        (at(64), "302.5", None),
        (at(65), "403", wide),
        (at(66), "401", dict(book_401, Price={"N": "1.99"}, InPublication={"BOOL": True})),
    ]


def window_records(history, before, start_us, end_us, view):
    """The records of an incremental export of the writes of HISTORY in [START_US, END_US) on
    top of the table BEFORE (Id -> item, as of START_US), written as AWS writes them: one a
    changed item (compacted), its image as of START_US as OldImage (NEW_AND_OLD_IMAGES only;
    none when it did not exist) and as of END_US as NewImage (none when it was deleted), the
    time of its last write. Returns the records and the table as of END_US."""
    after, last = dict(before), {}
    for us, key, item in history:
        if start_us <= us < end_us:
            last[key] = us
            if item is None:
                after.pop(key, None)
            else:
                after[key] = item
    records = []
    for key, us in last.items():
        record = {"Metadata": {"WriteTimestampMicros": {"N": str(us)}},
                  "Keys": {"Id": {"N": key}}}
        if view == "NEW_AND_OLD_IMAGES" and key in before:
            record["OldImage"] = before[key]
        if key in after:
            record["NewImage"] = after[key]
        records.append(record)
    return records, after


class ImportTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="dynoscope-s3-import-")
        cls.server = s3rver_lib.S3rver(S3RVER_CLI, os.path.join(cls.tmp.name, "s3rver"))
        os.makedirs(cls.server.directory)
        if not cls.server.start():
            raise RuntimeError("s3rver did not start")
        cls.s3 = cls.server.boto3_client()
        cls.s3.create_bucket(Bucket=BUCKET)
        cls.env = cls.server.client_env()
        cls.export_seq = 0

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.tmp.cleanup()

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="case-", dir=self.tmp.name)

    # ---- helpers ----

    def cli(self, *args, env=None, timeout=TIMEOUT):
        out = subprocess.run([CLI, *args], env=env or self.env, capture_output=True, text=True,
                             timeout=timeout)
        self.assertNotIn("Sanitizer", out.stderr)
        self.assertNotIn("runtime error:", out.stderr)
        return out

    def import_s3(self, db, table, *urls, env=None, extra=()):
        return self.cli("--db", db, "import", "--table", table, *extra, *urls, env=env)

    def assert_ok(self, out):
        self.assertEqual(out.returncode, 0, out.stderr)

    def tables(self, db):
        if not os.path.exists(db):
            return []
        out = self.cli("--db", db, "call", "ListTables", "{}")
        self.assert_ok(out)
        return json.loads(out.stdout)["TableNames"]

    def scan_db(self, db, table):
        items, start = [], None
        while True:
            req = {"TableName": table}
            if start:
                req["ExclusiveStartKey"] = start
            out = self.cli("--db", db, "call", "Scan", json.dumps(req))
            self.assert_ok(out)
            page = json.loads(out.stdout)
            items += page["Items"]
            start = page.get("LastEvaluatedKey")
            if not start:
                return items

    def assert_same_items(self, got, want):
        g = {key_of(x): norm_item(x) for x in got}
        w = {key_of(x): norm_item(x) for x in want}
        self.assertEqual(len(g), len(got))
        self.assertEqual(sorted(g), sorted(w))
        for k in w:
            self.assertEqual(g[k], w[k], k)

    def new_export_id(self, when_ms=None):
        ImportTests.export_seq += 1
        when_ms = when_ms or int(time.time() * 1000)
        return "%014d-%08x" % (when_ms, ImportTests.export_seq)

    def put_export(self, prefix, files, ion=False, export_id=None, mutate=None,
                   summary_extra=None, view=None):
        """An export written by hand as AWS lays it out: FILES a list of item lists (one data
        file each, [] an empty file); MUTATE(name, gz, entry) may change a data file's bytes or
        its manifest entry. With VIEW (NEW_AND_OLD_IMAGES or NEW_IMAGE) it is an incremental
        export instead: FILES hold change records (change_line), the summary is an incremental
        export's (exportType, outputView; no exportTime: SUMMARY_EXTRA gives exportFromTime
        and exportToTime). Returns the export folder's s3:// URL."""
        export_id = export_id or self.new_export_id()
        root = "%sAWSDynamoDB/%s/" % (prefix + "/" if prefix else "", export_id)
        entries = []
        total = 0
        for n, items in enumerate(files):
            name = "%s%04d.%s.gz" % ("datafile", n, "ion" if ion else "json")
            if view:
                text = "".join(change_line(x, ion) + "\n" for x in items)
            else:
                text = "".join((ion_line(x) if ion else json.dumps({"Item": x})) + "\n"
                               for x in items)
            if ion and n == 0 and not view:
                text = text.replace(ion_line(PRODUCT_CATALOG[2]), ITEM_103_ION)
            gz = gzip.compress(text.encode(), mtime=0)
            entry = {"itemCount": len(items),
                     "md5Checksum": base64.b64encode(hashlib.md5(gz).digest()).decode(),
                     "etag": hashlib.md5(gz).hexdigest(),
                     "dataFileS3Key": root + "data/" + name}
            if mutate:
                gz = mutate(name, gz, entry)
            total += len(items)
            self.s3.put_object(Bucket=BUCKET, Key=entry["dataFileS3Key"], Body=gz)
            entries.append(entry)
        files_text = "".join(json.dumps(e) + "\n" for e in entries)
        summary = {"version": "2020-06-30",
                   "exportArn": "arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog/"
                                "export/" + export_id,
                   "startTime": "2020-11-04T07:28:34.028Z", "endTime": "2020-11-04T07:33:43.897Z",
                   "tableArn": "arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog",
                   "tableId": "12345a12-abcd-123a-ab12-1234abc12345",
                   "exportTime": "2020-11-04T07:28:34.028Z", "s3Bucket": BUCKET,
                   "s3Prefix": prefix or None, "s3SseAlgorithm": "AES256", "s3SseKmsKeyId": None,
                   "manifestFilesS3Key": root + "manifest-files.json", "billedSizeBytes": 0,
                   "itemCount": total, "outputFormat": "ION" if ion else "DYNAMODB_JSON"}
        if view:
            # An incremental export's summary: a window (exportFromTime, exportToTime) rather
            # than a point in time, the view of its records, its type, and a later version.
            del summary["exportTime"]
            summary.update({"version": "2023-08-01", "outputView": view,
                            "exportType": "INCREMENTAL_EXPORT"})
        summary.update(summary_extra or {})
        self.s3.put_object(Bucket=BUCKET, Key=root + "_started", Body=b"")
        self.s3.put_object(Bucket=BUCKET, Key=root + "manifest-files.json",
                           Body=files_text.encode())
        self.s3.put_object(Bucket=BUCKET, Key=root + "manifest-summary.json",
                           Body=json.dumps(summary).encode())
        return "s3://%s/%s" % (BUCKET, root)

    def upload_tree(self, local_root):
        """Every file under LOCAL_ROOT (serve's DIR/BUCKET) at the same key in the bucket."""
        for base, _, names in os.walk(local_root):
            for name in names:
                path = os.path.join(base, name)
                key = os.path.relpath(path, local_root).replace(os.sep, "/")
                self.s3.upload_file(path, BUCKET, key)

    # ---- exports written by serve ----

    def test_serve_exports_both_formats_full_and_incremental(self):
        if not lib.has_boto3():
            self.skipTest("boto3 is missing")
        import boto3
        import botocore.config
        serve = load_serve()
        root = os.path.join(self.dir, "serve-s3")
        os.makedirs(os.path.join(root, "bkt"))
        server = serve.Server(os.path.join(self.dir, "source.db"), "--export-dir", root)
        try:
            ddb = boto3.client("dynamodb", endpoint_url=server.url, region_name="us-east-1",
                               aws_access_key_id="k", aws_secret_access_key="s",
                               config=botocore.config.Config(retries={"max_attempts": 1}))
            arn = "arn:aws:dynamodb:ddblocal:000000000000:table/Source"
            ddb.create_table(TableName="Source", BillingMode="PAY_PER_REQUEST",
                             AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                                   {"AttributeName": "sk", "AttributeType": "N"}],
                             KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                        {"AttributeName": "sk", "KeyType": "RANGE"}])
            status, _, body = server.raw(json.dumps({
                "TableName": "Source", "PointInTimeRecoverySpecification":
                    {"PointInTimeRecoveryEnabled": True}}).encode(),
                serve.json_headers("UpdateContinuousBackups"))
            self.assertEqual(status, 200, body)

            def raw(op, req):
                status, _, body = server.raw(json.dumps(req).encode(), serve.json_headers(op))
                self.assertEqual(status, 200, body)
                return json.loads(body)

            def scan():
                items, start = [], None
                while True:
                    kw = {"ExclusiveStartKey": start} if start else {}
                    page = ddb.scan(TableName="Source", **kw)
                    items += [boto_to_wire(x) for x in page["Items"]]
                    start = page.get("LastEvaluatedKey")
                    if not start:
                        return items

            def wait(export_arn):
                deadline = time.time() + TIMEOUT
                while True:
                    d = raw("DescribeExport", {"ExportArn": export_arn})["ExportDescription"]
                    if d["ExportStatus"] != "IN_PROGRESS":
                        self.assertEqual(d["ExportStatus"], "COMPLETED", d)
                        return d
                    self.assertLess(time.time(), deadline)
                    time.sleep(0.05)

            def next_second():
                t = int(time.time()) + 1
                while time.time() < t + 0.05:
                    time.sleep(0.01)
                return t

            next_second()
            for i in range(400):
                raw("PutItem", {"TableName": "Source", "Item": wide_item(i)})
            t1 = next_second()
            state1 = scan()
            self.assertEqual(len(state1), 400)
            # Changes after t1: updates, deletes, new items.
            for i in range(0, 400, 7):
                raw("PutItem", {"TableName": "Source", "Item": wide_item(i, 1)})
            for i in range(3, 400, 11):
                raw("DeleteItem", {"TableName": "Source",
                                   "Key": {"pk": wide_item(i)["pk"], "sk": wide_item(i)["sk"]}})
            for i in range(400, 430):
                raw("PutItem", {"TableName": "Source", "Item": wide_item(i, 2)})
            t2 = next_second()
            state2 = scan()
            for i in range(430, 440):  # after t2: in no export
                raw("PutItem", {"TableName": "Source", "Item": wide_item(i, 3)})
            next_second()

            urls, arns = {}, {}
            for fmt in ("DYNAMODB_JSON", "ION"):
                full = raw("ExportTableToPointInTime", {
                    "TableArn": arn, "S3Bucket": "bkt", "S3Prefix": "serve/" + fmt.lower(),
                    "ExportTime": t1, "ExportFormat": fmt})["ExportDescription"]
                inc = raw("ExportTableToPointInTime", {
                    "TableArn": arn, "S3Bucket": "bkt", "S3Prefix": "serve/" + fmt.lower(),
                    "ExportFormat": fmt, "ExportType": "INCREMENTAL_EXPORT",
                    "IncrementalExportSpecification": {
                        "ExportFromTime": t1, "ExportToTime": t2,
                        "ExportViewType": "NEW_AND_OLD_IMAGES" if fmt == "ION"
                        else "NEW_IMAGE"}})["ExportDescription"]
                full_d, inc_d = wait(full["ExportArn"]), wait(inc["ExportArn"])
                urls[fmt] = ["s3://%s/%s" % (BUCKET, full_d["ExportManifest"]),
                             "s3://%s/%s" % (BUCKET, os.path.dirname(inc_d["ExportManifest"]))]
                arns[fmt] = [full_d["ExportArn"], inc_d["ExportArn"]]
        finally:
            status, _, err = server.stop()
            self.assertEqual(status, 0, err)
        self.upload_tree(os.path.join(root, "bkt"))

        for fmt, (full_url, inc_url) in urls.items():
            db = os.path.join(self.dir, fmt + ".db")
            self.assert_ok(self.import_s3(db, "Full", full_url))
            self.assert_same_items(self.scan_db(db, "Full"), state1)
            # The base is the export, by its ARN.
            out = self.cli("--db", db, "snapshot", "base", "--table", "Full")
            self.assert_ok(out)
            self.assertTrue(out.stdout.rstrip().endswith(" arn=" + arns[fmt][0]), out.stdout)
            self.assert_ok(self.import_s3(db, "Incr", full_url, inc_url + "/"))
            self.assert_same_items(self.scan_db(db, "Incr"), state2)
            # The base is the incremental export's folder in the bucket, and its ARN.
            out = self.cli("--db", db, "snapshot", "base", "--table", "Incr")
            self.assert_ok(out)
            self.assertIn(inc_url + "/", out.stdout)
            self.assertTrue(out.stdout.rstrip().endswith(" arn=" + arns[fmt][1]), out.stdout)
            # The same export by its folder and by its prefix (one export of each kind under
            # it? no: a full and an incremental: two, so the prefix is refused).
            out = self.import_s3(db, "Prefix", "s3://%s/serve/%s" % (BUCKET, fmt.lower()))
            self.assertEqual(out.returncode, 1)
            self.assertIn("2 DynamoDB exports lie under it", out.stderr)
            self.assertNotIn("Prefix", self.tables(db))

    def test_serve_stops_a_put_under_way(self):
        """serve closing (SIGTERM) while an export's `s3 put` waits on an S3 endpoint that never
        answers: the put is stopped, serve exits at once, no put is left running."""
        import socket
        import threading
        serve = load_serve()
        hole = socket.socket()
        hole.bind(("127.0.0.1", 0))
        hole.listen(8)
        got, closed = threading.Event(), threading.Event()

        def swallow():
            conn, _ = hole.accept()
            while True:
                data = conn.recv(65536)
                if not data:
                    closed.set()
                    return
                got.set()

        threading.Thread(target=swallow, daemon=True).start()
        saved = dict(os.environ)
        os.environ.update(AWS_ENDPOINT_URL_S3="http://127.0.0.1:%d" % hole.getsockname()[1],
                          AWS_ACCESS_KEY_ID="k", AWS_SECRET_ACCESS_KEY="s",
                          AWS_REGION="us-east-1")
        try:
            server = serve.Server(os.path.join(self.dir, "hole.db"))
        finally:
            os.environ.clear()
            os.environ.update(saved)
        try:
            def raw(op, req):
                status, _, body = server.raw(json.dumps(req).encode(), serve.json_headers(op))
                self.assertEqual(status, 200, body)
                return json.loads(body)

            raw("CreateTable", {"TableName": "Hole", "BillingMode": "PAY_PER_REQUEST",
                                "AttributeDefinitions": [{"AttributeName": "pk",
                                                          "AttributeType": "S"}],
                                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
            raw("UpdateContinuousBackups", {"TableName": "Hole",
                                            "PointInTimeRecoverySpecification":
                                                {"PointInTimeRecoveryEnabled": True}})
            raw("PutItem", {"TableName": "Hole", "Item": {"pk": {"S": "a"}}})
            # the export's time falls after point-in-time recovery was turned on
            t = int(time.time()) + 1
            while time.time() < t + 0.05:
                time.sleep(0.01)
            arn = raw("DescribeTable", {"TableName": "Hole"})["Table"]["TableArn"]
            raw("ExportTableToPointInTime", {"TableArn": arn, "S3Bucket": "bkt"})
            # the put is under way: its request reached the endpoint, which never answers
            self.assertTrue(got.wait(TIMEOUT), "no put reached the endpoint")
        except BaseException:
            server.stop(signal.SIGKILL)
            raise
        started = time.monotonic()
        status, _, err = server.stop(timeout=TIMEOUT)
        stopped = time.monotonic() - started
        self.assertEqual(status, 0, err)
        # The put's own timeouts (60 s an attempt, five attempts) would have held serve at least
        # 60 s; a stop takes about a second, more on a busy machine under the sanitizers.
        self.assertLess(stopped, 50, err)
        # its process is gone: its connection closed
        self.assertTrue(closed.wait(TIMEOUT), "the put's connection stayed open")
        hole.close()

    # ---- exports of the embedded database ----

    def test_db_exports_to_s3(self):
        """`--db X exports start` writes to S3 in the process: the export imports back equal,
        its base names it; a missing bucket fails the job with S3NoSuchBucket."""
        db = os.path.join(self.dir, "src.db")
        items = [wide_item(i) for i in range(120)]
        src = os.path.join(self.dir, "items.jsonl")
        with open(src, "w") as f:
            for item in items:
                f.write(json.dumps({"Item": item}) + "\n")
        self.assert_ok(self.cli("--db", db, "import", "--table", "Src", "--key", "pk:S,sk:N", src))
        self.assert_ok(self.cli("--db", db, "exports", "pitr", "--table", "Src", "--enable"))
        # The export's time must fall after point-in-time recovery was turned on.
        t = time.time()
        while time.time() < t + 1.1:
            time.sleep(0.05)
        for fmt in ("json", "ion"):
            out = self.cli("--db", db, "exports", "start", "--table", "Src", "--bucket", BUCKET,
                           "--prefix", "fromdb/" + fmt, "--format", fmt, "--wait", "--json")
            self.assert_ok(out)
            d = json.loads(out.stdout)
            self.assertEqual(d["ExportStatus"], "COMPLETED", d)
            self.assertEqual(d["ItemCount"], len(items))
            url = "s3://%s/%s" % (BUCKET, d["ExportManifest"])
            # boto3 sees the export's objects in AWS's layout.
            listed = self.s3.list_objects_v2(Bucket=BUCKET, Prefix="fromdb/" + fmt + "/")
            keys = [o["Key"] for o in listed.get("Contents", [])]
            self.assertIn(d["ExportManifest"], keys)
            self.assertTrue(any(k.endswith(".ion.gz" if fmt == "ion" else ".json.gz")
                                for k in keys), keys)
            back = os.path.join(self.dir, fmt + ".db")
            self.assert_ok(self.import_s3(back, "Back", url))
            self.assert_same_items(self.scan_db(back, "Back"), items)
            base = self.cli("--db", back, "snapshot", "base", "--table", "Back")
            self.assert_ok(base)
            self.assertTrue(base.stdout.rstrip().endswith(" arn=" + d["ExportArn"]), base.stdout)
        # Without --wait too: the export runs in this process, which waits for it.
        out = self.cli("--db", db, "exports", "start", "--table", "Src", "--bucket", BUCKET,
                       "--prefix", "fromdb/nowait", "--json")
        self.assert_ok(out)
        self.assertEqual(json.loads(out.stdout)["ExportStatus"], "COMPLETED", out.stdout)
        out = self.cli("--db", db, "exports", "start", "--table", "Src", "--bucket",
                       "no-such-bucket", "--wait", "--json")
        self.assertNotEqual(out.returncode, 0)
        d = json.loads(out.stdout)
        self.assertEqual((d["ExportStatus"], d["FailureCode"]), ("FAILED", "S3NoSuchBucket"), d)

    # ---- exports written by hand ----

    def check_product_catalog(self, ion):
        items = PRODUCT_CATALOG + EXTRA_PRODUCTS
        prefix = "handmade/%s" % ("ion" if ion else "json")
        url = self.put_export(prefix, [items[:3], [], items[3:]], ion=ion)
        db = os.path.join(self.dir, "catalog.db")
        summary = url + "manifest-summary.json"
        for n, source in enumerate([url, url.rstrip("/"), summary, "s3://%s/%s" % (BUCKET, prefix),
                                    "s3://%s/%s/" % (BUCKET, prefix),
                                    "s3://%s/%s/AWSDynamoDB" % (BUCKET, prefix)]):
            table = "Catalog%d" % n
            out = self.import_s3(db, table, source, extra=["--key", "Id:N"] if n else [])
            self.assert_ok(out)
            self.assert_same_items(self.scan_db(db, table), items)

    def test_product_catalog_json(self):
        self.check_product_catalog(False)

    def test_product_catalog_ion(self):
        self.check_product_catalog(True)

    def test_handmade_incremental_exports(self):
        """A full export and two incremental exports on top of it, written by hand as AWS
        lays them out (DynamoDB JSON and Ion; NEW_AND_OLD_IMAGES and NEW_IMAGE), uploaded with
        boto3 and imported from s3rver together: the table must equal the writes of
        catalog_history() replayed in time order on the full export's items (an update, a
        delete, inserts, an item changed in both incrementals, one inserted then deleted, one
        deleted then put back)."""
        full_items = PRODUCT_CATALOG + EXTRA_PRODUCTS
        history = catalog_history()
        # What the import must give, found without any export: every write applied in order.
        want = {x["Id"]["N"]: x for x in full_items}
        for _, key, item in sorted(history, key=lambda h: h[0]):
            if item is None:
                del want[key]
            else:
                want[key] = item
        for ion in (False, True):
            for view in ("NEW_AND_OLD_IMAGES", "NEW_IMAGE"):
                with self.subTest(format="ION" if ion else "DYNAMODB_JSON", view=view):
                    prefix = "handmade-incremental/%s-%s" % ("ion" if ion else "json",
                                                            view.lower())
                    # The full export, as of CATALOG_TIME_US (put_export's exportTime).
                    full = self.put_export(prefix, [full_items[:3], [], full_items[3:]],
                                           ion=ion, export_id=self.new_export_id(
                                               CATALOG_TIME_US // 1000))
                    # Two incremental exports, an hour each, back to back from the full
                    # export's time; each requested 20 minutes after its window closed, its
                    # records over two data files and an empty one (one a partition).
                    incrementals, table = [], {x["Id"]["N"]: x for x in full_items}
                    for hour in range(2):
                        start = CATALOG_TIME_US + hour * HOUR_US
                        end = start + HOUR_US
                        records, table = window_records(history, table, start, end, view)
                        self.assertTrue(records)
                        requested = end + 20 * 60_000_000
                        incrementals.append(self.put_export(
                            prefix, [records[::2], [], records[1::2]], ion=ion, view=view,
                            export_id=self.new_export_id(requested // 1000),
                            summary_extra={"exportFromTime": summary_time(start),
                                           "exportToTime": summary_time(end),
                                           "startTime": summary_time(requested),
                                           "endTime": summary_time(requested + 60_000_000)}))
                    # The exports hold the same history (a check of this test's own
                    # writer, before the importer is asked).
                    self.assertEqual(table, want)
                    # boto3 reads back what it uploaded: each export's folder in AWS's layout.
                    listed = self.s3.list_objects_v2(Bucket=BUCKET, Prefix=prefix + "/")
                    keys = sorted(o["Key"] for o in listed.get("Contents", []))
                    self.assertEqual(len(keys), 3 * 6, keys)
                    for url in [full] + incrementals:
                        folder = url[len("s3://%s/" % BUCKET):]
                        self.assertEqual(
                            [k[len(folder):] for k in keys if k.startswith(folder)],
                            ["_started"] + ["data/datafile%04d.%s.gz" % (
                                n, "ion" if ion else "json") for n in range(3)]
                            + ["manifest-files.json", "manifest-summary.json"])
                    summary = json.loads(self.s3.get_object(
                        Bucket=BUCKET, Key=incrementals[1][len("s3://%s/" % BUCKET):]
                        + "manifest-summary.json")["Body"].read())
                    self.assertEqual((summary["exportType"], summary["outputView"],
                                      summary["outputFormat"]),
                                     ("INCREMENTAL_EXPORT", view, "ION" if ion else
                                      "DYNAMODB_JSON"))
                    # The full export then its incrementals, these given out of order (the
                    # later first, the earlier by its manifest-summary.json): the import
                    # applies them by their exportToTime. No --key: the full export's items
                    # tell it (Id, a number).
                    db = os.path.join(self.dir, "%s-%s.db" % ("ion" if ion else "json", view))
                    out = self.import_s3(db, "Catalog", full, incrementals[1],
                                         incrementals[0] + "manifest-summary.json")
                    self.assert_ok(out)
                    self.assert_same_items(self.scan_db(db, "Catalog"), list(want.values()))
                    # The base is the last incremental export, its folder and its ARN.
                    out = self.cli("--db", db, "snapshot", "base", "--table", "Catalog")
                    self.assert_ok(out)
                    self.assertIn(incrementals[1], out.stdout)
                    self.assertTrue(out.stdout.rstrip().endswith(" arn=" + summary["exportArn"]),
                                    out.stdout)
                    # compare reads the exports where they lie: the full export with both
                    # incrementals on top is the imported table; against a snapshot of the full
                    # export alone, the differences are what the incrementals changed.
                    on_top = ("--with-export", full, "--with-incremental", incrementals[1],
                              "--with-incremental", incrementals[0] + "manifest-summary.json")
                    out = self.cli("--db", db, "compare", "--table", "Catalog", *on_top, "--json")
                    self.assert_ok(out)
                    head = json.loads(out.stdout.splitlines()[0])
                    self.assertEqual((head["same"], head["changed"], head["only_here"],
                                      head["only_there"]), (len(want), 0, 0, 0))
                    full_db = db + ".full"
                    self.assert_ok(self.import_s3(full_db, "Catalog", full))
                    out = self.cli("--db", full_db, "compare", "--table", "Catalog", *on_top,
                                   "--json")
                    self.assertEqual(out.returncode, 1, out.stderr)
                    before = {x["Id"]["N"]: norm_item(x) for x in full_items}
                    after = {k: norm_item(x) for k, x in want.items()}
                    kinds = {}
                    for line in out.stdout.splitlines()[1:]:
                        d = json.loads(line)
                        if "kind" in d:
                            kinds[d["key"]["Id"]["N"]] = d["kind"]
                    self.assertEqual(kinds, {
                        **{k: "only-here" for k in before if k not in after},
                        **{k: "only-there" for k in after if k not in before},
                        **{k: "changed" for k in before
                           if k in after and before[k] != after[k]}})
                    self.assertTrue(kinds)
                    out = self.cli("--db", full_db, "compare", "--table", "Catalog",
                                   "--with-export", full, "--with-incremental", self.dir)
                    self.assertEqual(out.returncode, 2, out.stderr)
                    self.assertIn("all s3:// URLs or all local paths", out.stderr)

    # ---- locating ----

    def test_locate_errors(self):
        db = os.path.join(self.dir, "locate.db")
        older = self.put_export("several", [PRODUCT_CATALOG], export_id=self.new_export_id(
            1600000000000))
        newer = self.put_export("several", [PRODUCT_CATALOG], export_id=self.new_export_id(
            1700000000000))
        # A folder that is no export (AWSDynamoDB/data/, an export without its summary).
        self.s3.put_object(Bucket=BUCKET, Key="several/AWSDynamoDB/data/x.json.gz", Body=b"")
        self.s3.put_object(Bucket=BUCKET, Key="several/AWSDynamoDB/01234567890123-unfinished/"
                                              "_started", Body=b"")
        out = self.import_s3(db, "Tbl1", "s3://%s/several" % BUCKET)
        self.assertEqual(out.returncode, 1)
        self.assertIn("2 DynamoDB exports lie under it", out.stderr)
        self.assertLess(out.stderr.index(newer), out.stderr.index(older))
        self.assertNotIn("unfinished", out.stderr)
        self.assertEqual(self.tables(db), [])
        # Named, each imports.
        self.assert_ok(self.import_s3(db, "Tbl1", newer, extra=["--key", "Id:N"]))
        out = self.import_s3(db, "Tbl2", "s3://%s/nothing/here" % BUCKET)
        self.assertEqual(out.returncode, 1)
        self.assertIn("s3://%s/nothing/here: no DynamoDB export there" % BUCKET, out.stderr)
        out = self.import_s3(db, "Tbl3", "s3://no-such-bucket-xyz/x")
        self.assertEqual(out.returncode, 1)
        self.assertIn("NoSuchBucket", out.stderr)
        out = self.import_s3(db, "Tbl4", newer + "manifest-summary.json.bak")
        self.assertEqual(out.returncode, 1)
        self.assertIn("no DynamoDB export there", out.stderr)
        self.assertEqual(self.tables(db), ["Tbl1"])
        # Into an endpoint: refused before anything is read.
        out = self.cli("--endpoint", "http://127.0.0.1:9", "import", "--table", "Tbl5", newer)
        self.assertEqual(out.returncode, 2)
        self.assertIn("into a database (--db PATH) only", out.stderr)
        out = self.import_s3(db, "Tbl6", newer, "/tmp/local-folder")
        self.assertEqual(out.returncode, 2)
        out = self.import_s3(db, "Tbl7", newer, extra=["--format", "csv"])
        self.assertEqual(out.returncode, 2)

    # ---- broken exports: the file named, nothing left ----

    def check_broken(self, ion, mutate, message):
        db = os.path.join(self.dir, "broken.db")
        items = PRODUCT_CATALOG + EXTRA_PRODUCTS
        url = self.put_export("broken/%d" % ImportTests.export_seq, [items[:2], items[2:]],
                              ion=ion, mutate=mutate)
        out = self.import_s3(db, "Broken", url)
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assertIn("data/datafile0001.%s.gz" % ("ion" if ion else "json"), out.stderr)
        self.assertIn(message, out.stderr)
        self.assertEqual(self.tables(db), [])

    @staticmethod
    def second_file(change):
        def mutate(name, gz, entry):
            if "0001" not in name:
                return gz
            gz = change(gz, entry)
            return gz
        return mutate

    @staticmethod
    def reseal(gz, entry):
        entry["md5Checksum"] = base64.b64encode(hashlib.md5(gz).digest()).decode()
        entry["etag"] = hashlib.md5(gz).hexdigest()
        return gz

    def test_truncated_gzip(self):
        self.check_broken(False, self.second_file(
            lambda gz, e: self.reseal(gz[:len(gz) // 2], e)), "")

    def test_wrong_item_count(self):
        def change(gz, entry):
            entry["itemCount"] += 1
            return gz
        self.check_broken(False, self.second_file(change), "manifest-files.json gives itemCount")

    def test_corrupt_ion_value(self):
        def change(gz, entry):
            text = gzip.decompress(gz).decode().replace('ProductCategory:"Bicycle"',
                                                        'ProductCategory:"Bicycle', 1)
            return self.reseal(gzip.compress(text.encode(), mtime=0), entry)
        self.check_broken(True, self.second_file(change), "Ion")

    def test_flipped_byte(self):
        # In the gzip header's MTIME: the file still decompresses, only its MD5 differs.
        def change(gz, entry):
            return gz[:5] + bytes([gz[5] ^ 0x40]) + gz[6:]
        self.check_broken(False, self.second_file(change), "checksum mismatch")

    # ---- big exports: interrupted and resumed downloads ----

    def big_export(self):
        if getattr(ImportTests, "big", None) is None:
            r = random.Random(5)
            files = [[{"pk": {"S": "k%06d" % (f * 15000 + i)},
                       "payload": {"S": r.randbytes(300).hex()},
                       "n": {"N": str(i)}} for i in range(15000)] for f in range(4)]
            ImportTests.big = (self.put_export("big", files), [x for f in files for x in f])
        return ImportTests.big

    def test_sigint_mid_download(self):
        url, _ = self.big_export()
        proxy = s3rver_lib.SlowProxy(self.server.port, 400_000)
        db = os.path.join(self.dir, "cancel.db")
        try:
            env = dict(self.env, AWS_ENDPOINT_URL_S3=proxy.url)
            proc = subprocess.Popen([CLI, "--db", db, "import", "--table", "Big", url],
                                    env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True)
            deadline = time.time() + TIMEOUT
            # Mid-download: the manifests came and data bytes are flowing.
            while proxy.forwarded < 1_000_000 and proc.poll() is None:
                self.assertLess(time.time(), deadline)
                time.sleep(0.02)
            self.assertIsNone(proc.poll(), "the import ended before it could be interrupted")
            sent = time.time()
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=TIMEOUT)
            stopped = time.time() - sent
        finally:
            proxy.stop()
        self.assertEqual(proc.returncode, 130, err)
        self.assertIn("cancelled", err)
        self.assertNotIn("Sanitizer", err)
        # Promptly: not after the remaining megabytes at 400 kB/s.
        self.assertLess(stopped, 20)
        self.assertEqual(self.tables(db), [])

    def test_connection_cut_mid_file_resumes(self):
        import s3_fakes
        url, items = self.big_export()
        proxy = s3_fakes.CuttingProxy(self.server.port, 2_500_000)
        db = os.path.join(self.dir, "cut.db")
        try:
            out = self.import_s3(db, "Big", url, env=dict(self.env, AWS_ENDPOINT_URL_S3=proxy.url),
                                 extra=["--key", "pk:S"])
        finally:
            proxy.stop()
        self.assert_ok(out)
        self.assertEqual(proxy.cuts, 1)
        self.assert_same_items(self.scan_db(db, "Big"), items)


def main():
    global S3RVER_CLI
    S3RVER_CLI, why = s3rver_lib.find_or_install()
    if S3RVER_CLI is None:
        print(f"1..0 # SKIP {why}")
        return lib.SKIP
    if not lib.has_boto3():
        print("1..0 # SKIP boto3 is missing")
        return lib.SKIP
    sys.argv[1:] = sys.argv[2:]
    result = unittest.main(exit=False, verbosity=2).result
    return 0 if result.wasSuccessful() else 1


S3RVER_CLI = None

if __name__ == "__main__":
    sys.exit(main())
