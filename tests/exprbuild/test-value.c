/* test-value.c: values as people type them, for all ten types: exact numbers at DynamoDB's
 * limits, binary with every byte, empty strings, sets, DynamoDB JSON and plain JSON; errors
 * that name what is wrong; and text that reads back as the same value. */
#include "core/base64.h"
#include "core/ddbjson.h"
#include "exprbuild/exprbuild.h"
#include "../core/test-util.h"

static DdbValue *
from_text_ok (DdbType type, const char *text)
{
  GError *error = NULL;
  DdbValue *v = ddb_eb_value_from_text (type, text, &error);

  if (v == NULL)
    g_error ("%s %s refused: %s", ddb_type_name (type), text, error->message);
  g_assert_cmpint (v->type, ==, type);
  return v;
}

/* TEXT (single quotes for double) read as TYPE must be the DynamoDB JSON value EXPECTED, and
 * its text must read back as the same value. */
static void
check (DdbType type, const char *text, const char *expected)
{
  g_autofree char *dq = tu_dq (text);
  g_autofree char *want_text = tu_dq (expected);
  g_autoptr (DdbValue) v = from_text_ok (type, dq);
  g_autoptr (DdbValue) want = ddb_json_parse_value (want_text, -1, NULL);
  g_autofree char *back_text = ddb_eb_value_to_text (v);
  g_autoptr (DdbValue) back = from_text_ok (type, back_text);

  g_assert_nonnull (want);
  if (!ddb_value_equal (v, want))
    {
      g_autofree char *got = ddb_json_format_value (v);

      g_error ("%s read as %s, expected %s", dq, got, want_text);
    }
  g_assert_true (ddb_value_equal (back, v));
}

