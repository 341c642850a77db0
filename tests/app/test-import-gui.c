/* test-import-gui.c: the Import Snapshot dialog driven in the real app under Xvfb: a DynamoDB
 * export to S3 (AWS's layout, written here) imported into a new database opens with its table
 * selected and every item exact; a second import of the same name shows DynamoDB's error in the
 * dialog; a cancelled import, into a new database or an open one, leaves nothing behind.
 * With DYNOSCOPE_SCREENSHOT_DIR set, it also writes PNGs of the dialog and its progress. */
#define G_LOG_DOMAIN "test-import-gui"

#include <glib/gstdio.h>
#include <string.h>

#include "app/tables/dy-import.h"
#include "backend/backend.h"
#include "core/ddbjson.h"
#include "gui-util.h"

#define N_ITEMS 300
#define N_BULK 600000

static char *work_dir;  /* snapshots written by the tests */
static char *data_home; /* XDG_DATA_HOME: where new databases go */

/* ---- Writing snapshots ---- */

static void
write_gzip (const char *path, const char *text, gsize len)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GFileOutputStream) out
      = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_autoptr (GZlibCompressor) gzip = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr (GOutputStream) z = NULL;

  g_assert_no_error (error);
  z = g_converter_output_stream_new (G_OUTPUT_STREAM (out), G_CONVERTER (gzip));
  g_assert_true (g_output_stream_write_all (z, text, len, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (z, NULL, &error));
  g_assert_no_error (error);
}

/* Item I of the export: composite key, a 38-digit number, binary, sets, nesting. */
static char *
export_item (guint i)
{
  guint8 bytes[6] = { 0x00, 0xff, (guint8) i, (guint8) (i >> 8), 0x80, 0x7f };
  g_autofree char *b64 = g_base64_encode (bytes, sizeof bytes);

  return g_strdup_printf (
      "{\"PK\":{\"S\":\"TENANT#%02u\"},\"SK\":{\"S\":\"ITEM#%05u\"},"
      "\"big\":{\"N\":\"9999999999999999999999999999999999%04u\"},"
      "\"tiny\":{\"N\":\"-1.234567890123456789012345678901234567E-120\"},"
      "\"blob\":{\"B\":\"%s\"},\"tags\":{\"SS\":[\"red\",\"green\",\"t%u\"]},"
      "\"sizes\":{\"NS\":[\"1\",\"2.5\",\"%u\"]},\"bins\":{\"BS\":[\"AAE=\",\"/w==\"]},"
      "\"doc\":{\"M\":{\"ok\":{\"BOOL\":true},\"none\":{\"NULL\":true},"
      "\"list\":{\"L\":[{\"S\":\"é ✓\"},{\"N\":\"%u\"}]}}}}",
      i % 7, i, i, b64, i, 1000 + i, i);
}

static char *
md5_hex (const char *data, gsize len, char **base64)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_MD5);
  guint8 digest[16];
  gsize n = sizeof digest;

  g_checksum_update (sum, (const guchar *) data, len);
  g_checksum_get_digest (sum, digest, &n);
  *base64 = g_base64_encode (digest, n);
  return g_strdup (g_checksum_get_string (sum));
}

/* An export as AWS writes it under the bucket prefix PREFIX:
 * AWSDynamoDB/<export id>/{manifest-summary.json, manifest-files.json, data/<id>.json.gz}. */
