/* test-compare-gui.c: the Compare window in the real app. The demo database's Orders table is
 * the snapshot ("here": its import recorded a base, and the engine keeps the base version of
 * every item written since); a second database imported from the same data is the live table
 * ("there"). Both are edited: here an update, a delete, a create and an update of an item that
 * there changes too; there an update, a create and that shared item. Opened by win.compare
 * (bound to Ctrl+Shift+E) on the Orders tab, the window picks the live table by its name, and
 * its summary shows the exact counts in two lines with the base; the conflict's values are
 * side by side (base | here | there); Stage Push stages only the edits made here on the live
 * connection, and the staging panel opens on it. Without a base and with an attribute left
 * out, the counts are the two-way ones, a push is refused while changes are open there, and the
 * selected rows are pushed after the confirmation. */
#define G_LOG_DOMAIN "test-compare-gui"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "app/compare/dy-compare-view.h"
#include "app/staging/dy-staging.h"
#include "core/ddbjson.h"
#include "engine/engine.h"
#include "engine/snapshot.h"
#include "gui-util.h"

#define BIG_ITEMS 300000
#define ORDERS_KEY "TenantShard:S,CustomerCountryProduct:S"
#define KEY(sk) \
  "{\"TenantShard\": {\"S\": \"TENANT#bigco#01\"}, \"CustomerCountryProduct\": {\"S\": \"" sk "\"" \
  "}}"

static char *live_path;

static DyConnection *
live_connection (void)
{
  return dy_window_find_connection (gui_window, DY_CONNECTION_DATABASE, live_path);
}

static gboolean
live_listed (gpointer data)
{
  DyConnection *c = live_connection ();

  return c != NULL && !dy_connection_get_loading (c)
         && g_list_model_get_n_items (dy_connection_get_tables (c)) > 0;
}

static gboolean
view_idle (gpointer data)
{
  return !dy_compare_view_get_running (data);
}

static gboolean
detail_ready (gpointer data)
{
  return dy_compare_view_get_detail_ready (data);
}

static gboolean
push_done (gpointer data)
{
  return !dy_compare_view_get_pushing (data);
}

static void
call (DyConnection *connection, const char *op, const char *text)
{
  json_error_t jerror;
  json_t *request = json_loads (text, 0, &jerror);
  g_autoptr (GError) error = NULL;
  json_t *response;

  g_assert_nonnull (request);
  response = dy_connection_call_sync (connection, op, request, NULL, &error);
  g_assert_no_error (error);
  json_decref (response);
  json_decref (request);
}

/* The live table: the demo's orders imported into a database of its own. */
static void
build_live_database (void)
{
  g_autofree char *source
      = g_build_filename (g_getenv ("DYNOSCOPE_DEMO_DATA"), "orders.jsonl", NULL);
  DdbImportOptions options = { .table_name = "Orders", .key = ORDERS_KEY };
  g_autoptr (GError) error = NULL;
  DdbEngine *engine;

  live_path = g_build_filename (g_get_user_cache_dir (), "live.db", NULL);
  engine = ddb_engine_open (live_path, &error);
  g_assert_no_error (error);
  g_assert_true (ddb_snapshot_import (engine, source, &options, NULL, &error));
  g_assert_no_error (error);
  ddb_engine_free (engine);
}

/* WIDGET or one of its descendants is a GtkShortcutsShortcut for ACCEL titled with TITLE. */
static gboolean
lists_shortcut (GtkWidget *widget, const char *accel, const char *title)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (widget))
    {
      g_autofree char *a = NULL;
      g_autofree char *t = NULL;

      g_object_get (widget, "accelerator", &a, "title", &t, NULL);
      if (g_strcmp0 (a, accel) == 0 && t != NULL && strstr (t, title) != NULL)
        return TRUE;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (lists_shortcut (c, accel, title))
      return TRUE;
  return FALSE;
}

