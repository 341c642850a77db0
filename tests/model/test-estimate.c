/* Estimates computed by hand: capacity units of one request (4 KB reads, half eventually
 * consistent, twice transactional; 1 KB writes, again for each index an item projects into),
 * Query rounding once over the items returned, monthly costs from stated prices, item
 * collections against the 10 GB limit of a table with an LSI, and sample items assigned to
 * their entities. */
#include "model/estimate.h"
#include "model/workbench.h"

#include "core/ddbjson.h"
#include "core/itemsize.h"

#include <math.h>
#include <string.h>

#define MB (1024.0 * 1024.0)

static void
test_units (void)
{
  /* A 5 KB item: 2 RCU strongly consistent, 1 eventually consistent, 4 transactional. */
  g_assert_cmpfloat (dy_read_units (5 * 1024, TRUE, FALSE), ==, 2);
  g_assert_cmpfloat (dy_read_units (5 * 1024, FALSE, FALSE), ==, 1);
  g_assert_cmpfloat (dy_read_units (5 * 1024, FALSE, TRUE), ==, 4);
  /* Exactly 4 KB is one unit, a byte over is two; an empty read still costs one. */
  g_assert_cmpfloat (dy_read_units (4096, TRUE, FALSE), ==, 1);
  g_assert_cmpfloat (dy_read_units (4097, TRUE, FALSE), ==, 2);
  g_assert_cmpfloat (dy_read_units (0, FALSE, FALSE), ==, 0.5);
  /* A 1.5 KB write: 2 WCU, 4 in a transaction. */
  g_assert_cmpfloat (dy_write_units (1536, FALSE), ==, 2);
  g_assert_cmpfloat (dy_write_units (1536, TRUE), ==, 4);
  g_assert_cmpfloat (dy_write_units (1024, FALSE), ==, 1);
  /* A Query rounds once over all it returns: 3 items of 5 KB are 15 KB, 4 units, not 3 x 2. */
  g_assert_cmpfloat (dy_query_read_units (3 * 5 * 1024, TRUE), ==, 4);
  g_assert_cmpfloat (dy_query_read_units (3 * 5 * 1024, FALSE), ==, 2);
  /* ... per 1 MB page: 1.5 MB is a full page of 256 units and a half page of 128. */
  g_assert_cmpfloat (dy_query_read_units (1.5 * MB, TRUE), ==, 384);
  g_assert_cmpfloat (dy_query_read_units (1 * MB, TRUE), ==, 256);
}

/* An item {pk: PK, data: DATA of N bytes, extra attributes} as DynamoDB JSON. */
static json_t *
item (const char *pk, gsize data_len, const char *gpk)
{
  g_autofree char *data = g_strnfill (data_len, 'x');
  json_t *it = json_pack ("{s:{s:s}, s:{s:s}}", "pk", "S", pk, "data", "S", data);
  if (gpk)
    json_object_set_new (it, "gpk", json_pack ("{s:s}", "S", gpk));
  return it;
}

static gsize
json_item_size (json_t *json)
{
  g_autoptr (DdbValue) v = ddb_json_to_item (json, NULL);
  return ddb_item_size (v);
}

static json_t *
attr (const char *name)
{
  return json_pack ("{s:s, s:s}", "AttributeName", name, "AttributeType", "S");
}

static json_t *
gsi (const char *name, const char *pk, const char *projection)
{
  return json_pack ("{s:s, s:{s:o}, s:{s:s}}", "IndexName", name, "KeyAttributes", "PartitionKey",
                    attr (pk), "Projection", "ProjectionType", projection);
}

/* Table R holds E (E#...) items of exactly 5 KB, two in E#1 and one in E#2; table W holds a
 * W item of exactly 1.5 KB with GSIs G1 (ALL) and G2 (KEYS_ONLY) on gpk, and G3 on an
 * attribute the item lacks. */
