/* dy-commit-confirm.h: what a commit to a production connection asks first: the name of each
 * table it writes to typed (as Delete Table asks), or, when it writes to more than
 * DY_COMMIT_CONFIRM_MAX_TABLES tables, the connection's name. Nothing is sent until then;
 * Cancel sends nothing and leaves the changes staged. */
#pragma once

#include <adwaita.h>

#include "app/connections/dy-connection.h"

G_BEGIN_DECLS

#define DY_COMMIT_CONFIRM_MAX_TABLES 3

typedef void (*DyCommitConfirmFunc) (GObject *data);

/* Shows the question over PARENT for a commit of N_CHANGES changes of CONNECTION to TABLES
 * (distinct names, NULL-terminated). CONFIRMED is called with DATA (held while the dialog is
 * open) once the names are typed and Commit is pressed. Returns the dialog (an
 * AdwMessageDialog, "commit" its response), owned by itself. */
GtkWidget *dy_commit_confirm_present (GtkWindow *parent, DyConnection *connection,
                                      const char *const *tables, guint n_changes,
                                      DyCommitConfirmFunc confirmed, GObject *data);
/* For tests: the rows (AdwEntryRow) where DIALOG asks for the names, in order. */
GPtrArray *dy_commit_confirm_get_rows (GtkWidget *dialog);

G_END_DECLS
