/* test-expr-eval.c: condition/filter evaluation and projection, driven by real expression text
 * through the parser: typed comparisons, missing attributes, every function, precedence. */
#include "core/error.h"
#include "core/expr.h"

#include "test-util.h"

static gboolean
eval_full (const char *item_json, const char *expr, const char *values_json, const char *names_json)
{
  TuPlaceholders ph;
  g_autoptr (DdbValue) item = item_json != NULL ? tu_item (item_json) : NULL;
  g_autoptr (DdbNode) cond = NULL;
  GError *error = NULL;
  gboolean r = 2;

  tu_placeholders_init (&ph, values_json, names_json);
  cond = tu_condition_parse (DDB_EXPR_CONDITION, expr, ph.ctx);
  g_assert_true (ddb_condition_eval (cond, item, &r, &error));
  g_assert_no_error (error);
  tu_placeholders_clear (&ph);
  return r;
}

/* Asserts that `expr` with `values_json` is `expected` on the item (NULL: no item). */
static void
expect (const char *item_json, const char *expr, const char *values_json, gboolean expected)
{
  gboolean r = eval_full (item_json, expr, values_json, NULL);

  if (r != expected)
    g_test_message ("%s on %s with %s: expected %d", expr, item_json ? item_json : "(no item)",
                    values_json ? values_json : "-", expected);
  g_assert_cmpint (r, ==, expected);
}

/* ---- = and <> ----------------------------------------------------------------------------- */

static void
test_eq_typed (void)
{
  const char *item = "{'s1': {'S': '1'}, 'n1': {'N': '1'}, 'n10': {'N': '1.0'},"
                     " 'ns': {'NS': ['1', '2']}, 'b': {'B': 'AQI='},"
                     " 'm': {'M': {'x': {'N': '1'}, 'y': {'S': 'a'}}},"
                     " 'l': {'L': [{'N': '1'}, {'S': 'a'}]},"
                     " 't': {'BOOL': true}, 'z': {'NULL': true}}";

  /* Values of different types are never equal, and that is not an error. */
  expect (item, "s1 = :v", "{':v': {'N': '1'}}", FALSE);
  expect (item, "n1 = :v", "{':v': {'S': '1'}}", FALSE);
  expect (item, "s1 = n1", NULL, FALSE);
  expect (item, "s1 = :v", "{':v': {'S': '1'}}", TRUE);
  /* Numbers compare numerically. */
  expect (item, "n1 = :v", "{':v': {'N': '1E0'}}", TRUE);
  expect (item, "n1 = n10", NULL, TRUE);
  expect (item, "n1 = :v", "{':v': {'N': '1.000000001'}}", FALSE);
  /* Sets regardless of order, their numbers numerically. */
  expect (item, "ns = :v", "{':v': {'NS': ['2.0', '1']}}", TRUE);
  expect (item, "ns = :v", "{':v': {'NS': ['2', '1', '3']}}", FALSE);
  expect (item, "ns = :v", "{':v': {'SS': ['1', '2']}}", FALSE);
  /* Maps regardless of attribute order, lists in order. */
  expect (item, "m = :v", "{':v': {'M': {'y': {'S': 'a'}, 'x': {'N': '1.0'}}}}", TRUE);
  expect (item, "m = :v", "{':v': {'M': {'x': {'N': '1'}}}}", FALSE);
  expect (item, "l = :v", "{':v': {'L': [{'N': '1'}, {'S': 'a'}]}}", TRUE);
  expect (item, "l = :v", "{':v': {'L': [{'S': 'a'}, {'N': '1'}]}}", FALSE);
  expect (item, "b = :v", "{':v': {'B': 'AQI='}}", TRUE);
  expect (item, "b = :v", "{':v': {'S': 'AQI='}}", FALSE);
  expect (item, "t = :v", "{':v': {'BOOL': true}}", TRUE);
  expect (item, "t = :v", "{':v': {'BOOL': false}}", FALSE);
  expect (item, "z = :v", "{':v': {'NULL': true}}", TRUE);
  expect (item, "z = :v", "{':v': {'BOOL': false}}", FALSE);
}