static DyModel *
build_model (void)
{
  json_t *r_items = json_array ();
  /* pk "E#1": 2 + 3 bytes; "data": 4 + n bytes. */
  json_array_append_new (r_items, item ("E#1", 5120 - 5 - 4, NULL));
  json_array_append_new (r_items, item ("E#1", 5120 - 5 - 4, NULL));
  json_array_append_new (r_items, item ("E#2", 5120 - 5 - 4, NULL));
  for (guint i = 0; i < json_array_size (r_items); i++)
    g_assert_cmpuint (json_item_size (json_array_get (r_items, i)), ==, 5120);
  json_t *w_items = json_array ();
  /* pk 5 bytes, gpk 3 + 1, data 4 + n. */
  json_array_append_new (w_items, item ("W#1", 1536 - 5 - 4 - 4, "g"));
  g_assert_cmpuint (json_item_size (json_array_get (w_items, 0)), ==, 1536);

  json_t *tables = json_pack (
      "[{s:s, s:{s:o}, s:[{s:s}], s:o}, {s:s, s:{s:o}, s:[{s:s}], s:[o, o, o], s:o}]", "TableName",
      "R", "KeyAttributes", "PartitionKey", attr ("pk"), "TableFacets", "FacetName", "E",
      "TableData", r_items, "TableName", "W", "KeyAttributes", "PartitionKey", attr ("pk"),
      "TableFacets", "FacetName", "Wr", "GlobalSecondaryIndexes", gsi ("G1", "gpk", "ALL"),
      gsi ("G2", "gpk", "KEYS_ONLY"), gsi ("G3", "other", "ALL"), "TableData", w_items);
  json_t *patterns = json_pack (
      "[{s:s, s:s, s:[s], s:b, s:i},"
      " {s:s, s:s, s:[s], s:i},"
      " {s:s, s:s, s:[s], s:b},"
      " {s:s, s:s, s:[s], s:b, s:b, s:i},"
      " {s:s, s:s, s:[s], s:b},"
      " {s:s, s:s, s:s, s:[s], s:b, s:b}]",
      "name", "get strong", "entity", "E", "inputs", "id", "consistentRead", 1, "rate", 10, "name",
      "get eventual", "entity", "E", "inputs", "id", "rate", 10, "name", "get transactional",
      "entity", "E", "inputs", "id", "transactional", 1, "name", "query three", "entity", "E",
      "inputs", "id", "many", 1, "consistentRead", 1, "items", 3, "name", "query sample", "entity",
      "E", "inputs", "id", "many", 1, "name", "by gpk", "entity", "Wr", "index", "G1", "inputs",
      "g", "many", 1, "consistentRead", 1);
  json_t *root = json_pack ("{s:s, s:o, s:{s:{s:{s:{s:s}}, s:{s:{s:s, s:s}, s:i}}, s:o}}",
                            "ModelName", "estimates", "DataModel", tables, "x-dynoscope",
                            "entities", "E", "keys", "pk", "E#{id}", "Wr", "keys", "pk", "W#{id}",
                            "gpk", "{g}", "writeRate", 10, "patterns", patterns);
  g_assert_nonnull (root);
  g_autoptr (GError) error = NULL;
  DyModel *model = dy_workbench_read (root, &error);
  g_assert_no_error (error);
  json_decref (root);
  return model;
}

static const DyPatternEstimate *
pattern (const DyEstimate *est, const char *name)
{
  for (guint i = 0; i < est->patterns->len; i++)
    {
      const DyPatternEstimate *p = g_ptr_array_index (est->patterns, i);
      if (g_str_equal (p->pattern->name, name))
        return p;
    }
  g_error ("no pattern %s", name);
}

static const DyEntityEstimate *
entity (const DyEstimate *est, const char *name)
{
  for (guint i = 0; i < est->entities->len; i++)
    {
      const DyEntityEstimate *e = g_ptr_array_index (est->entities, i);
      if (g_str_equal (e->entity->name, name))
        return e;
    }
  g_error ("no entity %s", name);
}

