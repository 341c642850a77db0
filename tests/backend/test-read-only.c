/* test-read-only.c: a read-only backend on a database file. Every operation of DynamoDB's API
 * reference (the corpus below is the reference's list, not the implementation's), with and
 * without its target prefix, and every shape of PartiQL statement go through it: each write is
 * refused with DDB_BACKEND_ERROR_READ_ONLY naming the operation, the tables (descriptions,
 * items, tags, TTL) and the file's bytes unchanged; each read is answered as it is with
 * read-only off. The writes the engine implements are also run on a writable copy, to show that
 * each request of the corpus would indeed have changed the database. */
#include <glib/gstdio.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/transfer.h"

/* The "Actions" list of the DynamoDB API Reference (57), split by what they do. */
static const char *const api_reads[] = {
  "BatchGetItem",
  "DescribeBackup",
  "DescribeContinuousBackups",
  "DescribeContributorInsights",
  "DescribeEndpoints",
  "DescribeExport",
  "DescribeGlobalTable",
  "DescribeGlobalTableSettings",
  "DescribeImport",
  "DescribeKinesisStreamingDestination",
  "DescribeLimits",
  "DescribeTable",
  "DescribeTableReplicaAutoScaling",
  "DescribeTimeToLive",
  "GetItem",
  "GetResourcePolicy",
  "ListBackups",
  "ListContributorInsights",
  "ListExports",
  "ListGlobalTables",
  "ListImports",
  "ListTables",
  "ListTagsOfResource",
  "Query",
  "Scan",
  "TransactGetItems",
};
static const char *const api_writes[] = {
  "BatchWriteItem",
  "CreateBackup",
  "CreateGlobalTable",
  "CreateTable",
  "DeleteBackup",
  "DeleteItem",
  "DeleteResourcePolicy",
  "DeleteTable",
  "DisableKinesisStreamingDestination",
  "EnableKinesisStreamingDestination",
  "ExportTableToPointInTime",
  "ImportTable",
  "PutItem",
  "PutResourcePolicy",
  "RestoreTableFromBackup",
  "RestoreTableToPointInTime",
  "TagResource",
  "TransactWriteItems",
  "UntagResource",
  "UpdateContinuousBackups",
  "UpdateContributorInsights",
  "UpdateGlobalTable",
  "UpdateGlobalTableSettings",
  "UpdateItem",
  "UpdateKinesisStreamingDestination",
  "UpdateTable",
  "UpdateTableReplicaAutoScaling",
  "UpdateTimeToLive",
};
/* PartiQL: a read or a write by its statements. */
static const char *const api_partiql[] = {
  "BatchExecuteStatement",
  "ExecuteStatement",
  "ExecuteTransaction",
};
/* The DynamoDB Streams API: all reads. */
static const char *const streams_reads[] = {
  "DescribeStream",
  "GetRecords",
  "GetShardIterator",
  "ListStreams",
};
/* Names no API has: refused, as they are not known to only read. */
static const char *const unknown_names[] = {
  "",
  "Foo",
  "putitem",
  "getitem",
  "PutItem ",
  " GetItem",
  "GetItems",
  "Describe",
  "List",
  "DescribeTableX",
  "ListTablesAndDeleteThem",
  "DynamoDB_20120810.",
  "DynamoDB_20120810.Foo",
  "Other_20120810.GetItem",
  "DynamoDB_20120810.DynamoDB_20120810.GetItem",
  "Get Item",
};

/* A request of each write, effective on the fixture when EFFECTIVE ("@ARN_T@" and "@ARN_U@"
 * stand for the tables' ARNs). Requests of operations the engine lacks are {}. */
typedef struct {
  const char *operation;
  const char *request;
  gboolean effective;
} Case;

#define KEY_A1 "{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"1\"}}"

