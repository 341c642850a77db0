/* test-row-arrange.c: the grid's sort and grouping of loaded rows on their worker (no display)
 * give exactly what the plain way gives: each row's values built and compared
 * (dy_format_compare_cells, dy_format_compare_keys), each row's partition key written as text
 * (dy_format_key). Over many random rows of every type, with missing attributes, numbers of 38
 * digits, negative, huge and tiny, strings with U+0000, control characters and beyond ASCII,
 * binaries, equal values, keys of two types that show as one text, and sort keys ascending and
 * descending, one or several, with and without Find's text. */
#define G_LOG_DOMAIN "test-row-arrange"

#include <glib/gstdio.h>
#include <string.h>

#include "app/browser/dy-group.h"
#include "app/browser/dy-row-arrange.h"
#include "app/common/dy-format.h"
#include "core/itemcodec.h"
#include "core/itemsize.h"

#define NO_PK "(no partition key)"

static DdbValue *
number (const char *text)
{
  DdbNumber n;
  g_autoptr (GError) error = NULL;

  g_assert_true (ddb_number_parse (&n, text, -1, &error));
  return ddb_value_new_n (&n);
}

static const char *const numbers[] = {
  "0",
  "1",
  "-1",
  "1.0",
  "10",
  "0.1",
  "-0.1",
  "2",
  "-2",
  "9.99",
  "100",
  "1E+125",
  "-1E+125",
  "1E-130",
  "-1E-130",
  "9.9999999999999999999999999999999999999E+125",
  "12345678901234567890123456789012345678",
  "12345678901234567890123456789012345679",
  "-12345678901234567890123456789012345678",
  "0.00000000000000000000000000000000000012",
  "1234567890123456789012345678901234567.8",
  "123456789012345678901234567890123456.78",
  "-0.5",
  "0.5",
  "0.05",
  "5",
  "50",
  "3.14159",
  "-3.14159",
  "7E+10",
  "7E-10",
};

static const char *const strings[] = {
  "",           "a",          "A",          "ab",      "abc",  "b",    "a\n",  "a\\n",
  "WS#acme#01", "WS#acme#02", "WS#acme#10", "WS#acme", "café", "cafe", "日本", "\xF0\x9F\x98\x80",
  "1",          "-1",         "true",       NO_PK,     "\x7F", " ",
};

/* A string with U+0000 in it, or of bytes around 0x00 and 0xFF. */
static DdbValue *
odd_bytes (GRand *rand, DdbType type)
{
  static const char *const s[] = { "a\0", "a\0b", "\0", "a\0\0", "ab\0" };
  static const gsize lens[] = { 2, 3, 1, 3, 3 };
  static const guint8 b[][3] = { { 0, 0, 0 }, { 0xFF, 0, 0 }, { 0, 0xFF, 0 }, { 1, 0, 0 } };
  guint i = g_rand_int_range (rand, 0, G_N_ELEMENTS (s));
  guint j = g_rand_int_range (rand, 0, G_N_ELEMENTS (b));

  if (type == DDB_TYPE_S)
    return ddb_value_new_s (s[i], (gssize) lens[i]);
  return ddb_value_new_b (b[j], (gsize) g_rand_int_range (rand, 0, 4));
}

static DdbValue *
random_scalar (GRand *rand, DdbType type)
{
  switch (type)
    {
    case DDB_TYPE_S:
      if (g_rand_int_range (rand, 0, 6) == 0)
        return odd_bytes (rand, type);
      return ddb_value_new_s (strings[g_rand_int_range (rand, 0, G_N_ELEMENTS (strings))], -1);
    case DDB_TYPE_N:
      return number (numbers[g_rand_int_range (rand, 0, G_N_ELEMENTS (numbers))]);
    case DDB_TYPE_B:
      return odd_bytes (rand, type);
    case DDB_TYPE_BOOL:
      return ddb_value_new_bool (g_rand_boolean (rand));
    default:
      return ddb_value_new_null ();
    }
}

