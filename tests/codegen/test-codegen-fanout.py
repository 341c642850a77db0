#!/usr/bin/env python3
"""The fan-out Query programs of ddb_codegen_fanout_program (through fanout-tool), checked
without a server: the plain one against golden files in golden/fanout/ for all six languages;
every one parsed by its language (python compile, `bash -n`, `node --check`, `gofmt -e`,
`rustfmt --check` for parse errors, javac where installed: only the SDK's missing symbols may
fail); the Python, bash and JavaScript ones run against a stand-in boto3, aws and
@aws-sdk/client-dynamodb that answer each Query with the key it asked for, in two pages, so that
the suffixes asked for, their order and the paging are checked exactly, also for a prefix
holding quotes, $, backticks, newlines and right-to-left text; and the requests refused with
their error. Run with --update-golden to rewrite the golden files after a deliberate change."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import codegen_corpus as corpus  # noqa: E402

UPDATE = "--update-golden" in sys.argv
if UPDATE:
    sys.argv.remove("--update-golden")
TOOL = sys.argv.pop(1) if len(sys.argv) > 1 else "build/tests/codegen/fanout-tool"
GOLDEN = os.path.join(HERE, "golden", "fanout")
TARGET = ["http://127.0.0.1:8000", "dev", "eu-west-1"]
EXT = {"cli": "sh", "python": "py", "js": "js", "java": "java", "go": "go", "rust": "rs"}
# No NUL: a prefix comes through argv here (the API itself takes any UTF-8 the JSON can carry).
NASTY = corpus.NASTY.replace("\0", "")

PLAIN = {"TableName": "Orders", "KeyConditionExpression": "#pk = :pk",
         "ExpressionAttributeNames": {"#pk": "TenantShard"},
         "ExpressionAttributeValues": {":pk": {"S": "x"}}}
RICH = {"TableName": corpus.TABLE, "IndexName": "by-pk",
        "KeyConditionExpression": "pk = :p AND sk > :min",
        "FilterExpression": "big = :big AND #b = :bytes AND contains(tags, :tag)",
        "ProjectionExpression": "pk, sk, big, #b, tags",
        "ExpressionAttributeNames": {"#b": "bytes"},
        "ExpressionAttributeValues": {":min": corpus.n("-" + corpus.HUGE_N),
                                      ":p": corpus.s("ignored"),
                                      ":big": corpus.n(corpus.BIG_N),
                                      ":bytes": {"B": corpus.ALL_BYTES},
                                      ":tag": corpus.s(NASTY)},
        "Limit": 2, "ScanIndexForward": False, "ConsistentRead": False}
# (request, placeholder, prefix, first, n, width)
SPECS = [
    (PLAIN, ":pk", "TENANT#bigco#", 1, 10, 2),
    (RICH, ":p", NASTY + "#", 0, 3, 0),
    (PLAIN, ":pk", "WS#acme#", 7, 1, 3),
]


def fanout(lang, spec, target=TARGET):
    request, placeholder, prefix, first, n, width = spec
    return subprocess.run([TOOL, lang, placeholder, prefix, str(first), str(n), str(width),
                           *target], input=json.dumps(request), capture_output=True, text=True,
                          timeout=60)


def suffixes(spec):
    _, _, prefix, first, n, width = spec
    return [prefix + str(k).zfill(width) for k in range(first, first + n)]


def find(tool, *candidates):
    for path in candidates:
        if os.path.exists(path):
            return path
    return shutil.which(tool)


# A stand-in boto3: each Query answers with the key it was asked for, in two pages (the first
# carries a LastEvaluatedKey), so the output shows which keys were read and that paging goes on.
FAKE_BOTO3 = r'''
import threading
_lock = threading.Lock()

class _Client:
    def query(self, **request):
        key = request["ExpressionAttributeValues"][__import__("os").environ["FANOUT_PH"]]["S"]
        page = 2 if "ExclusiveStartKey" in request else 1
        if page == 2:
            assert request["ExclusiveStartKey"] == {"pk": {"S": key}}, request
        items = [{"k": {"S": key}, "page": {"N": str(page)}}]
        if page == 1:
            return {"Items": items, "LastEvaluatedKey": {"pk": {"S": key}}}
        return {"Items": items}

class Session:
    def __init__(self, **kw):
        pass

    def client(self, name, **kw):
        assert name == "dynamodb"
        return _Client()
'''

FAKE_JS = r'''
class QueryCommand { constructor(input) { this.input = input; } }
class DynamoDBClient {
  constructor(config) { this.config = config; }
  async send(command) {
    const input = command.input;
    const key = input.ExpressionAttributeValues[process.env.FANOUT_PH].S;
    // Answer out of order: the merge must still come out in suffix order.
    await new Promise((r) => setTimeout(r, Math.random() * 20));
    const page = input.ExclusiveStartKey === undefined ? 1 : 2;
    const items = [{ k: { S: key }, page: { N: String(page) } }];
    return page === 1 ? { Items: items, LastEvaluatedKey: { pk: { S: key } } } : { Items: items };
  }
}
module.exports = { DynamoDBClient, QueryCommand };
'''

# A stand-in aws: the CLI pages itself, so one call prints every page's items as one array.
FAKE_AWS = r'''#!/usr/bin/env python3
import json, os, sys
args = sys.argv[1:]
assert args[:2] == ["dynamodb", "query"], args
opts = {args[i]: args[i + 1] for i in range(2, len(args) - 1) if args[i].startswith("--")
        and not args[i + 1].startswith("--")}
request = json.loads(opts["--cli-input-json"])
assert "ExpressionAttributeValues" not in request, request
values = json.loads(opts["--expression-attribute-values"])
key = values[os.environ["FANOUT_PH"]]["S"]
for name, v in json.loads(os.environ["FANOUT_OTHERS"]).items():
    assert values[name] == v, (name, values)
print(json.dumps([{"k": {"S": key}, "page": {"N": "1"}}, {"k": {"S": key}, "page": {"N": "2"}}]))
'''


class FanoutSyntaxTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="dynoscope-codegen-fanout-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def programs(self, lang):
        for target in (TARGET, []):
            for n, spec in enumerate(SPECS):
                r = fanout(lang, spec, target)
                self.assertEqual(r.returncode, 0, r.stderr)
                yield n, spec, r.stdout

    def write(self, name, program):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(program)
        return path

    def test_golden(self):
        os.makedirs(GOLDEN, exist_ok=True)
        seen = set()
        for lang, ext in EXT.items():
            r = fanout(lang, SPECS[0])
            self.assertEqual(r.returncode, 0, r.stderr)
            name = f"plain.{ext}"
            seen.add(name)
            path = os.path.join(GOLDEN, name)
            if UPDATE:
                with open(path, "w") as f:
                    f.write(r.stdout)
                continue
            with open(path) as f:
                self.assertEqual(r.stdout, f.read(), f"{name} differs from its golden file")
        if not UPDATE:
            self.assertEqual(seen, {os.path.basename(p) for p in glob.glob(GOLDEN + "/*")})

    def test_summary_names_the_range(self):
        r = fanout("python", SPECS[0])
        self.assertIn("# Query Orders once per suffix, :pk = TENANT#bigco#01 … TENANT#bigco#10 "
                      "(10 Queries) on http://127.0.0.1:8000 (profile dev, region eu-west-1)",
                      r.stdout)
        # A line break in the prefix cannot end the comment it is named in.
        r = fanout("python", SPECS[1])
        self.assertFalse(any(line.startswith(" end") for line in r.stdout.splitlines()))

    def test_python_compiles(self):
        for n, spec, program in self.programs("python"):
            compile(program, f"fanout{n}.py", "exec")

    def test_bash_parses(self):
        for n, spec, program in self.programs("cli"):
            r = subprocess.run(["bash", "-n", self.write(f"f{n}.sh", program)],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, f"{n}:\n{r.stderr}\n{program}")

    def test_node_parses(self):
        if not shutil.which("node"):
            self.skipTest("node is not installed")
        for n, spec, program in self.programs("js"):
            r = subprocess.run(["node", "--check", self.write(f"f{n}.js", program)],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, f"{n}:\n{r.stderr}\n{program}")

    def test_go_parses(self):
        gofmt = find("gofmt", "/usr/bin/gofmt", "/usr/lib/go/bin/gofmt")
        if not gofmt:
            self.skipTest("gofmt is not installed (Debian's golang-go)")
        for n, spec, program in self.programs("go"):
            r = subprocess.run([gofmt, "-e", "-l", self.write(f"f{n}.go", program)],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, f"{n}:\n{r.stderr}\n{program}")
            self.assertEqual(r.stderr, "")

    def test_rust_parses(self):
        rustfmt = find("rustfmt", "/usr/bin/rustfmt")
        if not rustfmt:
            self.skipTest("rustfmt is not installed")
        for n, spec, program in self.programs("rust"):
            r = subprocess.run([rustfmt, "--edition", "2021", "--check",
                                self.write(f"f{n}.rs", program)], capture_output=True, text=True)
            self.assertNotIn("error", r.stderr, f"{n}:\n{r.stderr}\n{program}")
            self.assertIn(r.returncode, (0, 1), r.stderr)

    def test_java_parses(self):
        javac = find("javac", "/usr/lib/jvm/java-17-openjdk-amd64/bin/javac")
        if not javac:
            self.skipTest("javac is not installed")
        for n, spec, program in self.programs("java"):
            path = self.write(f"java{n}/DynamoDbRequest.java", program)
            r = subprocess.run([javac, "-Xmaxerrs", "10000", "-d", os.path.dirname(path), path],
                               capture_output=True, text=True, timeout=120)
            errors = re.findall(r"error: (.*)", r.stderr)
            other = [e for e in errors if not re.match(
                r"(package \S+ does not exist|cannot find symbol)", e)]
            self.assertEqual(other, [], f"{n}:\n{r.stderr[:3000]}")

    def stub_env(self, spec):
        request, placeholder = spec[0], spec[1]
        others = {k: v for k, v in request["ExpressionAttributeValues"].items()
                  if k != placeholder}
        stubs = os.path.join(self.dir, "stubs")
        self.write("stubs/boto3.py", FAKE_BOTO3)
        self.write("stubs/node_modules/@aws-sdk/client-dynamodb/index.js", FAKE_JS)
        os.chmod(self.write("stubs/bin/aws", FAKE_AWS), 0o755)
        env = dict(os.environ, PYTHONPATH=stubs, NODE_PATH=os.path.join(stubs, "node_modules"),
                   PATH=os.path.join(stubs, "bin") + os.pathsep + os.environ["PATH"],
                   FANOUT_PH=placeholder, FANOUT_OTHERS=json.dumps(others))
        return env

    def run_stubbed(self, lang, spec):
        program = fanout(lang, spec).stdout
        path = self.write(f"run.{EXT[lang]}", program)
        argv = {"cli": ["bash", path], "python": ["/usr/bin/python3", path],
                "js": ["node", path]}[lang]
        r = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                           env=self.stub_env(spec))
        self.assertEqual(r.returncode, 0, f"{lang}:\n{r.stderr}\n{program}")
        if lang == "cli":
            decoder, docs, i, text = json.JSONDecoder(), [], 0, r.stdout
            while i < len(text.rstrip()):
                while text[i].isspace():
                    i += 1
                doc, i = decoder.raw_decode(text, i)
                docs.append(doc)
            # One array per suffix, in suffix order.
            self.assertEqual([[item["k"]["S"] for item in d] for d in docs],
                             [[key, key] for key in suffixes(spec)])
            return [item for d in docs for item in d]
        return [json.loads(line) for line in r.stdout.split("\n") if line]

    def test_stubbed_runs_ask_for_every_suffix_in_order(self):
        langs = ["python", "cli"] + (["js"] if shutil.which("node") else [])
        for lang in langs:
            for spec in SPECS:
                with self.subTest(lang=lang, prefix=spec[2], n=spec[4]):
                    items = self.run_stubbed(lang, spec)
                    expected = [{"k": {"S": key}, "page": {"N": str(page)}}
                                for key in suffixes(spec) for page in (1, 2)]
                    self.assertEqual(items, expected)

    def test_refused(self):
        no_pk = dict(PLAIN, ExpressionAttributeValues={":other": {"S": "x"}},
                     KeyConditionExpression="#pk = :other")
        number = dict(PLAIN, ExpressionAttributeValues={":pk": {"N": "1"}})
        cases = [
            ((no_pk, ":pk", "P#", 1, 10, 0),
             "ValidationException: The placeholder :pk is not in the Query's "
             "ExpressionAttributeValues"),
            ((number, ":pk", "P#", 1, 10, 0),
             "ValidationException: The value of :pk is not a string (S)"),
            ((PLAIN, ":pk", "P#", 1, 0, 0),
             "ValidationException: A fan-out Query has 1 to 1000 suffixes, not 0"),
            ((PLAIN, ":pk", "P#", 1, 1001, 0),
             "ValidationException: A fan-out Query has 1 to 1000 suffixes, not 1001"),
            ((PLAIN, ":pk", "P#", 4294967295, 2, 0),
             "ValidationException: The suffixes from 4294967295 on, 2 of them, run past"),
            ((PLAIN, ":pk", "P#", 1, 10, 11),
             "ValidationException: A suffix is padded to at most 10 digits, not 11"),
            ((PLAIN, ":pk", "P" * 2047, 1, 10, 0),
             "ValidationException: The prefix and its suffix make a key past DynamoDB's 2048"),
            ((dict(PLAIN, ExclusiveStartKey={"TenantShard": {"S": "x"}}), ":pk", "P#", 1, 2, 0),
             "ValidationException: A fan-out Query cannot start at an ExclusiveStartKey"),
            ((dict(PLAIN, Select="COUNT"), ":pk", "P#", 1, 2, 0),
             "ValidationException: A fan-out Query prints items: Select COUNT"),
            ((dict(PLAIN, KeyConditionExpression="#pk = :pk AND"), ":pk", "P#", 1, 2, 0),
             "ValidationException: Invalid KeyConditionExpression: Syntax error"),
            ((dict(PLAIN, Key={}), ":pk", "P#", 1, 2, 0),
             "ValidationException: Query has no member Key"),
        ]
        for spec, expected in cases:
            with self.subTest(expected=expected):
                for lang in EXT:
                    r = fanout(lang, spec)
                    self.assertEqual(r.returncode, 1, r.stderr)
                    self.assertEqual(r.stdout, "")
                    self.assertTrue(r.stderr.startswith(expected), r.stderr)
        # The last suffix may be G_MAXUINT itself, and a key may be 2048 bytes exactly.
        self.assertEqual(fanout("python", (PLAIN, ":pk", "P#", 4294967294, 2, 0)).returncode, 0)
        self.assertEqual(fanout("python", (PLAIN, ":pk", "P" * 2046, 1, 10, 2)).returncode, 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
