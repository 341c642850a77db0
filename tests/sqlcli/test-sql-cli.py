#!/usr/bin/env python3
"""dynoscope-cli sql, run as a user runs it, over the embedded engine (--db), over
`dynoscope-cli serve` (--endpoint, through a proxy here that counts the Query and Scan requests
it forwards) and over AWS's DynamoDB Local (skipped when java or its jar is missing).

The issue's checks: exact numbers through JOINs and ORDER BY (38 digits, 1E-130, negative
decimals, 1.0 = 1); the drift JOIN over a blog of 20,000 posts and 2,000 authors returns exactly
the known set of drifted copies (tests/sqlcli/blogdata.py); `WHERE PK = …` is one Query; the
drift JOIN over an endpoint costs no more requests than two full Scans; writes, ATTACH,
load_extension, unsafe PRAGMAs and schema changes are refused and write nothing; --explain reads
nothing; SQL errors are SQLite's; an index is a table; Ctrl-C stops reading.

Usage: test-sql-cli.py CLI [unittest arguments, e.g. Engine or Serve.test_drift_join]"""
import csv
import decimal
import http.server
import io
import json
import os
import re
import select
import shutil
import signal
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, HERE)
import blogdata  # noqa: E402
import dynoscope_testlib as lib  # noqa: E402

CLI = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli")
STATS = re.compile(r"^requests=(\d+) pages=(\d+) items_read=(\d+) rcu=([0-9.eE+-]+)$", re.M)
DRIFT = ("SELECT p.PK, p.SK, p.authorName, u.name FROM Blog p JOIN Blog u "
         "ON u.PK = p.authorId AND u.SK = 'META' WHERE p.authorName IS NOT u.name")
D = decimal.Decimal


def run(*args, timeout=300, env=None):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout,
                          env=lib.client_env(env))


def stats_of(stderr):
    """The --stats line's figures as a dict, or None."""
    m = STATS.findall(stderr)
    if not m:
        return None
    req, pages, items, rcu = m[-1]
    return {"requests": int(req), "pages": int(pages), "items_read": int(items),
            "rcu": float(rcu)}


def jsonl_rows(stdout):
    return [json.loads(line, parse_float=D) for line in stdout.splitlines() if line.strip()]


# ---------------------------------------------------------------------------------------------
# A proxy in front of `serve` that counts the requests, and can slow down Scans


class ProxyHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        srv = self.server
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        target = self.headers.get("X-Amz-Target", "")
        op = target.rsplit(".", 1)[-1]
        try:
            req = json.loads(body)
        except ValueError:
            req = None
        with srv.lock:
            srv.log.append((op, req))
            delay = srv.scan_delay if op == "Scan" and isinstance(req, dict) and \
                req.get("TableName") in srv.slow_tables else 0
        if delay:
            time.sleep(delay)
        headers = {k: v for k, v in self.headers.items()
                   if k.lower() in ("content-type", "x-amz-target", "authorization",
                                    "x-amz-date", "x-amz-security-token")}
        fwd = urllib.request.Request(srv.upstream + "/", data=body, headers=headers,
                                     method="POST")
        try:
            with urllib.request.urlopen(fwd, timeout=60) as resp:
                status, raw, rh = resp.status, resp.read(), resp.headers
        except urllib.error.HTTPError as e:
            status, raw, rh = e.code, e.read(), e.headers
        self.send_response(status)
        for k in ("Content-Type", "x-amz-crc32", "x-amzn-RequestId"):
            if rh.get(k) is not None:
                self.send_header(k, rh.get(k))
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


class Proxy(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

    def __init__(self, upstream):
        super().__init__(("127.0.0.1", 0), ProxyHandler)
        self.upstream = upstream
        self.lock = threading.Lock()
        self.log = []
        self.scan_delay = 0
        self.slow_tables = set()
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"

    def handle_error(self, request, client_address):
        # a client that stopped reading (Ctrl-C) closes its connections mid-answer
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)

    def reset(self):
        with self.lock:
            self.log = []

    def reads(self):
        """The Query and Scan requests forwarded since the last reset."""
        with self.lock:
            return [(op, r) for op, r in self.log if op in ("Query", "Scan")]

    def stop(self):
        self.shutdown()
        self.server_close()


