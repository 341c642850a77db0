/* test-compare.c: the two-way compare of two engine tables: identical tables, changed items
 * with nested map paths, numbers by value and sets ignoring order, items on one side only,
 * excluded attributes, a mismatched key schema refused, and cancellation. */
#include <glib.h>
#include <string.h>

#include "../engine/engine-test-util.h"
#include "compare/compare.h"
#include "core/ddbjson.h"
#include "core/error.h"
#include "staging/diff.h"

typedef struct {
  DdbEngine *a, *b; /* owned by the backends */
  DdbBackend *here, *there;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  (void) data;
  f->a = etu_engine_new ();
  f->b = etu_engine_new ();
  f->here = ddb_backend_new_for_engine (f->a, ":memory:");
  f->there = ddb_backend_new_for_engine (f->b, ":memory:");
  etu_create_table (f->a, "Here", "pk", "S");
  etu_create_table (f->b, "There", "pk", "S");
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  (void) data;
  ddb_backend_free (f->here);
  ddb_backend_free (f->there);
}

static DdbCompareResult *
run (Fixture *f, const char *const *exclude, GCancellable *cancellable, GError **error)
{
  DdbCompareOptions o = { 0 };

  o.here.backend = f->here;
  o.here.table = "Here";
  o.there.backend = f->there;
  o.there.table = "There";
  o.exclude = exclude;
  return ddb_compare_run (&o, NULL, NULL, cancellable, error);
}

/* Each difference as "kind pk: path old -> new; ..." lines. */
static gboolean
collect (const DdbCompareDifference *d, gpointer data)
{
  GString *out = data;
  const DdbValue *pk = ddb_value_map_get (d->key, "pk");

  g_string_append_printf (out, "%s %.*s", ddb_compare_kind_name (d->kind), (int) pk->bytes.len,
                          pk->bytes.data);
  for (guint i = 0; d->diff != NULL && i < d->diff->len; i++)
    {
      const DdbDiffEntry *e = d->diff->pdata[i];
      g_autofree char *path = ddb_path_to_string (&e->path);
      json_t *o = e->old_value ? ddb_value_to_json (e->old_value) : NULL;
      json_t *n = e->new_value ? ddb_value_to_json (e->new_value) : NULL;
      g_autofree char *os = o ? json_dumps (o, JSON_COMPACT | JSON_SORT_KEYS) : g_strdup ("-");
      g_autofree char *ns = n ? json_dumps (n, JSON_COMPACT | JSON_SORT_KEYS) : g_strdup ("-");

      g_string_append_printf (out, "%s %s %s -> %s", i == 0 ? ":" : ";", path, os, ns);
      json_decref (o);
      json_decref (n);
    }
  g_string_append_c (out, '\n');
  return TRUE;
}

static char *
differences (DdbCompareResult *r)
{
  GString *out = g_string_new (NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (ddb_compare_result_foreach (r, collect, out, &error));
  g_assert_no_error (error);
  return g_string_free (out, FALSE);
}

static void
put_both (Fixture *f, const char *item)
{
  etu_put (f->a, "Here", item);
  etu_put (f->b, "There", item);
}

static void
test_identical (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbCompareResult) r = NULL;
  g_autofree char *diffs = NULL;
  const DdbCompareCounts *c;

  (void) data;
  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *item = g_strdup_printf ("{'pk':{'S':'k%03u'},'n':{'N':'%u'}}", i, i);
      put_both (f, item);
    }
  /* Same values, written differently: 1.0 and 1, a set in another order, attribute order. */
  etu_put (f->a, "Here", "{'pk':{'S':'x'},'n':{'N':'1.0'},'s':{'SS':['b','a','c']},'z':{'S':'z'}}");
  etu_put (f->b, "There", "{'z':{'S':'z'},'s':{'SS':['c','a','b']},'n':{'N':'1'},'pk':{'S':'x'}}");
  r = run (f, NULL, NULL, &error);
  g_assert_no_error (error);
  c = ddb_compare_result_counts (r);
  g_assert_cmpuint (c->same, ==, 301);
  g_assert_cmpuint (c->changed + c->only_here + c->only_there, ==, 0);
  g_assert_cmpuint (c->items_here, ==, 301);
  g_assert_cmpuint (c->items_there, ==, 301);
  g_assert_cmpuint (c->bytes_here, >, 301 * 5);
  g_assert_true (ddb_compare_result_identical (r));
  diffs = differences (r);
  g_assert_cmpstr (diffs, ==, "");
}

