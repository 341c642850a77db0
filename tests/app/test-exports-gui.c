/* test-exports-gui.c: a live table's exports to S3 in the real app, against `dynoscope-cli serve`
 * writing its exports into a folder that stands for the bucket (--export-dir). The table menu's
 * Exports to S3… opens the dialog; point-in-time recovery is off, Turn On asks first and then
 * turns it on; Export Now starts an export into the bucket and prefix typed, the list follows it
 * to Completed with its item count, and the export is in the folder in AWS's layout; the bucket
 * and prefix are remembered; Open hands the export's manifest URL to the import dialog; a
 * missing bucket ends the export Failed with S3NoSuchBucket. Then, with s3rver (npm) as the
 * bucket and a second serve exporting into it: an export opened as a snapshot — read straight
 * from the bucket into a new database, every item as served; the table menu's Open as
 * Snapshot… doing it all in one step (export, follow, open); a table of the demo
 * database exported into s3rver by the app itself, as its default session signs in; and that
 * export imported again from its s3:// URL typed into Import an Export from S3. */
#define G_LOG_DOMAIN "test-exports-gui"

#include <string.h>
#include <sys/prctl.h>

#include "app/tables/dy-exports-dialog.h"
#include "app/tables/dy-import.h"
#include "app/window/dy-window-private.h"
#include "backend/backend.h"
#include "core/ddbjson.h"
#include "gui-util.h"

static GSubprocess *server;
static char *server_url;
static char *export_dir;
static GSubprocess *s3rver;
static char *s3rver_dir;       /* where s3rver keeps the buckets' objects as files */
static GSubprocess *s3_server; /* a serve exporting into s3rver */
static char *first_export_url; /* the export test_open_as_snapshot opened */
static char *second_export_url;     /* the one test_open_as_snapshot_in_one_step made and opened */
static DyConnection *s3_connection; /* the window's connection to s3_server */
static char *s3_server_url;

static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, 9);
}

/* `dynoscope-cli --db DB serve --port 0 EXTRA…`, its URL into *URL. */
static GSubprocess *
spawn_serve (const char *db, const char *extra, char **url)
{
  const char *cli = g_getenv ("DYNOSCOPE_CLI");
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr (GDataInputStream) out = NULL;
  g_autofree char *line = NULL;
  GSubprocess *p;
  GError *error = NULL;

  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  /* A serve exporting into a folder: not into the S3 endpoint the test set for the app. */
  if (extra != NULL)
    g_subprocess_launcher_unsetenv (launcher, "AWS_ENDPOINT_URL_S3");
  p = extra != NULL ? g_subprocess_launcher_spawn (launcher, &error, cli, "--db", db, "serve",
                                                   "--port", "0", "--export-dir", extra, NULL)
                    : g_subprocess_launcher_spawn (launcher, &error, cli, "--db", db, "serve",
                                                   "--port", "0", NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (p));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (line, "Listening on http://"));
  *url = g_strdup (line + strlen ("Listening on "));
  return p;
}

