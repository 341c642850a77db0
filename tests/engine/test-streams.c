/* test-streams.c: stream records and the Streams API in the engine, and Time to Live expiry:
 * a record per committed change and none for a write that changes nothing, records consistent
 * with what a group commit kept, records that outlive the process, trimming after 24 hours, and
 * TTL deletions recorded as the service's. */
#include <string.h>

#include "engine/engine-private.h"
#include "engine/stream-store.h"
#include "engine-test-util.h"

#define STREAMS "DynamoDBStreams_20120810."

static char *
create_streamed (DdbEngine *e, const char *table, const char *view)
{
  g_autoptr (GString) arn = g_string_new (NULL);
  json_t *r = etu_ok (e, "CreateTable",
                      "{'TableName': '%s', 'BillingMode': 'PAY_PER_REQUEST',"
                      " 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
                      " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}],"
                      " 'StreamSpecification': {'StreamEnabled': true, 'StreamViewType': '%s'}}",
                      table, view);

  g_string_append (arn, json_string_value (json_object_get (json_object_get (r, "TableDescription"),
                                                            "LatestStreamArn")));
  json_decref (r);
  return g_strdup (arn->str);
}

/* A shard iterator of the stream's one shard (seq NULL for TRIM_HORIZON and LATEST). */
static char *
iterator (DdbEngine *e, const char *arn, const char *type, const char *seq)
{
  json_t *d = etu_ok (e, STREAMS "DescribeStream", "{'StreamArn': '%s'}", arn);
  json_t *shards = json_object_get (json_object_get (d, "StreamDescription"), "Shards");
  const char *shard = json_string_value (json_object_get (json_array_get (shards, 0), "ShardId"));
  json_t *req
      = json_pack ("{ss ss ss}", "StreamArn", arn, "ShardId", shard, "ShardIteratorType", type);
  json_t *r;
  char *it;

  g_assert_cmpuint (json_array_size (shards), ==, 1);
  if (seq != NULL)
    json_object_set_new (req, "SequenceNumber", json_string (seq));
  r = etu_call_ok (e, STREAMS "GetShardIterator", req);
  it = g_strdup (json_string_value (json_object_get (r, "ShardIterator")));
  json_decref (r);
  json_decref (req);
  json_decref (d);
  return it;
}

/* All the records from TRIM_HORIZON (a new reference to the Records array). */
static json_t *
records (DdbEngine *e, const char *arn)
{
  g_autofree char *it = iterator (e, arn, "TRIM_HORIZON", NULL);
  json_t *r = etu_ok (e, STREAMS "GetRecords", "{'ShardIterator': '%s'}", it);
  json_t *recs = json_incref (json_object_get (r, "Records"));

  json_decref (r);
  return recs;
}

static const char *
rec_str (json_t *recs, guint i, const char *member)
{
  return json_string_value (json_object_get (json_array_get (recs, i), member));
}

static json_t *
rec_ddb (json_t *recs, guint i, const char *member)
{
  return json_object_get (json_object_get (json_array_get (recs, i), "dynamodb"), member);
}

