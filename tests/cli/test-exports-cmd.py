#!/usr/bin/env python3
"""`dynoscope-cli exports` and `dynoscope-cli s3`, run as a user runs them, against `serve`:

- with --export-dir: `exports pitr` (describe, --enable, --disable, read-only refused), `exports
  start` full in DynamoDB JSON and Amazon Ion with --wait (every line of the JSON export equal to
  boto3's Scan of the table; the Ion export imported back and equal too), `exports list` over
  more than 25 exports (ListExports' page size) against boto3's, `exports describe` against
  boto3's DescribeExport, incremental exports with --from/--to in both time spellings, Ctrl-C
  while waiting (the export goes on), and the errors (no point-in-time recovery: the message
  and the hint; bad times; unknown ARN; usage);
- with an S3 endpoint (s3rver, installed and started by tests/lib/s3rver_lib.py):
  `s3 put` (file and standard input) and `s3 ls` against boto3, their errors; serve started with
  AWS_ENDPOINT_URL_S3 writes exports into the bucket: boto3 lists the layout, every data file's
  MD5 and item count match manifest-files.json, the items equal boto3's Scan of serve; a missing
  bucket fails the export with FailureCode S3NoSuchBucket.

Usage: test-exports-cmd.py DYNOSCOPE_CLI. Exit 77 when boto3 is missing."""
import base64
import datetime
import gzip
import hashlib
import importlib.util
import json
import os
import pty
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402
import s3rver_lib  # noqa: E402

lib.use_system_python_for_boto3()
HAVE_BOTO3 = lib.has_boto3()

CLI = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"
TIMEOUT = 300  # one command, generous for sanitizer builds on a busy machine


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# tests/server/test-exports.py (and the test-serve.py it loads, which takes the CLI from argv):
# serve's Server, and the wire forms of items for comparison.
_argv = sys.argv
sys.argv = [_argv[0], CLI]
server_exports = load("server_exports", os.path.join(HERE, "..", "server", "test-exports.py"))
sys.argv = _argv
Server = server_exports.Server
wire, norm, next_second = server_exports.wire, server_exports.norm, server_exports.next_second

if HAVE_BOTO3:
    import boto3
    import botocore.config

ENV = lib.client_env({"AWS_REGION": "us-east-1", "LANGUAGE": "C", "LC_ALL": "C.UTF-8"})
SIMPLE_KEY = {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
              "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
              "BillingMode": "PAY_PER_REQUEST"}


def number38(i, v):
    """A number of 38 significant digits, negative for every third i."""
    whole = str(i * 7 + 1)
    fraction = ("%038d" % (i * 104729 + v + 1))[len(whole):]
    return ("-" if i % 3 == 0 else "") + whole + "." + fraction


def corpus_item(i, v=0):
    """Items of every type: 38-digit numbers, sets, binary, nested lists and maps, unicode."""
    it = {"pk": {"S": "k%04d-é✓" % i},
          "n": {"N": number38(i, v)},
          "b": {"B": base64.b64encode(bytes([(i + j + v) % 256 for j in range(i % 17)])).decode()},
          "ss": {"SS": ["s%d" % j for j in range(1 + i % 4)]},
          "ns": {"NS": [str(j * 1.5) for j in range(1, 2 + i % 3)]},
          "flag": {"BOOL": (i + v) % 2 == 0},
          "m": {"M": {"l": {"L": [{"NULL": True}, {"S": ""}, {"N": "-0.000000000000000000001"}]},
                      "v": {"N": str(v)}}}}
    if i % 5 == 0:
        it["bs"] = {"BS": [base64.b64encode(bytes([i % 256, j])).decode() for j in range(3)]}
    if i % 7 == 0:
        it["gone"] = {"NULL": True}
    return it


def iso_ms(dt):
    """A datetime as the CLI prints times: ISO 8601 in UTC, milliseconds when there are some."""
    dt = dt.astimezone(datetime.timezone.utc)
    ms = round(dt.microsecond / 1000)
    whole = (dt.replace(microsecond=0) + datetime.timedelta(milliseconds=ms))
    text = whole.strftime("%Y-%m-%dT%H:%M:%S")
    return text + ("Z" if ms in (0, 1000) else ".%03dZ" % ms)


def fields_of(text):
    """`exports describe`'s lines: {label: value} (labels are padded to 22 columns)."""
    return {line[:22].rstrip(): line[23:] for line in text.splitlines()}


def sanitizer_clean(test, err):
    test.assertNotIn("runtime error:", err)
    test.assertNotIn("Sanitizer", err)


