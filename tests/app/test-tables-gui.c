/* test-tables-gui.c: table management in the real app on the demo database: New Table (Ctrl+N)
 * with a GSI shows its CreateTable on Review and creates the table (DescribeTable through the
 * engine shows the index, the sidebar lists the table); a bad name and an existing table show
 * their errors in the dialog, which stays open; Edit Table adds a GSI and turns TTL and a stream
 * on (three requests, in order), then removes a GSI; Delete Table stays insensitive until the
 * table's name is typed, and deletes it. */
#define G_LOG_DOMAIN "test-tables-gui"

#include <string.h>

#include "app/tables/dy-table-dialog.h"
#include "gui-util.h"

#define TABLE "GuiTasks"

static DyTableDialog *
find_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (toplevels, i);

      if (DY_IS_TABLE_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return DY_TABLE_DIALOG (w);
    }
  return NULL;
}

static gboolean
dialog_open (gpointer data)
{
  return find_dialog () != NULL;
}

static gboolean
dialog_closed (gpointer data)
{
  return find_dialog () == NULL;
}

static gboolean
dialog_ready (gpointer data)
{
  return dy_table_dialog_get_ready (data) && !dy_table_dialog_get_busy (data);
}

static gboolean
dialog_idle (gpointer data)
{
  return !dy_table_dialog_get_busy (data);
}

static DyTableDialog *
open_dialog (const char *action)
{
  DyTableDialog *dialog;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), action, NULL));
  gui_wait_for (dialog_open, NULL, action);
  dialog = find_dialog ();
  gui_wait_for (dialog_ready, dialog, "the dialog ready");
  gui_settle ();
  return dialog;
}

static void
set_text (DyTableDialog *dialog, const char *field, const char *text)
{
  GtkWidget *w = dy_table_dialog_get_field (dialog, field);

  g_assert_nonnull (w);
  gtk_editable_set_text (GTK_EDITABLE (w), text);
}

static void
select_item (DyTableDialog *dialog, const char *field, guint position)
{
  GtkWidget *w = dy_table_dialog_get_field (dialog, field);

  g_assert_nonnull (w);
  adw_combo_row_set_selected (ADW_COMBO_ROW (w), position);
}

static void
click (GtkWidget *button)
{
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
}

static void
next (DyTableDialog *dialog)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "tdialog.next", NULL));
}

static json_t *
call (const char *op, const char *table, GError **error)
{
  json_auto_t *request = json_pack ("{ss}", "TableName", table);

  return dy_connection_call_sync (gui_demo_connection (), op, request, NULL, error);
}

static json_t *
describe (void)
{
  g_autoptr (GError) error = NULL;
  json_t *resp = call ("DescribeTable", TABLE, &error);

  g_assert_no_error (error);
  return resp;
}

static json_t *
index_named (json_t *table, const char *name)
{
  size_t i;
  json_t *j;

  json_array_foreach (json_object_get (json_object_get (table, "Table"), "GlobalSecondaryIndexes"),
                      i, j)
    if (g_strcmp0 (json_string_value (json_object_get (j, "IndexName")), name) == 0)
      return j;
  return NULL;
}

static gboolean
table_listed (gpointer data)
{
  GListModel *tables = dy_connection_get_tables (gui_demo_connection ());
  gboolean want = GPOINTER_TO_INT (data);

  if (dy_connection_get_loading (gui_demo_connection ()))
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (tables); i++)
    {
      g_autoptr (GtkStringObject) s = g_list_model_get_item (tables, i);

      if (g_strcmp0 (gtk_string_object_get_string (s), TABLE) == 0)
        return want;
    }
  return !want;
}

static void
done_cb (DyTableDialog *dialog, const char *table, char **out)
{
  g_free (*out);
  *out = g_strdup (table);
}

static void
fill_new_table (DyTableDialog *dialog)
{
  set_text (dialog, "name", TABLE);
  set_text (dialog, "pk-name", "tenant");
  set_text (dialog, "sk-name", "taskId");
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (dy_table_dialog_get_field (dialog, "new-index")),
                                 TRUE);
  set_text (dialog, "index-name", "byOwner");
  set_text (dialog, "index-pk-name", "owner");
  set_text (dialog, "index-sk-name", "due");
  select_item (dialog, "index-sk-type", 1);    /* N */
  select_item (dialog, "index-projection", 2); /* INCLUDE */
  set_text (dialog, "index-include", "title, status");
  gtk_widget_grab_focus (dy_table_dialog_get_field (dialog, "index-include"));
}

