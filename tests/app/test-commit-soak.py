#!/usr/bin/env python3
"""The app's side of the soak (issue 27): a staging commit of 10,000 changes killed at random
points and resumed, many times in a row, each change written exactly once.

`serve` runs on a database file with table Soak (its stream on, NEW_AND_OLD_IMAGES, turned on
after the items were put, so that it holds only what the commit writes). test-commit-soak-gui,
the real app in a window (run under Xvfb: start this script through run-gui-test.sh), stages
10,000 changes through the app's own paths (creates, fan-out updates, updates from an update
expression, deletes), then is started again and again on the same staging store to commit them,
alternating transactions and single writes, and is killed each time at a random point: either by
SIGKILL from here a random moment after it pressed Commit All (mid-request, mid-journal,
anywhere), or by itself right after a random durable journal write. A last run commits the rest.

Then, from outside the app:
- the store: every change committed, none in conflict or failed, none left open; the journal
  records exactly one 'committed' per change;
- the table: every create and update holds its target exactly, every delete is gone, the items
  nobody staged are untouched;
- the stream: exactly one record per change (INSERT, MODIFY or REMOVE as its kind says, images
  equal to the change's original and target) and none for any other item.

Usage: run-gui-test.sh python3 test-commit-soak.py GUI_PROGRAM DYNOSCOPE_CLI [--kills N]
[--seed S]. Prints its figures (kills of each kind, runs, seconds, changes per second)."""
import argparse
import base64
import json
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

lib.use_system_python_for_boto3()
import boto3  # noqa: E402

TABLE = "Soak"
N_CHANGES = 10000
KINDS = {0: "create", 1: "update", 2: "delete"}
COMMITTED, CONFLICT, FAILED = 2, 3, 4
RUN_TIMEOUT = 900  # one app run, under the sanitizers on a busy machine


def log(*args):
    print("#", *args, flush=True)


def n38(i):
    return str(10 ** 37 + i * 7919)


def seed_items():
    """The items put before the stream is turned on: 2,500 holding author "Mara" (the fan-out
    finds them), 2,000 with a counter the update expression adds to, 2,500 to delete, 500
    nobody stages (one of them holds "Mara" in another attribute)."""
    odd = [b"", b"\x00", b"\xff\xfe\x00\x01", bytes(range(256))]
    for i in range(2500):
        yield {"PK": {"S": "fan"}, "SK": {"S": "%05d" % i}, "author": {"S": "Mara"},
               "big": {"N": n38(i)}, "body": {"S": "post %d \u00fcn\u00ef \U0001F600" % i}}
    for i in range(2000):
        item = {"PK": {"S": "expr"}, "SK": {"S": "%05d" % i}, "n": {"N": str(i * 7 - 5000)},
                "tags": {"SS": ["t%d" % i, "shared"]}, "gone": {"BOOL": True},
                "blob": {"B": base64.b64encode(odd[i % len(odd)] + bytes([i % 256])).decode()}}
        yield item
    for i in range(2500):
        yield {"PK": {"S": "del"}, "SK": {"S": "%05d" % i}, "nums": {"NS": [n38(i), "0", "-1.5"]},
               "doc": {"M": {"l": {"L": [{"NULL": True}, {"S": ""}, {"BS": ["AA==", "/w=="]}]}}}}
    for i in range(500):
        yield {"PK": {"S": "keep"}, "SK": {"S": "%05d" % i}, "author": {"S": "Other"},
               "alias": {"S": "Mara"}}


def key_of(item):
    return (item["PK"]["S"], item["SK"]["S"])


