#!/usr/bin/env python3
# DynamoDB Streams and Time to Live on `dynoscope-cli serve`, through boto3's dynamodbstreams
# client: the records of every writing path, each view type, the iterator types, paging, a
# kill -9 between writes and reads, and TTL expiry as the service's own REMOVE.
import base64
import importlib.util
import json
import os
import shutil
import signal
import subprocess
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

# The sweeper runs every second here (default 60 s).
os.environ["DYNOSCOPE_TTL_INTERVAL"] = "1"

# test-serve.py's Server (it takes the CLI path from argv when loaded, as when run).
_spec = importlib.util.spec_from_file_location(
    "test_serve", os.path.join(os.path.dirname(os.path.abspath(__file__)), "test-serve.py"))
serve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve)
Server = serve.Server

TABLE = "Events"


def key(i):
    return {"pk": {"S": "p%d" % i}, "sk": {"N": str(i)}}


class StreamsTestCase(unittest.TestCase):
    def setUp(self):
        if not HAVE_BOTO3:
            self.skipTest("boto3 is missing")
        self.dir = tempfile.mkdtemp(prefix="dynoscope-streams-test-")
        self.db = os.path.join(self.dir, "test.db")
        self.start()

    def start(self):
        self.server = Server(self.db)
        cfg = botocore.config.Config(retries={"max_attempts": 1})
        common = dict(endpoint_url=self.server.url, region_name="us-east-1",
                      aws_access_key_id="k", aws_secret_access_key="s", config=cfg)
        self.ddb = boto3.client("dynamodb", **common)
        self.streams = boto3.client("dynamodbstreams", **common)

    def tearDown(self):
        if hasattr(self, "server"):
            status, _, err = self.server.stop()
            self.assertEqual(status, 0, err)
            shutil.rmtree(self.dir)

    def create(self, view="NEW_AND_OLD_IMAGES", name=TABLE):
        d = self.ddb.create_table(
            TableName=name, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "N"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"}],
            StreamSpecification={"StreamEnabled": True, "StreamViewType": view})
        return d["TableDescription"]["LatestStreamArn"]

    def shard(self, arn):
        shards = self.streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
        self.assertEqual(len(shards), 1)
        return shards[0]["ShardId"]

    def iterator(self, arn, kind="TRIM_HORIZON", seq=None):
        args = dict(StreamArn=arn, ShardId=self.shard(arn), ShardIteratorType=kind)
        if seq is not None:
            args["SequenceNumber"] = seq
        return self.streams.get_shard_iterator(**args)["ShardIterator"]

    def records(self, arn, kind="TRIM_HORIZON", seq=None):
        out = self.streams.get_records(ShardIterator=self.iterator(arn, kind, seq))
        return out["Records"]

    def assert_error(self, name, fn, **args):
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            fn(**args)
        self.assertEqual(cm.exception.response["Error"]["Code"], name)
        return cm.exception.response["Error"]["Message"]


