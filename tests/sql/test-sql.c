/* test-sql.c: the SQL layer over the engine: types exactly as documented, what is pushed down
 * and how many requests it costs, that a pushed-down condition returns what SQLite's own
 * comparison returns, the lookups of a JOIN, the authorizer, cancelling, and the drift JOIN. */
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "../engine/engine-test-util.h"
#include "sql/sql.h"

typedef struct {
  DdbEngine *engine; /* owned by the backend */
  DdbBackend *backend;
  DdbSql *sql;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  (void) data;
  f->engine = etu_engine_new ();
  f->backend = ddb_backend_new_for_engine (f->engine, ":memory:");
  json_decref (etu_ok (f->engine, "CreateTable",
          "{'TableName': 'Tab', 'BillingMode': 'PAY_PER_REQUEST',"
          " 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'},"
          "  {'AttributeName': 'sk', 'AttributeType': 'N'}, {'AttributeName': 'g', "
          "'AttributeType': 'S'}],"
          " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
          "  {'AttributeName': 'sk', 'KeyType': 'RANGE'}],"
          " 'GlobalSecondaryIndexes': [{'IndexName': 'ByG', 'KeySchema': [{'AttributeName': "
          "'g', 'KeyType': 'HASH'}], 'Projection': {'ProjectionType': 'ALL'}}]}"));
  etu_put (f->engine, "Tab",
           "{'pk': {'S': 'a'}, 'sk': {'N': '1'}, 'g': {'S': 'x'}, 'big': {'N': "
           "'12345678901234567890123456789012345678'}, 'tiny': {'N': '1E-130'}, 'flag': "
           "{'BOOL': true}, 'bin': {'B': 'AAEC/w=='}, 'tags': {'SS': ['p', 'q']}, 'm': {'M': "
           "{'n': {'N': '2.50'}, 'l': {'L': [{'S': 'z'}]}}}, 'nul': {'NULL': true}}");
  etu_put (f->engine, "Tab", "{'pk': {'S': 'a'}, 'sk': {'N': '0.5'}, 'g': {'S': 'x'}}");
  etu_put (f->engine, "Tab", "{'pk': {'S': 'a'}, 'sk': {'N': '-99999999999999999999'}}");
  etu_put (f->engine, "Tab", "{'pk': {'S': 'a'}, 'sk': {'N': '7'}, 'g': {'S': 'y'}}");
  etu_put (f->engine, "Tab", "{'pk': {'S': 'a'}, 'sk': {'N': '100000000000000000000'}}");
  etu_put (f->engine, "Tab", "{'pk': {'S': 'b'}, 'sk': {'N': '1'}, 'g': {'S': 'y'}}");
  etu_put (f->engine, "Tab", "{'pk': {'S': 'B'}, 'sk': {'N': '2'}}");
  f->sql = ddb_sql_new (f->backend, NULL);
  g_assert_nonnull (f->sql);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  (void) data;
  ddb_sql_free (f->sql);
  ddb_backend_free (f->backend);
}

/* Runs TEXT; returns its rows as "v|v|…" lines (NULL as "∅", BLOB as hex), and its stats. */
static char *
run (Fixture *f, const char *text, DdbSqlStats *stats)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbSqlQuery) q = ddb_sql_query_new (f->sql, text, NULL, &error);
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  while (ddb_sql_query_next (q, &error))
    {
      for (guint i = 0; i < ddb_sql_query_n_columns (q); i++)
        {
          gsize len;
          const char *data;

          if (i > 0)
            g_string_append_c (out, '|');
          switch (ddb_sql_query_type (q, i))
            {
            case DDB_SQL_NULL:
              g_string_append (out, "∅");
              break;
            case DDB_SQL_BLOB:
              data = ddb_sql_query_bytes (q, i, &len);
              for (gsize j = 0; j < len; j++)
                g_string_append_printf (out, "%02x", (guchar) data[j]);
              break;
            case DDB_SQL_INTEGER:
              g_string_append_printf (out, "i%" G_GINT64_FORMAT, ddb_sql_query_int (q, i));
              break;
            default:
              data = ddb_sql_query_bytes (q, i, &len);
              g_string_append_len (out, data, (gssize) len);
            }
        }
      g_string_append_c (out, '\n');
    }
  g_assert_no_error (error);
  if (stats != NULL)
    ddb_sql_query_stats (q, stats);
  return g_string_free (out, FALSE);
}

