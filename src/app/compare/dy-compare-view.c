/* dy-compare-view.c: the Compare window (see dy-compare-view.h): its inputs (the other side, the
 * base, the attributes left out) and the compare on a worker thread with each side's progress
 * and Cancel. The list and summary are dy-compare-view-list.c, the side by side
 * dy-compare-view-detail.c, Stage Push dy-compare-view-push.c. */
#define G_LOG_DOMAIN "dynoscope-compare-view"

#include <glib/gi18n.h>

#include "app/compare/dy-compare-view-private.h"
#include "app/common/dy-format.h"
#include "app/staging/dy-staging.h"

G_DEFINE_FINAL_TYPE (DyCompareView, dy_compare_view, ADW_TYPE_WINDOW)

/* The other side's entries after the connections. */
enum { OTHER_EXPORT_FOLDER, OTHER_EXPORT_FILE, N_OTHER_EXPORTS };
/* The base dropdown's entries. */
enum { BASE_RECORDED, BASE_NONE, BASE_EXPORT_FOLDER, BASE_EXPORT_FILE };

/* The worker. */

typedef struct {
  DyConnection *here, *there; /* THERE NULL: an export */
  char *table, *there_table, *export_path, *base_path;
  gboolean no_base;
  GStrv exclude;
  GMutex lock; /* the progress below */
  guint64 items[3];
  double rate[3];
  DdbCompareResult *result; /* given to the window */
  GPtrArray *rows;          /* DyCompareRow */
  DdbCompareCounts counts;
} RunData;

static void
run_data_free (RunData *d)
{
  g_object_unref (d->here);
  g_clear_object (&d->there);
  g_free (d->table);
  g_free (d->there_table);
  g_free (d->export_path);
  g_free (d->base_path);
  g_strfreev (d->exclude);
  g_mutex_clear (&d->lock);
  g_clear_pointer (&d->result, ddb_compare_result_free);
  g_clear_pointer (&d->rows, g_ptr_array_unref);
  g_free (d);
}

static void
run_progress (guint side, guint64 items, double rate, gpointer user_data)
{
  RunData *d = user_data;

  if (side > 2)
    return;
  g_mutex_lock (&d->lock);
  d->items[side] = items;
  d->rate[side] = rate;
  g_mutex_unlock (&d->lock);
}

static gboolean
collect_row (const DdbCompareDifference *difference, gpointer user_data)
{
  GPtrArray *rows = user_data;

  g_ptr_array_add (rows, dy_compare_row_new (difference, rows->len));
  return TRUE;
}

static void
run_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  RunData *d = task_data;
  GError *error = NULL;
  DdbBackend *here = NULL, *there = NULL;
  DdbCompareOptions options = { 0 };

  here = dy_connection_open_backend (d->here, 0, &error);
  if (here != NULL && d->there != NULL)
    there = dy_connection_open_backend (d->there, 0, &error);
  if (here == NULL || (d->there != NULL && there == NULL))
    goto out;
  options.here.backend = here;
  options.here.table = d->table;
  options.there.backend = there;
  options.there.table = d->there_table;
  options.there.export_path = d->export_path;
  options.exclude = (const char *const *) d->exclude;
  options.base_path = d->base_path;
  options.no_base = d->no_base;
  d->result = ddb_compare_run (&options, run_progress, d, cancellable, &error);
  if (d->result == NULL)
    goto out;
  d->counts = *ddb_compare_result_counts (d->result);
  d->rows = g_ptr_array_new_with_free_func (g_object_unref);
  if (!ddb_compare_result_foreach (d->result, collect_row, d->rows, &error))
    g_clear_pointer (&d->result, ddb_compare_result_free);

out:
  /* the result keeps no use of the backends once made */
  if (here != NULL)
    ddb_backend_free (here);
  if (there != NULL)
    ddb_backend_free (there);
  if (d->result != NULL)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* Inputs. */

