/* snapshot-private.h: what the snapshot files share: progress reports, key specifications, the
 * line reader, CSV columns and cells, the sources of an import and the writer of an export.
 * Private to snapshot*.c; the public face is snapshot.h. */
#pragma once

#include <gio/gio.h>
#include <glib.h>
#include <jansson.h>

#include "core/ion.h"
#include "core/value.h"
#include "engine/snapshot.h"
#include "engine/store.h"
#include "engine/table.h"

G_BEGIN_DECLS

#define READ_CHUNK (64 * 1024)
#define WRITE_FLUSH (64 * 1024)
#define MAX_ATTRIBUTE_NAME 255

/* ---- Progress and key specifications (snapshot.c) ---- */

typedef struct {
  DdbSnapshotProgress p;
  gint64 start;
  gint64 last_report;
  DdbSnapshotProgressFunc func;
  gpointer data;
} Progress;

void snap_progress_init (Progress *pr, DdbSnapshotProgressFunc func, gpointer data);
/* Reports if the last report is old enough. */
void snap_progress_tick (Progress *pr);
/* The last report (done = TRUE); copies the figures to `out` (may be NULL). */
void snap_progress_finish (Progress *pr, DdbSnapshotProgress *out);

/* "pk:S" or "pk:S,sk:N" into `key` (`what` names it in messages: "key", "index"). */
gboolean snap_parse_key_spec (const char *spec, const char *what, DdbKeyDef *key, GError **error);
/* The reverse: "pk:S,sk:N". */
char *snap_key_spec_string (const DdbKeyDef *key);
/* "NAME:pk:S[,sk:N]" -> a GSI with projection ALL. */
DdbIndexDef *snap_parse_gsi_spec (const char *spec, GError **error);

/* ---- Reading lines (snapshot-lines.c) ---- */

typedef struct {
  GInputStream *file; /* the file as stored: its position is the bytes read */
  GInputStream *digest; /* a store's object: counts the bytes read and their MD5; else NULL */
  GInputStream *in;   /* what is read: the file, or a gunzipping stream over it */
  GCancellable *cancellable;
  char *buf;
  gsize cap, start, end, scanned;
  gboolean eof;
  gboolean first;
  gboolean seekable;
  guint64 line; /* number of the line last returned */
} LineReader;

/* Prefixes `inner` with "DISPLAY: " and propagates it; FALSE. */
gboolean snap_io_error_prefixed (GError **error, GError *inner, const char *display);
/* Opens `path`, gunzipping it when it starts with gzip's magic bytes. */
gboolean snap_line_reader_open (LineReader *lr, const char *path, const char *display,
                                GCancellable *cancellable, GError **error);
/* The same over STREAM (a store's object; taken), whose bytes are counted and MD5-summed. */
gboolean snap_line_reader_open_stream (LineReader *lr, GInputStream *stream, const char *display,
                                       GCancellable *cancellable, GError **error);
/* Reads a store object's stream to its end (past the end of its gzip data) and gives the MD5 of
 * all its bytes. */
gboolean snap_line_reader_drain (LineReader *lr, guint8 digest[16], const char *display,
                                 GError **error);
void snap_line_reader_close (LineReader *lr);
/* Bytes read from the file as stored (0 when it cannot tell). */
guint64 snap_line_reader_position (LineReader *lr);
/* The next line without its line end (LF or CRLF), valid until the next call; FALSE at the end
 * (no error) or on error. */
gboolean snap_line_reader_next (LineReader *lr, const char **line, gsize *len, const char *display,
                                GError **error);
/* The rest of the stream from where the reader is (used for a plain JSON array). */
gboolean snap_line_reader_read_rest (LineReader *lr, GByteArray *out, const char *display,
                                     GError **error);
gboolean snap_is_blank (const char *s, gsize len);
/* A file or something read like one (/dev/stdin, a named pipe), not a folder. */
gboolean snap_file_exists (const char *path);

/* ---- Sources of an import (snapshot-source.c, snapshot-s3.c) ---- */

typedef struct {
  char *path;    /* the file; NULL for an object of a store */
  char *key;     /* the object in the store, or NULL */
  const DdbSnapshotStore *store; /* where KEY is */
  char *display; /* its name in messages */
  /* S3 layout only */
  gboolean has_count;
  guint64 count;
  char *md5_base64;
  char *etag;
  gboolean ion; /* its lines are Amazon Ion ($ion_1_0 {Item:{...}}), not DynamoDB JSON */
} SourceFile;

