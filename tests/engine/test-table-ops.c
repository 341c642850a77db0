/* test-table-ops.c: the table operations through ddb_engine_call: CreateTable validation with
 * DynamoDB's messages, DescribeTable's shape, ListTables paging, DeleteTable, UpdateTable
 * (billing mode, throughput, GSI create with backfill / delete / update, streams, deletion
 * protection), tags and time to live, plus the dispatcher and error bodies. */
#include <glib.h>
#include <glib/gstdio.h>
#include <jansson.h>
#include <string.h>

#include "core/error.h"
#include "engine/engine.h"
#include "../core/test-util.h"
#include "engine-test-util.h"

/* ---- Helpers ---- */

/* Asserts that `j` at a dotted path ("Table.KeySchema.0.AttributeName") has the JSON `expect`
 * (single-quoted). */
static void
check (json_t *root, const char *path, const char *expect)
{
  g_auto (GStrv) parts = g_strsplit (path, ".", -1);
  json_t *j = root;

  for (guint i = 0; parts[i] != NULL && j != NULL; i++)
    {
      if (json_is_array (j))
        j = json_array_get (j, (size_t) g_ascii_strtoull (parts[i], NULL, 10));
      else
        j = json_object_get (j, parts[i]);
    }
  if (expect == NULL)
    {
      if (j != NULL)
        {
          g_autofree char *got = json_dumps (j, JSON_COMPACT | JSON_ENCODE_ANY);
          g_error ("%s: expected absent, got %s", path, got);
        }
      return;
    }
  {
    g_autofree char *dq = tu_dq (expect);
    json_error_t jerr;
    json_t *want = json_loads (dq, JSON_DECODE_ANY, &jerr);

    if (want == NULL)
      g_error ("bad expectation %s", dq);
    if (j == NULL || !json_equal (j, want))
      {
        g_autofree char *got = j != NULL ? json_dumps (j, JSON_COMPACT | JSON_ENCODE_ANY)
                                         : g_strdup ("(absent)");
        g_error ("%s: expected %s, got %s", path, dq, got);
      }
    json_decref (want);
  }
}

#define SIMPLE_TABLE(name) \
  "{'TableName': '" name "', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}]," \
  " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST'}"

#define V INVALID_PREFIX
#define INVALID_PREFIX "One or more parameter values were invalid: "

/* ---- CreateTable / DescribeTable ---- */

static void
test_create_describe (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  json_t *r;
  gint64 created;

  r = etu_ok (e, "CreateTable",
              "{'TableName': 'Orders', 'AttributeDefinitions': ["
              " {'AttributeName': 'pk', 'AttributeType': 'S'}, {'AttributeName': 'sk', 'AttributeType': 'N'},"
              " {'AttributeName': 'gpk', 'AttributeType': 'B'}, {'AttributeName': 'lsk', 'AttributeType': 'S'}],"
              " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}, {'AttributeName': 'sk', 'KeyType': 'RANGE'}],"
              " 'ProvisionedThroughput': {'ReadCapacityUnits': 5, 'WriteCapacityUnits': 7},"
              " 'LocalSecondaryIndexes': [{'IndexName': 'byL', 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
              "   {'AttributeName': 'lsk', 'KeyType': 'RANGE'}], 'Projection': {'ProjectionType': 'KEYS_ONLY'}}],"
              " 'GlobalSecondaryIndexes': [{'IndexName': 'byG', 'KeySchema': [{'AttributeName': 'gpk', 'KeyType': 'HASH'}],"
              "   'Projection': {'ProjectionType': 'INCLUDE', 'NonKeyAttributes': ['a', 'b']},"
              "   'ProvisionedThroughput': {'ReadCapacityUnits': 1, 'WriteCapacityUnits': 2}}],"
              " 'StreamSpecification': {'StreamEnabled': true, 'StreamViewType': 'NEW_IMAGE'},"
              " 'Tags': [{'Key': 'team', 'Value': 'x'}]}");
  check (r, "TableDescription.TableName", "'Orders'");
  check (r, "TableDescription.TableStatus", "'ACTIVE'");
  check (r, "TableDescription.TableArn", "'arn:aws:dynamodb:ddblocal:000000000000:table/Orders'");
  check (r, "TableDescription.ItemCount", "0");
  json_decref (r);

  json_decref (etu_ok (e, "PutItem", "{'TableName': 'Orders', 'Item': {'pk': {'S': 'a'}, 'sk': {'N': '1'}, 'gpk': {'B': 'AQ=='}, 'a': {'S': 'x'}}}"));
  r = etu_ok (e, "DescribeTable", "{'TableName': 'Orders'}");
  check (r, "Table.AttributeDefinitions",
         "[{'AttributeName': 'pk', 'AttributeType': 'S'}, {'AttributeName': 'sk', 'AttributeType': 'N'},"
         " {'AttributeName': 'gpk', 'AttributeType': 'B'}, {'AttributeName': 'lsk', 'AttributeType': 'S'}]");
  check (r, "Table.KeySchema",
         "[{'AttributeName': 'pk', 'KeyType': 'HASH'}, {'AttributeName': 'sk', 'KeyType': 'RANGE'}]");
  check (r, "Table.TableStatus", "'ACTIVE'");
  check (r, "Table.ProvisionedThroughput",
         "{'NumberOfDecreasesToday': 0, 'ReadCapacityUnits': 5, 'WriteCapacityUnits': 7}");
  check (r, "Table.ItemCount", "1");
  check (r, "Table.TableSizeBytes", "13"); /* pk 2+1, sk 2+2, gpk 3+1, a 1+1 */
  /* "You may need to switch to on-demand mode at least once in order to return a
   * BillingModeSummary response" (API Reference); DynamoDB Local omits it as well. */
  check (r, "Table.BillingModeSummary", NULL);
  check (r, "Table.LocalSecondaryIndexes.0.IndexName", "'byL'");
  check (r, "Table.LocalSecondaryIndexes.0.Projection", "{'ProjectionType': 'KEYS_ONLY'}");
  check (r, "Table.LocalSecondaryIndexes.0.ItemCount", "0"); /* sparse: no lsk */
  check (r, "Table.LocalSecondaryIndexes.0.IndexArn",
         "'arn:aws:dynamodb:ddblocal:000000000000:table/Orders/index/byL'");
  check (r, "Table.LocalSecondaryIndexes.0.IndexStatus", NULL);
  check (r, "Table.GlobalSecondaryIndexes.0.IndexName", "'byG'");
  check (r, "Table.GlobalSecondaryIndexes.0.KeySchema", "[{'AttributeName': 'gpk', 'KeyType': 'HASH'}]");
  check (r, "Table.GlobalSecondaryIndexes.0.Projection",
         "{'ProjectionType': 'INCLUDE', 'NonKeyAttributes': ['a', 'b']}");
  check (r, "Table.GlobalSecondaryIndexes.0.IndexStatus", "'ACTIVE'");
  check (r, "Table.GlobalSecondaryIndexes.0.ProvisionedThroughput",
         "{'NumberOfDecreasesToday': 0, 'ReadCapacityUnits': 1, 'WriteCapacityUnits': 2}");
  check (r, "Table.GlobalSecondaryIndexes.0.ItemCount", "1");
  check (r, "Table.StreamSpecification", "{'StreamEnabled': true, 'StreamViewType': 'NEW_IMAGE'}");
  check (r, "Table.DeletionProtectionEnabled", "false");
  g_assert_true (g_str_has_prefix (json_string_value (json_object_get (json_object_get (r, "Table"), "LatestStreamArn")),
                                   "arn:aws:dynamodb:ddblocal:000000000000:table/Orders/stream/"));
  g_assert_true (json_is_string (json_object_get (json_object_get (r, "Table"), "TableId")));
  created = json_integer_value (json_object_get (json_object_get (r, "Table"), "CreationDateTime"));
  g_assert_cmpint (ABS (created - g_get_real_time () / G_USEC_PER_SEC), <, 60);
  json_decref (r);

  etu_fails (e, "DescribeTable", DDB_ERROR_RESOURCE_NOT_FOUND,
             "Requested resource not found: Table: Nope not found", "{'TableName': 'Nope'}");
  etu_fails (e, "DescribeTable", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value 'a' at 'tableName' failed to satisfy constraint: "
             "Member must have length greater than or equal to 3",
             "{'TableName': 'a'}");
  etu_fails (e, "CreateTable", DDB_ERROR_RESOURCE_IN_USE, "Table already exists: Orders",
             "{'TableName': 'Orders', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST'}");
}

