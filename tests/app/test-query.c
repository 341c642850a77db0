/* test-query.c: the requests a filter row builds, and how cells show values (no display). */
#define G_LOG_DOMAIN "test-query"

#include <gio/gio.h>

#include "app/common/dy-describe.h"
#include "app/common/dy-format.h"
#include "app/browser/dy-group.h"
#include "app/inspector/dy-node.h"
#include "app/browser/dy-query.h"
#include "core/ddbjson.h"

static char *
build (const DyQuerySpec *spec)
{
  g_autoptr (GError) error = NULL;
  json_t *request = dy_query_build (spec, &error);
  char *text;

  g_assert_no_error (error);
  text = json_dumps (request, JSON_COMPACT);
  json_decref (request);
  return text;
}

static const DyQuerySpec base = {
  .table_name = "Workspaces", .pk_name = "EntityRef", .pk_type = DDB_TYPE_S,
  .sk_name = "Detail", .sk_type = DDB_TYPE_S,
};

static void
test_query_placeholders (void)
{
  DyQuerySpec spec = base;
  g_autofree char *text = NULL;

  spec.pk_value = "WS#acme\" OR 1=1";
  spec.sk_op = DY_SORT_BEGINS_WITH;
  spec.sk_value = "PROJ#";
  spec.descending = TRUE;
  g_assert_true (dy_query_spec_is_query (&spec));
  g_assert_cmpstr (dy_query_spec_operation (&spec), ==, "Query");
  text = build (&spec);
  /* The value, however odd, stays a value: never part of the expression. */
  g_assert_cmpstr (text, ==,
                   "{\"TableName\":\"Workspaces\",\"KeyConditionExpression\":\"#pk = :pk AND "
                   "begins_with(#sk, :sk)\",\"ScanIndexForward\":false,"
                   "\"ExpressionAttributeNames\":{\"#pk\":\"EntityRef\",\"#sk\":\"Detail\"},"
                   "\"ExpressionAttributeValues\":{\":pk\":{\"S\":\"WS#acme\\\" OR 1=1\"},"
                   "\":sk\":{\"S\":\"PROJ#\"}},\"ReturnConsumedCapacity\":\"TOTAL\"}");
}

static void
test_between_and_index (void)
{
  DyQuerySpec spec = base;
  g_autofree char *text = NULL;

  spec.index_name = "ByAuthor";
  spec.pk_name = "authorId";
  spec.sk_name = "publishedAt";
  spec.pk_value = "U#12";
  spec.sk_op = DY_SORT_BETWEEN;
  spec.sk_value = "2026-01";
  spec.sk_value2 = "2026-02";
  text = build (&spec);
  g_assert_nonnull (strstr (text, "\"IndexName\":\"ByAuthor\""));
  g_assert_nonnull (strstr (text, "\"#pk = :pk AND #sk BETWEEN :sk AND :sk2\""));
  g_assert_nonnull (strstr (text, "\":sk2\":{\"S\":\"2026-02\"}"));
}

static void
test_scan_filter_limit (void)
{
  DyQuerySpec spec = base;
  g_autofree char *text = NULL;

  spec.pk_value = "";
  spec.sk_op = DY_SORT_EQ; /* ignored by a Scan */
  spec.sk_value = "x";
  spec.descending = TRUE;  /* likewise */
  spec.filter_attr = "seats";
  spec.filter_op = DY_FILTER_GE;
  spec.filter_type = DDB_TYPE_N;
  spec.filter_value = "1E2";
  spec.limit = 25;
  g_assert_false (dy_query_spec_is_query (&spec));
  text = build (&spec);
  g_assert_cmpstr (text, ==,
                   "{\"TableName\":\"Workspaces\",\"FilterExpression\":\"#f >= :f\","
                   "\"ExpressionAttributeNames\":{\"#f\":\"seats\"},"
                   "\"ExpressionAttributeValues\":{\":f\":{\"N\":\"1E2\"}},\"Limit\":25,"
                   "\"ReturnConsumedCapacity\":\"TOTAL\"}");
}

