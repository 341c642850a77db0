/* test-store.c: the SQLite store: catalog, item put/get/delete, key order within a partition,
 * Query bounds (BETWEEN, begins_with on awkward bytes), backwards reads, continuation after a
 * key, parallel Scan segments, index maintenance, persistence and durability settings, and the
 * idempotency tokens. */
#include <glib.h>
#include <glib/gstdio.h>
#include <jansson.h>
#include <sqlite3.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemsize.h"
#include "engine/engine-private.h"
#include "engine/store.h"
#include "../core/test-util.h"
#include "engine-test-util.h"

/* ---- Helpers ---- */

static DdbKeyDef
key_def (const char *hash, DdbType ht, const char *range, DdbType rt)
{
  DdbKeyDef k = { g_strdup (hash), ht, g_strdup (range), rt };

  return k;
}

static DdbTableDef *
table_def (const char *name, const char *hash, DdbType ht, const char *range, DdbType rt)
{
  DdbTableDef *def = g_new0 (DdbTableDef, 1);

  def->name = g_strdup (name);
  def->key = key_def (hash, ht, range, rt);
  def->indexes = g_ptr_array_new ();
  def->meta = json_object ();
  return def;
}

static DdbIndexDef *
add_index (DdbTableDef *def, const char *name, gboolean global, const char *hash, DdbType ht,
           const char *range, DdbType rt, DdbProjectionType proj, const char *const *include)
{
  DdbIndexDef *index = g_new0 (DdbIndexDef, 1);

  index->name = g_strdup (name);
  index->global = global;
  index->key = key_def (hash, ht, range, rt);
  index->projection = proj;
  index->non_key_attributes = g_strdupv ((char **) include);
  g_ptr_array_add (def->indexes, index);
  return index;
}

static DdbStore *
open_memory (void)
{
  GError *error = NULL;
  DdbStore *store = ddb_store_open (":memory:", &error);

  g_assert_no_error (error);
  g_assert_nonnull (store);
  return store;
}

static void
put (DdbStore *store, const DdbTableDef *def, const char *json)
{
  g_autoptr (DdbValue) item = tu_item (json);
  GError *error = NULL;

  g_assert_true (ddb_store_item_put (store, def, item, &error));
  g_assert_no_error (error);
}

static DdbValue *
get (DdbStore *store, const DdbTableDef *def, const char *key_json)
{
  g_autoptr (DdbValue) key = tu_item (key_json);
  DdbValue *item = NULL;
  GError *error = NULL;

  g_assert_true (ddb_store_item_get (store, def, key, &item, &error));
  g_assert_no_error (error);
  return item;
}

/* Reads a cursor to the end; returns the values of `attr` joined with ",". */
static char *
drain (DdbStore *store, const DdbTableDef *def, const DdbStoreRange *range, const char *attr)
{
  GError *error = NULL;
  g_autoptr (DdbStoreCursor) cursor = ddb_store_cursor_open (store, def, range, &error);
  GString *out = g_string_new (NULL);
  DdbValue *item;

  g_assert_no_error (error);
  g_assert_nonnull (cursor);
  while ((item = ddb_store_cursor_next (cursor, NULL, &error)) != NULL)
    {
      DdbValue *v = ddb_value_map_get (item, attr);

      if (out->len > 0)
        g_string_append_c (out, ',');
      if (v == NULL)
        g_string_append (out, "-");
      else if (v->type == DDB_TYPE_N)
        ddb_number_append (&v->number, out);
      else if (v->type == DDB_TYPE_S)
        {
          /* U+0000 shows as \0 so results compare as C strings. */
          for (gsize i = 0; i < v->bytes.len; i++)
            {
              if (v->bytes.data[i] == '\0')
                g_string_append (out, "\\0");
              else
                g_string_append_c (out, v->bytes.data[i]);
            }
        }
      else
        {
          for (gsize i = 0; i < v->bytes.len; i++)
            g_string_append_printf (out, "%02x", (guint8) v->bytes.data[i]);
        }
      ddb_value_free (item);
    }
  g_assert_no_error (error);
  return g_string_free (out, FALSE);
}

static void
create (DdbStore *store, DdbTableDef *def)
{
  GError *error = NULL;

  g_assert_true (ddb_store_table_create (store, def, &error));
  g_assert_no_error (error);
  g_assert_cmpint (def->id, >, 0);
}

static char *
query_str (DdbStore *store, const DdbTableDef *def, const DdbIndexDef *index, const char *hash,
           DdbSortKeyOp op, DdbValue *a, DdbValue *b, gboolean forward, const DdbValue *start,
           const char *attr)
{
  g_autoptr (DdbValue) h = tu_str (hash);
  DdbStoreRange range = { index, h, op, { a, b }, forward, 0, 1, start };

  return drain (store, def, &range, attr);
}

/* ---- Catalog ---- */

static void
test_catalog (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) a = table_def ("alpha", "pk", DDB_TYPE_S, NULL, DDB_TYPE_S);
  g_autoptr (DdbTableDef) b = table_def ("Beta", "id", DDB_TYPE_N, "sk", DDB_TYPE_B);
  g_autoptr (DdbTableDef) dup = table_def ("alpha", "x", DDB_TYPE_S, NULL, DDB_TYPE_S);
  g_autoptr (DdbTableDef) got = NULL;
  g_autoptr (GPtrArray) names = NULL;
  GError *error = NULL;
  gint64 first_id;

  json_object_set_new (a->meta, "TableId", json_string ("abc"));
  add_index (a, "byX", TRUE, "x", DDB_TYPE_S, "y", DDB_TYPE_N, DDB_PROJECTION_INCLUDE,
             (const char *const[]){ "p", "q", NULL });
  create (store, a);
  create (store, b);
  g_assert_cmpint (((DdbIndexDef *) a->indexes->pdata[0])->id, ==, 1);
  g_assert_cmpint (b->id, >, a->id);

  g_assert_false (ddb_store_table_create (store, dup, &error));
  tu_assert_error (error, DDB_ERROR_RESOURCE_IN_USE, "Table already exists: alpha");
  g_clear_error (&error);

  got = ddb_store_table_get (store, "alpha", &error);
  g_assert_no_error (error);
  g_assert_cmpint (got->id, ==, a->id);
  g_assert_cmpstr (got->key.hash_name, ==, "pk");
  g_assert_null (got->key.range_name);
  g_assert_cmpuint (got->indexes->len, ==, 1);
  {
    DdbIndexDef *ix = got->indexes->pdata[0];

    g_assert_cmpstr (ix->name, ==, "byX");
    g_assert_true (ix->global);
    g_assert_cmpint (ix->key.range_type, ==, DDB_TYPE_N);
    g_assert_cmpint (ix->projection, ==, DDB_PROJECTION_INCLUDE);
    g_assert_cmpstr (ix->non_key_attributes[1], ==, "q");
    g_assert_null (ix->non_key_attributes[2]);
    g_assert_true (ddb_table_def_index (got, "byX") == ix);
    g_assert_null (ddb_table_def_index (got, "nope"));
  }
  g_assert_cmpstr (json_string_value (json_object_get (got->meta, "TableId")), ==, "abc");

  g_assert_null (ddb_store_table_get (store, "gamma", &error));
  tu_assert_error (error, DDB_ERROR_RESOURCE_NOT_FOUND, "Requested resource not found");
  g_clear_error (&error);

  /* Byte order: upper case before lower case. */
  names = ddb_store_table_names (store, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (names->len, ==, 2);
  g_assert_cmpstr (names->pdata[0], ==, "Beta");
  g_assert_cmpstr (names->pdata[1], ==, "alpha");
  g_clear_pointer (&names, g_ptr_array_unref);
  names = ddb_store_table_names (store, "Beta", 1, &error);
  g_assert_cmpuint (names->len, ==, 1);
  g_assert_cmpstr (names->pdata[0], ==, "alpha");
  g_clear_pointer (&names, g_ptr_array_unref);

  /* Ids are never given again after a drop. */
  first_id = a->id;
  put (store, a, "{'pk': {'S': 'k'}, 'x': {'S': 'x'}, 'y': {'N': '1'}}");
  g_assert_true (ddb_store_table_delete (store, a, &error));
  g_assert_no_error (error);
  g_assert_null (ddb_store_table_get (store, "alpha", &error));
  g_clear_error (&error);
  {
    g_autoptr (DdbTableDef) again = table_def ("alpha", "pk", DDB_TYPE_S, NULL, DDB_TYPE_S);
    g_autoptr (DdbValue) item = NULL;
    gint64 count = -1, size = -1;

    create (store, again);
    g_assert_cmpint (again->id, >, b->id);
    g_assert_cmpint (again->id, !=, first_id);
    item = get (store, again, "{'pk': {'S': 'k'}}");
    g_assert_null (item);
    g_assert_true (ddb_store_table_stats (store, again, NULL, &count, &size, &error));
    g_assert_cmpint (count, ==, 0);
  }
}

/* ---- Items ---- */

