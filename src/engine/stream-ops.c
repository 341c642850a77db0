/* stream-ops.c: the DynamoDB Streams API (DynamoDBStreams_20120810): ListStreams, DescribeStream,
 * GetShardIterator, GetRecords, over the records stream-store.c keeps. A stream has one shard.
 *
 * A shard iterator is the stream's ARN, the sequence number it reads after and when it was
 * issued, in base64: stateless, so iterators survive a restart as AWS's do, and expire after 15
 * minutes as AWS's do. */
#include <string.h>

#include "core/error.h"
#include "engine/engine-private.h"
#include "engine/request.h"
#include "engine/stream-store.h"

#define ITERATOR_LIFETIME_MS (15 * 60 * 1000)

static gint64
now_ms (void)
{
  return g_get_real_time () / 1000;
}

static char *
shard_id (const DdbStreamInfo *info)
{
  return g_strdup_printf ("shardId-%020" G_GINT64_FORMAT "-%08x", info->created_ms,
                          (guint) g_str_hash (info->arn));
}

/* A stream ARN member (StreamArn, ExclusiveStartStreamArn): 37 to 1024 characters, as the API
 * reference gives them. */
static void
check_arn_length (DdbViolations *v, const char *member, const char *arn, gboolean required)
{
  if (arn == NULL && required)
    ddb_violation_add (v, member, NULL, "Member must not be null");
  else if (arn != NULL && strlen (arn) < 37)
    ddb_violation_add (v, member, arn, "Member must have length greater than or equal to 37");
  else if (arn != NULL && strlen (arn) > 1024)
    ddb_violation_add (v, member, arn, "Member must have length less than or equal to 1024");
}

/* The stream `arn` names; ResourceNotFoundException when none (never was, or gone). */
static DdbStreamInfo *
stream_named (DdbEngine *e, const char *arn, GError **error)
{
  DdbStreamInfo *info = NULL;

  if (!ddb_stream_get (e->store, arn, now_ms (), &info, error))
    return NULL;
  if (info == NULL)
    return ddb_req_fail (error, DDB_ERROR_RESOURCE_NOT_FOUND,
                         "Requested resource not found: Stream: %s not found", arn);
  return info;
}

static DdbStreamInfo *
stream_from_request (DdbEngine *e, json_t *req, GError **error)
{
  const char *arn = ddb_req_string (req, "StreamArn", FALSE, error);
  DdbViolations v;

  if (arn == NULL && error != NULL && *error != NULL)
    return NULL;
  ddb_violations_init (&v);
  check_arn_length (&v, "streamArn", arn, TRUE);
  if (!ddb_violations_finish (&v, error))
    return NULL;
  return stream_named (e, arn, error);
}

static json_t *
seq_json (gint64 seq)
{
  g_autofree char *text = ddb_stream_seq_format (seq);

  return json_string (text);
}

json_t *
ddb_op_list_streams (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  const char *table = ddb_req_string (req, "TableName", FALSE, error);
  const char *start;
  gint64 limit = 100;
  gboolean present;
  g_autoptr (GPtrArray) streams = NULL;
  json_t *list, *out;
  DdbViolations v;

  (void) extra;
  if (table == NULL && error != NULL && *error != NULL)
    return NULL;
  if (table != NULL && ddb_req_table_name (req, "TableName", error) == NULL)
    return NULL;
  start = ddb_req_string (req, "ExclusiveStartStreamArn", FALSE, error);
  if (start == NULL && error != NULL && *error != NULL)
    return NULL;
  /* Limit's range has no maximum; at most 100 streams come back whatever it says. */
  if (!ddb_req_int (req, "Limit", 1, G_MAXINT32, &limit, &present, error))
    return NULL;
  limit = MIN (limit, 100);
  ddb_violations_init (&v);
  check_arn_length (&v, "exclusiveStartStreamArn", start, FALSE);
  if (!ddb_violations_finish (&v, error))
    return NULL;
  /* A start that names no stream is not a place in the list to page on from (the whole list
   * again, or nothing, would both be wrong): ResourceNotFoundException, as for DescribeStream. */
  if (start != NULL)
    {
      g_autoptr (DdbStreamInfo) info = stream_named (e, start, error);

      if (info == NULL)
        return NULL;
    }
  streams = ddb_stream_list (e->store, table, start, (guint) limit + 1, now_ms (), error);
  if (streams == NULL)
    return NULL;
  list = json_array ();
  for (guint i = 0; i < streams->len && i < (guint) limit; i++)
    {
      DdbStreamInfo *info = streams->pdata[i];

      json_array_append_new (list, json_pack ("{ss ss ss}", "StreamArn", info->arn, "TableName",
                                              info->table_name, "StreamLabel", info->label));
    }
  out = json_pack ("{so}", "Streams", list);
  if (streams->len > (guint) limit)
    json_object_set_new (out, "LastEvaluatedStreamArn",
                         json_string (((DdbStreamInfo *) streams->pdata[limit - 1])->arn));
  return out;
}

