/* test-legacy.c: the legacy request parameters converted into expression trees, evaluated with
 * the core evaluator and update application, and DynamoDB's messages for the invalid ones. */
#include <glib.h>
#include <jansson.h>

#include "../core/test-util.h"
#include "engine-test-util.h"
#include "core/ddbjson.h"
#include "engine/legacy.h"

#define INVALID "One or more parameter values were invalid: "
#define ENVELOPE "1 validation error detected: "

static gboolean
holds (const DdbNode *cond, const char *item_json)
{
  g_autoptr (DdbValue) item = item_json ? tu_item (item_json) : NULL;
  GError *error = NULL;
  gboolean r = FALSE;

  g_assert_true (ddb_condition_eval (cond, item, &r, &error));
  g_assert_no_error (error);
  return r;
}

static DdbNode *
expected_ok (const char *expected, const char *op)
{
  json_t *j = etu_json ("%s", expected);
  GError *error = NULL;
  DdbNode *n = ddb_legacy_expected (j, op, &error);

  g_assert_no_error (error);
  g_assert_nonnull (n);
  json_decref (j);
  return n;
}

static void
expected_fails (const char *expected, const char *op, DdbErrorCode code, const char *message)
{
  json_t *j = etu_json ("%s", expected);
  GError *error = NULL;
  DdbNode *n = ddb_legacy_expected (j, op, &error);

  g_assert_null (n);
  tu_assert_error (error, code, message);
  g_clear_error (&error);
  json_decref (j);
}

static DdbNode *
filter_ok (const char *filter, const char *op)
{
  json_t *j = etu_json ("%s", filter);
  GError *error = NULL;
  DdbNode *n = ddb_legacy_filter (j, op, &error);

  g_assert_no_error (error);
  g_assert_nonnull (n);
  json_decref (j);
  return n;
}

static void
filter_fails (const char *filter, const char *message)
{
  json_t *j = etu_json ("%s", filter);
  GError *error = NULL;
  DdbNode *n = ddb_legacy_filter (j, NULL, &error);

  g_assert_null (n);
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  g_clear_error (&error);
  json_decref (j);
}

/* ---- Expected ----------------------------------------------------------------------- */

static void
test_expected_value_short_form (void)
{
  g_autoptr (DdbNode) n = expected_ok ("{'a': {'Value': {'S': 'x'}}}", NULL);
  g_autoptr (DdbNode) t = expected_ok ("{'a': {'Value': {'N': '1'}, 'Exists': true}}", NULL);

  g_assert_true (holds (n, "{'a': {'S': 'x'}}"));
  g_assert_false (holds (n, "{'a': {'S': 'y'}}"));
  g_assert_false (holds (n, "{'b': {'S': 'x'}}"));
  g_assert_false (holds (n, NULL));
  g_assert_true (holds (t, "{'a': {'N': '1.0'}}"));
  g_assert_false (holds (t, "{'a': {'S': '1'}}"));
}

static void
test_expected_exists_false (void)
{
  g_autoptr (DdbNode) n = expected_ok ("{'a': {'Exists': false}}", NULL);
  g_autoptr (DdbNode) s = expected_ok ("{'a': {'Exists': 'no'}}", NULL);

  g_assert_true (holds (n, NULL));
  g_assert_true (holds (n, "{'b': {'S': 'x'}}"));
  g_assert_false (holds (n, "{'a': {'NULL': true}}"));
  g_assert_true (holds (s, "{'b': {'S': 'x'}}"));
}

