/* dy-change-tail.h: following a DynamoDB stream without GTK: its shards from LATEST or
 * TRIM_HORIZON, GetRecords on each, NextShardIterator, the children of a shard that closes
 * (DescribeStream), a new iterator when one expires and TRIM_HORIZON again when records were
 * trimmed before they were read. Blocking calls, for a worker thread. */
#pragma once

#include <jansson.h>

#include "backend/backend.h"

G_BEGIN_DECLS

#define DY_STREAMS_PREFIX "DynamoDBStreams_20120810."

typedef struct _DyChangeTail DyChangeTail;

/* Reads the stream STREAM_ARN from its newest record on (LATEST), or from the oldest record kept
 * (TRIM_HORIZON) when FROM_OLDEST. */
DyChangeTail *dy_change_tail_new (const char *stream_arn, gboolean from_oldest);
void dy_change_tail_free (DyChangeTail *tail);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DyChangeTail, dy_change_tail_free)

/* One round: a GetRecords on each shard being read (and whatever iterators and DescribeStream
 * that needs), the records appended to RECORDS (a JSON array) in each shard's order. *MORE is
 * TRUE when a page came with records (another round at once is worth it). *NOTICE (may be
 * NULL) receives a sentence to show about what happened (records trimmed, the stream ended).
 * A DynamoDB error other than those handled: FALSE with "ExceptionName: message", *ERROR_NAME
 * (may be NULL) the name; the tail keeps its place, so the next round retries. Never run two
 * rounds of one tail at once. */
gboolean dy_change_tail_poll (DyChangeTail *tail, DdbBackend *backend, json_t *records,
                              gboolean *more, char **notice, char **error_name,
                              GCancellable *cancellable, GError **error);
/* TRUE once every shard is read to its end and the stream is disabled: no record will come. */
gboolean dy_change_tail_get_ended (DyChangeTail *tail);
/* How many shards are being read. */
guint dy_change_tail_get_n_shards (DyChangeTail *tail);
/* Tests: the iterator the first shard is read with next (as one that expired would be). */
void dy_change_tail_set_iterator (DyChangeTail *tail, const char *iterator);

G_END_DECLS
