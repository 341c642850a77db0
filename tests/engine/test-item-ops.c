/* test-item-ops.c: PutItem, GetItem, UpdateItem, DeleteItem through ddb_engine_call, the request
 * readers of request.h with DynamoDB's messages, consumed capacity, and the prepared writes of
 * item-ops.h that batches and transactions reuse. */
#include <glib.h>
#include <jansson.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "engine/engine-private.h"
#include "engine/engine.h"
#include "engine/item-ops.h"
#include "engine/request.h"
#include "../core/test-util.h"
#include "engine-test-util.h"

/* ---- Helpers ---- */

/* The response of `op`, compared with `expected_sq`. */
static void
call_expect (DdbEngine *e, const char *op, const char *req_sq, const char *expected_sq)
{
  json_t *resp = etu_ok (e, op, "%s", req_sq);

  etu_assert_json (resp, expected_sq);
  json_decref (resp);
}

static void
assert_item (DdbEngine *e, const char *table, const char *key_sq, const char *item_sq)
{
  g_autofree char *req
      = g_strdup_printf ("{'TableName': '%s', 'Key': %s, 'ConsistentRead': true}", table, key_sq);
  g_autofree char *expected
      = item_sq != NULL ? g_strdup_printf ("{'Item': %s}", item_sq) : g_strdup ("{}");

  call_expect (e, "GetItem", req, expected);
}

static const char *const create_simple
    = "{'TableName': 'simple', 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}],"
      " 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
      " 'BillingMode': 'PAY_PER_REQUEST'}";

static const char *const create_nums
    = "{'TableName': 'nums', 'KeySchema': [{'AttributeName': 'id', 'KeyType': 'HASH'},"
      " {'AttributeName': 'bin', 'KeyType': 'RANGE'}],"
      " 'AttributeDefinitions': [{'AttributeName': 'id', 'AttributeType': 'N'},"
      " {'AttributeName': 'bin', 'AttributeType': 'B'}], 'BillingMode': 'PAY_PER_REQUEST'}";

/* Posts keyed by postId, with a GSI by author (the seed's denormalized author names). */
static const char *const create_posts
    = "{'TableName': 'posts', 'KeySchema': [{'AttributeName': 'postId', 'KeyType': 'HASH'}],"
      " 'AttributeDefinitions': [{'AttributeName': 'postId', 'AttributeType': 'S'},"
      " {'AttributeName': 'authorName', 'AttributeType': 'S'}],"
      " 'GlobalSecondaryIndexes': [{'IndexName': 'byAuthor', 'KeySchema':"
      " [{'AttributeName': 'authorName', 'KeyType': 'HASH'}],"
      " 'Projection': {'ProjectionType': 'KEYS_ONLY'}}],"
      " 'BillingMode': 'PAY_PER_REQUEST'}";

/* A table with an LSI and a GSI sharing the attribute lsk, to see which index DynamoDB names. */
static const char *const create_coll
    = "{'TableName': 'coll', 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
      " {'AttributeName': 'sk', 'KeyType': 'RANGE'}],"
      " 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'},"
      " {'AttributeName': 'sk', 'AttributeType': 'S'},"
      " {'AttributeName': 'lsk', 'AttributeType': 'S'},"
      " {'AttributeName': 'gn', 'AttributeType': 'N'}],"
      " 'LocalSecondaryIndexes': [{'IndexName': 'lsi1', 'KeySchema':"
      " [{'AttributeName': 'pk', 'KeyType': 'HASH'}, {'AttributeName': 'lsk', 'KeyType': 'RANGE'}],"
      " 'Projection': {'ProjectionType': 'ALL'}}],"
      " 'GlobalSecondaryIndexes': [{'IndexName': 'gsi1', 'KeySchema':"
      " [{'AttributeName': 'lsk', 'KeyType': 'HASH'}, {'AttributeName': 'gn', 'KeyType': 'RANGE'}],"
      " 'Projection': {'ProjectionType': 'INCLUDE', 'NonKeyAttributes': ['x']}}],"
      " 'BillingMode': 'PAY_PER_REQUEST'}";

static DdbEngine *
engine_new (void)
{
  DdbEngine *e = etu_engine_new ();
  const char *const tables[] = { create_simple, create_nums, create_posts, create_coll };

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    json_decref (etu_ok (e, "CreateTable", "%s", tables[i]));
  return e;
}

/* An S attribute value of `n` bytes. */
static json_t *
big_string (gsize n)
{
  g_autofree char *s = g_malloc (n + 1);

  memset (s, 'a', n);
  s[n] = '\0';
  return json_pack ("{s:s}", "S", s);
}

/* ---- request.h readers ---- */

static void
test_table_name (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  g_autofree char *long_name = NULL;
  json_t *req;

  etu_fails (e, "GetItem", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value null at 'tableName' failed to satisfy "
             "constraint: Member must not be null",
             "{'Key': {'pk': {'S': 'a'}}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy "
             "constraint: Member must have length greater than or equal to 3",
             "{'TableName': 'ab', 'Item': {'pk': {'S': 'a'}}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "2 validation errors detected: Value 'x!' at 'tableName' failed to satisfy "
             "constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; "
             "Value 'x!' at 'tableName' failed to satisfy constraint: Member must have length "
             "greater than or equal to 3",
             "{'TableName': 'x!', 'Item': {'pk': {'S': 'a'}}}");
  etu_fails (e, "DeleteItem", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value 'bad name' at 'tableName' failed to satisfy "
             "constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
             "{'TableName': 'bad name', 'Key': {'pk': {'S': 'a'}}}");
  etu_fails (e, "UpdateItem", DDB_ERROR_SERIALIZATION, "NUMBER_VALUE cannot be converted to String",
             "{'TableName': 5, 'Key': {'pk': {'S': 'a'}}}");

  long_name = g_strnfill (256, 'n');
  req = json_pack ("{s:s, s:{s:{s:s}}}", "TableName", long_name, "Key", "pk", "S", "a");
  {
    g_autofree char *msg = g_strdup_printf (
        "1 validation error detected: Value '%s' at 'tableName' failed to satisfy constraint: "
        "Member must have length less than or equal to 255",
        long_name);
    etu_call_fails (e, "GetItem", req, DDB_ERROR_VALIDATION, msg);
  }
  json_decref (req);

  etu_fails (e, "GetItem", DDB_ERROR_RESOURCE_NOT_FOUND, "Requested resource not found",
             "{'TableName': 'missing', 'Key': {'pk': {'S': 'a'}}}");
  etu_fails (e, "PutItem", DDB_ERROR_RESOURCE_NOT_FOUND, "Requested resource not found",
             "{'TableName': 'missing', 'Item': {'pk': {'S': 'a'}}}");
}

