/* dy-table-view-results.c: the table view's paging and results: Run (the filter row's request,
 * or one built elsewhere), Load More from LastEvaluatedKey, Cancel, the pages read on workers,
 * the footer's figures, the request text, the error bar and the bar saying that a commit made
 * the results stale. (Load All: dy-table-view-load-all.c.) */
#define G_LOG_DOMAIN "dynoscope-table-view"

#include <glib/gi18n.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "app/common/dy-copy-as.h"
#include "app/common/dy-format.h"
#include "app/browser/dy-table-view-private.h"

/* A Run's first request, without a Limit of the user's, reads this many items: a screenful
 * (and the couple of hundred rows the grid makes widgets for). */
#define FIRST_PAGE_ITEMS 100

void
dy_table_view_set_request_text (DyTableView *self, const char *text)
{
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->request_view), text, -1);
}

static void
set_request (DyTableView *self, json_t *request)
{
  g_autofree char *text = json_dumps (request, JSON_INDENT (2));

  dy_table_view_set_request_text (self, text);
}

/* Retry is shown while the bar holds a failure worth running again, and can be pressed while
 * nothing runs. */
static void
update_retry (DyTableView *self)
{
  gboolean again = self->retry != DY_TABLE_VIEW_RETRY_NONE;

  gtk_widget_set_visible (self->retry_button, again);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.retry", again && !self->running);
}

void
dy_table_view_show_error (DyTableView *self, const char *message)
{
  self->retry = DY_TABLE_VIEW_RETRY_NONE;
  update_retry (self);
  if (message != NULL)
    gtk_label_set_text (self->error_label, message);
  gtk_revealer_set_reveal_child (self->error_revealer, message != NULL);
}

void
dy_table_view_show_failure (DyTableView *self, const GError *error, DyTableViewRetry retry)
{
  dy_table_view_show_error (self, error->message);
  /* a request refused as it is (ValidationException, no such table) would only fail again */
  if (dy_connection_error_is_retryable (error, NULL))
    self->retry = retry;
  update_retry (self);
  /* the connection shows a session's failure (and Sign In where it helps) */
  dy_connection_report_failure (self->connection, error);
}

void
dy_table_view_update_actions (DyTableView *self)
{
  gboolean more = self->ready && !self->running && self->last_key != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.run", self->ready);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.load-more", more);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.load-all", more);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.cancel", self->running);
  update_retry (self);
  dy_table_view_selection_update (self);
}

void
dy_table_view_update_footer (DyTableView *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  g_autofree char *text = NULL;

  if (self->requests == 0)
    text = g_strdup (_("Nothing run yet"));
  else
    {
      /* The footer of a table view: its figures, each with its own plural, joined by " · ". */
      g_autofree char *scanned = dy_format_count (self->scanned);
      char *parts[7] = {
        g_strdup_printf (ngettext ("%u item shown", "%u items shown", shown), shown),
        /* TRANSLATORS: items read by the requests (DynamoDB's ScannedCount) */
        g_strdup_printf (_("%s scanned"), scanned),
        g_strdup_printf (ngettext ("%u page", "%u pages", self->pages), self->pages),
        g_strdup_printf (ngettext ("%u request", "%u requests", self->requests), self->requests),
        g_strdup_printf (_("%g capacity units"), self->capacity),
        self->last_key != NULL ? g_strdup (_("more pages remain")) : NULL,
        NULL,
      };

      text = g_strjoinv (" · ", parts);
      for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
        g_free (parts[i]);
    }
  gtk_label_set_text (self->footer_label, text);
}

/* A commit wrote to this table: the rows shown may hold values it replaced. They are not
 * patched in place (a commit's outcome per item is the table's to say, read again), the user
 * is told and offered a new Run. */
void
dy_table_view_staging_committed (DyStaging *staging, DyConnection *connection,
                                 const char *table, guint n_committed, DyTableView *self)
{
  if (connection == self->connection && (table == NULL || g_str_equal (table, self->table_name))
      && g_list_model_get_n_items (G_LIST_MODEL (self->items)) > 0)
    gtk_revealer_set_reveal_child (self->stale_revealer, TRUE);
}

/* Pages. */

void
dy_table_view_page_free (DyTableViewPage *page)
{
  json_decref (page->response);
  dy_row_page_free (page->rows);
  g_free (page);
}

typedef struct {
  char *operation;
  json_t *request;
  DyRowStore *store;
  DyTableViewSeen *seen;
} PageRequest;

