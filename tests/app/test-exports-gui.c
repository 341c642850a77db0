/* test-exports-gui.c: a live table's exports to S3 in the real app, against `dynoscope-cli serve`
 * writing its exports into a folder that stands for the bucket (--export-dir). The table menu's
 * Exports to S3… opens the dialog; point-in-time recovery is off, Turn On asks first and then
 * turns it on; Export Now starts an export into the bucket and prefix typed, the list follows it
 * to Completed with its item count, and the export is in the folder in AWS's layout; the bucket
 * and prefix are remembered; Open hands the export's manifest URL to the import dialog; a
 * missing bucket ends the export Failed with S3NoSuchBucket. */
#define G_LOG_DOMAIN "test-exports-gui"

#include <string.h>
#include <sys/prctl.h>

#include "app/tables/dy-exports-dialog.h"
#include "app/tables/dy-import.h"
#include "app/window/dy-window-private.h"
#include "gui-util.h"

static GSubprocess *server;
static char *server_url;
static char *export_dir;

static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, 9);
}

/* Posts (the demo's five) in a database served with --export-dir. */
static void
start_server (const char *dir)
{
  const char *cli = g_getenv ("DYNOSCOPE_CLI");
  g_autofree char *db = g_build_filename (dir, "exports.db", NULL);
  g_autofree char *posts = g_build_filename (DYNOSCOPE_SOURCE_DIR, "data", "demo", "posts.jsonl",
                                             NULL);
  g_autofree char *bucket = NULL;
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GDataInputStream) out = NULL;
  g_autofree char *line = NULL;
  GError *error = NULL;
  int status = 0;
  const char *import_argv[] = { cli, "--db", db, "import", "--table", "Posts", "--key",
                                "PK:S,SK:S", posts, NULL };

  g_assert_nonnull (cli);
  g_assert_true (g_spawn_sync (NULL, (char **) import_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  export_dir = g_build_filename (dir, "s3", NULL);
  bucket = g_build_filename (export_dir, "bucket1", NULL);
  g_assert_cmpint (g_mkdir_with_parents (bucket, 0700), ==, 0);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  server = g_subprocess_launcher_spawn (launcher, &error, cli, "--db", db, "serve", "--port", "0",
                                        "--export-dir", export_dir, NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (line, "Listening on http://"));
  server_url = g_strdup (line + strlen ("Listening on "));
}

static DyExportsDialog *
find_dialog (void)
{
  GListModel *tops = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (tops, i);

      if (DY_IS_EXPORTS_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return DY_EXPORTS_DIALOG (w);
    }
  return NULL;
}

static AdwMessageDialog *
find_message_dialog (void)
{
  GListModel *tops = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (tops, i);

      if (ADW_IS_MESSAGE_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return ADW_MESSAGE_DIALOG (w);
    }
  return NULL;
}

static gboolean
message_dialog_up (gpointer data)
{
  return find_message_dialog () != NULL;
}

static gboolean
pitr_says (gpointer data)
{
  const char *text = dy_exports_dialog_get_pitr_text (find_dialog ());

  return text != NULL && g_str_has_prefix (text, data);
}

static gboolean
connection_loaded (gpointer data)
{
  return dy_connection_get_loaded (data);
}

/* The subtitle of the list's row N (an AdwActionRow), or NULL. */
static const char *
row_subtitle (guint n)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (dy_exports_dialog_get_list (find_dialog ()),
                                                      (int) n);

  return ADW_IS_ACTION_ROW (row) ? adw_action_row_get_subtitle (ADW_ACTION_ROW (row)) : NULL;
}

static gboolean
row_says (gpointer data)
{
  const char *sub = row_subtitle (0);

  return sub != NULL && strstr (sub, data) != NULL;
}

static GtkWidget *
find_entry_row (GtkWidget *root, const char *title)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (ADW_IS_ENTRY_ROW (c)
          && g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (c)), title) == 0)
        return c;
      found = find_entry_row (c, title);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
open_seen (DyExportsDialog *dialog, const char *url, const char *key_spec, char **out)
{
  *out = g_strconcat (url, " ", key_spec, NULL);
}