static const Case writes[] = {
  { "PutItem", "{\"TableName\":\"Posts\",\"Item\":{\"PK\":{\"S\":\"z\"},\"SK\":{\"S\":\"9\"}}}",
    TRUE },
  { "UpdateItem",
    "{\"TableName\":\"Posts\",\"Key\":" KEY_A1 ",\"UpdateExpression\":\"SET y = :v\","
    "\"ExpressionAttributeValues\":{\":v\":{\"N\":\"1\"}}}",
    TRUE },
  { "DeleteItem", "{\"TableName\":\"Posts\",\"Key\":" KEY_A1 "}", TRUE },
  { "BatchWriteItem", "{\"RequestItems\":{\"Posts\":[{\"DeleteRequest\":{\"Key\":" KEY_A1 "}}]}}",
    TRUE },
  { "TransactWriteItems",
    "{\"TransactItems\":[{\"Put\":{\"TableName\":\"Users\",\"Item\":{\"id\":{\"S\":\"n\"}}}}]}",
    TRUE },
  { "CreateTable",
    "{\"TableName\":\"Votes\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":"
    "[{\"AttributeName\":\"id\",\"AttributeType\":\"S\"}],\"KeySchema\":"
    "[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}]}",
    TRUE },
  { "DeleteTable", "{\"TableName\":\"Users\"}", TRUE },
  { "UpdateTable",
    "{\"TableName\":\"Users\",\"BillingMode\":\"PROVISIONED\",\"ProvisionedThroughput\":"
    "{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":5}}",
    TRUE },
  { "UpdateTimeToLive",
    "{\"TableName\":\"Users\",\"TimeToLiveSpecification\":{\"Enabled\":true,\"AttributeName\":"
    "\"exp\"}}",
    TRUE },
  { "TagResource", "{\"ResourceArn\":\"@ARN_U@\",\"Tags\":[{\"Key\":\"k\",\"Value\":\"v\"}]}",
    TRUE },
  { "UntagResource", "{\"ResourceArn\":\"@ARN_T@\",\"TagKeys\":[\"env\"]}", TRUE },
  /* Statement shapes (each also under the other PartiQL operations below). */
  { "ExecuteStatement", "{\"Statement\":\"INSERT INTO Posts VALUE {'PK':'n','SK':'1'}\"}", TRUE },
  { "ExecuteStatement", "{\"Statement\":\"insert into \\\"Posts\\\" value {'PK':'n','SK':'2'}\"}",
    TRUE },
  { "ExecuteStatement", "{\"Statement\":\"UPDATE Posts SET y = 2 WHERE PK = 'a' AND SK = '1'\"}",
    TRUE },
  { "ExecuteStatement",
    "{\"Statement\":\"update Posts set y = ? where PK = ? and SK = ?\","
    "\"Parameters\":[{\"N\":\"3\"},{\"S\":\"a\"},{\"S\":\"1\"}]}",
    TRUE },
  { "ExecuteStatement", "{\"Statement\":\"DELETE FROM Posts WHERE PK = 'a' AND SK = '1'\"}", TRUE },
  { "ExecuteStatement",
    "{\"Statement\":\"-- SELECT * FROM Posts\\nDELETE FROM Posts WHERE PK = 'a' AND SK = '1'\"}",
    TRUE },
  { "ExecuteStatement",
    "{\"Statement\":\"/* SELECT */ INSERT INTO Posts VALUE {'PK':'n','SK':'3'}\"}", TRUE },
  { "ExecuteStatement",
    "{\"Statement\":\" \\n\\t  DELETE FROM \\\"Posts\\\" WHERE PK = 'b' AND SK = '1'  \\n\"}",
    TRUE },
  { "BatchExecuteStatement",
    "{\"Statements\":[{\"Statement\":\"SELECT * FROM Posts WHERE PK = 'a' AND SK = '1'\"},"
    "{\"Statement\":\"INSERT INTO Posts VALUE {'PK':'n','SK':'4'}\"}]}",
    FALSE },
  { "BatchExecuteStatement",
    "{\"Statements\":[{\"Statement\":\"INSERT INTO Posts VALUE {'PK':'n','SK':'5'}\"},"
    "{\"Statement\":\"INSERT INTO Posts VALUE {'PK':'n','SK':'6'}\"}]}",
    TRUE },
  { "ExecuteTransaction",
    "{\"TransactStatements\":[{\"Statement\":\"EXISTS(SELECT * FROM Posts WHERE PK = 'a' AND SK = "
    "'1' AND x = 'red')\"},"
    "{\"Statement\":\"UPDATE Posts SET y = 4 WHERE PK = 'b' AND SK = '1'\"}]}",
    TRUE },
  { "ExecuteTransaction",
    "{\"TransactStatements\":[{\"Statement\":\"exists (select * from Posts where PK = 'a' and SK = "
    "'1' and x = 'red')\"}]}",
    FALSE },
  { "ExecuteTransaction",
    "{\"TransactStatements\":[{\"Statement\":\"SELECT * FROM Posts WHERE PK = 'a' AND SK = '1'\"},"
    "{\"Statement\":\"DELETE FROM Posts WHERE PK = 'a' AND SK = '2'\"}]}",
    FALSE },
  /* What does not parse, or has no statement: refused rather than sent. */
  { "ExecuteStatement", "{\"Statement\":\"SELEC * FROM Posts\"}", FALSE },
  { "ExecuteStatement", "{\"Statement\":\"\"}", FALSE },
  { "ExecuteStatement", "{\"Statement\":\"SELECT * FROM Posts WHERE PK = 'a'; DELETE FROM Posts\"}",
    FALSE },
  { "ExecuteStatement", "{\"Statement\":\"SELECT * FROM Posts WHERE PK = ?\"}", FALSE },
  { "ExecuteStatement",
    "{\"Statement\":\"SELECT * FROM Posts WHERE PK = ?\",\"Parameters\":[{\"X\":\"a\"}]}", FALSE },
  { "ExecuteStatement",
    "{\"Statement\":\"SELECT * FROM Posts WHERE PK = ?\",\"Parameters\":{\"S\":\"a\"}}", FALSE },
  { "ExecuteStatement", "{}", FALSE },
  { "ExecuteStatement", "{\"Statement\":5}", FALSE },
  { "ExecuteStatement", "{\"Statements\":[{\"Statement\":\"SELECT * FROM Posts\"}]}", FALSE },
  { "BatchExecuteStatement", "{\"Statements\":[]}", FALSE },
  { "BatchExecuteStatement", "{\"Statement\":\"SELECT * FROM Posts\"}", FALSE },
  { "BatchExecuteStatement", "{\"Statements\":[\"SELECT * FROM Posts\"]}", FALSE },
  { "ExecuteTransaction", "{\"TransactStatements\":[]}", FALSE },
  { "ExecuteTransaction", "{\"TransactStatements\":[{\"Statement\":\"SELECT * FROM\"}]}", FALSE },
  /* With the target prefix ddb_client_call sends as it is. */
  { "DynamoDB_20120810.PutItem",
    "{\"TableName\":\"Posts\",\"Item\":{\"PK\":{\"S\":\"z\"},\"SK\":{\"S\":\"9\"}}}", FALSE },
  { "DynamoDB_20120810.DeleteTable", "{\"TableName\":\"Users\"}", FALSE },
  { "DynamoDB_20120810.ExecuteStatement",
    "{\"Statement\":\"INSERT INTO Posts VALUE {'PK':'n','SK':'1'}\"}", FALSE },
  { "DynamoDBStreams_20120810.PutItem", "{}", FALSE },
};