static void
page_request_free (PageRequest *data)
{
  g_free (data->operation);
  json_decref (data->request);
  dy_row_store_unref (data->store);
  g_clear_pointer (&data->seen, dy_table_view_seen_unref);
  g_free (data);
}

typedef struct {
  DyRowPageBuilder *builder;
  const DyTableViewSeen *seen;
} PageReader;

/* The items of the page that are not shown already. */
static void
take_unseen (DdbValue *item, gpointer user_data)
{
  PageReader *reader = user_data;

  if (dy_table_view_seen_has (reader->seen, item))
    ddb_value_free (item);
  else
    dy_row_page_builder_take (item, reader->builder);
}

/* Reads OPERATION's REQUEST through CONNECTION, each item encoded into STORE as the reader hands
 * it over and its attribute names collected, on the worker: a 1 MB page can hold thousands of
 * items, and a database's build no JSON at all. Only the page's figures (the response without
 * its Items) go to the main thread. */
DyTableViewPage *
dy_table_view_read_page (DyConnection *connection, const char *operation, json_t *request,
                         DyRowStore *store, const DyTableViewSeen *seen, GCancellable *cancellable,
                         GError **error)
{
  PageReader reader = { dy_row_page_builder_new (store, 0), seen };
  json_t *response = dy_connection_read_sync (
      connection, operation, request, seen != NULL ? take_unseen : dy_row_page_builder_take,
      seen != NULL ? (gpointer) &reader : (gpointer) reader.builder, cancellable, error);
  DyRowPage *rows;
  DyTableViewPage *page;

  if (response == NULL)
    {
      dy_row_page_builder_free (reader.builder);
      return NULL;
    }
  rows = dy_row_page_builder_finish (reader.builder, error);
  if (rows == NULL)
    {
      json_decref (response);
      return NULL;
    }
  page = g_new0 (DyTableViewPage, 1);
  page->rows = rows;
  page->response = response;
  return page;
}

/* A page's items (many small blocks for a 1 MB page) are freed on the worker that read them.
 * Not after every page of Load All, whose worker reuses its arena: trimming takes every
 * arena's lock, the main thread's too. */
void
dy_table_view_release_freed_memory (void)
{
#ifdef __GLIBC__
  malloc_trim (0);
#endif
}

static void
page_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DyTableView *self = source;
  PageRequest *data = task_data;
  GError *error = NULL;
  DyTableViewPage *page = dy_table_view_read_page (self->connection, data->operation, data->request,
                                                   data->store, data->seen, cancellable, &error);

  if (page == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  dy_table_view_release_freed_memory ();
  g_task_return_pointer (task, page, (GDestroyNotify) dy_table_view_page_free);
}

void
dy_table_view_apply_page (DyTableView *self, DyTableViewPage *page)
{
  json_t *capacity;
  json_t *last_key;
  guint before = g_list_model_get_n_items (G_LIST_MODEL (self->items));

  dy_table_view_add_page_columns (self, page->rows);
  if (dy_rows_add_page (self->items, page->rows))
    dy_table_view_rows_added (self, before, g_list_model_get_n_items (G_LIST_MODEL (self->items)));
  self->pages++;
  self->scanned += json_integer_value (json_object_get (page->response, "ScannedCount"));
  capacity = json_object_get (json_object_get (page->response, "ConsumedCapacity"),
                              "CapacityUnits");
  self->capacity += json_number_value (capacity);
  last_key = json_object_get (page->response, "LastEvaluatedKey");
  g_clear_pointer (&self->last_key, json_decref);
  if (last_key != NULL)
    self->last_key = json_incref (last_key);
  else if (self->total_segments > 0 && self->segment + 1 < self->total_segments)
    {
      /* The next segment, from its start. */
      self->segment++;
      self->last_key = json_object ();
    }
}

static void send_next_page (DyTableView *self);

static void
page_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyTableView *self = DY_TABLE_VIEW (source);
  g_autoptr (GError) error = NULL;
  DyTableViewPage *page = g_task_propagate_pointer (G_TASK (result), &error);
  gint64 t0 = g_get_monotonic_time ();

  if (page == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  dy_table_view_set_running (self, FALSE);
  if (page == NULL)
    {
      /* Retry (or the session renewed) sends the same page again: the Run's first, or the one
       * after the rows shown, which stay. */
      self->follow_up = FALSE;
      dy_table_view_show_failure (self, error,
                                  self->pages == 0 ? DY_TABLE_VIEW_RETRY_RUN
                                                   : DY_TABLE_VIEW_RETRY_MORE);
      dy_table_view_update_footer (self);
      return;
    }
  dy_table_view_show_error (self, NULL);
  dy_table_view_apply_page (self, page);
  if (self->follow_up && self->last_key != NULL)
    {
      self->follow_up = FALSE;
      send_next_page (self);
    }
  else
    {
      self->follow_up = FALSE;
      if (self->prune_columns)
        dy_table_view_prune_columns (self);
    }
  dy_table_view_rearrange (self);
  dy_table_view_update_actions (self);
  dy_table_view_update_footer (self);
  g_debug ("page of %u items applied in %.1f ms", page->rows->lengths->len,
           (g_get_monotonic_time () - t0) / 1000.0);
  dy_table_view_page_free (page);
}

