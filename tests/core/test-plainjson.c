/* test-plainjson.c: plain JSON reading and writing: exact numbers, the tagged form for binary
 * and sets, STRICT refusals, and every class of malformed input with its line and column. */
#include <string.h>

#include "core/error.h"
#include "core/plainjson.h"

#include "test-util.h"

#define D38 "12345678901234567890123456789012345678"

static DdbValue *
parse_ok (const char *text, DdbPlainFlags flags)
{
  GError *error = NULL;
  DdbValue *v = ddb_plain_parse_value (text, -1, flags, &error);

  g_assert_no_error (error);
  g_assert_nonnull (v);
  return v;
}

static char *
format_ok (const DdbValue *v, DdbPlainFlags flags)
{
  GError *error = NULL;
  char *text = ddb_plain_format_value (v, flags, &error);

  g_assert_no_error (error);
  g_assert_nonnull (text);
  return text;
}

static void
assert_parse_error_flags (const char *text, gssize len, DdbPlainFlags flags, const char *message)
{
  GError *error = NULL;
  DdbValue *v = ddb_plain_parse_value (text, len, flags, &error);

  g_assert_null (v);
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  g_error_free (error);
}

static void
assert_parse_error (const char *text, const char *message)
{
  assert_parse_error_flags (text, -1, DDB_PLAIN_TAGGED, message);
}

static void
assert_format_error (const DdbValue *v, DdbPlainFlags flags, const char *message)
{
  GError *error = NULL;
  char *text = ddb_plain_format_value (v, flags, &error);

  g_assert_null (text);
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  g_error_free (error);
}

/* Formats `text`'s value and checks the output, then that the output reads back equal. */
static void
assert_round_trip (const char *text, DdbPlainFlags flags, const char *expected)
{
  g_autoptr (DdbValue) v = parse_ok (text, flags);
  g_autofree char *out = format_ok (v, flags);
  g_autoptr (DdbValue) back = parse_ok (out, flags);
  g_autofree char *again = format_ok (back, flags);

  g_assert_cmpstr (out, ==, expected);
  g_assert_true (ddb_value_equal (v, back));
  g_assert_cmpstr (again, ==, out);
}

/* Numbers */

static void
test_numbers_exact (void)
{
  g_autofree char *zeros129 = g_strnfill (129, '0');
  g_autofree char *zeros88 = g_strnfill (88, '0');
  g_autofree char *tiny = g_strconcat ("0.", zeros129, "1", NULL);
  g_autofree char *neg_tiny = g_strconcat ("-", tiny, NULL);
  g_autofree char *huge = g_strconcat ("99999999999999999999999999999999999999", zeros88, NULL);
  g_autoptr (DdbValue) v = NULL;
  g_autoptr (DdbValue) expected = NULL;
  g_autofree char *out = NULL;

  /* 38 digits, every one kept (a double keeps about 17). */
  assert_round_trip (D38, DDB_PLAIN_TAGGED, D38);
  assert_round_trip ("-" D38, DDB_PLAIN_TAGGED, "-" D38);
  assert_round_trip ("0.00" D38, DDB_PLAIN_TAGGED, "0.00" D38);
  assert_round_trip ("1.2345678901234567890123456789012345678e-5", DDB_PLAIN_TAGGED,
                     "0.000012345678901234567890123456789012345678");

  /* The ends of the range. */
  v = parse_ok ("1E-130", DDB_PLAIN_TAGGED);
  expected = tu_num ("1E-130");
  g_assert_cmpint (v->type, ==, DDB_TYPE_N);
  g_assert_true (ddb_value_equal (v, expected));
  out = format_ok (v, DDB_PLAIN_TAGGED);
  g_assert_cmpstr (out, ==, tiny);
  assert_round_trip (tiny, DDB_PLAIN_TAGGED, tiny);
  assert_round_trip ("-1e-130", DDB_PLAIN_TAGGED, neg_tiny);
  assert_round_trip ("9.9999999999999999999999999999999999999E+125", DDB_PLAIN_TAGGED, huge);

  /* Canonical text: 1.0 and 1E0 are 1, -0 is 0, exponents become plain digits. */
  assert_round_trip ("[1.0, 1E0, 10E-1, -0, 0.0, 1e2, 1.5E-7, -2.50]", DDB_PLAIN_TAGGED,
                     "[1,1,1,0,0,100,0.00000015,-2.5]");
  assert_round_trip ("[0e0,0E+5,-0.000]", DDB_PLAIN_TAGGED, "[0,0,0]");
}

static void
test_numbers_not_storable (void)
{
  /* 39 significant digits: refused, not rounded; the message says which number and where. */
  assert_parse_error ("{\"a\": {\"b\": [0, 1,\n  123456789012345678901234567890123456789]}}",
                      "line 2, column 3 (at a.b[2]): number "
                      "123456789012345678901234567890123456789 has more than 38 significant "
                      "digits, which DynamoDB cannot store exactly (it is not rounded)");
  assert_parse_error ("1.23456789012345678901234567890123456789",
                      "line 1, column 1: number 1.23456789012345678901234567890123456789 has "
                      "more than 38 significant digits, which DynamoDB cannot store exactly (it "
                      "is not rounded)");
  /* A long token is shortened in the message but keeps its start and end. */
  assert_parse_error ("[0.0000000000000000000000000000000000000000001234567890123456789012345678"
                      "9012345678901]",
                      "line 1, column 2 (at [0]): number 0.0000000000000000000000...012345678901"
                      " (85 characters) has more than 38 significant digits, which "
                      "DynamoDB cannot store exactly (it is not rounded)");
  assert_parse_error ("{\"big\": 1E126}",
                      "line 1, column 9 (at big): number 1E126 is too large: DynamoDB numbers "
                      "range in magnitude up to 9.9999999999999999999999999999999999999E+125");
  assert_parse_error ("{\"small\": -1e-131}",
                      "line 1, column 11 (at small): number -1e-131 is too small: the smallest "
                      "magnitude DynamoDB can store, other than 0, is 1E-130");
  /* Valid JSON that DynamoDB's number reader refuses outright. */
  assert_parse_error ("0e99999999999",
                      "line 1, column 1: number 0e99999999999 cannot be stored in DynamoDB: The "
                      "parameter cannot be converted to a numeric value: 0e99999999999");
}

