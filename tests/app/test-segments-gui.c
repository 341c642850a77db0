/* test-segments-gui.c: Load All of a remote table in parallel Scan segments, in the real app
 * against `dynoscope-cli serve`. A table of N_ITEMS items (composite keys) is read with
 * "scan-segments" at 4 after a first page read without segments: every item comes exactly once
 * (the first page's items, which the segments read again, are not shown twice), in the order of
 * a single Scan (segment after segment, each in key order), the footer's figures are those of
 * the pages shown; cancelled mid-way, Load More goes on in the segment where it stopped and
 * Load All finishes with the same rows; set to 1, Load All reads page after page as before;
 * scrolled near the last row, the grid reads the next page ahead; the Preferences row sets the
 * count; the table deleted in the middle, the rows shown stay, the first ones of a Scan. */
#define G_LOG_DOMAIN "test-segments-gui"

#include <signal.h>
#include <string.h>

#include "app/window/dy-preferences.h"
#include "gui-util.h"

#define TABLE "Segmented"
#define N_ITEMS 2000
#define SEGMENTS 4
#define PAGE_ITEMS 10

static GSubprocess *server;
static char *server_url;
static GPtrArray *scan_order; /* "pk/sk" of each item, in the order of a Scan without segments */
static DyTableView *view;

static char *
key_of (json_t *item)
{
  return g_strdup_printf ("%s/%s",
                          json_string_value (json_object_get (json_object_get (item, "pk"), "S")),
                          json_string_value (json_object_get (json_object_get (item, "sk"), "S")));
}

/* The table, filled and scanned (its order) through the engine, then served. */
static void
start_server (const char *dir)
{
  const char *cli = g_getenv ("DYNOSCOPE_CLI");
  g_autofree char *db = g_build_filename (dir, "segments.db", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *payload = g_strnfill (300, 'p');
  json_t *start = NULL;
  DdbBackend *backend;

  if (cli == NULL)
    return;
  backend = ddb_backend_open_database (db, &error);
  g_assert_no_error (error);
  gui_call (backend, "CreateTable",
            json_pack ("{ss s[{ssss}{ssss}] s[{ssss}{ssss}] ss}", "TableName", TABLE,
                       "AttributeDefinitions", "AttributeName", "pk", "AttributeType", "S",
                       "AttributeName", "sk", "AttributeType", "S", "KeySchema", "AttributeName",
                       "pk", "KeyType", "HASH", "AttributeName", "sk", "KeyType", "RANGE",
                       "BillingMode", "PAY_PER_REQUEST"));
  for (guint i = 0; i < N_ITEMS; i += 25)
    {
      json_t *puts = json_array ();

      for (guint j = i; j < i + 25; j++)
        {
          g_autofree char *pk = g_strdup_printf ("C#%u", j / 4);
          g_autofree char *sk = g_strdup_printf ("%05u", j);
          g_autofree char *n = g_strdup_printf ("%u", j);

          json_array_append_new (puts, json_pack ("{s{s{s{ss}s{ss}s{ss}s{ss}}}}", "PutRequest",
                                                  "Item", "pk", "S", pk, "sk", "S", sk, "payload",
                                                  "S", payload, "n", "N", n));
        }
      gui_call (backend, "BatchWriteItem", json_pack ("{s{so}}", "RequestItems", TABLE, puts));
    }
  scan_order = g_ptr_array_new_with_free_func (g_free);
  do
    {
      json_t *request = json_pack ("{ss}", "TableName", TABLE);
      json_t *response = NULL;
      json_t *item;
      gsize i;

      if (start != NULL)
        json_object_set_new (request, "ExclusiveStartKey", start);
      g_assert_true (ddb_backend_call (backend, "Scan", request, NULL, &response, &error));
      g_assert_no_error (error);
      json_array_foreach (json_object_get (response, "Items"), i, item)
        g_ptr_array_add (scan_order, key_of (item));
      start = json_object_get (response, "LastEvaluatedKey");
      if (start != NULL)
        json_incref (start);
      json_decref (request);
      json_decref (response);
    }
  while (start != NULL);
  g_assert_cmpuint (scan_order->len, ==, N_ITEMS);
  ddb_backend_free (backend);

  server = gui_start_serve (db, &server_url);
}

static guint
n_rows (void)
{
  return g_list_model_get_n_items (dy_table_view_get_items (view));
}

/* The rows shown are the first ones of a Scan without segments, each once. */
static void
assert_scan_prefix (void)
{
  GListModel *items = dy_table_view_get_items (view);
  guint n = g_list_model_get_n_items (items);

  g_assert_cmpuint (n, <=, N_ITEMS);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (DyItem) item = g_list_model_get_item (items, i);
      g_autofree char *pk = gui_string_attr (item, "pk");
      g_autofree char *sk = gui_string_attr (item, "sk");
      g_autofree char *key = g_strdup_printf ("%s/%s", pk, sk);

      g_assert_cmpstr (key, ==, scan_order->pdata[i]);
    }
}

