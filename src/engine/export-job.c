/* export-job.c: an export job, on a thread of its own: the table as it was at ExportTime (its
 * items now, with every change recorded after that time taken back: an item changed since has
 * the old image of its first later change, one created since is left out, one deleted since is
 * back), or the changes of an incremental window compacted to one record per item (the old
 * image before its first change in the window, the new image after its last; an item both
 * created and deleted in the window leaves nothing), written through export-layout.c to the
 * engine's target; then its ExportDescription in the store says COMPLETED or FAILED. Items and
 * history are read in one snapshot (a reader of its own; on an in-memory database, under the
 * engine's lock). */
#include <string.h>

#include "core/error.h"
#include "engine/export-private.h"
#include "engine/export-store.h"
#include "engine/pitr-store.h"

typedef struct {
  DdbEngine *engine;
  DdbExportJobSpec *spec;
} Job;

/* One item's changes in the window (or, for a full export, after ExportTime). */
typedef struct {
  DdbValue *first_old; /* the image before the first change (NULL: none) */
  DdbValue *last_new;  /* the image after the last change (NULL: none) */
  gint64 last_at;
  gboolean present;    /* full export: the item exists now */
} Pending;

static void
pending_free (gpointer p)
{
  Pending *pd = p;

  ddb_value_free (pd->first_old);
  ddb_value_free (pd->last_new);
  g_free (pd);
}

typedef struct {
  GHashTable *by_key; /* GBytes -> Pending */
  GPtrArray *order;   /* GBytes, in the order first seen */
} Changes;

static gboolean
take_change (const DdbPitrChange *c, gpointer data, GError **error)
{
  Changes *ch = data;
  Pending *pd = g_hash_table_lookup (ch->by_key, c->key);

  (void) error;
  if (pd == NULL)
    {
      pd = g_new0 (Pending, 1);
      pd->first_old = c->old_item != NULL ? ddb_value_copy (c->old_item) : NULL;
      g_hash_table_insert (ch->by_key, g_bytes_ref (c->key), pd);
      g_ptr_array_add (ch->order, g_bytes_ref (c->key));
    }
  ddb_value_free (pd->last_new);
  pd->last_new = c->new_item != NULL ? ddb_value_copy (c->new_item) : NULL;
  pd->last_at = c->at_us;
  return TRUE;
}

static gboolean
cancelled (DdbEngine *e, GError **error)
{
  if (!g_atomic_int_get (&e->export_closing))
    return FALSE;
  g_set_error_literal (error, DDB_EXPORT_ERROR, DDB_EXPORT_ERROR_FAILED,
                       "The export was stopped: the database was closed");
  return TRUE;
}

