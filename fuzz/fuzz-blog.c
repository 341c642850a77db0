/* fuzz-blog.c: the database the engine fuzz targets run each input on (fuzz-blog.h). */
#include "fuzz-blog.h"

#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

static const char *const setup[][2] = {
  { "CreateTable",
    "{\"TableName\": \"Blog\", \"BillingMode\": \"PAY_PER_REQUEST\", \"StreamSpecification\": "
    "{\"StreamEnabled\": true, \"StreamViewType\": \"NEW_AND_OLD_IMAGES\"}, \"AttributeDefinitions\": "
    "[{\"AttributeName\": \"PK\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"SK\", "
    "\"AttributeType\": \"S\"}, {\"AttributeName\": \"authorId\", \"AttributeType\": \"S\"}, "
    "{\"AttributeName\": \"n\", \"AttributeType\": \"N\"}], \"KeySchema\": [{\"AttributeName\": "
    "\"PK\", \"KeyType\": \"HASH\"}, {\"AttributeName\": \"SK\", \"KeyType\": \"RANGE\"}], "
    "\"GlobalSecondaryIndexes\": [{\"IndexName\": \"ByAuthor\", \"KeySchema\": "
    "[{\"AttributeName\": \"authorId\", \"KeyType\": \"HASH\"}], \"Projection\": "
    "{\"ProjectionType\": \"KEYS_ONLY\"}}], \"LocalSecondaryIndexes\": [{\"IndexName\": "
    "\"ByN\", \"KeySchema\": [{\"AttributeName\": \"PK\", \"KeyType\": \"HASH\"}, "
    "{\"AttributeName\": \"n\", \"KeyType\": \"RANGE\"}], \"Projection\": {\"ProjectionType\": "
    "\"INCLUDE\", \"NonKeyAttributes\": [\"name\"]}}]}" },
  { "PutItem",
    "{\"TableName\": \"Blog\", \"Item\": {\"PK\": {\"S\": \"USER#1\"}, \"SK\": {\"S\": "
    "\"META\"}, \"name\": {\"S\": \"Mara\"}, \"n\": {\"N\": \"1\"}, \"tags\": {\"SS\": [\"a\", "
    "\"b\"]}, \"m\": {\"M\": {\"l\": {\"L\": [{\"N\": \"1\"}, {\"BOOL\": true}]}}}}}" },
  { "PutItem",
    "{\"TableName\": \"Blog\", \"Item\": {\"PK\": {\"S\": \"USER#1\"}, \"SK\": {\"S\": "
    "\"POST#1\"}, \"authorId\": {\"S\": \"USER#1\"}, \"authorName\": {\"S\": \"Mara\"}, \"n\": "
    "{\"N\": \"12345678901234567890123456789012345678\"}, \"b\": {\"B\": \"AAEC\"}}}" },
  { "PutItem",
    "{\"TableName\": \"Blog\", \"Item\": {\"PK\": {\"S\": \"USER#2\"}, \"SK\": {\"S\": "
    "\"META\"}, \"name\": {\"S\": \"Jonas\"}, \"ns\": {\"NS\": [\"1\", \"2.5\"]}, \"z\": "
    "{\"NULL\": true}}}" },
};

DdbEngine *
fuzz_blog_engine_new (void)
{
  GError *error = NULL;
  DdbEngine *engine = ddb_engine_open (":memory:", &error);

  if (engine == NULL)
    {
      fprintf (stderr, "fuzz-blog: %s\n", error->message);
      abort ();
    }
  for (size_t i = 0; i < G_N_ELEMENTS (setup); i++)
    {
      json_t *request = json_loads (setup[i][1], 0, NULL);
      json_t *response = NULL;

      if (request == NULL || !ddb_engine_call (engine, setup[i][0], request, &response, &error))
        {
          fprintf (stderr, "fuzz-blog: setup %s: %s\n", setup[i][0],
                   error != NULL ? error->message : "not JSON");
          abort ();
        }
      json_decref (response);
      json_decref (request);
    }
  return engine;
}
