/* test-batch-ops.c: BatchGetItem, BatchWriteItem, TransactWriteItems and TransactGetItems
 * through ddb_engine_call: limits and DynamoDB's messages, UnprocessedKeys at 16 MB, and
 * all-or-nothing transactions with their CancellationReasons. */
#include <glib.h>
#include <jansson.h>
#include <sqlite3.h>
#include <string.h>

#include "../core/test-util.h"
#include "engine-test-util.h"
#include "engine/batch-ops.h"
#include "engine/engine-private.h"
#include "engine/engine.h"

/* The engine's dispatch table refers to the operations weakly; referring to them here makes
 * sure the linker keeps this file's operations in the test binary. */
static DdbOperation keep[] = {
  ddb_op_batch_get_item, ddb_op_batch_write_item, ddb_op_transact_write_items,
  ddb_op_transact_get_items, ddb_op_put_item, ddb_op_get_item, ddb_op_update_item,
};

/* The tables "posts" (pk S) and "authors" (id N). */
static DdbEngine *
engine_new (void)
{
  DdbEngine *e = etu_engine_new ();

  etu_create_table (e, "posts", "pk", "S");
  etu_create_table (e, "authors", "id", "N");
  return e;
}

static json_t *
get_item (DdbEngine *e, const char *table, const char *key_json)
{
  g_autofree char *req = g_strdup_printf ("{'TableName': '%s', 'Key': %s, 'ConsistentRead': "
                                          "true}",
                                          table, key_json);
  json_t *resp = etu_ok (e, "GetItem", "%s", req);
  json_t *item = json_incref (json_object_get (resp, "Item"));

  json_decref (resp);
  return item; /* NULL when absent */
}

/* ---- BatchGetItem ------------------------------------------------------------------- */

static void
test_batch_get_basic (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *resp;

  etu_put (e, "posts", "{'pk': {'S': 'p1'}, 'title': {'S': 'One'}, 'body': {'S': 'x'}}");
  etu_put (e, "posts", "{'pk': {'S': 'p2'}, 'title': {'S': 'Two'}}");
  etu_put (e, "authors", "{'id': {'N': '7'}, 'name': {'S': 'Ann'}}");

  resp = etu_ok (e, "BatchGetItem",
                 "{'RequestItems': {'posts': {'Keys': [{'pk': {'S': 'p1'}}, {'pk': {'S': "
                 "'p2'}}, {'pk': {'S': 'nope'}}], 'ProjectionExpression': '#t', "
                 "'ExpressionAttributeNames': {'#t': 'title'}}, 'authors': {'Keys': [{'id': "
                 "{'N': '7.0'}}], 'ConsistentRead': true}}, 'ReturnConsumedCapacity': 'TOTAL'}");
  etu_assert_json (json_object_get (resp, "Responses"),
                   "{'posts': [{'title': {'S': 'One'}}, {'title': {'S': 'Two'}}], "
                   "'authors': [{'id': {'N': '7'}, 'name': {'S': 'Ann'}}]}");
  etu_assert_json (json_object_get (resp, "UnprocessedKeys"), "{}");
  /* Two eventually consistent reads of under 4 KB, one strongly consistent; the missing key
   * costs nothing: "DynamoDB first rounds up the size of each item to the next 4 KB
   * boundary, and then calculates the total size" (Capacity unit consumption for reads). */
  etu_assert_json (json_object_get (resp, "ConsumedCapacity"),
                   "[{'TableName': 'posts', 'CapacityUnits': 1.0}, "
                   "{'TableName': 'authors', 'CapacityUnits': 1.0}]");
  json_decref (resp);

  /* AttributesToGet names are literal. */
  resp = etu_ok (e, "BatchGetItem",
                 "{'RequestItems': {'posts': {'Keys': [{'pk': {'S': 'p1'}}], "
                 "'AttributesToGet': ['body']}}}");
  etu_assert_json (json_object_get (resp, "Responses"), "{'posts': [{'body': {'S': 'x'}}]}");
  g_assert_null (json_object_get (resp, "ConsumedCapacity"));
  json_decref (resp);
}

static json_t *
keys_json (const char *attr, guint from, guint n)
{
  json_t *keys = json_array ();

  for (guint i = from; i < from + n; i++)
    {
      g_autofree char *v = g_strdup_printf ("k%03u", i);
      json_array_append_new (keys, json_pack ("{s:{s:s}}", attr, "S", v));
    }
  return keys;
}

static void
test_batch_get_errors (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *req;

  etu_fails (e, "BatchGetItem", DDB_ERROR_VALIDATION,
             "The requestItems parameter is required for BatchGetItem", "{'RequestItems': {}}");
  etu_fails (e, "BatchGetItem", DDB_ERROR_VALIDATION,
             "The requestItems parameter is required for BatchGetItem", "{}");

  req = json_pack ("{s:{s:{s:o}}}", "RequestItems", "posts", "Keys", keys_json ("pk", 0, 101));
  etu_call_fails (e, "BatchGetItem", req, DDB_ERROR_VALIDATION,
                  "1 validation error detected: Value at 'RequestItems.posts.member.Keys' failed "
                  "to satisfy constraint: Member must have length less than or equal to 100");
  json_decref (req);
  etu_fails (e, "BatchGetItem", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value at 'RequestItems.posts.member.Keys' failed to "
             "satisfy constraint: Member must have length greater than or equal to 1",
             "{'RequestItems': {'posts': {'Keys': []}}}");

  /* 100 per table is fine, but not 101 in all. */
  req = json_pack ("{s:{s:{s:o},s:{s:o}}}", "RequestItems", "posts", "Keys",
                   keys_json ("pk", 0, 60), "other", "Keys", keys_json ("pk", 0, 41));
  etu_call_fails (e, "BatchGetItem", req, DDB_ERROR_VALIDATION,
                  "Too many items requested for the BatchGetItem call");
  json_decref (req);

  etu_fails (e, "BatchGetItem", DDB_ERROR_VALIDATION,
             "Provided list of item keys contains duplicates",
             "{'RequestItems': {'posts': {'Keys': [{'pk': {'S': 'a'}}, {'pk': {'S': 'b'}}, "
             "{'pk': {'S': 'a'}}]}}}");
  /* Numbers are one key whatever their spelling. */
  etu_fails (e, "BatchGetItem", DDB_ERROR_VALIDATION,
             "Provided list of item keys contains duplicates",
             "{'RequestItems': {'authors': {'Keys': [{'id': {'N': '1'}}, {'id': {'N': "
             "'1.00'}}]}}}");
  etu_fails (e, "BatchGetItem", DDB_ERROR_VALIDATION,
             "Can not use both expression and non-expression parameters in the same request: "
             "Non-expression parameters: {AttributesToGet} Expression parameters: "
             "{ProjectionExpression}",
             "{'RequestItems': {'posts': {'Keys': [{'pk': {'S': 'a'}}], 'AttributesToGet': "
             "['a'], 'ProjectionExpression': 'a'}}}");
  etu_fails (e, "BatchGetItem", DDB_ERROR_VALIDATION,
             "Can not use both expression and non-expression parameters in the same request: "
             "Non-expression parameters: {AttributesToGet} Expression parameters: "
             "{ProjectionExpression}",
             "{'RequestItems': {'posts': {'Keys': [{'pk': {'S': 'a'}}], "
             "'ProjectionExpression': 'a'}, 'authors': {'Keys': [{'id': {'N': '1'}}], "
             "'AttributesToGet': ['a']}}}");
  etu_fails (e, "BatchGetItem", DDB_ERROR_RESOURCE_NOT_FOUND, NULL,
             "{'RequestItems': {'missing': {'Keys': [{'pk': {'S': 'a'}}]}}}");
  etu_fails (e, "BatchGetItem", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value null at 'requestItems.posts.member.keys' "
             "failed to satisfy constraint: Member must not be null",
             "{'RequestItems': {'posts': {}}}");
  etu_fails (e, "BatchGetItem", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value 'ab' at 'requestItems' failed to satisfy "
             "constraint: Map keys must satisfy constraint: [Member must have length less than "
             "or equal to 255, Member must have length greater than or equal to 3, Member must "
             "satisfy regular expression pattern: [a-zA-Z0-9_.-]+]",
             "{'RequestItems': {'ab': {'Keys': [{'pk': {'S': 'a'}}]}}}");
}

