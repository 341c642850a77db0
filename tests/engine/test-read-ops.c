/* test-read-ops.c: Query and Scan through ddb_engine_call: key order, sort-key operators, Limit
 * and the 1 MB page counted before the filter, LastEvaluatedKey/ExclusiveStartKey paging,
 * parallel Scan segments, Select, secondary indexes, consumed capacity and DynamoDB's
 * validation messages. Figures marked "DynamoDB Local" were checked against DynamoDB Local
 * 1.25.1 with the same requests. */
#include <glib.h>
#include <jansson.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemsize.h"
#include "engine/engine-private.h"
#include "engine/engine.h"
#include "../core/test-util.h"
#include "engine-test-util.h"

/* ---- Helpers ---------------------------------------------------------------------------- */

/* Stores items (DynamoDB JSON, single quotes) straight through the store, in one transaction:
 * these tests are about reading. */
static void
put_items (DdbEngine *e, const char *table, const char *const *items, guint n)
{
  GError *error = NULL;
  g_autoptr (DdbTableDef) def = ddb_store_table_get (e->store, table, &error);

  g_assert_no_error (error);
  g_assert_true (ddb_store_begin (e->store, &error));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (DdbValue) item = tu_item (items[i]);

      g_assert_true (ddb_store_item_put (e->store, def, item, &error));
      g_assert_no_error (error);
    }
  g_assert_true (ddb_store_commit (e->store, &error));
}

G_GNUC_PRINTF (3, 4)
static void
put (DdbEngine *e, const char *table, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *text = NULL;
  const char *items[1];

  va_start (ap, fmt);
  text = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  items[0] = text;
  put_items (e, table, items, 1);
}

/* The value of a scalar attribute as text (S, N as written back, B in base64). */
static const char *
scalar_text (json_t *attr)
{
  const char *k;
  json_t *v;

  if (attr == NULL)
    return "-";
  json_object_foreach (attr, k, v)
    {
      if (json_is_string (v))
        return json_string_value (v);
    }
  return "?";
}

/* "a,b,c": attribute `name` of each returned item. */
static char *
column (json_t *resp, const char *name)
{
  GString *s = g_string_new (NULL);
  json_t *items = json_object_get (resp, "Items");
  size_t i;
  json_t *item;

  g_assert_true (json_is_array (items));
  json_array_foreach (items, i, item)
    {
      if (i > 0)
        g_string_append_c (s, ',');
      g_string_append (s, scalar_text (json_object_get (item, name)));
    }
  return g_string_free (s, FALSE);
}

