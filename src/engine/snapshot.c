/* snapshot.c: table import from snapshots (S3 export layout, DynamoDB JSON lines, plain JSON,
 * CSV) in one store transaction, and export of a table or a query result to the same formats.
 *
 * Import reads items one at a time from an ItemSource (a line reader over a file, gunzipped
 * when the file starts with gzip's magic bytes), checks each as PutItem would (keys, index keys,
 * 400 KB) and puts it through the store inside the transaction that created the table; any
 * error, or cancellation, rolls the whole transaction back, so a failed import leaves nothing.
 * Errors about an item are prefixed "FILE:LINE: ".
 *
 * S3 layout (DynamoDB's "export to S3" output): manifest-summary.json (itemCount,
 * outputFormat, manifestFilesS3Key, ...) and manifest-files.json, one JSON object a line per
 * data file: {"itemCount", "md5Checksum" (base64 MD5 of the object as stored, i.e. of the .gz),
 * "etag" (S3's ETag: the hex MD5, or for a multipart upload the hex MD5 of the parts' MD5s
 * followed by "-PARTS"), "dataFileS3Key"}. A data file is found under the folder's data/ by the
 * part of its key after "/data/". Each file's MD5 is checked against md5Checksum, and against
 * etag when it is a single-part one or a one-part multipart one (other multipart ETags depend
 * on the part size, which the manifest does not record); item counts are checked per file and
 * in total. A summary without outputFormat DYNAMODB_JSON (ION) is refused. Our exports add
 * "dynoscopeKey" and "dynoscopeGsis" to the summary so that they import without --key.
 *
 * Export pages through the engine's own Scan (or the given Query), so it sees what a client
 * sees and never holds the engine lock between pages. Files are written to DEST.part and
 * renamed at the end. */
#include "engine/snapshot.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "core/base64.h"
#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemsize.h"
#include "core/plainjson.h"
#include "engine/engine-private.h"
#include "engine/item-ops.h"
#include "engine/request.h"
#include "engine/store.h"
#include "engine/table.h"

#define READ_CHUNK (64 * 1024)
#define WRITE_FLUSH (64 * 1024)
#define INFER_SAMPLE 1000
#define PROGRESS_INTERVAL_US (100 * 1000)
#define MAX_ATTRIBUTE_NAME 255

/* ---- Formats ---- */

static const char *const format_names[] = {
  [DDB_SNAPSHOT_AUTO] = "auto", [DDB_SNAPSHOT_S3] = "s3",   [DDB_SNAPSHOT_JSONL] = "jsonl",
  [DDB_SNAPSHOT_JSON] = "json", [DDB_SNAPSHOT_CSV] = "csv",
};

gboolean
ddb_snapshot_format_from_name (const char *name, DdbSnapshotFormat *out)
{
  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (format_names); i++)
    {
      if (g_ascii_strcasecmp (name, format_names[i]) == 0)
        {
          *out = (DdbSnapshotFormat) i;
          return TRUE;
        }
    }
  return FALSE;
}

const char *
ddb_snapshot_format_name (DdbSnapshotFormat format)
{
  if ((guint) format >= G_N_ELEMENTS (format_names))
    return NULL;
  return format_names[format];
}

/* ---- Progress ---- */

typedef struct {
  DdbSnapshotProgress p;
  gint64 start;
  gint64 last_report;
  DdbSnapshotProgressFunc func;
  gpointer data;
} Progress;

static void
progress_init (Progress *pr, DdbSnapshotProgressFunc func, gpointer data)
{
  memset (pr, 0, sizeof *pr);
  pr->start = g_get_monotonic_time ();
  /* The first tick reports at once, so that a short import still shows one. */
  pr->last_report = pr->start - PROGRESS_INTERVAL_US;
  pr->func = func;
  pr->data = data;
}

static void
progress_compute (Progress *pr, gint64 now)
{
  pr->p.seconds = (double) (now - pr->start) / G_USEC_PER_SEC;
  if (pr->p.seconds > 0)
    {
      pr->p.items_per_second = (double) pr->p.items / pr->p.seconds;
      pr->p.bytes_per_second = (double) pr->p.bytes / pr->p.seconds;
    }
}

static void
progress_tick (Progress *pr)
{
  gint64 now;

  if (pr->func == NULL)
    return;
  now = g_get_monotonic_time ();
  if (now - pr->last_report < PROGRESS_INTERVAL_US)
    return;
  pr->last_report = now;
  progress_compute (pr, now);
  pr->func (&pr->p, pr->data);
}

static void
progress_finish (Progress *pr, DdbSnapshotProgress *out)
{
  progress_compute (pr, g_get_monotonic_time ());
  pr->p.done = TRUE;
  if (pr->func != NULL)
    pr->func (&pr->p, pr->data);
  if (out != NULL)
    *out = pr->p;
}

/* ---- Key specifications ---- */

static gboolean spec_error (GError **error, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static gboolean
spec_error (GError **error, const char *fmt, ...)
{
  va_list ap;
  char *msg;

  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, msg);
  g_free (msg);
  return FALSE;
}

/* "name:T" with T one of S N B; the name is everything before the last ':'. */
static gboolean
parse_key_attr (const char *text, const char *what, char **name, DdbType *type, GError **error)
{
  const char *colon = strrchr (text, ':');
  DdbType t;

  if (colon == NULL || colon == text)
    return spec_error (error, "Invalid %s \"%s\": expected NAME:TYPE with TYPE one of S, N, B",
                       what, text);
  if (!ddb_type_from_name (colon + 1, &t)
      || (t != DDB_TYPE_S && t != DDB_TYPE_N && t != DDB_TYPE_B))
    return spec_error (error, "Invalid %s \"%s\": the type of a key attribute must be S, N or B",
                       what, text);
  if (colon - text > MAX_ATTRIBUTE_NAME || !g_utf8_validate_len (text, colon - text, NULL))
    return spec_error (error, "Invalid %s \"%s\": an attribute name is 1 to 255 bytes of UTF-8",
                       what, text);
  *name = g_strndup (text, colon - text);
  *type = t;
  return TRUE;
}

/* "pk:S" or "pk:S,sk:N". */
static gboolean
parse_key_spec (const char *spec, const char *what, DdbKeyDef *key, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (spec, ",", -1);
  guint n = g_strv_length (parts);

  memset (key, 0, sizeof *key);
  if (n < 1 || n > 2)
    return spec_error (error, "Invalid %s \"%s\": expected PK:TYPE or PK:TYPE,SK:TYPE", what, spec);
  if (!parse_key_attr (parts[0], what, &key->hash_name, &key->hash_type, error))
    return FALSE;
  if (n == 2)
    {
      if (!parse_key_attr (parts[1], what, &key->range_name, &key->range_type, error))
        {
          g_clear_pointer (&key->hash_name, g_free);
          return FALSE;
        }
      if (strcmp (key->hash_name, key->range_name) == 0)
        {
          g_clear_pointer (&key->hash_name, g_free);
          g_clear_pointer (&key->range_name, g_free);
          return spec_error (error,
                             "Invalid %s \"%s\": the partition key and the sort key "
                             "must be different attributes",
                             what, spec);
        }
    }
  return TRUE;
}

static void
key_def_clear (DdbKeyDef *key)
{
  g_clear_pointer (&key->hash_name, g_free);
  g_clear_pointer (&key->range_name, g_free);
}

static char *
key_spec_string (const DdbKeyDef *key)
{
  if (key->range_name == NULL)
    return g_strdup_printf ("%s:%s", key->hash_name, ddb_type_name (key->hash_type));
  return g_strdup_printf ("%s:%s,%s:%s", key->hash_name, ddb_type_name (key->hash_type),
                          key->range_name, ddb_type_name (key->range_type));
}

static void
index_def_free (gpointer data)
{
  DdbIndexDef *index = data;

  g_free (index->name);
  key_def_clear (&index->key);
  g_strfreev (index->non_key_attributes);
  if (index->provisioned != NULL)
    json_decref (index->provisioned);
  g_free (index);
}

/* "NAME:pk:S[,sk:N]" -> a GSI with projection ALL. */
static DdbIndexDef *
parse_gsi_spec (const char *spec, GError **error)
{
  const char *colon = strchr (spec, ':');
  json_auto_t *req = NULL;
  g_autofree char *name = NULL;
  DdbIndexDef *index;

  if (colon == NULL)
    {
      spec_error (error, "Invalid index \"%s\": expected NAME:PK:TYPE[,SK:TYPE]", spec);
      return NULL;
    }
  name = g_strndup (spec, colon - spec);
  req = json_pack ("{ss}", "IndexName", name);
  if (req == NULL || ddb_req_table_name (req, "IndexName", error) == NULL)
    {
      if (req == NULL)
        spec_error (error, "Invalid index \"%s\": the name is not UTF-8", spec);
      return NULL;
    }
  index = g_new0 (DdbIndexDef, 1);
  index->name = g_steal_pointer (&name);
  index->global = TRUE;
  index->projection = DDB_PROJECTION_ALL;
  index->provisioned
      = json_pack ("{sI sI sI}", "NumberOfDecreasesToday", (json_int_t) 0, "ReadCapacityUnits",
                   (json_int_t) 0, "WriteCapacityUnits", (json_int_t) 0);
  if (!parse_key_spec (colon + 1, "index key", &index->key, error))
    {
      index_def_free (index);
      return NULL;
    }
  return index;
}

gboolean
ddb_snapshot_check_key_spec (const char *spec, gboolean gsi, GError **error)
{
  if (gsi)
    {
      DdbIndexDef *index = parse_gsi_spec (spec, error);

      if (index == NULL)
        return FALSE;
      index_def_free (index);
      return TRUE;
    }
  else
    {
      DdbKeyDef key;

      if (!parse_key_spec (spec, "key", &key, error))
        return FALSE;
      key_def_clear (&key);
      return TRUE;
    }
}

/* ---- Reading lines ---- */

typedef struct {
  GInputStream *file; /* the file as stored: its position is the bytes read */
  GInputStream *in;   /* what is read: the file, or a gunzipping stream over it */
  GCancellable *cancellable;
  char *buf;
  gsize cap, start, end, scanned;
  gboolean eof;
  gboolean first;
  gboolean seekable;
  guint64 line; /* number of the line last returned */
} LineReader;