static void
test_readers (void)
{
  static const char *const allowed[] = { "INDEXES", "TOTAL", "NONE", NULL };
  json_t *req = etu_json ("{'Limit': 0, 'Big': 5000, 'Flag': true, 'Str': 'x', 'Num': 2.7,"
                          " 'Mode': 'TOTAL', 'BadMode': 'ALL', 'NotBool': 'true', 'Nul': null}");
  GError *error = NULL;
  gint64 n = -1;
  gboolean present = FALSE, b = FALSE;

  g_assert_false (ddb_req_int (req, "Limit", 1, G_MAXINT32, &n, &present, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "1 validation error detected: Value '0' at 'limit' failed to satisfy "
                   "constraint: Member must have value greater than or equal to 1");
  g_clear_error (&error);
  g_assert_false (ddb_req_int (req, "Big", 1, 1000, &n, &present, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "1 validation error detected: Value '5000' at 'big' failed to satisfy "
                   "constraint: Member must have value less than or equal to 1000");
  g_clear_error (&error);
  g_assert_true (ddb_req_int (req, "Num", 1, 10, &n, &present, &error));
  g_assert_true (present);
  g_assert_cmpint (n, ==, 2);
  g_assert_true (ddb_req_int (req, "Absent", 1, 10, &n, &present, &error));
  g_assert_false (present);
  g_assert_false (ddb_req_int (req, "Str", 1, 10, &n, &present, &error));
  tu_assert_error (error, DDB_ERROR_SERIALIZATION, "STRING_VALUE cannot be converted to Integer");
  g_clear_error (&error);

  g_assert_true (ddb_req_bool (req, "Flag", FALSE, &b, &error));
  g_assert_true (b);
  g_assert_true (ddb_req_bool (req, "Nul", TRUE, &b, &error));
  g_assert_true (b);
  g_assert_false (ddb_req_bool (req, "NotBool", FALSE, &b, &error));
  tu_assert_error (error, DDB_ERROR_SERIALIZATION, "Unexpected token received from parser");
  g_clear_error (&error);

  g_assert_cmpint (ddb_req_enum (req, "Mode", allowed, 2, &error), ==, 1);
  g_assert_cmpint (ddb_req_enum (req, "Absent", allowed, 2, &error), ==, 2);
  g_assert_cmpint (ddb_req_enum (req, "BadMode", allowed, 2, &error), ==, -1);
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "1 validation error detected: Value 'ALL' at 'badMode' failed to satisfy "
                   "constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]");
  g_clear_error (&error);

  g_assert_cmpstr (ddb_req_string (req, "Str", TRUE, &error), ==, "x");
  g_assert_null (ddb_req_string (req, "Absent", FALSE, &error));
  g_assert_no_error (error);
  g_assert_null (ddb_req_string (req, "Absent", TRUE, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "1 validation error detected: Value null at 'absent' failed to satisfy "
                   "constraint: Member must not be null");
  g_clear_error (&error);
  g_assert_null (ddb_req_string (req, "Flag", TRUE, &error));
  tu_assert_error (error, DDB_ERROR_SERIALIZATION, "TRUE_VALUE cannot be converted to String");
  g_clear_error (&error);
  json_decref (req);
}

static void
test_capacity_units (void)
{
  DdbCapacity cap;
  DdbIndexDef gsi = { .name = "g", .global = TRUE };
  DdbIndexDef lsi = { .name = "l", .global = FALSE };
  json_t *j;

  g_assert_cmpfloat (ddb_capacity_read_units (0, TRUE), ==, 1.0);
  g_assert_cmpfloat (ddb_capacity_read_units (0, FALSE), ==, 0.5);
  g_assert_cmpfloat (ddb_capacity_read_units (4096, TRUE), ==, 1.0);
  g_assert_cmpfloat (ddb_capacity_read_units (4097, TRUE), ==, 2.0);
  g_assert_cmpfloat (ddb_capacity_read_units (4097, FALSE), ==, 1.0);
  g_assert_cmpfloat (ddb_capacity_read_units (9000, FALSE), ==, 1.5);
  g_assert_cmpfloat (ddb_capacity_write_units (0), ==, 1.0);
  g_assert_cmpfloat (ddb_capacity_write_units (1024), ==, 1.0);
  g_assert_cmpfloat (ddb_capacity_write_units (1025), ==, 2.0);

  ddb_capacity_init (&cap, "t1x");
  cap.table_write = 2;
  ddb_capacity_add_index (&cap, &gsi, TRUE, 1);
  ddb_capacity_add_index (&cap, &gsi, FALSE, 0.5);
  ddb_capacity_add_index (&cap, &lsi, TRUE, 3);
  g_assert_null (ddb_capacity_to_json (&cap, DDB_RCC_NONE));
  j = ddb_capacity_to_json (&cap, DDB_RCC_TOTAL);
  etu_assert_json (j, "{'TableName': 't1x', 'CapacityUnits': 6.5}");
  json_decref (j);
  j = ddb_capacity_to_json (&cap, DDB_RCC_INDEXES);
  etu_assert_json (j, "{'TableName': 't1x', 'CapacityUnits': 6.5, 'Table': {'CapacityUnits': 2.0},"
                      " 'GlobalSecondaryIndexes': {'g': {'CapacityUnits': 1.5}},"
                      " 'LocalSecondaryIndexes': {'l': {'CapacityUnits': 3.0}}}");
  json_decref (j);
  ddb_capacity_clear (&cap);
}

/* ---- Items and keys ---- */

static void
test_put_get_roundtrip (void)
{
  g_autoptr (DdbEngine) e = engine_new ();

  /* 38 significant digits, sets, nested maps and lists, binary, empty non-key strings. */
  etu_put (e, "simple",
           "{'pk': {'S': 'a'}, 'n': {'N': '12345678901234567890123456789012345678'},"
           " 'small': {'N': "
           "'-0.000000000000000000000000000000000000012345678901234567890123456789012345678'},"
           " 'ns': {'NS': ['1', '99999999999999999999999999999999999999', '-1E-30']},"
           " 'ss': {'SS': ['x', 'y']}, 'bs': {'BS': ['AAE=', 'AgM=']}, 'e': {'S': ''},"
           " 'm': {'M': {'l': {'L': [{'BOOL': true}, {'NULL': true}, {'B': ''}]}}}}");
  assert_item (e, "simple", "{'pk': {'S': 'a'}}",
               "{'pk': {'S': 'a'}, 'n': {'N': '12345678901234567890123456789012345678'},"
               " 'small': {'N': "
               "'-0.000000000000000000000000000000000000012345678901234567890123456789012345678'},"
               " 'ns': {'NS': ['1', '99999999999999999999999999999999999999', "
               "'-0.000000000000000000000000000001']},"
               " 'ss': {'SS': ['x', 'y']}, 'bs': {'BS': ['AAE=', 'AgM=']}, 'e': {'S': ''},"
               " 'm': {'M': {'l': {'L': [{'BOOL': true}, {'NULL': true}, {'B': ''}]}}}}");
  /* Number keys compare numerically: 1.0 and 1 are one key. */
  etu_put (e, "nums", "{'id': {'N': '1.0'}, 'bin': {'B': 'AQI='}, 'v': {'S': 'first'}}");
  etu_put (e, "nums", "{'id': {'N': '1'}, 'bin': {'B': 'AQI='}, 'v': {'S': 'second'}}");
  assert_item (e, "nums", "{'id': {'N': '10E-1'}, 'bin': {'B': 'AQI='}}",
               "{'id': {'N': '1'}, 'bin': {'B': 'AQI='}, 'v': {'S': 'second'}}");
  assert_item (e, "simple", "{'pk': {'S': 'none'}}", NULL);
  /* Over 38 digits is refused. */
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "Attempting to store more than 38 significant digits in a Number",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'b'},"
             " 'n': {'N': '123456789012345678901234567890123456789'}}}");
}

/* U+0000 is a valid string character: in keys, values and expression values, there and back.
 * A name holding one cannot be stored (jansson's keys cannot hold it), so one given through
 * ExpressionAttributeNames is refused, where cutting it short would read or write another
 * attribute. */
static void
test_nul_in_strings (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  static const char *const item
      = "{'pk': {'S': 'a\\u0000b'}, 'v': {'S': 'x\\u0000'}, 'ss': {'SS': ['\\u0000', 'z']}}";

  etu_put (e, "simple", item);
  assert_item (e, "simple", "{'pk': {'S': 'a\\u0000b'}}", item);
  assert_item (e, "simple", "{'pk': {'S': 'a'}}", NULL);
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'a\\u0000b'}},"
               " 'UpdateExpression': 'SET w = :w', 'ConditionExpression': 'v = :v',"
               " 'ExpressionAttributeValues': {':v': {'S': 'x\\u0000'}, ':w': {'S': '\\u0000'}},"
               " 'ReturnValues': 'UPDATED_NEW'}",
               "{'Attributes': {'w': {'S': '\\u0000'}}}");
  etu_fails (e, "UpdateItem", DDB_ERROR_CONDITIONAL_CHECK_FAILED, "The conditional request failed",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'a\\u0000b'}},"
             " 'UpdateExpression': 'SET w = :w', 'ConditionExpression': 'v = :v',"
             " 'ExpressionAttributeValues': {':v': {'S': 'x'}, ':w': {'S': 'y'}}}");
  etu_fails (e, "UpdateItem", DDB_ERROR_VALIDATION,
             "ExpressionAttributeNames contains invalid value: An attribute name holding U+0000 "
             "is not supported for key #n",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'a\\u0000b'}},"
             " 'UpdateExpression': 'SET #n = :w', 'ExpressionAttributeNames': {'#n': 'v\\u0000z'},"
             " 'ExpressionAttributeValues': {':w': {'S': 'y'}}}");
  etu_fails (e, "GetItem", DDB_ERROR_VALIDATION,
             "ExpressionAttributeNames contains invalid value: An attribute name holding U+0000 "
             "is not supported for key #n",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'a\\u0000b'}},"
             " 'ProjectionExpression': '#n', 'ExpressionAttributeNames': {'#n': 'v\\u0000z'}}");
  assert_item (e, "simple", "{'pk': {'S': 'a\\u0000b'}}",
               "{'pk': {'S': 'a\\u0000b'}, 'v': {'S': 'x\\u0000'}, 'ss': {'SS': ['\\u0000', 'z']},"
               " 'w': {'S': '\\u0000'}}");
}

/* DynamoDB refuses an empty attribute name anywhere a request carries attributes, nested maps
 * included, in document order with the values' own problems; messages never carry the
 * attribute path the core adds for people. */
