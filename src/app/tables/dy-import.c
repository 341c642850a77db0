/* dy-import.c: the Import Snapshot dialog (see dy-import.h). */
#define G_LOG_DOMAIN "dynoscope-import"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "app/common/dy-format.h"
#include "app/tables/dy-import-private.h"
#include "backend/transfer.h"
#include "core/error.h"

/* How often the progress shown is brought up to date. */
#define PROGRESS_INTERVAL_MS 100

struct _DyImportDialog {
  AdwWindow parent_instance;

  GtkStack *stack;
  GtkButton *cancel_button;
  GtkButton *import_button;
  GtkRevealer *error_revealer;
  GtkLabel *error_label;
  AdwActionRow *source_row;
  GtkImage *source_icon;
  AdwEntryRow *table_entry;
  AdwComboRow *database_row;
  AdwEntryRow *key_entry;
  AdwStatusPage *progress_page;
  GtkProgressBar *progress_bar;
  GtkLabel *progress_label;
  GtkLabel *rate_label;

  DyWindow *window;
  char *source;
  DyImportSource *from; /* the source with the session an s3:// one is read with */
  GPtrArray *databases;      /* DyConnection, entry i + 1 of the database row */
  GCancellable *cancellable; /* of the running import */
  GCancellable *inspect_cancellable;
  char *error;
  gboolean running;
  gboolean close_when_stopped;
  gboolean disposed; /* answers may come after the widgets or the main window are gone */
  gboolean inspected;
  guint progress_timer;

  /* Written by the import's thread, read by the progress timer. */
  GMutex lock;
  DdbSnapshotProgress progress;
  gboolean have_progress;
};

G_DEFINE_FINAL_TYPE (DyImportDialog, dy_import_dialog, ADW_TYPE_WINDOW)

/* The form. */

static void
set_error (DyImportDialog *self, const char *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_revealer_set_reveal_child (self->error_revealer, message != NULL);
}

static DyConnection *
selected_database (DyImportDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->database_row);

  if (selected == GTK_INVALID_LIST_POSITION || selected == 0 || selected > self->databases->len)
    return NULL;
  return g_ptr_array_index (self->databases, selected - 1);
}

static char *
new_database_folder (void)
{
  return g_build_filename (g_get_user_data_dir (), "dynoscope", NULL);
}

/* NAME.db in FOLDER, or NAME-2.db... when taken. */
static char *
unused_database_path (const char *folder, const char *name)
{
  for (guint i = 1;; i++)
    {
      g_autofree char *file
          = i == 1 ? g_strdup_printf ("%s.db", name) : g_strdup_printf ("%s-%u.db", name, i);
      char *path = g_build_filename (folder, file, NULL);

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        return path;
      g_free (path);
    }
}

/* A path for people: the home folder as "~". */
static char *
display_path (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize n = strlen (home);

  if (n > 1 && g_str_has_prefix (path, home) && path[n] == G_DIR_SEPARATOR)
    return g_strconcat ("~", path + n, NULL);
  return g_strdup (path);
}

static void
form_changed (DyImportDialog *self)
{
  const char *table = gtk_editable_get_text (GTK_EDITABLE (self->table_entry));
  const char *key = gtk_editable_get_text (GTK_EDITABLE (self->key_entry));
  gboolean table_ok = dy_import_valid_table_name (table);
  gboolean key_ok = *key == '\0' || ddb_snapshot_check_key_spec (key, FALSE, NULL);
  DyConnection *database = selected_database (self);
  g_autofree char *where = NULL;

  if (table_ok || *table == '\0')
    gtk_widget_remove_css_class (GTK_WIDGET (self->table_entry), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->table_entry), "error");
  if (key_ok)
    gtk_widget_remove_css_class (GTK_WIDGET (self->key_entry), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->key_entry), "error");
  if (database != NULL)
    where = display_path (dy_connection_get_path (database));
  else
    {
      g_autofree char *folder = new_database_folder ();
      /* the file the import will make: NAME-2.db... when NAME.db is taken */
      g_autofree char *path = unused_database_path (folder, table_ok ? table : _ ("TABLE"));

      where = display_path (path);
    }
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->database_row), where);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "import.start",
                                 table_ok && key_ok && !self->running);
}

