/* compare-read.c: reading a side of a compare into its table of the temporary database — a
 * table through the backend with a parallel Scan (ddb_keys_scan), or an export read directly
 * with the snapshot reader — and reading the base: an export named by options.base_path (every
 * item), or the base versions an engine side keeps since its recorded base (engine/base.h:
 * only the items written since). */
#include <string.h>

#include "compare/compare-private.h"
#include "core/error.h"
#include "core/itemcodec.h"
#include "core/itemsize.h"
#include "core/keycodec.h"
#include "engine/base.h"
#include "engine/snapshot.h"
#include "model/keys.h"

/* Progress reports of an export read: every this many items. */
#define EXPORT_PROGRESS_EVERY 4096

typedef struct {
  DdbCompareResult *result;
  const char *name; /* the side, for messages */
  sqlite3_stmt *insert;
  GMutex lock;
  GError *error;
  GCancellable *inner;
  guint side; /* 0 here, 1 there, 2 the base */
  guint64 items, bytes;
  gint64 started;
  DdbCompareProgress progress;
  gpointer progress_data;
} Reader;

static const char *const delete_sql[] = {
  "DELETE FROM here WHERE k = ? RETURNING size",
  "DELETE FROM there WHERE k = ? RETURNING size",
  "DELETE FROM base WHERE k = ? RETURNING size",
};

static const char *const insert_sql[] = {
  "INSERT INTO here (k, item, cmp, size) VALUES (?, ?, ?, ?)",
  "INSERT INTO there (k, item, cmp, size) VALUES (?, ?, ?, ?)",
  "INSERT INTO base (k, item, cmp, size) VALUES (?, ?, ?, ?)",
};

/* Inserts one row under the reader's lock; ITEM_ENC and CMP_ENC may be NULL. */
static void
reader_insert (Reader *rd, const GByteArray *key, const GByteArray *item_enc,
               const GByteArray *cmp_enc, gsize size)
{
  g_mutex_lock (&rd->lock);
  if (rd->error == NULL)
    {
      sqlite3_bind_blob (rd->insert, 1, key->data, (int) key->len, SQLITE_STATIC);
      if (item_enc != NULL)
        sqlite3_bind_blob (rd->insert, 2, item_enc->data, (int) item_enc->len, SQLITE_STATIC);
      if (cmp_enc != NULL)
        sqlite3_bind_blob (rd->insert, 3, cmp_enc->data, (int) cmp_enc->len, SQLITE_STATIC);
      sqlite3_bind_int64 (rd->insert, 4, (sqlite3_int64) size);
      if (sqlite3_step (rd->insert) != SQLITE_DONE)
        {
          if (sqlite3_extended_errcode (rd->result->db) == SQLITE_CONSTRAINT_PRIMARYKEY)
            g_set_error (&rd->error, DDB_ERROR, DDB_ERROR_VALIDATION, "%s holds the same key twice",
                         rd->name);
          else
            compare_sql_error (rd->result->db, &rd->error);
          g_cancellable_cancel (rd->inner);
        }
      sqlite3_reset (rd->insert);
      sqlite3_clear_bindings (rd->insert);
      rd->items++;
      rd->bytes += size;
    }
  g_mutex_unlock (&rd->lock);
}

static void
reader_fail (Reader *rd, GError *error)
{
  g_mutex_lock (&rd->lock);
  if (rd->error == NULL)
    rd->error = error;
  else
    g_error_free (error);
  g_mutex_unlock (&rd->lock);
  g_cancellable_cancel (rd->inner);
}

/* Encodes ITEM (taken) as a row of the reader's table. */
static void
reader_add (Reader *rd, DdbValue *item)
{
  g_autoptr (GByteArray) key = g_byte_array_new ();
  g_autoptr (GByteArray) enc = g_byte_array_new ();
  g_autoptr (GByteArray) cmp = NULL;
  GError *error = NULL;
  gsize size = ddb_item_size (item);
  gboolean selected = TRUE;

  if ((rd->side == 1 && !compare_map_to_here (rd->result, item, &error))
      || (rd->side < 2 && !compare_selected (rd->result, item, &selected, &error))
      || (selected && !compare_encode_key (rd->result, item, key, &error)))
    {
      ddb_value_free (item);
      reader_fail (rd, error);
      return;
    }
  if (!selected)
    {
      ddb_value_free (item);
      return;
    }
  ddb_item_encode (item, enc);
  if (rd->result->n_exclude > 0)
    {
      g_autoptr (DdbValue) stripped = compare_strip (rd->result, item);

      cmp = g_byte_array_new ();
      ddb_item_encode (stripped, cmp);
    }
  ddb_value_free (item);
  reader_insert (rd, key, enc, cmp, size);
}

