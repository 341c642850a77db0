/* snapshot-import.c: the item stream of an import (DdbSnapshotReader, shared with the import to
 * a remote endpoint in backend/transfer.c) and the import into the engine in one store
 * transaction. The sources and their items are snapshot-source.c's, the table's definition and
 * its inferred key snapshot-keys.c's.
 *
 * Import reads items one at a time from an ItemSource (a line reader over a file, gunzipped
 * when the file starts with gzip's magic bytes), checks each as PutItem would (keys, index keys,
 * 400 KB) and puts it through the store inside the transaction that created the table; any
 * error, or cancellation, rolls the whole transaction back, so a failed import leaves nothing.
 * Errors about an item are prefixed "FILE:LINE: ". Without a key schema, one is inferred from
 * a sample of the items. */
#include <glib/gstdio.h>
#include <string.h>

#include "core/error.h"
#include "core/itemsize.h"
#include "core/keycodec.h"
#include "engine/base-store.h"
#include "engine/engine-private.h"
#include "engine/item-ops.h"
#include "engine/snapshot-private.h"
#include "engine/store.h"

/* ---- The item stream ---- */

struct _DdbSnapshotReader {
  Sources s;
  GPtrArray *incrementals; /* Sources* of the incremental exports, in order; NULL if none */
  DdbTableDef *def;
  gboolean inferred;
  GCancellable *cancellable;
  guint next_file; /* the index of the file to open next */
  ItemSource src;
  gboolean src_open;
  guint64 file_items; /* items of the open file so far */
  guint64 items;
  guint64 bytes_done; /* of the files read to their end */
  gboolean done;      /* at the end, or after an error */
  gboolean can_skip;  /* the last error was about one item, and reading may go on after it */
};

DdbSnapshotReader *
ddb_snapshot_reader_open (const char *source, const DdbImportOptions *options, GError **error)
{
  g_autoptr (DdbSnapshotReader) r = g_new0 (DdbSnapshotReader, 1);

  g_return_val_if_fail (source != NULL && options != NULL, NULL);
  r->cancellable = options->cancellable;
  if (!snap_load_sources (&r->s, source, options->format, options->store, error))
    return NULL;
  if (options->incrementals != NULL && options->incrementals[0] != NULL)
    {
      r->incrementals = snap_load_incrementals (&r->s, options->incrementals, error);
      if (r->incrementals == NULL)
        return NULL;
    }
  else if (r->s.incremental)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "%s: an incremental export cannot be imported alone: give the full export "
                   "first, then the incremental exports",
                   source);
      return NULL;
    }
  r->def = snap_build_table_def (options->table_name, options, &r->s, &r->inferred, error);
  if (r->def == NULL)
    return NULL;
  if (options->store != NULL && options->store->plan != NULL)
    {
      /* The store may fetch ahead: every data file, in the order they are read. */
      g_autoptr (GPtrArray) keys = g_ptr_array_new ();

      for (guint i = 0; i < r->s.files->len; i++)
        g_ptr_array_add (keys, ((SourceFile *) g_ptr_array_index (r->s.files, i))->key);
      for (guint k = 0; r->incrementals != NULL && k < r->incrementals->len; k++)
        {
          Sources *inc = g_ptr_array_index (r->incrementals, k);

          for (guint i = 0; i < inc->files->len; i++)
            g_ptr_array_add (keys, ((SourceFile *) g_ptr_array_index (inc->files, i))->key);
        }
      r->s.total_bytes = options->store->plan ((const char *const *) keys->pdata, keys->len,
                                               options->store->data);
    }
  return g_steal_pointer (&r);
}

void
ddb_snapshot_reader_free (DdbSnapshotReader *r)
{
  if (r == NULL)
    return;
  if (r->src_open)
    snap_item_source_close (&r->src);
  g_clear_pointer (&r->def, ddb_table_def_free);
  g_clear_pointer (&r->incrementals, g_ptr_array_unref);
  snap_sources_clear (&r->s);
  g_free (r);
}

static DdbValue *
reader_fail (DdbSnapshotReader *r, GError **error, GError *local)
{
  r->done = TRUE;
  g_propagate_error (error, local);
  return NULL;
}