static gboolean
io_error_prefixed (GError **error, GError *inner, const char *display)
{
  g_prefix_error (&inner, "%s: ", display);
  g_propagate_error (error, inner);
  return FALSE;
}

static gboolean
line_reader_open (LineReader *lr, const char *path, const char *display, GCancellable *cancellable,
                  GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GFileInputStream *fin;
  GInputStream *buffered;
  const guint8 *magic;
  gsize got = 0;
  GError *inner = NULL;

  memset (lr, 0, sizeof *lr);
  fin = g_file_read (file, cancellable, &inner);
  if (fin == NULL)
    return io_error_prefixed (error, inner, display);
  lr->file = G_INPUT_STREAM (fin);
  lr->seekable = g_seekable_can_seek (G_SEEKABLE (fin));
  lr->cancellable = cancellable;
  /* gzip by content, not by name: DynamoDB names its data files .json.gz, people rename. Peeked
   * through a buffer rather than read and sought back, so that pipes (/dev/stdin) work. */
  buffered = g_buffered_input_stream_new (lr->file);
  while ((got = g_buffered_input_stream_get_available (G_BUFFERED_INPUT_STREAM (buffered))) < 2)
    {
      gssize n = g_buffered_input_stream_fill (G_BUFFERED_INPUT_STREAM (buffered), 2 - got,
                                               cancellable, &inner);
      if (n < 0)
        {
          g_object_unref (buffered);
          g_clear_object (&lr->file);
          return io_error_prefixed (error, inner, display);
        }
      if (n == 0)
        break;
    }
  magic = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (buffered), &got);
  if (got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b)
    {
      g_autoptr (GZlibDecompressor) z = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      lr->in = g_converter_input_stream_new (buffered, G_CONVERTER (z));
      g_object_unref (buffered);
    }
  else
    lr->in = buffered;
  lr->cap = READ_CHUNK;
  lr->buf = g_malloc (lr->cap);
  lr->first = TRUE;
  return TRUE;
}

static void
line_reader_close (LineReader *lr)
{
  g_clear_object (&lr->in);
  g_clear_object (&lr->file);
  g_clear_pointer (&lr->buf, g_free);
}

static guint64
line_reader_position (LineReader *lr)
{
  if (lr->file == NULL || !lr->seekable)
    return 0;
  return (guint64) g_seekable_tell (G_SEEKABLE (lr->file));
}

/* The next line without its line end (LF or CRLF), valid until the next call; FALSE at the end
 * (no error) or on error. */
static gboolean
line_reader_next (LineReader *lr, const char **line, gsize *len, const char *display,
                  GError **error)
{
  for (;;)
    {
      char *nl = lr->scanned < lr->end ? memchr (lr->buf + lr->scanned, '\n', lr->end - lr->scanned)
                                       : NULL;
      gsize stop;
      gssize n;
      GError *inner = NULL;

      if (nl != NULL || (lr->eof && lr->start < lr->end))
        {
          char *s = lr->buf + lr->start;

          stop = nl != NULL ? (gsize) (nl - lr->buf) : lr->end;
          *line = s;
          *len = stop - lr->start;
          if (*len > 0 && s[*len - 1] == '\r')
            (*len)--;
          if (lr->first)
            {
              lr->first = FALSE;
              if (*len >= 3 && memcmp (s, "\xEF\xBB\xBF", 3) == 0)
                {
                  *line += 3;
                  *len -= 3;
                }
            }
          lr->start = lr->scanned = nl != NULL ? stop + 1 : lr->end;
          lr->line++;
          return TRUE;
        }
      if (lr->eof)
        return FALSE;

      lr->scanned = lr->end;
      if (lr->start > 0)
        {
          memmove (lr->buf, lr->buf + lr->start, lr->end - lr->start);
          lr->end -= lr->start;
          lr->scanned -= lr->start;
          lr->start = 0;
        }
      if (lr->end == lr->cap)
        {
          lr->cap *= 2;
          lr->buf = g_realloc (lr->buf, lr->cap);
        }
      n = g_input_stream_read (lr->in, lr->buf + lr->end, lr->cap - lr->end, lr->cancellable,
                               &inner);
      if (n < 0)
        return io_error_prefixed (error, inner, display);
      if (n == 0)
        lr->eof = TRUE;
      lr->end += (gsize) n;
    }
}

/* The rest of the stream from where the reader is (used for a plain JSON array). */
static gboolean
line_reader_read_rest (LineReader *lr, GByteArray *out, const char *display, GError **error)
{
  g_byte_array_append (out, (const guint8 *) lr->buf + lr->start, (guint) (lr->end - lr->start));
  lr->start = lr->scanned = lr->end;
  while (!lr->eof)
    {
      GError *inner = NULL;
      gssize n = g_input_stream_read (lr->in, lr->buf, lr->cap, lr->cancellable, &inner);

      if (n < 0)
        return io_error_prefixed (error, inner, display);
      if (n == 0)
        lr->eof = TRUE;
      g_byte_array_append (out, (const guint8 *) lr->buf, (guint) n);
    }
  lr->start = lr->end = lr->scanned = 0;
  return TRUE;
}

static gboolean
is_blank (const char *s, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
      return FALSE;
  return TRUE;
}

/* ---- CSV ---- */

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

static const char *const csv_type_names[] = {
  [CSV_S] = "S",       [CSV_N] = "N",     [CSV_B] = "B",       [CSV_BOOL] = "BOOL",
  [CSV_NULL] = "NULL", [CSV_DDB] = "DDB", [CSV_JSON] = "JSON",
};

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

static void
csv_column_free (gpointer data)
{
  CsvColumn *c = data;

  g_free (c->name);
  g_free (c->header);
  g_free (c);
}

static void
csv_cell_free (gpointer data)
{
  CsvCell *c = data;

  g_string_free (c->text, TRUE);
  g_free (c);
}

/* One record (which a quoted cell may spread over several lines) into `cells`, reusing its
 * members; *ncells set. FALSE at the end (no error) or on error. Blank lines are skipped. */
static gboolean
csv_next_record (LineReader *lr, GPtrArray *cells, guint *ncells, guint64 *first_line,
                 const char *display, GError **error)
{
  const char *line;
  gsize len, i = 0;
  CsvCell *cell = NULL;
  enum { START, UNQUOTED, QUOTED, AFTER_QUOTE } state = START;
  GError *local = NULL;

  do
    {
      if (!line_reader_next (lr, &line, &len, display, &local))
        {
          if (local != NULL)
            g_propagate_error (error, local);
          return FALSE;
        }
    }
  while (is_blank (line, len));
  *first_line = lr->line;
  *ncells = 0;

  for (;;)
    {
      if (state == START)
        {
          if (*ncells == cells->len)
            {
              CsvCell *c = g_new0 (CsvCell, 1);
              c->text = g_string_new (NULL);
              g_ptr_array_add (cells, c);
            }
          cell = g_ptr_array_index (cells, *ncells);
          (*ncells)++;
          g_string_truncate (cell->text, 0);
          cell->quoted = FALSE;
          if (i < len && line[i] == '"')
            {
              cell->quoted = TRUE;
              state = QUOTED;
              i++;
            }
          else
            state = UNQUOTED;
        }

      if (state == UNQUOTED)
        {
          gsize s = i;

          while (i < len && line[i] != ',' && line[i] != '"')
            i++;
          g_string_append_len (cell->text, line + s, (gssize) (i - s));
          if (i < len && line[i] == '"')
            {
              g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "%s:%" G_GUINT64_FORMAT ": CSV: a quote inside an unquoted cell "
                           "(quote the whole cell and double the quote: \"\")",
                           display, lr->line);
              return FALSE;
            }
          if (i >= len)
            return TRUE;
          i++; /* ',' */
          state = START;
          continue;
        }

      if (state == QUOTED)
        {
          gsize s = i;

          while (i < len && line[i] != '"')
            i++;
          g_string_append_len (cell->text, line + s, (gssize) (i - s));
          if (i < len)
            {
              i++;
              state = AFTER_QUOTE;
              continue;
            }
          /* The cell goes on on the next line. */
          if (!line_reader_next (lr, &line, &len, display, &local))
            {
              if (local != NULL)
                g_propagate_error (error, local);
              else
                g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                             "%s:%" G_GUINT64_FORMAT ": CSV: a quoted cell is not closed", display,
                             *first_line);
              return FALSE;
            }
          g_string_append_c (cell->text, '\n');
          i = 0;
          continue;
        }

      /* AFTER_QUOTE */
      if (i < len && line[i] == '"')
        {
          g_string_append_c (cell->text, '"');
          i++;
          state = QUOTED;
          continue;
        }
      if (i >= len)
        return TRUE;
      if (line[i] != ',')
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "%s:%" G_GUINT64_FORMAT ": CSV: unexpected text after a closing quote",
                       display, lr->line);
          return FALSE;
        }
      i++;
      state = START;
    }
}

/* "price (N)" -> name "price", CSV_N; anything else is an untyped name. */
static CsvColumn *
csv_column_new (const char *header)
{
  CsvColumn *c = g_new0 (CsvColumn, 1);
  gsize len = strlen (header);

  c->header = g_strdup (header);
  c->type = CSV_UNTYPED;
  if (len > 3 && header[len - 1] == ')')
    {
      const char *open = g_strrstr (header, " (");

      if (open != NULL)
        {
          g_autofree char *t = g_strndup (open + 2, header + len - 1 - (open + 2));

          for (guint k = 0; k < G_N_ELEMENTS (csv_type_names); k++)
            {
              if (strcmp (t, csv_type_names[k]) == 0)
                {
                  c->type = (CsvType) k;
                  len = (gsize) (open - header);
                  break;
                }
            }
        }
    }
  c->name = g_strndup (header, len);
  c->name_len = len;
  return c;
}

