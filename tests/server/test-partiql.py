#!/usr/bin/env python3
"""PartiQL through `dynoscope-cli serve`, as boto3 sends it: ExecuteStatement's paging (Limit
counts items evaluated, 1 MB pages, empty pages with a NextToken, IN over partition keys),
exact values through literals and parameters, writes with their errors, BatchExecuteStatement's
per-statement answers and ExecuteTransaction's all-or-none. The statements' semantics against
DynamoDB Local are the differential corpus's (tests/diff/cases/partiql.json); these are the
parts a corpus of single answers cannot show."""
import base64
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import unittest
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

lib.use_system_python_for_boto3()
if not lib.has_boto3():
    print("boto3 is missing", file=sys.stderr)
    sys.exit(77)
import boto3  # noqa: E402
import botocore.config  # noqa: E402
import botocore.exceptions  # noqa: E402

CLI = sys.argv.pop(1) if len(sys.argv) > 1 else "build/src/cli/dynoscope-cli"


class PartiQLTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="dynoscope-partiql-")
        cls.proc = subprocess.Popen([CLI, "--db", os.path.join(cls.dir, "t.db"), "serve",
                                     "--port", "0"], stdout=subprocess.PIPE, text=True)
        ready, _, _ = select.select([cls.proc.stdout], [], [], 120)
        assert ready, "serve did not start"
        port = re.search(r":(\d+)", cls.proc.stdout.readline()).group(1)
        cls.db = boto3.client("dynamodb", endpoint_url="http://127.0.0.1:" + port,
                              region_name="us-east-1", aws_access_key_id="x",
                              aws_secret_access_key="y",
                              config=botocore.config.Config(retries={"max_attempts": 1}))
        cls.db.create_table(
            TableName="posts",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "N"},
                                  {"AttributeName": "author", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"}],
            GlobalSecondaryIndexes=[{"IndexName": "byAuthor",
                                     "KeySchema": [{"AttributeName": "author", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"}}],
            BillingMode="PAY_PER_REQUEST")
        for pk in ("a", "b", "c"):
            for i in range(30):
                cls.db.put_item(TableName="posts", Item={
                    "pk": {"S": pk}, "sk": {"N": str(i)}, "author": {"S": "u%d" % (i % 3)},
                    "title": {"S": "%s-%d" % (pk, i)}})

    @classmethod
    def tearDownClass(cls):
        cls.proc.terminate()
        cls.proc.wait(timeout=30)
        shutil.rmtree(cls.dir)

    def run_all(self, statement, **kw):
        """Every page of `statement`: (pages, items)."""
        pages, items, token = [], [], None
        while True:
            args = dict(kw, Statement=statement)
            if token:
                args["NextToken"] = token
            r = self.db.execute_statement(**args)
            pages.append(r)
            items += r["Items"]
            token = r.get("NextToken")
            if not token:
                return pages, items
            self.assertLess(len(pages), 1000)

    def test_in_pages_through_every_key_once(self):
        pages, items = self.run_all("SELECT * FROM posts WHERE pk IN ['a', 'c'] AND sk < ?",
                                    Parameters=[{"N": "25"}], Limit=7)
        got = [(i["pk"]["S"], int(i["sk"]["N"])) for i in items]
        self.assertEqual(got, [("a", n) for n in range(25)] + [("c", n) for n in range(25)])
        self.assertTrue(all(len(p["Items"]) <= 7 for p in pages))
        # A page that stops inside a partition says where, in LastEvaluatedKey too.
        self.assertEqual(pages[0]["LastEvaluatedKey"], {"pk": {"S": "a"}, "sk": {"N": "6"}})

    def test_or_of_keys_reads_each_partition_once(self):
        _, items = self.run_all("SELECT pk, sk FROM posts WHERE pk = 'c' OR pk = 'a' OR pk = 'c'",
                                Limit=13)
        got = [(i["pk"]["S"], int(i["sk"]["N"])) for i in items]
        self.assertEqual(got, [("c", n) for n in range(30)] + [("a", n) for n in range(30)])
        _, items = self.run_all("SELECT pk FROM posts WHERE pk IN ['b', 'b']")
        self.assertEqual(len(items), 30)

    def test_order_by_descending(self):
        _, items = self.run_all("SELECT sk FROM posts WHERE pk = 'b' ORDER BY sk DESC")
        self.assertEqual([int(i["sk"]["N"]) for i in items], list(range(29, -1, -1)))

    def test_limit_counts_items_evaluated_and_pages_can_be_empty(self):
        r = self.db.execute_statement(
            Statement="SELECT * FROM posts WHERE pk = 'a' AND title = 'a-29'", Limit=5)
        self.assertEqual(r["Items"], [])
        self.assertIn("NextToken", r)
        _, items = self.run_all("SELECT * FROM posts WHERE pk = 'a' AND title = 'a-29'", Limit=5)
        self.assertEqual([i["title"]["S"] for i in items], ["a-29"])

    def test_scan_and_index(self):
        _, items = self.run_all("SELECT title FROM posts WHERE begins_with(title, 'b-1')", Limit=11)
        self.assertEqual(sorted(i["title"]["S"] for i in items),
                         sorted("b-%d" % n for n in [1] + list(range(10, 20))))
        _, items = self.run_all('SELECT pk, sk FROM "posts"."byAuthor" WHERE author = \'u1\'')
        self.assertEqual(len(items), 30)

    def test_one_megabyte_pages(self):
        big = "x" * 100000
        for i in range(25):
            self.db.execute_statement(Statement="INSERT INTO posts VALUE {'pk': 'big', 'sk': ?, 'body': ?}",
                                      Parameters=[{"N": str(i)}, {"S": big}])
        pages, items = self.run_all("SELECT sk FROM posts WHERE pk = 'big'")
        self.assertEqual([int(i["sk"]["N"]) for i in items], list(range(25)))
        self.assertGreater(len(pages), 2)
        self.assertTrue(all(len(p["Items"]) <= 11 for p in pages))

    def test_exact_values(self):
        n = "1234567890123456789012345678901234567.8"
        self.db.execute_statement(
            Statement="INSERT INTO posts VALUE {'pk': 'v', 'sk': 1, 'n': " + n + ", 'ss': <<'x', 'y'>>,"
                      " 'ns': <<1, 2.50>>, 'b': ?, 'm': {'l': [1, 'two', true, null]}, 'e': ''}",
            Parameters=[{"B": b"\x00\xff"}])
        item = self.db.execute_statement(Statement="SELECT * FROM posts WHERE pk = 'v' AND sk = 1")["Items"][0]
        self.assertEqual(item["n"], {"N": n})
        self.assertEqual(sorted(item["ss"]["SS"]), ["x", "y"])
        self.assertEqual(sorted(Decimal(x) for x in item["ns"]["NS"]), [Decimal(1), Decimal("2.5")])
        self.assertEqual(item["b"], {"B": b"\x00\xff"})
        self.assertEqual(item["m"], {"M": {"l": {"L": [{"N": "1"}, {"S": "two"}, {"BOOL": True},
                                                      {"NULL": True}]}}})
        self.assertEqual(item["e"], {"S": ""})
        r = self.db.execute_statement(Statement="SELECT m.l[1], b FROM posts WHERE pk = 'v' AND sk = 1 AND b = ?",
                                      Parameters=[{"B": b"\x00\xff"}])
        self.assertEqual(r["Items"], [{"l[1]": {"S": "two"}, "b": {"B": b"\x00\xff"}}])

    def test_writes_and_their_errors(self):
        db = self.db
        db.execute_statement(Statement="INSERT INTO posts VALUE {'pk': 'w', 'sk': 1, 'n': 1, 's': <<'a'>>}")
        with self.assertRaises(db.exceptions.DuplicateItemException):
            db.execute_statement(Statement="INSERT INTO posts VALUE {'pk': 'w', 'sk': 1}")
        r = db.execute_statement(Statement="UPDATE posts SET n = n + 1 SET s = set_add(s, <<'b'>>) "
                                           "REMOVE gone WHERE pk = 'w' AND sk = 1 RETURNING MODIFIED NEW *")
        self.assertEqual(r["Items"][0]["n"], {"N": "2"})
        self.assertEqual(sorted(r["Items"][0]["s"]["SS"]), ["a", "b"])
        with self.assertRaises(db.exceptions.ConditionalCheckFailedException):
            db.execute_statement(Statement="UPDATE posts SET n = 5 WHERE pk = 'w' AND sk = 404")
        # (Debian's botocore predates ReturnValuesOnConditionCheckFailure here: the differential
        # corpus sends it.)
        with self.assertRaises(db.exceptions.ConditionalCheckFailedException):
            db.execute_statement(Statement="UPDATE posts SET n = 5 WHERE pk = 'w' AND sk = 1 AND n = 9")
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            db.execute_statement(Statement="UPDATE posts SET n = 5 WHERE pk = 'w'")
        self.assertIn("mandatory equality on all key attributes", str(cm.exception))
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            db.execute_statement(Statement="SELECT * FROM posts WHERE pk = ?")
        self.assertIn("Number of parameters", str(cm.exception))
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            db.execute_statement(Statement="SELEKT * FROM posts")
        self.assertIn("Statement wasn't well formed, can't be processed: SELEKT * FROM posts",
                      str(cm.exception))
        r = db.execute_statement(Statement="DELETE FROM posts WHERE pk = 'w' AND sk = 1 RETURNING ALL OLD *")
        self.assertEqual(r["Items"][0]["n"], {"N": "2"})
        self.assertEqual(db.execute_statement(Statement="SELECT * FROM posts WHERE pk = 'w'")["Items"], [])

    def test_batch_answers_each_statement(self):
        db = self.db
        r = db.batch_execute_statement(Statements=[
            {"Statement": "SELECT title FROM posts WHERE pk = 'a' AND sk = 3"},
            {"Statement": "SELECT * FROM posts WHERE pk = 'a' AND sk = 999"},
            {"Statement": "SELECT * FROM posts WHERE pk = 'a'"},
            {"Statement": "SELECT * FROM nosuch WHERE pk = 'a' AND sk = 1"},
        ])["Responses"]
        self.assertEqual(r[0], {"TableName": "posts", "Item": {"title": {"S": "a-3"}}})
        self.assertEqual(r[1], {"TableName": "posts"})
        self.assertEqual(r[2]["Error"]["Code"], "ValidationError")
        self.assertEqual(r[3]["Error"]["Code"], "ResourceNotFound")
        r = db.batch_execute_statement(Statements=[
            {"Statement": "INSERT INTO posts VALUE {'pk': 'bw', 'sk': 1}"},
            {"Statement": "INSERT INTO posts VALUE {'pk': 'a', 'sk': 1}"},
            {"Statement": "UPDATE posts SET x = 1 WHERE pk = 'bw' AND sk = 2"},
        ])["Responses"]
        self.assertEqual(r[0], {"TableName": "posts"})
        self.assertEqual(r[1]["Error"]["Code"], "DuplicateItem")
        self.assertEqual(r[2]["Error"]["Code"], "ConditionalCheckFailed")
        self.assertEqual(len(db.execute_statement(Statement="SELECT * FROM posts WHERE pk = 'bw'")["Items"]), 1)
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            db.batch_execute_statement(Statements=[
                {"Statement": "SELECT * FROM posts WHERE pk = 'a' AND sk = 1"},
                {"Statement": "DELETE FROM posts WHERE pk = 'a' AND sk = 1"}])
        self.assertIn("Read and write requests together", str(cm.exception))

    def test_transaction_is_all_or_none(self):
        db = self.db
        db.execute_statement(Statement="INSERT INTO posts VALUE {'pk': 't', 'sk': 1, 'n': 1}")
        with self.assertRaises(db.exceptions.TransactionCanceledException) as cm:
            db.execute_transaction(TransactStatements=[
                {"Statement": "INSERT INTO posts VALUE {'pk': 't', 'sk': 2}"},
                {"Statement": "UPDATE posts SET n = 2 WHERE pk = 't' AND sk = 1"},
                {"Statement": "EXISTS(SELECT * FROM posts WHERE pk = 'a' AND sk = 1 AND title = 'nope')"}])
        codes = [x["Code"] for x in cm.exception.response["CancellationReasons"]]
        self.assertEqual(codes, ["None", "None", "ConditionalCheckFailed"])
        items = db.execute_statement(Statement="SELECT * FROM posts WHERE pk = 't'")["Items"]
        self.assertEqual(items, [{"pk": {"S": "t"}, "sk": {"N": "1"}, "n": {"N": "1"}}])
        with self.assertRaises(db.exceptions.TransactionCanceledException) as cm:
            db.execute_transaction(TransactStatements=[
                {"Statement": "INSERT INTO posts VALUE {'pk': 't', 'sk': 1}"},
                {"Statement": "INSERT INTO posts VALUE {'pk': 't', 'sk': 3}"}])
        self.assertEqual([x["Code"] for x in cm.exception.response["CancellationReasons"]],
                         ["DuplicateItem", "None"])
        db.execute_transaction(TransactStatements=[
            {"Statement": "INSERT INTO posts VALUE {'pk': 't', 'sk': 2}"},
            {"Statement": "UPDATE posts SET n = 2 WHERE pk = 't' AND sk = 1"},
            {"Statement": "EXISTS(SELECT * FROM posts WHERE pk = 'a' AND sk = 1 AND title = 'a-1')"}],
            ClientRequestToken="tx-1")
        r = db.execute_transaction(TransactStatements=[
            {"Statement": "SELECT n FROM posts WHERE pk = 't' AND sk = 1"},
            {"Statement": "SELECT * FROM posts WHERE pk = 't' AND sk = 2"},
            {"Statement": "SELECT * FROM posts WHERE pk = 't' AND sk = 9"}])
        self.assertEqual(r["Responses"], [{"Item": {"n": {"N": "2"}}},
                                          {"Item": {"pk": {"S": "t"}, "sk": {"N": "2"}}}, {}])
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            db.execute_transaction(TransactStatements=[
                {"Statement": "UPDATE posts SET n = 3 WHERE pk = 't' AND sk = 1 RETURNING ALL NEW *"}])
        self.assertIn("TransactStatements[0]: RETURNING clause is not supported", str(cm.exception))

    def test_bad_next_token(self):
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            self.db.execute_statement(Statement="SELECT * FROM posts WHERE pk = 'a'",
                                      NextToken=base64.b64encode(b"nonsense").decode())
        self.assertIn("Invalid NextToken", str(cm.exception))


if __name__ == "__main__":
    unittest.main(verbosity=2)
