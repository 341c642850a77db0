/* dy-sign-in.h: the Sign In dialog of a connection whose session has to sign in again: IAM
 * Identity Center through the device flow (the browser opens on the verification page, the
 * dialog shows the code and waits for the approval), or `aws login` as a command to run with
 * Copy and Retry. Once signed in, the connection reloads its session and lists its tables
 * again; open tabs are left as they are. */
#pragma once

#include <gtk/gtk.h>

#include "app/connections/dy-connection.h"

G_BEGIN_DECLS

/* Opens the dialog over PARENT for CONNECTION (dy_connection_get_sign_in tells the kind). */
void dy_sign_in_present (GtkWindow *parent, DyConnection *connection);

/* The Sign In dialog now open, or NULL (for tests). */
GtkWidget *dy_sign_in_get_current (void);
/* Its user code as shown, or NULL while it is being fetched (for tests). */
const char *dy_sign_in_get_user_code (GtkWidget *dialog);

G_END_DECLS
