/* base.h: a snapshot's base. An import records where the table came from (or `snapshot base`
 * names an export); from then on the engine keeps the base version of each item the first time
 * it is written (PutItem, UpdateItem, DeleteItem, batches, transactions, PartiQL, TTL expiry):
 * copy-on-write, items never written cost nothing. A table without a base records nothing. */
#pragma once

#include <glib.h>

#include "core/value.h"
#include "engine/engine.h"

G_BEGIN_DECLS

typedef struct {
  char *source;      /* an absolute path (file imports, --base), or endpoint/table */
  char *format;      /* ddb_snapshot_format_name() of the source, or "live" */
  char *export_arn;  /* a DynamoDB export's ARN (its manifest's exportArn), else NULL */
  gint64 created_ms; /* the time the table is as of: an export's time (the last incremental
                      * export's end), else when the base was recorded */
  gint64 item_count; /* items of the table then */
} DdbTableBase;

void ddb_table_base_clear (DdbTableBase *base);

/* Called with each base version, in key order: key_bytes = the key codec's pk || sk, item the
 * base version (borrowed), NULL when the item was absent (created since). FALSE stops. */
typedef gboolean (*DdbBaseItemFunc) (const guint8 *key_bytes, gsize key_len, const DdbValue *item,
                                     gpointer user_data);

/* The base of TABLE: *found FALSE when it has none. No such table: DDB_ERROR_RESOURCE_NOT_FOUND. */
gboolean ddb_engine_get_base (DdbEngine *engine, const char *table, DdbTableBase *out,
                              gboolean *found, GError **error);
/* Records SOURCE (format FORMAT, now, the table's current item count) as the base of TABLE,
 * replacing any base and forgetting the base versions kept so far. */
gboolean ddb_engine_set_base (DdbEngine *engine, const char *table, const char *source,
                              const char *format, GError **error);
/* The number of items written since the base (those with a base version). */
gboolean ddb_engine_base_item_count (DdbEngine *engine, const char *table, gint64 *count,
                                     GError **error);
/* The base version of the item with KEY (a map of the key attributes): *found FALSE when it was
 * not written since the base; else *item (NULL: absent in the base; free with ddb_value_free). */
gboolean ddb_engine_base_item_lookup (DdbEngine *engine, const char *table, const DdbValue *key,
                                      gboolean *found, DdbValue **item, GError **error);
gboolean ddb_engine_base_items_foreach (DdbEngine *engine, const char *table, DdbBaseItemFunc func,
                                        gpointer user_data, GError **error);

G_END_DECLS
