/* test-expr-update.c: UpdateExpression application (SET, REMOVE, ADD, DELETE) through the
 * parser: pre-update operand values, exact arithmetic, list positions, set algebra, DynamoDB's
 * error messages, and an item left untouched by a failed update. */
#include "core/ddbjson.h"
#include "core/error.h"
#include "core/expr.h"

#include "test-util.h"

#define MSG_NO_ATTRIBUTE \
  "The provided expression refers to an attribute that does not exist in the item"
#define MSG_BAD_TYPE "An operand in the update expression has an incorrect data type"
#define MSG_BAD_PATH "The document path provided in the update expression is invalid for update"
#define MSG_OVERFLOW \
  "Number overflow. Attempting to store a number with magnitude larger than supported range"

/* Applies `expr` to the item; returns the item afterwards and sets `error` on failure. */
static DdbValue *
run (const char *item_json, const char *expr, const char *values_json, const char *names_json,
     GError **error)
{
  TuPlaceholders ph;
  DdbValue *item = tu_item (item_json);
  g_autoptr (DdbUpdate) u = NULL;

  tu_placeholders_init (&ph, values_json, names_json);
  u = tu_update_parse (expr, ph.ctx);
  if (ddb_update_apply (u, item, error))
    g_assert_no_error (*error);
  else
    g_assert_nonnull (*error);
  tu_placeholders_clear (&ph);
  return item;
}

static void
expect_full (const char *item_json, const char *expr, const char *values_json,
             const char *names_json, const char *expected_json)
{
  GError *error = NULL;
  g_autoptr (DdbValue) item = run (item_json, expr, values_json, names_json, &error);

  if (error != NULL)
    g_error ("%s failed: %s", expr, error->message);
  tu_assert_item (item, expected_json);
}

static void
expect (const char *item_json, const char *expr, const char *values_json, const char *expected_json)
{
  expect_full (item_json, expr, values_json, NULL, expected_json);
}

/* The update fails with DynamoDB's `message` and the item is exactly as before, attribute
 * order included. */
static void
expect_error (const char *item_json, const char *expr, const char *values_json, const char *message)
{
  GError *error = NULL;
  g_autoptr (DdbValue) before = tu_item (item_json);
  g_autoptr (DdbValue) item = run (item_json, expr, values_json, NULL, &error);
  g_autofree char *a = ddb_json_format_item (before);
  g_autofree char *b = ddb_json_format_item (item);

  if (error == NULL)
    g_error ("%s on %s succeeded: %s", expr, item_json, b);
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  g_assert_cmpstr (a, ==, b);
  g_clear_error (&error);
}

static char *
number_text (const DdbValue *item, const char *name)
{
  DdbValue *v = ddb_value_map_get (item, name);

  g_assert_nonnull (v);
  g_assert_cmpint (v->type, ==, DDB_TYPE_N);
  return ddb_number_to_string (&v->number);
}

/* ---- SET -------------------------------------------------------------------------------- */

static void
test_set_basic (void)
{
  expect ("{}", "SET a = :v", "{':v': {'N': '4'}}", "{'a': {'N': '4'}}");
  expect ("{'p': {'S': 'k'}, 'a': {'S': 'hi'}}", "SET b = :v", "{':v': {'S': 'hello'}}",
          "{'p': {'S': 'k'}, 'a': {'S': 'hi'}, 'b': {'S': 'hello'}}");
  expect ("{'a': {'S': 'hi'}}", "SET a = :v, b = :v", "{':v': {'L': []}}",
          "{'a': {'L': []}, 'b': {'L': []}}");
  expect ("{'a': {'S': 'hi'}}", "set a = :v", "{':v': {'M': {}}}", "{'a': {'M': {}}}");
  expect_full ("{}", "SET #n = :v", "{':v': {'N': '1'}}", "{'#n': 'a.b'}", "{'a.b': {'N': '1'}}");
}

static void
test_set_reads_item_before_update (void)
{
  /* b gets the old a, not the new one. */
  expect ("{'a': {'N': '1'}}", "SET a = :x, b = a", "{':x': {'N': '2'}}",
          "{'a': {'N': '2'}, 'b': {'N': '1'}}");
  /* Which makes a swap possible. */
  expect ("{'a': {'S': 'A'}, 'b': {'S': 'B'}}", "SET a = b, b = a", NULL,
          "{'a': {'S': 'B'}, 'b': {'S': 'A'}}");
  expect ("{'a': {'S': 'hello'}}", "REMOVE a SET b = a", NULL, "{'b': {'S': 'hello'}}");
  expect ("{'a': {'N': '5'}}", "SET a = a + :one, b = a + :one", "{':one': {'N': '1'}}",
          "{'a': {'N': '6'}, 'b': {'N': '6'}}");
  /* An attribute set earlier in the same expression does not exist yet for a later operand. */
  expect_error ("{'p': {'S': 'k'}}", "SET x = :v, y = x", "{':v': {'N': '4'}}", MSG_NO_ATTRIBUTE);
}

