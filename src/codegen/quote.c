/* quote.c: string and byte-string literals for the six languages codegen writes. Every writer
 * copies characters through as they are except the few each language needs escaped and the
 * ones ddb_quote_must_escape names, so a literal reads as the text it holds. */
#include "codegen/quote.h"

#include <string.h>

static const struct {
  const char *name;
  const char *title;
} langs[DDB_N_LANGS] = {
  [DDB_LANG_CLI] = { "cli", "AWS CLI" },  [DDB_LANG_PYTHON] = { "python", "Python" },
  [DDB_LANG_JS] = { "js", "JavaScript" }, [DDB_LANG_JAVA] = { "java", "Java" },
  [DDB_LANG_GO] = { "go", "Go" },         [DDB_LANG_RUST] = { "rust", "Rust" },
};

static const struct {
  const char *alias;
  DdbLang lang;
} aliases[] = {
  { "bash", DDB_LANG_CLI }, { "py", DDB_LANG_PYTHON }, { "javascript", DDB_LANG_JS },
  { "node", DDB_LANG_JS },  { "golang", DDB_LANG_GO }, { "rs", DDB_LANG_RUST },
};

const char *
ddb_lang_name (DdbLang lang)
{
  g_return_val_if_fail ((guint) lang < DDB_N_LANGS, NULL);
  return langs[lang].name;
}

const char *
ddb_lang_title (DdbLang lang)
{
  g_return_val_if_fail ((guint) lang < DDB_N_LANGS, NULL);
  return langs[lang].title;
}

gboolean
ddb_lang_from_name (const char *name, DdbLang *out)
{
  g_return_val_if_fail (name != NULL, FALSE);

  for (guint i = 0; i < DDB_N_LANGS; i++)
    if (strcmp (name, langs[i].name) == 0)
      {
        *out = (DdbLang) i;
        return TRUE;
      }
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (strcmp (name, aliases[i].alias) == 0)
      {
        *out = aliases[i].lang;
        return TRUE;
      }
  return FALSE;
}

gboolean
ddb_quote_must_escape (gunichar c)
{
  /* Controls move the cursor, erase or end lines; the format characters below are invisible
   * or reorder what is shown (the Trojan Source bidirectional overrides and isolates among
   * them); noncharacters are invisible and some tools take U+FFFF for end of input. */
  if (c < 0x20 || (c >= 0x7F && c <= 0x9F))
    return TRUE;
  if ((c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE)
    return TRUE;
  switch (c)
    {
    case 0x00AD: /* soft hyphen */
    case 0x061C: /* Arabic letter mark */
    case 0x180E: /* Mongolian vowel separator */
    case 0xFEFF: /* zero width no-break space, byte order mark */
      return TRUE;
    default:
      break;
    }
  return (c >= 0x200B && c <= 0x200F)     /* zero widths, LRM, RLM */
         || (c >= 0x2028 && c <= 0x202E)  /* line and paragraph separators, embeddings */
         || (c >= 0x2060 && c <= 0x2069)  /* word joiner, invisible operators, isolates */
         || (c >= 0xFFF9 && c <= 0xFFFB); /* interlinear annotation */
}

static void
append_surrogates (GString *out, gunichar c)
{
  c -= 0x10000;
  g_string_append_printf (out, "\\u%04x\\u%04x", 0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF));
}

/* C for a language escape other than \\ \" \n \r \t, which every language writes alike. */
static void
append_escape (GString *out, DdbLang lang, gunichar c)
{
  switch (lang)
    {
    case DDB_LANG_PYTHON:
      /* In a str literal \xHH is the code point U+00HH, not a byte. */
      if (c < 0x100)
        g_string_append_printf (out, "\\x%02x", c);
      else if (c < 0x10000)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_printf (out, "\\U%08x", c);
      break;
    case DDB_LANG_JS:
      /* \xHH is the UTF-16 code unit 00HH; \u{...} would do for astral characters too, but a
       * pair reads the same in every ECMAScript version. */
      if (c < 0x100)
        g_string_append_printf (out, "\\x%02x", c);
      else if (c < 0x10000)
        g_string_append_printf (out, "\\u%04x", c);
      else
        append_surrogates (out, c);
      break;
    case DDB_LANG_JAVA:
      /* javac turns every \uHHHH into its character before it reads the literal, so \u000a
       * would end the line in the middle of it: controls are written in octal, which is read
       * inside the literal. Three digits, so that a digit after it is never taken in. */
      if (c == '\b')
        g_string_append (out, "\\b");
      else if (c == '\f')
        g_string_append (out, "\\f");
      else if (c < 0x20)
        g_string_append_printf (out, "\\%03o", c);
      else if (c < 0x10000)
        g_string_append_printf (out, "\\u%04x", c);
      else
        append_surrogates (out, c);
      break;
    case DDB_LANG_GO:
      /* \xHH is one byte in Go, so only ASCII can be written that way; \u and \U write the
       * character's UTF-8. */
      if (c < 0x80)
        g_string_append_printf (out, "\\x%02x", c);
      else if (c < 0x10000)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_printf (out, "\\U%08x", c);
      break;
    case DDB_LANG_RUST:
      /* Rust has no octal escapes, so \0 before a digit stays U+0000. */
      if (c == 0)
        g_string_append (out, "\\0");
      else
        g_string_append_printf (out, "\\u{%x}", c);
      break;
    case DDB_LANG_CLI:
      g_assert_not_reached ();
    }
}