static void
test_put_get_delete (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) def = table_def ("t1", "pk", DDB_TYPE_S, "sk", DDB_TYPE_N);
  g_autoptr (DdbTableDef) other = table_def ("t2", "pk", DDB_TYPE_S, "sk", DDB_TYPE_N);
  g_autoptr (DdbValue) item = NULL;
  g_autoptr (DdbValue) key = NULL;
  GError *error = NULL;
  gint64 count, size;

  create (store, def);
  create (store, other);
  put (store, def, "{'pk': {'S': 'a'}, 'sk': {'N': '1'}, 'z': {'S': 'first'}, 'b': {'L': [{'NULL': true}]}}");
  put (store, other, "{'pk': {'S': 'a'}, 'sk': {'N': '1'}, 'z': {'S': 'other table'}}");

  /* 1.0 and 1E0 are the key 1. */
  item = get (store, def, "{'pk': {'S': 'a'}, 'sk': {'N': '1.0'}}");
  g_assert_nonnull (item);
  tu_assert_item (item, "{'pk': {'S': 'a'}, 'sk': {'N': '1'}, 'z': {'S': 'first'}, 'b': {'L': [{'NULL': true}]}}");
  /* Attribute order is kept byte for byte. */
  {
    g_autofree char *text = ddb_json_format_item (item);

    g_assert_cmpstr (text, ==,
                     "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"z\":{\"S\":\"first\"},"
                     "\"b\":{\"L\":[{\"NULL\":true}]}}");
  }
  g_clear_pointer (&item, ddb_value_free);

  /* Replace the whole item. */
  put (store, def, "{'pk': {'S': 'a'}, 'sk': {'N': '1E0'}, 'y': {'BOOL': false}}");
  item = get (store, def, "{'pk': {'S': 'a'}, 'sk': {'N': '1'}}");
  tu_assert_item (item, "{'pk': {'S': 'a'}, 'sk': {'N': '1'}, 'y': {'BOOL': false}}");
  g_clear_pointer (&item, ddb_value_free);
  g_assert_true (ddb_store_table_stats (store, def, NULL, &count, &size, &error));
  g_assert_cmpint (count, ==, 1);
  g_assert_cmpint (size, ==, 2 + 1 + 2 + 2 + 1 + 1); /* pk a, sk 1 (2 bytes), y false */

  item = get (store, def, "{'pk': {'S': 'a'}, 'sk': {'N': '2'}}");
  g_assert_null (item);
  item = get (store, def, "{'pk': {'S': 'b'}, 'sk': {'N': '1'}}");
  g_assert_null (item);

  key = tu_item ("{'pk': {'S': 'a'}, 'sk': {'N': '1'}}");
  g_assert_true (ddb_store_item_delete (store, def, key, &error));
  g_assert_no_error (error);
  item = get (store, def, "{'pk': {'S': 'a'}, 'sk': {'N': '1'}}");
  g_assert_null (item);
  /* Deleting what is not there is no error. */
  g_assert_true (ddb_store_item_delete (store, def, key, &error));
  g_assert_no_error (error);
  /* The other table's item with the same key is untouched. */
  item = get (store, other, "{'pk': {'S': 'a'}, 'sk': {'N': '1'}}");
  g_assert_nonnull (item);
  g_clear_pointer (&item, ddb_value_free);

  /* A missing key attribute is an error, not a crash. */
  {
    g_autoptr (DdbValue) bad = tu_item ("{'pk': {'S': 'a'}}");

    g_assert_false (ddb_store_item_put (store, def, bad, &error));
    g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
    g_clear_error (&error);
  }
}

static void
test_transactions (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) def = table_def ("t", "pk", DDB_TYPE_S, NULL, DDB_TYPE_S);
  g_autoptr (DdbValue) item = NULL;
  GError *error = NULL;

  create (store, def);
  g_assert_true (ddb_store_begin (store, &error));
  g_assert_false (ddb_store_begin (store, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_clear_error (&error);
  put (store, def, "{'pk': {'S': 'gone'}}");
  ddb_store_rollback (store);
  item = get (store, def, "{'pk': {'S': 'gone'}}");
  g_assert_null (item);

  g_assert_true (ddb_store_begin (store, &error));
  put (store, def, "{'pk': {'S': 'kept'}}");
  g_assert_true (ddb_store_commit (store, &error));
  g_assert_no_error (error);
  item = get (store, def, "{'pk': {'S': 'kept'}}");
  g_assert_nonnull (item);
  g_assert_false (ddb_store_commit (store, &error));
  g_clear_error (&error);
  ddb_store_rollback (store); /* no-op without a transaction */
}

/* Group commit: inside a group each begin/commit/rollback is a savepoint, so a rolled-back call
 * takes back its own writes and its statistics only, while the group's other calls stay. */
static void
test_group_savepoints (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) def = table_def ("t", "pk", DDB_TYPE_S, NULL, DDB_TYPE_S);
  g_autoptr (DdbValue) a = tu_item ("{'pk': {'S': 'a'}, 'v': {'S': 'first'}}");
  g_autoptr (DdbValue) c = tu_item ("{'pk': {'S': 'c'}}");
  g_autoptr (DdbValue) item = NULL;
  GError *error = NULL;
  gint64 count = -1, size = -1;

  create (store, def);
  g_assert_true (ddb_store_group_begin (store, &error));
  g_assert_true (ddb_store_begin (store, &error));
  put (store, def, "{'pk': {'S': 'a'}, 'v': {'S': 'first'}}");
  g_assert_true (ddb_store_commit (store, &error));
  /* A call that writes, overwrites the first call's item, then fails. */
  g_assert_true (ddb_store_begin (store, &error));
  put (store, def, "{'pk': {'S': 'b'}}");
  put (store, def, "{'pk': {'S': 'a'}, 'v': {'S': 'a much longer second value'}}");
  ddb_store_rollback (store);
  /* A write outside an explicit transaction: a savepoint of its own. */
  put (store, def, "{'pk': {'S': 'c'}}");
  g_assert_false (ddb_store_group_lost (store));
  g_assert_true (ddb_store_group_end (store, &error));
  g_assert_no_error (error);

  item = get (store, def, "{'pk': {'S': 'a'}}");
  g_assert_true (ddb_value_equal (item, a));
  g_clear_pointer (&item, ddb_value_free);
  item = get (store, def, "{'pk': {'S': 'b'}}");
  g_assert_null (item);
  g_assert_true (ddb_store_table_stats (store, def, NULL, &count, &size, &error));
  g_assert_cmpint (count, ==, 2);
  g_assert_cmpint (size, ==, (gint64) (ddb_item_size (a) + ddb_item_size (c)));
}

/* When SQLite ends a group's transaction by itself (here an I/O error: the WAL may not grow while
 * a large group spills its pages), the group is lost: nothing of it is kept, and no later write
 * of the group may begin a transaction of its own (committed alone, behind the group's back). */
