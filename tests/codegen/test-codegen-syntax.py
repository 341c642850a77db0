#!/usr/bin/env python3
"""The Go, Rust and Java programs `dynoscope-cli codegen` writes for the corpus
(codegen_corpus.py), checked without their SDKs (which cannot be fetched here): Go parsed by
`gofmt -e`, Rust by `rustfmt` (edition 2021; a parse error fails, a layout other than rustfmt's
does not), Java against golden files
in golden/java/ (and, where javac is installed, parsed by it: only errors other than the SDK's
missing symbols count). Also: requests DynamoDB would refuse are refused with its error, exit 1.
Run with --update-golden to rewrite the golden files after a deliberate change."""
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
CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"
GOLDEN = os.path.join(HERE, "golden", "java")
TARGET = ["--endpoint", "http://127.0.0.1:8000", "--profile", "dev", "--region", "eu-west-1"]


def codegen(lang, op, request, target=TARGET):
    return subprocess.run([CLI, *target, "codegen", "--lang", lang, op, "-"],
                          input=json.dumps(request), capture_output=True, text=True, timeout=60)


def find(tool, *candidates):
    for path in candidates:
        if os.path.exists(path):
            return path
    return shutil.which(tool)


class SyntaxTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="dynoscope-codegen-syntax-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def programs(self, lang, target=TARGET, wide=True):
        """Every step of the corpus; the wide ones too unless WIDE is False (the golden
        files hold the replayed ones)."""
        steps = corpus.all_steps() if wide else [
            (op, r) for op, r, _ in corpus.steps() + corpus.partiql_steps() + corpus.table_steps()]
        for n, (op, request) in enumerate(steps):
            r = codegen(lang, op, request, target)
            self.assertEqual(r.returncode, 0, r.stderr)
            yield n, op, r.stdout

    def test_go_parses(self):
        gofmt = find("gofmt", "/usr/bin/gofmt", "/usr/lib/go/bin/gofmt")
        if not gofmt:
            self.skipTest("gofmt is not installed (Debian's golang-go)")
        for target in (TARGET, []):
            for n, op, program in self.programs("go", target):
                path = os.path.join(self.dir, f"step{n}.go")
                with open(path, "w") as f:
                    f.write(program)
                r = subprocess.run([gofmt, "-e", "-l", path], capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, f"{op} (step {n}):\n{r.stderr}\n{program}")
                self.assertEqual(r.stderr, "")

    def test_rust_parses(self):
        rustfmt = find("rustfmt", "/usr/bin/rustfmt")
        if not rustfmt:
            self.skipTest("rustfmt is not installed")
        for target in (TARGET, []):
            for n, op, program in self.programs("rust", target):
                path = os.path.join(self.dir, f"step{n}.rs")
                with open(path, "w") as f:
                    f.write(program)
                # Formatted to stdout (thrown away): a parse error fails, printing "error"; a
                # layout other than rustfmt's is no defect (--check would spend its time
                # diffing the long programs).
                r = subprocess.run([rustfmt, "--edition", "2021", "--emit", "stdout", path],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                self.assertNotIn("error", r.stderr, f"{op} (step {n}):\n{r.stderr}\n{program}")
                self.assertEqual(r.returncode, 0, r.stderr)

    def test_java_golden(self):
        os.makedirs(GOLDEN, exist_ok=True)
        seen = set()
        for n, op, program in self.programs("java", wide=False):
            name = f"{n:02d}-{op}.java"
            seen.add(name)
            path = os.path.join(GOLDEN, name)
            if UPDATE:
                with open(path, "w") as f:
                    f.write(program)
                continue
            with open(path) as f:
                self.assertEqual(program, f.read(), f"{name} differs from its golden file")
        if not UPDATE:
            self.assertEqual(seen, {os.path.basename(p) for p in glob.glob(GOLDEN + "/*.java")})

    def test_java_parses(self):
        javac = find("javac", "/usr/lib/jvm/java-17-openjdk-amd64/bin/javac")
        if not javac:
            self.skipTest("javac is not installed")
        for n, op, program in self.programs("java", wide=False):
            d = os.path.join(self.dir, f"java{n}")
            os.makedirs(d)
            path = os.path.join(d, "DynamoDbRequest.java")
            with open(path, "w") as f:
                f.write(program)
            r = subprocess.run([javac, "-Xmaxerrs", "10000", "-d", d, path], capture_output=True,
                               text=True, timeout=120)
            # Without the SDK javac stops at its symbols; any other error is the program's.
            errors = re.findall(r"error: (.*)", r.stderr)
            other = [e for e in errors if not re.match(
                r"(package \S+ does not exist|cannot find symbol)", e)]
            self.assertEqual(other, [], f"{op} (step {n}):\n{r.stderr[:3000]}")

    def test_refused_requests(self):
        cases = [
            ("Query", {"TableName": "Codegen", "KeyConditionExpression": "pk = :pk AND",
                       "ExpressionAttributeValues": {":pk": {"S": "x"}}},
             "ValidationException: Invalid KeyConditionExpression: Syntax error"),
            ("Query", {"TableName": "Codegen", "KeyConditionExpression": "pk = :pk",
                       "ExpressionAttributeValues": {":pk": {"S": "x"}, ":unused": {"S": "y"}}},
             "ValidationException: Value provided in ExpressionAttributeValues unused in "
             "expressions: keys: {:unused}"),
            ("PutItem", {"TableName": "Codegen", "Item": {"pk": {"N": "1x"}}},
             "ValidationException"),
            ("PutItem", {"TableName": "Codegen", "Item": {"pk": {"S": 1}}},
             "SerializationException"),
            ("GetItem", {"TableName": "Codegen", "Key": {"pk": {"S": "x"}},
                         "ProjectionExpression": "size"},
             "ValidationException: Invalid ProjectionExpression: Attribute name is a reserved "
             "keyword; reserved keyword: size"),
            ("TransactWriteItems", {"TransactItems": [{"Update": {
                "TableName": "Codegen", "Key": {"pk": {"S": "x"}}, "UpdateExpression": "SET"}}]},
             "ValidationException: Invalid UpdateExpression: Syntax error"),
            ("BatchWriteItem", {"RequestItems": {"Codegen": [
                {"PutRequest": {"Item": {"pk": {"NS": []}}}}]}},
             "ValidationException"),
            ("Scan", {"TableName": "Codegen", "Limit": 0},
             "ValidationException: 1 validation error detected: Value '0' at 'limit'"),
            ("Scan", {"TableName": "Codegen", "Bogus": 1}, "ValidationException: Scan has no member Bogus"),
            ("CreateTable", {"TableName": "Codegen"},
             "ValidationException: 2 validation errors detected: Value null at "
             "'attributeDefinitions'"),
            ("UpdateTable", {"TableName": "Codegen", "BillingMode": "PAY_PER_REQUEST", "Bogus": 1},
             "ValidationException: UpdateTable has no member Bogus"),
            ("ListTables", {}, "UnknownOperationException"),
            ("ExecuteStatement", {"Limit": 0},
             "ValidationException: 2 validation errors detected: Value null at 'statement' "
             "failed to satisfy constraint: Member must not be null; Value '0' at 'limit'"),
            ("ExecuteStatement", {"Statement": "SELECT * FROM t", "Parameters": []},
             "ValidationException: 1 validation error detected: Value '[]' at 'parameters'"),
            ("ExecuteStatement", {"Statement": "SELECT * FROM t", "Bogus": 1},
             "ValidationException: ExecuteStatement has no member Bogus"),
            ("BatchExecuteStatement", {"Statements": []},
             "ValidationException: 1 validation error detected: Value '[]' at 'statements'"),
            ("BatchExecuteStatement", {"Statements": [{"Statement": "SELECT * FROM t",
                                                       "ClientRequestToken": "x"}]},
             "ValidationException: BatchExecuteStatement[0] has no member ClientRequestToken"),
            ("ExecuteTransaction", {"TransactStatements": [{"Parameters": [{"S": "x"}]}]},
             "ValidationException: 1 validation error detected: Value null at "
             "'transactStatements.1.member.statement'"),
            ("ExecuteTransaction", {"TransactStatements": [{
                "Statement": "SELECT * FROM t WHERE pk = 'a'", "ConsistentRead": True}]},
             "ValidationException: ExecuteTransaction[0] has no member ConsistentRead"),
        ]
        for op, request, expected in cases:
            with self.subTest(op=op, expected=expected):
                r = codegen("python", op, request)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertEqual(r.stdout, "")
                self.assertTrue(r.stderr.startswith(expected), r.stderr)

    def test_usage_errors(self):
        for args in (["codegen", "Query", "{}"], ["codegen", "--lang", "cobol", "Query", "{}"],
                     ["--db", os.path.join(self.dir, "x.db"), "codegen", "--lang", "python",
                      "Scan", "{}"]):
            r = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=30)
            self.assertEqual(r.returncode, 2, r.stderr)

    def test_no_credentials_and_comment_safe_target(self):
        # A profile name holding a line break cannot end the comment it is named in.
        target = ["--endpoint", "http://127.0.0.1:8000/x\nimport os", "--profile",
                  "p\nos.system('x')", "--region", "eu-west-1"]
        env = dict(os.environ, AWS_ACCESS_KEY_ID="AKIASHOULDNOTAPPEAR0",
                   AWS_SECRET_ACCESS_KEY="secret-that-must-not-appear")
        for lang in ("cli", "python", "js", "java", "go", "rust"):
            r = subprocess.run([CLI, *target, "codegen", "--lang", lang, "Scan",
                                '{"TableName": "Codegen"}'], capture_output=True, text=True,
                               env=env, timeout=30)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertNotIn("AKIASHOULDNOTAPPEAR0", r.stdout)
            self.assertNotIn("secret-that-must-not-appear", r.stdout)
            first = r.stdout.splitlines()[1 if lang in ("cli", "python") else 0]
            self.assertIn("?import os", first)
            self.assertFalse(any(line.startswith("import os") or line.startswith("os.system")
                                 for line in r.stdout.splitlines()), r.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