static void
send_page (DyTableView *self, json_t *request)
{
  g_autoptr (GTask) task = NULL;
  PageRequest *data = g_new0 (PageRequest, 1);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  if (self->loading_all)
    {
      self->loading_all = FALSE;
      gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
    }
  data->operation = g_strdup (self->operation);
  data->request = json_deep_copy (request);
  data->store = dy_row_store_ref (dy_rows_get_store (self->items));
  data->seen = self->seen != NULL ? dy_table_view_seen_ref (self->seen) : NULL;
  set_request (self, request);
  self->requests++;
  dy_table_view_set_running (self, TRUE);
  task = g_task_new (self, self->cancellable, page_done, NULL);
  g_task_set_source_tag (task, send_page);
  g_task_set_task_data (task, data, (GDestroyNotify) page_request_free);
  g_task_run_in_thread (task, page_thread);
}

/* The page after the last one, as the results' request continues (in the segment Load All
 * stopped in, if it read segments). */
static void
send_next_page (DyTableView *self)
{
  json_t *request = json_deep_copy (self->request);

  if (self->total_segments > 0)
    {
      json_object_set_new (request, "Segment", json_integer (self->segment));
      json_object_set_new (request, "TotalSegments", json_integer (self->total_segments));
    }
  if (json_object_size (self->last_key) > 0)
    json_object_set (request, "ExclusiveStartKey", self->last_key);
  send_page (self, request);
  json_decref (request);
}

/* Running. */

/* Empties the results; the grid shows the rows loaded next from the top. */
static void
clear_items (DyTableView *self)
{
  g_cancellable_cancel (self->arrange_cancellable);
  dy_table_view_drop_waiting_groups (self);
  /* The rows with widgets stay until the new rows take their places (dy-row-feed.h). */
  dy_rows_clear (self->items);
  dy_table_view_show_rows (self, G_LIST_MODEL (self->items));
  dy_table_view_scroll_to_top (self);
  g_clear_object (&self->order);
}

/* Replaces the results with those of OPERATION's REQUEST (taken), from its first page. */
static void
start_run (DyTableView *self, const char *operation, json_t *request)
{
  gint64 t0 = g_get_monotonic_time ();

  g_clear_pointer (&self->request, json_decref);
  g_clear_pointer (&self->last_key, json_decref);
  gtk_revealer_set_reveal_child (self->stale_revealer, FALSE);
  self->request = request;
  g_free (self->operation);
  self->operation = g_strdup (operation);
  self->scanned = 0;
  self->pages = 0;
  self->requests = 0;
  self->capacity = 0;
  self->total_segments = 0;
  self->segment = 0;
  g_clear_pointer (&self->seen, dy_table_view_seen_unref);
  clear_items (self);
  g_hash_table_remove_all (self->seen_columns);
  self->prune_columns = TRUE;
  dy_table_view_rebuild_rows (self);
  g_debug ("results cleared in %.1f ms", (g_get_monotonic_time () - t0) / 1000.0);
  /* Without a Limit of the user's, the first request reads only a screenful so that rows show
   * at once; the rest of a full page follows it. */
  self->follow_up = json_object_get (request, "Limit") == NULL;
  if (self->follow_up)
    {
      json_t *first = json_deep_copy (request);

      json_object_set_new (first, "Limit", json_integer (FIRST_PAGE_ITEMS));
      send_page (self, first);
      json_decref (first);
    }
  else
    send_page (self, request);
  dy_table_view_update_footer (self);
}

static void
run_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  g_autoptr (GError) error = NULL;
  DyQuerySpec spec;
  json_t *request;

  if (!self->ready)
    return;
  dy_table_view_fill_spec (self, &spec);
  request = dy_query_build (&spec, &error);
  if (request == NULL)
    {
      dy_table_view_show_error (self, error->message);
      return;
    }
  start_run (self, dy_query_spec_operation (&spec), request);
}

