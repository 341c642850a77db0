/* test-ddbjson-page.c: a Query's or Scan's answer read without a tree of its items
 * (ddb_json_read_page) against the client's other path, jansson's object and ddb_json_to_item
 * of each element of Items: the answers DynamoDB Local and dynalite wrote (fuzz/corpus/page,
 * every type, escapes, deep nesting, counts, LastEvaluatedKey, ConsumedCapacity, Select
 * COUNT) are read directly and to the same members and items, and so are values at the deepest
 * nesting DynamoDB takes, U+0000 escaped in a string and long values; answers written in ways the
 * direct reading leaves to jansson (a name with escapes, Items twice, an item with a name twice,
 * nesting past 32 levels, bytes that are not UTF-8, a raw control character, malformed text)
 * are left to it; and a thousand pages of random items, written compactly,
 * indented, ASCII-escaped or with escaped slashes, are read directly to the same values. */
#include <string.h>

#include "core/ddbjson.h"

/* What the client's jansson path gives for TEXT: the object without Items and the items, or
 * FALSE when it is not an object. */
static gboolean
reference (const char *text, gsize len, json_t **rest, GPtrArray **items)
{
  json_t *object = json_loadb (text, len, JSON_ALLOW_NUL, NULL);
  json_t *list;
  json_t *element;
  gsize i;

  if (!json_is_object (object))
    {
      json_decref (object);
      return FALSE;
    }
  *items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  list = json_object_get (object, "Items");
  json_array_foreach (list, i, element)
    {
      DdbValue *item = ddb_json_to_item (element, NULL);

      g_assert_nonnull (item);
      g_ptr_array_add (*items, item);
    }
  json_object_del (object, "Items");
  *rest = object;
  return TRUE;
}

/* Reads TEXT both ways: TRUE when the direct reading took it (then with the reference's
 * members and items), FALSE when it left it to jansson (then handing nothing out). */
static gboolean
read_both (const char *text, gsize len)
{
  json_t *rest = NULL;
  GPtrArray *items = NULL;
  json_t *expected_rest = NULL;
  GPtrArray *expected_items = NULL;

  if (!ddb_json_read_page (text, len, "Items", &rest, &items))
    {
      g_assert_null (rest);
      g_assert_null (items);
      return FALSE;
    }
  g_assert_true (reference (text, len, &expected_rest, &expected_items));
  g_assert_true (json_equal (rest, expected_rest));
  g_assert_cmpuint (items->len, ==, expected_items->len);
  for (guint i = 0; i < items->len; i++)
    g_assert_true (ddb_value_equal (items->pdata[i], expected_items->pdata[i]));
  json_decref (rest);
  json_decref (expected_rest);
  g_ptr_array_unref (items);
  g_ptr_array_unref (expected_items);
  return TRUE;
}

static void
test_corpus (void)
{
  const char *srcdir = g_getenv ("DYNOSCOPE_SOURCE_DIR");
  g_autofree char *dir = NULL;
  g_autoptr (GDir) d = NULL;
  const char *name;
  guint servers = 0;

  if (srcdir == NULL)
    {
      g_test_skip ("DYNOSCOPE_SOURCE_DIR is not set");
      return;
    }
  dir = g_build_filename (srcdir, "fuzz", "corpus", "page", NULL);
  d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *text = NULL;
      gsize len;
      gboolean direct;
      /* Written by a server, or by hand in a way the direct reading takes. */
      gboolean expected
          = !g_str_has_prefix (name, "edge-") || g_str_equal (name, "edge-pretty.json")
            || g_str_equal (name, "edge-empty.json") || g_str_equal (name, "edge-nesting-31.json")
            || g_str_equal (name, "edge-nul-escape.json");

      g_assert_true (g_file_get_contents (path, &text, &len, NULL));
      direct = read_both (text, len);
      if (direct != expected)
        g_error ("%s: %s", name, direct ? "read directly" : "left to jansson");
      if (!g_str_has_prefix (name, "edge-"))
        servers++;
    }
  /* DynamoDB Local's and dynalite's answers: seven of each */
  g_assert_cmpuint (servers, >=, 14);
}

/* ---- Random pages ---- */

static char *
random_text (GRand *rand)
{
  static const gunichar odd[] = { '"',  '\\', '/',    '\n',   '\t',   0x01,    0x1F,
                                  0x7F, 0xE9, 0x2028, 0x4E2D, 0xFFFD, 0x1F600, 0x10FFFF };
  GString *s = g_string_new (NULL);
  guint n = g_rand_int_range (rand, 0, 12);

  for (guint i = 0; i < n; i++)
    {
      if (g_rand_int_range (rand, 0, 3) == 0)
        g_string_append_unichar (s, odd[g_rand_int_range (rand, 0, G_N_ELEMENTS (odd))]);
      else
        g_string_append_c (s, (char) g_rand_int_range (rand, 'a', 'z' + 1));
    }
  return g_string_free (s, FALSE);
}

static char *
random_number (GRand *rand)
{
  GString *s = g_string_new (g_rand_boolean (rand) ? "-" : "");
  guint digits = g_rand_int_range (rand, 1, 39);

  g_string_append_c (s, (char) g_rand_int_range (rand, '1', '9' + 1));
  for (guint i = 1; i < digits; i++)
    {
      if (i == digits / 2 && g_rand_boolean (rand))
        g_string_append_c (s, '.');
      g_string_append_c (s, (char) g_rand_int_range (rand, '0', '9' + 1));
    }
  if (g_rand_int_range (rand, 0, 3) == 0)
    g_string_append_printf (s, "E%+d", g_rand_int_range (rand, -90, 90));
  return g_string_free (s, FALSE);
}

