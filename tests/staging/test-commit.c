/* test-commit.c: fan-out planning and the journaled commit against the embedded engine through
 * the backend: conflicts left staged, both commit modes, throttling, cancellation, and commits
 * killed at random points then resumed. */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/read-only.h"
#include "core/ddbjson.h"
#include "core/itemsize.h"
#include "staging/commit.h"
#include "staging/fanout.h"
#include "staging/journal.h"
#include "staging/writes.h"
#include "../core/test-util.h"
#include "../engine/engine-test-util.h"

#define CONN "test-connection"

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

/* Posts keyed by id, with the author's name copied into each; a GSI by author. */
static void
create_posts (DdbBackend *be, guint n)
{
  json_decref (call_ok (be, "CreateTable", etu_json (
    "{'TableName': 'Posts', 'BillingMode': 'PAY_PER_REQUEST',"
    " 'AttributeDefinitions': [{'AttributeName': 'id', 'AttributeType': 'S'},"
    "   {'AttributeName': 'author_id', 'AttributeType': 'S'}],"
    " 'KeySchema': [{'AttributeName': 'id', 'KeyType': 'HASH'}],"
    " 'GlobalSecondaryIndexes': [{'IndexName': 'by_author',"
    "   'KeySchema': [{'AttributeName': 'author_id', 'KeyType': 'HASH'}],"
    "   'Projection': {'ProjectionType': 'ALL'}}]}")));
  for (guint i = 0; i < n; i++)
    json_decref (call_ok (be, "PutItem", etu_json (
      "{'TableName': 'Posts', 'Item': {'id': {'S': 'POST#%03u'}, 'author_id': {'S': 'USER#12'},"
      " 'author_name': {'S': 'Mara Vance'}, 'ver': {'N': '0'}, 'body': {'S': 'text %u'}}}", i, i)));
  /* another author's posts are not copies */
  json_decref (call_ok (be, "PutItem", etu_json (
    "{'TableName': 'Posts', 'Item': {'id': {'S': 'OTHER'}, 'author_id': {'S': 'USER#13'},"
    " 'author_name': {'S': 'Mara Vance'}, 'ver': {'N': '0'}}}")));
}

static DdbValue *
get_item (DdbBackend *be, const char *id)
{
  json_t *resp = call_ok (be, "GetItem", etu_json ("{'TableName': 'Posts', 'Key': {'id': {'S': "
                                                   "'%s'}}, 'ConsistentRead': true}", id));
  DdbValue *item = NULL;

  if (json_object_get (resp, "Item") != NULL)
    item = ddb_json_to_item (json_object_get (resp, "Item"), NULL);
  json_decref (resp);
  return item;
}

