/* store.c: the engine's SQLite storage: opening, connections, transactions and statistics (the
 * catalog is store-catalog.c, the items store-items.c, the cursors store-cursor.c).
 *
 * Schema (PRAGMA user_version 2; older formats are refused, nothing has shipped with them):
 *   dy_tables(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, def TEXT)
 *     def is the JSON of the DdbTableDef (key schema, indexes with their ids, meta) plus the
 *     next index id; AUTOINCREMENT so a dropped table's id is never given again (a stale
 *     cursor or cached definition can then never see another table's rows).
 *   dy_items(tid, h, pk, sk, size, item) PRIMARY KEY (tid, h, pk, sk) WITHOUT ROWID
 *     pk, sk: the key codec's encodings (sk empty without a sort key), so memcmp order is
 *     DynamoDB's key order. h: a 32-bit hash of pk, so a Scan walks partitions in hash order
 *     as DynamoDB does and parallel Scan segment i of N is the h range
 *     [i * 2^32 / N, (i + 1) * 2^32 / N): every partition (hence every item) falls in exactly one
 *     segment. size: ddb_item_size() of the item.
 *     item: the item codec's keyless encoding of the item (ddb_item_encode_keyless): the key
 *     attributes, already in pk and sk, leave a two-byte placeholder, and are decoded back from
 *     pk/sk, so the item comes back whole with its attribute order (about 15% smaller files).
 *   dy_index(tid, iid, h, ipk, isk, tk, size, item) PRIMARY KEY (tid, iid, h, ipk, isk, tk)
 *     WITHOUT ROWID: one row per (index, item having the index's key attributes) holding the
 *     projected item. ipk/isk are the index key's encodings, h the hash of ipk, tk the table
 *     key (pk || sk: the encodings are self-delimiting so the concatenation sorts as the pair),
 *     so a Query walks (index sort key, table key) in order, as DynamoDB breaks ties.
 *     dy_index_by_item (tid, tk) finds an item's entries to replace them on a write. item is
 *     keyless too: table key attributes come back from tk, index key attributes from ipk/isk.
 *   dy_stats(tid, iid, count, size) PRIMARY KEY (tid, iid) WITHOUT ROWID: running item count
 *     and total size of each table (iid 0) and index, so DescribeTable needs no pass over the
 *     items. Writes add their changes to in-memory deltas that are written by the commit, in
 *     the same transaction (an import of a million items updates the row once).
 *   dy_tokens(token TEXT PRIMARY KEY, digest BLOB, created INTEGER) WITHOUT ROWID, with
 *     dy_tokens_by_created: TransactWriteItems' ClientRequestTokens (ddb_store_token_*), apart
 *     from every table.
 *   dy_bases, dy_base_items: a snapshot's base and its items' base versions (base-store.c);
 *   the streams' tables: stream-store.c. Both are created on every open when absent.
 *
 * Concurrency: one writer connection, used under the engine's lock (on a file database, in
 * groups: ddb_store_group_begin holds one transaction over many calls, each in a savepoint of its
 * own, and ddb_store_group_end commits them together); for a file database, a pool
 * of read connections, each handed to one read-only call at a time and holding one read
 * transaction for the whole call (ddb_store_reader_acquire), so a call sees one consistent
 * snapshot and reads go on while the writer writes (WAL). An in-memory database (":memory:")
 * has no readers: its connection is private, and a shared-cache in-memory database would give
 * table-level locks instead of snapshots, so read calls there stay serialized with writes.
 *
 * Statements are prepared once and pooled by SQL text; a cursor takes one from the pool for its
 * lifetime, so several cursors (and writes) can be active at once. SQL text is only ever made of
 * the fixed fragments below: every value is bound. */
#include <string.h>

#include "core/error.h"
#include "engine/store-private.h"
#include "engine/base-store.h"
#include "engine/stream-store.h"
#include "engine/pitr-store.h"
#include "engine/export-store.h"
#include "core/itemsize.h"
#include "core/keycodec.h"

#define SCHEMA_VERSION 2
/* Page cache during a bulk load (negative: KiB), so that a big import's pages are not spilled to
 * the WAL and written again each time they change. */

