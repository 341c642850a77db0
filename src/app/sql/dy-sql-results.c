/* dy-sql-results.c: the SQL tab's Run: the plan in words on a worker, a confirmation when a
 * live table's Scans would read more than the set amount, then the statement on a worker
 * streaming its rows to the grid in batches (never the whole result first, at most two
 * batches waiting so memory stays bounded), Cancel at any time (ddb_sql_cancel), and the
 * reads per table after. */
#define G_LOG_DOMAIN "dynoscope-sql"

#include <glib/gi18n.h>
#include <string.h>

#include "app/browser/dy-grid.h"
#include "app/common/dy-error-bar.h"
#include "app/sql/dy-sql-history.h"
#include "app/sql/dy-sql-view-private.h"
#include "core/error.h"

/* The first batch is small so that rows show at once; the next ones are larger (fewer
 * main-loop turns) and go at least this often while rows keep coming. */
#define FIRST_BATCH_ROWS 50
#define BATCH_ROWS 2000
#define BATCH_INTERVAL (250 * G_TIME_SPAN_MILLISECOND)
/* Batches handed to the main thread and not yet shown, at most. */
#define MAX_WAITING 2

static char *
rcu_text (double rcu)
{
  return rcu >= 10 ? g_strdup_printf ("%.0f", rcu) : g_strdup_printf ("%.1f", rcu);
}

/* xgettext cannot read G_GUINT64_FORMAT: the numbers are formatted first, and the plural
 * picked for them as an unsigned long. */
#define PLURAL_N(n) ((gulong) MIN ((n), G_MAXULONG))

static char *
stats_text (const DdbSqlStats *stats)
{
  g_autofree char *rcu = rcu_text (stats->rcu);
  g_autofree char *nr = g_strdup_printf ("%" G_GUINT64_FORMAT, stats->requests);
  g_autofree char *np = g_strdup_printf ("%" G_GUINT64_FORMAT, stats->pages);
  g_autofree char *ni = g_strdup_printf ("%" G_GUINT64_FORMAT, stats->items_read);
  g_autofree char *requests = NULL, *pages = NULL, *items = NULL;

  /* TRANSLATORS: the parts of what a statement read; %s is a number */
  requests = g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE, "%s request", "%s requests", PLURAL_N (stats->requests)), nr);
  pages = g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE, "%s page", "%s pages", PLURAL_N (stats->pages)), np);
  items = g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE, "%s item read", "%s items read", PLURAL_N (stats->items_read)),
      ni);
  /* TRANSLATORS: requests · pages · items read · read capacity units */
  return g_strdup_printf (_ ("%s · %s · %s · %s RCU"), requests, pages, items, rcu);
}

/* Retry is shown while the bar holds a failure worth running again, and can be pressed while
 * nothing runs. */
static void
update_retry (DySqlView *self)
{
  gboolean again = self->retry != DY_SQL_RETRY_NONE;

  gtk_widget_set_visible (self->retry_button, again);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.retry", again && !self->running);
}

void
dy_sql_view_show_error (DySqlView *self, const char *message)
{
  self->retry = DY_SQL_RETRY_NONE;
  g_clear_pointer (&self->retry_text, g_free);
  update_retry (self);
  g_free (self->error);
  self->error = g_strdup (message);
  if (message != NULL)
    gtk_label_set_text (self->error_label, message);
  gtk_revealer_set_reveal_child (self->error_revealer, message != NULL);
}

void
dy_sql_view_show_failure (DySqlView *self, const char *message, const GError *error,
                          const char *name, DySqlRetry retry, const char *text)
{
  dy_sql_view_show_error (self, message);
  /* a statement refused as it is (a syntax error, ValidationException) would only fail again */
  if (dy_connection_error_is_retryable (error, name))
    {
      self->retry = retry;
      self->retry_text = g_strdup (text);
    }
  update_retry (self);
}