static void
inspect_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyImportDialog) self = user_data;
  DyImportInspection *inspection = g_task_propagate_pointer (G_TASK (result), NULL);

  if (inspection == NULL)
    return; /* cancelled: the dialog went away */
  if (self->disposed)
    {
      /* it finished just before the dialog went */
      dy_import_inspection_free (inspection);
      return;
    }
  self->inspected = TRUE;
  if (self->from->incrementals != NULL)
    {
      guint n = g_strv_length (self->from->incrementals);
      g_autofree char *with = g_strdup_printf (
          /* TRANSLATORS: %s describes the full export, %u counts the exports applied on top */
          g_dngettext (NULL, "%s · then %u incremental export", "%s · then %u incremental exports",
                       n),
          inspection->description, n);

      adw_action_row_set_subtitle (self->source_row, with);
    }
  else
    adw_action_row_set_subtitle (self->source_row, inspection->description);
  gtk_image_set_from_icon_name (self->source_icon, inspection->icon);
  if (inspection->table != NULL
      && *gtk_editable_get_text (GTK_EDITABLE (self->table_entry)) == '\0')
    gtk_editable_set_text (GTK_EDITABLE (self->table_entry), inspection->table);
  dy_import_inspection_free (inspection);
  form_changed (self);
}

static void
entry_activated (DyImportDialog *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "import.start", NULL);
}

/* The error as the dialog shows it: DynamoDB's error name and message, and what to do. */
static char *
describe_error (const GError *error)
{
  const char *hint = NULL;
  const char *name = NULL;

  if (error->domain == DDB_ERROR)
    {
      name = ddb_error_type_name (error->code);
      if (error->code == DDB_ERROR_RESOURCE_IN_USE)
        hint = _ ("Choose another table name, or import into a new database.");
      else if (strstr (error->message, "key schema") != NULL)
        hint = _ ("Give the key schema below, as pk:S or pk:S,sk:N.");
      else if (error->code == DDB_ERROR_VALIDATION)
        hint = _ ("The snapshot holds an item DynamoDB would refuse, at the file and line named: "
                  "fix it, or give another key schema.");
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND)
           || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
    hint = _ ("Check that the snapshot is still there and can be read.");
  return g_strdup_printf ("%s%s%s%s%s", name != NULL ? name : "", name != NULL ? ": " : "",
                          error->message, hint != NULL ? "\n" : "", hint != NULL ? hint : "");
}

/* The import. */

typedef struct {
  DyImportSource *source;
  char *table;
  char *key;                /* NULL: from the snapshot */
  char *database;           /* an open database's file; NULL: a new database */
  gboolean read_only;       /* that database's connection is read-only: refused */
  char *new_path;           /* out: the new database */
  DyConnection *connection; /* out: the new database's connection */
  DdbSnapshotProgress final;
} ImportJob;

static void
import_job_free (ImportJob *job)
{
  dy_import_source_free (job->source);
  g_free (job->table);
  g_free (job->key);
  g_free (job->database);
  g_free (job->new_path);
  g_clear_object (&job->connection);
  g_free (job);
}

static void
import_progress (const DdbSnapshotProgress *progress, gpointer user_data)
{
  DyImportDialog *self = user_data;

  g_mutex_lock (&self->lock);
  self->progress = *progress;
  self->have_progress = TRUE;
  g_mutex_unlock (&self->lock);
}

static gboolean
import_into (const char *db_path, ImportJob *job, DyImportDialog *self, GCancellable *cancellable,
             GError **error)
{
  DdbImportOptions options = {
    .table_name = job->table,
    .format = DDB_SNAPSHOT_AUTO,
    .key = job->key,
    .progress = import_progress,
    .progress_data = self,
    .cancellable = cancellable,
  };

  return dy_import_run (job->source, db_path, job->read_only, &options, &job->final, error);
}

