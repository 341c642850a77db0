/* dy-model-window-items.c: a model table's sample items in the browser's item-collection
 * view: the items as rows (DyRows), grouped by partition key into collections (DyGroup) in
 * first-seen order, each in sort-key order, numbered shards gathered into shard sets, shown in
 * a tree of collections with a column per attribute (dy-grid.c's cells). */
#define G_LOG_DOMAIN "dynoscope-model-window"

#include <glib/gi18n.h>

#include "app/common/dy-format.h"
#include "app/browser/dy-grid.h"
#include "app/browser/dy-group.h"
#include "app/model/dy-model-window-private.h"
#include "app/browser/dy-rows.h"

typedef struct {
  DyRows *rows;
  const char *sk;
} SortData;

static int
compare_sort_keys (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const SortData *data = user_data;
  g_autoptr (DyItem) ia = dy_rows_get_row (data->rows, *(const guint32 *) a);
  g_autoptr (DyItem) ib = dy_rows_get_row (data->rows, *(const guint32 *) b);
  const DdbValue *va = dy_item_get_attribute (ia, data->sk);
  const DdbValue *vb = dy_item_get_attribute (ib, data->sk);

  if (va == NULL || vb == NULL)
    return (va == NULL) - (vb == NULL);
  return dy_format_compare_keys (va, vb);
}

/* The collections of ROWS by attribute PK, each sorted by SK (may be NULL). */
static GListModel *
group_rows (DyRows *rows, const char *pk, const char *sk)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (rows));
  g_autoptr (DyGroupBuilder) builder = dy_group_builder_new ();
  SortData sort = { rows, sk };

  for (guint32 i = 0; i < n; i++)
    {
      g_autoptr (DyItem) item = dy_rows_get_row (rows, i);
      const DdbValue *value = dy_item_get_attribute (item, pk);
      g_autofree char *text
          = value != NULL ? dy_format_key (value) : g_strdup (_ ("(no partition key)"));

      dy_group_builder_add (builder, text, i, dy_item_get_size (item));
    }
  return dy_group_builder_finish (builder, rows, sk != NULL ? compare_sort_keys : NULL, &sort);
}

/* The Collection column: a collection's key, item count and size (and its shards), or an
 * item's sort key, as the browser shows them. */
static void
setup_tree_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  dy_grid_setup_collection_cell (list_item);
  gtk_widget_add_css_class (
      g_object_get_data (G_OBJECT (gtk_list_item_get_child (list_item)), "flag"), "accent");
}

static void
bind_tree_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  const char *sk = user_data;
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *label = g_object_get_data (G_OBJECT (expander), "label");
  GtkWidget *flag = g_object_get_data (G_OBJECT (expander), "flag");
  g_autoptr (GObject) object = dy_grid_row_item (gtk_list_item_get_item (list_item));
  g_autofree char *text = NULL;
  g_autofree char *flags = NULL;

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), gtk_list_item_get_item (list_item));
  if (DY_IS_GROUP (object))
    {
      DyGroup *group = DY_GROUP (object);
      const char *base = dy_group_get_shard_base (group);

      text = dy_grid_collection_heading (group);
      if (dy_group_is_shard_set (group))
        flags = g_strdup_printf (ngettext ("%u shard (hot key)", "%u shards (hot key)",
                                           dy_group_get_shard_count (group)),
                                 dy_group_get_shard_count (group));
      else if (base != NULL && dy_group_get_shard_count (group) > 1)
        /* TRANSLATORS: a collection that is one shard of a partition written across keys */
        flags = g_strdup_printf (_ ("shard %s/%u"), dy_group_get_shard_suffix (group),
                                 dy_group_get_shard_count (group));
      else if (base != NULL)
        /* TRANSLATORS: a numbered key next to its base key, e.g. WS#acme#01 next to WS#acme */
        flags = g_strdup_printf (_ ("looks like a shard of %s"), base);
      gtk_widget_add_css_class (label, "heading");
    }
  else if (DY_IS_ITEM (object))
    {
      const DdbValue *value = sk != NULL ? dy_item_get_attribute (DY_ITEM (object), sk) : NULL;

      text = value != NULL ? dy_format_key (value) : g_strdup ("");
      gtk_widget_remove_css_class (label, "heading");
    }
  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "");
  g_object_set_data_full (G_OBJECT (label), "tooltip", g_strdup (text), g_free);
  gtk_label_set_text (GTK_LABEL (flag), flags != NULL ? flags : "");
  gtk_widget_set_visible (flag, flags != NULL);
}