static void
assert_rows (Fixture *f, const char *text, const char *expected)
{
  g_autofree char *got = run (f, text, NULL);

  g_assert_cmpstr (got, ==, expected);
}

static void
test_types (Fixture *f, gconstpointer data)
{
  /* N: INTEGER when it fits, else the exact text; BOOL 0/1; B bytes; NULL; sets and maps as
   * tagged plain JSON that json1 reads. */
  g_autofree char *zeros = g_strnfill (129, '0');
  g_autofree char *expected = g_strdup_printf (
      "12345678901234567890123456789012345678|0.%s1|i1|000102ff|∅|{\"$SS\":[\"p\",\"q\"]}|"
      "{\"n\":2.5,\"l\":[\"z\"]}\n",
      zeros);

  (void) data;
  assert_rows (f, "SELECT big, tiny, flag, bin, nul, tags, m FROM Tab WHERE pk = 'a' AND sk = 1",
               expected);
  assert_rows (f, "SELECT json_extract(m, '$.l[0]'), json_extract(tags, '$.\"$SS\"[1]') FROM Tab "
                  "WHERE pk = 'a' AND sk = 1",
               "z|q\n");
  assert_rows (f, "SELECT typeof(sk), sk FROM Tab WHERE pk = 'a' ORDER BY sk",
               "text|-99999999999999999999\ntext|0.5\ninteger|i1\ninteger|i7\n"
               "text|100000000000000000000\n");
  /* _item is the item as DynamoDB JSON, _size its size as DynamoDB counts it. */
  assert_rows (f, "SELECT _item, _size FROM Tab WHERE pk = 'b'",
               "{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"1\"},\"g\":{\"S\":\"y\"}}|i9\n");
  /* A column the sample never saw is added when named, NULL where missing. */
  assert_rows (f, "SELECT nothere FROM Tab WHERE pk = 'b'", "∅\n");
}

static void
test_numbers (Fixture *f, gconstpointer data)
{
  (void) data;
  /* 1.0 = 1; ddb_n orders INTEGER and decimal TEXT numerically; ddb_sum is exact. */
  assert_rows (f, "SELECT count(*) FROM Tab WHERE sk = 1.0", "i2\n");
  assert_rows (f, "SELECT sk FROM Tab WHERE pk = 'a' ORDER BY ddb_n(sk) DESC",
               "100000000000000000000\ni7\ni1\n0.5\n-99999999999999999999\n");
  assert_rows (f, "SELECT ddb_sum(sk), ddb_total(absent) FROM Tab WHERE pk = 'a'", "9.5|i0\n");
  /* ORDER BY a column of numbers is numeric (sorted by the table), NULLs first, ties as
   * read, with LIMIT after the sort. */
  assert_rows (f, "SELECT sk FROM Tab ORDER BY sk",
               "-99999999999999999999\n0.5\ni1\ni1\ni2\ni7\n100000000000000000000\n");
  assert_rows (f, "SELECT pk, sk FROM Tab ORDER BY pk DESC, sk DESC LIMIT 3",
               "b|i1\na|100000000000000000000\na|i7\n");
  assert_rows (f, "SELECT sk FROM Tab WHERE pk IN ('a', 'B') ORDER BY sk DESC LIMIT 2",
               "100000000000000000000\ni7\n");
  assert_rows (f, "SELECT big FROM Tab WHERE pk = 'a' ORDER BY big LIMIT 2",
               "∅\n∅\n");
}

static void
test_exact_sum_overflow (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbSqlQuery) q = NULL;

  (void) data;
  q = ddb_sql_query_new (f->sql,
                         "SELECT ddb_sum(x) FROM (SELECT '99999999999999999999999999999999999999'"
                         " AS x UNION ALL SELECT '0.1')",
                         NULL, &error);
  g_assert_no_error (error);
  g_assert_false (ddb_sql_query_next (q, &error));
  g_assert_error (error, DDB_SQL_ERROR, DDB_SQL_ERROR_SQL);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "Number"));
}

