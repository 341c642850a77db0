/* snapshot.h: importing a table from a snapshot (the S3 export layout, DynamoDB JSON lines,
 * plain JSON, CSV) and exporting a table or a query result to the same formats, with progress
 * and cancellation. An import is one store transaction: the table and all its items, or nothing.
 *
 * Formats (see snapshot.c for the details of each):
 *   s3     a folder holding manifest-summary.json, manifest-files.json and data/<name>.json.gz
 *          with one {"Item": {...}} per line, as DynamoDB's export to S3 writes it (or, with
 *          outputFormat ION, data/<name>.ion.gz with one $ion_1_0 {Item:{...}} per line: import
 *          only); the manifest's item counts and MD5 checksums are verified before anything is
 *          kept.
 *   jsonl  one DynamoDB JSON item per line ({"pk": {"S": "a"}, ...}; lines wrapped as
 *          {"Item": {...}} are accepted too); gzip-compressed when the name ends in ".gz".
 *   json   plain JSON ({"pk": "a", "n": 1}, binary and sets in plainjson.h's tagged form):
 *          a JSON array of objects, or one object per line; ".gz" as above.
 *   csv    RFC 4180 with a header row. A header cell "name (T)" types its column, T one of
 *          S N B BOOL NULL DDB JSON (DDB: each cell is a DynamoDB JSON value such as
 *          {"SS":["a"]}; JSON: each cell is a plain JSON value in the tagged form); without a
 *          suffix a column is S, or the key schema's type for a key attribute. An empty
 *          unquoted cell means the attribute is absent; a quoted empty cell ("") is the empty
 *          string. B cells are base64; BOOL cells true/false. */
#pragma once

#include <gio/gio.h>
#include <glib.h>
#include <jansson.h>

#include "core/value.h"
#include "engine/engine.h"

G_BEGIN_DECLS

typedef enum {
  DDB_SNAPSHOT_AUTO, /* import: from the source (folder: s3; .csv; .json/.jsonl/.ndjson[.gz]) */
  DDB_SNAPSHOT_S3,
  DDB_SNAPSHOT_JSONL,
  DDB_SNAPSHOT_JSON,
  DDB_SNAPSHOT_CSV,
} DdbSnapshotFormat;

/* "s3", "jsonl", "json", "csv" (and "auto" for import) -> format; FALSE if unknown. */
gboolean ddb_snapshot_format_from_name (const char *name, DdbSnapshotFormat *out);
const char *ddb_snapshot_format_name (DdbSnapshotFormat format);

/* Checks a --key specification ("pk:S[,sk:N]") or, with `gsi`, a --gsi one
 * ("NAME:pk:S[,sk:S]") without importing anything, so that a command line can refuse it as a
 * usage error. DDB_ERROR_VALIDATION with a message for people. */
gboolean ddb_snapshot_check_key_spec (const char *spec, gboolean gsi, GError **error);

typedef struct {
  guint64 items;       /* items read (import) or written (export) so far */
  guint64 bytes;       /* bytes read from the source (as stored, compressed if it is) or
                        * written to the destination (before compression) */
  guint64 total_bytes; /* import: size of the source files, 0 if unknown; export: 0 */
  guint files;         /* import: data files read to their end (incremental exports' too) */
  guint total_files;   /* import: data files in all, 0 if unknown */
  double seconds;      /* since the start */
  double items_per_second;
  double bytes_per_second;
  gboolean done; /* the last report */
} DdbSnapshotProgress;

/* Called from the thread doing the work, at most about ten times a second, and once at the
 * end with done = TRUE. */
typedef void (*DdbSnapshotProgressFunc) (const DdbSnapshotProgress *progress, gpointer user_data);

/* Where an S3 export is read from when it is not a folder on disk (an S3 bucket): the objects
 * by their keys. The engine stays free of the network; src/exports gives one over S3. Called
 * from the importing thread. */
