/* ddbjson.c: DynamoDB JSON to and from DdbValue, with DynamoDB's own error messages and the
 * attribute path of each error. */
#include "core/ddbjson.h"

#include <string.h>

#include "core/base64.h"
#include "core/error.h"
#include "core/jsontext.h"

#define ATTR_VALUE_CLASS "com.amazonaws.dynamodb.v20120810.AttributeValue"
#define START_OF_MAP "Start of structure or map found where not expected"

/* Parsing */

typedef struct {
  DdbJsonTextPath path;
  /* The first serialization error ends the parse; validation errors come after every
   * serialization error, as DynamoDB deserializes the whole request before validating it, so
   * the first one is only remembered while parsing goes on. */
  GError *serialization;
  GError *validation;
  /* Strings from our own json_loadb() call are known to be UTF-8; trees built by a caller may
   * hold anything json_stringn_nocheck() accepted. */
  gboolean check_utf8;
} Ctx;

static GError *
error_at (const Ctx *ctx, DdbErrorCode code, const char *message)
{
  GString *s = g_string_new (message);
  GError *e;

  if (ctx->path.depth > 0)
    {
      g_string_append (s, DDB_JSON_PATH_SEPARATOR);
      ddb_jsontext_path_append (s, &ctx->path);
    }
  e = g_error_new_literal (DDB_ERROR, code, s->str);
  g_string_free (s, TRUE);
  return e;
}

/* Always returns NULL, for `return serialization_error (...)`. */
static DdbValue *
serialization_error (Ctx *ctx, const char *message)
{
  if (ctx->serialization == NULL)
    ctx->serialization = error_at (ctx, DDB_ERROR_SERIALIZATION, message);
  return NULL;
}

static DdbValue *
validation_error (Ctx *ctx, const char *message)
{
  if (ctx->validation == NULL)
    ctx->validation = error_at (ctx, DDB_ERROR_VALIDATION, message);
  return NULL;
}

/* What a member of the wrong JSON type is told, by the Java type DynamoDB expected there. */
typedef enum {
  KIND_STRING,
  KIND_BOOLEAN,
  KIND_BLOB,
  KIND_LIST,
  KIND_MAP,
  KIND_ATTRIBUTE_VALUE,
} Kind;

static DdbValue *
wrong_json_type (Ctx *ctx, Kind kind, const json_t *j)
{
  json_type t = json_typeof (j);
  const char *msg = NULL;

  switch (kind)
    {
    case KIND_STRING:
      msg = t == JSON_TRUE      ? "TRUE_VALUE cannot be converted to String"
            : t == JSON_FALSE   ? "FALSE_VALUE cannot be converted to String"
            : t == JSON_INTEGER ? "NUMBER_VALUE cannot be converted to String"
            : t == JSON_REAL    ? "DECIMAL_VALUE cannot be converted to String"
            : t == JSON_ARRAY   ? "Unrecognized collection type class java.lang.String"
                                : START_OF_MAP;
      break;
    case KIND_BOOLEAN:
      msg = t == JSON_STRING    ? "Unexpected token received from parser"
            : t == JSON_INTEGER ? "NUMBER_VALUE cannot be converted to Boolean"
            : t == JSON_REAL    ? "DECIMAL_VALUE cannot be converted to Boolean"
            : t == JSON_ARRAY   ? "Unrecognized collection type class java.lang.Boolean"
                                : START_OF_MAP;
      break;
    case KIND_BLOB:
      msg = t == JSON_ARRAY    ? "Unrecognized collection type class java.nio.ByteBuffer"
            : t == JSON_OBJECT ? START_OF_MAP
                               : "only base-64-encoded strings are convertible to bytes";
      break;
    case KIND_LIST:
      msg = t == JSON_OBJECT ? START_OF_MAP : "Unexpected field type";
      break;
    case KIND_MAP:
      msg = t == JSON_ARRAY
                ? "Unrecognized collection type java.util.Map<java.lang.String, " ATTR_VALUE_CLASS
                  ">"
                : "Unexpected field type";
      break;
    case KIND_ATTRIBUTE_VALUE:
      msg = t == JSON_ARRAY ? "Unrecognized collection type class " ATTR_VALUE_CLASS
                            : "Unexpected value type in payload";
      break;
    }
  return serialization_error (ctx, msg);
}

