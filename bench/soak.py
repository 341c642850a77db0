#!/usr/bin/python3
"""soak.py: a soak of `dynoscope-cli serve` with kills (issue 27).

Serves a database file, creates a table (a GSI, a stream with both images) and runs a dozen
client threads for --seconds: conditional puts of new keys, ADD on hot counters, transfers
between accounts in TransactWriteItems, BatchWriteItem (UnprocessedItems sent again), deletes of
acknowledged keys, Queries of the GSI, Scans, and a Streams consumer. Meanwhile serve is stopped
every --kill-min to --kill-max seconds, mostly with SIGKILL, sometimes with SIGTERM under load,
and started again on the same file and port (sometimes killed once more while it opens the
file), except in the last --calm part of the run, in which the RSS of one long-lived process is
watched. Then serve is stopped with SIGTERM, started again to read everything back, stopped
again, and what was acknowledged is proved present (bench/soaklib/checks.py). Prints its
figures and each check; exits 1 if any check fails (2 if the soak itself could not run).

    /usr/bin/python3 bench/soak.py [path/to/dynoscope-cli] [--seconds 600] [--seed N]

Only the Python standard library is used: serve without --auth takes any signature, and raw
HTTP keeps each answer's fate exact (an SDK's retries would blur what was acknowledged).
"""
import argparse
import collections
import functools
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from soaklib import checks  # noqa: E402
from soaklib.client import Client, Endpoint, Lost, Stopped  # noqa: E402
from soaklib.ledger import (ACKED, GROUPS, INDEX, NOT_APPLIED, TABLE, UNCERTAIN,  # noqa: E402
                            Ledger)
from soaklib.server import Serve, StartFailed, capped_quarantine_env  # noqa: E402
from soaklib.streams import StreamReader  # noqa: E402
from soaklib import workload as w  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The client threads: a dozen.
THREADS = [(w.Putter, 3), (w.Batcher, 1), (w.Deleter, 1), (w.Adder, 2), (w.Mover, 2),
           (w.Querier, 1), (w.Scanner, 1), (w.StreamFollower, 1)]
WRITE_KINDS = ["put", "batch put", "delete", "batch delete", "add", "transfer"]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("cli", nargs="?",
                   default=os.path.join(ROOT, "build-release", "src", "cli", "dynoscope-cli"))
    p.add_argument("--seconds", type=float, default=600, help="how long the workload runs")
    p.add_argument("--seed", type=int, default=None, help="for the kills and the workload")
    p.add_argument("--kill-min", type=float, default=2.0, help="seconds between kills, at least")
    p.add_argument("--kill-max", type=float, default=8.0, help="seconds between kills, at most")
    p.add_argument("--term-share", type=float, default=0.15,
                   help="the share of the stops made with SIGTERM under load instead")
    p.add_argument("--start-kill-share", type=float, default=0.15,
                   help="the share of the restarts first killed while serve opens the file")
    p.add_argument("--calm", type=float, default=0.3,
                   help="the last part of the run without kills (its RSS is watched)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds a request may wait for its answer")
    p.add_argument("--work-dir", help="where the database and serve's logs go (default: a "
                   "temporary folder, removed unless a check fails or --keep)")
    p.add_argument("--keep", action="store_true", help="keep the work folder")
    return p.parse_args()


def read_all(call, op, request, key="Items"):
    """Every page of a read (no kills any more: a lost answer is only asked again)."""
    out, request, lost = [], dict(request), 0
    while True:
        try:
            status, body = call(op, request)
        except Lost:
            lost += 1
            if lost > 10:
                raise
            continue
        if status != 200:
            raise RuntimeError("%s: %s" % (op, body))
        out += body.get(key, [])
        if "LastEvaluatedKey" not in body:
            return out
        request["ExclusiveStartKey"] = body["LastEvaluatedKey"]


def read_back(serve, live_records, rng):
    """Restarts serve on the file and reads everything back, with nothing else running."""
    serve.start()
    client = Client(serve.endpoint)
    call = functools.partial(client.call, stop=serve.died)   # Stopped if serve dies
    items = {i["pk"]["S"]: i for i in read_all(call, "Scan", {"TableName": TABLE,
                                                               "ConsistentRead": True})}
    index_items = {i["pk"]["S"]: i for i in read_all(call, "Scan", {"TableName": TABLE,
                                                                     "IndexName": INDEX})}
    queries = {}
    for group in GROUPS:
        for forward in (True, False):
            queries[(group, forward)] = read_all(call, "Query", {
                "TableName": TABLE, "IndexName": INDEX, "KeyConditionExpression": "grp = :g",
                "ExpressionAttributeValues": {":g": {"S": group}}, "ScanIndexForward": forward})
    errors = []
    # GetRecords' largest pages: each Streams call costs the engine a pass over every record the
    # stream keeps (ddb_stream_get in src/engine/stream-store.c), so fewer calls are faster.
    reader = StreamReader(call, lambda what, example: errors.append((what, example)), rng,
                          limit=1000)
    reader.drain()
    if errors:
        raise RuntimeError("reading the stream back: %s" % errors[:3])
    client.close()
    return checks.Final(items, index_items, queries, reader.records, live_records)


