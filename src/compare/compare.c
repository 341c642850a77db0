/* compare.c: the two-way compare of compare.h. Each side is scanned (ddb_keys_scan) into its
 * own table of a temporary SQLite file: the key's ordered encoding (src/core/keycodec), the
 * item without the excluded attributes (src/core/itemcodec) and its DynamoDB size. Both tables
 * are then walked in key order with two cursors: equal encodings are the same item; otherwise
 * the decoded items are compared with ddb_diff_items (numbers by value, sets as sets), and an
 * empty diff is still the same item. The keys that differ are kept in a third table, which
 * ddb_compare_result_foreach walks again. */
#include <errno.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "compare/compare.h"
#include "core/error.h"
#include "core/itemcodec.h"
#include "core/itemsize.h"
#include "core/keycodec.h"
#include "model/keys.h"
#include "staging/diff.h"

struct _DdbCompareResult {
  char *dir, *path;
  sqlite3 *db;
  guint n_keys;
  char *key_names[2];
  DdbCompareCounts counts;
};

const char *
ddb_compare_kind_name (DdbCompareKind kind)
{
  switch (kind)
    {
    case DDB_COMPARE_SAME:
      return "same";
    case DDB_COMPARE_CHANGED:
      return "changed";
    case DDB_COMPARE_ONLY_HERE:
      return "only-here";
    case DDB_COMPARE_ONLY_THERE:
      return "only-there";
    }
  return "unknown";
}

static gboolean
sql_error (sqlite3 *db, GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "The compare's temporary database: %s",
               sqlite3_errmsg (db));
  return FALSE;
}

static gboolean
sql_exec (sqlite3 *db, const char *sql, GError **error)
{
  if (sqlite3_exec (db, sql, NULL, NULL, NULL) != SQLITE_OK)
    return sql_error (db, error);
  return TRUE;
}

/* ---- key schemas ---- */

typedef struct {
  char *name[2];
  char *type[2];
  guint n;
} KeySchema;

static void
key_schema_clear (KeySchema *s)
{
  for (guint i = 0; i < 2; i++)
    {
      g_free (s->name[i]);
      g_free (s->type[i]);
    }
}

static gboolean
describe_keys (const DdbCompareSide *side, KeySchema *out, GCancellable *cancellable,
               GError **error)
{
  json_t *request = json_pack ("{s:s}", "TableName", side->table);
  json_t *response = NULL, *table, *schema, *defs, *entry, *def;
  size_t i, j;
  gboolean ok;

  ok = ddb_backend_call (side->backend, "DescribeTable", request, cancellable, &response, error);
  json_decref (request);
  if (!ok)
    {
      json_decref (response);
      return FALSE;
    }
  table = json_object_get (response, "Table");
  schema = json_object_get (table, "KeySchema");
  defs = json_object_get (table, "AttributeDefinitions");
  json_array_foreach (schema, i, entry)
    {
      const char *name = json_string_value (json_object_get (entry, "AttributeName"));
      const char *kt = json_string_value (json_object_get (entry, "KeyType"));
      guint slot = g_strcmp0 (kt, "RANGE") == 0 ? 1 : 0;

      if (name == NULL || i >= 2)
        break;
      out->name[slot] = g_strdup (name);
      json_array_foreach (defs, j, def)
        if (g_strcmp0 (json_string_value (json_object_get (def, "AttributeName")), name) == 0)
          out->type[slot] = g_strdup (json_string_value (json_object_get (def, "AttributeType")));
      out->n++;
    }
  json_decref (response);
  if (out->name[0] == NULL || out->type[0] == NULL || (out->n == 2 && out->type[1] == NULL))
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "DescribeTable gave no usable key schema for %s", side->table);
      return FALSE;
    }
  return TRUE;
}

static char *
key_schema_text (const KeySchema *s)
{
  if (s->n == 1)
    return g_strdup_printf ("%s (%s)", s->name[0], s->type[0]);
  return g_strdup_printf ("%s (%s), %s (%s)", s->name[0], s->type[0], s->name[1], s->type[1]);
}

