/* test-gui.c: the real application, started on the demo database under Xvfb, driven through
 * its actions and widgets; every assertion reads what the window's widgets and models hold.
 * With DYNOSCOPE_SCREENSHOT_DIR set, it also writes a PNG of the screen at each main view. */
#define G_LOG_DOMAIN "test-gui"

#include <glib/gstdio.h>

#include "app/dy-application.h"
#include "app/dy-group.h"
#include "app/dy-item.h"
#include "app/dy-node.h"
#include "app/dy-window.h"

static DyApplication *app;
static DyWindow *window;

typedef gboolean (*Condition) (gpointer data);

static gboolean
timed_out (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until COND holds; fails the test after 20 s. */
static void
wait_for (Condition cond, gpointer data, const char *what)
{
  gboolean expired = FALSE;
  guint timeout = g_timeout_add_seconds (20, timed_out, &expired);

  while (!cond (data) && !expired)
    g_main_context_iteration (NULL, TRUE);
  if (expired)
    g_error ("timed out waiting for %s", what);
  g_source_remove (timeout);
}

/* Lets the window lay out and draw what changed. */
static void
settle (void)
{
  gboolean done = FALSE;

  g_timeout_add (300, timed_out, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static void
screenshot (const char *name)
{
  const char *dir = g_getenv ("DYNOSCOPE_SCREENSHOT_DIR");
  g_autofree char *path = NULL;
  g_autofree char *command = NULL;
  g_autoptr (GError) error = NULL;
  int status;

  if (dir == NULL)
    return;
  settle ();
  path = g_build_filename (dir, name, NULL);
  command = g_strdup_printf ("import -window root %s", path);
  if (!g_spawn_command_line_sync (command, NULL, NULL, &status, &error))
    g_warning ("%s: %s", command, error->message);
  else
    g_test_message ("screenshot %s", path);
}

static DyConnection *
demo_connection (void)
{
  GListModel *connections = dy_window_get_connections (window);

  for (guint i = 0; i < g_list_model_get_n_items (connections); i++)
    {
      g_autoptr (DyConnection) c = g_list_model_get_item (connections, i);

      if (g_str_has_prefix (dy_connection_get_path (c), g_get_user_cache_dir ()))
        return c;
    }
  return NULL;
}

static gboolean
demo_tables_listed (gpointer data)
{
  DyConnection *c = demo_connection ();

  return c != NULL && !dy_connection_get_loading (c)
         && g_list_model_get_n_items (dy_connection_get_tables (c)) > 0;
}

static gboolean
view_ready (gpointer data)
{
  return dy_table_view_get_ready (data);
}

static gboolean
view_idle (gpointer data)
{
  return !dy_table_view_get_running (data);
}

static GtkWidget *
child (DyTableView *view, const char *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (view), DY_TYPE_TABLE_VIEW, name);

  g_assert_nonnull (object);
  return GTK_WIDGET (object);
}

static void
set_text (DyTableView *view, const char *entry, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (child (view, entry)), text);
}

static void
select_choice (DyTableView *view, const char *dropdown, const char *choice)
{
  GtkDropDown *d = GTK_DROP_DOWN (child (view, dropdown));
  GListModel *model = gtk_drop_down_get_model (d);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (GtkStringObject) s = g_list_model_get_item (model, i);

      if (g_str_equal (gtk_string_object_get_string (s), choice))
        {
          gtk_drop_down_set_selected (d, i);
          return;
        }
    }
  g_error ("no choice %s in %s", choice, dropdown);
}

static const char *
label_text (DyTableView *view, const char *name)
{
  return gtk_label_get_text (GTK_LABEL (child (view, name)));
}

/* Runs what the filter row says, as Ctrl+Return does (through the window's action). */
static void
run (DyTableView *view, const char *action)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), action, NULL));
  wait_for (view_idle, view, "the request to finish");
  settle ();
}

static DyTableView *
open_table (const char *table)
{
  DyTableView *view = dy_window_open_table (window, demo_connection (), table);

  wait_for (view_ready, view, "DescribeTable");
  return view;
}

static char *
string_attr (DyItem *item, const char *name)
{
  const DdbValue *v = dy_item_get_attribute (item, name);

  g_assert_nonnull (v);
  g_assert_cmpint (v->type, ==, DDB_TYPE_S);
  return g_strndup (v->bytes.data, v->bytes.len);
}

static void
test_tables_listed (void)
{
  DyConnection *c;
  GListModel *tables;
  const char *expected[] = { "Blog", "Orders", "Workspaces" };

  wait_for (demo_tables_listed, NULL, "the demo tables");
  c = demo_connection ();
  g_assert_nonnull (c);
  g_assert_null (dy_connection_get_error (c));
  tables = dy_connection_get_tables (c);
  g_assert_cmpuint (g_list_model_get_n_items (tables), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr (GtkStringObject) s = g_list_model_get_item (tables, i);

      g_assert_cmpstr (gtk_string_object_get_string (s), ==, expected[i]);
    }
  screenshot ("01-tables.png");
}

