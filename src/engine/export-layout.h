/* export-layout.h: a writer of DynamoDB's "export to S3" layout, as ExportTableToPointInTime
 * leaves it in a bucket (AWS Developer Guide, "DynamoDB table export output format"):
 *
 *   PREFIX/AWSDynamoDB/EXPORTID/_started                   (empty, written first)
 *   PREFIX/AWSDynamoDB/EXPORTID/data/XXXXXXXXXXXXXXXXXXXXXXXXXX.json.gz   (full export)
 *   PREFIX/AWSDynamoDB/data/XXXXXXXXXXXXXXXXXXXXXXXXXX.json.gz             (incremental export:
 *                                                          the shared data folder)
 *   PREFIX/AWSDynamoDB/EXPORTID/manifest-files.json        one line a data file
 *   PREFIX/AWSDynamoDB/EXPORTID/manifest-files.checksum    hex MD5 of the line above's file
 *   PREFIX/AWSDynamoDB/EXPORTID/manifest-summary.json
 *   PREFIX/AWSDynamoDB/EXPORTID/manifest-summary.checksum
 *
 * Data files are gzip, one record a line: DynamoDB JSON ({"Item":{...}}, or for an incremental
 * export {"Metadata":{"WriteTimestampMicros":{"N":"..."}},"Keys":{...},"OldImage":{...},
 * "NewImage":{...}}) or Amazon Ion text (core/ion.h's export lines); .json.gz or .ion.gz, named
 * with 26 random base-32 characters, a new file begun once one holds `max_file_bytes` of
 * records (at least one file, empty when there are no records, as AWS writes one for an empty
 * partition). A line of manifest-files.json is {"itemCount", "md5Checksum" (base64 MD5 of the
 * .gz), "etag" (its hex MD5, S3's ETag of a single-part upload), "dataFileS3Key"}.
 *
 * Every object goes through a PUT callback, so the same writer fills a folder (the one given
 * here) or an S3 bucket. Nothing here knows the engine. */
#pragma once

#include <gio/gio.h>
#include <jansson.h>

#include "core/value.h"

G_BEGIN_DECLS

/* Stores one object under `key` (a key in the bucket, without a leading '/'). */
typedef gboolean (*DdbExportPutFunc) (const char *key, GBytes *contents, gpointer data,
                                      GCancellable *cancellable, GError **error);

/* Errors of a PUT that the export reports with one of AWS's FailureCodes. */
#define DDB_EXPORT_ERROR (ddb_export_error_quark ())
typedef enum {
  DDB_EXPORT_ERROR_NO_SUCH_BUCKET, /* S3NoSuchBucket */
  DDB_EXPORT_ERROR_ACCESS_DENIED,  /* S3AccessDenied */
  DDB_EXPORT_ERROR_FAILED,         /* UNKNOWN */
} DdbExportErrorCode;
GQuark ddb_export_error_quark (void);
/* The ExportDescription FailureCode for an error that ended an export. */
const char *ddb_export_failure_code (const GError *error);

typedef enum {
  DDB_EXPORT_FORMAT_DYNAMODB_JSON,
  DDB_EXPORT_FORMAT_ION,
} DdbExportFormat;

typedef struct {
  const char *export_arn;     /* ".../table/T/export/EXPORTID"; the id is its last part */
  const char *table_arn;
  const char *table_id;       /* NULL: null */
  const char *bucket;
  const char *prefix;         /* NULL or "": none */
  const char *sse_algorithm;  /* NULL: AES256 */
  const char *sse_kms_key_id; /* NULL: null */
  DdbExportFormat format;
  gboolean incremental;
  /* Incremental: NEW_AND_OLD_IMAGES (TRUE) or NEW_IMAGE. */
  gboolean old_images;
  /* Epoch microseconds: a full export's exportTime, an incremental one's from (inclusive) and
   * to (exclusive); the job's start (0: now). */
  gint64 export_time_us, from_time_us, to_time_us, start_time_us;
  /* Records a data file holds before the next one begins, in uncompressed bytes (0: 64 MiB). */
  gsize max_file_bytes;
  /* Extra members of manifest-summary.json (borrowed, may be NULL): Dynoscope's own
   * dynoscopeKey / dynoscopeGsis, for instance. */
  json_t *summary_extra;
} DdbExportLayoutOptions;

typedef struct _DdbExportLayout DdbExportLayout;

/* Writes _started (the bucket is writable, the export has begun). Options are copied. */
/* CANCELLABLE (may be NULL; borrowed: it must outlive the layout) is handed to PUT. */
DdbExportLayout *ddb_export_layout_begin (const DdbExportLayoutOptions *options,
                                          DdbExportPutFunc put, gpointer put_data,
                                          GCancellable *cancellable, GError **error);
/* A full export's item. */
gboolean ddb_export_layout_add_item (DdbExportLayout *layout, const DdbValue *item,
                                     GError **error);
/* An incremental export's record: `keys` always, `new_image` NULL for a delete, `old_image`
 * NULL for an insert (written only with old_images), the write's time in microseconds. */
gboolean ddb_export_layout_add_change (DdbExportLayout *layout, const DdbValue *keys,
                                       const DdbValue *old_image, const DdbValue *new_image,
                                       gint64 write_us, GError **error);
/* Writes the last data file, manifest-files.json, manifest-summary.json and their checksums;
 * *summary (may be NULL) gets the summary written (a new reference). */
gboolean ddb_export_layout_finish (DdbExportLayout *layout, json_t **summary, GError **error);
/* Records written so far, and their size in bytes as DynamoDB counts an item's size (the
 * export's ItemCount and BilledSizeBytes). */
guint64 ddb_export_layout_item_count (const DdbExportLayout *layout);
guint64 ddb_export_layout_billed_bytes (const DdbExportLayout *layout);
void ddb_export_layout_free (DdbExportLayout *layout);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbExportLayout, ddb_export_layout_free)

/* The key of the export's manifest-summary.json (ExportManifest). */
char *ddb_export_layout_manifest_key (const char *prefix, const char *export_arn);

/* ---- A folder as the bucket ---- */

/* PUTs into a folder standing for the bucket: key K is written to `root`/K (folders made as
 * needed, the file written whole then renamed into place). A `root` that is not a folder fails
 * with DDB_EXPORT_ERROR_NO_SUCH_BUCKET, as S3 answers for a missing bucket; a key with "." or
 * ".." components is refused. `data` is the root (a char*). */
gboolean ddb_export_folder_put (const char *key, GBytes *contents, gpointer data,
                                GCancellable *cancellable, GError **error);

G_END_DECLS
