"""The final proofs, from what was acknowledged: each check is (name, passed, detail);
passed None means it could not be judged (said why). `Final` is what was read back from the
database after serve was stopped cleanly and restarted, with nothing else running."""
import collections
import sqlite3

from .ledger import (ACCOUNTS, ACKED, COUNTERS, GROUPS, OPENING_BALANCE, PROJECTED,
                     UNCERTAIN)

SHOWN = 5   # examples shown per failing check


class Final:
    def __init__(self, items, index_items, queries, records, live_records):
        self.items = items                # pk -> item: a Scan of the table
        self.index_items = index_items    # pk -> item: a Scan of the index
        self.queries = queries            # (group, forward) -> [item]: Queries of the index
        self.records = records            # [(shard, record)]: the stream from TRIM_HORIZON
        self.live_records = live_records  # [(shard, record)]: what the reader got while running


def result(name, failures, ok_detail):
    if failures:
        return name, False, "%d: %s" % (len(failures), "; ".join(map(str, failures[:SHOWN])))
    return name, True, ok_detail


def applied(status):
    return status in (ACKED, UNCERTAIN)


def check_items(ledger, final):
    out = []
    missing, kept = [], 0
    for pk, put in ledger.puts.items():
        delete = ledger.deletes.get(pk)
        if put["status"] != ACKED or (delete and applied(delete["status"])):
            continue
        kept += 1
        if final.items.get(pk) != put["item"]:
            missing.append("%s: %s" % (pk, "absent" if pk not in final.items else "differs"))
    out.append(result("every acknowledged put present (unless deleted after)", missing,
                      "%d items, each as put" % kept))
    present = ["%s (%s)" % (pk, d["kind"]) for pk, d in ledger.deletes.items()
               if d["status"] == ACKED and pk in final.items]
    acked = sum(d["status"] == ACKED for d in ledger.deletes.values())
    out.append(result("every acknowledged delete absent", present, "%d deletes" % acked))
    phantoms = []
    for pk, item in final.items.items():
        put = ledger.puts.get(pk)
        if pk in ledger.setup or (put and applied(put["status"]) and item == put["item"]):
            continue
        phantoms.append("%s: %s" % (pk, "never written" if put is None else put["status"]))
    out.append(result("no item but what was written (acknowledged or uncertain)", phantoms,
                      "%d items in the table" % len(final.items)))
    return out


def stream_index(records):
    """INSERT/REMOVE records by key, MODIFY records by the op that wrote them (`lastop`)."""
    inserts, removes, modifies = (collections.defaultdict(list) for _ in range(3))
    for _, r in records:
        d, name = r["dynamodb"], r["eventName"]
        pk = d["Keys"]["pk"]["S"]
        if name == "INSERT":
            inserts[pk].append(d)
        elif name == "REMOVE":
            removes[pk].append(d)
        else:
            modifies[d["NewImage"].get("lastop", {}).get("S")].append(d)
    return inserts, removes, modifies


def delta(d, attribute):
    return int(d["NewImage"][attribute]["N"]) - int(d["OldImage"][attribute]["N"])


def check_counters_and_accounts(ledger, final, modifies):
    out = []
    # Counters: between the acknowledged ADDs and those plus the uncertain ones; exactly the
    # acknowledged plus the uncertain ones the stream says were applied.
    bad, shown = [], []
    for counter in COUNTERS:
        adds = [(op, a) for op, a in ledger.adds.items() if a["counter"] == counter]
        low = sum(a["amount"] for _, a in adds if a["status"] == ACKED)
        high = low + sum(a["amount"] for _, a in adds if a["status"] == UNCERTAIN)
        exact = low + sum(a["amount"] for op, a in adds
                          if a["status"] == UNCERTAIN and modifies.get(op))
        n = int(final.items.get(counter, {}).get("n", {}).get("N", "-1"))
        shown.append("%s=%d in [%d, %d]" % (counter, n, low, high))
        if not low <= n <= high or n != exact:
            bad.append("%s = %d, acknowledged %d, with uncertain %d, per the stream %d"
                       % (counter, n, low, high, exact))
    out.append(result("each counter between its acknowledged and acknowledged+uncertain ADDs",
                      bad, ", ".join(shown)))
    # Accounts: the total never changes; each balance is what the applied transfers make it.
    balances = {pk: int(final.items.get(pk, {}).get("balance", {}).get("N", "-1"))
                for pk in ACCOUNTS}
    total = OPENING_BALANCE * len(ACCOUNTS)
    torn = [] if sum(balances.values()) == total and min(balances.values()) >= 0 else \
        ["sum %d (expected %d), balances %s" % (sum(balances.values()), total, balances)]
    out.append(result("the sum of all balances unchanged (no torn transaction)", torn,
                      "%d over %d accounts" % (total, len(ACCOUNTS))))
    expected = dict.fromkeys(ACCOUNTS, OPENING_BALANCE)
    for op, t in ledger.transfers.items():
        if t["status"] == ACKED or (t["status"] == UNCERTAIN and modifies.get(op)):
            expected[t["from"]] -= t["amount"]
            expected[t["to"]] += t["amount"]
    off = ["%s = %d, expected %d" % (pk, balances[pk], expected[pk])
           for pk in ACCOUNTS if balances[pk] != expected[pk]]
    out.append(result("each balance = opening + acknowledged transfers (+ uncertain ones applied)",
                      off, "%d accounts" % len(ACCOUNTS)))
    return out


