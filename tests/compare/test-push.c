/* test-push.c: the three-way compare and the push. Two engine tables start equal; the snapshot
 * (Here) records a base; edits on either side, and on both, are classified edited here, edited
 * there or both, from the engine's base versions and from an export named as the base. The
 * push stages only the edits made here, guarded, and a commit applies them without reverting
 * the other side's; a change behind the staging's back is a conflict. Without a base the push
 * makes the other side equal. An export read directly as a side, nested-path excludes. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "../engine/engine-test-util.h"
#include "compare/compare.h"
#include "compare/push.h"
#include "core/ddbjson.h"
#include "core/error.h"
#include "engine/base.h"
#include "engine/snapshot.h"
#include "staging/commit.h"

typedef struct {
  DdbEngine *a, *b; /* owned by the backends */
  DdbBackend *here, *there;
  DdbStaging *staging;
  char *dir;
} Fixture;

/* The base both sides start from: ten items, k0 … k9. */
static void
put_base (DdbEngine *e, const char *table)
{
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *item = g_strdup_printf (
          "{'pk':{'S':'k%u'},'v':{'N':'%u'},'m':{'M':{'a':{'S':'x'},'ts':{'S':'t0'}}}}", i, i);

      etu_put (e, table, item);
    }
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  (void) data;
  f->a = etu_engine_new ();
  f->b = etu_engine_new ();
  f->here = ddb_backend_new_for_engine (f->a, ":memory:");
  f->there = ddb_backend_new_for_engine (f->b, "there");
  etu_create_table (f->a, "Here", "pk", "S");
  etu_create_table (f->b, "There", "pk", "S");
  put_base (f->a, "Here");
  put_base (f->b, "There");
  f->staging = ddb_staging_open (":memory:", &error);
  g_assert_no_error (error);
  f->dir = etu_tmp_dir ("test-push-XXXXXX");
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  (void) data;
  ddb_staging_free (f->staging);
  ddb_backend_free (f->here);
  ddb_backend_free (f->there);
  etu_remove_tree (f->dir);
  g_free (f->dir);
}

static void
update (DdbEngine *e, const char *table, const char *pk, const char *set, const char *values)
{
  json_decref (etu_ok (e, "UpdateItem",
                       "{'TableName':'%s','Key':{'pk':{'S':'%s'}},'UpdateExpression':'%s',"
                       "'ExpressionAttributeValues':%s}",
                       table, pk, set, values));
}

static void delete (DdbEngine *e, const char *table, const char *pk)
{
  json_decref (etu_ok (e, "DeleteItem", "{'TableName':'%s','Key':{'pk':{'S':'%s'}}}", table, pk));
}

/* The edits of the round trip:
 *   here only:  k1 nested m.a, k2 deleted, n1 created            -> edited here
 *   there only: k4 v, k5 deleted                                  -> edited there
 *   both:       k3 v on both (differently), k7 here / deleted there -> both
 *   both alike: k6 v = 60 on both                                 -> same
 *   k8 edited here and back again                                 -> same */
static void
edit_both (Fixture *f)
{
  update (f->a, "Here", "k1", "SET m.a = :a", "{':a':{'S':'y'}}");
  delete (f->a, "Here", "k2");
  etu_put (f->a, "Here", "{'pk':{'S':'n1'},'v':{'N':'12345678901234567890123456789012345678'}}");
  update (f->a, "Here", "k3", "SET v = :v", "{':v':{'N':'30'}}");
  update (f->a, "Here", "k7", "SET v = :v", "{':v':{'N':'70'}}");
  update (f->a, "Here", "k6", "SET v = :v", "{':v':{'N':'60'}}");
  update (f->a, "Here", "k8", "SET v = :v", "{':v':{'N':'80'}}");
  update (f->a, "Here", "k8", "SET v = :v", "{':v':{'N':'8'}}");

  update (f->b, "There", "k4", "SET v = :v", "{':v':{'N':'40'}}");
  delete (f->b, "There", "k5");
  update (f->b, "There", "k3", "SET v = :v", "{':v':{'N':'31'}}");
  delete (f->b, "There", "k7");
  update (f->b, "There", "k6", "SET v = :v", "{':v':{'N':'60.0'}}");
}

