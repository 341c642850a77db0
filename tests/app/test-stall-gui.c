/* test-stall-gui.c: the app never holds up its main loop while it waits on an endpoint that
 * misbehaves, under Xvfb. The endpoint is the fault server of tests/lib/dynoscope_testlib.py
 * (gui-fault.h). While a request is outstanding against it (a table tab's Run against a server
 * that reads the request and never answers, its Load More against one that trickles its answer
 * a byte a second, a SQL tab's Run against the same silent server, and a SQL tab's Run against
 * connections reset and against throttling, which the client retries with backoff), a
 * high-priority 10 ms timeout on the main loop notes the longest gap between two of its
 * dispatches and a tick callback the longest gap between two frames of the window:
 *
 * - neither gap reaches STALL_LIMIT_MS (1 s) while the request has been outstanding for
 *   WINDOW_MS (4 s): a call made on the main thread would stop both for the whole wait (60 s per
 *   attempt when silent or trickling; the backoff of 10 attempts, 13 s on average, when reset
 *   or throttled). A watchdog thread fails the test as soon as the main loop has stood still for
 *   STALL_LIMIT_MS, so that a stalled loop fails it even when it never comes back;
 * - a key typed into the window (through the X server with XTest, as a keyboard types) reaches
 *   the filter entry or the SQL editor while the request is still outstanding;
 * - Escape (Cancel) ends the request at once: the tab is idle again within CANCEL_LIMIT_MS, the
 *   server sees the connection closed (silent, trickle) and no new attempt is sent (backoff).
 *
 * Each case's figures are printed in the test log (g_test_message). */
#define G_LOG_DOMAIN "test-stall-gui"

#include <jansson.h>
#include <string.h>

#include "app/sql/dy-sql-view.h"
#include "gui-fault.h"
#include "gui-util.h"

#ifdef HAVE_XTEST
#include <X11/extensions/XTest.h>
#include <gdk/x11/gdkx.h>
#endif

#define TABLE "Stalled"
/* how long each case keeps a request outstanding while the main loop is watched */
#define WINDOW_MS 4000
/* the longest the main loop (or the window's frames) may stand still: a request that took the
 * main thread would stop it for the whole window; a busy 2-core machine under the sanitizers
 * stalls it for tens of ms */
#define STALL_LIMIT_MS 1000
/* Cancel (Escape) to an idle tab */
#define CANCEL_LIMIT_MS 1000
/* the server notices a closed connection at once when silent, at its next byte (a second)
 * when trickling */
#define CLOSED_LIMIT_S 10

static const char *server_url;
static DyConnection *endpoint;
static DyTableView *view;
static DySqlView *sql;

/* ---- Watching the main loop ---- */

typedef struct {
  GMutex lock;
  gboolean armed;
  const char *what;
  gint64 started;
  gint64 last; /* the timeout's last dispatch */
  gint64 max_gap;
  gint64 max_gap_at; /* when it ended */
  guint dispatches;
  gint64 last_frame; /* the window's last frame */
  gint64 max_frame_gap;
  guint frames;
  guint source;
  guint tick;
  gboolean quit;
  GThread *watchdog;
} Probe;

static Probe probe;

static gboolean
probe_dispatch (gpointer data)
{
  gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&probe.lock);
  if (now - probe.last > probe.max_gap)
    {
      probe.max_gap = now - probe.last;
      probe.max_gap_at = now;
    }
  probe.last = now;
  probe.dispatches++;
  g_mutex_unlock (&probe.lock);
  return G_SOURCE_CONTINUE;
}

static gboolean
probe_frame (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&probe.lock);
  if (probe.frames > 0)
    probe.max_frame_gap = MAX (probe.max_frame_gap, now - probe.last_frame);
  probe.last_frame = now;
  probe.frames++;
  g_mutex_unlock (&probe.lock);
  return G_SOURCE_CONTINUE;
}

/* Fails the test (from its own thread: the main one may never come back) when the main loop has
 * not dispatched the probe for STALL_LIMIT_MS while it is armed. */
