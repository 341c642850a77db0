/* request.c: reading and checking the members of an API request (table names, strings, enums,
 * numbers, items, keys, expression placeholders) with DynamoDB's own messages. */
#include "engine/request.h"

#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemsize.h"
#include "engine/item-ops.h"

#define START_OF_MAP "Start of structure or map found where not expected"
#define NOT_MATCH_SCHEMA "The provided key element does not match the schema"
#define HASH_KEY_TOO_BIG \
  "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size " \
  "limit of2048 bytes"
#define RANGE_KEY_TOO_BIG \
  "One or more parameter values were invalid: Aggregated size of all range keys has exceeded " \
  "the size limit of 1024 bytes"
#define MAX_HASH_KEY_BYTES 2048
#define MAX_RANGE_KEY_BYTES 1024

/* ---- Errors ---- */

gpointer
ddb_req_fail (GError **error, DdbErrorCode code, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (DDB_ERROR, code, format, args));
  va_end (args);
  return NULL;
}

/* ---- "N validation errors detected" ---- */

void
ddb_violations_init (DdbViolations *v)
{
  v->text = g_string_new (NULL);
  v->count = 0;
}

void
ddb_violation_add (DdbViolations *v, const char *path, const char *value, const char *constraint)
{
  if (v->count > 0)
    g_string_append (v->text, "; ");
  if (value != NULL)
    g_string_append_printf (v->text, "Value '%s'", value);
  else
    g_string_append (v->text, "Value null");
  g_string_append_printf (v->text, " at '%s' failed to satisfy constraint: %s", path, constraint);
  v->count++;
}

gboolean
ddb_violations_finish (DdbViolations *v, GError **error)
{
  gboolean ok = v->count == 0;

  if (!ok)
    g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "%u validation error%s detected: %s",
                 v->count, v->count > 1 ? "s" : "", v->text->str);
  g_string_free (v->text, TRUE);
  return ok;
}

/* A request member is named with a lower-case first letter ("TableName" -> 'tableName'). */
static void
violation_add (DdbViolations *v, const char *member, const char *value, const char *constraint)
{
  g_autofree char *path = g_strdup (member);

  path[0] = g_ascii_tolower (path[0]);
  ddb_violation_add (v, path, value, constraint);
}

static gboolean
fail_not_null (const char *member, GError **error)
{
  DdbViolations v;

  ddb_violations_init (&v);
  violation_add (&v, member, NULL, "Member must not be null");
  return ddb_violations_finish (&v, error);
}

/* A member set to JSON null is absent, as DynamoDB reads it. */
static json_t *
member_get (json_t *req, const char *member)
{
  json_t *j;

  if (req == NULL || !json_is_object (req))
    return NULL;
  j = json_object_get (req, member);
  return j == NULL || json_is_null (j) ? NULL : j;
}

gboolean
ddb_req_type_error (json_t *j, const char *java_type, GError **error)
{
  const char *kind;

  switch (json_typeof (j))
    {
    case JSON_OBJECT:
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_SERIALIZATION, START_OF_MAP);
      return FALSE;
    case JSON_ARRAY:
      g_set_error (error, DDB_ERROR, DDB_ERROR_SERIALIZATION,
                   "Unrecognized collection type class java.lang.%s", java_type);
      return FALSE;
    case JSON_STRING:
      kind = "STRING_VALUE";
      break;
    case JSON_INTEGER:
      kind = "NUMBER_VALUE";
      break;
    case JSON_REAL:
      kind = "DECIMAL_VALUE";
      break;
    case JSON_TRUE:
      kind = "TRUE_VALUE";
      break;
    case JSON_FALSE:
      kind = "FALSE_VALUE";
      break;
    default:
      kind = "NULL_VALUE";
      break;
    }
  g_set_error (error, DDB_ERROR, DDB_ERROR_SERIALIZATION, "%s cannot be converted to %s", kind,
               java_type);
  return FALSE;
}

/* ---- Members ---- */

static gboolean
table_name_char_ok (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '.' || c == '-';
}

