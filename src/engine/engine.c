/* engine.c: the engine's one entry point: opening a database and dispatching an operation name
 * to its implementation, and the error bodies DynamoDB sends. */
#include "engine/engine-private.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/partiql.h"

typedef struct {
  const char *name;
  DdbOperation func;
  /* Reads only: runs on a read connection of its own, concurrently with writes and other
   * reads, in one read transaction (one snapshot for the whole call). */
  gboolean read_only;
  /* When not read_only: whether this request only reads (then it runs as a read-only one). */
  gboolean (*reads) (json_t *request);
} OperationEntry;

/* A PartiQL request all of whose statements are SELECTs. */
static gboolean
pql_reads_only (json_t *request)
{
  const char *members[] = { "Statements", "TransactStatements" };
  json_t *single = json_object_get (request, "Statement");
  gboolean any = FALSE;

  if (single != NULL)
    return json_is_string (single) && ddb_pql_is_select (json_string_value (single));
  for (guint m = 0; m < G_N_ELEMENTS (members); m++)
    {
      json_t *list = json_object_get (request, members[m]);
      size_t i;
      json_t *stmt;

      json_array_foreach (list, i, stmt)
        {
          json_t *text = json_object_get (stmt, "Statement");

          if (!json_is_string (text) || !ddb_pql_is_select (json_string_value (text)))
            return FALSE;
          any = TRUE;
        }
    }
  return any;
}

/* Sorted by name (strcmp) for bsearch. */
static const OperationEntry operations[] = {
  { "BatchExecuteStatement", ddb_op_batch_execute_statement, FALSE, pql_reads_only },
  { "BatchGetItem", ddb_op_batch_get_item, TRUE },
  { "BatchWriteItem", ddb_op_batch_write_item },
  { "CreateTable", ddb_op_create_table },
  { "DeleteItem", ddb_op_delete_item },
  { "DeleteTable", ddb_op_delete_table },
  { "DescribeContinuousBackups", ddb_op_describe_continuous_backups, TRUE },
  { "DescribeExport", ddb_op_describe_export, TRUE },
  { "DescribeTable", ddb_op_describe_table, TRUE },
  { "DescribeTimeToLive", ddb_op_describe_time_to_live, TRUE },
  /* The Streams API, under its own target prefix (serve passes the whole target). */
  { "DynamoDBStreams_20120810.DescribeStream", ddb_op_describe_stream, TRUE },
  { "DynamoDBStreams_20120810.GetRecords", ddb_op_get_records, TRUE },
  { "DynamoDBStreams_20120810.GetShardIterator", ddb_op_get_shard_iterator, TRUE },
  { "DynamoDBStreams_20120810.ListStreams", ddb_op_list_streams, TRUE },
  { "ExecuteStatement", ddb_op_execute_statement, FALSE, pql_reads_only },
  { "ExecuteTransaction", ddb_op_execute_transaction, FALSE, pql_reads_only },
  { "ExportTableToPointInTime", ddb_op_export_table_to_point_in_time },
  { "GetItem", ddb_op_get_item, TRUE },
  { "ListExports", ddb_op_list_exports, TRUE },
  { "ListTables", ddb_op_list_tables, TRUE },
  { "ListTagsOfResource", ddb_op_list_tags_of_resource, TRUE },
  { "PutItem", ddb_op_put_item },
  { "Query", ddb_op_query, TRUE },
  { "Scan", ddb_op_scan, TRUE },
  { "TagResource", ddb_op_tag_resource },
  { "TransactGetItems", ddb_op_transact_get_items, TRUE },
  { "TransactWriteItems", ddb_op_transact_write_items },
  { "UntagResource", ddb_op_untag_resource },
  { "UpdateContinuousBackups", ddb_op_update_continuous_backups },
  { "UpdateItem", ddb_op_update_item },
  { "UpdateTable", ddb_op_update_table },
  { "UpdateTimeToLive", ddb_op_update_time_to_live },
};

static int
operation_compare (const void *key, const void *elem)
{
  return strcmp (key, ((const OperationEntry *) elem)->name);
}

static const OperationEntry *
operation_lookup (const char *name)
{
  if (name == NULL)
    return NULL;
  return bsearch (name, operations, G_N_ELEMENTS (operations), sizeof operations[0],
                  operation_compare);
}

/* A read-only call on a reader of its own; FALSE (nothing run) when the database has none. */
static gboolean
call_reader (DdbEngine *engine, DdbOperation func, json_t *request, json_t **result,
             json_t **extra, GError **error)
{
  GError *local = NULL;
  DdbStore *reader = ddb_store_reader_acquire (engine->store, &local);
  DdbEngine view = { 0 };

  if (reader == NULL && local == NULL)
    return FALSE;
  if (reader != NULL)
    {
      view.store = reader;
      *result = func (&view, request, extra, &local);
      ddb_store_reader_release (engine->store, reader);
    }
  if (local != NULL)
    {
      g_clear_pointer (result, json_decref);
      g_propagate_error (error, local);
    }
  return TRUE;
}