/* Reads the engine answers (SUCCEEDS) or lets fail with a DynamoDB error (not implemented). */
static const Case reads[] = {
  { "GetItem", "{\"TableName\":\"Posts\",\"Key\":" KEY_A1 "}", TRUE },
  { "Query",
    "{\"TableName\":\"Posts\",\"KeyConditionExpression\":\"PK = :p\","
    "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"a\"}}}",
    TRUE },
  { "Query",
    "{\"TableName\":\"Posts\",\"IndexName\":\"byX\",\"KeyConditionExpression\":\"x = :x\","
    "\"ExpressionAttributeValues\":{\":x\":{\"S\":\"red\"}}}",
    TRUE },
  { "Scan", "{\"TableName\":\"Posts\"}", TRUE },
  { "BatchGetItem", "{\"RequestItems\":{\"Posts\":{\"Keys\":[" KEY_A1 "]}}}", TRUE },
  { "TransactGetItems",
    "{\"TransactItems\":[{\"Get\":{\"TableName\":\"Posts\",\"Key\":" KEY_A1 "}}]}", TRUE },
  { "DescribeTable", "{\"TableName\":\"Posts\"}", TRUE },
  { "DescribeTimeToLive", "{\"TableName\":\"Posts\"}", TRUE },
  { "ListTables", "{}", TRUE },
  { "ListTagsOfResource", "{\"ResourceArn\":\"@ARN_T@\"}", TRUE },
  { "DynamoDBStreams_20120810.ListStreams", "{}", TRUE },
  { "ExecuteStatement", "{\"Statement\":\"SELECT * FROM Posts WHERE PK = 'a'\"}", TRUE },
  { "ExecuteStatement", "{\"Statement\":\"select PK, SK from \\\"Posts\\\" where PK = 'a'\"}",
    TRUE },
  { "ExecuteStatement",
    "{\"Statement\":\"SELECT * FROM \\\"Posts\\\".\\\"byX\\\" WHERE x = 'red'\"}", TRUE },
  { "ExecuteStatement",
    "{\"Statement\":\"  -- the a items\\n /* all */ SELECT * FROM Posts WHERE PK = ?\\n\","
    "\"Parameters\":[{\"S\":\"a\"}]}",
    TRUE },
  { "BatchExecuteStatement",
    "{\"Statements\":[{\"Statement\":\"SELECT * FROM Posts WHERE PK = 'a' AND SK = '1'\"},"
    "{\"Statement\":\"select * from Posts where PK = ? and SK = ?\",\"Parameters\":"
    "[{\"S\":\"b\"},{\"S\":\"1\"}]}]}",
    TRUE },
  { "ExecuteTransaction",
    "{\"TransactStatements\":[{\"Statement\":\"SELECT * FROM Posts WHERE PK = 'a' AND SK = '1'\"},"
    "{\"Statement\":\"SELECT * FROM Posts WHERE PK = 'b' AND SK = '1'\"}]}",
    TRUE },
  { "DynamoDB_20120810.GetItem", "{\"TableName\":\"Posts\",\"Key\":" KEY_A1 "}", FALSE },
  { "DynamoDB_20120810.ExecuteStatement", "{\"Statement\":\"SELECT * FROM Posts\"}", FALSE },
};

