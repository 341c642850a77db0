/* item-corpus.c: the generated item corpus of item-corpus.h. */
#include "item-corpus.h"

#include "core/ddbjson.h"
#include "core/keycodec.h"
#include "core/number.h"

static const char *const strings[] = {
  "",
  "plain",
  "with,comma",
  "with \"quotes\"",
  "line\nbreak",
  "crlf\r\nend",
  " spaced ",
  "ünïcödé ✓ 日本語 🦆",
  "tab\there",
  "\"",
  ",",
  "a\"\"b",
  "{\"S\":\"not json\"}",
  "NULL",
  "true",
};

static const char *const numbers[] = {
  "0",
  "1",
  "-1",
  "1.5",
  "12345678901234567890123456789012345678",
  "-12345678901234567890123456789012345678",
  "0.00000000000000000000000000000000000001",
  "9.9999999999999999999999999999999999999E+125",
  "-9.9999999999999999999999999999999999999E+125",
  "1E-130",
  "-1E-130",
  "3.14159265358979323846264338327950288",
  "100",
  "1000000",
};

static const char *const names[] = {
  "name",   "a,b", "q\"uote", "new\nline", "ünï",  "x (N)",   "price (S)", "n",
  "s",      "set", "nested",  "bin",       "flag", "nothing", "list",      "comma, and \"both\"",
  "sp ace",
};

static DdbValue *
num (const char *text)
{
  DdbNumber n;

  g_assert_true (ddb_number_parse (&n, text, -1, NULL));
  return ddb_value_new_n (&n);
}

static DdbValue *
binary (GRand *r)
{
  guint len = (guint) g_rand_int_range (r, 0, 9);
  guint8 bytes[8];

  for (guint i = 0; i < len; i++)
    bytes[i] = (guint8) g_rand_int_range (r, 0, 256);
  if (len > 0 && g_rand_boolean (r))
    bytes[0] = 0xff; /* odd bytes: not UTF-8 */
  return ddb_value_new_b (bytes, len);
}

static DdbValue *
random_value (GRand *r, guint depth)
{
  guint kind = (guint) g_rand_int_range (r, 0, depth < 3 ? 11 : 8);

  switch (kind)
    {
    case 0:
      return ddb_value_new_s (strings[g_rand_int_range (r, 0, G_N_ELEMENTS (strings))], -1);
    case 1:
      return num (numbers[g_rand_int_range (r, 0, G_N_ELEMENTS (numbers))]);
    case 2:
      return binary (r);
    case 3:
      return ddb_value_new_bool (g_rand_boolean (r));
    case 4:
      return ddb_value_new_null ();
      case 5: {
        DdbValue *set = ddb_value_new_set (DDB_TYPE_SS);
        guint n = (guint) g_rand_int_range (r, 1, 5);

        for (guint i = 0; i < n; i++)
          ddb_value_set_add (
              set, ddb_value_new_s (strings[g_rand_int_range (r, 0, G_N_ELEMENTS (strings))], -1));
        return set;
      }
      case 6: {
        DdbValue *set = ddb_value_new_set (DDB_TYPE_NS);
        guint n = (guint) g_rand_int_range (r, 1, 5);

        for (guint i = 0; i < n; i++)
          ddb_value_set_add (set, num (numbers[g_rand_int_range (r, 0, G_N_ELEMENTS (numbers))]));
        return set;
      }
      case 7: {
        DdbValue *set = ddb_value_new_set (DDB_TYPE_BS);
        guint n = (guint) g_rand_int_range (r, 1, 4);

        for (guint i = 0; i < n; i++)
          ddb_value_set_add (set, binary (r));
        return set;
      }
    case 8:
      case 9: {
        DdbValue *m = ddb_value_new_m ();
        guint n = (guint) g_rand_int_range (r, 0, 4);

        for (guint i = 0; i < n; i++)
          ddb_value_map_set (m, names[g_rand_int_range (r, 0, G_N_ELEMENTS (names))],
                             random_value (r, depth + 1));
        return m;
      }
      default: {
        DdbValue *l = ddb_value_new_l ();
        guint n = (guint) g_rand_int_range (r, 0, 4);

        for (guint i = 0; i < n; i++)
          ddb_value_list_append (l, random_value (r, depth + 1));
        return l;
      }
    }
}

GPtrArray *
corpus_items (guint n, guint32 seed, const char *hash_name, const char *range_name)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (seed);
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);

  for (guint i = 0; i < n; i++)
    {
      DdbValue *item = ddb_value_new_m ();
      guint extra = (guint) g_rand_int_range (r, 0, 8);
      g_autofree char *key = g_strdup_printf ("k%05u-%s", i, i % 3 == 0 ? "ü,\"x\"" : "plain");

      ddb_value_map_set (item, hash_name, ddb_value_new_s (key, -1));
      if (range_name != NULL)
        ddb_value_map_set (item, range_name, num (numbers[i % G_N_ELEMENTS (numbers)]));
      for (guint k = 0; k < extra; k++)
        {
          const char *name = names[g_rand_int_range (r, 0, G_N_ELEMENTS (names))];

          if (g_strcmp0 (name, hash_name) == 0 || g_strcmp0 (name, range_name) == 0)
            continue;
          ddb_value_map_set (item, name, random_value (r, 1));
        }
      g_ptr_array_add (items, item);
    }
  return items;
}

static GBytes *
code_of (const DdbValue *item, const char *hash_name, const char *range_name)
{
  GByteArray *out = g_byte_array_new ();

  g_assert_true (ddb_key_encode (ddb_value_map_get (item, hash_name), out, NULL));
  if (range_name != NULL)
    g_assert_true (ddb_key_encode (ddb_value_map_get (item, range_name), out, NULL));
  return g_byte_array_free_to_bytes (out);
}

void
corpus_assert_same_items (GPtrArray *want, GPtrArray *got, const char *hash_name,
                          const char *range_name)
{
  g_autoptr (GHashTable) by_key
      = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);

  g_assert_cmpuint (got->len, ==, want->len);
  for (guint i = 0; i < got->len; i++)
    {
      const DdbValue *item = g_ptr_array_index (got, i);

      g_assert_true (
          g_hash_table_insert (by_key, code_of (item, hash_name, range_name), (gpointer) item));
    }
  for (guint i = 0; i < want->len; i++)
    {
      const DdbValue *w = g_ptr_array_index (want, i);
      g_autoptr (GBytes) code = code_of (w, hash_name, range_name);
      const DdbValue *g = g_hash_table_lookup (by_key, code);

      if (g == NULL || !ddb_value_equal (w, g))
        {
          g_autofree char *wt = ddb_json_format_value (w);
          g_autofree char *gt = g != NULL ? ddb_json_format_value (g) : g_strdup ("(absent)");

          g_error ("item %u differs:\n want %s\n got  %s", i, wt, gt);
        }
    }
}
