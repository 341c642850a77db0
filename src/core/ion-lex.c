/* ion-lex.c: the lexical half of the Ion text reader (ion-read.c has the parser): whitespace
 * and comments, and the scalar tokens: ints, decimals and floats (with '_', 0x and 0b),
 * timestamps (checked), quoted text with its escapes (short and long strings, quoted symbols,
 * clobs), identifiers and $N symbol ids, and blobs and clobs. Each scanner starts at r->p,
 * leaves r->p past what it read and reports problems with ion_fail (). */
#include "core/ion-private.h"

#include <string.h>

#include "core/base64.h"
#include "core/jsontext.h"

/* The system symbol table: $1 .. $9. */
static const char *const system_symbols[] = {
  "$ion",    "$ion_1_0", "$ion_symbol_table",        "name", "version", "imports",
  "symbols", "max_id",   "$ion_shared_symbol_table",
};

/* Characters */

static inline int
hex_value (int c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Past whitespace and comments; FALSE (failed) on an unterminated block comment or a comment
 * that is not UTF-8. */
gboolean
ion_skip_ws (DdbIonReader *r)
{
  for (;;)
    {
      int c = peek_at (r, 0);

      if (is_ws (c))
        r->p++;
      else if (c == '/' && peek_at (r, 1) == '/')
        {
          r->p += 2;
          while (r->p < r->end && *r->p != '\n' && *r->p != '\r')
            {
              gunichar u;
              gsize n = ddb_utf8_decode (r->p, (gsize) (r->end - r->p), &u);
              if (n == 0)
                return ion_fail (r, r->p, DDB_ION_ERROR_SYNTAX, "a comment is not valid UTF-8"),
                       FALSE;
              r->p += n;
            }
        }
      else if (c == '/' && peek_at (r, 1) == '*')
        {
          const guchar *open = r->p;
          r->p += 2;
          for (;;)
            {
              gunichar u;
              gsize n;

              if (r->p >= r->end)
                return ion_fail (r, open, DDB_ION_ERROR_SYNTAX, "unterminated comment"), FALSE;
              if (*r->p == '*' && peek_at (r, 1) == '/')
                {
                  r->p += 2;
                  break;
                }
              n = ddb_utf8_decode (r->p, (gsize) (r->end - r->p), &u);
              if (n == 0)
                return ion_fail (r, r->p, DDB_ION_ERROR_SYNTAX, "a comment is not valid UTF-8"),
                       FALSE;
              r->p += n;
            }
        }
      else
        return TRUE;
    }
}

/* After a number or timestamp: one of the numeric stop characters, a comment, or the end. */
gboolean
ion_at_numeric_stop (const DdbIonReader *r)
{
  int c = peek_at (r, 0);

  if (c < 0 || is_ws (c) || (c != 0 && strchr ("{}[](),\"'", c) != NULL))
    return TRUE;
  return c == '/' && (peek_at (r, 1) == '/' || peek_at (r, 1) == '*');
}

/* Numbers and timestamps */

/* Appends digits (0-9, with single '_' between digits) to `out`; returns how many, or -1 after
 * a misplaced '_'. */
static int
scan_digits (DdbIonReader *r, GString *out, int radix)
{
  int n = 0;

  for (;;)
    {
      int c = peek_at (r, 0);
      int d = hex_value (c);

      if (c == '_' && n > 0)
        {
          int next = hex_value (peek_at (r, 1));
          if (next < 0 || next >= radix)
            return -1;
          r->p++;
          continue;
        }
      if (d < 0 || d >= radix)
        return n;
      g_string_append_c (out, (char) c);
      r->p++;
      n++;
    }
}

/* Decimal text of the hexadecimal or binary digits. */
static void
radix_to_decimal (const char *digits, gsize len, int radix, GString *out)
{
  /* Little-endian limbs of 10^9. */
  g_autoptr (GArray) limbs = g_array_new (FALSE, TRUE, sizeof (guint32));
  guint32 zero = 0;

  g_array_append_val (limbs, zero);
  for (gsize i = 0; i < len; i++)
    {
      guint64 carry = (guint64) hex_value ((guchar) digits[i]);
      for (guint k = 0; k < limbs->len; k++)
        {
          guint64 x = (guint64) g_array_index (limbs, guint32, k) * (guint64) radix + carry;
          g_array_index (limbs, guint32, k) = (guint32) (x % 1000000000u);
          carry = x / 1000000000u;
        }
      if (carry > 0)
        {
          guint32 c32 = (guint32) carry;
          g_array_append_val (limbs, c32);
        }
    }
  g_string_append_printf (out, "%u", g_array_index (limbs, guint32, limbs->len - 1));
  for (guint k = limbs->len - 1; k-- > 0;)
    g_string_append_printf (out, "%09u", g_array_index (limbs, guint32, k));
}

static gboolean
scan_fixed_digits (DdbIonReader *r, int count, int *out)
{
  *out = 0;
  for (int i = 0; i < count; i++)
    {
      int c = peek_at (r, 0);
      if (c < '0' || c > '9')
        return FALSE;
      *out = *out * 10 + (c - '0');
      r->p++;
    }
  return TRUE;
}

static DdbIonValue *
parse_timestamp (DdbIonReader *r)
{
  const guchar *s = r->p;
  int year, month = 1, day = 1, hour, minute, second, oh, om;
  static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
  GString *text;

  scan_fixed_digits (r, 4, &year);
  if (year == 0)
    return ion_fail (r, s, DDB_ION_ERROR_SYNTAX, "timestamp year 0000 is out of range");
  if (peek_at (r, 0) == 'T')
    {
      r->p++;
      goto done;
    }
  r->p++; /* '-' */
  if (!scan_fixed_digits (r, 2, &month) || month < 1 || month > 12)
    return ion_fail (r, s, DDB_ION_ERROR_SYNTAX, "invalid timestamp month");
  if (peek_at (r, 0) == 'T')
    {
      r->p++;
      goto done;
    }
  if (peek_at (r, 0) != '-')
    return ion_fail (r, s, DDB_ION_ERROR_SYNTAX,
                     "invalid timestamp: 'T' or '-' expected after the month");
  r->p++;
  if (!scan_fixed_digits (r, 2, &day) || day < 1
      || day > mdays[month - 1]
                   + (month == 2 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)))
    return ion_fail (r, s, DDB_ION_ERROR_SYNTAX, "invalid timestamp day");
  if (peek_at (r, 0) != 'T')
    goto done;
  r->p++;
  if (ion_at_numeric_stop (r))
    goto done;
  if (!scan_fixed_digits (r, 2, &hour) || hour > 23 || peek_at (r, 0) != ':')
    return ion_fail (r, s, DDB_ION_ERROR_SYNTAX, "invalid timestamp hour");
  r->p++;
  if (!scan_fixed_digits (r, 2, &minute) || minute > 59)
    return ion_fail (r, s, DDB_ION_ERROR_SYNTAX, "invalid timestamp minute");
  if (peek_at (r, 0) == ':')
    {
      r->p++;
      if (!scan_fixed_digits (r, 2, &second) || second > 59)
        return ion_fail (r, s, DDB_ION_ERROR_SYNTAX, "invalid timestamp second");
      if (peek_at (r, 0) == '.')
        {
          int n = 0;
          r->p++;
          while (peek_at (r, 0) >= '0' && peek_at (r, 0) <= '9')
            r->p++, n++;
          if (n == 0)
            return ion_fail (r, s, DDB_ION_ERROR_SYNTAX, "invalid timestamp fraction of a second");
        }
    }
  if (peek_at (r, 0) == 'Z')
    r->p++;
  else if (peek_at (r, 0) == '+' || peek_at (r, 0) == '-')
    {
      r->p++;
      if (!scan_fixed_digits (r, 2, &oh) || oh > 23 || peek_at (r, 0) != ':')
        return ion_fail (r, s, DDB_ION_ERROR_SYNTAX, "invalid timestamp offset");
      r->p++;
      if (!scan_fixed_digits (r, 2, &om) || om > 59)
        return ion_fail (r, s, DDB_ION_ERROR_SYNTAX, "invalid timestamp offset");
    }
  else
    return ion_fail (r, s, DDB_ION_ERROR_SYNTAX, "a timestamp with a time needs an offset");
done:
  if (!ion_at_numeric_stop (r))
    return ion_fail_unexpected (r, r->p, "after a timestamp");
  text = g_string_new_len ((const char *) s, (gssize) (r->p - s));
  return ion_new_text_value (r, DDB_ION_TYPE_TIMESTAMP, s, text);
}