static gboolean
check_schemas (const DdbCompareOptions *o, const KeySchema *a, const KeySchema *b, GError **error)
{
  gboolean same = a->n == b->n;

  for (guint i = 0; same && i < a->n; i++)
    same = g_strcmp0 (a->name[i], b->name[i]) == 0 && g_strcmp0 (a->type[i], b->type[i]) == 0;
  if (!same)
    {
      g_autofree char *ta = key_schema_text (a), *tb = key_schema_text (b);

      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "The key schemas differ: %s has %s, %s has %s; a compare needs the same key "
                   "attribute names and types",
                   o->here.table, ta, o->there.table, tb);
      return FALSE;
    }
  for (guint i = 0; o->exclude != NULL && o->exclude[i] != NULL; i++)
    for (guint k = 0; k < a->n; k++)
      if (strcmp (o->exclude[i], a->name[k]) == 0)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "%s is a key attribute and cannot be excluded from the compare",
                       o->exclude[i]);
          return FALSE;
        }
  return TRUE;
}

/* ---- reading a side ---- */

typedef struct {
  DdbCompareResult *result;
  const DdbCompareOptions *options;
  sqlite3_stmt *insert;
  GMutex lock;
  GError *error;
  GCancellable *inner;
  guint side;
  guint64 items, bytes;
  gint64 started;
  DdbCompareProgress progress;
  gpointer progress_data;
} Reader;

static gboolean
encode_key (DdbCompareResult *r, const DdbValue *item, GByteArray *out, GError **error)
{
  for (guint i = 0; i < r->n_keys; i++)
    {
      const DdbValue *v = ddb_value_map_get (item, r->key_names[i]);

      if (v == NULL)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "An item read has no key attribute %s", r->key_names[i]);
          return FALSE;
        }
      if (!ddb_key_encode (v, out, error))
        return FALSE;
    }
  return TRUE;
}

static void
read_item (DdbValue *item, guint segment, gpointer data)
{
  Reader *rd = data;
  g_autoptr (GByteArray) key = g_byte_array_new ();
  g_autoptr (GByteArray) enc = g_byte_array_new ();
  GError *error = NULL;
  gsize size = ddb_item_size (item);

  (void) segment;
  if (!encode_key (rd->result, item, key, &error))
    goto fail;
  for (guint i = 0; rd->options->exclude != NULL && rd->options->exclude[i] != NULL; i++)
    ddb_value_map_remove (item, rd->options->exclude[i]);
  ddb_item_encode (item, enc);
  ddb_value_free (item);
  item = NULL;

  g_mutex_lock (&rd->lock);
  if (rd->error == NULL)
    {
      sqlite3_bind_blob (rd->insert, 1, key->data, (int) key->len, SQLITE_STATIC);
      sqlite3_bind_blob (rd->insert, 2, enc->data, (int) enc->len, SQLITE_STATIC);
      sqlite3_bind_int64 (rd->insert, 3, (sqlite3_int64) size);
      if (sqlite3_step (rd->insert) != SQLITE_DONE)
        {
          if (sqlite3_extended_errcode (rd->result->db) == SQLITE_CONSTRAINT_PRIMARYKEY)
            g_set_error (&rd->error, DDB_ERROR, DDB_ERROR_INTERNAL,
                         "%s gave the same key twice in one Scan",
                         rd->side == 0 ? rd->options->here.table : rd->options->there.table);
          else
            sql_error (rd->result->db, &rd->error);
          g_cancellable_cancel (rd->inner);
        }
      sqlite3_reset (rd->insert);
      sqlite3_clear_bindings (rd->insert);
      rd->items++;
      rd->bytes += size;
    }
  g_mutex_unlock (&rd->lock);
  return;

fail:
  ddb_value_free (item);
  g_mutex_lock (&rd->lock);
  if (rd->error == NULL)
    rd->error = error;
  else
    g_error_free (error);
  g_mutex_unlock (&rd->lock);
  g_cancellable_cancel (rd->inner);
}

static void
read_progress (guint64 items, gpointer data)
{
  Reader *rd = data;
  double secs = (double) (g_get_monotonic_time () - rd->started) / G_USEC_PER_SEC;

  if (rd->progress != NULL)
    rd->progress (rd->side, items, secs > 0 ? (double) items / secs : 0.0, rd->progress_data);
}

static void
forward_cancel (GCancellable *outer, gpointer inner)
{
  (void) outer;
  g_cancellable_cancel (inner);
}

