/* compare.h: the compare of two tables (two backends, tables that may have other names, or a
 * folder in the S3 export layout / an export file read directly) with the same key schema:
 * every key classified as same, changed (with the per-path diff of src/staging/diff.h), only
 * here or only there, with counts and DynamoDB item sizes. Both sides are read with parallel
 * Scans into a temporary SQLite file (ordered key encoding, encoded item), never a whole table
 * in memory, then walked in key order.
 *
 * With a base (an export named explicitly, or the engine's base of a snapshot, engine/base.h)
 * every difference is also classified three ways, per item: edited here (here differs from the
 * base, there does not: pushable), edited there (there differs from the base, here does not:
 * left alone), or both (a conflict, even when the paths differ). Equal on both sides is the
 * same item whatever the base says. GTK-free. */
#pragma once

#include <gio/gio.h>

#include "backend/backend.h"
#include "engine/snapshot.h"
#include "core/value.h"

G_BEGIN_DECLS

typedef enum {
  DDB_COMPARE_SAME,
  DDB_COMPARE_CHANGED,
  DDB_COMPARE_ONLY_HERE,
  DDB_COMPARE_ONLY_THERE,
} DdbCompareKind;

/* "same", "changed", "only-here", "only-there". */
const char *ddb_compare_kind_name (DdbCompareKind kind);

/* The three-way class of a difference when a base is known. */
typedef enum {
  DDB_COMPARE_NO_BASE,
  DDB_COMPARE_EDITED_HERE,  /* here differs from the base, there holds it: pushable */
  DDB_COMPARE_EDITED_THERE, /* there differs from the base, here holds it: left alone */
  DDB_COMPARE_EDITED_BOTH,  /* both differ from the base (and from each other): a conflict */
} DdbCompareClass;

/* "none", "edited-here", "edited-there", "both". */
const char *ddb_compare_class_name (DdbCompareClass klass);

typedef struct {
  DdbBackend *backend; /* borrowed; NULL when the side is an export */
  const char *table;
  /* Instead of BACKEND: a folder in the S3 export layout, or an export file (DynamoDB JSON
   * lines, JSON, CSV, as engine/snapshot.h reads them), read directly without importing. Its
   * key schema is the other side's. TABLE then only names the side in messages (may be NULL). */
  const char *export_path;
  /* With EXPORT_PATH a full export: incremental exports (folders; NULL-terminated, or NULL)
   * applied on top of it, the side being the table as of the last one's end. Compared with the
   * full export's snapshot, the differences are what they changed. */
  const char *const *export_incrementals;
  /* Non-NULL: EXPORT_PATH and EXPORT_INCREMENTALS are keys of this store's objects (an S3
   * bucket: exports/s3-import.h's ddb_s3_exports_open), not paths on disk. Borrowed. */
  const DdbSnapshotStore *export_store;
} DdbCompareSide;

typedef struct {
  DdbCompareSide here, there;
  /* Top-level attribute names left out of the comparison (timestamps, version counters);
   * NULL-terminated, may be NULL. Key attributes cannot be excluded. */
  const char *const *exclude;
  guint segments;       /* parallel Scan segments a side; 0: as ddb_keys_scan_segments */
  const char *temp_dir; /* where the temporary database goes; NULL: g_get_tmp_dir () */
  /* The base: an export (S3 folder or file) of the table as both sides started from. NULL:
   * the engine's recorded base of here's table if it has one (else there's), unless NO_BASE. */
  const char *base_path;
  gboolean no_base;
  /* Only the items this condition holds for, on every side: {"FilterExpression": "…",
   * "ExpressionAttributeNames": {…}, "ExpressionAttributeValues": {…}} as the API takes them
   * (a key range is a condition on the key attributes), evaluated on each item read, after the
   * key mapping. NULL: every item. Borrowed. */
  json_t *filter;
  /* Only these partitions (partition key values as text: S as is, N its digits, B base64);
   * table sides are read with a Query a partition instead of a Scan. NULL-terminated. */
  const char *const *partitions;
  /* Key attributes matched by position (partition with partition, sort with sort) when their
   * names differ: there's items are compared and handed over under here's names, and pushed
   * back under there's. */
  gboolean map_keys;
} DdbCompareOptions;

typedef struct {
  guint64 same, changed, only_here, only_there;
  guint64 items_here, items_there; /* items read */
  guint64 bytes_here, bytes_there; /* their DynamoDB sizes (whole items, excluded attrs too) */
  gboolean has_base;               /* the classes below are known */
  guint64 edited_here, edited_there, both; /* they add up to changed + only_here + only_there */
} DdbCompareCounts;

typedef struct {
  DdbCompareKind kind;
  DdbCompareClass klass; /* DDB_COMPARE_NO_BASE without a base */
  const DdbValue *key;   /* a map of the key attributes */
  const DdbValue *here;  /* the item here as read (excluded attributes too), or NULL: absent */
  const DdbValue *there; /* likewise there */
  const DdbValue *base;  /* with a base: the base version, or NULL: absent in the base */
  GPtrArray *diff;       /* DdbDiffEntry* from here (old) to there (new), excluded attributes
                          * left out; changed only */
} DdbCompareDifference;

/* Called on the calling thread about ten times a second while a side is read (SIDE 0: here,
 * 1: there, 2: a base export), with the items read on that side and the rate in items a
 * second. */
typedef void (*DdbCompareProgress) (guint side, guint64 items, double rate, gpointer user_data);

/* Called for each difference in key order; everything it is handed is borrowed. Returns FALSE
 * to stop. */
typedef gboolean (*DdbCompareFunc) (const DdbCompareDifference *difference, gpointer user_data);

typedef struct _DdbCompareResult DdbCompareResult;

/* Reads both sides and classifies every key. Fails (DDB_ERROR_VALIDATION) when the key
 * schemas differ (types or count; names without map_keys), an excluded path is not a path or
 * is a key attribute, the filter or a partition value is invalid; with the
 * DynamoDB error of a side, an IO error of the temporary file, or G_IO_ERROR_CANCELLED. */
DdbCompareResult *ddb_compare_run (const DdbCompareOptions *options, DdbCompareProgress progress,
                                   gpointer user_data, GCancellable *cancellable, GError **error);

const DdbCompareCounts *ddb_compare_result_counts (DdbCompareResult *result);

/* Where the base came from ("export PATH", or the engine's DdbTableBase source and its time),
 * for people; NULL without a base. */
const char *ddb_compare_result_base (DdbCompareResult *result);

/* The sides and the excluded attributes the result was made with (for a push). */
const DdbCompareOptions *ddb_compare_result_options (DdbCompareResult *result);

/* Whether both sides hold the same items. */
gboolean ddb_compare_result_identical (DdbCompareResult *result);

/* The differences (not the same items) in key order, handed to EACH one at a time. FALSE with
 * ERROR when the temporary database cannot be read; TRUE when EACH stopped the walk. */
gboolean ddb_compare_result_foreach (DdbCompareResult *result, DdbCompareFunc each,
                                     gpointer user_data, GError **error);

/* Closes and deletes the temporary database. */
void ddb_compare_result_free (DdbCompareResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbCompareResult, ddb_compare_result_free)

G_END_DECLS
