/* test-keys.c: partition-key health on the engine: a hot tenant, a sharded family with one hot
 * shard, small tenants and ids that only look like shards; cardinality, histogram, shares,
 * families and their spread, the rate's warnings and advice, samples, indexes and cancelling. */
#include <string.h>

#include "core/error.h"
#include "../engine/engine-test-util.h"
#include "model/keys.h"

typedef struct {
  DdbEngine *engine; /* owned by the backend */
  DdbBackend *backend;
} Fixture;

static void
put_n (DdbEngine *engine, const char *key, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *item = g_strdup_printf (
        "{'pk': {'S': '%s'}, 'sk': {'N': '%u'}, 'g': {'S': 'g%u'}}", key, i, i % 3);

      etu_put (engine, "Orders", item);
    }
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  (void) data;
  f->engine = etu_engine_new ();
  f->backend = ddb_backend_new_for_engine (f->engine, ":memory:");
  json_decref (etu_ok (f->engine, "CreateTable",
          "{'TableName': 'Orders', 'BillingMode': 'PAY_PER_REQUEST',"
          " 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'},"
          "  {'AttributeName': 'sk', 'AttributeType': 'N'}, {'AttributeName': 'g', "
          "'AttributeType': 'S'}],"
          " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
          "  {'AttributeName': 'sk', 'KeyType': 'RANGE'}],"
          " 'GlobalSecondaryIndexes': [{'IndexName': 'ByG', 'KeySchema': [{'AttributeName': "
          "'g', 'KeyType': 'HASH'}], 'Projection': {'ProjectionType': 'KEYS_ONLY'}}]}"));
  for (guint s = 1; s <= 10; s++)
    {
      g_autofree char *key = g_strdup_printf ("TENANT#bigco#%02u", s);

      put_n (f->engine, key, s == 7 ? 60 : 20);
    }
  put_n (f->engine, "TENANT#hot", 100);
  put_n (f->engine, "TENANT#acme", 4);
  put_n (f->engine, "TENANT#zed", 1);
  put_n (f->engine, "TENANT#small1", 2); /* a digit, but no separator before it */
  put_n (f->engine, "USER-0", 1);        /* a family numbered from 0 */
  put_n (f->engine, "USER-1", 1);
  put_n (f->engine, "USER-2", 1);
  put_n (f->engine, "ORDER_5", 1);       /* ids with a gap: not shards */
  put_n (f->engine, "ORDER_9", 1);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  (void) data;
  ddb_backend_free (f->backend);
}

#define TOTAL 352