static void
test_exports (void)
{
  DyConnection *c;
  DyTableView *view;
  DyExportsDialog *dialog;
  GtkWidget *button;
  g_autofree char *opened = NULL;
  g_autoptr (GVariant) remembered = NULL;
  g_autofree char *printed = NULL;
  g_autofree char *prefix_dir = NULL;
  GError *error = NULL;

  c = dy_window_add_endpoint (gui_window, server_url, "us-east-1", FALSE, &error);
  g_assert_no_error (error);
  dy_window_expand_connection (gui_window, c);
  gui_wait_for (connection_loaded, c, "the endpoint's tables");
  view = dy_window_open_table (gui_window, c, "Posts");
  gui_wait_for (gui_view_ready, view, "DescribeTable over HTTP");

  /* the table menu's action */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.table-exports", NULL));
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  g_signal_connect (dialog, "open", G_CALLBACK (open_seen), &opened);
  gui_wait_for (pitr_says, "Off", "point-in-time recovery read as off");

  /* Turn On asks first */
  button = gui_find_button (GTK_WIDGET (dialog), "_Turn On…");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  gui_wait_for (message_dialog_up, NULL, "the confirmation");
  gui_screenshot ("2c-exports-pitr-confirm.png");
  adw_message_dialog_response (find_message_dialog (), "enable");
  gtk_window_close (GTK_WINDOW (find_message_dialog ()));
  gui_wait_for (pitr_says, "On", "point-in-time recovery on");

  /* an export into bucket1/exp */
  gtk_editable_set_text (GTK_EDITABLE (find_entry_row (GTK_WIDGET (dialog), "Bucket")), "bucket1");
  gtk_editable_set_text (GTK_EDITABLE (find_entry_row (GTK_WIDGET (dialog), "Prefix (optional)")),
                         "exp");
  button = gui_find_button (GTK_WIDGET (dialog), "_Export Now");
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  gui_wait_for (row_says, "Completed", "the export to complete");
  g_assert_nonnull (strstr (row_subtitle (0), "5 items"));
  g_assert_nonnull (strstr (row_subtitle (0), "DynamoDB JSON"));
  gui_screenshot ("2d-exports-dialog.png");
  /* in AWS's layout under the bucket's folder */
  prefix_dir = g_build_filename (export_dir, "bucket1", "exp", "AWSDynamoDB", NULL);
  {
    GDir *d = g_dir_open (prefix_dir, 0, &error);
    const char *name;
    gboolean found = FALSE;

    g_assert_no_error (error);
    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *summary = g_build_filename (prefix_dir, name, "manifest-summary.json",
                                                     NULL);
        found |= g_file_test (summary, G_FILE_TEST_IS_REGULAR);
      }
    g_dir_close (d);
    g_assert_true (found);
  }
  /* the location is remembered for the connection */
  remembered = g_settings_get_value (dy_window_get_settings (gui_window), "export-locations");
  printed = g_variant_print (remembered, FALSE);
  g_assert_nonnull (strstr (printed, "bucket1\\texp\\tDYNAMODB_JSON"));

  /* Open: the manifest's URL and the table's key */
  button = gui_find_button (GTK_WIDGET (dialog), "_Open");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_assert_nonnull (opened);
  g_assert_true (g_str_has_prefix (opened, "s3://bucket1/exp/AWSDynamoDB/"));
  g_assert_true (g_str_has_suffix (opened, "/manifest-summary.json PK:S,SK:S"));

  /* a bucket that does not exist: the export fails as AWS's does */
  gtk_editable_set_text (GTK_EDITABLE (find_entry_row (GTK_WIDGET (dialog), "Bucket")), "nobucket");
  button = gui_find_button (GTK_WIDGET (dialog), "_Export Now");
  g_signal_emit_by_name (button, "clicked");
  gui_wait_for (row_says, "S3NoSuchBucket", "the export to fail");
  g_assert_nonnull (strstr (row_subtitle (0), "Failed"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

int
main (int argc, char **argv)
{
  const char *dir = gui_init (&argc, &argv);
  int status;

  g_setenv ("DYNOSCOPE_EXPORT_POLL_MS", "50", TRUE);
  start_server (dir);
  g_test_add_func ("/exports-gui/exports", test_exports);
  status = gui_run_tests ();
  g_subprocess_force_exit (server);
  return status;
}