static void
check_refused (DdbType type, const char *text, const char *message)
{
  g_autofree char *dq = tu_dq (text);
  GError *error = NULL;

  g_assert_null (ddb_eb_value_from_text (type, dq, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  g_error_free (error);
}

static void
test_strings (void)
{
  g_autoptr (DdbValue) empty = from_text_ok (DDB_TYPE_S, "");
  g_autoptr (DdbValue) spaced = from_text_ok (DDB_TYPE_S, "  kept as typed ");
  g_autofree char *text = NULL;

  g_assert_cmpuint (empty->bytes.len, ==, 0);
  g_assert_cmpstr (spaced->bytes.data, ==, "  kept as typed ");
  check (DDB_TYPE_S, "Mara V.", "{'S': 'Mara V.'}");
  check (DDB_TYPE_S, "{'S': 'x'}", "{'S': '{\\'S\\': \\'x\\'}'}");
  check (DDB_TYPE_S, "émoji 🎉 שלום", "{'S': 'émoji 🎉 שלום'}");
  g_assert_null (ddb_eb_value_from_text (DDB_TYPE_S, "\xff", NULL));
  check_refused (DDB_TYPE_S, "bad \xc3", "The string is not valid UTF-8");

  text = ddb_eb_value_to_text (spaced);
  g_assert_cmpstr (text, ==, "  kept as typed ");
}

static void
test_numbers (void)
{
  g_autoptr (DdbValue) tiny = from_text_ok (DDB_TYPE_N, "1E-130");
  g_autoptr (DdbValue) huge = from_text_ok (DDB_TYPE_N,
                                            "9.9999999999999999999999999999999999999E+125");
  g_autofree char *tiny_text = ddb_eb_value_to_text (tiny);

  check (DDB_TYPE_N, "12345678901234567890123456789012345678",
         "{'N': '12345678901234567890123456789012345678'}");
  check (DDB_TYPE_N, "-0.00000000000000000000000000000000000012345678901234567890123456789012345678",
         "{'N': '-1.2345678901234567890123456789012345678E-37'}");
  check (DDB_TYPE_N, " 42 ", "{'N': '42'}");
  check (DDB_TYPE_N, "1.50", "{'N': '1.5'}");
  check (DDB_TYPE_N, "1E-130", "{'N': '1E-130'}");
  g_assert_true (g_str_has_prefix (tiny_text, "0.0000000000"));
  g_assert_true (g_str_has_suffix (tiny_text, "0001"));
  g_assert_cmpint (huge->number.exponent, ==, 126);

  check_refused (DDB_TYPE_N, "123456789012345678901234567890123456789",
                 "“123456789012345678901234567890123456789” is not a number DynamoDB can store: "
                 "Attempting to store more than 38 significant digits in a Number");
  check_refused (DDB_TYPE_N, "1E-131",
                 "“1E-131” is not a number DynamoDB can store: Number underflow. Attempting to "
                 "store a number with magnitude smaller than supported range");
  check_refused (DDB_TYPE_N, "1E126",
                 "“1E126” is not a number DynamoDB can store: Number overflow. Attempting to "
                 "store a number with magnitude larger than supported range");
  check_refused (DDB_TYPE_N, "1,000",
                 "“1,000” is not a number DynamoDB can store: The parameter cannot be converted "
                 "to a numeric value: 1,000");
  check_refused (DDB_TYPE_N, "  ", "A number is needed, e.g. 42, -1.5 or 1E-130");
}

static void
test_binary (void)
{
  guchar all[256];
  g_autofree char *b64 = NULL;
  g_autoptr (DdbValue) v = NULL;
  g_autoptr (DdbValue) empty = from_text_ok (DDB_TYPE_B, "");
  g_autofree char *back = NULL;

  for (guint i = 0; i < 256; i++)
    all[i] = (guchar) i;
  b64 = ddb_base64_encode (all, sizeof all);
  v = from_text_ok (DDB_TYPE_B, b64);
  g_assert_cmpmem (v->bytes.data, v->bytes.len, all, sizeof all);
  back = ddb_eb_value_to_text (v);
  g_assert_cmpstr (back, ==, b64);
  g_assert_cmpuint (empty->bytes.len, ==, 0);

  check_refused (DDB_TYPE_B, "AAE",
                 "Base64 comes in groups of 4 characters (padded with =), but this has 3");
  check_refused (DDB_TYPE_B, "AA*=",
                 "Character 3 of the base64, “*”, is not allowed there (A-Z, a-z, 0-9, + and /, "
                 "then = only as padding)");
  check_refused (DDB_TYPE_B, "AB==",
                 "The base64 ends in “B”, whose unused bits are not zero: it encodes no bytes "
                 "exactly");
  check_refused (DDB_TYPE_B, "AA\tA",
                 "Byte 3 of the base64 (0x09) is not in the base64 alphabet (A-Z, a-z, 0-9, + "
                 "and /)");
}

static void
test_bool_and_null (void)
{
  check (DDB_TYPE_BOOL, "true", "{'BOOL': true}");
  check (DDB_TYPE_BOOL, " FALSE", "{'BOOL': false}");
  check (DDB_TYPE_NULL, "", "{'NULL': true}");
  check (DDB_TYPE_NULL, "null", "{'NULL': true}");
  check_refused (DDB_TYPE_BOOL, "yes", "A boolean is true or false, not “yes”");
  check_refused (DDB_TYPE_NULL, "0", "A null holds nothing: leave it empty or write null, not “0”");
}

static void
test_documents (void)
{
  /* plain JSON, numbers exact */
  check (DDB_TYPE_M, "{'a': 1.0000000000000000000000000000000000001, 'b': [true, null, 'x']}",
         "{'M': {'a': {'N': '1.0000000000000000000000000000000000001'},"
         " 'b': {'L': [{'BOOL': true}, {'NULL': true}, {'S': 'x'}]}}}");
  /* DynamoDB JSON, as an item or typed */
  check (DDB_TYPE_M, "{'a': {'S': 'x'}, 'n': {'N': '1'}}",
         "{'M': {'a': {'S': 'x'}, 'n': {'N': '1'}}}");
  check (DDB_TYPE_M, "{'M': {'a': {'B': 'AAE='}}}", "{'M': {'a': {'B': 'AAE='}}}");
  check (DDB_TYPE_M, "{}", "{'M': {}}");
  check (DDB_TYPE_L, "[1, 'a', {'$SS': ['x']}]",
         "{'L': [{'N': '1'}, {'S': 'a'}, {'SS': ['x']}]}");
  check (DDB_TYPE_L, "[{'S': 'x'}, {'N': '2'}]", "{'L': [{'S': 'x'}, {'N': '2'}]}");
  check (DDB_TYPE_L, "{'L': []}", "{'L': []}");
  check (DDB_TYPE_L, "[]", "{'L': []}");

  check_refused (DDB_TYPE_M, "[1]", "The text is a list (L), not a map (M)");
  check_refused (DDB_TYPE_L, "{'SS': ['a']}", "The text is a string set (SS), not a list (L)");
  check_refused (DDB_TYPE_M, "", "a map (M) is written as JSON, e.g. {\"a\": 1}");
  check_refused (DDB_TYPE_M, "{'a': 1,}",
                 "The JSON is refused: line 1, column 9: a comma cannot follow the last member "
                 "of an object");
  check_refused (DDB_TYPE_M, "{'a': {'N': 'x'}}",
                 "The DynamoDB JSON is refused: The parameter cannot be converted to a numeric "
                 "value: x; attribute path: a");
}

static void
test_documents_round_trip (void)
{
  /* a map of maps whose plain JSON would read as DynamoDB JSON comes back as DynamoDB JSON */
  static const char *const values[] = {
    "{'M': {'a': {'M': {'S': {'S': 'x'}}}}}",
    "{'L': [{'M': {'N': {'S': '1'}}}]}",
    "{'M': {'b': {'B': 'AAEC'}, 's': {'NS': ['1', '2.5']}, 'e': {'S': ''}}}",
    "{'M': {'$x': {'S': 'tag-like'}}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *text = tu_dq (values[i]);
      g_autoptr (DdbValue) v = NULL;
      g_autofree char *shown = NULL;
      g_autoptr (DdbValue) back = NULL;

      v = ddb_json_parse_value (text, -1, NULL);
      g_assert_nonnull (v);
      shown = ddb_eb_value_to_text (v);
      back = from_text_ok (v->type, shown);
      if (!ddb_value_equal (back, v))
        g_error ("%s shown as %s reads back differently", text, shown);
    }
}

static void
test_sets (void)
{
  g_autoptr (DdbValue) ss = from_text_ok (DDB_TYPE_SS, "[\"a\", \"b\"]");
  g_autoptr (DdbValue) bs = NULL;
  g_autofree char *text = ddb_eb_value_to_text (ss);
  g_autofree char *all = NULL;
  g_autofree char *encoded = NULL;
  guchar bytes[256];

  g_assert_cmpstr (text, ==, "[\"a\",\"b\"]");
  check (DDB_TYPE_SS, "['a', 'b', '']", "{'SS': ['a', 'b', '']}");
  check (DDB_TYPE_SS, "{'SS': ['a']}", "{'SS': ['a']}");
  check (DDB_TYPE_SS, "[{'S': 'a'}, {'S': 'b'}]", "{'SS': ['a', 'b']}");
  check (DDB_TYPE_NS, "[1, 2.5, '1E-130']", "{'NS': ['1', '2.5', '1E-130']}");
  check (DDB_TYPE_NS, "{'NS': ['3']}", "{'NS': ['3']}");
  check (DDB_TYPE_BS, "['AAE=', '/w==', '']", "{'BS': ['AAE=', '/w==', '']}");
  check (DDB_TYPE_SS, "{'$SS': ['x']}", "{'SS': ['x']}");

  for (guint i = 0; i < 256; i++)
    bytes[i] = (guchar) (255 - i);
  encoded = ddb_base64_encode (bytes, sizeof bytes);
  all = g_strdup_printf ("[\"%s\", \"AA==\"]", encoded);
  bs = from_text_ok (DDB_TYPE_BS, all);
  g_assert_cmpuint (ddb_value_set_size (bs), ==, 2);

  check_refused (DDB_TYPE_SS, "[]", "A set needs at least one element");
  check_refused (DDB_TYPE_SS, "['a', 'a']",
                 "Element 2 of a string set (SS), “a”, is already in it: a set holds each "
                 "element once");
  check_refused (DDB_TYPE_NS, "[1, 1.0]",
                 "Element 2 of a number set (NS), “1”, is already in it: a set holds each "
                 "element once");
  check_refused (DDB_TYPE_SS, "['a', 2]",
                 "Element 2 of a string set (SS) is a number (N), not a string (S)");
  check_refused (DDB_TYPE_NS, "[1, 'x']",
                 "Element 2 of a number set (NS): “x” is not a number DynamoDB can store: The "
                 "parameter cannot be converted to a numeric value: x");
  check_refused (DDB_TYPE_BS, "['AAE']",
                 "Element 1 of a binary set (BS): Base64 comes in groups of 4 characters (padded "
                 "with =), but this has 3");
  check_refused (DDB_TYPE_SS, "{'SS': ['a', 'a']}",
                 "The DynamoDB JSON is refused: One or more parameter values were invalid: Input "
                 "collection [a, a] contains duplicates.");
  check_refused (DDB_TYPE_NS, "'1'", "The text is a string (S), not a number set (NS)");
}

static void
test_nesting (void)
{
  GString *deep = g_string_new (NULL);
  GError *error = NULL;
  g_autoptr (DdbValue) ok = NULL;

  /* a list value at level 1 may wrap a scalar in 31 lists, not 32 */
  for (guint i = 0; i < 31; i++)
    g_string_append_c (deep, '[');
  g_string_append (deep, "1");
  for (guint i = 0; i < 31; i++)
    g_string_append_c (deep, ']');
  ok = ddb_eb_value_from_text (DDB_TYPE_L, deep->str, &error);
  g_assert_no_error (error);
  g_string_prepend_c (deep, '[');
  g_string_append_c (deep, ']');
  g_assert_null (ddb_eb_value_from_text (DDB_TYPE_L, deep->str, &error));
  g_assert_true (g_str_has_suffix (error->message,
                                   "]): the value is nested more than 32 levels deep, which "
                                   "DynamoDB does not allow"));
  g_clear_error (&error);
  g_string_free (deep, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/exprbuild/value/strings", test_strings);
  g_test_add_func ("/exprbuild/value/numbers", test_numbers);
  g_test_add_func ("/exprbuild/value/binary", test_binary);
  g_test_add_func ("/exprbuild/value/bool-and-null", test_bool_and_null);
  g_test_add_func ("/exprbuild/value/documents", test_documents);
  g_test_add_func ("/exprbuild/value/documents-round-trip", test_documents_round_trip);
  g_test_add_func ("/exprbuild/value/sets", test_sets);
  g_test_add_func ("/exprbuild/value/nesting", test_nesting);
  return g_test_run ();
}