typedef struct {
  char *dir;
  char *path;
  DdbBackend *backend;
  char *arn_t, *arn_u;
} Fixture;

static json_t *
call_ok (DdbBackend *backend, const char *operation, const char *request_text)
{
  g_autoptr (GError) error = NULL;
  json_auto_t *request = json_loads (request_text, 0, NULL);
  json_t *response = NULL;

  g_assert_nonnull (request);
  if (!ddb_backend_call (backend, operation, request, NULL, &response, &error))
    g_error ("%s %s: %s", operation, request_text, error->message);
  return response;
}

static char *
table_arn (DdbBackend *backend, const char *table)
{
  g_autofree char *req = g_strdup_printf ("{\"TableName\":\"%s\"}", table);
  json_auto_t *d = call_ok (backend, "DescribeTable", req);

  return g_strdup (json_string_value (json_object_get (json_object_get (d, "Table"), "TableArn")));
}

static char *
with_arns (const Fixture *f, const char *text)
{
  g_autoptr (GString) s = g_string_new (text);

  g_string_replace (s, "@ARN_T@", f->arn_t, 0);
  g_string_replace (s, "@ARN_U@", f->arn_u, 0);
  return g_strdup (s->str);
}

/* Tables Posts (PK, SK; GSI byX; stream; tag env; TTL on exp) with three items, and Users (id). */
static void
fixture_open (Fixture *f, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *tag = NULL;
  json_t *r;

  f->path = g_strdup (path);
  f->backend = ddb_backend_open_database (path, &error);
  g_assert_no_error (error);
  r = call_ok (
      f->backend, "CreateTable",
      "{\"TableName\":\"Posts\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":"
      "[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},{\"AttributeName\":\"SK\","
      "\"AttributeType\":\"S\"},{\"AttributeName\":\"x\",\"AttributeType\":\"S\"}],"
      "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},{\"AttributeName\":"
      "\"SK\",\"KeyType\":\"RANGE\"}],\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byX\","
      "\"KeySchema\":[{\"AttributeName\":\"x\",\"KeyType\":\"HASH\"}],\"Projection\":"
      "{\"ProjectionType\":\"ALL\"}}],\"StreamSpecification\":{\"StreamEnabled\":true,"
      "\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"}}");
  json_decref (r);
  r = call_ok (
      f->backend, "CreateTable",
      "{\"TableName\":\"Users\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":"
      "[{\"AttributeName\":\"id\",\"AttributeType\":\"S\"}],\"KeySchema\":"
      "[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}]}");
  json_decref (r);
  r = call_ok (
      f->backend, "BatchWriteItem",
      "{\"RequestItems\":{\"Posts\":[{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"a\"},\"SK\":"
      "{\"S\":\"1\"},\"x\":{\"S\":\"red\"},\"n\":{\"N\":\"12345678901234567890123456789"
      "012345678\"}}}},{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"2\"},"
      "\"x\":{\"S\":\"blue\"},\"ss\":{\"SS\":[\"p\",\"q\"]},\"b\":{\"B\":\"AAEC\"}}}},"
      "{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"b\"},\"SK\":{\"S\":\"1\"},\"x\":"
      "{\"S\":\"red\"}}}}],\"Users\":[{\"PutRequest\":{\"Item\":{\"id\":{\"S\":\"u1\"}}}}]}}");
  json_decref (r);
  r = call_ok (f->backend, "UpdateTimeToLive",
               "{\"TableName\":\"Posts\",\"TimeToLiveSpecification\":{\"Enabled\":true,"
               "\"AttributeName\":\"exp\"}}");
  json_decref (r);
  f->arn_t = table_arn (f->backend, "Posts");
  f->arn_u = table_arn (f->backend, "Users");
  tag = g_strdup_printf ("{\"ResourceArn\":\"%s\",\"Tags\":[{\"Key\":\"env\",\"Value\":"
                         "\"prod\"}]}",
                         f->arn_t);
  r = call_ok (f->backend, "TagResource", tag);
  json_decref (r);
}

