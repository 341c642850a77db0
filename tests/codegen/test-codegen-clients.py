#!/usr/bin/env python3
"""The programs `dynoscope-cli codegen` writes, run as a user runs them: the Python one with
boto3, the bash one with the AWS CLI v2, the JavaScript one with node and @aws-sdk/client-dynamodb,
each against `dynoscope-cli serve`. Every request of the corpus (codegen_corpus.py) is replayed in
order through the program and, beside it, through `dynoscope-cli call` on a database of its own:
after each write the two databases hold the very same items, and each read prints exactly the
items `call` reads. The programs target a named profile and region (no credentials in them)."""
import decimal
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import codegen_corpus as corpus  # noqa: E402
import dynoscope_testlib as lib  # noqa: E402


lib.use_system_python_for_boto3()

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"
PROFILE = "codegen-test"
REGION = "eu-central-1"


def sdk_js_dir():
    return os.environ.get("DYNOSCOPE_AWS_SDK_JS_DIR") or lib.cache_dir("aws-sdk-js")


def find_sdk_js():
    d = sdk_js_dir()
    if os.path.isfile(os.path.join(d, "node_modules", "@aws-sdk", "client-dynamodb",
                                   "package.json")):
        return os.path.join(d, "node_modules")
    if shutil.which("npm") and lib.npm_install(d, "@aws-sdk/client-dynamodb@3"):
        return os.path.join(d, "node_modules")
    return None