static int
str_ptr_cmp (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Sorted attribute names of item `i`, "a,b,c". */
static char *
attr_names (json_t *resp, size_t i)
{
  json_t *item = json_array_get (json_object_get (resp, "Items"), i);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  GString *s = g_string_new (NULL);
  const char *k;
  json_t *v;

  g_assert_nonnull (item);
  json_object_foreach (item, k, v)
    g_ptr_array_add (names, (gpointer) k);
  g_ptr_array_sort (names, str_ptr_cmp);
  for (guint n = 0; n < names->len; n++)
    g_string_append_printf (s, "%s%s", n ? "," : "", (char *) names->pdata[n]);
  return g_string_free (s, FALSE);
}

static gint64
int_member (json_t *resp, const char *name)
{
  json_t *j = json_object_get (resp, name);

  g_assert_true (json_is_integer (j));
  return json_integer_value (j);
}

static void
assert_no_lek (json_t *resp)
{
  g_assert_null (json_object_get (resp, "LastEvaluatedKey"));
}

/* ---- The seed one-to-many table --------------------------------------------------------- */

static DdbEngine *
seed_engine (void)
{
  DdbEngine *e = etu_engine_new ();
  static const char *const items[] = {
    "{'EntityRef': {'S': 'WS#acme'}, 'Detail': {'S': 'META'}, 'name': {'S': 'Acme'}}",
    "{'EntityRef': {'S': 'WS#acme'}, 'Detail': {'S': 'PROJ#2026-0041'}, 'title': {'S': 'Bridge'},"
    " 'status': {'S': 'open'}}",
    "{'EntityRef': {'S': 'WS#acme'}, 'Detail': {'S': 'PROJ#2026-0040'}, 'title': {'S': 'Tunnel'},"
    " 'status': {'S': 'done'}}",
    "{'EntityRef': {'S': 'WS#acme'}, 'Detail': {'S': 'PROJ#2026-0042'}, 'title': {'S': 'Dam'},"
    " 'status': {'S': 'open'}}",
    "{'EntityRef': {'S': 'WS#zeta'}, 'Detail': {'S': 'PROJ#2026-0001'}, 'title': {'S': 'Road'}}",
    "{'EntityRef': {'S': 'WS#acm'}, 'Detail': {'S': 'PROJ#2026-0099'}, 'title': {'S': 'Near'}}",
  };

  json_decref (
      etu_ok (e, "CreateTable",
              "{'TableName': 'Seed', 'BillingMode': 'PAY_PER_REQUEST',"
              " 'AttributeDefinitions': [{'AttributeName': 'EntityRef', 'AttributeType': 'S'},"
              "  {'AttributeName': 'Detail', 'AttributeType': 'S'}],"
              " 'KeySchema': [{'AttributeName': 'EntityRef', 'KeyType': 'HASH'},"
              "  {'AttributeName': 'Detail', 'KeyType': 'RANGE'}]}"));
  put_items (e, "Seed", items, G_N_ELEMENTS (items));
  return e;
}

static void
test_seed_newest_first (void)
{
  g_autoptr (DdbEngine) e = seed_engine ();
  json_t *r;
  g_autofree char *details = NULL, *all = NULL;

  r = etu_ok (e, "Query",
              "{'TableName': 'Seed', 'KeyConditionExpression': '#er = :er AND begins_with(#d, :p)',"
              " 'ExpressionAttributeNames': {'#er': 'EntityRef', '#d': 'Detail'},"
              " 'ExpressionAttributeValues': {':er': {'S': 'WS#acme'}, ':p': {'S': 'PROJ#'}},"
              " 'ScanIndexForward': false}");
  details = column (r, "Detail");
  g_assert_cmpstr (details, ==, "PROJ#2026-0042,PROJ#2026-0041,PROJ#2026-0040");
  g_assert_cmpint (int_member (r, "Count"), ==, 3);
  g_assert_cmpint (int_member (r, "ScannedCount"), ==, 3);
  assert_no_lek (r);
  /* Whole items come back. */
  etu_assert_json (json_array_get (json_object_get (r, "Items"), 0),
                   "{'EntityRef': {'S': 'WS#acme'}, 'Detail': {'S': 'PROJ#2026-0042'},"
                   " 'title': {'S': 'Dam'}, 'status': {'S': 'open'}}");
  json_decref (r);

  /* The whole partition in key order: META sorts before PROJ#; no other partition leaks in
   * (WS#acm is a prefix of WS#acme, WS#zeta hashes elsewhere). */
  r = etu_ok (e, "Query",
              "{'TableName': 'Seed', 'KeyConditionExpression': 'EntityRef = :er',"
              " 'ExpressionAttributeValues': {':er': {'S': 'WS#acme'}}}");
  all = column (r, "Detail");
  g_assert_cmpstr (all, ==, "META,PROJ#2026-0040,PROJ#2026-0041,PROJ#2026-0042");
  json_decref (r);

  /* A partition that does not exist: empty, not an error. */
  r = etu_ok (e, "Query",
              "{'TableName': 'Seed', 'KeyConditionExpression': 'EntityRef = :er',"
              " 'ExpressionAttributeValues': {':er': {'S': 'WS#none'}}}");
  g_assert_cmpint (int_member (r, "Count"), ==, 0);
  g_assert_cmpint (int_member (r, "ScannedCount"), ==, 0);
  g_assert_cmpuint (json_array_size (json_object_get (r, "Items")), ==, 0);
  assert_no_lek (r);
  json_decref (r);
}

static void
test_projection_and_filter (void)
{
  g_autoptr (DdbEngine) e = seed_engine ();
  json_t *r;
  g_autofree char *titles = NULL;

  r = etu_ok (e, "Query",
              "{'TableName': 'Seed', 'KeyConditionExpression': 'EntityRef = :er',"
              " 'FilterExpression': '#s = :open', 'ProjectionExpression': 'title, Detail',"
              " 'ExpressionAttributeNames': {'#s': 'status'},"
              " 'ExpressionAttributeValues': {':er': {'S': 'WS#acme'}, ':open': {'S': 'open'}}}");
  titles = column (r, "title");
  g_assert_cmpstr (titles, ==, "Bridge,Dam");
  /* The filter runs after the read: ScannedCount counts all four. */
  g_assert_cmpint (int_member (r, "Count"), ==, 2);
  g_assert_cmpint (int_member (r, "ScannedCount"), ==, 4);
  {
    g_autofree char *names = attr_names (r, 0);
    g_assert_cmpstr (names, ==, "Detail,title");
  }
  json_decref (r);

  /* Select COUNT: the count only, no Items member. */
  r = etu_ok (e, "Query",
              "{'TableName': 'Seed', 'KeyConditionExpression': 'EntityRef = :er',"
              " 'FilterExpression': 'attribute_exists(title)', 'Select': 'COUNT',"
              " 'ExpressionAttributeValues': {':er': {'S': 'WS#acme'}}}");
  g_assert_null (json_object_get (r, "Items"));
  g_assert_cmpint (int_member (r, "Count"), ==, 3);
  g_assert_cmpint (int_member (r, "ScannedCount"), ==, 4);
  json_decref (r);

  /* Legacy parameters: KeyConditions, QueryFilter, AttributesToGet. */
  r = etu_ok (
      e, "Query",
      "{'TableName': 'Seed', 'KeyConditions': {"
      "  'EntityRef': {'ComparisonOperator': 'EQ', 'AttributeValueList': [{'S': 'WS#acme'}]},"
      "  'Detail': {'ComparisonOperator': 'BEGINS_WITH', 'AttributeValueList': [{'S': 'PROJ'}]}},"
      " 'QueryFilter': {'status': {'ComparisonOperator': 'EQ',"
      "  'AttributeValueList': [{'S': 'open'}]}}, 'AttributesToGet': ['Detail']}");
  {
    g_autofree char *d = column (r, "Detail");
    g_autofree char *names = attr_names (r, 1);
    g_assert_cmpstr (d, ==, "PROJ#2026-0041,PROJ#2026-0042");
    g_assert_cmpstr (names, ==, "Detail");
  }
  json_decref (r);

  /* KeyConditions with a FilterExpression is allowed (DynamoDB Local agrees). */
  r = etu_ok (
      e, "Query",
      "{'TableName': 'Seed', 'KeyConditions': {"
      "  'EntityRef': {'ComparisonOperator': 'EQ', 'AttributeValueList': [{'S': 'WS#acme'}]}},"
      " 'FilterExpression': 'title = :t', 'ExpressionAttributeValues': {':t': {'S': 'Dam'}}}");
  g_assert_cmpint (int_member (r, "Count"), ==, 1);
  json_decref (r);

  /* Scan with a filter and a projection. */
  r = etu_ok (e, "Scan",
              "{'TableName': 'Seed', 'FilterExpression': 'begins_with(title, :t)',"
              " 'ProjectionExpression': 'title', 'ExpressionAttributeValues': {':t': {'S': 'R'}}}");
  {
    g_autofree char *t = column (r, "title");
    g_assert_cmpstr (t, ==, "Road");
  }
  g_assert_cmpint (int_member (r, "ScannedCount"), ==, 6);
  json_decref (r);
}

/* ---- Key order and sort-key operators ----------------------------------------------------- */

static DdbEngine *
numbers_engine (void)
{
  DdbEngine *e = etu_engine_new ();
  /* rank = position in DynamoDB's numeric order; inserted out of order. */
  static const char *const nums[] = {
    "1E+100",
    "-1E+2",
    "0.001",
    "-1E-100",
    "10.5",
    "-10",
    "1E-100",
    "2",
    "-0.001",
    "0",
    "12345678901234567890123456789012345678",
    "1E1",
    "-1.5",
  };
  static const int ranks[] = { 12, 0, 7, 4, 10, 1, 6, 8, 3, 5, 11, 9, 2 };
  static const char *const bins[] = {
    "/wA=", "AA==", "gA==", "AQ==", "/w==", "AAE=", "fw==",
  };
  static const int bin_ranks[] = { 6, 0, 4, 2, 5, 1, 3 };

  json_decref (etu_ok (e, "CreateTable",
                       "{'TableName': 'Nums', 'BillingMode': 'PAY_PER_REQUEST',"
                       " 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'},"
                       "  {'AttributeName': 'sk', 'AttributeType': 'N'}],"
                       " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
                       "  {'AttributeName': 'sk', 'KeyType': 'RANGE'}]}"));
  json_decref (etu_ok (e, "CreateTable",
                       "{'TableName': 'Bins', 'BillingMode': 'PAY_PER_REQUEST',"
                       " 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'},"
                       "  {'AttributeName': 'sk', 'AttributeType': 'B'}],"
                       " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
                       "  {'AttributeName': 'sk', 'KeyType': 'RANGE'}]}"));
  for (guint i = 0; i < G_N_ELEMENTS (nums); i++)
    put (e, "Nums", "{'pk': {'S': 'n'}, 'sk': {'N': '%s'}, 'rank': {'S': 'r%d'}}", nums[i],
         ranks[i]);
  for (guint i = 0; i < G_N_ELEMENTS (bins); i++)
    put (e, "Bins", "{'pk': {'S': 'b'}, 'sk': {'B': '%s'}, 'rank': {'S': 'r%d'}}", bins[i],
         bin_ranks[i]);
  return e;
}

/* Ranks returned by a Query on Nums with `cond` and `values` (one more ':x' value map member). */
static char *
num_query (DdbEngine *e, const char *cond, const char *values, gboolean forward)
{
  json_t *r
      = etu_ok (e, "Query",
                "{'TableName': 'Nums', 'KeyConditionExpression': 'pk = :pk AND %s',"
                " 'ExpressionAttributeValues': {':pk': {'S': 'n'}%s}, 'ScanIndexForward': %s}",
                cond, values, forward ? "true" : "false");
  char *ranks = column (r, "rank");

  json_decref (r);
  return ranks;
}

static void
test_sort_order_numbers_and_binary (void)
{
  g_autoptr (DdbEngine) e = numbers_engine ();
  json_t *r;

  r = etu_ok (e, "Query",
              "{'TableName': 'Nums', 'KeyConditionExpression': 'pk = :pk',"
              " 'ExpressionAttributeValues': {':pk': {'S': 'n'}}}");
  {
    g_autofree char *ranks = column (r, "rank");
    g_assert_cmpstr (ranks, ==, "r0,r1,r2,r3,r4,r5,r6,r7,r8,r9,r10,r11,r12");
  }
  json_decref (r);
  r = etu_ok (
      e, "Query",
      "{'TableName': 'Nums', 'KeyConditionExpression': 'pk = :pk', 'ScanIndexForward': false,"
      " 'ExpressionAttributeValues': {':pk': {'S': 'n'}}}");
  {
    g_autofree char *ranks = column (r, "rank");
    g_assert_cmpstr (ranks, ==, "r12,r11,r10,r9,r8,r7,r6,r5,r4,r3,r2,r1,r0");
  }
  json_decref (r);

  /* Binary sort keys by unsigned bytes: 00 < 00 01 < 01 < 7f < 80 < ff < ff 00. */
  r = etu_ok (e, "Query",
              "{'TableName': 'Bins', 'KeyConditionExpression': 'pk = :pk',"
              " 'ExpressionAttributeValues': {':pk': {'S': 'b'}}}");
  {
    g_autofree char *ranks = column (r, "rank");
    g_assert_cmpstr (ranks, ==, "r0,r1,r2,r3,r4,r5,r6");
  }
  json_decref (r);
  r = etu_ok (e, "Query",
              "{'TableName': 'Bins', 'KeyConditionExpression': 'pk = :pk AND begins_with(sk, :p)',"
              " 'ExpressionAttributeValues': {':pk': {'S': 'b'}, ':p': {'B': '/w=='}}}");
  {
    g_autofree char *ranks = column (r, "rank");
    g_assert_cmpstr (ranks, ==, "r5,r6");
  }
  json_decref (r);
  r = etu_ok (e, "Query",
              "{'TableName': 'Bins', 'KeyConditionExpression': 'pk = :pk AND sk > :v',"
              " 'ExpressionAttributeValues': {':pk': {'S': 'b'}, ':v': {'B': 'AA=='}}}");
  {
    g_autofree char *ranks = column (r, "rank");
    g_assert_cmpstr (ranks, ==, "r1,r2,r3,r4,r5,r6");
  }
  json_decref (r);
}

static void
test_sort_key_operators (void)
{
  g_autoptr (DdbEngine) e = numbers_engine ();
  struct {
    const char *cond, *values;
    gboolean forward;
    const char *expected;
  } cases[] = {
    /* Numeric equality: 10.0 is the key 1E1. */
    { "sk = :v", ", ':v': {'N': '10.0'}", TRUE, "r9" },
    { "sk = :v", ", ':v': {'N': '3'}", TRUE, "" },
    { "sk < :v", ", ':v': {'N': '0'}", TRUE, "r0,r1,r2,r3,r4" },
    { "sk < :v", ", ':v': {'N': '0'}", FALSE, "r4,r3,r2,r1,r0" },
    { "sk <= :v", ", ':v': {'N': '0'}", TRUE, "r0,r1,r2,r3,r4,r5" },
    { "sk > :v", ", ':v': {'N': '10'}", TRUE, "r10,r11,r12" },
    { "sk >= :v", ", ':v': {'N': '10'}", TRUE, "r9,r10,r11,r12" },
    { "sk BETWEEN :a AND :b", ", ':a': {'N': '-1.5'}, ':b': {'N': '2'}", TRUE,
      "r2,r3,r4,r5,r6,r7,r8" },
    { "sk BETWEEN :a AND :b", ", ':a': {'N': '-1.5'}, ':b': {'N': '2'}", FALSE,
      "r8,r7,r6,r5,r4,r3,r2" },
    { "sk BETWEEN :a AND :b", ", ':a': {'N': '2'}, ':b': {'N': '2'}", TRUE, "r8" },
    /* The value written first: ":v > sk" is "sk < :v". */
    { ":v > sk", ", ':v': {'N': '-1.5'}", TRUE, "r0,r1" },
    { ":v <= sk", ", ':v': {'N': '1E+100'}", TRUE, "r12" },
    { "sk > :v", ", ':v': {'N': '1E+100'}", TRUE, "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = num_query (e, cases[i].cond, cases[i].values, cases[i].forward);

      if (g_strcmp0 (got, cases[i].expected) != 0)
        g_error ("%s%s: got %s, expected %s", cases[i].cond, cases[i].values, got,
                 cases[i].expected);
    }
}

static void
test_begins_with_strings (void)
{
  g_autoptr (DdbEngine) e = seed_engine ();
  json_t *r;

  r = etu_ok (e, "Query",
              "{'TableName': 'Seed', 'KeyConditionExpression': 'EntityRef = :e AND"
              " begins_with(Detail, :p)', 'ExpressionAttributeValues': {':e': {'S': 'WS#acme'},"
              " ':p': {'S': 'PROJ#2026-004'}}}");
  {
    g_autofree char *d = column (r, "Detail");
    g_assert_cmpstr (d, ==, "PROJ#2026-0040,PROJ#2026-0041,PROJ#2026-0042");
  }
  json_decref (r);
  r = etu_ok (e, "Query",
              "{'TableName': 'Seed', 'KeyConditionExpression': 'EntityRef = :e AND"
              " Detail BETWEEN :a AND :b', 'ExpressionAttributeValues': {':e': {'S': 'WS#acme'},"
              " ':a': {'S': 'N'}, ':b': {'S': 'PROJ#2026-0041'}}}");
  {
    g_autofree char *d = column (r, "Detail");
    g_assert_cmpstr (d, ==, "PROJ#2026-0040,PROJ#2026-0041");
  }
  json_decref (r);
}

/* ---- Limit, LastEvaluatedKey and ExclusiveStartKey ---------------------------------------- */

static void
test_limit_counts_items_read (void)
{
  g_autoptr (DdbEngine) e = seed_engine ();
  json_t *r;

  /* Limit 2 with a filter that keeps nothing: an empty page that still says where to go on
   * (DynamoDB Local gives the same). */
  r = etu_ok (e, "Query",
              "{'TableName': 'Seed', 'KeyConditionExpression': 'EntityRef = :e', 'Limit': 2,"
              " 'FilterExpression': 'attribute_exists(nothing)',"
              " 'ExpressionAttributeValues': {':e': {'S': 'WS#acme'}}}");
  g_assert_cmpint (int_member (r, "Count"), ==, 0);
  g_assert_cmpint (int_member (r, "ScannedCount"), ==, 2);
  g_assert_cmpuint (json_array_size (json_object_get (r, "Items")), ==, 0);
  etu_assert_json (json_object_get (r, "LastEvaluatedKey"),
                   "{'EntityRef': {'S': 'WS#acme'}, 'Detail': {'S': 'PROJ#2026-0040'}}");
  json_decref (r);

  /* Continuing from there. */
  r = etu_ok (
      e, "Query",
      "{'TableName': 'Seed', 'KeyConditionExpression': 'EntityRef = :e', 'Limit': 2,"
      " 'ExclusiveStartKey': {'EntityRef': {'S': 'WS#acme'}, 'Detail': {'S': 'PROJ#2026-0040'}},"
      " 'ExpressionAttributeValues': {':e': {'S': 'WS#acme'}}}");
  {
    g_autofree char *d = column (r, "Detail");
    g_assert_cmpstr (d, ==, "PROJ#2026-0041,PROJ#2026-0042");
  }
  /* Limit reached on the partition's last item: DynamoDB does not look ahead, so the page
   * carries a LastEvaluatedKey (DynamoDB Local: same) ... */
  etu_assert_json (json_object_get (r, "LastEvaluatedKey"),
                   "{'EntityRef': {'S': 'WS#acme'}, 'Detail': {'S': 'PROJ#2026-0042'}}");
  json_decref (r);

  /* ... and the next page is empty, without one. */
  r = etu_ok (
      e, "Query",
      "{'TableName': 'Seed', 'KeyConditionExpression': 'EntityRef = :e', 'Limit': 2,"
      " 'ExclusiveStartKey': {'EntityRef': {'S': 'WS#acme'}, 'Detail': {'S': 'PROJ#2026-0042'}},"
      " 'ExpressionAttributeValues': {':e': {'S': 'WS#acme'}}}");
  g_assert_cmpint (int_member (r, "Count"), ==, 0);
  g_assert_cmpint (int_member (r, "ScannedCount"), ==, 0);
  assert_no_lek (r);
  json_decref (r);

  /* A Limit larger than what there is: no LastEvaluatedKey. */
  r = etu_ok (e, "Query",
              "{'TableName': 'Seed', 'KeyConditionExpression': 'EntityRef = :e', 'Limit': 5,"
              " 'ExpressionAttributeValues': {':e': {'S': 'WS#acme'}}}");
  g_assert_cmpint (int_member (r, "Count"), ==, 4);
  assert_no_lek (r);
  json_decref (r);

  /* Backwards paging: ExclusiveStartKey continues strictly after, in the reading direction. */
  r = etu_ok (e, "Query",
              "{'TableName': 'Seed', 'KeyConditionExpression': 'EntityRef = :e', 'Limit': 2,"
              " 'ScanIndexForward': false, 'ExclusiveStartKey': {'EntityRef': {'S': 'WS#acme'},"
              " 'Detail': {'S': 'PROJ#2026-0041'}}, 'ExpressionAttributeValues': {':e': {'S': "
              "'WS#acme'}}}");
  {
    g_autofree char *d = column (r, "Detail");
    g_assert_cmpstr (d, ==, "PROJ#2026-0040,META");
  }
  json_decref (r);

  /* Select COUNT with Limit: LastEvaluatedKey too. */
  r = etu_ok (e, "Scan", "{'TableName': 'Seed', 'Select': 'COUNT', 'Limit': 6}");
  g_assert_cmpint (int_member (r, "Count"), ==, 6);
  g_assert_nonnull (json_object_get (r, "LastEvaluatedKey"));
  json_decref (r);
}

/* Items of the Big table: about 10 KB each, of varying sizes. */
static char *
big_item (guint i, gboolean uniform)
{
  guint len = uniform ? 10000 : 9000 + (i * 37) % 2000;
  g_autofree char *data = g_strnfill (len, 'x');

  return g_strdup_printf ("{'pk': {'S': 'p'}, 'sk': {'N': '%u'}, 'data': {'S': '%s'}}", i, data);
}

static DdbEngine *
big_engine (guint n, gboolean uniform, gsize *sizes)
{
  DdbEngine *e = etu_engine_new ();
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_free);

  json_decref (etu_ok (e, "CreateTable",
                       "{'TableName': 'Big', 'BillingMode': 'PAY_PER_REQUEST',"
                       " 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'},"
                       "  {'AttributeName': 'sk', 'AttributeType': 'N'}],"
                       " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
                       "  {'AttributeName': 'sk', 'KeyType': 'RANGE'}]}"));
  for (guint i = 0; i < n; i++)
    {
      char *text = big_item (i, uniform);

      if (sizes != NULL)
        {
          g_autoptr (DdbValue) v = tu_item (text);
          sizes[i] = ddb_item_size (v);
        }
      g_ptr_array_add (items, text);
    }
  put_items (e, "Big", (const char *const *) items->pdata, items->len);
  return e;
}

/* Pages a Query (or Scan) over Big with Select COUNT; checks each page against the rule:
 * a page ends with the item that brings the bytes read to 1 MB or more. */
static void
check_big_pages (DdbEngine *e, const char *op, guint n, const gsize *sizes)
{
  g_autofree char *lek = NULL;
  guint next = 0, pages = 0;

  while (TRUE)
    {
      guint expect_end = next;
      gsize bytes = 0;
      json_t *r;
      json_t *cc;
      double expect_units;

      while (expect_end < n && bytes < 1024 * 1024)
        bytes += sizes[expect_end++];
      if (g_str_equal (op, "Query"))
        r = etu_ok (
            e, op,
            "{'TableName': 'Big', 'KeyConditionExpression': 'pk = :p', 'Select': 'COUNT',"
            " 'ReturnConsumedCapacity': 'TOTAL', 'ExpressionAttributeValues': {':p': {'S': 'p'}}"
            "%s%s%s}",
            lek ? ", 'ExclusiveStartKey': " : "", lek ? lek : "", "");
      else
        r = etu_ok (
            e, op, "{'TableName': 'Big', 'Select': 'COUNT', 'ReturnConsumedCapacity': 'TOTAL'%s%s}",
            lek ? ", 'ExclusiveStartKey': " : "", lek ? lek : "");
      g_assert_cmpint (int_member (r, "ScannedCount"), ==, expect_end - next);
      g_assert_cmpint (int_member (r, "Count"), ==, expect_end - next);
      /* One rounding per call, on the bytes read, halved (eventually consistent). */
      expect_units = (double) ((bytes + 4095) / 4096) / 2;
      cc = json_object_get (json_object_get (r, "ConsumedCapacity"), "CapacityUnits");
      g_assert_true (json_is_number (cc));
      g_assert_cmpfloat (json_number_value (cc), ==, MAX (expect_units, 0.5));
      g_clear_pointer (&lek, g_free);
      if (bytes >= 1024 * 1024)
        {
          json_t *k = json_object_get (r, "LastEvaluatedKey");
          g_autofree char *sk = g_strdup_printf ("%u", expect_end - 1);

          g_assert_nonnull (k);
          g_assert_cmpstr (scalar_text (json_object_get (k, "sk")), ==, sk);
          lek = json_dumps (k, JSON_COMPACT);
          g_strdelimit (lek, "\"", '\'');
        }
      else
        assert_no_lek (r);
      json_decref (r);
      next = expect_end;
      pages++;
      if (lek == NULL)
        break;
    }
  g_assert_cmpuint (next, ==, n);
  g_assert_cmpuint (pages, >=, 3);
}

static void
test_one_megabyte_pages (void)
{
  gsize sizes[300];
  g_autoptr (DdbEngine) e = big_engine (300, FALSE, sizes);

  check_big_pages (e, "Query", 300, sizes);
  check_big_pages (e, "Scan", 300, sizes);
}

static void
test_one_megabyte_pages_like_dynamodb_local (void)
{
  gsize sizes[300];
  g_autoptr (DdbEngine) e = big_engine (300, TRUE, sizes);
  json_t *r;

  /* 300 items of 10 000 characters: DynamoDB Local pages them 105, 105, 90 with 128.5,
   * 128.5 and 110 units. */
  r = etu_ok (
      e, "Query",
      "{'TableName': 'Big', 'KeyConditionExpression': 'pk = :p',"
      " 'ReturnConsumedCapacity': 'TOTAL', 'ExpressionAttributeValues': {':p': {'S': 'p'}}}");
  g_assert_cmpint (int_member (r, "ScannedCount"), ==, 105);
  g_assert_cmpuint (json_array_size (json_object_get (r, "Items")), ==, 105);
  etu_assert_json (json_object_get (r, "LastEvaluatedKey"),
                   "{'pk': {'S': 'p'}, 'sk': {'N': '104'}}");
  etu_assert_json (json_object_get (r, "ConsumedCapacity"),
                   "{'TableName': 'Big', 'CapacityUnits': 128.5}");
  json_decref (r);
  check_big_pages (e, "Query", 300, sizes);

  /* The filter does not change what is read. */
  r = etu_ok (e, "Scan",
              "{'TableName': 'Big', 'FilterExpression': 'sk = :none',"
              " 'ExpressionAttributeValues': {':none': {'N': '-1'}}}");
  g_assert_cmpint (int_member (r, "ScannedCount"), ==, 105);
  g_assert_cmpint (int_member (r, "Count"), ==, 0);
  g_assert_nonnull (json_object_get (r, "LastEvaluatedKey"));
  json_decref (r);

  /* Strongly consistent reads cost the full units. */
  r = etu_ok (e, "Query",
              "{'TableName': 'Big', 'KeyConditionExpression': 'pk = :p', 'ConsistentRead': true,"
              " 'Select': 'COUNT', 'ReturnConsumedCapacity': 'INDEXES',"
              " 'ExpressionAttributeValues': {':p': {'S': 'p'}}}");
  etu_assert_json (
      json_object_get (r, "ConsumedCapacity"),
      "{'TableName': 'Big', 'CapacityUnits': 257.0, 'Table': {'CapacityUnits': 257.0}}");
  json_decref (r);
}

static DdbEngine *
many_engine (void)
{
  DdbEngine *e = etu_engine_new ();
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_free);

  json_decref (etu_ok (e, "CreateTable",
                       "{'TableName': 'Many', 'BillingMode': 'PAY_PER_REQUEST',"
                       " 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'},"
                       "  {'AttributeName': 'sk', 'AttributeType': 'N'}],"
                       " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
                       "  {'AttributeName': 'sk', 'KeyType': 'RANGE'}]}"));
  for (guint p = 0; p < 20; p++)
    for (guint s = 0; s < 10; s++)
      g_ptr_array_add (items,
                       g_strdup_printf ("{'pk': {'S': 'p%u'}, 'sk': {'N': '%u'}, 'v': {'N': '%u'}}",
                                        p, s, p * 10 + s));
  put_items (e, "Many", (const char *const *) items->pdata, items->len);
  return e;
}

