/* test-bulk-gui.c: many rows at once, in the real window: selecting with Ctrl+A (the grid's
 * own select-all, the action GTK binds to Ctrl+A), every item of the query, a collection's
 * items; Copy As DynamoDB JSON / JSON / CSV read back item by item; Export; Stage Delete with
 * each item as read; Stage Items from File, refused lines named and nothing staged; and, when
 * DYNOSCOPE_TEST_ENDPOINT names a DynamoDB Local (test-bulk-ddblocal.py starts one and checks
 * the tables with boto3 afterwards), the acceptance: 1,000 rows selected by Ctrl+A,
 * staged for delete and committed; a selection copied to a database file through the Copy To
 * dialog, with the key renamed, and onto existing items without overwrite (conflicts, left
 * staged). */
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "app/browser/dy-group.h"
#include "app/browser/dy-table-view.h"
#include "app/bulk/dy-copy-dialog.h"
#include "app/common/dy-format.h"
#include "app/staging/dy-staging-panel.h"
#include "app/staging/dy-staging.h"
#include "core/ddbjson.h"
#include "engine/snapshot.h"
#include "gui-util.h"

static char *work_dir;

/* ---- Helpers ---- */

static GtkWidget *
grid_list (DyTableView *view)
{
  GtkWidget *column_view = gui_child (view, "column_view");

  for (GtkWidget *child = gtk_widget_get_first_child (column_view); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  g_error ("the grid has no list view");
  return NULL;
}

/* The action a shortcut controller of WIDGET runs on KEYVAL with MODIFIERS, or NULL. */
static const char *
shortcut_action (GtkWidget *widget, guint keyval, GdkModifierType modifiers)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (controller)); k++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), k);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger)
              && gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval
              && gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == modifiers
              && GTK_IS_NAMED_ACTION (action))
            return gtk_named_action_get_action_name (GTK_NAMED_ACTION (action));
        }
    }
  return NULL;
}

/* What Ctrl+A does in the grid: GtkListBase binds it to list.select-all. The binding is
 * checked, then the action it names is activated. */
static void
press_ctrl_a (DyTableView *view)
{
  GtkWidget *list = grid_list (view);

  g_assert_cmpstr (shortcut_action (list, GDK_KEY_a, GDK_CONTROL_MASK), ==, "list.select-all");
  gtk_widget_grab_focus (list);
  g_assert_true (gtk_widget_activate_action (list, "list.select-all", NULL));
}

static guint
n_selected (DyTableView *view)
{
  g_autoptr (GtkBitset) set = gtk_selection_model_get_selection (dy_table_view_get_rows (view));

  return (guint) gtk_bitset_get_size (set);
}

static gboolean
bar_shown (gpointer data)
{
  GtkRevealer *revealer = GTK_REVEALER (gui_child (data, "selection_revealer"));

  return gtk_revealer_get_child_revealed (revealer);
}

static gboolean
bulk_idle (gpointer data)
{
  return gtk_widget_get_visible (gui_child (data, "selection_cancel")) == FALSE
         && !gtk_spinner_get_spinning (GTK_SPINNER (gui_child (data, "selection_spinner")));
}

typedef struct {
  DyConnection *connection;
  const char *table;
  guint n;
  DdbChangeKind kind;
} Staged;

static guint
count_staged (DyConnection *connection, const char *table, DdbChangeKind kind)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) changes = dy_staging_list (dy_staging_get_default (), connection, table, &error);
  guint n = 0;

  if (changes == NULL)
    return 0;
  for (guint i = 0; i < changes->len; i++)
    n += ((DdbChange *) changes->pdata[i])->kind == kind;
  return n;
}

static gboolean
staged_enough (gpointer data)
{
  Staged *s = data;

  return count_staged (s->connection, s->table, s->kind) >= s->n;
}

