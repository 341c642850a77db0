/* test-changes-gui.c: the Changes tab in the real app on the demo database (a file in the
 * test's own cache folder): a table without a stream says so in place; once UpdateTable gives
 * it a NEW_AND_OLD_IMAGES stream, writes through the backend show as INSERT, MODIFY (the changed
 * attribute old -> new, numbers whole) and REMOVE rows, newest first; Pause holds new records
 * and counts them, Resume shows them; the key filter hides the rows whose key does not match;
 * Clear empties the list; a disabled stream read to its end and a new one followed; an error shows in place with its name, and Retry asks again. */
#define G_LOG_DOMAIN "test-changes-gui"

#include <string.h>

#include "app/changes/dy-change.h"
#include "app/changes/dy-changes-view.h"
#include "gui-util.h"

#define BIG "98765432109876543210987654321098765432"

static json_t *
call (const char *op, const char *text)
{
  json_error_t jerror;
  json_t *request = json_loads (text, 0, &jerror);
  GError *error = NULL;
  json_t *response;

  g_assert_nonnull (request);
  response = dy_connection_call_sync (gui_demo_connection (), op, request, NULL, &error);
  g_assert_no_error (error);
  json_decref (request);
  return response;
}

static void
put (const char *shard, const char *ccp, const char *status)
{
  g_autofree char *text = g_strdup_printf (
      "{\"TableName\": \"Orders\", \"Item\": {\"TenantShard\": {\"S\": \"%s\"},"
      " \"CustomerCountryProduct\": {\"S\": \"%s\"}, \"status\": {\"S\": \"%s\"},"
      " \"total\": {\"N\": \"1\"}}}",
      shard, ccp, status);

  json_decref (call ("PutItem", text));
}

static gboolean
described (gpointer data)
{
  return dy_changes_view_get_streaming (data) || dy_changes_view_get_no_stream (data);
}

static gboolean
polled (gpointer data)
{
  return dy_changes_view_get_streaming (data) && dy_changes_view_get_n_polls (data) > 0;
}

static guint wanted;

static gboolean
has_wanted (gpointer data)
{
  return dy_changes_view_get_n_changes (data) == wanted;
}

static gboolean
notice_says_disabled (gpointer data)
{
  return dy_changes_view_get_notice (data) != NULL
         && strstr (dy_changes_view_get_notice (data), "disabled") != NULL;
}

static guint polls_before;

static gboolean
two_more_polls (gpointer data)
{
  return dy_changes_view_get_n_polls (data) >= polls_before + 2;
}

static gboolean
waiting_one (gpointer data)
{
  return dy_changes_view_get_n_waiting (data) == 1;
}

/* The texts of the labels under WIDGET that are drawn, appended to OUT, one a line. */
static void
collect_labels (GtkWidget *widget, GString *out)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (out, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    collect_labels (c, out);
}

static char *
shown_text (DyChangesView *view)
{
  GString *out = g_string_new (NULL);

  gui_settle ();
  collect_labels (GTK_WIDGET (view), out);
  return g_string_free (out, FALSE);
}

static const DyChange *
row (DyChangesView *view, guint i)
{
  g_autoptr (DyChangeObject) o = g_list_model_get_item (dy_changes_view_get_rows (view), i);

  g_assert_nonnull (o);
  /* the model keeps its own reference */
  return dy_change_object_get (o);
}

/* Ctrl+Shift+C as the window binds it: the one shortcut of that key, win.changes, activated. */
static void
press_changes_shortcut (void)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (gui_window));
  g_autoptr (GtkShortcutTrigger) trigger = gtk_shortcut_trigger_parse_string ("<Control><Shift>c");
  guint found = 0;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) c = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (c))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (c)); j++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (c), j);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

          if (!gtk_shortcut_trigger_equal (gtk_shortcut_get_trigger (shortcut), trigger))
            continue;
          found++;
          g_assert_true (GTK_IS_NAMED_ACTION (action));
          g_assert_cmpstr (gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)), ==,
                           "win.changes");
          g_assert_true (gtk_shortcut_action_activate (action, GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                                       GTK_WIDGET (gui_window), NULL));
        }
    }
  g_assert_cmpuint (found, ==, 1);
}