const char *
ddb_req_table_name (json_t *req, const char *member, GError **error)
{
  json_t *j;
  const char *name;
  gsize len, i;
  glong chars;
  gboolean pattern_ok;
  DdbViolations v;

  if (member == NULL)
    member = "TableName";
  j = member_get (req, member);
  if (j == NULL)
    {
      fail_not_null (member, error);
      return NULL;
    }
  if (!json_is_string (j))
    {
      ddb_req_type_error (j, "String", error);
      return NULL;
    }
  name = json_string_value (j);
  len = json_string_length (j);
  pattern_ok = len > 0 && strlen (name) == len;
  for (i = 0; pattern_ok && i < len; i++)
    pattern_ok = table_name_char_ok (name[i]);
  /* Lengths are in characters, as Java counts them. */
  chars = g_utf8_validate_len (name, len, NULL) ? g_utf8_strlen (name, len) : (glong) len;

  ddb_violations_init (&v);
  if (!pattern_ok)
    violation_add (&v, member, name,
                   "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
  if (chars < 3)
    violation_add (&v, member, name, "Member must have length greater than or equal to 3");
  if (chars > 255)
    violation_add (&v, member, name, "Member must have length less than or equal to 255");
  if (!ddb_violations_finish (&v, error))
    return NULL;
  return name;
}

const char *
ddb_req_string (json_t *req, const char *member, gboolean required, GError **error)
{
  json_t *j = member_get (req, member);

  if (j == NULL)
    {
      if (required)
        fail_not_null (member, error);
      return NULL;
    }
  if (!json_is_string (j))
    {
      ddb_req_type_error (j, "String", error);
      return NULL;
    }
  return json_string_value (j);
}

int
ddb_req_enum (json_t *req, const char *member, const char *const *allowed, int fallback,
              GError **error)
{
  json_t *j = member_get (req, member);
  const char *s;
  GString *set;
  DdbViolations v;
  int i;

  if (j == NULL)
    return fallback;
  if (!json_is_string (j))
    {
      ddb_req_type_error (j, "String", error);
      return -1;
    }
  s = json_string_value (j);
  for (i = 0; allowed[i] != NULL; i++)
    if (strcmp (s, allowed[i]) == 0)
      return i;

  set = g_string_new ("Member must satisfy enum value set: [");
  for (i = 0; allowed[i] != NULL; i++)
    g_string_append_printf (set, "%s%s", i > 0 ? ", " : "", allowed[i]);
  g_string_append_c (set, ']');
  ddb_violations_init (&v);
  violation_add (&v, member, s, set->str);
  ddb_violations_finish (&v, error);
  g_string_free (set, TRUE);
  return -1;
}

gboolean
ddb_req_bool (json_t *req, const char *member, gboolean fallback, gboolean *out, GError **error)
{
  json_t *j = member_get (req, member);

  if (j == NULL)
    {
      *out = fallback;
      return TRUE;
    }
  if (json_is_boolean (j))
    {
      *out = json_is_true (j);
      return TRUE;
    }
  if (json_is_string (j))
    {
      /* The deserializer reads a string where a boolean belongs as an unexpected token. */
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_SERIALIZATION,
                           "Unexpected token received from parser");
      return FALSE;
    }
  ddb_req_type_error (j, "Boolean", error);
  return FALSE;
}

gboolean
ddb_req_int (json_t *req, const char *member, gint64 min, gint64 max, gint64 *out,
             gboolean *present, GError **error)
{
  json_t *j = member_get (req, member);
  gint64 n;
  DdbViolations v;
  char *text, *constraint;

  if (present != NULL)
    *present = j != NULL;
  if (j == NULL)
    return TRUE;
  if (json_is_integer (j))
    n = json_integer_value (j);
  else if (json_is_real (j))
    {
      /* A fraction is dropped, as the Java deserializer does for an Integer member. */
      double d = json_real_value (j);
      n = d >= (double) G_MAXINT64   ? G_MAXINT64
          : d <= (double) G_MININT64 ? G_MININT64
                                     : (gint64) d;
    }
  else
    {
      ddb_req_type_error (j, "Integer", error);
      return FALSE;
    }

  ddb_violations_init (&v);
  text = g_strdup_printf ("%" G_GINT64_FORMAT, n);
  if (n < min)
    {
      constraint = g_strdup_printf (
          "Member must have value greater than or equal to %" G_GINT64_FORMAT, min);
      violation_add (&v, member, text, constraint);
      g_free (constraint);
    }
  if (n > max)
    {
      constraint
          = g_strdup_printf ("Member must have value less than or equal to %" G_GINT64_FORMAT, max);
      violation_add (&v, member, text, constraint);
      g_free (constraint);
    }
  g_free (text);
  if (!ddb_violations_finish (&v, error))
    return FALSE;
  *out = n;
  return TRUE;
}

