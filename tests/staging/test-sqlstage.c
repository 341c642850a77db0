/* test-sqlstage.c: the SQL workbench's Stage update: one attribute set to a column's value on
 * each row's item, guarded by the value the row showed: items changed or gone since are
 * conflicts, rows that cannot name one item of the table are failures, the rest is staged as
 * one change per item (merged with what is staged there already), read through BatchGetItem in
 * requests of 100 keys, and committed with the commit's own guard. */
#include <glib/gstdio.h>

#include "backend/backend.h"
#include "core/ddbjson.h"
#include "core/itemsize.h"
#include "staging/commit.h"
#include "staging/sqlstage.h"
#include "../core/test-util.h"
#include "../engine/engine-test-util.h"

#define CONN "conn"

static const char *const key_names[] = { "PK", "SK", NULL };

static json_t *
call_ok (DdbBackend *be, const char *op, json_t *req)
{
  GError *error = NULL;
  json_t *resp = NULL;

  ddb_backend_call (be, op, req, NULL, &resp, &error);
  g_assert_no_error (error);
  json_decref (req);
  return resp;
}

static void
put (DdbBackend *be, const char *item)
{
  json_decref (call_ok (be, "PutItem", etu_json ("{'TableName': 'Blog', 'Item': %s}", item)));
}

/* The demo's blog: users and their posts, each post with a copy of its author's name. */
static DdbBackend *
blog_backend (void)
{
  DdbBackend *be = ddb_backend_new_for_engine (etu_engine_new (), ":memory:");

  json_decref (call_ok (be, "CreateTable", etu_json (
    "{'TableName': 'Blog', 'BillingMode': 'PAY_PER_REQUEST',"
    " 'AttributeDefinitions': [{'AttributeName': 'PK', 'AttributeType': 'S'},"
    "                          {'AttributeName': 'SK', 'AttributeType': 'S'}],"
    " 'KeySchema': [{'AttributeName': 'PK', 'KeyType': 'HASH'},"
    "               {'AttributeName': 'SK', 'KeyType': 'RANGE'}]}")));
  put (be, "{'PK': {'S': 'USER#12'}, 'SK': {'S': 'META'}, 'name': {'S': 'Mara Vance'}}");
  put (be, "{'PK': {'S': 'USER#88'}, 'SK': {'S': 'META'}, 'name': {'S': 'Lio Tan'}}");
  put (be, "{'PK': {'S': 'POST#9f3'}, 'SK': {'S': 'META'}, 'authorId': {'S': 'U#12'},"
           " 'authorName': {'S': 'Mara Vance'}, 'title': {'S': 'Modeling 1:N'}}");
  put (be, "{'PK': {'S': 'POST#a71'}, 'SK': {'S': 'META'}, 'authorId': {'S': 'U#12'},"
           " 'authorName': {'S': 'Mara Vance'}, 'title': {'S': 'Sparse GSIs'}}");
  put (be, "{'PK': {'S': 'POST#c22'}, 'SK': {'S': 'META'}, 'authorId': {'S': 'U#12'},"
           " 'authorName': {'S': 'Mara Vance'}, 'title': {'S': 'Item collections'}}");
  put (be, "{'PK': {'S': 'POST#b04'}, 'SK': {'S': 'META'}, 'authorId': {'S': 'U#88'},"
           " 'authorName': {'S': 'Lio Tan'}, 'title': {'S': 'Query vs Scan'}}");
  return be;
}

static DdbValue *
get_item (DdbBackend *be, const char *pk, const char *sk)
{
  json_t *resp = call_ok (be, "GetItem",
                          etu_json ("{'TableName': 'Blog', 'Key': {'PK': {'S': '%s'},"
                                    " 'SK': {'S': '%s'}}, 'ConsistentRead': true}",
                                    pk, sk));
  json_t *item = json_object_get (resp, "Item");
  DdbValue *value = item != NULL ? ddb_json_to_item (item, NULL) : NULL;

  json_decref (resp);
  return value;
}

static DdbValue *
post_key (const char *pk)
{
  g_autofree char *json = g_strdup_printf ("{'PK': {'S': '%s'}, 'SK': {'S': 'META'}}", pk);

  return tu_item (json);
}

/* A single-quoted DynamoDB JSON value, or NULL for NULL. */
static DdbValue *
value_of (const char *json)
{
  g_autofree char *text = NULL;
  GError *error = NULL;
  DdbValue *v;

  if (json == NULL)
    return NULL;
  text = tu_dq (json);
  v = ddb_json_parse_value (text, -1, &error);
  g_assert_no_error (error);
  return v;
}

/* A row of KEY (taken) that showed SHOWN and wants VALUE (DynamoDB JSON, NULL: absent). */
static DdbSqlStageRow *
row_new (DdbValue *key, const char *shown, const char *value)
{
  DdbSqlStageRow *row = g_new0 (DdbSqlStageRow, 1);

  row->key = key;
  row->shown = value_of (shown);
  row->value = value_of (value);
  return row;
}

static DdbSqlStageRow *
post_row (const char *pk, const char *shown, const char *value)
{
  return row_new (post_key (pk), shown, value);
}

static GPtrArray *
rows_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_sql_stage_row_free);
}