class Serve:
    """`dynoscope-cli --db DB serve` on a free port."""

    def __init__(self, db):
        self.proc = subprocess.Popen([CLI, "--db", db, "serve", "--port", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     start_new_session=True)
        ready, _, _ = select.select([self.proc.stdout], [], [], 30)
        line = self.proc.stdout.readline() if ready else ""
        m = re.fullmatch(r"Listening on (http://127\.0\.0\.1:\d+)\n", line)
        if not m:
            self.stop()
            raise AssertionError(f"serve did not start: {line!r}")
        self.url = m.group(1)

    def stop(self):
        lib.stop_process_group(self.proc)
        self.proc.stdout.close()
        self.proc.stderr.close()


# ---------------------------------------------------------------------------------------------
# The data


def load(conn, tmp, blog, big=0):
    """Imports the blog, the numbers and (with BIG) a table of BIG items of 8 KB on CONN."""
    t0 = time.monotonic()
    path = blog.write_jsonl(os.path.join(tmp, "blog.jsonl"))
    r = run(*conn, "import", "--table", blogdata.TABLE, "--key", blogdata.KEY, "--gsi",
            blogdata.GSI, path, timeout=1800)
    if r.returncode != 0:
        raise AssertionError(f"import Blog: {r.stderr}")
    for name, items in (("Nums", blogdata.nums_items()), ("Refs", blogdata.refs_items())):
        path = blogdata.write_items(os.path.join(tmp, name + ".jsonl"), items)
        r = run(*conn, "import", "--table", name, "--key", "id:S", path, timeout=600)
        if r.returncode != 0:
            raise AssertionError(f"import {name}: {r.stderr}")
    path = blogdata.write_items(os.path.join(tmp, "series.jsonl"), blogdata.series_items())
    r = run(*conn, "import", "--table", "Series", "--key", "pk:S,sk:N", path, timeout=600)
    if r.returncode != 0:
        raise AssertionError(f"import Series: {r.stderr}")
    if big:
        path = blogdata.write_items(os.path.join(tmp, "big.jsonl"), (
            {"PK": {"S": f"BIG#{i:05}"}, "pad": {"S": f"{i:05}" + "x" * 8000}}
            for i in range(big)))
        r = run(*conn, "import", "--table", "Big", "--key", "PK:S", path, timeout=600)
        if r.returncode != 0:
            raise AssertionError(f"import Big: {r.stderr}")
    lib.log(f"loaded {blog.n_posts} posts, {blog.n_authors} authors"
            f"{f', {big} big items' if big else ''} in {time.monotonic() - t0:.1f} s")


# ---------------------------------------------------------------------------------------------
# The checks, whatever answers


class Base:
    posts = 20000
    authors = 2000
    remote = False
    big = 0
    proxy = None

    @classmethod
    def setUpClass(cls):
        cls.blog = blogdata.Blog(cls.posts, cls.authors)

    # -- helpers ------------------------------------------------------------------------------

    def sql(self, query, *opts, expect=0, fmt="jsonl", timeout=600):
        args = [*self.conn, "sql"] + (["--format", fmt] if fmt else []) + list(opts) + [query]
        r = run(*args, timeout=timeout)
        if expect is not None:
            self.assertEqual(r.returncode, expect,
                             f"sql {opts} {query!r}:\nstdout {r.stdout[-2000:]}\n"
                             f"stderr {r.stderr[-2000:]}")
        return r

    def rows(self, query, *opts):
        return jsonl_rows(self.sql(query, *opts).stdout)

    def stats(self, query, *opts, fmt="jsonl"):
        r = self.sql(query, "--stats", *opts, fmt=fmt)
        s = stats_of(r.stderr)
        self.assertIsNotNone(s, f"no stats line in {r.stderr!r}")
        return r, s

    def call(self, op, request):
        r = run(*self.conn, "call", op, json.dumps(request))
        self.assertEqual(r.returncode, 0, f"{op}: {r.stderr}")
        return json.loads(r.stdout) if r.stdout.strip() else {}

    def count_items(self, table):
        req = {"TableName": table, "Select": "COUNT"}
        n = 0
        while True:
            page = self.call("Scan", req)
            n += page["Count"]
            if "LastEvaluatedKey" not in page:
                return n
            req["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    # -- numbers ------------------------------------------------------------------------------

    def check_number(self, got, text, where):
        """GOT (a jsonl cell, numbers parsed exactly) is the number TEXT: an integer when it
        fits int64, else its exact decimal, as text or as a JSON number written digit for
        digit (the CLI writes a TEXT cell of a column of numbers as a JSON number)."""
        if blogdata.fits_int64(text):
            self.assertIsInstance(got, int, where)
            self.assertNotIsInstance(got, bool, where)
            self.assertEqual(got, int(D(text)), where)
            return
        self.assertIsInstance(got, (str, int, D), f"{where}: {got!r}")
        self.assertNotIsInstance(got, bool, where)
        self.assertEqual(D(got), D(text), where)
        if D(text) == D(text).to_integral_value() and abs(D(text)) < D(10) ** 38:
            # an integer of up to 38 digits: its digits, digit for digit
            self.assertEqual(str(got), str(int(D(text))), where)

    def test_numbers_exact(self):
        rows = self.rows("SELECT id, x FROM Nums")
        self.assertEqual(sorted(r["id"] for r in rows), sorted(blogdata.NUMS))
        for r in rows:
            self.check_number(r["x"], blogdata.NUMS[r["id"]], r["id"])
        r = self.sql("SELECT id, x FROM Nums WHERE id IN ('big', 'nbig', 'nines')", fmt="csv")
        got = list(csv.reader(io.StringIO(r.stdout)))
        self.assertEqual(got[0], ["id", "x"])
        self.assertEqual(sorted(got[1:]), sorted([k, blogdata.NUMS[k]]
                                                 for k in ("big", "nbig", "nines")))

    def test_numbers_order(self):
        want = sorted(blogdata.NUMS, key=lambda k: D(blogdata.NUMS[k]))
        got = [r["id"] for r in self.rows("SELECT id FROM Nums ORDER BY ddb_n(x)")]
        self.assertEqual(got, want)
        got = [r["id"] for r in self.rows("SELECT id FROM Nums ORDER BY ddb_n(x) DESC")]
        self.assertEqual(got, want[::-1])
        got = {r["id"] for r in self.rows("SELECT id FROM Nums WHERE ddb_n(x) > ddb_n(1)")}
        self.assertEqual(got, {k for k, v in blogdata.NUMS.items() if D(v) > 1})
        got = {r["id"] for r in self.rows("SELECT id FROM Nums WHERE ddb_n(x) < ddb_n('-0.5')")}
        self.assertEqual(got, {k for k, v in blogdata.NUMS.items() if D(v) < D("-0.5")})
        # window functions over the numeric order, and the min and max as exact text
        rows = self.rows("SELECT id, row_number() OVER (ORDER BY ddb_n(x)) AS rn FROM Nums")
        self.assertEqual(sorted(rows, key=lambda r: r["rn"]),
                         [{"id": k, "rn": i + 1} for i, k in enumerate(want)])
        rows = self.rows("SELECT x FROM Nums ORDER BY ddb_n(x) DESC LIMIT 1")
        self.check_number(rows[0]["x"], blogdata.NUMS["huge"], "max")

    def test_numbers_join(self):
        q = ("SELECT r.id AS rid, n.id AS nid, n.x AS x, r.ref AS ref FROM Refs r "
             "JOIN Nums n ON n.x = r.ref ORDER BY r.id")
        want = [(k, to) for k, (_, to) in sorted(blogdata.REFS.items()) if to is not None]
        rows = self.rows(q)
        self.assertEqual([(r["rid"], r["nid"]) for r in rows], want)
        for r in rows:
            self.check_number(r["x"], blogdata.NUMS[r["nid"]], r["nid"])
            self.check_number(r["ref"], blogdata.NUMS[r["nid"]], r["rid"])
        # the other way round, and in CSV: the 38 digits digit for digit
        q2 = ("SELECT n.id AS nid, n.x AS x FROM Nums n JOIN Refs r ON r.ref = n.x "
              "ORDER BY ddb_n(n.x)")
        rows = self.rows(q2)
        self.assertEqual([r["nid"] for r in rows],
                         sorted((to for _, to in want), key=lambda k: D(blogdata.NUMS[k])))
        got = list(csv.reader(io.StringIO(self.sql(q2, fmt="csv").stdout)))
        self.assertEqual(got[0], ["nid", "x"])
        cells = dict(got[1:])
        self.assertEqual(cells["big"], "12345678901234567890123456789012345678")
        self.assertEqual(cells["i64over"], "9223372036854775808")
        self.assertEqual(cells["one"], "1")
        self.assertEqual(D(cells["tiny"]), D("1E-130"))
        self.assertEqual(D(cells["neg325"]), D("-3.25"))
        # a LEFT JOIN keeps the ref that matches nothing
        rows = self.rows("SELECT r.id AS rid, n.id AS nid FROM Refs r LEFT JOIN Nums n "
                         "ON n.x = r.ref WHERE n.id IS NULL")
        self.assertEqual(rows, [{"rid": "r7", "nid": None}])

    def test_number_comparisons(self):
        # Plain SQL comparisons of an N attribute (a Scan, filtered by SQLite) and of an N sort
        # key (pushed down into the Query) with number literals, and ORDER BY the column: the
        # issue says comparing and ordering N columns is numeric.
        nums = {k: D(v) for k, v in blogdata.NUMS.items()}
        cases = [
            ("x < 0", lambda d: d < 0),
            ("x > 1", lambda d: d > 1),
            ("x >= 1.5", lambda d: d >= D("1.5")),
            ("x = 0.5", lambda d: d == D("0.5")),
            ("x = -3.25", lambda d: d == D("-3.25")),
            ("x BETWEEN -1 AND 1", lambda d: -1 <= d <= 1),
            ("x <> 1", lambda d: d != 1),
        ]
        for cond, pred in cases:
            want = {k for k, d in nums.items() if pred(d)}
            with self.subTest(table="Nums", cond=cond):
                got = {r["id"] for r in self.rows(f"SELECT id FROM Nums WHERE {cond}")}
                self.assertEqual(got, want)
            with self.subTest(table="Series", cond=cond):
                q = f"SELECT id FROM Series WHERE pk = 's' AND {cond.replace('x', 'sk', 1)}"
                r, s = self.stats(q)
                self.assertEqual({x["id"] for x in jsonl_rows(r.stdout)}, want)
                self.assertEqual(s["requests"], 1)
        # the sort key's order is DynamoDB's, numeric (ScanIndexForward)
        order = sorted(nums, key=nums.get)
        with self.subTest(order="the sort key's order"):
            r, s = self.stats("SELECT id FROM Series WHERE pk = 's' ORDER BY sk DESC")
            self.assertEqual([x["id"] for x in jsonl_rows(r.stdout)], order[::-1])
            self.assertEqual(s["requests"], 1)

    def test_number_order(self):
        # ORDER BY a column of numbers is numeric: the table sorts it, decimals among integers
        nums = {k: D(v) for k, v in blogdata.NUMS.items()}
        order = sorted(nums, key=nums.get)
        with self.subTest(order="ORDER BY x"):
            self.assertEqual([r["id"] for r in self.rows("SELECT id FROM Nums ORDER BY x")],
                             order)
        with self.subTest(order="ORDER BY x DESC LIMIT 3"):
            self.assertEqual([r["id"] for r in self.rows(
                "SELECT id FROM Nums ORDER BY x DESC LIMIT 3")], order[::-1][:3])

    # min() and max() are SQLite's, which rank every TEXT (a decimal no int64 holds) above every
    # INTEGER; ddb_min() and ddb_max() rank numbers as numbers, as ORDER BY x does.
    def test_number_min_max(self):
        rows = self.rows("SELECT ddb_min(x) AS lo, ddb_max(x) AS hi, ddb_min(NULL) AS none "
                         "FROM Nums")
        self.check_number(rows[0]["lo"], blogdata.NUMS["nhuge"], "min")
        self.check_number(rows[0]["hi"], blogdata.NUMS["huge"], "max")
        self.assertIsNone(rows[0]["none"])
        ordered = self.rows("SELECT x FROM Nums WHERE x IS NOT NULL ORDER BY x")
        self.assertEqual(D(str(rows[0]["lo"])), D(str(ordered[0]["x"])))
        self.assertEqual(D(str(rows[0]["hi"])), D(str(ordered[-1]["x"])))
        # per group, over the rows a GROUP BY sorted first
        groups = self.rows("SELECT id > 'm' AS g, ddb_max(x) AS hi, max(x) AS sqlite_hi "
                           "FROM Nums GROUP BY g ORDER BY g")
        for g in groups:
            xs = [r["x"] for r in self.rows(
                f"SELECT x FROM Nums WHERE (id > 'm') = {g['g']} AND x IS NOT NULL "
                "ORDER BY x DESC LIMIT 1")]
            self.assertEqual(D(str(g["hi"])), D(str(xs[0])))

    def test_exact_sums(self):
        rows = self.rows("SELECT ddb_sum(x) AS s FROM Nums WHERE id IN "
                         "('half', 'one', 'two', 'neg325', 'nhalf')")
        self.assertEqual(D(str(rows[0]["s"])), D("-0.25"))
        rows = self.rows("SELECT ddb_sum(x) AS s FROM Nums WHERE id IN ('big', 'one')")
        self.assertEqual(str(rows[0]["s"]), "12345678901234567890123456789012345679")
        rows = self.rows("SELECT ddb_sum(x) AS s FROM Nums WHERE id IN ('big', 'nbig', 'two')")
        self.assertEqual(rows[0]["s"], 2)

    # -- the drift JOIN -----------------------------------------------------------------------

    def drift_rows(self, stdout):
        return {(r["PK"], r["SK"], r["authorName"], r["name"]) for r in jsonl_rows(stdout)}

    def test_drift_join(self):
        t0 = time.monotonic()
        r, drift = self.stats(DRIFT)
        seconds = time.monotonic() - t0
        got = self.drift_rows(r.stdout)
        self.assertEqual(len(r.stdout.splitlines()), len(self.blog.drift), "no row twice")
        self.assertEqual(got - self.blog.drift, set(), "rows that are not drift")
        self.assertEqual(self.blog.drift - got, set(), "drift not found")
        _, full = self.stats("SELECT count(*) AS n FROM Blog")
        lib.log(f"drift JOIN: {len(got)} rows in {seconds:.1f} s, {drift}; a full Scan: {full}")
        self.assertGreater(drift["items_read"], 0)
        if self.remote:
            # each side read once (a Scan or an automatic index), not a request per row
            self.assertLessEqual(drift["requests"], 2 * full["requests"])
            self.assertLessEqual(drift["items_read"], 2 * full["items_read"])

    def test_drift_join_over_index(self):
        # the copies read through the index (orphans' authors are missing: no row)
        q = ("SELECT p.PK, p.SK, p.authorName, u.name FROM \"Blog.ByAuthor\" p JOIN Blog u "
             "ON u.PK = p.authorId AND u.SK = 'META' WHERE p.authorName IS NOT u.name")
        self.assertEqual(self.drift_rows(self.sql(q).stdout), self.blog.drift)

    def test_count_and_group_by(self):
        rows = self.rows("SELECT count(*) AS n FROM Blog")
        self.assertEqual(rows, [{"n": self.posts + self.authors}])
        rows = self.rows("SELECT authorId, count(*) AS n FROM Blog WHERE authorId IS NOT NULL "
                         "GROUP BY authorId ORDER BY n DESC, authorId LIMIT 3")
        want = sorted(((-len(v), k) for k, v in self.blog.posts_by_author.items()))[:3]
        self.assertEqual([(r["authorId"], r["n"]) for r in rows], [(k, -n) for n, k in want])

    # -- requests -----------------------------------------------------------------------------

    def test_pk_query_is_one_request(self):
        if self.proxy:
            self.proxy.reset()
        r, s = self.stats("SELECT * FROM Blog WHERE PK = 'USER#12'")
        self.assertEqual(s["requests"], 1, r.stderr)
        self.assertEqual(s["items_read"], 1, r.stderr)
        rows = jsonl_rows(r.stdout)
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0]["PK"], "USER#12")
        self.assertEqual(rows[0]["name"], blogdata.author_name(12))
        if self.proxy:
            reads = self.proxy.reads()
            self.assertEqual([op for op, _ in reads if op == "Query"], ["Query"], reads)
            # anything else is the sample: a Scan with a Limit
            self.assertTrue(all("Limit" in req for op, req in reads if op == "Scan"), reads)
        # the full key, IN and a sort key range are Queries too
        _, s = self.stats("SELECT name FROM Blog WHERE PK = 'USER#12' AND SK = 'META'")
        self.assertEqual(s["requests"], 1)
        r, s = self.stats("SELECT PK FROM Blog WHERE PK IN ('USER#1', 'USER#2', 'USER#3')")
        self.assertEqual(s["requests"], 3)
        self.assertEqual(sorted(x["PK"] for x in jsonl_rows(r.stdout)),
                         ["USER#1", "USER#2", "USER#3"])
        r, s = self.stats("SELECT PK FROM Blog WHERE PK = 'POST#5' AND SK LIKE 'POST%'")
        self.assertEqual(s["requests"], 1)
        self.assertEqual(jsonl_rows(r.stdout), [{"PK": "POST#5"}])

    def test_or_of_keys(self):
        # SQLite's OR plan (one Query per branch, rows told apart by rowid)
        for q, want in [
                ("SELECT PK FROM Blog WHERE PK = 'USER#3' OR PK = 'USER#4'", ["USER#3", "USER#4"]),
                ("SELECT PK FROM Blog WHERE (PK = 'USER#3' AND SK = 'META') OR "
                 "(PK = 'POST#4' AND SK = 'POST#4') OR PK = 'USER#5'",
                 ["POST#4", "USER#3", "USER#5"]),
                ("SELECT PK FROM Blog WHERE PK = 'USER#3' OR PK = 'USER#3'", ["USER#3"])]:
            with self.subTest(q=q):
                self.assertEqual(sorted(r["PK"] for r in self.rows(q)), want)

    def test_index_as_table(self):
        want = self.blog.posts_by_author["USER#3"]
        r, s = self.stats("SELECT count(*) AS n FROM \"Blog.ByAuthor\" WHERE authorId = 'USER#3'")
        self.assertEqual(jsonl_rows(r.stdout), [{"n": len(want)}])
        self.assertEqual(s["requests"], 1, r.stderr)
        # ORDER BY the index's sort key is the Query's order, still one request
        r, s = self.stats("SELECT PK, createdAt FROM \"Blog.ByAuthor\" WHERE authorId = 'USER#3' "
                          "ORDER BY createdAt DESC")
        self.assertEqual(s["requests"], 1, r.stderr)
        rows = jsonl_rows(r.stdout)
        self.assertEqual(sorted(x["PK"] for x in rows), sorted(want))
        self.assertEqual([x["createdAt"] for x in rows],
                         sorted((x["createdAt"] for x in rows), reverse=True))

    # -- columns, hidden columns and formats --------------------------------------------------

    def test_columns_and_hidden_columns(self):
        post = self.blog.rare_post
        rows = self.rows(f"SELECT PK, rareAttr FROM Blog WHERE PK = '{post}'")
        self.assertEqual(rows, [{"PK": post, "rareAttr": "only here"}])
        rows = self.rows(f"SELECT * FROM Blog WHERE PK = '{post}'", "--column", "Blog.rareAttr")
        self.assertEqual(rows[0]["rareAttr"], "only here")
        self.assertEqual(rows[0]["title"], f"Post number {post[5:]}")
        rows = self.rows("SELECT _item, _size FROM Blog WHERE PK = 'USER#12'")
        item = json.loads(rows[0]["_item"])
        name = blogdata.author_name(12)
        self.assertEqual(item, {"PK": {"S": "USER#12"}, "SK": {"S": "META"},
                                "email": {"S": "author12@example.com"},
                                "joined": {"N": "2017"}, "name": {"S": name}})
        size = (2 + 7) + (2 + 4) + (5 + len("author12@example.com")) + (6 + 3) + \
            (4 + len(name.encode()))
        self.assertEqual(rows[0]["_size"], size)
        # a missing attribute is NULL
        rows = self.rows("SELECT name, authorId FROM Blog WHERE PK = 'USER#12'")
        self.assertEqual(rows, [{"name": name, "authorId": None}])

    def test_formats(self):
        rows = self.rows("SELECT 1 AS i, 2.5 AS r, 'x' AS t, X'00ff10' AS b, NULL AS n, "
                         "'é\"' AS u")
        self.assertEqual(rows, [{"i": 1, "r": D("2.5"), "t": "x", "b": {"$B": "AP8Q"}, "n": None,
                                 "u": "é\""}])
        r = self.sql("SELECT 'a,b' AS x, 'say \"hi\"' AS y, 'two' || char(10) || 'lines' AS z, "
                     "NULL AS n", fmt="csv")
        self.assertEqual(list(csv.reader(io.StringIO(r.stdout, newline=""))),
                         [["x", "y", "z", "n"], ["a,b", 'say "hi"', "two\nlines", ""]])
        raw = subprocess.run([CLI, *self.conn, "sql", "--format", "csv", "SELECT 1 AS a, 2 AS b "
                              "UNION ALL SELECT 3, 4"], capture_output=True, timeout=120,
                             env=lib.client_env()).stdout
        self.assertEqual(raw, b"a,b\r\n1,2\r\n3,4\r\n", "RFC 4180: CRLF line ends")
        name = blogdata.author_name(12)
        for fmt in ("table", None):
            r = self.sql("SELECT PK, name FROM Blog WHERE PK = 'USER#12'", fmt=fmt)
            for text in ("PK", "name", "USER#12", name):
                self.assertIn(text, r.stdout)
        r = self.sql("SELECT PK FROM Blog WHERE PK = 'nobody'", fmt="csv")
        self.assertEqual(list(csv.reader(io.StringIO(r.stdout))), [["PK"]])
        r = self.sql("SELECT PK FROM Blog WHERE PK = 'nobody'")
        self.assertEqual(r.stdout, "")

    def test_nul_in_strings(self):
        # U+0000 is a valid DynamoDB string character: it reaches SQL whole (a key lookup on it
        # is one Query), and each format writes it whole: jsonl as \u0000, csv as the byte (as
        # `export --format csv` does), the table as the escape the app's cells show.
        self.call("CreateTable", {
            "TableName": "Nuls", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
        # test_refused counts the tables
        self.addCleanup(self.call, "DeleteTable", {"TableName": "Nuls"})
        for pk, v in (("a\u0000b", "x\u0000y"), ("a", "x"), ("\u0000", "")):
            self.call("PutItem", {"TableName": "Nuls",
                                  "Item": {"pk": {"S": pk}, "v": {"S": v}}})
        rows = self.rows("SELECT pk, v, hex(v) AS h FROM Nuls WHERE v = 'x' || char(0) || 'y'")
        self.assertEqual(rows, [{"pk": "a\u0000b", "v": "x\u0000y", "h": "780079"}])
        r, s = self.stats("SELECT v FROM Nuls WHERE pk = CAST(X'610062' AS TEXT)")
        self.assertEqual(jsonl_rows(r.stdout), [{"v": "x\u0000y"}])
        if self.remote:
            self.assertEqual(s["requests"], 1)
        raw = subprocess.run([CLI, *self.conn, "sql", "--format", "csv",
                              "SELECT pk, v, 'q,' || v AS q FROM Nuls WHERE pk <> 'a' ORDER BY pk"],
                             capture_output=True, timeout=120, env=lib.client_env())
        self.assertEqual(raw.returncode, 0, raw.stderr)
        self.assertEqual(raw.stdout, b'pk,v,q\r\n\x00,,"q,"\r\na\x00b,x\x00y,"q,x\x00y"\r\n')
        r = self.sql("SELECT pk, v FROM Nuls WHERE pk = 'a' || char(0) || 'b'", fmt="table")
        self.assertIn("a\\u0000b | x\\u0000y\n", r.stdout)

    # -- safety -------------------------------------------------------------------------------

    def test_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            attached = os.path.join(tmp, "attached.db")
            vacuumed = os.path.join(tmp, "vacuumed.db")
            statements = [
                "INSERT INTO Blog (PK, SK, name) VALUES ('USER#X', 'META', 'x')",
                "INSERT INTO Blog (PK, SK) SELECT PK || 'copy', SK FROM Blog WHERE PK = 'USER#1'",
                "REPLACE INTO Blog (PK, SK) VALUES ('USER#1', 'META')",
                "UPDATE Blog SET name = 'Hacked' WHERE PK = 'USER#1'",
                "DELETE FROM Blog WHERE PK = 'USER#1'",
                "DELETE FROM \"Blog.ByAuthor\" WHERE authorId = 'USER#1'",
                "WITH x AS (SELECT 1) INSERT INTO Blog (PK, SK) SELECT 'USER#X', 'META' FROM x",
                f"ATTACH DATABASE '{attached}' AS a",
                "SELECT load_extension('x')",
                "SELECT load_extension('/lib/x86_64-linux-gnu/libm.so.6', 'sin')",
                "PRAGMA writable_schema=1",
                "PRAGMA writable_schema = ON",
                "CREATE TABLE t (a)",
                "CREATE TEMP TABLE t AS SELECT 1",
                "CREATE VIEW v AS SELECT PK FROM Blog",
                "DROP TABLE Blog",
                "ALTER TABLE Blog RENAME TO Gone",
                f"VACUUM INTO '{vacuumed}'",
                "SELECT 1; DELETE FROM Blog WHERE PK = 'USER#1'",
            ]
            for q in statements:
                with self.subTest(q=q):
                    r = self.sql(q, expect=None)
                    self.assertEqual(r.returncode, 1, f"{q}: {r.stdout} {r.stderr}")
                    self.assertNotEqual(r.stderr.strip(), "")
                    self.assertNotIn("Traceback", r.stderr)
            self.assertFalse(os.path.exists(attached))
            self.assertFalse(os.path.exists(vacuumed))
        # nothing was written
        got = self.call("GetItem", {"TableName": "Blog",
                                    "Key": {"PK": {"S": "USER#1"}, "SK": {"S": "META"}}})
        self.assertEqual(got["Item"]["name"]["S"], blogdata.author_name(1))
        for pk in ("USER#X", "USER#1copy"):
            got = self.call("GetItem", {"TableName": "Blog",
                                        "Key": {"PK": {"S": pk}, "SK": {"S": "META"}}})
            self.assertNotIn("Item", got)
        self.assertEqual(sorted(self.call("ListTables", {})["TableNames"]),
                         sorted(["Blog", "Nums", "Refs", "Series"] + (["Big"] if self.big else [])))
        self.assertEqual(self.count_items("Blog"), self.posts + self.authors)
        # the read-only PRAGMAs still work
        r = self.sql("PRAGMA table_info(Blog)")
        self.assertIn("authorName", r.stdout)
        # the table-valued form too, naming a table no statement declared before it
        r = self.sql("SELECT name FROM pragma_table_info('blog') WHERE name = 'authorName'")
        self.assertIn("authorName", r.stdout)

    # -- the plan -----------------------------------------------------------------------------

    def explain(self, query):
        if self.proxy:
            self.proxy.reset()
        r = self.sql(query, "--explain", "--stats", fmt=None)
        s = stats_of(r.stderr)
        if s is not None:
            self.assertEqual(s["requests"], 0, r.stderr)
            self.assertEqual(s["items_read"], 0, r.stderr)
        if self.proxy:
            reads = self.proxy.reads()
            self.assertEqual([op for op, _ in reads if op == "Query"], [], reads)
            self.assertTrue(all("Limit" in req for op, req in reads if op == "Scan"),
                            f"only samples may be read: {reads}")
        return r.stdout

    def test_explain(self):
        out = self.explain("SELECT * FROM Blog WHERE PK = 'USER#12'")
        self.assertIn("Query Blog", out)
        self.assertNotIn("Scan Blog", out)
        out = self.explain("SELECT * FROM Blog WHERE name = 'Mara'")
        self.assertIn("Scan Blog", out)
        out = self.explain("SELECT count(*) FROM \"Blog.ByAuthor\" WHERE authorId = 'USER#3'")
        self.assertIn("Query Blog.ByAuthor", out)
        out = self.explain(DRIFT)
        self.assertIn("Blog", out)
        # a column no sample has seen: added, and the JOIN is still only explained
        out = self.explain("SELECT p.PK FROM Blog p JOIN Blog u ON u.PK = p.authorId AND "
                           "u.SK = 'META' WHERE p.neverSeenAnywhere IS NOT u.name")
        self.assertIn("Blog", out)

    # -- errors -------------------------------------------------------------------------------

    def test_errors(self):
        r = self.sql("SELEC PK FROM Blog", expect=1)
        self.assertIn('near "SELEC": syntax error', r.stderr)
        self.assertEqual(r.stdout, "")
        r = self.sql("SELECT * FROM NoSuchTable", expect=1)
        self.assertIn("no such table", r.stderr.lower())
        self.assertIn("NoSuchTable", r.stderr)
        r = self.sql("SELECT * FROM \"Blog.NoSuchIndex\"", expect=1)
        self.assertIn("Blog.NoSuchIndex", r.stderr)
        r = self.sql("SELECT nosuchfunction(1)", expect=1)
        self.assertIn("no such function: nosuchfunction", r.stderr)
        r = self.sql("SELECT PK FROM Blog WHERE PK = 'x' GARBAGE", expect=1)
        self.assertIn("syntax error", r.stderr)


# ---------------------------------------------------------------------------------------------
# What answers


class Engine(Base, unittest.TestCase):
    """--db DB: the embedded engine in the CLI's process."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.tmp = tempfile.TemporaryDirectory()
        cls.db = os.path.join(cls.tmp.name, "blog.db")
        cls.conn = ["--db", cls.db]
        load(cls.conn, cls.tmp.name, cls.blog)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()


class ServeEndpoint(Base, unittest.TestCase):
    """--endpoint: `dynoscope-cli serve` over a database, through the counting proxy."""
    remote = True
    big = 2000

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.tmp = tempfile.TemporaryDirectory()
        db = os.path.join(cls.tmp.name, "blog.db")
        load(["--db", db], cls.tmp.name, cls.blog, big=cls.big)
        cls.server = Serve(db)
        cls.proxy = Proxy(cls.server.url)
        cls.conn = ["--endpoint", cls.proxy.url, "--region", "us-east-1"]

    @classmethod
    def tearDownClass(cls):
        cls.proxy.stop()
        cls.server.stop()
        cls.tmp.cleanup()

    def test_cancelled_query_stops_reading(self):
        # 2,000 items of 8 KB: about 16 pages of 1 MB, each Scan slowed down by the proxy.
        self.proxy.slow_tables = {"Big"}
        self.proxy.scan_delay = 0.4
        try:
            _, full = self.stats("SELECT count(*) AS n FROM Big")
            self.assertGreater(full["requests"], 4)
            self.proxy.reset()
            p = subprocess.Popen([CLI, *self.conn, "sql", "--format", "jsonl", "--stats",
                                  "SELECT PK, pad FROM Big"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, env=lib.client_env())
            out = b""
            deadline = time.monotonic() + 120
            while out.count(b"\n") < 3 and time.monotonic() < deadline:
                ready, _, _ = select.select([p.stdout], [], [], 1)
                if ready:
                    chunk = os.read(p.stdout.fileno(), 1 << 16)
                    if not chunk:
                        break
                    out += chunk
            self.assertGreaterEqual(out.count(b"\n"), 3, "rows before the end")
            self.assertIsNone(p.poll(), "still reading when interrupted")
            t0 = time.monotonic()
            p.send_signal(signal.SIGINT)
            rest, err = p.communicate(timeout=30)
            elapsed = time.monotonic() - t0
            err = err.decode()
            sent = len(self.proxy.reads())
            time.sleep(1.5)
            self.assertEqual(len(self.proxy.reads()), sent, "no request after the exit")
            rows = (out + rest).count(b"\n")
            lib.log(f"cancelled after {rows} rows, in {elapsed:.2f} s, "
                    f"exit {p.returncode}: {err.strip()!r}; the full Scan: {full}")
            self.assertLess(elapsed, 5, "stopped promptly")
            self.assertIn(p.returncode, (1, 130), err)
            s = stats_of(err)
            self.assertIsNotNone(s, f"the stats so far: {err!r}")
            self.assertLess(s["requests"], full["requests"])
            self.assertLess(s["items_read"], full["items_read"])
            self.assertLess(sent, full["requests"])
        finally:
            self.proxy.scan_delay = 0
            self.proxy.slow_tables = set()


class DynamoDBLocal(Base, unittest.TestCase):
    """--endpoint: AWS's DynamoDB Local, loaded with BatchWriteItem by `import`."""
    remote = True
    # Loading the whole blog (22,000 items with the GSI) through BatchWriteItem takes about
    # 12 s there: the same blog as elsewhere.
    server = None

    @classmethod
    def setUpClass(cls):
        if shutil.which("java") is None:
            raise unittest.SkipTest("java is missing: DynamoDB Local cannot run")
        emulator = lib.find_emulator()
        if emulator is None:
            raise unittest.SkipTest("the DynamoDB Local jar is missing (build-aux/install-deps.sh "
                                    "--tests, or any test that installs it)")
        super().setUpClass()
        cls.server = lib.DynamoDBLocal(emulator)
        if not cls.server.start():
            raise AssertionError("DynamoDB Local did not start (java and the jar are there)")
        cls.tmp = tempfile.TemporaryDirectory()
        cls.conn = ["--endpoint", f"http://127.0.0.1:{cls.server.port}", "--region",
                    "us-east-1"]
        load(cls.conn, cls.tmp.name, cls.blog)

    @classmethod
    def tearDownClass(cls):
        if cls.server is not None:
            cls.server.stop()
            cls.tmp.cleanup()


class DynamoDBErrors(unittest.TestCase):
    """A DynamoDB error exits 1 with the exception's name (the fault-injecting server)."""

    def test_exception_name(self):
        fault = lib.FaultServer().start()
        try:
            # one that the code names, and one it does not (its name comes from __type)
            for step, name in (("validation", "ValidationException"),
                               ("access", "AccessDeniedException")):
                with self.subTest(name=name):
                    body = json.dumps({"script": [step] * 20, "answer": {}}).encode()
                    urllib.request.urlopen(urllib.request.Request(fault.url + "/__script",
                                                                  data=body), timeout=10).read()
                    r = run("--endpoint", fault.url, "--region", "us-east-1", "sql", "--format",
                            "jsonl", "SELECT * FROM Blog WHERE PK = 'USER#1'", timeout=60)
                    self.assertEqual(r.returncode, 1, r.stderr)
                    self.assertIn(name, r.stderr)
                    self.assertEqual(r.stdout, "")
        finally:
            fault.stop()


if __name__ == "__main__":
    unittest.main(verbosity=2)