void
dy_compare_view_set_error (DyCompareView *self, const char *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static DyConnection *
selected_other (DyCompareView *self)
{
  guint i = gtk_drop_down_get_selected (self->other_dropdown);

  return i < self->others->len ? self->others->pdata[i] : NULL;
}

/* The table dropdown follows the other connection's tables; the wanted one is selected once
 * listed. */
static void
select_wanted_table (DyCompareView *self)
{
  GListModel *tables = gtk_drop_down_get_model (self->table_dropdown);
  guint n = tables != NULL ? g_list_model_get_n_items (tables) : 0;
  guint selected = gtk_drop_down_get_selected (self->table_dropdown);

  self->syncing = TRUE;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GtkStringObject) name = g_list_model_get_item (tables, i);

      if (g_strcmp0 (gtk_string_object_get_string (name), self->other_table) == 0)
        {
          gtk_drop_down_set_selected (self->table_dropdown, i);
          self->syncing = FALSE;
          return;
        }
    }
  self->syncing = FALSE;
  /* not listed (yet): the wanted table stays while the list loads, else what is shown is it */
  if (n > 0 && selected < n && selected_other (self) != NULL
      && !dy_connection_get_loading (selected_other (self)))
    {
      g_autoptr (GtkStringObject) name = g_list_model_get_item (tables, selected);

      g_free (self->other_table);
      self->other_table = g_strdup (gtk_string_object_get_string (name));
    }
}

/* The user's pick; the dropdown's own selection of a first row while its list changes is not
 * one. */
static void
table_selected (DyCompareView *self)
{
  g_autoptr (GtkStringObject) name = NULL;
  guint i = gtk_drop_down_get_selected (self->table_dropdown);
  GListModel *tables = gtk_drop_down_get_model (self->table_dropdown);

  if (self->syncing || tables == NULL || i == GTK_INVALID_LIST_POSITION)
    return;
  name = g_list_model_get_item (tables, i);
  if (name != NULL)
    {
      g_free (self->other_table);
      self->other_table = g_strdup (gtk_string_object_get_string (name));
    }
}

void
dy_compare_view_update_actions (DyCompareView *self)
{
  gboolean running = self->task != NULL;
  gboolean exported = self->export_path != NULL && selected_other (self) == NULL;
  gboolean ready = exported || (selected_other (self) != NULL && self->other_table != NULL);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.run",
                                 !running && !self->pushing && ready);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.cancel", running);
  gtk_widget_set_visible (self->cancel_button, running);
  gtk_widget_set_visible (self->progress_box, running);
  gtk_spinner_set_spinning (self->spinner, running);
  gtk_widget_set_visible (GTK_WIDGET (self->table_dropdown), !exported);
  gtk_widget_set_visible (GTK_WIDGET (self->export_label), exported);
  for (GtkWidget *w = gtk_widget_get_first_child (gtk_widget_get_parent (self->run_button));
       w != NULL; w = gtk_widget_get_next_sibling (w))
    if (w != self->run_button && w != self->cancel_button)
      gtk_widget_set_sensitive (w, !running);
  gtk_widget_set_sensitive (gtk_stack_get_child_by_name (self->content_stack, "result"), !running);
  dy_compare_view_update_push (self);
}

/* Around a change of the other connection's table list: the selection model of the dropdown
 * handles it between these two. */
static void
other_tables_changing (DyCompareView *self)
{
  self->syncing = TRUE;
}

static void
other_tables_changed (DyCompareView *self)
{
  self->syncing = FALSE;
  select_wanted_table (self);
  dy_compare_view_update_actions (self);
}