static void
stage (DdbStaging *st, DdbBackend *be, const char *attribute, GPtrArray *rows,
       DdbSqlStageReport *report)
{
  DdbSqlStageSpec spec = { CONN, "Blog", key_names, attribute };
  GError *error = NULL;

  g_assert_true (ddb_sql_stage (st, be, &spec, rows, NULL, report, &error));
  g_assert_no_error (error);
}

static GPtrArray *
open_changes (DdbStaging *st)
{
  GError *error = NULL;
  GPtrArray *list = ddb_staging_list (st, CONN, "Blog", FALSE, &error);

  g_assert_no_error (error);
  return list;
}

static void
assert_failure (const DdbSqlStageReport *report, guint i, const char *key, const char *message)
{
  const DdbExprStageFailure *f;

  g_assert_cmpuint (i, <, report->failures->len);
  f = g_ptr_array_index (report->failures, i);
  if (key != NULL)
    tu_assert_item (f->key, key);
  else
    g_assert_null (f->key);
  g_assert_cmpstr (f->message, ==, message);
}

static void
commit (DdbStaging *st, DdbBackend *be, DdbCommitMode mode, guint committed, guint conflicts)
{
  DdbCommitOptions options = { .connection = CONN, .mode = mode };
  DdbCommitReport report;
  GError *error = NULL;

  g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (report.committed, ==, committed);
  g_assert_cmpuint (report.conflicts, ==, conflicts);
  g_assert_cmpuint (report.failed, ==, 0);
  ddb_commit_report_clear (&report);
}

static void
assert_author (DdbBackend *be, const char *pk, const char *name)
{
  g_autoptr (DdbValue) item = get_item (be, pk, "META");
  const DdbValue *v;

  g_assert_nonnull (item);
  v = ddb_value_map_get (item, "authorName");
  if (name == NULL)
    g_assert_null (v);
  else
    {
      g_assert_nonnull (v);
      g_assert_cmpstr (v->bytes.data, ==, name);
    }
}

static void
test_rename (void)
{
  g_autoptr (DdbBackend) be = blog_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) rows = rows_new ();
  g_autoptr (GPtrArray) changes = NULL;
  static const char *const pks[] = { "POST#9f3", "POST#a71", "POST#c22" };
  DdbSqlStageReport report;

  for (guint i = 0; i < G_N_ELEMENTS (pks); i++)
    g_ptr_array_add (rows, post_row (pks[i], "{'S': 'Mara Vance'}", "{'S': 'Mara V.'}"));
  stage (st, be, "authorName", rows, &report);
  g_assert_cmpuint (report.n_staged, ==, 3);
  g_assert_cmpuint (report.n_unchanged, ==, 0);
  g_assert_cmpuint (report.n_conflicts, ==, 0);
  g_assert_cmpuint (report.n_failed, ==, 0);
  g_assert_cmpuint (report.failures->len, ==, 0);
  ddb_sql_stage_report_clear (&report);

  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, 3);
  for (guint i = 0; i < changes->len; i++)
    {
      DdbChange *c = g_ptr_array_index (changes, i);
      g_autoptr (DdbValue) key = post_key (pks[i]);
      g_autoptr (DdbValue) item = get_item (be, pks[i], "META");
      g_autoptr (DdbValue) wanted = ddb_value_copy (item);

      ddb_value_map_set (wanted, "authorName", tu_str ("Mara V."));
      g_assert_cmpint (c->kind, ==, DDB_CHANGE_UPDATE);
      g_assert_cmpint (c->state, ==, DDB_CHANGE_STAGED);
      g_assert_true (ddb_value_equal (c->key, key));
      /* the whole item as read now, and the same with only the attribute changed */
      g_assert_true (ddb_value_equal (c->original, item));
      g_assert_true (ddb_value_equal (c->target, wanted));
    }
  tu_assert_item (((DdbChange *) g_ptr_array_index (changes, 0))->target,
                  "{'PK': {'S': 'POST#9f3'}, 'SK': {'S': 'META'}, 'authorId': {'S': 'U#12'},"
                  " 'authorName': {'S': 'Mara V.'}, 'title': {'S': 'Modeling 1:N'}}");

  /* staging wrote nothing to the table; the commit does */
  assert_author (be, "POST#a71", "Mara Vance");
  commit (st, be, DDB_COMMIT_TRANSACTIONS, 3, 0);
  for (guint i = 0; i < G_N_ELEMENTS (pks); i++)
    assert_author (be, pks[i], "Mara V.");
  assert_author (be, "POST#b04", "Lio Tan");
  g_clear_pointer (&changes, g_ptr_array_unref);
  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, 0);
}

/* U+0000 is a valid string character: a key, a shown value and a new value holding one are
 * staged, kept in the staging database (reopened here) and committed whole; a row that showed
 * the value only up to the NUL is a conflict. */
