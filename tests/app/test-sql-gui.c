/* test-sql-gui.c: the SQL tab in the real app on the demo database: a statement run with its
 * plan, its rows in the grid and its reads; completion's names; history; Find drift on the
 * demo blog (with a copy drifted through the backend first) and Stage update from its result
 * into the staging area; Cancel of a running statement; export; and the confirmation before a
 * Scan of a live table (a local endpoint served by dynoscope-cli); the PartiQL mode: a Query by
 * key with exact values, an error in place, parameters, pages followed with Load more, the
 * history's mode, Copy as, and a write to a live endpoint asked first. */
#define G_LOG_DOMAIN "test-sql-gui"

#include <glib/gstdio.h>
#include <string.h>
#include <signal.h>

#include "app/common/dy-copy-as.h"
#include "app/window/dy-demo.h"
#include "app/sql/dy-sql-drift.h"
#include "app/sql/dy-sql-history.h"
#include "app/sql/dy-sql-stage.h"
#include "app/sql/dy-sql-view-private.h"
#include "app/staging/dy-staging.h"
#include "core/ddbjson.h"
#include "gui-util.h"

static GSubprocess *server;

static gboolean
view_idle (gpointer data)
{
  return !dy_sql_view_get_running (data);
}

static gboolean
staging_read (gpointer data)
{
  return !dy_staging_get_loading (dy_staging_get_default (), gui_demo_connection ());
}

/* The SQL tab of the demo database, opened as Ctrl+Shift+L does from a table's tab. */
static DySqlView *
open_sql (void)
{
  AdwTabView *tabs = dy_window_get_tab_view (gui_window);
  GtkWidget *child;

  gui_wait_for (gui_demo_tables_listed, NULL, "the demo tables");
  gui_open_table ("Blog");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.sql", NULL));
  child = adw_tab_page_get_child (adw_tab_view_get_selected_page (tabs));
  g_assert_true (DY_IS_SQL_VIEW (child));
  g_assert_true (dy_sql_view_get_connection (DY_SQL_VIEW (child)) == gui_demo_connection ());
  /* the table view's getter does not take a SQL tab for a table view */
  g_assert_null (dy_window_get_current_view (gui_window));
  return DY_SQL_VIEW (child);
}

/* Runs TEXT as Ctrl+Return does and waits for the last row. */
static void
run_sql (DySqlView *view, const char *text)
{
  dy_sql_view_set_text (view, text);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.run", NULL));
  g_assert_true (dy_sql_view_get_running (view));
  gui_wait_for (view_idle, view, "the statement");
  gui_settle ();
}

/* ACCEL as the tab catches it before the editor (Ctrl+Return would insert a new line there). */
static void
press_shortcut (DySqlView *view, const char *accel)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (view));
  g_autoptr (GtkShortcutTrigger) wanted = gtk_shortcut_trigger_parse_string (accel);
  gboolean pressed = FALSE;

  g_assert_nonnull (wanted);
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && !pressed; i++)
    {
      g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (c)
          || gtk_event_controller_get_propagation_phase (c) != GTK_PHASE_CAPTURE)
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (c)) && !pressed; j++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (c), j);

          if (gtk_shortcut_trigger_equal (gtk_shortcut_get_trigger (shortcut), wanted))
            pressed = gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut),
                                                    GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                                    GTK_WIDGET (view), NULL);
        }
    }
  g_assert_true (pressed);
}

static DyItem *
row (DySqlView *view, guint i)
{
  DyItem *item = g_list_model_get_item (dy_sql_view_get_rows (view), i);

  g_assert_nonnull (item);
  return item;
}

/* The row whose column NAME is the string VALUE, or NULL. */
static DyItem *
find_row (DySqlView *view, const char *name, const char *value)
{
  GListModel *rows = dy_sql_view_get_rows (view);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (DyItem) item = g_list_model_get_item (rows, i);
      const DdbValue *v = dy_item_get_attribute (item, name);

      if (v != NULL && v->type == DDB_TYPE_S && g_str_equal (v->bytes.data, value))
        return g_steal_pointer (&item);
    }
  return NULL;
}

static void
assert_columns (DySqlView *view, const char *const *expected)
{
  const char *const *columns = dy_sql_view_get_columns (view);
  GObject *grid
      = gtk_widget_get_template_child (GTK_WIDGET (view), DY_TYPE_SQL_VIEW, "column_view");

  g_assert_cmpuint (g_strv_length ((char **) columns), ==, g_strv_length ((char **) expected));
  for (guint i = 0; expected[i] != NULL; i++)
    g_assert_cmpstr (columns[i], ==, expected[i]);
  g_assert_true (GTK_IS_COLUMN_VIEW (grid));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_column_view_get_columns (GTK_COLUMN_VIEW (grid))),
                    ==, g_strv_length ((char **) expected));
}

