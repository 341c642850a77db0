/* dy-keys-rows.c: the rows and lists of the key-distribution view (see dy-keys-rows.h). */
#define G_LOG_DOMAIN "dynoscope-keys-view"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "app/keys/dy-keys-rows.h"

struct _DyKeysRow {
  GObject parent_instance;
  char *key;
  GStrv cells;
};

G_DEFINE_FINAL_TYPE (DyKeysRow, dy_keys_row, G_TYPE_OBJECT)

static void
dy_keys_row_finalize (GObject *object)
{
  DyKeysRow *self = DY_KEYS_ROW (object);

  g_free (self->key);
  g_strfreev (self->cells);
  G_OBJECT_CLASS (dy_keys_row_parent_class)->finalize (object);
}

static void
dy_keys_row_class_init (DyKeysRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_keys_row_finalize;
}

static void
dy_keys_row_init (DyKeysRow *self)
{
}

DyKeysRow *
dy_keys_row_new (const char *key, const char *const *cells)
{
  DyKeysRow *self = g_object_new (DY_TYPE_KEYS_ROW, NULL);

  self->key = g_strdup (key);
  self->cells = g_strdupv ((char **) cells);
  return self;
}

const char *
dy_keys_row_get_key (DyKeysRow *self)
{
  g_return_val_if_fail (DY_IS_KEYS_ROW (self), NULL);
  return self->key;
}

const char *
dy_keys_row_get_cell (DyKeysRow *self, guint column)
{
  g_return_val_if_fail (DY_IS_KEYS_ROW (self), NULL);
  return column < g_strv_length (self->cells) ? self->cells[column] : NULL;
}

/* The list: one factory per column, which knows its column's number and kind. */

typedef struct {
  guint column;
  DyKeysColumnKind kind;
} ColumnInfo;

static void
cell_setup (GtkSignalListItemFactory *factory, GtkListItem *item, ColumnInfo *info)
{
  GtkWidget *label = gtk_label_new (NULL);

  if (info->kind == DY_KEYS_COLUMN_FIGURE)
    {
      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_widget_add_css_class (label, "numeric");
    }
  else
    {
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), info->kind == DY_KEYS_COLUMN_KEY
                                                      ? PANGO_ELLIPSIZE_MIDDLE
                                                      : PANGO_ELLIPSIZE_END);
    }
  if (info->kind == DY_KEYS_COLUMN_KEY)
    gtk_widget_add_css_class (label, "monospace");
  gtk_list_item_set_child (item, label);
}

static void
cell_bind (GtkSignalListItemFactory *factory, GtkListItem *item, ColumnInfo *info)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  DyKeysRow *row = gtk_list_item_get_item (item);
  const char *text = dy_keys_row_get_cell (row, info->column);

  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "");
  /* a key cut to fit is read whole in its tooltip */
  gtk_widget_set_tooltip_text (label, info->kind == DY_KEYS_COLUMN_FIGURE ? NULL : text);
}

static void
selection_changed (GtkSingleSelection *selection, guint position, guint n, GtkWidget *buttons)
{
  DyKeysRow *row = gtk_single_selection_get_selected_item (selection);

  for (GtkWidget *b = gtk_widget_get_first_child (buttons); b != NULL;
       b = gtk_widget_get_next_sibling (b))
    {
      if (!GTK_IS_ACTIONABLE (b))
        continue;
      gtk_actionable_set_action_target_value (GTK_ACTIONABLE (b),
                                              g_variant_new_string (row != NULL ? row->key : ""));
      gtk_widget_set_sensitive (b, row != NULL);
    }
}

static void
row_activated (GtkColumnView *view, guint position, gpointer user_data)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr (DyKeysRow) row = g_list_model_get_item (model, position);

  if (row != NULL)
    gtk_widget_activate_action (GTK_WIDGET (view), "keys.query", "s", row->key);
}

static GtkWidget *
list_button (const char *icon, const char *label, const char *action, const char *tooltip)
{
  GtkWidget *button = gtk_button_new ();
  GtkWidget *content = adw_button_content_new ();

  adw_button_content_set_icon_name (ADW_BUTTON_CONTENT (content), icon);
  adw_button_content_set_label (ADW_BUTTON_CONTENT (content), label);
  adw_button_content_set_use_underline (ADW_BUTTON_CONTENT (content), TRUE);
  gtk_button_set_child (GTK_BUTTON (button), content);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), g_variant_new_string (""));
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_set_sensitive (button, FALSE);
  gtk_widget_add_css_class (button, "flat");
  return button;
}

GtkWidget *
dy_keys_list_new (GListModel *rows, const DyKeysColumn *columns, guint n_columns, int max_height,
                  GtkColumnView **view_out)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *frame = gtk_frame_new (NULL);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkSingleSelection *selection = gtk_single_selection_new (g_object_ref (rows));
  GtkWidget *view;

  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  /* the view takes the selection */
  view = gtk_column_view_new (GTK_SELECTION_MODEL (selection));
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (view), FALSE);
  gtk_column_view_set_reorderable (GTK_COLUMN_VIEW (view), FALSE);
  for (guint i = 0; i < n_columns; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      ColumnInfo *info = g_new0 (ColumnInfo, 1);
      GtkColumnViewColumn *column;

      info->column = i;
      info->kind = columns[i].kind;
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), info);
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), info);
      g_object_set_data_full (G_OBJECT (factory), "dy-keys-column", info, g_free);
      column = gtk_column_view_column_new (columns[i].title, factory);
      gtk_column_view_column_set_expand (column, columns[i].kind == DY_KEYS_COLUMN_KEY);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (view), column);
      g_object_unref (column);
    }
  g_signal_connect (view, "activate", G_CALLBACK (row_activated), NULL);

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), max_height);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), view);
  g_object_set_data (G_OBJECT (box), "dy-keys-scroller", scroller);
  g_object_set_data (G_OBJECT (box), "dy-keys-max-height", GINT_TO_POINTER (max_height));
  gtk_frame_set_child (GTK_FRAME (frame), scroller);
  gtk_box_append (GTK_BOX (box), frame);

  gtk_box_append (GTK_BOX (buttons),
                  list_button ("edit-copy-symbolic", _ ("_Copy Key"), "keys.copy-key",
                               _ ("Copy the selected partition key value")));
  gtk_box_append (GTK_BOX (buttons),
                  list_button ("system-search-symbolic", _ ("_Query Partition"), "keys.query",
                               _ ("Query the selected partition in the table’s tab")));
  gtk_box_append (GTK_BOX (box), buttons);
  g_signal_connect_object (selection, "selection-changed", G_CALLBACK (selection_changed), buttons,
                           0);
  if (view_out != NULL)
    *view_out = GTK_COLUMN_VIEW (view);
  return box;
}

void
dy_keys_list_fit (GtkWidget *list, guint n_rows)
{
  GtkScrolledWindow *scroller = g_object_get_data (G_OBJECT (list), "dy-keys-scroller");
  int max_height = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (list), "dy-keys-max-height"));
  int height;

  g_return_if_fail (scroller != NULL);
  /* A column view's natural height is that of the rows it has made, not of all of them: the
   * height asked for is that of N_ROWS rows of a line of text, up to MAX_HEIGHT. */
  height = MIN (max_height, DY_KEYS_HEADER_HEIGHT + (int) n_rows * DY_KEYS_ROW_HEIGHT);
  gtk_scrolled_window_set_min_content_height (scroller, -1);
  gtk_scrolled_window_set_max_content_height (scroller, max_height);
  gtk_scrolled_window_set_min_content_height (scroller, height);
}