static void
test_group_lost (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbstore-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "lost.sqlite", NULL);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autoptr (DdbTableDef) def = table_def ("t", "pk", DDB_TYPE_S, NULL, DDB_TYPE_S);
  g_autofree char *filler = g_strnfill (300000, 'x');
  GError *error = NULL;
  DdbStore *store = ddb_store_open (path, &error);
  struct rlimit saved, limited;
  struct stat st;
  void (*saved_handler) (int);
  gint64 count = -1, size = -1;
  gboolean failed = FALSE;

  g_assert_no_error (error);
  create (store, def);
  g_assert_cmpint (stat (wal, &st), ==, 0);
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  saved_handler = signal (SIGXFSZ, SIG_IGN);
  limited = saved;
  limited.rlim_cur = (rlim_t) st.st_size;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limited), ==, 0);

  g_assert_true (ddb_store_group_begin (store, &error));
  /* Far more than the page cache holds (32 MiB), in calls of one item each. */
  for (guint i = 0; i < 400 && !failed; i++)
    {
      g_autofree char *json
          = g_strdup_printf ("{'pk': {'S': 'big%u'}, 'v': {'S': '%s'}}", i, filler);
      g_autoptr (DdbValue) item = tu_item (json);

      g_assert_true (ddb_store_begin (store, &error));
      failed = !ddb_store_item_put (store, def, item, &error) || !ddb_store_commit (store, &error);
      if (failed)
        ddb_store_rollback (store);
    }
  g_assert_true (failed);
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_clear_error (&error);
  g_assert_true (ddb_store_group_lost (store));

  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  signal (SIGXFSZ, saved_handler);
  g_assert_false (ddb_store_begin (store, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_clear_error (&error);
  {
    g_autoptr (DdbValue) item = tu_item ("{'pk': {'S': 'stray'}}");

    g_assert_false (ddb_store_item_put (store, def, item, &error));
    g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
    g_clear_error (&error);
  }
  g_assert_false (ddb_store_group_end (store, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_clear_error (&error);

  /* Once the group is over, the store writes again. */
  put (store, def, "{'pk': {'S': 'after'}}");
  ddb_store_free (store);
  store = ddb_store_open (path, &error);
  g_assert_no_error (error);
  g_assert_true (ddb_store_table_stats (store, def, NULL, &count, &size, &error));
  g_assert_cmpint (count, ==, 1);
  {
    g_autoptr (DdbValue) item = get (store, def, "{'pk': {'S': 'after'}}");
    g_autoptr (DdbValue) stray = get (store, def, "{'pk': {'S': 'stray'}}");
    g_autoptr (DdbValue) big = get (store, def, "{'pk': {'S': 'big0'}}");

    g_assert_nonnull (item);
    g_assert_null (stray);
    g_assert_null (big);
  }
  ddb_store_free (store);
  etu_remove_tree (dir);
}

/* ---- Key order ---- */

static void
test_order_numbers (void)
{
  static const char *const sorted[] = {
    "-1E+125", "-100", "-10", "-9.5", "-1", "-0.5", "-0.05", "-1E-130", "0", "1E-130",
    "0.0001", "0.5", "1", "1.5", "2", "9.99", "10", "10.01", "100", "1E+125",
  };
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) def = table_def ("n", "pk", DDB_TYPE_S, "sk", DDB_TYPE_N);
  g_autoptr (GString) expected = g_string_new (NULL);
  g_autoptr (GString) reversed = g_string_new (NULL);
  g_autofree char *got = NULL;
  g_autofree char *back = NULL;

  create (store, def);
  /* Insert in a scrambled order. */
  for (guint i = 0; i < G_N_ELEMENTS (sorted); i++)
    {
      guint j = (i * 7) % G_N_ELEMENTS (sorted);
      g_autofree char *json
        = g_strdup_printf ("{'pk': {'S': 'p'}, 'sk': {'N': '%s'}, 'v': {'N': '%s'}}", sorted[j],
                           sorted[j]);

      put (store, def, json);
    }
  put (store, def, "{'pk': {'S': 'q'}, 'sk': {'N': '0'}}"); /* another partition */
  for (guint i = 0; i < G_N_ELEMENTS (sorted); i++)
    {
      g_autoptr (DdbValue) v = tu_num (sorted[i]);
      g_autoptr (DdbValue) r = tu_num (sorted[G_N_ELEMENTS (sorted) - 1 - i]);

      g_string_append_printf (expected, "%s", i > 0 ? "," : "");
      ddb_number_append (&v->number, expected);
      g_string_append_printf (reversed, "%s", i > 0 ? "," : "");
      ddb_number_append (&r->number, reversed);
    }
  got = query_str (store, def, NULL, "p", DDB_SK_NONE, NULL, NULL, TRUE, NULL, "sk");
  g_assert_cmpstr (got, ==, expected->str);
  back = query_str (store, def, NULL, "p", DDB_SK_NONE, NULL, NULL, FALSE, NULL, "sk");
  g_assert_cmpstr (back, ==, reversed->str);
}

static void
test_order_strings_binary (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) s = table_def ("s", "pk", DDB_TYPE_S, "sk", DDB_TYPE_S);
  g_autoptr (DdbTableDef) b = table_def ("b", "pk", DDB_TYPE_S, "sk", DDB_TYPE_B);
  g_autofree char *got = NULL;
  g_autofree char *gotb = NULL;
  /* Base64 of 00, 00 00, 00 01, 01, 7f, 80, ff, ff 00, ff ff. */
  static const char *const bins[]
    = { "/w==", "AA==", "AQ==", "gA==", "AAA=", "//8=", "fw==", "AAE=", "/wA=" };

  create (store, s);
  create (store, b);
  put (store, s, "{'pk': {'S': 'p'}, 'sk': {'S': 'b'}}");
  put (store, s, "{'pk': {'S': 'p'}, 'sk': {'S': 'a'}}");
  put (store, s, "{'pk': {'S': 'p'}, 'sk': {'S': 'ab'}}");
  put (store, s, "{'pk': {'S': 'p'}, 'sk': {'S': 'B'}}");
  put (store, s, "{'pk': {'S': 'p'}, 'sk': {'S': '\\u00e9'}}");
  put (store, s, "{'pk': {'S': 'p'}, 'sk': {'S': 'a\\u0000b'}}");
  put (store, s, "{'pk': {'S': 'p'}, 'sk': {'S': 'z'}}");
  got = query_str (store, s, NULL, "p", DDB_SK_NONE, NULL, NULL, TRUE, NULL, "sk");
  /* UTF-8 byte order: "B" < "a" < "a\0b" < "ab" < "b" < "z" < "é". */
  g_assert_cmpstr (got, ==, "B,a,a\\0b,ab,b,z,\xc3\xa9");

  for (guint i = 0; i < G_N_ELEMENTS (bins); i++)
    {
      g_autofree char *json = g_strdup_printf ("{'pk': {'S': 'p'}, 'sk': {'B': '%s'}}", bins[i]);

      put (store, b, json);
    }
  gotb = query_str (store, b, NULL, "p", DDB_SK_NONE, NULL, NULL, TRUE, NULL, "sk");
  g_assert_cmpstr (gotb, ==, "00,0000,0001,01,7f,80,ff,ff00,ffff");
}

/* ---- Query bounds ---- */

static void
test_query_operators (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) def = table_def ("q", "pk", DDB_TYPE_S, "sk", DDB_TYPE_N);
  struct {
    DdbSortKeyOp op;
    const char *a, *b;
    const char *fwd, *back;
  } cases[] = {
    { DDB_SK_EQ, "3", NULL, "3", "3" },
    { DDB_SK_EQ, "3.5", NULL, "", "" },
    { DDB_SK_LT, "3", NULL, "-2,1,2", "2,1,-2" },
    { DDB_SK_LE, "3", NULL, "-2,1,2,3", "3,2,1,-2" },
    { DDB_SK_GT, "3", NULL, "10,20", "20,10" },
    { DDB_SK_GE, "3", NULL, "3,10,20", "20,10,3" },
    { DDB_SK_GT, "20", NULL, "", "" },
    { DDB_SK_BETWEEN, "1", "10", "1,2,3,10", "10,3,2,1" },
    { DDB_SK_BETWEEN, "-5", "1.5", "-2,1", "1,-2" },
    { DDB_SK_BETWEEN, "3", "3", "3", "3" },
    { DDB_SK_BETWEEN, "4", "9", "", "" },
  };

  create (store, def);
  put (store, def, "{'pk': {'S': 'p'}, 'sk': {'N': '1'}}");
  put (store, def, "{'pk': {'S': 'p'}, 'sk': {'N': '2'}}");
  put (store, def, "{'pk': {'S': 'p'}, 'sk': {'N': '3'}}");
  put (store, def, "{'pk': {'S': 'p'}, 'sk': {'N': '10'}}");
  put (store, def, "{'pk': {'S': 'p'}, 'sk': {'N': '20'}}");
  put (store, def, "{'pk': {'S': 'p'}, 'sk': {'N': '-2'}}");
  put (store, def, "{'pk': {'S': 'o'}, 'sk': {'N': '3'}}");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DdbValue) a = tu_num (cases[i].a);
      g_autoptr (DdbValue) b = cases[i].b != NULL ? tu_num (cases[i].b) : NULL;
      g_autofree char *fwd = query_str (store, def, NULL, "p", cases[i].op, a, b, TRUE, NULL, "sk");
      g_autofree char *back = query_str (store, def, NULL, "p", cases[i].op, a, b, FALSE, NULL,
                                         "sk");

      g_assert_cmpstr (fwd, ==, cases[i].fwd);
      g_assert_cmpstr (back, ==, cases[i].back);
    }
  {
    g_autofree char *none = query_str (store, def, NULL, "zz", DDB_SK_NONE, NULL, NULL, TRUE,
                                       NULL, "sk");

    g_assert_cmpstr (none, ==, "");
  }
}

static void
test_begins_with (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) s = table_def ("s", "pk", DDB_TYPE_S, "sk", DDB_TYPE_S);
  g_autoptr (DdbTableDef) b = table_def ("b", "pk", DDB_TYPE_S, "sk", DDB_TYPE_B);
  /* B values (base64): 00, 00 00, 00 01, 00 ff, 01, ff, ff 00, ff ff, ff ff 01, fe ff */
  static const char *const bins[] = { "AA==", "AAA=", "AAE=", "AP8=", "AQ==", "/w==", "/wA=",
                                      "//8=", "//8B", "/v8=" };
  struct {
    const char *prefix_b64;
    const char *expected;
  } bcases[] = {
    { "AA==", "00,0000,0001,00ff" },  /* prefix 00 */
    { "AAA=", "0000" },               /* prefix 00 00 */
    { "/w==", "ff,ff00,ffff,ffff01" }, /* prefix ff: no upper bound byte */
    { "//8=", "ffff,ffff01" },        /* prefix ff ff */
    { "/v8=", "feff" },               /* prefix fe ff: the bound carries into fe -> ff */
    { "AP8=", "00ff" },               /* prefix 00 ff (looks like an escaped zero) */
    { "Ag==", "" },
  };
  struct {
    const char *prefix;
    gsize len;
    const char *expected, *backwards;
  } scases[] = {
    { "a", 1, "a,a\\0,a\\0b,ab,abc", "abc,ab,a\\0b,a\\0,a" },
    { "a\0", 2, "a\\0,a\\0b", "a\\0b,a\\0" },
    { "ab", 2, "ab,abc", "abc,ab" },
    { "abcd", 4, "", "" },
    { "\xc3", 1, "\xc3\xa9", "\xc3\xa9" }, /* a partial character: bytes still match */
  };

  create (store, s);
  create (store, b);
  for (guint i = 0; i < G_N_ELEMENTS (bins); i++)
    {
      g_autofree char *json = g_strdup_printf ("{'pk': {'S': 'p'}, 'sk': {'B': '%s'}}", bins[i]);

      put (store, b, json);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bcases); i++)
    {
      g_autofree char *json = g_strdup_printf ("{'x': {'B': '%s'}}", bcases[i].prefix_b64);
      g_autoptr (DdbValue) holder = tu_item (json);
      g_autofree char *got = query_str (store, b, NULL, "p", DDB_SK_BEGINS_WITH,
                                        ddb_value_map_get (holder, "x"), NULL, TRUE, NULL, "sk");

      g_assert_cmpstr (got, ==, bcases[i].expected);
    }

  put (store, s, "{'pk': {'S': 'p'}, 'sk': {'S': 'a'}}");
  put (store, s, "{'pk': {'S': 'p'}, 'sk': {'S': 'a\\u0000'}}");
  put (store, s, "{'pk': {'S': 'p'}, 'sk': {'S': 'a\\u0000b'}}");
  put (store, s, "{'pk': {'S': 'p'}, 'sk': {'S': 'ab'}}");
  put (store, s, "{'pk': {'S': 'p'}, 'sk': {'S': 'abc'}}");
  put (store, s, "{'pk': {'S': 'p'}, 'sk': {'S': 'b'}}");
  put (store, s, "{'pk': {'S': 'p'}, 'sk': {'S': '\\u00e9'}}");
  for (guint i = 0; i < G_N_ELEMENTS (scases); i++)
    {
      /* A raw S value: prefixes may be partial UTF-8 in this store-level test. */
      g_autoptr (DdbValue) prefix = ddb_value_new_s (scases[i].prefix, (gssize) scases[i].len);
      g_autofree char *got = query_str (store, s, NULL, "p", DDB_SK_BEGINS_WITH, prefix, NULL,
                                        TRUE, NULL, "sk");
      g_autofree char *back = query_str (store, s, NULL, "p", DDB_SK_BEGINS_WITH, prefix, NULL,
                                         FALSE, NULL, "sk");

      g_assert_cmpstr (got, ==, scases[i].expected);
      g_assert_cmpstr (back, ==, scases[i].backwards);
    }
}