/* A value of any type, S and N most often. */
static DdbValue *
random_value (GRand *rand)
{
  static const DdbType types[] = {
    DDB_TYPE_S,    DDB_TYPE_S,    DDB_TYPE_S, DDB_TYPE_N, DDB_TYPE_N,  DDB_TYPE_N,  DDB_TYPE_B,
    DDB_TYPE_BOOL, DDB_TYPE_NULL, DDB_TYPE_M, DDB_TYPE_L, DDB_TYPE_SS, DDB_TYPE_NS, DDB_TYPE_BS,
  };
  DdbType type = types[g_rand_int_range (rand, 0, G_N_ELEMENTS (types))];
  DdbValue *v;

  switch (type)
    {
    case DDB_TYPE_M:
      v = ddb_value_new_m ();
      for (guint i = 0, n = g_rand_int_range (rand, 0, 3); i < n; i++)
        ddb_value_map_set (v, i == 0 ? "x" : "y", random_scalar (rand, DDB_TYPE_N));
      return v;
    case DDB_TYPE_L:
      v = ddb_value_new_l ();
      for (guint i = 0, n = g_rand_int_range (rand, 0, 3); i < n; i++)
        ddb_value_list_append (v, random_scalar (rand, DDB_TYPE_S));
      return v;
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      v = ddb_value_new_set (type);
      for (guint i = 0, n = g_rand_int_range (rand, 1, 3); i < n; i++)
        ddb_value_set_add (v, random_scalar (rand, ddb_type_set_element (type)));
      return v;
    default:
      return random_scalar (rand, type);
    }
}

/* A partition key: few of them (collections of several rows), S and N that show as one text,
 * shards, a missing one and one showing as the missing one's text. */
static DdbValue *
random_pk (GRand *rand)
{
  static const char *const texts[] = { "USER#1",     "1",          "a\n",     "a\\n", "WS#acme#01",
                                       "WS#acme#02", "WS#acme#03", "WS#acme", NO_PK,  "" };
  guint i = g_rand_int_range (rand, 0, 16);

  if (i < G_N_ELEMENTS (texts))
    return ddb_value_new_s (texts[i], -1);
  if (i == 10)
    return number ("1");
  if (i == 11)
    return number ("1.0E0");
  if (i == 12)
    return ddb_value_new_b ("\x01", 1); /* shows as "AQ==" */
  if (i == 13)
    return ddb_value_new_s ("AQ==", -1);
  if (i == 14)
    return random_value (rand); /* not a key type: shown by its text */
  return NULL;
}

/* N random items, attributes "pk", "sk", "a", "b", "c" (each missing at times) and others, in a
 * random order. */
static GPtrArray *
random_items (GRand *rand, guint n)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  static const char *const names[] = { "a", "b", "c", "sk", "other", "x" };

  for (guint i = 0; i < n; i++)
    {
      DdbValue *item = ddb_value_new_m ();
      DdbValue *pk = random_pk (rand);
      guint order = g_rand_int_range (rand, 0, G_N_ELEMENTS (names));

      if (g_rand_boolean (rand))
        ddb_value_map_set (item, "first", ddb_value_new_s ("attribute", -1));
      if (pk != NULL)
        ddb_value_map_set (item, "pk", pk);
      for (guint j = 0; j < G_N_ELEMENTS (names); j++)
        {
          const char *name = names[(order + j) % G_N_ELEMENTS (names)];

          if (g_rand_int_range (rand, 0, 5) > 0)
            ddb_value_map_set (item, name, random_value (rand));
        }
      g_ptr_array_add (items, item);
    }
  return items;
}

static DyRows *
rows_of (GPtrArray *items)
{
  DyRows *rows = dy_rows_new ();
  g_autoptr (GError) error = NULL;

  /* In pages of 100, as loaded. */
  for (guint from = 0; from < items->len; from += 100)
    {
      g_autoptr (GPtrArray) page_items = g_ptr_array_new ();
      DyRowPage *page;

      for (guint i = from; i < MIN (from + 100, items->len); i++)
        g_ptr_array_add (page_items, items->pdata[i]);
      page = dy_row_page_new_from_values (dy_rows_get_store (rows), page_items, &error);
      g_assert_no_error (error);
      g_assert_true (dy_rows_add_page (rows, page));
      dy_row_page_free (page);
    }
  return rows;
}