def check_index(final):
    projected = {pk: {k: item[k] for k in PROJECTED}
                 for pk, item in final.items.items() if "grp" in item and "ts" in item}
    bad = []
    for pk in sorted(set(projected) | set(final.index_items)):
        if projected.get(pk) != final.index_items.get(pk):
            bad.append("%s: table projects %s, index has %s"
                       % (pk, projected.get(pk), final.index_items.get(pk)))
    for group in GROUPS:
        want = sorted((v for v in projected.values() if v["grp"]["S"] == group),
                      key=lambda v: int(v["ts"]["N"]))
        for forward in (True, False):
            got = final.queries[(group, forward)]
            if got != (want if forward else want[::-1]):
                bad.append("Query %s %s: %d items, expected %d"
                           % (group, "forward" if forward else "backward", len(got), len(want)))
    return [result("the GSI equals what the table projects (Scan and Query of the index)", bad,
                   "%d index items, %d groups queried both ways" % (len(projected), len(GROUPS)))]


def check_stream(ledger, final, inserts, removes, modifies):
    out = []
    missing = []

    def want(records, n, what, test):
        if len(records) != n or not all(test(d) for d in records):
            missing.append("%s: %d record(s)" % (what, len(records)))

    for pk, item in ledger.setup.items():
        want(inserts.get(pk, []), 1, "INSERT " + pk, lambda d: d["NewImage"] == item)
    for pk, put in ledger.puts.items():
        if put["status"] == ACKED:
            want(inserts.get(pk, []), 1, "INSERT " + pk,
                 lambda d: d["NewImage"] == put["item"] and "OldImage" not in d)
    for pk, d in ledger.deletes.items():
        if d["status"] == ACKED:
            item = ledger.puts[pk]["item"]
            want(removes.get(pk, []), 1, "REMOVE " + pk,
                 lambda r: r["OldImage"] == item and "NewImage" not in r)
    for op, a in ledger.adds.items():
        if a["status"] == ACKED:
            want(modifies.get(op, []), 1, "ADD " + op,
                 lambda d: d["Keys"]["pk"]["S"] == a["counter"] and delta(d, "n") == a["amount"])
    for op, t in ledger.transfers.items():
        if t["status"] == ACKED:
            signs = {t["from"]: -t["amount"], t["to"]: t["amount"]}
            want(modifies.get(op, []), 2, "transfer " + op,
                 lambda d: delta(d, "balance") == signs.get(d["Keys"]["pk"]["S"]))
    n_acked = sum(n for (kind, status), n in ledger.counts.items() if status == ACKED)
    out.append(result("a stream record for every acknowledged change", missing,
                      "%d acknowledged writes and %d opening items found"
                      % (n_acked, len(ledger.setup))))

    # The other way: each record is one write acknowledged or uncertain, at most once, and a
    # transfer's records come in pairs.
    phantoms = []
    for pk, records in inserts.items():
        put = ledger.puts.get(pk)
        if len(records) != 1 or not (pk in ledger.setup or (put and applied(put["status"]))):
            phantoms.append("%d INSERT %s (%s)" % (len(records), pk, put and put["status"]))
    for pk, records in removes.items():
        d = ledger.deletes.get(pk)
        if len(records) != 1 or not (d and applied(d["status"])):
            phantoms.append("%d REMOVE %s (%s)" % (len(records), pk, d and d["status"]))
    for op, records in modifies.items():
        write = ledger.adds.get(op) or ledger.transfers.get(op)
        n = 1 if op in ledger.adds else 2
        if len(records) != n or not (write and applied(write["status"])):
            phantoms.append("%d MODIFY by %s (%s)" % (len(records), op, write and write["status"]))
    out.append(result("no stream record of a change never made (each one acknowledged or "
                      "uncertain, once)", phantoms, "%d records" % len(final.records)))

    # Replayed in order, the records rebuild the table: each OldImage is the image before.
    state, broken = {}, []
    for _, r in final.records:
        d = r["dynamodb"]
        pk = d["Keys"]["pk"]["S"]
        if d.get("OldImage") != state.get(pk):
            broken.append("%s %s: OldImage is not the item before" % (r["eventName"], pk))
        if "NewImage" in d:
            state[pk] = d["NewImage"]
        else:
            state.pop(pk, None)
    if state != final.items:
        differ = [pk for pk in set(state) | set(final.items)
                  if state.get(pk) != final.items.get(pk)]
        broken.append("replayed table differs from the table at %d keys, e.g. %s"
                      % (len(differ), differ[:SHOWN]))
    out.append(result("the stream replayed in order rebuilds the table", broken,
                      "%d records replayed" % len(final.records)))

    # What the reader was given while serve was being killed lasted.
    by_seq = {(shard, r["dynamodb"]["SequenceNumber"]): r for shard, r in final.records}
    gone = ["%s %s" % (r["eventName"], seq) for shard, r in final.live_records
            for seq in [r["dynamodb"]["SequenceNumber"]] if by_seq.get((shard, seq)) != r]
    out.append(result("every record read while running is in the final stream, unchanged", gone,
                      "%d records read while running" % len(final.live_records)))
    return out