/* The window binds Ctrl+Shift+E to win.compare, once, and the shortcuts window lists it. */
static void
assert_shortcut (void)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (gui_window));
  g_autoptr (GtkShortcutTrigger) trigger = gtk_shortcut_trigger_parse_string ("<Control><Shift>e");
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
                           "win.compare");
        }
    }
  g_assert_cmpuint (found, ==, 1);
  /* and the shortcuts window lists it */
  {
    GtkShortcutsWindow *help = dy_window_get_shortcuts_window (gui_window);

    g_assert_nonnull (help);
    g_assert_true (lists_shortcut (GTK_WIDGET (help), "<Control><Shift>e", "Compare"));
  }
}

static DyCompareView *
find_compare_view (const char *table)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (gui_window));

  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (DY_IS_COMPARE_VIEW (l->data)
        && g_strcmp0 (dy_compare_view_get_table_name (l->data), table) == 0)
      return l->data;
  return NULL;
}

static void
run_and_wait (DyCompareView *view)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "compare.run", NULL));
  g_assert_true (dy_compare_view_get_running (view));
  gui_wait_for (view_idle, view, "the compare");
  g_assert_null (dy_compare_view_get_error (view));
  gui_settle ();
}

static void
assert_contains (const char *text, const char *part)
{
  if (strstr (text, part) == NULL)
    g_error ("“%s” not in:\n%s", part, text);
}

/* The row of the key whose sort key is SK, selected alone; waits for its detail. */
static char *
select_row (DyCompareView *view, const char *sk)
{
  GListModel *rows = dy_compare_view_get_rows (view);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (DyCompareRow) row = g_list_model_get_item (rows, i);
      const DdbValue *v
          = ddb_value_map_get (dy_compare_row_get_key (row), "CustomerCountryProduct");

      if (g_strcmp0 ((const char *) v->bytes.data, sk) == 0)
        {
          g_assert_true (
              gtk_selection_model_select_item (dy_compare_view_get_selection (view), i, TRUE));
          gui_wait_for (detail_ready, view, "the difference's values");
          gui_settle ();
          return dy_compare_view_dup_detail_text (view);
        }
    }
  g_error ("no row for %s", sk);
  return NULL;
}

static GPtrArray *
staged_live (void)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *changes
      = dy_staging_list (dy_staging_get_default (), live_connection (), "Orders", &error);

  g_assert_no_error (error);
  return changes;
}

static const DdbChange *
change_of (GPtrArray *changes, const char *sk)
{
  for (guint i = 0; i < changes->len; i++)
    {
      const DdbChange *c = changes->pdata[i];
      const DdbValue *v = ddb_value_map_get (c->key, "CustomerCountryProduct");

      if (g_strcmp0 ((const char *) v->bytes.data, sk) == 0)
        return c;
    }
  g_error ("no staged change for %s", sk);
  return NULL;
}