static void
test_empty_attribute_name (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  const char *const empty = "Empty attribute name";

  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION, empty,
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}, '': {'S': 'v'}}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION, empty,
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}, 'm': {'M': {'l': {'L': [{'M': "
             "{'': {'S': 'v'}}}]}}}}}");
  /* The first problem in the item decides. */
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION, empty,
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}, '': {'S': 'v'}, 'x': {'N': "
             "'abc'}}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "The parameter cannot be converted to a numeric value: abc",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}, 'x': {'N': 'abc'}, '': {'S': "
             "'v'}}}");
  /* A serialization problem anywhere still wins. */
  etu_fails (e, "PutItem", DDB_ERROR_SERIALIZATION, "NUMBER_VALUE cannot be converted to String",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}, '': {'S': 'v'}, 'x': {'S': 1}}}");
  etu_fails (e, "GetItem", DDB_ERROR_VALIDATION, empty,
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'a'}, '': {'S': 'v'}}}");
  etu_fails (e, "DeleteItem", DDB_ERROR_VALIDATION, empty,
             "{'TableName': 'simple', 'Key': {'': {'S': 'v'}}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "ExpressionAttributeValues contains invalid value: Empty attribute name for key :v",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}}, 'ConditionExpression': 'm <> "
             ":v', 'ExpressionAttributeValues': {':v': {'M': {'': {'S': 'x'}}}}}");
  etu_fails (e, "UpdateItem", DDB_ERROR_VALIDATION, empty,
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'a'}}, 'AttributeUpdates': {'': "
             "{'Value': {'S': 'x'}}}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION, empty,
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}}, 'Expected': {'': {'Exists': "
             "false}}}");
  etu_fails (e, "GetItem", DDB_ERROR_VALIDATION, empty,
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'a'}}, 'AttributesToGet': ['']}");
  etu_fails (e, "Scan", DDB_ERROR_VALIDATION, empty,
             "{'TableName': 'simple', 'ExclusiveStartKey': {'': {'S': 'v'}}}");
  /* Nothing was written; a set's element problem has no "[i]" path either. */
  assert_item (e, "simple", "{'pk': {'S': 'a'}}", NULL);
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "The parameter cannot be converted to a numeric value: x",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}, 'ns': {'NS': ['1', 'x']}}}");
}

static void
test_put_item_checks (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *req;

  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value null at 'item' failed to satisfy constraint: "
             "Member must not be null",
             "{'TableName': 'simple'}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "One or more parameter values were invalid: Missing the key pk in the item",
             "{'TableName': 'simple', 'Item': {'x': {'S': 'a'}}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "One or more parameter values were invalid: Type mismatch for key pk expected: S "
             "actual: N",
             "{'TableName': 'simple', 'Item': {'pk': {'N': '1'}}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "One or more parameter values were invalid: Missing the key bin in the item",
             "{'TableName': 'nums', 'Item': {'id': {'N': '1'}}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "One or more parameter values are not valid. The AttributeValue for a key attribute "
             "cannot contain an empty string value. Key: pk",
             "{'TableName': 'simple', 'Item': {'pk': {'S': ''}}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "One or more parameter values are not valid. The AttributeValue for a key attribute "
             "cannot contain an empty binary value. Key: bin",
             "{'TableName': 'nums', 'Item': {'id': {'N': '1'}, 'bin': {'B': ''}}}");
  /* An empty key value is reported before another key attribute's problem. */
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "One or more parameter values are not valid. The AttributeValue for a key attribute "
             "cannot contain an empty string value. Key: sk",
             "{'TableName': 'coll', 'Item': {'pk': {'N': '1'}, 'sk': {'S': ''}}}");

  /* Key sizes: partition key up to 2048 bytes, sort key up to 1024. */
  req = json_pack ("{s:s, s:{s:o}}", "TableName", "simple", "Item", "pk", big_string (2048));
  json_decref (etu_ok (e, "PutItem", "{'TableName': 'simple', 'Item': {'pk': {'S': 'z'}}}"));
  json_decref (etu_call_ok (e, "PutItem", req));
  json_decref (req);
  req = json_pack ("{s:s, s:{s:o}}", "TableName", "simple", "Item", "pk", big_string (2049));
  etu_call_fails (e, "PutItem", req, DDB_ERROR_VALIDATION,
                  "One or more parameter values were invalid: Size of hashkey has exceeded the "
                  "maximum size limit of2048 bytes");
  json_decref (req);
  req = json_pack ("{s:s, s:{s:{s:s}, s:o}}", "TableName", "coll", "Item", "pk", "S", "p", "sk",
                   big_string (1024));
  json_decref (etu_call_ok (e, "PutItem", req));
  json_decref (req);
  req = json_pack ("{s:s, s:{s:{s:s}, s:o}}", "TableName", "coll", "Item", "pk", "S", "p", "sk",
                   big_string (1025));
  etu_call_fails (e, "PutItem", req, DDB_ERROR_VALIDATION,
                  "One or more parameter values were invalid: Aggregated size of all range keys "
                  "has exceeded the size limit of 1024 bytes");
  json_decref (req);

  /* 400 KB. */
  req = json_pack ("{s:s, s:{s:{s:s}, s:o}}", "TableName", "simple", "Item", "pk", "S", "big", "d",
                   big_string (400 * 1024));
  etu_call_fails (e, "PutItem", req, DDB_ERROR_VALIDATION,
                  "Item size has exceeded the maximum allowed size");
  json_decref (req);
  req = json_pack ("{s:s, s:{s:{s:s}, s:o}}", "TableName", "simple", "Item", "pk", "S", "big", "d",
                   big_string (400 * 1024 - 6));
  json_decref (etu_call_ok (e, "PutItem", req));
  json_decref (req);

  /* Index keys: the first index by name that holds the attribute is named (gsi1 before lsi1),
   * as captured from AWS; DynamoDB Local names lsi1 and words the mismatch without details. */
  etu_fails (
      e, "PutItem", DDB_ERROR_VALIDATION,
      "One or more parameter values were invalid: Type mismatch for Index Key lsk "
      "Expected: S Actual: N IndexName: gsi1",
      "{'TableName': 'coll', 'Item': {'pk': {'S': 'p'}, 'sk': {'S': 's'}, 'lsk': {'N': '5'}}}");
  etu_fails (
      e, "PutItem", DDB_ERROR_VALIDATION,
      "One or more parameter values were invalid: Type mismatch for Index Key gn "
      "Expected: N Actual: S IndexName: gsi1",
      "{'TableName': 'coll', 'Item': {'pk': {'S': 'p'}, 'sk': {'S': 's'}, 'gn': {'S': '5'}}}");
  etu_fails (
      e, "PutItem", DDB_ERROR_VALIDATION,
      "One or more parameter values are not valid. A value specified for a secondary "
      "index key is not supported. The AttributeValue for a key attribute cannot contain "
      "an empty string value. IndexName: gsi1, IndexKey: lsk",
      "{'TableName': 'coll', 'Item': {'pk': {'S': 'p'}, 'sk': {'S': 's'}, 'lsk': {'S': ''}}}");
  /* Sparse: an item without the index attributes is fine. */
  etu_put (e, "coll", "{'pk': {'S': 'p'}, 'sk': {'S': 's'}}");
}

static void
test_key_checks (void)
{
  g_autoptr (DdbEngine) e = engine_new ();

  etu_fails (e, "GetItem", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value null at 'key' failed to satisfy constraint: "
             "Member must not be null",
             "{'TableName': 'simple'}");
  etu_fails (e, "GetItem", DDB_ERROR_VALIDATION,
             "The provided key element does not match the schema",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'a'}, 'x': {'S': 'b'}}}");
  etu_fails (e, "GetItem", DDB_ERROR_VALIDATION,
             "The provided key element does not match the schema",
             "{'TableName': 'simple', 'Key': {'x': {'S': 'b'}}}");
  etu_fails (e, "DeleteItem", DDB_ERROR_VALIDATION,
             "The provided key element does not match the schema",
             "{'TableName': 'simple', 'Key': {'pk': {'N': '1'}}}");
  etu_fails (e, "UpdateItem", DDB_ERROR_VALIDATION,
             "The provided key element does not match the schema",
             "{'TableName': 'nums', 'Key': {'id': {'N': '1'}}}");
  etu_fails (e, "GetItem", DDB_ERROR_VALIDATION,
             "One or more parameter values are not valid. The AttributeValue for a key attribute "
             "cannot contain an empty string value. Key: pk",
             "{'TableName': 'simple', 'Key': {'pk': {'S': ''}}}");
  etu_fails (e, "GetItem", DDB_ERROR_SERIALIZATION, "NUMBER_VALUE cannot be converted to String",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 1}}}");
}

/* ---- Expression parameters ---- */