static gpointer
watchdog_main (gpointer data)
{
  for (;;)
    {
      gint64 now, stalled = 0;
      const char *what = NULL;
      gboolean quit;

      g_usleep (20 * 1000);
      now = g_get_monotonic_time ();
      g_mutex_lock (&probe.lock);
      quit = probe.quit;
      if (probe.armed && now - probe.last >= STALL_LIMIT_MS * 1000)
        {
          stalled = now - probe.last;
          what = probe.what;
        }
      g_mutex_unlock (&probe.lock);
      if (quit)
        return NULL;
      if (what != NULL)
        g_error ("the main loop stood still for %" G_GINT64_FORMAT " ms while %s (the limit is %d "
                 "ms)",
                 stalled / 1000, what, STALL_LIMIT_MS);
    }
}

/* Starts watching the main loop: WHAT is what it waits on. */
static void
probe_start (const char *what)
{
  gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&probe.lock);
  probe.armed = TRUE;
  probe.what = what;
  probe.started = probe.last = now;
  probe.max_gap = probe.max_frame_gap = 0;
  probe.dispatches = probe.frames = 0;
  g_mutex_unlock (&probe.lock);
  probe.source = g_timeout_add_full (G_PRIORITY_HIGH, 10, probe_dispatch, NULL, NULL);
  probe.tick = gtk_widget_add_tick_callback (GTK_WIDGET (gui_window), probe_frame, NULL, NULL);
}

typedef struct {
  double max_gap_ms;
  double max_gap_at_s; /* since the start */
  double max_frame_gap_ms;
  double watched_s;
  guint dispatches;
  guint frames;
} ProbeResult;

static ProbeResult
probe_stop (void)
{
  ProbeResult r;
  gint64 now = g_get_monotonic_time ();

  g_source_remove (probe.source);
  gtk_widget_remove_tick_callback (GTK_WIDGET (gui_window), probe.tick);
  g_mutex_lock (&probe.lock);
  probe.armed = FALSE;
  /* the gap up to now counts too */
  if (now - probe.last > probe.max_gap)
    {
      probe.max_gap = now - probe.last;
      probe.max_gap_at = now;
    }
  r.max_gap_ms = probe.max_gap / 1000.0;
  r.max_gap_at_s = (probe.max_gap_at - probe.started) / 1e6;
  r.max_frame_gap_ms = probe.max_frame_gap / 1000.0;
  r.watched_s = (now - probe.started) / 1e6;
  r.dispatches = probe.dispatches;
  r.frames = probe.frames;
  g_mutex_unlock (&probe.lock);
  return r;
}

/* ---- Waiting ---- */

/* The server's figures are asked over HTTP: at most every 50 ms while a condition is polled on
 * a main loop that the probe wakes every 10 ms. */
static gint64
server_requests (void)
{
  static gint64 asked, value;
  gint64 now = g_get_monotonic_time ();

  if (now - asked >= 50 * 1000)
    {
      value = gui_fault_requests ();
      asked = now;
    }
  return value;
}

static gint64
server_open (void)
{
  static gint64 asked, value;
  gint64 now = g_get_monotonic_time ();

  if (now - asked >= 50 * 1000)
    {
      value = gui_fault_open ();
      asked = now;
    }
  return value;
}

static gboolean
server_idle (gpointer data)
{
  return server_open () == 0;
}

static gboolean
server_received (gpointer data)
{
  return server_requests () >= GPOINTER_TO_INT (data);
}

/* ---- The keyboard ---- */

/* Gives the window the keyboard and WIDGET the focus. */
static void
focus (GtkWidget *widget)
{
#ifdef HAVE_XTEST
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (gui_window));
  Display *x = gdk_x11_display_get_xdisplay (gdk_surface_get_display (surface));

  /* no window manager under Xvfb: the test gives its window the X focus itself */
  XSetInputFocus (x, gdk_x11_surface_get_xid (surface), RevertToParent, CurrentTime);
  XFlush (x);