static const char schema_sql[]
  = "CREATE TABLE IF NOT EXISTS dy_tables ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " name TEXT UNIQUE NOT NULL,"
    " def TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS dy_items ("
    " tid INTEGER NOT NULL, h INTEGER NOT NULL, pk BLOB NOT NULL, sk BLOB NOT NULL,"
    " size INTEGER NOT NULL, item BLOB NOT NULL,"
    " PRIMARY KEY (tid, h, pk, sk)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS dy_index ("
    " tid INTEGER NOT NULL, iid INTEGER NOT NULL, h INTEGER NOT NULL,"
    " ipk BLOB NOT NULL, isk BLOB NOT NULL, tk BLOB NOT NULL,"
    " size INTEGER NOT NULL, item BLOB NOT NULL,"
    " PRIMARY KEY (tid, iid, h, ipk, isk, tk)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS dy_index_by_item ON dy_index (tid, tk);"
    "CREATE TABLE IF NOT EXISTS dy_stats ("
    " tid INTEGER NOT NULL, iid INTEGER NOT NULL, count INTEGER NOT NULL,"
    " size INTEGER NOT NULL, PRIMARY KEY (tid, iid)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS dy_tokens ("
    " token TEXT PRIMARY KEY NOT NULL, digest BLOB NOT NULL, created INTEGER NOT NULL)"
    " WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS dy_tokens_by_created ON dy_tokens (created);";

/* ---- Errors and statements ---- */

gboolean
store_sql_error (DdbStore *store, GError **error, const char *what)
{
  g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL, "Storage error (%s): %s", what,
               sqlite3_errmsg (store->db));
  return FALSE;
}

static void
stmt_array_free (gpointer data)
{
  GPtrArray *stmts = data;

  for (guint i = 0; i < stmts->len; i++)
    sqlite3_finalize (stmts->pdata[i]);
  g_ptr_array_unref (stmts);
}

sqlite3_stmt *
store_stmt_acquire (DdbStore *store, const char *sql, GError **error)
{
  GPtrArray *idle = g_hash_table_lookup (store->pool, sql);
  sqlite3_stmt *stmt = NULL;

  if (idle != NULL && idle->len > 0)
    return g_ptr_array_steal_index_fast (idle, idle->len - 1);

  if (sqlite3_prepare_v3 (store->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK)
    {
      store_sql_error (store, error, "prepare");
      sqlite3_finalize (stmt);
      return NULL;
    }
  return stmt;
}

void
store_stmt_release (DdbStore *store, sqlite3_stmt *stmt)
{
  const char *sql;
  GPtrArray *idle;

  if (stmt == NULL)
    return;
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
  sql = sqlite3_sql (stmt);
  idle = g_hash_table_lookup (store->pool, sql);
  if (idle == NULL)
    {
      idle = g_ptr_array_new ();
      g_hash_table_insert (store->pool, g_strdup (sql), idle);
    }
  g_ptr_array_add (idle, stmt);
}

/* The pool's idle list for `sql`, created empty if there is none yet. */
static GPtrArray *
pool_list (DdbStore *store, const char *sql)
{
  GPtrArray *idle = g_hash_table_lookup (store->pool, sql);

  if (idle == NULL)
    {
      idle = g_ptr_array_new ();
      g_hash_table_insert (store->pool, g_strdup (sql), idle);
    }
  return idle;
}

/* store_stmt_acquire() through a held idle list (*idle is filled on first use). */
sqlite3_stmt *
store_stmt_acquire_held (DdbStore *store, GPtrArray **idle, const char *sql, GError **error)
{
  if (*idle == NULL)
    *idle = pool_list (store, sql);
  if ((*idle)->len > 0)
    return g_ptr_array_steal_index_fast (*idle, (*idle)->len - 1);
  return store_stmt_acquire (store, sql, error);
}

/* store_stmt_run() releasing to a held idle list. */
gboolean
store_stmt_run_held (DdbStore *store, GPtrArray *idle, sqlite3_stmt *stmt, GError **error)
{
  int rc = sqlite3_step (stmt);
  gboolean ok = rc == SQLITE_DONE || rc == SQLITE_ROW;

  if (!ok)
    store_sql_error (store, error, "write");
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
  g_ptr_array_add (idle, stmt);
  return ok;
}

gboolean
store_exec_sql (DdbStore *store, const char *sql, GError **error)
{
  char *msg = NULL;

  if (sqlite3_exec (store->db, sql, NULL, NULL, &msg) != SQLITE_OK)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL, "Storage error: %s",
                   msg != NULL ? msg : sqlite3_errmsg (store->db));
      sqlite3_free (msg);
      return FALSE;
    }
  return TRUE;
}