/* Pages through a Scan (extra members in `extra`) with Limit `limit`, adding "pk/sk" of every
 * item to `seen` (asserting none comes twice); returns the number of items. */
static guint
scan_all (DdbEngine *e, const char *extra, guint limit, GHashTable *seen)
{
  g_autofree char *lek = NULL;
  guint n = 0;

  do
    {
      json_t *r = etu_ok (e, "Scan", "{'TableName': 'Many', 'Limit': %u%s%s%s}", limit, extra,
                          lek ? ", 'ExclusiveStartKey': " : "", lek ? lek : "");
      json_t *items = json_object_get (r, "Items"), *item, *k;
      size_t i;

      g_assert_cmpint (int_member (r, "ScannedCount"), <=, limit);
      json_array_foreach (items, i, item)
        {
          char *id = g_strdup_printf ("%s/%s", scalar_text (json_object_get (item, "pk")),
                                      scalar_text (json_object_get (item, "sk")));

          if (!g_hash_table_add (seen, id))
            g_error ("%s seen twice", id);
          n++;
        }
      g_clear_pointer (&lek, g_free);
      k = json_object_get (r, "LastEvaluatedKey");
      if (k != NULL)
        {
          lek = json_dumps (k, JSON_COMPACT);
          g_strdelimit (lek, "\"", '\'');
        }
      json_decref (r);
    }
  while (lek != NULL);
  return n;
}