static void
test_expression_maps (void)
{
  g_autoptr (DdbEngine) e = engine_new ();

  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION, "ExpressionAttributeValues must not be empty",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}}, 'ConditionExpression': 'a = :a',"
             " 'ExpressionAttributeValues': {}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION, "ExpressionAttributeNames must not be empty",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}}, 'ConditionExpression': '#a = b',"
             " 'ExpressionAttributeNames': {}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\"",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}}, 'ConditionExpression': '#a = b',"
             " 'ExpressionAttributeNames': {'a': 'b'}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "ExpressionAttributeValues contains invalid key: Syntax error; key: \":a-b\"",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}}, 'ConditionExpression': 'a = :a',"
             " 'ExpressionAttributeValues': {':a-b': {'S': 'x'}}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "ExpressionAttributeValues contains invalid value: One or more parameter values "
             "were invalid: An string set  may not be empty for key :a",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}}, 'ConditionExpression': 'a = :a',"
             " 'ExpressionAttributeValues': {':a': {'SS': []}}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "ExpressionAttributeNames contains invalid value: Empty attribute name for key #a",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}}, 'ConditionExpression': '#a = b',"
             " 'ExpressionAttributeNames': {'#a': ''}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "Value provided in ExpressionAttributeValues unused in expressions: keys: {:b}",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}}, 'ConditionExpression': 'a = :a',"
             " 'ExpressionAttributeValues': {':a': {'S': 'x'}, ':b': {'S': 'y'}}}");
  etu_fails (
      e, "UpdateItem", DDB_ERROR_VALIDATION,
      "Value provided in ExpressionAttributeNames unused in expressions: keys: {#n}",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'a'}}, 'UpdateExpression': 'SET a = :a',"
      " 'ExpressionAttributeValues': {':a': {'S': 'x'}}, 'ExpressionAttributeNames': {'#n': 'x'}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "ExpressionAttributeNames can only be specified when using expressions",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}}, 'ExpressionAttributeNames': "
             "{'#a': 'x'}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "ExpressionAttributeValues can only be specified when using expressions: "
             "ConditionExpression is null",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}}, 'ExpressionAttributeValues': "
             "{':a': {'S': 'x'}}}");
  etu_fails (e, "UpdateItem", DDB_ERROR_VALIDATION,
             "ExpressionAttributeValues can only be specified when using expressions: "
             "UpdateExpression and ConditionExpression are null",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'a'}}, 'ExpressionAttributeValues': "
             "{':a': {'S': 'x'}}}");
  etu_fails (e, "GetItem", DDB_ERROR_VALIDATION,
             "ExpressionAttributeNames can only be specified when using expressions",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'a'}}, 'ExpressionAttributeNames': "
             "{'#a': 'x'}}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "Invalid ConditionExpression: The expression can not be empty;",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}}, 'ConditionExpression': ''}");
  /* Syntax errors name their expression; nothing is written. */
  {
    json_t *extra = etu_fails (
        e, "UpdateItem", DDB_ERROR_VALIDATION,
        "Invalid UpdateExpression: Attribute name is a reserved keyword; "
        "reserved keyword: size",
        "{'TableName': 'simple', 'Key': {'pk': {'S': 'a'}},"
        " 'UpdateExpression': 'SET size = :a', 'ExpressionAttributeValues': {':a': {'S': 'x'}}}");
    g_assert_null (extra);
  }
  assert_item (e, "simple", "{'pk': {'S': 'a'}}", NULL);
}

/* ---- Conditions ---- */

static void
test_condition (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *extra;

  call_expect (e, "PutItem",
               "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}, 'v': {'N': '1'}},"
               " 'ConditionExpression': 'attribute_not_exists(pk)'}",
               "{}");
  extra = etu_fails (e, "PutItem", DDB_ERROR_CONDITIONAL_CHECK_FAILED,
                     "The conditional request failed",
                     "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}, 'v': {'N': '2'}},"
                     " 'ConditionExpression': 'attribute_not_exists(pk)'}");
  g_assert_null (extra);
  extra = etu_fails (e, "PutItem", DDB_ERROR_CONDITIONAL_CHECK_FAILED,
                     "The conditional request failed",
                     "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}, 'v': {'N': '2'}},"
                     " 'ConditionExpression': 'attribute_not_exists(pk)',"
                     " 'ReturnValuesOnConditionCheckFailure': 'ALL_OLD'}");
  etu_assert_json (extra, "{'Item': {'pk': {'S': 'a'}, 'v': {'N': '1'}}}");
  json_decref (extra);
  {
    /* The error body DynamoDB sends carries the item. */
    GError *error = g_error_new_literal (DDB_ERROR, DDB_ERROR_CONDITIONAL_CHECK_FAILED,
                                         "The conditional request failed");
    json_t *x = etu_json ("{'Item': {'pk': {'S': 'a'}}}");
    json_t *body = ddb_engine_error_body (error, x);

    etu_assert_json (json_object_get (body, "Item"), "{'pk': {'S': 'a'}}");
    json_decref (body);
    json_decref (x);
    g_error_free (error);
  }
  assert_item (e, "simple", "{'pk': {'S': 'a'}}", "{'pk': {'S': 'a'}, 'v': {'N': '1'}}");

  /* A condition on a missing item sees no attributes; ALL_OLD has nothing to return. */
  extra = etu_fails (
      e, "DeleteItem", DDB_ERROR_CONDITIONAL_CHECK_FAILED, "The conditional request failed",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'zz'}},"
      " 'ConditionExpression': 'v = :one', 'ExpressionAttributeValues': {':one': {'N': '1'}},"
      " 'ReturnValuesOnConditionCheckFailure': 'ALL_OLD'}");
  g_assert_null (extra);
  call_expect (
      e, "DeleteItem",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'a'}},"
      " 'ConditionExpression': 'v = :one', 'ExpressionAttributeValues': {':one': {'N': '1.00'}},"
      " 'ReturnValues': 'ALL_OLD'}",
      "{'Attributes': {'pk': {'S': 'a'}, 'v': {'N': '1'}}}");
  assert_item (e, "simple", "{'pk': {'S': 'a'}}", NULL);
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value 'SOME' at 'returnValuesOnConditionCheckFailure' "
             "failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'a'}}, "
             "'ReturnValuesOnConditionCheckFailure': 'SOME'}");
}

/* The seed scenario: a denormalized author name renamed on every post, each update guarded by
 * the old value, so a post already renamed by someone else fails and is left alone. */
static void
test_seed_rename (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  static const char *const update
      = "{'TableName': 'posts', 'Key': {'postId': {'S': '%s'}},"
        " 'UpdateExpression': 'SET authorName = :new',"
        " 'ConditionExpression': 'authorName = :old',"
        " 'ExpressionAttributeValues': {':old': {'S': 'Mara Vance'}, ':new': {'S': 'Mara V.'}},"
        " 'ReturnValues': 'UPDATED_NEW'}";
  g_autofree char *u1 = g_strdup_printf (update, "p1");
  g_autofree char *u2 = g_strdup_printf (update, "p2");

  etu_put (e, "posts",
           "{'postId': {'S': 'p1'}, 'authorName': {'S': 'Mara Vance'}, 'title': {'S': 'One'}}");
  etu_put (e, "posts",
           "{'postId': {'S': 'p2'}, 'authorName': {'S': 'M. Vance'}, 'title': {'S': 'Two'}}");
  call_expect (e, "UpdateItem", u1, "{'Attributes': {'authorName': {'S': 'Mara V.'}}}");
  assert_item (e, "posts", "{'postId': {'S': 'p1'}}",
               "{'postId': {'S': 'p1'}, 'authorName': {'S': 'Mara V.'}, 'title': {'S': 'One'}}");
  etu_fails (e, "UpdateItem", DDB_ERROR_CONDITIONAL_CHECK_FAILED, "The conditional request failed",
             "%s", u2);
  assert_item (e, "posts", "{'postId': {'S': 'p2'}}",
               "{'postId': {'S': 'p2'}, 'authorName': {'S': 'M. Vance'}, 'title': {'S': 'Two'}}");
  /* Running the rename again fails on the row it already changed. */
  etu_fails (e, "UpdateItem", DDB_ERROR_CONDITIONAL_CHECK_FAILED, "The conditional request failed",
             "%s", u1);
  /* A post that does not exist is not created by a guarded update. */
  {
    g_autofree char *u3 = g_strdup_printf (update, "p3");
    etu_fails (e, "UpdateItem", DDB_ERROR_CONDITIONAL_CHECK_FAILED,
               "The conditional request failed", "%s", u3);
    assert_item (e, "posts", "{'postId': {'S': 'p3'}}", NULL);
  }
}

/* ---- UpdateItem ---- */

static void
test_update_arithmetic (void)
{
  g_autoptr (DdbEngine) e = engine_new ();

  etu_put (e, "simple",
           "{'pk': {'S': 'n'}, 'n': {'N': '12345678901234567890123456789012345677'},"
           " 'f': {'N': '0.1'}, 's': {'SS': ['a']}}");
  call_expect (
      e, "UpdateItem",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'n'}},"
      " 'UpdateExpression': 'SET n = n + :one, f = f + :f ADD s :s, c :one',"
      " 'ExpressionAttributeValues': {':one': {'N': '1'}, ':f': {'N': '0.2'}, ':s': {'SS': ['b']}},"
      " 'ReturnValues': 'ALL_NEW'}",
      "{'Attributes': {'pk': {'S': 'n'}, 'n': {'N': '12345678901234567890123456789012345678'},"
      " 'f': {'N': '0.3'}, 's': {'SS': ['a', 'b']}, 'c': {'N': '1'}}}");
  /* The exact sum would need 39 digits: refused, never rounded. (The wording is the core's;
   * DynamoDB Local says "DynamoDB only supports precision up to 38 digits".) */
  etu_fails (e, "UpdateItem", DDB_ERROR_VALIDATION, NULL,
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'n'}},"
             " 'UpdateExpression': 'SET n = n + :x',"
             " 'ExpressionAttributeValues': {':x': {'N': '0.1'}}}");
  etu_fails (e, "UpdateItem", DDB_ERROR_VALIDATION,
             "An operand in the update expression has an incorrect data type",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'n'}},"
             " 'UpdateExpression': 'SET n = s + :x',"
             " 'ExpressionAttributeValues': {':x': {'N': '1'}}}");
  assert_item (e, "simple", "{'pk': {'S': 'n'}}",
               "{'pk': {'S': 'n'}, 'n': {'N': '12345678901234567890123456789012345678'},"
               " 'f': {'N': '0.3'}, 's': {'SS': ['a', 'b']}, 'c': {'N': '1'}}");
}

