/* export-private.h: what the continuous backups operations (pitr-ops.c), the export operations
 * (export-ops.c) and the export jobs (export-job.c) share. Private to them. */
#pragma once

#include <jansson.h>

#include "engine/engine-private.h"
#include "engine/export-layout.h"

G_BEGIN_DECLS

/* The ARN of a table of this engine: ARN_PREFIX + name. */
char *ddb_pitr_table_arn (const char *name);
/* The table a TableName (a name or a table's ARN) or TableArn names; TableNotFoundException
 * "Table not found: NAME" when there is none. */
DdbTableDef *ddb_pitr_table (DdbEngine *e, const char *name_or_arn, GError **error);

/* What an export job does, read from its request once checked. */
typedef struct {
  char *export_arn;
  DdbTableDef *def;
  DdbExportFormat format;
  gboolean incremental;
  gboolean old_images;
  gint64 export_us, from_us, to_us, start_us;
  char *bucket, *bucket_owner, *prefix, *sse, *kms;
  json_t *description; /* the ExportDescription as stored (owned) */
} DdbExportJobSpec;

void ddb_export_job_spec_free (DdbExportJobSpec *spec);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbExportJobSpec, ddb_export_job_spec_free)

/* Starts the job on a thread of its own (takes `spec`); it writes its outcome into the store's
 * description of it (COMPLETED or FAILED). */
void ddb_export_job_start (DdbEngine *e, DdbExportJobSpec *spec);

/* Epoch seconds with milliseconds, as the API's timestamps are sent. */
json_t *ddb_export_time_json (gint64 us);

G_END_DECLS
