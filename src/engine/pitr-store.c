/* pitr-store.c: point-in-time recovery's history in the database (see pitr-store.h).
 *
 * dy_pitr_changes holds one row per change of an item of a table with PITR on: its AUTOINCREMENT
 * key orders the changes as they committed (one writer), `at` is the write's time in epoch
 * microseconds, `k` the item's encoded key (the length of the partition key's encoding, then
 * the partition and sort keys' encodings of the store's key codec), and the old and new images
 * as DynamoDB JSON text (NULL: none). Rows are written in the change's own transaction or
 * savepoint, so history exists exactly when its change committed. */
#include "engine/pitr-store.h"

#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "engine/store-private.h"

static const char pitr_schema_sql[]
    = "CREATE TABLE IF NOT EXISTS dy_pitr_changes ("
      " seq INTEGER PRIMARY KEY AUTOINCREMENT, tid INTEGER NOT NULL, at INTEGER NOT NULL,"
      " k BLOB NOT NULL, old TEXT, new TEXT);"
      "CREATE INDEX IF NOT EXISTS dy_pitr_changes_by_tid ON dy_pitr_changes (tid, at, seq);";

gboolean
ddb_pitr_store_init (DdbStore *store, GError **error)
{
  char *msg = NULL;

  if (sqlite3_exec (store->db, pitr_schema_sql, NULL, NULL, &msg) != SQLITE_OK)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                   "Cannot create the point-in-time recovery table: %s", msg != NULL ? msg : "?");
      sqlite3_free (msg);
      return FALSE;
    }
  return TRUE;
}

gboolean
ddb_pitr_enabled (const DdbTableDef *def, gint64 *since_us, gint64 *days)
{
  json_t *p = json_object_get (def->meta, DDB_PITR_META);
  json_t *d = json_object_get (p, "RecoveryPeriodInDays");

  if (!json_is_object (p))
    return FALSE;
  if (since_us != NULL)
    *since_us = json_integer_value (json_object_get (p, "SinceMicros"));
  if (days != NULL)
    *days = json_is_integer (d) ? json_integer_value (d) : DDB_PITR_DEFAULT_DAYS;
  return TRUE;
}

void
ddb_pitr_window (const DdbTableDef *def, gint64 now_us, gint64 *earliest_us, gint64 *latest_us)
{
  gint64 since = now_us, days = DDB_PITR_DEFAULT_DAYS;

  ddb_pitr_enabled (def, &since, &days);
  *earliest_us = MAX (since, now_us - days * 86400 * G_USEC_PER_SEC);
  /* to the millisecond DescribeContinuousBackups reports it with (ddb_export_time_json): a
   * client starting an export exactly there is inside the window */
  *earliest_us -= *earliest_us % 1000;
  *latest_us = now_us;
}

GBytes *
ddb_pitr_item_key (const DdbTableDef *def, const DdbValue *item, GError **error)
{
  g_autoptr (GByteArray) pk = g_byte_array_new ();
  g_autoptr (GByteArray) sk = g_byte_array_new ();
  GByteArray *out;
  guint32 n;

  if (!store_encode_key (&def->key, item, pk, sk, error))
    return NULL;
  n = GUINT32_TO_BE (pk->len);
  out = g_byte_array_sized_new (4 + pk->len + sk->len);
  g_byte_array_append (out, (const guint8 *) &n, 4);
  g_byte_array_append (out, pk->data, pk->len);
  g_byte_array_append (out, sk->data, sk->len);
  return g_byte_array_free_to_bytes (out);
}

static void
bind_item (sqlite3_stmt *stmt, int i, const DdbValue *item, char **text)
{
  if (item == NULL)
    sqlite3_bind_null (stmt, i);
  else
    {
      *text = ddb_json_format_item (item);
      sqlite3_bind_text (stmt, i, *text, -1, SQLITE_STATIC);
    }
}

gboolean
ddb_pitr_record (DdbStore *store, const DdbTableDef *def, const DdbValue *old_item,
                 const DdbValue *new_item, GError **error)
{
  g_autoptr (GBytes) key = NULL;
  g_autofree char *old_text = NULL;
  g_autofree char *new_text = NULL;
  sqlite3_stmt *stmt;
  gsize klen = 0;
  gconstpointer kdata;

  if (!ddb_pitr_enabled (def, NULL, NULL) || (old_item == NULL && new_item == NULL))
    return TRUE;
  if (old_item != NULL && new_item != NULL && ddb_value_equal (old_item, new_item))
    return TRUE;
  key = ddb_pitr_item_key (def, new_item != NULL ? new_item : old_item, error);
  if (key == NULL)
    return FALSE;
  stmt = store_stmt_acquire (store,
                             "INSERT INTO dy_pitr_changes (tid, at, k, old, new)"
                             " VALUES (?1, ?2, ?3, ?4, ?5)",
                             error);
  if (stmt == NULL)
    return FALSE;
  kdata = g_bytes_get_data (key, &klen);
  sqlite3_bind_int64 (stmt, 1, def->id);
  sqlite3_bind_int64 (stmt, 2, g_get_real_time ());
  sqlite3_bind_blob (stmt, 3, kdata, (int) klen, SQLITE_STATIC);
  bind_item (stmt, 4, old_item, &old_text);
  bind_item (stmt, 5, new_item, &new_text);
  return store_stmt_run (store, stmt, error);
}