/* Every item the view has loaded, as DdbValue copies, in the grid's order. */
static GPtrArray *
loaded_items (DyTableView *view)
{
  GListModel *items = dy_table_view_get_items (view);
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);

  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    {
      g_autoptr (DyItem) item = g_list_model_get_item (items, i);

      g_ptr_array_add (out, ddb_value_copy (dy_item_get_value (item)));
    }
  return out;
}

/* The items of a file read as an import reads it. */
static GPtrArray *
read_file_items (const char *path, const char *key)
{
  DdbImportOptions options = { .table_name = "Read", .key = key };
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbSnapshotReader) reader = ddb_snapshot_reader_open (path, &options, &error);
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  DdbValue *item;

  g_assert_no_error (error);
  while ((item = ddb_snapshot_reader_next (reader, &error)) != NULL)
    g_ptr_array_add (out, item);
  g_assert_no_error (error);
  return out;
}

/* Every item of WANT is in GOT, exactly, and they are as many. */
static void
assert_same_items (GPtrArray *want, GPtrArray *got)
{
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint i = 0; i < want->len; i++)
    {
      gboolean found = FALSE;

      for (guint k = 0; k < got->len && !found; k++)
        found = ddb_value_equal (want->pdata[i], got->pdata[k]);
      if (!found)
        {
          g_autofree char *text = ddb_json_format_item (want->pdata[i]);

          g_error ("item missing or changed: %s", text);
        }
    }
}

static gboolean
clipboard_filled (gpointer data)
{
  g_autofree char *text = gui_clipboard_text (data);

  return text[0] != '\0';
}

static void
clear_clipboard (DyTableView *view)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (view)), "");
}

static DyTableView *
open_demo_table (const char *table)
{
  gui_wait_for (gui_demo_tables_listed, NULL, "the demo tables");
  return gui_open_table (table);
}

static DyTableView *
scan_table (const char *table)
{
  DyTableView *view = open_demo_table (table);

  gui_run (view, "win.run");
  if (dy_table_view_get_can_load_more (view))
    gui_run (view, "win.load-all");
  return view;
}

static gboolean
feed_done (gpointer data)
{
  DyTableView *view = data;

  return !dy_table_view_get_running (view) && !dy_table_view_get_arranging (view)
         && g_list_model_get_n_items (G_LIST_MODEL (dy_table_view_get_rows (view)))
                == g_list_model_get_n_items (dy_table_view_get_items (view));
}

static gboolean
grouped_shown (gpointer data)
{
  DyTableView *view = data;
  GListModel *rows = G_LIST_MODEL (dy_table_view_get_rows (view));
  g_autoptr (GObject) first = NULL;

  if (dy_table_view_get_arranging (view) || g_list_model_get_n_items (rows) == 0)
    return FALSE;
  first = gui_grid_row (rows, 0);
  return GTK_IS_TREE_LIST_ROW (first);
}

/* ---- With the demo database ---- */

/* One row selected: the inspector shows its item, the selection bar is hidden. */
static gboolean
one_row_inspected (gpointer data)
{
  DyTableView *view = data;

  return dy_inspector_get_item (dy_table_view_get_inspector (view)) != NULL
         && !gtk_revealer_get_reveal_child (GTK_REVEALER (gui_child (view, "selection_revealer")));
}

/* Ctrl+A selects every row: the bar says so, the inspector lets go of its item; one row
 * selected again goes back to the inspector. */
