/* test-number.c: DynamoDB number parsing, canonical text, ordering, hashing and arithmetic. */
#include <glib.h>
#include <string.h>

#include "core/error.h"
#include "core/number.h"

#define MSG_NOT_NUMERIC "The parameter cannot be converted to a numeric value"
#define MSG_PRECISION "Attempting to store more than 38 significant digits in a Number"
#define MSG_OVERFLOW \
  "Number overflow. Attempting to store a number with magnitude larger than supported range"
#define MSG_UNDERFLOW \
  "Number underflow. Attempting to store a number with magnitude smaller than supported range"

static DdbNumber
parse_ok (const char *text)
{
  DdbNumber n;
  GError *error = NULL;

  memset (&n, 0xAA, sizeof n);
  if (!ddb_number_parse (&n, text, -1, &error))
    g_error ("parsing \"%s\" failed: %s", text, error->message);
  g_assert_no_error (error);
  return n;
}

static char *
canonical (const char *text)
{
  DdbNumber n = parse_ok (text);

  return ddb_number_to_string (&n);
}

static void
assert_canonical (const char *text, const char *expected)
{
  char *got = canonical (text);

  if (g_strcmp0 (got, expected) != 0)
    g_error ("\"%s\" gave \"%s\", expected \"%s\"", text, got, expected);
  g_free (got);
}

static void
assert_parse_error (const char *text, gssize len, const char *message)
{
  DdbNumber n;
  GError *error = NULL;

  if (ddb_number_parse (&n, text, len, &error))
    g_error ("\"%s\" parsed but should fail with \"%s\"", text, message);
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  if (g_strcmp0 (error->message, message) != 0)
    g_error ("\"%s\" failed with \"%s\", expected \"%s\"", text, error->message, message);
  g_error_free (error);
}

static void
assert_not_numeric (const char *text)
{
  char *message = g_strdup_printf ("%s: %s", MSG_NOT_NUMERIC, text);

  assert_parse_error (text, -1, message);
  g_free (message);
}

/* A string of `count` copies of `c`. */
static char *
repeat (char c, gsize count)
{
  char *s = g_malloc (count + 1);

  memset (s, c, count);
  s[count] = '\0';
  return s;
}

static void
test_parse_forms (void)
{
  assert_canonical ("1", "1");
  assert_canonical ("-0.5", "-0.5");
  assert_canonical ("+1", "1");
  assert_canonical ("+.5", "0.5");
  assert_canonical ("+0", "0");
  assert_canonical ("1e10", "10000000000");
  assert_canonical ("1E5", "100000");
  assert_canonical ("1e+5", "100000");
  assert_canonical ("1e-5", "0.00001");
  assert_canonical (".5", "0.5");
  assert_canonical ("-.5", "-0.5");
  assert_canonical ("5.", "5");
  assert_canonical ("1.e5", "100000");
  assert_canonical ("00.100", "0.1");
  assert_canonical ("0001.23", "1.23");
  assert_canonical ("-7.1234", "-7.1234");
  assert_canonical ("-17e5", "-1700000");
  assert_canonical ("0.1E1", "1");
  assert_canonical ("1.0", "1");
  assert_canonical ("1e2", "100");
  assert_canonical ("12.5", "12.5");
  assert_canonical ("1234567.5", "1234567.5");
  assert_canonical ("1e000000000000000005", "100000");
  assert_canonical ("1e-000000000000000005", "0.00001");
}

static void
test_parse_zero (void)
{
  const char *zeros[] = { "0",
                          "-0",
                          "+0",
                          "0.0",
                          "-0.0",
                          "00000",
                          "0.0000",
                          ".0",
                          "0.",
                          "0e999",
                          "0E-999",
                          "-0e-5",
                          "0.0e5",
                          "0e2147483647",
                          "0e-2147483647",
                          "0e00000000000000000009" };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (zeros); i++)
    {
      DdbNumber n = parse_ok (zeros[i]);
      char *s = ddb_number_to_string (&n);

      g_assert_true (ddb_number_is_zero (&n));
      g_assert_false (n.negative);
      g_assert_cmpint (n.ndigits, ==, 0);
      g_assert_cmpint (n.exponent, ==, 0);
      g_assert_cmpstr (s, ==, "0");
      g_free (s);
    }
}

static void
test_parse_normalized_struct (void)
{
  DdbNumber n = parse_ok ("-00120.0500e1");

  /* -1200.5 = -0.12005 * 10^4 */
  g_assert_true (n.negative);
  g_assert_cmpint (n.ndigits, ==, 5);
  g_assert_cmpint (n.exponent, ==, 4);
  g_assert_cmpint (n.d[0], ==, 1);
  g_assert_cmpint (n.d[1], ==, 2);
  g_assert_cmpint (n.d[2], ==, 0);
  g_assert_cmpint (n.d[3], ==, 0);
  g_assert_cmpint (n.d[4], ==, 5);

  n = parse_ok ("0.001");
  g_assert_false (n.negative);
  g_assert_cmpint (n.ndigits, ==, 1);
  g_assert_cmpint (n.exponent, ==, -2);
  g_assert_cmpint (n.d[0], ==, 1);
}