static void
test_create_pay_per_request (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  json_t *r = etu_ok (e, "CreateTable", SIMPLE_TABLE ("ppr"));

  check (r, "TableDescription.BillingModeSummary.BillingMode", "'PAY_PER_REQUEST'");
  check (r, "TableDescription.ProvisionedThroughput",
         "{'NumberOfDecreasesToday': 0, 'ReadCapacityUnits': 0, 'WriteCapacityUnits': 0}");
  check (r, "TableDescription.LocalSecondaryIndexes", NULL);
  check (r, "TableDescription.GlobalSecondaryIndexes", NULL);
  check (r, "TableDescription.StreamSpecification", NULL);
  g_assert_true (json_is_integer (json_object_get (
    json_object_get (json_object_get (r, "TableDescription"), "BillingModeSummary"),
    "LastUpdateToPayPerRequestDateTime")));
  json_decref (r);
}

static void
test_create_validation (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();

  /* Structural constraints, all in one message. */
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             "3 validation errors detected: Value null at 'attributeDefinitions' failed to satisfy "
             "constraint: Member must not be null; Value null at 'tableName' failed to satisfy "
             "constraint: Member must not be null; Value null at 'keySchema' failed to satisfy "
             "constraint: Member must not be null",
             "{}");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             "2 validation errors detected: Value 'X' at 'attributeDefinitions.1.member.attributeType' "
             "failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]; Value "
             "'SORT2' at 'keySchema.1.member.keyType' failed to satisfy constraint: Member must "
             "satisfy enum value set: [HASH, RANGE]",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'X'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'SORT2'}], 'BillingMode': 'PAY_PER_REQUEST'}");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             "2 validation errors detected: Value 'a b' at 'tableName' failed to satisfy constraint: "
             "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; Value 'CHEAP' at "
             "'billingMode' failed to satisfy constraint: Member must satisfy enum value set: "
             "[PROVISIONED, PAY_PER_REQUEST]",
             "{'TableName': 'a b', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}], 'BillingMode': 'CHEAP'}");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value '0' at 'provisionedThroughput.readCapacityUnits' "
             "failed to satisfy constraint: Member must have value greater than or equal to 1",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}],"
             " 'ProvisionedThroughput': {'ReadCapacityUnits': 0, 'WriteCapacityUnits': 1}}");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value '[]' at 'keySchema' failed to satisfy constraint: "
             "Member must have length greater than or equal to 1",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
             " 'KeySchema': [], 'BillingMode': 'PAY_PER_REQUEST'}");
  etu_fails (e, "CreateTable", DDB_ERROR_SERIALIZATION,
             "NUMBER_VALUE cannot be converted to String",
             "{'TableName': 5, 'AttributeDefinitions': [], 'KeySchema': []}");
  etu_fails (e, "CreateTable", DDB_ERROR_SERIALIZATION, "Start of structure or map found where not expected",
             "{'TableName': 'abc', 'AttributeDefinitions': {}, 'KeySchema': []}");

  /* Billing. */
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             V "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}]}");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             V "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST',"
             " 'ProvisionedThroughput': {'ReadCapacityUnits': 1, 'WriteCapacityUnits': 1}}");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             "Given value 1000000000001 for ReadCapacityUnits is out of bounds",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}],"
             " 'ProvisionedThroughput': {'ReadCapacityUnits': 1000000000001, 'WriteCapacityUnits': 1}}");

  /* Key schema against the definitions. */
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             "Invalid KeySchema: Some index key attribute have no definition",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}, {'AttributeName': 'sk', 'KeyType': 'RANGE'}],"
             " 'BillingMode': 'PAY_PER_REQUEST'}");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             V "Some index key attributes are not defined in AttributeDefinitions. Keys: [id], AttributeDefinitions: [pk]",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'id', 'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST'}");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             "Both the Hash Key and the Range Key element in the KeySchema have the same name",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}, {'AttributeName': 'x', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}, {'AttributeName': 'pk', 'KeyType': 'RANGE'}],"
             " 'BillingMode': 'PAY_PER_REQUEST'}");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             "Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'RANGE'}], 'BillingMode': 'PAY_PER_REQUEST'}");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}, {'AttributeName': 'sk', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}, {'AttributeName': 'sk', 'KeyType': 'HASH'}],"
             " 'BillingMode': 'PAY_PER_REQUEST'}");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             V "Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}, {'AttributeName': 'x', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST'}");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             V "Some AttributeDefinitions are not used. AttributeDefinitions: [pk, g, unused], keys used: [pk, g]",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'},"
             "  {'AttributeName': 'g', 'AttributeType': 'S'}, {'AttributeName': 'unused', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST',"
             " 'GlobalSecondaryIndexes': [{'IndexName': 'gix', 'KeySchema': [{'AttributeName': 'g', 'KeyType': 'HASH'}],"
             "   'Projection': {'ProjectionType': 'ALL'}}]}");
}