static void
test_select_all (void)
{
  DyTableView *view = scan_table ("Blog");
  g_autofree char *all = NULL;
  guint n;

  gui_wait_for (feed_done, view, "every row in the grid");
  n = g_list_model_get_n_items (dy_table_view_get_items (view));
  gtk_selection_model_select_item (dy_table_view_get_rows (view), 0, TRUE);
  gui_wait_for (one_row_inspected, view, "the first row in the inspector");
  press_ctrl_a (view);
  gui_wait_for (bar_shown, view, "the selection bar");
  g_assert_cmpuint (n_selected (view), ==, n);
  all = g_strdup_printf ("All %u items of the query are selected", n);
  g_assert_cmpstr (gui_label_text (view, "selection_label"), ==, all);
  g_assert_null (dy_inspector_get_item (dy_table_view_get_inspector (view)));
  g_assert_false (gtk_widget_get_visible (gui_child (view, "select_query_button")));
  gui_screenshot ("22-bulk-selected.png");
  gtk_selection_model_select_item (dy_table_view_get_rows (view), 1, TRUE);
  gui_wait_for (one_row_inspected, view, "the second row in the inspector");
}

/* Delete and Ctrl+C act on the selection while the grid has the focus. */
static void
test_grid_keys (void)
{
  DyTableView *view = open_demo_table ("Blog");
  GtkWidget *grid = gui_child (view, "column_view");

  g_assert_cmpstr (shortcut_action (grid, GDK_KEY_Delete, 0), ==, "view.delete-selected");
  g_assert_cmpstr (shortcut_action (grid, GDK_KEY_c, GDK_CONTROL_MASK), ==, "view.copy-selected");
  /* the view itself binds neither: an entry's Delete and Ctrl+C are its own */
  g_assert_null (shortcut_action (GTK_WIDGET (view), GDK_KEY_Delete, 0));
  g_assert_null (shortcut_action (GTK_WIDGET (view), GDK_KEY_c, GDK_CONTROL_MASK));
}

static gboolean
all_of_query_selected (gpointer data)
{
  DyTableView *view = data;

  return !dy_table_view_get_running (view) && !dy_table_view_get_can_load_more (view)
         && feed_done (view) && n_selected (view) == g_list_model_get_n_items (dy_table_view_get_items (view));
}

/* "Select All Items of the Query" loads the pages not read yet, then selects every item. */
static void
test_select_query (void)
{
  DyTableView *view = open_demo_table ("Blog");
  GtkSpinButton *limit = GTK_SPIN_BUTTON (gui_child (view, "limit_spin"));

  gtk_spin_button_set_value (limit, 4);
  gui_run (view, "win.run");
  g_assert_true (dy_table_view_get_can_load_more (view));
  gui_wait_for (feed_done, view, "the first page");
  gtk_selection_model_select_range (dy_table_view_get_rows (view), 0, 2, TRUE);
  gui_wait_for (bar_shown, view, "the selection bar");
  g_assert_true (gtk_widget_get_visible (gui_child (view, "select_query_button")));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.select-query", NULL));
  gui_wait_for (all_of_query_selected, view, "every item of the query selected");
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 15);
  g_assert_cmpstr (gui_label_text (view, "selection_label"), ==,
                   "All 15 items of the query are selected");
  g_assert_false (gtk_widget_get_visible (gui_child (view, "select_query_button")));
  gtk_spin_button_set_value (limit, 0);
}

/* Copy As, in each format, gives back exactly the selected items; a selected collection stands
 * for its items. */