#endif
  gtk_window_present (GTK_WINDOW (gui_window));
  g_assert_true (gtk_widget_grab_focus (widget));
}

#ifndef HAVE_XTEST
static gboolean
insert_x (gpointer data)
{
  GtkWidget *widget = gtk_window_get_focus (GTK_WINDOW (gui_window));

  if (GTK_IS_TEXT_VIEW (widget))
    gtk_text_buffer_insert_at_cursor (gtk_text_view_get_buffer (GTK_TEXT_VIEW (widget)), "x", 1);
  else if (GTK_IS_EDITABLE (widget))
    {
      int position = gtk_editable_get_position (GTK_EDITABLE (widget));

      gtk_editable_insert_text (GTK_EDITABLE (widget), "x", 1, &position);
    }
  return G_SOURCE_REMOVE;
}

static gboolean
escape (gpointer data)
{
  GtkWidget *widget = gtk_window_get_focus (GTK_WINDOW (gui_window));

  gtk_widget_activate_action (widget, "view.cancel", NULL);
  return G_SOURCE_REMOVE;
}
#endif

/* Presses and releases KEYSYM (GDK_KEY_x, GDK_KEY_Escape: X's keysyms) as the keyboard does: the X
 * server sends the events to the window, and GTK reads them on its main loop. Without XTest, the
 * same is done by an idle callback of the main loop. */
static void
press (guint keysym)
{
#ifdef HAVE_XTEST
  Display *x = gdk_x11_display_get_xdisplay (gtk_widget_get_display (GTK_WIDGET (gui_window)));
  KeyCode code = XKeysymToKeycode (x, keysym);

  g_assert_cmpuint (code, !=, 0);
  g_assert_true (XTestFakeKeyEvent (x, code, True, CurrentTime));
  g_assert_true (XTestFakeKeyEvent (x, code, False, CurrentTime));
  XFlush (x);
#else
  g_idle_add (keysym == GDK_KEY_Escape ? escape : insert_x, NULL);
#endif
}

/* ---- The tabs ---- */

static gboolean
connection_listed (gpointer data)
{
  return dy_connection_get_loaded (endpoint) && !dy_connection_get_loading (endpoint)
         && dy_connection_get_table_description (endpoint, TABLE, NULL) != NULL;
}

static gboolean
view_ready (gpointer data)
{
  return dy_table_view_get_ready (view) && dy_table_view_get_described (view);
}

static gboolean
view_idle (gpointer data)
{
  return !dy_table_view_get_running (view);
}

static gboolean
view_rows (gpointer data)
{
  return !dy_table_view_get_running (view)
         && g_list_model_get_n_items (dy_table_view_get_items (view)) == GPOINTER_TO_UINT (data);
}

static gboolean
sql_idle (gpointer data)
{
  return !dy_sql_view_get_running (sql);
}

static gboolean
sql_listed (gpointer data)
{
  return dy_sql_view_get_completion_tables (sql) != NULL;
}

static void
script (const char *const *failures)
{
  gui_fault_script (failures, gui_fault_table_answers (TABLE, gui_fault_page ("a1", "a2", TRUE)));
}

static gboolean
sql_columns (gpointer data)
{
  return dy_sql_view_get_completion_columns (sql, TABLE) != NULL;
}

static GtkWidget *
sql_editor (void)
{
  GObject *editor = gtk_widget_get_template_child (GTK_WIDGET (sql), DY_TYPE_SQL_VIEW, "editor");

  g_assert_nonnull (editor);
  return GTK_WIDGET (editor);
}

static char *
sql_text (void)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (sql_editor ()));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* ---- One case ---- */

typedef enum {
  TABLE_RUN,
  TABLE_LOAD_MORE,
  SQL_RUN,
} Request;

typedef struct {
  const char *what; /* for the log and the watchdog */
  Request request;
  const char *failure; /* the fault server's answer to each attempt */
  gboolean holds;      /* each attempt holds a connection until the client goes */
} Case;

static gboolean
running (Request request)
{
  return request == SQL_RUN ? dy_sql_view_get_running (sql) : dy_table_view_get_running (view);
}