/* Steps a statement that returns no row (or whose rows are not wanted), then releases it. */
gboolean
store_stmt_run (DdbStore *store, sqlite3_stmt *stmt, GError **error)
{
  int rc = sqlite3_step (stmt);
  gboolean ok = rc == SQLITE_DONE || rc == SQLITE_ROW;

  if (!ok)
    store_sql_error (store, error, "write");
  store_stmt_release (store, stmt);
  return ok;
}

/* A statement without parameters, prepared once. */
static gboolean
run_cached (DdbStore *store, const char *sql, GError **error)
{
  sqlite3_stmt *stmt = store_stmt_acquire (store, sql, error);

  return stmt != NULL && store_stmt_run (store, stmt, error);
}

void
store_bind_bytes (sqlite3_stmt *stmt, int i, const GByteArray *b)
{
  /* A zero-length blob must stay a blob (not NULL) to compare equal to the stored x''. */
  sqlite3_bind_blob (stmt, i, b->len > 0 ? (const void *) b->data : "", (int) b->len,
                     SQLITE_STATIC);
}

/* ---- Keys ---- */

guint32
store_key_hash (const guint8 *data, gsize len)
{
  guint32 h = 2166136261u;

  /* FNV-1a then murmur3's finalizer: cheap, stable across versions and well spread, so
   * parallel Scan segments get even shares of the partitions. */
  for (gsize i = 0; i < len; i++)
    {
      h ^= data[i];
      h *= 16777619u;
    }
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

gboolean
store_encode_attr (const DdbValue *item, const char *name, GByteArray *out, GError **error)
{
  const DdbValue *v = ddb_value_map_get (item, name);

  if (v == NULL)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL, "Key attribute %s is missing", name);
      return FALSE;
    }
  return ddb_key_encode (v, out, error);
}

/* Fills pk and sk (emptied first) with the encodings of `key`'s attributes in `item`. */
gboolean
store_encode_key (const DdbKeyDef *key, const DdbValue *item, GByteArray *pk, GByteArray *sk,
                  GError **error)
{
  g_byte_array_set_size (pk, 0);
  g_byte_array_set_size (sk, 0);
  if (!store_encode_attr (item, key->hash_name, pk, error))
    return FALSE;
  if (key->range_name != NULL && !store_encode_attr (item, key->range_name, sk, error))
    return FALSE;
  return TRUE;
}

void
store_concat_key (GByteArray *out, const GByteArray *pk, const GByteArray *sk)
{
  g_byte_array_set_size (out, 0);
  g_byte_array_append (out, pk->data, pk->len);
  g_byte_array_append (out, sk->data, sk->len);
}

/* ---- Keyless item blobs ---- */

void
store_key_slots (const DdbTableDef *def, const DdbIndexDef *index, KeySlots *ks)
{
  memset (ks, 0, sizeof *ks);
  ks->names[0] = def->key.hash_name;
  ks->types[0] = def->key.hash_type;
  ks->names[1] = def->key.range_name;
  ks->types[1] = def->key.range_type;
  ks->index = index != NULL;
  if (index != NULL)
    {
      const char *in[2] = { index->key.hash_name, index->key.range_name };
      DdbType it[2] = { index->key.hash_type, index->key.range_type };

      for (guint i = 0; i < 2; i++)
        {
          gboolean dup = in[i] == NULL;

          for (guint k = 0; !dup && k < 2; k++)
            dup = ks->names[k] != NULL && strcmp (ks->names[k], in[i]) == 0;
          if (!dup)
            {
              ks->names[2 + i] = in[i];
              ks->types[2 + i] = it[i];
            }
        }
    }
}

