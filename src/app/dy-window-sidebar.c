/* dy-window-sidebar.c: the main window's sidebar: the connections and, under each, its tables
 * (a GtkTreeListModel), with their state (loading, error) and activation. */
#define G_LOG_DOMAIN "dynoscope-window"

#include <glib/gi18n.h>

#include "app/dy-window-private.h"

static GListModel *
sidebar_children (gpointer item, gpointer user_data)
{
  if (DY_IS_CONNECTION (item))
    return g_object_ref (dy_connection_get_tables (DY_CONNECTION (item)));
  return NULL;
}

static void
sidebar_setup (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *icon = gtk_image_new ();
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *subtitle = gtk_label_new (NULL);
  GtkWidget *error = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_widget_add_css_class (subtitle, "dim-label");
  /* Errors wrap: the action they suggest must be readable whole. */
  gtk_label_set_xalign (GTK_LABEL (error), 0);
  gtk_label_set_wrap (GTK_LABEL (error), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (error), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (error), 30);
  gtk_label_set_selectable (GTK_LABEL (error), TRUE);
  gtk_widget_add_css_class (error, "caption");
  gtk_widget_add_css_class (error, "error");
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (texts), label);
  gtk_box_append (GTK_BOX (texts), subtitle);
  gtk_box_append (GTK_BOX (texts), error);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), texts);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  g_object_set_data (G_OBJECT (expander), "icon", icon);
  g_object_set_data (G_OBJECT (expander), "label", label);
  g_object_set_data (G_OBJECT (expander), "subtitle", subtitle);
  g_object_set_data (G_OBJECT (expander), "error", error);
  gtk_list_item_set_child (list_item, expander);
}

static const char *
connection_icon (DyConnection *c)
{
  if (dy_connection_get_error (c) != NULL)
    return "dialog-warning-symbolic";
  switch (dy_connection_get_kind (c))
    {
    case DY_CONNECTION_PROFILE:
      return "network-workgroup-symbolic";
    case DY_CONNECTION_ENDPOINT:
      return "network-server-symbolic";
    case DY_CONNECTION_DATABASE:
    default:
      return "drive-harddisk-symbolic";
    }
}

/* The sidebar says an error's name and what to do; the tooltip has the whole message. */
static char *
sidebar_error_text (const char *error)
{
  const char *colon;
  const char *hint;

  if (error == NULL)
    return NULL;
  colon = strstr (error, ": ");
  hint = strrchr (error, '\n');
  if (colon == NULL || hint == NULL || colon > hint)
    return g_strdup (error);
  return g_strdup_printf ("%.*s\n%s", (int) (colon - error), error, hint + 1);
}

/* A connection's row follows its error and loading state. */
static void
sidebar_update_connection (GtkListItem *list_item)
{
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr (GObject) object = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  DyConnection *c;
  const char *error;
  const char *where;
  g_autofree char *tooltip = NULL;
  g_autofree char *short_error = NULL;

  if (!DY_IS_CONNECTION (object))
    return;
  c = DY_CONNECTION (object);
  error = dy_connection_get_error (c);
  short_error = sidebar_error_text (error);
  where = dy_connection_get_path (c) != NULL ? dy_connection_get_path (c)
                                             : dy_connection_get_subtitle (c);
  tooltip = error != NULL ? g_strdup_printf ("%s\n%s", where, error) : g_strdup (where);
  gtk_image_set_from_icon_name (g_object_get_data (G_OBJECT (expander), "icon"),
                                connection_icon (c));
  gtk_label_set_text (g_object_get_data (G_OBJECT (expander), "error"),
                      error != NULL ? short_error : "");
  gtk_widget_set_visible (g_object_get_data (G_OBJECT (expander), "error"), error != NULL);
  gtk_widget_set_tooltip_text (gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander)), tooltip);
}

/* Remote connections list their tables when first opened, not at start: an account with many
 * profiles should not be called for each one every time the app starts. */
static void
sidebar_row_expanded (GtkTreeListRow *row)
{
  g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

  if (gtk_tree_list_row_get_expanded (row) && DY_IS_CONNECTION (object))
    dy_connection_ensure_tables (DY_CONNECTION (object));
}