static void
test_parse_explicit_length (void)
{
  DdbNumber n;
  GError *error = NULL;
  char *s;

  /* Only the first len bytes count: "12" of "12345". */
  g_assert_true (ddb_number_parse (&n, "12345", 2, &error));
  g_assert_no_error (error);
  s = ddb_number_to_string (&n);
  g_assert_cmpstr (s, ==, "12");
  g_free (s);

  /* An embedded NUL is a character like any other, and not a digit. */
  assert_parse_error ("1\0002", 3, MSG_NOT_NUMERIC ": 1\357\277\2752");
  assert_parse_error ("", 0, MSG_NOT_NUMERIC);
  assert_parse_error (NULL, 0, MSG_NOT_NUMERIC);
}

static void
test_parse_long_inputs (void)
{
  char *zeros = repeat ('0', 1000);
  char *text;
  char *s;

  /* 1000 leading zeros, then 1. */
  text = g_strconcat (zeros, "1", NULL);
  assert_canonical (text, "1");
  g_free (text);

  /* 1 then 1000 trailing zeros after the point. */
  text = g_strconcat ("1.", zeros, NULL);
  assert_canonical (text, "1");
  g_free (text);

  /* Trailing zeros of an integer are not significant but do make it big. */
  text = g_strconcat ("1", zeros, NULL);
  assert_parse_error (text, -1, MSG_OVERFLOW);
  g_free (text);
  text = g_strconcat ("1", zeros, "e-1000", NULL);
  assert_canonical (text, "1");
  g_free (text);

  /* Leading zeros after the point make it small. */
  text = g_strconcat ("0.", zeros, "1", NULL);
  assert_parse_error (text, -1, MSG_UNDERFLOW);
  g_free (text);
  text = g_strconcat ("0.", zeros, "1e1000", NULL);
  assert_canonical (text, "0.1");
  g_free (text);

  /* Zeros between significant digits do count. */
  text = g_strconcat ("1", zeros, "1", NULL);
  assert_parse_error (text, -1, MSG_PRECISION);
  g_free (text);

  /* All zeros, however many, is zero. */
  text = g_strconcat (zeros, ".", zeros, NULL);
  s = canonical (text);
  g_assert_cmpstr (s, ==, "0");
  g_free (s);
  g_free (text);

  g_free (zeros);
}

static void
test_parse_not_numeric (void)
{
  const char *bad[]
      = { " ",     " 1",       "1 ",        "1 e5", "\t1",  "abc",     "1e",    "1E",
          "1e+",   "1e-",      "--1",       "+-1",  "-+1",  "1e+-5",   "1e--5", "0x10",
          "0X10",  "Infinity", "-Infinity", "NaN",  "-NaN", "inf",     "-",     "+",
          ".",     "-.",       "+.",        "e5",   ".e5",  "-e5",     "1.2.3", "1e1.5",
          "1e5e5", "1_0",      "1,5",       "1d",   "1f",   "1L",      "dog",   "-dog",
          "1..",   "..1",      "1.5.",      "١x",   "1e",   "\"42.0\"" };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++)
    assert_not_numeric (bad[i]);

  /* Nothing at all has DynamoDB's shorter message, without the colon. */
  assert_parse_error ("", -1, MSG_NOT_NUMERIC);

  /* The garbage is echoed, made valid UTF-8 so it can go into a JSON error body. */
  assert_parse_error ("\xff", -1, MSG_NOT_NUMERIC ": \357\277\275");
}

static void
test_parse_unicode_digits (void)
{
  /* Java's BigDecimal, behind DynamoDB, takes any BMP decimal digit (DynamoDB Local 1.25
   * stores "١" as 1 and "１" as 1). */
  assert_canonical ("\331\241", "1");                  /* ARABIC-INDIC DIGIT ONE */
  assert_canonical ("\357\274\221\357\274\222", "12"); /* FULLWIDTH 1 2 */
  assert_canonical ("1e\331\241", "10");
  assert_canonical ("-\340\245\247.\340\245\253", "-1.5"); /* DEVANAGARI 1 . 5 */
  /* Supplementary-plane digits are two UTF-16 units to Java, neither a digit. */
  assert_not_numeric ("\360\235\237\217"); /* MATHEMATICAL BOLD DIGIT ONE */
  /* Other numbers that are not decimal digits. */
  assert_not_numeric ("\302\275");     /* VULGAR FRACTION ONE HALF */
  assert_not_numeric ("\342\205\240"); /* ROMAN NUMERAL ONE */
  assert_not_numeric ("\302\262");     /* SUPERSCRIPT TWO */
}