static gboolean
tables_listed (gpointer data)
{
  return dy_sql_view_get_completion_tables (data) != NULL;
}

static gboolean
blog_columns_fetched (gpointer data)
{
  return dy_sql_view_get_completion_columns (data, "Blog") != NULL;
}

static gboolean
history_saved (gpointer data)
{
  return !dy_sql_history_get_saving (dy_sql_history_get_default ());
}

static gboolean
strv_has (GPtrArray *names, const char *name)
{
  for (guint i = 0; names != NULL && i < names->len; i++)
    if (g_str_equal (names->pdata[i], name))
      return TRUE;
  return FALSE;
}

/* A Query by partition key: one request, its plan said first; then a Scan's rows. */
static void
test_query (void)
{
  DySqlView *view = open_sql ();
  const char *const columns[] = { "PK", "SK", "name", NULL };
  g_autofree char *text = dy_sql_view_dup_text (view);
  g_autoptr (DyItem) user = NULL;
  g_autofree char *name = NULL;
  g_autofree char *contents = NULL;
  DdbSqlStats stats;

  /* it opens on something to run */
  g_assert_nonnull (strstr (text, "FROM Blog"));
  run_sql (view, "SELECT PK, SK, name FROM Blog WHERE PK = 'USER#12'");
  g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
  g_assert_nonnull (dy_sql_view_get_plan (view));
  g_assert_nonnull (strstr (dy_sql_view_get_plan (view), "Query"));
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 1);
  assert_columns (view, columns);
  user = row (view, 0);
  name = gui_string_attr (user, "name");
  g_assert_cmpstr (name, ==, "Mara Vance");
  dy_sql_view_get_stats (view, &stats);
  g_assert_cmpuint (stats.requests, ==, 1);
  g_assert_nonnull (strstr (dy_sql_view_get_status (view), "1 row"));
  gui_screenshot ("70-sql-query.png");

  /* a Scan, and a JOIN with an aggregate: numbers stay numbers */
  run_sql (view, "SELECT * FROM Orders");
  g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 67);
  g_assert_nonnull (strstr (dy_sql_view_get_plan (view), "Scan"));

  /* Ctrl+Return in the editor runs the selected statement of several */
  dy_sql_view_set_text (view, "SELECT name FROM Blog WHERE PK = 'USER#88';\nSELECT * FROM Orders;");
  {
    GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (
        gtk_widget_get_template_child (GTK_WIDGET (view), DY_TYPE_SQL_VIEW, "editor")));
    GtkTextIter start, end;

    gtk_text_buffer_get_start_iter (buffer, &start);
    gtk_text_buffer_get_iter_at_line (buffer, &end, 1);
    gtk_text_buffer_select_range (buffer, &start, &end);
  }
  press_shortcut (view, "<Control>Return");
  gui_wait_for (view_idle, view, "the selected statement");
  g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 1);
  run_sql (view, "SELECT u.name, count(*) AS posts FROM Blog u JOIN Blog p ON p.authorId = "
                 "u.userId AND p.SK = 'META' WHERE u.SK = 'META' GROUP BY u.name ORDER BY u.name");
  g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 3);
  {
    g_autoptr (DyItem) first = row (view, 0);
    const DdbValue *posts = dy_item_get_attribute (first, "posts");

    g_assert_nonnull (posts);
    g_assert_cmpint (posts->type, ==, DDB_TYPE_N);
  }

  /* SQLite's own message for a mistake; writes are refused */
  run_sql (view, "SELEKT 1");
  g_assert_nonnull (dy_sql_view_get_error (view));
  run_sql (view, "DELETE FROM Blog");
  g_assert_nonnull (dy_sql_view_get_error (view));
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 0);

  /* the statements run, newest first, kept in the data folder (never a credential) */
  g_assert_cmpstr (dy_sql_history_get_statement (dy_sql_history_get_default (), 0), ==,
                   "DELETE FROM Blog");
  g_assert_cmpstr (dy_sql_history_get_statement (dy_sql_history_get_default (), 4), ==,
                   "SELECT * FROM Orders");
  dy_sql_history_save_query (dy_sql_history_get_default (), "Mara", "SELECT 1");
  gui_wait_for (history_saved, NULL, "the history file");
  g_assert_true (g_file_get_contents (dy_sql_history_get_path (dy_sql_history_get_default ()),
                                      &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "SELECT * FROM Orders"));
  g_assert_nonnull (strstr (contents, "\"Mara\""));
  g_assert_true (g_str_has_prefix (dy_sql_history_get_path (dy_sql_history_get_default ()),
                                   g_get_user_data_dir ()));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.load-saved", "s", "Mara"));
  g_clear_pointer (&text, g_free);
  text = dy_sql_view_dup_text (view);
  g_assert_cmpstr (text, ==, "SELECT 1");
  g_assert_true (dy_sql_history_remove_query (dy_sql_history_get_default (), "Mara"));

  /* completion's names, fetched on a worker when the tab opened */
  gui_wait_for (tables_listed, view, "the table names");
  g_assert_true (strv_has (dy_sql_view_get_completion_tables (view), "Blog"));
  g_assert_true (strv_has (dy_sql_view_get_completion_tables (view), "Blog.ByAuthor"));
  /* after "b." the editor offers the columns of b's table, fetched then */
  {
    GtkSourceView *editor = GTK_SOURCE_VIEW (
        gtk_widget_get_template_child (GTK_WIDGET (view), DY_TYPE_SQL_VIEW, "editor"));
    GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor));
    GtkTextIter at;

    dy_sql_view_set_text (view, "SELECT b.a FROM Blog AS b");
    gtk_text_buffer_get_iter_at_offset (buffer, &at, 10);
    gtk_text_buffer_place_cursor (buffer, &at);
    gtk_widget_grab_focus (GTK_WIDGET (editor));
    gtk_source_completion_show (gtk_source_view_get_completion (editor));
    gui_wait_for (blog_columns_fetched, view, "Blog's columns");
    g_assert_true (strv_has (dy_sql_view_get_completion_columns (view, "Blog"), "authorName"));
    gui_screenshot ("76-sql-completion.png");
    gtk_source_completion_hide (gtk_source_view_get_completion (editor));
  }
  {
    g_autoptr (GHashTable) aliases = dy_sql_completion_scan_tables (
        "SELECT p.x FROM Blog AS p JOIN \"Blog.ByAuthor\" b ON b.PK = p.PK, Orders o WHERE");

    g_assert_cmpstr (g_hash_table_lookup (aliases, "p"), ==, "Blog");
    g_assert_cmpstr (g_hash_table_lookup (aliases, "b"), ==, "Blog.ByAuthor");
    g_assert_cmpstr (g_hash_table_lookup (aliases, "o"), ==, "Orders");
    g_assert_null (g_hash_table_lookup (aliases, "WHERE"));
  }
}