void
store_encode_keyless (const KeySlots *ks, const DdbValue *item, GByteArray *out)
{
  g_byte_array_set_size (out, 0);
  ddb_item_encode_keyless (item, ks->names, DDB_ITEM_MAX_KEY_SLOTS, out);
}

/* Decodes key slot `slot` from [*p, end), advancing *p; `whole`: the value must fill it. */
static gboolean
slot_decode (const KeySlots *ks, guint slot, const guint8 **p, const guint8 *end,
             gboolean whole, DdbValue **values, GError **error)
{
  gsize used = 0;

  values[slot] = ddb_key_decode (ks->types[slot], *p, (gsize) (end - *p), &used, error);
  if (values[slot] == NULL)
    return FALSE;
  *p += used;
  if (whole && *p != end)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                           "Malformed stored item: trailing key bytes");
      return FALSE;
    }
  return TRUE;
}

static const guint8 *
column_bytes (sqlite3_stmt *stmt, int col, const guint8 **end)
{
  const guint8 *p = sqlite3_column_blob (stmt, col);
  int n = sqlite3_column_bytes (stmt, col);

  if (p == NULL)
    p = (const guint8 *) "";
  *end = p + n;
  return p;
}

DdbValue *
store_row_decode (const KeySlots *ks, sqlite3_stmt *stmt, const char *const *wanted, guint n_wanted,
                  GError **error)
{
  DdbValue *values[DDB_ITEM_MAX_KEY_SLOTS] = { NULL };
  const guint8 *p, *end, *blob;
  gboolean ok;

  p = column_bytes (stmt, 1, &end);
  ok = slot_decode (ks, 0, &p, end, ks->names[1] == NULL || !ks->index, values, error);
  if (ok && ks->names[1] != NULL)
    {
      if (!ks->index)
        p = column_bytes (stmt, 2, &end);
      ok = slot_decode (ks, 1, &p, end, TRUE, values, error);
    }
  for (guint i = 2; ok && i < DDB_ITEM_MAX_KEY_SLOTS; i++)
    if (ks->names[i] != NULL)
      {
        p = column_bytes (stmt, (int) i, &end);
        ok = slot_decode (ks, i, &p, end, TRUE, values, error);
      }
  if (!ok)
    {
      for (guint i = 0; i < DDB_ITEM_MAX_KEY_SLOTS; i++)
        g_clear_pointer (&values[i], ddb_value_free);
      return NULL;
    }
  blob = column_bytes (stmt, 0, &end);
  return ddb_item_decode_keyed_some (blob, (gsize) (end - blob), ks->names, values,
                                     DDB_ITEM_MAX_KEY_SLOTS, wanted, n_wanted, error);
}

/* ---- Open, close, transactions ---- */

static void
cached_def_free (gpointer data)
{
  CachedDef *cached = data;

  g_free (cached->text);
  ddb_table_def_free (cached->def);
  g_free (cached);
}

/* A store with its buffers and statement pool, no connection yet. */
static DdbStore *
store_new (void)
{
  DdbStore *store = g_new0 (DdbStore, 1);

  store->pool = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, stmt_array_free);
  store->pk = g_byte_array_new ();
  store->sk = g_byte_array_new ();
  store->tk = g_byte_array_new ();
  store->ipk = g_byte_array_new ();
  store->isk = g_byte_array_new ();
  store->item = g_byte_array_new ();
  store->deltas = g_array_new (FALSE, FALSE, sizeof (StatsDelta));
  store->defs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, cached_def_free);
  store->bases = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  store->bases_version = -1;
  g_mutex_init (&store->readers_lock);
  return store;
}

static gboolean
store_connect (DdbStore *store, const char *path, int flags, GError **error)
{
  if (sqlite3_open_v2 (path, &store->db, flags, NULL) != SQLITE_OK)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL, "Cannot open the database %s: %s", path,
                   store->db != NULL ? sqlite3_errmsg (store->db) : "out of memory");
      return FALSE;
    }
  sqlite3_extended_result_codes (store->db, 1);
  /* A reader can meet SQLITE_BUSY too (WAL recovery, a checkpoint resetting the log): wait. */
  sqlite3_busy_timeout (store->db, 10000);
  return TRUE;
}