typedef struct {
  /* The whole object KEY (a manifest, small): a new GBytes, or NULL with an error. */
  GBytes *(*get) (const char *key, gpointer data, GCancellable *cancellable, GError **error);
  /* The bytes of object KEY as stored, from its start, as a stream (a data file: read once,
   * in order, then closed; read to its end, or closed early when the import stops). */
  GInputStream *(*open) (const char *key, gpointer data, GCancellable *cancellable,
                         GError **error);
  /* Optional: the data files an import is about to read, in order (N keys), so that the store
   * may fetch ahead; returns their total size in bytes, 0 if unknown. */
  guint64 (*plan) (const char *const *keys, guint n, gpointer data);
  gpointer data;
} DdbSnapshotStore;

typedef struct {
  const char *table_name;   /* the table to create */
  DdbSnapshotFormat format; /* DDB_SNAPSHOT_AUTO: from the source */
  /* Key schema "pk:S" or "pk:S,sk:N" (types S, N, B). NULL: taken from the snapshot when it
   * records one (our own S3 exports do), else inferred from the items when unambiguous: "PK"
   * (+ "SK") or "pk" (+ "sk") when every item has them with one key type; otherwise the one
   * attribute every item holds with one key type. An inferred key must be unique. */
  const char *key;
  /* Global secondary indexes "NAME:pk:S" or "NAME:pk:S,sk:N" (projection ALL); NULL-terminated,
   * or NULL for none. */
  const char *const *gsis;
  DdbSnapshotProgressFunc progress;
  gpointer progress_data;
  GCancellable *cancellable;
  /* The table's base (engine/base.h) as the import records it: NULL, the source's absolute
   * path and format; a caller that imports a live table through an export names the table
   * instead (e.g. "https://dynamodb.eu-west-1.amazonaws.com/Orders", format "live"). The
   * export's ARN (the last incremental export's, with incrementals) is recorded too, unless
   * base_format names something other than "s3". */
  const char *base_source;
  const char *base_format;
  /* Incremental exports (S3 export folders whose manifest says INCREMENTAL_EXPORT) to apply, in
   * the order of their exportToTime, on top of SOURCE, a full export: each change puts its
   * NewImage or deletes the item; they must follow the full export's exportTime without a gap.
   * NULL-terminated, or NULL for none. Imports into the engine only. */
  const char *const *incrementals;
  /* Non-NULL: the S3 export is read from this store, SOURCE and INCREMENTALS being the keys of
   * their manifest-summary.json objects. Each data file's MD5 is then checked as it is read
   * (before the import commits), not before. */
  const DdbSnapshotStore *store;
} DdbImportOptions;

/* Creates the table and puts every item of `source` (a file or, for s3, a folder), in one
 * transaction. Errors: a DDB_ERROR whose message names the file and line ("posts.jsonl:3:
 * ...") for a bad item, a DynamoDB error for a bad key specification or an existing table
 * (ResourceInUseException), G_IO_ERROR for files, G_IO_ERROR_CANCELLED when cancelled.
 * On any error nothing is left behind. `out` (may be NULL) receives the final figures. */
gboolean ddb_snapshot_import (DdbEngine *engine, const char *source,
                              const DdbImportOptions *options, DdbSnapshotProgress *out,
                              GError **error);

typedef struct {
  const char *table_name;
  DdbSnapshotFormat format; /* DDB_SNAPSHOT_AUTO: jsonl */
  /* NULL: the whole table. Otherwise a Query request (as DynamoDB's JSON API takes it; its
   * TableName is ignored and set to table_name, ExclusiveStartKey and Limit are managed here)
   * whose items are exported: IndexName, KeyConditionExpression, FilterExpression,
   * ExpressionAttributeNames/Values, ScanIndexForward... are honoured. Borrowed. */
  json_t *query;
  DdbSnapshotProgressFunc progress;
  gpointer progress_data;
  GCancellable *cancellable;
  /* Whole-table exports: 0 or 1 reads the table with one Scan, in the table's Scan order. N > 1
   * reads it with a parallel Scan of N segments (at most 1000), each on a thread of its own with
   * its own LastEvaluatedKey loop; each page is written whole as it arrives, so the pages of the
   * segments interleave and the order of the output is not deterministic. Ignored for a query. */
  guint segments;
  /* s3: the data files in Amazon Ion (outputFormat ION), as an export asked for ION writes
   * them, rather than DynamoDB JSON. */
  gboolean ion;
} DdbExportOptions;

