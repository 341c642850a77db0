#!/usr/bin/env python3
# Point-in-time recovery and exports on `dynoscope-cli serve --export-dir DIR`, through boto3:
# UpdateContinuousBackups / DescribeContinuousBackups as AWS answers them; full and incremental
# exports in DynamoDB JSON written into DIR/BUCKET in AWS's layout, waited for with
# DescribeExport, every line read back and compared with the table at ExportTime (a change
# after it absent, an item deleted after it present); manifests' counts and MD5s; DescribeExport
# after a restart; ListExports paging; ClientToken; the errors. (Ion is read back by
# tests/engine/test-exports.c with core/ion.h's reader.) boto3 sends timestamps in whole seconds,
# so the writes are placed around second boundaries.
import base64
import gzip
import hashlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

lib.use_system_python_for_boto3()
HAVE_BOTO3 = lib.has_boto3()
if HAVE_BOTO3:
    import boto3
    import botocore.config
    import botocore.exceptions

_spec = importlib.util.spec_from_file_location(
    "test_serve", os.path.join(os.path.dirname(os.path.abspath(__file__)), "test-serve.py"))
serve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve)
Server = serve.Server

TABLE = "Orders"
ARN = "arn:aws:dynamodb:ddblocal:000000000000:table/" + TABLE


def item(i, v=0):
    return {"pk": {"S": "o%03d" % i}, "n": {"N": "%d.%s%d" % (i, "1" * 30, v)},
            "tags": {"SS": ["a%d" % i, "b%d" % v]}, "blob": {"B": bytes([i % 256, v % 256, 0])},
            "nested": {"M": {"l": {"L": [{"NULL": True}, {"BOOL": v % 2 == 0}]}}}}


def wire(it):
    """An item as boto3 returned it, back to its wire form (B as base64) for comparison."""
    out = {}
    for k, v in it.items():
        out[k] = _wire_value(v)
    return out


def _wire_value(v):
    (t, x), = v.items()
    if t == "B":
        return {"B": base64.b64encode(x).decode()}
    if t == "BS":
        return {"BS": sorted(base64.b64encode(b).decode() for b in x)}
    if t in ("SS", "NS"):
        return {t: sorted(x)}
    if t == "M":
        return {"M": {k: _wire_value(y) for k, y in x.items()}}
    if t == "L":
        return {"L": [_wire_value(y) for y in x]}
    return {t: x}


def norm(it):
    """An item read from an export line, with sets sorted."""
    return {k: _norm_value(v) for k, v in it.items()}


def _norm_value(v):
    (t, x), = v.items()
    if t in ("SS", "NS", "BS"):
        return {t: sorted(x)}
    if t == "M":
        return {"M": {k: _norm_value(y) for k, y in x.items()}}
    if t == "L":
        return {"L": [_norm_value(y) for y in x]}
    return {t: x}


def next_second():
    """Waits until a new whole second has begun; returns it."""
    t = int(time.time()) + 1
    while time.time() < t + 0.05:
        time.sleep(0.01)
    return t