static void
test_pagination_visits_every_item_once (void)
{
  g_autoptr (DdbEngine) e = many_engine ();
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *lek = NULL;
  GString *order = g_string_new (NULL);

  g_assert_cmpuint (scan_all (e, "", 7, seen), ==, 200);
  g_assert_cmpuint (g_hash_table_size (seen), ==, 200);

  /* A Query paged backwards, 3 by 3. */
  do
    {
      json_t *r
          = etu_ok (e, "Query",
                    "{'TableName': 'Many', 'KeyConditionExpression': 'pk = :p', 'Limit': 3,"
                    " 'ScanIndexForward': false, 'ExpressionAttributeValues': {':p': {'S': 'p3'}}"
                    "%s%s}",
                    lek ? ", 'ExclusiveStartKey': " : "", lek ? lek : "");
      g_autofree char *sks = column (r, "sk");
      json_t *k = json_object_get (r, "LastEvaluatedKey");

      g_string_append_printf (order, "[%s]", sks);
      g_clear_pointer (&lek, g_free);
      if (k != NULL)
        {
          lek = json_dumps (k, JSON_COMPACT);
          g_strdelimit (lek, "\"", '\'');
        }
      json_decref (r);
    }
  while (lek != NULL);
  /* 10 items, Limit 3: the fourth page holds the last item and its key (Limit reached), the
   * fifth is empty. */
  g_assert_cmpstr (order->str, ==, "[9,8,7][6,5,4][3,2,1][0]");
  g_string_free (order, TRUE);
}

static void
test_parallel_scan_segments (void)
{
  g_autoptr (DdbEngine) e = many_engine ();
  static const guint totals[] = { 1, 2, 3, 4, 7, 16, 1000000 };

  for (guint t = 0; t < G_N_ELEMENTS (totals); t++)
    {
      g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      guint segments = MIN (totals[t], 16);
      guint nonempty = 0;

      for (guint s = 0; s < segments; s++)
        {
          g_autofree char *extra
              = g_strdup_printf (", 'Segment': %u, 'TotalSegments': %u",
                                 totals[t] == 1000000 ? s * 62500 : s, totals[t]);
          guint got = scan_all (e, extra, 13, seen);

          if (got > 0)
            nonempty++;
          /* A segment holds whole partitions. */
          g_assert_cmpuint (got % 10, ==, 0);
        }
      if (totals[t] == 1000000)
        continue; /* only a sample of the segments was read */
      g_assert_cmpuint (g_hash_table_size (seen), ==, 200);
      if (totals[t] <= 4)
        g_assert_cmpuint (nonempty, ==, totals[t]);
    }
}

/* ---- Secondary indexes -------------------------------------------------------------------- */

static DdbEngine *
index_engine (void)
{
  DdbEngine *e = etu_engine_new ();
  static const char *const items[] = {
    "{'pk': {'S': 'P'}, 'sk': {'S': 's1'}, 'g': {'S': 'G'}, 'gs': {'N': '3'}, 'l': {'S': 'L3'},"
    " 'a': {'S': 'a1'}, 'b': {'S': 'b1'}}",
    "{'pk': {'S': 'P'}, 'sk': {'S': 's2'}, 'g': {'S': 'G'}, 'gs': {'N': '1'}, 'l': {'S': 'L1'},"
    " 'a': {'S': 'a2'}, 'b': {'S': 'b2'}}",
    "{'pk': {'S': 'P'}, 'sk': {'S': 's3'}, 'g': {'S': 'G'}, 'gs': {'N': '2'}, 'l': {'S': 'L2'},"
    " 'a': {'S': 'a3'}, 'b': {'S': 'b3'}}",
    /* Sparse: no g and no l, so in no index but the table. */
    "{'pk': {'S': 'P'}, 'sk': {'S': 's4'}, 'a': {'S': 'a4'}, 'b': {'S': 'b4'}}",
    "{'pk': {'S': 'Q'}, 'sk': {'S': 's1'}, 'g': {'S': 'H'}, 'gs': {'N': '1'}, 'l': {'S': 'L1'}}",
  };

  json_decref (
      etu_ok (e, "CreateTable",
              "{'TableName': 'Idx', 'BillingMode': 'PAY_PER_REQUEST',"
              " 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'},"
              "  {'AttributeName': 'sk', 'AttributeType': 'S'}, {'AttributeName': 'g', "
              "'AttributeType': 'S'},"
              "  {'AttributeName': 'gs', 'AttributeType': 'N'}, {'AttributeName': 'l', "
              "'AttributeType': 'S'}],"
              " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
              "  {'AttributeName': 'sk', 'KeyType': 'RANGE'}],"
              " 'GlobalSecondaryIndexes': ["
              "  {'IndexName': 'gkeys', 'KeySchema': [{'AttributeName': 'g', 'KeyType': 'HASH'},"
              "    {'AttributeName': 'gs', 'KeyType': 'RANGE'}], 'Projection': {'ProjectionType': "
              "'KEYS_ONLY'}},"
              "  {'IndexName': 'ginc', 'KeySchema': [{'AttributeName': 'g', 'KeyType': 'HASH'},"
              "    {'AttributeName': 'gs', 'KeyType': 'RANGE'}],"
              "    'Projection': {'ProjectionType': 'INCLUDE', 'NonKeyAttributes': ['a']}},"
              "  {'IndexName': 'gall', 'KeySchema': [{'AttributeName': 'g', 'KeyType': 'HASH'}],"
              "    'Projection': {'ProjectionType': 'ALL'}}],"
              " 'LocalSecondaryIndexes': ["
              "  {'IndexName': 'lkeys', 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
              "    {'AttributeName': 'l', 'KeyType': 'RANGE'}], 'Projection': {'ProjectionType': "
              "'KEYS_ONLY'}},"
              "  {'IndexName': 'linc', 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
              "    {'AttributeName': 'l', 'KeyType': 'RANGE'}],"
              "    'Projection': {'ProjectionType': 'INCLUDE', 'NonKeyAttributes': ['a']}}]}"));
  put_items (e, "Idx", items, G_N_ELEMENTS (items));
  return e;
}

static void
test_gsi_projections (void)
{
  g_autoptr (DdbEngine) e = index_engine ();
  json_t *r;

  /* KEYS_ONLY: table and index keys, in the index's order. */
  r = etu_ok (e, "Query",
              "{'TableName': 'Idx', 'IndexName': 'gkeys', 'KeyConditionExpression': 'g = :g',"
              " 'ExpressionAttributeValues': {':g': {'S': 'G'}}}");
  {
    g_autofree char *sks = column (r, "sk");
    g_autofree char *names = attr_names (r, 0);
    g_assert_cmpstr (sks, ==, "s2,s3,s1");
    g_assert_cmpstr (names, ==, "g,gs,pk,sk");
  }
  json_decref (r);

  /* INCLUDE: plus the included attribute. */
  r = etu_ok (
      e, "Query",
      "{'TableName': 'Idx', 'IndexName': 'ginc', 'KeyConditionExpression': 'g = :g AND gs > :n',"
      " 'ScanIndexForward': false, 'ExpressionAttributeValues': {':g': {'S': 'G'}, ':n': {'N': "
      "'1'}}}");
  {
    g_autofree char *sks = column (r, "sk");
    g_autofree char *names = attr_names (r, 0);
    g_assert_cmpstr (sks, ==, "s1,s3");
    g_assert_cmpstr (names, ==, "a,g,gs,pk,sk");
  }
  json_decref (r);

  /* ALL fetches nothing from the table: it holds every attribute. */
  r = etu_ok (e, "Query",
              "{'TableName': 'Idx', 'IndexName': 'gall', 'KeyConditionExpression': 'g = :g',"
              " 'ExpressionAttributeValues': {':g': {'S': 'G'}}, 'Select': 'ALL_ATTRIBUTES'}");
  g_assert_cmpint (int_member (r, "Count"), ==, 3);
  {
    g_autofree char *names = attr_names (r, 0);
    g_assert_cmpstr (names, ==, "a,b,g,gs,l,pk,sk");
  }
  json_decref (r);
  /* A projection of what a GSI holds. */
  r = etu_ok (e, "Query",
              "{'TableName': 'Idx', 'IndexName': 'ginc', 'KeyConditionExpression': 'g = :g',"
              " 'ProjectionExpression': 'a, sk', 'ExpressionAttributeValues': {':g': {'S': 'G'}}}");
  {
    g_autofree char *names = attr_names (r, 0);
    g_assert_cmpstr (names, ==, "a,sk");
  }
  json_decref (r);

  /* Sparse: the item without g is in no GSI. */
  r = etu_ok (e, "Scan", "{'TableName': 'Idx', 'IndexName': 'gkeys'}");
  g_assert_cmpint (int_member (r, "Count"), ==, 4);
  g_assert_cmpint (int_member (r, "ScannedCount"), ==, 4);
  json_decref (r);
  r = etu_ok (e, "Scan", "{'TableName': 'Idx'}");
  g_assert_cmpint (int_member (r, "Count"), ==, 5);
  json_decref (r);

  /* Paging a GSI: LastEvaluatedKey holds the table's and the index's keys. */
  r = etu_ok (e, "Query",
              "{'TableName': 'Idx', 'IndexName': 'gkeys', 'KeyConditionExpression': 'g = :g',"
              " 'Limit': 1, 'ExpressionAttributeValues': {':g': {'S': 'G'}}}");
  etu_assert_json (json_object_get (r, "LastEvaluatedKey"),
                   "{'pk': {'S': 'P'}, 'sk': {'S': 's2'}, 'g': {'S': 'G'}, 'gs': {'N': '1'}}");
  json_decref (r);
  r = etu_ok (e, "Query",
              "{'TableName': 'Idx', 'IndexName': 'gkeys', 'KeyConditionExpression': 'g = :g',"
              " 'Limit': 5, 'ExpressionAttributeValues': {':g': {'S': 'G'}},"
              " 'ExclusiveStartKey': {'pk': {'S': 'P'}, 'sk': {'S': 's2'}, 'g': {'S': 'G'},"
              "  'gs': {'N': '1'}}}");
  {
    g_autofree char *sks = column (r, "sk");
    g_assert_cmpstr (sks, ==, "s3,s1");
  }
  assert_no_lek (r);
  json_decref (r);

  /* Capacity of a GSI read goes to the index. */
  r = etu_ok (
      e, "Query",
      "{'TableName': 'Idx', 'IndexName': 'gkeys', 'KeyConditionExpression': 'g = :g',"
      " 'ReturnConsumedCapacity': 'INDEXES', 'ExpressionAttributeValues': {':g': {'S': 'G'}}}");
  etu_assert_json (json_object_get (r, "ConsumedCapacity"),
                   "{'TableName': 'Idx', 'CapacityUnits': 0.5, 'Table': {'CapacityUnits': 0.0},"
                   " 'GlobalSecondaryIndexes': {'gkeys': {'CapacityUnits': 0.5}}}");
  json_decref (r);
}

