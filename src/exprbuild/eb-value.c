/* eb-value.c: typed values as people type them into the builder, and back. */
#include "exprbuild/exprbuild.h"

#include <string.h>

#include "core/base64.h"
#include "core/ddbjson.h"
#include "core/error.h"
#include "core/plainjson.h"

G_GNUC_PRINTF (2, 3)
static DdbValue *
value_error (GError **error, const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list ap;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, message);
  return NULL;
}

static const char *
type_words (DdbType type)
{
  static const char *const words[] = {
    [DDB_TYPE_S] = "a string (S)",       [DDB_TYPE_N] = "a number (N)",
    [DDB_TYPE_B] = "a binary value (B)", [DDB_TYPE_BOOL] = "a boolean (BOOL)",
    [DDB_TYPE_NULL] = "a null (NULL)",   [DDB_TYPE_M] = "a map (M)",
    [DDB_TYPE_L] = "a list (L)",         [DDB_TYPE_SS] = "a string set (SS)",
    [DDB_TYPE_NS] = "a number set (NS)", [DDB_TYPE_BS] = "a binary set (BS)",
  };

  return words[type];
}

static DdbValue *
number_from_text (const char *text, GError **error)
{
  GError *local = NULL;
  DdbNumber n;

  if (text[0] == '\0')
    return value_error (error, "A number is needed, e.g. 42, -1.5 or 1E-130");
  if (!ddb_number_parse (&n, text, -1, &local))
    {
      value_error (error, "“%s” is not a number DynamoDB can store: %s", text, local->message);
      g_error_free (local);
      return NULL;
    }
  return ddb_value_new_n (&n);
}

static DdbValue *
binary_from_text (const char *text, GError **error)
{
  DdbBase64Error why;
  gsize len, at;
  guchar *bytes = ddb_base64_decode (text, -1, &len, &why, &at);

  if (bytes != NULL)
    return ddb_value_take_bytes (DDB_TYPE_B, (char *) bytes, len);
  switch (why)
    {
    case DDB_BASE64_BAD_LENGTH:
      return value_error (error,
                          "Base64 comes in groups of 4 characters (padded with =), but this has "
                          "%zu",
                          strlen (text));
    case DDB_BASE64_BAD_TRAILING_BITS:
      return value_error (error,
                          "The base64 ends in “%c”, whose unused bits are not zero: it encodes no "
                          "bytes exactly",
                          text[at]);
    default:
      if (g_ascii_isprint (text[at]))
        return value_error (error,
                            "Character %zu of the base64, “%c”, is not allowed there (A-Z, a-z, "
                            "0-9, + and /, then = only as padding)",
                            at + 1, text[at]);
      return value_error (error,
                          "Byte %zu of the base64 (0x%02x) is not in the base64 alphabet (A-Z, "
                          "a-z, 0-9, + and /)",
                          at + 1, (guchar) text[at]);
    }
}

/* {"S": ...}: one member named after a type. */
static gboolean
is_descriptor (json_t *j)
{
  DdbType t;

  return json_is_object (j) && json_object_size (j) == 1
         && ddb_type_from_name (json_object_iter_key (json_object_iter (j)), &t);
}

static gboolean
all_descriptors (json_t *j)
{
  const char *key;
  json_t *member;
  size_t i;

  if (json_is_array (j))
    {
      json_array_foreach (j, i, member)
        if (!is_descriptor (member))
          return FALSE;
      return json_array_size (j) > 0;
    }
  if (json_is_object (j))
    {
      json_object_foreach (j, key, member)
        if (!is_descriptor (member))
          return FALSE;
      return json_object_size (j) > 0;
    }
  return FALSE;
}

/* TEXT as DynamoDB JSON when it reads as such: a typed value, an item for M, a list of typed
 * values for L and the sets. *OUT stays NULL for anything else. */
