/* test-commit-soak-gui.c: the app's side of the commit soak, one process of it. Driven by
 * test-commit-soak.py, which runs it again and again against `serve` on the same staging store
 * (DYNOSCOPE_TEST_DATA_HOME), killing it at random points of a commit:
 *
 *   DYNOSCOPE_SOAK_MODE=stage   stages 10,000 changes of table Soak through the app's own
 *                               paths: 3,000 creates (the Copy To path), 2,500 fan-out updates,
 *                               2,000 updates from an update expression, 2,500 deletes.
 *   DYNOSCOPE_SOAK_MODE=commit  opens Soak, shows the staging panel and presses Commit All
 *                               (DYNOSCOPE_SOAK_COMMIT_MODE single or transactions); with
 *                               DYNOSCOPE_SOAK_KILL_AT=N it SIGKILLs itself right after its Nth
 *                               durable journal write. Prints "# commit started" when it
 *                               presses the button and the report when the commit ends.
 *
 * The endpoint is DYNOSCOPE_TEST_ENDPOINT. Everything the soak proves is checked by the driver
 * from outside: the store, the table and its stream. */
#define G_LOG_DOMAIN "test-commit-soak-gui"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app/staging/dy-staging-panel.h"
#include "app/staging/dy-staging-private.h"
#include "core/ddbjson.h"
#include "core/expr.h"
#include "core/number.h"
#include "gui-util.h"
#include "staging/journal.h"

#define TABLE "Soak"
#define N_CREATES 3000
#define N_CHANGES 10000

static DyConnection *local;

static gboolean
connection_ready (gpointer data)
{
  return g_list_model_get_n_items (dy_connection_get_tables (local)) > 0
         && !dy_connection_get_loading (local) && dy_staging_connection_id (local) != NULL;
}

static void
open_endpoint (void)
{
  g_autoptr (GError) error = NULL;

  local = dy_window_add_endpoint (gui_window, g_getenv ("DYNOSCOPE_TEST_ENDPOINT"), "us-east-1",
                                  FALSE, &error);
  g_assert_no_error (error);
  dy_connection_ensure_tables (local);
  dy_staging_prepare (dy_staging_get_default (), local);
  gui_wait_long (connection_ready, NULL, "the endpoint's tables and staging id", 120);
}

typedef struct {
  gboolean done;
  GAsyncResult *result;
} Wait;

static void
got_result (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Wait *w = user_data;

  w->result = g_object_ref (result);
  w->done = TRUE;
}

static gboolean
wait_done (gpointer data)
{
  return ((Wait *) data)->done;
}

/* Every item of partition PK, read through the app's connection page by page. */
static GPtrArray *
query_partition (const char *pk)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  json_t *start = NULL;

  do
    {
      g_autoptr (GError) error = NULL;
      json_t *request
          = json_pack ("{ss ss s{s{ss}} sb}", "TableName", TABLE, "KeyConditionExpression",
                       "PK = :p", "ExpressionAttributeValues", ":p", "S", pk, "ConsistentRead", 1);
      json_t *response, *page;
      size_t i;
      json_t *item;

      if (start != NULL)
        json_object_set_new (request, "ExclusiveStartKey", start);
      response = dy_connection_call_sync (local, "Query", request, NULL, &error);
      g_assert_no_error (error);
      page = json_object_get (response, "Items");
      json_array_foreach (page, i, item)
        {
          DdbValue *value = ddb_json_to_item (item, &error);

          g_assert_no_error (error);
          g_ptr_array_add (items, value);
        }
      start = json_incref (json_object_get (response, "LastEvaluatedKey"));
      json_decref (request);
      json_decref (response);
    }
  while (start != NULL);
  return items;
}

static DdbValue *
number (const char *text)
{
  DdbNumber n;

  g_assert_true (ddb_number_parse (&n, text, -1, NULL));
  return ddb_value_new_n (&n);
}

