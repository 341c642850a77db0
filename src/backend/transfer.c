/* transfer.c: snapshot import and export through the backend seam. The item stream of an
 * import (DdbSnapshotReader) and the writers of an export are the engine's snapshot code; only
 * the side facing a remote endpoint is here: CreateTable, waiting for ACTIVE, BatchWriteItem
 * with UnprocessedItems retried, and one connection per parallel Scan segment. */
#include <string.h>

#include "backend/transfer.h"
#include "core/ddbjson.h"
#include "core/error.h"

#define PROGRESS_INTERVAL_US (100 * 1000)
#define DEFAULT_ACTIVE_TIMEOUT_MS (10 * 60 * 1000)
#define DEFAULT_MAX_IDLE_ROUNDS 10
#define DEFAULT_BASE_DELAY_MS 50
#define DEFAULT_MAX_DELAY_MS 5000
/* What a BatchWriteItem request carries besides its items. */
#define BATCH_OVERHEAD 1024

/* ---- Waiting ---- */

static gboolean
status_active (json_t *desc, const char **status)
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

/* DescribeTable until the table and its indexes are ACTIVE, within the timeout. */
static gboolean
wait_active (DdbBackend *backend, const char *table, const DdbTransferTuning *t,
             GCancellable *cancellable, GError **error)
{
  json_auto_t *req = json_pack ("{ss}", "TableName", table);
  gint64 deadline = g_get_monotonic_time () + (gint64) t->active_timeout_ms * 1000;
  guint delay = 100;

  for (;;)
    {
      json_auto_t *resp = NULL;
      const char *status = NULL;

      if (!ddb_backend_call (backend, "DescribeTable", req, cancellable, &resp, error))
        return FALSE;
      if (status_active (json_object_get (resp, "Table"), &status))
        return TRUE;
      if (g_get_monotonic_time () >= deadline)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       "Table %s is still %s %u s after it was created", table,
                       status != NULL ? status : "not ACTIVE", t->active_timeout_ms / 1000);
          return FALSE;
        }
      if (!ddb_sleep_cancellable (delay, cancellable, error))
        return FALSE;
      delay = MIN (delay * 2, 2000);
    }
}

/* ---- Import to an endpoint ---- */

typedef struct {
  DdbBackend *backend;
  const char *table;
  const DdbTransferTuning *tuning;
  GCancellable *cancellable;
  DdbSnapshotReader *reader;
  /* the batch being filled */
  json_t *requests;  /* [{"PutRequest": {"Item": ...}}] */
  GHashTable *keys;  /* GBytes keys in the batch */
  gsize batch_bytes; /* its items' JSON text */
  /* progress */
  DdbSnapshotProgress p;
  gint64 start, last_report;
  DdbSnapshotProgressFunc func;
  gpointer func_data;
} RemoteImport;

static void
progress_report (RemoteImport *ri, gboolean done)
{
  gint64 now = g_get_monotonic_time ();

  if (!done && now - ri->last_report < PROGRESS_INTERVAL_US)
    return;
  ri->last_report = now;
  ri->p.bytes = ddb_snapshot_reader_bytes (ri->reader);
  ri->p.seconds = (double) (now - ri->start) / G_USEC_PER_SEC;
  if (ri->p.seconds > 0)
    {
      ri->p.items_per_second = (double) ri->p.items / ri->p.seconds;
      ri->p.bytes_per_second = (double) ri->p.bytes / ri->p.seconds;
    }
  ri->p.done = done;
  if (ri->func != NULL)
    ri->func (&ri->p, ri->func_data);
}

