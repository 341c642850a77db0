/* dy-changes-view.c: the Changes tab: DescribeTable for the stream, the polling loop on a
 * worker thread, the rows and their controls. */
#define G_LOG_DOMAIN "dynoscope-changes"

#include <glib/gi18n.h>

#include "app/changes/dy-change-tail.h"
#include "app/changes/dy-change.h"
#include "app/changes/dy-changes-view.h"

/* Idle, the stream is asked again after this long; while records come, at once. */
#define POLL_INTERVAL_MS 1000
/* Once a stream has ended (disabled), the table is asked this often for a new one. */
#define NEW_STREAM_CHECK_MS 2000

/* The backend of the tab's polls, opened on the first worker thread that needs it: a backend of
 * its own, so that polling never queues the table's browsing behind it. */
typedef struct {
  DyConnection *connection;
  GMutex lock;
  DdbBackend *backend;
} Link;

static Link *
link_new (DyConnection *connection)
{
  Link *link = g_atomic_rc_box_new0 (Link);

  link->connection = g_object_ref (connection);
  g_mutex_init (&link->lock);
  return link;
}

static void
link_clear (Link *link)
{
  g_clear_pointer (&link->backend, ddb_backend_free);
  g_object_unref (link->connection);
  g_mutex_clear (&link->lock);
}

static void
link_unref (Link *link)
{
  g_atomic_rc_box_release_full (link, (GDestroyNotify) link_clear);
}

static DdbBackend *
link_backend (Link *link, GError **error)
{
  DdbBackend *backend;

  g_mutex_lock (&link->lock);
  if (link->backend == NULL)
    link->backend = dy_connection_open_backend (link->connection, 0, error);
  backend = link->backend;
  g_mutex_unlock (&link->lock);
  return backend;
}

struct _DyChangesView {
  GtkBox parent_instance;

  DyConnection *connection;
  char *table;
  Link *link;
  GCancellable *cancellable; /* the DescribeTable and the poll running, renewed on restart */

  char *stream_arn;
  char **key_names;
  DyChangeTail *tail;        /* NULL while a poll has it */
  guint generation;          /* a poll of an older one brings back a tail to forget */
  gboolean from_oldest;
  gboolean streaming;
  gboolean no_stream;
  gboolean polling;
  gboolean failed;           /* stopped on an error until Retry */
  gboolean paused;
  guint timeout_id;
  guint describe_id;         /* the next DescribeTable once the stream ended */
  guint n_polls;
  guint64 dropped;
  guint max_rows;

  GListStore *store;         /* DyChangeObject, newest first */
  GtkFilterListModel *filtered;
  GtkCustomFilter *filter;
  char *filter_text;
  GPtrArray *held;           /* DyChangeObject fetched while paused, oldest first */

  GtkStack *stack;
  GtkWidget *controls;       /* only of use with a stream */
  GtkToggleButton *pause_button;
  GtkCheckButton *oldest_check;
  GtkSearchEntry *filter_entry;
  GtkLabel *count_label;
  GtkWidget *notice_bar;
  GtkLabel *notice_label;
  GtkWidget *error_bar;
  GtkLabel *error_label;
  AdwStatusPage *no_stream_page;
  char *count_text;
  char *notice;
  char *error;
};

G_DEFINE_FINAL_TYPE (DyChangesView, dy_changes_view, GTK_TYPE_BOX)

static void schedule (DyChangesView *self, guint delay_ms);
static void schedule_describe (DyChangesView *self);

/* What the view shows. */

static void
update_count (DyChangesView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, g_dngettext (NULL, "%u change", "%u changes", n), n);
  if (shown != n)
    /* TRANSLATORS: after "12 changes": how many the key filter lets through */
    g_string_append_printf (text, _(", %u shown"), shown);
  if (self->held->len > 0)
    g_string_append_printf (text, g_dngettext (NULL, ", %u waiting", ", %u waiting",
                                               self->held->len),
                            self->held->len);
  if (self->dropped > 0)
    /* TRANSLATORS: %u is the most rows the view keeps */
    g_string_append_printf (text, _(" (the newest %u are kept)"), self->max_rows);
  g_free (self->count_text);
  self->count_text = g_string_free (text, FALSE);
  gtk_label_set_text (self->count_label, self->count_text);
}

