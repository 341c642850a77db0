/* test-find-gui.c: Find in Loaded Rows in the real app. A table of 3,000 items (so that the
 * finding runs on a worker, as for a big table) made through the demo connection: Ctrl+Shift+F's
 * bar keeps the loaded rows holding a text in a value, whatever its case, a number as the grid
 * shows it, and says how many of the loaded rows it kept; it keeps them sorted by a column and
 * grouped into item collections; a text in no row leaves the grid empty; closing the bar gives
 * every row back. */
#define G_LOG_DOMAIN "test-find-gui"

#include <string.h>

#include "app/browser/dy-group.h"
#include "gui-util.h"

#define TABLE "Finds"
#define N_ITEMS 3000

/* Item I: in collection "T#<I/3>", sort key I, a name ("Needle I" every seventh, else
 * "hay I"), an amount "I.25" and a flag. */
static gboolean
is_needle (guint i)
{
  return i % 7 == 0;
}

static void
create_table (void)
{
  g_autoptr (GError) error = NULL;
  DdbBackend *backend;

  gui_wait_for (gui_demo_tables_listed, NULL, "the demo database");
  backend = dy_connection_open_backend (gui_demo_connection (), 0, &error);
  g_assert_no_error (error);
  gui_call (backend, "CreateTable",
            json_pack ("{ss s[{ssss}{ssss}] s[{ssss}{ssss}] ss}", "TableName", TABLE,
                       "AttributeDefinitions", "AttributeName", "pk", "AttributeType", "S",
                       "AttributeName", "sk", "AttributeType", "N", "KeySchema", "AttributeName",
                       "pk", "KeyType", "HASH", "AttributeName", "sk", "KeyType", "RANGE",
                       "BillingMode", "PAY_PER_REQUEST"));
  for (guint i = 0; i < N_ITEMS; i += 25)
    {
      json_t *puts = json_array ();

      for (guint j = i; j < i + 25; j++)
        {
          g_autofree char *pk = g_strdup_printf ("T#%u", j / 3);
          g_autofree char *sk = g_strdup_printf ("%u", j);
          g_autofree char *name = g_strdup_printf ("%s %u", is_needle (j) ? "Needle" : "hay", j);
          g_autofree char *amount = g_strdup_printf ("%u.25", j);

          json_array_append_new (puts,
                                 json_pack ("{s{s{s{ss}s{ss}s{ss}s{ss}s{sb}}}}", "PutRequest",
                                            "Item", "pk", "S", pk, "sk", "N", sk, "name", "S", name,
                                            "amount", "N", amount, "flag", "BOOL", j % 2));
        }
      gui_call (backend, "BatchWriteItem", json_pack ("{s{so}}", "RequestItems", TABLE, puts));
    }
  ddb_backend_free (backend);
}

typedef struct {
  DyTableView *view;
  guint n;
} Shown;

static gboolean
arranged (gpointer data)
{
  return !dy_table_view_get_arranging (data);
}

static gboolean
shows (gpointer data)
{
  Shown *s = data;

  return !dy_table_view_get_arranging (s->view)
         && g_list_model_get_n_items (G_LIST_MODEL (dy_table_view_get_rows (s->view))) == s->n;
}

/* Types TEXT into the bar (as the search entry reports it, after its pause) and waits for the
 * grid to show N rows. */
static void
find (DyTableView *view, const char *text, guint n)
{
  Shown s = { view, n };
  g_autofree char *what = g_strdup_printf ("\"%s\" to keep %u rows", text, n);

  gui_set_text (view, "find_entry", text);
  gui_wait_for (shows, &s, what);
}

