"""A reader of the table's DynamoDB Streams, as a consumer follows them: ListStreams,
DescribeStream (shards paged), GetShardIterator, GetRecords; a child shard is read once its
parent is closed, and new shards are picked up as they appear. After a lost answer it goes on
either with the iterator it held (iterators are stateless: they survive a restart) or from a
new one AFTER_SEQUENCE_NUMBER of its last record, at random: both paths are exercised.

The engine keeps one shard per stream, across restarts (src/engine/stream-ops.c), and its
records for 24 hours, so a soak sees every record from TRIM_HORIZON; nothing here relies on
that."""
from .client import STREAMS, Lost, error_type
from .ledger import TABLE


class Shard:
    def __init__(self, arn, shard_id, parent):
        self.arn, self.id, self.parent = arn, shard_id, parent
        self.iterator = None
        self.last_seq = None
        self.closed = False


class StreamReader:
    """`call(op, request, api)` returns (status, body) or raises Lost; `anomaly(what, example)`
    books what should not happen."""

    def __init__(self, call, anomaly, rng, limit=None):
        self.call, self.anomaly, self.rng = call, anomaly, rng
        self.limit = limit    # GetRecords' Limit; None: a random one each time
        self.shards = {}      # shard id -> Shard, in the order found
        self.records = []     # (shard id, record), in the order read
        self.lost = 0

    def _ask(self, op, request):
        """body, or None when the answer was lost or an error (booked) came back."""
        try:
            status, body = self.call(op, request, STREAMS)
        except Lost:
            self.lost += 1
            return None
        if status != 200:
            if error_type(body) != "ExpiredIteratorException":
                self.anomaly("errors from the Streams API", "%s: %s" % (op, str(body)[:300]))
            return None
        return body

    def _discover(self):
        arns, request = [], {"TableName": TABLE}
        while True:
            body = self._ask("ListStreams", request)
            if body is None:
                return False
            arns += [s["StreamArn"] for s in body.get("Streams", [])]
            if "LastEvaluatedStreamArn" not in body:
                break
            request["ExclusiveStartStreamArn"] = body["LastEvaluatedStreamArn"]
        for arn in arns:
            request = {"StreamArn": arn}
            while True:
                body = self._ask("DescribeStream", request)
                if body is None:
                    return False
                description = body["StreamDescription"]
                for s in description.get("Shards", []):
                    if s["ShardId"] not in self.shards:
                        self.shards[s["ShardId"]] = Shard(arn, s["ShardId"], s.get("ParentShardId"))
                if "LastEvaluatedShardId" not in description:
                    break
                request["ExclusiveStartShardId"] = description["LastEvaluatedShardId"]
        return True

    def poll(self):
        """One pass over every shard to its current end; the number of records read."""
        if not self._discover():
            return 0
        read = 0
        for shard in list(self.shards.values()):
            parent = self.shards.get(shard.parent)
            if shard.closed or (parent is not None and not parent.closed):
                continue
            read += self._read(shard)
        return read

    def _read(self, shard):
        read = 0
        if shard.iterator is None:
            request = {"StreamArn": shard.arn, "ShardId": shard.id}
            if shard.last_seq is None:
                request["ShardIteratorType"] = "TRIM_HORIZON"
            else:
                request.update(ShardIteratorType="AFTER_SEQUENCE_NUMBER",
                               SequenceNumber=shard.last_seq)
            body = self._ask("GetShardIterator", request)
            if body is None:
                return 0
            shard.iterator = body["ShardIterator"]
        while True:
            try:
                limit = self.limit or self.rng.randint(100, 1000)
                status, body = self.call("GetRecords", {"ShardIterator": shard.iterator,
                                                        "Limit": limit}, STREAMS)
            except Lost:
                self.lost += 1
                if self.rng.random() < 0.5:
                    shard.iterator = None   # else the same iterator, on the next serve
                return read
            if status != 200:
                if error_type(body) != "ExpiredIteratorException":
                    self.anomaly("errors from the Streams API", "GetRecords: %s" % str(body)[:300])
                shard.iterator = None
                return read
            for record in body.get("Records", []):
                seq = record["dynamodb"]["SequenceNumber"]
                if shard.last_seq is not None and int(seq) <= int(shard.last_seq):
                    self.anomaly("a stream record read again or out of order",
                                 "%s after %s" % (seq, shard.last_seq))
                shard.last_seq = seq
                self.records.append((shard.id, record))
                read += 1
            shard.iterator = body.get("NextShardIterator")
            if shard.iterator is None:
                shard.closed = True
                return read
            if not body.get("Records"):
                return read

    def drain(self, passes=1000):
        """Reads until a pass finds nothing new (no writes go on meanwhile)."""
        for _ in range(passes):
            if self.poll() == 0 and all(s.iterator is not None or s.closed
                                        for s in self.shards.values()):
                return
        raise RuntimeError("the stream could not be read to its end")