#define LSI_BASE \
  "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}," \
  " {'AttributeName': 'sk', 'AttributeType': 'S'}, {'AttributeName': 'l', 'AttributeType': 'N'}]," \
  " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}, {'AttributeName': 'sk', 'KeyType': 'RANGE'}]," \
  " 'BillingMode': 'PAY_PER_REQUEST', 'LocalSecondaryIndexes': %s}"

#define LSI(name, hash, range, proj) \
  "{'IndexName': '" name "', 'KeySchema': [{'AttributeName': '" hash "', 'KeyType': 'HASH'}" range "]," \
  " 'Projection': " proj "}"

static void
test_create_index_validation (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();

  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION, V "List of LocalSecondaryIndexes is empty",
             LSI_BASE, "[]");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             V "Index KeySchema does not have a range key for index: ix1",
             LSI_BASE, "[" LSI ("ix1", "pk", "", "{'ProjectionType': 'ALL'}") "]");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             V "Index KeySchema does not have the same leading hash key as table KeySchema for index: "
           "ix1. index hash key: sk, table hash key: pk",
             LSI_BASE, "[" LSI ("ix1", "sk", ", {'AttributeName': 'l', 'KeyType': 'RANGE'}", "{'ProjectionType': 'ALL'}") "]");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION, V "Unknown ProjectionType: null",
             LSI_BASE, "[" LSI ("ix1", "pk", ", {'AttributeName': 'l', 'KeyType': 'RANGE'}", "{}") "]");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             V "ProjectionType is ALL, but NonKeyAttributes is specified",
             LSI_BASE, "[" LSI ("ix1", "pk", ", {'AttributeName': 'l', 'KeyType': 'RANGE'}",
                           "{'ProjectionType': 'ALL', 'NonKeyAttributes': ['x']}") "]");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION, V "Duplicate index name: ix1",
             LSI_BASE, "[" LSI ("ix1", "pk", ", {'AttributeName': 'l', 'KeyType': 'RANGE'}", "{'ProjectionType': 'ALL'}")
                   ", " LSI ("ix1", "pk", ", {'AttributeName': 'l', 'KeyType': 'RANGE'}", "{'ProjectionType': 'ALL'}") "]");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             V "Number of LocalSecondaryIndexes exceeds per-table limit of 5",
             LSI_BASE, "[" LSI ("ix1", "pk", ", {'AttributeName': 'l', 'KeyType': 'RANGE'}", "{'ProjectionType': 'ALL'}")
                   ", " LSI ("ix2", "pk", ", {'AttributeName': 'l', 'KeyType': 'RANGE'}", "{'ProjectionType': 'ALL'}")
                   ", " LSI ("ix3", "pk", ", {'AttributeName': 'l', 'KeyType': 'RANGE'}", "{'ProjectionType': 'ALL'}")
                   ", " LSI ("ix4", "pk", ", {'AttributeName': 'l', 'KeyType': 'RANGE'}", "{'ProjectionType': 'ALL'}")
                   ", " LSI ("ix5", "pk", ", {'AttributeName': 'l', 'KeyType': 'RANGE'}", "{'ProjectionType': 'ALL'}")
                   ", " LSI ("ix6", "pk", ", {'AttributeName': 'l', 'KeyType': 'RANGE'}", "{'ProjectionType': 'ALL'}") "]");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value 'x' at 'localSecondaryIndexes.1.member.indexName' "
             "failed to satisfy constraint: Member must have length greater than or equal to 3",
             LSI_BASE, "[" LSI ("x", "pk", ", {'AttributeName': 'l', 'KeyType': 'RANGE'}", "{'ProjectionType': 'ALL'}") "]");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value 'SOME' at "
             "'localSecondaryIndexes.1.member.projection.projectionType' failed to satisfy "
             "constraint: Member must satisfy enum value set: [ALL, INCLUDE, KEYS_ONLY]",
             LSI_BASE, "[" LSI ("ix1", "pk", ", {'AttributeName': 'l', 'KeyType': 'RANGE'}", "{'ProjectionType': 'SOME'}") "]");
  /* An LSI on a table without a sort key. */
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             V "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}, {'AttributeName': 'l', 'AttributeType': 'N'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST',"
             " 'LocalSecondaryIndexes': [" LSI ("ix1", "pk", ", {'AttributeName': 'l', 'KeyType': 'RANGE'}", "{'ProjectionType': 'ALL'}") "]}");

  /* GSIs. */
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION, V "List of GlobalSecondaryIndexes is empty",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST',"
             " 'GlobalSecondaryIndexes': []}");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             V "ProvisionedThroughput should not be specified for index: gix when BillingMode is PAY_PER_REQUEST",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST',"
             " 'GlobalSecondaryIndexes': [{'IndexName': 'gix', 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}],"
             "   'Projection': {'ProjectionType': 'ALL'}, 'ProvisionedThroughput': {'ReadCapacityUnits': 1, 'WriteCapacityUnits': 1}}]}");
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             "No provisioned throughput specified for the global secondary index",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}],"
             " 'ProvisionedThroughput': {'ReadCapacityUnits': 1, 'WriteCapacityUnits': 1},"
             " 'GlobalSecondaryIndexes': [{'IndexName': 'gix', 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}],"
             "   'Projection': {'ProjectionType': 'ALL'}}]}");
  {
    GString *gsis = g_string_new ("[");

    for (int i = 0; i < 21; i++)
      g_string_append_printf (gsis, "%s{'IndexName': 'g%02d', 'KeySchema': [{'AttributeName': 'pk', "
                                    "'KeyType': 'HASH'}], 'Projection': {'ProjectionType': 'KEYS_ONLY'}}",
                              i > 0 ? ", " : "", i);
    g_string_append_c (gsis, ']');
    etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
               V "GlobalSecondaryIndex count exceeds the per-table limit of 20",
               "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
               " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST',"
               " 'GlobalSecondaryIndexes': %s}", gsis->str);
    g_string_free (gsis, TRUE);
  }
  /* Streams. */
  /* Wording checked against DynamoDB Local 2.x (the AWS reference gives none). */
  etu_fails (e, "CreateTable", DDB_ERROR_VALIDATION,
             "Invalid StreamViewType: Stream ViewType must not be null or empty when enabling streams.",
             "{'TableName': 'abc', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
             " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST',"
             " 'StreamSpecification': {'StreamEnabled': true}}");
  /* Nothing was created by any of these. */
  {
    json_t *r = etu_ok (e, "ListTables", "{}");

    check (r, "TableNames", "[]");
    json_decref (r);
  }
}

