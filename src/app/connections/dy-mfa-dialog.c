/* dy-mfa-dialog.c: the MFA code dialog, and the prompt function that shows it from a worker
 * thread (g_main_context_invoke, then a wait on a condition until the person answers, cancels,
 * or the request is cancelled). */
#define G_LOG_DOMAIN "dynoscope-mfa"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "app/connections/dy-mfa-dialog.h"
#include "net/awsconfig.h"
#include "net/hash.h"

/* AWS MFA devices (virtual and hardware TOTP) give six digits. */
#define MFA_CODE_LENGTH 6

typedef struct {
  gint ref;
  GMutex lock;
  GCond cond;
  gboolean done;      /* the person answered (CODE set) or cancelled (CODE NULL) */
  gboolean abandoned; /* the request gave up waiting: close the dialog */
  char *profile;
  char *serial;
  char *code;
  GtkWidget *dialog; /* main thread only */
} Prompt;

static GtkWidget *current_dialog; /* main thread only */

static Prompt *
prompt_ref (Prompt *p)
{
  g_atomic_int_inc (&p->ref);
  return p;
}

static void
prompt_unref (gpointer data)
{
  Prompt *p = data;

  if (!g_atomic_int_dec_and_test (&p->ref))
    return;
  g_mutex_clear (&p->lock);
  g_cond_clear (&p->cond);
  g_free (p->profile);
  g_free (p->serial);
  ddb_secret_free (p->code);
  g_free (p);
}

GtkWidget *
dy_mfa_dialog_get_current (void)
{
  return current_dialog;
}

GtkEditable *
dy_mfa_dialog_get_entry (GtkWidget *dialog)
{
  return GTK_EDITABLE (g_object_get_data (G_OBJECT (dialog), "entry"));
}

static gboolean
code_is_complete (const char *text)
{
  if (strlen (text) != MFA_CODE_LENGTH)
    return FALSE;
  for (const char *c = text; *c != '\0'; c++)
    if (!g_ascii_isdigit (*c))
      return FALSE;
  return TRUE;
}

static void
entry_changed (GtkEditable *entry, AdwMessageDialog *dialog)
{
  adw_message_dialog_set_response_enabled (dialog, "ok",
                                           code_is_complete (gtk_editable_get_text (entry)));
}

/* Answers RESPONSE and closes DIALOG, as its buttons do (adw_message_dialog_response alone
 * leaves it open). */
static void
respond_and_close (AdwMessageDialog *dialog, const char *response)
{
  g_object_ref (dialog);
  adw_message_dialog_response (dialog, response);
  gtk_window_close (GTK_WINDOW (dialog));
  g_object_unref (dialog);
}

static void
entry_activate (GtkEntry *entry, AdwMessageDialog *dialog)
{
  if (adw_message_dialog_get_response_enabled (dialog, "ok"))
    respond_and_close (dialog, "ok");
}

/* Only digits go in: a code pasted with spaces ("123 456") keeps its digits. */
static void
entry_insert_text (GtkEditable *editable, const char *text, int length, int *position,
                   gpointer user_data)
{
  g_autoptr (GString) digits = g_string_new (NULL);
  size_t len = length < 0 ? strlen (text) : (size_t) length;

  for (size_t i = 0; i < len; i++)
    if (g_ascii_isdigit (text[i]))
      g_string_append_c (digits, text[i]);
  if (digits->len == len)
    return;
  g_signal_handlers_block_by_func (editable, entry_insert_text, user_data);
  gtk_editable_insert_text (editable, digits->str, (int) digits->len, position);
  g_signal_handlers_unblock_by_func (editable, entry_insert_text, user_data);
  g_signal_stop_emission_by_name (editable, "insert-text");
}

static void
dialog_response (AdwMessageDialog *dialog, const char *response, Prompt *p)
{
  GtkEditable *entry = dy_mfa_dialog_get_entry (GTK_WIDGET (dialog));

  g_mutex_lock (&p->lock);
  if (!p->done && g_strcmp0 (response, "ok") == 0)
    p->code = g_strdup (gtk_editable_get_text (entry));
  p->done = TRUE;
  g_cond_broadcast (&p->cond);
  g_mutex_unlock (&p->lock);
  gtk_editable_set_text (entry, "");
  if (current_dialog == GTK_WIDGET (dialog))
    current_dialog = NULL;
  p->dialog = NULL;
}