/* ---- AttributeValues ---- */

#define EMPTY_ATTRIBUTE_NAME "Empty attribute name"

/* The core's message without the attribute path it appends for people. */
static void
strip_path (GError *error)
{
  char *cut;

  if (error == NULL || error->domain != DDB_ERROR)
    return;
  cut = strstr (error->message, DDB_JSON_PATH_SEPARATOR);
  if (cut != NULL)
    *cut = '\0';
}

gboolean
ddb_req_attribute_name (const char *name, GError **error)
{
  if (name != NULL && name[0] != '\0')
    return TRUE;
  g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, EMPTY_ATTRIBUTE_NAME);
  return FALSE;
}

static gboolean map_has_empty_name (json_t *map);

/* Whether the value, in JSON, holds a map (M, at any depth in M and L) with an empty key. */
static gboolean
value_has_empty_name (json_t *value)
{
  json_t *m, *l, *elem;
  gsize i;

  if (!json_is_object (value))
    return FALSE;
  m = json_object_get (value, "M");
  if (json_is_object (m) && map_has_empty_name (m))
    return TRUE;
  l = json_object_get (value, "L");
  if (json_is_array (l))
    json_array_foreach (l, i, elem)
      {
        if (value_has_empty_name (elem))
          return TRUE;
      }
  return FALSE;
}

static gboolean
map_has_empty_name (json_t *map)
{
  const char *name;
  json_t *value;

  json_object_foreach (map, name, value)
    {
      if (name[0] == '\0' || value_has_empty_name (value))
        return TRUE;
    }
  return FALSE;
}

DdbValue *
ddb_req_value (json_t *json, GError **error)
{
  GError *local = NULL;
  DdbValue *v = ddb_json_to_value (json, &local);

  /* A serialization problem is found while reading the request, before any name is looked
   * at; among validation problems the empty name comes first in the value. */
  if ((v == NULL && local->code == DDB_ERROR_SERIALIZATION) || !value_has_empty_name (json))
    {
      strip_path (local);
      if (local != NULL)
        g_propagate_error (error, local);
      return v;
    }
  g_clear_error (&local);
  g_clear_pointer (&v, ddb_value_free);
  g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, EMPTY_ATTRIBUTE_NAME);
  return NULL;
}

DdbValue *
ddb_req_attribute_map (json_t *json, GError **error)
{
  GError *local = NULL;
  DdbValue *map = ddb_json_to_item (json, &local);
  const char *name;
  json_t *value;

  if (map == NULL && (local->code == DDB_ERROR_SERIALIZATION || !json_is_object (json)))
    {
      strip_path (local);
      g_propagate_error (error, local);
      return NULL;
    }
  /* DynamoDB validates attribute by attribute: the first attribute with an empty name (here
   * or inside it) or a bad value decides the message. */
  json_object_foreach (json, name, value)
    {
      GError *own = NULL;
      DdbValue *v;

      if (name[0] == '\0' || value_has_empty_name (value))
        {
          g_clear_error (&local);
          g_clear_pointer (&map, ddb_value_free);
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, EMPTY_ATTRIBUTE_NAME);
          return NULL;
        }
      if (local == NULL)
        continue;
      v = ddb_json_to_value (value, &own);
      if (v == NULL)
        {
          g_clear_error (&local);
          strip_path (own);
          g_propagate_error (error, own);
          return NULL;
        }
      ddb_value_free (v);
    }
  if (local != NULL)
    {
      /* A problem with the map as a whole. */
      strip_path (local);
      g_propagate_error (error, local);
      return NULL;
    }
  return map;
}