/* An item of 399,009 bytes as DynamoDB counts it: "pk" + "kNNN" + "data" + 399,000 bytes. */
static json_t *
big_item (guint i)
{
  g_autofree char *pk = g_strdup_printf ("k%03u", i);
  g_autofree char *data = g_malloc (399000 + 1);

  memset (data, 'a' + (i % 26), 399000);
  data[399000] = '\0';
  return json_pack ("{s:{s:s},s:{s:s}}", "pk", "S", pk, "data", "S", data);
}

static void
test_batch_get_16mb (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *req, *resp, *left, *again;

  for (guint b = 0; b < 4; b++)
    {
      json_t *list = json_array ();

      for (guint i = b * 25; i < b * 25 + 25; i++)
        json_array_append_new (list, json_pack ("{s:{s:o}}", "PutRequest", "Item", big_item (i)));
      req = json_pack ("{s:{s:o}}", "RequestItems", "posts", list);
      json_decref (etu_call_ok (e, "BatchWriteItem", req));
      json_decref (req);
    }

  /* 42 items of 399,009 bytes fit in 16 MB (16,758,378 bytes); the 43rd would not. */
  req = json_pack ("{s:{s:{s:o,s:b}}}", "RequestItems", "posts", "Keys", keys_json ("pk", 0, 100),
                   "ConsistentRead", TRUE);
  resp = etu_call_ok (e, "BatchGetItem", req);
  json_decref (req);
  g_assert_cmpuint (json_array_size (json_object_get (json_object_get (resp, "Responses"), "posts")),
                    ==, 42);
  left = json_object_get (json_object_get (resp, "UnprocessedKeys"), "posts");
  g_assert_nonnull (left);
  g_assert_cmpuint (json_array_size (json_object_get (left, "Keys")), ==, 58);
  /* The unprocessed block keeps the request's parameters. */
  g_assert_true (json_is_true (json_object_get (left, "ConsistentRead")));
  etu_assert_json (json_array_get (json_object_get (left, "Keys"), 0), "{'pk': {'S': 'k042'}}");

  /* Retrying with UnprocessedKeys goes on where the first call stopped. */
  req = json_pack ("{s:O}", "RequestItems", json_object_get (resp, "UnprocessedKeys"));
  again = etu_call_ok (e, "BatchGetItem", req);
  json_decref (req);
  g_assert_cmpuint (
    json_array_size (json_object_get (json_object_get (again, "Responses"), "posts")), ==, 42);
  g_assert_cmpuint (json_array_size (json_object_get (
                      json_object_get (json_object_get (again, "UnprocessedKeys"), "posts"), "Keys")),
                    ==, 16);
  json_decref (again);
  json_decref (resp);

  /* With a projection the response is small and everything comes back at once. */
  req = json_pack ("{s:{s:{s:o,s:s}}}", "RequestItems", "posts", "Keys", keys_json ("pk", 0, 100),
                   "ProjectionExpression", "pk");
  resp = etu_call_ok (e, "BatchGetItem", req);
  json_decref (req);
  g_assert_cmpuint (json_array_size (json_object_get (json_object_get (resp, "Responses"), "posts")),
                    ==, 100);
  etu_assert_json (json_object_get (resp, "UnprocessedKeys"), "{}");
  json_decref (resp);
}

/* ---- BatchWriteItem ----------------------------------------------------------------- */

static void
test_batch_write_basic (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *resp, *item;

  etu_put (e, "posts", "{'pk': {'S': 'old'}}");
  resp = etu_ok (e, "BatchWriteItem",
                 "{'RequestItems': {'posts': [{'PutRequest': {'Item': {'pk': {'S': 'a'}, 'n': "
                 "{'N': '1'}}}}, {'DeleteRequest': {'Key': {'pk': {'S': 'old'}}}}], 'authors': "
                 "[{'PutRequest': {'Item': {'id': {'N': '1'}}}}]}, 'ReturnConsumedCapacity': "
                 "'TOTAL'}");
  etu_assert_json (json_object_get (resp, "UnprocessedItems"), "{}");
  etu_assert_json (json_object_get (resp, "ConsumedCapacity"),
                   "[{'TableName': 'posts', 'CapacityUnits': 2.0}, "
                   "{'TableName': 'authors', 'CapacityUnits': 1.0}]");
  json_decref (resp);

  item = get_item (e, "posts", "{'pk': {'S': 'a'}}");
  etu_assert_json (item, "{'pk': {'S': 'a'}, 'n': {'N': '1'}}");
  json_decref (item);
  g_assert_null (get_item (e, "posts", "{'pk': {'S': 'old'}}"));
  item = get_item (e, "authors", "{'id': {'N': '1'}}");
  g_assert_nonnull (item);
  json_decref (item);
}

