/* test-gui.c: the real application, started on the demo database under Xvfb, driven through
 * its actions and widgets; every assertion reads what the window's widgets and models hold.
 * With DYNOSCOPE_SCREENSHOT_DIR set, it also writes a PNG of the screen at each main view. */
#define G_LOG_DOMAIN "test-gui"

#include <glib/gstdio.h>
#include <signal.h>

#include "backend/backend.h"
#include "core/number.h"

#include "app/window/dy-application.h"
#include "app/browser/dy-group.h"
#include "app/common/dy-item.h"
#include "app/inspector/dy-node.h"
#include "app/window/dy-window.h"
#include "gui-util.h"

static GSubprocess *server;
static char *server_url; /* http://127.0.0.1:PORT of `dynoscope-cli serve` */
#define N_LOCAL_TABLES 103 /* more than one ListTables page (100), and table Big */
#define N_BIG_ITEMS 2000

static gboolean
sidebar_expanded (DyConnection *connection)
{
  GListModel *rows = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (
    gtk_widget_get_template_child (GTK_WIDGET (gui_window), DY_TYPE_WINDOW, "sidebar_list"))));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

      if (object == G_OBJECT (connection))
        return gtk_tree_list_row_get_expanded (row);
    }
  g_error ("no sidebar row for the connection");
  return FALSE;
}

static void
test_tables_listed (void)
{
  DyConnection *c;
  GListModel *tables;
  const char *expected[] = { "Blog", "Orders", "Workspaces" };

  gui_wait_for (gui_demo_tables_listed, NULL, "the demo tables");
  c = gui_demo_connection ();
  g_assert_nonnull (c);
  /* The demo opens on its tables. */
  g_assert_true (sidebar_expanded (c));
  g_assert_null (dy_connection_get_error (c));
  tables = dy_connection_get_tables (c);
  g_assert_cmpuint (g_list_model_get_n_items (tables), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr (GtkStringObject) s = g_list_model_get_item (tables, i);

      g_assert_cmpstr (gtk_string_object_get_string (s), ==, expected[i]);
    }
  gui_screenshot ("01-tables.png");
}

static void
test_query_projects_newest_first (void)
{
  DyTableView *view = gui_open_table ("Workspaces");
  GListModel *items = dy_table_view_get_items (view);
  const char *expected[] = { "PROJ#2026-0042", "PROJ#2026-0041", "PROJ#2026-0040" };
  g_autofree char *request = NULL;
  guint64 scanned;
  guint pages, requests;
  double capacity;

  g_assert_true (g_str_has_prefix (gui_label_text (view, "mode_label"), "Will Scan"));
  gui_set_text (view, "pk_entry", "WS#acme");
  gui_select_choice (view, "sk_op_dropdown", "begins_with");
  gui_set_text (view, "sk_entry", "PROJ#");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (gui_child (view, "desc_toggle")), TRUE);
  /* It says before running that it will Query. */
  g_assert_true (g_str_has_prefix (gui_label_text (view, "mode_label"), "Will Query"));

  gui_run (view, "win.run");
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (DyItem) item = g_list_model_get_item (items, i);
      g_autofree char *detail = gui_string_attr (item, "Detail");

      g_assert_cmpstr (detail, ==, expected[i]);
    }
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (requests, ==, 1);
  g_assert_cmpuint (pages, ==, 1);
  g_assert_cmpuint (scanned, ==, 3);
  g_assert_cmpfloat (capacity, >, 0);
  g_assert_false (dy_table_view_get_can_load_more (view));
  g_assert_false (gtk_widget_get_sensitive (gui_child (view, "more_button")));
  g_assert_nonnull (strstr (gui_label_text (view, "footer_label"), "3 items shown"));
  g_assert_nonnull (strstr (gui_label_text (view, "footer_label"), "· 1 request ·"));

  /* The request shown is the one sent: placeholders, values never spliced in. */
  request = dy_table_view_dup_request_text (view);
  g_assert_nonnull (strstr (request, "\"KeyConditionExpression\": \"#pk = :pk AND begins_with(#sk, :sk)\""));
  g_assert_nonnull (strstr (request, "\"ScanIndexForward\": false"));
  g_assert_nonnull (strstr (request, "\":pk\": {\n      \"S\": \"WS#acme\""));
  g_assert_nonnull (strstr (request, "\"#sk\": \"Detail\""));
  gtk_revealer_set_reveal_child (GTK_REVEALER (gui_child (view, "request_revealer")), TRUE);
  gui_screenshot ("02-query.png");
  gtk_revealer_set_reveal_child (GTK_REVEALER (gui_child (view, "request_revealer")), FALSE);
}

static void
test_grouping (void)
{
  DyTableView *view = gui_open_table ("Workspaces");
  GtkSelectionModel *rows = dy_table_view_get_rows (view);
  struct { const char *key; guint n; } expected[] = {
    { "WS#acme", 4 }, { "WS#acme#01", 1 }, { "WS#globex", 2 },
  };
  guint found = 0;

  /* A Scan of the whole table, grouped with Ctrl+G's action. */
  gui_set_text (view, "pk_entry", "");
  gui_select_choice (view, "sk_op_dropdown", "any");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (gui_child (view, "desc_toggle")), FALSE);
  gui_run (view, "win.run");
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 7);
  g_assert_false (dy_table_view_get_grouped (view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.group", NULL));
  g_assert_true (dy_table_view_get_grouped (view));
  gui_settle ();

  /* The collections come in Scan order (DynamoDB's hash order), so look each one up. */
  for (guint e = 0; e < G_N_ELEMENTS (expected); e++)
    for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (rows)); i++)
      {
        g_autoptr (GtkTreeListRow) row = gui_grid_row (G_LIST_MODEL (rows), i);
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
                g_autoptr (GtkTreeListRow) sub = gui_grid_row (G_LIST_MODEL (rows), i + 1 + k);
                g_autoptr (GObject) item = gtk_tree_list_row_get_item (sub);
                g_autofree char *detail = NULL;

                g_assert_true (DY_IS_ITEM (item));
                g_assert_cmpuint (gtk_tree_list_row_get_depth (sub), ==, 1);
                detail = gui_string_attr (DY_ITEM (item), "Detail");
                g_assert_cmpstr (detail, ==, details[k]);
              }
          }
        found++;
      }
  /* Exactly these three collections, no more. */
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (rows)); i++)
    {
      g_autoptr (GtkTreeListRow) row = gui_grid_row (G_LIST_MODEL (rows), i);

      if (gtk_tree_list_row_get_depth (row) == 0)
        found += 0x100;
    }
  g_assert_cmpuint (found, ==, G_N_ELEMENTS (expected) * 0x101);
  gui_screenshot ("03-grouped.png");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.group", NULL));
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
  DyTableView *view = gui_open_table ("Workspaces");
  GtkSelectionModel *rows = dy_table_view_get_rows (view);
  DyInspector *inspector = dy_table_view_get_inspector (view);
  const char *digits = "12345678901234567890123456789012345678";
  g_autofree char *budget = NULL;
  g_autofree char *checksum = NULL;
  g_autofree char *json = NULL;
  guint target = G_MAXUINT;

  gui_set_text (view, "pk_entry", "WS#acme");
  gui_select_choice (view, "sk_op_dropdown", "=");
  gui_set_text (view, "sk_entry", "PROJ#2026-0042");
  gui_run (view, "win.run");
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 1);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (rows)); i++)
    {
      /* Flat, the grid's rows are the items themselves. */
      g_autoptr (GObject) object = gui_grid_row (G_LIST_MODEL (rows), i);

      g_assert_false (GTK_IS_TREE_LIST_ROW (object));
      if (DY_IS_ITEM (object))
        target = i;
    }
  g_assert_cmpuint (target, !=, G_MAXUINT);
  gtk_selection_model_select_item (rows, target, TRUE);
  gui_settle ();
  g_assert_nonnull (dy_inspector_get_item (inspector));

  g_assert_true (find_node (dy_inspector_get_tree_model (inspector), "budget", &budget));
  g_assert_cmpstr (budget, ==, digits);
  g_assert_true (find_node (dy_inspector_get_tree_model (inspector), "checksum", &checksum));
  g_assert_cmpstr (checksum, ==, "3q2+7w== (4 B)");
  json = dy_inspector_dup_json_text (inspector);
  g_assert_nonnull (strstr (json, "\"N\": \"12345678901234567890123456789012345678\""));
  gui_screenshot ("04-inspector.png");
}

