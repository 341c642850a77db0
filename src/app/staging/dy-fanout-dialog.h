/* dy-fanout-dialog.h: the fan-out dialog: an attribute's old and new value, how to find the
 * items holding a copy of it (an index Query on a partition key value, or a filtered Scan), a
 * preview of the count, size and write cost (ddb_fanout_plan on a thread), and staging one
 * guarded update per copy. */
#pragma once

#include <adwaita.h>

#include "app/staging/dy-staging.h"

G_BEGIN_DECLS

#define DY_TYPE_FANOUT_DIALOG (dy_fanout_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DyFanoutDialog, dy_fanout_dialog, DY, FANOUT_DIALOG, AdwWindow)

/* Signal "staged" (void handler (DyFanoutDialog *, guint n_items)): the updates were staged;
 * the dialog closes itself after it. */

/* Describes TABLE to list its indexes; nothing runs until Preview. */
GtkWidget *dy_fanout_dialog_new (GtkWindow *parent, DyStaging *staging, DyConnection *connection,
                                 const char *table);
/* Prefills the change (strings and numbers; other types are left for the user to type). */
void dy_fanout_dialog_set_change (DyFanoutDialog *self, const char *attribute,
                                  const DdbValue *old_value, const DdbValue *new_value);
/* Picks INDEX (NULL: Scan) with its partition key value KEY_TEXT. */
void dy_fanout_dialog_set_method (DyFanoutDialog *self, const char *index, const char *key_text);

/* For tests. TRUE once the table's indexes are listed. */
gboolean dy_fanout_dialog_get_ready (DyFanoutDialog *self);
/* TRUE while a preview runs. */
gboolean dy_fanout_dialog_get_busy (DyFanoutDialog *self);
/* The last preview's plan, while the inputs have not changed since; else NULL. */
const DdbFanoutPlan *dy_fanout_dialog_get_plan (DyFanoutDialog *self);
/* The preview line as shown ("3 items · 612 B · ..."). */
const char *dy_fanout_dialog_get_summary (DyFanoutDialog *self);
/* The last problem shown, or NULL. */
const char *dy_fanout_dialog_get_error (DyFanoutDialog *self);

G_END_DECLS