/* The items the grid shows, as their sort keys. */
static GArray *
shown_keys (DyTableView *view)
{
  GListModel *rows = G_LIST_MODEL (dy_table_view_get_rows (view));
  GArray *keys = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GObject) object = gui_grid_row (rows, i);
      DyItem *item;
      g_autofree char *text = NULL;
      guint key;

      if (GTK_IS_TREE_LIST_ROW (object))
        {
          g_autoptr (GObject) inner = gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (object));

          if (!DY_IS_ITEM (inner))
            continue;
          item = DY_ITEM (inner);
          text = ddb_number_to_string (&dy_item_get_attribute (item, "sk")->number);
        }
      else
        {
          item = DY_ITEM (object);
          text = ddb_number_to_string (&dy_item_get_attribute (item, "sk")->number);
        }
      key = (guint) g_ascii_strtoull (text, NULL, 10);
      g_array_append_val (keys, key);
    }
  return keys;
}

typedef struct {
  double y;
  const char *text;
} Cell;

static int
compare_cells (gconstpointer a, gconstpointer b)
{
  double ya = ((const Cell *) a)->y, yb = ((const Cell *) b)->y;

  return ya < yb ? -1 : ya > yb;
}

static void
collect_cells (GtkWidget *widget, GtkWidget *grid, GArray *cells)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      graphene_point_t at;

      if (GTK_IS_INSCRIPTION (child)
          && g_strcmp0 (g_object_get_data (G_OBJECT (child), "attribute"), "sk") == 0
          && gtk_widget_get_mapped (child)
          && gtk_widget_compute_point (child, grid, &GRAPHENE_POINT_INIT (0, 0), &at) && at.y >= 0
          && at.y < gtk_widget_get_height (grid))
        {
          Cell cell = { at.y, gtk_inscription_get_text (GTK_INSCRIPTION (child)) };

          g_array_append_val (cells, cell);
        }
      collect_cells (child, grid, cells);
    }
}

/* Whether the cells the grid draws (its "sk" column, top to bottom, at least a few) show its
 * first rows' values, once laid out: the cells follow the rows given to their slots. */
static gboolean
cells_show_rows (gpointer data)
{
  GtkWidget *grid = gui_child (data, "column_view");
  g_autoptr (GArray) cells = g_array_new (FALSE, FALSE, sizeof (Cell));
  g_autoptr (GArray) keys = shown_keys (data);

  collect_cells (grid, grid, cells);
  g_array_sort (cells, compare_cells);
  if (cells->len <= 5 || cells->len > keys->len)
    return FALSE;
  for (guint i = 0; i < cells->len; i++)
    {
      g_autofree char *want = g_strdup_printf ("%u", g_array_index (keys, guint, i));

      if (g_strcmp0 (g_array_index (cells, Cell, i).text, want) != 0)
        return FALSE;
    }
  return TRUE;
}

static void
assert_cells_show_rows (DyTableView *view)
{
  gui_wait_for (cells_show_rows, view, "the cells drawn showing the first rows");
}

/* The most row widgets GTK made, and destroyed, in one main-loop iteration, counted by one
 * column's cells (GTK 4.8 makes every cell of every column of a row at once: a couple of hundred
 * rows in one iteration stalled the window half a second). A source whose prepare runs once per
 * iteration closes each count. */
typedef struct {
  GSource source;
  guint made, gone;
  guint most_made, most_gone;
  guint all_made, all_gone;
} Churn;

static gboolean
churn_prepare (GSource *source, int *timeout)
{
  Churn *churn = (Churn *) source;

  churn->most_made = MAX (churn->most_made, churn->made);
  churn->most_gone = MAX (churn->most_gone, churn->gone);
  churn->made = churn->gone = 0;
  *timeout = -1;
  return FALSE;
}

static GSourceFuncs churn_funcs = { churn_prepare, NULL, NULL, NULL, NULL, NULL };

static void
cell_made (GtkListItemFactory *factory, GtkListItem *item, Churn *churn)
{
  churn->made++;
  churn->all_made++;
}

static void
cell_gone (GtkListItemFactory *factory, GtkListItem *item, Churn *churn)
{
  churn->gone++;
  churn->all_gone++;
}

