/* store-cursor.c: the engine's Query and Scan cursors over dy_items and dy_index: one
 * partition within sort-key bounds in either direction, or a segment's hash range in hash order,
 * from an exclusive start key; each row's item decoded whole or (ddb_store_cursor_set_wanted)
 * only in the attributes a read needs, with its stored size. */
#include <string.h>

#include "core/error.h"
#include "core/keycodec.h"
#include "engine/store-private.h"

/* A bound on the encoded sort key: `set` FALSE for none. */
typedef struct {
  GByteArray *bytes;
  gboolean set;
  gboolean strict;
} Bound;

struct _DdbStoreCursor {
  DdbStore *store;
  sqlite3_stmt *stmt;
  gboolean done;
  KeySlots slots;
  char *names[DDB_ITEM_MAX_KEY_SLOTS]; /* slots.names point here */
  int size_column;                     /* of the statement's row: the stored size */
  int sk_column;                       /* the encoded sort key (of the table or the index) */
  gint64 size;                         /* the current row's */
  char **wanted; /* ddb_store_cursor_set_wanted: the attributes decoded, NULL: all */
  guint n_wanted;
  gboolean prefilter; /* ddb_store_cursor_set_prefilter: the sort key within these */
  Bound pre_lower, pre_upper;
};

static void
bound_set (Bound *b, const GByteArray *bytes, gboolean strict)
{
  g_byte_array_set_size (b->bytes, 0);
  g_byte_array_append (b->bytes, bytes->data, bytes->len);
  b->set = TRUE;
  b->strict = strict;
}

static int
bytes_compare (const GByteArray *a, const GByteArray *b)
{
  int c = memcmp (a->data, b->data, MIN (a->len, b->len));

  if (c != 0)
    return c;
  return a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
}

/* Narrows `b` to `value` if that is tighter: `lower` tells which side. */
static void
bound_narrow (Bound *b, const GByteArray *value, gboolean strict, gboolean lower)
{
  int c;

  if (!b->set)
    {
      bound_set (b, value, strict);
      return;
    }
  c = bytes_compare (value, b->bytes);
  if (lower ? c > 0 : c < 0)
    bound_set (b, value, strict);
  else if (c == 0)
    b->strict = b->strict || strict;
}

/* The range of encoded sort keys that begins_with(`prefix`) selects. Strings and binaries
 * encode as their bytes with 0x00 escaped as 00 FF, then the terminator 00 01; the escaping is
 * a prefix code, so a value starts with the prefix iff its encoding starts with the prefix's
 * encoding minus the terminator. Every such encoding lies in [P, successor (P)). */
static gboolean
prefix_bounds (const DdbValue *prefix, Bound *lower, Bound *upper, GError **error)
{
  GByteArray *p = g_byte_array_new ();
  gboolean ok = ddb_key_encode (prefix, p, error);

  if (ok)
    {
      g_assert (p->len >= 2);
      g_byte_array_set_size (p, p->len - 2);
      bound_narrow (lower, p, FALSE, TRUE);
      while (p->len > 0 && p->data[p->len - 1] == 0xFF)
        g_byte_array_set_size (p, p->len - 1);
      if (p->len > 0)
        {
          p->data[p->len - 1]++;
          bound_narrow (upper, p, TRUE, FALSE);
        }
    }
  g_byte_array_unref (p);
  return ok;
}

static gboolean
range_bounds (const DdbStoreRange *range, Bound *lower, Bound *upper, GError **error)
{
  g_autoptr (GByteArray) a = g_byte_array_new ();
  g_autoptr (GByteArray) b = g_byte_array_new ();

  switch (range->range_op)
    {
    case DDB_SK_NONE:
      return TRUE;
    case DDB_SK_BEGINS_WITH:
      return prefix_bounds (range->range[0], lower, upper, error);
    case DDB_SK_EQ:
    case DDB_SK_LT:
    case DDB_SK_LE:
    case DDB_SK_GT:
    case DDB_SK_GE:
    case DDB_SK_BETWEEN:
    default:
      break;
    }
  if (!ddb_key_encode (range->range[0], a, error))
    return FALSE;
  switch (range->range_op)
    {
    case DDB_SK_EQ:
      bound_narrow (lower, a, FALSE, TRUE);
      bound_narrow (upper, a, FALSE, FALSE);
      break;
    case DDB_SK_LT:
      bound_narrow (upper, a, TRUE, FALSE);
      break;
    case DDB_SK_LE:
      bound_narrow (upper, a, FALSE, FALSE);
      break;
    case DDB_SK_GT:
      bound_narrow (lower, a, TRUE, TRUE);
      break;
    case DDB_SK_GE:
      bound_narrow (lower, a, FALSE, TRUE);
      break;
    case DDB_SK_BETWEEN:
      if (!ddb_key_encode (range->range[1], b, error))
        return FALSE;
      bound_narrow (lower, a, FALSE, TRUE);
      bound_narrow (upper, b, FALSE, FALSE);
      break;
    case DDB_SK_NONE:
    case DDB_SK_BEGINS_WITH:
    default:
      break;
    }
  return TRUE;
}