/* Sends the batch, then what UnprocessedItems gives back, until all is written. */
static gboolean
flush_batch (RemoteImport *ri, GError **error)
{
  json_auto_t *req = NULL;
  guint idle = 0;
  guint round = 0;
  gsize pending = json_array_size (ri->requests);

  if (pending == 0)
    return TRUE;
  req = json_pack ("{s{so}}", "RequestItems", ri->table, ri->requests);
  ri->requests = json_array ();
  g_hash_table_remove_all (ri->keys);
  ri->batch_bytes = 0;
  for (;;)
    {
      json_auto_t *resp = NULL;
      json_t *unprocessed, *left;
      gsize nleft;

      if (!ddb_backend_call (ri->backend, "BatchWriteItem", req, ri->cancellable, &resp, error))
        return FALSE;
      unprocessed = json_object_get (resp, "UnprocessedItems");
      left = json_object_get (unprocessed, ri->table);
      nleft = json_array_size (left);
      if (nleft > pending)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                       "BatchWriteItem gave back %zu unprocessed items for %zu sent", nleft,
                       pending);
          return FALSE;
        }
      ri->p.items += pending - nleft;
      progress_report (ri, FALSE);
      if (nleft == 0)
        return TRUE;
      /* Progress resets the count of idle rounds, not the backoff: a table that takes a few
       * items a round is still throttling. */
      idle = nleft < pending ? 0 : idle + 1;
      if (idle >= ri->tuning->max_idle_rounds)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_PROVISIONED_THROUGHPUT,
                       "BatchWriteItem left %zu items unprocessed %u times in a row", nleft, idle);
          return FALSE;
        }
      if (!ddb_sleep_cancellable (ddb_backoff_full_jitter (ri->tuning->base_delay_ms,
                                                           ri->tuning->max_delay_ms, round++),
                                  ri->cancellable, error))
        return FALSE;
      pending = nleft;
      json_object_set (req, "RequestItems", unprocessed);
    }
}

static gboolean
remote_import_items (RemoteImport *ri, GError **error)
{
  g_autoptr (GHashTable) all_keys = NULL;
  GString *text = g_string_new (NULL);
  DdbValue *item;
  GError *local = NULL;
  gboolean ok = TRUE;

  /* An inferred key must prove unique, as on a database; only then are all keys kept. */
  if (ddb_snapshot_reader_key_inferred (ri->reader))
    all_keys
        = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  while (ok && (item = ddb_snapshot_reader_next (ri->reader, &local)) != NULL)
    {
      GBytes *key = ddb_snapshot_reader_item_key (ri->reader, item);
      gsize size;

      g_string_truncate (text, 0);
      ddb_json_append_item (text, item);
      size = text->len + 32;
      if (all_keys != NULL && !g_hash_table_add (all_keys, g_bytes_ref (key)))
        {
          g_autofree char *spec = ddb_snapshot_reader_key_spec (ri->reader);

          g_set_error (&local, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "The inferred key schema %s is not unique: two items have the same key; "
                       "give the key with --key",
                       spec);
          ddb_snapshot_reader_prefix_error (ri->reader, &local);
          ok = FALSE;
        }
      /* One batch cannot hold the same key twice (DynamoDB refuses it): the later item is
       * written after the earlier one, as a database import overwrites. */
      else if (json_array_size (ri->requests) >= DDB_TRANSFER_BATCH_ITEMS
               || g_hash_table_contains (ri->keys, key)
               || ri->batch_bytes + size + BATCH_OVERHEAD > DDB_TRANSFER_BATCH_BYTES)
        ok = flush_batch (ri, &local);
      if (ok)
        {
          json_array_append_new (
              ri->requests, json_pack ("{s{so}}", "PutRequest", "Item", ddb_item_to_json (item)));
          g_hash_table_add (ri->keys, g_bytes_ref (key));
          ri->batch_bytes += size;
        }
      g_bytes_unref (key);
      ddb_value_free (item);
    }
  g_string_free (text, TRUE);
  /* At the end, or at a bad item: everything before it is written, so that the error's
   * FILE:LINE tells where to resume. Not when cancelled, or when a write failed. */
  if (ok && !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      GError *flush_error = NULL;

      if (!flush_batch (ri, &flush_error))
        {
          g_clear_error (&local);
          local = flush_error;
        }
      ok = local == NULL;
    }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return ok;
}