static char *
write_s3_export (const char *name, const char *table)
{
  g_autofree char *prefix = g_build_filename (work_dir, name, NULL);
  g_autofree char *export_dir
      = g_build_filename (prefix, "AWSDynamoDB", "01733333333333-1a2b3c4d", NULL);
  g_autofree char *data_dir = g_build_filename (export_dir, "data", NULL);
  g_autofree char *gz = g_build_filename (data_dir, "x7kq2abcdeaaa.json.gz", NULL);
  g_autofree char *gz_text = NULL;
  g_autofree char *md5_b64 = NULL;
  g_autofree char *etag = NULL;
  g_autofree char *files = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *files_path = g_build_filename (export_dir, "manifest-files.json", NULL);
  g_autofree char *summary_path = g_build_filename (export_dir, "manifest-summary.json", NULL);
  GString *lines = g_string_new (NULL);
  gsize gz_len;

  g_assert_cmpint (g_mkdir_with_parents (data_dir, 0700), ==, 0);
  for (guint i = 0; i < N_ITEMS; i++)
    {
      g_autofree char *item = export_item (i);

      g_string_append_printf (lines, "{\"Item\":%s}\n", item);
    }
  write_gzip (gz, lines->str, lines->len);
  g_string_free (lines, TRUE);
  g_assert_true (g_file_get_contents (gz, &gz_text, &gz_len, NULL));
  etag = md5_hex (gz_text, gz_len, &md5_b64);
  files = g_strdup_printf ("{\"itemCount\":%u,\"md5Checksum\":\"%s\",\"etag\":\"%s\","
                           "\"dataFileS3Key\":\"exports/AWSDynamoDB/01733333333333-1a2b3c4d/"
                           "data/x7kq2abcdeaaa.json.gz\"}\n",
                           N_ITEMS, md5_b64, etag);
  g_assert_true (g_file_set_contents (files_path, files, -1, NULL));
  summary = g_strdup_printf (
      "{\"version\":\"2020-06-30\",\"exportArn\":\"arn:aws:dynamodb:eu-west-1:123456789012:"
      "table/%s/export/01733333333333-1a2b3c4d\",\"startTime\":\"2026-11-30T08:00:00.000Z\","
      "\"endTime\":\"2026-11-30T08:05:00.000Z\",\"tableArn\":\"arn:aws:dynamodb:eu-west-1:"
      "123456789012:table/%s\",\"tableId\":\"5e1c0ffe-0000-4000-8000-000000000001\","
      "\"exportTime\":\"2026-11-30T08:00:00.000Z\",\"s3Bucket\":\"backups\",\"s3Prefix\":"
      "\"exports\",\"s3SseAlgorithm\":\"AES256\",\"s3SseKmsKeyId\":null,"
      "\"manifestFilesS3Key\":\"exports/AWSDynamoDB/01733333333333-1a2b3c4d/"
      "manifest-files.json\",\"billedSizeBytes\":%" G_GSIZE_FORMAT ",\"itemCount\":%u,"
      "\"outputFormat\":\"DYNAMODB_JSON\",\"exportType\":\"FULL_EXPORT\"}",
      table, table, gz_len, N_ITEMS);
  g_assert_true (g_file_set_contents (summary_path, summary, -1, NULL));
  return g_steal_pointer (&prefix);
}

/* DynamoDB JSON lines, gzipped, big enough that an import is still running when cancelled. */
static char *
write_bulk_jsonl (void)
{
  char *path = g_build_filename (work_dir, "bulk-items.jsonl.gz", NULL);
  GString *lines = g_string_sized_new (N_BULK * 64);

  for (guint i = 0; i < N_BULK; i++)
    g_string_append_printf (
        lines, "{\"pk\":{\"S\":\"K#%07u\"},\"n\":{\"N\":\"%u\"},\"s\":{\"S\":\"%x\"}}\n", i, i,
        i * 2654435761u);
  write_gzip (path, lines->str, lines->len);
  g_string_free (lines, TRUE);
  return path;
}

/* ---- Driving the dialog ---- */

static DyImportDialog *
find_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (toplevels, i);

      if (DY_IS_IMPORT_DIALOG (w))
        return DY_IMPORT_DIALOG (w);
    }
  return NULL;
}

static gboolean
dialog_inspected (gpointer data)
{
  return dy_import_dialog_get_inspected (data);
}

static gboolean
dialog_gone (gpointer data)
{
  return find_dialog () == NULL;
}

