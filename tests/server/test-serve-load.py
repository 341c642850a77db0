#!/usr/bin/env python3
"""dynoscope-cli serve under 1,000 connections at once that never finish a request (idle ones,
slowloris ones sending a header byte a second, bodies that stall halfway, 16 MiB bodies trickled a
byte a second): well-behaved clients (new connections and keep-alive ones doing PutItem, GetItem
and Query) are still answered promptly, the server's memory stays bounded while the connections
are held and does not grow from one crowd to the next, and the server closes each slow connection
itself about a minute after it became ready for a request (its idle/request timeout). Then serve
at its file descriptor limit: connections past the number it takes are closed at once, nothing
spins, and once the crowd is gone everything is answered again. And large bodies stalled near
their end: no more than 256 MiB of bodies are held at once, the next large one is refused (503).

Only the standard library; run by Debian's /usr/bin/python3. Prints the measurements."""
import http.client
import json
import os
import re
import resource
import select
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"
TARGET = "DynamoDB_20120810."
CROWD = 1000
KINDS = ("idle", "slowloris", "partial-body", "trickle-body")
MAX_BODY = 16 * 1024 * 1024

# The bounds asserted (MB are 2^20 bytes). Generous for a busy two-core machine and for
# AddressSanitizer builds, whose own bookkeeping is per thread and per allocation.
ANSWER_BOUND_S = 10.0        # every well-behaved request answered within this
REQUEST_TIMEOUT_S = 60       # serve closes a connection that has not sent a whole request by then
CLOSE_SLACK_S = 30           # ... and closes it no later than this after (x3 under ASan)
RSS_CROWD_MB = 96            # RSS over the idle RSS while the crowd is held (ASan: x3)
RSS_AFTER_MB = 48            # RSS over the idle RSS once the crowd is gone (ASan: x3)
RSS_REGROWTH_MB = 16         # a second crowd leaves RSS no higher than the first one did (x3)
BODY_BUDGET_MB = 256         # request bodies serve holds at once
GOOD_THREADS = 4             # two on new connections, two on keep-alive ones
GOOD_ROUNDS = 25             # each round: PutItem, GetItem, Query


def log(*args):
    print("#", *args, flush=True)


def proc_status(pid):
    fields = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields


def rss_mb(pid):
    return int(proc_status(pid)["VmRSS"].split()[0]) / 1024.0


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def connections(pid):
    """The connections serve holds: its sockets but the listening one."""
    n = -1
    fd_dir = "/proc/%d/fd" % pid
    for name in os.listdir(fd_dir):
        try:
            if os.readlink(os.path.join(fd_dir, name)).startswith("socket:"):
                n += 1
        except OSError:
            pass
    return n


def wait_until(predicate, timeout, what):
    """Polls PREDICATE (a condition, not a delay) until it holds; fails after TIMEOUT seconds,
    saying WHAT (a string, or a function giving it then)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out after %ds waiting for %s"
                                 % (timeout, what() if callable(what) else what))
        time.sleep(0.05)


def raise_fd_limit(wanted):
    """Raises this process's soft RLIMIT_NOFILE to WANTED when the hard limit allows; returns
    whether it is at least WANTED now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= wanted:
        return True
    if hard != resource.RLIM_INFINITY and hard < wanted:
        return False
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return True


def request_headers(op, length):
    return ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/x-amz-json-1.0\r\n"
            "X-Amz-Target: %s%s\r\nContent-Length: %d\r\n\r\n" % (TARGET, op, length)).encode()