/* The rows are the table's items, each once, in the order of a Scan without segments. */
static void
assert_scan_order (void)
{
  g_assert_cmpuint (n_rows (), ==, N_ITEMS);
  assert_scan_prefix ();
  g_assert_false (dy_table_view_get_can_load_more (view));
}

/* Scan's first page of PAGE_ITEMS items, without segments. */
static void
run_first_page (void)
{
  json_t *request = json_pack ("{sssi}", "TableName", TABLE, "Limit", PAGE_ITEMS);

  dy_table_view_run_request (view, "Scan", request);
  json_decref (request);
  gui_wait_for (gui_view_idle, view, "the first page");
  g_assert_cmpuint (n_rows (), ==, PAGE_ITEMS);
  g_assert_true (dy_table_view_get_can_load_more (view));
}

static void
load_all (void)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.load-all", NULL));
  g_assert_true (dy_table_view_get_running (view));
  gui_wait_long (gui_view_idle, view, "Load All", 180);
  g_assert_false (
      gtk_widget_get_visible (gui_child (view, "error_revealer"))
      && gtk_revealer_get_reveal_child (GTK_REVEALER (gui_child (view, "error_revealer"))));
}

/* Every item read once by the segments (the first page's items again among them) and the first
 * page: the figures of every page shown. */
static void
assert_stats (guint first_pages)
{
  guint64 scanned;
  guint pages, requests;
  double capacity;

  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (scanned, ==, N_ITEMS + first_pages * PAGE_ITEMS);
  g_assert_cmpuint (requests, ==, pages);
  /* PAGE_ITEMS a page, and a last page per segment that may hold fewer (or none) */
  g_assert_cmpuint (pages, >=, first_pages + N_ITEMS / PAGE_ITEMS);
  g_assert_cmpuint (pages, <=, first_pages + N_ITEMS / PAGE_ITEMS + SEGMENTS);
}

static gboolean
connection_ready (gpointer data)
{
  return dy_connection_get_loaded (data) && !dy_connection_get_loading (data)
         && dy_connection_get_table_description (data, TABLE, NULL) != NULL;
}

static void
test_open (void)
{
  g_autoptr (GError) error = NULL;
  DyConnection *endpoint;

  if (server_url == NULL)
    {
      g_test_skip ("DYNOSCOPE_CLI (dynoscope-cli) is not set");
      return;
    }
  g_settings_set_int (dy_window_get_settings (gui_window), "scan-segments", SEGMENTS);
  endpoint = dy_window_add_endpoint (gui_window, server_url, "us-east-1", FALSE, &error);
  g_assert_no_error (error);
  dy_window_expand_connection (gui_window, endpoint);
  gui_wait_for (connection_ready, endpoint, "the endpoint's tables");
  view = dy_window_open_table (gui_window, endpoint, TABLE);
  gui_wait_for (gui_view_ready, view, "DescribeTable");
}

/* Straight through: the rows of a single Scan, the first page's items once. */
static void
test_load_all (void)
{
  if (view == NULL)
    return;
  run_first_page ();
  load_all ();
  assert_scan_order ();
  assert_stats (1);
  gui_screenshot ("segments-loaded.png");
}

typedef struct {
  guint rows;
} AtLeast;

static gboolean
rows_at_least (gpointer data)
{
  return n_rows () >= ((AtLeast *) data)->rows;
}