static void
plan_and_stage (DdbBackend *be, DdbStaging *st, gboolean use_index, guint expected)
{
  g_autoptr (DdbValue) old_value = tu_str ("Mara Vance");
  g_autoptr (DdbValue) new_value = tu_str ("Mara V.");
  g_autoptr (DdbValue) author = tu_str ("USER#12");
  DdbFanoutSpec spec = { "Posts", "author_name", old_value, new_value,
                         use_index ? "by_author" : NULL, author };
  g_autoptr (DdbFanoutPlan) plan = NULL;
  GError *error = NULL;
  guint64 size = 0, wcu = 0;

  plan = ddb_fanout_plan (be, &spec, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (plan->n_items, ==, expected);
  for (guint i = 0; i < plan->items->len; i++)
    {
      g_autoptr (DdbValue) after = ddb_value_copy (g_ptr_array_index (plan->items, i));
      gsize before = ddb_item_size (g_ptr_array_index (plan->items, i));

      ddb_value_map_set (after, "author_name", ddb_value_copy (new_value));
      size += ddb_item_size (after);
      wcu += (MAX (before, ddb_item_size (after)) + 1023) / 1024;
    }
  g_assert_cmpuint (plan->total_size, ==, size);
  g_assert_cmpuint (plan->write_units, ==, wcu);
  g_assert_cmpuint (plan->write_units, ==, expected); /* each post is under 1 KB */
  g_assert_cmpuint (plan->total_size, >, 0);
  g_assert_cmpuint (plan->write_units_transactions, ==, 2 * wcu);
  g_assert_true (ddb_fanout_stage (st, CONN, &spec, plan, &error));
  g_assert_no_error (error);
}

static const guint behind[] = { 7, 250, 499 };

/* Changes 3 copies behind our back, directly through the backend. */
static void
change_behind_our_back (DdbBackend *be)
{
  for (guint i = 0; i < G_N_ELEMENTS (behind); i++)
    json_decref (call_ok (be, "UpdateItem", etu_json (
      "{'TableName': 'Posts', 'Key': {'id': {'S': 'POST#%03u'}},"
      " 'UpdateExpression': 'SET author_name = :n', 'ExpressionAttributeValues':"
      " {':n': {'S': 'Someone Else'}}}", behind[i])));
}

static gboolean
is_behind (guint i)
{
  for (guint j = 0; j < G_N_ELEMENTS (behind); j++)
    if (behind[j] == i)
      return TRUE;
  return FALSE;
}

/* A Scan also finds OTHER (another author's post holding the same name); the index does not. */
static void
check_fanout_outcome (DdbBackend *be, DdbStaging *st, const DdbCommitReport *report,
                      gboolean use_index)
{
  g_autoptr (GPtrArray) open = ddb_staging_list (st, CONN, "Posts", FALSE, NULL);

  g_assert_cmpuint (report->committed, ==, use_index ? 497 : 498);
  g_assert_cmpuint (report->conflicts, ==, 3);
  g_assert_cmpuint (report->failed, ==, 0);
  g_assert_cmpuint (open->len, ==, 3);
  for (guint i = 0; i < open->len; i++)
    {
      DdbChange *c = g_ptr_array_index (open, i);
      const char *id = ddb_value_map_get (c->key, "id")->bytes.data;
      guint n = g_ascii_strtoull (id + 5, NULL, 10);
      gint64 reported = g_array_index (report->conflict_ids, gint64, i);

      g_assert_cmpint (c->state, ==, DDB_CHANGE_CONFLICT);
      g_assert_cmpint (reported, ==, c->id);
      g_assert_true (is_behind (n));
      /* the item as found beside the values expected */
      g_assert_nonnull (c->current);
      g_assert_cmpstr (ddb_value_map_get (c->current, "author_name")->bytes.data, ==,
                       "Someone Else");
      g_assert_cmpstr (ddb_value_map_get (c->original, "author_name")->bytes.data, ==,
                       "Mara Vance");
      g_assert_cmpstr (ddb_value_map_get (c->target, "author_name")->bytes.data, ==, "Mara V.");
    }
  for (guint i = 0; i < 500; i++)
    {
      g_autofree char *id = g_strdup_printf ("POST#%03u", i);
      g_autoptr (DdbValue) item = get_item (be, id);

      g_assert_cmpstr (ddb_value_map_get (item, "author_name")->bytes.data, ==,
                       is_behind (i) ? "Someone Else" : "Mara V.");
    }
  {
    g_autoptr (DdbValue) other = get_item (be, "OTHER");

    g_assert_cmpstr (ddb_value_map_get (other, "author_name")->bytes.data, ==,
                     use_index ? "Mara Vance" : "Mara V.");
  }
}

typedef struct {
  guint calls;
  guint last_total;
  guint progress_calls;
} Counters;

static void
on_progress (const DdbCommitProgress *p, gpointer data)
{
  Counters *counters = data;

  g_assert_cmpuint (p->committed + p->conflicts + p->failed, <=, p->total);
  counters->last_total = p->total;
  counters->progress_calls++;
}

static void
fanout_test (gboolean use_index, DdbCommitMode mode)
{
  g_autoptr (DdbBackend) be = ddb_backend_open_database (":memory:", NULL);
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  DdbCommitOptions options = { 0 };
  DdbCommitReport report;
  Counters counters = { 0 };
  GError *error = NULL;

  create_posts (be, 500);
  plan_and_stage (be, st, use_index, use_index ? 500 : 501);
  change_behind_our_back (be);
  options.connection = CONN;
  options.mode = mode;
  options.progress = on_progress;
  options.progress_data = &counters;
  g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (counters.last_total, ==, use_index ? 500 : 501);
  g_assert_cmpuint (counters.progress_calls, >, 0);
  check_fanout_outcome (be, st, &report, use_index);
  ddb_commit_report_clear (&report);
  /* a second commit sends nothing: conflicts wait for the user */
  g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
  g_assert_cmpuint (report.committed + report.conflicts + report.failed, ==, 0);
  ddb_commit_report_clear (&report);
}

static void
test_fanout_index_transactions (void)
{
  fanout_test (TRUE, DDB_COMMIT_TRANSACTIONS);
}

static void
test_fanout_scan_single (void)
{
  fanout_test (FALSE, DDB_COMMIT_SINGLE);
}

static void
test_fanout_index_single (void)
{
  fanout_test (TRUE, DDB_COMMIT_SINGLE);
}

static void
test_fanout_scan_transactions (void)
{
  fanout_test (FALSE, DDB_COMMIT_TRANSACTIONS);
}

/* Throttles every other call before handing it to the backend. */
static gboolean
throttling_call (DdbBackend *be, const char *op, json_t *req, GCancellable *cancellable,
                 json_t **resp, GError **error, gpointer data)
{
  Counters *counters = data;

  if (counters->calls++ % 2 == 0)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_PROVISIONED_THROUGHPUT,
                           "The level of configured provisioned throughput for the table was "
                           "exceeded. Consider increasing your provisioning level with the "
                           "UpdateTable API.");
      return FALSE;
    }
  return ddb_backend_call (be, op, req, cancellable, resp, error);
}