/* The tab shows the failure with Retry (the client's attempts are spent). */
static gboolean
failed_with_retry (Request request)
{
  GtkWidget *widget = request == SQL_RUN ? GTK_WIDGET (sql) : GTK_WIDGET (view);
  GtkWidget *button = gui_action_button (widget, "view.retry");

  return !running (request) && button != NULL && gtk_widget_get_mapped (button)
         && gtk_widget_is_sensitive (button);
}

typedef struct {
  Request request;
  GtkWidget *typed_into;
} Typed;

static gboolean
key_arrived (gpointer data)
{
  Typed *t = data;
  g_autofree char *text = NULL;

  if (t->request == SQL_RUN)
    text = sql_text ();
  else
    text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (t->typed_into)));
  return strchr (text, 'x') != NULL;
}

static void
start_request (Request request)
{
  switch (request)
    {
    case TABLE_RUN:
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.run", NULL));
      break;
    case TABLE_LOAD_MORE:
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.load-more", NULL));
      break;
    case SQL_RUN:
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (sql), "view.run", NULL));
      break;
    }
}

static void
run_case (const Case *c)
{
  g_auto (GStrv) failures = gui_fault_times (c->failure, 400);
  /* a SQL tab's PartiQL Run asks DescribeTable (the statement's keys) first: answered */
  guint first = c->request == SQL_RUN ? 1 : 0;
  GtkWidget *typed_into;
  Typed typed;
  gint64 started, typed_at, key_ms, end, last, pending = 0, cancel_at, cancel_ms, closed_ms = -1;
  gint64 requests_at_cancel;
  guint retries = 0;
  ProbeResult r;

  /* the tab and the widget that takes the key */
  if (c->request == SQL_RUN)
    {
      adw_tab_view_set_selected_page (
          dy_window_get_tab_view (gui_window),
          adw_tab_view_get_page (dy_window_get_tab_view (gui_window), GTK_WIDGET (sql)));
      dy_sql_view_set_text (sql, "SELECT * FROM \"" TABLE "\"");
      typed_into = sql_editor ();
      /* typing offers the columns of the table read, asked of the server once: asked now */
      if (dy_sql_view_get_completion_columns (sql, TABLE) == NULL)
        {
          script (NULL);
          gui_settle ();
          focus (typed_into);
          press (GDK_KEY_x);
          gui_wait_long (sql_columns, NULL, "the columns for completion", 20);
          dy_sql_view_set_text (sql, "SELECT * FROM \"" TABLE "\"");
        }
    }
  else
    {
      adw_tab_view_set_selected_page (
          dy_window_get_tab_view (gui_window),
          adw_tab_view_get_page (dy_window_get_tab_view (gui_window), GTK_WIDGET (view)));
      gui_set_text (view, "filter_value_entry", "");
      typed_into = gui_child (view, "filter_value_entry");
    }
  gui_settle ();
  focus (typed_into);
  typed.request = c->request;
  typed.typed_into = typed_into;
  g_assert_false (key_arrived (&typed));

  if (first)
    {
      g_free (failures[0]);
      failures[0] = g_strdup ("ok");
    }
  script ((const char *const *) failures);
  probe_start (c->what);
  started = g_get_monotonic_time ();
  start_request (c->request);
  gui_wait_long (server_received, GINT_TO_POINTER (1 + first), "the request to reach the server", 20);

  /* The window: the request outstanding for WINDOW_MS, a key typed a second in. A request the
   * client gave up on before the end (its attempts and backoff spent) is sent again with
   * Retry, as a user would: the main loop is watched while something is outstanding. */
  end = started + WINDOW_MS * 1000;
  typed_at = started + 1000 * 1000;
  key_ms = -1;
  last = started;
  for (gint64 now = started; now < end; now = g_get_monotonic_time ())
    {
      if (running (c->request))
        pending += now - last;
      last = now;
      if (typed_at != 0 && now >= typed_at)
        {
          press (GDK_KEY_x);
          typed_at = 0;
        }
      if (key_ms < 0 && typed_at == 0 && key_arrived (&typed))
        {
          key_ms = (now - (started + 1000 * 1000)) / 1000;
          /* processed while the request is outstanding */
          g_assert_true (running (c->request) || !c->holds);
        }
      if (!c->holds && failed_with_retry (c->request))
        {
          GtkWidget *widget = c->request == SQL_RUN ? GTK_WIDGET (sql) : GTK_WIDGET (view);

          g_assert_true (gtk_widget_activate_action (widget, "view.retry", NULL));
          retries++;
        }
      g_main_context_iteration (NULL, TRUE);
    }
  if (key_ms < 0)
    g_error ("the key typed was not processed within %d ms while %s", WINDOW_MS - 1000, c->what);

  /* Still outstanding: Escape cancels it. */
  if (!running (c->request))
    {
      g_assert_false (c->holds);
      g_assert_true (failed_with_retry (c->request));
      g_assert_true (gtk_widget_activate_action (
          c->request == SQL_RUN ? GTK_WIDGET (sql) : GTK_WIDGET (view), "view.retry", NULL));
      retries++;
    }
  g_assert_true (running (c->request));
  if (c->holds)
    {
      /* one attempt, held the whole time */
      g_assert_cmpint (gui_fault_requests (), ==, 1 + first);
      g_assert_cmpint (gui_fault_open (), ==, 1);
    }
  requests_at_cancel = gui_fault_requests ();
  /* Escape goes where the key went (an entry's focus is its text child) */
  {
    GtkWidget *focused = gtk_window_get_focus (GTK_WINDOW (gui_window));

    g_assert_true (focused == typed_into || gtk_widget_is_ancestor (focused, typed_into));
  }
  cancel_at = g_get_monotonic_time ();
  press (GDK_KEY_Escape);
  gui_wait_long (c->request == SQL_RUN ? sql_idle : view_idle, NULL, "Escape to cancel", 20);
  cancel_ms = (g_get_monotonic_time () - cancel_at) / 1000;
  if (c->holds)
    {
      /* the client let go of the connection */
      gui_wait_long (server_idle, NULL, "the server to see the connection closed", CLOSED_LIMIT_S);
      closed_ms = (g_get_monotonic_time () - cancel_at) / 1000;
    }
  else
    /* what was in flight at the Escape may still arrive; nothing after it */
    gui_settle_for (1000);
  r = probe_stop ();

  g_test_message ("%s: main loop max gap %.1f ms (ending %.2f s in; %u dispatches of a 10 ms "
                  "timeout in %.1f s), "
                  "window frames max gap %.1f ms (%u frames); the request outstanding %.1f s of "
                  "the %.1f s window (%u Retry); the key typed processed after %" G_GINT64_FORMAT
                  " ms; Escape to idle %" G_GINT64_FORMAT " ms%s",
                  c->what, r.max_gap_ms, r.max_gap_at_s, r.dispatches, r.watched_s,
                  r.max_frame_gap_ms, r.frames, pending / 1e6, WINDOW_MS / 1000.0, retries, key_ms,
                  cancel_ms, closed_ms >= 0 ? "" : ", no attempt after it");
  if (closed_ms >= 0)
    g_test_message ("%s: the server saw the connection closed %" G_GINT64_FORMAT " ms after Escape",
                    c->what, closed_ms);

  g_assert_cmpfloat (r.max_gap_ms, <, STALL_LIMIT_MS);
  g_assert_cmpuint (r.frames, >, 0);
  g_assert_cmpfloat (r.max_frame_gap_ms, <, STALL_LIMIT_MS);
  /* outstanding nearly all the window (a Retry takes a main-loop iteration) */
  g_assert_cmpfloat (pending / 1000.0, >=, 0.9 * WINDOW_MS);
  g_assert_cmpint (cancel_ms, <, CANCEL_LIMIT_MS);
  if (!c->holds)
    g_assert_cmpint (gui_fault_requests (), <=, requests_at_cancel + 1);
  else
    g_assert_cmpint (gui_fault_requests (), ==, requests_at_cancel);
  g_assert_false (running (c->request));

  /* the key typed goes again */
  if (c->request == SQL_RUN)
    dy_sql_view_set_text (sql, "");
  else
    gui_set_text (view, "filter_value_entry", "");
}