static void
test_compare (void)
{
  DyConnection *demo, *live;
  DyCompareView *view;
  const DdbCompareCounts *counts;
  g_autofree char *summary = NULL;
  g_autofree char *detail = NULL;
  g_autoptr (GPtrArray) changes = NULL;
  DdbPushCounts pushed;

  gui_wait_for (gui_demo_tables_listed, NULL, "the demo tables");
  assert_shortcut ();
  demo = gui_demo_connection ();
  build_live_database ();
  dy_window_open_database (gui_window, live_path, FALSE);
  gui_wait_for (live_listed, NULL, "the live database's tables");
  live = live_connection ();

  /* offline edits of the snapshot */
  call (
      demo, "UpdateItem",
      "{\"TableName\": \"Orders\", \"Key\": " KEY (
          "C#1037#FR#P-MOUSE") ","
                               " \"UpdateExpression\": \"SET #s = :s\", "
                               "\"ExpressionAttributeNames\": {\"#s\": \"status\"},"
                               " \"ExpressionAttributeValues\": {\":s\": {\"S\": \"returned\"}}}");
  call (demo, "DeleteItem",
        "{\"TableName\": \"Orders\", \"Key\": " KEY ("C#1074#US#P-MONITOR") "}");
  call (demo, "PutItem",
        "{\"TableName\": \"Orders\", \"Item\": {\"TenantShard\": {\"S\": \"TENANT#bigco#01\"},"
        " \"CustomerCountryProduct\": {\"S\": \"C#9999#NZ#P-KIWI\"}, \"qty\": {\"N\": \"7\"},"
        " \"total\": {\"N\": \"12345678901234567890123456789012.345678\"}}}");
  call (demo, "UpdateItem",
        "{\"TableName\": \"Orders\", \"Key\": " KEY (
            "C#1111#JP#P-DOCK") ","
                                " \"UpdateExpression\": \"SET qty = :q\", "
                                "\"ExpressionAttributeValues\": {\":q\": {\"N\": \"40\"}}}");
  /* meanwhile, live */
  call (live, "UpdateItem",
        "{\"TableName\": \"Orders\", \"Key\": " KEY (
            "C#1148#BR#P-CABLE") ","
                                 " \"UpdateExpression\": \"SET #t = :t\", "
                                 "\"ExpressionAttributeNames\": {\"#t\": \"total\"},"
                                 " \"ExpressionAttributeValues\": {\":t\": {\"N\": \"99.99\"}}}");
  call (
      live, "UpdateItem",
      "{\"TableName\": \"Orders\", \"Key\": " KEY (
          "C#1111#JP#P-DOCK") ","
                              " \"UpdateExpression\": \"SET #s = :s\", "
                              "\"ExpressionAttributeNames\": {\"#s\": \"status\"},"
                              " \"ExpressionAttributeValues\": {\":s\": {\"S\": \"cancelled\"}}}");
  call (live, "PutItem",
        "{\"TableName\": \"Orders\", \"Item\": {\"TenantShard\": {\"S\": \"TENANT#new#01\"},"
        " \"CustomerCountryProduct\": {\"S\": \"C#1#IE#P-PEN\"}, \"qty\": {\"N\": \"1\"}}}");

  gui_open_table ("Orders");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.compare", NULL));
  view = find_compare_view ("Orders");
  g_assert_nonnull (view);
  g_assert_true (dy_compare_view_get_connection (view) == demo);
  /* the table of the same name in the other connection */
  g_assert_true (dy_compare_view_get_other_connection (view) == live);
  g_assert_cmpstr (dy_compare_view_get_other_name (view), ==, "Orders");
  /* another connection's table list does not lose the table asked for; one it does not list is
   * replaced by the one shown */
  dy_compare_view_set_other (view, demo, "Workspaces");
  g_assert_true (dy_compare_view_get_other_connection (view) == demo);
  g_assert_cmpstr (dy_compare_view_get_other_name (view), ==, "Workspaces");
  dy_compare_view_set_other (view, live, "NoSuchTable");
  g_assert_cmpstr (dy_compare_view_get_other_name (view), ==, "Orders");
  dy_compare_view_set_other (view, live, "Orders");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.compare", NULL));
  g_assert_true (find_compare_view ("Orders") == view);
  gui_screenshot ("compare-empty.png");

  /* three-way, on the snapshot's recorded base */
  run_and_wait (view);
  counts = dy_compare_view_get_counts (view);
  g_assert_nonnull (counts);
  g_assert_true (counts->has_base);
  g_assert_cmpuint (counts->same, ==, 63);
  g_assert_cmpuint (counts->changed, ==, 3);
  g_assert_cmpuint (counts->only_here, ==, 1);
  g_assert_cmpuint (counts->only_there, ==, 2);
  g_assert_cmpuint (counts->edited_here, ==, 3);
  g_assert_cmpuint (counts->edited_there, ==, 2);
  g_assert_cmpuint (counts->both, ==, 1);
  g_assert_cmpuint (counts->items_here, ==, 67);
  g_assert_cmpuint (counts->items_there, ==, 68);
  summary = dy_compare_view_dup_summary_text (view);
  assert_contains (summary, "63 same · 3 changed · 1 only here · 2 only there\n");
  assert_contains (summary, "3 edited here (pushable) · 2 edited there (left alone) · 1 edited "
                            "on both sides (conflicts)\n");
  assert_contains (summary, "Base: ");
  assert_contains (summary, "orders.jsonl");
  assert_contains (summary, "Here 67 items");
  assert_contains (summary, "there 68 items");
  g_assert_cmpuint (g_list_model_get_n_items (dy_compare_view_get_rows (view)), ==, 6);

  /* the filters */
  dy_compare_view_set_show (view, DY_COMPARE_SHOW_ONLY_THERE);
  g_assert_cmpuint (g_list_model_get_n_items (dy_compare_view_get_rows (view)), ==, 2);
  dy_compare_view_set_show (view, DY_COMPARE_SHOW_PUSHABLE);
  g_assert_cmpuint (g_list_model_get_n_items (dy_compare_view_get_rows (view)), ==, 3);
  dy_compare_view_set_show (view, DY_COMPARE_SHOW_EDITED_THERE);
  g_assert_cmpuint (g_list_model_get_n_items (dy_compare_view_get_rows (view)), ==, 2);
  dy_compare_view_set_show (view, DY_COMPARE_SHOW_BOTH);
  g_assert_cmpuint (g_list_model_get_n_items (dy_compare_view_get_rows (view)), ==, 1);

  /* the conflict side by side: qty edited here, status there */
  dy_compare_view_set_show (view, DY_COMPARE_SHOW_ALL);
  detail = select_row (view, "C#1111#JP#P-DOCK");
  assert_contains (detail, "TENANT#bigco#01 · C#1111#JP#P-DOCK\n");
  assert_contains (detail, "Edited on both sides since the base");
  assert_contains (detail, "Attribute | Base | Here | There\n");
  assert_contains (detail, "qty | 4 | 40 | 4\n");
  assert_contains (detail, "status | “placed” | “placed” | “cancelled”\n");
  gui_screenshot ("compare-conflict.png");
  g_free (detail);
  /* a create made here: every attribute, absent in the base and there, the number whole */
  detail = select_row (view, "C#9999#NZ#P-KIWI");
  assert_contains (detail, "Created here since the base");
  assert_contains (detail, "total | absent | 12345678901234567890123456789012.345678 | absent\n");
  g_free (detail);
  detail = select_row (view, "C#1037#FR#P-MOUSE");
  assert_contains (detail, "status | “shipped” | “returned” | “shipped”\n");
  gui_screenshot ("compare-three-way.png");

  /* Stage Push: only the edits made here, on the live connection; the staging panel opens */
  g_assert_null (dy_compare_view_stage_push (view, FALSE));
  g_assert_true (dy_compare_view_get_pushing (view));
  gui_wait_for (push_done, view, "the push");
  g_assert_null (dy_compare_view_get_error (view));
  g_assert_true (dy_compare_view_get_push_counts (view, &pushed));
  g_assert_cmpuint (pushed.staged, ==, 3);
  g_assert_cmpuint (pushed.creates, ==, 1);
  g_assert_cmpuint (pushed.updates, ==, 1);
  g_assert_cmpuint (pushed.deletes, ==, 1);
  g_assert_cmpuint (pushed.left_there, ==, 2);
  g_assert_cmpuint (pushed.conflicts, ==, 1);
  changes = staged_live ();
  g_assert_cmpuint (changes->len, ==, 3);
  g_assert_cmpint (change_of (changes, "C#1037#FR#P-MOUSE")->kind, ==, DDB_CHANGE_UPDATE);
  g_assert_cmpstr (
      (const char *) ddb_value_map_get (change_of (changes, "C#1037#FR#P-MOUSE")->target, "status")
          ->bytes.data,
      ==, "returned");
  g_assert_cmpint (change_of (changes, "C#1074#US#P-MONITOR")->kind, ==, DDB_CHANGE_DELETE);
  g_assert_cmpint (change_of (changes, "C#9999#NZ#P-KIWI")->kind, ==, DDB_CHANGE_CREATE);
  g_clear_pointer (&changes, g_ptr_array_unref);
  {
    DyTableView *current = dy_window_get_current_view (gui_window);

    g_assert_nonnull (current);
    g_assert_true (dy_table_view_get_connection (current) == live);
    g_assert_cmpstr (dy_table_view_get_table_name (current), ==, "Orders");
    g_assert_true (dy_staging_panel_get_connection (dy_window_get_staging_panel (gui_window))
                   == live);
  }
  gtk_window_present (GTK_WINDOW (gui_window));
  gui_screenshot ("compare-pushed.png");

  /* the base named as an export (the data both started from): the same three classes */
  {
    g_autofree char *source
        = g_build_filename (g_getenv ("DYNOSCOPE_DEMO_DATA"), "orders.jsonl", NULL);
    g_autofree char *base_text = g_strdup_printf ("Base: export %s\n", source);

    gtk_window_present (GTK_WINDOW (view));
    dy_compare_view_set_base (view, DY_COMPARE_BASE_EXPORT, source);
    run_and_wait (view);
    counts = dy_compare_view_get_counts (view);
    g_assert_true (counts->has_base);
    g_assert_cmpuint (counts->edited_here, ==, 3);
    g_assert_cmpuint (counts->edited_there, ==, 2);
    g_assert_cmpuint (counts->both, ==, 1);
    g_free (summary);
    summary = dy_compare_view_dup_summary_text (view);
    assert_contains (summary, base_text);
  }

  /* two-way, with total left out: the live edit of a total is the same item now */
  gtk_window_present (GTK_WINDOW (view));
  dy_compare_view_set_base (view, DY_COMPARE_BASE_NONE, NULL);
  dy_compare_view_set_exclude (view, " total ,");
  run_and_wait (view);
  counts = dy_compare_view_get_counts (view);
  g_assert_false (counts->has_base);
  g_assert_cmpuint (counts->same, ==, 64);
  g_assert_cmpuint (counts->changed, ==, 2);
  g_assert_cmpuint (counts->only_here, ==, 1);
  g_assert_cmpuint (counts->only_there, ==, 2);
  g_free (summary);
  summary = dy_compare_view_dup_summary_text (view);
  assert_contains (summary, "64 same · 2 changed · 1 only here · 2 only there\n");
  g_assert_null (strstr (summary, "edited here"));
  assert_contains (summary, "No base is known");
  g_free (detail);
  detail = select_row (view, "C#1111#JP#P-DOCK");
  assert_contains (detail, "Attribute | Here | There\n");
  assert_contains (detail, "qty | 40 | 4\n");
  assert_contains (detail, "Changed: a push makes it there as it is here");
  gui_screenshot ("compare-two-way.png");

  /* refused while the three-way push's changes are open there */
  {
    GtkWidget *dialog = dy_compare_view_stage_push (view, FALSE);

    g_assert_nonnull (dialog);
    gui_screenshot ("compare-confirm.png");
    adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "stage");
    gui_wait_for (push_done, view, "the refused push");
    g_assert_nonnull (dy_compare_view_get_error (view));
    assert_contains (dy_compare_view_get_error (view), "Nothing was staged");
    assert_contains (dy_compare_view_get_error (view), "already open");
    changes = staged_live ();
    g_assert_cmpuint (changes->len, ==, 3);
    g_clear_pointer (&changes, g_ptr_array_unref);
  }

  /* the selection pushed: the two items only there, deleted there */
  {
    g_autoptr (GError) error = NULL;
    GtkWidget *dialog;

    g_assert_true (dy_staging_discard_all (dy_staging_get_default (), live, "Orders", &error));
    g_assert_no_error (error);
    dy_compare_view_set_show (view, DY_COMPARE_SHOW_ONLY_THERE);
    g_assert_cmpuint (g_list_model_get_n_items (dy_compare_view_get_rows (view)), ==, 2);
    gtk_selection_model_select_all (dy_compare_view_get_selection (view));
    dialog = dy_compare_view_stage_push (view, TRUE);
    g_assert_nonnull (dialog);
    adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "stage");
    gui_wait_for (push_done, view, "the push of the selection");
    g_assert_null (dy_compare_view_get_error (view));
    g_assert_true (dy_compare_view_get_push_counts (view, &pushed));
    g_assert_cmpuint (pushed.staged, ==, 2);
    g_assert_cmpuint (pushed.deletes, ==, 2);
    g_assert_cmpuint (pushed.not_selected, ==, 3);
    changes = staged_live ();
    g_assert_cmpuint (changes->len, ==, 2);
    g_assert_cmpint (change_of (changes, "C#1074#US#P-MONITOR")->kind, ==, DDB_CHANGE_DELETE);
    g_clear_pointer (&changes, g_ptr_array_unref);
    g_assert_true (dy_staging_discard_all (dy_staging_get_default (), live, "Orders", &error));
  }

  /* an export of the live table as the other side: the same counts (two-way, total left out),
   * and nothing to push to */
  {
    g_autofree char *export = g_build_filename (g_get_user_cache_dir (), "live-orders.jsonl", NULL);
    DdbExportOptions options = { .table_name = "Orders" };
    g_autoptr (GError) error = NULL;
    DdbEngine *engine = ddb_engine_open (live_path, &error);

    g_assert_no_error (error);
    g_assert_true (ddb_snapshot_export (engine, export, &options, NULL, &error));
    g_assert_no_error (error);
    ddb_engine_free (engine);
    gtk_window_present (GTK_WINDOW (view));
    dy_compare_view_set_other_export (view, export);
    g_assert_null (dy_compare_view_get_other_connection (view));
    g_assert_cmpstr (dy_compare_view_get_other_name (view), ==, export);
    run_and_wait (view);
    counts = dy_compare_view_get_counts (view);
    g_assert_cmpuint (counts->same, ==, 64);
    g_assert_cmpuint (counts->changed, ==, 2);
    g_assert_cmpuint (counts->only_here, ==, 1);
    g_assert_cmpuint (counts->only_there, ==, 2);
    g_assert_cmpuint (counts->items_there, ==, 68);
    g_assert_null (dy_compare_view_stage_push (view, FALSE));
    g_assert_false (dy_compare_view_get_pushing (view));
    g_assert_false (gtk_widget_is_sensitive (dy_compare_view_get_push_button (view)));
    gui_screenshot ("compare-export.png");
  }

  /* closed: freed once its workers are done */
  g_object_add_weak_pointer (G_OBJECT (view), (gpointer *) &view);
  gtk_window_destroy (GTK_WINDOW (view));
  while (view != NULL)
    gui_settle ();
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
big_listed (gpointer data)
{
  DyConnection *c = dy_window_find_connection (gui_window, DY_CONNECTION_DATABASE, big_path);

  return c != NULL && !dy_connection_get_loading (c)
         && g_list_model_get_n_items (dy_connection_get_tables (c)) > 0;
}