class Server:
    """One `serve` process on a free port; NOFILE is its (soft, hard) file descriptor limit."""

    def __init__(self, db, nofile):
        def limits():
            resource.setrlimit(resource.RLIMIT_NOFILE, nofile)

        # Under AddressSanitizer, freed memory waits in a quarantine (256 MB by default, to
        # catch uses after free) before it is reused or given back: serve's RSS would be the
        # quarantine's. A smaller one still catches a use soon after the free.
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = ":".join(o for o in (env.get("ASAN_OPTIONS"),
                                                   "quarantine_size_mb=16") if o)
        self.proc = subprocess.Popen([CLI, "--db", db, "serve", "--port", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     preexec_fn=limits, env=env)
        ready, _, _ = select.select([self.proc.stdout], [], [], 120)
        line = self.proc.stdout.readline() if ready else ""
        m = re.fullmatch(r"Listening on http://127\.0\.0\.1:(\d+)\n", line)
        if not m:
            self.proc.kill()
            raise AssertionError("serve did not say it was listening: %r %r"
                                 % (line, self.proc.stderr.read()))
        self.port = int(m.group(1))
        self.pid = self.proc.pid
        with open("/proc/%d/maps" % self.pid) as f:
            self.sanitized = "libasan" in f.read()
        # stderr is read as it comes, so that libmicrohttpd's or ASan's words never block it.
        self.stderr = []
        self.stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self.stderr_reader.start()

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr.append(line)

    def call(self, op, request, conn=None):
        """One request (on CONN, kept alive, or on a connection of its own): (status, body,
        seconds it took)."""
        own = conn is None
        if own:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=4 * ANSWER_BOUND_S)
        start = time.monotonic()
        try:
            body = json.dumps(request).encode()
            conn.request("POST", "/", body=body, headers={
                "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": TARGET + op})
            resp = conn.getresponse()
            data = resp.read()
            return resp.status, data, time.monotonic() - start
        finally:
            if own:
                conn.close()

    def call_raw(self, op, body):
        """A request with BODY as it is: (status, body, seconds it took)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=4 * ANSWER_BOUND_S)
        start = time.monotonic()
        try:
            conn.request("POST", "/", body=body, headers={
                "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": TARGET + op})
            resp = conn.getresponse()
            data = resp.read()
            return resp.status, data, time.monotonic() - start
        finally:
            conn.close()

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.stderr_reader.join(10)
        self.proc.stdout.close()
        self.proc.stderr.close()
        return self.proc.returncode


class Crowd:
    """N connections that never complete a request, driven by one thread: a quarter idle, a
    quarter slowloris (a header byte a second, headers that never end), a quarter with a
    64 KiB body stalled after 32 KiB, a quarter with a 16 MiB body sent a byte a second. Each
    one's closing by the server is timed."""

    def __init__(self, port, n):
        self.port = port
        self.conns = []
        self.sel = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.stop_event = threading.Event()
        self.wake_r, self.wake_w = socket.socketpair()
        self.sel.register(self.wake_r, selectors.EVENT_READ, None)
        slow_headers = (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + b"X-Slow: 0123456789abcdef\r\n" * 4096)
        for i in range(n):
            kind = KINDS[i % len(KINDS)]
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            conn = {"sock": s, "kind": kind, "opened": time.monotonic(), "closed": None,
                    "reply": b"", "feed": b"", "sent": 0}
            if kind == "slowloris":
                conn["feed"] = slow_headers
            elif kind == "partial-body":
                s.sendall(request_headers("PutItem", 64 * 1024) + b" " * (32 * 1024))
            elif kind == "trickle-body":
                s.sendall(request_headers("PutItem", MAX_BODY))
                conn["feed"] = b" " * 4096
            s.setblocking(False)
            self.conns.append(conn)
            self.sel.register(s, selectors.EVENT_READ, conn)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _closed(self, conn, now):
        with self.lock:
            if conn["closed"] is None:
                conn["closed"] = now
        try:
            self.sel.unregister(conn["sock"])
        except (KeyError, ValueError):
            pass

    def _run(self):
        next_tick = time.monotonic()
        while not self.stop_event.is_set():
            now = time.monotonic()
            if now >= next_tick:
                # One byte on every slowloris and trickling connection still open: the pace
                # of the attack (a byte a second), not a synchronisation.
                for conn in self.conns:
                    if conn["feed"] and conn["closed"] is None:
                        try:
                            conn["sock"].send(conn["feed"][conn["sent"]:conn["sent"] + 1])
                            conn["sent"] += 1
                        except (BlockingIOError, InterruptedError):
                            pass
                        except OSError:
                            self._closed(conn, now)
                next_tick = now + 1.0
            for key, _ in self.sel.select(timeout=max(0.0, next_tick - time.monotonic())):
                conn = key.data
                if conn is None:
                    return
                try:
                    data = conn["sock"].recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if data:
                    conn["reply"] += data[:256]
                else:
                    self._closed(conn, time.monotonic())

    def open_count(self):
        with self.lock:
            return sum(1 for c in self.conns if c["closed"] is None)

    def close_times(self):
        """{kind: [seconds from opening to the server's closing, or None while open]}."""
        with self.lock:
            out = {kind: [] for kind in KINDS}
            for c in self.conns:
                out[c["kind"]].append(None if c["closed"] is None else c["closed"] - c["opened"])
            return out

    def close(self):
        self.stop_event.set()
        self.wake_w.send(b"x")
        self.thread.join(30)
        for c in self.conns:
            c["sock"].close()
        self.wake_r.close()
        self.wake_w.close()
        self.sel.close()


