/* dy-table-dialog.c: the table dialog's modes (New, Edit, Delete), the Review page with the
 * requests and "Copy as", and sending the requests on a thread with their progress. */
#define G_LOG_DOMAIN "dynoscope-table-dialog"

#include <glib/gi18n.h>

#include "app/common/dy-confirm-name.h"
#include "app/common/dy-copy-as.h"
#include "app/tables/dy-table-dialog-private.h"

/* How often a remote table is described while it is not ACTIVE yet. */
#define POLL_MS 2000

G_DEFINE_FINAL_TYPE (DyTableDialog, dy_table_dialog, ADW_TYPE_WINDOW)

enum { SIGNAL_DONE, N_SIGNALS };

static guint signals[N_SIGNALS];

void
dy_table_dialog_set_error (DyTableDialog *self, const char *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
}

static gboolean
on_review (DyTableDialog *self)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "review") == 0;
}

static void
update_actions (DyTableDialog *self)
{
  gboolean busy = self->cancellable != NULL;
  gboolean next = self->ready && !busy;

  if (self->mode == DY_TABLE_DIALOG_DELETE)
    next = next && dy_confirm_name_get_confirmed (self->confirm_row);
  /* a read-only connection sends no table change (the backend would refuse it too) */
  if (dy_connection_get_read_only (self->connection))
    {
      g_autofree char *reason = dy_connection_dup_read_only_reason (self->connection);

      next = next && !on_review (self);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->primary_button), reason);
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "tdialog.next", next);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "tdialog.back", !busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_as_button), self->steps != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->back_button),
                          on_review (self) && self->mode != DY_TABLE_DIALOG_DELETE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->stack), !self->sending);
}

static void
set_primary_label (DyTableDialog *self)
{
  const char *label;

  if (!on_review (self))
    label = _ ("_Review");
  else if (self->mode == DY_TABLE_DIALOG_CREATE)
    label = _ ("_Create");
  else if (self->mode == DY_TABLE_DIALOG_EDIT)
    label = _ ("_Apply");
  else
    label = _ ("_Delete");
  gtk_button_set_label (self->primary_button, label);
}

/* ---- Review ---- */

static GMenuModel *
copy_as_menu (DyTableDialog *self)
{
  GMenu *menu = g_menu_new ();

  for (guint n = 0; n < self->steps->len; n++)
    {
      DdbTableStep *step = self->steps->pdata[n];
      g_autoptr (GMenu) section = g_menu_new ();
      g_autofree char *title = NULL;

      for (int lang = 0; lang < DDB_N_LANGS; lang++)
        {
          g_autoptr (GMenuItem) item = g_menu_item_new (ddb_lang_title (lang), NULL);

          g_menu_item_set_action_and_target (item, "tdialog.copy-as", "(us)", n,
                                             ddb_lang_name (lang));
          g_menu_append_item (section, item);
        }
      /* TRANSLATORS: a section of the Copy As menu: request number and operation */
      title = self->steps->len > 1 ? g_strdup_printf (_ ("%u. %s"), n + 1, step->operation) : NULL;
      g_menu_append_section (menu, title, G_MENU_MODEL (section));
    }
  return G_MENU_MODEL (menu);
}

char *
dy_table_dialog_get_review_text (DyTableDialog *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->review_view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
show_steps (DyTableDialog *self, GPtrArray *steps)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GMenuModel) menu = NULL;
  g_autofree char *summary = NULL;

  g_clear_pointer (&self->steps, g_ptr_array_unref);
  self->steps = steps;
  for (guint n = 0; n < steps->len; n++)
    {
      DdbTableStep *step = steps->pdata[n];
      g_autofree char *json = json_dumps (step->request, JSON_INDENT (2) | JSON_PRESERVE_ORDER);

      if (n > 0)
        g_string_append (text, "\n\n");
      /* The operation as a comment line above its request, as in the AWS docs' examples. */
      g_string_append_printf (text, "// %u. %s\n%s", n + 1, step->operation, json);
    }
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->review_view), text->str, -1);
  if (self->mode == DY_TABLE_DIALOG_DELETE)
    summary = g_strdup_printf (_ ("Table “%s” and every item in it will be deleted. This cannot "
                                  "be undone."),
                               self->table);
  else
    summary = g_strdup_printf (
        g_dngettext (NULL, "This request is sent when you confirm.",
                     "These %u requests are sent in order when you confirm; each waits for the "
                     "table and its indexes to be ACTIVE before the next.",
                     steps->len),
        steps->len);
  gtk_label_set_text (self->review_label, summary);
  menu = copy_as_menu (self);
  gtk_menu_button_set_menu_model (self->copy_as_button, menu);
  gtk_stack_set_visible_child_name (self->stack, "review");
  set_primary_label (self);
  update_actions (self);
}

