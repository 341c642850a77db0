/* test-keys-gui.c: the key-distribution window in the real app on the demo database: opened on
 * Orders by win.keys (bound to Ctrl+Shift+K), a full scan shows the figures ddb_keys_analyze
 * gives (items, distinct keys, the heaviest partition and its items), the sharded hot tenant
 * TENANT#bigco#* in the families, and says it was a full scan; a sample says it is one; a rate
 * lists the partitions it overloads with suffixes; a key is copied and its partition queried
 * in the table's tab; a 38-digit number key is shown and queried whole; Cancel stops a long full
 * scan of a generated table of BIG_ITEMS items. */
#define G_LOG_DOMAIN "test-keys-gui"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "app/keys/dy-keys-rows.h"
#include "app/keys/dy-keys-view.h"
#include "engine/engine.h"
#include "engine/snapshot.h"
#include "gui-util.h"

#define BIG_ITEMS 800000
#define BIG "98765432109876543210987654321098765432"

static gboolean
view_ready (gpointer data)
{
  return dy_keys_view_get_ready (data);
}

static gboolean
view_idle (gpointer data)
{
  return !dy_keys_view_get_running (data);
}

static gboolean
some_items_read (gpointer data)
{
  return dy_keys_view_get_items_read (data) > 0;
}

static DyKeysView *
find_keys_view (const char *table)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (gui_window));

  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (DY_IS_KEYS_VIEW (l->data) && g_strcmp0 (dy_keys_view_get_table_name (l->data), table) == 0)
      return l->data;
  return NULL;
}

/* The window binds Ctrl+Shift+K to win.keys, once. */
static void
assert_shortcut (void)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (gui_window));
  g_autoptr (GtkShortcutTrigger) trigger = gtk_shortcut_trigger_parse_string ("<Control><Shift>k");
  guint found = 0;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (c))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (c)); j++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (c), j);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

          if (!gtk_shortcut_trigger_equal (gtk_shortcut_get_trigger (shortcut), trigger))
            continue;
          found++;
          g_assert_true (GTK_IS_NAMED_ACTION (action));
          g_assert_cmpstr (gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)), ==,
                           "win.keys");
        }
    }
  g_assert_cmpuint (found, ==, 1);
}

static DyKeysRow *
row_at (GListModel *model, guint i)
{
  g_autoptr (DyKeysRow) row = g_list_model_get_item (model, i);

  g_assert_nonnull (row);
  return row; /* the model keeps its reference */
}

/* The report as ddb_keys_analyze gives it, on a backend of our own. */
static DdbKeysReport *
expected_report (DyConnection *connection, const char *table, guint64 sample)
{
  g_autoptr (GError) error = NULL;
  DdbBackend *backend = dy_connection_open_backend (connection, 0, &error);
  DdbKeysOptions options = { .table = table, .sample = sample };
  DdbKeysReport *report;

  g_assert_no_error (error);
  report = ddb_keys_analyze (backend, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  ddb_backend_free (backend);
  return report;
}

static void
run_and_wait (DyKeysView *view)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "keys.run", NULL));
  g_assert_true (dy_keys_view_get_running (view));
  gui_wait_for (view_idle, view, "the analysis");
  g_assert_null (dy_keys_view_get_error (view));
  gui_settle ();
}