static gboolean
looks_like_timestamp (const DdbIonReader *r)
{
  for (int i = 0; i < 4; i++)
    if (peek_at (r, i) < '0' || peek_at (r, i) > '9')
      return FALSE;
  return peek_at (r, 4) == '-' || peek_at (r, 4) == 'T';
}

DdbIonValue *
ion_parse_number (DdbIonReader *r)
{
  const guchar *s = r->p;
  GString *text = g_string_new (NULL);
  DdbIonType type = DDB_ION_TYPE_INT;
  int c, n;

  if (peek_at (r, 0) == '-')
    {
      g_string_append_c (text, '-');
      r->p++;
    }
  else if (looks_like_timestamp (r))
    {
      g_string_free (text, TRUE);
      return parse_timestamp (r);
    }
  c = peek_at (r, 1);
  if (peek_at (r, 0) == '0' && (c == 'x' || c == 'X' || c == 'b' || c == 'B'))
    {
      int radix = (c == 'x' || c == 'X') ? 16 : 2;
      g_autoptr (GString) digits = g_string_new (NULL);

      r->p += 2;
      n = scan_digits (r, digits, radix);
      if (n <= 0)
        {
          g_string_free (text, TRUE);
          return n < 0 ? ion_fail (r, r->p, DDB_ION_ERROR_SYNTAX, "misplaced '_' in a number")
                       : ion_fail_unexpected (r, r->p, "in a number");
        }
      if (n > DDB_ION_MAX_RADIX_DIGITS)
        {
          g_string_free (text, TRUE);
          return ion_fail (r, s, DDB_ION_ERROR_UNSUPPORTED,
                           "integer of more than %d hexadecimal or binary digits",
                           DDB_ION_MAX_RADIX_DIGITS);
        }
      radix_to_decimal (digits->str, digits->len, radix, text);
    }
  else
    {
      gsize int_start = text->len;

      n = scan_digits (r, text, 10);
      if (n <= 0)
        {
          g_string_free (text, TRUE);
          return n < 0 ? ion_fail (r, r->p, DDB_ION_ERROR_SYNTAX, "misplaced '_' in a number")
                       : ion_fail_unexpected (r, r->p, "in a number");
        }
      if (text->str[int_start] == '0' && n > 1)
        {
          g_string_free (text, TRUE);
          return ion_fail (r, s, DDB_ION_ERROR_SYNTAX, "a number may not start with 0");
        }
      if (peek_at (r, 0) == '.')
        {
          type = DDB_ION_TYPE_DECIMAL;
          g_string_append_c (text, '.');
          r->p++;
          if (peek_at (r, 0) == '_' || scan_digits (r, text, 10) < 0)
            {
              g_string_free (text, TRUE);
              return ion_fail (r, r->p, DDB_ION_ERROR_SYNTAX, "misplaced '_' in a number");
            }
        }
      c = peek_at (r, 0);
      if (c == 'd' || c == 'D' || c == 'e' || c == 'E')
        {
          int digits = 0;

          type = (c == 'd' || c == 'D') ? DDB_ION_TYPE_DECIMAL : DDB_ION_TYPE_FLOAT;
          g_string_append_c (text, 'e');
          r->p++;
          if (peek_at (r, 0) == '+' || peek_at (r, 0) == '-')
            g_string_append_c (text, (char) *r->p++);
          while (peek_at (r, 0) >= '0' && peek_at (r, 0) <= '9')
            {
              g_string_append_c (text, (char) *r->p++);
              digits++;
            }
          if (digits == 0)
            {
              g_string_free (text, TRUE);
              return ion_fail (r, r->p, DDB_ION_ERROR_SYNTAX, "an exponent needs digits");
            }
        }
    }
  if (!ion_at_numeric_stop (r))
    {
      g_string_free (text, TRUE);
      return ion_fail_unexpected (r, r->p, "after a number");
    }
  if (type == DDB_ION_TYPE_FLOAT)
    {
      DdbIonValue *v;

      g_string_truncate (text, 0);
      g_string_append_len (text, (const char *) s, (gssize) (r->p - s));
      v = ion_new_text_value (r, type, s, text);
      {
        /* g_ascii_strtod reads the digits without the underscores. */
        g_autoptr (GString) plain = g_string_new (NULL);
        for (gsize i = 0; i < v->text.len; i++)
          if (v->text.data[i] != '_')
            g_string_append_c (plain, v->text.data[i]);
        v->f = g_ascii_strtod (plain->str, NULL);
      }
      return v;
    }
  return ion_new_text_value (r, type, s, text);
}

