#!/usr/bin/env python3
"""dynoscope-cli model estimate on the blog seed: the figures it prints, computed here by hand from
DynamoDB's rules and the default prices; --rate and --price change them, an edited price is shown
as edited with its source, and bad rates, prices or pattern names are refused."""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import unittest

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"
SRC = os.environ.get("DYNOSCOPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BLOG = os.path.join(SRC, "data", "models", "blog.json")
SECONDS = 730 * 3600


def run(*args):
    return subprocess.run([CLI, "model", "estimate", *args], capture_output=True, text=True,
                          timeout=60)


def item_size(item):
    """DynamoDB's size of an item of S, N and SS values (those the blog seed holds)."""
    size = 0
    for name, value in item.items():
        size += len(name.encode())
        (t, v), = value.items()
        if t == "S":
            size += len(v.encode())
        elif t == "SS":
            size += sum(len(s.encode()) for s in v)
        elif t == "N":
            digits = v.lstrip("-").replace(".", "").strip("0")
            size += 1 + math.ceil(len(digits) / 2)  # small whole numbers only, as in the seed
        else:
            raise ValueError(t)
    return size


def row(text, name):
    for line in text.splitlines():
        if line.startswith("  " + name + " "):
            return line.split()
    raise AssertionError("no row for %r in:\n%s" % (name, text))


class Estimate(unittest.TestCase):
    def setUp(self):
        with open(BLOG) as f:
            self.model = json.load(f)
        items = self.model["DataModel"][0]["TableData"]
        self.posts = [i for i in items if i["SK"]["S"] == "META" and i["PK"]["S"].startswith("POST#")]
        self.users = [i for i in items if i["PK"]["S"].startswith("USER#")]

    def test_seed_figures(self):
        r = run(BLOG)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout
        # A post: a GetItem, eventually consistent, of an item under 4 KB: 0.5 RCU; at the seed's
        # 200/s, 100 RCU/s: 100 x 2,628,000 s / 1e6 x 0.125 USD = 32.85 on demand; 100 RCU x 730
        # h x 0.00013 USD = 9.49 provisioned.
        post = row(out, "a post")
        avg = sum(item_size(p) for p in self.posts) / len(self.posts)
        self.assertEqual(post[2:4], ["GetItem", "EC"])
        self.assertEqual(float(post[5]), round(avg, 1))
        self.assertEqual(post[6:9], ["0.5", "200.0", "100.0"])
        self.assertEqual(post[9], "%.2f" % (100 * SECONDS / 1e6 * 0.125))
        self.assertEqual(post[9], "32.85")
        self.assertEqual(post[11], "%.2f" % (100 * 730 * 0.00013))
        # Item sizes per entity from the sample items.
        user = row(out, "User")
        self.assertEqual(int(user[1]), len(self.users))
        self.assertEqual(float(user[2]), round(sum(map(item_size, self.users)) / len(self.users), 1))
        self.assertEqual(int(user[3]), max(map(item_size, self.users)))
        # A post (1 KB or less) writes 1 WCU in the table and 1 in ByAuthor, which it projects into.
        self.assertIn("ByAuthor", [l for l in out.splitlines() if l.startswith("  Post ")][-1])
        # Totals: reads 20 x 0.5 + 200 x 0.5 + 150 x 0.5 on the table, (30 + 5) x 0.5 on the GSI;
        # writes 0.1 + 1 + 10 on the table and 1 on the GSI.
        table_rcu, gsi_rcu = (20 + 200 + 150) * 0.5, (30 + 5) * 0.5
        table_wcu, gsi_wcu = 0.1 + 1 + 10, 1
        on_demand = ((table_rcu + gsi_rcu) * 0.125 + (table_wcu + gsi_wcu) * 0.625) * SECONDS / 1e6
        provisioned = ((math.ceil(table_rcu) + math.ceil(gsi_rcu)) * 0.00013
                       + (math.ceil(table_wcu) + math.ceil(gsi_wcu)) * 0.00065) * 730
        m = re.search(r"Total per month: ([\d.]+) USD on demand, ([\d.]+) USD provisioned", out)
        self.assertIsNotNone(m, out)
        self.assertEqual(m.group(1), "%.2f" % on_demand)
        self.assertEqual(m.group(2), "%.2f" % provisioned)
        # Every price with its source, the defaults from the AWS pricing pages.
        for name in ("on-demand-read", "on-demand-write", "provisioned-read", "provisioned-write"):
            line = [l for l in out.splitlines() if l.strip().startswith(name + " ")]
            self.assertEqual(len(line), 1, out)
            self.assertIn("default, source: https://aws.amazon.com/dynamodb/pricing/", line[0])
        self.assertIn("(no LSI: no size limit)", out)

    def test_json_agrees(self):
        r = run(BLOG, "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        est = json.loads(r.stdout)
        post = next(p for p in est["patterns"] if p["pattern"] == "a post")
        self.assertEqual((post["request"], post["rcu"], post["rate"]), ("GetItem", 0.5, 200))
        self.assertAlmostEqual(post["monthlyOnDemand"], 100 * SECONDS / 1e6 * 0.125)
        comments = next(p for p in est["patterns"] if p["pattern"] == "comments of a post, oldest first")
        self.assertEqual((comments["request"], comments["itemsFrom"]), ("Query", "sample"))
        self.assertEqual(comments["items"], 1)  # one comment per post in the sample
        self.assertEqual(est["prices"]["on-demand-read"]["value"], 0.125)
        self.assertFalse(est["prices"]["on-demand-read"]["edited"])
        self.assertAlmostEqual(est["totals"]["monthlyOnDemand"],
                               sum(c["monthlyOnDemand"] for c in est["capacities"]))
        by_author = next(c for c in est["capacities"] if c["index"] == "ByAuthor")
        self.assertEqual((by_author["rcu"], by_author["wcu"]), (18, 1))

    def test_rate_and_price_change_the_cost(self):
        r = run(BLOG, "--rate", "a post=400", "--price", "on-demand-read=0.25",
                "--price", "provisioned-read=0.0002")
        self.assertEqual(r.returncode, 0, r.stderr)
        post = row(r.stdout, "a post")
        # 400/s x 0.5 = 200 RCU/s: 200 x 2,628,000 / 1e6 x 0.25 = 131.40; 200 x 730 x 0.0002 = 29.20.
        self.assertEqual(post[6:9], ["0.5", "400.0", "200.0"])
        self.assertEqual(post[9], "131.40")
        self.assertEqual(post[11], "29.20")
        line = next(l for l in r.stdout.splitlines() if l.strip().startswith("on-demand-read "))
        self.assertIn("0.25 USD", line)
        self.assertIn("edited, source: --price", line)
        self.assertNotIn("checked", line)
        # The price not edited keeps its default and its source.
        line = next(l for l in r.stdout.splitlines() if l.strip().startswith("on-demand-write "))
        self.assertIn("0.625 USD", line)
        self.assertIn("default, source: https://aws.amazon.com/dynamodb/pricing/on-demand/", line)

    def test_prices_from_the_model_file(self):
        self.model["x-dynoscope"]["prices"] = {
            "on-demand-write": {"value": 1.5, "currency": "EUR", "region": "eu-central-1",
                                "source": "our contract", "checked": "2026-11-01"}}
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(self.model, f)
        try:
            r = run(f.name, "--write-rate", "Comment=20")
            self.assertEqual(r.returncode, 0, r.stderr)
            line = next(l for l in r.stdout.splitlines() if l.strip().startswith("on-demand-write "))
            self.assertIn("1.5 EUR", line)
            self.assertIn("eu-central-1; edited, source: our contract (as of 2026-11-01)", line)
            # 20 writes/s of 1 WCU: 20 x 2,628,000 / 1e6 x 1.5 = 78.84.
            wrow = [l for l in r.stdout.splitlines() if l.startswith("  Comment ")][-1].split()
            self.assertEqual(wrow[3:5], ["20.0", "20.0"])
            self.assertEqual(wrow[5:7], ["78.84", "EUR"])
        finally:
            os.unlink(f.name)

    def test_every_seed(self):
        for name in ("workspaces", "blog", "orders"):
            r = run(os.path.join(SRC, "data", "models", name + ".json"), "--json")
            self.assertEqual(r.returncode, 0, (name, r.stderr))
            est = json.loads(r.stdout)
            # Every pattern of a seed resolves to one request, so each is estimated, at its rate.
            self.assertTrue(all(p["estimated"] and p["rate"] > 0 for p in est["patterns"]), name)
            self.assertAlmostEqual(est["totals"]["monthlyProvisioned"],
                                   sum(c["monthlyProvisioned"] for c in est["capacities"]))
            self.assertAlmostEqual(est["totals"]["monthlyOnDemand"],
                                   sum(p["monthlyOnDemand"] for p in est["patterns"])
                                   + sum(e["monthlyOnDemand"] for e in est["entities"]))

    def test_bad_input(self):
        for args, fragment in [
            (["--rate", "no such pattern=3"], "no access pattern “no such pattern”"),
            (["--rate", "a post"], "NAME=N"),
            (["--rate", "a post=-2"], "at least 0"),
            (["--write-rate", "Nobody=1"], "no entity “Nobody”"),
            (["--price", "storage=0.25"], "Unknown price “storage”"),
            (["--price", "on-demand-read=cheap"], "is not a number"),
        ]:
            r = run(BLOG, *args)
            self.assertEqual(r.returncode, 2, (args, r.stdout))
            self.assertIn(fragment, r.stderr)
        r = run()
        self.assertEqual(r.returncode, 2)
        self.assertIn("Usage: dynoscope-cli model estimate", r.stderr)
        r = run("/nonexistent/model.json")
        self.assertEqual(r.returncode, 2)
        self.assertIn("/nonexistent/model.json", r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
