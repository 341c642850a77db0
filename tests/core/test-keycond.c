/* test-keycond.c: KeyConditionExpression analysis against a key schema, as Query does it. */
#include <string.h>

#include <glib.h>

#include "core/error.h"
#include "core/expr.h"

#include "test-util.h"

static const DdbKeySchema schema_ss = { "EntityRef", DDB_TYPE_S, "Detail", DDB_TYPE_S };
static const DdbKeySchema schema_nn = { "p", DDB_TYPE_N, "c", DDB_TYPE_N };
static const DdbKeySchema schema_hash = { "EntityRef", DDB_TYPE_S, NULL, DDB_TYPE_S };

static GHashTable *
names_table (void)
{
  GHashTable *names = g_hash_table_new (g_str_hash, g_str_equal);

  g_hash_table_insert (names, "#er", "EntityRef");
  g_hash_table_insert (names, "#d", "Detail");
  return names;
}

static GHashTable *
values_table (void)
{
  GHashTable *values
      = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) ddb_value_free);

  g_hash_table_insert (values, ":er", ddb_value_new_s ("WS#acme", -1));
  g_hash_table_insert (values, ":p", ddb_value_new_s ("PROJ#", -1));
  g_hash_table_insert (values, ":q", ddb_value_new_s ("PROJ#z", -1));
  g_hash_table_insert (values, ":n", tu_num ("5"));
  g_hash_table_insert (values, ":n2", tu_num ("7"));
  g_hash_table_insert (values, ":empty", ddb_value_new_s ("", 0));
  g_hash_table_insert (values, ":bin", ddb_value_new_b ("\x01", 1));
  g_hash_table_insert (values, ":type", ddb_value_new_s ("S", -1));
  return values;
}

/* Parses `text` as a KeyConditionExpression and analyzes it; returns the analysis result. */
static gboolean
analyze (const DdbKeySchema *schema, const char *text, DdbKeyCondition *kc, GError **error)
{
  g_autoptr (GHashTable) names = names_table ();
  g_autoptr (GHashTable) values = values_table ();
  g_autoptr (DdbExprContext) ctx = ddb_expr_context_new (names, values);
  g_autoptr (DdbNode) cond = tu_condition_parse (DDB_EXPR_KEY_CONDITION, text, ctx);

  return ddb_key_condition_analyze (cond, schema, kc, error);
}

static void
accepts (const DdbKeySchema *schema, const char *text, DdbSortKeyOp op, const char *pk,
         const char *sk0, const char *sk1)
{
  DdbKeyCondition kc;
  g_autoptr (GError) error = NULL;

  g_assert_true (analyze (schema, text, &kc, &error));
  g_assert_no_error (error);
  g_assert_nonnull (kc.pk);
  g_assert_cmpstr (kc.pk->bytes.data, ==, pk);
  g_assert_cmpint (kc.sk_op, ==, op);
  if (sk0 == NULL)
    g_assert_null (kc.sk[0]);
  else
    g_assert_cmpstr (kc.sk[0]->bytes.data, ==, sk0);
  if (sk1 == NULL)
    g_assert_null (kc.sk[1]);
  else
    g_assert_cmpstr (kc.sk[1]->bytes.data, ==, sk1);
  ddb_key_condition_clear (&kc);
  g_assert_null (kc.pk);
  g_assert_null (kc.sk[0]);
  g_assert_cmpint (kc.sk_op, ==, DDB_SK_NONE);
}