void
ddb_req_error_prefix_members (GError *error, const char *prefix)
{
  g_autoptr (GRegex) re = NULL;
  g_autofree char *replacement = NULL;
  char *rewritten;

  if (error == NULL || !g_error_matches (error, DDB_ERROR, DDB_ERROR_VALIDATION)
      || !g_regex_match_simple ("^[0-9]+ validation errors? detected: ", error->message, 0, 0))
    return;
  /* The member of each violation: "Value ... at 'member' failed to satisfy constraint". */
  re = g_regex_new ("( at ')([a-zA-Z][a-zA-Z0-9.]*' failed to satisfy constraint: )", 0, 0,
                    NULL);
  replacement = g_strdup_printf ("\\1%s\\2", prefix);
  rewritten = g_regex_replace (re, error->message, -1, 0, replacement, 0, NULL);
  if (rewritten != NULL)
    {
      g_free (error->message);
      error->message = rewritten;
    }
}

/* ---- Items and keys ---- */

static gboolean
is_empty_bytes (const DdbValue *v)
{
  return (v->type == DDB_TYPE_S || v->type == DDB_TYPE_B) && v->bytes.len == 0;
}

static const char *
empty_kind (const DdbValue *v)
{
  return v->type == DDB_TYPE_B ? "binary" : "string";
}

gboolean
ddb_key_value_check_size (const DdbValue *v, gboolean is_hash, GError **error)
{
  if (v->type != DDB_TYPE_S && v->type != DDB_TYPE_B)
    return TRUE; /* numbers always fit */
  if (is_hash && v->bytes.len > MAX_HASH_KEY_BYTES)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, HASH_KEY_TOO_BIG);
      return FALSE;
    }
  if (!is_hash && v->bytes.len > MAX_RANGE_KEY_BYTES)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, RANGE_KEY_TOO_BIG);
      return FALSE;
    }
  return TRUE;
}

static gboolean
fail_empty_key (const char *name, const DdbValue *v, GError **error)
{
  g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
               "One or more parameter values are not valid. The AttributeValue for a key "
               "attribute cannot contain an empty %s value. Key: %s",
               empty_kind (v), name);
  return FALSE;
}

/* DynamoDB checks empty key values up front, before anything else about the key, so an empty
 * key attribute wins over a problem with another one. */
static gboolean
check_empty_keys (const DdbKeyDef *key, const DdbValue *item, GError **error)
{
  const char *names[2] = { key->hash_name, key->range_name };
  const DdbType types[2] = { key->hash_type, key->range_type };

  for (guint i = 0; i < 2; i++)
    {
      DdbValue *v;

      if (names[i] == NULL)
        continue;
      v = ddb_value_map_get (item, names[i]);
      if (v != NULL && v->type == types[i] && is_empty_bytes (v))
        return fail_empty_key (names[i], v, error);
    }
  return TRUE;
}

static int
index_cmp_by_name (gconstpointer a, gconstpointer b)
{
  const DdbIndexDef *ia = *(const DdbIndexDef *const *) a;
  const DdbIndexDef *ib = *(const DdbIndexDef *const *) b;

  return strcmp (ia->name, ib->name);
}

