/* s3-import.h: DynamoDB's exports read straight from an S3 bucket into the engine (GTK-free):
 * where an export lies under a URL, and the import itself — the manifests read, the data files
 * fetched several at a time ahead of the reader and streamed through gzip into the engine (no
 * copy on disk), each checked against the manifest's MD5 and item count as it is read, the
 * whole import one transaction (nothing is left of a failed or cancelled one), a broken
 * download resumed by the S3 client from the byte reached. The engine's side is
 * engine/snapshot.h's DdbSnapshotStore; this gives it over net/s3.h. */
#pragma once

#include <gio/gio.h>

#include "engine/engine.h"
#include "engine/snapshot.h"
#include "net/s3.h"

G_BEGIN_DECLS

typedef struct {
  guint parallel;        /* data files fetched at once; 0: 4 */
  guint64 memory_budget; /* bytes fetched ahead of the reader and not yet read; 0: 64 MiB */
} DdbS3ImportOptions;

/* Where the export URL names lies: URL is s3://BUCKET/KEY where KEY is the export's
 * manifest-summary.json, the folder holding it (".../AWSDynamoDB/<export id>[/]"), or a prefix
 * under which exactly one export lies (PREFIX/AWSDynamoDB/<id>/manifest-summary.json; several:
 * an error naming each, newest first, so that the user can pick one). *BUCKET and *SUMMARY_KEY
 * receive the bucket and the key of the manifest-summary.json. Errors: DDB_S3_ERROR (the
 * bucket's, NoSuchBucket, AccessDenied, ...), G_IO_ERROR_NOT_FOUND when no export lies there. */
gboolean ddb_s3_export_locate (DdbS3 *s3, const char *url, char **bucket, char **summary_key,
                               GCancellable *cancellable, GError **error);

/* Imports as a new table of ENGINE the export URLS[0] (a full export) and, after it, the
 * incremental exports URLS[1..] (NULL-terminated), each located as ddb_s3_export_locate does and
 * all in one bucket, through S3. OPTIONS as ddb_snapshot_import takes them (table name, key,
 * GSIs, progress — files, bytes, items and rates —, cancellable); its store is set here. The
 * table's base records the export: source "s3://BUCKET/KEY-of-its-folder" (or the last
 * incremental export's), format "s3". S3_OPTIONS may be NULL. */
gboolean ddb_s3_import (DdbEngine *engine, DdbS3 *s3, const char *const *urls,
                        const DdbImportOptions *options, const DdbS3ImportOptions *s3_options,
                        DdbSnapshotProgress *out, GError **error);

/* The exports URLS[0] (a full export) and URLS[1..] (its incremental exports; NULL-terminated)
 * located as ddb_s3_export_locate does, all in one bucket, and the store to read them through
 * (DdbImportOptions.store): for a reader other than the import (compare reads an export side
 * so). Errors as ddb_s3_import's. */
typedef struct _DdbS3Exports DdbS3Exports;

DdbS3Exports *ddb_s3_exports_open (DdbS3 *s3, const char *const *urls,
                                   const DdbS3ImportOptions *s3_options, GCancellable *cancellable,
                                   GError **error);
void ddb_s3_exports_free (DdbS3Exports *exports);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbS3Exports, ddb_s3_exports_free)
/* The store (valid while EXPORTS is), and the keys of the exports' manifest-summary.json in the
 * order of the URLs, NULL-terminated: the source and the incrementals a reader takes. */
const DdbSnapshotStore *ddb_s3_exports_get_store (DdbS3Exports *exports);
const char *const *ddb_s3_exports_get_summaries (DdbS3Exports *exports);

G_END_DECLS