class Sampler:
    """Serve's RSS and thread count every 50 ms, from /proc: the peak is kept."""

    def __init__(self, pid):
        self.pid = pid
        self.peak_rss = 0.0
        self.peak_threads = 0
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop_event.wait(0.05):
            try:
                status = proc_status(self.pid)
                rss = int(status["VmRSS"].split()[0]) / 1024.0
            except (OSError, KeyError):
                return  # gone
            self.peak_rss = max(self.peak_rss, rss)
            self.peak_threads = max(self.peak_threads, int(status["Threads"]))

    def stop(self):
        self.stop_event.set()
        self.thread.join(10)


TABLE = {
    "TableName": "Load",
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                             {"AttributeName": "sk", "AttributeType": "N"}],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                  {"AttributeName": "sk", "KeyType": "RANGE"}],
    "BillingMode": "PAY_PER_REQUEST",
}


def good_clients(server, tag):
    """GOOD_THREADS clients doing GOOD_ROUNDS rounds of PutItem, GetItem and Query, half on a
    new connection per request, half on one kept-alive connection. Returns (latencies,
    failures, requests completed)."""
    latencies = []
    failures = []
    done = [0] * GOOD_THREADS
    lock = threading.Lock()

    def client(n):
        keep = n % 2 == 1
        conn = (http.client.HTTPConnection("127.0.0.1", server.port,
                                           timeout=4 * ANSWER_BOUND_S) if keep else None)
        pk = "%s-%d" % (tag, n)
        try:
            for i in range(GOOD_ROUNDS):
                item = {"pk": {"S": pk}, "sk": {"N": str(i)}, "v": {"S": "x" * 100}}
                steps = (
                    ("PutItem", {"TableName": "Load", "Item": item},
                     lambda doc: doc == {}),
                    ("GetItem", {"TableName": "Load",
                                 "Key": {"pk": item["pk"], "sk": item["sk"]}},
                     lambda doc: doc.get("Item") == item),
                    ("Query", {"TableName": "Load", "KeyConditionExpression": "pk = :p",
                               "ExpressionAttributeValues": {":p": item["pk"]},
                               "Select": "COUNT"},
                     lambda doc, i=i: doc.get("Count") == i + 1),
                )
                for op, req, check in steps:
                    status, data, took = server.call(op, req, conn)
                    with lock:
                        latencies.append(took)
                    if status != 200 or not check(json.loads(data)):
                        failures.append((op, status, data[:200]))
                        return
                    done[n] += 1
        except Exception as e:  # noqa: BLE001 - reported by the caller
            failures.append(repr(e))
        finally:
            if conn is not None:
                conn.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(GOOD_THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, failures, sum(done)


def limit_checks(server):
    """What serve refuses at once while the crowd is held: a body declared past 16 MiB (413)
    and headers past what it keeps for them (431). Returns the seconds each took."""
    took = []
    for head, want in ((request_headers("PutItem", 1 << 30), b"HTTP/1.1 413 "),
                       (b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 65536
                        + b"\r\n\r\n", b"HTTP/1.1 431 ")):
        start = time.monotonic()
        with socket.create_connection(("127.0.0.1", server.port),
                                      timeout=4 * ANSWER_BOUND_S) as s:
            try:
                s.sendall(head)
            except OSError:
                pass  # refused before all of it was read: the answer is what counts
            reply = s.recv(4096)
        took.append(time.monotonic() - start)
        if not reply.startswith(want):
            raise AssertionError("expected %r, got %r" % (want, reply[:100]))
    return took


class LoadTestCase(unittest.TestCase):
    def setUp(self):
        if not raise_fd_limit(2 * CROWD + 256):
            self.skipTest("the hard limit on open files (%d) is too low for %d connections"
                          % (resource.getrlimit(resource.RLIMIT_NOFILE)[1], CROWD))
        self.dir = tempfile.mkdtemp(prefix="dynoscope-serve-load-")
        self.db = os.path.join(self.dir, "load.db")
        self.server = None

    def tearDown(self):
        if self.server is not None:
            status = self.server.stop()
            err = "".join(self.server.stderr)
            self.assertNotIn("Sanitizer", err)
            self.assertNotIn("runtime error", err)
            self.assertEqual(status, 0, err[-2000:])
        shutil.rmtree(self.dir)

    def start(self, nofile):
        self.server = Server(self.db, nofile)
        self.scale = 3 if self.server.sanitized else 1
        log("serve pid %d on port %d%s" % (self.server.pid, self.server.port,
                                            " (AddressSanitizer)" if self.server.sanitized
                                            else ""))
        status, data, _ = self.server.call("CreateTable", TABLE)
        self.assertEqual(status, 200, data)
        return self.server


class Crowds(LoadTestCase):
    def test_thousand_slow_connections(self):
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = CROWD + 512
        server = self.start((want if hard == resource.RLIM_INFINITY else min(want, hard), hard))
        s = self.scale

        # The idle RSS: after a round of the well-behaved clients, everything closed.
        latencies, failures, n = good_clients(server, "warm")
        self.assertEqual(failures, [])
        wait_until(lambda: connections(server.pid) == 0, 30 * s,
                   "serve to let go of the warm-up's connections")
        idle_rss = rss_mb(server.pid)
        log("idle: RSS %.1f MB, %s threads; warm-up answers: max %.3f s"
            % (idle_rss, proc_status(server.pid)["Threads"], max(latencies)))

        results = {}
        for cycle in (1, 2):
            sampler = Sampler(server.pid)
            started = time.monotonic()
            crowd = Crowd(server.port, CROWD)
            opened = time.monotonic() - started
            wait_until(lambda: connections(server.pid) >= CROWD,
                       30 * s, "serve to take the %d connections" % CROWD)
            held_rss = rss_mb(server.pid)
            log("cycle %d: %d connections opened in %.1f s and taken: RSS %.1f MB, %s threads"
                % (cycle, CROWD, opened, held_rss, proc_status(server.pid)["Threads"]))

            good_started = time.monotonic()
            latencies, failures, n = good_clients(server, "c%d" % cycle)
            refused = limit_checks(server)
            good_took = time.monotonic() - good_started
            still_open = crowd.open_count()
            latencies.sort()
            log("cycle %d: %d well-behaved requests in %.1f s with %d of the crowd open: "
                "median %.3f s, max %.3f s; 413 and 431 in %s s"
                % (cycle, n, good_took, still_open, latencies[len(latencies) // 2],
                   latencies[-1], ", ".join("%.3f" % t for t in refused)))
            self.assertEqual(failures, [])
            self.assertEqual(n, GOOD_THREADS * GOOD_ROUNDS * 3)
            self.assertLessEqual(latencies[-1], ANSWER_BOUND_S)
            self.assertLessEqual(max(refused), ANSWER_BOUND_S)
            # The crowd was all there while they were answered (the server's timeout is a
            # minute; closes before it are checked below).
            self.assertEqual(still_open, CROWD)

            if cycle == 1:
                # The server closes every one of them about a minute after it opened: the
                # idle and stalled ones, and the slowloris and trickling ones too.
                wait_until(lambda: crowd.open_count() == 0,
                           REQUEST_TIMEOUT_S + CLOSE_SLACK_S * s,
                           lambda: "serve to close the slow connections (%s)"
                           % {k: sum(1 for t in v if t is None)
                              for k, v in crowd.close_times().items()})
                times = crowd.close_times()
                for kind in KINDS:
                    log("cycle 1: %s closed by serve after %.1f to %.1f s"
                        % (kind, min(times[kind]), max(times[kind])))
                    self.assertGreaterEqual(min(times[kind]), REQUEST_TIMEOUT_S - 5, kind)
                    self.assertLessEqual(max(times[kind]), REQUEST_TIMEOUT_S + CLOSE_SLACK_S * s,
                                         kind)
            crowd.close()
            wait_until(lambda: connections(server.pid) == 0,
                       30 * s, "serve to let go of the connections")
            # Answers go on; then the RSS with the crowd gone.
            latencies, failures, n = good_clients(server, "after%d" % cycle)
            self.assertEqual(failures, [])
            sampler.stop()
            after_rss = rss_mb(server.pid)
            results[cycle] = (sampler.peak_rss, after_rss)
            log("cycle %d: peak RSS %.1f MB (+%.1f over idle), %d threads at most; "
                "after: RSS %.1f MB (+%.1f), %s threads"
                % (cycle, sampler.peak_rss, sampler.peak_rss - idle_rss, sampler.peak_threads,
                   after_rss, after_rss - idle_rss, proc_status(server.pid)["Threads"]))
            self.assertLessEqual(sampler.peak_rss - idle_rss, RSS_CROWD_MB * s)
            self.assertLessEqual(after_rss - idle_rss, RSS_AFTER_MB * s)
        # A second crowd leaves nothing more behind than the first (nothing leaks per
        # connection), nor needs more at its peak.
        self.assertLessEqual(results[2][1], results[1][1] + RSS_REGROWTH_MB * s)
        self.assertLessEqual(results[2][0], results[1][0] + RSS_REGROWTH_MB * s)


class FdLimit(LoadTestCase):
    NOFILE = 256

    def test_at_the_descriptor_limit(self):
        """With 256 descriptors, serve takes what they allow and closes the connections past
        that at once (never reaching EMFILE, which would leave SQLite unable to open a file);
        nothing spins; the crowd gone, every request is answered."""
        server = self.start((self.NOFILE, self.NOFILE))
        s = self.scale
        wait_until(lambda: connections(server.pid) == 0, 30 * s,
                   "serve to let go of the CreateTable's connection")
        crowd = Crowd(server.port, 2 * self.NOFILE)
        try:
            # Each connection is either taken (a socket in serve) or closed by serve.
            wait_until(lambda: (connections(server.pid)
                                + 2 * self.NOFILE - crowd.open_count()) >= 2 * self.NOFILE,
                       10 * s, lambda: "each connection to be taken or closed (%d taken, "
                       "%d closed)" % (connections(server.pid),
                                       2 * self.NOFILE - crowd.open_count()))
            taken = connections(server.pid)
            cpu0 = cpu_seconds(server.pid)
            wall0 = time.monotonic()
            # A well-behaved client arriving now is closed too, not left waiting.
            with self.assertRaises((ConnectionError, http.client.RemoteDisconnected)):
                server.call("ListTables", {})
            refused_in = time.monotonic() - wall0
            # Held for two seconds: the pace of the check, not a synchronisation.
            time.sleep(2.0)
            cpu = cpu_seconds(server.pid) - cpu0
            wall = time.monotonic() - wall0
            log("at %d descriptors: %d connections taken, %d closed at once; a new client "
                "refused in %.3f s; serve used %.2f s of CPU in %.1f s"
                % (self.NOFILE, taken, 2 * self.NOFILE - crowd.open_count(), refused_in,
                   cpu, wall))
            self.assertLess(taken, self.NOFILE - 32)
            self.assertLess(cpu, 0.25 * wall)
            self.assertIsNone(server.proc.poll())
        finally:
            crowd.close()
        wait_until(lambda: connections(server.pid) == 0,
                   30 * s, "serve to let go of the connections")
        latencies, failures, n = good_clients(server, "fd")
        self.assertEqual(failures, [])
        self.assertEqual(n, GOOD_THREADS * GOOD_ROUNDS * 3)
        self.assertLessEqual(max(latencies), ANSWER_BOUND_S)


class BodyBudget(LoadTestCase):
    def test_bodies_held_at_once(self):
        """Sixteen 16 MiB bodies that stall near their end: serve holds no more than 256 MiB of
        bodies at once, so a seventeenth is refused at once (503: its length says it would not
        fit); smaller requests go on; once the stalled ones are gone the large ones are taken
        again, and the memory is given back."""
        server = self.start(resource.getrlimit(resource.RLIMIT_NOFILE))
        s = self.scale
        wait_until(lambda: connections(server.pid) == 0, 30 * s,
                   "serve to let go of the CreateTable's connection")
        idle_rss = rss_mb(server.pid)
        sampler = Sampler(server.pid)
        stalled = []
        part = MAX_BODY - 512 * 1024
        try:
            for _ in range(BODY_BUDGET_MB // 16):
                sock = socket.create_connection(("127.0.0.1", server.port),
                                                timeout=4 * ANSWER_BOUND_S)
                sock.sendall(request_headers("PutItem", MAX_BODY) + b" " * part)
                stalled.append(sock)
            # Read by serve once a new 16 MiB body is refused: a condition, polled.
            start = time.monotonic()

            def refused():
                with socket.create_connection(("127.0.0.1", server.port),
                                              timeout=4 * ANSWER_BOUND_S) as sock:
                    sock.sendall(request_headers("PutItem", MAX_BODY))
                    return sock.recv(4096).startswith(b"HTTP/1.1 503 ")
            wait_until(refused, 30 * s, "a 16 MiB body to be refused")
            refused_in = time.monotonic() - start
            held_rss = rss_mb(server.pid)
            # A small request still fits.
            status, data, took = server.call("PutItem", {"TableName": "Load", "Item": {
                "pk": {"S": "small"}, "sk": {"N": "1"}}})
            self.assertEqual(status, 200, data)
            self.assertLessEqual(took, ANSWER_BOUND_S)
        finally:
            for sock in stalled:
                sock.close()
        wait_until(lambda: connections(server.pid) == 0, 30 * s,
                   "serve to let go of the stalled bodies")
        # The budget is given back: a whole 16 MiB body is read again (and answered: it is
        # no JSON).
        body = b" " * (MAX_BODY - 2) + b"{}"
        status, data, big_took = server.call_raw("ListTables", body)
        self.assertEqual(status, 200, data)
        self.assertLessEqual(big_took, ANSWER_BOUND_S)
        sampler.stop()
        after_rss = rss_mb(server.pid)
        log("%d bodies of 16 MiB stalled %d KiB before their end: a new one refused (503) "
            "after %.2f s, RSS %.1f MB (+%.1f), peak %.1f MB (+%.1f); a small PutItem in %.3f s; "
            "gone, a 16 MiB body taken in %.3f s; after: RSS %.1f MB (+%.1f)"
            % (len(stalled), (MAX_BODY - part) // 1024, refused_in, held_rss,
               held_rss - idle_rss, sampler.peak_rss, sampler.peak_rss - idle_rss, took,
               big_took, after_rss, after_rss - idle_rss))
        self.assertLessEqual(sampler.peak_rss - idle_rss, (BODY_BUDGET_MB + RSS_CROWD_MB) * s)
        self.assertLessEqual(after_rss - idle_rss, RSS_AFTER_MB * s)


if __name__ == "__main__":
    program = unittest.main(verbosity=2, exit=False)
    sys.exit(0 if program.result.wasSuccessful() else 1)
