#!/usr/bin/env python3
"""PartiQL through `dynoscope-cli serve`, class by class, as AWS's PartiQL (DynamoDB Local)
answers (tests/diff/test-partiql-diff.py compares a wider corpus with DynamoDB Local itself when
java is there; this test holds without it):
  - a key attribute compared with a value of another type is a ValidationException, for every
    key type, wrong type and form of comparison: the key condition's words where the statement
    is a GetItem or a one-partition Query, the condition's words elsewhere;
  - UPDATE and DELETE giving a key attribute two values are a ValidationException; the same
    value twice is one condition;
  - SELECT names a projected nested path's result as AWS's PartiQL does, and refuses paths that
    overlap or conflict;
  - BatchExecuteStatement and ExecuteTransaction return a SELECT's item in DynamoDB's shape (the
    paths nested as in the item), and a key of the wrong type in a transaction cancels it."""
import importlib.util
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import dynoscope_testlib as lib  # noqa: E402

lib.use_system_python_for_boto3()
if not lib.has_boto3():
    print("boto3 is missing", file=sys.stderr)
    sys.exit(77)
import boto3  # noqa: E402
import botocore.config  # noqa: E402
import botocore.exceptions  # noqa: E402

# test-serve.py's Server (it takes the CLI path from argv when loaded, as when run).
_spec = importlib.util.spec_from_file_location(
    "test_serve", os.path.join(os.path.dirname(os.path.abspath(__file__)), "test-serve.py"))
serve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve)

KEY_TYPE = "Key attribute's data type should match its data type in table's schema: Key {}"
CONDITION_TYPE = ("One or more parameter values were invalid: Condition parameter type does not "
                  "match schema type")
MULTIPLE = ("Multiple conditions on same key {}. Only single item Update/Insert/Delete are "
            "supported")

VALUES = {"S": {"S": "a"}, "N": {"N": "1"}, "B": {"B": b"a"}, "BOOL": {"BOOL": True},
          "NULL": {"NULL": True}, "L": {"L": [{"S": "a"}]}, "M": {"M": {"a": {"S": "a"}}},
          "SS": {"SS": ["a"]}}
# Tables: name -> (partition key type, sort key type or None, the key of an item)
TABLES = {"pqs": ("S", None, {"pk": {"S": "a"}}),
          "pqsn": ("S", "N", {"pk": {"S": "a"}, "sk": {"N": "1"}}),
          "pqns": ("N", "S", {"pk": {"N": "1"}, "sk": {"S": "x"}}),
          "pqbb": ("B", "B", {"pk": {"B": b"a"}, "sk": {"B": b"x"}})}

S = lambda s: {"S": s}  # noqa: E731


def M(**kw):
    return {"M": kw}


def L(*xs):
    return {"L": list(xs)}


DOC = {"pk": S("r"),
       "a": M(b=L(S("b0"), S("b1"), M(c=S("b2c"), e=M(f=S("b2f"), g=S("b2g")),
                                        k=L(S("k0"), M(z=S("z"), w=S("w")))),
                  M(d=S("b3d"), h=S("b3h"))),
              m=M(n=M(o=S("o"), q=S("q")), s=S("s"))),
       "l": L(L(S("l00"), M(u=S("u"), v=S("v"))), M(lc=S("lc"))),
       "x y": M(**{"p q": S("pq")})}