static gboolean
dialog_gone (gpointer data)
{
  return dy_sql_view_get_drift_dialog (data) == NULL;
}

static gboolean
stage_done (gpointer data)
{
  return !dy_sql_stage_dialog_get_busy (data) && dy_sql_stage_dialog_get_report (data) != NULL;
}

static void
set_author_name (const char *post, const char *name)
{
  g_autoptr (GError) error = NULL;
  json_t *request = json_pack ("{ss s{s{ss}s{ss}} ss s{s{ss}}}", "TableName", "Blog", "Key", "PK",
                               "S", post, "SK", "S", "META", "UpdateExpression",
                               "SET authorName = :n", "ExpressionAttributeValues", ":n", "S", name);
  json_t *response
      = dy_connection_call_sync (gui_demo_connection (), "UpdateItem", request, NULL, &error);

  g_assert_no_error (error);
  json_decref (request);
  json_decref (response);
}

static gboolean
panel_shows_two (gpointer data)
{
  return dy_staging_panel_get_n_changes (dy_window_get_staging_panel (gui_window)) == 2;
}

/* The drift JOIN on the demo blog finds the copies that moved away from their author's name,
 * and Stage update sets them back, guarded, into the staging area. */
static void
test_drift_and_stage (void)
{
  DySqlView *view = open_sql ();
  DySqlDriftDialog *drift;
  DySqlStageDialog *stage;
  g_autofree char *query = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) changes = NULL;
  g_autoptr (DyItem) ours = NULL;
  g_autoptr (DyItem) seed = NULL;

  g_assert_true (
      dy_staging_discard_all (dy_staging_get_default (), gui_demo_connection (), NULL, &error));
  g_assert_no_error (error);
  gui_wait_for (staging_read, NULL, "the staging area");
  /* a copy drifts: POST#9f3 no longer says what USER#12 says */
  set_author_name ("POST#9f3", "M. Vance");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.find-drift", NULL));
  drift = dy_sql_view_get_drift_dialog (view);
  g_assert_nonnull (drift);
  query = dy_sql_drift_dialog_dup_query (drift, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (query, "JOIN"));
  g_assert_nonnull (strstr (query, "authorName"));
  gui_screenshot ("71-sql-drift-dialog.png");
  /* the demo's defaults: one click */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (drift), "drift.find", NULL));
  gui_wait_for (dialog_gone, view, "the dialog to close");
  text = dy_sql_view_dup_text (view);
  g_assert_cmpstr (text, ==, query);
  gui_wait_for (view_idle, view, "the drift JOIN");
  gui_settle ();
  g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 2);
  ours = find_row (view, "PK", "POST#9f3");
  seed = find_row (view, "PK", "POST#d19");
  g_assert_nonnull (ours);
  g_assert_nonnull (seed);
  {
    g_autofree char *copy = gui_string_attr (ours, "authorName");
    g_autofree char *source = gui_string_attr (ours, "name");

    g_assert_cmpstr (copy, ==, "M. Vance");
    g_assert_cmpstr (source, ==, "Mara Vance");
  }
  gui_screenshot ("72-sql-drift.png");

  /* the result carries Blog's key (through its index): Stage update… works on it */
  g_assert_cmpstr (dy_sql_view_get_stage_table (view), ==, "Blog");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.stage-update", NULL));
  stage = dy_sql_view_get_stage_dialog (view);
  g_assert_nonnull (stage);
  g_assert_cmpstr (dy_sql_stage_dialog_get_attribute (stage), ==, "authorName");
  g_assert_cmpstr (dy_sql_stage_dialog_get_value_column (stage), ==, "name");
  g_assert_cmpstr (dy_sql_stage_dialog_get_guard_column (stage), ==, "authorName");
  gui_screenshot ("73-sql-stage.png");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (stage), "stage.stage", NULL));
  gui_wait_for (stage_done, stage, "the Stage");
  g_assert_cmpstr (dy_sql_stage_dialog_get_report (stage), ==,
                   "Staged 2 of 2 rows: 0 unchanged, 0 conflicts, 0 failed");
  gui_wait_for (staging_read, NULL, "the staging area");
  changes = dy_staging_list (dy_staging_get_default (), gui_demo_connection (), "Blog", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (changes->len, ==, 2);
  for (guint i = 0; i < changes->len; i++)
    {
      DdbChange *change = changes->pdata[i];
      const char *pk = ddb_value_map_get (change->key, "PK")->bytes.data;
      const DdbValue *name = ddb_value_map_get (change->target, "authorName");

      g_assert_cmpint (change->kind, ==, DDB_CHANGE_UPDATE);
      g_assert_nonnull (name);
      g_assert_cmpstr (name->bytes.data, ==,
                       g_str_equal (pk, "POST#9f3") ? "Mara Vance" : "Lio Tan");
      g_assert_cmpstr (ddb_value_map_get (change->original, "authorName")->bytes.data, ==,
                       g_str_equal (pk, "POST#9f3") ? "M. Vance" : "Lio T.");
    }
  /* the staging panel shows them as any other changes, beside the SQL tab */
  gui_wait_for (panel_shows_two, NULL, "the staging panel");
  gtk_window_close (GTK_WINDOW (stage));
  gui_screenshot ("74-sql-staged.png");

  g_assert_true (
      dy_staging_discard_all (dy_staging_get_default (), gui_demo_connection (), NULL, &error));
  g_assert_no_error (error);
  gui_wait_for (staging_read, NULL, "the staging area");
  set_author_name ("POST#9f3", "Mara Vance");
  if (gtk_widget_get_mapped (GTK_WIDGET (dy_window_get_staging_panel (gui_window))))
    gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.toggle-staging", NULL);
}

