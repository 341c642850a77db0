/* Generated items: counts and distinct keys, the same for a seed, partition-key fields taken
 * from the owners' items with a Zipf-like tenant size, timestamps in order, counters per
 * parent, a value of each attribute type, the patterns' examples present, and the errors. */
#include <stdlib.h>
#include <string.h>

#include "model/generate.h"
#include "model/workbench.h"

static DyModel *
seed_model (const char *name)
{
  g_autofree char *path = g_strdup_printf ("%s/../../data/models/%s.json", MODEL_TEST_DATA, name);
  g_autoptr (GError) error = NULL;
  DyModel *model = dy_workbench_read_file (path, &error);
  g_assert_no_error (error);
  return model;
}

static const char *
str_of (json_t *item, const char *attr)
{
  json_t *v = json_object_get (item, attr);
  const char *s = json_string_value (json_object_get (v, "S"));
  if (s == NULL)
    s = json_string_value (json_object_get (v, "N"));
  return s;
}

static json_t *
generate (const DyModel *model, guint n, guint32 seed)
{
  g_autoptr (GError) error = NULL;
  const DyModelTable *table = g_ptr_array_index (model->tables, 0);
  json_t *items = dy_model_generate (model, table, n, seed, &error);
  g_assert_no_error (error);
  g_assert_nonnull (items);
  return items;
}

static void
test_seeds_count_and_distinct (void)
{
  const char *seeds[] = { "workspaces", "blog", "orders" };
  for (gsize s = 0; s < G_N_ELEMENTS (seeds); s++)
    {
      g_autoptr (DyModel) model = seed_model (seeds[s]);
      const DyModelTable *table = g_ptr_array_index (model->tables, 0);
      guint n_entities = 0;
      for (guint i = 0; i < model->entities->len; i++)
        n_entities += g_str_equal (
            ((DyModelEntity *) g_ptr_array_index (model->entities, i))->table, table->name);
      json_auto_t *items = generate (model, 300, 7);
      g_assert_cmpuint (json_array_size (items), ==, 300 * n_entities);
      g_autoptr (GHashTable) keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      json_t *item;
      gsize i;
      json_array_foreach (items, i, item)
        {
          const char *pk = str_of (item, table->partition.name);
          const char *sk = str_of (item, table->sort.name);
          g_assert_nonnull (pk);
          g_assert_nonnull (sk);
          g_assert_true (g_hash_table_add (keys, g_strdup_printf ("%s\x01%s", pk, sk)));
        }
    }
}

static void
test_same_seed_same_items (void)
{
  g_autoptr (DyModel) model = seed_model ("blog");
  json_auto_t *a = generate (model, 50, 42);
  json_auto_t *b = generate (model, 50, 42);
  json_auto_t *c = generate (model, 50, 43);
  g_assert_true (json_equal (a, b));
  g_assert_false (json_equal (a, c));
}

/* Every project's workspace is a generated workspace; a few workspaces hold most projects, the
 * examples' "acme" the most; seq counts 1, 2, 3… per workspace, years follow the timestamps. */
