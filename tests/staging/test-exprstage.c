/* test-exprstage.c: the builder's Stage action: a parsed update or a delete, with its condition,
 * staged as one guarded change per item of a result; items the condition rejects are skipped,
 * items the update cannot apply to are reported, and the commit's guard turns a change made
 * meanwhile into a conflict. */
#include "backend/backend.h"
#include "core/ddbjson.h"
#include "staging/commit.h"
#include "staging/exprstage.h"
#include "staging/writes.h"
#include "../core/test-util.h"
#include "../engine/engine-test-util.h"

#define CONN "conn"

static const char *const key_names[] = { "id", NULL };

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

static DdbBackend *
posts_backend (void)
{
  DdbBackend *be = ddb_backend_open_database (":memory:", NULL);

  json_decref (call_ok (be, "CreateTable", etu_json (
    "{'TableName': 'Posts', 'BillingMode': 'PAY_PER_REQUEST',"
    " 'AttributeDefinitions': [{'AttributeName': 'id', 'AttributeType': 'S'}],"
    " 'KeySchema': [{'AttributeName': 'id', 'KeyType': 'HASH'}]}")));
  json_decref (call_ok (be, "PutItem", etu_json (
    "{'TableName': 'Posts', 'Item': {'id': {'S': 'POST#1'}, 'authorName': {'S': 'Mara Vance'},"
    " 'tags': {'L': [{'S': 'a'}]}}}")));
  json_decref (call_ok (be, "PutItem", etu_json (
    "{'TableName': 'Posts', 'Item': {'id': {'S': 'POST#2'}, 'authorName': {'S': 'Mara Vance'},"
    " 'tags': {'S': 'not a list'}}}")));
  json_decref (call_ok (be, "PutItem", etu_json (
    "{'TableName': 'Posts', 'Item': {'id': {'S': 'POST#3'}, 'authorName': {'S': 'M. Vance-Ortiz'},"
    " 'tags': {'L': []}}}")));
  return be;
}

static gint
by_id (gconstpointer a, gconstpointer b)
{
  const DdbValue *x = *(const DdbValue *const *) a, *y = *(const DdbValue *const *) b;

  return g_strcmp0 (ddb_value_map_get (x, "id")->bytes.data,
                    ddb_value_map_get (y, "id")->bytes.data);
}

/* The table as a Scan shows it, by id. */
static GPtrArray *
sorted_items (DdbBackend *be)
{
  json_t *resp = call_ok (be, "Scan", etu_json ("{'TableName': 'Posts'}"));
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  json_t *j;
  size_t i;

  json_array_foreach (json_object_get (resp, "Items"), i, j)
    g_ptr_array_add (items, ddb_json_to_item (j, NULL));
  json_decref (resp);
  g_ptr_array_sort (items, by_id);
  return items;
}

static DdbValue *
get_item (DdbBackend *be, const char *id)
{
  json_t *resp = call_ok (be, "GetItem", etu_json ("{'TableName': 'Posts', 'Key': {'id': {'S': "
                                                   "'%s'}}, 'ConsistentRead': true}",
                                                   id));
  DdbValue *item = ddb_json_to_item (json_object_get (resp, "Item"), NULL);

  json_decref (resp);
  return item;
}

static void
stage (DdbStaging *st, GPtrArray *items, const char *update, const char *condition,
       const char *values, DdbExprStageReport *report)
{
  TuPlaceholders ph;
  g_autoptr (DdbUpdate) u = NULL;
  g_autoptr (DdbNode) cond = NULL;
  DdbExprStageSpec spec = { CONN, "Posts", key_names, NULL, NULL };
  GError *error = NULL;

  tu_placeholders_init (&ph, values, NULL);
  if (update != NULL)
    u = tu_update_parse (update, ph.ctx);
  if (condition != NULL)
    cond = tu_condition_parse (DDB_EXPR_CONDITION, condition, ph.ctx);
  spec.update = u;
  spec.condition = cond;
  g_assert_true (ddb_expr_stage (st, &spec, items, report, &error));
  g_assert_no_error (error);
  tu_placeholders_clear (&ph);
}

static GPtrArray *
open_changes (DdbStaging *st)
{
  GError *error = NULL;
  GPtrArray *list = ddb_staging_list (st, CONN, "Posts", FALSE, &error);

  g_assert_no_error (error);
  return list;
}

