/* jsontext.c: JSON string literals (decoding and escaping) and attribute-path formatting shared
 * by the DynamoDB JSON and plain JSON codecs. */
#include "core/jsontext.h"

#include <string.h>

static int
hex4 (const guchar *p)
{
  int v = 0;

  for (int i = 0; i < 4; i++)
    {
      guchar c = p[i];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= c - '0';
      else if (c >= 'a' && c <= 'f')
        v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        v |= c - 'A' + 10;
      else
        return -1;
    }
  return v;
}

static inline DdbJsonTextStringStatus
string_fail (DdbJsonTextString *out, DdbJsonTextStringStatus status, const guchar *at)
{
  out->at = at;
  return status;
}

DdbJsonTextStringStatus
ddb_jsontext_decode_string (const guchar *p, const guchar *end, GString *scratch,
                            DdbJsonTextString *out)
{
  const guchar *run = p;
  gboolean escaped = FALSE;

  for (;;)
    {
      guchar c;
      char short_escape;

      /* The common case: plain ASCII. */
      while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
        p++;
      if (p >= end)
        return string_fail (out, DDB_JSONTEXT_STRING_UNTERMINATED, end);
      c = *p;
      if (c == '"')
        break;
      if (c < 0x20)
        return string_fail (out, DDB_JSONTEXT_STRING_CONTROL, p);
      if (c >= 0x80)
        {
          gunichar cp;
          gsize n = ddb_utf8_decode (p, (gsize) (end - p), &cp);
          if (n == 0)
            return string_fail (out, DDB_JSONTEXT_STRING_BAD_UTF8, p);
          p += n;
          continue;
        }

      /* A backslash: the decoded text goes to `scratch` from here on. */
      if (!escaped)
        {
          g_string_truncate (scratch, 0);
          escaped = TRUE;
        }
      g_string_append_len (scratch, (const char *) run, p - run);
      if (end - p < 2)
        return string_fail (out, DDB_JSONTEXT_STRING_UNTERMINATED, end);
      switch (p[1])
        {
        case '"':
        case '\\':
        case '/':
          short_escape = (char) p[1];
          break;
        case 'b':
          short_escape = '\b';
          break;
        case 'f':
          short_escape = '\f';
          break;
        case 'n':
          short_escape = '\n';
          break;
        case 'r':
          short_escape = '\r';
          break;
        case 't':
          short_escape = '\t';
          break;
          case 'u': {
            int u, lo = -1;

            if (end - p < 6 || (u = hex4 (p + 2)) < 0)
              return string_fail (out, DDB_JSONTEXT_STRING_BAD_HEX, p);
            out->code = (guint) u;
            if (u >= 0xDC00 && u <= 0xDFFF)
              return string_fail (out, DDB_JSONTEXT_STRING_LONE_LOW_SURROGATE, p);
            if (u >= 0xD800 && u <= 0xDBFF)
              {
                if (end - p >= 12 && p[6] == '\\' && p[7] == 'u')
                  lo = hex4 (p + 8);
                if (lo < 0xDC00 || lo > 0xDFFF)
                  return string_fail (out, DDB_JSONTEXT_STRING_LONE_HIGH_SURROGATE, p);
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                p += 6;
              }
            g_string_append_unichar (scratch, (gunichar) u);
            p += 6;
            run = p;
            continue;
          }
        default:
          return string_fail (out, DDB_JSONTEXT_STRING_BAD_ESCAPE, p);
        }
      g_string_append_c (scratch, short_escape);
      p += 2;
      run = p;
    }

  if (escaped)
    {
      g_string_append_len (scratch, (const char *) run, p - run);
      out->str = scratch->str;
      out->len = scratch->len;
    }
  else
    {
      out->str = (const char *) run;
      out->len = (gsize) (p - run);
    }
  out->at = p + 1;
  return DDB_JSONTEXT_STRING_OK;
}

void
ddb_jsontext_append_string (GString *out, const char *s, gsize len, DdbJsonTextEscapeFlags flags)
{
  const char *hex
      = (flags & DDB_JSONTEXT_ESCAPE_LOWER_HEX) != 0 ? "0123456789abcdef" : "0123456789ABCDEF";
  const guchar *p = (const guchar *) s;
  const guchar *end = p + len;
  const guchar *run = p;

  g_string_append_c (out, '"');
  while (p < end)
    {
      guchar c = *p;
      const char *esc;
      char buf[8];

      if (G_LIKELY (c >= 0x20 && c != '"' && c != '\\' && c < 0x80))
        {
          p++;
          continue;
        }
      if (c >= 0x80)
        {
          gunichar cp;
          gsize n = ddb_utf8_decode (p, (gsize) (end - p), &cp);
          if (n != 0)
            {
              p += n;
              continue;
            }
          g_string_append_len (out, (const char *) run, p - run);
          g_string_append (out, "\xef\xbf\xbd");
          p++;
          run = p;
          continue;
        }
      switch (c)
        {
        case '"':
          esc = "\\\"";
          break;
        case '\\':
          esc = "\\\\";
          break;
        case '\b':
          esc = "\\b";
          break;
        case '\f':
          esc = "\\f";
          break;
        case '\n':
          esc = "\\n";
          break;
        case '\r':
          esc = "\\r";
          break;
        case '\t':
          esc = "\\t";
          break;
        default:
          memcpy (buf, "\\u00", 4);
          buf[4] = hex[c >> 4];
          buf[5] = hex[c & 0xF];
          buf[6] = '\0';
          esc = buf;
          break;
        }
      g_string_append_len (out, (const char *) run, p - run);
      g_string_append (out, esc);
      p++;
      run = p;
    }
  g_string_append_len (out, (const char *) run, p - run);
  g_string_append_c (out, '"');
}

gboolean
ddb_jsontext_name_needs_quotes (const char *name, gsize len)
{
  if (len == 0)
    return TRUE;
  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) name[i];
      if (c < 0x20 || c == '.' || c == '[' || c == ']' || c == '"' || c == '\\' || c == 0x7f)
        return TRUE;
    }
  return FALSE;
}

void
ddb_jsontext_path_append (GString *out, const DdbJsonTextPath *path)
{
  for (guint i = 0; i < path->depth; i++)
    {
      const DdbJsonTextPathStep *step = &path->steps[i];

      if (step->name == NULL)
        {
          g_string_append_printf (out, "[%u]", step->index);
          continue;
        }
      if (i > 0)
        g_string_append_c (out, '.');
      if (ddb_jsontext_name_needs_quotes (step->name, step->name_len))
        ddb_jsontext_append_string (out, step->name, step->name_len, DDB_JSONTEXT_ESCAPE_DEFAULT);
      else
        g_string_append_len (out, step->name, (gssize) step->name_len);
    }
}