static void
import_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DyImportDialog *self = source;
  ImportJob *job = task_data;
  GError *error = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *part = NULL;
  g_autofree char *title = NULL;
  DdbBackend *backend;

  if (job->database != NULL)
    {
      /* A second engine on the file: the import is one transaction of its own, and the
       * connection's engine sees the table once it commits. */
      if (!g_file_test (job->database, G_FILE_TEST_IS_REGULAR))
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                 _ ("%s: no such database file"), job->database);
      else if (!import_into (job->database, job, self, cancellable, &error))
        g_task_return_error (task, error);
      else
        g_task_return_boolean (task, TRUE);
      return;
    }

  /* A new database is built under another name and renamed into place, so that a cancelled
   * or failed import leaves no file behind and a half-made one is never opened. */
  folder = new_database_folder ();
  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      int saved = errno;

      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", folder,
                               g_strerror (saved));
      return;
    }
  job->new_path = unused_database_path (folder, job->table);
  part = g_strconcat (job->new_path, ".part", NULL);
  ddb_engine_remove_files (part);
  if (!import_into (part, job, self, cancellable, &error))
    {
      ddb_engine_remove_files (part);
      g_task_return_error (task, error);
      return;
    }
  if (g_rename (part, job->new_path) != 0)
    {
      int saved = errno;

      ddb_engine_remove_files (part);
      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s",
                               job->new_path, g_strerror (saved));
      return;
    }
  ddb_engine_remove_files (part); /* a -wal or -shm the engine left */
  backend = ddb_backend_open_database (job->new_path, &error);
  if (backend == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  title = g_path_get_basename (job->new_path);
  job->connection = dy_connection_new (title, job->new_path, backend);
  g_task_return_boolean (task, TRUE);
}

static void
update_progress (DyImportDialog *self)
{
  DdbSnapshotProgress p;
  gboolean have;
  g_autofree char *bytes = NULL;
  g_autofree char *total = NULL;
  g_autofree char *rate = NULL;
  g_autofree char *items = NULL;
  g_autofree char *text = NULL;
  g_autofree char *rate_text = NULL;

  g_mutex_lock (&self->lock);
  p = self->progress;
  have = self->have_progress;
  g_mutex_unlock (&self->lock);
  if (!have)
    {
      gtk_progress_bar_pulse (self->progress_bar);
      return;
    }
  bytes = dy_format_size (p.bytes);
  items = dy_format_count (p.items);
  if (p.total_bytes > 0)
    {
      total = dy_format_size (p.total_bytes);
      gtk_progress_bar_set_fraction (self->progress_bar,
                                     MIN (1.0, (double) p.bytes / (double) p.total_bytes));
      /* TRANSLATORS: import progress: items read, bytes read of the source's size */
      text = g_strdup_printf (ngettext ("%s item · %s of %s", "%s items · %s of %s",
                                        (gulong) p.items),
                              items, bytes, total);
    }
  else
    {
      gtk_progress_bar_pulse (self->progress_bar);
      /* TRANSLATORS: import progress: items read, bytes read */
      text = g_strdup_printf (ngettext ("%s item · %s", "%s items · %s", (gulong) p.items), items,
                              bytes);
    }
  if (p.total_files > 0)
    {
      char *with_files;

      /* TRANSLATORS: the import progress above, then data files read to their end, in all:
       * "120 items · 3 MB of 9 MB · 1/3 files" */
      with_files = g_strdup_printf (ngettext ("%s · %u/%u file", "%s · %u/%u files",
                                              p.total_files),
                                    text, p.files, p.total_files);
      g_free (text);
      text = with_files;
    }
  rate = dy_format_size ((guint64) p.bytes_per_second);
  /* TRANSLATORS: import rate: items a second, bytes a second */
  rate_text = g_strdup_printf (_ ("%'.0f items/s · %s/s"), p.items_per_second, rate);
  gtk_label_set_text (self->progress_label, text);
  gtk_label_set_text (self->rate_label, rate_text);
}

static gboolean
progress_tick (gpointer user_data)
{
  update_progress (DY_IMPORT_DIALOG (user_data));
  return G_SOURCE_CONTINUE;
}

static void
stop_progress (DyImportDialog *self)
{
  g_clear_handle_id (&self->progress_timer, g_source_remove);
}

/* Once the new table is listed, selects it in the sidebar and opens it. */
typedef struct {
  GWeakRef window;
  DyConnection *connection;
  char *table;
  gulong handler;
  guint idle;
} Reveal;

static void
reveal_free (gpointer data, GClosure *closure)
{
  Reveal *reveal = data;

  g_clear_handle_id (&reveal->idle, g_source_remove);
  g_weak_ref_clear (&reveal->window);
  g_object_unref (reveal->connection);
  g_free (reveal->table);
  g_free (reveal);
}

