/* engine.c: the engine's one entry point: opening a database and dispatching an operation name
 * to its implementation, and the error bodies DynamoDB sends. */
#include "engine/engine-private.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

typedef struct {
  const char *name;
  DdbOperation func;
  /* Reads only: runs on a read connection of its own, concurrently with writes and other
   * reads, in one read transaction (one snapshot for the whole call). */
  gboolean read_only;
} OperationEntry;

/* Sorted by name (strcmp) for bsearch. */
static const OperationEntry operations[] = {
  { "BatchGetItem", ddb_op_batch_get_item, TRUE },
  { "BatchWriteItem", ddb_op_batch_write_item },
  { "CreateTable", ddb_op_create_table },
  { "DeleteItem", ddb_op_delete_item },
  { "DeleteTable", ddb_op_delete_table },
  { "DescribeTable", ddb_op_describe_table, TRUE },
  { "DescribeTimeToLive", ddb_op_describe_time_to_live, TRUE },
  { "GetItem", ddb_op_get_item, TRUE },
  { "ListTables", ddb_op_list_tables, TRUE },
  { "ListTagsOfResource", ddb_op_list_tags_of_resource, TRUE },
  { "PutItem", ddb_op_put_item },
  { "Query", ddb_op_query, TRUE },
  { "Scan", ddb_op_scan, TRUE },
  { "TagResource", ddb_op_tag_resource },
  { "TransactGetItems", ddb_op_transact_get_items, TRUE },
  { "TransactWriteItems", ddb_op_transact_write_items },
  { "UntagResource", ddb_op_untag_resource },
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
  return engine;
}

void
ddb_engine_free (DdbEngine *engine)
{
  if (engine == NULL)
    return;
  ddb_store_free (engine->store);
  g_mutex_clear (&engine->lock);
  g_free (engine);
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

  if (!entry->read_only || !call_reader (engine, func, request, &result, &extra, &local))
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