/* Text: strings, symbols, clobs */

/* Appends a code point as UTF-8. */
static void
append_unichar (GString *out, gunichar u)
{
  char buf[6];
  gint n = g_unichar_to_utf8 (u, buf);
  g_string_append_len (out, buf, n);
}

static gboolean
read_hex (DdbIonReader *r, int count, guint32 *out)
{
  *out = 0;
  for (int i = 0; i < count; i++)
    {
      int d = hex_value (peek_at (r, 0));
      if (d < 0)
        return FALSE;
      *out = (*out << 4) | (guint32) d;
      r->p++;
    }
  return TRUE;
}

/* Reads the escape whose backslash is at r->p into `out`. */
static gboolean
read_escape (DdbIonReader *r, GString *out, gboolean clob)
{
  const guchar *bs = r->p;
  int c = peek_at (r, 1);
  guint32 u;
  char simple = 0;

  if (c < 0)
    return ion_fail (r, bs, DDB_ION_ERROR_SYNTAX,
                     "invalid escape: backslash followed by the end of the input"),
           FALSE;
  r->p += 2;
  switch (c)
    {
    case '\r':
    case '\n':
      /* Line continuation: nothing is appended. */
      if (c == '\r' && peek_at (r, 0) == '\n')
        r->p++;
      return TRUE;
    case 'a':
      simple = '\a';
      break;
    case 'b':
      simple = '\b';
      break;
    case 't':
      simple = '\t';
      break;
    case 'n':
      simple = '\n';
      break;
    case 'f':
      simple = '\f';
      break;
    case 'r':
      simple = '\r';
      break;
    case 'v':
      simple = '\v';
      break;
    case '0':
      simple = '\0';
      break;
    case '?':
    case '\'':
    case '"':
    case '/':
    case '\\':
      simple = (char) c;
      break;
    default:
      break;
    }
  if (simple != 0 || c == '0')
    {
      g_string_append_c (out, simple);
      return TRUE;
    }
  if (c == 'x')
    {
      if (!read_hex (r, 2, &u))
        return ion_fail (r, bs, DDB_ION_ERROR_SYNTAX, "\\x needs two hexadecimal digits"), FALSE;
      if (clob)
        g_string_append_c (out, (char) u);
      else
        append_unichar (out, u);
      return TRUE;
    }
  if ((c == 'u' || c == 'U') && !clob)
    {
      if (!read_hex (r, c == 'u' ? 4 : 8, &u))
        return ion_fail (r, bs, DDB_ION_ERROR_SYNTAX, "\\%c needs %d hexadecimal digits", c,
                         c == 'u' ? 4 : 8),
               FALSE;
      if (u >= 0xD800 && u <= 0xDBFF && c == 'u')
        {
          guint32 low;
          if (peek_at (r, 0) != '\\' || peek_at (r, 1) != 'u')
            return ion_fail (r, bs, DDB_ION_ERROR_SYNTAX, "a lone UTF-16 surrogate in an escape"),
                   FALSE;
          r->p += 2;
          if (!read_hex (r, 4, &low) || low < 0xDC00 || low > 0xDFFF)
            return ion_fail (r, bs, DDB_ION_ERROR_SYNTAX, "a lone UTF-16 surrogate in an escape"),
                   FALSE;
          u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
        }
      else if ((u >= 0xD800 && u <= 0xDFFF) || u > 0x10FFFF)
        return ion_fail (r, bs, DDB_ION_ERROR_SYNTAX, "escape of an invalid code point U+%X", u),
               FALSE;
      append_unichar (out, u);
      return TRUE;
    }
  {
    g_autofree char *what = ion_describe_at (r, bs + 1);
    ion_fail (r, bs, DDB_ION_ERROR_SYNTAX, "invalid escape: backslash followed by %s", what);
  }
  return FALSE;
}