static void
set_notice (DyChangesView *self, const char *notice)
{
  g_free (self->notice);
  self->notice = g_strdup (notice);
  gtk_label_set_text (self->notice_label, notice != NULL ? notice : "");
  gtk_widget_set_visible (self->notice_bar, notice != NULL);
}

static void
set_error (DyChangesView *self, const char *error)
{
  g_free (self->error);
  self->error = g_strdup (error);
  gtk_label_set_text (self->error_label, error != NULL ? error : "");
  gtk_widget_set_visible (self->error_bar, error != NULL);
}

/* CHANGES (DyChangeObject, oldest first) on top of the rows, the oldest rows past the most kept
 * dropped. */
static void
show_changes (DyChangesView *self, GPtrArray *changes)
{
  guint n;

  if (changes->len == 0)
    return;
  /* newest first: the page reversed */
  {
    g_autoptr (GPtrArray) reversed = g_ptr_array_sized_new (changes->len);

    for (guint i = changes->len; i > 0; i--)
      g_ptr_array_add (reversed, changes->pdata[i - 1]);
    g_list_store_splice (self->store, 0, 0, reversed->pdata, reversed->len);
  }
  n = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  if (n > self->max_rows)
    {
      self->dropped += n - self->max_rows;
      g_list_store_splice (self->store, self->max_rows, n - self->max_rows, NULL, 0);
    }
}

static void
hold_changes (DyChangesView *self, GPtrArray *changes)
{
  for (guint i = 0; i < changes->len; i++)
    g_ptr_array_add (self->held, g_object_ref (changes->pdata[i]));
  /* a busy stream paused for long holds no more than the view would show */
  if (self->held->len > self->max_rows)
    {
      guint extra = self->held->len - self->max_rows;

      self->dropped += extra;
      g_ptr_array_remove_range (self->held, 0, extra);
    }
}

/* The poll. */

typedef struct {
  Link *link;
  DyChangeTail *tail;
  char **key_names;
  guint generation;
  GPtrArray *changes; /* DyChangeObject */
  gboolean more;
  char *notice;
  char *error_name;
} Poll;

static void
poll_free (Poll *poll)
{
  link_unref (poll->link);
  dy_change_tail_free (poll->tail);
  g_strfreev (poll->key_names);
  g_clear_pointer (&poll->changes, g_ptr_array_unref);
  g_free (poll->notice);
  g_free (poll->error_name);
  g_free (poll);
}

static void
poll_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Poll *poll = task_data;
  GError *error = NULL;
  DdbBackend *backend = link_backend (poll->link, &error);
  json_t *records;
  size_t i;
  json_t *record;

  if (backend == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  records = json_array ();
  if (!dy_change_tail_poll (poll->tail, backend, records, &poll->more, &poll->notice,
                            &poll->error_name, cancellable, &error))
    {
      json_decref (records);
      g_task_return_error (task, error);
      return;
    }
  /* the rows are made here too: a busy stream's pages cost the main loop nothing */
  poll->changes = g_ptr_array_new_with_free_func (g_object_unref);
  json_array_foreach (records, i, record)
    {
      g_autoptr (GError) bad = NULL;
      DyChange *change = dy_change_new (record, (const char *const *) poll->key_names, &bad);

      if (change != NULL)
        g_ptr_array_add (poll->changes, dy_change_object_new (change));
      else
        g_warning ("%s", bad->message);
    }
  json_decref (records);
  g_task_return_boolean (task, TRUE);
}

static void
poll_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyChangesView) self = user_data;
  Poll *poll = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);

  /* restarted meanwhile: this tail is forgotten with the task; or the tab closed */
  if (poll->generation != self->generation || g_cancellable_is_cancelled (self->cancellable))
    return;
  self->polling = FALSE;
  self->tail = g_steal_pointer (&poll->tail);
  self->n_polls++;
  if (!ok)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      self->failed = TRUE;
      set_error (self, error->message);
      return;
    }
  if (poll->notice != NULL)
    set_notice (self, poll->notice);
  if (self->paused)
    hold_changes (self, poll->changes);
  else
    show_changes (self, poll->changes);
  update_count (self);
  if (!dy_change_tail_get_ended (self->tail))
    schedule (self, poll->more ? 0 : POLL_INTERVAL_MS);
  else
    schedule_describe (self);
}

