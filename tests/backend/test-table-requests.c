/* test-table-requests.c: CreateTable / UpdateTable / UpdateTimeToLive / DeleteTable builders, their
 * checks, and the steps run on the embedded engine (DescribeTable shows what they did). */
#include <stdlib.h>
#include <string.h>

#include "backend/table-requests.h"

static GPtrArray *
tr_all_steps_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_table_step_free);
}

static DdbTableSpec *
blog_spec (void)
{
  DdbTableSpec *spec = ddb_table_spec_new ("Blog", "PK", "S", "SK", "S");
  DdbIndexSpec *gsi = ddb_index_spec_new ("byAuthor", "author", "S", "createdAt", "N");
  DdbIndexSpec *lsi = ddb_index_spec_new ("byTitle", NULL, NULL, "title", "S");

  gsi->projection = DDB_PROJECTION_INCLUDE;
  g_ptr_array_add (gsi->non_key_attributes, g_strdup ("title"));
  g_ptr_array_add (spec->gsis, gsi);
  lsi->projection = DDB_PROJECTION_KEYS_ONLY;
  g_ptr_array_add (spec->lsis, lsi);
  return spec;
}

static void
assert_json (json_t *j, const char *expected)
{
  json_auto_t *want = json_loads (expected, 0, NULL);
  g_autofree char *got = json_dumps (j, JSON_SORT_KEYS);
  g_autofree char *exp = json_dumps (want, JSON_SORT_KEYS);

  g_assert_nonnull (want);
  g_assert_cmpstr (got, ==, exp);
}

static void
test_create_request (void)
{
  g_autoptr (DdbTableSpec) spec = blog_spec ();
  g_autoptr (GPtrArray) steps = NULL;
  g_autoptr (GError) error = NULL;
  DdbTableStep *step;

  spec->stream = DDB_STREAM_NEW_AND_OLD_IMAGES;
  spec->ttl_attribute = g_strdup ("expiresAt");
  steps = ddb_table_create_steps (spec, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (steps->len, ==, 2);
  step = steps->pdata[0];
  g_assert_cmpstr (step->operation, ==, "CreateTable");
  g_assert_cmpint (step->wait, ==, DDB_TABLE_WAIT_ACTIVE);
  assert_json (step->request,
               "{\"TableName\":\"Blog\",\"BillingMode\":\"PAY_PER_REQUEST\","
               "\"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},"
               "{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"},"
               "{\"AttributeName\":\"author\",\"AttributeType\":\"S\"},"
               "{\"AttributeName\":\"createdAt\",\"AttributeType\":\"N\"},"
               "{\"AttributeName\":\"title\",\"AttributeType\":\"S\"}],"
               "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},"
               "{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}],"
               "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byAuthor\",\"KeySchema\":["
               "{\"AttributeName\":\"author\",\"KeyType\":\"HASH\"},"
               "{\"AttributeName\":\"createdAt\",\"KeyType\":\"RANGE\"}],"
               "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"title\"]}}],"
               "\"LocalSecondaryIndexes\":[{\"IndexName\":\"byTitle\",\"KeySchema\":["
               "{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},"
               "{\"AttributeName\":\"title\",\"KeyType\":\"RANGE\"}],"
               "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}],"
               "\"StreamSpecification\":{\"StreamEnabled\":true,"
               "\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"}}");
  step = steps->pdata[1];
  g_assert_cmpstr (step->operation, ==, "UpdateTimeToLive");
  assert_json (step->request, "{\"TableName\":\"Blog\",\"TimeToLiveSpecification\":"
                              "{\"Enabled\":true,\"AttributeName\":\"expiresAt\"}}");
}

static void
test_create_provisioned (void)
{
  g_autoptr (DdbTableSpec) spec = ddb_table_spec_new ("Orders", "id", "N", NULL, NULL);
  DdbIndexSpec *gsi = ddb_index_spec_new ("byCustomer", "customer", "S", NULL, NULL);
  g_autoptr (GPtrArray) steps = NULL;
  g_autoptr (GError) error = NULL;

  spec->billing = DDB_BILLING_PROVISIONED;
  spec->rcu = 5;
  spec->wcu = 2;
  gsi->rcu = 3;
  gsi->wcu = 1;
  g_ptr_array_add (spec->gsis, gsi);
  steps = ddb_table_create_steps (spec, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (steps->len, ==, 1);
  assert_json (((DdbTableStep *) steps->pdata[0])->request,
               "{\"TableName\":\"Orders\",\"BillingMode\":\"PROVISIONED\","
               "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":2},"
               "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"N\"},"
               "{\"AttributeName\":\"customer\",\"AttributeType\":\"S\"}],"
               "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}],"
               "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byCustomer\",\"KeySchema\":["
               "{\"AttributeName\":\"customer\",\"KeyType\":\"HASH\"}],"
               "\"Projection\":{\"ProjectionType\":\"ALL\"},"
               "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":3,\"WriteCapacityUnits\":1}}]}");
}