static void
test_parse_precision (void)
{
  /* 38 significant digits are fine, 39 are not. */
  assert_canonical ("12345678901234567890123456789012345678",
                    "12345678901234567890123456789012345678");
  assert_canonical ("-1.2345678901234567890123456789012345678",
                    "-1.2345678901234567890123456789012345678");
  assert_canonical ("3.1415926535897932384626433832795028841",
                    "3.1415926535897932384626433832795028841");
  assert_canonical ("314159265358979323846.26433832795028841",
                    "314159265358979323846.26433832795028841");
  assert_parse_error ("123456789012345678901234567890123456789", -1, MSG_PRECISION);
  assert_parse_error ("-1.23456789012345678901234567890123456789", -1, MSG_PRECISION);
  assert_parse_error ("3.14159265358979323846264338327950288419", -1, MSG_PRECISION);
  assert_parse_error ("314159265358979323846264338327950288419e30", -1, MSG_PRECISION);

  /* Trailing zeros do not count: 38 digits then 000 is 41 characters but fine. */
  assert_canonical ("12345678901234567890123456789012345678000",
                    "12345678901234567890123456789012345678000");
  assert_canonical ("1.23456789012345678901234567890123456780000",
                    "1.2345678901234567890123456789012345678");
  /* Nor do leading zeros. */
  assert_canonical ("0.0000012345678901234567890123456789012345678",
                    "0.0000012345678901234567890123456789012345678");
  assert_canonical ("00012345678901234567890123456789012345678",
                    "12345678901234567890123456789012345678");
  /* Interior zeros do. */
  assert_parse_error ("10000000000000000000000000000000000000.1", -1, MSG_PRECISION);
  assert_canonical ("1000000000000000000000000000000000000.1",
                    "1000000000000000000000000000000000000.1");

  /* Syntax is checked before precision: 39 digits of garbage is garbage. */
  assert_not_numeric ("123456789012345678901234567890123456789x");
  /* Precision is checked before range, as in DynamoDB Local. */
  assert_parse_error ("1234567890123456789012345678901234567891e200", -1, MSG_PRECISION);
  assert_parse_error ("1234567890123456789012345678901234567891e-200", -1, MSG_PRECISION);
}

/* "0." then `zeros` zeros then `digits`, or `digits` then `zeros` zeros when point is FALSE. */
static char *
padded (const char *sign, gboolean point, gsize zeros, const char *digits)
{
  char *z = repeat ('0', zeros);
  char *s = point ? g_strconcat (sign, "0.", z, digits, NULL) : g_strconcat (sign, digits, z, NULL);

  g_free (z);
  return s;
}

static void
assert_canonical_padded (const char *text, const char *sign, gboolean point, gsize zeros,
                         const char *digits)
{
  char *expected = padded (sign, point, zeros, digits);

  assert_canonical (text, expected);
  g_free (expected);
}

static void
test_parse_range (void)
{
  char *s;

  assert_canonical_padded ("1E-130", "", TRUE, 129, "1");
  assert_canonical_padded ("-1E-130", "-", TRUE, 129, "1");
  assert_canonical_padded ("0.1e-129", "", TRUE, 129, "1");
  assert_canonical_padded ("1.5E-130", "", TRUE, 129, "15");
  assert_canonical_padded ("1.2345678901234567890123456789012345678E-130", "", TRUE, 129,
                           "12345678901234567890123456789012345678");
  assert_parse_error ("1E-131", -1, MSG_UNDERFLOW);
  assert_parse_error ("-1e-131", -1, MSG_UNDERFLOW);
  assert_parse_error ("0.9e-130", -1, MSG_UNDERFLOW);
  assert_parse_error ("0.01e-129", -1, MSG_UNDERFLOW);
  /* 9.99..E-131 is below 1E-130 even though it rounds up to it. */
  assert_parse_error ("9.9999999999999999999999999999999999999E-131", -1, MSG_UNDERFLOW);

  assert_canonical_padded ("9.9999999999999999999999999999999999999E+125", "", FALSE, 88,
                           "99999999999999999999999999999999999999");
  s = canonical ("-9.9999999999999999999999999999999999999E+125");
  g_assert_true (s[0] == '-' && strlen (s) == 127);
  g_free (s);
  s = canonical ("1E+125");
  g_assert_cmpuint (strlen (s), ==, 126);
  g_assert_true (s[0] == '1' && strspn (s + 1, "0") == 125);
  g_free (s);
  assert_canonical_padded ("99.99e124", "", FALSE, 122, "9999");
  assert_canonical_padded ("-1E+125", "-", FALSE, 125, "1");
  assert_parse_error ("1E+126", -1, MSG_OVERFLOW);
  assert_parse_error ("-1e126", -1, MSG_OVERFLOW);
  assert_parse_error ("11e125", -1, MSG_OVERFLOW);
  assert_parse_error ("10e125", -1, MSG_OVERFLOW);
  assert_parse_error ("1e2147483647", -1, MSG_OVERFLOW);
  assert_parse_error ("1e-2147483647", -1, MSG_UNDERFLOW);
  assert_parse_error ("1e9999999", -1, MSG_OVERFLOW);
  assert_parse_error ("1e-9999999", -1, MSG_UNDERFLOW);
}

