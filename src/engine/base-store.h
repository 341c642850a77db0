/* base-store.h: a snapshot's base: where an imported table came from (dy_bases), and the base
 * version of each item the first time it is written after the base was recorded
 * (dy_base_items, copy-on-write: items never written cost nothing). Private to src/engine. */
#pragma once

#include "engine/base.h"
#include "engine/store.h"

G_BEGIN_DECLS

/* Creates the tables if absent (every open: older databases gain them). */
gboolean ddb_base_store_init (DdbStore *store, GError **error);

/* Records (or replaces) the base of table `def`; existing base versions are forgotten.
 * `export_arn` may be NULL. */
gboolean ddb_base_set (DdbStore *store, const DdbTableDef *def, const char *source,
                       const char *format, const char *export_arn, gint64 created_ms,
                       gint64 item_count, GError **error);
/* *found FALSE when the table has no base. */
gboolean ddb_base_get (DdbStore *store, const DdbTableDef *def, DdbTableBase *out, gboolean *found,
                       GError **error);

/* Before item `key_item`'s write (inside the write transaction): when the table has a base and
 * the key has no base version yet, keeps `old_item` (NULL: absent) as its base version. pk and
 * sk are the key's encodings. */
gboolean ddb_base_capture (DdbStore *store, const DdbTableDef *def, const GByteArray *pk,
                           const GByteArray *sk, const DdbValue *old_item, GError **error);
/* TRUE if writes to `def` must capture (the table has a base). */
gboolean ddb_base_enabled (DdbStore *store, const DdbTableDef *def, gboolean *enabled,
                           GError **error);

gboolean ddb_base_item_count (DdbStore *store, const DdbTableDef *def, gint64 *count,
                              GError **error);
/* The base version of the item with key `key` (a DdbValue map holding the key attributes):
 * *found FALSE if the item was not written since the base; *item NULL if it was absent. */
gboolean ddb_base_item_lookup (DdbStore *store, const DdbTableDef *def, const DdbValue *key,
                               gboolean *found, DdbValue **item, GError **error);

gboolean ddb_base_items_foreach (DdbStore *store, const DdbTableDef *def, DdbBaseItemFunc func,
                                 gpointer user_data, GError **error);

/* The table was dropped: its base and base versions go. Inside the write transaction. */
gboolean ddb_base_drop (DdbStore *store, const DdbTableDef *def, GError **error);

G_END_DECLS
