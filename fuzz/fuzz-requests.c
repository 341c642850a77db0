/* fuzz-requests.c: libFuzzer target for the engine's request handling, as `serve` hands it
 * requests. The first byte of the input picks the operation, the rest is the request body, read
 * as `serve` reads it (duplicate members refused, U+0000 allowed); a body that is not a JSON
 * object is what `serve` answers with a SerializationException, and is skipped. Each input runs
 * on an in-memory database holding a table with a sort key, a GSI and an LSI, and a few items,
 * so that requests reach items and indexes. Findings: crashes, leaks, undefined behaviour, and
 * any InternalServerError (DynamoDB answers every malformed request with a 400 of its own). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib.h>
#include <jansson.h>

#include "core/error.h"
#include "engine/engine.h"
#include "fuzz-blog.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* The engine's operations (engine.c), and one it does not know (PartiQL's and the Streams
 * API's after it, so that the corpus's first bytes keep their meaning). */
static const char *const operations[] = {
  "BatchGetItem", "BatchWriteItem",     "CreateTable",      "DeleteItem",
  "DeleteTable",  "DescribeTable",      "DescribeTimeToLive", "GetItem",
  "ListTables",   "ListTagsOfResource", "PutItem",          "Query",
  "Scan",         "TagResource",        "TransactGetItems", "TransactWriteItems",
  "UntagResource", "UpdateItem",        "UpdateTable",      "UpdateTimeToLive",
  "NoSuchOperation",
  "ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction",
  "DynamoDBStreams_20120810.ListStreams", "DynamoDBStreams_20120810.DescribeStream",
  "DynamoDBStreams_20120810.GetShardIterator", "DynamoDBStreams_20120810.GetRecords",
};

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  DdbEngine *engine;
  const char *operation;
  json_t *request, *response = NULL;
  GError *error = NULL;

  if (size < 1)
    return 0;
  operation = operations[data[0] % G_N_ELEMENTS (operations)];
  request = json_loadb ((const char *) data + 1, size - 1,
                        JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, NULL);
  if (!json_is_object (request))
    {
      json_decref (request);
      return 0;
    }
  engine = fuzz_blog_engine_new ();
  if (!ddb_engine_call (engine, operation, request, &response, &error)
      && error->domain == DDB_ERROR && error->code == DDB_ERROR_INTERNAL)
    {
      char *text = json_dumps (request, JSON_COMPACT);

      fprintf (stderr, "fuzz-requests: %s %s: InternalServerError: %s\n", operation, text,
               error->message);
      abort ();
    }
  g_clear_error (&error);
  json_decref (response);
  json_decref (request);
  ddb_engine_free (engine);
  return 0;
}