static void
clear_columns (GtkColumnView *view)
{
  GListModel *columns = gtk_column_view_get_columns (view);

  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);

      gtk_column_view_remove_column (view, column);
    }
}

static void
add_column (GtkColumnView *view, GHashTable *added, const char *name, DyRowPage *page)
{
  g_autoptr (GtkListItemFactory) factory = NULL;
  g_autoptr (GtkColumnViewColumn) column = NULL;

  if (name == NULL || g_hash_table_contains (added, name))
    return;
  g_hash_table_add (added, g_strdup (name));
  factory = dy_grid_cell_factory_new (name);
  column = gtk_column_view_column_new (name, g_steal_pointer (&factory));
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_fixed_width (column, dy_grid_column_width (name, page));
  gtk_column_view_append_column (view, column);
}

/* Where collection FOCUS is among GROUPS: its position, and in a shard set its position
 * there (else G_MAXUINT). FALSE when no collection has that key. */
static gboolean
find_collection (GListModel *groups, const char *focus, guint *position, guint *shard)
{
  for (guint i = 0; i < g_list_model_get_n_items (groups); i++)
    {
      g_autoptr (DyGroup) group = g_list_model_get_item (groups, i);

      *position = i;
      *shard = G_MAXUINT;
      if (g_strcmp0 (dy_group_get_key_text (group), focus) == 0)
        return TRUE;
      if (dy_group_is_shard_set (group))
        {
          GListModel *shards = dy_group_get_items (group);

          for (guint k = 0; k < g_list_model_get_n_items (shards); k++)
            {
              g_autoptr (DyGroup) one = g_list_model_get_item (shards, k);

              *shard = k;
              if (g_strcmp0 (dy_group_get_key_text (one), focus) == 0)
                return TRUE;
            }
        }
    }
  return FALSE;
}

/* Opens collection FOCUS (and the shard set holding it), the others closed; without FOCUS,
 * or when no collection has that key, the first (and a shard set's first shard) opens. */
static void
open_collection (GtkTreeListModel *tree, const char *focus)
{
  GListModel *groups = gtk_tree_list_model_get_model (tree);
  guint n = g_list_model_get_n_items (groups);
  guint position = 0, shard = 0;
  g_autoptr (GtkTreeListRow) row = NULL;

  if (n == 0)
    return;
  if (focus == NULL || !find_collection (groups, focus, &position, &shard))
    {
      position = 0;
      shard = 0;
    }
  for (guint i = 0; i < n; i++)
    if (i != position)
      {
        g_autoptr (GtkTreeListRow) other = gtk_tree_list_model_get_child_row (tree, i);

        gtk_tree_list_row_set_expanded (other, FALSE);
      }
  row = gtk_tree_list_model_get_child_row (tree, position);
  gtk_tree_list_row_set_expanded (row, TRUE);
  {
    g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

    /* in a shard set, the shard read (or the first one) opens too, so that items show, and
     * only that one */
    if (dy_group_is_shard_set (DY_GROUP (object)))
      for (guint k = 0; k < g_list_model_get_n_items (dy_group_get_items (DY_GROUP (object))); k++)
        {
          g_autoptr (GtkTreeListRow) child = gtk_tree_list_row_get_child_row (row, k);

          if (child != NULL)
            gtk_tree_list_row_set_expanded (child, k == shard);
        }
  }
}

/* GTK 4.8's column view cannot scroll to a row: the open collection is brought into view by
 * its share of the rows, once the view has measured them. */
static gboolean
scroll_to_open (gpointer data)
{
  GtkColumnView *view = data;
  GtkSelectionModel *model = gtk_column_view_get_model (view);
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment;
  guint n, position = G_MAXUINT;

  if (model == NULL || scrolled == NULL)
    return G_SOURCE_REMOVE;
  n = g_list_model_get_n_items (G_LIST_MODEL (model));
  /* the last row open: the collection read (a shard inside its set) */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (model), i);

      if (gtk_tree_list_row_get_expanded (row))
        position = i;
    }
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  if (position != G_MAXUINT && n > 0)
    /* a row above it in sight too, for context */
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment)
                                              * (position > 0 ? position - 1 : 0) / n);
  return G_SOURCE_REMOVE;
}