/* "If you query or scan a global secondary index, you can only request attributes that are
 * projected into the index. Global secondary index queries cannot fetch attributes from the
 * parent table." Messages as DynamoDB Local gives them. */
static void
test_gsi_refuses_what_it_does_not_project (void)
{
  g_autoptr (DdbEngine) e = index_engine ();
  json_t *r;

#define GQ(ix) "{'TableName': 'Idx', 'IndexName': '" ix "', 'KeyConditionExpression': 'g = :g', "
#define INVALID "One or more parameter values were invalid: "
  etu_fails (e, "Query", DDB_ERROR_VALIDATION,
             INVALID "Global secondary index gkeys does not project [b]",
             GQ ("gkeys") "'ProjectionExpression': 'b, sk', 'ExpressionAttributeValues': {':g': "
                          "{'S': 'G'}}}");
  /* Only top-level names, each once; INCLUDE projects its NonKeyAttributes, not the LSI's key. */
  etu_fails (e, "Query", DDB_ERROR_VALIDATION,
             INVALID "Global secondary index ginc does not project [b, l]",
             GQ ("ginc") "'ProjectionExpression': 'l, a, b.c, b.d', 'ExpressionAttributeValues': "
                         "{':g': {'S': 'G'}}}");
  /* Listed as a Java HashSet iterates them: bucket order, a shared bucket in reverse. */
  etu_fails (e, "Query", DDB_ERROR_VALIDATION,
             INVALID "Global secondary index gkeys does not project [zz, body, title]",
             GQ ("gkeys") "'ProjectionExpression': 'title, zz, body', 'ExpressionAttributeValues': "
                          "{':g': {'S': 'G'}}}");
  etu_fails (
      e, "Query", DDB_ERROR_VALIDATION,
      INVALID "Global secondary index gkeys does not project "
              "[b10, b12, b11, b14, b13, b1, b2, b3, b4, b5, b6, b7, b8, b9]",
      GQ ("gkeys") "'ProjectionExpression': 'b1,b2,b3,b4,b5,b6,b7,b8,b9,b10,b11,b12,b13,b14',"
                   " 'ExpressionAttributeValues': {':g': {'S': 'G'}}}");
  /* AttributesToGet and SPECIFIC_ATTRIBUTES alike. */
  etu_fails (
      e, "Query", DDB_ERROR_VALIDATION, INVALID "Global secondary index gkeys does not project [a]",
      "{'TableName': 'Idx', 'IndexName': 'gkeys', 'Select': 'SPECIFIC_ATTRIBUTES',"
      " 'KeyConditions': {'g': {'ComparisonOperator': 'EQ', 'AttributeValueList': [{'S': 'G'}]}},"
      " 'AttributesToGet': ['a', 'pk']}");
  /* A Query filter: names sorted, checked before Select and the projection. */
  etu_fails (e, "Query", DDB_ERROR_VALIDATION,
             INVALID "Secondary index gkeys does not project one or more filter attributes: [a, b]",
             GQ ("gkeys") "'FilterExpression': 'b = :g OR size(a) > :n OR attribute_exists(b.c)',"
                          " 'ProjectionExpression': 'zz', 'ExpressionAttributeValues': {':g': "
                          "{'S': 'G'}, ':n': {'N': '1'}}}");
  etu_fails (e, "Query", DDB_ERROR_VALIDATION,
             INVALID "Secondary index ginc does not project one or more filter attributes: [b]",
             GQ ("ginc") "'FilterExpression': 'a = :g AND b = :g', 'Select': 'ALL_ATTRIBUTES',"
                         " 'ExpressionAttributeValues': {':g': {'S': 'G'}}}");
  etu_fails (
      e, "Query", DDB_ERROR_VALIDATION,
      INVALID "Secondary index gkeys does not project one or more filter attributes: [b]",
      "{'TableName': 'Idx', 'IndexName': 'gkeys', 'Select': 'COUNT',"
      " 'KeyConditions': {'g': {'ComparisonOperator': 'EQ', 'AttributeValueList': [{'S': 'G'}]}},"
      " 'QueryFilter': {'b': {'ComparisonOperator': 'NOT_NULL'}}}");
  r = etu_ok (e, "Query",
              GQ ("ginc") "'FilterExpression': 'a = :a', 'ExpressionAttributeValues':"
                          " {':g': {'S': 'G'}, ':a': {'S': 'a3'}}}");
  g_assert_cmpint (int_member (r, "Count"), ==, 1);
  json_decref (r);

  /* A Scan refuses the projection too; its filter sees only the index's attributes. */
  etu_fails (e, "Scan", DDB_ERROR_VALIDATION,
             INVALID "Global secondary index gkeys does not project [a]",
             "{'TableName': 'Idx', 'IndexName': 'gkeys', 'ProjectionExpression': 'sk, a'}");
  etu_fails (e, "Scan", DDB_ERROR_VALIDATION,
             INVALID "Global secondary index ginc does not project [b]",
             "{'TableName': 'Idx', 'IndexName': 'ginc', 'AttributesToGet': ['b']}");
  r = etu_ok (
      e, "Scan",
      "{'TableName': 'Idx', 'IndexName': 'gkeys', 'FilterExpression': 'attribute_exists(a)'}");
  g_assert_cmpint (int_member (r, "Count"), ==, 0);
  g_assert_cmpint (int_member (r, "ScannedCount"), ==, 4);
  json_decref (r);

  /* An LSI fetches from the table instead. */
  r = etu_ok (e, "Scan",
              "{'TableName': 'Idx', 'IndexName': 'lkeys', 'ProjectionExpression': 'b',"
              " 'FilterExpression': 'attribute_exists(a)'}");
  g_assert_cmpint (int_member (r, "Count"), ==, 3);
  json_decref (r);
#undef GQ
#undef INVALID
}

/* A parallel Scan restarts only inside its own segment; its own LastEvaluatedKeys do. */
static void
test_parallel_scan_start_key_segment (void)
{
  g_autoptr (DdbEngine) e = many_engine ();
  guint total = 0, refused = 0;

  for (guint s = 0; s < 4; s++)
    {
      g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autofree char *extra = g_strdup_printf (", 'Segment': %u, 'TotalSegments': 4", s);

      total += scan_all (e, extra, 7, seen);
    }
  g_assert_cmpuint (total, ==, 200);

  for (guint s = 0; s < 4; s++)
    {
      GError *error = NULL;
      json_t *resp = NULL;
      g_autofree char *text = g_strdup_printf (
        "{'TableName': 'Many', 'Segment': %u, 'TotalSegments': 4,"
        " 'ExclusiveStartKey': {'pk': {'S': 'p7'}, 'sk': {'N': '3'}}}", s);
      g_autofree char *dq = tu_dq (text);
      json_t *req = json_loads (dq, 0, NULL);

      if (!ddb_engine_call (e, "Scan", req, &resp, &error))
        {
          g_autofree char *want = g_strdup_printf (
            "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
            "ExclusiveStartKey with correct Segment. TotalSegments: 4 Segment: %u", s);

          g_assert_true (g_error_matches (error, DDB_ERROR, DDB_ERROR_VALIDATION));
          g_assert_cmpstr (error->message, ==, want);
          refused++;
          g_clear_error (&error);
        }
      json_decref (resp);
      json_decref (req);
    }
  /* The key lies in exactly one of the four segments. */
  g_assert_cmpuint (refused, ==, 3);
}

