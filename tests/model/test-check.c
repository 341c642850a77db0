/* Access patterns resolved to one GetItem or Query with the request they send, and every kind of
 * flag raised on a model crafted to need it. */
#include "model/check.h"
#include "model/workbench.h"

#include <string.h>

/* A one-table model (PK/SK strings, a GSI1 on GSI1PK/GSI1SK) with ENTITIES and PATTERNS, the
 * x-dynoscope members written inline. */
static DyModel *
model_from (const char *facets, const char *entities, const char *patterns)
{
  g_autofree char *text = g_strdup_printf (
    "{\"ModelName\": \"m\", \"DataModel\": [{\"TableName\": \"T\", \"KeyAttributes\": "
    "{\"PartitionKey\": {\"AttributeName\": \"PK\", \"AttributeType\": \"S\"}, "
    "\"SortKey\": {\"AttributeName\": \"SK\", \"AttributeType\": \"S\"}}, "
    "\"NonKeyAttributes\": [{\"AttributeName\": \"seq\", \"AttributeType\": \"N\"}, "
    "{\"AttributeName\": \"status\", \"AttributeType\": \"S\"}], "
    "\"GlobalSecondaryIndexes\": [{\"IndexName\": \"GSI1\", \"KeyAttributes\": "
    "{\"PartitionKey\": {\"AttributeName\": \"GSI1PK\", \"AttributeType\": \"S\"}, "
    "\"SortKey\": {\"AttributeName\": \"GSI1SK\", \"AttributeType\": \"S\"}}, "
    "\"Projection\": {\"ProjectionType\": \"ALL\"}}], "
    "\"TableFacets\": [%s]}], \"x-dynoscope\": {\"entities\": {%s}, \"patterns\": [%s]}}",
    facets, entities, patterns);
  json_error_t jerr;
  json_t *json = json_loads (text, 0, &jerr);
  if (json == NULL)
    g_error ("%s: %s", text, jerr.text);
  g_autoptr (GError) error = NULL;
  DyModel *model = dy_workbench_read (json, &error);
  json_decref (json);
  g_assert_no_error (error);
  return model;
}

#define FACETS "{\"FacetName\": \"Workspace\"}, {\"FacetName\": \"Project\", " \
               "\"NonKeyAttributes\": [\"seq\", \"status\"]}"
#define ENTITIES "\"Workspace\": {\"keys\": {\"PK\": \"WS#{workspaceId}\", \"SK\": \"META\"}}, " \
  "\"Project\": {\"keys\": {\"PK\": \"WS#{workspaceId}\", \"SK\": \"PROJ#{createdAt}#{seq:04}\", " \
  "\"GSI1PK\": \"OWNER#{owner}\", \"GSI1SK\": \"PROJ#{createdAt}\"}}"

static void
assert_json (json_t *actual, const char *expected)
{
  json_t *want = json_loads (expected, 0, NULL);
  g_assert_nonnull (want);
  if (!json_equal (actual, want))
    {
      g_autofree char *a = json_dumps (actual, JSON_SORT_KEYS);
      g_error ("request %s, expected %s", a, expected);
    }
  json_decref (want);
}