static void
test_copy_as (void)
{
  DyTableView *view = scan_table ("Blog");
  g_autoptr (GPtrArray) want = loaded_items (view);
  static const char *const formats[] = { "jsonl", "json", "csv" };

  gui_wait_for (feed_done, view, "every row in the grid");
  press_ctrl_a (view);
  gui_wait_for (bar_shown, view, "the selection bar");
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autofree char *text = NULL;
      g_autofree char *path = g_build_filename (work_dir, formats[f], NULL);
      g_autofree char *file = g_strdup_printf ("%s.%s", path, formats[f]);
      g_autoptr (GPtrArray) got = NULL;
      g_autoptr (GError) error = NULL;

      clear_clipboard (view);
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.copy-selected", "s",
                                                 formats[f]));
      gui_wait_for (clipboard_filled, view, "the copied items");
      text = gui_clipboard_text (GTK_WIDGET (view));
      g_assert_true (g_file_set_contents (file, text, -1, &error));
      got = read_file_items (file, "PK:S,SK:S");
      assert_same_items (want, got);
    }

  /* grouped: one collection's row selected gives all its items */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.group", NULL));
  gui_wait_for (grouped_shown, view, "the collections");
  {
    GListModel *rows = G_LIST_MODEL (dy_table_view_get_rows (view));
    g_autoptr (GtkTreeListRow) first = gui_grid_row (rows, 0);
    g_autoptr (GObject) group = gtk_tree_list_row_get_item (first);
    g_autofree char *text = NULL;
    g_auto (GStrv) lines = NULL;
    guint n_lines = 0;

    g_assert_true (DY_IS_GROUP (group));
    gtk_selection_model_select_item (dy_table_view_get_rows (view), 0, TRUE);
    /* and one of its own rows too: taken once */
    gtk_selection_model_select_item (dy_table_view_get_rows (view), 1, FALSE);
    clear_clipboard (view);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.copy-selected", "s",
                                               "jsonl"));
    gui_wait_for (clipboard_filled, view, "the collection's items");
    text = gui_clipboard_text (GTK_WIDGET (view));
    lines = g_strsplit (text, "\n", -1);
    for (guint i = 0; lines[i] != NULL; i++)
      n_lines += lines[i][0] != '\0';
    g_assert_cmpuint (n_lines, ==, dy_group_get_n_items (DY_GROUP (group)));
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.group", NULL));
  gui_wait_for (feed_done, view, "the flat grid");
}

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

/* Export writes the selected rows (a range) to a file, nothing else. */
static void
test_export (void)
{
  DyTableView *view = scan_table ("Blog");
  g_autofree char *path = g_build_filename (work_dir, "export.csv", NULL);
  g_autoptr (GPtrArray) want = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  g_autoptr (GPtrArray) got = NULL;
  GListModel *rows = G_LIST_MODEL (dy_table_view_get_rows (view));

  gui_wait_for (feed_done, view, "every row in the grid");
  g_assert_cmpuint (g_list_model_get_n_items (rows), >=, 5);
  gtk_selection_model_select_range (dy_table_view_get_rows (view), 1, 4, TRUE);
  for (guint i = 1; i < 5; i++)
    {
      g_autoptr (DyItem) item = gui_grid_row (rows, i);

      g_ptr_array_add (want, ddb_value_copy (dy_item_get_value (item)));
    }
  dy_table_view_export_selected (view, path, DDB_SNAPSHOT_CSV);
  gui_wait_for (file_exists, path, "the export");
  gui_wait_for (bulk_idle, view, "the export to finish");
  got = read_file_items (path, "PK:S,SK:S");
  assert_same_items (want, got);
}

/* Stage Delete: one delete per selected item, each holding the item as read. */
static void
test_stage_delete (void)
{
  DyTableView *view = scan_table ("Blog");
  GListModel *rows = G_LIST_MODEL (dy_table_view_get_rows (view));
  DyConnection *connection = dy_table_view_get_connection (view);
  Staged staged = { connection, "Blog", 3, DDB_CHANGE_DELETE };
  g_autoptr (GPtrArray) changes = NULL;
  g_autoptr (GError) error = NULL;

  gui_wait_for (feed_done, view, "every row in the grid");
  dy_staging_prepare (dy_staging_get_default (), connection);
  gtk_selection_model_select_range (dy_table_view_get_rows (view), 0, 3, TRUE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.delete-selected", NULL));
  gui_wait_for (staged_enough, &staged, "three staged deletes");
  changes = dy_staging_list (dy_staging_get_default (), connection, "Blog", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (changes->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (DyItem) item = gui_grid_row (rows, i);
      gboolean found = FALSE;

      for (guint k = 0; k < changes->len && !found; k++)
        found = ddb_value_equal (((DdbChange *) changes->pdata[k])->original,
                                 dy_item_get_value (item));
      g_assert_true (found);
    }
  gui_wait_for (bulk_idle, view, "the bar to settle");
  g_assert_true (dy_staging_discard_all (dy_staging_get_default (), connection, NULL, &error));
  g_assert_no_error (error);
}

static GtkWindow *
report_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWidget) w = g_list_model_get_item (toplevels, i);

      if (gtk_widget_has_css_class (w, "bulk-report") && gtk_widget_get_visible (w))
        return GTK_WINDOW (w);
    }
  return NULL;
}