/* Reads the body of a quoted text whose opening quote(s) r->p is just past, up to and past the
 * closing quote(s), appending to `out`. A clob's text is ASCII, its \x escapes bytes. */
gboolean
ion_read_quoted (DdbIonReader *r, Quote quote, gboolean clob, GString *out)
{
  const guchar *open = r->p;
  int close = quote == QUOTE_SHORT ? '"' : '\'';

  for (;;)
    {
      int c = peek_at (r, 0);

      if (c < 0)
        return ion_fail (r, open, DDB_ION_ERROR_SYNTAX, "unterminated %s",
                         quote == QUOTE_SYMBOL ? "quoted symbol"
                         : clob                ? "clob"
                                               : "string"),
               FALSE;
      if (c == close && (quote != QUOTE_LONG || (peek_at (r, 1) == '\'' && peek_at (r, 2) == '\'')))
        {
          r->p += quote == QUOTE_LONG ? 3 : 1;
          return TRUE;
        }
      if (c == '\\')
        {
          if (!read_escape (r, out, clob))
            return FALSE;
          continue;
        }
      if (c == '\n' || c == '\r')
        {
          if (quote != QUOTE_LONG)
            return ion_fail (r, r->p, DDB_ION_ERROR_SYNTAX, "a line break in a %s",
                             quote == QUOTE_SYMBOL ? "quoted symbol" : "short string"),
                   FALSE;
        }
      else if (c < 0x20 && c != '\t' && c != '\v' && c != '\f')
        return ion_fail (r, r->p, DDB_ION_ERROR_SYNTAX, "control character 0x%02X must be escaped",
                         (guint) c),
               FALSE;
      if (c >= 0x80)
        {
          gunichar u;
          gsize n = ddb_utf8_decode (r->p, (gsize) (r->end - r->p), &u);
          if (clob)
            return ion_fail (r, r->p, DDB_ION_ERROR_SYNTAX, "a clob holds only ASCII characters"),
                   FALSE;
          if (n == 0)
            return ion_fail (r, r->p, DDB_ION_ERROR_SYNTAX, "text that is not valid UTF-8"), FALSE;
          g_string_append_len (out, (const char *) r->p, (gssize) n);
          r->p += n;
          continue;
        }
      g_string_append_c (out, (char) c);
      r->p++;
    }
}