static const DyCapacityEstimate *
capacity (const DyEstimate *est, const char *table, const char *index)
{
  for (guint i = 0; i < est->capacities->len; i++)
    {
      const DyCapacityEstimate *c = g_ptr_array_index (est->capacities, i);
      if (g_str_equal (c->table, table) && g_strcmp0 (c->index, index) == 0)
        return c;
    }
  g_error ("no capacity %s %s", table, index);
}

static void
assert_near (double a, double b)
{
  if (fabs (a - b) > 1e-9 * MAX (1.0, fabs (b)))
    g_error ("%.12g is not %.12g", a, b);
}

static void
test_reads (void)
{
  g_autoptr (DyModel) model = build_model ();
  g_autoptr (DyEstimate) est = dy_model_estimate (model);
  const DyEntityEstimate *e = entity (est, "E");
  g_assert_cmpuint (e->n_samples, ==, 3);
  g_assert_cmpfloat (e->avg_size, ==, 5120);
  g_assert_cmpuint (e->max_size, ==, 5120);

  const DyPatternEstimate *p = pattern (est, "get strong");
  g_assert_true (p->estimated);
  g_assert_cmpint (p->kind, ==, DY_RESOLVED_GET_ITEM);
  g_assert_cmpfloat (p->rcu, ==, 2);
  g_assert_cmpfloat (pattern (est, "get eventual")->rcu, ==, 1);
  g_assert_cmpfloat (pattern (est, "get transactional")->rcu, ==, 4);
  g_assert_true (pattern (est, "get transactional")->transactional);

  const DyPatternEstimate *q = pattern (est, "query three");
  g_assert_cmpint (q->kind, ==, DY_RESOLVED_QUERY);
  g_assert_cmpint (q->items_from, ==, DY_ITEMS_GIVEN);
  g_assert_cmpfloat (q->items, ==, 3);
  g_assert_cmpfloat (q->bytes, ==, 15360);
  g_assert_cmpfloat (q->rcu, ==, 4);
  /* From the sample: E#1 holds two items and E#2 one, 1.5 a Query; 7,680 bytes is 2 units,
   * half of it eventually consistent. */
  const DyPatternEstimate *s = pattern (est, "query sample");
  g_assert_cmpint (s->items_from, ==, DY_ITEMS_SAMPLE);
  g_assert_cmpfloat (s->items, ==, 1.5);
  g_assert_cmpfloat (s->rcu, ==, 1);

  /* A GSI is read eventually consistent only: ConsistentRead is ignored, and said so. */
  const DyPatternEstimate *g = pattern (est, "by gpk");
  g_assert_false (g->consistent);
  g_assert_nonnull (g->note);
  g_assert_nonnull (strstr (g->note, "eventually consistent"));
  g_assert_cmpfloat (g->rcu, ==, 0.5);
}

static void
test_writes (void)
{
  g_autoptr (DyModel) model = build_model ();
  g_autoptr (DyEstimate) est = dy_model_estimate (model);
  /* 1.5 KB: 2 WCU in the table, 2 in G1 (ALL), 1 in G2 (KEYS_ONLY: pk and gpk, 9 bytes), none
   * in G3 (the item has no "other"). */
  const DyEntityEstimate *w = entity (est, "Wr");
  g_assert_cmpfloat (w->table_wcu, ==, 2);
  g_assert_cmpfloat (w->gsi_wcu, ==, 3);
  g_assert_cmpuint (w->indexes->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (w->indexes, 0), ==, "G1");
  g_assert_cmpstr (g_ptr_array_index (w->indexes, 1), ==, "G2");
  g_assert_cmpfloat (w->wcu_per_second, ==, 50);
  g_assert_cmpfloat (capacity (est, "W", NULL)->wcu_per_second, ==, 20);
  g_assert_cmpfloat (capacity (est, "W", "G1")->wcu_per_second, ==, 20);
  g_assert_cmpfloat (capacity (est, "W", "G2")->wcu_per_second, ==, 10);
  g_assert_cmpfloat (capacity (est, "W", "G3")->wcu_per_second, ==, 0);

  /* In transactions, every write doubles. */
  dy_model_find_entity (model, "Wr")->write_transactional = TRUE;
  g_autoptr (DyEstimate) tx = dy_model_estimate (model);
  g_assert_cmpfloat (entity (tx, "Wr")->table_wcu, ==, 4);
  g_assert_cmpfloat (entity (tx, "Wr")->gsi_wcu, ==, 6);
}