static void
test_lsi_fetches_from_table (void)
{
  g_autoptr (DdbEngine) e = index_engine ();
  json_t *r;

  /* KEYS_ONLY LSI: ordered by l; the item without l is not in it. */
  r = etu_ok (
      e, "Query",
      "{'TableName': 'Idx', 'IndexName': 'lkeys', 'KeyConditionExpression': 'pk = :p',"
      " 'ReturnConsumedCapacity': 'INDEXES', 'ExpressionAttributeValues': {':p': {'S': 'P'}}}");
  {
    g_autofree char *sks = column (r, "sk");
    g_autofree char *names = attr_names (r, 0);
    g_assert_cmpstr (sks, ==, "s2,s3,s1");
    g_assert_cmpstr (names, ==, "l,pk,sk");
  }
  /* Figures as DynamoDB Local gives them. */
  etu_assert_json (json_object_get (r, "ConsumedCapacity"),
                   "{'TableName': 'Idx', 'CapacityUnits': 0.5, 'Table': {'CapacityUnits': 0.0},"
                   " 'LocalSecondaryIndexes': {'lkeys': {'CapacityUnits': 0.5}}}");
  json_decref (r);

  /* ALL_ATTRIBUTES on an LSI that does not project everything fetches each item from the
   * table; each fetch is a read of its own (DynamoDB Local: 0.5 per item, eventually
   * consistent). */
  r = etu_ok (e, "Query",
              "{'TableName': 'Idx', 'IndexName': 'lkeys', 'KeyConditionExpression': 'pk = :p',"
              " 'Select': 'ALL_ATTRIBUTES', 'ReturnConsumedCapacity': 'INDEXES',"
              " 'ExpressionAttributeValues': {':p': {'S': 'P'}}}");
  {
    g_autofree char *bs = column (r, "b");
    g_autofree char *names = attr_names (r, 0);
    g_assert_cmpstr (bs, ==, "b2,b3,b1");
    g_assert_cmpstr (names, ==, "a,b,g,gs,l,pk,sk");
  }
  etu_assert_json (json_object_get (r, "ConsumedCapacity"),
                   "{'TableName': 'Idx', 'CapacityUnits': 2.0, 'Table': {'CapacityUnits': 1.5},"
                   " 'LocalSecondaryIndexes': {'lkeys': {'CapacityUnits': 0.5}}}");
  json_decref (r);

  /* A projected attribute the index lacks: fetched too. */
  r = etu_ok (e, "Query",
              "{'TableName': 'Idx', 'IndexName': 'lkeys', 'KeyConditionExpression': 'pk = :p',"
              " 'ProjectionExpression': 'b', 'ExpressionAttributeValues': {':p': {'S': 'P'}}}");
  {
    g_autofree char *bs = column (r, "b");
    g_assert_cmpstr (bs, ==, "b2,b3,b1");
  }
  json_decref (r);

  /* One the index holds: no fetch. */
  r = etu_ok (
      e, "Query",
      "{'TableName': 'Idx', 'IndexName': 'linc', 'KeyConditionExpression': 'pk = :p AND l > :l',"
      " 'ProjectionExpression': 'a', 'ReturnConsumedCapacity': 'INDEXES',"
      " 'ExpressionAttributeValues': {':p': {'S': 'P'}, ':l': {'S': 'L1'}}}");
  {
    g_autofree char *as = column (r, "a");
    g_assert_cmpstr (as, ==, "a3,a1");
  }
  etu_assert_json (json_object_get (r, "ConsumedCapacity"),
                   "{'TableName': 'Idx', 'CapacityUnits': 0.5, 'Table': {'CapacityUnits': 0.0},"
                   " 'LocalSecondaryIndexes': {'linc': {'CapacityUnits': 0.5}}}");
  json_decref (r);

  /* ALL_PROJECTED_ATTRIBUTES is the default on an index. */
  r = etu_ok (
      e, "Query",
      "{'TableName': 'Idx', 'IndexName': 'linc', 'KeyConditionExpression': 'pk = :p',"
      " 'Select': 'ALL_PROJECTED_ATTRIBUTES', 'ExpressionAttributeValues': {':p': {'S': 'P'}}}");
  {
    g_autofree char *names = attr_names (r, 0);
    g_assert_cmpstr (names, ==, "a,l,pk,sk");
  }
  json_decref (r);

  /* The table's sort key may be filtered on in an LSI query (DynamoDB Local agrees); the
   * index's may not. */
  r = etu_ok (e, "Query",
              "{'TableName': 'Idx', 'IndexName': 'lkeys', 'KeyConditionExpression': 'pk = :p',"
              " 'FilterExpression': 'sk = :s', 'ExpressionAttributeValues': {':p': {'S': 'P'},"
              " ':s': {'S': 's3'}}}");
  g_assert_cmpint (int_member (r, "Count"), ==, 1);
  g_assert_cmpint (int_member (r, "ScannedCount"), ==, 3);
  json_decref (r);

  /* A filter on an attribute the LSI does not hold reads it from the table, as the Developer
   * Guide says an LSI does for attributes it does not project. DynamoDB Local instead refuses
   * ("Secondary index lkeys does not project one or more filter attributes: [b]"); the docs
   * win. */
  r = etu_ok (e, "Query",
              "{'TableName': 'Idx', 'IndexName': 'lkeys', 'KeyConditionExpression': 'pk = :p',"
              " 'FilterExpression': 'b = :b', 'ExpressionAttributeValues': {':p': {'S': 'P'},"
              " ':b': {'S': 'b3'}}}");
  g_assert_cmpint (int_member (r, "Count"), ==, 1);
  json_decref (r);

  /* Scan of an LSI. */
  r = etu_ok (e, "Scan", "{'TableName': 'Idx', 'IndexName': 'lkeys', 'ConsistentRead': true}");
  g_assert_cmpint (int_member (r, "Count"), ==, 4);
  json_decref (r);
}

/* ---- Validation --------------------------------------------------------------------------- */

static void
test_query_validation (void)
{
  g_autoptr (DdbEngine) e = index_engine ();
  const DdbErrorCode V = DDB_ERROR_VALIDATION;
#define KCE "'KeyConditionExpression': 'pk = :p', 'ExpressionAttributeValues': {':p': {'S': 'P'}}"

  etu_fails (
      e, "Query", V,
      "Either the KeyConditions or KeyConditionExpression parameter must be specified in the "
      "request.",
      "{'TableName': 'Idx'}");
  etu_fails (e, "Query", DDB_ERROR_RESOURCE_NOT_FOUND, "Requested resource not found",
             "{'TableName': 'Nope', " KCE "}");
  etu_fails (e, "Query", V, "The table does not have the specified index: nope",
             "{'TableName': 'Idx', 'IndexName': 'nope', " KCE "}");
  /* DynamoDB Local says "Consistent read cannot be true when querying a GSI"; DynamoDB's own
   * wording (as dynalite records it) is this one. */
  etu_fails (
      e, "Query", V, "Consistent reads are not supported on global secondary indexes",
      "{'TableName': 'Idx', 'IndexName': 'gkeys', 'ConsistentRead': true,"
      " 'KeyConditionExpression': 'g = :g', 'ExpressionAttributeValues': {':g': {'S': 'G'}}}");
  etu_fails (
      e, "Query", V,
      "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported "
      "for global secondary index gkeys because its projection type is not ALL",
      "{'TableName': 'Idx', 'IndexName': 'gkeys', 'Select': 'ALL_ATTRIBUTES',"
      " 'KeyConditionExpression': 'g = :g', 'ExpressionAttributeValues': {':g': {'S': 'G'}}}");

  /* Select against the projection (messages as DynamoDB Local gives them). */
  etu_fails (e, "Query", V,
             "Must specify the AttributesToGet or ProjectionExpression when choosing to get "
             "SPECIFIC_ATTRIBUTES",
             "{'TableName': 'Idx', 'Select': 'SPECIFIC_ATTRIBUTES', " KCE "}");
  etu_fails (e, "Query", V,
             "Cannot specify the ProjectionExpression when choosing to get only the Count",
             "{'TableName': 'Idx', 'Select': 'COUNT', 'ProjectionExpression': 'a', " KCE "}");
  etu_fails (e, "Query", V,
             "Cannot specify the AttributesToGet when choosing to get only the Count",
             "{'TableName': 'Idx', 'Select': 'COUNT', 'AttributesToGet': ['a'], 'KeyConditions':"
             " {'pk': {'ComparisonOperator': 'EQ', 'AttributeValueList': [{'S': 'P'}]}}}");
  etu_fails (
      e, "Query", V, "Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES",
      "{'TableName': 'Idx', 'Select': 'ALL_ATTRIBUTES', 'ProjectionExpression': 'a', " KCE "}");
  etu_fails (
      e, "Query", V,
      "Cannot specify the ProjectionExpression when choosing to get ALL_PROJECTED_ATTRIBUTES",
      "{'TableName': 'Idx', 'IndexName': 'lkeys', 'Select': 'ALL_PROJECTED_ATTRIBUTES',"
      " 'ProjectionExpression': 'a', " KCE "}");
  etu_fails (e, "Query", V,
             "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName",
             "{'TableName': 'Idx', 'Select': 'ALL_PROJECTED_ATTRIBUTES', " KCE "}");

  /* Filters may not use the key attributes read by. */
  etu_fails (
      e, "Query", V,
      "Filter Expression can only contain non-primary key attributes: Primary key attribute: pk",
      "{'TableName': 'Idx', 'FilterExpression': 'pk = :p', " KCE "}");
  etu_fails (
      e, "Query", V,
      "Filter Expression can only contain non-primary key attributes: Primary key attribute: sk",
      "{'TableName': 'Idx', 'FilterExpression': 'attribute_exists(sk) OR a = :p', " KCE "}");
  etu_fails (
      e, "Query", V,
      "Filter Expression can only contain non-primary key attributes: Primary key attribute: l",
      "{'TableName': 'Idx', 'IndexName': 'lkeys', 'FilterExpression': 'l = :p', " KCE "}");
  etu_fails (e, "Query", V,
             "QueryFilter can only contain non-primary key attributes: Primary key attribute: pk",
             "{'TableName': 'Idx', 'KeyConditions': {'pk': {'ComparisonOperator': 'EQ',"
             " 'AttributeValueList': [{'S': 'P'}]}}, 'QueryFilter': {'pk': {'ComparisonOperator':"
             " 'EQ', 'AttributeValueList': [{'S': 'P'}]}}}");
  /* Key attributes are scalars: no document paths into them. */
  etu_fails (e, "Query", V,
             "Key attributes must be scalars; list random access '[]' and map lookup '.' are not "
             "allowed: Key: sk",
             "{'TableName': 'Idx', 'ProjectionExpression': 'sk.x', " KCE "}");
  etu_fails (e, "Query", V,
             "Key attributes must be scalars; list random access '[]' and map lookup '.' are not "
             "allowed: IndexKey: g",
             "{'TableName': 'Idx', 'ProjectionExpression': 'a, g[0]', " KCE "}");
  etu_fails (e, "Scan", V,
             "Key attributes must be scalars; list random access '[]' and map lookup '.' are not "
             "allowed: Key: sk",
             "{'TableName': 'Idx', 'FilterExpression': '#k.x = :v',"
             " 'ExpressionAttributeNames': {'#k': 'sk'}, 'ExpressionAttributeValues': {':v': {'S': "
             "'v'}}}");

  /* ExclusiveStartKey must lie inside what the key condition selects (dynalite's wording,
   * taken from DynamoDB; DynamoDB Local words the first case like the second). */
  etu_fails (e, "Query", V,
             "The provided starting key is outside query boundaries based on provided conditions",
             "{'TableName': 'Idx', " KCE
             ", 'ExclusiveStartKey': {'pk': {'S': 'Z'}, 'sk': {'S': 's1'}}}");
  etu_fails (e, "Query", V, "The provided starting key does not match the range key predicate",
             "{'TableName': 'Idx', 'KeyConditionExpression': 'pk = :p AND sk > :s',"
             " 'ExpressionAttributeValues': {':p': {'S': 'P'}, ':s': {'S': 's2'}},"
             " 'ExclusiveStartKey': {'pk': {'S': 'P'}, 'sk': {'S': 's1'}}}");
  etu_fails (e, "Query", V, "The query can return at most one row and cannot be restarted",
             "{'TableName': 'Idx', 'KeyConditionExpression': 'pk = :p AND sk > :s',"
             " 'ExpressionAttributeValues': {':p': {'S': 'P'}, ':s': {'S': 's2'}},"
             " 'ExclusiveStartKey': {'pk': {'S': 'Z'}, 'sk': {'S': 's3'}}}");
  {
    /* Inside the range: accepted (DynamoDB Local agrees). */
    json_t *r = etu_ok (e, "Query",
                        "{'TableName': 'Idx', 'KeyConditionExpression': 'pk = :p AND sk > :s',"
                        " 'ExpressionAttributeValues': {':p': {'S': 'P'}, ':s': {'S': 's2'}},"
                        " 'ExclusiveStartKey': {'pk': {'S': 'P'}, 'sk': {'S': 's3'}}}");
    g_autofree char *sks = column (r, "sk");
    g_assert_cmpstr (sks, ==, "s4");
    json_decref (r);
  }

  /* Placeholders: every one must be used by some expression of the request. */
  etu_fails (e, "Query", V,
             "Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}",
             "{'TableName': 'Idx', 'KeyConditionExpression': 'pk = :p',"
             " 'ExpressionAttributeValues': {':p': {'S': 'P'}, ':x': {'S': 'x'}}}");
  etu_fails (
      e, "Query", V, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#n}",
      "{'TableName': 'Idx', 'ProjectionExpression': 'a', 'ExpressionAttributeNames': {'#n': 'b'},"
      " " KCE "}");
  {
    /* A name used only by the projection and a value only by the filter are used. */
    json_t *r = etu_ok (e, "Query",
                        "{'TableName': 'Idx', 'KeyConditionExpression': 'pk = :p',"
                        " 'FilterExpression': 'a = :a', 'ProjectionExpression': '#b',"
                        " 'ExpressionAttributeNames': {'#b': 'b'},"
                        " 'ExpressionAttributeValues': {':p': {'S': 'P'}, ':a': {'S': 'a2'}}}");
    g_autofree char *bs = column (r, "b");
    g_assert_cmpstr (bs, ==, "b2");
    json_decref (r);
  }
  etu_fails (
      e, "Query", V,
      "ExpressionAttributeValues can only be specified when using expressions: FilterExpression "
      "and KeyConditionExpression are null",
      "{'TableName': 'Idx', 'KeyConditions': {'pk': {'ComparisonOperator': 'EQ',"
      " 'AttributeValueList': [{'S': 'P'}]}}, 'ExpressionAttributeValues': {':p': {'S': 'P'}}}");
  etu_fails (e, "Query", V,
             "Can not use both expression and non-expression parameters in the same request: "
             "Non-expression parameters: {AttributesToGet} Expression parameters: "
             "{KeyConditionExpression}",
             "{'TableName': 'Idx', 'AttributesToGet': ['a'], " KCE "}");

  /* Key conditions themselves (the core's analysis, reached through Query). */
  etu_fails (e, "Query", V, "Query condition missed key schema element: pk",
             "{'TableName': 'Idx', 'KeyConditionExpression': 'sk = :p',"
             " 'ExpressionAttributeValues': {':p': {'S': 'P'}}}");
  etu_fails (e, "Query", V, "Query condition missed key schema element: g",
             "{'TableName': 'Idx', 'IndexName': 'gkeys', " KCE "}");
  etu_fails (e, "Query", V,
             "One or more parameter values were invalid: Condition parameter type does not match "
             "schema type",
             "{'TableName': 'Idx', 'KeyConditionExpression': 'pk = :p',"
             " 'ExpressionAttributeValues': {':p': {'N': '1'}}}");
  etu_fails (e, "Query", V, "Invalid operator used in KeyConditionExpression: OR",
             "{'TableName': 'Idx', 'KeyConditionExpression': 'pk = :p OR sk = :p',"
             " 'ExpressionAttributeValues': {':p': {'S': 'P'}}}");

  /* Members. */
  etu_fails (
      e, "Query", V,
      "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member "
      "must have value greater than or equal to 1",
      "{'TableName': 'Idx', 'Limit': 0, " KCE "}");
  etu_fails (e, "Query", V,
             "1 validation error detected: Value 'SOME' at 'select' failed to satisfy constraint: "
             "Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, "
             "ALL_PROJECTED_ATTRIBUTES]",
             "{'TableName': 'Idx', 'Select': 'SOME', " KCE "}");
#undef KCE
}