static gboolean
dialog_stopped_with_error (gpointer data)
{
  return !dy_import_dialog_get_running (data) && dy_import_dialog_get_error (data) != NULL;
}

static GtkWidget *
dialog_child (DyImportDialog *dialog, const char *name)
{
  GObject *object
      = gtk_widget_get_template_child (GTK_WIDGET (dialog), DY_TYPE_IMPORT_DIALOG, name);

  g_assert_nonnull (object);
  return GTK_WIDGET (object);
}

/* Opens the dialog through the window's action, as the file chooser does. */
static DyImportDialog *
open_dialog (const char *source)
{
  DyImportDialog *dialog;

  g_assert_null (find_dialog ());
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.import-source", "s", source));
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  gui_wait_for (dialog_inspected, dialog, "the source to be looked at");
  return dialog;
}

static void
choose_database (DyImportDialog *dialog, const char *title)
{
  AdwComboRow *row = ADW_COMBO_ROW (dialog_child (dialog, "database_row"));
  GListModel *model = adw_combo_row_get_model (row);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (GtkStringObject) s = g_list_model_get_item (model, i);

      if (g_str_equal (gtk_string_object_get_string (s), title))
        {
          adw_combo_row_set_selected (row, i);
          return;
        }
    }
  g_error ("no database %s in the dialog", title);
}

static guint64
progress_items (DyImportDialog *dialog)
{
  return g_ascii_strtoull (gtk_label_get_text (GTK_LABEL (dialog_child (dialog, "progress_label"))),
                           NULL, 10);
}

static gboolean
import_under_way (gpointer data)
{
  return dy_import_dialog_get_running (data) && progress_items (data) > 0;
}

static char *
new_database_path (const char *file)
{
  return g_build_filename (data_home, "dynoscope", file, NULL);
}

static DyConnection *
find_database (const char *path)
{
  return dy_window_find_connection (gui_window, DY_CONNECTION_DATABASE, path);
}

static gboolean
table_opened (gpointer data)
{
  const char *table = data;
  DyTableView *view = dy_window_get_current_view (gui_window);

  return view != NULL && g_strcmp0 (dy_table_view_get_table_name (view), table) == 0
         && dy_table_view_get_ready (view);
}

static gboolean
database_listed (gpointer data)
{
  return find_database (data) != NULL;
}

/* Every item of TABLE in the database at PATH, by SK (or pk), read with a Scan through an
 * engine of its own. */
static GHashTable *
read_items (const char *path, const char *table, const char *key)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = ddb_backend_open_database (path, &error);
  GHashTable *items
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) ddb_value_free);
  json_t *start = NULL;

  g_assert_no_error (error);
  do
    {
      json_t *request = json_pack ("{ss}", "TableName", table);
      json_t *response = NULL;
      json_t *item;
      gsize i;

      if (start != NULL)
        json_object_set_new (request, "ExclusiveStartKey", start);
      g_assert_true (ddb_backend_call (backend, "Scan", request, NULL, &response, &error));
      g_assert_no_error (error);
      json_array_foreach (json_object_get (response, "Items"), i, item)
        {
          DdbValue *v = ddb_json_to_item (item, &error);
          const DdbValue *k;

          g_assert_no_error (error);
          k = ddb_value_map_get (v, key);
          g_assert_nonnull (k);
          g_hash_table_insert (items, g_strndup (k->bytes.data, k->bytes.len), v);
        }
      start = json_incref (json_object_get (response, "LastEvaluatedKey"));
      json_decref (response);
      json_decref (request);
    }
  while (start != NULL);
  return items;
}

static gboolean
table_exists (const char *path, const char *table)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = ddb_backend_open_database (path, &error);
  json_t *request = json_pack ("{ss}", "TableName", table);
  json_t *response = NULL;
  gboolean ok;

  g_assert_no_error (error);
  ok = ddb_backend_call (backend, "DescribeTable", request, NULL, &response, &error);
  json_decref (request);
  json_decref (response);
  if (!ok)
    g_assert_error (error, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND);
  return ok;
}

