/* s3-store.c: the snapshot store over one S3 bucket (s3-store.h says how the data files flow):
 * the download threads, the per-file queues of chunks under one memory budget, and the
 * GInputStream the engine reads a data file through. */
#include <string.h>

#include "exports/s3-store.h"

#define CHUNK_CAP (64 * 1024) /* bytes a chunk holds: libcurl delivers up to 16 KiB a call */

typedef struct {
  gsize len;
  gsize off; /* bytes already read */
  guint8 data[];
} Chunk;

/* One object being downloaded (or to be), and its bytes not read yet. Guarded by the store's
 * lock, refs included. */
typedef struct {
  guint refs;
  DdbS3Store *store;
  char *key;
  GQueue chunks;  /* Chunk *, in order */
  guint64 unread; /* bytes in chunks */
  gboolean started;
  gboolean finished;  /* the download returned; ERROR set if it failed */
  gboolean opened;    /* a stream reads it */
  gboolean abandoned; /* closed early, skipped, or the store stops: its bytes are dropped */
  GError *error;
  GCancellable *cancel; /* this download's */
} Fetch;

struct _DdbS3Store {
  DdbSnapshotStore iface;
  DdbS3StoreBackend backend;
  guint parallel;
  guint64 budget;
  guint64 ahead_limit; /* what files not opened yet may fill up to */
  GCancellable *cancellable;
  gulong cancel_handler;

  GMutex lock;
  GCond data_cond; /* a chunk came or a download finished: readers wait on it */
  GCond room_cond; /* bytes were read, a file opened, a download cancelled: downloads wait */
  GPtrArray *plan; /* Fetch *, in reading order (a ref each) */
  guint next_start; /* the plan's next file to start */
  guint next_open;  /* the plan's next file the reader opens */
  GPtrArray *running; /* Fetch * downloading now (a ref each) */
  GPtrArray *threads; /* GThread *, joined at the end */
  guint64 unread;     /* over every file */
  guint64 peak;
  guint started;
  gboolean stopping;

  /* The S3 backend's. */
  DdbS3 *s3;
  char *bucket;
};

/* ---- Fetches (with the store's lock held) ---- */

static Fetch *
fetch_new (DdbS3Store *store, const char *key)
{
  Fetch *f = g_new0 (Fetch, 1);

  f->refs = 1;
  f->store = store;
  f->key = g_strdup (key);
  g_queue_init (&f->chunks);
  f->cancel = g_cancellable_new ();
  return f;
}

static void
fetch_drop_bytes (Fetch *f)
{
  f->store->unread -= f->unread;
  f->unread = 0;
  g_queue_clear_full (&f->chunks, g_free);
}

static Fetch *
fetch_ref (Fetch *f)
{
  f->refs++;
  return f;
}

static void
fetch_unref (Fetch *f)
{
  if (--f->refs > 0)
    return;
  fetch_drop_bytes (f);
  g_clear_error (&f->error);
  g_object_unref (f->cancel);
  g_free (f->key);
  g_free (f);
}

/* Drops F's bytes and stops its download: the reader is done with it, or never comes. */
static void
fetch_abandon (Fetch *f)
{
  f->abandoned = TRUE;
  fetch_drop_bytes (f);
  /* Cancelling with the lock held is safe: the handlers connected to a download's cancellable
   * (libcurl's wake-up, the HTTP pool's, a backoff's) never take this lock. */
  if (!f->finished)
    g_cancellable_cancel (f->cancel);
  g_cond_broadcast (&f->store->room_cond);
}

/* Whether F's download may hand over more bytes now. */
static gboolean
fetch_has_room (const Fetch *f)
{
  const DdbS3Store *s = f->store;

  if (f->opened)
    return f->unread == 0 || s->unread < s->budget;
  return s->unread < s->ahead_limit;
}

