/* transfer.c: snapshot import and export through the backend seam. The item stream of an
 * import (DdbSnapshotReader) and the writers of an export are the engine's snapshot code; only
 * the side facing a remote endpoint is here: CreateTable, then (with batch.c) waiting for
 * ACTIVE and BatchWriteItem with UnprocessedItems retried, and one connection per parallel Scan
 * segment. */
#include <string.h>

#include "backend/transfer.h"
#include "core/ddbjson.h"
#include "core/error.h"

#define PROGRESS_INTERVAL_US (100 * 1000)

/* ---- Import to an endpoint ---- */

typedef struct {
  DdbBackend *backend;
  const char *table;
  const DdbTransferTuning *tuning;
  GCancellable *cancellable;
  DdbSnapshotReader *reader;
  DdbBatchWriter *writer;
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

static void
items_written (guint64 written, gpointer user_data)
{
  RemoteImport *ri = user_data;

  ri->p.items = written;
  progress_report (ri, FALSE);
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
      else
        {
          json_auto_t *json = ddb_item_to_json (item);

          ok = ddb_batch_writer_add (ri->writer, json, key, size, &local);
        }
      g_bytes_unref (key);
      ddb_snapshot_reader_release (ri->reader, item);
    }
  g_string_free (text, TRUE);
  /* At the end, or at a bad item: everything before it is written, so that the error's
   * FILE:LINE tells where to resume. Not when cancelled, or when a write failed. */
  if (ok && !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      GError *flush_error = NULL;

      if (!ddb_batch_writer_flush (ri->writer, &flush_error))
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
  if (options->incrementals != NULL && options->incrementals[0] != NULL)
    {
      g_set_error_literal (&local, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Incremental exports are applied in an import into a database only "
                           "(--db)");
      goto out;
    }
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
  if (!ddb_transfer_wait_active (backend, ri.table, tuning->active_timeout_ms,
                                 options->cancellable, &local))
    goto created;
  ri.writer = ddb_batch_writer_new (backend, ri.table, tuning, options->cancellable,
                                    items_written, &ri);
  ok = remote_import_items (&ri, &local);
  ddb_batch_writer_free (ri.writer);

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
  DdbTransferTuning t;

  g_return_val_if_fail (backend != NULL && source != NULL && options != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  /* Before the source is read: the engine's import does not pass through ddb_backend_call. */
  if (!ddb_backend_check_writable (backend, "import", error))
    {
      if (out != NULL)
        memset (out, 0, sizeof *out);
      return FALSE;
    }
  if (ddb_backend_get_kind (backend) == DDB_BACKEND_ENGINE)
    return ddb_snapshot_import (ddb_backend_get_engine (backend), source, options, out, error);
  t = ddb_transfer_tuning_resolve (tuning);
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
