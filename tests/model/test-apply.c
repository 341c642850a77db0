/* A model's CreateTable requests (GSIs and LSIs with their projections, INCLUDE's attributes,
 * provisioned capacity on the table and its GSIs) and dy_model_apply on an in-memory engine:
 * the tables as described, the items written with progress, an existing table refused unless
 * asked, a cancelled apply, and a model fault that creates nothing. */
#include <string.h>

#include "core/error.h"
#include "model/apply.h"
#include "model/generate.h"
#include "model/workbench.h"

static DyModelAttr
key (const char *name, const char *type)
{
  DyModelAttr a = { g_strdup (name), g_strdup (type) };
  return a;
}

/* Table Events (tenant, at: N) PROVISIONED 7/3, a GSI ByKind (kind, at) INCLUDE title, an LSI
 * ByTitle (tenant, title) KEYS_ONLY; entity Event TENANT#{tenantId} / {at}. */
static DyModel *
events_model (void)
{
  DyModel *model = dy_model_new ("events");
  DyModelTable *t = dy_model_table_new ("Events");
  t->partition = key ("tenant", "S");
  t->sort = key ("at", "N");
  t->billing_mode = g_strdup ("PROVISIONED");
  t->rcu = 7;
  t->wcu = 3;
  DyModelIndex *gsi = dy_model_index_new ("ByKind");
  gsi->partition = key ("kind", "S");
  gsi->sort = key ("at", "N");
  gsi->projection = g_strdup ("INCLUDE");
  g_ptr_array_add (gsi->non_key, g_strdup ("title"));
  g_ptr_array_add (t->indexes, gsi);
  DyModelIndex *lsi = dy_model_index_new ("ByTitle");
  lsi->local = TRUE;
  lsi->partition = key ("tenant", "S");
  lsi->sort = key ("title", "S");
  lsi->projection = g_strdup ("KEYS_ONLY");
  g_ptr_array_add (t->indexes, lsi);
  g_ptr_array_add (model->tables, t);
  DyModelEntity *e = dy_model_entity_new ("Event", "Events");
  g_autoptr (GError) error = NULL;
  g_assert_true (dy_model_entity_set_key (e, "tenant", "TENANT#{tenantId}", &error));
  g_assert_true (dy_model_entity_set_key (e, "at", "{at}", &error));
  g_assert_true (dy_model_entity_set_key (e, "kind", "KIND#{kind}", &error));
  g_assert_true (dy_model_entity_set_key (e, "title", "{title}", &error));
  g_ptr_array_add (model->entities, e);
  json_array_append_new (t->items, json_pack ("{s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}}", "tenant", "S",
                                              "TENANT#a", "at", "N", "1", "kind", "S", "KIND#x",
                                              "title", "S", "one"));
  json_array_append_new (
      t->items, json_pack ("{s:{s:s}, s:{s:s}}", "tenant", "S", "TENANT#a", "at", "N", "2"));
  return model;
}

static void
test_create_table_request (void)
{
  g_autoptr (DyModel) model = events_model ();
  g_autoptr (GError) error = NULL;
  json_auto_t *req
      = dy_model_create_table_request (model, g_ptr_array_index (model->tables, 0), &error);
  json_auto_t *want = json_loads (
      "{\"TableName\": \"Events\", \"BillingMode\": \"PROVISIONED\","
      " \"AttributeDefinitions\": [{\"AttributeName\": \"tenant\", \"AttributeType\": \"S\"},"
      "  {\"AttributeName\": \"at\", \"AttributeType\": \"N\"},"
      "  {\"AttributeName\": \"kind\", \"AttributeType\": \"S\"},"
      "  {\"AttributeName\": \"title\", \"AttributeType\": \"S\"}],"
      " \"KeySchema\": [{\"AttributeName\": \"tenant\", \"KeyType\": \"HASH\"},"
      "  {\"AttributeName\": \"at\", \"KeyType\": \"RANGE\"}],"
      " \"ProvisionedThroughput\": {\"ReadCapacityUnits\": 7, \"WriteCapacityUnits\": 3},"
      " \"GlobalSecondaryIndexes\": [{\"IndexName\": \"ByKind\","
      "  \"KeySchema\": [{\"AttributeName\": \"kind\", \"KeyType\": \"HASH\"},"
      "   {\"AttributeName\": \"at\", \"KeyType\": \"RANGE\"}],"
      "  \"Projection\": {\"ProjectionType\": \"INCLUDE\", \"NonKeyAttributes\": [\"title\"]},"
      "  \"ProvisionedThroughput\": {\"ReadCapacityUnits\": 7, \"WriteCapacityUnits\": 3}}],"
      " \"LocalSecondaryIndexes\": [{\"IndexName\": \"ByTitle\","
      "  \"KeySchema\": [{\"AttributeName\": \"tenant\", \"KeyType\": \"HASH\"},"
      "   {\"AttributeName\": \"title\", \"KeyType\": \"RANGE\"}],"
      "  \"Projection\": {\"ProjectionType\": \"KEYS_ONLY\"}}]}",
      0, NULL);
  g_assert_nonnull (want);
  if (!json_equal (req, want))
    g_error ("request: %s", json_dumps (req, JSON_SORT_KEYS));

  /* On demand: no throughput anywhere; an unset billing mode is on demand. */
  DyModelTable *t = g_ptr_array_index (model->tables, 0);
  g_clear_pointer (&t->billing_mode, g_free);
  json_auto_t *od = dy_model_create_table_request (model, t, &error);
  g_assert_cmpstr (json_string_value (json_object_get (od, "BillingMode")), ==, "PAY_PER_REQUEST");
  g_assert_null (json_object_get (od, "ProvisionedThroughput"));
  json_t *g = json_array_get (json_object_get (od, "GlobalSecondaryIndexes"), 0);
  g_assert_null (json_object_get (g, "ProvisionedThroughput"));

  /* What DynamoDB would refuse is refused here, by the backend's table checks. */
  g_free (t->name);
  t->name = g_strdup ("ab");
  json_t *bad = dy_model_create_table_request (model, t, &error);
  g_assert_null (bad);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "ab"));
}