static void
test_ne_and_missing (void)
{
  const char *item = "{'a': {'N': '1'}}";

  expect (item, "a <> :v", "{':v': {'N': '2'}}", TRUE);
  expect (item, "a <> :v", "{':v': {'N': '1.0'}}", FALSE);
  expect (item, "a <> :v", "{':v': {'S': '1'}}", TRUE);
  /* A missing attribute is equal to nothing, so it is "not equal" to everything, even to
   * another missing attribute. */
  expect (item, "q = :v", "{':v': {'N': '1'}}", FALSE);
  expect (item, "q <> :v", "{':v': {'N': '1'}}", TRUE);
  expect (item, "q = z", NULL, FALSE);
  expect (item, "q <> z", NULL, TRUE);
  expect (item, "NOT q = :v", "{':v': {'N': '1'}}", TRUE);
  expect (item, "NOT q <> :v", "{':v': {'N': '1'}}", FALSE);
  /* With no item at all (a conditional put of a new item). */
  expect (NULL, "a = :v", "{':v': {'N': '1'}}", FALSE);
  expect (NULL, "a <> :v", "{':v': {'N': '1'}}", TRUE);
}

/* ---- Ordering ----------------------------------------------------------------------------- */

static void
test_order_numbers_vs_strings (void)
{
  const char *item = "{'n': {'N': '10'}, 's': {'S': '10'}, 'neg': {'N': '-5'}}";

  expect (item, "n > :v", "{':v': {'N': '9'}}", TRUE);
  expect (item, "s > :v", "{':v': {'S': '9'}}", FALSE);
  expect (item, "s < :v", "{':v': {'S': '9'}}", TRUE);
  expect (item, "neg < :v", "{':v': {'N': '-4.99'}}", TRUE);
  expect (item, "n >= :v", "{':v': {'N': '1E1'}}", TRUE);
  expect (item, "n <= :v", "{':v': {'N': '10.0'}}", TRUE);
  expect (item, "n < :v", "{':v': {'N': '10'}}", FALSE);
  expect (item, "n > :v", "{':v': {'N': '10'}}", FALSE);
  expect (item, "n > neg", NULL, TRUE);
}

static void
test_order_strings_utf8 (void)
{
  /* S compares by UTF-8 bytes: U+FFFD (EF BF BD) sorts before U+1F600 (F0 9F 98 80), though
   * UTF-16 would put the surrogate pair first; "é" (C3 A9) sorts after "z". */
  const char *item = "{'r': {'S': '\xef\xbf\xbd'}, 'e': {'S': '\xc3\xa9'}, 'p': {'S': 'ab'}}";

  expect (item, "r < :v", "{':v': {'S': '\xf0\x9f\x98\x80'}}", TRUE);
  expect (item, "e > :v", "{':v': {'S': 'z'}}", TRUE);
  /* A prefix sorts first. */
  expect (item, "p > :v", "{':v': {'S': 'a'}}", TRUE);
  expect (item, "p < :v", "{':v': {'S': 'abc'}}", TRUE);
  expect (item, "p <= :v", "{':v': {'S': 'ab'}}", TRUE);
}

static void
test_order_binary_unsigned (void)
{
  /* 0xFF is "/w==", 0x01 is "AQ==", 0x80 0x00 is "gAA=". */
  const char *item = "{'ff': {'B': '/w=='}, 'one': {'B': 'AQ=='}}";

  expect (item, "ff > :v", "{':v': {'B': 'AQ=='}}", TRUE);
  expect (item, "ff > one", NULL, TRUE);
  expect (item, "one < :v", "{':v': {'B': 'gAA='}}", TRUE);
  expect (item, "ff < :v", "{':v': {'B': 'gAA='}}", FALSE);
}

static void
test_order_type_mismatch (void)
{
  const char *item = "{'n': {'N': '1'}, 's': {'S': 'x'}, 'l': {'L': [{'N': '1'}]},"
                     " 'ss': {'SS': ['a']}, 'ss2': {'SS': ['a']}, 't': {'BOOL': true},"
                     " 't2': {'BOOL': true}, 's2': {'S': 'x'}, 'n2': {'N': '1.0'}}";
  const char *ops[] = { "<", "<=", ">", ">=" };

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      g_autofree char *e1 = g_strdup_printf ("n %s :v", ops[i]);
      g_autofree char *e2 = g_strdup_printf ("q %s :v", ops[i]);
      g_autofree char *e3 = g_strdup_printf (":v %s q", ops[i]);
      g_autofree char *e4 = g_strdup_printf ("q %s z", ops[i]);
      g_autofree char *e5 = g_strdup_printf ("l %s :w", ops[i]);
      g_autofree char *e6 = g_strdup_printf ("ss %s ss2", ops[i]);
      g_autofree char *e7 = g_strdup_printf ("t %s t2", ops[i]);

      /* Mixed types, missing attributes and unordered types all make it false. */
      expect (item, e1, "{':v': {'S': '17'}}", FALSE);
      expect (item, e2, "{':v': {'N': '17'}}", FALSE);
      expect (item, e3, "{':v': {'N': '17'}}", FALSE);
      expect (item, e4, NULL, FALSE);
      expect (item, e5, "{':w': {'N': '2'}}", FALSE);
      expect (item, e6, NULL, FALSE);
      expect (item, e7, NULL, FALSE);
    }
  /* ... while the same comparisons with a sortable type hold. */
  expect (item, "s <= s2", NULL, TRUE);
  expect (item, "n >= n2", NULL, TRUE);
}