/* ---- Continuation ---- */

static void
test_exclusive_start (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) def = table_def ("q", "pk", DDB_TYPE_S, "sk", DDB_TYPE_N);
  g_autoptr (DdbValue) start = tu_item ("{'pk': {'S': 'p'}, 'sk': {'N': '3'}}");
  g_autoptr (DdbValue) missing = tu_item ("{'pk': {'S': 'p'}, 'sk': {'N': '2.5'}}");
  g_autoptr (DdbValue) lo = tu_num ("2");
  g_autoptr (DdbValue) hi = tu_num ("4");
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL;

  create (store, def);
  for (int i = 1; i <= 5; i++)
    {
      g_autofree char *json = g_strdup_printf ("{'pk': {'S': 'p'}, 'sk': {'N': '%d'}}", i);

      put (store, def, json);
    }
  a = query_str (store, def, NULL, "p", DDB_SK_NONE, NULL, NULL, TRUE, start, "sk");
  g_assert_cmpstr (a, ==, "4,5");
  b = query_str (store, def, NULL, "p", DDB_SK_NONE, NULL, NULL, FALSE, start, "sk");
  g_assert_cmpstr (b, ==, "2,1");
  /* A start key that is not an item still continues after its place. */
  c = query_str (store, def, NULL, "p", DDB_SK_NONE, NULL, NULL, TRUE, missing, "sk");
  g_assert_cmpstr (c, ==, "3,4,5");
  /* Combined with a range: the tighter bound wins. */
  d = query_str (store, def, NULL, "p", DDB_SK_BETWEEN, lo, hi, TRUE, start, "sk");
  g_assert_cmpstr (d, ==, "4");
  e = query_str (store, def, NULL, "p", DDB_SK_BETWEEN, lo, hi, FALSE, start, "sk");
  g_assert_cmpstr (e, ==, "2");
}

/* Pages through a scan `page` items at a time, restarting from the last key each time. */
static char *
scan_paged (DdbStore *store, const DdbTableDef *def, const DdbIndexDef *index, guint segment,
            guint total, guint page, const char *attr)
{
  GString *out = g_string_new (NULL);
  g_autoptr (DdbValue) last = NULL;
  GError *error = NULL;

  for (;;)
    {
      DdbStoreRange range = { index, NULL, DDB_SK_NONE, { NULL, NULL }, TRUE, segment, total, last };
      g_autoptr (DdbStoreCursor) cursor = ddb_store_cursor_open (store, def, &range, &error);
      guint n = 0;
      DdbValue *item = NULL;

      g_assert_no_error (error);
      while (n < page && (item = ddb_store_cursor_next (cursor, NULL, &error)) != NULL)
        {
          DdbValue *v = ddb_value_map_get (item, attr);

          if (out->len > 0)
            g_string_append_c (out, ',');
          g_string_append_len (out, v->bytes.data, (gssize) v->bytes.len);
          n++;
          g_clear_pointer (&last, ddb_value_free);
          last = item;
        }
      g_assert_no_error (error);
      if (n < page)
        break;
    }
  return g_string_free (out, FALSE);
}

/* ddb_store_segment_of names the segment whose Scan returns the partition, for any split
 * (including totals that do not divide 2^32, where the boundaries round). */
static void
test_segment_of (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) def = table_def ("seg", "pk", DDB_TYPE_S, NULL, DDB_TYPE_S);
  static const guint totals[] = { 1, 2, 3, 7, 10, 1000 };
  GError *error = NULL;
  const guint n_items = 60;

  create (store, def);
  g_assert_true (ddb_store_begin (store, &error));
  for (guint i = 0; i < n_items; i++)
    {
      g_autofree char *json = g_strdup_printf ("{'pk': {'S': 'k%u'}}", i);

      put (store, def, json);
    }
  g_assert_true (ddb_store_commit (store, &error));

  for (guint t = 0; t < G_N_ELEMENTS (totals); t++)
    {
      for (guint i = 0; i < n_items; i++)
        {
          g_autofree char *name = g_strdup_printf ("k%u", i);
          g_autoptr (DdbValue) pk = ddb_value_new_s (name, -1);
          guint segment = ddb_store_segment_of (pk, totals[t]);
          g_autofree char *items = NULL;
          g_auto (GStrv) names = NULL;

          g_assert_cmpuint (segment, <, totals[t]);
          items = scan_paged (store, def, NULL, segment, totals[t], 1000, "pk");
          names = g_strsplit (items, ",", -1);
          g_assert_true (g_strv_contains ((const char *const *) names, name));
        }
    }
  /* Total 0 is read as 1, as the cursor reads it. */
  {
    g_autoptr (DdbValue) pk = ddb_value_new_s ("k1", -1);

    g_assert_cmpuint (ddb_store_segment_of (pk, 0), ==, 0);
  }
}

static void
test_parallel_scan (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) def = table_def ("s", "pk", DDB_TYPE_S, "sk", DDB_TYPE_N);
  g_autofree char *all = NULL;
  g_autofree char *paged = NULL;
  g_auto (GStrv) all_items = NULL;
  GError *error = NULL;
  const guint n_items = 300;

  create (store, def);
  g_assert_true (ddb_store_begin (store, &error));
  for (guint i = 0; i < n_items; i++)
    {
      /* 100 partitions of 3 items. */
      g_autofree char *json = g_strdup_printf (
        "{'pk': {'S': 'user#%u'}, 'sk': {'N': '%u'}, 'id': {'S': '%u'}}", i / 3, i % 3, i);

      put (store, def, json);
    }
  g_assert_true (ddb_store_commit (store, &error));

  all = scan_paged (store, def, NULL, 0, 1, 1000, "id");
  all_items = g_strsplit (all, ",", -1);
  g_assert_cmpuint (g_strv_length (all_items), ==, n_items);
  /* Items of a partition are together and in sort key order. */
  for (guint i = 0; i < n_items; i += 3)
    {
      guint first = (guint) g_ascii_strtoull (all_items[i], NULL, 10);

      g_assert_cmpuint (first % 3, ==, 0);
      g_assert_cmpuint ((guint) g_ascii_strtoull (all_items[i + 1], NULL, 10), ==, first + 1);
      g_assert_cmpuint ((guint) g_ascii_strtoull (all_items[i + 2], NULL, 10), ==, first + 2);
    }
  /* Paging with ExclusiveStartKey gives the same sequence. */
  paged = scan_paged (store, def, NULL, 0, 1, 7, "id");
  g_assert_cmpstr (paged, ==, all);

  for (guint total = 1; total <= 7; total++)
    {
      g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      guint count = 0;

      for (guint seg = 0; seg < total; seg++)
        {
          g_autofree char *part = scan_paged (store, def, NULL, seg, total, 5, "id");
          g_auto (GStrv) ids = g_strsplit (part, ",", -1);

          for (guint k = 0; part[0] != '\0' && ids[k] != NULL; k++)
            {
              g_assert_false (g_hash_table_contains (seen, ids[k]));
              g_hash_table_add (seen, g_strdup (ids[k]));
              count++;
            }
          /* Segments get a fair share (hash spread): none empty for small N. */
          if (total <= 4)
            g_assert_cmpuint (strlen (part), >, 0);
        }
      g_assert_cmpuint (count, ==, n_items);
    }
}

/* ---- Indexes ---- */