/* ---- ListTables / DeleteTable ---- */

static void
test_list_tables (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  static const char *const names[] = { "b-table", "A_table", "c.table", "aaa" };
  json_t *r;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    json_decref (etu_ok (e, "CreateTable",
                         "{'TableName': '%s', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
                         " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST'}",
                         names[i]));
  r = etu_ok (e, "ListTables", "{}");
  check (r, "TableNames", "['A_table', 'aaa', 'b-table', 'c.table']");
  check (r, "LastEvaluatedTableName", NULL);
  json_decref (r);
  r = etu_ok (e, "ListTables", "{'Limit': 2}");
  check (r, "TableNames", "['A_table', 'aaa']");
  check (r, "LastEvaluatedTableName", "'aaa'");
  json_decref (r);
  r = etu_ok (e, "ListTables", "{'Limit': 2, 'ExclusiveStartTableName': 'aaa'}");
  check (r, "TableNames", "['b-table', 'c.table']");
  check (r, "LastEvaluatedTableName", NULL);
  json_decref (r);
  r = etu_ok (e, "ListTables", "{'ExclusiveStartTableName': 'zzz'}");
  check (r, "TableNames", "[]");
  json_decref (r);
  etu_fails (e, "ListTables", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: "
             "Member must have value less than or equal to 100",
             "{'Limit': 101}");
  etu_fails (e, "ListTables", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
             "Member must have value greater than or equal to 1",
             "{'Limit': 0}");
  etu_fails (e, "ListTables", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value 'a' at 'exclusiveStartTableName' failed to satisfy "
             "constraint: Member must have length greater than or equal to 3",
             "{'ExclusiveStartTableName': 'a'}");
}

static void
test_delete_table (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  json_t *r;

  etu_create_table (e, "gone", "pk", "S");
  json_decref (etu_ok (e, "PutItem", "{'TableName': 'gone', 'Item': {'pk': {'S': 'x'}}}"));
  r = etu_ok (e, "DeleteTable", "{'TableName': 'gone'}");
  check (r, "TableDescription.TableStatus", "'DELETING'");
  check (r, "TableDescription.TableName", "'gone'");
  check (r, "TableDescription.ItemCount", "1");
  check (r, "TableDescription.TableSizeBytes", "3");
  check (r, "TableDescription.ProvisionedThroughput.NumberOfDecreasesToday", "0");
  check (r, "TableDescription.TableArn", "'arn:aws:dynamodb:ddblocal:000000000000:table/gone'");
  check (r, "TableDescription.DeletionProtectionEnabled", "false");
  /* No schema: the documented DeleteTable answers leave it out. */
  check (r, "TableDescription.KeySchema", NULL);
  check (r, "TableDescription.AttributeDefinitions", NULL);
  check (r, "TableDescription.CreationDateTime", NULL);
  json_decref (r);
  etu_fails (e, "DescribeTable", DDB_ERROR_RESOURCE_NOT_FOUND,
             "Requested resource not found: Table: gone not found", "{'TableName': 'gone'}");

  /* Nor the indexes, which go with the table; the stream's members stay. */
  json_decref (etu_ok (e, "CreateTable",
                       "{'TableName': 'indexed', 'AttributeDefinitions': [{'AttributeName': 'pk', "
                       "'AttributeType': 'S'}, {'AttributeName': 'g', 'AttributeType': 'S'}, "
                       "{'AttributeName': 'sk', 'AttributeType': 'S'}, {'AttributeName': 'l', "
                       "'AttributeType': 'S'}], 'KeySchema': [{'AttributeName': 'pk', 'KeyType': "
                       "'HASH'}, {'AttributeName': 'sk', 'KeyType': 'RANGE'}], 'BillingMode': "
                       "'PAY_PER_REQUEST', 'GlobalSecondaryIndexes': [{'IndexName': 'gix', "
                       "'KeySchema': [{'AttributeName': 'g', 'KeyType': 'HASH'}], 'Projection': "
                       "{'ProjectionType': 'ALL'}}], 'LocalSecondaryIndexes': [{'IndexName': "
                       "'lix', 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}, "
                       "{'AttributeName': 'l', 'KeyType': 'RANGE'}], 'Projection': "
                       "{'ProjectionType': 'KEYS_ONLY'}}], 'StreamSpecification': "
                       "{'StreamEnabled': true, 'StreamViewType': 'KEYS_ONLY'}}"));
  r = etu_ok (e, "DeleteTable", "{'TableName': 'indexed'}");
  check (r, "TableDescription.GlobalSecondaryIndexes", NULL);
  check (r, "TableDescription.LocalSecondaryIndexes", NULL);
  check (r, "TableDescription.BillingModeSummary.BillingMode", "'PAY_PER_REQUEST'");
  check (r, "TableDescription.StreamSpecification.StreamViewType", "'KEYS_ONLY'");
  check (r, "TableDescription.TableStatus", "'DELETING'");
  json_decref (r);
  etu_fails (e, "DeleteTable", DDB_ERROR_RESOURCE_NOT_FOUND,
             "Requested resource not found: Table: gone not found", "{'TableName': 'gone'}");
  /* Recreated: empty. */
  etu_create_table (e, "gone", "pk", "S");
  r = etu_ok (e, "DescribeTable", "{'TableName': 'gone'}");
  check (r, "Table.ItemCount", "0");
  json_decref (r);

  /* Deletion protection. */
  json_decref (etu_ok (e, "CreateTable",
                       "{'TableName': 'kept', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
                       " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST',"
                       " 'DeletionProtectionEnabled': true}"));
  etu_fails (e, "DeleteTable", DDB_ERROR_VALIDATION,
             "Resource cannot be deleted as it is currently protected against deletion. Disable "
             "deletion protection first.",
             "{'TableName': 'kept'}");
  r = etu_ok (e, "UpdateTable", "{'TableName': 'kept', 'DeletionProtectionEnabled': false}");
  check (r, "TableDescription.DeletionProtectionEnabled", "false");
  json_decref (r);
  json_decref (etu_ok (e, "DeleteTable", "{'TableName': 'kept'}"));
}