static gboolean
report_shown (gpointer data)
{
  return report_dialog () != NULL;
}

static char *
report_text (GtkWindow *dialog)
{
  GtkWidget *extra = adw_message_dialog_get_extra_child (ADW_MESSAGE_DIALOG (dialog));
  GtkWidget *view = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (extra));
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  if (GTK_IS_VIEWPORT (view))
    view = gtk_viewport_get_child (GTK_VIEWPORT (view));
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* Stage Items from File: a file with bad lines stages nothing and names each bad line; a good
 * one stages a create per item. */
static void
test_stage_file (void)
{
  DyTableView *view = open_demo_table ("Blog");
  DyConnection *connection = dy_table_view_get_connection (view);
  g_autofree char *bad = g_build_filename (work_dir, "bad.jsonl", NULL);
  g_autofree char *good = g_build_filename (work_dir, "good.jsonl", NULL);
  const char *bad_text = "{\"PK\":{\"S\":\"NEW#1\"},\"SK\":{\"S\":\"A\"}}\n"
                         "{\"PK\":{\"N\":\"5\"},\"SK\":{\"S\":\"A\"}}\n"
                         "{\"PK\":{\"S\":\"NEW#2\"},\"SK\":{\"S\":\"A\"}}\n"
                         "{\"PK\":{\"S\":\"NEW#3\"}}\n";
  const char *good_text = "{\"PK\":{\"S\":\"NEW#1\"},\"SK\":{\"S\":\"A\"},\"n\":{\"N\":"
                          "\"12345678901234567890123456789012345678\"}}\n"
                          "{\"PK\":{\"S\":\"NEW#2\"},\"SK\":{\"S\":\"A\"},\"b\":{\"B\":\"AP8=\"}}\n";
  Staged staged = { connection, "Blog", 2, DDB_CHANGE_CREATE };
  g_autofree char *text = NULL;
  g_autofree char *line2 = g_strdup_printf ("bad.jsonl:2:");
  g_autofree char *line4 = g_strdup_printf ("bad.jsonl:4:");
  GtkWindow *dialog;
  g_autoptr (GError) error = NULL;

  dy_staging_prepare (dy_staging_get_default (), connection);
  g_assert_true (g_file_set_contents (bad, bad_text, -1, NULL));
  g_assert_true (g_file_set_contents (good, good_text, -1, NULL));
  dy_table_view_stage_file (view, bad, FALSE);
  gui_wait_for (report_shown, NULL, "the refusals");
  dialog = report_dialog ();
  text = report_text (dialog);
  g_assert_nonnull (strstr (text, line2));
  g_assert_nonnull (strstr (text, line4));
  g_assert_null (strstr (text, "bad.jsonl:1:"));
  g_assert_null (strstr (text, "bad.jsonl:3:"));
  gui_screenshot ("23-bulk-file-refused.png");
  gtk_window_destroy (dialog);
  g_assert_cmpuint (count_staged (connection, "Blog", DDB_CHANGE_CREATE), ==, 0);

  dy_table_view_stage_file (view, good, FALSE);
  gui_wait_for (staged_enough, &staged, "two staged creates");
  gui_wait_for (bulk_idle, view, "the bar to settle");
  g_assert_true (dy_staging_discard_all (dy_staging_get_default (), connection, NULL, &error));
  g_assert_no_error (error);
}

