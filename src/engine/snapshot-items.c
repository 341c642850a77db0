/* snapshot-items.c: a list of items (a grid's selection) written as an export writes a table,
 * as text or to a file: the export's own writers (snapshot-export.c, snapshot-csv.c) fed from
 * the list instead of Scan pages, so that the text imports back to the same items. */
#include <string.h>

#include "core/error.h"
#include "engine/snapshot-private.h"

static gboolean
check_format (DdbSnapshotFormat format, GError **error)
{
  if (format == DDB_SNAPSHOT_JSONL || format == DDB_SNAPSHOT_JSON || format == DDB_SNAPSHOT_CSV)
    return TRUE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "Items are written as jsonl, json or csv");
  return FALSE;
}

/* Everything of ST's output: CSV's columns first, then the items through the export's
 * writers. */
static gboolean
write_list (ExportState *st, GPtrArray *items, GError **error)
{
  ItemFunc func = snap_export_item_func (st->format);

  for (guint i = 0; i < items->len; i++)
    {
      const DdbValue *item = g_ptr_array_index (items, i);

      if (item == NULL || item->type != DDB_TYPE_M)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "Member %u of the list is not an item", i + 1);
          return FALSE;
        }
      if (st->format == DDB_SNAPSHOT_CSV && !snap_csv_collect_columns (item, st, error))
        return FALSE;
    }
  snap_export_begin (st);
  for (guint i = 0; i < items->len; i++)
    if (!func (g_ptr_array_index (items, i), st, error))
      return FALSE;
  snap_export_end (st);
  return TRUE;
}

static void
state_init (ExportState *st, Writer *w, DdbSnapshotFormat format, Progress *pr,
            GCancellable *cancellable)
{
  memset (st, 0, sizeof *st);
  st->w = w;
  st->format = format;
  st->pr = pr;
  st->cancellable = cancellable;
  st->first = TRUE;
  st->columns = g_ptr_array_new_with_free_func (snap_csv_column_free);
  st->column_index = g_hash_table_new (g_str_hash, g_str_equal);
}

static void
state_clear (ExportState *st)
{
  g_clear_pointer (&st->column_index, g_hash_table_destroy);
  g_clear_pointer (&st->columns, g_ptr_array_unref);
}

char *
ddb_snapshot_format_items (GPtrArray *items, DdbSnapshotFormat format, GError **error)
{
  Progress pr;
  Writer w = { 0 };
  ExportState st;
  guint64 written = 0;
  gboolean ok;

  g_return_val_if_fail (items != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (format == DDB_SNAPSHOT_AUTO)
    format = DDB_SNAPSHOT_JSONL;
  if (!check_format (format, error))
    return NULL;
  /* A writer without a file: everything stays in its buffer. */
  snap_progress_init (&pr, NULL, NULL);
  w.buf = g_string_new (NULL);
  w.bytes = &written;
  state_init (&st, &w, format, &pr, NULL);
  ok = write_list (&st, items, error);
  state_clear (&st);
  if (!ok)
    {
      g_string_free (w.buf, TRUE);
      return NULL;
    }
  return g_string_free (w.buf, FALSE);
}

gboolean
ddb_snapshot_write_items (const char *dest, GPtrArray *items, DdbSnapshotFormat format,
                          DdbSnapshotProgressFunc progress, gpointer progress_data,
                          GCancellable *cancellable, DdbSnapshotProgress *out, GError **error)
{
  Progress pr;
  Writer w;
  ExportState st;
  guint64 written = 0;
  g_autofree char *lower = NULL;
  gboolean ok;

  g_return_val_if_fail (dest != NULL && items != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  snap_progress_init (&pr, progress, progress_data);
  if (format == DDB_SNAPSHOT_AUTO)
    format = snap_file_format_from_name (dest);
  if (!check_format (format, error) || g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      snap_progress_finish (&pr, out);
      return FALSE;
    }
  lower = g_ascii_strdown (dest, -1);
  if (!snap_writer_open (&w, dest, g_str_has_suffix (lower, ".gz"), &written, cancellable, error))
    {
      snap_progress_finish (&pr, out);
      return FALSE;
    }
  state_init (&st, &w, format, &pr, cancellable);
  ok = write_list (&st, items, error) && !g_cancellable_set_error_if_cancelled (cancellable, error);
  ok = snap_writer_close (&w, ok, ok ? error : NULL) && ok;
  state_clear (&st);
  pr.p.bytes = written;
  snap_progress_finish (&pr, out);
  return ok;
}