static gboolean
remote_import (DdbBackend *backend, const char *source, const DdbImportOptions *options,
               const DdbTransferTuning *tuning, DdbSnapshotProgress *out, GError **error)
{
  RemoteImport ri = { 0 };
  g_autoptr (DdbSnapshotReader) reader = NULL;
  json_auto_t *create = NULL;
  json_auto_t *created = NULL;
  GError *local = NULL;
  gboolean ok = FALSE;

  ri.start = g_get_monotonic_time ();
  ri.last_report = ri.start - PROGRESS_INTERVAL_US;
  ri.func = options->progress;
  ri.func_data = options->progress_data;
  reader = ddb_snapshot_reader_open (source, options, &local);
  if (reader == NULL)
    goto out;
  ri.reader = reader;
  ri.p.total_bytes = ddb_snapshot_reader_total_bytes (reader);
  ri.backend = backend;
  ri.table = options->table_name;
  ri.tuning = tuning;
  ri.cancellable = options->cancellable;

  create = ddb_snapshot_reader_create_table_request (reader);
  if (g_cancellable_set_error_if_cancelled (options->cancellable, &local)
      || !ddb_backend_call (backend, "CreateTable", create, options->cancellable, &created, &local))
    goto out;
  if (!wait_active (backend, ri.table, tuning, options->cancellable, &local))
    goto created;
  ri.requests = json_array ();
  ri.keys
      = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  ok = remote_import_items (&ri, &local);
  json_decref (ri.requests);
  g_hash_table_destroy (ri.keys);

created:
  if (!ok && !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *items = g_strdup_printf ("%" G_GUINT64_FORMAT, ri.p.items);

      /* Nothing is undone on an endpoint: say what is left there. */
      char *message = g_strdup_printf (
          "%s (%s items were written before the error; an import to an endpoint is not undone: "
          "table %s stays)",
          local->message, items, ri.table);

      g_free (local->message);
      local->message = message;
    }
out:
  if (local != NULL)
    g_propagate_error (error, local);
  if (reader != NULL)
    progress_report (&ri, TRUE);
  else if (ri.func != NULL)
    {
      ri.p.done = TRUE;
      ri.func (&ri.p, ri.func_data);
    }
  if (out != NULL)
    *out = ri.p;
  return ok;
}

gboolean
ddb_transfer_import (DdbBackend *backend, const char *source, const DdbImportOptions *options,
                     const DdbTransferTuning *tuning, DdbSnapshotProgress *out, GError **error)
{
  DdbTransferTuning t = { 0 };

  g_return_val_if_fail (backend != NULL && source != NULL && options != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (ddb_backend_get_kind (backend) == DDB_BACKEND_ENGINE)
    return ddb_snapshot_import (ddb_backend_get_engine (backend), source, options, out, error);
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
  return remote_import (backend, source, options, &t, out, error);
}

/* ---- Export ---- */

typedef struct {
  DdbBackend *backend;
  DdbBackend *const *more;
  guint n_more;
} ExportBackends;

static gboolean
backend_call (guint segment, const char *operation, json_t *request, GCancellable *cancellable,
              json_t **response, GError **error, gpointer user_data)
{
  ExportBackends *eb = user_data;
  guint pick = segment % (eb->n_more + 1);
  DdbBackend *backend = pick == 0 ? eb->backend : eb->more[pick - 1];

  return ddb_backend_call (backend, operation, request, cancellable, response, error);
}

gboolean
ddb_transfer_export (DdbBackend *backend, DdbBackend *const *segment_backends, const char *dest,
                     const DdbExportOptions *options, DdbSnapshotProgress *out, GError **error)
{
  ExportBackends eb = { backend, segment_backends, 0 };

  g_return_val_if_fail (backend != NULL, FALSE);
  while (segment_backends != NULL && segment_backends[eb.n_more] != NULL)
    eb.n_more++;
  return ddb_snapshot_export_with (backend_call, &eb, dest, options, out, error);
}