class ExportsTestCase(unittest.TestCase):
    def setUp(self):
        if not HAVE_BOTO3:
            self.skipTest("boto3 is missing")
        self.dir = tempfile.mkdtemp(prefix="dynoscope-exports-test-")
        self.db = os.path.join(self.dir, "test.db")
        self.root = os.path.join(self.dir, "s3")
        os.makedirs(os.path.join(self.root, "bkt"))
        self.start()

    def start(self):
        self.server = Server(self.db, "--export-dir", self.root)
        cfg = botocore.config.Config(retries={"max_attempts": 1}, parameter_validation=False)
        self.ddb = boto3.client("dynamodb", endpoint_url=self.server.url, region_name="us-east-1",
                                aws_access_key_id="k", aws_secret_access_key="s", config=cfg)

    def restart(self):
        status, _, err = self.server.stop()
        self.assertEqual(status, 0, err)
        self.start()

    def tearDown(self):
        if hasattr(self, "server"):
            status, _, err = self.server.stop()
            self.assertEqual(status, 0, err)
            shutil.rmtree(self.dir)

    def create(self):
        self.ddb.create_table(
            TableName=TABLE, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])

    def raw(self, op, body):
        """A call in JSON, for members older botocore models lack (RecoveryPeriodInDays,
        ExportType): (status, parsed body)."""
        status, _, data = self.server.raw(json.dumps(body).encode(), serve.json_headers(op))
        return status, json.loads(data)

    def enable(self, **extra):
        spec = {"PointInTimeRecoveryEnabled": True, **extra}
        if not extra:
            return self.ddb.update_continuous_backups(
                TableName=TABLE,
                PointInTimeRecoverySpecification=spec)["ContinuousBackupsDescription"]
        status, body = self.raw("UpdateContinuousBackups",
                                {"TableName": TABLE, "PointInTimeRecoverySpecification": spec})
        self.assertEqual(status, 200, body)
        return body["ContinuousBackupsDescription"]

    def wait(self, arn):
        deadline = time.time() + 120
        while True:
            d = self.ddb.describe_export(ExportArn=arn)["ExportDescription"]
            if d["ExportStatus"] != "IN_PROGRESS":
                return d
            self.assertLess(time.time(), deadline)
            time.sleep(0.02)

    def read_export(self, d, incremental=False):
        """The export's records (parsed lines), its manifests checked."""
        bucket = os.path.join(self.root, d["S3Bucket"])
        summary_path = os.path.join(bucket, d["ExportManifest"])
        folder = os.path.dirname(summary_path)
        self.assertTrue(os.path.isfile(os.path.join(folder, "_started")))
        with open(summary_path, "rb") as f:
            raw = f.read()
        with open(os.path.join(folder, "manifest-summary.checksum")) as f:
            self.assertEqual(f.read(), hashlib.md5(raw).hexdigest())
        summary = json.loads(raw)
        self.assertEqual(summary["exportArn"], d["ExportArn"])
        self.assertEqual(summary["tableArn"], ARN)
        self.assertEqual(summary["s3Bucket"], d["S3Bucket"])
        self.assertEqual(summary["outputFormat"], "DYNAMODB_JSON")
        self.assertEqual(summary["exportType"],
                         "INCREMENTAL_EXPORT" if incremental else "FULL_EXPORT")
        with open(os.path.join(bucket, summary["manifestFilesS3Key"]), "rb") as f:
            files_raw = f.read()
        with open(os.path.join(folder, "manifest-files.checksum")) as f:
            self.assertEqual(f.read(), hashlib.md5(files_raw).hexdigest())
        records = []
        for line in files_raw.decode().splitlines():
            entry = json.loads(line)
            with open(os.path.join(bucket, entry["dataFileS3Key"]), "rb") as f:
                gz = f.read()
            self.assertEqual(entry["etag"], hashlib.md5(gz).hexdigest())
            self.assertEqual(entry["md5Checksum"], base64.b64encode(hashlib.md5(gz).digest()).decode())
            lines = gzip.decompress(gz).decode().splitlines()
            self.assertEqual(entry["itemCount"], len(lines))
            records += [json.loads(x) for x in lines]
        self.assertEqual(summary["itemCount"], len(records))
        self.assertEqual(d["ItemCount"], len(records))
        return records

    def test_continuous_backups(self):
        self.create()
        d = self.ddb.describe_continuous_backups(TableName=TABLE)["ContinuousBackupsDescription"]
        self.assertEqual(d, {"ContinuousBackupsStatus": "ENABLED",
                             "PointInTimeRecoveryDescription":
                                 {"PointInTimeRecoveryStatus": "DISABLED"}})
        before = time.time()
        d = self.enable(RecoveryPeriodInDays=3)["PointInTimeRecoveryDescription"]
        self.assertEqual(d["PointInTimeRecoveryStatus"], "ENABLED")
        self.assertEqual(d["RecoveryPeriodInDays"], 3)
        self.assertGreaterEqual(d["EarliestRestorableDateTime"], before - 0.01)
        self.assertLessEqual(d["EarliestRestorableDateTime"], d["LatestRestorableDateTime"])
        self.assertLessEqual(d["LatestRestorableDateTime"], time.time() + 0.01)
        # By ARN too, through boto3; kept across a restart.
        self.restart()
        d2 = self.ddb.describe_continuous_backups(TableName=ARN)["ContinuousBackupsDescription"]
        p2 = d2["PointInTimeRecoveryDescription"]
        self.assertEqual(d2["ContinuousBackupsStatus"], "ENABLED")
        self.assertEqual(p2["PointInTimeRecoveryStatus"], "ENABLED")
        self.assertAlmostEqual(p2["EarliestRestorableDateTime"].timestamp(),
                               d["EarliestRestorableDateTime"], delta=0.001)
        status, body = self.raw("DescribeContinuousBackups", {"TableName": TABLE})
        self.assertEqual(body["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
                         ["RecoveryPeriodInDays"], 3)
        for bad in (0, 36):
            status, body = self.raw("UpdateContinuousBackups", {
                "TableName": TABLE, "PointInTimeRecoverySpecification": {
                    "PointInTimeRecoveryEnabled": True, "RecoveryPeriodInDays": bad}})
            self.assertEqual(status, 400)
            self.assertTrue(body["__type"].endswith("#ValidationException"), body)
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            self.ddb.describe_continuous_backups(TableName="Nope")
        self.assertEqual(cm.exception.response["Error"]["Code"], "TableNotFoundException")
        d = self.ddb.update_continuous_backups(
            TableName=TABLE,
            PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": False})
        self.assertEqual(d["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"],
                         {"PointInTimeRecoveryStatus": "DISABLED"})

    def test_exports(self):
        self.create()
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            self.ddb.export_table_to_point_in_time(TableArn=ARN, S3Bucket="bkt")
        self.assertEqual(cm.exception.response["Error"]["Code"],
                         "PointInTimeRecoveryUnavailableException")
        self.assertEqual(cm.exception.response["Error"]["Message"],
                         "Point in time recovery is not enabled for table '%s'" % TABLE)
        self.enable()
        next_second()
        state = {}
        for i in range(30):
            self.ddb.put_item(TableName=TABLE, Item=item(i))
            state["o%03d" % i] = item(i)
        t1 = next_second()
        s1 = {wire(x)["pk"]["S"]: wire(x) for x in self.ddb.scan(TableName=TABLE)["Items"]}
        self.assertEqual(len(s1), len(state))
        # After t1: updates, deletes, inserts, a transaction and a batch.
        for i in range(5):
            self.ddb.put_item(TableName=TABLE, Item=item(i, 7))
        self.ddb.update_item(TableName=TABLE, Key={"pk": {"S": "o000"}},
                             UpdateExpression="SET n = :n", ExpressionAttributeValues={":n": {"N": "-1"}})
        for i in range(5, 10):
            self.ddb.delete_item(TableName=TABLE, Key={"pk": {"S": "o%03d" % i}})
        self.ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": TABLE, "Item": item(40)}},
            {"Delete": {"TableName": TABLE, "Key": {"pk": {"S": "o010"}}}}])
        self.ddb.batch_write_item(RequestItems={TABLE: [
            {"PutRequest": {"Item": item(41)}}, {"PutRequest": {"Item": item(42)}},
            {"DeleteRequest": {"Key": {"pk": {"S": "o011"}}}}]})
        self.ddb.execute_statement(Statement="UPDATE \"%s\" SET x = 'pq' WHERE pk = 'o012'" % TABLE)
        self.ddb.put_item(TableName=TABLE, Item=item(43))
        self.ddb.delete_item(TableName=TABLE, Key={"pk": {"S": "o043"}})
        t2 = next_second()
        now = {wire(x)["pk"]["S"]: wire(x) for x in self.ddb.scan(TableName=TABLE)["Items"]}
        # After t2: must appear in no export at t1 or t2.
        self.ddb.put_item(TableName=TABLE, Item=item(50))
        self.ddb.delete_item(TableName=TABLE, Key={"pk": {"S": "o020"}})
        next_second()

        arns = []
        for t, want in ((t1, s1), (t2, now)):
            e = self.ddb.export_table_to_point_in_time(
                TableArn=ARN, S3Bucket="bkt", S3Prefix="exports/run", ExportTime=t,
                ExportFormat="DYNAMODB_JSON")["ExportDescription"]
            self.assertEqual(e["ExportStatus"], "IN_PROGRESS")
            self.assertEqual(e["ExportTime"].timestamp(), t)
            arns.append(e["ExportArn"])
            d = self.wait(e["ExportArn"])
            self.assertEqual(d["ExportStatus"], "COMPLETED", d)
            self.assertTrue(d["ExportManifest"].startswith("exports/run/AWSDynamoDB/"))
            recs = self.read_export(d)
            got = {r["Item"]["pk"]["S"]: norm(r["Item"]) for r in recs}
            self.assertEqual(len(got), len(recs))
            want = {k: norm(v) for k, v in want.items()}
            self.assertEqual(sorted(got), sorted(want))
            for k in want:
                self.assertEqual(got[k], want[k], k)

        # Incremental between t1 and t2, both views.
        for view in ("NEW_AND_OLD_IMAGES", "NEW_IMAGE"):
            status, body = self.raw("ExportTableToPointInTime", {
                "TableArn": ARN, "S3Bucket": "bkt", "ExportType": "INCREMENTAL_EXPORT",
                "IncrementalExportSpecification": {"ExportFromTime": t1, "ExportToTime": t2,
                                                   "ExportViewType": view}})
            self.assertEqual(status, 200, body)
            e = body["ExportDescription"]
            arns.append(e["ExportArn"])
            d = self.wait(e["ExportArn"])
            self.assertEqual(d["ExportStatus"], "COMPLETED", d)
            status, raw_d = self.raw("DescribeExport", {"ExportArn": e["ExportArn"]})
            self.assertEqual(raw_d["ExportDescription"]["ExportType"], "INCREMENTAL_EXPORT")
            self.assertEqual(raw_d["ExportDescription"]["IncrementalExportSpecification"],
                             {"ExportFromTime": t1, "ExportToTime": t2, "ExportViewType": view})
            recs = self.read_export(d, incremental=True)
            want = {k for k in set(s1) | set(now) if s1.get(k) != now.get(k)}
            got = {}
            for r in recs:
                pk = r["Keys"]["pk"]["S"]
                self.assertNotIn(pk, got)
                got[pk] = r
                us = int(r["Metadata"]["WriteTimestampMicros"]["N"])
                self.assertTrue(t1 * 10**6 <= us < t2 * 10**6)
                if pk in now:
                    self.assertEqual(norm(r["NewImage"]), norm(now[pk]))
                else:
                    self.assertNotIn("NewImage", r)
                if view == "NEW_AND_OLD_IMAGES" and pk in s1:
                    self.assertEqual(norm(r["OldImage"]), norm(s1[pk]))
                else:
                    self.assertNotIn("OldImage", r)
            self.assertEqual(set(got), want)
            self.assertNotIn("o043", got)  # inserted and deleted within the window

        # ClientToken: the same request again is the same export; other parameters conflict.
        a = self.ddb.export_table_to_point_in_time(TableArn=ARN, S3Bucket="bkt", ClientToken="t-1",
                                                   ExportTime=t2)["ExportDescription"]
        b = self.ddb.export_table_to_point_in_time(TableArn=ARN, S3Bucket="bkt", ClientToken="t-1",
                                                   ExportTime=t2)["ExportDescription"]
        self.assertEqual(a["ExportArn"], b["ExportArn"])
        arns.append(a["ExportArn"])
        self.wait(a["ExportArn"])
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            self.ddb.export_table_to_point_in_time(TableArn=ARN, S3Bucket="bkt",
                                                   ClientToken="t-1", ExportTime=t1)
        self.assertEqual(cm.exception.response["Error"]["Code"], "ImportConflictException")
        # A missing bucket: the job fails as AWS's does.
        e = self.ddb.export_table_to_point_in_time(TableArn=ARN, S3Bucket="missing")["ExportDescription"]
        arns.append(e["ExportArn"])
        d = self.wait(e["ExportArn"])
        self.assertEqual((d["ExportStatus"], d["FailureCode"]), ("FAILED", "S3NoSuchBucket"))
        # The window's start as DescribeContinuousBackups reports it (to the millisecond) is
        # inside the window, for a full export at that time and an incremental one from it.
        status, raw_pitr = self.raw("DescribeContinuousBackups", {"TableName": TABLE})
        earliest = raw_pitr["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"][
            "EarliestRestorableDateTime"]
        for extra in ({"ExportTime": earliest},
                      {"ExportType": "INCREMENTAL_EXPORT",
                       "IncrementalExportSpecification": {"ExportFromTime": earliest,
                                                          "ExportViewType": "NEW_IMAGE"}}):
            status, body = self.raw("ExportTableToPointInTime",
                                    dict({"TableArn": ARN, "S3Bucket": "bkt"}, **extra))
            self.assertEqual(status, 200, body)
            arns.append(body["ExportDescription"]["ExportArn"])
            self.wait(body["ExportDescription"]["ExportArn"])
        # Times outside the window.
        for t in (t1 - 3600, time.time() + 3600):
            with self.assertRaises(botocore.exceptions.ClientError) as cm:
                self.ddb.export_table_to_point_in_time(TableArn=ARN, S3Bucket="bkt", ExportTime=t)
            self.assertEqual(cm.exception.response["Error"]["Code"], "InvalidExportTimeException")
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            self.ddb.describe_export(ExportArn=ARN + "/export/00000000000000-00000000")
        self.assertEqual(cm.exception.response["Error"]["Code"], "ExportNotFoundException")

        # After a restart: the same descriptions; ListExports pages through all of them.
        before = {a: self.ddb.describe_export(ExportArn=a)["ExportDescription"] for a in arns}
        self.restart()
        for a in arns:
            self.assertEqual(self.ddb.describe_export(ExportArn=a)["ExportDescription"], before[a])
        listed, token, pages = [], None, 0
        while True:
            kw = {"TableArn": ARN, "MaxResults": 2}
            if token:
                kw["NextToken"] = token
            r = self.ddb.list_exports(**kw)
            self.assertLessEqual(len(r["ExportSummaries"]), 2)
            for s in r["ExportSummaries"]:
                self.assertEqual(s["ExportStatus"], before[s["ExportArn"]]["ExportStatus"])
            listed += [s["ExportArn"] for s in r["ExportSummaries"]]
            pages += 1
            token = r.get("NextToken")
            if not token:
                break
        self.assertEqual(listed, arns)
        self.assertEqual(pages, (len(arns) + 1) // 2)
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            self.ddb.list_exports(MaxResults=26)
        self.assertEqual(cm.exception.response["Error"]["Code"], "ValidationException")


if __name__ == "__main__":
    program = unittest.main(verbosity=2, exit=False)
    if not program.result.wasSuccessful():
        sys.exit(1)
    sys.exit(0 if HAVE_BOTO3 else 77)
