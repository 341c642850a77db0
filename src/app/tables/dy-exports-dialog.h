/* dy-exports-dialog.h: a live table's exports to S3 — point-in-time recovery (which an export
 * needs) shown and turned on, the table's exports listed (ListExports, DescribeExport: status,
 * time, type, format, items, size), a new one started (ExportTableToPointInTime: bucket, prefix,
 * DynamoDB JSON or Ion) and followed until it completes, and a completed one opened as a
 * snapshot ("open"). Bucket, prefix and format are remembered per connection. */
#pragma once

#include <adwaita.h>

#include "app/connections/dy-connection.h"

G_BEGIN_DECLS

#define DY_TYPE_EXPORTS_DIALOG (dy_exports_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DyExportsDialog, dy_exports_dialog, DY, EXPORTS_DIALOG, AdwWindow)

/* Signal "open" (const char *url, const char *key_spec): a completed export to open as a
 * snapshot: url "s3://BUCKET/KEY" of its manifest-summary.json, key_spec "pk:S[,sk:N]" of the
 * table. */
DyExportsDialog *dy_exports_dialog_new (GtkWindow *parent, DyConnection *connection,
                                        const char *table, GSettings *settings);

DyConnection *dy_exports_dialog_get_connection (DyExportsDialog *self);

/* For tests: the rows of the exports list (each an AdwActionRow), and the status line. */
/* Export and Open: an export to the bucket and prefix the form holds (the ones remembered for
 * the connection), opened as a snapshot ("open") once complete; started once the table is read.
 * With no bucket, asks for one. */
void dy_exports_dialog_export_and_open (DyExportsDialog *self);

GtkListBox *dy_exports_dialog_get_list (DyExportsDialog *self);
const char *dy_exports_dialog_get_pitr_text (DyExportsDialog *self);
/* The error the dialog shows, or NULL. */
const char *dy_exports_dialog_get_error (DyExportsDialog *self);

G_END_DECLS
