/* test-layout-gui.c: the table view laid out as a new user meets it, at the window size
 * DYNOSCOPE_LAYOUT_SIZE (WIDTHxHEIGHT: 1366x768, the most common laptop screen, and 1920x1080,
 * each in English and the three translations; meson runs all eight): with the inspector showing an
 * item and the staging panel open, the grid keeps at least 55 % of the window's width, Run is on
 * screen, whole, not covered by anything and works; the inspector takes no room while nothing is
 * selected, collapses and comes back with Shift+F9, sits below the grid by a setting and keeps
 * the size it is dragged to; grouped into item collections, the key columns stay readable; at
 * 1920x1080 every column header of the demo tables is readable. */
#define G_LOG_DOMAIN "test-layout-gui"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "app/staging/dy-staging.h"
#include "gui-util.h"

/* A column narrower than this shows a few characters of a key at most. */
#define MIN_COLUMN_WIDTH 80
/* The share of the window's width the grid keeps with both panels shown. */
#define GRID_SHARE 0.55

static int window_width = 1366;
static int window_height = 768;

/* NAME with the window's size before its extension: "50-layout-panels-1366x768.png". */
static char *
sized_name (const char *name)
{
  const char *dot = strrchr (name, '.');

  return g_strdup_printf ("%.*s-%dx%d%s", (int) (dot - name), name, window_width, window_height,
                          dot);
}

static void
screenshot (const char *name)
{
  g_autofree char *sized = sized_name (name);

  gui_screenshot (sized);
}

/* The window's surface, its frame included, has the size asked for. */
static gboolean
window_sized (gpointer data)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (gui_window));

  return surface != NULL && gdk_surface_get_width (surface) == window_width
         && gdk_surface_get_height (surface) == window_height;
}

/* A mapped window keeps its size: the window opens at the size it was last closed at. */
static void
remember_window_size (void)
{
  g_autoptr (GSettings) settings = g_settings_new ("io.github.dynoscope.Dynoscope");
  const char *size = g_getenv ("DYNOSCOPE_LAYOUT_SIZE");

  if (size != NULL && sscanf (size, "%dx%d", &window_width, &window_height) != 2)
    g_error ("DYNOSCOPE_LAYOUT_SIZE=%s is not WIDTHxHEIGHT", size);
  g_settings_set (settings, "window-size", "(ii)", window_width, window_height);
  g_settings_set_boolean (settings, "window-maximized", FALSE);
}

static void
size_window (void)
{
  gui_wait_for (window_sized, NULL, "the window to have the size asked for");
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

/* The staging panel has slid in over the view DATA's grid (or out of it, when hidden). */
static gboolean
staging_revealed (gpointer data)
{
  AdwFlap *flap = dy_table_view_get_staging_flap (data);

  return adw_flap_get_flap (flap) == GTK_WIDGET (dy_window_get_staging_panel (gui_window))
         && adw_flap_get_reveal_progress (flap) == 1.0;
}

static gboolean
staging_hidden (gpointer data)
{
  return adw_flap_get_reveal_progress (dy_table_view_get_staging_flap (data)) == 0.0;
}

static void
show_staging (DyTableView *view, gboolean shown)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.toggle-staging", NULL));
  if (shown)
    {
      gui_wait_for (staging_read, NULL, "the staged changes to be read");
      gui_wait_for (staging_revealed, view, "the staging panel to slide in over the grid");
    }
  else
    gui_wait_for (staging_hidden, view, "the staging panel to slide out");
  gui_settle ();
}

/* How much of the grid is in sight: the width of its scrolled window in the window that
 * nothing lies over (the staging panel slides over its end side). */
static int
grid_visible_width (DyTableView *view)
{
  GtkWidget *grid = gtk_widget_get_parent (gui_child (view, "column_view"));
  GtkWidget *panel = GTK_WIDGET (dy_window_get_staging_panel (gui_window));
  graphene_rect_t bounds, over;
  double start, end;

  g_assert_true (gtk_widget_compute_bounds (grid, GTK_WIDGET (gui_window), &bounds));
  start = bounds.origin.x;
  end = bounds.origin.x + bounds.size.width;
  if (gtk_widget_get_mapped (panel)
      && gtk_widget_compute_bounds (panel, GTK_WIDGET (gui_window), &over)
      && over.origin.x < end && over.origin.x + over.size.width > start)
    end = MAX (start, over.origin.x);
  return (int) (end - start);
}