static void
test_expected_short_form_errors (void)
{
  expected_fails ("{'a': {'Exists': true}}", NULL, DDB_ERROR_VALIDATION,
                  ENVELOPE INVALID "Value must be provided when Exists is true for Attribute: a");
  expected_fails ("{'a': {}}", NULL, DDB_ERROR_VALIDATION,
                  ENVELOPE INVALID "Value must be provided when Exists is null for Attribute: a");
  expected_fails ("{'a': {'Exists': false, 'Value': {'S': 'x'}}}", NULL, DDB_ERROR_VALIDATION,
                  ENVELOPE INVALID "Value cannot be used when Exists is false for Attribute: a");
  expected_fails ("{'a': {'AttributeValueList': [{'S': 'x'}]}}", NULL, DDB_ERROR_VALIDATION,
                  ENVELOPE INVALID "AttributeValueList can only be used with a "
                                   "ComparisonOperator for Attribute: a");
  expected_fails ("{'a': {'Value': {'S': 'x'}, 'ComparisonOperator': 'EQ', "
                  "'AttributeValueList': [{'S': 'x'}]}}",
                  NULL, DDB_ERROR_VALIDATION,
                  ENVELOPE INVALID "Value and AttributeValueList cannot be used together for "
                                   "Attribute: a");
  expected_fails ("{'a': {'Exists': true, 'ComparisonOperator': 'NOT_NULL'}}", NULL,
                  DDB_ERROR_VALIDATION,
                  ENVELOPE INVALID "Exists and ComparisonOperator cannot be used together for "
                                   "Attribute: a");
  expected_fails ("{'a': {'ComparisonOperator': 'EQ'}}", NULL, DDB_ERROR_VALIDATION,
                  ENVELOPE INVALID "Value or AttributeValueList must be used with "
                                   "ComparisonOperator: EQ for Attribute: a");
  expected_fails ("{'a': {'ComparisonOperator': 'BETWEEN', 'AttributeValueList': [{'S': 'x'}]}}",
                  NULL, DDB_ERROR_VALIDATION,
                  ENVELOPE INVALID "Invalid number of argument(s) for the BETWEEN "
                                   "ComparisonOperator");
  expected_fails ("{'a': {'ComparisonOperator': 'LIKE', 'AttributeValueList': [{'S': 'x'}]}}",
                  NULL, DDB_ERROR_VALIDATION,
                  ENVELOPE "Value 'LIKE' at 'expected.a.member.comparisonOperator' failed to "
                           "satisfy constraint: Member must satisfy enum value set: [IN, NULL, "
                           "BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, "
                           "GE, CONTAINS]");
  expected_fails ("{'a': {'Exists': 'maybe', 'Value': {'S': 'x'}}}", NULL,
                  DDB_ERROR_SERIALIZATION, "'MAYBE' can not be converted to an Boolean");
  expected_fails ("{'a': {'Value': {'N': 'abc'}}}", NULL, DDB_ERROR_VALIDATION,
                  "The parameter cannot be converted to a numeric value: abc");
  expected_fails ("{'a': []}", NULL, DDB_ERROR_SERIALIZATION,
                  "Start of list found where not expected");
}

static void
test_expected_comparison_operator (void)
{
  /* A lone Value stands for a one-element AttributeValueList. */
  g_autoptr (DdbNode) gt = expected_ok ("{'n': {'ComparisonOperator': 'GT', 'Value': {'N': '5'}}}",
                                        NULL);
  g_autoptr (DdbNode) nn = expected_ok ("{'n': {'ComparisonOperator': 'NULL'}}", NULL);

  g_assert_true (holds (gt, "{'n': {'N': '6'}}"));
  g_assert_false (holds (gt, "{'n': {'N': '5'}}"));
  g_assert_true (holds (nn, "{'m': {'N': '5'}}"));
  g_assert_false (holds (nn, "{'n': {'N': '5'}}"));
}