static void
test_scan_validation (void)
{
  g_autoptr (DdbEngine) e = index_engine ();
  const DdbErrorCode V = DDB_ERROR_VALIDATION;

  /* Segment and TotalSegments (dynalite's wording for DynamoDB's messages; DynamoDB Local
   * words these differently). */
  etu_fails (e, "Scan", V,
             "The TotalSegments parameter is required but was not present in the request when "
             "Segment parameter is present",
             "{'TableName': 'Idx', 'Segment': 1}");
  etu_fails (e, "Scan", V,
             "The Segment parameter is required but was not present in the request when parameter "
             "TotalSegments is present",
             "{'TableName': 'Idx', 'TotalSegments': 2}");
  etu_fails (e, "Scan", V,
             "The Segment parameter is zero-based and must be less than parameter TotalSegments: "
             "Segment: 2 is not less than TotalSegments: 2",
             "{'TableName': 'Idx', 'Segment': 2, 'TotalSegments': 2}");
  etu_fails (e, "Scan", V,
             "1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy "
             "constraint: Member must have value less than or equal to 1000000",
             "{'TableName': 'Idx', 'Segment': 0, 'TotalSegments': 1000001}");
  etu_fails (e, "Scan", V,
             "1 validation error detected: Value '-1' at 'segment' failed to satisfy constraint: "
             "Member must have value greater than or equal to 0",
             "{'TableName': 'Idx', 'Segment': -1, 'TotalSegments': 2}");

  etu_fails (
      e, "Scan", V,
      "ExpressionAttributeValues can only be specified when using expressions: FilterExpression "
      "is null",
      "{'TableName': 'Idx', 'ProjectionExpression': 'a', 'ExpressionAttributeValues':"
      " {':a': {'S': 'x'}}}");
  etu_fails (e, "Scan", V, "ExpressionAttributeNames can only be specified when using expressions",
             "{'TableName': 'Idx', 'ExpressionAttributeNames': {'#a': 'a'}}");
  etu_fails (
      e, "Scan", V, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a}",
      "{'TableName': 'Idx', 'ProjectionExpression': 'a', 'ExpressionAttributeNames': {'#a': 'a'}}");
  etu_fails (e, "Scan", V,
             "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName",
             "{'TableName': 'Idx', 'Select': 'ALL_PROJECTED_ATTRIBUTES'}");
  etu_fails (e, "Scan", V, "Consistent reads are not supported on global secondary indexes",
             "{'TableName': 'Idx', 'IndexName': 'gall', 'ConsistentRead': true}");
  etu_fails (
      e, "Scan", V,
      "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported "
      "for global secondary index ginc because its projection type is not ALL",
      "{'TableName': 'Idx', 'IndexName': 'ginc', 'Select': 'ALL_ATTRIBUTES'}");
  etu_fails (e, "Scan", V, "The table does not have the specified index: nope",
             "{'TableName': 'Idx', 'IndexName': 'nope'}");
  etu_fails (e, "Scan", V,
             "Can not use both expression and non-expression parameters in the same request: "
             "Non-expression parameters: {ScanFilter} Expression parameters: {FilterExpression}",
             "{'TableName': 'Idx', 'FilterExpression': 'a = :a', 'ExpressionAttributeValues':"
             " {':a': {'S': 'x'}}, 'ScanFilter': {'a': {'ComparisonOperator': 'NOT_NULL'}}}");

  /* A filter on key attributes is fine in a Scan. */
  {
    json_t *r = etu_ok (e, "Scan",
                        "{'TableName': 'Idx', 'FilterExpression': 'pk = :p AND sk = :s',"
                        " 'ExpressionAttributeValues': {':p': {'S': 'Q'}, ':s': {'S': 's1'}}}");
    g_assert_cmpint (int_member (r, "Count"), ==, 1);
    json_decref (r);
  }
  /* An empty QueryFilter or ScanFilter is no filter; ConditionalOperator needs two or more
   * conditions in it. */
  {
    json_t *all = etu_ok (e, "Scan", "{'TableName': 'Idx'}");
    json_t *r = etu_ok (e, "Scan", "{'TableName': 'Idx', 'ScanFilter': {}}");

    g_assert_cmpint (int_member (r, "Count"), ==, int_member (all, "Count"));
    json_decref (r);
    r = etu_ok (e, "Query",
                "{'TableName': 'Idx', 'KeyConditions': {'pk': {'ComparisonOperator': 'EQ',"
                " 'AttributeValueList': [{'S': 'Q'}]}}, 'QueryFilter': {}}");
    g_assert_cmpint (int_member (r, "Count"), >, 0);
    json_decref (r);
    json_decref (all);
  }
  etu_fails (e, "Scan", V, "ConditionalOperator cannot be used without Filter or Expected",
             "{'TableName': 'Idx', 'ConditionalOperator': 'OR'}");
  etu_fails (e, "Scan", V,
             "ConditionalOperator can only be used when Filter or Expected has two or more "
             "elements",
             "{'TableName': 'Idx', 'ConditionalOperator': 'OR', 'ScanFilter': {'b': "
             "{'ComparisonOperator': 'NULL'}}}");
  /* Legacy ScanFilter and AttributesToGet. */
  {
    json_t *r = etu_ok (e, "Scan",
                        "{'TableName': 'Idx', 'ScanFilter': {'b': {'ComparisonOperator': 'NULL'}},"
                        " 'AttributesToGet': ['sk', 'g']}");
    g_autofree char *names = attr_names (r, 0);
    g_assert_cmpint (int_member (r, "Count"), ==, 1);
    g_assert_cmpstr (names, ==, "g,sk");
    json_decref (r);
  }
}

/* A Scan's filter on the sort key is tested on the stored key before the row is decoded: the
 * pages must be those of the same Scan without the filter (Limit and the 1 MB cap count the
 * items read, whose last one gives LastEvaluatedKey even when the filter drops it), holding just
 * the items that pass. */
typedef gboolean (*SkPredicate) (const char *sk, const char *name);

static gboolean
sk_is_meta (const char *sk, const char *name)
{
  (void) name;
  return strcmp (sk, "META") == 0;
}
static gboolean
sk_between_posts (const char *sk, const char *name)
{
  (void) name;
  return strcmp (sk, "POST#1") >= 0 && strcmp (sk, "POST#2") <= 0;
}
static gboolean
sk_is_post (const char *sk, const char *name)
{
  (void) name;
  return g_str_has_prefix (sk, "POST");
}
static gboolean
sk_below_meta (const char *sk, const char *name)
{
  (void) name;
  return strcmp (sk, "META") < 0;
}
static gboolean
sk_above_meta (const char *sk, const char *name)
{
  (void) name;
  return strcmp (sk, "META") > 0;
}
static gboolean
sk_never (const char *sk, const char *name)
{
  (void) sk;
  (void) name;
  return FALSE;
}
static gboolean
sk_meta_named (const char *sk, const char *name)
{
  return strcmp (sk, "META") == 0 && g_strcmp0 (name, "n3") == 0;
}
static gboolean
sk_meta_or_named (const char *sk, const char *name)
{
  return strcmp (sk, "META") == 0 || g_strcmp0 (name, "n3") == 0;
}