static void
test_scan_filter_nothing_load_more (void)
{
  DyTableView *view = gui_open_table ("Orders");
  guint64 scanned;
  guint pages, requests;
  double capacity;

  gui_set_text (view, "filter_attr_entry", "status");
  gui_select_choice (view, "filter_op_dropdown", "=");
  gui_set_text (view, "filter_value_entry", "lost-in-the-mail");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (gui_child (view, "limit_spin")), 25);
  g_assert_true (g_str_has_prefix (gui_label_text (view, "mode_label"), "Will Scan"));

  gui_run (view, "win.run");
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 0);
  g_assert_true (dy_table_view_get_can_load_more (view));
  g_assert_true (gtk_widget_get_sensitive (gui_child (view, "more_button")));
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (scanned, ==, 25);
  gui_screenshot ("05-scan-filter.png");

  /* Ctrl+L's action: the next page, still empty, still more to come. */
  gui_run (view, "win.load-more");
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 0);
  g_assert_true (dy_table_view_get_can_load_more (view));
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (scanned, ==, 50);
  g_assert_cmpuint (pages, ==, 2);
  g_assert_cmpuint (requests, ==, 2);

  /* The last page: 67 items in all, then no LastEvaluatedKey. */
  gui_run (view, "win.load-more");
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (scanned, ==, 67);
  g_assert_false (dy_table_view_get_can_load_more (view));
  g_assert_false (gtk_widget_get_sensitive (gui_child (view, "more_button")));
}

static void
test_tabs (void)
{
  AdwTabView *tabs = dy_window_get_tab_view (gui_window);
  int n = adw_tab_view_get_n_pages (tabs);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.new-tab", NULL));
  g_assert_cmpint (adw_tab_view_get_n_pages (tabs), ==, n + 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.close-tab", NULL));
  g_assert_cmpint (adw_tab_view_get_n_pages (tabs), ==, n);
}

static void
test_shortcuts_window (void)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (gui_window));
  g_auto (GStrv) accels = gtk_application_get_accels_for_action (app, "win.show-help-overlay");
  GtkShortcutsWindow *overlay;

  /* Ctrl+? shows it; it is built only then (ui/dy-shortcuts-window.ui), not with the window. */
  g_assert_cmpstrv (accels, ((const char *[]){ "<Control>question", NULL }));
  g_assert_nonnull (g_action_map_lookup_action (G_ACTION_MAP (gui_window), "show-help-overlay"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.show-help-overlay", NULL));
  overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (gui_window));
  g_assert_nonnull (overlay);
  g_assert_true (overlay == dy_window_get_shortcuts_window (gui_window));
  gui_screenshot ("06-shortcuts.png");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (overlay)));
  gtk_window_close (GTK_WINDOW (overlay));
  /* closing hides it; it is shown again the next time */
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.show-help-overlay", NULL));
  g_assert_true (overlay
                 == gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (gui_window)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (overlay)));
  gtk_window_close (GTK_WINDOW (overlay));
}

/* The window's sidebar list (the navigation-sidebar list view) under WIDGET, or NULL. */
static GtkWidget *
find_sidebar_list (GtkWidget *widget)
{
  if (GTK_IS_LIST_VIEW (widget) && gtk_widget_has_css_class (widget, "navigation-sidebar"))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_sidebar_list (c);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Every shortcut of the window's shortcut controllers (GtkShortcut, borrowed from them). */
static GPtrArray *
window_shortcuts (void)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (gui_window));
  GPtrArray *shortcuts = g_ptr_array_new ();

  for (guint c = 0; c < g_list_model_get_n_items (controllers); c++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, c);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (controller)); i++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), i);

          g_ptr_array_add (shortcuts, shortcut);
        }
    }
  return shortcuts;
}

/* The action of the window's shortcut on KEYVAL with exactly MODIFIERS, or NULL. */
static const char *
window_shortcut_action (guint keyval, GdkModifierType modifiers)
{
  g_autoptr (GPtrArray) shortcuts = window_shortcuts ();

  for (guint i = 0; i < shortcuts->len; i++)
    {
      GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcuts->pdata[i]);
      GtkShortcutAction *action = gtk_shortcut_get_action (shortcuts->pdata[i]);

      if (GTK_IS_KEYVAL_TRIGGER (trigger) && GTK_IS_NAMED_ACTION (action)
          && gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval
          && gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == modifiers)
        return gtk_named_action_get_action_name (GTK_NAMED_ACTION (action));
    }
  return NULL;
}

/* F9 hides the sidebar, and shows it again; the setting keeps it for the next start. */
static void
test_sidebar_toggle (void)
{
  g_autoptr (GSettings) settings = g_settings_new ("io.github.dynoscope.Dynoscope");
  GtkWidget *list = find_sidebar_list (GTK_WIDGET (gui_window));
  const char *f9 = window_shortcut_action (GDK_KEY_F9, 0);

  g_assert_nonnull (list);
  g_assert_cmpstr (f9, ==, "win.sidebar-visible");
  /* and Shift+F9 the inspector (layout-gui checks what it does) */
  g_assert_cmpstr (window_shortcut_action (GDK_KEY_F9, GDK_SHIFT_MASK), ==, "win.inspector-visible");
  g_assert_true (gtk_widget_is_visible (list));
  g_assert_true (g_settings_get_boolean (settings, "sidebar-visible"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), f9, NULL));
  gui_settle ();
  g_assert_false (gtk_widget_is_visible (list));
  g_assert_false (g_settings_get_boolean (settings, "sidebar-visible"));
  gui_screenshot ("07-sidebar-hidden.png");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), f9, NULL));
  gui_settle ();
  g_assert_true (gtk_widget_is_visible (list));
  g_assert_true (g_settings_get_boolean (settings, "sidebar-visible"));
}

