/* test-row-match.c: Find in Loaded Rows' test of a row (no display): a text found in strings,
 * numbers as the grid shows them, true, false and null at any depth, case-insensitive (ASCII
 * and beyond), never in attribute names or binary values; read from an item's encoding with
 * exactly the answer of a plain reference on the built item, over many items and texts, those the
 * encoded bytes rule out at once (a string's text) and those walked value by value (digits, "e",
 * "ru", non-ASCII). */
#define G_LOG_DOMAIN "test-row-match"

#include <string.h>

#include "app/browser/dy-row-match.h"
#include "core/ddbjson.h"
#include "core/itemcodec.h"

static DdbValue *
item_from (const char *json_text)
{
  GError *error = NULL;
  DdbValue *item = ddb_json_parse_item (json_text, -1, &error);

  g_assert_no_error (error);
  return item;
}

/* The reference, on the built item and in plain terms: the text is in the value's text as the
 * grid shows it (a string, a number's digits, true, false, null; not binary), ASCII letters
 * compared regardless of case for an ASCII text, every letter case-folded for any other. */
static gboolean
text_has (const char *text, gsize len, const char *needle)
{
  gboolean ascii = TRUE;
  g_autofree char *hay = NULL;
  g_autofree char *want = NULL;

  for (const char *p = needle; *p != '\0'; p++)
    ascii &= (guchar) *p < 0x80;
  /* A NUL in the value ends no text: here it becomes a character none of the texts holds. */
  {
    g_autofree char *plain = g_malloc (len + 1);

    memcpy (plain, text, len);
    plain[len] = '\0';

    for (gsize i = 0; i < len; i++)
      if (plain[i] == '\0')
        plain[i] = '\x01';
    hay = ascii ? g_ascii_strdown (plain, (gssize) len) : g_utf8_casefold (plain, (gssize) len);
  }
  want = ascii ? g_ascii_strdown (needle, -1) : g_utf8_casefold (needle, -1);
  return strstr (hay, want) != NULL;
}

static gboolean
reference_finds (const char *needle, const DdbValue *value)
{
  g_autofree char *number = NULL;

  switch (value->type)
    {
    case DDB_TYPE_S:
      return text_has (value->bytes.data, value->bytes.len, needle);
    case DDB_TYPE_N:
      number = ddb_number_to_string (&value->number);
      return text_has (number, strlen (number), needle);
    case DDB_TYPE_BOOL:
      return text_has (value->boolean ? "true" : "false", value->boolean ? 4 : 5, needle);
    case DDB_TYPE_NULL:
      return text_has ("null", 4, needle);
    case DDB_TYPE_M:
      for (guint i = 0; i < value->attrs->len; i++)
        if (reference_finds (needle, g_array_index (value->attrs, DdbAttr, i).value))
          return TRUE;
      return FALSE;
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
      for (guint i = 0; i < value->elems->len; i++)
        if (reference_finds (needle, g_ptr_array_index (value->elems, i)))
          return TRUE;
      return FALSE;
    default:
      return FALSE;
    }
}

/* What Find answers of the item's encoding, checked against the reference. */
static gboolean
finds (const char *text, const DdbValue *item)
{
  g_autoptr (DyRowMatch) match = dy_row_match_new (text);
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  GError *error = NULL;
  gboolean found = FALSE;
  gboolean want = reference_finds (text, item);

  ddb_item_encode (item, bytes);
  g_assert_true (dy_row_match_encoded (match, bytes->data, bytes->len, &found, &error));
  g_assert_no_error (error);
  if (found != want)
    g_error ("\"%s\": the reference says %d, Find %d", text, want, found);
  return found;
}