static void
scan_item (DdbValue *item, guint segment, gpointer data)
{
  (void) segment;
  reader_add (data, item);
}

static gboolean
query_item (DdbValue *item, gpointer data)
{
  Reader *rd = data;

  reader_add (rd, item);
  return rd->error == NULL;
}

static void
report (Reader *rd, guint64 items)
{
  double secs = (double) (g_get_monotonic_time () - rd->started) / G_USEC_PER_SEC;

  if (rd->progress != NULL)
    rd->progress (rd->side, items, secs > 0 ? (double) items / secs : 0.0, rd->progress_data);
}

static void
scan_progress (guint64 items, gpointer data)
{
  report (data, items);
}

static void
forward_cancel (GCancellable *outer, gpointer inner)
{
  (void) outer;
  g_cancellable_cancel (inner);
}

/* Incremental exports' changes to the rows of an export's side. */
typedef struct {
  Reader *rd;
  sqlite3_stmt *remove;
} ChangeSink;

/* Removes the row of the key of ITEM (the key attributes at least), if there is one. */
static gboolean
remove_row (ChangeSink *cs, const DdbValue *item, GError **error)
{
  Reader *rd = cs->rd;
  g_autoptr (DdbValue) copy = ddb_value_copy (item);
  g_autoptr (GByteArray) key = g_byte_array_new ();
  int rc;

  if ((rd->side == 1 && !compare_map_to_here (rd->result, copy, error))
      || !compare_encode_key (rd->result, copy, key, error))
    return FALSE;
  sqlite3_bind_blob (cs->remove, 1, key->data, (int) key->len, SQLITE_STATIC);
  while ((rc = sqlite3_step (cs->remove)) == SQLITE_ROW)
    {
      rd->items--;
      rd->bytes -= (guint64) sqlite3_column_int64 (cs->remove, 0);
    }
  sqlite3_reset (cs->remove);
  sqlite3_clear_bindings (cs->remove);
  if (rc != SQLITE_DONE)
    return compare_sql_error (rd->result->db, error);
  return TRUE;
}

static gboolean
change_put (const DdbValue *item, gpointer data, GError **error)
{
  ChangeSink *cs = data;

  if (!remove_row (cs, item, error))
    return FALSE;
  reader_add (cs->rd, ddb_value_copy (item));
  if (cs->rd->error != NULL)
    {
      /* the caller reports rd->error */
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "stopped");
      return FALSE;
    }
  return TRUE;
}

static gboolean
change_remove (const DdbValue *keys, gpointer data, GError **error)
{
  return remove_row (data, keys, error);
}

/* Reads an export (S3 folder or file, or the objects of STORE when not NULL) item by item, on
 * this thread, then applies the INCREMENTALS (may be NULL) on top. */
static gboolean
read_export (Reader *rd, const char *path, const char *const *incrementals,
             const DdbSnapshotStore *store, GError **error)
{
  DdbCompareResult *r = rd->result;
  g_autofree char *spec = compare_key_spec (&r->keys);
  DdbImportOptions io = { 0 };
  g_autoptr (DdbSnapshotReader) reader = NULL;
  DdbValue *item;
  GError *local = NULL;
  ChangeSink cs = { rd, NULL };
  DdbSnapshotChangeSink sink = { change_put, change_remove, &cs };
  gboolean ok;

  /* The reader checks the items as PutItem would on a table: the compare's table side's. */
  io.table_name
      = r->options.here.export_path == NULL ? r->options.here.table : r->options.there.table;
  io.format = DDB_SNAPSHOT_AUTO;
  io.key = spec;
  io.cancellable = rd->inner;
  io.incrementals = incrementals;
  io.store = store;
  reader = ddb_snapshot_reader_open (path, &io, error);
  if (reader == NULL)
    return FALSE;
  while ((item = ddb_snapshot_reader_next (reader, &local)) != NULL)
    {
      reader_add (rd, item);
      if (rd->error != NULL)
        return TRUE; /* the caller reports it */
      if (rd->items % EXPORT_PROGRESS_EVERY == 0)
        report (rd, rd->items);
    }
  if (local != NULL)
    {
      g_propagate_error (error, local); /* already "FILE:LINE: …" */
      return FALSE;
    }
  if (sqlite3_prepare_v2 (r->db, delete_sql[rd->side], -1, &cs.remove, NULL) != SQLITE_OK)
    return compare_sql_error (r->db, error);
  ok = ddb_snapshot_reader_apply_incrementals (reader, &sink, &local);
  sqlite3_finalize (cs.remove);
  if (!ok && rd->error != NULL)
    {
      g_clear_error (&local);
      return TRUE; /* the caller reports it */
    }
  if (!ok)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  report (rd, rd->items);
  return TRUE;
}

