/* dy-table-dialog.h: New Table, Edit Table and Delete Table. Each shows the exact requests
 * (table-requests.h builds and checks them) on a Review page with "Copy as", sends them in order
 * on a thread (waiting for the table and its indexes to become ACTIVE, with progress), shows
 * DynamoDB's error in place without closing, and refreshes the connection's table list once
 * they succeed. Deleting asks for the table's name to be typed first. */
#pragma once

#include <adwaita.h>

#include "app/connections/dy-connection.h"
#include "backend/table-requests.h"

G_BEGIN_DECLS

#define DY_TYPE_TABLE_DIALOG (dy_table_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DyTableDialog, dy_table_dialog, DY, TABLE_DIALOG, AdwWindow)

/* Signal "done" (void handler (DyTableDialog *, const char *table)): the requests succeeded;
 * the dialog closes itself after it. */

/* A form for a new table on CONNECTION. */
GtkWidget *dy_table_dialog_new_create (GtkWindow *parent, DyConnection *connection);
/* Describes TABLE (DescribeTable, DescribeTimeToLive), then a form of what UpdateTable and
 * UpdateTimeToLive can change: GSIs added or removed, billing mode, stream, TTL. */
GtkWidget *dy_table_dialog_new_edit (GtkWindow *parent, DyConnection *connection,
                                     const char *table);
/* The DeleteTable request, sent once the table's name is typed. */
GtkWidget *dy_table_dialog_new_delete (GtkWindow *parent, DyConnection *connection,
                                       const char *table);

DyConnection *dy_table_dialog_get_connection (DyTableDialog *self);

/* For tests. A named field of the form ("name", "pk-name", "pk-type", "sk-name", "sk-type",
 * "billing", "rcu", "wcu", "index-name", "index-kind", "index-pk-name", "index-pk-type",
 * "index-sk-name", "index-sk-type", "index-projection", "index-include", "add-index", "new-index"
 * (the row they fold under), "stream", "ttl", "ttl-attribute", "confirm", "primary": the
 * Review/Create/Apply/Delete button), or NULL. */
GtkWidget *dy_table_dialog_get_field (DyTableDialog *self, const char *name);
/* The remove button of the index named INDEX in the form's list, or NULL. */
GtkWidget *dy_table_dialog_get_remove_button (DyTableDialog *self, const char *index);
/* TRUE once the form can be used (an Edit dialog's table described). */
gboolean dy_table_dialog_get_ready (DyTableDialog *self);
/* TRUE while the requests run. */
gboolean dy_table_dialog_get_busy (DyTableDialog *self);
/* "form" or "review". */
const char *dy_table_dialog_get_page (DyTableDialog *self);
/* The requests shown on the Review page. Newly allocated. */
char *dy_table_dialog_get_review_text (DyTableDialog *self);
/* The last problem shown, or NULL. */
const char *dy_table_dialog_get_error (DyTableDialog *self);
/* The steps last reviewed (DdbTableStep), or NULL. */
GPtrArray *dy_table_dialog_get_steps (DyTableDialog *self);

G_END_DECLS