/* ---- Against DynamoDB Local ---- */

static DyConnection *local;
static DyConnection *copy_db;

static gboolean
connection_listed (gpointer data)
{
  return g_list_model_get_n_items (dy_connection_get_tables (data)) > 0
         && !dy_connection_get_loading (data);
}

static gboolean
database_open (gpointer data)
{
  copy_db = dy_window_find_connection (gui_window, DY_CONNECTION_DATABASE, data);
  return copy_db != NULL;
}

static void
open_connections (void)
{
  g_autoptr (GError) error = NULL;
  const char *db = g_getenv ("DYNOSCOPE_TEST_DB");

  if (local != NULL)
    return;
  local = dy_window_add_endpoint (gui_window, g_getenv ("DYNOSCOPE_TEST_ENDPOINT"), "us-east-1",
                                  FALSE, &error);
  g_assert_no_error (error);
  dy_connection_ensure_tables (local);
  gui_wait_for (connection_listed, local, "DynamoDB Local's tables");
  dy_window_open_database (gui_window, db, FALSE);
  gui_wait_for (database_open, (gpointer) db, "the database to open");
  dy_connection_ensure_tables (copy_db);
  gui_wait_for (connection_listed, copy_db, "the database's tables");
  dy_staging_prepare (dy_staging_get_default (), local);
  dy_staging_prepare (dy_staging_get_default (), copy_db);
}

typedef struct {
  gboolean done;
  DdbCommitReport report;
  gboolean ok;
} Commit;

static void
commit_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Commit *c = user_data;
  g_autoptr (GError) error = NULL;

  c->ok = dy_staging_commit_finish (DY_STAGING (source), result, &c->report, &error);
  g_assert_no_error (error);
  c->done = TRUE;
}

static gboolean
commit_finished (gpointer data)
{
  return ((Commit *) data)->done;
}

static void
commit (DyConnection *connection, const char *table, Commit *c)
{
  dy_staging_commit_async (dy_staging_get_default (), connection, table, 0,
                           DDB_COMMIT_TRANSACTIONS, NULL, NULL, NULL, commit_done, c);
  gui_wait_long (commit_finished, c, "the commit", 600);
  g_assert_true (c->ok);
}

static DyTableView *
query_local (const char *pk)
{
  DyTableView *view = dy_window_open_table (gui_window, local, "Events");

  gui_wait_for (gui_view_ready, view, "DescribeTable");
  gui_set_text (view, "pk_entry", pk);
  gui_run (view, "win.run");
  if (dy_table_view_get_can_load_more (view))
    {
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.load-all", NULL));
      gui_wait_long (gui_view_idle, view, "Load All", 300);
    }
  gui_wait_long (feed_done, view, "every row in the grid", 120);
  return view;
}

static gboolean
summary_starts (gpointer data)
{
  GtkWidget *panel = GTK_WIDGET (dy_window_get_staging_panel (gui_window));
  GObject *label = gtk_widget_get_template_child (panel, DY_TYPE_STAGING_PANEL, "summary_label");

  return g_str_has_prefix (gtk_label_get_text (GTK_LABEL (label)), data);
}

/* Select All Items of the Query on 1,000 items read 100 at a time: the pages not read yet are
 * loaded, the feed hands the rows over in steps, then every row is selected. */