static void
test_resolves (void)
{
  g_autoptr (DyModel) model = model_from (FACETS, ENTITIES,
    "{\"name\": \"workspace\", \"entity\": \"Workspace\", \"inputs\": [\"workspaceId\"], "
    " \"examples\": {\"workspaceId\": \"acme\"}},"
    "{\"name\": \"projects newest first\", \"entity\": \"Project\", \"inputs\": [\"workspaceId\"], "
    " \"many\": true, \"order\": \"descending\", \"examples\": {\"workspaceId\": \"acme\"}},"
    "{\"name\": \"projects of 2024\", \"entity\": \"Project\", "
    " \"inputs\": [\"workspaceId\", \"from\", \"to\"], \"many\": true, "
    " \"range\": {\"from\": \"from\", \"to\": \"to\"}, "
    " \"examples\": {\"workspaceId\": \"acme\", \"from\": \"2024-01-01\", \"to\": \"2024-12-31\"}},"
    "{\"name\": \"projects of an owner\", \"entity\": \"Project\", \"index\": \"GSI1\", "
    " \"inputs\": [\"owner\"], \"many\": true, \"order\": \"ascending\"}");
  g_autoptr (DyCheckReport) report = dy_model_check (model);
  for (guint i = 0; i < report->flags->len; i++)
    g_printerr ("unexpected flag: %s\n", ((DyFlag *) g_ptr_array_index (report->flags, i))->message);
  g_assert_cmpuint (report->flags->len, ==, 0);
  g_assert_cmpuint (report->resolutions->len, ==, 4);

  DyResolution *get = g_ptr_array_index (report->resolutions, 0);
  g_assert_cmpint (get->kind, ==, DY_RESOLVED_GET_ITEM);
  assert_json (get->request, "{\"TableName\": \"T\", \"Key\": {\"PK\": {\"S\": \"WS#acme\"}, "
                             "\"SK\": {\"S\": \"META\"}}}");

  DyResolution *newest = g_ptr_array_index (report->resolutions, 1);
  g_assert_cmpint (newest->kind, ==, DY_RESOLVED_QUERY);
  g_assert_false (newest->forward);
  g_assert_null (newest->index);
  g_assert_cmpstr (newest->key_condition, ==, "PK = \"WS#acme\" AND begins_with(SK, \"PROJ#\")");
  assert_json (newest->request,
               "{\"TableName\": \"T\", \"KeyConditionExpression\": "
               "\"#pk = :pk AND begins_with(#sk, :sk)\", \"ExpressionAttributeNames\": "
               "{\"#pk\": \"PK\", \"#sk\": \"SK\"}, \"ExpressionAttributeValues\": "
               "{\":pk\": {\"S\": \"WS#acme\"}, \":sk\": {\"S\": \"PROJ#\"}}, "
               "\"ScanIndexForward\": false}");

  DyResolution *range = g_ptr_array_index (report->resolutions, 2);
  g_assert_cmpint (range->kind, ==, DY_RESOLVED_QUERY);
  g_assert_true (range->forward);
  g_assert_cmpstr (range->key_condition, ==,
                   "PK = \"WS#acme\" AND SK BETWEEN \"PROJ#2024-01-01\" AND \"PROJ#2024-12-31\"");

  DyResolution *owner = g_ptr_array_index (report->resolutions, 3);
  g_assert_cmpint (owner->kind, ==, DY_RESOLVED_QUERY);
  g_assert_cmpstr (owner->index, ==, "GSI1");
  /* No example given: the placeholder shows what to fill. */
  g_assert_cmpstr (owner->key_condition, ==,
                   "GSI1PK = \"OWNER#<owner>\" AND begins_with(GSI1SK, \"PROJ#\")");
  g_assert_cmpstr (json_string_value (json_object_get (owner->request, "IndexName")), ==, "GSI1");
}

static guint
count_kind (DyCheckReport *report, DyFlagKind kind, const char *fragment)
{
  guint n = 0;
  for (guint i = 0; i < report->flags->len; i++)
    {
      DyFlag *f = g_ptr_array_index (report->flags, i);
      if (f->kind == kind && strstr (f->message, fragment))
        n++;
    }
  return n;
}

static void
test_pattern_flags (void)
{
  g_autoptr (DyModel) model = model_from (FACETS ", {\"FacetName\": \"Hot\"}",
    ENTITIES ", \"Hot\": {\"keys\": {\"PK\": \"HOT#{t}#{shard:02}\", \"SK\": \"X#{x}\"}}",
    "{\"name\": \"all projects\", \"entity\": \"Project\", \"many\": true},"
    "{\"name\": \"active projects\", \"entity\": \"Project\", \"inputs\": [\"workspaceId\"], "
    " \"many\": true, \"filters\": [\"status\"]},"
    "{\"name\": \"one project\", \"entity\": \"Project\", \"inputs\": [\"workspaceId\"]},"
    "{\"name\": \"no such index\", \"entity\": \"Project\", \"index\": \"GSI9\"},"
    "{\"name\": \"workspaces by owner\", \"entity\": \"Workspace\", \"index\": \"GSI1\", "
    " \"inputs\": [\"owner\"], \"many\": true},"
    "{\"name\": \"every shard\", \"entity\": \"Hot\", \"inputs\": [\"t\"], \"many\": true},"
    "{\"name\": \"by status\", \"entity\": \"Project\", \"inputs\": [\"workspaceId\", "
    " \"status\"], \"many\": true}");
  g_autoptr (DyCheckReport) report = dy_model_check (model);
  for (guint i = 0; i < 7; i++)
    g_assert_cmpint (((DyResolution *) g_ptr_array_index (report->resolutions, i))->kind, ==,
                     DY_RESOLVED_FLAGGED);
  g_assert_cmpuint (count_kind (report, DY_FLAG_PATTERN, "needs a Scan"), ==, 1);
  g_assert_cmpuint (count_kind (report, DY_FLAG_PATTERN, "filters on status"), ==, 1);
  g_assert_cmpuint (count_kind (report, DY_FLAG_PATTERN, "one item but"), ==, 1);
  g_assert_cmpuint (count_kind (report, DY_FLAG_PATTERN, "no index GSI9"), ==, 1);
  g_assert_cmpuint (count_kind (report, DY_FLAG_PATTERN, "no template for GSI1PK"), ==, 1);
  g_assert_cmpuint (count_kind (report, DY_FLAG_PATTERN, "\"every shard\": several round trips"),
                    ==, 1);
  g_assert_cmpuint (count_kind (report, DY_FLAG_PATTERN, "input status is in neither key"), ==, 1);
  g_assert_cmpuint (report->flags->len, ==, 7);
}

