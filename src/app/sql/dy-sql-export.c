/* dy-sql-export.c: export of a SQL tab's result to a file (CSV or JSON lines) on a worker, over
 * a snapshot of the rows, with progress and Cancel in the footer. A cancelled or failed export
 * leaves no file behind (nor a partial one over an older file). */
#define G_LOG_DOMAIN "dynoscope-sql"

#include <glib/gi18n.h>
#include <string.h>

#include "app/sql/dy-sql-view-private.h"
#include "core/base64.h"
#include "core/number.h"
#include "core/plainjson.h"

/* Written out each time this much is buffered. */
#define FLUSH_BYTES (64 * 1024)

typedef struct {
  GFile *file;
  DySqlExportFormat format;
  GStrv columns;
  DyRowsSnapshot *snapshot;
  guint total;
  gint done; /* rows written so far (atomic) */
} Export;

static void
export_free (Export *e)
{
  g_object_unref (e->file);
  g_strfreev (e->columns);
  dy_rows_snapshot_free (e->snapshot);
  g_free (e);
}

/* RFC 4180: quoted when it holds a separator, a quote or a line break, or when it is empty (an
 * empty unquoted cell is an absent value). */
static void
csv_text (GString *out, const char *text, gsize len)
{
  gboolean quote = len == 0 || g_ascii_isspace (text[0]) || g_ascii_isspace (text[len - 1]);

  for (gsize i = 0; i < len && !quote; i++)
    quote = text[i] == ',' || text[i] == '"' || text[i] == '\r' || text[i] == '\n';
  if (!quote)
    {
      g_string_append_len (out, text, (gssize) len);
      return;
    }
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      if (text[i] == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, text[i]);
    }
  g_string_append_c (out, '"');
}

static gboolean
csv_cell (GString *out, const DdbValue *v, GError **error)
{
  g_autofree char *text = NULL;

  switch (v->type)
    {
    case DDB_TYPE_S:
      csv_text (out, v->bytes.data, v->bytes.len);
      break;
    case DDB_TYPE_N:
      ddb_number_append (&v->number, out);
      break;
    case DDB_TYPE_B:
      text = ddb_base64_encode ((const guchar *) v->bytes.data, v->bytes.len);
      csv_text (out, text, strlen (text));
      break;
    case DDB_TYPE_BOOL:
      g_string_append (out, v->boolean ? "true" : "false");
      break;
    case DDB_TYPE_NULL:
      g_string_append (out, "null");
      break;
    default:
      /* maps, lists and sets as plain JSON (sets tagged), as json1 sees them */
      text = ddb_plain_format_value (v, DDB_PLAIN_TAGGED, error);
      if (text == NULL)
        return FALSE;
      csv_text (out, text, strlen (text));
    }
  return TRUE;
}

static gboolean
append_row (Export *e, GString *out, const DdbValue *item, GError **error)
{
  if (e->format == DY_SQL_EXPORT_JSONL)
    {
      g_autofree char *line = ddb_plain_format_item (item, DDB_PLAIN_TAGGED, error);

      if (line == NULL)
        return FALSE;
      g_string_append (out, line);
      g_string_append_c (out, '\n');
      return TRUE;
    }
  for (guint c = 0; e->columns[c] != NULL; c++)
    {
      const DdbValue *v = ddb_value_map_get (item, e->columns[c]);

      if (c > 0)
        g_string_append_c (out, ',');
      if (v != NULL && !csv_cell (out, v, error))
        return FALSE;
    }
  g_string_append (out, "\r\n");
  return TRUE;
}

static gboolean
flush (GOutputStream *stream, GString *out, GCancellable *cancellable, GError **error)
{
  gboolean ok = g_output_stream_write_all (stream, out->str, out->len, NULL, cancellable, error);

  g_string_truncate (out, 0);
  return ok;
}

static gboolean
write_rows (Export *e, GOutputStream *stream, GCancellable *cancellable, GError **error)
{
  g_autoptr (GString) out = g_string_sized_new (FLUSH_BYTES + 4096);

  if (e->format == DY_SQL_EXPORT_CSV)
    {
      for (guint c = 0; e->columns[c] != NULL; c++)
        {
          if (c > 0)
            g_string_append_c (out, ',');
          csv_text (out, e->columns[c], strlen (e->columns[c]));
        }
      g_string_append (out, "\r\n");
    }
  for (guint i = 0; i < e->total; i++)
    {
      g_autoptr (DdbValue) item = dy_rows_snapshot_read (e->snapshot, i, error);

      if (item == NULL || !append_row (e, out, item, error))
        return FALSE;
      if (out->len >= FLUSH_BYTES && !flush (stream, out, cancellable, error))
        return FALSE;
      g_atomic_int_set (&e->done, (gint) i + 1);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
    }
  return flush (stream, out, cancellable, error);
}