static void
test_differences (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbCompareResult) r = NULL;
  g_autofree char *diffs = NULL;
  const DdbCompareCounts *c;

  (void) data;
  put_both (f, "{'pk':{'S':'a'},'v':{'N':'1'}}");
  etu_put (f->a, "Here", "{'pk':{'S':'b'},'m':{'M':{'theme':{'S':'dark'},'size':{'N':'3'}}}}");
  etu_put (f->b, "There", "{'pk':{'S':'b'},'m':{'M':{'theme':{'S':'light'},'size':{'N':'3'}}}}");
  etu_put (f->a, "Here", "{'pk':{'S':'c'}}");
  etu_put (f->b, "There", "{'pk':{'S':'d'},'v':{'N':'99999999999999999999999999999999999999'}}");
  etu_put (f->a, "Here", "{'pk':{'S':'e'},'s':{'NS':['1','2']},'gone':{'BOOL':true}}");
  etu_put (f->b, "There", "{'pk':{'S':'e'},'s':{'NS':['2','3']}}");
  r = run (f, NULL, NULL, &error);
  g_assert_no_error (error);
  c = ddb_compare_result_counts (r);
  g_assert_cmpuint (c->same, ==, 1);
  g_assert_cmpuint (c->changed, ==, 2);
  g_assert_cmpuint (c->only_here, ==, 1);
  g_assert_cmpuint (c->only_there, ==, 1);
  g_assert_false (ddb_compare_result_identical (r));
  diffs = differences (r);
  g_assert_cmpstr (diffs, ==,
                   "changed b: m.theme {\"S\":\"dark\"} -> {\"S\":\"light\"}\n"
                   "only-here c\n"
                   "only-there d\n"
                   "changed e: s {\"NS\":[\"1\",\"2\"]} -> {\"NS\":[\"2\",\"3\"]}; "
                   "gone {\"BOOL\":true} -> -\n");
}

static void
test_exclude (Fixture *f, gconstpointer data)
{
  const char *const exclude[] = { "updatedAt", "version", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbCompareResult) r = NULL;
  g_autoptr (DdbCompareResult) all = NULL;
  const DdbCompareCounts *c;

  (void) data;
  etu_put (f->a, "Here",
           "{'pk':{'S':'a'},'x':{'S':'1'},'updatedAt':{'S':'2024'},"
           "'version':{'N':'3'}}");
  etu_put (f->b, "There", "{'pk':{'S':'a'},'x':{'S':'1'},'updatedAt':{'S':'2025'}}");
  r = run (f, exclude, NULL, &error);
  g_assert_no_error (error);
  c = ddb_compare_result_counts (r);
  g_assert_cmpuint (c->same, ==, 1);
  g_assert_cmpuint (c->changed, ==, 0);
  all = run (f, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ddb_compare_result_counts (all)->changed, ==, 1);
}

static void
test_exclude_key_refused (Fixture *f, gconstpointer data)
{
  const char *const exclude[] = { "pk", NULL };
  g_autoptr (GError) error = NULL;
  DdbCompareResult *r;

  (void) data;
  r = run (f, exclude, NULL, &error);
  g_assert_null (r);
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_assert_nonnull (strstr (error->message, "pk is a key attribute"));
}