static void
test_parents_and_tenant_sizes (void)
{
  g_autoptr (DyModel) model = seed_model ("workspaces");
  json_auto_t *items = generate (model, 400, 3);
  g_autoptr (GHashTable) workspaces = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) projects = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) seqs
      = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
  const char *last_created = "";
  json_t *item;
  gsize i;
  json_array_foreach (items, i, item)
    {
      const char *pk = str_of (item, "EntityRef");
      const char *sk = str_of (item, "Detail");
      if (g_str_equal (sk, "META"))
        {
          g_hash_table_add (workspaces, (gpointer) pk);
          /* Workspaces come before their projects, created in order. */
          g_assert_cmpuint (g_hash_table_size (projects), ==, 0);
          const char *created = str_of (item, "createdAt");
          g_assert_cmpstr (created, >=, last_created);
          last_created = created;
          continue;
        }
      if (strchr (pk + 3, '#') != NULL) /* a ShardedProject: WS#id#NN */
        {
          g_autofree char *ws = g_strndup (pk, strrchr (pk, '#') - pk);
          g_assert_true (g_hash_table_contains (workspaces, ws));
          int shard = atoi (strrchr (pk, '#') + 1);
          g_assert_cmpint (shard, >=, 1);
          g_assert_cmpint (shard, <=, 10);
          continue;
        }
      g_assert_true (g_hash_table_contains (workspaces, pk));
      g_hash_table_insert (
          projects, (gpointer) pk,
          GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (projects, pk)) + 1));
      g_assert_true (g_str_has_prefix (sk, "PROJ#"));
      g_assert_cmpuint (strlen (sk), ==, strlen ("PROJ#2025-0001"));
      GArray *s = g_hash_table_lookup (seqs, pk);
      if (s == NULL)
        {
          s = g_array_new (FALSE, FALSE, sizeof (int));
          g_hash_table_insert (seqs, (gpointer) pk, s);
        }
      int seq = atoi (sk + strlen ("PROJ#2025-"));
      g_array_append_val (s, seq);
    }
  g_assert_cmpuint (g_hash_table_size (workspaces), ==, 400);
  /* The biggest tenant is acme, with a large share; most tenants have few projects. */
  guint acme = GPOINTER_TO_UINT (g_hash_table_lookup (projects, "WS#acme"));
  GHashTableIter iter;
  gpointer k, v;
  guint max_other = 0, small = 0;
  g_hash_table_iter_init (&iter, projects);
  while (g_hash_table_iter_next (&iter, &k, &v))
    {
      if (g_str_equal (k, "WS#acme"))
        continue;
      max_other = MAX (max_other, GPOINTER_TO_UINT (v));
      small += GPOINTER_TO_UINT (v) <= 2;
    }
  g_assert_cmpuint (acme, >, 40);
  g_assert_cmpuint (acme, >, max_other);
  g_assert_cmpuint (small, >, g_hash_table_size (projects) / 2);
  /* Outside the examples' tenant, seq is 1, 2, 3… in the order made. */
  g_hash_table_iter_init (&iter, seqs);
  while (g_hash_table_iter_next (&iter, &k, &v))
    {
      if (g_str_equal (k, "WS#acme"))
        continue;
      GArray *s = v;
      for (guint j = 0; j < s->len; j++)
        g_assert_cmpint (g_array_index (s, int, j), ==, (int) j + 1);
    }
}

/* The access patterns' example requests find their items: acme's project 2026-0041, the
 * hot tenant's shard 7, the author 12's posts in January and February 2026. */
static void
test_examples_present (void)
{
  struct {
    const char *model, *pk_attr, *pk, *sk_attr, *sk_prefix;
  } cases[] = {
    { "workspaces", "EntityRef", "WS#acme", "Detail", "PROJ#2026-0041" },
    { "workspaces", "EntityRef", "WS#acme", "Detail", "META" },
    { "workspaces", "EntityRef", "WS#acme#01", "Detail", "PROJ#" },
    { "orders", "TenantShard", "TENANT#smallco", "CustomerCountryProduct", "C#2000#DE#P-KEYBOARD" },
    { "orders", "TenantShard", "TENANT#smallco", "CustomerCountryProduct", "C#2001#" },
    { "orders", "TenantShard", "TENANT#bigco#07", "CustomerCountryProduct", "C#" },
    { "orders", "TenantShard", "TENANT#bigco#01", "CustomerCountryProduct", "C#1037#FR#" },
    { "blog", "PK", "USER#12", "SK", "META" },
    { "blog", "PK", "POST#9f3", "SK", "COMMENT#" },
    { "blog", "authorId", "U#12", "publishedAt", "2026-0" },
  };
  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (DyModel) model = seed_model (cases[c].model);
      json_auto_t *items = generate (model, 100, 11);
      gboolean found = FALSE;
      json_t *item;
      gsize i;
      json_array_foreach (items, i, item)
        {
          const char *pk = str_of (item, cases[c].pk_attr);
          const char *sk = str_of (item, cases[c].sk_attr);
          found |= pk && sk && g_str_equal (pk, cases[c].pk)
                   && g_str_has_prefix (sk, cases[c].sk_prefix);
        }
      if (!found)
        g_error ("%s: no item %s = %s, %s begins with %s", cases[c].model, cases[c].pk_attr,
                 cases[c].pk, cases[c].sk_attr, cases[c].sk_prefix);
    }
}