/* ---- Tests ---- */

static void
test_s3_export_new_database (void)
{
  g_autofree char *source = write_s3_export ("exports", "Inventory");
  g_autofree char *db_path = new_database_path ("Inventory.db");
  g_autofree char *part = g_strconcat (db_path, ".part", NULL);
  g_autoptr (GHashTable) items = NULL;
  DyImportDialog *dialog = open_dialog (source);
  DyConnection *c;

  /* Prefilled from the export's tableArn; a new database by default. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (dialog_child (dialog, "table_entry"))), ==,
                   "Inventory");
  g_assert_cmpuint (
      adw_combo_row_get_selected (ADW_COMBO_ROW (dialog_child (dialog, "database_row"))), ==, 0);
  g_assert_nonnull (
      strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (dialog_child (dialog, "source_row"))),
              "300 items"));
  gui_screenshot ("40-import-dialog.png");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "import.start", NULL));
  gui_wait_for (dialog_gone, NULL, "the import to finish");
  gui_wait_for (database_listed, db_path, "the new database in the sidebar");
  gui_wait_for (table_opened, "Inventory", "the new table to open");
  gui_settle ();
  gui_screenshot ("41-import-done.png");
  c = find_database (db_path);
  g_assert_true (dy_table_view_get_connection (dy_window_get_current_view (gui_window)) == c);
  g_assert_true (g_file_test (db_path, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (part, G_FILE_TEST_EXISTS));

  /* Every item, exactly as exported. */
  items = read_items (db_path, "Inventory", "SK");
  g_assert_cmpuint (g_hash_table_size (items), ==, N_ITEMS);
  for (guint i = 0; i < N_ITEMS; i++)
    {
      g_autofree char *text = export_item (i);
      g_autoptr (GError) error = NULL;
      g_autoptr (DdbValue) want = ddb_json_parse_item (text, -1, &error);
      g_autofree char *sk = g_strdup_printf ("ITEM#%05u", i);
      const DdbValue *got = g_hash_table_lookup (items, sk);
      g_autofree char *big = NULL;
      g_autofree char *want_big
          = g_strdup_printf ("{\"N\":\"9999999999999999999999999999999999%04u\"}", i);

      g_assert_no_error (error);
      g_assert_nonnull (got);
      g_assert_true (ddb_value_equal (want, got));
      big = ddb_json_format_value (ddb_value_map_get (got, "big"));
      g_assert_cmpstr (big, ==, want_big); /* digit for digit */
    }
}

static gboolean
widget_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

static void
test_existing_table_error (void)
{
  g_autofree char *source = g_build_filename (work_dir, "exports", NULL);
  g_autofree char *db_path = new_database_path ("Inventory.db");
  DyImportDialog *dialog = open_dialog (source);
  GtkWidget *error_label = dialog_child (dialog, "error_label");

  /* The same table into the database it is in already: DynamoDB's error, in the dialog. */
  choose_database (dialog, "Inventory.db");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "import.start", NULL));
  gui_wait_for (dialog_stopped_with_error, dialog, "the import to fail");
  g_assert_nonnull (strstr (dy_import_dialog_get_error (dialog), "ResourceInUseException"));
  g_assert_nonnull (strstr (dy_import_dialog_get_error (dialog), "Choose another table name"));
  g_assert_true (
      gtk_revealer_get_reveal_child (GTK_REVEALER (dialog_child (dialog, "error_revealer"))));
  gui_wait_for (widget_mapped, error_label, "the error to be shown");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (error_label)), ==,
                   dy_import_dialog_get_error (dialog));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (dialog_child (dialog, "stack"))),
                   ==, "form");
  gui_screenshot ("42-import-error.png");

  /* An invalid table name or key schema cannot be sent. */
  gtk_editable_set_text (GTK_EDITABLE (dialog_child (dialog, "table_entry")), "no spaces here");
  g_assert_false (gtk_widget_is_sensitive (dialog_child (dialog, "import_button")));
  gtk_editable_set_text (GTK_EDITABLE (dialog_child (dialog, "table_entry")), "Inventory2");
  gtk_editable_set_text (GTK_EDITABLE (dialog_child (dialog, "key_entry")), "PK:X");
  g_assert_false (gtk_widget_is_sensitive (dialog_child (dialog, "import_button")));
  gtk_editable_set_text (GTK_EDITABLE (dialog_child (dialog, "key_entry")), "PK:S,SK:S");
  g_assert_true (gtk_widget_is_sensitive (dialog_child (dialog, "import_button")));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "import.cancel", NULL));
  gui_wait_for (dialog_gone, NULL, "the dialog to close");
  g_assert_true (table_exists (db_path, "Inventory"));
  g_assert_false (table_exists (db_path, "Inventory2"));
}

