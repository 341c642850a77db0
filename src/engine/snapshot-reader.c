/* snapshot-reader.c: the item stream of an import (DdbSnapshotReader), shared by the import
 * into the engine (snapshot-import.c), the import to a remote endpoint (backend/transfer.c),
 * staging a file's items (staging/copystage.c) and compare's reading of an export. The sources
 * and their items are snapshot-source.c's, the table's definition and its inferred key
 * snapshot-keys.c's.
 *
 * The sources' files are read in order, each item checked as PutItem checks it (400 KB, key
 * attributes and their types, index key attributes), the S3 layout's item counts and checksums
 * verified. From the first item asked for, the reading (a file's bytes, gunzipped when they
 * start with gzip's magic bytes, parsed and checked) runs on a thread of its own, a few batches
 * of items ahead of the caller, so that an import's writes and its reading take two cores. The
 * batches go to the caller through one queue and come back through another with the items the
 * caller released, which the reading thread frees: its allocations stay on its thread. */
#include <string.h>

#include "core/error.h"
#include "core/itemsize.h"
#include "core/keycodec.h"
#include "engine/item-ops.h"
#include "engine/snapshot-private.h"

/* Items a batch holds, and batches in flight: enough to keep both threads busy through a
 * file's opening, few enough that the items ahead stay a few megabytes. */
#define BATCH_ITEMS 256
#define BATCHES 8

struct _ReadBatch {
  DdbValue *items[BATCH_ITEMS];
  ReadWhere where[BATCH_ITEMS];
  guint n;
  /* The batch ends the reading: at the end (error NULL) or at an error (can_skip: about one
   * item, and the reading may go on past it when the caller says so). */
  gboolean last;
  GError *error;
  gboolean can_skip;
  /* The reading's progress when the batch was handed over. */
  guint files_read;
  guint64 bytes_read;
  GPtrArray *garbage; /* DdbValue *: released by the caller, freed by the reading thread */
};

/* Told through `empty` or `resume`: the reader is being freed. Through `resume`: read on past
 * the refused item. */
static char stop_token, skip_token;
#define STOP ((gpointer) &stop_token)
#define SKIP ((gpointer) &skip_token)

static void
cancel_reading (GCancellable *cancellable, gpointer data)
{
  g_cancellable_cancel (data);
}

DdbSnapshotReader *
ddb_snapshot_reader_open (const char *source, const DdbImportOptions *options, GError **error)
{
  g_autoptr (DdbSnapshotReader) r = g_new0 (DdbSnapshotReader, 1);

  g_return_val_if_fail (source != NULL && options != NULL, NULL);
  r->reading = g_cancellable_new ();
  if (options->cancellable != NULL)
    {
      r->cancellable = g_object_ref (options->cancellable);
      r->cancel_handler
          = g_cancellable_connect (r->cancellable, G_CALLBACK (cancel_reading), r->reading, NULL);
    }
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
  r->where.file = G_MAXUINT;
  return g_steal_pointer (&r);
}

static void
free_items (DdbValue **items, guint n)
{
  for (guint i = 0; i < n; i++)
    ddb_value_free (items[i]);
}

/* Stops the reading thread and frees what is in flight: the items of every batch not yet
 * handed out, and every item given back. */
static void
stop_reading (DdbSnapshotReader *r)
{
  g_cancellable_cancel (r->reading);
  g_async_queue_push (r->empty, STOP);
  g_async_queue_push (r->resume, STOP);
  g_thread_join (r->thread);
  r->thread = NULL;
  for (guint i = 0; i < BATCHES; i++)
    {
      ReadBatch *b = &r->batches[i];
      guint from = b == r->cur ? r->pos : 0;

      free_items (b->items + from, b->n - from);
      free_items ((DdbValue **) b->garbage->pdata, b->garbage->len);
      g_ptr_array_unref (b->garbage);
      g_clear_error (&b->error);
    }
  free_items ((DdbValue **) r->released->pdata, r->released->len);
  g_ptr_array_unref (r->released);
  g_clear_pointer (&r->batches, g_free);
  g_async_queue_unref (r->full);
  g_async_queue_unref (r->empty);
  g_async_queue_unref (r->resume);
}