static void
start_poll (DyChangesView *self)
{
  g_autoptr (GTask) task = NULL;
  Poll *poll;

  if (self->polling || self->tail == NULL || self->failed)
    return;
  poll = g_new0 (Poll, 1);
  poll->link = g_atomic_rc_box_acquire (self->link);
  poll->tail = g_steal_pointer (&self->tail);
  poll->key_names = g_strdupv (self->key_names);
  poll->generation = self->generation;
  self->polling = TRUE;
  task = g_task_new (NULL, self->cancellable, poll_done, g_object_ref (self));
  g_task_set_source_tag (task, start_poll);
  g_task_set_task_data (task, poll, (GDestroyNotify) poll_free);
  g_task_run_in_thread (task, poll_thread);
}

static gboolean
poll_timeout (gpointer data)
{
  DyChangesView *self = data;

  self->timeout_id = 0;
  start_poll (self);
  return G_SOURCE_REMOVE;
}

static void
schedule (DyChangesView *self, guint delay_ms)
{
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  self->timeout_id = g_timeout_add (delay_ms, poll_timeout, self);
}

/* Forgets the tail and any poll running; the next one starts from the oldest record kept or
 * from now. */
static void
restart_at (DyChangesView *self, gboolean from_oldest)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_pointer (&self->tail, dy_change_tail_free);
  self->generation++;
  self->polling = FALSE;
  self->failed = FALSE;
  set_error (self, NULL);
  set_notice (self, NULL);
  if (self->stream_arn != NULL)
    {
      self->tail = dy_change_tail_new (self->stream_arn, from_oldest);
      start_poll (self);
    }
}

static void
restart (DyChangesView *self)
{
  restart_at (self, self->from_oldest);
}

/* DescribeTable. */

static void
describe_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyChangesView) self = user_data;
  g_autoptr (GError) error = NULL;
  json_t *response = dy_connection_call_finish (DY_CONNECTION (source), result, &error);
  json_t *table, *spec, *schema, *element;
  const char *arn;
  g_autoptr (GStrvBuilder) keys = g_strv_builder_new ();
  size_t i;
  gboolean had_stream = self->stream_arn != NULL;
  gboolean has_stream;

  if (response == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          self->failed = TRUE;
          set_error (self, error->message);
        }
      return;
    }
  table = json_object_get (response, "Table");
  spec = json_object_get (table, "StreamSpecification");
  arn = json_string_value (json_object_get (table, "LatestStreamArn"));
  schema = json_object_get (table, "KeySchema");
  /* the hash key first, as KeySchema lists it */
  json_array_foreach (schema, i, element)
    if (json_string_value (json_object_get (element, "AttributeName")) != NULL)
      g_strv_builder_add (keys, json_string_value (json_object_get (element, "AttributeName")));
  g_strfreev (self->key_names);
  self->key_names = g_strv_builder_end (keys);
  has_stream = arn != NULL && json_is_true (json_object_get (spec, "StreamEnabled"));
  if (!has_stream && had_stream)
    {
      /* the stream followed was disabled: its rows stay, and a new one is waited for */
      schedule_describe (self);
      json_decref (response);
      return;
    }
  self->no_stream = !has_stream;
  self->streaming = has_stream;
  gtk_widget_set_sensitive (self->controls, self->streaming);
  if (self->streaming)
    {
      gboolean same = g_strcmp0 (self->stream_arn, arn) == 0;

      g_free (self->stream_arn);
      self->stream_arn = g_strdup (arn);
      gtk_stack_set_visible_child_name (self->stack, "rows");
      if (!same && had_stream)
        {
          /* from its first record, so that nothing written since it began is missed */
          restart_at (self, TRUE);
          set_notice (self, _("The table has a new stream: following it from its first record"));
        }
      else if (!same || (self->tail == NULL && !self->polling))
        restart (self);
    }
  else
    gtk_stack_set_visible_child_name (self->stack, "no-stream");
  json_decref (response);
}