/* ddb_type_from_name for a member name that is not NUL-terminated (the fast path's points into
 * the request text) and may hold a NUL. */
static gboolean
type_from_key (const char *key, gsize len, DdbType *out)
{
  for (guint i = 0; i < DDB_N_TYPES; i++)
    {
      const char *name = ddb_type_name ((DdbType) i);

      if (strlen (name) == len && memcmp (name, key, len) == 0)
        {
          *out = (DdbType) i;
          return TRUE;
        }
    }
  return FALSE;
}

static DdbValue *
convert_string (Ctx *ctx, const json_t *j)
{
  const char *s;
  gsize len;

  if (!json_is_string (j))
    return wrong_json_type (ctx, KIND_STRING, j);
  s = json_string_value (j);
  len = json_string_length (j);
  if (ctx->check_utf8 && !ddb_utf8_validate (s, len))
    return validation_error (ctx, DDB_INVALID_UTF8_MESSAGE);
  return ddb_value_new_s (s, (gssize) len);
}

static DdbValue *
convert_number (Ctx *ctx, const json_t *j)
{
  DdbNumber n;
  GError *error = NULL;

  if (!json_is_string (j))
    return wrong_json_type (ctx, KIND_STRING, j);
  if (!ddb_number_parse (&n, json_string_value (j), (gssize) json_string_length (j), &error))
    {
      validation_error (ctx, error->message);
      g_error_free (error);
      return NULL;
    }
  return ddb_value_new_n (&n);
}

/* Java's String.length(): UTF-16 code units, which DynamoDB's base64 length message counts. */
static gsize
utf16_length (const char *s, gsize len)
{
  gsize n = 0;

  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) s[i];
      if ((c & 0xC0) != 0x80)
        n += c >= 0xF0 ? 2 : 1;
    }
  return n;
}

static DdbValue *
convert_binary (Ctx *ctx, const json_t *j)
{
  const char *s;
  gsize len, out_len = 0, pos = 0;
  DdbBase64Error why = DDB_BASE64_OK;
  guchar *data;

  if (!json_is_string (j))
    return wrong_json_type (ctx, KIND_BLOB, j);
  s = json_string_value (j);
  len = json_string_length (j);
  data = ddb_base64_decode (s, (gssize) len, &out_len, &why, &pos);
  if (data == NULL)
    {
      g_autofree char *msg = NULL;
      gsize units = utf16_length (s, len);

      /* DynamoDB checks the length in Java characters before looking at them; with non-ASCII
       * text that is not the byte length. */
      if (units % 4 != 0)
        why = DDB_BASE64_BAD_LENGTH;
      else if (why == DDB_BASE64_BAD_LENGTH)
        {
          why = DDB_BASE64_BAD_CHARACTER;
          for (pos = 0; pos < len; pos++)
            {
              guchar c = (guchar) s[pos];
              if (!g_ascii_isalnum (c) && c != '+' && c != '/' && c != '=')
                break;
            }
        }
      switch (why)
        {
        case DDB_BASE64_BAD_LENGTH:
          msg = g_strdup_printf (
              "Base64 encoded length is expected a multiple of 4 bytes but found: %" G_GSIZE_FORMAT,
              units);
          break;
          case DDB_BASE64_BAD_CHARACTER: {
            /* Show the whole character, not one byte of it. */
            gsize end = pos + 1;
            while (end < len && ((guchar) s[end] & 0xC0) == 0x80)
              end++;
            if ((guchar) s[pos] >= 0x20 && (guchar) s[pos] != 0x7f
                && ddb_utf8_validate (s + pos, end - pos))
              msg = g_strdup_printf ("Invalid Base64 character: '%.*s'", (int) (end - pos),
                                     s + pos);
            else
              msg = g_strdup_printf ("Invalid Base64 character: '\\u%04X'",
                                     (guint) (guchar) s[pos]);
            break;
          }
        case DDB_BASE64_BAD_TRAILING_BITS:
        default:
          /* DynamoDB's spelling. */
          msg = g_strdup ("Invalid last non-pad Base64 character dectected");
          break;
        }
      return serialization_error (ctx, msg);
    }
  return ddb_value_take_bytes (DDB_TYPE_B, (char *) data, out_len);
}

