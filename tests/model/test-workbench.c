/* NoSQL Workbench files: a hand-written model read and written back unchanged, its contents as
 * the model sees them, and malformed files refused naming the member at fault. */
#include "model/workbench.h"

#include <string.h>

static json_t *
load (const char *name)
{
  g_autofree char *path = g_build_filename (MODEL_TEST_DATA, "data", name, NULL);
  json_error_t jerr;
  json_t *json = json_load_file (path, 0, &jerr);
  if (json == NULL)
    g_error ("%s: %s", path, jerr.text);
  return json;
}

static void
test_round_trip (void)
{
  json_t *in = load ("workbench-music.json");
  g_autoptr (GError) error = NULL;
  g_autoptr (DyModel) model = dy_workbench_read (in, &error);
  g_assert_no_error (error);
  json_t *out = dy_workbench_write (model);
  if (!json_equal (in, out))
    {
      g_autofree char *a = json_dumps (in, JSON_SORT_KEYS | JSON_INDENT (1));
      g_autofree char *b = json_dumps (out, JSON_SORT_KEYS | JSON_INDENT (1));
      g_error ("round trip differs:\n%s\n----\n%s", a, b);
    }
  /* A second pass from the model written is stable too. */
  g_autoptr (DyModel) again = dy_workbench_read (out, &error);
  g_assert_no_error (error);
  json_t *out2 = dy_workbench_write (again);
  g_assert_true (json_equal (out, out2));
  json_decref (in);
  json_decref (out);
  json_decref (out2);
}

/* The seeds' models under data/models round trip as well. */
static void
test_seed_models_round_trip (void)
{
  const char *names[] = { "workspaces.json", "blog.json", "orders.json" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (MODEL_TEST_DATA, "..", "..", "data", "models",
                                                names[i], NULL);
      g_autoptr (GError) error = NULL;
      json_t *in = json_load_file (path, 0, NULL);
      g_assert_nonnull (in);
      g_autoptr (DyModel) model = dy_workbench_read (in, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (model->patterns->len, >, 0);
      json_t *out = dy_workbench_write (model);
      if (!json_equal (in, out))
        g_error ("%s does not round trip", names[i]);
      json_decref (in);
      json_decref (out);
    }
}

static void
test_contents (void)
{
  json_t *in = load ("workbench-music.json");
  g_autoptr (GError) error = NULL;
  g_autoptr (DyModel) model = dy_workbench_read (in, &error);
  json_decref (in);
  g_assert_no_error (error);
  g_assert_cmpstr (model->name, ==, "Music Library Data Model");
  g_assert_cmpstr (model->author, ==, "Amazon Web Services, Inc.");
  g_assert_cmpuint (model->tables->len, ==, 2);
  DyModelTable *songs = dy_model_find_table (model, "Songs");
  g_assert_cmpstr (songs->partition.name, ==, "Id");
  g_assert_cmpstr (songs->sort.name, ==, "Metadata");
  g_assert_cmpstr (songs->billing_mode, ==, "PROVISIONED");
  g_assert_cmpint (songs->rcu, ==, 5);
  g_assert_cmpint (songs->wcu, ==, 5);
  g_assert_cmpuint (songs->indexes->len, ==, 2);
  DyModelIndex *month = dy_model_table_find_index (songs, "DownloadsByMonth");
  g_assert_cmpstr (month->sort.type, ==, "N");
  g_assert_cmpstr (month->projection, ==, "INCLUDE");
  g_assert_cmpstr (g_ptr_array_index (month->non_key, 0), ==, "Title");
  g_assert_null (dy_model_table_find_index (songs, "ByArtist")->sort.name);
  g_assert_cmpuint (json_array_size (songs->items), ==, 3);
  /* Numbers stay the strings of all their digits. */
  g_assert_cmpstr (json_string_value (json_object_get (json_object_get (
                       json_array_get (songs->items, 0), "TotalDownloads"), "N")),
                   ==, "12345678901234567890123456789012345678");

  DyModelTable *counters = dy_model_find_table (model, "Counters");
  g_assert_null (counters->sort.name);
  g_assert_cmpstr (counters->billing_mode, ==, "PAY_PER_REQUEST");

  DyModelEntity *details = dy_model_find_entity (model, "SongDetails");
  g_assert_cmpstr (details->table, ==, "Songs");
  g_assert_cmpuint (details->attrs->len, ==, 4);
  g_assert_cmpstr (((DyModelAttr *) g_ptr_array_index (details->attrs, 3))->type, ==, "SS");
  g_assert_cmpstr (dy_model_entity_find_key (details, "Id")->tpl->source, ==, "SONG#{songId}");
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (details->max_lengths, "songId")), ==, 36);

  g_assert_cmpuint (model->patterns->len, ==, 2);
  DyModelPattern *dl = g_ptr_array_index (model->patterns, 1);
  g_assert_true (dl->many);
  g_assert_cmpint (dl->order, ==, DY_ORDER_DESCENDING);
  g_assert_cmpstr (g_ptr_array_index (dl->inputs, 0), ==, "songId");
}

