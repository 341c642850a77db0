/* dy-window-private.h: what the main window's files share (dy-window.c, the sidebar in
 * dy-window-sidebar.c, the actions in dy-window-actions.c and dy-window-tables.c). */
#pragma once

#include "app/staging/dy-staging-panel.h"
#include "app/window/dy-window.h"

G_BEGIN_DECLS

struct _DyWindow {
  AdwApplicationWindow parent_instance;

  GtkWidget *sidebar; /* the sidebar_list's scroller: hidden by F9 */
  GtkPaned *sidebar_paned;
  GtkListView *sidebar_list;
  AdwTabView *tab_view;
  GtkStack *content_stack;
  AdwToastOverlay *toast_overlay;
  AdwFlap *staging_flap;
  GtkToggleButton *staging_button;
  AdwButtonContent *staging_button_content;
  DyStagingPanel *staging_panel;

  GListStore *connections;
  GSettings *settings; /* NULL when the schema is not installed */
  GCancellable *cancellable;
  AdwMessageDialog *endpoint_dialog; /* while open */
  gboolean profiles_loaded;
  GPtrArray *pending_tabs;   /* GVariant a{sv}: saved tabs whose connection is not listed yet */
  AdwTabPage *restored_page; /* weak: the saved tabs' selected one, once restored */
};

/* dy-window.c */
/* The selected tab's DyTableView, DySqlView or DyChangesView, or NULL. */
GtkWidget *dy_window_current_child (DyWindow *self);
/* The connection of the selected tab, or NULL. */
DyConnection *dy_window_current_connection (DyWindow *self);
/* A new tab on TABLE of CONNECTION, selected. */
DyTableView *dy_window_new_tab (DyWindow *self, DyConnection *connection, const char *table);

/* dy-window-session.c */
/* Opens the tabs the "open-tabs" setting holds as their connections get listed. */
void dy_window_restore_session (DyWindow *self);

/* dy-window-actions.c */
/* Installs the actions on tabs and the current table, with their shortcuts. */
void dy_window_actions_class_init (GtkWidgetClass *widget_class);
void dy_window_actions_init (DyWindow *self);

/* dy-window-sidebar.c */
/* Sets up the sidebar's list: connections, and their tables under them. */
void dy_window_sidebar_init (DyWindow *self);
/* A row activated: a connection expands (or retries after an error), a table opens. */
void dy_window_sidebar_activate (DyWindow *self, guint position);
/* The connection selected in the sidebar (a connection row, or the connection of a table row)
 * and, for a table row, the table's name in *TABLE (else NULL); NULL when nothing is. Both
 * borrowed from the sidebar's models. */
DyConnection *dy_window_sidebar_selection (DyWindow *self, const char **table);

/* dy-window-marks.c */
/* Keeps the connections' marks as the settings say, tints their tabs, and installs
 * win.mark-connection ("normal", "production", "read-only", or "pattern": no mark of its own;
 * it marks the connection selected in the sidebar). */
void dy_window_marks_init (DyWindow *self);
/* The "Mark As" menu of CONNECTION (selected in the sidebar) at X, Y of WIDGET. */
GtkWidget *dy_window_marks_popup (DyWindow *self, GtkWidget *widget, DyConnection *connection,
                                  double x, double y);
/* The icon of a marked connection (NULL: normal) and its tooltip (NULL: normal). */
const char *dy_window_mark_icon (DyConnectionMark mark);
char *dy_window_mark_tooltip (DyConnection *connection);

/* dy-window-tables.c */
/* Installs win.new-table (Ctrl+N), win.edit-table, win.delete-table and win.table-exports. */
void dy_window_tables_class_init (GtkWidgetClass *widget_class);

G_END_DECLS