/* Cancels an import of the bulk file into DATABASE (NULL: a new one) once it is under way. */
static void
cancel_bulk_import (const char *database)
{
  g_autofree char *source = write_bulk_jsonl ();
  DyImportDialog *dialog = open_dialog (source);

  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (dialog_child (dialog, "table_entry"))), ==,
                   "bulk-items");
  if (database != NULL)
    choose_database (dialog, database);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "import.start", NULL));
  gui_wait_for (import_under_way, dialog, "the import to get under way");
  gui_screenshot_after ("43-import-progress.png", 400);
  /* Still running: the screenshot must not have let it finish. */
  g_assert_true (dy_import_dialog_get_running (dialog));
  g_assert_cmpuint (progress_items (dialog), <, N_BULK);
  /* The data files: the one file, not read to its end yet. */
  {
    const char *text = gtk_label_get_text (GTK_LABEL (dialog_child (dialog, "progress_label")));
    if (!g_str_has_suffix (text, " · 0/1 file"))
      g_error ("progress without its files: %s", text);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "import.cancel", NULL));
  gui_wait_for (dialog_gone, NULL, "the cancelled import to stop");
  gui_settle ();
  g_unlink (source);
}

static void
test_cancel_new_database (void)
{
  g_autofree char *db_path = new_database_path ("bulk-items.db");
  g_autofree char *part = g_strconcat (db_path, ".part", NULL);
  g_autofree char *part_wal = g_strconcat (part, "-wal", NULL);
  guint n_before;

  /* The connections as they stand once the demo database is up (run alone, it may not be). */
  gui_wait_for (gui_demo_tables_listed, NULL, "the demo database's tables");
  n_before = g_list_model_get_n_items (dy_window_get_connections (gui_window));
  cancel_bulk_import (NULL);
  g_assert_false (g_file_test (db_path, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (part, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (part_wal, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (g_list_model_get_n_items (dy_window_get_connections (gui_window)), ==,
                    n_before);
}

static void
test_cancel_open_database (void)
{
  g_autofree char *db_path = new_database_path ("Inventory.db");
  DyConnection *c = find_database (db_path);

  g_assert_nonnull (c);
  cancel_bulk_import ("Inventory.db");
  g_assert_false (table_exists (db_path, "bulk-items"));
  /* What was there is untouched. */
  g_assert_true (table_exists (db_path, "Inventory"));
}

/* The actions ask for the source first: a file, or a folder for an S3 export. */
static GtkFileChooser *
find_chooser (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return GTK_FILE_CHOOSER (w);
    }
  return NULL;
}

static gboolean
chooser_shown (gpointer data)
{
  return find_chooser () != NULL;
}

static gboolean
chooser_gone (gpointer data)
{
  return find_chooser () == NULL;
}

static void
test_choosers (void)
{
  static const struct {
    const char *action;
    GtkFileChooserAction mode;
  } cases[] = {
    { "win.import", GTK_FILE_CHOOSER_ACTION_OPEN },
    { "win.import-folder", GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER },
  };

#ifdef __SANITIZE_ADDRESS__
  /* The fallback chooser's sidebar leaks inside libcloudproviders, a system library that
   * tests/app/lsan.supp does not cover. */
  g_test_skip ("the file chooser leaks inside libcloudproviders under LeakSanitizer");
  return;
#endif
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GtkFileChooser *chooser;

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), cases[i].action, NULL));
      gui_wait_for (chooser_shown, NULL, "the file chooser");
      chooser = find_chooser ();
      g_assert_cmpint (gtk_file_chooser_get_action (chooser), ==, cases[i].mode);
      /* Cancelled: no import dialog follows. */
      gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
      gui_wait_for (chooser_gone, NULL, "the file chooser to close");
      gui_settle ();
      g_assert_null (find_dialog ());
    }
}