static void
test_numbers_grammar (void)
{
  /* DynamoDB itself takes +1, .5 and 5., but JSON does not. */
  assert_parse_error ("+1", "line 1, column 1: a number cannot start with '+'");
  assert_parse_error ("[.5]",
                      "line 1, column 2 (at [0]): a number needs a digit before the decimal "
                      "point");
  assert_parse_error ("[5.]",
                      "line 1, column 4 (at [0]): expected a digit after the decimal point, "
                      "found ']'");
  assert_parse_error ("01", "line 1, column 1: numbers cannot have leading zeros");
  assert_parse_error ("-01", "line 1, column 1: numbers cannot have leading zeros");
  assert_parse_error ("-", "line 1, column 2: expected a digit after '-', found the end of the "
                           "input");
  assert_parse_error ("- 1", "line 1, column 2: expected a digit after '-', found ' '");
  assert_parse_error ("1e", "line 1, column 3: expected a digit in the exponent, found the end "
                            "of the input");
  assert_parse_error ("1E+x", "line 1, column 4: expected a digit in the exponent, found 'x'");
  assert_parse_error ("0x10", "line 1, column 2: unexpected 'x' after the end of the JSON value");
  assert_parse_error ("1.2.3", "line 1, column 4: unexpected '.' after the end of the JSON "
                               "value");
  assert_parse_error ("[NaN]",
                      "line 1, column 2 (at [0]): 'NaN' is not a JSON value (text must be in "
                      "double quotes; the literals are true, false and null, in lower case)");
  assert_parse_error ("-Infinity", "line 1, column 2: expected a digit after '-', found 'I'");
}

/* Types and the tagged form */

static void
test_scalars (void)
{
  g_autoptr (DdbValue) t = parse_ok ("true", DDB_PLAIN_TAGGED);
  g_autoptr (DdbValue) f = parse_ok (" false ", DDB_PLAIN_TAGGED);
  g_autoptr (DdbValue) n = parse_ok ("\tnull\r\n", DDB_PLAIN_TAGGED);
  g_autoptr (DdbValue) s = parse_ok ("\"\"", DDB_PLAIN_TAGGED);
  g_autoptr (DdbValue) l = parse_ok ("[]", DDB_PLAIN_TAGGED);
  g_autoptr (DdbValue) m = parse_ok ("{}", DDB_PLAIN_TAGGED);

  g_assert_cmpint (t->type, ==, DDB_TYPE_BOOL);
  g_assert_true (t->boolean);
  g_assert_cmpint (f->type, ==, DDB_TYPE_BOOL);
  g_assert_false (f->boolean);
  g_assert_cmpint (n->type, ==, DDB_TYPE_NULL);
  g_assert_cmpint (s->type, ==, DDB_TYPE_S);
  g_assert_cmpuint (s->bytes.len, ==, 0);
  g_assert_cmpint (l->type, ==, DDB_TYPE_L);
  g_assert_cmpuint (ddb_value_list_size (l), ==, 0);
  g_assert_cmpint (m->type, ==, DDB_TYPE_M);
  g_assert_cmpuint (ddb_value_map_size (m), ==, 0);
}

static void
test_tagged_round_trip (void)
{
  const char *text = "{\"s\":\"x\",\"n\":-1.5,\"b\":{\"$B\":\"AAEC/w==\"},"
                     "\"empty_b\":{\"$B\":\"\"},\"t\":true,\"f\":false,\"nul\":null,"
                     "\"m\":{\"k\":[1,\"two\",{}]},\"l\":[],"
                     "\"ss\":{\"$SS\":[\"b\",\"a\",\"\"]},\"ns\":{\"$NS\":[3,-0.5,1E-130]},"
                     "\"bs\":{\"$BS\":[\"AA==\",\"AAA=\",\"\"]}}";
  g_autoptr (DdbValue) v = parse_ok (text, DDB_PLAIN_TAGGED);
  DdbValue *b = ddb_value_map_get (v, "b");
  DdbValue *ss = ddb_value_map_get (v, "ss");
  DdbValue *ns = ddb_value_map_get (v, "ns");
  DdbValue *bs = ddb_value_map_get (v, "bs");
  g_autoptr (DdbValue) tiny = tu_num ("1E-130");
  g_autofree char *zeros129 = g_strnfill (129, '0');
  g_autofree char *tiny_text = g_strconcat ("0.", zeros129, "1", NULL);
  g_autofree char *expected = NULL;

  g_assert_cmpint (b->type, ==, DDB_TYPE_B);
  g_assert_cmpuint (b->bytes.len, ==, 4);
  g_assert_cmpmem (b->bytes.data, 4, "\x00\x01\x02\xff", 4);
  g_assert_cmpint (ddb_value_map_get (v, "empty_b")->type, ==, DDB_TYPE_B);
  g_assert_cmpint (ss->type, ==, DDB_TYPE_SS);
  g_assert_cmpuint (ddb_value_set_size (ss), ==, 3);
  g_assert_cmpint (ns->type, ==, DDB_TYPE_NS);
  g_assert_true (ddb_value_set_contains (ns, tiny));
  g_assert_cmpint (bs->type, ==, DDB_TYPE_BS);
  g_assert_cmpuint (ddb_value_set_size (bs), ==, 3);

  /* Insertion order everywhere, sets included. */
  expected = g_strconcat ("{\"s\":\"x\",\"n\":-1.5,\"b\":{\"$B\":\"AAEC/w==\"},"
                          "\"empty_b\":{\"$B\":\"\"},\"t\":true,\"f\":false,\"nul\":null,"
                          "\"m\":{\"k\":[1,\"two\",{}]},\"l\":[],"
                          "\"ss\":{\"$SS\":[\"b\",\"a\",\"\"]},\"ns\":{\"$NS\":[3,-0.5,",
                          tiny_text, "]},\"bs\":{\"$BS\":[\"AA==\",\"AAA=\",\"\"]}}", NULL);
  assert_round_trip (text, DDB_PLAIN_TAGGED, expected);
}