/* The report's scrolled window: the first one drawn (the others are inside its lists). */
static GtkScrolledWindow *
find_scroller (GtkWidget *widget)
{
  if (!gtk_widget_get_mapped (widget))
    return NULL;
  if (GTK_IS_SCROLLED_WINDOW (widget))
    return GTK_SCROLLED_WINDOW (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkScrolledWindow *found = find_scroller (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static DyTableView *query_view;
static const char *query_key;
static guint query_items;

static gboolean
partition_queried (gpointer data)
{
  GListModel *items = dy_table_view_get_items (query_view);

  return !dy_table_view_get_running (query_view) && g_list_model_get_n_items (items) == query_items;
}

static void
test_orders (void)
{
  g_autoptr (DdbKeysReport) expected = NULL;
  g_autofree char *cardinality = NULL;
  g_autofree char *items = NULL;
  g_autofree char *clip = NULL;
  const DdbKeysPartition *heaviest;
  DyTableView *table_view;
  DyKeysView *view;
  GListModel *families;
  gboolean found = FALSE;

  gui_wait_for (gui_demo_tables_listed, NULL, "the demo tables");
  assert_shortcut ();
  table_view = gui_open_table ("Orders");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.keys", NULL));
  view = find_keys_view ("Orders");
  g_assert_nonnull (view);
  g_assert_true (dy_keys_view_get_connection (view) == gui_demo_connection ());
  gui_wait_for (view_ready, view, "DescribeTable");
  /* asked again, the same window comes up */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.keys", NULL));
  g_assert_true (find_keys_view ("Orders") == view);
  g_assert_false (dy_keys_view_set_index (view, "NoSuchIndex"));
  g_assert_true (dy_keys_view_set_index (view, NULL));

  /* a full scan: the figures of ddb_keys_analyze, shown */
  dy_keys_view_set_sample (view, 0);
  dy_keys_view_set_rate (view, 0, 0);
  run_and_wait (view);
  expected = expected_report (gui_demo_connection (), "Orders", 0);
  g_assert_nonnull (dy_keys_view_get_report (view));
  g_assert_false (dy_keys_view_get_report (view)->sampled);
  g_assert_nonnull (strstr (dy_keys_view_get_source_text (view), "full scan"));
  g_assert_cmpuint (expected->partitions->len, ==, 12);
  cardinality = g_strdup_printf ("%'u", expected->partitions->len);
  items = g_strdup_printf ("%'" G_GUINT64_FORMAT, expected->items);
  g_assert_cmpstr (dy_keys_view_get_summary (view, "cardinality"), ==, cardinality);
  g_assert_cmpstr (dy_keys_view_get_summary (view, "items"), ==, items);
  heaviest = expected->partitions->pdata[0];
  g_clear_pointer (&items, g_free);
  items = g_strdup_printf ("%'" G_GUINT64_FORMAT, heaviest->items);
  g_assert_cmpuint (g_list_model_get_n_items (dy_keys_view_get_heaviest (view)), ==, 12);
  g_assert_cmpstr (dy_keys_row_get_key (row_at (dy_keys_view_get_heaviest (view), 0)), ==,
                   heaviest->key);
  g_assert_cmpstr (dy_keys_row_get_cell (row_at (dy_keys_view_get_heaviest (view), 0), 0), ==,
                   heaviest->key);
  g_assert_cmpstr (dy_keys_row_get_cell (row_at (dy_keys_view_get_heaviest (view), 0), 1), ==,
                   items);
  g_assert_cmpuint (dy_keys_view_get_report (view)->advice->len, ==, expected->advice->len);

  /* the sharded hot tenant is a family of ten shards */
  families = dy_keys_view_get_families (view);
  for (guint i = 0; i < g_list_model_get_n_items (families); i++)
    if (g_strcmp0 (dy_keys_row_get_cell (row_at (families, i), 0), "TENANT#bigco#*") == 0)
      {
        found = TRUE;
        g_assert_true (g_str_has_prefix (dy_keys_row_get_cell (row_at (families, i), 1),
                                         "10 (TENANT#bigco#01 … TENANT#bigco#10)"));
      }
  g_assert_true (found);
  g_assert_cmpuint (g_list_model_get_n_items (dy_keys_view_get_hot (view)), ==, 0);
  gui_screenshot ("keys-orders.png");
  /* the chart and the lists in the theme's colours: dark too */
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      ADW_COLOR_SCHEME_FORCE_DARK);
  gui_screenshot ("keys-orders-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);

  /* a key copied whole */
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (view), "keys.copy-key", "s", "TENANT#bigco#01"));
  clip = gui_clipboard_text (GTK_WIDGET (view));
  g_assert_cmpstr (clip, ==, "TENANT#bigco#01");

  /* a rate: the shards of the hot tenant each take 9% of 60,000 RCU, past 3,000 */
  dy_keys_view_set_rate (view, 60000, 3000);
  run_and_wait (view);
  g_assert_true (dy_keys_view_get_report (view)->has_rate);
  g_assert_cmpuint (g_list_model_get_n_items (dy_keys_view_get_hot (view)), >=, 10);
  g_assert_true (g_str_has_prefix (dy_keys_row_get_key (row_at (dy_keys_view_get_hot (view), 0)),
                                   "TENANT#bigco#"));
  g_assert_cmpstr (dy_keys_row_get_cell (row_at (dy_keys_view_get_hot (view), 0), 4), ==, "2");
  g_assert_nonnull (
      strstr (dy_keys_row_get_cell (row_at (dy_keys_view_get_hot (view), 0), 2), "too many"));
  gui_screenshot ("keys-orders-rate.png");
  /* the first shard advice (the too-hot family TENANT#bigco#01..#10, to shard into more
   * suffixes) as a fan-out Query program over the suffixes it advises */
  g_assert_cmpuint (dy_keys_view_get_report (view)->shard_advice->len, >=, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "keys.copy-fanout", "(su)",
                                             "python", 0));
  g_free (clip);
  clip = gui_clipboard_text (GTK_WIDGET (view));
  g_assert_nonnull (strstr (clip, "import boto3"));
  g_assert_nonnull (strstr (clip, "TENANT#bigco#"));
  g_assert_nonnull (strstr (clip, "\"TableName\": \"Orders\""));
  {
    GtkScrolledWindow *scroller = find_scroller (GTK_WIDGET (view));
    GtkAdjustment *v;

    g_assert_nonnull (scroller);
    v = gtk_scrolled_window_get_vadjustment (scroller);
    gtk_adjustment_set_value (v, gtk_adjustment_get_upper (v));
    gui_screenshot ("keys-orders-lists.png");
    gtk_adjustment_set_value (v, 0);
  }

  /* a sample says so */
  dy_keys_view_set_rate (view, 0, 0);
  dy_keys_view_set_sample (view, 20);
  run_and_wait (view);
  g_assert_true (dy_keys_view_get_report (view)->sampled);
  g_assert_cmpuint (dy_keys_view_get_report (view)->items, ==, 20);
  g_assert_nonnull (strstr (dy_keys_view_get_source_text (view), "sample of 20 items"));
  g_assert_cmpstr (dy_keys_view_get_summary (view, "items"), ==, "20");
  gui_screenshot ("keys-orders-sample.png");

  /* a partition queried in the table's tab */
  query_view = table_view;
  query_key = "TENANT#bigco#03";
  query_items = 6;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "keys.query", "s", query_key));
  gui_wait_for (partition_queried, NULL, "the partition's Query");
  for (guint i = 0; i < query_items; i++)
    {
      g_autoptr (DyItem) item = g_list_model_get_item (dy_table_view_get_items (table_view), i);
      g_autofree char *key = gui_string_attr (item, "TenantShard");

      g_assert_cmpstr (key, ==, query_key);
    }
  {
    g_autofree char *request = dy_table_view_dup_request_text (table_view);

    g_assert_nonnull (strstr (request, "KeyConditionExpression"));
    g_assert_nonnull (strstr (request, query_key));
  }
  gtk_window_destroy (GTK_WINDOW (view));
  gui_settle ();
  g_assert_null (find_keys_view ("Orders"));
}