static void
test_update_new_item (void)
{
  g_autoptr (DdbEngine) e = engine_new ();

  /* A new item starts from its key, which the update may read. */
  call_expect (
      e, "UpdateItem",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'k1'}}, 'UpdateExpression': 'SET x = pk',"
      " 'ReturnValues': 'ALL_NEW'}",
      "{'Attributes': {'pk': {'S': 'k1'}, 'x': {'S': 'k1'}}}");
  /* No update at all still creates the item. */
  call_expect (e, "UpdateItem", "{'TableName': 'simple', 'Key': {'pk': {'S': 'k2'}}}", "{}");
  assert_item (e, "simple", "{'pk': {'S': 'k2'}}", "{'pk': {'S': 'k2'}}");
  /* An update that only takes away (REMOVE, DELETE from a set, legacy DELETE) from an item
   * that does not exist creates nothing and returns nothing, even ALL_NEW ("DELETE - Nothing
   * happens; there is no attribute to delete": AttributeValueUpdate). */
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'k3'}}, 'UpdateExpression': 'REMOVE q',"
               " 'ReturnValues': 'ALL_NEW'}",
               "{}");
  assert_item (e, "simple", "{'pk': {'S': 'k3'}}", NULL);
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'k3'}}, 'UpdateExpression': 'REMOVE q, "
               "r DELETE s :v', 'ExpressionAttributeValues': {':v': {'SS': ['a']}}, "
               "'ReturnValues': 'UPDATED_NEW'}",
               "{}");
  assert_item (e, "simple", "{'pk': {'S': 'k3'}}", NULL);
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'k3'}}, 'AttributeUpdates': {'q': "
               "{'Action': 'DELETE'}, 's': {'Action': 'DELETE', 'Value': {'NS': ['1']}}}, "
               "'ReturnValues': 'ALL_NEW'}",
               "{}");
  assert_item (e, "simple", "{'pk': {'S': 'k3'}}", NULL);
  /* Its condition is still checked, against no item. */
  etu_fails (e, "UpdateItem", DDB_ERROR_CONDITIONAL_CHECK_FAILED, "The conditional request failed",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'k3'}}, 'UpdateExpression': 'REMOVE q',"
             " 'ConditionExpression': 'attribute_exists(pk)'}");
  /* Anything that adds, alongside, creates the item as ever. */
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'k3'}}, 'UpdateExpression': 'REMOVE q "
               "ADD n :one', 'ExpressionAttributeValues': {':one': {'N': '1'}}, 'ReturnValues': "
               "'ALL_NEW'}",
               "{'Attributes': {'pk': {'S': 'k3'}, 'n': {'N': '1'}}}");
  /* On an item that exists, a REMOVE of everything but the key keeps the key-only item. */
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'k3'}}, 'UpdateExpression': 'REMOVE n',"
               " 'ReturnValues': 'ALL_NEW'}",
               "{'Attributes': {'pk': {'S': 'k3'}}}");
  assert_item (e, "simple", "{'pk': {'S': 'k3'}}", "{'pk': {'S': 'k3'}}");
  /* A nested REMOVE needs its parent even on a new item (DynamoDB Local 2.x answers so; the
   * docs say nothing either way), and nothing is created. */
  etu_fails (
      e, "UpdateItem", DDB_ERROR_VALIDATION,
      "The document path provided in the update expression is invalid for update",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'k4'}}, 'UpdateExpression': 'REMOVE q.r'}");
  assert_item (e, "simple", "{'pk': {'S': 'k4'}}", NULL);
  etu_fails (
      e, "UpdateItem", DDB_ERROR_VALIDATION,
      "The provided expression refers to an attribute that does not exist in the item",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'k5'}}, 'UpdateExpression': 'SET a = b'}");
  assert_item (e, "simple", "{'pk': {'S': 'k5'}}", NULL);
}

static void
test_update_key_and_index_rules (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *req;

  etu_fails (e, "UpdateItem", DDB_ERROR_VALIDATION,
             "One or more parameter values were invalid: Cannot update attribute pk. This "
             "attribute is part of the key",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'a'}}, 'UpdateExpression': 'SET pk = :v',"
             " 'ExpressionAttributeValues': {':v': {'S': 'b'}}}");
  etu_fails (e, "UpdateItem", DDB_ERROR_VALIDATION,
             "One or more parameter values were invalid: Cannot update attribute sk. This "
             "attribute is part of the key",
             "{'TableName': 'coll', 'Key': {'pk': {'S': 'a'}, 'sk': {'S': 'b'}},"
             " 'UpdateExpression': 'REMOVE sk'}");
  etu_fails (
      e, "UpdateItem", DDB_ERROR_VALIDATION,
      "One or more parameter values were invalid: Cannot update attribute pk. This "
      "attribute is part of the key",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'a'}}, 'UpdateExpression': 'SET pk.x = :v',"
      " 'ExpressionAttributeValues': {':v': {'S': 'b'}}}");
  etu_fails (
      e, "UpdateItem", DDB_ERROR_VALIDATION,
      "One or more parameter values were invalid: Type mismatch for Index Key lsk "
      "Expected: S Actual: N IndexName: gsi1",
      "{'TableName': 'coll', 'Key': {'pk': {'S': 'a'}, 'sk': {'S': 'b'}},"
      " 'UpdateExpression': 'SET lsk = :v', 'ExpressionAttributeValues': {':v': {'N': '5'}}}");
  etu_fails (
      e, "UpdateItem", DDB_ERROR_VALIDATION,
      "One or more parameter values are not valid. The update expression attempted to "
      "update a secondary index key to a value that is not supported. The AttributeValue "
      "for a key attribute cannot contain an empty string value.",
      "{'TableName': 'coll', 'Key': {'pk': {'S': 'a'}, 'sk': {'S': 'b'}},"
      " 'UpdateExpression': 'SET lsk = :v', 'ExpressionAttributeValues': {':v': {'S': ''}}}");
  assert_item (e, "coll", "{'pk': {'S': 'a'}, 'sk': {'S': 'b'}}", NULL);

  /* 400 KB after the update. */
  req = json_pack ("{s:s, s:{s:{s:s}}, s:s, s:{s:o}}", "TableName", "simple", "Key", "pk", "S",
                   "big", "UpdateExpression", "SET d = :d, e = :d", "ExpressionAttributeValues",
                   ":d", big_string (250 * 1024));
  etu_call_fails (e, "UpdateItem", req, DDB_ERROR_VALIDATION,
                  "Item size to update has exceeded the maximum allowed size");
  json_decref (req);
  assert_item (e, "simple", "{'pk': {'S': 'big'}}", NULL);
}

/* UPDATED_OLD / UPDATED_NEW on list elements, sets, functions and AttributeUpdates: the touched
 * paths only, list elements at their position as a projection gives them. */
