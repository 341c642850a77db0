/* test-ion-grammar.c: the Ion text reader, literal by literal: nulls and bools, ints,
 * decimals and floats, timestamps, symbols (ids, symbol tables, operators), strings and their
 * escapes, blobs and clobs, and containers, each form read and each malformed one refused
 * with its line. */
#include <math.h>
#include <string.h>

#include "core/ion.h"

#include "test-ion-util.h"

/* The Ion grammar, literal by literal */

void
test_nulls_and_bools (void)
{
  static const char *const types[]
      = { "null",   "bool", "int",  "float", "decimal", "timestamp", "symbol",
          "string", "clob", "blob", "list",  "sexp",    "struct" };

  for (guint t = 0; t < G_N_ELEMENTS (types); t++)
    {
      g_autofree char *text = g_strdup_printf ("null.%s", types[t]);
      g_autoptr (DdbIonValue) v = ion_one (text);
      g_autoptr (DdbValue) d = ddb_ion_to_ddb (v, NULL);

      g_assert_cmpint (v->type, ==, (DdbIonType) t);
      g_assert_true (v->is_null);
      g_assert_nonnull (d);
      g_assert_cmpint (d->type, ==, DDB_TYPE_NULL);
    }
  {
    g_autoptr (DdbIonValue) n = ion_one ("null");
    g_autoptr (DdbIonValue) t = ion_one (" true ");
    g_autoptr (DdbIonValue) f = ion_one ("false");
    g_assert_true (n->type == DDB_ION_TYPE_NULL && n->is_null);
    g_assert_true (t->type == DDB_ION_TYPE_BOOL && t->boolean);
    g_assert_true (f->type == DDB_ION_TYPE_BOOL && !f->boolean);
  }
  assert_ion_error ("null.foo", DDB_ION_ERROR_SYNTAX, "line 1: invalid typed null 'null.foo'");
  assert_ion_error ("null.", DDB_ION_ERROR_SYNTAX, "line 1: unexpected '.'");
  assert_ion_error ("null::a", DDB_ION_ERROR_SYNTAX, "line 1: a keyword cannot be an annotation");
  assert_ion_error ("true::a", DDB_ION_ERROR_SYNTAX, "line 1: a keyword cannot be an annotation");
}