/* The download's sink, on its thread: waits for room, then queues the bytes. */
static gboolean
fetch_sink (const guint8 *data, gsize len, gpointer user_data, GError **error)
{
  Fetch *f = user_data;
  DdbS3Store *s = f->store;

  g_mutex_lock (&s->lock);
  while (!g_cancellable_is_cancelled (f->cancel) && !fetch_has_room (f))
    g_cond_wait (&s->room_cond, &s->lock);
  if (g_cancellable_is_cancelled (f->cancel))
    {
      g_mutex_unlock (&s->lock);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
      return FALSE;
    }
  while (len > 0)
    {
      Chunk *tail = g_queue_peek_tail (&f->chunks);
      gsize n;

      if (tail == NULL || tail->len == CHUNK_CAP)
        {
          tail = g_malloc (sizeof (Chunk) + CHUNK_CAP);
          tail->len = tail->off = 0;
          g_queue_push_tail (&f->chunks, tail);
        }
      n = MIN (len, (gsize) CHUNK_CAP - tail->len);
      memcpy (tail->data + tail->len, data, n);
      tail->len += n;
      data += n;
      len -= n;
      f->unread += n;
      s->unread += n;
    }
  s->peak = MAX (s->peak, s->unread);
  g_cond_broadcast (&s->data_cond);
  g_mutex_unlock (&s->lock);
  return TRUE;
}

/* Runs F's download on the calling thread. */
static void
fetch_run (DdbS3Store *s, Fetch *f)
{
  GError *local = NULL;
  gboolean ok;

  g_mutex_lock (&s->lock);
  if (f->abandoned || s->stopping)
    {
      f->finished = TRUE;
      g_set_error_literal (&f->error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
      g_cond_broadcast (&s->data_cond);
      g_mutex_unlock (&s->lock);
      return;
    }
  f->started = TRUE;
  s->started++;
  g_ptr_array_add (s->running, fetch_ref (f));
  g_mutex_unlock (&s->lock);

  ok = s->backend.fetch (f->key, fetch_sink, f, f->cancel, &local, s->backend.data);

  g_mutex_lock (&s->lock);
  f->finished = TRUE;
  if (!ok)
    f->error = local != NULL ? local
                             : g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED,
                                                    "The download failed");
  else
    g_clear_error (&local);
  g_ptr_array_remove (s->running, f);
  fetch_unref (f);
  g_cond_broadcast (&s->data_cond);
  g_cond_broadcast (&s->room_cond); /* a thread may start the next file */
  g_mutex_unlock (&s->lock);
}

/* ---- Download threads ---- */

static gboolean
may_start_next (const DdbS3Store *s)
{
  return s->next_start < s->next_open || s->unread < s->ahead_limit;
}

/* One of plan()'s threads: the plan's files in order, one at a time. */
static gpointer
plan_worker (gpointer data)
{
  DdbS3Store *s = data;

  g_mutex_lock (&s->lock);
  for (;;)
    {
      Fetch *f;

      while (!s->stopping && s->next_start < s->plan->len && !may_start_next (s))
        g_cond_wait (&s->room_cond, &s->lock);
      if (s->stopping || s->next_start >= s->plan->len)
        break;
      f = g_ptr_array_index (s->plan, s->next_start++);
      if (f->abandoned)
        continue;
      fetch_ref (f);
      g_mutex_unlock (&s->lock);
      fetch_run (s, f);
      g_mutex_lock (&s->lock);
      fetch_unref (f);
    }
  g_mutex_unlock (&s->lock);
  return NULL;
}

/* A file opened out of the plan's order: downloaded on a thread of its own. */
static gpointer
direct_worker (gpointer data)
{
  Fetch *f = data;
  DdbS3Store *s = f->store;

  fetch_run (s, f);
  g_mutex_lock (&s->lock);
  fetch_unref (f);
  g_mutex_unlock (&s->lock);
  return NULL;
}

/* ---- The reader's stream ---- */

#define DDB_TYPE_S3_FETCH_STREAM (ddb_s3_fetch_stream_get_type ())
G_DECLARE_FINAL_TYPE (DdbS3FetchStream, ddb_s3_fetch_stream, DDB, S3_FETCH_STREAM, GInputStream)

struct _DdbS3FetchStream {
  GInputStream parent;
  Fetch *fetch;
};

G_DEFINE_TYPE (DdbS3FetchStream, ddb_s3_fetch_stream, G_TYPE_INPUT_STREAM)