static void
fixture_close (Fixture *f)
{
  g_clear_pointer (&f->backend, ddb_backend_free);
  g_free (f->path);
  g_free (f->arn_t);
  g_free (f->arn_u);
}

static int
compare_dumps (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* Everything a write could change, read through BACKEND: each table's description, TTL, tags
 * and items (sorted), as one text. */
static char *
state (DdbBackend *backend)
{
  g_autoptr (GString) out = g_string_new (NULL);
  json_auto_t *list = call_ok (backend, "ListTables", "{}");
  json_t *name;
  size_t i;

  json_array_foreach (json_object_get (list, "TableNames"), i, name)
    {
      const char *table = json_string_value (name);
      g_autofree char *req = g_strdup_printf ("{\"TableName\":\"%s\"}", table);
      g_autofree char *arn = table_arn (backend, table);
      g_autofree char *tags_req = g_strdup_printf ("{\"ResourceArn\":\"%s\"}", arn);
      json_auto_t *d = call_ok (backend, "DescribeTable", req);
      json_auto_t *ttl = call_ok (backend, "DescribeTimeToLive", req);
      json_auto_t *tags = call_ok (backend, "ListTagsOfResource", tags_req);
      json_auto_t *scan = call_ok (backend, "Scan", req);
      g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (free);
      json_t *item;
      size_t k;

      g_assert_null (json_object_get (scan, "LastEvaluatedKey"));
      json_array_foreach (json_object_get (scan, "Items"), k, item)
        g_ptr_array_add (items, json_dumps (item, JSON_SORT_KEYS | JSON_COMPACT));
      g_ptr_array_sort (items, compare_dumps);
      for (const json_t *const *part = (const json_t *const[]){ d, ttl, tags, NULL }; *part; part++)
        {
          char *text = json_dumps (*part, JSON_SORT_KEYS | JSON_COMPACT);

          g_string_append_printf (out, "%s\n", text);
          free (text);
        }
      for (k = 0; k < items->len; k++)
        g_string_append_printf (out, "%s\n", (char *) items->pdata[k]);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The database file and its WAL, byte for byte. */
static char *
file_bytes (const char *path)
{
  g_autoptr (GString) out = g_string_new (NULL);
  const char *suffixes[] = { "", "-wal" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *p = g_strconcat (path, suffixes[i], NULL);
      g_autofree char *bytes = NULL;
      gsize len = 0;

      if (g_file_get_contents (p, &bytes, &len, NULL))
        g_string_append_len (out, bytes, (gssize) len);
      g_string_append_c (out, '|');
    }
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) out->str, out->len);
}

static Fixture fx;

static void
assert_refused (const char *operation, const char *request_text, const char *kind)
{
  g_autofree char *text = with_arns (&fx, request_text);
  json_auto_t *request = json_loads (text, 0, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) why = NULL;
  json_t *response = (json_t *) 0x1;

  g_assert_nonnull (request);
  g_assert_false (ddb_backend_call (fx.backend, operation, request, NULL, &response, &error));
  g_assert_null (response);
  g_assert_error (error, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY);
  g_assert_true (g_str_has_prefix (error->message, "read-only: "));
  g_assert_nonnull (strstr (error->message, operation));
  g_assert_nonnull (strstr (error->message, "this connection is read-only"));
  if (kind != NULL)
    g_assert_nonnull (strstr (error->message, kind));
  /* The classification says the same without a backend. */
  g_assert_true (ddb_backend_operation_writes (operation, request, &why));
  g_assert_cmpstr (why->message, ==, error->message);
}

/* The kind a PartiQL write's message names, from its first non-SELECT statement. */
static const char *
partiql_kind (const char *request_text)
{
  const char *kinds[] = { "INSERT", "UPDATE", "DELETE", "EXISTS" };
  g_autofree char *upper = g_ascii_strup (request_text, -1);
  const char *first = NULL;
  const char *kind = NULL;

  if (strstr (upper, "SELEC *") != NULL || strstr (upper, "; DELETE") != NULL)
    return "does not parse";
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      const char *at = strstr (upper, kinds[i]);

      /* The earliest kind named: the comments of the corpus only name SELECT. */
      if (at != NULL && (first == NULL || at < first))
        first = at, kind = kinds[i];
    }
  return kind;
}