/* Here's table against there's. */
static DdbCompareOptions
options_for (Fixture *f)
{
  DdbCompareOptions o = { 0 };

  o.here.backend = f->here;
  o.here.table = "Here";
  o.there.backend = f->there;
  o.there.table = "There";
  return o;
}

static DdbCompareResult *
run (Fixture *f, const char *base_path, gboolean no_base, const char *const *exclude,
     GError **error)
{
  DdbCompareOptions o = options_for (f);

  o.base_path = base_path;
  o.no_base = no_base;
  o.exclude = exclude;
  return ddb_compare_run (&o, NULL, NULL, NULL, error);
}

/* "pk kind class" lines, and each base as "base=…" when there is one. */
static gboolean
collect (const DdbCompareDifference *d, gpointer data)
{
  GString *out = data;
  const DdbValue *pk = ddb_value_map_get (d->key, "pk");
  const DdbValue *bv = d->base != NULL ? ddb_value_map_get (d->base, "v") : NULL;

  g_string_append_printf (out, "%.*s %s %s", (int) pk->bytes.len, pk->bytes.data,
                          ddb_compare_kind_name (d->kind), ddb_compare_class_name (d->klass));
  if (d->klass != DDB_COMPARE_NO_BASE)
    {
      g_autofree char *text = d->base == NULL ? g_strdup ("absent")
                              : bv != NULL    ? ddb_number_to_string (&bv->number)
                                              : g_strdup ("?");

      g_string_append_printf (out, " base=%s", text);
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

static const char *const three_way
    = "k1 changed edited-here base=1\n"
      "k2 only-there edited-here base=2\n" /* only-there: deleted here */
      "k3 changed both base=3\n"
      "k4 changed edited-there base=4\n"
      "k5 only-here edited-there base=5\n"
      "k7 only-here both base=7\n"
      "n1 only-here edited-here base=absent\n";

static void
assert_three_way (DdbCompareResult *r)
{
  const DdbCompareCounts *c = ddb_compare_result_counts (r);
  g_autofree char *diffs = differences (r);

  g_assert_true (c->has_base);
  g_assert_cmpuint (c->same, ==, 4); /* k0, k6 (60 and 60.0), k8 (edited back), k9 */
  g_assert_cmpuint (c->changed, ==, 3);
  g_assert_cmpuint (c->only_here, ==, 3);
  g_assert_cmpuint (c->only_there, ==, 1);
  g_assert_cmpuint (c->edited_here, ==, 3);
  g_assert_cmpuint (c->edited_there, ==, 2);
  g_assert_cmpuint (c->both, ==, 2);
  g_assert_cmpstr (diffs, ==, three_way);
}

static void
test_engine_base (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbCompareResult) r = NULL;
  g_autoptr (DdbCompareResult) two = NULL;

  (void) data;
  g_assert_true (ddb_engine_set_base (f->a, "Here", "/exports/here", "s3", &error));
  g_assert_no_error (error);
  edit_both (f);
  r = run (f, NULL, FALSE, NULL, &error);
  g_assert_no_error (error);
  assert_three_way (r);
  g_assert_nonnull (strstr (ddb_compare_result_base (r), "/exports/here (s3, "));
  /* --no-base: the same differences, no classes. */
  two = run (f, NULL, TRUE, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (ddb_compare_result_counts (two)->has_base);
  g_assert_null (ddb_compare_result_base (two));
  g_assert_cmpuint (ddb_compare_result_counts (two)->changed, ==, 3);
}

/* Writes TABLE of engine E as DynamoDB JSON lines into DIR/NAME. */
static char *
export_lines (Fixture *f, DdbEngine *e, const char *table, const char *name)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autoptr (GError) error = NULL;
  DdbExportOptions eo = { 0 };

  eo.table_name = table;
  eo.format = DDB_SNAPSHOT_JSONL;
  g_assert_true (ddb_snapshot_export (e, path, &eo, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static void
test_export_base (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbCompareResult) r = NULL;
  g_autofree char *base = NULL;
  g_autofree char *text = NULL;

  (void) data;
  base = export_lines (f, f->a, "Here", "base.jsonl"); /* no engine base recorded */
  edit_both (f);
  r = run (f, base, FALSE, NULL, &error);
  g_assert_no_error (error);
  assert_three_way (r);
  text = g_strdup_printf ("export %s", base);
  g_assert_cmpstr (ddb_compare_result_base (r), ==, text);
}

static guint
count_commit (Fixture *f, guint *conflicts)
{
  g_autoptr (GError) error = NULL;
  DdbCommitOptions co = { 0 };
  DdbCommitReport report = { 0 };
  guint committed;

  co.connection = "there";
  co.table = "There";
  co.mode = DDB_COMMIT_TRANSACTIONS;
  g_assert_true (ddb_staging_commit (f->staging, f->there, &co, NULL, &report, &error));
  g_assert_no_error (error);
  committed = report.committed;
  *conflicts = report.conflicts;
  ddb_commit_report_clear (&report);
  return committed;
}

static char *
get_there (Fixture *f, const char *pk)
{
  json_t *r = etu_ok (f->b, "GetItem", "{'TableName':'There','Key':{'pk':{'S':'%s'}}}", pk);
  json_t *item = json_object_get (r, "Item");
  char *s = item != NULL ? json_dumps (item, JSON_COMPACT | JSON_SORT_KEYS) : g_strdup ("absent");

  json_decref (r);
  return s;
}

static void
assert_there (Fixture *f, const char *pk, const char *expected)
{
  g_autofree char *got = get_there (f, pk);
  json_t *want = strcmp (expected, "absent") == 0 ? NULL : etu_json ("%s", expected);
  g_autofree char *want_s
      = want != NULL ? json_dumps (want, JSON_COMPACT | JSON_SORT_KEYS) : g_strdup (expected);

  json_decref (want);
  g_assert_cmpstr (got, ==, want_s);
}

static void
test_push_three_way (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbCompareResult) r = NULL;
  g_autoptr (DdbCompareResult) after = NULL;
  g_autoptr (GPtrArray) staged = NULL;
  DdbPushCounts pc = { 0 };
  guint conflicts = 0;

  (void) data;
  g_assert_true (ddb_engine_set_base (f->a, "Here", "/exports/here", "s3", &error));
  edit_both (f);
  r = run (f, NULL, FALSE, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ddb_push_stage (r, f->staging, "there", NULL, NULL, &pc, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (pc.staged, ==, 3);
  g_assert_cmpuint (pc.updates, ==, 1);
  g_assert_cmpuint (pc.deletes, ==, 1);
  g_assert_cmpuint (pc.creates, ==, 1);
  g_assert_cmpuint (pc.left_there, ==, 2);
  g_assert_cmpuint (pc.conflicts, ==, 2);
  staged = ddb_staging_list (f->staging, "there", "There", FALSE, &error);
  g_assert_cmpuint (staged->len, ==, 3);

  /* A second push over the open changes is refused, nothing staged. */
  g_assert_false (ddb_push_stage (r, f->staging, "there", NULL, NULL, &pc, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);

  /* Behind the staging's back: n1 appears there before the commit. */
  etu_put (f->b, "There", "{'pk':{'S':'n1'},'v':{'N':'1'}}");
  g_assert_cmpuint (count_commit (f, &conflicts), ==, 2);
  g_assert_cmpuint (conflicts, ==, 1);

  /* The edits made here are applied, nested path and 38 digits included. */
  assert_there (f, "k1",
                "{'pk':{'S':'k1'},'v':{'N':'1'},'m':{'M':{'a':{'S':'y'},'ts':{'S':'t0'}}}}");
  assert_there (f, "k2", "absent");
  /* The other side's are not reverted, and items changed on both are untouched. */
  assert_there (f, "k4",
                "{'pk':{'S':'k4'},'v':{'N':'40'},'m':{'M':{'a':{'S':'x'},'ts':{'S':'t0'}}}}");
  assert_there (f, "k5", "absent");
  assert_there (f, "k3",
                "{'pk':{'S':'k3'},'v':{'N':'31'},'m':{'M':{'a':{'S':'x'},'ts':{'S':'t0'}}}}");
  assert_there (f, "k7", "absent");
  /* The create met the item made behind its back: a conflict, left open. */
  assert_there (f, "n1", "{'pk':{'S':'n1'},'v':{'N':'1'}}");
  g_clear_pointer (&staged, g_ptr_array_unref);
  staged = ddb_staging_list (f->staging, "there", "There", FALSE, &error);
  g_assert_cmpuint (staged->len, ==, 1);
  g_assert_cmpint (((DdbChange *) staged->pdata[0])->state, ==, DDB_CHANGE_CONFLICT);

  /* Compared again: what was pushed is now the same on both sides. */
  after = run (f, NULL, FALSE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ddb_compare_result_counts (after)->edited_here, ==, 0);
  g_assert_cmpuint (ddb_compare_result_counts (after)->both, ==, 3); /* k3, k7, n1 */
}

static void
test_push_two_way (Fixture *f, gconstpointer data)
{
  const char *const exclude[] = { "m.ts", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbCompareResult) r = NULL;
  g_autoptr (DdbCompareResult) after = NULL;
  DdbPushCounts pc = { 0 };
  guint conflicts = 0;

  (void) data;
  edit_both (f);
  /* The other side's nested timestamp differs: excluded, and kept by the push. */
  update (f->b, "There", "k1", "SET m.ts = :t", "{':t':{'S':'t9'}}");
  r = run (f, NULL, TRUE, exclude, &error);
  g_assert_no_error (error);
  g_assert_true (ddb_push_stage (r, f->staging, "there", NULL, NULL, &pc, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (pc.staged, ==, 7);
  g_assert_cmpuint (pc.left_there + pc.conflicts, ==, 0);
  g_assert_cmpuint (count_commit (f, &conflicts), ==, 7);
  g_assert_cmpuint (conflicts, ==, 0);
  assert_there (f, "k1",
                "{'pk':{'S':'k1'},'v':{'N':'1'},'m':{'M':{'a':{'S':'y'},'ts':{'S':'t9'}}}}");
  assert_there (f, "k4",
                "{'pk':{'S':'k4'},'v':{'N':'4'},'m':{'M':{'a':{'S':'x'},'ts':{'S':'t0'}}}}");
  after = run (f, NULL, TRUE, exclude, &error);
  g_assert_no_error (error);
  g_assert_true (ddb_compare_result_identical (after));
}

static void
test_export_side (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbCompareResult) r = NULL;
  g_autofree char *path = NULL;
  DdbCompareOptions o = { 0 };
  DdbPushCounts pc = { 0 };
  const DdbCompareCounts *c;

  (void) data;
  edit_both (f);
  path = export_lines (f, f->b, "There", "there.jsonl");
  o.here.backend = f->here;
  o.here.table = "Here";
  o.there.export_path = path;
  o.no_base = TRUE;
  r = ddb_compare_run (&o, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  c = ddb_compare_result_counts (r);
  g_assert_cmpuint (c->same, ==, 4);
  g_assert_cmpuint (c->changed, ==, 3);
  g_assert_cmpuint (c->only_here, ==, 3);
  g_assert_cmpuint (c->only_there, ==, 1);
  g_assert_cmpuint (c->items_there, ==, 8);
  /* An export cannot be pushed to. */
  g_assert_false (ddb_push_stage (r, f->staging, "there", NULL, NULL, &pc, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  /* Two exports: refused, there is no key schema to read them with. */
  o.here.export_path = path;
  g_assert_null (ddb_compare_run (&o, NULL, NULL, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
}

static void
test_bad_excludes (Fixture *f, gconstpointer data)
{
  const char *bad[] = { "a..b", "a[x]", "m.list[2]", ".a", "pk.x" };

  (void) data;
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      const char *const exclude[] = { bad[i], NULL };
      g_autoptr (GError) error = NULL;

      g_assert_null (run (f, NULL, TRUE, exclude, &error));
      g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
    }
}

/* Only updates (the item on both sides). */
static gboolean
select_updates (const DdbCompareDifference *d, gpointer data)
{
  (void) data;
  return d->here != NULL && d->there != NULL;
}

static void
test_select (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbCompareResult) r = NULL;
  DdbPushCounts pc = { 0 };

  (void) data;
  g_assert_true (ddb_engine_set_base (f->a, "Here", "/exports/here", "s3", &error));
  edit_both (f);
  r = run (f, NULL, FALSE, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ddb_push_stage (r, f->staging, "there", select_updates, NULL, &pc, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (pc.staged, ==, 1); /* k1 */
  g_assert_cmpuint (pc.updates, ==, 1);
  g_assert_cmpuint (pc.not_selected, ==, 2); /* k2, n1 */
  g_assert_cmpuint (pc.left_there + pc.conflicts, ==, 4);
}

static DdbCompareResult *
run_selected (Fixture *f, json_t *filter, const char *const *partitions, GError **error)
{
  DdbCompareOptions o = options_for (f);

  o.no_base = TRUE;
  o.filter = filter;
  o.partitions = partitions;
  return ddb_compare_run (&o, NULL, NULL, NULL, error);
}

static guint64
n_differences (DdbCompareResult *r)
{
  const DdbCompareCounts *c = ddb_compare_result_counts (r);

  return c->changed + c->only_here + c->only_there;
}

static void
test_filter (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbCompareResult) prefix = NULL;
  g_autoptr (DdbCompareResult) range = NULL;
  json_t *filter;

  (void) data;
  edit_both (f);
  /* Only the k… keys: n1 is left out. */
  filter = etu_json ("{'FilterExpression':'begins_with(#p, :k)','ExpressionAttributeNames':"
                     "{'#p':'pk'},'ExpressionAttributeValues':{':k':{'S':'k'}}}");
  prefix = run_selected (f, filter, NULL, &error);
  json_decref (filter);
  g_assert_no_error (error);
  g_assert_cmpuint (n_differences (prefix), ==, 6);
  g_assert_cmpuint (ddb_compare_result_counts (prefix)->items_here, ==, 9);
  /* A key range: k1 … k3. */
  filter = etu_json ("{'FilterExpression':'#p BETWEEN :a AND :b','ExpressionAttributeNames':"
                     "{'#p':'pk'},'ExpressionAttributeValues':{':a':{'S':'k1'},':b':{'S':'k3'}}}");
  range = run_selected (f, filter, NULL, &error);
  json_decref (filter);
  g_assert_no_error (error);
  g_assert_cmpuint (n_differences (range), ==, 3);
  g_assert_cmpuint (ddb_compare_result_counts (range)->same, ==, 0);
  /* Refused as the API refuses it: an unused placeholder, a syntax error, no expression. */
  for (guint i = 0; i < 3; i++)
    {
      static const char *const bad[] = {
        "{'FilterExpression':'#p = :a','ExpressionAttributeNames':{'#p':'pk','#q':'v'},"
        "'ExpressionAttributeValues':{':a':{'S':'k1'}}}",
        "{'FilterExpression':'#p = = :a','ExpressionAttributeNames':{'#p':'pk'},"
        "'ExpressionAttributeValues':{':a':{'S':'k1'}}}",
        "{'ExpressionAttributeNames':{'#p':'pk'}}",
      };
      g_autoptr (GError) e = NULL;

      filter = etu_json ("%s", bad[i]);
      g_assert_null (run_selected (f, filter, NULL, &e));
      json_decref (filter);
      g_assert_error (e, DDB_ERROR, DDB_ERROR_VALIDATION);
    }
}

static void
test_partitions (Fixture *f, gconstpointer data)
{
  const char *const partitions[] = { "k1", "k4", "zz", "k1", NULL };
  const char *const bad[] = { "", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbCompareResult) r = NULL;
  const DdbCompareCounts *c;

  (void) data;
  edit_both (f);
  r = run_selected (f, NULL, partitions, &error);
  g_assert_no_error (error);
  c = ddb_compare_result_counts (r);
  g_assert_cmpuint (c->items_here, ==, 2);
  g_assert_cmpuint (c->items_there, ==, 2);
  g_assert_cmpuint (c->changed, ==, 2);
  g_assert_null (run_selected (f, NULL, bad, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
}

static void
test_map_keys (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbCompareResult) r = NULL;
  g_autoptr (GPtrArray) staged = NULL;
  g_autofree char *diffs = NULL;
  DdbCompareOptions o = { 0 };
  DdbPushCounts pc = { 0 };
  guint conflicts = 0;
  json_t *got;

  (void) data;
  etu_create_table (f->b, "ById", "id", "S");
  etu_put (f->b, "ById", "{'id':{'S':'k1'},'v':{'N':'1'}}");
  etu_put (f->b, "ById", "{'id':{'S':'k2'},'v':{'N':'2'}}");
  o.here.backend = f->here;
  o.here.table = "Here";
  o.there.backend = f->there;
  o.there.table = "ById";
  o.no_base = TRUE;
  o.exclude = (const char *const[]){ "m", NULL };
  g_assert_null (ddb_compare_run (&o, NULL, NULL, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_clear_error (&error);
  o.map_keys = TRUE;
  r = ddb_compare_run (&o, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ddb_compare_result_counts (r)->same, ==, 2);
  g_assert_cmpuint (ddb_compare_result_counts (r)->only_here, ==, 8);
  diffs = differences (r);
  g_assert_true (g_str_has_prefix (diffs, "k0 only-here none\nk3 only-here none\n"));
  /* Pushed back under there's key name. */
  g_assert_true (ddb_push_stage (r, f->staging, "there", NULL, NULL, &pc, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (pc.creates, ==, 8);
  staged = ddb_staging_list (f->staging, "there", "ById", FALSE, &error);
  g_assert_cmpuint (staged->len, ==, 8);
  g_assert_nonnull (ddb_value_map_get (((DdbChange *) staged->pdata[0])->key, "id"));
  g_assert_null (ddb_value_map_get (((DdbChange *) staged->pdata[0])->target, "pk"));
  {
    DdbCommitOptions co = { 0 };
    DdbCommitReport report = { 0 };

    co.connection = "there";
    co.table = "ById";
    g_assert_true (ddb_staging_commit (f->staging, f->there, &co, NULL, &report, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (report.committed, ==, 8);
    conflicts = report.conflicts;
    ddb_commit_report_clear (&report);
  }
  g_assert_cmpuint (conflicts, ==, 0);
  got = etu_ok (f->b, "GetItem", "{'TableName':'ById','Key':{'id':{'S':'k9'}}}");
  g_assert_nonnull (json_object_get (json_object_get (got, "Item"), "m"));
  json_decref (got);
}

#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ADD ("/compare/three-way/engine-base", test_engine_base);
  ADD ("/compare/three-way/export-base", test_export_base);
  ADD ("/compare/export-side", test_export_side);
  ADD ("/compare/bad-excludes", test_bad_excludes);
  ADD ("/compare/filter", test_filter);
  ADD ("/compare/partitions", test_partitions);
  ADD ("/compare/map-keys", test_map_keys);
  ADD ("/push/three-way", test_push_three_way);
  ADD ("/push/two-way", test_push_two_way);
  ADD ("/push/select", test_select);
  return g_test_run ();
}