/* ---- UpdateTable ---- */

#define PROV_TABLE(name) \
  "{'TableName': '" name "', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}]," \
  " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}]," \
  " 'ProvisionedThroughput': {'ReadCapacityUnits': 5, 'WriteCapacityUnits': 5}}"

static void
test_update_billing (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  json_t *r;
  gint64 ppr_since;

  r = etu_ok (e, "CreateTable", PROV_TABLE ("prov"));
  check (r, "TableDescription.BillingModeSummary", NULL);
  json_decref (r);
  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION,
             "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
             "GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required",
             "{'TableName': 'prov'}");
  etu_fails (e, "UpdateTable", DDB_ERROR_RESOURCE_NOT_FOUND,
             "Requested resource not found: Table: nope not found",
             "{'TableName': 'nope', 'BillingMode': 'PAY_PER_REQUEST'}");
  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION,
             "The provisioned throughput for the table will not change. The requested value equals "
             "the current value. Current ReadCapacityUnits provisioned for the table: 5. Requested "
             "ReadCapacityUnits: 5. Current WriteCapacityUnits provisioned for the table: 5. "
             "Requested WriteCapacityUnits: 5. Refer to the Amazon DynamoDB Developer Guide for "
             "current limits and how to request higher limits.",
             "{'TableName': 'prov', 'ProvisionedThroughput': {'ReadCapacityUnits': 5, 'WriteCapacityUnits': 5}}");
  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value '0' at 'provisionedThroughput.writeCapacityUnits' "
             "failed to satisfy constraint: Member must have value greater than or equal to 1",
             "{'TableName': 'prov', 'ProvisionedThroughput': {'ReadCapacityUnits': 5, 'WriteCapacityUnits': 0}}");

  r = etu_ok (e, "UpdateTable",
              "{'TableName': 'prov', 'ProvisionedThroughput': {'ReadCapacityUnits': 10, 'WriteCapacityUnits': 2}}");
  check (r, "TableDescription.ProvisionedThroughput.ReadCapacityUnits", "10");
  check (r, "TableDescription.ProvisionedThroughput.WriteCapacityUnits", "2");
  check (r, "TableDescription.ProvisionedThroughput.NumberOfDecreasesToday", "1");
  g_assert_nonnull (json_object_get (json_object_get (json_object_get (r, "TableDescription"),
                                                      "ProvisionedThroughput"),
                                     "LastIncreaseDateTime"));
  json_decref (r);

  /* To on-demand and back. */
  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION,
             V "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST",
             "{'TableName': 'prov', 'BillingMode': 'PAY_PER_REQUEST', 'ProvisionedThroughput': {'ReadCapacityUnits': 1, 'WriteCapacityUnits': 1}}");
  r = etu_ok (e, "UpdateTable", "{'TableName': 'prov', 'BillingMode': 'PAY_PER_REQUEST'}");
  check (r, "TableDescription.BillingModeSummary.BillingMode", "'PAY_PER_REQUEST'");
  ppr_since = json_integer_value (json_object_get (
    json_object_get (json_object_get (r, "TableDescription"), "BillingModeSummary"),
    "LastUpdateToPayPerRequestDateTime"));
  g_assert_cmpint (ABS (ppr_since - g_get_real_time () / G_USEC_PER_SEC), <, 60);
  check (r, "TableDescription.ProvisionedThroughput.ReadCapacityUnits", "0");
  json_decref (r);
  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION,
             V "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST",
             "{'TableName': 'prov', 'ProvisionedThroughput': {'ReadCapacityUnits': 1, 'WriteCapacityUnits': 1}}");
  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION, "No provisioned throughput specified for the table",
             "{'TableName': 'prov', 'BillingMode': 'PROVISIONED'}");
  r = etu_ok (e, "UpdateTable",
              "{'TableName': 'prov', 'BillingMode': 'PROVISIONED', 'ProvisionedThroughput': {'ReadCapacityUnits': 3, 'WriteCapacityUnits': 4}}");
  /* Back to PROVISIONED, the summary stays with the time of the last switch to on-demand. */
  check (r, "TableDescription.BillingModeSummary.BillingMode", "'PROVISIONED'");
  g_assert_cmpint (json_integer_value (json_object_get (
                     json_object_get (json_object_get (r, "TableDescription"), "BillingModeSummary"),
                     "LastUpdateToPayPerRequestDateTime")),
                   ==, ppr_since);
  check (r, "TableDescription.ProvisionedThroughput.ReadCapacityUnits", "3");
  check (r, "TableDescription.ProvisionedThroughput.WriteCapacityUnits", "4");
  json_decref (r);
  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value 'FREE' at 'billingMode' failed to satisfy "
             "constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]",
             "{'TableName': 'prov', 'BillingMode': 'FREE'}");
}

