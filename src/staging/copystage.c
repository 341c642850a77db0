/* copystage.c: items put into a table through the staging area (see copystage.h): a
 * selection copied from another table, with its key attributes renamed to the target's, or
 * the items of a file. Every item is mapped and checked as PutItem checks it (engine/itemcheck.h,
 * against the target's DescribeTable), read when overwriting (batchread.h), then staged in one
 * durable transaction, which is rolled back when any item is refused. */
#include "staging/copystage.h"

#include <string.h>

#include "core/error.h"
#include "engine/itemcheck.h"
#include "staging/batchread.h"
#include "staging/staging-private.h"

/* How often the reading of a file reports its progress, at most. */
#define PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 10)

/* One item between its checks, its read and its staging. */
typedef struct {
  DdbValue *item;    /* under the target's key names; NULL when refused before being read */
  DdbValue *key;     /* the key reported for it (as given), or NULL */
  guint number;      /* 1-based, in the items' order */
  char *where;       /* "FILE:LINE" for an item of a file, else NULL */
  char *failure;     /* why it is refused (without WHERE), or NULL */
  DdbValue *current; /* overwrite: the item as read, NULL when absent */
} Entry;

static void
entry_free (gpointer data)
{
  Entry *e = data;

  g_clear_pointer (&e->item, ddb_value_free);
  g_clear_pointer (&e->key, ddb_value_free);
  g_clear_pointer (&e->current, ddb_value_free);
  g_free (e->where);
  g_free (e->failure);
  g_free (e);
}

void
ddb_copy_stage_report_clear (DdbCopyStageReport *report)
{
  g_clear_pointer (&report->failures, g_ptr_array_unref);
}

static void
report_init (DdbCopyStageReport *report)
{
  memset (report, 0, sizeof *report);
  report->failures = g_ptr_array_new_with_free_func (ddb_expr_stage_failure_free);
}

static void
add_failure (DdbCopyStageReport *report, const Entry *e)
{
  DdbExprStageFailure *f = g_new0 (DdbExprStageFailure, 1);

  f->key = e->key != NULL ? ddb_value_copy (e->key) : NULL;
  f->message
      = e->where != NULL ? g_strdup_printf ("%s: %s", e->where, e->failure) : g_strdup (e->failure);
  g_ptr_array_add (report->failures, f);
  report->n_failed++;
}

/* The target's description, as checks. */
static DdbItemCheck *
describe (DdbBackend *target, const char *table, GCancellable *cancellable, GError **error)
{
  json_auto_t *req = json_pack ("{ss}", "TableName", table);
  json_auto_t *resp = NULL;

  if (!ddb_backend_call (target, "DescribeTable", req, cancellable, &resp, error))
    return NULL;
  return ddb_item_check_new (json_object_get (resp, "Table"), error);
}

/* The key attributes NAMES (NULL-terminated) of ITEM as a new map, or NULL when one is
 * missing. */
static DdbValue *
key_of (const DdbValue *item, const char *const *names)
{
  g_autoptr (DdbValue) key = ddb_value_new_m ();

  for (guint i = 0; names[i] != NULL; i++)
    {
      const DdbValue *v = ddb_value_map_get (item, names[i]);

      if (v == NULL)
        return NULL;
      ddb_value_map_set (key, names[i], ddb_value_copy (v));
    }
  return g_steal_pointer (&key);
}

/* ITEM with the source key attributes renamed to the target's (a copy); NULL with *FAILURE
 * when a renamed attribute would replace another of the item. */
static DdbValue *
map_keys (const DdbValue *item, const char *const *source_names, DdbItemCheck *check,
          char **failure)
{
  const char *target_names[2]
      = { ddb_item_check_hash_name (check), ddb_item_check_range_name (check) };
  g_autoptr (DdbValue) out = NULL;
  g_autoptr (GHashTable) renamed_from = g_hash_table_new (g_str_hash, g_str_equal);

  if (source_names == NULL)
    return ddb_value_copy (item);
  out = ddb_value_new_m_sized (ddb_value_map_size (item));
  for (guint i = 0; i < ddb_value_map_size (item); i++)
    {
      const DdbAttr *a = ddb_value_map_nth (item, i);
      const char *name = a->name;

      gsize name_len = a->name_len;

      for (guint k = 0; k < 2 && source_names[k] != NULL; k++)
        if (target_names[k] != NULL && a->name_len == strlen (source_names[k])
            && memcmp (a->name, source_names[k], a->name_len) == 0)
          {
            name = target_names[k];
            name_len = strlen (name);
            break;
          }
      if (ddb_value_map_get_len (out, name, name_len) != NULL)
        {
          /* One of the two is a renamed key attribute, the other the item's own. */
          const char *from = g_hash_table_lookup (renamed_from, name);

          *failure = g_strdup_printf ("The key attribute %s would become %s, which the item "
                                      "already holds",
                                      from != NULL ? from : a->name, name);
          return NULL;
        }
      if (name != a->name)
        g_hash_table_insert (renamed_from, (gpointer) name, a->name);
      ddb_value_map_append (out, name, name_len, ddb_value_copy (a->value));
    }
  return g_steal_pointer (&out);
}