/* Each condition read with the key pushed down returns what the same comparison returns
 * unpushed: SQLite's own on +pk and +g (never passed to the table), and for the number key sk
 * the numeric one that ddb_n() gives, since a column of numbers compares as numbers. */
static void
test_pushdown_agrees (Fixture *f, gconstpointer data)
{
  const char *pairs[][2] = {
    { "pk = 'a'", "+pk = 'a'" },
    { "pk = 'a' AND sk = 1", "+pk = 'a' AND ddb_n(sk) = ddb_n(1)" },
    { "pk = 'a' AND sk > 0", "+pk = 'a' AND ddb_n(sk) > ddb_n(0)" },
    { "pk = 'a' AND sk < 2", "+pk = 'a' AND ddb_n(sk) < ddb_n(2)" },
    { "pk = 'a' AND sk >= '0.25'", "+pk = 'a' AND ddb_n(sk) >= ddb_n('0.25')" },
    { "pk = 'a' AND sk <= 1.0", "+pk = 'a' AND ddb_n(sk) <= ddb_n(1)" },
    { "pk = 'a' AND sk > 0.5", "+pk = 'a' AND ddb_n(sk) > ddb_n('0.5')" },
    { "pk = 'a' AND sk < -1", "+pk = 'a' AND ddb_n(sk) < ddb_n(-1)" },
    { "pk = 'a' AND sk BETWEEN 0 AND 7", "+pk = 'a' AND ddb_n(sk) BETWEEN ddb_n(0) AND ddb_n(7)" },
    { "pk = 'a' AND sk BETWEEN 7 AND 0", "0" },
    { "pk = 'a' AND sk > 0.5 AND sk < 100000000000000000000",
      "+pk = 'a' AND ddb_n(sk) > ddb_n(0.5) AND ddb_n(sk) < ddb_n('100000000000000000000')" },
    { "pk = 'a' AND sk = '0.5'", "+pk = 'a' AND ddb_n(sk) = ddb_n('0.5')" },
    { "pk = 'a' AND sk = '1'", "+pk = 'a' AND ddb_n(sk) = ddb_n(1)" },
    { "pk = 'a' AND sk < 'x'", "+pk = 'a'" },   /* every number is below text */
    { "pk = 'a' AND sk > 'x'", "0" },
    { "pk = 'a' AND sk > NULL", "0" },
    { "sk > 0.5", "ddb_n(sk) > ddb_n(0.5)" },
    { "sk <> 1", "ddb_n(sk) <> ddb_n(1)" },
    { "pk IN ('a', 'b', 'a', 'zz')", "+pk IN ('a', 'b', 'zz')" },
    { "pk = 'A'", "+pk = 'A'" },
    { "pk LIKE 'b'", "+pk LIKE 'b'" },
    { "pk = 'a' COLLATE NOCASE", "+pk = 'a' COLLATE NOCASE" },
    { "g = 'y'", "+g = 'y'" },
  };

  (void) data;
  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autofree char *pushed
          = g_strdup_printf ("SELECT pk, sk FROM Tab WHERE %s ORDER BY pk, ddb_n(sk)", pairs[i][0]);
      g_autofree char *plain
          = g_strdup_printf ("SELECT pk, sk FROM Tab WHERE %s ORDER BY pk, ddb_n(sk)", pairs[i][1]);
      g_autofree char *a = run (f, pushed, NULL);
      g_autofree char *b = run (f, plain, NULL);

      g_test_message ("%s", pairs[i][0]);
      g_assert_cmpstr (a, ==, b);
    }
  /* Columns of numbers compare as numbers, not as SQLite ranks INTEGER below TEXT. */
  assert_rows (f, "SELECT sk FROM Tab WHERE pk = 'a' AND sk < 0 ORDER BY ddb_n(sk)",
               "-99999999999999999999\n");
  assert_rows (f, "SELECT count(*) FROM Tab WHERE sk > 1", "i3\n");
}

