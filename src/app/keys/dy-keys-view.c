/* dy-keys-view.c: the key-distribution window (see dy-keys-view.h): its inputs, the analysis on
 * a worker thread with progress and Cancel, and a partition's key copied or queried. The report
 * is shown by dy-keys-view-report.c, the chart drawn by dy-keys-chart.c, the lists are
 * dy-keys-rows.c. */
#define G_LOG_DOMAIN "dynoscope-keys-view"

#include <glib/gi18n.h>

#include "app/keys/dy-keys-chart.h"
#include "app/common/dy-format.h"
#include "app/keys/dy-keys-rows.h"
#include "app/common/dy-copy-as.h"
#include "app/keys/dy-keys-view-private.h"

#define LIST_HEIGHT 280

G_DEFINE_FINAL_TYPE (DyKeysView, dy_keys_view, ADW_TYPE_WINDOW)

/* The worker. */

typedef struct {
  DyConnection *connection;
  char *table;
  char *index;
  DdbKeysOptions options;
  gsize items_read; /* atomic: the worker writes it, a timer on the main thread reads it */
} RunData;

static void
run_data_free (RunData *d)
{
  g_object_unref (d->connection);
  g_free (d->table);
  g_free (d->index);
  g_free (d);
}

static void
run_progress (guint64 items, gpointer user_data)
{
  RunData *d = user_data;

  g_atomic_pointer_set (&d->items_read, (gsize) items);
}

static void
run_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  RunData *d = task_data;
  GError *error = NULL;
  DdbBackend *backend = dy_connection_open_backend (d->connection, 0, &error);
  DdbKeysReport *report;

  if (backend == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  report = ddb_keys_analyze (backend, &d->options, run_progress, d, cancellable, &error);
  ddb_backend_free (backend);
  if (report == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, report, (GDestroyNotify) ddb_keys_report_free);
}

/* Figures as text. */

static void
set_error (DyKeysView *self, const char *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static void
update_progress (DyKeysView *self)
{
  double seconds = (double) (g_get_monotonic_time () - self->started) / G_USEC_PER_SEC;
  RunData *d = self->task != NULL ? g_task_get_task_data (self->task) : NULL;
  g_autofree char *text = NULL;
  g_autofree char *count = NULL;

  if (d != NULL)
    self->items_read = g_atomic_pointer_get (&d->items_read);
  count = dy_format_count (self->items_read);
  /* TRANSLATORS: the progress of the partition-key analysis: items read so far, and the rate */
  text = g_strdup_printf (ngettext ("Reading… %s item read, %'.0f items/s",
                                    "Reading… %s items read, %'.0f items/s",
                                    (gulong) self->items_read),
                          count, seconds > 0.05 ? (double) self->items_read / seconds : 0.0);
  gtk_label_set_text (self->progress_label, text);
}

static gboolean
progress_tick (gpointer user_data)
{
  update_progress (user_data);
  return G_SOURCE_CONTINUE;
}

static void
update_actions (DyKeysView *self)
{
  gboolean running = self->task != NULL;
  gboolean sample = gtk_drop_down_get_selected (self->mode_dropdown) == 1;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "keys.run", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "keys.cancel", running);
  gtk_widget_set_visible (self->cancel_button, running);
  gtk_widget_set_visible (self->progress_box, running);
  gtk_spinner_set_spinning (self->spinner, running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->sample_spin), sample && !running);
  gtk_widget_set_sensitive (self->sample_unit, sample);
  gtk_widget_set_sensitive (GTK_WIDGET (self->index_dropdown), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->mode_dropdown), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->rcu_spin), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->wcu_spin), !running);
  /* the last report stays in sight, dimmed, until the new one replaces it */
  gtk_widget_set_sensitive (gtk_stack_get_child_by_name (self->content_stack, "report"), !running);
}