static void
test_classification (void)
{
  /* Every name of the reference is classified as the reference says, bare or prefixed. */
  g_assert_cmpuint (
      G_N_ELEMENTS (api_reads) + G_N_ELEMENTS (api_writes) + G_N_ELEMENTS (api_partiql), ==, 57);
  for (guint i = 0; i < G_N_ELEMENTS (api_reads); i++)
    {
      g_autofree char *prefixed = g_strconcat ("DynamoDB_20120810.", api_reads[i], NULL);

      g_assert_false (ddb_backend_operation_writes (api_reads[i], NULL, NULL));
      g_assert_false (ddb_backend_operation_writes (prefixed, NULL, NULL));
    }
  for (guint i = 0; i < G_N_ELEMENTS (streams_reads); i++)
    {
      g_autofree char *prefixed = g_strconcat ("DynamoDBStreams_20120810.", streams_reads[i], NULL);

      g_assert_false (ddb_backend_operation_writes (streams_reads[i], NULL, NULL));
      g_assert_false (ddb_backend_operation_writes (prefixed, NULL, NULL));
    }
  for (guint i = 0; i < G_N_ELEMENTS (api_writes); i++)
    {
      g_autofree char *prefixed = g_strconcat ("DynamoDB_20120810.", api_writes[i], NULL);
      g_autoptr (GError) why = NULL;

      g_assert_true (ddb_backend_operation_writes (api_writes[i], NULL, &why));
      g_assert_error (why, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY);
      g_assert_nonnull (strstr (why->message, api_writes[i]));
      g_assert_null (strstr (why->message, "not known"));
      g_assert_true (ddb_backend_operation_writes (prefixed, NULL, NULL));
    }
  /* PartiQL without its statements may write. */
  for (guint i = 0; i < G_N_ELEMENTS (api_partiql); i++)
    g_assert_true (ddb_backend_operation_writes (api_partiql[i], NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (unknown_names); i++)
    {
      g_autoptr (GError) why = NULL;

      g_assert_true (ddb_backend_operation_writes (unknown_names[i], NULL, &why));
      g_assert_nonnull (strstr (why->message, "not known to only read"));
    }
  g_assert_true (ddb_backend_operation_writes (NULL, NULL, NULL));
}

static void
test_writes_refused (void)
{
  g_autofree char *before = NULL;
  g_autofree char *bytes_before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *bytes_after = NULL;
  guint n = 0;

  ddb_backend_set_read_only (fx.backend, TRUE);
  g_assert_true (ddb_backend_get_read_only (fx.backend));
  before = state (fx.backend);
  bytes_before = file_bytes (fx.path);
  for (guint i = 0; i < G_N_ELEMENTS (writes); i++, n++)
    {
      const char *op = writes[i].operation;

      assert_refused (op, writes[i].request,
                      strstr (op, "Statement") || strstr (op, "Transaction")
                          ? partiql_kind (writes[i].request)
                          : NULL);
      /* Each PartiQL write also as the other PartiQL operations carry it. */
      if (strcmp (op, "ExecuteStatement") == 0)
        {
          json_auto_t *r = json_loads (writes[i].request, 0, NULL);
          json_auto_t *batch = json_pack ("{s:[O]}", "Statements", r);
          json_auto_t *tx = json_pack ("{s:[O]}", "TransactStatements", r);
          char *b = json_dumps (batch, 0), *t = json_dumps (tx, 0);

          assert_refused ("BatchExecuteStatement", b, NULL);
          assert_refused ("ExecuteTransaction", t, NULL);
          free (b);
          free (t);
          n += 2;
        }
      after = state (fx.backend);
      g_assert_cmpstr (after, ==, before);
      g_clear_pointer (&after, g_free);
    }
  /* Every write of the reference, with requests the engine does not implement or an empty one. */
  for (guint i = 0; i < G_N_ELEMENTS (api_writes); i++, n++)
    {
      g_autofree char *prefixed = g_strconcat ("DynamoDB_20120810.", api_writes[i], NULL);

      assert_refused (api_writes[i], "{\"TableName\":\"Posts\"}", NULL);
      assert_refused (prefixed, "{}", NULL);
    }
  for (guint i = 0; i < G_N_ELEMENTS (unknown_names); i++, n++)
    assert_refused (unknown_names[i], "{\"TableName\":\"Posts\"}", "not known");
  after = state (fx.backend);
  g_assert_cmpstr (after, ==, before);
  bytes_after = file_bytes (fx.path);
  g_assert_cmpstr (bytes_after, ==, bytes_before);
  g_test_message ("%u writes refused", n);
}

/* The effective writes of the corpus do change a writable copy: the refusals above are real. */
static void
test_writes_effective (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (writes); i++)
    {
      Fixture copy = { 0 };
      g_autofree char *before = NULL;
      g_autofree char *after = NULL;
      g_autofree char *text = NULL;
      json_t *r;

      if (!writes[i].effective)
        continue;
      fixture_open (&copy, ":memory:");
      before = state (copy.backend);
      text = with_arns (&copy, writes[i].request);
      r = call_ok (copy.backend, writes[i].operation, text);
      json_decref (r);
      after = state (copy.backend);
      if (strcmp (before, after) == 0)
        g_error ("%s %s changed nothing", writes[i].operation, text);
      fixture_close (&copy);
    }
}