static void
test_throttling (void)
{
  g_autoptr (DdbBackend) be = ddb_backend_open_database (":memory:", NULL);
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  DdbCommitOptions options = { .connection = CONN, .mode = DDB_COMMIT_SINGLE, .backoff_ms = 1 };
  DdbCommitReport report;
  Counters counters = { 0 };
  GError *error = NULL;

  create_posts (be, 20);
  plan_and_stage (be, st, TRUE, 20);
  options.call = throttling_call;
  options.call_data = &counters;
  g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (report.committed, ==, 20);
  g_assert_cmpuint (counters.calls, ==, 40);
  ddb_commit_report_clear (&report);
}

/* Turns the connection read-only after its first write: the rest is refused mid-commit. */
static gboolean
read_only_after_first_call (DdbBackend *be, const char *op, json_t *req, GCancellable *cancellable,
                            json_t **resp, GError **error, gpointer data)
{
  Counters *counters = data;

  if (counters->calls++ == 1)
    ddb_backend_set_read_only (be, TRUE);
  return ddb_backend_call (be, op, req, cancellable, resp, error);
}

/* Each change's journal ends in STATE. */
static void
assert_all_end_in (DdbStaging *st, const char *state, guint expected)
{
  g_autoptr (GPtrArray) all = ddb_staging_list (st, CONN, NULL, TRUE, NULL);
  guint n = 0;

  for (guint i = 0; i < all->len; i++)
    {
      g_auto (GStrv) states = ddb_staging_journal (st, ((DdbChange *) all->pdata[i])->id, NULL);

      if (g_str_equal (states[g_strv_length (states) - 1], state))
        n++;
    }
  g_assert_cmpuint (n, ==, expected);
}

/* A read-only connection's commit sends nothing and every change stays staged; a connection
 * turned read-only while a commit runs leaves the refused changes staged, never 'sending' or
 * failed, and the next commit on a writable connection sends them once. */