static gboolean
read_side (DdbCompareResult *r, const DdbCompareOptions *o, guint side, DdbCompareProgress progress,
           gpointer user_data, GCancellable *cancellable, GError **error)
{
  const DdbCompareSide *s = side == 0 ? &o->here : &o->there;
  const char *sql = side == 0 ? "INSERT INTO here (k, item, size) VALUES (?, ?, ?)"
                              : "INSERT INTO there (k, item, size) VALUES (?, ?, ?)";
  DdbKeysOptions ko = { 0 };
  Reader rd = { 0 };
  gulong handler = 0;
  gboolean ok;
  GError *scan_error = NULL;

  if (!sql_exec (r->db, "BEGIN", error))
    return FALSE;
  if (sqlite3_prepare_v2 (r->db, sql, -1, &rd.insert, NULL) != SQLITE_OK)
    return sql_error (r->db, error);
  rd.result = r;
  rd.options = o;
  rd.side = side;
  rd.started = g_get_monotonic_time ();
  rd.progress = progress;
  rd.progress_data = user_data;
  rd.inner = g_cancellable_new ();
  g_mutex_init (&rd.lock);
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel),
                                     g_object_ref (rd.inner), g_object_unref);
  ko.table = s->table;
  ok = ddb_keys_scan (s->backend, &ko, ddb_keys_scan_segments (s->backend, o->segments), read_item,
                      &rd, read_progress, &rd, NULL, rd.inner, &scan_error);
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  sqlite3_finalize (rd.insert);
  g_mutex_clear (&rd.lock);
  g_object_unref (rd.inner);
  if (rd.error != NULL)
    {
      g_clear_error (&scan_error);
      g_propagate_error (error, rd.error);
      ok = FALSE;
    }
  else if (!ok && g_cancellable_is_cancelled (cancellable))
    {
      g_clear_error (&scan_error);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The compare was cancelled");
    }
  else if (!ok && scan_error == NULL)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The compare was cancelled");
  else if (!ok)
    g_propagate_error (error, scan_error);
  if (!ok)
    {
      sql_exec (r->db, "ROLLBACK", NULL);
      return FALSE;
    }
  if (side == 0)
    {
      r->counts.items_here = rd.items;
      r->counts.bytes_here = rd.bytes;
    }
  else
    {
      r->counts.items_there = rd.items;
      r->counts.bytes_there = rd.bytes;
    }
  return sql_exec (r->db, "COMMIT", error);
}

/* ---- walking both sides ---- */

static int
blob_cmp (sqlite3_stmt *a, sqlite3_stmt *b)
{
  int la = sqlite3_column_bytes (a, 0), lb = sqlite3_column_bytes (b, 0);
  int c = memcmp (sqlite3_column_blob (a, 0), sqlite3_column_blob (b, 0), (size_t) MIN (la, lb));

  return c != 0 ? c : (la > lb) - (la < lb);
}

static DdbValue *
decode_column (sqlite3_stmt *s, int col, GError **error)
{
  return ddb_item_decode (sqlite3_column_blob (s, col), (gsize) sqlite3_column_bytes (s, col),
                          error);
}

static gboolean
record (sqlite3_stmt *ins, sqlite3_stmt *from, DdbCompareKind kind, GError **error)
{
  sqlite3_bind_blob (ins, 1, sqlite3_column_blob (from, 0), sqlite3_column_bytes (from, 0),
                     SQLITE_TRANSIENT);
  sqlite3_bind_int (ins, 2, (int) kind);
  if (sqlite3_step (ins) != SQLITE_DONE)
    {
      sqlite3_reset (ins);
      return sql_error (sqlite3_db_handle (ins), error);
    }
  sqlite3_reset (ins);
  return TRUE;
}

/* The next row of S: TRUE on a row, FALSE at the end or (with *FAILED set) on an error. */
static gboolean
next_row (sqlite3_stmt *s, gboolean *failed)
{
  int rc = sqlite3_step (s);

  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    *failed = TRUE;
  return rc == SQLITE_ROW;
}