void
dy_changes_view_check_again (DyChangesView *self)
{
  json_t *request = json_pack ("{ss}", "TableName", self->table);

  self->failed = FALSE;
  set_error (self, NULL);
  dy_connection_call_async (self->connection, "DescribeTable", request, self->cancellable,
                            describe_done, g_object_ref (self));
  json_decref (request);
}

static gboolean
describe_timeout (gpointer data)
{
  DyChangesView *self = data;

  self->describe_id = 0;
  dy_changes_view_check_again (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_describe (DyChangesView *self)
{
  g_clear_handle_id (&self->describe_id, g_source_remove);
  self->describe_id = g_timeout_add (NEW_STREAM_CHECK_MS, describe_timeout, self);
}

/* Rows. */

static void
setup_row (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *time = gtk_label_new (NULL);
  GtkWidget *event = gtk_label_new (NULL);
  GtkWidget *ttl = gtk_label_new (_("TTL"));
  GtkWidget *key = gtk_label_new (NULL);
  GtkWidget *detail = gtk_label_new (NULL);

  gtk_widget_add_css_class (time, "dim-label");
  gtk_widget_add_css_class (time, "numeric");
  gtk_widget_add_css_class (event, "change-event");
  gtk_label_set_width_chars (GTK_LABEL (event), 7);
  gtk_widget_add_css_class (ttl, "change-ttl");
  gtk_widget_set_tooltip_text (ttl, _("Removed by Time to Live (the service, not a request)"));
  gtk_label_set_xalign (GTK_LABEL (key), 0);
  gtk_label_set_ellipsize (GTK_LABEL (key), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (key, "heading");
  gtk_widget_set_hexpand (key, TRUE);
  gtk_label_set_xalign (GTK_LABEL (detail), 0);
  gtk_label_set_wrap (GTK_LABEL (detail), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (detail), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (detail, "monospace");
  gtk_widget_add_css_class (detail, "change-detail");
  gtk_box_append (GTK_BOX (line), time);
  gtk_box_append (GTK_BOX (line), event);
  gtk_box_append (GTK_BOX (line), ttl);
  gtk_box_append (GTK_BOX (line), key);
  gtk_box_append (GTK_BOX (box), line);
  gtk_box_append (GTK_BOX (box), detail);
  gtk_widget_add_css_class (box, "change-row");
  g_object_set_data (G_OBJECT (box), "time", time);
  g_object_set_data (G_OBJECT (box), "event", event);
  g_object_set_data (G_OBJECT (box), "ttl", ttl);
  g_object_set_data (G_OBJECT (box), "key", key);
  g_object_set_data (G_OBJECT (box), "detail", detail);
  gtk_list_item_set_child (item, box);
}

static void
bind_row (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *box = gtk_list_item_get_child (item);
  const DyChange *c = dy_change_object_get (gtk_list_item_get_item (item));
  GtkWidget *event = g_object_get_data (G_OBJECT (box), "event");
  GtkWidget *detail = g_object_get_data (G_OBJECT (box), "detail");
  static const char *const classes[] = { "change-insert", "change-modify", "change-remove" };
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *time = dy_change_time_text (c, now);
  g_autofree char *text = dy_change_detail_text (c);

  gtk_label_set_text (g_object_get_data (G_OBJECT (box), "time"), time);
  gtk_label_set_text (GTK_LABEL (event), dy_change_event_label (c));
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    if ((guint) c->event == i)
      gtk_widget_add_css_class (event, classes[i]);
    else
      gtk_widget_remove_css_class (event, classes[i]);
  gtk_widget_set_visible (g_object_get_data (G_OBJECT (box), "ttl"), c->ttl);
  gtk_label_set_text (g_object_get_data (G_OBJECT (box), "key"), c->key_text);
  gtk_widget_set_tooltip_text (g_object_get_data (G_OBJECT (box), "key"), c->key_text);
  gtk_label_set_text (GTK_LABEL (detail), text);
  gtk_widget_set_visible (detail, *text != '\0');
}

static gboolean
filter_func (gpointer item, gpointer data)
{
  DyChangesView *self = data;

  return dy_change_matches (dy_change_object_get (item), self->filter_text);
}

/* Controls. */

void
dy_changes_view_set_paused (DyChangesView *self, gboolean paused)
{
  if (gtk_toggle_button_get_active (self->pause_button) != !!paused)
    {
      gtk_toggle_button_set_active (self->pause_button, paused); /* comes back through toggled */
      return;
    }
  if (self->paused == !!paused)
    return;
  self->paused = !!paused;
  gtk_button_set_label (GTK_BUTTON (self->pause_button), paused ? _("_Resume") : _("_Pause"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->pause_button),
                               paused ? _("Show the changes that came while paused, and the "
                                          "next ones")
                                      : _("Stop showing new changes (they are still fetched, "
                                          "and counted as waiting)"));
  if (!paused && self->held->len > 0)
    {
      show_changes (self, self->held);
      g_ptr_array_set_size (self->held, 0);
    }
  update_count (self);
}

static void
pause_toggled (GtkToggleButton *button, DyChangesView *self)
{
  dy_changes_view_set_paused (self, gtk_toggle_button_get_active (button));
}

gboolean
dy_changes_view_get_paused (DyChangesView *self)
{
  return self->paused;
}

void
dy_changes_view_set_filter (DyChangesView *self, const char *text)
{
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), text != NULL ? text : "");
  if (g_strcmp0 (self->filter_text, text) == 0)
    return;
  g_free (self->filter_text);
  self->filter_text = g_strdup (text);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_count (self);
}

static void
filter_changed (GtkEditable *entry, DyChangesView *self)
{
  dy_changes_view_set_filter (self, gtk_editable_get_text (entry));
}

void
dy_changes_view_clear (DyChangesView *self)
{
  g_list_store_remove_all (self->store);
  g_ptr_array_set_size (self->held, 0);
  self->dropped = 0;
  update_count (self);
}

void
dy_changes_view_set_from_oldest (DyChangesView *self, gboolean from_oldest)
{
  if (gtk_check_button_get_active (self->oldest_check) != !!from_oldest)
    {
      gtk_check_button_set_active (self->oldest_check, from_oldest);
      return;
    }
  if (self->from_oldest == !!from_oldest)
    return;
  self->from_oldest = !!from_oldest;
  /* rows read from the other start would repeat or leave a gap */
  dy_changes_view_clear (self);
  restart (self);
}

static void
oldest_toggled (GtkCheckButton *check, DyChangesView *self)
{
  dy_changes_view_set_from_oldest (self, gtk_check_button_get_active (check));
}

void
dy_changes_view_retry (DyChangesView *self)
{
  if (!self->streaming)
    {
      dy_changes_view_check_again (self);
      return;
    }
  self->failed = FALSE;
  set_error (self, NULL);
  if (self->tail == NULL && !self->polling)
    restart (self);
  else
    start_poll (self);
}

static void
clear_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_changes_view_clear (DY_CHANGES_VIEW (widget));
}

static void
retry_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_changes_view_retry (DY_CHANGES_VIEW (widget));
}