class Server:
    def __init__(self, db):
        self.proc = subprocess.Popen([CLI, "--db", db, "serve", "--port", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ready, _, _ = select.select([self.proc.stdout], [], [], 20)
        if not ready:
            self.proc.kill()
            raise AssertionError("serve did not say it was listening")
        m = re.fullmatch(r"Listening on (http://127\.0\.0\.1:\d+)\n", self.proc.stdout.readline())
        if not m:
            self.proc.kill()
            raise AssertionError("serve: unexpected first line")
        self.url = m.group(1)

    def stop(self):
        self.proc.terminate()
        self.proc.communicate(timeout=30)


def call(db, op, request):
    r = subprocess.run([CLI, "--db", db, "call", "--compact", op, "-"],
                       input=json.dumps(request), capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise AssertionError(f"call {op}: {r.stderr}")
    return json.loads(r.stdout)


def all_items(db):
    """Every table's items, as `call Scan` reads them, in key order."""
    out = {}
    for t in corpus.TABLES:
        items, start = [], None
        while True:
            req = {"TableName": t["TableName"]}
            if start:
                req["ExclusiveStartKey"] = start
            resp = call(db, "Scan", req)
            items += resp["Items"]
            start = resp.get("LastEvaluatedKey")
            if not start:
                break
        out[t["TableName"]] = items
    return out


def expected_read(db, op, request):
    """What the program must print, from `call` (pages followed to the end)."""
    if op == "GetItem":
        return [call(db, op, request).get("Item")]
    if op in ("Query", "Scan"):
        req, found = dict(request), []
        while True:
            resp = call(db, op, req)
            found += [resp["Count"]] if req.get("Select") == "COUNT" else resp["Items"]
            if "LastEvaluatedKey" not in resp:
                return found
            req["ExclusiveStartKey"] = resp["LastEvaluatedKey"]
    if op == "BatchGetItem":
        resp = call(db, op, request)
        return sorted((t, json.dumps(i, sort_keys=True)) for t, items in resp["Responses"].items()
                      for i in items)
    if op == "TransactGetItems":
        return [r.get("Item") for r in call(db, op, request)["Responses"]]
    raise AssertionError(op)


def printed_read(lang, op, request, stdout):
    """What a program printed, in the shape expected_read gives."""
    if lang == "cli":
        out = json.loads(stdout) if stdout.strip() else None
        if op == "GetItem":
            return [out]
        if op in ("Query", "Scan"):
            if request.get("Select") == "COUNT":
                return [out]
            return out
        if op == "BatchGetItem":
            return sorted((t, json.dumps(i, sort_keys=True)) for t, items in out.items()
                          for i in items)
        return [r.get("Item") for r in out]
    # Only "\n" ends a line: splitlines() would also split at U+2028 inside a JSON string.
    lines = [line for line in stdout.split("\n") if line]
    if op == "BatchGetItem":
        rows = [line.split(" ", 1) for line in lines]
        return sorted((t, json.dumps(json.loads(i), sort_keys=True)) for t, i in rows)
    if op in ("Query", "Scan") and request.get("Select") == "COUNT":
        return [sum(int(line) for line in lines)] if lines else []
    return [json.loads(line) for line in lines]


def json_documents(text):
    """The JSON documents a program printed one after another (a line each, or pretty)."""
    decoder, docs, i = json.JSONDecoder(), [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return docs
        doc, i = decoder.raw_decode(text, i)
        docs.append(doc)


def without_proto(found):
    """The SDK v3 reads a top-level attribute named "__proto__" into its item object by
    assignment, which sets the object's prototype instead: such an attribute never reaches a
    program (it is written and stored exactly; the writes check that)."""
    def strip(item):
        return {k: v for k, v in item.items() if k != "__proto__"} \
            if isinstance(item, dict) else item
    out = []
    for entry in found:
        if isinstance(entry, tuple):
            table, text = entry
            out.append((table, json.dumps(strip(json.loads(text)), sort_keys=True)))
        else:
            out.append(strip(entry))
    return sorted(out) if found and isinstance(found[0], tuple) else out


class ClientsTest(unittest.TestCase):
    aws_cli = lib.find_aws_cli_v2()
    sdk_js = find_sdk_js() if shutil.which("node") else None

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="dynoscope-codegen-test-")
        config = os.path.join(self.dir, "config")
        with open(config, "w") as f:
            f.write(f"[profile {PROFILE}]\nregion = us-west-2\n"
                    "aws_access_key_id = AKIAFAKECODEGENTEST0\n"
                    "aws_secret_access_key = fake/secret/for/codegen/tests\n")
        # Only the profile holds credentials: a program that ignored it could not sign.
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
        self.env.update({"AWS_CONFIG_FILE": config,
                         "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
                         "AWS_EC2_METADATA_DISABLED": "true",
                         "HOME": self.dir})
        if self.sdk_js:
            self.env["NODE_PATH"] = self.sdk_js

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def codegen(self, lang, op, request, url):
        r = subprocess.run([CLI, "codegen", "--lang", lang, "--endpoint", url, "--profile", PROFILE,
                            "--region", REGION, op, "-"],
                           input=json.dumps(request), capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("AKIAFAKE", r.stdout)
        self.assertNotIn("fake/secret", r.stdout)
        self.assertIn(PROFILE, r.stdout)
        return r.stdout

    def run_program(self, lang, program, n):
        path = os.path.join(self.dir, f"step{n}." + {"cli": "sh", "python": "py", "js": "js"}[lang])
        with open(path, "w") as f:
            f.write(program)
        argv = {"cli": ["bash", path], "python": ["/usr/bin/python3", path],
                "js": ["node", path]}[lang]
        env = dict(self.env)
        if lang == "cli":
            env["PATH"] = os.path.dirname(self.aws_cli) + os.pathsep + env.get("PATH", "")
        r = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env,
                           cwd=self.dir)
        self.assertEqual(r.returncode, 0, f"{lang} step {n} failed:\n{r.stderr}\n{program}")
        return r.stdout

    def replay(self, lang):
        served = os.path.join(self.dir, "served.db")
        reference = os.path.join(self.dir, "reference.db")
        for t in corpus.TABLES:
            call(served, "CreateTable", t)
            call(reference, "CreateTable", t)
        server = Server(served)
        try:
            for n, (op, request, kind) in enumerate(corpus.steps()):
                with self.subTest(step=n, op=op):
                    program = self.codegen(lang, op, request, server.url)
                    out = self.run_program(lang, program, n)
                    if kind == "write":
                        call(reference, op, request)
                        self.assertEqual(all_items(served), all_items(reference),
                                         f"after {op} (step {n})")
                    else:
                        expected = expected_read(reference, op, request)
                        if lang == "js":
                            expected = without_proto(expected)
                        self.assertEqual(printed_read(lang, op, request, out), expected,
                                         f"{op} (step {n}) printed:\n{out}")
        finally:
            server.stop()

    @unittest.skipUnless(lib.has_boto3(), "boto3 is not installed")
    def test_python_boto3(self):
        self.replay("python")

    def test_aws_cli(self):
        if not self.aws_cli:
            self.skipTest("the AWS CLI v2 is not installed")
        self.replay("cli")

    def test_javascript_sdk_v3(self):
        if not self.sdk_js:
            self.skipTest("node or @aws-sdk/client-dynamodb is not available")
        self.replay("js")

    def partiql(self, lang, where):
        """The PartiQL programs, run against `serve` (on an engine database) or DynamoDB Local:
        what they print and what they leave stored."""
        if where == "serve":
            served = os.path.join(self.dir, "partiql.db")
            server = Server(served)

            class Served:
                port = int(server.url.rsplit(":", 1)[1])

                @staticmethod
                def call(op, request):
                    return 200, json.dumps(call(served, op, request))

                @staticmethod
                def stop():
                    server.stop()
            ddb = Served()
        else:
            emulator = lib.find_emulator() if shutil.which("java") else None
            if not emulator:
                self.skipTest("DynamoDB Local (java and its jar) is not available")
            ddb = lib.DynamoDBLocal(emulator)
            if not ddb.start():
                self.skipTest("DynamoDB Local did not start")
        try:
            for t in corpus.TABLES:
                ddb.call("CreateTable", t)
            key = {"pk": corpus.s("p#1"), "sk": corpus.n("1")}
            seed = {"pk": corpus.s("p#1"), "sk": corpus.n(corpus.BIG_N), "v": corpus.s("seed")}
            ddb.call("PutItem", {"TableName": corpus.TABLE, "Item": seed})
            ddb.call("PutItem", {"TableName": corpus.TABLE, "Item": key})
            ddb.call("PutItem", {"TableName": corpus.OTHER, "Item": {"id": corpus.b(b"\x00")}})
            url = f"http://127.0.0.1:{ddb.port}"
            skipped = False
            for n, (op, request, _) in enumerate(corpus.partiql_steps()):
                with self.subTest(step=n, op=op):
                    try:
                        out = self.run_program(lang, self.codegen(lang, op, request, url), n)
                    except AssertionError as e:
                        # Debian's botocore 1.29 and the AWS CLI installed here predate
                        # ReturnValuesOnConditionCheckFailure in the PartiQL shapes and refuse
                        # it before sending; the program is right for current SDKs.
                        if lang in ("python", "cli") and re.search(
                                r"Unknown parameter in .*ReturnValuesOnConditionCheckFailure",
                                str(e)):
                            skipped = True
                            continue
                        raise
                    if n == 0:
                        self.assertEqual(json.loads(out)["Items"], [seed], out)
                    if n == 1:
                        pages = json_documents(out)
                        self.assertGreaterEqual(len(pages), 2, out)
                        self.assertEqual([i for p in pages for i in p.get("Items", [])],
                                         [key, seed], out)
            if skipped:
                return
            _, got = ddb.call("GetItem", {"TableName": corpus.TABLE, "Key": key})
            # The same number (DynamoDB Local keeps the exponent as sent, the engine writes it
            # out as the service does).
            self.assertEqual(decimal.Decimal(json.loads(got)["Item"]["n"]["N"]),
                             decimal.Decimal(corpus.HUGE_N))
            self.assertEqual(json.loads(got)["Item"].get("v"), corpus.s(corpus.NASTY))
            self.assertEqual(decimal.Decimal(json.loads(got)["Item"]["w"]["N"]),
                             decimal.Decimal(corpus.TINY_N))
            _, got = ddb.call("GetItem", {"TableName": corpus.OTHER,
                                          "Key": {"id": {"B": corpus.ALL_BYTES}}})
            self.assertEqual(sorted(json.loads(got)["Item"]["v"]["SS"]),
                             sorted(["a", corpus.NASTY]))
            _, got = ddb.call("GetItem", {"TableName": corpus.OTHER,
                                          "Key": {"id": corpus.b(b"\x00")}})
            self.assertNotIn("Item", json.loads(got))
        finally:
            ddb.stop()

    @unittest.skipUnless(lib.has_boto3(), "boto3 is not installed")
    def test_partiql_python_boto3(self):
        self.partiql("python", "serve")
        self.partiql("python", "ddblocal")

    def test_partiql_aws_cli(self):
        if not self.aws_cli:
            self.skipTest("the AWS CLI v2 is not installed")
        self.partiql("cli", "serve")
        self.partiql("cli", "ddblocal")

    def test_partiql_javascript_sdk_v3(self):
        if not self.sdk_js:
            self.skipTest("node or @aws-sdk/client-dynamodb is not available")
        self.partiql("js", "serve")
        self.partiql("js", "ddblocal")


if __name__ == "__main__":
    unittest.main(verbosity=2)
