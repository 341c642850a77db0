/* dy-sign-in.c: the Sign In dialog: the SSO device flow on worker threads (ddb_sso_login_start,
 * then ddb_sso_login_finish polling until the person approves in the browser), or the `aws
 * login` command to run elsewhere; then the connection's retry (session reloaded, tables
 * listed again). */
#define G_LOG_DOMAIN "dynoscope-sign-in"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "app/connections/dy-sign-in.h"
#include "net/sso.h"

typedef struct {
  GtkWidget *dialog; /* weak: NULL once the dialog is gone */
  DyConnection *connection;
  GCancellable *cancellable;
  DdbSsoLogin *login;
  GtkWidget *stack;
  GtkWidget *code_label;
  GtkWidget *status_label;
  GtkWidget *error_label;
  gboolean finished;
} SignIn;

static GtkWidget *current_dialog;

static SignIn *
sign_in_ref (SignIn *s)
{
  return g_rc_box_acquire (s);
}

static void
sign_in_clear (SignIn *s)
{
  g_clear_object (&s->connection);
  g_clear_object (&s->cancellable);
  g_clear_pointer (&s->login, ddb_sso_login_free);
  if (s->dialog != NULL)
    g_object_remove_weak_pointer (G_OBJECT (s->dialog), (gpointer *) &s->dialog);
}

static void
sign_in_unref (gpointer data)
{
  g_rc_box_release_full (data, (GDestroyNotify) sign_in_clear);
}

GtkWidget *
dy_sign_in_get_current (void)
{
  return current_dialog;
}

const char *
dy_sign_in_get_user_code (GtkWidget *dialog)
{
  SignIn *s = g_object_get_data (G_OBJECT (dialog), "sign-in");

  if (s == NULL || s->login == NULL)
    return NULL;
  return ddb_sso_login_get_user_code (s->login);
}

static void
copy_text (GtkWidget *button, const char *text)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (button), text);
}

static void
copy_clicked (GtkButton *button, gpointer user_data)
{
  copy_text (GTK_WIDGET (button), g_object_get_data (G_OBJECT (button), "text"));
}

/* A selectable line of text with a Copy button beside it. */
static GtkWidget *
copyable_row (const char *text, const char *css_class, GtkWidget **label_out)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label = gtk_label_new (text);
  GtkWidget *copy = gtk_button_new_from_icon_name ("edit-copy-symbolic");

  /* Codes and commands are short, and read whole: no wrapping (a wrapping label beside a
   * button measures badly in a horizontal box). */
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, css_class);
  gtk_widget_set_halign (box, GTK_ALIGN_CENTER);
  /* TRANSLATORS: tooltip of the button that copies a sign-in code or command */
  gtk_widget_set_tooltip_text (copy, _("Copy"));
  gtk_widget_set_valign (copy, GTK_ALIGN_CENTER);
  g_object_set_data_full (G_OBJECT (copy), "text", g_strdup (text), g_free);
  g_signal_connect (copy, "clicked", G_CALLBACK (copy_clicked), NULL);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), copy);
  if (label_out != NULL)
    *label_out = label;
  return box;
}

static GtkWidget *
spinner_row (const char *text, GtkWidget **label_out)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *spinner = gtk_spinner_new ();
  GtkWidget *label = gtk_label_new (text);

  gtk_spinner_start (GTK_SPINNER (spinner));
  gtk_widget_set_halign (box, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (box), spinner);
  gtk_box_append (GTK_BOX (box), label);
  if (label_out != NULL)
    *label_out = label;
  return box;
}

static void
show_error (SignIn *s, const GError *error)
{
  gtk_label_set_text (GTK_LABEL (s->error_label), error->message);
  gtk_stack_set_visible_child_name (GTK_STACK (s->stack), "error");
  /* TRANSLATORS: the Sign In dialog's button once the sign-in failed */
  adw_message_dialog_set_response_label (ADW_MESSAGE_DIALOG (s->dialog), "cancel", _("_Close"));
}

static void
finish_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  SignIn *s = task_data;
  GError *error = NULL;

  if (ddb_sso_login_finish (s->login, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
finish_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  SignIn *s = user_data;
  g_autoptr (GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && s->dialog != NULL)
        show_error (s, error);
      sign_in_unref (s);
      return;
    }
  /* Signed in: what failed runs again, with the token the flow cached. */
  s->finished = TRUE;
  dy_connection_retry (s->connection);
  if (s->dialog != NULL)
    {
      GtkWidget *dialog = g_object_ref (s->dialog);

      /* The response alone leaves the dialog open: its buttons close it, and so does this. */
      adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "done");
      gtk_window_close (GTK_WINDOW (dialog));
      g_object_unref (dialog);
    }
  sign_in_unref (s);
}