/* Maps that look like tags are wrapped in "$M" and come back as the same maps. */
static void
test_dollar_maps (void)
{
  g_autoptr (DdbValue) m = ddb_value_new_m ();
  g_autoptr (DdbValue) inner = ddb_value_new_m ();
  g_autoptr (DdbValue) back = NULL;
  g_autofree char *out = NULL;
  g_autofree char *pretty = NULL;
  DdbValue *x;

  /* A map {"$B": "x"} (an S, not base64) and a map {"$M": {"$SS": 1}}. */
  ddb_value_map_set (inner, "$SS", tu_num ("1"));
  ddb_value_map_set (m, "$M", g_steal_pointer (&inner));
  x = ddb_value_new_m ();
  ddb_value_map_set (x, "$B", ddb_value_new_s ("x", -1));
  inner = ddb_value_new_l ();
  ddb_value_list_append (inner, x);
  ddb_value_list_append (inner, ddb_value_new_m ());
  {
    DdbValue *dollar = ddb_value_new_m ();
    ddb_value_map_set (dollar, "$", ddb_value_new_null ());
    ddb_value_list_append (inner, dollar);
  }
  {
    DdbValue *two = ddb_value_new_m ();
    ddb_value_map_set (two, "$B", ddb_value_new_s ("not base64", -1));
    ddb_value_map_set (two, "$SS", ddb_value_new_bool (TRUE));
    ddb_value_list_append (inner, two);
  }
  {
    DdbValue *plain = ddb_value_new_m ();
    ddb_value_map_set (plain, "a$", tu_num ("2"));
    ddb_value_list_append (inner, plain);
  }
  ddb_value_map_set (m, "list", g_steal_pointer (&inner));

  out = format_ok (m, DDB_PLAIN_TAGGED);
  g_assert_cmpstr (out, ==,
                   "{\"$M\":{\"$M\":{\"$SS\":1}},\"list\":[{\"$M\":{\"$B\":\"x\"}},{},"
                   "{\"$M\":{\"$\":null}},{\"$B\":\"not base64\",\"$SS\":true},{\"a$\":2}]}");
  back = parse_ok (out, DDB_PLAIN_TAGGED);
  g_assert_true (ddb_value_equal (m, back));

  /* The outer map alone: its only key is "$M", so it is wrapped too. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&back, ddb_value_free);
  ddb_value_map_remove (m, "list");
  out = format_ok (m, DDB_PLAIN_TAGGED);
  g_assert_cmpstr (out, ==, "{\"$M\":{\"$M\":{\"$M\":{\"$SS\":1}}}}");
  back = parse_ok (out, DDB_PLAIN_TAGGED);
  g_assert_true (ddb_value_equal (m, back));
  pretty = format_ok (m, DDB_PLAIN_TAGGED | DDB_PLAIN_PRETTY);
  g_assert_cmpstr (pretty, ==,
                   "{\n"
                   "  \"$M\": {\n"
                   "    \"$M\": {\n"
                   "      \"$M\": {\n"
                   "        \"$SS\": 1\n"
                   "      }\n"
                   "    }\n"
                   "  }\n"
                   "}");
  g_clear_pointer (&back, ddb_value_free);
  back = parse_ok (pretty, DDB_PLAIN_TAGGED);
  g_assert_true (ddb_value_equal (m, back));

  /* STRICT writes such maps as they are, and reads them literally. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&back, ddb_value_free);
  out = format_ok (m, DDB_PLAIN_STRICT);
  g_assert_cmpstr (out, ==, "{\"$M\":{\"$SS\":1}}");
  back = parse_ok (out, DDB_PLAIN_STRICT);
  g_assert_true (ddb_value_equal (m, back));

  /* An unwrapped single "$" key that is no tag is an error, not a guess. */
  assert_parse_error ("{\"a\": {\"$x\": 1}}",
                      "line 1, column 8 (at a): \"$x\" is not a known tag ($B, $SS, $NS, $BS, "
                      "$M); a map whose only key starts with '$' must be wrapped as "
                      "{\"$M\": {...}}");
  assert_parse_error ("{\"$\": 1}",
                      "line 1, column 2: \"$\" is not a known tag ($B, $SS, $NS, $BS, $M); a map "
                      "whose only key starts with '$' must be wrapped as {\"$M\": {...}}");
  /* A tag key written with an escape is still the tag. */
  {
    g_autoptr (DdbValue) esc = parse_ok ("{\"\\u0024B\": \"AA==\"}", DDB_PLAIN_TAGGED);
    g_assert_cmpint (esc->type, ==, DDB_TYPE_B);
  }
}