static void
export_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Export *e = task_data;
  gboolean existed = g_file_query_exists (e->file, cancellable);
  g_autoptr (GFileOutputStream) stream = NULL;
  GError *error = NULL;

  stream = g_file_replace (e->file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, cancellable,
                           &error);
  if (stream != NULL && write_rows (e, G_OUTPUT_STREAM (stream), cancellable, &error)
      && g_output_stream_close (G_OUTPUT_STREAM (stream), cancellable, &error))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  if (stream != NULL)
    {
      /* a replace closed cancelled keeps the older file as it was */
      g_autoptr (GCancellable) abandon = g_cancellable_new ();

      g_cancellable_cancel (abandon);
      g_output_stream_close (G_OUTPUT_STREAM (stream), abandon, NULL);
      if (!existed)
        g_file_delete (e->file, NULL, NULL);
    }
  g_task_return_error (task, error);
}

static gboolean
export_tick (gpointer data)
{
  DySqlView *self = data;
  Export *e = self->export;
  guint done = (guint) g_atomic_int_get (&e->done);
  g_autofree char *text = NULL;

  /* TRANSLATORS: export progress: rows written, of how many */
  text = g_strdup_printf (ngettext ("Exporting %u of %u row…", "Exporting %u of %u rows…", e->total),
                          done, e->total);
  gtk_progress_bar_set_text (self->progress_bar, text);
  gtk_progress_bar_set_fraction (self->progress_bar, e->total > 0 ? (double) done / e->total : 1);
  return G_SOURCE_CONTINUE;
}

static void
export_finish (DySqlView *self)
{
  g_clear_handle_id (&self->export_timer, g_source_remove);
  g_clear_object (&self->export_cancellable);
  self->export = NULL;
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button), self->running);
  dy_sql_view_update_actions (self);
}

static void
export_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DySqlView *self = DY_SQL_VIEW (source);
  Export *e = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autofree char *name = NULL;

  if (self->export != e)
    return; /* cancelled: finished then */
  export_finish (self);
  name = g_file_get_parse_name (e->file);
  g_free (self->status);
  if (g_task_propagate_boolean (G_TASK (result), &error))
    /* TRANSLATORS: after an export: rows written, the file */
    self->status = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE, "Exported %u row to %s", "Exported %u rows to %s", e->total),
        e->total, name);
  else
    {
      self->status = NULL;
      /* TRANSLATORS: %s: the file, %s: why */
      g_autofree char *message
          = g_strdup_printf (_ ("The export to %s failed: %s"), name, error->message);

      dy_sql_view_show_error (self, message);
    }
  dy_sql_view_update_footer (self);
}

void
dy_sql_view_export (DySqlView *self, GFile *file, DySqlExportFormat format)
{
  g_autoptr (GTask) task = NULL;
  Export *e;

  g_return_if_fail (DY_IS_SQL_VIEW (self));
  if (self->running || self->export_cancellable != NULL)
    return;
  e = g_new0 (Export, 1);
  e->file = g_object_ref (file);
  e->format = format;
  e->columns = g_strdupv ((char **) dy_sql_view_get_columns (self));
  e->snapshot = dy_rows_snapshot (self->rows);
  e->total = dy_rows_snapshot_get_n (e->snapshot);
  self->export = e;
  self->export_cancellable = g_cancellable_new ();
  dy_sql_view_show_error (self, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button), TRUE);
  export_tick (self);
  self->export_timer = g_timeout_add (100, export_tick, self);
  dy_sql_view_update_actions (self);
  task = g_task_new (self, self->export_cancellable, export_done, NULL);
  g_task_set_source_tag (task, dy_sql_view_export);
  g_task_set_task_data (task, e, (GDestroyNotify) export_free);
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, export_thread);
}

void
dy_sql_export_cancel (DySqlView *self)
{
  if (self->export_cancellable == NULL)
    return;
  g_cancellable_cancel (self->export_cancellable);
  export_finish (self);
  g_free (self->status);
  self->status = g_strdup (_ ("Export cancelled: no file was written"));
  if (self->footer_label != NULL)
    dy_sql_view_update_footer (self);
}

static void
export_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  DySqlView *self = DY_SQL_VIEW (user_data);
  DySqlExportFormat format = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "format"));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        dy_sql_view_export (self, file, format);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
export_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  gboolean jsonl = g_strcmp0 (g_variant_get_string (parameter, NULL), "jsonl") == 0;
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *dialog;
  GtkFileFilter *filter = gtk_file_filter_new ();

  dialog = gtk_file_chooser_native_new (jsonl ? _ ("Export as JSON Lines") : _ ("Export as CSV"),
                                        GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), _ ("_Cancel"));
  gtk_file_filter_set_name (filter, jsonl ? _ ("JSON lines") : _ ("CSV"));
  gtk_file_filter_add_pattern (filter, jsonl ? "*.jsonl" : "*.csv");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_object_unref (filter);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog),
                                     jsonl ? "result.jsonl" : "result.csv");
  g_object_set_data (G_OBJECT (dialog), "format",
                     GINT_TO_POINTER (jsonl ? DY_SQL_EXPORT_JSONL : DY_SQL_EXPORT_CSV));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (export_response), g_object_ref (widget));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
dy_sql_export_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "view.export", "s", export_action);
}
