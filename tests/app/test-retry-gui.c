/* test-retry-gui.c: a table tab and a SQL tab on a local endpoint that fails and then recovers,
 * under Xvfb. The endpoint is the fault server of tests/lib/dynoscope_testlib.py (gui-fault.h):
 * each answer is scripted (POST /__script: failures first, then the answer of each operation),
 * and GET /__stats says how many requests came and the last body of each operation. A request
 * that fails once the client's own attempts are spent (4 for browsing) shows its error with
 * Retry; the filter as the user left it, the rows shown and the staged change stay; Retry sends
 * exactly the request that failed (DescribeTable, the Run's first page, Load More's and Load
 * All's page after the last one shown) and the rows come. A request that cannot succeed as it
 * is (ValidationException, a filter the query builder refuses, a SQL syntax error) gets no
 * Retry. */
#define G_LOG_DOMAIN "test-retry-gui"

#include <jansson.h>
#include <string.h>

#include "app/sql/dy-sql-view.h"
#include "app/staging/dy-staging.h"
#include "gui-fault.h"
#include "gui-util.h"

#define TABLE "Faulty"
/* the endpoint connection's client tries a request this many times (dy-connection.c) */
#define BROWSE_ATTEMPTS 4
/* a SQL tab's own client: the client's default */
#define SQL_ATTEMPTS 10

static const char *server_url;
static DyConnection *endpoint;
static DyTableView *view;

/* ---- The fault server ---- */

/* The answer of each operation (the first Scan page SCAN), and the server's next answers: the
 * failures named by FAILURES (NULL-terminated, may be NULL), then those. */
static void
script (const char *const *failures, json_t *scan)
{
  gui_fault_script (failures, gui_fault_table_answers (TABLE, scan));
}

/* TRUE once the server has received GPOINTER_TO_INT (DATA) requests. */
static gboolean
received (gpointer data)
{
  return gui_fault_requests () >= GPOINTER_TO_INT (data);
}

/* The body of the last OPERATION request the server received, parsed (new reference). */
static json_t *
last_body (const char *operation)
{
  json_t *s = gui_fault_stats ();
  const char *text
      = json_string_value (json_object_get (json_object_get (s, "last_bodies"), operation));
  json_t *body;

  g_assert_nonnull (text);
  body = json_loads (text, 0, NULL);
  g_assert_nonnull (body);
  json_decref (s);
  return body;
}

/* ---- The view ---- */

static gboolean
connection_listed (gpointer data)
{
  return dy_connection_get_loaded (endpoint) && !dy_connection_get_loading (endpoint)
         && dy_connection_get_table_description (endpoint, TABLE, NULL) != NULL;
}

static gboolean
error_shown (gpointer data)
{
  return gtk_revealer_get_reveal_child (GTK_REVEALER (gui_child (data, "error_revealer")))
         && !dy_table_view_get_running (data);
}

static gboolean
described (gpointer data)
{
  return dy_table_view_get_ready (data) && dy_table_view_get_described (data);
}

typedef struct {
  DyTableView *view;
  guint rows;
} RowsWanted;

static gboolean
rows_in (gpointer data)
{
  RowsWanted *wanted = data;

  return !dy_table_view_get_running (wanted->view)
         && g_list_model_get_n_items (dy_table_view_get_items (wanted->view)) == wanted->rows;
}

static void
wait_for_rows (guint rows)
{
  RowsWanted wanted = { view, rows };

  gui_wait_for (rows_in, &wanted, "the rows");
  gui_settle ();
}

/* The error bar's Retry button, or NULL when it is hidden. */
static GtkWidget *
retry_button (GtkWidget *widget)
{
  GtkWidget *button = gui_action_button (widget, "view.retry");

  g_assert_nonnull (button);
  return gtk_widget_get_visible (button) && gtk_widget_get_mapped (button) ? button : NULL;
}

static const char *
error_text (void)
{
  return gui_label_text (view, "error_label");
}

static const char *
entry_text (const char *name)
{
  return gtk_editable_get_text (GTK_EDITABLE (gui_child (view, name)));
}

static guint
staged_count (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) changes
      = dy_staging_list (dy_staging_get_default (), endpoint, TABLE, &error);

  g_assert_no_error (error);
  return changes->len;
}

