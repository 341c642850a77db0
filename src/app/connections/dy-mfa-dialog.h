/* dy-mfa-dialog.h: the app's MFA prompt: a DdbAwsMfaPrompt that the credential chain calls on
 * the worker thread making a request, which asks the person for the code in a modal dialog on
 * the main thread and waits for the answer. */
#pragma once

#include <gtk/gtk.h>

#include "net/credentials.h"

G_BEGIN_DECLS

/* A DdbAwsMfaPrompt (USER_DATA unused). Worker threads only: it waits for the main loop.
 * Returns the code, or NULL with G_IO_ERROR_CANCELLED when the person cancelled or
 * CANCELLABLE fired (the dialog then closes). */
char *dy_mfa_prompt (const char *profile, const char *mfa_serial, gpointer user_data,
                     GCancellable *cancellable, GError **error);

/* The MFA dialog now open (an AdwMessageDialog), or NULL. Main thread. */
GtkWidget *dy_mfa_dialog_get_current (void);
/* The code entry of DIALOG. */
GtkEditable *dy_mfa_dialog_get_entry (GtkWidget *dialog);

G_END_DECLS
