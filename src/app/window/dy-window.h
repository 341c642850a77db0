/* dy-window.h: the main window: connections and their tables in a sidebar, a tab per table
 * view. */
#pragma once

#include <adwaita.h>

#include "app/connections/dy-connection.h"
#include "app/staging/dy-staging-panel.h"
#include "app/browser/dy-table-view.h"

G_BEGIN_DECLS

#define DY_TYPE_WINDOW (dy_window_get_type ())
G_DECLARE_FINAL_TYPE (DyWindow, dy_window, DY, WINDOW, AdwApplicationWindow)

DyWindow *dy_window_new (AdwApplication *application);
/* Builds (first time) and opens the demo database. */
void dy_window_open_demo (DyWindow *self);
/* Keeps the window's table tabs (connection, table, query) in the "open-tabs" setting for the
 * next start (done when the window closes). */
void dy_window_save_session (DyWindow *self);
/* Opens a database file as a new connection; REMEMBER adds it to the recent databases. */
void dy_window_open_database (DyWindow *self, const char *path, gboolean remember);
/* Adds CONNECTION (a database just made) to the sidebar, lists its tables and remembers it,
 * unless its file is there already. */
void dy_window_add_database (DyWindow *self, DyConnection *connection);
/* Selects TABLE of CONNECTION in the sidebar (expanding the connection); FALSE when the
 * connection does not list it (yet). */
gboolean dy_window_select_table (DyWindow *self, DyConnection *connection, const char *table);
/* The connections (DyConnection) in the sidebar. */
GListModel *dy_window_get_connections (DyWindow *self);
/* Opens TABLE of CONNECTION in a new tab (or shows its tab if one exists) and returns the view. */
DyTableView *dy_window_open_table (DyWindow *self, DyConnection *connection, const char *table);
/* The view of the selected tab, or NULL. */
DyTableView *dy_window_get_current_view (DyWindow *self);
AdwTabView *dy_window_get_tab_view (DyWindow *self);
/* The staging panel beside the tabs (win.toggle-staging, Ctrl+Shift+S, shows it). */
DyStagingPanel *dy_window_get_staging_panel (DyWindow *self);
/* Opens TABLE of CONNECTION in its tab (the staging panel follows the current tab's connection)
 * and shows the staging panel. */
void dy_window_show_staging (DyWindow *self, DyConnection *connection, const char *table);
/* A toast of MESSAGE, shown for 8 s. */
void dy_window_toast (DyWindow *self, const char *message);
/* The shortcuts window (Ctrl+?, win.show-help-overlay), built when first asked for. */
GtkShortcutsWindow *dy_window_get_shortcuts_window (DyWindow *self);
/* The app's settings, or NULL when the schema is not installed (a build run in place). */
GSettings *dy_window_get_settings (DyWindow *self);

/* TRUE once the AWS profiles of the shared config files are in the sidebar. */
gboolean dy_window_get_profiles_loaded (DyWindow *self);
/* The connection of KIND named NAME (profile name, endpoint URL or database path), or NULL. */
DyConnection *dy_window_find_connection (DyWindow *self, DyConnectionKind kind, const char *name);
/* Adds the local endpoint at URL (http(s)://HOST[:PORT]) signed for REGION (NULL or "":
 * us-east-1), remembered in GSettings when REMEMBER_IT; an invalid URL or region fails with
 * G_IO_ERROR_INVALID_ARGUMENT. Returns the connection (borrowed), an existing one if the URL is
 * already there. */
DyConnection *dy_window_add_endpoint (DyWindow *self, const char *url, const char *region,
                                      gboolean remember_it, GError **error);
/* Expands the connection's sidebar row, listing its tables. */
void dy_window_expand_connection (DyWindow *self, DyConnection *connection);
/* The Add Local Endpoint dialog (win.add-endpoint) while it is open, else NULL. */
AdwMessageDialog *dy_window_get_endpoint_dialog (DyWindow *self);

G_END_DECLS