/* Posts (the demo's five) imported into DB. */
static void
make_posts_db (const char *db)
{
  const char *cli = g_getenv ("DYNOSCOPE_CLI");
  g_autofree char *posts = g_build_filename (DYNOSCOPE_SOURCE_DIR, "data", "demo", "posts.jsonl",
                                             NULL);
  const char *import_argv[] = { cli, "--db", db, "import", "--table", "Posts", "--key",
                                "PK:S,SK:S", posts, NULL };
  GError *error = NULL;
  int status = 0;

  g_assert_nonnull (cli);
  g_assert_true (g_spawn_sync (NULL, (char **) import_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
}

static void
start_server (const char *dir)
{
  g_autofree char *db = g_build_filename (dir, "exports.db", NULL);
  g_autofree char *bucket = NULL;

  make_posts_db (db);
  export_dir = g_build_filename (dir, "s3", NULL);
  bucket = g_build_filename (export_dir, "bucket1", NULL);
  g_assert_cmpint (g_mkdir_with_parents (bucket, 0700), ==, 0);
  server = spawn_serve (db, export_dir, &server_url);
}

/* s3rver (npm, as tests/lib/s3rver_lib.py finds it) on a free port with bucket "snapbucket",
 * and a serve exporting into it; FALSE (nothing started) when s3rver is not installed. */
static gboolean
start_s3 (const char *dir)
{
  const char *env_dir = g_getenv ("DYNOSCOPE_S3RVER_DIR");
  g_autofree char *cache = g_build_filename (g_get_home_dir (), ".cache", "dynoscope", "s3rver",
                                             NULL);
  g_autofree char *js = g_build_filename (env_dir != NULL ? env_dir : cache, "node_modules",
                                          "s3rver", "bin", "s3rver.js", NULL);
  g_autofree char *node = g_find_program_in_path ("node");
  g_autofree char *data = g_build_filename (dir, "s3rver", NULL);
  g_autofree char *db = g_build_filename (dir, "exports-s3.db", NULL);
  g_autofree char *port_text = NULL;
  g_autofree char *url = NULL;
  g_autoptr (GSocket) probe = NULL;
  g_autoptr (GInetSocketAddress) any = NULL;
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  GError *error = NULL;
  guint16 port;

  if (node == NULL || !g_file_test (js, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  /* a free port: bound, read, let go */
  probe = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  any = G_INET_SOCKET_ADDRESS (g_inet_socket_address_new_from_string ("127.0.0.1", 0));
  g_assert_true (g_socket_bind (probe, G_SOCKET_ADDRESS (any), TRUE, &error));
  bound = g_socket_get_local_address (probe, &error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (probe, NULL);
  port_text = g_strdup_printf ("%u", port);
  url = g_strdup_printf ("http://127.0.0.1:%u", port);
  /* what the app's S3 client and serve's `dynoscope-cli s3 put` read; set before anything is
   * spawned, while the process has one thread (setenv races getenv on another thread) */
  g_setenv ("AWS_ENDPOINT_URL_S3", url, TRUE);
  g_setenv ("AWS_ACCESS_KEY_ID", "S3RVER", TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", "S3RVER", TRUE);
  g_setenv ("AWS_REGION", "us-east-1", TRUE);
  g_assert_cmpint (g_mkdir_with_parents (data, 0700), ==, 0);
  s3rver_dir = g_strdup (data);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                                        | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  s3rver = g_subprocess_launcher_spawn (launcher, &error, node, "--openssl-legacy-provider", js,
                                        "-d", data, "-a", "127.0.0.1", "-p", port_text,
                                        "--configure-bucket", "snapbucket", "--silent", NULL);
  g_assert_no_error (error);
  make_posts_db (db);
  s3_server = spawn_serve (db, NULL, &s3_server_url);
  return TRUE;
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

/* The preferences row (entry, action or combo row) titled TITLE under ROOT. */
static GtkWidget *
find_row (GtkWidget *root, const char *title)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (ADW_IS_PREFERENCES_ROW (c)
          && g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (c)), title) == 0)
        return c;
      found = find_row (c, title);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static DyImportDialog *
find_import_dialog (void)
{
  GListModel *tops = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (tops, i);

      if (DY_IS_IMPORT_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return DY_IMPORT_DIALOG (w);
    }
  return NULL;
}

/* The Exports dialog of the table the window shows, opened from the table menu, with
 * point-in-time recovery turned on there (Turn On, then its confirmation; SHOT names a
 * screenshot of the confirmation, or NULL). */
static DyExportsDialog *
open_exports_with_pitr (const char *shot)
{
  DyExportsDialog *dialog;
  GtkWidget *button;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.table-exports", NULL));
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  gui_wait_for (pitr_says, "Off", "point-in-time recovery read as off");
  /* Turn On asks first */
  button = gui_find_button (GTK_WIDGET (dialog), "_Turn On…");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  gui_wait_for (message_dialog_up, NULL, "the confirmation");
  if (shot != NULL)
    gui_screenshot (shot);
  adw_message_dialog_response (find_message_dialog (), "enable");
  gtk_window_close (GTK_WINDOW (find_message_dialog ()));
  gui_wait_for (pitr_says, "On", "point-in-time recovery on");
  return dialog;
}

/* The rows of the open dialog still being read (DescribeExport on its way). */
static GPtrArray *
rows_reading (void)
{
  GPtrArray *rows = g_ptr_array_new ();
  DyExportsDialog *dialog = find_dialog ();
  GtkListBoxRow *row;

  for (int i = 0;
       dialog != NULL
       && (row = gtk_list_box_get_row_at_index (dy_exports_dialog_get_list (dialog), i)) != NULL;
       i++)
    if (ADW_IS_ACTION_ROW (row)
        && g_strcmp0 (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "Reading the export…")
               == 0)
      g_ptr_array_add (rows, row);
  return rows;
}

static gboolean
some_rows_reading (gpointer data)
{
  g_autoptr (GPtrArray) rows = rows_reading ();

  return rows->len > 0;
}

static gboolean
all_gone (gpointer data)
{
  GPtrArray *weak = data;

  for (guint i = 0; i < weak->len; i++)
    if (g_ptr_array_index (weak, i) != NULL)
      return FALSE;
  return TRUE;
}

static gboolean
row_says_or_error (gpointer data)
{
  return row_says (data) || dy_exports_dialog_get_error (find_dialog ()) != NULL;
}

/* Export Now into BUCKET and PREFIX (NULL: as the fields stand), then waits for the list's
 * newest export to say ENDS. */
static void
export_now (DyExportsDialog *dialog, const char *bucket, const char *prefix, const char *ends)
{
  GtkWidget *button = gui_find_button (GTK_WIDGET (dialog), "_Export Now");

  gtk_editable_set_text (GTK_EDITABLE (find_row (GTK_WIDGET (dialog), "Bucket")), bucket);
  if (prefix != NULL)
    gtk_editable_set_text (
        GTK_EDITABLE (find_row (GTK_WIDGET (dialog), "Prefix (optional)")), prefix);
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  gui_wait_for (row_says_or_error, (gpointer) ends, "the export to end");
  if (!row_says ((gpointer) ends))
    g_error ("the export did not start: %s", dy_exports_dialog_get_error (dialog));
}

static void
open_seen (DyExportsDialog *dialog, const char *url, const char *key_spec,
           const char *const *incrementals, char **out)
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
  g_autofree char *start = NULL;
  GtkEditable *from;
  GError *error = NULL;

  c = dy_window_add_endpoint (gui_window, server_url, "us-east-1", FALSE, &error);
  g_assert_no_error (error);
  dy_window_expand_connection (gui_window, c);
  gui_wait_for (connection_loaded, c, "the endpoint's tables");
  view = dy_window_open_table (gui_window, c, "Posts");
  gui_wait_for (gui_view_ready, view, "DescribeTable over HTTP");

  /* the table menu's action */
  dialog = open_exports_with_pitr ("2c-exports-pitr-confirm.png");
  g_signal_connect (dialog, "open", G_CALLBACK (open_seen), &opened);

  /* an export into bucket1/exp */
  export_now (dialog, "bucket1", "exp", "Completed");
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
  /* the import dialog it opened (a folder bucket is no S3: its look fails, named) */
  g_assert_nonnull (find_import_dialog ());
  gtk_window_destroy (GTK_WINDOW (find_import_dialog ()));

  /* a bucket that does not exist: the export fails as AWS's does */
  export_now (dialog, "nobucket", NULL, "S3NoSuchBucket");
  g_assert_nonnull (strstr (row_subtitle (0), "Failed"));

  /* an incremental export: from where the newest completed export ended (filled in) until
   * now; Export and Open is off for it (an incremental export alone is no snapshot) */
  adw_combo_row_set_selected (ADW_COMBO_ROW (find_row (GTK_WIDGET (dialog), "Type")), 1);
  from = GTK_EDITABLE (find_row (GTK_WIDGET (dialog), "Changes From"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (from)));
  g_assert_cmpstr (gtk_editable_get_text (from), !=, "");
  g_assert_false (
      gtk_widget_get_sensitive (gui_find_button (GTK_WIDGET (dialog), "Export _and Open")));
  start = g_strdup (gtk_editable_get_text (from));
  gtk_editable_set_text (from, "yesterday");
  gtk_editable_set_text (GTK_EDITABLE (find_row (GTK_WIDGET (dialog), "Bucket")), "bucket1");
  g_signal_emit_by_name (gui_find_button (GTK_WIDGET (dialog), "_Export Now"), "clicked");
  g_assert_nonnull (dy_exports_dialog_get_error (dialog));
  g_assert_nonnull (strstr (dy_exports_dialog_get_error (dialog), "“yesterday” is not a time"));
  gtk_editable_set_text (from, start);
  export_now (dialog, "bucket1", "inc", "Completed");
  g_assert_nonnull (strstr (row_subtitle (0), "Incremental"));
  g_assert_null (dy_exports_dialog_get_error (dialog));
  gui_screenshot ("2d-exports-incremental.png");
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* More exports than a page of ListExports (25): every page is read, the newest first. */
  {
    g_autoptr (DdbBackend) backend = dy_connection_open_backend (c, 0, &error);
    json_t *resp = NULL;
    g_autofree char *table_arn = NULL;
    g_autofree char *newest_id = NULL;
    GtkListBoxRow *first;
    GtkWidget *open;
    guint rows = 0;

    g_assert_no_error (error);
    g_assert_true (ddb_backend_call (
        backend, "DescribeTable", json_pack ("{ss}", "TableName", "Posts"), NULL, &resp, &error));
    g_assert_no_error (error);
    table_arn = g_strdup (
        json_string_value (json_object_get (json_object_get (resp, "Table"), "TableArn")));
    json_decref (resp);
    for (guint i = 0; i < 26; i++)
      {
        json_t *req = json_pack ("{ss ss ss}", "TableArn", table_arn, "S3Bucket", "bucket1",
                                 "S3Prefix", "many");
        const char *arn;

        g_assert_true (
            ddb_backend_call (backend, "ExportTableToPointInTime", req, NULL, &resp, &error));
        g_assert_no_error (error);
        json_decref (req);
        arn = json_string_value (
            json_object_get (json_object_get (resp, "ExportDescription"), "ExportArn"));
        /* the newest by its id (its time first, to the millisecond) */
        if (newest_id == NULL || strcmp (strstr (arn, "/export/") + 8, newest_id) > 0)
          {
            g_free (newest_id);
            newest_id = g_strdup (strstr (arn, "/export/") + 8);
          }
        json_decref (resp);
      }
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.table-exports", NULL));
    dialog = find_dialog ();
    g_assert_nonnull (dialog);
    /* 29 exports: the first, the failed one, the incremental one and these 26 */
    gui_wait_for (row_says, "Completed", "the newest export to be read as completed");
    while (gtk_list_box_get_row_at_index (dy_exports_dialog_get_list (dialog), (int) rows) != NULL)
      rows++;
    g_assert_cmpuint (rows, ==, 29);
    first = gtk_list_box_get_row_at_index (dy_exports_dialog_get_list (dialog), 0);
    open = gui_find_button (GTK_WIDGET (first), "_Open");
    g_assert_nonnull (open);
    g_assert_nonnull (strstr (g_object_get_data (G_OBJECT (open), "url"), newest_id));
    gtk_window_destroy (GTK_WINDOW (dialog));
  }

  /* Closed while its exports are being read: the answers (cancelled) find no dialog, and touch
   * nothing of it (they once read the freed dialog, and crashed). Each row still being read is
   * let go by its answer's callback, the last to hold it. */
  {
    g_autoptr (GPtrArray) reading = NULL;
    g_autoptr (GPtrArray) weak = g_ptr_array_new ();

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.table-exports", NULL));
    gui_wait_for (some_rows_reading, NULL, "the exports to be listed, not yet read");
    reading = rows_reading ();
    g_ptr_array_set_size (weak, (gint) reading->len);
    for (guint i = 0; i < reading->len; i++)
      {
        weak->pdata[i] = reading->pdata[i];
        g_object_add_weak_pointer (G_OBJECT (weak->pdata[i]), &weak->pdata[i]);
      }
    gtk_window_destroy (GTK_WINDOW (find_dialog ()));
    gui_wait_for (all_gone, weak, "the rows being read to be let go by their answers");
    g_assert_null (find_dialog ());
  }
}

static gboolean
s3rver_answers (gpointer data)
{
  g_autoptr (GSocketClient) client = g_socket_client_new ();
  g_autoptr (GSocketConnection) c
      = g_socket_client_connect_to_uri (client, g_getenv ("AWS_ENDPOINT_URL_S3"), 80, NULL, NULL);

  return c != NULL;
}

static gboolean
import_inspected (gpointer data)
{
  return dy_import_dialog_get_inspected (data);
}

static gboolean
import_dialog_gone (gpointer data)
{
  return find_import_dialog () == NULL;
}

/* The database DB_FILE the import made (in the app's data folder) holds in TABLE exactly the
 * items of the demo's JSONL file. */
static void
assert_imported_demo_table (const char *db_file, const char *table, const char *jsonl)
{
  g_autofree char *db_path = g_build_filename (g_get_user_data_dir (), "dynoscope", db_file, NULL);
  g_autofree char *source = g_build_filename (DYNOSCOPE_SOURCE_DIR, "data", "demo", jsonl, NULL);
  g_autoptr (DdbBackend) backend = NULL;
  json_auto_t *resp = NULL;
  json_auto_t *req = json_pack ("{ss}", "TableName", table);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GError *error = NULL;
  guint n = 0;

  g_assert_true (g_file_test (db_path, G_FILE_TEST_IS_REGULAR));
  backend = ddb_backend_open_database (db_path, &error);
  g_assert_no_error (error);
  g_assert_true (ddb_backend_call (backend, "Scan", req, NULL, &resp, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (source, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (DdbValue) want = NULL;
      gboolean found = FALSE;
      gsize k;
      json_t *item;

      if (lines[i][0] == '\0')
        continue;
      n++;
      want = ddb_json_parse_item (lines[i], -1, &error);
      g_assert_no_error (error);
      json_array_foreach (json_object_get (resp, "Items"), k, item)
        {
          g_autoptr (DdbValue) got = ddb_json_to_item (item, NULL);

          found |= got != NULL && ddb_value_equal (want, got);
        }
      g_assert_true (found);
    }
  g_assert_cmpint (json_integer_value (json_object_get (resp, "Count")), ==, n);
}

static void
test_open_as_snapshot (void)
{
  DyConnection *c;
  DyTableView *view;
  DyExportsDialog *dialog;
  DyImportDialog *import;
  GtkWidget *button;
  GError *error = NULL;

  if (s3_server == NULL)
    {
      g_test_skip ("s3rver (npm) is not installed");
      return;
    }
  gui_wait_for (s3rver_answers, NULL, "s3rver to answer");
  c = dy_window_add_endpoint (gui_window, s3_server_url, "us-east-1", FALSE, &error);
  g_assert_no_error (error);
  s3_connection = c;
  dy_window_expand_connection (gui_window, c);
  gui_wait_for (connection_loaded, c, "the endpoint's tables");
  view = dy_window_open_table (gui_window, c, "Posts");
  gui_wait_for (gui_view_ready, view, "DescribeTable over HTTP");
  dialog = open_exports_with_pitr (NULL);
  export_now (dialog, "snapbucket", NULL, "Completed");

  /* Open: the import dialog reads the export in the bucket */
  button = gui_find_button (GTK_WIDGET (dialog), "_Open");
  g_signal_emit_by_name (button, "clicked");
  import = find_import_dialog ();
  g_assert_nonnull (import);
  g_assert_true (g_str_has_prefix (dy_import_dialog_get_source (import), "s3://snapbucket/"));
  first_export_url = g_strdup (dy_import_dialog_get_source (import));
  gui_wait_for (import_inspected, import, "the export in the bucket to be looked at");
  gtk_window_destroy (GTK_WINDOW (dialog));
  gui_settle ();
  gui_screenshot ("2e-import-from-bucket.png");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (import), "import.start", NULL));
  gui_wait_for (import_dialog_gone, NULL, "the import from the bucket to finish");

  /* the new database holds every item as served */
  assert_imported_demo_table ("Posts.db", "Posts", "posts.jsonl");
}

static gboolean
import_dialog_shown (gpointer data)
{
  return find_import_dialog () != NULL;
}

/* The table menu's Open as Snapshot…: the exports dialog exports at once into the bucket
 * remembered (test_open_as_snapshot's), follows the export, and opens the import dialog on it
 * when it is complete; the import makes a second database, every item as served. */
static void
test_open_as_snapshot_in_one_step (void)
{
  DyExportsDialog *dialog;
  DyImportDialog *import;

  if (s3_server == NULL)
    {
      g_test_skip ("s3rver (npm) is not installed");
      return;
    }
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.open-as-snapshot", NULL));
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  gui_wait_for (import_dialog_shown, NULL, "the export to complete and open");
  import = find_import_dialog ();
  g_assert_true (g_str_has_prefix (dy_import_dialog_get_source (import), "s3://snapbucket/"));
  /* a new export, not the one opened before */
  g_assert_cmpstr (dy_import_dialog_get_source (import), !=, first_export_url);
  second_export_url = g_strdup (dy_import_dialog_get_source (import));
  gui_wait_for (import_inspected, import, "the new export to be looked at");
  /* Posts.db is the first import's: the dialog names the file it will make */
  g_assert_true (g_str_has_suffix (
      adw_action_row_get_subtitle (ADW_ACTION_ROW (find_row (GTK_WIDGET (import), "Database"))),
      "/Posts-2.db"));
  gui_screenshot ("2g-open-as-snapshot.png");
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (import), "import.start", NULL));
  gui_wait_for (import_dialog_gone, NULL, "the import of the new export to finish");
  assert_imported_demo_table ("Posts-2.db", "Posts", "posts.jsonl");
}

static gboolean
import_gone_or_failed (gpointer import)
{
  return find_import_dialog () == NULL || dy_import_dialog_get_error (import) != NULL;
}

/* An incremental export opened: the import dialog gets the newest full export before it (the
 * one test_open_as_snapshot_in_one_step made) with the incremental one on top, and the table
 * as of its end is imported. */
static void
test_open_incremental (void)
{
  DyTableView *view;
  DyExportsDialog *dialog;
  DyImportDialog *import;
  const char *const *incrementals;
  GtkWidget *button;

  if (s3_server == NULL)
    {
      g_test_skip ("s3rver (npm) is not installed");
      return;
    }
  /* the second serve's Posts again (the import above selected its new database) */
  view = dy_window_open_table (gui_window, s3_connection, "Posts");
  gui_wait_for (gui_view_ready, view, "DescribeTable over HTTP");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.table-exports", NULL));
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  gui_wait_for (pitr_says, "On", "point-in-time recovery read as on");
  adw_combo_row_set_selected (ADW_COMBO_ROW (find_row (GTK_WIDGET (dialog), "Type")), 1);
  export_now (dialog, "snapbucket", NULL, "Completed · Incremental");
  button = gui_find_button (
      GTK_WIDGET (gtk_list_box_get_row_at_index (dy_exports_dialog_get_list (dialog), 0)), "_Open");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  import = find_import_dialog ();
  g_assert_nonnull (import);
  g_assert_cmpstr (dy_import_dialog_get_source (import), ==, second_export_url);
  incrementals = dy_import_dialog_get_incrementals (import);
  g_assert_nonnull (incrementals);
  g_assert_cmpuint (g_strv_length ((char **) incrementals), ==, 1);
  g_assert_true (g_str_has_prefix (incrementals[0], "s3://snapbucket/AWSDynamoDB/"));
  gui_wait_for (import_inspected, import, "the full export to be looked at");
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (find_row (
                                GTK_WIDGET (import), dy_import_dialog_get_source (import)))),
                            "then 1 incremental export"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (import), "import.start", NULL));
  gui_wait_for (import_gone_or_failed, import, "the import of the exports to finish");
  if (find_import_dialog () != NULL)
    g_error ("the import failed: %s", dy_import_dialog_get_error (import));
  assert_imported_demo_table ("Posts-3.db", "Posts", "posts.jsonl");
}

