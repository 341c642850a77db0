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
  /* Copies of the options (backends borrowed). */
  DdbCompareOptions options;
  char *strings[5]; /* here/there tables and export paths, base path */
  GStrv exclude_names;
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

/* Walks both sides in key order, counting and classifying every key into the diffs table. */
gboolean compare_classify (DdbCompareResult *r, GCancellable *cancellable, GError **error);

G_END_DECLS