class Records(StreamsTestCase):
    def test_each_view_type(self):
        for view in ("KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"):
            with self.subTest(view=view):
                name = "T" + view.replace("_", "")
                arn = self.create(view, name)
                item = dict(key(1), a={"S": "x"}, n={"N": "1.5"}, b={"B": b"\x00\x01"},
                            ss={"SS": ["u", "v"]})
                self.ddb.put_item(TableName=name, Item=item)
                self.ddb.update_item(TableName=name, Key=key(1), UpdateExpression="SET a = :v",
                                     ExpressionAttributeValues={":v": {"S": "y"}})
                self.ddb.delete_item(TableName=name, Key=key(1))
                recs = self.records(arn)
                self.assertEqual([r["eventName"] for r in recs], ["INSERT", "MODIFY", "REMOVE"])
                seqs = [int(r["dynamodb"]["SequenceNumber"]) for r in recs]
                self.assertEqual(seqs, sorted(seqs))
                self.assertEqual(len(set(seqs)), 3)
                for r in recs:
                    self.assertEqual(r["eventVersion"], "1.1")
                    self.assertEqual(r["eventSource"], "aws:dynamodb")
                    self.assertIn("awsRegion", r)
                    self.assertEqual(len(r["eventID"]), 32)
                    d = r["dynamodb"]
                    self.assertEqual(d["Keys"], key(1))
                    self.assertEqual(d["StreamViewType"], view)
                    self.assertGreaterEqual(len(d["SequenceNumber"]), 21)
                    self.assertGreater(d["SizeBytes"], 0)
                    self.assertLess(abs(d["ApproximateCreationDateTime"].timestamp() - time.time()),
                                    120)
                    self.assertNotIn("userIdentity", r)
                new = [r["dynamodb"].get("NewImage") for r in recs]
                old = [r["dynamodb"].get("OldImage") for r in recs]
                modified = dict(item, a={"S": "y"})
                if view in ("NEW_IMAGE", "NEW_AND_OLD_IMAGES"):
                    self.assertEqual(new, [item, modified, None])
                else:
                    self.assertEqual(new, [None, None, None])
                if view in ("OLD_IMAGE", "NEW_AND_OLD_IMAGES"):
                    self.assertEqual(old, [None, item, modified])
                else:
                    self.assertEqual(old, [None, None, None])
                # Sets stay sets, binary stays binary, numbers as written.
                if view == "NEW_IMAGE":
                    self.assertEqual(new[0]["b"], {"B": b"\x00\x01"})
                    self.assertEqual(new[0]["n"], {"N": "1.5"})

    def test_no_record_for_a_write_that_changes_nothing(self):
        arn = self.create()
        item = dict(key(1), a={"S": "x"})
        self.ddb.put_item(TableName=TABLE, Item=item)
        self.ddb.put_item(TableName=TABLE, Item=item)
        self.ddb.update_item(TableName=TABLE, Key=key(1), UpdateExpression="SET a = :v",
                             ExpressionAttributeValues={":v": {"S": "x"}})
        self.ddb.delete_item(TableName=TABLE, Key=key(2))
        self.assert_error("ConditionalCheckFailedException", self.ddb.put_item, TableName=TABLE,
                          Item=dict(key(1), a={"S": "z"}),
                          ConditionExpression="attribute_not_exists(pk)")
        self.assertEqual([r["eventName"] for r in self.records(arn)], ["INSERT"])

    def test_batch_write(self):
        arn = self.create("KEYS_ONLY")
        self.ddb.put_item(TableName=TABLE, Item=key(9))
        self.ddb.batch_write_item(RequestItems={TABLE: [
            {"PutRequest": {"Item": key(1)}}, {"PutRequest": {"Item": key(2)}},
            {"DeleteRequest": {"Key": key(9)}}]})
        recs = self.records(arn)
        self.assertEqual(sorted(r["eventName"] for r in recs[1:]), ["INSERT", "INSERT", "REMOVE"])
        self.assertEqual(len(recs), 4)

    def test_transaction_all_or_none(self):
        arn = self.create()
        self.ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": TABLE, "Item": key(1)}},
            {"Put": {"TableName": TABLE, "Item": key(2)}}])
        self.assertEqual(len(self.records(arn)), 2)
        self.assert_error("TransactionCanceledException", self.ddb.transact_write_items,
                          TransactItems=[
                              {"Put": {"TableName": TABLE, "Item": key(3)}},
                              {"Update": {"TableName": TABLE, "Key": key(1),
                                          "UpdateExpression": "SET a = :v",
                                          "ExpressionAttributeValues": {":v": {"S": "q"}}}},
                              {"ConditionCheck": {"TableName": TABLE, "Key": key(2),
                                                  "ConditionExpression":
                                                      "attribute_not_exists(pk)"}}])
        recs = self.records(arn)
        self.assertEqual(len(recs), 2)
        self.assertNotIn(key(3), [r["dynamodb"]["Keys"] for r in recs])

    def test_cli_call_on_the_endpoint(self):
        arn = self.create("KEYS_ONLY")
        env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
        env.update(AWS_ACCESS_KEY_ID="k", AWS_SECRET_ACCESS_KEY="s",
                   AWS_CONFIG_FILE=os.devnull, AWS_SHARED_CREDENTIALS_FILE=os.devnull)
        r = subprocess.run([serve.CLI, "--endpoint", self.server.url, "--region", "us-east-1",
                            "call", "DynamoDBStreams_20120810.ListStreams", "{}"],
                           capture_output=True, text=True, timeout=60, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([s["StreamArn"] for s in json.loads(r.stdout)["Streams"]], [arn])

    def test_table_without_stream_has_none(self):
        self.ddb.create_table(
            TableName="Plain", BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        self.ddb.put_item(TableName="Plain", Item={"pk": {"S": "a"}})
        self.assertEqual(self.streams.list_streams(TableName="Plain")["Streams"], [])


class Iterators(StreamsTestCase):
    def write(self, n, start=0):
        for i in range(start, start + n):
            self.ddb.put_item(TableName=TABLE, Item=key(i))

    def test_iterator_types(self):
        arn = self.create("KEYS_ONLY")
        self.write(3)
        latest = self.iterator(arn, "LATEST")
        recs = self.records(arn)
        seqs = [r["dynamodb"]["SequenceNumber"] for r in recs]
        self.assertEqual(len(seqs), 3)
        at = self.records(arn, "AT_SEQUENCE_NUMBER", seqs[1])
        self.assertEqual([r["dynamodb"]["SequenceNumber"] for r in at], seqs[1:])
        after = self.records(arn, "AFTER_SEQUENCE_NUMBER", seqs[1])
        self.assertEqual([r["dynamodb"]["SequenceNumber"] for r in after], seqs[2:])
        self.assertEqual(self.streams.get_records(ShardIterator=latest)["Records"], [])
        self.write(1, 10)
        got = self.streams.get_records(ShardIterator=latest)["Records"]
        self.assertEqual([r["dynamodb"]["Keys"] for r in got], [key(10)])

    def test_paging_with_limit(self):
        arn = self.create("KEYS_ONLY")
        self.write(5)
        it = self.iterator(arn)
        pages = []
        for _ in range(4):
            out = self.streams.get_records(ShardIterator=it, Limit=2)
            pages.append(len(out["Records"]))
            it = out["NextShardIterator"]  # an open shard always has one
        self.assertEqual(pages, [2, 2, 1, 0])
        self.write(1, 20)
        out = self.streams.get_records(ShardIterator=it, Limit=2)
        self.assertEqual([r["dynamodb"]["Keys"] for r in out["Records"]], [key(20)])
        self.assert_error("ValidationException", self.streams.get_records, ShardIterator=it,
                          Limit=1001)

    def test_errors(self):
        arn = self.create("KEYS_ONLY")
        self.write(1)
        shard = self.shard(arn)
        missing = arn.replace("/stream/", "/stream/1999-")
        self.assert_error("ResourceNotFoundException", self.streams.describe_stream,
                          StreamArn=missing)
        self.assert_error("ResourceNotFoundException", self.streams.get_shard_iterator,
                          StreamArn=arn, ShardId="shardId-00000000000000000000-00000000",
                          ShardIteratorType="LATEST")
        self.assert_error("ValidationException", self.streams.get_shard_iterator,
                          StreamArn=arn, ShardId=shard, ShardIteratorType="AT_SEQUENCE_NUMBER")
        self.assert_error("ValidationException", self.streams.get_records,
                          ShardIterator="not-an-iterator")
        # An iterator is good for 15 minutes (ours: ARN, position and issue time in base64).
        old = "%s\n0\n%d" % (arn, int((time.time() - 16 * 60) * 1000))
        self.assert_error("ExpiredIteratorException", self.streams.get_records,
                          ShardIterator=base64.b64encode(old.encode()).decode())

    def test_disable_and_reenable(self):
        arn = self.create("KEYS_ONLY")
        self.write(2)
        d = self.streams.describe_stream(StreamArn=arn)["StreamDescription"]
        self.assertEqual(d["StreamStatus"], "ENABLED")
        self.assertEqual(d["TableName"], TABLE)
        self.assertEqual(d["StreamViewType"], "KEYS_ONLY")
        self.assertEqual(d["KeySchema"], [{"AttributeName": "pk", "KeyType": "HASH"},
                                          {"AttributeName": "sk", "KeyType": "RANGE"}])
        self.assertIn("CreationRequestDateTime", d)
        self.assertNotIn("EndingSequenceNumber", d["Shards"][0]["SequenceNumberRange"])
        self.ddb.update_table(TableName=TABLE, StreamSpecification={"StreamEnabled": False})
        self.write(1, 5)  # not recorded: the stream is off
        d = self.streams.describe_stream(StreamArn=arn)["StreamDescription"]
        self.assertEqual(d["StreamStatus"], "DISABLED")
        rng = d["Shards"][0]["SequenceNumberRange"]
        recs = self.records(arn)
        self.assertEqual(len(recs), 2)
        self.assertEqual(rng["StartingSequenceNumber"], recs[0]["dynamodb"]["SequenceNumber"])
        self.assertEqual(rng["EndingSequenceNumber"], recs[1]["dynamodb"]["SequenceNumber"])
        out = self.streams.get_records(ShardIterator=self.iterator(arn))
        self.assertNotIn("NextShardIterator", out)  # closed shard, read to its end

        time.sleep(0.01)
        new = self.ddb.update_table(
            TableName=TABLE, StreamSpecification={"StreamEnabled": True,
                                                  "StreamViewType": "NEW_IMAGE"}
        )["TableDescription"]["LatestStreamArn"]
        self.assertNotEqual(new, arn)
        self.write(1, 6)
        self.assertEqual([r["dynamodb"]["Keys"] for r in self.records(new)], [key(6)])
        self.assertEqual(len(self.records(arn)), 2)
        listed = self.streams.list_streams(TableName=TABLE)["Streams"]
        self.assertEqual([s["StreamArn"] for s in listed], [arn, new])
        page = self.streams.list_streams(Limit=1)
        self.assertEqual([s["StreamArn"] for s in page["Streams"]], [arn])
        self.assertEqual(page["LastEvaluatedStreamArn"], arn)
        self.assertEqual(len(self.streams.list_streams(Limit=1000)["Streams"]), 2)
        page = self.streams.list_streams(Limit=1, ExclusiveStartStreamArn=arn)
        self.assertEqual([s["StreamArn"] for s in page["Streams"]], [new])
        self.assertEqual(page["Streams"][0]["TableName"], TABLE)
        self.assertIn("StreamLabel", page["Streams"][0])

    def test_kill_9_and_restart(self):
        arn = self.create("NEW_IMAGE")
        self.write(3)
        before = [int(r["dynamodb"]["SequenceNumber"]) for r in self.records(arn)]
        self.server.proc.send_signal(signal.SIGKILL)
        self.server.proc.communicate()
        self.start()
        recs = self.records(arn)
        self.assertEqual([int(r["dynamodb"]["SequenceNumber"]) for r in recs], before)
        self.write(2, 10)
        seqs = [int(r["dynamodb"]["SequenceNumber"]) for r in self.records(arn)]
        self.assertEqual(len(seqs), 5)
        self.assertEqual(seqs, sorted(set(seqs)))
        self.assertGreater(seqs[3], before[-1])


class TimeToLive(StreamsTestCase):
    def test_expired_items_are_removed_by_the_service(self):
        arn = self.create("NEW_AND_OLD_IMAGES")
        self.ddb.update_time_to_live(TableName=TABLE, TimeToLiveSpecification={
            "Enabled": True, "AttributeName": "exp"})
        now = int(time.time())
        items = {
            1: {"N": str(now - 100)},                 # expired
            2: {"N": str(now + 3600)},                # in the future
            3: {"S": str(now - 100)},                 # not a Number
            4: {"N": str(now - 6 * 365 * 86400)},     # more than five years past
            5: {"N": "%d.5" % (now - 50)},            # expired, a fraction
        }
        for i, exp in items.items():
            self.ddb.put_item(TableName=TABLE, Item=dict(key(i), exp=exp))
        self.ddb.put_item(TableName=TABLE, Item=key(6))  # no TTL attribute
        deadline = time.time() + 20
        while time.time() < deadline:
            left = {int(it["sk"]["N"]) for it in self.ddb.scan(TableName=TABLE)["Items"]}
            if left == {2, 3, 4, 6}:
                break
            time.sleep(0.3)
        self.assertEqual(left, {2, 3, 4, 6})
        removes = [r for r in self.records(arn) if r["eventName"] == "REMOVE"]
        self.assertEqual(sorted(r["dynamodb"]["Keys"]["sk"]["N"] for r in removes), ["1", "5"])
        for r in removes:
            self.assertEqual(r["userIdentity"], {"Type": "Service",
                                                 "PrincipalId": "dynamodb.amazonaws.com"})
            self.assertIn("OldImage", r["dynamodb"])
        # A user's delete carries no userIdentity.
        self.ddb.delete_item(TableName=TABLE, Key=key(2))
        self.assertNotIn("userIdentity", self.records(arn)[-1])


if __name__ == "__main__":
    program = unittest.main(verbosity=2, exit=False)
    if not program.result.wasSuccessful():
        sys.exit(1)
    sys.exit(0 if HAVE_BOTO3 else 77)