static void
test_key_flags (void)
{
  g_autoptr (DyModel) model = model_from (
    "{\"FacetName\": \"User\", \"NonKeyAttributes\": [\"seq\"]}, {\"FacetName\": \"Admin\"}, "
    "{\"FacetName\": \"Meta\"}, {\"FacetName\": \"Task\"}, {\"FacetName\": \"Big\"}, "
    "{\"FacetName\": \"Tenant\"}, {\"FacetName\": \"HotTenant\"}",
    "\"User\": {\"keys\": {\"PK\": \"USER#{id}\", \"SK\": \"ITEM#{seq}\"}}, "
    "\"Admin\": {\"keys\": {\"PK\": \"USER#{email}\", \"SK\": \"ITEM#{x}\"}}, "
    "\"Meta\": {\"keys\": {\"PK\": \"ORG#{id}\", \"SK\": \"META\"}}, "
    "\"Task\": {\"keys\": {\"PK\": \"ORG#{id}\", \"SK\": \"task#{n:03}\"}}, "
    "\"Big\": {\"keys\": {\"PK\": \"BIG#{blob}\", \"SK\": \"B#{part}\"}, "
    "  \"maxLengths\": {\"blob\": 2000, \"part\": 1100}}, "
    "\"Tenant\": {\"keys\": {\"PK\": \"TENANT#{t}\", \"SK\": \"C#{c}\"}}, "
    "\"HotTenant\": {\"keys\": {\"PK\": \"TENANT#{t}#{shard:02}\", \"SK\": \"C#{c}\", "
    "  \"Gsi1pk\": \"X#{c}\"}}", "");
  g_autoptr (DyCheckReport) report = dy_model_check (model);
  g_assert_cmpuint (count_kind (report, DY_FLAG_COLLISION, "User"), ==, 1);
  g_assert_cmpuint (count_kind (report, DY_FLAG_COLLISION, "Meta"), ==, 0);
  /* A shard suffix is text of its own: "TENANT#{t}#{shard:02}" is not "TENANT#{t}". */
  g_assert_cmpuint (count_kind (report, DY_FLAG_COLLISION, "Tenant"), ==, 0);
  g_assert_cmpuint (count_kind (report, DY_FLAG_UNPADDED, "{seq}"), ==, 1);
  g_assert_cmpuint (count_kind (report, DY_FLAG_MIXED_CASE, "task#"), ==, 1);
  /* BIG# + 2000 = 2004 fits the partition key's 2048; B# + 1100 exceeds the sort key's 1024. */
  g_assert_cmpuint (count_kind (report, DY_FLAG_TOO_LONG, "PK"), ==, 0);
  g_assert_cmpuint (count_kind (report, DY_FLAG_TOO_LONG, "1102 bytes"), ==, 1);
  g_assert_cmpuint (count_kind (report, DY_FLAG_UNKNOWN_KEY, "template for Gsi1pk"), ==, 1);
  g_assert_cmpuint (report->flags->len, ==, 5);
}