/* TRUE if a file named NAME lies anywhere under DIR. */
static gboolean
tree_holds (const char *dir, const char *name)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *entry;

  while (d != NULL && (entry = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, entry, NULL);

      if (strcmp (entry, name) == 0
          || (g_file_test (path, G_FILE_TEST_IS_DIR) && tree_holds (path, name)))
        return TRUE;
    }
  return FALSE;
}

/* A database's export (the demo database's table) goes to S3 as the app's default session
 * signs in (here s3rver through AWS_ENDPOINT_URL_S3), in AWS's layout under the prefix. */
static void
test_database_export_to_s3 (void)
{
  DyTableView *view;
  DyExportsDialog *dialog;
  g_autofree char *bucket_dir = NULL;

  if (s3_server == NULL)
    {
      g_test_skip ("s3rver (npm) is not installed");
      return;
    }
  gui_wait_for (s3rver_answers, NULL, "s3rver to answer");
  view = gui_open_table ("Blog");
  gui_wait_for (gui_view_ready, view, "DescribeTable of the demo database");
  dialog = open_exports_with_pitr (NULL);
  export_now (dialog, "snapbucket", "fromdb", "Completed");
  /* s3rver keeps the objects as files under its folder: the summary is there */
  bucket_dir = g_build_filename (s3rver_dir, "snapbucket", "fromdb", "AWSDynamoDB", NULL);
  g_assert_true (tree_holds (bucket_dir, "manifest-summary.json._S3rver_object"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* The dialog asking for an export's s3:// URL, if shown. */
static AdwMessageDialog *
find_s3_url_dialog (void)
{
  GListModel *tops = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (tops, i);

      if (ADW_IS_MESSAGE_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w))
          && g_object_get_data (w, "url-entry") != NULL)
        return ADW_MESSAGE_DIALOG (w);
    }
  return NULL;
}

