/* ddbjson-page.c: a Query's or Scan's answer read without a JSON tree of its items. The answer
 * is walked as text: each element of its item list is handed to the direct item parser
 * (ddb_json_parse_item) as the span of text it is, and only the other members (the counts,
 * LastEvaluatedKey, ConsumedCapacity) go through jansson. A 1 MB page then costs the items'
 * values and no tree of some ten times its size, on each thread reading one. */
#include <string.h>

#include "core/ddbjson.h"
#include "core/jsontext.h"

/* Past the string literal at P (its opening quote), or NULL if it does not end. Its contents
 * are checked by whoever parses the span it is in. */
static const guchar *
skip_string (const guchar *p, const guchar *end)
{
  for (p++; p < end; p++)
    {
      if (*p == '\\')
        p++;
      else if (*p == '"')
        return p + 1;
    }
  return NULL;
}

static gboolean
ends_scalar (guchar c)
{
  return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Past the JSON value at P: a string, an object or an array (brackets counted, strings
 * stepped over), or a scalar up to what ends it; NULL if it does not end. Whether the span is
 * valid JSON is for its parser to say. */
static const guchar *
skip_value (const guchar *p, const guchar *end)
{
  const guchar *start = p;
  guint depth = 0;

  if (p >= end)
    return NULL;
  if (*p == '"')
    return skip_string (p, end);
  if (*p != '{' && *p != '[')
    {
      while (p < end && !ends_scalar (*p))
        p++;
      return p > start ? p : NULL;
    }
  while (p < end)
    {
      if (*p == '"')
        {
          p = skip_string (p, end);
          if (p == NULL)
            return NULL;
          continue;
        }
      if (*p == '{' || *p == '[')
        depth++;
      else if (*p == '}' || *p == ']')
        {
          if (--depth == 0)
            return p + 1;
        }
      p++;
    }
  return NULL;
}

/* The elements of the array at *P, each parsed as an item into ITEMS; *P past the array. */
static gboolean
read_items (const guchar **p, const guchar *end, GPtrArray *items)
{
  const guchar *q = *p + 1;

  q = ddb_jsontext_skip_ws (q, end);
  if (q < end && *q == ']')
    {
      *p = q + 1;
      return TRUE;
    }
  for (;;)
    {
      const guchar *start = q;
      DdbValue *item;

      q = skip_value (q, end);
      if (q == NULL || *start != '{')
        return FALSE;
      item = ddb_json_parse_item ((const char *) start, q - start, NULL);
      if (item == NULL)
        return FALSE;
      g_ptr_array_add (items, item);
      q = ddb_jsontext_skip_ws (q, end);
      if (q >= end)
        return FALSE;
      if (*q == ']')
        {
          *p = q + 1;
          return TRUE;
        }
      if (*q != ',')
        return FALSE;
      q = ddb_jsontext_skip_ws (q + 1, end);
    }
}

gboolean
ddb_json_read_page (const char *text, gsize len, const char *member, json_t **rest,
                    GPtrArray **items)
{
  const guchar *p = (const guchar *) text;
  const guchar *end = p + len;
  g_autoptr (GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  g_autoptr (GString) others = g_string_new ("{");
  g_autofree char *quoted = g_strdup_printf ("\"%s\"", member);
  gsize quoted_len = strlen (quoted);
  gboolean found = FALSE;
  json_t *object;

  p = ddb_jsontext_skip_ws (p, end);
  if (p >= end || *p != '{')
    return FALSE;
  p = ddb_jsontext_skip_ws (p + 1, end);
  if (p < end && *p == '}')
    p++;
  else
    for (;;)
      {
        const guchar *name = p;
        const guchar *name_end;
        const guchar *value;

        if (p >= end || *p != '"')
          return FALSE;
        name_end = skip_string (p, end);
        /* A name written with escapes might be MEMBER: jansson reads such answers. */
        if (name_end == NULL || memchr (name, '\\', name_end - name) != NULL)
          return FALSE;
        p = ddb_jsontext_skip_ws (name_end, end);
        if (p >= end || *p != ':')
          return FALSE;
        p = ddb_jsontext_skip_ws (p + 1, end);
        if ((gsize) (name_end - name) == quoted_len && memcmp (name, quoted, quoted_len) == 0)
          {
            if (found || p >= end || *p != '[' || !read_items (&p, end, list))
              return FALSE;
            found = TRUE;
          }
        else
          {
            value = skip_value (p, end);
            if (value == NULL)
              return FALSE;
            if (others->len > 1)
              g_string_append_c (others, ',');
            g_string_append_len (others, (const char *) name, value - name);
            p = value;
          }
        p = ddb_jsontext_skip_ws (p, end);
        if (p < end && *p == '}')
          {
            p++;
            break;
          }
        if (p >= end || *p != ',')
          return FALSE;
        p = ddb_jsontext_skip_ws (p + 1, end);
      }
  if (ddb_jsontext_skip_ws (p, end) != end)
    return FALSE;
  g_string_append_c (others, '}');
  object = json_loadb (others->str, others->len, JSON_ALLOW_NUL, NULL);
  if (!json_is_object (object))
    {
      json_decref (object);
      return FALSE;
    }
  *rest = object;
  *items = g_steal_pointer (&list);
  return TRUE;
}
