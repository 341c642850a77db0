/* cg-text.c: the indenting buffer the writers print into, and JSON text whose strings escape
 * what codegen escapes in every language. */
#define G_LOG_DOMAIN "dynoscope-codegen"

#include <stdarg.h>

#include "codegen/codegen-private.h"
#include "core/base64.h"

void
cg_out_init (CgOut *o, const char *unit)
{
  o->s = g_string_new (NULL);
  o->indent = 0;
  o->unit = unit;
}

char *
cg_out_finish (CgOut *o)
{
  if (o->s->len > 0 && o->s->str[o->s->len - 1] != '\n')
    g_string_append_c (o->s, '\n');
  return g_string_free (g_steal_pointer (&o->s), FALSE);
}

void
cg_newline (CgOut *o)
{
  g_string_append_c (o->s, '\n');
}

void
cg_line (CgOut *o, const char *format, ...)
{
  va_list args;

  if (o->s->len > 0)
    g_string_append_c (o->s, '\n');
  for (int i = 0; i < o->indent; i++)
    g_string_append (o->s, o->unit);
  va_start (args, format);
  g_string_append_vprintf (o->s, format, args);
  va_end (args);
}

void
cg_add (CgOut *o, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_string_append_vprintf (o->s, format, args);
  va_end (args);
}

void
cg_json_string (GString *out, const char *data, gsize len)
{
  const char *p = data, *end = data + len;

  g_string_append_c (out, '"');
  while (p < end)
    {
      /* GLib's UTF-8 reader takes U+0000 for the end of the text: it is read here. */
      gunichar c = *p == '\0' ? 0 : g_utf8_get_char_validated (p, end - p);
      const char *next = *p == '\0' ? p + 1 : g_utf8_next_char (p);

      /* Checked requests hold UTF-8 only; anything else is written as U+FFFD. */
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append (out, "\xef\xbf\xbd");
          p++;
          continue;
        }
      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        default:
          if (c < 0x20 || ddb_quote_must_escape (c))
            {
              if (c >= 0x10000)
                {
                  gunichar v = c - 0x10000;
                  g_string_append_printf (out, "\\u%04x\\u%04x", 0xD800 + (v >> 10),
                                          0xDC00 + (v & 0x3FF));
                }
              else
                g_string_append_printf (out, "\\u%04x", c);
            }
          else
            g_string_append_len (out, p, next - p);
        }
      p = next;
    }
  g_string_append_c (out, '"');
}

static void
indent (GString *out, const char *unit, int level)
{
  g_string_append_c (out, '\n');
  for (int i = 0; i < level; i++)
    g_string_append (out, unit);
}

void
cg_json_pretty (GString *out, json_t *j, const char *unit, int level)
{
  switch (json_typeof (j))
    {
    case JSON_OBJECT:
      {
        const char *key;
        json_t *v;
        gboolean first = TRUE;

        if (json_object_size (j) == 0)
          {
            g_string_append (out, "{}");
            return;
          }
        g_string_append_c (out, '{');
        json_object_foreach (j, key, v)
          {
            if (!first)
              g_string_append_c (out, ',');
            first = FALSE;
            indent (out, unit, level + 1);
            cg_json_string (out, key, strlen (key));
            g_string_append (out, ": ");
            cg_json_pretty (out, v, unit, level + 1);
          }
        indent (out, unit, level);
        g_string_append_c (out, '}');
        return;
      }
    case JSON_ARRAY:
      {
        gsize i;
        json_t *v;

        if (json_array_size (j) == 0)
          {
            g_string_append (out, "[]");
            return;
          }
        g_string_append_c (out, '[');
        json_array_foreach (j, i, v)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            indent (out, unit, level + 1);
            cg_json_pretty (out, v, unit, level + 1);
          }
        indent (out, unit, level);
        g_string_append_c (out, ']');
        return;
      }
    case JSON_STRING:
      cg_json_string (out, json_string_value (j), json_string_length (j));
      return;
    case JSON_INTEGER:
      g_string_append_printf (out, "%" JSON_INTEGER_FORMAT, json_integer_value (j));
      return;
    case JSON_REAL:
      {
        char *text = json_dumps (j, JSON_ENCODE_ANY);
        g_string_append (out, text);
        free (text);
        return;
      }
    case JSON_TRUE: g_string_append (out, "true"); return;
    case JSON_FALSE: g_string_append (out, "false"); return;
    case JSON_NULL: g_string_append (out, "null"); return;
    }
}

CgLit *
cg_lit_string (DdbLang lang, const char *s, gsize len)
{
  GString *t = g_string_new (NULL);

  ddb_quote_string (t, lang, s, len);
  return cg_lit_raw (g_string_free (t, FALSE));
}

CgLit *
cg_lit_json_string (DdbLang lang, json_t *j)
{
  return cg_lit_string (lang, json_string_value (j), json_string_length (j));
}

CgLit *
cg_lit_bytes (DdbLang lang, json_t *j)
{
  gsize len;
  g_autofree guchar *data = ddb_base64_decode (json_string_value (j), json_string_length (j),
                                               &len, NULL, NULL);
  GString *t = g_string_new (NULL);

  /* The check read every B and BS element as base64 already. */
  g_assert (data != NULL);
  ddb_quote_bytes (t, lang, data, len);
  return cg_lit_raw (g_string_free (t, FALSE));
}