static DdbKeysReport *
analyze (Fixture *f, const DdbKeysOptions *options)
{
  g_autoptr (GError) error = NULL;
  DdbKeysReport *report = ddb_keys_analyze (f->backend, options, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (report);
  return report;
}

static gboolean
advice_has (const DdbKeysReport *report, const char *a, const char *b)
{
  for (guint i = 0; i < report->advice->len; i++)
    if (strstr (report->advice->pdata[i], a) != NULL
        && (b == NULL || strstr (report->advice->pdata[i], b) != NULL))
      return TRUE;
  return FALSE;
}

static void
test_distribution (Fixture *f, gconstpointer data)
{
  DdbKeysOptions options = { .table = "Orders" };
  g_autoptr (DdbKeysReport) r = analyze (f, &options);
  const DdbKeysPartition *top = r->partitions->pdata[0];
  const DdbKeysPartition *second = r->partitions->pdata[1];
  guint64 expected[] = { 6, 1, 1, 0, 9, 1, 1 };
  guint64 bytes = 0;

  (void) data;
  g_assert_cmpstr (r->key_name, ==, "pk");
  g_assert_false (r->sampled);
  g_assert_false (r->has_lsi);
  g_assert_cmpuint (r->items, ==, TOTAL);
  g_assert_cmpuint (r->partitions->len, ==, 19);
  g_assert_cmpstr (top->key, ==, "TENANT#hot");
  g_assert_cmpuint (top->items, ==, 100);
  g_assert_cmpfloat_with_epsilon (ddb_keys_share_items (r, top), 100.0 / TOTAL, 1e-9);
  g_assert_cmpstr (second->key, ==, "TENANT#bigco#07");
  /* An item is "pk" and its key, "sk" and a number of 1 to 21 bytes, "g" and 2 characters. */
  for (guint i = 0; i < r->partitions->len; i++)
    {
      const DdbKeysPartition *p = r->partitions->pdata[i];

      gsize fixed = 2 + strlen (p->key) + 2 + 1 + 2;

      g_assert_cmpuint (p->bytes, >=, p->items * (fixed + 1));
      g_assert_cmpuint (p->bytes, <=, p->items * (fixed + 21));
      bytes += p->bytes;
    }
  g_assert_cmpuint (bytes, ==, r->bytes);
  g_assert_cmpfloat (ddb_keys_share_bytes (r, top), >, 0.2);
  /* Buckets 1, 2-3, 4-7, 8-15, 16-31, 32-63, 64-127. */
  g_assert_cmpuint (r->n_buckets, ==, G_N_ELEMENTS (expected));
  for (guint b = 0; b < r->n_buckets; b++)
    g_assert_cmpuint (r->buckets[b], ==, expected[b]);
  {
    g_autofree char *one = ddb_keys_bucket_label (0);
    g_autofree char *five = ddb_keys_bucket_label (5);

    g_assert_cmpstr (one, ==, "1");
    g_assert_cmpstr (five, ==, "32-63");
  }
  /* Without a rate: no warnings, but a word about the heaviest and the uneven family. */
  g_assert_false (r->has_rate);
  g_assert_cmpuint (r->hot->len, ==, 0);
  g_assert_true (advice_has (r, "\"TENANT#hot\" holds 28.4%", "give a request rate"));
  g_assert_true (advice_has (r, "TENANT#bigco#* are uneven", "\"TENANT#bigco#07\" holds 60"));
  g_assert_false (advice_has (r, "compose", NULL));
  g_assert_cmpuint (r->collections->len, ==, 5);
  g_assert_cmpstr (((DdbKeysPartition *) r->collections->pdata[0])->key, ==, "TENANT#hot");
}

static void
test_families (Fixture *f, gconstpointer data)
{
  DdbKeysOptions options = { .table = "Orders" };
  g_autoptr (DdbKeysReport) r = analyze (f, &options);
  const DdbKeysFamily *bigco, *user;

  (void) data;
  g_assert_cmpuint (r->families->len, ==, 2);
  bigco = r->families->pdata[0];
  user = r->families->pdata[1];
  g_assert_cmpstr (bigco->prefix, ==, "TENANT#bigco#");
  g_assert_cmpuint (bigco->shards->len, ==, 10);
  g_assert_cmpstr (((DdbKeysPartition *) bigco->shards->pdata[0])->key, ==, "TENANT#bigco#01");
  g_assert_cmpstr (((DdbKeysPartition *) bigco->shards->pdata[9])->key, ==, "TENANT#bigco#10");
  g_assert_cmpuint (bigco->items, ==, 240);
  g_assert_cmpuint (bigco->min_items, ==, 20);
  g_assert_cmpuint (bigco->max_items, ==, 60);
  g_assert_cmpstr (bigco->hottest->key, ==, "TENANT#bigco#07");
  g_assert_cmpuint (bigco->first, ==, 1);
  g_assert_cmpuint (bigco->width, ==, 2);
  g_assert_cmpstr (user->prefix, ==, "USER-");
  g_assert_cmpuint (user->first, ==, 0);
  g_assert_cmpuint (user->width, ==, 0);
  g_assert_cmpuint (user->shards->len, ==, 3);
  g_assert_cmpuint (user->min_items, ==, 1);
  g_assert_cmpuint (user->max_items, ==, 1);
}

static void
test_rate (Fixture *f, gconstpointer data)
{
  DdbKeysOptions options = { .table = "Orders", .rate_rcu = 20000, .rate_wcu = 2000 };
  g_autoptr (DdbKeysReport) r = analyze (f, &options);
  const DdbKeysHot *hot;
  json_auto_t *json = NULL;

  (void) data;
  /* TENANT#hot gets 100/352 of 20,000 RCU = 5,682; #07 60/352 = 3,409; a 20-item shard 1,136. */
  g_assert_true (r->has_rate);
  g_assert_cmpuint (r->hot->len, ==, 2);
  hot = &g_array_index (r->hot, DdbKeysHot, 0);
  g_assert_cmpstr (hot->partition->key, ==, "TENANT#hot");
  g_assert_cmpfloat_with_epsilon (hot->rcu, 20000.0 * 100 / TOTAL, 1e-6);
  g_assert_cmpfloat_with_epsilon (hot->wcu, 2000.0 * 100 / TOTAL, 1e-6);
  g_assert_cmpuint (hot->suffixes, ==, 2);
  hot = &g_array_index (r->hot, DdbKeysHot, 1);
  g_assert_cmpstr (hot->partition->key, ==, "TENANT#bigco#07");
  g_assert_true (advice_has (r, "Shard this key with 2 suffixes", "\"TENANT#hot\" holds"));
  g_assert_true (advice_has (r, "2 Queries, one per suffix", "pk = \"TENANT#hot#1\""));
  g_assert_false (advice_has (r, "give a request rate", NULL));
  /* #07 is a shard already: 240/352 of the rate is 13,636 RCU, 5 shards' worth, fewer than the
   * 10 there are: the advice is to even the spread, naming the hot shard. */
  g_assert_true (advice_has (r, "TENANT#bigco#* has suffixes enough (10)",
                             "\"TENANT#bigco#07\" would take 3409 RCU"));
  g_assert_false (advice_has (r, "Shard this key with", "TENANT#bigco#07#"));

  json = ddb_keys_report_to_json (r);
  g_assert_cmpint (json_array_size (json_object_get (json, "hotPartitions")), ==, 2);
  g_assert_true (json_is_true (json_object_get (
    json_array_get (json_object_get (json, "hotPartitions"), 0), "exceedsRcu")));
  g_assert_true (json_is_false (json_object_get (
    json_array_get (json_object_get (json, "hotPartitions"), 0), "exceedsWcu")));
  g_assert_cmpint (json_integer_value (json_object_get (json, "cardinality")), ==, 19);
  g_assert_cmpstr (json_string_value (json_object_get (json, "read")), ==, "all");
  g_assert_cmpstr (json_string_value (json_object_get (json_array_get (json_object_get (
                     json, "shardedFamilies"), 0), "hottest")), ==, "TENANT#bigco#07");
}

static void
test_rate_writes (Fixture *f, gconstpointer data)
{
  /* 5,000 WCU: TENANT#hot takes 1,420 (past 1,000, 2 suffixes), #07 852 (under). */
  DdbKeysOptions options = { .table = "Orders", .rate_wcu = 5000 };
  g_autoptr (DdbKeysReport) r = analyze (f, &options);
  DdbKeysOptions heavy = { .table = "Orders", .rate_rcu = 200000 };
  g_autoptr (DdbKeysReport) h = NULL;

  (void) data;
  g_assert_cmpuint (r->hot->len, ==, 1);
  g_assert_cmpuint (g_array_index (r->hot, DdbKeysHot, 0).suffixes, ==, 2);
  /* 200,000 RCU: TENANT#hot takes 56,818, 19 partitions' worth: rounded up to 20 suffixes. */
  h = analyze (f, &heavy);
  g_assert_cmpuint (g_array_index (h->hot, DdbKeysHot, 0).suffixes, ==, 20);
  /* The family's 240/352 of it is 136,364 RCU, 46 partitions' worth: 50 suffixes, not 10. */
  g_assert_true (advice_has (h, "TENANT#bigco#* is sharded with 10 suffixes but still too hot",
                             "Shard this key with 50 suffixes instead"));
  /* In the family's own numbering, padded to two digits. */
  g_assert_true (advice_has (h, "50 Queries, one per suffix",
                             "pk = \"TENANT#bigco#01\" … \"TENANT#bigco#50\""));
  /* What the fan-out programs need: the hot key's new shards, then the family's. */
  g_assert_cmpuint (h->shard_advice->len, ==, 2);
  {
    const DdbKeysShardAdvice *key = h->shard_advice->pdata[0];
    const DdbKeysShardAdvice *family = h->shard_advice->pdata[1];
    json_auto_t *request = ddb_keys_fanout_request (h, family);
    json_auto_t *json = ddb_keys_report_to_json (h);
    json_t *fanout;

    g_assert_cmpstr (key->prefix, ==, "TENANT#hot#");
    g_assert_cmpuint (key->first, ==, 1);
    g_assert_cmpuint (key->suffixes, ==, 20);
    g_assert_cmpuint (key->width, ==, 0);
    g_assert_null (key->family);
    g_assert_nonnull (strstr (h->advice->pdata[key->advice], "\"TENANT#hot\" holds"));
    g_assert_cmpstr (family->prefix, ==, "TENANT#bigco#");
    g_assert_cmpuint (family->first, ==, 1);
    g_assert_cmpuint (family->suffixes, ==, 50);
    g_assert_cmpuint (family->width, ==, 2);
    g_assert_true (family->family == h->families->pdata[0]);
    g_assert_nonnull (strstr (h->advice->pdata[family->advice], "Shard this key with 50"));
    g_assert_cmpstr (json_string_value (json_object_get (request, "TableName")), ==, "Orders");
    g_assert_null (json_object_get (request, "IndexName"));
    g_assert_cmpstr (json_string_value (json_object_get (request, "KeyConditionExpression")),
                     ==, "#pk = :pk");
    g_assert_cmpstr (json_string_value (json_object_get (
                       json_object_get (request, "ExpressionAttributeNames"), "#pk")), ==, "pk");
    g_assert_cmpstr (json_string_value (json_object_get (json_object_get (
                       json_object_get (request, "ExpressionAttributeValues"), ":pk"), "S")),
                     ==, "TENANT#bigco#01");
    g_assert_cmpint (json_array_size (json_object_get (json, "shardAdvice")), ==, 2);
    fanout = json_object_get (json_array_get (json_object_get (json, "shardAdvice"), 1),
                              "fanout");
    g_assert_cmpstr (json_string_value (json_object_get (fanout, "prefix")), ==,
                     "TENANT#bigco#");
    g_assert_cmpint (json_integer_value (json_object_get (fanout, "suffixes")), ==, 50);
    g_assert_cmpint (json_integer_value (json_object_get (fanout, "width")), ==, 2);
    g_assert_cmpstr (json_string_value (json_object_get (fanout, "family")), ==,
                     "TENANT#bigco#");
    g_assert_true (json_equal (json_object_get (fanout, "request"), request));
    g_assert_true (json_is_null (json_object_get (
      json_object_get (json_array_get (json_object_get (json, "shardAdvice"), 0), "fanout"),
      "family")));
  }
  g_assert_cmpuint (ddb_keys_round_suffixes (3), ==, 5);
  g_assert_cmpuint (ddb_keys_round_suffixes (11), ==, 20);
  g_assert_cmpuint (ddb_keys_round_suffixes (50), ==, 50);
  g_assert_cmpuint (ddb_keys_round_suffixes (51), ==, 100);
}

static void
count_progress (guint64 items, gpointer data)
{
  guint64 *last = data;

  g_assert_cmpuint (items, >=, *last);
  *last = items;
}

static void
test_sample (Fixture *f, gconstpointer data)
{
  DdbKeysOptions options = { .table = "Orders", .sample = 50, .segments = 4 };
  g_autoptr (DdbKeysReport) r = NULL;
  g_autoptr (GError) error = NULL;
  guint64 last = 0;
  DdbKeysOptions all = { .table = "Orders", .sample = TOTAL };
  g_autoptr (DdbKeysReport) a = analyze (f, &all);
  json_auto_t *json = NULL;

  (void) data;
  r = ddb_keys_analyze (f->backend, &options, count_progress, &last, NULL, &error);
  g_assert_no_error (error);
  /* The last progress is the items counted, never more than the sample. */
  g_assert_cmpuint (last, ==, 50);
  g_assert_true (r->sampled);
  g_assert_cmpuint (r->items, ==, 50);
  g_assert_cmpuint (r->partitions->len, <, 19);
  json = ddb_keys_report_to_json (r);
  g_assert_cmpstr (json_string_value (json_object_get (json, "read")), ==, "sample");
  /* A sample as large as the table reads it all, and says so. */
  g_assert_false (a->sampled);
  g_assert_cmpuint (a->items, ==, TOTAL);
}

static void
test_index_and_lsi (Fixture *f, gconstpointer data)
{
  DdbKeysOptions options = { .table = "Orders", .index = "ByG" };
  g_autoptr (DdbKeysReport) r = analyze (f, &options);
  DdbKeysOptions missing = { .table = "Orders", .index = "Nope" };
  DdbKeysOptions lsi = { .table = "Local" };
  g_autoptr (DdbKeysReport) l = NULL;
  g_autoptr (GError) error = NULL;

  (void) data;
  g_assert_cmpstr (r->key_name, ==, "g");
  g_assert_cmpuint (r->partitions->len, ==, 3);
  g_assert_cmpuint (r->items, ==, TOTAL);
  g_assert_null (ddb_keys_analyze (f->backend, &missing, NULL, NULL, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  json_decref (etu_ok (f->engine, "CreateTable",
          "{'TableName': 'Local', 'BillingMode': 'PAY_PER_REQUEST',"
          " 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'N'},"
          "  {'AttributeName': 'sk', 'AttributeType': 'S'}, {'AttributeName': 'l', "
          "'AttributeType': 'S'}],"
          " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
          "  {'AttributeName': 'sk', 'KeyType': 'RANGE'}],"
          " 'LocalSecondaryIndexes': [{'IndexName': 'ByL', 'KeySchema': [{'AttributeName': "
          "'pk', 'KeyType': 'HASH'}, {'AttributeName': 'l', 'KeyType': 'RANGE'}], "
          "'Projection': {'ProjectionType': 'ALL'}}],"
          " 'GlobalSecondaryIndexes': [{'IndexName': 'ByS', 'KeySchema': [{'AttributeName': "
          "'sk', 'KeyType': 'HASH'}], 'Projection': {'ProjectionType': 'ALL'}}]}"));
  etu_put (f->engine, "Local", "{'pk': {'N': '1.50'}, 'sk': {'S': 'a'}}");
  etu_put (f->engine, "Local", "{'pk': {'N': '1.5'}, 'sk': {'S': 'b'}}");
  l = analyze (f, &lsi);
  g_assert_true (l->has_lsi);
  {
    DdbKeysOptions by_l = { .table = "Local", .index = "ByL" };
    DdbKeysOptions by_s = { .table = "Local", .index = "ByS" };
    g_autoptr (DdbKeysReport) rl = analyze (f, &by_l);
    g_autoptr (DdbKeysReport) rs = analyze (f, &by_s);

    /* The LSI shares the table's item collections; a GSI's partitions have no size limit. */
    g_assert_true (rl->has_lsi);
    g_assert_false (rs->has_lsi);
    g_assert_cmpstr (rs->key_name, ==, "sk");
    g_assert_cmpuint (rs->partitions->len, ==, 2);
  }
  g_assert_cmpuint (l->partitions->len, ==, 1);
  g_assert_cmpstr (((DdbKeysPartition *) l->partitions->pdata[0])->key, ==, "1.5");
  g_assert_cmpuint (((DdbKeysPartition *) l->partitions->pdata[0])->items, ==, 2);
}

static void
test_low_cardinality (Fixture *f, gconstpointer data)
{
  DdbKeysOptions options = { .table = "Orders", .index = "ByG" };
  g_autoptr (DdbKeysReport) r = analyze (f, &options);

  (void) data;
  g_assert_true (advice_has (r, "Only 3 distinct values of g for 352 items", "compose"));
}

static void
test_cancel (Fixture *f, gconstpointer data)
{
  DdbKeysOptions options = { .table = "Orders" };
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  DdbKeysReport *r;
  guint64 last = 0;

  (void) data;
  g_cancellable_cancel (cancellable);
  r = ddb_keys_analyze (f->backend, &options, count_progress, &last, cancellable, &error);
  g_assert_null (r);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (last, ==, 0); /* no final progress for a cancelled read */
}

/* Unpadded suffixes of one and two digits are one numbering whichever is read first (here #10
 * is the heaviest); padded ones of different widths are not. Without a rate the largest
 * family's fan-out covers its existing suffixes. */
static void
test_family_numbering (Fixture *f, gconstpointer data)
{
  DdbKeysOptions options = { .table = "Orders" };
  g_autoptr (DdbKeysReport) r = NULL;
  const DdbKeysFamily *ws = NULL;
  const DdbKeysShardAdvice *a;

  (void) data;
  for (guint s = 1; s <= 10; s++)
    {
      g_autofree char *key = g_strdup_printf ("WS#acme#%u", s);

      put_n (f->engine, key, s == 10 ? 41 : 40);
    }
  put_n (f->engine, "MIX#01", 1);
  put_n (f->engine, "MIX#02", 1);
  put_n (f->engine, "MIX#100", 1);
  r = analyze (f, &options);
  for (guint i = 0; i < r->families->len; i++)
    {
      const DdbKeysFamily *fam = r->families->pdata[i];

      g_assert_cmpstr (fam->prefix, !=, "MIX#");
      if (strcmp (fam->prefix, "WS#acme#") == 0)
        ws = fam;
    }
  g_assert_nonnull (ws);
  g_assert_true (ws == r->families->pdata[0]);
  g_assert_cmpuint (ws->shards->len, ==, 10);
  g_assert_cmpuint (ws->first, ==, 1);
  g_assert_cmpuint (ws->width, ==, 0);
  g_assert_cmpuint (r->shard_advice->len, ==, 1);
  a = r->shard_advice->pdata[0];
  g_assert_cmpstr (a->prefix, ==, "WS#acme#");
  g_assert_cmpuint (a->first, ==, 1);
  g_assert_cmpuint (a->suffixes, ==, 10);
  g_assert_cmpuint (a->width, ==, 0);
  g_assert_nonnull (strstr (r->advice->pdata[a->advice], "WS#acme#* is a sharded key"));
}

/* A partition key that is a number cannot take a suffix: advice, but no fan-out. */
static void
test_number_key_no_fanout (Fixture *f, gconstpointer data)
{
  DdbKeysOptions options = { .table = "Nums", .rate_rcu = 20000 };
  g_autoptr (DdbKeysReport) r = NULL;

  (void) data;
  json_decref (etu_ok (f->engine, "CreateTable",
          "{'TableName': 'Nums', 'BillingMode': 'PAY_PER_REQUEST',"
          " 'AttributeDefinitions': [{'AttributeName': 'id', 'AttributeType': 'N'},"
          "  {'AttributeName': 'sk', 'AttributeType': 'N'}],"
          " 'KeySchema': [{'AttributeName': 'id', 'KeyType': 'HASH'},"
          "  {'AttributeName': 'sk', 'KeyType': 'RANGE'}]}"));
  for (guint i = 0; i < 30; i++)
    {
      g_autofree char *item = g_strdup_printf ("{'id': {'N': '%u'}, 'sk': {'N': '%u'}}",
                                               i < 25 ? 7 : i, i);

      etu_put (f->engine, "Nums", item);
    }
  r = analyze (f, &options);
  g_assert_false (r->key_is_string);
  g_assert_true (advice_has (r, "Shard this key with", "\"7\" holds"));
  g_assert_cmpuint (r->shard_advice->len, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/keys/distribution", test_distribution);
  ADD ("/keys/families", test_families);
  ADD ("/keys/rate", test_rate);
  ADD ("/keys/rate-writes", test_rate_writes);
  ADD ("/keys/sample", test_sample);
  ADD ("/keys/index-and-lsi", test_index_and_lsi);
  ADD ("/keys/low-cardinality", test_low_cardinality);
  ADD ("/keys/cancel", test_cancel);
  ADD ("/keys/family-numbering", test_family_numbering);
  ADD ("/keys/number-key-no-fanout", test_number_key_no_fanout);
  return g_test_run ();
}