/* Comments under a post are in time order with their counter: COMMENT#{date}#{n}. */
static void
test_timestamps_in_order (void)
{
  g_autoptr (DyModel) model = seed_model ("blog");
  json_auto_t *items = generate (model, 200, 5);
  g_autoptr (GHashTable) last = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  json_t *item;
  gsize i;
  guint comments = 0;
  json_array_foreach (items, i, item)
    {
      const char *pk = str_of (item, "PK");
      const char *sk = str_of (item, "SK");
      if (!g_str_has_prefix (sk, "COMMENT#"))
        continue;
      comments++;
      const char *date = sk + strlen ("COMMENT#");
      g_autofree char *stamp = g_strndup (date, strrchr (sk, '#') - date);
      g_autoptr (GDateTime) dt = g_date_time_new_from_iso8601 (stamp, NULL);
      g_assert_nonnull (dt);
      const char *prev = g_hash_table_lookup (last, pk);
      if (prev)
        g_assert_cmpstr (prev, <, sk);
      g_hash_table_insert (last, (gpointer) pk, g_strdup (sk));
    }
  g_assert_cmpuint (comments, ==, 200);
  /* A comment comes after its post, a post after its author's sign-up; a user's userId is the
   * id in its key. */
  g_autoptr (GHashTable) published = g_hash_table_new (g_str_hash, g_str_equal);
  json_array_foreach (items, i, item)
    if (g_str_equal (str_of (item, "SK"), "META")
        && g_str_has_prefix (str_of (item, "PK"), "POST#"))
      g_hash_table_insert (published, (gpointer) str_of (item, "PK"),
                           (gpointer) str_of (item, "publishedAt"));
  json_array_foreach (items, i, item)
    {
      const char *sk = str_of (item, "SK");
      if (g_str_has_prefix (sk, "COMMENT#"))
        {
          const char *post_time = g_hash_table_lookup (published, str_of (item, "PK"));
          g_assert_nonnull (post_time);
          /* Except the post a pattern's example range dates (its value is kept as given). */
          if (!g_str_equal (post_time, "2026-01-01T12:00:00Z"))
            g_assert_cmpstr (sk + strlen ("COMMENT#"), >, post_time);
        }
      if (g_str_has_prefix (str_of (item, "PK"), "USER#"))
        g_assert_cmpstr (str_of (item, "userId"), ==, str_of (item, "PK") + strlen ("USER#"));
    }
  /* Posts spread over the authors of the users generated: each author is a user. */
  g_autoptr (GHashTable) users = g_hash_table_new (g_str_hash, g_str_equal);
  json_array_foreach (items, i, item)
    if (g_str_equal (str_of (item, "SK"), "META")
        && g_str_has_prefix (str_of (item, "PK"), "USER#"))
      g_hash_table_add (users, (gpointer) (str_of (item, "PK") + strlen ("USER#")));
  json_array_foreach (items, i, item)
    {
      const char *author = str_of (item, "authorId");
      if (author)
        g_assert_true (g_hash_table_contains (users, author + strlen ("U#")));
    }
}

static DyModelAttr *
attr (const char *name, const char *type)
{
  DyModelAttr *a = g_new0 (DyModelAttr, 1);
  a->name = g_strdup (name);
  a->type = g_strdup (type);
  return a;
}

/* A table T (PK, SK) with one entity whose keys are PK_TPL and SK_TPL. */
static DyModel *
one_entity (const char *pk_tpl, const char *sk_tpl)
{
  DyModel *model = dy_model_new ("m");
  DyModelTable *table = dy_model_table_new ("T");
  table->partition.name = g_strdup ("PK");
  table->partition.type = g_strdup ("S");
  table->sort.name = g_strdup ("SK");
  table->sort.type = g_strdup ("S");
  g_ptr_array_add (model->tables, table);
  DyModelEntity *e = dy_model_entity_new ("Thing", "T");
  g_ptr_array_add (model->entities, e);
  g_autoptr (GError) error = NULL;
  if (pk_tpl)
    g_assert_true (dy_model_entity_set_key (e, "PK", pk_tpl, &error));
  if (sk_tpl)
    g_assert_true (dy_model_entity_set_key (e, "SK", sk_tpl, &error));
  g_assert_no_error (error);
  return model;
}