static void
test_between (void)
{
  const char *item = "{'n': {'N': '1'}, 's': {'S': 'cat'}, 'b': {'B': 'Y2F0'},"
                     " 'lo': {'N': '0'}, 'hi': {'N': '2'}, 'sl': {'S': '0'}}";

  expect (item, "n BETWEEN :a AND :b", "{':a': {'N': '0'}, ':b': {'N': '2'}}", TRUE);
  expect (item, "n BETWEEN :a AND :b", "{':a': {'N': '1'}, ':b': {'N': '1.0'}}", TRUE);
  expect (item, "n BETWEEN :a AND :b", "{':a': {'N': '1.5'}, ':b': {'N': '7'}}", FALSE);
  expect (item, "n between lo and hi", NULL, TRUE);
  expect (item, "s BETWEEN :a AND :b", "{':a': {'S': 'aardvark'}, ':b': {'S': 'dog'}}", TRUE);
  expect (item, "s BETWEEN :a AND :b", "{':a': {'S': 'cat'}, ':b': {'S': 'cat'}}", TRUE);
  expect (item, "s BETWEEN :a AND :b", "{':a': {'S': 'dog'}, ':b': {'S': 'zebra'}}", FALSE);
  /* "cat" in base64 is Y2F0; "car" is Y2Fy, "cow" is Y293. */
  expect (item, "b BETWEEN :a AND :b", "{':a': {'B': 'Y2Fy'}, ':b': {'B': 'Y293'}}", TRUE);
  /* The operand's type must match both bounds. */
  expect (item, "n BETWEEN :a AND :b", "{':a': {'S': '0'}, ':b': {'S': '2'}}", FALSE);
  expect (item, "n BETWEEN sl AND hi", NULL, FALSE);
  expect (item, "q BETWEEN :a AND :b", "{':a': {'N': '0'}, ':b': {'N': '2'}}", FALSE);
  expect (item, "n BETWEEN q AND hi", NULL, FALSE);
  /* Bounds from the item in the wrong order: simply false. */
  expect (item, "n BETWEEN hi AND lo", NULL, FALSE);
}

static void
test_in (void)
{
  const char *item = "{'a': {'N': '74'}, 'b': {'N': '74.0'}, 'ss': {'SS': ['x', 'y']}}";

  expect (item, "a IN (:x, :y, :z)", "{':x': {'N': '1'}, ':y': {'N': '74'}, ':z': {'S': '74'}}",
          TRUE);
  expect (item, "a IN (:x, :z)", "{':x': {'N': '1'}, ':z': {'S': '74'}}", FALSE);
  /* Any type, deep equality. */
  expect (item, "ss IN (:x, :y)", "{':x': {'S': 'x'}, ':y': {'SS': ['y', 'x']}}", TRUE);
  expect (item, "a IN (b)", NULL, TRUE);
  expect (item, "q IN (:x)", "{':x': {'N': '1'}}", FALSE);
  expect (item, "a IN (q, :x)", "{':x': {'N': '74'}}", TRUE);
  expect (item, "NOT a IN (:x)", "{':x': {'N': '75'}}", TRUE);
}

/* ---- Functions ---------------------------------------------------------------------------- */