void
dy_table_view_run_request (DyTableView *self, const char *operation, json_t *request)
{
  g_return_if_fail (DY_IS_TABLE_VIEW (self));
  g_return_if_fail (g_strcmp0 (operation, "Query") == 0 || g_strcmp0 (operation, "Scan") == 0);
  g_return_if_fail (json_is_object (request));
  g_return_if_fail (self->ready);

  start_run (self, operation, json_deep_copy (request));
}

static void
load_more_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);

  if (self->running || self->last_key == NULL || self->request == NULL)
    return;
  send_next_page (self);
  dy_table_view_update_footer (self);
}

/* Read ahead: scrolled to within this many screens of the last row, the next page is asked for
 * without a click, so that rows are there when the user reaches the end. */
#define READ_AHEAD_SCREENS 2

static void
scrolled (GtkAdjustment *adjustment, DyTableView *self)
{
  double page = gtk_adjustment_get_page_size (adjustment);
  double upper = gtk_adjustment_get_upper (adjustment);
  double shown = g_list_model_get_n_items (G_LIST_MODEL (self->feed));
  double loaded = g_list_model_get_n_items (G_LIST_MODEL (self->items));

  /* Only the rows as loaded end where the next page begins (not a sort, collections or Find);
   * not while the error bar tells a failure, nor while a request runs. The rows the feed has
   * yet to show count: the end is that of the rows loaded. */
  if (self->running || self->last_key == NULL || self->request == NULL || page <= 0 || upper <= 0
      || gtk_revealer_get_reveal_child (self->error_revealer)
      || dy_row_feed_get_source (self->feed) != G_LIST_MODEL (self->items)
      || (gtk_adjustment_get_value (adjustment) + page) / upper * shown
             < loaded - READ_AHEAD_SCREENS * page / upper * shown)
    return;
  g_debug ("scrolled near the last row: reading the next page ahead");
  send_next_page (self);
  dy_table_view_update_footer (self);
}

void
dy_table_view_results_init (DyTableView *self)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view));

  g_return_if_fail (adjustment != NULL);
  g_signal_connect_object (adjustment, "value-changed", G_CALLBACK (scrolled), self, 0);
}

static void
load_all_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_table_view_load_all (DY_TABLE_VIEW (widget));
}

static void
cancel_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);

  if (!self->running)
    return;
  g_cancellable_cancel (self->cancellable);
  dy_table_view_finish_load_all (self);
}

static void
copy_request_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  g_autofree char *text = dy_table_view_dup_request_text (self);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

/* The request Run would send, as a program in the language named by PARAMETER. */
static void
copy_as_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  g_autoptr (GError) error = NULL;
  g_autofree char *program = NULL;
  json_auto_t *request = NULL;
  DyQuerySpec spec;

  if (dy_table_view_current_keys (self) == NULL)
    return;
  dy_table_view_fill_spec (self, &spec);
  request = dy_query_build (&spec, &error);
  if (request != NULL)
    program = dy_copy_as_program (self->connection, g_variant_get_string (parameter, NULL),
                                  dy_query_spec_operation (&spec), request, &error);
  if (program == NULL)
    {
      dy_table_view_show_error (self, error->message);
      return;
    }
  dy_table_view_show_error (self, NULL);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), program);
}

void
dy_table_view_rerun (DyTableView *self, DyTableViewRetry retry)
{
  if (self->running || self->request == NULL)
    return;
  switch (retry)
    {
    case DY_TABLE_VIEW_RETRY_RUN:
      {
        g_autofree char *operation = g_strdup (self->operation);

        start_run (self, operation, json_incref (self->request));
      }
      break;
    case DY_TABLE_VIEW_RETRY_MORE:
      if (self->last_key != NULL)
        {
          dy_table_view_show_error (self, NULL);
          send_next_page (self);
        }
      break;
    case DY_TABLE_VIEW_RETRY_ALL:
      dy_table_view_load_all (self);
      break;
    case DY_TABLE_VIEW_RETRY_NONE:
    case DY_TABLE_VIEW_RETRY_DESCRIBE:
    default:
      break;
    }
}

void
dy_table_view_results_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "view.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "view.load-more", NULL, load_more_action);
  gtk_widget_class_install_action (widget_class, "view.load-all", NULL, load_all_action);
  gtk_widget_class_install_action (widget_class, "view.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "view.cancel", NULL);
  gtk_widget_class_install_action (widget_class, "view.copy-request", NULL, copy_request_action);
  gtk_widget_class_install_action (widget_class, "view.copy-as", "s", copy_as_action);
}
