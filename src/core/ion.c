/* ion.c: Amazon Ion values (the generic tree ion-read.c builds) to DynamoDB values, items and
 * the records of an export's data files, with the rules ion.h lists and errors that name the
 * line and the attribute path. */
#include "core/ion.h"

#include <string.h>

#include "core/ion-private.h"

#include "core/ddbjson.h"
#include "core/jsontext.h"

typedef struct {
  DdbJsonTextPath path;
  GError *error;
} Map;

static const char *const ion_type_names[] = {
  [DDB_ION_TYPE_NULL] = "null",       [DDB_ION_TYPE_BOOL] = "bool",
  [DDB_ION_TYPE_INT] = "int",         [DDB_ION_TYPE_FLOAT] = "float",
  [DDB_ION_TYPE_DECIMAL] = "decimal", [DDB_ION_TYPE_TIMESTAMP] = "timestamp",
  [DDB_ION_TYPE_SYMBOL] = "symbol",   [DDB_ION_TYPE_STRING] = "string",
  [DDB_ION_TYPE_CLOB] = "clob",       [DDB_ION_TYPE_BLOB] = "blob",
  [DDB_ION_TYPE_LIST] = "list",       [DDB_ION_TYPE_SEXP] = "s-expression",
  [DDB_ION_TYPE_STRUCT] = "struct",
};

/* Records the first failure with the value's line and the current path; returns NULL. */
static gpointer
map_fail (Map *m, const DdbIonValue *v, DdbIonErrorCode code, const char *message)
{
  GString *s;

  if (m->error != NULL)
    return NULL;
  s = g_string_new (NULL);
  g_string_append_printf (s, "line %u: %s", v->line, message);
  if (m->path.depth > 0)
    {
      g_string_append (s, DDB_JSON_PATH_SEPARATOR);
      ddb_jsontext_path_append (s, &m->path);
    }
  m->error = g_error_new_literal (DDB_ION_ERROR, code, s->str);
  g_string_free (s, TRUE);
  return NULL;
}

static gpointer
map_fail_type (Map *m, const DdbIonValue *v, const char *what)
{
  g_autofree char *msg
      = g_strdup_printf ("an Ion %s has no DynamoDB type%s", ion_type_names[v->type], what);
  return map_fail (m, v, DDB_ION_ERROR_NOT_DYNAMODB, msg);
}

static DdbValue *to_ddb (Map *m, const DdbIonValue *v, guint level);

static DdbValue *
to_number (Map *m, const DdbIonValue *v)
{
  DdbNumber n;
  g_autoptr (GError) error = NULL;

  if (!ddb_number_parse (&n, v->text.data, (gssize) v->text.len, &error))
    return map_fail (m, v, DDB_ION_ERROR_INVALID, error->message);
  return ddb_value_new_n (&n);
}

/* Big structs find repeated names through a hash of the names seen. */
#define MAP_HASH_MIN 16

gboolean
ion_names_contain (IonNames *names, const DdbValue *map, const char *name, gsize len)
{
  guint n = ddb_value_map_size (map);
  g_autoptr (GBytes) key = NULL;

  if (n < MAP_HASH_MIN)
    return ddb_value_map_get_len (map, name, len) != NULL;
  if (names->seen == NULL)
    names->seen
        = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  /* The map owns its names, each in a block of its own: they stay where they are. */
  for (; names->count < n; names->count++)
    {
      const DdbAttr *a = ddb_value_map_nth (map, names->count);
      g_hash_table_add (names->seen, g_bytes_new_static (a->name, a->name_len));
    }
  key = g_bytes_new_static (name, len);
  return g_hash_table_contains (names->seen, key);
}

void
ion_names_clear (IonNames *names)
{
  g_clear_pointer (&names->seen, g_hash_table_unref);
  names->count = 0;
}

