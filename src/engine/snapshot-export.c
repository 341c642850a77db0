/* snapshot-export.c: export of a table or a query result to jsonl, json or csv (the s3 layout
 * is in snapshot-s3.c).
 *
 * Export pages through the engine's own Scan (or the given Query), so it sees what a client
 * sees and never holds the engine lock between pages; an export from a remote endpoint is the
 * same code calling through the backend seam instead (ddb_snapshot_export_with). A parallel
 * Scan runs each segment on a thread of its own; the writer takes one page at a time. Files are
 * written to DEST.part and renamed at the end. */
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/itemsize.h"
#include "core/plainjson.h"
#include "engine/snapshot-private.h"

/* ---- Writing ---- */

gboolean
snap_writer_open (Writer *w, const char *path, gboolean gzip, guint64 *bytes,
                  GCancellable *cancellable, GError **error)
{
  g_autoptr (GFile) part = NULL;
  GFileOutputStream *fout;

  memset (w, 0, sizeof *w);
  w->cancellable = cancellable;
  w->bytes = bytes;
  w->buf = g_string_sized_new (WRITE_FLUSH + 4096);
  if (strcmp (path, "-") == 0)
    {
      /* Standard output: written as it comes, nothing to put in place or remove. */
      w->to_stdout = TRUE;
      return TRUE;
    }
  w->final_path = g_strdup (path);
  w->part_path = g_strconcat (path, ".part", NULL);
  part = g_file_new_for_path (w->part_path);
  fout = g_file_replace (part, NULL, FALSE, G_FILE_CREATE_NONE, cancellable, error);
  if (fout == NULL)
    return FALSE;
  w->file = G_OUTPUT_STREAM (fout);
  if (gzip)
    {
      g_autoptr (GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
      w->out = g_converter_output_stream_new (w->file, G_CONVERTER (z));
    }
  else
    w->out = g_object_ref (w->file);
  return TRUE;
}

static gboolean
writer_flush (Writer *w, GError **error)
{
  /* A writer with no file (snapshot-items.c's text) keeps everything in its buffer. */
  if (w->buf->len == 0 || (w->out == NULL && !w->to_stdout))
    return TRUE;
  if (w->to_stdout)
    {
      if (g_cancellable_set_error_if_cancelled (w->cancellable, error))
        return FALSE;
      if (fwrite (w->buf->str, 1, w->buf->len, stdout) != w->buf->len || fflush (stdout) != 0)
        {
          int e = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "standard output: %s",
                       g_strerror (e));
          return FALSE;
        }
    }
  else if (!g_output_stream_write_all (w->out, w->buf->str, w->buf->len, NULL, w->cancellable,
                                       error))
    return FALSE;
  if (w->bytes != NULL)
    *w->bytes += w->buf->len;
  g_string_truncate (w->buf, 0);
  return TRUE;
}

static gboolean
writer_maybe_flush (Writer *w, GError **error)
{
  return w->buf->len < WRITE_FLUSH || writer_flush (w, error);
}

/* Closes; on success renames DEST.part to DEST, otherwise removes DEST.part. */
gboolean
snap_writer_close (Writer *w, gboolean success, GError **error)
{
  gboolean ok = success;

  if (w->to_stdout && ok)
    ok = writer_flush (w, error);
  if (w->out != NULL)
    {
      if (ok)
        ok = writer_flush (w, error);
      if (!g_output_stream_close (w->out, NULL, ok ? error : NULL))
        ok = FALSE;
      if (w->file != w->out && !g_output_stream_close (w->file, NULL, ok ? error : NULL))
        ok = FALSE;
    }
  if (ok && w->part_path != NULL && g_rename (w->part_path, w->final_path) != 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", w->final_path,
                   g_strerror (e));
      ok = FALSE;
    }
  if (!ok && w->part_path != NULL)
    g_unlink (w->part_path);
  g_clear_object (&w->out);
  g_clear_object (&w->file);
  if (w->buf != NULL)
    g_string_free (w->buf, TRUE);
  w->buf = NULL;
  g_clear_pointer (&w->final_path, g_free);
  g_clear_pointer (&w->part_path, g_free);
  return ok;
}

/* ---- Export ---- */

/* What the pages of one export share; with several segments, their threads share it. */
typedef struct {
  const SnapCaller *caller;
  const DdbExportOptions *options;
  ItemFunc func;
  gpointer data;
  GCancellable *cancellable; /* the caller's */
  GCancellable *stop;        /* cancelled by the caller's or by the first error */
  GMutex lock;               /* one segment at a time in `func` */
  GError *error;             /* the first error */
  guint total_segments;      /* 0: no Segment/TotalSegments */
} ScanRun;

typedef struct {
  ScanRun *run;
  guint segment;
} SegmentJob;