/* One or more long strings, joined across whitespace and comments. */
gboolean
ion_read_long_strings (DdbIonReader *r, GString *out)
{
  for (;;)
    {
      const guchar *after;

      r->p += 3;
      if (!ion_read_quoted (r, QUOTE_LONG, FALSE, out))
        return FALSE;
      after = r->p;
      if (!ion_skip_ws (r))
        return FALSE;
      if (!at_long_quote (r))
        {
          r->p = after;
          return TRUE;
        }
    }
}

/* Symbols */

/* The text of symbol id `sid` (NULL for $0); FALSE (failed) if undefined. */
static gboolean
resolve_sid (DdbIonReader *r, const guchar *at, const char *digits, char **out)
{
  guint64 sid;

  if (strlen (digits) > 9)
    return ion_fail (r, at, DDB_ION_ERROR_SYNTAX, "symbol $%s is not defined", digits), FALSE;
  sid = g_ascii_strtoull (digits, NULL, 10);
  if (sid == 0)
    *out = NULL;
  else if (sid <= G_N_ELEMENTS (system_symbols))
    *out = g_strdup (system_symbols[sid - 1]);
  else if (sid - 10 < r->symbols->len)
    *out = g_strdup (g_ptr_array_index (r->symbols, sid - 10));
  else
    return ion_fail (r, at, DDB_ION_ERROR_SYNTAX, "symbol $%s is not defined", digits), FALSE;
  return TRUE;
}