static gboolean
rows_streaming (gpointer data)
{
  return g_list_model_get_n_items (dy_sql_view_get_rows (data)) >= 1000;
}

/* A statement without end streams its rows while it runs, and Escape stops it. */
static void
test_cancel (void)
{
  DySqlView *view = open_sql ();
  guint n;

  dy_sql_view_set_text (view, "SELECT a.TenantShard, b.TenantShard, c.TenantShard, d.SK "
                              "FROM Orders a, Orders b, Orders c, Blog d");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.run", NULL));
  gui_wait_for (rows_streaming, view, "the first rows");
  g_assert_true (dy_sql_view_get_running (view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.cancel", NULL));
  g_assert_false (dy_sql_view_get_running (view));
  g_assert_true (dy_sql_view_get_cancelled (view));
  n = g_list_model_get_n_items (dy_sql_view_get_rows (view));
  gui_settle_for (600);
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, n);
  g_assert_true (g_str_has_prefix (dy_sql_view_get_status (view), "Cancelled after"));
  g_assert_cmpuint (n, <, 67 * 67 * 67 * 15);
  /* and runs again after */
  run_sql (view, "SELECT PK FROM Blog WHERE PK = 'USER#88'");
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 1);
}

static gboolean
export_done (gpointer data)
{
  return !dy_sql_view_get_exporting (data);
}