static void
refuses (const DdbKeySchema *schema, const char *text, const char *message)
{
  DdbKeyCondition kc;
  g_autoptr (GError) error = NULL;

  g_assert_false (analyze (schema, text, &kc, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  /* Nothing is handed out on failure. */
  g_assert_null (kc.pk);
  g_assert_null (kc.sk[0]);
}

static void
test_seed_example (void)
{
  accepts (&schema_ss, "#er = :er AND begins_with(#d, :p)", DDB_SK_BEGINS_WITH, "WS#acme", "PROJ#",
           NULL);
}

static void
test_partition_only (void)
{
  accepts (&schema_ss, "#er = :er", DDB_SK_NONE, "WS#acme", NULL, NULL);
  accepts (&schema_ss, ":er = #er", DDB_SK_NONE, "WS#acme", NULL, NULL);
  accepts (&schema_hash, "EntityRef = :er", DDB_SK_NONE, "WS#acme", NULL, NULL);
}

static void
test_sort_key_operators (void)
{
  accepts (&schema_ss, "#er = :er AND #d = :p", DDB_SK_EQ, "WS#acme", "PROJ#", NULL);
  accepts (&schema_ss, "#er = :er AND #d < :p", DDB_SK_LT, "WS#acme", "PROJ#", NULL);
  accepts (&schema_ss, "#er = :er AND #d <= :p", DDB_SK_LE, "WS#acme", "PROJ#", NULL);
  accepts (&schema_ss, "#er = :er AND #d > :p", DDB_SK_GT, "WS#acme", "PROJ#", NULL);
  accepts (&schema_ss, "#er = :er AND #d >= :p", DDB_SK_GE, "WS#acme", "PROJ#", NULL);
  accepts (&schema_ss, "#er = :er AND #d BETWEEN :p AND :q", DDB_SK_BETWEEN, "WS#acme", "PROJ#",
           "PROJ#z");
  accepts (&schema_ss, "#er = :er and Detail between :p and :q", DDB_SK_BETWEEN, "WS#acme", "PROJ#",
           "PROJ#z");
}

static void
test_value_on_the_left (void)
{
  /* The key may be written on either side; the operator turns with it. */
  accepts (&schema_ss, ":er = #er AND :p = #d", DDB_SK_EQ, "WS#acme", "PROJ#", NULL);
  accepts (&schema_ss, "#er = :er AND :p < #d", DDB_SK_GT, "WS#acme", "PROJ#", NULL);
  accepts (&schema_ss, "#er = :er AND :p <= #d", DDB_SK_GE, "WS#acme", "PROJ#", NULL);
  accepts (&schema_ss, "#er = :er AND :p > #d", DDB_SK_LT, "WS#acme", "PROJ#", NULL);
  accepts (&schema_ss, "#er = :er AND :p >= #d", DDB_SK_LE, "WS#acme", "PROJ#", NULL);
}

static void
test_order_and_parentheses (void)
{
  accepts (&schema_ss, "begins_with(#d, :p) AND #er = :er", DDB_SK_BEGINS_WITH, "WS#acme", "PROJ#",
           NULL);
  accepts (&schema_ss, "((#d = :p) AND (#er = :er))", DDB_SK_EQ, "WS#acme", "PROJ#", NULL);
}

static void
test_numeric_keys (void)
{
  DdbKeyCondition kc;
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) values = values_table ();
  g_autoptr (DdbExprContext) ctx = ddb_expr_context_new (names, values);
  g_autoptr (DdbNode) cond = NULL;

  cond = ddb_condition_parse (DDB_EXPR_KEY_CONDITION, "p = :n AND c BETWEEN :n AND :n2", ctx,
                              &error);
  g_assert_no_error (error);
  g_assert_true (ddb_key_condition_analyze (cond, &schema_nn, &kc, &error));
  g_assert_cmpint (kc.pk->type, ==, DDB_TYPE_N);
  g_assert_cmpint (kc.sk_op, ==, DDB_SK_BETWEEN);
  g_assert_cmpint (kc.sk[1]->type, ==, DDB_TYPE_N);
  ddb_key_condition_clear (&kc);
}

static void
test_invalid_operators (void)
{
  refuses (&schema_ss, "#er = :er OR #d = :p",
           "Invalid operator used in KeyConditionExpression: OR");
  refuses (&schema_ss, "NOT #d = :p AND #er = :er",
           "Invalid operator used in KeyConditionExpression: NOT");
  refuses (&schema_ss, "#er = :er AND #d IN (:p, :q)",
           "Invalid operator used in KeyConditionExpression: IN");
  refuses (&schema_ss, "#er = :er AND #d <> :p",
           "Invalid operator used in KeyConditionExpression: <>");
  refuses (&schema_ss, "#er = :er AND contains(#d, :p)",
           "Invalid operator used in KeyConditionExpression: contains");
  refuses (&schema_ss, "#er = :er AND attribute_exists(#d)",
           "Invalid operator used in KeyConditionExpression: attribute_exists");
  refuses (&schema_ss, "#er = :er AND attribute_not_exists(#d)",
           "Invalid operator used in KeyConditionExpression: attribute_not_exists");
  refuses (&schema_ss, "#er = :er AND attribute_type(#d, :type)",
           "Invalid operator used in KeyConditionExpression: attribute_type");
}

static void
test_partition_key_rules (void)
{
  refuses (&schema_ss, "#er < :er", "Query key condition not supported");
  refuses (&schema_ss, "begins_with(#er, :er)", "Query key condition not supported");
  refuses (&schema_ss, "#er BETWEEN :p AND :er AND #d = :p", "Query key condition not supported");
  refuses (&schema_ss, "#d = :p", "Query condition missed key schema element: EntityRef");
  refuses (&schema_ss, "misc = :p", "Query condition missed key schema element: EntityRef");
  refuses (&schema_ss, "#er = :er AND misc = :p",
           "Query condition missed key schema element: Detail");
  /* A table without a sort key takes a single condition. */
  refuses (&schema_hash, "#er = :er AND #d = :p", "Query key condition not supported");
}

static void
test_condition_shape (void)
{
  refuses (&schema_ss, "#er = :er AND #er = :p",
           "KeyConditionExpressions must only contain one condition per key");
  refuses (&schema_ss, "#er = :er AND #d > :p AND #d < :q",
           "KeyConditionExpressions must only contain one condition per key");
  refuses (&schema_ss, "#er = :er AND #d > :p AND misc = :q",
           "Conditions can be of length 1 or 2 only");
  refuses (&schema_ss, "#er = :er AND size(#d) > :n",
           "KeyConditionExpressions cannot contain nested operations");
  refuses (&schema_ss, "#er = :er AND #d.x = :p",
           "KeyConditionExpressions cannot have conditions on nested attributes");
  refuses (&schema_ss, "#er = :er AND #d[0] = :p",
           "KeyConditionExpressions cannot have conditions on nested attributes");
  refuses (&schema_ss, "#er = #d",
           "Invalid condition in KeyConditionExpression: Multiple attribute names used in one "
           "condition");
  refuses (&schema_ss, ":er = :p",
           "Invalid condition in KeyConditionExpression: No key attribute specified");
  refuses (&schema_ss, "#er = :er AND :p BETWEEN #d AND :q",
           "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key "
           "attribute as its first operand");
  refuses (&schema_ss, "#er = :er AND begins_with(:p, #d)",
           "Invalid condition in KeyConditionExpression: begins_with operator must have the key "
           "attribute as its first operand");
}

static void
test_types (void)
{
  refuses (&schema_ss, "#er = :n",
           "One or more parameter values were invalid: Condition "
           "parameter type does not match schema type");
  refuses (&schema_ss, "#er = :er AND #d > :bin",
           "One or more parameter values were invalid: "
           "Condition parameter type does not match schema type");
  refuses (&schema_ss, "#er = :er AND #d BETWEEN :p AND :q AND #er = :er",
           "KeyConditionExpressions must only contain one condition per key");
  refuses (&schema_nn, "p = :n AND begins_with(c, :p)",
           "One or more parameter values were "
           "invalid: Condition parameter type does not match schema type");
  refuses (&schema_ss, "#er = :empty",
           "One or more parameter values are not valid. The "
           "AttributeValue for a key attribute cannot contain an empty string value. "
           "Key: EntityRef");
  refuses (&schema_ss, "#er = :er AND #d = :empty",
           "One or more parameter values are not "
           "valid. The AttributeValue for a key attribute cannot contain an empty string value. "
           "Key: Detail");
}

static void
test_parse_time_errors (void)
{
  /* Some mistakes are caught by the parser, with the expression named. */
  g_autoptr (GHashTable) names = names_table ();
  g_autoptr (GHashTable) values = values_table ();
  g_autoptr (DdbExprContext) ctx = ddb_expr_context_new (names, values);
  g_autoptr (GError) error = NULL;
  DdbNode *cond;

  cond = ddb_condition_parse (DDB_EXPR_KEY_CONDITION, "#er = :er AND begins_with(#d, :n)", ctx,
                              &error);
  g_assert_null (cond);
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "Invalid KeyConditionExpression: Incorrect operand type "
                   "for operator or function; operator or function: begins_with, operand type: N");
  g_clear_error (&error);
  cond = ddb_condition_parse (DDB_EXPR_KEY_CONDITION, "#er = :er AND dog(#d, :p)", ctx, &error);
  g_assert_null (cond);
  g_assert_cmpstr (error->message, ==,
                   "Invalid KeyConditionExpression: Invalid function name; "
                   "function: dog");
  g_clear_error (&error);
  cond = ddb_condition_parse (DDB_EXPR_KEY_CONDITION, "#er = :er AND #d != :p", ctx, &error);
  g_assert_null (cond);
  g_assert_cmpstr (error->message, ==,
                   "Invalid KeyConditionExpression: Syntax error; token: "
                   "\"!\", near: \"#d !=\"");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/keycond/seed-example", test_seed_example);
  g_test_add_func ("/keycond/partition-only", test_partition_only);
  g_test_add_func ("/keycond/sort-key-operators", test_sort_key_operators);
  g_test_add_func ("/keycond/value-on-the-left", test_value_on_the_left);
  g_test_add_func ("/keycond/order-and-parentheses", test_order_and_parentheses);
  g_test_add_func ("/keycond/numeric-keys", test_numeric_keys);
  g_test_add_func ("/keycond/invalid-operators", test_invalid_operators);
  g_test_add_func ("/keycond/partition-key-rules", test_partition_key_rules);
  g_test_add_func ("/keycond/condition-shape", test_condition_shape);
  g_test_add_func ("/keycond/types", test_types);
  g_test_add_func ("/keycond/parse-time-errors", test_parse_time_errors);
  return g_test_run ();
}
