/* compare-walk.c: the walk of a compare's two side tables in key order (same, changed, only
 * here, only there), the three-way class of each difference against the base, and the walk of
 * the differences again for ddb_compare_result_foreach. */
#include <string.h>

#include "compare/compare-private.h"
#include "core/itemcodec.h"
#include "staging/diff.h"

/* An item's comparable encoding (without the excluded paths), or absent (DATA NULL). */
typedef struct {
  const void *data;
  int len;
} Blob;

static Blob
column_blob (sqlite3_stmt *s, int col)
{
  Blob b = { NULL, 0 };

  if (sqlite3_column_type (s, col) != SQLITE_NULL)
    {
      b.len = sqlite3_column_bytes (s, col);
      b.data = sqlite3_column_blob (s, col);
      if (b.data == NULL)
        b.data = ""; /* an empty blob is still present */
    }
  return b;
}

static int
key_cmp (sqlite3_stmt *a, sqlite3_stmt *b)
{
  int la = sqlite3_column_bytes (a, 0), lb = sqlite3_column_bytes (b, 0);
  int c = memcmp (sqlite3_column_blob (a, 0), sqlite3_column_blob (b, 0), (size_t) MIN (la, lb));

  return c != 0 ? c : (la > lb) - (la < lb);
}

/* Whether two items are equal: the same bytes, or decoded with an empty diff (numbers by
 * value, sets ignoring order). Both absent are equal. */
static gboolean
blobs_equal (Blob a, Blob b, gboolean *equal, GError **error)
{
  g_autoptr (DdbValue) ia = NULL;
  g_autoptr (DdbValue) ib = NULL;
  g_autoptr (GPtrArray) diff = NULL;

  if (a.data == NULL || b.data == NULL)
    {
      *equal = a.data == NULL && b.data == NULL;
      return TRUE;
    }
  if (a.len == b.len && memcmp (a.data, b.data, (size_t) a.len) == 0)
    {
      *equal = TRUE;
      return TRUE;
    }
  ia = ddb_item_decode (a.data, (gsize) a.len, error);
  ib = ia != NULL ? ddb_item_decode (b.data, (gsize) b.len, error) : NULL;
  if (ib == NULL)
    return FALSE;
  diff = ddb_diff_items (ia, ib);
  *equal = diff->len == 0;
  return TRUE;
}

typedef struct {
  DdbCompareResult *r;
  sqlite3_stmt *a, *b; /* here, there: k, COALESCE (cmp, item) */
  sqlite3_stmt *base;  /* the base row of a key: COALESCE (cmp, item) */
  sqlite3_stmt *ins;
  gboolean more_a, more_b, failed;
} Walk;

/* The three-way class of the key at the cursors (H or T absent: DATA NULL). */
static gboolean
classify_against_base (Walk *w, sqlite3_stmt *keyed, Blob h, Blob t, DdbCompareClass *out,
                       GError **error)
{
  DdbCompareResult *r = w->r;
  Blob b = { NULL, 0 };
  gboolean equal = FALSE, ok = TRUE;
  int rc;

  sqlite3_bind_blob (w->base, 1, sqlite3_column_blob (keyed, 0), sqlite3_column_bytes (keyed, 0),
                     SQLITE_STATIC);
  rc = sqlite3_step (w->base);
  if (rc == SQLITE_ROW)
    b = column_blob (w->base, 0);
  else if (rc != SQLITE_DONE)
    ok = compare_sql_error (r->db, error);
  else if (r->base_sparse)
    b = r->base_side == 0 ? h : t; /* not written since the base on that side */
  if (ok)
    ok = blobs_equal (h, b, &equal, error);
  if (ok && equal)
    *out = DDB_COMPARE_EDITED_THERE;
  else if (ok && (ok = blobs_equal (t, b, &equal, error)))
    *out = equal ? DDB_COMPARE_EDITED_HERE : DDB_COMPARE_EDITED_BOTH;
  sqlite3_reset (w->base);
  sqlite3_clear_bindings (w->base);
  return ok;
}

