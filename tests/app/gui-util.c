/* gui-util.c: the helpers GUI test programs share (see gui-util.h). */
#define G_LOG_DOMAIN "test-gui"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>

#include "app/browser/dy-grid.h"
#include "core/i18n.h"
#include "gui-util.h"

DyWindow *gui_window;
static int status;
static char *cache; /* gui_init's folder */

static gboolean
timed_out (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

void
gui_wait_long (GuiCondition cond, gpointer data, const char *what, guint seconds)
{
  gboolean expired = FALSE;
  guint timeout = g_timeout_add_seconds (seconds, timed_out, &expired);

  while (!cond (data) && !expired)
    g_main_context_iteration (NULL, TRUE);
  if (expired)
    g_error ("timed out waiting for %s", what);
  g_source_remove (timeout);
}

void
gui_wait_for (GuiCondition cond, gpointer data, const char *what)
{
  gui_wait_long (cond, data, what, 60);
}

void
gui_settle_for (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, timed_out, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

void
gui_settle (void)
{
  gui_settle_for (300);
}

void
gui_screenshot_after (const char *name, guint pause_ms)
{
  const char *dir = g_getenv ("DYNOSCOPE_SCREENSHOT_DIR");
  g_autofree char *path = NULL;
  g_autofree char *command = NULL;
  g_autoptr (GError) error = NULL;
  int exit_status;

  if (dir == NULL)
    return;
  g_mkdir_with_parents (dir, 0755);
  gui_settle_for (pause_ms);
  path = g_build_filename (dir, name, NULL);
  command = g_strdup_printf ("import -window root %s", path);
  if (!g_spawn_command_line_sync (command, NULL, NULL, &exit_status, &error))
    g_warning ("%s: %s", command, error->message);
  else
    g_test_message ("screenshot %s", path);
}

void
gui_screenshot (const char *name)
{
  gui_screenshot_after (name, 300);
}

DyConnection *
gui_demo_connection (void)
{
  GListModel *connections = dy_window_get_connections (gui_window);

  for (guint i = 0; i < g_list_model_get_n_items (connections); i++)
    {
      g_autoptr (DyConnection) c = g_list_model_get_item (connections, i);

      if (dy_connection_get_path (c) != NULL
          && g_str_has_prefix (dy_connection_get_path (c), g_get_user_cache_dir ()))
        return c;
    }
  return NULL;
}

gboolean
gui_demo_tables_listed (gpointer data)
{
  DyConnection *c = gui_demo_connection ();

  return c != NULL && !dy_connection_get_loading (c)
         && g_list_model_get_n_items (dy_connection_get_tables (c)) > 0;
}

gboolean
gui_view_ready (gpointer data)
{
  return dy_table_view_get_ready (data);
}

gboolean
gui_view_idle (gpointer data)
{
  return !dy_table_view_get_running (data);
}

GtkWidget *
gui_child (DyTableView *view, const char *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (view), DY_TYPE_TABLE_VIEW, name);

  g_assert_nonnull (object);
  return GTK_WIDGET (object);
}

void
gui_set_text (DyTableView *view, const char *entry, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (gui_child (view, entry)), text);
}

void
gui_select_choice (DyTableView *view, const char *dropdown, const char *choice)
{
  GtkDropDown *d = GTK_DROP_DOWN (gui_child (view, dropdown));
  GListModel *model = gtk_drop_down_get_model (d);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (GtkStringObject) s = g_list_model_get_item (model, i);

      if (g_str_equal (gtk_string_object_get_string (s), choice))
        {
          gtk_drop_down_set_selected (d, i);
          return;
        }
    }
  g_error ("no choice %s in %s", choice, dropdown);
}

const char *
gui_label_text (DyTableView *view, const char *name)
{
  return gtk_label_get_text (GTK_LABEL (gui_child (view, name)));
}

void
gui_run (DyTableView *view, const char *action)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), action, NULL));
  gui_wait_for (gui_view_idle, view, "the request to finish");
  gui_settle ();
}

void
gui_call (DdbBackend *backend, const char *operation, json_t *request)
{
  g_autoptr (GError) error = NULL;
  json_t *response = NULL;

  if (!ddb_backend_call (backend, operation, request, NULL, &response, &error))
    g_error ("%s: %s", operation, error->message);
  json_decref (request);
  json_decref (response);
}