/* Writes the table's items (in the table's Scan order) or the query's to `dest`: a file for
 * jsonl/json/csv (gzip-compressed when the name ends in ".gz"; "-" is standard output, written
 * as the items come), a folder (created; it must be empty if it exists) for s3. A DynamoDB JSON
 * lines export imported and exported again gives the same bytes. On error or cancellation the
 * partial output is removed. */
gboolean ddb_snapshot_export (DdbEngine *engine, const char *dest, const DdbExportOptions *options,
                              DdbSnapshotProgress *out, GError **error);

/* ---- The same through any implementation of DynamoDB's API ---- */

/* One DynamoDB API call, as ddb_engine_call or the backend seam make it: TRUE and *RESPONSE a
 * new reference, or FALSE with an error. SEGMENT is the parallel Scan segment making the call
 * (0 otherwise), so that an implementation may give each segment a connection of its own. Must
 * be thread-safe when an export has several segments. */
typedef gboolean (*DdbSnapshotCallFunc) (guint segment, const char *operation, json_t *request,
                                         GCancellable *cancellable, json_t **response,
                                         GError **error, gpointer user_data);

/* ddb_snapshot_export through CALL (DescribeTable, then Scan or Query pages) instead of an
 * engine: the export of a remote table. ddb_snapshot_export is this with ddb_engine_call. */
gboolean ddb_snapshot_export_with (DdbSnapshotCallFunc call, gpointer call_data, const char *dest,
                                   const DdbExportOptions *options, DdbSnapshotProgress *out,
                                   GError **error);

/* The item stream of an import, shared by ddb_snapshot_import (into the engine's store, in one
 * transaction) and an import to a remote endpoint (BatchWriteItem, see backend/transfer.h): the
 * source's files in order, each item checked as PutItem checks it (400 KB, key attributes and
 * their types, index key attributes), the S3 layout's checksums and item counts verified. */
typedef struct _DdbSnapshotReader DdbSnapshotReader;

/* Opens SOURCE as ddb_snapshot_import reads it (OPTIONS: table_name, format, key, gsis,
 * cancellable; progress is the caller's), settling the key schema: given, recorded in the
 * snapshot, or inferred from a sample of the items. */
DdbSnapshotReader *ddb_snapshot_reader_open (const char *source, const DdbImportOptions *options,
                                             GError **error);
void ddb_snapshot_reader_free (DdbSnapshotReader *reader);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbSnapshotReader, ddb_snapshot_reader_free)

/* The next item (the caller's: give it back with ddb_snapshot_reader_release, or free it with
 * ddb_value_free), or NULL: at the end with no error (the manifest's total count then
 * checked), or on an error ("FILE:LINE: message" for a bad item; G_IO_ERROR_CANCELLED, checked
 * every 64 items). After an error it returns NULL for good. The items are read and checked on
 * a thread of the reader's, a few hundred ahead, from the first call on; a reader is used from
 * one thread at a time. */
DdbValue *ddb_snapshot_reader_next (DdbSnapshotReader *reader, GError **error);
/* Frees ITEM (from ddb_snapshot_reader_next; may be NULL) on the reading thread, where it was
 * made, which keeps the caller's thread to its own work. Before the reader is freed. */
void ddb_snapshot_reader_release (DdbSnapshotReader *reader, DdbValue *item);

