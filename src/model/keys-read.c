/* keys-read.c: the read side of the partition-key analysis: the table's key schema from
 * DescribeTable, then a parallel Scan (ddb_keys_scan, also used by model inference) whose
 * segments each count items and bytes per partition key value into their own table, merged at
 * the end; a sample stops every segment once N items have been counted, so that it is spread
 * over the whole key space rather than its start. */
#include "model/keys-private.h"

#include "core/base64.h"
#include "core/error.h"
#include "core/itemsize.h"

typedef struct _Read Read;

typedef struct {
  Read *read;
  guint segment;
  GError *error;
  GThread *thread;
} Segment;

struct _Read {
  DdbBackend *backend;
  const DdbKeysOptions *options;
  guint segments;
  DdbKeysItemFunc each;
  gpointer user_data;
  GCancellable *cancel; /* ours: the caller's cancellation or a sample's end */
  gsize counted;        /* atomic */
  gint full;            /* atomic: the sample is complete */
  GMutex lock;
  GCond cond;
  guint running;
};

/* What keys_read counts, one table per segment. */
typedef struct {
  const char *key_name;
  GHashTable **counts; /* per segment: char* key -> DdbKeysPartition* */
} Count;

static void
partition_free (DdbKeysPartition *p)
{
  g_free (p->key);
  g_free (p);
}

/* The key value as text; NULL when the item has no such attribute of a key type. */
static char *
key_text (const DdbValue *v)
{
  if (v == NULL)
    return NULL;
  switch (v->type)
    {
    case DDB_TYPE_S:
      return g_strndup (v->bytes.data, v->bytes.len);
    case DDB_TYPE_N:
      return ddb_number_to_string (&v->number);
    case DDB_TYPE_B:
      return ddb_base64_encode ((const guchar *) v->bytes.data, v->bytes.len);
    default:
      return NULL;
    }
}

/* Items a page of a Scan of a remote table (see segment_thread). */
#define REMOTE_PAGE_ITEMS 1000

static void
count_item (DdbValue *item, guint segment, gpointer user_data)
{
  Count *count = user_data;
  g_autofree char *key = key_text (ddb_value_map_get (item, count->key_name));
  DdbKeysPartition *p;

  if (key != NULL)
    {
      p = g_hash_table_lookup (count->counts[segment], key);
      if (p == NULL)
        {
          p = g_new0 (DdbKeysPartition, 1);
          p->key = g_steal_pointer (&key);
          g_hash_table_insert (count->counts[segment], p->key, p);
        }
      p->items++;
      p->bytes += ddb_item_size (item);
    }
  ddb_value_free (item);
}

/* An item of a segment's page: handed on unless the sample is already complete. */
static void
scan_item (DdbValue *item, gpointer user_data)
{
  Segment *segment = user_data;
  Read *read = segment->read;

  if (read->options->sample > 0)
    {
      gsize before = g_atomic_pointer_add (&read->counted, 1);

      if (before >= read->options->sample)
        {
          g_atomic_int_set (&read->full, 1);
          ddb_value_free (item);
          return;
        }
    }
  else
    g_atomic_pointer_add (&read->counted, 1);
  read->each (item, segment->segment, read->user_data);
}