static void
test_parse_huge_exponent_text (void)
{
  /* Beyond what BigDecimal can hold, DynamoDB cannot convert the text at all (DynamoDB
   * Local answers these three with its "cannot be converted" message), whatever the value. */
  assert_not_numeric ("1e99999999999");
  assert_not_numeric ("0e99999999999");
  assert_not_numeric ("1e-99999999999");
  assert_not_numeric ("1e2147483648");
  assert_not_numeric ("1e9999999999");
  assert_not_numeric ("0e9999999999");
  assert_not_numeric ("0e-2147483648");
  assert_not_numeric ("1e999999999999999999999999999999");
  /* The scale counts fraction digits too: 0.5e-2147483647 has scale 2^31. */
  assert_not_numeric ("0.5e-2147483647");
  /* Leading zeros of the exponent do not count towards its ten digits. */
  assert_parse_error ("1e00000000002147483647", -1, MSG_OVERFLOW);
  assert_parse_error ("5e-2147483648", -1, MSG_NOT_NUMERIC ": 5e-2147483648");
}

static void
test_to_string (void)
{
  assert_canonical ("1.5e-7", "0.00000015");
  assert_canonical ("12345e30", "12345000000000000000000000000000000");
  assert_canonical ("-17.4E37", "-174000000000000000000000000000000000000");
  assert_canonical ("123.456", "123.456");
  assert_canonical ("0.5", "0.5");
  assert_canonical ("-1", "-1");
  assert_canonical ("100", "100");
  assert_canonical ("1.00000000000000007629769841092E+50",
                    "100000000000000007629769841092000000000000000000000");
  assert_canonical ("1e-1", "0.1");
  assert_canonical ("12e-1", "1.2");
}

static void
test_append (void)
{
  GString *s = g_string_new ("x=");
  DdbNumber n = parse_ok ("-12.50");

  ddb_number_append (&n, s);
  g_string_append_c (s, ';');
  n = parse_ok ("0");
  ddb_number_append (&n, s);
  g_assert_cmpstr (s->str, ==, "x=-12.5;0");
  g_string_free (s, TRUE);
}

static void
test_compare_order (void)
{
  /* Strictly increasing. */
  const char *order[] = { "-9.9999999999999999999999999999999999999E+125",
                          "-1e125",
                          "-12345678901234567890",
                          "-1000",
                          "-999",
                          "-10.5",
                          "-10",
                          "-2",
                          "-1.5",
                          "-1.0000000000000000000000000000000000001",
                          "-1",
                          "-0.99999999999999999999999999999999999999",
                          "-0.5",
                          "-0.05",
                          "-1e-130",
                          "0",
                          "1E-130",
                          "2E-130",
                          "1e-100",
                          "0.05",
                          "0.1",
                          "0.5",
                          "0.99999999999999999999999999999999999999",
                          "1",
                          "1.0000000000000000000000000000000000001",
                          "1.5",
                          "2",
                          "9",
                          "10",
                          "10.5",
                          "99",
                          "100",
                          "101",
                          "12345678901234567890",
                          "1e125",
                          "9.9999999999999999999999999999999999999E+125" };
  gsize i, j;

  for (i = 0; i < G_N_ELEMENTS (order); i++)
    for (j = 0; j < G_N_ELEMENTS (order); j++)
      {
        DdbNumber a = parse_ok (order[i]);
        DdbNumber b = parse_ok (order[j]);
        int c = ddb_number_compare (&a, &b);
        int expected = i < j ? -1 : i > j ? 1 : 0;

        if ((c > 0) - (c < 0) != expected)
          g_error ("compare(%s, %s) = %d, expected sign %d", order[i], order[j], c, expected);
        g_assert_cmpint (ddb_number_equal (&a, &b), ==, i == j);
      }
}

static void
test_compare_named_chain (void)
{
  DdbNumber m1 = parse_ok ("-1"), mh = parse_ok ("-0.5"), z = parse_ok ("0");
  DdbNumber tiny = parse_ok ("1E-130"), one = parse_ok ("1");

  g_assert_cmpint (ddb_number_compare (&m1, &mh), <, 0);
  g_assert_cmpint (ddb_number_compare (&mh, &z), <, 0);
  g_assert_cmpint (ddb_number_compare (&z, &tiny), <, 0);
  g_assert_cmpint (ddb_number_compare (&tiny, &one), <, 0);
  g_assert_cmpint (ddb_number_compare (&one, &m1), >, 0);
}

static void
test_equal_and_hash (void)
{
  const char *ones[]
      = { "1", "1.0", "1E0", "10E-1", "+1", "001", "0.1e1", "1.000000", "100e-2", "0.00001e5" };
  const char *zeros[] = { "0", "-0", "0.000", "0e50", "-0e-50" };
  DdbNumber first = parse_ok (ones[0]);
  DdbNumber zero = parse_ok (zeros[0]);
  DdbNumber other;
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (ones); i++)
    {
      DdbNumber n = parse_ok (ones[i]);

      g_assert_true (ddb_number_equal (&first, &n));
      g_assert_cmpint (ddb_number_compare (&first, &n), ==, 0);
      g_assert_cmpuint (ddb_number_hash (&first), ==, ddb_number_hash (&n));
    }
  for (i = 0; i < G_N_ELEMENTS (zeros); i++)
    {
      DdbNumber n = parse_ok (zeros[i]);

      g_assert_true (ddb_number_equal (&zero, &n));
      g_assert_cmpuint (ddb_number_hash (&zero), ==, ddb_number_hash (&n));
    }

  other = parse_ok ("-1");
  g_assert_false (ddb_number_equal (&first, &other));
  other = parse_ok ("10");
  g_assert_false (ddb_number_equal (&first, &other));
  g_assert_cmpuint (ddb_number_hash (&first), !=, ddb_number_hash (&other));
  other = parse_ok ("11");
  g_assert_false (ddb_number_equal (&first, &other));
  g_assert_false (ddb_number_equal (&zero, &first));
}

