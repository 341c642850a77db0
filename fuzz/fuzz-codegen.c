/* fuzz-codegen.c: libFuzzer target for codegen's literals. The input, as raw bytes and as
 * UTF-8 text (the input itself where it is valid; an invalid byte stands for one of the code
 * points where escaping changes, chosen by its value, since random bytes seldom spell those),
 * is written as every language's bytes expression and string literal and read back by the
 * strict readers of codegen-unquote.c: it must come back exactly, and a literal must hold none
 * of the characters ddb_quote_must_escape names (a bytes expression: only printable ASCII). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <glib.h>

#include "codegen-unquote.h"
#include "codegen/quote.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Bounds of the escapes' ranges, the characters escaped and their neighbours, quotes. */
static const gunichar interesting[] = {
  0x00,   0x07,   0x08,    0x09,    0x0A,    0x0C,    0x0D,     0x1B,     0x1F,   0x20,
  '"',    '\'',   '\\',    '$',     '`',     '{',     '0',      '7',      'u',    0x7E,
  0x7F,   0x80,   0x85,    0x9F,    0xA0,    0xAD,    0xFF,     0x100,    0x61C,  0x7FF,
  0x800,  0x180E, 0x200A,  0x200B,  0x200D,  0x200F,  0x2010,   0x2027,   0x2028, 0x2029,
  0x202A, 0x202E, 0x202F,  0x205F,  0x2060,  0x2066,  0x2069,   0x206A,   0xD7FF, 0xE000,
  0xFDCF, 0xFDD0, 0xFDEF,  0xFDF0,  0xFEFF,  0xFFF8,  0xFFF9,   0xFFFB,   0xFFFC, 0xFFFD,
  0xFFFE, 0xFFFF, 0x10000, 0x1F600, 0x1FFFE, 0xE0001, 0x10FFFD, 0x10FFFF,
};

static GString *
as_text (const uint8_t *data, size_t size)
{
  GString *text = g_string_sized_new (size);
  const char *p = (const char *) data, *end = p + size;

  while (p < end)
    {
      gunichar c;

      /* g_utf8_get_char_validated takes a NUL for the end of the string. */
      if (*p == '\0')
        {
          g_string_append_c (text, '\0');
          p++;
          continue;
        }
      c = g_utf8_get_char_validated (p, end - p);
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_unichar (text, interesting[(guchar) *p % G_N_ELEMENTS (interesting)]);
          p++;
        }
      else
        {
          g_string_append_len (text, p, g_utf8_next_char (p) - p);
          p = g_utf8_next_char (p);
        }
    }
  return text;
}

static void
check_no_raw (DdbLang lang, const GString *lit)
{
  const char *end = lit->str + lit->len;

  if (!g_utf8_validate_len (lit->str, lit->len, NULL))
    g_error ("%s: the literal is not UTF-8", ddb_lang_name (lang));
  for (const char *p = lit->str; p < end; p = g_utf8_next_char (p))
    if (ddb_quote_must_escape (g_utf8_get_char (p)))
      g_error ("%s: U+%04X raw in %s", ddb_lang_name (lang), g_utf8_get_char (p), lit->str);
}

static void
check_string (DdbLang lang, const char *text, gsize len)
{
  GString *lit = g_string_new (NULL);
  GString *back = g_string_new (NULL);
  const char *error = NULL;

  ddb_quote_string (lit, lang, text, len);
  check_no_raw (lang, lit);
  if (!cg_unquote_string (lang, lit->str, lit->len, back, &error))
    g_error ("%s: %s does not read: %s", ddb_lang_name (lang), lit->str, error);
  if (back->len != len || memcmp (back->str, text, len) != 0)
    g_error ("%s: %s reads as something else", ddb_lang_name (lang), lit->str);
  g_string_free (lit, TRUE);
  g_string_free (back, TRUE);
}

static void
check_bytes (DdbLang lang, const uint8_t *data, size_t size)
{
  GString *lit = g_string_new (NULL);
  GString *back = g_string_new (NULL);
  const char *error = NULL;

  ddb_quote_bytes (lit, lang, data, size);
  for (gsize i = 0; i < lit->len; i++)
    if (lit->str[i] < 0x20 || lit->str[i] > 0x7E)
      g_error ("%s: byte %02X in %s", ddb_lang_name (lang), (guchar) lit->str[i], lit->str);
  if (!cg_unquote_bytes (lang, lit->str, lit->len, back, &error))
    g_error ("%s: %s does not read: %s", ddb_lang_name (lang), lit->str, error);
  if (back->len != size || (size > 0 && memcmp (back->str, data, size) != 0))
    g_error ("%s: %s reads as other bytes", ddb_lang_name (lang), lit->str);
  g_string_free (lit, TRUE);
  g_string_free (back, TRUE);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GString *text = as_text (data, size);
  GString *no_nul = g_string_sized_new (text->len);

  /* No shell word holds a NUL (ddb_quote_string's precondition for the CLI). */
  for (gsize i = 0; i < text->len; i++)
    if (text->str[i] != '\0')
      g_string_append_c (no_nul, text->str[i]);
  for (guint lang = 0; lang < DDB_N_LANGS; lang++)
    {
      if (lang == DDB_LANG_CLI)
        check_string (lang, no_nul->str, no_nul->len);
      else
        check_string (lang, text->str, text->len);
      check_bytes (lang, data, size);
    }
  g_string_free (text, TRUE);
  g_string_free (no_nul, TRUE);
  return 0;
}