static DdbValue *
csv_cell_value (const CsvColumn *col, const CsvCell *cell, const DdbKeyDef *key, GError **error)
{
  const char *s = cell->text->str;
  gsize len = cell->text->len;
  CsvType type = col->type;
  DdbNumber n;

  if (type == CSV_UNTYPED)
    {
      type = CSV_S;
      if (key != NULL && key->hash_name != NULL)
        {
          DdbType kt = DDB_TYPE_S;
          gboolean is_key = FALSE;

          if (strcmp (col->name, key->hash_name) == 0)
            kt = key->hash_type, is_key = TRUE;
          else if (key->range_name != NULL && strcmp (col->name, key->range_name) == 0)
            kt = key->range_type, is_key = TRUE;
          if (is_key)
            type = kt == DDB_TYPE_N ? CSV_N : kt == DDB_TYPE_B ? CSV_B : CSV_S;
        }
    }

  switch (type)
    {
    case CSV_S:
      if (!ddb_utf8_validate (s, len))
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, DDB_INVALID_UTF8_MESSAGE);
          return NULL;
        }
      return ddb_value_new_s (s, (gssize) len);
    case CSV_N:
      if (!ddb_number_parse (&n, s, (gssize) len, error))
        return NULL;
      return ddb_value_new_n (&n);
      case CSV_B: {
        gsize out_len;
        guchar *data = ddb_base64_decode (s, (gssize) len, &out_len, NULL, NULL);

        if (data == NULL)
          {
            g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                                 "Invalid base64 in a binary (B) cell");
            return NULL;
          }
        return ddb_value_take_bytes (DDB_TYPE_B, (char *) data, out_len);
      }
    case CSV_BOOL:
      if (g_ascii_strcasecmp (s, "true") == 0)
        return ddb_value_new_bool (TRUE);
      if (g_ascii_strcasecmp (s, "false") == 0)
        return ddb_value_new_bool (FALSE);
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "A BOOL cell must be true or false");
      return NULL;
    case CSV_NULL:
      return ddb_value_new_null ();
    case CSV_DDB:
      return ddb_json_parse_value (s, (gssize) len, error);
    case CSV_JSON:
      return ddb_plain_parse_value (s, (gssize) len, DDB_PLAIN_TAGGED, error);
    case CSV_UNTYPED:
    default:
      g_return_val_if_reached (NULL);
    }
}

/* ---- Item sources ---- */

typedef struct {
  char *path;    /* the file */
  char *display; /* its name in messages */
  /* S3 layout only */
  gboolean has_count;
  guint64 count;
  char *md5_base64;
  char *etag;
} SourceFile;

static void
source_file_free (gpointer data)
{
  SourceFile *f = data;

  g_free (f->path);
  g_free (f->display);
  g_free (f->md5_base64);
  g_free (f->etag);
  g_free (f);
}

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
  guint64 item_line; /* where the item last returned starts */
} ItemSource;

static void
item_source_close (ItemSource *src)
{
  if (src->open)
    line_reader_close (&src->lr);
  src->open = FALSE;
  g_clear_pointer (&src->whole, g_byte_array_unref);
  g_clear_pointer (&src->columns, g_ptr_array_unref);
  g_clear_pointer (&src->cells, g_ptr_array_unref);
}

static gboolean
item_error (GError **error, GError *inner, const char *display, guint64 line)
{
  g_prefix_error (&inner, "%s:%" G_GUINT64_FORMAT ": ", display, line);
  g_propagate_error (error, inner);
  return FALSE;
}

