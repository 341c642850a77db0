/* dy-table-view-load-all.c: Load All, every remaining page of the results with progress and
 * Cancel. A remote table's Scan is read in parallel segments (Segment/TotalSegments, as many
 * as the "scan-segments" setting or the table's size says), each segment's pages one after
 * the other on a thread of its own; the grid shows them in the order a single Scan would:
 * segment 0's pages in key order, then segment 1's, and so on (the later segments' pages wait,
 * encoded in the store, until those before them are shown). Where it stopped (cancelled or
 * failed) is a segment and its LastEvaluatedKey, from which Load More and Load All go on.
 * The rows shown before the segments began (the Run's first pages, read without segments) are
 * read again by them: their keys are kept, and the segments' copies dropped. */
#define G_LOG_DOMAIN "dynoscope-table-view"

#include <glib/gi18n.h>
#ifdef __linux__
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "app/common/dy-format.h"
#include "app/browser/dy-table-view-private.h"
#include "core/itemcodec.h"
#include "core/keycodec.h"

/* The automatic number of segments: one per this many bytes of the table (DescribeTable's
 * TableSizeBytes, DynamoDB's estimate), so that a table of a few pages is read as one Scan. */
#define SEGMENT_BYTES (8 * 1024 * 1024)
/* At most this many segments, automatic or set: each is a thread and a connection. */
#define MAX_SEGMENTS 16
#define AUTO_MAX_SEGMENTS 8

/* ---- Keys of the rows shown before the segments ---- */

struct _DyTableViewSeen {
  char *pk;
  char *sk;         /* NULL: the table has no sort key */
  GHashTable *keys; /* GBytes: the pk's and sk's encodings */
};

static void
seen_clear (DyTableViewSeen *seen)
{
  g_free (seen->pk);
  g_free (seen->sk);
  g_hash_table_unref (seen->keys);
}

DyTableViewSeen *
dy_table_view_seen_ref (DyTableViewSeen *seen)
{
  return g_atomic_rc_box_acquire (seen);
}

void
dy_table_view_seen_unref (DyTableViewSeen *seen)
{
  g_atomic_rc_box_release_full (seen, (GDestroyNotify) seen_clear);
}

/* ITEM's table key as bytes: each key value's encoding after its type (keycodec's encoding is
 * self-delimiting); NULL when ITEM lacks one (never for a table's or an index's Scan). */
static GBytes *
item_key (const DyTableViewSeen *seen, const DdbValue *item)
{
  const DdbValue *pk = ddb_value_map_get (item, seen->pk);
  const DdbValue *sk = seen->sk != NULL ? ddb_value_map_get (item, seen->sk) : NULL;
  GByteArray *out;

  if (pk == NULL || (seen->sk != NULL && sk == NULL))
    return NULL;
  out = g_byte_array_new ();
  g_byte_array_append (out, (const guint8[]){ (guint8) pk->type }, 1);
  if (!ddb_key_encode (pk, out, NULL))
    {
      g_byte_array_unref (out);
      return NULL;
    }
  if (sk != NULL)
    {
      g_byte_array_append (out, (const guint8[]){ (guint8) sk->type }, 1);
      if (!ddb_key_encode (sk, out, NULL))
        {
          g_byte_array_unref (out);
          return NULL;
        }
    }
  return g_byte_array_free_to_bytes (out);
}

gboolean
dy_table_view_seen_has (const DyTableViewSeen *seen, const DdbValue *item)
{
  g_autoptr (GBytes) key = item_key (seen, item);

  return key != NULL && g_hash_table_contains (seen->keys, key);
}

static gboolean
add_seen_row (guint row, const guint8 *data, gsize len, gpointer user_data, GError **error)
{
  DyTableViewSeen *seen = user_data;
  g_autoptr (DdbValue) item = ddb_item_decode (data, len, error);
  GBytes *key;

  if (item == NULL)
    return FALSE;
  key = item_key (seen, item);
  if (key != NULL)
    g_hash_table_add (seen->keys, key);
  return TRUE;
}

/* The keys of SHOWN's rows, on a worker. */
static DyTableViewSeen *
seen_new (const DyTableViewKeys *table, DyRowsSnapshot *shown, GCancellable *cancellable,
          GError **error)
{
  DyTableViewSeen *seen = g_atomic_rc_box_new0 (DyTableViewSeen);

  seen->pk = g_strdup (table->pk);
  seen->sk = g_strdup (table->sk);
  seen->keys
      = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  if (!dy_rows_snapshot_foreach (shown, add_seen_row, seen, cancellable, error))
    {
      dy_table_view_seen_unref (seen);
      return NULL;
    }
  return seen;
}