static void
test_export (void)
{
  DySqlView *view = open_sql ();
  g_autofree char *dir = g_dir_make_tmp ("dynoscope-sql-export-XXXXXX", NULL);
  g_autofree char *csv_path = g_build_filename (dir, "users.csv", NULL);
  g_autofree char *jsonl_path = g_build_filename (dir, "users.jsonl", NULL);
  g_autoptr (GFile) csv = g_file_new_for_path (csv_path);
  g_autoptr (GFile) jsonl = g_file_new_for_path (jsonl_path);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  run_sql (view, "SELECT PK, name, 'a, \"b\"' AS quoted FROM Blog WHERE SK = 'META' AND PK "
                 "LIKE 'USER#%' ORDER BY PK");
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 3);
  dy_sql_view_export (view, csv, DY_SQL_EXPORT_CSV);
  gui_wait_for (export_done, view, "the CSV export");
  g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
  g_assert_true (g_file_get_contents (csv_path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==,
                   "PK,name,quoted\r\n"
                   "USER#12,Mara Vance,\"a, \"\"b\"\"\"\r\n"
                   "USER#31,Ines Okafor,\"a, \"\"b\"\"\"\r\n"
                   "USER#88,Lio Tan,\"a, \"\"b\"\"\"\r\n");
  g_assert_true (g_str_has_prefix (dy_sql_view_get_status (view), "Exported 3 rows"));
  g_clear_pointer (&text, g_free);
  dy_sql_view_export (view, jsonl, DY_SQL_EXPORT_JSONL);
  gui_wait_for (export_done, view, "the JSON lines export");
  g_assert_true (g_file_get_contents (jsonl_path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_cmpstr (lines[0], ==,
                   "{\"PK\":\"USER#12\",\"name\":\"Mara Vance\",\"quoted\":\"a, \\\"b\\\"\"}");
  g_assert_cmpstr (lines[3], ==, "");
  g_unlink (csv_path);
  g_unlink (jsonl_path);
  g_rmdir (dir);
}

static gboolean
confirm_asked (gpointer data)
{
  return dy_sql_view_get_confirm_dialog (data) != NULL;
}

static gboolean
write_asked (gpointer data)
{
  return dy_sql_view_get_write_dialog (data) != NULL;
}

/* ATTRIBUTE of ITEM as DynamoDB JSON, to compare exactly. */
static char *
json_attr (DyItem *item, const char *attribute)
{
  const DdbValue *value = dy_item_get_attribute (item, attribute);

  g_assert_nonnull (value);
  return ddb_json_format_value (value);
}

static void
set_partiql_row (DySqlView *view, const char *parameters, int limit)
{
  GObject *entry
      = gtk_widget_get_template_child (GTK_WIDGET (view), DY_TYPE_SQL_VIEW, "params_entry");
  GObject *spin = gtk_widget_get_template_child (GTK_WIDGET (view), DY_TYPE_SQL_VIEW, "limit_spin");

  gtk_editable_set_text (GTK_EDITABLE (entry), parameters);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), limit);
}

static guint
n_rows (DySqlView *view)
{
  return g_list_model_get_n_items (dy_sql_view_get_rows (view));
}