gboolean
ddb_item_check_index_keys (const DdbTableDef *def, const DdbValue *item, gboolean from_update,
                           GError **error)
{
  g_autoptr (GPtrArray) sorted = NULL;

  if (def->indexes == NULL || def->indexes->len == 0)
    return TRUE;
  /* DynamoDB names the first index, by name, that a bad attribute is a key of. */
  sorted = g_ptr_array_copy (def->indexes, NULL, NULL);
  /* The copy inherits the free function: it borrows the definitions, so it must not free them. */
  g_ptr_array_set_free_func (sorted, NULL);
  g_ptr_array_sort (sorted, index_cmp_by_name);
  for (guint i = 0; i < sorted->len; i++)
    {
      const DdbIndexDef *index = g_ptr_array_index (sorted, i);
      const char *names[2] = { index->key.hash_name, index->key.range_name };
      const DdbType types[2] = { index->key.hash_type, index->key.range_type };

      for (guint k = 0; k < 2; k++)
        {
          DdbValue *v;

          if (names[k] == NULL)
            continue;
          v = ddb_value_map_get (item, names[k]);
          if (v == NULL)
            continue; /* sparse */
          if (v->type != types[k])
            {
              g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "One or more parameter values were invalid: Type mismatch for Index "
                           "Key %s Expected: %s Actual: %s IndexName: %s",
                           names[k], ddb_type_name (types[k]), ddb_type_name (v->type),
                           index->name);
              return FALSE;
            }
          if (is_empty_bytes (v))
            {
              if (from_update)
                g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                             "One or more parameter values are not valid. The update expression "
                             "attempted to update a secondary index key to a value that is not "
                             "supported. The AttributeValue for a key attribute cannot contain "
                             "an empty %s value.",
                             empty_kind (v));
              else
                g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                             "One or more parameter values are not valid. A value specified for "
                             "a secondary index key is not supported. The AttributeValue for a "
                             "key attribute cannot contain an empty %s value. IndexName: %s, "
                             "IndexKey: %s",
                             empty_kind (v), index->name, names[k]);
              return FALSE;
            }
          if (!ddb_key_value_check_size (v, k == 0, error))
            return FALSE;
        }
    }
  return TRUE;
}

gboolean
ddb_item_check_keys (const DdbTableDef *def, const DdbValue *item, GError **error)
{
  const char *names[2] = { def->key.hash_name, def->key.range_name };
  const DdbType types[2] = { def->key.hash_type, def->key.range_type };

  if (!check_empty_keys (&def->key, item, error))
    return FALSE;
  for (guint i = 0; i < 2; i++)
    {
      DdbValue *v;

      if (names[i] == NULL)
        continue;
      v = ddb_value_map_get (item, names[i]);
      if (v == NULL)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "One or more parameter values were invalid: Missing the key %s in the item",
                       names[i]);
          return FALSE;
        }
      if (v->type != types[i])
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "One or more parameter values were invalid: Type mismatch for key %s "
                       "expected: %s actual: %s",
                       names[i], ddb_type_name (types[i]), ddb_type_name (v->type));
          return FALSE;
        }
      if (!ddb_key_value_check_size (v, i == 0, error))
        return FALSE;
    }
  return TRUE;
}

DdbValue *
ddb_req_item (json_t *json, const DdbTableDef *def, GError **error)
{
  g_autoptr (DdbValue) item = NULL;

  if (json == NULL || json_is_null (json))
    {
      fail_not_null ("Item", error);
      return NULL;
    }
  item = ddb_req_attribute_map (json, error);
  if (item == NULL)
    return NULL;
  if (ddb_item_size (item) > DDB_MAX_ITEM_SIZE)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Item size has exceeded the maximum allowed size");
      return NULL;
    }
  if (!ddb_item_check_keys (def, item, error)
      || !ddb_item_check_index_keys (def, item, FALSE, error))
    return NULL;
  return g_steal_pointer (&item);
}

/* The key attributes of `key`, against `names`/`types` (n of them): exactly those, of those
 * types, within the size limits. `what` is the message for a mismatch. */
static gboolean
check_key_map (const DdbValue *key, guint n, const char *const *names, const DdbType *types,
               const gboolean *is_hash, const char *what, GError **error)
{
  if (ddb_value_map_size (key) != n)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, what);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      DdbValue *v = ddb_value_map_get (key, names[i]);

      if (v == NULL || v->type != types[i])
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, what);
          return FALSE;
        }
      if (!ddb_key_value_check_size (v, is_hash[i], error))
        return FALSE;
    }
  return TRUE;
}