static void
assert_grid_share (DyTableView *view, const char *state)
{
  int shown = grid_visible_width (view);
  int width = gtk_widget_get_width (GTK_WIDGET (gui_window));

  g_test_message ("%s, %dx%d, LANGUAGE=%s: the grid shows %d px of %d (%.1f %%); the "
                  "inspector is %d px wide, the staging panel %d px, the view %d px", state,
                  window_width, window_height, g_getenv ("LANGUAGE"), shown, width,
                  100.0 * shown / width,
                  gtk_widget_get_width (GTK_WIDGET (dy_table_view_get_inspector (view))),
                  gtk_widget_get_width (GTK_WIDGET (dy_window_get_staging_panel (gui_window))),
                  gtk_widget_get_width (GTK_WIDGET (view)));
  if (shown < GRID_SHARE * width)
    g_error ("%s: the grid shows %d px of the window's %d, less than %.0f %%", state, shown,
             width, 100 * GRID_SHARE);
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
  first = gui_grid_row (G_LIST_MODEL (dy_table_view_get_rows (view)), 0);
  g_assert_true (DY_IS_ITEM (first));
  wanted_item = DY_ITEM (first);
  gtk_selection_model_select_item (dy_table_view_get_rows (view), 0, TRUE);
  gui_wait_for (inspector_shows, view, "the inspector to show the selected item");
  gui_settle ();
  assert_grid_share (view, "a row inspected");
  show_staging (view, TRUE);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (dy_window_get_staging_panel (gui_window))));
  g_assert_true (window_sized (NULL));
  screenshot ("50-layout-panels.png");
  assert_grid_share (view, "a row inspected and staging shown");

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
  screenshot ("53-layout-more-menu.png");
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

  show_staging (view, FALSE);
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
  row = gui_grid_row (G_LIST_MODEL (dy_table_view_get_rows (view)), 1);
  item = gtk_tree_list_row_get_item (row);
  g_assert_true (DY_IS_ITEM (item));
  wanted_item = DY_ITEM (item);
  gtk_selection_model_select_item (dy_table_view_get_rows (view), 1, TRUE);
  gui_wait_for (inspector_shows, view, "the inspector to show the selected item");
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (grid)), 0);
  gui_settle ();
  screenshot ("51-layout-collections.png");
  /* The Collection column leaves room for the key columns beside it. */
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    g_assert_cmpint (column_width (grid, columns[i]).shown, >=, MIN_COLUMN_WIDTH);

  /* With the staging panel too, the grid scrolls sideways to the sort key; no column shrinks,
   * and the partition key still shows beside the collections. */
  show_staging (view, TRUE);
  gtk_adjustment_set_value (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (grid)), 0);
  gui_settle ();
  screenshot ("52-layout-collections-panels.png");
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    g_assert_cmpint (column_width (grid, columns[i]).width, >=, MIN_COLUMN_WIDTH);
  g_assert_cmpint (column_width (grid, "EntityRef").shown, >=, MIN_COLUMN_WIDTH);

  show_staging (view, FALSE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.group", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.close-tab", NULL));
  gui_settle ();
}

/* The inspector's pane: no room while nothing is selected, Shift+F9 collapses and restores it,
 * the size dragged to is remembered (and followed by every tab), below the grid by a setting,
 * New Item opens it even when collapsed. */

static DyTableView *pane_view;
static int wanted_size;

static GtkWidget *
inspector_widget (void)
{
  return GTK_WIDGET (dy_table_view_get_inspector (pane_view));
}

static gboolean
inspector_hidden (gpointer data)
{
  return !gtk_widget_get_visible (inspector_widget ());
}