static void
browser_launched (GObject *source, GAsyncResult *result, gpointer user_data)
{
  SignIn *s = user_data;
  g_autoptr (GError) error = NULL;

  if (!g_app_info_launch_default_for_uri_finish (result, &error) && s->dialog != NULL)
    {
      /* TRANSLATORS: no browser could be opened; %s is the verification page's address */
      g_autofree char *text = g_strdup_printf (_("No browser could be opened: open %s yourself "
                                                 "and enter this code."),
                                               ddb_sso_login_get_verification_uri (s->login));

      g_debug ("No browser: %s", error->message);
      gtk_label_set_text (GTK_LABEL (s->status_label), text);
    }
  sign_in_unref (s);
}

static void
open_browser (SignIn *s)
{
  const char *uri = ddb_sso_login_get_verification_uri_complete (s->login);
  g_autoptr (GdkAppLaunchContext) context
    = gdk_display_get_app_launch_context (gtk_widget_get_display (s->dialog));

  if (uri == NULL)
    uri = ddb_sso_login_get_verification_uri (s->login);
  if (uri != NULL)
    g_app_info_launch_default_for_uri_async (uri, G_APP_LAUNCH_CONTEXT (context), NULL,
                                             browser_launched, sign_in_ref (s));
}

static void
browser_clicked (GtkButton *button, SignIn *s)
{
  if (s->login != NULL)
    open_browser (s);
}

static void
start_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DdbAwsSession *session = task_data;
  GError *error = NULL;
  DdbSsoLogin *login = ddb_sso_login_start (session, cancellable, &error);

  if (login == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, login, (GDestroyNotify) ddb_sso_login_free);
}

static void
start_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  SignIn *s = user_data;
  g_autoptr (GError) error = NULL;
  DdbSsoLogin *login = g_task_propagate_pointer (G_TASK (result), &error);
  GtkWidget *code_box;
  g_autoptr (GTask) task = NULL;
  const char *uri;
  g_autofree char *status = NULL;

  if (login == NULL || s->dialog == NULL || g_cancellable_is_cancelled (s->cancellable))
    {
      if (login == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
          && s->dialog != NULL)
        show_error (s, error);
      g_clear_pointer (&login, ddb_sso_login_free);
      sign_in_unref (s);
      return;
    }
  s->login = login;
  code_box = gtk_stack_get_child_by_name (GTK_STACK (s->stack), "code");
  gtk_label_set_text (GTK_LABEL (s->code_label), ddb_sso_login_get_user_code (login));
  g_object_set_data_full (G_OBJECT (g_object_get_data (G_OBJECT (code_box), "copy")), "text",
                          g_strdup (ddb_sso_login_get_user_code (login)), g_free);
  uri = ddb_sso_login_get_verification_uri (login);
  /* TRANSLATORS: %s is the IAM Identity Center verification page's address */
  status = g_strdup_printf (_("Confirm that the browser shows this code, at %s."),
                            uri != NULL ? uri : "");
  gtk_label_set_text (GTK_LABEL (s->status_label), status);
  gtk_stack_set_visible_child_name (GTK_STACK (s->stack), "code");
  open_browser (s);

  task = g_task_new (NULL, s->cancellable, finish_done, s); /* keeps the reference */
  g_task_set_source_tag (task, start_done);
  g_task_set_task_data (task, s, NULL);
  g_task_run_in_thread (task, finish_thread);
}

static void
dialog_response (AdwMessageDialog *dialog, const char *response, SignIn *s)
{
  if (g_strcmp0 (response, "retry") == 0)
    dy_connection_retry (s->connection);
  g_cancellable_cancel (s->cancellable);
  if (current_dialog == GTK_WIDGET (dialog))
    current_dialog = NULL;
}