/* Reads an identifier or quoted symbol at r->p into *text (NULL for $0). */
gboolean
ion_read_symbol (DdbIonReader *r, SymKind *kind, char **text, gsize *len)
{
  const guchar *s = r->p;

  if (*s == '\'')
    {
      GString *out = g_string_new (NULL);
      r->p++;
      if (!ion_read_quoted (r, QUOTE_SYMBOL, FALSE, out))
        {
          g_string_free (out, TRUE);
          return FALSE;
        }
      *kind = SYM_QUOTED;
      *len = out->len;
      *text = g_string_free (out, FALSE);
      return TRUE;
    }
  while (is_ident_char (peek_at (r, 0)))
    r->p++;
  *text = g_strndup ((const char *) s, (gsize) (r->p - s));
  *len = (gsize) (r->p - s);
  *kind = SYM_IDENT;
  if (strcmp (*text, "null") == 0 || strcmp (*text, "true") == 0 || strcmp (*text, "false") == 0
      || strcmp (*text, "nan") == 0)
    *kind = SYM_KEYWORD;
  else if ((*text)[0] == '$' && *len > 1 && strspn (*text + 1, "0123456789") == *len - 1)
    {
      g_autofree char *digits = *text;
      *kind = SYM_ID;
      *text = NULL;
      if (!resolve_sid (r, s, digits + 1, text))
        return FALSE;
      *len = *text != NULL ? strlen (*text) : 0;
    }
  return TRUE;
}

/* Blobs and clobs: r->p is at "{{". */
DdbIonValue *
ion_parse_lob (DdbIonReader *r)
{
  const guchar *open = r->p;
  g_autoptr (GString) data = g_string_new (NULL);
  DdbIonType type = DDB_ION_TYPE_BLOB;

  r->p += 2;
  while (is_ws (peek_at (r, 0)))
    r->p++;
  if (peek_at (r, 0) == '"' || at_long_quote (r))
    {
      type = DDB_ION_TYPE_CLOB;
      if (peek_at (r, 0) == '"')
        {
          r->p++;
          if (!ion_read_quoted (r, QUOTE_SHORT, TRUE, data))
            return NULL;
        }
      else
        while (at_long_quote (r))
          {
            r->p += 3;
            if (!ion_read_quoted (r, QUOTE_LONG, TRUE, data))
              return NULL;
            while (is_ws (peek_at (r, 0)))
              r->p++;
          }
      while (is_ws (peek_at (r, 0)))
        r->p++;
    }
  else
    {
      g_autoptr (GString) b64 = g_string_new (NULL);
      guchar *bytes;
      gsize n = 0;
      DdbBase64Error why = DDB_BASE64_OK;

      for (;;)
        {
          int c = peek_at (r, 0);
          if (is_ws (c))
            r->p++;
          else if (c >= 0 && c < 0x80 && (g_ascii_isalnum (c) || c == '+' || c == '/' || c == '='))
            {
              g_string_append_c (b64, (char) c);
              r->p++;
            }
          else
            break;
        }
      bytes = ddb_base64_decode (b64->str, (gssize) b64->len, &n, &why, NULL);
      if (bytes == NULL && why == DDB_BASE64_BAD_TRAILING_BITS)
        {
          /* Ion reads the unused low bits of the last character as anything: clear them. */
          static const char alphabet[]
              = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
          gsize pad = b64->str[b64->len - 2] == '=' ? 2 : 1;
          char *last = &b64->str[b64->len - 1 - pad];
          int idx = (int) (strchr (alphabet, *last) - alphabet);
          *last = alphabet[idx & (pad == 2 ? 0x30 : 0x3C)];
          bytes = ddb_base64_decode (b64->str, (gssize) b64->len, &n, &why, NULL);
        }
      if (bytes == NULL)
        {
          if (peek_at (r, 0) != '}')
            return ion_fail_unexpected (r, r->p, "in a blob");
          return ion_fail (r, open, DDB_ION_ERROR_SYNTAX, "a blob is not valid base64");
        }
      g_string_append_len (data, (const char *) bytes, (gssize) n);
      g_free (bytes);
    }
  if (peek_at (r, 0) != '}' || peek_at (r, 1) != '}')
    return ion_fail_unexpected (r, r->p,
                                type == DDB_ION_TYPE_CLOB ? "in a clob ('}}' expected)"
                                                          : "in a blob ('}}' expected)");
  r->p += 2;
  {
    GString *owned = g_string_new_len (data->str, (gssize) data->len);
    return ion_new_text_value (r, type, open, owned);
  }
}