/* Whether SHORTCUT fires on Ctrl+Shift+KEYVAL (either case). */
static gboolean
fires_on_ctrl_shift (GtkShortcut *shortcut, guint keyval)
{
  GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
  guint k;

  if (!GTK_IS_KEYVAL_TRIGGER (trigger))
    return FALSE;
  k = gdk_keyval_to_lower (gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)));
  return k == keyval
         && (gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger))
             & (GDK_CONTROL_MASK | GDK_SHIFT_MASK))
                == (GDK_CONTROL_MASK | GDK_SHIFT_MASK);
}

/* No shortcut of the window's shadows GTK's inspector keys (Ctrl+Shift+D and Ctrl+Shift+I,
 * GtkWindow's own "enable-debugging" bindings): every shortcut on them is GtkWindow's signal,
 * none an action of ours; Ctrl+Shift+S shows the staged changes. */
static void
test_shortcuts_leave_gtk_keys (void)
{
  static const guint gtk_keys[] = { GDK_KEY_d, GDK_KEY_i };
  g_autoptr (GPtrArray) shortcuts = window_shortcuts ();
  guint ours = 0, staging = 0, inspector_keys = 0;

  for (guint i = 0; i < shortcuts->len; i++)
    {
      GtkShortcut *shortcut = shortcuts->pdata[i];
      GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

      if (GTK_IS_NAMED_ACTION (action))
        {
          ours++;
          if (g_strcmp0 (gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)),
                         "win.toggle-staging") == 0)
            {
              g_assert_true (fires_on_ctrl_shift (shortcut, GDK_KEY_s));
              staging++;
            }
        }
      for (guint k = 0; k < G_N_ELEMENTS (gtk_keys); k++)
        if (fires_on_ctrl_shift (shortcut, gtk_keys[k]))
          {
            g_assert_true (GTK_IS_SIGNAL_ACTION (action));
            inspector_keys++;
          }
    }
  /* the walk saw the window's own bindings (Ctrl+T, Ctrl+W, Ctrl+Return...) */
  g_assert_cmpuint (ours, >=, 10);
  g_assert_cmpuint (staging, ==, 1);
  /* and GtkWindow's own: both keys are there, GTK's */
  g_assert_cmpuint (inspector_keys, >=, 2);
}

/* Remote connections: a local endpoint added through the dialog, AWS profiles. */

static void
collect_labels (GtkWidget *widget, GString *out)
{
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (out, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  else if (GTK_IS_INSCRIPTION (widget))
    g_string_append_printf (out, "%s\n", gtk_inscription_get_text (GTK_INSCRIPTION (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    collect_labels (c, out);
}

/* What the sidebar's visible labels say, one per line. */
static char *
sidebar_text (void)
{
  GString *out = g_string_new (NULL);

  gui_settle ();
  collect_labels (GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (gui_window), DY_TYPE_WINDOW,
                                                             "sidebar_list")),
                  out);
  return g_string_free (out, FALSE);
}

/* The sidebar's rows under CONNECTION's row (table names), as its list model holds them. */
static guint
sidebar_tables_under (DyConnection *connection, const char *first, const char *last)
{
  GListModel *rows = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (
    gtk_widget_get_template_child (GTK_WIDGET (gui_window), DY_TYPE_WINDOW, "sidebar_list"))));
  guint n = 0;
  gboolean inside = FALSE;
  g_autofree char *first_seen = NULL;
  g_autofree char *last_seen = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

      if (DY_IS_CONNECTION (object))
        {
          inside = object == G_OBJECT (connection);
          continue;
        }
      if (!inside)
        continue;
      g_assert_cmpuint (gtk_tree_list_row_get_depth (row), ==, 1);
      if (n == 0)
        first_seen = g_strdup (gtk_string_object_get_string (GTK_STRING_OBJECT (object)));
      g_free (last_seen);
      last_seen = g_strdup (gtk_string_object_get_string (GTK_STRING_OBJECT (object)));
      n++;
    }
  if (n > 0)
    {
      g_assert_cmpstr (first_seen, ==, first);
      g_assert_cmpstr (last_seen, ==, last);
    }
  return n;
}

static gboolean
connection_loaded (gpointer data)
{
  return dy_connection_get_loaded (data) && !dy_connection_get_loading (data);
}

static void
set_sidebar_expanded (DyConnection *connection, gboolean expanded)
{
  GListModel *rows = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (
    gtk_widget_get_template_child (GTK_WIDGET (gui_window), DY_TYPE_WINDOW, "sidebar_list"))));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

      if (object == G_OBJECT (connection))
        gtk_tree_list_row_set_expanded (row, expanded);
    }
}

static void
test_endpoint_dialog (void)
{
  AdwMessageDialog *dialog;
  GtkEditable *url;
  DyConnection *c;
  g_autoptr (GSettings) settings = g_settings_new ("io.github.dynoscope.Dynoscope");
  g_autoptr (GVariant) endpoints = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *printed = NULL;
  DyTableView *view;

  if (server_url == NULL)
    {
      g_test_skip ("DYNOSCOPE_CLI (dynoscope-cli) is not set");
      return;
    }

  g_assert_null (dy_window_get_endpoint_dialog (gui_window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.add-endpoint", NULL));
  dialog = dy_window_get_endpoint_dialog (gui_window);
  g_assert_nonnull (dialog);
  url = g_object_get_data (G_OBJECT (dialog), "url-entry");
  /* Add stays off until the URL is one. */
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "add"));
  gtk_editable_set_text (url, "ftp://example");
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "add"));
  gtk_editable_set_text (url, server_url);
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "add"));
  gui_screenshot ("07-add-endpoint.png");
  /* As the Add button does: the response, then the dialog closes. */
  adw_message_dialog_response (dialog, "add");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_null (dy_window_get_endpoint_dialog (gui_window));

  c = dy_window_find_connection (gui_window, DY_CONNECTION_ENDPOINT, server_url);
  g_assert_nonnull (c);
  gui_wait_for (connection_loaded, c, "the endpoint's tables");
  g_assert_null (dy_connection_get_error (c));
  /* Every ListTables page: more tables than one page holds. */
  g_assert_cmpuint (g_list_model_get_n_items (dy_connection_get_tables (c)), ==, N_LOCAL_TABLES + 1);
  gui_settle ();
  g_assert_cmpuint (sidebar_tables_under (c, "Big", "Local102"), ==, N_LOCAL_TABLES + 1);
  text = sidebar_text ();
  g_assert_nonnull (strstr (text, server_url));
  g_assert_nonnull (strstr (text, "Local endpoint · us-east-1"));
  g_assert_nonnull (strstr (text, "Local000"));
  g_assert_nonnull (strstr (text, "Big"));

  /* Remembered for the next start. */
  endpoints = g_settings_get_value (settings, "endpoints");
  expected = g_strdup_printf ("[('%s', 'us-east-1')]", server_url);
  printed = g_variant_print (endpoints, FALSE);
  g_assert_cmpstr (printed, ==, expected);

  /* Its tables open like the demo's, through the same seam. */
  view = dy_window_open_table (gui_window, c, "Local007");
  gui_wait_for (gui_view_ready, view, "DescribeTable over HTTP");
  gui_run (view, "win.run");
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 2);
  set_sidebar_expanded (c, FALSE);
}