static void
test_requests (Fixture *f, gconstpointer data)
{
  DdbSqlStats s;
  g_autofree char *r1 = NULL, *r2 = NULL, *r3 = NULL, *r4 = NULL, *r5 = NULL;
  g_autofree char *plan = NULL;
  g_autoptr (GError) error = NULL;

  (void) data;
  r1 = run (f, "SELECT * FROM Tab WHERE pk = 'a'", &s);
  g_assert_cmpuint (s.requests, ==, 1);
  g_assert_cmpuint (s.items_read, ==, 5);
  r2 = run (f, "SELECT sk FROM Tab WHERE pk = 'a' ORDER BY sk DESC LIMIT 2", &s);
  g_assert_cmpstr (r2, ==, "100000000000000000000\ni7\n");
  g_assert_cmpuint (s.items_read, ==, 2); /* ScanIndexForward false, Limit 2 */
  r3 = run (f, "SELECT pk FROM Tab WHERE pk IN ('a', 'b', 'a')", &s);
  g_assert_cmpuint (s.requests, ==, 2); /* once per distinct value */
  r4 = run (f, "SELECT count(*) FROM \"Tab.ByG\" WHERE g = 'y'", &s);
  g_assert_cmpstr (r4, ==, "i2\n");
  g_assert_cmpuint (s.requests, ==, 1);
  r5 = run (f, "SELECT count(*) FROM Tab WHERE sk = 1", &s);
  g_assert_cmpstr (r5, ==, "i2\n");
  g_assert_cmpuint (s.items_read, ==, 7); /* a Scan, filtered */

  plan = ddb_sql_explain (f->sql, "SELECT * FROM Tab WHERE pk = 'a' AND sk = 1", NULL, NULL,
                          &error);
  g_assert_no_error (error);
  g_assert_cmpstr (plan, ==, "Query Tab where pk = 'a' and sk = 1 — 1 request\n");
}

static void
test_join_lookup (Fixture *f, gconstpointer data)
{
  DdbSqlStats s;
  g_autofree char *rows = NULL;
  g_autofree char *plan = NULL;
  double rcu = -1;

  (void) data;
  /* Each side read once, whatever the number of rows joined. */
  rows = run (f,
              "SELECT a.pk, a.sk, b.pk FROM Tab a JOIN Tab b ON b.g = a.g AND b.pk <> a.pk "
              "ORDER BY 1, ddb_n(a.sk), 3",
              &s);
  g_assert_cmpstr (rows, ==, "a|i7|b\nb|i1|a\n");
  g_assert_cmpuint (s.requests, ==, 2);
  plan = ddb_sql_explain (f->sql, "SELECT * FROM Tab a JOIN Tab b ON b.g = a.g", &rcu, NULL, NULL);
  g_assert_nonnull (strstr (plan, "then look up g in memory"));
  g_assert_cmpfloat (rcu, >, 0);
}

static void
test_refused (Fixture *f, gconstpointer data)
{
  const char *refused[] = {
    "ATTACH ':memory:' AS x", "SELECT load_extension('libx')", "PRAGMA writable_schema = 1",
    "CREATE TABLE t (x)", "CREATE TEMP VIEW v AS SELECT 1", "DROP TABLE Tab",
    "INSERT INTO Tab (pk, sk) VALUES ('c', 1)", "UPDATE Tab SET g = 'z'", "DELETE FROM Tab",
    "PRAGMA journal_mode", "VACUUM",
  };

  (void) data;
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (DdbSqlQuery) q = ddb_sql_query_new (f->sql, refused[i], NULL, &error);

      g_test_message ("%s", refused[i]);
      if (q != NULL)
        g_assert_false (ddb_sql_query_next (q, &error));
      g_assert_nonnull (error);
      g_assert_true (error->domain == DDB_SQL_ERROR);
    }
  /* Nothing was written. */
  assert_rows (f, "SELECT count(*) FROM Tab", "i7\n");
  assert_rows (f, "SELECT name FROM pragma_table_info('Tab') WHERE name = 'pk'", "pk\n");
}

/* The table-valued PRAGMA names its table only as it runs: the first statement of a connection
 * may still name a table nothing declared yet (in any case), or one that does not exist. */
static void
test_pragma_table (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbSqlQuery) q = NULL;

  (void) data;
  assert_rows (
      f, "SELECT name FROM pragma_table_info('tab') WHERE name IN ('pk', 'big') ORDER BY name",
      "big\npk\n");
  assert_rows (f, "SELECT count(*) FROM tab WHERE pk = 'b'", "i1\n");
  q = ddb_sql_query_new (f->sql, "SELECT name FROM pragma_table_info('Nope')", NULL, &error);
  g_assert_no_error (error);
  g_assert_false (ddb_sql_query_next (q, &error));
  g_assert_nonnull (error);
}