static const char *const item_text
    = "{\"PK\": {\"S\": \"USER#Alice\"}, \"SK\": {\"S\": \"PROFILE\"},"
      " \"email\": {\"S\": \"alice@example.com\"},"
      " \"city\": {\"S\": \"Ærøskøbing\"},"
      " \"greeting\": {\"S\": \"Καλημέρα\"},"
      " \"total\": {\"N\": \"12345678901234567890123456789012345.678\"},"
      " \"ratio\": {\"N\": \"1.50\"}, \"tiny\": {\"N\": \"-0.000012\"},"
      " \"active\": {\"BOOL\": true}, \"gone\": {\"NULL\": true},"
      " \"blob\": {\"B\": \"c2VjcmV0IHdvcmQ=\"},"
      " \"tags\": {\"SS\": [\"billing\", \"VIP\"]}, \"scores\": {\"NS\": [\"7\", \"99.5\"]},"
      " \"history\": {\"L\": [{\"M\": {\"note\": {\"S\": \"Moved to Bergen\"},"
      "                             \"deep\": {\"L\": [{\"S\": \"needle in a haystack\"}]}}}]}}";

static void
test_what_is_found (void)
{
  g_autoptr (DdbValue) item = item_from (item_text);

  g_assert_null (dy_row_match_new (""));
  g_assert_null (dy_row_match_new (NULL));
  {
    g_autoptr (GByteArray) bytes = g_byte_array_new ();
    gboolean found = FALSE;

    ddb_item_encode (item, bytes);
    g_assert_true (dy_row_match_encoded (NULL, bytes->data, bytes->len, &found, NULL));
    g_assert_true (found);
  }
  /* Strings, in any case, keys included. */
  g_assert_true (finds ("alice", item));
  g_assert_true (finds ("USER#ALICE", item));
  g_assert_true (finds ("Example.COM", item));
  g_assert_true (finds ("profile", item));
  g_assert_false (finds ("bob", item));
  /* Beyond ASCII: case folded too. */
  g_assert_true (finds ("ærø", item));
  g_assert_true (finds ("ÆRØSKØBING", item));
  g_assert_true (finds ("ΚΑΛΗΜΈΡΑ", item));
  g_assert_false (finds ("ærx", item));
  /* Numbers as the grid shows them: every digit, trailing zeros gone. */
  g_assert_true (finds ("12345678901234567890123456789012345.678", item));
  g_assert_true (finds ("5.67", item));
  g_assert_true (finds ("1.5", item));
  g_assert_false (finds ("1.50", item));
  g_assert_true (finds ("-0.000012", item));
  g_assert_true (finds ("99.5", item));
  /* true, false and null as they read. */
  g_assert_true (finds ("TRUE", item));
  g_assert_true (finds ("ru", item));
  g_assert_true (finds ("null", item));
  g_assert_false (finds ("false", item));
  /* Sets, and deep in lists and maps. */
  g_assert_true (finds ("vip", item));
  g_assert_true (finds ("bergen", item));
  g_assert_true (finds ("needle in a", item));
  /* Not attribute names, not binary values (their bytes hold "secret word"). */
  g_assert_false (finds ("email", item));
  g_assert_false (finds ("greeting", item));
  g_assert_false (finds ("secret", item));
  g_assert_false (finds ("c2VjcmV0", item));
}

/* Over many generated items and texts, the encoded answer is the decoded one, and it is what
 * a plain search of the values' texts says. */