static void
test_expected_conditional_operator (void)
{
  const char *two = "{'a': {'Value': {'S': 'x'}}, 'b': {'Exists': false}}";
  g_autoptr (DdbNode) and_ = expected_ok (two, NULL);
  g_autoptr (DdbNode) and2 = expected_ok (two, "AND");
  g_autoptr (DdbNode) or_ = expected_ok (two, "OR");

  g_assert_true (holds (and_, "{'a': {'S': 'x'}}"));
  g_assert_false (holds (and_, "{'a': {'S': 'x'}, 'b': {'S': 'x'}}"));
  g_assert_false (holds (and2, "{'a': {'S': 'x'}, 'b': {'S': 'x'}}"));
  g_assert_true (holds (or_, "{'a': {'S': 'x'}, 'b': {'S': 'x'}}"));
  g_assert_true (holds (or_, "{'a': {'S': 'y'}}"));
  g_assert_false (holds (or_, "{'a': {'S': 'y'}, 'b': {'S': 'x'}}"));

  expected_fails ("{'a': {'Value': {'S': 'x'}}}", "OR", DDB_ERROR_VALIDATION,
                  "ConditionalOperator can only be used when Filter or Expected has two or more "
                  "elements");
  expected_fails ("{}", "AND", DDB_ERROR_VALIDATION,
                  "ConditionalOperator cannot be used without Filter or Expected");
  expected_fails (two, "XOR", DDB_ERROR_VALIDATION,
                  ENVELOPE "Value 'XOR' at 'conditionalOperator' failed to satisfy constraint: "
                           "Member must satisfy enum value set: [OR, AND]");
}

static void
test_expected_empty (void)
{
  json_t *j = etu_json ("{}");
  GError *error = NULL;

  g_assert_null (ddb_legacy_expected (j, NULL, &error));
  g_assert_no_error (error);
  g_assert_null (ddb_legacy_expected (NULL, NULL, &error));
  g_assert_no_error (error);
  json_decref (j);
}

static void
test_names_literal (void)
{
  /* Reserved words and dots are plain attribute names here. */
  g_autoptr (DdbNode) n = expected_ok ("{'size': {'Value': {'S': 'x'}}, 'a.b': {'Exists': true, "
                                       "'Value': {'N': '1'}}}",
                                       NULL);

  g_assert_true (holds (n, "{'size': {'S': 'x'}, 'a.b': {'N': '1'}}"));
  g_assert_false (holds (n, "{'size': {'S': 'x'}, 'a': {'M': {'b': {'N': '1'}}}}"));
}

/* ---- Filters -------------------------------------------------------------------------- */

static gboolean
filter_holds (const char *cond, const char *item)
{
  g_autofree char *filter = g_strdup_printf ("{'a': %s}", cond);
  g_autoptr (DdbNode) n = filter_ok (filter, NULL);

  return holds (n, item);
}

