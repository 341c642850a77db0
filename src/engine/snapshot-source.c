/* snapshot-source.c: the sources of an import: the files of a snapshot (one file, or the data
 * files an S3 export's manifest lists) and the items read from each, one at a time, in its format
 * (DynamoDB JSON lines, bare or {"Item": ...}; a plain JSON array or one object a line; CSV with
 * a typed header row). An item's errors are prefixed "FILE:LINE: ". */
#include <glib/gstdio.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/plainjson.h"
#include "core/ion.h"
#include "engine/snapshot-private.h"

static void
source_file_free (gpointer data)
{
  SourceFile *f = data;

  g_free (f->path);
  g_free (f->key);
  g_free (f->display);
  g_free (f->md5_base64);
  g_free (f->etag);
  g_free (f);
}

void
snap_item_source_close (ItemSource *src)
{
  if (src->open)
    snap_line_reader_close (&src->lr);
  src->open = FALSE;
  g_clear_pointer (&src->whole, g_byte_array_unref);
  g_clear_pointer (&src->ion_reader, ddb_ion_reader_free);
  g_clear_pointer (&src->ion_text, g_byte_array_unref);
  g_clear_pointer (&src->ion_pending, g_byte_array_unref);
  g_clear_pointer (&src->columns, g_ptr_array_unref);
  g_clear_pointer (&src->cells, g_ptr_array_unref);
}

gboolean
snap_item_source_finish (ItemSource *src, guint64 *bytes, GError **error)
{
  guint8 digest[16];
  GStatBuf st;

  if (src->lr.digest == NULL)
    {
      if (src->file->path != NULL && g_stat (src->file->path, &st) == 0)
        *bytes += (guint64) st.st_size;
      return TRUE;
    }
  if (!snap_line_reader_drain (&src->lr, digest, src->file->display, error))
    return FALSE;
  *bytes += snap_line_reader_position (&src->lr);
  return (src->file->md5_base64 == NULL && src->file->etag == NULL)
         || snap_check_digest (src->file, digest, error);
}

gboolean
snap_source_file_check (const SourceFile *f, GCancellable *cancellable, GError **error)
{
  return f->key != NULL || snap_verify_checksums (f, cancellable, error);
}

gboolean
snap_item_error (GError **error, GError *inner, const char *display, guint64 line)
{
  g_prefix_error (&inner, "%s:%" G_GUINT64_FORMAT ": ", display, line);
  g_propagate_error (error, inner);
  return FALSE;
}

gboolean
snap_item_source_open (ItemSource *src, DdbSnapshotFormat format, const SourceFile *file,
                       const DdbKeyDef *key, GCancellable *cancellable, GError **error)
{
  memset (src, 0, sizeof *src);
  src->format = format;
  src->file = file;
  src->key = key;
  src->wrapped = format == DDB_SNAPSHOT_S3 ? 1 : -1;
  if (file->key != NULL)
    {
      const DdbSnapshotStore *store = file->store;
      GInputStream *stream = store->open (file->key, store->data, cancellable, error);

      if (stream == NULL || !snap_line_reader_open_stream (&src->lr, stream, file->display,
                                                           cancellable, error))
        return FALSE;
    }
  else if (!snap_line_reader_open (&src->lr, file->path, file->display, cancellable, error))
    return FALSE;
  src->open = TRUE;

  if (format == DDB_SNAPSHOT_CSV)
    {
      guint ncells;
      guint64 line;
      GError *local = NULL;
      g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

      src->cells = g_ptr_array_new_with_free_func (snap_csv_cell_free);
      src->columns = g_ptr_array_new_with_free_func (snap_csv_column_free);
      if (!snap_csv_next_record (&src->lr, src->cells, &ncells, &line, file->display, &local))
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
          col = snap_csv_column_new (cell->text->str);
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
          snap_item_error (error, inner, src->file->display, src->array_line);
        }
      return NULL;
    }
  src->item_line = src->array_line;
  lines = 0;
  stop = json_value_end (p, end, &lines);
  if (stop == NULL || p == end)
    {
      g_set_error_literal (&inner, DDB_ERROR, DDB_ERROR_VALIDATION, "the JSON array is not closed");
      snap_item_error (error, inner, src->file->display, src->item_line);
      return NULL;
    }
  item = ddb_plain_parse_item (p, stop - p, DDB_PLAIN_TAGGED, &inner);
  src->array_line += lines;
  p = skip_ws_count (stop, end, &src->array_line);
  if (p < end && *p == ',')
    p++;
  else if (p >= end || *p != ']')
    {
      if (item == NULL)
        {
          snap_item_error (error, inner, src->file->display, src->item_line);
          return NULL;
        }
      ddb_value_free (item);
      g_set_error_literal (&inner, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "expected ',' or ']' after an array element");
      snap_item_error (error, inner, src->file->display, src->array_line);
      return NULL;
    }
  src->pos = (gsize) (p - base);
  if (item == NULL)
    {
      /* The element's own error: the array goes on after it. */
      src->refused_item = TRUE;
      snap_item_error (error, inner, src->file->display, src->item_line);
    }
  return item;
}

