/* snapshot-import.c: the item stream of an import (DdbSnapshotReader, shared with the import to
 * a remote endpoint in backend/transfer.c) and the import into the engine in one store
 * transaction.
 *
 * Import reads items one at a time from an ItemSource (a line reader over a file, gunzipped
 * when the file starts with gzip's magic bytes), checks each as PutItem would (keys, index keys,
 * 400 KB) and puts it through the store inside the transaction that created the table; any
 * error, or cancellation, rolls the whole transaction back, so a failed import leaves nothing.
 * Errors about an item are prefixed "FILE:LINE: ". Without a key schema, one is inferred from
 * a sample of the items. */
#include <glib/gstdio.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemsize.h"
#include "core/keycodec.h"
#include "core/plainjson.h"
#include "engine/base-store.h"
#include "engine/engine-private.h"
#include "engine/item-ops.h"
#include "engine/request.h"
#include "engine/snapshot-private.h"
#include "engine/store.h"

#define INFER_SAMPLE 1000

/* ---- Item sources ---- */
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
    snap_line_reader_close (&src->lr);
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
  if (!snap_line_reader_open (&src->lr, file->path, file->display, cancellable, error))
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

  if (!snap_csv_next_record (&src->lr, src->cells, &ncells, &src->item_line, src->file->display,
                             error))
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
      v = snap_csv_cell_value (col, cell, src->key, &inner);
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
    item_error (error, inner, src->file->display, src->item_line);
  return item;
}