static void review (DyTableDialog *self);
static void send (DyTableDialog *self);

static void
next_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableDialog *self = DY_TABLE_DIALOG (widget);

  if (on_review (self))
    send (self);
  else
    review (self);
}

static void
back_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableDialog *self = DY_TABLE_DIALOG (widget);

  dy_table_dialog_set_error (self, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_label), FALSE);
  gtk_stack_set_visible_child_name (self->stack, "form");
  set_primary_label (self);
  update_actions (self);
}

static void
review (DyTableDialog *self)
{
  g_autoptr (DdbTableSpec) spec = dy_table_form_read (self);
  g_autoptr (GError) error = NULL;
  GPtrArray *steps;

  dy_table_dialog_set_error (self, NULL);
  if (self->mode == DY_TABLE_DIALOG_CREATE)
    steps = ddb_table_create_steps (spec, &error);
  else
    steps = ddb_table_update_steps (self->current, spec, &error);
  if (steps == NULL)
    {
      dy_table_dialog_set_error (self, error->message);
      return;
    }
  if (steps->len == 0)
    {
      g_ptr_array_unref (steps);
      dy_table_dialog_set_error (self, _ ("Nothing changed: edit the table first"));
      return;
    }
  show_steps (self, steps);
}

static void
copy_as_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableDialog *self = DY_TABLE_DIALOG (widget);
  g_autoptr (GError) error = NULL;
  g_autofree char *program = NULL;
  const char *lang;
  guint n;
  DdbTableStep *step;

  g_variant_get (parameter, "(u&s)", &n, &lang);
  if (self->steps == NULL || n >= self->steps->len)
    return;
  step = self->steps->pdata[n];
  program = dy_copy_as_program (self->connection, lang, step->operation, step->request, &error);
  if (program == NULL)
    {
      dy_table_dialog_set_error (self, error->message);
      return;
    }
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), program);
}

/* ---- Sending ---- */

typedef struct {
  DyTableDialog *dialog; /* a reference */
  guint n;
  char *status;
} Progress;

static gboolean
show_progress (gpointer data)
{
  Progress *p = data;
  DyTableDialog *self = p->dialog;
  DdbTableStep *step;
  g_autofree char *text = NULL;

  if (self->steps != NULL && p->n < self->steps->len && self->sending)
    {
      step = self->steps->pdata[p->n];
      if (p->status == NULL)
        /* TRANSLATORS: progress: request number of total, operation */
        text = g_strdup_printf (_ ("Sending request %u of %u (%s)…"), p->n + 1, self->steps->len,
                                step->operation);
      else if (step->index != NULL)
        /* TRANSLATORS: progress: index name, its status (CREATING, DELETING...) */
        text = g_strdup_printf (_ ("Waiting for index “%s”: %s…"), step->index, p->status);
      else
        /* TRANSLATORS: progress: table status (CREATING, UPDATING, DELETING) */
        text = g_strdup_printf (_ ("Waiting for the table: %s…"), p->status);
      gtk_label_set_text (self->progress_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->progress_label), TRUE);
    }
  g_object_unref (p->dialog);
  g_free (p->status);
  g_free (p);
  return G_SOURCE_REMOVE;
}

static void
progress_cb (guint n, const char *status, gpointer user_data)
{
  Progress *p = g_new0 (Progress, 1);

  p->dialog = g_object_ref (user_data);
  p->n = n;
  p->status = g_strdup (status);
  g_idle_add (show_progress, p);
}

typedef struct {
  GPtrArray *steps; /* a reference */
  DyConnection *connection;
  guint n_done;
  json_t *extra;
} SendJob;

static void
send_job_free (SendJob *job)
{
  g_ptr_array_unref (job->steps);
  g_object_unref (job->connection);
  json_decref (job->extra);
  g_free (job);
}