typedef struct {
  DdbSnapshotFormat format;
  GPtrArray *files; /* SourceFile* */
  /* S3 */
  gboolean has_total;
  guint64 total;
  char *key_spec; /* recorded by our own exports */
  GStrv gsi_specs;
  guint64 total_bytes;
  /* exportType INCREMENTAL_EXPORT: the data lines are changes (Keys, NewImage, OldImage,
   * Metadata), not items. */
  gboolean incremental;
  /* microseconds since the epoch, 0 when the summary does not say: a full export's
   * exportTime; an incremental one's exportFromTime (inclusive) and exportToTime (exclusive) */
  gint64 export_time_us;
  gint64 from_time_us;
  gint64 to_time_us;
  char *export_arn;
  char *display; /* the export in messages: its folder (or the file) */
  const DdbSnapshotStore *store; /* where the objects are, or NULL for files */
} Sources;

/* Fills `s` (files, counts, recorded key schema, times) from an S3 export folder, full or
 * incremental, or with STORE from the export whose manifest-summary.json is the object FOLDER. */
gboolean snap_load_s3_sources (Sources *s, const char *folder, const DdbSnapshotStore *store,
                               GError **error);
/* Checks the file's MD5 against the manifest's md5Checksum and etag. */
gboolean snap_verify_checksums (const SourceFile *f, GCancellable *cancellable, GError **error);
/* Checks DIGEST (the MD5 of the file's bytes as read) the same way. */
gboolean snap_check_digest (const SourceFile *f, const guint8 digest[16], GError **error);

/* The format of a file by its name: .csv[.gz] csv, .json[.gz] json, anything else jsonl. */
DdbSnapshotFormat snap_file_format_from_name (const char *path);
/* Fills `s` from SOURCE: the files of an S3 export folder, or the one file; `format` AUTO
 * decides from the name (a folder is s3, .csv, .json, anything else jsonl). */
gboolean snap_load_sources (Sources *s, const char *source, DdbSnapshotFormat format,
                            const DdbSnapshotStore *store, GError **error);
void snap_sources_clear (Sources *s);

/* ---- Items of one source file (snapshot-source.c) ---- */

typedef struct {
  DdbSnapshotFormat format;
  const SourceFile *file;
  const DdbKeyDef *key; /* for CSV typing; may be NULL */
  LineReader lr;
  gboolean open;
  /* jsonl: -1 undecided, 0 bare items, 1 {"Item": ...} */
  int wrapped;
  /* json: an array read whole, or one object a line */
  gboolean json_decided;
  gboolean array;
  GByteArray *whole;
  gsize pos;
  guint64 array_line;
  gboolean array_done;
  /* csv */
  GPtrArray *columns;
  GPtrArray *cells;
  /* Ion: the text of a value that takes more than a line, the reader of its records, and a
   * line put back (when ion_pending_line > 0) */
  GByteArray *ion_text;
  DdbIonReader *ion_reader;
  GByteArray *ion_pending;
  guint64 ion_pending_line;
  guint64 item_line; /* where the item last returned starts */
  /* The last error was about one item only (a bad line, record or array element) and the
   * source stands after it: reading may go on (see ddb_snapshot_reader_skip_refused). */
  gboolean refused_item;
} ItemSource;

/* Opens FILE for reading its items in FORMAT (`key` types CSV's untyped key columns; may be
 * NULL). */
gboolean snap_item_source_open (ItemSource *src, DdbSnapshotFormat format, const SourceFile *file,
                                const DdbKeyDef *key, GCancellable *cancellable, GError **error);
/* The next item (free it), or NULL at the end (no error) or on error ("FILE:LINE: ...";
 * src->refused_item tells whether the next call reads on past the bad item). */
DdbValue *snap_item_source_next (ItemSource *src, GError **error);

/* One change of an incremental export: the item's key attributes, its image after the change
 * (NULL: the item was deleted) and when it was written. */
typedef struct {
  DdbValue *keys;
  DdbValue *new_image;
  gint64 write_us; /* Metadata.WriteTimestampMicros; -1 when the record has none */
} SnapChange;