/* ---- How many segments ---- */

guint
dy_table_view_scan_segments (DyTableView *self)
{
  static const char *const whole_items[]
      = { "ProjectionExpression", "AttributesToGet", "Segment", "TotalSegments" };
  const char *select;
  gint64 size;
  int wanted = 0;

  if (self->total_segments > 0)
    return self->total_segments; /* going on where a parallel Load All stopped */
  /* The engine reads a local table faster than the grid takes rows: segments would not help. */
  if (dy_connection_get_kind (self->connection) == DY_CONNECTION_DATABASE
      || g_strcmp0 (self->operation, "Scan") != 0 || self->request == NULL || self->keys == NULL
      || self->keys->len == 0)
    return 1;
  /* The rows already shown are told apart by their keys: each segment's item must hold them. */
  for (guint i = 0; i < G_N_ELEMENTS (whole_items); i++)
    if (json_object_get (self->request, whole_items[i]) != NULL)
      return 1;
  select = json_string_value (json_object_get (self->request, "Select"));
  if (select != NULL && !g_str_equal (select, "ALL_ATTRIBUTES")
      && !g_str_equal (select, "ALL_PROJECTED_ATTRIBUTES"))
    return 1;
  if (self->layout_settings != NULL)
    {
      g_autoptr (GSettingsSchema) schema = NULL;

      g_object_get (self->layout_settings, "settings-schema", &schema, NULL);
      if (schema != NULL && g_settings_schema_has_key (schema, "scan-segments"))
        wanted = g_settings_get_int (self->layout_settings, "scan-segments");
    }
  if (wanted > 0)
    return MIN ((guint) wanted, MAX_SEGMENTS);
  size = json_integer_value (json_object_get (self->description, "TableSizeBytes"));
  return (guint) CLAMP (size / SEGMENT_BYTES, 1, AUTO_MAX_SEGMENTS);
}

/* ---- Load All ---- */

typedef struct {
  gint64 index;      /* its Segment; -1: the Scan or Query without segments */
  json_t *start_key; /* NULL: from the segment's start */
  GQueue pages;      /* DyTableViewPage*: read, not yet shown */
  gboolean done;     /* its last page is read */
} Segment;

typedef struct {
  DyTableView *view; /* a reference */
  char *operation;
  json_t *request;
  DyRowStore *store;
  GCancellable *cancellable; /* the view's */
  GCancellable *stop;        /* cancelled by the view's and by a segment's failure */
  gulong cancelled_handler;
  guint total_segments; /* 0: without segments */
  DyTableViewKeys *table_keys;
  DyRowsSnapshot *shown; /* rows shown before the segments began, their keys not yet taken */
  DyTableViewSeen *seen;
  GMutex lock;
  GCond cond;
  Segment *segments;
  guint n_segments;
  guint current; /* the segment whose pages are shown now */
  gboolean pump_queued;
  gint64 shown_at; /* monotonic µs: the progress and footer last told */
  GError *error; /* the first failure */
} LoadAll;

static void
load_all_clear (LoadAll *data)
{
  if (data->cancelled_handler != 0)
    g_cancellable_disconnect (data->cancellable, data->cancelled_handler);
  g_object_unref (data->view);
  g_free (data->operation);
  json_decref (data->request);
  dy_row_store_unref (data->store);
  g_object_unref (data->cancellable);
  g_object_unref (data->stop);
  if (data->table_keys != NULL)
    dy_table_view_keys_free (data->table_keys);
  g_clear_pointer (&data->shown, dy_rows_snapshot_free);
  g_clear_pointer (&data->seen, dy_table_view_seen_unref);
  for (guint i = 0; i < data->n_segments; i++)
    {
      if (data->segments[i].start_key != NULL)
        json_decref (data->segments[i].start_key);
      g_queue_clear_full (&data->segments[i].pages, (GDestroyNotify) dy_table_view_page_free);
    }
  g_free (data->segments);
  g_mutex_clear (&data->lock);
  g_cond_clear (&data->cond);
  g_clear_error (&data->error);
}

static void
load_all_release (LoadAll *data)
{
  g_atomic_rc_box_release_full (data, (GDestroyNotify) load_all_clear);
}

