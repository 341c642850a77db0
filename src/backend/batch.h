/* batch.h: writing many items into a new table through the backend seam, as imports and the
 * model's `apply` do: wait until the table (and its global secondary indexes) is ACTIVE, then
 * BatchWriteItem, 25 items a request, sending back what UnprocessedItems returns with a full
 * jitter backoff. GTK-free; prints nothing. */
#pragma once

#include "backend/backend.h"

G_BEGIN_DECLS

/* BatchWriteItem's limits. */
#define DDB_TRANSFER_BATCH_ITEMS 25
#define DDB_TRANSFER_BATCH_BYTES (16 * 1024 * 1024)

typedef struct {
  guint active_timeout_ms; /* how long the new table may take to be ACTIVE; 0: 10 minutes */
  /* BatchWriteItem rounds in a row that write none of the UnprocessedItems before giving up;
   * 0: 10. The delay before a round is uniform in [0, min(max, base * 2^round)]. */
  guint max_idle_rounds;
  guint base_delay_ms; /* 0: 50 */
  guint max_delay_ms;  /* 0: 5000 */
} DdbTransferTuning;

/* TUNING (may be NULL) with its zeros replaced by the defaults. */
DdbTransferTuning ddb_transfer_tuning_resolve (const DdbTransferTuning *tuning);

/* Whether a DescribeTable "Table" is ACTIVE with all its global secondary indexes; *STATUS is
 * the status that is not (the table's, else an index's), or ACTIVE. */
gboolean ddb_table_description_active (json_t *desc, const char **status);

/* DescribeTable until TABLE and its global secondary indexes are ACTIVE; fails with
 * G_IO_ERROR_TIMED_OUT naming the status after TIMEOUT_MS (0: 10 minutes). */
gboolean ddb_transfer_wait_active (DdbBackend *backend, const char *table, guint timeout_ms,
                                   GCancellable *cancellable, GError **error);

typedef struct _DdbBatchWriter DdbBatchWriter;

/* Called after each BatchWriteItem response with the count of items written so far. */
typedef void (*DdbBatchWrittenFunc) (guint64 written, gpointer user_data);

/* A writer of items into TABLE. TUNING may be NULL. */
DdbBatchWriter *ddb_batch_writer_new (DdbBackend *backend, const char *table,
                                      const DdbTransferTuning *tuning, GCancellable *cancellable,
                                      DdbBatchWrittenFunc written, gpointer user_data);
void ddb_batch_writer_free (DdbBatchWriter *writer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbBatchWriter, ddb_batch_writer_free)

/* Adds ITEM (DynamoDB JSON, a reference taken) of SIZE bytes of JSON text to the batch, first
 * sending the batch when it is full or already holds KEY (the item's key, or NULL not to
 * check: DynamoDB refuses one key twice in a request, so the later item is written after). */
gboolean ddb_batch_writer_add (DdbBatchWriter *writer, json_t *item, GBytes *key, gsize size,
                               GError **error);

/* Sends what the batch holds, until every item is written. */
gboolean ddb_batch_writer_flush (DdbBatchWriter *writer, GError **error);

/* The items written so far. */
guint64 ddb_batch_writer_get_written (const DdbBatchWriter *writer);

G_END_DECLS