json_t *
ddb_op_describe_stream (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  gint64 limit = 100;
  gboolean present;
  g_autoptr (DdbStreamInfo) info = NULL;
  g_autofree char *shard = NULL;
  const char *start;
  json_t *range, *shards, *d;

  (void) extra;
  /* As for ListStreams: no maximum, and the one shard fits any limit. */
  if (!ddb_req_int (req, "Limit", 1, G_MAXINT32, &limit, &present, error))
    return NULL;
  start = ddb_req_string (req, "ExclusiveStartShardId", FALSE, error);
  if (start == NULL && error != NULL && *error != NULL)
    return NULL;
  info = stream_from_request (e, req, error);
  if (info == NULL)
    return NULL;
  shard = shard_id (info);
  /* A shard begins at its first record still kept, or, empty, where its next one will be. */
  range = json_pack ("{so}", "StartingSequenceNumber",
                     seq_json (info->first_seq != 0 ? info->first_seq : info->last_seq + 1));
  if (strcmp (info->status, "DISABLED") == 0)
    json_object_set_new (range, "EndingSequenceNumber",
                         seq_json (info->first_seq != 0 ? info->last_seq : info->last_seq + 1));
  shards = json_array ();
  if (start == NULL || strcmp (start, shard) < 0)
    json_array_append_new (shards,
                           json_pack ("{ss so}", "ShardId", shard, "SequenceNumberRange", range));
  else
    json_decref (range);
  d = json_pack ("{ss ss ss ss sf ss sO so}", "StreamArn", info->arn, "StreamLabel", info->label,
                 "StreamStatus", info->status, "StreamViewType", info->view_type,
                 "CreationRequestDateTime", info->created_ms / 1000.0, "TableName",
                 info->table_name, "KeySchema", info->key_schema, "Shards", shards);
  return json_pack ("{so}", "StreamDescription", d);
}

static char *
iterator_make (const char *arn, gint64 after)
{
  g_autofree char *raw
      = g_strdup_printf ("%s\n%" G_GINT64_FORMAT "\n%" G_GINT64_FORMAT, arn, after, now_ms ());

  return g_base64_encode ((const guchar *) raw, strlen (raw));
}

/* FALSE if `text` is not an iterator of ours. */
static gboolean
iterator_parse (const char *text, char **arn, gint64 *after, gint64 *issued)
{
  gsize len = 0;
  g_autofree guchar *raw = NULL;
  g_auto (GStrv) parts = NULL;
  g_autofree char *str = NULL;

  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '+' && *p != '/' && *p != '=')
      return FALSE;
  raw = g_base64_decode (text, &len);
  if (raw == NULL || len == 0 || memchr (raw, '\0', len) != NULL)
    return FALSE;
  str = g_strndup ((const char *) raw, len);
  parts = g_strsplit (str, "\n", -1);
  if (g_strv_length (parts) != 3 || !g_str_has_prefix (parts[0], "arn:")
      || !g_ascii_string_to_signed (parts[1], 10, 0, G_MAXINT64, after, NULL)
      || !g_ascii_string_to_signed (parts[2], 10, 0, G_MAXINT64, issued, NULL))
    return FALSE;
  *arn = g_strdup (parts[0]);
  return TRUE;
}