static void
test_read_only (void)
{
  g_autoptr (DdbBackend) be = ddb_backend_open_database (":memory:", NULL);
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  DdbCommitOptions options = { .connection = CONN, .mode = DDB_COMMIT_SINGLE };
  DdbCommitReport report;
  Counters counters = { 0 };
  GError *error = NULL;

  create_posts (be, 10);
  plan_and_stage (be, st, TRUE, 10);
  ddb_backend_set_read_only (be, TRUE);
  g_assert_false (ddb_staging_commit (st, be, &options, NULL, &report, &error));
  g_assert_error (error, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY);
  g_clear_error (&error);
  ddb_commit_report_clear (&report);
  assert_all_end_in (st, "staged", 10);

  ddb_backend_set_read_only (be, FALSE);
  options.call = read_only_after_first_call;
  options.call_data = &counters;
  g_assert_false (ddb_staging_commit (st, be, &options, NULL, &report, &error));
  g_assert_error (error, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY);
  g_clear_error (&error);
  g_assert_cmpuint (report.committed, >=, 1);
  assert_all_end_in (st, "staged", 10 - report.committed);
  ddb_commit_report_clear (&report);

  ddb_backend_set_read_only (be, FALSE);
  options.call = NULL;
  g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
  g_assert_no_error (error);
  ddb_commit_report_clear (&report);
  assert_all_end_in (st, "committed", 10);
}

static void
count_writes (guint n_writes, gpointer data)
{
  *(guint *) data = n_writes;
}

/* Single writes are journaled per group, not per change: two durable transactions for a group
 * (its 'sending' marks, then its outcomes), groups growing 1, 2, 4... up to 100. */
static void
test_single_groups (void)
{
  g_autoptr (DdbBackend) be = ddb_backend_open_database (":memory:", NULL);
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  DdbCommitOptions options = { .connection = CONN, .mode = DDB_COMMIT_SINGLE };
  DdbCommitReport report;
  GError *error = NULL;
  guint n_writes = 0;
  g_autoptr (GPtrArray) all = NULL;

  create_posts (be, 300);
  plan_and_stage (be, st, TRUE, 300);
  ddb_staging_set_journal_hook (st, count_writes, &n_writes);
  g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (report.committed, ==, 300);
  ddb_commit_report_clear (&report);
  /* 1+2+4+8+16+32+64+100+73: 9 groups, 18 writes when no time slice cuts one short */
  g_assert_cmpuint (n_writes, >=, 18);
  g_assert_cmpuint (n_writes, <=, 30);
  all = ddb_staging_list (st, CONN, NULL, TRUE, NULL);
  for (guint i = 0; i < all->len; i++)
    {
      g_auto (GStrv) states = ddb_staging_journal (st, ((DdbChange *) all->pdata[i])->id, NULL);

      g_assert_cmpuint (g_strv_length (states), ==, 3);
      g_assert_cmpstr (states[2], ==, "committed");
    }
}

/* Each write takes 100 ms. */
static gboolean
slow_call (DdbBackend *be, const char *op, json_t *req, GCancellable *cancellable,
           json_t **resp, GError **error, gpointer data)
{
  if (strcmp (op, "GetItem") != 0)
    g_usleep (100 * 1000);
  return ddb_backend_call (be, op, req, cancellable, resp, error);
}

/* A group whose writes overrun its time slice stops there and reports; the changes it did not
 * send go back to staged and out with the next group. */
static void
test_single_slice (void)
{
  g_autoptr (DdbBackend) be = ddb_backend_open_database (":memory:", NULL);
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  DdbCommitOptions options = { .connection = CONN, .mode = DDB_COMMIT_SINGLE };
  DdbCommitReport report;
  GError *error = NULL;
  g_autoptr (GPtrArray) all = NULL;
  guint requeued = 0;

  create_posts (be, 8);
  plan_and_stage (be, st, TRUE, 8);
  options.call = slow_call;
  g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (report.committed, ==, 8);
  g_assert_cmpuint (report.resumed, ==, 0);
  ddb_commit_report_clear (&report);
  all = ddb_staging_list (st, CONN, NULL, TRUE, NULL);
  g_assert_cmpuint (all->len, ==, 8);
  for (guint i = 0; i < all->len; i++)
    {
      DdbChange *c = all->pdata[i];
      g_auto (GStrv) states = ddb_staging_journal (st, c->id, NULL);

      g_assert_cmpint (c->state, ==, DDB_CHANGE_COMMITTED);
      /* staged, sending, (staged, sending,) committed */
      if (g_strv_length (states) == 5)
        {
          g_assert_cmpstr (states[2], ==, "staged");
          requeued++;
        }
      else
        g_assert_cmpuint (g_strv_length (states), ==, 3);
    }
  /* the third group (4 changes, 400 ms) overruns its 250 ms */
  g_assert_cmpuint (requeued, >, 0);
  for (guint i = 0; i < 8; i++)
    {
      g_autofree char *id = g_strdup_printf ("POST#%03u", i);
      g_autoptr (DdbValue) item = get_item (be, id);

      g_assert_cmpstr (ddb_value_map_get (item, "author_name")->bytes.data, ==, "Mara V.");
    }
}