static gboolean
cursor_step_error (DdbStoreCursor *cursor, GError **error)
{
  return store_sql_error (cursor->store, error, "read");
}

static DdbStoreCursor *
cursor_new (DdbStore *store, const DdbTableDef *def, const DdbIndexDef *index, const char *sql,
            GError **error)
{
  sqlite3_stmt *stmt = store_stmt_acquire (store, sql, error);
  DdbStoreCursor *cursor;

  if (stmt == NULL)
    return NULL;
  cursor = g_new0 (DdbStoreCursor, 1);
  cursor->store = store;
  cursor->stmt = stmt;
  /* The names are copied: the cursor may outlive the caller's definition. */
  store_key_slots (def, index, &cursor->slots);
  cursor->size_column = index != NULL ? 4 : 3;
  cursor->sk_column = index != NULL ? 3 : 2;
  cursor->pre_lower.bytes = g_byte_array_new ();
  cursor->pre_upper.bytes = g_byte_array_new ();
  for (guint i = 0; i < DDB_ITEM_MAX_KEY_SLOTS; i++)
    {
      cursor->names[i] = g_strdup (cursor->slots.names[i]);
      cursor->slots.names[i] = cursor->names[i];
    }
  return cursor;
}

/* Query: one partition, sort keys within bounds, in either direction. */
static DdbStoreCursor *
open_query (DdbStore *store, const DdbTableDef *def, const DdbStoreRange *range, GError **error)
{
  const DdbIndexDef *index = range->index;
  const DdbKeyDef *key = index != NULL ? &index->key : &def->key;
  g_autoptr (GByteArray) pk = g_byte_array_new ();
  g_autoptr (GByteArray) start_sk = g_byte_array_new ();
  g_autoptr (GByteArray) start_tk = g_byte_array_new ();
  Bound lower = { g_byte_array_new (), FALSE, FALSE };
  Bound upper = { g_byte_array_new (), FALSE, FALSE };
  g_autoptr (GString) sql = g_string_new (NULL);
  DdbStoreCursor *cursor = NULL;
  const char *col = index != NULL ? "isk" : "sk";
  gboolean ok;

  ok = ddb_key_encode (range->hash, pk, error) && range_bounds (range, &lower, &upper, error);
  if (ok && range->exclusive_start != NULL)
    {
      g_autoptr (GByteArray) tpk = g_byte_array_new ();
      g_autoptr (GByteArray) tsk = g_byte_array_new ();

      if (key->range_name != NULL)
        ok = store_encode_attr (range->exclusive_start, key->range_name, start_sk, error);
      if (ok && index != NULL)
        {
          ok = store_encode_key (&def->key, range->exclusive_start, tpk, tsk, error);
          store_concat_key (start_tk, tpk, tsk);
        }
      /* On the table the sort key alone continues; on an index equal index keys are told
       * apart by the table key, so the bound stays inclusive and a row-value test follows. */
      if (ok)
        bound_narrow (range->forward ? &lower : &upper, start_sk, index == NULL,
                      range->forward);
    }

  if (ok)
    {
      if (index == NULL)
        g_string_append (sql, "SELECT item, pk, sk, size FROM dy_items WHERE tid = ?1 AND h = ?2"
                              " AND pk = ?3");
      else
        g_string_append (sql, "SELECT item, tk, ipk, isk, size FROM dy_index WHERE tid = ?1"
                              " AND iid = ?6 AND h = ?2 AND ipk = ?3");
      if (lower.set)
        g_string_append_printf (sql, " AND %s %s ?4", col, lower.strict ? ">" : ">=");
      if (upper.set)
        g_string_append_printf (sql, " AND %s %s ?5", col, upper.strict ? "<" : "<=");
      if (index != NULL && range->exclusive_start != NULL)
        g_string_append_printf (sql, " AND (isk, tk) %s (?7, ?8)", range->forward ? ">" : "<");
      if (index == NULL)
        g_string_append (sql, range->forward ? " ORDER BY sk ASC" : " ORDER BY sk DESC");
      else
        g_string_append (sql, range->forward ? " ORDER BY isk ASC, tk ASC"
                                             : " ORDER BY isk DESC, tk DESC");
      cursor = cursor_new (store, def, index, sql->str, error);
    }
  if (cursor != NULL)
    {
      sqlite3_stmt *stmt = cursor->stmt;

      sqlite3_bind_int64 (stmt, 1, def->id);
      sqlite3_bind_int64 (stmt, 2, store_key_hash (pk->data, pk->len));
      sqlite3_bind_blob (stmt, 3, pk->data ?: (guint8 *) "", (int) pk->len, SQLITE_TRANSIENT);
      if (lower.set)
        sqlite3_bind_blob (stmt, 4, lower.bytes->data ?: (guint8 *) "", (int) lower.bytes->len,
                           SQLITE_TRANSIENT);
      if (upper.set)
        sqlite3_bind_blob (stmt, 5, upper.bytes->data ?: (guint8 *) "", (int) upper.bytes->len,
                           SQLITE_TRANSIENT);
      if (index != NULL)
        {
          sqlite3_bind_int64 (stmt, 6, index->id);
          if (range->exclusive_start != NULL)
            {
              sqlite3_bind_blob (stmt, 7, start_sk->data ?: (guint8 *) "", (int) start_sk->len,
                                 SQLITE_TRANSIENT);
              sqlite3_bind_blob (stmt, 8, start_tk->data ?: (guint8 *) "", (int) start_tk->len,
                                 SQLITE_TRANSIENT);
            }
        }
    }
  g_byte_array_unref (lower.bytes);
  g_byte_array_unref (upper.bytes);
  return cursor;
}

