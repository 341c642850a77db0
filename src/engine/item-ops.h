/* item-ops.h: the pieces of PutItem, UpdateItem, DeleteItem and GetItem that BatchWriteItem,
 * BatchGetItem and the transactions reuse: item and key checks, and writes prepared in two
 * steps (check against the current item, then apply) so that a transaction can check every
 * condition before it writes anything. Private to src/engine. */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "core/expr.h"
#include "engine/request.h"
#include "engine/store.h"
#include "engine/table.h"

G_BEGIN_DECLS

/* ---- Checks (request.c) ---- */

/* The table's key attributes of `item`: present, of the schema's types, not empty, within the
 * key size limits (partition key 2048 bytes, sort key 1024), with PutItem's messages. */
gboolean ddb_item_check_keys (const DdbTableDef *def, const DdbValue *item, GError **error);

/* The index key attributes `item` holds: of the declared types, not empty, within the size
 * limits. `from_update` picks UpdateItem's wording for an empty value. An index is named by
 * the first, by name, that the attribute is a key of, as DynamoDB does. */
gboolean ddb_item_check_index_keys (const DdbTableDef *def, const DdbValue *item,
                                    gboolean from_update, GError **error);

/* DynamoDB's key size limit for one key value (S and B; numbers always fit). */
gboolean ddb_key_value_check_size (const DdbValue *v, gboolean is_hash, GError **error);

/* ---- Prepared writes (item-ops.c) ---- */

typedef enum {
  DDB_WRITE_PUT,
  DDB_WRITE_UPDATE,
  DDB_WRITE_DELETE,
  DDB_WRITE_CONDITION_CHECK, /* TransactWriteItems' ConditionCheck: a condition, no write */
} DdbWriteKind;

typedef enum {
  DDB_RV_NONE,
  DDB_RV_ALL_OLD,
  DDB_RV_UPDATED_OLD,
  DDB_RV_ALL_NEW,
  DDB_RV_UPDATED_NEW,
} DdbReturnValues;

typedef enum {
  DDB_WRITE_FLAGS_NONE = 0,
  /* A Put/Update/Delete/ConditionCheck member of TransactWriteItems: only the members that
   * shape has are read (no ReturnValues, no legacy parameters). */
  DDB_WRITE_IN_TRANSACTION = 1 << 0,
  /* A PutRequest/DeleteRequest of BatchWriteItem: only Item or Key is read. */
  DDB_WRITE_IN_BATCH = 1 << 1,
} DdbWriteFlags;

typedef struct {
  DdbWriteKind kind;
  DdbTableDef *def;   /* owned */
  DdbValue *key;      /* the item's key attributes (owned) */
  DdbValue *put_item; /* PUT: the item to write (owned) */
  DdbUpdate *update;  /* UPDATE: UpdateExpression or AttributeUpdates, or NULL (owned) */
  DdbNode *condition; /* ConditionExpression or Expected, or NULL (owned) */
  DdbReturnValues return_values;
  gboolean return_old_on_failure; /* ReturnValuesOnConditionCheckFailure = ALL_OLD */
  DdbReturnCapacity return_capacity;
  gboolean return_metrics; /* ReturnItemCollectionMetrics = SIZE */

  /* In a transaction, a problem DynamoDB reports as this action's cancellation reason
   * (ValidationError) instead of failing the whole request: a key attribute of the wrong type
   * (reported before the item is read) or an update of a key attribute (after the
   * condition). ddb_write_check fails with it. Owned. */
  GError *invalid;
  gboolean invalid_before_read;

  /* Set by ddb_write_check: */
  gboolean checked;
  DdbValue *old_item; /* the item before the write, or NULL (owned) */
  DdbValue *new_item; /* the item after it: NULL for DELETE and CONDITION_CHECK (owned) */
} DdbPreparedWrite;

/* Reads and checks one write request: `req` is a PutItem/UpdateItem/DeleteItem request, a
 * member of TransactWriteItems (flags DDB_WRITE_IN_TRANSACTION) or a PutRequest/DeleteRequest
 * of BatchWriteItem (DDB_WRITE_IN_BATCH). `table_name` overrides the TableName member (batch
 * requests name the table outside the request); NULL reads it. Validates every member,
 * parses the expressions (unused placeholders refused), looks the table up
 * (ResourceNotFoundException), checks the item or key against the schema. Nothing is read
 * from or written to the items. */
DdbPreparedWrite *ddb_write_prepare (DdbStore *store, DdbWriteKind kind, json_t *req,
                                     const char *table_name, DdbWriteFlags flags, GError **error);

/* Reads the current item, evaluates the condition against it, and computes the new item
 * (update applied, key and index checks, 400 KB limit); fails with w->invalid, if set, at
 * its point. A failed condition is
 * ConditionalCheckFailedException "The conditional request failed" and, when `extra` is not
 * NULL and ReturnValuesOnConditionCheckFailure was ALL_OLD, *extra = {"Item": old item} (if
 * the item exists). Call inside the store transaction that will apply the write, so nothing
 * changes in between. */
gboolean ddb_write_check (DdbStore *store, DdbPreparedWrite *w, json_t **extra, GError **error);

/* Writes what ddb_write_check computed (put, or delete; nothing for a condition check). Inside
 * a store transaction. */
gboolean ddb_write_apply (DdbStore *store, DdbPreparedWrite *w, GError **error);

/* Adds the write's units (table and indexes) to `cap`, times `factor` (2 in transactions):
 * the larger of the old and new item sizes, per KB; each index whose entry is written, added
 * or removed, per KB of its entry (twice when its key changed). After ddb_write_check. */
void ddb_write_add_capacity (const DdbPreparedWrite *w, DdbCapacity *cap, double factor);

/* The response members the write asked for: "Attributes" (ReturnValues) and, for tables with
 * local secondary indexes, "ItemCollectionMetrics". Added to `response`. */
gboolean ddb_write_add_response (DdbStore *store, const DdbPreparedWrite *w, json_t *response,
                                 GError **error);

void ddb_write_free (DdbPreparedWrite *w);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbPreparedWrite, ddb_write_free)

/* ItemCollectionMetrics for the item collection of `key` (a table with LSIs):
 * {"ItemCollectionKey": {pk}, "SizeEstimateRangeGB": [lo, hi]}. */
json_t *ddb_item_collection_metrics (DdbStore *store, const DdbTableDef *def, const DdbValue *key,
                                     GError **error);

/* ---- Reads ---- */

/* A prepared GetItem (also one key of BatchGetItem's Keys / TransactGetItems' Get, which
 * share Key + ProjectionExpression + AttributesToGet + ExpressionAttributeNames). */
typedef struct {
  DdbTableDef *def;          /* owned */
  DdbValue *key;             /* owned */
  DdbProjection *projection; /* ProjectionExpression or AttributesToGet, or NULL (owned) */
  gboolean consistent;
  DdbReturnCapacity return_capacity;
} DdbPreparedGet;

DdbPreparedGet *ddb_get_prepare (DdbStore *store, json_t *req, const char *table_name,
                                 GError **error);
/* The item (projected), or *item = NULL if absent; *size = the whole item's size (0 if
 * absent) for capacity. */
gboolean ddb_get_run (DdbStore *store, const DdbPreparedGet *g, DdbValue **item, gsize *size,
                      GError **error);
void ddb_get_free (DdbPreparedGet *g);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbPreparedGet, ddb_get_free)

G_END_DECLS
