"""The workload: the table, its opening items, and the client threads. Each thread loops on one
kind of request until the run stops; writes are booked in the Ledger as acknowledged, uncertain
or not applied, and reads check what they can while the run goes on (anomalies)."""
import collections
import itertools
import random
import string
import threading
import time
import traceback

from .client import DYNAMODB, Client, Lost, Stopped, error_type
from .ledger import (ACCOUNTS, ACKED, COUNTERS, GROUPS, INDEX, NOT_APPLIED, OPENING_BALANCE,
                     PROJECTED, TABLE, UNCERTAIN)
from .streams import StreamReader

CCF = "ConditionalCheckFailedException"


def create_table(client):
    """The table: a hash key, a GSI by group and time (projecting the payload only), a stream
    with both images."""
    status, body = client.call("CreateTable", {
        "TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "grp", "AttributeType": "S"},
                                 {"AttributeName": "ts", "AttributeType": "N"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "GlobalSecondaryIndexes": [{
            "IndexName": INDEX,
            "KeySchema": [{"AttributeName": "grp", "KeyType": "HASH"},
                          {"AttributeName": "ts", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["payload"]}}],
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    })
    if status != 200:
        raise RuntimeError("CreateTable: %s" % body)
    # The engine creates tables ACTIVE; DynamoDB would make us wait.
    while True:
        status, body = client.call("DescribeTable", {"TableName": TABLE})
        table = body.get("Table", {})
        if status == 200 and table.get("TableStatus") == "ACTIVE" and all(
                i.get("IndexStatus") == "ACTIVE" for i in table.get("GlobalSecondaryIndexes", [])):
            return table


def seed_items(client, ledger):
    """The hot counters (n = 0) and the accounts (OPENING_BALANCE each), before any kill."""
    items = [{"pk": {"S": pk}, "n": {"N": "0"}, "lastop": {"S": "setup"}} for pk in COUNTERS]
    items += [{"pk": {"S": pk}, "balance": {"N": str(OPENING_BALANCE)}, "lastop": {"S": "setup"}}
              for pk in ACCOUNTS]
    for item in items:
        status, body = client.call("PutItem", {"TableName": TABLE, "Item": item})
        if status != 200:
            raise RuntimeError("PutItem %s: %s" % (item["pk"]["S"], body))
        ledger.setup[item["pk"]["S"]] = item


class Context:
    """What the threads share."""

    def __init__(self, endpoint, ledger, seed, timeout):
        self.endpoint = endpoint
        self.ledger = ledger
        self.seed = seed
        self.timeout = timeout
        self.stop = threading.Event()
        self._ts = itertools.count(1)

    def next_ts(self):
        return next(self._ts)   # atomic under the GIL: unique GSI sort keys


class Worker(threading.Thread):
    """One client thread. `kind` names it; step() is one unit of its work."""

    kind = "worker"

    def __init__(self, ctx, index):
        super().__init__(name="%s-%d" % (self.kind, index), daemon=True)
        self.ctx = ctx
        self.ledger = ctx.ledger
        self.index = index
        self.rng = random.Random("%s:%s" % (ctx.seed, self.name))
        self.client = Client(ctx.endpoint, ctx.timeout)
        self.answered = collections.Counter()   # operation -> requests answered
        self.lost = collections.Counter()       # operation -> requests whose answer was lost
        self.notes = collections.Counter()      # other events worth a figure
        self.latency = collections.defaultdict(list)   # operation -> seconds of each answer
        self.timeouts = 0
        self.serial = 0

    def run(self):
        try:
            while not self.ctx.stop.is_set():
                self.step()
        except Stopped:
            pass
        except Exception:   # a bug of the soak itself: reported, never silent
            self.ledger.anomaly("soak thread crashed",
                                "%s: %s" % (self.name, traceback.format_exc()))
        finally:
            self.client.close()

    def next_id(self, prefix):
        self.serial += 1
        return "%s%d-%d" % (prefix, self.index, self.serial)

    def call(self, op, request, api=None):
        """(status, body), or Lost; counted."""
        try:
            result = self.client.call(op, request, api or DYNAMODB, stop=self.ctx.stop)
        except Lost as e:
            self.lost[op] += 1
            self.timeouts += e.timeout
            raise
        self.answered[op] += 1
        self.latency[op].append(time.monotonic() - self.client.attempt_started)
        return result

    def write(self, op, request):
        """(ACKED | NOT_APPLIED | UNCERTAIN, body)."""
        try:
            status, body = self.call(op, request)
        except Lost:
            return UNCERTAIN, None
        if status == 200:
            return ACKED, body
        if status == 400:
            return NOT_APPLIED, body
        self.ledger.anomaly("HTTP %d answers" % status, "%s: %s" % (op, body))
        return UNCERTAIN, body

    def unexpected(self, op, body):
        self.ledger.anomaly("unexpected errors", "%s: %s" % (op, str(body)[:300]))

    def new_item(self, pk):
        size = self.rng.randint(10, 300)
        return {"pk": {"S": pk}, "grp": {"S": self.rng.choice(GROUPS)},
                "ts": {"N": str(self.ctx.next_ts())},
                "payload": {"S": "".join(self.rng.choices(string.ascii_letters, k=size))},
                "op": {"S": pk}}


class Putter(Worker):
    """Conditional puts of new keys."""
    kind = "put"

    def step(self):
        pk = self.next_id("p#")
        item = self.new_item(pk)
        status, body = self.write("PutItem", {"TableName": TABLE, "Item": item,
                                              "ConditionExpression": "attribute_not_exists(pk)"})
        if status == NOT_APPLIED and error_type(body) == CCF:
            self.ledger.anomaly("a put of a new key found it there", pk)
        elif status == NOT_APPLIED:
            self.unexpected("PutItem", body)
        self.ledger.put(pk, item, status, "put")


class Batcher(Worker):
    """BatchWriteItem of new keys and a few deletes of acknowledged ones; UnprocessedItems are
    sent again until none is left."""
    kind = "batch"

    def step(self):
        deletes = []
        for _ in range(self.rng.randint(0, 2)):
            pk = self.ledger.take_deletable(self.rng, self.ctx.stop, timeout=0)
            if pk is not None:
                deletes.append(pk)
        items = {}
        for _ in range(self.rng.randint(1, 25 - len(deletes))):
            pk = self.next_id("b#")
            items[pk] = self.new_item(pk)
        pending = [{"PutRequest": {"Item": item}} for item in items.values()]
        pending += [{"DeleteRequest": {"Key": {"pk": {"S": pk}}}} for pk in deletes]
        while pending:
            try:
                status, body = self.write("BatchWriteItem", {"RequestItems": {TABLE: pending}})
            except Stopped:
                # Nothing of `pending` was sent; the deletes were never made.
                self.book(pending, NOT_APPLIED, items)
                return
            if status == ACKED:
                left = body.get("UnprocessedItems", {}).get(TABLE, [])
                if left:
                    self.notes["UnprocessedItems sent again"] += len(left)
                left_keys = {self.key_of(r) for r in left}
                self.book([r for r in pending if self.key_of(r) not in left_keys], ACKED, items)
                pending = left
            else:
                if status == NOT_APPLIED:
                    self.unexpected("BatchWriteItem", body)
                self.book(pending, status, items)
                pending = []

    @staticmethod
    def key_of(request):
        r = request.get("PutRequest", {}).get("Item") or request["DeleteRequest"]["Key"]
        return r["pk"]["S"]

    def book(self, requests, status, items):
        for r in requests:
            pk = self.key_of(r)
            if "PutRequest" in r:
                self.ledger.put(pk, items[pk], status, "batch put")
            else:
                self.ledger.delete(pk, status, "batch delete")


class Deleter(Worker):
    """Conditional deletes (attribute_exists) of keys acknowledged as put, returning the old
    item."""
    kind = "delete"

    def step(self):
        pk = self.ledger.take_deletable(self.rng, self.ctx.stop, timeout=1.0)
        if pk is None:
            return
        try:
            status, body = self.write("DeleteItem", {
                "TableName": TABLE, "Key": {"pk": {"S": pk}},
                "ConditionExpression": "attribute_exists(pk)", "ReturnValues": "ALL_OLD"})
        except Stopped:
            return   # never sent: the key simply stays
        old = None
        if status == ACKED:
            old = body.get("Attributes")
            if old != self.ledger.puts[pk]["item"]:
                self.ledger.anomaly("a delete returned another item than was put",
                                    "%s: %s" % (pk, old))
        elif status == NOT_APPLIED and error_type(body) == CCF:
            # The put was acknowledged and nothing deleted it: a lost write (checked at the end).
            self.ledger.anomaly("an acknowledged put was gone when deleted", pk)
        elif status == NOT_APPLIED:
            self.unexpected("DeleteItem", body)
        self.ledger.delete(pk, status, "delete", old)


class Adder(Worker):
    """ADD to a few hot counters, each update naming itself in `lastop`."""
    kind = "add"

    def step(self):
        op = self.next_id("add")
        counter = self.rng.choice(COUNTERS)
        amount = self.rng.randint(1, 9)
        try:
            status, body = self.write("UpdateItem", {
                "TableName": TABLE, "Key": {"pk": {"S": counter}},
                "UpdateExpression": "ADD n :a SET lastop = :op",
                "ExpressionAttributeValues": {":a": {"N": str(amount)}, ":op": {"S": op}}})
        except Stopped:
            return
        if status == NOT_APPLIED:
            self.unexpected("UpdateItem", body)
        self.ledger.add(op, counter, amount, status)


class Mover(Worker):
    """TransactWriteItems moving an amount between two accounts (balance >= amount). Half of
    them carry a ClientRequestToken and are sent again after a lost answer: serve must then
    apply them once, whichever attempt did."""
    kind = "transfer"

    def step(self):
        op = self.next_id("tx")
        src, dst = self.rng.sample(ACCOUNTS, 2)
        amount = self.rng.randint(1, 40)
        values = {":amt": {"N": str(amount)}, ":op": {"S": op}}
        request = {"TransactItems": [
            {"Update": {"TableName": TABLE, "Key": {"pk": {"S": src}},
                        "UpdateExpression": "SET balance = balance - :amt, lastop = :op",
                        "ConditionExpression": "balance >= :amt",
                        "ExpressionAttributeValues": values}},
            {"Update": {"TableName": TABLE, "Key": {"pk": {"S": dst}},
                        "UpdateExpression": "SET balance = balance + :amt, lastop = :op",
                        "ExpressionAttributeValues": values}}]}
        with_token = self.rng.random() < 0.5
        if with_token:
            request["ClientRequestToken"] = op
        retried = False
        while True:
            try:
                status, body = self.write("TransactWriteItems", request)
            except Stopped:
                if retried:
                    self.ledger.transfer(op, src, dst, amount, UNCERTAIN, retried)
                return
            if status == NOT_APPLIED and error_type(body) == "TransactionInProgressException":
                retried = True   # the first attempt still runs: ask again
                continue
            if status != UNCERTAIN or not with_token or self.ctx.stop.is_set():
                break
            retried = True
        if status == NOT_APPLIED:
            codes = [r.get("Code") for r in body.get("CancellationReasons", [])]
            if error_type(body) != "TransactionCanceledException":
                self.unexpected("TransactWriteItems", body)
            elif codes == ["TransactionConflict", "None"] or "TransactionConflict" in codes:
                self.notes["transactions cancelled by a conflict"] += 1
            elif codes != ["ConditionalCheckFailed", "None"]:
                self.unexpected("TransactWriteItems", body)
        self.ledger.transfer(op, src, dst, amount, status, retried)


class Querier(Worker):
    """Queries of the GSI, one group, paged to the end, either direction. Each page must hold
    the projection only, of that group, in order."""
    kind = "query"

    def step(self):
        group = self.rng.choice(GROUPS)
        forward = self.rng.random() < 0.5
        request = {"TableName": TABLE, "IndexName": INDEX, "ScanIndexForward": forward,
                   "KeyConditionExpression": "grp = :g",
                   "ExpressionAttributeValues": {":g": {"S": group}},
                   "Limit": self.rng.randint(20, 200)}
        last = None
        while True:
            try:
                status, body = self.call("Query", request)
            except Lost:
                return   # a read: nothing to book; the next step starts again
            if status != 200:
                return self.unexpected("Query", body)
            for item in body.get("Items", []):
                ts = int(item["ts"]["N"])
                if set(item) != set(PROJECTED) or item["grp"]["S"] != group:
                    self.ledger.anomaly("a Query of the index returned what it does not project",
                                        str(item)[:300])
                if last is not None and (ts <= last if forward else ts >= last):
                    self.ledger.anomaly("a Query of the index out of order",
                                        "%s after %s" % (ts, last))
                last = ts
            if "LastEvaluatedKey" not in body or self.ctx.stop.is_set():
                return
            request["ExclusiveStartKey"] = body["LastEvaluatedKey"]


class Scanner(Worker):
    """Scans of the table (whole, in one or two segments) and of the index, and
    TransactGetItems of every account (their sum never changes)."""
    kind = "scan"

    def step(self):
        choice = self.rng.random()
        if choice < 0.5:
            self.sum_accounts()
        elif choice < 0.8:
            self.scan(None)
        else:
            self.scan(INDEX)

    def sum_accounts(self):
        try:
            status, body = self.call("TransactGetItems", {"TransactItems": [
                {"Get": {"TableName": TABLE, "Key": {"pk": {"S": pk}}}} for pk in ACCOUNTS]})
        except Lost:
            return
        if status != 200:
            return self.unexpected("TransactGetItems", body)
        balances = [int(r["Item"]["balance"]["N"]) for r in body["Responses"]]
        if sum(balances) != OPENING_BALANCE * len(ACCOUNTS) or min(balances) < 0:
            self.ledger.anomaly("TransactGetItems saw the accounts torn", str(balances))

    def scan(self, index):
        segments = self.rng.choice([1, 2])
        seen = set()
        for segment in range(segments):
            request = {"TableName": TABLE, "Limit": self.rng.randint(50, 400)}
            if index is not None:
                request["IndexName"] = index
            if segments > 1:
                request.update(Segment=segment, TotalSegments=segments)
            while True:
                try:
                    status, body = self.call("Scan", request)
                except Lost:
                    return
                if status != 200:
                    return self.unexpected("Scan", body)
                for item in body.get("Items", []):
                    pk = item["pk"]["S"]
                    if pk in seen:
                        self.ledger.anomaly("a Scan returned an item twice", pk)
                    seen.add(pk)
                if "LastEvaluatedKey" not in body:
                    break
                if self.ctx.stop.is_set():
                    return   # a whole Scan of a large table takes a while: the run is over
                request["ExclusiveStartKey"] = body["LastEvaluatedKey"]
        # Counters and accounts are never deleted: a whole Scan of the table has them all.
        missing = [pk for pk in COUNTERS + ACCOUNTS if pk not in seen]
        if index is None and missing:
            self.ledger.anomaly("a Scan of the table missed items that are always there",
                                str(missing))


class StreamFollower(Worker):
    """The stream's consumer, throughout the run (its records are compared with the final read:
    what it was given must have lasted)."""
    kind = "streams"

    def __init__(self, ctx, index):
        super().__init__(ctx, index)
        self.reader = StreamReader(self.call, self.ledger.anomaly, self.rng)

    def step(self):
        if self.reader.poll() == 0:
            self.ctx.stop.wait(0.2)   # a consumer's polling pace when caught up
