/* dy-confirm-name.c: the typed-name confirmation row (Delete Table, production commits). */
#define G_LOG_DOMAIN "dynoscope"

#include <glib/gi18n.h>

#include "app/common/dy-confirm-name.h"

#define NAME_KEY "dy-confirm-name"

void
dy_confirm_name_setup (AdwEntryRow *row, const char *name)
{
  /* TRANSLATORS: the entry where the user types the table's name to confirm deleting it */
  g_autofree char *title = g_strdup_printf (_ ("Type “%s” to _confirm"), name);

  g_object_set_data_full (G_OBJECT (row), NAME_KEY, g_strdup (name), g_free);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_editable_set_text (GTK_EDITABLE (row), "");
}

GtkWidget *
dy_confirm_name_new (const char *name)
{
  GtkWidget *row = adw_entry_row_new ();

  dy_confirm_name_setup (ADW_ENTRY_ROW (row), name);
  return row;
}

const char *
dy_confirm_name_get_name (AdwEntryRow *row)
{
  return g_object_get_data (G_OBJECT (row), NAME_KEY);
}

gboolean
dy_confirm_name_get_confirmed (AdwEntryRow *row)
{
  const char *name = dy_confirm_name_get_name (row);

  return name != NULL && g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (row)), name) == 0;
}
