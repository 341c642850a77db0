/* codegen-unquote.c: strict readers of quote.c's literals, written from each language's
 * reference (bash's QUOTING section, Python's lexical analysis, ECMAScript's string literals in
 * strict mode, JLS 3.3 and 3.10, the Go spec's string literals, the Rust reference's tokens),
 * not from quote.c, so that a mistake in one is not repeated in the other. */
#include "codegen-unquote.h"

#include <string.h>

typedef struct {
  const guchar *p;
  const guchar *end;
  const char *error;
} Reader;

static gboolean
fail (Reader *r, const char *why)
{
  if (r->error == NULL)
    r->error = why;
  return FALSE;
}

static gboolean
expect (Reader *r, const char *text)
{
  gsize n = strlen (text);

  if ((gsize) (r->end - r->p) < n || memcmp (r->p, text, n) != 0)
    return fail (r, "not the expected form");
  r->p += n;
  return TRUE;
}

static int
hex_digit (guchar c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gboolean
is_octal (guchar c)
{
  return c >= '0' && c <= '7';
}

/* Exactly N hex digits. */
static gboolean
read_hex (Reader *r, guint n, gunichar *value)
{
  *value = 0;
  for (guint i = 0; i < n; i++)
    {
      if (r->p == r->end || hex_digit (*r->p) < 0)
        return fail (r, "too few hex digits");
      *value = *value * 16 + (gunichar) hex_digit (*r->p++);
    }
  return TRUE;
}

static gboolean
is_surrogate (gunichar c)
{
  return c >= 0xD800 && c <= 0xDFFF;
}

static void
append_utf8 (GString *out, gunichar c)
{
  char buf[6];

  g_string_append_len (out, buf, g_unichar_to_utf8 (c, buf));
}

/* One source character, which must be UTF-8 (U+0000 included); *C is its code point and
 * R->p moves past it. */
static gboolean
raw_char (Reader *r, gunichar *c, const guchar **start)
{
  *start = r->p;
  if (*r->p == 0)
    {
      *c = 0;
      r->p++;
      return TRUE;
    }
  /* g_utf8_get_char_validated refuses a NUL inside a character, which is right here too. */
  *c = g_utf8_get_char_validated ((const char *) r->p, r->end - r->p);
  if (*c == (gunichar) -1 || *c == (gunichar) -2)
    return fail (r, "source is not UTF-8");
  r->p = (const guchar *) g_utf8_next_char (r->p);
  return TRUE;
}

/* Appends a UTF-16 code unit (or a whole code point) of a JS or Java string: pairs join, a
 * lone surrogate is refused since no UTF-8 text holds it. */
static gboolean
push_utf16 (Reader *r, GString *out, gunichar *high, gunichar u)
{
  if (*high != 0)
    {
      if (u < 0xDC00 || u > 0xDFFF)
        return fail (r, "lone high surrogate");
      append_utf8 (out, 0x10000 + ((*high - 0xD800) << 10) + (u - 0xDC00));
      *high = 0;
      return TRUE;
    }
  if (u >= 0xD800 && u <= 0xDBFF)
    {
      *high = u;
      return TRUE;
    }
  if (is_surrogate (u))
    return fail (r, "lone low surrogate");
  append_utf8 (out, u);
  return TRUE;
}

/* ---- bash ---- */

/* Inside $'...': the escapes bash documents, except \c, \u and \U (locale-dependent). */
static gboolean
shell_ansi_escape (Reader *r, GString *out)
{
  guint value;
  guchar e;

  if (r->p == r->end)
    return fail (r, "unterminated $'...'");
  e = *r->p++;
  switch (e)
    {
    case 'a':
      value = 7;
      break;
    case 'b':
      value = 8;
      break;
    case 'e':
    case 'E':
      value = 27;
      break;
    case 'f':
      value = 12;
      break;
    case 'n':
      value = 10;
      break;
    case 'r':
      value = 13;
      break;
    case 't':
      value = 9;
      break;
    case 'v':
      value = 11;
      break;
    case '\\':
    case '\'':
    case '"':
    case '?':
      value = e;
      break;
    case 'x':
      /* One or two hex digits. */
      if (r->p == r->end || hex_digit (*r->p) < 0)
        return fail (r, "\\x without hex digits");
      value = (guint) hex_digit (*r->p++);
      if (r->p < r->end && hex_digit (*r->p) >= 0)
        value = value * 16 + (guint) hex_digit (*r->p++);
      break;
    default:
      if (!is_octal (e))
        return fail (r, "escape not read in $'...'");
      /* One to three octal digits. */
      value = e - '0';
      for (int i = 0; i < 2 && r->p < r->end && is_octal (*r->p); i++)
        value = value * 8 + (guint) (*r->p++ - '0');
      if (value > 0377)
        return fail (r, "octal escape above \\377");
      break;
    }
  if (value == 0)
    return fail (r, "bash ends the word at a NUL");
  g_string_append_c (out, (char) value);
  return TRUE;
}

/* One word made only of '...', $'...' and backslash-quoted characters. */
static gboolean
shell_word (Reader *r, GString *out)
{
  if (r->p == r->end)
    return fail (r, "empty word");
  while (r->p < r->end)
    {
      if (*r->p == '\'')
        {
          for (r->p++;; r->p++)
            {
              if (r->p == r->end)
                return fail (r, "unterminated '...'");
              if (*r->p == '\'')
                break;
              if (*r->p == 0)
                return fail (r, "NUL in a word");
              g_string_append_c (out, (char) *r->p);
            }
          r->p++;
        }
      else if (*r->p == '$' && r->p + 1 < r->end && r->p[1] == '\'')
        {
          for (r->p += 2;;)
            {
              guchar c;

              if (r->p == r->end)
                return fail (r, "unterminated $'...'");
              c = *r->p++;
              if (c == '\'')
                break;
              if (c == 0)
                return fail (r, "NUL in a word");
              if (c != '\\')
                g_string_append_c (out, (char) c);
              else if (!shell_ansi_escape (r, out))
                return FALSE;
            }
        }
      else if (*r->p == '\\')
        {
          r->p++;
          if (r->p == r->end)
            return fail (r, "backslash at the end");
          if (*r->p == '\n')
            return fail (r, "line continuation");
          if (*r->p == 0)
            return fail (r, "NUL in a word");
          g_string_append_c (out, (char) *r->p++);
        }
      else
        return fail (r, "unquoted character");
    }
  return TRUE;
}

/* ---- base64 (RFC 4648, canonical: padded, unused bits zero) ---- */

static int
base64_digit (guchar c)
{
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+')
    return 62;
  if (c == '/')
    return 63;
  return -1;
}

static gboolean
base64_strict (Reader *r, const GString *text, GString *out)
{
  if (text->len % 4 != 0)
    return fail (r, "base64 length not a multiple of 4");
  for (gsize i = 0; i < text->len; i += 4)
    {
      guint v[4], pad = 0;

      for (guint k = 0; k < 4; k++)
        {
          guchar c = (guchar) text->str[i + k];
          int d = base64_digit (c);

          if (c == '=' && i + 4 == text->len && k >= 2)
            {
              pad++;
              v[k] = 0;
            }
          else if (d < 0 || pad > 0)
            return fail (r, "not base64");
          else
            v[k] = (guint) d;
        }
      if ((pad == 2 && (v[1] & 0xF) != 0) || (pad == 1 && (v[2] & 0x3) != 0))
        return fail (r, "base64 with nonzero unused bits");
      g_string_append_c (out, (char) (v[0] << 2 | v[1] >> 4));
      if (pad < 2)
        g_string_append_c (out, (char) ((v[1] & 0xF) << 4 | v[2] >> 2));
      if (pad < 1)
        g_string_append_c (out, (char) ((v[2] & 0x3) << 6 | v[3]));
    }
  return TRUE;
}

/* ---- Python ---- */

/* "..." (after the b of a bytes literal when BYTES). */
static gboolean
python_string (Reader *r, GString *out, gboolean bytes)
{
  if (!expect (r, "\""))
    return FALSE;
  for (;;)
    {
      const guchar *start;
      gunichar value;
      guchar e;

      if (r->p == r->end)
        return fail (r, "unterminated string literal");
      if (*r->p == '"')
        {
          r->p++;
          return TRUE;
        }
      if (*r->p == '\n' || *r->p == '\r')
        return fail (r, "unterminated string literal (newline)");
      if (*r->p == 0)
        return fail (r, "source code cannot contain null bytes");
      if (*r->p != '\\')
        {
          if (bytes && *r->p >= 0x80)
            return fail (r, "bytes can only contain ASCII literal characters");
          if (!raw_char (r, &value, &start))
            return FALSE;
          g_string_append_len (out, (const char *) start, r->p - start);
          continue;
        }
      r->p++;
      if (r->p == r->end)
        return fail (r, "unterminated string literal");
      e = *r->p++;
      switch (e)
        {
        case '\\':
        case '\'':
        case '"':
          value = e;
          break;
        case 'a':
          value = 7;
          break;
        case 'b':
          value = 8;
          break;
        case 'f':
          value = 12;
          break;
        case 'n':
          value = 10;
          break;
        case 'r':
          value = 13;
          break;
        case 't':
          value = 9;
          break;
        case 'v':
          value = 11;
          break;
        case 'x':
          if (!read_hex (r, 2, &value))
            return FALSE;
          break;
        case 'u':
        case 'U':
          if (bytes)
            return fail (r, "\\u in bytes is not an escape");
          if (!read_hex (r, e == 'u' ? 4 : 8, &value))
            return FALSE;
          if (value > 0x10FFFF)
            return fail (r, "illegal Unicode character");
          if (is_surrogate (value))
            return fail (r, "surrogate: not UTF-8 text");
          break;
        default:
          if (!is_octal (e))
            return fail (r, "invalid escape sequence");
          value = e - '0';
          for (int i = 0; i < 2 && r->p < r->end && is_octal (*r->p); i++)
            value = value * 8 + (*r->p++ - '0');
          if (value > 0377)
            return fail (r, "octal escape above \\377");
          break;
        }
      if (bytes)
        g_string_append_c (out, (char) value);
      else
        append_utf8 (out, value);
    }
}

/* ---- JavaScript (strict mode) ---- */

static gboolean
js_string (Reader *r, GString *out)
{
  gunichar high = 0;

  if (!expect (r, "\""))
    return FALSE;
  for (;;)
    {
      const guchar *start;
      gunichar value;
      guchar e;

      if (r->p == r->end)
        return fail (r, "unterminated string literal");
      if (*r->p == '"')
        {
          r->p++;
          return high == 0 || fail (r, "lone high surrogate");
        }
      if (*r->p == '\n' || *r->p == '\r')
        return fail (r, "line terminator in a string literal");
      if (*r->p != '\\')
        {
          if (!raw_char (r, &value, &start) || !push_utf16 (r, out, &high, value))
            return FALSE;
          continue;
        }
      r->p++;
      if (r->p == r->end)
        return fail (r, "unterminated string literal");
      e = *r->p++;
      switch (e)
        {
        case '\\':
        case '\'':
        case '"':
          value = e;
          break;
        case 'b':
          value = 8;
          break;
        case 'f':
          value = 12;
          break;
        case 'n':
          value = 10;
          break;
        case 'r':
          value = 13;
          break;
        case 't':
          value = 9;
          break;
        case 'v':
          value = 11;
          break;
        case '0':
          if (r->p < r->end && g_ascii_isdigit (*r->p))
            return fail (r, "octal escape in strict mode");
          value = 0;
          break;
        case 'x':
          if (!read_hex (r, 2, &value))
            return FALSE;
          break;
        case 'u':
          if (r->p < r->end && *r->p == '{')
            {
              /* \u{...}: any number of hex digits, at most 10FFFF. */
              r->p++;
              value = 0;
              if (r->p == r->end || *r->p == '}')
                return fail (r, "empty \\u{}");
              for (; r->p < r->end && *r->p != '}'; r->p++)
                {
                  if (hex_digit (*r->p) < 0)
                    return fail (r, "bad \\u{...}");
                  value = value * 16 + (gunichar) hex_digit (*r->p);
                  if (value > 0x10FFFF)
                    return fail (r, "\\u{...} above 10FFFF");
                }
              if (r->p == r->end)
                return fail (r, "unterminated \\u{...}");
              r->p++;
            }
          else if (!read_hex (r, 4, &value))
            return FALSE;
          break;
        default:
          /* \1..\9 are errors in strict mode; a line continuation and the identity escapes
           * of other characters are JavaScript but never written. */
          return fail (r, "escape not read");
        }
      if (!push_utf16 (r, out, &high, value))
        return FALSE;
    }
}

/* ---- Java ---- */

/* JLS 3.3: a \ preceded by an even number of backslashes and followed by u...u and four hex
 * digits is replaced by that UTF-16 unit before anything else reads the source. The units
 * go to UNITS, raw characters as one unit or a surrogate pair. */
static gboolean
java_translate (Reader *r, GArray *units)
{
  guint backslashes = 0;

  while (r->p < r->end)
    {
      const guchar *start;
      gunichar c;

      if (*r->p == '\\' && backslashes % 2 == 0 && r->p + 1 < r->end && r->p[1] == 'u')
        {
          for (r->p++; r->p < r->end && *r->p == 'u'; r->p++)
            ;
          if (!read_hex (r, 4, &c))
            return fail (r, "illegal unicode escape");
          /* How a translated backslash joins what follows (JLS 3.3, 3.10.7) is subtle and
           * quote.c never writes one: refused rather than modelled. */
          if (c == '\\')
            return fail (r, "\\u005c");
          g_array_append_val (units, c);
          backslashes = 0;
          continue;
        }
      backslashes = *r->p == '\\' ? backslashes + 1 : 0;
      if (!raw_char (r, &c, &start))
        return FALSE;
      if (c >= 0x10000)
        {
          gunichar pair[2] = { 0xD800 + ((c - 0x10000) >> 10), 0xDC00 + ((c - 0x10000) & 0x3FF) };

          g_array_append_vals (units, pair, 2);
        }
      else
        g_array_append_val (units, c);
    }
  return TRUE;
}

typedef struct {
  const gunichar *u;
  guint n;
  guint i;
} JavaUnits;

static gboolean
java_expect (Reader *r, JavaUnits *j, const char *text)
{
  for (; *text != '\0'; text++)
    if (j->i == j->n || j->u[j->i++] != (guchar) *text)
      return fail (r, "not the expected form");
  return TRUE;
}

static gboolean
java_string (Reader *r, JavaUnits *j, GString *out)
{
  gunichar high = 0;

  if (!java_expect (r, j, "\""))
    return FALSE;
  for (;;)
    {
      gunichar u, e;

      if (j->i == j->n)
        return fail (r, "unclosed string literal");
      u = j->u[j->i++];
      if (u == '"')
        return high == 0 || fail (r, "lone high surrogate");
      if (u == '\n' || u == '\r')
        return fail (r, "line terminator in a string literal");
      if (u != '\\')
        {
          if (!push_utf16 (r, out, &high, u))
            return FALSE;
          continue;
        }
      if (j->i == j->n)
        return fail (r, "unclosed string literal");
      e = j->u[j->i++];
      switch (e)
        {
        case 'b':
          u = 8;
          break;
        case 's':
          u = ' ';
          break;
        case 't':
          u = 9;
          break;
        case 'n':
          u = 10;
          break;
        case 'f':
          u = 12;
          break;
        case 'r':
          u = 13;
          break;
        case '"':
        case '\'':
        case '\\':
          u = e;
          break;
        default:
          if (e > 0x7F || !is_octal ((guchar) e))
            return fail (r, "illegal escape character");
          /* OctalEscape: \[0-7], \[0-7][0-7] or \[0-3][0-7][0-7], longest first. */
          u = e - '0';
          for (int k = 0; k < (e <= '3' ? 2 : 1) && j->i < j->n && j->u[j->i] <= 0x7F
                          && is_octal ((guchar) j->u[j->i]);
               k++)
            u = u * 8 + (j->u[j->i++] - '0');
          break;
        }
      if (!push_utf16 (r, out, &high, u))
        return FALSE;
    }
}

/* The literal, or with PREFIX and SUFFIX around it; all of LIT is translated first. */
static gboolean
java_read (Reader *r, const char *prefix, const char *suffix, GString *out)
{
  GArray *units = g_array_new (FALSE, FALSE, sizeof (gunichar));
  JavaUnits j = { NULL, 0, 0 };
  gboolean ok;

  ok = java_translate (r, units);
  j.u = (const gunichar *) (void *) units->data;
  j.n = units->len;
  ok = ok && java_expect (r, &j, prefix) && java_string (r, &j, out) && java_expect (r, &j, suffix);
  if (ok && j.i != j.n)
    ok = fail (r, "text after the literal");
  g_array_free (units, TRUE);
  return ok;
}

/* ---- Go ---- */

static gboolean
go_string (Reader *r, GString *out)
{
  if (!expect (r, "\""))
    return FALSE;
  for (;;)
    {
      const guchar *start;
      gunichar value;
      guchar e;

      if (r->p == r->end)
        return fail (r, "string not terminated");
      if (*r->p == '"')
        {
          r->p++;
          return TRUE;
        }
      if (*r->p == '\n')
        return fail (r, "newline in string");
      if (*r->p != '\\')
        {
          if (!raw_char (r, &value, &start))
            return FALSE;
          if (value == 0)
            return fail (r, "invalid NUL character");
          if (value == 0xFEFF)
            return fail (r, "invalid BOM in the middle of the file");
          g_string_append_len (out, (const char *) start, r->p - start);
          continue;
        }
      r->p++;
      if (r->p == r->end)
        return fail (r, "string not terminated");
      e = *r->p++;
      switch (e)
        {
        case 'a':
          g_string_append_c (out, 7);
          break;
        case 'b':
          g_string_append_c (out, 8);
          break;
        case 'f':
          g_string_append_c (out, 12);
          break;
        case 'n':
          g_string_append_c (out, 10);
          break;
        case 'r':
          g_string_append_c (out, 13);
          break;
        case 't':
          g_string_append_c (out, 9);
          break;
        case 'v':
          g_string_append_c (out, 11);
          break;
        case '\\':
        case '"':
          g_string_append_c (out, (char) e);
          break;
        case 'x':
          /* A byte, whatever it is. */
          if (!read_hex (r, 2, &value))
            return FALSE;
          g_string_append_c (out, (char) value);
          break;
        case 'u':
        case 'U':
          if (!read_hex (r, e == 'u' ? 4 : 8, &value))
            return FALSE;
          if (value > 0x10FFFF || is_surrogate (value))
            return fail (r, "escape is invalid Unicode code point");
          append_utf8 (out, value);
          break;
        default:
          if (!is_octal (e))
            return fail (r, "unknown escape");
          /* Exactly three octal digits, a byte. */
          value = e - '0';
          for (int i = 0; i < 2; i++)
            {
              if (r->p == r->end || !is_octal (*r->p))
                return fail (r, "octal escape needs three digits");
              value = value * 8 + (*r->p++ - '0');
            }
          if (value > 255)
            return fail (r, "octal escape value > 255");
          g_string_append_c (out, (char) value);
          break;
        }
    }
}

/* ---- Rust ---- */

/* rustc's text_direction_codepoint_in_literal lint, an error unless allowed. */
static gboolean
rust_bidi (gunichar c)
{
  return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

/* "..." (after the b of a byte string when BYTES). */
static gboolean
rust_string (Reader *r, GString *out, gboolean bytes)
{
  if (!expect (r, "\""))
    return FALSE;
  for (;;)
    {
      const guchar *start;
      gunichar value;
      guint digits;
      guchar e;

      if (r->p == r->end)
        return fail (r, "unterminated double quote string");
      if (*r->p == '"')
        {
          r->p++;
          return TRUE;
        }
      if (*r->p == '\r')
        return fail (r, "bare CR not allowed in string");
      if (*r->p != '\\')
        {
          if (bytes && *r->p >= 0x80)
            return fail (r, "non-ASCII character in byte string literal");
          if (!raw_char (r, &value, &start))
            return FALSE;
          if (rust_bidi (value))
            return fail (r, "unicode codepoint changing visible direction of text");
          g_string_append_len (out, (const char *) start, r->p - start);
          continue;
        }
      r->p++;
      if (r->p == r->end)
        return fail (r, "unterminated double quote string");
      e = *r->p++;
      switch (e)
        {
        case 'n':
          value = 10;
          break;
        case 'r':
          value = 13;
          break;
        case 't':
          value = 9;
          break;
        case '0':
          value = 0;
          break;
        case '\\':
        case '\'':
        case '"':
          value = e;
          break;
        case 'x':
          if (!read_hex (r, 2, &value))
            return FALSE;
          if (!bytes && value > 0x7F)
            return fail (r, "out of range hex escape");
          break;
        case 'u':
          if (bytes)
            return fail (r, "unicode escape in byte string");
          /* \u{...}: one to six hex digits, underscores after the first. */
          if (!expect (r, "{"))
            return fail (r, "incorrect unicode escape sequence");
          if (r->p == r->end || hex_digit (*r->p) < 0)
            return fail (r, "invalid start of unicode escape");
          value = 0;
          digits = 0;
          for (; r->p < r->end && *r->p != '}'; r->p++)
            {
              if (*r->p == '_')
                continue;
              if (hex_digit (*r->p) < 0)
                return fail (r, "invalid character in unicode escape");
              if (++digits > 6)
                return fail (r, "overlong unicode escape");
              value = value * 16 + (gunichar) hex_digit (*r->p);
            }
          if (r->p == r->end)
            return fail (r, "unterminated unicode escape");
          r->p++;
          if (value > 0x10FFFF)
            return fail (r, "invalid unicode character escape");
          if (is_surrogate (value))
            return fail (r, "unicode escape must not be a surrogate");
          break;
        default:
          /* A line continuation is Rust but never written. */
          return fail (r, "unknown character escape");
        }
      if (bytes)
        g_string_append_c (out, (char) value);
      else
        append_utf8 (out, value);
    }
}

/* ---- entry points ---- */

static gboolean
finish (Reader *r, gboolean ok, const char **error)
{
  if (ok && r->p != r->end)
    ok = fail (r, "text after the literal");
  if (!ok && error != NULL)
    *error = r->error;
  return ok;
}

gboolean
cg_unquote_string (DdbLang lang, const char *lit, gsize len, GString *out, const char **error)
{
  Reader r = { (const guchar *) lit, (const guchar *) lit + len, NULL };
  gboolean ok = FALSE;

  switch (lang)
    {
    case DDB_LANG_CLI:
      ok = shell_word (&r, out);
      break;
    case DDB_LANG_PYTHON:
      ok = python_string (&r, out, FALSE);
      break;
    case DDB_LANG_JS:
      ok = js_string (&r, out);
      break;
    case DDB_LANG_JAVA:
      ok = java_read (&r, "", "", out);
      break;
    case DDB_LANG_GO:
      ok = go_string (&r, out);
      break;
    case DDB_LANG_RUST:
      ok = rust_string (&r, out, FALSE);
      break;
    }
  return finish (&r, ok, error);
}

gboolean
cg_unquote_bytes (DdbLang lang, const char *lit, gsize len, GString *out, const char **error)
{
  Reader r = { (const guchar *) lit, (const guchar *) lit + len, NULL };
  GString *base64 = g_string_new (NULL);
  gboolean ok = FALSE;

  switch (lang)
    {
    case DDB_LANG_CLI:
      ok = shell_word (&r, base64) && base64_strict (&r, base64, out);
      break;
    case DDB_LANG_PYTHON:
      ok = expect (&r, "b") && python_string (&r, out, TRUE);
      break;
    case DDB_LANG_JS:
      ok = expect (&r, "Buffer.from(") && js_string (&r, base64) && expect (&r, ", \"base64\")")
           && base64_strict (&r, base64, out);
      break;
    case DDB_LANG_JAVA:
      ok = java_read (&r, "SdkBytes.fromByteArray(Base64.getDecoder().decode(", "))", base64)
           && base64_strict (&r, base64, out);
      break;
    case DDB_LANG_GO:
      ok = expect (&r, "[]byte(") && go_string (&r, out) && expect (&r, ")");
      break;
    case DDB_LANG_RUST:
      ok = expect (&r, "Blob::new(b") && rust_string (&r, out, TRUE) && expect (&r, ".to_vec())");
      break;
    }
  g_string_free (base64, TRUE);
  return finish (&r, ok, error);
}