static void
test_endpoint_errors (void)
{
  g_autoptr (GError) error = NULL;
  DyConnection *c;
  g_autofree char *text = NULL;

  g_assert_null (dy_window_add_endpoint (gui_window, "localhost:8000/x?y", NULL, FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (dy_window_add_endpoint (gui_window, "http://localhost:8000", "Mars 1", FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);

  /* Nothing listens on port 1: the window says so, with botocore's name for it. */
  c = dy_window_add_endpoint (gui_window, "http://127.0.0.1:1/", NULL, FALSE, NULL);
  g_assert_nonnull (c);
  g_assert_cmpstr (dy_connection_get_url (c), ==, "http://127.0.0.1:1");
  dy_window_expand_connection (gui_window, c);
  gui_wait_for (connection_loaded, c, "the refused connection");
  g_assert_true (g_str_has_prefix (dy_connection_get_error (c), "EndpointConnectionError: "));
  g_assert_nonnull (strstr (dy_connection_get_error (c),
                            "Nothing answered at http://127.0.0.1:1. Is the server running"));
  text = sidebar_text ();
  g_assert_nonnull (strstr (text, "Nothing answered at http://127.0.0.1:1"));
}

static gboolean
profiles_loaded (gpointer data)
{
  return dy_window_get_profiles_loaded (gui_window);
}

static DyConnection *
open_profile (const char *name)
{
  DyConnection *c;

  gui_wait_for (profiles_loaded, NULL, "the AWS profiles");
  c = dy_window_find_connection (gui_window, DY_CONNECTION_PROFILE, name);
  g_assert_nonnull (c);
  /* Closed, and not called, until it is opened. */
  g_assert_false (dy_connection_get_loaded (c));
  g_assert_false (sidebar_expanded (c));
  dy_window_expand_connection (gui_window, c);
  gui_wait_for (connection_loaded, c, name);
  return c;
}

static void
test_profiles (void)
{
  DyConnection *c;
  DyConnection *nokeys, *expired, *noregion;
  g_autofree char *text = NULL;

  if (server_url == NULL)
    {
      g_test_skip ("DYNOSCOPE_CLI (dynoscope-cli) is not set");
      return;
    }
  c = open_profile ("local");

  /* The profile's own region and endpoint_url from the config file, its keys from the
   * credentials file. */
  g_assert_cmpstr (dy_connection_get_subtitle (c), ==, "AWS profile · eu-west-1");
  g_assert_null (dy_connection_get_error (c));
  g_assert_cmpuint (g_list_model_get_n_items (dy_connection_get_tables (c)), ==, N_LOCAL_TABLES + 1);
  gui_settle ();
  g_assert_cmpuint (sidebar_tables_under (c, "Big", "Local102"), ==, N_LOCAL_TABLES + 1);
  set_sidebar_expanded (c, FALSE);

  nokeys = open_profile ("nokeys");
  g_assert_true (g_str_has_prefix (dy_connection_get_error (nokeys), "NoCredentialsError: "));
  g_assert_nonnull (strstr (dy_connection_get_error (nokeys),
                            "Profile “nokeys” has no credentials. Add them with aws configure "
                            "--profile nokeys"));
  expired = open_profile ("expired");
  g_assert_true (g_str_has_prefix (dy_connection_get_error (expired),
                                   "CredentialRetrievalError: "));
  g_assert_nonnull (strstr (dy_connection_get_error (expired),
                            "The credentials of profile “expired” have expired. Refresh them"));
  noregion = open_profile ("noregion");
  g_assert_true (g_str_has_prefix (dy_connection_get_error (noregion), "NoRegionError: "));
  g_assert_nonnull (strstr (dy_connection_get_error (noregion), "Profile “noregion” has no region"));
  g_assert_cmpstr (dy_connection_get_subtitle (noregion), ==, "AWS profile · no region");

  /* The window shows the errors, not just the connection objects. */
  text = sidebar_text ();
  g_assert_nonnull (strstr (text, "AWS profile · us-west-2"));
  g_assert_nonnull (strstr (text, "NoCredentialsError\nProfile “nokeys” has no credentials"));
  g_assert_nonnull (strstr (text, "The credentials of profile “expired” have expired"));
  gui_screenshot ("08-connections.png");
}

/* A database with N_LOCAL_TABLES tables (two items in Local007), served over HTTP by
 * `dynoscope-cli serve`, and AWS config files whose profiles point at it or fail. */
static void
start_server (const char *dir)
{
  const char *cli = g_getenv ("DYNOSCOPE_CLI");
  g_autofree char *db = g_build_filename (dir, "local.db", NULL);
  g_autofree char *config = g_build_filename (dir, "config", NULL);
  g_autofree char *credentials = g_build_filename (dir, "credentials", NULL);
  g_autofree char *script = g_build_filename (dir, "expired.sh", NULL);
  g_autofree char *config_text = NULL;
  g_autoptr (GError) error = NULL;
  DdbBackend *backend;

  if (cli == NULL)
    return;
  /* Before any thread starts: setenv is not thread-safe. */
  g_setenv ("AWS_CONFIG_FILE", config, TRUE);
  g_setenv ("AWS_SHARED_CREDENTIALS_FILE", credentials, TRUE);
  g_unsetenv ("AWS_ACCESS_KEY_ID");
  g_unsetenv ("AWS_SECRET_ACCESS_KEY");
  g_unsetenv ("AWS_SESSION_TOKEN");
  g_unsetenv ("AWS_PROFILE");
  g_unsetenv ("AWS_DEFAULT_PROFILE");
  g_unsetenv ("AWS_REGION");
  g_unsetenv ("AWS_DEFAULT_REGION");
  g_unsetenv ("AWS_ENDPOINT_URL");
  g_unsetenv ("AWS_ENDPOINT_URL_DYNAMODB");
  backend = ddb_backend_open_database (db, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < N_LOCAL_TABLES; i++)
    {
      g_autofree char *name = g_strdup_printf ("Local%03u", i);
      json_t *request = json_pack ("{ss s[{ssss}] s[{ssss}] ss}", "TableName", name,
                                   "AttributeDefinitions", "AttributeName", "pk",
                                   "AttributeType", "S", "KeySchema", "AttributeName", "pk",
                                   "KeyType", "HASH", "BillingMode", "PAY_PER_REQUEST");
      json_t *response = NULL;

      g_assert_true (ddb_backend_call (backend, "CreateTable", request, NULL, &response, &error));
      json_decref (request);
      json_decref (response);
    }
  for (guint i = 0; i < 2; i++)
    {
      json_t *request = json_pack ("{ss s{s{ss}}}", "TableName", "Local007", "Item", "pk", "S",
                                   i == 0 ? "a" : "b");
      json_t *response = NULL;

      g_assert_true (ddb_backend_call (backend, "PutItem", request, NULL, &response, &error));
      json_decref (request);
      json_decref (response);
    }
  {
    json_t *request = json_pack ("{ss s{sbss}}", "TableName", "Local007",
                                 "TimeToLiveSpecification", "Enabled", 1, "AttributeName",
                                 "expiresAt");
    json_t *response = NULL;

    g_assert_true (ddb_backend_call (backend, "UpdateTimeToLive", request, NULL, &response,
                                     &error));
    json_decref (request);
    json_decref (response);
  }
  {
    json_t *create = json_pack ("{ss s[{ssss}] s[{ssss}] ss}", "TableName", "Big",
                                "AttributeDefinitions", "AttributeName", "pk", "AttributeType",
                                "S", "KeySchema", "AttributeName", "pk", "KeyType", "HASH",
                                "BillingMode", "PAY_PER_REQUEST");
    json_t *response = NULL;
    g_autofree char *payload = g_strnfill (200, 'x');

    g_assert_true (ddb_backend_call (backend, "CreateTable", create, NULL, &response, &error));
    json_decref (create);
    json_decref (response);
    for (guint b = 0; b < N_BIG_ITEMS / 25; b++)
      {
        json_t *writes = json_array ();
        json_t *batch;

        for (guint i = 0; i < 25; i++)
          {
            g_autofree char *pk = g_strdup_printf ("item#%04u", b * 25 + i);

            json_array_append_new (writes, json_pack ("{s{s{s{ss}s{ss}}}}", "PutRequest", "Item",
                                                      "pk", "S", pk, "payload", "S", payload));
          }
        batch = json_pack ("{s{so}}", "RequestItems", "Big", writes);
        g_assert_true (ddb_backend_call (backend, "BatchWriteItem", batch, NULL, &response, &error));
        json_decref (batch);
        json_decref (response);
      }
  }
  ddb_backend_free (backend);

  server = gui_start_serve (db, &server_url);

  config_text = g_strdup_printf ("[profile local]\nregion = eu-west-1\nendpoint_url = %s\n\n"
                                 "[profile nokeys]\nregion = us-west-2\n\n"
                                 "[profile expired]\nregion = us-east-1\ncredential_process = %s\n\n"
                                 "[profile noregion]\naws_access_key_id = AKIDNOREGION\n"
                                 "aws_secret_access_key = secret\n",
                                 server_url, script);
  g_assert_true (g_file_set_contents (config, config_text, -1, NULL));
  g_assert_true (g_file_set_contents (credentials, "[local]\naws_access_key_id = AKIDLOCAL\n"
                                      "aws_secret_access_key = local-secret\n", -1, NULL));
  g_assert_true (g_file_set_contents (script, "#!/bin/sh\necho '{\"Version\": 1, "
                                      "\"AccessKeyId\": \"AKIDOLD\", \"SecretAccessKey\": \"s\", "
                                      "\"SessionToken\": \"t\", \"Expiration\": "
                                      "\"2020-01-01T00:00:00Z\"}'\n", -1, NULL));
  g_assert_cmpint (g_chmod (script, 0700), ==, 0);
}

static gboolean
view_described (gpointer data)
{
  return dy_table_view_get_described (data);
}

/* The description popover's text: its grid's labels, one per line. */
static char *
description_text (DyTableView *view)
{
  GString *out = g_string_new (NULL);

  gtk_menu_button_popup (GTK_MENU_BUTTON (gui_child (view, "describe_button")));
  gui_settle ();
  g_assert_true (gtk_widget_get_mapped (gui_child (view, "describe_grid")));
  collect_labels (gui_child (view, "describe_grid"), out);
  return g_string_free (out, FALSE);
}

static void
test_description (void)
{
  DyTableView *view = gui_open_table ("Blog");
  g_autofree char *text = NULL;
  DyConnection *c;
  g_autofree char *local = NULL;

  gui_wait_for (view_described, view, "DescribeTable and DescribeTimeToLive");
  text = description_text (view);
  g_assert_nonnull (strstr (text, "Partition key\nPK (S)\n"));
  g_assert_nonnull (strstr (text, "Sort key\nSK (S)\n"));
  g_assert_nonnull (strstr (text, "Items\n15 items · "));
  g_assert_nonnull (strstr (text, "Billing mode\nPAY_PER_REQUEST\n"));
  g_assert_nonnull (strstr (text, "Time to live\nDISABLED\n"));
  g_assert_nonnull (strstr (text, "GSI ByAuthor\nPartition key\nauthorId (S)\nSort key\n"
                                  "publishedAt (S)\nProjection\nALL\n"));
  gui_screenshot ("09-description.png");
  gtk_menu_button_popdown (GTK_MENU_BUTTON (gui_child (view, "describe_button")));

  /* Over HTTP, with a TTL set. */
  if (server_url == NULL)
    return;
  c = dy_window_find_connection (gui_window, DY_CONNECTION_ENDPOINT, server_url);
  g_assert_nonnull (c);
  view = dy_window_open_table (gui_window, c, "Local007");
  gui_wait_for (view_described, view, "the endpoint's description");
  local = description_text (view);
  g_assert_nonnull (strstr (local, "Time to live\nENABLED on attribute expiresAt\n"));
  g_assert_nonnull (strstr (local, "Items\n2 items · "));
  gtk_menu_button_popdown (GTK_MENU_BUTTON (gui_child (view, "describe_button")));
}

/* Grid: client-side sorting, the column chooser, several filter conditions. */

static GtkColumnViewColumn *
grid_column (DyTableView *view, const char *title)
{
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (gui_child (view, "column_view")));

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        return column;
    }
  g_error ("no column %s", title);
  return NULL;
}

/* The items in the grid's row order. */
static GPtrArray *
grid_items (DyTableView *view)
{
  GListModel *rows = G_LIST_MODEL (dy_table_view_get_rows (view));
  GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      GObject *object = gui_grid_row (rows, i);

      g_assert_true (DY_IS_ITEM (object));
      g_ptr_array_add (items, object);
    }
  return items;
}