static void
test_nul_in_strings (void)
{
  g_autoptr (DdbBackend) be = blog_backend ();
  g_autofree char *dir = g_dir_make_tmp ("dynoscope-sqlstage-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "staging.db", NULL);
  g_autoptr (DdbStaging) st = ddb_staging_open (path, NULL);
  g_autoptr (GPtrArray) rows = rows_new ();
  g_autoptr (GPtrArray) changes = NULL;
  g_autoptr (DdbValue) item = NULL;
  const DdbValue *name;
  DdbSqlStageReport report;

  put (be, "{'PK': {'S': 'POST#\\u0000'}, 'SK': {'S': 'META'}, 'authorName': {'S': 'Mara\\u0000Vance'}}");
  put (be, "{'PK': {'S': 'POST#\\u00001'}, 'SK': {'S': 'META'}, 'authorName': {'S': 'Mara\\u0000Vance'}}");
  g_ptr_array_add (rows, post_row ("POST#\\u0000", "{'S': 'Mara\\u0000Vance'}", "{'S': 'M\\u0000V'}"));
  g_ptr_array_add (rows, post_row ("POST#\\u00001", "{'S': 'Mara\\u0000'}", "{'S': 'M\\u0000V'}"));
  stage (st, be, "authorName", rows, &report);
  g_assert_cmpuint (report.n_staged, ==, 1);
  g_assert_cmpuint (report.n_conflicts, ==, 1);
  assert_failure (&report, 0, "{'PK': {'S': 'POST#\\u00001'}, 'SK': {'S': 'META'}}",
                  "The item's authorName is now {\"S\":\"Mara\\u0000Vance\"}");
  ddb_sql_stage_report_clear (&report);

  g_clear_pointer (&st, ddb_staging_free);
  st = ddb_staging_open (path, NULL);
  g_assert_nonnull (st);
  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, 1);
  tu_assert_item (((DdbChange *) g_ptr_array_index (changes, 0))->key,
                  "{'PK': {'S': 'POST#\\u0000'}, 'SK': {'S': 'META'}}");
  tu_assert_item (((DdbChange *) g_ptr_array_index (changes, 0))->target,
                  "{'PK': {'S': 'POST#\\u0000'}, 'SK': {'S': 'META'}, 'authorName': {'S': 'M\\u0000V'}}");
  commit (st, be, DDB_COMMIT_SINGLE, 1, 0);
  item = get_item (be, "POST#\\u0000", "META");
  name = ddb_value_map_get (item, "authorName");
  g_assert_cmpmem (name->bytes.data, name->bytes.len, "M\0V", 3);
  g_clear_pointer (&item, ddb_value_free);
  item = get_item (be, "POST#\\u00001", "META");
  name = ddb_value_map_get (item, "authorName");
  g_assert_cmpmem (name->bytes.data, name->bytes.len, "Mara\0Vance", 10);

  g_clear_pointer (&st, ddb_staging_free);
  g_remove (path);
  g_rmdir (dir);
}

static void
test_conflicts (void)
{
  g_autoptr (DdbBackend) be = blog_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) rows = rows_new ();
  g_autoptr (GPtrArray) changes = NULL;
  DdbSqlStageReport report;

  g_ptr_array_add (rows, post_row ("POST#9f3", "{'S': 'Mara Vance'}", "{'S': 'Mara V.'}"));
  /* the result showed a name the item no longer holds */
  g_ptr_array_add (rows, post_row ("POST#b04", "{'S': 'Mara Vance'}", "{'S': 'Mara V.'}"));
  /* deleted since the query ran */
  g_ptr_array_add (rows, post_row ("POST#gone", "{'S': 'Mara Vance'}", "{'S': 'Mara V.'}"));
  /* the row showed no authorName, but the post has one */
  g_ptr_array_add (rows, post_row ("POST#c22", NULL, "{'S': 'Mara V.'}"));
  /* a NULL is a value, not an absent attribute */
  g_ptr_array_add (rows, row_new (tu_item ("{'PK': {'S': 'USER#88'}, 'SK': {'S': 'META'}}"),
                                  "{'NULL': true}", "{'S': 'x'}"));
  /* it showed a name the item does not have (any more) */
  g_ptr_array_add (rows, row_new (tu_item ("{'PK': {'S': 'USER#12'}, 'SK': {'S': 'META'}}"),
                                  "{'S': 'Mara Vance'}", "{'S': 'Mara V.'}"));
  stage (st, be, "authorName", rows, &report);
  g_assert_cmpuint (report.n_staged, ==, 1);
  g_assert_cmpuint (report.n_unchanged, ==, 0);
  g_assert_cmpuint (report.n_conflicts, ==, 5);
  g_assert_cmpuint (report.n_failed, ==, 0);
  g_assert_cmpuint (report.failures->len, ==, 5);
  assert_failure (&report, 0, "{'PK': {'S': 'POST#b04'}, 'SK': {'S': 'META'}}",
                  "The item's authorName is now {\"S\":\"Lio Tan\"}");
  assert_failure (&report, 1, "{'PK': {'S': 'POST#gone'}, 'SK': {'S': 'META'}}",
                  "The item no longer exists");
  assert_failure (&report, 2, "{'PK': {'S': 'POST#c22'}, 'SK': {'S': 'META'}}",
                  "The item's authorName is now {\"S\":\"Mara Vance\"}");
  assert_failure (&report, 3, "{'PK': {'S': 'USER#88'}, 'SK': {'S': 'META'}}",
                  "The item no longer has authorName");
  assert_failure (&report, 4, "{'PK': {'S': 'USER#12'}, 'SK': {'S': 'META'}}",
                  "The item no longer has authorName");
  ddb_sql_stage_report_clear (&report);

  /* only the row whose item still holds what it showed is staged */
  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, 1);
  tu_assert_item (((DdbChange *) g_ptr_array_index (changes, 0))->key,
                  "{'PK': {'S': 'POST#9f3'}, 'SK': {'S': 'META'}}");
}

