/* test-query.c: the requests a filter row builds, and how cells show values (no display). */
#define G_LOG_DOMAIN "test-query"

#include <gio/gio.h>

#include "app/dy-format.h"
#include "app/dy-query.h"
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
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = cell (cases[i].json);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
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
  return g_test_run ();
}
