/* dy-keys-view.c: the key-distribution window (see dy-keys-view.h): its inputs, the analysis on
 * a worker thread with progress and Cancel, and the report shown (the chart is
 * dy-keys-chart.c, the lists dy-keys-rows.c). */
#define G_LOG_DOMAIN "dynoscope-keys-view"

#include <glib/gi18n.h>

#include "app/dy-keys-chart.h"
#include "app/dy-keys-rows.h"
#include "app/dy-keys-view.h"

#define LIST_HEIGHT 280

struct _DyKeysView {
  AdwWindow parent_instance;

  AdwWindowTitle *window_title;
  GtkDropDown *index_dropdown;
  GtkStringList *index_list;
  GtkDropDown *mode_dropdown;
  GtkSpinButton *sample_spin;
  GtkWidget *sample_unit;
  GtkSpinButton *rcu_spin;
  GtkSpinButton *wcu_spin;
  GtkWidget *run_button;
  GtkWidget *cancel_button;
  GtkWidget *progress_box;
  GtkSpinner *spinner;
  GtkLabel *progress_label;
  GtkLabel *error_label;
  GtkStack *content_stack;
  AdwStatusPage *empty_page;
  GtkLabel *source_label;
  GtkLabel *items_value;
  GtkLabel *bytes_value;
  GtkLabel *cardinality_value;
  GtkLabel *cardinality_caption;
  GtkBox *advice_box;
  GtkFrame *chart_frame;
  GtkLabel *heaviest_note;
  GtkBox *heaviest_box;
  GtkLabel *families_note;
  GtkBox *families_box;
  GtkLabel *hot_note;
  GtkBox *hot_box;
  GtkLabel *collections_note;
  GtkBox *collections_box;
  GtkWidget *chart;

  DyConnection *connection;
  char *table;
  json_t *description;    /* DescribeTable's Table, once answered */
  GPtrArray *index_names; /* char*, parallel to index_list; [0] NULL: the table */
  GCancellable *describe_cancellable;
  GCancellable *run_cancellable; /* while running */
  GTask *task;                   /* while running */
  guint progress_timer;
  gint64 started;
  guint64 items_read;
  gboolean ready;
  gboolean disposed;
  DdbKeysReport *report;
  char *error;
  char *source_text;
  GListStore *heaviest, *collections, *families, *hot;
};

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

static char *
count_text (guint64 n)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, n);
}

static char *
percent_text (double share)
{
  return g_strdup_printf ("%.1f%%", 100.0 * share);
}

static void
set_error (DyKeysView *self, const char *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static void
set_source_text (DyKeysView *self, char *text)
{
  g_free (self->source_text);
  self->source_text = text;
  gtk_label_set_text (self->source_label, text != NULL ? text : "");
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
  count = count_text (self->items_read);
  /* TRANSLATORS: the progress of the partition-key analysis: items read so far, and the rate */
  text = g_strdup_printf (_ ("Reading… %s items read, %'.0f items/s"), count,
                          seconds > 0.05 ? (double) self->items_read / seconds : 0.0);
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

/* The report shown. */

static void
fill_summary (DyKeysView *self, const DdbKeysReport *r, double seconds)
{
  g_autofree char *items = count_text (r->items);
  g_autofree char *bytes = g_format_size_full (r->bytes, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *cardinality = count_text (r->partitions->len);
  g_autofree char *caption = NULL;
  g_autofree char *what = NULL;
  char *source;

  gtk_label_set_text (self->items_value, items);
  gtk_label_set_text (self->bytes_value, bytes);
  gtk_label_set_text (self->cardinality_value, cardinality);
  /* TRANSLATORS: under the number of distinct partition key values; %s is the key attribute */
  caption = g_strdup_printf (_ ("distinct values of %s"), r->key_name);
  gtk_label_set_text (self->cardinality_caption, caption);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->cardinality_caption), caption);

  /* TRANSLATORS: what was analyzed: "Orders" or "Blog, index ByAuthor" */
  what = r->index != NULL ? g_strdup_printf (_ ("%s, index %s"), r->table, r->index)
                          : g_strdup (r->table);
  if (r->sampled)
    /* TRANSLATORS: %s is the table (and index); then the items read and the seconds */
    source = g_strdup_printf (
        g_dngettext (NULL,
                     "%s: a sample of %s item, read in %.1f s. The figures are of the sample, "
                     "not of the whole table.",
                     "%s: a sample of %s items, read in %.1f s. The figures are of the sample, "
                     "not of the whole table.",
                     r->items),
        what, items, seconds);
  else
    source
        = g_strdup_printf (g_dngettext (NULL, "%s: a full scan, all %s item read in %.1f s.",
                                        "%s: a full scan, all %s items read in %.1f s.", r->items),
                           what, items, seconds);
  set_source_text (self, source);
}

static void
fill_advice (DyKeysView *self, const DdbKeysReport *r)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->advice_box))) != NULL)
    gtk_box_remove (self->advice_box, child);
  for (guint i = 0; i <= r->advice->len; i++)
    {
      const char *text = i < r->advice->len ? r->advice->pdata[i] : NULL;
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
      GtkWidget *icon;
      GtkWidget *label;

      if (text == NULL && r->advice->len > 0)
        break;
      icon = gtk_image_new_from_icon_name (text != NULL ? "dialog-information-symbolic"
                                                        : "emblem-ok-symbolic");
      label = gtk_label_new (text != NULL ? text
                                          : _ ("Nothing to change: the items spread well over "
                                               "the partition keys."));
      gtk_widget_set_valign (icon, GTK_ALIGN_START);
      gtk_widget_add_css_class (icon, text != NULL ? "accent" : "success");
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_box_append (GTK_BOX (row), icon);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (self->advice_box, row);
    }
}

