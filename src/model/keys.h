/* keys.h: partition-key health of a table or index: items and bytes per partition key value,
 * read through the backend (a full parallel Scan or a sample), and what they say: cardinality,
 * a log-scale histogram, the heaviest partitions, item collections against the 10 GB LSI
 * limit, sharded key families and, for a request rate, the partitions past DynamoDB's
 * per-partition throughput. GTK-free. */
#pragma once

#include <gio/gio.h>

#include "backend/backend.h"

G_BEGIN_DECLS

/* DynamoDB's documented per-partition ceilings and the LSI item-collection limit. */
#define DDB_KEYS_PARTITION_RCU 3000.0
#define DDB_KEYS_PARTITION_WCU 1000.0
#define DDB_KEYS_COLLECTION_LIMIT ((guint64) 10 * 1024 * 1024 * 1024)

typedef struct {
  const char *table;
  const char *index;    /* NULL: the table itself */
  guint64 sample;       /* 0: read every item */
  guint segments;       /* parallel Scan segments; 0: a default */
  double rate_rcu;      /* the whole table's rate; 0 with rate_wcu 0: no rate */
  double rate_wcu;
} DdbKeysOptions;

typedef struct {
  char *key; /* the partition key value as text (N as its digits, B in base64) */
  guint64 items;
  guint64 bytes;
} DdbKeysPartition;

typedef struct {
  char *prefix; /* "TENANT#bigco#": the shared part, separator included */
  GPtrArray *shards; /* DdbKeysPartition*, borrowed from the report, in suffix order */
  guint64 items;
  guint64 min_items, max_items;
  const DdbKeysPartition *hottest;
  guint first; /* its lowest suffix */
  guint width; /* its suffixes' zero padding ("#01": 2), 0 when not padded */
} DdbKeysFamily;

typedef struct {
  const DdbKeysPartition *partition;
  double rcu, wcu; /* its share of the rate */
  guint suffixes;  /* shards advised so that each stays under both ceilings */
} DdbKeysHot;

/* What a piece of advice to shard needs for its fan-out Query (ddb_codegen_fanout_program):
 * the partition key values PREFIX followed by FIRST .. FIRST + SUFFIXES - 1, padded with zeros
 * to WIDTH digits (0: not padded). */
typedef struct {
  char *prefix;                /* "TENANT#bigco#" */
  guint first, suffixes, width;
  const DdbKeysFamily *family; /* the sharded family it is about; NULL: a hot key to shard */
  guint advice;                /* the index of its sentence in the report's advice */
} DdbKeysShardAdvice;

typedef struct {
  char *table, *index;
  char *key_name;       /* the partition key attribute */
  gboolean key_is_string; /* of type S: it can take a suffix */
  gboolean has_lsi;     /* the table (or this LSI) has one: item collections have a limit */
  gboolean sampled;     /* stopped after options.sample items */
  guint64 items, bytes;
  GPtrArray *partitions; /* DdbKeysPartition*, heaviest (by items, then bytes) first */
  /* Histogram: bucket b holds the partitions with 2^b .. 2^(b+1)-1 items. */
  guint n_buckets;
  guint64 *buckets;
  GPtrArray *collections; /* DdbKeysPartition*, borrowed: the largest by bytes, first */
  GPtrArray *families;   /* DdbKeysFamily*, largest first */
  gboolean has_rate;
  double rate_rcu, rate_wcu;
  GArray *hot;           /* DdbKeysHot, heaviest first */
  GPtrArray *advice;     /* char*: sentences a user can act on */
  /* DdbKeysShardAdvice*, in the order of their sentences: each hot key to shard and each
   * sharded family too hot for the rate; without a rate, the largest family when it is advised
   * as a fan-out read (its existing suffixes). Empty for a key that is not a string. */
  GPtrArray *shard_advice;
} DdbKeysReport;

/* Called on the calling thread about ten times a second while items are read, and once at
 * the end of a read that was not cancelled with the number of items counted. */
typedef void (*DdbKeysProgress) (guint64 items_read, gpointer user_data);

/* Called on a Scan segment's thread with each item read (the callee owns it) and the segment
 * (0 .. segments-1) that read it. */
typedef void (*DdbKeysItemFunc) (DdbValue *item, guint segment, gpointer user_data);

/* The number of Scan segments for REQUESTED (0: 8 for an endpoint, one per processor up to 4
 * for a database). */
guint ddb_keys_scan_segments (DdbBackend *backend, guint requested);

/* A parallel Scan of OPTIONS->table (or ->index) in SEGMENTS segments, each item handed to EACH;
 * with OPTIONS->sample, every segment stops once that many items were handed over in all, so that
 * a sample is spread over the whole key space. PROGRESS as for ddb_keys_analyze. *SAMPLED (may be
 * NULL): whether the sample ended the read. FALSE with ERROR on failure or cancellation. The
 * rate members of OPTIONS are not read. */
gboolean ddb_keys_scan (DdbBackend *backend, const DdbKeysOptions *options, guint segments,
                        DdbKeysItemFunc each, gpointer user_data, DdbKeysProgress progress,
                        gpointer progress_data, gboolean *sampled, GCancellable *cancellable,
                        GError **error);

DdbKeysReport *ddb_keys_analyze (DdbBackend *backend, const DdbKeysOptions *options,
                                 DdbKeysProgress progress, gpointer user_data,
                                 GCancellable *cancellable, GError **error);
void ddb_keys_report_free (DdbKeysReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbKeysReport, ddb_keys_report_free)

/* The share (0..1) of the items and of the bytes of PARTITION. */
double ddb_keys_share_items (const DdbKeysReport *report, const DdbKeysPartition *partition);
double ddb_keys_share_bytes (const DdbKeysReport *report, const DdbKeysPartition *partition);

/* The histogram bucket's bounds, as "1", "2-3", "4-7"... New string. */
char *ddb_keys_bucket_label (guint bucket);

/* N rounded up to a number of suffixes that reads well: 2, 5, 10, 20, 50, 100... */
guint ddb_keys_round_suffixes (double n);

#define DDB_KEYS_FANOUT_PLACEHOLDER ":pk"

/* The Query of ADVICE's fan-out, for ddb_codegen_fanout_program with the placeholder ":pk":
 * TableName, IndexName for an index, KeyConditionExpression "#pk = :pk" on the partition key,
 * the first shard's key as :pk. New reference. */
json_t *ddb_keys_fanout_request (const DdbKeysReport *report, const DdbKeysShardAdvice *advice);

/* The report as JSON, with the same figures as the text; each piece of shard advice also in
 * "shardAdvice" as {"advice": its sentence, "fanout": {prefix, first, suffixes, width,
 * placeholder, request (ddb_keys_fanout_request), family (its prefix, when about one)}}.
 * New reference. */
json_t *ddb_keys_report_to_json (const DdbKeysReport *report);

G_END_DECLS
