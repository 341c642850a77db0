/* dy-value-cell.c: the inspector's Value cell (see dy-value-cell.h). */
#define G_LOG_DOMAIN "dynoscope-inspector"

#include <glib/gi18n.h>

#include "app/common/dy-format-time.h"
#include "app/inspector/dy-value-cell.h"

void
dy_value_cell_setup (GtkListItem *list_item)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *value = gtk_label_new (NULL);
  GtkWidget *time = gtk_label_new (NULL);

  /* Values are read here digit for digit: wrapped, never cut. */
  gtk_label_set_xalign (GTK_LABEL (value), 0);
  gtk_label_set_wrap (GTK_LABEL (value), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  gtk_widget_set_hexpand (value, TRUE);
  gtk_label_set_xalign (GTK_LABEL (time), 0);
  gtk_label_set_wrap (GTK_LABEL (time), TRUE);
  gtk_widget_add_css_class (time, "dim-label");
  gtk_widget_add_css_class (time, "value-time");
  gtk_widget_set_visible (time, FALSE);
  gtk_box_append (GTK_BOX (box), value);
  gtk_box_append (GTK_BOX (box), time);
  g_object_set_data (G_OBJECT (box), "value-label", value);
  g_object_set_data (G_OBJECT (box), "time-label", time);
  gtk_list_item_set_child (list_item, box);
}

GtkLabel *
dy_value_cell_get_value_label (GtkWidget *cell)
{
  return g_object_get_data (G_OBJECT (cell), "value-label");
}

GtkLabel *
dy_value_cell_get_time_label (GtkWidget *cell)
{
  return g_object_get_data (G_OBJECT (cell), "time-label");
}

void
dy_value_cell_bind (GtkListItem *list_item, DyNode *node, guint depth, const char *ttl_attribute)
{
  GtkWidget *cell = gtk_list_item_get_child (list_item);
  GtkLabel *value_label = dy_value_cell_get_value_label (cell);
  GtkLabel *time_label = dy_value_cell_get_time_label (cell);
  const DdbValue *value = dy_node_get_value (node);
  g_autofree char *text = dy_node_dup_value_text (node);
  g_autofree char *time = dy_format_time (value);
  g_autofree char *shown = NULL;
  const char *tooltip = NULL;

  gtk_label_set_text (value_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (value_label), text);
  /* a date alone reads as itself */
  if (time != NULL && g_str_equal (time, text))
    g_clear_pointer (&time, g_free);
  if (depth == 0 && ttl_attribute != NULL
      && g_strcmp0 (dy_node_get_name (node), ttl_attribute) == 0)
    {
      g_autofree char *phrase = dy_format_ttl (value, dy_format_now ());

      shown = time != NULL ? g_strdup_printf ("%s · %s", time, phrase) : g_steal_pointer (&phrase);
      /* TRANSLATORS: tooltip of the TTL attribute's expiry in the inspector */
      tooltip = _("The table's Time to Live attribute: DynamoDB deletes an item once this "
                  "time has passed, typically within a few days, and only when it is a Number "
                  "of epoch seconds no more than five years in the past");
    }
  else
    shown = g_steal_pointer (&time);
  gtk_label_set_text (time_label, shown != NULL ? shown : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (time_label), tooltip);
  gtk_widget_set_visible (GTK_WIDGET (time_label), shown != NULL);
}