/* The inspector is shown and laid out at WANTED_SIZE along the pane (DATA: "below"). */
static gboolean
inspector_sized (gpointer data)
{
  GtkWidget *inspector = inspector_widget ();

  return gtk_widget_get_mapped (inspector)
         && (data != NULL ? gtk_widget_get_height (inspector) : gtk_widget_get_width (inspector))
                == wanted_size;
}

static gboolean
setting_is (gpointer data)
{
  g_autoptr (GSettings) settings = g_settings_new ("io.github.dynoscope.Dynoscope");

  return g_settings_get_int (settings, data) == wanted_size;
}

static void
test_inspector_pane (void)
{
  g_autoptr (GSettings) settings = g_settings_new ("io.github.dynoscope.Dynoscope");
  GtkPaned *panes;
  GtkWidget *grid;
  g_autoptr (GObject) first = NULL;
  const char *shift_f9 = "win.inspector-visible";

  size_window ();
  pane_view = gui_open_table ("Orders");
  panes = GTK_PANED (gui_child (pane_view, "panes"));
  grid = gtk_paned_get_start_child (panes);
  gui_run (pane_view, "win.run");
  gtk_selection_model_unselect_all (dy_table_view_get_rows (pane_view));
  gui_settle ();

  /* Nothing selected: the grid has the pane's whole width. */
  if (dy_inspector_get_item (dy_table_view_get_inspector (pane_view)) == NULL)
    {
      g_assert_false (gtk_widget_get_visible (inspector_widget ()));
      g_assert_cmpint (gtk_widget_get_width (grid), ==, gtk_widget_get_width (GTK_WIDGET (panes)));
    }
  first = gui_grid_row (G_LIST_MODEL (dy_table_view_get_rows (pane_view)), 0);
  wanted_item = DY_ITEM (first);
  gtk_selection_model_select_item (dy_table_view_get_rows (pane_view), 0, TRUE);
  gui_wait_for (inspector_shows, pane_view, "the inspector to show the selected item");
  wanted_size = g_settings_get_int (settings, "inspector-width");
  gui_wait_for (inspector_sized, NULL, "the inspector at its remembered width");

  /* Shift+F9 collapses it (remembered), and brings it back. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), shift_f9, NULL));
  gui_wait_for (inspector_hidden, NULL, "Shift+F9 to collapse the inspector");
  g_assert_false (g_settings_get_boolean (settings, "inspector-visible"));
  gui_settle ();
  g_assert_cmpint (gtk_widget_get_width (grid), ==, gtk_widget_get_width (GTK_WIDGET (panes)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), shift_f9, NULL));
  gui_wait_for (inspector_sized, NULL, "Shift+F9 to restore the inspector at its width");
  g_assert_true (g_settings_get_boolean (settings, "inspector-visible"));

  /* Dragged 60 px wider: the setting follows, and a size set elsewhere is taken up. */
  gui_settle ();
  g_assert_true (inspector_sized (NULL));
  wanted_size += 60;
  gtk_paned_set_position (panes, gtk_paned_get_position (panes) - 60);
  gui_wait_for (setting_is, (gpointer) "inspector-width", "the dragged width to be remembered");
  gui_wait_for (inspector_sized, NULL, "the inspector at the dragged width");
  wanted_size = 400;
  g_settings_set_int (settings, "inspector-width", wanted_size);
  gui_wait_for (inspector_sized, NULL, "the inspector at the width set in another tab");

  /* Below the grid, at its own remembered height; then beside again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.inspector-position",
                                             "s", "below"));
  wanted_size = g_settings_get_int (settings, "inspector-height");
  gui_wait_for (inspector_sized, (gpointer) "below", "the inspector below the grid");
  g_assert_cmpint (gtk_orientable_get_orientation (GTK_ORIENTABLE (panes)), ==,
                   GTK_ORIENTATION_VERTICAL);
  g_assert_cmpint (gtk_widget_get_width (grid), ==, gtk_widget_get_width (GTK_WIDGET (panes)));
  show_staging (pane_view, TRUE);
  screenshot ("54-layout-inspector-below.png");
  assert_grid_share (pane_view, "the inspector below, staging shown");
  show_staging (pane_view, FALSE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.inspector-position",
                                             "s", "beside"));
  wanted_size = 400;
  gui_wait_for (inspector_sized, NULL, "the inspector beside the grid again");

  /* Collapsed, New Item (the view's menu) opens it on a new item. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), shift_f9, NULL));
  gui_wait_for (inspector_hidden, NULL, "Shift+F9 to collapse the inspector");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (pane_view), "view.new-item", NULL));
  gui_wait_for (inspector_sized, NULL, "New Item to open the inspector");
  g_assert_true (dy_inspector_get_creating (dy_table_view_get_inspector (pane_view)));
  g_assert_true (g_settings_get_boolean (settings, "inspector-visible"));
  g_settings_reset (settings, "inspector-width");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.close-tab", NULL));
  gui_settle ();
}

/* Every column header of the demo tables is readable with a row inspected and staging shown:
 * its title whole (not ellipsized) and, at 1920x1080, the whole column in sight without
 * scrolling, nothing lying over it. */
static gboolean
label_ellipsized (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget)
      && pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (widget))))
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (label_ellipsized (child))
      return TRUE;
  return FALSE;
}