static void
test_create (void)
{
  DyTableDialog *dialog;
  g_autofree char *text = NULL, *clip = NULL, *done = NULL;
  json_auto_t *table = NULL;
  json_t *index;

  gui_wait_for (gui_demo_tables_listed, NULL, "the demo tables");
  dialog = open_dialog ("win.new-table");
  g_assert_cmpstr (dy_table_dialog_get_page (dialog), ==, "form");
  fill_new_table (dialog);
  click (dy_table_dialog_get_field (dialog, "add-index"));
  g_assert_nonnull (dy_table_dialog_get_remove_button (dialog, "byOwner"));
  /* a local index: the table's partition key, so none is asked */
  select_item (dialog, "index-kind", 1);
  g_assert_false (gtk_widget_get_visible (dy_table_dialog_get_field (dialog, "index-pk-name")));
  set_text (dialog, "index-name", "byDueAt");
  set_text (dialog, "index-sk-name", "dueAt");
  select_item (dialog, "index-sk-type", 1);    /* N */
  select_item (dialog, "index-projection", 1); /* KEYS_ONLY */
  click (dy_table_dialog_get_field (dialog, "add-index"));
  g_assert_nonnull (dy_table_dialog_get_remove_button (dialog, "byDueAt"));
  select_item (dialog, "index-kind", 0);
  select_item (dialog, "index-projection", 2);
  /* the editor is cleared for the next index */
  g_assert_cmpstr (
      gtk_editable_get_text (GTK_EDITABLE (dy_table_dialog_get_field (dialog, "index-name"))), ==,
      "");
  gui_screenshot ("table-new.png");

  next (dialog);
  g_assert_null (dy_table_dialog_get_error (dialog));
  g_assert_cmpstr (dy_table_dialog_get_page (dialog), ==, "review");
  text = dy_table_dialog_get_review_text (dialog);
  g_assert_nonnull (strstr (text, "// 1. CreateTable\n"));
  g_assert_nonnull (strstr (text, "\"IndexName\": \"byOwner\""));
  g_assert_nonnull (strstr (text, "\"NonKeyAttributes\": [\n"));
  g_assert_nonnull (strstr (text, "\"AttributeType\": \"N\""));
  g_assert_null (strstr (text, "UpdateTimeToLive"));
  g_assert_nonnull (strstr (text, "\"LocalSecondaryIndexes\": [\n"));
  /* Copy As writes the program for the request */
  g_assert_true (
      gtk_widget_activate_action (GTK_WIDGET (dialog), "tdialog.copy-as", "(us)", 0, "python"));
  clip = gui_clipboard_text (GTK_WIDGET (dialog));
  g_assert_nonnull (strstr (clip, "client.create_table(**request)"));
  g_assert_nonnull (strstr (clip, "\"IndexName\": \"byOwner\""));
  gui_screenshot ("table-new-review.png");

  g_signal_connect (dialog, "done", G_CALLBACK (done_cb), &done);
  next (dialog);
  gui_wait_for (dialog_closed, NULL, "the dialog closed");
  g_assert_cmpstr (done, ==, TABLE);

  table = describe ();
  g_assert_cmpstr (
      json_string_value (json_object_get (json_object_get (table, "Table"), "TableStatus")), ==,
      "ACTIVE");
  index = index_named (table, "byOwner");
  g_assert_nonnull (index);
  g_assert_cmpstr (json_string_value (json_object_get (index, "IndexStatus")), ==, "ACTIVE");
  g_assert_cmpstr (
      json_string_value (json_object_get (json_object_get (index, "Projection"), "ProjectionType")),
      ==, "INCLUDE");
  g_assert_cmpuint (
      json_array_size (json_object_get (json_object_get (index, "Projection"), "NonKeyAttributes")),
      ==, 2);
  g_assert_cmpuint (
      json_array_size (json_object_get (json_object_get (table, "Table"), "LocalSecondaryIndexes")),
      ==, 1);
  gui_wait_for (table_listed, GINT_TO_POINTER (TRUE), "the new table in the sidebar");
}