/* ---- Tests ---- */

/* The endpoint's table in a tab with a first page shown (more to load), and a SQL tab. */
static void
test_setup (void)
{
  g_autoptr (GError) error = NULL;

#ifdef HAVE_XTEST
  g_test_message ("keys are typed through the X server (XTest)");
#else
  g_test_message ("built without XTest: keys are put on the main loop by an idle callback");
#endif

  script (NULL);
  endpoint = dy_window_add_endpoint (gui_window, server_url, "us-east-1", FALSE, &error);
  g_assert_no_error (error);
  dy_window_expand_connection (gui_window, endpoint);
  gui_wait_long (connection_listed, NULL, "the endpoint's tables", 20);
  view = dy_window_open_table (gui_window, endpoint, TABLE);
  gui_wait_long (view_ready, NULL, "DescribeTable", 20);
  /* a Limit of the user's: a Run sends one request (without, it reads a second page) */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (gui_child (view, "limit_spin")), 2);
  sql = dy_sql_view_open (gui_window, endpoint);
  gui_wait_long (sql_listed, NULL, "the SQL tab's tables", 20);
  dy_sql_view_set_partiql (sql, TRUE);
}

static void
load_first_page (void)
{
  script (NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (gui_window), "win.run", NULL));
  gui_wait_long (view_rows, GUINT_TO_POINTER (2), "the first page", 20);
  g_assert_true (dy_table_view_get_can_load_more (view));
}