static void
test_attribute_exists (void)
{
  const char *item = "{'a': {'N': '1'}, 'z': {'NULL': true},"
                     " 'm': {'M': {'x': {'L': [{'S': 'p'}, {'M': {'y': {'N': '2'}}}]}}}}";

  expect (item, "attribute_exists(a)", NULL, TRUE);
  expect (item, "attribute_exists(z)", NULL, TRUE);
  expect (item, "attribute_exists(q)", NULL, FALSE);
  expect (item, "attribute_not_exists(q)", NULL, TRUE);
  expect (item, "attribute_not_exists(a)", NULL, FALSE);
  expect (item, "attribute_exists(m.x[1].y)", NULL, TRUE);
  expect (item, "attribute_exists(m.x[2])", NULL, FALSE);
  expect (item, "attribute_exists(m.x.y)", NULL, FALSE);
  expect (item, "attribute_exists(a.b)", NULL, FALSE);
  expect (item, "attribute_not_exists(m.x[0].y)", NULL, TRUE);
  /* No item: nothing exists. */
  expect (NULL, "attribute_exists(a)", NULL, FALSE);
  expect (NULL, "attribute_not_exists(a)", NULL, TRUE);
  g_assert_true (eval_full (item, "attribute_exists(#n)", NULL, "{'#n': 'a'}"));
}

static void
test_attribute_type (void)
{
  const char *item = "{'S': {'S': 'x'}, 'N': {'N': '1'}, 'B': {'B': 'eA=='},"
                     " 'BOOL': {'BOOL': false}, 'NULL': {'NULL': true}, 'M': {'M': {}},"
                     " 'L': {'L': []}, 'SS': {'SS': ['x']}, 'NS': {'NS': ['1']},"
                     " 'BS': {'BS': ['eA==']}}";
  const char *types[] = { "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS" };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      for (guint j = 0; j < G_N_ELEMENTS (types); j++)
        {
          const char *expr = "attribute_type(#a, :t)";
          g_autofree char *names = g_strdup_printf ("{'#a': '%s'}", types[i]);
          g_autofree char *values = g_strdup_printf ("{':t': {'S': '%s'}}", types[j]);

          g_assert_cmpint (eval_full (item, expr, values, names), ==, i == j);
        }
    }
  expect (item, "attribute_type(q, :t)", "{':t': {'S': 'S'}}", FALSE);
  /* A value operand is accepted, as DynamoDB accepts it: its own type is tested. */
  expect (item, "attribute_type(:v, :t)", "{':v': {'SS': ['a']}, ':t': {'S': 'SS'}}", TRUE);
  expect (item, "attribute_type(:v, :t)", "{':v': {'N': '1'}, ':t': {'S': 'S'}}", FALSE);
  expect (NULL, "attribute_type(:v, :t)", "{':v': {'NULL': true}, ':t': {'S': 'NULL'}}", TRUE);
}

static void
test_begins_with (void)
{
  const char *item = "{'a': {'S': 'hello'}, 'b': {'B': 'aGkgdGhlcmU='}, 'n': {'N': '123'},"
                     " 'pre': {'S': 'he'}, 'ss': {'SS': ['hello']}}";

  expect (item, "begins_with(a, :p)", "{':p': {'S': 'hell'}}", TRUE);
  expect (item, "begins_with(a, :p)", "{':p': {'S': 'hello'}}", TRUE);
  expect (item, "begins_with(a, :p)", "{':p': {'S': ''}}", TRUE);
  expect (item, "begins_with(a, :p)", "{':p': {'S': 'hello!'}}", FALSE);
  expect (item, "begins_with(a, :p)", "{':p': {'S': 'ello'}}", FALSE);
  /* "hi there" begins with "hi" (aGk=) but not "ho" (aG8=). */
  expect (item, "begins_with(b, :p)", "{':p': {'B': 'aGk='}}", TRUE);
  expect (item, "begins_with(b, :p)", "{':p': {'B': 'aG8='}}", FALSE);
  /* Only S and B have prefixes; a number or a set is simply false, as is a type mismatch. */
  expect (item, "begins_with(n, :p)", "{':p': {'S': '12'}}", FALSE);
  expect (item, "begins_with(ss, :p)", "{':p': {'S': 'he'}}", FALSE);
  expect (item, "begins_with(a, :p)", "{':p': {'B': 'aGk='}}", FALSE);
  expect (item, "begins_with(q, :p)", "{':p': {'S': 'h'}}", FALSE);
  /* Either operand may be an attribute. */
  expect (item, "begins_with(a, pre)", NULL, TRUE);
  expect (item, "begins_with(:s, a)", "{':s': {'S': 'hellohi'}}", TRUE);
}

