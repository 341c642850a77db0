/* base-store.c: a snapshot's base and its items' base versions (see base-store.h).
 *
 *   dy_bases(tid PRIMARY KEY, source, format, created, count, arn): arn, the export's ARN or
 *     NULL, is added to the databases made before it had one.
 *   dy_base_items(tid, tk, item) PRIMARY KEY (tid, tk) WITHOUT ROWID: tk = pk || sk, item the
 *     item codec's encoding of the base version, NULL when the item was absent.
 *
 * Every write asks whether its table has a base (ddb_base_enabled): the writer connection keeps
 * the answers per table id (store->bases), so that a write pays no query for it. The cache is
 * trusted in a write transaction once PRAGMA data_version (which only moves when another
 * connection commits) is the one it was filled under; ddb_base_set and ddb_base_drop update it
 * and mark the transaction, whose rollback (or a group's) then empties it. */
#include "engine/base-store.h"

#include <string.h>

#include "core/error.h"
#include "engine/store-private.h"

static const char base_schema_sql[]
    = "CREATE TABLE IF NOT EXISTS dy_bases ("
      " tid INTEGER PRIMARY KEY, source TEXT NOT NULL, format TEXT NOT NULL,"
      " created INTEGER NOT NULL, count INTEGER NOT NULL, arn TEXT);"
      "CREATE TABLE IF NOT EXISTS dy_base_items ("
      " tid INTEGER NOT NULL, tk BLOB NOT NULL, item BLOB,"
      " PRIMARY KEY (tid, tk)) WITHOUT ROWID;";

void
ddb_table_base_clear (DdbTableBase *base)
{
  g_clear_pointer (&base->source, g_free);
  g_clear_pointer (&base->format, g_free);
  g_clear_pointer (&base->export_arn, g_free);
}

/* ---- The writer's cache of ddb_base_enabled ---- */

static void
cache_put (DdbStore *store, gint64 tid, gboolean enabled)
{
  g_hash_table_replace (store->bases, g_memdup2 (&tid, sizeof tid),
                        GINT_TO_POINTER (1 + (enabled ? 1 : 0)));
}

void
store_bases_txn_begin (DdbStore *store)
{
  store->bases_checked = FALSE;
}

void
store_bases_txn_end (DdbStore *store, gboolean committed)
{
  if (!committed && store->bases_dirty)
    g_hash_table_remove_all (store->bases);
  store->bases_dirty = FALSE;
}

void
store_bases_savepoint_rollback (DdbStore *store)
{
  /* Still dirty: the group's earlier calls may have changed a base, and the group can fail. */
  if (store->bases_dirty)
    g_hash_table_remove_all (store->bases);
}

void
store_bases_forget (DdbStore *store, gint64 tid)
{
  g_hash_table_remove (store->bases, &tid);
}

/* Empties the cache if another connection committed since it was last checked. */
static gboolean
cache_check (DdbStore *store, GError **error)
{
  sqlite3_stmt *stmt;
  gint64 version;
  int rc;

  if (store->bases_checked)
    return TRUE;
  stmt = store_stmt_acquire (store, "PRAGMA data_version", error);
  if (stmt == NULL)
    return FALSE;
  rc = sqlite3_step (stmt);
  version = rc == SQLITE_ROW ? sqlite3_column_int64 (stmt, 0) : -1;
  store_stmt_release (store, stmt);
  if (rc != SQLITE_ROW)
    return store_sql_error (store, error, "read");
  if (version != store->bases_version)
    g_hash_table_remove_all (store->bases);
  store->bases_version = version;
  store->bases_checked = TRUE;
  return TRUE;
}

static gboolean
has_arn_column (DdbStore *store)
{
  sqlite3_stmt *probe = NULL;
  gboolean has
      = sqlite3_prepare_v2 (store->db, "SELECT arn FROM dy_bases", -1, &probe, NULL) == SQLITE_OK;

  sqlite3_finalize (probe);
  return has;
}

