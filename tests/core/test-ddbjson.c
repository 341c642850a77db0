/* test-ddbjson.c: DynamoDB JSON parsing and writing: every type, byte-exact round trips, and
 * every error with its exception, DynamoDB's message and the attribute path. */
#include <string.h>

#include "core/base64.h"
#include "core/ddbjson.h"
#include "core/error.h"

#include "test-util.h"

#define JSON_FLAGS (JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL | JSON_DECODE_ANY)

/* Parses through the text API and, independently, through jansson + the json_t API (the
 * reference path), and checks they agree on the value or on the error. */
static DdbValue *
parse_both (const char *text, gboolean item, GError **error)
{
  GError *e1 = NULL, *e2 = NULL;
  DdbValue *v1, *v2 = NULL;
  json_error_t jerr;
  json_t *json;

  v1 = item ? ddb_json_parse_item (text, -1, &e1) : ddb_json_parse_value (text, -1, &e1);
  json = json_loads (text, JSON_FLAGS, &jerr);
  if (json != NULL)
    {
      v2 = item ? ddb_json_to_item (json, &e2) : ddb_json_to_value (json, &e2);
      json_decref (json);
    }
  if (v1 != NULL)
    {
      g_autofree char *f1 = item ? ddb_json_format_item (v1) : ddb_json_format_value (v1);
      g_autofree char *f2 = NULL;
      g_assert_nonnull (v2);
      g_assert_true (ddb_value_equal (v1, v2));
      f2 = item ? ddb_json_format_item (v2) : ddb_json_format_value (v2);
      g_assert_cmpstr (f1, ==, f2);
      ddb_value_free (v2);
    }
  else
    {
      g_assert_nonnull (e1);
      g_assert_null (v2);
      if (e2 != NULL)
        {
          g_assert_cmpint (e1->code, ==, e2->code);
          g_assert_cmpstr (e1->message, ==, e2->message);
        }
      else
        /* jansson refused the text itself. */
        g_assert_cmpint (e1->code, ==, DDB_ERROR_SERIALIZATION);
    }
  g_clear_error (&e2);
  if (e1 != NULL)
    g_propagate_error (error, e1);
  return v1;
}

/* parse(text) succeeds and format(parse(text)) is `text` byte for byte. */
static void
assert_round_trip (const char *text, gboolean item)
{
  GError *error = NULL;
  g_autoptr (DdbValue) v = parse_both (text, item, &error);
  g_autofree char *out = NULL;
  g_autoptr (DdbValue) again = NULL;
  json_t *json;
  char *dumped;

  g_assert_no_error (error);
  g_assert_nonnull (v);
  g_assert_true (item ? ddb_item_validate (v, &error) : ddb_value_validate (v, &error));
  g_assert_no_error (error);
  out = item ? ddb_json_format_item (v) : ddb_json_format_value (v);
  g_assert_cmpstr (out, ==, text);

  /* The json_t writer agrees with the text writer. */
  json = item ? ddb_item_to_json (v) : ddb_value_to_json (v);
  dumped = json_dumps (json, JSON_COMPACT);
  g_assert_cmpstr (dumped, ==, text);
  free (dumped);
  json_decref (json);

  again = item ? ddb_json_parse_item (out, -1, &error) : ddb_json_parse_value (out, -1, &error);
  g_assert_no_error (error);
  g_assert_true (ddb_value_equal (v, again));
}

/* parse(text) -> format gives `expected`. */
static void
assert_canonical (const char *text, gboolean item, const char *expected)
{
  GError *error = NULL;
  g_autoptr (DdbValue) v = parse_both (text, item, &error);
  g_autofree char *out = NULL;

  g_assert_no_error (error);
  out = item ? ddb_json_format_item (v) : ddb_json_format_value (v);
  g_assert_cmpstr (out, ==, expected);
}

static void
assert_error (const char *text, gboolean item, DdbErrorCode code, const char *message)
{
  GError *error = NULL;
  DdbValue *v = parse_both (text, item, &error);

  if (v != NULL)
    g_error ("expected an error for %s", text);
  tu_assert_error (error, code, message);
  g_error_free (error);
}

#define PATH DDB_JSON_PATH_SEPARATOR

/* For jansson's own messages, whose positions are jansson's business. */
static void
assert_item_error_prefix (const char *text, DdbErrorCode code, const char *prefix)
{
  GError *error = NULL;
  DdbValue *v = parse_both (text, TRUE, &error);

  if (v != NULL)
    g_error ("expected an error for %s", text);
  g_assert_error (error, DDB_ERROR, (gint) code);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("\"%s\" does not start with \"%s\"", error->message, prefix);
  g_error_free (error);
}

static void
assert_item_error (const char *text, DdbErrorCode code, const char *message)
{
  assert_error (text, TRUE, code, message);
}