static void
test_hash_table (void)
{
  /* Numbers as keys of a GHashTable: one entry per value, whatever the spelling. */
  GHashTable *set = g_hash_table_new_full ((GHashFunc) ddb_number_hash,
                                           (GEqualFunc) ddb_number_equal, g_free, NULL);
  const char *texts[] = { "1", "1.0", "10e-1", "2", "2.00", "-2", "0", "-0", "0.5", ".50" };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      DdbNumber *n = g_new (DdbNumber, 1);

      *n = parse_ok (texts[i]);
      g_hash_table_add (set, n);
    }
  g_assert_cmpuint (g_hash_table_size (set), ==, 5);
  g_hash_table_unref (set);
}

static void
assert_op (const char *a, char op, const char *b, const char *expected)
{
  DdbNumber x = parse_ok (a), y = parse_ok (b), r;
  GError *error = NULL;
  gboolean ok;
  char *s;

  memset (&r, 0x55, sizeof r);
  ok = op == '+' ? ddb_number_add (&r, &x, &y, &error) : ddb_number_subtract (&r, &x, &y, &error);
  if (!ok)
    g_error ("%s %c %s failed: %s", a, op, b, error->message);
  s = ddb_number_to_string (&r);
  if (g_strcmp0 (s, expected) != 0)
    g_error ("%s %c %s = %s, expected %s", a, op, b, s, expected);
  g_free (s);

  /* The result is normalized: it equals the expected text parsed. */
  y = parse_ok (expected);
  g_assert_true (ddb_number_equal (&r, &y));
}

static void
assert_op_error (const char *a, char op, const char *b, const char *message)
{
  DdbNumber x = parse_ok (a), y = parse_ok (b), r;
  GError *error = NULL;
  gboolean ok;

  ok = op == '+' ? ddb_number_add (&r, &x, &y, &error) : ddb_number_subtract (&r, &x, &y, &error);
  if (ok)
    {
      char *s = ddb_number_to_string (&r);

      g_error ("%s %c %s = %s, expected the error \"%s\"", a, op, b, s, message);
    }
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  if (g_strcmp0 (error->message, message) != 0)
    g_error ("%s %c %s failed with \"%s\", expected \"%s\"", a, op, b, error->message, message);
  g_error_free (error);
}

static void
test_add_basic (void)
{
  assert_op ("999", '+', "1", "1000");
  assert_op ("1", '+', "999", "1000");
  assert_op ("0.1", '+', "0.2", "0.3");
  assert_op ("1", '-', "1", "0");
  assert_op ("-5", '+', "3", "-2");
  assert_op ("3", '+', "-5", "-2");
  assert_op ("-5", '-', "-3", "-2");
  assert_op ("-5", '-', "3", "-8");
  assert_op ("5", '-', "-3", "8");
  assert_op ("1.5", '+', "1.5", "3");
  assert_op ("0.99", '+', "0.01", "1");
  assert_op ("1000", '-', "1", "999");
  assert_op ("1", '-', "0.001", "0.999");
  assert_op ("0.001", '-', "1", "-0.999");
  assert_op ("100", '-', "99.99", "0.01");
  assert_op ("-0.5", '+', "0.5", "0");
  assert_op ("123.456", '-', "123.456", "0");
  assert_op ("9999999999", '+', "1", "10000000000");
  assert_op ("1e10", '+', "1e-10", "10000000000.0000000001");
  assert_op ("1", '+', "10000000000000000000000", "10000000000000000000001");
  assert_op ("10000000000000000000000", '-', "1", "9999999999999999999999");
  assert_op ("12345678901234567890123456789012345678", '+', "1",
             "12345678901234567890123456789012345679");
  assert_op ("99999999999999999999999999999999999999", '+', "1",
             "100000000000000000000000000000000000000");
  assert_op ("100000000000000000000.00000001", '-', "1", "99999999999999999999.00000001");
}

static void
test_add_zero (void)
{
  assert_op ("0", '+', "0", "0");
  assert_op ("-0", '-', "0", "0");
  assert_op ("0", '+', "-1.5", "-1.5");
  assert_op ("0", '-', "-1.5", "1.5");
  assert_op ("0", '-', "1.5", "-1.5");
  assert_op ("1.5", '+', "0", "1.5");
  assert_op ("1.5", '-', "0", "1.5");
  assert_op ("1e-130", '-', "1e-130", "0");
}

static void
test_add_aliasing (void)
{
  DdbNumber a = parse_ok ("2.5"), b = parse_ok ("0.5");
  char *s;

  g_assert_true (ddb_number_add (&a, &a, &b, NULL));
  g_assert_true (ddb_number_subtract (&b, &a, &b, NULL));
  g_assert_true (ddb_number_add (&a, &a, &a, NULL));
  s = ddb_number_to_string (&a);
  g_assert_cmpstr (s, ==, "6");
  g_free (s);
  s = ddb_number_to_string (&b);
  g_assert_cmpstr (s, ==, "2.5");
  g_free (s);
  g_assert_true (ddb_number_subtract (&a, &a, &a, NULL));
  g_assert_true (ddb_number_is_zero (&a));
}