static GtkWindow *
active_window (void)
{
  GApplication *app = g_application_get_default ();

  return GTK_IS_APPLICATION (app) ? gtk_application_get_active_window (GTK_APPLICATION (app))
                                  : NULL;
}

static gboolean
show_dialog (gpointer data)
{
  Prompt *p = data;
  GtkWidget *dialog;
  GtkWidget *entry;
  g_autofree char *body = NULL;

  if (p->abandoned)
    return G_SOURCE_REMOVE;
  /* TRANSLATORS: %s is the MFA device's serial number or ARN, then the AWS profile's name */
  body = g_strdup_printf (_("Enter the MFA code for %s (profile %s)."), p->serial, p->profile);
  /* TRANSLATORS: the heading of the dialog asking for a multi-factor authentication code */
  dialog = adw_message_dialog_new (active_window (), _("MFA Code Required"), body);
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "ok", _("_OK"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "ok",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "ok");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "ok", FALSE);

  entry = gtk_entry_new ();
  gtk_entry_set_input_purpose (GTK_ENTRY (entry), GTK_INPUT_PURPOSE_DIGITS);
  gtk_entry_set_max_length (GTK_ENTRY (entry), MFA_CODE_LENGTH);
  /* TRANSLATORS: placeholder of the MFA code entry */
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("6-digit code"));
  gtk_editable_set_alignment (GTK_EDITABLE (entry), 0.5);
  gtk_widget_add_css_class (entry, "title-2");
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("MFA code"), -1);
  g_signal_connect (gtk_editable_get_delegate (GTK_EDITABLE (entry)), "insert-text",
                    G_CALLBACK (entry_insert_text), NULL);
  g_signal_connect (entry, "changed", G_CALLBACK (entry_changed), dialog);
  g_signal_connect (entry, "activate", G_CALLBACK (entry_activate), dialog);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  g_object_set_data (G_OBJECT (dialog), "entry", entry);

  g_signal_connect_data (dialog, "response", G_CALLBACK (dialog_response), prompt_ref (p),
                         (GClosureNotify) (void (*) (void)) prompt_unref, 0);
  p->dialog = dialog;
  current_dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
  return G_SOURCE_REMOVE;
}

/* The request gave up: the dialog goes away as if cancelled. */
static gboolean
close_dialog (gpointer data)
{
  Prompt *p = data;
  GtkWidget *dialog = p->dialog;

  if (dialog != NULL)
    respond_and_close (ADW_MESSAGE_DIALOG (dialog), "cancel");
  return G_SOURCE_REMOVE;
}

char *
dy_mfa_prompt (const char *profile, const char *mfa_serial, gpointer user_data,
               GCancellable *cancellable, GError **error)
{
  Prompt *p;
  char *code = NULL;

  if (g_main_context_is_owner (g_main_context_default ()))
    {
      /* Waiting here would freeze the window that has to ask. */
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           "The MFA prompt was called on the main thread");
      g_return_val_if_reached (NULL);
    }
  p = g_new0 (Prompt, 1);
  p->ref = 1;
  g_mutex_init (&p->lock);
  g_cond_init (&p->cond);
  p->profile = g_strdup (profile != NULL ? profile : "default");
  p->serial = g_strdup (mfa_serial);
  g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT, show_dialog, prompt_ref (p),
                              prompt_unref);

  g_mutex_lock (&p->lock);
  while (!p->done && !g_cancellable_is_cancelled (cancellable))
    /* Woken by the answer; every 200 ms, to notice a cancelled request. */
    g_cond_wait_until (&p->cond, &p->lock, g_get_monotonic_time () + 200 * G_TIME_SPAN_MILLISECOND);
  if (p->done && p->code != NULL)
    {
      code = p->code;
      p->code = NULL;
    }
  if (!p->done)
    p->abandoned = TRUE;
  g_mutex_unlock (&p->lock);

  if (code == NULL)
    {
      g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT, close_dialog, prompt_ref (p),
                                  prompt_unref);
      /* TRANSLATORS: the error when the person cancels the MFA dialog; %s is a profile */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                   _("No MFA code was given for profile %s"), p->profile);
    }
  prompt_unref (p);
  return code;
}
