/* dy-import-private.h: what the import dialog's files share: the source of an import (a file, an
 * S3 export folder, or an export in a bucket with the session that reads it) and the look at it
 * taken before importing (dy-import-source.c). */
#pragma once

#include "app/tables/dy-import.h"
#include "engine/snapshot.h"

G_BEGIN_DECLS

/* DynamoDB's table names: 3 to 255 of [A-Za-z0-9_.-]. */
gboolean dy_import_valid_table_name (const char *name);

/* Where an import reads from. */
typedef struct {
  char *source;  /* a path, or "s3://BUCKET/KEY" */
  /* s3:// only: the session the bucket is read with (NULL: as the environment says) */
  char *profile;
  char *region;
  /* s3:// only: incremental exports applied on top, in any order (NULL: none) */
  GStrv incrementals;
} DyImportSource;

DyImportSource *dy_import_source_new (const char *source, const char *profile,
                                      const char *region);
void dy_import_source_free (DyImportSource *source);
gboolean dy_import_source_is_s3 (const DyImportSource *source);

/* What the source is, before importing: the table name it suggests and a description. */
typedef struct {
  char *table;       /* suggested name, or NULL */
  char *description; /* for the source row's subtitle */
  const char *icon;
} DyImportInspection;

void dy_import_inspection_free (DyImportInspection *inspection);
/* Looks at SOURCE (it may block: the file system, or S3): never NULL. */
DyImportInspection *dy_import_inspect (const DyImportSource *source, GCancellable *cancellable);

/* Imports SOURCE into the database file DB_PATH as OPTIONS say (an s3:// source straight from
 * the bucket, anything else through the backend's import); READ_ONLY refuses it. */
gboolean dy_import_run (const DyImportSource *source, const char *db_path, gboolean read_only,
                        const DdbImportOptions *options, DdbSnapshotProgress *out,
                        GError **error);

G_END_DECLS