/* Counts the widgets of VIEW's column named NAME. */
static Churn *
churn_watch (DyTableView *view, const char *name)
{
  GListModel *columns
      = gtk_column_view_get_columns (GTK_COLUMN_VIEW (gui_child (view, "column_view")));
  Churn *churn = (Churn *) g_source_new (&churn_funcs, sizeof (Churn));

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), name) != 0)
        continue;
      g_signal_connect (gtk_column_view_column_get_factory (column), "setup",
                        G_CALLBACK (cell_made), churn);
      g_signal_connect (gtk_column_view_column_get_factory (column), "teardown",
                        G_CALLBACK (cell_gone), churn);
    }
  g_source_attach ((GSource *) churn, NULL);
  return churn;
}

static void
churn_unwatch (DyTableView *view, const char *name, Churn *churn)
{
  GListModel *columns
      = gtk_column_view_get_columns (GTK_COLUMN_VIEW (gui_child (view, "column_view")));

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), name) == 0)
        g_signal_handlers_disconnect_by_data (gtk_column_view_column_get_factory (column), churn);
    }
  churn_prepare ((GSource *) churn, &(int){ 0 });
  g_source_destroy ((GSource *) churn);
}

/* Whether the grid's Collection column is hidden (the rows flat). */
static gboolean
collection_column_hidden (gpointer data)
{
  GListModel *columns
      = gtk_column_view_get_columns (GTK_COLUMN_VIEW (gui_child (data, "column_view")));

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), "Collection") == 0)
        return !gtk_column_view_column_get_visible (column);
    }
  return FALSE;
}