/* Runs READ for side SIDE with a reader set up, and settles its errors. */
static gboolean
read_into (DdbCompareResult *r, guint side, const DdbCompareSide *s, const char *path,
           DdbCompareProgress progress, gpointer user_data, GCancellable *cancellable,
           GError **error)
{
  Reader rd = { 0 };
  gulong handler = 0;
  gboolean ok;
  GError *read_error = NULL;

  if (!compare_sql_exec (r->db, "BEGIN", error))
    return FALSE;
  if (sqlite3_prepare_v2 (r->db, insert_sql[side], -1, &rd.insert, NULL) != SQLITE_OK)
    {
      compare_sql_error (r->db, error);
      compare_sql_exec (r->db, "ROLLBACK", NULL);
      return FALSE;
    }
  rd.result = r;
  rd.side = side;
  rd.name = path != NULL ? path : s->table;
  rd.started = g_get_monotonic_time ();
  rd.progress = progress;
  rd.progress_data = user_data;
  rd.inner = g_cancellable_new ();
  g_mutex_init (&rd.lock);
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel),
                                     g_object_ref (rd.inner), g_object_unref);
  if (path != NULL)
    ok = read_export (&rd, path, side < 2 ? s->export_incrementals : NULL,
                      side < 2 ? s->export_store : NULL, &read_error);
  else if (r->partitions != NULL)
    ok = compare_query_partitions (r, s->backend, s->table,
                                   side == 1 && r->rename ? r->there_names[0] : r->keys.name[0],
                                   query_item, &rd, scan_progress, &rd, rd.inner, &read_error);
  else
    {
      DdbKeysOptions ko = { 0 };

      ko.table = s->table;
      ok = ddb_keys_scan (s->backend, &ko, ddb_keys_scan_segments (s->backend, r->options.segments),
                          scan_item, &rd, scan_progress, &rd, NULL, rd.inner, &read_error);
    }
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  sqlite3_finalize (rd.insert);
  g_mutex_clear (&rd.lock);
  g_object_unref (rd.inner);
  if (rd.error != NULL)
    {
      g_clear_error (&read_error);
      g_propagate_error (error, rd.error);
      ok = FALSE;
    }
  else if (!ok && (g_cancellable_is_cancelled (cancellable) || read_error == NULL))
    {
      g_clear_error (&read_error);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The compare was cancelled");
    }
  else if (!ok)
    g_propagate_error (error, read_error);
  if (!ok)
    {
      compare_sql_exec (r->db, "ROLLBACK", NULL);
      return FALSE;
    }
  if (side == 0)
    {
      r->counts.items_here = rd.items;
      r->counts.bytes_here = rd.bytes;
    }
  else if (side == 1)
    {
      r->counts.items_there = rd.items;
      r->counts.bytes_there = rd.bytes;
    }
  return compare_sql_exec (r->db, "COMMIT", error);
}

gboolean
compare_read_side (DdbCompareResult *r, guint side, DdbCompareProgress progress, gpointer user_data,
                   GCancellable *cancellable, GError **error)
{
  const DdbCompareSide *s = side == 0 ? &r->options.here : &r->options.there;

  return read_into (r, side, s, s->export_path, progress, user_data, cancellable, error);
}

/* ---- the base ---- */

typedef struct {
  Reader rd;
  GError *error;
} EngineBase;

