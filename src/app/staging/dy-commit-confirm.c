/* dy-commit-confirm.c: the typed-name question before a commit to a production connection. */
#define G_LOG_DOMAIN "dynoscope-staging-panel"

#include <glib/gi18n.h>

#include "app/common/dy-confirm-name.h"
#include "app/staging/dy-commit-confirm.h"

#define ROWS_KEY "dy-commit-confirm-rows"

typedef struct {
  DyCommitConfirmFunc confirmed;
  GObject *data;
} Pending;

static void
pending_free (gpointer data, GClosure *closure)
{
  Pending *pending = data;

  g_clear_object (&pending->data);
  g_free (pending);
}

static void
rows_changed (AdwMessageDialog *dialog)
{
  GPtrArray *rows = g_object_get_data (G_OBJECT (dialog), ROWS_KEY);
  gboolean all = TRUE;

  for (guint i = 0; i < rows->len; i++)
    all = all && dy_confirm_name_get_confirmed (rows->pdata[i]);
  adw_message_dialog_set_response_enabled (dialog, "commit", all);
}

static void
responded (AdwMessageDialog *dialog, const char *response, Pending *pending)
{
  /* Enter in a row may answer with the default response: only whole names commit */
  if (g_str_equal (response, "commit")
      && adw_message_dialog_get_response_enabled (dialog, "commit"))
    pending->confirmed (pending->data);
}

GtkWidget *
dy_commit_confirm_present (GtkWindow *parent, DyConnection *connection,
                           const char *const *tables, guint n_changes,
                           DyCommitConfirmFunc confirmed, GObject *data)
{
  guint n_tables = g_strv_length ((GStrv) tables);
  gboolean by_connection = n_tables > DY_COMMIT_CONFIRM_MAX_TABLES;
  const char *title = dy_connection_get_title (connection);
  g_autofree char *changes = NULL;
  g_autofree char *body = NULL;
  GtkWidget *dialog;
  GtkWidget *list = gtk_list_box_new ();
  GPtrArray *rows = g_ptr_array_new ();
  Pending *pending = g_new0 (Pending, 1);

  /* TRANSLATORS: the first sentence of the production commit question */
  changes = g_strdup_printf (g_dngettext (NULL, "%u change is written to %s, a production "
                                                "connection, as soon as you commit.",
                                          "%u changes are written to %s, a production "
                                          "connection, as soon as you commit.",
                                          n_changes),
                             n_changes, title);
  if (by_connection)
    /* TRANSLATORS: the second sentence: why the connection's name is asked for */
    body = g_strdup_printf (_ ("%s They touch %u tables: type the connection’s name to "
                               "commit to all of them."),
                            changes, n_tables);
  else
    body = g_strdup_printf (g_dngettext (NULL, "%s Type the table’s name to commit.",
                                         "%s Type each table’s name to commit.", n_tables),
                            changes);
  dialog = adw_message_dialog_new (parent, _ ("Commit to Production?"), body);
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  for (guint i = 0; i < (by_connection ? 1 : n_tables); i++)
    {
      GtkWidget *row = dy_confirm_name_new (by_connection ? title : tables[i]);

      g_ptr_array_add (rows, row);
      gtk_list_box_append (GTK_LIST_BOX (list), row);
      g_signal_connect_swapped (row, "changed", G_CALLBACK (rows_changed), dialog);
    }
  g_object_set_data_full (G_OBJECT (dialog), ROWS_KEY, rows, (GDestroyNotify) g_ptr_array_unref);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), list);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"),
                                    "commit", _ ("Co_mmit"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "commit",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "commit", FALSE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  pending->confirmed = confirmed;
  pending->data = g_object_ref (data);
  g_signal_connect_data (dialog, "response", G_CALLBACK (responded), pending,
                         pending_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

GPtrArray *
dy_commit_confirm_get_rows (GtkWidget *dialog)
{
  return g_object_get_data (G_OBJECT (dialog), ROWS_KEY);
}
