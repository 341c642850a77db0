/* cg-dynamic.c: the request as a literal of a dynamically typed language (a Python dict for
 * boto3's client, a JavaScript object for the SDK v3), whose AttributeValues are written as the
 * SDKs take them: {"S": "x"}, numbers as strings, binary as bytes. */
#define G_LOG_DOMAIN "dynoscope-codegen"

#include <string.h>

#include "codegen/codegen-private.h"

/* A key naming an attribute or a table: a quoted string; in JavaScript a computed key for
 * "__proto__", which as a plain key would set the object's prototype instead. */
static char *
data_key (DdbLang lang, const char *key)
{
  GString *t = g_string_new (NULL);

  if (lang == DDB_LANG_JS && strcmp (key, "__proto__") == 0)
    g_string_append (t, "[\"__proto__\"]");
  else
    ddb_quote_string (t, lang, key, strlen (key));
  g_string_append (t, ": ");
  return g_string_free (t, FALSE);
}

/* A key naming an API member: bare in JavaScript (TableName: ...). */
static char *
member_key (DdbLang lang, const char *key)
{
  if (lang == DDB_LANG_JS)
    return g_strdup_printf ("%s: ", key);
  return data_key (lang, key);
}

static CgLit *
bool_lit (DdbLang lang, gboolean b)
{
  if (lang == DDB_LANG_PYTHON)
    return cg_lit_raw (g_strdup (b ? "True" : "False"));
  return cg_lit_raw (g_strdup (b ? "true" : "false"));
}

static CgLit *item_lit (DdbLang lang, json_t *j);

static CgLit *
value_lit (DdbLang lang, json_t *av)
{
  const char *type;
  json_t *v;
  CgLit *inner = NULL;
  CgLit *d = cg_lit_container ("{", "}", TRUE);

  json_object_foreach (av, type, v)
    {
      if (json_is_null (v))
        continue;
      if (strcmp (type, "S") == 0 || strcmp (type, "N") == 0)
        inner = cg_lit_json_string (lang, v);
      else if (strcmp (type, "B") == 0)
        inner = cg_lit_bytes (lang, v);
      else if (strcmp (type, "BOOL") == 0 || strcmp (type, "NULL") == 0)
        inner = bool_lit (lang, json_is_true (v));
      else if (strcmp (type, "M") == 0)
        inner = item_lit (lang, v);
      else
        {
          gsize i;
          json_t *e;

          inner = cg_lit_container ("[", "]", TRUE);
          json_array_foreach (v, i, e)
            {
              if (strcmp (type, "L") == 0)
                cg_lit_add (inner, NULL, value_lit (lang, e), NULL);
              else if (strcmp (type, "BS") == 0)
                cg_lit_add (inner, NULL, cg_lit_bytes (lang, e), NULL);
              else
                cg_lit_add (inner, NULL, cg_lit_json_string (lang, e), NULL);
            }
        }
      cg_lit_add (d, data_key (lang, type), inner, NULL);
    }
  return d;
}

static CgLit *
item_lit (DdbLang lang, json_t *j)
{
  CgLit *d = cg_lit_container ("{", "}", TRUE);
  const char *key;
  json_t *v;

  json_object_foreach (j, key, v)
    cg_lit_add (d, data_key (lang, key), value_lit (lang, v), NULL);
  return d;
}

static CgLit *struct_lit (DdbLang lang, const CgShape *shape, json_t *j);

static CgLit *
member_lit (DdbLang lang, const CgMember *m, json_t *j)
{
  const char *key;
  json_t *v;
  gsize i;
  CgLit *c;

  switch (m->kind)
    {
    case CG_STRING:
    case CG_ENUM:
      return cg_lit_json_string (lang, j);
    case CG_INT:
    case CG_LONG:
      return cg_lit_rawf ("%" JSON_INTEGER_FORMAT, json_integer_value (j));
    case CG_BOOL:
      return bool_lit (lang, json_is_true (j));
    case CG_VALUE:
      return value_lit (lang, j);
    case CG_ITEM:
      return item_lit (lang, j);
    case CG_NAMES:
      c = cg_lit_container ("{", "}", TRUE);
      json_object_foreach (j, key, v)
        cg_lit_add (c, data_key (lang, key), cg_lit_json_string (lang, v), NULL);
      return c;
    case CG_STRINGS:
    case CG_VALUES:
    case CG_ITEMS:
    case CG_STRUCT_LIST:
      c = cg_lit_container ("[", "]", TRUE);
      json_array_foreach (j, i, v)
        cg_lit_add (c, NULL,
                    m->kind == CG_STRINGS  ? cg_lit_json_string (lang, v)
                    : m->kind == CG_VALUES ? value_lit (lang, v)
                    : m->kind == CG_ITEMS  ? item_lit (lang, v)
                                           : struct_lit (lang, m->shape, v),
                    NULL);
      return c;
    case CG_STRUCT:
      return struct_lit (lang, m->shape, j);
    case CG_STRUCT_MAP:
    case CG_LIST_MAP:
      c = cg_lit_container ("{", "}", TRUE);
      json_object_foreach (j, key, v)
        {
          CgMember list = { m->name, CG_STRUCT_LIST, m->shape, NULL };
          cg_lit_add (c, data_key (lang, key),
                      m->kind == CG_LIST_MAP ? member_lit (lang, &list, v)
                                             : struct_lit (lang, m->shape, v),
                      NULL);
        }
      return c;
    }
  g_return_val_if_reached (NULL);
}

static CgLit *
struct_lit (DdbLang lang, const CgShape *shape, json_t *j)
{
  CgLit *d = cg_lit_container ("{", "}", TRUE);
  const char *key;
  json_t *v;

  json_object_foreach (j, key, v)
    cg_lit_add (d, member_key (lang, key), member_lit (lang, cg_shape_member (shape, key), v),
                NULL);
  return d;
}

CgLit *
cg_dynamic_request (const CgJob *job, DdbLang lang)
{
  return struct_lit (lang, job->shape, job->request);
}

gboolean
cg_request_counts (const CgJob *job)
{
  json_t *select = json_object_get (job->request, "Select");

  return select != NULL && g_strcmp0 (json_string_value (select), "COUNT") == 0;
}