static void
test_set_copy_path (void)
{
  expect ("{'a': {'M': {'b': {'N': '3'}, 'c': {'M': {'x': {'N': '7'}}}}}}", "SET z = a.c.x", NULL,
          "{'a': {'M': {'b': {'N': '3'}, 'c': {'M': {'x': {'N': '7'}}}}}, 'z': {'N': '7'}}");
  expect ("{'a': {'S': 'hello'}}", "SET a = a", NULL, "{'a': {'S': 'hello'}}");
  expect_error ("{'a': {'S': 'hello'}}", "SET c = z", NULL, MSG_NO_ATTRIBUTE);
  expect_error ("{}", "SET c = z", NULL, MSG_NO_ATTRIBUTE);
  expect_error ("{'a': {'S': 'hello'}}", "SET c = a.b", NULL, MSG_NO_ATTRIBUTE);
}

static void
test_set_arithmetic (void)
{
  GError *error = NULL;
  g_autoptr (DdbValue) item = NULL;
  g_autofree char *text = NULL;

  expect ("{'a': {'N': '2'}}", "SET a = a + :v", "{':v': {'N': '3'}}", "{'a': {'N': '5'}}");
  expect ("{'a': {'N': '2'}}", "SET a = :v - a", "{':v': {'N': '7'}}", "{'a': {'N': '5'}}");
  expect ("{'a': {'N': '2'}}", "SET b = a - :v", "{':v': {'N': '7'}}",
          "{'a': {'N': '2'}, 'b': {'N': '-5'}}");
  expect ("{}", "SET b = :x + :y", "{':x': {'N': '4'}, ':y': {'N': '3'}}", "{'b': {'N': '7'}}");

  /* Exact decimal arithmetic: no binary floating point anywhere. */
  item = run ("{'a': {'N': '0.1'}}", "SET a = a + :v", "{':v': {'N': '0.2'}}", NULL, &error);
  g_assert_no_error (error);
  text = number_text (item, "a");
  g_assert_cmpstr (text, ==, "0.3");
  g_clear_pointer (&item, ddb_value_free);
  g_clear_pointer (&text, g_free);

  item = run ("{'a': {'N': '12345678901234567890123456789012345678'}}", "SET a = a + :v",
              "{':v': {'N': '1'}}", NULL, &error);
  g_assert_no_error (error);
  text = number_text (item, "a");
  g_assert_cmpstr (text, ==, "12345678901234567890123456789012345679");
  g_clear_pointer (&item, ddb_value_free);
  g_clear_pointer (&text, g_free);

  item = run ("{'a': {'N': '99999999999999999999999999999999999999'}}", "SET a = a + :v",
              "{':v': {'N': '1'}}", NULL, &error);
  g_assert_no_error (error);
  text = number_text (item, "a");
  g_assert_cmpstr (text, ==, "100000000000000000000000000000000000000");
  g_clear_pointer (&item, ddb_value_free);
  g_clear_pointer (&text, g_free);

  item = run ("{'a': {'N': '-0.00000000000000000000000000000000000001'}}", "SET a = a - :v",
              "{':v': {'N': '-0.00000000000000000000000000000000000001'}}", NULL, &error);
  g_assert_no_error (error);
  text = number_text (item, "a");
  g_assert_cmpstr (text, ==, "0");

  /* A sum needing 39 significant digits is refused, not rounded. */
  expect_error ("{'a': {'N': '1E+50'}}", "SET a = a + :v", "{':v': {'N': '1'}}", MSG_OVERFLOW);
}

static void
test_set_arithmetic_errors (void)
{
  /* The classic counter mistake: `a + :x` on a missing a fails, and nothing is written, not
   * even the other actions. */
  expect_error ("{'p': {'S': 'k'}}", "SET b = :x, a = a + :x", "{':x': {'N': '1'}}",
                MSG_NO_ATTRIBUTE);
  expect_error ("{}", "SET a = a + :x", "{':x': {'N': '1'}}", MSG_NO_ATTRIBUTE);
  expect_error ("{'a': {'S': '1'}}", "SET a = a + :x", "{':x': {'N': '1'}}", MSG_BAD_TYPE);
  expect_error ("{'a': {'NS': ['1']}}", "SET b = :x - a", "{':x': {'N': '1'}}", MSG_BAD_TYPE);
  expect_error ("{'a': {'N': '1'}, 'b': {'L': []}}", "SET c = a + b", NULL, MSG_BAD_TYPE);
}