static void
test_index_maintenance (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) def = table_def ("ix", "pk", DDB_TYPE_S, "sk", DDB_TYPE_S);
  DdbIndexDef *gsi, *lsi, *keys;
  g_autoptr (DdbValue) key = NULL;
  GError *error = NULL;
  gint64 count, size;
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL, *f = NULL;

  gsi = add_index (def, "byStatus", TRUE, "status", DDB_TYPE_S, "score", DDB_TYPE_N,
                   DDB_PROJECTION_INCLUDE, (const char *const[]){ "name", NULL });
  lsi = add_index (def, "byDate", FALSE, "pk", DDB_TYPE_S, "date", DDB_TYPE_S,
                   DDB_PROJECTION_ALL, NULL);
  keys = add_index (def, "byName", TRUE, "name", DDB_TYPE_S, NULL, DDB_TYPE_S,
                    DDB_PROJECTION_KEYS_ONLY, NULL);
  create (store, def);

  put (store, def, "{'pk': {'S': 'u1'}, 'sk': {'S': 'a'}, 'status': {'S': 'open'}, 'score': {'N': '5'}, 'name': {'S': 'n1'}, 'date': {'S': '2024'}, 'x': {'S': 'big'}}");
  put (store, def, "{'pk': {'S': 'u2'}, 'sk': {'S': 'a'}, 'status': {'S': 'open'}, 'score': {'N': '5'}, 'name': {'S': 'n2'}}");
  put (store, def, "{'pk': {'S': 'u1'}, 'sk': {'S': 'b'}, 'status': {'S': 'open'}, 'score': {'N': '-1'}, 'date': {'S': '2023'}}");
  /* Sparse: no status -> not in byStatus; wrong type of score -> not either. */
  put (store, def, "{'pk': {'S': 'u3'}, 'sk': {'S': 'a'}, 'name': {'S': 'n3'}}");
  put (store, def, "{'pk': {'S': 'u4'}, 'sk': {'S': 'a'}, 'status': {'S': 'open'}, 'score': {'S': '7'}}");

  /* Equal index keys are ordered by the table key. */
  a = query_str (store, def, gsi, "open", DDB_SK_NONE, NULL, NULL, TRUE, NULL, "pk");
  g_assert_cmpstr (a, ==, "u1,u1,u2");
  b = query_str (store, def, gsi, "open", DDB_SK_NONE, NULL, NULL, FALSE, NULL, "pk");
  g_assert_cmpstr (b, ==, "u2,u1,u1");
  g_assert_true (ddb_store_table_stats (store, def, gsi, &count, &size, &error));
  g_assert_cmpint (count, ==, 3);

  /* Projection: INCLUDE keeps keys + name only, in the item's order. */
  {
    g_autoptr (DdbValue) h = tu_str ("open");
    g_autoptr (DdbValue) five = tu_num ("5");
    DdbStoreRange range = { gsi, h, DDB_SK_EQ, { five, NULL }, TRUE, 0, 1, NULL };
    g_autoptr (DdbStoreCursor) cursor = ddb_store_cursor_open (store, def, &range, &error);
    g_autoptr (DdbValue) first = ddb_store_cursor_next (cursor, NULL, &error);
    g_autofree char *text = ddb_json_format_item (first);

    g_assert_cmpstr (text, ==,
                     "{\"pk\":{\"S\":\"u1\"},\"sk\":{\"S\":\"a\"},\"status\":{\"S\":\"open\"},"
                     "\"score\":{\"N\":\"5\"},\"name\":{\"S\":\"n1\"}}");
  }
  /* Continuation inside a run of equal index keys uses the table key. */
  {
    g_autoptr (DdbValue) start = tu_item ("{'pk': {'S': 'u1'}, 'sk': {'S': 'a'}, 'status': {'S': 'open'}, 'score': {'N': '5'}}");

    c = query_str (store, def, gsi, "open", DDB_SK_NONE, NULL, NULL, TRUE, start, "pk");
    g_assert_cmpstr (c, ==, "u2");
    d = query_str (store, def, gsi, "open", DDB_SK_NONE, NULL, NULL, FALSE, start, "sk");
    g_assert_cmpstr (d, ==, "b");
  }

  /* LSI: same partition, ordered by date; KEYS_ONLY index: keys only. */
  e = query_str (store, def, lsi, "u1", DDB_SK_NONE, NULL, NULL, TRUE, NULL, "date");
  g_assert_cmpstr (e, ==, "2023,2024");
  f = query_str (store, def, keys, "n1", DDB_SK_NONE, NULL, NULL, TRUE, NULL, "x");
  g_assert_cmpstr (f, ==, "-");

  /* An update that moves the item between index keys, and one that drops it from the index. */
  put (store, def, "{'pk': {'S': 'u1'}, 'sk': {'S': 'a'}, 'status': {'S': 'closed'}, 'score': {'N': '5'}, 'name': {'S': 'n1'}}");
  {
    g_autofree char *open = query_str (store, def, gsi, "open", DDB_SK_NONE, NULL, NULL, TRUE,
                                       NULL, "pk");
    g_autofree char *closed = query_str (store, def, gsi, "closed", DDB_SK_NONE, NULL, NULL, TRUE,
                                         NULL, "pk");
    g_autofree char *dates = query_str (store, def, lsi, "u1", DDB_SK_NONE, NULL, NULL, TRUE, NULL,
                                        "date");

    g_assert_cmpstr (open, ==, "u1,u2"); /* u1/b has score -1 */
    g_assert_cmpstr (closed, ==, "u1");
    g_assert_cmpstr (dates, ==, "2023"); /* the new u1/a has no date */
  }

  key = tu_item ("{'pk': {'S': 'u2'}, 'sk': {'S': 'a'}}");
  g_assert_true (ddb_store_item_delete (store, def, key, &error));
  {
    g_autofree char *open = query_str (store, def, gsi, "open", DDB_SK_NONE, NULL, NULL, TRUE,
                                       NULL, "pk");
    g_autofree char *names = query_str (store, def, keys, "n2", DDB_SK_NONE, NULL, NULL, TRUE,
                                        NULL, "pk");

    g_assert_cmpstr (open, ==, "u1");
    g_assert_cmpstr (names, ==, "");
  }

  /* Index scan covers every entry exactly once across segments. */
  {
    g_autofree char *all = NULL;
    guint total = 0;

    for (guint seg = 0; seg < 3; seg++)
      {
        g_autofree char *part = scan_paged (store, def, keys, seg, 3, 1, "name");

        if (part[0] != '\0')
          {
            g_auto (GStrv) ids = g_strsplit (part, ",", -1);
            total += g_strv_length (ids);
          }
      }
    all = scan_paged (store, def, keys, 0, 1, 1, "name");
    g_assert_cmpuint (total, ==, 2); /* n1, n3 */
    g_assert_cmpuint (strlen (all), ==, 5);
  }
}

static void
test_index_backfill_and_drop (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) def = table_def ("bf", "pk", DDB_TYPE_S, NULL, DDB_TYPE_S);
  g_autoptr (DdbTableDef) got = NULL;
  DdbIndexDef *gsi;
  GError *error = NULL;
  gint64 count = 0, size = 0;

  create (store, def);
  put (store, def, "{'pk': {'S': 'a'}, 'g': {'S': 'x'}}");
  put (store, def, "{'pk': {'S': 'b'}, 'g': {'S': 'x'}}");
  put (store, def, "{'pk': {'S': 'c'}}");

  gsi = add_index (def, "byG", TRUE, "g", DDB_TYPE_S, NULL, DDB_TYPE_S, DDB_PROJECTION_ALL, NULL);
  g_assert_true (ddb_store_table_update (store, def, &error));
  g_assert_no_error (error);
  g_assert_cmpint (gsi->id, ==, 1);
  g_assert_true (ddb_store_table_stats (store, def, gsi, &count, &size, &error));
  g_assert_cmpint (count, ==, 2);
  {
    g_autofree char *x = query_str (store, def, gsi, "x", DDB_SK_NONE, NULL, NULL, TRUE, NULL,
                                    "pk");
    g_assert_cmpstr (x, ==, "a,b");
  }
  /* Drop it: the entries go; a new index never reuses the id. */
  g_ptr_array_remove_index (def->indexes, 0);
  g_free (gsi->name);
  g_free (gsi->key.hash_name);
  g_free (gsi);
  g_assert_true (ddb_store_table_update (store, def, &error));
  gsi = add_index (def, "byG2", TRUE, "g", DDB_TYPE_S, NULL, DDB_TYPE_S, DDB_PROJECTION_KEYS_ONLY,
                   NULL);
  g_assert_true (ddb_store_table_update (store, def, &error));
  g_assert_cmpint (gsi->id, ==, 2);
  got = ddb_store_table_get (store, "bf", &error);
  g_assert_cmpuint (got->indexes->len, ==, 1);
  g_assert_cmpint (((DdbIndexDef *) got->indexes->pdata[0])->id, ==, 2);
  g_assert_true (ddb_store_table_stats (store, def, gsi, &count, &size, &error));
  g_assert_cmpint (count, ==, 2);
}

/* ---- Keyless blobs and running statistics ---- */

/* Key attributes live in the key columns, not in the blob: the item still comes back whole, in
 * its own attribute order (keys anywhere, the sort key before the partition key), from the
 * table and from indexes whose keys overlap the table's or not. */