void
dy_sql_view_update_footer (DySqlView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  g_autofree char *reads = stats_text (&self->stats);
  g_autofree char *text = NULL;

  if (self->status != NULL)
    text = g_strdup (self->status);
  else if (self->serial == 0)
    text = g_strdup (_ ("Nothing run yet · Ctrl+Return runs the statement"));
  else if (self->running)
    /* TRANSLATORS: the footer while a statement runs: rows so far, then what was read */
    text = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE, "%u row so far · %s", "%u rows so far · %s", n), n, reads);
  else if (self->cancelled)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Cancelled after %u row · %s",
                                         "Cancelled after %u rows · %s", n),
                            n, reads);
  else
    /* TRANSLATORS: the footer after a statement: rows, what was read, seconds */
    text = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE, "%u row · %s · %.2f s", "%u rows · %s · %.2f s", n), n, reads,
        (double) self->elapsed / G_USEC_PER_SEC);
  gtk_label_set_text (self->footer_label, text);
}

static void
set_plan (DySqlView *self, const char *plan)
{
  g_free (self->plan);
  self->plan = plan != NULL ? g_strchomp (g_strdup (plan)) : NULL;
  gtk_label_set_text (self->plan_label, self->plan != NULL ? self->plan : "");
  gtk_label_set_text (self->stats_label, "");
  gtk_widget_set_visible (GTK_WIDGET (self->stats_label), FALSE);
  gtk_revealer_set_reveal_child (self->plan_revealer, plan != NULL);
}

/* The reads per table, under the plan. */
static void
show_table_stats (DySqlView *self, GPtrArray *tables)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; tables != NULL && i < tables->len; i++)
    {
      DdbSqlTableStats *t = tables->pdata[i];
      g_autofree char *reads = stats_text (&t->stats);

      if (text->len > 0)
        g_string_append_c (text, '\n');
      /* TRANSLATORS: a table's reads after a statement, e.g. "Read Blog: 1 requests · …" */
      g_string_append_printf (text, _ ("Read %s: %s"), t->name, reads);
    }
  gtk_label_set_text (self->stats_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->stats_label), text->len > 0);
  if (text->len > 0)
    gtk_revealer_set_reveal_child (self->plan_revealer, TRUE);
  g_string_free (text, TRUE);
}

/* DynamoDB's name for a DDB_ERROR of the statement on SESSION's SQL (its worker only). */
static char *
error_name (DySqlSession *session, const GError *error)
{
  if (error == NULL || error->domain != DDB_ERROR || session->sql == NULL)
    return NULL;
  return g_strdup (ddb_sql_error_name (session->sql, error));
}

/* The words for an error of the statement: SQLite's message as it is, a DynamoDB error as the
 * window words it (its name, its message and what to do). */
static char *
describe_error (DySqlView *self, const GError *error, const char *name)
{
  json_t *extra = name != NULL ? json_pack ("{ss}", "__type", name) : NULL;
  char *text;

  if (error->domain == DDB_SQL_ERROR)
    text = g_strdup (error->message);
  else
    text = dy_connection_describe_error (self->connection, error, extra);
  if (extra != NULL)
    json_decref (extra);
  return text;
}

/* The grid. */

static void
remove_columns (DySqlView *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);

  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);

      gtk_column_view_remove_column (self->column_view, column);
    }
}

void
dy_sql_results_append_columns (DySqlView *self, GPtrArray *names)
{
  /* past the terminating NULL */
  g_ptr_array_set_size (self->columns, self->columns->len - 1);
  for (guint i = 0; i < names->len; i++)
    {
      g_autoptr (GtkListItemFactory) factory = dy_grid_cell_factory_new (names->pdata[i]);
      g_autoptr (GtkColumnViewColumn) column
          = gtk_column_view_column_new (names->pdata[i], g_steal_pointer (&factory));

      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_fixed_width (column, dy_grid_column_width (names->pdata[i], NULL));
      gtk_column_view_append_column (self->column_view, column);
      g_ptr_array_add (self->columns, g_strdup (names->pdata[i]));
    }
  g_ptr_array_add (self->columns, NULL);
}