static void
test_bad_values (void)
{
  DyQuerySpec spec = base;
  g_autoptr (GError) error = NULL;

  spec.pk_type = DDB_TYPE_N;
  spec.pk_value = "12abc";
  g_assert_null (dy_query_build (&spec, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "12abc"));
  g_clear_error (&error);
  spec.pk_type = DDB_TYPE_B;
  spec.pk_value = "not base64!";
  g_assert_null (dy_query_build (&spec, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

static char *
cell (const char *json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbValue) v = ddb_json_parse_value (json, -1, &error);

  g_assert_no_error (error);
  return dy_format_value (v);
}

static void
test_cells (void)
{
  struct { const char *json, *text; } cases[] = {
    { "{\"N\":\"12345678901234567890123456789012345678\"}", "12345678901234567890123456789012345678" },
    { "{\"N\":\"-1.50E-3\"}", "-0.0015" },
    { "{\"B\":\"3q2+7w==\"}", "3q2+7w== (4 B)" },
    { "{\"SS\":[\"billing\",\"q1\"]}", "{\"billing\", \"q1\"}" },
    { "{\"NS\":[\"1\",\"2.5\"]}", "{1, 2.5}" },
    { "{\"M\":{\"id\":{\"S\":\"U#12\"},\"name\":{\"S\":\"Mara\"}}}", "{id, name} 2 attributes" },
    { "{\"L\":[{\"S\":\"a\"}]}", "[…] 1 element" },
    { "{\"BOOL\":false}", "false" },
    { "{\"NULL\":true}", "null" },
    { "{\"S\":\"two\\nlines\"}", "two\\nlines" },
    { "{\"S\":\"a\\u0000b\"}", "a\\u0000b" },
    { "{\"SS\":[\"\\u0000\"]}", "{\"\\u0000\"}" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = cell (cases[i].json);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

/* The inspector's tree shows a string whole: U+0000 (where a label would end) as its escape. */
static void
test_node_text (void)
{
  g_autoptr (DdbValue) value = ddb_json_parse_item (
      "{\"s\":{\"S\":\"a\\u0000b\\u0000\"},\"t\":{\"S\":\"x\\ny\"},\"n\":{\"N\":\"1.50\"}}", -1, NULL);
  g_autoptr (DyItem) item = dy_item_new (g_steal_pointer (&value));
  g_autoptr (GListModel) nodes = dy_node_list_for_item (item);
  const char *want[] = { "a\\u0000b\\u0000", "x\ny", "1.5" };

  g_assert_cmpuint (g_list_model_get_n_items (nodes), ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      g_autoptr (DyNode) node = g_list_model_get_item (nodes, i);
      g_autofree char *text = dy_node_dup_value_text (node);

      g_assert_cmpstr (text, ==, want[i]);
    }
}

static void
test_describe_rows (void)
{
  json_t *table = json_loads (
    "{\"TableName\":\"T\",\"TableStatus\":\"ACTIVE\",\"ItemCount\":1234,\"TableSizeBytes\":2048000,"
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"n\",\"AttributeType\":\"N\"},{\"AttributeName\":\"b\",\"AttributeType\":\"B\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],"
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":3},"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"G\",\"KeySchema\":[{\"AttributeName\":\"n\","
    "\"KeyType\":\"HASH\"},{\"AttributeName\":\"b\",\"KeyType\":\"RANGE\"}],\"Projection\":"
    "{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"x\",\"y\"]},\"IndexStatus\":\"ACTIVE\","
    "\"ItemCount\":7,\"IndexSizeBytes\":300,\"ProvisionedThroughput\":{\"ReadCapacityUnits\":1,"
    "\"WriteCapacityUnits\":2}}],"
    "\"LocalSecondaryIndexes\":[{\"IndexName\":\"L\",\"KeySchema\":[{\"AttributeName\":\"pk\","
    "\"KeyType\":\"HASH\"},{\"AttributeName\":\"n\",\"KeyType\":\"RANGE\"}],\"Projection\":"
    "{\"ProjectionType\":\"KEYS_ONLY\"}}]}", 0, NULL);
  json_t *ttl = json_loads ("{\"TimeToLiveStatus\":\"ENABLED\",\"AttributeName\":\"exp\"}", 0, NULL);
  g_autoptr (GPtrArray) rows = dy_describe_rows (table, ttl, NULL);
  g_autoptr (GPtrArray) unknown = dy_describe_rows (table, NULL, "ValidationException: no");
  g_autofree char *text = dy_describe_rows_to_text (rows);
  g_autofree char *text2 = dy_describe_rows_to_text (unknown);

  /* No BillingModeSummary: provisioned, with its units. */
  g_assert_cmpstr (text, ==,
                   "Table: T\nStatus: ACTIVE\nPartition key: pk (S)\nSort key: none\n"
                   "Items: 1234 items · 2.0 MB (2048000 bytes)\n"
                   "Billing mode: PROVISIONED (5 RCU, 3 WCU)\n"
                   "Time to live: ENABLED on attribute exp\n"
                   "[GSI G]\nPartition key: n (N)\nSort key: b (B)\nProjection: INCLUDE: x, y\n"
                   "Status: ACTIVE\nItems: 7 items · 300 B (300 bytes)\nCapacity: 1 RCU, 2 WCU\n"
                   "[LSI L]\nPartition key: pk (S)\nSort key: n (N)\nProjection: KEYS_ONLY\n");
  g_assert_nonnull (strstr (text2, "Time to live: unknown (ValidationException: no)\n"));
  json_decref (table);
  json_decref (ttl);
}

static void
test_several_filters (void)
{
  DyQuerySpec spec = base;
  DyFilterCond more[] = {
    { "status", DY_FILTER_EQ, DDB_TYPE_S, "shipped" },
    { "", DY_FILTER_EQ, DDB_TYPE_S, "left out: no attribute" },
    { "gone", DY_FILTER_NONE, DDB_TYPE_S, "left out: no operator" },
    { "note", DY_FILTER_NOT_EXISTS, DDB_TYPE_S, NULL },
    { "sku", DY_FILTER_BEGINS_WITH, DDB_TYPE_S, "P-" },
  };
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  json_t *request;

  spec.pk_value = "";
  spec.filter_attr = "qty";
  spec.filter_op = DY_FILTER_GT;
  spec.filter_type = DDB_TYPE_N;
  spec.filter_value = "2";
  spec.filters = more;
  spec.n_filters = G_N_ELEMENTS (more);
  text = build (&spec);
  g_assert_cmpstr (text, ==,
                   "{\"TableName\":\"Workspaces\",\"FilterExpression\":\"#f > :f AND #f1 = :f1 "
                   "AND attribute_not_exists(#f2) AND begins_with(#f3, :f3)\","
                   "\"ExpressionAttributeNames\":{\"#f\":\"qty\",\"#f1\":\"status\",\"#f2\":\"note\","
                   "\"#f3\":\"sku\"},\"ExpressionAttributeValues\":{\":f\":{\"N\":\"2\"},"
                   "\":f1\":{\"S\":\"shipped\"},\":f3\":{\"S\":\"P-\"}},"
                   "\"ReturnConsumedCapacity\":\"TOTAL\"}");

  /* Only extra conditions: they number from #f. */
  spec.filter_attr = NULL;
  spec.n_filters = 1;
  g_free (text);
  text = build (&spec);
  g_assert_nonnull (strstr (text, "\"FilterExpression\":\"#f = :f\""));

  /* A bad value in a later condition names its attribute. */
  more[0] = (DyFilterCond) { "qty", DY_FILTER_EQ, DDB_TYPE_N, "twelve" };
  request = dy_query_build (&spec, &error);
  g_assert_null (request);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "qty"));
}

static void
test_compare_cells (void)
{
  g_autoptr (GError) error = NULL;
  DdbValue *a = ddb_json_parse_value ("{\"N\":\"9.5\"}", -1, &error);
  DdbValue *b = ddb_json_parse_value ("{\"N\":\"23.01\"}", -1, &error);
  DdbValue *c = ddb_json_parse_value ("{\"N\":\"12345678901234567890123456789012345678\"}", -1, &error);
  DdbValue *d = ddb_json_parse_value ("{\"N\":\"12345678901234567890123456789012345677\"}", -1, &error);
  DdbValue *s1 = ddb_json_parse_value ("{\"S\":\"Zebra\"}", -1, &error);
  DdbValue *s2 = ddb_json_parse_value ("{\"S\":\"apple\"}", -1, &error);
  DdbValue *s3 = ddb_json_parse_value ("{\"S\":\"\xc3\xa9t\xc3\xa9\"}", -1, &error);

  g_assert_no_error (error);
  /* Numbers numerically, exactly: 38 digits differing in the last one. */
  g_assert_cmpint (dy_format_compare_cells (a, b), <, 0);
  g_assert_cmpint (dy_format_compare_cells (b, a), >, 0);
  g_assert_cmpint (dy_format_compare_cells (d, c), <, 0);
  g_assert_cmpint (dy_format_compare_cells (c, c), ==, 0);
  /* Strings by bytes: upper case before lower case, UTF-8 after ASCII. */
  g_assert_cmpint (dy_format_compare_cells (s1, s2), <, 0);
  g_assert_cmpint (dy_format_compare_cells (s2, s3), <, 0);
  /* Missing values last. */
  g_assert_cmpint (dy_format_compare_cells (NULL, a), >, 0);
  g_assert_cmpint (dy_format_compare_cells (a, NULL), <, 0);
  g_assert_cmpint (dy_format_compare_cells (NULL, NULL), ==, 0);
  ddb_value_free (a);
  ddb_value_free (b);
  ddb_value_free (c);
  ddb_value_free (d);
  ddb_value_free (s1);
  ddb_value_free (s2);
  ddb_value_free (s3);
}

static void
test_shard_split (void)
{
  g_autofree char *prefix = NULL;
  g_autofree char *suffix = NULL;

  g_assert_true (dy_shard_split ("TENANT#bigco#07", &prefix, &suffix));
  g_assert_cmpstr (prefix, ==, "TENANT#bigco");
  g_assert_cmpstr (suffix, ==, "07");
  g_assert_true (dy_shard_split ("WS#acme#01", NULL, NULL));
  g_assert_true (dy_shard_split ("A#b#123", NULL, NULL));
  /* An entity id, not a shard: the base must name an entity itself. */
  g_assert_false (dy_shard_split ("USER#12", NULL, NULL));
  g_assert_false (dy_shard_split ("A#b#1", NULL, NULL));
  g_assert_false (dy_shard_split ("A#b#1234", NULL, NULL));
  g_assert_false (dy_shard_split ("A#b#0x", NULL, NULL));
  g_assert_false (dy_shard_split ("PROJ#2026-0001", NULL, NULL));
  g_assert_false (dy_shard_split ("plain", NULL, NULL));
}

static DyGroup *
group_of (const char *key, guint n)
{
  DyGroup *group = dy_group_new (key);
  g_autoptr (GListStore) items = g_list_store_new (DY_TYPE_ITEM);
  guint64 size = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"N\":\"%u\"}}", key, i);
      json_t *json = json_loads (text, 0, NULL);
      g_autoptr (DyItem) item = dy_item_new_from_json (json, NULL);

      g_assert_nonnull (item);
      g_list_store_append (items, item);
      size += dy_item_get_size (item);
      json_decref (json);
    }
  dy_group_set_items (group, G_LIST_MODEL (items), size);
  return group;
}

static void
test_collect_shards (void)
{
  const char *keys[] = { "T#small", "T#big#03", "USER#12", "T#big#01", "WS#a", "WS#a#01",
                         "T#big#02", "USER#88", "X#y#05" };
  GListStore *groups = g_list_store_new (DY_TYPE_GROUP);
  g_autoptr (GListModel) out = NULL;
  const char *expected[] = { "T#small", "T#big#01…#03", "USER#12", "WS#a", "WS#a#01", "USER#88",
                             "X#y#05" };
  g_autoptr (DyGroup) set = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autoptr (DyGroup) g = group_of (keys[i], i + 1);

      g_list_store_append (groups, g);
    }
  out = dy_group_collect_shards (G_LIST_MODEL (groups));
  g_assert_cmpuint (g_list_model_get_n_items (out), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr (DyGroup) g = g_list_model_get_item (out, i);

      g_assert_cmpstr (dy_group_get_key_text (g), ==, expected[i]);
    }
  /* The set: its collections in shard order, their items summed. */
  set = g_list_model_get_item (out, 1);
  g_assert_true (dy_group_is_shard_set (set));
  g_assert_cmpstr (dy_group_get_shard_base (set), ==, "T#big");
  g_assert_cmpuint (dy_group_get_shard_count (set), ==, 3);
  g_assert_cmpuint (dy_group_get_n_items (set), ==, 2 + 4 + 7);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (DyGroup) member = g_list_model_get_item (dy_group_get_items (set), i);
      g_autofree char *suffix = g_strdup_printf ("%02u", i + 1);

      g_assert_cmpstr (dy_group_get_shard_suffix (member), ==, suffix);
      g_assert_cmpuint (dy_group_get_shard_count (member), ==, 3);
    }
  /* A lone #01 beside its base is flagged; one without its base is not; entities never. */
  {
    g_autoptr (DyGroup) ws1 = g_list_model_get_item (out, 4);
    g_autoptr (DyGroup) x = g_list_model_get_item (out, 6);
    g_autoptr (DyGroup) user = g_list_model_get_item (out, 2);

    g_assert_cmpstr (dy_group_get_shard_base (ws1), ==, "WS#a");
    g_assert_null (dy_group_get_shard_base (x));
    g_assert_null (dy_group_get_shard_suffix (x));
    g_assert_null (dy_group_get_shard_base (user));
    g_assert_false (dy_group_is_shard_set (user));
  }
  g_object_unref (groups);
}