static void
test_contains (void)
{
  const char *item = "{'s': {'S': 'hello'}, 'b': {'B': 'aGkgdGhlcmU='}, 'ss': {'SS': ['x', 'y']},"
                     " 'ns': {'NS': ['2', '4', '7']}, 'bs': {'BS': ['AQ==', 'Ag==']},"
                     " 'l': {'L': [{'S': 'hi'}, {'NS': ['1', '2']}, {'L': [{'N': '3'}]},"
                     "             {'M': {'k': {'N': '1'}}}]},"
                     " 'n': {'N': '42'}, 'mid': {'S': 'ell'}}";

  expect (item, "contains(s, :v)", "{':v': {'S': 'ell'}}", TRUE);
  expect (item, "contains(s, :v)", "{':v': {'S': 'hello'}}", TRUE);
  expect (item, "contains(s, :v)", "{':v': {'S': 'elo'}}", FALSE);
  expect (item, "contains(s, mid)", NULL, TRUE);
  /* "hi there" contains "here" (aGVyZQ==) but not "dog" (ZG9n). */
  expect (item, "contains(b, :v)", "{':v': {'B': 'aGVyZQ=='}}", TRUE);
  expect (item, "contains(b, :v)", "{':v': {'B': 'ZG9n'}}", FALSE);
  /* A set holds an element of its element type (numbers numerically). */
  expect (item, "contains(ss, :v)", "{':v': {'S': 'y'}}", TRUE);
  expect (item, "contains(ss, :v)", "{':v': {'S': 'z'}}", FALSE);
  expect (item, "contains(ss, :v)", "{':v': {'SS': ['x']}}", FALSE);
  expect (item, "contains(ns, :v)", "{':v': {'N': '4.0'}}", TRUE);
  expect (item, "contains(ns, :v)", "{':v': {'S': '4'}}", FALSE);
  expect (item, "contains(bs, :v)", "{':v': {'B': 'Ag=='}}", TRUE);
  expect (item, "contains(bs, :v)", "{':v': {'B': 'Aw=='}}", FALSE);
  /* A list holds an element equal to the operand, whatever its type. */
  expect (item, "contains(l, :v)", "{':v': {'S': 'hi'}}", TRUE);
  expect (item, "contains(l, :v)", "{':v': {'NS': ['2', '1']}}", TRUE);
  expect (item, "contains(l, :v)", "{':v': {'L': [{'N': '3.0'}]}}", TRUE);
  expect (item, "contains(l, :v)", "{':v': {'M': {'k': {'N': '1'}}}}", TRUE);
  expect (item, "contains(l, :v)", "{':v': {'S': 'h'}}", FALSE);
  /* Everything else is false, not an error. */
  expect (item, "contains(s, :v)", "{':v': {'N': '1'}}", FALSE);
  expect (item, "contains(n, :v)", "{':v': {'S': '4'}}", FALSE);
  expect (item, "contains(b, :v)", "{':v': {'S': 'hi'}}", FALSE);
  expect (item, "contains(q, :v)", "{':v': {'S': 'x'}}", FALSE);
  expect (item, "NOT contains(q, :v)", "{':v': {'S': 'x'}}", TRUE);
}

static void
test_size (void)
{
  /* "é𝄞": é is one UTF-16 unit, U+1D11E two; 6 UTF-8 bytes. */
  const char *item = "{'s': {'S': 'hello'}, 'u': {'S': '\xc3\xa9\xf0\x9d\x84\x9e'},"
                     " 'e': {'S': ''}, 'b': {'B': 'aGkgdGhlcmU='}, 'ss': {'SS': ['a', 'b']},"
                     " 'ns': {'NS': ['2', '4', '7']}, 'bs': {'BS': ['AQ==']},"
                     " 'l': {'L': [{'N': '2'}, {'S': 'dog'}, {'N': '7'}]},"
                     " 'm': {'M': {'x': {'N': '2'},"
                     "             'y': {'M': {'m': {'N': '3'}, 'n': {'N': '4'}}}}},"
                     " 'n': {'N': '5'}, 't': {'BOOL': true}, 'z': {'NULL': true}}";

  expect (item, "size(s) = :v", "{':v': {'N': '5'}}", TRUE);
  expect (item, "size(u) = :v", "{':v': {'N': '3'}}", TRUE);
  expect (item, "size(u) = :v", "{':v': {'N': '6'}}", FALSE);
  expect (item, "size(e) = :v", "{':v': {'N': '0'}}", TRUE);
  expect (item, "size(b) = :v", "{':v': {'N': '8'}}", TRUE);
  expect (item, "size(ss) = :v", "{':v': {'N': '2'}}", TRUE);
  expect (item, "size(ns) = :v", "{':v': {'N': '3'}}", TRUE);
  expect (item, "size(bs) = :v", "{':v': {'N': '1'}}", TRUE);
  expect (item, "size(l) = :v", "{':v': {'N': '3'}}", TRUE);
  expect (item, "size(m) = :v", "{':v': {'N': '2'}}", TRUE);
  expect (item, "size(m.y) = :v", "{':v': {'N': '2'}}", TRUE);
  /* Numbers, booleans, NULL and missing attributes have no size: every comparison is false. */
  expect (item, "size(n) = :v", "{':v': {'N': '1'}}", FALSE);
  expect (item, "size(n) <> :v", "{':v': {'N': '1'}}", TRUE);
  expect (item, "size(t) = :v", "{':v': {'N': '1'}}", FALSE);
  expect (item, "size(z) >= :v", "{':v': {'N': '0'}}", FALSE);
  expect (item, "size(q) >= :v", "{':v': {'N': '0'}}", FALSE);
  /* size() is a number, compared numerically and only with numbers. */
  expect (item, "size(s) = :v", "{':v': {'S': '5'}}", FALSE);
  expect (item, "size(s) = n", NULL, TRUE);
  expect (item, "size(s) < :v", "{':v': {'N': '7'}}", TRUE);
  expect (item, "size(s) > :v", "{':v': {'N': '4.99'}}", TRUE);
  expect (item, "size(s) BETWEEN :a AND :b", "{':a': {'N': '5'}, ':b': {'N': '5'}}", TRUE);
  expect (item, "size(l) IN (:a, :b)", "{':a': {'N': '1'}, ':b': {'N': '3'}}", TRUE);
  expect (item, "size(s) > size(l)", NULL, TRUE);
}