# SELECT's result for each projection of DOC, as DynamoDB Local (AWS's PartiQL) returns it.
PROJECTIONS = [
    ("a.m.n.o", {"o": S("o")}),
    ("a.m.n", {"n": M(o=S("o"), q=S("q"))}),
    ("a.b[1]", {"b[1]": S("b1")}),
    ("l[0][0]", {"l[0][0]": S("l00")}),
    ("l[0]", {"l[0]": L(S("l00"), M(u=S("u"), v=S("v")))}),
    ("l[1].lc", {"l[1]": M(lc=S("lc"))}),
    ("l[0][1].u, l[1].lc", {"l[0][1]": M(u=S("u")), "lc": S("lc")}),
    ("l[0][1].u", {"l[0][1]": M(u=S("u"))}),
    ("a.b[2].c", {"b[2]": M(c=S("b2c"))}),
    ("a.b[2].e.f", {"b[2]": M(e=M(f=S("b2f")))}),
    ("a.b[2].k[1].z", {"b[2]": M(k=L(M(z=S("z"))))}),
    ("a.b[2].k[0]", {"b[2]": M(k=L(S("k0")))}),
    ("a.b[2].c, a.b[2].e.f", {"b[2]": M(c=S("b2c"), e=M(f=S("b2f")))}),
    ("a.b[2].e.f, a.b[2].e.g", {"b[2]": M(e=M(f=S("b2f"), g=S("b2g")))}),
    ("a.b[2].c, a.b[1]", {"b[1]": S("b1"), "b[2]": M(c=S("b2c"))}),
    ("a.b[0], a.b[1], a.b[2].c", {"b[0]": S("b0"), "b[1]": S("b1"), "c": S("b2c")}),
    ("a.b[3].d, a.b[2].c", {"b[3]": M(d=S("b3d")), "b[2]": M(c=S("b2c"))}),
    ("a.m.n.o, a.m.s", {"o": S("o"), "s": S("s")}),
    ('"x y"."p q"', {"p q": S("pq")}),
    ('"a"."b"[1]', {"b[1]": S("b1")}),
    ("a.b[9]", {}),
    ("a.zz", {}),
]
OVERLAPS = [
    ("a.m, a", "overlap", "[a]", "[a, m]"),
    ("a.b[1], a.b", "overlap", "[a, b]", "[a, b, [1]]"),
    ("a.b[2], a.b[2].c", "overlap", "[a, b, [2], c]", "[a, b, [2]]"),
    ("a.b[1], a.b.c", "conflict", "[a, b, c]", "[a, b, [1]]"),
]


class PartiQLClassesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="dynoscope-partiql-classes-")
        try:
            cls.server = serve.Server(os.path.join(cls.dir, "t.db"))
            cls.start()
        except BaseException:
            if getattr(cls, "server", None) is not None:
                cls.server.stop()
            shutil.rmtree(cls.dir)
            raise

    @classmethod
    def start(cls):
        cls.db = boto3.client("dynamodb", endpoint_url=cls.server.url,
                              region_name="us-east-1", aws_access_key_id="x",
                              aws_secret_access_key="y",
                              config=botocore.config.Config(retries={"max_attempts": 1}))
        for name, (ht, rt, key) in TABLES.items():
            attrs = [{"AttributeName": "pk", "AttributeType": ht}]
            schema = [{"AttributeName": "pk", "KeyType": "HASH"}]
            if rt:
                attrs.append({"AttributeName": "sk", "AttributeType": rt})
                schema.append({"AttributeName": "sk", "KeyType": "RANGE"})
            cls.db.create_table(TableName=name, AttributeDefinitions=attrs, KeySchema=schema,
                                BillingMode="PAY_PER_REQUEST")
            cls.db.put_item(TableName=name, Item=dict(key, x={"N": "1"}))
        cls.db.create_table(TableName="pqdoc", BillingMode="PAY_PER_REQUEST",
                            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        cls.db.put_item(TableName="pqdoc", Item=DOC)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.dir)

    def refused(self, statement, params, message, code="ValidationException"):
        with self.assertRaises(botocore.exceptions.ClientError, msg=statement) as cm:
            args = {"Statement": statement}
            if params:
                args["Parameters"] = params
            self.db.execute_statement(**args)
        err = cm.exception.response["Error"]
        self.assertEqual((err["Code"], err["Message"]), (code, message),
                         f"{statement} {params}")

    def test_key_compared_with_other_types(self):
        n = 0
        for name, (ht, rt, key) in TABLES.items():
            for w, wv in VALUES.items():
                if w == ht:
                    continue
                ordered = w in ("S", "N", "B")  # `<` and BETWEEN take no other operand
                # The key of a GetItem or of a one-partition Query.
                forms = [("pk = ?", [wv], KEY_TYPE.format("pk")),
                         ("? = pk", [wv], KEY_TYPE.format("pk")),
                         # Several partitions, or a filter.
                         (f"pk IN [?]", [wv], CONDITION_TYPE),
                         (f"pk IN [?, ?]", [key["pk"], wv], CONDITION_TYPE),
                         (f"pk = ? OR pk = ?", [key["pk"], wv], CONDITION_TYPE),
                         (f"pk <> ?", [wv], CONDITION_TYPE),
                         (f"NOT pk = ?", [wv], CONDITION_TYPE),
                         (f"x = 1 OR pk = ?", [wv], CONDITION_TYPE),
                         (f"contains(pk, ?)", [wv], CONDITION_TYPE),
                         (f"pk = ? AND pk = ?", [key["pk"], wv], CONDITION_TYPE),
                         (f"pk = ? AND (x = 1 OR NOT pk IN [?])", [key["pk"], wv],
                          CONDITION_TYPE)]
                if ordered:
                    forms += [(f"pk > ?", [wv], CONDITION_TYPE),
                              (f"? <= pk", [wv], CONDITION_TYPE),
                              (f"pk BETWEEN ? AND ?", [wv, wv], CONDITION_TYPE)]
                if w in ("S", "B"):
                    forms.append((f"begins_with(pk, ?)", [wv], CONDITION_TYPE))
                for form, params, message in forms:
                    self.refused(f"SELECT * FROM {name} WHERE {form}", params, message)
                    n += 1
            if rt is None:
                continue
            for w, wv in VALUES.items():
                if w == rt:
                    continue
                ordered = w in ("S", "N", "B")
                pk = [key["pk"]]
                forms = [("sk = ?", [wv])]
                if ordered:
                    forms += [("sk < ?", [wv]), ("sk >= ?", [wv]), ("? > sk", [wv]),
                              ("sk BETWEEN ? AND ?", [wv, wv])]
                if w in ("S", "B"):
                    forms.append(("begins_with(sk, ?)", [wv]))
                for form, params in forms:
                    # One partition: the key condition; several: a condition; no partition:
                    # a scan's filter.
                    self.refused(f"SELECT * FROM {name} WHERE pk = ? AND {form}", pk + params,
                                 KEY_TYPE.format("sk"))
                    self.refused(f"SELECT * FROM {name} WHERE pk IN [?, ?] AND {form}",
                                 pk + pk + params, CONDITION_TYPE)
                    self.refused(f"SELECT * FROM {name} WHERE {form}", params, CONDITION_TYPE)
                    n += 3
                self.refused(f"SELECT * FROM {name} WHERE pk = ? AND sk = ? AND sk <> ?",
                             pk + [key["sk"], wv], CONDITION_TYPE)
        self.assertGreater(n, 300)
        # The right types are not refused, and find the items.
        for name, (ht, rt, key) in TABLES.items():
            where = " AND ".join(f"{k} = ?" for k in key)
            items = self.db.execute_statement(Statement=f"SELECT * FROM {name} WHERE {where}",
                                              Parameters=list(key.values()))["Items"]
            self.assertEqual(len(items), 1)

    def test_operand_errors_come_first(self):
        # `<` of a list is wrong whatever the attribute: that error, in PartiQL's words.
        self.refused("SELECT * FROM pqsn WHERE pk = 'a' AND sk < ?", [VALUES["L"]],
                     "Incorrect operand type for operator or function; operator or function: <, "
                     "operand type: L")
        self.refused("SELECT * FROM pqsn WHERE sk BETWEEN 1 AND 'b'", None,
                     "The BETWEEN operator requires same data type for lower and upper bounds; "
                     "lower bound operand: AttributeValue: {N:1}, upper bound operand: "
                     "AttributeValue: {S:b}")
        self.refused("UPDATE pqs SET y = 1 WHERE pk = 'a' AND begins_with(pk, 5)", None,
                     "Incorrect operand type for operator or function; operator or function: "
                     "begins_with, operand type: N")

    def test_writes_with_a_key_given_twice(self):
        for name, (ht, rt, key) in TABLES.items():
            sk = " AND sk = ?" if rt else ""
            skp = [key["sk"]] if rt else []
            for w, wv in VALUES.items():
                if w == ht:
                    continue
                for statement, params in [
                        (f"UPDATE {name} SET y = 1 WHERE pk = ? AND pk = ?{sk}",
                         [key["pk"], wv] + skp),
                        (f"DELETE FROM {name} WHERE pk = ?{sk} AND pk = ?", [wv] + skp + [key["pk"]]),
                ]:
                    self.refused(statement, params, MULTIPLE.format("pk"))
            other = {"S": {"S": "zz"}, "N": {"N": "99"}, "B": {"B": b"zz"}}[ht]
            self.refused(f"DELETE FROM {name} WHERE pk = ?{sk} AND ? = pk",
                         [key["pk"]] + skp + [other], MULTIPLE.format("pk"))
            if rt:
                sother = {"S": {"S": "zz"}, "N": {"N": "99"}, "B": {"B": b"zz"}}[rt]
                self.refused(f"UPDATE {name} SET y = 1 WHERE pk = ? AND sk = ? AND sk = ?",
                             [key["pk"], key["sk"], sother], MULTIPLE.format("sk"))
            # Non-key values are no key at all.
            self.refused(f"UPDATE {name} SET y = 1 WHERE pk = ?{sk}", [VALUES["BOOL"]] + skp,
                         "Key value must be of type S, N, or B. Key name: pk, Key type: BOOL")
        # The same value twice is one condition: the write happens, or finds nothing to do.
        self.db.execute_statement(Statement="UPDATE pqs SET y = 7 WHERE pk = 'a' AND pk = 'a'")
        item = self.db.execute_statement(Statement="SELECT y FROM pqs WHERE pk = 'a'")["Items"]
        self.assertEqual(item, [{"y": {"N": "7"}}])
        self.db.execute_statement(Statement="DELETE FROM pqs WHERE pk = 'gone' AND pk = 'gone'")
        # Another condition on the key is a condition: it fails.
        self.refused("UPDATE pqs SET y = 8 WHERE pk = 'a' AND pk > 'b'", None,
                     "The conditional request failed", "ConditionalCheckFailedException")

    def test_projection_names(self):
        for cols, want in PROJECTIONS:
            for where in (" WHERE pk = 'r'", ""):
                items = self.db.execute_statement(
                    Statement=f"SELECT {cols} FROM pqdoc{where}")["Items"]
                self.assertEqual(items, [want], f"SELECT {cols}{where}")
        for cols, kind, one, two in OVERLAPS:
            self.refused(f"SELECT {cols} FROM pqdoc WHERE pk = 'r'", None,
                         f"Two document paths {kind} with each other; must remove or rewrite one "
                         f"of these paths; path one: {one}, path two: {two}")
        self.refused("SELECT a.b[2].c, x.c FROM pqdoc", None,
                     "Duplicate identifiers in select clause: c")

    def test_batch_and_transaction_items_in_dynamodb_shape(self):
        cols = "a.b[1], a.b[2].e.f, l[0][0]"
        want = {"a": M(b=L(S("b1"), M(e=M(f=S("b2f"))))), "l": L(L(S("l00")))}
        r = self.db.execute_transaction(TransactStatements=[
            {"Statement": f"SELECT {cols} FROM pqdoc WHERE pk = 'r'"},
            {"Statement": "SELECT * FROM pqdoc WHERE pk = 'nope'"},
            {"Statement": "SELECT x FROM pqs WHERE pk = 'a'"}])
        self.assertEqual(r["Responses"], [{"Item": want}, {}, {"Item": {"x": {"N": "1"}}}])
        r = self.db.batch_execute_statement(Statements=[
            {"Statement": f"SELECT {cols} FROM pqdoc WHERE pk = 'r'"},
            {"Statement": "SELECT * FROM pqs WHERE pk = 5"}])
        self.assertEqual(r["Responses"][0]["Item"], want)
        self.assertEqual(r["Responses"][1]["Error"]["Message"], KEY_TYPE.format("pk"))

    def test_transaction_with_a_key_of_the_wrong_type_is_cancelled(self):
        for statements in (
                ["SELECT * FROM pqs WHERE pk = 'a'", "SELECT * FROM pqsn WHERE pk = 'a' AND sk = 'x'"],
                ["UPDATE pqs SET t = 1 WHERE pk = 'a'", "DELETE FROM pqns WHERE pk = 'x' AND sk = 'x'"]):
            with self.assertRaises(self.db.exceptions.TransactionCanceledException) as cm:
                self.db.execute_transaction(
                    TransactStatements=[{"Statement": s} for s in statements])
            reasons = cm.exception.response["CancellationReasons"]
            self.assertEqual(reasons[0], {"Code": "None"})
            self.assertEqual(reasons[1]["Code"], "ValidationError")
            self.assertTrue(reasons[1]["Message"].startswith("Key attribute's data type"))
        item = self.db.execute_statement(Statement="SELECT * FROM pqs WHERE pk = 'a'")["Items"][0]
        self.assertNotIn("t", item)
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            self.db.execute_transaction(TransactStatements=[
                {"Statement": "UPDATE pqs SET t = 1 WHERE pk = 'a' AND pk = 'b'"}])
        self.assertEqual(cm.exception.response["Error"]["Message"],
                         "Validation failed in TransactStatements[0]: " + MULTIPLE.format("pk"))

    def test_tuples_naming_a_key_twice(self):
        for statement, where in [
                ("INSERT INTO pqs VALUE {'pk':'t1','x':1,'x':2}", "Key: x under root at 1:40:3"),
                ("INSERT INTO pqs VALUE {'pk':'t2','y':[{'z':1,'z':2}]}", "Key: z under root.0 at 1:39:1"),
                ("UPDATE pqs SET y = {'a':{'b':1,'b':2}} WHERE pk = 'a'", "Key: b under root.a at 1:25:1")]:
            self.refused(statement, None, "Duplicate keys in tuple. " + where)
        self.assertEqual(self.db.execute_statement(
            Statement="SELECT * FROM pqs WHERE pk IN ['t1', 't2']")["Items"], [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