static gboolean
convert_boolean (Ctx *ctx, const json_t *j, gboolean *out)
{
  if (!json_is_boolean (j))
    {
      wrong_json_type (ctx, KIND_BOOLEAN, j);
      return FALSE;
    }
  *out = json_is_true (j);
  return TRUE;
}

static DdbValue *convert_value (Ctx *ctx, const json_t *j, guint level);

static DdbValue *
convert_map (Ctx *ctx, const json_t *j, guint level)
{
  DdbValue *m;
  gboolean ok = TRUE;

  if (!json_is_object (j))
    return wrong_json_type (ctx, KIND_MAP, j);

  m = ddb_value_new_m_sized ((guint) json_object_size (j));
  for (void *it = json_object_iter ((json_t *) j); it != NULL;
       it = json_object_iter_next ((json_t *) j, it))
    {
      const char *name = json_object_iter_key (it);
      gsize name_len = json_object_iter_key_len (it);
      DdbValue *v;

      ddb_jsontext_path_push_name (&ctx->path, name, name_len);
      if (ctx->check_utf8 && !ddb_utf8_validate (name, name_len))
        v = validation_error (ctx, DDB_INVALID_UTF8_MESSAGE);
      else
        v = convert_value (ctx, json_object_iter_value (it), level);
      ddb_jsontext_path_pop (&ctx->path);
      if (ctx->serialization != NULL)
        {
          ddb_value_free (m);
          return NULL;
        }
      if (v == NULL)
        ok = FALSE;
      else if (ok)
        /* Keys are unique within a JSON object: jansson keeps one per key (and a parse with
         * JSON_REJECT_DUPLICATES refuses repeats), so no lookup is needed. */
        ddb_value_map_append (m, name, name_len, v);
      else
        ddb_value_free (v);
    }
  if (!ok)
    {
      ddb_value_free (m);
      return NULL;
    }
  return m;
}

static DdbValue *
convert_list (Ctx *ctx, const json_t *j, guint level)
{
  DdbValue *l;
  gsize n;
  gboolean ok = TRUE;

  if (!json_is_array (j))
    return wrong_json_type (ctx, KIND_LIST, j);

  n = json_array_size (j);
  l = ddb_value_new_l_sized ((guint) n);
  for (gsize i = 0; i < n; i++)
    {
      DdbValue *v;

      ddb_jsontext_path_push_index (&ctx->path, (guint) i);
      v = convert_value (ctx, json_array_get (j, i), level);
      ddb_jsontext_path_pop (&ctx->path);
      if (ctx->serialization != NULL)
        {
          ddb_value_free (l);
          return NULL;
        }
      if (v == NULL)
        ok = FALSE;
      else if (ok)
        g_ptr_array_add (l->elems, v);
      else
        ddb_value_free (v);
    }
  if (!ok)
    {
      ddb_value_free (l);
      return NULL;
    }
  return l;
}

static DdbValue *
convert_set (Ctx *ctx, DdbType type, const json_t *j)
{
  DdbValue *set;
  gsize n;
  gboolean ok = TRUE;
  GError *error = NULL;

  if (!json_is_array (j))
    return wrong_json_type (ctx, KIND_LIST, j);

  n = json_array_size (j);
  set = ddb_value_new_set_sized (type, (guint) n);
  for (gsize i = 0; i < n; i++)
    {
      const json_t *e = json_array_get (j, i);
      DdbValue *v;

      ddb_jsontext_path_push_index (&ctx->path, (guint) i);
      if (json_is_null (e))
        v = validation_error (ctx, DDB_JSON_NULL_IN_SET_MESSAGE);
      else if (type == DDB_TYPE_SS)
        v = convert_string (ctx, e);
      else if (type == DDB_TYPE_NS)
        v = convert_number (ctx, e);
      else
        v = convert_binary (ctx, e);
      ddb_jsontext_path_pop (&ctx->path);
      if (ctx->serialization != NULL)
        {
          ddb_value_free (set);
          return NULL;
        }
      if (v == NULL)
        ok = FALSE;
      else
        g_ptr_array_add (set->elems, v);
    }
  if (ok && !ddb_value_validate_set (set, &error))
    {
      validation_error (ctx, error->message);
      g_error_free (error);
      ok = FALSE;
    }
  if (!ok)
    {
      ddb_value_free (set);
      return NULL;
    }
  return set;
}