static void
test_reads_answered (void)
{
  g_autofree char *before = state (fx.backend);
  g_autofree char *after = NULL;

  ddb_backend_set_read_only (fx.backend, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (reads); i++)
    {
      g_autofree char *text = with_arns (&fx, reads[i].request);
      json_auto_t *request = json_loads (text, 0, NULL);
      g_autoptr (GError) ro_error = NULL;
      g_autoptr (GError) rw_error = NULL;
      json_auto_t *ro = NULL;
      json_auto_t *rw = NULL;
      gboolean ro_ok, rw_ok;

      g_assert_nonnull (request);
      g_assert_false (ddb_backend_operation_writes (reads[i].operation, request, NULL));
      ro_ok = ddb_backend_call (fx.backend, reads[i].operation, request, NULL, &ro, &ro_error);
      ddb_backend_set_read_only (fx.backend, FALSE);
      rw_ok = ddb_backend_call (fx.backend, reads[i].operation, request, NULL, &rw, &rw_error);
      ddb_backend_set_read_only (fx.backend, TRUE);
      if (reads[i].effective && !ro_ok)
        g_error ("%s %s: %s", reads[i].operation, text, ro_error->message);
      g_assert_cmpint (ro_ok, ==, rw_ok);
      if (ro_ok)
        {
          g_autofree char *a = json_dumps (ro, JSON_SORT_KEYS);
          g_autofree char *b = json_dumps (rw, JSON_SORT_KEYS);

          g_assert_cmpstr (a, ==, b);
        }
      else
        {
          g_assert_true (ro_error->domain != DDB_BACKEND_ERROR);
          g_assert_cmpstr (ro_error->message, ==, rw_error->message);
        }
    }
  /* Every read of the reference gets through (answered or a DynamoDB error, never refused). */
  for (guint i = 0; i < G_N_ELEMENTS (api_reads); i++)
    {
      json_auto_t *request = json_pack ("{s:s}", "TableName", "Posts");
      json_auto_t *response = NULL;
      g_autoptr (GError) error = NULL;

      if (!ddb_backend_call (fx.backend, api_reads[i], request, NULL, &response, &error))
        g_assert_true (error->domain != DDB_BACKEND_ERROR);
    }
  after = state (fx.backend);
  g_assert_cmpstr (after, ==, before);
}

