/* compare-private.h: what compare.c (key schemas, the walk, the result) and compare-read.c
 * (reading a side or a base into the temporary database) share. Private to src/compare.
 *
 * The temporary database:
 *   here, there (k BLOB PRIMARY KEY, item BLOB, cmp BLOB, size INTEGER): k the key codec's
 *     pk || sk, item the whole item (itemcodec), cmp the item without the excluded paths (NULL
 *     when nothing is excluded: then item is compared), size its DynamoDB size;
 *   base (k BLOB PRIMARY KEY, item BLOB, cmp BLOB): the base versions, item NULL for an item
 *     absent from the base. An export base holds every item of the base; an engine base only
 *     those written since (BASE_SPARSE: a key without a row holds its base on BASE_SIDE);
 *   diffs (k BLOB PRIMARY KEY, kind INTEGER, class INTEGER): the differences. */
#pragma once

#include <sqlite3.h>

#include "compare/compare.h"
#include "core/expr.h"
#include "engine/request.h"

G_BEGIN_DECLS

typedef struct {
  char *name[2];
  char *type[2];
  guint n;
} CompareKeySchema;

struct _DdbCompareResult {
  char *dir, *path;
  sqlite3 *db;
  CompareKeySchema keys;
  DdbPath *exclude; /* parsed options.exclude */
  guint n_exclude;
  DdbCompareCounts counts;
  gboolean base_sparse;
  guint base_side; /* 0 here, 1 there: whose engine keeps the base versions */
  char *base_text;
  /* The selection (compare-select.c). */
  DdbReqExpr filter_rx;
  DdbNode *filter;
  GPtrArray *partitions;     /* DdbValue*, the partition key values */
  GHashTable *partition_set; /* their key encodings (GBytes) */
  gboolean rename;           /* there's key attributes have other names: */
  char *there_names[2];
  /* Copies of the options (backends borrowed). */
  DdbCompareOptions options;
  char *strings[5]; /* here/there tables and export paths, base path */
  GStrv exclude_names, partition_names;
};

gboolean compare_sql_error (sqlite3 *db, GError **error);
gboolean compare_sql_exec (sqlite3 *db, const char *sql, GError **error);

/* "pk:S" or "pk:S,sk:N". */
char *compare_key_spec (const CompareKeySchema *keys);

/* The key codec's pk || sk of ITEM (DDB_ERROR_VALIDATION when a key attribute is missing). */
gboolean compare_encode_key (DdbCompareResult *r, const DdbValue *item, GByteArray *out,
                             GError **error);
/* A copy of ITEM without the excluded paths (a path that is not there is no error). */
DdbValue *compare_strip (DdbCompareResult *r, const DdbValue *item);

/* Reads side SIDE (0 here, 1 there) into its table. */
gboolean compare_read_side (DdbCompareResult *r, guint side, DdbCompareProgress progress,
                            gpointer user_data, GCancellable *cancellable, GError **error);
/* Reads the base, if one is known (options.base_path, else an engine side's recorded base),
 * into the base table and sets counts.has_base, base_sparse, base_side and base_text. */
gboolean compare_read_base (DdbCompareResult *r, DdbCompareProgress progress, gpointer user_data,
                            GCancellable *cancellable, GError **error);

/* The filter and the partition list of the options, checked. */
gboolean compare_select_init (DdbCompareResult *r, GError **error);
void compare_select_clear (DdbCompareResult *r);
/* Whether ITEM (under here's key names) is in the partitions and passes the filter. */
gboolean compare_selected (DdbCompareResult *r, const DdbValue *item, gboolean *selected,
                           GError **error);
/* There's key names -> here's in ITEM (in place), and a copy of ITEM with here's -> there's
 * (NULL for NULL). Fails when the item already holds an attribute of the other name. */
gboolean compare_map_to_here (DdbCompareResult *r, DdbValue *item, GError **error);
DdbValue *compare_map_to_there (DdbCompareResult *r, const DdbValue *item);

/* Takes ITEM; FALSE stops the read (the callee has recorded why). */
typedef gboolean (*CompareItemFunc) (DdbValue *item, gpointer data);
typedef void (*CompareProgressFunc) (guint64 items, gpointer data);
/* Reads each of the partitions of the options from TABLE with Query pages. */
gboolean compare_query_partitions (DdbCompareResult *r, DdbBackend *backend, const char *table,
                                   const char *key_name, CompareItemFunc each, gpointer data,
                                   CompareProgressFunc progress, gpointer progress_data,
                                   GCancellable *cancellable, GError **error);

/* Walks both sides in key order, counting and classifying every key into the diffs table. */
gboolean compare_classify (DdbCompareResult *r, GCancellable *cancellable, GError **error);

G_END_DECLS