class CliCase(unittest.TestCase):
    """A serve process and the CLI pointed at it."""
    server = None
    serve_args = ()
    serve_env = None

    @classmethod
    def start_server(cls):
        old = dict(os.environ)
        os.environ.clear()
        os.environ.update(cls.serve_env or ENV)
        try:
            cls.server = Server(cls.db, *cls.serve_args)
        finally:
            os.environ.clear()
            os.environ.update(old)
        cfg = botocore.config.Config(retries={"max_attempts": 1}, parameter_validation=False)
        cls.ddb = boto3.client("dynamodb", endpoint_url=cls.server.url, region_name="us-east-1",
                               aws_access_key_id="k", aws_secret_access_key="s", config=cfg)

    @classmethod
    def stop_server(cls):
        if cls.server is not None:
            status, _, err = cls.server.stop(timeout=TIMEOUT)
            cls.server = None
            assert status == 0 and "runtime error:" not in err and "Sanitizer" not in err, err

    def cli(self, *args, stdin=None, endpoint=True, env=None, input_bytes=None):
        pre = ["--endpoint", self.server.url, "--region", "us-east-1"] if endpoint else []
        r = subprocess.run([CLI, *pre, *args], capture_output=True, env=env or ENV,
                           input=input_bytes, stdin=stdin, timeout=TIMEOUT)
        out, err = r.stdout.decode(), r.stderr.decode()
        sanitizer_clean(self, err)
        return r.returncode, out, err

    def ok(self, *args, **kw):
        status, out, err = self.cli(*args, **kw)
        self.assertEqual(status, 0, f"{args}: {err}")
        return out

    def create(self, name, items=()):
        self.ddb.create_table(TableName=name, **SIMPLE_KEY)
        for it in items:
            self.ddb.put_item(TableName=name, Item=self.boto_item(it))

    @staticmethod
    def boto_item(it):
        """A wire item (B as base64) as boto3's client takes it (B as bytes)."""
        def value(v):
            (t, x), = v.items()
            if t == "B":
                return {"B": base64.b64decode(x)}
            if t == "BS":
                return {"BS": [base64.b64decode(b) for b in x]}
            if t == "M":
                return {"M": {k: value(y) for k, y in x.items()}}
            if t == "L":
                return {"L": [value(y) for y in x]}
            return {t: x}
        return {k: value(v) for k, v in it.items()}

    def scan(self, name):
        """The table's items by key, in wire form with sets sorted (boto3's Scan, every page)."""
        items, kw = {}, {"TableName": name}
        while True:
            page = self.ddb.scan(**kw)
            for x in page["Items"]:
                w = norm(wire(x))
                items[w["pk"]["S"]] = w
            if "LastEvaluatedKey" not in page:
                return items
            kw["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def table_arn(self, name):
        return self.ddb.describe_table(TableName=name)["Table"]["TableArn"]

    def start_json(self, *args):
        """`exports start ... --json`: the ExportDescription."""
        return json.loads(self.ok("exports", "start", *args, "--json"))

    def check_data_files(self, files_lines, read):
        """Every manifest-files.json line: the data file's MD5s and item count; its records."""
        records = []
        for line in files_lines:
            entry = json.loads(line)
            gz = read(entry["dataFileS3Key"])
            self.assertEqual(entry["etag"], hashlib.md5(gz).hexdigest())
            self.assertEqual(entry["md5Checksum"],
                             base64.b64encode(hashlib.md5(gz).digest()).decode())
            lines = gzip.decompress(gz).decode().splitlines()
            self.assertEqual(entry["itemCount"], len(lines), entry)
            records += lines
        return records

    def import_back(self, folder, name):
        """The export in FOLDER imported into a new database: its items by key."""
        db = os.path.join(self.tmp, name + ".db")
        self.ok("--db", db, "import", "--table", name, folder, endpoint=False)
        out = self.ok("--db", db, "call", "--compact", "Scan",
                      json.dumps({"TableName": name, "Limit": 100000}), endpoint=False)
        return {x["pk"]["S"]: norm(x) for x in json.loads(out)["Items"]}


# ---------------------------------------------------------------------------------------------
# serve --export-dir


class ExportDirTests(CliCase):
    @classmethod
    def setUpClass(cls):
        if not HAVE_BOTO3:
            raise unittest.SkipTest("boto3 is missing")
        cls.tmp = tempfile.mkdtemp(prefix="dynoscope-exports-cmd-")
        cls.db = os.path.join(cls.tmp, "serve.db")
        cls.root = os.path.join(cls.tmp, "s3")
        os.makedirs(os.path.join(cls.root, "bkt"))
        cls.serve_args = ("--export-dir", cls.root)
        cls.start_server()

    @classmethod
    def tearDownClass(cls):
        cls.stop_server()
        shutil.rmtree(cls.tmp)

    def read_folder_export(self, d):
        bucket = os.path.join(self.root, d["S3Bucket"])
        with open(os.path.join(bucket, d["ExportManifest"]), "rb") as f:
            summary = json.loads(f.read())
        with open(os.path.join(bucket, summary["manifestFilesS3Key"])) as f:
            files = f.read().splitlines()

        def read(key):
            with open(os.path.join(bucket, key), "rb") as f:
                return f.read()
        return summary, self.check_data_files(files, read)

    def test_pitr(self):
        self.create("PitrTable")
        text = self.ok("exports", "pitr", "--table", "PitrTable")
        self.assertRegex(text, r"(?m)^Point-in-time recovery +DISABLED$")
        self.assertRegex(text, r"(?m)^Continuous backups +ENABLED$")
        before = time.time()
        text = self.ok("exports", "pitr", "--table", "PitrTable", "--enable",
                       "--recovery-days", "7")
        self.assertRegex(text, r"(?m)^Point-in-time recovery +ENABLED$")
        self.assertRegex(text, r"(?m)^Recovery period \(days\) +7$")
        d = json.loads(self.ok("exports", "pitr", "--table", "PitrTable", "--json"))
        self.assertEqual(d, self.ddb.describe_continuous_backups(TableName="PitrTable")
                         ["ContinuousBackupsDescription"] | {
                             "PointInTimeRecoveryDescription": d["PointInTimeRecoveryDescription"]})
        p = d["PointInTimeRecoveryDescription"]
        self.assertEqual(p["PointInTimeRecoveryStatus"], "ENABLED")
        self.assertGreaterEqual(p["EarliestRestorableDateTime"], before - 1)
        m = re.search(r"(?m)^Earliest restorable +(\S+)$", text)
        self.assertRegex(m.group(1), r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$")
        # Read-only: refused before anything is sent, the table unchanged.
        for flag in ("--disable", "--enable"):
            status, _, err = self.cli("--read-only", "exports", "pitr", "--table", "PitrTable",
                                      flag)
            self.assertEqual(status, 1, err)
            self.assertIn("read-only", err)
        self.assertEqual(self.ddb.describe_continuous_backups(TableName="PitrTable")
                         ["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
                         ["PointInTimeRecoveryStatus"], "ENABLED")
        text = self.ok("exports", "pitr", "--table", "PitrTable", "--disable")
        self.assertRegex(text, r"(?m)^Point-in-time recovery +DISABLED$")
        for bad in (["--enable", "--disable"], ["--recovery-days", "3"],
                    ["--enable", "--recovery-days", "36"], []):
            args = ["exports", "pitr", *bad] + (["--table", "PitrTable"] if bad else [])
            status, _, err = self.cli(*args)
            self.assertEqual(status, 2, (bad, err))
            self.assertIn("Usage: dynoscope-cli", err)
        status, _, err = self.cli("exports", "pitr", "--table", "NoSuchTable")
        self.assertEqual(status, 1)
        self.assertTrue(err.startswith("TableNotFoundException: "), err)

    def test_full_exports_json_and_ion(self):
        items = [corpus_item(i) for i in range(150)]
        self.create("Wide", items)
        self.ok("exports", "pitr", "--table", "Wide", "--enable")
        want = self.scan("Wide")
        self.assertEqual(len(want), len(items))
        for fmt, output in (("json", "DYNAMODB_JSON"), ("ion", "ION")):
            d = self.start_json("--table", "Wide", "--bucket", "bkt", "--prefix", "full/" + fmt,
                                "--format", fmt, "--wait")
            self.assertEqual((d["ExportStatus"], d["ExportFormat"], d["ExportType"]),
                             ("COMPLETED", output, "FULL_EXPORT"), d)
            self.assertEqual(d["ItemCount"], len(items))
            self.assertEqual(d["S3Prefix"], "full/" + fmt)
            summary, lines = self.read_folder_export(d)
            self.assertEqual(summary["outputFormat"], output)
            self.assertEqual(summary["itemCount"], len(items))
            if fmt == "json":
                got = {}
                for line in lines:
                    it = norm(json.loads(line)["Item"])
                    got[it["pk"]["S"]] = it
                self.assertEqual(got, want)
            else:
                self.assertTrue(all(x.startswith("$ion_1_0 {Item:{") for x in lines), lines[0])
            folder = os.path.dirname(os.path.join(self.root, "bkt", d["ExportManifest"]))
            self.assertEqual(self.import_back(folder, "Back" + fmt.capitalize()), want)
        # Without --wait: the ARN alone, which describes as boto3 does.
        arn = self.ok("exports", "start", "--table", "Wide", "--bucket", "bkt").strip()
        self.assertRegex(arn, r"^arn:aws:dynamodb:[^:]+:\d+:table/Wide/export/\S+$")
        self.wait_boto(arn)

    def wait_boto(self, arn):
        deadline = time.time() + TIMEOUT
        while True:
            d = self.ddb.describe_export(ExportArn=arn)["ExportDescription"]
            if d["ExportStatus"] != "IN_PROGRESS":
                return d
            self.assertLess(time.time(), deadline)
            time.sleep(0.05)

    def test_list_pages_and_describe(self):
        self.create("Many", [corpus_item(i) for i in range(3)])
        self.ok("exports", "pitr", "--table", "Many", "--enable")
        arns = [self.ok("exports", "start", "--table", "Many", "--bucket", "bkt", "--prefix",
                        "many", "--format", ["json", "ion"][i % 2]).strip() for i in range(28)]
        status, out, err = self.cli("exports", "start", "--table", "Many", "--bucket",
                                    "no-such-folder", "--wait", "--json")
        self.assertEqual(status, 1, err)
        self.assertIn("the export ended FAILED: S3NoSuchBucket: ", err)
        arns.append(json.loads(out)["ExportArn"])
        for arn in arns:
            self.wait_boto(arn)
        boto_arns, kw = [], {"TableArn": self.table_arn("Many")}
        while True:
            page = self.ddb.list_exports(**kw)
            boto_arns += [s["ExportArn"] for s in page["ExportSummaries"]]
            if not page.get("NextToken"):
                break
            kw["NextToken"] = page["NextToken"]
        self.assertEqual(boto_arns, arns)
        lines = self.ok("exports", "list", "--table", "Many").splitlines()
        self.assertEqual(len(lines), len(arns))
        for line, arn in zip(lines, arns):
            d = self.ddb.describe_export(ExportArn=arn)["ExportDescription"]
            status, when, etype, fmt, listed = line.split()
            self.assertEqual((status, etype, fmt, listed),
                             (d["ExportStatus"], "FULL_EXPORT", d["ExportFormat"], arn))
            self.assertEqual(when, iso_ms(d["ExportTime"]))
        # The account's list holds them too (other tests' exports as well).
        everything = self.ok("exports", "list")
        for arn in arns:
            self.assertIn(arn, everything)
        listed = json.loads(self.ok("exports", "list", "--table", "Many", "--json"))
        self.assertEqual([x["ExportArn"] for x in listed], arns)
        # describe: every line against boto3's DescribeExport.
        for arn in (arns[0], arns[1], arns[-1]):
            raw = json.loads(self.ok("exports", "describe", arn, "--json"))
            d = self.ddb.describe_export(ExportArn=arn)["ExportDescription"]
            self.assertEqual(raw["ExportArn"], arn)
            self.assertEqual(raw["ExportStatus"], d["ExportStatus"])
            text = self.ok("exports", "describe", arn)
            fields = fields_of(text)
            self.assertEqual(fields["Export"], arn)
            self.assertEqual(fields["Status"], d["ExportStatus"])
            self.assertEqual(fields["Format"], d["ExportFormat"])
            self.assertEqual(fields["Table"], self.table_arn("Many"))
            self.assertEqual(fields["S3 location"], "s3://%s/%s" % (d["S3Bucket"],
                                                                   d.get("S3Prefix", "")))
            if d["ExportStatus"] == "COMPLETED":
                self.assertEqual(fields["Items"], str(d["ItemCount"]))
                self.assertEqual(fields["Size"], "%d bytes" % d["BilledSizeBytes"])
                self.assertEqual(fields["Manifest"],
                                 "s3://%s/%s" % (d["S3Bucket"], d["ExportManifest"]))
                self.assertNotIn("Failure", fields)
            else:
                self.assertEqual(fields["Failure"],
                                 "%s: %s" % (d["FailureCode"], d["FailureMessage"]))
                self.assertEqual(d["FailureCode"], "S3NoSuchBucket")

    def test_incremental(self):
        self.create("Changes", [corpus_item(i) for i in range(40)])
        self.ok("exports", "pitr", "--table", "Changes", "--enable")
        t1 = next_second()
        before = self.scan("Changes")
        for i in range(10):
            self.ddb.put_item(TableName="Changes", Item=self.boto_item(corpus_item(i, 9)))
        for i in range(10, 15):
            self.ddb.delete_item(TableName="Changes", Key={"pk": corpus_item(i)["pk"]})
        for i in range(100, 104):
            self.ddb.put_item(TableName="Changes", Item=self.boto_item(corpus_item(i)))
        t2 = next_second()
        after = self.scan("Changes")
        self.ddb.put_item(TableName="Changes", Item=self.boto_item(corpus_item(200)))
        changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
        self.assertEqual(len(changed), 19)
        iso = lambda t: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))  # noqa: E731
        for view, frm, to in (("NEW_AND_OLD_IMAGES", iso(t1), str(t2)),
                              ("NEW_IMAGE", str(t1), iso(t2)[:-1])):  # no zone: UTC
            d = self.start_json("--table", "Changes", "--bucket", "bkt", "--prefix", "inc",
                                "--incremental", "--from", frm, "--to", to, "--view", view,
                                "--wait")
            self.assertEqual((d["ExportStatus"], d["ExportType"]),
                             ("COMPLETED", "INCREMENTAL_EXPORT"), d)
            self.assertEqual(d["IncrementalExportSpecification"],
                             {"ExportFromTime": t1, "ExportToTime": t2, "ExportViewType": view})
            _, lines = self.read_folder_export(d)
            got = {}
            for line in lines:
                r = json.loads(line)
                pk = r["Keys"]["pk"]["S"]
                got[pk] = r
                if pk in after:
                    self.assertEqual(norm(r["NewImage"]), after[pk])
                else:
                    self.assertNotIn("NewImage", r)
                if view == "NEW_AND_OLD_IMAGES" and pk in before:
                    self.assertEqual(norm(r["OldImage"]), before[pk])
                else:
                    self.assertNotIn("OldImage", r)
            self.assertEqual(set(got), changed)
        text = self.ok("exports", "describe", d["ExportArn"])
        self.assertRegex(text, r"(?m)^View \(incremental\) +NEW_IMAGE$")
        self.assertRegex(text, r"(?m)^From \(incremental\) +%s$" % re.escape(iso(t1)))

    def test_serve_export_options(self):
        r = subprocess.run([CLI, "--db", os.path.join(self.tmp, "other.db"), "serve", "--port",
                            "0", "--export-dir", self.root, "--export-s3"], capture_output=True,
                           text=True, env=ENV, timeout=TIMEOUT)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("--export-dir and --export-s3 cannot be used together", r.stderr)

    def test_errors(self):
        self.create("NoPitr", [corpus_item(1)])
        status, out, err = self.cli("exports", "start", "--table", "NoPitr", "--bucket", "bkt")
        self.assertEqual((status, out), (1, ""))
        self.assertEqual(err.splitlines()[0], "PointInTimeRecoveryUnavailableException: Point in "
                         "time recovery is not enabled for table 'NoPitr'")
        self.assertIn("turn it on with: dynoscope-cli --endpoint %s --region us-east-1 exports "
                      "pitr --table NoPitr --enable" % self.server.url, err)
        self.assertEqual(self.ddb.list_exports(TableArn=self.table_arn("NoPitr"))
                         ["ExportSummaries"], [])
        self.ok("exports", "pitr", "--table", "NoPitr", "--enable")
        bad_times = ["yesterday", "2026-13-01T00:00:00Z", "1e9", "", "12:00", "-5",
                     "2026-01-01T25:00:00Z", "0x10", "1.2.3", "17e8", "inf"]
        for t in bad_times:
            for args in (["--time", t], ["--incremental", "--from", t],
                         ["--incremental", "--from", "1700000000", "--to", t]):
                status, _, err = self.cli("exports", "start", "--table", "NoPitr", "--bucket",
                                          "bkt", *args)
                self.assertEqual(status, 2, (args, err))
                if t:
                    self.assertIn("is not a time", err)
        usage = [[], ["--table", "NoPitr"], ["--bucket", "bkt"],
                 ["--table", "NoPitr", "--bucket", "bkt", "--format", "csv"],
                 ["--table", "NoPitr", "--bucket", "bkt", "--from", "1700000000"],
                 ["--table", "NoPitr", "--bucket", "bkt", "--incremental"],
                 ["--table", "NoPitr", "--bucket", "bkt", "--incremental", "--from", "1700000000",
                  "--time", "1700000000"],
                 ["--table", "NoPitr", "--bucket", "bkt", "--incremental", "--from", "1700000100",
                  "--to", "1700000000"],
                 ["--table", "NoPitr", "--bucket", "bkt", "--view", "NEW_IMAGE"],
                 ["--table", "NoPitr", "--bucket", "bkt", "stray"]]
        for args in usage:
            status, _, err = self.cli("exports", "start", *args)
            self.assertEqual(status, 2, (args, err))
            self.assertIn("Usage: dynoscope-cli", err)
        # Times DynamoDB refuses: its error, exit 1.
        status, _, err = self.cli("exports", "start", "--table", "NoPitr", "--bucket", "bkt",
                                  "--time", "2001-01-01T00:00:00Z")
        self.assertEqual(status, 1)
        self.assertTrue(err.startswith("InvalidExportTimeException: "), err)
        arn = self.table_arn("NoPitr") + "/export/00000000000000-00000000"
        status, out, err = self.cli("exports", "describe", arn)
        self.assertEqual((status, out), (1, ""))
        self.assertTrue(err.startswith("ExportNotFoundException: "), err)
        for args in (["describe"], ["describe", arn, arn], ["nope"], [], ["list", "x"]):
            status, _, err = self.cli("exports", *args)
            self.assertEqual(status, 2, (args, err))
        # Read-only: refused, nothing started.
        status, _, err = self.cli("--read-only", "exports", "start", "--table", "NoPitr",
                                  "--bucket", "bkt")
        self.assertEqual(status, 1)
        self.assertIn("read-only: ExportTableToPointInTime", err)
        status, _, err = self.cli("exports", "list", "--table", "Missing")
        self.assertEqual(status, 1)
        self.assertTrue(err.startswith("ResourceNotFoundException: "), err)
        self.assertEqual(self.ddb.list_exports(TableArn=self.table_arn("NoPitr"))
                         ["ExportSummaries"], [])


# ---------------------------------------------------------------------------------------------
# Ctrl-C while waiting: an S3 endpoint that never answers keeps the export IN_PROGRESS.


class Silent:
    """A TCP server that accepts connections and never answers them, until stopped."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.url = "http://127.0.0.1:%d" % self.sock.getsockname()[1]
        self.conns, self.stopped = [], False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stopped:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)

    def stop(self):
        if self.stopped:
            return
        self.stopped = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes accept(), unlike close() alone
        except OSError:
            pass
        self.sock.close()
        self.thread.join()
        for c in self.conns:
            c.close()


class InterruptTests(CliCase):
    @classmethod
    def setUpClass(cls):
        if not HAVE_BOTO3:
            raise unittest.SkipTest("boto3 is missing")
        cls.tmp = tempfile.mkdtemp(prefix="dynoscope-exports-int-")
        cls.db = os.path.join(cls.tmp, "serve.db")
        cls.silent = Silent()
        cls.serve_env = dict(ENV, AWS_ENDPOINT_URL_S3=cls.silent.url,
                             AWS_ACCESS_KEY_ID="S3RVER", AWS_SECRET_ACCESS_KEY="S3RVER")
        cls.start_server()

    @classmethod
    def tearDownClass(cls):
        cls.silent.stop()
        cls.stop_server()
        shutil.rmtree(cls.tmp)

    def test_ctrl_c_stops_waiting_only(self):
        self.create("Slow", [corpus_item(1)])
        self.ok("exports", "pitr", "--table", "Slow", "--enable")
        master, slave = pty.openpty()
        proc = subprocess.Popen([CLI, "--endpoint", self.server.url, "--region", "us-east-1",
                                 "exports", "start", "--table", "Slow", "--bucket", "bkt",
                                 "--wait"], stdout=subprocess.PIPE, stderr=slave, env=ENV)
        os.close(slave)
        seen = b""
        deadline = time.time() + TIMEOUT
        while "s (Ctrl-C stops waiting" not in seen.decode(errors="replace"):
            self.assertLess(time.time(), deadline, seen)
            seen += os.read(master, 4096)
        exports = self.ddb.list_exports(TableArn=self.table_arn("Slow"))["ExportSummaries"]
        self.assertEqual([e["ExportStatus"] for e in exports], ["IN_PROGRESS"])
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=TIMEOUT)
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        os.close(master)
        err = seen.decode(errors="replace")
        sanitizer_clean(self, err)
        self.assertEqual(proc.returncode, 130, err)
        self.assertEqual(out, b"")
        self.assertIn("stopped waiting; the export was not cancelled and goes on", err)
        self.assertIn("dynoscope-cli exports describe " + exports[0]["ExportArn"], err)
        d = self.ddb.describe_export(ExportArn=exports[0]["ExportArn"])["ExportDescription"]
        self.assertEqual(d["ExportStatus"], "IN_PROGRESS")
        # The endpoint goes away: the PUT fails and so does the export, as AWS's would.
        self.silent.stop()
        deadline = time.time() + TIMEOUT
        while d["ExportStatus"] == "IN_PROGRESS":
            self.assertLess(time.time(), deadline)
            time.sleep(0.1)
            d = self.ddb.describe_export(ExportArn=exports[0]["ExportArn"])["ExportDescription"]
        self.assertEqual((d["ExportStatus"], d["FailureCode"]), ("FAILED", "UNKNOWN"), d)


# ---------------------------------------------------------------------------------------------
# s3rver


S3RVER_CLI, S3RVER_MISSING = None, "not looked for"


class S3rverTests(CliCase):
    bucket = "dynoscope-serve-exports"

    @classmethod
    def setUpClass(cls):
        if not HAVE_BOTO3:
            raise unittest.SkipTest("boto3 is missing")
        if S3RVER_CLI is None:
            raise unittest.SkipTest(S3RVER_MISSING)
        cls.tmp = tempfile.mkdtemp(prefix="dynoscope-exports-s3-")
        cls.s3rver = s3rver_lib.S3rver(S3RVER_CLI, os.path.join(cls.tmp, "s3rver"))
        os.makedirs(cls.s3rver.directory)
        if not cls.s3rver.start():
            raise RuntimeError("s3rver did not start")
        cls.s3 = cls.s3rver.boto3_client()
        cls.s3.create_bucket(Bucket=cls.bucket)
        cls.s3_env = cls.s3rver.client_env({"LANGUAGE": "C", "LC_ALL": "C.UTF-8"})
        cls.db = os.path.join(cls.tmp, "serve.db")
        cls.serve_env = cls.s3_env
        cls.start_server()

    @classmethod
    def tearDownClass(cls):
        cls.stop_server()
        cls.s3rver.stop()
        shutil.rmtree(cls.tmp)

    def s3_cli(self, *args, **kw):
        return self.cli("s3", *args, endpoint=False, env=self.s3_env, **kw)

    def list_keys(self, prefix):
        keys, kw = {}, {"Bucket": self.bucket, "Prefix": prefix}
        while True:
            page = self.s3.list_objects_v2(**kw)
            for o in page.get("Contents", []):
                keys[o["Key"]] = o["Size"]
            if not page.get("IsTruncated"):
                return keys
            kw["ContinuationToken"] = page["NextContinuationToken"]

    def test_s3_put_and_ls(self):
        files = {"put/a.bin": os.urandom(100_000), "put/empty": b"",
                 "put/deep/ü ñ+=&.txt": "unicode é".encode(), "put/deep/x/y": b"y" * 3}
        for key, data in files.items():
            path = os.path.join(self.tmp, "upload")
            with open(path, "wb") as f:
                f.write(data)
            status, out, err = self.s3_cli("put", "s3://%s/%s" % (self.bucket, key), path)
            self.assertEqual(status, 0, err)
            self.assertEqual(out.strip(), '"%s"' % hashlib.md5(data).hexdigest())
            self.assertEqual(self.s3.get_object(Bucket=self.bucket, Key=key)["Body"].read(), data)
        data = os.urandom(70_000)
        status, out, err = self.s3_cli("put", "s3://%s/put/stdin" % self.bucket, "-",
                                       input_bytes=data)
        self.assertEqual(status, 0, err)
        self.assertEqual(self.s3.get_object(Bucket=self.bucket, Key="put/stdin")["Body"].read(),
                         data)
        files["put/stdin"] = data
        status, out, err = self.s3_cli("ls", "--recursive", "s3://%s/put/" % self.bucket)
        self.assertEqual(status, 0, err)
        listed = {}
        for line in out.splitlines():
            m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ) +(\d+) (.+)", line)
            self.assertIsNotNone(m, line)
            listed[m.group(3)] = int(m.group(2))
        self.assertEqual(listed, {k: len(v) for k, v in files.items()})
        self.assertEqual(listed, self.list_keys("put/"))
        status, out, err = self.s3_cli("ls", "s3://%s/put/" % self.bucket)
        self.assertEqual(status, 0, err)
        self.assertIn("PRE put/deep/", out)
        self.assertEqual(len(out.splitlines()), 4)  # a.bin, empty, stdin and the folder
        # Errors: S3's name first, exit 1; usage, exit 2; read-only refuses put.
        status, _, err = self.s3_cli("put", "s3://no-such-bucket-here/k", "-", input_bytes=b"x")
        self.assertEqual(status, 1)
        self.assertTrue(err.startswith("NoSuchBucket: "), err)
        status, _, err = self.s3_cli("ls", "s3://no-such-bucket-here")
        self.assertEqual(status, 1)
        self.assertTrue(err.startswith("NoSuchBucket: "), err)
        for args in (["put"], ["put", "s3://b/k"], ["put", "http://b/k", "-"],
                     ["put", "s3://%s" % self.bucket, "-"], ["put", "s3://b/k", "-", "x"],
                     ["ls"], ["ls", "s3://"], ["cp"], []):
            status, _, err = self.s3_cli(*args)
            self.assertEqual(status, 2, (args, err))
        status, _, err = self.cli("--read-only", "s3", "put", "s3://%s/ro" % self.bucket, "-",
                                  endpoint=False, env=self.s3_env, input_bytes=b"x")
        self.assertEqual(status, 1)
        self.assertIn("read-only", err)
        self.assertNotIn("ro", self.list_keys("ro"))
        status, _, err = self.s3_cli("put", "s3://%s/x" % self.bucket, "/no/such/file")
        self.assertEqual(status, 1)

    def test_serve_exports_into_the_bucket(self):
        items = [corpus_item(i) for i in range(120)]
        self.create("Bucketed", items)
        self.ok("exports", "pitr", "--table", "Bucketed", "--enable")
        want = self.scan("Bucketed")
        for fmt, output, ext in (("json", "DYNAMODB_JSON", ".json.gz"), ("ion", "ION", ".ion.gz")):
            prefix = "serve/" + fmt
            d = self.start_json("--table", "Bucketed", "--bucket", self.bucket, "--prefix", prefix,
                                "--format", fmt, "--wait")
            self.assertEqual((d["ExportStatus"], d["ItemCount"]), ("COMPLETED", len(items)), d)
            export_id = d["ExportArn"].rsplit("/", 1)[1]
            folder = "%s/AWSDynamoDB/%s/" % (prefix, export_id)
            keys = self.list_keys(prefix + "/")
            names = sorted(k[len(folder):] for k in keys if not k.startswith(folder + "data/"))
            self.assertEqual(names, ["_started", "manifest-files.checksum", "manifest-files.json",
                                     "manifest-summary.checksum", "manifest-summary.json"])
            data_keys = [k for k in keys if k.startswith(folder + "data/")]
            self.assertTrue(data_keys)
            self.assertTrue(all(re.fullmatch(r"[a-z2-7]{26}" + re.escape(ext),
                                             k[len(folder) + 5:]) for k in data_keys), data_keys)
            self.assertEqual(keys[folder + "_started"], 0)
            get = lambda key: self.s3.get_object(Bucket=self.bucket, Key=key)["Body"].read()  # noqa: E731
            summary_raw = get(d["ExportManifest"])
            self.assertEqual(d["ExportManifest"], folder + "manifest-summary.json")
            self.assertEqual(get(folder + "manifest-summary.checksum").decode(),
                             hashlib.md5(summary_raw).hexdigest())
            summary = json.loads(summary_raw)
            self.assertEqual((summary["outputFormat"], summary["s3Bucket"], summary["itemCount"]),
                             (output, self.bucket, len(items)))
            files_raw = get(summary["manifestFilesS3Key"])
            self.assertEqual(get(folder + "manifest-files.checksum").decode(),
                             hashlib.md5(files_raw).hexdigest())
            files_lines = files_raw.decode().splitlines()
            self.assertEqual(sorted(json.loads(x)["dataFileS3Key"] for x in files_lines),
                             sorted(data_keys))
            lines = self.check_data_files(files_lines, get)
            self.assertEqual(len(lines), len(items))
            if fmt == "json":
                got = {}
                for line in lines:
                    it = norm(json.loads(line)["Item"])
                    got[it["pk"]["S"]] = it
                self.assertEqual(got, want)
            # The bucket copied down, then imported: the same items, in either format.
            local = os.path.join(self.tmp, "down-" + fmt)
            for key in keys:
                path = os.path.join(local, key)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as f:
                    f.write(get(key))
            self.assertEqual(self.import_back(os.path.join(local, folder), "Copy" + fmt), want)
        # A bucket that does not exist: FAILED with S3NoSuchBucket, as AWS says it.
        status, out, err = self.cli("exports", "start", "--table", "Bucketed", "--bucket",
                                    "no-such-bucket-here", "--wait")
        self.assertEqual(status, 1, err)
        self.assertIn("the export ended FAILED: S3NoSuchBucket: NoSuchBucket: ", err)
        arn = re.search(r"(?m)^Export +(\S+)$", out).group(1)
        d = self.ddb.describe_export(ExportArn=arn)["ExportDescription"]
        self.assertEqual((d["ExportStatus"], d["FailureCode"]), ("FAILED", "S3NoSuchBucket"))
        self.assertIn("no-such-bucket-here", d["FailureMessage"])


def main():
    global S3RVER_CLI, S3RVER_MISSING
    S3RVER_CLI, S3RVER_MISSING = s3rver_lib.find_or_install()
    program = unittest.main(verbosity=2, exit=False)
    if not program.result.wasSuccessful():
        return 1
    return 0 if HAVE_BOTO3 else lib.SKIP


if __name__ == "__main__":
    sys.exit(main())