/* Values over several lines */

enum { SCAN_PLAIN, SCAN_LONG, SCAN_COMMENT, SCAN_SHORT, SCAN_SYMBOL };

gboolean
ddb_ion_scan_line (DdbIonScan *scan, const char *line, gsize len)
{
  const char *p = line, *end = line + len;

  while (p < end)
    {
      char c = *p;
      gsize left = (gsize) (end - p);

      switch (scan->state)
        {
        case SCAN_LONG:
        case SCAN_SHORT:
          case SCAN_SYMBOL: {
            char close = scan->state == SCAN_SHORT ? '"' : '\'';
            gsize n = scan->state == SCAN_LONG ? 3 : 1;

            if (c == '\\')
              {
                /* A backslash at the end of the line continues the text on the next. */
                if (left == 1)
                  return TRUE;
                p += 2;
                continue;
              }
            if (c == close && (n == 1 || (left >= 3 && p[1] == '\'' && p[2] == '\'')))
              {
                scan->state = SCAN_PLAIN;
                p += n;
              }
            else
              p++;
            continue;
          }
        case SCAN_COMMENT:
          if (c == '*' && left >= 2 && p[1] == '/')
            {
              scan->state = SCAN_PLAIN;
              p++;
            }
          p++;
          continue;
        default:
          break;
        }
      if (c == '\'' && left >= 3 && p[1] == '\'' && p[2] == '\'')
        {
          scan->state = SCAN_LONG;
          p += 3;
          continue;
        }
      if (c == '"' || c == '\'')
        scan->state = c == '"' ? SCAN_SHORT : SCAN_SYMBOL;
      else if (scan->lob)
        {
          /* Base64 holds slashes: no comment starts inside a lob. */
          if (c == '}' && left >= 2 && p[1] == '}')
            {
              scan->lob = FALSE;
              scan->depth--;
              p++;
            }
        }
      else if (c == '/' && left >= 2 && p[1] == '/')
        break;
      else if (c == '/' && left >= 2 && p[1] == '*')
        {
          scan->state = SCAN_COMMENT;
          p++;
        }
      else if (c == '{' && left >= 2 && p[1] == '{')
        {
          scan->lob = TRUE;
          scan->depth++;
          p++;
        }
      else if (c == '{' || c == '[' || c == '(')
        scan->depth++;
      else if ((c == '}' || c == ']' || c == ')') && scan->depth > 0)
        scan->depth--;
      p++;
    }
  /* Short text ends with its line unless a final backslash continued it (above). */
  if (scan->state == SCAN_SHORT || scan->state == SCAN_SYMBOL)
    scan->state = SCAN_PLAIN;
  return scan->depth > 0 || scan->lob || scan->state != SCAN_PLAIN;
}

gboolean
ddb_ion_scan_in_text (const DdbIonScan *scan)
{
  return scan->state != SCAN_PLAIN;
}