static gboolean
item_source_open (ItemSource *src, DdbSnapshotFormat format, const SourceFile *file,
                  const DdbKeyDef *key, GCancellable *cancellable, GError **error)
{
  memset (src, 0, sizeof *src);
  src->format = format;
  src->file = file;
  src->key = key;
  src->wrapped = format == DDB_SNAPSHOT_S3 ? 1 : -1;
  if (!line_reader_open (&src->lr, file->path, file->display, cancellable, error))
    return FALSE;
  src->open = TRUE;

  if (format == DDB_SNAPSHOT_CSV)
    {
      guint ncells;
      guint64 line;
      GError *local = NULL;
      g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

      src->cells = g_ptr_array_new_with_free_func (csv_cell_free);
      src->columns = g_ptr_array_new_with_free_func (csv_column_free);
      if (!csv_next_record (&src->lr, src->cells, &ncells, &line, file->display, &local))
        {
          if (local == NULL)
            g_set_error (&local, DDB_ERROR, DDB_ERROR_VALIDATION,
                         "%s: CSV: the file is empty (a header row is needed)", file->display);
          g_propagate_error (error, local);
          return FALSE;
        }
      for (guint i = 0; i < ncells; i++)
        {
          CsvCell *cell = g_ptr_array_index (src->cells, i);
          CsvColumn *col;

          if (!ddb_utf8_validate (cell->text->str, cell->text->len)
              || memchr (cell->text->str, 0, cell->text->len) != NULL)
            {
              g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "%s:%" G_GUINT64_FORMAT ": CSV: header cell %u is not valid UTF-8",
                           file->display, line, i + 1);
              return FALSE;
            }
          col = csv_column_new (cell->text->str);
          g_ptr_array_add (src->columns, col);
          if (col->name_len == 0)
            {
              g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "%s:%" G_GUINT64_FORMAT ": CSV: header cell %u is empty", file->display,
                           line, i + 1);
              return FALSE;
            }
          if (!g_hash_table_add (seen, col->name))
            {
              g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "%s:%" G_GUINT64_FORMAT ": CSV: column \"%s\" appears twice",
                           file->display, line, col->name);
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* {"S": ...}-like: one member whose name is a type. */
static gboolean
is_descriptor (json_t *obj)
{
  const char *k;
  json_t *v;

  if (!json_is_object (obj) || json_object_size (obj) != 1)
    return FALSE;
  json_object_foreach (obj, k, v)
    return ddb_type_from_name (k, NULL);
  return FALSE;
}

/* A jsonl line: a bare item, or {"Item": item} (what an S3 export writes). */
static DdbValue *
parse_ddb_line (ItemSource *src, const char *line, gsize len, GError **error)
{
  static const char prefix[] = "{\"Item\":";
  const gsize plen = sizeof prefix - 1;
  json_auto_t *root = NULL;
  json_t *inner;
  json_error_t jerr;

  if (src->wrapped != 0 && len > plen && memcmp (line, prefix, plen) == 0)
    {
      gsize end = len;

      while (end > plen && (line[end - 1] == ' ' || line[end - 1] == '\t'))
        end--;
      if (end > plen && line[end - 1] == '}')
        {
          DdbValue *item = ddb_json_parse_item (line + plen, (gssize) (end - 1 - plen), NULL);

          if (item != NULL)
            {
              if (src->wrapped == 1)
                return item;
              /* Undecided: {"Item": {"M": {...}}} is also a bare item with one attribute. */
              ddb_value_free (item);
            }
        }
    }
  if (src->wrapped == 0)
    return ddb_json_parse_item (line, (gssize) len, error);

  /* Slow path: decide the form, or word the error. */
  root = json_loadb (line, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
  inner = root != NULL && json_is_object (root) && json_object_size (root) == 1
              ? json_object_get (root, "Item")
              : NULL;
  if (src->wrapped == -1)
    src->wrapped = inner != NULL && json_is_object (inner) && !is_descriptor (inner) ? 1 : 0;
  if (src->wrapped == 0)
    return ddb_json_parse_item (line, (gssize) len, error);
  if (inner == NULL)
    {
      if (root == NULL)
        return ddb_json_parse_item (line, (gssize) len, error); /* words the JSON error */
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Expected a line of the form {\"Item\": {...}}");
      return NULL;
    }
  return ddb_json_to_item (inner, error);
}

/* The end of the JSON value starting at `p` (an object, for an array element): just past it,
 * or NULL if the text ends first. Counts newlines into *lines. */
static const char *
json_value_end (const char *p, const char *end, guint64 *lines)
{
  int depth = 0;
  gboolean in_string = FALSE;

  for (; p < end; p++)
    {
      char c = *p;

      if (c == '\n')
        (*lines)++;
      if (in_string)
        {
          if (c == '\\')
            p++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      else if (c == '{' || c == '[')
        depth++;
      else if (c == '}' || c == ']')
        {
          depth--;
          if (depth <= 0)
            return p + 1;
        }
      else if (depth == 0 && (c == ',' || c == ' ' || c == '\n' || c == '\t' || c == '\r'))
        return p;
    }
  return depth == 0 && !in_string ? end : NULL;
}

static const char *
skip_ws_count (const char *p, const char *end, guint64 *lines)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
    {
      if (*p == '\n')
        (*lines)++;
      p++;
    }
  return p;
}

static DdbValue *
next_array_element (ItemSource *src, GError **error)
{
  const char *base = (const char *) src->whole->data;
  const char *end = base + src->whole->len;
  const char *p = base + src->pos;
  const char *stop;
  DdbValue *item;
  GError *inner = NULL;
  guint64 lines;

  if (src->array_done)
    return NULL;
  p = skip_ws_count (p, end, &src->array_line);
  if (p < end && *p == ']')
    {
      src->array_done = TRUE;
      p = skip_ws_count (p + 1, end, &src->array_line);
      if (p != end)
        {
          g_set_error_literal (&inner, DDB_ERROR, DDB_ERROR_VALIDATION,
                               "unexpected text after the end of the JSON array");
          item_error (error, inner, src->file->display, src->array_line);
        }
      return NULL;
    }
  src->item_line = src->array_line;
  lines = 0;
  stop = json_value_end (p, end, &lines);
  if (stop == NULL || p == end)
    {
      g_set_error_literal (&inner, DDB_ERROR, DDB_ERROR_VALIDATION, "the JSON array is not closed");
      item_error (error, inner, src->file->display, src->item_line);
      return NULL;
    }
  item = ddb_plain_parse_item (p, stop - p, DDB_PLAIN_TAGGED, &inner);
  if (item == NULL)
    {
      item_error (error, inner, src->file->display, src->item_line);
      return NULL;
    }
  src->array_line += lines;
  p = skip_ws_count (stop, end, &src->array_line);
  if (p < end && *p == ',')
    p++;
  else if (p >= end || *p != ']')
    {
      ddb_value_free (item);
      g_set_error_literal (&inner, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "expected ',' or ']' after an array element");
      item_error (error, inner, src->file->display, src->array_line);
      return NULL;
    }
  src->pos = (gsize) (p - base);
  return item;
}

static DdbValue *
next_csv_item (ItemSource *src, GError **error)
{
  guint ncells;
  GError *inner = NULL;
  DdbValue *item;

  if (!csv_next_record (&src->lr, src->cells, &ncells, &src->item_line, src->file->display, error))
    return NULL;
  if (ncells > src->columns->len)
    {
      g_set_error (&inner, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "CSV: %u cells, but the header names %u columns", ncells, src->columns->len);
      item_error (error, inner, src->file->display, src->item_line);
      return NULL;
    }
  item = ddb_value_new_m_sized (ncells);
  for (guint i = 0; i < ncells; i++)
    {
      CsvCell *cell = g_ptr_array_index (src->cells, i);
      CsvColumn *col = g_ptr_array_index (src->columns, i);
      DdbValue *v;

      if (cell->text->len == 0 && !cell->quoted)
        continue; /* absent */
      v = csv_cell_value (col, cell, src->key, &inner);
      if (v == NULL)
        {
          g_prefix_error (&inner, "column \"%s\": ", col->header);
          item_error (error, inner, src->file->display, src->item_line);
          ddb_value_free (item);
          return NULL;
        }
      ddb_value_map_append (item, col->name, col->name_len, v);
    }
  return item;
}

/* The next item, or NULL at the end (no error) or on error. */
static DdbValue *
item_source_next (ItemSource *src, GError **error)
{
  const char *line;
  gsize len;
  GError *inner = NULL;
  DdbValue *item;

  if (src->array)
    return next_array_element (src, error);
  if (src->format == DDB_SNAPSHOT_CSV)
    return next_csv_item (src, error);

  do
    {
      if (!line_reader_next (&src->lr, &line, &len, src->file->display, error))
        return NULL;
    }
  while (is_blank (line, len));
  src->item_line = src->lr.line;

  if (src->format == DDB_SNAPSHOT_JSON)
    {
      gsize i = 0;

      while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
      if (!src->json_decided && i < len && line[i] == '[')
        {
          /* An array: read it whole and walk its elements. */
          src->array = TRUE;
          src->whole = g_byte_array_new ();
          g_byte_array_append (src->whole, (const guint8 *) line + i + 1, (guint) (len - i - 1));
          g_byte_array_append (src->whole, (const guint8 *) "\n", 1);
          src->array_line = src->lr.line;
          if (!line_reader_read_rest (&src->lr, src->whole, src->file->display, error))
            return NULL;
          return next_array_element (src, error);
        }
      src->json_decided = TRUE;
      item = ddb_plain_parse_item (line, (gssize) len, DDB_PLAIN_TAGGED, &inner);
    }
  else
    item = parse_ddb_line (src, line, len, &inner);

  if (item == NULL)
    item_error (error, inner, src->file->display, src->item_line);
  return item;
}

/* ---- Sources: files and the S3 layout ---- */

static gboolean
file_exists (const char *path)
{
  /* Not only regular files: /dev/stdin and named pipes are sources too. */
  return g_file_test (path, G_FILE_TEST_EXISTS) && !g_file_test (path, G_FILE_TEST_IS_DIR);
}

/* The folder holding manifest-summary.json: `dir` itself, or its one AWSDynamoDB/<id>/. */
static char *
find_s3_export_dir (const char *dir)
{
  g_autofree char *direct = g_build_filename (dir, "manifest-summary.json", NULL);
  g_autofree char *aws = g_build_filename (dir, "AWSDynamoDB", NULL);
  GDir *d;
  const char *name;
  char *found = NULL;
  guint n = 0;

  if (file_exists (direct))
    return g_strdup (dir);
  d = g_dir_open (aws, 0, NULL);
  if (d == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *sub = g_build_filename (aws, name, NULL);
      g_autofree char *summary = g_build_filename (sub, "manifest-summary.json", NULL);

      if (file_exists (summary))
        {
          n++;
          g_free (found);
          found = g_steal_pointer (&sub);
        }
    }
  g_dir_close (d);
  if (n != 1)
    g_clear_pointer (&found, g_free);
  return found;
}

static json_t *
load_json_file (const char *path, const char *display, GError **error)
{
  json_error_t jerr;
  json_t *j = json_load_file (path, JSON_REJECT_DUPLICATES, &jerr);

  if (j == NULL)
    g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "%s:%d: %s", display, jerr.line,
                 jerr.text);
  return j;
}

typedef struct {
  DdbSnapshotFormat format;
  GPtrArray *files; /* SourceFile* */
  /* S3 */
  gboolean has_total;
  guint64 total;
  char *key_spec; /* recorded by our own exports */
  GStrv gsi_specs;
  guint64 total_bytes;
} Sources;

static void
sources_clear (Sources *s)
{
  g_clear_pointer (&s->files, g_ptr_array_unref);
  g_clear_pointer (&s->key_spec, g_free);
  g_clear_pointer (&s->gsi_specs, g_strfreev);
}

static gboolean
json_count (json_t *j, guint64 *out)
{
  if (!json_is_integer (j) || json_integer_value (j) < 0)
    return FALSE;
  *out = (guint64) json_integer_value (j);
  return TRUE;
}

static gboolean
load_s3_sources (Sources *s, const char *folder, GError **error)
{
  g_autofree char *dir = find_s3_export_dir (folder);
  g_autofree char *summary_path = NULL;
  g_autofree char *files_path = NULL;
  json_auto_t *summary = NULL;
  json_t *j;
  LineReader lr;
  const char *line;
  gsize len;
  GError *local = NULL;

  if (dir == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "%s: not a DynamoDB S3 export: no manifest-summary.json in it (or in one "
                   "AWSDynamoDB/<export id>/ folder under it)",
                   folder);
      return FALSE;
    }
  summary_path = g_build_filename (dir, "manifest-summary.json", NULL);
  files_path = g_build_filename (dir, "manifest-files.json", NULL);
  summary = load_json_file (summary_path, "manifest-summary.json", error);
  if (summary == NULL)
    return FALSE;
  j = json_object_get (summary, "outputFormat");
  if (j != NULL && (!json_is_string (j) || strcmp (json_string_value (j), "DYNAMODB_JSON") != 0))
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "manifest-summary.json: outputFormat %s is not supported (only DYNAMODB_JSON)",
                   json_is_string (j) ? json_string_value (j) : "?");
      return FALSE;
    }
  j = json_object_get (summary, "exportType");
  if (j != NULL && json_is_string (j) && strcmp (json_string_value (j), "FULL_EXPORT") != 0)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "manifest-summary.json: exportType %s is not supported (only FULL_EXPORT)",
                   json_string_value (j));
      return FALSE;
    }
  s->has_total = json_count (json_object_get (summary, "itemCount"), &s->total);
  j = json_object_get (summary, "dynoscopeKey");
  if (json_is_string (j))
    s->key_spec = g_strdup (json_string_value (j));
  j = json_object_get (summary, "dynoscopeGsis");
  if (json_is_array (j))
    {
      GPtrArray *specs = g_ptr_array_new ();
      gsize i;
      json_t *e;

      json_array_foreach (j, i, e)
        if (json_is_string (e))
          g_ptr_array_add (specs, g_strdup (json_string_value (e)));
      g_ptr_array_add (specs, NULL);
      s->gsi_specs = (GStrv) g_ptr_array_free (specs, FALSE);
    }

  if (!line_reader_open (&lr, files_path, "manifest-files.json", NULL, error))
    return FALSE;
  while (line_reader_next (&lr, &line, &len, "manifest-files.json", &local))
    {
      json_error_t jerr;
      json_auto_t *entry = NULL;
      const char *key, *rel;
      SourceFile *f;

      if (is_blank (line, len))
        continue;
      entry = json_loadb (line, len, JSON_REJECT_DUPLICATES, &jerr);
      key = entry != NULL ? json_string_value (json_object_get (entry, "dataFileS3Key")) : NULL;
      if (key == NULL)
        {
          g_set_error (&local, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "manifest-files.json:%" G_GUINT64_FORMAT
                       ": expected an object with a dataFileS3Key",
                       lr.line);
          break;
        }
      rel = g_strrstr (key, "/data/");
      rel = rel != NULL                       ? rel + strlen ("/data/")
            : g_str_has_prefix (key, "data/") ? key + 5
                                              : NULL;
      if (rel == NULL || *rel == '\0' || strstr (rel, "..") != NULL)
        {
          g_autofree char *base = g_path_get_basename (key);
          f = g_new0 (SourceFile, 1);
          f->path = g_build_filename (dir, "data", base, NULL);
          f->display = g_build_filename ("data", base, NULL);
        }
      else
        {
          f = g_new0 (SourceFile, 1);
          f->path = g_build_filename (dir, "data", rel, NULL);
          f->display = g_build_filename ("data", rel, NULL);
        }
      f->has_count = json_count (json_object_get (entry, "itemCount"), &f->count);
      f->md5_base64 = g_strdup (json_string_value (json_object_get (entry, "md5Checksum")));
      f->etag = g_strdup (json_string_value (json_object_get (entry, "etag")));
      g_ptr_array_add (s->files, f);
    }
  line_reader_close (&lr);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

static gboolean
load_sources (Sources *s, const char *source, DdbSnapshotFormat format, GError **error)
{
  memset (s, 0, sizeof *s);
  s->files = g_ptr_array_new_with_free_func (source_file_free);

  if (format == DDB_SNAPSHOT_AUTO)
    {
      g_autofree char *lower = g_ascii_strdown (source, -1);

      if (g_file_test (source, G_FILE_TEST_IS_DIR))
        format = DDB_SNAPSHOT_S3;
      else if (g_str_has_suffix (lower, ".csv") || g_str_has_suffix (lower, ".csv.gz"))
        format = DDB_SNAPSHOT_CSV;
      else if (g_str_has_suffix (lower, ".json") || g_str_has_suffix (lower, ".json.gz"))
        format = DDB_SNAPSHOT_JSON;
      else
        format = DDB_SNAPSHOT_JSONL;
    }
  s->format = format;

  if (format == DDB_SNAPSHOT_S3)
    {
      if (!load_s3_sources (s, source, error))
        return FALSE;
    }
  else
    {
      SourceFile *f = g_new0 (SourceFile, 1);

      if (!file_exists (source))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s: %s", source,
                       g_file_test (source, G_FILE_TEST_IS_DIR)
                           ? "is a folder (only the s3 format reads a folder)"
                           : "no such file");
          source_file_free (f);
          return FALSE;
        }
      f->path = g_strdup (source);
      f->display = g_path_get_basename (source);
      g_ptr_array_add (s->files, f);
    }

  for (guint i = 0; i < s->files->len; i++)
    {
      SourceFile *f = g_ptr_array_index (s->files, i);
      GStatBuf st;

      if (g_stat (f->path, &st) == 0)
        s->total_bytes += (guint64) st.st_size;
    }
  return TRUE;
}