void
ddb_snapshot_reader_free (DdbSnapshotReader *r)
{
  if (r == NULL)
    return;
  if (r->batches != NULL)
    stop_reading (r);
  if (r->cancellable != NULL)
    {
      g_cancellable_disconnect (r->cancellable, r->cancel_handler);
      g_object_unref (r->cancellable);
    }
  g_clear_object (&r->reading);
  if (r->src_open)
    snap_item_source_close (&r->src);
  g_clear_pointer (&r->def, ddb_table_def_free);
  g_clear_pointer (&r->incrementals, g_ptr_array_unref);
  snap_sources_clear (&r->s);
  g_free (r);
}

/* ---- The reading thread ---- */

static DdbValue *
reader_fail (DdbSnapshotReader *r, GError **error, GError *local)
{
  r->done = TRUE;
  g_propagate_error (error, local);
  return NULL;
}

/* The next item of the files, checked; NULL at the end or on an error (r->can_skip: the error
 * is about that one item). */
static DdbValue *
read_item (DdbSnapshotReader *r, GError **error)
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
          if (r->s.format == DDB_SNAPSHOT_S3 && !snap_source_file_check (f, r->reading, &local))
            return reader_fail (r, error, local);
          r->src_open = TRUE;
          r->file_items = 0;
          if (!snap_item_source_open (&r->src, r->s.format, f, &r->def->key, r->reading, &local))
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
      if ((r->items & 63) == 0 && g_cancellable_set_error_if_cancelled (r->reading, &local))
        {
          ddb_value_free (item);
          return reader_fail (r, error, local);
        }
      return item;
    }
}

/* An empty batch to fill (the items given back with it freed), or NULL when the reader is
 * being freed. */
static ReadBatch *
take_batch (DdbSnapshotReader *r)
{
  ReadBatch *b = g_async_queue_pop (r->empty);

  if (b == STOP)
    return NULL;
  free_items ((DdbValue **) b->garbage->pdata, b->garbage->len);
  g_ptr_array_set_size (b->garbage, 0);
  return b;
}

static void
hand_over (DdbSnapshotReader *r, ReadBatch *b)
{
  b->files_read = r->next_file;
  b->bytes_read = r->bytes_done + (r->src_open ? snap_line_reader_position (&r->src.lr) : 0);
  g_async_queue_push (r->full, b);
}

static gpointer
read_ahead (gpointer data)
{
  DdbSnapshotReader *r = data;
  ReadBatch *b = take_batch (r);

  while (b != NULL)
    {
      GError *local = NULL;
      DdbValue *item = read_item (r, &local);

      if (item != NULL)
        {
          b->items[b->n] = item;
          b->where[b->n].file = r->next_file;
          b->where[b->n].line = r->src.item_line;
          if (++b->n == BATCH_ITEMS)
            {
              hand_over (r, b);
              b = take_batch (r);
            }
          continue;
        }
      b->last = TRUE;
      b->error = local;
      b->can_skip = r->can_skip;
      hand_over (r, b);
      if (local == NULL || !r->can_skip || g_async_queue_pop (r->resume) != SKIP)
        break;
      r->can_skip = FALSE;
      r->done = FALSE;
      b = take_batch (r);
    }
  return NULL;
}

/* ---- The caller's side ---- */

static void
start_reading (DdbSnapshotReader *r)
{
  r->batches = g_new0 (ReadBatch, BATCHES);
  r->full = g_async_queue_new ();
  r->empty = g_async_queue_new ();
  r->resume = g_async_queue_new ();
  r->released = g_ptr_array_new ();
  for (guint i = 0; i < BATCHES; i++)
    {
      r->batches[i].garbage = g_ptr_array_new ();
      g_async_queue_push (r->empty, &r->batches[i]);
    }
  r->thread = g_thread_new ("dynoscope-read", read_ahead, r);
}

/* Gives the batch handed out back to the reading thread, with the items released since. */
static void
give_back (DdbSnapshotReader *r)
{
  ReadBatch *b = r->cur;
  GPtrArray *empty = b->garbage;

  b->garbage = r->released;
  r->released = empty;
  b->n = 0;
  b->last = FALSE;
  b->can_skip = FALSE;
  r->cur = NULL;
  r->pos = 0;
  g_async_queue_push (r->empty, b);
}

