/* dy-table-view-find.c: Find in Loaded Rows (Ctrl+Shift+F): a search bar over the grid whose
 * text keeps, of the rows loaded, those holding it in a value (dy-row-match.h), in the grid's
 * order (as loaded, sorted or grouped: dy-table-view-arrange.c does the work, on a worker past
 * a few rows), and says how many of the loaded rows it kept. Escape or the bar's close button
 * shows every row again. The Query's own filter (Ctrl+F) is another thing: it is sent. */
#define G_LOG_DOMAIN "dynoscope-table-view"

#include <glib/gi18n.h>

#include "app/browser/dy-table-view-private.h"
#include "app/common/dy-format.h"

gboolean
dy_table_view_finding (DyTableView *self)
{
  return self->find_text != NULL;
}

void
dy_table_view_find_update (DyTableView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  g_autofree char *found = NULL;
  g_autofree char *loaded = NULL;
  g_autofree char *text = NULL;

  if (!dy_table_view_finding (self))
    {
      gtk_label_set_text (self->find_label, "");
      return;
    }
  if (self->arranging)
    {
      gtk_label_set_text (self->find_label, _ ("Finding…"));
      return;
    }
  found = dy_format_count (self->found);
  loaded = dy_format_count (n);
  /* TRANSLATORS: Find in Loaded Rows: the rows holding the text, of the rows loaded. */
  text = g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE, "%s of %s loaded row", "%s of %s loaded rows", n), found,
      loaded);
  gtk_label_set_text (self->find_label, text);
}

static void
find_changed (GtkSearchEntry *entry, DyTableView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  if (g_strcmp0 (text, self->find_text) == 0 || (*text == '\0' && self->find_text == NULL))
    return;
  g_clear_pointer (&self->find_text, g_free);
  if (*text != '\0')
    self->find_text = g_strdup (text);
  dy_table_view_rebuild_rows (self);
  dy_table_view_find_update (self);
}

/* The bar closed: every row again. */
static void
find_bar_toggled (GtkSearchBar *bar, GParamSpec *pspec, DyTableView *self)
{
  if (!gtk_search_bar_get_search_mode (bar))
    gtk_editable_set_text (GTK_EDITABLE (self->find_entry), "");
}

static void
find_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);

  gtk_search_bar_set_search_mode (self->find_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->find_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->find_entry), 0, -1);
}

void
dy_table_view_find_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, DyTableView, find_bar);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, find_entry);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, find_label);
  gtk_widget_class_bind_template_callback (widget_class, find_changed);
  gtk_widget_class_bind_template_callback (widget_class, find_bar_toggled);
  gtk_widget_class_install_action (widget_class, "view.find", NULL, find_action);
}

void
dy_table_view_find_init (DyTableView *self)
{
  gtk_search_bar_connect_entry (self->find_bar, GTK_EDITABLE (self->find_entry));
}