/* Ctrl+Shift+O is bound to win.import, and to nothing else. */
static void
test_shortcut (void)
{
  GListModel *controllers = gtk_widget_observe_controllers (GTK_WIDGET (gui_window));
  guint import_bindings = 0, same_trigger = 0;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);
          g_autofree char *trigger
              = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));

          same_trigger += g_str_equal (trigger, "<Shift><Control>o");
          if (GTK_IS_NAMED_ACTION (action)
              && g_str_equal (gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)),
                              "win.import"))
            {
              import_bindings++;
              g_assert_cmpstr (trigger, ==, "<Shift><Control>o");
            }
        }
    }
  g_object_unref (controllers);
  g_assert_cmpuint (import_bindings, ==, 1);
  g_assert_cmpuint (same_trigger, ==, 1);
}

static gboolean
import_stopped (gpointer data)
{
  return !dy_import_dialog_get_running (data);
}

/* The dialog destroyed while importing (as when the main window goes): the import is cancelled
 * and its end touches no widget of the dialog (criticals are fatal here), nor leaves a file. */
static void
test_destroyed_while_importing (void)
{
  g_autofree char *source = write_bulk_jsonl ();
  g_autofree char *db_path = new_database_path ("bulk-items.db");
  g_autofree char *part = g_strconcat (db_path, ".part", NULL);
  DyImportDialog *dialog = open_dialog (source);
  g_autoptr (DyImportDialog) held = g_object_ref (dialog);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "import.start", NULL));
  gui_wait_for (import_under_way, dialog, "the import to get under way");
  gtk_window_destroy (GTK_WINDOW (dialog));
  gui_wait_for (import_stopped, held, "the import to stop after its dialog went");
  gui_settle ();
  g_assert_null (dy_import_dialog_get_error (held));
  g_assert_false (g_file_test (part, G_FILE_TEST_EXISTS));
  g_unlink (source);
}

int
main (int argc, char **argv)
{
  int status;

  gui_init (&argc, &argv);
  data_home = g_strdup (g_get_user_data_dir ());
  work_dir = g_dir_make_tmp ("dynoscope-import-src-XXXXXX", NULL);
  g_test_add_func ("/import-gui/s3-export-new-database", test_s3_export_new_database);
  g_test_add_func ("/import-gui/existing-table-error", test_existing_table_error);
  g_test_add_func ("/import-gui/cancel-new-database", test_cancel_new_database);
  g_test_add_func ("/import-gui/cancel-open-database", test_cancel_open_database);
  g_test_add_func ("/import-gui/destroyed-while-importing", test_destroyed_while_importing);
  g_test_add_func ("/import-gui/shortcut", test_shortcut);
  g_test_add_func ("/import-gui/choosers", test_choosers);
  status = gui_run_tests ();
  gui_remove_tree (work_dir);
  g_free (data_home);
  g_free (work_dir);
  return status;
}