typedef struct {
  GCancellable *cancellable;
  guint committed_at_cancel;
} CancelAt;

/* Progress comes per journaled group of single writes (1, 2, 4... changes), so the first report
 * of five or more cancels. */
static void
cancel_after_five (const DdbCommitProgress *p, gpointer data)
{
  CancelAt *at = data;

  if (p->committed >= 5 && at->committed_at_cancel == 0)
    {
      at->committed_at_cancel = p->committed;
      g_cancellable_cancel (at->cancellable);
    }
}

static void
test_cancel (void)
{
  g_autoptr (DdbBackend) be = ddb_backend_open_database (":memory:", NULL);
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  DdbCommitOptions options = { .connection = CONN, .mode = DDB_COMMIT_SINGLE };
  DdbCommitReport report;
  GError *error = NULL;
  CancelAt at = { cancellable, 0 };
  g_autoptr (GPtrArray) left = NULL;

  create_posts (be, 20);
  plan_and_stage (be, st, TRUE, 20);
  options.progress = cancel_after_five;
  options.progress_data = &at;
  g_assert_false (ddb_staging_commit (st, be, &options, cancellable, &report, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  /* nothing past the cancellation went out, and what did is counted */
  g_assert_cmpuint (at.committed_at_cancel, >=, 5);
  g_assert_cmpuint (at.committed_at_cancel, <, 20);
  g_assert_cmpuint (report.committed, ==, at.committed_at_cancel);
  ddb_commit_report_clear (&report);
  /* the rest is back to staged, none left in 'sending' */
  left = ddb_staging_list (st, CONN, NULL, FALSE, NULL);
  g_assert_cmpuint (left->len, ==, 20 - at.committed_at_cancel);
  for (guint i = 0; i < left->len; i++)
    g_assert_cmpint (((DdbChange *) left->pdata[i])->state, ==, DDB_CHANGE_STAGED);
  options.progress = NULL;
  g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
  g_assert_cmpuint (report.resumed, ==, 0);
  g_assert_cmpuint (report.committed, ==, 20 - at.committed_at_cancel);
  ddb_commit_report_clear (&report);
}

/* Creates and deletes: their conditions, conflicts with the item as found. */
static void
test_create_delete (void)
{
  g_autoptr (DdbBackend) be = ddb_backend_open_database (":memory:", NULL);
  g_autoptr (DdbStaging) st = ddb_staging_open (":memory:", NULL);
  DdbCommitOptions options = { .connection = CONN, .mode = DDB_COMMIT_TRANSACTIONS };
  DdbCommitReport report;
  GError *error = NULL;
  g_autoptr (DdbValue) k_new = tu_item ("{'id': {'S': 'NEW'}}");
  g_autoptr (DdbValue) new_item = tu_item ("{'id': {'S': 'NEW'}, 'x': {'N': '1'}}");
  g_autoptr (DdbValue) k_taken = tu_item ("{'id': {'S': 'POST#000'}}");
  g_autoptr (DdbValue) taken = tu_item ("{'id': {'S': 'POST#000'}, 'x': {'N': '1'}}");
  g_autoptr (DdbValue) k1 = tu_item ("{'id': {'S': 'POST#001'}}");
  g_autoptr (DdbValue) k2 = tu_item ("{'id': {'S': 'POST#002'}}");
  g_autoptr (DdbValue) item1 = NULL;
  g_autoptr (DdbValue) item2 = NULL;
  g_autoptr (DdbValue) left = NULL;
  g_autoptr (DdbValue) gone = NULL;
  g_autoptr (GPtrArray) open = NULL;

  create_posts (be, 3);
  item1 = get_item (be, "POST#001");
  item2 = get_item (be, "POST#002");
  g_assert_true (ddb_staging_stage_create (st, CONN, "Posts", k_new, new_item, NULL, &error));
  g_assert_true (ddb_staging_stage_create (st, CONN, "Posts", k_taken, taken, NULL, &error));
  g_assert_true (ddb_staging_stage_delete (st, CONN, "Posts", k1, item1, NULL, &error));
  g_assert_true (ddb_staging_stage_delete (st, CONN, "Posts", k2, item2, NULL, &error));
  /* POST#002 gains an attribute: its delete no longer matches the item as first seen */
  json_decref (call_ok (be, "UpdateItem", etu_json (
    "{'TableName': 'Posts', 'Key': {'id': {'S': 'POST#002'}}, 'UpdateExpression': 'SET body = :b',"
    " 'ExpressionAttributeValues': {':b': {'S': 'edited'}}}")));
  g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (report.committed, ==, 2);
  g_assert_cmpuint (report.conflicts, ==, 2);
  ddb_commit_report_clear (&report);
  g_assert_null ((gone = get_item (be, "POST#001")));
  left = get_item (be, "POST#002");
  g_assert_cmpstr (ddb_value_map_get (left, "body")->bytes.data, ==, "edited");
  {
    g_autoptr (DdbValue) created = get_item (be, "NEW");

    tu_assert_item (created, "{'id': {'S': 'NEW'}, 'x': {'N': '1'}}");
  }
  open = ddb_staging_list (st, CONN, NULL, FALSE, NULL);
  g_assert_cmpuint (open->len, ==, 2);
  for (guint i = 0; i < open->len; i++)
    {
      DdbChange *c = g_ptr_array_index (open, i);

      g_assert_cmpint (c->state, ==, DDB_CHANGE_CONFLICT);
      g_assert_nonnull (c->current);
    }
  /* the user overrides the delete's conflict: rebased on the item as found, it goes through */
  g_assert_true (ddb_staging_requeue (st, ((DdbChange *) open->pdata[1])->id, &error));
  g_assert_no_error (error);
  options.mode = DDB_COMMIT_SINGLE;
  g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
  g_assert_cmpuint (report.committed, ==, 1);
  ddb_commit_report_clear (&report);
  g_assert_null ((gone = get_item (be, "POST#002")));
}

/* ---- Crash and resume ---------------------------------------------------------------------- */

#define CRASH_ITEMS 60
#define CRASH_ROUNDS 30

static void
die_at (guint n_writes, gpointer data)
{
  if (n_writes == GPOINTER_TO_UINT (data))
    raise (SIGKILL);
}

static gboolean
commit_files (const char *db, const char *staging, DdbCommitMode mode, guint kill_at,
              DdbCommitReport *report)
{
  g_autoptr (DdbBackend) be = ddb_backend_open_database (db, NULL);
  g_autoptr (DdbStaging) st = ddb_staging_open (staging, NULL);
  DdbCommitOptions options = { .connection = CONN, .mode = mode, .version_attribute = "ver" };
  gboolean ok;

  g_assert_nonnull (be);
  g_assert_nonnull (st);
  if (kill_at > 0)
    ddb_staging_set_journal_hook (st, die_at, GUINT_TO_POINTER (kill_at));
  ok = ddb_staging_commit (st, be, &options, NULL, report, NULL);
  return ok;
}

static void
check_journal (DdbStaging *st, const DdbChange *c)
{
  g_auto (GStrv) states = ddb_staging_journal (st, c->id, NULL);
  guint n = g_strv_length (states);
  guint committed = 0;

  g_assert_cmpuint (n, >=, 3);
  g_assert_cmpstr (states[0], ==, "staged");
  g_assert_cmpstr (states[n - 1], ==, "committed");
  for (guint i = 1; i < n; i++)
    {
      /* staged -> sending -> (staged -> sending ->)* committed */
      if (strcmp (states[i], "sending") == 0)
        g_assert_cmpstr (states[i - 1], ==, "staged");
      else
        g_assert_cmpstr (states[i - 1], ==, "sending");
      committed += strcmp (states[i], "committed") == 0;
    }
  g_assert_cmpuint (committed, ==, 1);
}

static void
test_crash_resume (void)
{
  guint resumed = 0;

  for (guint round = 0; round < CRASH_ROUNDS; round++)
    {
      g_autofree char *dir = etu_tmp_dir ("staging-crash-XXXXXX");
      g_autofree char *db = g_build_filename (dir, "data.db", NULL);
      g_autofree char *staging = g_build_filename (dir, "staging.db", NULL);
      DdbCommitMode mode = round % 2 == 0 ? DDB_COMMIT_SINGLE : DDB_COMMIT_TRANSACTIONS;
      /* single writes journal twice per group: groups of 1, 2, 4, 8, 16 and 29 changes (or
       * more groups, when a time slice cuts one short); a transaction batch twice per batch */
      guint kill_at = round % 3 == 2 ? 0
                                     : (guint) g_test_rand_int_range (1, mode == DDB_COMMIT_SINGLE
                                                                           ? 13
                                                                           : 3);
      DdbCommitReport report;
      int status;
      pid_t pid;

      {
        g_autoptr (DdbBackend) be = ddb_backend_open_database (db, NULL);
        g_autoptr (DdbStaging) st = ddb_staging_open (staging, NULL);

        create_posts (be, CRASH_ITEMS);
        plan_and_stage (be, st, TRUE, CRASH_ITEMS);
      }
      pid = fork ();
      g_assert_cmpint (pid, >=, 0);
      if (pid == 0)
        {
          DdbCommitReport child;

          commit_files (db, staging, mode, kill_at, &child);
          _exit (kill_at > 0 ? 3 : 0); /* a hook kill never gets here */
        }
      if (kill_at == 0)
        {
          g_usleep (g_test_rand_int_range (0, 40000));
          kill (pid, SIGKILL);
        }
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      if (kill_at > 0)
        g_assert_true (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL);

      /* resume in the other mode half the time: the journal, not the mode, decides */
      g_assert_true (commit_files (db, staging, round % 4 == 1 ? DDB_COMMIT_SINGLE : mode, 0,
                                   &report));
      g_assert_cmpuint (report.conflicts, ==, 0);
      g_assert_cmpuint (report.failed, ==, 0);
      resumed += report.resumed;
      ddb_commit_report_clear (&report);
      {
        g_autoptr (DdbBackend) be = ddb_backend_open_database (db, NULL);
        g_autoptr (DdbStaging) st = ddb_staging_open (staging, NULL);
        g_autoptr (GPtrArray) all = ddb_staging_list (st, CONN, NULL, TRUE, NULL);

        g_assert_cmpuint (all->len, ==, CRASH_ITEMS);
        for (guint i = 0; i < all->len; i++)
          {
            DdbChange *c = g_ptr_array_index (all, i);

            g_assert_cmpint (c->state, ==, DDB_CHANGE_COMMITTED);
            check_journal (st, c);
          }
        for (guint i = 0; i < CRASH_ITEMS; i++)
          {
            g_autofree char *id = g_strdup_printf ("POST#%03u", i);
            g_autoptr (DdbValue) item = get_item (be, id);
            g_autofree char *ver = ddb_json_format_value (ddb_value_map_get (item, "ver"));

            /* the write counter: each item written exactly once */
            g_assert_cmpstr (ver, ==, "{\"N\":\"1\"}");
            g_assert_cmpstr (ddb_value_map_get (item, "author_name")->bytes.data, ==, "Mara V.");
          }
      }
      etu_remove_tree (dir);
    }
  /* some kills landed between 'sending' and the outcome, and were judged by reading the items */
  g_assert_cmpuint (resumed, >, 0);
}

/* A change's write units as the engine charges its write (ReturnConsumedCapacity TOTAL, a
 * table without indexes): items from a few bytes to 40 KB, overwritten and deleted. */
static void
test_write_units (void)
{
  g_autoptr (DdbBackend) be = ddb_backend_open_database (":memory:", NULL);
  GRand *rand = g_rand_new_with_seed (7);
  g_autoptr (DdbValue) before = NULL;

  json_decref (call_ok (be, "CreateTable", etu_json (
    "{'TableName': 'Sized', 'BillingMode': 'PAY_PER_REQUEST',"
    " 'AttributeDefinitions': [{'AttributeName': 'id', 'AttributeType': 'S'}],"
    " 'KeySchema': [{'AttributeName': 'id', 'KeyType': 'HASH'}]}")));
  for (guint i = 0; i < 300; i++)
    {
      guint len = i < 20 ? i * 53 : (guint) g_rand_int_range (rand, 0, 40 * 1024);
      g_autofree char *body = g_strnfill (len, 'x');
      DdbChange change = { 0 };
      g_autoptr (DdbValue) item = ddb_value_new_m ();
      g_autoptr (DdbValue) key = ddb_value_new_m ();
      json_t *req = json_object ();
      json_t *resp;

      ddb_value_map_set (item, "id", ddb_value_new_s ("the-item", -1));
      ddb_value_map_set (key, "id", ddb_value_new_s ("the-item", -1));
      ddb_value_map_set (item, "body", ddb_value_new_s (body, len));
      json_object_set_new (req, "TableName", json_string ("Sized"));
      json_object_set_new (req, "Item", ddb_item_to_json (item));
      json_object_set_new (req, "ReturnConsumedCapacity", json_string ("TOTAL"));
      resp = call_ok (be, "PutItem", req);
      change.kind = before != NULL ? DDB_CHANGE_UPDATE : DDB_CHANGE_CREATE;
      change.original = before;
      change.target = item;
      g_assert_cmpfloat (json_number_value (json_object_get (json_object_get (resp,
                             "ConsumedCapacity"), "CapacityUnits")),
                         ==, (double) ddb_change_write_units (&change));
      json_decref (resp);
      if (i % 10 == 9)
        {
          req = json_object ();
          json_object_set_new (req, "TableName", json_string ("Sized"));
          json_object_set_new (req, "Key", ddb_item_to_json (key));
          json_object_set_new (req, "ReturnConsumedCapacity", json_string ("TOTAL"));
          resp = call_ok (be, "DeleteItem", req);
          change.kind = DDB_CHANGE_DELETE;
          change.original = item;
          change.target = NULL;
          g_assert_cmpfloat (json_number_value (json_object_get (json_object_get (resp,
                                 "ConsumedCapacity"), "CapacityUnits")),
                             ==, (double) ddb_change_write_units (&change));
          json_decref (resp);
          g_clear_pointer (&before, ddb_value_free);
        }
      else
        {
          g_clear_pointer (&before, ddb_value_free);
          before = ddb_value_copy (item);
        }
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/staging/commit/write-units", test_write_units);
  g_test_add_func ("/staging/commit/fanout-index-transactions", test_fanout_index_transactions);
  g_test_add_func ("/staging/commit/fanout-scan-single", test_fanout_scan_single);
  g_test_add_func ("/staging/commit/fanout-index-single", test_fanout_index_single);
  g_test_add_func ("/staging/commit/fanout-scan-transactions", test_fanout_scan_transactions);
  g_test_add_func ("/staging/commit/throttling", test_throttling);
  g_test_add_func ("/staging/commit/read-only", test_read_only);
  g_test_add_func ("/staging/commit/cancel", test_cancel);
  g_test_add_func ("/staging/commit/single-groups", test_single_groups);
  g_test_add_func ("/staging/commit/single-slice", test_single_slice);
  g_test_add_func ("/staging/commit/create-delete", test_create_delete);
  g_test_add_func ("/staging/commit/crash-resume", test_crash_resume);
  return g_test_run ();
}