static void
test_add_range (void)
{
  char *expected;

  assert_op_error ("9e125", '+', "9e125", MSG_OVERFLOW);
  assert_op_error ("9e125", '-', "-9e125", MSG_OVERFLOW);
  assert_op_error ("-9e125", '-', "9e125", MSG_OVERFLOW);
  assert_op_error ("9.9999999999999999999999999999999999999E+125", '+', "1e88", MSG_OVERFLOW);
  expected = padded ("", FALSE, 124, "99");
  assert_op ("9e125", '+', "9e124", expected);
  g_free (expected);
  expected = padded ("", TRUE, 129, "2");
  assert_op ("1e-130", '+', "1e-130", expected);
  g_free (expected);
  expected = padded ("-", TRUE, 129, "1");
  assert_op ("1e-130", '-', "2e-130", expected);
  g_free (expected);
  assert_op_error ("2e-130", '-', "1.5e-130", MSG_UNDERFLOW);
  assert_op_error ("1.1e-130", '-', "1e-130", MSG_UNDERFLOW);
  assert_op_error ("1e-129", '-', "9.9e-130", MSG_UNDERFLOW);
  assert_op_error ("-1e-129", '+', "9.9e-130", MSG_UNDERFLOW);
  assert_op_error ("1.0000000000000000000000000000000000001e-130", '-', "1e-130", MSG_UNDERFLOW);
}

static void
test_add_inexact (void)
{
  /* The exact result needs more than 38 digits. DynamoDB refuses rather than rounds, and
   * words the refusal as an overflow (see number.c). */
  assert_op_error ("1e30", '+', "1e-30", MSG_OVERFLOW);
  assert_op_error ("1e50", '+', "1", MSG_OVERFLOW);
  assert_op_error ("1e50", '-', "1", MSG_OVERFLOW);
  assert_op_error ("1", '+', "1e50", MSG_OVERFLOW);
  assert_op_error ("1", '+', "1e-50", MSG_OVERFLOW);
  assert_op_error ("1e125", '+', "1e-130", MSG_OVERFLOW);
  assert_op_error ("-1e125", '-', "1e-130", MSG_OVERFLOW);
  assert_op_error ("99999999999999999999999999999999999999", '+', "2", MSG_OVERFLOW);
  assert_op_error ("12345678901234567890123456789012345678", '+', "0.1", MSG_OVERFLOW);
  assert_op_error ("9.9999999999999999999999999999999999999E+125", '+', "1e87", MSG_OVERFLOW);
  /* Exactly 38 digits is still fine, and cancellation can bring a long span back in. */
  assert_op ("1e37", '+', "1", "10000000000000000000000000000000000001");
  assert_op ("1.0000000000000000000000000000000000001", '-', "1",
             "0.0000000000000000000000000000000000001");
  assert_op ("12345678901234567890123456789012345678", '-',
             "12345678901234567890123456789012345677", "1");
}

static void
test_set_zero (void)
{
  DdbNumber n = parse_ok ("-12.5");
  char *s;

  ddb_number_set_zero (&n);
  g_assert_true (ddb_number_is_zero (&n));
  g_assert_false (n.negative);
  g_assert_cmpint (n.exponent, ==, 0);
  s = ddb_number_to_string (&n);
  g_assert_cmpstr (s, ==, "0");
  g_free (s);
  g_assert_true (ddb_number_equal (&n, &(DdbNumber){ 0 }));
}

static void
test_set_int (void)
{
  const gint64 values[] = { 0,
                            1,
                            -1,
                            7,
                            10,
                            -10,
                            100,
                            120,
                            1000000,
                            123456789,
                            G_MAXINT32,
                            G_MININT32,
                            (gint64) G_MAXUINT32,
                            1000000000000000000,
                            -1000000000000000000,
                            G_MAXINT64,
                            G_MININT64,
                            G_MAXINT64 - 1,
                            G_MININT64 + 1 };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (values); i++)
    {
      char *expected = g_strdup_printf ("%" G_GINT64_FORMAT, values[i]);
      DdbNumber n, p;
      char *s;

      memset (&n, 0x77, sizeof n);
      ddb_number_set_int (&n, values[i]);
      s = ddb_number_to_string (&n);
      g_assert_cmpstr (s, ==, expected);
      p = parse_ok (expected);
      g_assert_true (ddb_number_equal (&n, &p));
      g_assert_cmpuint (ddb_number_hash (&n), ==, ddb_number_hash (&p));
      g_free (s);
      g_free (expected);
    }
}

static void
test_set_int_normalized (void)
{
  DdbNumber n;

  ddb_number_set_int (&n, -1200);
  g_assert_true (n.negative);
  g_assert_cmpint (n.ndigits, ==, 2);
  g_assert_cmpint (n.exponent, ==, 4);
  g_assert_cmpint (n.d[0], ==, 1);
  g_assert_cmpint (n.d[1], ==, 2);

  ddb_number_set_int (&n, 0);
  g_assert_true (ddb_number_is_zero (&n));
  g_assert_false (n.negative);
}

