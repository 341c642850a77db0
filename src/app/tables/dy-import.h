/* dy-import.h: the Import Snapshot dialog: a DynamoDB export to S3 (a folder, or read straight
 * from its bucket) or a snapshot file (DynamoDB JSON lines, JSON, CSV) imported as a new table into a new database file or an open
 * database, on a thread, with progress, a rate and Cancel. The engine's import is one
 * transaction, so a cancelled or failed import leaves nothing behind. */
#pragma once

#include <adwaita.h>

#include "app/window/dy-window.h"

G_BEGIN_DECLS

#define DY_TYPE_IMPORT_DIALOG (dy_import_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DyImportDialog, dy_import_dialog, DY, IMPORT_DIALOG, AdwWindow)

/* Asks for a snapshot file (FOLDER FALSE; an S3 export's manifest-summary.json stands for its
 * folder) or an S3 export folder (FOLDER TRUE), then shows the import dialog for it. */
void dy_import_choose (DyWindow *window, gboolean folder);
/* Asks for the s3:// URL of an export in a bucket, then shows the import dialog for it. */
void dy_import_choose_s3 (DyWindow *window);

/* Shows the import dialog for SOURCE (a folder in the S3 export layout, a snapshot file, or an
 * export in a bucket: "s3://BUCKET/KEY", its folder, its manifest-summary.json or a prefix
 * holding one export). */
DyImportDialog *dy_import_dialog_new (DyWindow *window, const char *source);
/* The same for an export of CONNECTION's table (may be NULL): an s3:// SOURCE is read with
 * that connection's profile and region; KEY_SPEC (may be NULL) fills in the key schema. */
DyImportDialog *dy_import_dialog_new_for_export (DyWindow *window, const char *source,
                                                 DyConnection *connection,
                                                 const char *key_spec);

/* Incremental exports (s3:// URLs) to apply on top of the export the dialog imports, in any
 * order: call before the import starts (the source row says how many once looked at). */
void dy_import_dialog_set_incrementals (DyImportDialog *self, const char *const *urls);
/* Those URLs, or NULL. */
const char *const *dy_import_dialog_get_incrementals (DyImportDialog *self);

/* The source as the import reads it (a manifest-summary.json given becomes its folder). */
const char *dy_import_dialog_get_source (DyImportDialog *self);
/* TRUE while the import runs. */
gboolean dy_import_dialog_get_running (DyImportDialog *self);
/* The error the dialog shows, or NULL. */
const char *dy_import_dialog_get_error (DyImportDialog *self);
/* TRUE once the source has been looked at (the table name is prefilled then). */
gboolean dy_import_dialog_get_inspected (DyImportDialog *self);

G_END_DECLS