/* ---- Checksums ---- */

static gboolean
file_md5 (const char *path, const char *display, guint8 digest[16], GCancellable *cancellable,
          GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInputStream) in = NULL;
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_MD5);
  g_autofree guint8 *buf = g_malloc (READ_CHUNK);
  gsize dlen = 16;
  GError *inner = NULL;

  in = g_file_read (file, cancellable, &inner);
  if (in == NULL)
    return io_error_prefixed (error, inner, display);
  for (;;)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (in), buf, READ_CHUNK, cancellable, &inner);

      if (n < 0)
        return io_error_prefixed (error, inner, display);
      if (n == 0)
        break;
      g_checksum_update (sum, buf, n);
    }
  g_checksum_get_digest (sum, digest, &dlen);
  return TRUE;
}

static char *
hex_of (const guint8 *d, gsize n)
{
  GString *s = g_string_sized_new (2 * n);

  for (gsize i = 0; i < n; i++)
    g_string_append_printf (s, "%02x", d[i]);
  return g_string_free (s, FALSE);
}

static gboolean
verify_checksums (const SourceFile *f, GCancellable *cancellable, GError **error)
{
  guint8 digest[16];
  g_autofree char *b64 = NULL;
  g_autofree char *hex = NULL;

  if (f->md5_base64 == NULL && f->etag == NULL)
    return TRUE;
  if (!file_md5 (f->path, f->display, digest, cancellable, error))
    return FALSE;
  b64 = g_base64_encode (digest, sizeof digest);
  hex = hex_of (digest, sizeof digest);
  if (f->md5_base64 != NULL && strcmp (f->md5_base64, b64) != 0)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "%s: checksum mismatch: manifest-files.json gives md5Checksum %s, the file's "
                   "MD5 is %s",
                   f->display, f->md5_base64, b64);
      return FALSE;
    }
  if (f->etag != NULL)
    {
      g_autofree char *etag = g_ascii_strdown (f->etag, -1);
      g_autofree char *want = NULL;
      char *dash;

      /* S3 may quote ETags. */
      g_strdelimit (etag, "\"", ' ');
      g_strstrip (etag);
      dash = strchr (etag, '-');
      if (dash == NULL)
        want = g_strdup (hex);
      else if (strcmp (dash, "-1") == 0)
        {
          /* One-part multipart upload: MD5 of the part's MD5. */
          guint8 d2[16];
          gsize dlen = sizeof d2;
          g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_MD5);
          g_autofree char *h2 = NULL;

          g_checksum_update (sum, digest, sizeof digest);
          g_checksum_get_digest (sum, d2, &dlen);
          h2 = hex_of (d2, sizeof d2);
          want = g_strconcat (h2, "-1", NULL);
        }
      if (want != NULL && strcmp (want, etag) != 0)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "%s: checksum mismatch: manifest-files.json gives etag %s, the file's is %s",
                       f->display, f->etag, want);
          return FALSE;
        }
    }
  return TRUE;
}

/* ---- Key inference ---- */

typedef struct {
  char *name;
  DdbType type;
  gboolean ok;
} Candidate;

static void
candidate_free (gpointer data)
{
  Candidate *c = data;

  g_free (c->name);
  g_free (c);
}

static gboolean
is_key_value (const DdbValue *v)
{
  return (v->type == DDB_TYPE_S || v->type == DDB_TYPE_B) ? v->bytes.len > 0
                                                          : v->type == DDB_TYPE_N;
}

static Candidate *
find_candidate (GPtrArray *cands, const char *name)
{
  for (guint i = 0; i < cands->len; i++)
    {
      Candidate *c = g_ptr_array_index (cands, i);
      if (c->ok && strcmp (c->name, name) == 0)
        return c;
    }
  return NULL;
}

static gboolean
infer_key (const Sources *s, DdbKeyDef *key, GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) cands = g_ptr_array_new_with_free_func (candidate_free);
  guint64 seen = 0;
  static const char *const pairs[][2] = { { "PK", "SK" }, { "pk", "sk" } };
  Candidate *only = NULL;
  guint nok = 0;
  GString *names;

  memset (key, 0, sizeof *key);
  for (guint f = 0; f < s->files->len; f++)
    {
      const SourceFile *sf = g_ptr_array_index (s->files, f);

      /* The sample is read first, then the import reads the source again. */
      if (!g_file_test (sf->path, G_FILE_TEST_IS_REGULAR))
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "%s is not a regular file, so the key schema cannot be inferred from it: "
                       "give it with --key NAME:TYPE[,NAME:TYPE]",
                       sf->display);
          return FALSE;
        }
    }
  for (guint f = 0; f < s->files->len && seen < INFER_SAMPLE; f++)
    {
      ItemSource src;
      DdbValue *item;
      GError *local = NULL;

      if (!item_source_open (&src, s->format, g_ptr_array_index (s->files, f), NULL, cancellable,
                             error))
        {
          item_source_close (&src);
          return FALSE;
        }
      while (seen < INFER_SAMPLE && (item = item_source_next (&src, &local)) != NULL)
        {
          if (seen == 0)
            {
              for (guint i = 0; i < ddb_value_map_size (item); i++)
                {
                  DdbAttr *a = ddb_value_map_nth (item, i);
                  if (is_key_value (a->value) && a->name_len == strlen (a->name))
                    {
                      Candidate *c = g_new0 (Candidate, 1);
                      c->name = g_strdup (a->name);
                      c->type = a->value->type;
                      c->ok = TRUE;
                      g_ptr_array_add (cands, c);
                    }
                }
            }
          else
            {
              for (guint i = 0; i < cands->len; i++)
                {
                  Candidate *c = g_ptr_array_index (cands, i);
                  DdbValue *v = c->ok ? ddb_value_map_get (item, c->name) : NULL;
                  if (c->ok && (v == NULL || v->type != c->type || !is_key_value (v)))
                    c->ok = FALSE;
                }
            }
          seen++;
          ddb_value_free (item);
        }
      item_source_close (&src);
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
    }

  if (seen == 0)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "The snapshot holds no items to infer the key schema from: give it "
                           "with --key NAME:TYPE[,NAME:TYPE]");
      return FALSE;
    }
  for (guint p = 0; p < G_N_ELEMENTS (pairs); p++)
    {
      Candidate *h = find_candidate (cands, pairs[p][0]);
      Candidate *r = find_candidate (cands, pairs[p][1]);

      if (h != NULL)
        {
          key->hash_name = g_strdup (h->name);
          key->hash_type = h->type;
          if (r != NULL)
            {
              key->range_name = g_strdup (r->name);
              key->range_type = r->type;
            }
          return TRUE;
        }
    }
  for (guint i = 0; i < cands->len; i++)
    {
      Candidate *c = g_ptr_array_index (cands, i);
      if (c->ok)
        {
          nok++;
          only = c;
        }
    }
  if (nok == 1)
    {
      key->hash_name = g_strdup (only->name);
      key->hash_type = only->type;
      return TRUE;
    }
  names = g_string_new (NULL);
  for (guint i = 0; i < cands->len; i++)
    {
      Candidate *c = g_ptr_array_index (cands, i);
      if (c->ok)
        g_string_append_printf (names, "%s%s:%s", names->len > 0 ? ", " : "", c->name,
                                ddb_type_name (c->type));
    }
  g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
               "The key schema cannot be inferred (%s): give it with --key NAME:TYPE[,NAME:TYPE]",
               nok == 0 ? "no attribute is in every item with one key type" : names->str);
  g_string_free (names, TRUE);
  return FALSE;
}

/* ---- Import ---- */

static json_t *
table_meta_new (const DdbTableDef *def)
{
  json_t *attrs = json_array ();
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  const DdbKeyDef *keys[64];
  guint nkeys = 0;

  keys[nkeys++] = &def->key;
  for (guint i = 0; i < def->indexes->len && nkeys < G_N_ELEMENTS (keys); i++)
    keys[nkeys++] = &((DdbIndexDef *) g_ptr_array_index (def->indexes, i))->key;
  for (guint k = 0; k < nkeys; k++)
    {
      const char *names[2] = { keys[k]->hash_name, keys[k]->range_name };
      DdbType types[2] = { keys[k]->hash_type, keys[k]->range_type };

      for (guint j = 0; j < 2; j++)
        {
          if (names[j] == NULL || !g_hash_table_add (seen, (gpointer) names[j]))
            continue;
          json_array_append_new (attrs, json_pack ("{ssss}", "AttributeName", names[j],
                                                   "AttributeType", ddb_type_name (types[j])));
        }
    }
  g_hash_table_destroy (seen);
  {
    /* The shape CreateTable stores (table-ops.c), as for an on-demand table. */
    json_int_t now_s = (json_int_t) (g_get_real_time () / G_USEC_PER_SEC);
    g_autofree char *uuid = g_uuid_string_random ();

    return json_pack ("{so sI s{sI sI sI} ss s{ss sI} sb s[]}", "AttributeDefinitions", attrs,
                      "CreationDateTime", now_s, "ProvisionedThroughput", "NumberOfDecreasesToday",
                      (json_int_t) 0, "ReadCapacityUnits", (json_int_t) 0, "WriteCapacityUnits",
                      (json_int_t) 0, "TableId", uuid, "BillingModeSummary", "BillingMode",
                      "PAY_PER_REQUEST", "LastUpdateToPayPerRequestDateTime", now_s,
                      "DeletionProtectionEnabled", 0, "Tags");
  }
}