static gboolean
classify (DdbCompareResult *r, GCancellable *cancellable, GError **error)
{
  sqlite3_stmt *a = NULL, *b = NULL, *ins = NULL;
  gboolean ok = FALSE, more_a, more_b, failed = FALSE;
  guint64 steps = 0;

  if (!sql_exec (r->db, "BEGIN", error))
    return FALSE;
  if (sqlite3_prepare_v2 (r->db, "SELECT k, item FROM here ORDER BY k", -1, &a, NULL) != SQLITE_OK
      || sqlite3_prepare_v2 (r->db, "SELECT k, item FROM there ORDER BY k", -1, &b, NULL)
             != SQLITE_OK
      || sqlite3_prepare_v2 (r->db, "INSERT INTO diffs (k, kind) VALUES (?, ?)", -1, &ins, NULL)
             != SQLITE_OK)
    {
      sql_error (r->db, error);
      goto out;
    }
  more_a = next_row (a, &failed);
  more_b = next_row (b, &failed);
  while (more_a || more_b)
    {
      int c = !more_a ? 1 : !more_b ? -1 : blob_cmp (a, b);

      if ((++steps & 0xfff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      if (c < 0)
        {
          r->counts.only_here++;
          if (!record (ins, a, DDB_COMPARE_ONLY_HERE, error))
            goto out;
          more_a = next_row (a, &failed);
          continue;
        }
      if (c > 0)
        {
          r->counts.only_there++;
          if (!record (ins, b, DDB_COMPARE_ONLY_THERE, error))
            goto out;
          more_b = next_row (b, &failed);
          continue;
        }
      if (sqlite3_column_bytes (a, 1) == sqlite3_column_bytes (b, 1)
          && memcmp (sqlite3_column_blob (a, 1), sqlite3_column_blob (b, 1),
                     (size_t) sqlite3_column_bytes (a, 1))
                 == 0)
        r->counts.same++;
      else
        {
          g_autoptr (DdbValue) ia = decode_column (a, 1, error);
          g_autoptr (DdbValue) ib = ia != NULL ? decode_column (b, 1, error) : NULL;
          g_autoptr (GPtrArray) diff = NULL;

          if (ib == NULL)
            goto out;
          diff = ddb_diff_items (ia, ib);
          if (diff->len == 0)
            r->counts.same++;
          else
            {
              r->counts.changed++;
              if (!record (ins, a, DDB_COMPARE_CHANGED, error))
                goto out;
            }
        }
      more_a = next_row (a, &failed);
      more_b = next_row (b, &failed);
    }
  if (failed)
    {
      sql_error (r->db, error);
      goto out;
    }
  ok = TRUE;

out:
  sqlite3_finalize (a);
  sqlite3_finalize (b);
  sqlite3_finalize (ins);
  if (!ok)
    {
      sql_exec (r->db, "ROLLBACK", NULL);
      return FALSE;
    }
  return sql_exec (r->db, "COMMIT", error);
}

/* ---- the result ---- */

static DdbCompareResult *
result_open (const DdbCompareOptions *o, GError **error)
{
  g_autoptr (DdbCompareResult) r = g_new0 (DdbCompareResult, 1);
  g_autofree char *tmpl = g_build_filename (o->temp_dir != NULL ? o->temp_dir : g_get_tmp_dir (),
                                            "dynoscope-compare-XXXXXX", NULL);

  r->dir = g_mkdtemp (g_steal_pointer (&tmpl));
  if (r->dir == NULL)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "Cannot create the compare's temporary folder: %s", g_strerror (saved));
      return NULL;
    }
  r->path = g_build_filename (r->dir, "compare.db", NULL);
  if (sqlite3_open_v2 (r->path, &r->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)
      != SQLITE_OK)
    {
      sql_error (r->db, error);
      return NULL;
    }
  if (!sql_exec (r->db,
                 "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
                 "PRAGMA temp_store = FILE; PRAGMA cache_size = -32768; "
                 "CREATE TABLE here (k BLOB PRIMARY KEY, item BLOB NOT NULL, size INTEGER) "
                 "WITHOUT ROWID; "
                 "CREATE TABLE there (k BLOB PRIMARY KEY, item BLOB NOT NULL, size INTEGER) "
                 "WITHOUT ROWID; "
                 "CREATE TABLE diffs (k BLOB PRIMARY KEY, kind INTEGER NOT NULL) WITHOUT ROWID",
                 error))
    return NULL;
  return g_steal_pointer (&r);
}

