/* stream-store.h: DynamoDB Streams in the store: the streams of tables and their change records,
 * in tables of the database written in the item change's own transaction (or savepoint), so a
 * record exists exactly when its change committed. Private to src/engine. */
#pragma once

#include <jansson.h>

#include "engine/store.h"

G_BEGIN_DECLS

/* Records live this long (AWS: 24 hours); older ones are neither read nor kept. */
#define DDB_STREAM_RETENTION_SECONDS (24 * 60 * 60)

/* Creates the streams' tables if absent (every open: older databases gain them). */
gboolean ddb_stream_store_init (DdbStore *store, GError **error);

/* TRUE if the table's stream is enabled (writes to it are recorded). */
gboolean ddb_stream_enabled (const DdbTableDef *def);

/* Records a change of one item of `def` (old_item NULL: inserted; new_item NULL: removed; both:
 * replaced). Nothing when the stream is off or nothing changed. Inside the write transaction. */
gboolean ddb_stream_record (DdbStore *store, const DdbTableDef *def, const DdbValue *old_item,
                            const DdbValue *new_item, GError **error);

/* After the definition of a table was written (created, updated) or the table dropped
 * (deleted TRUE): a newly enabled stream starts, and the table's other streams end (DISABLED,
 * still readable for 24 hours). Inside the write transaction. */
gboolean ddb_stream_sync_table (DdbStore *store, const DdbTableDef *def, gboolean deleted,
                                GError **error);

/* Forgets the records and ended streams older than the retention. Inside a transaction (one of
 * its own if none). */
gboolean ddb_stream_trim (DdbStore *store, gint64 now_ms, GError **error);

/* While on, removals are recorded as the service's own (TTL expiry): userIdentity Service. */
void ddb_stream_set_service_writes (DdbStore *store, gboolean on);

typedef struct {
  gint64 id;
  char *arn;
  char *table_name;
  char *label;
  char *view_type;
  char *status;       /* ENABLED or DISABLED */
  json_t *key_schema; /* KeySchema as DescribeTable has it */
  gint64 created_ms;
  gint64 first_seq;   /* first retained record, 0 if none */
  gint64 last_seq;    /* last record ever written (retained or not), 0 if none */
  gint64 horizon_seq; /* records up to this one are trimmed */
} DdbStreamInfo;

void ddb_stream_info_free (DdbStreamInfo *info);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbStreamInfo, ddb_stream_info_free)

/* The stream of that ARN (retained), or *info NULL. */
gboolean ddb_stream_get (DdbStore *store, const char *arn, gint64 now_ms, DdbStreamInfo **info,
                         GError **error);
/* Streams (DdbStreamInfo*, first_seq/last_seq unset) in creation order, of one table or all,
 * after `exclusive_start` (an ARN) if given, at most `limit`. */
GPtrArray *ddb_stream_list (DdbStore *store, const char *table_name, const char *exclusive_start,
                            guint limit, gint64 now_ms, GError **error);
/* Records of stream `id` after sequence number `after`, at most `limit`, in order: appended to
 * `out` as the API's Record objects; *last is the last one's sequence number (else `after`). */
gboolean ddb_stream_read (DdbStore *store, gint64 id, gint64 after, guint limit, gint64 now_ms,
                          json_t *out, gint64 *last, GError **error);

/* Sequence numbers on the wire: 21 decimal digits, increasing with `seq`. */
char *ddb_stream_seq_format (gint64 seq);
/* FALSE if TEXT is not one of ours. */
gboolean ddb_stream_seq_parse (const char *text, gint64 *seq);

G_END_DECLS