guint
ddb_store_segment_of (const DdbValue *hash, guint total_segments)
{
  g_autoptr (GByteArray) pk = g_byte_array_new ();
  guint64 total = MAX (total_segments, 1);
  guint64 h;

  /* A validated key value always encodes. */
  ddb_key_encode (hash, pk, NULL);
  h = store_key_hash (pk->data, pk->len);
  /* open_scan gives segment s the hashes from floor(s * 2^32 / total): the last s whose
   * floor(s * 2^32 / total) <= h is ceil((h + 1) * total / 2^32) - 1. */
  return (guint) (((h + 1) * total - 1) >> 32);
}

/* Scan: every partition in hash order within the segment's hash range. */
static DdbStoreCursor *
open_scan (DdbStore *store, const DdbTableDef *def, const DdbStoreRange *range, GError **error)
{
  const DdbIndexDef *index = range->index;
  guint total = MAX (range->total_segments, 1);
  gint64 lo = (gint64) (((guint64) range->segment << 32) / total);
  gint64 hi = (gint64) (((guint64) (range->segment + 1) << 32) / total);
  g_autoptr (GByteArray) pk = g_byte_array_new ();
  g_autoptr (GByteArray) sk = g_byte_array_new ();
  g_autoptr (GByteArray) tpk = g_byte_array_new ();
  g_autoptr (GByteArray) tsk = g_byte_array_new ();
  g_autoptr (GByteArray) tk = g_byte_array_new ();
  const char *sql;
  DdbStoreCursor *cursor;
  gint64 start_h = 0;

  if (range->segment >= total)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL, "Scan segment %u of %u", range->segment,
                   total);
      return NULL;
    }
  if (range->exclusive_start != NULL)
    {
      if (!store_encode_key (index != NULL ? &index->key : &def->key, range->exclusive_start, pk,
                             sk, error))
        return NULL;
      if (index != NULL)
        {
          if (!store_encode_key (&def->key, range->exclusive_start, tpk, tsk, error))
            return NULL;
          store_concat_key (tk, tpk, tsk);
        }
      start_h = store_key_hash (pk->data, pk->len);
      lo = MAX (lo, start_h);
    }

  if (index == NULL)
    sql = range->exclusive_start == NULL
            ? "SELECT item, pk, sk, size FROM dy_items WHERE tid = ?1 AND h >= ?2 AND h < ?3"
              " ORDER BY h, pk, sk"
            : "SELECT item, pk, sk, size FROM dy_items WHERE tid = ?1 AND h >= ?2 AND h < ?3"
              " AND (h, pk, sk) > (?4, ?5, ?6) ORDER BY h, pk, sk";
  else
    sql = range->exclusive_start == NULL
            ? "SELECT item, tk, ipk, isk, size FROM dy_index WHERE tid = ?1 AND iid = ?7 AND h >= ?2"
              " AND h < ?3 ORDER BY h, ipk, isk, tk"
            : "SELECT item, tk, ipk, isk, size FROM dy_index WHERE tid = ?1 AND iid = ?7 AND h >= ?2"
              " AND h < ?3"
              " AND (h, ipk, isk, tk) > (?4, ?5, ?6, ?8) ORDER BY h, ipk, isk, tk";
  cursor = cursor_new (store, def, index, sql, error);
  if (cursor == NULL)
    return NULL;
  sqlite3_bind_int64 (cursor->stmt, 1, def->id);
  sqlite3_bind_int64 (cursor->stmt, 2, lo);
  sqlite3_bind_int64 (cursor->stmt, 3, hi);
  if (range->exclusive_start != NULL)
    {
      sqlite3_bind_int64 (cursor->stmt, 4, start_h);
      sqlite3_bind_blob (cursor->stmt, 5, pk->data ?: (guint8 *) "", (int) pk->len,
                         SQLITE_TRANSIENT);
      sqlite3_bind_blob (cursor->stmt, 6, sk->data ?: (guint8 *) "", (int) sk->len,
                         SQLITE_TRANSIENT);
      if (index != NULL)
        sqlite3_bind_blob (cursor->stmt, 8, tk->data ?: (guint8 *) "", (int) tk->len,
                           SQLITE_TRANSIENT);
    }
  if (index != NULL)
    sqlite3_bind_int64 (cursor->stmt, 7, index->id);
  return cursor;
}