static void
check_again_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_changes_view_check_again (DY_CHANGES_VIEW (widget));
}

static void
focus_filter_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  gtk_widget_grab_focus (GTK_WIDGET (DY_CHANGES_VIEW (widget)->filter_entry));
}

/* Getters. */

DyConnection *
dy_changes_view_get_connection (DyChangesView *self)
{
  return self->connection;
}

const char *
dy_changes_view_get_table_name (DyChangesView *self)
{
  return self->table;
}

gboolean
dy_changes_view_get_streaming (DyChangesView *self)
{
  return self->streaming;
}

gboolean
dy_changes_view_get_no_stream (DyChangesView *self)
{
  return self->no_stream;
}

GListModel *
dy_changes_view_get_rows (DyChangesView *self)
{
  return G_LIST_MODEL (self->filtered);
}

guint
dy_changes_view_get_n_changes (DyChangesView *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->store));
}

guint
dy_changes_view_get_n_waiting (DyChangesView *self)
{
  return self->held->len;
}

guint
dy_changes_view_get_n_polls (DyChangesView *self)
{
  return self->n_polls;
}

void
dy_changes_view_set_max_rows (DyChangesView *self, guint max_rows)
{
  g_return_if_fail (max_rows > 0);
  self->max_rows = max_rows;
}