static void
test_types_round_trip (void)
{
  static const char *const values[] = {
    "{\"S\":\"hello\"}",
    "{\"S\":\"\"}",
    "{\"N\":\"-12.5\"}",
    "{\"N\":\"0\"}",
    "{\"B\":\"AAEC/w==\"}",
    "{\"B\":\"\"}",
    "{\"BOOL\":true}",
    "{\"BOOL\":false}",
    "{\"NULL\":true}",
    "{\"M\":{}}",
    "{\"M\":{\"b\":{\"S\":\"x\"},\"a\":{\"N\":\"1\"}}}",
    "{\"L\":[]}",
    "{\"L\":[{\"S\":\"x\"},{\"L\":[{\"NULL\":true}]},{\"M\":{}}]}",
    "{\"SS\":[\"b\",\"a\",\"\"]}",
    "{\"NS\":[\"3\",\"-1\",\"0.5\"]}",
    "{\"BS\":[\"AQ==\",\"Ag==\",\"\"]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    assert_round_trip (values[i], FALSE);
}

static void
test_types_content (void)
{
  GError *error = NULL;
  g_autoptr (DdbValue) item = ddb_json_parse_item (
      "{\"s\":{\"S\":\"h\\u00e9\\u0000\"},\"n\":{\"N\":\"1.50\"},\"b\":{\"B\":\"AP8=\"},"
      "\"t\":{\"BOOL\":true},\"z\":{\"NULL\":true},\"m\":{\"M\":{\"k\":{\"S\":\"v\"}}},"
      "\"l\":{\"L\":[{\"N\":\"2\"}]},\"ss\":{\"SS\":[\"x\",\"y\"]},\"ns\":{\"NS\":[\"1\",\"2\"]},"
      "\"bs\":{\"BS\":[\"AA==\"]}}",
      -1, &error);
  g_autofree char *n = NULL;
  DdbValue *v;
  DdbNumber expected;

  g_assert_no_error (error);
  g_assert_cmpuint (ddb_value_map_size (item), ==, 10);

  v = ddb_value_map_get (item, "s");
  g_assert_cmpint (v->type, ==, DDB_TYPE_S);
  g_assert_cmpmem (v->bytes.data, v->bytes.len, "h\xc3\xa9\0", 4);
  v = ddb_value_map_get (item, "n");
  g_assert_cmpint (v->type, ==, DDB_TYPE_N);
  g_assert_true (ddb_number_parse (&expected, "1.5", -1, NULL));
  g_assert_true (ddb_number_equal (&v->number, &expected));
  v = ddb_value_map_get (item, "b");
  g_assert_cmpint (v->type, ==, DDB_TYPE_B);
  g_assert_cmpmem (v->bytes.data, v->bytes.len, "\0\xff", 2);
  g_assert_cmpint (ddb_value_map_get (item, "t")->type, ==, DDB_TYPE_BOOL);
  g_assert_true (ddb_value_map_get (item, "t")->boolean);
  g_assert_cmpint (ddb_value_map_get (item, "z")->type, ==, DDB_TYPE_NULL);
  v = ddb_value_map_get (item, "m");
  g_assert_cmpint (v->type, ==, DDB_TYPE_M);
  g_assert_cmpstr (ddb_value_map_get (v, "k")->bytes.data, ==, "v");
  v = ddb_value_map_get (item, "l");
  g_assert_cmpint (v->type, ==, DDB_TYPE_L);
  g_assert_cmpuint (ddb_value_list_size (v), ==, 1);
  g_assert_cmpint (ddb_value_map_get (item, "ss")->type, ==, DDB_TYPE_SS);
  g_assert_cmpint (ddb_value_map_get (item, "ns")->type, ==, DDB_TYPE_NS);
  g_assert_cmpint (ddb_value_map_get (item, "bs")->type, ==, DDB_TYPE_BS);
  g_assert_cmpuint (ddb_value_set_size (ddb_value_map_get (item, "bs")), ==, 1);
  g_assert_cmpuint (ddb_value_map_get (item, "bs")->elems->len, ==, 1);
  v = g_ptr_array_index (ddb_value_map_get (item, "bs")->elems, 0);
  g_assert_cmpuint (v->bytes.len, ==, 1);
  g_assert_cmpint (v->bytes.data[0], ==, 0);

  /* Insertion order is kept. */
  g_assert_cmpstr (ddb_value_map_nth (item, 0)->name, ==, "s");
  g_assert_cmpstr (ddb_value_map_nth (item, 9)->name, ==, "bs");
}

static void
test_item_round_trip_realistic (void)
{
  static const char *const items[] = {
    /* As DynamoDB writes a GetItem's Item: compact, canonical numbers. */
    "{\"pk\":{\"S\":\"USER#42\"},\"sk\":{\"S\":\"PROFILE\"},\"age\":{\"N\":\"37\"},"
    "\"balance\":{\"N\":\"-1234.5678\"},\"tiny\":{\"N\":\"0.000000000000000000000000000001\"},"
    "\"big\":{\"N\":\"12345678901234567890123456789012345678\"},"
    "\"exact\":{\"N\":\"-0.12345678901234567890123456789012345678\"},"
    "\"huge\":{\"N\":\"99999999999999999999999999999999999999000000000000\"},"
    "\"verified\":{\"BOOL\":true},\"deleted\":{\"BOOL\":false},\"middle\":{\"NULL\":true},"
    "\"avatar\":{\"B\":\"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+"
    "M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==\"},"
    "\"empty_s\":{\"S\":\"\"},\"empty_b\":{\"B\":\"\"},"
    "\"address\":{\"M\":{\"street\":{\"S\":\"1 Main "
    "St\"},\"geo\":{\"M\":{\"lat\":{\"N\":\"52.52\"},"
    "\"lon\":{\"N\":\"13.405\"}}},\"lines\":{\"L\":[{\"S\":\"a\"},{\"S\":\"b\"}]}}},"
    "\"history\":{\"L\":[{\"M\":{\"at\":{\"S\":\"2024-01-01T00:00:00Z\"},\"v\":{\"N\":\"1\"}}},"
    "{\"L\":[{\"L\":[]},{\"M\":{}}]},{\"SS\":[\"x\"]},{\"NULL\":true}]},"
    "\"tags\":{\"SS\":[\"red\",\"green\",\"blue\"]},\"scores\":{\"NS\":[\"1\",\"2.5\",\"-3\"]},"
    "\"blobs\":{\"BS\":[\"AQID\",\"BAUG\",\"\"]}}",
    /* Unicode as is, and the escapes DynamoDB writes. */
    "{\"name\":{\"S\":\"Zoë Ångström — 東京 🚀\"},\"ключ\":{\"S\":\"значение\"},"
    "\"escapes\":{\"S\":\"quote \\\" backslash \\\\ nl \\n tab \\t cr \\r bs \\b ff \\f "
    "ctl \\u0001\\u001F nul \\u0000 del \x7f slash / sep \xe2\x80\xa8\"},"
    "\"🔑\":{\"SS\":[\"é\",\"e\xcc\x81\"]}}",
    /* Attribute names that need quoting in paths are still plain JSON keys. */
    "{\"a.b\":{\"S\":\"1\"},\"\":{\"S\":\"empty name\"},\"[0]\":{\"N\":\"0\"}}",
    "{}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    assert_round_trip (items[i], TRUE);
}

static void
test_item_round_trip_big_sets (void)
{
  GString *text = g_string_new ("{\"ss\":{\"SS\":[");
  g_autofree char *s = NULL;

  for (int i = 0; i < 1000; i++)
    g_string_append_printf (text, "%s\"member-%d\"", i ? "," : "", i);
  g_string_append (text, "]},\"ns\":{\"NS\":[");
  for (int i = 0; i < 1000; i++)
    g_string_append_printf (text, "%s\"%d.%d\"", i ? "," : "", i, i % 9 + 1);
  g_string_append (text, "]},\"bs\":{\"BS\":[");
  for (int i = 0; i < 300; i++)
    {
      guchar raw[3] = { (guchar) i, (guchar) (i >> 8), 7 };
      g_autofree char *b64 = ddb_base64_encode (raw, (gsize) (i % 3) + 1);
      g_string_append_printf (text, "%s\"%s\"", i ? "," : "", b64);
    }
  g_string_append (text, "]}}");
  s = g_string_free (text, FALSE);
  assert_round_trip (s, TRUE);
}

static void
test_item_round_trip_many_attributes (void)
{
  GString *text = g_string_new ("{");
  g_autofree char *s = NULL;
  g_autofree char *dup = NULL;

  for (int i = 0; i < 500; i++)
    g_string_append_printf (text, "%s\"attr%d\":{\"N\":\"%d\"}", i ? "," : "", i, i);
  g_string_append_c (text, '}');
  s = g_string_free (text, FALSE);
  assert_round_trip (s, TRUE);

  /* A repeated name among many (past the point where names are hashed) is still caught. */
  dup = g_strdup (s);
  memcpy (strstr (dup, "\"attr400\""), "\"attr123\"", 9);
  assert_item_error_prefix (dup, DDB_ERROR_SERIALIZATION,
                            "duplicate object key near '\"attr123\"'");
}

static DdbValue *
nested_value_text (guint levels, GString *out)
{
  /* `levels` values deep: levels - 1 M/L wrappers around an S. */
  for (guint i = 1; i < levels; i++)
    g_string_append (out, i % 2 ? "{\"M\":{\"k\":" : "{\"L\":[");
  g_string_append (out, "{\"S\":\"leaf\"}");
  for (guint i = levels - 1; i >= 1; i--)
    g_string_append (out, i % 2 ? "}}" : "]}");
  return NULL;
}

static void
test_nesting (void)
{
  g_autoptr (GString) ok = g_string_new ("{\"a\":");
  g_autoptr (GString) bad = g_string_new ("{\"a\":");
  g_autoptr (GString) expected = g_string_new (DDB_NESTING_MESSAGE PATH "a");
  g_autoptr (GString) value_ok = g_string_new (NULL);

  nested_value_text (32, ok);
  g_string_append_c (ok, '}');
  assert_round_trip (ok->str, TRUE);

  nested_value_text (33, bad);
  g_string_append_c (bad, '}');
  for (guint i = 1; i < 33; i++)
    g_string_append (expected, i % 2 ? ".k" : "[0]");
  assert_item_error (bad->str, DDB_ERROR_VALIDATION, expected->str);

  /* A value on its own is level 1 too. */
  nested_value_text (32, value_ok);
  assert_round_trip (value_ok->str, FALSE);
  g_string_truncate (value_ok, 0);
  nested_value_text (33, value_ok);
  {
    GError *error = NULL;
    g_assert_null (ddb_json_parse_value (value_ok->str, -1, &error));
    g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
    g_assert_true (g_str_has_prefix (error->message, DDB_NESTING_MESSAGE PATH "k[0].k"));
    g_error_free (error);
  }
}

static void
test_canonical_output (void)
{
  /* Whitespace, number forms and escapes DynamoDB would not write come out canonical. */
  assert_canonical (" { \"a\" : { \"N\" : \"1.0\" } , \"b\":{\"NS\":[\"1E2\", \"-0.50\"]} }\n",
                    TRUE, "{\"a\":{\"N\":\"1\"},\"b\":{\"NS\":[\"100\",\"-0.5\"]}}");
  assert_canonical ("{\"S\":\"\\u00e9\\/\\ud83d\\ude80\"}", FALSE, "{\"S\":\"é/🚀\"}");
  assert_canonical ("{\"S\":\"\\u007f\\u001f\"}", FALSE, "{\"S\":\"\x7f\\u001F\"}");
  assert_canonical ("{\"B\":\"AQ\\u003d\\u003d\"}", FALSE, "{\"B\":\"AQ==\"}");
  assert_canonical ("{\"\\u0061\":{\"S\":\"x\"}}", TRUE, "{\"a\":{\"S\":\"x\"}}");
  /* A member set to null is absent, as DynamoDB reads it. */
  assert_canonical ("{\"S\":\"x\",\"N\":null}", FALSE, "{\"S\":\"x\"}");
  assert_canonical ("{\"NULL\":null,\"BOOL\":false}", FALSE, "{\"BOOL\":false}");
}

static void
test_error_descriptor (void)
{
  assert_item_error ("{\"a\":{}}", DDB_ERROR_VALIDATION, DDB_JSON_EMPTY_VALUE_MESSAGE PATH "a");
  g_assert_cmpstr (DDB_JSON_EMPTY_VALUE_MESSAGE, ==,
                   "Supplied AttributeValue is empty, must contain exactly one of the supported "
                   "datatypes");
  assert_item_error ("{\"a\":{\"S\":null}}", DDB_ERROR_VALIDATION,
                     DDB_JSON_EMPTY_VALUE_MESSAGE PATH "a");
  assert_item_error ("{\"a\":{\"S\":\"x\",\"N\":\"1\"}}", DDB_ERROR_VALIDATION,
                     "Supplied AttributeValue has more than one datatypes set, must contain "
                     "exactly one of the supported datatypes" PATH "a");
  assert_item_error ("{\"a\":{\"s\":\"x\"}}", DDB_ERROR_VALIDATION,
                     "Supplied AttributeValue has an unknown datatype \"s\", must contain exactly "
                     "one of the supported datatypes" PATH "a");
  assert_item_error ("{\"a\":{\"S\":\"x\",\"SSS\":[]}}", DDB_ERROR_VALIDATION,
                     "Supplied AttributeValue has an unknown datatype \"SSS\", must contain "
                     "exactly one of the supported datatypes" PATH "a");
  assert_item_error_prefix ("{\"a\":{\"S\":\"x\",\"S\":\"y\"}}", DDB_ERROR_SERIALIZATION,
                            "duplicate object key near '\"S\"'");
  assert_item_error ("{\"a\":{\"NULL\":false}}", DDB_ERROR_VALIDATION,
                     "One or more parameter values were invalid: Null attribute value types must "
                     "have the value of true" PATH "a");
  /* The attribute value itself of the wrong JSON type. */
  assert_item_error ("{\"a\":\"x\"}", DDB_ERROR_SERIALIZATION,
                     "Unexpected value type in payload" PATH "a");
  assert_item_error ("{\"a\":1}", DDB_ERROR_SERIALIZATION,
                     "Unexpected value type in payload" PATH "a");
  assert_item_error ("{\"a\":[]}", DDB_ERROR_SERIALIZATION,
                     "Unrecognized collection type class "
                     "com.amazonaws.dynamodb.v20120810.AttributeValue" PATH "a");
  assert_item_error ("{\"a\":null}", DDB_ERROR_VALIDATION, DDB_JSON_EMPTY_VALUE_MESSAGE PATH "a");
  /* The item itself. */
  assert_item_error ("[]", DDB_ERROR_SERIALIZATION,
                     "Unrecognized collection type java.util.Map<java.lang.String, "
                     "com.amazonaws.dynamodb.v20120810.AttributeValue>");
  assert_item_error ("\"x\"", DDB_ERROR_SERIALIZATION, "Unexpected field type");
  /* A value on its own has no path. */
  assert_error ("{}", FALSE, DDB_ERROR_VALIDATION, DDB_JSON_EMPTY_VALUE_MESSAGE);
  assert_error ("{\"S\":1}", FALSE, DDB_ERROR_SERIALIZATION,
                "NUMBER_VALUE cannot be converted to String");
  assert_error ("true", FALSE, DDB_ERROR_SERIALIZATION, "Unexpected value type in payload");
}

static void
test_error_wrong_json_type (void)
{
  static const struct {
    const char *value;
    const char *message;
  } cases[] = {
    { "{\"S\":1}", "NUMBER_VALUE cannot be converted to String" },
    { "{\"S\":-2147483649}", "NUMBER_VALUE cannot be converted to String" },
    { "{\"S\":1.5}", "DECIMAL_VALUE cannot be converted to String" },
    { "{\"S\":1e3}", "DECIMAL_VALUE cannot be converted to String" },
    { "{\"S\":true}", "TRUE_VALUE cannot be converted to String" },
    { "{\"S\":false}", "FALSE_VALUE cannot be converted to String" },
    { "{\"S\":[]}", "Unrecognized collection type class java.lang.String" },
    { "{\"S\":{}}", "Start of structure or map found where not expected" },
    { "{\"N\":5}", "NUMBER_VALUE cannot be converted to String" },
    { "{\"N\":{\"N\":\"5\"}}", "Start of structure or map found where not expected" },
    { "{\"BOOL\":\"true\"}", "Unexpected token received from parser" },
    { "{\"BOOL\":1}", "NUMBER_VALUE cannot be converted to Boolean" },
    { "{\"BOOL\":0.5}", "DECIMAL_VALUE cannot be converted to Boolean" },
    { "{\"BOOL\":[]}", "Unrecognized collection type class java.lang.Boolean" },
    { "{\"BOOL\":{}}", "Start of structure or map found where not expected" },
    { "{\"NULL\":\"true\"}", "Unexpected token received from parser" },
    { "{\"NULL\":1}", "NUMBER_VALUE cannot be converted to Boolean" },
    { "{\"B\":1}", "only base-64-encoded strings are convertible to bytes" },
    { "{\"B\":true}", "only base-64-encoded strings are convertible to bytes" },
    { "{\"B\":[]}", "Unrecognized collection type class java.nio.ByteBuffer" },
    { "{\"B\":{}}", "Start of structure or map found where not expected" },
    { "{\"SS\":\"a\"}", "Unexpected field type" },
    { "{\"SS\":{}}", "Start of structure or map found where not expected" },
    { "{\"NS\":1}", "Unexpected field type" },
    { "{\"BS\":true}", "Unexpected field type" },
    { "{\"L\":\"a\"}", "Unexpected field type" },
    { "{\"L\":{}}", "Start of structure or map found where not expected" },
    { "{\"M\":[]}", "Unrecognized collection type java.util.Map<java.lang.String, "
                    "com.amazonaws.dynamodb.v20120810.AttributeValue>" },
    { "{\"M\":\"a\"}", "Unexpected field type" },
    { "{\"M\":5}", "Unexpected field type" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *item = g_strdup_printf ("{\"attr\":%s}", cases[i].value);
      g_autofree char *message = g_strconcat (cases[i].message, PATH "attr", NULL);
      assert_item_error (item, DDB_ERROR_SERIALIZATION, message);
    }

  /* Inside sets, lists and maps the element is named. */
  assert_item_error ("{\"t\":{\"SS\":[\"a\",1]}}", DDB_ERROR_SERIALIZATION,
                     "NUMBER_VALUE cannot be converted to String" PATH "t[1]");
  assert_item_error ("{\"t\":{\"NS\":[\"1\",true]}}", DDB_ERROR_SERIALIZATION,
                     "TRUE_VALUE cannot be converted to String" PATH "t[1]");
  assert_item_error ("{\"t\":{\"BS\":[\"AA==\",{}]}}", DDB_ERROR_SERIALIZATION,
                     "Start of structure or map found where not expected" PATH "t[1]");
  assert_item_error ("{\"l\":{\"L\":[{\"S\":\"a\"},\"b\"]}}", DDB_ERROR_SERIALIZATION,
                     "Unexpected value type in payload" PATH "l[1]");
  assert_item_error ("{\"m\":{\"M\":{\"x\":[]}}}", DDB_ERROR_SERIALIZATION,
                     "Unrecognized collection type class "
                     "com.amazonaws.dynamodb.v20120810.AttributeValue" PATH "m.x");
}

static void
test_error_binary (void)
{
  assert_item_error ("{\"b\":{\"B\":\"abc\"}}", DDB_ERROR_SERIALIZATION,
                     "Base64 encoded length is expected a multiple of 4 bytes but found: 3" PATH
                     "b");
  /* Java counts UTF-16 units: é is 1, 🚀 is 2. */
  assert_item_error ("{\"b\":{\"B\":\"é🚀AA\"}}", DDB_ERROR_SERIALIZATION,
                     "Base64 encoded length is expected a multiple of 4 bytes but found: 5" PATH
                     "b");
  assert_item_error ("{\"b\":{\"B\":\"AB!=\"}}", DDB_ERROR_SERIALIZATION,
                     "Invalid Base64 character: '!'" PATH "b");
  assert_item_error ("{\"b\":{\"B\":\"ABé=\"}}", DDB_ERROR_SERIALIZATION,
                     "Invalid Base64 character: 'é'" PATH "b");
  /* Four Java characters but five bytes: the length is fine, the character is not. */
  assert_item_error ("{\"b\":{\"B\":\"A!é=\"}}", DDB_ERROR_SERIALIZATION,
                     "Invalid Base64 character: '!'" PATH "b");
  assert_item_error ("{\"b\":{\"B\":\"AB\\nA\"}}", DDB_ERROR_SERIALIZATION,
                     "Invalid Base64 character: '\\u000A'" PATH "b");
  assert_item_error ("{\"b\":{\"B\":\"A=AA\"}}", DDB_ERROR_SERIALIZATION,
                     "Invalid Base64 character: '='" PATH "b");
  assert_item_error ("{\"b\":{\"B\":\"A===\"}}", DDB_ERROR_SERIALIZATION,
                     "Invalid Base64 character: '='" PATH "b");
  assert_item_error ("{\"b\":{\"B\":\"AAAA====\"}}", DDB_ERROR_SERIALIZATION,
                     "Invalid Base64 character: '='" PATH "b");
  /* Non-zero unused bits: "AAF=" would decode like "AAE=". DynamoDB's spelling. */
  assert_item_error ("{\"b\":{\"B\":\"AAF=\"}}", DDB_ERROR_SERIALIZATION,
                     "Invalid last non-pad Base64 character dectected" PATH "b");
  assert_item_error ("{\"b\":{\"B\":\"+/+=\"}}", DDB_ERROR_SERIALIZATION,
                     "Invalid last non-pad Base64 character dectected" PATH "b");
  assert_item_error ("{\"b\":{\"B\":\"AB==\"}}", DDB_ERROR_SERIALIZATION,
                     "Invalid last non-pad Base64 character dectected" PATH "b");
  /* URL-safe alphabet is not standard base64. */
  assert_item_error ("{\"b\":{\"B\":\"-_8=\"}}", DDB_ERROR_SERIALIZATION,
                     "Invalid Base64 character: '-'" PATH "b");
  assert_item_error ("{\"b\":{\"BS\":[\"AA==\",\"AA\"]}}", DDB_ERROR_SERIALIZATION,
                     "Base64 encoded length is expected a multiple of 4 bytes but found: 2" PATH
                     "b[1]");
}

static void
test_error_numbers (void)
{
  static const char *const bad[] = {
    "",
    "abc",
    " 1",
    "1 ",
    "0x10",
    "NaN",
    "Infinity",
    "1e",
    "--1",
    "1..2",
    "123456789012345678901234567890123456789",
    "1E126",
    "1E-131",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      DdbNumber n;
      GError *expected = NULL;
      g_autofree char *item = g_strdup_printf ("{\"n\":{\"N\":\"%s\"}}", bad[i]);
      g_autofree char *set = g_strdup_printf ("{\"n\":{\"NS\":[\"1\",\"%s\"]}}", bad[i]);
      g_autofree char *message = NULL;
      g_autofree char *set_message = NULL;

      /* The message is ddb_number_parse's. */
      g_assert_false (ddb_number_parse (&n, bad[i], -1, &expected));
      message = g_strconcat (expected->message, PATH "n", NULL);
      set_message = g_strconcat (expected->message, PATH "n[1]", NULL);
      assert_item_error (item, DDB_ERROR_VALIDATION, message);
      assert_item_error (set, DDB_ERROR_VALIDATION, set_message);
      g_error_free (expected);
    }

  assert_item_error ("{\"n\":{\"N\":\"abc\"}}", DDB_ERROR_VALIDATION,
                     "The parameter cannot be converted to a numeric value: abc" PATH "n");
  assert_item_error ("{\"n\":{\"N\":\"123456789012345678901234567890123456789\"}}",
                     DDB_ERROR_VALIDATION,
                     "Attempting to store more than 38 significant digits in a Number" PATH "n");
  assert_item_error ("{\"n\":{\"N\":\"1E126\"}}", DDB_ERROR_VALIDATION,
                     "Number overflow. Attempting to store a number with magnitude larger than "
                     "supported range" PATH "n");
  assert_item_error ("{\"n\":{\"N\":\"1E-131\"}}", DDB_ERROR_VALIDATION,
                     "Number underflow. Attempting to store a number with magnitude smaller than "
                     "supported range" PATH "n");
}

static void
test_error_sets (void)
{
  assert_item_error (
      "{\"s\":{\"SS\":[]}}", DDB_ERROR_VALIDATION,
      "One or more parameter values were invalid: An string set  may not be empty" PATH "s");
  assert_item_error (
      "{\"s\":{\"NS\":[]}}", DDB_ERROR_VALIDATION,
      "One or more parameter values were invalid: An number set  may not be empty" PATH "s");
  assert_item_error (
      "{\"s\":{\"BS\":[]}}", DDB_ERROR_VALIDATION,
      "One or more parameter values were invalid: Binary sets should not be empty" PATH "s");
  assert_item_error ("{\"s\":{\"SS\":[\"a\",\"b\",\"a\"]}}", DDB_ERROR_VALIDATION,
                     "One or more parameter values were invalid: Input collection [a, b, a] "
                     "contains duplicates." PATH "s");
  /* Numerically equal is a duplicate. */
  assert_item_error ("{\"s\":{\"NS\":[\"1\",\"1.0\"]}}", DDB_ERROR_VALIDATION,
                     "Input collection contains duplicates" PATH "s");
  assert_item_error ("{\"s\":{\"NS\":[\"100\",\"1E2\"]}}", DDB_ERROR_VALIDATION,
                     "Input collection contains duplicates" PATH "s");
  assert_item_error ("{\"s\":{\"BS\":[\"Yg==\",\"Yg==\"]}}", DDB_ERROR_VALIDATION,
                     "One or more parameter values were invalid: Input collection [Yg==, Yg==]of "
                     "type BS contains duplicates." PATH "s");
  assert_item_error ("{\"s\":{\"SS\":[\"a\",null]}}", DDB_ERROR_VALIDATION,
                     DDB_JSON_NULL_IN_SET_MESSAGE PATH "s[1]");
  /* Not duplicates: different bytes, different case, empty members. */
  assert_round_trip ("{\"s\":{\"SS\":[\"a\",\"A\",\"\"]},\"n\":{\"NS\":[\"1\",\"-1\",\"10\"]},"
                     "\"b\":{\"BS\":[\"AA==\",\"AAA=\",\"\"]}}",
                     TRUE);
}

static void
test_error_paths (void)
{
  /* Deep paths, quoted names, list in list, and the first error in document order. */
  assert_item_error (
      "{\"a\":{\"M\":{\"b\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"},{\"SS\":[]}]}}}}",
      DDB_ERROR_VALIDATION,
      "One or more parameter values were invalid: An string set  may not be empty" PATH "a.b[2]");
  assert_item_error ("{\"x.y\":{\"M\":{\"\":{\"NULL\":false}}}}", DDB_ERROR_VALIDATION,
                     "One or more parameter values were invalid: Null attribute value types must "
                     "have the value of true" PATH "\"x.y\".\"\"");
  assert_item_error ("{\"q\\\"\\\\\\n\":{\"S\":1}}", DDB_ERROR_SERIALIZATION,
                     "NUMBER_VALUE cannot be converted to String" PATH "\"q\\\"\\\\\\n\"");
  assert_item_error ("{\"l\":{\"L\":[{\"L\":[{\"S\":\"x\"},{\"N\":\"x\"}]}]}}",
                     DDB_ERROR_VALIDATION,
                     "The parameter cannot be converted to a numeric value: x" PATH "l[0][1]");
  assert_item_error ("{\"é\":{\"M\":{\"ü\":{}}}}", DDB_ERROR_VALIDATION,
                     DDB_JSON_EMPTY_VALUE_MESSAGE PATH "é.ü");
  assert_item_error (
      "{\"a\":{\"SS\":[]},\"b\":{\"NS\":[]}}", DDB_ERROR_VALIDATION,
      "One or more parameter values were invalid: An string set  may not be empty" PATH "a");
  /* A serialization error anywhere wins over an earlier validation error. */
  assert_item_error ("{\"a\":{\"NULL\":false},\"b\":{\"M\":{\"c\":{\"S\":1}}}}",
                     DDB_ERROR_SERIALIZATION,
                     "NUMBER_VALUE cannot be converted to String" PATH "b.c");
  assert_item_error ("{\"a\":{\"N\":\"x\",\"S\":1}}", DDB_ERROR_SERIALIZATION,
                     "NUMBER_VALUE cannot be converted to String" PATH "a");
}

static void
test_error_json (void)
{
  GError *error = NULL;

  /* Not JSON, or JSON jansson refuses: SerializationException with jansson's account. */
  assert_item_error_prefix ("", DDB_ERROR_SERIALIZATION, "unexpected token near end of file");
  assert_item_error_prefix ("{\"a\":{\"S\":\"x\"}", DDB_ERROR_SERIALIZATION,
                            "'}' expected near end of file");
  assert_item_error_prefix ("{\"a\":{\"S\":\"x\"}} x", DDB_ERROR_SERIALIZATION,
                            "end of file expected near 'x'");
  assert_item_error_prefix ("{\"a\":{\"S\":\"x\"},\"a\":{\"S\":\"y\"}}", DDB_ERROR_SERIALIZATION,
                            "duplicate object key near '\"a\"'");
  assert_item_error_prefix ("{\"m\":{\"M\":{\"k\":{\"S\":\"x\"},\"k\":{\"S\":\"x\"}}}}",
                            DDB_ERROR_SERIALIZATION, "duplicate object key near '\"k\"'");
  assert_item_error_prefix ("{\"a\":{\"S\":\"\xff\"}}", DDB_ERROR_SERIALIZATION,
                            "unable to decode byte 0xff near '\"'");
  assert_item_error_prefix ("{\"a\":{\"S\":\"\\ud800\"}}", DDB_ERROR_SERIALIZATION,
                            "invalid Unicode '\\uD800'");
  assert_item_error_prefix ("{\"a\":{\"S\":\"tab\there\"}}", DDB_ERROR_SERIALIZATION,
                            "control character 0x9 near '\"tab'");
  assert_item_error_prefix ("{\"a\\u0000\":{\"S\":\"x\"}}", DDB_ERROR_SERIALIZATION,
                            "NUL byte in object key not supported near '\"a\\u0000\"'");
  assert_item_error_prefix ("{\"a\":{\"BOOL\":tru}}", DDB_ERROR_SERIALIZATION,
                            "invalid token near 'tru'");

  /* Explicit lengths: the text need not be NUL-terminated and may hold U+0000 escapes. */
  {
    const char text[] = "{\"a\":{\"S\":\"x\\u0000y\"}}garbage";
    g_autoptr (DdbValue) v = ddb_json_parse_item (text, 22, &error);
    g_assert_no_error (error);
    g_assert_cmpmem (ddb_value_map_get (v, "a")->bytes.data, ddb_value_map_get (v, "a")->bytes.len,
                     "x\0y", 3);
  }
}

static void
test_json_t_api (void)
{
  GError *error = NULL;
  json_t *bad_utf8 = json_pack ("{s{so}}", "a", "S", json_stringn_nocheck ("\xff", 1));
  json_t *bad_name = json_object ();
  json_t *set = json_pack ("{s[ss]}", "SS", "x", "x");
  g_autoptr (DdbValue) v = NULL;
  g_autoptr (DdbValue) odd = ddb_value_new_m ();
  g_autofree char *text = NULL;
  json_t *out;

  /* Trees built by hand may hold what jansson's parser never produces. */
  g_assert_null (ddb_json_to_item (bad_utf8, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION, DDB_INVALID_UTF8_MESSAGE PATH "a");
  g_clear_error (&error);

  json_object_setn_new_nocheck (bad_name, "n\xc3", 2, json_pack ("{ss}", "S", "x"));
  g_assert_null (ddb_json_to_item (bad_name, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION, DDB_INVALID_UTF8_MESSAGE PATH "n\xc3");
  g_clear_error (&error);

  g_assert_null (ddb_json_to_value (set, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_assert_cmpstr (error->message, ==,
                   "One or more parameter values were invalid: Input collection [x, x] contains "
                   "duplicates.");
  g_clear_error (&error);

  /* Writing values built by hand: bytes that are not UTF-8 become U+FFFD, never bad JSON. */
  ddb_value_map_set (odd, "k\xff", ddb_value_new_s ("a\xc3(b\xe2\x82", 6));
  text = ddb_json_format_item (odd);
  g_assert_cmpstr (text, ==,
                   "{\"k\xef\xbf\xbd\":{\"S\":\"a\xef\xbf\xbd(b\xef\xbf\xbd\xef\xbf\xbd\"}}");
  out = ddb_item_to_json (odd);
  {
    char *dumped = json_dumps (out, JSON_COMPACT);
    g_assert_cmpstr (dumped, ==, text);
    free (dumped);
  }
  json_decref (out);
  v = ddb_json_parse_item (text, -1, &error);
  g_assert_no_error (error);

  json_decref (bad_utf8);
  json_decref (bad_name);
  json_decref (set);
}

static void
test_append (void)
{
  g_autoptr (GString) out = g_string_new ("[");
  g_autoptr (DdbValue) item = ddb_json_parse_item ("{\"a\":{\"N\":\"1\"}}", -1, NULL);

  ddb_json_append_item (out, item);
  g_string_append_c (out, ',');
  ddb_json_append_value (out, ddb_value_map_get (item, "a"));
  g_string_append_c (out, ']');
  g_assert_cmpstr (out->str, ==, "[{\"a\":{\"N\":\"1\"}},{\"N\":\"1\"}]");
}

static void
test_base64 (void)
{
  static const struct {
    const char *raw;
    gsize len;
    const char *b64;
  } cases[] = {
    { "", 0, "" },
    { "f", 1, "Zg==" },
    { "fo", 2, "Zm8=" },
    { "foo", 3, "Zm9v" },
    { "foob", 4, "Zm9vYg==" },
    { "fooba", 5, "Zm9vYmE=" },
    { "foobar", 6, "Zm9vYmFy" },
    { "\0\xff\xfe", 3, "AP/+" },
  };
  static const struct {
    const char *text;
    DdbBase64Error error;
    gsize pos;
  } bad[] = {
    { "Zg=", DDB_BASE64_BAD_LENGTH, 0 },         { "Zg", DDB_BASE64_BAD_LENGTH, 0 },
    { "Z===", DDB_BASE64_BAD_CHARACTER, 1 },     { "====", DDB_BASE64_BAD_CHARACTER, 0 },
    { "Zg=a", DDB_BASE64_BAD_CHARACTER, 2 },     { "Z g=", DDB_BASE64_BAD_CHARACTER, 1 },
    { "Zh==", DDB_BASE64_BAD_TRAILING_BITS, 1 }, { "Zm9=", DDB_BASE64_BAD_TRAILING_BITS, 2 },
    { "Zg==Zg==", DDB_BASE64_BAD_CHARACTER, 2 }, { "Zm9v\n", DDB_BASE64_BAD_LENGTH, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *enc = ddb_base64_encode ((const guchar *) cases[i].raw, cases[i].len);
      gsize out_len = 99;
      DdbBase64Error why = DDB_BASE64_BAD_LENGTH;
      g_autofree guchar *dec = ddb_base64_decode (cases[i].b64, -1, &out_len, &why, NULL);

      g_assert_cmpstr (enc, ==, cases[i].b64);
      g_assert_cmpuint (strlen (enc), ==, DDB_BASE64_ENCODED_LEN (cases[i].len));
      g_assert_nonnull (dec);
      g_assert_cmpint (why, ==, DDB_BASE64_OK);
      g_assert_cmpmem (dec, out_len, cases[i].raw, cases[i].len);
      g_assert_cmpint (dec[out_len], ==, 0);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      DdbBase64Error why = DDB_BASE64_OK;
      gsize pos = 99, out_len = 0;
      g_assert_null (ddb_base64_decode (bad[i].text, -1, &out_len, &why, &pos));
      g_assert_cmpint (why, ==, bad[i].error);
      g_assert_cmpuint (pos, ==, bad[i].pos);
    }

  /* Every byte value and length survives, and every encoding is the only one accepted: any
   * other last character before the padding is refused. */
  for (gsize len = 0; len < 70; len++)
    {
      guchar raw[70];
      g_autofree char *enc = NULL;
      g_autofree guchar *dec = NULL;
      gsize out_len = 0;

      for (gsize k = 0; k < len; k++)
        raw[k] = (guchar) (k * 37 + len * 11);
      enc = ddb_base64_encode (raw, len);
      dec = ddb_base64_decode (enc, -1, &out_len, NULL, NULL);
      g_assert_cmpmem (dec, out_len, raw, len);
      if (len % 3 != 0)
        {
          static const char alphabet[]
              = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
          gsize last = strlen (enc) - (len % 3 == 1 ? 3 : 2);
          guint accepted = 0;
          for (int c = 0; c < 64; c++)
            {
              g_autofree char *alt = g_strdup (enc);
              g_autofree guchar *d = NULL;
              alt[last] = alphabet[c];
              d = ddb_base64_decode (alt, -1, NULL, NULL, NULL);
              accepted += d != NULL;
            }
          g_assert_cmpuint (accepted, ==, len % 3 == 1 ? 4 : 16);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ddbjson/types-round-trip", test_types_round_trip);
  g_test_add_func ("/ddbjson/types-content", test_types_content);
  g_test_add_func ("/ddbjson/item-round-trip-realistic", test_item_round_trip_realistic);
  g_test_add_func ("/ddbjson/item-round-trip-big-sets", test_item_round_trip_big_sets);
  g_test_add_func ("/ddbjson/item-round-trip-many-attributes",
                   test_item_round_trip_many_attributes);
  g_test_add_func ("/ddbjson/nesting", test_nesting);
  g_test_add_func ("/ddbjson/canonical-output", test_canonical_output);
  g_test_add_func ("/ddbjson/error-descriptor", test_error_descriptor);
  g_test_add_func ("/ddbjson/error-wrong-json-type", test_error_wrong_json_type);
  g_test_add_func ("/ddbjson/error-binary", test_error_binary);
  g_test_add_func ("/ddbjson/error-numbers", test_error_numbers);
  g_test_add_func ("/ddbjson/error-sets", test_error_sets);
  g_test_add_func ("/ddbjson/error-paths", test_error_paths);
  g_test_add_func ("/ddbjson/error-json", test_error_json);
  g_test_add_func ("/ddbjson/json-t-api", test_json_t_api);
  g_test_add_func ("/ddbjson/append", test_append);
  g_test_add_func ("/ddbjson/base64", test_base64);
  return g_test_run ();
}
