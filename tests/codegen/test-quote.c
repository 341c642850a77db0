/* test-quote.c: codegen's string and bytes literals, written exactly as expected for each
 * language, read back by the strict readers the fuzz target uses (fuzz/codegen-unquote.c), and
 * every code point and every byte value through all six. */
#include <glib.h>
#include <string.h>

#include "codegen-unquote.h"
#include "codegen/quote.h"

typedef struct {
  const char *text;
  gsize len;
  /* By DdbLang; NULL where the language cannot hold the text (a NUL in a shell word). */
  const char *expect[DDB_N_LANGS];
} StringCase;

#define TEXT(s) s, sizeof (s) - 1

static const StringCase string_cases[] = {
  { TEXT (""), { "''", "\"\"", "\"\"", "\"\"", "\"\"", "\"\"" } },
  /* Nothing in the shell's '...' is special, nor $, ` or { in the others' "...". */
  { TEXT ("it's \"q\" \\ $HOME `x` ${y} {}"),
    { "'it'\\''s \"q\" \\ $HOME `x` ${y} {}'", "\"it's \\\"q\\\" \\\\ $HOME `x` ${y} {}\"",
      "\"it's \\\"q\\\" \\\\ $HOME `x` ${y} {}\"", "\"it's \\\"q\\\" \\\\ $HOME `x` ${y} {}\"",
      "\"it's \\\"q\\\" \\\\ $HOME `x` ${y} {}\"", "\"it's \\\"q\\\" \\\\ $HOME `x` ${y} {}\"" } },
  { TEXT ("a\nb\r\tc"),
    { "'a'$'\\n''b'$'\\r\\t''c'", "\"a\\nb\\r\\tc\"", "\"a\\nb\\r\\tc\"", "\"a\\nb\\r\\tc\"",
      "\"a\\nb\\r\\tc\"", "\"a\\nb\\r\\tc\"" } },
  /* A NUL before a digit: no escape may take the digit in (Java's octal is three digits). */
  { TEXT ("a\0001"),
    { NULL, "\"a\\x001\"", "\"a\\x001\"", "\"a\\0001\"", "\"a\\x001\"", "\"a\\01\"" } },
  { TEXT ("\x1b[31m\b\f\x7f"),
    { "$'\\x1b''[31m'$'\\x08\\x0c\\x7f'", "\"\\x1b[31m\\x08\\x0c\\x7f\"",
      "\"\\x1b[31m\\x08\\x0c\\x7f\"", "\"\\033[31m\\b\\f\\u007f\"", "\"\\x1b[31m\\x08\\x0c\\x7f\"",
      "\"\\u{1b}[31m\\u{8}\\u{c}\\u{7f}\"" } },
  /* RLO, LRI, ZWJ, BOM, soft hyphen, NEL: C1 and Latin-1 are \xHH as code points in Python
   * and JS, never in Go, where \xHH is a byte. */
  { TEXT ("a\u202Eb\u2066c\u200Dd\uFEFF\u00AD\xc2\x85"),
    { "'a'$'\\xe2\\x80\\xae''b'$'\\xe2\\x81\\xa6''c'$'\\xe2\\x80\\x8d''d'"
      "$'\\xef\\xbb\\xbf\\xc2\\xad\\xc2\\x85'",
      "\"a\\u202eb\\u2066c\\u200dd\\ufeff\\xad\\x85\"",
      "\"a\\u202eb\\u2066c\\u200dd\\ufeff\\xad\\x85\"",
      "\"a\\u202eb\\u2066c\\u200dd\\ufeff\\u00ad\\u0085\"",
      "\"a\\u202eb\\u2066c\\u200dd\\ufeff\\u00ad\\u0085\"",
      "\"a\\u{202e}b\\u{2066}c\\u{200d}d\\u{feff}\\u{ad}\\u{85}\"" } },
  /* Emoji, right-to-left letters and a combining accent as they are; U+2028 escaped. */
  { TEXT ("\U0001F600 \u05E9\u05DC\u05D5\u05DD e\u0301\u2028"),
    { "'\U0001F600 \u05E9\u05DC\u05D5\u05DD e\u0301'$'\\xe2\\x80\\xa8'",
      "\"\U0001F600 \u05E9\u05DC\u05D5\u05DD e\u0301\\u2028\"",
      "\"\U0001F600 \u05E9\u05DC\u05D5\u05DD e\u0301\\u2028\"",
      "\"\U0001F600 \u05E9\u05DC\u05D5\u05DD e\u0301\\u2028\"",
      "\"\U0001F600 \u05E9\u05DC\u05D5\u05DD e\u0301\\u2028\"",
      "\"\U0001F600 \u05E9\u05DC\u05D5\u05DD e\u0301\\u{2028}\"" } },
  /* Noncharacters, astral ones as \U or a surrogate pair. */
  { TEXT ("\xef\xbf\xbf\xf0\x9f\xbf\xbe\xf4\x8f\xbf\xbf"),
    { "$'\\xef\\xbf\\xbf\\xf0\\x9f\\xbf\\xbe\\xf4\\x8f\\xbf\\xbf'",
      "\"\\uffff\\U0001fffe\\U0010ffff\"", "\"\\uffff\\ud83f\\udffe\\udbff\\udfff\"",
      "\"\\uffff\\ud83f\\udffe\\udbff\\udfff\"", "\"\\uffff\\U0001fffe\\U0010ffff\"",
      "\"\\u{ffff}\\u{1fffe}\\u{10ffff}\"" } },
  /* Text that looks like escapes: Java must not see \u000a or \u0022 in the source. */
  { TEXT ("\\u000a\\u0022\\x41"),
    { "'\\u000a\\u0022\\x41'", "\"\\\\u000a\\\\u0022\\\\x41\"", "\"\\\\u000a\\\\u0022\\\\x41\"",
      "\"\\\\u000a\\\\u0022\\\\x41\"", "\"\\\\u000a\\\\u0022\\\\x41\"",
      "\"\\\\u000a\\\\u0022\\\\x41\"" } },
  { TEXT ("''"), { "\\'\\'", "\"''\"", "\"''\"", "\"''\"", "\"''\"", "\"''\"" } },
  { TEXT ("\n'x"),
    { "$'\\n'\\''x'", "\"\\n'x\"", "\"\\n'x\"", "\"\\n'x\"", "\"\\n'x\"", "\"\\n'x\"" } },
};