static void
add_columns (DySqlView *self, GPtrArray *names)
{
  g_ptr_array_set_size (self->columns, 0);
  g_ptr_array_add (self->columns, NULL);
  dy_sql_results_append_columns (self, names);
}

/* The first rows size the columns to their values. */
void
dy_sql_results_size_columns (DySqlView *self, DyRowPage *page)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);

  self->widths_set = TRUE;
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      gtk_column_view_column_set_fixed_width (
          column, dy_grid_column_width (gtk_column_view_column_get_title (column), page));
    }
}

/* Empties the results before a Run: the grid lets go of its rows first, so that it does not
 * walk them, and of its columns. */
static void
clear_results (DySqlView *self)
{
  gtk_single_selection_set_model (self->selection, NULL);
  remove_columns (self);
  dy_rows_clear (self->rows);
  g_ptr_array_set_size (self->columns, 0);
  g_ptr_array_add (self->columns, NULL);
  g_clear_pointer (&self->target, dy_sql_target_free);
  /* a PartiQL result's next page is not this one's */
  g_clear_pointer (&self->next_token, g_free);
  self->widths_set = FALSE;
  memset (&self->stats, 0, sizeof self->stats);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->feed));
}

void
dy_sql_results_clear (DySqlView *self)
{
  clear_results (self);
  set_plan (self, NULL);
  dy_sql_view_show_error (self, NULL);
}

/* The statement, streamed. */

typedef struct {
  DySqlSession *session;
  char *text;
  guint serial;
  GCancellable *cancellable;
  DyRowStore *store;
  GMutex lock;
  GCond cond;
  guint waiting; /* batches on their way to the main thread */
  /* for the task's callback */
  DdbSqlStats stats;
  GPtrArray *table_stats;
  char *error_name; /* DynamoDB's name for the error, if it is one */
} Run;

static void
run_free (Run *run)
{
  dy_sql_session_unref (run->session);
  g_free (run->text);
  g_object_unref (run->cancellable);
  dy_row_store_unref (run->store);
  g_mutex_clear (&run->lock);
  g_cond_clear (&run->cond);
  g_clear_pointer (&run->table_stats, g_ptr_array_unref);
  g_free (run->error_name);
  g_free (run);
}

typedef struct {
  GTask *task;        /* a reference: the batch's Run lives as long */
  GPtrArray *columns; /* the first batch: the result's column names */
  DySqlTarget *target;
  DyRowPage *page; /* NULL: none */
  DdbSqlStats stats;
} Batch;

static void
batch_free (Batch *batch)
{
  g_object_unref (batch->task);
  g_clear_pointer (&batch->columns, g_ptr_array_unref);
  g_clear_pointer (&batch->target, dy_sql_target_free);
  g_clear_pointer (&batch->page, dy_row_page_free);
  g_free (batch);
}

static gboolean
deliver (gpointer data)
{
  Batch *batch = data;
  Run *run = g_task_get_task_data (batch->task);
  DySqlView *self = g_task_get_source_object (batch->task);

  /* Batches of a cancelled or replaced Run are dropped: the rows shown stay as they are. */
  if (run->serial == self->serial && !g_cancellable_is_cancelled (run->cancellable))
    {
      if (batch->columns != NULL)
        {
          add_columns (self, batch->columns);
          self->target = g_steal_pointer (&batch->target);
        }
      if (batch->page != NULL)
        {
          if (!self->widths_set)
            dy_sql_results_size_columns (self, batch->page);
          dy_rows_add_page (self->rows, batch->page);
        }
      self->stats = batch->stats;
      dy_sql_view_update_footer (self);
    }
  g_mutex_lock (&run->lock);
  run->waiting--;
  g_cond_signal (&run->cond);
  g_mutex_unlock (&run->lock);
  return G_SOURCE_REMOVE;
}