/* A long value is cut in the message, at a character. */
static void
test_conflict_long_value (void)
{
  g_autoptr (DdbBackend) be = blog_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) rows = rows_new ();
  g_autoptr (GString) long_name = g_string_new (NULL);
  g_autofree char *item = NULL;
  const DdbExprStageFailure *f;
  DdbSqlStageReport report;

  for (guint i = 0; i < 500; i++)
    g_string_append (long_name, "é");
  item = g_strdup_printf ("{'PK': {'S': 'POST#long'}, 'SK': {'S': 'META'},"
                          " 'authorName': {'S': '%s'}}",
                          long_name->str);
  put (be, item);
  g_ptr_array_add (rows, post_row ("POST#long", "{'S': 'Mara Vance'}", "{'S': 'Mara V.'}"));
  stage (st, be, "authorName", rows, &report);
  g_assert_cmpuint (report.n_conflicts, ==, 1);
  f = g_ptr_array_index (report.failures, 0);
  g_assert_true (g_str_has_prefix (f->message, "The item's authorName is now {\"S\":\"éé"));
  g_assert_true (g_str_has_suffix (f->message, "é…"));
  g_assert_true (g_utf8_validate (f->message, -1, NULL));
  g_assert_cmpuint (g_utf8_strlen (f->message, -1), ==,
                    strlen ("The item's authorName is now ") + 200 + 1);
  ddb_sql_stage_report_clear (&report);
}

static void
test_unchanged_and_remove (void)
{
  g_autoptr (DdbBackend) be = blog_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) rows = rows_new ();
  g_autoptr (GPtrArray) changes = NULL;
  g_autoptr (DdbValue) user = NULL;
  DdbChange *c;
  DdbSqlStageReport report;

  /* the column holds what the row shows: nothing to stage */
  g_ptr_array_add (rows, post_row ("POST#9f3", "{'S': 'Mara Vance'}", "{'S': 'Mara Vance'}"));
  /* absent and absent */
  g_ptr_array_add (rows, row_new (tu_item ("{'PK': {'S': 'USER#88'}, 'SK': {'S': 'META'}}"),
                                  NULL, NULL));
  /* NULL value: remove the attribute */
  g_ptr_array_add (rows, post_row ("POST#a71", "{'S': 'Mara Vance'}", NULL));
  /* guarded by its absence, set */
  g_ptr_array_add (rows, row_new (tu_item ("{'PK': {'S': 'USER#12'}, 'SK': {'S': 'META'}}"),
                                  NULL, "{'S': 'Mara V.'}"));
  stage (st, be, "authorName", rows, &report);
  g_assert_cmpuint (report.n_staged, ==, 2);
  g_assert_cmpuint (report.n_unchanged, ==, 2);
  g_assert_cmpuint (report.n_conflicts, ==, 0);
  g_assert_cmpuint (report.n_failed, ==, 0);
  ddb_sql_stage_report_clear (&report);

  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, 2);
  c = g_ptr_array_index (changes, 0);
  tu_assert_item (c->target, "{'PK': {'S': 'POST#a71'}, 'SK': {'S': 'META'},"
                             " 'authorId': {'S': 'U#12'}, 'title': {'S': 'Sparse GSIs'}}");
  g_assert_nonnull (ddb_value_map_get (c->original, "authorName"));
  c = g_ptr_array_index (changes, 1);
  tu_assert_item (c->original, "{'PK': {'S': 'USER#12'}, 'SK': {'S': 'META'},"
                               " 'name': {'S': 'Mara Vance'}}");
  tu_assert_item (c->target, "{'PK': {'S': 'USER#12'}, 'SK': {'S': 'META'},"
                             " 'name': {'S': 'Mara Vance'}, 'authorName': {'S': 'Mara V.'}}");

  commit (st, be, DDB_COMMIT_SINGLE, 2, 0);
  assert_author (be, "POST#a71", NULL);
  assert_author (be, "POST#9f3", "Mara Vance");
  user = get_item (be, "USER#12", "META");
  tu_assert_item (user, "{'PK': {'S': 'USER#12'}, 'SK': {'S': 'META'},"
                        " 'name': {'S': 'Mara Vance'}, 'authorName': {'S': 'Mara V.'}}");
}