gboolean
ddb_pitr_forget (DdbStore *store, gint64 tid, GError **error)
{
  sqlite3_stmt *stmt
      = store_stmt_acquire (store, "DELETE FROM dy_pitr_changes WHERE tid = ?1", error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, tid);
  return store_stmt_run (store, stmt, error);
}

gboolean
ddb_pitr_trim (DdbStore *store, gint64 now_us, GError **error)
{
  g_autoptr (GPtrArray) names = NULL;
  gboolean own, ok = TRUE;
  sqlite3_stmt *stmt;

  if (!store_auto_begin (store, &own, error))
    return FALSE;
  /* Tables that are gone. */
  ok = store_exec_sql (store,
                       "DELETE FROM dy_pitr_changes WHERE tid NOT IN (SELECT id FROM dy_tables)",
                       error);
  names = ok ? ddb_store_table_names (store, NULL, 0, error) : NULL;
  ok = ok && names != NULL;
  for (guint i = 0; ok && i < names->len; i++)
    {
      g_autoptr (DdbTableDef) def = ddb_store_table_get (store, names->pdata[i], error);
      gint64 earliest, latest;

      if (def == NULL)
        {
          ok = FALSE;
          break;
        }
      if (!ddb_pitr_enabled (def, NULL, NULL))
        {
          ok = ddb_pitr_forget (store, def->id, error);
          continue;
        }
      ddb_pitr_window (def, now_us, &earliest, &latest);
      stmt = store_stmt_acquire (store, "DELETE FROM dy_pitr_changes WHERE tid = ?1 AND at < ?2",
                                 error);
      ok = stmt != NULL;
      if (ok)
        {
          sqlite3_bind_int64 (stmt, 1, def->id);
          sqlite3_bind_int64 (stmt, 2, earliest);
          ok = store_stmt_run (store, stmt, error);
        }
    }
  return store_auto_end (store, own, ok, error);
}

static DdbValue *
column_item (sqlite3_stmt *stmt, int col, gboolean *ok, GError **error)
{
  const char *text = (const char *) sqlite3_column_text (stmt, col);

  if (text == NULL)
    return NULL;
  {
    DdbValue *v = ddb_json_parse_item (text, sqlite3_column_bytes (stmt, col), error);

    if (v == NULL)
      *ok = FALSE;
    return v;
  }
}

gboolean
ddb_pitr_changes (DdbStore *store, gint64 tid, gint64 from_us, gint64 to_us, DdbPitrFunc each,
                  gpointer data, GError **error)
{
  sqlite3_stmt *stmt = store_stmt_acquire (store,
                                           "SELECT seq, at, k, old, new FROM dy_pitr_changes"
                                           " WHERE tid = ?1 AND at >= ?2 AND at < ?3 ORDER BY seq",
                                           error);
  gboolean ok = TRUE;
  int rc = SQLITE_DONE;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, tid);
  sqlite3_bind_int64 (stmt, 2, from_us);
  sqlite3_bind_int64 (stmt, 3, to_us);
  while (ok && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      DdbPitrChange c = { 0 };
      g_autoptr (GBytes) key = g_bytes_new (sqlite3_column_blob (stmt, 2),
                                            sqlite3_column_bytes (stmt, 2));
      g_autoptr (DdbValue) old_item = NULL;
      g_autoptr (DdbValue) new_item = NULL;

      old_item = column_item (stmt, 3, &ok, error);
      if (ok)
        new_item = column_item (stmt, 4, &ok, error);
      if (!ok)
        break;
      c.seq = sqlite3_column_int64 (stmt, 0);
      c.at_us = sqlite3_column_int64 (stmt, 1);
      c.key = key;
      c.old_item = old_item;
      c.new_item = new_item;
      ok = each (&c, data, error);
    }
  if (ok && rc != SQLITE_DONE)
    ok = store_sql_error (store, error, "read");
  store_stmt_release (store, stmt);
  return ok;
}
