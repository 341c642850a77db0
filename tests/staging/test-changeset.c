/* test-changeset.c: the persisted change sets: staging, merging, reopening, reject, discard. */
#include "core/ddbjson.h"
#include "staging/changeset.h"
#include "staging/diff.h"
#include "../core/test-util.h"
#include "../engine/engine-test-util.h"

typedef struct {
  char *dir;
  char *path;
  DdbStaging *st;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  GError *error = NULL;

  f->dir = etu_tmp_dir ("staging-XXXXXX");
  /* a subfolder that does not exist yet: open creates it */
  f->path = g_build_filename (f->dir, "sub", "staging.db", NULL);
  f->st = ddb_staging_open (f->path, &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  ddb_staging_free (f->st);
  etu_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

static void
reopen (Fixture *f)
{
  GError *error = NULL;

  ddb_staging_free (f->st);
  f->st = ddb_staging_open (f->path, &error);
  g_assert_no_error (error);
}

static gint64
stage_update (Fixture *f, const char *table, const char *key, const char *old_item,
              const char *new_item)
{
  g_autoptr (DdbValue) k = tu_item (key);
  g_autoptr (DdbValue) a = tu_item (old_item);
  g_autoptr (DdbValue) b = tu_item (new_item);
  GError *error = NULL;
  gint64 id = -1;

  g_assert_true (ddb_staging_stage_update (f->st, "conn", table, k, a, b, &id, &error));
  g_assert_no_error (error);
  return id;
}

static guint
n_open (Fixture *f, const char *connection, const char *table)
{
  GError *error = NULL;
  g_autoptr (GPtrArray) list = ddb_staging_list (f->st, connection, table, FALSE, &error);

  g_assert_no_error (error);
  return list->len;
}

static DdbChange *
get (Fixture *f, gint64 id)
{
  GError *error = NULL;
  DdbChange *c = ddb_staging_get (f->st, id, &error);

  g_assert_no_error (error);
  return c;
}

#define KEY "{'id': {'S': 'u1'}}"
#define ITEM "{'id': {'S': 'u1'}, 'name': {'S': 'Mara'}, 'settings': {'M': {'theme': {'S': 'dark'}}}}"
#define ITEM2 "{'id': {'S': 'u1'}, 'name': {'S': 'Mara V.'}, 'settings': {'M': {'theme': {'S': 'light'}}}}"

static void
test_persist (Fixture *f, gconstpointer data)
{
  gint64 id = stage_update (f, "T", KEY, ITEM, ITEM2);
  g_autoptr (DdbChange) c = NULL;
  g_autoptr (GPtrArray) diff = NULL;
  g_auto (GStrv) journal = NULL;

  g_assert_cmpint (id, >, 0);
  reopen (f);
  c = get (f, id);
  g_assert_cmpint (c->kind, ==, DDB_CHANGE_UPDATE);
  g_assert_cmpint (c->state, ==, DDB_CHANGE_STAGED);
  g_assert_cmpstr (c->connection, ==, "conn");
  g_assert_cmpstr (c->table, ==, "T");
  tu_assert_item (c->key, KEY);
  tu_assert_item (c->original, ITEM);
  tu_assert_item (c->target, ITEM2);
  diff = ddb_change_diff (c);
  g_assert_cmpuint (diff->len, ==, 2);
  journal = ddb_staging_journal (f->st, id, NULL);
  g_assert_cmpuint (g_strv_length (journal), ==, 1);
  g_assert_cmpstr (journal[0], ==, "staged");
  /* no change, nothing staged */
  g_assert_cmpint (stage_update (f, "T", "{'id': {'S': 'u2'}}", "{'id': {'S': 'u2'}}",
                                 "{'id': {'S': 'u2'}}"),
                   ==, 0);
  g_assert_cmpuint (n_open (f, NULL, NULL), ==, 1);
}

static void
test_merge (Fixture *f, gconstpointer data)
{
  g_autoptr (DdbValue) key = tu_item (KEY);
  g_autoptr (DdbValue) item = tu_item (ITEM);
  GError *error = NULL;
  gint64 id = stage_update (f, "T", KEY, ITEM, ITEM2);
  gint64 id2;
  DdbChange *c;

  /* the key's attribute order and number spelling do not make another item */
  id2 = stage_update (f, "T", KEY, ITEM2,
                      "{'id': {'S': 'u1'}, 'name': {'S': 'Mara V.'}, 'settings': {'M': {'theme': "
                      "{'S': 'light'}}}, 'age': {'N': '3'}}");
  g_assert_cmpint (id2, ==, id);
  c = get (f, id);
  tu_assert_item (c->original, ITEM);
  g_assert_nonnull (ddb_value_map_get (c->target, "age"));
  ddb_change_free (c);
  /* back to the original: the change disappears */
  g_assert_cmpint (stage_update (f, "T", KEY,
                                 "{'id': {'S': 'u1'}, 'name': {'S': 'Mara V.'}, 'settings': {'M':"
                                 " {'theme': {'S': 'light'}}}, 'age': {'N': '3.0'}}",
                                 ITEM),
                   ==, 0);
  g_assert_cmpuint (n_open (f, NULL, NULL), ==, 0);
  /* create + delete -> nothing; create + create refused */
  g_assert_true (ddb_staging_stage_create (f->st, "conn", "T", key, item, &id, &error));
  g_assert_false (ddb_staging_stage_create (f->st, "conn", "T", key, item, &id2, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);
  g_assert_true (ddb_staging_stage_delete (f->st, "conn", "T", key, item, &id2, &error));
  g_assert_cmpint (id2, ==, 0);
  g_assert_cmpuint (n_open (f, NULL, NULL), ==, 0);
  /* update + delete -> delete of the item as first seen */
  id = stage_update (f, "T", KEY, ITEM, ITEM2);
  {
    g_autoptr (DdbValue) seen = tu_item (ITEM2);

    g_assert_true (ddb_staging_stage_delete (f->st, "conn", "T", key, seen, &id2, &error));
  }
  g_assert_cmpint (id2, ==, id);
  c = get (f, id);
  g_assert_cmpint (c->kind, ==, DDB_CHANGE_DELETE);
  tu_assert_item (c->original, ITEM);
  g_assert_null (c->target);
  ddb_change_free (c);
}

static void
test_reject (Fixture *f, gconstpointer data)
{
  gint64 id = stage_update (f, "T", KEY,
                            "{'id': {'S': 'u1'}, 'tags': {'L': [{'S': 'a'}, {'S': 'b'}, {'S': "
                            "'c'}]}, 'settings': {'M': {'theme': {'S': 'dark'}}}}",
                            "{'id': {'S': 'u1'}, 'tags': {'L': [{'S': 'a'}, {'S': 'b'}, {'S': "
                            "'C'}]}, 'settings': {'M': {'theme': {'S': 'light'}}}}");
  GError *error = NULL;
  g_autoptr (GPtrArray) diff = NULL;
  DdbChange *c;

  g_assert_false (ddb_staging_reject_path (f->st, id, "tags[1]", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_true (ddb_staging_reject_path (f->st, id, "tags[2]", &error));
  g_assert_no_error (error);
  reopen (f);
  c = get (f, id);
  diff = ddb_change_diff (c);
  g_assert_cmpuint (diff->len, ==, 1);
  {
    g_autofree char *path = ddb_path_to_string (&((DdbDiffEntry *) diff->pdata[0])->path);

    g_assert_cmpstr (path, ==, "settings.theme");
  }
  tu_assert_item (c->target,
                  "{'id': {'S': 'u1'}, 'tags': {'L': [{'S': 'a'}, {'S': 'b'}, {'S': 'c'}]},"
                  " 'settings': {'M': {'theme': {'S': 'light'}}}}");
  ddb_change_free (c);
  /* the last path rejected: nothing left to stage */
  g_assert_true (ddb_staging_reject_path (f->st, id, "settings.theme", &error));
  g_assert_null (ddb_staging_get (f->st, id, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
}

static void
test_discard (Fixture *f, gconstpointer data)
{
  GError *error = NULL;
  guint n = 0;
  gint64 a = stage_update (f, "A", "{'id': {'N': '1'}}", "{'id': {'N': '1'}, 'x': {'N': '1'}}",
                           "{'id': {'N': '1'}, 'x': {'N': '2'}}");

  stage_update (f, "A", "{'id': {'N': '2'}}", "{'id': {'N': '2'}, 'x': {'N': '1'}}",
                "{'id': {'N': '2'}, 'x': {'N': '2'}}");
  stage_update (f, "B", "{'id': {'N': '1'}}", "{'id': {'N': '1'}, 'x': {'N': '1'}}",
                "{'id': {'N': '1'}, 'x': {'N': '2'}}");
  g_assert_cmpuint (n_open (f, "conn", "A"), ==, 2);
  g_assert_true (ddb_staging_discard (f->st, a, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_open (f, "conn", "A"), ==, 1);
  g_assert_false (ddb_staging_discard (f->st, a, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_true (ddb_staging_discard_all (f->st, "conn", "A", &n, &error));
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (n_open (f, "conn", NULL), ==, 1);
  g_assert_true (ddb_staging_discard_all (f->st, "other", NULL, &n, &error));
  g_assert_cmpuint (n, ==, 0);
  g_assert_true (ddb_staging_discard_all (f->st, NULL, NULL, &n, &error));
  g_assert_cmpuint (n, ==, 1);
  reopen (f);
  g_assert_cmpuint (n_open (f, NULL, NULL), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/staging/changeset/persist", Fixture, NULL, fixture_setup, test_persist,
              fixture_teardown);
  g_test_add ("/staging/changeset/merge", Fixture, NULL, fixture_setup, test_merge,
              fixture_teardown);
  g_test_add ("/staging/changeset/reject", Fixture, NULL, fixture_setup, test_reject,
              fixture_teardown);
  g_test_add ("/staging/changeset/discard", Fixture, NULL, fixture_setup, test_discard,
              fixture_teardown);
  return g_test_run ();
}