static void
add_row (GListStore *store, const char *key, const char *const *cells)
{
  g_autoptr (DyKeysRow) row = dy_keys_row_new (key, cells);

  g_list_store_append (store, row);
}

static void
fill_lists (DyKeysView *self, const DdbKeysReport *r)
{
  guint shown = MIN (r->partitions->len, DY_KEYS_VIEW_MAX_ROWS);
  g_autofree char *note = NULL;

  g_list_store_remove_all (self->heaviest);
  g_list_store_remove_all (self->collections);
  g_list_store_remove_all (self->families);
  g_list_store_remove_all (self->hot);

  for (guint i = 0; i < shown; i++)
    {
      const DdbKeysPartition *p = r->partitions->pdata[i];
      g_autofree char *items = count_text (p->items);
      g_autofree char *bytes = g_format_size_full (p->bytes, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *si = percent_text (ddb_keys_share_items (r, p));
      g_autofree char *sb = percent_text (ddb_keys_share_bytes (r, p));
      const char *cells[] = { p->key, items, bytes, si, sb, NULL };

      add_row (self->heaviest, p->key, cells);
    }
  if (r->partitions->len > shown)
    /* TRANSLATORS: %u rows shown of %u partitions */
    note = g_strdup_printf (_ ("The %'u heaviest of %'u partitions, by items then bytes."), shown,
                            r->partitions->len);
  else
    note = g_strdup (_ ("Every partition, heaviest first (by items, then bytes)."));
  gtk_label_set_text (self->heaviest_note, note);
  g_clear_pointer (&note, g_free);

  for (guint i = 0; i < r->collections->len && i < DY_KEYS_VIEW_MAX_ROWS; i++)
    {
      const DdbKeysPartition *p = r->collections->pdata[i];
      g_autofree char *bytes = g_format_size_full (p->bytes, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *share = g_strdup_printf ("%.6f%%", 100.0 * (double) p->bytes
                                                              / (double) DDB_KEYS_COLLECTION_LIMIT);
      const char *cells[] = { p->key, bytes, share, NULL };

      add_row (self->collections, p->key, cells);
    }
  gtk_label_set_text (self->collections_note,
                      r->has_lsi ? _ ("The table has a local secondary index: an item collection "
                                      "(a partition key value’s items in the table and its local "
                                      "indexes) holds 10 GB at most. The largest, by size:")
                                 : _ ("No local secondary index here: item collections have no "
                                      "size limit. The largest partitions, by size:"));

  for (guint i = 0; i < r->families->len && i < DY_KEYS_VIEW_MAX_ROWS; i++)
    {
      const DdbKeysFamily *f = r->families->pdata[i];
      const DdbKeysPartition *first = f->shards->pdata[0];
      const DdbKeysPartition *last = f->shards->pdata[f->shards->len - 1];
      g_autofree char *name = g_strdup_printf ("%s*", f->prefix);
      /* TRANSLATORS: a sharded family's shards: their number, the first and the last key */
      g_autofree char *shards
          = g_strdup_printf (_ ("%u (%s … %s)"), f->shards->len, first->key, last->key);
      g_autofree char *items = count_text (f->items);
      g_autofree char *share
          = percent_text (r->items ? (double) f->items / (double) r->items : 0.0);
      g_autofree char *spread = g_strdup_printf ("%'" G_GUINT64_FORMAT " – %'" G_GUINT64_FORMAT,
                                                 f->min_items, f->max_items);
      g_autofree char *ratio
          = f->min_items ? g_strdup_printf ("×%.1f", (double) f->max_items / (double) f->min_items)
                         : g_strdup ("—");
      const char *cells[] = { name, shards, items, share, spread, ratio, f->hottest->key, NULL };

      add_row (self->families, f->hottest->key, cells);
    }
  gtk_label_set_text (self->families_note,
                      r->families->len == 0
                          ? _ ("None: no keys differ only by a numeric suffix.")
                          : _ ("Keys differing only by a numeric suffix (…#01 … #NN), grouped: "
                               "the spread is the fewest and the most items a shard holds."));

  for (guint i = 0; r->has_rate && i < r->hot->len && i < DY_KEYS_VIEW_MAX_ROWS; i++)
    {
      const DdbKeysHot *h = &g_array_index (r->hot, DdbKeysHot, i);
      g_autofree char *share = percent_text (ddb_keys_share_items (r, h->partition));
      g_autofree char *rcu = g_strdup_printf (
          h->rcu > DDB_KEYS_PARTITION_RCU ? _ ("%'.0f (too many)") : "%'.0f", h->rcu);
      g_autofree char *wcu = g_strdup_printf (
          h->wcu > DDB_KEYS_PARTITION_WCU ? _ ("%'.0f (too many)") : "%'.0f", h->wcu);
      g_autofree char *suffixes = g_strdup_printf ("%u", h->suffixes);
      const char *cells[] = { h->partition->key, share, rcu, wcu, suffixes, NULL };

      add_row (self->hot, h->partition->key, cells);
    }
  if (!r->has_rate)
    note = g_strdup (_ ("Give the table’s read and write rate (RCU, WCU) above to see which "
                        "partitions it would push past a partition’s 3,000 RCU / 1,000 WCU."));
  else if (r->hot->len == 0)
    /* TRANSLATORS: the rate entered; then the per-partition ceilings */
    note = g_strdup_printf (_ ("At %'.0f RCU / %'.0f WCU, spread by share of items, no partition "
                               "goes past %'.0f RCU / %'.0f WCU."),
                            r->rate_rcu, r->rate_wcu, DDB_KEYS_PARTITION_RCU,
                            DDB_KEYS_PARTITION_WCU);
  else
    note = g_strdup_printf (
        g_dngettext (NULL,
                     "At %'.0f RCU / %'.0f WCU, spread by share of items, %'u partition goes "
                     "past %'.0f RCU / %'.0f WCU; the suffixes advised keep each shard under "
                     "both.",
                     "At %'.0f RCU / %'.0f WCU, spread by share of items, %'u partitions go "
                     "past %'.0f RCU / %'.0f WCU; the suffixes advised keep each shard under "
                     "both.",
                     r->hot->len),
        r->rate_rcu, r->rate_wcu, r->hot->len, DDB_KEYS_PARTITION_RCU, DDB_KEYS_PARTITION_WCU);
  gtk_label_set_text (self->hot_note, note);
  {
    GtkWidget *lists[] = { gtk_widget_get_first_child (GTK_WIDGET (self->heaviest_box)),
                           gtk_widget_get_first_child (GTK_WIDGET (self->collections_box)),
                           gtk_widget_get_first_child (GTK_WIDGET (self->families_box)),
                           gtk_widget_get_first_child (GTK_WIDGET (self->hot_box)) };
    GListStore *stores[] = { self->heaviest, self->collections, self->families, self->hot };

    for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
      {
        guint n = g_list_model_get_n_items (G_LIST_MODEL (stores[i]));

        dy_keys_list_fit (lists[i], n);
        gtk_widget_set_visible (lists[i], n > 0);
      }
  }
}

static void
show_report (DyKeysView *self, double seconds)
{
  const DdbKeysReport *r = self->report;

  fill_summary (self, r, seconds);
  dy_keys_chart_set_buckets (self->chart, r->buckets, r->n_buckets);
  fill_advice (self, r);
  fill_lists (self, r);
  gtk_stack_set_visible_child_name (self->content_stack, "report");
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
      g_autofree char *count = count_text (self->items_read);

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
      set_source_text (self, g_steal_pointer (&message));
      return;
    }
  g_clear_pointer (&self->report, ddb_keys_report_free);
  self->report = report;
  show_report (self, seconds);
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