static void
test_tag_errors (void)
{
  assert_parse_error ("{\"photo\": {\"$B\": \"AAE\"}}",
                      "line 1, column 18 (at photo): invalid base64 in \"$B\": its length is not "
                      "a multiple of 4 (it must be padded with '=')");
  assert_parse_error ("{\"photo\": {\"$B\": \"AA=A\"}}",
                      "line 1, column 21 (at photo): invalid base64 in \"$B\": a character that "
                      "is not standard base64 (only A-Z a-z 0-9 + / and '=' as padding at the "
                      "end; no spaces or line breaks)");
  assert_parse_error ("{\"$B\": \"AB==\"}",
                      "line 1, column 10: invalid base64 in \"$B\": the unused bits of the last "
                      "character are not zero, so this is not the standard encoding of any "
                      "bytes");
  assert_parse_error ("{\"$B\": 12}",
                      "line 1, column 8: the value of \"$B\" must be a base64 string, found a "
                      "number");
  assert_parse_error ("{\"tags\": {\"$SS\": []}}",
                      "line 1, column 18 (at tags): \"$SS\" is an empty set, which DynamoDB does "
                      "not allow: a set holds at least one element");
  assert_parse_error ("{\"tags\": {\"$SS\": [\"a\", \"b\", \"a\"]}}",
                      "line 1, column 29 (at tags[2]): \"a\" appears twice in \"$SS\"; the "
                      "elements of a set are unique");
  assert_parse_error ("{\"$NS\": [1, 2, 1.0]}",
                      "line 1, column 16 (at [2]): 1.0 appears twice in \"$NS\"; the elements of "
                      "a set are unique (numbers are compared by value: 1 = 1.0)");
  assert_parse_error ("{\"$BS\": [\"AA==\", \"AA==\"]}",
                      "line 1, column 18 (at [1]): \"AA==\" appears twice in \"$BS\"; the elements "
                      "of a set are unique");
  assert_parse_error ("{\"$NS\": [1, \"2\"]}",
                      "line 1, column 13 (at [1]): the elements of \"$NS\" must be numbers, "
                      "found a string");
  assert_parse_error ("{\"$SS\": [\"a\", 2]}",
                      "line 1, column 15 (at [1]): the elements of \"$SS\" must be strings, "
                      "found a number");
  assert_parse_error ("{\"$BS\": [null]}",
                      "line 1, column 10 (at [0]): the elements of \"$BS\" must be base64 strings, "
                      "found null");
  assert_parse_error ("{\"$BS\": [\"AA==\", \"A\"]}",
                      "line 1, column 18 (at [1]): invalid base64 in \"$BS\": its length is not a "
                      "multiple of 4 (it must be padded with '=')");
  assert_parse_error ("{\"$SS\": \"a\"}",
                      "line 1, column 9: the value of \"$SS\" must be an array of strings, found a "
                      "string");
  assert_parse_error ("{\"$NS\": [1,]}",
                      "line 1, column 12: a comma cannot follow the last element of an array");
  assert_parse_error ("{\"$NS\": [1E200]}",
                      "line 1, column 10 (at [0]): number 1E200 is too large: DynamoDB numbers "
                      "range in magnitude up to 9.9999999999999999999999999999999999999E+125");
  assert_parse_error ("{\"$M\": [1]}",
                      "line 1, column 8: the value of \"$M\" must be an object, found an array");
}

static void
test_strict (void)
{
  g_autoptr (DdbValue) item = parse_ok ("{\"a\": {\"b\": {\"$B\": \"AA==\"}}, \"c\": [0, {\"$SS\": "
                                        "[\"x\"]}], \"d\": {\"$NS\": [1]}, \"e\": {\"$BS\": "
                                        "[\"AA==\"]}, \"x.y\": {\"$B\": \"\"}}",
                                        DDB_PLAIN_TAGGED);
  g_autoptr (DdbValue) literal = NULL;
  g_autofree char *out = NULL;
  DdbValue *m;

  assert_format_error (item, DDB_PLAIN_STRICT,
                       "attribute a.b is a binary value (B), which plain JSON cannot represent; "
                       "use DynamoDB JSON or the tagged form");
  ddb_value_map_remove (item, "a");
  assert_format_error (item, DDB_PLAIN_STRICT,
                       "attribute c[1] is a string set (SS), which plain JSON cannot represent; "
                       "use DynamoDB JSON or the tagged form");
  ddb_value_map_remove (item, "c");
  assert_format_error (item, DDB_PLAIN_STRICT | DDB_PLAIN_PRETTY,
                       "attribute d is a number set (NS), which plain JSON cannot represent; use "
                       "DynamoDB JSON or the tagged form");
  ddb_value_map_remove (item, "d");
  assert_format_error (item, DDB_PLAIN_STRICT,
                       "attribute e is a binary set (BS), which plain JSON cannot represent; use "
                       "DynamoDB JSON or the tagged form");
  ddb_value_map_remove (item, "e");
  assert_format_error (item, DDB_PLAIN_STRICT,
                       "attribute \"x.y\" is a binary value (B), which plain JSON cannot "
                       "represent; use DynamoDB JSON or the tagged form");
  ddb_value_map_remove (item, "x.y");
  out = format_ok (item, DDB_PLAIN_STRICT);
  g_assert_cmpstr (out, ==, "{}");

  {
    g_autoptr (DdbValue) b = ddb_value_new_b ("", 0);
    assert_format_error (b, DDB_PLAIN_STRICT,
                         "the value is a binary value (B), which plain JSON cannot represent; "
                         "use DynamoDB JSON or the tagged form");
  }

  /* Reading STRICT: tags are ordinary maps, and "$x" keys are no error. */
  literal = parse_ok ("{\"$B\": \"AA==\"}", DDB_PLAIN_STRICT);
  g_assert_cmpint (literal->type, ==, DDB_TYPE_M);
  g_assert_cmpint (ddb_value_map_get (literal, "$B")->type, ==, DDB_TYPE_S);
  g_clear_pointer (&literal, ddb_value_free);
  literal = parse_ok ("{\"$SS\": [\"a\", \"a\"], \"$x\": {\"$M\": 1}}", DDB_PLAIN_STRICT);
  m = ddb_value_map_get (literal, "$x");
  g_assert_cmpint (m->type, ==, DDB_TYPE_M);
  g_assert_cmpint (ddb_value_map_get (m, "$M")->type, ==, DDB_TYPE_N);
  g_assert_cmpint (ddb_value_map_get (literal, "$SS")->type, ==, DDB_TYPE_L);
}

