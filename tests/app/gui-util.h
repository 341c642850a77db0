/* gui-util.h: what every GUI test program shares: the real application started on the demo
 * database (under Xvfb, see run-gui-test.sh), waiting on the main loop for a condition, letting
 * the window draw, screenshots, and reaching into a table view's filter row. */
#pragma once

#include "app/window/dy-application.h"
#include "app/common/dy-item.h"
#include "app/window/dy-window.h"

G_BEGIN_DECLS

/* The application's window while the tests run. */
extern DyWindow *gui_window;

typedef gboolean (*GuiCondition) (gpointer data);

/* Runs the main loop until COND holds; fails the test after 60 s (a busy machine, not a slow
 * program, is what takes a wait past a few seconds). */
void gui_wait_for (GuiCondition cond, gpointer data, const char *what);
/* The same with SECONDS instead of 20 s (thousands of writes under the sanitizers). */
void gui_wait_long (GuiCondition cond, gpointer data, const char *what, guint seconds);
/* Lets the window lay out and draw what changed (300 ms). */
void gui_settle (void);
/* Lets the window draw for MS milliseconds. */
void gui_settle_for (guint ms);
/* With DYNOSCOPE_SCREENSHOT_DIR set, writes a PNG of the screen named NAME there after letting
 * the window draw for PAUSE_MS; else does nothing. */
void gui_screenshot_after (const char *name, guint pause_ms);
void gui_screenshot (const char *name);

/* Calls OPERATION with REQUEST (taken) on BACKEND; fails the test when it fails. */
void gui_call (DdbBackend *backend, const char *operation, json_t *request);

/* The demo database's connection (it lives in the test's cache folder), or NULL. */
DyConnection *gui_demo_connection (void);
/* TRUE once the demo connection lists its tables. */
gboolean gui_demo_tables_listed (gpointer data);
/* The row a grid shows at POSITION of ROWS (dy_table_view_get_rows, a GListModel of
 * DyRowSlot): a DyItem, or a GtkTreeListRow when grouped; a new reference, NULL past the end. */
gpointer gui_grid_row (gpointer rows, guint position);
/* Opens TABLE of the demo database and waits for DescribeTable. */
DyTableView *gui_open_table (const char *table);
/* TRUE once the view DATA knows its table (DescribeTable answered). */
gboolean gui_view_ready (gpointer data);
/* TRUE when the view DATA is not running a request. */
gboolean gui_view_idle (gpointer data);

/* A template child of the view; fails the test when there is none. */
GtkWidget *gui_child (DyTableView *view, const char *name);
void gui_set_text (DyTableView *view, const char *entry, const char *text);
void gui_select_choice (DyTableView *view, const char *dropdown, const char *choice);
const char *gui_label_text (DyTableView *view, const char *name);
/* Activates the window action ACTION (as its shortcut does), waits for VIEW to finish and
 * settles. */
void gui_run (DyTableView *view, const char *action);
/* The text on WIDGET's clipboard, read on the main loop (empty when it holds none). Newly
 * allocated. */
char *gui_clipboard_text (GtkWidget *widget);
/* The visible button labelled LABEL under WIDGET (through visible widgets only), or NULL. */
GtkWidget *gui_find_button (GtkWidget *widget, const char *label);
/* The button whose action is ACTION under WIDGET, or NULL. */
GtkWidget *gui_action_button (GtkWidget *widget, const char *action);
/* The string attribute NAME of ITEM (it must be one). Newly allocated. */
char *gui_string_attr (DyItem *item, const char *name);

/* g_test_init, then a private cache folder (XDG_CACHE_HOME, where the demo database is built;
 * returned) with a data folder in it (XDG_DATA_HOME: the staging store, imported databases;
 * DYNOSCOPE_TEST_DATA_HOME instead when set, and kept) and in-memory settings. Call before anything asks GLib for those folders (it reads them once). */
const char *gui_init (int *argc, char ***argv);
/* `dynoscope-cli serve` (DYNOSCOPE_CLI) on the database DB, on a free loopback port, stopped
 * with the test program (PR_SET_PDEATHSIG); *URL its http://127.0.0.1:PORT. NULL (and *URL
 * NULL) when DYNOSCOPE_CLI is not set. */
GSubprocess *gui_start_serve (const char *db, char **url);
/* Stops *SERVER (SIGTERM, then waits for it), if any, and clears it. */
void gui_stop_serve (GSubprocess **server);
/* Removes PATH and everything under it. */
void gui_remove_tree (const char *path);

/* Runs the application on the demo database and g_test_run() once its window is up, then
 * removes gui_init's folders. Call after gui_init and adding the tests; returns g_test_run's
 * status. */
int gui_run_tests (void);

G_END_DECLS