static void
test_batch_write_errors (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *list = json_array (), *list2 = json_array ();
  json_t *resp = NULL, *req;
  GError *error = NULL;
  const char *suffix = "}' at 'requestItems' failed to satisfy constraint: Map value must "
                       "satisfy constraint: [Member must have length less than or equal to 25, "
                       "Member must have length greater than or equal to 1]";

  etu_fails (e, "BatchWriteItem", DDB_ERROR_VALIDATION,
             "The requestItems parameter is required for BatchWriteItem", "{'RequestItems': {}}");

  for (guint i = 0; i < 26; i++)
    {
      g_autofree char *k = g_strdup_printf ("k%u", i);
      json_array_append_new (list, json_pack ("{s:{s:{s:{s:s}}}}", "DeleteRequest", "Key", "pk",
                                              "S", k));
    }
  req = json_pack ("{s:{s:o}}", "RequestItems", "posts", list);
  g_assert_false (ddb_engine_call (e, "BatchWriteItem", req, &resp, &error));
  json_decref (req);
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_assert_true (g_str_has_prefix (error->message,
                                   "1 validation error detected: Value '{posts=[com.amazonaws."
                                   "dynamodb.v20120810.WriteRequest@"));
  g_assert_true (g_str_has_suffix (error->message, suffix));
  g_clear_error (&error);

  etu_fails (e, "BatchWriteItem", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value '{posts=[]}' at 'requestItems' failed to "
             "satisfy constraint: Map value must satisfy constraint: [Member must have length "
             "less than or equal to 25, Member must have length greater than or equal to 1]",
             "{'RequestItems': {'posts': []}}");

  /* 25 per table is fine, but not 26 in all. */
  list = json_array ();
  for (guint i = 0; i < 13; i++)
    {
      g_autofree char *k = g_strdup_printf ("k%u", i);
      json_array_append_new (list, json_pack ("{s:{s:{s:{s:s}}}}", "PutRequest", "Item", "pk",
                                              "S", k));
      json_array_append_new (list2, json_pack ("{s:{s:{s:{s:s}}}}", "PutRequest", "Item", "id",
                                               "N", k + 1));
    }
  req = json_pack ("{s:{s:o,s:o}}", "RequestItems", "posts", list, "authors", list2);
  etu_call_fails (e, "BatchWriteItem", req, DDB_ERROR_VALIDATION,
                  "Too many items requested for the BatchWriteItem call");
  json_decref (req);

  etu_fails (e, "BatchWriteItem", DDB_ERROR_VALIDATION,
             "Provided list of item keys contains duplicates",
             "{'RequestItems': {'posts': [{'PutRequest': {'Item': {'pk': {'S': 'x'}}}}, "
             "{'DeleteRequest': {'Key': {'pk': {'S': 'x'}}}}]}}");
  etu_fails (e, "BatchWriteItem", DDB_ERROR_VALIDATION,
             "Supplied AttributeValue has more than one datatypes set, must contain exactly one "
             "of the supported datatypes",
             "{'RequestItems': {'posts': [{}]}}");
  etu_fails (e, "BatchWriteItem", DDB_ERROR_RESOURCE_NOT_FOUND, NULL,
             "{'RequestItems': {'nope': [{'PutRequest': {'Item': {'pk': {'S': 'x'}}}}]}}");
  /* A refused batch writes nothing. */
  etu_fails (e, "BatchWriteItem", DDB_ERROR_VALIDATION, NULL,
             "{'RequestItems': {'posts': [{'PutRequest': {'Item': {'pk': {'S': 'y'}}}}, "
             "{'PutRequest': {'Item': {'pk': {'N': '1'}}}}]}}");
  g_assert_null (get_item (e, "posts", "{'pk': {'S': 'y'}}"));
}

/* ---- TransactWriteItems ------------------------------------------------------------- */

static void
test_transact_write_all_or_nothing (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *extra, *item;

  etu_put (e, "posts", "{'pk': {'S': 'a'}, 'v': {'N': '1'}}");
  etu_put (e, "posts", "{'pk': {'S': 'c'}, 'state': {'S': 'locked'}}");

  extra = etu_fails (e, "TransactWriteItems", DDB_ERROR_TRANSACTION_CANCELED,
                     "Transaction cancelled, please refer cancellation reasons for specific "
                     "reasons [None, ConditionalCheckFailed, None, None]",
                     "{'TransactItems': ["
                     "{'Update': {'TableName': 'posts', 'Key': {'pk': {'S': 'a'}}, "
                     "'UpdateExpression': 'SET v = v + :one', 'ExpressionAttributeValues': "
                     "{':one': {'N': '1'}}}},"
                     "{'ConditionCheck': {'TableName': 'posts', 'Key': {'pk': {'S': 'c'}}, "
                     "'ConditionExpression': '#s = :open', 'ExpressionAttributeNames': {'#s': "
                     "'state'}, 'ExpressionAttributeValues': {':open': {'S': 'open'}}, "
                     "'ReturnValuesOnConditionCheckFailure': 'ALL_OLD'}},"
                     "{'Put': {'TableName': 'authors', 'Item': {'id': {'N': '9'}}}},"
                     "{'Delete': {'TableName': 'posts', 'Key': {'pk': {'S': 'a2'}}}}]}");
  g_assert_nonnull (extra);
  etu_assert_json (json_object_get (extra, "CancellationReasons"),
                   "[{'Code': 'None'}, {'Code': 'ConditionalCheckFailed', 'Message': 'The "
                   "conditional request failed.', 'Item': {'pk': {'S': 'c'}, 'state': {'S': "
                   "'locked'}}}, {'Code': 'None'}, {'Code': 'None'}]");
  json_decref (extra);

  /* Nothing was written. */
  item = get_item (e, "posts", "{'pk': {'S': 'a'}}");
  etu_assert_json (item, "{'pk': {'S': 'a'}, 'v': {'N': '1'}}");
  json_decref (item);
  g_assert_null (get_item (e, "authors", "{'id': {'N': '9'}}"));

  /* Without ALL_OLD the reason carries no Item; a failed Put condition too. */
  extra = etu_fails (e, "TransactWriteItems", DDB_ERROR_TRANSACTION_CANCELED,
                     "Transaction cancelled, please refer cancellation reasons for specific "
                     "reasons [ConditionalCheckFailed]",
                     "{'TransactItems': [{'Put': {'TableName': 'posts', 'Item': {'pk': {'S': "
                     "'a'}}, 'ConditionExpression': 'attribute_not_exists(pk)'}}]}");
  etu_assert_json (json_object_get (extra, "CancellationReasons"),
                   "[{'Code': 'ConditionalCheckFailed', 'Message': 'The conditional request "
                   "failed'}]");
  json_decref (extra);
}