static gboolean
sorted (gpointer data)
{
  return !dy_table_view_get_arranging (data);
}

/* Sorting runs a step at a time: wait for its end. */
static void
wait_sorted (DyTableView *view)
{
  gui_settle ();
  gui_wait_for (sorted, view, "the sort");
}

static void
test_grid_sorting (void)
{
  DyTableView *view = gui_open_table ("Orders");
  GtkColumnView *grid = GTK_COLUMN_VIEW (gui_child (view, "column_view"));
  g_autoptr (GPtrArray) by_total = NULL;
  g_autoptr (GPtrArray) by_key = NULL;
  g_autoptr (GPtrArray) descending = NULL;
  gboolean text_order_differs = FALSE;

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (gui_child (view, "limit_spin")), 0);
  gui_set_text (view, "filter_attr_entry", "");
  gui_select_choice (view, "filter_op_dropdown", "none");
  gui_run (view, "win.run");
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 67);

  /* Numbers numerically, as the header click does it. */
  gtk_column_view_sort_by_column (grid, grid_column (view, "total"), GTK_SORT_ASCENDING);
  wait_sorted (view);
  by_total = grid_items (view);
  g_assert_cmpuint (by_total->len, ==, 67);
  for (guint i = 1; i < by_total->len; i++)
    {
      const DdbValue *a = dy_item_get_attribute (by_total->pdata[i - 1], "total");
      const DdbValue *b = dy_item_get_attribute (by_total->pdata[i], "total");
      g_autofree char *ta = ddb_number_to_string (&a->number);
      g_autofree char *tb = ddb_number_to_string (&b->number);

      g_assert_cmpint (ddb_number_compare (&a->number, &b->number), <=, 0);
      if (strcmp (ta, tb) > 0)
        text_order_differs = TRUE;
    }
  /* A text sort would have given another order: this one is numeric. */
  g_assert_true (text_order_differs);

  gtk_column_view_sort_by_column (grid, grid_column (view, "total"), GTK_SORT_DESCENDING);
  wait_sorted (view);
  descending = grid_items (view);
  g_assert_true (descending->pdata[0] == by_total->pdata[66]);

  /* Strings by their bytes. */
  gtk_column_view_sort_by_column (grid, grid_column (view, "CustomerCountryProduct"),
                                  GTK_SORT_ASCENDING);
  wait_sorted (view);
  by_key = grid_items (view);
  for (guint i = 1; i < by_key->len; i++)
    {
      g_autofree char *a = gui_string_attr (by_key->pdata[i - 1], "CustomerCountryProduct");
      g_autofree char *b = gui_string_attr (by_key->pdata[i], "CustomerCountryProduct");

      g_assert_cmpint (strcmp (a, b), <=, 0);
    }
  gui_screenshot ("10-sorted.png");

  /* No sort column: DynamoDB's order again. */
  gtk_column_view_sort_by_column (grid, NULL, GTK_SORT_ASCENDING);
  wait_sorted (view);
  {
    g_autoptr (GPtrArray) again = grid_items (view);

    for (guint i = 0; i < again->len; i++)
      {
        g_autoptr (DyItem) item = g_list_model_get_item (dy_table_view_get_items (view), i);

        g_assert_true (again->pdata[i] == (gpointer) item);
      }
  }
}

