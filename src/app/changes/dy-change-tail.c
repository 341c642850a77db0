/* dy-change-tail.c: the shards of a stream followed round by round. */
#define G_LOG_DOMAIN "dynoscope-change"

#include <glib/gi18n.h>

#include "app/changes/dy-change-tail.h"

typedef struct {
  char *id;
  char *iterator;    /* NULL: get one before the next GetRecords */
  char *last_seq;    /* the last record read, NULL before the first */
  gboolean oldest;   /* with no record read yet: TRIM_HORIZON, else LATEST */
} Shard;

struct _DyChangeTail {
  char *arn;
  gboolean from_oldest;
  gboolean started;
  gboolean ended;
  GPtrArray *shards;   /* Shard being read */
  GHashTable *done;    /* ids of shards read to their end */
  GHashTable *waiting; /* ids of those whose children have not been seen yet */
};

static void
shard_free (Shard *shard)
{
  g_free (shard->id);
  g_free (shard->iterator);
  g_free (shard->last_seq);
  g_free (shard);
}

DyChangeTail *
dy_change_tail_new (const char *stream_arn, gboolean from_oldest)
{
  DyChangeTail *tail = g_new0 (DyChangeTail, 1);

  tail->arn = g_strdup (stream_arn);
  tail->from_oldest = from_oldest;
  tail->shards = g_ptr_array_new_with_free_func ((GDestroyNotify) shard_free);
  tail->done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  tail->waiting = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return tail;
}

void
dy_change_tail_free (DyChangeTail *tail)
{
  if (tail == NULL)
    return;
  g_free (tail->arn);
  g_ptr_array_unref (tail->shards);
  g_hash_table_unref (tail->done);
  g_hash_table_unref (tail->waiting);
  g_free (tail);
}

gboolean
dy_change_tail_get_ended (DyChangeTail *tail)
{
  return tail->ended;
}

guint
dy_change_tail_get_n_shards (DyChangeTail *tail)
{
  return tail->shards->len;
}

void
dy_change_tail_set_iterator (DyChangeTail *tail, const char *iterator)
{
  Shard *shard;

  g_return_if_fail (tail->shards->len > 0);
  shard = tail->shards->pdata[0];
  g_free (shard->iterator);
  shard->iterator = g_strdup (iterator);
}

/* A call whose DynamoDB error comes back as "Name: message" with *NAME set. */
static json_t *
call (DdbBackend *backend, const char *op, json_t *request, char **name,
      GCancellable *cancellable, GError **error)
{
  g_autofree char *full = g_strconcat (DY_STREAMS_PREFIX, op, NULL);
  json_t *response = NULL;
  GError *local = NULL;

  g_clear_pointer (name, g_free);
  if (ddb_backend_call (backend, full, request, cancellable, &response, &local))
    return response;
  if (local->domain == DDB_ERROR)
    {
      *name = g_strdup (ddb_backend_error_name (local, response));
      g_set_error (error, local->domain, local->code, "%s: %s", *name, local->message);
      g_error_free (local);
    }
  else
    g_propagate_error (error, local);
  if (response != NULL)
    json_decref (response);
  return NULL;
}

/* Every shard of the stream (DescribeStream, all pages), and its status. */
static json_t *
describe (DyChangeTail *tail, DdbBackend *backend, char **status, char **name,
          GCancellable *cancellable, GError **error)
{
  json_t *shards = json_array ();
  g_autofree char *start = NULL;

  do
    {
      json_t *request = json_pack ("{ss}", "StreamArn", tail->arn);
      json_t *response, *desc;
      const char *last;

      if (start != NULL)
        json_object_set_new (request, "ExclusiveStartShardId", json_string (start));
      response = call (backend, "DescribeStream", request, name, cancellable, error);
      json_decref (request);
      if (response == NULL)
        {
          json_decref (shards);
          return NULL;
        }
      desc = json_object_get (response, "StreamDescription");
      json_array_extend (shards, json_object_get (desc, "Shards"));
      g_free (*status);
      *status = g_strdup (json_string_value (json_object_get (desc, "StreamStatus")));
      last = json_string_value (json_object_get (desc, "LastEvaluatedShardId"));
      g_free (start);
      start = g_strdup (last);
      json_decref (response);
    }
  while (start != NULL);
  return shards;
}