/* `j` should be {"<type>": payload}; `level` is its nesting level (1 for an item's attribute). */
static DdbValue *
convert_value (Ctx *ctx, const json_t *j, guint level)
{
  DdbValue *result = NULL;
  guint ntypes = 0;
  gboolean bad = FALSE;

  if (json_is_null (j))
    return validation_error (ctx, DDB_JSON_EMPTY_VALUE_MESSAGE);
  if (!json_is_object (j))
    return wrong_json_type (ctx, KIND_ATTRIBUTE_VALUE, j);
  if (level > DDB_MAX_NESTING)
    return validation_error (ctx, DDB_NESTING_MESSAGE);

  for (void *it = json_object_iter ((json_t *) j); it != NULL;
       it = json_object_iter_next ((json_t *) j, it))
    {
      const char *key = json_object_iter_key (it);
      gsize key_len = json_object_iter_key_len (it);
      const json_t *payload = json_object_iter_value (it);
      DdbValue *v = NULL;
      DdbType type;
      gboolean b;

      /* A member set to null is a member not sent, as DynamoDB reads it. */
      if (json_is_null (payload))
        continue;
      if (!type_from_key (key, key_len, &type))
        {
          GString *msg = g_string_new ("Supplied AttributeValue has an unknown datatype ");
          ddb_jsontext_append_string (msg, key, key_len, DDB_JSONTEXT_ESCAPE_DEFAULT);
          g_string_append (msg, ", must contain exactly one of the supported datatypes");
          validation_error (ctx, msg->str);
          g_string_free (msg, TRUE);
          bad = TRUE;
          continue;
        }
      ntypes++;

      switch (type)
        {
        case DDB_TYPE_S:
          v = convert_string (ctx, payload);
          break;
        case DDB_TYPE_N:
          v = convert_number (ctx, payload);
          break;
        case DDB_TYPE_B:
          v = convert_binary (ctx, payload);
          break;
        case DDB_TYPE_BOOL:
          if (convert_boolean (ctx, payload, &b))
            v = ddb_value_new_bool (b);
          break;
        case DDB_TYPE_NULL:
          if (convert_boolean (ctx, payload, &b))
            {
              if (b)
                v = ddb_value_new_null ();
              else
                validation_error (ctx, "One or more parameter values were invalid: Null attribute "
                                       "value types must have the value of true");
            }
          break;
        case DDB_TYPE_M:
          v = convert_map (ctx, payload, level + 1);
          break;
        case DDB_TYPE_L:
          v = convert_list (ctx, payload, level + 1);
          break;
        case DDB_TYPE_SS:
        case DDB_TYPE_NS:
        case DDB_TYPE_BS:
          v = convert_set (ctx, type, payload);
          break;
        }

      if (ctx->serialization != NULL)
        {
          ddb_value_free (v);
          ddb_value_free (result);
          return NULL;
        }
      if (v == NULL)
        bad = TRUE;
      else if (result == NULL)
        result = v;
      else
        ddb_value_free (v);
    }

  if (ntypes == 0 && !bad)
    return validation_error (ctx, DDB_JSON_EMPTY_VALUE_MESSAGE);
  if (ntypes > 1)
    validation_error (ctx, "Supplied AttributeValue has more than one datatypes set, must contain "
                           "exactly one of the supported datatypes");
  if (bad || ntypes > 1)
    {
      ddb_value_free (result);
      return NULL;
    }
  return result;
}

static DdbValue *
finish (Ctx *ctx, DdbValue *v, GError **error)
{
  if (ctx->serialization != NULL)
    {
      g_clear_error (&ctx->validation);
      ddb_value_free (v);
      g_propagate_error (error, ctx->serialization);
      return NULL;
    }
  if (ctx->validation != NULL)
    {
      ddb_value_free (v);
      g_propagate_error (error, ctx->validation);
      return NULL;
    }
  g_assert (v != NULL);
  return v;
}

static DdbValue *
to_value (const json_t *json, gboolean check_utf8, GError **error)
{
  Ctx ctx = { .check_utf8 = check_utf8 };

  return finish (&ctx, convert_value (&ctx, json, 1), error);
}

static DdbValue *
to_item (const json_t *json, gboolean check_utf8, GError **error)
{
  Ctx ctx = { .check_utf8 = check_utf8 };

  /* An item is a map whose attributes are at level 1, the same as the map inside {"M": ...}
   * one level down. */
  return finish (&ctx, convert_map (&ctx, json, 1), error);
}

