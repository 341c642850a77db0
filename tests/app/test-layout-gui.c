/* test-layout-gui.c: the table view laid out as a new user meets it, in a 1440×900 window: with
 * the inspector showing an item and the staging panel open, Run is on screen, whole, not covered
 * by anything and works; grouped into item collections, the key columns stay readable. */
#define G_LOG_DOMAIN "test-layout-gui"

#include <glib/gi18n.h>

#include "app/staging/dy-staging.h"
#include "gui-util.h"

#define WINDOW_WIDTH 1440
#define WINDOW_HEIGHT 900
/* A column narrower than this shows a few characters of a key at most. */
#define MIN_COLUMN_WIDTH 80

/* The window's surface, its frame included, is 1440×900. */
static gboolean
window_sized (gpointer data)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (gui_window));

  return surface != NULL && gdk_surface_get_width (surface) == WINDOW_WIDTH
         && gdk_surface_get_height (surface) == WINDOW_HEIGHT;
}

/* A mapped window keeps its size: the window opens at the size it was last closed at. */
static void
remember_window_size (void)
{
  g_autoptr (GSettings) settings = g_settings_new ("io.github.dynoscope.Dynoscope");

  g_settings_set (settings, "window-size", "(ii)", WINDOW_WIDTH, WINDOW_HEIGHT);
  g_settings_set_boolean (settings, "window-maximized", FALSE);
}

static void
size_window (void)
{
  gui_wait_for (window_sized, NULL, "the window to be 1440×900");
  gui_settle ();
}

/* The button of ACTION under WIDGET, leaving out SKIP's (the view's Run: the one of its action
 * row, the stale-results bar has a Run Again). */
static GtkWidget *
find_action_button (GtkWidget *widget, const char *action, GtkWidget *skip)
{
  if (widget == skip)
    return NULL;
  if (GTK_IS_BUTTON (widget)
      && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_action_button (child, action, skip);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Run under LANGUAGE (the tr, it and el runs of this test): the labels are the catalog's,
 * not the English ones, so that what is measured is the translated layout. */
static void
assert_translated (GtkWidget *button, const char *english)
{
  const char *language = g_getenv ("LANGUAGE");

  if (language == NULL || *language == '\0' || g_str_has_prefix (language, "en"))
    return;
  g_assert_nonnull (gtk_button_get_label (GTK_BUTTON (button)));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), !=, english);
}

/* WIDGET's bounds in ANCESTOR's coordinates lie within ANCESTOR's own allocation. */
static void
assert_inside (GtkWidget *widget, GtkWidget *ancestor)
{
  graphene_rect_t bounds;
  graphene_rect_t area;

  g_assert_true (gtk_widget_compute_bounds (widget, ancestor, &bounds));
  graphene_rect_init (&area, 0, 0, gtk_widget_get_width (ancestor),
                      gtk_widget_get_height (ancestor));
  if (!graphene_rect_contains_rect (&area, &bounds))
    g_error ("%s (%g,%g %g×%g) is cut off by %s (%d×%d)", G_OBJECT_TYPE_NAME (widget),
             bounds.origin.x, bounds.origin.y, bounds.size.width, bounds.size.height,
             G_OBJECT_TYPE_NAME (ancestor), gtk_widget_get_width (ancestor),
             gtk_widget_get_height (ancestor));
}

/* WIDGET is drawn whole and nothing lies over it: each ancestor's allocation holds it, and the
 * window's topmost widget at its centre is it (or a part of it). */
static void
assert_reachable (GtkWidget *widget)
{
  GtkWidget *window = GTK_WIDGET (gui_window);
  graphene_point_t centre;
  graphene_point_t at;
  GtkWidget *picked;

  g_assert_true (gtk_widget_get_mapped (widget));
  g_assert_true (gtk_widget_is_drawable (widget));
  for (GtkWidget *ancestor = gtk_widget_get_parent (widget); ancestor != NULL;
       ancestor = gtk_widget_get_parent (ancestor))
    assert_inside (widget, ancestor);
  graphene_point_init (&centre, gtk_widget_get_width (widget) / 2.0,
                       gtk_widget_get_height (widget) / 2.0);
  g_assert_true (gtk_widget_compute_point (widget, window, &centre, &at));
  /* a control disabled for now (Load More with no page left) is still to be reachable */
  picked = gtk_widget_pick (window, at.x, at.y, GTK_PICK_INSENSITIVE);
  g_assert_nonnull (picked);
  if (picked != widget && !gtk_widget_is_ancestor (picked, widget))
    g_error ("%s lies over %s", G_OBJECT_TYPE_NAME (picked), G_OBJECT_TYPE_NAME (widget));
}

