/* engine-private.h: what the operation files of src/engine share: the engine, the operation
 * signature, and one declaration per operation (each implemented in its *-ops.c file). */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "engine/engine.h"
#include "engine/export-target.h"
#include "engine/store.h"

G_BEGIN_DECLS

struct _DdbEngine {
  /* The writer; in a read-only call on a file database, the call's reader instead (the
   * operation gets a copy of the engine with this member replaced, and must not lock). */
  DdbStore *store;
  /* Serializes use of the writer: calls that write, all calls on an in-memory database, imports.
   * Never held between calls with a transaction open: a write group begins and commits under
   * one hold. */
  GMutex lock;

  /* Group commit (file databases): writing calls queue up; one caller at a time, the leader,
   * takes the queue and runs its calls in one transaction (a savepoint each), commits once (one
   * fsync for the group) and only then wakes their callers with their answers, each on a
   * condition of its own (engine.c), and the first caller left in the queue, to lead next. */
  GMutex queue_lock;
  GQueue queue;     /* of the waiting calls (engine.c), oldest first */
  gboolean leading; /* a leader is running a group */
  /* Under queue_lock, for tests: groups committed and the calls they held. */
  guint64 groups;
  guint64 grouped_calls;

  /* Exports (export-ops.c): their target, and the jobs running on threads of their own, which
   * ddb_engine_free cancels and waits for. */
  GMutex export_lock;
  GCond export_idle;
  guint exports_running;
  gint export_closing; /* atomic: the engine is being freed, running exports stop */
  DdbExportBucketFunc export_open_bucket;
  gpointer export_target_data;
  GDestroyNotify export_target_destroy;
  DdbExportStopFunc export_target_stop; /* may be NULL */
};

/* An operation: `request` borrowed; returns the response (new reference) or NULL with `error`
 * set and, optionally, *extra set to the extra members of the error body. */
typedef json_t *(*DdbOperation) (DdbEngine *engine, json_t *request, json_t **extra,
                                 GError **error);

/* table-ops.c */
json_t *ddb_op_create_table (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_describe_table (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_list_tables (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_delete_table (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_update_table (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_tag_resource (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_untag_resource (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_list_tags_of_resource (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_update_time_to_live (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_describe_time_to_live (DdbEngine *e, json_t *req, json_t **extra, GError **error);

/* pitr-ops.c: continuous backups */
json_t *ddb_op_update_continuous_backups (DdbEngine *e, json_t *req, json_t **extra,
                                          GError **error);
json_t *ddb_op_describe_continuous_backups (DdbEngine *e, json_t *req, json_t **extra,
                                            GError **error);

/* export-ops.c: exports to S3 */
json_t *ddb_op_export_table_to_point_in_time (DdbEngine *e, json_t *req, json_t **extra,
                                              GError **error);
json_t *ddb_op_describe_export (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_list_exports (DdbEngine *e, json_t *req, json_t **extra, GError **error);
/* At open: the exports' state; at free: cancels the running jobs and waits for them. */
void ddb_exports_init (DdbEngine *e);
void ddb_exports_shutdown (DdbEngine *e);

/* stream-ops.c: the DynamoDBStreams_20120810 API */
json_t *ddb_op_list_streams (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_describe_stream (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_get_shard_iterator (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_get_records (DdbEngine *e, json_t *req, json_t **extra, GError **error);

/* item-ops.c */
json_t *ddb_op_put_item (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_get_item (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_update_item (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_delete_item (DdbEngine *e, json_t *req, json_t **extra, GError **error);

/* read-ops.c */
/* Where the Query or Scan running on this thread hands its items (ddb_engine_read), NULL: into
 * the response's Items. */
typedef struct {
  DdbItemFunc each;
  gpointer user_data;
} DdbItemSink;
void ddb_read_set_sink (const DdbItemSink *sink);
json_t *ddb_op_query (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_scan (DdbEngine *e, json_t *req, json_t **extra, GError **error);

/* batch-ops.c */
json_t *ddb_op_batch_get_item (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_batch_write_item (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_transact_write_items (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_transact_get_items (DdbEngine *e, json_t *req, json_t **extra, GError **error);

/* partiql-ops.c, partiql-batch.c */
json_t *ddb_op_execute_statement (DdbEngine *e, json_t *req, json_t **extra, GError **error);
json_t *ddb_op_batch_execute_statement (DdbEngine *e, json_t *req, json_t **extra,
                                        GError **error);
json_t *ddb_op_execute_transaction (DdbEngine *e, json_t *req, json_t **extra, GError **error);

G_END_DECLS