DdbValue *
ddb_snapshot_reader_next (DdbSnapshotReader *r, GError **error)
{
  if (r->ended)
    return NULL;
  if (r->batches == NULL)
    start_reading (r);
  for (;;)
    {
      if (r->cur != NULL && r->pos < r->cur->n)
        {
          /* The caller's cancellation is told within 64 items, however far the reading is
           * ahead (or stopped at a refused item). */
          if ((++r->handed_out & 63) == 0
              && g_cancellable_set_error_if_cancelled (r->cancellable, error))
            {
              r->ended = TRUE;
              r->may_skip = FALSE;
              return NULL;
            }
          r->where = r->cur->where[r->pos];
          return r->cur->items[r->pos++];
        }
      if (r->cur != NULL && r->cur->last)
        {
          r->ended = TRUE;
          r->may_skip = r->cur->can_skip;
          if (r->cur->error != NULL)
            g_propagate_error (error, g_steal_pointer (&r->cur->error));
          return NULL;
        }
      if (r->cur != NULL)
        give_back (r);
      r->cur = g_async_queue_pop (r->full);
      r->files_read = r->cur->files_read;
      r->bytes_read = r->cur->bytes_read;
    }
}

void
ddb_snapshot_reader_release (DdbSnapshotReader *r, DdbValue *item)
{
  if (item == NULL)
    return;
  if (r->released == NULL)
    ddb_value_free (item);
  else
    g_ptr_array_add (r->released, item);
}

gboolean
ddb_snapshot_reader_apply_incrementals (DdbSnapshotReader *r, const DdbSnapshotChangeSink *sink,
                                        GError **error)
{
  Progress pr;

  g_return_val_if_fail (r->ended && !r->may_skip, FALSE);
  if (r->incrementals == NULL)
    return TRUE;
  snap_progress_init (&pr, NULL, NULL);
  return snap_apply_incrementals (sink, r->def, r->incrementals, &pr, r->cancellable, error);
}

gboolean
ddb_snapshot_reader_skip_refused (DdbSnapshotReader *r)
{
  if (!r->ended || !r->may_skip)
    return FALSE;
  r->may_skip = FALSE;
  r->ended = FALSE;
  give_back (r);
  g_async_queue_push (r->resume, SKIP);
  return TRUE;
}

void
ddb_snapshot_reader_prefix_error (DdbSnapshotReader *r, GError **error)
{
  const SourceFile *f;

  if (r->where.file >= r->s.files->len)
    return;
  f = g_ptr_array_index (r->s.files, r->where.file);
  g_prefix_error (error, "%s:%" G_GUINT64_FORMAT ": ", f->display, r->where.line);
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
  return r->files_read;
}

guint64
ddb_snapshot_reader_bytes (DdbSnapshotReader *r)
{
  return r->bytes_read;
}

guint64
ddb_snapshot_reader_total_bytes (DdbSnapshotReader *r)
{
  return r->s.total_bytes;
}

json_t *
ddb_snapshot_reader_create_table_request (DdbSnapshotReader *r)
{
  const DdbTableDef *def = r->def;
  json_t *req = json_pack ("{ss so sO ss}", "TableName", def->name, "KeySchema",
                           ddb_key_def_to_json (&def->key), "AttributeDefinitions",
                           json_object_get (def->meta, "AttributeDefinitions"), "BillingMode",
                           "PAY_PER_REQUEST");

  if (def->indexes->len > 0)
    {
      json_t *gsis = json_array ();

      for (guint i = 0; i < def->indexes->len; i++)
        {
          const DdbIndexDef *index = g_ptr_array_index (def->indexes, i);

          json_array_append_new (gsis, json_pack ("{ss so s{ss}}", "IndexName", index->name,
                                                  "KeySchema", ddb_key_def_to_json (&index->key),
                                                  "Projection", "ProjectionType", "ALL"));
        }
      json_object_set_new (req, "GlobalSecondaryIndexes", gsis);
    }
  return req;
}