/* Every control of the filter row ROW (one of its lines) is reachable. */
static void
assert_row_reachable (GtkWidget *row)
{
  for (GtkWidget *child = gtk_widget_get_first_child (row); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_get_visible (child))
      assert_reachable (child);
}

static DyItem *wanted_item;

static gboolean
inspector_shows (gpointer data)
{
  return dy_inspector_get_item (dy_table_view_get_inspector (data)) == wanted_item;
}

static gboolean
staging_read (gpointer data)
{
  return !dy_staging_get_loading (dy_staging_get_default (), gui_demo_connection ());
}

/* A button activated shows itself pressed a moment before it is clicked. */
static gboolean
one_item_shown (gpointer data)
{
  return !dy_table_view_get_running (data)
         && g_list_model_get_n_items (dy_table_view_get_items (data)) == 1;
}

static void
test_run_reachable_with_panels (void)
{
  DyTableView *view;
  GtkWidget *run;
  GtkWidget *commit;
  GtkWidget *more;
  g_autoptr (GObject) first = NULL;
  guint64 scanned;
  guint pages, requests;
  double capacity;

  size_window ();
  gui_wait_for (gui_demo_tables_listed, NULL, "the demo tables");
  view = gui_open_table ("Blog");
  gui_run (view, "win.run");

  /* The inspector shows the first item; the staging panel opens beside the tabs. */
  first = g_list_model_get_item (G_LIST_MODEL (dy_table_view_get_rows (view)), 0);
  g_assert_true (DY_IS_ITEM (first));
  wanted_item = DY_ITEM (first);
  gtk_selection_model_select_item (dy_table_view_get_rows (view), 0, TRUE);
  gui_wait_for (inspector_shows, view, "the inspector to show the selected item");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.toggle-staging", NULL));
  gui_wait_for (staging_read, NULL, "the staged changes to be read");
  /* the panel slides in */
  gui_settle_for (800);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (dy_window_get_staging_panel (gui_window))));
  g_assert_true (window_sized (NULL));
  gui_screenshot ("50-layout-panels.png");

  run = find_action_button (GTK_WIDGET (view), "view.run", gui_child (view, "stale_revealer"));
  g_assert_nonnull (run);
  g_assert_true (gtk_widget_get_sensitive (run));
  assert_reachable (run);
  /* The staging panel's Commit All, whole and uncovered beside the tabs. */
  commit = find_action_button (GTK_WIDGET (dy_window_get_staging_panel (gui_window)),
                               "panel.commit-all", NULL);
  g_assert_nonnull (commit);
  assert_reachable (commit);
  assert_translated (commit, "Co_mmit All");
  /* and so is every other action of the filter row, from the index picker to the menu */
  assert_row_reachable (gtk_widget_get_parent (gui_child (view, "index_dropdown")));
  assert_row_reachable (gtk_widget_get_parent (gui_child (view, "filter_attr_entry")));
  assert_row_reachable (gtk_widget_get_parent (run));

  /* Show Request went to the overflow menu beside Run: its check item shows the request. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.show-request", NULL));
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (gui_child (view, "request_revealer"))));
  more = gtk_widget_get_next_sibling (run);
  g_assert_true (GTK_IS_MENU_BUTTON (more));
  gtk_menu_button_popup (GTK_MENU_BUTTON (more));
  gui_screenshot ("53-layout-more-menu.png");
  gtk_menu_button_popdown (GTK_MENU_BUTTON (more));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.show-request", NULL));
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (gui_child (view, "request_revealer"))));

  /* Clicked, it runs the filter row's Query (one user's partition, where the Scan read 15). */
  gui_set_text (view, "pk_entry", "USER#12");
  gtk_widget_activate (run);
  gui_wait_for (one_item_shown, view, "the Query to run");
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (requests, ==, 1);
  gui_set_text (view, "pk_entry", "");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.toggle-staging", NULL));
  gui_settle ();
}