static void
run_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyKeysView *self = DY_KEYS_VIEW (source);
  g_autoptr (GError) error = NULL;
  DdbKeysReport *report = g_task_propagate_pointer (G_TASK (result), &error);
  double seconds = (double) (g_get_monotonic_time () - self->started) / G_USEC_PER_SEC;

  if (self->disposed)
    {
      /* the window was closed while reading: the task's reference on it goes with the task */
      g_clear_pointer (&report, ddb_keys_report_free);
      g_clear_object (&self->task);
      return;
    }
  update_progress (self);
  g_clear_handle_id (&self->progress_timer, g_source_remove);
  g_clear_object (&self->task);
  g_clear_object (&self->run_cancellable);
  update_actions (self);
  if (report == NULL)
    {
      g_autofree char *message = NULL;
      g_autofree char *count = dy_format_count (self->items_read);

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        /* TRANSLATORS: the analysis was cancelled after reading this many items */
        message = g_strdup_printf (
            g_dngettext (NULL, "Cancelled after %s item read: nothing to show.",
                         "Cancelled after %s items read: nothing to show.", self->items_read),
            count);
      else
        {
          g_autofree char *why = dy_connection_describe_error (self->connection, error, NULL);

          set_error (self, why);
          message = g_strdup (_ ("The analysis failed: nothing to show."));
        }
      g_clear_pointer (&self->report, ddb_keys_report_free);
      adw_status_page_set_description (self->empty_page, message);
      gtk_stack_set_visible_child_name (self->content_stack, "empty");
      dy_keys_view_set_source_text (self, g_steal_pointer (&message));
      return;
    }
  g_clear_pointer (&self->report, ddb_keys_report_free);
  self->report = report;
  dy_keys_view_show_report (self, seconds);
}

void
dy_keys_view_run (DyKeysView *self)
{
  RunData *d;
  guint selected;

  g_return_if_fail (DY_IS_KEYS_VIEW (self));
  if (self->task != NULL)
    return;
  d = g_new0 (RunData, 1);
  d->connection = g_object_ref (self->connection);
  d->table = g_strdup (self->table);
  selected = gtk_drop_down_get_selected (self->index_dropdown);
  if (selected != GTK_INVALID_LIST_POSITION && selected < self->index_names->len)
    d->index = g_strdup (self->index_names->pdata[selected]);
  d->options.table = d->table;
  d->options.index = d->index;
  if (gtk_drop_down_get_selected (self->mode_dropdown) == 1)
    d->options.sample = (guint64) gtk_spin_button_get_value (self->sample_spin);
  d->options.rate_rcu = gtk_spin_button_get_value (self->rcu_spin);
  d->options.rate_wcu = gtk_spin_button_get_value (self->wcu_spin);

  set_error (self, NULL);
  self->items_read = 0;
  self->started = g_get_monotonic_time ();
  self->run_cancellable = g_cancellable_new ();
  self->task = g_task_new (self, self->run_cancellable, run_done, NULL);
  g_task_set_source_tag (self->task, dy_keys_view_run);
  g_task_set_task_data (self->task, d, (GDestroyNotify) run_data_free);
  g_task_run_in_thread (self->task, run_thread);
  self->progress_timer = g_timeout_add (100, progress_tick, self);
  update_progress (self);
  update_actions (self);
}

void
dy_keys_view_cancel (DyKeysView *self)
{
  g_return_if_fail (DY_IS_KEYS_VIEW (self));
  if (self->run_cancellable != NULL)
    g_cancellable_cancel (self->run_cancellable);
}

/* DescribeTable: the indexes, and the key types that a partition's Query needs. */

static void
describe_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyKeysView) self = user_data;
  g_autoptr (GError) error = NULL;
  json_t *response = dy_connection_call_finish (DY_CONNECTION (source), result, &error);
  const char *lists[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };

  if (response == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_error (self, error->message);
      return;
    }
  self->description = json_incref (json_object_get (response, "Table"));
  json_decref (response);
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    {
      size_t i;
      json_t *entry;

      json_array_foreach (json_object_get (self->description, lists[l]), i, entry)
        {
          const char *name = json_string_value (json_object_get (entry, "IndexName"));
          g_autofree char *label = NULL;

          if (name == NULL)
            continue;
          /* TRANSLATORS: an entry of the table-or-index list; %s is the index name */
          label = g_strdup_printf (l == 0 ? _ ("Index %s (global)") : _ ("Index %s (local)"), name);
          g_ptr_array_add (self->index_names, g_strdup (name));
          gtk_string_list_append (self->index_list, label);
        }
    }
  self->ready = TRUE;
}

/* A row's key: copied, or its partition queried in the table's tab. */

static void
copy_key_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  const char *key = g_variant_get_string (parameter, NULL);

  if (*key != '\0')
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), key);
}

/* keys.copy-fanout ((su): a language, a shard advice of the report): the fan-out Query program
 * that advice needs, on the clipboard. */
static void
copy_fanout_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyKeysView *self = DY_KEYS_VIEW (widget);
  g_autoptr (GError) error = NULL;
  g_autofree char *program = NULL;
  const char *lang;
  guint index;

  g_variant_get (parameter, "(&su)", &lang, &index);
  if (self->report == NULL || index >= self->report->shard_advice->len)
    return;
  program = dy_copy_as_fanout_program (self->connection, lang, self->report,
                                       self->report->shard_advice->pdata[index], &error);
  if (program == NULL)
    {
      /* TRANSLATORS: the fan-out Query program could not be written, and why */
      dy_keys_view_set_source_text (
          self, g_strdup_printf (_ ("Could not write the fan-out Query program: %s"),
                                 error->message));
      gtk_widget_error_bell (widget);
      return;
    }
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), program);
}