/* ---- Sorting: the plain way ---- */

typedef struct {
  GPtrArray *items;
  GPtrArray *keys; /* DyRowSortKey* */
} Plain;

static int
plain_compare (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const Plain *plain = user_data;
  guint ra = *(const guint32 *) a, rb = *(const guint32 *) b;

  for (guint j = 0; j < plain->keys->len; j++)
    {
      const DyRowSortKey *key = plain->keys->pdata[j];
      int c = dy_format_compare_cells (ddb_value_map_get (plain->items->pdata[ra], key->name),
                                       ddb_value_map_get (plain->items->pdata[rb], key->name));

      if (c != 0)
        return key->descending ? -c : c;
    }
  return ra < rb ? -1 : ra > rb;
}

static GArray *
plain_sort (GPtrArray *items, GPtrArray *keys, const char *find)
{
  g_autoptr (DyRowMatch) match = dy_row_match_new (find);
  GArray *positions = g_array_new (FALSE, FALSE, sizeof (guint32));
  Plain plain = { items, keys };

  for (guint32 i = 0; i < items->len; i++)
    {
      g_autoptr (GByteArray) bytes = g_byte_array_new ();
      gboolean found;

      ddb_item_encode (items->pdata[i], bytes);
      g_assert_true (dy_row_match_encoded (match, bytes->data, bytes->len, &found, NULL));
      if (found)
        g_array_append_val (positions, i);
    }
  if (keys->len > 0)
    g_qsort_with_data (positions->data, (gint) positions->len, sizeof (guint32), plain_compare,
                       &plain);
  return positions;
}

static void
assert_sorted_as_plain (DyRows *rows, GPtrArray *items, GPtrArray *keys, const char *find)
{
  DyRowsSnapshot *snapshot = dy_rows_snapshot (rows);
  g_autoptr (DyRowMatch) match = dy_row_match_new (find);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) got = dy_row_arrange_sort (snapshot, match, keys, NULL, &error);
  g_autoptr (GArray) want = plain_sort (items, keys, find);

  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint i = 0; i < want->len; i++)
    if (g_array_index (got, guint32, i) != g_array_index (want, guint32, i))
      {
        g_autoptr (GString) which = g_string_new (NULL);

        for (guint j = 0; j < keys->len; j++)
          g_string_append_printf (which, "%s%s ", ((DyRowSortKey *) keys->pdata[j])->name,
                                  ((DyRowSortKey *) keys->pdata[j])->descending ? "-" : "+");
        g_error ("sorted by %sfind %s: position %u holds row %u, not %u", which->str,
                 find != NULL ? find : "-", i, g_array_index (got, guint32, i),
                 g_array_index (want, guint32, i));
      }
  dy_rows_snapshot_free (snapshot);
}

static GPtrArray *
keys_of (const char *spec)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func ((GDestroyNotify) dy_row_sort_key_free);
  g_auto (GStrv) parts = g_strsplit (spec, " ", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    if (*parts[i] != '\0')
      g_ptr_array_add (keys, dy_row_sort_key_new (parts[i] + 1, parts[i][0] == '-'));
  return keys;
}

static void
test_sort (void)
{
  static const char *const specs[]
      = { "",    "+a",  "-a",      "+b",       "+a -b",       "-a +b",           "-c +a -b",
          "+sk", "+pk", "-pk +sk", "+missing", "+missing -a", "+a +b +c +sk +pk" };
  static const char *const finds[] = { NULL, "a", "1", "e" };
  GRand *rand = g_rand_new_with_seed (42);

  for (guint round = 0; round < 4; round++)
    {
      /* Rows past the few a key's bytes sort alone, and many of one value. */
      g_autoptr (GPtrArray) items = random_items (rand, round == 0 ? 30 : 3000);
      g_autoptr (DyRows) rows = rows_of (items);

      for (guint s = 0; s < G_N_ELEMENTS (specs); s++)
        for (guint f = 0; f < G_N_ELEMENTS (finds); f++)
          {
            g_autoptr (GPtrArray) keys = keys_of (specs[s]);

            assert_sorted_as_plain (rows, items, keys, finds[f]);
          }
    }
  g_rand_free (rand);
}