static gpointer
segment_thread (gpointer data)
{
  Segment *segment = data;
  Read *read = segment->read;
  json_t *start = NULL;

  for (;;)
    {
      json_auto_t *request = json_object ();
      json_auto_t *response = NULL;

      json_object_set_new (request, "TableName", json_string (read->options->table));
      if (read->options->index != NULL)
        json_object_set_new (request, "IndexName", json_string (read->options->index));
      /* A remote page is parsed whole into a JSON tree (about 50 times its 1 MB), one a
       * segment at a time: smaller pages keep a parallel read of a remote table in tens of MB. */
      if (ddb_backend_get_kind (read->backend) == DDB_BACKEND_REMOTE)
        json_object_set_new (request, "Limit", json_integer (REMOTE_PAGE_ITEMS));
      json_object_set_new (request, "Segment", json_integer (segment->segment));
      json_object_set_new (request, "TotalSegments", json_integer (read->segments));
      if (start != NULL)
        json_object_set_new (request, "ExclusiveStartKey", start);
      start = NULL;
      if (g_atomic_int_get (&read->full))
        break;
      if (!ddb_backend_read (read->backend, "Scan", request, scan_item, segment, read->cancel,
                             &response, &segment->error))
        break;
      if (g_atomic_int_get (&read->full))
        break;
      start = json_object_get (response, "LastEvaluatedKey");
      if (start == NULL)
        break;
      json_incref (start);
    }
  json_decref (start);
  if (segment->error != NULL)
    g_cancellable_cancel (read->cancel);
  g_mutex_lock (&read->lock);
  read->running--;
  g_cond_broadcast (&read->cond);
  g_mutex_unlock (&read->lock);
  return NULL;
}

static void
forward_cancel (GCancellable *outer, gpointer data)
{
  (void) outer;
  g_cancellable_cancel (data);
}

/* The partition key of the table or index, and whether the table has an LSI. */
static gboolean
describe (DdbBackend *backend, const DdbKeysOptions *options, GCancellable *cancellable,
          DdbKeysReport *report, GError **error)
{
  json_auto_t *request = json_pack ("{ss}", "TableName", options->table);
  json_auto_t *response = NULL;
  json_t *table, *schema = NULL, *lsis;
  size_t i;
  json_t *entry;

  if (!ddb_backend_call (backend, "DescribeTable", request, cancellable, &response, error))
    return FALSE;
  table = json_object_get (response, "Table");
  lsis = json_object_get (table, "LocalSecondaryIndexes");
  report->has_lsi = json_array_size (lsis) > 0;
  if (options->index == NULL)
    schema = json_object_get (table, "KeySchema");
  else
    {
      const char *lists[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };

      for (guint l = 0; l < G_N_ELEMENTS (lists) && schema == NULL; l++)
        json_array_foreach (json_object_get (table, lists[l]), i, entry)
          if (g_strcmp0 (json_string_value (json_object_get (entry, "IndexName")),
                         options->index) == 0)
            {
              schema = json_object_get (entry, "KeySchema");
              /* A GSI's partitions are not the table's item collections: no limit applies. */
              if (l == 0)
                report->has_lsi = FALSE;
            }
      if (schema == NULL)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "The table %s has no index named %s", options->table, options->index);
          return FALSE;
        }
    }
  json_array_foreach (schema, i, entry)
    if (g_strcmp0 (json_string_value (json_object_get (entry, "KeyType")), "HASH") == 0)
      report->key_name = g_strdup (json_string_value (json_object_get (entry, "AttributeName")));
  if (report->key_name == NULL)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "DescribeTable gave no partition key for %s", options->table);
      return FALSE;
    }
  json_array_foreach (json_object_get (table, "AttributeDefinitions"), i, entry)
    if (g_strcmp0 (json_string_value (json_object_get (entry, "AttributeName")),
                   report->key_name)
        == 0)
      report->key_is_string
          = g_strcmp0 (json_string_value (json_object_get (entry, "AttributeType")), "S") == 0;
  return TRUE;
}

guint
ddb_keys_scan_segments (DdbBackend *backend, guint requested)
{
  if (requested > 0)
    return requested;
  return ddb_backend_get_kind (backend) == DDB_BACKEND_REMOTE
         ? 8 : (guint) CLAMP (g_get_num_processors (), 1, 4);
}