static void
test_every_type (void)
{
  static const char *const types[] = { "S", "N", "B", "BOOL", "SS", "NS", "BS", "L", "M", "NULL" };
  g_autoptr (DyModel) model = one_entity ("THING#{thingId}", "V#{seq:03}");
  DyModelEntity *e = g_ptr_array_index (model->entities, 0);
  for (gsize t = 0; t < G_N_ELEMENTS (types); t++)
    {
      g_autofree char *name = g_strdup_printf ("a%s", types[t]);
      g_ptr_array_add (e->attrs, attr (name, types[t]));
    }
  g_ptr_array_add (e->attrs, attr ("updatedAt", "S"));
  json_auto_t *items = generate (model, 60, 9);
  g_assert_cmpuint (json_array_size (items), ==, 60);
  json_t *item;
  gsize i;
  const char *last_time = "";
  json_array_foreach (items, i, item)
    {
      g_assert_true (g_str_has_prefix (str_of (item, "PK"), "THING#"));
      g_assert_cmpuint (strlen (str_of (item, "SK")), ==, 5);
      for (gsize t = 0; t < G_N_ELEMENTS (types); t++)
        {
          g_autofree char *name = g_strdup_printf ("a%s", types[t]);
          json_t *v = json_object_get (item, name);
          g_assert_nonnull (v);
          g_assert_cmpuint (json_object_size (v), ==, 1);
          json_t *inner = json_object_get (v, types[t]);
          g_assert_nonnull (inner);
          if (g_str_equal (types[t], "N"))
            {
              char *end = NULL;
              g_ascii_strtod (json_string_value (inner), &end);
              g_assert_cmpint (*end, ==, '\0');
            }
          else if (g_str_equal (types[t], "B"))
            {
              gsize len = 0;
              g_free (g_base64_decode (json_string_value (inner), &len));
              g_assert_cmpuint (len, >, 0);
            }
          else if (g_str_equal (types[t], "BOOL"))
            g_assert_true (json_is_boolean (inner));
          else if (g_str_equal (types[t], "NULL"))
            g_assert_true (json_is_true (inner));
          else if (g_str_equal (types[t], "L"))
            g_assert_cmpuint (json_array_size (inner), >, 0);
          else if (g_str_equal (types[t], "M"))
            g_assert_cmpuint (json_object_size (inner), >, 0);
          else if (types[t][1] == 'S') /* a set: members distinct */
            {
              g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
              json_t *m;
              gsize k;
              g_assert_cmpuint (json_array_size (inner), >, 0);
              json_array_foreach (inner, k, m)
                g_assert_true (g_hash_table_add (seen, (gpointer) json_string_value (m)));
            }
        }
      const char *t
          = json_string_value (json_object_get (json_object_get (item, "updatedAt"), "S"));
      g_autoptr (GDateTime) dt = g_date_time_new_from_iso8601 (t, NULL);
      g_assert_nonnull (dt);
      g_assert_cmpstr (t, >=, last_time);
      last_time = t;
    }
}

/* Tenants and codes from pools: once a pool's values keep colliding, new values come, so that
 * 500 items get 500 keys from two free fields. */
static void
test_pools_grow (void)
{
  g_autoptr (DyModel) model = one_entity ("T#{tenant}", "{code}");
  json_auto_t *items = generate (model, 500, 2);
  g_assert_cmpuint (json_array_size (items), ==, 500);
  g_autoptr (GHashTable) tenants = g_hash_table_new (g_str_hash, g_str_equal);
  json_t *item;
  gsize i;
  json_array_foreach (items, i, item)
    g_hash_table_add (tenants, (gpointer) str_of (item, "PK"));
  /* Tenants are few next to the items: partitions hold many. */
  g_assert_cmpuint (g_hash_table_size (tenants), <, 100);
}