/* A new item of partition "new": 38-digit numbers, sets, binary with odd bytes, nesting. */
static DdbValue *
new_item (guint i)
{
  static const char odd[] = { '\0', (char) 0xff, (char) 0xfe, '\n', 'x' };
  DdbValue *item = ddb_value_new_m ();
  g_autofree char *sk = g_strdup_printf ("%05u", i);
  g_autofree char *big = g_strdup_printf ("9999999999999999999999999999%010u", i);
  g_autofree char *title = g_strdup_printf ("créé %u \xf0\x9f\x98\x80", i);
  DdbValue *tags = ddb_value_new_set (DDB_TYPE_SS);
  DdbValue *doc = ddb_value_new_m ();
  DdbValue *list = ddb_value_new_l ();

  ddb_value_map_set (item, "PK", ddb_value_new_s ("new", -1));
  ddb_value_map_set (item, "SK", ddb_value_new_s (sk, -1));
  ddb_value_map_set (item, "big", number (big));
  ddb_value_map_set (item, "title", ddb_value_new_s (title, -1));
  ddb_value_set_add (tags, ddb_value_new_s ("soak", -1));
  ddb_value_set_add (tags, ddb_value_new_s (sk, -1));
  ddb_value_map_set (item, "tags", tags);
  ddb_value_map_set (item, "blob", ddb_value_new_b (odd, 1 + i % sizeof odd));
  ddb_value_list_append (list, ddb_value_new_null ());
  ddb_value_list_append (list, ddb_value_new_bool (i % 2 == 0));
  ddb_value_map_set (doc, "list", list);
  ddb_value_map_set (doc, "empty", ddb_value_new_m ());
  ddb_value_map_set (item, "doc", doc);
  return item;
}

static void
stage_creates (void)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  DdbCopyStageReport report = { 0 };
  g_autoptr (GError) error = NULL;
  Wait w = { 0 };

  for (guint i = 0; i < N_CREATES; i++)
    g_ptr_array_add (items, new_item (i));
  dy_staging_copy_async (dy_staging_get_default (), local, TABLE, NULL, FALSE, items, NULL,
                         got_result, &w);
  gui_wait_long (wait_done, &w, "the creates to be staged", 300);
  g_assert_true (dy_staging_copy_finish (dy_staging_get_default (), w.result, &report, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (report.n_failed, ==, 0);
  g_assert_cmpuint (report.n_created, ==, N_CREATES);
  ddb_copy_stage_report_clear (&report);
  g_object_unref (w.result);
}

static void
stage_fanout (void)
{
  g_autoptr (DdbValue) old_value = ddb_value_new_s ("Mara", -1);
  g_autoptr (DdbValue) new_value = ddb_value_new_s ("Mara V.", -1);
  DdbFanoutSpec spec = { TABLE, "author", old_value, new_value, NULL, NULL };
  g_autoptr (GError) error = NULL;
  DdbFanoutPlan *plan;
  Wait w = { 0 }, staged = { 0 };

  dy_staging_fanout_plan_async (dy_staging_get_default (), local, &spec, NULL, got_result, &w);
  gui_wait_long (wait_done, &w, "the fan-out plan", 300);
  plan = dy_staging_fanout_plan_finish (dy_staging_get_default (), w.result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (plan->n_items, ==, 2500);
  dy_staging_fanout_stage_async (dy_staging_get_default (), local, &spec, plan, got_result,
                                 &staged);
  gui_wait_long (wait_done, &staged, "the fan-out to be staged", 300);
  g_assert_true (dy_staging_fanout_stage_finish (dy_staging_get_default (), staged.result, &error));
  g_assert_no_error (error);
  g_object_unref (w.result);
  g_object_unref (staged.result);
}

/* UPDATE (NULL: deletes) on every item of partition PK, as the expression builder stages it. */
static void
stage_expression (const char *pk, DdbUpdate *update, guint expected)
{
  const char *key_names[] = { "PK", "SK", NULL };
  DdbExprStageReport report = { 0 };
  g_autoptr (GError) error = NULL;
  Wait w = { 0 };

  dy_staging_stage_expression_async (dy_staging_get_default (), local, TABLE, key_names, update,
                                     NULL, query_partition (pk), got_result, &w);
  gui_wait_long (wait_done, &w, "the expression's changes to be staged", 300);
  g_assert_true (
      dy_staging_stage_expression_finish (dy_staging_get_default (), w.result, &report, &error));
  g_assert_no_error (error);
  if (report.n_failed > 0)
    g_error ("%u items refused; the first: %s", report.n_failed,
             ((DdbExprStageFailure *) report.failures->pdata[0])->message);
  g_assert_cmpuint (report.n_staged, ==, expected);
  ddb_expr_stage_report_clear (&report);
  g_object_unref (w.result);
}

static DdbUpdate *
counter_update (void)
{
  g_autoptr (GHashTable) values
      = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) ddb_value_free);
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  DdbValue *tag = ddb_value_new_set (DDB_TYPE_SS);
  g_autoptr (DdbExprContext) ctx = NULL;
  g_autoptr (GError) error = NULL;
  DdbUpdate *update;

  ddb_value_set_add (tag, ddb_value_new_s ("soaked", -1));
  g_hash_table_insert (values, ":big", number ("1234567890123456789012345678901234567"));
  g_hash_table_insert (values, ":t", tag);
  g_hash_table_insert (names, "#n", "n");
  ctx = ddb_expr_context_new (names, values);
  update = ddb_update_parse ("SET #n = #n + :big ADD tags :t REMOVE gone", ctx, &error);
  g_assert_no_error (error);
  return update;
}