static void
update_progress (DyTableView *self)
{
  gint64 elapsed = g_get_monotonic_time () - self->load_started;
  guint64 scanned = self->scanned - self->load_scanned_before;
  guint64 rate = elapsed > 0 ? scanned * G_USEC_PER_SEC / (guint64) elapsed : 0;
  gint64 total = json_integer_value (json_object_get (self->description, "ItemCount"));
  g_autofree char *text = NULL;

  {
    guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->items));
    g_autofree char *read = dy_format_count (self->scanned);
    g_autofree char *per_second = dy_format_count (rate);
    /* The progress of Load All: items shown, items read, pages, items read a second. */
    char *parts[5] = {
      g_strdup_printf (ngettext ("%u item", "%u items", shown), shown),
      /* TRANSLATORS: items read so far by Load All */
      g_strdup_printf (_ ("%s read"), read),
      g_strdup_printf (ngettext ("%u page", "%u pages", self->pages), self->pages),
      g_strdup_printf (_ ("%s items/s"), per_second),
      NULL,
    };

    text = g_strjoinv (" · ", parts);
    for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
      g_free (parts[i]);
  }
  gtk_progress_bar_set_text (self->progress_bar, text);
  /* ItemCount is DynamoDB's estimate (refreshed about every six hours): a guide only. */
  if (total > 0 && self->operation != NULL && g_str_equal (self->operation, "Scan"))
    gtk_progress_bar_set_fraction (self->progress_bar,
                                   MIN (1.0, (double) self->scanned / (double) total));
  else
    gtk_progress_bar_pulse (self->progress_bar);
}

static gboolean pump (gpointer user_data);

/* With DATA's lock held. */
static void
schedule_pump_locked (LoadAll *data)
{
  if (data->pump_queued)
    return;
  data->pump_queued = TRUE;
  g_idle_add_full (G_PRIORITY_DEFAULT, pump, g_atomic_rc_box_acquire (data),
                   (GDestroyNotify) load_all_release);
}

/* The main thread shows the next page in order, one a main-loop iteration. A cancelled load
 * drops what was still on its way: the view's LastEvaluatedKey (and segment) stay those of the
 * last page shown, so Load More resumes with no gap and no duplicate. */
static gboolean
pump (gpointer user_data)
{
  LoadAll *data = user_data;
  DyTableView *self = data->view;
  DyTableViewPage *page = NULL;
  Segment *segment = NULL;

  g_mutex_lock (&data->lock);
  data->pump_queued = FALSE;
  while (data->current < data->n_segments)
    {
      segment = &data->segments[data->current];
      page = g_queue_pop_head (&segment->pages);
      if (page != NULL || !segment->done)
        break;
      data->current++;
    }
  g_cond_broadcast (&data->cond);
  if (page != NULL)
    schedule_pump_locked (data);
  g_mutex_unlock (&data->lock);
  if (page == NULL)
    return G_SOURCE_REMOVE;
  if (!g_cancellable_is_cancelled (data->cancellable))
    {
      if (data->total_segments > 0)
        {
          /* From the first segmented page on, the view's place is a segment's. */
          self->total_segments = data->total_segments;
          self->segment = (guint) segment->index;
          if (self->seen != data->seen)
            {
              g_clear_pointer (&self->seen, dy_table_view_seen_unref);
              self->seen = data->seen != NULL ? dy_table_view_seen_ref (data->seen) : NULL;
            }
        }
      self->requests++;
      dy_table_view_apply_page (self, page);
      /* The figures a few times a second: each new text lays the window out again. */
      if (g_get_monotonic_time () - data->shown_at > 250 * G_TIME_SPAN_MILLISECOND)
        {
          data->shown_at = g_get_monotonic_time ();
          update_progress (self);
          dy_table_view_update_footer (self);
        }
    }
  dy_table_view_page_free (page);
  return G_SOURCE_REMOVE;
}