DdbValue *
ddb_req_key (json_t *json, const DdbTableDef *def, GError **error)
{
  g_autoptr (DdbValue) key = NULL;
  const char *names[2] = { def->key.hash_name, def->key.range_name };
  const DdbType types[2] = { def->key.hash_type, def->key.range_type };
  const gboolean is_hash[2] = { TRUE, FALSE };

  if (json == NULL || json_is_null (json))
    {
      fail_not_null ("Key", error);
      return NULL;
    }
  key = ddb_req_attribute_map (json, error);
  if (key == NULL)
    return NULL;
  if (!check_empty_keys (&def->key, key, error))
    return NULL;
  if (!check_key_map (key, def->key.range_name != NULL ? 2 : 1, names, types, is_hash,
                      NOT_MATCH_SCHEMA, error))
    return NULL;
  return g_steal_pointer (&key);
}

DdbValue *
ddb_req_start_key (json_t *json, const DdbTableDef *def, const DdbIndexDef *index, GError **error)
{
  g_autoptr (DdbValue) key = NULL;
  const char *names[4];
  DdbType types[4];
  gboolean is_hash[4];
  guint n = 0;
  /* A Scan of the table says why; on an index (and in Query, which callers may re-word)
   * DynamoDB gives the short form. */
  const char *what = index == NULL ? "The provided starting key is invalid: " NOT_MATCH_SCHEMA
                                   : "The provided starting key is invalid";
  const DdbKeyDef *keys[2] = { &def->key, index != NULL ? &index->key : NULL };

  if (json == NULL || json_is_null (json))
    return NULL;
  key = ddb_req_attribute_map (json, error);
  if (key == NULL)
    return NULL;
  for (guint k = 0; k < 2; k++)
    {
      const char *kn[2];
      DdbType kt[2];

      if (keys[k] == NULL)
        continue;
      kn[0] = keys[k]->hash_name;
      kt[0] = keys[k]->hash_type;
      kn[1] = keys[k]->range_name;
      kt[1] = keys[k]->range_type;
      for (guint i = 0; i < 2; i++)
        {
          gboolean dup = FALSE;

          if (kn[i] == NULL)
            continue;
          for (guint j = 0; j < n; j++)
            dup = dup || strcmp (names[j], kn[i]) == 0;
          if (dup)
            continue;
          names[n] = kn[i];
          types[n] = kt[i];
          is_hash[n] = i == 0;
          n++;
        }
    }
  for (guint i = 0; i < n; i++)
    {
      DdbValue *v = ddb_value_map_get (key, names[i]);

      if (v != NULL && v->type == types[i] && is_empty_bytes (v))
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, what);
          return NULL;
        }
    }
  if (!check_key_map (key, n, names, types, is_hash, what, error))
    return NULL;
  return g_steal_pointer (&key);
}

/* ---- Expressions ---- */

static void
set_map_type_error (json_t *j, const char *value_class, GError **error)
{
  if (json_is_array (j))
    g_set_error (error, DDB_ERROR, DDB_ERROR_SERIALIZATION,
                 "Unrecognized collection type java.util.Map<java.lang.String, %s>", value_class);
  else
    g_set_error_literal (error, DDB_ERROR, DDB_ERROR_SERIALIZATION, "Unexpected field type");
}

static gboolean
read_names (DdbReqExpr *rx, json_t *names, GError **error)
{
  const char *key;
  json_t *value;

  if (!json_is_object (names))
    {
      set_map_type_error (names, "java.lang.String", error);
      return FALSE;
    }
  /* The deserializer sees every value before the validator sees any key. */
  json_object_foreach (names, key, value)
    {
      if (!json_is_null (value) && !json_is_string (value))
        {
          ddb_req_type_error (value, "String", error);
          return FALSE;
        }
    }
  if (json_object_size (names) == 0)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "ExpressionAttributeNames must not be empty");
      return FALSE;
    }
  json_object_foreach (names, key, value)
    {
      if (!ddb_expr_placeholder_valid (key, '#'))
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "ExpressionAttributeNames contains invalid key: Syntax error; key: \"%s\"",
                       key);
          return FALSE;
        }
    }
  rx->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  json_object_foreach (names, key, value)
    {
      if (json_is_null (value) || json_string_length (value) == 0)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "ExpressionAttributeNames contains invalid value: Empty attribute name "
                       "for key %s",
                       key);
          return FALSE;
        }
      /* Names are C strings here, and no item can hold a name with U+0000 (requests go
       * through jansson, whose object keys cannot): refused, where cutting it at the NUL would
       * read or write another attribute. DynamoDB takes such names (our wording). */
      if (strlen (json_string_value (value)) != json_string_length (value))
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "ExpressionAttributeNames contains invalid value: An attribute name "
                       "holding U+0000 is not supported for key %s",
                       key);
          return FALSE;
        }
      g_hash_table_insert (rx->names, g_strdup (key), g_strdup (json_string_value (value)));
    }
  return TRUE;
}