/* Cancelled in the middle: the rows shown stay, Load More reads on from where it stopped (in
 * the segment it stopped in) and Load All ends with the same rows as straight through. */
static void
test_cancel_resume (void)
{
  AtLeast half = { N_ITEMS / 2 };
  guint before;
  g_autofree char *request = NULL;

  if (view == NULL)
    return;
  run_first_page ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.load-all", NULL));
  /* One page is shown a main-loop iteration: cancelled right after the one that reached half. */
  gui_wait_long (rows_at_least, &half, "half of the rows", 180);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.cancel", NULL));
  g_assert_false (dy_table_view_get_running (view));
  before = n_rows ();
  g_assert_cmpuint (before, <, N_ITEMS);
  g_assert_true (dy_table_view_get_can_load_more (view));

  /* The next page of the segment (a segment's last page may be empty: read on until rows come). */
  for (guint tries = 0; n_rows () == before && tries < 3; tries++)
    gui_run (view, "win.load-more");
  g_assert_cmpuint (n_rows (), >, before);
  g_assert_cmpuint (n_rows (), <=, before + PAGE_ITEMS);
  request = dy_table_view_dup_request_text (view);
  g_assert_nonnull (strstr (request, "\"TotalSegments\": 4"));
  g_assert_nonnull (strstr (request, "\"Segment\": "));

  load_all ();
  assert_scan_order ();
  assert_stats (1);
}

/* Set to 1: one Scan, page after page, as before segments. */
static void
test_one_segment (void)
{
  guint64 scanned;
  guint pages, requests;
  double capacity;

  if (view == NULL)
    return;
  g_settings_set_int (dy_window_get_settings (gui_window), "scan-segments", 1);
  run_first_page ();
  load_all ();
  assert_scan_order ();
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (scanned, ==, N_ITEMS);
  g_assert_cmpuint (pages, ==, N_ITEMS / PAGE_ITEMS + 1); /* the last one empty */
  g_settings_set_int (dy_window_get_settings (gui_window), "scan-segments", SEGMENTS);
}

static gboolean
scrollable (gpointer data)
{
  GtkAdjustment *adjustment = data;

  return gtk_adjustment_get_upper (adjustment) > 2 * gtk_adjustment_get_page_size (adjustment)
         && gtk_adjustment_get_page_size (adjustment) > 0;
}

static gboolean
rows_are (gpointer data)
{
  return n_rows () == GPOINTER_TO_UINT (data) && !dy_table_view_get_running (view);
}

/* As a user holding the scroll bar at the bottom: scrolled to the end as the grid grows. */
static gboolean
at_end_rows_are (gpointer data)
{
  GtkAdjustment *adjustment
      = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (gui_child (view, "column_view")));

  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment)
                                            - gtk_adjustment_get_page_size (adjustment));
  return rows_are (data);
}

/* Scrolled near the last row, the next page is read without a click; scrolled back up, nothing
 * more. */
static void
test_read_ahead (void)
{
  json_t *request = json_pack ("{sssi}", "TableName", TABLE, "Limit", 200);
  GtkAdjustment *adjustment
      = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (gui_child (view, "column_view")));
  guint64 scanned;
  guint pages, requests;
  double capacity;

  if (view == NULL)
    {
      json_decref (request);
      return;
    }
  dy_table_view_run_request (view, "Scan", request);
  json_decref (request);
  gui_wait_for (rows_are, GUINT_TO_POINTER (200), "the first page");
  gui_wait_for (scrollable, adjustment, "the rows laid out");
  /* value-changed is handled as it is emitted: a page asked for would be running already */
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_page_size (adjustment));
  g_assert_false (dy_table_view_get_running (view)); /* far from the end: nothing asked */
  gui_wait_for (at_end_rows_are, GUINT_TO_POINTER (400), "the page read ahead");
  dy_table_view_get_stats (view, &scanned, &pages, &requests, &capacity);
  g_assert_cmpuint (requests, ==, 2);
  g_assert_cmpuint (scanned, ==, 400);
  g_assert_true (dy_table_view_get_can_load_more (view));
  gtk_adjustment_set_value (adjustment, 0);
  g_assert_false (dy_table_view_get_running (view));
  g_assert_cmpuint (n_rows (), ==, 400);
}