def check_integrity(db):
    with sqlite3.connect("file:%s?mode=ro" % db, uri=True) as conn:
        rows = conn.execute("PRAGMA integrity_check").fetchall()
    conn.close()
    ok = rows == [("ok",)]
    return [("PRAGMA integrity_check", ok, "ok" if ok else str(rows[:SHOWN]))]


def all_checks(ledger, final, db):
    inserts, removes, modifies = stream_index(final.records)
    return (check_items(ledger, final)
            + check_counters_and_accounts(ledger, final, modifies)
            + check_index(final)
            + check_stream(ledger, final, inserts, removes, modifies)
            + check_integrity(db))


def check_processes(lives):
    """Every serve process ended by us: killed, or stopped with SIGTERM and exiting 0 within its
    time (under LeakSanitizer a leak makes that exit nonzero); nothing on stderr (GLib's
    warnings, sanitizer reports: a sanitizer's first line is shown)."""
    died = ["#%d (pid %d) exit %s after %.1f s: %s" % (l.number, l.pid, l.returncode, l.seconds,
                                                        l.stderr_text().strip()[-300:])
            for l in lives if l.ending is None]
    stops = [l for l in lives if l.ending and l.ending.startswith("stopped")]
    unclean = ["#%d %s, exit %s: %s" % (l.number, l.ending, l.returncode,
                                         l.stderr_text().strip()[-300:])
               for l in stops if l.ending != "stopped" or l.returncode != 0]
    reports = ["#%d (%s): %s" % (l.number, l.log_path,
                                  l.sanitizer_report() or l.stderr_text().strip()[:300])
               for l in lives if l.ending != "could not listen" and l.stderr_text().strip()]
    return [result("serve never died but when killed", died, "%d processes" % len(lives)),
            result("serve stopped by SIGTERM exits 0 (under load, and at the end)", unclean,
                   "%d stops" % len(stops)),
            result("serve wrote nothing on stderr (no warning, no sanitizer report)", reports,
                   "nothing")]


def rss_thirds(life):
    samples = [kb for _, kb in life.rss]
    n = len(samples)
    return samples[:n // 3], samples[n // 3:2 * n // 3], samples[2 * n // 3:]


def check_rss(lives, ratio=1.5, slack_mb=16, least=9):
    """In the longest-lived process under load, RSS levels off: the highest sample of its last
    third is at most `ratio` times that of its second third, plus some slack (the first third
    is warming up: SQLite's page cache, glibc's arenas, one per connection thread)."""
    name = "RSS of serve flat (longest-lived process: max of last third <= %.1fx max of " \
           "second third + %d MB)" % (ratio, slack_mb)
    if not lives:
        return [(name, None, "no process")]
    life = max(lives, key=lambda l: len(l.rss))
    first, second, last = rss_thirds(life)
    if len(life.rss) < least:
        return [(name, None, "only %d samples in process #%d" % (len(life.rss), life.number))]
    ok = max(last) <= ratio * max(second) + slack_mb * 1024
    return [(name, ok, "process #%d, %d samples: thirds' max %.1f, %.1f, %.1f MB"
             % (life.number, len(life.rss), max(first) / 1024, max(second) / 1024,
                max(last) / 1024))]


def check_anomalies(ledger, crc_mismatches, timeouts):
    """What the clients saw while running that should never be."""
    seen = ["%s (%d, e.g. %s)" % (what, len(examples), str(examples[0])[:400])
            for what, examples in sorted(ledger.anomalies.items())]
    if crc_mismatches:
        seen.append("answers whose x-amz-crc32 is wrong: %d" % crc_mismatches)
    if timeouts:
        seen.append("requests that timed out (serve stalled): %d" % timeouts)
    return [result("nothing wrong seen while running (reads, errors, stalls)", seen, "none")]