static void
test_find (void)
{
  DyTableView *view = gui_open_table (TABLE);
  GtkSearchBar *bar = GTK_SEARCH_BAR (gui_child (view, "find_bar"));
  guint needles = 0, twelves = 0;

  for (guint i = 0; i < N_ITEMS; i++)
    {
      g_autofree char *amount = g_strdup_printf ("%u.25", i);

      needles += is_needle (i);
      twelves += strstr (amount, "12.2") != NULL;
    }
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (gui_child (view, "limit_spin")), 0);
  gui_run (view, "win.run");
  while (dy_table_view_get_can_load_more (view))
    gui_run (view, "win.load-more");
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, N_ITEMS);

  /* Finding, sorting and grouping never make GTK make or destroy all the row widgets it shows
   * at once (which stalled the window half a second): the rows with widgets are given the new
   * rows in place, and those that go, go a few dozen at a time. */
  Churn *churn = churn_watch (view, "sk");

  /* Ctrl+Shift+F's action opens the bar, its entry focused. */
  g_assert_false (gtk_search_bar_get_search_mode (bar));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.find", NULL));
  g_assert_true (gtk_search_bar_get_search_mode (bar));

  /* Any case; the count of rows kept of those loaded. */
  find (view, "NEEDLE", needles);
  {
    g_autoptr (GArray) keys = shown_keys (view);
    g_autofree char *count = g_strdup_printf ("%u of ", needles);
    GListModel *loaded = dy_table_view_get_items (view);
    guint k = 0;

    /* Exactly the needles, in the order they were loaded (Scan's order, not the keys'). */
    for (guint i = 0; i < g_list_model_get_n_items (loaded); i++)
      {
        g_autoptr (DyItem) item = g_list_model_get_item (loaded, i);
        g_autofree char *text = ddb_number_to_string (&dy_item_get_attribute (item, "sk")->number);
        guint key = (guint) g_ascii_strtoull (text, NULL, 10);

        if (!is_needle (key))
          continue;
        g_assert_cmpuint (k, <, keys->len);
        g_assert_cmpuint (g_array_index (keys, guint, k), ==, key);
        k++;
      }
    g_assert_cmpuint (k, ==, keys->len);
    g_assert_nonnull (strstr (gui_label_text (view, "find_label"), count));
  }
  assert_cells_show_rows (view);
  gui_screenshot ("01-find.png");

  /* Numbers as the grid shows them. */
  find (view, "12.2", twelves);
  find (view, "no such text", 0);

  /* Sorted by a column, descending, the rows kept stay kept. */
  find (view, "needle", needles);
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (gui_child (view, "column_view")), NULL,
                                  GTK_SORT_ASCENDING);
  {
    GListModel *columns
        = gtk_column_view_get_columns (GTK_COLUMN_VIEW (gui_child (view, "column_view")));
    Shown s = { view, needles };
    g_autoptr (GArray) keys = NULL;
    guint made = churn->all_made;

    for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
      {
        g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

        if (g_strcmp0 (gtk_column_view_column_get_title (column), "amount") == 0)
          gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (gui_child (view, "column_view")), column,
                                          GTK_SORT_DESCENDING);
      }
    gui_settle ();
    gui_wait_for (shows, &s, "the rows kept, sorted");
    /* the rows with widgets show the sorted rows in place: none made */
    g_assert_cmpuint (churn->all_made, ==, made);
    assert_cells_show_rows (view);
    keys = shown_keys (view);
    g_assert_cmpuint (keys->len, ==, needles);
    for (guint i = 0; i < keys->len; i++)
      {
        g_assert_true (is_needle (g_array_index (keys, guint, i)));
        if (i > 0)
          g_assert_cmpuint (g_array_index (keys, guint, i - 1), >, g_array_index (keys, guint, i));
      }
    gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (gui_child (view, "column_view")), NULL,
                                    GTK_SORT_ASCENDING);
  }
  gui_wait_for (arranged, view, "the rows kept, in the order loaded");

  /* Grouped: only the collections holding a row kept, with those rows only. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.group", NULL));
  gui_settle ();
  {
    GListModel *rows = G_LIST_MODEL (dy_table_view_get_rows (view));
    guint kept = 0;

    gui_wait_for (arranged, view, "the grouping");
    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr (GtkTreeListRow) row = gui_grid_row (rows, i);
        g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

        if (gtk_tree_list_row_get_depth (row) > 0)
          continue;
        g_assert_true (DY_IS_GROUP (object));
        kept += dy_group_get_n_items (DY_GROUP (object));
        /* Each collection of three holds at most one needle (7 > 3). */
        g_assert_cmpuint (dy_group_get_n_items (DY_GROUP (object)), ==, 1);
      }
    g_assert_cmpuint (kept, ==, needles);
    g_assert_nonnull (strstr (gui_label_text (view, "find_label"), "of "));
  }
  gui_screenshot ("02-find-grouped.png");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.group", NULL));
  gui_wait_for (collection_column_hidden, view, "the Collection column hidden");

  /* Closing the bar gives every row back. */
  {
    Shown s = { view, N_ITEMS };

    gtk_search_bar_set_search_mode (bar, FALSE);
    gui_wait_for (shows, &s, "every row again");
    g_assert_cmpstr (gui_label_text (view, "find_label"), ==, "");
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (gui_child (view, "find_entry"))), ==, "");
  }
  churn_unwatch (view, "sk", churn);
  g_test_message ("most row widgets in one iteration: %u made, %u destroyed; in all %u, %u",
                  churn->most_made, churn->most_gone, churn->all_made, churn->all_gone);
  g_assert_cmpuint (churn->most_made, >, 0);
  g_assert_cmpuint (churn->most_made, <=, 40);
  g_assert_cmpuint (churn->most_gone, <=, 60);
  g_source_unref ((GSource *) churn);
}

int
main (int argc, char **argv)
{
  gui_init (&argc, &argv);
  g_test_add_func ("/find-gui/create", create_table);
  g_test_add_func ("/find-gui/find", test_find);
  return gui_run_tests ();
}
