/* dy-preferences.h: the Preferences window (app.preferences, Ctrl+comma): which connections
 * are production or read-only, by glob patterns on profile names and account ids, and each
 * listed connection's own mark; how many parallel segments Load All reads a remote Scan in. */
#pragma once

#include <adwaita.h>

#include "app/window/dy-window.h"

G_BEGIN_DECLS

/* The Preferences window over WINDOW, on its settings and connections. */
GtkWidget *dy_preferences_new (DyWindow *window);

/* For tests: the patterns' row ("production" or "read-only"; an AdwEntryRow whose apply
 * saves), and CONNECTION's mark row (an AdwComboRow: By pattern, Normal, Production,
 * Read-only), or NULL. */
GtkWidget *dy_preferences_get_patterns_row (GtkWidget *preferences, const char *mark);
GtkWidget *dy_preferences_get_mark_row (GtkWidget *preferences, DyConnection *connection);
/* The Scan segments row (an AdwComboRow: Automatic, 1, 2, 4, 8, 16), or NULL. */
GtkWidget *dy_preferences_get_segments_row (GtkWidget *preferences);

G_END_DECLS