static void
test_monthly (void)
{
  g_autoptr (DyModel) model = build_model ();
  g_autoptr (GError) error = NULL;
  /* Stated prices: 0.25 per million read request units, 1.25 per million write request units,
   * 0.0002 per RCU-hour, 0.001 per WCU-hour. */
  g_assert_true (dy_prices_parse_assignment (model->prices, "on-demand-read=0.25", NULL, &error));
  g_assert_true (dy_prices_set (model->prices, DY_PRICE_ON_DEMAND_WRITE, 1.25, "test", &error));
  g_assert_true (dy_prices_set (model->prices, DY_PRICE_PROVISIONED_READ, 0.0002, NULL, &error));
  g_assert_true (dy_prices_set (model->prices, DY_PRICE_PROVISIONED_WRITE, 0.001, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (model->prices->price[DY_PRICE_ON_DEMAND_READ].source, ==, "edited");
  g_assert_cmpstr (model->prices->price[DY_PRICE_ON_DEMAND_WRITE].source, ==, "test");
  g_autoptr (DyEstimate) est = dy_model_estimate (model);

  /* get strong: 10/s x 2 RCU = 20 RCU/s; a month of 730 h is 2,628,000 s: 52,560,000 units,
   * 52.56 x 0.25 = 13.14 on demand; 20 RCU x 730 h x 0.0002 = 2.92 provisioned. */
  const DyPatternEstimate *p = pattern (est, "get strong");
  g_assert_cmpfloat (p->rcu_per_second, ==, 20);
  assert_near (p->monthly_units, 52560000);
  assert_near (p->monthly_on_demand, 13.14);
  assert_near (p->monthly_provisioned, 2.92);
  /* get eventual: 10/s x 1 = 10 RCU/s: 6.57 and 1.46. */
  assert_near (pattern (est, "get eventual")->monthly_on_demand, 6.57);
  assert_near (pattern (est, "get eventual")->monthly_provisioned, 1.46);

  /* Wr: 50 WCU/s: 131,400,000 units x 1.25 / 1e6 = 164.25; 50 x 730 x 0.001 = 36.5. */
  const DyEntityEstimate *w = entity (est, "Wr");
  assert_near (w->monthly_on_demand, 164.25);
  assert_near (w->monthly_provisioned, 36.5);

  /* Table R: 30 RCU/s; W: 20 WCU/s, G1 20, G2 10. Provisioned in whole units per holder:
   * 30 x 730 x 0.0002 = 4.38; (20 + 20 + 10) x 730 x 0.001 = 36.5. */
  assert_near (est->monthly_provisioned, 4.38 + 36.5);
  assert_near (est->monthly_on_demand, 13.14 + 6.57 + 164.25);

  /* A fractional rate provisions a whole unit: 0.3 RCU/s costs 1 RCU-hour an hour. */
  ((DyModelPattern *) g_ptr_array_index (model->patterns, 1))->rate = 0.3;
  ((DyModelPattern *) g_ptr_array_index (model->patterns, 0))->rate = 0;
  g_autoptr (DyEstimate) small = dy_model_estimate (model);
  assert_near (capacity (small, "R", NULL)->rcu_per_second, 0.3);
  g_assert_cmpint (capacity (small, "R", NULL)->rcu, ==, 1);
  assert_near (pattern (small, "get eventual")->monthly_provisioned, 730 * 0.0002);
}

static void
test_collections (void)
{
  g_autoptr (DyModel) model = build_model ();
  g_autoptr (DyEstimate) est = dy_model_estimate (model);
  /* No LSI: the biggest sample collection (two items of 5 KB), no limit. */
  const DyCollectionEstimate *c = NULL;
  for (guint i = 0; i < est->collections->len; i++)
    if (g_str_equal (((DyCollectionEstimate *) g_ptr_array_index (est->collections, i))->table,
                     "R"))
      c = g_ptr_array_index (est->collections, i);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->partition, ==, "E#{id}");
  g_assert_cmpfloat (c->bytes, ==, 10240);
  g_assert_true (c->from_sample);
  g_assert_false (c->has_lsi);
  g_assert_false (c->over_limit);

  /* With an LSI (ALL) each item counts twice; 1,500,000 items of 5 KB per collection are
   * 15,360,000,000 bytes in all, over 10 GB (10,737,418,240). */
  DyModelTable *r = dy_model_find_table (model, "R");
  DyModelIndex *lsi = dy_model_index_new ("L1");
  lsi->local = TRUE;
  lsi->partition.name = g_strdup ("pk");
  lsi->partition.type = g_strdup ("S");
  lsi->sort.name = g_strdup ("data");
  lsi->sort.type = g_strdup ("S");
  lsi->projection = g_strdup ("ALL");
  g_ptr_array_add (r->indexes, lsi);
  dy_model_find_entity (model, "E")->per_collection = 1500000;
  g_autoptr (DyEstimate) big = dy_model_estimate (model);
  c = g_ptr_array_index (big->collections, 0);
  g_assert_cmpstr (c->table, ==, "R");
  g_assert_true (c->has_lsi);
  g_assert_false (c->from_sample);
  g_assert_cmpfloat (c->bytes, ==, 1500000.0 * 5120 * 2);
  g_assert_true (c->over_limit);
  /* ... and 1,000,000 of them (10,240,000,000 bytes) fit. */
  dy_model_find_entity (model, "E")->per_collection = 1000000;
  g_autoptr (DyEstimate) fits = dy_model_estimate (model);
  g_assert_false (((DyCollectionEstimate *) g_ptr_array_index (fits->collections, 0))->over_limit);
  /* The LSI's writes are the table's: 5 KB is 5 WCU in the table and 5 in L1. */
  g_assert_cmpfloat (entity (fits, "E")->table_wcu, ==, 10);
  g_assert_cmpfloat (entity (fits, "E")->gsi_wcu, ==, 0);
}

/* The seed's items go to the entity whose templates they match, the most specific first. */
static void
test_item_entities (void)
{
  g_autofree char *path
      = g_build_filename (MODEL_TEST_DATA, "..", "..", "data", "models", "workspaces.json", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (DyModel) model = dy_workbench_read_file (path, &error);
  g_assert_no_error (error);
  DyModelTable *table = dy_model_find_table (model, "Workspaces");
  const struct {
    const char *pk, *sk, *entity;
  } cases[] = {
    { "WS#acme", "META", "Workspace" },
    { "WS#acme", "PROJ#2026-0041", "Project" },
    { "WS#acme#03", "PROJ#2026-0041", "ShardedProject" },
    { "WS#acme", "OTHER", NULL },
    { "TENANT#x", "META", NULL },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      json_t *json = json_pack ("{s:{s:s}, s:{s:s}}", "EntityRef", "S", cases[i].pk, "Detail", "S",
                                cases[i].sk);
      g_autoptr (DdbValue) it = ddb_json_to_item (json, NULL);
      json_decref (json);
      const DyModelEntity *e = dy_model_item_entity (model, table, it);
      g_assert_cmpstr (e ? e->name : NULL, ==, cases[i].entity);
    }
  g_autoptr (DyEstimate) est = dy_model_estimate (model);
  g_assert_cmpuint (entity (est, "Workspace")->n_samples, ==, 2);
  g_assert_cmpuint (entity (est, "Project")->n_samples, ==, 4);
  g_assert_cmpuint (entity (est, "ShardedProject")->n_samples, ==, 1);
}

/* Templates of many adjacent fields against a long key that does not match finish at once (the
 * matcher remembers what failed rather than trying every split). */
static void
test_match_many_fields (void)
{
  g_autoptr (DyModel) model = dy_model_new ("m");
  DyModelTable *table = dy_model_table_new ("T");
  table->partition.name = g_strdup ("pk");
  table->partition.type = g_strdup ("S");
  g_ptr_array_add (model->tables, table);
  DyModelEntity *e = dy_model_entity_new ("E", "T");
  g_ptr_array_add (model->entities, e);
  g_autoptr (GError) error = NULL;
  g_assert_true (dy_model_entity_set_key (e, "pk", "{a}{b}{c}{d}{e}{f}{g}{h}#X", &error));
  g_autofree char *key = g_strnfill (2000, 'a');
  g_autoptr (DdbValue) it = ddb_value_new_m ();
  ddb_value_map_set (it, "pk", ddb_value_new_s (key, -1));
  g_assert_null (dy_model_item_entity (model, table, it));
  key[1990] = '#';
  key[1991] = 'X';
  key[1992] = '\0';
  ddb_value_map_set (it, "pk", ddb_value_new_s (key, -1));
  g_assert_true (dy_model_item_entity (model, table, it) == e);
}

static void
test_prices (void)
{
  g_autoptr (DyPrices) prices = dy_prices_new_default ();
  const DyPrice *odr = &prices->price[DY_PRICE_ON_DEMAND_READ];
  g_assert_cmpfloat (odr->value, ==, 0.125);
  g_assert_cmpstr (odr->currency, ==, "USD");
  g_assert_cmpstr (odr->region, ==, "us-east-1");
  g_assert_nonnull (strstr (odr->source, "aws.amazon.com/dynamodb/pricing"));
  g_assert_nonnull (odr->checked);
  g_assert_false (odr->edited);
  const struct {
    const char *text, *fragment;
  } bad[] = {
    { "storage=1", "Unknown price “storage”" },
    { "on-demand-read", "NAME=VALUE" },
    { "=1", "NAME=VALUE" },
    { "on-demand-read=cheap", "is not a number" },
    { "on-demand-read=1x", "is not a number" },
    { "on-demand-read=-1", "at least 0" },
    { "on-demand-read=nan", "at least 0" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_false (dy_prices_parse_assignment (prices, bad[i].text, NULL, &error));
      g_assert_error (error, DY_PRICES_ERROR, DY_PRICES_ERROR_INVALID);
      if (strstr (error->message, bad[i].fragment) == NULL)
        g_error ("%s: \"%s\" lacks \"%s\"", bad[i].text, error->message, bad[i].fragment);
    }
  g_assert_false (prices->price[DY_PRICE_ON_DEMAND_READ].edited);
  /* Only edited prices are written, and they read back the same. */
  json_t *none = dy_prices_write_json (prices);
  g_assert_cmpuint (json_object_size (none), ==, 0);
  json_decref (none);
  g_autoptr (GError) error = NULL;
  g_assert_true (
      dy_prices_parse_assignment (prices, "provisioned-read=0.00025", "--price", &error));
  json_t *one = dy_prices_write_json (prices);
  g_assert_cmpuint (json_object_size (one), ==, 1);
  g_autoptr (DyPrices) again = dy_prices_new_default ();
  g_assert_true (dy_prices_read_json (again, one, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (again->price[DY_PRICE_PROVISIONED_READ].value, ==, 0.00025);
  g_assert_cmpstr (again->price[DY_PRICE_PROVISIONED_READ].source, ==, "--price");
  g_assert_null (again->price[DY_PRICE_PROVISIONED_READ].checked);
  json_decref (one);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/estimate/units", test_units);
  g_test_add_func ("/estimate/reads", test_reads);
  g_test_add_func ("/estimate/writes", test_writes);
  g_test_add_func ("/estimate/monthly", test_monthly);
  g_test_add_func ("/estimate/collections", test_collections);
  g_test_add_func ("/estimate/item-entities", test_item_entities);
  g_test_add_func ("/estimate/match-many-fields", test_match_many_fields);
  g_test_add_func ("/estimate/prices", test_prices);
  return g_test_run ();
}