static void
test_records_and_images (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  g_autofree char *arn = create_streamed (e, "Tab", "NEW_AND_OLD_IMAGES");
  json_t *recs;

  etu_put (e, "Tab", "{'pk': {'S': 'a'}, 'v': {'N': '1'}}");
  json_decref (etu_ok (e, "UpdateItem",
                       "{'TableName': 'Tab', 'Key': {'pk': {'S': 'a'}}, 'UpdateExpression':"
                       " 'SET v = :v', 'ExpressionAttributeValues': {':v': {'N': '2'}}}"));
  json_decref (etu_ok (e, "DeleteItem", "{'TableName': 'Tab', 'Key': {'pk': {'S': 'a'}}}"));
  recs = records (e, arn);
  g_assert_cmpuint (json_array_size (recs), ==, 3);
  g_assert_cmpstr (rec_str (recs, 0, "eventName"), ==, "INSERT");
  g_assert_cmpstr (rec_str (recs, 1, "eventName"), ==, "MODIFY");
  g_assert_cmpstr (rec_str (recs, 2, "eventName"), ==, "REMOVE");
  etu_assert_json (rec_ddb (recs, 0, "NewImage"), "{'pk': {'S': 'a'}, 'v': {'N': '1'}}");
  g_assert_null (rec_ddb (recs, 0, "OldImage"));
  etu_assert_json (rec_ddb (recs, 1, "OldImage"), "{'pk': {'S': 'a'}, 'v': {'N': '1'}}");
  etu_assert_json (rec_ddb (recs, 1, "NewImage"), "{'pk': {'S': 'a'}, 'v': {'N': '2'}}");
  etu_assert_json (rec_ddb (recs, 2, "OldImage"), "{'pk': {'S': 'a'}, 'v': {'N': '2'}}");
  g_assert_null (rec_ddb (recs, 2, "NewImage"));
  for (guint i = 0; i < 3; i++)
    {
      etu_assert_json (rec_ddb (recs, i, "Keys"), "{'pk': {'S': 'a'}}");
      g_assert_cmpstr (rec_str (recs, i, "eventVersion"), ==, "1.1");
      g_assert_cmpstr (rec_str (recs, i, "eventSource"), ==, "aws:dynamodb");
      g_assert_true (json_is_integer (rec_ddb (recs, i, "ApproximateCreationDateTime")));
      g_assert_cmpstr (json_string_value (rec_ddb (recs, i, "StreamViewType")), ==,
                       "NEW_AND_OLD_IMAGES");
      g_assert_cmpint (json_integer_value (rec_ddb (recs, i, "SizeBytes")), >, 0);
      g_assert_cmpuint (strlen (json_string_value (rec_ddb (recs, i, "SequenceNumber"))), ==, 21);
      if (i > 0)
        g_assert_cmpstr (json_string_value (rec_ddb (recs, i - 1, "SequenceNumber")), <,
                         json_string_value (rec_ddb (recs, i, "SequenceNumber")));
    }
  json_decref (recs);
}

static void
test_keys_only_and_noops (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  g_autofree char *arn = create_streamed (e, "Tab", "KEYS_ONLY");
  json_t *recs;

  etu_put (e, "Tab", "{'pk': {'S': 'a'}, 'v': {'SS': ['x', 'y']}}");
  /* The same item again, a set in another order, an update to the same value, a delete of
   * nothing and a failed condition: none changes any data. */
  etu_put (e, "Tab", "{'pk': {'S': 'a'}, 'v': {'SS': ['y', 'x']}}");
  json_decref (etu_ok (e, "UpdateItem",
                       "{'TableName': 'Tab', 'Key': {'pk': {'S': 'a'}}, 'UpdateExpression':"
                       " 'SET v = :v', 'ExpressionAttributeValues': {':v': {'SS': ['x', 'y']}}}"));
  json_decref (etu_ok (e, "DeleteItem", "{'TableName': 'Tab', 'Key': {'pk': {'S': 'zz'}}}"));
  json_decref (etu_fails (e, "PutItem", DDB_ERROR_CONDITIONAL_CHECK_FAILED, NULL,
                          "{'TableName': 'Tab', 'Item': {'pk': {'S': 'a'}},"
                          " 'ConditionExpression': 'attribute_not_exists(pk)'}"));
  recs = records (e, arn);
  g_assert_cmpuint (json_array_size (recs), ==, 1);
  g_assert_null (rec_ddb (recs, 0, "NewImage"));
  g_assert_null (rec_ddb (recs, 0, "OldImage"));
  json_decref (recs);
}

static void
test_transaction_all_or_none (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  g_autofree char *arn = create_streamed (e, "Tab", "NEW_IMAGE");
  json_t *recs;

  etu_put (e, "Tab", "{'pk': {'S': 'a'}}");
  json_decref (
      etu_fails (e, "TransactWriteItems", DDB_ERROR_TRANSACTION_CANCELED, NULL,
                 "{'TransactItems': [{'Put': {'TableName': 'Tab', 'Item': {'pk': {'S': 'b'}}}},"
                 " {'Put': {'TableName': 'Tab', 'Item': {'pk': {'S': 'a'}, 'x': {'S': '1'}},"
                 "  'ConditionExpression': 'attribute_not_exists(pk)'}}]}"));
  recs = records (e, arn);
  g_assert_cmpuint (json_array_size (recs), ==, 1);
  json_decref (recs);
  json_decref (
      etu_ok (e, "TransactWriteItems",
              "{'TransactItems': [{'Put': {'TableName': 'Tab', 'Item': {'pk': {'S': 'b'}}}},"
              " {'Delete': {'TableName': 'Tab', 'Key': {'pk': {'S': 'a'}}}}]}"));
  recs = records (e, arn);
  g_assert_cmpuint (json_array_size (recs), ==, 3);
  json_decref (recs);
}