static void
test_is_zero (void)
{
  DdbNumber n = parse_ok ("-0.000");

  g_assert_true (ddb_number_is_zero (&n));
  n = parse_ok ("1e-130");
  g_assert_false (ddb_number_is_zero (&n));
  n = parse_ok ("-1");
  g_assert_false (ddb_number_is_zero (&n));
}

static void
test_to_uint32 (void)
{
  const struct {
    const char *text;
    gboolean ok;
    guint32 value;
  } cases[] = {
    { "0", TRUE, 0 },
    { "-0", TRUE, 0 },
    { "1", TRUE, 1 },
    { "1.0", TRUE, 1 },
    { "10", TRUE, 10 },
    { "1e2", TRUE, 100 },
    { "100", TRUE, 100 },
    { "4294967295", TRUE, G_MAXUINT32 },
    { "4.294967295e9", TRUE, G_MAXUINT32 },
    { "4000000000", TRUE, 4000000000u },
    { "4294967296", FALSE, 0 },
    { "5000000000", FALSE, 0 },
    { "1E+10", FALSE, 0 },
    { "10000000000", FALSE, 0 },
    { "1e125", FALSE, 0 },
    { "1.5", FALSE, 0 },
    { "0.5", FALSE, 0 },
    { "4294967294.5", FALSE, 0 },
    { "-1", FALSE, 0 },
    { "-4294967295", FALSE, 0 },
    { "1e-130", FALSE, 0 },
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DdbNumber n = parse_ok (cases[i].text);
      guint32 v = 12345;
      gboolean ok = ddb_number_to_uint32 (&n, &v);

      if (ok != cases[i].ok)
        g_error ("to_uint32(%s) returned %d", cases[i].text, ok);
      if (ok)
        g_assert_cmpuint (v, ==, cases[i].value);
      else
        g_assert_cmpuint (v, ==, 12345);
    }
}

/* Random numbers written in many spellings, through text and back. */
static char *
random_spelling (GRand *rand, DdbNumber *reference)
{
  GString *digits = g_string_new (NULL);
  GString *text = g_string_new (NULL);
  int ndigits = g_rand_int_range (rand, 1, 39);
  int exp10, point, i;

  for (i = 0; i < ndigits; i++)
    g_string_append_c (digits, (char) ('0' + g_rand_int_range (rand, i == 0 ? 1 : 0, 10)));
  /* value = 0.digits * 10^exp10 with the leading digit's exponent in [-130, 125] */
  exp10 = g_rand_int_range (rand, -129, 127);
  if (g_rand_boolean (rand))
    g_string_append_c (text, g_rand_boolean (rand) ? '-' : '+');
  for (i = g_rand_int_range (rand, 0, 4); i > 0; i--)
    g_string_append_c (text, '0');
  /* Put the point somewhere in or around the digits and fix up with an exponent. */
  point = g_rand_int_range (rand, -3, ndigits + 4);
  if (point <= 0)
    {
      g_string_append (text, "0.");
      for (i = point; i < 0; i++)
        g_string_append_c (text, '0');
      g_string_append (text, digits->str);
    }
  else if (point >= ndigits)
    {
      g_string_append (text, digits->str);
      for (i = ndigits; i < point; i++)
        g_string_append_c (text, '0');
      if (g_rand_boolean (rand))
        g_string_append_c (text, '.');
    }
  else
    {
      g_string_append_len (text, digits->str, point);
      g_string_append_c (text, '.');
      g_string_append (text, digits->str + point);
    }
  for (i = g_rand_int_range (rand, 0, 3); i > 0; i--)
    g_string_append (text, strchr (text->str, '.') ? "0" : "");
  g_string_append_printf (text, "%c%d", g_rand_boolean (rand) ? 'e' : 'E', exp10 - point);

  /* The reference struct, built by hand from the digits. */
  reference->negative = text->str[0] == '-';
  while (digits->len > 0 && digits->str[digits->len - 1] == '0')
    g_string_truncate (digits, digits->len - 1);
  reference->ndigits = (guint8) digits->len;
  reference->exponent = exp10;
  for (i = 0; i < (int) digits->len; i++)
    reference->d[i] = (guint8) (digits->str[i] - '0');

  g_string_free (digits, TRUE);
  return g_string_free (text, FALSE);
}

static void
test_round_trip (void)
{
  GRand *rand = g_rand_new_with_seed (20240601);
  int i;

  for (i = 0; i < 20000; i++)
    {
      DdbNumber reference, a, b;
      char *text = random_spelling (rand, &reference);
      char *canon, *again;

      a = parse_ok (text);
      if (!ddb_number_equal (&a, &reference))
        g_error ("\"%s\" did not parse to its reference value", text);
      canon = ddb_number_to_string (&a);
      b = parse_ok (canon);
      g_assert_true (ddb_number_equal (&a, &b));
      g_assert_cmpint (ddb_number_compare (&a, &b), ==, 0);
      g_assert_cmpuint (ddb_number_hash (&a), ==, ddb_number_hash (&b));
      again = ddb_number_to_string (&b);
      g_assert_cmpstr (canon, ==, again);
      /* Canonical text has no exponent, no '+', no leading zero before a digit. */
      g_assert_null (strpbrk (canon, "eE+"));
      g_assert_false (canon[0] == '0' && canon[1] != '.' && canon[1] != '\0');
      g_free (again);
      g_free (canon);
      g_free (text);
    }
  g_rand_free (rand);
}