static void
test_create_errors (void)
{
  DyTableDialog *dialog = open_dialog ("win.new-table");

  /* our check: the dialog stays on the form with the message */
  set_text (dialog, "name", "ab");
  set_text (dialog, "pk-name", "k");
  next (dialog);
  g_assert_cmpstr (dy_table_dialog_get_page (dialog), ==, "form");
  g_assert_nonnull (
      strstr (dy_table_dialog_get_error (dialog), "Table name “ab” must be 3 to 255"));
  gui_screenshot ("table-new-invalid.png");

  /* DynamoDB's: the table exists; the dialog stays open with the error's name */
  set_text (dialog, "name", TABLE);
  next (dialog);
  g_assert_null (dy_table_dialog_get_error (dialog));
  next (dialog);
  gui_wait_for (dialog_idle, dialog, "CreateTable answered");
  g_assert_nonnull (find_dialog ());
  g_assert_true (g_str_has_prefix (dy_table_dialog_get_error (dialog), "ResourceInUseException"));
  g_assert_cmpstr (dy_table_dialog_get_page (dialog), ==, "review");
  gui_screenshot ("table-new-error.png");
  gtk_window_close (GTK_WINDOW (dialog));
  gui_wait_for (dialog_closed, NULL, "the dialog closed");
}

static void
test_edit (void)
{
  DyTableView *view = gui_open_table (TABLE);
  DyTableDialog *dialog;
  g_autofree char *text = NULL;
  GPtrArray *steps;
  json_auto_t *table = NULL, *ttl = NULL;
  json_t *stream;
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (view);
  dialog = open_dialog ("win.edit-table");
  /* the form shows the table as described */
  g_assert_cmpstr (
      gtk_editable_get_text (GTK_EDITABLE (dy_table_dialog_get_field (dialog, "pk-name"))), ==,
      "tenant");
  g_assert_nonnull (dy_table_dialog_get_remove_button (dialog, "byOwner"));
  g_assert_null (dy_table_dialog_get_remove_button (dialog, "byDueAt")); /* an LSI stays */
  g_assert_null (dy_table_dialog_get_field (dialog, "index-kind"));      /* no LSI after creation */
  next (dialog);
  g_assert_nonnull (strstr (dy_table_dialog_get_error (dialog), "Nothing changed"));

  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (dy_table_dialog_get_field (dialog, "new-index")),
                                 TRUE);
  set_text (dialog, "index-name", "byStatus");
  set_text (dialog, "index-pk-name", "status");
  click (dy_table_dialog_get_field (dialog, "add-index"));
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (dy_table_dialog_get_field (dialog, "new-index")),
                                 FALSE);
  select_item (dialog, "stream", 4); /* NEW_AND_OLD_IMAGES */
  adw_expander_row_set_enable_expansion (
      ADW_EXPANDER_ROW (dy_table_dialog_get_field (dialog, "ttl")), TRUE);
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (dy_table_dialog_get_field (dialog, "ttl")),
                                 TRUE);
  set_text (dialog, "ttl-attribute", "expiresAt");
  gtk_widget_grab_focus (dy_table_dialog_get_field (dialog, "ttl-attribute"));
  gui_screenshot ("table-edit.png");
  next (dialog);
  g_assert_null (dy_table_dialog_get_error (dialog));
  steps = dy_table_dialog_get_steps (dialog);
  g_assert_cmpuint (steps->len, ==, 3);
  text = dy_table_dialog_get_review_text (dialog);
  g_assert_nonnull (strstr (text, "// 1. UpdateTable\n"));
  g_assert_nonnull (strstr (text, "\"Create\": {"));
  g_assert_nonnull (strstr (text, "// 2. UpdateTable\n"));
  g_assert_nonnull (strstr (text, "\"StreamViewType\": \"NEW_AND_OLD_IMAGES\""));
  g_assert_nonnull (strstr (text, "// 3. UpdateTimeToLive\n"));
  gui_screenshot ("table-edit-review.png");
  next (dialog);
  gui_wait_for (dialog_closed, NULL, "the dialog closed");

  table = describe ();
  g_assert_nonnull (index_named (table, "byOwner"));
  g_assert_nonnull (index_named (table, "byStatus"));
  stream = json_object_get (json_object_get (table, "Table"), "StreamSpecification");
  g_assert_true (json_is_true (json_object_get (stream, "StreamEnabled")));
  g_assert_cmpstr (json_string_value (json_object_get (stream, "StreamViewType")), ==,
                   "NEW_AND_OLD_IMAGES");
  ttl = call ("DescribeTimeToLive", TABLE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_string_value (json_object_get (
                       json_object_get (ttl, "TimeToLiveDescription"), "AttributeName")),
                   ==, "expiresAt");
  g_clear_pointer (&table, json_decref);

  /* removing a GSI is one UpdateTable with a Delete */
  dialog = open_dialog ("win.edit-table");
  click (dy_table_dialog_get_remove_button (dialog, "byOwner"));
  g_assert_null (dy_table_dialog_get_remove_button (dialog, "byOwner"));
  next (dialog);
  steps = dy_table_dialog_get_steps (dialog);
  g_assert_cmpuint (steps->len, ==, 1);
  g_clear_pointer (&text, g_free);
  text = dy_table_dialog_get_review_text (dialog);
  g_assert_nonnull (strstr (text, "\"Delete\": {\n"));
  next (dialog);
  gui_wait_for (dialog_closed, NULL, "the dialog closed");
  table = describe ();
  g_assert_null (index_named (table, "byOwner"));
  g_assert_nonnull (index_named (table, "byStatus"));
}