/* The PartiQL mode on the demo database: ExecuteStatement through the backend, page by page. */
static void
test_partiql (void)
{
  DySqlView *view = open_sql ();
  AdwTabView *tabs = dy_window_get_tab_view (gui_window);
  AdwTabPage *page = adw_tab_view_get_page (tabs, GTK_WIDGET (view));
  DySqlHistory *history = dy_sql_history_get_default ();
  const char *const columns[] = { "EntityRef", "Detail", "name", "plan",   "createdAt", "seats",
                                  "status",    "budget", "tags", "owners", "checksum",  NULL };
  g_autoptr (DyItem) project = NULL;
  g_autofree char *budget = NULL, *checksum = NULL, *tags = NULL, *copied = NULL;
  guint loads = 0;

  /* the switch, in the tab's title and tooltip; Ctrl+Shift+P flips it */
  g_assert_false (dy_sql_view_get_partiql (view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.language", "s", "partiql"));
  g_assert_true (dy_sql_view_get_partiql (view));
  g_assert_true (g_str_has_prefix (adw_tab_page_get_title (page), "PartiQL · "));
  g_assert_nonnull (strstr (adw_tab_page_get_tooltip (page), "PartiQL"));
  press_shortcut (view, "<Control><Shift>p");
  g_assert_false (dy_sql_view_get_partiql (view));
  g_assert_true (g_str_has_prefix (adw_tab_page_get_title (page), "SQL · "));
  /* the parameters row is PartiQL's */
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (gtk_widget_get_template_child (
      GTK_WIDGET (view), DY_TYPE_SQL_VIEW, "partiql_revealer"))));
  press_shortcut (view, "<Control><Shift>p");
  g_assert_true (dy_sql_view_get_partiql (view));
  g_object_get (view, "language", &copied, NULL);
  g_assert_cmpstr (copied, ==, "partiql");
  g_clear_pointer (&copied, g_free);

  /* a Query by partition key: the key first, every attribute of the items, values exact */
  set_partiql_row (view, "", 0);
  run_sql (view, "SELECT * FROM Workspaces WHERE EntityRef = 'WS#acme'");
  g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
  g_assert_cmpuint (n_rows (view), ==, 4);
  assert_columns (view, columns);
  project = find_row (view, "Detail", "PROJ#2026-0042");
  g_assert_nonnull (project);
  budget = json_attr (project, "budget");
  g_assert_cmpstr (budget, ==, "{\"N\":\"12345678901234567890123456789012345678\"}");
  checksum = json_attr (project, "checksum");
  g_assert_cmpstr (checksum, ==, "{\"B\":\"3q2+7w==\"}");
  g_clear_object (&project);
  project = find_row (view, "Detail", "PROJ#2026-0040");
  tags = json_attr (project, "tags");
  g_assert_cmpstr (tags, ==, "{\"SS\":[\"billing\",\"q1\"]}");
  g_assert_nonnull (strstr (dy_sql_view_get_status (view), "4 items · 1 page · the last page"));
  g_assert_false (dy_sql_view_get_can_load_more (view));
  /* recorded with its mode */
  g_assert_cmpstr (dy_sql_history_get_statement (history, 0), ==,
                   "SELECT * FROM Workspaces WHERE EntityRef = 'WS#acme'");
  g_assert_cmpint (dy_sql_history_get_mode (history, 0), ==, DY_SQL_MODE_PARTIQL);
  gui_screenshot ("77-sql-partiql.png");

  /* Copy as: the program codegen writes for the ExecuteStatement request Run sends (until
   * codegen knows the operation, its refusal shown in place) */
  {
    g_autoptr (GError) error = NULL;
    json_t *request = dy_sql_view_partiql_request (view, &error);
    g_autofree char *program = NULL;

    g_assert_no_error (error);
    g_assert_cmpstr (json_string_value (json_object_get (request, "Statement")), ==,
                     "SELECT * FROM Workspaces WHERE EntityRef = 'WS#acme'");
    g_assert_null (json_object_get (request, "Parameters"));
    program = dy_copy_as_program (gui_demo_connection (), "python", "ExecuteStatement", request,
                                  &error);
    json_decref (request);
    g_assert_true (
        gtk_widget_activate_action (GTK_WIDGET (view), "view.partiql-copy-as", "s", "python"));
    if (program != NULL)
      {
        g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
        copied = gui_clipboard_text (GTK_WIDGET (view));
        g_assert_cmpstr (copied, ==, program);
        g_assert_nonnull (strstr (copied, "WS#acme"));
        g_clear_pointer (&copied, g_free);
        g_assert_nonnull (strstr (dy_sql_view_get_status (view), "as Python"));
      }
    else
      {
        g_test_message ("codegen: %s", error->message);
        g_assert_cmpstr (dy_sql_view_get_error (view), ==, error->message);
      }
  }

  /* DynamoDB's error in place: the rows before are gone, nothing asked */
  run_sql (view, "SELEC * FROM Workspaces");
  g_assert_nonnull (dy_sql_view_get_error (view));
  g_assert_true (g_str_has_prefix (dy_sql_view_get_error (view),
                                   "ValidationException: Statement wasn't well formed"));
  g_assert_cmpuint (n_rows (view), ==, 0);
  g_assert_nonnull (strstr (dy_sql_view_get_status (view), "Not run"));
  gui_screenshot ("78-sql-partiql-error.png");

  /* parameters: a PartiQL literal and DynamoDB JSON for the two ? */
  set_partiql_row (view, "'USER#12', {\"S\": \"META\"}", 0);
  dy_sql_view_set_text (view, "SELECT name, email FROM Blog WHERE PK = ? AND SK = ?");
  /* Enter in the parameters runs */
  g_signal_emit_by_name (
      gtk_widget_get_template_child (GTK_WIDGET (view), DY_TYPE_SQL_VIEW, "params_entry"),
      "activate");
  g_assert_true (dy_sql_view_get_running (view));
  gui_wait_for (view_idle, view, "the statement");
  g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
  g_assert_cmpuint (n_rows (view), ==, 1);
  {
    g_autoptr (DyItem) user = row (view, 0);
    g_autofree char *name = gui_string_attr (user, "name");

    g_assert_cmpstr (name, ==, "Mara Vance");
  }
  /* a parameter that is no value is refused before anything is sent */
  set_partiql_row (view, "'USER#12', META", 0);
  dy_sql_view_run (view);
  g_assert_false (dy_sql_view_get_running (view));
  g_assert_nonnull (strstr (dy_sql_view_get_error (view), "Parameter 2"));
  /* too few values: DynamoDB's own word */
  set_partiql_row (view, "'USER#12'", 0);
  run_sql (view, "SELECT name FROM Blog WHERE PK = ? AND SK = ?");
  g_assert_true (g_str_has_prefix (dy_sql_view_get_error (view), "ValidationException: "));

  /* pages of a Scan with a small Limit, followed with Load more (Ctrl+L) to the last */
  set_partiql_row (view, "", 20);
  run_sql (view, "SELECT * FROM Orders");
  g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
  g_assert_cmpuint (n_rows (view), ==, 20);
  g_assert_true (dy_sql_view_get_can_load_more (view));
  g_assert_nonnull (strstr (dy_sql_view_get_status (view), "more pages"));
  g_assert_cmpstr (dy_sql_view_get_columns (view)[0], ==, "TenantShard");
  g_assert_cmpstr (dy_sql_view_get_columns (view)[1], ==, "CustomerCountryProduct");
  gui_screenshot ("79-sql-partiql-pages.png");
  while (dy_sql_view_get_can_load_more (view))
    {
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.load-more", NULL));
      g_assert_true (dy_sql_view_get_running (view));
      gui_wait_for (view_idle, view, "the next page");
      g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
      g_assert_cmpuint (++loads, <=, 4);
    }
  g_assert_cmpuint (n_rows (view), ==, 67);
  g_assert_nonnull (strstr (dy_sql_view_get_status (view), "67 items · 4 pages · the last page"));

  /* Cancel (Esc) drops the answer on its way: the grid stays empty, no error */
  set_partiql_row (view, "", 0);
  dy_sql_view_set_text (view, "SELECT * FROM Orders");
  dy_sql_view_run (view);
  g_assert_true (dy_sql_view_get_running (view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.cancel", NULL));
  g_assert_false (dy_sql_view_get_running (view));
  g_assert_true (dy_sql_view_get_cancelled (view));
  gui_settle ();
  g_assert_cmpuint (n_rows (view), ==, 0);
  g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
  g_assert_false (dy_sql_view_get_can_load_more (view));
  g_assert_nonnull (strstr (dy_sql_view_get_status (view), "Cancelled"));

  /* a page with nothing that matched, but a NextToken, is not the end */
  set_partiql_row (view, "", 5);
  run_sql (view, "SELECT * FROM Orders WHERE status = 'no such status'");
  g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
  g_assert_cmpuint (n_rows (view), ==, 0);
  g_assert_true (dy_sql_view_get_can_load_more (view));
  g_assert_nonnull (strstr (dy_sql_view_get_status (view), "this page was empty"));

  /* SQL again: the history puts a PartiQL statement back in its mode */
  set_partiql_row (view, "", 0);
  dy_sql_view_set_partiql (view, FALSE);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (
      gtk_widget_get_template_child (GTK_WIDGET (view), DY_TYPE_SQL_VIEW, "load_more_button"))));
  for (guint i = 0; i < dy_sql_history_get_n_statements (history); i++)
    if (g_str_equal (dy_sql_history_get_statement (history, i), "SELECT * FROM Orders"))
      {
        g_assert_cmpint (dy_sql_history_get_mode (history, i), ==, DY_SQL_MODE_PARTIQL);
        g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.load-history", "u", i));
        break;
      }
  g_assert_true (dy_sql_view_get_partiql (view));
  copied = dy_sql_view_dup_text (view);
  g_assert_cmpstr (copied, ==, "SELECT * FROM Orders");
  g_clear_pointer (&copied, g_free);
  dy_sql_view_set_partiql (view, FALSE);
}

