/* dy-model-window-infer.c: Infer from Table…: the model dy_model_infer proposes for a table of
 * one of the browser window's connections (entities by key prefixes, key templates, attributes,
 * indexes and a few sample items of each), read on a worker thread with Cancel, shown in this
 * window (or a new one, when this one has unsaved changes) as a model not yet saved. */
#define G_LOG_DOMAIN "dynoscope-model-window"

#include <glib/gi18n.h>

#include "app/model/dy-model-window-private.h"
#include "backend/backend.h"
#include "model/infer.h"

typedef struct {
  DyModelWindow *self;
  DyConnection *connection;
  char *table;
  GCancellable *cancellable;
  AdwMessageDialog *dialog;
  GtkProgressBar *bar;
  guint pulse_id;
} Infer;

static void
infer_free (Infer *infer)
{
  if (infer->pulse_id != 0)
    g_source_remove (infer->pulse_id);
  g_object_unref (infer->self);
  g_object_unref (infer->connection);
  g_free (infer->table);
  g_object_unref (infer->cancellable);
  g_free (infer);
}

static void
infer_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Infer *infer = task_data;
  g_autoptr (DdbBackend) backend = NULL;
  GError *error = NULL;
  DyModel *model = NULL;

  (void) source;
  backend = dy_connection_open_backend (infer->connection, 0, &error);
  if (backend != NULL)
    model = dy_model_infer (backend, infer->table, 0, cancellable, &error);
  if (model == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, model, (GDestroyNotify) dy_model_free);
}

static void
infer_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Infer *infer = user_data;
  DyModelWindow *self = infer->self;
  g_autoptr (GError) error = NULL;
  DyModel *model;

  (void) source;
  model = g_task_propagate_pointer (G_TASK (result), &error);
  gtk_window_destroy (GTK_WINDOW (infer->dialog));
  if (model == NULL)
    {
      const char *name = ddb_backend_error_name (error, NULL);
      g_autofree char *text = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        text = g_strdup (_ ("Inferring the model was cancelled"));
      else if (name != NULL)
        /* TRANSLATORS: the table a model could not be inferred from, and DynamoDB's error
         * name and message */
        text = g_strdup_printf (_ ("Could not infer a model from %s: %s: %s"), infer->table, name,
                                error->message);
      else
        /* TRANSLATORS: the table a model could not be inferred from, and why */
        text = g_strdup_printf (_ ("Could not infer a model from %s: %s"), infer->table,
                                error->message);
      g_free (self->apply_message);
      self->apply_message = g_strdup (text);
      dy_model_window_toast (self, text);
    }
  else
    {
      /* unsaved changes are not dropped: the inferred model opens in a window of its own */
      DyModelWindow *into
          = self->model != NULL && self->modified
                ? dy_model_window_new (gtk_window_get_application (GTK_WINDOW (self)))
                : self;
      /* TRANSLATORS: a model inferred from a table: its entities, and the table */
      g_autofree char *text = g_strdup_printf (
          ngettext ("Inferred %u entity from %s: check it, add its access patterns and save it",
                    "Inferred %u entities from %s: check them, add their access patterns and "
                    "save the model",
                    model->entities->len),
          model->entities->len, infer->table);

      dy_model_window_set_model (into, model, NULL, TRUE);
      g_free (into->apply_message);
      into->apply_message = g_strdup (text);
      dy_model_window_toast (into, text);
      gtk_window_present (GTK_WINDOW (into));
    }
  self->applying = FALSE;
  infer_free (infer);
}

static gboolean
pulse (gpointer data)
{
  Infer *infer = data;

  gtk_progress_bar_pulse (infer->bar);
  return G_SOURCE_CONTINUE;
}

void
dy_model_window_start_infer (DyModelWindow *self, DyConnection *connection, const char *table)
{
  g_autoptr (GTask) task = NULL;
  g_autofree char *text = NULL;
  GtkLabel *label;
  Infer *infer;

  if (self->applying)
    {
      dy_model_window_toast (self, _ ("The window is at work already: wait for it to finish"));
      return;
    }
  infer = g_new0 (Infer, 1);
  infer->self = g_object_ref (self);
  infer->connection = g_object_ref (connection);
  infer->table = g_strdup (table);
  infer->cancellable = g_cancellable_new ();
  /* TRANSLATORS: the sample read to infer a model; %s is the table */
  text = g_strdup_printf (_ ("Reading a sample of %s…"), table);
  infer->dialog = dy_model_window_progress_new (self, _ ("Inferring a Model"), text,
                                                infer->cancellable, &infer->bar, &label);
  infer->pulse_id = g_timeout_add (100, pulse, infer);
  self->applying = TRUE;
  task = g_task_new (NULL, infer->cancellable, infer_done, infer);
  g_task_set_task_data (task, infer, NULL);
  g_task_run_in_thread (task, infer_thread);
}

static void
infer_chosen (DyModelWindow *self, DyConnection *connection, const char *table, gpointer user_data)
{
  (void) user_data;
  dy_model_window_start_infer (self, connection, table);
}

void
dy_model_window_infer_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  (void) action_name;
  (void) parameter;
  dy_model_window_choose_target (DY_MODEL_WINDOW (widget), _ ("Infer a Model from a Table"),
                                 _ ("A sample of the table's items is read and its entities, key "
                                    "templates, attributes and indexes are proposed, from the "
                                    "key prefixes such as WS# or META."),
                                 _ ("_Infer"), TRUE, infer_chosen, NULL);
}