/* The SSO dialog's content: a stack of "starting", "code" and "error". */
static GtkWidget *
sso_content (SignIn *s)
{
  GtkWidget *stack = gtk_stack_new ();
  GtkWidget *code = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *row;
  GtkWidget *browser;
  GtkWidget *waiting;

  gtk_stack_set_vhomogeneous (GTK_STACK (stack), FALSE);
  /* TRANSLATORS: while the Sign In dialog asks IAM Identity Center for a code */
  gtk_stack_add_named (GTK_STACK (stack), spinner_row (_("Contacting IAM Identity Center…"), NULL),
                       "starting");

  row = copyable_row ("", "title-1", &s->code_label);
  g_object_set_data (G_OBJECT (code), "copy", gtk_widget_get_last_child (row));
  gtk_widget_add_css_class (s->code_label, "monospace");
  s->status_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (s->status_label), TRUE);
  gtk_label_set_justify (GTK_LABEL (s->status_label), GTK_JUSTIFY_CENTER);
  gtk_label_set_max_width_chars (GTK_LABEL (s->status_label), 40);
  /* TRANSLATORS: opens the IAM Identity Center verification page in the browser again */
  browser = gtk_button_new_with_mnemonic (_("Open _Browser Again"));
  gtk_widget_set_halign (browser, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (browser, "pill");
  g_signal_connect (browser, "clicked", G_CALLBACK (browser_clicked), s);
  /* TRANSLATORS: the Sign In dialog waits for the person to approve in the browser */
  waiting = spinner_row (_("Waiting for the approval in the browser…"), NULL);
  gtk_box_append (GTK_BOX (code), s->status_label);
  gtk_box_append (GTK_BOX (code), row);
  gtk_box_append (GTK_BOX (code), browser);
  gtk_box_append (GTK_BOX (code), waiting);
  gtk_stack_add_named (GTK_STACK (stack), code, "code");

  s->error_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (s->error_label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (s->error_label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (s->error_label), 40);
  gtk_widget_add_css_class (s->error_label, "error");
  gtk_stack_add_named (GTK_STACK (stack), s->error_label, "error");
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "starting");
  return stack;
}

void
dy_sign_in_present (GtkWindow *parent, DyConnection *connection)
{
  g_autofree char *command = NULL;
  DdbAwsSignInKind kind = dy_connection_get_sign_in (connection, &command);
  DdbAwsSession *session = dy_connection_get_session (connection);
  const char *title = dy_connection_get_profile (connection) != NULL
                        ? dy_connection_get_profile (connection)
                        : dy_connection_get_title (connection);
  SignIn *s = g_rc_box_new0 (SignIn);
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  s->connection = g_object_ref (connection);
  s->cancellable = g_cancellable_new ();
  if (kind == DDB_AWS_SIGN_IN_SSO && session != NULL)
    {
      /* TRANSLATORS: %s is the AWS profile signing in */
      body = g_strdup_printf (_("Profile %s signs in through IAM Identity Center. Approve the "
                                "request in the browser that opens."),
                              title);
      /* TRANSLATORS: heading of the Sign In dialog for IAM Identity Center (SSO) */
      dialog = adw_message_dialog_new (parent, _("Sign In to IAM Identity Center"), body);
      s->stack = sso_content (s);
      adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), s->stack);
      adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                        NULL);
    }
  else
    {
      /* `aws login`, or an SSO session that is not open yet: the command, run elsewhere. */
      if (command == NULL)
        command = g_strdup_printf ("aws login --profile %s", title);
      /* TRANSLATORS: the Sign In dialog for `aws login`; the command is shown below it */
      body = g_strdup (_("Run this command in a terminal and sign in in the browser it opens, "
                         "then click Retry."));
      /* TRANSLATORS: heading of the Sign In dialog that shows a command to run */
      dialog = adw_message_dialog_new (parent, _("Sign In Required"), body);
      adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog),
                                          copyable_row (command, "monospace", NULL));
      adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                        "retry", _("_Retry"), NULL);
      adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "retry",
                                                  ADW_RESPONSE_SUGGESTED);
      adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "retry");
    }
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  s->dialog = dialog;
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &s->dialog);
  g_object_set_data_full (G_OBJECT (dialog), "sign-in", sign_in_ref (s), sign_in_unref);
  g_signal_connect (dialog, "response", G_CALLBACK (dialog_response), s);
  current_dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));

  if (s->stack != NULL)
    {
      g_autoptr (GTask) task = g_task_new (NULL, s->cancellable, start_done, s);

      g_task_set_source_tag (task, dy_sign_in_present);
      g_task_set_task_data (task, session, NULL);
      g_task_run_in_thread (task, start_thread); /* the task's reference is S's first */
    }
  else
    sign_in_unref (s);
}
