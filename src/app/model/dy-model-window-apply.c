/* dy-model-window-apply.c: Create on…: the model's tables created on a connection of the
 * browser window and filled with the sample or generated items (dy_model_apply on a worker
 * thread). The CreateTable requests are shown before anything is sent; the work shows its
 * progress and can be cancelled (what was created and written until then stays, and the
 * message says so); DynamoDB's error comes back by its name with its message. */
#define G_LOG_DOMAIN "dynoscope-model-window"

#include <glib/gi18n.h>

#include "app/common/dy-format.h"
#include "app/model/dy-model-window-private.h"
#include "backend/backend.h"
#include "model/apply.h"
#include "model/workbench.h"

/* Generated items per entity offered by default, and at most (dy_model_apply holds them in
 * memory). */
#define DEFAULT_ITEMS 200
#define MAX_ITEMS 100000

typedef struct {
  DyModelWindow *self;
  DyConnection *connection;
  DyModel *model; /* a copy: the window's may be edited meanwhile */
  guint items;    /* per entity; 0: the sample items */
  GCancellable *cancellable;
  AdwMessageDialog *progress_dialog;
  GtkProgressBar *bar;
  GtkLabel *label;
  guint n_tables;
  guint64 written; /* all tables' items written so far */
  /* the last progress from the worker, under the lock */
  GMutex lock;
  char *table;
  guint64 table_written, table_total;
  guint64 done_before; /* items of the tables finished before TABLE */
  guint idle_id;
} Apply;

static void
apply_free (Apply *apply)
{
  if (apply->idle_id != 0)
    g_source_remove (apply->idle_id);
  g_object_unref (apply->self);
  g_object_unref (apply->connection);
  dy_model_free (apply->model);
  g_object_unref (apply->cancellable);
  g_mutex_clear (&apply->lock);
  g_free (apply->table);
  g_free (apply);
}

/* A deep copy of MODEL, through the file format that holds it all. */
static DyModel *
copy_model (const DyModel *model)
{
  json_auto_t *json = dy_workbench_write (model);

  return dy_workbench_read (json, NULL);
}

/* Every CreateTable request of MODEL, as the review shows them; NULL with the error of the
 * first DynamoDB would refuse. */
static char *
requests_text (const DyModel *model, GError **error)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < model->tables->len; i++)
    {
      const DyModelTable *table = model->tables->pdata[i];
      json_auto_t *request = dy_model_create_table_request (model, table, error);
      g_autofree char *json = NULL;

      if (request == NULL)
        return NULL;
      json = json_dumps (request, JSON_INDENT (2) | JSON_SORT_KEYS);
      g_string_append_printf (text, "%sCreateTable\n%s\n", i > 0 ? "\n" : "", json);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static guint64
n_sample_items (const DyModel *model)
{
  guint64 n = 0;

  for (guint i = 0; i < model->tables->len; i++)
    n += json_array_size (((DyModelTable *) model->tables->pdata[i])->items);
  return n;
}

/* ---- The work, on a worker thread ---- */

static gboolean
show_progress (gpointer data)
{
  Apply *apply = data;
  g_autofree char *text = NULL;
  guint64 written, total;

  g_mutex_lock (&apply->lock);
  apply->idle_id = 0;
  written = apply->table_written;
  total = apply->table_total;
  if (apply->table != NULL)
    /* TRANSLATORS: the table being created and filled, and its items written of all */
    {
      g_autofree char *w = dy_format_count (written);
      g_autofree char *t = dy_format_count (total);

      text = g_strdup_printf (ngettext ("%s: %s of %s item written", "%s: %s of %s items written",
                                        (gulong) total),
                              apply->table, w, t);
    }
  g_mutex_unlock (&apply->lock);
  if (text != NULL)
    gtk_label_set_text (apply->label, text);
  if (total > 0)
    gtk_progress_bar_set_fraction (apply->bar, (double) written / (double) total);
  else
    gtk_progress_bar_pulse (apply->bar);
  return G_SOURCE_REMOVE;
}

static void
progress (const char *table, guint64 written, guint64 total, gpointer user_data)
{
  Apply *apply = user_data;

  g_mutex_lock (&apply->lock);
  if (g_strcmp0 (apply->table, table) != 0)
    {
      apply->done_before += apply->table_written;
      g_free (apply->table);
      apply->table = g_strdup (table);
    }
  apply->table_written = written;
  apply->table_total = total;
  if (apply->idle_id == 0)
    apply->idle_id = g_idle_add (show_progress, apply);
  g_mutex_unlock (&apply->lock);
}

static void
apply_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Apply *apply = task_data;
  g_autoptr (DdbBackend) backend = NULL;
  GError *error = NULL;

  (void) source;
  backend = dy_connection_open_backend (apply->connection, 0, &error);
  if (backend == NULL
      || !dy_model_apply (backend, apply->model, apply->items, DY_APPLY_NONE, progress, apply,
                          cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void
apply_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Apply *apply = user_data;
  DyModelWindow *self = apply->self;
  g_autoptr (GError) error = NULL;
  guint64 written;

  (void) source;
  g_task_propagate_boolean (G_TASK (result), &error);
  g_mutex_lock (&apply->lock);
  written = apply->done_before + apply->table_written;
  g_mutex_unlock (&apply->lock);
  self->applying = FALSE;
  gtk_window_destroy (GTK_WINDOW (apply->progress_dialog));
  dy_connection_refresh_tables (apply->connection);
  if (error == NULL)
    {
      /* TRANSLATORS: the tables Create on… created, on the connection %s */
      g_autofree char *tables = g_strdup_printf (
          ngettext ("Created %u table on %s.", "Created %u tables on %s.", apply->n_tables),
          apply->n_tables, dy_connection_get_title (apply->connection));
      /* TRANSLATORS: the items Create on… wrote into the tables it created */
      g_autofree char *n = dy_format_count (written);
      g_autofree char *items
          = g_strdup_printf (ngettext ("Wrote %s item.", "Wrote %s items.", (gulong) written), n);
      /* two whole sentences, one after the other */
      g_autofree char *text = g_strdup_printf ("%s %s", tables, items);

      g_free (self->apply_message);
      self->apply_message = g_strdup (text);
      dy_model_window_toast (self, text);
    }
  else
    {
      const char *name = ddb_backend_error_name (error, NULL);
      g_autofree char *reason = name != NULL ? g_strdup_printf ("%s: %s", name, error->message)
                                             : g_strdup (error->message);
      g_autofree char *text = NULL;
      GtkWidget *dialog;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *count = dy_format_count (written);

          /* TRANSLATORS: Create on… was cancelled after writing this many items */
          text = g_strdup_printf (ngettext ("Cancelled after %s item: the tables created and the "
                                            "items written until then stay.",
                                            "Cancelled after %s items: the tables created and "
                                            "the items written until then stay.",
                                            (gulong) written),
                                  count);
        }
      else
        /* TRANSLATORS: Create on… failed; %s is DynamoDB's error name and message */
        text = g_strdup_printf (_ ("%s\n\nWhat was created and written before the error stays."),
                                reason);
      g_free (self->apply_message);
      self->apply_message = g_strdup (text);
      dialog = adw_message_dialog_new (GTK_WINDOW (self), _ ("The Model Was Not Created"), text);
      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _ ("_Close"));
      g_object_set_data (G_OBJECT (self), "dy-apply-error-dialog", dialog);
      gtk_window_present (GTK_WINDOW (dialog));
    }
  apply_free (apply);
}