class Soak:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.tmp = tempfile.TemporaryDirectory(prefix="dynoscope-commit-soak-")
        self.data_home = os.path.join(self.tmp.name, "data")
        self.store = os.path.join(self.data_home, "dynoscope", "staging.db")
        self.serve = None
        self.kills = Counter()
        self.runs = 0
        # what the runs so far committed, and in how long after Commit All: the rate that keeps
        # a kill from outside inside the commit on a fast machine as on a slow one
        self.committed_changes = 0
        self.committed_seconds = 0.0

    # -- serve and the table -------------------------------------------------------------------

    def start_serve(self):
        port = lib.free_port()
        self.url = "http://127.0.0.1:%d" % port
        self.serve_log = open(os.path.join(self.tmp.name, "serve.log"), "w")
        self.serve = subprocess.Popen(
            [self.args.cli, "--db", os.path.join(self.tmp.name, "soak.db"), "serve", "--port",
             str(port)], stdout=subprocess.DEVNULL, stderr=self.serve_log,
            start_new_session=True, preexec_fn=lib.die_with_parent)
        if not lib.wait_http(self.url, self.serve, 60):
            raise RuntimeError("serve did not start")
        session = boto3.session.Session(aws_access_key_id="AKIAFAKECOMMITSOAK00",
                                        aws_secret_access_key="fake", region_name="us-east-1")
        self.ddb = session.client("dynamodb", endpoint_url=self.url)
        self.streams = session.client("dynamodbstreams", endpoint_url=self.url)

    def make_table(self):
        self.ddb.create_table(
            TableName=TABLE, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                                  {"AttributeName": "SK", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                       {"AttributeName": "SK", "KeyType": "RANGE"}])
        self.before = {}
        batch = []
        for item in seed_items():
            self.before[key_of(item)] = item
            batch.append({"PutRequest": {"Item": item}})
            if len(batch) == 25:
                self.write(batch)
                batch = []
        if batch:
            self.write(batch)
        # on only now: the stream holds what the commit writes and nothing else
        self.ddb.update_table(TableName=TABLE, StreamSpecification={
            "StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
        self.stream_arn = self.ddb.describe_table(TableName=TABLE)["Table"]["LatestStreamArn"]

    def write(self, batch):
        while batch:
            r = self.ddb.batch_write_item(RequestItems={TABLE: batch})
            batch = r.get("UnprocessedItems", {}).get(TABLE, [])

    # -- the app -------------------------------------------------------------------------------

    def app(self, mode, extra=None):
        env = lib.client_env({"DYNOSCOPE_TEST_ENDPOINT": self.url,
                              "DYNOSCOPE_TEST_DATA_HOME": self.data_home,
                              "DYNOSCOPE_SOAK_MODE": mode, "AWS_REGION": "us-east-1"})
        env.update(extra or {})
        self.runs += 1
        return subprocess.Popen([self.args.gui, "--tap"], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, env=env, text=True,
                                start_new_session=True, preexec_fn=lib.die_with_parent)

    def finish(self, proc, what):
        out, _ = proc.communicate(timeout=RUN_TIMEOUT)
        if proc.returncode != 0:
            print(out)
            raise RuntimeError("%s: exit %s" % (what, proc.returncode))
        return out

    def open_changes(self):
        with sqlite3.connect("file:%s?mode=ro" % self.store, uri=True, timeout=60) as db:
            return db.execute("SELECT count(*) FROM changes WHERE state != ?",
                              (COMMITTED,)).fetchone()[0]

    def commit_run(self, kill):
        """One run of the app's commit; KILL: None, ("hook", N) or ("signal", seconds after it
        pressed Commit All). Returns True when the commit finished (not killed)."""
        mode = self.rng.choice(["single", "transactions"])
        extra = {"DYNOSCOPE_SOAK_COMMIT_MODE": mode}
        if kill and kill[0] == "hook":
            extra["DYNOSCOPE_SOAK_KILL_AT"] = str(kill[1])
        open_before = self.open_changes()
        proc = self.app("commit", extra)
        lines = []
        deadline = time.monotonic() + RUN_TIMEOUT
        started = None
        # read its output until it pressed Commit All (or ended)
        while started is None:
            ready, _, _ = select.select([proc.stdout], [], [], max(0, deadline - time.monotonic()))
            if not ready:
                proc.kill()
                raise RuntimeError("the app did not start its commit: %s" % "".join(lines))
            line = proc.stdout.readline()
            if line == "":
                break
            lines.append(line)
            if line.startswith("# commit started"):
                started = time.monotonic()
        if kill and kill[0] == "signal" and started is not None:
            end = started + kill[1]
            while proc.poll() is None and time.monotonic() < end:
                ready, _, _ = select.select([proc.stdout], [], [], max(0, end - time.monotonic()))
                if ready:
                    line = proc.stdout.readline()
                    if line == "":
                        break
                    lines.append(line)
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
        rest, _ = proc.communicate(timeout=RUN_TIMEOUT)
        lines.append(rest)
        out = "".join(lines)
        if started is not None:
            self.committed_seconds += time.monotonic() - started
            self.committed_changes += open_before - self.open_changes()
        if proc.returncode == -signal.SIGKILL:
            self.kills[kill[0]] += 1
            log("run %d (%s): killed by %s %s; %d changes open" % (
                self.runs, mode, kill[0], kill[1], self.open_changes()))
            return False
        if proc.returncode != 0:
            print(out)
            raise RuntimeError("the app's commit run failed (exit %s)" % proc.returncode)
        log("run %d (%s): finished: %s" % (
            self.runs, mode, " ".join(l for l in out.splitlines() if l.startswith("# report"))))
        return True

    def next_kill(self, kills_left):
        open_now = self.open_changes()
        # journal writes left: two per group of up to 100 changes, and the judging of a resume
        writes_left = 2 * (open_now // 100 + 1) + 1
        if self.rng.random() < 0.5:
            return ("hook", self.rng.randint(1, max(1, 2 * writes_left // (kills_left + 1))))
        # a kill from outside within the time the open changes would take at the rate seen
        # (twice the share of one kill of it, as for the hook), at most --max-delay
        latest = self.args.max_delay
        if self.committed_changes > 0 and self.committed_seconds > 0:
            rate = self.committed_changes / self.committed_seconds
            latest = min(latest, 2 * (open_now / rate) / (kills_left + 1))
        return ("signal", round(self.rng.uniform(0.0, latest), 3))

    # -- the checks ----------------------------------------------------------------------------

    def changes(self):
        with sqlite3.connect("file:%s?mode=ro" % self.store, uri=True, timeout=60) as db:
            rows = db.execute("SELECT id, item_key, kind, state, original, target, message "
                              "FROM changes WHERE table_name = ?", (TABLE,)).fetchall()
            journal = db.execute("SELECT change_id, state FROM journal ORDER BY seq").fetchall()
        return rows, journal

    def scan(self):
        items, start = {}, None
        while True:
            req = {"TableName": TABLE, "ConsistentRead": True}
            if start:
                req["ExclusiveStartKey"] = start
            r = self.ddb.scan(**req)
            for item in r["Items"]:
                items[key_of(item)] = item
            start = r.get("LastEvaluatedKey")
            if not start:
                return items

    def stream_records(self):
        records = []
        desc = self.streams.describe_stream(StreamArn=self.stream_arn)["StreamDescription"]
        for shard in desc["Shards"]:
            it = self.streams.get_shard_iterator(StreamArn=self.stream_arn,
                                                 ShardId=shard["ShardId"],
                                                 ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            while it:
                r = self.streams.get_records(ShardIterator=it, Limit=1000)
                records.extend(r["Records"])
                # an open shard always hands out a next iterator: stop at its end
                if not r["Records"]:
                    break
                it = r.get("NextShardIterator")
        return records

    def check(self):
        failures = []

        def expect(cond, what):
            if not cond:
                failures.append(what)

        rows, journal = self.changes()
        expect(len(rows) == N_CHANGES, "the store holds %d changes, not %d" % (len(rows), N_CHANGES))
        states = Counter(r[3] for r in rows)
        expect(states == Counter({COMMITTED: N_CHANGES}),
               "change states %s (2 = committed, 3 = conflict, 4 = failed)" % dict(states))
        commits = Counter(change_id for change_id, state in journal if state == COMMITTED)
        twice = [c for c, n in commits.items() if n != 1]
        expect(not twice, "the journal commits %d changes more than once" % len(twice))
        expect(len(commits) == len(rows), "the journal commits %d changes" % len(commits))

        table = self.scan()
        records = defaultdict(list)
        for rec in self.stream_records():
            keys = rec["dynamodb"]["Keys"]
            records[key_of(keys)].append(rec)
        staged_keys = set()
        kinds = Counter()
        for cid, item_key, kind, state, original, target, message in rows:
            original = json.loads(original) if original else None
            target = json.loads(target) if target else None
            item = target or original
            key = key_of(item)
            staged_keys.add(key)
            kinds[KINDS[kind]] += 1
            now = table.get(key)
            if KINDS[kind] == "delete":
                expect(now is None, "deleted %s still in the table" % (key,))
            else:
                expect(lib.canon_item(now) == lib.canon_item(target),
                       "%s %s: the table holds %s, not the target" % (KINDS[kind], key, now))
            recs = records.get(key, [])
            expect(len(recs) == 1, "%s %s: %d stream records" % (KINDS[kind], key, len(recs)))
            if len(recs) != 1:
                continue
            rec = recs[0]
            want = {"create": "INSERT", "update": "MODIFY", "delete": "REMOVE"}[KINDS[kind]]
            expect(rec["eventName"] == want, "%s %s: a %s record" % (KINDS[kind], key,
                                                                      rec["eventName"]))
            expect(lib.canon_item(rec["dynamodb"].get("NewImage")) == lib.canon_item(target),
                   "%s %s: the record's new image is not the target" % (KINDS[kind], key))
            expect(lib.canon_item(rec["dynamodb"].get("OldImage")) == lib.canon_item(original),
                   "%s %s: the record's old image is not the original" % (KINDS[kind], key))
        expect(kinds == Counter({"create": 3000, "update": 4500, "delete": 2500}),
               "kinds staged: %s" % dict(kinds))
        others = [k for k in records if k not in staged_keys]
        expect(not others, "%d stream records for items nobody staged" % len(others))
        untouched = [k for k, v in self.before.items() if k not in staged_keys
                     and lib.canon_item(table.get(k)) != lib.canon_item(v)]
        expect(not untouched, "%d items nobody staged changed" % len(untouched))
        expect(sum(1 for k in self.before if k[0] == "keep") == 500, "the kept items")
        return failures

    # -- the run -------------------------------------------------------------------------------

    def run(self):
        t0 = time.monotonic()
        self.start_serve()
        try:
            self.make_table()
            self.finish(self.app("stage"), "staging the 10,000 changes")
            log("staged %d changes in %.1f s" % (self.open_changes(), time.monotonic() - t0))
            t1 = time.monotonic()
            done = False
            while not done and sum(self.kills.values()) < self.args.kills:
                kills_left = self.args.kills - sum(self.kills.values())
                done = self.commit_run(self.next_kill(kills_left))
                # A kill that came once the last change was committed (before the app ended):
                # nothing is left for another run to commit.
                done = done or self.open_changes() == 0
            if not done:
                done = self.commit_run(None)
            seconds = time.monotonic() - t1
            failures = self.check()
        finally:
            lib.stop_process_group(self.serve)
            self.serve_log.close()
        print("app commit soak (seed %d): %d changes, %d runs, %d kills (%d SIGKILL from "
              "outside, %d right after a journal write), %.1f s, %.0f changes/s overall"
              % (self.args.seed, N_CHANGES, self.runs, sum(self.kills.values()),
                 self.kills["signal"], self.kills["hook"], seconds, N_CHANGES / seconds))
        for f in failures[:50]:
            print("not ok:", f)
        if len(failures) > 50:
            print("... and %d more" % (len(failures) - 50))
        if sum(self.kills.values()) < self.args.min_kills:
            failures.append("only %d kills" % sum(self.kills.values()))
            print("not ok: the commit ended after %d kills, fewer than %d"
                  % (sum(self.kills.values()), self.args.min_kills))
        print("checks: %s" % ("all passed" if not failures else "%d failed" % len(failures)))
        return 0 if not failures else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("gui")
    p.add_argument("cli")
    p.add_argument("--kills", type=int, default=24, help="kills before the last run")
    p.add_argument("--min-kills", type=int, default=12,
                   help="fail when the commit finished before this many kills")
    p.add_argument("--max-delay", type=float, default=1.5,
                   help="the latest a kill from outside comes after Commit All, in seconds")
    p.add_argument("--seed", type=int, default=int(os.environ.get("DYNOSCOPE_SOAK_SEED",
                                                                  random.randrange(1 << 30))))
    args = p.parse_args()
    args.gui = os.path.abspath(args.gui)
    args.cli = os.path.abspath(args.cli)
    return Soak(args).run()


if __name__ == "__main__":
    sys.exit(main())