static void
test_return_values_paths (void)
{
  g_autoptr (DdbEngine) e = engine_new ();

  call_expect (e, "PutItem",
               "{'TableName': 'simple', 'Item': {'pk': {'S': 'r'}, 'info': {'M': {'rating': "
               "{'N': '5'}, 'plot': {'S': 'p'}, 'yr': {'N': '2015'}, 'c': {'L': [{'S': 'x'}, "
               "{'S': 'y'}, {'S': 'z'}]}}}, 's': {'SS': ['a', 'b']}, 'n': {'N': '1'}}}",
               "{}");
  /* The tutorial's update: only the members set, not yr or c. */
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}},"
               " 'UpdateExpression': 'set info.rating=:r, info.plot=:p',"
               " 'ExpressionAttributeValues': {':r': {'N': '5.5'}, ':p': {'S': 'q'}},"
               " 'ReturnValues': 'UPDATED_NEW'}",
               "{'Attributes': {'info': {'M': {'rating': {'N': '5.5'}, 'plot': {'S': 'q'}}}}}");
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}},"
               " 'UpdateExpression': 'SET info.c[2] = :v', 'ExpressionAttributeValues': "
               "{':v': {'S': 'Z'}}, 'ReturnValues': 'UPDATED_OLD'}",
               "{'Attributes': {'info': {'M': {'c': {'L': [{'S': 'z'}]}}}}}");
  /* Past the end: the element lands at the list's end (index 3) and is returned from there;
   * the REMOVE of c[0] moves c[2] down to index 1. */
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}},"
               " 'UpdateExpression': 'SET info.c[9] = :v, info.c[2] = :w REMOVE info.c[0]',"
               " 'ExpressionAttributeValues': {':v': {'S': 'end'}, ':w': {'S': 'two'}},"
               " 'ReturnValues': 'UPDATED_NEW'}",
               "{'Attributes': {'info': {'M': {'c': {'L': [{'S': 'two'}, {'S': 'end'}]}}}}}");
  assert_item (e, "simple", "{'pk': {'S': 'r'}}",
               "{'pk': {'S': 'r'}, 'info': {'M': {'rating': {'N': '5.5'}, 'plot': {'S': 'q'}, "
               "'yr': {'N': '2015'}, 'c': {'L': [{'S': 'y'}, {'S': 'two'}, {'S': 'end'}]}}}, "
               "'s': {'SS': ['a', 'b']}, 'n': {'N': '1'}}");
  /* A path past the end did not exist before: nothing, so no Attributes. */
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}},"
               " 'UpdateExpression': 'SET info.c[7] = :v, info.nope = :v',"
               " 'ExpressionAttributeValues': {':v': {'S': 'x'}}, 'ReturnValues': 'UPDATED_OLD'}",
               "{}");
  /* REMOVE gives nothing new; ADD and DELETE on sets return the whole set. */
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}},"
               " 'UpdateExpression': 'REMOVE info.yr ADD s :a', "
               "'ExpressionAttributeValues': {':a': {'SS': ['c']}}, 'ReturnValues': 'UPDATED_NEW'}",
               "{'Attributes': {'s': {'SS': ['a', 'b', 'c']}}}");
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}},"
               " 'UpdateExpression': 'DELETE s :a', "
               "'ExpressionAttributeValues': {':a': {'SS': ['a']}}, 'ReturnValues': 'UPDATED_OLD'}",
               "{'Attributes': {'s': {'SS': ['a', 'b', 'c']}}}");
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}},"
               " 'UpdateExpression': 'SET info.c = list_append(info.c, :l), info.k = "
               "if_not_exists(info.k, :k)',"
               " 'ExpressionAttributeValues': {':l': {'L': [{'N': '1'}]}, ':k': {'N': '0'}},"
               " 'ReturnValues': 'UPDATED_NEW'}",
               "{'Attributes': {'info': {'M': {'c': {'L': [{'S': 'y'}, {'S': 'two'}, {'S': "
               "'end'}, {'S': 'x'}, {'N': '1'}]}, 'k': {'N': '0'}}}}}");
  /* AttributeUpdates: top-level attributes. */
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}},"
               " 'AttributeUpdates': {'n': {'Action': 'ADD', 'Value': {'N': '2'}},"
               " 'fresh': {'Action': 'PUT', 'Value': {'S': 'f'}}}, 'ReturnValues': 'UPDATED_OLD'}",
               "{'Attributes': {'n': {'N': '1'}}}");
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}},"
               " 'AttributeUpdates': {'n': {'Action': 'DELETE'}}, 'ReturnValues': 'UPDATED_NEW'}",
               "{}");
}

static void
test_return_values (void)
{
  g_autoptr (DdbEngine) e = engine_new ();

  call_expect (e, "PutItem",
               "{'TableName': 'simple', 'Item': {'pk': {'S': 'r'}, 'm': {'M': {'a': {'N': '1'}, "
               "'b': {'N': '2'}}},"
               " 'gone': {'S': 'x'}, 'keep': {'S': 'k'}}, 'ReturnValues': 'ALL_OLD'}",
               "{}");
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION, "Return values set to invalid value",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'r'}}, 'ReturnValues': 'ALL_NEW'}");
  etu_fails (e, "DeleteItem", DDB_ERROR_VALIDATION, "Return values set to invalid value",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}}, 'ReturnValues': 'UPDATED_OLD'}");
  etu_fails (e, "UpdateItem", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value 'EVERYTHING' at 'returnValues' failed to "
             "satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, "
             "ALL_OLD, NONE, UPDATED_NEW]",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}}, 'ReturnValues': 'EVERYTHING'}");
  /* UPDATED_* return only the paths updated, not the whole top-level attribute. */
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}},"
               " 'UpdateExpression': 'SET m.a = :v, z = :v REMOVE gone', "
               "'ExpressionAttributeValues': {':v': {'N': '5'}},"
               " 'ReturnValues': 'UPDATED_NEW'}",
               "{'Attributes': {'m': {'M': {'a': {'N': '5'}}}, 'z': {'N': '5'}}}");
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}},"
               " 'UpdateExpression': 'SET m.a = :v, gone = :v', 'ExpressionAttributeValues': "
               "{':v': {'N': '6'}},"
               " 'ReturnValues': 'UPDATED_OLD'}",
               "{'Attributes': {'m': {'M': {'a': {'N': '5'}}}}}");
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'new'}},"
               " 'UpdateExpression': 'SET a = :v', 'ExpressionAttributeValues': {':v': {'N': '6'}},"
               " 'ReturnValues': 'UPDATED_OLD'}",
               "{}");
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}},"
               " 'UpdateExpression': 'REMOVE gone', 'ReturnValues': 'ALL_OLD'}",
               "{'Attributes': {'pk': {'S': 'r'}, 'm': {'M': {'a': {'N': '6'}, 'b': {'N': '2'}}},"
               " 'gone': {'N': '6'}, 'keep': {'S': 'k'}, 'z': {'N': '5'}}}");
  call_expect (e, "PutItem",
               "{'TableName': 'simple', 'Item': {'pk': {'S': 'r'}}, 'ReturnValues': 'ALL_OLD'}",
               "{'Attributes': {'pk': {'S': 'r'}, 'm': {'M': {'a': {'N': '6'}, 'b': {'N': '2'}}},"
               " 'keep': {'S': 'k'}, 'z': {'N': '5'}}}");
  call_expect (e, "DeleteItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}}, 'ReturnValues': 'ALL_OLD'}",
               "{'Attributes': {'pk': {'S': 'r'}}}");
  call_expect (e, "DeleteItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'r'}}, 'ReturnValues': 'ALL_OLD'}",
               "{}");
}

/* ---- GetItem ---- */

static void
test_get_item (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *req, *resp;

  etu_put (e, "simple",
           "{'pk': {'S': 'g'}, 'a': {'M': {'b': {'L': [{'N': '1'}, {'N': '2'}]}, 'c': {'S': 'x'}}},"
           " 'name': {'S': 'n'}, 'misc': {'S': 'o'}}");
  call_expect (
      e, "GetItem",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'g'}}, 'ProjectionExpression': 'a.b[1], #n',"
      " 'ExpressionAttributeNames': {'#n': 'name'}}",
      "{'Item': {'a': {'M': {'b': {'L': [{'N': '2'}]}}}, 'name': {'S': 'n'}}}");
  /* GetItem has no ExpressionAttributeValues: they are ignored, not refused. */
  call_expect (e, "GetItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'g'}}, 'ProjectionExpression': 'misc',"
               " 'ExpressionAttributeValues': {':x': {'S': 'x'}}}",
               "{'Item': {'misc': {'S': 'o'}}}");
  call_expect (
      e, "GetItem",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'g'}}, 'ProjectionExpression': 'nothing'}",
      "{'Item': {}}");
  etu_fails (e, "GetItem", DDB_ERROR_VALIDATION,
             "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved "
             "keyword: name",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'g'}}, 'ProjectionExpression': 'name'}");
  call_expect (
      e, "GetItem",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'g'}}, 'AttributesToGet': ['misc', 'pk']}",
      "{'Item': {'pk': {'S': 'g'}, 'misc': {'S': 'o'}}}");
  etu_fails (e, "GetItem", DDB_ERROR_VALIDATION,
             "Can not use both expression and non-expression parameters in the same request: "
             "Non-expression parameters: {AttributesToGet} Expression parameters: "
             "{ProjectionExpression}",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'g'}}, 'AttributesToGet': ['misc'],"
             " 'ProjectionExpression': 'misc'}");
  etu_fails (e, "GetItem", DDB_ERROR_SERIALIZATION, "Unexpected token received from parser",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'g'}}, 'ConsistentRead': 'yes'}");

  /* Capacity: 4 KB per read unit, half for an eventually consistent read, at least 0.5. */
  call_expect (
      e, "GetItem",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'none'}}, 'ReturnConsumedCapacity': 'TOTAL'}",
      "{'ConsumedCapacity': {'TableName': 'simple', 'CapacityUnits': 0.5}}");
  req = json_pack ("{s:s, s:{s:{s:s}, s:o}}", "TableName", "simple", "Item", "pk", "S", "big", "d",
                   big_string (9000));
  json_decref (etu_call_ok (e, "PutItem", req));
  json_decref (req);
  call_expect (
      e, "GetItem",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'big'}}, 'ReturnConsumedCapacity': 'TOTAL',"
      " 'ProjectionExpression': 'pk', 'ConsistentRead': true}",
      "{'Item': {'pk': {'S': 'big'}}, 'ConsumedCapacity': {'TableName': 'simple', 'CapacityUnits': "
      "3.0}}");
  call_expect (
      e, "GetItem",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'big'}}, 'ReturnConsumedCapacity': 'INDEXES',"
      " 'ProjectionExpression': 'pk'}",
      "{'Item': {'pk': {'S': 'big'}}, 'ConsumedCapacity': {'TableName': 'simple', 'CapacityUnits': "
      "1.5,"
      " 'Table': {'CapacityUnits': 1.5}}}");
  resp = etu_fails (
      e, "GetItem", DDB_ERROR_VALIDATION,
      "1 validation error detected: Value 'ALL' at 'returnConsumedCapacity' failed "
      "to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'big'}}, 'ReturnConsumedCapacity': 'ALL'}");
  g_assert_null (resp);
}