/* ---- Logic -------------------------------------------------------------------------------- */

static void
test_logic_and_precedence (void)
{
  const char *item = "{'a': {'N': '1'}, 'b': {'N': '2'}, 'c': {'N': '3'}}";

  expect (item, "a < b AND b < c", NULL, TRUE);
  expect (item, "a < b AND c < b", NULL, FALSE);
  expect (item, "b < a OR b < c", NULL, TRUE);
  expect (item, "b < a OR c < b", NULL, FALSE);
  expect (item, "NOT b < a", NULL, TRUE);
  expect (item, "NOT NOT NOT NOT a < b", NULL, TRUE);
  /* AND binds tighter than OR: true OR (false AND true). */
  expect (item, "a < b OR c < b AND b < c", NULL, TRUE);
  /* ... and parentheses change that: (true OR false) AND false. */
  expect (item, "(a < b OR c < b) AND c < b", NULL, FALSE);
  /* NOT binds tighter than AND: (NOT true) AND false. */
  expect (item, "NOT a < b AND c < b", NULL, FALSE);
  expect (item, "NOT (a < b AND c < b)", NULL, TRUE);
  /* BETWEEN's AND is not the logical AND. */
  expect (item, "b BETWEEN a AND c AND a < b", NULL, TRUE);
  expect (item, "(a < b OR b < a) AND (b < c AND (a < b OR b < c))", NULL, TRUE);
}

static void
test_nested_paths (void)
{
  const char *item = "{'b': {'M': {'x': {'N': '1'},"
                     "             'y': {'L': [{'N': '-1'}, {'N': '2'}, {'N': '0'}]}}},"
                     " 'and': {'M': {'or': {'N': '2'}}}}";

  expect (item, "b.x < b.y[1]", NULL, TRUE);
  expect (item, "b.x < b.y[0]", NULL, FALSE);
  expect (item, "b.z < b.y[100]", NULL, FALSE);
  expect (item, "b.y[2] = :z", "{':z': {'N': '0'}}", TRUE);
  g_assert_true (
      eval_full (item, "#a.#o = :two", "{':two': {'N': '2'}}", "{'#a': 'and', '#o': 'or'}"));
}