static gboolean
is_label (GtkWidget *widget, const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (is_label (child, text))
      return TRUE;
  return FALSE;
}

typedef struct {
  int width; /* the column's */
  int shown; /* of it, within the scrolled window around the grid */
} ColumnWidth;

/* The widths of the grid's column titled TITLE, read from its header (GtkColumnView's headers
 * are private widgets: the header row is the grid's first child, a column's title each of its
 * children). */
static ColumnWidth
column_width (GtkColumnView *grid, const char *title)
{
  GtkWidget *window = gtk_widget_get_parent (GTK_WIDGET (grid));
  GtkWidget *header = gtk_widget_get_first_child (GTK_WIDGET (grid));

  g_assert_true (GTK_IS_SCROLLED_WINDOW (window));
  for (GtkWidget *column = gtk_widget_get_first_child (header); column != NULL;
       column = gtk_widget_get_next_sibling (column))
    if (is_label (column, title))
      {
        graphene_rect_t bounds;
        graphene_rect_t area;
        graphene_rect_t shown;
        ColumnWidth width = { 0, 0 };

        g_assert_true (gtk_widget_compute_bounds (column, window, &bounds));
        graphene_rect_init (&area, 0, 0, gtk_widget_get_width (window),
                            gtk_widget_get_height (window));
        width.width = (int) bounds.size.width;
        if (graphene_rect_intersection (&area, &bounds, &shown))
          width.shown = (int) shown.size.width;
        g_test_message ("column %s: %d px, %d shown", title, width.width, width.shown);
        return width;
      }
  g_error ("no column %s in the grid", title);
  return (ColumnWidth) { 0, 0 };
}

static void
test_collection_key_columns (void)
{
  DyTableView *view;
  GtkColumnView *grid;
  /* the tree column's title is the catalog's (the tr, it and el runs); the others are attributes */
  const char *columns[] = { _ ("Collection"), "EntityRef", "Detail" };
  g_autoptr (GtkTreeListRow) row = NULL;
  g_autoptr (GObject) item = NULL;

  size_window ();
  view = gui_open_table ("Workspaces");
  grid = GTK_COLUMN_VIEW (gui_child (view, "column_view"));
  gui_run (view, "win.run");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.group", NULL));
  g_assert_true (dy_table_view_get_grouped (view));
  gui_settle ();
  /* The inspector shows an item of the first collection (grouping opens it). */
  row = g_list_model_get_item (G_LIST_MODEL (dy_table_view_get_rows (view)), 1);
  item = gtk_tree_list_row_get_item (row);
  g_assert_true (DY_IS_ITEM (item));
  wanted_item = DY_ITEM (item);
  gtk_selection_model_select_item (dy_table_view_get_rows (view), 1, TRUE);
  gui_wait_for (inspector_shows, view, "the inspector to show the selected item");
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (grid)), 0);
  gui_settle ();
  gui_screenshot ("51-layout-collections.png");
  /* The Collection column leaves room for the key columns beside it. */
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    g_assert_cmpint (column_width (grid, columns[i]).shown, >=, MIN_COLUMN_WIDTH);

  /* With the staging panel too, the grid scrolls sideways to the sort key; no column shrinks,
   * and the partition key still shows beside the collections. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.toggle-staging", NULL));
  gui_wait_for (staging_read, NULL, "the staged changes to be read");
  gui_settle_for (800);
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (grid)), 0);
  gui_settle ();
  gui_screenshot ("52-layout-collections-panels.png");
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    g_assert_cmpint (column_width (grid, columns[i]).width, >=, MIN_COLUMN_WIDTH);
  g_assert_cmpint (column_width (grid, "EntityRef").shown, >=, MIN_COLUMN_WIDTH);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.toggle-staging", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.group", NULL));
  gui_settle ();
}

int
main (int argc, char **argv)
{
  gui_init (&argc, &argv);
  remember_window_size ();
  g_test_add_func ("/layout-gui/run-reachable-with-panels", test_run_reachable_with_panels);
  g_test_add_func ("/layout-gui/collection-key-columns", test_collection_key_columns);
  return gui_run_tests ();
}