DyTableView *
gui_open_table (const char *table)
{
  DyTableView *view = dy_window_open_table (gui_window, gui_demo_connection (), table);

  gui_wait_for (gui_view_ready, view, "DescribeTable");
  return view;
}

char *
gui_string_attr (DyItem *item, const char *name)
{
  const DdbValue *v = dy_item_get_attribute (item, name);

  g_assert_nonnull (v);
  g_assert_cmpint (v->type, ==, DDB_TYPE_S);
  return g_strndup (v->bytes.data, v->bytes.len);
}

static void
activated (GApplication *application)
{
  gui_window = DY_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (application)));
  g_assert_nonnull (gui_window);
  status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (gui_window));
}

static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

GSubprocess *
gui_start_serve (const char *db, char **url)
{
  const char *cli = g_getenv ("DYNOSCOPE_CLI");
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GDataInputStream) out = NULL;
  g_autofree char *line = NULL;
  g_autoptr (GError) error = NULL;
  GSubprocess *server;

  *url = NULL;
  if (cli == NULL)
    return NULL;
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  /* A test that aborts must not leave the server holding the test's output open. */
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  server = g_subprocess_launcher_spawn (launcher, &error, cli, "--db", db, "serve", "--port", "0",
                                        NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "Listening on http://"));
  *url = g_strdup (line + strlen ("Listening on "));
  return server;
}

void
gui_stop_serve (GSubprocess **server)
{
  if (*server == NULL)
    return;
  g_subprocess_send_signal (*server, SIGTERM);
  g_subprocess_wait (*server, NULL, NULL);
  g_clear_object (server);
}

void
gui_remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        gui_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

const char *
gui_init (int *argc, char ***argv)
{
  g_autofree char *data = NULL;

  dy_application_prepare_environment ();
  /* as the app's main does: LANGUAGE and DYNOSCOPE_LOCALEDIR choose the catalogs */
  ddb_i18n_init ();
  g_test_init (argc, argv, NULL);
  /* GTK warns without a session bus, which a CI machine may lack; criticals stay fatal. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  cache = g_dir_make_tmp ("dynoscope-gui-XXXXXX", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  /* the staging store and imported databases live there: never the user's own (a driver that
   * runs a program many times on the same store names its own folder) */
  data = g_getenv ("DYNOSCOPE_TEST_DATA_HOME") != NULL
             ? g_strdup (g_getenv ("DYNOSCOPE_TEST_DATA_HOME"))
             : g_build_filename (cache, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  return cache;
}

int
gui_run_tests (void)
{
  DyApplication *app;

  app = dy_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  g_signal_connect_after (app, "activate", G_CALLBACK (activated), NULL);
  g_application_run (G_APPLICATION (app), 0, NULL);
  g_object_unref (app);
  gui_remove_tree (cache);
  g_clear_pointer (&cache, g_free);
  return status;
}

static void
clipboard_text_read (GObject *source, GAsyncResult *result, gpointer user_data)
{
  char **text = user_data;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  if (*text == NULL)
    *text = g_strdup ("");
}

static gboolean
text_read (gpointer data)
{
  return *(char **) data != NULL;
}

char *
gui_clipboard_text (GtkWidget *widget)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, clipboard_text_read,
                                 &text);
  gui_wait_for (text_read, &text, "the clipboard");
  return text;
}

GtkWidget *
gui_find_button (GtkWidget *widget, const char *label)
{
  if (GTK_IS_BUTTON (widget) && gtk_widget_get_visible (widget)
      && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = gtk_widget_get_visible (c) ? gui_find_button (c, label) : NULL;

      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkWidget *
gui_action_button (GtkWidget *widget, const char *action)
{
  if (GTK_IS_BUTTON (widget)
      && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = gui_action_button (child, action);

      if (found != NULL)
        return found;
    }
  return NULL;
}

gpointer
gui_grid_row (gpointer rows, guint position)
{
  g_autoptr (GObject) slot = g_list_model_get_item (G_LIST_MODEL (rows), position);
  gpointer row = slot != NULL ? dy_grid_row (slot) : NULL;

  return row != NULL ? g_object_ref (row) : NULL;
}