/* Where the changes of incremental exports go: PUT an item (whole: it replaces any item of its
 * key), REMOVE the item of the key attributes KEYS. FALSE with an error stops them. */
typedef struct {
  gboolean (*put) (const DdbValue *item, gpointer data, GError **error);
  gboolean (*remove) (const DdbValue *keys, gpointer data, GError **error);
  gpointer data;
} DdbSnapshotChangeSink;

/* Once ddb_snapshot_reader_next has returned NULL without an error: the changes of the
 * incremental exports the reader was opened with (DdbImportOptions.incrementals; none: TRUE at
 * once), through SINK in the order of the exports, each checked as the import checks it (an
 * earlier change of an item after a later one is passed over), so that the items read and the
 * changes give the table as of the last export's end. Errors "FILE:LINE: ...". */
gboolean ddb_snapshot_reader_apply_incrementals (DdbSnapshotReader *reader,
                                                 const DdbSnapshotChangeSink *sink, GError **error);
/* After ddb_snapshot_reader_next failed on one item (a line, record or array element that
 * does not parse, an item PutItem would refuse), lets the next call read on past it, so that a
 * caller can name every bad item: TRUE then. FALSE when the error leaves the rest unreadable
 * (a CSV or JSON array syntax error, an I/O error, cancellation): the reader stays at its
 * end. ddb_snapshot_import never calls it: an import stops at its first bad item. */
gboolean ddb_snapshot_reader_skip_refused (DdbSnapshotReader *reader);
/* Prefixes *ERROR with "FILE:LINE: " of the item last returned. */
void ddb_snapshot_reader_prefix_error (DdbSnapshotReader *reader, GError **error);
/* The item's key attributes, encoded so that two items with the same key (1 and 1.0 alike)
 * give equal bytes. */
GBytes *ddb_snapshot_reader_item_key (DdbSnapshotReader *reader, const DdbValue *item);
/* Whether the key schema was inferred from the items (then it must prove unique). */
gboolean ddb_snapshot_reader_key_inferred (DdbSnapshotReader *reader);
/* "pk:S" or "pk:S,sk:N" (new string). */
char *ddb_snapshot_reader_key_spec (DdbSnapshotReader *reader);
/* Data files read to their end so far, and in all (the incremental exports' not counted). */
guint ddb_snapshot_reader_files (DdbSnapshotReader *reader, guint *total);
/* Bytes read so far from the source files as stored, and their total size (0 if unknown). */
guint64 ddb_snapshot_reader_bytes (DdbSnapshotReader *reader);
guint64 ddb_snapshot_reader_total_bytes (DdbSnapshotReader *reader);
/* The CreateTable request for the table: TableName, KeySchema, AttributeDefinitions,
 * GlobalSecondaryIndexes (projection ALL), BillingMode PAY_PER_REQUEST. New reference. */
json_t *ddb_snapshot_reader_create_table_request (DdbSnapshotReader *reader);

/* ---- A list of items (a grid's selection) in an export's formats ---- */

/* ITEMS (DdbValue maps) as an export in FORMAT writes its items (jsonl, json or csv; not s3):
 * a new UTF-8 string. CSV's columns are the attributes in order of first appearance, typed as
 * an export types them, so that the text imports back to the same items. */
char *ddb_snapshot_format_items (GPtrArray *items, DdbSnapshotFormat format, GError **error);
/* The same written to the file DEST (gzip-compressed when its name ends in ".gz"), through
 * DEST.part renamed at the end (removed on error or cancellation); PROGRESS (may be NULL) is
 * called as for an export, OUT (may be NULL) gets the final figures. */
gboolean ddb_snapshot_write_items (const char *dest, GPtrArray *items, DdbSnapshotFormat format,
                                   DdbSnapshotProgressFunc progress, gpointer progress_data,
                                   GCancellable *cancellable, DdbSnapshotProgress *out,
                                   GError **error);

G_END_DECLS