/* The type letter of ATTRIBUTE in the table's AttributeDefinitions ("S" when unknown). */
static const char *
attribute_type (DyKeysView *self, const char *attribute)
{
  size_t i;
  json_t *entry;

  json_array_foreach (json_object_get (self->description, "AttributeDefinitions"), i, entry)
    if (g_strcmp0 (json_string_value (json_object_get (entry, "AttributeName")), attribute) == 0)
      {
        const char *type = json_string_value (json_object_get (entry, "AttributeType"));

        if (type != NULL)
          return type;
      }
  return "S";
}

typedef struct {
  DyTableView *view;
  char *operation;
  json_t *request;
  guint tries;
} PendingQuery;

static void
pending_query_free (PendingQuery *q)
{
  g_clear_weak_pointer (&q->view);
  json_decref (q->request);
  g_free (q);
}

/* A tab opened just now runs the Query once it has described its table (10 s at most). */
static gboolean
pending_query_tick (gpointer user_data)
{
  PendingQuery *q = user_data;

  if (q->view == NULL || ++q->tries > 100)
    return G_SOURCE_REMOVE;
  if (!dy_table_view_get_ready (q->view))
    return G_SOURCE_CONTINUE;
  dy_table_view_run_request (q->view, "Query", q->request);
  return G_SOURCE_REMOVE;
}

static void
query_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyKeysView *self = DY_KEYS_VIEW (widget);
  const char *key = g_variant_get_string (parameter, NULL);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  PendingQuery *q;
  DyTableView *view;
  const char *key_name;

  if (*key == '\0' || self->report == NULL || !DY_IS_WINDOW (parent))
    return;
  key_name = self->report->key_name;
  view = dy_window_open_table (DY_WINDOW (parent), self->connection, self->table);
  q = g_new0 (PendingQuery, 1);
  g_set_weak_pointer (&q->view, view);
  q->request
      = json_pack ("{ss ss s{ss} s{s{ss}}}", "TableName", self->table, "KeyConditionExpression",
                   "#pk = :pk", "ExpressionAttributeNames", "#pk", key_name,
                   "ExpressionAttributeValues", ":pk", attribute_type (self, key_name), key);
  if (self->report->index != NULL)
    json_object_set_new (q->request, "IndexName", json_string (self->report->index));
  g_timeout_add_full (G_PRIORITY_DEFAULT, 100, pending_query_tick, q,
                      (GDestroyNotify) pending_query_free);
  if (dy_table_view_get_ready (view))
    pending_query_tick (q);
  gtk_window_present (parent);
}

static void
run_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_keys_view_run (DY_KEYS_VIEW (widget));
}

static void
cancel_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_keys_view_cancel (DY_KEYS_VIEW (widget));
}

/* GObject. */

static void
dy_keys_view_dispose (GObject *object)
{
  DyKeysView *self = DY_KEYS_VIEW (object);

  self->disposed = TRUE;
  g_cancellable_cancel (self->describe_cancellable);
  if (self->run_cancellable != NULL)
    g_cancellable_cancel (self->run_cancellable);
  g_clear_handle_id (&self->progress_timer, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_KEYS_VIEW);
  G_OBJECT_CLASS (dy_keys_view_parent_class)->dispose (object);
}

static void
dy_keys_view_finalize (GObject *object)
{
  DyKeysView *self = DY_KEYS_VIEW (object);

  g_clear_object (&self->connection);
  g_free (self->table);
  g_clear_pointer (&self->description, json_decref);
  g_ptr_array_unref (self->index_names);
  g_clear_object (&self->describe_cancellable);
  g_clear_object (&self->run_cancellable);
  g_clear_object (&self->task);
  g_clear_pointer (&self->report, ddb_keys_report_free);
  g_free (self->error);
  g_free (self->source_text);
  g_clear_object (&self->heaviest);
  g_clear_object (&self->collections);
  g_clear_object (&self->families);
  g_clear_object (&self->hot);
  G_OBJECT_CLASS (dy_keys_view_parent_class)->finalize (object);
}