static void
set_table_model (DyCompareView *self, DyConnection *connection)
{
  GListModel *old = gtk_drop_down_get_model (self->table_dropdown);
  GListModel *tables = connection != NULL ? dy_connection_get_tables (connection) : NULL;

  if (old != tables)
    {
      if (old != NULL)
        {
          g_signal_handlers_disconnect_by_func (old, other_tables_changing, self);
          g_signal_handlers_disconnect_by_func (old, other_tables_changed, self);
        }
      if (tables != NULL)
        g_signal_connect_object (tables, "items-changed", G_CALLBACK (other_tables_changing), self,
                                 G_CONNECT_SWAPPED);
      self->syncing = TRUE;
      gtk_drop_down_set_model (self->table_dropdown, tables);
      self->syncing = FALSE;
      if (tables != NULL)
        g_signal_connect_object (tables, "items-changed", G_CALLBACK (other_tables_changed), self,
                                 G_CONNECT_SWAPPED | G_CONNECT_AFTER);
    }
  if (connection != NULL)
    {
      dy_connection_ensure_tables (connection);
      /* the push stages under the connection's id, which a profile resolves on a thread */
      dy_staging_prepare (dy_staging_get_default (), connection);
    }
  select_wanted_table (self);
}

typedef struct {
  DyCompareView *self;
  gboolean base; /* choosing the base, else the other side */
  guint previous;
} Chooser;

static void
chooser_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  Chooser *c = user_data;
  DyCompareView *self = c->self;
  g_autofree char *path = NULL;

  self->choosing = FALSE;
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      path = g_file_get_path (file);
    }
  if (path == NULL)
    {
      /* cancelled: back to what was chosen before */
      gtk_drop_down_set_selected (c->base ? self->base_dropdown : self->other_dropdown,
                                  c->previous);
    }
  else if (c->base)
    {
      g_free (self->base_path);
      self->base_path = g_steal_pointer (&path);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->base_dropdown), self->base_path);
      self->base_previous = gtk_drop_down_get_selected (self->base_dropdown);
    }
  else
    dy_compare_view_set_other_export (self, path);
  g_object_unref (dialog);
  g_object_unref (self);
  g_free (c);
  dy_compare_view_update_actions (self);
}

static void
choose_export (DyCompareView *self, gboolean base, gboolean folder, guint previous)
{
  Chooser *c = g_new0 (Chooser, 1);
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
      folder ? _ ("Choose an Export Folder (S3 Export Layout)") : _ ("Choose an Export File"),
      GTK_WINDOW (self),
      folder ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER : GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Choose"),
      _ ("_Cancel"));

  c->self = g_object_ref (self);
  c->base = base;
  c->previous = previous;
  self->choosing = TRUE;
  g_signal_connect (dialog, "response", G_CALLBACK (chooser_response), c);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
other_selected (DyCompareView *self)
{
  guint i = gtk_drop_down_get_selected (self->other_dropdown);

  if (i == GTK_INVALID_LIST_POSITION)
    return;
  if (i < self->others->len)
    {
      self->other_previous = i;
      set_table_model (self, self->others->pdata[i]);
    }
  else if (!self->choosing)
    choose_export (self, FALSE, i - self->others->len == OTHER_EXPORT_FOLDER, self->other_previous);
  dy_compare_view_update_actions (self);
}

static void
base_selected (DyCompareView *self)
{
  guint i = gtk_drop_down_get_selected (self->base_dropdown);

  if (i == BASE_EXPORT_FOLDER || i == BASE_EXPORT_FILE)
    {
      if (!self->choosing)
        choose_export (self, TRUE, i == BASE_EXPORT_FOLDER, self->base_previous);
      return;
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->base_dropdown),
                               _ ("The base both sides started from: with one, only the edits "
                                  "made here are pushed, and those made there are left alone"));
  self->base_previous = i;
}

/* The window's connections, listed as the other side's choices. */
static void
fill_others (DyCompareView *self, DyWindow *window)
{
  GListModel *connections = dy_window_get_connections (window);
  guint n = g_list_model_get_n_items (connections);
  g_autoptr (GPtrArray) titles = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (DyConnection) c = g_list_model_get_item (connections, i);

      g_ptr_array_add (self->others, g_object_ref (c));
      g_ptr_array_add (titles, g_strdup (dy_connection_get_title (c)));
    }
  g_ptr_array_add (titles, g_strdup (_ ("Export Folder…")));
  g_ptr_array_add (titles, g_strdup (_ ("Export File…")));
  g_ptr_array_add (titles, NULL);
  gtk_string_list_splice (self->other_list, 0, 0, (const char *const *) titles->pdata);
}