static gboolean
write_full (DdbEngine *e, DdbStore *store, DdbExportJobSpec *spec, DdbExportLayout *layout,
            Changes *ch, GError **error)
{
  DdbStoreRange range = { 0 };
  g_autoptr (DdbStoreCursor) cursor = NULL;
  GError *local = NULL;
  DdbValue *item;

  /* The state at ExportTime includes the writes made at that very microsecond. */
  if (spec->export_us < G_MAXINT64
      && !ddb_pitr_changes (store, spec->def->id, spec->export_us + 1, G_MAXINT64, take_change,
                            ch, error))
    return FALSE;
  range.forward = TRUE;
  range.total_segments = 1;
  cursor = ddb_store_cursor_open (store, spec->def, &range, error);
  if (cursor == NULL)
    return FALSE;
  while ((item = ddb_store_cursor_next (cursor, NULL, &local)) != NULL)
    {
      G_GNUC_UNUSED g_autoptr (DdbValue) owned = item; /* freed at the end of each turn */
      g_autoptr (GBytes) key = ddb_pitr_item_key (spec->def, item, error);
      Pending *pd;
      gboolean ok;

      if (key == NULL || cancelled (e, error))
        return FALSE;
      pd = g_hash_table_lookup (ch->by_key, key);
      if (pd == NULL)
        ok = ddb_export_layout_add_item (layout, item, error);
      else
        {
          pd->present = TRUE;
          ok = pd->first_old == NULL || ddb_export_layout_add_item (layout, pd->first_old, error);
        }
      if (!ok)
        return FALSE;
    }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  /* Deleted since ExportTime: back as they were. */
  for (guint i = 0; i < ch->order->len; i++)
    {
      Pending *pd = g_hash_table_lookup (ch->by_key, ch->order->pdata[i]);

      if (!pd->present && pd->first_old != NULL
          && !ddb_export_layout_add_item (layout, pd->first_old, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
write_incremental (DdbEngine *e, DdbStore *store, DdbExportJobSpec *spec,
                   DdbExportLayout *layout, Changes *ch, GError **error)
{
  if (!ddb_pitr_changes (store, spec->def->id, spec->from_us, spec->to_us, take_change, ch,
                         error))
    return FALSE;
  for (guint i = 0; i < ch->order->len; i++)
    {
      Pending *pd = g_hash_table_lookup (ch->by_key, ch->order->pdata[i]);
      g_autoptr (DdbValue) keys = NULL;

      if (cancelled (e, error))
        return FALSE;
      if (pd->first_old == NULL && pd->last_new == NULL)
        continue; /* created and deleted within the window */
      keys = ddb_key_def_extract (&spec->def->key,
                                  pd->last_new != NULL ? pd->last_new : pd->first_old);
      if (keys == NULL)
        continue;
      if (!ddb_export_layout_add_change (layout, keys, pd->first_old, pd->last_new, pd->last_at,
                                         error))
        return FALSE;
    }
  return TRUE;
}

/* Writes the export; *summary gets manifest-summary.json. */
static gboolean
run_export (DdbEngine *e, DdbExportJobSpec *spec, json_t **summary, guint64 *items,
            guint64 *billed, GError **error)
{
  DdbExportBucketFunc open_bucket;
  gpointer target_data;
  DdbExportPutFunc put = NULL;
  gpointer put_data = NULL;
  GDestroyNotify put_free = NULL;
  g_autoptr (DdbExportLayout) layout = NULL;
  DdbExportLayoutOptions o = { 0 };
  Changes ch;
  DdbStore *reader = NULL, *store;
  GError *local = NULL;
  gboolean ok;

  g_mutex_lock (&e->export_lock);
  open_bucket = e->export_open_bucket;
  target_data = e->export_target_data;
  g_mutex_unlock (&e->export_lock);
  if (open_bucket == NULL)
    {
      g_set_error_literal (error, DDB_EXPORT_ERROR, DDB_EXPORT_ERROR_FAILED,
                           "This endpoint has nowhere to export to (serve --export-dir DIR)");
      return FALSE;
    }
  if (!open_bucket (spec->bucket, spec->bucket_owner, target_data, &put, &put_data, &put_free,
                    error))
    return FALSE;

  o.export_arn = spec->export_arn;
  o.table_arn = json_string_value (json_object_get (spec->description, "TableArn"));
  o.table_id = json_string_value (json_object_get (spec->description, "TableId"));
  o.bucket = spec->bucket;
  o.prefix = spec->prefix;
  o.sse_algorithm = spec->sse;
  o.sse_kms_key_id = spec->kms;
  o.format = spec->format;
  o.incremental = spec->incremental;
  o.old_images = spec->old_images;
  o.export_time_us = spec->export_us;
  o.from_time_us = spec->from_us;
  o.to_time_us = spec->to_us;
  o.start_time_us = spec->start_us;
  if (g_getenv ("DYNOSCOPE_EXPORT_FILE_BYTES") != NULL)
    o.max_file_bytes = g_ascii_strtoull (g_getenv ("DYNOSCOPE_EXPORT_FILE_BYTES"), NULL, 10);
  layout = ddb_export_layout_begin (&o, put, put_data, NULL, error);
  if (layout == NULL)
    {
      if (put_free != NULL)
        put_free (put_data);
      return FALSE;
    }

  ch.by_key = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                     (GDestroyNotify) g_bytes_unref, pending_free);
  ch.order = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  reader = ddb_store_reader_acquire (e->store, &local);
  ok = local == NULL;
  if (ok)
    {
      if (reader == NULL)
        g_mutex_lock (&e->lock);
      store = reader != NULL ? reader : e->store;
      ok = spec->incremental ? write_incremental (e, store, spec, layout, &ch, &local)
                             : write_full (e, store, spec, layout, &ch, &local);
      if (reader != NULL)
        ddb_store_reader_release (e->store, reader);
      else
        g_mutex_unlock (&e->lock);
    }
  g_hash_table_destroy (ch.by_key);
  g_ptr_array_unref (ch.order);
  ok = ok && ddb_export_layout_finish (layout, summary, &local);
  *items = ddb_export_layout_item_count (layout);
  *billed = ddb_export_layout_billed_bytes (layout);
  g_clear_pointer (&layout, ddb_export_layout_free);
  if (put_free != NULL)
    put_free (put_data);
  if (local != NULL)
    g_propagate_error (error, local);
  return ok;
}

static gpointer
job_thread (gpointer data)
{
  Job *job = data;
  DdbEngine *e = job->engine;
  DdbExportJobSpec *spec = job->spec;
  json_t *d = spec->description;
  json_auto_t *summary = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) store_error = NULL;
  guint64 items = 0, billed = 0;
  gboolean ok;

  ok = run_export (e, spec, &summary, &items, &billed, &error);
  json_object_set_new (d, "EndTime", ddb_export_time_json (g_get_real_time ()));
  if (ok)
    {
      g_autofree char *manifest = ddb_export_layout_manifest_key (spec->prefix, spec->export_arn);

      json_object_set_new (d, "ExportStatus", json_string ("COMPLETED"));
      json_object_set_new (d, "ExportManifest", json_string (manifest));
      json_object_set_new (d, "ItemCount", json_integer ((json_int_t) items));
      json_object_set_new (d, "BilledSizeBytes", json_integer ((json_int_t) billed));
    }
  else
    {
      json_object_set_new (d, "ExportStatus", json_string ("FAILED"));
      json_object_set_new (d, "FailureCode", json_string (ddb_export_failure_code (error)));
      json_object_set_new (d, "FailureMessage",
                           json_string (error != NULL ? error->message : "The export failed"));
    }
  g_mutex_lock (&e->lock);
  if (!ddb_export_store_set (e->store, d, &store_error))
    g_warning ("Cannot record the outcome of export %s: %s", spec->export_arn,
               store_error->message);
  g_mutex_unlock (&e->lock);

  ddb_export_job_spec_free (spec);
  g_free (job);
  g_mutex_lock (&e->export_lock);
  e->exports_running--;
  g_cond_broadcast (&e->export_idle);
  g_mutex_unlock (&e->export_lock);
  return NULL;
}

void
ddb_export_job_start (DdbEngine *e, DdbExportJobSpec *spec)
{
  Job *job = g_new0 (Job, 1);

  job->engine = e;
  job->spec = spec;
  g_mutex_lock (&e->export_lock);
  e->exports_running++;
  g_mutex_unlock (&e->export_lock);
  g_thread_unref (g_thread_new ("dynoscope-export", job_thread, job));
}