static void
test_keyless_order (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) def = table_def ("ko", "pk", DDB_TYPE_S, "sk", DDB_TYPE_N);
  const char *text = "{\"a\":{\"S\":\"x\"},\"sk\":{\"N\":\"1.5\"},\"b\":{\"N\":\"7\"},"
                     "\"pk\":{\"S\":\"p\\u0000q\"},\"c\":{\"M\":{\"pk\":{\"S\":\"inner\"}}}}";
  DdbIndexDef *gsi, *lsi, *swap;
  g_autoptr (DdbValue) item = NULL;
  g_autoptr (DdbValue) got = NULL;
  GError *error = NULL;

  gsi = add_index (def, "byB", TRUE, "b", DDB_TYPE_N, "a", DDB_TYPE_S, DDB_PROJECTION_ALL, NULL);
  lsi = add_index (def, "byA", FALSE, "pk", DDB_TYPE_S, "a", DDB_TYPE_S, DDB_PROJECTION_ALL, NULL);
  swap = add_index (def, "swap", TRUE, "sk", DDB_TYPE_N, "pk", DDB_TYPE_S, DDB_PROJECTION_ALL,
                    NULL);
  create (store, def);
  item = ddb_json_parse_item (text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (ddb_store_item_put (store, def, item, &error));
  got = get (store, def, "{'pk': {'S': 'p\\u0000q'}, 'sk': {'N': '1.50'}}");
  g_assert_nonnull (got);
  {
    g_autofree char *back = ddb_json_format_item (got);

    g_assert_cmpstr (back, ==, text);
  }
  for (guint i = 0; i < 3; i++)
    {
      const DdbIndexDef *index = (const DdbIndexDef *[]){ gsi, lsi, swap }[i];
      DdbStoreRange range = { index, NULL, DDB_SK_NONE, { NULL, NULL }, TRUE, 0, 1, NULL };
      g_autoptr (DdbStoreCursor) cursor = NULL;
      g_autoptr (DdbValue) entry = NULL;
      g_autofree char *back = NULL;

      /* A Scan of the index: its only entry. */
      cursor = ddb_store_cursor_open (store, def, &range, &error);
      g_assert_no_error (error);
      entry = ddb_store_cursor_next (cursor, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (entry);
      back = ddb_json_format_item (entry);
      g_assert_cmpstr (back, ==, text);
    }
}

/* Item count and size of a table or index, counted by reading everything. */
static void
count_all (DdbStore *store, const DdbTableDef *def, const DdbIndexDef *index, gint64 *count,
           gint64 *size)
{
  DdbStoreRange range = { index, NULL, DDB_SK_NONE, { NULL, NULL }, TRUE, 0, 1, NULL };
  GError *error = NULL;
  g_autoptr (DdbStoreCursor) cursor = ddb_store_cursor_open (store, def, &range, &error);
  DdbValue *item;

  g_assert_no_error (error);
  *count = 0;
  *size = 0;
  while ((item = ddb_store_cursor_next (cursor, NULL, &error)) != NULL)
    {
      *count += 1;
      *size += (gint64) ddb_item_size (item);
      ddb_value_free (item);
    }
  g_assert_no_error (error);
}

/* The running totals equal a full count, for the table and each index. */
static void
assert_stats_exact (DdbStore *store, const DdbTableDef *def)
{
  for (guint i = 0; i <= def->indexes->len; i++)
    {
      const DdbIndexDef *index = i == 0 ? NULL : def->indexes->pdata[i - 1];
      gint64 count = -1, size = -1, want_count, want_size;
      GError *error = NULL;

      count_all (store, def, index, &want_count, &want_size);
      g_assert_true (ddb_store_table_stats (store, def, index, &count, &size, &error));
      g_assert_no_error (error);
      g_assert_cmpint (count, ==, want_count);
      g_assert_cmpint (size, ==, want_size);
    }
}

static void
test_stats_running (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (DdbTableDef) def = table_def ("st", "pk", DDB_TYPE_S, "sk", DDB_TYPE_S);
  g_autoptr (DdbValue) key = NULL;
  DdbIndexDef *gsi;
  GError *error = NULL;
  gint64 count = 0, size = 0;

  gsi = add_index (def, "byS", TRUE, "s", DDB_TYPE_S, NULL, DDB_TYPE_S, DDB_PROJECTION_INCLUDE,
                   (const char *const[]){ "n", NULL });
  (void) gsi;
  /* Created and filled in one transaction, as an import does, with a key given twice. */
  g_assert_true (ddb_store_begin (store, &error));
  create (store, def);
  for (int i = 0; i < 40; i++)
    {
      g_autofree char *json = g_strdup_printf (
          "{'pk': {'S': 'p%d'}, 'sk': {'S': 's%d'}, 's': {'S': 'g%d'}, 'n': {'N': '%d'}, 'pad': {'S': '%.*s'}}",
          i % 7, i, i % 3, i, i % 11, "xxxxxxxxxxxxx");
      put (store, def, json);
    }
  put (store, def, "{'pk': {'S': 'p0'}, 's': {'S': 'moved'}, 'sk': {'S': 's0'}}");
  g_assert_true (ddb_store_table_stats (store, def, NULL, &count, &size, &error));
  g_assert_cmpint (count, ==, 40);
  assert_stats_exact (store, def);
  g_assert_true (ddb_store_commit (store, &error));
  assert_stats_exact (store, def);

  /* A replacement that grows, one that leaves the index (sparse), one that moves in it. */
  put (store, def, "{'pk': {'S': 'p1'}, 'sk': {'S': 's1'}, 's': {'S': 'g1'}, 'n': {'N': '1'}, 'big': {'S': 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'}}");
  put (store, def, "{'pk': {'S': 'p2'}, 'sk': {'S': 's2'}}");
  put (store, def, "{'pk': {'S': 'p3'}, 'sk': {'S': 's3'}, 's': {'S': 'g9'}}");
  assert_stats_exact (store, def);

  /* Deletes, of an item present and of one absent. */
  key = tu_item ("{'pk': {'S': 'p4'}, 'sk': {'S': 's4'}}");
  g_assert_true (ddb_store_item_delete (store, def, key, &error));
  g_assert_true (ddb_store_item_delete (store, def, key, &error));
  g_assert_no_error (error);
  assert_stats_exact (store, def);
  g_assert_true (ddb_store_table_stats (store, def, NULL, &count, &size, &error));
  g_assert_cmpint (count, ==, 39);

  /* A rolled-back transaction changes nothing. */
  g_assert_true (ddb_store_begin (store, &error));
  put (store, def, "{'pk': {'S': 'new'}, 'sk': {'S': 'x'}, 's': {'S': 'g1'}}");
  {
    g_autoptr (DdbValue) k5 = tu_item ("{'pk': {'S': 'p5'}, 'sk': {'S': 's5'}}");

    g_assert_true (ddb_store_item_delete (store, def, k5, &error));
  }
  ddb_store_rollback (store);
  assert_stats_exact (store, def);

  /* A new index is counted by its backfill; a dropped one's totals go with it. */
  add_index (def, "byN", TRUE, "n", DDB_TYPE_N, NULL, DDB_TYPE_S, DDB_PROJECTION_KEYS_ONLY, NULL);
  g_assert_true (ddb_store_table_update (store, def, &error));
  g_assert_no_error (error);
  assert_stats_exact (store, def);
  {
    DdbIndexDef *old = g_ptr_array_steal_index (def->indexes, 0);

    g_assert_true (ddb_store_table_update (store, def, &error));
    g_assert_true (ddb_store_table_stats (store, def, old, &count, &size, &error));
    g_assert_cmpint (count, ==, 0);
    g_assert_cmpint (size, ==, 0);
    ddb_index_def_free (old);
  }
  put (store, def, "{'pk': {'S': 'p6'}, 'sk': {'S': 's6'}, 'n': {'N': '66'}}");
  assert_stats_exact (store, def);

  /* Dropping the table drops its totals. */
  g_assert_true (ddb_store_table_delete (store, def, &error));
  g_assert_true (ddb_store_table_stats (store, def, NULL, &count, &size, &error));
  g_assert_cmpint (count, ==, 0);
}

/* A database written in an older development format is refused with a message that says so. */
static void
test_format_older (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbstore-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "old.sqlite", NULL);
  GError *error = NULL;
  sqlite3 *db = NULL;
  DdbStore *store;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "CREATE TABLE t (x); PRAGMA user_version=1", NULL, NULL,
                                 NULL),
                   ==, SQLITE_OK);
  sqlite3_close (db);
  store = ddb_store_open (path, &error);
  g_assert_null (store);
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_assert_nonnull (strstr (error->message, "older development version of Dynoscope (format 1,"
                                            " this version reads format 2)"));
  g_clear_error (&error);
  etu_remove_tree (dir);
}

/* ---- Readers while one writes ---- */

typedef struct {
  DdbEngine *engine;
  gint stop;
  gint done;
  gint reads;
  gint writes;
} Concurrent;

/* All ten items of partition P are written together, each time with one new version. */
static gpointer
writer_thread (gpointer data)
{
  Concurrent *c = data;

  for (int v = 1; v <= 60; v++)
    {
      GString *req = g_string_new ("{'TransactItems': [");
      json_t *resp;

      for (int i = 0; i < 10; i++)
        g_string_append_printf (req, "%s{'Put': {'TableName': 'conc', 'Item': {'pk': {'S': 'P'},"
                                     " 'sk': {'N': '%d'}, 'v': {'N': '%d'}}}}",
                                i > 0 ? "," : "", i, v);
      g_string_append (req, "]}");
      resp = etu_ok (c->engine, "TransactWriteItems", "%s", req->str);
      json_decref (resp);
      g_string_free (req, TRUE);
      etu_put (c->engine, "conc", "{'pk': {'S': 'other'}, 'sk': {'N': '1'}}");
      g_atomic_int_inc (&c->writes);
    }
  g_atomic_int_set (&c->stop, 1);
  return NULL;
}

/* Every page a reader gets shows one version of P: a snapshot, never half a write. */
static void
assert_one_version (json_t *items, gboolean whole)
{
  const char *seen = NULL;
  size_t i, n = 0;
  json_t *it;

  json_array_foreach (items, i, it)
    {
      const char *pk = json_string_value (json_object_get (json_object_get (it, "pk"), "S"));
      const char *v = json_string_value (json_object_get (json_object_get (it, "v"), "N"));

      if (g_strcmp0 (pk, "P") != 0)
        continue;
      n++;
      if (seen == NULL)
        seen = v;
      g_assert_cmpstr (v, ==, seen);
    }
  if (whole)
    g_assert_cmpuint (n, ==, 10);
}