/* The evaluator returns an error rather than crash on a tree the parser never makes. */
static void
test_operand_as_condition (void)
{
  DdbNode node = { .kind = DDB_NODE_VALUE };
  g_autoptr (DdbValue) v = ddb_value_new_bool (TRUE);
  GError *error = NULL;
  gboolean r = TRUE;

  node.value = v;
  g_assert_false (ddb_condition_eval (&node, NULL, &r, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_clear_error (&error);
}

/* ---- Projection --------------------------------------------------------------------------- */

static DdbProjection *
parse_projection (const char *expr, const char *names_json)
{
  TuPlaceholders ph;
  GError *error = NULL;
  DdbProjection *p;

  tu_placeholders_init (&ph, NULL, names_json);
  p = ddb_projection_parse (expr, ph.ctx, &error);
  g_assert_no_error (error);
  g_assert_nonnull (p);
  tu_placeholders_clear (&ph);
  return p;
}

static void
expect_projection (const char *item_json, const char *expr, const char *expected_json)
{
  g_autoptr (DdbValue) item = tu_item (item_json);
  g_autoptr (DdbProjection) p = parse_projection (expr, NULL);
  g_autoptr (DdbValue) got = ddb_projection_apply (p, item);

  tu_assert_item (got, expected_json);
}

static const char *proj_item = "{'p': {'S': 'k'},"
                               " 'a': {'M': {'b': {'L': [{'N': '2'}, {'N': '4'}, {'M': {'x': {'S': "
                               "'hi'}, 'y': {'S': 'yo'}}}]},"
                               "             'c': {'N': '5'}}},"
                               " 'b': {'S': 'hello'}}";

static void
test_projection_top_level (void)
{
  expect_projection (proj_item, "b", "{'b': {'S': 'hello'}}");
  expect_projection (proj_item, "b, p", "{'b': {'S': 'hello'}, 'p': {'S': 'k'}}");
  /* Keys come back only when asked for, and a missing attribute is simply absent. */
  expect_projection (proj_item, "nothere", "{}");
  expect_projection (proj_item, "b, nothere", "{'b': {'S': 'hello'}}");
  expect_projection (proj_item, "a",
                     "{'a': {'M': {'b': {'L': [{'N': '2'}, {'N': '4'}, {'M': {'x': {'S': 'hi'},"
                     " 'y': {'S': 'yo'}}}]}, 'c': {'N': '5'}}}}");
}

static void
test_projection_nested (void)
{
  /* A nested path keeps its nesting. */
  expect_projection (proj_item, "a.c", "{'a': {'M': {'c': {'N': '5'}}}}");
  expect_projection (proj_item, "a.b[2].y",
                     "{'a': {'M': {'b': {'L': [{'M': {'y': {'S': 'yo'}}}]}}}}");
  /* Paths under one attribute merge. */
  expect_projection (proj_item, "a.c, b", "{'a': {'M': {'c': {'N': '5'}}}, 'b': {'S': 'hello'}}");
  expect_projection (proj_item, "a.b[0], a.c",
                     "{'a': {'M': {'b': {'L': [{'N': '2'}]}, 'c': {'N': '5'}}}}");
  expect_projection (proj_item, "a.b[2].x, a.b[2].y",
                     "{'a': {'M': {'b': {'L': [{'M': {'x': {'S': 'hi'}, 'y': {'S': 'yo'}}}]}}}}");
  /* Anything missing on the way makes the path absent, without leaving empty parents. */
  expect_projection (proj_item, "a.x", "{}");
  expect_projection (proj_item, "a.x.y", "{}");
  expect_projection (proj_item, "a.b[3]", "{}");
  expect_projection (proj_item, "a.b[3].x", "{}");
  expect_projection (proj_item, "a.b.x", "{}");
  expect_projection (proj_item, "a[0]", "{}");
  expect_projection (proj_item, "a.b[0].x", "{}");
  expect_projection (proj_item, "a.b[0][0]", "{}");
  expect_projection (proj_item, "a.x, a.b[0], x, a.b[3].x",
                     "{'a': {'M': {'b': {'L': [{'N': '2'}]}}}}");
}

static void
test_projection_list_indices (void)
{
  const char *item = "{'l': {'L': [{'S': 'e0'}, {'S': 'e1'}, {'S': 'e2'}, {'S': 'e3'},"
                     "             {'M': {'x': {'N': '1'}, 'y': {'N': '2'}}}]}}";

  /* Picked elements are compacted, in index order whatever the order written. */
  expect_projection (item, "l[0], l[2]", "{'l': {'L': [{'S': 'e0'}, {'S': 'e2'}]}}");
  expect_projection (item, "l[3], l[1]", "{'l': {'L': [{'S': 'e1'}, {'S': 'e3'}]}}");
  expect_projection (item, "l[4].y, l[2], l[9], l[0]",
                     "{'l': {'L': [{'S': 'e0'}, {'S': 'e2'}, {'M': {'y': {'N': '2'}}}]}}");
  expect_projection (item, "l[4].y, l[4].x",
                     "{'l': {'L': [{'M': {'x': {'N': '1'}, 'y': {'N': '2'}}}]}}");
}

/* The parser refuses overlapping paths, but a projection built by hand still merges them: a
 * whole attribute includes anything picked inside it, in either order. */
static void
test_projection_overlap_merges (void)
{
  g_autoptr (DdbValue) item = tu_item (proj_item);
  g_autoptr (DdbProjection) inner = parse_projection ("a.b[2].y, a.c", NULL);
  g_autoptr (DdbProjection) whole = parse_projection ("a", NULL);
  const char *whole_a = "{'a': {'M': {'b': {'L': [{'N': '2'}, {'N': '4'}, {'M': {'x': {'S': 'hi'},"
                        " 'y': {'S': 'yo'}}}]}, 'c': {'N': '5'}}}}";

  for (guint order = 0; order < 2; order++)
    {
      DdbProjection both;
      DdbPath paths[3];
      g_autoptr (DdbValue) got = NULL;

      both.n_paths = 3;
      both.paths = paths;
      if (order == 0)
        {
          paths[0] = inner->paths[0];
          paths[1] = inner->paths[1];
          paths[2] = whole->paths[0];
        }
      else
        {
          paths[0] = whole->paths[0];
          paths[1] = inner->paths[0];
          paths[2] = inner->paths[1];
        }
      got = ddb_projection_apply (&both, item);
      tu_assert_item (got, whole_a);
    }
}

static void
test_projection_names (void)
{
  g_autoptr (DdbValue) item
      = tu_item ("{'a.b': {'S': 'hi'}, 'a': {'M': {'b': {'S': 'yo'}, 'c': {'S': 'jo'}}}}");
  g_autoptr (DdbProjection) dotted = parse_projection ("#n", "{'#n': 'a.b'}");
  g_autoptr (DdbProjection) nested = parse_projection ("a.b", NULL);
  g_autoptr (DdbValue) got1 = ddb_projection_apply (dotted, item);
  g_autoptr (DdbValue) got2 = ddb_projection_apply (nested, item);

  /* A name with a dot in it is one attribute, not a path. */
  tu_assert_item (got1, "{'a.b': {'S': 'hi'}}");
  tu_assert_item (got2, "{'a': {'M': {'b': {'S': 'yo'}}}}");
}

/* The projection copies: the result lives on after the item is gone. */
static void
test_projection_independent (void)
{
  DdbValue *item = tu_item (proj_item);
  g_autoptr (DdbProjection) p = parse_projection ("a.b[2], b", NULL);
  g_autoptr (DdbValue) got = ddb_projection_apply (p, item);

  ddb_value_free (item);
  tu_assert_item (got, "{'a': {'M': {'b': {'L': [{'M': {'x': {'S': 'hi'},"
                       " 'y': {'S': 'yo'}}}]}}}, 'b': {'S': 'hello'}}");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/expr-eval/eq-typed", test_eq_typed);
  g_test_add_func ("/expr-eval/ne-and-missing", test_ne_and_missing);
  g_test_add_func ("/expr-eval/order/numbers-vs-strings", test_order_numbers_vs_strings);
  g_test_add_func ("/expr-eval/order/strings-utf8", test_order_strings_utf8);
  g_test_add_func ("/expr-eval/order/binary-unsigned", test_order_binary_unsigned);
  g_test_add_func ("/expr-eval/order/type-mismatch", test_order_type_mismatch);
  g_test_add_func ("/expr-eval/between", test_between);
  g_test_add_func ("/expr-eval/in", test_in);
  g_test_add_func ("/expr-eval/attribute-exists", test_attribute_exists);
  g_test_add_func ("/expr-eval/attribute-type", test_attribute_type);
  g_test_add_func ("/expr-eval/begins-with", test_begins_with);
  g_test_add_func ("/expr-eval/contains", test_contains);
  g_test_add_func ("/expr-eval/size", test_size);
  g_test_add_func ("/expr-eval/logic-and-precedence", test_logic_and_precedence);
  g_test_add_func ("/expr-eval/nested-paths", test_nested_paths);
  g_test_add_func ("/expr-eval/operand-as-condition", test_operand_as_condition);
  g_test_add_func ("/expr-eval/projection/top-level", test_projection_top_level);
  g_test_add_func ("/expr-eval/projection/nested", test_projection_nested);
  g_test_add_func ("/expr-eval/projection/list-indices", test_projection_list_indices);
  g_test_add_func ("/expr-eval/projection/overlap-merges", test_projection_overlap_merges);
  g_test_add_func ("/expr-eval/projection/names", test_projection_names);
  g_test_add_func ("/expr-eval/projection/independent", test_projection_independent);

  return g_test_run ();
}