static gboolean
record (Walk *w, sqlite3_stmt *keyed, DdbCompareKind kind, Blob h, Blob t, GError **error)
{
  DdbCompareResult *r = w->r;
  DdbCompareClass klass = DDB_COMPARE_NO_BASE;

  if (r->counts.has_base && !classify_against_base (w, keyed, h, t, &klass, error))
    return FALSE;
  switch (kind)
    {
    case DDB_COMPARE_CHANGED:
      r->counts.changed++;
      break;
    case DDB_COMPARE_ONLY_HERE:
      r->counts.only_here++;
      break;
    case DDB_COMPARE_ONLY_THERE:
      r->counts.only_there++;
      break;
    case DDB_COMPARE_SAME:
      break;
    }
  switch (klass)
    {
    case DDB_COMPARE_EDITED_HERE:
      r->counts.edited_here++;
      break;
    case DDB_COMPARE_EDITED_THERE:
      r->counts.edited_there++;
      break;
    case DDB_COMPARE_EDITED_BOTH:
      r->counts.both++;
      break;
    case DDB_COMPARE_NO_BASE:
      break;
    }
  sqlite3_bind_blob (w->ins, 1, sqlite3_column_blob (keyed, 0), sqlite3_column_bytes (keyed, 0),
                     SQLITE_TRANSIENT);
  sqlite3_bind_int (w->ins, 2, (int) kind);
  sqlite3_bind_int (w->ins, 3, (int) klass);
  if (sqlite3_step (w->ins) != SQLITE_DONE)
    {
      sqlite3_reset (w->ins);
      return compare_sql_error (r->db, error);
    }
  sqlite3_reset (w->ins);
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
walk_step (Walk *w, GError **error)
{
  static const Blob absent = { NULL, 0 };
  int c = !w->more_a ? 1 : !w->more_b ? -1 : key_cmp (w->a, w->b);
  gboolean equal = FALSE;

  if (c < 0)
    {
      if (!record (w, w->a, DDB_COMPARE_ONLY_HERE, column_blob (w->a, 1), absent, error))
        return FALSE;
      w->more_a = next_row (w->a, &w->failed);
      return TRUE;
    }
  if (c > 0)
    {
      if (!record (w, w->b, DDB_COMPARE_ONLY_THERE, absent, column_blob (w->b, 1), error))
        return FALSE;
      w->more_b = next_row (w->b, &w->failed);
      return TRUE;
    }
  if (!blobs_equal (column_blob (w->a, 1), column_blob (w->b, 1), &equal, error))
    return FALSE;
  if (equal)
    w->r->counts.same++;
  else if (!record (w, w->a, DDB_COMPARE_CHANGED, column_blob (w->a, 1), column_blob (w->b, 1),
                    error))
    return FALSE;
  w->more_a = next_row (w->a, &w->failed);
  w->more_b = next_row (w->b, &w->failed);
  return TRUE;
}

gboolean
compare_classify (DdbCompareResult *r, GCancellable *cancellable, GError **error)
{
  Walk w = { r };
  gboolean ok = FALSE;
  guint64 steps = 0;

  if (!compare_sql_exec (r->db, "BEGIN", error))
    return FALSE;
  if (sqlite3_prepare_v2 (r->db, "SELECT k, COALESCE (cmp, item) FROM here ORDER BY k", -1, &w.a,
                          NULL)
          != SQLITE_OK
      || sqlite3_prepare_v2 (r->db, "SELECT k, COALESCE (cmp, item) FROM there ORDER BY k", -1,
                             &w.b, NULL)
             != SQLITE_OK
      || sqlite3_prepare_v2 (r->db, "SELECT COALESCE (cmp, item) FROM base WHERE k = ?", -1,
                             &w.base, NULL)
             != SQLITE_OK
      || sqlite3_prepare_v2 (r->db, "INSERT INTO diffs (k, kind, class) VALUES (?, ?, ?)", -1,
                             &w.ins, NULL)
             != SQLITE_OK)
    {
      compare_sql_error (r->db, error);
      goto out;
    }
  w.more_a = next_row (w.a, &w.failed);
  w.more_b = next_row (w.b, &w.failed);
  while (w.more_a || w.more_b)
    {
      if ((++steps & 0xfff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      if (!walk_step (&w, error))
        goto out;
    }
  if (w.failed)
    {
      compare_sql_error (r->db, error);
      goto out;
    }
  ok = TRUE;

out:
  sqlite3_finalize (w.a);
  sqlite3_finalize (w.b);
  sqlite3_finalize (w.base);
  sqlite3_finalize (w.ins);
  if (!ok)
    {
      compare_sql_exec (r->db, "ROLLBACK", NULL);
      return FALSE;
    }
  return compare_sql_exec (r->db, "COMMIT", error);
}

/* ---- the differences again ---- */

static DdbValue *
key_of (DdbCompareResult *r, const DdbValue *item)
{
  DdbValue *key = ddb_value_new_m ();

  for (guint i = 0; i < r->keys.n; i++)
    {
      const DdbValue *v = ddb_value_map_get (item, r->keys.name[i]);

      if (v != NULL)
        ddb_value_map_set (key, r->keys.name[i], ddb_value_copy (v));
    }
  return key;
}

/* Decodes column COL of S into *OUT (NULL when the column is NULL). */
static gboolean
decode_column (sqlite3_stmt *s, int col, DdbValue **out, GError **error)
{
  *out = NULL;
  if (sqlite3_column_type (s, col) == SQLITE_NULL)
    return TRUE;
  *out = ddb_item_decode (sqlite3_column_blob (s, col), (gsize) sqlite3_column_bytes (s, col),
                          error);
  return *out != NULL;
}

gboolean
ddb_compare_result_foreach (DdbCompareResult *result, DdbCompareFunc each, gpointer user_data,
                            GError **error)
{
  sqlite3_stmt *s = NULL;
  gboolean ok = TRUE;
  int rc = SQLITE_DONE;

  if (sqlite3_prepare_v2 (result->db,
                          "SELECT d.kind, d.class, h.item, t.item, b.k IS NOT NULL, b.item "
                          "FROM diffs d LEFT JOIN here h ON h.k = d.k "
                          "LEFT JOIN there t ON t.k = d.k LEFT JOIN base b ON b.k = d.k "
                          "ORDER BY d.k",
                          -1, &s, NULL)
      != SQLITE_OK)
    return compare_sql_error (result->db, error);
  while (ok && (rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      DdbCompareDifference d = { 0 };
      g_autoptr (DdbValue) here = NULL;
      g_autoptr (DdbValue) there = NULL;
      g_autoptr (DdbValue) base = NULL;
      g_autoptr (DdbValue) key = NULL;
      g_autoptr (GPtrArray) diff = NULL;

      d.kind = (DdbCompareKind) sqlite3_column_int (s, 0);
      d.klass = (DdbCompareClass) sqlite3_column_int (s, 1);
      ok = decode_column (s, 2, &here, error) && decode_column (s, 3, &there, error)
           && decode_column (s, 5, &base, error);
      if (!ok)
        break;
      if (result->counts.has_base && sqlite3_column_int (s, 4) == 0 && result->base_sparse)
        {
          const DdbValue *unchanged = result->base_side == 0 ? here : there;

          base = unchanged != NULL ? ddb_value_copy (unchanged) : NULL;
        }
      key = key_of (result, here != NULL ? here : there);
      if (d.kind == DDB_COMPARE_CHANGED && here != NULL && there != NULL)
        {
          if (result->n_exclude > 0)
            {
              g_autoptr (DdbValue) sh = compare_strip (result, here);
              g_autoptr (DdbValue) st = compare_strip (result, there);

              diff = ddb_diff_items (sh, st);
            }
          else
            diff = ddb_diff_items (here, there);
        }
      d.key = key;
      d.here = here;
      d.there = there;
      d.base = base;
      d.diff = diff;
      if (!each (&d, user_data))
        break;
    }
  if (ok && rc != SQLITE_ROW && rc != SQLITE_DONE)
    ok = compare_sql_error (result->db, error);
  sqlite3_finalize (s);
  return ok;
}