/* With no tab open, win.keys opens the table selected in the sidebar; an index's partition key
 * is analyzed when picked. */
static void
test_sidebar_index (void)
{
  AdwTabView *tabs = dy_window_get_tab_view (gui_window);
  DyKeysView *view;
  const DdbKeysReport *report;

  while (adw_tab_view_get_n_pages (tabs) > 0)
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.close-tab", NULL));
  gui_settle ();
  g_assert_true (dy_window_select_table (gui_window, gui_demo_connection (), "Blog"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.keys", NULL));
  view = find_keys_view ("Blog");
  g_assert_nonnull (view);
  gui_wait_for (view_ready, view, "DescribeTable");
  g_assert_true (dy_keys_view_set_index (view, "ByAuthor"));
  dy_keys_view_set_sample (view, 0);
  run_and_wait (view);
  report = dy_keys_view_get_report (view);
  g_assert_nonnull (report);
  g_assert_cmpstr (report->index, ==, "ByAuthor");
  g_assert_cmpstr (report->key_name, ==, "authorId");
  g_assert_nonnull (strstr (dy_keys_view_get_source_text (view), "Blog, index ByAuthor"));
  gui_screenshot ("keys-blog-index.png");
  gtk_window_destroy (GTK_WINDOW (view));
  gui_settle ();
}

static void
call (const char *op, const char *text)
{
  json_error_t jerror;
  json_t *request = json_loads (text, 0, &jerror);
  g_autoptr (GError) error = NULL;
  json_t *response;

  g_assert_nonnull (request);
  response = dy_connection_call_sync (gui_demo_connection (), op, request, NULL, &error);
  g_assert_no_error (error);
  json_decref (response);
  json_decref (request);
}

/* A number partition key keeps all its digits, and its partition is queried as a number. */
static void
test_number_key (void)
{
  DyKeysView *view;
  DyTableView *table_view;

  call ("CreateTable",
        "{\"TableName\": \"Numbers\", \"BillingMode\": \"PAY_PER_REQUEST\","
        " \"AttributeDefinitions\": [{\"AttributeName\": \"n\", \"AttributeType\": \"N\"}],"
        " \"KeySchema\": [{\"AttributeName\": \"n\", \"KeyType\": \"HASH\"}]}");
  call ("PutItem", "{\"TableName\": \"Numbers\", \"Item\": {\"n\": {\"N\": \"" BIG "\"}}}");
  call ("PutItem", "{\"TableName\": \"Numbers\", \"Item\": {\"n\": {\"N\": \"7\"}}}");
  view = dy_keys_view_open (gui_window, gui_demo_connection (), "Numbers");
  gui_wait_for (view_ready, view, "DescribeTable");
  dy_keys_view_set_sample (view, 0);
  run_and_wait (view);
  g_assert_cmpuint (g_list_model_get_n_items (dy_keys_view_get_heaviest (view)), ==, 2);
  {
    gboolean found = FALSE;

    for (guint i = 0; i < 2; i++)
      found
          |= g_strcmp0 (dy_keys_row_get_cell (row_at (dy_keys_view_get_heaviest (view), i), 0), BIG)
             == 0;
    g_assert_true (found);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "keys.query", "s", BIG));
  table_view = dy_window_get_current_view (gui_window);
  g_assert_nonnull (table_view);
  g_assert_cmpstr (dy_table_view_get_table_name (table_view), ==, "Numbers");
  query_view = table_view;
  query_items = 1;
  gui_wait_for (partition_queried, NULL, "the number partition's Query");
  {
    g_autoptr (DyItem) item = g_list_model_get_item (dy_table_view_get_items (table_view), 0);
    const DdbValue *n = dy_item_get_attribute (item, "n");
    g_autofree char *digits = NULL;

    g_assert_nonnull (n);
    g_assert_cmpint (n->type, ==, DDB_TYPE_N);
    digits = ddb_number_to_string (&n->number);
    g_assert_cmpstr (digits, ==, BIG);
  }
  gtk_window_destroy (GTK_WINDOW (view));
  gui_settle ();
  call ("DeleteTable", "{\"TableName\": \"Numbers\"}");
}

/* A table of BIG_ITEMS items in a database of its own. */
static char *
build_big_database (void)
{
  g_autofree char *input = g_build_filename (g_get_user_cache_dir (), "big.jsonl", NULL);
  char *path = g_build_filename (g_get_user_cache_dir (), "big.db", NULL);
  DdbImportOptions options = { .table_name = "Big", .key = "pk:S,sk:N" };
  g_autoptr (GError) error = NULL;
  DdbEngine *engine;
  FILE *f = fopen (input, "w");

  g_assert_nonnull (f);
  for (guint i = 0; i < BIG_ITEMS; i++)
    fprintf (f, "{\"pk\":{\"S\":\"T#%u\"},\"sk\":{\"N\":\"%u\"}}\n", i % 5000, i);
  g_assert_cmpint (fclose (f), ==, 0);
  engine = ddb_engine_open (path, &error);
  g_assert_no_error (error);
  g_assert_true (ddb_snapshot_import (engine, input, &options, NULL, &error));
  g_assert_no_error (error);
  ddb_engine_free (engine);
  g_unlink (input);
  return path;
}

static const char *big_path;

static gboolean
view_gone (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static gboolean
big_listed (gpointer data)
{
  DyConnection *c = dy_window_find_connection (gui_window, DY_CONNECTION_DATABASE, big_path);

  return c != NULL && !dy_connection_get_loading (c)
         && g_list_model_get_n_items (dy_connection_get_tables (c)) > 0;
}

static void
test_cancel (void)
{
  g_autofree char *path = build_big_database ();
  DyConnection *connection;
  DyKeysView *view;
  guint64 read_when_cancelled;
  gint64 cancelled_at;

  big_path = path;
  dy_window_open_database (gui_window, path, FALSE);
  gui_wait_for (big_listed, NULL, "the big database's tables");
  connection = dy_window_find_connection (gui_window, DY_CONNECTION_DATABASE, path);
  view = dy_keys_view_open (gui_window, connection, "Big");
  gui_wait_for (view_ready, view, "DescribeTable");
  dy_keys_view_set_sample (view, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "keys.run", NULL));
  gui_wait_for (some_items_read, view, "the first items read");
  read_when_cancelled = dy_keys_view_get_items_read (view);
  g_assert_true (dy_keys_view_get_running (view));
  g_assert_cmpuint (read_when_cancelled, <, BIG_ITEMS);
  cancelled_at = g_get_monotonic_time ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "keys.cancel", NULL));
  gui_wait_for (view_idle, view, "the cancel");
  /* stopped, not read to the end */
  g_assert_cmpint (g_get_monotonic_time () - cancelled_at, <, 5 * G_USEC_PER_SEC);
  g_assert_null (dy_keys_view_get_report (view));
  g_assert_null (dy_keys_view_get_error (view));
  g_assert_cmpuint (dy_keys_view_get_items_read (view), <, BIG_ITEMS);
  g_assert_nonnull (strstr (dy_keys_view_get_source_text (view), "Cancelled after"));
  g_test_message ("cancelled at %" G_GUINT64_FORMAT " items, stopped at %" G_GUINT64_FORMAT
                  " of %u",
                  read_when_cancelled, dy_keys_view_get_items_read (view), BIG_ITEMS);
  gui_screenshot ("keys-cancelled.png");

  /* and a sample of it runs to its end */
  dy_keys_view_set_sample (view, 10000);
  run_and_wait (view);
  g_assert_true (dy_keys_view_get_report (view)->sampled);
  g_assert_cmpuint (dy_keys_view_get_report (view)->items, ==, 10000);
  gui_screenshot ("keys-big-sample.png");

  /* a picture of a full scan running (not asserted on: it may end before the picture) */
  dy_keys_view_set_sample (view, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "keys.run", NULL));
  gui_wait_for (some_items_read, view, "the first items read");
  gui_screenshot_after ("keys-running.png", 150);
  dy_keys_view_cancel (view);
  gui_wait_for (view_idle, view, "the end of the run");

  /* closed while reading: the read stops and the window is freed once it has */
  g_object_add_weak_pointer (G_OBJECT (view), (gpointer *) &view);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "keys.run", NULL));
  gtk_window_destroy (GTK_WINDOW (view));
  gui_wait_for (view_gone, &view, "the closed window to be freed");
}

int
main (int argc, char **argv)
{
  gui_init (&argc, &argv);
  g_test_add_func ("/keys-gui/orders", test_orders);
  g_test_add_func ("/keys-gui/sidebar-index", test_sidebar_index);
  g_test_add_func ("/keys-gui/number-key", test_number_key);
  g_test_add_func ("/keys-gui/cancel", test_cancel);
  return gui_run_tests ();
}