static gboolean
reveal_try (gpointer data)
{
  Reveal *reveal = data;
  g_autoptr (DyWindow) window = g_weak_ref_get (&reveal->window);
  GListModel *tables = dy_connection_get_tables (reveal->connection);

  reveal->idle = 0;
  if (window == NULL)
    {
      g_signal_handler_disconnect (tables, reveal->handler); /* frees REVEAL */
      return G_SOURCE_REMOVE;
    }
  if (dy_window_select_table (window, reveal->connection, reveal->table))
    {
      dy_window_open_table (window, reveal->connection, reveal->table);
      g_signal_handler_disconnect (tables, reveal->handler);
    }
  return G_SOURCE_REMOVE;
}

/* After the sidebar's tree model has seen the change too. */
static void
reveal_tables_changed (GListModel *tables, guint position, guint removed, guint added,
                       Reveal *reveal)
{
  if (reveal->idle == 0)
    reveal->idle = g_idle_add (reveal_try, reveal);
}

static void
reveal_table (DyWindow *window, DyConnection *connection, const char *table)
{
  Reveal *reveal = g_new0 (Reveal, 1);

  g_weak_ref_init (&reveal->window, window);
  reveal->connection = g_object_ref (connection);
  reveal->table = g_strdup (table);
  reveal->handler
      = g_signal_connect_data (dy_connection_get_tables (connection), "items-changed",
                               G_CALLBACK (reveal_tables_changed), reveal, reveal_free, 0);
}

static void
set_running (DyImportDialog *self, gboolean running)
{
  self->running = running;
  gtk_widget_set_visible (GTK_WIDGET (self->import_button), !running);
  gtk_stack_set_visible_child_name (self->stack, running ? "progress" : "form");
  form_changed (self);
}

static void
import_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyImportDialog *self = DY_IMPORT_DIALOG (source);
  ImportJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  stop_progress (self);
  g_clear_object (&self->cancellable);
  self->running = FALSE;
  if (self->disposed)
    {
      /* Destroyed with the main window: the import was cancelled, or had just finished (a new
       * database then stays in the app's data folder, whole). */
      if (!g_task_propagate_boolean (G_TASK (result), &error)
          && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("import of %s after its dialog closed: %s", job->source->source,
                   error->message);
      return;
    }
  set_running (self, FALSE);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* The import was one transaction: nothing of it is left. */
          if (self->close_when_stopped)
            gtk_window_destroy (GTK_WINDOW (self));
          else
            set_error (self, _ ("The import was cancelled: nothing was imported."));
          return;
        }
      g_autofree char *message = describe_error (error);

      set_error (self, message);
      if (self->close_when_stopped)
        gtk_window_destroy (GTK_WINDOW (self));
      return;
    }

  if (job->connection != NULL)
    {
      reveal_table (self->window, job->connection, job->table);
      dy_window_add_database (self->window, job->connection);
    }
  else
    {
      DyConnection *database
          = dy_window_find_connection (self->window, DY_CONNECTION_DATABASE, job->database);

      if (database != NULL)
        {
          reveal_table (self->window, database, job->table);
          dy_connection_refresh_tables (database);
        }
    }
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
start_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyImportDialog *self = DY_IMPORT_DIALOG (widget);
  const char *table = gtk_editable_get_text (GTK_EDITABLE (self->table_entry));
  const char *key = gtk_editable_get_text (GTK_EDITABLE (self->key_entry));
  DyConnection *database = selected_database (self);
  g_autoptr (GTask) task = NULL;
  g_autofree char *title = NULL;
  g_autofree char *base = g_path_get_basename (self->source);
  ImportJob *job;

  if (self->running || !dy_import_valid_table_name (table)
      || (*key != '\0' && !ddb_snapshot_check_key_spec (key, FALSE, NULL)))
    return;
  if (database != NULL && dy_connection_get_read_only (database))
    {
      g_autofree char *reason = dy_connection_dup_read_only_reason (database);

      set_error (self, reason);
      return;
    }
  job = g_new0 (ImportJob, 1);
  job->source = dy_import_source_new (self->from->source, self->from->profile,
                                     self->from->region);
  job->source->incrementals = g_strdupv (self->from->incrementals);
  job->table = g_strdup (table);
  job->key = *key != '\0' ? g_strdup (key) : NULL;
  job->database = database != NULL ? g_strdup (dy_connection_get_path (database)) : NULL;
  job->read_only = database != NULL && dy_connection_get_read_only (database);

  set_error (self, NULL);
  g_mutex_lock (&self->lock);
  self->have_progress = FALSE;
  g_mutex_unlock (&self->lock);
  /* TRANSLATORS: %s is the name of the table being imported */
  title = g_strdup_printf (_ ("Importing “%s”"), table);
  adw_status_page_set_title (self->progress_page, title);
  adw_status_page_set_description (self->progress_page, base);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_label_set_text (self->progress_label, _ ("Reading the snapshot…"));
  gtk_label_set_text (self->rate_label, "");
  set_running (self, TRUE);
  self->progress_timer = g_timeout_add (PROGRESS_INTERVAL_MS, progress_tick, self);

  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, import_done, NULL);
  g_task_set_source_tag (task, start_action);
  g_task_set_task_data (task, job, (GDestroyNotify) import_job_free);
  /* The cancellable is checked by the import itself: its error must come from there, after
   * the transaction is rolled back. */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, import_thread);
}