static void
test_local_select_query (void)
{
  DyTableView *view;
  GtkSpinButton *limit;

  open_connections ();
  view = dy_window_open_table (gui_window, local, "Events");
  gui_wait_for (gui_view_ready, view, "DescribeTable");
  limit = GTK_SPIN_BUTTON (gui_child (view, "limit_spin"));
  gtk_spin_button_set_value (limit, 100);
  gui_set_text (view, "pk_entry", "doomed");
  gui_run (view, "win.run");
  g_assert_true (dy_table_view_get_can_load_more (view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.select-query", NULL));
  gui_wait_long (all_of_query_selected, view, "every item of the query selected", 300);
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 1000);
  g_assert_cmpuint (n_selected (view), ==, 1000);
  gtk_spin_button_set_value (limit, 0);
  gtk_selection_model_unselect_all (dy_table_view_get_rows (view));
}

/* 1,000 rows selected by Ctrl+A, staged for delete and committed: the other rows stay (the
 * driver checks the table with boto3). */
static void
test_local_delete_thousand (void)
{
  DyTableView *view;
  Staged staged = { NULL, "Events", 1000, DDB_CHANGE_DELETE };
  Commit c = { 0 };

  open_connections ();
  view = query_local ("doomed");
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 1000);
  press_ctrl_a (view);
  gui_wait_for (bar_shown, view, "the selection bar");
  g_assert_cmpuint (n_selected (view), ==, 1000);
  gui_screenshot ("24-bulk-thousand.png");
  staged.connection = local;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.delete-selected", NULL));
  gui_wait_long (staged_enough, &staged, "1,000 staged deletes", 120);
  g_assert_cmpuint (count_staged (local, "Events", DDB_CHANGE_DELETE), ==, 1000);
  /* the staging panel counts them, and what their commit costs: each item is under 1 KB */
  {
    g_autofree char *count = dy_format_count (1000);
    g_autofree char *want = g_strdup_printf ("%s changes in 1 table · %s WCU · ", count, count);

    dy_window_show_staging (gui_window, local, "Events");
    gui_wait_for (summary_starts, (gpointer) want, "the staging panel's summary");
  }
  commit (local, "Events", &c);
  g_assert_cmpuint (c.report.committed, ==, 1000);
  g_assert_cmpuint (c.report.conflicts, ==, 0);
  g_assert_cmpuint (c.report.failed, ==, 0);
  ddb_commit_report_clear (&c.report);
}

static DyCopyDialog *
copy_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWidget) w = g_list_model_get_item (toplevels, i);

      if (DY_IS_COPY_DIALOG (w))
        return DY_COPY_DIALOG (w);
    }
  return NULL;
}

typedef struct {
  DyCopyDialog *dialog;
  DyConnection *target;
  const char *table;
} Pick;

static gboolean
dialog_picks (gpointer data)
{
  Pick *p = data;

  return dy_copy_dialog_select (p->dialog, p->target, p->table)
         && dy_copy_dialog_get_mapping (p->dialog) != NULL;
}

/* Copies the rows of the "kept" collections through the Copy To dialog into TABLE of the
 * database; MAPPING is the key line the dialog must show. */
static void
copy_through_dialog (DyTableView *view, const char *table, const char *mapping, guint n_staged)
{
  Pick pick = { NULL, copy_db, table };
  Staged staged = { copy_db, table, n_staged, DDB_CHANGE_CREATE };

  press_ctrl_a (view);
  gui_wait_for (bar_shown, view, "the selection bar");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.copy-selected-to", NULL));
  pick.dialog = copy_dialog ();
  g_assert_nonnull (pick.dialog);
  gui_wait_for (dialog_picks, &pick, "the dialog to list the database's table");
  g_assert_cmpstr (dy_copy_dialog_get_mapping (pick.dialog), ==, mapping);
  gui_screenshot ("25-bulk-copy-dialog.png");
  g_signal_emit_by_name (gui_find_button (GTK_WIDGET (pick.dialog), "_Stage"), "clicked");
  gui_wait_long (staged_enough, &staged, "the staged copies", 120);
  gui_wait_long (bulk_idle, view, "the copy to finish", 120);
  g_assert_cmpuint (count_staged (copy_db, table, DDB_CHANGE_CREATE), ==, n_staged);
}

/* The kept rows copied to a database file: into a table keyed as the source (three of them
 * there already: conflicts, left staged) and into one keyed "pk"/"sk" (renamed). */