DdbStoreCursor *
ddb_store_cursor_open (DdbStore *store, const DdbTableDef *def, const DdbStoreRange *range,
                       GError **error)
{
  if (range->hash != NULL)
    return open_query (store, def, range, error);
  return open_scan (store, def, range, error);
}

void
ddb_store_cursor_set_wanted (DdbStoreCursor *cursor, const char *const *names, guint n)
{
  g_clear_pointer (&cursor->wanted, g_strfreev);
  cursor->n_wanted = 0;
  if (names == NULL)
    return;
  cursor->wanted = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    cursor->wanted[i] = g_strdup (names[i]);
  cursor->n_wanted = n;
}

gint64
ddb_store_cursor_size (const DdbStoreCursor *cursor)
{
  return cursor->size;
}

gboolean
ddb_store_cursor_set_prefilter (DdbStoreCursor *cursor, DdbSortKeyOp op,
                                const DdbValue *const values[2], GError **error)
{
  DdbStoreRange range = { 0 };

  range.range_op = op;
  range.range[0] = values[0];
  range.range[1] = values[1];
  cursor->pre_lower.set = cursor->pre_upper.set = FALSE;
  cursor->prefilter = op != DDB_SK_NONE;
  return range_bounds (&range, &cursor->pre_lower, &cursor->pre_upper, error);
}

/* The current row's sort key passes the prefilter. */
static gboolean
prefilter_passes (DdbStoreCursor *cursor)
{
  GByteArray sk;
  int c;

  sk.data = (guint8 *) sqlite3_column_blob (cursor->stmt, cursor->sk_column);
  sk.len = (guint) sqlite3_column_bytes (cursor->stmt, cursor->sk_column);
  if (sk.data == NULL)
    sk.data = (guint8 *) "";
  if (cursor->pre_lower.set)
    {
      c = bytes_compare (&sk, cursor->pre_lower.bytes);
      if (c < 0 || (c == 0 && cursor->pre_lower.strict))
        return FALSE;
    }
  if (cursor->pre_upper.set)
    {
      c = bytes_compare (&sk, cursor->pre_upper.bytes);
      if (c > 0 || (c == 0 && cursor->pre_upper.strict))
        return FALSE;
    }
  return TRUE;
}

DdbValue *
ddb_store_cursor_next (DdbStoreCursor *cursor, gboolean *skipped, GError **error)
{
  int rc;

  if (skipped != NULL)
    *skipped = FALSE;
  while (!cursor->done)
    {
      DdbValue *item;

      rc = sqlite3_step (cursor->stmt);
      if (rc != SQLITE_ROW)
        {
          cursor->done = TRUE;
          if (rc != SQLITE_DONE)
            cursor_step_error (cursor, error);
          return NULL;
        }
      cursor->size = sqlite3_column_int64 (cursor->stmt, cursor->size_column);
      if (cursor->prefilter && !prefilter_passes (cursor))
        {
          if (skipped == NULL)
            continue;
          *skipped = TRUE;
          return NULL;
        }
      item = store_row_decode (&cursor->slots, cursor->stmt, (const char *const *) cursor->wanted,
                               cursor->n_wanted, error);
      if (item == NULL)
        cursor->done = TRUE;
      return item;
    }
  return NULL;
}

DdbValue *
ddb_store_cursor_key (DdbStoreCursor *cursor, GError **error)
{
  static const char *const none[] = { NULL };

  return store_row_decode (&cursor->slots, cursor->stmt, none, 0, error);
}

void
ddb_store_cursor_free (DdbStoreCursor *cursor)
{
  if (cursor == NULL)
    return;
  store_stmt_release (cursor->store, cursor->stmt);
  for (guint i = 0; i < DDB_ITEM_MAX_KEY_SLOTS; i++)
    g_free (cursor->names[i]);
  g_strfreev (cursor->wanted);
  g_byte_array_unref (cursor->pre_lower.bytes);
  g_byte_array_unref (cursor->pre_upper.bytes);
  g_free (cursor);
}