static void
test_set_if_not_exists (void)
{
  expect ("{}", "SET a = if_not_exists(a, :v)", "{':v': {'N': '2'}}", "{'a': {'N': '2'}}");
  expect ("{'a': {'N': '2'}}", "SET a = if_not_exists(a, :v)", "{':v': {'N': '3'}}",
          "{'a': {'N': '2'}}");
  /* It checks one path and yields that path's value if present. */
  expect ("{'a': {'N': '2'}}", "SET b = if_not_exists(a, :v)", "{':v': {'N': '6'}}",
          "{'a': {'N': '2'}, 'b': {'N': '2'}}");
  expect ("{'a': {'N': '2'}}", "SET b = if_not_exists(c, :v)", "{':v': {'N': '4'}}",
          "{'a': {'N': '2'}, 'b': {'N': '4'}}");
  /* The counter idiom works on a missing and on a present attribute. */
  expect ("{}", "SET n = if_not_exists(n, :zero) + :one",
          "{':zero': {'N': '0'}, ':one': {'N': '1'}}", "{'n': {'N': '1'}}");
  expect ("{'n': {'N': '41'}}", "SET n = if_not_exists(n, :zero) + :one",
          "{':zero': {'N': '0'}, ':one': {'N': '1'}}", "{'n': {'N': '42'}}");
  /* The fallback may be a path, which must then exist. */
  expect ("{'d': {'S': 'dflt'}}", "SET b = if_not_exists(c, d)", NULL,
          "{'d': {'S': 'dflt'}, 'b': {'S': 'dflt'}}");
  expect_error ("{}", "SET b = if_not_exists(c, d)", NULL, MSG_NO_ATTRIBUTE);
}

static void
test_set_list_append (void)
{
  const char *item = "{'l': {'L': [{'S': 'hi'}, {'N': '2'}]}}";

  expect (item, "SET l = list_append(l, :v)", "{':v': {'L': [{'N': '4'}, {'S': 'hello'}]}}",
          "{'l': {'L': [{'S': 'hi'}, {'N': '2'}, {'N': '4'}, {'S': 'hello'}]}}");
  expect (item, "SET l = list_append(:v, l)", "{':v': {'L': [{'S': 'dog'}]}}",
          "{'l': {'L': [{'S': 'dog'}, {'S': 'hi'}, {'N': '2'}]}}");
  expect (item, "SET c = list_append(l, l)", NULL,
          "{'l': {'L': [{'S': 'hi'}, {'N': '2'}]},"
          " 'c': {'L': [{'S': 'hi'}, {'N': '2'}, {'S': 'hi'}, {'N': '2'}]}}");
  expect ("{}", "SET a = list_append(:x, :y)", "{':x': {'L': []}, ':y': {'L': [{'N': '1'}]}}",
          "{'a': {'L': [{'N': '1'}]}}");
  expect ("{}", "SET l = list_append(if_not_exists(l, :empty), :v)",
          "{':empty': {'L': []}, ':v': {'L': [{'N': '1'}]}}", "{'l': {'L': [{'N': '1'}]}}");
  /* Both operands must be lists that exist. */
  expect_error (item, "SET a = list_append(b, :v)", "{':v': {'L': []}}", MSG_NO_ATTRIBUTE);
  expect_error (item, "SET a = list_append(:v, b)", "{':v': {'L': []}}", MSG_NO_ATTRIBUTE);
  expect_error ("{'b': {'S': 'x'}}", "SET a = list_append(b, :v)", "{':v': {'L': []}}",
                MSG_BAD_TYPE);
  expect_error ("{'b': {'SS': ['x']}}", "SET a = list_append(:v, b)", "{':v': {'L': []}}",
                MSG_BAD_TYPE);
  expect_error ("{'b': {'M': {}}}", "SET a = list_append(:v, b)", "{':v': {'L': []}}",
                MSG_BAD_TYPE);
}

static void
test_set_nested_map (void)
{
  expect ("{'a': {'M': {'b': {'N': '3'}, 'c': {'N': '4'}}}, 'd': {'N': '5'}}", "SET a.c = :v",
          "{':v': {'N': '7'}}",
          "{'a': {'M': {'b': {'N': '3'}, 'c': {'N': '7'}}}, 'd': {'N': '5'}}");
  expect ("{'a': {'M': {'b': {'M': {}}}}}", "SET a.b.c = :v", "{':v': {'S': 'x'}}",
          "{'a': {'M': {'b': {'M': {'c': {'S': 'x'}}}}}}");
  /* Replacing a nested document by another type is fine. */
  expect ("{'a': {'M': {'c': {'M': {'one': {'N': '1'}}}}}}", "SET a.c = :v", "{':v': {'N': '7'}}",
          "{'a': {'M': {'c': {'N': '7'}}}}");
  expect ("{'a': {'M': {'c': {'L': [{'S': 'hi'}, {'M': {'x': {'M': {'y': {'L': [{'N': '3'},"
          " {'N': '5'}]}}}}}]}}}}",
          "SET a.c[1].x.y[1] = :v, a.z = a.c[1].x.y[0]", "{':v': {'N': '9'}}",
          "{'a': {'M': {'c': {'L': [{'S': 'hi'}, {'M': {'x': {'M': {'y': {'L': [{'N': '3'},"
          " {'N': '9'}]}}}}}]}, 'z': {'N': '3'}}}}");
  /* The parent must exist and be a map. */
  expect_error ("{'a': {'M': {}}}", "SET a.b.c = :v", "{':v': {'N': '1'}}", MSG_BAD_PATH);
  expect_error ("{'a': {'S': 'hello'}}", "SET a.c = :v", "{':v': {'N': '1'}}", MSG_BAD_PATH);
  expect_error ("{'b': {'L': [{'S': 'hi'}]}}", "SET b.c = :v", "{':v': {'N': '1'}}", MSG_BAD_PATH);
  expect_error ("{'p': {'S': 'k'}}", "SET c.c = :v", "{':v': {'N': '1'}}", MSG_BAD_PATH);
  expect_error ("{}", "SET c.c = :v", "{':v': {'N': '1'}}", MSG_BAD_PATH);
}