/* An independent oracle for compare/add/subtract: numbers m * 10^-scale with |m| < 10^36
 * held in a 128-bit integer, for a scale shared by both operands. */
static char *
scaled_text (__int128 m, int scale)
{
  char digits[64];
  int len = 0, i;
  gboolean negative = m < 0;
  unsigned __int128 u = negative ? -(unsigned __int128) m : (unsigned __int128) m;
  GString *s = g_string_new (negative ? "-" : "");

  do
    {
      digits[len++] = (char) ('0' + (int) (u % 10));
      u /= 10;
    }
  while (u != 0);
  for (i = len - 1; i >= 0; i--)
    g_string_append_c (s, digits[i]);
  g_string_append_printf (s, "e%d", -scale);
  return g_string_free (s, FALSE);
}

static __int128
random_int128 (GRand *rand, int max_digits)
{
  __int128 m = 0;
  int n = g_rand_int_range (rand, 0, max_digits + 1);
  int i;

  for (i = 0; i < n; i++)
    m = m * 10 + g_rand_int_range (rand, 0, 10);
  return g_rand_boolean (rand) ? -m : m;
}

static void
test_arithmetic_oracle (void)
{
  GRand *rand = g_rand_new_with_seed (77);
  int i;

  for (i = 0; i < 20000; i++)
    {
      int scale = g_rand_int_range (rand, -80, 120);
      __int128 ma = random_int128 (rand, 36);
      __int128 mb = random_int128 (rand, g_rand_boolean (rand) ? 36 : 5);
      char *ta = scaled_text (ma, scale), *tb = scaled_text (mb, scale);
      char *tsum = scaled_text (ma + mb, scale), *tdiff = scaled_text (ma - mb, scale);
      DdbNumber a = parse_ok (ta), b = parse_ok (tb);
      DdbNumber sum = parse_ok (tsum), diff = parse_ok (tdiff), r;
      int c = ddb_number_compare (&a, &b);

      g_assert_cmpint ((c > 0) - (c < 0), ==, (ma > mb) - (ma < mb));
      g_assert_cmpint (ddb_number_equal (&a, &b), ==, ma == mb);
      g_assert_true (ddb_number_add (&r, &a, &b, NULL));
      if (!ddb_number_equal (&r, &sum))
        g_error ("%s + %s did not give %s", ta, tb, tsum);
      g_assert_true (ddb_number_subtract (&r, &a, &b, NULL));
      if (!ddb_number_equal (&r, &diff))
        g_error ("%s - %s did not give %s", ta, tb, tdiff);
      g_free (ta);
      g_free (tb);
      g_free (tsum);
      g_free (tdiff);
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/number/parse/forms", test_parse_forms);
  g_test_add_func ("/number/parse/zero", test_parse_zero);
  g_test_add_func ("/number/parse/normalized-struct", test_parse_normalized_struct);
  g_test_add_func ("/number/parse/explicit-length", test_parse_explicit_length);
  g_test_add_func ("/number/parse/long-inputs", test_parse_long_inputs);
  g_test_add_func ("/number/parse/not-numeric", test_parse_not_numeric);
  g_test_add_func ("/number/parse/unicode-digits", test_parse_unicode_digits);
  g_test_add_func ("/number/parse/precision", test_parse_precision);
  g_test_add_func ("/number/parse/range", test_parse_range);
  g_test_add_func ("/number/parse/huge-exponent-text", test_parse_huge_exponent_text);
  g_test_add_func ("/number/to-string", test_to_string);
  g_test_add_func ("/number/append", test_append);
  g_test_add_func ("/number/compare/order", test_compare_order);
  g_test_add_func ("/number/compare/chain", test_compare_named_chain);
  g_test_add_func ("/number/equal-and-hash", test_equal_and_hash);
  g_test_add_func ("/number/hash-table", test_hash_table);
  g_test_add_func ("/number/add/basic", test_add_basic);
  g_test_add_func ("/number/add/zero", test_add_zero);
  g_test_add_func ("/number/add/aliasing", test_add_aliasing);
  g_test_add_func ("/number/add/range", test_add_range);
  g_test_add_func ("/number/add/inexact", test_add_inexact);
  g_test_add_func ("/number/set-zero", test_set_zero);
  g_test_add_func ("/number/set-int", test_set_int);
  g_test_add_func ("/number/set-int-normalized", test_set_int_normalized);
  g_test_add_func ("/number/is-zero", test_is_zero);
  g_test_add_func ("/number/to-uint32", test_to_uint32);
  g_test_add_func ("/number/round-trip", test_round_trip);
  g_test_add_func ("/number/arithmetic-oracle", test_arithmetic_oracle);

  return g_test_run ();
}