static void
test_local_copy (void)
{
  DyTableView *view;
  Commit c = { 0 };
  Commit c2 = { 0 };
  guint n;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) open = NULL;

  open_connections ();
  view = query_local ("kept");
  n = g_list_model_get_n_items (dy_table_view_get_items (view));
  g_assert_cmpuint (n, ==, 300);
  copy_through_dialog (view, "Events", "PK, SK", n);
  commit (copy_db, "Events", &c);
  /* the driver put three of them there before, with other values */
  g_assert_cmpuint (c.report.committed, ==, n - 3);
  g_assert_cmpuint (c.report.conflicts, ==, 3);
  open = dy_staging_list (dy_staging_get_default (), copy_db, "Events", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (open->len, ==, 3);
  for (guint i = 0; i < open->len; i++)
    g_assert_cmpint (((DdbChange *) open->pdata[i])->state, ==, DDB_CHANGE_CONFLICT);
  ddb_commit_report_clear (&c.report);

  copy_through_dialog (view, "Renamed", "PK → pk, SK → sk", n);
  commit (copy_db, "Renamed", &c2);
  g_assert_cmpuint (c2.report.committed, ==, n);
  ddb_commit_report_clear (&c2.report);
}

/* An index that projects only keys: the selected rows are read whole from the table before
 * they are copied (or deleted), so that the copy carries every attribute. */
static void
test_local_index_projection (void)
{
  DyTableView *view;
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  guint n = 0;

  open_connections ();
  view = dy_window_open_table (gui_window, local, "Events");
  gui_wait_for (gui_view_ready, view, "DescribeTable");
  gui_select_choice (view, "index_dropdown", "GSI ByGroup (grp, SK)");
  gui_set_text (view, "pk_entry", "g");
  gui_run (view, "win.run");
  gui_wait_long (feed_done, view, "every row in the grid", 120);
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 50);
  press_ctrl_a (view);
  gui_wait_for (bar_shown, view, "the selection bar");
  clear_clipboard (view);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.copy-selected", "s", "jsonl"));
  gui_wait_long (clipboard_filled, view, "the copied items", 120);
  text = gui_clipboard_text (GTK_WIDGET (view));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (DdbValue) item = NULL;

      if (lines[i][0] == '\0')
        continue;
      item = ddb_json_parse_item (lines[i], -1, &error);
      g_assert_no_error (error);
      /* the index holds PK, SK and grp; the table's item has all of them */
      g_assert_nonnull (ddb_value_map_get (item, "big"));
      g_assert_nonnull (ddb_value_map_get (item, "doc"));
      g_assert_nonnull (ddb_value_map_get (item, "blobs"));
      n++;
    }
  g_assert_cmpuint (n, ==, 50);
}

int
main (int argc, char **argv)
{
  const char *cache = gui_init (&argc, &argv);

  work_dir = g_build_filename (cache, "bulk", NULL);
  g_mkdir_with_parents (work_dir, 0700);
  if (g_getenv ("DYNOSCOPE_TEST_ENDPOINT") != NULL)
    {
      g_test_add_func ("/bulk/local/select-query", test_local_select_query);
      g_test_add_func ("/bulk/local/delete-thousand", test_local_delete_thousand);
      g_test_add_func ("/bulk/local/copy", test_local_copy);
      g_test_add_func ("/bulk/local/index-projection", test_local_index_projection);
    }
  else
    {
      g_test_add_func ("/bulk/select-all", test_select_all);
      g_test_add_func ("/bulk/grid-keys", test_grid_keys);
      g_test_add_func ("/bulk/select-query", test_select_query);
      g_test_add_func ("/bulk/copy-as", test_copy_as);
      g_test_add_func ("/bulk/export", test_export);
      g_test_add_func ("/bulk/stage-delete", test_stage_delete);
      g_test_add_func ("/bulk/stage-file", test_stage_file);
    }
  return gui_run_tests ();
}