/* Numbers alone, many of them alike in their first digits, and long strings alike in their
 * first hundreds of bytes: the keys' bytes past the first eight, and past the depth where they
 * are compared whole. */
static void
test_sort_long_keys (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  g_autoptr (DyRows) rows = NULL;
  g_autofree char *base = g_strnfill (600, 'x');

  for (guint i = 0; i < 4000; i++)
    {
      DdbValue *item = ddb_value_new_m ();
      g_autofree char *digits = g_strdup_printf ("%s1234567890123456789012345678901%s%03d",
                                                 g_rand_boolean (rand) ? "-" : "",
                                                 g_rand_boolean (rand) ? "" : ".", i % 997);
      g_autofree char *text = g_strdup_printf ("%.*s%d", g_rand_int_range (rand, 0, 600), base,
                                               g_rand_int_range (rand, 0, 50));

      ddb_value_map_set (item, "n", number (digits));
      ddb_value_map_set (item, "s", ddb_value_new_s (text, -1));
      g_ptr_array_add (items, item);
    }
  rows = rows_of (items);
  for (guint d = 0; d < 2; d++)
    {
      g_autoptr (GPtrArray) by_n = keys_of (d ? "-n" : "+n");
      g_autoptr (GPtrArray) by_s = keys_of (d ? "-s +n" : "+s -n");

      assert_sorted_as_plain (rows, items, by_n, NULL);
      assert_sorted_as_plain (rows, items, by_s, NULL);
    }
  g_rand_free (rand);
}

/* ---- Grouping: the plain way ---- */

typedef struct {
  GPtrArray *items;
  const char *sk;
  gboolean descending;
} PlainGroup;

static int
plain_in_collection (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const PlainGroup *plain = user_data;
  const DdbValue *va = ddb_value_map_get (plain->items->pdata[*(const guint32 *) a], plain->sk);
  const DdbValue *vb = ddb_value_map_get (plain->items->pdata[*(const guint32 *) b], plain->sk);
  int c;

  if (va == NULL || vb == NULL)
    c = (va == NULL) - (vb == NULL);
  else
    c = dy_format_compare_keys (va, vb);
  return plain->descending ? -c : c;
}

static GListModel *
plain_group (DyRows *rows, GPtrArray *items, const char *sk, gboolean descending, const char *find)
{
  g_autoptr (DyRowMatch) match = dy_row_match_new (find);
  g_autoptr (DyGroupBuilder) builder = dy_group_builder_new ();
  PlainGroup plain = { items, sk, descending };

  for (guint32 i = 0; i < items->len; i++)
    {
      g_autoptr (GByteArray) bytes = g_byte_array_new ();
      const DdbValue *pk = ddb_value_map_get (items->pdata[i], "pk");
      g_autofree char *text = pk != NULL ? dy_format_key (pk) : g_strdup (NO_PK);
      gboolean found;

      ddb_item_encode (items->pdata[i], bytes);
      g_assert_true (dy_row_match_encoded (match, bytes->data, bytes->len, &found, NULL));
      if (found)
        dy_group_builder_add (builder, text, i, ddb_item_size (items->pdata[i]));
    }
  return dy_group_builder_finish (builder, rows, sk != NULL ? plain_in_collection : NULL, &plain);
}

/* The collections as text: each key, shard marks, count and size, and its rows, or its
 * collections. */
static void
describe (GString *out, GListModel *groups, guint depth)
{
  for (guint i = 0; i < g_list_model_get_n_items (groups); i++)
    {
      g_autoptr (DyGroup) group = g_list_model_get_item (groups, i);
      GListModel *children = dy_group_get_items (group);
      const char *suffix = dy_group_get_shard_suffix (group);

      g_string_append_printf (out, "%*s%s (%s%s): %u items, %" G_GUINT64_FORMAT " B:",
                              (int) depth * 2, "", dy_group_get_key_text (group),
                              dy_group_is_shard_set (group) ? "set" : "",
                              suffix != NULL ? suffix : "", dy_group_get_n_items (group),
                              dy_group_get_total_size (group));
      if (g_list_model_get_item_type (children) == DY_TYPE_GROUP)
        {
          g_string_append_c (out, '\n');
          describe (out, children, depth + 1);
          continue;
        }
      for (guint r = 0; r < g_list_model_get_n_items (children); r++)
        g_string_append_printf (out, " %u",
                                dy_row_list_get_source_position (DY_ROW_LIST (children), r));
      g_string_append_c (out, '\n');
    }
}