static gboolean
read_values (DdbReqExpr *rx, json_t *values, GError **error)
{
  const char *key;
  json_t *value;
  GError *first_validation = NULL;
  const char *first_key = NULL;

  if (!json_is_object (values))
    {
      set_map_type_error (values, "com.amazonaws.dynamodb.v20120810.AttributeValue", error);
      return FALSE;
    }
  rx->values_map = ddb_value_new_m ();
  rx->values = g_hash_table_new (g_str_hash, g_str_equal);
  json_object_foreach (values, key, value)
    {
      GError *local = NULL;
      DdbValue *v;

      if (json_is_null (value))
        continue;
      v = ddb_req_value (value, &local);
      if (v == NULL)
        {
          /* A deserialization problem anywhere ends the request before any validation. */
          if (local->code == DDB_ERROR_SERIALIZATION)
            {
              g_clear_error (&first_validation);
              g_propagate_error (error, local);
              return FALSE;
            }
          if (first_validation == NULL)
            {
              first_validation = local;
              first_key = key;
            }
          else
            g_error_free (local);
          continue;
        }
      ddb_value_map_append (rx->values_map, key, strlen (key), v);
    }
  if (json_object_size (values) == 0)
    {
      g_clear_error (&first_validation);
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "ExpressionAttributeValues must not be empty");
      return FALSE;
    }
  json_object_foreach (values, key, value)
    {
      if (!ddb_expr_placeholder_valid (key, ':'))
        {
          g_clear_error (&first_validation);
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "ExpressionAttributeValues contains invalid key: Syntax error; key: \"%s\"",
                       key);
          return FALSE;
        }
    }
  json_object_foreach (values, key, value)
    {
      if (json_is_null (value))
        {
          g_clear_error (&first_validation);
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "ExpressionAttributeValues contains invalid value: %s for key %s",
                       DDB_JSON_EMPTY_VALUE_MESSAGE, key);
          return FALSE;
        }
      if (first_validation != NULL && key == first_key)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "ExpressionAttributeValues contains invalid value: %s for key %s",
                       first_validation->message, key);
          g_clear_error (&first_validation);
          return FALSE;
        }
    }
  for (guint i = 0; i < ddb_value_map_size (rx->values_map); i++)
    {
      DdbAttr *a = ddb_value_map_nth (rx->values_map, i);
      g_hash_table_insert (rx->values, a->name, a->value);
    }
  return TRUE;
}

gboolean
ddb_req_expr_init (DdbReqExpr *rx, json_t *req, GError **error)
{
  json_t *names = member_get (req, "ExpressionAttributeNames");
  json_t *values = member_get (req, "ExpressionAttributeValues");

  memset (rx, 0, sizeof *rx);
  if (names != NULL && !read_names (rx, names, error))
    goto fail;
  if (values != NULL && !read_values (rx, values, error))
    goto fail;
  rx->ctx = ddb_expr_context_new (rx->names, rx->values);
  return TRUE;

fail:
  ddb_req_expr_clear (rx);
  return FALSE;
}

void
ddb_req_expr_clear (DdbReqExpr *rx)
{
  g_clear_pointer (&rx->ctx, ddb_expr_context_free);
  g_clear_pointer (&rx->names, g_hash_table_unref);
  g_clear_pointer (&rx->values, g_hash_table_unref);
  g_clear_pointer (&rx->values_map, ddb_value_free);
}