static void
test_filter_operators (void)
{
  g_assert_true (filter_holds ("{'ComparisonOperator': 'EQ', 'AttributeValueList': [{'N': '1'}]}",
                               "{'a': {'N': '1.0'}}"));
  g_assert_true (filter_holds ("{'ComparisonOperator': 'EQ', 'AttributeValueList': "
                               "[{'L': [{'BOOL': true}]}]}",
                               "{'a': {'L': [{'BOOL': true}]}}"));
  g_assert_true (filter_holds ("{'ComparisonOperator': 'NE', 'AttributeValueList': [{'N': '1'}]}",
                               "{'b': {'N': '1'}}"));
  g_assert_false (filter_holds ("{'ComparisonOperator': 'NE', 'AttributeValueList': [{'N': '1'}]}",
                                "{'a': {'N': '1'}}"));
  g_assert_true (filter_holds ("{'ComparisonOperator': 'LE', 'AttributeValueList': [{'N': '2'}]}",
                               "{'a': {'N': '2'}}"));
  g_assert_false (filter_holds ("{'ComparisonOperator': 'LT', 'AttributeValueList': [{'N': '2'}]}",
                                "{'a': {'N': '2'}}"));
  g_assert_true (filter_holds ("{'ComparisonOperator': 'GE', 'AttributeValueList': [{'S': 'b'}]}",
                               "{'a': {'S': 'b'}}"));
  g_assert_false (filter_holds ("{'ComparisonOperator': 'GT', 'AttributeValueList': [{'S': 'b'}]}",
                                "{'a': {'S': 'b'}}"));
  g_assert_false (filter_holds ("{'ComparisonOperator': 'GT', 'AttributeValueList': [{'S': 'b'}]}",
                                "{'a': {'N': '3'}}"));
  g_assert_true (filter_holds ("{'ComparisonOperator': 'NOT_NULL'}", "{'a': {'NULL': true}}"));
  g_assert_false (filter_holds ("{'ComparisonOperator': 'NULL'}", "{'a': {'NULL': true}}"));
  g_assert_true (filter_holds ("{'ComparisonOperator': 'NULL'}", "{'b': {'NULL': true}}"));
  g_assert_true (filter_holds ("{'ComparisonOperator': 'CONTAINS', 'AttributeValueList': "
                               "[{'S': 'ell'}]}",
                               "{'a': {'S': 'hello'}}"));
  g_assert_true (filter_holds ("{'ComparisonOperator': 'CONTAINS', 'AttributeValueList': "
                               "[{'N': '2'}]}",
                               "{'a': {'NS': ['1', '2']}}"));
  g_assert_false (filter_holds ("{'ComparisonOperator': 'NOT_CONTAINS', 'AttributeValueList': "
                                "[{'S': 'ell'}]}",
                                "{'a': {'S': 'hello'}}"));
  /* On a missing attribute NOT_CONTAINS fails (DynamoDB Local 2.x: a ScanFilter drops the item,
   * Expected fails the condition), where the expression NOT contains(a, :v) holds. */
  g_assert_false (filter_holds ("{'ComparisonOperator': 'NOT_CONTAINS', 'AttributeValueList': "
                                "[{'S': 'ell'}]}",
                                "{'b': {'S': 'hello'}}"));
  g_assert_true (filter_holds ("{'ComparisonOperator': 'NOT_CONTAINS', 'AttributeValueList': "
                               "[{'S': 'ell'}]}",
                               "{'a': {'N': '3'}}"));
  g_assert_true (filter_holds ("{'ComparisonOperator': 'BEGINS_WITH', 'AttributeValueList': "
                               "[{'S': 'he'}]}",
                               "{'a': {'S': 'hello'}}"));
  g_assert_false (filter_holds ("{'ComparisonOperator': 'BEGINS_WITH', 'AttributeValueList': "
                                "[{'S': 'el'}]}",
                                "{'a': {'S': 'hello'}}"));
  g_assert_true (filter_holds ("{'ComparisonOperator': 'IN', 'AttributeValueList': "
                               "[{'N': '1'}, {'N': '3'}]}",
                               "{'a': {'N': '3'}}"));
  g_assert_false (filter_holds ("{'ComparisonOperator': 'IN', 'AttributeValueList': "
                                "[{'N': '1'}, {'N': '3'}]}",
                                "{'a': {'N': '2'}}"));
  g_assert_true (filter_holds ("{'ComparisonOperator': 'BETWEEN', 'AttributeValueList': "
                               "[{'N': '1'}, {'N': '3'}]}",
                               "{'a': {'N': '3'}}"));
  g_assert_false (filter_holds ("{'ComparisonOperator': 'BETWEEN', 'AttributeValueList': "
                                "[{'N': '1'}, {'N': '3'}]}",
                                "{'a': {'N': '4'}}"));
}