static void
wake_readers (GCancellable *cancellable, gpointer user_data)
{
  DdbS3Store *s = user_data;

  g_mutex_lock (&s->lock);
  g_cond_broadcast (&s->data_cond);
  g_mutex_unlock (&s->lock);
}

static gboolean
cancelled (DdbS3Store *s, GCancellable *cancellable, GError **error)
{
  return g_cancellable_set_error_if_cancelled (cancellable, error)
         || g_cancellable_set_error_if_cancelled (s->cancellable, error);
}

static gssize
fetch_stream_read (GInputStream *stream, void *buffer, gsize count, GCancellable *cancellable,
                   GError **error)
{
  Fetch *f = DDB_S3_FETCH_STREAM (stream)->fetch;
  DdbS3Store *s = f->store;
  gulong handler = 0;
  gssize n = -1;

  /* The store's cancellable wakes readers itself; another one needs its own handler. */
  if (cancellable != NULL && cancellable != s->cancellable)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (wake_readers), s, NULL);
  g_mutex_lock (&s->lock);
  for (;;)
    {
      Chunk *c;

      if (cancelled (s, cancellable, error))
        break;
      c = g_queue_peek_head (&f->chunks);
      if (c != NULL)
        {
          n = (gssize) MIN (count, c->len - c->off);
          memcpy (buffer, c->data + c->off, (gsize) n);
          c->off += (gsize) n;
          if (c->off == c->len)
            g_free (g_queue_pop_head (&f->chunks));
          f->unread -= (guint64) n;
          s->unread -= (guint64) n;
          g_cond_broadcast (&s->room_cond);
          break;
        }
      if (f->finished)
        {
          if (f->error != NULL)
            g_propagate_error (error, g_error_copy (f->error));
          else
            n = 0;
          break;
        }
      g_cond_wait (&s->data_cond, &s->lock);
    }
  g_mutex_unlock (&s->lock);
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  return n;
}

static void
fetch_stream_release (DdbS3FetchStream *self)
{
  Fetch *f = self->fetch;
  DdbS3Store *s;

  if (f == NULL)
    return;
  s = f->store;
  g_mutex_lock (&s->lock);
  fetch_abandon (f);
  fetch_unref (f);
  self->fetch = NULL;
  g_mutex_unlock (&s->lock);
}

static gboolean
fetch_stream_close (GInputStream *stream, GCancellable *cancellable, GError **error)
{
  fetch_stream_release (DDB_S3_FETCH_STREAM (stream));
  return TRUE;
}

static void
fetch_stream_finalize (GObject *object)
{
  fetch_stream_release (DDB_S3_FETCH_STREAM (object));
  G_OBJECT_CLASS (ddb_s3_fetch_stream_parent_class)->finalize (object);
}

static void
ddb_s3_fetch_stream_class_init (DdbS3FetchStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fetch_stream_finalize;
  G_INPUT_STREAM_CLASS (klass)->read_fn = fetch_stream_read;
  G_INPUT_STREAM_CLASS (klass)->close_fn = fetch_stream_close;
}

static void
ddb_s3_fetch_stream_init (DdbS3FetchStream *self)
{
}

/* ---- The store's operations ---- */

static gboolean
bytes_sink (const guint8 *data, gsize len, gpointer user_data, GError **error)
{
  g_byte_array_append (user_data, data, (guint) len);
  return TRUE;
}

static GBytes *
store_get (const char *key, gpointer data, GCancellable *cancellable, GError **error)
{
  DdbS3Store *s = data;
  GByteArray *bytes = g_byte_array_new ();

  if (!s->backend.fetch (key, bytes_sink, bytes, cancellable != NULL ? cancellable : s->cancellable,
                         error, s->backend.data))
    {
      g_byte_array_unref (bytes);
      return NULL;
    }
  return g_byte_array_free_to_bytes (bytes);
}