static DdbValue *
to_map (Map *m, const DdbIonValue *v, guint level)
{
  DdbValue *map = ddb_value_new_m_sized (v->fields->len);
  IonNames names = { 0 };

  for (guint i = 0; i < v->fields->len; i++)
    {
      const DdbIonField *f = &g_array_index (v->fields, DdbIonField, i);
      DdbValue *e;

      if (f->name == NULL)
        {
          map_fail (m, f->value, DDB_ION_ERROR_NOT_DYNAMODB,
                    "a field name without text ($0) cannot be an attribute name");
          goto error;
        }
      ddb_jsontext_path_push_name (&m->path, f->name, f->name_len);
      if (ion_names_contain (&names, map, f->name, f->name_len))
        e = map_fail (m, f->value, DDB_ION_ERROR_INVALID, "an attribute name appears twice");
      else
        e = to_ddb (m, f->value, level);
      ddb_jsontext_path_pop (&m->path);
      if (e == NULL)
        goto error;
      ddb_value_map_append (map, f->name, f->name_len, e);
    }
  ion_names_clear (&names);
  return map;
error:
  ion_names_clear (&names);
  ddb_value_free (map);
  return NULL;
}

static DdbValue *
to_set (Map *m, const DdbIonValue *v, DdbType type)
{
  DdbIonType want = type == DDB_TYPE_SS   ? DDB_ION_TYPE_STRING
                    : type == DDB_TYPE_BS ? DDB_ION_TYPE_BLOB
                                          : DDB_ION_TYPE_DECIMAL;
  DdbValue *set = ddb_value_new_set_sized (type, v->elems->len);
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < v->elems->len; i++)
    {
      const DdbIonValue *e = g_ptr_array_index (v->elems, i);
      DdbValue *d = NULL;
      gboolean fits
          = e->type == want || (want == DDB_ION_TYPE_DECIMAL && e->type == DDB_ION_TYPE_INT);

      ddb_jsontext_path_push_index (&m->path, i);
      if (e->annotations != NULL || e->is_null || !fits)
        {
          g_autofree char *msg = g_strdup_printf (
              "a %s element must be a%s %s, not %s%s", ddb_type_name (type),
              want == DDB_ION_TYPE_DECIMAL ? "n int or" : "", ion_type_names[want],
              e->annotations != NULL ? "an annotated "
              : e->is_null           ? "a null "
                                     : "a ",
              ion_type_names[e->type]);
          map_fail (m, e, DDB_ION_ERROR_NOT_DYNAMODB, msg);
        }
      else if (type == DDB_TYPE_NS)
        d = to_number (m, e);
      else
        d = ddb_value_take_bytes (ddb_type_set_element (type),
                                  g_memdup2 (e->text.data, e->text.len + 1), e->text.len);
      ddb_jsontext_path_pop (&m->path);
      if (d == NULL)
        {
          ddb_value_free (set);
          return NULL;
        }
      g_ptr_array_add (set->elems, d);
    }
  if (!ddb_value_validate_set (set, &error))
    {
      ddb_value_free (set);
      return map_fail (m, v, DDB_ION_ERROR_INVALID, error->message);
    }
  return set;
}

