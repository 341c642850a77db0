/* dy-table-view-columns.c: the table view's grid: a column per attribute the results hold
 * (kept from one Run to the next, with their widths and visibility), the cells and their tints
 * for what is staged, the Collection column of item collections, the column chooser, and the
 * inspector following the selected row. How the rows are ordered or grouped is
 * dy-table-view-arrange.c's. */
#define G_LOG_DOMAIN "dynoscope-table-view"

#include <glib/gi18n.h>

#include "app/common/dy-format.h"
#include "app/browser/dy-grid.h"
#include "app/browser/dy-group.h"
#include "app/common/dy-item.h"
#include "app/browser/dy-table-view-private.h"

/* Grid cells (dy-grid.c makes them and shows the values; the view tints them). */

static GObject *
row_object (GtkListItem *list_item)
{
  return dy_grid_row_item (gtk_list_item_get_item (list_item));
}

/* Tints an attribute cell by what is staged on its item: the pending operation over the whole
 * row, and for an update the changed attributes' own cells marked. */
static void
tint_cell (DyTableView *self, GtkListItem *list_item)
{
  static const char *const classes[] = { "staged-create", "staged-update", "staged-delete",
                                         "staged-cell" };
  g_autoptr (GObject) object = row_object (list_item);
  GtkWidget *cell = gtk_list_item_get_child (list_item);
  const char *name = g_object_get_data (G_OBJECT (cell), "attribute");
  const char *const *changed = NULL;
  DyStagedKind kind = DY_STAGED_NONE;

  if (DY_IS_ITEM (object))
    kind = dy_staging_lookup (dy_staging_get_default (), self->connection, self->table_name,
                              dy_item_get_value (DY_ITEM (object)), &changed);
  for (gsize i = 0; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (cell, classes[i]);
  if (kind == DY_STAGED_NONE)
    return;
  gtk_widget_add_css_class (cell, dy_staging_kind_css_class (kind));
  if (kind == DY_STAGED_UPDATE && changed != NULL && g_strv_contains (changed, name))
    gtk_widget_add_css_class (cell, "staged-cell");
}

/* After dy-grid.c's bind has shown the value. */
static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  DyTableView *self = user_data;

  tint_cell (self, list_item);
  g_hash_table_add (self->bound_cells, list_item);
}

static void
unbind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  DyTableView *self = user_data;

  g_hash_table_remove (self->bound_cells, list_item);
}


/* What is staged changed: the cells shown are tinted again. */
void
dy_table_view_staging_changed (DyTableView *self)
{
  GHashTableIter iter;
  gpointer list_item;

  g_hash_table_iter_init (&iter, self->bound_cells);
  while (g_hash_table_iter_next (&iter, &list_item, NULL))
    tint_cell (self, list_item);
}

/* The Collection column: a collection's key, count and size over its flags (a second line, so
 * that the column stays narrow beside the key columns), or an item's sort key. */
static void
setup_tree_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  dy_grid_setup_collection_cell (list_item);
}

static gboolean
has_lsi (DyTableView *self)
{
  return json_array_size (json_object_get (self->description, "LocalSecondaryIndexes")) > 0;
}