static void
test_row_failures (void)
{
  g_autoptr (DdbBackend) be = blog_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) rows = rows_new ();
  g_autoptr (GPtrArray) changes = NULL;
  g_autofree char *body = g_strnfill (DDB_MAX_ITEM_SIZE - 1000, 'x');
  g_autofree char *y = g_strnfill (2000, 'y');
  g_autofree char *big_value = g_strdup_printf ("{'S': '%s'}", y);
  g_autofree char *long_pk = g_strnfill (2049, 'p');
  g_autofree char *big_item = NULL;
  g_autofree char *message = NULL;
  DdbSqlStageReport report;
  DdbValue *key;
  gsize size;

  /* an item close to the 400 KB limit: a longer name would pass it */
  big_item = g_strdup_printf ("{'PK': {'S': 'POST#big'}, 'SK': {'S': 'META'},"
                              " 'authorName': {'S': 'Mara Vance'}, 'body': {'S': '%s'}}",
                              body);
  put (be, big_item);

  g_ptr_array_add (rows, post_row ("POST#9f3", "{'S': 'Mara Vance'}", "{'S': 'Mara V.'}"));
  /* 0: the same item again */
  g_ptr_array_add (rows, post_row ("POST#9f3", "{'S': 'Mara Vance'}", "{'S': 'M. V.'}"));
  /* 1: no sort key */
  g_ptr_array_add (rows, row_new (tu_item ("{'PK': {'S': 'POST#a71'}}"), NULL, "{'S': 'a'}"));
  /* 2: more than the key */
  g_ptr_array_add (rows, row_new (tu_item ("{'PK': {'S': 'POST#a71'}, 'SK': {'S': 'META'},"
                                           " 'title': {'S': 'Sparse GSIs'}}"),
                                  NULL, "{'S': 'a'}"));
  /* 3: a number where the table has a string */
  g_ptr_array_add (rows, row_new (tu_item ("{'PK': {'N': '12'}, 'SK': {'S': 'META'}}"), NULL,
                                  "{'S': 'a'}"));
  /* 4: an empty key string */
  g_ptr_array_add (rows, row_new (tu_item ("{'PK': {'S': 'POST#a71'}, 'SK': {'S': ''}}"), NULL,
                                  "{'S': 'a'}"));
  /* 5: a partition key over 2048 bytes */
  key = ddb_value_new_m ();
  ddb_value_map_set (key, "PK", tu_str (long_pk));
  ddb_value_map_set (key, "SK", tu_str ("META"));
  g_ptr_array_add (rows, row_new (key, NULL, "{'S': 'a'}"));
  /* 6: no key at all */
  g_ptr_array_add (rows, row_new (NULL, NULL, "{'S': 'a'}"));
  /* 7: a value DynamoDB refuses (an empty set) */
  g_ptr_array_add (rows, post_row ("POST#c22", "{'S': 'Mara Vance'}", NULL));
  ((DdbSqlStageRow *) g_ptr_array_index (rows, rows->len - 1))->value
      = ddb_value_new_set (DDB_TYPE_SS);
  /* 8: an item the new value would make too large */
  g_ptr_array_add (rows, post_row ("POST#big", "{'S': 'Mara Vance'}", big_value));
  /* and a good one after them all */
  g_ptr_array_add (rows, post_row ("POST#b04", "{'S': 'Lio Tan'}", "{'S': 'Lio T.'}"));

  stage (st, be, "authorName", rows, &report);
  g_assert_cmpuint (report.n_staged, ==, 2);
  g_assert_cmpuint (report.n_conflicts, ==, 0);
  g_assert_cmpuint (report.n_failed, ==, 9);
  g_assert_cmpuint (report.failures->len, ==, 9);
  assert_failure (&report, 0, "{'PK': {'S': 'POST#9f3'}, 'SK': {'S': 'META'}}",
                  "The result holds the same item twice");
  assert_failure (&report, 1, "{'PK': {'S': 'POST#a71'}}", "The row's key has no attribute SK");
  assert_failure (&report, 2,
                  "{'PK': {'S': 'POST#a71'}, 'SK': {'S': 'META'}, 'title': {'S': 'Sparse GSIs'}}",
                  "The row's key holds title, which is not a key attribute of the table");
  assert_failure (&report, 3, "{'PK': {'N': '12'}, 'SK': {'S': 'META'}}",
                  "The key attribute PK is of type N; the table's is S");
  assert_failure (&report, 4, "{'PK': {'S': 'POST#a71'}, 'SK': {'S': ''}}",
                  "The key attribute SK is empty");
  g_assert_cmpstr (((DdbExprStageFailure *) g_ptr_array_index (report.failures, 5))->message,
                   ==, "The key attribute PK is over 2048 bytes");
  assert_failure (&report, 6, NULL, "The row has no key");
  assert_failure (&report, 7, "{'PK': {'S': 'POST#c22'}, 'SK': {'S': 'META'}}",
                  "One or more parameter values were invalid: An string set  may not be empty");
  {
    g_autoptr (DdbValue) item = get_item (be, "POST#big", "META");

    ddb_value_map_set (item, "authorName", value_of (big_value));
    size = ddb_item_size (item);
    g_assert_cmpuint (size, >, DDB_MAX_ITEM_SIZE);
  }
  message = g_strdup_printf ("The item would be %" G_GSIZE_FORMAT
                             " bytes, over DynamoDB's limit of 409600",
                             size);
  assert_failure (&report, 8, "{'PK': {'S': 'POST#big'}, 'SK': {'S': 'META'}}", message);
  ddb_sql_stage_report_clear (&report);

  /* the first of the two rows of one item is staged, with its value */
  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, 2);
  g_assert_cmpstr (ddb_value_map_get (((DdbChange *) g_ptr_array_index (changes, 0))->target,
                                      "authorName")->bytes.data,
                   ==, "Mara V.");
  tu_assert_item (((DdbChange *) g_ptr_array_index (changes, 1))->key,
                  "{'PK': {'S': 'POST#b04'}, 'SK': {'S': 'META'}}");
}