/* Each case breaks one rule of a valid spec; the message names the fault. */
static void
test_validation (void)
{
  static const struct {
    const char *what;
    const char *message;
  } cases[] = {
    { "short-name", "Table name “ab” must be 3 to 255 characters long" },
    { "bad-char", "Table name “my table” may hold only letters" },
    { "key-type", "Key attribute “PK” must be of type S, N or B, not “BOOL”" },
    { "no-pk", "The table’s partition key needs a name" },
    { "same-pk-sk", "“PK” cannot be both the partition and the sort key" },
    { "type-clash", "Attribute “SK” is a key of type S in one place and N in another" },
    { "include-empty", "Index “byAuthor” projects INCLUDE but names no attribute to include" },
    { "non-key-not-include", "names attributes to include but projects ALL, not INCLUDE" },
    { "too-many-non-key", "The indexes include 101 distinct attributes" },
    { "rcu", "A provisioned table needs read and write capacity units of at least 1" },
    { "gsi-rcu", "Index “byAuthor” of a provisioned table needs read and write capacity" },
    { "21-gsis", "A table has at most 20 global secondary indexes, not 21" },
    { "6-lsis", "A table has at most 5 local secondary indexes, not 6" },
    { "lsi-pk", "Local secondary index “byTitle” must have the table’s partition key “PK”" },
    { "lsi-no-sk-table", "Local secondary index “byTitle” needs a table with a sort key" },
    { "dup-index", "Two indexes are named “byAuthor”" },
    { "index-name", "Index name “x” must be 3 to 255 characters long" },
  };

  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (DdbTableSpec) spec = blog_spec ();
      DdbIndexSpec *gsi = spec->gsis->pdata[0];
      DdbIndexSpec *lsi = spec->lsis->pdata[0];
      const char *w = cases[c].what;
      g_autoptr (GError) error = NULL;
      g_autoptr (GPtrArray) steps = NULL;

      g_test_message ("case %s", w);
      if (strcmp (w, "short-name") == 0)
        g_free (spec->name), spec->name = g_strdup ("ab");
      else if (strcmp (w, "bad-char") == 0)
        g_free (spec->name), spec->name = g_strdup ("my table");
      else if (strcmp (w, "key-type") == 0)
        g_free (spec->pk_type), spec->pk_type = g_strdup ("BOOL");
      else if (strcmp (w, "no-pk") == 0)
        g_free (spec->pk_name), spec->pk_name = g_strdup ("");
      else if (strcmp (w, "same-pk-sk") == 0)
        g_free (spec->sk_name), spec->sk_name = g_strdup ("PK");
      else if (strcmp (w, "type-clash") == 0)
        g_free (gsi->sk_name), gsi->sk_name = g_strdup ("SK");
      else if (strcmp (w, "include-empty") == 0)
        g_ptr_array_set_size (gsi->non_key_attributes, 0);
      else if (strcmp (w, "non-key-not-include") == 0)
        gsi->projection = DDB_PROJECTION_ALL;
      else if (strcmp (w, "too-many-non-key") == 0)
        for (int i = 0; i < 100; i++)
          g_ptr_array_add (gsi->non_key_attributes, g_strdup_printf ("a%d", i));
      else if (strcmp (w, "rcu") == 0)
        spec->billing = DDB_BILLING_PROVISIONED, spec->rcu = 0, spec->wcu = 1;
      else if (strcmp (w, "gsi-rcu") == 0)
        spec->billing = DDB_BILLING_PROVISIONED, spec->rcu = spec->wcu = 1, gsi->wcu = 1;
      else if (strcmp (w, "21-gsis") == 0)
        for (int i = 0; i < 20; i++)
          {
            g_autofree char *name = g_strdup_printf ("gsi%02d", i);

            g_ptr_array_add (spec->gsis, ddb_index_spec_new (name, "author", "S", NULL, NULL));
          }
      else if (strcmp (w, "6-lsis") == 0)
        for (int i = 0; i < 5; i++)
          {
            g_autofree char *name = g_strdup_printf ("lsi%02d", i);

            g_ptr_array_add (spec->lsis, ddb_index_spec_new (name, NULL, NULL, "title", "S"));
          }
      else if (strcmp (w, "lsi-pk") == 0)
        lsi->pk_name = g_strdup ("other"), lsi->pk_type = g_strdup ("S");
      else if (strcmp (w, "lsi-no-sk-table") == 0)
        g_clear_pointer (&spec->sk_name, g_free);
      else if (strcmp (w, "dup-index") == 0)
        g_ptr_array_add (spec->gsis, ddb_index_spec_copy (gsi));
      else if (strcmp (w, "index-name") == 0)
        g_free (gsi->name), gsi->name = g_strdup ("x");
      else
        g_assert_not_reached ();
      steps = ddb_table_create_steps (spec, &error);
      g_assert_null (steps);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      if (strstr (error->message, cases[c].message) == NULL)
        g_error ("case %s: “%s” lacks “%s”", w, error->message, cases[c].message);
    }
}