DdbValue *
ddb_json_to_value (json_t *json, GError **error)
{
  g_return_val_if_fail (json != NULL, NULL);
  return to_value (json, TRUE, error);
}

DdbValue *
ddb_json_to_item (json_t *json, GError **error)
{
  g_return_val_if_fail (json != NULL, NULL);
  return to_item (json, TRUE, error);
}

static json_t *
load (const char *text, gssize len, GError **error)
{
  json_error_t jerr;
  json_t *json;

  /* Strings may hold U+0000; a repeated key is refused rather than silently losing a value. */
  json = json_loadb (text, (gsize) len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL | JSON_DECODE_ANY,
                     &jerr);
  if (json == NULL)
    g_set_error (error, DDB_ERROR, DDB_ERROR_SERIALIZATION, "%s (line %d, column %d)", jerr.text,
                 jerr.line, jerr.column);
  return json;
}

/* The fast path for text. It builds values straight from the buffer, without a json_t tree,
 * and knows only the success path: at the first thing it does not like (any error, but also
 * rarities such as a member set to null) it gives up, and the text is parsed again through
 * jansson and convert_*(), which decide and word the error. So it must accept nothing the
 * reference path refuses, and build the same value from what it accepts (the fuzz target
 * checks both); refusing more only costs time. */

typedef struct {
  const guchar *p;
  const guchar *end;
  GString *scratch; /* unescaped strings; valid until the next string is read */
} Fast;

static inline void
fast_ws (Fast *f)
{
  f->p = ddb_jsontext_skip_ws (f->p, f->end);
}

static inline gboolean
fast_expect (Fast *f, guchar c)
{
  fast_ws (f);
  if (f->p < f->end && *f->p == c)
    {
      f->p++;
      return TRUE;
    }
  return FALSE;
}

/* Reads the JSON string at f->p (after optional whitespace); the result points into the input
 * or into f->scratch. The decoder checks what jansson checks; why it refuses does not matter
 * here, as the reference path words the error. */
static gboolean
fast_string (Fast *f, const char **out, gsize *out_len)
{
  DdbJsonTextString str;

  if (!fast_expect (f, '"')
      || ddb_jsontext_decode_string (f->p, f->end, f->scratch, &str) != DDB_JSONTEXT_STRING_OK)
    return FALSE;
  *out = str.str;
  *out_len = str.len;
  f->p = str.at;
  return TRUE;
}

static gboolean
fast_literal (Fast *f, gboolean *out)
{
  fast_ws (f);
  if (f->end - f->p >= 4 && memcmp (f->p, "true", 4) == 0)
    {
      f->p += 4;
      *out = TRUE;
      return TRUE;
    }
  if (f->end - f->p >= 5 && memcmp (f->p, "false", 5) == 0)
    {
      f->p += 5;
      *out = FALSE;
      return TRUE;
    }
  return FALSE;
}

static DdbValue *fast_value (Fast *f, guint level);

/* Attribute names already in `m`, hashed once the map is big enough for a linear search to
 * hurt. */
static gboolean
fast_name_taken (const DdbValue *m, GHashTable **index, const char *name, gsize len)
{
  const guint threshold = 16;

  if (m->attrs->len < threshold)
    return ddb_value_map_get_len (m, name, len) != NULL;
  if (*index == NULL)
    {
      *index = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < m->attrs->len; i++)
        g_hash_table_add (*index, g_array_index (m->attrs, DdbAttr, i).name);
    }
  /* Names never hold NUL here (refused below), so the C string is the whole name. */
  return g_hash_table_contains (*index, name);
}

