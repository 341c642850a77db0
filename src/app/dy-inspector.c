/* dy-inspector.c: the item inspector. */
#define G_LOG_DOMAIN "dynoscope-inspector"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "app/dy-format.h"
#include "app/dy-inspector.h"
#include "app/dy-node.h"
#include "core/ddbjson.h"
#include "core/itemsize.h"

struct _DyInspector {
  GtkBox parent_instance;

  GtkStack *main_stack;
  GtkLabel *title_label;
  GtkLevelBar *size_bar;
  GtkLabel *size_label;
  GtkColumnView *tree_view;
  GtkSourceView *json_view;

  DyItem *item;
  GtkSingleSelection *selection;
};

G_DEFINE_FINAL_TYPE (DyInspector, dy_inspector, GTK_TYPE_BOX)

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

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander),
                                  gtk_list_item_get_item (list_item));
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
bind_value (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  g_autoptr (DyNode) node = node_of (list_item);
  g_autofree char *text = dy_node_dup_value_text (node);
  GtkWidget *label = gtk_list_item_get_child (list_item);

  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_widget_set_tooltip_text (label, text);
}

static void
add_column (DyInspector *self, const char *title, GCallback setup, GCallback bind,
            gboolean mono, gboolean expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;

  g_signal_connect (factory, "setup", setup, GINT_TO_POINTER (mono));
  g_signal_connect (factory, "bind", bind, NULL);
  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_expand (column, expand);
  gtk_column_view_append_column (self->tree_view, column);
  g_object_unref (column);
}

static void
update_scheme (DyInspector *self)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view)));
  const char *id = adw_style_manager_get_dark (manager) ? "Adwaita-dark" : "Adwaita";

  gtk_source_buffer_set_style_scheme (buffer,
                                      gtk_source_style_scheme_manager_get_scheme (schemes, id));
}

static void
dy_inspector_dispose (GObject *object)
{
  DyInspector *self = DY_INSPECTOR (object);

  g_clear_object (&self->item);
  g_clear_object (&self->selection);
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_INSPECTOR);
  G_OBJECT_CLASS (dy_inspector_parent_class)->dispose (object);
}

static void
dy_inspector_class_init (DyInspectorClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = dy_inspector_dispose;
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dy-inspector.ui");
  gtk_widget_class_bind_template_child (widget_class, DyInspector, main_stack);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, title_label);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, size_bar);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, size_label);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, tree_view);
  gtk_widget_class_bind_template_child (widget_class, DyInspector, json_view);
}

static void
dy_inspector_init (DyInspector *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceBuffer *buffer;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->selection = gtk_single_selection_new (NULL);
  gtk_column_view_set_model (self->tree_view, GTK_SELECTION_MODEL (self->selection));
  add_column (self, _("Path"), G_CALLBACK (setup_path), G_CALLBACK (bind_path), FALSE, FALSE);
  add_column (self, _("Type"), G_CALLBACK (setup_label), G_CALLBACK (bind_type), TRUE, FALSE);
  add_column (self, _("Value"), G_CALLBACK (setup_label), G_CALLBACK (bind_value), FALSE, TRUE);

  buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view)));
  gtk_source_buffer_set_language (buffer,
                                  gtk_source_language_manager_get_language (languages, "json"));
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (update_scheme), self, G_CONNECT_SWAPPED);
  update_scheme (self);
  dy_inspector_set_item (self, NULL, NULL);
}

GtkWidget *
dy_inspector_new (void)
{
  return g_object_new (DY_TYPE_INSPECTOR, NULL);
}

void
dy_inspector_set_item (DyInspector *self, DyItem *item, const char *title)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));
  GtkTreeListModel *tree;
  gsize size;
  g_autofree char *size_text = NULL;
  g_autofree char *limit_text = NULL;
  g_autofree char *label = NULL;
  g_autofree char *json_text = NULL;
  json_t *json;

  g_return_if_fail (DY_IS_INSPECTOR (self));
  if (item != NULL && item == self->item)
    return;
  g_set_object (&self->item, item);
  if (item == NULL)
    {
      gtk_single_selection_set_model (self->selection, NULL);
      gtk_text_buffer_set_text (buffer, "", 0);
      gtk_stack_set_visible_child_name (self->main_stack, "empty");
      return;
    }

  tree = gtk_tree_list_model_new (dy_node_list_for_item (item), FALSE, FALSE, create_children,
                                  NULL, NULL);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (tree));
  g_object_unref (tree);

  json = ddb_item_to_json (dy_item_get_value (item));
  json_text = json_dumps (json, JSON_INDENT (2));
  json_decref (json);
  gtk_text_buffer_set_text (buffer, json_text, -1);

  size = dy_item_get_size (item);
  size_text = dy_format_size (size);
  limit_text = dy_format_size (DDB_MAX_ITEM_SIZE);
  /* TRANSLATORS: item size against DynamoDB's limit, e.g. "1.2 KB of 400.0 KB (0.3 %)" */
  label = g_strdup_printf (_("%s of %s (%.1f %%)"), size_text, limit_text,
                           100.0 * size / DDB_MAX_ITEM_SIZE);
  gtk_label_set_text (self->size_label, label);
  gtk_level_bar_set_value (self->size_bar, MIN ((double) size, (double) DDB_MAX_ITEM_SIZE));
  gtk_label_set_text (self->title_label, title != NULL ? title : _("Item"));
  gtk_stack_set_visible_child_name (self->main_stack, "item");
}

DyItem *
dy_inspector_get_item (DyInspector *self)
{
  return self->item;
}

GListModel *
dy_inspector_get_tree_model (DyInspector *self)
{
  return G_LIST_MODEL (self->selection);
}

char *
dy_inspector_dup_json_text (DyInspector *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->json_view));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}