static const char *
step_json (GPtrArray *steps, guint i)
{
  static char *last;

  g_free (last);
  last = json_dumps (((DdbTableStep *) steps->pdata[i])->request, JSON_SORT_KEYS);
  return last;
}

static void
test_update_steps (void)
{
  g_autoptr (DdbTableSpec) current = blog_spec ();
  g_autoptr (DdbTableSpec) edited = NULL;
  g_autoptr (GPtrArray) steps = NULL;
  g_autoptr (GError) error = NULL;

  g_ptr_array_add (current->gsis, ddb_index_spec_new ("old", "tag", "S", NULL, NULL));
  current->stream = DDB_STREAM_KEYS_ONLY;
  edited = ddb_table_spec_copy (current);

  steps = ddb_table_update_steps (current, edited, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (steps->len, ==, 0);
  g_clear_pointer (&steps, g_ptr_array_unref);

  /* Two new GSIs, one removed, a new stream view type, TTL on, provisioned. */
  g_assert_true (ddb_table_spec_remove_gsi (edited, "old"));
  g_ptr_array_add (edited->gsis, ddb_index_spec_new ("gsiA", "a", "S", NULL, NULL));
  g_ptr_array_add (edited->gsis, ddb_index_spec_new ("gsiB", "b", "N", "c", "B"));
  edited->stream = DDB_STREAM_NEW_IMAGE;
  edited->ttl_attribute = g_strdup ("ttl");
  edited->billing = DDB_BILLING_PROVISIONED;
  edited->rcu = edited->wcu = 4;
  for (guint i = 0; i < edited->gsis->len; i++)
    ((DdbIndexSpec *) edited->gsis->pdata[i])->rcu = ((DdbIndexSpec *) edited->gsis->pdata[i])->wcu
        = 2;
  steps = ddb_table_update_steps (current, edited, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (steps->len, ==, 7);
  g_assert_cmpstr (step_json (steps, 0), ==,
                   "{\"GlobalSecondaryIndexUpdates\": [{\"Delete\": {\"IndexName\": \"old\"}}], "
                   "\"TableName\": \"Blog\"}");
  g_assert_cmpint (((DdbTableStep *) steps->pdata[0])->wait, ==, DDB_TABLE_WAIT_INDEX_GONE);
  g_assert_cmpstr (step_json (steps, 1), ==,
                   "{\"BillingMode\": \"PROVISIONED\", \"GlobalSecondaryIndexUpdates\": "
                   "[{\"Update\": {\"IndexName\": \"byAuthor\", \"ProvisionedThroughput\": "
                   "{\"ReadCapacityUnits\": 2, \"WriteCapacityUnits\": 2}}}], "
                   "\"ProvisionedThroughput\": {\"ReadCapacityUnits\": 4, "
                   "\"WriteCapacityUnits\": 4}, \"TableName\": \"Blog\"}");
  g_assert_cmpstr (step_json (steps, 2), ==,
                   "{\"AttributeDefinitions\": [{\"AttributeName\": \"a\", \"AttributeType\": "
                   "\"S\"}], \"GlobalSecondaryIndexUpdates\": [{\"Create\": {\"IndexName\": "
                   "\"gsiA\", \"KeySchema\": [{\"AttributeName\": \"a\", \"KeyType\": \"HASH\"}], "
                   "\"Projection\": {\"ProjectionType\": \"ALL\"}, \"ProvisionedThroughput\": "
                   "{\"ReadCapacityUnits\": 2, \"WriteCapacityUnits\": 2}}}], \"TableName\": "
                   "\"Blog\"}");
  g_assert_cmpint (((DdbTableStep *) steps->pdata[2])->wait, ==, DDB_TABLE_WAIT_INDEX_ACTIVE);
  g_assert_cmpstr (((DdbTableStep *) steps->pdata[3])->index, ==, "gsiB");
  g_assert_cmpstr (
      step_json (steps, 4), ==,
      "{\"StreamSpecification\": {\"StreamEnabled\": false}, \"TableName\": \"Blog\"}");
  g_assert_cmpstr (step_json (steps, 5), ==,
                   "{\"StreamSpecification\": {\"StreamEnabled\": true, \"StreamViewType\": "
                   "\"NEW_IMAGE\"}, \"TableName\": \"Blog\"}");
  g_assert_cmpstr (((DdbTableStep *) steps->pdata[6])->operation, ==, "UpdateTimeToLive");
  g_clear_pointer (&steps, g_ptr_array_unref);

  /* What UpdateTable cannot do. */
  {
    g_autoptr (DdbTableSpec) bad = ddb_table_spec_copy (current);

    g_ptr_array_add (bad->lsis, ddb_index_spec_new ("newLsi", NULL, NULL, "x", "S"));
    g_assert_null (ddb_table_update_steps (current, bad, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "only when a table is created"));
    g_clear_error (&error);
  }
  {
    g_autoptr (DdbTableSpec) bad = ddb_table_spec_copy (current);

    ((DdbIndexSpec *) bad->gsis->pdata[0])->projection = DDB_PROJECTION_ALL;
    g_ptr_array_set_size (((DdbIndexSpec *) bad->gsis->pdata[0])->non_key_attributes, 0);
    g_assert_null (ddb_table_update_steps (current, bad, &error));
    g_assert_nonnull (strstr (error->message, "cannot change its keys or projection"));
    g_clear_error (&error);
  }
  {
    g_autoptr (DdbTableSpec) bad = ddb_table_spec_copy (current);

    g_free (bad->sk_type);
    bad->sk_type = g_strdup ("N");
    g_assert_null (ddb_table_update_steps (current, bad, &error));
    g_assert_nonnull (strstr (error->message, "key schema of table “Blog” cannot change"));
    g_clear_error (&error);
  }
  {
    g_autoptr (DdbTableSpec) on = ddb_table_spec_copy (current);
    g_autoptr (DdbTableSpec) other = NULL;

    on->ttl_attribute = g_strdup ("ttl");
    other = ddb_table_spec_copy (on);
    g_free (other->ttl_attribute);
    other->ttl_attribute = g_strdup ("expires");
    g_assert_null (ddb_table_update_steps (on, other, &error));
    g_assert_nonnull (strstr (error->message, "turn it off first"));
    g_clear_error (&error);
    g_clear_pointer (&other->ttl_attribute, g_free);
    steps = ddb_table_update_steps (on, other, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (steps->len, ==, 1);
    g_assert_cmpstr (step_json (steps, 0), ==,
                     "{\"TableName\": \"Blog\", \"TimeToLiveSpecification\": {\"AttributeName\": "
                     "\"ttl\", \"Enabled\": false}}");
  }
}

static void
test_delete_steps (void)
{
  g_autoptr (GPtrArray) steps = ddb_table_delete_steps ("Blog", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_cmpuint (steps->len, ==, 1);
  g_assert_cmpstr (step_json (steps, 0), ==, "{\"TableName\": \"Blog\"}");
  g_assert_cmpint (((DdbTableStep *) steps->pdata[0])->wait, ==, DDB_TABLE_WAIT_GONE);
  g_assert_null (ddb_table_delete_steps ("no", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

static DdbTableSpec *
describe (DdbBackend *backend, const char *name)
{
  json_auto_t *req = json_pack ("{ss}", "TableName", name);
  json_auto_t *table = NULL, *ttl = NULL;
  g_autoptr (GError) error = NULL;
  DdbTableSpec *spec;

  g_assert_true (ddb_backend_call (backend, "DescribeTable", req, NULL, &table, &error));
  g_assert_no_error (error);
  g_assert_true (ddb_backend_call (backend, "DescribeTimeToLive", req, NULL, &ttl, &error));
  spec = ddb_table_spec_from_description (json_object_get (table, "Table"),
                                          json_object_get (ttl, "TimeToLiveDescription"), &error);
  g_assert_no_error (error);
  return spec;
}

static void
count_progress (guint n, const char *status, gpointer user_data)
{
  (*(guint *) user_data)++;
}

/* Create, read back, edit and delete on the engine. */
static void
test_run_on_engine (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = ddb_backend_open_database (":memory:", &error);
  g_autoptr (DdbTableSpec) spec = blog_spec ();
  g_autoptr (DdbTableSpec) back = NULL, edited = NULL, after = NULL;
  g_autoptr (GPtrArray) steps = NULL;
  json_auto_t *extra = NULL;
  guint n_done = 0, calls = 0;

  g_assert_no_error (error);
  spec->ttl_attribute = g_strdup ("expiresAt");
  steps = ddb_table_create_steps (spec, &error);
  g_assert_true (ddb_table_steps_run (backend, steps, 10, count_progress, &calls, NULL, &n_done,
                                      NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_done, ==, 2);
  g_assert_cmpuint (calls, >=, 2);
  g_clear_pointer (&steps, g_ptr_array_unref);

  back = describe (backend, "Blog");
  g_assert_cmpstr (back->sk_name, ==, "SK");
  g_assert_cmpuint (back->gsis->len, ==, 1);
  g_assert_cmpstr (((DdbIndexSpec *) back->gsis->pdata[0])->sk_type, ==, "N");
  g_assert_cmpint (((DdbIndexSpec *) back->gsis->pdata[0])->projection, ==, DDB_PROJECTION_INCLUDE);
  g_assert_cmpuint (back->lsis->len, ==, 1);
  g_assert_cmpstr (back->ttl_attribute, ==, "expiresAt");
  g_assert_cmpint (back->billing, ==, DDB_BILLING_PAY_PER_REQUEST);

  /* Nothing to do for what was described as it is. */
  steps = ddb_table_update_steps (back, back, &error);
  g_assert_cmpuint (steps->len, ==, 0);
  g_clear_pointer (&steps, g_ptr_array_unref);

  edited = ddb_table_spec_copy (back);
  g_ptr_array_add (edited->gsis, ddb_index_spec_new ("byTag", "tag", "S", NULL, NULL));
  g_ptr_array_add (edited->gsis, ddb_index_spec_new ("byDay", "day", "N", NULL, NULL));
  g_assert_true (ddb_table_spec_remove_gsi (edited, "byAuthor"));
  edited->stream = DDB_STREAM_OLD_IMAGE;
  g_clear_pointer (&edited->ttl_attribute, g_free);
  steps = ddb_table_update_steps (back, edited, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (steps->len, ==, 5);
  g_assert_true (ddb_table_steps_run (backend, steps, 10, NULL, NULL, NULL, &n_done, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&steps, g_ptr_array_unref);

  after = describe (backend, "Blog");
  g_assert_cmpuint (after->gsis->len, ==, 2);
  g_assert_nonnull (ddb_table_spec_find_gsi (after, "byTag"));
  g_assert_nonnull (ddb_table_spec_find_gsi (after, "byDay"));
  g_assert_null (ddb_table_spec_find_gsi (after, "byAuthor"));
  g_assert_cmpint (after->stream, ==, DDB_STREAM_OLD_IMAGE);
  g_assert_null (after->ttl_attribute);

  /* Enabling a stream twice: DynamoDB's error comes back, the steps before it are counted. */
  {
    g_autoptr (GPtrArray) twice
        = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_table_step_free);
    g_autoptr (DdbTableSpec) off = ddb_table_spec_copy (after);
    g_autoptr (GPtrArray) on_steps = NULL;

    off->stream = DDB_STREAM_OFF;
    steps = ddb_table_update_steps (after, off, &error);
    g_assert_true (ddb_table_steps_run (backend, steps, 10, NULL, NULL, NULL, NULL, NULL, &error));
    g_clear_pointer (&steps, g_ptr_array_unref);
    on_steps = ddb_table_update_steps (off, after, &error);
    g_assert_cmpuint (on_steps->len, ==, 1);
    g_ptr_array_add (twice, on_steps->pdata[0]);
    g_ptr_array_add (twice, g_ptr_array_steal_index (on_steps, 0));
    g_ptr_array_set_free_func (twice, NULL);
    g_assert_false (
        ddb_table_steps_run (backend, twice, 10, NULL, NULL, NULL, &n_done, &extra, &error));
    g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
    g_assert_nonnull (strstr (error->message, "already has an enabled stream"));
    g_assert_cmpuint (n_done, ==, 1);
    g_clear_error (&error);
    ddb_table_step_free (twice->pdata[0]);
  }

  steps = ddb_table_delete_steps ("Blog", &error);
  g_assert_true (ddb_table_steps_run (backend, steps, 10, NULL, NULL, NULL, &n_done, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_done, ==, 1);
  {
    json_auto_t *req = json_pack ("{ss}", "TableName", "Blog");
    json_auto_t *resp = NULL;

    g_assert_false (ddb_backend_call (backend, "DescribeTable", req, NULL, &resp, &error));
    g_assert_error (error, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND);
  }
}

/* A provisioned table made on-demand and back, its GSI given throughput again. */
static void
test_billing_on_engine (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = ddb_backend_open_database (":memory:", &error);
  g_autoptr (DdbTableSpec) spec = ddb_table_spec_new ("Orders", "id", "N", NULL, NULL);
  DdbIndexSpec *gsi = ddb_index_spec_new ("byCustomer", "customer", "S", NULL, NULL);
  g_autoptr (DdbTableSpec) back = NULL, ppr = NULL, again = NULL;
  g_autoptr (GPtrArray) steps = NULL;

  spec->billing = DDB_BILLING_PROVISIONED;
  spec->rcu = spec->wcu = 5;
  gsi->rcu = gsi->wcu = 3;
  g_ptr_array_add (spec->gsis, gsi);
  steps = ddb_table_create_steps (spec, &error);
  g_assert_true (ddb_table_steps_run (backend, steps, 10, NULL, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&steps, g_ptr_array_unref);
  back = describe (backend, "Orders");
  g_assert_cmpint (back->billing, ==, DDB_BILLING_PROVISIONED);
  g_assert_cmpint (back->rcu, ==, 5);
  g_assert_cmpint (((DdbIndexSpec *) back->gsis->pdata[0])->wcu, ==, 3);

  ppr = ddb_table_spec_copy (back);
  ppr->billing = DDB_BILLING_PAY_PER_REQUEST;
  steps = ddb_table_update_steps (back, ppr, &error);
  g_assert_cmpuint (steps->len, ==, 1);
  g_assert_cmpstr (step_json (steps, 0), ==,
                   "{\"BillingMode\": \"PAY_PER_REQUEST\", \"TableName\": \"Orders\"}");
  g_assert_true (ddb_table_steps_run (backend, steps, 10, NULL, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&steps, g_ptr_array_unref);
  g_clear_pointer (&back, ddb_table_spec_free);
  back = describe (backend, "Orders");
  g_assert_cmpint (back->billing, ==, DDB_BILLING_PAY_PER_REQUEST);

  again = ddb_table_spec_copy (back);
  again->billing = DDB_BILLING_PROVISIONED;
  again->rcu = 7;
  again->wcu = 8;
  g_assert_null (ddb_table_update_steps (back, again, &error));
  g_assert_nonnull (strstr (error->message, "Index “byCustomer” of a provisioned table"));
  g_clear_error (&error);
  ((DdbIndexSpec *) again->gsis->pdata[0])->rcu = 2;
  ((DdbIndexSpec *) again->gsis->pdata[0])->wcu = 1;
  steps = ddb_table_update_steps (back, again, &error);
  g_assert_true (ddb_table_steps_run (backend, steps, 10, NULL, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&back, ddb_table_spec_free);
  back = describe (backend, "Orders");
  g_assert_cmpint (back->billing, ==, DDB_BILLING_PROVISIONED);
  g_assert_cmpint (back->wcu, ==, 8);
  g_assert_cmpint (((DdbIndexSpec *) back->gsis->pdata[0])->rcu, ==, 2);
}

/* ---- A remote endpoint whose tables take time: a scripted HTTP stand-in ---- */

typedef struct {
  GMutex lock;
  GQueue answers;     /* char *: "STATUS BODY" in the order requests come */
  GPtrArray *targets; /* the X-Amz-Target of each request */
} Stub;

static gboolean
stub_handle (GThreadedSocketService *service, GSocketConnection *connection, GObject *source,
             gpointer user_data)
{
  Stub *stub = user_data;
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  g_autoptr (GDataInputStream) data = g_data_input_stream_new (in);

  g_data_input_stream_set_newline_type (data, G_DATA_STREAM_NEWLINE_TYPE_CR_LF);
  for (;;)
    {
      g_autofree char *request_line = g_data_input_stream_read_line (data, NULL, NULL, NULL);
      g_autofree char *target = NULL, *answer = NULL, *reply = NULL;
      gsize length = 0;
      g_autofree char *body = NULL;
      int status;
      const char *text;

      if (request_line == NULL)
        return TRUE;
      for (;;)
        {
          g_autofree char *header = g_data_input_stream_read_line (data, NULL, NULL, NULL);

          if (header == NULL || *header == '\0')
            break;
          if (g_ascii_strncasecmp (header, "content-length:", 15) == 0)
            length = g_ascii_strtoull (header + 15, NULL, 10);
          else if (g_ascii_strncasecmp (header, "x-amz-target:", 13) == 0)
            target = g_strdup (g_strstrip (header + 13));
        }
      body = g_malloc0 (length + 1);
      if (!g_input_stream_read_all (G_INPUT_STREAM (data), body, length, NULL, NULL, NULL))
        return TRUE;
      g_mutex_lock (&stub->lock);
      g_ptr_array_add (stub->targets, g_strdup (target != NULL ? target : ""));
      answer = g_queue_pop_head (&stub->answers);
      g_mutex_unlock (&stub->lock);
      if (answer == NULL)
        answer = g_strdup ("500 {\"__type\":\"InternalServerError\",\"message\":\"no answer\"}");
      status = atoi (answer);
      text = strchr (answer, ' ') + 1;
      reply = g_strdup_printf ("HTTP/1.1 %d X\r\nContent-Type: application/x-amz-json-1.0\r\n"
                               "Content-Length: %zu\r\n\r\n%s",
                               status, strlen (text), text);
      if (!g_output_stream_write_all (out, reply, strlen (reply), NULL, NULL, NULL))
        return TRUE;
    }
}

static void
stub_answer (Stub *stub, const char *answer)
{
  g_mutex_lock (&stub->lock);
  g_queue_push_tail (&stub->answers, g_strdup (answer));
  g_mutex_unlock (&stub->lock);
}

static void
record_status (guint n, const char *status, gpointer user_data)
{
  g_ptr_array_add (user_data, g_strdup_printf ("%u:%s", n, status != NULL ? status : "sent"));
}

typedef struct {
  DdbBackend *backend;
  GPtrArray *steps, *seen;
  guint n_done;
  GError *error;
  gint finished;
} RemoteRun;

static gpointer
remote_run_thread (gpointer data)
{
  RemoteRun *run = data;

  ddb_table_steps_run (run->backend, run->steps, 10, record_status, run->seen, NULL, &run->n_done,
                       NULL, &run->error);
  g_atomic_int_set (&run->finished, TRUE);
  g_main_context_wakeup (NULL);
  return NULL;
}

/* The waits poll DescribeTable until the table, then the new index, are ACTIVE, and until the
 * deleted table is gone, reporting each status on the way. */
static void
test_remote_waits (void)
{
  static const char *const envp[] = {
    "AWS_ACCESS_KEY_ID=AKIAFAKETABLETESTS00",
    "AWS_SECRET_ACCESS_KEY=fake/secret/for/tests",
    "AWS_CONFIG_FILE=/dev/null",
    "AWS_SHARED_CREDENTIALS_FILE=/dev/null",
    "AWS_REGION=us-east-1",
    NULL,
  };
  Stub stub = { 0 };
  g_autoptr (GSocketService) service = g_threaded_socket_service_new (2);
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *url = NULL;
  DdbClientOptions options = { 0 };
  g_autoptr (DdbBackend) backend = NULL;
  g_autoptr (DdbTableSpec) spec = ddb_table_spec_new ("Slow", "k", "S", NULL, NULL);
  g_autoptr (DdbTableSpec) edited = NULL;
  g_autoptr (GPtrArray) steps = tr_all_steps_new ();
  g_autoptr (GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) part = NULL;
  g_autofree char *joined = NULL;
  guint n_done = 0;

  g_mutex_init (&stub.lock);
  g_queue_init (&stub.answers);
  stub.targets = g_ptr_array_new_with_free_func (g_free);
  g_assert_true (g_socket_listener_add_address (G_SOCKET_LISTENER (service), address,
                                                G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL,
                                                &bound, &error));
  g_assert_no_error (error);
  g_signal_connect (service, "run", G_CALLBACK (stub_handle), &stub);
  g_socket_service_start (service);
  url = g_strdup_printf ("http://127.0.0.1:%u",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  options.endpoint_url = url;
  options.envp = envp;
  options.max_attempts = 1;
  backend = ddb_backend_open_remote (&options, &error);
  g_assert_no_error (error);

  part = ddb_table_create_steps (spec, &error);
  g_ptr_array_extend_and_steal (steps, g_steal_pointer (&part));
  edited = ddb_table_spec_copy (spec);
  g_ptr_array_add (edited->gsis, ddb_index_spec_new ("byX", "x", "N", NULL, NULL));
  part = ddb_table_update_steps (spec, edited, &error);
  g_ptr_array_extend_and_steal (steps, g_steal_pointer (&part));
  part = ddb_table_delete_steps ("Slow", &error);
  g_ptr_array_extend_and_steal (steps, g_steal_pointer (&part));
  g_assert_cmpuint (steps->len, ==, 3);

  stub_answer (&stub, "200 {\"TableDescription\":{\"TableStatus\":\"CREATING\"}}");
  stub_answer (&stub, "200 {\"Table\":{\"TableStatus\":\"CREATING\"}}");
  stub_answer (&stub, "200 {\"Table\":{\"TableStatus\":\"ACTIVE\"}}");
  stub_answer (&stub, "200 {\"TableDescription\":{\"TableStatus\":\"UPDATING\"}}");
  stub_answer (&stub, "200 {\"Table\":{\"TableStatus\":\"UPDATING\"}}");
  stub_answer (&stub, "200 {\"Table\":{\"TableStatus\":\"ACTIVE\",\"GlobalSecondaryIndexes\":"
                      "[{\"IndexName\":\"byX\",\"IndexStatus\":\"CREATING\"}]}}");
  stub_answer (&stub, "200 {\"Table\":{\"TableStatus\":\"ACTIVE\",\"GlobalSecondaryIndexes\":"
                      "[{\"IndexName\":\"byX\",\"IndexStatus\":\"ACTIVE\"}]}}");
  stub_answer (&stub, "200 {\"TableDescription\":{\"TableStatus\":\"DELETING\"}}");
  stub_answer (&stub, "200 {\"Table\":{\"TableStatus\":\"DELETING\"}}");
  stub_answer (&stub, "400 {\"__type\":\"com.amazonaws.dynamodb.v20120810#"
                      "ResourceNotFoundException\",\"message\":\"Requested resource not found\"}");
  {
    /* The service accepts on the main context: the steps run on a thread meanwhile. */
    RemoteRun run = { backend, steps, seen, 0, NULL, FALSE };
    GThread *thread = g_thread_new ("steps", remote_run_thread, &run);

    while (!g_atomic_int_get (&run.finished))
      g_main_context_iteration (NULL, TRUE);
    g_thread_join (thread);
    g_assert_no_error (run.error);
    n_done = run.n_done;
  }
  g_assert_cmpuint (n_done, ==, 3);
  g_ptr_array_add (seen, NULL);
  joined = g_strjoinv (" ", (char **) seen->pdata);
  g_assert_cmpstr (joined, ==, "0:sent 0:CREATING 1:sent 1:UPDATING 1:CREATING 2:sent 2:DELETING");
  g_ptr_array_add (stub.targets, NULL);
  g_clear_pointer (&joined, g_free);
  joined = g_strjoinv (" ", (char **) stub.targets->pdata);
  g_assert_cmpstr (joined, ==,
                   "DynamoDB_20120810.CreateTable DynamoDB_20120810.DescribeTable "
                   "DynamoDB_20120810.DescribeTable DynamoDB_20120810.UpdateTable "
                   "DynamoDB_20120810.DescribeTable DynamoDB_20120810.DescribeTable "
                   "DynamoDB_20120810.DescribeTable DynamoDB_20120810.DeleteTable "
                   "DynamoDB_20120810.DescribeTable DynamoDB_20120810.DescribeTable");
  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
  g_ptr_array_unref (stub.targets);
  g_queue_clear_full (&stub.answers, g_free);
  g_mutex_clear (&stub.lock);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/table-requests/create", test_create_request);
  g_test_add_func ("/table-requests/create-provisioned", test_create_provisioned);
  g_test_add_func ("/table-requests/validation", test_validation);
  g_test_add_func ("/table-requests/update", test_update_steps);
  g_test_add_func ("/table-requests/delete", test_delete_steps);
  g_test_add_func ("/table-requests/engine", test_run_on_engine);
  g_test_add_func ("/table-requests/engine-billing", test_billing_on_engine);
  g_test_add_func ("/table-requests/remote-waits", test_remote_waits);
  return g_test_run ();
}