static GInputStream *
store_open (const char *key, gpointer data, GCancellable *cancellable, GError **error)
{
  DdbS3Store *s = data;
  DdbS3FetchStream *stream;
  Fetch *f = NULL;

  if (cancelled (s, cancellable, error))
    return NULL;
  g_mutex_lock (&s->lock);
  for (guint i = s->next_open; s->plan != NULL && i < s->plan->len; i++)
    {
      Fetch *p = g_ptr_array_index (s->plan, i);

      if (strcmp (p->key, key) == 0 && !p->opened && !p->abandoned)
        {
          /* Files the reader passed over are not read: their bytes go. */
          for (guint j = s->next_open; j < i; j++)
            fetch_abandon (g_ptr_array_index (s->plan, j));
          s->next_open = i + 1;
          f = fetch_ref (p);
          break;
        }
    }
  if (f == NULL)
    {
      f = fetch_new (s, key);
      g_ptr_array_add (s->threads, g_thread_new ("dynoscope-s3-get", direct_worker,
                                                 fetch_ref (f)));
    }
  f->opened = TRUE;
  g_cond_broadcast (&s->room_cond);
  g_mutex_unlock (&s->lock);
  stream = g_object_new (DDB_TYPE_S3_FETCH_STREAM, NULL);
  stream->fetch = f;
  return G_INPUT_STREAM (stream);
}

static guint64
store_plan (const char *const *keys, guint n, gpointer data)
{
  DdbS3Store *s = data;
  g_autofree guint64 *sizes = g_new0 (guint64, MAX (n, 1));
  guint64 total = 0;
  guint threads;

  g_return_val_if_fail (s->plan == NULL, 0);
  if (s->backend.sizes != NULL && n > 0)
    s->backend.sizes (keys, n, sizes, s->cancellable, s->backend.data);
  g_mutex_lock (&s->lock);
  s->plan = g_ptr_array_new ();
  for (guint i = 0; i < n; i++)
    {
      g_ptr_array_add (s->plan, fetch_new (s, keys[i]));
      total += sizes[i];
    }
  threads = MIN (s->parallel, n);
  for (guint i = 0; i < threads; i++)
    g_ptr_array_add (s->threads, g_thread_new ("dynoscope-s3-fetch", plan_worker, s));
  g_mutex_unlock (&s->lock);
  return total;
}

/* The import was cancelled: every download stops. */
static void
on_import_cancelled (GCancellable *cancellable, gpointer user_data)
{
  DdbS3Store *s = user_data;

  g_mutex_lock (&s->lock);
  s->stopping = TRUE;
  for (guint i = 0; i < s->running->len; i++)
    g_cancellable_cancel (((Fetch *) g_ptr_array_index (s->running, i))->cancel);
  g_cond_broadcast (&s->room_cond);
  g_cond_broadcast (&s->data_cond);
  g_mutex_unlock (&s->lock);
}

DdbS3Store *
ddb_s3_store_new (const DdbS3StoreBackend *backend, guint parallel, guint64 budget,
                  GCancellable *cancellable)
{
  DdbS3Store *s = g_new0 (DdbS3Store, 1);

  s->backend = *backend;
  s->parallel = parallel > 0 ? parallel : DDB_S3_STORE_DEFAULT_PARALLEL;
  s->budget = budget > 0 ? budget : DDB_S3_STORE_DEFAULT_BUDGET;
  /* A quarter is kept for the file being read, so that it can always go on. */
  s->ahead_limit = s->budget - s->budget / 4;
  g_mutex_init (&s->lock);
  g_cond_init (&s->data_cond);
  g_cond_init (&s->room_cond);
  s->running = g_ptr_array_new ();
  s->threads = g_ptr_array_new ();
  s->iface.get = store_get;
  s->iface.open = store_open;
  s->iface.plan = store_plan;
  s->iface.data = s;
  if (cancellable != NULL)
    {
      s->cancellable = g_object_ref (cancellable);
      /* Called at once when it is cancelled already. */
      s->cancel_handler
          = g_cancellable_connect (cancellable, G_CALLBACK (on_import_cancelled), s, NULL);
    }
  return s;
}