static void
test_disable_and_delete_table (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  g_autofree char *arn = create_streamed (e, "Tab", "KEYS_ONLY");
  json_t *d, *l;

  etu_put (e, "Tab", "{'pk': {'S': 'a'}}");
  json_decref (etu_ok (e, "DeleteTable", "{'TableName': 'Tab'}"));
  d = etu_ok (e, STREAMS "DescribeStream", "{'StreamArn': '%s'}", arn);
  g_assert_cmpstr (json_string_value (
                       json_object_get (json_object_get (d, "StreamDescription"), "StreamStatus")),
                   ==, "DISABLED");
  json_decref (d);
  l = etu_ok (e, STREAMS "ListStreams", "{'TableName': 'Tab'}");
  g_assert_cmpuint (json_array_size (json_object_get (l, "Streams")), ==, 1);
  json_decref (l);
  /* A new table of the same name: its stream is a new one, the old one still readable. */
  {
    g_autofree char *arn2 = create_streamed (e, "Tab", "KEYS_ONLY");
    json_t *recs = records (e, arn);

    g_assert_cmpstr (arn, !=, arn2);
    g_assert_cmpuint (json_array_size (recs), ==, 1);
    json_decref (recs);
  }
}

/* A day after its table was deleted, a disabled stream goes with its records (the sweeper's
 * one pass over every record, taken only then). */
static void
test_disabled_stream_removed (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  g_autofree char *arn = create_streamed (e, "Tab", "KEYS_ONLY");
  g_autofree char *kept = create_streamed (e, "Other", "KEYS_ONLY");
  GError *error = NULL;
  json_t *l, *recs;

  etu_put (e, "Tab", "{'pk': {'S': 'a'}}");
  etu_put (e, "Other", "{'pk': {'S': 'b'}}");
  json_decref (etu_ok (e, "DeleteTable", "{'TableName': 'Tab'}"));
  /* An hour later: nothing goes. */
  g_assert_true (ddb_stream_trim (e->store, g_get_real_time () / 1000 + 3600 * 1000, &error));
  g_assert_no_error (error);
  recs = records (e, arn);
  g_assert_cmpuint (json_array_size (recs), ==, 1);
  json_decref (recs);
  g_assert_true (ddb_stream_trim (e->store, g_get_real_time () / 1000 + 25 * 3600 * 1000, &error));
  g_assert_no_error (error);
  json_decref (etu_fails (e, STREAMS "DescribeStream", DDB_ERROR_RESOURCE_NOT_FOUND, NULL,
                          "{'StreamArn': '%s'}", arn));
  l = etu_ok (e, STREAMS "ListStreams", "{}");
  g_assert_cmpuint (json_array_size (json_object_get (l, "Streams")), ==, 1);
  g_assert_cmpstr (json_string_value (json_object_get (
                       json_array_get (json_object_get (l, "Streams"), 0), "StreamArn")),
                   ==, kept);
  json_decref (l);
}