/* One segment's (or the whole table's, or the query's) LastEvaluatedKey loop. */
static gboolean
scan_pages (ScanRun *run, guint segment, GError **error)
{
  const DdbExportOptions *options = run->options;
  json_auto_t *req = options->query != NULL ? json_deep_copy (options->query) : json_object ();
  const char *op = options->query != NULL ? "Query" : "Scan";

  json_object_set_new (req, "TableName", json_string (options->table_name));
  json_object_del (req, "ExclusiveStartKey");
  json_object_del (req, "Limit");
  json_object_del (req, "Select");
  if (run->total_segments > 0)
    {
      json_object_set_new (req, "Segment", json_integer (segment));
      json_object_set_new (req, "TotalSegments", json_integer (run->total_segments));
    }
  for (;;)
    {
      json_auto_t *resp = NULL;
      json_t *items, *last, *j;
      gboolean ok = TRUE;
      gsize i;

      if (g_cancellable_set_error_if_cancelled (run->cancellable, error)
          || g_cancellable_set_error_if_cancelled (run->stop, error))
        return FALSE;
      if (!run->caller->call (segment, op, req, run->stop, &resp, error, run->caller->data))
        return FALSE;
      items = json_object_get (resp, "Items");
      g_mutex_lock (&run->lock);
      json_array_foreach (items, i, j)
        {
          g_autoptr (DdbValue) item = ddb_json_to_item (j, error);

          if (item == NULL || !run->func (item, run->data, error))
            {
              ok = FALSE;
              break;
            }
        }
      g_mutex_unlock (&run->lock);
      if (!ok)
        return FALSE;
      last = json_object_get (resp, "LastEvaluatedKey");
      if (last == NULL)
        return TRUE;
      json_object_set (req, "ExclusiveStartKey", last);
    }
}

static gpointer
segment_thread (gpointer data)
{
  SegmentJob *job = data;
  ScanRun *run = job->run;
  GError *local = NULL;

  if (!scan_pages (run, job->segment, &local))
    {
      g_mutex_lock (&run->lock);
      /* The first error is the one to tell; the others are mostly the cancellations it made. */
      if (run->error == NULL)
        run->error = g_steal_pointer (&local);
      g_mutex_unlock (&run->lock);
      g_clear_error (&local);
      g_cancellable_cancel (run->stop);
    }
  return NULL;
}

static void
on_caller_cancelled (GCancellable *cancellable, gpointer stop)
{
  g_cancellable_cancel (G_CANCELLABLE (stop));
}

gboolean
snap_for_each_item (const SnapCaller *caller, const DdbExportOptions *options, ItemFunc func,
                    gpointer data, GCancellable *cancellable, GError **error)
{
  ScanRun run = { 0 };
  guint segments = options->query == NULL ? MAX (options->segments, 1) : 1;
  gulong handler = 0;
  gboolean ok;

  run.caller = caller;
  run.options = options;
  run.func = func;
  run.data = data;
  run.cancellable = cancellable;
  run.stop = g_cancellable_new ();
  g_mutex_init (&run.lock);
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (on_caller_cancelled),
                                     g_object_ref (run.stop), g_object_unref);
  if (segments == 1)
    ok = scan_pages (&run, 0, error);
  else
    {
      g_autofree GThread **threads = g_new0 (GThread *, segments);
      g_autofree SegmentJob *jobs = g_new0 (SegmentJob, segments);

      run.total_segments = segments;
      for (guint i = 0; i < segments; i++)
        {
          jobs[i].run = &run;
          jobs[i].segment = i;
          threads[i] = g_thread_new ("dynoscope-scan", segment_thread, &jobs[i]);
        }
      for (guint i = 0; i < segments; i++)
        g_thread_join (threads[i]);
      ok = run.error == NULL;
      if (!ok)
        {
          /* Cancelled by the caller: say so, whatever a segment failed with meanwhile. */
          if (!g_cancellable_set_error_if_cancelled (cancellable, error))
            g_propagate_error (error, g_steal_pointer (&run.error));
          g_clear_error (&run.error);
        }
    }
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  g_mutex_clear (&run.lock);
  g_object_unref (run.stop);
  return ok;
}

gboolean
snap_export_tick (ExportState *st, GError **error)
{
  st->pr->p.items++;
  if ((st->pr->p.items & 63) == 0)
    {
      if (g_cancellable_set_error_if_cancelled (st->cancellable, error))
        return FALSE;
      st->pr->p.bytes = *st->w->bytes + st->w->buf->len;
      snap_progress_tick (st->pr);
    }
  return writer_maybe_flush (st->w, error);
}

gboolean
snap_write_ddb_item (const DdbValue *item, gpointer data, GError **error)
{
  ExportState *st = data;

  ddb_json_append_item (st->w->buf, item);
  g_string_append_c (st->w->buf, '\n');
  return snap_export_tick (st, error);
}