static void
send_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  SendJob *job = task_data;
  GError *error = NULL;
  g_autoptr (DdbBackend) backend = dy_connection_open_backend (job->connection, 0, &error);

  if (backend == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (!ddb_table_steps_run (backend, job->steps,
                            ddb_backend_get_kind (backend) == DDB_BACKEND_ENGINE ? 50 : POLL_MS,
                            progress_cb, source, cancellable, &job->n_done, &job->extra, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
sent (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyTableDialog *self = DY_TABLE_DIALOG (source);
  SendJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  self->sending = FALSE;
  g_clear_object (&self->cancellable);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_label), FALSE);
  if (job->n_done > 0)
    dy_connection_refresh_tables (self->connection);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autofree char *text = dy_connection_describe_error (self->connection, error, job->extra);

      if (job->n_done > 0)
        {
          g_autofree char *done = g_strdup_printf (
              g_dngettext (NULL, "%u request succeeded; the next one failed: %s",
                           "%u requests succeeded; the next one failed: %s", job->n_done),
              job->n_done, text);

          dy_table_dialog_set_error (self, done);
          /* What was done is not sent again: the Review shows the rest, to send once fixed. */
          g_ptr_array_remove_range (job->steps, 0, job->n_done);
          show_steps (self, g_ptr_array_ref (job->steps));
        }
      else
        dy_table_dialog_set_error (self, text);
      update_actions (self);
      return;
    }
  g_signal_emit (self, signals[SIGNAL_DONE], 0,
                 json_string_value (json_object_get (
                     ((DdbTableStep *) self->steps->pdata[0])->request, "TableName")));
  gtk_window_close (GTK_WINDOW (self));
}

static void
send (DyTableDialog *self)
{
  g_autoptr (GTask) task = NULL;
  SendJob *job;

  if (self->steps == NULL || self->cancellable != NULL)
    return;
  dy_table_dialog_set_error (self, NULL);
  self->cancellable = g_cancellable_new ();
  self->sending = TRUE;
  job = g_new0 (SendJob, 1);
  job->steps = g_ptr_array_ref (self->steps);
  job->connection = g_object_ref (self->connection);
  task = g_task_new (self, self->cancellable, sent, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) send_job_free);
  g_task_run_in_thread (task, send_thread);
  update_actions (self);
}

/* ---- Describing (Edit) ---- */

static void
ttl_described (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyTableDialog *self = user_data;
  g_autoptr (GError) error = NULL;
  json_auto_t *ttl = dy_connection_call_finish (DY_CONNECTION (source), result, &error);
  json_t *table = g_object_get_data (G_OBJECT (self), "described");

  g_clear_object (&self->cancellable);
  if (ttl == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_object_unref (self);
      return;
    }
  if (ttl == NULL)
    dy_table_dialog_set_error (self, error->message);
  else
    {
      self->current = ddb_table_spec_from_description (
          json_object_get (table, "Table"), json_object_get (ttl, "TimeToLiveDescription"), &error);
      if (self->current == NULL)
        dy_table_dialog_set_error (self, error->message);
      else
        {
          self->spec = ddb_table_spec_copy (self->current);
          dy_table_form_show (self);
          self->ready = TRUE;
        }
    }
  update_actions (self);
  g_object_unref (self);
}

static void
table_described (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyTableDialog *self = user_data;
  g_autoptr (GError) error = NULL;
  json_t *table = dy_connection_call_finish (DY_CONNECTION (source), result, &error);
  json_auto_t *request = NULL;

  if (table == NULL)
    {
      g_clear_object (&self->cancellable);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          dy_table_dialog_set_error (self, error->message);
          update_actions (self);
        }
      g_object_unref (self);
      return;
    }
  g_object_set_data_full (G_OBJECT (self), "described", table, (GDestroyNotify) json_decref);
  request = json_pack ("{ss}", "TableName", self->table);
  dy_connection_call_async (self->connection, "DescribeTimeToLive", request, self->cancellable,
                            ttl_described, self);
}

/* ---- The object ---- */

DyConnection *
dy_table_dialog_get_connection (DyTableDialog *self)
{
  return self->connection;
}

gboolean
dy_table_dialog_get_ready (DyTableDialog *self)
{
  return self->ready;
}

gboolean
dy_table_dialog_get_busy (DyTableDialog *self)
{
  return self->cancellable != NULL;
}

const char *
dy_table_dialog_get_page (DyTableDialog *self)
{
  return gtk_stack_get_visible_child_name (self->stack);
}

const char *
dy_table_dialog_get_error (DyTableDialog *self)
{
  return self->error;
}

GPtrArray *
dy_table_dialog_get_steps (DyTableDialog *self)
{
  return self->steps;
}

static gboolean
close_request (GtkWindow *window)
{
  DyTableDialog *self = DY_TABLE_DIALOG (window);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  return FALSE;
}

static void
dy_table_dialog_dispose (GObject *object)
{
  DyTableDialog *self = DY_TABLE_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_TABLE_DIALOG);
  g_clear_object (&self->connection);
  G_OBJECT_CLASS (dy_table_dialog_parent_class)->dispose (object);
}