/* The table definition from the options (or the snapshot, or inference). */
static DdbTableDef *
build_table_def (const char *table_name, const DdbImportOptions *options, const Sources *s,
                 gboolean *inferred, GError **error)
{
  g_autoptr (DdbTableDef) def = g_new0 (DdbTableDef, 1);
  json_auto_t *req = json_pack ("{ss}", "TableName", table_name != NULL ? table_name : "");
  const char *key_spec = options->key != NULL ? options->key : s->key_spec;
  const char *const *gsis
      = options->gsis != NULL ? options->gsis : (const char *const *) s->gsi_specs;

  /* No free function: ddb_table_def_free() frees the elements itself, and request.c's
   * ddb_item_check_index_keys() sorts a g_ptr_array_copy() of this array, which would inherit
   * a free function and free the indexes under us. */
  def->indexes = g_ptr_array_new ();
  *inferred = FALSE;
  if (req == NULL || ddb_req_table_name (req, "TableName", error) == NULL)
    {
      if (req == NULL)
        spec_error (error, "The table name is not valid UTF-8");
      return NULL;
    }
  def->name = g_strdup (table_name);
  if (key_spec != NULL)
    {
      if (!parse_key_spec (key_spec, "key", &def->key, error))
        return NULL;
    }
  else
    {
      if (!infer_key (s, &def->key, options->cancellable, error))
        return NULL;
      *inferred = TRUE;
    }
  for (guint i = 0; gsis != NULL && gsis[i] != NULL; i++)
    {
      DdbIndexDef *index = parse_gsi_spec (gsis[i], error);

      if (index == NULL)
        return NULL;
      if (ddb_table_def_index (def, index->name) != NULL)
        {
          spec_error (error, "Duplicate index name: %s", index->name);
          index_def_free (index);
          return NULL;
        }
      g_ptr_array_add (def->indexes, index);
    }
  if (def->indexes->len > 20)
    {
      spec_error (error, "One or more parameter values were invalid: GlobalSecondaryIndex count "
                         "exceeds the per-table limit of 20");
      return NULL;
    }
  /* One attribute cannot have two types across the table's and the indexes' key schemas. */
  for (guint i = 0; i < def->indexes->len; i++)
    {
      DdbIndexDef *index = g_ptr_array_index (def->indexes, i);
      const DdbKeyDef *others[2] = { &def->key, NULL };

      for (guint j = 0; j < i + 1; j++)
        {
          const DdbKeyDef *o
              = j == 0 ? others[0]
                       : &((DdbIndexDef *) g_ptr_array_index (def->indexes, j - 1))->key;
          const char *an[2] = { index->key.hash_name, index->key.range_name };
          DdbType at[2] = { index->key.hash_type, index->key.range_type };
          const char *bn[2] = { o->hash_name, o->range_name };
          DdbType bt[2] = { o->hash_type, o->range_type };

          for (guint x = 0; x < 2; x++)
            for (guint y = 0; y < 2; y++)
              if (an[x] != NULL && bn[y] != NULL && strcmp (an[x], bn[y]) == 0 && at[x] != bt[y])
                {
                  spec_error (error,
                              "Attribute %s is declared with two types (%s and %s) in the key "
                              "schemas",
                              an[x], ddb_type_name (at[x]), ddb_type_name (bt[y]));
                  return NULL;
                }
        }
    }
  def->meta = table_meta_new (def);
  return g_steal_pointer (&def);
}

static gboolean
check_cancelled (GCancellable *cancellable, GError **error)
{
  return g_cancellable_set_error_if_cancelled (cancellable, error);
}

static gboolean
import_file (DdbStore *store, const DdbTableDef *def, DdbSnapshotFormat format, const SourceFile *f,
             Progress *pr, guint64 bytes_before, GCancellable *cancellable, GError **error)
{
  ItemSource src;
  DdbValue *item;
  GError *local = NULL;
  guint64 count = 0;
  gboolean ok = TRUE;

  if (format == DDB_SNAPSHOT_S3 && !verify_checksums (f, cancellable, error))
    return FALSE;
  if (!item_source_open (&src, format, f, &def->key, cancellable, error))
    {
      item_source_close (&src);
      return FALSE;
    }
  while ((item = item_source_next (&src, &local)) != NULL)
    {
      GError *inner = NULL;

      if (ddb_item_size (item) > DDB_MAX_ITEM_SIZE)
        g_set_error_literal (&inner, DDB_ERROR, DDB_ERROR_VALIDATION,
                             "Item size has exceeded the maximum allowed size");
      else if (ddb_item_check_keys (def, item, &inner)
               && ddb_item_check_index_keys (def, item, FALSE, &inner))
        ddb_store_item_put (store, def, item, &inner);
      ddb_value_free (item);
      if (inner != NULL)
        {
          item_error (&local, inner, f->display, src.item_line);
          break;
        }
      count++;
      pr->p.items++;
      if ((count & 63) == 0)
        {
          if (check_cancelled (cancellable, &local))
            break;
          pr->p.bytes = bytes_before + line_reader_position (&src.lr);
          progress_tick (pr);
        }
    }
  if (local == NULL && f->has_count && count != f->count)
    g_set_error (&local, DDB_ERROR, DDB_ERROR_VALIDATION,
                 "%s: manifest-files.json gives itemCount %" G_GUINT64_FORMAT
                 ", the file holds %" G_GUINT64_FORMAT " items",
                 f->display, f->count, count);
  item_source_close (&src);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      ok = FALSE;
    }
  return ok;
}

static gboolean
import_locked (DdbEngine *engine, const char *source, const DdbImportOptions *options, Progress *pr,
               GError **error)
{
  Sources s;
  g_autoptr (DdbTableDef) def = NULL;
  gboolean inferred;
  guint64 bytes_done = 0;
  gboolean ok = FALSE;

  if (!load_sources (&s, source, options->format, error))
    goto out;
  pr->p.total_bytes = s.total_bytes;
  def = build_table_def (options->table_name, options, &s, &inferred, error);
  if (def == NULL)
    goto out;
  if (check_cancelled (options->cancellable, error))
    goto out;

  if (!ddb_store_begin (engine->store, error))
    goto out;
  if (!ddb_store_table_create (engine->store, def, error))
    goto rollback;
  for (guint i = 0; i < s.files->len; i++)
    {
      SourceFile *f = g_ptr_array_index (s.files, i);

      if (!import_file (engine->store, def, s.format, f, pr, bytes_done, options->cancellable,
                        error))
        goto rollback;
      {
        GStatBuf st;

        if (g_stat (f->path, &st) == 0)
          bytes_done += (guint64) st.st_size;
        pr->p.bytes = bytes_done;
      }
    }
  if (s.has_total && pr->p.items != s.total)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "manifest-summary.json gives itemCount %" G_GUINT64_FORMAT
                   ", the data files hold %" G_GUINT64_FORMAT " items",
                   s.total, pr->p.items);
      goto rollback;
    }
  if (inferred)
    {
      gint64 stored = 0, size = 0;

      if (!ddb_store_table_stats (engine->store, def, NULL, &stored, &size, error))
        goto rollback;
      if ((guint64) stored != pr->p.items)
        {
          g_autofree char *spec = key_spec_string (&def->key);
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "The inferred key schema %s is not unique: %" G_GUINT64_FORMAT
                       " items but %" G_GINT64_FORMAT " distinct keys; give the key with --key",
                       spec, pr->p.items, stored);
          goto rollback;
        }
    }
  if (check_cancelled (options->cancellable, error))
    goto rollback;
  if (!ddb_store_commit (engine->store, error))
    goto rollback;
  ok = TRUE;
  goto out;

rollback:
  ddb_store_rollback (engine->store);
out:
  sources_clear (&s);
  return ok;
}

gboolean
ddb_snapshot_import (DdbEngine *engine, const char *source, const DdbImportOptions *options,
                     DdbSnapshotProgress *out, GError **error)
{
  Progress pr;
  gboolean ok;

  g_return_val_if_fail (engine != NULL, FALSE);
  g_return_val_if_fail (source != NULL, FALSE);
  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  progress_init (&pr, options->progress, options->progress_data);
  /* The whole import is one transaction on the engine's one connection: nothing else may run
   * on it meanwhile. */
  g_mutex_lock (&engine->lock);
  ok = import_locked (engine, source, options, &pr, error);
  g_mutex_unlock (&engine->lock);
  progress_finish (&pr, out);
  return ok;
}

/* ---- Writing ---- */

typedef struct {
  char *final_path;
  char *part_path;
  GOutputStream *file;
  GOutputStream *out;
  GString *buf;
  GCancellable *cancellable;
  guint64 *bytes;
} Writer;

static gboolean
writer_open (Writer *w, const char *path, gboolean gzip, guint64 *bytes, GCancellable *cancellable,
             GError **error)
{
  g_autoptr (GFile) part = NULL;
  GFileOutputStream *fout;

  memset (w, 0, sizeof *w);
  w->final_path = g_strdup (path);
  w->part_path = g_strconcat (path, ".part", NULL);
  w->cancellable = cancellable;
  w->bytes = bytes;
  part = g_file_new_for_path (w->part_path);
  fout = g_file_replace (part, NULL, FALSE, G_FILE_CREATE_NONE, cancellable, error);
  if (fout == NULL)
    return FALSE;
  w->file = G_OUTPUT_STREAM (fout);
  if (gzip)
    {
      g_autoptr (GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
      w->out = g_converter_output_stream_new (w->file, G_CONVERTER (z));
    }
  else
    w->out = g_object_ref (w->file);
  w->buf = g_string_sized_new (WRITE_FLUSH + 4096);
  return TRUE;
}

static gboolean
writer_flush (Writer *w, GError **error)
{
  if (w->buf->len == 0)
    return TRUE;
  if (!g_output_stream_write_all (w->out, w->buf->str, w->buf->len, NULL, w->cancellable, error))
    return FALSE;
  if (w->bytes != NULL)
    *w->bytes += w->buf->len;
  g_string_truncate (w->buf, 0);
  return TRUE;
}

static gboolean
writer_maybe_flush (Writer *w, GError **error)
{
  return w->buf->len < WRITE_FLUSH || writer_flush (w, error);
}

/* Closes; on success renames DEST.part to DEST, otherwise removes DEST.part. */
static gboolean
writer_close (Writer *w, gboolean success, GError **error)
{
  gboolean ok = success;

  if (w->out != NULL)
    {
      if (ok)
        ok = writer_flush (w, error);
      if (!g_output_stream_close (w->out, NULL, ok ? error : NULL))
        ok = FALSE;
      if (w->file != w->out && !g_output_stream_close (w->file, NULL, ok ? error : NULL))
        ok = FALSE;
    }
  if (ok && g_rename (w->part_path, w->final_path) != 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", w->final_path,
                   g_strerror (e));
      ok = FALSE;
    }
  if (!ok && w->part_path != NULL)
    g_unlink (w->part_path);
  g_clear_object (&w->out);
  g_clear_object (&w->file);
  if (w->buf != NULL)
    g_string_free (w->buf, TRUE);
  w->buf = NULL;
  g_clear_pointer (&w->final_path, g_free);
  g_clear_pointer (&w->part_path, g_free);
  return ok;
}

