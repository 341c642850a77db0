/* dy-copy-dialog.h: Copy To: where a grid selection is copied — a connection of the window
 * and one of its tables — with the key names mapped when the two tables name their keys
 * differently, and whether items that exist are overwritten. The copy itself is staged
 * (dy_staging_copy_async): nothing is written until the commit. */
#pragma once

#include <adwaita.h>

#include "app/connections/dy-connection.h"

G_BEGIN_DECLS

#define DY_TYPE_COPY_DIALOG (dy_copy_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DyCopyDialog, dy_copy_dialog, DY, COPY_DIALOG, AdwWindow)

/* Signal "chosen" (void handler (DyCopyDialog *, DyConnection *target, const char *table,
 * gboolean overwrite)): the user chose Stage; the dialog closes itself after. */

/* A dialog over PARENT (a DyWindow: its connections are the choices) copying from TABLE of
 * SOURCE, whose key is PARTITION_KEY and SORT_KEY (may be NULL). */
DyCopyDialog *dy_copy_dialog_new (GtkWindow *parent, DyConnection *source, const char *table,
                                  const char *partition_key, const char *sort_key);

/* For tests: picks TARGET and its TABLE, as the user would in the dropdowns. FALSE when the
 * window has no such connection or it lists no such table yet. */
gboolean dy_copy_dialog_select (DyCopyDialog *self, DyConnection *target, const char *table);
/* The key mapping line the dialog shows ("PK → pk, SK → sk"), or NULL before the target
 * table is described. Borrowed. */
const char *dy_copy_dialog_get_mapping (DyCopyDialog *self);

G_END_DECLS