/* A time in a number key is seconds since the epoch, in order; a dated field renders from an ISO
 * timestamp. */
static void
test_number_and_dated_times (void)
{
  g_autoptr (DyModel) model = one_entity ("DAY#{createdAt:%Y-%m-%d}", "{seq:03}");
  DyModelTable *table = g_ptr_array_index (model->tables, 0);
  DyModelIndex *gsi = dy_model_index_new ("ByTime");
  gsi->partition.name = g_strdup ("kind");
  gsi->partition.type = g_strdup ("S");
  gsi->sort.name = g_strdup ("at");
  gsi->sort.type = g_strdup ("N");
  g_ptr_array_add (table->indexes, gsi);
  DyModelEntity *e = g_ptr_array_index (model->entities, 0);
  g_autoptr (GError) error = NULL;
  g_assert_true (dy_model_entity_set_key (e, "kind", "EVENT", &error));
  g_assert_true (dy_model_entity_set_key (e, "at", "{updatedAt}", &error));
  json_auto_t *items = generate (model, 40, 4);
  g_assert_cmpuint (json_array_size (items), ==, 40);
  json_t *item;
  gsize i;
  gint64 last = 0;
  json_array_foreach (items, i, item)
    {
      const char *day = str_of (item, "PK");
      g_assert_cmpuint (strlen (day), ==, strlen ("DAY#2025-01-01"));
      const char *at = json_string_value (json_object_get (json_object_get (item, "at"), "N"));
      g_assert_nonnull (at);
      gint64 t = g_ascii_strtoll (at, NULL, 10);
      g_assert_cmpint (t, >=, last);
      last = t;
    }
  g_assert_cmpint (last, >, 1700000000);
}

static void
test_errors (void)
{
  g_autoptr (GError) error = NULL;
  /* Ten shards and a constant sort key give ten keys, not fifty. */
  g_autoptr (DyModel) few = one_entity ("K#{shard:02}", "X");
  const DyModelTable *table = g_ptr_array_index (few->tables, 0);
  json_t *items = dy_model_generate (few, table, 50, 1, &error);
  g_assert_null (items);
  g_assert_error (error, DY_GENERATE_ERROR, DY_GENERATE_ERROR_EXHAUSTED);
  g_assert_nonnull (strstr (error->message, "Thing"));
  g_assert_nonnull (strstr (error->message, "10 distinct keys"));
  g_clear_error (&error);
  json_decref (dy_model_generate (few, table, 10, 1, &error));
  g_assert_no_error (error);

  /* A constant key is one item. */
  g_autoptr (DyModel) constant = one_entity ("CONFIG", "META");
  items = dy_model_generate (constant, g_ptr_array_index (constant->tables, 0), 20, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_size (items), ==, 1);
  json_decref (items);

  /* No template for the sort key: its items cannot be made. */
  g_autoptr (DyModel) partial = one_entity ("P#{id}", NULL);
  items = dy_model_generate (partial, g_ptr_array_index (partial->tables, 0), 5, 1, &error);
  g_assert_null (items);
  g_assert_error (error, DY_GENERATE_ERROR, DY_GENERATE_ERROR_TEMPLATE);
  g_assert_nonnull (strstr (error->message, "SK"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/generate/seeds-count-and-distinct", test_seeds_count_and_distinct);
  g_test_add_func ("/generate/same-seed-same-items", test_same_seed_same_items);
  g_test_add_func ("/generate/parents-and-tenant-sizes", test_parents_and_tenant_sizes);
  g_test_add_func ("/generate/examples-present", test_examples_present);
  g_test_add_func ("/generate/timestamps-in-order", test_timestamps_in_order);
  g_test_add_func ("/generate/every-type", test_every_type);
  g_test_add_func ("/generate/pools-grow", test_pools_grow);
  g_test_add_func ("/generate/number-and-dated-times", test_number_and_dated_times);
  g_test_add_func ("/generate/errors", test_errors);
  return g_test_run ();
}