static void
progress_response (AdwMessageDialog *dialog, const char *response, GCancellable *cancellable)
{
  (void) dialog;
  if (g_str_equal (response, "cancel"))
    g_cancellable_cancel (cancellable);
}

AdwMessageDialog *
dy_model_window_progress_new (DyModelWindow *self, const char *heading, const char *text,
                              GCancellable *cancellable, GtkProgressBar **bar, GtkLabel **label)
{
  AdwMessageDialog *dialog;
  GtkWidget *box;

  *bar = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  *label = GTK_LABEL (gtk_label_new (text));
  gtk_label_set_xalign (*label, 0);
  gtk_label_set_ellipsize (*label, PANGO_ELLIPSIZE_MIDDLE);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (*bar));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (*label));
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), heading, NULL));
  adw_message_dialog_set_extra_child (dialog, box);
  adw_message_dialog_add_response (dialog, "cancel", _ ("_Cancel"));
  adw_message_dialog_set_close_response (dialog, "cancel");
  /* the end of the work closes it */
  g_signal_connect_data (dialog, "response", G_CALLBACK (progress_response),
                         g_object_ref (cancellable),
                         (GClosureNotify) (void (*) (void)) g_object_unref, 0);
  g_object_set_data (G_OBJECT (self), "dy-progress-dialog", dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

static void
start (Apply *apply)
{
  DyModelWindow *self = apply->self;
  g_autoptr (GTask) task = NULL;

  apply->progress_dialog
      = dy_model_window_progress_new (self, _ ("Creating the Model"), _ ("Creating the tables…"),
                                      apply->cancellable, &apply->bar, &apply->label);

  self->applying = TRUE;
  task = g_task_new (NULL, apply->cancellable, apply_done, apply);
  g_task_set_task_data (task, apply, NULL);
  g_task_run_in_thread (task, apply_thread);
}

/* ---- The review ---- */

typedef struct {
  Apply *apply;
  GtkDropDown *which;
  GtkSpinButton *count;
} Review;

static void
which_changed (Review *review)
{
  gtk_widget_set_sensitive (GTK_WIDGET (review->count),
                            gtk_drop_down_get_selected (review->which) == 1);
}

static void
review_response (AdwMessageDialog *dialog, const char *response, Review *review)
{
  Apply *apply = g_steal_pointer (&review->apply);

  (void) dialog;
  if (apply == NULL) /* answered already */
    return;
  if (!g_str_equal (response, "create"))
    {
      apply_free (apply);
      return;
    }
  apply->items = gtk_drop_down_get_selected (review->which) == 1
                     ? (guint) gtk_spin_button_get_value_as_int (review->count)
                     : 0;
  start (apply);
}

static void
review_free (Review *review)
{
  if (review->apply != NULL)
    apply_free (review->apply);
  g_free (review);
}

GtkWidget *
dy_model_window_review_create (DyModelWindow *self, DyConnection *connection)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *requests = NULL;
  g_autofree char *heading = NULL;
  g_autofree char *sample = NULL;
  GtkWidget *dialog, *box, *scroller, *view, *row, *label;
  GtkTextBuffer *buffer;
  Review *review;
  Apply *apply;
  guint n;

  if (self->model == NULL || self->model->tables->len == 0)
    {
      dy_model_window_toast (self, _ ("The model has no table to create"));
      return NULL;
    }
  if (self->applying)
    {
      dy_model_window_toast (self, _ ("The model is being created already"));
      return NULL;
    }
  apply = g_new0 (Apply, 1);
  apply->self = g_object_ref (self);
  apply->connection = g_object_ref (connection);
  apply->model = copy_model (self->model);
  apply->cancellable = g_cancellable_new ();
  apply->n_tables = apply->model->tables->len;
  g_mutex_init (&apply->lock);
  n = apply->n_tables;

  requests = requests_text (apply->model, &error);
  if (requests == NULL)
    {
      /* TRANSLATORS: the model's CreateTable request DynamoDB would refuse, and why */
      g_autofree char *text = g_strdup_printf (_ ("The model cannot be created: %s"),
                                               error->message);

      dy_model_window_toast (self, text);
      apply_free (apply);
      return NULL;
    }
  buffer = gtk_text_buffer_new (NULL);
  gtk_text_buffer_set_text (buffer, requests, -1);
  view = gtk_text_view_new_with_buffer (buffer);
  g_object_unref (buffer);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), view);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), 280);
  gtk_scrolled_window_set_min_content_width (GTK_SCROLLED_WINDOW (scroller), 520);
  gtk_widget_add_css_class (scroller, "card");

  review = g_new0 (Review, 1);
  review->apply = apply;
  /* TRANSLATORS: %s is the number of sample items of the model */
  {
    g_autofree char *count = dy_format_count (n_sample_items (apply->model));

    sample = g_strdup_printf (_ ("The sample items (%s)"), count);
  }
  {
    const char *choices[] = { sample, _ ("Generated items"), NULL };

    review->which = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (choices));
  }
  review->count = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (1, MAX_ITEMS, 50));
  gtk_spin_button_set_value (review->count, DEFAULT_ITEMS);
  gtk_widget_set_tooltip_text (GTK_WIDGET (review->count),
                               _ ("Items per entity, from its key templates: a few tenants "
                                  "own most of them, timestamps in order"));
  g_signal_connect_swapped (review->which, "notify::selected", G_CALLBACK (which_changed), review);
  which_changed (review);
  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  label = gtk_label_new_with_mnemonic (_ ("_Items"));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (review->which));
  gtk_box_append (GTK_BOX (row), label);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (review->which));
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (review->count));
  gtk_box_append (GTK_BOX (row), gtk_label_new (_ ("per entity")));

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_box_append (GTK_BOX (box), scroller);
  gtk_box_append (GTK_BOX (box), row);

  /* TRANSLATORS: %u tables of the model, created on the connection %s */
  heading = g_strdup_printf (ngettext ("Create %u Table on %s?", "Create %u Tables on %s?", n), n,
                             dy_connection_get_title (connection));
  dialog = adw_message_dialog_new (
      GTK_WINDOW (self), heading,
      _ ("These requests are sent first, each table waited for until it is active; then the "
         "items are written, 25 to a BatchWriteItem. A table that exists already stops it."));
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), box);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "create",
                                    _ ("C_reate"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "create",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_data (dialog, "response", G_CALLBACK (review_response), review,
                         (GClosureNotify) (void (*) (void)) review_free, 0);
  g_object_set_data (G_OBJECT (dialog), "requests", view);
  g_object_set_data (G_OBJECT (dialog), "items", review->which);
  g_object_set_data (G_OBJECT (dialog), "count", review->count);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

static void
create_on_chosen (DyModelWindow *self, DyConnection *connection, const char *table,
                  gpointer user_data)
{
  (void) table;
  (void) user_data;
  dy_model_window_review_create (self, connection);
}

void
dy_model_window_create_on_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyModelWindow *self = DY_MODEL_WINDOW (widget);

  (void) action_name;
  (void) parameter;
  if (self->model == NULL)
    return;
  dy_model_window_choose_target (self, _ ("Create the Model on a Connection"),
                                 _ ("Its tables are created with their keys, indexes and billing "
                                    "mode, then filled with items. The requests are shown before "
                                    "anything is sent."),
                                 _ ("_Next"), FALSE, create_on_chosen, NULL);
}

gboolean
dy_model_window_get_applying (DyModelWindow *self)
{
  return self->applying;
}

const char *
dy_model_window_get_apply_message (DyModelWindow *self)
{
  return self->apply_message;
}