static void
test_guarded_rename (void)
{
  g_autoptr (DdbBackend) be = posts_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = sorted_items (be);
  g_autoptr (GPtrArray) changes = NULL;
  g_autoptr (DdbValue) post1 = NULL;
  g_autoptr (DdbValue) post2 = NULL;
  g_autoptr (DdbValue) post3 = NULL;
  DdbExprStageReport report;
  DdbCommitOptions options = { 0 };
  DdbCommitReport committed;
  DdbWrite write = { 0 };
  GError *error = NULL;

  stage (st, items, "SET authorName = :new", "authorName = :old",
         "{':old': {'S': 'Mara Vance'}, ':new': {'S': 'Mara V.'}}", &report);
  /* POST#3 no longer holds the old name */
  g_assert_cmpuint (report.n_staged, ==, 2);
  g_assert_cmpuint (report.n_skipped, ==, 1);
  g_assert_cmpuint (report.n_unchanged, ==, 0);
  g_assert_cmpuint (report.n_failed, ==, 0);
  g_assert_cmpuint (report.failures->len, ==, 0);
  ddb_expr_stage_report_clear (&report);

  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, 2);
  for (guint i = 0; i < changes->len; i++)
    {
      DdbChange *c = g_ptr_array_index (changes, i);

      g_assert_cmpint (c->kind, ==, DDB_CHANGE_UPDATE);
      g_assert_cmpstr (ddb_value_map_get (c->original, "authorName")->bytes.data, ==,
                       "Mara Vance");
      g_assert_cmpstr (ddb_value_map_get (c->target, "authorName")->bytes.data, ==, "Mara V.");
      g_assert_nonnull (ddb_value_map_get (c->target, "tags"));
    }

  /* the write each change becomes is guarded by the value it changes */
  g_assert_true (ddb_write_build (g_ptr_array_index (changes, 0), NULL, &write, &error));
  g_assert_no_error (error);
  etu_assert_json (write.request,
                   "{'TableName': 'Posts', 'Key': {'id': {'S': 'POST#1'}},"
                   " 'UpdateExpression': 'SET #n1 = :v1',"
                   " 'ConditionExpression': 'attribute_exists(#n0) AND #n1 = :v0',"
                   " 'ExpressionAttributeNames': {'#n0': 'id', '#n1': 'authorName'},"
                   " 'ExpressionAttributeValues': {':v0': {'S': 'Mara Vance'},"
                   "                               ':v1': {'S': 'Mara V.'}},"
                   " 'ReturnValuesOnConditionCheckFailure': 'ALL_OLD'}");
  ddb_write_clear (&write);

  /* someone renames POST#2 before the commit: it comes back as a conflict, untouched */
  json_decref (call_ok (be, "UpdateItem", etu_json (
    "{'TableName': 'Posts', 'Key': {'id': {'S': 'POST#2'}},"
    " 'UpdateExpression': 'SET authorName = :n',"
    " 'ExpressionAttributeValues': {':n': {'S': 'Someone Else'}}}")));
  options.connection = CONN;
  options.mode = DDB_COMMIT_SINGLE;
  g_assert_true (ddb_staging_commit (st, be, &options, NULL, &committed, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (committed.committed, ==, 1);
  g_assert_cmpuint (committed.conflicts, ==, 1);
  ddb_commit_report_clear (&committed);
  post1 = get_item (be, "POST#1");
  post2 = get_item (be, "POST#2");
  post3 = get_item (be, "POST#3");
  g_assert_cmpstr (ddb_value_map_get (post1, "authorName")->bytes.data, ==, "Mara V.");
  g_assert_cmpstr (ddb_value_map_get (post2, "authorName")->bytes.data, ==, "Someone Else");
  g_assert_cmpstr (ddb_value_map_get (post3, "authorName")->bytes.data, ==, "M. Vance-Ortiz");
}

static void
test_failure_reported (void)
{
  g_autoptr (DdbBackend) be = posts_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = sorted_items (be);
  g_autoptr (GPtrArray) changes = NULL;
  DdbExprStageReport report;
  const DdbExprStageFailure *f;

  /* POST#2's tags are a string: list_append cannot apply there */
  stage (st, items, "SET tags = list_append(tags, :more)", NULL,
         "{':more': {'L': [{'S': 'new'}]}}", &report);
  g_assert_cmpuint (report.n_staged, ==, 2);
  g_assert_cmpuint (report.n_failed, ==, 1);
  g_assert_cmpuint (report.failures->len, ==, 1);
  f = g_ptr_array_index (report.failures, 0);
  tu_assert_item (f->key, "{'id': {'S': 'POST#2'}}");
  g_assert_cmpstr (f->message, ==,
                   "An operand in the update expression has an incorrect data type");
  ddb_expr_stage_report_clear (&report);
  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, 2);
}