gboolean
ddb_keys_scan (DdbBackend *backend, const DdbKeysOptions *options, guint segments,
               DdbKeysItemFunc each, gpointer user_data, DdbKeysProgress progress,
               gpointer progress_data, gboolean *sampled, GCancellable *cancellable,
               GError **error)
{
  Read read = { 0 };
  g_autofree Segment *threads = NULL;
  gulong handler = 0;
  GError *first = NULL;

  g_return_val_if_fail (segments > 0, FALSE);
  read.backend = backend;
  read.options = options;
  read.segments = segments;
  read.each = each;
  read.user_data = user_data;
  read.cancel = g_cancellable_new ();
  g_mutex_init (&read.lock);
  g_cond_init (&read.cond);
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel),
                                     g_object_ref (read.cancel), g_object_unref);
  threads = g_new0 (Segment, read.segments);
  read.running = read.segments;
  for (guint i = 0; i < read.segments; i++)
    {
      threads[i].read = &read;
      threads[i].segment = i;
      threads[i].thread = g_thread_new ("dynoscope-keys-scan", segment_thread, &threads[i]);
    }
  g_mutex_lock (&read.lock);
  while (read.running > 0)
    {
      gint64 until = g_get_monotonic_time () + G_TIME_SPAN_SECOND / 10;

      if (!g_cond_wait_until (&read.cond, &read.lock, until) && progress != NULL)
        {
          g_mutex_unlock (&read.lock);
          progress (g_atomic_pointer_get (&read.counted), progress_data);
          g_mutex_lock (&read.lock);
        }
    }
  g_mutex_unlock (&read.lock);
  if (progress != NULL && !g_cancellable_is_cancelled (read.cancel))
    progress (MIN (g_atomic_pointer_get (&read.counted),
                   options->sample > 0 ? options->sample : G_MAXSIZE),
              progress_data);
  for (guint i = 0; i < read.segments; i++)
    {
      g_thread_join (threads[i].thread);
      if (threads[i].error != NULL && first == NULL
          && !g_error_matches (threads[i].error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        first = g_steal_pointer (&threads[i].error);
      g_clear_error (&threads[i].error);
    }
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  if (sampled != NULL)
    *sampled = g_atomic_int_get (&read.full) != 0;
  if (first == NULL && g_cancellable_is_cancelled (cancellable))
    first = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "The read was cancelled");
  g_object_unref (read.cancel);
  g_mutex_clear (&read.lock);
  g_cond_clear (&read.cond);
  if (first != NULL)
    {
      g_propagate_error (error, first);
      return FALSE;
    }
  return TRUE;
}

GPtrArray *
ddb_keys_read (DdbBackend *backend, const DdbKeysOptions *options, DdbKeysReport *report,
               DdbKeysProgress progress, gpointer user_data, GCancellable *cancellable,
               GError **error)
{
  guint segments;
  g_autofree GHashTable **counts = NULL;
  g_autoptr (GHashTable) merged = NULL;
  GPtrArray *partitions;
  Count count;
  gboolean ok;

  if (!describe (backend, options, cancellable, report, error))
    return NULL;
  segments = ddb_keys_scan_segments (backend, options->segments);
  counts = g_new0 (GHashTable *, segments);
  for (guint i = 0; i < segments; i++)
    counts[i] = g_hash_table_new (g_str_hash, g_str_equal);
  count.key_name = report->key_name;
  count.counts = counts;
  ok = ddb_keys_scan (backend, options, segments, count_item, &count, progress, user_data,
                      &report->sampled, cancellable, error);

  merged = g_hash_table_new (g_str_hash, g_str_equal);
  partitions = g_ptr_array_new_with_free_func ((GDestroyNotify) partition_free);
  for (guint i = 0; i < segments; i++)
    {
      GHashTableIter iter;
      DdbKeysPartition *p, *into;

      g_hash_table_iter_init (&iter, counts[i]);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &p))
        {
          into = g_hash_table_lookup (merged, p->key);
          if (into == NULL)
            {
              g_hash_table_insert (merged, p->key, p);
              g_ptr_array_add (partitions, p);
              continue;
            }
          into->items += p->items;
          into->bytes += p->bytes;
          partition_free (p);
        }
      g_hash_table_unref (counts[i]);
    }
  if (!ok)
    {
      g_ptr_array_unref (partitions);
      return NULL;
    }
  return partitions;
}