/* A table of the same name in another connection (a snapshot and the live table it came from),
 * else the first other connection, else this one. */
static void
choose_default_other (DyCompareView *self)
{
  guint pick = G_MAXUINT;

  for (guint i = 0; i < self->others->len && pick == G_MAXUINT; i++)
    {
      GListModel *tables = dy_connection_get_tables (self->others->pdata[i]);

      if (self->others->pdata[i] == self->connection)
        continue;
      for (guint t = 0; t < g_list_model_get_n_items (tables); t++)
        {
          g_autoptr (GtkStringObject) name = g_list_model_get_item (tables, t);

          if (g_strcmp0 (gtk_string_object_get_string (name), self->table) == 0)
            pick = i;
        }
    }
  for (guint i = 0; i < self->others->len && pick == G_MAXUINT; i++)
    if (self->others->pdata[i] != self->connection)
      pick = i;
  for (guint i = 0; i < self->others->len && pick == G_MAXUINT; i++)
    pick = i;
  if (pick == G_MAXUINT)
    return;
  self->other_table = g_strdup (self->table);
  gtk_drop_down_set_selected (self->other_dropdown, pick);
  set_table_model (self, self->others->pdata[pick]);
}

void
dy_compare_view_set_other (DyCompareView *self, DyConnection *connection, const char *table)
{
  g_return_if_fail (DY_IS_COMPARE_VIEW (self));
  g_free (self->other_table);
  self->other_table = g_strdup (table);
  for (guint i = 0; i < self->others->len; i++)
    if (self->others->pdata[i] == connection)
      {
        gtk_drop_down_set_selected (self->other_dropdown, i);
        set_table_model (self, connection);
      }
  dy_compare_view_update_actions (self);
}

void
dy_compare_view_set_other_export (DyCompareView *self, const char *path)
{
  g_autofree char *name = NULL;

  g_return_if_fail (DY_IS_COMPARE_VIEW (self));
  g_free (self->export_path);
  self->export_path = g_strdup (path);
  name = g_path_get_basename (path);
  gtk_label_set_text (self->export_label, name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->export_label), path);
  if (gtk_drop_down_get_selected (self->other_dropdown) < self->others->len)
    {
      self->choosing = TRUE; /* no chooser: the path is given */
      gtk_drop_down_set_selected (
          self->other_dropdown,
          self->others->len
              + (g_file_test (path, G_FILE_TEST_IS_DIR) ? OTHER_EXPORT_FOLDER : OTHER_EXPORT_FILE));
      self->choosing = FALSE;
    }
  self->other_previous = gtk_drop_down_get_selected (self->other_dropdown);
  dy_compare_view_update_actions (self);
}

DyConnection *
dy_compare_view_get_other_connection (DyCompareView *self)
{
  return selected_other (self);
}

const char *
dy_compare_view_get_other_name (DyCompareView *self)
{
  return selected_other (self) != NULL ? self->other_table : self->export_path;
}

void
dy_compare_view_set_base (DyCompareView *self, DyCompareBase base, const char *path)
{
  g_return_if_fail (DY_IS_COMPARE_VIEW (self));
  if (base == DY_COMPARE_BASE_EXPORT)
    {
      g_free (self->base_path);
      self->base_path = g_strdup (path);
    }
  self->choosing = TRUE;
  gtk_drop_down_set_selected (self->base_dropdown, base == DY_COMPARE_BASE_RECORDED ? BASE_RECORDED
                                                   : base == DY_COMPARE_BASE_NONE   ? BASE_NONE
                                                   : g_file_test (path, G_FILE_TEST_IS_DIR)
                                                       ? BASE_EXPORT_FOLDER
                                                       : BASE_EXPORT_FILE);
  self->base_previous = gtk_drop_down_get_selected (self->base_dropdown);
  self->choosing = FALSE;
}

void
dy_compare_view_set_exclude (DyCompareView *self, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (self->exclude_entry), text);
}

/* The compare. */