static void
dy_table_dialog_finalize (GObject *object)
{
  DyTableDialog *self = DY_TABLE_DIALOG (object);

  g_clear_pointer (&self->form.index_rows, g_ptr_array_unref);
  g_free (self->table);
  ddb_table_spec_free (self->spec);
  ddb_table_spec_free (self->current);
  g_clear_pointer (&self->steps, g_ptr_array_unref);
  g_clear_object (&self->cancellable);
  g_free (self->error);
  G_OBJECT_CLASS (dy_table_dialog_parent_class)->finalize (object);
}

static void
dy_table_dialog_class_init (DyTableDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = dy_table_dialog_dispose;
  object_class->finalize = dy_table_dialog_finalize;
  window_class->close_request = close_request;

  signals[SIGNAL_DONE] = g_signal_new ("done", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                       NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dy-table-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DyTableDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, DyTableDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, DyTableDialog, back_button);
  gtk_widget_class_bind_template_child (widget_class, DyTableDialog, primary_button);
  gtk_widget_class_bind_template_child (widget_class, DyTableDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, DyTableDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, DyTableDialog, form_page);
  gtk_widget_class_bind_template_child (widget_class, DyTableDialog, review_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableDialog, copy_as_button);
  gtk_widget_class_bind_template_child (widget_class, DyTableDialog, review_view);
  gtk_widget_class_bind_template_child (widget_class, DyTableDialog, confirm_box);
  gtk_widget_class_bind_template_child (widget_class, DyTableDialog, confirm_row);
  gtk_widget_class_bind_template_child (widget_class, DyTableDialog, progress_label);

  gtk_widget_class_install_action (widget_class, "tdialog.next", NULL, next_action);
  gtk_widget_class_install_action (widget_class, "tdialog.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "tdialog.copy-as", "(us)", copy_as_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
dy_table_dialog_init (DyTableDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

static DyTableDialog *
dialog_new (GtkWindow *parent, DyConnection *connection, DyTableDialogMode mode, const char *table,
            const char *title)
{
  DyTableDialog *self
      = g_object_new (DY_TYPE_TABLE_DIALOG, "transient-for", parent, "title", title, NULL);

  self->mode = mode;
  self->connection = g_object_ref (connection);
  self->table = g_strdup (table);
  adw_window_title_set_title (self->window_title, title);
  adw_window_title_set_subtitle (self->window_title,
                                 table != NULL ? table : dy_connection_get_title (connection));
  if (mode != DY_TABLE_DIALOG_DELETE)
    dy_table_form_build (self);
  set_primary_label (self);
  return self;
}

GtkWidget *
dy_table_dialog_new_create (GtkWindow *parent, DyConnection *connection)
{
  DyTableDialog *self
      = dialog_new (parent, connection, DY_TABLE_DIALOG_CREATE, NULL, _ ("New Table"));

  self->spec = ddb_table_spec_new (NULL, NULL, "S", NULL, NULL);
  dy_table_form_show (self);
  self->ready = TRUE;
  update_actions (self);
  return GTK_WIDGET (self);
}

GtkWidget *
dy_table_dialog_new_edit (GtkWindow *parent, DyConnection *connection, const char *table)
{
  DyTableDialog *self
      = dialog_new (parent, connection, DY_TABLE_DIALOG_EDIT, table, _ ("Edit Table"));
  json_auto_t *request = json_pack ("{ss}", "TableName", table);

  self->cancellable = g_cancellable_new ();
  dy_connection_call_async (connection, "DescribeTable", request, self->cancellable,
                            table_described, g_object_ref (self));
  update_actions (self);
  return GTK_WIDGET (self);
}

static void
confirm_changed (DyTableDialog *self)
{
  update_actions (self);
}

GtkWidget *
dy_table_dialog_new_delete (GtkWindow *parent, DyConnection *connection, const char *table)
{
  DyTableDialog *self
      = dialog_new (parent, connection, DY_TABLE_DIALOG_DELETE, table, _ ("Delete Table"));
  g_autoptr (GError) error = NULL;
  GPtrArray *steps = ddb_table_delete_steps (table, &error);

  gtk_widget_remove_css_class (GTK_WIDGET (self->primary_button), "suggested-action");
  gtk_widget_add_css_class (GTK_WIDGET (self->primary_button), "destructive-action");
  dy_confirm_name_setup (self->confirm_row, table);
  gtk_widget_set_visible (GTK_WIDGET (self->confirm_box), TRUE);
  g_signal_connect_swapped (self->confirm_row, "changed", G_CALLBACK (confirm_changed), self);
  self->ready = TRUE;
  if (steps == NULL)
    dy_table_dialog_set_error (self, error->message);
  else
    show_steps (self, steps);
  update_actions (self);
  gtk_window_set_default_size (GTK_WINDOW (self), 560, 440);
  return GTK_WIDGET (self);
}