typedef struct {
  const char *data;
  gsize len;
  const char *expect[DDB_N_LANGS];
} BytesCase;

static const BytesCase bytes_cases[] = {
  { TEXT (""),
    { "''", "b\"\"", "Buffer.from(\"\", \"base64\")",
      "SdkBytes.fromByteArray(Base64.getDecoder().decode(\"\"))", "[]byte(\"\")",
      "Blob::new(b\"\".to_vec())" } },
  { TEXT ("\x00\x01\"\\\n\r\tA\x7f\x80\xff"),
    { "'AAEiXAoNCUF/gP8='", "b\"\\x00\\x01\\\"\\\\\\n\\r\\tA\\x7f\\x80\\xff\"",
      "Buffer.from(\"AAEiXAoNCUF/gP8=\", \"base64\")",
      "SdkBytes.fromByteArray(Base64.getDecoder().decode(\"AAEiXAoNCUF/gP8=\"))",
      "[]byte(\"\\x00\\x01\\\"\\\\\\n\\r\\tA\\x7f\\x80\\xff\")",
      "Blob::new(b\"\\0\\x01\\\"\\\\\\n\\r\\tA\\x7f\\x80\\xff\".to_vec())" } },
  { TEXT ("{x} $y `z`"),
    { "'e3h9ICR5IGB6YA=='", "b\"{x} $y `z`\"", "Buffer.from(\"e3h9ICR5IGB6YA==\", \"base64\")",
      "SdkBytes.fromByteArray(Base64.getDecoder().decode(\"e3h9ICR5IGB6YA==\"))",
      "[]byte(\"{x} $y `z`\")", "Blob::new(b\"{x} $y `z`\".to_vec())" } },
};

static char *
quote_string (DdbLang lang, const char *text, gsize len)
{
  GString *out = g_string_new (NULL);

  ddb_quote_string (out, lang, text, len);
  return g_string_free (out, FALSE);
}