const char *
dy_changes_view_get_count_text (DyChangesView *self)
{
  return self->count_text;
}

const char *
dy_changes_view_get_notice (DyChangesView *self)
{
  return self->notice;
}

const char *
dy_changes_view_get_error (DyChangesView *self)
{
  return self->error;
}

/* The widget. */

static GtkWidget *
bar (const char *css_class, GtkLabel **label, const char *button_label, const char *action)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *text = gtk_label_new (NULL);

  gtk_widget_add_css_class (box, css_class);
  gtk_label_set_xalign (GTK_LABEL (text), 0);
  gtk_label_set_wrap (GTK_LABEL (text), TRUE);
  gtk_label_set_selectable (GTK_LABEL (text), TRUE);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (box), text);
  if (button_label != NULL)
    {
      GtkWidget *button = gtk_button_new_with_mnemonic (button_label);

      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (box), button);
    }
  gtk_widget_set_visible (box, FALSE);
  *label = GTK_LABEL (text);
  return box;
}

static void
build (DyChangesView *self)
{
  GtkWidget *controls = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *clear = gtk_button_new_with_mnemonic (_("C_lear"));
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkWidget *list;
  GtkWidget *footer;
  GtkWidget *check = gtk_button_new_with_mnemonic (_("_Check Again"));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_widget_add_css_class (controls, "filter-row");
  self->pause_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("_Pause")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->pause_button),
                               _("Stop showing new changes (they are still fetched, and counted "
                                 "as waiting)"));
  g_signal_connect (self->pause_button, "toggled", G_CALLBACK (pause_toggled), self);
  self->oldest_check
      = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_("From the _oldest record kept")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->oldest_check),
                               _("Read from TRIM_HORIZON (the last 24 hours) instead of only "
                                 "the changes made from now on"));
  g_signal_connect (self->oldest_check, "toggled", G_CALLBACK (oldest_toggled), self);
  self->filter_entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->filter_entry, "placeholder-text", _("Filter by key"), NULL);
  gtk_widget_set_hexpand (GTK_WIDGET (self->filter_entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->filter_entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Filter by key"), -1);
  g_signal_connect (self->filter_entry, "search-changed", G_CALLBACK (filter_changed), self);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (clear), "view.clear");
  gtk_widget_set_tooltip_text (clear, _("Remove the rows shown (the stream keeps its records)"));
  gtk_box_append (GTK_BOX (controls), GTK_WIDGET (self->pause_button));
  gtk_box_append (GTK_BOX (controls), GTK_WIDGET (self->filter_entry));
  gtk_box_append (GTK_BOX (controls), GTK_WIDGET (self->oldest_check));
  gtk_box_append (GTK_BOX (controls), clear);
  gtk_box_append (GTK_BOX (self), controls);
  self->controls = controls;
  gtk_widget_set_sensitive (controls, FALSE);
  gtk_box_append (GTK_BOX (self), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));

  self->notice_bar = bar ("info-bar", &self->notice_label, NULL, NULL);
  self->error_bar = bar ("error-bar", &self->error_label, _("_Retry"), "view.retry");
  gtk_box_append (GTK_BOX (self), self->notice_bar);
  gtk_box_append (GTK_BOX (self), self->error_bar);

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_stack_add_named (self->stack, adw_status_page_new (), "loading");
  self->no_stream_page = ADW_STATUS_PAGE (adw_status_page_new ());
  adw_status_page_set_icon_name (self->no_stream_page, "view-list-symbolic");
  adw_status_page_set_title (self->no_stream_page, _("No Stream"));
  adw_status_page_set_description (
      self->no_stream_page,
      _("This table has no stream; enable one with UpdateTable StreamSpecification"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (check), "view.check-again");
  gtk_widget_set_halign (check, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (check, "pill");
  adw_status_page_set_child (self->no_stream_page, check);
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->no_stream_page), "no-stream");

  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), NULL);
  list = gtk_list_view_new (GTK_SELECTION_MODEL (gtk_no_selection_new (
                                g_object_ref (G_LIST_MODEL (self->filtered)))),
                            factory);
  gtk_widget_add_css_class (list, "changes-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Changes, newest first"), -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), list);
  gtk_stack_add_named (self->stack, scrolled, "rows");
  gtk_stack_set_visible_child_name (self->stack, "loading");
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->stack));

  footer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_add_css_class (footer, "footer");
  self->count_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->count_label, 0);
  gtk_box_append (GTK_BOX (footer), GTK_WIDGET (self->count_label));
  gtk_box_append (GTK_BOX (self), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (self), footer);
}

