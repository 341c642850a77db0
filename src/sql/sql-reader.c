/* sql-reader.c: the items of one Query or Scan, page after page (LastEvaluatedKey), through the
 * backend; a Scan of several segments reads them on threads of its own, a few pages ahead of
 * SQLite, so a remote table's round trips overlap. Each item becomes a compact row of the
 * columns used as it arrives (and is freed at once: a page holds no values). Every call is
 * counted in the table's statistics, and stops when the statement is cancelled or the reader
 * freed. */
#include "core/error.h"
#include "sql/sql-lookup.h"

#define PAGES_AHEAD_PER_SEGMENT 2

struct _SqlReader {
  DdbSql *sql;
  SqlTable *table;
  guint64 columns; /* held in each page's rows */
  char *operation;
  GCancellable *cancel; /* ours: cancelled by the statement's, and when freed */
  gulong cancel_handler;

  /* One segment, read when SQLite asks. */
  json_t *request;
  gint64 remaining; /* items still wanted under LIMIT, < 0: all */
  gboolean last_page;

  /* Several segments, read ahead. */
  GThread **threads;
  guint n_threads;
  GMutex lock;
  GCond cond;
  GQueue pages;      /* SqlLookup*: the pages not yet consumed */
  guint running;     /* threads not finished */
  gboolean stopping;

  SqlLookup *page; /* the rows of the page being consumed */
  guint next;
};

gboolean
sql_cancelled (DdbSql *sql)
{
  gboolean cancelled;

  g_mutex_lock (&sql->lock);
  cancelled = sql->cancellable != NULL && g_cancellable_is_cancelled (sql->cancellable);
  g_mutex_unlock (&sql->lock);
  return cancelled;
}

void
sql_set_error_full (DdbSql *sql, GError *error, json_t *extra)
{
  g_mutex_lock (&sql->lock);
  if (sql->error == NULL)
    {
      sql->error = error;
      json_decref (sql->error_extra);
      sql->error_extra = extra;
    }
  else
    {
      g_error_free (error);
      json_decref (extra);
    }
  g_mutex_unlock (&sql->lock);
}

void
sql_set_error (DdbSql *sql, GError *error)
{
  sql_set_error_full (sql, error, NULL);
}

static void
count_page (SqlReader *reader, json_t *response)
{
  DdbSqlStats *s = &reader->table->stats;
  json_t *capacity = json_object_get (response, "ConsumedCapacity");

  g_mutex_lock (&reader->sql->lock);
  s->pages++;
  s->items_read += (guint64) json_integer_value (json_object_get (response, "ScannedCount"));
  s->rcu += json_number_value (json_object_get (capacity, "CapacityUnits"));
  g_mutex_unlock (&reader->sql->lock);
}

typedef struct {
  SqlLookup *rows;
  gboolean failed;
} Page;

static void
collect (DdbValue *item, gpointer data)
{
  Page *page = data;

  /* Only an item past 4 GB or the 4 billionth row of a page could fail. */
  if (!sql_lookup_add (page->rows, item))
    page->failed = TRUE;
  ddb_value_free (item);
}

/* The rows of one page of REQUEST; advances its ExclusiveStartKey. NULL at an error
 * (recorded unless the reader is being stopped). */
static SqlLookup *
read_page (SqlReader *reader, json_t *request, gboolean *last)
{
  json_t *response = NULL;
  json_t *lek;
  GError *error = NULL;
  Page page = { sql_lookup_new (reader->table, reader->columns, -1), FALSE };

  g_mutex_lock (&reader->sql->lock);
  reader->table->stats.requests++;
  g_mutex_unlock (&reader->sql->lock);
  if (!ddb_backend_read (reader->sql->backend, reader->operation, request, collect, &page,
                         reader->cancel, &response, &error))
    {
      sql_lookup_free (page.rows);
      if (g_cancellable_is_cancelled (reader->cancel) && !sql_cancelled (reader->sql))
        g_error_free (error); /* stopped: SQLite no longer wants these rows */
      else if (sql_cancelled (reader->sql))
        {
          g_error_free (error);
          sql_set_error (reader->sql, g_error_new_literal (DDB_SQL_ERROR,
                                                           DDB_SQL_ERROR_CANCELLED,
                                                           "The query was cancelled"));
        }
      else
        {
          sql_set_error_full (reader->sql, error, g_steal_pointer (&response));
          return NULL;
        }
      json_decref (response);
      return NULL;
    }
  count_page (reader, response);
  lek = json_object_get (response, "LastEvaluatedKey");
  *last = lek == NULL || json_object_size (lek) == 0;
  if (!*last)
    json_object_set (request, "ExclusiveStartKey", lek);
  json_decref (response);
  if (page.failed)
    {
      sql_lookup_free (page.rows);
      sql_set_error (reader->sql, g_error_new_literal (DDB_SQL_ERROR, DDB_SQL_ERROR_SQL,
                                                       "A page of items too large to hold"));
      return NULL;
    }
  return page.rows;
}

typedef struct {
  SqlReader *reader;
  json_t *request; /* this segment's */
} Segment;