json_t *
ddb_op_get_shard_iterator (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  static const char *const types[]
      = { "TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER", NULL };
  const char *shard = ddb_req_string (req, "ShardId", FALSE, error);
  const char *seq_text;
  g_autoptr (DdbStreamInfo) info = NULL;
  g_autofree char *own_shard = NULL;
  g_autofree char *it = NULL;
  gint64 seq = 0, after;
  int type;
  DdbViolations v;

  (void) extra;
  if (shard == NULL && error != NULL && *error != NULL)
    return NULL;
  seq_text = ddb_req_string (req, "SequenceNumber", FALSE, error);
  if (seq_text == NULL && error != NULL && *error != NULL)
    return NULL;
  type = ddb_req_enum (req, "ShardIteratorType", types, -2, error);
  if (type == -1)
    return NULL;
  ddb_violations_init (&v);
  if (shard == NULL)
    ddb_violation_add (&v, "shardId", NULL, "Member must not be null");
  else if (strlen (shard) < 28)
    ddb_violation_add (&v, "shardId", shard, "Member must have length greater than or equal to 28");
  else if (strlen (shard) > 65)
    ddb_violation_add (&v, "shardId", shard, "Member must have length less than or equal to 65");
  if (type == -2)
    ddb_violation_add (&v, "shardIteratorType", NULL, "Member must not be null");
  if (seq_text != NULL && (strlen (seq_text) < 21 || strlen (seq_text) > 40))
    ddb_violation_add (&v, "sequenceNumber", seq_text,
                       strlen (seq_text) < 21
                           ? "Member must have length greater than or equal to 21"
                           : "Member must have length less than or equal to 40");
  if (!ddb_violations_finish (&v, error))
    return NULL;
  /* DynamoDB Local's wording (the documentation gives none). */
  if (type >= 2 && (seq_text == NULL || !ddb_stream_seq_parse (seq_text, &seq)))
    return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                         "One or more parameter values were invalid: Invalid SequenceNumber");
  if (type < 2 && seq_text != NULL)
    return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                         "One or more parameter values were invalid: SequenceNumber should not "
                         "be passed for this iterator type");
  info = stream_from_request (e, req, error);
  if (info == NULL)
    return NULL;
  own_shard = shard_id (info);
  if (strcmp (shard, own_shard) != 0)
    return ddb_req_fail (error, DDB_ERROR_RESOURCE_NOT_FOUND, "Shard does not exist");
  switch (type)
    {
    case 0:
      after = info->horizon_seq;
      break;
    case 1:
      after = info->last_seq;
      break;
    default:
      after = type == 2 ? seq - 1 : seq;
      if (seq <= info->horizon_seq)
        return ddb_req_fail (error, DDB_ERROR_TRIMMED_DATA_ACCESS,
                             "The operation attempted to read past the oldest stream record in"
                             " a shard: %s was trimmed",
                             seq_text);
      if (seq > info->last_seq)
        return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                             "One or more parameter values were invalid: Invalid SequenceNumber");
      break;
    }
  it = iterator_make (info->arn, after);
  return json_pack ("{ss}", "ShardIterator", it);
}

json_t *
ddb_op_get_records (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  const char *text = ddb_req_string (req, "ShardIterator", FALSE, error);
  gint64 limit = 1000, after = 0, issued = 0, last, now = now_ms ();
  gboolean present;
  g_autofree char *arn = NULL;
  g_autoptr (DdbStreamInfo) info = NULL;
  json_t *records, *out;
  DdbViolations v;

  (void) extra;
  if (text == NULL && error != NULL && *error != NULL)
    return NULL;
  if (!ddb_req_int (req, "Limit", 1, 1000, &limit, &present, error))
    return NULL;
  ddb_violations_init (&v);
  if (text == NULL)
    ddb_violation_add (&v, "shardIterator", NULL, "Member must not be null");
  else if (strlen (text) < 1)
    ddb_violation_add (&v, "shardIterator", text,
                       "Member must have length greater than or equal to 1");
  else if (strlen (text) > 2048)
    ddb_violation_add (&v, "shardIterator", text,
                       "Member must have length less than or equal to 2048");
  if (!ddb_violations_finish (&v, error))
    return NULL;
  if (!iterator_parse (text, &arn, &after, &issued))
    return ddb_req_fail (error, DDB_ERROR_VALIDATION, "Invalid ShardIterator");
  if (now - issued > ITERATOR_LIFETIME_MS)
    return ddb_req_fail (error, DDB_ERROR_EXPIRED_ITERATOR,
                         "Iterator expired. The iterator was created at time %" G_GINT64_FORMAT
                         " while right now the time is %" G_GINT64_FORMAT
                         " which is further in the future than the tolerated delay of %d"
                         " milliseconds.",
                         issued, now, ITERATOR_LIFETIME_MS);
  if (!ddb_stream_get (e->store, arn, now, &info, error))
    return NULL;
  if (info == NULL)
    return ddb_req_fail (error, DDB_ERROR_RESOURCE_NOT_FOUND,
                         "Requested resource not found: Stream: %s not found", arn);
  if (after < info->horizon_seq)
    return ddb_req_fail (error, DDB_ERROR_TRIMMED_DATA_ACCESS,
                         "The operation attempted to read past the oldest stream record in a"
                         " shard.");
  records = json_array ();
  if (!ddb_stream_read (e->store, info->id, after, (guint) limit, now, records, &last, error))
    {
      json_decref (records);
      return NULL;
    }
  out = json_pack ("{so}", "Records", records);
  /* A disabled stream's shard is closed: once read to its end it has no next iterator. */
  if (strcmp (info->status, "DISABLED") != 0 || last < info->last_seq)
    {
      g_autofree char *next = iterator_make (info->arn, last);

      json_object_set_new (out, "NextShardIterator", json_string (next));
    }
  return out;
}