/* ---- Export ---- */

/* Calls `func` for every item of the table or the query, page by page. */
typedef gboolean (*ItemFunc) (const DdbValue *item, gpointer data, GError **error);

static gboolean
for_each_item (DdbEngine *engine, const DdbExportOptions *options, ItemFunc func, gpointer data,
               GCancellable *cancellable, GError **error)
{
  json_auto_t *req = options->query != NULL ? json_deep_copy (options->query) : json_object ();
  const char *op = options->query != NULL ? "Query" : "Scan";

  json_object_set_new (req, "TableName", json_string (options->table_name));
  json_object_del (req, "ExclusiveStartKey");
  json_object_del (req, "Limit");
  json_object_del (req, "Select");
  for (;;)
    {
      json_auto_t *resp = NULL;
      json_t *items, *last, *j;
      gsize i;

      if (check_cancelled (cancellable, error))
        return FALSE;
      if (!ddb_engine_call (engine, op, req, &resp, error))
        return FALSE;
      items = json_object_get (resp, "Items");
      json_array_foreach (items, i, j)
        {
          g_autoptr (DdbValue) item = ddb_json_to_item (j, error);

          if (item == NULL || !func (item, data, error))
            return FALSE;
        }
      last = json_object_get (resp, "LastEvaluatedKey");
      if (last == NULL)
        return TRUE;
      json_object_set (req, "ExclusiveStartKey", last);
    }
}

typedef struct {
  Writer *w;
  DdbSnapshotFormat format;
  Progress *pr;
  GCancellable *cancellable;
  gboolean first;
  gsize billed;
  /* csv */
  GPtrArray *columns;       /* CsvColumn*, type = the column's output type */
  GHashTable *column_index; /* name -> index + 1 */
} ExportState;

static gboolean
export_tick (ExportState *st, GError **error)
{
  st->pr->p.items++;
  if ((st->pr->p.items & 63) == 0)
    {
      if (check_cancelled (st->cancellable, error))
        return FALSE;
      st->pr->p.bytes = *st->w->bytes + st->w->buf->len;
      progress_tick (st->pr);
    }
  return writer_maybe_flush (st->w, error);
}

static gboolean
write_ddb_item (const DdbValue *item, gpointer data, GError **error)
{
  ExportState *st = data;

  if (st->format == DDB_SNAPSHOT_S3)
    {
      g_string_append (st->w->buf, "{\"Item\":");
      ddb_json_append_item (st->w->buf, item);
      g_string_append (st->w->buf, "}\n");
      st->billed += ddb_item_size (item);
    }
  else
    {
      ddb_json_append_item (st->w->buf, item);
      g_string_append_c (st->w->buf, '\n');
    }
  return export_tick (st, error);
}

static gboolean
write_plain_item (const DdbValue *item, gpointer data, GError **error)
{
  ExportState *st = data;
  g_autofree char *text = ddb_plain_format_item (item, DDB_PLAIN_TAGGED, error);

  if (text == NULL)
    return FALSE;
  g_string_append (st->w->buf, st->first ? "[\n" : ",\n");
  st->first = FALSE;
  g_string_append (st->w->buf, text);
  return export_tick (st, error);
}

static CsvType
csv_type_of (DdbType t)
{
  switch (t)
    {
    case DDB_TYPE_S:
      return CSV_S;
    case DDB_TYPE_N:
      return CSV_N;
    case DDB_TYPE_B:
      return CSV_B;
    case DDB_TYPE_BOOL:
      return CSV_BOOL;
    case DDB_TYPE_NULL:
      return CSV_NULL;
    default:
      return CSV_DDB;
    }
}

/* First pass: the columns in order of first appearance, each with one type if all its values
 * share a scalar type, else DDB. */
static gboolean
collect_csv_columns (const DdbValue *item, gpointer data, GError **error)
{
  ExportState *st = data;

  for (guint i = 0; i < ddb_value_map_size (item); i++)
    {
      DdbAttr *a = ddb_value_map_nth (item, i);
      guint idx = GPOINTER_TO_UINT (g_hash_table_lookup (st->column_index, a->name));
      CsvType t = csv_type_of (a->value->type);

      if (idx == 0)
        {
          CsvColumn *c = g_new0 (CsvColumn, 1);
          c->name = g_strndup (a->name, a->name_len);
          c->name_len = a->name_len;
          c->type = t;
          g_ptr_array_add (st->columns, c);
          g_hash_table_insert (st->column_index, c->name, GUINT_TO_POINTER (st->columns->len));
        }
      else
        {
          CsvColumn *c = g_ptr_array_index (st->columns, idx - 1);
          if (c->type != t)
            c->type = CSV_DDB;
        }
    }
  return !check_cancelled (st->cancellable, error);
}

static void
csv_append_cell (GString *out, const char *s, gsize len, gboolean force_quotes)
{
  gboolean quote = force_quotes || len == 0;

  for (gsize i = 0; i < len && !quote; i++)
    if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
      quote = TRUE;
  /* A leading space or a trailing one would survive anyway; only syntax needs quotes. */
  if (!quote)
    {
      g_string_append_len (out, s, (gssize) len);
      return;
    }
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      if (s[i] == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, s[i]);
    }
  g_string_append_c (out, '"');
}

static gboolean
write_csv_item (const DdbValue *item, gpointer data, GError **error)
{
  ExportState *st = data;
  GString *out = st->w->buf;

  for (guint c = 0; c < st->columns->len; c++)
    {
      CsvColumn *col = g_ptr_array_index (st->columns, c);
      DdbValue *v = ddb_value_map_get_len (item, col->name, col->name_len);

      if (c > 0)
        g_string_append_c (out, ',');
      if (v == NULL)
        continue; /* absent: an empty unquoted cell */
      switch (col->type)
        {
        case CSV_S:
          csv_append_cell (out, v->bytes.data, v->bytes.len, FALSE);
          break;
        case CSV_N:
          ddb_number_append (&v->number, out);
          break;
          case CSV_B: {
            g_autofree char *b64 = ddb_base64_encode ((const guchar *) v->bytes.data, v->bytes.len);
            /* Quoted when empty, so that it reads back as present. */
            csv_append_cell (out, b64, strlen (b64), FALSE);
            break;
          }
        case CSV_BOOL:
          g_string_append (out, v->boolean ? "true" : "false");
          break;
        case CSV_NULL:
          g_string_append (out, "true");
          break;
          default: {
            g_autofree char *text = ddb_json_format_value (v);
            csv_append_cell (out, text, strlen (text), FALSE);
            break;
          }
        }
    }
  g_string_append (out, "\r\n");
  return export_tick (st, error);
}

static void
write_csv_header (ExportState *st)
{
  for (guint c = 0; c < st->columns->len; c++)
    {
      CsvColumn *col = g_ptr_array_index (st->columns, c);
      g_autofree char *header = NULL;

      if (c > 0)
        g_string_append_c (st->w->buf, ',');
      /* S columns carry no suffix, unless the name itself looks like a typed header. */
      if (col->type == CSV_S)
        {
          CsvColumn *parsed = csv_column_new (col->name);
          gboolean ambiguous = parsed->type != CSV_UNTYPED;
          csv_column_free (parsed);
          header = ambiguous ? g_strdup_printf ("%s (S)", col->name) : g_strdup (col->name);
        }
      else
        header = g_strdup_printf ("%s (%s)", col->name, csv_type_names[col->type]);
      csv_append_cell (st->w->buf, header, strlen (header), FALSE);
    }
  g_string_append (st->w->buf, "\r\n");
}

static gboolean
describe_key_specs (DdbEngine *engine, const char *table, char **key_spec, GStrv *gsis,
                    char **table_arn, char **table_id, GError **error)
{
  json_auto_t *req = json_pack ("{ss}", "TableName", table);
  json_auto_t *resp = NULL;
  json_t *desc, *attrs, *j;
  g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *specs = g_ptr_array_new ();
  gsize i;

  if (!ddb_engine_call (engine, "DescribeTable", req, &resp, error))
    {
      g_ptr_array_free (specs, TRUE);
      return FALSE;
    }
  desc = json_object_get (resp, "Table");
  attrs = json_object_get (desc, "AttributeDefinitions");
  json_array_foreach (attrs, i, j)
    g_hash_table_insert (types, (gpointer) json_string_value (json_object_get (j, "AttributeName")),
                         (gpointer) json_string_value (json_object_get (j, "AttributeType")));

#define SPEC_OF(schema, out) \
  do \
    { \
      GString *s_ = g_string_new (NULL); \
      gsize k_; \
      json_t *e_; \
      json_array_foreach ((schema), k_, e_) \
        { \
          const char *n_ = json_string_value (json_object_get (e_, "AttributeName")); \
          const char *t_ = n_ != NULL ? g_hash_table_lookup (types, n_) : NULL; \
          g_string_append_printf (s_, "%s%s:%s", k_ > 0 ? "," : "", n_ ? n_ : "?", t_ ? t_ : "S"); \
        } \
      (out) = g_string_free (s_, FALSE); \
    } \
  while (0)

  SPEC_OF (json_object_get (desc, "KeySchema"), *key_spec);
  json_array_foreach (json_object_get (desc, "GlobalSecondaryIndexes"), i, j)
    {
      char *ks;
      SPEC_OF (json_object_get (j, "KeySchema"), ks);
      g_ptr_array_add (
          specs,
          g_strdup_printf ("%s:%s", json_string_value (json_object_get (j, "IndexName")), ks));
      g_free (ks);
    }
#undef SPEC_OF
  g_ptr_array_add (specs, NULL);
  *gsis = (GStrv) g_ptr_array_free (specs, FALSE);
  *table_arn = g_strdup (json_string_value (json_object_get (desc, "TableArn")));
  *table_id = g_strdup (json_string_value (json_object_get (desc, "TableId")));
  return TRUE;
}

static char *
iso_time (GDateTime *t)
{
  return g_date_time_format (t, "%Y-%m-%dT%H:%M:%S.%fZ");
}