static void
test_column_chooser (void)
{
  DyTableView *view = gui_open_table ("Orders");
  GtkColumnViewColumn *status = grid_column (view, "status");
  GtkWidget *box = gui_child (view, "columns_box");
  GtkCheckButton *check = NULL;

  g_assert_true (gtk_column_view_column_get_visible (status));
  gtk_menu_button_popup (GTK_MENU_BUTTON (gui_child (view, "columns_button")));
  gui_settle ();
  for (GtkWidget *w = gtk_widget_get_first_child (box); w != NULL; w = gtk_widget_get_next_sibling (w))
    if (GTK_IS_CHECK_BUTTON (w)
        && g_strcmp0 (gtk_check_button_get_label (GTK_CHECK_BUTTON (w)), "status") == 0)
      check = GTK_CHECK_BUTTON (w);
  g_assert_nonnull (check);
  g_assert_true (gtk_check_button_get_active (check));
  gui_screenshot ("11-columns.png");
  gtk_check_button_set_active (check, FALSE);
  g_assert_false (gtk_column_view_column_get_visible (status));
  gtk_menu_button_popdown (GTK_MENU_BUTTON (gui_child (view, "columns_button")));

  /* Hidden stays hidden when the view runs again. */
  gui_run (view, "win.run");
  g_assert_false (gtk_column_view_column_get_visible (grid_column (view, "status")));
  gtk_column_view_column_set_visible (grid_column (view, "status"), TRUE);
}

static void
test_several_filters (void)
{
  DyTableView *view = gui_open_table ("Orders");
  GtkWidget *rows = gui_child (view, "extra_filters_box");
  GtkWidget *second, *third;
  g_autofree char *request = NULL;
  GListModel *items = dy_table_view_get_items (view);
  guint expected = 0;

  /* What the whole table holds, to count the matches independently. */
  gui_set_text (view, "filter_attr_entry", "");
  gui_select_choice (view, "filter_op_dropdown", "none");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (gui_child (view, "limit_spin")), 0);
  gui_run (view, "win.run");
  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    {
      g_autoptr (DyItem) item = g_list_model_get_item (items, i);
      g_autofree char *st = gui_string_attr (item, "status");
      const DdbValue *qty = dy_item_get_attribute (item, "qty");
      g_autofree char *q = ddb_number_to_string (&qty->number);

      if (g_str_equal (st, "shipped") && g_ascii_strtoll (q, NULL, 10) >= 3)
        expected++;
    }
  g_assert_cmpuint (expected, >, 0);

  gui_set_text (view, "filter_attr_entry", "status");
  gui_select_choice (view, "filter_op_dropdown", "=");
  gui_set_text (view, "filter_value_entry", "shipped");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.add-filter", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.add-filter", NULL));
  second = gtk_widget_get_first_child (rows);
  third = gtk_widget_get_next_sibling (second);
  g_assert_nonnull (third);
  gtk_editable_set_text (g_object_get_data (G_OBJECT (second), "attr"), "qty");
  gtk_drop_down_set_selected (g_object_get_data (G_OBJECT (second), "op"), 6 /* >= */);
  gtk_drop_down_set_selected (g_object_get_data (G_OBJECT (second), "type"), 1 /* N */);
  gtk_editable_set_text (g_object_get_data (G_OBJECT (second), "value"), "3");
  gtk_editable_set_text (g_object_get_data (G_OBJECT (third), "attr"), "orderedAt");
  gtk_editable_set_text (g_object_get_data (G_OBJECT (third), "value"), "never");
  request = dy_table_view_dup_request_text (view);
  g_assert_nonnull (strstr (request, "\"#f2\": \"orderedAt\""));
  gui_screenshot ("12-filters.png");
  /* Its remove button takes the third condition away. */
  g_signal_emit_by_name (g_object_get_data (G_OBJECT (third), "remove"), "clicked");
  g_assert_true (gtk_widget_get_first_child (rows) == second);
  g_assert_null (gtk_widget_get_next_sibling (second));

  gui_run (view, "win.run");
  g_free (request);
  request = dy_table_view_dup_request_text (view);
  g_assert_nonnull (strstr (request, "\"FilterExpression\": \"#f = :f AND #f1 >= :f1\""));
  g_assert_nonnull (strstr (request, "\"#f1\": \"qty\""));
  g_assert_nonnull (strstr (request, "\":f1\": {\n      \"N\": \"3\""));
  g_assert_null (strstr (request, "orderedAt"));
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, expected);
}