static void
test_query_projects_newest_first (void)
{
  DyTableView *view = open_table ("Workspaces");
  GListModel *items = dy_table_view_get_items (view);
  const char *expected[] = { "PROJ#2026-0042", "PROJ#2026-0041", "PROJ#2026-0040" };
  g_autofree char *request = NULL;
  guint64 scanned;
  guint pages, requests;
  double capacity;

  g_assert_true (g_str_has_prefix (label_text (view, "mode_label"), "Will Scan"));
  set_text (view, "pk_entry", "WS#acme");
  select_choice (view, "sk_op_dropdown", "begins_with");
  set_text (view, "sk_entry", "PROJ#");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (child (view, "desc_toggle")), TRUE);
  /* It says before running that it will Query. */
  g_assert_true (g_str_has_prefix (label_text (view, "mode_label"), "Will Query"));

  run (view, "win.run");
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (DyItem) item = g_list_model_get_item (items, i);
      g_autofree char *detail = string_attr (item, "Detail");

      g_assert_cmpstr (detail, ==, expected[i]);
    }
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (requests, ==, 1);
  g_assert_cmpuint (pages, ==, 1);
  g_assert_cmpuint (scanned, ==, 3);
  g_assert_cmpfloat (capacity, >, 0);
  g_assert_false (dy_table_view_get_can_load_more (view));
  g_assert_false (gtk_widget_get_sensitive (child (view, "more_button")));
  g_assert_nonnull (strstr (label_text (view, "footer_label"), "3 items shown"));
  g_assert_nonnull (strstr (label_text (view, "footer_label"), "1 requests"));

  /* The request shown is the one sent: placeholders, values never spliced in. */
  request = dy_table_view_dup_request_text (view);
  g_assert_nonnull (strstr (request, "\"KeyConditionExpression\": \"#pk = :pk AND begins_with(#sk, :sk)\""));
  g_assert_nonnull (strstr (request, "\"ScanIndexForward\": false"));
  g_assert_nonnull (strstr (request, "\":pk\": {\n      \"S\": \"WS#acme\""));
  g_assert_nonnull (strstr (request, "\"#sk\": \"Detail\""));
  gtk_revealer_set_reveal_child (GTK_REVEALER (child (view, "request_revealer")), TRUE);
  screenshot ("02-query.png");
  gtk_revealer_set_reveal_child (GTK_REVEALER (child (view, "request_revealer")), FALSE);
}

static void
test_grouping (void)
{
  DyTableView *view = open_table ("Workspaces");
  GtkSelectionModel *rows = dy_table_view_get_rows (view);
  struct { const char *key; guint n; } expected[] = {
    { "WS#acme", 4 }, { "WS#acme#01", 1 }, { "WS#globex", 2 },
  };
  guint found = 0;

  /* A Scan of the whole table, grouped with Ctrl+G's action. */
  set_text (view, "pk_entry", "");
  select_choice (view, "sk_op_dropdown", "any");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (child (view, "desc_toggle")), FALSE);
  run (view, "win.run");
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 7);
  g_assert_false (dy_table_view_get_grouped (view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.group", NULL));
  g_assert_true (dy_table_view_get_grouped (view));
  settle ();

  /* The collections come in Scan order (DynamoDB's hash order), so look each one up. */
  for (guint e = 0; e < G_N_ELEMENTS (expected); e++)
    for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (rows)); i++)
      {
        g_autoptr (GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (rows), i);
        g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

        if (!DY_IS_GROUP (object)
            || !g_str_equal (dy_group_get_key_text (DY_GROUP (object)), expected[e].key))
          continue;
        g_assert_cmpuint (gtk_tree_list_row_get_depth (row), ==, 0);
        g_assert_cmpuint (dy_group_get_n_items (DY_GROUP (object)), ==, expected[e].n);
        if (e == 0)
          {
            /* Opened, the collection shows its items under it in sort-key order. */
            const char *details[] = { "META", "PROJ#2026-0040", "PROJ#2026-0041", "PROJ#2026-0042" };

            gtk_tree_list_row_set_expanded (row, TRUE);
            for (guint k = 0; k < 4; k++)
              {
                g_autoptr (GtkTreeListRow) sub = g_list_model_get_item (G_LIST_MODEL (rows), i + 1 + k);
                g_autoptr (GObject) item = gtk_tree_list_row_get_item (sub);
                g_autofree char *detail = NULL;

                g_assert_true (DY_IS_ITEM (item));
                g_assert_cmpuint (gtk_tree_list_row_get_depth (sub), ==, 1);
                detail = string_attr (DY_ITEM (item), "Detail");
                g_assert_cmpstr (detail, ==, details[k]);
              }
          }
        found++;
      }
  /* Exactly these three collections, no more. */
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (rows)); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (rows), i);

      if (gtk_tree_list_row_get_depth (row) == 0)
        found += 0x100;
    }
  g_assert_cmpuint (found, ==, G_N_ELEMENTS (expected) * 0x101);
  screenshot ("03-grouped.png");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.group", NULL));
  g_assert_false (dy_table_view_get_grouped (view));
}