static gpointer
segment_thread (gpointer data)
{
  Segment *segment = data;
  SqlReader *reader = segment->reader;
  json_t *request = segment->request;
  gboolean last = FALSE;

  g_free (segment);
  while (!last)
    {
      SqlLookup *page;

      g_mutex_lock (&reader->lock);
      while (!reader->stopping
             && reader->pages.length >= PAGES_AHEAD_PER_SEGMENT * reader->n_threads)
        g_cond_wait (&reader->cond, &reader->lock);
      if (reader->stopping)
        {
          g_mutex_unlock (&reader->lock);
          break;
        }
      g_mutex_unlock (&reader->lock);

      page = read_page (reader, request, &last);
      if (page == NULL)
        break;
      g_mutex_lock (&reader->lock);
      g_queue_push_tail (&reader->pages, page);
      g_cond_broadcast (&reader->cond);
      g_mutex_unlock (&reader->lock);
    }
  g_mutex_lock (&reader->lock);
  reader->running--;
  g_cond_broadcast (&reader->cond);
  g_mutex_unlock (&reader->lock);
  json_decref (request);
  return NULL;
}

static void
cancel_reader (GCancellable *statement, gpointer data)
{
  (void) statement;
  g_cancellable_cancel (data);
}

SqlReader *
sql_reader_new (DdbSql *sql, SqlTable *table, const char *operation, json_t *request,
                guint segments, gint64 limit, guint64 columns)
{
  SqlReader *reader = g_new0 (SqlReader, 1);

  reader->sql = sql;
  reader->table = table;
  reader->columns = columns;
  reader->operation = g_strdup (operation);
  reader->cancel = g_cancellable_new ();
  reader->remaining = limit;
  g_mutex_init (&reader->lock);
  g_cond_init (&reader->cond);
  if (sql->cancellable != NULL)
    reader->cancel_handler = g_cancellable_connect (sql->cancellable, G_CALLBACK (cancel_reader),
                                                    g_object_ref (reader->cancel),
                                                    g_object_unref);
  json_object_set_new (request, "ReturnConsumedCapacity", json_string ("TOTAL"));

  if (segments <= 1 || limit >= 0 || g_strcmp0 (operation, "Scan") != 0)
    {
      reader->request = request;
      return reader;
    }
  reader->threads = g_new0 (GThread *, segments);
  reader->n_threads = segments;
  reader->running = segments;
  for (guint i = 0; i < segments; i++)
    {
      Segment *segment = g_new (Segment, 1);

      segment->reader = reader;
      segment->request = json_deep_copy (request);
      json_object_set_new (segment->request, "Segment", json_integer (i));
      json_object_set_new (segment->request, "TotalSegments", json_integer (segments));
      reader->threads[i] = g_thread_new ("dynoscope-sql-scan", segment_thread, segment);
    }
  json_decref (request);
  return reader;
}

/* The next page from the segment threads, NULL when all are done. */
static SqlLookup *
next_threaded_page (SqlReader *reader)
{
  SqlLookup *response;

  g_mutex_lock (&reader->lock);
  while (reader->pages.length == 0 && reader->running > 0)
    g_cond_wait (&reader->cond, &reader->lock);
  response = g_queue_pop_head (&reader->pages);
  g_cond_broadcast (&reader->cond);
  g_mutex_unlock (&reader->lock);
  return response;
}

gboolean
sql_reader_next (SqlReader *reader, SqlLookup **page_out, guint *row)
{
  for (;;)
    {
      SqlLookup *page;

      if (reader->remaining == 0)
        return FALSE;
      if (reader->page != NULL && reader->next < sql_lookup_n_rows (reader->page))
        {
          if (reader->remaining > 0)
            reader->remaining--;
          *page_out = reader->page;
          *row = reader->next++;
          return TRUE;
        }
      g_clear_pointer (&reader->page, sql_lookup_free);
      reader->next = 0;
      if (sql_cancelled (reader->sql))
        {
          sql_set_error (reader->sql, g_error_new_literal (DDB_SQL_ERROR,
                                                           DDB_SQL_ERROR_CANCELLED,
                                                           "The query was cancelled"));
          return FALSE;
        }
      if (reader->threads != NULL)
        page = next_threaded_page (reader);
      else
        {
          if (reader->last_page)
            return FALSE;
          if (reader->remaining > 0)
            json_object_set_new (reader->request, "Limit", json_integer (reader->remaining));
          page = read_page (reader, reader->request, &reader->last_page);
        }
      if (page == NULL)
        return FALSE;
      reader->page = page;
    }
}

void
sql_reader_free (SqlReader *reader)
{
  if (reader == NULL)
    return;
  g_cancellable_cancel (reader->cancel);
  if (reader->threads != NULL)
    {
      g_mutex_lock (&reader->lock);
      reader->stopping = TRUE;
      g_cond_broadcast (&reader->cond);
      g_mutex_unlock (&reader->lock);
      for (guint i = 0; i < reader->n_threads; i++)
        g_thread_join (reader->threads[i]);
      g_free (reader->threads);
      g_queue_clear_full (&reader->pages, (GDestroyNotify) sql_lookup_free);
    }
  if (reader->cancel_handler != 0)
    g_cancellable_disconnect (reader->sql->cancellable, reader->cancel_handler);
  g_object_unref (reader->cancel);
  json_decref (reader->request);
  sql_lookup_free (reader->page);
  g_free (reader->operation);
  g_mutex_clear (&reader->lock);
  g_cond_clear (&reader->cond);
  g_free (reader);
}