static void
test_filter_errors (void)
{
  /* An empty attribute name, as a condition's key or inside a value; values' messages carry
   * no attribute path. */
  filter_fails ("{'': {'ComparisonOperator': 'EQ', 'AttributeValueList': [{'S': 'x'}]}}",
                "Empty attribute name");
  filter_fails ("{'a': {'ComparisonOperator': 'EQ', 'AttributeValueList': [{'M': {'': {'S': "
                "'x'}}}]}}",
                "Empty attribute name");
  filter_fails ("{'a': {'ComparisonOperator': 'EQ', 'AttributeValueList': [{'N': 'x'}]}}",
                "The parameter cannot be converted to a numeric value: x");
  filter_fails ("{'a': {'ComparisonOperator': 'EQ'}}",
                INVALID "Invalid number of argument(s) for the EQ ComparisonOperator");
  filter_fails ("{'a': {'ComparisonOperator': 'NULL', 'AttributeValueList': [{'S': 'x'}]}}",
                INVALID "Invalid number of argument(s) for the NULL ComparisonOperator");
  filter_fails ("{'a': {'ComparisonOperator': 'IN', 'AttributeValueList': []}}",
                INVALID "Invalid number of argument(s) for the IN ComparisonOperator");
  filter_fails ("{'a': {'ComparisonOperator': 'BEGINS_WITH', 'AttributeValueList': [{'N': '1'}]}}",
                INVALID "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type");
  filter_fails ("{'a': {'ComparisonOperator': 'LT', 'AttributeValueList': [{'SS': ['x']}]}}",
                INVALID "ComparisonOperator LT is not valid for SS AttributeValue type");
  filter_fails ("{'a': {'ComparisonOperator': 'CONTAINS', 'AttributeValueList': "
                "[{'BOOL': true}]}}",
                INVALID "ComparisonOperator CONTAINS is not valid for BOOL AttributeValue type");
  filter_fails ("{'a': {'ComparisonOperator': 'IN', 'AttributeValueList': [{'S': 'x'}, "
                "{'N': '1'}]}}",
                INVALID "AttributeValues inside AttributeValueList must be of same type");
  filter_fails ("{'a': {'ComparisonOperator': 'BETWEEN', 'AttributeValueList': [{'N': '3'}, "
                "{'N': '1'}]}}",
                "The BETWEEN condition was provided a range where the lower bound is greater "
                "than the upper bound");
  filter_fails ("{'a': {'AttributeValueList': [{'N': '3'}]}}",
                ENVELOPE "Value null at 'filter.a.member.comparisonOperator' failed to satisfy "
                         "constraint: Member must not be null");
  filter_fails ("{'a': {'ComparisonOperator': 'EQ', 'AttributeValueList': [{'SS': []}]}}",
                INVALID "An string set  may not be empty");
}

/* ---- KeyConditions ------------------------------------------------------------------ */

static void
test_key_conditions (void)
{
  json_t *j = etu_json ("{'pk': {'ComparisonOperator': 'EQ', 'AttributeValueList': [{'S': 'p'}]}, "
                        "'sk': {'ComparisonOperator': 'BETWEEN', 'AttributeValueList': "
                        "[{'N': '1'}, {'N': '5'}]}}");
  DdbKeySchema schema = { "pk", DDB_TYPE_S, "sk", DDB_TYPE_N };
  DdbKeyCondition kc = { 0 };
  GError *error = NULL;
  g_autoptr (DdbNode) n = ddb_legacy_key_conditions (j, &error);
  g_autoptr (DdbValue) p = tu_str ("p");
  g_autoptr (DdbValue) five = tu_num ("5");

  g_assert_no_error (error);
  g_assert_true (ddb_key_condition_analyze (n, &schema, &kc, &error));
  g_assert_no_error (error);
  g_assert_true (ddb_value_equal (kc.pk, p));
  g_assert_cmpint (kc.sk_op, ==, DDB_SK_BETWEEN);
  g_assert_true (ddb_value_equal (kc.sk[1], five));
  ddb_key_condition_clear (&kc);
  json_decref (j);

  /* Only the partition key, by BEGINS_WITH: the tree is fine, the analysis refuses it. */
  j = etu_json (
      "{'pk': {'ComparisonOperator': 'BEGINS_WITH', 'AttributeValueList': [{'S': 'p'}]}}");
  {
    g_autoptr (DdbNode) m = ddb_legacy_key_conditions (j, &error);

    g_assert_no_error (error);
    g_assert_false (ddb_key_condition_analyze (m, &schema, &kc, &error));
    g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
    g_clear_error (&error);
  }
  json_decref (j);
}