/* What a collection row flags: its share of the 10 GB LSI limit, and shards. */
static char *
group_flags (DyTableView *self, DyGroup *group, int *level, char **tooltip)
{
  guint64 bytes = dy_group_get_total_size (group);
  g_autofree char *limit = dy_collection_limit_text (bytes, level);
  const char *base = dy_group_get_shard_base (group);
  GString *text = g_string_new (NULL);

  /* The size is of the items loaded (and without index projections): a lower bound, said
   * unless the text already bounds it ("< 0.01%"). */
  g_string_append_printf (text, dy_collection_limit_below_shown (bytes) ? "%s" : "≥ %s", limit);
  if (!has_lsi (self))
    {
      *level = 0;
      *tooltip = g_strdup (_("Size of the loaded items against the 10 GB item collection "
                             "limit. This table has no local secondary index, so the limit "
                             "does not apply to it."));
    }
  else
    *tooltip = g_strdup (_("Size of the loaded items against the 10 GB item collection limit "
                           "of tables with a local secondary index: past it, writes to this "
                           "partition key fail. Index projections add to the real size."));
  if (dy_group_is_shard_set (group))
    {
      g_autofree char *shards = g_strdup_printf (
          ngettext ("%u shard (hot key)", "%u shards (hot key)", dy_group_get_shard_count (group)),
          dy_group_get_shard_count (group));

      g_string_append_printf (text, " · %s", shards);
    }
  else if (base != NULL && dy_group_get_shard_count (group) > 1)
    /* TRANSLATORS: a collection that is one shard of a partition written across keys */
    g_string_append_printf (text, _(" · shard %s/%u"), dy_group_get_shard_suffix (group),
                            dy_group_get_shard_count (group));
  else if (base != NULL)
    /* TRANSLATORS: a numbered key next to its base key, e.g. WS#acme#01 next to WS#acme */
    g_string_append_printf (text, _(" · looks like a shard of %s"), base);
  return g_string_free (text, FALSE);
}

static void
bind_tree_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  DyTableView *self = user_data;
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *label = g_object_get_data (G_OBJECT (expander), "label");
  GtkWidget *flag = g_object_get_data (G_OBJECT (expander), "flag");
  g_autoptr (GObject) object = row_object (list_item);
  g_autofree char *text = NULL;
  g_autofree char *flags = NULL;
  g_autofree char *tooltip = NULL;
  int level = 0;

  if (!GTK_IS_TREE_LIST_ROW (dy_grid_row (gtk_list_item_get_item (list_item))))
    {
      /* the column is hidden when the rows are flat (once they are) */
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), NULL);
      gtk_label_set_text (GTK_LABEL (label), "");
      gtk_widget_set_visible (flag, FALSE);
      return;
    }
  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander),
                                  dy_grid_row (gtk_list_item_get_item (list_item)));
  gtk_widget_remove_css_class (flag, "warning");
  gtk_widget_remove_css_class (flag, "error");
  gtk_widget_remove_css_class (flag, "accent");
  gtk_widget_remove_css_class (flag, "dim-label");
  if (DY_IS_GROUP (object))
    {
      DyGroup *group = DY_GROUP (object);

      text = dy_grid_collection_heading (group);
      flags = group_flags (self, group, &level, &tooltip);
      gtk_widget_add_css_class (label, "heading");
      if (level > 0)
        gtk_widget_add_css_class (flag, level > 1 ? "error" : "warning");
      else if (dy_group_get_shard_base (group) != NULL)
        gtk_widget_add_css_class (flag, "accent");
      else
        gtk_widget_add_css_class (flag, "dim-label");
    }
  else if (DY_IS_ITEM (object))
    {
      const DyTableViewKeys *keys = dy_table_view_current_keys (self);
      const DdbValue *sk = keys != NULL && keys->sk != NULL
                             ? dy_item_get_attribute (DY_ITEM (object), keys->sk) : NULL;

      text = sk != NULL ? dy_format_key (sk) : g_strdup ("");
      gtk_widget_remove_css_class (label, "heading");
    }
  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "");
  /* the column is narrow: a long key's heading ellipsizes */
  g_object_set_data_full (G_OBJECT (label), "tooltip",
                          DY_IS_GROUP (object) ? g_strdup (text) : NULL, g_free);
  gtk_label_set_text (GTK_LABEL (flag), flags != NULL ? flags : "");
  gtk_widget_set_visible (flag, flags != NULL);
  g_object_set_data_full (G_OBJECT (flag), "tooltip", g_steal_pointer (&tooltip), g_free);
}

static void
column_visible_changed (GtkColumnViewColumn *column, GParamSpec *pspec, DyTableView *self)
{
  const char *name = gtk_column_view_column_get_title (column);

  if (gtk_column_view_column_get_visible (column))
    g_hash_table_remove (self->hidden_columns, name);
  else
    g_hash_table_add (self->hidden_columns, g_strdup (name));
}