void
ddb_s3_store_free (DdbS3Store *s)
{
  if (s == NULL)
    return;
  g_mutex_lock (&s->lock);
  s->stopping = TRUE;
  for (guint i = 0; s->plan != NULL && i < s->plan->len; i++)
    fetch_abandon (g_ptr_array_index (s->plan, i));
  for (guint i = 0; i < s->running->len; i++)
    g_cancellable_cancel (((Fetch *) g_ptr_array_index (s->running, i))->cancel);
  g_cond_broadcast (&s->room_cond);
  g_cond_broadcast (&s->data_cond);
  g_mutex_unlock (&s->lock);
  /* Not with the lock held: a handler running on another thread takes it. */
  if (s->cancel_handler != 0)
    g_cancellable_disconnect (s->cancellable, s->cancel_handler);
  for (guint i = 0; i < s->threads->len; i++)
    g_thread_join (g_ptr_array_index (s->threads, i));
  g_mutex_lock (&s->lock);
  g_warn_if_fail (s->running->len == 0);
  for (guint i = 0; s->plan != NULL && i < s->plan->len; i++)
    fetch_unref (g_ptr_array_index (s->plan, i));
  g_mutex_unlock (&s->lock);
  g_clear_pointer (&s->plan, g_ptr_array_unref);
  g_ptr_array_unref (s->running);
  g_ptr_array_unref (s->threads);
  g_clear_object (&s->cancellable);
  g_mutex_clear (&s->lock);
  g_cond_clear (&s->data_cond);
  g_cond_clear (&s->room_cond);
  g_free (s->bucket);
  g_free (s);
}

const DdbSnapshotStore *
ddb_s3_store_get (DdbS3Store *s)
{
  return &s->iface;
}

guint64
ddb_s3_store_peak_buffered (DdbS3Store *s)
{
  guint64 peak;

  g_mutex_lock (&s->lock);
  peak = s->peak;
  g_mutex_unlock (&s->lock);
  return peak;
}

guint
ddb_s3_store_downloads_started (DdbS3Store *s)
{
  guint n;

  g_mutex_lock (&s->lock);
  n = s->started;
  g_mutex_unlock (&s->lock);
  return n;
}

/* ---- Over S3 ---- */

static gboolean
s3_fetch (const char *key, DdbS3SinkFunc sink, gpointer sink_data, GCancellable *cancellable,
          GError **error, gpointer data)
{
  DdbS3Store *s = data;

  return ddb_s3_get_object (s->s3, s->bucket, key, NULL, sink, sink_data, cancellable, NULL, NULL,
                            error);
}

/* One ListObjectsV2 of each folder holding a key. A folder that cannot be listed leaves its
 * sizes unknown: the downloads will say what is wrong. */
static void
s3_sizes (const char *const *keys, guint n, guint64 *sizes, GCancellable *cancellable,
          gpointer data)
{
  DdbS3Store *s = data;
  g_autoptr (GHashTable) listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) size_of = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; i < n; i++)
    {
      const char *slash = strrchr (keys[i], '/');
      g_autofree char *folder = g_strndup (keys[i], slash != NULL ? slash - keys[i] + 1 : 0);
      guint64 *size;

      if (!g_hash_table_contains (listed, folder))
        {
          g_autoptr (DdbS3Listing) listing
              = ddb_s3_list_objects (s->s3, s->bucket, folder, "/", cancellable, NULL, NULL);

          for (guint j = 0; listing != NULL && j < listing->objects->len; j++)
            {
              DdbS3Object *o = g_ptr_array_index (listing->objects, j);

              g_hash_table_replace (size_of, g_strdup (o->key), g_memdup2 (&o->size, sizeof o->size));
            }
          g_hash_table_add (listed, g_steal_pointer (&folder));
        }
      size = g_hash_table_lookup (size_of, keys[i]);
      sizes[i] = size != NULL ? *size : 0;
    }
}

DdbS3Store *
ddb_s3_store_new_for_bucket (DdbS3 *s3, const char *bucket, guint parallel, guint64 budget,
                             GCancellable *cancellable)
{
  DdbS3StoreBackend backend = { s3_fetch, s3_sizes, NULL };
  DdbS3Store *s = ddb_s3_store_new (&backend, parallel, budget, cancellable);

  s->s3 = s3;
  s->bucket = g_strdup (bucket);
  s->backend.data = s;
  return s;
}