static void
update_progress (DyCompareView *self)
{
  RunData *d = self->task != NULL ? g_task_get_task_data (self->task) : NULL;
  g_autofree char *here = NULL;
  g_autofree char *there = NULL;
  g_autofree char *text = NULL;
  double rates[2];

  if (d == NULL)
    return;
  g_mutex_lock (&d->lock);
  here = dy_format_count (d->items[0]);
  there = dy_format_count (d->items[1]);
  self->items_read = d->items[0] + d->items[1];
  rates[0] = d->rate[0];
  rates[1] = d->rate[1];
  g_mutex_unlock (&d->lock);
  /* TRANSLATORS: the compare's progress: items read on each side and their rates */
  text = g_strdup_printf (_ ("Reading… here %s items (%'.0f/s) · there %s items (%'.0f/s)"), here,
                          rates[0], there, rates[1]);
  gtk_label_set_text (self->progress_label, text);
}

static gboolean
progress_tick (gpointer user_data)
{
  update_progress (user_data);
  return G_SOURCE_CONTINUE;
}

static void
run_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyCompareView *self = DY_COMPARE_VIEW (source);
  RunData *d = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  double seconds = (double) (g_get_monotonic_time () - self->started) / G_USEC_PER_SEC;

  g_task_propagate_boolean (G_TASK (result), &error);
  if (self->disposed)
    {
      g_clear_object (&self->task);
      return;
    }
  update_progress (self);
  g_clear_handle_id (&self->progress_timer, g_source_remove);
  g_clear_object (&self->run_cancellable);
  if (error != NULL)
    {
      g_clear_object (&self->task);
      dy_compare_view_update_actions (self);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *count = dy_format_count (self->items_read);
          g_autofree char *message = g_strdup_printf (
              g_dngettext (NULL, "Cancelled after %s item read: nothing to show.",
                           "Cancelled after %s items read: nothing to show.", self->items_read),
              count);

          adw_status_page_set_description (self->empty_page, message);
        }
      else
        {
          g_autofree char *why = dy_connection_describe_error (self->connection, error, NULL);

          dy_compare_view_set_error (self, why);
          adw_status_page_set_description (self->empty_page,
                                           _ ("The compare failed: nothing to show."));
        }
      gtk_stack_set_visible_child_name (self->content_stack, "empty");
      return;
    }
  if (self->detail_cancellable != NULL)
    g_cancellable_cancel (self->detail_cancellable);
  g_clear_object (&self->detail_cancellable);
  /* the detail reads the result on a worker: it is replaced under the lock */
  g_mutex_lock (&self->result_lock);
  g_clear_pointer (&self->result, ddb_compare_result_free);
  self->result = g_steal_pointer (&d->result);
  self->generation++;
  g_mutex_unlock (&self->result_lock);
  self->counts = d->counts;
  self->has_counts = TRUE;
  g_clear_object (&self->result_other);
  self->result_other = d->there != NULL ? g_object_ref (d->there) : NULL;
  g_free (self->result_other_name);
  if (d->there != NULL)
    /* TRANSLATORS: the other side of a compare: a table and its connection */
    self->result_other_name
        = g_strdup_printf (_ ("%s in %s"), d->there_table, dy_connection_get_title (d->there));
  else
    self->result_other_name = g_path_get_basename (d->export_path);
  self->detail_index = G_MAXUINT;
  self->detail_ready = FALSE;
  gtk_stack_set_visible_child_name (self->detail_stack, "none");
  dy_compare_view_show_result (self, g_steal_pointer (&d->rows), seconds);
  g_clear_object (&self->task);
  gtk_stack_set_visible_child_name (self->content_stack, "result");
  dy_compare_view_update_actions (self);
}