static void
test_run_silent (void)
{
  const Case c
      = { "a table tab's Run waits on a server that never answers", TABLE_RUN, "silent", TRUE };

  run_case (&c);
  /* the rows as they were before: none (the Run cleared them) */
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 0);
}

static void
test_load_more_trickle (void)
{
  const Case c = { "a table tab's Load More waits on a server that answers a byte a second",
                   TABLE_LOAD_MORE, "trickle", TRUE };

  load_first_page ();
  run_case (&c);
  /* the rows shown stay, and Load More can be asked again */
  g_assert_cmpuint (g_list_model_get_n_items (dy_table_view_get_items (view)), ==, 2);
  g_assert_true (dy_table_view_get_can_load_more (view));
}

static void
test_sql_silent (void)
{
  const Case c
      = { "a SQL tab's Run waits on a server that never answers", SQL_RUN, "silent", TRUE };

  run_case (&c);
}

static void
test_sql_reset (void)
{
  const Case c
      = { "a SQL tab's Run retries connections reset, with backoff", SQL_RUN, "reset", FALSE };

  run_case (&c);
}

static void
test_sql_throttled (void)
{
  const Case c = { "a SQL tab's Run retries throttling, with backoff", SQL_RUN, "throttle", FALSE };

  run_case (&c);
}

int
main (int argc, char **argv)
{
  int status;

  gui_init (&argc, &argv);
  server_url = gui_fault_start ();
  g_mutex_init (&probe.lock);
  probe.watchdog = g_thread_new ("main-loop-watchdog", watchdog_main, NULL);

  g_test_add_func ("/stall-gui/setup", test_setup);
  g_test_add_func ("/stall-gui/run-silent", test_run_silent);
  g_test_add_func ("/stall-gui/load-more-trickle", test_load_more_trickle);
  g_test_add_func ("/stall-gui/sql-silent", test_sql_silent);
  g_test_add_func ("/stall-gui/sql-reset", test_sql_reset);
  g_test_add_func ("/stall-gui/sql-throttled", test_sql_throttled);

  status = gui_run_tests ();
  g_mutex_lock (&probe.lock);
  probe.quit = TRUE;
  g_mutex_unlock (&probe.lock);
  g_thread_join (probe.watchdog);
  gui_fault_stop ();
  return status;
}