static void
dy_keys_view_class_init (DyKeysViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = dy_keys_view_dispose;
  G_OBJECT_CLASS (klass)->finalize = dy_keys_view_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dy-keys-view.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, DyKeysView, name)
  BIND (window_title);
  BIND (index_dropdown);
  BIND (index_list);
  BIND (mode_dropdown);
  BIND (sample_spin);
  BIND (sample_unit);
  BIND (rcu_spin);
  BIND (wcu_spin);
  BIND (run_button);
  BIND (cancel_button);
  BIND (progress_box);
  BIND (spinner);
  BIND (progress_label);
  BIND (error_label);
  BIND (content_stack);
  BIND (empty_page);
  BIND (source_label);
  BIND (items_value);
  BIND (bytes_value);
  BIND (cardinality_value);
  BIND (cardinality_caption);
  BIND (advice_box);
  BIND (chart_frame);
  BIND (heaviest_note);
  BIND (heaviest_box);
  BIND (families_note);
  BIND (families_box);
  BIND (hot_note);
  BIND (hot_box);
  BIND (collections_note);
  BIND (collections_box);
#undef BIND
  gtk_widget_class_install_action (widget_class, "keys.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "keys.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "keys.copy-key", "s", copy_key_action);
  gtk_widget_class_install_action (widget_class, "keys.copy-fanout", "(su)", copy_fanout_action);
  gtk_widget_class_install_action (widget_class, "keys.query", "s", query_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "keys.run",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "keys.cancel", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close",
                                       NULL);
}

static GtkWidget *
new_list (GListStore **store, const DyKeysColumn *columns, guint n_columns)
{
  *store = g_list_store_new (DY_TYPE_KEYS_ROW);
  return dy_keys_list_new (G_LIST_MODEL (*store), columns, n_columns, LIST_HEIGHT, NULL);
}

static void
dy_keys_view_init (DyKeysView *self)
{
  const DyKeysColumn heaviest[] = {
    { _ ("Partition key"), DY_KEYS_COLUMN_KEY },
    { _ ("Items"), DY_KEYS_COLUMN_FIGURE },
    { _ ("Size"), DY_KEYS_COLUMN_FIGURE },
    { _ ("Share of items"), DY_KEYS_COLUMN_FIGURE },
    { _ ("Share of bytes"), DY_KEYS_COLUMN_FIGURE },
  };
  const DyKeysColumn collections[] = {
    { _ ("Partition key"), DY_KEYS_COLUMN_KEY },
    { _ ("Size"), DY_KEYS_COLUMN_FIGURE },
    { _ ("Of 10 GB"), DY_KEYS_COLUMN_FIGURE },
  };
  const DyKeysColumn families[] = {
    { _ ("Family"), DY_KEYS_COLUMN_KEY },           { _ ("Shards"), DY_KEYS_COLUMN_TEXT },
    { _ ("Items"), DY_KEYS_COLUMN_FIGURE },         { _ ("Share"), DY_KEYS_COLUMN_FIGURE },
    { _ ("Items a shard"), DY_KEYS_COLUMN_FIGURE }, { _ ("Spread"), DY_KEYS_COLUMN_FIGURE },
    { _ ("Heaviest shard"), DY_KEYS_COLUMN_KEY },
  };
  const DyKeysColumn hot[] = {
    { _ ("Partition key"), DY_KEYS_COLUMN_KEY },
    { _ ("Share of items"), DY_KEYS_COLUMN_FIGURE },
    { _ ("RCU"), DY_KEYS_COLUMN_FIGURE },
    { _ ("WCU"), DY_KEYS_COLUMN_FIGURE },
    { _ ("Suffixes advised"), DY_KEYS_COLUMN_FIGURE },
  };

  gtk_widget_init_template (GTK_WIDGET (self));
  self->index_names = g_ptr_array_new_with_free_func (g_free);
  self->describe_cancellable = g_cancellable_new ();
  self->chart = dy_keys_chart_new ();
  gtk_widget_set_margin_top (self->chart, 4);
  gtk_widget_set_margin_bottom (self->chart, 4);
  gtk_frame_set_child (self->chart_frame, self->chart);
  gtk_box_append (self->heaviest_box,
                  new_list (&self->heaviest, heaviest, G_N_ELEMENTS (heaviest)));
  gtk_box_append (self->collections_box,
                  new_list (&self->collections, collections, G_N_ELEMENTS (collections)));
  gtk_box_append (self->families_box,
                  new_list (&self->families, families, G_N_ELEMENTS (families)));
  gtk_box_append (self->hot_box, new_list (&self->hot, hot, G_N_ELEMENTS (hot)));
  g_signal_connect_swapped (self->mode_dropdown, "notify::selected", G_CALLBACK (update_actions),
                            self);
  gtk_spin_button_set_value (self->sample_spin, DY_KEYS_VIEW_DEFAULT_SAMPLE);
  update_actions (self);
}