/* Hands BATCH to the main thread, waiting while two are there already. */
static void
send_batch (GTask *task, Run *run, Batch *batch, DdbSqlQuery *query)
{
  g_mutex_lock (&run->lock);
  while (run->waiting >= MAX_WAITING && !g_cancellable_is_cancelled (run->cancellable))
    g_cond_wait_until (&run->cond, &run->lock,
                       g_get_monotonic_time () + 50 * G_TIME_SPAN_MILLISECOND);
  run->waiting++;
  g_mutex_unlock (&run->lock);
  batch->task = g_object_ref (task);
  ddb_sql_query_stats (query, &batch->stats);
  g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT, deliver, batch,
                              (GDestroyNotify) batch_free);
}

static gboolean
send_rows (GTask *task, Run *run, GPtrArray *rows, DdbSqlQuery *query, GError **error)
{
  Batch *batch;

  if (rows->len == 0)
    return TRUE;
  batch = g_new0 (Batch, 1);
  batch->page = dy_row_page_new_from_values (run->store, rows, error);
  g_ptr_array_set_size (rows, 0);
  if (batch->page == NULL)
    {
      g_free (batch);
      return FALSE;
    }
  send_batch (task, run, batch, query);
  return TRUE;
}

static void
set_stepping (DySqlSession *session, gboolean stepping)
{
  g_mutex_lock (&session->open_lock);
  session->stepping = stepping;
  g_mutex_unlock (&session->open_lock);
}

static gboolean
stream (GTask *task, Run *run, GError **error)
{
  g_autoptr (DdbSqlQuery) query = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  guint limit = FIRST_BATCH_ROWS;
  gint64 batch_started = 0;
  Batch *header;
  GError *local = NULL;

  query = ddb_sql_query_new (run->session->sql, run->text, run->cancellable, error);
  if (query == NULL)
    return FALSE;
  for (guint i = 0; i < ddb_sql_query_n_columns (query); i++)
    {
      const char *name = ddb_sql_query_column_name (query, i);

      /* the row's item keeps the first of two columns of one name */
      if (g_hash_table_add (seen, (gpointer) name))
        g_ptr_array_add (names, g_strdup (name));
    }
  header = g_new0 (Batch, 1);
  header->target = dy_sql_target_find (query, names);
  header->columns = g_ptr_array_ref (names);
  send_batch (task, run, header, query);

  set_stepping (run->session, TRUE);
  while (ddb_sql_query_next (query, &local))
    {
      gint64 now = g_get_monotonic_time ();

      g_ptr_array_add (rows, ddb_sql_query_row_item (query));
      if (rows->len == 1)
        batch_started = now;
      if (rows->len >= limit || now - batch_started >= BATCH_INTERVAL)
        {
          if (!send_rows (task, run, rows, query, &local))
            break;
          limit = BATCH_ROWS;
        }
    }
  set_stepping (run->session, FALSE);
  /* the rows read before an error are shown too */
  send_rows (task, run, rows, query, local == NULL ? &local : NULL);
  ddb_sql_query_stats (query, &run->stats);
  run->table_stats = ddb_sql_query_table_stats (query);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

static void
run_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Run *run = task_data;
  GError *error = NULL;
  gboolean ok;

  /* A cancelled Run may still be finishing on SQL: one statement at a time. */
  g_mutex_lock (&run->session->run_lock);
  ok = dy_sql_session_open (run->session, &error) && stream (task, run, &error);
  run->error_name = error_name (run->session, error);
  g_mutex_unlock (&run->session->run_lock);
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
run_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DySqlView *self = DY_SQL_VIEW (source);
  Run *run = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);

  if (run->serial != self->serial)
    return; /* cancelled, or a newer Run */
  self->elapsed = g_get_monotonic_time () - self->started;
  self->stats = run->stats;
  dy_sql_view_set_running (self, FALSE);
  if (!ok)
    {
      g_autofree char *text = describe_error (self, error, run->error_name);

      /* Retry runs the statement again from its plan: the rows read before the error go */
      dy_sql_view_show_failure (self, text, error, run->error_name, DY_SQL_RETRY_STATEMENT,
                                run->text);
    }
  show_table_stats (self, run->table_stats);
  dy_sql_view_update_actions (self);
  dy_sql_view_update_footer (self);
}