static gpointer
reader_thread (gpointer data)
{
  Concurrent *c = data;

  for (guint round = 0; !g_atomic_int_get (&c->stop) || round < 5; round++)
    {
      json_t *q = etu_ok (c->engine, "Query",
                          "{'TableName': 'conc', 'KeyConditionExpression': 'pk = :p',"
                          " 'ExpressionAttributeValues': {':p': {'S': 'P'}}}");
      json_t *s = etu_ok (c->engine, "Scan", "{'TableName': 'conc'}");
      json_t *g = etu_ok (c->engine, "GetItem",
                          "{'TableName': 'conc', 'Key': {'pk': {'S': 'P'}, 'sk': {'N': '3'}}}");
      json_t *d = etu_ok (c->engine, "DescribeTable", "{'TableName': 'conc'}");

      assert_one_version (json_object_get (q, "Items"), TRUE);
      assert_one_version (json_object_get (s, "Items"), TRUE);
      g_assert_nonnull (json_object_get (g, "Item"));
      g_assert_cmpint (json_integer_value (json_object_get (
                         json_object_get (d, "Table"), "ItemCount")), >=, 10);
      json_decref (q);
      json_decref (s);
      json_decref (g);
      json_decref (d);
      g_atomic_int_add (&c->reads, 4);
    }
  g_atomic_int_inc (&c->done);
  return NULL;
}

static DdbEngine *
concurrent_engine (const char *path)
{
  GError *error = NULL;
  DdbEngine *engine = ddb_engine_open (path, &error);
  json_t *resp;

  g_assert_no_error (error);
  resp = etu_ok (engine, "CreateTable",
                 "{'TableName': 'conc', 'BillingMode': 'PAY_PER_REQUEST',"
                 " 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'},"
                 " {'AttributeName': 'sk', 'AttributeType': 'N'}],"
                 " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
                 " {'AttributeName': 'sk', 'KeyType': 'RANGE'}]}");
  json_decref (resp);
  for (int i = 0; i < 10; i++)
    {
      g_autofree char *item = g_strdup_printf ("{'pk': {'S': 'P'}, 'sk': {'N': '%d'}, 'v': {'N': '0'}}", i);

      etu_put (engine, "conc", item);
    }
  return engine;
}

/* Readers are not held up by a write transaction that stays open, and do not see it. */
static gpointer
blocked_reader_thread (gpointer data)
{
  Concurrent *c = data;

  for (int i = 0; i < 200; i++)
    {
      json_t *q = etu_ok (c->engine, "Query",
                          "{'TableName': 'conc', 'KeyConditionExpression': 'pk = :p',"
                          " 'ExpressionAttributeValues': {':p': {'S': 'P'}}}");
      json_t *g = etu_ok (c->engine, "GetItem",
                          "{'TableName': 'conc', 'Key': {'pk': {'S': 'uncommitted'}, 'sk': {'N': '1'}}}");

      g_assert_cmpuint (json_array_size (json_object_get (q, "Items")), ==, 10);
      g_assert_null (json_object_get (g, "Item"));
      json_decref (q);
      json_decref (g);
      g_atomic_int_add (&c->reads, 2);
    }
  g_atomic_int_set (&c->done, 1);
  return NULL;
}

static void
test_readers_during_write (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbstore-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "c.sqlite", NULL);
  Concurrent c = { 0 };
  GThread *t;
  GError *error = NULL;
  gint64 deadline;

  c.engine = concurrent_engine (path);
  /* A writer in the middle of a transaction, holding the engine's lock as a write call does. */
  g_mutex_lock (&c.engine->lock);
  g_assert_true (ddb_store_begin (c.engine->store, &error));
  {
    g_autoptr (DdbTableDef) def = ddb_store_table_get (c.engine->store, "conc", &error);

    g_assert_no_error (error);
    put (c.engine->store, def, "{'pk': {'S': 'uncommitted'}, 'sk': {'N': '1'}}");
  }
  t = g_thread_new ("reader", blocked_reader_thread, &c);
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (!g_atomic_int_get (&c.done) && g_get_monotonic_time () < deadline)
    g_usleep (1000);
  /* Checked before the writer lets go: a reader waiting for the lock would never be done. */
  g_assert_cmpint (g_atomic_int_get (&c.done), ==, 1);
  g_assert_cmpint (g_atomic_int_get (&c.reads), ==, 400);
  g_assert_true (ddb_store_commit (c.engine->store, &error));
  g_mutex_unlock (&c.engine->lock);
  g_thread_join (t);
  {
    json_t *g = etu_ok (c.engine, "GetItem",
                        "{'TableName': 'conc', 'Key': {'pk': {'S': 'uncommitted'}, 'sk': {'N': '1'}}}");

    g_assert_nonnull (json_object_get (g, "Item"));
    json_decref (g);
  }
  ddb_engine_free (c.engine);
  etu_remove_tree (dir);
}

/* A writer and several readers at once: every read succeeds (no SQLITE_BUSY surfaces) and sees
 * whole transactions only. */
static void
test_readers_and_writer (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbstore-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "c.sqlite", NULL);
  Concurrent c = { 0 };
  GThread *readers[3];
  GThread *writer;

  c.engine = concurrent_engine (path);
  for (guint i = 0; i < G_N_ELEMENTS (readers); i++)
    readers[i] = g_thread_new ("reader", reader_thread, &c);
  writer = g_thread_new ("writer", writer_thread, &c);
  g_thread_join (writer);
  for (guint i = 0; i < G_N_ELEMENTS (readers); i++)
    g_thread_join (readers[i]);
  g_assert_cmpint (c.writes, ==, 60);
  g_assert_cmpint (c.done, ==, 3);
  g_assert_cmpint (c.reads, >=, 3 * 5 * 4);
  {
    json_t *q = etu_ok (c.engine, "Query",
                        "{'TableName': 'conc', 'KeyConditionExpression': 'pk = :p',"
                        " 'ExpressionAttributeValues': {':p': {'S': 'P'}}}");
    json_t *d = etu_ok (c.engine, "DescribeTable", "{'TableName': 'conc'}");

    etu_assert_json (json_object_get (json_array_get (json_object_get (q, "Items"), 9), "v"),
                     "{'N': '60'}");
    g_assert_cmpint (json_integer_value (json_object_get (json_object_get (d, "Table"),
                                                          "ItemCount")),
                     ==, 11);
    json_decref (q);
    json_decref (d);
  }
  ddb_engine_free (c.engine);
  etu_remove_tree (dir);
}

/* ---- Files ---- */

static void
test_persistence (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbstore-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "db.sqlite", NULL);
  GError *error = NULL;

  {
    g_autoptr (DdbStore) store = ddb_store_open (path, &error);
    g_autoptr (DdbTableDef) def = table_def ("p", "pk", DDB_TYPE_S, NULL, DDB_TYPE_S);

    g_assert_no_error (error);
    add_index (def, "g", TRUE, "v", DDB_TYPE_N, NULL, DDB_TYPE_S, DDB_PROJECTION_ALL, NULL);
    create (store, def);
    g_assert_true (ddb_store_begin (store, &error));
    for (int i = 0; i < 50; i++)
      {
        g_autofree char *json = g_strdup_printf ("{'pk': {'S': 'k%d'}, 'v': {'N': '%d'}}", i, i % 5);

        put (store, def, json);
      }
    g_assert_true (ddb_store_commit (store, &error));
  }
  {
    g_autoptr (DdbStore) store = ddb_store_open (path, &error);
    g_autoptr (DdbTableDef) def = ddb_store_table_get (store, "p", &error);
    g_autoptr (DdbValue) item = NULL;
    g_autoptr (DdbValue) three = tu_num ("3");
    DdbStoreRange range = { ddb_table_def_index (def, "g"), three, DDB_SK_NONE, { NULL, NULL },
                            TRUE, 0, 1, NULL };
    g_autofree char *keys = NULL;
    sqlite3 *db = NULL;
    sqlite3_stmt *stmt = NULL;

    g_assert_no_error (error);
    item = get (store, def, "{'pk': {'S': 'k42'}}");
    tu_assert_item (item, "{'pk': {'S': 'k42'}, 'v': {'N': '2'}}");
    keys = drain (store, def, &range, "pk");
    g_assert_cmpstr (keys, ==, "k13,k18,k23,k28,k3,k33,k38,k43,k48,k8");

    /* Durability settings, seen from a second connection to the file. */
    g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA journal_mode", -1, &stmt, NULL), ==,
                     SQLITE_OK);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "wal");
    sqlite3_finalize (stmt);
    g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL), ==,
                     SQLITE_OK);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    g_assert_cmpint (sqlite3_column_int (stmt, 0), ==, 2);
    sqlite3_finalize (stmt);
    sqlite3_close (db);
  }

  /* A newer format is refused rather than misread. */
  {
    sqlite3 *db = NULL;
    DdbStore *store;

    g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_exec (db, "PRAGMA user_version=99", NULL, NULL, NULL), ==, SQLITE_OK);
    sqlite3_close (db);
    store = ddb_store_open (path, &error);
    g_assert_null (store);
    g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
    g_clear_error (&error);
  }
  /* Not a database at all. */
  {
    g_autofree char *junk = g_build_filename (dir, "junk", NULL);
    DdbStore *store;

    g_assert_true (g_file_set_contents (junk, "this is not sqlite, not at all, no.............."
                                              "................................................",
                                        -1, NULL));
    store = ddb_store_open (junk, &error);
    g_assert_null (store);
    g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
    g_clear_error (&error);
    g_unlink (junk);
  }
  etu_remove_tree (dir);
}