static void
add_item (DyModelTable *table, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static void
add_item (DyModelTable *table, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *text = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  json_t *item = json_loads (text, 0, NULL);
  g_assert_nonnull (item);
  json_array_append_new (table->items, item);
}

/* A constant partition key, and one of only few-valued fields (a BOOL; a status among many
 * items), are flagged; a key with one field of many values, or a few-valued field seen in too few
 * items to tell, are not. */
static void
test_low_cardinality (void)
{
  g_autoptr (DyModel) model = model_from (
    "{\"FacetName\": \"Config\"}, {\"FacetName\": \"ByStatus\"}, {\"FacetName\": \"Archive\"}, "
    "{\"FacetName\": \"Owned\"}, {\"FacetName\": \"Regional\"}, {\"FacetName\": \"Mixed\"}",
    "\"Config\": {\"keys\": {\"PK\": \"CONFIG\", \"SK\": \"META\"}}, "
    "\"ByStatus\": {\"keys\": {\"PK\": \"T#{id}\", \"SK\": \"T\", \"GSI1PK\": "
    "  \"STATUS#{status}\", \"GSI1SK\": \"{id}\"}}, "
    "\"Archive\": {\"keys\": {\"PK\": \"ARCHIVED#{archived}\", \"SK\": \"A#{id}\"}}, "
    "\"Owned\": {\"keys\": {\"PK\": \"OWNER#{owner}\", \"SK\": \"O#{id}\"}}, "
    "\"Regional\": {\"keys\": {\"PK\": \"REGION#{region}\", \"SK\": \"R#{id}\"}}, "
    "\"Mixed\": {\"keys\": {\"PK\": \"WS#{workspaceId}#{status}\", \"SK\": \"M#{id}\"}}", "");
  DyModelTable *table = g_ptr_array_index (model->tables, 0);
  DyModelAttr *archived = g_new0 (DyModelAttr, 1);
  archived->name = g_strdup ("archived");
  archived->type = g_strdup ("BOOL");
  g_ptr_array_add (table->attrs, archived);
  static const char *const statuses[] = { "active", "done", "paused" };
  for (guint i = 0; i < 12; i++)
    add_item (table,
              "{\"PK\": {\"S\": \"T#%u\"}, \"SK\": {\"S\": \"T\"}, \"status\": {\"S\": \"%s\"}, "
              "\"owner\": {\"S\": \"U#%u\"}}", i, statuses[i % 3], i);
  for (guint i = 0; i < 5; i++)
    add_item (table, "{\"PK\": {\"S\": \"REGION#%s\"}, \"SK\": {\"S\": \"R#%u\"}, "
              "\"region\": {\"S\": \"%s\"}}", i % 2 ? "eu" : "us", i, i % 2 ? "eu" : "us");

  g_autoptr (DyCheckReport) report = dy_model_check (model);
  g_assert_cmpuint (count_kind (report, DY_FLAG_LOW_CARDINALITY,
                                "entity Config: the partition key PK = \"CONFIG\" is a "
                                "constant"), ==, 1);
  g_assert_cmpuint (count_kind (report, DY_FLAG_LOW_CARDINALITY,
                                "the partition key of index GSI1 GSI1PK = \"STATUS#{status}\" "
                                "takes few values ({status} holds 3 distinct values in 12 "
                                "sample items)"), ==, 1);
  g_assert_cmpuint (count_kind (report, DY_FLAG_LOW_CARDINALITY,
                                "ARCHIVED#{archived}\" takes few values ({archived} is a BOOL"),
                    ==, 1);
  g_assert_cmpuint (count_kind (report, DY_FLAG_LOW_CARDINALITY, "shard it with a suffix "
                                "(\"STATUS#{status}#{shard:02}\""), ==, 1);
  g_assert_cmpuint (count_kind (report, DY_FLAG_LOW_CARDINALITY, "Owned"), ==, 0);
  g_assert_cmpuint (count_kind (report, DY_FLAG_LOW_CARDINALITY, "Regional"), ==, 0);
  g_assert_cmpuint (count_kind (report, DY_FLAG_LOW_CARDINALITY, "Mixed"), ==, 0);
  g_assert_cmpuint (report->flags->len, ==, 3);
  g_assert_cmpstr (dy_flag_kind_name (DY_FLAG_LOW_CARDINALITY), ==, "low-cardinality");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/check/resolves", test_resolves);
  g_test_add_func ("/check/pattern-flags", test_pattern_flags);
  g_test_add_func ("/check/key-flags", test_key_flags);
  g_test_add_func ("/check/low-cardinality", test_low_cardinality);
  return g_test_run ();
}