DyKeysView *
dy_keys_view_open (DyWindow *window, DyConnection *connection, const char *table)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (window));
  g_autofree char *subtitle = NULL;
  DyKeysView *self;
  json_t *request;

  for (GList *l = app != NULL ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    if (DY_IS_KEYS_VIEW (l->data) && DY_KEYS_VIEW (l->data)->connection == connection
        && g_strcmp0 (DY_KEYS_VIEW (l->data)->table, table) == 0)
      {
        gtk_window_present (l->data);
        return l->data;
      }
  self = g_object_new (DY_TYPE_KEYS_VIEW, "transient-for", window, "destroy-with-parent", TRUE,
                       "application", app, NULL);
  self->connection = g_object_ref (connection);
  self->table = g_strdup (table);
  /* TRANSLATORS: the window's subtitle: the table and its connection */
  subtitle = g_strdup_printf (_ ("%s — %s"), table, dy_connection_get_title (connection));
  adw_window_title_set_subtitle (self->window_title, subtitle);
  /* TRANSLATORS: the first entry of the table-or-index list; %s is the table */
  {
    g_autofree char *label = g_strdup_printf (_ ("Table %s"), table);

    gtk_string_list_append (self->index_list, label);
    g_ptr_array_add (self->index_names, NULL);
  }
  /* A scan costs read capacity on AWS: a remote table starts on a sample. */
  gtk_drop_down_set_selected (
      self->mode_dropdown, dy_connection_get_kind (connection) == DY_CONNECTION_DATABASE ? 0 : 1);
  request = json_pack ("{ss}", "TableName", table);
  dy_connection_call_async (connection, "DescribeTable", request, self->describe_cancellable,
                            describe_done, g_object_ref (self));
  json_decref (request);
  gtk_window_present (GTK_WINDOW (self));
  return self;
}

DyConnection *
dy_keys_view_get_connection (DyKeysView *self)
{
  return self->connection;
}

const char *
dy_keys_view_get_table_name (DyKeysView *self)
{
  return self->table;
}

gboolean
dy_keys_view_set_index (DyKeysView *self, const char *index)
{
  for (guint i = 0; i < self->index_names->len; i++)
    if (g_strcmp0 (self->index_names->pdata[i], index) == 0)
      {
        gtk_drop_down_set_selected (self->index_dropdown, i);
        return TRUE;
      }
  return FALSE;
}

void
dy_keys_view_set_sample (DyKeysView *self, guint64 sample)
{
  if (sample > 0)
    gtk_spin_button_set_value (self->sample_spin, (double) sample);
  gtk_drop_down_set_selected (self->mode_dropdown, sample > 0 ? 1 : 0);
}

void
dy_keys_view_set_rate (DyKeysView *self, double rcu, double wcu)
{
  gtk_spin_button_set_value (self->rcu_spin, rcu);
  gtk_spin_button_set_value (self->wcu_spin, wcu);
}

gboolean
dy_keys_view_get_ready (DyKeysView *self)
{
  return self->ready;
}

gboolean
dy_keys_view_get_running (DyKeysView *self)
{
  return self->task != NULL;
}

guint64
dy_keys_view_get_items_read (DyKeysView *self)
{
  if (self->task != NULL)
    update_progress (self);
  return self->items_read;
}

const DdbKeysReport *
dy_keys_view_get_report (DyKeysView *self)
{
  return self->report;
}

const char *
dy_keys_view_get_source_text (DyKeysView *self)
{
  return self->source_text;
}

const char *
dy_keys_view_get_error (DyKeysView *self)
{
  return self->error;
}

GListModel *
dy_keys_view_get_heaviest (DyKeysView *self)
{
  return G_LIST_MODEL (self->heaviest);
}

GListModel *
dy_keys_view_get_collections (DyKeysView *self)
{
  return G_LIST_MODEL (self->collections);
}

GListModel *
dy_keys_view_get_families (DyKeysView *self)
{
  return G_LIST_MODEL (self->families);
}

GListModel *
dy_keys_view_get_hot (DyKeysView *self)
{
  return G_LIST_MODEL (self->hot);
}

const char *
dy_keys_view_get_summary (DyKeysView *self, const char *which)
{
  if (g_strcmp0 (which, "items") == 0)
    return gtk_label_get_text (self->items_value);
  if (g_strcmp0 (which, "bytes") == 0)
    return gtk_label_get_text (self->bytes_value);
  if (g_strcmp0 (which, "cardinality") == 0)
    return gtk_label_get_text (self->cardinality_value);
  return NULL;
}