static void
count_mnemonics (GtkWidget *widget, guint keyval, guint *n)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget) && gtk_widget_is_sensitive (widget)
      && gtk_label_get_mnemonic_keyval (GTK_LABEL (widget)) != GDK_KEY_VoidSymbol
      && gdk_keyval_to_lower (gtk_label_get_mnemonic_keyval (GTK_LABEL (widget))) == keyval)
    (*n)++;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    count_mnemonics (c, keyval, n);
}

/* The button's access key is its own in the window (Alt and a key two shown buttons share
 * only moves the focus), and Tab reaches the button from FROM. */
static void
check_keyboard (GtkWidget *button, GtkWidget *from)
{
  GtkWidget *label = gtk_button_get_child (GTK_BUTTON (button));
  guint keyval, n = 0;
  gboolean reached = FALSE;

  g_assert_true (GTK_IS_LABEL (label));
  keyval = gtk_label_get_mnemonic_keyval (GTK_LABEL (label));
  g_assert_cmpuint (keyval, !=, GDK_KEY_VoidSymbol);
  count_mnemonics (GTK_WIDGET (gui_window), gdk_keyval_to_lower (keyval), &n);
  g_assert_cmpuint (n, ==, 1);
  gtk_widget_grab_focus (from);
  for (guint i = 0; i < 300 && !reached; i++)
    {
      /* what Tab does */
      g_assert_true (gtk_widget_child_focus (GTK_WIDGET (gui_window), GTK_DIR_TAB_FORWARD));
      reached = gtk_window_get_focus (GTK_WINDOW (gui_window)) == button;
    }
  g_assert_true (reached);
}

/* ---- Tests ---- */

/* DescribeTable fails: the tab is not ready, its error has Retry, which describes it again
 * (and gives the inspector the key schema it could not read either). */
static void
test_describe (void)
{
  /* the tab's DescribeTable and its inspector's, side by side: both fail */
  g_auto (GStrv) failures = gui_fault_times ("500", 2 * BROWSE_ATTEMPTS);
  g_autoptr (GError) error = NULL;
  GtkWidget *button;

  script (NULL, gui_fault_page ("a1", "a2", TRUE));
  endpoint = dy_window_add_endpoint (gui_window, server_url, "us-east-1", FALSE, &error);
  g_assert_no_error (error);
  dy_window_expand_connection (gui_window, endpoint);
  gui_wait_for (connection_listed, NULL, "the endpoint's tables");

  script ((const char *const *) failures, gui_fault_page ("a1", "a2", TRUE));
  view = dy_window_open_table (gui_window, endpoint, TABLE);
  gui_wait_for (error_shown, view, "DescribeTable to fail");
  g_assert_false (dy_table_view_get_ready (view));
  gui_wait_for (received, GINT_TO_POINTER (2 * BROWSE_ATTEMPTS), "the inspector's DescribeTable");
  gui_settle ();
  g_assert_cmpint (gui_fault_requests (), ==, 2 * BROWSE_ATTEMPTS);
  g_assert_false (dy_inspector_get_has_key_schema (dy_table_view_get_inspector (view)));
  g_assert_nonnull (strstr (error_text (), "InternalServerError"));
  button = retry_button (GTK_WIDGET (view));
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));

  script (NULL, gui_fault_page ("a1", "a2", TRUE));
  gtk_widget_activate (button);
  gui_wait_for (described, view, "DescribeTable again");
  gui_settle ();
  g_assert_false (
      gtk_revealer_get_reveal_child (GTK_REVEALER (gui_child (view, "error_revealer"))));
  g_assert_true (dy_inspector_get_has_key_schema (dy_table_view_get_inspector (view)));
  /* DescribeTable once, then DescribeTimeToLive */
  g_assert_cmpint (gui_fault_requests (), ==, 2);
  {
    json_t *body = last_body ("DescribeTable");

    g_assert_cmpstr (json_string_value (json_object_get (body, "TableName")), ==, TABLE);
    json_decref (body);
  }
}

/* The Run's first page fails: its error with Retry, the filter and the staged change as they
 * were; Retry sends the request as it was run, not as the filter reads since. */