/* A live table's Scan over the set amount of read capacity asks first. */
static void
test_confirm_live_scan (void)
{
  const char *cli = g_getenv ("DYNOSCOPE_CLI");
  g_autofree char *db = g_build_filename (g_get_user_cache_dir (), "served.db", NULL);
  g_autofree char *data_dir = dy_demo_data_dir ();
  g_autofree char *url = NULL;
  g_autoptr (GError) error = NULL;
  DyConnection *endpoint;
  DySqlView *view;
  AdwMessageDialog *dialog;

  if (cli == NULL)
    {
      g_test_skip ("DYNOSCOPE_CLI (dynoscope-cli) is not set");
      return;
    }
  g_assert_true (dy_demo_ensure (db, data_dir, NULL, &error));
  g_assert_no_error (error);
  server = gui_start_serve (db, &url);
  endpoint = dy_window_add_endpoint (gui_window, url, NULL, FALSE, &error);
  g_assert_no_error (error);
  view = dy_sql_view_open (gui_window, endpoint);
  g_assert_true (dy_sql_view_get_connection (view) == endpoint);
  /* any Scan of it asks */
  dy_sql_view_set_confirm_rcu (view, 0);
  dy_sql_view_set_text (view, "SELECT * FROM Blog");
  dy_sql_view_run (view);
  gui_wait_for (confirm_asked, view, "the confirmation");
  dialog = dy_sql_view_get_confirm_dialog (view);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "read capacity units"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "Scan"));
  gui_screenshot ("75-sql-confirm.png");
  adw_message_dialog_response (dialog, "cancel");
  g_assert_false (dy_sql_view_get_running (view));
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 0);

  dy_sql_view_run (view);
  gui_wait_for (confirm_asked, view, "the confirmation");
  adw_message_dialog_response (dy_sql_view_get_confirm_dialog (view), "run");
  gui_wait_for (view_idle, view, "the Scan");
  g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 15);

  /* the confirmation can raise what asks: kept in the settings, and the same Scan asks no more */
  dy_sql_view_set_text (view, "SELECT * FROM Blog");
  dy_sql_view_run (view);
  gui_wait_for (confirm_asked, view, "the confirmation");
  dialog = dy_sql_view_get_confirm_dialog (view);
  {
    GtkWidget *spin = gtk_widget_get_last_child (adw_message_dialog_get_extra_child (dialog));

    g_assert_true (GTK_IS_SPIN_BUTTON (spin));
    g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==, 0);
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 5000000);
  }
  adw_message_dialog_response (dialog, "run");
  gui_wait_for (view_idle, view, "the Scan");
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 15);
  g_assert_cmpfloat (g_settings_get_double (dy_window_get_settings (gui_window), "sql-confirm-rcu"),
                     ==, 5000000);
  dy_sql_view_run (view);
  gui_wait_for (view_idle, view, "the Scan under the new threshold");
  g_assert_null (dy_sql_view_get_confirm_dialog (view));
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 15);
  g_settings_reset (dy_window_get_settings (gui_window), "sql-confirm-rcu");

  /* a Query by key asks nothing, whatever the threshold */
  dy_sql_view_set_text (view, "SELECT name FROM Blog WHERE PK = 'USER#12' AND SK = 'META'");
  dy_sql_view_run (view);
  gui_wait_for (view_idle, view, "the Query");
  g_assert_null (dy_sql_view_get_confirm_dialog (view));
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 1);

  /* a PartiQL write to it asks first, naming the kind and the table; RETURNING's item shows */
  dy_sql_view_set_partiql (view, TRUE);
  dy_sql_view_set_text (view, "UPDATE Blog SET nickname = 'M.' WHERE PK = 'USER#12' AND SK = "
                              "'META' RETURNING ALL NEW *");
  dy_sql_view_run (view);
  gui_wait_for (write_asked, view, "the write's confirmation");
  dialog = dy_sql_view_get_write_dialog (view);
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Run an UPDATE on Blog?");
  gui_screenshot ("80-sql-partiql-write.png");
  adw_message_dialog_response (dialog, "cancel");
  g_assert_false (dy_sql_view_get_running (view));
  g_assert_nonnull (strstr (dy_sql_view_get_status (view), "Not sent"));
  /* nothing was written */
  dy_sql_view_set_text (view, "SELECT nickname FROM Blog WHERE PK = 'USER#12' AND SK = 'META'");
  dy_sql_view_run (view);
  gui_wait_for (view_idle, view, "the read");
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 1);
  {
    g_autoptr (DyItem) item = row (view, 0);

    g_assert_null (dy_item_get_attribute (item, "nickname"));
  }
  dy_sql_view_set_text (view, "UPDATE Blog SET nickname = 'M.' WHERE PK = 'USER#12' AND SK = "
                              "'META' RETURNING ALL NEW *");
  dy_sql_view_run (view);
  gui_wait_for (write_asked, view, "the write's confirmation");
  adw_message_dialog_response (dy_sql_view_get_write_dialog (view), "run");
  gui_wait_for (view_idle, view, "the write");
  g_assert_cmpstr (dy_sql_view_get_error (view), ==, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (view)), ==, 1);
  {
    g_autoptr (DyItem) item = row (view, 0);
    g_autofree char *nickname = gui_string_attr (item, "nickname");
    g_autofree char *name = gui_string_attr (item, "name");

    g_assert_cmpstr (nickname, ==, "M.");
    g_assert_cmpstr (name, ==, "Mara Vance");
  }
  gui_stop_serve (&server);
}

int
main (int argc, char **argv)
{
  gui_init (&argc, &argv);
  g_test_add_func ("/sql-gui/query", test_query);
  g_test_add_func ("/sql-gui/drift-and-stage", test_drift_and_stage);
  g_test_add_func ("/sql-gui/cancel", test_cancel);
  g_test_add_func ("/sql-gui/export", test_export);
  g_test_add_func ("/sql-gui/confirm-live-scan", test_confirm_live_scan);
  g_test_add_func ("/sql-gui/partiql", test_partiql);
  return gui_run_tests ();
}