static gboolean
reading (DyChangeTail *tail, const char *id)
{
  for (guint i = 0; i < tail->shards->len; i++)
    if (g_str_equal (((Shard *) tail->shards->pdata[i])->id, id))
      return TRUE;
  return FALSE;
}

static void
add_shard (DyChangeTail *tail, const char *id, gboolean oldest)
{
  Shard *shard = g_new0 (Shard, 1);

  shard->id = g_strdup (id);
  shard->oldest = oldest;
  g_ptr_array_add (tail->shards, shard);
}

static gboolean
in_listing (json_t *shards, const char *id)
{
  size_t i;
  json_t *s;

  json_array_foreach (shards, i, s)
    if (g_strcmp0 (json_string_value (json_object_get (s, "ShardId")), id) == 0)
      return TRUE;
  return FALSE;
}

/* The shards to start with, or the children of those read to their end. */
static gboolean
find_shards (DyChangeTail *tail, DdbBackend *backend, char **notice, char **name,
             GCancellable *cancellable, GError **error)
{
  g_autofree char *status = NULL;
  json_t *shards = describe (tail, backend, &status, name, cancellable, error);
  size_t i;
  json_t *s;

  if (shards == NULL)
    return FALSE;
  json_array_foreach (shards, i, s)
    {
      const char *id = json_string_value (json_object_get (s, "ShardId"));
      const char *parent = json_string_value (json_object_get (s, "ParentShardId"));
      gboolean open = json_object_get (json_object_get (s, "SequenceNumberRange"),
                                       "EndingSequenceNumber")
                      == NULL;

      if (id == NULL || reading (tail, id) || g_hash_table_contains (tail->done, id))
        continue;
      if (!tail->started)
        {
          /* from the oldest: the shards with no parent left to read first, their children
           * once they close; from now: the open shards */
          if (tail->from_oldest ? parent == NULL || !in_listing (shards, parent) : open)
            add_shard (tail, id, tail->from_oldest);
        }
      else if (parent != NULL && g_hash_table_contains (tail->done, parent))
        {
          add_shard (tail, id, TRUE);
          g_hash_table_remove (tail->waiting, parent);
        }
    }
  tail->started = TRUE;
  if (g_strcmp0 (status, "ENABLED") != 0 && g_strcmp0 (status, "ENABLING") != 0)
    {
      g_hash_table_remove_all (tail->waiting);
      if (tail->shards->len == 0 && !tail->ended)
        {
          tail->ended = TRUE;
          if (notice != NULL && *notice == NULL)
            *notice = g_strdup (_("The stream is disabled and every record has been read: no "
                                  "more changes will come"));
        }
    }
  json_decref (shards);
  return TRUE;
}

static gboolean
get_iterator (DyChangeTail *tail, Shard *shard, DdbBackend *backend, char **name,
              GCancellable *cancellable, GError **error)
{
  json_t *request = json_pack ("{ss ss}", "StreamArn", tail->arn, "ShardId", shard->id);
  json_t *response;

  if (shard->last_seq != NULL)
    {
      json_object_set_new (request, "ShardIteratorType", json_string ("AFTER_SEQUENCE_NUMBER"));
      json_object_set_new (request, "SequenceNumber", json_string (shard->last_seq));
    }
  else
    json_object_set_new (request, "ShardIteratorType",
                         json_string (shard->oldest ? "TRIM_HORIZON" : "LATEST"));
  response = call (backend, "GetShardIterator", request, name, cancellable, error);
  json_decref (request);
  if (response == NULL)
    return FALSE;
  g_free (shard->iterator);
  shard->iterator = g_strdup (json_string_value (json_object_get (response, "ShardIterator")));
  json_decref (response);
  return TRUE;
}