static gboolean
find_node (GListModel *rows, const char *path, char **text)
{
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (DyNode) node = DY_NODE (gtk_tree_list_row_get_item (row));

      if (g_str_equal (dy_node_get_path (node), path))
        {
          *text = dy_node_dup_value_text (node);
          return TRUE;
        }
    }
  return FALSE;
}

static void
test_inspector_exact_number (void)
{
  DyTableView *view = open_table ("Workspaces");
  GtkSelectionModel *rows = dy_table_view_get_rows (view);
  DyInspector *inspector = dy_table_view_get_inspector (view);
  const char *digits = "12345678901234567890123456789012345678";
  g_autofree char *budget = NULL;
  g_autofree char *checksum = NULL;
  g_autofree char *json = NULL;
  guint target = G_MAXUINT;

  set_text (view, "pk_entry", "WS#acme");
  select_choice (view, "sk_op_dropdown", "=");
  set_text (view, "sk_entry", "PROJ#2026-0042");
  run (view, "win.run");
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 1);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (rows)); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (rows), i);
      g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

      if (DY_IS_ITEM (object))
        target = i;
    }
  g_assert_cmpuint (target, !=, G_MAXUINT);
  gtk_selection_model_select_item (rows, target, TRUE);
  settle ();
  g_assert_nonnull (dy_inspector_get_item (inspector));

  g_assert_true (find_node (dy_inspector_get_tree_model (inspector), "budget", &budget));
  g_assert_cmpstr (budget, ==, digits);
  g_assert_true (find_node (dy_inspector_get_tree_model (inspector), "checksum", &checksum));
  g_assert_cmpstr (checksum, ==, "3q2+7w== (4 B)");
  json = dy_inspector_dup_json_text (inspector);
  g_assert_nonnull (strstr (json, "\"N\": \"12345678901234567890123456789012345678\""));
  screenshot ("04-inspector.png");
}

static void
test_scan_filter_nothing_load_more (void)
{
  DyTableView *view = open_table ("Orders");
  guint64 scanned;
  guint pages, requests;
  double capacity;

  set_text (view, "filter_attr_entry", "status");
  select_choice (view, "filter_op_dropdown", "=");
  set_text (view, "filter_value_entry", "lost-in-the-mail");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (child (view, "limit_spin")), 25);
  g_assert_true (g_str_has_prefix (label_text (view, "mode_label"), "Will Scan"));

  run (view, "win.run");
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 0);
  g_assert_true (dy_table_view_get_can_load_more (view));
  g_assert_true (gtk_widget_get_sensitive (child (view, "more_button")));
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (scanned, ==, 25);
  screenshot ("05-scan-filter.png");

  /* Ctrl+L's action: the next page, still empty, still more to come. */
  run (view, "win.load-more");
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 0);
  g_assert_true (dy_table_view_get_can_load_more (view));
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (scanned, ==, 50);
  g_assert_cmpuint (pages, ==, 2);
  g_assert_cmpuint (requests, ==, 2);

  /* The last page: 67 items in all, then no LastEvaluatedKey. */
  run (view, "win.load-more");
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (scanned, ==, 67);
  g_assert_false (dy_table_view_get_can_load_more (view));
  g_assert_false (gtk_widget_get_sensitive (child (view, "more_button")));
}

static void
test_tabs (void)
{
  AdwTabView *tabs = dy_window_get_tab_view (window);
  int n = adw_tab_view_get_n_pages (tabs);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-tab", NULL));
  g_assert_cmpint (adw_tab_view_get_n_pages (tabs), ==, n + 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.close-tab", NULL));
  g_assert_cmpint (adw_tab_view_get_n_pages (tabs), ==, n);
}

static void
test_shortcuts_window (void)
{
  GtkShortcutsWindow *overlay =
    gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));

  /* GtkApplication loads ui/gtk/help-overlay.ui and binds it to Ctrl+? itself. */
  g_assert_nonnull (overlay);
  g_assert_nonnull (g_action_map_lookup_action (G_ACTION_MAP (window), "show-help-overlay"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  screenshot ("06-shortcuts.png");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (overlay)));
  gtk_window_close (GTK_WINDOW (overlay));
}

static int status;

static void
activated (GApplication *application)
{
  window = DY_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (application)));
  g_assert_nonnull (window);
  status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = g_dir_make_tmp ("dynoscope-gui-XXXXXX", NULL);

  g_test_init (&argc, &argv, NULL);
  /* GTK warns without a session bus, which a CI machine may lack; criticals stay fatal. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);

  g_test_add_func ("/gui/tables-listed", test_tables_listed);
  g_test_add_func ("/gui/query-projects-newest-first", test_query_projects_newest_first);
  g_test_add_func ("/gui/grouping", test_grouping);
  g_test_add_func ("/gui/inspector-exact-number", test_inspector_exact_number);
  g_test_add_func ("/gui/scan-filter-nothing-load-more", test_scan_filter_nothing_load_more);
  g_test_add_func ("/gui/tabs", test_tabs);
  g_test_add_func ("/gui/shortcuts-window", test_shortcuts_window);

  app = dy_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  g_signal_connect_after (app, "activate", G_CALLBACK (activated), NULL);
  g_application_run (G_APPLICATION (app), 0, NULL);
  g_object_unref (app);
  return status;
}