static void
test_format_refusals (void)
{
  g_autoptr (DdbValue) m = ddb_value_new_m ();
  g_autoptr (DdbValue) bad = ddb_value_new_s ("a\xff", 2);
  DdbValue *set = ddb_value_new_set (DDB_TYPE_SS);

  /* What could not be read back is not written. */
  ddb_value_map_set (m, "s", set);
  assert_format_error (m, DDB_PLAIN_TAGGED,
                       "attribute s is a string set (SS) that DynamoDB would refuse: One or more "
                       "parameter values were invalid: An string set  may not be empty");
  ddb_value_set_add (set, ddb_value_new_s ("a", -1));
  g_ptr_array_add (set->elems, ddb_value_new_s ("a", -1));
  assert_format_error (m, DDB_PLAIN_TAGGED,
                       "attribute s is a string set (SS) that DynamoDB would refuse: One or more "
                       "parameter values were invalid: Input collection [a, a] contains "
                       "duplicates.");
  ddb_value_map_remove (m, "s");
  ddb_value_map_set (m, "t", ddb_value_copy (bad));
  assert_format_error (m, DDB_PLAIN_TAGGED, "attribute t is a string that is not valid UTF-8");
  assert_format_error (bad, DDB_PLAIN_STRICT, "the value is a string that is not valid UTF-8");
  {
    g_autoptr (DdbValue) named = ddb_value_new_m ();
    ddb_value_map_append (named, "k\xc3", 2, ddb_value_new_null ());
    assert_format_error (named, DDB_PLAIN_TAGGED,
                         "the value has an attribute name that is not valid UTF-8");
  }
  {
    g_autoptr (DdbValue) l = ddb_value_new_l ();
    ddb_value_list_append (l, ddb_value_new_bool (TRUE));
    ddb_value_list_append (l, ddb_value_new_b ("x", 1));
    assert_format_error (l, DDB_PLAIN_STRICT,
                         "element [1] is a binary value (B), which plain JSON cannot represent; "
                         "use DynamoDB JSON or the tagged form");
  }
  {
    GError *error = NULL;
    g_autoptr (DdbValue) l = ddb_value_new_l ();
    g_assert_null (ddb_plain_format_item (l, DDB_PLAIN_TAGGED, &error));
    tu_assert_error (error, DDB_ERROR_VALIDATION, "an item must be a map");
    g_error_free (error);
  }
}

/* Strings and Unicode */

static void
test_unicode (void)
{
  g_autoptr (DdbValue) v = parse_ok ("[\"\\u00e9\\u00C9\", \"\\uD83D\\uDE00\", "
                                     "\"a\\u0000b\", \"\\\"\\\\\\/\\b\\f\\n\\r\\t\", "
                                     "\"h\xc3\xa9 \xf0\x9f\x98\x80\"]",
                                     DDB_PLAIN_TAGGED);
  DdbValue *e;
  g_autofree char *out = NULL;
  g_autoptr (DdbValue) back = NULL;

  e = ddb_value_list_nth (v, 0);
  g_assert_cmpmem (e->bytes.data, e->bytes.len, "\xc3\xa9\xc3\x89", 4);
  e = ddb_value_list_nth (v, 1);
  g_assert_cmpmem (e->bytes.data, e->bytes.len, "\xf0\x9f\x98\x80", 4);
  e = ddb_value_list_nth (v, 2);
  g_assert_cmpmem (e->bytes.data, e->bytes.len, "a\0b", 3);
  e = ddb_value_list_nth (v, 3);
  g_assert_cmpmem (e->bytes.data, e->bytes.len, "\"\\/\b\f\n\r\t", 8);
  e = ddb_value_list_nth (v, 4);
  g_assert_cmpmem (e->bytes.data, e->bytes.len, "h\xc3\xa9 \xf0\x9f\x98\x80", 8);

  /* Written back: UTF-8 as it is, only what JSON requires escaped ('/' is not). */
  out = format_ok (v, DDB_PLAIN_TAGGED);
  g_assert_cmpstr (out, ==,
                   "[\"\xc3\xa9\xc3\x89\",\"\xf0\x9f\x98\x80\",\"a\\u0000b\","
                   "\"\\\"\\\\/\\b\\f\\n\\r\\t\",\"h\xc3\xa9 \xf0\x9f\x98\x80\"]");
  back = parse_ok (out, DDB_PLAIN_TAGGED);
  g_assert_true (ddb_value_equal (v, back));

  {
    g_autoptr (DdbValue) ctl = ddb_value_new_s ("\x01\x1f\x7f", 3);
    g_autofree char *t = format_ok (ctl, DDB_PLAIN_TAGGED);
    g_assert_cmpstr (t, ==, "\"\\u0001\\u001f\x7f\"");
  }

  /* Surrogates must pair up. */
  assert_parse_error ("\"ab\\uD800\"",
                      "line 1, column 4: \\uD800 is the first half of a UTF-16 surrogate pair, "
                      "but no second half (\\uDC00 to \\uDFFF) follows it");
  assert_parse_error ("\"\\uD83D\\u0041\"",
                      "line 1, column 2: \\uD83D is the first half of a UTF-16 surrogate pair, "
                      "but no second half (\\uDC00 to \\uDFFF) follows it");
  assert_parse_error ("\"\\uD83Dx\"",
                      "line 1, column 2: \\uD83D is the first half of a UTF-16 surrogate pair, "
                      "but no second half (\\uDC00 to \\uDFFF) follows it");
  assert_parse_error ("\"\\uDE00\\uD83D\"",
                      "line 1, column 2: \\uDE00 is the second half of a UTF-16 surrogate pair "
                      "without a first half");
  assert_parse_error ("\"\\u12G4\"", "line 1, column 2: \\u must be followed by four hex digits");
  assert_parse_error ("\"\\u12\"", "line 1, column 2: \\u must be followed by four hex digits");
  assert_parse_error ("{\"a\\u0000\": 1}",
                      "line 1, column 2: attribute names cannot contain U+0000");

  /* Columns count characters, not bytes. */
  assert_parse_error ("{\"\xc3\xa9t\xc3\xa9\": tru}",
                      "line 1, column 9 (at \xc3\xa9t\xc3\xa9): 'tru' is not a JSON value (text "
                      "must be in double quotes; the literals are true, false and null, in lower "
                      "case)");

  /* A byte order mark is skipped; one anywhere else is an error. */
  {
    g_autoptr (DdbValue) bom = parse_ok ("\xef\xbb\xbf[1]", DDB_PLAIN_TAGGED);
    g_assert_cmpint (bom->type, ==, DDB_TYPE_L);
  }
  assert_parse_error ("[\xef\xbb\xbf]",
                      "line 1, column 2 (at [0]): expected a value, found '\xef\xbb\xbf' "
                      "(U+FEFF)");
}