static void
test_synchronous_full (void)
{
  /* synchronous=FULL is a per-connection setting that cannot be read from outside; what
   * shows is that a commit reaches the WAL file before the call returns. */
  g_autofree char *dir = etu_tmp_dir ("ddbsync-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "db.sqlite", NULL);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  GError *error = NULL;
  g_autoptr (DdbStore) store = ddb_store_open (path, &error);
  g_autoptr (DdbTableDef) def = table_def ("d", "pk", DDB_TYPE_S, NULL, DDB_TYPE_S);
  GStatBuf st;

  g_assert_no_error (error);
  create (store, def);
  put (store, def, "{'pk': {'S': 'x'}}");
  /* Committed data sits in the WAL file (not only in memory) right after the call. */
  g_assert_cmpint (g_stat (wal, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 0);
  g_clear_pointer (&store, ddb_store_free);
  etu_remove_tree (dir);
}

/* A committed write survives the writer being killed with SIGKILL right after the commit,
 * before it can close anything. */
static void
test_survives_kill (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbkill-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "db.sqlite", NULL);
  GError *error = NULL;
  int status = 0;
  pid_t pid = fork ();

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      DdbStore *store = ddb_store_open (path, NULL);
      DdbTableDef *def = table_def ("k", "pk", DDB_TYPE_S, NULL, DDB_TYPE_S);
      DdbValue *item = tu_item ("{'pk': {'S': 'acknowledged'}, 'v': {'N': '42'}}");

      if (store == NULL || !ddb_store_table_create (store, def, NULL)
          || !ddb_store_begin (store, NULL) || !ddb_store_item_put (store, def, item, NULL)
          || !ddb_store_commit (store, NULL))
        _exit (3);
      /* Begun but never committed: must not appear. */
      ddb_store_begin (store, NULL);
      ddb_value_free (item);
      item = tu_item ("{'pk': {'S': 'unacknowledged'}}");
      ddb_store_item_put (store, def, item, NULL);
      kill (getpid (), SIGKILL);
      _exit (4);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);
  {
    g_autoptr (DdbStore) store = ddb_store_open (path, &error);
    g_autoptr (DdbTableDef) def = NULL;
    g_autoptr (DdbValue) item = NULL;
    g_autoptr (DdbValue) lost = NULL;

    g_assert_no_error (error);
    def = ddb_store_table_get (store, "k", &error);
    g_assert_no_error (error);
    item = get (store, def, "{'pk': {'S': 'acknowledged'}}");
    tu_assert_item (item, "{'pk': {'S': 'acknowledged'}, 'v': {'N': '42'}}");
    lost = get (store, def, "{'pk': {'S': 'unacknowledged'}}");
    g_assert_null (lost);
  }
  etu_remove_tree (dir);
}

/* ---- Idempotency tokens ---- */

static void
assert_token (DdbStore *store, const char *token, const char *digest, gint64 created)
{
  g_autoptr (GBytes) stored = NULL;
  GError *error = NULL;
  gint64 when = -1;

  g_assert_true (ddb_store_token_get (store, token, &stored, &when, &error));
  g_assert_no_error (error);
  if (digest == NULL)
    {
      g_assert_null (stored);
      g_assert_cmpint (when, ==, 0);
      return;
    }
  g_assert_nonnull (stored);
  g_assert_cmpmem (g_bytes_get_data (stored, NULL), g_bytes_get_size (stored), digest,
                   strlen (digest));
  g_assert_cmpint (when, ==, created);
}

static void
token_put (DdbStore *store, const char *token, const char *digest, gint64 created)
{
  GError *error = NULL;

  g_assert_true (ddb_store_token_put (store, token, digest, strlen (digest), created, &error));
  g_assert_no_error (error);
}

static gint64
sql_count (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 n;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return n;
}

/* Get, put (committed with its transaction, or not at all), replace, and purge by time; the
 * tokens are not items of any table. */
static void
test_tokens (void)
{
  g_autoptr (DdbStore) store = open_memory ();
  g_autoptr (GPtrArray) names = NULL;
  GError *error = NULL;

  assert_token (store, "t", NULL, 0);

  /* Rolled back with its transaction, seen inside it before. */
  g_assert_true (ddb_store_begin (store, &error));
  token_put (store, "t", "abc", 100);
  assert_token (store, "t", "abc", 100);
  ddb_store_rollback (store);
  assert_token (store, "t", NULL, 0);

  g_assert_true (ddb_store_begin (store, &error));
  token_put (store, "t", "abc", 100);
  token_put (store, "u\xc3\xa9", "d", 200);
  g_assert_true (ddb_store_commit (store, &error));
  g_assert_no_error (error);
  assert_token (store, "t", "abc", 100);
  assert_token (store, "u\xc3\xa9", "d", 200);
  assert_token (store, "u", NULL, 0);
  assert_token (store, "T", NULL, 0);

  /* A digest is bytes: an embedded NUL and an empty one come back as they were. */
  {
    static const guint8 raw[] = { 0x00, 0xff, 0x00 };
    g_autoptr (GBytes) stored = NULL;
    gint64 when;

    g_assert_true (ddb_store_token_put (store, "raw", raw, sizeof raw, 150, &error));
    g_assert_true (ddb_store_token_get (store, "raw", &stored, &when, &error));
    g_assert_no_error (error);
    g_assert_cmpmem (g_bytes_get_data (stored, NULL), g_bytes_get_size (stored), raw,
                     sizeof raw);
    g_clear_pointer (&stored, g_bytes_unref);
    g_assert_true (ddb_store_token_put (store, "empty", NULL, 0, 160, &error));
    g_assert_true (ddb_store_token_get (store, "empty", &stored, &when, &error));
    g_assert_no_error (error);
    g_assert_nonnull (stored);
    g_assert_cmpuint (g_bytes_get_size (stored), ==, 0);
    g_assert_cmpint (when, ==, 160);
  }

  /* Replacing: the new digest and time. */
  token_put (store, "t", "xyz", 300);
  assert_token (store, "t", "xyz", 300);

  /* Purge: strictly before the cutoff. */
  g_assert_true (ddb_store_token_purge (store, 200, &error));
  g_assert_no_error (error);
  assert_token (store, "raw", NULL, 0);
  assert_token (store, "empty", NULL, 0);
  assert_token (store, "u\xc3\xa9", "d", 200);
  assert_token (store, "t", "xyz", 300);
  /* Inside a transaction, undone with it. */
  g_assert_true (ddb_store_begin (store, &error));
  g_assert_true (ddb_store_token_purge (store, 301, &error));
  assert_token (store, "t", NULL, 0);
  ddb_store_rollback (store);
  assert_token (store, "t", "xyz", 300);
  g_assert_true (ddb_store_token_purge (store, 301, &error));
  g_assert_no_error (error);
  assert_token (store, "t", NULL, 0);
  assert_token (store, "u\xc3\xa9", NULL, 0);

  token_put (store, "t", "abc", 400);
  names = ddb_store_table_names (store, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (names->len, ==, 0);
}

/* Tokens persist across reopening. */
static void
test_tokens_file (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbstore-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "db.sqlite", NULL);
  GError *error = NULL;
  sqlite3 *db = NULL;

  {
    g_autoptr (DdbStore) store = ddb_store_open (path, &error);
    g_autoptr (DdbTableDef) def = table_def ("p", "pk", DDB_TYPE_S, NULL, DDB_TYPE_S);

    g_assert_no_error (error);
    create (store, def);
    put (store, def, "{'pk': {'S': 'a'}}");
    token_put (store, "t", "abc", 100);
  }
  {
    g_autoptr (DdbStore) store = ddb_store_open (path, &error);

    g_assert_no_error (error);
    assert_token (store, "t", "abc", 100);
  }
  /* The token has its own table: it is not among the items. */
  g_assert_cmpint (sql_count (path, "SELECT count(*) FROM dy_tokens"), ==, 1);
  g_assert_cmpint (sql_count (path, "SELECT count(*) FROM dy_items"), ==, 1);

  /* Opening a current database writes nothing: it goes on while another connection holds the
   * write lock (a write there would wait out the busy timeout, then fail). */
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL), ==, SQLITE_OK);
  {
    gint64 start = g_get_monotonic_time ();
    g_autoptr (DdbStore) store = ddb_store_open (path, &error);

    g_assert_no_error (error);
    g_assert_nonnull (store);
    g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
    assert_token (store, "t", "abc", 100);
  }
  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  sqlite3_close (db);
  etu_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/store/catalog", test_catalog);
  g_test_add_func ("/store/put-get-delete", test_put_get_delete);
  g_test_add_func ("/store/transactions", test_transactions);
  g_test_add_func ("/store/group-savepoints", test_group_savepoints);
  g_test_add_func ("/store/group-lost", test_group_lost);
  g_test_add_func ("/store/order/numbers", test_order_numbers);
  g_test_add_func ("/store/order/strings-binary", test_order_strings_binary);
  g_test_add_func ("/store/query/operators", test_query_operators);
  g_test_add_func ("/store/query/begins-with", test_begins_with);
  g_test_add_func ("/store/query/exclusive-start", test_exclusive_start);
  g_test_add_func ("/store/scan/parallel", test_parallel_scan);
  g_test_add_func ("/store/scan/segment-of", test_segment_of);
  g_test_add_func ("/store/index/maintenance", test_index_maintenance);
  g_test_add_func ("/store/index/backfill-drop", test_index_backfill_and_drop);
  g_test_add_func ("/store/keyless-order", test_keyless_order);
  g_test_add_func ("/store/stats/running", test_stats_running);
  g_test_add_func ("/store/file/persistence", test_persistence);
  g_test_add_func ("/store/file/format-older", test_format_older);
  g_test_add_func ("/store/tokens/api", test_tokens);
  g_test_add_func ("/store/tokens/file", test_tokens_file);
  g_test_add_func ("/store/readers/during-write", test_readers_during_write);
  g_test_add_func ("/store/readers/with-writer", test_readers_and_writer);
  g_test_add_func ("/store/file/synchronous", test_synchronous_full);
  g_test_add_func ("/store/file/survives-kill", test_survives_kill);
  return g_test_run ();
}