static void
test_stage (void)
{
  g_autoptr (GPtrArray) changes = NULL;
  g_autoptr (GError) error = NULL;

  open_endpoint ();
  stage_creates ();
  stage_fanout ();
  stage_expression ("expr", counter_update (), 2000);
  stage_expression ("del", NULL, 2500);
  changes = dy_staging_list (dy_staging_get_default (), local, TABLE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (changes->len, ==, N_CHANGES);
}

/* Commit. */

static void
die_at (guint n_writes, gpointer user_data)
{
  if (n_writes >= GPOINTER_TO_UINT (user_data))
    kill (getpid (), SIGKILL);
}

static DyStagingPanel *
panel (void)
{
  return dy_window_get_staging_panel (gui_window);
}

static gboolean
changes_shown (gpointer data)
{
  return dy_staging_panel_get_n_changes (panel ()) > 0
         && !dy_staging_get_loading (dy_staging_get_default (), local);
}

static gboolean
commit_finished (gpointer data)
{
  return !dy_staging_panel_get_committing (panel ());
}

static void
test_commit (void)
{
  const char *kill_at = g_getenv ("DYNOSCOPE_SOAK_KILL_AT");
  const char *mode = g_getenv ("DYNOSCOPE_SOAK_COMMIT_MODE");
  guint committed, conflicts, failed;

  open_endpoint ();
  if (kill_at != NULL && atoi (kill_at) > 0)
    ddb_staging_set_journal_hook (dy_staging_get_default ()->store, die_at,
                                  GUINT_TO_POINTER ((guint) atoi (kill_at)));
  /* the tab laid out before the panel slides over it (as a user opens the table first) */
  gui_wait_long (gui_view_ready, dy_window_open_table (gui_window, local, TABLE), "DescribeTable",
                 120);
  gui_settle ();
  dy_window_show_staging (gui_window, local, TABLE);
  gui_wait_long (changes_shown, NULL, "the staged changes in the panel", 120);
  dy_staging_panel_set_mode (panel (), g_strcmp0 (mode, "single") == 0 ? DDB_COMMIT_SINGLE
                                                                       : DDB_COMMIT_TRANSACTIONS);
  printf ("# commit started: %u changes\n", dy_staging_panel_get_n_changes (panel ()));
  fflush (stdout);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel ()), "panel.commit-all", NULL));
  g_assert_true (dy_staging_panel_get_committing (panel ()));
  gui_wait_long (commit_finished, NULL, "the commit to finish", 900);
  g_assert_true (dy_staging_panel_get_report (panel (), &committed, &conflicts, &failed));
  printf ("# report: committed=%u conflicts=%u failed=%u\n", committed, conflicts, failed);
  fflush (stdout);
  g_assert_cmpuint (conflicts, ==, 0);
  g_assert_cmpuint (failed, ==, 0);
}

int
main (int argc, char **argv)
{
  const char *mode;

  gui_init (&argc, &argv);
  mode = g_getenv ("DYNOSCOPE_SOAK_MODE");
  if (g_getenv ("DYNOSCOPE_TEST_ENDPOINT") == NULL || g_getenv ("DYNOSCOPE_TEST_DATA_HOME") == NULL)
    g_error ("run by test-commit-soak.py: DYNOSCOPE_TEST_ENDPOINT and DYNOSCOPE_TEST_DATA_HOME");
  if (g_strcmp0 (mode, "stage") == 0)
    g_test_add_func ("/commit-soak/stage", test_stage);
  else if (g_strcmp0 (mode, "commit") == 0)
    g_test_add_func ("/commit-soak/commit", test_commit);
  else
    g_error ("DYNOSCOPE_SOAK_MODE must be stage or commit");
  return gui_run_tests ();
}
