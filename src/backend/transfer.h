/* transfer.h: snapshot import and export (engine/snapshot.h) against whatever answers the
 * backend seam. On a database, an import is the engine's: one transaction, all or nothing. On
 * a remote endpoint, an import creates the table (PAY_PER_REQUEST), waits until it is ACTIVE
 * and writes the items with BatchWriteItem, 25 at a time, retrying UnprocessedItems; what was
 * written before an error stays (a remote import cannot be atomic). Exports read the table
 * through the seam in both cases: Scan (parallel with several segments) or a Query. */
#pragma once

#include "backend/backend.h"
#include "backend/batch.h"
#include "engine/snapshot.h"

G_BEGIN_DECLS

/* Imports SOURCE as a new table (see ddb_snapshot_import for OPTIONS and the errors). Remote:
 * the table is created first and stays, with what was written, whatever happens next; an
 * error's message then ends with how many items were written before it, and *OUT's items
 * (OUT may be NULL) count the items written. TUNING may be NULL. */
gboolean ddb_transfer_import (DdbBackend *backend, const char *source,
                              const DdbImportOptions *options, const DdbTransferTuning *tuning,
                              DdbSnapshotProgress *out, GError **error);

/* Exports as ddb_snapshot_export does. SEGMENT_BACKENDS (NULL, or a NULL-terminated array) are
 * further backends to the same place that parallel Scan segments use in turn with BACKEND, so
 * that each segment can have a connection of its own (a client serialises its requests). */
gboolean ddb_transfer_export (DdbBackend *backend, DdbBackend *const *segment_backends,
                              const char *dest, const DdbExportOptions *options,
                              DdbSnapshotProgress *out, GError **error);

G_END_DECLS
