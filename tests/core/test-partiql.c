/* test-partiql.c: parsing of PartiQL statements: the trees they produce (kinds, paths,
 * values exact, parameters in order) and DynamoDB's error for each kind of mistake. */
#include <string.h>

#include <glib.h>

#include "core/error.h"
#include "core/partiql.h"

#include "test-util.h"

/* A value written (with single quotes) as an AttributeValue. */
static DdbValue *
value_of (const char *json)
{
  g_autofree char *text = g_strdup_printf ("{'x': %s}", json);
  g_autoptr (DdbValue) item = tu_item (text);

  return ddb_value_copy (ddb_value_map_get (item, "x"));
}

static void
assert_value (const DdbValue *got, const char *json)
{
  g_autoptr (DdbValue) want = value_of (json);

  g_assert_true (ddb_value_equal (got, want));
}

static DdbPqlStatement *
parse_ok (const char *text, DdbValue **params, guint n)
{
  GError *error = NULL;
  DdbPqlStatement *s = ddb_pql_parse (text, -1, params, n, &error);

  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

static void
assert_fails (const char *text, DdbValue **params, guint n, const char *message)
{
  GError *error = NULL;
  DdbPqlStatement *s = ddb_pql_parse (text, -1, params, n, &error);

  g_assert_null (s);
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  g_error_free (error);
}

static void
test_select (void)
{
  g_autoptr (DdbPqlStatement) s
      = parse_ok ("select v.b[1], \"sk\" FROM \"tab\".\"ix\" where pk = 'a' AND sk BETWEEN 1 AND "
                  "-2.5e3 -- comment\n ORDER BY sk DESC;",
                  NULL, 0);
  g_autofree char *name = NULL;

  g_assert_cmpint (s->kind, ==, DDB_PQL_SELECT);
  g_assert_cmpstr (s->table, ==, "tab");
  g_assert_cmpstr (s->index, ==, "ix");
  g_assert_cmpuint (s->projection->n_paths, ==, 2);
  name = ddb_pql_result_name (&s->projection->paths[0]);
  g_assert_cmpstr (name, ==, "b[1]");
  g_assert_cmpint (s->where->kind, ==, DDB_NODE_AND);
  g_assert_cmpint (s->where->args[1]->kind, ==, DDB_NODE_BETWEEN);
  assert_value (s->where->args[1]->args[2]->value, "{'N': '-2500'}");
  g_assert_true (s->descending);
  g_assert_cmpstr (s->order_by->pdata[0], ==, "sk");
}

static void
test_literals_and_parameters (void)
{
  g_autoptr (DdbValue) p0 = value_of ("{'B': 'AP8='}");
  g_autoptr (DdbValue) p1 = tu_num ("7");
  DdbValue *params[] = { p0, p1 };
  g_autoptr (DdbPqlStatement) s = parse_ok (
      "INSERT INTO t VALUE {'pk': 'it''s', 'n': 12345678901234567890123456789012345678, "
      "'ss': <<'a', 'b'>>, 'ns': <<1, 2>>, 'b': ?, 'm': {'l': [?, TRUE, null]}}",
      params, 2);

  g_assert_cmpint (s->kind, ==, DDB_PQL_INSERT);
  tu_assert_item (
      s->item, "{'pk': {'S': 'it\\u0027s'}, 'n': {'N': '12345678901234567890123456789012345678'},"
               " 'ss': {'SS': ['a', 'b']}, 'ns': {'NS': ['1', '2']}, 'b': {'B': 'AP8='},"
               " 'm': {'M': {'l': {'L': [{'N': '7'}, {'BOOL': true}, {'NULL': true}]}}}}");
}

static void
test_update (void)
{
  g_autoptr (DdbPqlStatement) s
      = parse_ok ("UPDATE t SET a.b[2] = a.b[2] + 1, s = set_add(s, <<'x'>>) REMOVE old SET l = "
                  "list_append(l, [1]) WHERE pk = 'k' RETURNING MODIFIED OLD *",
                  NULL, 0);

  g_assert_cmpint (s->kind, ==, DDB_PQL_UPDATE);
  g_assert_cmpuint (s->update->n_actions, ==, 4);
  g_assert_cmpint (s->update->actions[0].kind, ==, DDB_UPDATE_SET);
  g_assert_cmpint (s->update->actions[0].operand->kind, ==, DDB_NODE_PLUS);
  g_assert_cmpint (s->update->actions[1].kind, ==, DDB_UPDATE_ADD);
  g_assert_cmpint (s->update->actions[2].kind, ==, DDB_UPDATE_REMOVE);
  g_assert_cmpint (s->update->actions[3].operand->kind, ==, DDB_NODE_LIST_APPEND);
  g_assert_cmpint (s->returning, ==, DDB_PQL_RETURN_MODIFIED_OLD);
}

static void
test_conditions (void)
{
  g_autoptr (DdbPqlStatement) s = parse_ok (
      "DELETE FROM t WHERE pk = 'k' AND (x IS MISSING OR NOT y IS NOT MISSING) AND z IN [1, 2] "
      "AND size(q) >= 2 AND begins_with(w, 'a') AND attribute_type(v, 'S') AND n <> 3 AND n != 4",
      NULL, 0);
  GPtrArray *seen = g_ptr_array_new ();
  DdbNode *n = s->where;

  while (n->kind == DDB_NODE_AND)
    {
      g_ptr_array_insert (seen, 0, n->args[1]);
      n = n->args[0];
    }
  g_ptr_array_insert (seen, 0, n);
  g_assert_cmpuint (seen->len, ==, 8);
  g_assert_cmpint (((DdbNode *) seen->pdata[1])->kind, ==, DDB_NODE_OR);
  g_assert_cmpint (((DdbNode *) seen->pdata[1])->args[0]->kind, ==, DDB_NODE_ATTRIBUTE_NOT_EXISTS);
  g_assert_cmpint (((DdbNode *) seen->pdata[2])->kind, ==, DDB_NODE_IN);
  g_assert_cmpint (((DdbNode *) seen->pdata[3])->args[0]->kind, ==, DDB_NODE_SIZE);
  g_assert_cmpint (((DdbNode *) seen->pdata[6])->kind, ==, DDB_NODE_NE);
  g_assert_cmpint (((DdbNode *) seen->pdata[7])->kind, ==, DDB_NODE_NE);
  g_ptr_array_unref (seen);
}

static void
test_errors (void)
{
  g_autoptr (DdbValue) p = tu_str ("a");
  DdbValue *params[] = { p };

  assert_fails ("SELEC * FROM t", NULL, 0,
                "Statement wasn't well formed, can't be processed: SELEC * FROM t");
  assert_fails ("SELECT * FROM t WHERE", NULL, 0,
                "Statement wasn't well formed, can't be processed: SELECT * FROM t WHERE");
  assert_fails (
      "SELECT * FROM t WHERE 'unterminated", NULL, 0,
      "Statement wasn't well formed, can't be processed: SELECT * FROM t WHERE 'unterminated");
  assert_fails ("SELECT * FROM t WHERE pk = ? AND sk = ?", params, 1,
                "Number of parameters in request and statement don't match.");
  assert_fails ("INSERT INTO t VALUE {'a': <<>>}", NULL, 0, "Empty bags are not supported");
  assert_fails (
      "INSERT INTO t VALUE {'a': <<1, 'x'>>}", NULL, 0,
      "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags");
  assert_fails ("INSERT INTO t VALUE {'a': <<1, 1.0>>}", NULL, 0,
                "Input collection contains duplicates");
  assert_fails ("INSERT INTO t VALUE {'a': 123456789012345678901234567890123456789}", NULL, 0,
                "DynamoDB only supports precision up to 38 digits");
  assert_fails ("INSERT INTO t VALUE ?", params, 1,
                "Unsupported format in item expression. Please use struct format {...} to "
                "express item values for insert statement.");
  assert_fails ("SELECT pk, pk FROM t", NULL, 0, "Duplicate identifiers in select clause: pk");
  assert_fails ("SELECT * FROM t WHERE exists(a)", NULL, 0, "Unrecognized function: exists");
  assert_fails ("SELECT * FROM t WHERE a = 1 AND TRUE", NULL, 0,
                "The arguments to AND/OR must be Expressions");
  /* More parameters than placeholders are ignored, as DynamoDB does. */
  g_autoptr (DdbPqlStatement) s = parse_ok ("SELECT * FROM t", params, 1);
  g_assert_true (ddb_pql_is_select ("  /* c */ select 1"));
  /* A string literal may hold U+0000; the statement is its bytes, not a C string. */
  {
    static const char text[] = "INSERT INTO t VALUE {'a': 'x\0y'}";
    g_autoptr (DdbPqlStatement) nul = ddb_pql_parse (text, sizeof text - 1, NULL, 0, NULL);

    g_assert_nonnull (nul);
    g_assert_cmpuint (ddb_value_map_get (nul->item, "a")->bytes.len, ==, 3);
  }
  g_assert_false (ddb_pql_is_select ("UPDATE t SET a = 1"));
}

/* A tuple naming a key twice is refused wherever it is (INSERT's item, a nested tuple, a list's
 * element, SET, WHERE), with DynamoDB's words: the key, where the tuple is inside its literal
 * ("root", "root.a", "root.0"), and line:column:length of the key (INSERT's item, or any key
 * in double quotes) or of the tuple's brace. */
static void
test_tuples (void)
{
  static const struct {
    const char *text, *message;
  } refused[] = {
    { "INSERT INTO t VALUE {'pk':'a','x':1,'x':2}",
      "Duplicate keys in tuple. Key: x under root at 1:37:3" },
    { "INSERT INTO t VALUE {'pk':'a','pk':'b'}",
      "Duplicate keys in tuple. Key: pk under root at 1:31:4" },
    { "INSERT INTO t VALUE {'pk':'a','x':{'y':1,'y':2}}",
      "Duplicate keys in tuple. Key: y under root at 1:35:1" },
    { "INSERT INTO t VALUE {'pk':'a','x':[{'y':1,'y':2}]}",
      "Duplicate keys in tuple. Key: y under root.0 at 1:36:1" },
    { "INSERT INTO t VALUE {'pk':'a','x':{'a':{'b':1,'b':1}}}",
      "Duplicate keys in tuple. Key: b under root.a at 1:40:1" },
    { "INSERT INTO t VALUE {'pk':'a','x':[1,[2,{'k':1,'k':2}]]}",
      "Duplicate keys in tuple. Key: k under root.1.1 at 1:41:1" },
    { "INSERT INTO t VALUE {'pk':'a',\n 'x':1,\n 'x':2}",
      "Duplicate keys in tuple. Key: x under root at 3:2:3" },
    { "INSERT INTO t VALUE {'pk':'a','\xc3\xa9':1,'\xc3\xa9':2}",
      "Duplicate keys in tuple. Key: \xc3\xa9 under root at 1:37:3" },
    { "INSERT INTO t VALUE {'pk':'a',\"x\":1}",
      "Tuple keys must be of type String. Actual type: VariableReference under root at 1:31:3" },
    { "INSERT INTO t VALUE {'pk':'a','x':{\"a\":1}}",
      "Tuple keys must be of type String. Actual type: VariableReference under root at 1:36:3" },
    { "UPDATE t SET x = {'a':1,'a':2} WHERE pk = 'a'",
      "Duplicate keys in tuple. Key: a under root at 1:18:1" },
    { "UPDATE t SET x = [{'a':1,'a':2}] WHERE pk = 'a'",
      "Duplicate keys in tuple. Key: a under root.0 at 1:19:1" },
    { "SELECT * FROM t WHERE a = {'q':1,'q':1}",
      "Duplicate keys in tuple. Key: q under root at 1:27:1" },
    { "SELECT * FROM t WHERE a IN [1, {'q':[{'r':1,'r':1}]}]",
      "Duplicate keys in tuple. Key: r under root.q.0 at 1:38:1" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    assert_fails (refused[i].text, NULL, 0, refused[i].message);
  /* Keys differing in case or blanks are other keys. */
  {
    g_autoptr (DdbPqlStatement) s
        = parse_ok ("INSERT INTO t VALUE {'pk':'a','x':1,'X':2,'x ':3}", NULL, 0);

    g_assert_cmpuint (ddb_value_map_size (s->item), ==, 4);
  }
  /* The syntax is checked first. */
  assert_fails ("INSERT INTO t VALUE {'x':1,'x':2} junk", NULL, 0,
                "Statement wasn't well formed, can't be processed: "
                "INSERT INTO t VALUE {'x':1,'x':2} junk");
}

/* Projected paths one inside the other overlap, a name and an index at one place conflict;
 * DynamoDB names the later path first. Paths apart are fine. */
static void
test_projection_paths (void)
{
  static const struct {
    const char *select, *message;
  } refused[] = {
    { "a.c, a", "overlap; path one: [a], path two: [a, c]" },
    { "a, a.c", "overlap; path one: [a, c], path two: [a]" },
    { "a.b[1], a.b", "overlap; path one: [a, b], path two: [a, b, [1]]" },
    { "l[0][1], l[0]", "overlap; path one: [l, [0]], path two: [l, [0], [1]]" },
    { "a.b[1], a.b.c", "conflict; path one: [a, b, c], path two: [a, b, [1]]" },
    { "x, a.b.c, a.b[1]", "conflict; path one: [a, b, [1]], path two: [a, b, c]" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autofree char *text = g_strdup_printf ("SELECT %s FROM t", refused[i].select);
      const char *kind = strchr (refused[i].message, ';');
      g_autofree char *message = g_strdup_printf (
          "Two document paths %.*s with each other; must remove or rewrite one of these paths%s",
          (int) (kind - refused[i].message), refused[i].message, kind);

      assert_fails (text, NULL, 0, message);
    }
  /* Duplicate names come first. */
  assert_fails ("SELECT a.b[1].c, a.b.c FROM t", NULL, 0,
                "Duplicate identifiers in select clause: c");
  {
    g_autoptr (DdbPqlStatement) s
        = parse_ok ("SELECT a.b[0], a.b[2].c, a.d, l[0][1], l[1] FROM t", NULL, 0);

    g_assert_cmpuint (s->projection->n_paths, ==, 5);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/partiql/select", test_select);
  g_test_add_func ("/partiql/literals-and-parameters", test_literals_and_parameters);
  g_test_add_func ("/partiql/update", test_update);
  g_test_add_func ("/partiql/conditions", test_conditions);
  g_test_add_func ("/partiql/errors", test_errors);
  g_test_add_func ("/partiql/tuples", test_tuples);
  g_test_add_func ("/partiql/projection-paths", test_projection_paths);
  return g_test_run ();
}