/* One segment's LastEvaluatedKey loop (or the whole Scan's or Query's), on its own thread. */
static void
read_segment (LoadAll *data, Segment *segment)
{
  json_t *key = segment->start_key != NULL ? json_incref (segment->start_key) : NULL;

  for (;;)
    {
      json_t *request = json_deep_copy (data->request);
      GError *error = NULL;
      DyTableViewPage *page;
      json_t *next;

      /* The segment being shown keeps at most two pages waiting, so that memory stays bounded;
       * the later ones read on (their pages must all be read before they show anyway). */
      g_mutex_lock (&data->lock);
      while (&data->segments[data->current] == segment && segment->pages.length >= 2
             && !g_cancellable_is_cancelled (data->stop))
        g_cond_wait_until (&data->cond, &data->lock,
                           g_get_monotonic_time () + 50 * G_TIME_SPAN_MILLISECOND);
      g_mutex_unlock (&data->lock);
      if (segment->index >= 0)
        {
          json_object_set_new (request, "Segment", json_integer (segment->index));
          json_object_set_new (request, "TotalSegments", json_integer (data->total_segments));
        }
      if (key != NULL)
        json_object_set_new (request, "ExclusiveStartKey", key);
      page = dy_table_view_read_page (data->view->connection, data->operation, request, data->store,
                                      data->seen, data->stop, &error);
      json_decref (request);
      if (page == NULL)
        {
          g_mutex_lock (&data->lock);
          /* The first failure is the one to tell; the others are the stops it made. */
          if (data->error == NULL && !g_cancellable_is_cancelled (data->stop))
            data->error = g_steal_pointer (&error);
          g_mutex_unlock (&data->lock);
          g_clear_error (&error);
          g_cancellable_cancel (data->stop);
          return;
        }
      next = json_object_get (page->response, "LastEvaluatedKey");
      key = next != NULL ? json_incref (next) : NULL;
      g_mutex_lock (&data->lock);
      g_queue_push_tail (&segment->pages, page);
      segment->done = key == NULL;
      schedule_pump_locked (data);
      g_mutex_unlock (&data->lock);
      if (key == NULL)
        return;
    }
}

/* Load All reads on threads of their own at a lower priority than the window's: on a busy
 * machine the main thread gets a core first, and a scan of millions of items never makes it
 * wait. Nice 4, not more: against a busy loop on the other core, nice 10 left the reader a
 * tenth of a core (Load All at 29 % of the engine's rate, 43 % at nice 4) and held up the
 * window no less (bench-gui). (A thread of the shared pool could not get its priority back.) */
#define LOAD_ALL_NICE 4
static void
lower_priority (void)
{
#ifdef __linux__
  if (setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), LOAD_ALL_NICE) != 0)
    g_debug ("Load All at the usual priority: %s", g_strerror (errno));
#endif
}

typedef struct {
  LoadAll *data;
  Segment *segment;
} SegmentJob;

static gpointer
segment_main (gpointer user_data)
{
  SegmentJob *job = user_data;

  lower_priority ();
  read_segment (job->data, job->segment);
  dy_table_view_release_freed_memory ();
  return NULL;
}

/* Every page read has been shown, or can no longer be (its segment failed before it). */
static gboolean
drained_locked (LoadAll *data)
{
  return data->current >= data->n_segments
         || (data->segments[data->current].pages.length == 0
             && !data->segments[data->current].done);
}

static gboolean
read_all (LoadAll *data, GError **error)
{
  guint first = data->current;

  if (data->shown != NULL)
    {
      data->seen = seen_new (data->table_keys, data->shown, data->stop, error);
      g_clear_pointer (&data->shown, dy_rows_snapshot_free);
      if (data->seen == NULL)
        return FALSE;
    }
  if (data->n_segments - first == 1)
    read_segment (data, &data->segments[first]);
  else
    {
      g_autofree GThread **threads = g_new0 (GThread *, data->n_segments);
      g_autofree SegmentJob *jobs = g_new0 (SegmentJob, data->n_segments);

      for (guint i = first; i < data->n_segments; i++)
        {
          jobs[i].data = data;
          jobs[i].segment = &data->segments[i];
          threads[i] = g_thread_new ("dy-load-segment", segment_main, &jobs[i]);
        }
      for (guint i = first; i < data->n_segments; i++)
        g_thread_join (threads[i]);
    }
  /* Done once the pages read are shown: the task's callback comes after them. */
  g_mutex_lock (&data->lock);
  while (!drained_locked (data) && !g_cancellable_is_cancelled (data->cancellable))
    g_cond_wait_until (&data->cond, &data->lock,
                       g_get_monotonic_time () + 50 * G_TIME_SPAN_MILLISECOND);
  g_mutex_unlock (&data->lock);
  if (g_cancellable_set_error_if_cancelled (data->cancellable, error))
    return FALSE;
  if (data->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&data->error));
      return FALSE;
    }
  return TRUE;
}