static void
test_errors (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) e1 = NULL;
  g_autoptr (GError) e2 = NULL;
  g_autoptr (GError) e3 = NULL;

  (void) data;
  g_assert_null (ddb_sql_query_new (f->sql, "SELEC 1", NULL, &e1));
  g_assert_error (e1, DDB_SQL_ERROR, DDB_SQL_ERROR_SQL);
  g_assert_cmpstr (e1->message, ==, "near \"SELEC\": syntax error");
  g_assert_null (ddb_sql_query_new (f->sql, "SELECT * FROM Nope", NULL, &e2));
  g_assert_cmpstr (e2->message, ==, "no such table: Nope");
  g_assert_null (ddb_sql_query_new (f->sql, "SELECT 1; SELECT 2", NULL, &e3));
  /* Table names are found case-insensitively, as SQL's are. */
  assert_rows (f, "SELECT count(*) FROM tab WHERE pk = 'b'", "i1\n");
}

static void
test_values (Fixture *f, gconstpointer data)
{
  g_autoptr (DdbSqlQuery) q = NULL;
  g_autoptr (DdbValue) item = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *json = NULL;
  DdbSqlColumnOrigin origin;

  (void) data;
  /* The cells of a column read back as the type the table holds there. */
  q = ddb_sql_query_new (f->sql,
                         "SELECT pk, sk, big, flag, bin, tags, m, nul, 1.5 AS r FROM Tab WHERE pk "
                         "= 'a' AND sk = 1",
                         NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ddb_sql_query_next (q, &error));
  g_assert_true (ddb_sql_query_column_origin (q, 2, &origin));
  g_assert_cmpstr (origin.sql_table, ==, "Tab");
  g_assert_cmpstr (origin.table, ==, "Tab");
  g_assert_cmpstr (origin.attribute, ==, "big");
  g_assert_cmpstr (origin.table_pk, ==, "pk");
  g_assert_cmpstr (origin.table_sk, ==, "sk");
  g_assert_false (ddb_sql_query_column_origin (q, 8, NULL));
  item = ddb_sql_query_row_item (q);
  json = ddb_json_format_item (item);
  g_assert_cmpstr (json, ==,
                   "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"big\":{\"N\":"
                   "\"12345678901234567890123456789012345678\"},\"flag\":{\"BOOL\":true},\"bin\":"
                   "{\"B\":\"AAEC/w==\"},\"tags\":{\"SS\":[\"p\",\"q\"]},\"m\":{\"M\":{\"n\":{\"N\":"
                   "\"2.5\"},\"l\":{\"L\":[{\"S\":\"z\"}]}}},\"r\":{\"N\":\"1.5\"}}");
  g_clear_pointer (&q, ddb_sql_query_free);
  /* A column of an index comes from the index's table, whose key is the table's. */
  q = ddb_sql_query_new (f->sql, "SELECT g, sk FROM \"Tab.ByG\" WHERE g = 'y'", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ddb_sql_query_next (q, &error));
  g_assert_true (ddb_sql_query_column_origin (q, 1, &origin));
  g_assert_cmpstr (origin.sql_table, ==, "Tab.ByG");
  g_assert_cmpstr (origin.table, ==, "Tab");
  g_assert_cmpstr (origin.attribute, ==, "sk");
  g_assert_cmpstr (origin.table_pk, ==, "pk");
  g_assert_cmpstr (origin.table_sk, ==, "sk");
}

static void
test_cancel (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (DdbSqlQuery) q = NULL;
  DdbSqlStats s;

  (void) data;
  for (int i = 0; i < 3000; i++)
    {
      g_autofree char *item = g_strdup_printf ("{'pk': {'S': 'c%d'}, 'sk': {'N': '%d'}, 'pad': "
                                               "{'S': '%0900d'}}",
                                               i, i, i);
      etu_put (f->engine, "Tab", item);
    }
  ddb_sql_set_scan_segments (f->sql, 1);
  q = ddb_sql_query_new (f->sql, "SELECT pk FROM Tab", cancellable, &error);
  g_assert_no_error (error);
  g_assert_true (ddb_sql_query_next (q, &error));
  g_cancellable_cancel (cancellable);
  while (ddb_sql_query_next (q, &error))
    ;
  g_assert_error (error, DDB_SQL_ERROR, DDB_SQL_ERROR_CANCELLED);
  ddb_sql_query_stats (q, &s);
  /* About 3 MB: a full read is 3 pages or more; the cancelled one stopped after the first. */
  g_assert_cmpuint (s.requests, ==, 1);
}