/* The seam a request built elsewhere (the expression builder) runs through: it replaces the
 * results as Run does, and Load More follows its LastEvaluatedKey. */
static void
test_run_request (void)
{
  DyTableView *view = gui_open_table ("Workspaces");
  GListModel *items = dy_table_view_get_items (view);
  const char *expected[] = { "PROJ#2026-0042", "PROJ#2026-0041", "PROJ#2026-0040" };
  const char *pk = NULL;
  const char *sk = NULL;
  DdbType pk_type, sk_type;
  json_t *request;
  g_autofree char *text = NULL;
  guint64 scanned;
  guint pages, requests;
  double capacity;

  g_assert_true (dy_table_view_get_key_schema (view, NULL, &pk, &pk_type, &sk, &sk_type));
  g_assert_cmpstr (pk, ==, "EntityRef");
  g_assert_cmpint (pk_type, ==, DDB_TYPE_S);
  g_assert_cmpstr (sk, ==, "Detail");
  g_assert_cmpint (sk_type, ==, DDB_TYPE_S);
  g_assert_false (dy_table_view_get_key_schema (view, "NoSuchIndex", &pk, NULL, NULL, NULL));

  request = json_pack ("{ss ss s{ss ss} s{s{ss} s{ss}} sb si}", "TableName", "Workspaces",
                       "KeyConditionExpression", "#er = :er AND begins_with(#d, :p)",
                       "ExpressionAttributeNames", "#er", "EntityRef", "#d", "Detail",
                       "ExpressionAttributeValues", ":er", "S", "WS#acme", ":p", "S", "PROJ#",
                       "ScanIndexForward", 0, "Limit", 2);
  dy_table_view_run_request (view, "Query", request);
  json_decref (request);
  gui_wait_for (gui_view_idle, view, "the built Query");
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 2);
  g_assert_true (dy_table_view_get_can_load_more (view));
  text = dy_table_view_dup_request_text (view);
  g_assert_nonnull (strstr (text, "\"KeyConditionExpression\": \"#er = :er AND begins_with(#d, :p)\""));

  gui_run (view, "win.load-more");
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr (DyItem) item = g_list_model_get_item (items, i);
      g_autofree char *detail = gui_string_attr (item, "Detail");

      g_assert_cmpstr (detail, ==, expected[i]);
    }
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (requests, ==, 2);
  g_assert_cmpuint (pages, ==, 2);
}

/* Copy As puts on the clipboard what `dynoscope-cli codegen` writes for the request Run would
 * send, aimed at the connection (a database file: `serve`'s default address). */
static void
test_copy_as_python (void)
{
  const char *cli = g_getenv ("DYNOSCOPE_CLI");
  DyTableView *view = gui_open_table ("Workspaces");
  g_autofree char *request = NULL;
  g_autofree char *copied = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  if (cli == NULL)
    {
      g_test_skip ("DYNOSCOPE_CLI (dynoscope-cli) is not set");
      return;
    }
  gui_set_text (view, "pk_entry", "WS#acme");
  gui_select_choice (view, "sk_op_dropdown", "begins_with");
  gui_set_text (view, "sk_entry", "PROJ#");
  gui_settle ();
  request = dy_table_view_dup_request_text (view);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.copy-as", "s", "python"));
  copied = gui_clipboard_text (GTK_WIDGET (view));
  {
    const char *argv[] = { cli, "codegen", "--lang", "python", "--endpoint",
                           "http://127.0.0.1:8000", "Query", request, NULL };
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                 &expected, &err, &status, &error));
  }
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (copied, ==, expected);
  g_assert_nonnull (strstr (copied, "client.query(**request)"));
  g_assert_nonnull (strstr (copied, "\"WS#acme\""));
}

static void
test_collection_flags (void)
{
  DyTableView *view = gui_open_table ("Orders");
  GtkWidget *extra;
  GListModel *rows = G_LIST_MODEL (dy_table_view_get_rows (view));
  GString *shown = g_string_new (NULL);
  g_autofree char *text = NULL;
  guint set_row = G_MAXUINT;
  guint top = 0;

  gui_set_text (view, "filter_attr_entry", "");
  gui_select_choice (view, "filter_op_dropdown", "none");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (gui_child (view, "limit_spin")), 0);
  while ((extra = gtk_widget_get_first_child (gui_child (view, "extra_filters_box"))) != NULL)
    g_signal_emit_by_name (g_object_get_data (G_OBJECT (extra), "remove"), "clicked");
  gui_run (view, "win.run");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.group", NULL));
  gui_settle ();
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = gui_grid_row (rows, i);
      g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

      if (gtk_tree_list_row_get_depth (row) == 0)
        top++;
      if (DY_IS_GROUP (object) && dy_group_is_shard_set (DY_GROUP (object)))
        {
          set_row = i;
          g_assert_cmpstr (dy_group_get_key_text (DY_GROUP (object)), ==, "TENANT#bigco#01…#10");
          g_assert_cmpuint (dy_group_get_n_items (DY_GROUP (object)), ==, 60);
          gtk_tree_list_row_set_expanded (row, TRUE);
        }
    }
  /* The ten shards in one row, beside the two small tenants. */
  g_assert_cmpuint (top, ==, 3);
  g_assert_cmpuint (set_row, !=, G_MAXUINT);
  {
    g_autoptr (GtkTreeListRow) row = gui_grid_row (rows, set_row + 3);
    g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

    g_assert_cmpuint (gtk_tree_list_row_get_depth (row), ==, 1);
    g_assert_cmpstr (dy_group_get_key_text (DY_GROUP (object)), ==, "TENANT#bigco#03");
  }
  gui_settle ();
  collect_labels (gui_child (view, "column_view"), shown);
  text = g_string_free (shown, FALSE);
  g_assert_nonnull (strstr (text, "TENANT#bigco#01…#10 — 60 items"));
  g_assert_nonnull (strstr (text, " · 10 shards (hot key)"));
  g_assert_nonnull (strstr (text, "TENANT#bigco#03 — 6 items"));
  g_assert_nonnull (strstr (text, " · shard 03/10"));
  /* The share of the LSI limit, honestly tiny. */
  g_assert_nonnull (strstr (text, "< 0.01% of 10 GB"));
  gui_screenshot ("13-shards.png");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.group", NULL));
}

/* Long work: Load All reads every page on a worker, shows progress, and stops on Cancel. */