static void
start_statement (DySqlView *self, const char *text)
{
  g_autoptr (GTask) task = NULL;
  Run *run = g_new0 (Run, 1);

  clear_results (self);
  run->session = dy_sql_session_ref (self->session);
  run->text = g_strdup (text);
  run->serial = self->serial;
  run->cancellable = g_object_ref (self->cancellable);
  run->store = dy_row_store_ref (dy_rows_get_store (self->rows));
  g_mutex_init (&run->lock);
  g_cond_init (&run->cond);
  g_clear_pointer (&self->status, g_free);
  self->started = g_get_monotonic_time ();
  task = g_task_new (self, NULL, run_done, NULL);
  g_task_set_source_tag (task, start_statement);
  g_task_set_task_data (task, run, (GDestroyNotify) run_free);
  g_task_run_in_thread (task, run_thread);
  dy_sql_view_update_actions (self);
  dy_sql_view_update_footer (self);
}

/* The plan first. */

typedef struct {
  DySqlSession *session;
  char *text;
  guint serial;
  char *plan;
  double rcu;
  gboolean remote;
  char *error_name;
} Explain;

static void
explain_free (Explain *e)
{
  dy_sql_session_unref (e->session);
  g_free (e->text);
  g_free (e->plan);
  g_free (e->error_name);
  g_free (e);
}

static void
explain_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Explain *e = task_data;
  GError *error = NULL;

  g_mutex_lock (&e->session->run_lock);
  if (dy_sql_session_open (e->session, &error))
    {
      e->plan = ddb_sql_explain (e->session->sql, e->text, &e->rcu, cancellable, &error);
      e->remote = e->session->remote;
      e->error_name = error_name (e->session, error);
    }
  g_mutex_unlock (&e->session->run_lock);
  if (e->plan == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
confirm_response (AdwMessageDialog *dialog, const char *response, DySqlView *self)
{
  g_autofree char *text = g_strdup (g_object_get_data (G_OBJECT (dialog), "text"));
  guint serial = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "serial"));

  if (self->confirm_dialog == dialog)
    self->confirm_dialog = NULL;
  if (serial != self->serial || !self->running)
    return;
  if (g_strcmp0 (response, "run") == 0)
    {
      GtkSpinButton *spin = g_object_get_data (G_OBJECT (dialog), "threshold");
      double threshold = gtk_spin_button_get_value (spin);

      /* the answer may raise (or lower) what asks from now on */
      if (threshold != self->confirm_rcu)
        {
          self->confirm_rcu = threshold;
          if (self->settings != NULL)
            g_settings_set_double (self->settings, "sql-confirm-rcu", threshold);
        }
      start_statement (self, text);
    }
  else
    {
      dy_sql_view_set_running (self, FALSE);
      g_free (self->status);
      self->status = g_strdup (_ ("Not run: the Scan would read more than you allowed"));
      dy_sql_view_update_footer (self);
    }
}

/* "Ask first above this many RCU [N]", kept when the user runs the statement anyway. */
static GtkWidget *
threshold_box (DySqlView *self, GtkWidget *dialog)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *spin = gtk_spin_button_new_with_range (0, 1e9, 100);
  GtkWidget *label = gtk_label_new_with_mnemonic (_ ("_Ask first above this many RCU"));

  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 0);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), self->confirm_rcu);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), spin);
  gtk_widget_set_halign (box, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), spin);
  g_object_set_data (G_OBJECT (dialog), "threshold", spin);
  return box;
}

