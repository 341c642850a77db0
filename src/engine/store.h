/* store.h: the engine's SQLite storage: the catalog of tables, items, and index entries, read
 * through cursors in DynamoDB's order. Private to src/engine; knows nothing of the API's JSON.
 *
 * Layout (see store.c): items are rows keyed by (table id, hash of the encoded partition key,
 * encoded partition key, encoded sort key) with the keys in the core's key codec, so SQLite's
 * memcmp order of BLOBs is DynamoDB's key order within a partition, and a Scan walks partitions
 * in hash order as DynamoDB does (which is also what splits a parallel Scan into segments).
 * Index entries are rows of their own holding the projected item. */
#pragma once

#include <glib.h>

#include "engine/table.h"

G_BEGIN_DECLS

typedef struct _DdbStore DdbStore;
typedef struct _DdbStoreCursor DdbStoreCursor;

/* Opens or creates the database (WAL, synchronous=FULL: a committed write survives kill -9). */
DdbStore *ddb_store_open (const char *path, GError **error);
void ddb_store_free (DdbStore *store);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbStore, ddb_store_free)

/* Read connections (file databases only): a reader is a store of its own connection holding one
 * read transaction (one snapshot) from acquire to release, for one read-only call at a time;
 * reads through it go on while the writer writes. Returns NULL without an error when the
 * database has no readers (in memory: use the store itself, under the engine's lock). On a
 * reader, begin and commit do nothing and writes fail. */
DdbStore *ddb_store_reader_acquire (DdbStore *store, GError **error);
void ddb_store_reader_release (DdbStore *store, DdbStore *reader);

/* Write transactions (BEGIN IMMEDIATE). Every item or catalog write happens inside one; reads
 * outside a transaction see committed data. Nested begin is an error. */
gboolean ddb_store_begin (DdbStore *store, GError **error);
gboolean ddb_store_commit (DdbStore *store, GError **error);
void ddb_store_rollback (DdbStore *store);

/* Group commit: between group_begin and group_end the writer holds one transaction, and each
 * begin/commit/rollback above is a savepoint inside it (released, or rolled back alone), so that
 * many calls share one COMMIT (one fsync). Nothing of the group is durable before group_end
 * returns TRUE; on failure the whole group is rolled back. */
gboolean ddb_store_group_begin (DdbStore *store, GError **error);
gboolean ddb_store_group_end (DdbStore *store, GError **error);
/* TRUE when SQLite ended the group's transaction by itself (an I/O error or a full disk rolls
 * back the whole transaction): what the group wrote so far is gone, and the group is over. */
gboolean ddb_store_group_lost (DdbStore *store);
/* FALSE for an in-memory database: it has no read connections (and nothing to fsync). */
gboolean ddb_store_has_readers (DdbStore *store);

/* ---- Catalog ---- */

/* Adds a table (assigns def->id and the index ids). ResourceInUseException if the name exists. */
gboolean ddb_store_table_create (DdbStore *store, DdbTableDef *def, GError **error);
/* A copy of the table's definition; ResourceNotFoundException if absent. */
DdbTableDef *ddb_store_table_get (DdbStore *store, const char *name, GError **error);
/* Rewrites the definition (same id); new indexes (id 0) get ids and are filled from the items. */
gboolean ddb_store_table_update (DdbStore *store, DdbTableDef *def, GError **error);
/* Drops the table, its items and index entries. */
gboolean ddb_store_table_delete (DdbStore *store, const DdbTableDef *def, GError **error);
/* Table names in order (UTF-8 bytes) after `exclusive_start` (or from the first), at most
 * `limit` (0: all). */
GPtrArray *ddb_store_table_names (DdbStore *store, const char *exclusive_start, guint limit,
                                  GError **error);
/* Item count and total size (bytes, as ddb_item_size counts) of a table or one index: running
 * totals kept by every write, including the open transaction's. */
gboolean ddb_store_table_stats (DdbStore *store, const DdbTableDef *def, const DdbIndexDef *index,
                                gint64 *item_count, gint64 *size_bytes, GError **error);

/* ---- Items ---- */

/* The item with the key attributes of `key` (a map; other attributes ignored), or *item = NULL
 * if there is none. Key attributes must be present and of the schema's types (callers check). */
gboolean ddb_store_item_get (DdbStore *store, const DdbTableDef *def, const DdbValue *key,
                             DdbValue **item, GError **error);