static void
test_set_list_index (void)
{
  const char *abc = "{'a': {'L': [{'S': 'one'}, {'S': 'two'}, {'S': 'three'}]}}";

  expect (abc, "SET a[1] = :v", "{':v': {'S': 'hello'}}",
          "{'a': {'L': [{'S': 'one'}, {'S': 'hello'}, {'S': 'three'}]}}");
  /* Past the end appends, several in the order of their indices. */
  expect (abc, "SET a[7] = :v", "{':v': {'S': 'hello'}}",
          "{'a': {'L': [{'S': 'one'}, {'S': 'two'}, {'S': 'three'}, {'S': 'hello'}]}}");
  expect (abc, "SET a[84] = :a1, a[37] = :a2, a[17] = :a3, a[50] = :a4, a[0] = :a5",
          "{':a1': {'S': 'a1'}, ':a2': {'S': 'a2'}, ':a3': {'S': 'a3'}, ':a4': {'S': 'a4'},"
          " ':a5': {'S': 'a5'}}",
          "{'a': {'L': [{'S': 'a5'}, {'S': 'two'}, {'S': 'three'}, {'S': 'a3'}, {'S': 'a2'},"
          " {'S': 'a4'}, {'S': 'a1'}]}}");
  expect ("{'e': {'L': []}}", "SET e[3] = :v", "{':v': {'N': '1'}}", "{'e': {'L': [{'N': '1'}]}}");
  /* An index needs a list. */
  expect_error ("{'a': {'S': 'hello'}}", "SET a[0] = :v", "{':v': {'N': '7'}}", MSG_BAD_PATH);
  expect_error ("{'a': {'M': {}}}", "SET a[0] = :v", "{':v': {'N': '7'}}", MSG_BAD_PATH);
  expect_error ("{'a': {'S': 'hello'}}", "SET b[0] = :v", "{':v': {'N': '7'}}", MSG_BAD_PATH);
  expect_error ("{}", "SET b[0] = :v", "{':v': {'N': '7'}}", MSG_BAD_PATH);
}

/* A value whose scalar sits `levels` maps deep: {"x": {"x": ... 1}}. */
static DdbValue *
deep_map (guint levels)
{
  DdbNumber one;
  DdbValue *v;

  ddb_number_set_int (&one, 1);
  v = ddb_value_new_n (&one);
  for (guint i = 0; i < levels; i++)
    {
      DdbValue *m = ddb_value_new_m ();
      ddb_value_map_set (m, "x", v);
      v = m;
    }
  return v;
}

/* Applies `expr` with ":deep" set to deep_map(levels); TRUE on success. */
static gboolean
set_deep (DdbValue *item, const char *expr, guint levels, GError **error)
{
  g_autoptr (DdbValue) deep = deep_map (levels);
  g_autoptr (GHashTable) values = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (DdbExprContext) ctx = NULL;
  g_autoptr (DdbUpdate) u = NULL;
  GError *parse_error = NULL;

  g_hash_table_insert (values, (gpointer) ":deep", deep);
  ctx = ddb_expr_context_new (NULL, values);
  u = ddb_update_parse (expr, ctx, &parse_error);
  g_assert_no_error (parse_error);
  return ddb_update_apply (u, item, error);
}

