/* quote-tool.c: prints codegen's literals for test-quote-real.py, which has them read by the
 * real interpreters and compilers.
 *
 *   quote-tool LANG string|bytes HEX     the literal of the text or bytes HEX spells
 *   quote-tool LANG string|bytes         the same for each line of standard input
 *
 * A literal never holds a raw line end (codegen escapes them), so each prints on one line.
 * Exits 2 on a usage error, 1 on bad hex or text that is not UTF-8; aborts on a NUL in a
 * shell word. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/quote.h"

static gboolean
unhex (const char *hex, GString *out)
{
  gsize n = strlen (hex);

  if (n % 2 != 0)
    return FALSE;
  for (gsize i = 0; i < n; i += 2)
    {
      int hi = g_ascii_xdigit_value (hex[i]), lo = g_ascii_xdigit_value (hex[i + 1]);

      if (hi < 0 || lo < 0)
        return FALSE;
      g_string_append_c (out, (char) (hi * 16 + lo));
    }
  return TRUE;
}

/* UTF-8 with U+0000 allowed, which g_utf8_validate_len refuses. */
static gboolean
is_text (const GString *data)
{
  const char *end = data->str + data->len;

  for (const char *p = data->str; p < end; p += strlen (p) + 1)
    if (!g_utf8_validate (p, -1, NULL))
      return FALSE;
  return TRUE;
}

static gboolean
print_literal (DdbLang lang, gboolean bytes, const char *hex)
{
  GString *data = g_string_new (NULL);
  GString *lit = g_string_new (NULL);
  gboolean ok = unhex (hex, data);

  if (!ok)
    g_printerr ("quote-tool: not hex: %s\n", hex);
  else if (bytes)
    ddb_quote_bytes (lit, lang, (const guchar *) data->str, data->len);
  else if (!is_text (data))
    {
      g_printerr ("quote-tool: not UTF-8: %s\n", hex);
      ok = FALSE;
    }
  else
    ddb_quote_string (lit, lang, data->str, data->len);
  if (ok)
    {
      fwrite (lit->str, 1, lit->len, stdout);
      putchar ('\n');
    }
  g_string_free (data, TRUE);
  g_string_free (lit, TRUE);
  return ok;
}

int
main (int argc, char **argv)
{
  DdbLang lang;
  gboolean bytes;
  char *line = NULL;
  size_t size = 0;
  int status = 0;

  if ((argc != 3 && argc != 4) || !ddb_lang_from_name (argv[1], &lang)
      || (strcmp (argv[2], "string") != 0 && strcmp (argv[2], "bytes") != 0))
    {
      g_printerr ("usage: quote-tool LANG string|bytes [HEX]\n");
      return 2;
    }
  /* A precondition broken (a NUL in a shell word) must not pass for an empty literal. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  bytes = strcmp (argv[2], "bytes") == 0;
  if (argc == 4)
    return print_literal (lang, bytes, argv[3]) ? 0 : 1;
  while (status == 0 && getline (&line, &size, stdin) >= 0)
    {
      line[strcspn (line, "\r\n")] = '\0';
      if (!print_literal (lang, bytes, line))
        status = 1;
    }
  free (line);
  return status;
}