/* Checks ENTRY's item (already under the target's names): a valid item for the table, whose
 * key no earlier entry has (SEEN: key code -> the earlier entry). */
static void
check_entry (Entry *e, DdbItemCheck *check, GHashTable *seen)
{
  g_autoptr (GError) local = NULL;
  GBytes *code;
  const Entry *earlier;

  if (!ddb_item_check_item (check, e->item, &local))
    {
      e->failure = g_strdup (local->message);
      return;
    }
  code = ddb_item_check_key_code (check, e->item);
  earlier = g_hash_table_lookup (seen, code);
  if (earlier != NULL)
    {
      e->failure = earlier->where != NULL
                       ? g_strdup_printf ("The same key as the item at %s", earlier->where)
                       : g_strdup_printf ("The same key as item %u", earlier->number);
      g_bytes_unref (code);
      return;
    }
  g_hash_table_insert (seen, code, e);
}

/* A new entry for ITEM (borrowed): mapped to the target's key names and checked. */
static Entry *
entry_new (const DdbValue *item, guint number, char *where, const DdbCopyStageSpec *spec,
           DdbItemCheck *check, GHashTable *seen)
{
  Entry *e = g_new0 (Entry, 1);

  e->number = number;
  e->where = where;
  if (item == NULL || item->type != DDB_TYPE_M)
    {
      e->failure = g_strdup ("Not an item");
      return e;
    }
  /* The key as given: the source's names when they are renamed. */
  e->key = spec->source_key_names != NULL ? key_of (item, spec->source_key_names) : NULL;
  e->item = map_keys (item, spec->source_key_names, check, &e->failure);
  if (e->item == NULL)
    return e;
  if (spec->source_key_names == NULL)
    e->key = ddb_item_check_key (check, e->item);
  check_entry (e, check, seen);
  if (e->failure != NULL)
    g_clear_pointer (&e->item, ddb_value_free);
  return e;
}

/* Overwrite: reads the items the entries that passed their checks would replace. */
static gboolean
read_current (DdbBackend *target, const DdbCopyStageSpec *spec, DdbItemCheck *check,
              GPtrArray *entries, GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  g_autoptr (GPtrArray) at = g_ptr_array_new ();
  g_autoptr (GPtrArray) items = NULL;

  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = g_ptr_array_index (entries, i);

      if (e->item == NULL)
        continue;
      g_ptr_array_add (keys, ddb_item_check_key (check, e->item));
      g_ptr_array_add (at, e);
    }
  if (keys->len == 0)
    return TRUE;
  items = ddb_batch_read_items (target, spec->table, keys, cancellable, error);
  if (items == NULL)
    return FALSE;
  for (guint k = 0; k < at->len; k++)
    ((Entry *) g_ptr_array_index (at, k))->current
        = g_steal_pointer (&g_ptr_array_index (items, k));
  return TRUE;
}

/* Stages one entry that passed its checks: FALSE only when the store failed (*ERROR set); a
 * refusal of the store is the entry's failure. */
static gboolean
stage_entry (DdbStaging *staging, const DdbCopyStageSpec *spec, DdbItemCheck *check, Entry *e,
             DdbCopyStageReport *report, GError **error)
{
  g_autoptr (DdbValue) key = ddb_item_check_key (check, e->item);
  GError *local = NULL;
  gboolean ok;

  if (spec->overwrite && e->current != NULL)
    {
      if (ddb_value_equal (e->current, e->item))
        {
          report->n_unchanged++;
          return TRUE;
        }
      ok = ddb_staging_stage_update (staging, spec->connection, spec->table, key, e->current,
                                     e->item, NULL, &local);
      if (ok)
        report->n_overwritten++;
    }
  else
    {
      ok = ddb_staging_stage_create (staging, spec->connection, spec->table, key, e->item, NULL,
                                     &local);
      if (ok)
        report->n_created++;
    }
  if (ok)
    return TRUE;
  if (ddb_staging_is_item_refusal (local))
    {
      e->failure = g_strdup (local->message);
      g_error_free (local);
      return TRUE;
    }
  g_propagate_error (error, local);
  return FALSE;
}