static void
test_trimmed_after_24_hours (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  g_autofree char *arn = create_streamed (e, "Tab", "KEYS_ONLY");
  g_autofree char *it = NULL;
  json_t *recs, *r;
  char seq[32];
  GError *error = NULL;

  etu_put (e, "Tab", "{'pk': {'S': 'a'}}");
  recs = records (e, arn);
  g_strlcpy (seq, json_string_value (rec_ddb (recs, 0, "SequenceNumber")), sizeof seq);
  json_decref (recs);
  it = iterator (e, arn, "TRIM_HORIZON", NULL);
  /* As the sweeper would a day and an hour later. */
  g_assert_true (ddb_stream_trim (e->store, g_get_real_time () / 1000 + 25 * 3600 * 1000, &error));
  g_assert_no_error (error);
  recs = records (e, arn);
  g_assert_cmpuint (json_array_size (recs), ==, 0);
  json_decref (recs);
  json_decref (etu_fails (e, STREAMS "GetRecords", DDB_ERROR_TRIMMED_DATA_ACCESS, NULL,
                          "{'ShardIterator': '%s'}", it));
  {
    json_t *d = etu_ok (e, STREAMS "DescribeStream", "{'StreamArn': '%s'}", arn);
    json_t *shard
        = json_array_get (json_object_get (json_object_get (d, "StreamDescription"), "Shards"), 0);
    json_t *req = json_pack ("{ss sO ss ss}", "StreamArn", arn, "ShardId",
                             json_object_get (shard, "ShardId"), "ShardIteratorType",
                             "AT_SEQUENCE_NUMBER", "SequenceNumber", seq);

    json_decref (
        etu_call_fails (e, STREAMS "GetShardIterator", req, DDB_ERROR_TRIMMED_DATA_ACCESS, NULL));
    json_decref (req);
    json_decref (d);
  }
  g_free (it);
  it = iterator (e, arn, "LATEST", NULL);
  r = etu_ok (e, STREAMS "GetRecords", "{'ShardIterator': '%s', 'Limit': 1}", it);
  g_assert_cmpuint (json_array_size (json_object_get (r, "Records")), ==, 0);
  json_decref (r);
}

static void
test_iterator_checks (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  g_autofree char *arn = create_streamed (e, "Tab", "KEYS_ONLY");
  g_autofree char *raw = g_strdup_printf ("%s\n0\n%" G_GINT64_FORMAT, arn,
                                          g_get_real_time () / 1000 - 16 * 60 * 1000);
  g_autofree char *old = g_base64_encode ((const guchar *) raw, strlen (raw));
  g_autofree char *it = iterator (e, arn, "LATEST", NULL);

  json_decref (etu_fails (e, STREAMS "GetRecords", DDB_ERROR_EXPIRED_ITERATOR, NULL,
                          "{'ShardIterator': '%s'}", old));
  json_decref (etu_fails (e, STREAMS "GetRecords", DDB_ERROR_VALIDATION, "Invalid ShardIterator",
                          "{'ShardIterator': 'bm90IG91cnM='}"));
  json_decref (etu_fails (e, STREAMS "GetRecords", DDB_ERROR_VALIDATION, NULL,
                          "{'ShardIterator': '%s', 'Limit': 0}", it));
  json_decref (etu_fails (e, STREAMS "DescribeStream", DDB_ERROR_RESOURCE_NOT_FOUND, NULL,
                          "{'StreamArn': '%s0'}", arn));
  json_decref (etu_fails (e, STREAMS "DescribeStream", DDB_ERROR_VALIDATION, NULL,
                          "{'StreamArn': 'arn:short'}"));
}

/* A page holds at most 1 MB of records, whatever the Limit. */
static void
test_page_size (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  g_autofree char *arn = create_streamed (e, "Tab", "NEW_IMAGE");
  g_autofree char *big = g_strnfill (350 * 1024, 'x');
  g_autofree char *it = NULL;
  guint pages[3] = { 0 };

  for (guint i = 0; i < 4; i++)
    {
      json_t *req = etu_json ("{'TableName': 'Tab', 'Item': {'pk': {'S': 'k%u'}}}", i);

      json_object_set_new (json_object_get (req, "Item"), "v", json_pack ("{ss}", "S", big));
      json_decref (etu_call_ok (e, "PutItem", req));
      json_decref (req);
    }
  it = iterator (e, arn, "TRIM_HORIZON", NULL);
  for (guint p = 0; p < 3; p++)
    {
      json_t *r = etu_ok (e, STREAMS "GetRecords", "{'ShardIterator': '%s'}", it);

      pages[p] = json_array_size (json_object_get (r, "Records"));
      g_free (it);
      it = g_strdup (json_string_value (json_object_get (r, "NextShardIterator")));
      json_decref (r);
    }
  g_assert_cmpuint (pages[0], ==, 2);
  g_assert_cmpuint (pages[1], ==, 2);
  g_assert_cmpuint (pages[2], ==, 0);
}