/* Capacity changed in the model is what is written; the auto scaling beside it stays. */
static void
test_capacity_written (void)
{
  json_t *in = load ("workbench-music.json");
  g_autoptr (GError) error = NULL;
  g_autoptr (DyModel) model = dy_workbench_read (in, &error);
  json_decref (in);
  g_assert_no_error (error);
  DyModelTable *songs = dy_model_find_table (model, "Songs");
  songs->rcu = 40;
  songs->wcu = 12;
  json_t *out = dy_workbench_write (model);
  json_t *pcs = json_object_get (json_array_get (json_object_get (out, "DataModel"), 0),
                                 "ProvisionedCapacitySettings");
  json_t *pt = json_object_get (pcs, "ProvisionedThroughput");
  g_assert_cmpint (json_integer_value (json_object_get (pt, "ReadCapacityUnits")), ==, 40);
  g_assert_cmpint (json_integer_value (json_object_get (pt, "WriteCapacityUnits")), ==, 12);
  g_assert_nonnull (json_object_get (pcs, "AutoScalingRead"));
  json_decref (out);
}

/* Rates, item counts, read kinds and prices travel in x-dynoscope and round trip. */
static void
test_estimate_members_round_trip (void)
{
  const char *text
      = "{\"ModelName\": \"m\", \"DataModel\": [{\"TableName\": \"T\", \"KeyAttributes\": "
        "{\"PartitionKey\": {\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}}, "
        "\"TableFacets\": [{\"FacetName\": \"E\"}, {\"FacetName\": \"F\"}]}], "
        "\"x-dynoscope\": {\"entities\": {\"E\": {\"keys\": {\"pk\": \"E#{id}\"}, "
        "\"writeRate\": 2.5, \"transactionalWrites\": true, \"perCollection\": 1000}, "
        "\"F\": {\"itemSize\": 300, \"writeRate\": 7}}, "
        "\"patterns\": [{\"name\": \"p\", \"entity\": \"E\", \"inputs\": [\"id\"], "
        "\"many\": true, \"rate\": 120, \"items\": 25, \"consistentRead\": true}, "
        "{\"name\": \"q\", \"entity\": \"E\", \"inputs\": [\"id\"], \"rate\": 0.75, "
        "\"transactional\": true}], "
        "\"prices\": {\"on-demand-read\": 0.3, \"provisioned-write\": {\"value\": 0.0007, "
        "\"currency\": \"EUR\", \"region\": \"eu-central-1\", \"source\": "
        "\"https://aws.amazon.com/dynamodb/pricing/provisioned/\", \"checked\": "
        "\"2026-11-30\"}}}}";
  json_t *in = json_loads (text, 0, NULL);
  g_assert_nonnull (in);
  g_autoptr (GError) error = NULL;
  g_autoptr (DyModel) model = dy_workbench_read (in, &error);
  g_assert_no_error (error);
  DyModelEntity *e = dy_model_find_entity (model, "E");
  g_assert_cmpfloat (e->write_rate, ==, 2.5);
  g_assert_true (e->write_transactional);
  g_assert_cmpint (e->per_collection, ==, 1000);
  DyModelEntity *f = dy_model_find_entity (model, "F");
  g_assert_cmpint (f->item_size, ==, 300);
  g_assert_cmpfloat (f->write_rate, ==, 7);
  DyModelPattern *p = g_ptr_array_index (model->patterns, 0);
  g_assert_cmpfloat (p->rate, ==, 120);
  g_assert_cmpint (p->items, ==, 25);
  g_assert_true (p->consistent);
  g_assert_false (p->transactional);
  DyModelPattern *q = g_ptr_array_index (model->patterns, 1);
  g_assert_cmpfloat (q->rate, ==, 0.75);
  g_assert_true (q->transactional);
  const DyPrice *odr = &model->prices->price[DY_PRICE_ON_DEMAND_READ];
  g_assert_cmpfloat (odr->value, ==, 0.3);
  g_assert_true (odr->edited);
  const DyPrice *pw = &model->prices->price[DY_PRICE_PROVISIONED_WRITE];
  g_assert_cmpfloat (pw->value, ==, 0.0007);
  g_assert_cmpstr (pw->currency, ==, "EUR");
  g_assert_cmpstr (pw->region, ==, "eu-central-1");
  g_assert_cmpstr (pw->checked, ==, "2026-11-30");
  /* A price the file does not set keeps its default. */
  g_assert_false (model->prices->price[DY_PRICE_ON_DEMAND_WRITE].edited);
  g_assert_cmpfloat (model->prices->price[DY_PRICE_ON_DEMAND_WRITE].value, ==, 0.625);

  json_t *out = dy_workbench_write (model);
  if (!json_equal (in, out))
    {
      g_autofree char *a = json_dumps (in, JSON_SORT_KEYS | JSON_INDENT (1));
      g_autofree char *b = json_dumps (out, JSON_SORT_KEYS | JSON_INDENT (1));
      g_error ("round trip differs:\n%s\n----\n%s", a, b);
    }
  /* A rate set in the model is written. */
  q->rate = 4;
  json_t *again = dy_workbench_write (model);
  json_t *qw = json_array_get (json_object_get (json_object_get (again, "x-dynoscope"),
                                                "patterns"), 1);
  g_assert_cmpint (json_integer_value (json_object_get (qw, "rate")), ==, 4);
  json_decref (again);
  json_decref (in);
  json_decref (out);
}

