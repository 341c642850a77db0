"""The book of what the clients were told. A write answered 200 is ACKNOWLEDGED; one whose
answer was lost is UNCERTAIN (it may or may not have applied); one refused with a 4xx
(ConditionalCheckFailed, TransactionCanceled) is NOT APPLIED. Every key and every operation id
is unique to the run, so each stream record and each item names the one write it came from."""
import collections
import threading

ACKED, UNCERTAIN, NOT_APPLIED = "acknowledged", "uncertain", "not applied"

TABLE = "Soak"
INDEX = "ByGroup"
GROUPS = ["g%d" % i for i in range(8)]
COUNTERS = ["c#%d" % i for i in range(4)]
ACCOUNTS = ["a#%d" % i for i in range(10)]
OPENING_BALANCE = 100
# What the index projects besides the keys (the table's and its own); "op" stays out.
PROJECTED = ("pk", "grp", "ts", "payload")


class Ledger:
    def __init__(self):
        self.lock = threading.Lock()
        self.setup = {}          # pk -> item written before the workload (acknowledged)
        self.puts = {}           # pk -> {"item", "status", "kind"}
        self.deletes = {}        # pk -> {"status", "kind", "old": Attributes returned or None}
        self.adds = {}           # op id -> {"counter", "amount", "status"}
        self.transfers = {}      # op id -> {"from", "to", "amount", "status", "retried"}
        self.counts = collections.Counter()   # (kind, status) -> writes
        self.anomalies = collections.defaultdict(list)   # what -> examples seen online
        # Keys acknowledged as put and not yet picked for a delete.
        self.deletable = []
        self.deletable_cond = threading.Condition(self.lock)
        self.acked_puts = 0      # puts acknowledged so far (single and batch)
        self.picked = 0          # keys taken for a delete so far

    def count(self, kind, status, n=1):
        with self.lock:
            self.counts[(kind, status)] += n

    def anomaly(self, what, example):
        with self.lock:
            self.anomalies[what].append(example)

    def put(self, pk, item, status, kind):
        with self.lock:
            self.puts[pk] = {"item": item, "status": status, "kind": kind}
            self.counts[(kind, status)] += 1
            if status == ACKED:
                self.acked_puts += 1
                self.deletable.append(pk)
                self.deletable_cond.notify_all()

    def take_deletable(self, rng, stop, timeout, share=4):
        """A random key acknowledged as put and never picked before, for a delete; None if none
        within `timeout` (0: now). At most one key in `share` acknowledged puts is deleted, so
        that most of what is put stays to be checked."""
        def ready():
            return self.deletable and self.picked * share < self.acked_puts
        with self.deletable_cond:
            self.deletable_cond.wait_for(lambda: stop.is_set() or ready(), timeout=timeout)
            if stop.is_set() or not ready():
                return None
            self.picked += 1
            i = rng.randrange(len(self.deletable))
            self.deletable[i], self.deletable[-1] = self.deletable[-1], self.deletable[i]
            return self.deletable.pop()

    def delete(self, pk, status, kind, old=None):
        with self.lock:
            self.deletes[pk] = {"status": status, "kind": kind, "old": old}
            self.counts[(kind, status)] += 1

    def add(self, op, counter, amount, status):
        with self.lock:
            self.adds[op] = {"counter": counter, "amount": amount, "status": status}
            self.counts[("add", status)] += 1

    def transfer(self, op, src, dst, amount, status, retried):
        with self.lock:
            self.transfers[op] = {"from": src, "to": dst, "amount": amount, "status": status,
                                  "retried": retried}
            self.counts[("transfer", status)] += 1