gboolean
ddb_base_store_init (DdbStore *store, GError **error)
{
  char *msg = NULL;
  int rc = sqlite3_exec (store->db, base_schema_sql, NULL, NULL, &msg);

  /* Another process opening the same older database may add the column first. */
  if (rc == SQLITE_OK && !has_arn_column (store)
      && sqlite3_exec (store->db, "ALTER TABLE dy_bases ADD COLUMN arn TEXT", NULL, NULL, &msg)
             != SQLITE_OK
      && !has_arn_column (store))
    rc = SQLITE_ERROR;
  if (rc != SQLITE_OK)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL, "Cannot create the bases' tables: %s",
                   msg != NULL ? msg : "?");
      sqlite3_free (msg);
      return FALSE;
    }
  sqlite3_free (msg);
  return TRUE;
}

static gboolean
run_tid (DdbStore *store, const char *sql, gint64 tid, GError **error)
{
  sqlite3_stmt *stmt = store_stmt_acquire (store, sql, error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, tid);
  return store_stmt_run (store, stmt, error);
}

gboolean
ddb_base_set (DdbStore *store, const DdbTableDef *def, const char *source, const char *format,
              const char *export_arn, gint64 created_ms, gint64 item_count, GError **error)
{
  sqlite3_stmt *stmt;
  gboolean own, ok;

  if (!store_auto_begin (store, &own, error))
    return FALSE;
  store->bases_dirty = TRUE;
  ok = run_tid (store, "DELETE FROM dy_base_items WHERE tid = ?1", def->id, error);
  stmt = ok ? store_stmt_acquire (store,
                                  "INSERT OR REPLACE INTO dy_bases (tid, source, format, created,"
                                  " count, arn) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                                  error)
            : NULL;
  ok = stmt != NULL;
  if (ok)
    {
      sqlite3_bind_int64 (stmt, 1, def->id);
      sqlite3_bind_text (stmt, 2, source, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (stmt, 3, format, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64 (stmt, 4, created_ms);
      sqlite3_bind_int64 (stmt, 5, item_count);
      sqlite3_bind_text (stmt, 6, export_arn, -1, SQLITE_TRANSIENT);
      ok = store_stmt_run (store, stmt, error);
    }
  if (ok)
    cache_put (store, def->id, TRUE);
  return store_auto_end (store, own, ok, error);
}

gboolean
ddb_base_get (DdbStore *store, const DdbTableDef *def, DdbTableBase *out, gboolean *found,
              GError **error)
{
  sqlite3_stmt *stmt = store_stmt_acquire (
      store, "SELECT source, format, created, count, arn FROM dy_bases WHERE tid = ?1", error);
  int rc;

  *found = FALSE;
  memset (out, 0, sizeof *out);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, def->id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      *found = TRUE;
      out->source = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
      out->format = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
      out->created_ms = sqlite3_column_int64 (stmt, 2);
      out->item_count = sqlite3_column_int64 (stmt, 3);
      out->export_arn = g_strdup ((const char *) sqlite3_column_text (stmt, 4));
    }
  store_stmt_release (store, stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return store_sql_error (store, error, "read");
  return TRUE;
}

gboolean
ddb_base_enabled (DdbStore *store, const DdbTableDef *def, gboolean *enabled, GError **error)
{
  sqlite3_stmt *stmt;
  gboolean use_cache;
  gpointer cached;
  int rc;

  *enabled = FALSE;
  /* A bulk load (an import) writes a table before its base is recorded. */
  if (store->saved_cache_size != 0)
    return TRUE;
  /* The writer in a write transaction (readers never write, and outside a transaction nothing
   * tells a later commit of another connection). */
  use_cache = store->parent == NULL && store->in_txn;
  if (use_cache)
    {
      if (!cache_check (store, error))
        return FALSE;
      cached = g_hash_table_lookup (store->bases, &def->id);
      if (cached != NULL)
        {
          *enabled = GPOINTER_TO_INT (cached) == 2;
          return TRUE;
        }
    }
  stmt = store_stmt_acquire (store, "SELECT 1 FROM dy_bases WHERE tid = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, def->id);
  rc = sqlite3_step (stmt);
  *enabled = rc == SQLITE_ROW;
  store_stmt_release (store, stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return store_sql_error (store, error, "read");
  if (use_cache)
    cache_put (store, def->id, *enabled);
  return TRUE;
}

gboolean
ddb_base_capture (DdbStore *store, const DdbTableDef *def, const GByteArray *pk,
                  const GByteArray *sk, const DdbValue *old_item, GError **error)
{
  g_autoptr (GByteArray) tk = g_byte_array_new ();
  g_autoptr (GByteArray) enc = NULL;
  sqlite3_stmt *stmt;

  store_concat_key (tk, pk, sk);
  stmt = store_stmt_acquire (store,
                             "INSERT INTO dy_base_items (tid, tk, item) VALUES (?1, ?2, ?3)"
                             " ON CONFLICT DO NOTHING",
                             error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, def->id);
  store_bind_bytes (stmt, 2, tk);
  if (old_item != NULL)
    {
      enc = g_byte_array_new ();
      ddb_item_encode (old_item, enc);
      store_bind_bytes (stmt, 3, enc);
    }
  else
    sqlite3_bind_null (stmt, 3);
  return store_stmt_run (store, stmt, error);
}

gboolean
ddb_base_item_count (DdbStore *store, const DdbTableDef *def, gint64 *count, GError **error)
{
  sqlite3_stmt *stmt
      = store_stmt_acquire (store, "SELECT count(*) FROM dy_base_items WHERE tid = ?1", error);
  int rc;

  *count = 0;
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, def->id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    *count = sqlite3_column_int64 (stmt, 0);
  store_stmt_release (store, stmt);
  if (rc != SQLITE_ROW)
    return store_sql_error (store, error, "read");
  return TRUE;
}

static gboolean
decode_column (sqlite3_stmt *stmt, int col, DdbValue **item, GError **error)
{
  *item = NULL;
  if (sqlite3_column_type (stmt, col) == SQLITE_NULL)
    return TRUE;
  *item = ddb_item_decode (sqlite3_column_blob (stmt, col),
                           (gsize) sqlite3_column_bytes (stmt, col), error);
  return *item != NULL;
}

gboolean
ddb_base_item_lookup (DdbStore *store, const DdbTableDef *def, const DdbValue *key, gboolean *found,
                      DdbValue **item, GError **error)
{
  g_autoptr (GByteArray) pk = g_byte_array_new ();
  g_autoptr (GByteArray) sk = g_byte_array_new ();
  g_autoptr (GByteArray) tk = g_byte_array_new ();
  sqlite3_stmt *stmt;
  gboolean ok = TRUE;
  int rc;

  *found = FALSE;
  *item = NULL;
  if (!store_encode_key (&def->key, key, pk, sk, error))
    return FALSE;
  store_concat_key (tk, pk, sk);
  stmt = store_stmt_acquire (store, "SELECT item FROM dy_base_items WHERE tid = ?1 AND tk = ?2",
                             error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, def->id);
  store_bind_bytes (stmt, 2, tk);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      *found = TRUE;
      ok = decode_column (stmt, 0, item, error);
    }
  else if (rc != SQLITE_DONE)
    ok = store_sql_error (store, error, "read");
  store_stmt_release (store, stmt);
  return ok;
}

gboolean
ddb_base_items_foreach (DdbStore *store, const DdbTableDef *def, DdbBaseItemFunc func,
                        gpointer user_data, GError **error)
{
  sqlite3_stmt *stmt = store_stmt_acquire (
      store, "SELECT tk, item FROM dy_base_items WHERE tid = ?1 ORDER BY tk", error);
  gboolean ok = TRUE;
  int rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, def->id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr (DdbValue) item = NULL;

      if (!decode_column (stmt, 1, &item, error))
        {
          ok = FALSE;
          break;
        }
      if (!func (sqlite3_column_blob (stmt, 0), (gsize) sqlite3_column_bytes (stmt, 0), item,
                 user_data))
        break;
    }
  if (ok && rc != SQLITE_ROW && rc != SQLITE_DONE)
    ok = store_sql_error (store, error, "read");
  store_stmt_release (store, stmt);
  return ok;
}

gboolean
ddb_base_drop (DdbStore *store, const DdbTableDef *def, GError **error)
{
  store->bases_dirty = TRUE;
  store_bases_forget (store, def->id);
  return run_tid (store, "DELETE FROM dy_base_items WHERE tid = ?1", def->id, error)
         && run_tid (store, "DELETE FROM dy_bases WHERE tid = ?1", def->id, error);
}