/* ":memory:", "" (a private temporary database) and memory URIs cannot be opened twice. */
static gboolean
path_is_shareable (const char *path)
{
  return path[0] != '\0' && strcmp (path, ":memory:") != 0 && !g_str_has_prefix (path, "file:");
}

DdbStore *
ddb_store_open (const char *path, GError **error)
{
  DdbStore *store = store_new ();
  sqlite3_stmt *stmt = NULL;
  int version = -1;

  if (!store_connect (store, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, error))
    goto fail;

  /* WAL: readers in other processes go on while we write. synchronous=FULL: a commit is
   * fsynced before it returns, so an acknowledged write survives kill -9 and power loss. */
  if (!store_exec_sql (store, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                        " PRAGMA foreign_keys=OFF; PRAGMA cache_size=-32768;"
                        " PRAGMA temp_store=MEMORY;", error))
    goto fail;

  if (sqlite3_prepare_v2 (store->db, "PRAGMA user_version", -1, &stmt, NULL) != SQLITE_OK
      || sqlite3_step (stmt) != SQLITE_ROW)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL, "Cannot open the database %s: %s", path,
                   sqlite3_errmsg (store->db));
      sqlite3_finalize (stmt);
      goto fail;
    }
  version = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  if (version > SCHEMA_VERSION)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                   "The database %s was written by a newer version of Dynoscope (format %d)",
                   path, version);
      goto fail;
    }
  if (version > 0 && version < SCHEMA_VERSION)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                   "The database %s was written by an older development version of Dynoscope"
                   " (format %d, this version reads format %d); import its tables again into"
                   " a new database",
                   path, version, SCHEMA_VERSION);
      goto fail;
    }
  if (version < SCHEMA_VERSION)
    {
      g_autofree char *sql = g_strdup_printf ("BEGIN IMMEDIATE; %s PRAGMA user_version=%d; COMMIT;",
                                              schema_sql, SCHEMA_VERSION);

      if (!store_exec_sql (store, sql, error))
        {
          store_exec_sql (store, "ROLLBACK", NULL);
          goto fail;
        }
    }
  if (!ddb_stream_store_init (store, error) || !ddb_base_store_init (store, error)
      || !ddb_pitr_store_init (store, error) || !ddb_export_store_init (store, error))
    goto fail;
  if (path_is_shareable (path))
    {
      store->path = g_strdup (path);
      store->idle_readers = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_store_free);
    }
  return store;

fail:
  ddb_store_free (store);
  return NULL;
}

void
ddb_store_free (DdbStore *store)
{
  if (store == NULL)
    return;
  if (store->parent == NULL)
    ddb_store_rollback (store);
  else if (store->in_txn)
    store_exec_sql (store, "ROLLBACK", NULL);
  /* Readers first: the database file must outlive none of its connections' statements. */
  g_clear_pointer (&store->idle_readers, g_ptr_array_unref);
  g_clear_pointer (&store->pool, g_hash_table_unref);
  if (store->db != NULL)
    sqlite3_close (store->db);
  g_byte_array_unref (store->pk);
  g_byte_array_unref (store->sk);
  g_byte_array_unref (store->tk);
  g_byte_array_unref (store->ipk);
  g_byte_array_unref (store->isk);
  g_byte_array_unref (store->item);
  g_array_unref (store->deltas);
  g_hash_table_unref (store->defs);
  g_hash_table_unref (store->bases);
  g_mutex_clear (&store->readers_lock);
  g_free (store->path);
  g_free (store);
}