/* Reads (overwrite) and stages the checked ENTRIES in one transaction, kept only when none is
 * refused; fills REPORT. */
static gboolean
stage_entries (DdbStaging *staging, DdbBackend *target, const DdbCopyStageSpec *spec,
               DdbItemCheck *check, GPtrArray *entries, GCancellable *cancellable,
               DdbCopyStageReport *report, GError **error)
{
  gboolean ok = TRUE, refused = FALSE;
  GError *local = NULL;

  report->n_items = entries->len;
  if (spec->overwrite && !read_current (target, spec, check, entries, cancellable, error))
    return FALSE;
  if (g_cancellable_set_error_if_cancelled (cancellable, error)
      || !ddb_staging_batch_begin (staging, error))
    return FALSE;
  /* Staged even when an entry is already refused: the store's own refusals are named too. */
  for (guint i = 0; ok && i < entries->len; i++)
    {
      Entry *e = g_ptr_array_index (entries, i);

      if (e->item != NULL)
        ok = stage_entry (staging, spec, check, e, report, &local);
      if (e->failure != NULL)
        {
          add_failure (report, e);
          refused = TRUE;
        }
    }
  /* After a failure it rolls back and sets no error of its own. */
  if (!ddb_staging_batch_end (staging, ok && !refused, ok && !refused ? error : NULL) && ok
      && !refused)
    ok = FALSE;
  if (local != NULL)
    g_propagate_error (error, local);
  if (!ok || refused)
    {
      /* Rolled back: nothing is staged. */
      report->n_created = report->n_overwritten = report->n_unchanged = 0;
      if (!ok)
        {
          report->n_failed = 0;
          g_ptr_array_set_size (report->failures, 0);
        }
    }
  return ok;
}

gboolean
ddb_copy_stage (DdbStaging *staging, DdbBackend *target, const DdbCopyStageSpec *spec,
                GPtrArray *items, GCancellable *cancellable, DdbCopyStageReport *report,
                GError **error)
{
  g_autoptr (DdbItemCheck) check = NULL;
  g_autoptr (GPtrArray) entries = NULL;
  g_autoptr (GHashTable) seen = NULL;

  g_return_val_if_fail (staging != NULL && target != NULL && spec != NULL, FALSE);
  g_return_val_if_fail (spec->connection != NULL && spec->table != NULL, FALSE);
  g_return_val_if_fail (items != NULL && report != NULL, FALSE);
  report_init (report);
  check = describe (target, spec->table, cancellable, error);
  if (check == NULL)
    return FALSE;
  entries = g_ptr_array_new_full (items->len, entry_free);
  seen = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  for (guint i = 0; i < items->len; i++)
    g_ptr_array_add (entries,
                     entry_new (g_ptr_array_index (items, i), i + 1, NULL, spec, check, seen));
  return stage_entries (staging, target, spec, check, entries, cancellable, report, error);
}

/* ---- Files ---- */

typedef struct {
  DdbSnapshotProgressFunc func;
  gpointer data;
  gint64 start, last;
  DdbSnapshotProgress p;
} FileProgress;

static void
progress_report (FileProgress *fp, DdbSnapshotReader *reader, gboolean done)
{
  gint64 now = g_get_monotonic_time ();

  if (fp->func == NULL || (!done && now - fp->last < PROGRESS_INTERVAL_US))
    return;
  fp->last = now;
  fp->p.bytes = ddb_snapshot_reader_bytes (reader);
  fp->p.total_bytes = ddb_snapshot_reader_total_bytes (reader);
  fp->p.seconds = (double) (now - fp->start) / G_USEC_PER_SEC;
  if (fp->p.seconds > 0)
    {
      fp->p.items_per_second = (double) fp->p.items / fp->p.seconds;
      fp->p.bytes_per_second = (double) fp->p.bytes / fp->p.seconds;
    }
  fp->p.done = done;
  fp->func (&fp->p, fp->data);
}