/* Malformed input: one case per class, each with its position. */
static void
test_malformed (void)
{
  g_autofree char *pretty = NULL;

  assert_parse_error ("", "line 1, column 1: expected a value, found the end of the input");
  assert_parse_error ("  \n ", "line 2, column 2: expected a value, found the end of the input");
  assert_parse_error ("{\"a\": \"abc",
                      "line 1, column 7 (at a): this string is not closed (a '\"' is missing)");
  assert_parse_error ("\"abc\\", "line 1, column 1: this string is not closed (a '\"' is missing)");
  assert_parse_error ("{\"a\": 1",
                      "line 1, column 8: expected ',' or '}' after a member of an object, found "
                      "the end of the input");
  assert_parse_error ("[1, 2",
                      "line 1, column 6: expected ',' or ']' after an element of an array, found "
                      "the end of the input");
  assert_parse_error ("[1 2]",
                      "line 1, column 4: expected ',' or ']' after an element of an array, found "
                      "'2'");
  assert_parse_error ("{\"a\" 1}", "line 1, column 6: expected ':' after the key, found '1'");
  assert_parse_error ("{\"a\": 1 \"b\": 2}",
                      "line 1, column 9: expected ',' or '}' after a member of an object, found "
                      "'\"'");
  assert_parse_error ("[1,\n 2,\n]",
                      "line 3, column 1: a comma cannot follow the last element of an array");
  assert_parse_error ("{\"a\": 1,}",
                      "line 1, column 9: a comma cannot follow the last member of an object");
  assert_parse_error ("[,]", "line 1, column 2 (at [0]): expected a value, found ','");
  assert_parse_error ("{a: 1}", "line 1, column 2: expected a key in double quotes, found 'a'");
  assert_parse_error ("{'a': 1}",
                      "line 1, column 2: expected a key in double quotes, found a single quote "
                      "(')");
  assert_parse_error ("['a']",
                      "line 1, column 2 (at [0]): expected a value, found a single quote (')");
  assert_parse_error ("{\"a\": 1, \"b\": {\"c\": 2, \"c\": 3}}",
                      "line 1, column 24 (at b): duplicate key \"c\": each key may appear only "
                      "once in an object");
  assert_parse_error ("{\"a\": \"line\nbreak\"}",
                      "line 1, column 12 (at a): control character U+000A must be written as an "
                      "escape inside a string");
  assert_parse_error ("\"tab\there\"",
                      "line 1, column 5: control character U+0009 must be written as an escape "
                      "inside a string");
  assert_parse_error ("\"\\x41\"",
                      "line 1, column 2: invalid escape: a backslash in a string must be followed "
                      "by one of \" \\ / b f n r t u, found 'x'");
  assert_parse_error ("\"\\'\"",
                      "line 1, column 2: invalid escape: a backslash in a string must be followed "
                      "by one of \" \\ / b f n r t u, found a single quote (')");
  /* UTF-8: overlong, encoded surrogate, truncated, stray continuation byte. */
  assert_parse_error ("\"\xc0\xaf\"", "line 1, column 2: the text is not valid UTF-8 (byte 0xC0)");
  assert_parse_error ("[\"ok\", \"\xed\xa0\x80\"]",
                      "line 1, column 9 (at [1]): the text is not valid UTF-8 (byte 0xED)");
  assert_parse_error ("\"\xe2\x82\"", "line 1, column 2: the text is not valid UTF-8 (byte 0xE2)");
  assert_parse_error ("\"\x80\"", "line 1, column 2: the text is not valid UTF-8 (byte 0x80)");
  assert_parse_error ("\xff", "line 1, column 1: expected a value, found a byte that is not UTF-8 "
                              "(0xFF)");
  /* Trailing garbage, comments, several values. */
  assert_parse_error ("{} x", "line 1, column 4: unexpected 'x' after the end of the JSON value");
  assert_parse_error ("[1]\n[2]", "line 2, column 1: unexpected '[' after the end of the JSON "
                                  "value");
  assert_parse_error ("[1] // note", "line 1, column 5: unexpected '/' after the end of the JSON "
                                     "value");
  assert_parse_error ("True",
                      "line 1, column 1: 'True' is not a JSON value (text must be in double "
                      "quotes; the literals are true, false and null, in lower case)");
  assert_parse_error ("nulll",
                      "line 1, column 1: 'nulll' is not a JSON value (text must be in double "
                      "quotes; the literals are true, false and null, in lower case)");
  assert_parse_error ("[1]\x01", "line 1, column 4: unexpected control character U+0001 after "
                                 "the end of the JSON value");
  /* A NUL byte inside the given length is input, not the end. */
  assert_parse_error_flags ("[1]\0", 4, DDB_PLAIN_TAGGED,
                            "line 1, column 4: unexpected control character U+0000 after the "
                            "end of the JSON value");
  assert_parse_error_flags ("\"a\0\"", 4, DDB_PLAIN_TAGGED,
                            "line 1, column 3: control character U+0000 must be written as an "
                            "escape inside a string");
  /* An explicit length ends the input early. */
  {
    g_autoptr (DdbValue) cut = NULL;
    GError *error = NULL;
    cut = ddb_plain_parse_value ("[1]garbage", 3, DDB_PLAIN_TAGGED, &error);
    g_assert_no_error (error);
    g_assert_cmpint (cut->type, ==, DDB_TYPE_L);
  }
  /* Positions in a multi-line document: line and column of the offending character. */
  pretty = g_strdup ("{\n  \"a\": {\n    \"b\": [\n      1,\n      2,\n      x\n    ]\n  }\n}");
  assert_parse_error (pretty,
                      "line 6, column 7 (at a.b[2]): 'x' is not a JSON value (text must be in "
                      "double quotes; the literals are true, false and null, in lower case)");
}