/* `v` is at nesting `level` (1 for an item's attribute). */
static DdbValue *
to_ddb (Map *m, const DdbIonValue *v, guint level)
{
  if (level > DDB_MAX_NESTING)
    return map_fail (m, v, DDB_ION_ERROR_INVALID, DDB_NESTING_MESSAGE);
  if (v->annotations != NULL)
    {
      static const char *const set_names[] = { "$dynamodb_SS", "$dynamodb_NS", "$dynamodb_BS" };
      static const DdbType set_types[] = { DDB_TYPE_SS, DDB_TYPE_NS, DDB_TYPE_BS };

      for (guint i = 0; i < G_N_ELEMENTS (set_names); i++)
        if (strcmp (v->annotations[0], set_names[i]) == 0)
          {
            if (v->annotations[1] != NULL)
              return map_fail (m, v, DDB_ION_ERROR_NOT_DYNAMODB,
                               "a set may carry only its $dynamodb_ annotation");
            if (v->type != DDB_ION_TYPE_LIST || v->is_null)
              {
                g_autofree char *msg
                    = g_strdup_printf ("%s annotates a list, not %s%s", set_names[i],
                                       v->is_null ? "a null " : "a ", ion_type_names[v->type]);
                return map_fail (m, v, DDB_ION_ERROR_NOT_DYNAMODB, msg);
              }
            return to_set (m, v, set_types[i]);
          }
      {
        g_autofree char *msg
            = g_strdup_printf ("the annotation '%s' has no DynamoDB meaning", v->annotations[0]);
        return map_fail (m, v, DDB_ION_ERROR_NOT_DYNAMODB, msg);
      }
    }
  if (v->is_null)
    return ddb_value_new_null ();
  switch (v->type)
    {
    case DDB_ION_TYPE_BOOL:
      return ddb_value_new_bool (v->boolean);
    case DDB_ION_TYPE_INT:
    case DDB_ION_TYPE_DECIMAL:
      return to_number (m, v);
    case DDB_ION_TYPE_STRING:
      return ddb_value_new_s (v->text.data, (gssize) v->text.len);
    case DDB_ION_TYPE_BLOB:
      return ddb_value_new_b (v->text.data, v->text.len);
    case DDB_ION_TYPE_STRUCT:
      return to_map (m, v, level + 1);
      case DDB_ION_TYPE_LIST: {
        DdbValue *l = ddb_value_new_l_sized (v->elems->len);
        for (guint i = 0; i < v->elems->len; i++)
          {
            DdbValue *e;
            ddb_jsontext_path_push_index (&m->path, i);
            e = to_ddb (m, g_ptr_array_index (v->elems, i), level + 1);
            ddb_jsontext_path_pop (&m->path);
            if (e == NULL)
              {
                ddb_value_free (l);
                return NULL;
              }
            g_ptr_array_add (l->elems, e);
          }
        return l;
      }
    case DDB_ION_TYPE_FLOAT:
      return map_fail_type (m, v, " (a number is an Ion decimal or int, to stay exact)");
    default:
      return map_fail_type (m, v, "");
    }
}

static gboolean
map_finish (Map *m, DdbValue *result, GError **error)
{
  if (result == NULL)
    {
      g_propagate_error (error, m->error);
      return FALSE;
    }
  g_clear_error (&m->error);
  return TRUE;
}

DdbValue *
ddb_ion_to_ddb (const DdbIonValue *v, GError **error)
{
  Map m = { 0 };
  DdbValue *result = to_ddb (&m, v, 1);

  map_finish (&m, result, error);
  return result;
}

static DdbValue *
to_item (Map *m, const DdbIonValue *v)
{
  if (v->type != DDB_ION_TYPE_STRUCT || v->is_null || v->annotations != NULL)
    return map_fail (m, v, DDB_ION_ERROR_NOT_DYNAMODB, "an item must be a struct, unannotated");
  return to_map (m, v, 1);
}

DdbValue *
ddb_ion_to_item (const DdbIonValue *v, GError **error)
{
  Map m = { 0 };
  DdbValue *result = to_item (&m, v);

  map_finish (&m, result, error);
  return result;
}

/* Records */

void
ddb_ion_record_clear (DdbIonRecord *record)
{
  g_clear_pointer (&record->item, ddb_value_free);
  g_clear_pointer (&record->keys, ddb_value_free);
  g_clear_pointer (&record->new_image, ddb_value_free);
  g_clear_pointer (&record->old_image, ddb_value_free);
  g_clear_pointer (&record->metadata, ddb_value_free);
  record->line = 0;
}

#define RECORD_SHAPE \
  "an export record is a struct holding Item, or Keys with Metadata, NewImage or OldImage"

DdbValue **
ion_record_slot (DdbIonRecord *record, const char *name, gsize len)
{
  static const char *const parts[] = { "Item", "Keys", "NewImage", "OldImage", "Metadata" };
  DdbValue **slots[]
      = { &record->item, &record->keys, &record->new_image, &record->old_image, &record->metadata };

  for (guint k = 0; k < G_N_ELEMENTS (parts); k++)
    if (name != NULL && strlen (parts[k]) == len && memcmp (name, parts[k], len) == 0)
      return slots[k];
  return NULL;
}