/* {"name": value, ...}: an item (level 1) or the payload of M. */
static DdbValue *
fast_map (Fast *f, guint level)
{
  DdbValue *m;
  GHashTable *index = NULL;

  if (!fast_expect (f, '{'))
    return NULL;
  m = ddb_value_new_m_sized (8);
  if (fast_expect (f, '}'))
    return m;
  do
    {
      const char *key;
      gsize key_len;
      DdbAttr attr;

      /* jansson refuses U+0000 in keys; only an escape can bring one in. */
      if (!fast_string (f, &key, &key_len)
          || (key == f->scratch->str && memchr (key, '\0', key_len) != NULL))
        goto fail;
      attr.name = g_malloc (key_len + 1);
      memcpy (attr.name, key, key_len);
      attr.name[key_len] = '\0';
      attr.name_len = key_len;
      if (fast_name_taken (m, &index, attr.name, key_len) || !fast_expect (f, ':')
          || (attr.value = fast_value (f, level)) == NULL)
        {
          g_free (attr.name);
          goto fail;
        }
      g_array_append_val (m->attrs, attr);
      if (index != NULL)
        g_hash_table_add (index, attr.name);
    }
  while (fast_expect (f, ','));
  if (!fast_expect (f, '}'))
    goto fail;
  if (index != NULL)
    g_hash_table_destroy (index);
  return m;

fail:
  if (index != NULL)
    g_hash_table_destroy (index);
  ddb_value_free (m);
  return NULL;
}

static DdbValue *
fast_scalar (Fast *f, DdbType type)
{
  const char *s;
  gsize len;

  if (!fast_string (f, &s, &len))
    return NULL;
  if (type == DDB_TYPE_S)
    return ddb_value_new_s (s, (gssize) len);
  if (type == DDB_TYPE_N)
    {
      DdbNumber n;
      if (!ddb_number_parse (&n, s, (gssize) len, NULL))
        return NULL;
      return ddb_value_new_n (&n);
    }
  else
    {
      gsize out_len;
      guchar *data = ddb_base64_decode (s, (gssize) len, &out_len, NULL, NULL);
      return data == NULL ? NULL : ddb_value_take_bytes (DDB_TYPE_B, (char *) data, out_len);
    }
}

/* [elem, ...] for L (values one level down) and the three sets. */
static DdbValue *
fast_array (Fast *f, DdbType type, guint level)
{
  DdbValue *v;

  if (!fast_expect (f, '['))
    return NULL;
  v = type == DDB_TYPE_L ? ddb_value_new_l () : ddb_value_new_set (type);
  if (fast_expect (f, ']'))
    {
      if (type == DDB_TYPE_L)
        return v;
      goto fail; /* an empty set */
    }
  do
    {
      DdbValue *e = type == DDB_TYPE_L ? fast_value (f, level)
                                       : fast_scalar (f, ddb_type_set_element (type));
      if (e == NULL)
        goto fail;
      g_ptr_array_add (v->elems, e);
    }
  while (fast_expect (f, ','));
  if (!fast_expect (f, ']'))
    goto fail;
  if (type != DDB_TYPE_L && ddb_value_set_has_duplicates (v))
    goto fail;
  return v;

fail:
  ddb_value_free (v);
  return NULL;
}

/* {"<type>": payload} at nesting level `level`. */
static DdbValue *
fast_value (Fast *f, guint level)
{
  const char *key;
  gsize key_len;
  DdbType type;
  DdbValue *v = NULL;
  gboolean b;

  if (level > DDB_MAX_NESTING || !fast_expect (f, '{') || !fast_string (f, &key, &key_len)
      || !type_from_key (key, key_len, &type) || !fast_expect (f, ':'))
    return NULL;

  switch (type)
    {
    case DDB_TYPE_S:
    case DDB_TYPE_N:
    case DDB_TYPE_B:
      v = fast_scalar (f, type);
      break;
    case DDB_TYPE_BOOL:
      if (fast_literal (f, &b))
        v = ddb_value_new_bool (b);
      break;
    case DDB_TYPE_NULL:
      if (fast_literal (f, &b) && b)
        v = ddb_value_new_null ();
      break;
    case DDB_TYPE_M:
      v = fast_map (f, level + 1);
      break;
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      v = fast_array (f, type, level + 1);
      break;
    }
  /* A second member, even a null one, is left to the reference path. */
  if (v != NULL && !fast_expect (f, '}'))
    {
      ddb_value_free (v);
      v = NULL;
    }
  return v;
}

static DdbValue *
fast_parse (const char *text, gsize len, gboolean item)
{
  Fast f = { (const guchar *) text, (const guchar *) text + len, NULL };
  DdbValue *v;

  f.scratch = g_string_new (NULL);
  v = item ? fast_map (&f, 1) : fast_value (&f, 1);
  g_string_free (f.scratch, TRUE);
  if (v != NULL)
    {
      fast_ws (&f);
      if (f.p != f.end)
        {
          ddb_value_free (v);
          v = NULL;
        }
    }
  return v;
}