static DdbValue *
next_csv_item (ItemSource *src, GError **error)
{
  guint ncells;
  GError *inner = NULL;
  DdbValue *item;

  if (!snap_csv_next_record (&src->lr, src->cells, &ncells, &src->item_line, src->file->display,
                             error))
    return NULL;
  if (ncells > src->columns->len)
    {
      g_set_error (&inner, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "CSV: %u cells, but the header names %u columns", ncells, src->columns->len);
      src->refused_item = TRUE;
      snap_item_error (error, inner, src->file->display, src->item_line);
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
      v = snap_csv_cell_value (col, cell, src->key, &inner);
      if (v == NULL)
        {
          g_prefix_error (&inner, "column \"%s\": ", col->header);
          src->refused_item = TRUE;
          snap_item_error (error, inner, src->file->display, src->item_line);
          ddb_value_free (item);
          return NULL;
        }
      ddb_value_map_append (item, col->name, col->name_len, v);
    }
  return item;
}

/* A full export's record in Ion: its item. */
static DdbValue *
next_ion_item (ItemSource *src, GError **error)
{
  DdbIonRecord rec;
  GError *inner = NULL;

  if (!snap_ion_source_next (src, &rec, error) || rec.line == 0)
    return NULL;
  if (rec.item != NULL)
    return rec.item;
  ddb_ion_record_clear (&rec);
  src->refused_item = TRUE;
  g_set_error_literal (&inner, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "Ion: an incremental export record where a full export's Item was expected");
  snap_item_error (error, inner, src->file->display, src->item_line);
  return NULL;
}

/* The next item, or NULL at the end (no error) or on error. */
DdbValue *
snap_item_source_next (ItemSource *src, GError **error)
{
  const char *line;
  gsize len;
  GError *inner = NULL;
  DdbValue *item;

  src->refused_item = FALSE;
  if (src->array)
    return next_array_element (src, error);
  if (src->format == DDB_SNAPSHOT_CSV)
    return next_csv_item (src, error);
  if (src->file->ion)
    return next_ion_item (src, error);

  do
    {
      if (!snap_line_reader_next (&src->lr, &line, &len, src->file->display, error))
        return NULL;
    }
  while (snap_is_blank (line, len));
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
          if (!snap_line_reader_read_rest (&src->lr, src->whole, src->file->display, error))
            return NULL;
          return next_array_element (src, error);
        }
      src->json_decided = TRUE;
      item = ddb_plain_parse_item (line, (gssize) len, DDB_PLAIN_TAGGED, &inner);
    }
  else
    item = parse_ddb_line (src, line, len, &inner);

  if (item == NULL)
    {
      /* A line of its own: the next one reads on. */
      src->refused_item = TRUE;
      snap_item_error (error, inner, src->file->display, src->item_line);
    }
  return item;
}

DdbSnapshotFormat
snap_file_format_from_name (const char *path)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (g_str_has_suffix (lower, ".csv") || g_str_has_suffix (lower, ".csv.gz"))
    return DDB_SNAPSHOT_CSV;
  if (g_str_has_suffix (lower, ".json") || g_str_has_suffix (lower, ".json.gz"))
    return DDB_SNAPSHOT_JSON;
  return DDB_SNAPSHOT_JSONL;
}

void
snap_sources_clear (Sources *s)
{
  g_clear_pointer (&s->files, g_ptr_array_unref);
  g_clear_pointer (&s->key_spec, g_free);
  g_clear_pointer (&s->gsi_specs, g_strfreev);
  g_clear_pointer (&s->export_arn, g_free);
  g_clear_pointer (&s->display, g_free);
}

gboolean
snap_load_sources (Sources *s, const char *source, DdbSnapshotFormat format,
                   const DdbSnapshotStore *store, GError **error)
{
  memset (s, 0, sizeof *s);
  s->files = g_ptr_array_new_with_free_func (source_file_free);
  s->display = g_strdup (source);

  if (format == DDB_SNAPSHOT_AUTO)
    format = store != NULL || g_file_test (source, G_FILE_TEST_IS_DIR)
                 ? DDB_SNAPSHOT_S3
                 : snap_file_format_from_name (source);
  s->format = format;

  if (store != NULL && format != DDB_SNAPSHOT_S3)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Only an S3 export (the s3 format) is read from a bucket");
      return FALSE;
    }
  if (format == DDB_SNAPSHOT_S3)
    {
      if (!snap_load_s3_sources (s, source, store, error))
        return FALSE;
      if (store != NULL)
        {
          for (guint i = 0; i < s->files->len; i++)
            ((SourceFile *) g_ptr_array_index (s->files, i))->store = store;
          return TRUE; /* the sizes come with the reader's plan */
        }
    }
  else
    {
      SourceFile *f = g_new0 (SourceFile, 1);

      if (!snap_file_exists (source))
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