static json_t *random_value (GRand *rand, guint depth);

static json_t *
random_map (GRand *rand, guint depth)
{
  json_t *m = json_object ();
  guint n = g_rand_int_range (rand, 0, 5);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = random_text (rand);
      g_autofree char *key = g_strdup_printf ("%s%u", text, i);

      json_object_set_new (m, key, random_value (rand, depth + 1));
    }
  return m;
}

static json_t *
random_value (GRand *rand, guint depth)
{
  guint kind = g_rand_int_range (rand, 0, depth > 4 ? 7 : 10);
  g_autofree char *text = NULL;

  switch (kind)
    {
    case 0:
      text = random_text (rand);
      return json_pack ("{ss}", "S", text);
    case 1:
      text = random_number (rand);
      return json_pack ("{ss}", "N", text);
      case 2: {
        guchar bytes[8];
        guint n = g_rand_int_range (rand, 1, sizeof bytes);

        for (guint i = 0; i < n; i++)
          bytes[i] = (guchar) g_rand_int_range (rand, 0, 256);
        text = g_base64_encode (bytes, n);
        return json_pack ("{ss}", "B", text);
      }
    case 3:
      return json_pack ("{sb}", "BOOL", g_rand_boolean (rand));
    case 4:
      return json_pack ("{sb}", "NULL", TRUE);
      case 5: {
        json_t *set = json_array ();
        guint n = g_rand_int_range (rand, 1, 4);

        for (guint i = 0; i < n; i++)
          {
            g_autofree char *element = random_text (rand);
            g_autofree char *unique = g_strdup_printf ("%u%s", i, element);

            json_array_append_new (set, json_string (unique));
          }
        return json_pack ("{so}", "SS", set);
      }
    case 6:
      return json_pack ("{s[ss]}", "NS", "1", "-2.5E+3");
    case 7:
    case 8:
      return json_pack ("{so}", "M", random_map (rand, depth));
      default: {
        json_t *list = json_array ();
        guint n = g_rand_int_range (rand, 0, 4);

        for (guint i = 0; i < n; i++)
          json_array_append_new (list, random_value (rand, depth + 1));
        return json_pack ("{so}", "L", list);
      }
    }
}

static void
test_random_pages (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261207);
  static const size_t flags[]
      = { JSON_COMPACT, JSON_INDENT (2), JSON_ENSURE_ASCII, JSON_ESCAPE_SLASH | JSON_COMPACT,
          JSON_INDENT (1) | JSON_SORT_KEYS };

  for (guint page = 0; page < 1000; page++)
    {
      json_t *answer = json_object ();
      json_t *list = json_array ();
      guint n = g_rand_int_range (rand, 0, 8);
      char *text;

      for (guint i = 0; i < n; i++)
        {
          json_t *item = random_map (rand, 1);
          g_autofree char *pk = random_text (rand);

          json_object_set_new (item, "pk", json_pack ("{ss}", "S", pk));
          json_array_append_new (list, item);
        }
      json_object_set_new (answer, "Count", json_integer (n));
      json_object_set_new (answer, "Items", list);
      json_object_set_new (answer, "ScannedCount", json_integer (n + page));
      if (g_rand_boolean (rand))
        json_object_set_new (answer, "LastEvaluatedKey", json_pack ("{s{ss}}", "pk", "S", "k"));
      if (g_rand_boolean (rand))
        json_object_set_new (answer, "ConsumedCapacity",
                             json_pack ("{sssf}", "TableName", "T", "CapacityUnits", 2.5));
      text = json_dumps (answer, flags[page % G_N_ELEMENTS (flags)]);
      g_assert_nonnull (text);
      if (!read_both (text, strlen (text)))
        g_error ("a page left to jansson: %s", text);
      free (text);
      json_decref (answer);
    }
}

/* Long values: a 300,000-character string of two-byte characters with escapes, a 2,048-byte key
 * and a 64 KiB binary, read directly to the same values. */
static void
test_long_values (void)
{
  GString *text = g_string_new ("{\"Items\":[{\"pk\":{\"S\":\"");
  g_autofree guchar *bytes = g_malloc (65536);
  g_autofree char *b64 = NULL;

  for (guint i = 0; i < 2048; i++)
    g_string_append_c (text, (char) ('a' + i % 26));
  g_string_append (text, "\"},\"v\":{\"S\":\"");
  for (guint i = 0; i < 300000; i++)
    g_string_append (text, i % 1000 == 999 ? "\\\"" : "\xc3\xa9");
  for (guint i = 0; i < 65536; i++)
    bytes[i] = (guchar) (i * 7);
  b64 = g_base64_encode (bytes, 65536);
  g_string_append_printf (text, "\"},\"b\":{\"B\":\"%s\"}}],\"Count\":1}", b64);
  g_assert_true (read_both (text->str, text->len));
  g_string_free (text, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ddbjson-page/corpus", test_corpus);
  g_test_add_func ("/ddbjson-page/random-pages", test_random_pages);
  g_test_add_func ("/ddbjson-page/long-values", test_long_values);
  return g_test_run ();
}