/* Numbers are one key however they are written: 7 and 7.0 are the same item. */
static void
test_number_key_twice (void)
{
  g_autoptr (DdbBackend) be = blog_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) rows = rows_new ();
  g_autoptr (GPtrArray) changes = NULL;
  static const char *const counter_key[] = { "id", NULL };
  DdbSqlStageSpec spec = { CONN, "Counters", counter_key, "label" };
  DdbSqlStageReport report;
  GError *error = NULL;

  json_decref (call_ok (be, "CreateTable", etu_json (
    "{'TableName': 'Counters', 'BillingMode': 'PAY_PER_REQUEST',"
    " 'AttributeDefinitions': [{'AttributeName': 'id', 'AttributeType': 'N'}],"
    " 'KeySchema': [{'AttributeName': 'id', 'KeyType': 'HASH'}]}")));
  json_decref (call_ok (be, "PutItem", etu_json (
    "{'TableName': 'Counters', 'Item': {'id': {'N': '7'}, 'label': {'S': 'seven'}}}")));
  g_ptr_array_add (rows, row_new (tu_item ("{'id': {'N': '7.0'}}"), "{'S': 'seven'}",
                                  "{'S': 'Seven'}"));
  g_ptr_array_add (rows, row_new (tu_item ("{'id': {'N': '7'}}"), "{'S': 'seven'}",
                                  "{'S': 'SEVEN'}"));
  g_assert_true (ddb_sql_stage (st, be, &spec, rows, NULL, &report, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (report.n_staged, ==, 1);
  g_assert_cmpuint (report.n_failed, ==, 1);
  assert_failure (&report, 0, "{'id': {'N': '7'}}", "The result holds the same item twice");
  ddb_sql_stage_report_clear (&report);

  changes = ddb_staging_list (st, CONN, "Counters", FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (changes->len, ==, 1);
  tu_assert_item (((DdbChange *) g_ptr_array_index (changes, 0))->key, "{'id': {'N': '7'}}");
}

static void
assert_refused (DdbStaging *st, DdbBackend *be, const DdbSqlStageSpec *spec, GPtrArray *rows,
                GQuark domain, gint code, const char *message)
{
  DdbSqlStageReport report;
  GError *error = NULL;
  g_autoptr (GPtrArray) changes = NULL;

  g_assert_false (ddb_sql_stage (st, be, spec, rows, NULL, &report, &error));
  g_assert_error (error, domain, code);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
  g_clear_error (&error);
  g_assert_cmpuint (report.n_staged + report.n_unchanged + report.n_conflicts + report.n_failed,
                    ==, 0);
  g_assert_cmpuint (report.failures->len, ==, 0);
  ddb_sql_stage_report_clear (&report);
  changes = ddb_staging_list (st, NULL, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (changes->len, ==, 0);
}

static void
test_spec_refused (void)
{
  g_autoptr (DdbBackend) be = blog_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) rows = rows_new ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GPtrArray) changes = NULL;
  static const char *const pk_only[] = { "PK", NULL };
  static const char *const swapped[] = { "SK", "PK", NULL };
  DdbSqlStageSpec spec = { CONN, "Blog", key_names, "SK" };
  DdbSqlStageReport report;
  GError *error = NULL;

  g_ptr_array_add (rows, post_row ("POST#9f3", "{'S': 'META'}", "{'S': 'DRAFT'}"));
  g_ptr_array_add (rows, post_row ("POST#a71", "{'S': 'Mara Vance'}", "{'S': 'Mara V.'}"));
  /* a key attribute cannot be set: refused before any row */
  assert_refused (st, be, &spec, rows, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                  "SK is a key attribute of Blog: a key cannot be updated, only the item "
                  "deleted and created again");
  spec.attribute = "";
  assert_refused (st, be, &spec, rows, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, NULL);
  /* the result's key must be the table's */
  spec.attribute = "authorName";
  spec.key_names = pk_only;
  assert_refused (st, be, &spec, rows, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                  "The result's key (PK) is not the key of table Blog (PK, SK)");
  spec.key_names = swapped;
  assert_refused (st, be, &spec, rows, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                  "The result's key (SK, PK) is not the key of table Blog (PK, SK)");
  /* a table that is not there (an index is not a table) */
  spec.key_names = key_names;
  spec.table = "ByAuthor";
  assert_refused (st, be, &spec, rows, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND, NULL);

  /* cancelled: nothing read, nothing staged */
  spec.table = "Blog";
  g_cancellable_cancel (cancellable);
  g_assert_false (ddb_sql_stage (st, be, &spec, rows, cancellable, &report, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_cmpuint (report.n_staged, ==, 0);
  g_assert_cmpuint (report.failures->len, ==, 0);
  ddb_sql_stage_report_clear (&report);
  changes = ddb_staging_list (st, NULL, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (changes->len, ==, 0);
}

/* 250 rows: three BatchGetItem requests (the engine refuses more than 100 keys in one). */
static void
test_many_rows (void)
{
  g_autoptr (DdbBackend) be = blog_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) rows = rows_new ();
  g_autoptr (GPtrArray) changes = NULL;
  DdbSqlStageReport report;

  for (guint i = 0; i < 250; i++)
    {
      g_autofree char *item = NULL;
      g_autofree char *pk = g_strdup_printf ("POST#%03u", i);
      g_autofree char *value = g_strdup_printf ("{'S': 'Author %u'}", i);

      /* every 50th row's item is not there */
      if (i % 50 != 49)
        {
          item = g_strdup_printf ("{'PK': {'S': '%s'}, 'SK': {'S': 'META'},"
                                  " 'authorName': {'S': 'Mara Vance'}, 'n': {'N': '%u'}}",
                                  pk, i);
          put (be, item);
        }
      g_ptr_array_add (rows, post_row (pk, "{'S': 'Mara Vance'}", value));
    }
  stage (st, be, "authorName", rows, &report);
  g_assert_cmpuint (report.n_staged, ==, 245);
  g_assert_cmpuint (report.n_conflicts, ==, 5);
  g_assert_cmpuint (report.n_failed, ==, 0);
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *key = g_strdup_printf ("{'PK': {'S': 'POST#%03u'}, 'SK': {'S': 'META'}}",
                                              i * 50 + 49);

      assert_failure (&report, i, key, "The item no longer exists");
    }
  ddb_sql_stage_report_clear (&report);

  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, 245);
  for (guint i = 0, row = 0; i < changes->len; i++, row++)
    {
      DdbChange *c = g_ptr_array_index (changes, i);
      g_autofree char *name = NULL;

      if (row % 50 == 49)
        row++;
      name = g_strdup_printf ("Author %u", row);
      g_assert_cmpstr (ddb_value_map_get (c->target, "authorName")->bytes.data, ==, name);
      g_assert_cmpstr (ddb_value_map_get (c->original, "authorName")->bytes.data, ==,
                       "Mara Vance");
      g_assert_nonnull (ddb_value_map_get (c->original, "n"));
    }
}

/* Items large enough that one BatchGetItem cannot return 100 of them (16 MB): the rest come
 * back as UnprocessedKeys and are asked for again. */
static void
test_unprocessed_keys (void)
{
  g_autoptr (DdbBackend) be = blog_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) rows = rows_new ();
  g_autoptr (GPtrArray) changes = NULL;
  g_autofree char *body = g_strnfill (380 * 1024, 'b');
  const guint n = 48; /* 48 x 380 KB > 16 MB */
  DdbSqlStageReport report;
  json_t *resp;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *pk = g_strdup_printf ("POST#%02u", i);
      g_autofree char *item = g_strdup_printf ("{'PK': {'S': '%s'}, 'SK': {'S': 'META'},"
                                               " 'authorName': {'S': 'Mara Vance'},"
                                               " 'body': {'S': '%s'}}",
                                               pk, body);

      put (be, item);
      g_ptr_array_add (rows, post_row (pk, "{'S': 'Mara Vance'}", "{'S': 'Mara V.'}"));
    }
  /* the engine does leave keys unprocessed for a request of them all */
  {
    json_t *keys = json_array ();
    json_t *req;

    for (guint i = 0; i < n; i++)
      json_array_append_new (keys, etu_json ("{'PK': {'S': 'POST#%02u'}, 'SK': {'S': 'META'}}",
                                             i));
    req = json_pack ("{s{s{so}}}", "RequestItems", "Blog", "Keys", keys);
    resp = call_ok (be, "BatchGetItem", req);
    g_assert_cmpuint (json_array_size (json_object_get (
                          json_object_get (json_object_get (resp, "UnprocessedKeys"), "Blog"),
                          "Keys")),
                      >, 0);
    json_decref (resp);
  }

  stage (st, be, "authorName", rows, &report);
  g_assert_cmpuint (report.n_staged, ==, n);
  g_assert_cmpuint (report.n_conflicts, ==, 0);
  g_assert_cmpuint (report.n_failed, ==, 0);
  ddb_sql_stage_report_clear (&report);
  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      DdbChange *c = g_ptr_array_index (changes, i);

      g_assert_cmpuint (ddb_value_map_get (c->original, "body")->bytes.len, ==, 380 * 1024);
      g_assert_cmpstr (ddb_value_map_get (c->target, "authorName")->bytes.data, ==, "Mara V.");
    }
}