static void
sources_clear (Sources *s)
{
  g_clear_pointer (&s->files, g_ptr_array_unref);
  g_clear_pointer (&s->key_spec, g_free);
  g_clear_pointer (&s->gsi_specs, g_strfreev);
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
      if (!snap_load_s3_sources (s, source, error))
        return FALSE;
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
        ddb_set_validation_error (error, "The table name is not valid UTF-8");
      return NULL;
    }
  def->name = g_strdup (table_name);
  if (key_spec != NULL)
    {
      if (!snap_parse_key_spec (key_spec, "key", &def->key, error))
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
      DdbIndexDef *index = snap_parse_gsi_spec (gsis[i], error);

      if (index == NULL)
        return NULL;
      if (ddb_table_def_index (def, index->name) != NULL)
        {
          ddb_set_validation_error (error, "Duplicate index name: %s", index->name);
          ddb_index_def_free (index);
          return NULL;
        }
      g_ptr_array_add (def->indexes, index);
    }
  if (def->indexes->len > 20)
    {
      ddb_set_validation_error (
          error, "One or more parameter values were invalid: GlobalSecondaryIndex count "
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
                  ddb_set_validation_error (
                      error,
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

/* ---- The item stream ---- */

struct _DdbSnapshotReader {
  Sources s;
  DdbTableDef *def;
  gboolean inferred;
  GCancellable *cancellable;
  guint next_file; /* the index of the file to open next */
  ItemSource src;
  gboolean src_open;
  guint64 file_items; /* items of the open file so far */
  guint64 items;
  guint64 bytes_done; /* of the files read to their end */
  gboolean done;      /* at the end, or after an error */
};

DdbSnapshotReader *
ddb_snapshot_reader_open (const char *source, const DdbImportOptions *options, GError **error)
{
  g_autoptr (DdbSnapshotReader) r = g_new0 (DdbSnapshotReader, 1);

  g_return_val_if_fail (source != NULL && options != NULL, NULL);
  r->cancellable = options->cancellable;
  if (!load_sources (&r->s, source, options->format, error))
    return NULL;
  r->def = build_table_def (options->table_name, options, &r->s, &r->inferred, error);
  if (r->def == NULL)
    return NULL;
  return g_steal_pointer (&r);
}

void
ddb_snapshot_reader_free (DdbSnapshotReader *r)
{
  if (r == NULL)
    return;
  if (r->src_open)
    item_source_close (&r->src);
  g_clear_pointer (&r->def, ddb_table_def_free);
  sources_clear (&r->s);
  g_free (r);
}

static DdbValue *
reader_fail (DdbSnapshotReader *r, GError **error, GError *local)
{
  r->done = TRUE;
  g_propagate_error (error, local);
  return NULL;
}

DdbValue *
ddb_snapshot_reader_next (DdbSnapshotReader *r, GError **error)
{
  for (;;)
    {
      const SourceFile *f;
      DdbValue *item;
      GError *local = NULL;

      if (r->done)
        return NULL;
      if (!r->src_open)
        {
          if (r->next_file >= r->s.files->len)
            {
              r->done = TRUE;
              if (r->s.has_total && r->items != r->s.total)
                g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                             "manifest-summary.json gives itemCount %" G_GUINT64_FORMAT
                             ", the data files hold %" G_GUINT64_FORMAT " items",
                             r->s.total, r->items);
              return NULL;
            }
          f = g_ptr_array_index (r->s.files, r->next_file);
          if (r->s.format == DDB_SNAPSHOT_S3 && !snap_verify_checksums (f, r->cancellable, &local))
            return reader_fail (r, error, local);
          r->src_open = TRUE;
          r->file_items = 0;
          if (!item_source_open (&r->src, r->s.format, f, &r->def->key, r->cancellable, &local))
            return reader_fail (r, error, local);
        }
      f = g_ptr_array_index (r->s.files, r->next_file);
      item = item_source_next (&r->src, &local);
      if (item == NULL)
        {
          GStatBuf st;

          if (local != NULL)
            return reader_fail (r, error, local);
          if (f->has_count && r->file_items != f->count)
            {
              g_set_error (&local, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "%s: manifest-files.json gives itemCount %" G_GUINT64_FORMAT
                           ", the file holds %" G_GUINT64_FORMAT " items",
                           f->display, f->count, r->file_items);
              return reader_fail (r, error, local);
            }
          item_source_close (&r->src);
          r->src_open = FALSE;
          if (g_stat (f->path, &st) == 0)
            r->bytes_done += (guint64) st.st_size;
          r->next_file++;
          continue;
        }
      if (ddb_item_size (item) > DDB_MAX_ITEM_SIZE)
        g_set_error_literal (&local, DDB_ERROR, DDB_ERROR_VALIDATION,
                             "Item size has exceeded the maximum allowed size");
      else if (ddb_item_check_keys (r->def, item, &local))
        ddb_item_check_index_keys (r->def, item, FALSE, &local);
      if (local != NULL)
        {
          GError *prefixed = NULL;

          ddb_value_free (item);
          item_error (&prefixed, local, f->display, r->src.item_line);
          return reader_fail (r, error, prefixed);
        }
      r->file_items++;
      r->items++;
      if ((r->items & 63) == 0 && g_cancellable_set_error_if_cancelled (r->cancellable, &local))
        {
          ddb_value_free (item);
          return reader_fail (r, error, local);
        }
      return item;
    }
}

void
ddb_snapshot_reader_prefix_error (DdbSnapshotReader *r, GError **error)
{
  const SourceFile *f;

  if (r->next_file >= r->s.files->len)
    return;
  f = g_ptr_array_index (r->s.files, r->next_file);
  g_prefix_error (error, "%s:%" G_GUINT64_FORMAT ": ", f->display, r->src.item_line);
}

GBytes *
ddb_snapshot_reader_item_key (DdbSnapshotReader *r, const DdbValue *item)
{
  GByteArray *out = g_byte_array_new ();
  DdbValue *h = ddb_value_map_get (item, r->def->key.hash_name);
  DdbValue *s
      = r->def->key.range_name != NULL ? ddb_value_map_get (item, r->def->key.range_name) : NULL;

  /* Checked items hold their keys with the declared types, which always encode. */
  if (h != NULL)
    ddb_key_encode (h, out, NULL);
  if (s != NULL)
    ddb_key_encode (s, out, NULL);
  return g_byte_array_free_to_bytes (out);
}

gboolean
ddb_snapshot_reader_key_inferred (DdbSnapshotReader *r)
{
  return r->inferred;
}

char *
ddb_snapshot_reader_key_spec (DdbSnapshotReader *r)
{
  return snap_key_spec_string (&r->def->key);
}

guint64
ddb_snapshot_reader_bytes (DdbSnapshotReader *r)
{
  return r->bytes_done + (r->src_open ? snap_line_reader_position (&r->src.lr) : 0);
}

guint64
ddb_snapshot_reader_total_bytes (DdbSnapshotReader *r)
{
  return r->s.total_bytes;
}

static json_t *
key_schema_json (const DdbKeyDef *key)
{
  json_t *schema = json_pack ("[{ssss}]", "AttributeName", key->hash_name, "KeyType", "HASH");

  if (key->range_name != NULL)
    json_array_append_new (
        schema, json_pack ("{ssss}", "AttributeName", key->range_name, "KeyType", "RANGE"));
  return schema;
}

json_t *
ddb_snapshot_reader_create_table_request (DdbSnapshotReader *r)
{
  const DdbTableDef *def = r->def;
  json_t *req = json_pack ("{ss so sO ss}", "TableName", def->name, "KeySchema",
                           key_schema_json (&def->key), "AttributeDefinitions",
                           json_object_get (def->meta, "AttributeDefinitions"), "BillingMode",
                           "PAY_PER_REQUEST");

  if (def->indexes->len > 0)
    {
      json_t *gsis = json_array ();

      for (guint i = 0; i < def->indexes->len; i++)
        {
          const DdbIndexDef *index = g_ptr_array_index (def->indexes, i);

          json_array_append_new (gsis, json_pack ("{ss so s{ss}}", "IndexName", index->name,
                                                  "KeySchema", key_schema_json (&index->key),
                                                  "Projection", "ProjectionType", "ALL"));
        }
      json_object_set_new (req, "GlobalSecondaryIndexes", gsis);
    }
  return req;
}

/* ---- Import into the engine ---- */

static gboolean
import_locked (DdbEngine *engine, DdbSnapshotReader *r, const char *source,
               const DdbImportOptions *options, Progress *pr, GError **error)
{
  g_autofree char *absolute = NULL;
  DdbTableDef *def = r->def;
  DdbValue *item;
  GError *local = NULL;

  if (g_cancellable_set_error_if_cancelled (options->cancellable, error))
    return FALSE;
  if (!ddb_store_begin (engine->store, error))
    return FALSE;
  if (!ddb_store_set_bulk (engine->store, TRUE, error))
    goto rollback;
  if (!ddb_store_table_create (engine->store, def, error))
    goto rollback;
  while ((item = ddb_snapshot_reader_next (r, &local)) != NULL)
    {
      gboolean put = ddb_store_item_put (engine->store, def, item, &local);

      ddb_value_free (item);
      if (!put)
        {
          ddb_snapshot_reader_prefix_error (r, &local);
          break;
        }
      pr->p.items++;
      if ((pr->p.items & 63) == 0)
        {
          pr->p.bytes = ddb_snapshot_reader_bytes (r);
          snap_progress_tick (pr);
        }
    }
  pr->p.bytes = ddb_snapshot_reader_bytes (r);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      goto rollback;
    }
  if (r->inferred)
    {
      gint64 stored = 0, size = 0;

      if (!ddb_store_table_stats (engine->store, def, NULL, &stored, &size, error))
        goto rollback;
      if ((guint64) stored != pr->p.items)
        {
          g_autofree char *spec = snap_key_spec_string (&def->key);
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "The inferred key schema %s is not unique: %" G_GUINT64_FORMAT
                       " items but %" G_GINT64_FORMAT " distinct keys; give the key with --key",
                       spec, pr->p.items, stored);
          goto rollback;
        }
    }
  if (g_cancellable_set_error_if_cancelled (options->cancellable, error))
    goto rollback;
  /* The snapshot remembers its base: later writes keep each item's imported version. */
  absolute = g_canonicalize_filename (source, NULL);
  if (!ddb_base_set (engine->store, def,
                     options->base_source != NULL ? options->base_source : absolute,
                     options->base_format != NULL ? options->base_format
                                                  : ddb_snapshot_format_name (r->s.format),
                     g_get_real_time () / 1000, (gint64) pr->p.items, error))
    goto rollback;
  if (!ddb_store_commit (engine->store, error))
    goto rollback;
  /* Only fails if the database is unusable, which the next call will tell. */
  ddb_store_set_bulk (engine->store, FALSE, NULL);
  return TRUE;

rollback:
  ddb_store_rollback (engine->store);
  ddb_store_set_bulk (engine->store, FALSE, NULL);
  return FALSE;
}

gboolean
ddb_snapshot_import (DdbEngine *engine, const char *source, const DdbImportOptions *options,
                     DdbSnapshotProgress *out, GError **error)
{
  Progress pr;
  g_autoptr (DdbSnapshotReader) r = NULL;
  gboolean ok = FALSE;

  g_return_val_if_fail (engine != NULL, FALSE);
  g_return_val_if_fail (source != NULL, FALSE);
  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  snap_progress_init (&pr, options->progress, options->progress_data);
  /* The sources and the key schema (which may read a sample) are settled before the lock. */
  r = ddb_snapshot_reader_open (source, options, error);
  if (r != NULL)
    {
      pr.p.total_bytes = ddb_snapshot_reader_total_bytes (r);
      /* The whole import is one transaction on the engine's one connection: nothing else may
       * run on it meanwhile. */
      g_mutex_lock (&engine->lock);
      ok = import_locked (engine, r, source, options, &pr, error);
      g_mutex_unlock (&engine->lock);
    }
  snap_progress_finish (&pr, out);
  return ok;
}