static void
cancel_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyImportDialog *self = DY_IMPORT_DIALOG (widget);

  if (self->running)
    {
      self->close_when_stopped = TRUE;
      gtk_label_set_text (self->progress_label, _ ("Cancelling…"));
      gtk_widget_action_set_enabled (widget, "import.cancel", FALSE);
      g_cancellable_cancel (self->cancellable);
    }
  else
    gtk_window_destroy (GTK_WINDOW (self));
}

static gboolean
dy_import_dialog_close_request (GtkWindow *window)
{
  DyImportDialog *self = DY_IMPORT_DIALOG (window);

  /* Closing while importing is Cancel: the dialog goes once the import has stopped. */
  if (self->running)
    {
      cancel_action (GTK_WIDGET (self), "import.cancel", NULL);
      return TRUE;
    }
  return GTK_WINDOW_CLASS (dy_import_dialog_parent_class)->close_request (window);
}

/* Destroyed with the main window while importing: the import stops, leaving nothing behind. */
static void
dy_import_dialog_unrealize (GtkWidget *widget)
{
  DyImportDialog *self = DY_IMPORT_DIALOG (widget);

  /* the main window may be going too: what the import ends with touches neither */
  self->disposed = TRUE;
  if (self->running)
    {
      self->close_when_stopped = TRUE;
      g_cancellable_cancel (self->cancellable);
    }
  GTK_WIDGET_CLASS (dy_import_dialog_parent_class)->unrealize (widget);
}

/* GObject. */

static void
dy_import_dialog_dispose (GObject *object)
{
  DyImportDialog *self = DY_IMPORT_DIALOG (object);

  self->disposed = TRUE;
  stop_progress (self);
  g_cancellable_cancel (self->inspect_cancellable);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_IMPORT_DIALOG);
  G_OBJECT_CLASS (dy_import_dialog_parent_class)->dispose (object);
}

static void
dy_import_dialog_finalize (GObject *object)
{
  DyImportDialog *self = DY_IMPORT_DIALOG (object);

  g_clear_object (&self->window);
  g_clear_pointer (&self->databases, g_ptr_array_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->inspect_cancellable);
  g_free (self->source);
  g_clear_pointer (&self->from, dy_import_source_free);
  g_free (self->error);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (dy_import_dialog_parent_class)->finalize (object);
}

static void
dy_import_dialog_class_init (DyImportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dy_import_dialog_dispose;
  object_class->finalize = dy_import_dialog_finalize;
  GTK_WINDOW_CLASS (klass)->close_request = dy_import_dialog_close_request;
  widget_class->unrealize = dy_import_dialog_unrealize;

  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/dynoscope/Dynoscope/dy-import-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DyImportDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, DyImportDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, DyImportDialog, import_button);
  gtk_widget_class_bind_template_child (widget_class, DyImportDialog, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, DyImportDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, DyImportDialog, source_row);
  gtk_widget_class_bind_template_child (widget_class, DyImportDialog, source_icon);
  gtk_widget_class_bind_template_child (widget_class, DyImportDialog, table_entry);
  gtk_widget_class_bind_template_child (widget_class, DyImportDialog, database_row);
  gtk_widget_class_bind_template_child (widget_class, DyImportDialog, key_entry);
  gtk_widget_class_bind_template_child (widget_class, DyImportDialog, progress_page);
  gtk_widget_class_bind_template_child (widget_class, DyImportDialog, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DyImportDialog, progress_label);
  gtk_widget_class_bind_template_child (widget_class, DyImportDialog, rate_label);
  gtk_widget_class_bind_template_callback (widget_class, form_changed);
  gtk_widget_class_bind_template_callback (widget_class, entry_activated);

  gtk_widget_class_install_action (widget_class, "import.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "import.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "import.cancel", NULL);
}