def run_kills(args, serve, rng, started):
    """Stops serve at random moments, mostly with SIGKILL, sometimes with SIGTERM under load,
    and starts it again, sometimes killing a first attempt while it opens the file; restarts
    it at once if it dies by itself. Returns what it did (a Counter)."""
    end = started + args.seconds
    calm_from = end - args.calm * args.seconds
    done = collections.Counter()
    while True:
        now = time.monotonic()
        if now >= end:
            return done
        next_kill = now + rng.uniform(args.kill_min, args.kill_max)
        if serve.died.wait(min(next_kill, end) - now):
            serve.died.clear()      # it exited on its own: booked in its Life; serve again
            serve.start()
            continue
        if next_kill > min(end, calm_from):
            continue
        if rng.random() < args.term_share:
            serve.stop()
            done["SIGTERM under load"] += 1
        else:
            serve.kill()
            done["SIGKILL"] += 1
        if rng.random() < args.start_kill_share:
            serve.kill_while_starting(rng.uniform(0, 0.1))
            done["SIGKILL while starting"] += 1
        serve.start()


def mb(kb):
    return "%.1f MB" % (kb / 1024)


def print_figures(args, seed, elapsed, kills, serve, lives, ledger, workers):
    print("soak: %.0f s of workload, seed %d, %d client threads, %s" %
          (elapsed, seed, len(workers), args.cli))
    changes = serve.port_changes
    stops = kills["SIGKILL"] + kills["SIGTERM under load"]
    print("serve stopped every %g-%g s but in the last %.0f s: %d times with SIGKILL, %d with "
          "SIGTERM under load; %d starts killed while opening the file"
          % (args.kill_min, args.kill_max, args.calm * args.seconds, kills["SIGKILL"],
             kills["SIGTERM under load"], kills["SIGKILL while starting"]))
    print("restarts on the same port: %d, on a new one: %d" % (stops - changes, changes))
    print()
    print("%-14s %14s %10s %12s" % ("writes", "acknowledged", "uncertain", "not applied"))
    totals = collections.Counter()
    for kind in WRITE_KINDS:
        row = [ledger.counts[(kind, s)] for s in (ACKED, UNCERTAIN, NOT_APPLIED)]
        totals.update(dict(zip((ACKED, UNCERTAIN, NOT_APPLIED), row)))
        print("%-14s %14d %10d %12d" % (kind, *row))
    print("%-14s %14d %10d %12d" % ("all", totals[ACKED], totals[UNCERTAIN], totals[NOT_APPLIED]))
    retried = [t for t in ledger.transfers.values() if t["retried"]]
    print("transfers sent again with their ClientRequestToken after a lost answer: %d "
          "(then %s)" % (len(retried), dict(collections.Counter(t["status"] for t in retried))))
    print()
    answered, lost, notes = collections.Counter(), collections.Counter(), collections.Counter()
    by_kind = collections.Counter()
    for worker in workers:
        answered.update(worker.answered)
        lost.update(worker.lost)
        notes.update(worker.notes)
        by_kind[worker.kind] += sum(worker.answered.values())
    requests = sum(by_kind.values())
    print("requests answered: %d, %.1f/s; answers lost: %d" %
          (requests, requests / elapsed, sum(lost.values())))
    print("  per thread kind: " + ", ".join("%s %.1f/s" % (k, n / elapsed)
                                             for k, n in by_kind.items()))
    print("  per operation:   " + ", ".join("%s %.1f/s" % (op, n / elapsed)
                                             for op, n in sorted(answered.items())))
    if notes:
        print("  also: " + ", ".join("%s: %d" % item for item in sorted(notes.items())))
    latency = collections.defaultdict(list)
    for worker in workers:
        for op, seconds in worker.latency.items():
            latency[op] += seconds
    print("latency of answered requests, from the attempt that was answered (p50 / p99 / max, "
          "ms):")
    for op, seconds in sorted(latency.items()):
        seconds.sort()
        print("  %-18s %8.1f %8.1f %8.1f" % (op, 1000 * seconds[len(seconds) // 2],
                                              1000 * seconds[int(len(seconds) * 0.99)],
                                              1000 * seconds[-1]))
    print()
    lives = [l for l in lives if l.rss]
    samples = [kb for l in lives for _, kb in l.rss]
    if samples:
        print("RSS (VmRSS every second): %d samples over %d processes: min %s, median %s, "
              "max %s" % (len(samples), len(lives), mb(min(samples)),
                          mb(statistics.median(samples)), mb(max(samples))))
        longest = max(lives, key=lambda l: len(l.rss))
        trace = longest.rss[::max(1, len(longest.rss) // 12)]
        print("  longest-lived process #%d (%.0f s): %s" % (
            longest.number, longest.seconds,
            ", ".join("%.0fs %s" % (t, mb(kb)) for t, kb in trace)))


def main():
    args = parse_args()
    # SIGTERM (a test runner's timeout) ends the run as Ctrl-C does: serve is not left behind.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    if not os.access(args.cli, os.X_OK):
        print("soak: %s is not there: build it (ninja -C build-release)" % args.cli)
        return 2
    work = args.work_dir or tempfile.mkdtemp(prefix="dynoscope-soak-")
    os.makedirs(work, exist_ok=True)
    db = os.path.join(work, "soak.db")
    rng = random.Random(seed)
    ledger = Ledger()
    env = capped_quarantine_env(args.cli)
    if env:
        print("soak: serve is built with AddressSanitizer: ASAN_OPTIONS=%s" % env["ASAN_OPTIONS"])
    serve = Serve(args.cli, db, work, Endpoint(), env)
    workers = []
    try:
        serve.start()
        setup = Client(serve.endpoint, args.timeout)
        w.create_table(setup)
        w.seed_items(setup, ledger)
        setup.close()

        ctx = w.Context(serve.endpoint, ledger, seed, args.timeout)
        workers = [cls(ctx, i) for cls, n in THREADS for i in range(n)]
        started = time.monotonic()
        for worker in workers:
            worker.start()
        kills = run_kills(args, serve, rng, started)
        ctx.stop.set()
        elapsed = time.monotonic() - started
        with ledger.deletable_cond:
            ledger.deletable_cond.notify_all()
        for worker in workers:
            worker.join()   # the stream's consumer first catches up with the last writes
        serve.stop()

        serve.endpoint = Endpoint()     # the clients above are done with theirs
        live = next(x for x in workers if isinstance(x, w.StreamFollower)).reader.records
        final = read_back(serve, live, rng)
        serve.stop()
        serve.close()
    except (StartFailed, Stopped) as e:
        # serve could not start again on the file it was killed on, or died while read back.
        serve.close()
        print("FAIL  serve %s: %s" % ("could not start" if isinstance(e, StartFailed)
                                      else "died while the database was read back", e))
        for life in serve.lives:
            if life.ending is None and life.exited.is_set():
                print("  #%d exit %s: %s" % (life.number, life.returncode,
                                             life.stderr_text().strip()[-1000:]))
        print("soak: the database and serve's logs are in %s" % work)
        return 1
    except BaseException as e:
        serve.close()
        if not isinstance(e, Exception):
            print("soak: interrupted (the work folder is kept: %s)" % work)
            raise
        traceback.print_exc()
        print("soak: could not run (the work folder is kept: %s)" % work)
        return 2

    workload_lives = serve.lives[:-1]   # the last one only read everything back
    print_figures(args, seed, elapsed, kills, serve, workload_lives, ledger, workers)
    print("read back after the run (a Scan of the table and of the index, 16 Queries, the "
          "stream from TRIM_HORIZON) in %.0f s" % serve.lives[-1].seconds)
    results = (checks.all_checks(ledger, final, db)
               + checks.check_processes(serve.lives)
               + checks.check_rss(workload_lives)
               + checks.check_anomalies(ledger, sum(x.client.crc_mismatches for x in workers),
                                        sum(x.timeouts for x in workers)))
    print()
    print("checks:")
    for name, ok, detail in results:
        print("  %s  %s: %s" % ({True: "PASS", False: "FAIL", None: "SKIP"}[ok], name, detail))
    failed = sum(ok is False for _, ok, _ in results)
    print()
    print("soak: %d checks, %d failed" % (len(results), failed))
    if failed or args.keep or args.work_dir:
        print("soak: the database and serve's logs are in %s" % work)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
