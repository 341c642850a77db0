/* snapshot-import.c: the import into the engine in one store transaction. The items come from
 * the import's item stream (snapshot-reader.c), which reads and checks them on a thread of its
 * own while the items before are put.
 *
 * Import puts each item, checked as PutItem would check it (keys, index keys, 400 KB), through
 * the store inside the transaction that created the table; any error, or cancellation, rolls
 * the whole transaction back, so a failed import leaves nothing. Errors about an item are
 * prefixed "FILE:LINE: ". Without a key schema, one is inferred from a sample of the items. */
#include <string.h>

#include "core/error.h"
#include "engine/base-store.h"
#include "engine/engine-private.h"
#include "engine/snapshot-private.h"
#include "engine/store.h"

/* ---- Import into the engine ---- */

/* The incremental exports' changes go to the table in the import's transaction. */
typedef struct {
  DdbStore *store;
  const DdbTableDef *def;
} StoreSink;

static gboolean
store_put (const DdbValue *item, gpointer data, GError **error)
{
  StoreSink *s = data;

  return ddb_store_item_put (s->store, s->def, item, error);
}

static gboolean
store_remove (const DdbValue *keys, gpointer data, GError **error)
{
  StoreSink *s = data;

  return ddb_store_item_delete (s->store, s->def, keys, error);
}

static gboolean
import_locked (DdbEngine *engine, DdbSnapshotReader *r, const char *source,
               const DdbImportOptions *options, Progress *pr, GError **error)
{
  g_autofree char *absolute = NULL;
  DdbTableDef *def = r->def;
  DdbValue *item;
  gint64 items, bytes, base_ms;
  const char *arn;
  gboolean keep_arn;
  GError *local = NULL;
  StoreSink store_sink = { engine->store, def };
  DdbSnapshotChangeSink sink = { store_put, store_remove, &store_sink };

  if (g_cancellable_set_error_if_cancelled (options->cancellable, error))
    return FALSE;
  if (!ddb_store_begin (engine->store, error))
    return FALSE;
  if (!ddb_store_set_bulk (engine->store, TRUE, error))
    goto rollback;
  if (!ddb_store_table_create (engine->store, def, error))
    goto rollback;
  while ((item = ddb_snapshot_reader_next (r, &local)) != NULL)
    {
      gboolean put = ddb_store_item_put (engine->store, def, item, &local);

      ddb_snapshot_reader_release (r, item);
      if (!put)
        {
          ddb_snapshot_reader_prefix_error (r, &local);
          break;
        }
      pr->p.items++;
      if ((pr->p.items & 63) == 0)
        {
          pr->p.bytes = ddb_snapshot_reader_bytes (r);
          pr->p.files = ddb_snapshot_reader_files (r, NULL);
          snap_progress_tick (pr);
        }
    }
  pr->p.bytes = ddb_snapshot_reader_bytes (r);
  pr->p.files = ddb_snapshot_reader_files (r, NULL);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      goto rollback;
    }
  if (r->inferred)
    {
      gint64 stored = 0, size = 0;

      if (!ddb_store_table_stats (engine->store, def, NULL, &stored, &size, error))
        goto rollback;
      if ((guint64) stored != pr->p.items)
        {
          g_autofree char *spec = snap_key_spec_string (&def->key);
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "The inferred key schema %s is not unique: %" G_GUINT64_FORMAT
                       " items but %" G_GINT64_FORMAT " distinct keys; give the key with --key",
                       spec, pr->p.items, stored);
          goto rollback;
        }
    }
  items = (gint64) pr->p.items;
  if (r->incrementals != NULL
      && (!snap_apply_incrementals (&sink, def, r->incrementals, pr, options->cancellable, error)
          || !ddb_store_table_stats (engine->store, def, NULL, &items, &bytes, error)))
    goto rollback;
  if (g_cancellable_set_error_if_cancelled (options->cancellable, error))
    goto rollback;
  /* The snapshot remembers its base: later writes keep each item's imported version. An
   * export's base is the table as of the export's time (the last incremental export's end). */
  absolute = options->store != NULL ? g_strdup (source) : g_canonicalize_filename (source, NULL);
  base_ms = r->s.export_time_us > 0 ? r->s.export_time_us / 1000 : g_get_real_time () / 1000;
  /* A base the caller names as something other than an export keeps no export ARN. */
  keep_arn = options->base_format == NULL || strcmp (options->base_format, "s3") == 0;
  arn = keep_arn ? r->s.export_arn : NULL;
  if (r->incrementals != NULL && r->incrementals->len > 0)
    {
      const Sources *last = g_ptr_array_index (r->incrementals, r->incrementals->len - 1);

      base_ms = last->to_time_us / 1000;
      arn = keep_arn ? last->export_arn : NULL;
      g_free (absolute);
      absolute = options->store != NULL ? g_strdup (last->display)
                                        : g_canonicalize_filename (last->display, NULL);
    }
  if (!ddb_base_set (engine->store, def,
                     options->base_source != NULL ? options->base_source : absolute,
                     options->base_format != NULL ? options->base_format
                                                  : ddb_snapshot_format_name (r->s.format),
                     arn, base_ms, items, error))
    goto rollback;
  if (!ddb_store_commit (engine->store, error))
    goto rollback;
  /* Only fails if the database is unusable, which the next call will tell. */
  ddb_store_set_bulk (engine->store, FALSE, NULL);
  return TRUE;

rollback:
  ddb_store_rollback (engine->store);
  ddb_store_set_bulk (engine->store, FALSE, NULL);
  return FALSE;
}

gboolean
ddb_snapshot_import (DdbEngine *engine, const char *source, const DdbImportOptions *options,
                     DdbSnapshotProgress *out, GError **error)
{
  Progress pr;
  g_autoptr (DdbSnapshotReader) r = NULL;
  gboolean ok = FALSE;

  g_return_val_if_fail (engine != NULL, FALSE);
  g_return_val_if_fail (source != NULL, FALSE);
  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  snap_progress_init (&pr, options->progress, options->progress_data);
  /* The sources and the key schema (which may read a sample) are settled before the lock. */
  r = ddb_snapshot_reader_open (source, options, error);
  if (r != NULL)
    {
      pr.p.total_bytes = ddb_snapshot_reader_total_bytes (r);
      ddb_snapshot_reader_files (r, &pr.p.total_files);
      for (guint k = 0; r->incrementals != NULL && k < r->incrementals->len; k++)
        pr.p.total_files += ((Sources *) g_ptr_array_index (r->incrementals, k))->files->len;
      /* The whole import is one transaction on the engine's one connection: nothing else may
       * run on it meanwhile. */
      g_mutex_lock (&engine->lock);
      ok = import_locked (engine, r, source, options, &pr, error);
      g_mutex_unlock (&engine->lock);
    }
  snap_progress_finish (&pr, out);
  return ok;
}
