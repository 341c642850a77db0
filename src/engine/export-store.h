/* export-store.h: the export jobs of ExportTableToPointInTime in the store (dy_exports): each
 * one's ExportDescription as DescribeExport answers it, its ClientToken and the digest of its
 * parameters (idempotency), and the process running it, so that DescribeExport and ListExports
 * answer after a restart and a job whose process is gone ends FAILED. Private to src/engine. */
#pragma once

#include <jansson.h>

#include "engine/store.h"

G_BEGIN_DECLS

/* Creates dy_exports if absent (every open). */
gboolean ddb_export_store_init (DdbStore *store, GError **error);

/* Ends FAILED every job still IN_PROGRESS whose process is no longer running (a restart
 * interrupted it). Inside a transaction of its own. */
gboolean ddb_export_store_recover (DdbStore *store, GError **error);

/* Adds a job: `description` its ExportDescription (ExportArn, TableArn, ClientToken, ...).
 * Inside a write transaction (one of its own if none). */
gboolean ddb_export_store_add (DdbStore *store, json_t *description, const char *params,
                               gint64 created_us, GError **error);
/* Replaces the job's description (its status changed). */
gboolean ddb_export_store_set (DdbStore *store, json_t *description, GError **error);
/* The job's description (a new reference), or *description NULL. */
gboolean ddb_export_store_get (DdbStore *store, const char *arn, json_t **description,
                               GError **error);
/* The newest job of `token` created at or after `since_us`: its description and parameters'
 * digest, or both NULL. */
gboolean ddb_export_store_by_token (DdbStore *store, const char *token, gint64 since_us,
                                    json_t **description, char **params, GError **error);
/* Up to `limit` descriptions (a new array), in the order the jobs were created, of one table's
 * jobs or all (`table_arn` NULL), after the job `after_arn` (NULL: from the first); *more: one
 * more follows. */
json_t *ddb_export_store_list (DdbStore *store, const char *table_arn, const char *after_arn,
                               guint limit, gboolean *more, GError **error);

G_END_DECLS