static void
test_collection_limit (void)
{
  int level = -1;
  g_autofree char *zero = dy_collection_limit_text (0, &level);
  g_autofree char *tiny = NULL;
  g_autofree char *half = NULL;
  g_autofree char *warn = NULL;
  g_autofree char *over = NULL;
  g_autofree char *below = NULL;

  g_assert_cmpstr (zero, ==, "0% of 10 GB");
  g_assert_cmpint (level, ==, 0);
  tiny = dy_collection_limit_text (1234, &level);
  g_assert_cmpstr (tiny, ==, "< 0.01% of 10 GB");
  /* exactly when the text is that upper bound */
  g_assert_true (dy_collection_limit_below_shown (1234));
  g_assert_false (dy_collection_limit_below_shown (0));
  g_assert_false (dy_collection_limit_below_shown (DY_COLLECTION_LIMIT_BYTES / 10000 + 1));
  half = dy_collection_limit_text (DY_COLLECTION_LIMIT_BYTES / 2, &level);
  g_assert_cmpstr (half, ==, "50% of 10 GB");
  g_assert_cmpint (level, ==, 0);
  below = dy_collection_limit_text (DY_COLLECTION_LIMIT_BYTES / 5 * 4 - 1, &level);
  g_assert_cmpstr (below, ==, "79.99% of 10 GB");
  g_assert_cmpint (level, ==, 0);
  warn = dy_collection_limit_text (DY_COLLECTION_LIMIT_BYTES / 5 * 4, &level);
  g_assert_cmpstr (warn, ==, "80% of 10 GB");
  g_assert_cmpint (level, ==, 1);
  over = dy_collection_limit_text (DY_COLLECTION_LIMIT_BYTES + 1, &level);
  g_assert_cmpstr (over, ==, "100% of 10 GB");
  g_assert_cmpint (level, ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/query/placeholders", test_query_placeholders);
  g_test_add_func ("/app/query/between-and-index", test_between_and_index);
  g_test_add_func ("/app/query/scan-filter-limit", test_scan_filter_limit);
  g_test_add_func ("/app/query/bad-values", test_bad_values);
  g_test_add_func ("/app/format/cells", test_cells);
  g_test_add_func ("/app/describe-rows", test_describe_rows);
  g_test_add_func ("/app/node/text", test_node_text);
  g_test_add_func ("/app/query/several-filters", test_several_filters);
  g_test_add_func ("/app/format/compare-cells", test_compare_cells);
  g_test_add_func ("/app/group/shard-split", test_shard_split);
  g_test_add_func ("/app/group/collect-shards", test_collect_shards);
  g_test_add_func ("/app/group/collection-limit", test_collection_limit);
  return g_test_run ();
}