static void
key_conditions_fail (const char *json, const char *message)
{
  json_t *j = etu_json ("%s", json);
  GError *error = NULL;

  g_assert_null (ddb_legacy_key_conditions (j, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  g_clear_error (&error);
  json_decref (j);
}

static void
test_key_conditions_errors (void)
{
  key_conditions_fail ("{'pk': {'ComparisonOperator': 'NE', 'AttributeValueList': [{'S': 'p'}]}}",
                       "Attempted conditional constraint is not an indexable operation");
  key_conditions_fail ("{'pk': {'ComparisonOperator': 'IN', 'AttributeValueList': [{'S': 'p'}]}}",
                       "Attempted conditional constraint is not an indexable operation");
  key_conditions_fail ("{}", "Conditions can be of length 1 or 2 only");
  key_conditions_fail ("{'a': {'ComparisonOperator': 'EQ', 'AttributeValueList': [{'S': 'p'}]}, "
                       "'b': {'ComparisonOperator': 'EQ', 'AttributeValueList': [{'S': 'p'}]}, "
                       "'c': {'ComparisonOperator': 'EQ', 'AttributeValueList': [{'S': 'p'}]}}",
                       "Conditions can be of length 1 or 2 only");
  key_conditions_fail ("{'a': {'ComparisonOperator': 'EQ', 'AttributeValueList': []}}",
                       INVALID "Invalid number of argument(s) for the EQ ComparisonOperator");
}

/* ---- AttributeUpdates --------------------------------------------------------------- */

static void
apply_updates (const char *updates, const char *before, const char *after)
{
  json_t *j = etu_json ("%s", updates);
  GError *error = NULL;
  g_autoptr (DdbUpdate) u = ddb_legacy_attribute_updates (j, &error);
  g_autoptr (DdbValue) item = tu_item (before);

  g_assert_no_error (error);
  g_assert_nonnull (u);
  g_assert_true (ddb_update_apply (u, item, &error));
  g_assert_no_error (error);
  tu_assert_item (item, after);
  json_decref (j);
}

static void
updates_fail (const char *updates, const char *message)
{
  json_t *j = etu_json ("%s", updates);
  GError *error = NULL;

  g_assert_null (ddb_legacy_attribute_updates (j, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  g_clear_error (&error);
  json_decref (j);
}

static void
test_attribute_updates (void)
{
  apply_updates ("{'a': {'Action': 'PUT', 'Value': {'S': 'x'}}, 'b': {'Value': {'N': '1'}}}",
                 "{'k': {'S': 'k'}, 'a': {'N': '1'}}",
                 "{'k': {'S': 'k'}, 'a': {'S': 'x'}, 'b': {'N': '1'}}");
  apply_updates ("{'a': {'Action': 'DELETE'}, 'zz': {'Action': 'DELETE'}}",
                 "{'k': {'S': 'k'}, 'a': {'N': '1'}}", "{'k': {'S': 'k'}}");
  apply_updates ("{'s': {'Action': 'DELETE', 'Value': {'SS': ['a', 'c']}}}",
                 "{'k': {'S': 'k'}, 's': {'SS': ['a', 'b']}}",
                 "{'k': {'S': 'k'}, 's': {'SS': ['b']}}");
  apply_updates ("{'n': {'Action': 'ADD', 'Value': {'N': '2.5'}}, 'm': {'Action': 'ADD', "
                 "'Value': {'N': '-1'}}}",
                 "{'k': {'S': 'k'}, 'n': {'N': '1'}}",
                 "{'k': {'S': 'k'}, 'n': {'N': '3.5'}, 'm': {'N': '-1'}}");
  apply_updates ("{'s': {'Action': 'ADD', 'Value': {'NS': ['1', '2']}}}",
                 "{'k': {'S': 'k'}, 's': {'NS': ['2', '3']}}",
                 "{'k': {'S': 'k'}, 's': {'NS': ['1', '2', '3']}}");
  /* ADD of a list appends (legacy semantics), creating the list when missing. */
  apply_updates ("{'l': {'Action': 'ADD', 'Value': {'L': [{'S': 'c'}]}}, 'new': {'Action': "
                 "'ADD', 'Value': {'L': [{'N': '1'}]}}}",
                 "{'k': {'S': 'k'}, 'l': {'L': [{'S': 'a'}, {'S': 'b'}]}}",
                 "{'k': {'S': 'k'}, 'l': {'L': [{'S': 'a'}, {'S': 'b'}, {'S': 'c'}]}, "
                 "'new': {'L': [{'N': '1'}]}}");
  /* Names are literal. */
  apply_updates ("{'a.b': {'Value': {'S': 'x'}}}", "{'k': {'S': 'k'}}",
                 "{'k': {'S': 'k'}, 'a.b': {'S': 'x'}}");
}

static void
test_attribute_updates_errors (void)
{
  json_t *j;
  GError *error = NULL;
  g_autoptr (DdbUpdate) u = NULL;
  g_autoptr (DdbValue) item = NULL;

  updates_fail ("{'a': {'Action': 'PUT'}}",
                INVALID "Only DELETE action is allowed when no attribute value is specified");
  updates_fail ("{'a': {'Action': 'ADD'}}",
                INVALID "Only DELETE action is allowed when no attribute value is specified");
  updates_fail ("{'a': {'Action': 'DELETE', 'Value': {'S': 'x'}}}",
                INVALID "DELETE action with value is not supported for the type S");
  updates_fail ("{'a': {'Action': 'ADD', 'Value': {'S': 'x'}}}",
                INVALID "ADD action is not supported for the type S");
  updates_fail ("{'a': {'Action': 'ADD', 'Value': {'M': {}}}}",
                INVALID "ADD action is not supported for the type M");
  updates_fail ("{'a': {'Action': 'SET', 'Value': {'S': 'x'}}}",
                ENVELOPE "Value 'SET' at 'attributeUpdates.a.member.action' failed to satisfy "
                         "constraint: Member must satisfy enum value set: [ADD, PUT, DELETE]");

  /* ADD of a number onto a string fails when applied, leaving the item alone. */
  j = etu_json ("{'a': {'Action': 'ADD', 'Value': {'N': '1'}}}");
  u = ddb_legacy_attribute_updates (j, &error);
  g_assert_no_error (error);
  item = tu_item ("{'a': {'S': 'x'}}");
  g_assert_false (ddb_update_apply (u, item, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_clear_error (&error);
  tu_assert_item (item, "{'a': {'S': 'x'}}");
  json_decref (j);
}

static void
test_attribute_updates_empty (void)
{
  json_t *j = etu_json ("{}");
  GError *error = NULL;
  g_autoptr (DdbUpdate) u = ddb_legacy_attribute_updates (j, &error);

  g_assert_no_error (error);
  g_assert_nonnull (u);
  g_assert_cmpuint (u->n_actions, ==, 0);
  json_decref (j);
}

/* ---- AttributesToGet ---------------------------------------------------------------- */

static void
test_attributes_to_get (void)
{
  json_t *j = etu_json ("['b', 'size', 'x.y', 'missing']");
  GError *error = NULL;
  g_autoptr (DdbProjection) p = ddb_legacy_attributes_to_get (j, &error);
  g_autoptr (DdbValue) item = tu_item ("{'a': {'N': '1'}, 'b': {'N': '2'}, 'size': {'S': 's'}, "
                                       "'x.y': {'S': 'dot'}, 'x': {'M': {'y': {'S': 'no'}}}}");
  g_autoptr (DdbValue) got = NULL;

  g_assert_no_error (error);
  got = ddb_projection_apply (p, item);
  tu_assert_item (got, "{'b': {'N': '2'}, 'size': {'S': 's'}, 'x.y': {'S': 'dot'}}");
  json_decref (j);

  j = etu_json ("['a', 'b', 'a']");
  g_assert_null (ddb_legacy_attributes_to_get (j, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   INVALID "Duplicate value in attribute name: a");
  g_clear_error (&error);
  json_decref (j);

  j = etu_json ("[]");
  g_assert_null (ddb_legacy_attributes_to_get (j, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   ENVELOPE "Value '[]' at 'attributesToGet' failed to satisfy constraint: "
                            "Member must have length greater than or equal to 1");
  g_clear_error (&error);
  json_decref (j);
}

/* ---- Mixing ----------------------------------------------------------------------- */

static void
mixed (const char *req_json, const char *message)
{
  json_t *j = etu_json ("%s", req_json);
  GError *error = NULL;

  if (message == NULL)
    {
      g_assert_true (ddb_legacy_check_not_mixed (j, &error));
      g_assert_no_error (error);
    }
  else
    {
      g_assert_false (ddb_legacy_check_not_mixed (j, &error));
      tu_assert_error (error, DDB_ERROR_VALIDATION, message);
      g_clear_error (&error);
    }
  json_decref (j);
}

#define MIX "Can not use both expression and non-expression parameters in the same request: "

static void
test_not_mixed (void)
{
  mixed ("{'Expected': {'a': {'Exists': false}}, 'ConditionExpression': 'attribute_exists(a)'}",
         MIX "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}");
  mixed ("{'AttributeUpdates': {}, 'Expected': {}, 'UpdateExpression': 'SET a = :a', "
         "'ConditionExpression': 'x'}",
         MIX "Non-expression parameters: {AttributeUpdates, Expected} Expression parameters: "
             "{UpdateExpression, ConditionExpression}");
  mixed ("{'AttributesToGet': ['a'], 'QueryFilter': {}, 'ConditionalOperator': 'AND', "
         "'KeyConditions': {}, 'ProjectionExpression': 'a', 'FilterExpression': 'b', "
         "'KeyConditionExpression': 'c'}",
         MIX "Non-expression parameters: {AttributesToGet, QueryFilter, ConditionalOperator, "
             "KeyConditions} Expression parameters: {ProjectionExpression, FilterExpression, "
             "KeyConditionExpression}");
  mixed ("{'AttributesToGet': ['a'], 'ScanFilter': {}, 'ProjectionExpression': 'a', "
         "'FilterExpression': 'b'}",
         MIX "Non-expression parameters: {AttributesToGet, ScanFilter} Expression parameters: "
             "{ProjectionExpression, FilterExpression}");
  /* KeyConditions with a FilterExpression is allowed; so is either style alone. */
  mixed ("{'KeyConditions': {}, 'FilterExpression': 'b'}", NULL);
  mixed ("{'Expected': {}, 'ConditionalOperator': 'OR', 'AttributesToGet': ['a']}", NULL);
  mixed ("{'ConditionExpression': 'a', 'ProjectionExpression': 'b', 'Expected': null}", NULL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/legacy/expected/value-short-form", test_expected_value_short_form);
  g_test_add_func ("/legacy/expected/exists-false", test_expected_exists_false);
  g_test_add_func ("/legacy/expected/short-form-errors", test_expected_short_form_errors);
  g_test_add_func ("/legacy/expected/comparison-operator", test_expected_comparison_operator);
  g_test_add_func ("/legacy/expected/conditional-operator", test_expected_conditional_operator);
  g_test_add_func ("/legacy/expected/empty", test_expected_empty);
  g_test_add_func ("/legacy/expected/names-literal", test_names_literal);
  g_test_add_func ("/legacy/filter/operators", test_filter_operators);
  g_test_add_func ("/legacy/filter/errors", test_filter_errors);
  g_test_add_func ("/legacy/key-conditions/analyze", test_key_conditions);
  g_test_add_func ("/legacy/key-conditions/errors", test_key_conditions_errors);
  g_test_add_func ("/legacy/attribute-updates/apply", test_attribute_updates);
  g_test_add_func ("/legacy/attribute-updates/errors", test_attribute_updates_errors);
  g_test_add_func ("/legacy/attribute-updates/empty", test_attribute_updates_empty);
  g_test_add_func ("/legacy/attributes-to-get", test_attributes_to_get);
  g_test_add_func ("/legacy/not-mixed", test_not_mixed);
  return g_test_run ();
}