void
dy_compare_view_run (DyCompareView *self)
{
  DyConnection *other = selected_other (self);
  RunData *d;
  g_auto (GStrv) names = NULL;
  g_autoptr (GPtrArray) exclude = g_ptr_array_new_with_free_func (g_free);
  guint base = gtk_drop_down_get_selected (self->base_dropdown);

  g_return_if_fail (DY_IS_COMPARE_VIEW (self));
  if (self->task != NULL || self->pushing)
    return;
  if (other == NULL && self->export_path == NULL)
    return;
  names = g_strsplit (gtk_editable_get_text (GTK_EDITABLE (self->exclude_entry)), ",", -1);
  for (guint i = 0; names[i] != NULL; i++)
    {
      char *name = g_strstrip (names[i]);

      if (*name != '\0')
        g_ptr_array_add (exclude, g_strdup (name));
    }
  g_ptr_array_add (exclude, NULL);
  d = g_new0 (RunData, 1);
  g_mutex_init (&d->lock);
  d->here = g_object_ref (self->connection);
  d->table = g_strdup (self->table);
  if (other != NULL)
    {
      d->there = g_object_ref (other);
      d->there_table = g_strdup (self->other_table);
    }
  else
    d->export_path = g_strdup (self->export_path);
  d->no_base = base == BASE_NONE;
  if (base == BASE_EXPORT_FOLDER || base == BASE_EXPORT_FILE)
    d->base_path = g_strdup (self->base_path);
  d->exclude = (GStrv) g_ptr_array_free (g_steal_pointer (&exclude), FALSE);

  dy_compare_view_set_error (self, NULL);
  self->items_read = 0;
  self->started = g_get_monotonic_time ();
  self->run_cancellable = g_cancellable_new ();
  self->task = g_task_new (self, self->run_cancellable, run_done, NULL);
  g_task_set_source_tag (self->task, dy_compare_view_run);
  g_task_set_task_data (self->task, d, (GDestroyNotify) run_data_free);
  g_task_run_in_thread (self->task, run_thread);
  self->progress_timer = g_timeout_add (100, progress_tick, self);
  update_progress (self);
  dy_compare_view_update_actions (self);
}

void
dy_compare_view_cancel (DyCompareView *self)
{
  g_return_if_fail (DY_IS_COMPARE_VIEW (self));
  if (self->run_cancellable != NULL)
    g_cancellable_cancel (self->run_cancellable);
}

gboolean
dy_compare_view_get_running (DyCompareView *self)
{
  return self->task != NULL;
}

guint64
dy_compare_view_get_items_read (DyCompareView *self)
{
  update_progress (self);
  return self->items_read;
}

const DdbCompareCounts *
dy_compare_view_get_counts (DyCompareView *self)
{
  return self->has_counts ? &self->counts : NULL;
}

const char *
dy_compare_view_get_error (DyCompareView *self)
{
  return self->error;
}

/* Actions. */

static void
run_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_compare_view_run (DY_COMPARE_VIEW (widget));
}

static void
cancel_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_compare_view_cancel (DY_COMPARE_VIEW (widget));
}

static void
push_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_compare_view_stage_push (DY_COMPARE_VIEW (widget),
                              g_str_equal (action_name, "compare.push-selected"));
}

/* GObject. */

static void
dy_compare_view_dispose (GObject *object)
{
  DyCompareView *self = DY_COMPARE_VIEW (object);

  self->disposed = TRUE;
  if (self->run_cancellable != NULL)
    g_cancellable_cancel (self->run_cancellable);
  if (self->detail_cancellable != NULL)
    g_cancellable_cancel (self->detail_cancellable);
  g_clear_handle_id (&self->progress_timer, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_COMPARE_VIEW);
  G_OBJECT_CLASS (dy_compare_view_parent_class)->dispose (object);
}

static void
dy_compare_view_finalize (GObject *object)
{
  DyCompareView *self = DY_COMPARE_VIEW (object);

  g_clear_object (&self->connection);
  g_free (self->table);
  g_ptr_array_unref (self->others);
  g_free (self->other_table);
  g_free (self->export_path);
  g_free (self->base_path);
  g_clear_object (&self->run_cancellable);
  g_clear_object (&self->task);
  g_free (self->error);
  g_clear_pointer (&self->result, ddb_compare_result_free);
  g_mutex_clear (&self->result_lock);
  g_clear_object (&self->result_other);
  g_free (self->result_other_name);
  g_clear_object (&self->selection);
  g_clear_object (&self->shown);
  g_clear_object (&self->rows);
  g_clear_object (&self->detail_cancellable);
  G_OBJECT_CLASS (dy_compare_view_parent_class)->finalize (object);
}