DdbCompareResult *
ddb_compare_run (const DdbCompareOptions *options, DdbCompareProgress progress, gpointer user_data,
                 GCancellable *cancellable, GError **error)
{
  KeySchema ka = { 0 }, kb = { 0 };
  g_autoptr (DdbCompareResult) r = NULL;
  gboolean ok;

  g_return_val_if_fail (options != NULL && options->here.backend != NULL
                            && options->there.backend != NULL && options->here.table != NULL
                            && options->there.table != NULL,
                        NULL);
  ok = describe_keys (&options->here, &ka, cancellable, error)
       && describe_keys (&options->there, &kb, cancellable, error)
       && check_schemas (options, &ka, &kb, error);
  if (ok)
    {
      r = result_open (options, error);
      ok = r != NULL;
    }
  if (ok)
    {
      r->n_keys = ka.n;
      for (guint i = 0; i < ka.n; i++)
        r->key_names[i] = g_strdup (ka.name[i]);
    }
  key_schema_clear (&ka);
  key_schema_clear (&kb);
  if (!ok || !read_side (r, options, 0, progress, user_data, cancellable, error)
      || !read_side (r, options, 1, progress, user_data, cancellable, error)
      || !classify (r, cancellable, error))
    return NULL;
  return g_steal_pointer (&r);
}

const DdbCompareCounts *
ddb_compare_result_counts (DdbCompareResult *result)
{
  return &result->counts;
}

gboolean
ddb_compare_result_identical (DdbCompareResult *result)
{
  return result->counts.changed == 0 && result->counts.only_here == 0
         && result->counts.only_there == 0;
}

static DdbValue *
key_of (DdbCompareResult *r, const DdbValue *item)
{
  DdbValue *key = ddb_value_new_m ();

  for (guint i = 0; i < r->n_keys; i++)
    {
      const DdbValue *v = ddb_value_map_get (item, r->key_names[i]);

      if (v != NULL)
        ddb_value_map_set (key, r->key_names[i], ddb_value_copy (v));
    }
  return key;
}

gboolean
ddb_compare_result_foreach (DdbCompareResult *result, DdbCompareFunc each, gpointer user_data,
                            GError **error)
{
  sqlite3_stmt *s = NULL;
  gboolean ok = TRUE;
  int rc = SQLITE_DONE;

  if (sqlite3_prepare_v2 (result->db,
                          "SELECT d.kind, h.item, t.item FROM diffs d "
                          "LEFT JOIN here h ON h.k = d.k LEFT JOIN there t ON t.k = d.k "
                          "ORDER BY d.k",
                          -1, &s, NULL)
      != SQLITE_OK)
    return sql_error (result->db, error);
  while (ok && (rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      DdbCompareDifference d = { 0 };
      g_autoptr (DdbValue) here = NULL;
      g_autoptr (DdbValue) there = NULL;
      g_autoptr (DdbValue) key = NULL;
      g_autoptr (GPtrArray) diff = NULL;

      d.kind = (DdbCompareKind) sqlite3_column_int (s, 0);
      if (sqlite3_column_type (s, 1) != SQLITE_NULL && (here = decode_column (s, 1, error)) == NULL)
        ok = FALSE;
      if (ok && sqlite3_column_type (s, 2) != SQLITE_NULL
          && (there = decode_column (s, 2, error)) == NULL)
        ok = FALSE;
      if (!ok)
        break;
      key = key_of (result, here != NULL ? here : there);
      if (d.kind == DDB_COMPARE_CHANGED && here != NULL && there != NULL)
        diff = ddb_diff_items (here, there);
      d.key = key;
      d.here = here;
      d.there = there;
      d.diff = diff;
      if (!each (&d, user_data))
        break;
    }
  if (ok && rc != SQLITE_ROW && rc != SQLITE_DONE)
    ok = sql_error (result->db, error);
  sqlite3_finalize (s);
  return ok;
}

void
ddb_compare_result_free (DdbCompareResult *result)
{
  if (result == NULL)
    return;
  if (result->db != NULL)
    sqlite3_close (result->db);
  if (result->path != NULL)
    g_unlink (result->path);
  if (result->dir != NULL)
    g_rmdir (result->dir);
  for (guint i = 0; i < 2; i++)
    g_free (result->key_names[i]);
  g_free (result->path);
  g_free (result->dir);
  g_free (result);
}