static void
test_drift (Fixture *f, gconstpointer data)
{
  g_autoptr (DdbValue) meta = ddb_value_new_s ("META", -1);
  const char *keys[] = { "PK", "SK", NULL };
  DdbSqlDriftSpec spec = {
    .source_table = "Blog", .source_key = "PK", .source_sort_key = "SK",
    .source_sort_value = meta, .source_attr = "name", .copy_table = "Blog",
    .copy_ref = "authorId", .copy_attr = "authorName", .copy_key = keys,
  };
  g_autofree char *text = ddb_sql_drift_query (&spec);
  g_autofree char *rows = NULL;
  DdbSqlStats s;

  (void) data;
  g_assert_cmpstr (text, ==,
                   "SELECT c.\"PK\", c.\"SK\", c.\"authorName\", s.\"name\" FROM \"Blog\" AS c "
                   "JOIN \"Blog\" AS s ON s.\"PK\" = c.\"authorId\" AND s.\"SK\" = 'META' WHERE "
                   "c.\"authorName\" IS NOT s.\"name\"");
  json_decref (etu_ok (f->engine, "CreateTable",
          "{'TableName': 'Blog', 'BillingMode': 'PAY_PER_REQUEST',"
          " 'AttributeDefinitions': [{'AttributeName': 'PK', 'AttributeType': 'S'},"
          "  {'AttributeName': 'SK', 'AttributeType': 'S'}],"
          " 'KeySchema': [{'AttributeName': 'PK', 'KeyType': 'HASH'},"
          "  {'AttributeName': 'SK', 'KeyType': 'RANGE'}]}"));
  for (int u = 0; u < 20; u++)
    {
      g_autofree char *item = g_strdup_printf (
          "{'PK': {'S': 'USER#%d'}, 'SK': {'S': 'META'}, 'name': {'S': 'Name %d'}}", u, u);
      etu_put (f->engine, "Blog", item);
    }
  for (int p = 0; p < 200; p++)
    {
      /* Posts 7, 77 and 177 hold an old copy; 100 none; 150 points at no author. */
      g_autofree char *name = p == 7 || p == 77 || p == 177
                                  ? g_strdup_printf ("Old %d", p % 20)
                                  : g_strdup_printf ("Name %d", p % 20);
      g_autofree char *item = g_strdup_printf (
          "{'PK': {'S': 'POST#%03d'}, 'SK': {'S': 'META'}, 'authorId': {'S': 'USER#%d'}%s%s%s}",
          p, p == 150 ? 99 : p % 20, p == 100 ? "" : ", 'authorName': {'S': '",
          p == 100 ? "" : name, p == 100 ? "" : "'}");
      etu_put (f->engine, "Blog", item);
    }
  g_autofree char *ordered = g_strconcat (text, " ORDER BY 1", NULL);
  rows = run (f, ordered, &s);
  g_assert_cmpstr (rows, ==,
                   "POST#007|META|Old 7|Name 7\nPOST#077|META|Old 17|Name 17\n"
                   "POST#100|META|∅|Name 0\nPOST#177|META|Old 17|Name 17\n");
  g_assert_cmpuint (s.requests, <=, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/sql/types", test_types);
  ADD ("/sql/numbers", test_numbers);
  ADD ("/sql/exact-sum-overflow", test_exact_sum_overflow);
  ADD ("/sql/pushdown-agrees", test_pushdown_agrees);
  ADD ("/sql/requests", test_requests);
  ADD ("/sql/join-lookup", test_join_lookup);
  ADD ("/sql/refused", test_refused);
  ADD ("/sql/errors", test_errors);
  ADD ("/sql/pragma-table", test_pragma_table);
  ADD ("/sql/values", test_values);
  ADD ("/sql/cancel", test_cancel);
  ADD ("/sql/drift", test_drift);
  return g_test_run ();
}