static void
dy_import_dialog_init (DyImportDialog *self)
{
  g_mutex_init (&self->lock);
  self->databases = g_ptr_array_new_with_free_func (g_object_unref);
  self->inspect_cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* "manifest-summary.json" chosen as a file stands for its export folder. */
static char *
import_source (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);

  if (g_str_equal (base, "manifest-summary.json"))
    return g_path_get_dirname (path);
  return g_strdup (path);
}

DyImportDialog *
dy_import_dialog_new (DyWindow *window, const char *source)
{
  return dy_import_dialog_new_for_export (window, source, NULL, NULL);
}

/* Looking at the source. */
static void
inspect_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  g_task_return_pointer (task, dy_import_inspect (task_data, cancellable),
                         (GDestroyNotify) dy_import_inspection_free);
}

DyImportDialog *
dy_import_dialog_new_for_export (DyWindow *window, const char *source, DyConnection *connection,
                                 const char *key_spec)
{
  DyImportDialog *self = g_object_new (DY_TYPE_IMPORT_DIALOG, "transient-for", window, NULL);
  GListModel *connections = dy_window_get_connections (window);
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);
  g_autoptr (GTask) task = NULL;
  g_autofree char *base = NULL;
  gboolean s3 = g_str_has_prefix (source, "s3://");

  self->window = g_object_ref (window);
  self->source = s3 ? g_strdup (source) : import_source (source);
  /* An export in a bucket is read with the session of the connection it came from, else as
   * the environment says (AWS_PROFILE, AWS_REGION, AWS_ENDPOINT_URL_S3, ...). */
  self->from = dy_import_source_new (
      self->source,
      connection != NULL && dy_connection_get_kind (connection) == DY_CONNECTION_PROFILE
          ? dy_connection_get_profile (connection)
          : NULL,
      connection != NULL ? dy_connection_get_region (connection) : NULL);
  base = s3 ? g_strdup (self->source) : g_path_get_basename (self->source);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->source_row), base);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->source_row), self->source);
  /* Looking at the file system or the bucket may block: it is done on a thread. */
  adw_action_row_set_subtitle (self->source_row, _ ("Looking at the snapshot…"));
  if (key_spec != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->key_entry), key_spec);

  gtk_string_list_append (names, _ ("New Database"));
  for (guint i = 0; i < g_list_model_get_n_items (connections); i++)
    {
      g_autoptr (DyConnection) c = g_list_model_get_item (connections, i);

      if (dy_connection_get_kind (c) == DY_CONNECTION_DATABASE
          && dy_connection_get_path (c) != NULL)
        {
          gtk_string_list_append (names, dy_connection_get_title (c));
          g_ptr_array_add (self->databases, g_object_ref (c));
        }
    }
  adw_combo_row_set_model (self->database_row, G_LIST_MODEL (names));
  adw_combo_row_set_selected (self->database_row, 0);
  form_changed (self);

  task = g_task_new (NULL, self->inspect_cancellable, inspect_done, g_object_ref (self));
  g_task_set_source_tag (task, dy_import_dialog_new_for_export);
  g_task_set_task_data (task,
                        dy_import_source_new (self->from->source, self->from->profile,
                                              self->from->region),
                        (GDestroyNotify) dy_import_source_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, inspect_thread);

  gtk_window_present (GTK_WINDOW (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->table_entry));
  return self;
}

void
dy_import_dialog_set_incrementals (DyImportDialog *self, const char *const *urls)
{
  g_return_if_fail (DY_IS_IMPORT_DIALOG (self));
  g_strfreev (self->from->incrementals);
  self->from->incrementals = urls != NULL && urls[0] != NULL ? g_strdupv ((char **) urls) : NULL;
}