/* A writing call waiting in the group commit queue; lives on its caller's stack. */
typedef struct {
  DdbOperation func;
  json_t *request;
  json_t *result;
  json_t *extra;
  GError *error;
  gboolean done; /* under queue_lock: result, extra and error are final */
  /* Its caller waits on this one alone (with queue_lock), woken when its answer is final or when
   * it is first in the queue as a group ends (its turn to lead). One condition for all woke
   * every waiting caller at the end of each group, those of the next group for nothing, which
   * then fought for queue_lock: under bench-serve's new-key PutItem load, 5.1 futex calls and
   * 5.3 context switches a request, now 3.4 and 3.9. */
  GCond wake;
} QueuedCall;

/* At most this many calls share a transaction, so that one group's answers are not held back
 * long behind a flood of others. */
#define MAX_GROUP 64

/* A call that ran but whose writes are not kept: its answer becomes `why`. */
static void
call_fail (QueuedCall *call, const GError *why)
{
  g_clear_pointer (&call->result, json_decref);
  g_clear_pointer (&call->extra, json_decref);
  g_clear_error (&call->error);
  call->error = g_error_copy (why);
}

/* Runs `calls` (QueuedCall*) in one write transaction on the writer, each in a savepoint of its
 * own so that a failing call takes back only its own writes, then commits them together. A
 * call's answer stands only if the commit succeeds. */
static void
run_group (DdbEngine *engine, QueuedCall **calls, guint n)
{
  GError *local = NULL;
  guint first = 0; /* the first call of the transaction now open */

  g_mutex_lock (&engine->lock);
  if (!ddb_store_group_begin (engine->store, &local))
    {
      for (guint i = 0; i < n; i++)
        call_fail (calls[i], local);
      g_clear_error (&local);
      g_mutex_unlock (&engine->lock);
      return;
    }
  for (guint i = 0; i < n; i++)
    {
      QueuedCall *call = calls[i];

      call->result = call->func (engine, call->request, &call->extra, &call->error);
      /* A call never leaves its savepoint open; if one did, its writes are not acknowledged. */
      ddb_store_rollback (engine->store);
      if (ddb_store_group_lost (engine->store))
        {
          /* SQLite rolled the whole transaction back (I/O error, full disk): the writes of
           * this call and of the ones before it in the transaction are gone. */
          ddb_store_group_end (engine->store, &local);
          for (guint j = first; j <= i; j++)
            if (calls[j]->result != NULL)
              call_fail (calls[j], local);
          g_clear_error (&local);
          first = i + 1;
          if (first < n && !ddb_store_group_begin (engine->store, &local))
            {
              for (guint j = first; j < n; j++)
                call_fail (calls[j], local);
              g_clear_error (&local);
              g_mutex_unlock (&engine->lock);
              return;
            }
        }
    }
  if (first < n && !ddb_store_group_end (engine->store, &local))
    {
      for (guint j = first; j < n; j++)
        if (calls[j]->result != NULL)
          call_fail (calls[j], local);
      g_clear_error (&local);
    }
  g_mutex_unlock (&engine->lock);
}

/* Called with queue_lock held, and returns with it: every call queued so far (`self` included,
 * unless the queue is longer than a group) goes into one transaction; calls that arrive
 * meanwhile wait for the next group, which the first of them leads. */
static void
lead_group (DdbEngine *engine, QueuedCall *self)
{
  QueuedCall *batch[MAX_GROUP];
  QueuedCall *next;
  guint n = 0;

  engine->leading = TRUE;
  while (n < MAX_GROUP && !g_queue_is_empty (&engine->queue))
    batch[n++] = g_queue_pop_head (&engine->queue);
  g_mutex_unlock (&engine->queue_lock);

  run_group (engine, batch, n);

  g_mutex_lock (&engine->queue_lock);
  /* Signalled under queue_lock: a caller sees `done` only once it has the lock back, after the
   * signal, so its QueuedCall (and condition) is still there. */
  for (guint i = 0; i < n; i++)
    {
      batch[i]->done = TRUE;
      if (batch[i] != self)
        g_cond_signal (&batch[i]->wake);
    }
  engine->groups++;
  engine->grouped_calls += n;
  engine->leading = FALSE;
  next = g_queue_peek_head (&engine->queue);
  if (next != NULL && next != self)
    g_cond_signal (&next->wake);
}

/* A writing call on a file database, through the group commit queue: returns once the call's
 * group is committed (or failed). */