/* ---- Write capacity and item collection metrics ---- */

static void
test_write_capacity (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *req;

  call_expect (
      e, "PutItem",
      "{'TableName': 'simple', 'Item': {'pk': {'S': 'c'}}, 'ReturnConsumedCapacity': 'TOTAL'}",
      "{'ConsumedCapacity': {'TableName': 'simple', 'CapacityUnits': 1.0}}");
  req = json_pack ("{s:s, s:{s:{s:s}, s:o}, s:s}", "TableName", "simple", "Item", "pk", "S", "c",
                   "d", big_string (2500), "ReturnConsumedCapacity", "TOTAL");
  {
    json_t *resp = etu_call_ok (e, "PutItem", req);

    etu_assert_json (resp, "{'ConsumedCapacity': {'TableName': 'simple', 'CapacityUnits': 3.0}}");
    json_decref (resp);
  }
  json_decref (req);
  /* The larger of the old and new sizes. */
  call_expect (
      e, "PutItem",
      "{'TableName': 'simple', 'Item': {'pk': {'S': 'c'}}, 'ReturnConsumedCapacity': 'TOTAL'}",
      "{'ConsumedCapacity': {'TableName': 'simple', 'CapacityUnits': 3.0}}");
  call_expect (
      e, "DeleteItem",
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'c'}}, 'ReturnConsumedCapacity': 'TOTAL'}",
      "{'ConsumedCapacity': {'TableName': 'simple', 'CapacityUnits': 1.0}}");

  /* Indexes: an entry added costs one write; a key change two; a change outside the
   * projection none. */
  call_expect (
      e, "PutItem",
      "{'TableName': 'coll', 'Item': {'pk': {'S': 'p'}, 'sk': {'S': 's'}, 'lsk': {'S': 'l1'},"
      " 'gn': {'N': '1'}, 'x': {'S': 'x'}, 'y': {'S': 'y'}}, 'ReturnConsumedCapacity': 'INDEXES'}",
      "{'ConsumedCapacity': {'TableName': 'coll', 'CapacityUnits': 3.0, 'Table': {'CapacityUnits': "
      "1.0},"
      " 'LocalSecondaryIndexes': {'lsi1': {'CapacityUnits': 1.0}},"
      " 'GlobalSecondaryIndexes': {'gsi1': {'CapacityUnits': 1.0}}}}");
  call_expect (
      e, "UpdateItem",
      "{'TableName': 'coll', 'Key': {'pk': {'S': 'p'}, 'sk': {'S': 's'}},"
      " 'UpdateExpression': 'SET y = :v', 'ExpressionAttributeValues': {':v': {'S': 'yy'}},"
      " 'ReturnConsumedCapacity': 'INDEXES'}",
      "{'ConsumedCapacity': {'TableName': 'coll', 'CapacityUnits': 2.0, 'Table': {'CapacityUnits': "
      "1.0},"
      " 'LocalSecondaryIndexes': {'lsi1': {'CapacityUnits': 1.0}}}}");
  call_expect (
      e, "UpdateItem",
      "{'TableName': 'coll', 'Key': {'pk': {'S': 'p'}, 'sk': {'S': 's'}},"
      " 'UpdateExpression': 'SET gn = :v', 'ExpressionAttributeValues': {':v': {'N': '2'}},"
      " 'ReturnConsumedCapacity': 'TOTAL'}",
      "{'ConsumedCapacity': {'TableName': 'coll', 'CapacityUnits': 4.0}}");
  call_expect (e, "DeleteItem",
               "{'TableName': 'coll', 'Key': {'pk': {'S': 'p'}, 'sk': {'S': 's'}},"
               " 'ReturnConsumedCapacity': 'INDEXES'}",
               "{'ConsumedCapacity': {'TableName': 'coll', 'CapacityUnits': 3.0, 'Table': "
               "{'CapacityUnits': 1.0},"
               " 'LocalSecondaryIndexes': {'lsi1': {'CapacityUnits': 1.0}},"
               " 'GlobalSecondaryIndexes': {'gsi1': {'CapacityUnits': 1.0}}}}");
}

static void
test_item_collection_metrics (void)
{
  g_autoptr (DdbEngine) e = engine_new ();

  call_expect (e, "PutItem",
               "{'TableName': 'coll', 'Item': {'pk': {'S': 'p'}, 'sk': {'S': 's'}},"
               " 'ReturnItemCollectionMetrics': 'SIZE'}",
               "{'ItemCollectionMetrics': {'ItemCollectionKey': {'pk': {'S': 'p'}},"
               " 'SizeEstimateRangeGB': [0.0, 1.0]}}");
  call_expect (e, "DeleteItem",
               "{'TableName': 'coll', 'Key': {'pk': {'S': 'p'}, 'sk': {'S': 's'}},"
               " 'ReturnItemCollectionMetrics': 'SIZE'}",
               "{'ItemCollectionMetrics': {'ItemCollectionKey': {'pk': {'S': 'p'}},"
               " 'SizeEstimateRangeGB': [0.0, 1.0]}}");
  /* No local secondary index, no metrics. */
  call_expect (
      e, "PutItem",
      "{'TableName': 'simple', 'Item': {'pk': {'S': 'p'}}, 'ReturnItemCollectionMetrics': 'SIZE'}",
      "{}");
  etu_fails (
      e, "PutItem", DDB_ERROR_VALIDATION,
      "1 validation error detected: Value 'ALL' at 'returnItemCollectionMetrics' failed "
      "to satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]",
      "{'TableName': 'simple', 'Item': {'pk': {'S': 'p'}}, 'ReturnItemCollectionMetrics': 'ALL'}");
}

/* ---- Legacy parameters ---- */