/* A double-quoted literal for every language but the shell. */
static void
quote_double (GString *out, DdbLang lang, const char *data, gsize len)
{
  const char *end = data + len;

  g_string_append_c (out, '"');
  for (const char *p = data; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '"' || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) c);
        }
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (ddb_quote_must_escape (c))
        append_escape (out, lang, c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
    }
  g_string_append_c (out, '"');
}

/* A bash word: runs of plain text in '...', where nothing is special; ' as \'; the characters
 * to escape as their UTF-8 bytes in $'...' (\xHH is a byte whatever the locale, where \u
 * would depend on it). */
static void
quote_shell (GString *out, const char *data, gsize len)
{
  enum { OUTSIDE, SINGLE, ANSI } state = OUTSIDE;
  const char *end = data + len;

  if (len == 0)
    {
      g_string_append (out, "''");
      return;
    }
  for (const char *p = data; p < end; p = g_utf8_next_char (p))
    {
      const char *next = g_utf8_next_char (p);
      gunichar c = g_utf8_get_char (p);

      if (c == '\'')
        {
          if (state != OUTSIDE)
            g_string_append_c (out, '\'');
          g_string_append (out, "\\'");
          state = OUTSIDE;
        }
      else if (ddb_quote_must_escape (c))
        {
          if (state == SINGLE)
            g_string_append_c (out, '\'');
          if (state != ANSI)
            g_string_append (out, "$'");
          state = ANSI;
          if (c == '\n')
            g_string_append (out, "\\n");
          else if (c == '\r')
            g_string_append (out, "\\r");
          else if (c == '\t')
            g_string_append (out, "\\t");
          else
            for (const char *b = p; b < next; b++)
              g_string_append_printf (out, "\\x%02x", (guchar) *b);
        }
      else
        {
          if (state == ANSI)
            g_string_append_c (out, '\'');
          if (state != SINGLE)
            g_string_append_c (out, '\'');
          state = SINGLE;
          g_string_append_len (out, p, next - p);
        }
    }
  if (state != OUTSIDE)
    g_string_append_c (out, '\'');
}

/* UTF-8 with U+0000 allowed, which g_utf8_validate_len refuses. */
static gboolean
is_text (const char *data, gsize len)
{
  const char *end = data + len;

  for (const char *p = data; p < end;)
    {
      const char *nul = memchr (p, '\0', end - p);
      const char *stop = nul != NULL ? nul : end;

      if (!g_utf8_validate_len (p, stop - p, NULL))
        return FALSE;
      p = nul != NULL ? nul + 1 : end;
    }
  return TRUE;
}

void
ddb_quote_string (GString *out, DdbLang lang, const char *data, gsize len)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail ((guint) lang < DDB_N_LANGS);
  g_return_if_fail (data != NULL || len == 0);
  g_return_if_fail (is_text (data, len));

  if (lang == DDB_LANG_CLI)
    {
      /* No shell word can hold a NUL: arguments are C strings. */
      g_return_if_fail (memchr (data, '\0', len) == NULL);
      quote_shell (out, data, len);
    }
  else
    quote_double (out, lang, data, len);
}

/* "..." with the bytes outside printable ASCII as \xHH, in Python, Go and Rust alike. */
static void
quote_byte_string (GString *out, DdbLang lang, const guchar *data, gsize len)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      guchar b = data[i];

      if (b == '"' || b == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) b);
        }
      else if (b == '\n')
        g_string_append (out, "\\n");
      else if (b == '\r')
        g_string_append (out, "\\r");
      else if (b == '\t')
        g_string_append (out, "\\t");
      else if (b == 0 && lang == DDB_LANG_RUST)
        g_string_append (out, "\\0");
      else if (b >= 0x20 && b < 0x7F)
        g_string_append_c (out, (char) b);
      else
        g_string_append_printf (out, "\\x%02x", b);
    }
  g_string_append_c (out, '"');
}

void
ddb_quote_bytes (GString *out, DdbLang lang, const guchar *data, gsize len)
{
  char *base64;

  g_return_if_fail (out != NULL);
  g_return_if_fail ((guint) lang < DDB_N_LANGS);
  g_return_if_fail (data != NULL || len == 0);

  switch (lang)
    {
    case DDB_LANG_PYTHON:
      g_string_append_c (out, 'b');
      quote_byte_string (out, lang, data, len);
      return;
    case DDB_LANG_GO:
      g_string_append (out, "[]byte(");
      quote_byte_string (out, lang, data, len);
      g_string_append_c (out, ')');
      return;
    case DDB_LANG_RUST:
      g_string_append (out, "Blob::new(b");
      quote_byte_string (out, lang, data, len);
      g_string_append (out, ".to_vec())");
      return;
    case DDB_LANG_CLI:
    case DDB_LANG_JS:
    case DDB_LANG_JAVA:
      break;
    }

  /* The base64 alphabet needs no escape in any of these. */
  base64 = g_base64_encode (data, len);
  if (lang == DDB_LANG_CLI)
    g_string_append_printf (out, "'%s'", base64);
  else if (lang == DDB_LANG_JS)
    g_string_append_printf (out, "Buffer.from(\"%s\", \"base64\")", base64);
  else
    g_string_append_printf (out, "SdkBytes.fromByteArray(Base64.getDecoder().decode(\"%s\"))",
                            base64);
  g_free (base64);
}