static gboolean
write_small_file (const char *dir, const char *name, const char *text, GError **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  return g_file_set_contents (path, text, -1, error);
}

static char *
md5_hex_of_text (const char *text)
{
  return g_compute_checksum_for_string (G_CHECKSUM_MD5, text, -1);
}

static gboolean
remove_tree (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const char *name;

  if (d != NULL)
    {
      while ((name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *sub = g_build_filename (path, name, NULL);
          if (g_file_test (sub, G_FILE_TEST_IS_DIR) && !g_file_test (sub, G_FILE_TEST_IS_SYMLINK))
            remove_tree (sub);
          else
            g_unlink (sub);
        }
      g_dir_close (d);
    }
  return g_rmdir (path) == 0;
}

static gboolean
export_s3 (DdbEngine *engine, const char *dest, const DdbExportOptions *options, Progress *pr,
           GError **error)
{
  g_autoptr (GDateTime) start = g_date_time_new_now_utc ();
  g_autoptr (GDateTime) end = NULL;
  g_autofree char *export_id = NULL;
  g_autofree char *data_dir = g_build_filename (dest, "data", NULL);
  g_autofree char *data_name = NULL;
  g_autofree char *data_path = NULL;
  g_autofree char *key_spec = NULL;
  g_autofree char *table_arn = NULL;
  g_autofree char *table_id = NULL;
  g_auto (GStrv) gsis = NULL;
  g_autofree char *files_text = NULL;
  g_autofree char *summary_text = NULL;
  g_autofree char *files_md5 = NULL;
  g_autofree char *summary_md5 = NULL;
  g_autofree char *b64 = NULL;
  g_autofree char *hex = NULL;
  g_autofree char *t0 = NULL;
  g_autofree char *t1 = NULL;
  json_auto_t *files_entry = NULL;
  json_auto_t *summary = NULL;
  json_t *gsi_array;
  guint8 digest[16];
  guint64 written = 0;
  gboolean created = FALSE;
  Writer w;
  ExportState st = { 0 };
  gboolean ok;

  if (g_file_test (dest, G_FILE_TEST_EXISTS))
    {
      GDir *d = g_dir_open (dest, 0, NULL);
      gboolean empty = d != NULL && g_dir_read_name (d) == NULL;

      if (d != NULL)
        g_dir_close (d);
      if (!empty)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                       "%s: the folder for an s3 export must be new or empty", dest);
          return FALSE;
        }
    }
  else
    created = TRUE;
  if (!describe_key_specs (engine, options->table_name, &key_spec, &gsis, &table_arn, &table_id,
                           error))
    return FALSE;
  if (g_mkdir_with_parents (data_dir, 0777) != 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", data_dir,
                   g_strerror (e));
      return FALSE;
    }

  export_id = g_strdup_printf ("%014" G_GINT64_FORMAT "-%08x", g_get_real_time () / 1000,
                               g_random_int ());
  {
    /* DynamoDB names data files with 26 random base-32 characters. */
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
    char name[27];
    for (guint i = 0; i < 26; i++)
      name[i] = alphabet[g_random_int_range (0, 32)];
    name[26] = '\0';
    data_name = g_strconcat (name, ".json.gz", NULL);
  }
  data_path = g_build_filename (data_dir, data_name, NULL);

  if (!writer_open (&w, data_path, TRUE, &written, options->cancellable, error))
    goto fail;
  st.w = &w;
  st.format = DDB_SNAPSHOT_S3;
  st.pr = pr;
  st.cancellable = options->cancellable;
  ok = for_each_item (engine, options, write_ddb_item, &st, options->cancellable, error);
  if (!writer_close (&w, ok, ok ? error : NULL) || !ok)
    goto fail;
  if (!file_md5 (data_path, data_name, digest, options->cancellable, error))
    goto fail;
  b64 = g_base64_encode (digest, sizeof digest);
  hex = hex_of (digest, sizeof digest);

  {
    g_autofree char *k = g_strdup_printf ("AWSDynamoDB/%s/data/%s", export_id, data_name);

    files_entry = json_pack ("{sIssssss}", "itemCount", (json_int_t) pr->p.items, "md5Checksum",
                             b64, "etag", hex, "dataFileS3Key", k);
  }
  {
    char *line = json_dumps (files_entry, JSON_COMPACT | JSON_PRESERVE_ORDER);
    files_text = g_strconcat (line, "\n", NULL);
    free (line);
  }
  end = g_date_time_new_now_utc ();
  t0 = iso_time (start);
  t1 = iso_time (end);
  gsi_array = json_array ();
  for (guint i = 0; gsis != NULL && gsis[i] != NULL; i++)
    json_array_append_new (gsi_array, json_string (gsis[i]));
  {
    g_autofree char *arn = g_strdup_printf ("%s/export/%s", table_arn ? table_arn : "", export_id);
    g_autofree char *mkey = g_strdup_printf ("AWSDynamoDB/%s/manifest-files.json", export_id);

    summary = json_pack ("{ss ss ss ss ss ss ss ss ss? ss sn ss sI sI ss ss ss so}", "version",
                         "2020-06-30", "exportArn", arn, "startTime", t0, "endTime", t1, "tableArn",
                         table_arn ? table_arn : "", "tableId", table_id ? table_id : "",
                         "exportTime", t0, "s3Bucket", "local", "s3Prefix", NULL, "s3SseAlgorithm",
                         "AES256", "s3SseKmsKeyId", "manifestFilesS3Key", mkey, "billedSizeBytes",
                         (json_int_t) st.billed, "itemCount", (json_int_t) pr->p.items,
                         "outputFormat", "DYNAMODB_JSON", "exportType", "FULL_EXPORT",
                         "dynoscopeKey", key_spec, "dynoscopeGsis", gsi_array);
  }
  if (summary == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           "Cannot write manifest-summary.json (a name is not UTF-8)");
      goto fail;
    }
  {
    char *text = json_dumps (summary, JSON_COMPACT | JSON_PRESERVE_ORDER);
    summary_text = g_strdup (text);
    free (text);
  }
  files_md5 = md5_hex_of_text (files_text);
  summary_md5 = md5_hex_of_text (summary_text);
  if (!write_small_file (dest, "manifest-files.json", files_text, error)
      || !write_small_file (dest, "manifest-files.checksum", files_md5, error)
      || !write_small_file (dest, "manifest-summary.json", summary_text, error)
      || !write_small_file (dest, "manifest-summary.checksum", summary_md5, error)
      || !write_small_file (dest, "_started", "", error))
    goto fail;
  pr->p.bytes = written;
  return TRUE;

fail:
  if (created)
    remove_tree (dest);
  else
    {
      /* Leave the empty folder the caller gave, as it was. */
      GDir *d = g_dir_open (dest, 0, NULL);
      const char *name;
      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *sub = g_build_filename (dest, name, NULL);
          if (g_file_test (sub, G_FILE_TEST_IS_DIR))
            remove_tree (sub);
          else
            g_unlink (sub);
        }
      if (d != NULL)
        g_dir_close (d);
    }
  return FALSE;
}

gboolean
ddb_snapshot_export (DdbEngine *engine, const char *dest, const DdbExportOptions *options,
                     DdbSnapshotProgress *out, GError **error)
{
  Progress pr;
  Writer w;
  ExportState st = { 0 };
  guint64 written = 0;
  DdbSnapshotFormat format;
  gboolean ok;
  g_autofree char *lower = NULL;

  g_return_val_if_fail (engine != NULL, FALSE);
  g_return_val_if_fail (dest != NULL, FALSE);
  g_return_val_if_fail (options != NULL && options->table_name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  progress_init (&pr, options->progress, options->progress_data);
  format = options->format == DDB_SNAPSHOT_AUTO ? DDB_SNAPSHOT_JSONL : options->format;
  if (format == DDB_SNAPSHOT_S3)
    {
      ok = export_s3 (engine, dest, options, &pr, error);
      progress_finish (&pr, out);
      return ok;
    }

  lower = g_ascii_strdown (dest, -1);
  st.format = format;
  st.pr = &pr;
  st.cancellable = options->cancellable;
  st.first = TRUE;
  if (format == DDB_SNAPSHOT_CSV)
    {
      st.columns = g_ptr_array_new_with_free_func (csv_column_free);
      st.column_index = g_hash_table_new (g_str_hash, g_str_equal);
      /* Checking the table exists before the (maybe long) first pass. */
      if (!for_each_item (engine, options, collect_csv_columns, &st, options->cancellable, error))
        {
          g_hash_table_destroy (st.column_index);
          g_ptr_array_unref (st.columns);
          progress_finish (&pr, out);
          return FALSE;
        }
    }
  else
    {
      /* Fail on a missing table before creating the file. */
      json_auto_t *req = json_pack ("{ss}", "TableName", options->table_name);
      json_auto_t *resp = NULL;

      if (!ddb_engine_call (engine, "DescribeTable", req, &resp, error))
        {
          progress_finish (&pr, out);
          return FALSE;
        }
    }

  if (!writer_open (&w, dest, g_str_has_suffix (lower, ".gz"), &written, options->cancellable,
                    error))
    {
      if (st.columns != NULL)
        {
          g_hash_table_destroy (st.column_index);
          g_ptr_array_unref (st.columns);
        }
      progress_finish (&pr, out);
      return FALSE;
    }
  st.w = &w;
  switch (format)
    {
    case DDB_SNAPSHOT_CSV:
      write_csv_header (&st);
      ok = for_each_item (engine, options, write_csv_item, &st, options->cancellable, error);
      break;
    case DDB_SNAPSHOT_JSON:
      ok = for_each_item (engine, options, write_plain_item, &st, options->cancellable, error);
      if (ok)
        g_string_append (w.buf, st.first ? "[]\n" : "\n]\n");
      break;
    case DDB_SNAPSHOT_JSONL:
    default:
      ok = for_each_item (engine, options, write_ddb_item, &st, options->cancellable, error);
      break;
    }
  ok = writer_close (&w, ok, ok ? error : NULL) && ok;
  if (st.columns != NULL)
    {
      g_hash_table_destroy (st.column_index);
      g_ptr_array_unref (st.columns);
    }
  pr.p.bytes = written;
  progress_finish (&pr, out);
  return ok;
}