static void
test_legacy (void)
{
  g_autoptr (DdbEngine) e = engine_new ();

  etu_put (e, "simple", "{'pk': {'S': 'l'}, 'v': {'N': '1'}, 's': {'SS': ['a', 'b']}}");
  etu_fails (
      e, "PutItem", DDB_ERROR_CONDITIONAL_CHECK_FAILED, "The conditional request failed",
      "{'TableName': 'simple', 'Item': {'pk': {'S': 'l'}}, 'Expected': {'v': {'Exists': false}}}");
  call_expect (e, "UpdateItem",
               "{'TableName': 'simple', 'Key': {'pk': {'S': 'l'}},"
               " 'Expected': {'v': {'Value': {'N': '1'}}},"
               " 'AttributeUpdates': {'v': {'Action': 'ADD', 'Value': {'N': '2'}},"
               " 's': {'Action': 'DELETE', 'Value': {'SS': ['a']}}, 'w': {'Value': {'S': 'w'}}},"
               " 'ReturnValues': 'UPDATED_NEW'}",
               "{'Attributes': {'v': {'N': '3'}, 's': {'SS': ['b']}, 'w': {'S': 'w'}}}");
  etu_fails (e, "UpdateItem", DDB_ERROR_VALIDATION,
             "One or more parameter values were invalid: Cannot update attribute pk. This "
             "attribute is part of the key",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'l'}},"
             " 'AttributeUpdates': {'pk': {'Action': 'PUT', 'Value': {'S': 'z'}}}}");
  etu_fails (
      e, "PutItem", DDB_ERROR_VALIDATION,
      "Can not use both expression and non-expression parameters in the same request: "
      "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}",
      "{'TableName': 'simple', 'Item': {'pk': {'S': 'l'}}, 'Expected': {'v': {'Exists': false}},"
      " 'ConditionExpression': 'attribute_exists(v)'}");
  assert_item (e, "simple", "{'pk': {'S': 'l'}}",
               "{'pk': {'S': 'l'}, 'v': {'N': '3'}, 's': {'SS': ['b']}, 'w': {'S': 'w'}}");

  /* An empty Expected is no condition. */
  call_expect (e, "PutItem", "{'TableName': 'simple', 'Item': {'pk': {'S': 'm'}}, 'Expected': {}}",
               "{}");
  assert_item (e, "simple", "{'pk': {'S': 'm'}}", "{'pk': {'S': 'm'}}");
  /* ConditionalOperator needs Expected, and two or more conditions in it (DynamoDB Local 2.x's
   * words). */
  etu_fails (e, "PutItem", DDB_ERROR_VALIDATION,
             "ConditionalOperator cannot be used without Filter or Expected",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'n'}}, 'ConditionalOperator': 'AND'}");
  etu_fails (e, "DeleteItem", DDB_ERROR_VALIDATION,
             "ConditionalOperator can only be used when Filter or Expected has two or more "
             "elements",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 'm'}}, 'ConditionalOperator': 'OR',"
             " 'Expected': {'v': {'Exists': false}}}");
  assert_item (e, "simple", "{'pk': {'S': 'n'}}", NULL);
  assert_item (e, "simple", "{'pk': {'S': 'm'}}", "{'pk': {'S': 'm'}}");
  /* NOT_CONTAINS needs the attribute: on a missing one the condition fails. */
  etu_fails (e, "PutItem", DDB_ERROR_CONDITIONAL_CHECK_FAILED, "The conditional request failed",
             "{'TableName': 'simple', 'Item': {'pk': {'S': 'm'}, 'x': {'N': '1'}}, 'Expected': "
             "{'q': {'ComparisonOperator': 'NOT_CONTAINS', 'AttributeValueList': [{'S': 'z'}]}}}");
  call_expect (e, "PutItem",
               "{'TableName': 'simple', 'Item': {'pk': {'S': 'l'}}, 'Expected': {'s': "
               "{'ComparisonOperator': 'NOT_CONTAINS', 'AttributeValueList': [{'S': 'z'}]}}}",
               "{}");
  /* ADD or DELETE of a set into an attribute of another type, in AttributeUpdates' words. */
  etu_put (e, "simple", "{'pk': {'S': 't'}, 'str': {'S': 'x'}, 'num': {'N': '1'}}");
  etu_fails (e, "UpdateItem", DDB_ERROR_VALIDATION, "Type mismatch for attribute to update",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 't'}}, 'AttributeUpdates': {'str': "
             "{'Action': 'ADD', 'Value': {'SS': ['q']}}}}");
  etu_fails (e, "UpdateItem", DDB_ERROR_VALIDATION, "Type mismatch for attribute to update",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 't'}}, 'AttributeUpdates': {'num': "
             "{'Action': 'DELETE', 'Value': {'SS': ['q']}}}}");
  etu_fails (e, "UpdateItem", DDB_ERROR_VALIDATION,
             "An operand in the update expression has an incorrect data type",
             "{'TableName': 'simple', 'Key': {'pk': {'S': 't'}}, 'UpdateExpression': 'ADD str :v',"
             " 'ExpressionAttributeValues': {':v': {'SS': ['q']}}}");
  assert_item (e, "simple", "{'pk': {'S': 't'}}",
               "{'pk': {'S': 't'}, 'str': {'S': 'x'}, 'num': {'N': '1'}}");
}

/* ---- Prepared writes (what the transactions use) ---- */

static void
test_prepared_writes (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  g_autoptr (DdbPreparedWrite) a = NULL;
  g_autoptr (DdbPreparedWrite) b = NULL;
  g_autoptr (DdbPreparedWrite) c = NULL;
  json_t *req, *extra = NULL;
  GError *error = NULL;
  DdbCapacity cap;

  etu_put (e, "simple", "{'pk': {'S': 'x'}, 'v': {'N': '1'}}");
  req = etu_json (
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'x'}}, 'UpdateExpression': 'SET v = v + :d',"
      " 'ExpressionAttributeValues': {':d': {'N': '1'}}, 'ReturnValues': 'ALL_NEW',"
      " 'ReturnValuesOnConditionCheckFailure': 'ALL_OLD', 'ConditionExpression': 'v = :d'}");
  a = ddb_write_prepare (e->store, DDB_WRITE_UPDATE, req, NULL, DDB_WRITE_IN_TRANSACTION, &error);
  g_assert_no_error (error);
  g_assert_nonnull (a);
  /* A transaction item has no ReturnValues member: it is dropped unread. */
  g_assert_cmpint (a->return_values, ==, DDB_RV_NONE);
  g_assert_true (a->return_old_on_failure);
  json_decref (req);

  req = etu_json ("{'Item': {'pk': {'S': 'y'}}, 'ConditionExpression': 'bogus('}");
  b = ddb_write_prepare (e->store, DDB_WRITE_PUT, req, "simple", DDB_WRITE_IN_BATCH, &error);
  g_assert_no_error (error);
  g_assert_null (b->condition);
  json_decref (req);

  req = etu_json (
      "{'TableName': 'simple', 'Key': {'pk': {'S': 'x'}}, 'ConditionExpression': 'v = :two',"
      " 'ExpressionAttributeValues': {':two': {'N': '2'}}}");
  c = ddb_write_prepare (e->store, DDB_WRITE_CONDITION_CHECK, req, NULL, DDB_WRITE_IN_TRANSACTION,
                         &error);
  g_assert_no_error (error);
  json_decref (req);

  /* Every condition is checked before anything is written. */
  g_assert_true (ddb_store_begin (e->store, &error));
  g_assert_true (ddb_write_check (e->store, a, &extra, &error));
  g_assert_true (ddb_write_check (e->store, b, &extra, &error));
  g_assert_false (ddb_write_check (e->store, c, &extra, &error));
  tu_assert_error (error, DDB_ERROR_CONDITIONAL_CHECK_FAILED, "The conditional request failed");
  g_assert_null (extra); /* c did not ask for the old item */
  g_clear_error (&error);
  ddb_store_rollback (e->store);
  assert_item (e, "simple", "{'pk': {'S': 'x'}}", "{'pk': {'S': 'x'}, 'v': {'N': '1'}}");

  g_assert_true (ddb_store_begin (e->store, &error));
  g_assert_true (ddb_write_check (e->store, a, &extra, &error));
  g_assert_true (ddb_write_check (e->store, b, &extra, &error));
  g_assert_true (ddb_write_apply (e->store, a, &error));
  g_assert_true (ddb_write_apply (e->store, b, &error));
  g_assert_true (ddb_store_commit (e->store, &error));
  g_assert_no_error (error);
  assert_item (e, "simple", "{'pk': {'S': 'x'}}", "{'pk': {'S': 'x'}, 'v': {'N': '2'}}");
  assert_item (e, "simple", "{'pk': {'S': 'y'}}", "{'pk': {'S': 'y'}}");

  ddb_capacity_init (&cap, "simple");
  ddb_write_add_capacity (a, &cap, 2.0);
  g_assert_cmpfloat (cap.table_write, ==, 2.0);
  ddb_capacity_clear (&cap);

  /* The condition check failing again, now asking for the old item. */
  g_assert_false (ddb_write_check (e->store, a, &extra, &error));
  tu_assert_error (error, DDB_ERROR_CONDITIONAL_CHECK_FAILED, "The conditional request failed");
  g_clear_error (&error);
  etu_assert_json (extra, "{'Item': {'pk': {'S': 'x'}, 'v': {'N': '2'}}}");
  json_decref (extra);

  /* A ConditionCheck without its condition. */
  req = etu_json ("{'TableName': 'simple', 'Key': {'pk': {'S': 'x'}}}");
  g_assert_null (ddb_write_prepare (e->store, DDB_WRITE_CONDITION_CHECK, req, NULL,
                                    DDB_WRITE_IN_TRANSACTION, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "1 validation error detected: Value null at 'conditionExpression' failed to "
                   "satisfy constraint: Member must not be null");
  g_clear_error (&error);
  json_decref (req);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/item-ops/request/table-name", test_table_name);
  g_test_add_func ("/item-ops/request/readers", test_readers);
  g_test_add_func ("/item-ops/request/capacity-units", test_capacity_units);
  g_test_add_func ("/item-ops/put/roundtrip", test_put_get_roundtrip);
  g_test_add_func ("/item-ops/put/nul-in-strings", test_nul_in_strings);
  g_test_add_func ("/item-ops/put/checks", test_put_item_checks);
  g_test_add_func ("/item-ops/request/empty-attribute-name", test_empty_attribute_name);
  g_test_add_func ("/item-ops/key/checks", test_key_checks);
  g_test_add_func ("/item-ops/expression-maps", test_expression_maps);
  g_test_add_func ("/item-ops/condition", test_condition);
  g_test_add_func ("/item-ops/seed-rename", test_seed_rename);
  g_test_add_func ("/item-ops/update/arithmetic", test_update_arithmetic);
  g_test_add_func ("/item-ops/update/new-item", test_update_new_item);
  g_test_add_func ("/item-ops/update/key-and-index-rules", test_update_key_and_index_rules);
  g_test_add_func ("/item-ops/return-values", test_return_values);
  g_test_add_func ("/item-ops/return-values-paths", test_return_values_paths);
  g_test_add_func ("/item-ops/get", test_get_item);
  g_test_add_func ("/item-ops/capacity/write", test_write_capacity);
  g_test_add_func ("/item-ops/item-collection-metrics", test_item_collection_metrics);
  g_test_add_func ("/item-ops/legacy", test_legacy);
  g_test_add_func ("/item-ops/prepared-writes", test_prepared_writes);
  return g_test_run ();
}