void
test_numbers (void)
{
  static const struct {
    const char *text;
    DdbIonType type;
    const char *expected;
  } ok[] = {
    { "0", DDB_ION_TYPE_INT, "0" },
    { "-0", DDB_ION_TYPE_INT, "-0" },
    { "123", DDB_ION_TYPE_INT, "123" },
    { "-123", DDB_ION_TYPE_INT, "-123" },
    { "1_000_000", DDB_ION_TYPE_INT, "1000000" },
    { "0x1F", DDB_ION_TYPE_INT, "31" },
    { "0X1f", DDB_ION_TYPE_INT, "31" },
    { "-0xff_ff", DDB_ION_TYPE_INT, "-65535" },
    { "0x0", DDB_ION_TYPE_INT, "0" },
    { "0xFFFFFFFFFFFFFFFFFFFFFFFF", DDB_ION_TYPE_INT, "79228162514264337593543950335" },
    { "0x3B9ACA00", DDB_ION_TYPE_INT, "1000000000" },
    { "0b1010", DDB_ION_TYPE_INT, "10" },
    { "-0B1_1", DDB_ION_TYPE_INT, "-3" },
    { "1.", DDB_ION_TYPE_DECIMAL, "1." },
    { "-0.", DDB_ION_TYPE_DECIMAL, "-0." },
    { "0.0", DDB_ION_TYPE_DECIMAL, "0.0" },
    { "103.", DDB_ION_TYPE_DECIMAL, "103." },
    { "6d2", DDB_ION_TYPE_DECIMAL, "6e2" },
    { "12D-2", DDB_ION_TYPE_DECIMAL, "12e-2" },
    { "1.5d+3", DDB_ION_TYPE_DECIMAL, "1.5e+3" },
    { "1_0.0_1d1", DDB_ION_TYPE_DECIMAL, "10.01e1" },
    { "1.d0", DDB_ION_TYPE_DECIMAL, "1.e0" },
    { "1e0", DDB_ION_TYPE_FLOAT, "1e0" },
    { "-1.5E-3", DDB_ION_TYPE_FLOAT, "-1.5E-3" },
    { "1_0e1", DDB_ION_TYPE_FLOAT, "1_0e1" },
    { "nan", DDB_ION_TYPE_FLOAT, "nan" },
    { "+inf", DDB_ION_TYPE_FLOAT, "+inf" },
    { "-inf", DDB_ION_TYPE_FLOAT, "-inf" },
  };
  static const struct {
    const char *text, *message;
  } bad[] = {
    { "01", "line 1: a number may not start with 0" },
    { "-01", "line 1: a number may not start with 0" },
    { "0_1", "line 1: a number may not start with 0" },
    { "1_", "line 1: misplaced '_' in a number" },
    { "1__2", "line 1: misplaced '_' in a number" },
    { "1._5", "line 1: misplaced '_' in a number" },
    { "1.5_", "line 1: misplaced '_' in a number" },
    { "0x", "line 1: unexpected the end of the input in a number" },
    { "0xG", "line 1: unexpected 'G' in a number" },
    { "0x_1", "line 1: unexpected '_' in a number" },
    { "0b2", "line 1: unexpected '2' in a number" },
    { "1.2.3", "line 1: unexpected '.' after a number" },
    { "1e", "line 1: an exponent needs digits" },
    { "1d", "line 1: an exponent needs digits" },
    { "1d_1", "line 1: an exponent needs digits" },
    { "1.5x", "line 1: unexpected 'x' after a number" },
    { "1-", "line 1: unexpected '-' after a number" },
    { "1/2", "line 1: unexpected '/' after a number" },
    { "1::a", "line 1: unexpected ':' after a number" },
    { "+1", "line 1: unexpected '+' (a value expected)" },
    { "--1", "line 1: unexpected '-' (a value expected)" },
    { ".5", "line 1: unexpected '.' (a value expected)" },
    { "+info", "line 1: unexpected '+' (a value expected)" },
    { "-inf0", "line 1: unexpected '-' (a value expected)" },
    { "+inf:", "line 1: unexpected ':' after a number" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    assert_text (ok[i].text, ok[i].type, ok[i].expected);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    assert_ion_error (bad[i].text, DDB_ION_ERROR_SYNTAX, bad[i].message);

  /* Stop characters: every numeric stop character ends a number. */
  {
    g_autoptr (DdbIonValue) v = ion_one ("[1,2.,3d0,4e0,0x5,nan,+inf,-inf]");
    g_autoptr (DdbIonValue) s = ion_one ("(1\"a\"2'b'3{a:1}4[]5()6/*c*/7//c\n)");
    g_assert_cmpuint (v->elems->len, ==, 8);
    g_assert_cmpuint (s->elems->len, ==, 12);
  }
  /* Float values. */
  {
    g_autoptr (DdbIonValue) v = ion_one ("[1.5e3, -inf, nan, 1_0e1]");
    DdbIonValue *e0 = g_ptr_array_index (v->elems, 0), *e1 = g_ptr_array_index (v->elems, 1),
                *e2 = g_ptr_array_index (v->elems, 2), *e3 = g_ptr_array_index (v->elems, 3);
    g_assert_cmpfloat (e0->f, ==, 1500.0);
    g_assert_true (isinf (e1->f) && e1->f < 0);
    g_assert_true (isnan (e2->f));
    g_assert_cmpfloat (e3->f, ==, 100.0);
  }
  /* The radix limit. */
  {
    g_autofree char *ok_hex = g_strnfill (DDB_ION_MAX_RADIX_DIGITS, 'f');
    g_autofree char *long_hex = g_strnfill (DDB_ION_MAX_RADIX_DIGITS + 1, 'f');
    g_autofree char *t1 = g_strconcat ("0x", ok_hex, NULL);
    g_autofree char *t2 = g_strconcat ("0x", long_hex, NULL);
    g_autoptr (DdbIonValue) v = ion_one (t1);
    g_assert_cmpuint (v->text.len, ==, 1234); /* 16^1024 - 1 has 1234 decimal digits */
    assert_ion_error (t2, DDB_ION_ERROR_UNSUPPORTED, "line 1: integer of more than 1024");
  }
}

void
test_timestamps (void)
{
  static const char *const ok[] = {
    "2007T",
    "2007-02T",
    "2007-02-23",
    "2007-02-23T",
    "2007-02-23T12:14Z",
    "2007-02-23T12:14:33Z",
    "2007-02-23T12:14:33.079-08:00",
    "2007-02-23T00:00+00:00",
    "2000-02-29",
    "0001-01-01T",
    "9999-12-31T23:59:59.999999999-00:00",
    "2007-02-23T12:14:33.0Z",
  };
  static const struct {
    const char *text, *message;
  } bad[] = {
    { "0000T", "line 1: timestamp year 0000 is out of range" },
    { "2007-13-01", "line 1: invalid timestamp month" },
    { "2007-00T", "line 1: invalid timestamp month" },
    { "2007-02-30", "line 1: invalid timestamp day" },
    { "2001-02-29", "line 1: invalid timestamp day" },
    { "1900-02-29", "line 1: invalid timestamp day" },
    { "2007-04-31", "line 1: invalid timestamp day" },
    { "2007-02-23T12:14", "line 1: a timestamp with a time needs an offset" },
    { "2007-02-23T24:00Z", "line 1: invalid timestamp hour" },
    { "2007-02-23T12Z", "line 1: invalid timestamp hour" },
    { "2007-02-23T12:60Z", "line 1: invalid timestamp minute" },
    { "2007-02-23T12:14:60Z", "line 1: invalid timestamp second" },
    { "2007-02-23T12:14:33.Z", "line 1: invalid timestamp fraction of a second" },
    { "2007-02-23T12:14+24:00", "line 1: invalid timestamp offset" },
    { "2007-02", "line 1: invalid timestamp: 'T' or '-' expected after the month" },
    { "2007-02-23T12:14Zx", "line 1: unexpected 'x' after a timestamp" },
    { "2007-02-23x", "line 1: unexpected 'x' after a timestamp" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    assert_text (ok[i], DDB_ION_TYPE_TIMESTAMP, ok[i]);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    assert_ion_error (bad[i].text, DDB_ION_ERROR_SYNTAX, bad[i].message);
}

void
test_symbols (void)
{
  assert_text ("abc", DDB_ION_TYPE_SYMBOL, "abc");
  assert_text ("_a$1", DDB_ION_TYPE_SYMBOL, "_a$1");
  assert_text ("nan1", DDB_ION_TYPE_SYMBOL, "nan1");
  assert_text ("nullx", DDB_ION_TYPE_SYMBOL, "nullx");
  assert_text ("int", DDB_ION_TYPE_SYMBOL, "int");
  assert_text ("'hello world'", DDB_ION_TYPE_SYMBOL, "hello world");
  assert_text ("''", DDB_ION_TYPE_SYMBOL, "");
  assert_text ("'null'", DDB_ION_TYPE_SYMBOL, "null");
  assert_text ("'a\\'b\\u00e9'", DDB_ION_TYPE_SYMBOL, "a'b\xc3\xa9");
  assert_text ("'$1'", DDB_ION_TYPE_SYMBOL, "$1");
  assert_text ("$1", DDB_ION_TYPE_SYMBOL, "$ion");
  assert_text ("$9", DDB_ION_TYPE_SYMBOL, "$ion_shared_symbol_table");
  assert_ion_text ("$0", DDB_ION_TYPE_SYMBOL, NULL, 0);
  assert_text ("$dynamodb_SS", DDB_ION_TYPE_SYMBOL, "$dynamodb_SS");
  /* A version marker is a symbol value when quoted, annotated or nested. */
  assert_text ("'$ion_1_0'", DDB_ION_TYPE_SYMBOL, "$ion_1_0");
  assert_text ("$2", DDB_ION_TYPE_SYMBOL, "$ion_1_0");
  {
    g_autoptr (DdbIonValue) v = ion_one ("a::$ion_1_0");
    g_autoptr (DdbIonValue) l = ion_one ("[$ion_1_0]");
    g_assert_cmpstr (v->text.data, ==, "$ion_1_0");
    g_assert_cmpuint (l->elems->len, ==, 1);
  }
  /* Top-level lists and structs holding one are values, not markers. */
  {
    const char *text = "[$ion_1_0] {a:$ion_1_0} ($ion_1_0) $ion_1_0";
    g_autoptr (DdbIonReader) r = ddb_ion_reader_new (text, strlen (text));
    for (int i = 0; i < 4; i++)
      {
        g_autoptr (DdbIonValue) v = NULL;
        g_assert_true (ddb_ion_reader_next_value (r, &v, NULL));
        if (i < 3)
          g_assert_nonnull (v);
        else
          g_assert_null (v);
      }
  }
  assert_ion_error ("$10", DDB_ION_ERROR_SYNTAX, "line 1: symbol $10 is not defined");
  assert_ion_error ("$99999999999", DDB_ION_ERROR_SYNTAX, "line 1: symbol $99999999999 is not");
  assert_ion_error ("'abc", DDB_ION_ERROR_SYNTAX, "line 1: unterminated quoted symbol");
  assert_ion_error ("'a\nb'", DDB_ION_ERROR_SYNTAX, "line 1: a line break in a quoted symbol");

  /* S-expression operators. */
  {
    g_autoptr (DdbIonValue) v = ion_one ("(a+-b .c (1 -2) -inf +inf+ - / * ! #%&*+-./;<=>?@^`|~)");
    static const char *const texts[] = { "a", "+-", "b", ".", "c" };
    for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
      {
        DdbIonValue *e = g_ptr_array_index (v->elems, i);
        g_assert_cmpint (e->type, ==, DDB_ION_TYPE_SYMBOL);
        g_assert_cmpstr (e->text.data, ==, texts[i]);
      }
    {
      DdbIonValue *inner = g_ptr_array_index (v->elems, 5);
      DdbIonValue *neg = g_ptr_array_index (inner->elems, 1);
      DdbIonValue *inf = g_ptr_array_index (v->elems, 6);
      DdbIonValue *plus_inf_plus = g_ptr_array_index (v->elems, 7);
      g_assert_cmpstr (neg->text.data, ==, "-2");
      g_assert_cmpint (inf->type, ==, DDB_ION_TYPE_FLOAT);
      g_assert_cmpint (plus_inf_plus->type, ==, DDB_ION_TYPE_SYMBOL);
      g_assert_cmpstr (plus_inf_plus->text.data, ==, "+");
    }
  }
  assert_ion_error ("(a,b)", DDB_ION_ERROR_SYNTAX, "line 1: unexpected ','");
  assert_ion_error ("a+b", DDB_ION_ERROR_SYNTAX, "line 1: unexpected '+'");

  /* Local symbol tables. */
  {
    const char *text = "$ion_symbol_table::{symbols:[\"foo\",\"bar\",1]} $10 $11 $12 "
                       "$ion_symbol_table::{imports:$ion_symbol_table,symbols:[\"baz\"]} $10 $13 "
                       "$ion_1_0 $1";
    g_autoptr (DdbIonReader) r = ddb_ion_reader_new (text, strlen (text));
    const char *expected[] = { "foo", "bar", NULL, "foo", "baz", "$ion" };
    for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
      {
        g_autoptr (DdbIonValue) v = NULL;
        g_autoptr (GError) error = NULL;
        g_assert_true (ddb_ion_reader_next_value (r, &v, &error));
        g_assert_no_error (error);
        g_assert_nonnull (v);
        g_assert_cmpstr (v->text.data, ==, expected[i]);
      }
    assert_ion_error ("$ion_symbol_table::{symbols:[\"a\"]} $ion_1_0 $10", DDB_ION_ERROR_SYNTAX,
                      "line 1: symbol $10 is not defined");
    assert_ion_error ("$ion_symbol_table::{imports:[{name:\"x\",version:1,max_id:2}]}",
                      DDB_ION_ERROR_UNSUPPORTED, "line 1: symbol tables importing shared");
    assert_ion_error ("$ion_1_0 1 $ion_2_0 2", DDB_ION_ERROR_UNSUPPORTED,
                      "line 1: Ion version ion_2_0 is not supported");
  }
}

void
test_strings (void)
{
  static const struct {
    const char *text;
    const char *expected;
    gsize len;
  } ok[] = {
    { "\"\"", "", 0 },
    { "\"abc\"", "abc", 3 },
    { "\"\\a\\b\\t\\n\\f\\r\\v\\?\\0\\'\\\"\\/\\\\\"", "\a\b\t\n\f\r\v?\0'\"/\\", 13 },
    { "\"\\x41\\xe9\"", "A\xc3\xa9", 3 },
    { "\"\\u00e9\\u20AC\"", "\xc3\xa9\xe2\x82\xac", 5 },
    { "\"\\U0001F600\"", "\xf0\x9f\x98\x80", 4 },
    { "\"\\uD83D\\uDE00\"", "\xf0\x9f\x98\x80", 4 },
    { "\"\\u0000\"", "\0", 1 },
    { "\"ab\\\ncd\"", "abcd", 4 },
    { "\"ab\\\r\ncd\"", "abcd", 4 },
    { "\"tab\there\"", "tab\there", 8 },
    { "\"\xc3\xa9\xf0\x9f\x98\x80\"", "\xc3\xa9\xf0\x9f\x98\x80", 6 },
    { "'''abc'''", "abc", 3 },
    { "'''a''' '''b'''", "ab", 2 },
    { "'''a''' /* c */ '''b''' // d\n '''c'''", "abc", 3 },
    { "'''multi\nline'''", "multi\nline", 10 },
    { "'''it's ''quoted'''", "it's ''quoted", 13 },
    { "'''\\''''", "'", 1 },
    { "''''''", "", 0 },
    { "'''a\\\nb'''", "ab", 2 },
  };
  static const struct {
    const char *text, *message;
  } bad[] = {
    { "\"abc", "line 1: unterminated string" },
    { "\"a\nb\"", "line 1: a line break in a short string" },
    { "\"\\q\"", "line 1: invalid escape: backslash followed by 'q'" },
    { "\"\\x4\"", "line 1: \\x needs two hexadecimal digits" },
    { "\"\\u12\"", "line 1: \\u needs 4 hexadecimal digits" },
    { "\"\\U0001F60\"", "line 1: \\U needs 8 hexadecimal digits" },
    { "\"\\uD800\"", "line 1: a lone UTF-16 surrogate in an escape" },
    { "\"\\uD800\\u0041\"", "line 1: a lone UTF-16 surrogate in an escape" },
    { "\"\\uDC00\"", "line 1: escape of an invalid code point U+DC00" },
    { "\"\\U00110000\"", "line 1: escape of an invalid code point U+110000" },
    { "\"\\U0000D800\"", "line 1: escape of an invalid code point U+D800" },
    { "\"\x01\"", "line 1: control character 0x01 must be escaped" },
    { "'''\x1f'''", "line 1: control character 0x1F must be escaped" },
    { "\"\xff\"", "line 1: text that is not valid UTF-8" },
    { "\"\xc3\"", "line 1: text that is not valid UTF-8" },
    { "\"\xc0\x80\"", "line 1: text that is not valid UTF-8" },
    { "\"\xed\xa0\x80\"", "line 1: text that is not valid UTF-8" },
    { "\"\xf4\x90\x80\x80\"", "line 1: text that is not valid UTF-8" },
    { "'''abc", "line 1: unterminated string" },
    { "'''abc''", "line 1: unterminated string" },
    { "'''a''' '''b", "line 1: unterminated string" },
    { "\"a\\", "line 1: invalid escape: backslash followed by the end of the input" },
    { "// \xff\n1", "line 1: a comment is not valid UTF-8" },
    { "/* \xff */", "line 1: a comment is not valid UTF-8" },
    { "\xe2\x82\xac", "line 1: unexpected U+20AC (a value expected)" },
    { "\x80", "line 1: unexpected byte 0x80 (a value expected)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    assert_ion_text (ok[i].text, DDB_ION_TYPE_STRING, ok[i].expected, ok[i].len);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    assert_ion_error (bad[i].text, DDB_ION_ERROR_SYNTAX, bad[i].message);
  /* A string holding U+0000 maps to an S holding it. */
  {
    g_autoptr (DdbValue) item = line_item ("{Item:{a:\"x\\0y\"}}");
    DdbValue *a = ddb_value_map_get (item, "a");
    g_assert_cmpuint (a->bytes.len, ==, 3);
    g_assert_cmpmem (a->bytes.data, 3, "x\0y", 3);
  }
}

void
test_lobs (void)
{
  static const struct {
    const char *text;
    DdbIonType type;
    const char *expected;
    gsize len;
  } ok[] = {
    { "{{aGVsbG8=}}", DDB_ION_TYPE_BLOB, "hello", 5 },
    { "{{ aGVs\nbG8= }}", DDB_ION_TYPE_BLOB, "hello", 5 },
    { "{{ a G k = }}", DDB_ION_TYPE_BLOB, "hi", 2 },
    { "{{aGl=}}", DDB_ION_TYPE_BLOB, "hi", 2 }, /* unused bits set */
    { "{{YR==}}", DDB_ION_TYPE_BLOB, "a", 1 },
    { "{{}}", DDB_ION_TYPE_BLOB, "", 0 },
    { "{{ }}", DDB_ION_TYPE_BLOB, "", 0 },
    { "{{AA==}}", DDB_ION_TYPE_BLOB, "\0", 1 },
    { "{{\"abc\"}}", DDB_ION_TYPE_CLOB, "abc", 3 },
    { "{{ \"a\\x00\\xff\\n\" }}", DDB_ION_TYPE_CLOB, "a\0\xff\n", 4 },
    { "{{'''a''' '''b'''}}", DDB_ION_TYPE_CLOB, "ab", 2 },
    { "{{''''''}}", DDB_ION_TYPE_CLOB, "", 0 },
  };
  static const struct {
    const char *text, *message;
  } bad[] = {
    { "{{aGVsbG8}}", "line 1: a blob is not valid base64" },
    { "{{aGVsbG8=}", "line 1: unexpected '}' in a blob ('}}' expected)" },
    { "{{aGVsbG8= }x", "line 1: unexpected '}' in a blob ('}}' expected)" },
    { "{{a=b=}}", "line 1: a blob is not valid base64" },
    { "{{!!}}", "line 1: unexpected '!' in a blob" },
    { "{{aGk= /* c */}}", "line 1: unexpected '*' in a blob" },
    { "{{\"\\u0041\"}}", "line 1: invalid escape: backslash followed by 'u'" },
    { "{{\"\xc3\xa9\"}}", "line 1: a clob holds only ASCII characters" },
    { "{{\"a\" \"b\"}}", "line 1: unexpected '\"' in a clob ('}}' expected)" },
    { "{{\"a\"", "line 1: unexpected the end of the input in a clob ('}}' expected)" },
    { "{{\"a", "line 1: unterminated clob" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    assert_ion_text (ok[i].text, ok[i].type, ok[i].expected, ok[i].len);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    assert_ion_error (bad[i].text, DDB_ION_ERROR_SYNTAX, bad[i].message);
}

void
test_containers (void)
{
  {
    g_autoptr (DdbIonValue) v = ion_one ("{a:1, 'b c':2, \"d\":3, '''e''' '''f''':4, $0:5, a:6,}");
    static const char *const names[] = { "a", "b c", "d", "ef", NULL, "a" };
    g_assert_cmpuint (v->fields->len, ==, 6);
    for (guint i = 0; i < 6; i++)
      g_assert_cmpstr (g_array_index (v->fields, DdbIonField, i).name, ==, names[i]);
    g_assert_cmpstr (ddb_ion_value_get_field (v, "a")->text.data, ==, "1");
  }
  {
    g_autoptr (DdbIonValue) v = ion_one ("a :: 'b c'::/*x*/$1 :: [1, [], (), {}, 2,]");
    g_assert_cmpuint (g_strv_length (v->annotations), ==, 3);
    g_assert_cmpstr (v->annotations[1], ==, "b c");
    g_assert_cmpstr (v->annotations[2], ==, "$ion");
    g_assert_true (ddb_ion_value_has_annotation (v, "a"));
    g_assert_cmpuint (v->elems->len, ==, 5);
  }
  {
    g_autoptr (DdbIonValue) v = ion_one ("{a:b::c::{d:e::1}}");
    DdbIonValue *inner = g_array_index (v->fields, DdbIonField, 0).value;
    g_assert_cmpstr (inner->annotations[0], ==, "b");
    g_assert_cmpuint (ddb_ion_value_get_field (inner, "d")->line, ==, 1);
  }

  {
    static const struct {
      const char *text, *message;
    } bad[] = {
      { "[1,,2]", "line 1: unexpected ',' (a value expected)" },
      { "[,]", "line 1: unexpected ',' (a value expected)" },
      { "{,}", "line 1: unexpected ',' in a struct (a field name expected)" },
      { "{a:1,,}", "line 1: unexpected ',' in a struct (a field name expected)" },
      { "[1 2]", "line 1: unexpected '2' in a list (',' or ']' expected)" },
      { "{a 1}", "line 1: unexpected '1' after a field name (':' expected)" },
      { "{a::b:1}", "line 1: unexpected ':' after a field name (':' expected)" },
      { "{a:}", "line 1: unexpected '}' (a value expected)" },
      { "{:1}", "line 1: unexpected ':' in a struct (a field name expected)" },
      { "{1:1}", "line 1: unexpected '1' in a struct (a field name expected)" },
      { "{null:1}", "line 1: a keyword cannot be a field name unquoted" },
      { "{a:1 b:2}", "line 1: unexpected 'b' in a struct (',' or '}' expected)" },
      { "[1", "line 1: unterminated list" },
      { "[1,", "line 1: unterminated list" },
      { "{a:1", "line 1: unterminated struct" },
      { "{a", "line 1: unexpected the end of the input after a field name" },
      { "{", "line 1: unterminated struct" },
      { "(a", "line 1: unterminated s-expression" },
      { "]", "line 1: unexpected ']' (a value expected)" },
      { "}", "line 1: unexpected '}' (a value expected)" },
      { ")", "line 1: unexpected ')' (a value expected)" },
      { ",", "line 1: unexpected ',' (a value expected)" },
      { "[1}", "line 1: unexpected '}' in a list" },
      { "a::", "line 1: an annotation without a value" },
      { "a::b::", "line 1: an annotation without a value" },
      { "a:b", "line 1: unexpected ':' (a value expected)" },
      { "'''a'''::b", "line 1: unexpected ':' (a value expected)" },
      { "/* unterminated", "line 1: unterminated comment" },
      { "1\n2\n\n[\n  x,\n  @]", "line 6: unexpected '@' (a value expected)" },
      { "\r\n\r\r{a:1", "line 4: unterminated struct" },
      { "{a:1,\n\"b\nc\":2}", "line 2: a line break in a short string" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      assert_ion_error (bad[i].text, DDB_ION_ERROR_SYNTAX, bad[i].message);
  }
  /* Comments and whitespace of every kind between values. */
  {
    const char *text = "/* a */ 1 // b\n\t\v\f\r\n2 /**/ 3//";
    g_autoptr (DdbIonReader) r = ddb_ion_reader_new (text, strlen (text));
    guint n = 0;
    for (;;)
      {
        g_autoptr (DdbIonValue) v = NULL;
        g_assert_true (ddb_ion_reader_next_value (r, &v, NULL));
        if (v == NULL)
          break;
        n++;
      }
    g_assert_cmpuint (n, ==, 3);
  }
}