static void
count_item (DdbValue *item, gpointer user_data)
{
  (*(guint *) user_data)++;
  ddb_value_free (item);
}

/* ddb_backend_read: Query and Scan answered; anything else refused before the engine sees it. */
static void
test_backend_read (void)
{
  json_auto_t *scan = json_pack ("{s:s}", "TableName", "Posts");
  json_auto_t *put = json_loads ("{\"TableName\":\"Posts\",\"Item\":{\"PK\":{\"S\":\"r\"},\"SK\":"
                                 "{\"S\":\"1\"}}}",
                                 0, NULL);
  json_t *response = NULL;
  g_autoptr (GError) error = NULL;
  guint n = 0;

  ddb_backend_set_read_only (fx.backend, TRUE);
  g_assert_true (
      ddb_backend_read (fx.backend, "Scan", scan, count_item, &n, NULL, &response, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 3);
  json_decref (response);
  g_assert_false (
      ddb_backend_read (fx.backend, "PutItem", put, count_item, &n, NULL, &response, &error));
  g_assert_error (error, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY);
  g_assert_null (response);
}

/* An import into a read-only database is refused before the source is read; writable again,
 * the same import works. */
static void
test_import (void)
{
  g_autofree char *source = g_build_filename (fx.dir, "items.jsonl", NULL);
  g_autofree char *missing = g_build_filename (fx.dir, "missing.jsonl", NULL);
  DdbImportOptions options = { 0 };
  DdbSnapshotProgress progress;
  g_autoptr (GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  g_assert_true (g_file_set_contents (source, "{\"Item\":{\"id\":{\"S\":\"1\"}}}\n", -1, NULL));
  options.table_name = "Imported";
  options.key = "id:S";
  ddb_backend_set_read_only (fx.backend, TRUE);
  before = state (fx.backend);
  g_assert_false (ddb_backend_check_writable (fx.backend, "import", &error));
  g_assert_error (error, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY);
  g_clear_error (&error);
  g_assert_false (ddb_transfer_import (fx.backend, source, &options, NULL, &progress, &error));
  g_assert_error (error, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY);
  g_assert_nonnull (strstr (error->message, "import"));
  g_assert_cmpuint (progress.items, ==, 0);
  g_clear_error (&error);
  /* Refused before the source is opened: a missing one gives the same refusal. */
  g_assert_false (ddb_transfer_import (fx.backend, missing, &options, NULL, NULL, &error));
  g_assert_error (error, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY);
  g_clear_error (&error);
  after = state (fx.backend);
  g_assert_cmpstr (after, ==, before);

  ddb_backend_set_read_only (fx.backend, FALSE);
  g_assert_true (ddb_backend_check_writable (fx.backend, "import", &error));
  g_assert_true (ddb_transfer_import (fx.backend, source, &options, NULL, &progress, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (progress.items, ==, 1);
  g_clear_pointer (&after, g_free);
  after = state (fx.backend);
  g_assert_cmpstr (after, !=, before);
  ddb_backend_set_read_only (fx.backend, TRUE);
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  fx.dir = g_dir_make_tmp ("test-read-only-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (fx.dir, "db.sqlite", NULL);
  fixture_open (&fx, path);
  g_test_add_func ("/read-only/classification", test_classification);
  g_test_add_func ("/read-only/writes-refused", test_writes_refused);
  g_test_add_func ("/read-only/writes-effective", test_writes_effective);
  g_test_add_func ("/read-only/reads-answered", test_reads_answered);
  g_test_add_func ("/read-only/backend-read", test_backend_read);
  g_test_add_func ("/read-only/import", test_import);
  status = g_test_run ();
  fixture_close (&fx);
  ddb_engine_remove_files (path);
  {
    g_autofree char *source = g_build_filename (fx.dir, "items.jsonl", NULL);

    g_unlink (source);
  }
  g_rmdir (fx.dir);
  g_free (fx.dir);
  return status;
}