void snap_change_clear (SnapChange *change);
/* The next change of an incremental export's data file (DynamoDB JSON or Ion lines): TRUE with
 * out->keys set, TRUE with out->keys NULL at the end, FALSE on error ("FILE:LINE: ..."). */
gboolean snap_change_source_next (ItemSource *src, SnapChange *out, GError **error);
/* The next record of an Ion data file (snapshot-ion.c): TRUE with *out set, TRUE with out->line
 * 0 at the end, FALSE on error ("FILE:LINE: Ion: ..."; src->refused_item as above). */
gboolean snap_ion_source_next (ItemSource *src, DdbIonRecord *out, GError **error);

/* ---- The item stream of an import (snapshot-reader.c) ---- */

/* Where an item was read: the index of its file in the sources, and its line there. */
typedef struct {
  guint file;
  guint64 line;
} ReadWhere;

typedef struct _ReadBatch ReadBatch;

struct _DdbSnapshotReader {
  Sources s;
  GPtrArray *incrementals; /* Sources* of the incremental exports, in order; NULL if none */
  DdbTableDef *def;
  gboolean inferred;
  GCancellable *cancellable; /* the caller's; may be NULL */
  gulong cancel_handler;
  /* The reading, on its thread once the first item is asked for: cancelled with the caller's
   * cancellable or when the reader is freed. */
  GCancellable *reading;
  guint next_file; /* the index of the file to open next */
  ItemSource src;
  gboolean src_open;
  guint64 file_items; /* items of the open file so far */
  guint64 items;
  guint64 bytes_done; /* of the files read to their end */
  gboolean done;      /* at the end, or after an error */
  gboolean can_skip;  /* the last error was about one item, and reading may go on after it */
  /* The hand-over: batches of items to the caller through `full`, and back (with the items
   * the caller released) through `empty`; after a refused item, the caller's word through
   * `resume`. */
  GThread *thread;
  ReadBatch *batches;
  GAsyncQueue *full, *empty, *resume;
  /* The caller's side: the batch being handed out, the item last returned, the progress of
   * the batch, the items given back. */
  ReadBatch *cur;
  guint pos;
  ReadWhere where;
  guint64 handed_out;
  guint files_read;
  guint64 bytes_read;
  gboolean ended; /* ddb_snapshot_reader_next returned NULL */
  gboolean may_skip;
  GPtrArray *released;
};

/* ---- Incremental exports (snapshot-incremental.c) ---- */

/* The incremental exports PATHS (folders) as Sources, in the order of their exportToTime,
 * checked to follow BASE (the full export) without a gap; NULL with an error otherwise. */
GPtrArray *snap_load_incrementals (const Sources *base, const char *const *paths, GError **error);
/* Applies the changes of INCREMENTALS (from snap_load_incrementals) to the table DEF through
 * SINK (ddb_snapshot_reader_apply_incrementals), counting them into PR. */
gboolean snap_apply_incrementals (const DdbSnapshotChangeSink *sink, const DdbTableDef *def,
                                  GPtrArray *incrementals, Progress *pr, GCancellable *cancellable,
                                  GError **error);
void snap_item_source_close (ItemSource *src);
/* At the end of a file's items: a store's object is read to its end and its MD5 checked
 * against the manifest's; nothing to do for a file (checked before it was read). Adds the
 * bytes read to *BYTES. */
gboolean snap_item_source_finish (ItemSource *src, guint64 *bytes, GError **error);
/* Checks a data file of an S3 export before it is read (a file on disk: its MD5), or nothing
 * for a store's object (checked as it is read, by snap_item_source_finish). */
gboolean snap_source_file_check (const SourceFile *f, GCancellable *cancellable, GError **error);
/* Prefixes `inner` with "DISPLAY:LINE: " and propagates it; FALSE. */
gboolean snap_item_error (GError **error, GError *inner, const char *display, guint64 line);

/* ---- The table an import creates (snapshot-keys.c) ---- */

/* The table definition from the options (key and GSIs), or what the snapshot records, or a key
 * inferred from a sample of the items (*inferred TRUE: the import must check it is unique). */
DdbTableDef *snap_build_table_def (const char *table_name, const DdbImportOptions *options,
                                   const Sources *s, gboolean *inferred, GError **error);

/* ---- Export (snapshot-export.c) ---- */