static void
sorter_changed (DyTableView *self)
{
  gboolean sorting = gtk_sorter_get_order (gtk_column_view_get_sorter (self->column_view)) != GTK_SORTER_ORDER_NONE;

  /* Grouped, a sort model in place follows its sorter by itself; flat, the order is made
   * again from the sorter's columns. */
  if (!self->grouped || sorting != self->sorting)
    dy_table_view_rebuild_rows (self);
}

/* Client-side sorting of the rows loaded: items by the column's attribute (numbers exactly,
 * strings by bytes); collections keep their order. */
static int
compare_cells (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const char *name = user_data;
  int c;

  if (!DY_IS_ITEM ((gpointer) a) || !DY_IS_ITEM ((gpointer) b))
    return GTK_ORDERING_EQUAL;
  c = dy_format_compare_cells (dy_item_get_attribute (DY_ITEM ((gpointer) a), name),
                               dy_item_get_attribute (DY_ITEM ((gpointer) b), name));
  return c < 0 ? GTK_ORDERING_SMALLER : c > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

/* Adds NAME's column unless it is there: TRUE when added. */
static gboolean
add_column (DyTableView *self, const char *name, DyRowPage *page)
{
  GtkListItemFactory *factory;
  GtkColumnViewColumn *column;
  GtkCustomSorter *sorter;
  int width = dy_grid_column_width (name, page);

  if (!g_hash_table_contains (self->seen_columns, name))
    g_hash_table_add (self->seen_columns, g_strdup (name));
  if (g_hash_table_contains (self->columns, name))
    return FALSE;
  factory = dy_grid_cell_factory_new (name);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), self);
  column = gtk_column_view_column_new (name, factory);
  sorter = gtk_custom_sorter_new (compare_cells, g_strdup (name), g_free);
  gtk_column_view_column_set_sorter (column, GTK_SORTER (sorter));
  g_object_unref (sorter);
  gtk_column_view_column_set_visible (column, !g_hash_table_contains (self->hidden_columns, name));
  g_signal_connect (column, "notify::visible", G_CALLBACK (column_visible_changed), self);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_fixed_width (column, width);
  /* what its values asked for, and what fit_columns gave it (until the user resizes it) */
  g_object_set_data (G_OBJECT (column), "natural-width", GINT_TO_POINTER (width));
  g_object_set_data (G_OBJECT (column), "fitted-width", GINT_TO_POINTER (width));
  gtk_column_view_append_column (self->column_view, column);
  g_hash_table_insert (self->columns, g_strdup (name), column);
  dy_table_view_times_column_added (self, column);
  return TRUE;
}

/* About nine characters: what a column keeps whole when the grid narrows its columns. */
#define SHORT_VALUE_WIDTH 96

/* The columns came before the grid was laid out: they are fitted once it is. */
static gboolean
fit_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  DyTableView *self = data;

  if (dy_table_view_grid_room (self) <= 0)
    return G_SOURCE_CONTINUE;
  self->fit_tick = 0;
  dy_table_view_fit_columns (self);
  return G_SOURCE_REMOVE;
}

/* The attribute columns share the grid's room (with the inspector shown): the widest are
 * narrowed first, none below what its title and a short value need, so that at a common
 * width every header is in sight. A column the user resized keeps its width. */
