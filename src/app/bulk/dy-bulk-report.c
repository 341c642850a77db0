/* dy-bulk-report.c: the refusals of a bulk staging, listed in a dialog. */
#define G_LOG_DOMAIN "dynoscope-bulk"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "app/bulk/dy-bulk-report.h"
#include "app/common/dy-format.h"

/* The lines shown; a file with more bad lines says how many more there are. */
#define MAX_SHOWN 1000

char *
dy_bulk_report_text (const DdbCopyStageReport *report, guint max)
{
  GString *text = g_string_new (NULL);
  guint n = report->failures != NULL ? report->failures->len : 0;

  for (guint i = 0; i < n && i < max; i++)
    {
      const DdbExprStageFailure *failure = report->failures->pdata[i];

      if (failure->key != NULL)
        {
          for (guint a = 0; a < ddb_value_map_size (failure->key); a++)
            {
              DdbAttr *attr = ddb_value_map_nth (failure->key, a);
              g_autofree char *value = dy_format_key (attr->value);

              g_string_append_printf (text, "%s%s = %s", a > 0 ? ", " : "", attr->name, value);
            }
          g_string_append (text, ": ");
        }
      g_string_append (text, failure->message);
      g_string_append_c (text, '\n');
    }
  if (n > max)
    g_string_append_printf (text, ngettext ("… and %u more\n", "… and %u more\n", n - max),
                            n - max);
  return g_string_free (text, FALSE);
}

void
dy_bulk_report_show (GtkWidget *parent, const char *heading, const DdbCopyStageReport *report)
{
  GtkRoot *root = gtk_widget_get_root (parent);
  g_autofree char *text = dy_bulk_report_text (report, MAX_SHOWN);
  g_autofree char *body = NULL;
  GtkWidget *dialog;
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *view = gtk_text_view_new ();

  /* TRANSLATORS: how many items were refused, of how many */
  body = g_strdup_printf (ngettext ("%u item of %u was refused, so none was staged. Mend "
                                    "it and try again:",
                                    "%u items of %u were refused, so none was staged. Mend "
                                    "them and try again:",
                                    report->n_failed),
                          report->n_failed, report->n_items);
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, heading, body);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), text, -1);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 160);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 360);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_widget_set_size_request (scrolled, 480, -1);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), scrolled);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _ ("_Close"));
  gtk_widget_add_css_class (dialog, "bulk-report");
  gtk_window_present (GTK_WINDOW (dialog));
}