/* A live table's Scans past the set amount of read capacity: asked first, with the estimate. */
static void
confirm (DySqlView *self, Explain *e)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *rcu = rcu_text (e->rcu);
  g_autofree char *limit = rcu_text (self->confirm_rcu);
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  /* TRANSLATORS: %s: the estimated RCU, the connection, the threshold, then the plan */
  body = g_strdup_printf (_ ("Its Scans of %2$s would read about %1$s read capacity units, more "
                             "than the %3$s RCU that asks first. Capacity read from a live table "
                             "is billed.\n\n%4$s"),
                          rcu, dy_connection_get_title (self->connection), limit, e->plan);
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _ ("Scan a Live Table?"), body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "run",
                                    _ ("_Run Anyway"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "run",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), threshold_box (self, dialog));
  g_object_set_data_full (G_OBJECT (dialog), "text", g_strdup (e->text), g_free);
  g_object_set_data (G_OBJECT (dialog), "serial", GUINT_TO_POINTER (e->serial));
  g_signal_connect_object (dialog, "response", G_CALLBACK (confirm_response), self, 0);
  self->confirm_dialog = ADW_MESSAGE_DIALOG (dialog);
  g_free (self->status);
  self->status = g_strdup (_ ("Waiting for your answer: the Scan has not started"));
  dy_sql_view_update_footer (self);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
explain_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DySqlView *self = DY_SQL_VIEW (source);
  Explain *e = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autofree char *text = NULL;

      if (e->serial != self->serial)
        return;
      /* the rows and plan of the statement before are not this one's */
      text = describe_error (self, error, e->error_name);
      clear_results (self);
      set_plan (self, NULL);
      g_free (self->status);
      self->status = g_strdup (_ ("Not run: the statement has an error"));
      dy_sql_view_set_running (self, FALSE);
      dy_sql_view_show_failure (self, text, error, e->error_name, DY_SQL_RETRY_STATEMENT, e->text);
      dy_sql_view_update_footer (self);
      return;
    }
  if (e->serial != self->serial)
    return;
  set_plan (self, e->plan);
  if (e->remote && e->rcu > self->confirm_rcu)
    confirm (self, e);
  else
    start_statement (self, e->text);
}

/* The selected text when there is a selection (one statement among several), else all. */
char *
dy_sql_view_statement_text (DySqlView *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->editor));
  GtkTextIter start, end;

  if (gtk_text_buffer_get_selection_bounds (buffer, &start, &end))
    return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  return dy_sql_view_dup_text (self);
}

/* Runs TEXT (taken): its plan on a worker, then (asked first when it is a large Scan of a live
 * table) its rows. */
static void
run_statement (DySqlView *self, char *text)
{
  g_autoptr (GTask) task = NULL;
  Explain *e;

  self->serial++;
  self->cancelled = FALSE;
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  dy_sql_view_show_error (self, NULL);
  g_free (self->status);
  self->status = g_strdup (_ ("Planning…"));
  dy_sql_view_set_running (self, TRUE);
  dy_sql_view_update_footer (self);
  e = g_new0 (Explain, 1);
  e->session = dy_sql_session_ref (self->session);
  e->text = text;
  e->serial = self->serial;
  task = g_task_new (self, self->cancellable, explain_done, NULL);
  g_task_set_source_tag (task, run_statement);
  g_task_set_task_data (task, e, (GDestroyNotify) explain_free);
  /* the callback compares serials: a cancelled plan is dropped there */
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, explain_thread);
}

void
dy_sql_view_run (DySqlView *self)
{
  g_autofree char *text = NULL;

  if (self->running)
    return;
  if (self->partiql)
    {
      dy_sql_partiql_run (self);
      return;
    }
  text = dy_sql_view_statement_text (self);
  g_strstrip (text);
  if (*text == '\0')
    {
      dy_sql_view_show_error (self, _ ("Type a statement first, for example SELECT * FROM Blog"));
      return;
    }
  dy_sql_history_add (dy_sql_history_get_default (), text);
  run_statement (self, g_steal_pointer (&text));
}