DdbValue *
ddb_snapshot_reader_next (DdbSnapshotReader *r, GError **error)
{
  for (;;)
    {
      const SourceFile *f;
      DdbValue *item;
      GError *local = NULL;

      if (r->done)
        return NULL;
      r->can_skip = FALSE;
      if (!r->src_open)
        {
          if (r->next_file >= r->s.files->len)
            {
              r->done = TRUE;
              if (r->s.has_total && r->items != r->s.total)
                g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                             "manifest-summary.json gives itemCount %" G_GUINT64_FORMAT
                             ", the data files hold %" G_GUINT64_FORMAT " items",
                             r->s.total, r->items);
              return NULL;
            }
          f = g_ptr_array_index (r->s.files, r->next_file);
          if (r->s.format == DDB_SNAPSHOT_S3 && !snap_source_file_check (f, r->cancellable, &local))
            return reader_fail (r, error, local);
          r->src_open = TRUE;
          r->file_items = 0;
          if (!snap_item_source_open (&r->src, r->s.format, f, &r->def->key, r->cancellable,
                                      &local))
            return reader_fail (r, error, local);
        }
      f = g_ptr_array_index (r->s.files, r->next_file);
      item = snap_item_source_next (&r->src, &local);
      if (item == NULL)
        {
          if (local != NULL)
            {
              r->can_skip = r->src.refused_item;
              return reader_fail (r, error, local);
            }
          if (f->has_count && r->file_items != f->count)
            {
              g_set_error (&local, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "%s: manifest-files.json gives itemCount %" G_GUINT64_FORMAT
                           ", the file holds %" G_GUINT64_FORMAT " items",
                           f->display, f->count, r->file_items);
              return reader_fail (r, error, local);
            }
          if (!snap_item_source_finish (&r->src, &r->bytes_done, &local))
            return reader_fail (r, error, local);
          snap_item_source_close (&r->src);
          r->src_open = FALSE;
          r->next_file++;
          continue;
        }
      if (ddb_item_size (item) > DDB_MAX_ITEM_SIZE)
        g_set_error_literal (&local, DDB_ERROR, DDB_ERROR_VALIDATION,
                             "Item size has exceeded the maximum allowed size");
      else if (ddb_item_check_keys (r->def, item, &local))
        ddb_item_check_index_keys (r->def, item, FALSE, &local);
      if (local != NULL)
        {
          GError *prefixed = NULL;

          ddb_value_free (item);
          snap_item_error (&prefixed, local, f->display, r->src.item_line);
          r->can_skip = TRUE;
          return reader_fail (r, error, prefixed);
        }
      r->file_items++;
      r->items++;
      if ((r->items & 63) == 0 && g_cancellable_set_error_if_cancelled (r->cancellable, &local))
        {
          ddb_value_free (item);
          return reader_fail (r, error, local);
        }
      return item;
    }
}

gboolean
ddb_snapshot_reader_skip_refused (DdbSnapshotReader *r)
{
  if (!r->can_skip)
    return FALSE;
  r->can_skip = FALSE;
  r->done = FALSE;
  return TRUE;
}

void
ddb_snapshot_reader_prefix_error (DdbSnapshotReader *r, GError **error)
{
  const SourceFile *f;

  if (r->next_file >= r->s.files->len)
    return;
  f = g_ptr_array_index (r->s.files, r->next_file);
  g_prefix_error (error, "%s:%" G_GUINT64_FORMAT ": ", f->display, r->src.item_line);
}

GBytes *
ddb_snapshot_reader_item_key (DdbSnapshotReader *r, const DdbValue *item)
{
  GByteArray *out = g_byte_array_new ();
  DdbValue *h = ddb_value_map_get (item, r->def->key.hash_name);
  DdbValue *s
      = r->def->key.range_name != NULL ? ddb_value_map_get (item, r->def->key.range_name) : NULL;

  /* Checked items hold their keys with the declared types, which always encode. */
  if (h != NULL)
    ddb_key_encode (h, out, NULL);
  if (s != NULL)
    ddb_key_encode (s, out, NULL);
  return g_byte_array_free_to_bytes (out);
}

gboolean
ddb_snapshot_reader_key_inferred (DdbSnapshotReader *r)
{
  return r->inferred;
}

char *
ddb_snapshot_reader_key_spec (DdbSnapshotReader *r)
{
  return snap_key_spec_string (&r->def->key);
}

guint
ddb_snapshot_reader_files (DdbSnapshotReader *r, guint *total)
{
  if (total != NULL)
    *total = r->s.files->len;
  return r->next_file;
}

guint64
ddb_snapshot_reader_bytes (DdbSnapshotReader *r)
{
  return r->bytes_done + (r->src_open ? snap_line_reader_position (&r->src.lr) : 0);
}

guint64
ddb_snapshot_reader_total_bytes (DdbSnapshotReader *r)
{
  return r->s.total_bytes;
}

static json_t *
key_schema_json (const DdbKeyDef *key)
{
  json_t *schema = json_pack ("[{ssss}]", "AttributeName", key->hash_name, "KeyType", "HASH");

  if (key->range_name != NULL)
    json_array_append_new (
        schema, json_pack ("{ssss}", "AttributeName", key->range_name, "KeyType", "RANGE"));
  return schema;
}

json_t *
ddb_snapshot_reader_create_table_request (DdbSnapshotReader *r)
{
  const DdbTableDef *def = r->def;
  json_t *req = json_pack ("{ss so sO ss}", "TableName", def->name, "KeySchema",
                           key_schema_json (&def->key), "AttributeDefinitions",
                           json_object_get (def->meta, "AttributeDefinitions"), "BillingMode",
                           "PAY_PER_REQUEST");

  if (def->indexes->len > 0)
    {
      json_t *gsis = json_array ();

      for (guint i = 0; i < def->indexes->len; i++)
        {
          const DdbIndexDef *index = g_ptr_array_index (def->indexes, i);

          json_array_append_new (gsis, json_pack ("{ss so s{ss}}", "IndexName", index->name,
                                                  "KeySchema", key_schema_json (&index->key),
                                                  "Projection", "ProjectionType", "ALL"));
        }
      json_object_set_new (req, "GlobalSecondaryIndexes", gsis);
    }
  return req;
}

/* ---- Import into the engine ---- */

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

      ddb_value_free (item);
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
      && (!snap_apply_incrementals (engine->store, def, r->incrementals, pr, options->cancellable,
                                    error)
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