static void
test_update_gsi (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  json_t *r;

  etu_create_table (e, "gsit", "pk", "S");
  json_decref (etu_ok (e, "PutItem", "{'TableName': 'gsit', 'Item': {'pk': {'S': 'a'}, 'g': {'N': '1'}, 'x': {'S': 'y'}}}"));
  json_decref (etu_ok (e, "PutItem", "{'TableName': 'gsit', 'Item': {'pk': {'S': 'b'}, 'g': {'N': '1'}}}"));
  json_decref (etu_ok (e, "PutItem", "{'TableName': 'gsit', 'Item': {'pk': {'S': 'c'}, 'g': {'S': 'wrong type'}}}"));
  json_decref (etu_ok (e, "PutItem", "{'TableName': 'gsit', 'Item': {'pk': {'S': 'd'}}}"));

  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION,
             V "Some index key attributes are not defined in AttributeDefinitions. Keys: [g], "
           "AttributeDefinitions: [pk]",
             "{'TableName': 'gsit', 'GlobalSecondaryIndexUpdates': [{'Create': {'IndexName': 'byG',"
             " 'KeySchema': [{'AttributeName': 'g', 'KeyType': 'HASH'}], 'Projection': {'ProjectionType': 'KEYS_ONLY'}}}]}");
  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION,
             V "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
           "GlobalSecondaryIndexUpdate.Delete must not be null",
             "{'TableName': 'gsit', 'GlobalSecondaryIndexUpdates': [{}]}");
  etu_fails (e, "UpdateTable", DDB_ERROR_LIMIT_EXCEEDED,
             "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table",
             "{'TableName': 'gsit', 'AttributeDefinitions': [{'AttributeName': 'g', 'AttributeType': 'N'}],"
             " 'GlobalSecondaryIndexUpdates': ["
             "  {'Create': {'IndexName': 'byG', 'KeySchema': [{'AttributeName': 'g', 'KeyType': 'HASH'}], 'Projection': {'ProjectionType': 'ALL'}}},"
             "  {'Create': {'IndexName': 'byG2', 'KeySchema': [{'AttributeName': 'g', 'KeyType': 'HASH'}], 'Projection': {'ProjectionType': 'ALL'}}}]}");
  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION,
             V "Only one global secondary index update per index is allowed simultaneously. Index: byG",
             "{'TableName': 'gsit', 'AttributeDefinitions': [{'AttributeName': 'g', 'AttributeType': 'N'}],"
             " 'GlobalSecondaryIndexUpdates': ["
             "  {'Create': {'IndexName': 'byG', 'KeySchema': [{'AttributeName': 'g', 'KeyType': 'HASH'}], 'Projection': {'ProjectionType': 'ALL'}}},"
             "  {'Delete': {'IndexName': 'byG'}}]}");

  r = etu_ok (e, "UpdateTable",
              "{'TableName': 'gsit', 'AttributeDefinitions': [{'AttributeName': 'g', 'AttributeType': 'N'}],"
              " 'GlobalSecondaryIndexUpdates': [{'Create': {'IndexName': 'byG',"
              " 'KeySchema': [{'AttributeName': 'g', 'KeyType': 'HASH'}], 'Projection': {'ProjectionType': 'KEYS_ONLY'}}}]}");
  check (r, "TableDescription.AttributeDefinitions",
         "[{'AttributeName': 'pk', 'AttributeType': 'S'}, {'AttributeName': 'g', 'AttributeType': 'N'}]");
  check (r, "TableDescription.GlobalSecondaryIndexes.0.IndexName", "'byG'");
  check (r, "TableDescription.GlobalSecondaryIndexes.0.IndexStatus", "'ACTIVE'");
  /* Backfilled from the items that have g as a number: a and b. */
  check (r, "TableDescription.GlobalSecondaryIndexes.0.ItemCount", "2");
  check (r, "TableDescription.GlobalSecondaryIndexes.0.ProvisionedThroughput",
         "{'NumberOfDecreasesToday': 0, 'ReadCapacityUnits': 0, 'WriteCapacityUnits': 0}");
  json_decref (r);

  /* Maintained on later writes. */
  json_decref (etu_ok (e, "PutItem", "{'TableName': 'gsit', 'Item': {'pk': {'S': 'e'}, 'g': {'N': '2'}}}"));
  r = etu_ok (e, "DescribeTable", "{'TableName': 'gsit'}");
  check (r, "Table.GlobalSecondaryIndexes.0.ItemCount", "3");
  json_decref (r);

  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION, V "Index already exists: byG",
             "{'TableName': 'gsit', 'GlobalSecondaryIndexUpdates': [{'Create': {'IndexName': 'byG',"
             " 'KeySchema': [{'AttributeName': 'g', 'KeyType': 'HASH'}], 'Projection': {'ProjectionType': 'ALL'}}}]}");
  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION,
             V "ProvisionedThroughput should not be specified for index: byG when BillingMode is PAY_PER_REQUEST",
             "{'TableName': 'gsit', 'GlobalSecondaryIndexUpdates': [{'Update': {'IndexName': 'byG',"
             " 'ProvisionedThroughput': {'ReadCapacityUnits': 1, 'WriteCapacityUnits': 1}}}]}");
  /* These two as DynamoDB Local words them. */
  etu_fails (e, "UpdateTable", DDB_ERROR_RESOURCE_NOT_FOUND, "Requested resource not found",
             "{'TableName': 'gsit', 'GlobalSecondaryIndexUpdates': [{'Delete': {'IndexName': 'nope'}}]}");
  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION, "Invalid global secondary index name",
             "{'TableName': 'gsit', 'GlobalSecondaryIndexUpdates': [{'Update': {'IndexName': 'nope',"
             " 'ProvisionedThroughput': {'ReadCapacityUnits': 1, 'WriteCapacityUnits': 1}}}]}");

  r = etu_ok (e, "UpdateTable", "{'TableName': 'gsit', 'GlobalSecondaryIndexUpdates': [{'Delete': {'IndexName': 'byG'}}]}");
  check (r, "TableDescription.GlobalSecondaryIndexes", NULL);
  /* Definitions only hold attributes keys use. */
  check (r, "TableDescription.AttributeDefinitions", "[{'AttributeName': 'pk', 'AttributeType': 'S'}]");
  json_decref (r);

  /* A GSI on a provisioned table: throughput required, then updatable. */
  json_decref (etu_ok (e, "CreateTable", PROV_TABLE ("provg")));
  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION,
             "No provisioned throughput specified for the global secondary index",
             "{'TableName': 'provg', 'AttributeDefinitions': [{'AttributeName': 'g', 'AttributeType': 'S'}],"
             " 'GlobalSecondaryIndexUpdates': [{'Create': {'IndexName': 'byG',"
             " 'KeySchema': [{'AttributeName': 'g', 'KeyType': 'HASH'}], 'Projection': {'ProjectionType': 'ALL'}}}]}");
  json_decref (etu_ok (e, "UpdateTable",
                       "{'TableName': 'provg', 'AttributeDefinitions': [{'AttributeName': 'g', 'AttributeType': 'S'}],"
                       " 'GlobalSecondaryIndexUpdates': [{'Create': {'IndexName': 'byG',"
                       " 'KeySchema': [{'AttributeName': 'g', 'KeyType': 'HASH'}], 'Projection': {'ProjectionType': 'ALL'},"
                       " 'ProvisionedThroughput': {'ReadCapacityUnits': 2, 'WriteCapacityUnits': 2}}}]}"));
  r = etu_ok (e, "UpdateTable",
              "{'TableName': 'provg', 'GlobalSecondaryIndexUpdates': [{'Update': {'IndexName': 'byG',"
              " 'ProvisionedThroughput': {'ReadCapacityUnits': 9, 'WriteCapacityUnits': 8}}}]}");
  check (r, "TableDescription.GlobalSecondaryIndexes.0.ProvisionedThroughput",
         "{'NumberOfDecreasesToday': 0, 'ReadCapacityUnits': 9, 'WriteCapacityUnits': 8}");
  json_decref (r);
}