const char *const *
dy_import_dialog_get_incrementals (DyImportDialog *self)
{
  return (const char *const *) self->from->incrementals;
}

const char *
dy_import_dialog_get_source (DyImportDialog *self)
{
  return self->source;
}

gboolean
dy_import_dialog_get_running (DyImportDialog *self)
{
  return self->running;
}

const char *
dy_import_dialog_get_error (DyImportDialog *self)
{
  return self->error;
}

gboolean
dy_import_dialog_get_inspected (DyImportDialog *self)
{
  return self->inspected;
}

/* Choosing the source. */

static void
choose_response (GtkNativeDialog *chooser, int response, gpointer user_data)
{
  DyWindow *window = DY_WINDOW (user_data);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        dy_import_dialog_new (window, path);
    }
  g_object_unref (chooser);
  g_object_unref (window);
}

void
dy_import_choose (DyWindow *window, gboolean folder)
{
  GtkFileChooserNative *chooser;

  if (folder)
    chooser = gtk_file_chooser_native_new (_ ("Import DynamoDB Export to S3"), GTK_WINDOW (window),
                                           GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _ ("_Select"),
                                           _ ("_Cancel"));
  else
    {
      GtkFileFilter *filter = gtk_file_filter_new ();
      GtkFileFilter *all = gtk_file_filter_new ();
      static const char *patterns[] = { "*.json",    "*.jsonl",    "*.ndjson",    "*.csv",
                                        "*.json.gz", "*.jsonl.gz", "*.ndjson.gz", "*.csv.gz" };

      chooser
          = gtk_file_chooser_native_new (_ ("Import Snapshot"), GTK_WINDOW (window),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Open"), _ ("_Cancel"));
      gtk_file_filter_set_name (filter, _ ("Snapshots (DynamoDB JSON, JSON, CSV, S3 export "
                                           "manifests)"));
      for (gsize i = 0; i < G_N_ELEMENTS (patterns); i++)
        gtk_file_filter_add_pattern (filter, patterns[i]);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
      gtk_file_filter_set_name (all, _ ("All files"));
      gtk_file_filter_add_pattern (all, "*");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
      g_object_unref (filter);
      g_object_unref (all);
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (choose_response), g_object_ref (window));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* An export in a bucket: its s3:// URL asked for. */

static void
s3_url_changed (GtkEditable *entry, AdwMessageDialog *dialog)
{
  const char *url = gtk_editable_get_text (entry);

  adw_message_dialog_set_response_enabled (dialog, "open", g_str_has_prefix (url, "s3://")
                                                               && strlen (url) > 5);
}

static void
s3_url_response (AdwMessageDialog *dialog, const char *response, DyWindow *window)
{
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "url-entry");

  if (g_str_equal (response, "open"))
    dy_import_dialog_new (window, gtk_editable_get_text (entry));
}

static void
s3_url_activated (GtkEntry *entry, AdwMessageDialog *dialog)
{
  if (adw_message_dialog_get_response_enabled (dialog, "open"))
    {
      adw_message_dialog_response (dialog, "open");
      gtk_window_close (GTK_WINDOW (dialog));
    }
}

void
dy_import_choose_s3 (DyWindow *window)
{
  GtkWidget *dialog = adw_message_dialog_new (
      GTK_WINDOW (window), _ ("Import an Export from S3"),
      _ ("The export’s folder in its bucket (…/AWSDynamoDB/ID), its manifest-summary.json, or "
         "a prefix holding one export. It is read with the credentials, region and S3 endpoint "
         "the AWS CLI would use (AWS_PROFILE, AWS_ENDPOINT_URL_S3, …)."));
  GtkWidget *entry = gtk_entry_new ();

  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), "s3://bucket/prefix/AWSDynamoDB/ID");
  gtk_entry_set_activates_default (GTK_ENTRY (entry), FALSE);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "open",
                                    _ ("_Open"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "open",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "open", FALSE);
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data (G_OBJECT (dialog), "url-entry", entry);
  g_signal_connect (entry, "changed", G_CALLBACK (s3_url_changed), dialog);
  g_signal_connect (entry, "activate", G_CALLBACK (s3_url_activated), dialog);
  g_signal_connect_object (dialog, "response", G_CALLBACK (s3_url_response), window, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
}