static gboolean
pages_at_least_4 (gpointer data)
{
  guint64 scanned;
  guint pages, requests;
  double capacity;

  dy_table_view_get_stats (data, &scanned, &pages, &requests, &capacity);
  return pages >= 4;
}

static void
test_load_all_cancel (void)
{
  DyConnection *c = dy_window_find_connection (gui_window, DY_CONNECTION_ENDPOINT, server_url);
  DyTableView *view;
  GListModel *items;
  guint64 scanned;
  guint pages, requests, shown;
  double capacity;
  g_autofree char *progress = NULL;
  g_autoptr (GHashTable) keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (server_url == NULL)
    {
      g_test_skip ("DYNOSCOPE_CLI (dynoscope-cli) is not set");
      return;
    }

  g_assert_nonnull (c);
  view = dy_window_open_table (gui_window, c, "Big");
  gui_wait_for (gui_view_ready, view, "DescribeTable of Big");
  items = dy_table_view_get_items (view);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (gui_child (view, "limit_spin")), 20);
  gui_run (view, "win.run");
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 20);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.load-all", NULL));
  g_assert_true (dy_table_view_get_running (view));
  g_assert_true (gtk_widget_get_visible (gui_child (view, "progress_bar")));
  g_assert_true (gtk_widget_get_visible (gui_child (view, "cancel_button")));
  gui_wait_for (pages_at_least_4, view, "four pages");
  progress = g_strdup (gtk_progress_bar_get_text (GTK_PROGRESS_BAR (gui_child (view, "progress_bar"))));
  g_assert_nonnull (strstr (progress, " pages · "));
  g_assert_true (g_str_has_suffix (progress, " items/s"));

  /* Escape's action, as from anywhere in the window. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.cancel", NULL));
  g_assert_false (dy_table_view_get_running (view));
  g_assert_false (gtk_widget_get_visible (gui_child (view, "progress_bar")));
  g_assert_false (gtk_widget_get_visible (gui_child (view, "cancel_button")));
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  shown = g_list_model_get_n_items (items);
  gui_settle ();
  /* Pages still on their way were dropped, not added after the cancel. */
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, shown);
  g_assert_cmpuint (shown, ==, pages * 20);
  g_assert_cmpuint (shown, <, N_BIG_ITEMS);
  g_assert_true (dy_table_view_get_can_load_more (view));

  /* It resumes where it stopped: every item once. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.load-all", NULL));
  /* While it runs: the progress bar and Cancel. */
  gui_screenshot_after ("14-load-all.png", 40);
  gui_wait_for (gui_view_idle, view, "Load All to finish");
  gui_settle ();
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, N_BIG_ITEMS);
  for (guint i = 0; i < N_BIG_ITEMS; i++)
    {
      g_autoptr (DyItem) item = g_list_model_get_item (items, i);

      g_hash_table_add (keys, gui_string_attr (item, "pk"));
    }
  g_assert_cmpuint (g_hash_table_size (keys), ==, N_BIG_ITEMS);
  g_assert_false (dy_table_view_get_can_load_more (view));
  g_assert_false (gtk_widget_get_visible (gui_child (view, "progress_bar")));
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (scanned, ==, N_BIG_ITEMS);
  g_assert_nonnull (strstr (gui_label_text (view, "footer_label"), "2000 items shown"));

  /* So many rows are grouped on a worker: the grid shows them as before until it is done. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.group", NULL));
  g_assert_true (dy_table_view_get_arranging (view));
  wait_sorted (view);
  {
    GListModel *rows = G_LIST_MODEL (dy_table_view_get_rows (view));
    guint top = 0;

    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr (GtkTreeListRow) row = gui_grid_row (rows, i);
        g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

        if (gtk_tree_list_row_get_depth (row) > 0)
          continue;
        top++;
        /* One item per partition key, its size counted (the payload alone is 200 bytes). */
        g_assert_cmpuint (dy_group_get_n_items (DY_GROUP (object)), ==, 1);
        g_assert_cmpuint (dy_group_get_total_size (DY_GROUP (object)), >, 200);
      }
    g_assert_cmpuint (top, ==, N_BIG_ITEMS);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.group", NULL));

  /* And sorted on a worker, by the key's bytes, descending. */
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (gui_child (view, "column_view")),
                                  grid_column (view, "pk"), GTK_SORT_DESCENDING);
  g_assert_true (dy_table_view_get_arranging (view));
  wait_sorted (view);
  {
    g_autoptr (GPtrArray) sorted_items = grid_items (view);
    g_autofree char *first = NULL;

    g_assert_cmpuint (sorted_items->len, ==, N_BIG_ITEMS);
    first = gui_string_attr (sorted_items->pdata[0], "pk");
    g_assert_cmpstr (first, ==, "item#1999");
    for (guint i = 1; i < sorted_items->len; i++)
      {
        g_autofree char *a = gui_string_attr (sorted_items->pdata[i - 1], "pk");
        g_autofree char *b = gui_string_attr (sorted_items->pdata[i], "pk");

        g_assert_cmpint (strcmp (a, b), >, 0);
      }
  }
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (gui_child (view, "column_view")), NULL,
                                  GTK_SORT_ASCENDING);
  wait_sorted (view);
}

int
main (int argc, char **argv)
{
  int status;

  start_server (gui_init (&argc, &argv));

  g_test_add_func ("/gui/tables-listed", test_tables_listed);
  g_test_add_func ("/gui/query-projects-newest-first", test_query_projects_newest_first);
  g_test_add_func ("/gui/grouping", test_grouping);
  g_test_add_func ("/gui/inspector-exact-number", test_inspector_exact_number);
  g_test_add_func ("/gui/scan-filter-nothing-load-more", test_scan_filter_nothing_load_more);
  g_test_add_func ("/gui/tabs", test_tabs);
  g_test_add_func ("/gui/endpoint-dialog", test_endpoint_dialog);
  g_test_add_func ("/gui/endpoint-errors", test_endpoint_errors);
  g_test_add_func ("/gui/profiles", test_profiles);
  g_test_add_func ("/gui/description", test_description);
  g_test_add_func ("/gui/grid-sorting", test_grid_sorting);
  g_test_add_func ("/gui/column-chooser", test_column_chooser);
  g_test_add_func ("/gui/several-filters", test_several_filters);
  g_test_add_func ("/gui/run-request", test_run_request);
  g_test_add_func ("/gui/copy-as-python", test_copy_as_python);
  g_test_add_func ("/gui/collection-flags", test_collection_flags);
  g_test_add_func ("/gui/load-all-cancel", test_load_all_cancel);
  g_test_add_func ("/gui/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/gui/shortcuts-gtk-keys", test_shortcuts_leave_gtk_keys);
  g_test_add_func ("/gui/sidebar-toggle", test_sidebar_toggle);

  status = gui_run_tests ();
  gui_stop_serve (&server);
  g_free (server_url);
  return status;
}