/* Nesting counts as ddb_value_validate() does: a value is level 1, each map or list adds one. */
static void
test_depth (void)
{
  GString *ok = g_string_new (NULL);
  GString *deep = g_string_new (NULL);
  g_autoptr (DdbValue) v = NULL;
  g_autoptr (DdbValue) too_deep = NULL;
  g_autofree char *out = NULL;
  GError *error = NULL;
  DdbValue *inner;

  /* 30 lists around a map (level 31) holding a set at level 32, the limit. Tags and the "$M"
   * wrapper are not levels; neither are set elements. */
  for (guint i = 0; i < 30; i++)
    g_string_append_c (ok, '[');
  g_string_append (ok, "{\"$M\":{\"$B\":{\"$SS\":[\"x\"]}}}");
  for (guint i = 0; i < 30; i++)
    g_string_append_c (ok, ']');
  v = parse_ok (ok->str, DDB_PLAIN_TAGGED);
  g_assert_true (ddb_value_validate (v, &error));
  g_assert_no_error (error);
  out = format_ok (v, DDB_PLAIN_TAGGED);
  g_assert_cmpstr (out, ==, ok->str);

  /* One more level is refused by the reader, by the writer and by ddb_value_validate(). */
  for (guint i = 0; i < 32; i++)
    g_string_append_c (deep, '[');
  g_string_append_c (deep, '1');
  for (guint i = 0; i < 32; i++)
    g_string_append_c (deep, ']');
  assert_parse_error (deep->str,
                      "line 1, column 33 (at [0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
                      "[0][0][0][0][0][0][0][0][0][0][0][0][0][0]): the value is nested more than "
                      "32 levels deep, which DynamoDB does not allow");
  too_deep = ddb_value_new_l ();
  inner = too_deep;
  for (guint i = 0; i < 31; i++)
    {
      DdbValue *l = ddb_value_new_l ();
      ddb_value_list_append (inner, l);
      inner = l;
    }
  ddb_value_list_append (inner, tu_num ("1"));
  g_assert_false (ddb_value_validate (too_deep, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_clear_error (&error);
  g_assert_null (ddb_plain_format_value (too_deep, DDB_PLAIN_TAGGED, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_assert_cmpstr (error->message, ==,
                   "element [0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
                   "[0][0][0][0][0][0][0][0][0] is nested more than 32 levels deep, which "
                   "DynamoDB does not allow");
  g_clear_error (&error);

  /* An item holds one level more: its attributes are at level 1. */
  {
    GString *item = g_string_new ("{\"a\": ");
    g_autoptr (DdbValue) it = NULL;
    g_autofree char *it_out = NULL;
    g_autofree char *expected = NULL;

    g_string_append (item, ok->str);
    g_string_append_c (item, '}');
    g_assert_null (ddb_plain_parse_value (item->str, -1, DDB_PLAIN_TAGGED, &error));
    g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
    g_clear_error (&error);
    it = ddb_plain_parse_item (item->str, -1, DDB_PLAIN_TAGGED, &error);
    g_assert_no_error (error);
    g_assert_true (ddb_item_validate (it, &error));
    g_assert_no_error (error);
    it_out = ddb_plain_format_item (it, DDB_PLAIN_TAGGED, &error);
    g_assert_no_error (error);
    expected = g_strconcat ("{\"a\":", ok->str, "}", NULL);
    g_assert_cmpstr (it_out, ==, expected);
    g_string_free (item, TRUE);
  }

  /* Nesting is bounded before the stack is: a megabyte of '[' fails cleanly. */
  {
    char *flood = g_strnfill (1 << 20, '[');
    assert_parse_error_flags (flood, 1 << 20, DDB_PLAIN_TAGGED,
                              "line 1, column 33 (at [0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
                              "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]): the value "
                              "is nested more than 32 levels deep, which DynamoDB does not allow");
    g_free (flood);
  }

  g_string_free (ok, TRUE);
  g_string_free (deep, TRUE);
}

static void
test_items (void)
{
  GError *error = NULL;
  g_autoptr (DdbValue) item
      = ddb_plain_parse_item ("{\"pk\": \"a\", \"n\": 1}", -1, DDB_PLAIN_TAGGED, &error);
  g_autoptr (DdbValue) wrapped = NULL;
  g_autofree char *out = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (item->type, ==, DDB_TYPE_M);
  out = ddb_plain_format_item (item, DDB_PLAIN_PRETTY, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out, ==, "{\n  \"pk\": \"a\",\n  \"n\": 1\n}");

  g_assert_null (ddb_plain_parse_item ("[1]", -1, DDB_PLAIN_TAGGED, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_assert_cmpstr (error->message, ==,
                   "line 1, column 1: an item must be a JSON object, found an array");
  g_clear_error (&error);
  g_assert_null (ddb_plain_parse_item ("\n {\"$SS\": [\"a\"]}", -1, DDB_PLAIN_TAGGED, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_assert_cmpstr (error->message, ==,
                   "line 2, column 2: an item must be a map, not a tagged SS value");
  g_clear_error (&error);

  /* An item whose only attribute starts with '$' is wrapped and read back. */
  wrapped = ddb_plain_parse_item ("{\"$M\": {\"$id\": 7}}", -1, DDB_PLAIN_TAGGED, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ddb_value_map_get (wrapped, "$id"));
  g_clear_pointer (&out, g_free);
  out = ddb_plain_format_item (wrapped, DDB_PLAIN_TAGGED, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out, ==, "{\"$M\":{\"$id\":7}}");
}

static void
test_pretty (void)
{
  const char *text = "{\"name\": \"Ada\", \"age\": 36, "
                     "\"tags\": {\"$SS\": [\"math\", \"poetry\"]}, "
                     "\"scores\": {\"$NS\": [1.50, 2]}, \"photo\": {\"$B\": \"iVBORw==\"}, "
                     "\"files\": {\"$BS\": [\"AA==\"]}, \"address\": {\"city\": \"London\", "
                     "\"zip\": null, \"geo\": [51.5, -0.12]}, \"empty\": {}, \"none\": [], "
                     "\"nested\": [[true], {\"$M\": {\"$ref\": \"x\"}}]}";
  g_autoptr (DdbValue) v = parse_ok (text, DDB_PLAIN_TAGGED);
  g_autofree char *out = format_ok (v, DDB_PLAIN_TAGGED | DDB_PLAIN_PRETTY);
  g_autoptr (DdbValue) back = parse_ok (out, DDB_PLAIN_TAGGED);

  g_assert_cmpstr (out, ==,
                   "{\n"
                   "  \"name\": \"Ada\",\n"
                   "  \"age\": 36,\n"
                   "  \"tags\": {\"$SS\": [\"math\", \"poetry\"]},\n"
                   "  \"scores\": {\"$NS\": [1.5, 2]},\n"
                   "  \"photo\": {\"$B\": \"iVBORw==\"},\n"
                   "  \"files\": {\"$BS\": [\"AA==\"]},\n"
                   "  \"address\": {\n"
                   "    \"city\": \"London\",\n"
                   "    \"zip\": null,\n"
                   "    \"geo\": [\n"
                   "      51.5,\n"
                   "      -0.12\n"
                   "    ]\n"
                   "  },\n"
                   "  \"empty\": {},\n"
                   "  \"none\": [],\n"
                   "  \"nested\": [\n"
                   "    [\n"
                   "      true\n"
                   "    ],\n"
                   "    {\n"
                   "      \"$M\": {\n"
                   "        \"$ref\": \"x\"\n"
                   "      }\n"
                   "    }\n"
                   "  ]\n"
                   "}");
  g_assert_true (ddb_value_equal (v, back));

  /* Scalars alone, and the compact form of the same value. */
  {
    g_autoptr (DdbValue) s = parse_ok ("\"x\"", DDB_PLAIN_TAGGED);
    g_autofree char *ps = format_ok (s, DDB_PLAIN_PRETTY);
    g_autofree char *compact = format_ok (v, DDB_PLAIN_TAGGED);
    g_assert_cmpstr (ps, ==, "\"x\"");
    g_assert_cmpstr (compact, ==,
                     "{\"name\":\"Ada\",\"age\":36,\"tags\":{\"$SS\":[\"math\",\"poetry\"]},"
                     "\"scores\":{\"$NS\":[1.5,2]},\"photo\":{\"$B\":\"iVBORw==\"},"
                     "\"files\":{\"$BS\":[\"AA==\"]},\"address\":{\"city\":\"London\","
                     "\"zip\":null,\"geo\":[51.5,-0.12]},\"empty\":{},\"none\":[],"
                     "\"nested\":[[true],{\"$M\":{\"$ref\":\"x\"}}]}");
  }
}

/* Large objects switch duplicate detection to a hash table; it must still catch duplicates. */
static void
test_large_object (void)
{
  GString *text = g_string_new ("{");
  g_autoptr (DdbValue) v = NULL;
  g_autofree char *out = NULL;

  for (guint i = 0; i < 200; i++)
    g_string_append_printf (text, "%s\"k%u\": %u", i > 0 ? ", " : "", i, i);
  g_string_append (text, "}");
  v = parse_ok (text->str, DDB_PLAIN_TAGGED);
  g_assert_cmpuint (ddb_value_map_size (v), ==, 200);
  g_assert_cmpstr (ddb_value_map_nth (v, 199)->name, ==, "k199");

  g_string_truncate (text, text->len - 1);
  /* 1 + 10 * 7 + 90 * 9 + 100 * 11 + 199 * 2 = 2379 characters, then ", ": the key is at 2382. */
  g_string_append (text, ", \"k17\": 0}");
  assert_parse_error (text->str, "line 1, column 2382: duplicate key \"k17\": each key may "
                                 "appear only once in an object");
  g_string_free (text, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plainjson/numbers/exact", test_numbers_exact);
  g_test_add_func ("/plainjson/numbers/not-storable", test_numbers_not_storable);
  g_test_add_func ("/plainjson/numbers/grammar", test_numbers_grammar);
  g_test_add_func ("/plainjson/scalars", test_scalars);
  g_test_add_func ("/plainjson/tagged/round-trip", test_tagged_round_trip);
  g_test_add_func ("/plainjson/tagged/dollar-maps", test_dollar_maps);
  g_test_add_func ("/plainjson/tagged/errors", test_tag_errors);
  g_test_add_func ("/plainjson/strict", test_strict);
  g_test_add_func ("/plainjson/format-refusals", test_format_refusals);
  g_test_add_func ("/plainjson/unicode", test_unicode);
  g_test_add_func ("/plainjson/malformed", test_malformed);
  g_test_add_func ("/plainjson/depth", test_depth);
  g_test_add_func ("/plainjson/items", test_items);
  g_test_add_func ("/plainjson/pretty", test_pretty);
  g_test_add_func ("/plainjson/large-object", test_large_object);

  return g_test_run ();
}