/* The literal must hold no character to escape and read back as TEXT. */
static void
assert_reads_back (DdbLang lang, const char *lit, const char *text, gsize len)
{
  GString *back = g_string_new (NULL);
  const char *error = NULL;

  for (const char *p = lit; *p != '\0'; p = g_utf8_next_char (p))
    if (ddb_quote_must_escape (g_utf8_get_char (p)))
      g_error ("%s: U+%04X raw in %s", ddb_lang_name (lang), g_utf8_get_char (p), lit);
  if (!cg_unquote_string (lang, lit, strlen (lit), back, &error))
    g_error ("%s: %s does not read: %s", ddb_lang_name (lang), lit, error);
  g_assert_cmpmem (back->str, back->len, text, len);
  g_string_free (back, TRUE);
}

static void
test_string_cases (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (string_cases); i++)
    for (guint lang = 0; lang < DDB_N_LANGS; lang++)
      {
        const StringCase *c = &string_cases[i];
        char *lit;

        if (c->expect[lang] == NULL)
          continue;
        lit = quote_string (lang, c->text, c->len);
        if (strcmp (lit, c->expect[lang]) != 0)
          g_error ("case %u, %s: got %s, expected %s", i, ddb_lang_name (lang), lit,
                   c->expect[lang]);
        assert_reads_back (lang, lit, c->text, c->len);
        g_free (lit);
      }
}

static void
assert_bytes_read_back (DdbLang lang, const char *lit, const char *data, gsize len)
{
  GString *back = g_string_new (NULL);
  const char *error = NULL;

  for (const char *p = lit; *p != '\0'; p++)
    g_assert_true (*p >= 0x20 && *p <= 0x7E);
  if (!cg_unquote_bytes (lang, lit, strlen (lit), back, &error))
    g_error ("%s: %s does not read: %s", ddb_lang_name (lang), lit, error);
  g_assert_cmpmem (back->str, back->len, data, len);
  g_string_free (back, TRUE);
}

static void
test_bytes_cases (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bytes_cases); i++)
    for (guint lang = 0; lang < DDB_N_LANGS; lang++)
      {
        const BytesCase *c = &bytes_cases[i];
        GString *out = g_string_new (NULL);

        ddb_quote_bytes (out, lang, (const guchar *) c->data, c->len);
        if (strcmp (out->str, c->expect[lang]) != 0)
          g_error ("case %u, %s: got %s, expected %s", i, ddb_lang_name (lang), out->str,
                   c->expect[lang]);
        assert_bytes_read_back (lang, out->str, c->data, c->len);
        g_string_free (out, TRUE);
      }
}

/* Every byte value, in every order of neighbours an escape could swallow. */
static void
test_all_bytes (void)
{
  guchar data[512];

  for (guint i = 0; i < 256; i++)
    {
      data[i] = (guchar) i;
      data[511 - i] = (guchar) i;
    }
  for (guint lang = 0; lang < DDB_N_LANGS; lang++)
    {
      GString *out = g_string_new (NULL);

      ddb_quote_bytes (out, lang, data, sizeof data);
      assert_bytes_read_back (lang, out->str, (const char *) data, sizeof data);
      g_string_free (out, TRUE);
    }
}

/* Every scalar value (NUL aside for the shell), each followed by a hex digit that a too
 * greedy escape would take in. */
static void
test_all_code_points (void)
{
  for (guint lang = 0; lang < DDB_N_LANGS; lang++)
    {
      GString *text = g_string_new (NULL);
      char *lit;

      for (gunichar c = lang == DDB_LANG_CLI ? 1 : 0; c <= 0x10FFFF; c++)
        if (c < 0xD800 || c > 0xDFFF)
          {
            g_string_append_unichar (text, c);
            g_string_append_c (text, c % 2 ? 'a' : '7');
          }
      lit = quote_string (lang, text->str, text->len);
      assert_reads_back (lang, lit, text->str, text->len);
      g_free (lit);
      g_string_free (text, TRUE);
    }
}

static void
test_appends (void)
{
  GString *out = g_string_new ("x = ");

  ddb_quote_string (out, DDB_LANG_PYTHON, "a", 1);
  ddb_quote_bytes (out, DDB_LANG_GO, (const guchar *) "b", 1);
  g_assert_cmpstr (out->str, ==, "x = \"a\"[]byte(\"b\")");
  g_string_free (out, TRUE);
}