typedef struct {
  char *final_path;
  char *part_path;
  GOutputStream *file;
  GOutputStream *out;
  GString *buf;
  GCancellable *cancellable;
  guint64 *bytes;
  gboolean to_stdout; /* the path "-" */
} Writer;

/* Opens DEST.part (gzip-compressing if asked), or standard output for "-"; `bytes` counts what
 * is written. */
gboolean snap_writer_open (Writer *w, const char *path, gboolean gzip, guint64 *bytes,
                           GCancellable *cancellable, GError **error);
/* Closes; on success renames DEST.part to DEST, otherwise removes DEST.part. */
gboolean snap_writer_close (Writer *w, gboolean success, GError **error);

typedef gboolean (*ItemFunc) (const DdbValue *item, gpointer data, GError **error);

/* What an export reads through: the engine, or any implementation of DynamoDB's API. */
typedef struct {
  DdbSnapshotCallFunc call;
  gpointer data;
} SnapCaller;

typedef struct {
  Writer *w;
  DdbSnapshotFormat format;
  Progress *pr;
  GCancellable *cancellable;
  gboolean first;
  /* csv */
  GPtrArray *columns;       /* CsvColumn*, type = the column's output type */
  GHashTable *column_index; /* name -> index + 1 */
} ExportState;

/* Calls `func` for every item of the table or the query, page by page; with several Scan
 * segments, from their threads, one call at a time, each page's items together. */
gboolean snap_for_each_item (const SnapCaller *caller, const DdbExportOptions *options,
                             ItemFunc func, gpointer data, GCancellable *cancellable,
                             GError **error);
/* Counts an item written: reports progress, checks for cancellation, flushes. */
gboolean snap_export_tick (ExportState *st, GError **error);
/* An ItemFunc: the item as a DynamoDB JSON line ({"Item": ...} for the s3 format). */
gboolean snap_write_ddb_item (const DdbValue *item, gpointer data, GError **error);
/* Writing a jsonl, json or csv file whatever the items come from (an export's pages, a list of
 * items): what goes before the first item (CSV: the header of st->columns, collected first
 * with snap_csv_collect_columns), the ItemFunc writing each item, what goes after the last
 * (JSON: the end of the array). */
void snap_export_begin (ExportState *st);
ItemFunc snap_export_item_func (DdbSnapshotFormat format);
void snap_export_end (ExportState *st);

/* The s3 format: a folder with the manifests and one gzipped data file. */
gboolean snap_export_s3 (const SnapCaller *caller, const char *dest,
                         const DdbExportOptions *options, Progress *pr, GError **error);

/* ---- CSV (snapshot-csv.c) ---- */

typedef enum {
  CSV_S,
  CSV_N,
  CSV_B,
  CSV_BOOL,
  CSV_NULL,
  CSV_DDB,
  CSV_JSON,
  CSV_UNTYPED, /* S, or the key schema's type for a key attribute */
} CsvType;

typedef struct {
  char *name;
  gsize name_len;
  CsvType type;
  char *header; /* the header cell, for messages */
} CsvColumn;

typedef struct {
  GString *text;
  gboolean quoted;
} CsvCell;

void snap_csv_column_free (gpointer data);
void snap_csv_cell_free (gpointer data);
/* One record (which a quoted cell may spread over several lines) into `cells`, reusing its
 * members; *ncells set. FALSE at the end (no error) or on error. Blank lines are skipped. */
gboolean snap_csv_next_record (LineReader *lr, GPtrArray *cells, guint *ncells, guint64 *first_line,
                               const char *display, GError **error);
/* "price (N)" -> name "price", CSV_N; anything else is an untyped name. */
CsvColumn *snap_csv_column_new (const char *header);
/* The value of a cell under its column's type (`key` types untyped key columns; may be NULL). */
DdbValue *snap_csv_cell_value (const CsvColumn *col, const CsvCell *cell, const DdbKeyDef *key,
                               GError **error);
/* An ItemFunc for a first pass: the columns in order of first appearance, each with one type if
 * all its values share a scalar type, else DDB. */
gboolean snap_csv_collect_columns (const DdbValue *item, gpointer data, GError **error);
void snap_csv_write_header (ExportState *st);
/* An ItemFunc: one CSV record. */
gboolean snap_csv_write_item (const DdbValue *item, gpointer data, GError **error);

G_END_DECLS