void
dy_model_window_show_items (DyModelWindow *self, const char *table_name, const char *index_name,
                            const char *focus, gboolean follow)
{
  DyModelTable *table = self->model != NULL && table_name != NULL
                            ? dy_model_find_table (self->model, table_name)
                            : NULL;
  DyModelIndex *index
      = table != NULL && index_name != NULL ? dy_model_table_find_index (table, index_name) : NULL;
  g_autoptr (DyRows) rows = NULL;
  g_autoptr (GListModel) groups = NULL;
  g_autoptr (GHashTable) added = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *title = NULL;
  g_autofree char *groups_text = NULL;
  g_autofree char *source = NULL;
  const char *pk = NULL, *sk = NULL;
  json_t *items;
  GtkListItemFactory *factory;
  GtkColumnViewColumn *column;
  GtkTreeListModel *tree;
  GtkNoSelection *selection;
  DyRowPage *page;
  guint n_items;

  if (table != NULL && g_strcmp0 (self->items_table, table->name) == 0
      && g_strcmp0 (self->items_index, index != NULL ? index->name : NULL) == 0)
    {
      GtkSelectionModel *model = gtk_column_view_get_model (self->items_view);

      /* the same rows: only which collection is open follows the selection */
      if (model != NULL && follow)
        {
          open_collection (
              GTK_TREE_LIST_MODEL (gtk_no_selection_get_model (GTK_NO_SELECTION (model))), focus);
          g_idle_add_full (GDK_PRIORITY_REDRAW + 10, scroll_to_open,
                           g_object_ref (self->items_view), g_object_unref);
        }
      return;
    }
  g_free (self->items_table);
  self->items_table = table != NULL ? g_strdup (table->name) : NULL;
  g_free (self->items_index);
  self->items_index = index != NULL ? g_strdup (index->name) : NULL;
  clear_columns (self->items_view);
  gtk_column_view_set_model (self->items_view, NULL);
  if (table == NULL)
    {
      gtk_label_set_text (self->items_title, _ ("Sample Items"));
      return;
    }
  dy_model_key_names (table, index, &pk, &sk);
  /* TRANSLATORS: where the sample items shown are: a table, or an index of it */
  source = index != NULL ? g_strdup_printf (_ ("%s, index %s"), table->name, index->name)
                         : g_strdup (table->name);
  /* an index holds the items that have its keys (a sparse index leaves the others out) */
  items = json_array ();
  for (gsize i = 0; i < json_array_size (table->items); i++)
    {
      json_t *item = json_array_get (table->items, i);

      if (index == NULL
          || (json_object_get (item, pk) != NULL
              && (sk == NULL || json_object_get (item, sk) != NULL)))
        json_array_append (items, item);
    }
  rows = dy_rows_new ();
  page = dy_row_page_new (dy_rows_get_store (rows), items, &error);
  json_decref (items);
  if (page == NULL)
    {
      /* TRANSLATORS: the sample items of a model's table could not be read, and why */
      title = g_strdup_printf (_ ("Sample items of %s: %s"), source, error->message);
      gtk_label_set_text (self->items_title, title);
      return;
    }
  dy_rows_add_page (rows, page);
  groups = group_rows (rows, pk, sk);
  n_items = g_list_model_get_n_items (G_LIST_MODEL (rows));
  {
    guint n_groups = g_list_model_get_n_items (groups);
    /* three phrases side by side: where, how many items, how many collections */
    g_autofree char *where = g_strdup_printf (_ ("Sample items of %s"), source);
    g_autofree char *count
        = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u item", "%u items", n_items), n_items);

    groups_text = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE, "%u item collection", "%u item collections", n_groups),
        n_groups);
    title = g_strdup_printf ("%s  ·  %s  ·  %s", where, count, groups_text);
  }
  gtk_label_set_text (self->items_title, title);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_tree_cell), NULL);
  g_signal_connect_data (factory, "bind", G_CALLBACK (bind_tree_cell), g_strdup (sk),
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  column = gtk_column_view_column_new (_ ("Collection"), factory);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_fixed_width (column, 400);
  gtk_column_view_append_column (self->items_view, column);
  g_object_unref (column);
  added = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  add_column (self->items_view, added, pk, page);
  add_column (self->items_view, added, sk, page);
  add_column (self->items_view, added, table->partition.name, page);
  add_column (self->items_view, added, table->sort.name, page);
  for (guint i = 0; i < page->names->len; i++)
    add_column (self->items_view, added, page->names->pdata[i], page);
  dy_row_page_free (page);

  tree = gtk_tree_list_model_new (g_steal_pointer (&groups), FALSE, FALSE, dy_group_tree_children, NULL,
                                  NULL);
  open_collection (tree, focus);
  selection = gtk_no_selection_new (G_LIST_MODEL (tree));
  gtk_column_view_set_model (self->items_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  g_idle_add_full (GDK_PRIORITY_REDRAW + 10, scroll_to_open, g_object_ref (self->items_view),
                   g_object_unref);
}