static void
test_transact_write_success (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *resp, *item;

  etu_put (e, "posts", "{'pk': {'S': 'a'}, 'v': {'N': '1'}}");
  etu_put (e, "posts", "{'pk': {'S': 'gone'}}");
  etu_put (e, "posts", "{'pk': {'S': 'c'}, 'v': {'N': '0'}}");
  resp = etu_ok (e, "TransactWriteItems",
                 "{'TransactItems': ["
                 "{'Update': {'TableName': 'posts', 'Key': {'pk': {'S': 'a'}}, "
                 "'UpdateExpression': 'SET v = v + :one', 'ConditionExpression': 'v = :one', "
                 "'ExpressionAttributeValues': {':one': {'N': '1'}}}},"
                 "{'Put': {'TableName': 'posts', 'Item': {'pk': {'S': 'b'}}, "
                 "'ConditionExpression': 'attribute_not_exists(pk)'}},"
                 "{'Delete': {'TableName': 'posts', 'Key': {'pk': {'S': 'gone'}}}},"
                 "{'ConditionCheck': {'TableName': 'posts', 'Key': {'pk': {'S': 'c'}}, "
                 "'ConditionExpression': 'attribute_exists(v)'}}"
                 "], 'ReturnConsumedCapacity': 'TOTAL', 'ClientRequestToken': 'tok-1'}");
  /* Three 1-KB writes and one check, each counted twice in a transaction, and split into
   * WriteCapacityUnits as DynamoDB does for transactions. */
  etu_assert_json (json_object_get (resp, "ConsumedCapacity"),
                   "[{'TableName': 'posts', 'CapacityUnits': 8.0, 'WriteCapacityUnits': 8.0}]");
  json_decref (resp);
  item = get_item (e, "posts", "{'pk': {'S': 'a'}}");
  etu_assert_json (item, "{'pk': {'S': 'a'}, 'v': {'N': '2'}}");
  json_decref (item);
  item = get_item (e, "posts", "{'pk': {'S': 'b'}}");
  g_assert_nonnull (item);
  json_decref (item);
  g_assert_null (get_item (e, "posts", "{'pk': {'S': 'gone'}}"));
}