DdbStore *
ddb_store_reader_acquire (DdbStore *store, GError **error)
{
  DdbStore *reader = NULL;

  g_return_val_if_fail (store->parent == NULL, NULL);
  if (store->path == NULL)
    return NULL;
  g_mutex_lock (&store->readers_lock);
  if (store->idle_readers->len > 0)
    reader = g_ptr_array_steal_index_fast (store->idle_readers, store->idle_readers->len - 1);
  g_mutex_unlock (&store->readers_lock);

  if (reader == NULL)
    {
      reader = store_new ();
      reader->parent = store;
      /* query_only: a reader that was asked to write fails instead of taking the write lock.
       * NOMUTEX: a reader serves one call, on one thread, at a time, so SQLite's own lock on
       * every step and column read would only cost. */
      if (!store_connect (reader, store->path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, error)
          || !store_exec_sql (reader, "PRAGMA query_only=1; PRAGMA cache_size=-8192;", error))
        {
          ddb_store_free (reader);
          return NULL;
        }
    }
  /* Deferred: the snapshot is taken by the call's first read and kept to its end. Prepared
   * once: a GetItem is not much more than this. */
  if (!run_cached (reader, "BEGIN DEFERRED", error))
    {
      ddb_store_free (reader);
      return NULL;
    }
  reader->in_txn = TRUE;
  return reader;
}

void
ddb_store_reader_release (DdbStore *store, DdbStore *reader)
{
  g_return_if_fail (reader->parent == store);
  if (!run_cached (reader, "COMMIT", NULL))
    {
      /* A connection in an unknown state is not reused. */
      ddb_store_free (reader);
      return;
    }
  reader->in_txn = FALSE;
  g_mutex_lock (&store->readers_lock);
  g_ptr_array_add (store->idle_readers, reader);
  g_mutex_unlock (&store->readers_lock);
}

static gboolean stats_flush (DdbStore *store, GError **error);

/* On a reader the whole call is one read transaction already, so begin and commit have nothing
 * to do (and a write fails: the connection is query_only). */
gboolean
ddb_store_begin (DdbStore *store, GError **error)
{
  if (store->parent != NULL)
    return TRUE;
  if (store->in_txn)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                           "Storage error: a transaction is already open");
      return FALSE;
    }
  /* Outside a transaction SAVEPOINT would begin one of its own, which RELEASE commits at once:
   * after SQLite ended the group's transaction (I/O error, full disk), a write would then be
   * committed on its own while its call is answered with the group's failure. */
  if (store->in_group && sqlite3_get_autocommit (store->db) != 0)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                           "Storage error: the write transaction was rolled back");
      return FALSE;
    }
  if (!run_cached (store, store->in_group ? "SAVEPOINT call" : "BEGIN IMMEDIATE", error))
    return FALSE;
  if (!store->in_group)
    store_bases_txn_begin (store);
  store->in_txn = TRUE;
  return TRUE;
}

gboolean
ddb_store_commit (DdbStore *store, GError **error)
{
  if (store->parent != NULL)
    return TRUE;
  if (!store->in_txn)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                           "Storage error: no transaction to commit");
      return FALSE;
    }
  if (!stats_flush (store, error)
      || !run_cached (store, store->in_group ? "RELEASE call" : "COMMIT", error))
    {
      /* Leave nothing half-done behind: the caller sees the failure and nothing is written. */
      ddb_store_rollback (store);
      return FALSE;
    }
  if (!store->in_group)
    store_bases_txn_end (store, TRUE);
  store->in_txn = FALSE;
  return TRUE;
}

/* No-op when no transaction is open, so callers may use it for cleanup unconditionally. */
void
ddb_store_rollback (DdbStore *store)
{
  if (store->parent != NULL)
    return;
  g_array_set_size (store->deltas, 0);
  if (!store->in_txn)
    return;
  if (!store->in_group)
    store_bases_txn_end (store, FALSE);
  else
    store_bases_savepoint_rollback (store);
  if (sqlite3_get_autocommit (store->db) == 0)
    {
      if (!store->in_group)
        store_exec_sql (store, "ROLLBACK", NULL);
      /* Only this call's writes go; the group's earlier calls stay. */
      else if (!run_cached (store, "ROLLBACK TO call", NULL)
               || !run_cached (store, "RELEASE call", NULL))
        store_exec_sql (store, "ROLLBACK", NULL);
    }
  store->in_txn = FALSE;
}

gboolean
ddb_store_group_begin (DdbStore *store, GError **error)
{
  g_return_val_if_fail (store->parent == NULL && !store->in_txn && !store->in_group, FALSE);
  if (!run_cached (store, "BEGIN IMMEDIATE", error))
    return FALSE;
  store_bases_txn_begin (store);
  store->in_group = TRUE;
  return TRUE;
}

