/* store-items.c: the items of the store: reading, writing and deleting one (with its index
 * entries, statistics and stream record, in the caller's transaction or one of its own), bulk
 * mode for imports, and the idempotency tokens of TransactWriteItems. */
#include <string.h>

#include "core/error.h"
#include "core/itemsize.h"
#include "engine/store-private.h"
#include "engine/base-store.h"
#include "engine/stream-store.h"
#include "engine/pitr-store.h"

/* The page cache a bulk import asks for (KiB, negative as SQLite's cache_size takes it). The
 * items' hashed keys spread the inserts over the whole B-tree, so a smaller cache re-reads
 * pages (64 MB: about 1 s more CPU for 1M items), while a larger one is the import's whole RSS
 * (bench/bench-s3-import.sh, 1M items: 114 MB peak from a folder, 126 MB from S3, at the rate
 * of a 256 MB cache, which peaked at 210-220 MB). */
#define BULK_CACHE_KIB (-98304)

/* ---- Items ---- */

gboolean
ddb_store_item_get (DdbStore *store, const DdbTableDef *def, const DdbValue *key,
                    DdbValue **item, GError **error)
{
  sqlite3_stmt *stmt;
  KeySlots ks;
  int rc;

  *item = NULL;
  if (!store_encode_key (&def->key, key, store->pk, store->sk, error))
    return FALSE;
  store_key_slots (def, NULL, &ks);
  stmt = store_stmt_acquire (
      store,
      "SELECT item, pk, sk FROM dy_items WHERE tid = ?1 AND h = ?2 AND pk = ?3"
      " AND sk = ?4",
      error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, def->id);
  sqlite3_bind_int64 (stmt, 2, store_key_hash (store->pk->data, store->pk->len));
  store_bind_bytes (stmt, 3, store->pk);
  store_bind_bytes (stmt, 4, store->sk);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    *item = store_row_decode (&ks, stmt, NULL, 0, error);
  store_stmt_release (store, stmt);
  if (rc == SQLITE_DONE)
    return TRUE;
  if (rc != SQLITE_ROW)
    return store_sql_error (store, error, "read");
  return *item != NULL;
}

/* Writes the entries of `item` (whose table key encoding is `tk`) in every index of the table,
 * or only in `only`. */
gboolean
store_put_index_entries (DdbStore *store, const DdbTableDef *def, const DdbIndexDef *only,
                   const DdbValue *item, const GByteArray *tk, GError **error)
{
  for (guint i = 0; i < def->indexes->len; i++)
    {
      const DdbIndexDef *index = def->indexes->pdata[i];
      g_autoptr (DdbValue) projected = NULL;
      sqlite3_stmt *stmt;
      gint64 size;
      KeySlots ks;

      if (only != NULL && only != index)
        continue;
      projected = ddb_index_project (def, index, item);
      if (projected == NULL)
        continue; /* sparse */
      if (!store_encode_key (&index->key, projected, store->ipk, store->isk, error))
        return FALSE;
      store_key_slots (def, index, &ks);
      store_encode_keyless (&ks, projected, store->item);
      size = (gint64) ddb_item_size (projected);
      /* The item's entries were deleted first, so an entry is always new. */
      stmt = store_stmt_acquire_held (store, &store->put_index_idle,
                                "INSERT INTO dy_index"
                                " (tid, iid, h, ipk, isk, tk, size, item)"
                                " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                                error);
      if (stmt == NULL)
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, def->id);
      sqlite3_bind_int64 (stmt, 2, index->id);
      sqlite3_bind_int64 (stmt, 3, store_key_hash (store->ipk->data, store->ipk->len));
      store_bind_bytes (stmt, 4, store->ipk);
      store_bind_bytes (stmt, 5, store->isk);
      store_bind_bytes (stmt, 6, tk);
      sqlite3_bind_int64 (stmt, 7, size);
      store_bind_bytes (stmt, 8, store->item);
      if (!store_stmt_run_held (store, store->put_index_idle, stmt, error))
        return FALSE;
      store_stats_add (store, def->id, index->id, 1, size);
    }
  return TRUE;
}

static gboolean
delete_index_entries (DdbStore *store, const DdbTableDef *def, const GByteArray *tk,
                      GError **error)
{
  sqlite3_stmt *stmt = store_stmt_acquire_held (store, &store->delete_index_idle,
                                          "DELETE FROM dy_index WHERE tid = ?1 AND tk = ?2"
                                          " RETURNING iid, size",
                                          error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, def->id);
  store_bind_bytes (stmt, 2, tk);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    store_stats_add (store, def->id, sqlite3_column_int64 (stmt, 0), -1,
               -sqlite3_column_int64 (stmt, 1));
  if (rc != SQLITE_DONE)
    store_sql_error (store, error, "write");
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
  g_ptr_array_add (store->delete_index_idle, stmt);
  return rc == SQLITE_DONE;
}

static gboolean
has_indexes (const DdbTableDef *def)
{
  return def->indexes != NULL && def->indexes->len > 0;
}