static void
test_run (void)
{
  const char *const failures[] = { "500", "throttle", "503-html", "truncated", NULL };
  g_autoptr (GError) error = NULL;
  json_t *failed, *sent;
  GtkWidget *button;

  g_assert_nonnull (view);
  /* one change staged */
  {
    g_autoptr (DdbValue) key = ddb_value_new_m ();
    g_autoptr (DdbValue) target = ddb_value_new_m ();

    ddb_value_map_set (key, "pk", ddb_value_new_s ("staged-1", -1));
    ddb_value_map_set (target, "pk", ddb_value_new_s ("staged-1", -1));
    ddb_value_map_set (target, "status", ddb_value_new_s ("new", -1));
    g_assert_true (dy_staging_stage (dy_staging_get_default (), endpoint, TABLE, DDB_CHANGE_CREATE,
                                     key, NULL, target, &error));
    g_assert_no_error (error);
  }
  g_assert_cmpuint (staged_count (), ==, 1);
  gui_set_text (view, "filter_attr_entry", "status");
  gui_select_choice (view, "filter_op_dropdown", "=");
  gui_set_text (view, "filter_value_entry", "open");
  /* a Limit of the user's: the page asked is the one request a Run sends */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (gui_child (view, "limit_spin")), 2);

  script (failures, gui_fault_page ("a1", "a2", TRUE));
  gui_run (view, "win.run");
  gui_wait_for (error_shown, view, "the Run to fail");
  g_assert_cmpint (gui_fault_requests (), ==, 4);
  /* the last attempt's failure: the answer broke off */
  g_assert_nonnull (strstr (error_text (), "ConnectionClosedError"));
  button = retry_button (GTK_WIDGET (view));
  g_assert_nonnull (button);
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 0);
  g_assert_cmpstr (entry_text ("filter_attr_entry"), ==, "status");
  g_assert_cmpstr (entry_text ("filter_value_entry"), ==, "open");
  g_assert_cmpuint (staged_count (), ==, 1);
  gui_screenshot ("retry-table-run-failed.png");
  check_keyboard (button, gui_child (view, "filter_value_entry"));
  failed = last_body ("Scan");
  g_assert_cmpint (json_integer_value (json_object_get (failed, "Limit")), ==, 2);
  g_assert_null (json_object_get (failed, "ExclusiveStartKey"));

  /* the user goes on typing: the next Run's business, not Retry's */
  gui_set_text (view, "filter_value_entry", "closed");
  script (NULL, gui_fault_page ("a1", "a2", TRUE));
  g_assert_true (gtk_widget_mnemonic_activate (button, FALSE));
  wait_for_rows (2);
  g_assert_false (
      gtk_revealer_get_reveal_child (GTK_REVEALER (gui_child (view, "error_revealer"))));
  g_assert_null (retry_button (GTK_WIDGET (view)));
  g_assert_cmpint (gui_fault_requests (), ==, 1);
  sent = last_body ("Scan");
  g_assert_true (json_equal (sent, failed));
  g_assert_cmpstr (entry_text ("filter_value_entry"), ==, "closed");
  g_assert_cmpuint (staged_count (), ==, 1);
  g_assert_true (dy_table_view_get_can_load_more (view));
  json_decref (sent);
  json_decref (failed);
}

/* Retry (BUTTON) once the endpoint answers the last page (K1, K2): exactly FAILED, the request
 * that failed, is sent again, the rows grow to 4, the staged change stays. Takes FAILED. */
static void
retry_resends (GtkWidget *button, json_t *failed, const char *k1, const char *k2)
{
  json_t *sent;

  script (NULL, gui_fault_page (k1, k2, FALSE));
  gtk_widget_activate (button);
  wait_for_rows (4);
  g_assert_false (
      gtk_revealer_get_reveal_child (GTK_REVEALER (gui_child (view, "error_revealer"))));
  g_assert_cmpint (gui_fault_requests (), ==, 1);
  sent = last_body ("Scan");
  g_assert_true (json_equal (sent, failed));
  g_assert_false (dy_table_view_get_can_load_more (view));
  g_assert_cmpuint (staged_count (), ==, 1);
  json_decref (sent);
  json_decref (failed);
}