static void
test_must_escape (void)
{
  static const gunichar escaped[] = {
    0x00,   0x09,   0x0A,   0x1F,   0x7F,   0x80,   0x85,    0x9F,    0xAD,     0x61C,    0x180E,
    0x200B, 0x200D, 0x200F, 0x2028, 0x2029, 0x202A, 0x202E,  0x2060,  0x2066,   0x2069,   0xFEFF,
    0xFFF9, 0xFFFB, 0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x2FFFF, 0x10FFFE, 0x10FFFF,
  };
  static const gunichar plain[] = {
    ' ',    'a',    '~',    '\'',   '"',     '\\',    '$',     '`',      0xA0,   0xA9,
    0x5D0,  0x627,  0x301,  0x200A, 0x2010,  0x2027,  0x202F,  0x205F,   0x206A, 0xFDCF,
    0xFDF0, 0xFFF8, 0xFFFC, 0xFFFD, 0x1F600, 0x1FFFD, 0xE0061, 0x10FFFD,
  };

  for (guint i = 0; i < G_N_ELEMENTS (escaped); i++)
    if (!ddb_quote_must_escape (escaped[i]))
      g_error ("U+%04X should be escaped", escaped[i]);
  for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
    if (ddb_quote_must_escape (plain[i]))
      g_error ("U+%04X should be written as it is", plain[i]);
}

static void
test_names (void)
{
  static const struct {
    const char *name;
    DdbLang lang;
  } names[] = {
    { "cli", DDB_LANG_CLI },   { "bash", DDB_LANG_CLI },  { "python", DDB_LANG_PYTHON },
    { "py", DDB_LANG_PYTHON }, { "js", DDB_LANG_JS },     { "javascript", DDB_LANG_JS },
    { "node", DDB_LANG_JS },   { "java", DDB_LANG_JAVA }, { "go", DDB_LANG_GO },
    { "golang", DDB_LANG_GO }, { "rust", DDB_LANG_RUST }, { "rs", DDB_LANG_RUST },
  };
  static const char *const titles[DDB_N_LANGS]
      = { "AWS CLI", "Python", "JavaScript", "Java", "Go", "Rust" };
  DdbLang lang;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_assert_true (ddb_lang_from_name (names[i].name, &lang));
      g_assert_cmpint (lang, ==, names[i].lang);
    }
  for (guint i = 0; i < DDB_N_LANGS; i++)
    {
      g_assert_true (ddb_lang_from_name (ddb_lang_name (i), &lang));
      g_assert_cmpint (lang, ==, i);
      g_assert_cmpstr (ddb_lang_title (i), ==, titles[i]);
    }
  g_assert_false (ddb_lang_from_name ("", &lang));
  g_assert_false (ddb_lang_from_name ("Python", &lang));
  g_assert_false (ddb_lang_from_name ("c", &lang));
}