void
dy_table_view_fit_columns (DyTableView *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);
  g_autoptr (GPtrArray) fitted = g_ptr_array_new ();
  g_autoptr (GArray) widths = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr (GArray) floors = g_array_new (FALSE, FALSE, sizeof (int));
  int room = dy_table_view_grid_room (self);

  if (room <= 0)
    {
      if (self->fit_tick == 0)
        self->fit_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->column_view), fit_tick,
                                                       self, NULL);
      return;
    }
  g_debug ("columns fitted into %d px", room);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      int fixed = gtk_column_view_column_get_fixed_width (column);
      int natural = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "natural-width"));
      int floor;

      if (!gtk_column_view_column_get_visible (column))
        continue;
      if (natural == 0
          || fixed != GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "fitted-width")))
        {
          room -= MAX (fixed, 0);
          continue;
        }
      /* its title, and short values (a key such as POST#9f3) whole */
      floor = MAX (dy_grid_column_width (gtk_column_view_column_get_title (column), NULL),
                   MIN (natural, SHORT_VALUE_WIDTH));
      g_ptr_array_add (fitted, column);
      g_array_append_val (widths, natural);
      g_array_append_val (floors, floor);
    }
  dy_grid_fit_widths ((int *) (gpointer) widths->data, (const int *) (gpointer) floors->data,
                      widths->len, room);
  for (guint i = 0; i < fitted->len; i++)
    {
      int width = g_array_index (widths, int, i);

      g_object_set_data (fitted->pdata[i], "fitted-width", GINT_TO_POINTER (width));
      gtk_column_view_column_set_fixed_width (fitted->pdata[i], width);
    }
}

/* Columns stay from one Run to the next (with their widths and visibility), so that a Run
 * does not tear down and rebuild every cell of the grid; those the new results do not hold
 * go once its pages are in. */
void
dy_table_view_prune_columns (DyTableView *self)
{
  GHashTableIter iter;
  gpointer name, column;

  self->prune_columns = FALSE;
  g_hash_table_iter_init (&iter, self->columns);
  while (g_hash_table_iter_next (&iter, &name, &column))
    if (!g_hash_table_contains (self->seen_columns, name))
      {
        g_signal_handlers_disconnect_by_func (column, column_visible_changed, self);
        dy_table_view_times_column_removed (self, column);
        gtk_column_view_remove_column (self->column_view, column);
        g_hash_table_iter_remove (&iter);
      }
}

void
dy_table_view_add_page_columns (DyTableView *self, DyRowPage *page)
{
  const DyTableViewKeys *table = self->keys->pdata[0];
  const DyTableViewKeys *keys = dy_table_view_current_keys (self);

  gboolean added = add_column (self, table->pk, page);

  if (table->sk != NULL)
    added |= add_column (self, table->sk, page);
  added |= add_column (self, keys->pk, page);
  if (keys->sk != NULL)
    added |= add_column (self, keys->sk, page);
  for (guint i = 0; i < page->names->len; i++)
    added |= add_column (self, page->names->pdata[i], page);
  if (added)
    dy_table_view_fit_columns (self);
}

/* The column chooser: a check button per column, filled each time it opens. */

static void
fill_column_chooser (DyTableView *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->columns_box))) != NULL)
    gtk_box_remove (self->columns_box, child);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      GtkWidget *check;

      if (column == self->tree_column)
        continue;
      check = gtk_check_button_new_with_label (gtk_column_view_column_get_title (column));
      g_object_bind_property (column, "visible", check, "active",
                              G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
      gtk_box_append (self->columns_box, check);
    }
  if (gtk_widget_get_first_child (GTK_WIDGET (self->columns_box)) == NULL)
    gtk_box_append (self->columns_box, gtk_label_new (_("Run first: columns are the attributes "
                                                        "the results hold")));
}

void
dy_table_view_columns_init (DyTableView *self)
{
  GtkListItemFactory *factory;

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_tree_cell), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_tree_cell), self);
  dy_grid_follow_slots (factory);
  self->tree_column = gtk_column_view_column_new (_("Collection"), factory);
  gtk_column_view_column_set_resizable (self->tree_column, TRUE);
  gtk_column_view_column_set_fixed_width (self->tree_column, 280);
  gtk_column_view_column_set_visible (self->tree_column, FALSE);
  gtk_column_view_append_column (self->column_view, self->tree_column);
  g_signal_connect_swapped (gtk_column_view_get_sorter (self->column_view), "changed",
                            G_CALLBACK (sorter_changed), self);
}

void
dy_table_view_columns_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, fill_column_chooser);
}