static DdbValue *
parse_text (const char *text, gssize len, gboolean item, GError **error)
{
  json_t *json;
  DdbValue *v;

  if (len < 0)
    len = (gssize) strlen (text);
  v = fast_parse (text, (gsize) len, item);
  if (v != NULL)
    return v;
  json = load (text, len, error);
  if (json == NULL)
    return NULL;
  v = item ? to_item (json, FALSE, error) : to_value (json, FALSE, error);
  json_decref (json);
  return v;
}

DdbValue *
ddb_json_parse_value (const char *text, gssize len, GError **error)
{
  g_return_val_if_fail (text != NULL, NULL);
  return parse_text (text, len, FALSE, error);
}

DdbValue *
ddb_json_parse_item (const char *text, gssize len, GError **error)
{
  g_return_val_if_fail (text != NULL, NULL);
  return parse_text (text, len, TRUE, error);
}

/* Writing */

static void
append_b64_string (GString *out, const DdbBytes *b)
{
  g_string_append_c (out, '"');
  ddb_base64_append (out, (const guchar *) b->data, b->len);
  g_string_append_c (out, '"');
}

static void write_value (GString *out, const DdbValue *v);

static void
write_attrs (GString *out, const DdbValue *m)
{
  g_string_append_c (out, '{');
  for (guint i = 0; i < m->attrs->len; i++)
    {
      const DdbAttr *a = &g_array_index (m->attrs, DdbAttr, i);
      if (i > 0)
        g_string_append_c (out, ',');
      ddb_jsontext_append_string (out, a->name, a->name_len, DDB_JSONTEXT_ESCAPE_DEFAULT);
      g_string_append_c (out, ':');
      write_value (out, a->value);
    }
  g_string_append_c (out, '}');
}

static void
write_value (GString *out, const DdbValue *v)
{
  switch (v->type)
    {
    case DDB_TYPE_S:
      g_string_append (out, "{\"S\":");
      ddb_jsontext_append_string (out, v->bytes.data, v->bytes.len, DDB_JSONTEXT_ESCAPE_DEFAULT);
      break;
    case DDB_TYPE_N:
      g_string_append (out, "{\"N\":\"");
      ddb_number_append (&v->number, out);
      g_string_append_c (out, '"');
      break;
    case DDB_TYPE_B:
      g_string_append (out, "{\"B\":");
      append_b64_string (out, &v->bytes);
      break;
    case DDB_TYPE_BOOL:
      g_string_append (out, v->boolean ? "{\"BOOL\":true" : "{\"BOOL\":false");
      break;
    case DDB_TYPE_NULL:
      g_string_append (out, "{\"NULL\":true");
      break;
    case DDB_TYPE_M:
      g_string_append (out, "{\"M\":");
      write_attrs (out, v);
      break;
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      g_string_append (out, v->type == DDB_TYPE_L    ? "{\"L\":["
                            : v->type == DDB_TYPE_SS ? "{\"SS\":["
                            : v->type == DDB_TYPE_NS ? "{\"NS\":["
                                                     : "{\"BS\":[");
      for (guint i = 0; i < v->elems->len; i++)
        {
          const DdbValue *e = g_ptr_array_index (v->elems, i);
          if (i > 0)
            g_string_append_c (out, ',');
          if (v->type == DDB_TYPE_L)
            write_value (out, e);
          else if (e->type == DDB_TYPE_N)
            {
              g_string_append_c (out, '"');
              ddb_number_append (&e->number, out);
              g_string_append_c (out, '"');
            }
          else if (v->type == DDB_TYPE_BS)
            append_b64_string (out, &e->bytes);
          else
            ddb_jsontext_append_string (out, e->bytes.data, e->bytes.len,
                                        DDB_JSONTEXT_ESCAPE_DEFAULT);
        }
      g_string_append_c (out, ']');
      break;
    }
  g_string_append_c (out, '}');
}

void
ddb_json_append_value (GString *out, const DdbValue *value)
{
  g_return_if_fail (out != NULL && value != NULL);
  write_value (out, value);
}

void
ddb_json_append_item (GString *out, const DdbValue *item)
{
  g_return_if_fail (out != NULL && item != NULL && item->type == DDB_TYPE_M);
  write_attrs (out, item);
}