static void
test_update_stream (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  json_t *r;
  const char *arn;

  etu_create_table (e, "strm", "pk", "S");
  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION, "Table has no stream to disable",
             "{'TableName': 'strm', 'StreamSpecification': {'StreamEnabled': false}}");
  etu_fails (e, "UpdateTable", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value 'ALL' at 'streamSpecification.streamViewType' "
             "failed to satisfy constraint: Member must satisfy enum value set: [NEW_IMAGE, "
             "OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]",
             "{'TableName': 'strm', 'StreamSpecification': {'StreamEnabled': true, 'StreamViewType': 'ALL'}}");
  r = etu_ok (e, "UpdateTable",
              "{'TableName': 'strm', 'StreamSpecification': {'StreamEnabled': true, 'StreamViewType': 'KEYS_ONLY'}}");
  check (r, "TableDescription.StreamSpecification",
         "{'StreamEnabled': true, 'StreamViewType': 'KEYS_ONLY'}");
  arn = json_string_value (json_object_get (json_object_get (r, "TableDescription"), "LatestStreamArn"));
  g_assert_true (g_str_has_prefix (arn, "arn:aws:dynamodb:ddblocal:000000000000:table/strm/stream/"));
  json_decref (r);
  r = etu_ok (e, "UpdateTable", "{'TableName': 'strm', 'StreamSpecification': {'StreamEnabled': false}}");
  check (r, "TableDescription.StreamSpecification", "{'StreamEnabled': false}");
  json_decref (r);
}

/* ---- Tags ---- */

static void
test_tags (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  json_t *r;

  json_decref (etu_ok (e, "CreateTable",
                       "{'TableName': 'tagt', 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
                       " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST',"
                       " 'Tags': [{'Key': 'env', 'Value': 'dev'}]}"));
  r = etu_ok (e, "ListTagsOfResource", "{'ResourceArn': 'arn:aws:dynamodb:ddblocal:000000000000:table/tagt'}");
  check (r, "Tags", "[{'Key': 'env', 'Value': 'dev'}]");
  json_decref (r);
  r = etu_ok (e, "TagResource",
              "{'ResourceArn': 'arn:aws:dynamodb:ddblocal:000000000000:table/tagt',"
              " 'Tags': [{'Key': 'env', 'Value': 'prod'}, {'Key': 'team', 'Value': ''}]}");
  check (r, "", "{}");
  json_decref (r);
  /* Any region and account name the table, as they do on DynamoDB Local. */
  r = etu_ok (e, "ListTagsOfResource", "{'ResourceArn': 'arn:aws:dynamodb:us-east-1:123456789012:table/tagt'}");
  check (r, "Tags", "[{'Key': 'env', 'Value': 'prod'}, {'Key': 'team', 'Value': ''}]");
  json_decref (r);
  json_decref (etu_ok (e, "UntagResource",
                       "{'ResourceArn': 'arn:aws:dynamodb:ddblocal:000000000000:table/tagt', 'TagKeys': ['env', 'absent']}"));
  r = etu_ok (e, "ListTagsOfResource", "{'ResourceArn': 'arn:aws:dynamodb:ddblocal:000000000000:table/tagt'}");
  check (r, "Tags", "[{'Key': 'team', 'Value': ''}]");
  json_decref (r);

  etu_fails (e, "TagResource", DDB_ERROR_VALIDATION,
             "Invalid TableArn: Invalid ResourceArn provided as input tagt",
             "{'ResourceArn': 'tagt', 'Tags': [{'Key': 'a', 'Value': 'b'}]}");
  etu_fails (e, "ListTagsOfResource", DDB_ERROR_RESOURCE_NOT_FOUND,
             "Requested resource not found: ResourcArn: arn:aws:dynamodb:ddblocal:000000000000:table/none not found",
             "{'ResourceArn': 'arn:aws:dynamodb:ddblocal:000000000000:table/none'}");
  etu_fails (e, "TagResource", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value '[]' at 'tags' failed to satisfy constraint: Member "
             "must have length greater than or equal to 1",
             "{'ResourceArn': 'arn:aws:dynamodb:ddblocal:000000000000:table/tagt', 'Tags': []}");
  etu_fails (e, "TagResource", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value null at 'tags.1.member.value' failed to satisfy "
             "constraint: Member must not be null",
             "{'ResourceArn': 'arn:aws:dynamodb:ddblocal:000000000000:table/tagt', 'Tags': [{'Key': 'k'}]}");
  etu_fails (e, "UntagResource", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value null at 'tagKeys' failed to satisfy constraint: "
             "Member must not be null",
             "{'ResourceArn': 'arn:aws:dynamodb:ddblocal:000000000000:table/tagt'}");
  etu_fails (e, "ListTagsOfResource", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value null at 'resourceArn' failed to satisfy constraint: "
             "Member must not be null",
             "{}");
}