gboolean
ion_record_shape_ok (const DdbIonRecord *record)
{
  return (record->item != NULL) != (record->keys != NULL)
         && !(record->item != NULL && (record->new_image || record->old_image || record->metadata));
}

static gboolean
record_from_value (const DdbIonValue *v, DdbIonRecord *out, GError **error)
{
  Map m = { 0 };

  out->line = v->line;
  if (v->type != DDB_ION_TYPE_STRUCT || v->is_null || v->annotations != NULL)
    {
      map_fail (&m, v, DDB_ION_ERROR_NOT_DYNAMODB, RECORD_SHAPE);
      goto error;
    }
  for (guint i = 0; i < v->fields->len; i++)
    {
      const DdbIonField *f = &g_array_index (v->fields, DdbIonField, i);
      DdbValue **slot = ion_record_slot (out, f->name, f->name_len);

      if (slot == NULL || *slot != NULL)
        {
          g_autofree char *msg = g_strdup_printf (
              "%s '%s' (" RECORD_SHAPE ")", slot == NULL ? "unexpected field" : "repeated field",
              f->name != NULL ? f->name : "$0");
          map_fail (&m, f->value, DDB_ION_ERROR_NOT_DYNAMODB, msg);
          goto error;
        }
      *slot = to_item (&m, f->value);
      if (*slot == NULL)
        goto error;
    }
  if (!ion_record_shape_ok (out))
    {
      map_fail (&m, v, DDB_ION_ERROR_NOT_DYNAMODB, RECORD_SHAPE);
      goto error;
    }
  return TRUE;
error:
  ddb_ion_record_clear (out);
  g_propagate_error (error, m.error);
  return FALSE;
}

gboolean
ddb_ion_reader_next_record (DdbIonReader *reader, DdbIonRecord *out, GError **error)
{
  g_autoptr (DdbIonValue) v = NULL;

  memset (out, 0, sizeof *out);
  if (!ddb_ion_reader_next_value (reader, &v, error))
    return FALSE;
  if (v == NULL)
    return TRUE;
  return record_from_value (v, out, error);
}

gboolean
ddb_ion_parse_export_record (const char *line, gsize len, guint line_no, DdbIonRecord *out,
                             GError **error)
{
  g_autoptr (DdbIonReader) reader = NULL;
  g_autoptr (DdbIonValue) extra = NULL;

  /* A line as the export writes it takes the direct path; anything else, and every error, is
   * read through the generic tree. */
  if (ddb_ion_direct_export_record (line, len, line_no, out))
    return TRUE;
  reader = ddb_ion_reader_new (line, len);
  ddb_ion_reader_set_first_line (reader, line_no);
  if (!ddb_ion_reader_next_record (reader, out, error))
    return FALSE;
  if (out->line == 0)
    {
      g_set_error (error, DDB_ION_ERROR, DDB_ION_ERROR_NOT_DYNAMODB, "line %u: %s", line_no,
                   "a line without a record");
      return FALSE;
    }
  if (!ddb_ion_reader_next_value (reader, &extra, error) || extra != NULL)
    {
      if (extra != NULL)
        g_set_error (error, DDB_ION_ERROR, DDB_ION_ERROR_NOT_DYNAMODB, "line %u: %s", extra->line,
                     "a second value after the record");
      ddb_ion_record_clear (out);
      return FALSE;
    }
  return TRUE;
}

DdbValue *
ddb_ion_parse_export_line (const char *line, gsize len, GError **error)
{
  DdbIonRecord record;

  if (!ddb_ion_parse_export_record (line, len, 1, &record, error))
    return NULL;
  if (record.item == NULL)
    {
      g_set_error (error, DDB_ION_ERROR, DDB_ION_ERROR_NOT_DYNAMODB, "line %u: %s", record.line,
                   "an incremental export record where a full export's Item was expected");
      ddb_ion_record_clear (&record);
      return NULL;
    }
  return record.item;
}