static void
test_set_nesting_limit (void)
{
  g_autoptr (DdbValue) item = tu_item ("{'a': {'M': {}}}");
  g_autofree char *before = NULL;
  GError *error = NULL;

  /* A top-level attribute is level 1: 31 maps around a scalar put it at level 32. */
  g_assert_true (set_deep (item, "SET t = :deep", 31, &error));
  g_assert_no_error (error);
  before = ddb_json_format_item (item);
  g_assert_false (set_deep (item, "SET u = :deep", 32, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION, DDB_NESTING_MESSAGE);
  g_clear_error (&error);

  /* One level down, one map fewer. */
  g_assert_true (set_deep (item, "SET a.b = :deep", 30, &error));
  g_assert_no_error (error);
  g_assert_false (set_deep (item, "SET a.c = :deep", 31, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION, DDB_NESTING_MESSAGE);
  g_clear_error (&error);
  g_assert_null (ddb_value_map_get (ddb_value_map_get (item, "a"), "c"));
  g_assert_null (ddb_value_map_get (item, "u"));
}

/* ---- REMOVE ----------------------------------------------------------------------------- */

static void
test_remove (void)
{
  expect ("{'p': {'S': 'k'}, 'a': {'S': 'hello'}, 'b': {'S': 'hi'}}", "REMOVE a", NULL,
          "{'p': {'S': 'k'}, 'b': {'S': 'hi'}}");
  /* Missing attributes are not an error. */
  expect ("{'p': {'S': 'k'}, 'a': {'S': 'hello'}}", "REMOVE a, q, z", NULL, "{'p': {'S': 'k'}}");
  expect ("{'a': {'M': {'x': {'N': '3'}}}, 'b': {'L': [{'S': 'hi'}]}}", "REMOVE a.y, b[7], c", NULL,
          "{'a': {'M': {'x': {'N': '3'}}}, 'b': {'L': [{'S': 'hi'}]}}");
  expect ("{'a': {'M': {'b': {'N': '3'}, 'c': {'L': [{'S': 'hi'}, {'M': {'x': {'M': {'y':"
          " {'L': [{'N': '3'}, {'N': '5'}, {'N': '7'}]}}}, 'q': {'N': '2'}}}]}}}}",
          "REMOVE a.c[1].x.y[1], a.c[1].q", NULL,
          "{'a': {'M': {'b': {'N': '3'}, 'c': {'L': [{'S': 'hi'}, {'M': {'x': {'M': {'y':"
          " {'L': [{'N': '3'}, {'N': '7'}]}}}}}]}}}}");
  /* Emptied maps and lists stay, empty. */
  expect ("{'a': {'M': {'b': {'N': '1'}}}}", "REMOVE a.b", NULL, "{'a': {'M': {}}}");
  expect ("{'a': {'L': [{'N': '1'}]}}", "REMOVE a[0]", NULL, "{'a': {'L': []}}");
}

static void
test_remove_list_positions (void)
{
  const char *five = "{'r': {'L': [{'S': 'Chisel'}, {'S': 'Hammer'}, {'S': 'Nails'},"
                     " {'S': 'Screwdriver'}, {'S': 'Hacksaw'}]}}";

  /* The elements after a removed one shift down. */
  expect (five, "REMOVE r[1]", NULL,
          "{'r': {'L': [{'S': 'Chisel'}, {'S': 'Nails'}, {'S': 'Screwdriver'},"
          " {'S': 'Hacksaw'}]}}");
  /* Several indices all name original positions, whatever their order. */
  expect (five, "REMOVE r[1], r[2]", NULL,
          "{'r': {'L': [{'S': 'Chisel'}, {'S': 'Screwdriver'}, {'S': 'Hacksaw'}]}}");
  expect (five, "REMOVE r[3], r[0], r[4]", NULL, "{'r': {'L': [{'S': 'Hammer'}, {'S': 'Nails'}]}}");
  /* SET indices too, across clauses in either order. */
  expect ("{'a': {'L': [{'N': '2'}, {'N': '3'}, {'N': '4'}, {'N': '5'}, {'N': '6'}, {'N': '7'}]}}",
          "REMOVE a[1] SET a[3] = :v", "{':v': {'N': '17'}}",
          "{'a': {'L': [{'N': '2'}, {'N': '4'}, {'N': '17'}, {'N': '6'}, {'N': '7'}]}}");
  expect ("{'a': {'L': [{'N': '2'}, {'N': '3'}, {'N': '4'}, {'N': '5'}, {'N': '6'}, {'N': '7'}]}}",
          "SET a[3] = :v REMOVE a[1]", "{':v': {'N': '17'}}",
          "{'a': {'L': [{'N': '2'}, {'N': '4'}, {'N': '17'}, {'N': '6'}, {'N': '7'}]}}");
  expect ("{'a': {'L': [{'N': '0'}, {'M': {'k': {'N': '1'}}}]}}", "REMOVE a[0] SET a[1].k = :v",
          "{':v': {'N': '9'}}", "{'a': {'L': [{'M': {'k': {'N': '9'}}}]}}");
}

static void
test_remove_bad_path (void)
{
  const char *item = "{'a': {'S': 'hello'}, 'b': {'L': [{'S': 'hi'}]}}";

  expect_error (item, "REMOVE a.c", NULL, MSG_BAD_PATH);
  expect_error (item, "REMOVE b.c", NULL, MSG_BAD_PATH);
  expect_error (item, "REMOVE c.c", NULL, MSG_BAD_PATH);
  expect_error (item, "REMOVE a[0]", NULL, MSG_BAD_PATH);
  expect_error (item, "REMOVE c[0]", NULL, MSG_BAD_PATH);
  /* ... except when the item does not exist at all, where DynamoDB lets it pass. */
  expect ("{}", "REMOVE x.y", NULL, "{}");
  expect ("{}", "REMOVE x[0], z", NULL, "{}");
}

/* ---- ADD -------------------------------------------------------------------------------- */

static void
test_add_numbers (void)
{
  expect ("{'a': {'N': '3'}, 'b': {'S': 'hi'}}", "ADD a :v", "{':v': {'N': '4'}}",
          "{'a': {'N': '7'}, 'b': {'S': 'hi'}}");
  expect ("{'a': {'N': '3'}}", "ADD a :v", "{':v': {'N': '-5.5'}}", "{'a': {'N': '-2.5'}}");
  /* A missing number starts from 0, also on a new item. */
  expect ("{'a': {'S': 'hello'}}", "ADD b :v", "{':v': {'N': '7'}}",
          "{'a': {'S': 'hello'}, 'b': {'N': '7'}}");
  expect ("{}", "ADD b :v, c :w", "{':v': {'N': '8'}, ':w': {'N': '0.5'}}",
          "{'b': {'N': '8'}, 'c': {'N': '0.5'}}");
  expect ("{'m': {'M': {'k': {'N': '1'}}}}", "ADD m.k :v, m.j :v", "{':v': {'N': '2'}}",
          "{'m': {'M': {'k': {'N': '3'}, 'j': {'N': '2'}}}}");
  expect ("{'l': {'L': [{'N': '1'}]}}", "ADD l[0] :v", "{':v': {'N': '2'}}",
          "{'l': {'L': [{'N': '3'}]}}");
  expect_error ("{'a': {'N': '1E+50'}}", "ADD a :v", "{':v': {'N': '1'}}", MSG_OVERFLOW);
  expect_error ("{'b': {'S': 'hi'}}", "ADD b :v", "{':v': {'N': '1'}}", MSG_BAD_TYPE);
  expect_error ("{'b': {'NS': ['1']}}", "ADD b :v", "{':v': {'N': '1'}}", MSG_BAD_TYPE);
  expect_error ("{'p': {'S': 'k'}}", "ADD m.k :v", "{':v': {'N': '1'}}", MSG_BAD_PATH);
}

static void
test_add_sets (void)
{
  expect ("{'a': {'SS': ['dog', 'cat', 'mouse']}}", "ADD a :v", "{':v': {'SS': ['pig']}}",
          "{'a': {'SS': ['dog', 'cat', 'mouse', 'pig']}}");
  expect ("{'a': {'SS': ['beaver', 'lynx', 'coati']}}", "ADD a :v",
          "{':v': {'SS': ['coati', 'beaver', 'badger']}}",
          "{'a': {'SS': ['beaver', 'lynx', 'coati', 'badger']}}");
  /* Numbers are set members numerically: 2.0 is already there. */
  expect ("{'n': {'NS': ['1', '2']}}", "ADD n :v", "{':v': {'NS': ['2.0', '3']}}",
          "{'n': {'NS': ['1', '2', '3']}}");
  expect ("{'b': {'BS': ['AQ==']}}", "ADD b :v", "{':v': {'BS': ['Ag==', 'AQ==']}}",
          "{'b': {'BS': ['AQ==', 'Ag==']}}");
  /* A missing set starts empty. */
  expect ("{}", "ADD c :v", "{':v': {'SS': ['cat']}}", "{'c': {'SS': ['cat']}}");
  /* The set types must match, and lists are not sets. */
  expect_error ("{'a': {'NS': ['1']}}", "ADD a :v", "{':v': {'SS': ['1']}}", MSG_BAD_TYPE);
  expect_error ("{'a': {'L': [{'N': '1'}]}}", "ADD a :v", "{':v': {'NS': ['3']}}", MSG_BAD_TYPE);
  expect_error ("{'a': {'S': 'x'}}", "ADD a :v", "{':v': {'SS': ['x']}}", MSG_BAD_TYPE);
}

static void
test_add_set_exact_count (void)
{
  GError *error = NULL;
  g_autoptr (DdbValue) item = run ("{'n': {'NS': ['1', '2']}}", "ADD n :v",
                                   "{':v': {'NS': ['2.0', '1E0', '3']}}", NULL, &error);

  /* ddb_value_equal on sets would also accept duplicates; count them. */
  g_assert_no_error (error);
  g_assert_cmpuint (ddb_value_set_size (ddb_value_map_get (item, "n")), ==, 3);
}

/* ---- DELETE ----------------------------------------------------------------------------- */

static void
test_delete (void)
{
  const char *pets = "{'a': {'SS': ['dog', 'cat', 'mouse']}, 'b': {'S': 'hi'}}";

  expect (pets, "DELETE a :v", "{':v': {'SS': ['cat', 'mouse']}}",
          "{'a': {'SS': ['dog']}, 'b': {'S': 'hi'}}");
  /* Elements not in the set are ignored. */
  expect (pets, "DELETE a :v", "{':v': {'SS': ['pig']}}", pets);
  /* A set cannot be empty: deleting everything removes the attribute. */
  expect (pets, "DELETE a :v", "{':v': {'SS': ['dog', 'mouse', 'cat', 'pig']}}",
          "{'b': {'S': 'hi'}}");
  /* A missing attribute is a no-op. */
  expect ("{'b': {'S': 'hi'}}", "DELETE a :v", "{':v': {'SS': ['dog']}}", "{'b': {'S': 'hi'}}");
  expect ("{'n': {'NS': ['1', '2.5']}}", "DELETE n :v", "{':v': {'NS': ['2.50']}}",
          "{'n': {'NS': ['1']}}");
  expect ("{'m': {'M': {'s': {'BS': ['AQ==', 'Ag==']}}}}", "DELETE m.s :v",
          "{':v': {'BS': ['AQ==']}}", "{'m': {'M': {'s': {'BS': ['Ag==']}}}}");
  expect ("{'l': {'L': [{'N': '0'}, {'SS': ['x']}, {'N': '2'}]}}", "DELETE l[1] :v",
          "{':v': {'SS': ['x']}}", "{'l': {'L': [{'N': '0'}, {'N': '2'}]}}");
  expect_error (pets, "DELETE a :v", "{':v': {'NS': ['1']}}", MSG_BAD_TYPE);
  expect_error (pets, "DELETE b :v", "{':v': {'SS': ['hi']}}", MSG_BAD_TYPE);
}

/* ---- Atomicity and combinations --------------------------------------------------------- */

static void
test_failure_leaves_item_unchanged (void)
{
  const char *item = "{'p': {'S': 'k'}, 'a': {'N': '1'}, 'l': {'L': [{'N': '1'}, {'N': '2'}]},"
                     " 's': {'SS': ['x', 'y']}, 'm': {'M': {'k': {'S': 'v'}}}}";

  /* Every action but the last one would succeed. */
  expect_error (item, "SET a = :v, l[5] = :v REMOVE l[0], m.k ADD s :s DELETE p :s",
                "{':v': {'N': '9'}, ':s': {'SS': ['z']}}", MSG_BAD_TYPE);
  expect_error (item, "SET a = :v, q.r = :v REMOVE l[0], m ADD s :s",
                "{':v': {'N': '9'}, ':s': {'SS': ['z']}}", MSG_BAD_PATH);
  expect_error (item, "REMOVE a, l[1] ADD s :s, p :n", "{':s': {'SS': ['z']}, ':n': {'N': '1'}}",
                MSG_BAD_TYPE);
}

static void
test_all_clauses (void)
{
  expect ("{'p': {'S': 'k'}, 'a': {'N': '1'}, 'l': {'L': [{'N': '1'}, {'N': '2'}]},"
          " 's': {'SS': ['x', 'y']}, 't': {'SS': ['x', 'y']}, 'm': {'M': {'k': {'S': 'v'}}},"
          " 'gone': {'BOOL': true}}",
          "SET a = a + :v, l[5] = :v REMOVE l[0], m.k, gone ADD s :s, c :v DELETE t :d",
          "{':v': {'N': '9'}, ':s': {'SS': ['z']}, ':d': {'SS': ['x']}}",
          "{'p': {'S': 'k'}, 'a': {'N': '10'}, 'l': {'L': [{'N': '2'}, {'N': '9'}]},"
          " 's': {'SS': ['x', 'y', 'z']}, 't': {'SS': ['y']}, 'm': {'M': {}}, 'c': {'N': '9'}}");
}

/* The parser refuses overlapping or conflicting paths; updates built by hand are refused the
 * same way instead of corrupting the item. */
static void
test_overlap_refused (void)
{
  struct {
    const char *one, *two, *message;
  } cases[] = {
    { "SET a = :v", "SET a.b = :v",
      "Invalid UpdateExpression: Two document paths overlap with each other; must remove or "
      "rewrite one of these paths; path one: [a], path two: [a, b]" },
    { "SET a.b[1] = :v", "REMOVE a.b[1]",
      "Invalid UpdateExpression: Two document paths overlap with each other; must remove or "
      "rewrite one of these paths; path one: [a, b, [1]], path two: [a, b, [1]]" },
    { "SET a.b = :v", "SET a[1] = :v",
      "Invalid UpdateExpression: Two document paths conflict with each other; must remove or "
      "rewrite one of these paths; path one: [a, b], path two: [a, [1]]" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TuPlaceholders ph;
      g_autoptr (DdbUpdate) u1 = NULL;
      g_autoptr (DdbUpdate) u2 = NULL;
      g_autoptr (DdbValue) item = tu_item ("{'a': {'M': {'b': {'L': [{'N': '1'}, {'N': '2'}]}}}}");
      DdbUpdateAction actions[2];
      DdbUpdate both = { 2, actions };
      GError *error = NULL;

      tu_placeholders_init (&ph, "{':v': {'N': '1'}}", NULL);
      u1 = tu_update_parse (cases[i].one, ph.ctx);
      u2 = tu_update_parse (cases[i].two, ph.ctx);
      actions[0] = u1->actions[0];
      actions[1] = u2->actions[0];
      g_assert_false (ddb_update_apply (&both, item, &error));
      tu_assert_error (error, DDB_ERROR_VALIDATION, cases[i].message);
      g_clear_error (&error);
      tu_placeholders_clear (&ph);
    }
}

/* The seed scenario: rename an author everywhere with a condition on the old value, evaluated
 * against each row before its update. */
static void
test_seed_rename_author (void)
{
  TuPlaceholders ph;
  g_autoptr (DdbNode) cond = NULL;
  g_autoptr (DdbUpdate) u = NULL;
  DdbValue *rows[2];
  const char *expected[2] = {
    "{'id': {'S': 'b1'}, 'authorName': {'S': 'Mara V.'}, 'pages': {'N': '120'}}",
    "{'id': {'S': 'b2'}, 'authorName': {'S': 'Mara V.'}, 'pages': {'N': '80'}}",
  };
  GError *error = NULL;

  rows[0] = tu_item ("{'id': {'S': 'b1'}, 'authorName': {'S': 'Mara Vance'},"
                     " 'pages': {'N': '120'}}");
  rows[1] = tu_item ("{'id': {'S': 'b2'}, 'authorName': {'S': 'Mara V.'},"
                     " 'pages': {'N': '80'}}");
  tu_placeholders_init (&ph, "{':old': {'S': 'Mara Vance'}, ':new': {'S': 'Mara V.'}}", NULL);
  cond = ddb_condition_parse (DDB_EXPR_CONDITION, "authorName = :old", ph.ctx, &error);
  g_assert_no_error (error);
  u = tu_update_parse ("SET authorName = :new", ph.ctx);

  for (guint i = 0; i < 2; i++)
    {
      gboolean ok = FALSE;

      g_assert_true (ddb_condition_eval (cond, rows[i], &ok, &error));
      g_assert_no_error (error);
      /* True for the row still holding the old name, false for the one already changed. */
      g_assert_cmpint (ok, ==, i == 0);
      if (ok)
        {
          g_assert_true (ddb_update_apply (u, rows[i], &error));
          g_assert_no_error (error);
        }
      tu_assert_item (rows[i], expected[i]);
      /* Once renamed, the condition no longer holds: a retry would fail its check. */
      g_assert_true (ddb_condition_eval (cond, rows[i], &ok, &error));
      g_assert_false (ok);
    }

  ddb_value_free (rows[0]);
  ddb_value_free (rows[1]);
  tu_placeholders_clear (&ph);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/expr-update/set/basic", test_set_basic);
  g_test_add_func ("/expr-update/set/reads-item-before-update", test_set_reads_item_before_update);
  g_test_add_func ("/expr-update/set/copy-path", test_set_copy_path);
  g_test_add_func ("/expr-update/set/arithmetic", test_set_arithmetic);
  g_test_add_func ("/expr-update/set/arithmetic-errors", test_set_arithmetic_errors);
  g_test_add_func ("/expr-update/set/if-not-exists", test_set_if_not_exists);
  g_test_add_func ("/expr-update/set/list-append", test_set_list_append);
  g_test_add_func ("/expr-update/set/nested-map", test_set_nested_map);
  g_test_add_func ("/expr-update/set/list-index", test_set_list_index);
  g_test_add_func ("/expr-update/set/nesting-limit", test_set_nesting_limit);
  g_test_add_func ("/expr-update/remove/basic", test_remove);
  g_test_add_func ("/expr-update/remove/list-positions", test_remove_list_positions);
  g_test_add_func ("/expr-update/remove/bad-path", test_remove_bad_path);
  g_test_add_func ("/expr-update/add/numbers", test_add_numbers);
  g_test_add_func ("/expr-update/add/sets", test_add_sets);
  g_test_add_func ("/expr-update/add/set-exact-count", test_add_set_exact_count);
  g_test_add_func ("/expr-update/delete", test_delete);
  g_test_add_func ("/expr-update/failure-leaves-item-unchanged",
                   test_failure_leaves_item_unchanged);
  g_test_add_func ("/expr-update/all-clauses", test_all_clauses);
  g_test_add_func ("/expr-update/overlap-refused", test_overlap_refused);
  g_test_add_func ("/expr-update/seed-rename-author", test_seed_rename_author);

  return g_test_run ();
}