/* ---- Time to live ---- */

static void
test_time_to_live (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  json_t *r;

  etu_create_table (e, "ttl", "pk", "S");
  r = etu_ok (e, "DescribeTimeToLive", "{'TableName': 'ttl'}");
  check (r, "TimeToLiveDescription", "{'TimeToLiveStatus': 'DISABLED'}");
  json_decref (r);
  r = etu_ok (e, "UpdateTimeToLive",
              "{'TableName': 'ttl', 'TimeToLiveSpecification': {'Enabled': true, 'AttributeName': 'expires'}}");
  check (r, "TimeToLiveSpecification", "{'Enabled': true, 'AttributeName': 'expires'}");
  json_decref (r);
  r = etu_ok (e, "DescribeTimeToLive", "{'TableName': 'ttl'}");
  check (r, "TimeToLiveDescription", "{'TimeToLiveStatus': 'ENABLED', 'AttributeName': 'expires'}");
  json_decref (r);
  etu_fails (e, "UpdateTimeToLive", DDB_ERROR_VALIDATION, "TimeToLive is already enabled",
             "{'TableName': 'ttl', 'TimeToLiveSpecification': {'Enabled': true, 'AttributeName': 'other'}}");
  /* As DynamoDB Local words it. */
  etu_fails (e, "UpdateTimeToLive", DDB_ERROR_VALIDATION, "TimeToLive is active on a different AttributeName",
             "{'TableName': 'ttl', 'TimeToLiveSpecification': {'Enabled': false, 'AttributeName': 'other'}}");
  r = etu_ok (e, "UpdateTimeToLive",
              "{'TableName': 'ttl', 'TimeToLiveSpecification': {'Enabled': false, 'AttributeName': 'expires'}}");
  check (r, "TimeToLiveSpecification", "{'Enabled': false, 'AttributeName': 'expires'}");
  json_decref (r);
  etu_fails (e, "UpdateTimeToLive", DDB_ERROR_VALIDATION, "TimeToLive is already disabled",
             "{'TableName': 'ttl', 'TimeToLiveSpecification': {'Enabled': false, 'AttributeName': 'expires'}}");
  etu_fails (e, "UpdateTimeToLive", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value null at 'timeToLiveSpecification' failed to satisfy "
             "constraint: Member must not be null",
             "{'TableName': 'ttl'}");
  etu_fails (e, "UpdateTimeToLive", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' "
             "failed to satisfy constraint: Member must have length greater than or equal to 1",
             "{'TableName': 'ttl', 'TimeToLiveSpecification': {'Enabled': true, 'AttributeName': ''}}");
  etu_fails (e, "DescribeTimeToLive", DDB_ERROR_RESOURCE_NOT_FOUND,
             "Requested resource not found: Table: none not found", "{'TableName': 'none'}");
  etu_fails (e, "UpdateTimeToLive", DDB_ERROR_RESOURCE_NOT_FOUND,
             "Requested resource not found: Table: none not found",
             "{'TableName': 'none', 'TimeToLiveSpecification': {'Enabled': true, 'AttributeName': 'x'}}");
}

/* ---- Dispatcher ---- */

static void
test_dispatch (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  json_t *req = json_object ();
  json_t *resp = NULL;
  json_t *body;
  GError *error = NULL;

  g_assert_false (ddb_engine_call (e, "FlyToTheMoon", req, &resp, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_UNKNOWN_OPERATION);
  g_assert_null (resp);
  body = ddb_engine_error_body (error, NULL);
  check (body, "__type", "'com.amazon.coral.service#UnknownOperationException'");
  check (body, "message", "'An unknown operation was requested.'");
  json_decref (body);
  g_clear_error (&error);

  g_assert_false (ddb_engine_call (e, "DescribeTable", req, &resp, &error));
  {
    /* `extra` is borrowed. */
    json_t *extra = json_pack ("{ss}", "Extra", "x");

    body = ddb_engine_error_body (error, extra);
    json_decref (extra);
  }
  check (body, "__type", "'com.amazon.coral.validate#ValidationException'");
  g_assert_cmpstr (json_string_value (json_object_get (body, "message")), ==,
                   "1 validation error detected: Value null at 'tableName' failed to satisfy "
                   "constraint: Member must not be null");
  check (body, "Extra", "'x'");
  json_decref (body);
  g_clear_error (&error);
  json_decref (req);

  req = json_array ();
  g_assert_false (ddb_engine_call (e, "ListTables", req, &resp, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_SERIALIZATION);
  g_clear_error (&error);
  json_decref (req);
}

static void
test_file_database (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbtable-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "db", NULL);
  GError *error = NULL;

  {
    g_autoptr (DdbEngine) e = ddb_engine_open (path, &error);

    g_assert_no_error (error);
    etu_create_table (e, "persisted", "pk", "S");
  }
  {
    g_autoptr (DdbEngine) e = ddb_engine_open (path, &error);
    json_t *r = etu_ok (e, "ListTables", "{}");

    check (r, "TableNames", "['persisted']");
    json_decref (r);
  }
  etu_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/table-ops/create-describe", test_create_describe);
  g_test_add_func ("/table-ops/create-pay-per-request", test_create_pay_per_request);
  g_test_add_func ("/table-ops/create-validation", test_create_validation);
  g_test_add_func ("/table-ops/create-index-validation", test_create_index_validation);
  g_test_add_func ("/table-ops/list-tables", test_list_tables);
  g_test_add_func ("/table-ops/delete-table", test_delete_table);
  g_test_add_func ("/table-ops/update-billing", test_update_billing);
  g_test_add_func ("/table-ops/update-gsi", test_update_gsi);
  g_test_add_func ("/table-ops/update-stream", test_update_stream);
  g_test_add_func ("/table-ops/tags", test_tags);
  g_test_add_func ("/table-ops/time-to-live", test_time_to_live);
  g_test_add_func ("/table-ops/dispatch", test_dispatch);
  g_test_add_func ("/table-ops/file-database", test_file_database);
  return g_test_run ();
}
