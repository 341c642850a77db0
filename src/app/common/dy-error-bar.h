/* dy-error-bar.h: a Retry button in a view's error bar. The views' templates have the bar as a
 * GtkRevealer whose child is the message (a GtkLabel of class error-bar); the button goes
 * beside the message, inside the bar, hidden until the view says that running again what
 * failed may cure it. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Puts the message of REVEALER and a button labelled LABEL (a mnemonic) running ACTION side by
 * side in the bar, TOOLTIP on the button. Returns the button (owned by the bar), hidden. */
GtkWidget *dy_error_bar_add_button (GtkRevealer *revealer, const char *label, const char *action,
                                    const char *tooltip);

G_END_DECLS