char *
ddb_json_format_value (const DdbValue *value)
{
  GString *out;

  g_return_val_if_fail (value != NULL, NULL);
  out = g_string_sized_new (64);
  write_value (out, value);
  return g_string_free (out, FALSE);
}

char *
ddb_json_format_item (const DdbValue *item)
{
  GString *out;

  g_return_val_if_fail (item != NULL && item->type == DDB_TYPE_M, NULL);
  out = g_string_sized_new (256);
  write_attrs (out, item);
  return g_string_free (out, FALSE);
}

/* To json_t */

static json_t *
json_text (const char *s, gsize len)
{
  if (ddb_utf8_validate (s, len))
    return json_stringn_nocheck (s, len);
  else
    {
      /* Same replacement as the text writer: drop the quotes it adds and unescape nothing, as
       * only invalid bytes differ. */
      GString *tmp = g_string_sized_new (len + 8);
      const guchar *p = (const guchar *) s, *end = p + len;
      json_t *j;

      while (p < end)
        {
          gunichar c;
          gsize n = ddb_utf8_decode (p, (gsize) (end - p), &c);
          if (n != 0)
            {
              g_string_append_len (tmp, (const char *) p, (gssize) n);
              p += n;
            }
          else
            {
              g_string_append (tmp, "\xef\xbf\xbd");
              p++;
            }
        }
      j = json_stringn_nocheck (tmp->str, tmp->len);
      g_string_free (tmp, TRUE);
      return j;
    }
}

static json_t *
json_b64 (const DdbBytes *b)
{
  gsize n = DDB_BASE64_ENCODED_LEN (b->len);
  char *buf = g_malloc (n + 1);
  json_t *j;

  ddb_base64_encode_to (buf, (const guchar *) b->data, b->len);
  j = json_stringn_nocheck (buf, n);
  g_free (buf);
  return j;
}

static json_t *
json_number (const DdbNumber *n)
{
  char *s = ddb_number_to_string (n);
  json_t *j = json_string_nocheck (s);
  g_free (s);
  return j;
}

static json_t *
attrs_to_json (const DdbValue *m)
{
  json_t *obj = json_object ();

  for (guint i = 0; i < m->attrs->len; i++)
    {
      const DdbAttr *a = &g_array_index (m->attrs, DdbAttr, i);
      if (ddb_utf8_validate (a->name, a->name_len))
        json_object_setn_new_nocheck (obj, a->name, a->name_len, ddb_value_to_json (a->value));
      else
        {
          json_t *name = json_text (a->name, a->name_len);
          json_object_setn_new_nocheck (obj, json_string_value (name), json_string_length (name),
                                        ddb_value_to_json (a->value));
          json_decref (name);
        }
    }
  return obj;
}

json_t *
ddb_value_to_json (const DdbValue *v)
{
  json_t *payload = NULL;
  json_t *wrapper;

  g_return_val_if_fail (v != NULL, NULL);
  switch (v->type)
    {
    case DDB_TYPE_S:
      payload = json_text (v->bytes.data, v->bytes.len);
      break;
    case DDB_TYPE_N:
      payload = json_number (&v->number);
      break;
    case DDB_TYPE_B:
      payload = json_b64 (&v->bytes);
      break;
    case DDB_TYPE_BOOL:
      payload = json_boolean (v->boolean);
      break;
    case DDB_TYPE_NULL:
      payload = json_true ();
      break;
    case DDB_TYPE_M:
      payload = attrs_to_json (v);
      break;
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      payload = json_array ();
      for (guint i = 0; i < v->elems->len; i++)
        {
          const DdbValue *e = g_ptr_array_index (v->elems, i);
          json_t *je = v->type == DDB_TYPE_L    ? ddb_value_to_json (e)
                       : e->type == DDB_TYPE_N  ? json_number (&e->number)
                       : v->type == DDB_TYPE_BS ? json_b64 (&e->bytes)
                                                : json_text (e->bytes.data, e->bytes.len);
          json_array_append_new (payload, je);
        }
      break;
    }
  /* Not json_pack: its format parsing was a seventh of a Query's time through serve. */
  wrapper = json_object ();
  json_object_set_new_nocheck (wrapper, ddb_type_name (v->type), payload);
  return wrapper;
}

json_t *
ddb_item_to_json (const DdbValue *item)
{
  g_return_val_if_fail (item != NULL && item->type == DDB_TYPE_M, NULL);
  return attrs_to_json (item);
}