static void
dy_compare_view_class_init (DyCompareViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = dy_compare_view_dispose;
  G_OBJECT_CLASS (klass)->finalize = dy_compare_view_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dy-compare-view.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, DyCompareView, name)
  BIND (window_title);
  BIND (toast_overlay);
  BIND (other_dropdown);
  BIND (other_list);
  BIND (table_dropdown);
  BIND (export_label);
  BIND (base_dropdown);
  BIND (exclude_entry);
  BIND (run_button);
  BIND (cancel_button);
  BIND (progress_box);
  BIND (spinner);
  BIND (progress_label);
  BIND (error_label);
  BIND (content_stack);
  BIND (empty_page);
  BIND (summary_label);
  BIND (classes_label);
  BIND (base_label);
  BIND (sizes_label);
  BIND (show_dropdown);
  BIND (list_view);
  BIND (list_count_label);
  BIND (detail_stack);
  BIND (detail_title);
  BIND (detail_caption);
  BIND (detail_grid);
  BIND (detail_more);
  BIND (push_label);
  BIND (push_button);
  BIND (push_selected_button);
#undef BIND
  gtk_widget_class_install_action (widget_class, "compare.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "compare.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "compare.push", NULL, push_action);
  gtk_widget_class_install_action (widget_class, "compare.push-selected", NULL, push_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK,
                                       "compare.run", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "compare.cancel", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close",
                                       NULL);
}

static void
dy_compare_view_init (DyCompareView *self)
{
  GtkExpression *name = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");

  gtk_widget_init_template (GTK_WIDGET (self));
  g_mutex_init (&self->result_lock);
  self->others = g_ptr_array_new_with_free_func (g_object_unref);
  self->detail_index = G_MAXUINT;
  gtk_drop_down_set_expression (self->table_dropdown, name);
  gtk_expression_unref (name);
  dy_compare_view_list_init (self);
  g_signal_connect_swapped (self->table_dropdown, "notify::selected", G_CALLBACK (table_selected),
                            self);
  g_signal_connect_swapped (self->table_dropdown, "notify::selected",
                            G_CALLBACK (dy_compare_view_update_actions), self);
  g_signal_connect_swapped (self->base_dropdown, "notify::selected", G_CALLBACK (base_selected),
                            self);
}

DyCompareView *
dy_compare_view_open (DyWindow *window, DyConnection *connection, const char *table)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (window));
  g_autofree char *subtitle = NULL;
  DyCompareView *self;

  for (GList *l = app != NULL ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    if (DY_IS_COMPARE_VIEW (l->data) && DY_COMPARE_VIEW (l->data)->connection == connection
        && g_strcmp0 (DY_COMPARE_VIEW (l->data)->table, table) == 0)
      {
        gtk_window_present (l->data);
        return l->data;
      }
  self = g_object_new (DY_TYPE_COMPARE_VIEW, "transient-for", window, "destroy-with-parent", TRUE,
                       "application", app, NULL);
  self->connection = g_object_ref (connection);
  self->table = g_strdup (table);
  /* TRANSLATORS: the window's subtitle: the table and its connection */
  subtitle = g_strdup_printf (_ ("%s — %s"), table, dy_connection_get_title (connection));
  adw_window_title_set_subtitle (self->window_title, subtitle);
  fill_others (self, window);
  choose_default_other (self);
  g_signal_connect_swapped (self->other_dropdown, "notify::selected", G_CALLBACK (other_selected),
                            self);
  dy_compare_view_clear_result (self);
  dy_compare_view_update_actions (self);
  gtk_window_present (GTK_WINDOW (self));
  return self;
}

DyConnection *
dy_compare_view_get_connection (DyCompareView *self)
{
  return self->connection;
}

const char *
dy_compare_view_get_table_name (DyCompareView *self)
{
  return self->table;
}
