#!/usr/bin/env python3
"""dynoscope-cli model check on the seeds' models and on a crafted bad one: what it prints, its
exit codes, and the requests it prints run against the engine over the models' sample items."""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"
SRC = os.environ.get("DYNOSCOPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
MODELS = os.path.join(SRC, "data", "models")
SEEDS = ["workspaces", "blog", "orders"]


def run(*args, stdin=None):
    return subprocess.run([CLI, *args], input=stdin, capture_output=True, text=True, timeout=60)


def load(name):
    with open(os.path.join(MODELS, name + ".json")) as f:
        return json.load(f)


def template_regex(tpl):
    """A key template as a regex of what it renders to (fields hold no '#')."""
    out, i = "", 0
    for m in re.finditer(r"\{\{|\}\}|\{([^{}:]+)(?::0(\d+))?\}", tpl):
        out += re.escape(tpl[i:m.start()])
        if m.group(0) in ("{{", "}}"):
            out += re.escape(m.group(0)[0])
        elif m.group(2):
            out += r"\d{%d,}" % int(m.group(2))
        else:
            out += r"[^#]+"
        i = m.end()
    return "^" + out + re.escape(tpl[i:]) + "$"


def write_model(tmp, model):
    path = os.path.join(tmp, "model.json")
    with open(path, "w") as f:
        json.dump(model, f)
    return path


class ModelCheck(unittest.TestCase):
    def test_help(self):
        r = run("--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("model check MODEL.json", r.stdout)
        r = run("model", "--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("check MODEL.json", r.stdout)

    def test_code(self):
        """--code LANG prints each resolved pattern's request as a program, indented under it:
        the Python ones compile and hold the request printed above them."""
        r = run("model", "check", "--code", "python", os.path.join(MODELS, "blog.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        blocks = r.stdout.split("\n  code:\n")[1:]
        self.assertEqual(len(blocks), len(load("blog")["x-dynoscope"]["patterns"]))
        for block in blocks:
            lines = []
            for line in block.split("\n"):
                if line and not line.startswith("    "):
                    break
                lines.append(line[4:])
            program = "\n".join(lines)
            compile(program, "pattern.py", "exec")
            self.assertIn('"TableName": "Blog"', program)
            self.assertRegex(program, r"client\.(query|get_item)\(\*\*request\)")
        r = run("model", "check", "--code", "cobol", os.path.join(MODELS, "blog.json"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("--code must be one of", r.stderr)

    def test_seeds_pass(self):
        for name in SEEDS:
            with self.subTest(model=name):
                r = run("model", "check", os.path.join(MODELS, name + ".json"))
                self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
                self.assertIn("No flags", r.stdout)
                self.assertNotIn("FLAGGED", r.stdout)
                n = len(load(name)["x-dynoscope"]["patterns"])
                self.assertEqual(r.stdout.count("  operation "), n)

    def test_seed_resolutions(self):
        r = run("model", "check", os.path.join(MODELS, "blog.json"))
        self.assertIn("posts of an author, newest first\n  operation      Query\n"
                      "  on             Blog, index ByAuthor\n"
                      "  key condition  authorId = \"U#12\"\n"
                      "  direction      descending (ScanIndexForward false)", r.stdout)
        r = run("model", "check", os.path.join(MODELS, "workspaces.json"))
        self.assertIn("key            EntityRef = \"WS#acme\" AND Detail = \"PROJ#2026-0041\"",
                      r.stdout)
        r = run("model", "check", os.path.join(MODELS, "orders.json"))
        self.assertIn("TenantShard = \"TENANT#bigco#07\"", r.stdout)

    def test_sample_items_match_templates(self):
        for name in SEEDS:
            model = load(name)
            ext = model["x-dynoscope"]["entities"]
            for table in model["DataModel"]:
                keys = [table["KeyAttributes"]["PartitionKey"]["AttributeName"],
                        table["KeyAttributes"]["SortKey"]["AttributeName"]]
                facets = [f["FacetName"] for f in table["TableFacets"]]
                for item in table["TableData"]:
                    values = [item[k]["S"] for k in keys]
                    matches = [f for f in facets
                               if all(re.match(template_regex(ext[f]["keys"][k]), v)
                                      for k, v in zip(keys, values))]
                    self.assertTrue(matches, f"{name}: {values} matches no entity")

    def test_requests_run_against_engine(self):
        """Each printed request, sent to the engine holding the sample items, finds items."""
        for name in SEEDS:
            model = load(name)
            with self.subTest(model=name), tempfile.TemporaryDirectory() as tmp:
                db = os.path.join(tmp, "t.db")
                for table in model["DataModel"]:
                    ka = table["KeyAttributes"]
                    defs = {ka["PartitionKey"]["AttributeName"]: ka["PartitionKey"]["AttributeType"],
                            ka["SortKey"]["AttributeName"]: ka["SortKey"]["AttributeType"]}
                    create = {"TableName": table["TableName"], "BillingMode": "PAY_PER_REQUEST",
                              "KeySchema": [
                                  {"AttributeName": ka["PartitionKey"]["AttributeName"], "KeyType": "HASH"},
                                  {"AttributeName": ka["SortKey"]["AttributeName"], "KeyType": "RANGE"}]}
                    gsis = []
                    for g in table.get("GlobalSecondaryIndexes", []):
                        gk = g["KeyAttributes"]
                        schema = [{"AttributeName": gk["PartitionKey"]["AttributeName"], "KeyType": "HASH"}]
                        defs[gk["PartitionKey"]["AttributeName"]] = gk["PartitionKey"]["AttributeType"]
                        if "SortKey" in gk:
                            schema.append({"AttributeName": gk["SortKey"]["AttributeName"], "KeyType": "RANGE"})
                            defs[gk["SortKey"]["AttributeName"]] = gk["SortKey"]["AttributeType"]
                        gsis.append({"IndexName": g["IndexName"], "KeySchema": schema,
                                     "Projection": g["Projection"]})
                    if gsis:
                        create["GlobalSecondaryIndexes"] = gsis
                    create["AttributeDefinitions"] = [{"AttributeName": k, "AttributeType": t}
                                                      for k, t in defs.items()]
                    r = run("--db", db, "call", "CreateTable", json.dumps(create))
                    self.assertEqual(r.returncode, 0, r.stderr)
                    items = table["TableData"]
                    for i in range(0, len(items), 25):
                        batch = {table["TableName"]: [{"PutRequest": {"Item": it}}
                                                      for it in items[i:i + 25]]}
                        r = run("--db", db, "call", "BatchWriteItem",
                                json.dumps({"RequestItems": batch}))
                        self.assertEqual(r.returncode, 0, r.stderr)
                out = run("model", "check", os.path.join(MODELS, name + ".json")).stdout
                ops = re.findall(r"  operation +(\w+)\n(?:.*\n)*?  request +(.*)\n", out)
                self.assertEqual(len(ops), len(model["x-dynoscope"]["patterns"]))
                for op, request in ops:
                    r = run("--db", db, "call", op, request)
                    self.assertEqual(r.returncode, 0, f"{op} {request}: {r.stderr}")
                    resp = json.loads(r.stdout)
                    found = 1 if "Item" in resp else resp.get("Count", 0)
                    self.assertGreater(found, 0, f"{op} {request} found nothing")

    def test_bad_model_flags(self):
        model = load("workspaces")
        ext = model["x-dynoscope"]
        ext["entities"]["Project"]["keys"]["Detail"] = "PROJ#{seq}"
        model["DataModel"][0]["NonKeyAttributes"].append({"AttributeName": "seq", "AttributeType": "N"})
        ext["patterns"].append({"name": "every project", "entity": "Project", "many": True})
        ext["patterns"].append({"name": "active projects", "entity": "Project",
                                "inputs": ["workspaceId"], "many": True, "filters": ["status"]})
        with tempfile.TemporaryDirectory() as tmp:
            r = run("model", "check", write_model(tmp, model))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("every project\n  FLAGGED", r.stdout)
        self.assertIn("[pattern] pattern \"every project\": needs a Scan", r.stdout)
        self.assertIn("[pattern] pattern \"active projects\": it filters on status", r.stdout)
        self.assertIn("[unpadded-number] entity Project: {seq}", r.stdout)

    def test_usage_and_unreadable(self):
        for args in (["model"], ["model", "check"], ["model", "frob", "x.json"],
                     ["model", "check", "a.json", "b.json"], ["model", "--bogus"]):
            with self.subTest(args=args):
                r = run(*args)
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        r = run("model", "check", "/nonexistent/model.json")
        self.assertEqual(r.returncode, 2)
        self.assertIn("/nonexistent/model.json", r.stderr)
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.json")
            with open(bad, "w") as f:
                f.write("{\"ModelName\": \"m\", \"DataModel\": [")
            r = run("model", "check", bad)
            self.assertEqual(r.returncode, 2)
            self.assertIn("bad.json", r.stderr)
            with open(bad, "w") as f:
                json.dump({"ModelName": "m", "DataModel": [{"TableName": "T"}]}, f)
            r = run("model", "check", bad)
            self.assertEqual(r.returncode, 2)
            self.assertIn("Table T: KeyAttributes must be an object", r.stderr)


if __name__ == "__main__":
    unittest.main()