static void
test_changes (void)
{
  DyTableView *table;
  DyChangesView *view;
  GtkWidget *child;
  g_autofree char *text = NULL;
  const DyChange *c;
  const DyChangeDiff *d;

  gui_wait_for (gui_demo_tables_listed, NULL, "the demo tables");
  table = gui_open_table ("Orders");
  g_assert_nonnull (table);
  /* Ctrl+Shift+C from the table's tab */
  press_changes_shortcut ();
  child = adw_tab_page_get_child (adw_tab_view_get_selected_page (dy_window_get_tab_view (gui_window)));
  g_assert_true (DY_IS_CHANGES_VIEW (child));
  view = DY_CHANGES_VIEW (child);
  g_assert_cmpstr (dy_changes_view_get_table_name (view), ==, "Orders");
  gui_wait_for (described, view, "DescribeTable");
  g_assert_true (dy_changes_view_get_no_stream (view));
  text = shown_text (view);
  g_assert_nonnull (strstr (text, "This table has no stream; enable one with UpdateTable "
                                  "StreamSpecification"));
  g_clear_pointer (&text, g_free);
  gui_screenshot ("changes-no-stream.png");

  json_decref (call ("UpdateTable", "{\"TableName\": \"Orders\", \"StreamSpecification\":"
                                    " {\"StreamEnabled\": true,"
                                    " \"StreamViewType\": \"NEW_AND_OLD_IMAGES\"}}"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.check-again", NULL));
  /* the first round takes the LATEST iterator: what is written after it shows */
  gui_wait_for (polled, view, "the first GetRecords");
  g_assert_null (dy_changes_view_get_error (view));

  put ("TENANT#gui#01", "C#1#FR#P-NEW", "placed");
  json_decref (call ("UpdateItem",
                     "{\"TableName\": \"Orders\", \"Key\": {\"TenantShard\": {\"S\":"
                     " \"TENANT#gui#01\"}, \"CustomerCountryProduct\": {\"S\": \"C#1#FR#P-NEW\"}},"
                     " \"UpdateExpression\": \"SET #s = :s, #t = :t\","
                     " \"ExpressionAttributeNames\": {\"#s\": \"status\", \"#t\": \"total\"},"
                     " \"ExpressionAttributeValues\": {\":s\": {\"S\": \"shipped\"},"
                     " \":t\": {\"N\": \"" BIG "\"}}}"));
  json_decref (call ("DeleteItem",
                     "{\"TableName\": \"Orders\", \"Key\": {\"TenantShard\": {\"S\":"
                     " \"TENANT#gui#01\"}, \"CustomerCountryProduct\": {\"S\": \"C#1#FR#P-NEW\"}}}"));
  wanted = 3;
  gui_wait_for (has_wanted, view, "three changes");
  /* newest first */
  c = row (view, 2);
  g_assert_cmpint (c->event, ==, DY_CHANGE_INSERT);
  g_assert_cmpstr (c->key_text, ==, "TenantShard = TENANT#gui#01, CustomerCountryProduct = C#1#FR#P-NEW");
  c = row (view, 1);
  g_assert_cmpint (c->event, ==, DY_CHANGE_MODIFY);
  g_assert_cmpuint (c->diffs->len, ==, 2);
  d = c->diffs->pdata[0];
  g_assert_cmpstr (d->path, ==, "status");
  g_assert_cmpstr (d->old_text, ==, "placed");
  g_assert_cmpstr (d->new_text, ==, "shipped");
  c = row (view, 0);
  g_assert_cmpint (c->event, ==, DY_CHANGE_REMOVE);
  g_assert_false (c->ttl);
  /* what is drawn */
  text = shown_text (view);
  g_assert_nonnull (strstr (text, "INSERT\n"));
  g_assert_nonnull (strstr (text, "MODIFY\n"));
  g_assert_nonnull (strstr (text, "REMOVE\n"));
  g_assert_nonnull (strstr (text, "status: placed → shipped\ntotal: 1 → " BIG "\n"));
  g_assert_nonnull (strstr (text, "3 changes\n"));
  g_clear_pointer (&text, g_free);
  gui_screenshot ("changes-rows.png");

  /* paused: fetched and held, counted as waiting */
  dy_changes_view_set_paused (view, TRUE);
  put ("TENANT#gui#02", "C#2#US#P-HELD", "placed");
  polls_before = dy_changes_view_get_n_polls (view);
  gui_wait_for (two_more_polls, view, "two rounds while paused");
  gui_wait_for (waiting_one, view, "the held record");
  g_assert_cmpuint (dy_changes_view_get_n_changes (view), ==, 3);
  text = shown_text (view);
  g_assert_null (strstr (text, "P-HELD"));
  g_assert_nonnull (strstr (text, "3 changes, 1 waiting\n"));
  g_assert_nonnull (strstr (text, "Resume\n"));
  g_clear_pointer (&text, g_free);
  gui_screenshot ("changes-paused.png");
  dy_changes_view_set_paused (view, FALSE);
  g_assert_cmpuint (dy_changes_view_get_n_changes (view), ==, 4);
  g_assert_cmpuint (dy_changes_view_get_n_waiting (view), ==, 0);
  g_assert_cmpint (row (view, 0)->event, ==, DY_CHANGE_INSERT);
  text = shown_text (view);
  g_assert_nonnull (strstr (text, "P-HELD"));
  g_clear_pointer (&text, g_free);

  /* the key filter, ignoring case */
  dy_changes_view_set_filter (view, "p-held");
  g_assert_cmpuint (g_list_model_get_n_items (dy_changes_view_get_rows (view)), ==, 1);
  text = shown_text (view);
  g_assert_nonnull (strstr (text, "P-HELD"));
  g_assert_null (strstr (text, "P-NEW"));
  g_assert_nonnull (strstr (text, "4 changes, 1 shown\n"));
  g_clear_pointer (&text, g_free);
  gui_screenshot ("changes-filtered.png");
  dy_changes_view_set_filter (view, "");
  g_assert_cmpuint (g_list_model_get_n_items (dy_changes_view_get_rows (view)), ==, 4);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.clear", NULL));
  g_assert_cmpuint (dy_changes_view_get_n_changes (view), ==, 0);

  /* a busy stream: the newest rows kept, the oldest dropped (10,000 in use, 5 here) */
  dy_changes_view_set_max_rows (view, 5);
  for (guint i = 0; i < 8; i++)
    {
      g_autofree char *ccp = g_strdup_printf ("C#%u#DE#P-BUSY", i);

      put ("TENANT#gui#03", ccp, "placed");
    }
  polls_before = dy_changes_view_get_n_polls (view);
  gui_wait_for (two_more_polls, view, "the busy writes");
  g_assert_cmpuint (dy_changes_view_get_n_changes (view), ==, 5);
  g_assert_cmpstr (row (view, 0)->key_text, ==,
                   "TenantShard = TENANT#gui#03, CustomerCountryProduct = C#7#DE#P-BUSY");
  g_assert_cmpstr (row (view, 4)->key_text, ==,
                   "TenantShard = TENANT#gui#03, CustomerCountryProduct = C#3#DE#P-BUSY");
  g_assert_cmpstr (dy_changes_view_get_count_text (view), ==, "5 changes (the newest 5 are kept)");

  /* from the oldest record kept: everything since the stream began, read again */
  dy_changes_view_set_max_rows (view, DY_CHANGES_MAX_ROWS);
  dy_changes_view_set_from_oldest (view, TRUE);
  wanted = 12;
  gui_wait_for (has_wanted, view, "every record from TRIM_HORIZON");
  g_assert_cmpint (row (view, 11)->event, ==, DY_CHANGE_INSERT);
  g_assert_cmpstr (row (view, 11)->key_text, ==,
                   "TenantShard = TENANT#gui#01, CustomerCountryProduct = C#1#FR#P-NEW");
  g_assert_cmpint (row (view, 10)->event, ==, DY_CHANGE_MODIFY);
  g_assert_cmpint (row (view, 9)->event, ==, DY_CHANGE_REMOVE);
  gui_screenshot ("changes-oldest.png");

  /* the stream disabled: read to its end, said so, rows kept; a new stream followed from its
   * first record, as soon as the table has one */
  json_decref (call ("UpdateTable", "{\"TableName\": \"Orders\", \"StreamSpecification\":"
                                    " {\"StreamEnabled\": false}}"));
  gui_wait_for (notice_says_disabled, view, "the end of the stream");
  g_assert_cmpuint (dy_changes_view_get_n_changes (view), ==, 12);
  json_decref (call ("UpdateTable", "{\"TableName\": \"Orders\", \"StreamSpecification\":"
                                    " {\"StreamEnabled\": true,"
                                    " \"StreamViewType\": \"NEW_AND_OLD_IMAGES\"}}"));
  put ("TENANT#gui#04", "C#4#IT#P-AGAIN", "placed");
  wanted = 13;
  gui_wait_for (has_wanted, view, "the new stream's record");
  g_assert_cmpstr (row (view, 0)->key_text, ==,
                   "TenantShard = TENANT#gui#04, CustomerCountryProduct = C#4#IT#P-AGAIN");
  g_assert_nonnull (strstr (dy_changes_view_get_notice (view), "new stream"));
  gui_screenshot ("changes-new-stream.png");

  /* the same table's Changes again: the same tab */
  gui_open_table ("Orders");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.changes", NULL));
  g_assert_true (adw_tab_page_get_child (adw_tab_view_get_selected_page (
                     dy_window_get_tab_view (gui_window)))
                 == GTK_WIDGET (view));
  /* closed while it polls: the poll that comes back finds no view to touch */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.close-tab", NULL));
  gui_settle_for (2500);
}

static gboolean
has_error (gpointer data)
{
  return dy_changes_view_get_error (data) != NULL;
}

/* An error comes in place with its DynamoDB name, and Retry asks again. */
static void
test_error (void)
{
  DyChangesView *view;
  g_autofree char *text = NULL;

  gui_wait_for (gui_demo_tables_listed, NULL, "the demo tables");
  view = dy_changes_view_open (gui_window, gui_demo_connection (), "NoSuchTable");
  gui_wait_for (has_error, view, "the error");
  g_assert_true (g_str_has_prefix (dy_changes_view_get_error (view), "ResourceNotFoundException: "));
  g_assert_false (dy_changes_view_get_streaming (view));
  text = shown_text (view);
  g_assert_nonnull (strstr (text, "ResourceNotFoundException: "));
  g_assert_nonnull (strstr (text, "Retry\n"));
  g_clear_pointer (&text, g_free);
  gui_screenshot ("changes-error.png");
  /* the table made meanwhile: Retry finds it, and that it has no stream */
  json_decref (call ("CreateTable",
                     "{\"TableName\": \"NoSuchTable\", \"BillingMode\": \"PAY_PER_REQUEST\","
                     " \"AttributeDefinitions\": [{\"AttributeName\": \"k\", \"AttributeType\": \"S\"}],"
                     " \"KeySchema\": [{\"AttributeName\": \"k\", \"KeyType\": \"HASH\"}]}"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.retry", NULL));
  g_assert_null (dy_changes_view_get_error (view));
  gui_wait_for (described, view, "DescribeTable");
  g_assert_true (dy_changes_view_get_no_stream (view));
  g_assert_null (dy_changes_view_get_error (view));
  json_decref (call ("DeleteTable", "{\"TableName\": \"NoSuchTable\"}"));
}

int
main (int argc, char **argv)
{
  gui_init (&argc, &argv);
  g_test_add_func ("/changes-gui/changes", test_changes);
  g_test_add_func ("/changes-gui/error", test_error);
  return gui_run_tests ();
}