/* The table changed between Review and Apply: the first request succeeds, the second is refused;
 * the dialog stays open saying so, with DynamoDB's error. */
static void
test_edit_partial (void)
{
  DyTableDialog *dialog = open_dialog ("win.edit-table");
  json_auto_t *table = NULL, *off = NULL, *resp = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;

  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (dy_table_dialog_get_field (dialog, "new-index")),
                                 TRUE);
  set_text (dialog, "index-name", "byDue");
  set_text (dialog, "index-pk-name", "due");
  select_item (dialog, "index-pk-type", 1); /* N */
  click (dy_table_dialog_get_field (dialog, "add-index"));
  select_item (dialog, "stream", 0); /* off */
  next (dialog);
  g_assert_cmpuint (dy_table_dialog_get_steps (dialog)->len, ==, 2);
  off = json_pack ("{sss{sb}}", "TableName", TABLE, "StreamSpecification", "StreamEnabled", 0);
  resp = dy_connection_call_sync (gui_demo_connection (), "UpdateTable", off, NULL, &error);
  g_assert_no_error (error);
  next (dialog);
  gui_wait_for (dialog_idle, dialog, "the requests answered");
  g_assert_nonnull (find_dialog ());
  g_assert_cmpstr (dy_table_dialog_get_error (dialog), ==,
                   "1 request succeeded; the next one failed: ValidationException: Table has no "
                   "stream to disable");
  /* the review holds what is left to send */
  g_assert_cmpuint (dy_table_dialog_get_steps (dialog)->len, ==, 1);
  text = dy_table_dialog_get_review_text (dialog);
  g_assert_true (g_str_has_prefix (text, "// 1. UpdateTable\n"));
  g_assert_nonnull (strstr (text, "\"StreamEnabled\": false"));
  g_assert_null (strstr (text, "byDue"));
  gui_screenshot ("table-edit-partial.png");
  table = describe ();
  g_assert_nonnull (index_named (table, "byDue"));
  gtk_window_close (GTK_WINDOW (dialog));
  gui_wait_for (dialog_closed, NULL, "the dialog closed");
}

static void
test_delete (void)
{
  DyTableDialog *dialog = open_dialog ("win.delete-table");
  GtkWidget *primary = dy_table_dialog_get_field (dialog, "primary");
  g_autofree char *text = dy_table_dialog_get_review_text (dialog);
  g_autoptr (GError) error = NULL;
  json_t *resp;

  g_assert_cmpstr (dy_table_dialog_get_page (dialog), ==, "review");
  g_assert_cmpstr (text, ==, "// 1. DeleteTable\n{\n  \"TableName\": \"" TABLE "\"\n}");
  g_assert_false (gtk_widget_is_sensitive (primary));
  set_text (dialog, "confirm", "GuiTask");
  g_assert_false (gtk_widget_is_sensitive (primary));
  gui_screenshot ("table-delete.png");
  set_text (dialog, "confirm", TABLE);
  g_assert_true (gtk_widget_is_sensitive (primary));
  gui_screenshot ("table-delete-confirmed.png");
  click (primary);
  gui_wait_for (dialog_closed, NULL, "the dialog closed");
  resp = call ("DescribeTable", TABLE, &error);
  g_assert_null (resp);
  g_assert_true (g_str_has_prefix (error->message, "ResourceNotFoundException"));
  gui_wait_for (table_listed, GINT_TO_POINTER (FALSE), "the table gone from the sidebar");
  /* its tab closed with it */
  g_assert_null (dy_window_get_current_view (gui_window));
}

int
main (int argc, char **argv)
{
  gui_init (&argc, &argv);
  g_test_add_func ("/tables-gui/create", test_create);
  g_test_add_func ("/tables-gui/create-errors", test_create_errors);
  g_test_add_func ("/tables-gui/edit", test_edit);
  g_test_add_func ("/tables-gui/edit-partial", test_edit_partial);
  g_test_add_func ("/tables-gui/delete", test_delete);
  return gui_run_tests ();
}