/* The table deleted in the middle of a parallel Load All (a failure no retry cures): the error
 * is told, the rows shown stay and are the first ones of a single Scan, each once. Last: the
 * table is gone. */
static void
test_failure_midway (void)
{
  /* Fewer than segment 0 holds (about a quarter): its reader, which keeps at most two pages
   * waiting to be shown, still has pages to read when the table goes. */
  AtLeast some = { N_ITEMS / 8 };
  g_autoptr (GError) error = NULL;
  DdbBackend *backend;

  if (view == NULL)
    return;
  {
    json_t *request = json_pack ("{sssi}", "TableName", TABLE, "Limit", 5);

    dy_table_view_run_request (view, "Scan", request);
    json_decref (request);
    gui_wait_for (gui_view_idle, view, "the first page");
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.load-all", NULL));
  gui_wait_long (rows_at_least, &some, "an eighth of the rows", 180);
  g_assert_true (dy_table_view_get_running (view));
  backend = dy_connection_open_backend (dy_table_view_get_connection (view), 1, &error);
  g_assert_no_error (error);
  gui_call (backend, "DeleteTable", json_pack ("{ss}", "TableName", TABLE));
  ddb_backend_free (backend);
  gui_wait_long (gui_view_idle, view, "Load All to fail", 180);
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (gui_child (view, "error_revealer"))));
  g_assert_cmpuint (n_rows (), >=, some.rows);
  g_assert_cmpuint (n_rows (), <, N_ITEMS);
  assert_scan_prefix ();
  g_assert_true (dy_table_view_get_can_load_more (view));
}

/* Preferences: the row shows the count and sets it. */
static void
test_preferences (void)
{
  GtkWidget *prefs = dy_preferences_new (gui_window);
  GtkWidget *row = dy_preferences_get_segments_row (prefs);
  GListModel *model;

  g_assert_nonnull (row);
  g_settings_set_int (dy_window_get_settings (gui_window), "scan-segments", 0);
  gtk_window_destroy (GTK_WINDOW (prefs));
  prefs = dy_preferences_new (gui_window);
  row = dy_preferences_get_segments_row (prefs);
  gtk_window_present (GTK_WINDOW (prefs));
  gui_settle ();
  gui_screenshot ("segments-preferences.png");
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (row)), ==, 0);
  model = adw_combo_row_get_model (ADW_COMBO_ROW (row));
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 3), ==, "4");
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), 3);
  g_assert_cmpint (g_settings_get_int (dy_window_get_settings (gui_window), "scan-segments"), ==,
                   4);
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), 0);
  g_assert_cmpint (g_settings_get_int (dy_window_get_settings (gui_window), "scan-segments"), ==,
                   0);
  gtk_window_destroy (GTK_WINDOW (prefs));
  /* a count set elsewhere is shown as it is */
  g_settings_set_int (dy_window_get_settings (gui_window), "scan-segments", 3);
  prefs = dy_preferences_new (gui_window);
  row = dy_preferences_get_segments_row (prefs);
  model = adw_combo_row_get_model (ADW_COMBO_ROW (row));
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model),
                                               adw_combo_row_get_selected (ADW_COMBO_ROW (row))),
                   ==, "3");
  gtk_window_destroy (GTK_WINDOW (prefs));
}

int
main (int argc, char **argv)
{
  int status;

  start_server (gui_init (&argc, &argv));
  g_test_add_func ("/segments-gui/open", test_open);
  g_test_add_func ("/segments-gui/load-all", test_load_all);
  g_test_add_func ("/segments-gui/cancel-resume", test_cancel_resume);
  g_test_add_func ("/segments-gui/one-segment", test_one_segment);
  g_test_add_func ("/segments-gui/read-ahead", test_read_ahead);
  g_test_add_func ("/segments-gui/preferences", test_preferences);
  g_test_add_func ("/segments-gui/failure-midway", test_failure_midway);
  status = gui_run_tests ();
  gui_stop_serve (&server);
  g_free (server_url);
  g_clear_pointer (&scan_order, g_ptr_array_unref);
  return status;
}