gboolean
ddb_store_group_lost (DdbStore *store)
{
  return store->in_group && sqlite3_get_autocommit (store->db) != 0;
}

gboolean
ddb_store_group_end (DdbStore *store, GError **error)
{
  g_return_val_if_fail (store->in_group && !store->in_txn, FALSE);
  store->in_group = FALSE;
  if (sqlite3_get_autocommit (store->db) != 0)
    {
      store_bases_txn_end (store, FALSE);
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                           "Storage error: the write transaction was rolled back");
      return FALSE;
    }
  if (!run_cached (store, "COMMIT", error))
    {
      store_bases_txn_end (store, FALSE);
      if (sqlite3_get_autocommit (store->db) == 0)
        store_exec_sql (store, "ROLLBACK", NULL);
      return FALSE;
    }
  store_bases_txn_end (store, TRUE);
  return TRUE;
}

gboolean
ddb_store_has_readers (DdbStore *store)
{
  return store->path != NULL;
}

/* Writes made outside an explicit transaction get their own, so an item and its index entries
 * are always written together. */
gboolean
store_auto_begin (DdbStore *store, gboolean *own, GError **error)
{
  *own = !store->in_txn;
  return !*own || ddb_store_begin (store, error);
}

gboolean
store_auto_end (DdbStore *store, gboolean own, gboolean ok, GError **error)
{
  if (!own)
    return ok;
  if (!ok)
    {
      ddb_store_rollback (store);
      return FALSE;
    }
  return ddb_store_commit (store, error);
}

/* ---- Statistics ---- */

void
store_stats_add (DdbStore *store, gint64 tid, gint64 iid, gint64 count, gint64 size)
{
  StatsDelta d = { tid, iid, count, size };

  /* A transaction touches few tables and indexes: a short list searched from its end. */
  for (guint i = store->deltas->len; i-- > 0;)
    {
      StatsDelta *e = &g_array_index (store->deltas, StatsDelta, i);

      if (e->tid == tid && e->iid == iid)
        {
          e->count += count;
          e->size += size;
          return;
        }
    }
  g_array_append_val (store->deltas, d);
}

/* Drops the pending changes of a table (iid < 0: and of all its indexes) being dropped. */
void
store_stats_forget (DdbStore *store, gint64 tid, gint64 iid)
{
  for (guint i = store->deltas->len; i-- > 0;)
    {
      StatsDelta *e = &g_array_index (store->deltas, StatsDelta, i);

      if (e->tid == tid && (iid < 0 || e->iid == iid))
        g_array_remove_index_fast (store->deltas, i);
    }
}

static gboolean
stats_flush (DdbStore *store, GError **error)
{
  for (guint i = 0; i < store->deltas->len; i++)
    {
      const StatsDelta *d = &g_array_index (store->deltas, StatsDelta, i);
      sqlite3_stmt *stmt;

      if (d->count == 0 && d->size == 0)
        continue;
      stmt = store_stmt_acquire (store,
                                 "UPDATE dy_stats SET count = count + ?3, size = size + ?4"
                                 " WHERE tid = ?1 AND iid = ?2",
                                 error);
      if (stmt == NULL)
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, d->tid);
      sqlite3_bind_int64 (stmt, 2, d->iid);
      sqlite3_bind_int64 (stmt, 3, d->count);
      sqlite3_bind_int64 (stmt, 4, d->size);
      if (!store_stmt_run (store, stmt, error))
        return FALSE;
    }
  g_array_set_size (store->deltas, 0);
  return TRUE;
}

/* Adds the zero statistics row of a new table (iid 0) or index. */
gboolean
store_stats_create (DdbStore *store, gint64 tid, gint64 iid, GError **error)
{
  sqlite3_stmt *stmt = store_stmt_acquire (store,
                                           "INSERT OR REPLACE INTO dy_stats (tid, iid, count, size)"
                                           " VALUES (?1, ?2, 0, 0)",
                                           error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, tid);
  sqlite3_bind_int64 (stmt, 2, iid);
  return store_stmt_run (store, stmt, error);
}
