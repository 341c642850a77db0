/* dy-confirm-name.h: the row where a name is typed to confirm something that cannot be undone
 * (Delete Table, a commit to a production connection): an AdwEntryRow titled "Type “NAME” to
 * confirm", confirmed once its text is NAME exactly. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Makes ROW ask for NAME (its title says so; its text is cleared). */
void dy_confirm_name_setup (AdwEntryRow *row, const char *name);
/* A new row asking for NAME. */
GtkWidget *dy_confirm_name_new (const char *name);
/* TRUE when ROW's text is the name it asks for. */
gboolean dy_confirm_name_get_confirmed (AdwEntryRow *row);
/* The name ROW asks for, or NULL. */
const char *dy_confirm_name_get_name (AdwEntryRow *row);

G_END_DECLS