static void
test_group (void)
{
  static const char *const finds[] = { NULL, "a", "1" };
  GRand *rand = g_rand_new_with_seed (4242);

  for (guint round = 0; round < 3; round++)
    {
      g_autoptr (GPtrArray) items = random_items (rand, round == 0 ? 40 : 2500);
      g_autoptr (DyRows) rows = rows_of (items);

      for (guint f = 0; f < G_N_ELEMENTS (finds); f++)
        for (guint s = 0; s < 5; s++)
          {
            const char *sk = s == 0 ? NULL : s <= 2 ? "sk" : "a";
            gboolean descending = s % 2 == 0;
            DyRowsSnapshot *snapshot = dy_rows_snapshot (rows);
            g_autoptr (DyRowMatch) match = dy_row_match_new (finds[f]);
            g_autoptr (GError) error = NULL;
            guint kept = G_MAXUINT;
            g_autoptr (GListModel) got = dy_row_arrange_group (
                rows, snapshot, match, "pk", sk, descending, NO_PK, &kept, NULL, &error);
            g_autoptr (GListModel) want = plain_group (rows, items, sk, descending, finds[f]);
            g_autoptr (GString) got_text = g_string_new (NULL);
            g_autoptr (GString) want_text = g_string_new (NULL);
            guint want_kept = 0;

            g_assert_no_error (error);
            describe (got_text, got, 0);
            describe (want_text, want, 0);
            g_assert_cmpstr (got_text->str, ==, want_text->str);
            for (guint i = 0; i < g_list_model_get_n_items (want); i++)
              {
                g_autoptr (DyGroup) group = g_list_model_get_item (want, i);

                want_kept += dy_group_get_n_items (group);
              }
            g_assert_cmpuint (kept, ==, want_kept);
            dy_rows_snapshot_free (snapshot);
          }
    }
  g_rand_free (rand);
}

/* A cancelled sort or grouping says so. */
static void
test_cancelled (void)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  g_autoptr (DyRows) rows = NULL;
  DyRowsSnapshot *snapshot;
  g_autoptr (GPtrArray) keys = keys_of ("+a");
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  GError *error = NULL;
  guint kept;

  for (guint i = 0; i < 10; i++)
    {
      DdbValue *item = ddb_value_new_m ();

      ddb_value_map_set (item, "pk", ddb_value_new_s ("k", -1));
      ddb_value_map_set (item, "a", number ("1"));
      g_ptr_array_add (items, item);
    }
  rows = rows_of (items);
  snapshot = dy_rows_snapshot (rows);
  g_cancellable_cancel (cancellable);
  g_assert_null (dy_row_arrange_sort (snapshot, NULL, keys, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_null (dy_row_arrange_group (rows, snapshot, NULL, "pk", "a", FALSE, NO_PK, &kept,
                                       cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  dy_rows_snapshot_free (snapshot);
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = g_dir_make_tmp ("test-row-arrange-XXXXXX", NULL);
  g_autofree char *spill_dir = NULL;
  int status;

  /* The spill files go to an unlinked file in the cache folder: a private one. */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/row-arrange/sort", test_sort);
  g_test_add_func ("/row-arrange/sort-long-keys", test_sort_long_keys);
  g_test_add_func ("/row-arrange/group", test_group);
  g_test_add_func ("/row-arrange/cancelled", test_cancelled);
  status = g_test_run ();
  spill_dir = g_build_filename (cache, "dynoscope", NULL);
  g_rmdir (spill_dir);
  g_rmdir (cache);
  return status;
}
