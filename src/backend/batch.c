/* batch.c: waiting for a new table to be ACTIVE and writing items with BatchWriteItem,
 * UnprocessedItems sent again with backoff (see batch.h). */
#include <string.h>

#include "backend/batch.h"
#include "core/error.h"

#define DEFAULT_ACTIVE_TIMEOUT_MS (10 * 60 * 1000)
#define DEFAULT_MAX_IDLE_ROUNDS 10
#define DEFAULT_BASE_DELAY_MS 50
#define DEFAULT_MAX_DELAY_MS 5000
/* What a BatchWriteItem request carries besides its items. */
#define BATCH_OVERHEAD 1024

DdbTransferTuning
ddb_transfer_tuning_resolve (const DdbTransferTuning *tuning)
{
  DdbTransferTuning t = { 0 };

  if (tuning != NULL)
    t = *tuning;
  if (t.active_timeout_ms == 0)
    t.active_timeout_ms = DEFAULT_ACTIVE_TIMEOUT_MS;
  if (t.max_idle_rounds == 0)
    t.max_idle_rounds = DEFAULT_MAX_IDLE_ROUNDS;
  if (t.base_delay_ms == 0)
    t.base_delay_ms = DEFAULT_BASE_DELAY_MS;
  if (t.max_delay_ms == 0)
    t.max_delay_ms = DEFAULT_MAX_DELAY_MS;
  return t;
}

/* ---- Waiting ---- */

gboolean
ddb_table_description_active (json_t *desc, const char **status)
{
  json_t *gsi;
  gsize i;

  *status = json_string_value (json_object_get (desc, "TableStatus"));
  if (*status == NULL || strcmp (*status, "ACTIVE") != 0)
    return FALSE;
  json_array_foreach (json_object_get (desc, "GlobalSecondaryIndexes"), i, gsi)
    {
      const char *s = json_string_value (json_object_get (gsi, "IndexStatus"));

      if (s != NULL && strcmp (s, "ACTIVE") != 0)
        {
          *status = s;
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
ddb_transfer_wait_active (DdbBackend *backend, const char *table, guint timeout_ms,
                          GCancellable *cancellable, GError **error)
{
  json_auto_t *req = json_pack ("{ss}", "TableName", table);
  guint timeout = timeout_ms != 0 ? timeout_ms : DEFAULT_ACTIVE_TIMEOUT_MS;
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout * 1000;
  guint delay = 100;

  for (;;)
    {
      json_auto_t *resp = NULL;
      const char *status = NULL;

      if (!ddb_backend_call (backend, "DescribeTable", req, cancellable, &resp, error))
        return FALSE;
      if (ddb_table_description_active (json_object_get (resp, "Table"), &status))
        return TRUE;
      if (g_get_monotonic_time () >= deadline)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       "Table %s is still %s %u s after it was created", table,
                       status != NULL ? status : "not ACTIVE", timeout / 1000);
          return FALSE;
        }
      if (!ddb_sleep_cancellable (delay, cancellable, error))
        return FALSE;
      delay = MIN (delay * 2, 2000);
    }
}

/* ---- Writing ---- */

struct _DdbBatchWriter {
  DdbBackend *backend;
  char *table;
  DdbTransferTuning tuning;
  GCancellable *cancellable;
  json_t *requests;  /* [{"PutRequest": {"Item": ...}}] */
  GHashTable *keys;  /* GBytes keys in the batch */
  gsize batch_bytes; /* its items' JSON text */
  guint64 written;
  DdbBatchWrittenFunc func;
  gpointer func_data;
};

DdbBatchWriter *
ddb_batch_writer_new (DdbBackend *backend, const char *table, const DdbTransferTuning *tuning,
                      GCancellable *cancellable, DdbBatchWrittenFunc written, gpointer user_data)
{
  DdbBatchWriter *w = g_new0 (DdbBatchWriter, 1);

  w->backend = backend;
  w->table = g_strdup (table);
  w->tuning = ddb_transfer_tuning_resolve (tuning);
  w->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  w->requests = json_array ();
  w->keys
      = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  w->func = written;
  w->func_data = user_data;
  return w;
}

void
ddb_batch_writer_free (DdbBatchWriter *w)
{
  if (w == NULL)
    return;
  g_free (w->table);
  g_clear_object (&w->cancellable);
  json_decref (w->requests);
  g_hash_table_destroy (w->keys);
  g_free (w);
}

guint64
ddb_batch_writer_get_written (const DdbBatchWriter *w)
{
  return w->written;
}

gboolean
ddb_batch_writer_flush (DdbBatchWriter *w, GError **error)
{
  json_auto_t *req = NULL;
  guint idle = 0;
  guint round = 0;
  gsize pending = json_array_size (w->requests);

  if (pending == 0)
    return TRUE;
  req = json_pack ("{s{so}}", "RequestItems", w->table, w->requests);
  w->requests = json_array ();
  g_hash_table_remove_all (w->keys);
  w->batch_bytes = 0;
  for (;;)
    {
      json_auto_t *resp = NULL;
      json_t *unprocessed, *left;
      gsize nleft;

      if (!ddb_backend_call (w->backend, "BatchWriteItem", req, w->cancellable, &resp, error))
        return FALSE;
      unprocessed = json_object_get (resp, "UnprocessedItems");
      left = json_object_get (unprocessed, w->table);
      nleft = json_array_size (left);
      if (nleft > pending)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                       "BatchWriteItem gave back %zu unprocessed items for %zu sent", nleft,
                       pending);
          return FALSE;
        }
      w->written += pending - nleft;
      if (w->func != NULL)
        w->func (w->written, w->func_data);
      if (nleft == 0)
        return TRUE;
      /* Progress resets the count of idle rounds, not the backoff: a table that takes a few
       * items a round is still throttling. */
      idle = nleft < pending ? 0 : idle + 1;
      if (idle >= w->tuning.max_idle_rounds)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_PROVISIONED_THROUGHPUT,
                       "BatchWriteItem left %zu items unprocessed %u times in a row", nleft, idle);
          return FALSE;
        }
      if (!ddb_sleep_cancellable (
              ddb_backoff_full_jitter (w->tuning.base_delay_ms, w->tuning.max_delay_ms, round++),
              w->cancellable, error))
        return FALSE;
      pending = nleft;
      json_object_set (req, "RequestItems", unprocessed);
    }
}

gboolean
ddb_batch_writer_add (DdbBatchWriter *w, json_t *item, GBytes *key, gsize size, GError **error)
{
  if ((json_array_size (w->requests) >= DDB_TRANSFER_BATCH_ITEMS
       || (key != NULL && g_hash_table_contains (w->keys, key))
       || w->batch_bytes + size + BATCH_OVERHEAD > DDB_TRANSFER_BATCH_BYTES)
      && !ddb_batch_writer_flush (w, error))
    return FALSE;
  json_array_append_new (w->requests, json_pack ("{s{sO}}", "PutRequest", "Item", item));
  if (key != NULL)
    g_hash_table_add (w->keys, g_bytes_ref (key));
  w->batch_bytes += size;
  return TRUE;
}