static void
test_merge (void)
{
  g_autoptr (DdbBackend) be = blog_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) rows = rows_new ();
  g_autoptr (GPtrArray) changes = NULL;
  g_autoptr (DdbValue) post = get_item (be, "POST#9f3", "META");
  g_autoptr (DdbValue) retitled = ddb_value_copy (post);
  g_autoptr (DdbValue) key = post_key ("POST#9f3");
  g_autoptr (DdbValue) user_key = tu_item ("{'PK': {'S': 'USER#88'}, 'SK': {'S': 'META'}}");
  g_autoptr (DdbValue) user = get_item (be, "USER#88", "META");
  g_autoptr (DdbValue) merged = NULL;
  DdbSqlStageReport report;
  GError *error = NULL;
  DdbChange *c;

  /* the inspector staged a new title on the post, and a delete of the user */
  ddb_value_map_set (retitled, "title", tu_str ("Modeling one-to-many"));
  g_assert_true (ddb_staging_stage_update (st, CONN, "Blog", key, post, retitled, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (ddb_staging_stage_delete (st, CONN, "Blog", user_key, user, NULL, &error));
  g_assert_no_error (error);

  g_ptr_array_add (rows, post_row ("POST#9f3", "{'S': 'Mara Vance'}", "{'S': 'Mara V.'}"));
  g_ptr_array_add (rows, row_new (ddb_value_copy (user_key), NULL, "{'S': 'x'}"));
  stage (st, be, "authorName", rows, &report);
  g_assert_cmpuint (report.n_staged, ==, 1);
  g_assert_cmpuint (report.n_failed, ==, 1);
  assert_failure (&report, 0, "{'PK': {'S': 'USER#88'}, 'SK': {'S': 'META'}}",
                  "The item already has a staged delete; a update cannot follow it");
  ddb_sql_stage_report_clear (&report);

  /* one change on the post: from the item as first seen to both edits */
  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, 2);
  c = g_ptr_array_index (changes, 0);
  g_assert_cmpint (c->kind, ==, DDB_CHANGE_UPDATE);
  g_assert_true (ddb_value_equal (c->original, post));
  merged = ddb_value_copy (retitled);
  ddb_value_map_set (merged, "authorName", tu_str ("Mara V."));
  g_assert_true (ddb_value_equal (c->target, merged));
  g_assert_cmpint (((DdbChange *) g_ptr_array_index (changes, 1))->kind, ==, DDB_CHANGE_DELETE);
}

