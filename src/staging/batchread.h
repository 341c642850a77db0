/* batchread.h: reading many items by key, as the staging actions read the items they guard:
 * BatchGetItem, strongly consistent, at most 100 keys a request, UnprocessedKeys sent again
 * after a growing backoff. */
#pragma once

#include "backend/backend.h"

G_BEGIN_DECLS

/* The items of TABLE whose keys are KEYS (DdbValue maps of exactly the key attributes): a
 * GPtrArray as long as KEYS, each member the item (a DdbValue, freed with the array) or NULL
 * where no item has that key. Keys may repeat (each gets its own copy). NULL with the error
 * when a request fails (a DynamoDB error, G_IO_ERROR_CANCELLED). */
GPtrArray *ddb_batch_read_items (DdbBackend *backend, const char *table, GPtrArray *keys,
                                 GCancellable *cancellable, GError **error);

G_END_DECLS