static gboolean
write_plain_item (const DdbValue *item, gpointer data, GError **error)
{
  ExportState *st = data;
  g_autofree char *text = ddb_plain_format_item (item, DDB_PLAIN_TAGGED, error);

  if (text == NULL)
    return FALSE;
  g_string_append (st->w->buf, st->first ? "[\n" : ",\n");
  st->first = FALSE;
  g_string_append (st->w->buf, text);
  return snap_export_tick (st, error);
}

void
snap_export_begin (ExportState *st)
{
  if (st->format == DDB_SNAPSHOT_CSV)
    snap_csv_write_header (st);
}

ItemFunc
snap_export_item_func (DdbSnapshotFormat format)
{
  switch (format)
    {
    case DDB_SNAPSHOT_CSV:
      return snap_csv_write_item;
    case DDB_SNAPSHOT_JSON:
      return write_plain_item;
    case DDB_SNAPSHOT_JSONL:
    default:
      return snap_write_ddb_item;
    }
}

void
snap_export_end (ExportState *st)
{
  if (st->format == DDB_SNAPSHOT_JSON)
    g_string_append (st->w->buf, st->first ? "[]\n" : "\n]\n");
}

static gboolean
engine_call (guint segment, const char *operation, json_t *request, GCancellable *cancellable,
             json_t **response, GError **error, gpointer user_data)
{
  /* The engine finishes a call it has started; cancellation is checked between pages. */
  return ddb_engine_call (user_data, operation, request, response, error);
}

gboolean
ddb_snapshot_export (DdbEngine *engine, const char *dest, const DdbExportOptions *options,
                     DdbSnapshotProgress *out, GError **error)
{
  g_return_val_if_fail (engine != NULL, FALSE);
  return ddb_snapshot_export_with (engine_call, engine, dest, options, out, error);
}

gboolean
ddb_snapshot_export_with (DdbSnapshotCallFunc call, gpointer call_data, const char *dest,
                          const DdbExportOptions *options, DdbSnapshotProgress *out, GError **error)
{
  SnapCaller caller = { call, call_data };
  Progress pr;
  Writer w;
  ExportState st = { 0 };
  guint64 written = 0;
  DdbSnapshotFormat format;
  gboolean ok;
  g_autofree char *lower = NULL;

  g_return_val_if_fail (call != NULL, FALSE);
  g_return_val_if_fail (dest != NULL, FALSE);
  g_return_val_if_fail (options != NULL && options->table_name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  snap_progress_init (&pr, options->progress, options->progress_data);
  format = options->format == DDB_SNAPSHOT_AUTO ? DDB_SNAPSHOT_JSONL : options->format;
  if (format == DDB_SNAPSHOT_S3 && strcmp (dest, "-") == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           "An s3 export is a folder: it cannot be written to standard output");
      snap_progress_finish (&pr, out);
      return FALSE;
    }
  if (format == DDB_SNAPSHOT_S3)
    {
      ok = snap_export_s3 (&caller, dest, options, &pr, error);
      snap_progress_finish (&pr, out);
      return ok;
    }

  lower = g_ascii_strdown (dest, -1);
  st.format = format;
  st.pr = &pr;
  st.cancellable = options->cancellable;
  st.first = TRUE;
  if (format == DDB_SNAPSHOT_CSV)
    {
      st.columns = g_ptr_array_new_with_free_func (snap_csv_column_free);
      st.column_index = g_hash_table_new (g_str_hash, g_str_equal);
      /* Checking the table exists before the (maybe long) first pass. */
      if (!snap_for_each_item (&caller, options, snap_csv_collect_columns, &st,
                               options->cancellable, error))
        {
          g_hash_table_destroy (st.column_index);
          g_ptr_array_unref (st.columns);
          snap_progress_finish (&pr, out);
          return FALSE;
        }
    }
  else
    {
      /* Fail on a missing table before creating the file. */
      json_auto_t *req = json_pack ("{ss}", "TableName", options->table_name);
      json_auto_t *resp = NULL;

      if (!call (0, "DescribeTable", req, options->cancellable, &resp, error, call_data))
        {
          snap_progress_finish (&pr, out);
          return FALSE;
        }
    }

  if (!snap_writer_open (&w, dest, g_str_has_suffix (lower, ".gz"), &written, options->cancellable,
                         error))
    {
      if (st.columns != NULL)
        {
          g_hash_table_destroy (st.column_index);
          g_ptr_array_unref (st.columns);
        }
      snap_progress_finish (&pr, out);
      return FALSE;
    }
  st.w = &w;
  snap_export_begin (&st);
  ok = snap_for_each_item (&caller, options, snap_export_item_func (format), &st,
                           options->cancellable, error);
  if (ok)
    snap_export_end (&st);
  ok = snap_writer_close (&w, ok, ok ? error : NULL) && ok;
  if (st.columns != NULL)
    {
      g_hash_table_destroy (st.column_index);
      g_ptr_array_unref (st.columns);
    }
  pr.p.bytes = written;
  snap_progress_finish (&pr, out);
  return ok;
}