static void
test_scan_sort_key_filter (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  const char *const sks[] = { "A", "META", "POST#1", "POST#2", "POST#3", "Z" };
  const struct {
    const char *filter;
    SkPredicate pass;
  } cases[] = {
    { "SK = :m", sk_is_meta },
    { ":m = SK", sk_is_meta },
    { "SK BETWEEN :p1 AND :p2", sk_between_posts },
    { "begins_with (SK, :post)", sk_is_post },
    { "SK < :m", sk_below_meta },
    { ":m < SK", sk_above_meta },
    { "SK = :one", sk_never }, /* a number never equals a string key */
    { "SK = :m AND #n = :n3", sk_meta_named },
    { "#n = :n3 AND SK = :m", sk_meta_named },
    { "SK = :m OR #n = :n3", sk_meta_or_named },
  };
  const char *values = "{':m': {'S': 'META'}, ':p1': {'S': 'POST#1'}, ':p2': {'S': 'POST#2'},"
                       " ':post': {'S': 'POST'}, ':one': {'N': '1'}, ':n3': {'S': 'n3'}}";

  json_decref (etu_ok (e, "CreateTable",
                       "{'TableName': 'Pre', 'BillingMode': 'PAY_PER_REQUEST', "
                       "'AttributeDefinitions': [{'AttributeName': 'PK', 'AttributeType': 'S'}, "
                       "{'AttributeName': 'SK', 'AttributeType': 'S'}], 'KeySchema': "
                       "[{'AttributeName': 'PK', 'KeyType': 'HASH'}, {'AttributeName': 'SK', "
                       "'KeyType': 'RANGE'}]}"));
  for (int p = 0; p < 12; p++)
    for (guint k = 0; k < G_N_ELEMENTS (sks); k++)
      {
        /* Some items are big, so that the 1 MB cap also ends pages, on dropped items too. */
        g_autofree char *pad = g_strnfill (p % 3 == 0 ? 60000 : 10, 'x');
        g_autofree char *item
            = g_strdup_printf ("{'PK': {'S': 'P%02d'}, 'SK': {'S': '%s'}, 'name': {'S': 'n%d'},"
                               " 'pad': {'S': '%s'}}",
                               p, sks[k], (int) ((p + k) % 5), pad);
        etu_put (e, "Pre", item);
      }

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (int limit = 0; limit <= 4; limit += 4)
      for (int projected = 0; projected < 2; projected++)
        {
          json_t *plain = etu_json ("{'TableName': 'Pre'}");
          json_t *filtered
              = etu_json ("{'TableName': 'Pre', 'FilterExpression': '%s'}", cases[c].filter);
          json_t *all_values = etu_json ("%s", values);
          json_t *used = json_object ();
          const char *key;
          json_t *value;
          guint pages = 0, passed = 0;

          if (limit > 0)
            {
              json_object_set_new (plain, "Limit", json_integer (limit));
              json_object_set_new (filtered, "Limit", json_integer (limit));
            }
          if (projected)
            json_object_set_new (filtered, "ProjectionExpression", json_string ("#n"));
          /* DynamoDB refuses placeholders an expression does not use. */
          json_object_foreach (all_values, key, value)
            if (strstr (cases[c].filter, key) != NULL)
              json_object_set (used, key, value);
          json_object_set_new (filtered, "ExpressionAttributeValues", used);
          if (projected || strstr (cases[c].filter, "#n") != NULL)
            json_object_set_new (filtered, "ExpressionAttributeNames",
                                 json_pack ("{ss}", "#n", "name"));
          json_decref (all_values);
          for (;;)
            {
              json_t *a = etu_call_ok (e, "Scan", plain);
              json_t *b = etu_call_ok (e, "Scan", filtered);
              json_t *lek = json_object_get (a, "LastEvaluatedKey");
              json_t *items = json_object_get (b, "Items");
              size_t i, j = 0;
              json_t *item;

              pages++;
              g_assert_cmpint (int_member (a, "ScannedCount"), ==, int_member (b, "ScannedCount"));
              if (lek == NULL)
                assert_no_lek (b);
              else
                g_assert_true (json_equal (lek, json_object_get (b, "LastEvaluatedKey")));
              json_array_foreach (json_object_get (a, "Items"), i, item)
                {
                  const char *sk
                      = json_string_value (json_object_get (json_object_get (item, "SK"), "S"));
                  const char *name
                      = json_string_value (json_object_get (json_object_get (item, "name"), "S"));
                  json_t *got;

                  if (!cases[c].pass (sk, name))
                    continue;
                  got = json_array_get (items, j++);
                  g_assert_nonnull (got);
                  if (projected)
                    {
                      g_assert_cmpuint (json_object_size (got), ==, 1);
                      g_assert_true (json_equal (json_object_get (got, "name"),
                                                 json_object_get (item, "name")));
                    }
                  else
                    g_assert_true (json_equal (got, item));
                }
              g_assert_cmpuint (j, ==, json_array_size (items));
              g_assert_cmpint (int_member (b, "Count"), ==, (gint64) j);
              passed += (guint) j;
              if (lek != NULL)
                {
                  json_object_set (plain, "ExclusiveStartKey", lek);
                  json_object_set (filtered, "ExclusiveStartKey", lek);
                }
              json_decref (a);
              json_decref (b);
              if (lek == NULL)
                break;
            }
          /* The big items end pages without Limit: the cap is counted on dropped items too. */
          g_assert_cmpuint (pages, >, 1);
          if (cases[c].pass == sk_is_meta)
            g_assert_cmpuint (passed, ==, 12);
          json_decref (plain);
          json_decref (filtered);
        }
}

static void
collect_item (DdbValue *item, gpointer data)
{
  json_array_append_new (data, ddb_item_to_json (item));
  ddb_value_free (item);
}

/* ddb_engine_read hands over exactly the items ddb_engine_call writes into Items, page by
 * page, with the same Count, ScannedCount and LastEvaluatedKey. */
static void
test_read_hands_values (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  const char *requests[] = {
    "{'TableName': 'Reads', 'Limit': 7}",
    "{'TableName': 'Reads', 'FilterExpression': 'n > :v', 'ExpressionAttributeValues': {':v': "
    "{'N': '10'}}, 'ProjectionExpression': 'id, n'}",
    "{'TableName': 'Reads', 'Select': 'COUNT'}",
    /* Only projected attributes come out, not the key or the filter's. */
    "{'TableName': 'Reads', 'FilterExpression': 'n > :v', 'ExpressionAttributeValues': {':v': "
    "{'N': '10'}}, 'ProjectionExpression': 'tags'}",
  };

  etu_create_table (e, "Reads", "id", "S");
  for (int i = 0; i < 30; i++)
    {
      g_autofree char *item = g_strdup_printf (
          "{'id': {'S': 'i%02d'}, 'n': {'N': '%d'}, 'tags': {'SS': ['a', 'b%d']}}", i, i, i);
      etu_put (e, "Reads", item);
    }
  for (guint r = 0; r < G_N_ELEMENTS (requests); r++)
    {
      json_t *req = etu_json ("%s", requests[r]);

      for (;;)
        {
          json_t *expected = etu_call_ok (e, "Scan", req);
          json_t *items = json_array ();
          json_t *got = NULL;
          GError *error = NULL;
          json_t *lek;

          g_assert_true (ddb_engine_read (e, "Scan", req, collect_item, items, &got, &error));
          g_assert_no_error (error);
          g_assert_null (json_object_get (got, "Items"));
          if (json_object_get (expected, "Items") != NULL)
            g_assert_true (json_equal (items, json_object_get (expected, "Items")));
          else
            g_assert_cmpuint (json_array_size (items), ==, 0);
          json_object_del (expected, "Items");
          g_assert_true (json_equal (got, expected));
          lek = json_object_get (expected, "LastEvaluatedKey");
          if (lek != NULL)
            json_object_set (req, "ExclusiveStartKey", lek);
          json_decref (items);
          json_decref (got);
          json_decref (expected);
          if (lek == NULL)
            break;
        }
      json_decref (req);
    }
  {
    json_t *req = etu_json ("{'TableName': 'Reads', 'Key': {'id': {'S': 'i01'}}}");
    json_t *got = NULL;
    GError *error = NULL;

    g_assert_false (ddb_engine_read (e, "GetItem", req, collect_item, NULL, &got, &error));
    g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
    g_clear_error (&error);
    json_decref (req);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/read-ops/seed-newest-first", test_seed_newest_first);
  g_test_add_func ("/read-ops/projection-and-filter", test_projection_and_filter);
  g_test_add_func ("/read-ops/sort-order-numbers-and-binary", test_sort_order_numbers_and_binary);
  g_test_add_func ("/read-ops/sort-key-operators", test_sort_key_operators);
  g_test_add_func ("/read-ops/begins-with-strings", test_begins_with_strings);
  g_test_add_func ("/read-ops/limit-counts-items-read", test_limit_counts_items_read);
  g_test_add_func ("/read-ops/one-megabyte-pages", test_one_megabyte_pages);
  g_test_add_func ("/read-ops/one-megabyte-pages-like-dynamodb-local",
                   test_one_megabyte_pages_like_dynamodb_local);
  g_test_add_func ("/read-ops/pagination-visits-every-item-once",
                   test_pagination_visits_every_item_once);
  g_test_add_func ("/read-ops/parallel-scan-segments", test_parallel_scan_segments);
  g_test_add_func ("/read-ops/gsi-projections", test_gsi_projections);
  g_test_add_func ("/read-ops/gsi-refuses-what-it-does-not-project",
                   test_gsi_refuses_what_it_does_not_project);
  g_test_add_func ("/read-ops/parallel-scan-start-key-segment",
                   test_parallel_scan_start_key_segment);
  g_test_add_func ("/read-ops/lsi-fetches-from-table", test_lsi_fetches_from_table);
  g_test_add_func ("/read-ops/query-validation", test_query_validation);
  g_test_add_func ("/read-ops/scan-validation", test_scan_validation);
  g_test_add_func ("/read-ops/read-hands-values", test_read_hands_values);
  g_test_add_func ("/read-ops/scan-sort-key-filter", test_scan_sort_key_filter);
  return g_test_run ();
}