static void
test_seq_format (void)
{
  g_autofree char *a = ddb_stream_seq_format (9);
  g_autofree char *b = ddb_stream_seq_format (10);
  gint64 v = 0;

  g_assert_cmpstr (a, ==, "100000000000000000009");
  g_assert_cmpstr (a, <, b);
  g_assert_true (ddb_stream_seq_parse (b, &v));
  g_assert_cmpint (v, ==, 10);
  g_assert_false (ddb_stream_seq_parse ("12", &v));
  g_assert_false (ddb_stream_seq_parse ("200000000000000000009", &v));
  g_assert_false (ddb_stream_seq_parse ("10000000000000000000x", &v));
}

static void
ttl_expiry_on (DdbEngine *e)
{
  g_autofree char *arn = create_streamed (e, "Tab", "OLD_IMAGE");
  gint64 now = 2000000000;
  guint deleted = 0;
  GError *error = NULL;
  json_t *recs, *scan;

  json_decref (etu_ok (e, "UpdateTimeToLive",
                       "{'TableName': 'Tab', 'TimeToLiveSpecification': {'Enabled': true,"
                       " 'AttributeName': 'exp'}}"));
  etu_put (e, "Tab", "{'pk': {'S': 'past'}, 'exp': {'N': '1999999999'}}");
  etu_put (e, "Tab", "{'pk': {'S': 'now'}, 'exp': {'N': '2000000000'}}");
  etu_put (e, "Tab", "{'pk': {'S': 'future'}, 'exp': {'N': '2000000001'}}");
  etu_put (e, "Tab", "{'pk': {'S': 'string'}, 'exp': {'S': '1'}}");
  etu_put (e, "Tab", "{'pk': {'S': 'ancient'}, 'exp': {'N': '1000000000'}}");
  etu_put (e, "Tab", "{'pk': {'S': 'none'}}");
  g_assert_true (ddb_engine_expire (e, now, &deleted, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (deleted, ==, 2);
  scan = etu_ok (e, "Scan", "{'TableName': 'Tab', 'Select': 'COUNT'}");
  g_assert_cmpint (json_integer_value (json_object_get (scan, "Count")), ==, 4);
  json_decref (scan);
  recs = records (e, arn);
  g_assert_cmpuint (json_array_size (recs), ==, 8);
  for (guint i = 6; i < 8; i++)
    {
      g_assert_cmpstr (rec_str (recs, i, "eventName"), ==, "REMOVE");
      etu_assert_json (json_object_get (json_array_get (recs, i), "userIdentity"),
                       "{'Type': 'Service', 'PrincipalId': 'dynamodb.amazonaws.com'}");
      g_assert_nonnull (rec_ddb (recs, i, "OldImage"));
    }
  g_assert_null (json_object_get (json_array_get (recs, 0), "userIdentity"));
  json_decref (recs);
  /* Nothing left to expire: a second pass deletes nothing; a user's delete is no service's. */
  g_assert_true (ddb_engine_expire (e, now, &deleted, &error));
  g_assert_cmpuint (deleted, ==, 0);
  json_decref (etu_ok (e, "DeleteItem", "{'TableName': 'Tab', 'Key': {'pk': {'S': 'future'}}}"));
  recs = records (e, arn);
  g_assert_null (json_object_get (json_array_get (recs, 8), "userIdentity"));
  json_decref (recs);
}

static void
test_ttl_expiry (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();

  ttl_expiry_on (e);
}

/* On a file, the scan runs on a reader and the deletions on the writer. */
static void
test_ttl_expiry_file (void)
{
  g_autofree char *dir = etu_tmp_dir ("streams-ttl-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "db", NULL);
  GError *error = NULL;
  DdbEngine *e = ddb_engine_open (path, &error);

  g_assert_no_error (error);
  ttl_expiry_on (e);
  ddb_engine_free (e);
  etu_remove_tree (dir);
}

typedef struct {
  DdbEngine *engine;
  guint id;
} Writer;

#define WRITERS 4
#define ROUNDS 40

/* Each round a new item and a conditional put that fails inside the group. */
static gpointer
writer_run (gpointer data)
{
  Writer *w = data;

  for (guint i = 0; i < ROUNDS; i++)
    {
      json_t *r = NULL;
      GError *error = NULL;
      json_t *put = etu_json ("{'TableName': 'Tab', 'Item': {'pk': {'S': 'w%u-%u'}}}", w->id, i);
      json_t *clash = etu_json ("{'TableName': 'Tab', 'Item': {'pk': {'S': 'w%u-%u'},"
                                " 'x': {'S': 'no'}}, 'ConditionExpression':"
                                " 'attribute_not_exists(pk)'}",
                                w->id, i);

      g_assert_true (ddb_engine_call (w->engine, "PutItem", put, &r, &error));
      json_decref (r);
      r = NULL;
      g_assert_false (ddb_engine_call (w->engine, "PutItem", clash, &r, &error));
      g_clear_error (&error);
      g_clear_pointer (&r, json_decref);
      json_decref (put);
      json_decref (clash);
    }
  return NULL;
}

static void
test_group_commit_and_restart (void)
{
  g_autofree char *dir = etu_tmp_dir ("streams-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "db", NULL);
  g_autofree char *arn = NULL;
  g_autofree char *last = NULL;
  DdbEngine *e;
  GError *error = NULL;
  GThread *threads[WRITERS];
  Writer writers[WRITERS];
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  json_t *recs;

  e = ddb_engine_open (path, &error);
  g_assert_no_error (error);
  arn = create_streamed (e, "Tab", "NEW_IMAGE");
  for (guint i = 0; i < WRITERS; i++)
    {
      writers[i] = (Writer){ e, i };
      threads[i] = g_thread_new ("writer", writer_run, &writers[i]);
    }
  for (guint i = 0; i < WRITERS; i++)
    g_thread_join (threads[i]);
  recs = records (e, arn);
  /* Exactly the puts that committed, each once, none of the failed ones, in increasing order. */
  g_assert_cmpuint (json_array_size (recs), ==, WRITERS * ROUNDS);
  for (guint i = 0; i < json_array_size (recs); i++)
    {
      json_t *img = rec_ddb (recs, i, "NewImage");

      g_assert_cmpstr (rec_str (recs, i, "eventName"), ==, "INSERT");
      g_assert_null (json_object_get (img, "x"));
      g_assert_true (g_hash_table_add (
          seen, g_strdup (json_string_value (json_object_get (json_object_get (img, "pk"), "S")))));
      if (i > 0)
        g_assert_cmpstr (json_string_value (rec_ddb (recs, i - 1, "SequenceNumber")), <,
                         json_string_value (rec_ddb (recs, i, "SequenceNumber")));
    }
  last
      = g_strdup (json_string_value (rec_ddb (recs, json_array_size (recs) - 1, "SequenceNumber")));
  json_decref (recs);
  ddb_engine_free (e);

  /* Reopened: the records are there, and new ones come after them. */
  e = ddb_engine_open (path, &error);
  g_assert_no_error (error);
  etu_put (e, "Tab", "{'pk': {'S': 'after'}}");
  recs = records (e, arn);
  g_assert_cmpuint (json_array_size (recs), ==, WRITERS * ROUNDS + 1);
  g_assert_cmpstr (json_string_value (rec_ddb (recs, WRITERS * ROUNDS, "SequenceNumber")), >, last);
  json_decref (recs);
  ddb_engine_free (e);
  etu_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/streams/records-and-images", test_records_and_images);
  g_test_add_func ("/streams/keys-only-and-noops", test_keys_only_and_noops);
  g_test_add_func ("/streams/transaction-all-or-none", test_transaction_all_or_none);
  g_test_add_func ("/streams/disable-and-delete-table", test_disable_and_delete_table);
  g_test_add_func ("/streams/trimmed-after-24-hours", test_trimmed_after_24_hours);
  g_test_add_func ("/streams/disabled-stream-removed", test_disabled_stream_removed);
  g_test_add_func ("/streams/iterator-checks", test_iterator_checks);
  g_test_add_func ("/streams/seq-format", test_seq_format);
  g_test_add_func ("/streams/page-size", test_page_size);
  g_test_add_func ("/streams/ttl-expiry", test_ttl_expiry);
  g_test_add_func ("/streams/ttl-expiry-file", test_ttl_expiry_file);
  g_test_add_func ("/streams/group-commit-and-restart", test_group_commit_and_restart);
  return g_test_run ();
}