static gpointer
load_all_main (gpointer user_data)
{
  GTask *task = user_data;
  LoadAll *data = g_task_get_task_data (task);
  GError *error = NULL;

  lower_priority ();
  if (read_all (data, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
  dy_table_view_release_freed_memory ();
  g_object_unref (task);
  return NULL;
}

void
dy_table_view_finish_load_all (DyTableView *self)
{
  self->loading_all = FALSE;
  self->follow_up = FALSE;
  if (self->prune_columns)
    dy_table_view_prune_columns (self);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
  dy_table_view_set_running (self, FALSE);
  dy_table_view_rearrange (self);
  dy_table_view_update_actions (self);
  dy_table_view_update_footer (self);
}

static void
load_all_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyTableView *self = DY_TABLE_VIEW (source);
  g_autoptr (GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return; /* cancel_action has finished it (or a new Run replaced it) */
      /* the pages read stay, and LastEvaluatedKey is the last one's: Retry goes on from it */
      dy_table_view_show_failure (self, error, DY_TABLE_VIEW_RETRY_ALL);
    }
  dy_table_view_finish_load_all (self);
}

static void
stop_cancelled (GCancellable *cancellable, gpointer stop)
{
  g_cancellable_cancel (G_CANCELLABLE (stop));
}

/* The segments to read: from the view's place on (a segment and its key, or the key of a Scan
 * without segments, which TOTAL segments then read from the start). */
static void
plan_segments (DyTableView *self, LoadAll *data, guint total)
{
  gboolean started = json_object_size (self->last_key) > 0;

  if (total <= 1)
    {
      data->n_segments = 1;
      data->segments = g_new0 (Segment, 1);
      data->segments[0].index = -1;
      data->segments[0].start_key = json_incref (self->last_key);
    }
  else
    {
      guint from = self->total_segments > 0 ? self->segment : 0;

      data->total_segments = total;
      data->n_segments = total;
      data->segments = g_new0 (Segment, total);
      for (guint i = 0; i < total; i++)
        {
          data->segments[i].index = i;
          data->segments[i].done = i < from;
        }
      if (self->total_segments > 0)
        {
          if (started)
            data->segments[from].start_key = json_incref (self->last_key);
          data->seen = self->seen != NULL ? dy_table_view_seen_ref (self->seen) : NULL;
        }
      else
        {
          const DyTableViewKeys *table = self->keys->pdata[0];

          data->table_keys = g_new0 (DyTableViewKeys, 1);
          data->table_keys->pk = g_strdup (table->pk);
          data->table_keys->sk = g_strdup (table->sk);
          data->shown = dy_rows_snapshot (self->items);
        }
      data->current = from;
    }
  for (guint i = 0; i < data->n_segments; i++)
    g_queue_init (&data->segments[i].pages);
}

void
dy_table_view_load_all (DyTableView *self)
{
  g_autoptr (GTask) task = NULL;
  LoadAll *data;

  if (self->running || self->last_key == NULL || self->request == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  data = g_atomic_rc_box_new0 (LoadAll);
  data->view = g_object_ref (self);
  data->operation = g_strdup (self->operation);
  data->request = json_deep_copy (self->request);
  data->store = dy_row_store_ref (dy_rows_get_store (self->items));
  data->cancellable = g_object_ref (self->cancellable);
  data->stop = g_cancellable_new ();
  data->cancelled_handler = g_cancellable_connect (self->cancellable, G_CALLBACK (stop_cancelled),
                                                   g_object_ref (data->stop), g_object_unref);
  g_mutex_init (&data->lock);
  g_cond_init (&data->cond);
  plan_segments (self, data, dy_table_view_scan_segments (self));
  g_debug ("Load All: %u segment(s)", data->n_segments);
  self->loading_all = TRUE;
  self->load_started = g_get_monotonic_time ();
  self->load_scanned_before = self->scanned;
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), TRUE);
  dy_table_view_show_error (self, NULL);
  dy_table_view_set_running (self, TRUE);
  update_progress (self);
  task = g_task_new (self, self->cancellable, load_all_done, NULL);
  g_task_set_source_tag (task, dy_table_view_load_all);
  g_task_set_task_data (task, data, (GDestroyNotify) load_all_release);
  g_thread_unref (g_thread_new ("dy-load-all", load_all_main, g_object_ref (task)));
}