static void
test_encoded_as_decoded (void)
{
  static const char *const texts[] = { "a",  "Ab",  "q1",  "#7", "e", "1", "12", "0.5", "-", "true",
                                       "ru", "nul", "x y", "ü",  "Ü", "ß", "zz", "\"",  "\\" };
  GRand *rand = g_rand_new_with_seed (28);
  guint found = 0;

  for (guint i = 0; i < 600; i++)
    {
      g_autofree char *json = g_strdup_printf (
          "{\"PK\": {\"S\": \"T#%u\"}, \"name\": {\"S\": \"%s %c%u\"},"
          " \"n\": {\"N\": \"%d.%u\"}, \"flag\": {\"BOOL\": %s},"
          " \"l\": {\"L\": [{\"S\": \"%s\"}, {\"NULL\": true}, {\"N\": \"%ue%u\"}]},"
          " \"bin\": {\"B\": \"QWIxMiBhYg==\"}, \"Ab\": {\"S\": \"-\"}}",
          i, g_rand_boolean (rand) ? "Über" : "plain", 'a' + g_rand_int_range (rand, 0, 26),
          g_rand_int_range (rand, 0, 100), g_rand_int_range (rand, -50, 50),
          g_rand_int_range (rand, 0, 1000), g_rand_boolean (rand) ? "true" : "false",
          g_rand_boolean (rand) ? "straße x y" : "Q1 #7", g_rand_int_range (rand, 1, 9),
          g_rand_int_range (rand, 0, 5));
      g_autoptr (DdbValue) item = item_from (json);

      for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
        found += finds (texts[t], item); /* asserts both answers agree */
    }
  /* Neither always nor never. */
  g_assert_cmpuint (found, >, 600);
  g_assert_cmpuint (found, <, 600 * G_N_ELEMENTS (texts));
  g_rand_free (rand);

  /* The odd ones: empty values, a long string holding the text only at its end, values nested
   * 30 deep, control characters and a NUL, a binary value whose bytes are a text, numbers at
   * the ends of the range. */
  {
    g_autoptr (GString) long_text = g_string_new (NULL);
    g_autoptr (GString) deep = g_string_new (NULL);
    g_autofree char *long_item = NULL;
    g_autofree char *deep_item = NULL;
    const char *odd[] = {
      "{\"PK\": {\"S\": \"\"}, \"m\": {\"M\": {}}, \"l\": {\"L\": []}}",
      "{\"PK\": {\"S\": \"a\\u0000b\\t\\n\\u001f-Ab \\u0000Über\"}}",
      "{\"PK\": {\"S\": \"k\"}, \"b\": {\"B\": \"dHJ1ZSBRMSAjNyB6eg==\"},"
      " \"bs\": {\"BS\": [\"QWI=\"]}}",
      "{\"PK\": {\"S\": \"k\"}, \"big\": {\"N\": \"9.9999999999999999999999999999999999999E+125\"},"
      " \"small\": {\"N\": \"-1E-130\"}, \"ns\": {\"NS\": [\"0\", \"12\", \"-0.5\"]}}",
      NULL,
      NULL,
    };

    for (guint i = 0; i < 5000; i++)
      g_string_append_c (long_text, 'x');
    g_string_append (long_text, " straße Q1 #7 zz");
    long_item = g_strdup_printf ("{\"PK\": {\"S\": \"%s\"}}", long_text->str);
    for (guint i = 0; i < 30; i++)
      g_string_append (deep, "{\"L\": [");
    g_string_append (deep, "{\"S\": \"Über #7\"}, {\"N\": \"0.5\"}, {\"BOOL\": false}");
    for (guint i = 0; i < 30; i++)
      g_string_append (deep, "]}");
    deep_item = g_strdup_printf ("{\"PK\": {\"S\": \"k\"}, \"d\": %s}", deep->str);
    odd[4] = long_item;
    odd[5] = deep_item;
    for (guint k = 0; k < G_N_ELEMENTS (odd); k++)
      {
        g_autoptr (DdbValue) item = item_from (odd[k]);

        for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
          finds (texts[t], item);
      }
    /* The text at the end of the long string, and deep down, is found; in binary, not. */
    {
      g_autoptr (DdbValue) item = item_from (long_item);
      g_autoptr (DdbValue) nested = item_from (deep_item);
      g_autoptr (DdbValue) binary = item_from (odd[2]);

      g_assert_true (finds ("STRASSE", item) == FALSE); /* ASCII text: ß is no "ss" */
      g_assert_true (finds ("straße q1", item));
      g_assert_true (finds ("über #7", nested));
      g_assert_true (finds ("false", nested));
      g_assert_false (finds ("zz", binary));
      g_assert_false (finds ("ab", binary));
    }
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/row-match/what-is-found", test_what_is_found);
  g_test_add_func ("/row-match/encoded-as-decoded", test_encoded_as_decoded);
  return g_test_run ();
}
