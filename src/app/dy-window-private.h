/* dy-window-private.h: what the main window's files share (dy-window.c, the sidebar in
 * dy-window-sidebar.c). */
#pragma once

#include "app/dy-staging-panel.h"
#include "app/dy-window.h"

G_BEGIN_DECLS

struct _DyWindow {
  AdwApplicationWindow parent_instance;

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
};

/* dy-window-sidebar.c */
/* Sets up the sidebar's list: connections, and their tables under them. */
void dy_window_sidebar_init (DyWindow *self);
/* A row activated: a connection expands (or retries after an error), a table opens. */
void dy_window_sidebar_activate (DyWindow *self, guint position);

/* dy-window-tables.c */
/* Installs win.new-table (Ctrl+N), win.edit-table and win.delete-table. */
void dy_window_tables_class_init (GtkWidgetClass *widget_class);

G_END_DECLS