static gboolean
read_ddb_json (DdbType type, const char *text, DdbValue **out, GError **error)
{
  json_t *j = json_loads (text, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
  gboolean typed = is_descriptor (j);
  gboolean members = !typed && all_descriptors (j);
  gboolean ok = TRUE;

  *out = NULL;
  if (typed)
    *out = ddb_json_parse_value (text, -1, error);
  else if (members && type == DDB_TYPE_M && json_is_object (j))
    *out = ddb_json_parse_item (text, -1, error);
  else if (members && type != DDB_TYPE_M && json_is_array (j))
    {
      g_autofree char *wrapped = g_strdup_printf ("{\"L\": %s}", text);

      *out = ddb_json_parse_value (wrapped, -1, error);
    }
  else
    typed = members = FALSE;
  ok = !(typed || members) || *out != NULL;
  json_decref (j);
  return ok;
}

/* A plain list turned into the set TYPE, element by element. */
static DdbValue *
list_to_set (DdbType type, DdbValue *list, GError **error)
{
  DdbType elem_type = ddb_type_set_element (type);
  g_autoptr (DdbValue) set = ddb_value_new_set (type);

  if (ddb_value_list_size (list) == 0)
    return value_error (error, "A set needs at least one element");
  for (guint i = 0; i < ddb_value_list_size (list); i++)
    {
      const DdbValue *e = ddb_value_list_nth (list, i);
      g_autoptr (DdbValue) elem = NULL;
      GError *local = NULL;
      g_autofree char *shown = NULL;

      if (e->type == elem_type)
        elem = ddb_value_copy (e);
      else if (e->type == DDB_TYPE_S && elem_type == DDB_TYPE_N)
        elem = number_from_text (e->bytes.data, &local);
      else if (e->type == DDB_TYPE_S && elem_type == DDB_TYPE_B)
        elem = binary_from_text (e->bytes.data, &local);
      else
        return value_error (error, "Element %u of %s is %s, not %s", i + 1, type_words (type),
                            type_words (e->type), type_words (elem_type));
      if (elem == NULL)
        {
          value_error (error, "Element %u of %s: %s", i + 1, type_words (type), local->message);
          g_error_free (local);
          return NULL;
        }
      shown = ddb_eb_value_to_text (elem);
      if (!ddb_value_set_add (set, g_steal_pointer (&elem)))
        return value_error (error,
                            "Element %u of %s, “%s”, is already in it: a set holds each "
                            "element once",
                            i + 1, type_words (type), shown);
    }
  return g_steal_pointer (&set);
}

static DdbValue *
document_from_text (DdbType type, const char *text, GError **error)
{
  g_autoptr (DdbValue) v = NULL;
  GError *local = NULL;

  if (text[0] == '\0')
    return value_error (error, "%s is written as JSON, e.g. %s", type_words (type),
                        type == DDB_TYPE_M    ? "{\"a\": 1}"
                        : type == DDB_TYPE_L  ? "[1, \"a\"]"
                        : type == DDB_TYPE_NS ? "[1, 2]"
                        : type == DDB_TYPE_BS ? "[\"AAE=\"]"
                                              : "[\"a\", \"b\"]");
  if (!read_ddb_json (type, text, &v, &local))
    {
      value_error (error, "The DynamoDB JSON is refused: %s", local->message);
      g_error_free (local);
      return NULL;
    }
  if (v == NULL && (v = ddb_plain_parse_value (text, -1, DDB_PLAIN_TAGGED, &local)) == NULL)
    {
      value_error (error, "The JSON is refused: %s", local->message);
      g_error_free (local);
      return NULL;
    }
  if (v->type == DDB_TYPE_L && ddb_type_is_set (type))
    return list_to_set (type, v, error);
  if (v->type != type)
    return value_error (error, "The text is %s, not %s", type_words (v->type), type_words (type));
  if (!ddb_value_validate (v, &local))
    {
      value_error (error, "%s", local->message);
      g_error_free (local);
      return NULL;
    }
  return g_steal_pointer (&v);
}

DdbValue *
ddb_eb_value_from_text (DdbType type, const char *text, GError **error)
{
  g_autofree char *trimmed = NULL;

  if (text == NULL)
    text = "";
  if (type == DDB_TYPE_S)
    {
      if (!ddb_utf8_validate (text, strlen (text)))
        return value_error (error, "The string is not valid UTF-8");
      return ddb_value_new_s (text, -1);
    }
  trimmed = g_strstrip (g_strdup (text));
  switch (type)
    {
    case DDB_TYPE_N:
      return number_from_text (trimmed, error);
    case DDB_TYPE_B:
      return binary_from_text (trimmed, error);
    case DDB_TYPE_BOOL:
      if (g_ascii_strcasecmp (trimmed, "true") == 0 || g_ascii_strcasecmp (trimmed, "false") == 0)
        return ddb_value_new_bool (g_ascii_strcasecmp (trimmed, "true") == 0);
      return value_error (error, "A boolean is true or false, not “%s”", trimmed);
    case DDB_TYPE_NULL:
      if (trimmed[0] == '\0' || g_ascii_strcasecmp (trimmed, "null") == 0)
        return ddb_value_new_null ();
      return value_error (error, "A null holds nothing: leave it empty or write null, not “%s”",
                          trimmed);
    default:
      return document_from_text (type, trimmed, error);
    }
}

/* A set as the JSON array of its elements: ["a", "b"], [1, 2], ["AAE="]. */
static char *
set_to_text (const DdbValue *set)
{
  g_autoptr (DdbValue) list = ddb_value_new_l ();

  for (guint i = 0; i < set->elems->len; i++)
    {
      const DdbValue *e = g_ptr_array_index (set->elems, i);

      if (e->type == DDB_TYPE_B)
        {
          g_autofree char *b64 = ddb_base64_encode ((const guchar *) e->bytes.data, e->bytes.len);

          ddb_value_list_append (list, ddb_value_new_s (b64, -1));
        }
      else
        ddb_value_list_append (list, ddb_value_copy (e));
    }
  return ddb_plain_format_value (list, DDB_PLAIN_TAGGED, NULL);
}

char *
ddb_eb_value_to_text (const DdbValue *value)
{
  g_autofree char *plain = NULL;
  g_autoptr (DdbValue) back = NULL;

  switch (value->type)
    {
    case DDB_TYPE_S:
      /* Whole, U+0000 included (g_strndup would stop there). */
      return g_memdup2 (value->bytes.data, value->bytes.len + 1);
    case DDB_TYPE_N:
      return ddb_number_to_string (&value->number);
    case DDB_TYPE_B:
      return ddb_base64_encode ((const guchar *) value->bytes.data, value->bytes.len);
    case DDB_TYPE_BOOL:
      return g_strdup (value->boolean ? "true" : "false");
    case DDB_TYPE_NULL:
      return g_strdup ("null");
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      plain = set_to_text (value);
      break;
    default:
      plain = ddb_plain_format_value (value, DDB_PLAIN_TAGGED, NULL);
      break;
    }
  /* Plain JSON that looks like DynamoDB JSON ({"a": {"S": "x"}} as a map of maps) would be read
   * back as the latter: only text that reads back the same is given as plain JSON. */
  if (plain != NULL)
    back = ddb_eb_value_from_text (value->type, plain, NULL);
  if (back != NULL && ddb_value_equal (back, value))
    return g_steal_pointer (&plain);
  return ddb_json_format_value (value);
}

gboolean
ddb_eb_value_typeable (const DdbValue *value)
{
  return value->type != DDB_TYPE_S || memchr (value->bytes.data, '\0', value->bytes.len) == NULL;
}

gboolean
ddb_eb_node_typeable (const DdbNode *node)
{
  if (node == NULL)
    return TRUE;
  if (node->kind == DDB_NODE_VALUE && node->value != NULL && !ddb_eb_value_typeable (node->value))
    return FALSE;
  for (guint i = 0; i < node->n_args; i++)
    if (!ddb_eb_node_typeable (node->args[i]))
      return FALSE;
  return TRUE;
}
