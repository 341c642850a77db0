/* test-row-match.c: Find in Loaded Rows' test of a row (no display): a text found in strings,
 * numbers as the grid shows them, true, false and null at any depth, case-insensitive (ASCII
 * and beyond), never in attribute names or binary values; read from an item's encoding with
 * exactly the answer of the built item, over many items and texts, those the encoded bytes rule
 * out at once (a string's text) and those walked value by value (digits, "e", "ru", non-ASCII). */
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

/* Both ways of asking: the decoded item, and its encoding. */
static gboolean
finds (const char *text, const DdbValue *item)
{
  g_autoptr (DyRowMatch) match = dy_row_match_new (text);
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  GError *error = NULL;
  gboolean found = FALSE;
  gboolean direct = dy_row_match_item (match, item);

  ddb_item_encode (item, bytes);
  g_assert_true (dy_row_match_encoded (match, bytes->data, bytes->len, &found, &error));
  g_assert_no_error (error);
  if (found != direct)
    g_error ("\"%s\": %d decoded, %d encoded", text, direct, found);
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
  g_assert_true (dy_row_match_item (NULL, item));
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
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/row-match/what-is-found", test_what_is_found);
  g_test_add_func ("/row-match/encoded-as-decoded", test_encoded_as_decoded);
  return g_test_run ();
}