static void
test_schema_mismatch (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  DdbCompareOptions o = { 0 };
  DdbCompareResult *r;

  (void) data;
  etu_create_table (f->b, "ByNumber", "pk", "N");
  etu_create_table (f->b, "ById", "id", "S");
  o.here.backend = f->here;
  o.here.table = "Here";
  o.there.backend = f->there;
  o.there.table = "ByNumber";
  r = ddb_compare_run (&o, NULL, NULL, NULL, &error);
  g_assert_null (r);
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_assert_cmpstr (error->message, ==,
                   "The key schemas differ: Here has pk (S), ByNumber has pk (N); a compare needs "
                   "the same key attribute names and types (or the same types, with the names "
                   "mapped)");
  g_clear_error (&error);
  o.there.table = "ById";
  r = ddb_compare_run (&o, NULL, NULL, NULL, &error);
  g_assert_null (r);
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_clear_error (&error);
  o.there.table = "Missing";
  r = ddb_compare_run (&o, NULL, NULL, NULL, &error);
  g_assert_null (r);
  g_assert_error (error, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND);
}

static void
test_composite_key (void)
{
  DdbEngine *a = etu_engine_new (), *b = etu_engine_new ();
  g_autoptr (DdbBackend) here = ddb_backend_new_for_engine (a, ":memory:");
  g_autoptr (DdbBackend) there = ddb_backend_new_for_engine (b, ":memory:");
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbCompareResult) r = NULL;
  DdbCompareOptions o = { 0 };
  const char *create = "{'TableName':'Comp','BillingMode':'PAY_PER_REQUEST',"
                       "'KeySchema':[{'AttributeName':'pk','KeyType':'HASH'},"
                       "{'AttributeName':'sk','KeyType':'RANGE'}],"
                       "'AttributeDefinitions':[{'AttributeName':'pk','AttributeType':'S'},"
                       "{'AttributeName':'sk','AttributeType':'N'}]}";

  json_decref (etu_ok (a, "CreateTable", "%s", create));
  json_decref (etu_ok (b, "CreateTable", "%s", create));
  for (guint i = 0; i < 50; i++)
    {
      g_autofree char *item = g_strdup_printf ("{'pk':{'S':'p%u'},'sk':{'N':'%u'}}", i % 5, i);
      etu_put (a, "Comp", item);
      if (i != 7)
        etu_put (b, "Comp", item);
    }
  etu_put (b, "Comp", "{'pk':{'S':'p0'},'sk':{'N':'1000'}}");
  o.here.backend = here;
  o.here.table = "Comp";
  o.there.backend = there;
  o.there.table = "Comp";
  o.segments = 3;
  r = ddb_compare_run (&o, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ddb_compare_result_counts (r)->same, ==, 49);
  g_assert_cmpuint (ddb_compare_result_counts (r)->only_here, ==, 1);
  g_assert_cmpuint (ddb_compare_result_counts (r)->only_there, ==, 1);
}

static void
cancel_on_progress (guint side, guint64 items, double rate, gpointer data)
{
  (void) side;
  (void) items;
  (void) rate;
  g_cancellable_cancel (data);
}

static void
test_cancel (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  DdbCompareOptions o = { 0 };
  DdbCompareResult *r;

  (void) data;
  put_both (f, "{'pk':{'S':'a'}}");
  g_cancellable_cancel (cancellable);
  r = run (f, NULL, cancellable, &error);
  g_assert_null (r);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* Cancelled while reading: the progress callback cancels. */
  g_object_unref (cancellable);
  cancellable = g_cancellable_new ();
  o.here.backend = f->here;
  o.here.table = "Here";
  o.there.backend = f->there;
  o.there.table = "There";
  r = ddb_compare_run (&o, cancel_on_progress, cancellable, cancellable, &error);
  g_assert_null (r);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/compare/identical", test_identical);
  ADD ("/compare/differences", test_differences);
  ADD ("/compare/exclude", test_exclude);
  ADD ("/compare/exclude-key-refused", test_exclude_key_refused);
  ADD ("/compare/schema-mismatch", test_schema_mismatch);
  ADD ("/compare/cancel", test_cancel);
  g_test_add_func ("/compare/composite-key", test_composite_key);
  return g_test_run ();
}