/* The commit guards each change by the value it read: an item renamed between the staging and
 * the commit comes back as a conflict and keeps its new name. */
static void
commit_conflict_test (DdbCommitMode mode)
{
  g_autoptr (DdbBackend) be = blog_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) rows = rows_new ();
  g_autoptr (GPtrArray) changes = NULL;
  static const char *const pks[] = { "POST#9f3", "POST#a71", "POST#c22" };
  DdbSqlStageReport report;
  DdbChange *c;

  for (guint i = 0; i < G_N_ELEMENTS (pks); i++)
    g_ptr_array_add (rows, post_row (pks[i], "{'S': 'Mara Vance'}", "{'S': 'Mara V.'}"));
  stage (st, be, "authorName", rows, &report);
  g_assert_cmpuint (report.n_staged, ==, 3);
  ddb_sql_stage_report_clear (&report);

  json_decref (call_ok (be, "UpdateItem", etu_json (
    "{'TableName': 'Blog', 'Key': {'PK': {'S': 'POST#a71'}, 'SK': {'S': 'META'}},"
    " 'UpdateExpression': 'SET authorName = :n',"
    " 'ExpressionAttributeValues': {':n': {'S': 'Someone Else'}}}")));
  commit (st, be, mode, 2, 1);
  assert_author (be, "POST#9f3", "Mara V.");
  assert_author (be, "POST#a71", "Someone Else");
  assert_author (be, "POST#c22", "Mara V.");

  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, 1);
  c = g_ptr_array_index (changes, 0);
  g_assert_cmpint (c->state, ==, DDB_CHANGE_CONFLICT);
  tu_assert_item (c->key, "{'PK': {'S': 'POST#a71'}, 'SK': {'S': 'META'}}");
  g_assert_cmpstr (ddb_value_map_get (c->current, "authorName")->bytes.data, ==, "Someone Else");
}

static void
test_commit_conflict_single (void)
{
  commit_conflict_test (DDB_COMMIT_SINGLE);
}

static void
test_commit_conflict_transactions (void)
{
  commit_conflict_test (DDB_COMMIT_TRANSACTIONS);
}

/* What is staged is in the store's file, in one transaction. */
static void
test_durable (void)
{
  g_autoptr (DdbBackend) be = blog_backend ();
  g_autofree char *dir = etu_tmp_dir ("sqlstage-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "staging.db", NULL);
  g_autoptr (GPtrArray) rows = rows_new ();
  g_autoptr (GPtrArray) changes = NULL;
  DdbStaging *st = ddb_staging_open (path, NULL);
  DdbSqlStageReport report;

  g_ptr_array_add (rows, post_row ("POST#9f3", "{'S': 'Mara Vance'}", "{'S': 'Mara V.'}"));
  g_ptr_array_add (rows, post_row ("POST#a71", "{'S': 'Mara Vance'}", "{'S': 'Mara V.'}"));
  stage (st, be, "authorName", rows, &report);
  g_assert_cmpuint (report.n_staged, ==, 2);
  ddb_sql_stage_report_clear (&report);
  ddb_staging_free (st);
  st = ddb_staging_open (path, NULL);
  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, 2);
  g_clear_pointer (&changes, g_ptr_array_unref);
  ddb_staging_free (st);
  etu_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/staging/sqlstage/rename", test_rename);
  g_test_add_func ("/staging/sqlstage/nul-in-strings", test_nul_in_strings);
  g_test_add_func ("/staging/sqlstage/conflicts", test_conflicts);
  g_test_add_func ("/staging/sqlstage/conflict-long-value", test_conflict_long_value);
  g_test_add_func ("/staging/sqlstage/unchanged-and-remove", test_unchanged_and_remove);
  g_test_add_func ("/staging/sqlstage/row-failures", test_row_failures);
  g_test_add_func ("/staging/sqlstage/number-key-twice", test_number_key_twice);
  g_test_add_func ("/staging/sqlstage/spec-refused", test_spec_refused);
  g_test_add_func ("/staging/sqlstage/many-rows", test_many_rows);
  g_test_add_func ("/staging/sqlstage/unprocessed-keys", test_unprocessed_keys);
  g_test_add_func ("/staging/sqlstage/merge", test_merge);
  g_test_add_func ("/staging/sqlstage/commit-conflict-single", test_commit_conflict_single);
  g_test_add_func ("/staging/sqlstage/commit-conflict-transactions",
                   test_commit_conflict_transactions);
  g_test_add_func ("/staging/sqlstage/durable", test_durable);
  return g_test_run ();
}