static void
sidebar_bind (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *label = g_object_get_data (G_OBJECT (expander), "label");
  GtkWidget *subtitle = g_object_get_data (G_OBJECT (expander), "subtitle");
  GtkWidget *error = g_object_get_data (G_OBJECT (expander), "error");
  g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  if (DY_IS_CONNECTION (object))
    {
      DyConnection *c = DY_CONNECTION (object);
      const char *sub = dy_connection_get_subtitle (c);

      gtk_label_set_text (GTK_LABEL (label), dy_connection_get_title (c));
      gtk_widget_add_css_class (label, "heading");
      gtk_label_set_text (GTK_LABEL (subtitle), sub != NULL ? sub : "");
      gtk_widget_set_visible (subtitle, sub != NULL);
      g_signal_connect_object (c, "notify::error", G_CALLBACK (sidebar_update_connection),
                               list_item, G_CONNECT_SWAPPED);
      g_signal_connect (row, "notify::expanded", G_CALLBACK (sidebar_row_expanded), NULL);
      sidebar_update_connection (list_item);
    }
  else
    {
      gtk_image_set_from_icon_name (g_object_get_data (G_OBJECT (expander), "icon"),
                                    "view-grid-symbolic");
      gtk_label_set_text (GTK_LABEL (label),
                          gtk_string_object_get_string (GTK_STRING_OBJECT (object)));
      gtk_widget_remove_css_class (label, "heading");
      gtk_widget_set_visible (subtitle, FALSE);
      gtk_widget_set_visible (error, FALSE);
      gtk_widget_set_tooltip_text (gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander)),
                                   NULL);
    }
}

static void
sidebar_unbind (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr (GObject) object = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

  if (DY_IS_CONNECTION (object))
    {
      g_signal_handlers_disconnect_by_func (object, sidebar_update_connection, list_item);
      g_signal_handlers_disconnect_by_func (row, sidebar_row_expanded, NULL);
    }
}

void
dy_window_sidebar_activate (DyWindow *self, guint position)
{
  GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (self->sidebar_list));
  g_autoptr (GtkTreeListRow) row = g_list_model_get_item (model, position);
  g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);
  g_autoptr (GtkTreeListRow) parent = NULL;
  g_autoptr (GObject) connection = NULL;

  if (!GTK_IS_STRING_OBJECT (object))
    {
      DyConnection *c = DY_CONNECTION (object);

      /* A connection that failed is retried by clicking it, as its error message says. */
      if (dy_connection_get_error (c) != NULL && !dy_connection_get_loading (c))
        {
          dy_connection_refresh_tables (c);
          gtk_tree_list_row_set_expanded (row, TRUE);
        }
      else
        gtk_tree_list_row_set_expanded (row, !gtk_tree_list_row_get_expanded (row));
      return;
    }
  parent = gtk_tree_list_row_get_parent (row);
  connection = gtk_tree_list_row_get_item (parent);
  dy_window_open_table (self, DY_CONNECTION (connection),
                        gtk_string_object_get_string (GTK_STRING_OBJECT (object)));
}

void
dy_window_sidebar_init (DyWindow *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkTreeListModel *tree;
  GtkSingleSelection *selection;

  /* Not autoexpanded: database files open on their tables, remote connections stay closed
   * until asked for (see sidebar_row_expanded). */
  tree = gtk_tree_list_model_new (g_object_ref (G_LIST_MODEL (self->connections)), FALSE, FALSE,
                                  sidebar_children, NULL, NULL);
  selection = gtk_single_selection_new (G_LIST_MODEL (tree));
  gtk_single_selection_set_autoselect (selection, FALSE);
  g_signal_connect (factory, "setup", G_CALLBACK (sidebar_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (sidebar_bind), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (sidebar_unbind), NULL);
  gtk_list_view_set_factory (self->sidebar_list, factory);
  gtk_list_view_set_model (self->sidebar_list, GTK_SELECTION_MODEL (selection));
  g_object_unref (factory);
  g_object_unref (selection);
}

DyConnection *
dy_window_sidebar_selection (DyWindow *self, const char **table)
{
  GtkSingleSelection *sidebar = GTK_SINGLE_SELECTION (gtk_list_view_get_model (self->sidebar_list));
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (sidebar);
  g_autoptr (GObject) item = NULL;
  g_autoptr (GtkTreeListRow) parent = NULL;
  g_autoptr (GObject) owner = NULL;

  *table = NULL;
  if (row == NULL)
    return NULL;
  item = gtk_tree_list_row_get_item (row);
  if (DY_IS_CONNECTION (item))
    return DY_CONNECTION (item);
  parent = gtk_tree_list_row_get_parent (row);
  owner = parent != NULL ? gtk_tree_list_row_get_item (parent) : NULL;
  if (GTK_IS_STRING_OBJECT (item) && DY_IS_CONNECTION (owner))
    {
      *table = gtk_string_object_get_string (GTK_STRING_OBJECT (item));
      return DY_CONNECTION (owner);
    }
  return NULL;
}