/* Load More fails (throttled): Retry reads the page after the rows shown, which stay. */
static void
test_load_more (void)
{
  g_auto (GStrv) failures = gui_fault_times ("throttle", BROWSE_ATTEMPTS);
  json_t *failed;
  GtkWidget *button;

  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 2);
  script ((const char *const *) failures, gui_fault_page ("b1", "b2", FALSE));
  gui_run (view, "win.load-more");
  gui_wait_for (error_shown, view, "Load More to fail");
  g_assert_cmpint (gui_fault_requests (), ==, BROWSE_ATTEMPTS);
  g_assert_nonnull (strstr (error_text (), "ThrottlingException"));
  button = retry_button (GTK_WIDGET (view));
  g_assert_nonnull (button);
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 2);
  g_assert_cmpuint (staged_count (), ==, 1);
  gui_screenshot ("retry-table-load-more-failed.png");
  failed = last_body ("Scan");
  g_assert_cmpstr (json_string_value (json_object_get (
                       json_object_get (json_object_get (failed, "ExclusiveStartKey"), "pk"), "S")),
                   ==, "a2");

  retry_resends (button, failed, "b1", "b2");
}

/* Load All fails: Retry goes on from the last page shown. */
static void
test_load_all (void)
{
  g_auto (GStrv) failures = gui_fault_times ("500", BROWSE_ATTEMPTS);
  json_t *failed;
  GtkWidget *button;

  script (NULL, gui_fault_page ("a1", "a2", TRUE));
  gui_run (view, "win.run");
  wait_for_rows (2);
  g_assert_true (dy_table_view_get_can_load_more (view));

  script ((const char *const *) failures, gui_fault_page ("c1", "c2", FALSE));
  gui_run (view, "win.load-all");
  gui_wait_for (error_shown, view, "Load All to fail");
  g_assert_cmpint (gui_fault_requests (), ==, BROWSE_ATTEMPTS);
  button = retry_button (GTK_WIDGET (view));
  g_assert_nonnull (button);
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 2);
  failed = last_body ("Scan");
  g_assert_nonnull (json_object_get (failed, "ExclusiveStartKey"));

  retry_resends (button, failed, "c1", "c2");
}

/* What sending again cannot cure gets no Retry: DynamoDB's ValidationException, a filter the
 * query builder refuses (nothing is sent). */
static void
test_no_retry (void)
{
  const char *const failures[] = { "validation", NULL };

  script (failures, gui_fault_page ("a1", "a2", TRUE));
  gui_run (view, "win.run");
  gui_wait_for (error_shown, view, "the Run to be refused");
  g_assert_cmpint (gui_fault_requests (), ==, 1);
  g_assert_nonnull (strstr (error_text (), "ValidationException"));
  g_assert_null (retry_button (GTK_WIDGET (view)));
  /* nor does the action send anything */
  gtk_widget_activate_action (GTK_WIDGET (view), "view.retry", NULL);
  gui_settle ();
  g_assert_false (dy_table_view_get_running (view));
  g_assert_cmpint (gui_fault_requests (), ==, 1);

  script (NULL, gui_fault_page ("a1", "a2", TRUE));
  gui_select_choice (view, "filter_type_dropdown", "N");
  gui_set_text (view, "filter_value_entry", "not a number");
  gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.run", NULL);
  gui_settle ();
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (gui_child (view, "error_revealer"))));
  g_assert_nonnull (strstr (error_text (), "not a number"));
  g_assert_null (retry_button (GTK_WIDGET (view)));
  g_assert_cmpint (gui_fault_requests (), ==, 0);
  gui_select_choice (view, "filter_type_dropdown", "S");
  /* no filter ("none", translated) */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (gui_child (view, "filter_op_dropdown")), 0);
}

/* The SQL tab: a PartiQL page that fails has Retry (the same page, its NextToken); a SQL
 * statement that does not parse has none. */
static gboolean
sql_idle (gpointer data)
{
  return !dy_sql_view_get_running (data);
}

static gboolean
sql_rows_2 (gpointer data)
{
  return !dy_sql_view_get_running (data)
         && g_list_model_get_n_items (dy_sql_view_get_rows (data)) == 2;
}

static gboolean
sql_listed (gpointer data)
{
  return dy_sql_view_get_completion_tables (data) != NULL;
}