/* "FILE:LINE" of the item READER returned last. */
static char *
reader_where (DdbSnapshotReader *reader)
{
  g_autoptr (GError) e = g_error_new_literal (DDB_ERROR, DDB_ERROR_VALIDATION, "");
  gsize len;

  ddb_snapshot_reader_prefix_error (reader, &e);
  len = strlen (e->message);
  /* "FILE:LINE: " */
  return len >= 2 ? g_strndup (e->message, len - 2) : g_strdup (e->message);
}

/* Reads every item of the file into ENTRIES, each checked; a refused item of the reader's is
 * an entry with its failure ("FILE:LINE: ..." as the reader words it). FALSE on an I/O error
 * or cancellation. */
static gboolean
read_file (DdbSnapshotReader *reader, const DdbCopyStageSpec *spec, DdbItemCheck *check,
           GPtrArray *entries, FileProgress *fp, GError **error)
{
  g_autoptr (GHashTable) seen
      = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  DdbCopyStageSpec as_is = *spec;

  /* A file's items are taken as they are. */
  as_is.source_key_names = NULL;
  for (;;)
    {
      GError *local = NULL;
      g_autoptr (DdbValue) item = ddb_snapshot_reader_next (reader, &local);
      Entry *e;

      if (item != NULL)
        {
          g_ptr_array_add (entries, entry_new (item, entries->len + 1, reader_where (reader),
                                               &as_is, check, seen));
          fp->p.items++;
          progress_report (fp, reader, FALSE);
          continue;
        }
      if (local == NULL)
        return TRUE;
      if (local->domain != DDB_ERROR)
        {
          /* The file cannot be read (or the reading was cancelled): no item to blame. */
          g_propagate_error (error, local);
          return FALSE;
        }
      /* The reader's message is "FILE:LINE: ..." already. */
      e = g_new0 (Entry, 1);
      e->number = entries->len + 1;
      e->failure = g_strdup (local->message);
      g_ptr_array_add (entries, e);
      g_error_free (local);
      if (!ddb_snapshot_reader_skip_refused (reader))
        return TRUE;
    }
}

gboolean
ddb_copy_stage_file (DdbStaging *staging, DdbBackend *target, const DdbCopyStageSpec *spec,
                     const char *path, DdbSnapshotFormat format, DdbSnapshotProgressFunc progress,
                     gpointer progress_data, GCancellable *cancellable, DdbCopyStageReport *report,
                     GError **error)
{
  g_autoptr (DdbItemCheck) check = NULL;
  g_autoptr (DdbSnapshotReader) reader = NULL;
  g_autoptr (GPtrArray) entries = NULL;
  g_autofree char *key_spec = NULL;
  g_auto (GStrv) gsi_specs = NULL;
  DdbImportOptions options = { 0 };
  FileProgress fp = { progress, progress_data, g_get_monotonic_time (), 0, { 0 } };
  gboolean ok;

  g_return_val_if_fail (staging != NULL && target != NULL && spec != NULL, FALSE);
  g_return_val_if_fail (spec->connection != NULL && spec->table != NULL, FALSE);
  g_return_val_if_fail (path != NULL && report != NULL, FALSE);
  report_init (report);
  if (format == DDB_SNAPSHOT_S3)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           "Items are staged from a jsonl, json or csv file, not an s3 export");
      return FALSE;
    }
  check = describe (target, spec->table, cancellable, error);
  if (check == NULL)
    return FALSE;
  /* Read against the target's key schema and global secondary indexes (its local ones are
   * checked with the rest, ddb_item_check_item). */
  key_spec = ddb_item_check_key_spec (check);
  gsi_specs = ddb_item_check_gsi_specs (check);
  options.table_name = spec->table;
  options.format = format;
  options.key = key_spec;
  options.gsis = (const char *const *) gsi_specs;
  options.cancellable = cancellable;
  reader = ddb_snapshot_reader_open (path, &options, error);
  if (reader == NULL)
    return FALSE;
  entries = g_ptr_array_new_with_free_func (entry_free);
  ok = read_file (reader, spec, check, entries, &fp, error)
       && stage_entries (staging, target, spec, check, entries, cancellable, report, error);
  progress_report (&fp, reader, TRUE);
  if (!ok)
    report->n_items = report->n_failed = 0;
  return ok;
}
