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

G_END_DECLS