/* A NUL in a shell word and text that is not UTF-8 are the caller's mistakes. */
static void
test_preconditions (void)
{
  if (g_test_subprocess ())
    {
      GString *out = g_string_new (NULL);

      ddb_quote_string (out, DDB_LANG_CLI, "a\0b", 3);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*memchr*");
}

static void
test_precondition_utf8 (void)
{
  if (g_test_subprocess ())
    {
      GString *out = g_string_new (NULL);

      ddb_quote_string (out, DDB_LANG_PYTHON, "\xc3(", 2);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*is_text*");
}

/* The readers refuse what their language refuses, so that the round trips above mean
 * something. */
static void
test_readers_refuse (void)
{
  static const struct {
    DdbLang lang;
    const char *lit;
  } bad[] = {
    { DDB_LANG_CLI, "" },
    { DDB_LANG_CLI, "abc" },            /* unquoted */
    { DDB_LANG_CLI, "'abc" },           /* unterminated */
    { DDB_LANG_CLI, "$'\\x00'" },       /* bash ends the word there */
    { DDB_LANG_CLI, "'a' 'b'" },        /* two words */
    { DDB_LANG_PYTHON, "\"a\nb\"" },    /* raw newline */
    { DDB_LANG_PYTHON, "\"\\q\"" },     /* invalid escape */
    { DDB_LANG_PYTHON, "\"\\x4\"" },    /* short \x */
    { DDB_LANG_PYTHON, "\"\\ud800\"" }, /* a surrogate is no UTF-8 text */
    { DDB_LANG_PYTHON, "\"a\"b" },      /* text after it */
    { DDB_LANG_JS, "\"\\01\"" },        /* octal in strict mode */
    { DDB_LANG_JS, "\"\\ud83d\"" },     /* lone surrogate */
    { DDB_LANG_JS, "\"a\rb\"" },
    { DDB_LANG_JAVA, "\"\\u000a\"" }, /* javac reads a line end */
    { DDB_LANG_JAVA, "\"\\u0022\"" }, /* ... or the closing quote */
    { DDB_LANG_JAVA, "\"\\x41\"" },   /* no \x in Java */
    { DDB_LANG_JAVA, "\"\\u00g1\"" }, /* illegal unicode escape, even in a string */
    { DDB_LANG_GO, "\"\\'\"" },       /* \' is for runes */
    { DDB_LANG_GO, "\"\\0\"" },       /* octal needs three digits */
    { DDB_LANG_GO, "\"\\ud800\"" },
    { DDB_LANG_GO, "\"\xef\xbb\xbf\"" }, /* BOM inside the file */
    { DDB_LANG_RUST, "\"\\x80\"" },      /* \x is ASCII only in str */
    { DDB_LANG_RUST, "\"\\u{110000}\"" },
    { DDB_LANG_RUST, "\"\\u{1234567}\"" },
    { DDB_LANG_RUST, "\"a\rb\"" },         /* bare CR */
    { DDB_LANG_RUST, "\"\xe2\x80\xae\"" }, /* text_direction_codepoint_in_literal */
  };
  static const struct {
    DdbLang lang;
    const char *lit;
  } bad_bytes[] = {
    { DDB_LANG_CLI, "'AAE'" },                /* not padded */
    { DDB_LANG_CLI, "'AB=='" },               /* nonzero unused bits */
    { DDB_LANG_PYTHON, "b\"\xc3\xa9\"" },     /* non-ASCII in bytes */
    { DDB_LANG_PYTHON, "b\"\\u0041\"" },      /* no \u in bytes */
    { DDB_LANG_JS, "Buffer.from(\"AA==\")" }, /* not the form */
    { DDB_LANG_JAVA, "SdkBytes.fromByteArray(Base64.getDecoder().decode(\"A\\u0022))" },
    { DDB_LANG_GO, "[]byte(\"\\400\")" },                  /* octal above 255 */
    { DDB_LANG_RUST, "Blob::new(b\"\\u{41}\".to_vec())" }, /* no \u in byte strings */
    { DDB_LANG_RUST, "Blob::new(b\"\xc3\xa9\".to_vec())" },
  };
  GString *out = g_string_new (NULL);
  const char *error;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      error = NULL;
      if (cg_unquote_string (bad[i].lang, bad[i].lit, strlen (bad[i].lit), out, &error))
        g_error ("%s read %s", ddb_lang_name (bad[i].lang), bad[i].lit);
      g_assert_nonnull (error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad_bytes); i++)
    {
      error = NULL;
      if (cg_unquote_bytes (bad_bytes[i].lang, bad_bytes[i].lit, strlen (bad_bytes[i].lit), out,
                            &error))
        g_error ("%s read %s", ddb_lang_name (bad_bytes[i].lang), bad_bytes[i].lit);
      g_assert_nonnull (error);
    }
  g_string_free (out, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/quote/string-cases", test_string_cases);
  g_test_add_func ("/quote/bytes-cases", test_bytes_cases);
  g_test_add_func ("/quote/all-bytes", test_all_bytes);
  g_test_add_func ("/quote/all-code-points", test_all_code_points);
  g_test_add_func ("/quote/appends", test_appends);
  g_test_add_func ("/quote/must-escape", test_must_escape);
  g_test_add_func ("/quote/names", test_names);
  g_test_add_func ("/quote/precondition-nul", test_preconditions);
  g_test_add_func ("/quote/precondition-utf8", test_precondition_utf8);
  g_test_add_func ("/quote/readers-refuse", test_readers_refuse);
  return g_test_run ();
}