/* One page of SHARD; FALSE with the error. *CLOSED when the shard has no more records. */
static gboolean
read_page (DyChangeTail *tail, Shard *shard, DdbBackend *backend, json_t *records,
           gboolean *more, gboolean *closed, char **name, GCancellable *cancellable,
           GError **error)
{
  json_t *request, *response, *page;
  const char *next;
  size_t n;

  if (shard->iterator == NULL && !get_iterator (tail, shard, backend, name, cancellable, error))
    return FALSE;
  request = json_pack ("{ss}", "ShardIterator", shard->iterator);
  response = call (backend, "GetRecords", request, name, cancellable, error);
  json_decref (request);
  if (response == NULL)
    return FALSE;
  page = json_object_get (response, "Records");
  n = json_array_size (page);
  if (n > 0)
    {
      const char *seq = json_string_value (json_object_get (
          json_object_get (json_array_get (page, n - 1), "dynamodb"), "SequenceNumber"));

      json_array_extend (records, page);
      *more = TRUE;
      if (seq != NULL)
        {
          g_free (shard->last_seq);
          shard->last_seq = g_strdup (seq);
        }
    }
  next = json_string_value (json_object_get (response, "NextShardIterator"));
  g_free (shard->iterator);
  shard->iterator = g_strdup (next);
  *closed = next == NULL;
  json_decref (response);
  return TRUE;
}

gboolean
dy_change_tail_poll (DyChangeTail *tail, DdbBackend *backend, json_t *records, gboolean *more,
                     char **notice, char **error_name, GCancellable *cancellable, GError **error)
{
  g_autofree char *name = NULL;
  gboolean closed_any = FALSE;

  *more = FALSE;
  if (notice != NULL)
    *notice = NULL;
  if (error_name != NULL)
    *error_name = NULL;
  if (tail->ended)
    return TRUE;
  /* at the start, and while a closed shard's children have not appeared */
  if ((!tail->started || tail->shards->len == 0 || g_hash_table_size (tail->waiting) > 0)
      && !find_shards (tail, backend, notice, &name, cancellable, error))
    goto failed;
  for (guint i = 0; i < tail->shards->len;)
    {
      Shard *shard = tail->shards->pdata[i];
      gboolean closed = FALSE;
      GError *local = NULL;
      gboolean ok = read_page (tail, shard, backend, records, more, &closed, &name, cancellable,
                               &local);

      if (!ok && g_strcmp0 (name, "ExpiredIteratorException") == 0)
        {
          /* an iterator lives 15 minutes: a new one from the last record read, at once */
          g_clear_error (&local);
          g_clear_pointer (&shard->iterator, g_free);
          ok = read_page (tail, shard, backend, records, more, &closed, &name, cancellable,
                          &local);
        }
      if (!ok && g_strcmp0 (name, "TrimmedDataAccessException") == 0)
        {
          g_clear_error (&local);
          g_clear_pointer (&shard->iterator, g_free);
          g_clear_pointer (&shard->last_seq, g_free);
          shard->oldest = TRUE;
          if (notice != NULL && *notice == NULL)
            *notice = g_strdup (_("Records were trimmed from the stream (kept 24 hours) before "
                                  "they were read: reading again from the oldest record kept"));
          ok = read_page (tail, shard, backend, records, more, &closed, &name, cancellable,
                          &local);
        }
      if (!ok)
        {
          g_propagate_error (error, local);
          goto failed;
        }
      if (closed)
        {
          g_hash_table_add (tail->done, g_strdup (shard->id));
          g_hash_table_add (tail->waiting, g_strdup (shard->id));
          g_ptr_array_remove_index (tail->shards, i);
          closed_any = TRUE;
        }
      else
        i++;
    }
  if (closed_any && !find_shards (tail, backend, notice, &name, cancellable, error))
    goto failed;
  return TRUE;

failed:
  if (error_name != NULL)
    *error_name = g_steal_pointer (&name);
  return FALSE;
}