static void
test_transact_write_errors (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *list = json_array ();
  json_t *resp = NULL;
  GError *error = NULL;
  json_t *req;

  etu_fails (e, "TransactWriteItems", DDB_ERROR_VALIDATION,
             "Transaction request cannot include multiple operations on one item",
             "{'TransactItems': [{'Put': {'TableName': 'posts', 'Item': {'pk': {'S': 'x'}}}}, "
             "{'Delete': {'TableName': 'posts', 'Key': {'pk': {'S': 'x'}}}}]}");
  /* The same key in two tables is two items. */
  json_decref (etu_ok (e, "TransactWriteItems",
                       "{'TransactItems': [{'Put': {'TableName': 'posts', 'Item': {'pk': {'S': "
                       "'x'}}}}, {'Put': {'TableName': 'authors', 'Item': {'id': {'N': "
                       "'1'}}}}]}"));
  etu_fails (e, "TransactWriteItems", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy "
             "constraint: Member must have length greater than or equal to 1",
             "{'TransactItems': []}");
  etu_fails (e, "TransactWriteItems", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value null at 'transactItems' failed to satisfy "
             "constraint: Member must not be null",
             "{}");
  etu_fails (e, "TransactWriteItems", DDB_ERROR_VALIDATION,
             "The action or operation requested is invalid. Verify that the action is typed "
             "correctly.",
             "{'TransactItems': [{}]}");
  etu_fails (e, "TransactWriteItems", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value '0123456789012345678901234567890123456' at "
             "'clientRequestToken' failed to satisfy constraint: Member must have length less "
             "than or equal to 36",
             "{'TransactItems': [{'Put': {'TableName': 'posts', 'Item': {'pk': {'S': 'q'}}}}], "
             "'ClientRequestToken': '0123456789012345678901234567890123456'}");

  for (guint i = 0; i < 101; i++)
    {
      g_autofree char *k = g_strdup_printf ("k%u", i);
      json_array_append_new (list, json_pack ("{s:{s:s,s:{s:{s:s}}}}", "Delete", "TableName",
                                              "posts", "Key", "pk", "S", k));
    }
  req = json_pack ("{s:o}", "TransactItems", list);
  g_assert_false (ddb_engine_call (e, "TransactWriteItems", req, &resp, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_assert_true (g_str_has_prefix (error->message,
                                   "1 validation error detected: Value '[com.amazonaws.dynamodb."
                                   "v20120810.TransactWriteItem@"));
  g_assert_true (g_str_has_suffix (error->message,
                                   "]' at 'transactItems' failed to satisfy constraint: Member "
                                   "must have length less than or equal to 100"));
  g_clear_error (&error);
  json_decref (req);

  /* 4 MB in all: eleven items of 399,009 bytes are 4,389,099 bytes. */
  list = json_array ();
  for (guint i = 0; i < 11; i++)
    json_array_append_new (list, json_pack ("{s:{s:s,s:o}}", "Put", "TableName", "posts", "Item",
                                            big_item (i)));
  req = json_pack ("{s:o}", "TransactItems", list);
  etu_call_fails (e, "TransactWriteItems", req, DDB_ERROR_VALIDATION, NULL);
  json_decref (req);
  g_assert_null (get_item (e, "posts", "{'pk': {'S': 'k000'}}"));
}

/* The seed's fan-out rename: an author's new name is copied into each of their posts in one
 * transaction, each post guarded by the name it had. */
static void
test_transact_fan_out_rename (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *extra, *item;
  const char *rename =
    "{'TransactItems': ["
    "{'Update': {'TableName': 'authors', 'Key': {'id': {'N': '1'}}, 'UpdateExpression': "
    "'SET #n = :new', 'ConditionExpression': '#n = :old', 'ExpressionAttributeNames': {'#n': "
    "'name'}, 'ExpressionAttributeValues': {':new': {'S': 'Ada L.'}, ':old': {'S': 'Ada'}}}},"
    "{'Update': {'TableName': 'posts', 'Key': {'pk': {'S': 'p1'}}, 'UpdateExpression': "
    "'SET authorName = :new', 'ConditionExpression': 'authorName = :old', "
    "'ExpressionAttributeValues': {':new': {'S': 'Ada L.'}, ':old': {'S': 'Ada'}}}},"
    "{'Update': {'TableName': 'posts', 'Key': {'pk': {'S': 'p2'}}, 'UpdateExpression': "
    "'SET authorName = :new', 'ConditionExpression': 'authorName = :old', "
    "'ExpressionAttributeValues': {':new': {'S': 'Ada L.'}, ':old': {'S': 'Ada'}}}},"
    "{'Update': {'TableName': 'posts', 'Key': {'pk': {'S': 'p3'}}, 'UpdateExpression': "
    "'SET authorName = :new', 'ConditionExpression': 'authorName = :old', "
    "'ExpressionAttributeValues': {':new': {'S': 'Ada L.'}, ':old': {'S': 'Ada'}}}}]}";

  etu_put (e, "authors", "{'id': {'N': '1'}, 'name': {'S': 'Ada'}}");
  etu_put (e, "posts", "{'pk': {'S': 'p1'}, 'authorName': {'S': 'Ada'}, 'title': {'S': 'One'}}");
  etu_put (e, "posts", "{'pk': {'S': 'p2'}, 'authorName': {'S': 'Ada'}}");
  /* Someone edited p3 meanwhile: the whole rename must be refused. */
  etu_put (e, "posts", "{'pk': {'S': 'p3'}, 'authorName': {'S': 'Ada Lovelace'}}");

  extra = etu_fails (e, "TransactWriteItems", DDB_ERROR_TRANSACTION_CANCELED,
                     "Transaction cancelled, please refer cancellation reasons for specific "
                     "reasons [None, None, None, ConditionalCheckFailed]",
                     "%s", rename);
  json_decref (extra);
  item = get_item (e, "posts", "{'pk': {'S': 'p1'}}");
  etu_assert_json (item, "{'pk': {'S': 'p1'}, 'authorName': {'S': 'Ada'}, 'title': {'S': 'One'}}");
  json_decref (item);
  item = get_item (e, "authors", "{'id': {'N': '1'}}");
  etu_assert_json (item, "{'id': {'N': '1'}, 'name': {'S': 'Ada'}}");
  json_decref (item);

  etu_put (e, "posts", "{'pk': {'S': 'p3'}, 'authorName': {'S': 'Ada'}}");
  json_decref (etu_ok (e, "TransactWriteItems", "%s", rename));
  for (guint i = 1; i <= 3; i++)
    {
      g_autofree char *key = g_strdup_printf ("{'pk': {'S': 'p%u'}}", i);

      item = get_item (e, "posts", key);
      g_assert_cmpstr (json_string_value (json_object_get (json_object_get (item, "authorName"),
                                                           "S")),
                       ==, "Ada L.");
      json_decref (item);
    }
  item = get_item (e, "posts", "{'pk': {'S': 'p1'}}");
  g_assert_cmpstr (json_string_value (json_object_get (json_object_get (item, "title"), "S")), ==,
                   "One");
  json_decref (item);
}

/* Which problems of one action DynamoDB reports as that action's cancellation reason
 * (TransactionCanceledException, ValidationError) and which fail the whole request; member
 * paths name the action; the reasons' wording. */
static void
test_transact_write_reasons (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *extra, *resp;

  etu_put (e, "posts", "{'pk': {'S': 'a'}, 'v': {'N': '1'}}");
  etu_put (e, "posts", "{'pk': {'S': 'b'}}");

  /* An update of a key attribute: a reason, after the condition (which wins if it fails). */
  extra = etu_fails (e, "TransactWriteItems", DDB_ERROR_TRANSACTION_CANCELED,
                     "Transaction cancelled, please refer cancellation reasons for specific "
                     "reasons [None, ValidationError]",
                     "{'TransactItems': [{'Put': {'TableName': 'posts', 'Item': {'pk': {'S': "
                     "'n'}}}}, {'Update': {'TableName': 'posts', 'Key': {'pk': {'S': 'a'}}, "
                     "'UpdateExpression': 'SET pk = :x', 'ExpressionAttributeValues': {':x': "
                     "{'S': 'z'}}}}]}");
  etu_assert_json (json_object_get (extra, "CancellationReasons"),
                   "[{'Code': 'None'}, {'Code': 'ValidationError', 'Message': 'One or more "
                   "parameter values were invalid: Cannot update attribute pk. This attribute is "
                   "part of the key'}]");
  json_decref (extra);
  g_assert_null (get_item (e, "posts", "{'pk': {'S': 'n'}}"));
  extra = etu_fails (e, "TransactWriteItems", DDB_ERROR_TRANSACTION_CANCELED, NULL,
                     "{'TransactItems': [{'Update': {'TableName': 'posts', 'Key': {'pk': {'S': "
                     "'a'}}, 'UpdateExpression': 'SET pk = :x', 'ConditionExpression': "
                     "'attribute_exists(nope)', 'ExpressionAttributeValues': {':x': {'S': "
                     "'z'}}}}]}");
  etu_assert_json (json_object_get (extra, "CancellationReasons"),
                   "[{'Code': 'ConditionalCheckFailed', 'Message': 'The conditional request "
                   "failed'}]");
  json_decref (extra);

  /* A key attribute of the wrong type, in an Item or a Key: a reason. */
  extra = etu_fails (e, "TransactWriteItems", DDB_ERROR_TRANSACTION_CANCELED,
                     "Transaction cancelled, please refer cancellation reasons for specific "
                     "reasons [ValidationError, ValidationError, ConditionalCheckFailed]",
                     "{'TransactItems': [{'Put': {'TableName': 'posts', 'Item': {'pk': {'N': "
                     "'1'}}}}, {'Delete': {'TableName': 'posts', 'Key': {'pk': {'B': 'AQ=='}}}}, "
                     "{'ConditionCheck': {'TableName': 'posts', 'Key': {'pk': {'S': 'b'}}, "
                     "'ConditionExpression': 'attribute_not_exists(pk)'}}]}");
  /* A ConditionCheck's message ends with a period, as DynamoDB Local's does. */
  etu_assert_json (json_object_get (extra, "CancellationReasons"),
                   "[{'Code': 'ValidationError', 'Message': 'One or more parameter values were "
                   "invalid: Type mismatch for key'}, {'Code': 'ValidationError', 'Message': 'One "
                   "or more parameter values were invalid: Type mismatch for key'}, {'Code': "
                   "'ConditionalCheckFailed', 'Message': 'The conditional request failed.'}]");
  json_decref (extra);

  /* A missing or empty key attribute is the request's fault. */
  etu_fails (e, "TransactWriteItems", DDB_ERROR_VALIDATION,
             "One or more parameter values were invalid: Missing the key pk in the item",
             "{'TransactItems': [{'Put': {'TableName': 'posts', 'Item': {'v': {'N': '1'}}}}]}");
  etu_fails (e, "TransactWriteItems", DDB_ERROR_VALIDATION,
             "One or more parameter values are not valid. The AttributeValue for a key "
             "attribute cannot contain an empty string value. Key: pk",
             "{'TransactItems': [{'Put': {'TableName': 'posts', 'Item': {'pk': {'S': ''}}}}]}");

  /* Members are named by their full path, actions numbered from 1. */
  etu_fails (e, "TransactWriteItems", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value null at "
             "'transactItems.2.member.conditionCheck.conditionExpression' failed to satisfy "
             "constraint: Member must not be null",
             "{'TransactItems': [{'Put': {'TableName': 'posts', 'Item': {'pk': {'S': 'x'}}}}, "
             "{'ConditionCheck': {'TableName': 'posts', 'Key': {'pk': {'S': 'b'}}}}]}");
  etu_fails (e, "TransactWriteItems", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value null at 'transactItems.1.member.delete.key' "
             "failed to satisfy constraint: Member must not be null",
             "{'TransactItems': [{'Delete': {'TableName': 'posts'}}]}");
  etu_fails (e, "TransactWriteItems", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value 'SOME' at "
             "'transactItems.1.member.put.returnValuesOnConditionCheckFailure' failed to "
             "satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]",
             "{'TransactItems': [{'Put': {'TableName': 'posts', 'Item': {'pk': {'S': 'x'}}, "
             "'ReturnValuesOnConditionCheckFailure': 'SOME'}}]}");
  etu_fails (e, "TransactGetItems", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value null at 'transactItems.1.member.get.tableName' "
             "failed to satisfy constraint: Member must not be null",
             "{'TransactItems': [{'Get': {'Key': {'pk': {'S': 'a'}}}}]}");
  etu_fails (e, "BatchWriteItem", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value null at "
             "'requestItems.posts.member.1.member.putRequest.item' failed to satisfy "
             "constraint: Member must not be null",
             "{'RequestItems': {'posts': [{'PutRequest': {}}]}}");
  /* Messages other than "N validation errors" keep their words. */
  etu_fails (e, "TransactWriteItems", DDB_ERROR_VALIDATION,
             "Number overflow. Attempting to store a number with magnitude larger than "
             "supported range",
             "{'TransactItems': [{'Put': {'TableName': 'posts', 'Item': {'pk': {'S': 'x'}, "
             "'n': {'N': '1e999'}}}}]}");

  /* INDEXES: the split figures for the table too. */
  resp = etu_ok (e, "TransactWriteItems",
                 "{'TransactItems': [{'Put': {'TableName': 'posts', 'Item': {'pk': {'S': "
                 "'x'}}}}], 'ReturnConsumedCapacity': 'INDEXES', "
                 "'ReturnItemCollectionMetrics': 'SIZE'}");
  /* No table here has local indexes: no ItemCollectionMetrics member at all. */
  etu_assert_json (resp, "{'ConsumedCapacity': [{'TableName': 'posts', 'CapacityUnits': 2.0, "
                     "'WriteCapacityUnits': 2.0, 'Table': {'CapacityUnits': 2.0, "
                     "'WriteCapacityUnits': 2.0}}]}");
  json_decref (resp);
  resp = etu_ok (e, "BatchWriteItem",
                 "{'RequestItems': {'posts': [{'PutRequest': {'Item': {'pk': {'S': 'y'}}}}]}, "
                 "'ReturnItemCollectionMetrics': 'SIZE'}");
  etu_assert_json (resp, "{'UnprocessedItems': {}}");
  json_decref (resp);
  /* A BatchGetItem of keys that all miss costs nothing. */
  resp = etu_ok (e, "BatchGetItem",
                 "{'RequestItems': {'posts': {'Keys': [{'pk': {'S': 'none1'}}, {'pk': {'S': "
                 "'none2'}}], 'ConsistentRead': true}}, 'ReturnConsumedCapacity': 'TOTAL'}");
  etu_assert_json (json_object_get (resp, "ConsumedCapacity"),
                   "[{'TableName': 'posts', 'CapacityUnits': 0.0}]");
  json_decref (resp);
}

/* ---- ClientRequestToken ---------------------------------------------------------------- */

#define MSG_MISMATCH \
  "DynamoDB rejected the request because you retried a request with a different payload but " \
  "with an idempotent token that was already used."

/* A TransactWriteItems that adds `by` to posts/counter's n, with `token` and `extra` members. */
static json_t *
add_request (guint by, const char *token, const char *extra)
{
  return etu_json ("{'TransactItems': [{'Update': {'TableName': 'posts', 'Key': {'pk': {'S': "
                   "'counter'}}, 'UpdateExpression': 'ADD n :by', 'ExpressionAttributeValues': "
                   "{':by': {'N': '%u'}}}}], 'ClientRequestToken': '%s'%s}",
                   by, token, extra);
}

static void
assert_counter (DdbEngine *e, const char *n)
{
  g_autofree char *expected = g_strdup_printf ("{'pk': {'S': 'counter'}, 'n': {'N': '%s'}}", n);
  json_t *item = get_item (e, "posts", "{'pk': {'S': 'counter'}}");

  etu_assert_json (item, expected);
  json_decref (item);
}

/* The same request with the same token again: success, nothing written again, and read units
 * in place of write units ("Subsequent TransactWriteItems calls with the same client token
 * return the number of read capacity units consumed in reading the item"). */
static void
test_token_repeat (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *req = add_request (1, "tok-a", ", 'ReturnConsumedCapacity': 'TOTAL'");
  json_t *resp;

  resp = etu_call_ok (e, "TransactWriteItems", req);
  etu_assert_json (resp, "{'ConsumedCapacity': [{'TableName': 'posts', 'CapacityUnits': 2.0, "
                         "'WriteCapacityUnits': 2.0}]}");
  json_decref (resp);
  assert_counter (e, "1");
  for (guint i = 0; i < 2; i++)
    {
      resp = etu_call_ok (e, "TransactWriteItems", req);
      etu_assert_json (resp, "{'ConsumedCapacity': [{'TableName': 'posts', 'CapacityUnits': "
                             "2.0, 'ReadCapacityUnits': 2.0}]}");
      json_decref (resp);
    }
  assert_counter (e, "1");
  json_decref (req);

  /* The response options are not part of the request compared, nor the order of members. */
  json_decref (etu_ok (e, "TransactWriteItems",
                       "{'ClientRequestToken': 'tok-a', 'TransactItems': [{'Update': "
                       "{'ExpressionAttributeValues': {':by': {'N': '1'}}, 'UpdateExpression': "
                       "'ADD n :by', 'Key': {'pk': {'S': 'counter'}}, 'TableName': 'posts'}}]}"));
  assert_counter (e, "1");

  /* Another token is another request. */
  req = add_request (1, "tok-b", "");
  json_decref (etu_call_ok (e, "TransactWriteItems", req));
  json_decref (req);
  assert_counter (e, "2");
  /* Without a token every call writes. */
  json_decref (etu_ok (e, "TransactWriteItems",
                       "{'TransactItems': [{'Update': {'TableName': 'posts', 'Key': {'pk': {'S': "
                       "'counter'}}, 'UpdateExpression': 'ADD n :by', "
                       "'ExpressionAttributeValues': {':by': {'N': '1'}}}}]}"));
  assert_counter (e, "3");
  /* The tokens are nowhere to be seen through the API. */
  resp = etu_ok (e, "Scan", "{'TableName': 'posts', 'Select': 'COUNT'}");
  etu_assert_json (resp, "{'Count': 1, 'ScannedCount': 1}");
  json_decref (resp);
  resp = etu_ok (e, "ListTables", "{}");
  etu_assert_json (resp, "{'TableNames': ['authors', 'posts']}");
  json_decref (resp);
}

/* The same token with another request: IdempotentParameterMismatchException, nothing
 * written; a transaction that fails leaves no token behind. */
static void
test_token_mismatch (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *req = add_request (1, "tok-m", "");
  json_t *other = add_request (5, "tok-m", "");

  json_decref (etu_call_ok (e, "TransactWriteItems", req));
  json_decref (etu_call_fails (e, "TransactWriteItems", other,
                               DDB_ERROR_IDEMPOTENT_PARAMETER_MISMATCH, MSG_MISMATCH));
  assert_counter (e, "1");
  g_assert_cmpstr (ddb_error_type_name (DDB_ERROR_IDEMPOTENT_PARAMETER_MISMATCH), ==,
                   "IdempotentParameterMismatchException");
  json_decref (req);
  json_decref (other);

  /* Cancelled: the token carries another request next. */
  json_decref (etu_fails (
      e, "TransactWriteItems", DDB_ERROR_TRANSACTION_CANCELED, NULL,
      "{'TransactItems': [{'ConditionCheck': {'TableName': 'posts', 'Key': {'pk': {'S': "
      "'none'}}, 'ConditionExpression': 'attribute_exists(pk)'}}], 'ClientRequestToken': "
      "'tok-c'}"));
  req = add_request (10, "tok-c", "");
  json_decref (etu_call_ok (e, "TransactWriteItems", req));
  json_decref (req);
  assert_counter (e, "11");
  /* A request that is invalid is refused as such before its token is looked at. */
  etu_fails (e, "TransactWriteItems", DDB_ERROR_RESOURCE_NOT_FOUND, NULL,
             "{'TransactItems': [{'Put': {'TableName': 'nope', 'Item': {'pk': {'S': 'x'}}}}], "
             "'ClientRequestToken': 'tok-c'}");
}

/* After the window the token is a new request (the window shortened to nothing here). */
static void
test_token_expiry (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *req = add_request (1, "tok-e", "");
  json_t *other = add_request (7, "tok-e", "");

  ddb_transact_set_token_window (0);
  json_decref (etu_call_ok (e, "TransactWriteItems", req));
  json_decref (etu_call_ok (e, "TransactWriteItems", req));
  assert_counter (e, "2");
  json_decref (etu_call_ok (e, "TransactWriteItems", other));
  assert_counter (e, "9");

  /* Back to ten minutes: the last call's token (stored when it completed) holds again. */
  ddb_transact_set_token_window (-1);
  json_decref (etu_call_ok (e, "TransactWriteItems", other));
  assert_counter (e, "9");
  etu_call_fails (e, "TransactWriteItems", req, DDB_ERROR_IDEMPOTENT_PARAMETER_MISMATCH,
                  MSG_MISMATCH);
  json_decref (req);
  json_decref (other);
}

/* A token is stored with the writes: it holds after the database is closed and reopened. */
static void
test_token_survives_reopen (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbtoken-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "db.sqlite", NULL);
  json_t *req = add_request (3, "tok-r", "");
  GError *error = NULL;

  for (guint round = 0; round < 2; round++)
    {
      g_autoptr (DdbEngine) e = ddb_engine_open (path, &error);

      g_assert_no_error (error);
      if (round == 0)
        {
          etu_create_table (e, "posts", "pk", "S");
          json_decref (etu_call_ok (e, "TransactWriteItems", req));
        }
      else
        json_decref (etu_call_ok (e, "TransactWriteItems", req));
      assert_counter (e, "3");
    }
  json_decref (req);
  etu_remove_tree (dir);
}

/* The token rows in the database file (the store's table of tokens); none among the items. */
static gint64
token_rows (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 n;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (
      sqlite3_prepare_v2 (db, "SELECT count(*) FROM dy_items WHERE tid < 1", -1, &stmt, NULL), ==,
      SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpint (sqlite3_column_int64 (stmt, 0), ==, 0);
  sqlite3_finalize (stmt);
  g_assert_cmpint (
      sqlite3_prepare_v2 (db, "SELECT count(*) FROM dy_tokens", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return n;
}

/* Tokens whose window has passed are deleted by the next call with a token. */
static void
test_token_purge (void)
{
  g_autofree char *dir = etu_tmp_dir ("ddbpurge-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "db.sqlite", NULL);
  GError *error = NULL;
  g_autoptr (DdbEngine) e = ddb_engine_open (path, &error);

  g_assert_no_error (error);
  etu_create_table (e, "posts", "pk", "S");
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *token = g_strdup_printf ("tok-%u", i);
      json_t *req = add_request (1, token, "");

      json_decref (etu_call_ok (e, "TransactWriteItems", req));
      json_decref (req);
    }
  g_assert_cmpint (token_rows (path), ==, 3);
  ddb_transact_set_token_window (0);
  {
    json_t *req = add_request (1, "tok-last", "");

    json_decref (etu_call_ok (e, "TransactWriteItems", req));
    json_decref (req);
  }
  ddb_transact_set_token_window (-1);
  g_assert_cmpint (token_rows (path), ==, 1);
  assert_counter (e, "4");
  g_clear_pointer (&e, ddb_engine_free);
  etu_remove_tree (dir);
}

/* ClientRequestToken: 1 to 36 characters (counted as characters, not bytes). */
static void
test_token_length (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  g_autofree char *token36 = g_strnfill (36, 't');
  g_autofree char *token37 = g_strnfill (37, 't');
  g_autoptr (GString) wide = g_string_new (NULL);
  g_autofree char *msg37 = NULL;
  json_t *req;

  etu_fails (e, "TransactWriteItems", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value '' at 'clientRequestToken' failed to satisfy "
             "constraint: Member must have length greater than or equal to 1",
             "{'TransactItems': [{'Put': {'TableName': 'posts', 'Item': {'pk': {'S': 'q'}}}}], "
             "'ClientRequestToken': ''}");
  msg37 = g_strdup_printf ("1 validation error detected: Value '%s' at 'clientRequestToken' "
                           "failed to satisfy constraint: Member must have length less than or "
                           "equal to 36",
                           token37);
  req = add_request (1, token37, "");
  etu_call_fails (e, "TransactWriteItems", req, DDB_ERROR_VALIDATION, msg37);
  json_decref (req);
  g_assert_null (get_item (e, "posts", "{'pk': {'S': 'counter'}}"));
  etu_fails (e, "TransactWriteItems", DDB_ERROR_SERIALIZATION, NULL,
             "{'TransactItems': [{'Put': {'TableName': 'posts', 'Item': {'pk': {'S': 'q'}}}}], "
             "'ClientRequestToken': 5}");

  req = add_request (1, token36, "");
  json_decref (etu_call_ok (e, "TransactWriteItems", req));
  json_decref (req);
  /* 36 two-byte characters are 72 bytes but 36 characters. */
  for (guint i = 0; i < 36; i++)
    g_string_append (wide, "\xc3\xa9");
  req = add_request (1, wide->str, "");
  json_decref (etu_call_ok (e, "TransactWriteItems", req));
  json_decref (etu_call_ok (e, "TransactWriteItems", req));
  json_decref (req);
  assert_counter (e, "2");
}

/* ---- TransactGetItems ------------------------------------------------------------------ */
static void
test_transact_get (void)
{
  g_autoptr (DdbEngine) e = engine_new ();
  json_t *resp;

  etu_put (e, "posts", "{'pk': {'S': 'a'}, 'title': {'S': 'A'}, 'body': {'S': 'long'}}");
  etu_put (e, "authors", "{'id': {'N': '1'}, 'name': {'S': 'Ada'}}");
  resp = etu_ok (e, "TransactGetItems",
                 "{'TransactItems': ["
                 "{'Get': {'TableName': 'authors', 'Key': {'id': {'N': '1'}}}},"
                 "{'Get': {'TableName': 'posts', 'Key': {'pk': {'S': 'missing'}}}},"
                 "{'Get': {'TableName': 'posts', 'Key': {'pk': {'S': 'a'}}, "
                 "'ProjectionExpression': 'title'}}], 'ReturnConsumedCapacity': 'TOTAL'}");
  etu_assert_json (json_object_get (resp, "Responses"),
                   "[{'Item': {'id': {'N': '1'}, 'name': {'S': 'Ada'}}}, {}, "
                   "{'Item': {'title': {'S': 'A'}}}]");
  /* Each read is strongly consistent and counted twice, a missing item too. */
  etu_assert_json (json_object_get (resp, "ConsumedCapacity"),
                   "[{'TableName': 'authors', 'CapacityUnits': 2.0, 'ReadCapacityUnits': 2.0}, "
                   "{'TableName': 'posts', 'CapacityUnits': 4.0, 'ReadCapacityUnits': 4.0}]");
  json_decref (resp);

  etu_fails (e, "TransactGetItems", DDB_ERROR_VALIDATION,
             "Transaction request cannot include multiple operations on one item",
             "{'TransactItems': [{'Get': {'TableName': 'posts', 'Key': {'pk': {'S': 'a'}}}}, "
             "{'Get': {'TableName': 'posts', 'Key': {'pk': {'S': 'a'}}}}]}");
  etu_fails (e, "TransactGetItems", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy "
             "constraint: Member must have length greater than or equal to 1",
             "{'TransactItems': []}");
  etu_fails (e, "TransactGetItems", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value null at 'transactItems.1.member.get' failed "
             "to satisfy constraint: Member must not be null",
             "{'TransactItems': [{'Put': {}}]}");
  etu_fails (e, "TransactGetItems", DDB_ERROR_RESOURCE_NOT_FOUND, NULL,
             "{'TransactItems': [{'Get': {'TableName': 'nope', 'Key': {'pk': {'S': 'a'}}}}]}");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (keep); i++)
    g_assert_nonnull (keep[i]);
  g_test_add_func ("/batch-ops/batch-get/basic", test_batch_get_basic);
  g_test_add_func ("/batch-ops/batch-get/errors", test_batch_get_errors);
  g_test_add_func ("/batch-ops/batch-get/16mb", test_batch_get_16mb);
  g_test_add_func ("/batch-ops/batch-write/basic", test_batch_write_basic);
  g_test_add_func ("/batch-ops/batch-write/errors", test_batch_write_errors);
  g_test_add_func ("/batch-ops/transact-write/all-or-nothing", test_transact_write_all_or_nothing);
  g_test_add_func ("/batch-ops/transact-write/success", test_transact_write_success);
  g_test_add_func ("/batch-ops/transact-write/errors", test_transact_write_errors);
  g_test_add_func ("/batch-ops/transact-write/reasons", test_transact_write_reasons);
  g_test_add_func ("/batch-ops/transact-write/fan-out-rename", test_transact_fan_out_rename);
  g_test_add_func ("/batch-ops/transact-write/token-repeat", test_token_repeat);
  g_test_add_func ("/batch-ops/transact-write/token-mismatch", test_token_mismatch);
  g_test_add_func ("/batch-ops/transact-write/token-expiry", test_token_expiry);
  g_test_add_func ("/batch-ops/transact-write/token-survives-reopen", test_token_survives_reopen);
  g_test_add_func ("/batch-ops/transact-write/token-purge", test_token_purge);
  g_test_add_func ("/batch-ops/transact-write/token-length", test_token_length);
  g_test_add_func ("/batch-ops/transact-get", test_transact_get);
  return g_test_run ();
}