static gboolean
sql_failed (gpointer data)
{
  return !dy_sql_view_get_running (data) && dy_sql_view_get_error (data) != NULL;
}

static gboolean
timed_out (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* gui_wait_for with a longer limit: the SQL tab's client backs off between its 10 attempts
 * (about 13 s in all, 26 s at most). */
static void
wait_long (GuiCondition cond, gpointer data, const char *what)
{
  gboolean expired = FALSE;
  guint timeout = g_timeout_add_seconds (90, timed_out, &expired);

  while (!cond (data) && !expired)
    g_main_context_iteration (NULL, TRUE);
  if (expired)
    g_error ("timed out waiting for %s", what);
  g_source_remove (timeout);
}

static void
test_sql (void)
{
  g_auto (GStrv) failures = gui_fault_times ("500", SQL_ATTEMPTS);
  DySqlView *sql = dy_sql_view_open (gui_window, endpoint);
  json_t *failed, *sent;
  GtkWidget *button;

  /* the tab lists the tables for completion first: nothing else is asked after */
  script (NULL, gui_fault_page ("a1", "a2", FALSE));
  gui_wait_for (sql_listed, sql, "the tables for completion");

  /* SQL: a syntax error */
  dy_sql_view_set_text (sql, "SELEC * FROM " TABLE);
  dy_sql_view_run (sql);
  gui_wait_for (sql_failed, sql, "the statement to be refused");
  gui_settle ();
  g_assert_null (retry_button (GTK_WIDGET (sql)));

  /* PartiQL: the first page, then the next one fails */
  dy_sql_view_set_partiql (sql, TRUE);
  dy_sql_view_set_text (sql, "SELECT * FROM \"" TABLE "\"");
  dy_sql_view_run (sql);
  gui_wait_for (sql_idle, sql, "the first page");
  g_assert_null (dy_sql_view_get_error (sql));
  g_assert_true (dy_sql_view_get_can_load_more (sql));
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (sql)), ==, 1);

  script ((const char *const *) failures, gui_fault_page ("a1", "a2", FALSE));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (sql), "view.load-more", NULL));
  wait_long (sql_failed, sql, "the next page to fail");
  gui_settle ();
  g_assert_cmpint (gui_fault_requests (), ==, SQL_ATTEMPTS);
  g_assert_nonnull (strstr (dy_sql_view_get_error (sql), "InternalServerError"));
  button = retry_button (GTK_WIDGET (sql));
  g_assert_nonnull (button);
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (sql)), ==, 1);
  gui_screenshot ("retry-sql-page-failed.png");
  check_keyboard (button, gui_action_button (GTK_WIDGET (sql), "view.run"));
  failed = last_body ("ExecuteStatement");
  g_assert_cmpstr (json_string_value (json_object_get (failed, "NextToken")), ==, "token-1");

  /* the editor changed since: Retry reads the page of the statement that was run */
  dy_sql_view_set_text (sql, "SELECT pk FROM \"" TABLE "\"");
  script (NULL, gui_fault_page ("a1", "a2", FALSE));
  gtk_widget_activate (button);
  gui_wait_for (sql_rows_2, sql, "the page again");
  gui_settle ();
  g_assert_null (dy_sql_view_get_error (sql));
  g_assert_null (retry_button (GTK_WIDGET (sql)));
  g_assert_cmpuint (g_list_model_get_n_items (dy_sql_view_get_rows (sql)), ==, 2);
  g_assert_cmpint (gui_fault_requests (), ==, 1);
  sent = last_body ("ExecuteStatement");
  g_assert_true (json_equal (sent, failed));
  json_decref (sent);
  json_decref (failed);
}

int
main (int argc, char **argv)
{
  int status;

  gui_init (&argc, &argv);
  server_url = gui_fault_start ();

  g_test_add_func ("/retry-gui/describe", test_describe);
  g_test_add_func ("/retry-gui/run", test_run);
  g_test_add_func ("/retry-gui/load-more", test_load_more);
  g_test_add_func ("/retry-gui/load-all", test_load_all);
  g_test_add_func ("/retry-gui/no-retry", test_no_retry);
  g_test_add_func ("/retry-gui/sql", test_sql);

  status = gui_run_tests ();
  gui_fault_stop ();
  return status;
}