static void
dy_changes_view_dispose (GObject *object)
{
  DyChangesView *self = DY_CHANGES_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_handle_id (&self->describe_id, g_source_remove);
  G_OBJECT_CLASS (dy_changes_view_parent_class)->dispose (object);
}

static void
dy_changes_view_finalize (GObject *object)
{
  DyChangesView *self = DY_CHANGES_VIEW (object);

  g_clear_object (&self->connection);
  g_clear_pointer (&self->link, link_unref);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->tail, dy_change_tail_free);
  g_free (self->table);
  g_free (self->stream_arn);
  g_strfreev (self->key_names);
  g_clear_object (&self->store);
  g_clear_object (&self->filtered);
  g_free (self->filter_text);
  g_clear_pointer (&self->held, g_ptr_array_unref);
  g_free (self->count_text);
  g_free (self->notice);
  g_free (self->error);
  G_OBJECT_CLASS (dy_changes_view_parent_class)->finalize (object);
}

static void
dy_changes_view_class_init (DyChangesViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dy_changes_view_dispose;
  object_class->finalize = dy_changes_view_finalize;
  gtk_widget_class_install_action (widget_class, "view.clear", NULL, clear_action);
  gtk_widget_class_install_action (widget_class, "view.retry", NULL, retry_action);
  gtk_widget_class_install_action (widget_class, "view.check-again", NULL, check_again_action);
  gtk_widget_class_install_action (widget_class, "view.focus-filter", NULL, focus_filter_action);
}

static void
dy_changes_view_init (DyChangesView *self)
{
  self->cancellable = g_cancellable_new ();
  self->store = g_list_store_new (DY_TYPE_CHANGE_OBJECT);
  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  /* the model owns the filter */
  self->filtered = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->store)),
                                              GTK_FILTER (self->filter));
  self->held = g_ptr_array_new_with_free_func (g_object_unref);
  self->max_rows = DY_CHANGES_MAX_ROWS;
  build (self);
  update_count (self);
}

GtkWidget *
dy_changes_view_new (DyConnection *connection, const char *table)
{
  DyChangesView *self = g_object_new (DY_TYPE_CHANGES_VIEW, NULL);

  self->connection = g_object_ref (connection);
  self->table = g_strdup (table);
  self->link = link_new (connection);
  dy_changes_view_check_again (self);
  return GTK_WIDGET (self);
}

DyChangesView *
dy_changes_view_open (DyWindow *window, DyConnection *connection, const char *table)
{
  AdwTabView *tabs = dy_window_get_tab_view (window);
  g_autoptr (GIcon) icon = NULL;
  g_autofree char *title = NULL;
  GtkWidget *view;
  AdwTabPage *page;

  for (int i = 0; i < adw_tab_view_get_n_pages (tabs); i++)
    {
      AdwTabPage *p = adw_tab_view_get_nth_page (tabs, i);
      GtkWidget *child = adw_tab_page_get_child (p);

      if (DY_IS_CHANGES_VIEW (child) && DY_CHANGES_VIEW (child)->connection == connection
          && g_strcmp0 (DY_CHANGES_VIEW (child)->table, table) == 0)
        {
          adw_tab_view_set_selected_page (tabs, p);
          return DY_CHANGES_VIEW (child);
        }
    }
  view = dy_changes_view_new (connection, table);
  page = adw_tab_view_append (tabs, view);
  /* TRANSLATORS: the title of a table's Changes tab; %s is the table */
  title = g_strdup_printf (_("%s: Changes"), table);
  adw_tab_page_set_title (page, title);
  adw_tab_page_set_tooltip (page, dy_connection_get_title (connection));
  icon = g_themed_icon_new ("view-refresh-symbolic");
  adw_tab_page_set_icon (page, icon);
  adw_tab_view_set_selected_page (tabs, page);
  return DY_CHANGES_VIEW (view);
}