static gboolean
engine_base_item (const guint8 *key_bytes, gsize key_len, const DdbValue *item, gpointer data)
{
  EngineBase *eb = data;
  DdbCompareResult *r = eb->rd.result;
  GByteArray key = { (guint8 *) key_bytes, (guint) key_len };
  g_autoptr (GByteArray) enc = NULL;
  g_autoptr (GByteArray) cmp = NULL;

  if (item != NULL)
    {
      enc = g_byte_array_new ();
      ddb_item_encode (item, enc);
      if (r->n_exclude > 0)
        {
          g_autoptr (DdbValue) stripped = compare_strip (r, item);

          cmp = g_byte_array_new ();
          ddb_item_encode (stripped, cmp);
        }
    }
  reader_insert (&eb->rd, &key, enc, cmp, item != NULL ? ddb_item_size (item) : 0);
  return eb->rd.error == NULL;
}

static char *
engine_base_text (const DdbTableBase *base)
{
  g_autoptr (GDateTime) when = g_date_time_new_from_unix_utc (base->created_ms / 1000);
  g_autofree char *iso = when != NULL ? g_date_time_format_iso8601 (when) : g_strdup ("?");

  if (base->export_arn != NULL)
    return g_strdup_printf ("%s (%s, %s, %s)", base->source, base->format, iso, base->export_arn);
  return g_strdup_printf ("%s (%s, %s)", base->source, base->format, iso);
}

/* The engine base of side SIDE's table: *FOUND FALSE when it has none. */
static gboolean
read_engine_base (DdbCompareResult *r, guint side, gboolean *found, GError **error)
{
  const DdbCompareSide *s = side == 0 ? &r->options.here : &r->options.there;
  DdbEngine *engine = s->backend != NULL ? ddb_backend_get_engine (s->backend) : NULL;
  DdbTableBase base = { 0 };
  EngineBase eb = { 0 };
  gboolean ok;

  *found = FALSE;
  if (engine == NULL || s->export_path != NULL)
    return TRUE;
  if (!ddb_engine_get_base (engine, s->table, &base, found, error))
    return FALSE;
  if (!*found)
    return TRUE;
  if (!compare_sql_exec (r->db, "BEGIN", error))
    {
      ddb_table_base_clear (&base);
      return FALSE;
    }
  if (sqlite3_prepare_v2 (r->db, insert_sql[2], -1, &eb.rd.insert, NULL) != SQLITE_OK)
    ok = compare_sql_error (r->db, error);
  else
    {
      eb.rd.result = r;
      eb.rd.name = s->table;
      eb.rd.inner = g_cancellable_new ();
      g_mutex_init (&eb.rd.lock);
      ok = ddb_engine_base_items_foreach (engine, s->table, engine_base_item, &eb, error);
      if (eb.rd.error != NULL)
        {
          if (ok)
            g_propagate_error (error, eb.rd.error);
          else
            g_error_free (eb.rd.error);
          ok = FALSE;
        }
      g_mutex_clear (&eb.rd.lock);
      g_object_unref (eb.rd.inner);
    }
  sqlite3_finalize (eb.rd.insert);
  if (ok)
    {
      r->base_sparse = TRUE;
      r->base_side = side;
      r->base_text = engine_base_text (&base);
      ok = compare_sql_exec (r->db, "COMMIT", error);
    }
  else
    compare_sql_exec (r->db, "ROLLBACK", NULL);
  ddb_table_base_clear (&base);
  return ok;
}

gboolean
compare_read_base (DdbCompareResult *r, DdbCompareProgress progress, gpointer user_data,
                   GCancellable *cancellable, GError **error)
{
  gboolean found = FALSE;

  if (r->options.base_path != NULL)
    {
      DdbCompareSide none = { 0 };

      none.table = "the base";
      if (!read_into (r, 2, &none, r->options.base_path, progress, user_data, cancellable, error))
        return FALSE;
      r->base_text = g_strdup_printf ("export %s", r->options.base_path);
      r->counts.has_base = TRUE;
      return TRUE;
    }
  if (r->options.no_base)
    return TRUE;
  for (guint side = 0; side < 2 && !found; side++)
    if (!read_engine_base (r, side, &found, error))
      return FALSE;
  r->counts.has_base = found;
  return TRUE;
}