static void
test_invalid (void)
{
  const struct { const char *json, *fragment; } cases[] = {
    { "[]", "must be a JSON object" },
    { "{\"DataModel\": []}", "ModelName is missing" },
    { "{\"ModelName\": \"m\"}", "DataModel must be an array" },
    { "{\"ModelName\": \"m\", \"DataModel\": [{\"TableName\": \"T\"}]}",
      "Table T: KeyAttributes must be an object" },
    { "{\"ModelName\": \"m\", \"DataModel\": [{\"TableName\": \"T\", \"KeyAttributes\": "
      "{\"PartitionKey\": {\"AttributeName\": \"pk\"}}}]}",
      "Table T: KeyAttributes.PartitionKey: AttributeType is missing" },
    { "{\"ModelName\": \"m\", \"DataModel\": [{\"TableName\": \"T\", \"KeyAttributes\": "
      "{\"PartitionKey\": {\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}}, "
      "\"TableFacets\": [{\"FacetName\": \"E\"}]}], \"x-dynoscope\": {\"entities\": "
      "{\"E\": {\"keys\": {\"pk\": \"E#{id\"}}}}}",
      "is not closed" },
    { "{\"ModelName\": \"m\", \"DataModel\": [{\"TableName\": \"T\", \"KeyAttributes\": "
      "{\"PartitionKey\": {\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}}, "
      "\"TableData\": [{\"pk\": {\"S\": \"a\"}}, {\"pk\": {\"N\": \"x1\"}}]}]}",
      "Table T: TableData[1]: " },
    { "{\"ModelName\": \"m\", \"DataModel\": [], \"x-dynoscope\": {\"entities\": "
      "{\"Nope\": {}}}}", "no facet of that name" },
    { "{\"ModelName\": \"m\", \"DataModel\": [], \"x-dynoscope\": {\"patterns\": "
      "[{\"name\": \"p\", \"entity\": \"E\", \"order\": \"newest\"}]}}", "order must be" },
    { "{\"ModelName\": \"m\", \"DataModel\": [], \"x-dynoscope\": {\"patterns\": "
      "[{\"name\": \"p\", \"entity\": \"E\", \"rate\": -1}]}}",
      "Access pattern \"p\": rate must be a number of at least 0" },
    { "{\"ModelName\": \"m\", \"DataModel\": [], \"x-dynoscope\": {\"patterns\": "
      "[{\"name\": \"p\", \"entity\": \"E\", \"rate\": 1e10}]}}", "at most 1e9" },
    { "{\"ModelName\": \"m\", \"DataModel\": [], \"x-dynoscope\": {\"patterns\": "
      "[{\"name\": \"p\", \"entity\": \"E\", \"items\": 0}]}}",
      "items must be a whole number of at least 1" },
    { "{\"ModelName\": \"m\", \"DataModel\": [], \"x-dynoscope\": {\"patterns\": "
      "[{\"name\": \"p\", \"entity\": \"E\", \"consistentRead\": \"yes\"}]}}",
      "consistentRead must be true or false" },
    { "{\"ModelName\": \"m\", \"DataModel\": [], \"x-dynoscope\": {\"prices\": "
      "{\"storage\": 0.25}}}", "Unknown price “storage”" },
    { "{\"ModelName\": \"m\", \"DataModel\": [], \"x-dynoscope\": {\"prices\": "
      "{\"on-demand-read\": {\"value\": \"cheap\"}}}}",
      "x-dynoscope.prices.on-demand-read: must be a number" },
    { "{\"ModelName\": \"m\", \"DataModel\": [], \"x-dynoscope\": {\"prices\": "
      "{\"on-demand-read\": -0.1}}}", "must be a number of at least 0" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      json_t *json = json_loads (cases[i].json, 0, NULL);
      g_assert_nonnull (json);
      g_autoptr (GError) error = NULL;
      g_autoptr (DyModel) model = dy_workbench_read (json, &error);
      json_decref (json);
      g_assert_null (model);
      g_assert_nonnull (error);
      if (strstr (error->message, cases[i].fragment) == NULL)
        g_error ("case %u: \"%s\" lacks \"%s\"", i, error->message, cases[i].fragment);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/workbench/round-trip", test_round_trip);
  g_test_add_func ("/workbench/seed-models-round-trip", test_seed_models_round_trip);
  g_test_add_func ("/workbench/contents", test_contents);
  g_test_add_func ("/workbench/capacity-written", test_capacity_written);
  g_test_add_func ("/workbench/estimate-members-round-trip", test_estimate_members_round_trip);
  g_test_add_func ("/workbench/invalid", test_invalid);
  return g_test_run ();
}