/* Binds ?1..?4 to the table id and the key in store->pk/sk. */
static void
bind_item_key (DdbStore *store, sqlite3_stmt *stmt, const DdbTableDef *def)
{
  sqlite3_bind_int64 (stmt, 1, def->id);
  sqlite3_bind_int64 (stmt, 2, store_key_hash (store->pk->data, store->pk->len));
  store_bind_bytes (stmt, 3, store->pk);
  store_bind_bytes (stmt, 4, store->sk);
}

/* Replaces the stored item with key store->pk/sk by store->item of `size`; *old_size is the size
 * of the one replaced. */
static gboolean
replace_item (DdbStore *store, const DdbTableDef *def, gint64 size, gint64 *old_size,
              GError **error)
{
  sqlite3_stmt *stmt = store_stmt_acquire (store,
                                           "SELECT size FROM dy_items WHERE tid = ?1 AND h = ?2"
                                           " AND pk = ?3 AND sk = ?4",
                                           error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  bind_item_key (store, stmt, def);
  rc = sqlite3_step (stmt);
  *old_size = rc == SQLITE_ROW ? sqlite3_column_int64 (stmt, 0) : 0;
  store_stmt_release (store, stmt);
  if (rc != SQLITE_ROW)
    return store_sql_error (store, error, "write");
  stmt = store_stmt_acquire (store,
                             "UPDATE dy_items SET size = ?5, item = ?6 WHERE tid = ?1 AND h = ?2"
                             " AND pk = ?3 AND sk = ?4",
                             error);
  if (stmt == NULL)
    return FALSE;
  bind_item_key (store, stmt, def);
  sqlite3_bind_int64 (stmt, 5, size);
  store_bind_bytes (stmt, 6, store->item);
  return store_stmt_run (store, stmt, error);
}

gboolean
ddb_store_item_put (DdbStore *store, const DdbTableDef *def, const DdbValue *item,
                    GError **error)
{
  sqlite3_stmt *stmt;
  gboolean own, ok, inserted = FALSE;
  gint64 size = (gint64) ddb_item_size (item), old_size = 0;
  KeySlots ks;
  g_autoptr (DdbValue) old = NULL;
  gboolean streamed = ddb_stream_enabled (def);
  gboolean pitr = ddb_pitr_enabled (def, NULL, NULL);

  gboolean based = FALSE;

  if (!store_auto_begin (store, &own, error))
    return FALSE;
  if (!ddb_base_enabled (store, def, &based, error))
    return store_auto_end (store, own, FALSE, error);
  /* The stream's record and the PITR history want the image replaced, and a base the version
   * before its first write (this fills pk and sk too). */
  if ((streamed || pitr || based) && !ddb_store_item_get (store, def, item, &old, error))
    return store_auto_end (store, own, FALSE, error);
  if (!store_encode_key (&def->key, item, store->pk, store->sk, error))
    return store_auto_end (store, own, FALSE, error);
  if (based && !ddb_base_capture (store, def, store->pk, store->sk, old, error))
    return store_auto_end (store, own, FALSE, error);
  store_key_slots (def, NULL, &ks);
  store_encode_keyless (&ks, item, store->item);
  /* Insert first: an import's items are new, and a new item has no index entries to remove, so
   * the common case is one statement; a replacement learns the old size for the statistics. */
  stmt = store_stmt_acquire_held (store, &store->put_item_idle,
                            "INSERT INTO dy_items (tid, h, pk, sk, size, item)"
                            " VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING",
                            error);
  ok = stmt != NULL;
  if (ok)
    {
      bind_item_key (store, stmt, def);
      sqlite3_bind_int64 (stmt, 5, size);
      store_bind_bytes (stmt, 6, store->item);
      ok = store_stmt_run_held (store, store->put_item_idle, stmt, error);
      inserted = ok && sqlite3_changes (store->db) == 1;
    }
  if (ok && !inserted)
    ok = replace_item (store, def, size, &old_size, error);
  if (ok)
    store_stats_add (store, def->id, 0, inserted ? 1 : 0, size - old_size);
  if (ok && has_indexes (def))
    {
      store_concat_key (store->tk, store->pk, store->sk);
      ok = (inserted || delete_index_entries (store, def, store->tk, error))
           && store_put_index_entries (store, def, NULL, item, store->tk, error);
    }
  if (ok && streamed)
    ok = ddb_stream_record (store, def, old, item, error);
  if (ok && pitr)
    ok = ddb_pitr_record (store, def, old, item, error);
  return store_auto_end (store, own, ok, error);
}

gboolean
ddb_store_set_bulk (DdbStore *store, gboolean bulk, GError **error)
{
  g_autofree char *sql = NULL;

  if (bulk == (store->saved_cache_size != 0))
    return TRUE;
  if (bulk)
    {
      sqlite3_stmt *stmt = NULL;
      int rc = sqlite3_prepare_v2 (store->db, "PRAGMA cache_size", -1, &stmt, NULL);

      if (rc == SQLITE_OK && sqlite3_step (stmt) == SQLITE_ROW)
        store->saved_cache_size = sqlite3_column_int (stmt, 0);
      sqlite3_finalize (stmt);
      if (store->saved_cache_size == 0)
        return store_sql_error (store, error, "read");
      sql = g_strdup_printf ("PRAGMA cache_size=%d;", BULK_CACHE_KIB);
    }
  else
    {
      sql = g_strdup_printf ("PRAGMA cache_size=%d;", store->saved_cache_size);
      store->saved_cache_size = 0;
    }
  return store_exec_sql (store, sql, error);
}

gboolean
ddb_store_item_delete (DdbStore *store, const DdbTableDef *def, const DdbValue *key,
                       GError **error)
{
  sqlite3_stmt *stmt;
  gboolean own, ok, existed = FALSE;
  g_autoptr (DdbValue) old = NULL;
  gboolean streamed = ddb_stream_enabled (def);
  gboolean pitr = ddb_pitr_enabled (def, NULL, NULL);
  int rc;

  gboolean based = FALSE;

  if (!store_auto_begin (store, &own, error))
    return FALSE;
  if (!ddb_base_enabled (store, def, &based, error))
    return store_auto_end (store, own, FALSE, error);
  if ((streamed || pitr || based) && !ddb_store_item_get (store, def, key, &old, error))
    return store_auto_end (store, own, FALSE, error);
  if (!store_encode_key (&def->key, key, store->pk, store->sk, error))
    return store_auto_end (store, own, FALSE, error);
  /* Deleting an absent item changes nothing: no base version for it. */
  if (based && old != NULL && !ddb_base_capture (store, def, store->pk, store->sk, old, error))
    return store_auto_end (store, own, FALSE, error);
  stmt
      = store_stmt_acquire (store,
                            "DELETE FROM dy_items WHERE tid = ?1 AND h = ?2 AND pk = ?3 AND sk = ?4"
                            " RETURNING size",
                            error);
  ok = stmt != NULL;
  if (ok)
    {
      bind_item_key (store, stmt, def);
      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        {
          existed = TRUE;
          store_stats_add (store, def->id, 0, -1, -sqlite3_column_int64 (stmt, 0));
        }
      if (rc != SQLITE_DONE)
        ok = store_sql_error (store, error, "write");
      store_stmt_release (store, stmt);
    }
  if (ok && existed && has_indexes (def))
    {
      store_concat_key (store->tk, store->pk, store->sk);
      ok = delete_index_entries (store, def, store->tk, error);
    }
  if (ok && old != NULL)
    ok = ddb_stream_record (store, def, old, NULL, error);
  if (ok && old != NULL && pitr)
    ok = ddb_pitr_record (store, def, old, NULL, error);
  return store_auto_end (store, own, ok, error);
}

/* ---- Idempotency tokens ---- */

gboolean
ddb_store_token_get (DdbStore *store, const char *token, GBytes **digest, gint64 *created,
                     GError **error)
{
  sqlite3_stmt *stmt;
  int rc;

  *digest = NULL;
  *created = 0;
  stmt
      = store_stmt_acquire (store, "SELECT digest, created FROM dy_tokens WHERE token = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, token, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      *digest = g_bytes_new (sqlite3_column_blob (stmt, 0), (gsize) sqlite3_column_bytes (stmt, 0));
      *created = sqlite3_column_int64 (stmt, 1);
    }
  store_stmt_release (store, stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return store_sql_error (store, error, "read");
  return TRUE;
}

gboolean
ddb_store_token_put (DdbStore *store, const char *token, const void *digest, gsize digest_len,
                     gint64 created, GError **error)
{
  sqlite3_stmt *stmt;
  gboolean own, ok;

  g_return_val_if_fail (digest_len <= G_MAXINT, FALSE);
  if (!store_auto_begin (store, &own, error))
    return FALSE;
  stmt = store_stmt_acquire (store,
                             "INSERT OR REPLACE INTO dy_tokens (token, digest, created)"
                             " VALUES (?1, ?2, ?3)",
                             error);
  ok = stmt != NULL;
  if (ok)
    {
      sqlite3_bind_text (stmt, 1, token, -1, SQLITE_STATIC);
      /* Never NULL (NOT NULL column), even for an empty digest. */
      sqlite3_bind_blob (stmt, 2, digest_len > 0 ? digest : "", (int) digest_len, SQLITE_STATIC);
      sqlite3_bind_int64 (stmt, 3, created);
      ok = store_stmt_run (store, stmt, error);
    }
  return store_auto_end (store, own, ok, error);
}

gboolean
ddb_store_token_purge (DdbStore *store, gint64 before, GError **error)
{
  sqlite3_stmt *stmt;
  gboolean own, ok;

  if (!store_auto_begin (store, &own, error))
    return FALSE;
  stmt = store_stmt_acquire (store, "DELETE FROM dy_tokens WHERE created < ?1", error);
  ok = stmt != NULL;
  if (ok)
    {
      sqlite3_bind_int64 (stmt, 1, before);
      ok = store_stmt_run (store, stmt, error);
    }
  return store_auto_end (store, own, ok, error);
}