static gboolean
url_dialog_gone (gpointer data)
{
  return find_s3_url_dialog () == NULL;
}

/* The window's Import an Export from S3: the URL typed (Open only for an s3:// one), the import
 * dialog reads the export under that prefix (the demo table's, exported above) and imports it,
 * every item there. */
static void
test_import_typed_s3_url (void)
{
  AdwMessageDialog *ask;
  GtkEditable *entry;
  DyImportDialog *import;

  if (s3_server == NULL)
    {
      g_test_skip ("s3rver (npm) is not installed");
      return;
    }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.import-s3", NULL));
  ask = find_s3_url_dialog ();
  g_assert_nonnull (ask);
  entry = g_object_get_data (G_OBJECT (ask), "url-entry");
  g_assert_false (adw_message_dialog_get_response_enabled (ask, "open"));
  gtk_editable_set_text (entry, "https://snapbucket/fromdb");
  g_assert_false (adw_message_dialog_get_response_enabled (ask, "open"));
  gtk_editable_set_text (entry, "s3://snapbucket/fromdb");
  g_assert_true (adw_message_dialog_get_response_enabled (ask, "open"));
  gui_screenshot ("2f-import-s3-url.png");
  g_signal_emit_by_name (entry, "activate");
  gui_wait_for (url_dialog_gone, NULL, "the URL dialog to close");
  import = find_import_dialog ();
  g_assert_nonnull (import);
  g_assert_cmpstr (dy_import_dialog_get_source (import), ==, "s3://snapbucket/fromdb");
  gui_wait_for (import_inspected, import, "the export under the prefix to be looked at");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (import), "import.start", NULL));
  gui_wait_for (import_dialog_gone, NULL, "the import from the typed URL to finish");
  assert_imported_demo_table ("Blog.db", "Blog", "blog.jsonl");
}

int
main (int argc, char **argv)
{
  const char *dir = gui_init (&argc, &argv);
  int status;

  g_setenv ("DYNOSCOPE_EXPORT_POLL_MS", "50", TRUE);
  /* s3rver first: it sets the environment, which must happen before any thread starts */
  start_s3 (dir);
  start_server (dir);
  g_test_add_func ("/exports-gui/exports", test_exports);
  g_test_add_func ("/exports-gui/open-as-snapshot", test_open_as_snapshot);
  g_test_add_func ("/exports-gui/open-as-snapshot-in-one-step", test_open_as_snapshot_in_one_step);
  g_test_add_func ("/exports-gui/open-incremental", test_open_incremental);
  g_test_add_func ("/exports-gui/database-export-to-s3", test_database_export_to_s3);
  g_test_add_func ("/exports-gui/import-typed-s3-url", test_import_typed_s3_url);
  status = gui_run_tests ();
  g_subprocess_force_exit (server);
  if (s3_server != NULL)
    g_subprocess_force_exit (s3_server);
  if (s3rver != NULL)
    g_subprocess_force_exit (s3rver);
  return status;
}