static void
test_other_outcomes (void)
{
  g_autoptr (DdbBackend) be = posts_backend ();
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GPtrArray) items = sorted_items (be);
  g_autoptr (GPtrArray) changes = NULL;
  DdbExprStageReport report;
  const DdbExprStageFailure *f;

  /* a key attribute may not change; an item without its key cannot be staged */
  g_ptr_array_add (items, tu_item ("{'authorName': {'S': 'no key'}}"));
  stage (st, items, "SET id = :x", NULL, "{':x': {'S': 'POST#9'}}", &report);
  g_assert_cmpuint (report.n_staged, ==, 0);
  g_assert_cmpuint (report.n_failed, ==, 4);
  f = g_ptr_array_index (report.failures, 0);
  g_assert_cmpstr (f->message, ==, "The update changes the key attribute id");
  f = g_ptr_array_index (report.failures, 3);
  g_assert_null (f->key);
  g_assert_cmpstr (f->message, ==, "The item has no key attribute id");
  ddb_expr_stage_report_clear (&report);
  g_ptr_array_set_size (items, 3);

  /* an update that changes nothing stages nothing */
  stage (st, items, "SET authorName = :same", "id = :id",
         "{':same': {'S': 'Mara Vance'}, ':id': {'S': 'POST#1'}}", &report);
  g_assert_cmpuint (report.n_unchanged, ==, 1);
  g_assert_cmpuint (report.n_skipped, ==, 2);
  g_assert_cmpuint (report.n_staged, ==, 0);
  ddb_expr_stage_report_clear (&report);

  /* deletes, guarded the same way */
  stage (st, items, NULL, "attribute_type(tags, :l) AND size(tags) > :zero",
         "{':l': {'S': 'L'}, ':zero': {'N': '0'}}", &report);
  g_assert_cmpuint (report.n_staged, ==, 1);
  g_assert_cmpuint (report.n_skipped, ==, 2);
  ddb_expr_stage_report_clear (&report);
  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, 1);
  g_assert_cmpint (((DdbChange *) g_ptr_array_index (changes, 0))->kind, ==, DDB_CHANGE_DELETE);

  /* the store refuses an update after a staged delete: that item fails, the rest is staged */
  stage (st, items, "SET authorName = :n", NULL, "{':n': {'S': 'X'}}", &report);
  g_assert_cmpuint (report.n_staged, ==, 2);
  g_assert_cmpuint (report.n_failed, ==, 1);
  f = g_ptr_array_index (report.failures, 0);
  tu_assert_item (f->key, "{'id': {'S': 'POST#1'}}");
  g_assert_cmpstr (f->message, ==, "The item already has a staged delete; a update cannot follow it");
  ddb_expr_stage_report_clear (&report);
}

static void
test_durable (void)
{
  g_autoptr (DdbBackend) be = posts_backend ();
  g_autofree char *dir = etu_tmp_dir ("exprstage-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "staging.db", NULL);
  g_autoptr (GPtrArray) items = sorted_items (be);
  DdbStaging *st = ddb_staging_open (path, NULL);
  DdbExprStageReport report;
  g_autoptr (GPtrArray) changes = NULL;

  stage (st, items, "SET seen = :t", NULL, "{':t': {'BOOL': true}}", &report);
  g_assert_cmpuint (report.n_staged, ==, 3);
  ddb_expr_stage_report_clear (&report);
  ddb_staging_free (st);
  st = ddb_staging_open (path, NULL);
  changes = open_changes (st);
  g_assert_cmpuint (changes->len, ==, 3);
  g_clear_pointer (&changes, g_ptr_array_unref);
  ddb_staging_free (st);
  etu_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/staging/exprstage/guarded-rename", test_guarded_rename);
  g_test_add_func ("/staging/exprstage/failure-reported", test_failure_reported);
  g_test_add_func ("/staging/exprstage/other-outcomes", test_other_outcomes);
  g_test_add_func ("/staging/exprstage/durable", test_durable);
  return g_test_run ();
}