typedef struct {
  GPtrArray *calls; /* "table written/total" */
  GCancellable *cancel_at_first_batch;
} Seen;

static void
on_progress (const char *table, guint64 written, guint64 total, gpointer data)
{
  Seen *seen = data;
  g_ptr_array_add (seen->calls, g_strdup_printf ("%s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                                                 table, written, total));
  if (seen->cancel_at_first_batch && written > 0)
    g_cancellable_cancel (seen->cancel_at_first_batch);
}

static json_t *
call (DdbBackend *backend, const char *op, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *text = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  json_auto_t *req = json_loads (text, 0, NULL);
  json_t *resp = NULL;
  g_autoptr (GError) error = NULL;
  g_assert_nonnull (req);
  if (!ddb_backend_call (backend, op, req, NULL, &resp, &error))
    g_error ("%s %s: %s", op, text, error->message);
  return resp;
}

static void
test_apply_engine (void)
{
  g_autoptr (DyModel) model = events_model ();
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = ddb_backend_open_database (":memory:", &error);
  g_assert_no_error (error);
  Seen seen = { g_ptr_array_new_with_free_func (g_free), NULL };
  g_assert_true (
      dy_model_apply (backend, model, 0, DY_APPLY_NONE, on_progress, &seen, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (seen.calls->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (seen.calls, 0), ==, "Events 0/2");
  g_assert_cmpstr (g_ptr_array_index (seen.calls, 1), ==, "Events 2/2");

  json_auto_t *desc = call (backend, "DescribeTable", "{\"TableName\": \"Events\"}");
  json_t *table = json_object_get (desc, "Table");
  g_assert_cmpint (json_integer_value (json_object_get (table, "ItemCount")), ==, 2);
  json_t *gsi = json_array_get (json_object_get (table, "GlobalSecondaryIndexes"), 0);
  g_assert_cmpstr (json_string_value (json_object_get (gsi, "IndexName")), ==, "ByKind");
  json_t *proj = json_object_get (gsi, "Projection");
  g_assert_cmpstr (json_string_value (json_object_get (proj, "ProjectionType")), ==, "INCLUDE");
  g_assert_cmpstr (
      json_string_value (json_array_get (json_object_get (proj, "NonKeyAttributes"), 0)), ==,
      "title");
  json_t *lsi = json_array_get (json_object_get (table, "LocalSecondaryIndexes"), 0);
  g_assert_cmpstr (json_string_value (json_object_get (lsi, "IndexName")), ==, "ByTitle");

  /* Again: the table exists. Nothing is written. */
  g_ptr_array_set_size (seen.calls, 0);
  g_assert_false (
      dy_model_apply (backend, model, 5, DY_APPLY_NONE, on_progress, &seen, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_RESOURCE_IN_USE);
  g_assert_cmpstr (ddb_backend_error_name (error, NULL), ==, "ResourceInUseException");
  g_assert_cmpuint (seen.calls->len, ==, 1);
  g_clear_error (&error);

  /* Told to, into the existing table: 30 generated items, in two batches. */
  g_ptr_array_set_size (seen.calls, 0);
  g_assert_true (
      dy_model_apply (backend, model, 30, DY_APPLY_EXISTING_OK, on_progress, &seen, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (g_ptr_array_index (seen.calls, 0), ==, "Events 0/30");
  g_assert_cmpstr (g_ptr_array_index (seen.calls, 1), ==, "Events 25/30");
  g_assert_cmpstr (g_ptr_array_index (seen.calls, 2), ==, "Events 30/30");
  json_auto_t *count = call (backend, "Scan", "{\"TableName\": \"Events\", \"Select\": \"COUNT\"}");
  g_assert_cmpint (json_integer_value (json_object_get (count, "Count")), >=, 30);
  g_ptr_array_unref (seen.calls);
}

static void
test_apply_cancel_and_faults (void)
{
  g_autoptr (DyModel) model = events_model ();
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = ddb_backend_open_database (":memory:", &error);
  g_assert_no_error (error);
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  Seen seen = { g_ptr_array_new_with_free_func (g_free), cancel };
  g_assert_false (
      dy_model_apply (backend, model, 100, DY_APPLY_NONE, on_progress, &seen, cancel, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  /* Cancelled after its first batch: 25 items stay, not 100. */
  json_auto_t *count = call (backend, "Scan", "{\"TableName\": \"Events\", \"Select\": \"COUNT\"}");
  g_assert_cmpint (json_integer_value (json_object_get (count, "Count")), ==, 25);
  g_ptr_array_unref (seen.calls);

  /* A second table whose entity lacks a sort-key template: nothing at all is created. */
  g_autoptr (DdbBackend) fresh = ddb_backend_open_database (":memory:", &error);
  DyModelTable *t2 = dy_model_table_new ("Other");
  t2->partition = key ("PK", "S");
  t2->sort = key ("SK", "S");
  g_ptr_array_add (model->tables, t2);
  DyModelEntity *e = dy_model_entity_new ("Half", "Other");
  g_assert_true (dy_model_entity_set_key (e, "PK", "H#{id}", &error));
  g_ptr_array_add (model->entities, e);
  g_assert_false (dy_model_apply (fresh, model, 3, DY_APPLY_NONE, NULL, NULL, NULL, &error));
  g_assert_error (error, DY_GENERATE_ERROR, DY_GENERATE_ERROR_TEMPLATE);
  g_clear_error (&error);
  json_auto_t *tables = call (fresh, "ListTables", "{}");
  g_assert_cmpuint (json_array_size (json_object_get (tables, "TableNames")), ==, 0);

  /* Sample items with one key twice, or without the sort key. */
  g_autoptr (DyModel) dup = events_model ();
  DyModelTable *dt = g_ptr_array_index (dup->tables, 0);
  json_array_append_new (dt->items, json_pack ("{s:{s:s}, s:{s:s}, s:{s:s}}", "tenant", "S",
                                               "TENANT#a", "at", "N", "1", "title", "S", "dup"));
  g_assert_false (dy_model_apply (fresh, dup, 0, DY_APPLY_NONE, NULL, NULL, NULL, &error));
  g_assert_error (error, DY_APPLY_ERROR, DY_APPLY_ERROR_MODEL);
  g_assert_nonnull (strstr (error->message, "item 3 has the key of an earlier item"));
  g_clear_error (&error);
  json_array_remove (dt->items, 2);
  json_array_append_new (dt->items, json_pack ("{s:{s:s}}", "tenant", "S", "TENANT#b"));
  g_assert_false (dy_model_apply (fresh, dup, 0, DY_APPLY_NONE, NULL, NULL, NULL, &error));
  g_assert_error (error, DY_APPLY_ERROR, DY_APPLY_ERROR_MODEL);
  g_assert_nonnull (strstr (error->message, "item 3 has no at"));
  g_clear_error (&error);
  json_auto_t *none = call (fresh, "ListTables", "{}");
  g_assert_cmpuint (json_array_size (json_object_get (none, "TableNames")), ==, 0);

  /* No tables; a table without a partition key. */
  g_autoptr (DyModel) empty = dy_model_new ("empty");
  g_assert_false (dy_model_apply (fresh, empty, 0, DY_APPLY_NONE, NULL, NULL, NULL, &error));
  g_assert_error (error, DY_APPLY_ERROR, DY_APPLY_ERROR_MODEL);
  g_clear_error (&error);
  g_ptr_array_add (empty->tables, dy_model_table_new ("Keyless"));
  g_assert_false (dy_model_apply (fresh, empty, 0, DY_APPLY_NONE, NULL, NULL, NULL, &error));
  g_assert_error (error, DY_APPLY_ERROR, DY_APPLY_ERROR_MODEL);
  g_assert_nonnull (strstr (error->message, "partition key"));
  g_clear_error (&error);

  /* A GSI without its partition key. */
  g_autoptr (DyModel) keyless_gsi = events_model ();
  DyModelIndex *gsi = g_ptr_array_index (
      ((DyModelTable *) g_ptr_array_index (keyless_gsi->tables, 0))->indexes, 0);
  g_clear_pointer (&gsi->partition.name, g_free);
  g_assert_false (dy_model_apply (fresh, keyless_gsi, 0, DY_APPLY_NONE, NULL, NULL, NULL, &error));
  g_assert_error (error, DY_APPLY_ERROR, DY_APPLY_ERROR_MODEL);
  g_assert_nonnull (strstr (error->message, "index ByKind has no partition key"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/apply/create-table-request", test_create_table_request);
  g_test_add_func ("/apply/engine", test_apply_engine);
  g_test_add_func ("/apply/cancel-and-faults", test_apply_cancel_and_faults);
  return g_test_run ();
}
