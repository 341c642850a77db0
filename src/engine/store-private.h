/* store-private.h: what the parts of the engine's storage (store.c: catalog, items, index
 * entries; store-cursor.c: Query and Scan cursors) share. Private to them. */
#pragma once

#include <sqlite3.h>

#include "core/itemcodec.h"
#include "engine/store.h"

G_BEGIN_DECLS

struct _DdbStore {
  sqlite3 *db;
  GHashTable *pool;  /* SQL text -> GPtrArray of idle sqlite3_stmt* */
  gboolean in_txn;   /* a write transaction, or in a group the current call's savepoint */
  gboolean in_group; /* a group transaction is open (ddb_store_group_begin) */
  /* Scratch buffers of the write path, reused to spare allocations during imports. */
  GByteArray *pk, *sk, *tk, *ipk, *isk, *item;
  /* The pool's idle lists of the write path's statements (owned by the pool), held so that a
   * put does not hash its SQL text to find them. */
  GPtrArray *put_item_idle, *put_index_idle, *delete_index_idle;
  int saved_cache_size; /* during a bulk load; 0 otherwise */
  GArray *deltas;       /* StatsDelta: statistics changes of the open write transaction */
  /* Readers: parent is the writer of a reader. The writer keeps the idle readers (path NULL:
   * none, an in-memory database). */
  DdbStore *parent;
  char *path;
  GMutex readers_lock;
  GPtrArray *idle_readers;
  /* Table name -> CachedDef: definitions this connection parsed, reused while the stored text
   * is the same (every call reads a definition; parsing its JSON was a third of a GetItem). */
  GHashTable *defs;
  /* Removals are the service's own (TTL expiry): their stream records say so. */
  gboolean service_writes;
  /* Table id -> GINT_TO_POINTER (1 + has a base): what ddb_base_enabled() answered (the writer
   * only; base-store.c). Trusted within a write transaction once PRAGMA data_version shows that
   * no other connection committed since it was filled (bases_checked: checked in the open
   * transaction); bases_dirty: this transaction (or group) set or dropped a base, so a rollback
   * empties the cache. */
  GHashTable *bases;
  gint64 bases_version;
  gboolean bases_checked;
  gboolean bases_dirty;
};

/* The key attributes kept out of stored item blobs: the table's hash and range key, then (index
 * entries) the index's, each NULL when absent or already among the table's. */
typedef struct {
  const char *names[DDB_ITEM_MAX_KEY_SLOTS];
  DdbType types[DDB_ITEM_MAX_KEY_SLOTS];
  gboolean index;
} KeySlots;

/* Sets *error from the connection's last error, "what" naming the step; returns FALSE. */
gboolean store_sql_error (DdbStore *store, GError **error, const char *what);
/* A prepared statement of `sql` from the pool (prepared when none is idle), to give back with
 * store_stmt_release(). */
sqlite3_stmt *store_stmt_acquire (DdbStore *store, const char *sql, GError **error);
void store_stmt_release (DdbStore *store, sqlite3_stmt *stmt);

/* The 32-bit hash of an encoded partition key (the h column). */
guint32 store_key_hash (const guint8 *data, gsize len);
/* The key encoding of ITEM's attribute NAME (a missing one is an internal error). */
gboolean store_encode_attr (const DdbValue *item, const char *name, GByteArray *out,
                            GError **error);
/* Fills pk and sk (emptied first) with the encodings of `key`'s attributes in `item`. */
gboolean store_encode_key (const DdbKeyDef *key, const DdbValue *item, GByteArray *pk,
                           GByteArray *sk, GError **error);
/* out = pk || sk: a table key (tk). */
void store_concat_key (GByteArray *out, const GByteArray *pk, const GByteArray *sk);
void store_key_slots (const DdbTableDef *def, const DdbIndexDef *index, KeySlots *ks);
/* The item of a row selected as (item, pk, sk) from dy_items or (item, tk, ipk, isk) from
 * dy_index, its key attributes decoded from the key columns; with `wanted`, only the key
 * attributes and those n_wanted attributes (ddb_item_decode_keyed_some). */
DdbValue *store_row_decode (const KeySlots *ks, sqlite3_stmt *stmt, const char *const *wanted,
                            guint n_wanted, GError **error);

/* A table definition as a connection caches it (store->defs, by name). */
typedef struct {
  gint64 id;
  gint64 next_index_id;
  char *text;
  DdbTableDef *def;
} CachedDef;

/* A change to a table's or index's figures, held until the commit writes dy_stats. */
typedef struct {
  gint64 tid, iid, count, size;
} StatsDelta;

/* Shared by store.c, store-catalog.c and store-items.c. */
/* The dy_stats row of a new table (iid 0) or index; forgetting drops the held deltas of a
 * table (iid -1: and all its indexes). */
gboolean store_stats_create (DdbStore *store, gint64 tid, gint64 iid, GError **error);
void store_stats_forget (DdbStore *store, gint64 tid, gint64 iid);
gboolean store_exec_sql (DdbStore *store, const char *sql, GError **error);
gboolean store_stmt_run (DdbStore *store, sqlite3_stmt *stmt, GError **error);
/* A statement held apart from the pool (in `idle`) for a bulk import's many runs. */
sqlite3_stmt *store_stmt_acquire_held (DdbStore *store, GPtrArray **idle, const char *sql,
                                       GError **error);
gboolean store_stmt_run_held (DdbStore *store, GPtrArray *idle, sqlite3_stmt *stmt,
                              GError **error);
void store_bind_bytes (sqlite3_stmt *stmt, int i, const GByteArray *b);
/* The item without its key attributes, as the item column holds it. */
void store_encode_keyless (const KeySlots *ks, const DdbValue *item, GByteArray *out);
/* A transaction of its own unless one is open (*own tells); store_auto_end commits or rolls
 * back what store_auto_begin began, and returns `ok`. */
gboolean store_auto_begin (DdbStore *store, gboolean *own, GError **error);
gboolean store_auto_end (DdbStore *store, gboolean own, gboolean ok, GError **error);
/* Counts `count` items of `size` bytes more (or less) for a table (iid 0) or an index. */
void store_stats_add (DdbStore *store, gint64 tid, gint64 iid, gint64 count, gint64 size);
/* The index entries of `item` (at table key `tk`) in every index, or only in `only`. */
gboolean store_put_index_entries (DdbStore *store, const DdbTableDef *def,
                                  const DdbIndexDef *only, const DdbValue *item,
                                  const GByteArray *tk, GError **error);

/* base-store.c: the writer's cache of ddb_base_enabled(): a new write transaction checks it
 * again (top: a BEGIN of its own or of a group); the end of one forgets it when the transaction
 * changed a base and did not commit (committed: FALSE). */
void store_bases_txn_begin (DdbStore *store);
void store_bases_txn_end (DdbStore *store, gboolean committed);
/* A savepoint (one call of a group) was rolled back. */
void store_bases_savepoint_rollback (DdbStore *store);
/* Table `tid` is new: no cached answer may outlive an earlier table of that id. */
void store_bases_forget (DdbStore *store, gint64 tid);

G_END_DECLS