/* The error bar's Retry: what failed, as it was run (the editor may hold another statement by
 * now; it stays as it is). */
static void
retry_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DySqlView *self = DY_SQL_VIEW (widget);
  DySqlRetry retry = self->retry;
  g_autofree char *text = NULL;

  if (self->running || retry == DY_SQL_RETRY_NONE)
    return;
  text = g_steal_pointer (&self->retry_text);
  dy_sql_view_show_error (self, NULL);
  if (retry == DY_SQL_RETRY_STATEMENT && text != NULL)
    run_statement (self, g_steal_pointer (&text));
  else if (retry == DY_SQL_RETRY_PARTIQL_FIRST || retry == DY_SQL_RETRY_PARTIQL_NEXT)
    dy_sql_partiql_retry (self, retry == DY_SQL_RETRY_PARTIQL_NEXT);
}

void
dy_sql_view_cancel (DySqlView *self)
{
  if (self->export_cancellable != NULL)
    dy_sql_export_cancel (self);
  if (!self->running)
    return;
  g_cancellable_cancel (self->cancellable);
  dy_sql_session_cancel (self->session);
  /* what comes from the cancelled Run now is dropped */
  self->serial++;
  self->cancelled = TRUE;
  self->elapsed = g_get_monotonic_time () - self->started;
  g_clear_pointer (&self->status, g_free);
  /* DynamoDB may already have the request: a write in it may be made all the same */
  if (self->partiql)
    self->status = g_strdup (_ ("Cancelled: the page’s answer is dropped (a write in the statement "
                                "may still be made)"));
  if (self->confirm_dialog != NULL)
    {
      AdwMessageDialog *dialog = g_steal_pointer (&self->confirm_dialog);

      gtk_window_destroy (GTK_WINDOW (dialog));
    }
  dy_sql_view_set_running (self, FALSE);
  dy_sql_view_update_footer (self);
}

static void
run_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_sql_view_run (DY_SQL_VIEW (widget));
}

static void
cancel_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_sql_view_cancel (DY_SQL_VIEW (widget));
}

void
dy_sql_results_init (DySqlView *self)
{
  static const guint keys[] = { GDK_KEY_Return, GDK_KEY_KP_Enter };
  GtkEventController *controller;

  /* TRANSLATORS: the button of a SQL tab's error bar. Its access key (after "_") is not that of
   * another button the tab shows (Run, Export, Load More, Cancel, Copy As, Limit, Parameters,
   * ...): Alt and a key two buttons share only moves the focus. */
  self->retry_button = dy_error_bar_add_button (
      self->error_revealer, _ ("Re_try"), "view.retry",
      _ ("Run again what failed, as it was run: the statement, or the page after the rows shown"));
  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->feed));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  controller = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  gtk_event_controller_set_name (controller, "dy-sql-run");
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_shortcut_controller_add_shortcut (
        GTK_SHORTCUT_CONTROLLER (controller),
        gtk_shortcut_new (gtk_keyval_trigger_new (keys[i], GDK_CONTROL_MASK),
                          gtk_named_action_new ("view.run")));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

void
dy_sql_results_dispose (DySqlView *self)
{
  /* answers still on their way find the widgets gone: they are dropped */
  self->serial++;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->session != NULL)
    dy_sql_session_cancel (self->session);
  if (self->confirm_dialog != NULL)
    {
      AdwMessageDialog *dialog = g_steal_pointer (&self->confirm_dialog);

      gtk_window_destroy (GTK_WINDOW (dialog));
    }
}

void
dy_sql_results_class_init (GtkWidgetClass *widget_class)
{
  /* Ctrl+Return also reaches the editor, which would take it for a new line first: the tab
   * catches it on the way down (dy_sql_results_init). */
  gtk_widget_class_install_action (widget_class, "view.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "view.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "view.cancel", NULL);
  gtk_widget_class_install_action (widget_class, "view.retry", NULL, retry_action);
}