static gboolean
two_tables (gpointer data)
{
  return !dy_connection_get_loading (data)
         && g_list_model_get_n_items (dy_connection_get_tables (data)) == 2;
}

static gboolean
some_items_read (gpointer data)
{
  return dy_compare_view_get_items_read (data) > 0;
}

/* Cancel stops a compare of a big table with itself part way, and nothing is shown. */
static void
test_cancel (void)
{
  g_autofree char *path = build_big_database ();
  DyConnection *connection;
  DyCompareView *view;
  gint64 cancelled_at;

  big_path = path;
  dy_window_open_database (gui_window, path, FALSE);
  gui_wait_for (big_listed, NULL, "the big database's tables");
  connection = dy_window_find_connection (gui_window, DY_CONNECTION_DATABASE, path);
  view = dy_compare_view_open (gui_window, connection, "Big");
  dy_compare_view_set_other (view, connection, "Big");
  g_assert_true (dy_compare_view_get_other_connection (view) == connection);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "compare.run", NULL));
  gui_wait_for (some_items_read, view, "the first items read");
  g_assert_true (dy_compare_view_get_running (view));
  gui_screenshot_after ("compare-running.png", 100);
  cancelled_at = g_get_monotonic_time ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "compare.cancel", NULL));
  gui_wait_for (view_idle, view, "the cancel");
  g_test_message ("cancelled after %" G_GUINT64_FORMAT " items, stopped in %.2f s",
                  dy_compare_view_get_items_read (view),
                  (double) (g_get_monotonic_time () - cancelled_at) / G_USEC_PER_SEC);
  g_assert_cmpint (g_get_monotonic_time () - cancelled_at, <, 5 * G_USEC_PER_SEC);
  g_assert_null (dy_compare_view_get_counts (view));
  g_assert_null (dy_compare_view_get_error (view));
  g_assert_cmpuint (dy_compare_view_get_items_read (view), <, 2 * BIG_ITEMS);
  gui_screenshot ("compare-cancelled.png");

  /* against an empty table: every item a difference, listed, and the last one shown */
  call (connection, "CreateTable",
        "{\"TableName\": \"Empty\", \"BillingMode\": \"PAY_PER_REQUEST\","
        " \"AttributeDefinitions\": [{\"AttributeName\": \"pk\", \"AttributeType\": \"S\"},"
        " {\"AttributeName\": \"sk\", \"AttributeType\": \"N\"}],"
        " \"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"},"
        " {\"AttributeName\": \"sk\", \"KeyType\": \"RANGE\"}]}");
  dy_connection_refresh_tables (connection);
  gui_wait_for (two_tables, connection, "the new table listed");
  dy_compare_view_set_other (view, connection, "Empty");
  g_assert_cmpstr (dy_compare_view_get_other_name (view), ==, "Empty");
  dy_compare_view_set_base (view, DY_COMPARE_BASE_NONE, NULL);
  {
    gint64 started = g_get_monotonic_time ();
    GListModel *rows;
    g_autofree char *detail = NULL;
    g_autoptr (DyCompareRow) last = NULL;

    run_and_wait (view);
    g_test_message ("%u differences compared and listed in %.1f s", BIG_ITEMS,
                    (double) (g_get_monotonic_time () - started) / G_USEC_PER_SEC);
    g_assert_cmpuint (dy_compare_view_get_counts (view)->only_here, ==, BIG_ITEMS);
    rows = dy_compare_view_get_rows (view);
    g_assert_cmpuint (g_list_model_get_n_items (rows), ==, BIG_ITEMS);
    last = g_list_model_get_item (rows, BIG_ITEMS - 1);
    started = g_get_monotonic_time ();
    g_assert_true (gtk_selection_model_select_item (dy_compare_view_get_selection (view),
                                                    BIG_ITEMS - 1, TRUE));
    gui_wait_for (detail_ready, view, "the last difference's values");
    g_test_message ("the last difference read again in %.1f s",
                    (double) (g_get_monotonic_time () - started) / G_USEC_PER_SEC);
    detail = dy_compare_view_dup_detail_text (view);
    assert_contains (detail, dy_compare_row_get_title (last));
    assert_contains (detail, "Only here: a push creates it there");
    gui_screenshot ("compare-big.png");
  }
  g_object_add_weak_pointer (G_OBJECT (view), (gpointer *) &view);
  gtk_window_destroy (GTK_WINDOW (view));
  while (view != NULL)
    gui_settle ();
}

int
main (int argc, char **argv)
{
  gui_init (&argc, &argv);
  g_test_add_func ("/compare-gui/three-way-and-push", test_compare);
  g_test_add_func ("/compare-gui/cancel", test_cancel);
  return gui_run_tests ();
}