static void
test_headers_readable (void)
{
  const char *tables[] = { "Blog", "Orders", "Workspaces" };
  gboolean whole = window_width >= 1920;

  size_window ();
  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    {
      DyTableView *view = gui_open_table (tables[t]);
      GtkWidget *grid = gui_child (view, "column_view");
      GtkWidget *header = gtk_widget_get_first_child (grid);
      g_autoptr (GObject) first = NULL;
      int visible, columns = 0;
      graphene_rect_t area;

      gui_run (view, "win.run");
      first = gui_grid_row (G_LIST_MODEL (dy_table_view_get_rows (view)), 0);
      wanted_item = DY_ITEM (first);
      gtk_selection_model_select_item (dy_table_view_get_rows (view), 0, TRUE);
      gui_wait_for (inspector_shows, view, "the inspector to show the selected item");
      show_staging (view, TRUE);
      screenshot (tables[t][0] == 'B' ? "55-layout-headers-blog.png"
                  : tables[t][0] == 'O' ? "56-layout-headers-orders.png"
                                        : "57-layout-headers-workspaces.png");
      visible = grid_visible_width (view);
      g_assert_true (gtk_widget_compute_bounds (gtk_widget_get_parent (grid),
                                                GTK_WIDGET (gui_window), &area));
      for (GtkWidget *column = gtk_widget_get_first_child (header); column != NULL;
           column = gtk_widget_get_next_sibling (column))
        {
          graphene_rect_t bounds;

          if (!gtk_widget_get_mapped (column))
            continue;
          columns++;
          if (label_ellipsized (column))
            g_error ("%s: a column's title is cut short", tables[t]);
          if (!whole)
            continue;
          g_assert_true (gtk_widget_compute_bounds (column, GTK_WIDGET (gui_window), &bounds));
          if (bounds.origin.x < area.origin.x
              || bounds.origin.x + bounds.size.width > area.origin.x + visible + 0.5)
            g_error ("%s: a column (%g..%g) lies outside the grid's %d px in sight", tables[t],
                     bounds.origin.x, bounds.origin.x + bounds.size.width, visible);
        }
      g_test_message ("%s: %d columns, %d px of grid in sight", tables[t], columns, visible);
      g_assert_cmpint (columns, >=, 3);
      show_staging (view, FALSE);
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.close-tab", NULL));
      gui_settle ();
    }
}

int
main (int argc, char **argv)
{
  gui_init (&argc, &argv);
  remember_window_size ();
  g_test_add_func ("/layout-gui/run-reachable-with-panels", test_run_reachable_with_panels);
  g_test_add_func ("/layout-gui/collection-key-columns", test_collection_key_columns);
  g_test_add_func ("/layout-gui/inspector-pane", test_inspector_pane);
  g_test_add_func ("/layout-gui/headers-readable", test_headers_readable);
  return gui_run_tests ();
}
