/* dy-inspector-tree.c: the inspector's typed tree: a row per attribute and nested value, in
 * three columns: its path (expandable), its DynamoDB type and its exact value (with the time it
 * reads as beside it, dy-value-cell.c). */
#define G_LOG_DOMAIN "dynoscope-inspector"

#include <glib/gi18n.h>

#include "app/inspector/dy-inspector-private.h"
#include "app/inspector/dy-node.h"
#include "app/inspector/dy-value-cell.h"

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  return dy_node_get_children (DY_NODE (item));
}

static DyNode *
node_of (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);

  return row != NULL ? DY_NODE (gtk_tree_list_row_get_item (row)) : NULL;
}

static void
setup_path (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
  gtk_list_item_set_child (list_item, expander);
}

static void
bind_path (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *label = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  g_autoptr (DyNode) node = node_of (list_item);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), gtk_list_item_get_item (list_item));
  gtk_label_set_text (GTK_LABEL (label), dy_node_get_name (node));
  gtk_widget_set_tooltip_text (label, dy_node_get_path (node));
}

static void
setup_label (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (GPOINTER_TO_INT (user_data))
    gtk_widget_add_css_class (label, "monospace");
  else
    {
      /* Values are read here digit for digit: wrapped, never cut. */
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
    }
  gtk_list_item_set_child (list_item, label);
}

static void
bind_type (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  g_autoptr (DyNode) node = node_of (list_item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)),
                      ddb_type_name (dy_node_get_value (node)->type));
}

static void
setup_value (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  dy_value_cell_setup (list_item);
}

/* The exact value, and the time it reads as beside it (dy-value-cell.c). */
static void
bind_value (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  DyInspector *self = user_data;
  g_autoptr (DyNode) node = node_of (list_item);
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);

  dy_value_cell_bind (list_item, node, gtk_tree_list_row_get_depth (row), self->ttl_attribute);
}

static void
add_column (DyInspector *self, const char *title, GCallback setup, GCallback bind, gboolean mono,
            gboolean expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;

  g_signal_connect (factory, "setup", setup, GINT_TO_POINTER (mono));
  g_signal_connect (factory, "bind", bind, self);
  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_expand (column, expand);
  gtk_column_view_append_column (self->tree_view, column);
  g_object_unref (column);
}

GtkTreeListModel *
dy_inspector_tree_model_new (DyItem *item)
{
  return gtk_tree_list_model_new (dy_node_list_for_item (item), FALSE, FALSE, create_children,
                                  NULL, NULL);
}

void
dy_inspector_tree_init (DyInspector *self)
{
  self->selection = gtk_single_selection_new (NULL);
  gtk_column_view_set_model (self->tree_view, GTK_SELECTION_MODEL (self->selection));
  add_column (self, _ ("Path"), G_CALLBACK (setup_path), G_CALLBACK (bind_path), FALSE, FALSE);
  add_column (self, _ ("Type"), G_CALLBACK (setup_label), G_CALLBACK (bind_type), TRUE, FALSE);
  add_column (self, _ ("Value"), G_CALLBACK (setup_value), G_CALLBACK (bind_value), FALSE, TRUE);
}
