/* dy-keys-view.h: the key-distribution window of a table (win.keys, Ctrl+Shift+K, the table
 * tab's menu): the partition-key health of the table or one of its indexes (ddb_keys_analyze of
 * src/model/keys.h, on a worker thread, with the items read, the rate and Cancel), from a full
 * Scan or a sample of N items, and which it was; a summary (items, bytes, distinct partition
 * keys), the histogram of items per partition drawn, the heaviest partitions with their share,
 * the largest item collections against 10 GB (with an LSI), sharded key families with their
 * spread, the partitions past 3,000 RCU / 1,000 WCU for a rate, and the advice. A row's key is
 * copied, or its partition queried in the table's tab. */
#pragma once

#include <adwaita.h>

#include "app/connections/dy-connection.h"
#include "app/window/dy-window.h"
#include "model/keys.h"

G_BEGIN_DECLS

#define DY_KEYS_VIEW_DEFAULT_SAMPLE 10000
/* Rows each list shows at most (the heaviest first). */
#define DY_KEYS_VIEW_MAX_ROWS 200

#define DY_TYPE_KEYS_VIEW (dy_keys_view_get_type ())
G_DECLARE_FINAL_TYPE (DyKeysView, dy_keys_view, DY, KEYS_VIEW, AdwWindow)

/* The window for TABLE of CONNECTION over WINDOW, shown (the open one if there is one). It
 * describes the table to list its indexes; nothing is read until Analyze. */
DyKeysView *dy_keys_view_open (DyWindow *window, DyConnection *connection, const char *table);
DyConnection *dy_keys_view_get_connection (DyKeysView *self);
const char *dy_keys_view_get_table_name (DyKeysView *self);

/* The inputs, as the controls set them. INDEX NULL: the table; FALSE when the table has no
 * such index (or has not been described yet). SAMPLE 0: a full scan. */
gboolean dy_keys_view_set_index (DyKeysView *self, const char *index);
void dy_keys_view_set_sample (DyKeysView *self, guint64 sample);
/* The table's whole request rate (0 and 0: none). */
void dy_keys_view_set_rate (DyKeysView *self, double rcu, double wcu);
/* Analyze (keys.run) and Cancel (keys.cancel). */
void dy_keys_view_run (DyKeysView *self);
void dy_keys_view_cancel (DyKeysView *self);

/* TRUE once DescribeTable answered (the index list is filled). */
gboolean dy_keys_view_get_ready (DyKeysView *self);
gboolean dy_keys_view_get_running (DyKeysView *self);
/* Items read so far by the running analysis (or the last one). */
guint64 dy_keys_view_get_items_read (DyKeysView *self);
/* The last analysis's report, or NULL (none yet, or it failed or was cancelled). */
const DdbKeysReport *dy_keys_view_get_report (DyKeysView *self);
/* The line saying where the figures come from (full scan or sample), or the cancel. */
const char *dy_keys_view_get_source_text (DyKeysView *self);
/* The last error shown, or NULL. */
const char *dy_keys_view_get_error (DyKeysView *self);
/* The rows of the lists (DyKeysRow): heaviest partitions (key, items, bytes, share of items,
 * share of bytes), item collections (key, size, share of 10 GB), sharded families (family,
 * shards, items, share, min-max, spread, heaviest shard), hot partitions (key, share, RCU,
 * WCU, suffixes). */
GListModel *dy_keys_view_get_heaviest (DyKeysView *self);
GListModel *dy_keys_view_get_collections (DyKeysView *self);
GListModel *dy_keys_view_get_families (DyKeysView *self);
GListModel *dy_keys_view_get_hot (DyKeysView *self);
/* The summary's figures as shown: items, size, distinct partition keys. */
const char *dy_keys_view_get_summary (DyKeysView *self, const char *which);

G_END_DECLS