static void
call_grouped (DdbEngine *engine, QueuedCall *call)
{
  g_cond_init (&call->wake);
  g_mutex_lock (&engine->queue_lock);
  g_queue_push_tail (&engine->queue, call);
  while (!call->done)
    {
      if (engine->leading)
        g_cond_wait (&call->wake, &engine->queue_lock);
      else
        lead_group (engine, call);
    }
  g_mutex_unlock (&engine->queue_lock);
  g_cond_clear (&call->wake);
}

DdbEngine *
ddb_engine_open (const char *path, GError **error)
{
  DdbStore *store = ddb_store_open (path, error);
  DdbEngine *engine;

  if (store == NULL)
    return NULL;
  engine = g_new0 (DdbEngine, 1);
  engine->store = store;
  g_mutex_init (&engine->lock);
  g_mutex_init (&engine->queue_lock);
  g_queue_init (&engine->queue);
  ddb_exports_init (engine);
  return engine;
}

void
ddb_engine_free (DdbEngine *engine)
{
  if (engine == NULL)
    return;
  /* Export jobs use the store: they end first. */
  ddb_exports_shutdown (engine);
  ddb_store_free (engine->store);
  g_mutex_clear (&engine->lock);
  g_mutex_clear (&engine->queue_lock);
  g_free (engine);
}

void
ddb_engine_remove_files (const char *path)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);

  g_unlink (path);
  g_unlink (wal);
  g_unlink (shm);
}

gboolean
ddb_engine_call (DdbEngine *engine, const char *operation, json_t *request, json_t **response,
                 GError **error)
{
  const OperationEntry *entry = operation_lookup (operation);
  DdbOperation func = entry != NULL ? entry->func : NULL;
  json_t *extra = NULL;
  json_t *result = NULL;
  GError *local = NULL;
  gboolean read_only;

  g_return_val_if_fail (engine != NULL, FALSE);
  g_return_val_if_fail (response != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *response = NULL;
  if (func == NULL)
    {
      /* DynamoDB Local's wording; the operation name is the caller's own. */
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_UNKNOWN_OPERATION,
                           "An unknown operation was requested.");
      return FALSE;
    }
  if (!json_is_object (request))
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_SERIALIZATION,
                           "Start of structure or map found where not expected");
      return FALSE;
    }

  read_only = entry->read_only || (entry->reads != NULL && entry->reads (request));
  if (!read_only && ddb_store_has_readers (engine->store))
    {
      QueuedCall call = { func, request, NULL, NULL, NULL, FALSE, { 0 } };

      call_grouped (engine, &call);
      result = call.result;
      extra = call.extra;
      local = call.error;
    }
  else if (!read_only || !call_reader (engine, func, request, &result, &extra, &local))
    {
      g_mutex_lock (&engine->lock);
      result = func (engine, request, &extra, &local);
      /* An operation never leaves a transaction open; if one did, what it wrote is not
       * acknowledged, so it must not be committed by the next call. */
      ddb_store_rollback (engine->store);
      g_mutex_unlock (&engine->lock);
    }
  if (result == NULL && local == NULL)
    g_set_error (&local, DDB_ERROR, DDB_ERROR_INTERNAL, "%s failed without an error", operation);
  if (local != NULL)
    {
      g_clear_pointer (&result, json_decref);
      g_propagate_error (error, local);
    }

  if (result == NULL)
    {
      *response = extra;
      return FALSE;
    }
  if (extra != NULL)
    json_decref (extra);
  *response = result;
  return TRUE;
}

gboolean
ddb_engine_read (DdbEngine *engine, const char *operation, json_t *request, DdbItemFunc each,
                 gpointer user_data, json_t **response, GError **error)
{
  DdbItemSink sink = { each, user_data };
  gboolean ok;

  if (g_strcmp0 (operation, "Query") != 0 && g_strcmp0 (operation, "Scan") != 0)
    {
      *response = NULL;
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "%s does not read items",
                   operation != NULL ? operation : "(null)");
      return FALSE;
    }
  /* The page runs on this thread (reads never go through the group commit queue). */
  ddb_read_set_sink (&sink);
  ok = ddb_engine_call (engine, operation, request, response, error);
  ddb_read_set_sink (NULL);
  return ok;
}

json_t *
ddb_engine_error_body (const GError *error, json_t *extra)
{
  json_t *body = json_object ();
  DdbErrorCode code = DDB_ERROR_INTERNAL;

  if (error != NULL && error->domain == DDB_ERROR)
    code = error->code;
  json_object_set_new (body, "__type", json_string (ddb_error_type_full (code)));
  json_object_set_new (body, "message",
                       json_string (error != NULL && error->message != NULL ? error->message : ""));
  if (extra != NULL)
    {
      const char *key;
      json_t *value;

      json_object_foreach (extra, key, value)
        {
          if (strcmp (key, "__type") != 0 && strcmp (key, "message") != 0)
            json_object_set (body, key, value);
        }
    }
  return body;
}