/* Inserts or replaces the item (whole), and updates every index entry. Inside a transaction;
 * imports put many items in one transaction, so this must stay fast (cached statements). */
gboolean ddb_store_item_put (DdbStore *store, const DdbTableDef *def, const DdbValue *item,
                             GError **error);
/* Bulk load (an import: many puts in one transaction) on or off: a larger page cache while on.
 * Durability is unchanged, commits still wait for the disk. */
gboolean ddb_store_set_bulk (DdbStore *store, gboolean bulk, GError **error);
/* Deletes the item and its index entries; no error if absent. Inside a transaction. */
gboolean ddb_store_item_delete (DdbStore *store, const DdbTableDef *def, const DdbValue *key,
                                GError **error);

/* ---- Idempotency tokens ---- */

/* ClientRequestToken records of TransactWriteItems, in a table of their own (no API call can
 * reach them): the digest of the request a token carried, and when (`created`, on the caller's
 * clock; the store only compares it). A put inside a write transaction is committed exactly with
 * that transaction's writes, so a token is remembered if and only if its writes are. */

/* The token's digest and time, or *digest = NULL (and *created = 0) if it is unknown. */
gboolean ddb_store_token_get (DdbStore *store, const char *token, GBytes **digest, gint64 *created,
                              GError **error);
/* Records the token (replacing any record of it). Inside a transaction (one of its own if none). */
gboolean ddb_store_token_put (DdbStore *store, const char *token, const void *digest,
                              gsize digest_len, gint64 created, GError **error);
/* Forgets the tokens created before `before`. Inside a transaction (one of its own if none). */
gboolean ddb_store_token_purge (DdbStore *store, gint64 before, GError **error);

/* ---- Cursors ---- */

typedef struct {
  const DdbIndexDef *index;   /* NULL: the table itself */
  /* Query: the partition key value (of the table or the index); NULL for a Scan. */
  const DdbValue *hash;
  DdbSortKeyOp range_op;      /* DDB_SK_NONE for all items of the partition */
  const DdbValue *range[2];   /* range[1] only for BETWEEN */
  gboolean forward;           /* ScanIndexForward (Query only; a Scan is always forward) */
  guint segment;              /* parallel Scan: segment of total_segments (0 of 1 = all) */
  guint total_segments;
  /* Continue after this key (ExclusiveStartKey: the table's key attributes, plus the index's
   * on an index), or NULL from the start. */
  const DdbValue *exclusive_start;
} DdbStoreRange;

/* The parallel Scan segment (of `total_segments`) that holds the partition key value `hash`
 * (of the table, or of the index scanned): the same split ddb_store_cursor_open uses. */
guint ddb_store_segment_of (const DdbValue *hash, guint total_segments);

DdbStoreCursor *ddb_store_cursor_open (DdbStore *store, const DdbTableDef *def,
                                       const DdbStoreRange *range, GError **error);
/* The next item (a new map: the whole item for the table, the projected item for an index), or
 * NULL at the end (no error) or on error. With a prefilter set, a row that fails it is not
 * decoded: NULL is returned with *skipped TRUE (SKIPPED NULL: such rows are stepped over). */
DdbValue *ddb_store_cursor_next (DdbStoreCursor *cursor, gboolean *skipped, GError **error);
/* From now on, items come back with only their key attributes and the item-level attributes
 * in NAMES (n of them; NULL: whole, the default): what a read that projects or filters on
 * those names needs, without building the rest. */
void ddb_store_cursor_set_wanted (DdbStoreCursor *cursor, const char *const *names, guint n);
/* From now on, rows whose sort key (of the table, or the index scanned) does not satisfy OP
 * with VALUES (of the key's type; values[1] only for BETWEEN) are skipped undecoded, tested
 * on their encoding: for a Scan whose filter requires that much of the sort key. */
gboolean ddb_store_cursor_set_prefilter (DdbStoreCursor *cursor, DdbSortKeyOp op,
                                         const DdbValue *const values[2], GError **error);
/* The stored size (ddb_item_size() of the whole item or index entry) of the current row: the
 * one ddb_store_cursor_next() last returned or skipped. */
gint64 ddb_store_cursor_size (const DdbStoreCursor *cursor);
/* The key attributes (the table's and the index's) of the current row, as a new map. */
DdbValue *ddb_store_cursor_key (DdbStoreCursor *cursor, GError **error);
void ddb_store_cursor_free (DdbStoreCursor *cursor);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbStoreCursor, ddb_store_cursor_free)

G_END_DECLS
