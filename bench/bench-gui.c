/* bench-gui.c: figures for the desktop app on a large database, the real window driven
 * in-process (run it under Xvfb: bench/bench-gui.sh does), each printed next to its goal:
 *   - the engine's own read rate of the database, measured first in the same run (a full Scan
 *     through ddb_engine_read): what Load All's rate is compared with;
 *   - launch to first rows drawn: from main () (after the database exists) to the first frame
 *     painted with rows of a Scan, with the clicks (open the table, Run) made at once;
 *   - Load All of the whole table (Run, then Load All to the end): its rate, as a share of the
 *     engine's; the peak RSS meanwhile (VmHWM, reset before it; printed with its anonymous and
 *     file-backed parts, as under Xvfb the file-backed part holds the shared libraries GDK
 *     maps: the harness renders with cairo, as the GUI tests do); the longest main-loop stall,
 *     measured by a high-priority 5 ms timeout recording the gaps between its calls;
 *   - sorting the loaded rows by a number column, back to the order loaded, grouping them
 *     into item collections and back, and Find in Loaded Rows of a word (which the rows' bytes
 *     rule out quickly), of a number (every row decoded) and cleared: the time until the grid
 *     shows the new order, and the longest stall meanwhile;
 *   - the RSS once scrolled to the end of the rows;
 *   - 10,000 selected rows (a range: the rows are read on a worker) staged for delete, and
 *     then every row (Ctrl+A's select-all) copied as DynamoDB JSON: the time until done and
 *     the longest stall meanwhile (BENCH_GUI_SKIP_SELECTION=1 leaves them out).
 * Usage: bench-gui [N_ITEMS] (default 1000000). The database is generated with bench-engine's
 * generator (bench-engine --input) and imported through the engine into a temporary folder,
 * unless BENCH_GUI_DB names an existing database (table "bench") to reuse; BENCH_GUI_KEEP=1
 * keeps the generated one and prints its path; BENCH_GUI_FIRST_ROWS_ONLY=1 measures launch to
 * first rows only (no engine Scan before it, to profile the start). BENCH_GUI_SCREENSHOT=FILE.png
 * writes the screen, scrolled to the end, there (with ImageMagick's import).
 * BENCH_GUI_REMOTE=1 measures instead Load All of a remote table: the database served by
 * `dynoscope-cli serve` on loopback (BENCH_GUI_CLI, else the build's), its Scan read first by a
 * plain client (the DynamoDB client, threads reading BENCH_GUI_SEGMENTS segments, default 4, the
 * items read into values and counted), then by the app's Load All with the "scan-segments" setting
 * at the same count: its rate as a share of the plain client's, its longest stall and peak RSS. */
#include <glib/gstdio.h>
#include <malloc.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/window/dy-application.h"
#include "app/staging/dy-staging.h"
#include "app/window/dy-window.h"
#include "backend/backend.h"
#include "core/malloc-init.h"
#include "engine/engine.h"
#include "engine/snapshot.h"

#define GOAL_FIRST_ROWS_MS 200
#define GOAL_RSS_MB 150
#define GOAL_STALL_MS 50
#define GOAL_LOAD_PERCENT 40 /* Load All's rate, of the engine's own read rate */
#define GOAL_REMOTE_PERCENT 60 /* remote Load All's rate, of a plain client's Scan of serve */
#define GOAL_ARRANGE_MS 1000
#define GOAL_STAGE_MS 3000
#define N_SELECTED 10000
#define TICK_MS 5

static gint64 launched;
static double engine_rate; /* items/s: the engine's own Scan of the database */
static gboolean first_rows_only; /* BENCH_GUI_FIRST_ROWS_ONLY: launch to first rows, no more */
static char *db_path;
static int status;

typedef gboolean (*Condition) (gpointer data);

static void
wait_for (Condition cond, gpointer data, const char *what, guint seconds)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;

  while (!cond (data))
    {
      g_main_context_iteration (NULL, TRUE);
      if (g_get_monotonic_time () > deadline)
        {
          fprintf (stderr, "bench-gui: timed out waiting for %s\n", what);
          exit (1);
        }
    }
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

static gboolean
set_flag (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
settle (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, set_flag, &done);
  wait_for (flag_set, &done, "a pause", 60);
}

static long
rss_kb (const char *field)
{
  g_autofree char *text = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return -1;
  line = strstr (text, field);
  return line != NULL ? strtol (line + strlen (field), NULL, 10) : -1;
}

/* The main thread's CPU time, in µs. */
static gint64
thread_cpu_time (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0;
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* The stall monitor: the longest time the main loop took to come back to a high-priority
 * timeout beyond its interval; and, as the machine may be shared, the most CPU time the main
 * thread spent between two calls (work of its own, not waiting for a core). */
typedef struct {
  gint64 last;
  gint64 last_cpu;
  gint64 worst;
  gint64 worst_cpu;
} Monitor;

static gboolean
tick (gpointer data)
{
  Monitor *m = data;
  gint64 now = g_get_monotonic_time ();
  gint64 cpu = thread_cpu_time ();

  if (m->last != 0)
    {
      m->worst = MAX (m->worst, now - m->last - TICK_MS * 1000);
      m->worst_cpu = MAX (m->worst_cpu, cpu - m->last_cpu);
      if (g_getenv ("BENCH_GUI_TRACE") != NULL && now - m->last > 30000)
        g_printerr ("stall of %.1f ms (%.1f ms of CPU) ending at +%.1f ms\n",
                    (now - m->last) / 1000.0, (cpu - m->last_cpu) / 1000.0,
                    (now - launched) / 1000.0);
    }
  m->last = now;
  m->last_cpu = cpu;
  return G_SOURCE_CONTINUE;
}

/* The first figure of /proc/loadavg: how busy the machine was. */
static const char *
load_average (void)
{
  static char text[32];
  g_autofree char *contents = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &contents, NULL, NULL))
    return "unknown";
  g_strlcpy (text, contents, MIN (sizeof text, strcspn (contents, " ") + 1));
  return text;
}

static gboolean
connection_ready (gpointer data)
{
  DyWindow *window = data;
  DyConnection *c = dy_window_find_connection (window, DY_CONNECTION_DATABASE, db_path);

  return c != NULL && dy_connection_get_loaded (c) && !dy_connection_get_loading (c);
}

static gboolean
view_ready (gpointer data)
{
  return dy_table_view_get_ready (data);
}

static gboolean
view_idle (gpointer data)
{
  return !dy_table_view_get_running (data);
}

typedef struct {
  DyTableView *view;
  gboolean painted;
} PaintWatch;

static void
after_paint (GdkFrameClock *clock, PaintWatch *watch)
{
  if (g_list_model_get_n_items (dy_table_view_get_items (watch->view)) > 0)
    watch->painted = TRUE;
}

static gboolean
painted (gpointer data)
{
  return ((PaintWatch *) data)->painted;
}

static GtkScrolledWindow *
grid_scroller (DyTableView *view)
{
  GtkWidget *grid = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (view),
                                                               DY_TYPE_TABLE_VIEW, "column_view"));

  return GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (grid, GTK_TYPE_SCROLLED_WINDOW));
}

static void
report (const char *what, double value, const char *unit, double goal)
{
  printf ("%-44s %10.1f %-3s (goal <= %.0f %s: %s)\n", what, value, unit, goal, unit,
          value <= goal ? "met" : "NOT met");
  fflush (stdout);
}

/* A figure whose goal is a floor. */
static void
report_at_least (const char *what, double value, const char *unit, double goal)
{
  printf ("%-44s %10.1f %-3s (goal >= %.0f %s: %s)\n", what, value, unit, goal, unit,
          value >= goal ? "met" : "NOT met");
  fflush (stdout);
}

/* The peak RSS (VmHWM) starts again from the current RSS (Linux >= 4.0). */
static void
reset_peak_rss (void)
{
  FILE *f = fopen ("/proc/self/clear_refs", "w");

  if (f == NULL || fputs ("5", f) < 0 || fclose (f) != 0)
    fprintf (stderr, "bench-gui: the peak RSS could not be reset\n");
}

static void
count_item (DdbValue *item, gpointer user_data)
{
  ++*(guint64 *) user_data;
  ddb_value_free (item);
}

/* The engine's own read rate of the database: a full Scan of "bench" in 1 MB pages through
 * ddb_engine_read (the items as values, no JSON: the fastest way the engine hands items out),
 * in items/s. Run before the app, in the same process and run. */
static double
engine_scan_rate (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbEngine) engine = ddb_engine_open (db_path, &error);
  json_t *start_key = NULL;
  guint64 n = 0;
  gint64 t0 = g_get_monotonic_time ();
  double seconds;

  g_assert_no_error (error);
  do
    {
      json_t *request = json_pack ("{ss}", "TableName", "bench");
      json_t *response = NULL;

      if (start_key != NULL)
        json_object_set_new (request, "ExclusiveStartKey", start_key);
      if (!ddb_engine_read (engine, "Scan", request, count_item, &n, &response, &error))
        {
          fprintf (stderr, "bench-gui: engine Scan: %s\n", error->message);
          exit (1);
        }
      start_key = json_incref (json_object_get (response, "LastEvaluatedKey"));
      json_decref (request);
      json_decref (response);
    }
  while (start_key != NULL);
  seconds = (g_get_monotonic_time () - t0) / 1e6;
  printf ("engine Scan of the same database: %" G_GUINT64_FORMAT " items in %.2f s, %.0f items/s "
          "(load average %s)\n",
          n, seconds, n / seconds, load_average ());
  return n / seconds;
}

static void bench_selection (DyTableView *view);
static void bench_remote (DyWindow *window);

static GtkWidget *
view_child (DyTableView *view, const char *name)
{
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (view), DY_TYPE_TABLE_VIEW, name));
}

/* Done: no sort or grouping at work, and Find's count says how many rows it kept (or is empty,
 * Find cleared). */
static gboolean
arranged (gpointer data)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (view_child (data, "find_entry")));
  const char *count = gtk_label_get_text (GTK_LABEL (view_child (data, "find_label")));

  return !dy_table_view_get_arranging (data)
         && (*text == '\0' ? *count == '\0' : strstr (count, " of ") != NULL);
}

/* Runs START (sorting, grouping) on the loaded rows and reports the time until the grid shows
 * the new order and the longest stall meanwhile. */
static void
bench_arrange (DyTableView *view, const char *what, void (*start) (DyTableView *view))
{
  Monitor monitor = { 0 };
  guint monitor_id;
  gint64 t0;
  g_autofree char *stall = g_strdup_printf ("longest main-loop stall while %s", what);
  g_autofree char *took = g_strdup_printf (
      "%s %u rows", what, g_list_model_get_n_items (dy_table_view_get_items (view)));

  monitor_id = g_timeout_add_full (G_PRIORITY_HIGH, TICK_MS, tick, &monitor, NULL);
  settle (300);
  t0 = g_get_monotonic_time ();
  start (view);
  wait_for (arranged, view, what, 600);
  report (took, (g_get_monotonic_time () - t0) / 1000.0, "ms", GOAL_ARRANGE_MS);
  settle (100);
  g_source_remove (monitor_id);
  report (stall, monitor.worst / 1000.0, "ms", GOAL_STALL_MS);
  printf ("RSS then: %.1f MB (anonymous %.1f MB)\n", rss_kb ("VmRSS:") / 1024.0,
          rss_kb ("RssAnon:") / 1024.0);
}

static GtkColumnViewColumn *
grid_column (DyTableView *view, const char *title)
{
  GtkColumnView *grid = GTK_COLUMN_VIEW (
      gtk_widget_get_template_child (GTK_WIDGET (view), DY_TYPE_TABLE_VIEW, "column_view"));
  GListModel *columns = gtk_column_view_get_columns (grid);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        return column;
    }
  fprintf (stderr, "bench-gui: no column %s\n", title);
  exit (1);
}

static void
sort_by_budget (DyTableView *view)
{
  GtkColumnView *grid = GTK_COLUMN_VIEW (
      gtk_widget_get_template_child (GTK_WIDGET (view), DY_TYPE_TABLE_VIEW, "column_view"));

  gtk_column_view_sort_by_column (grid, grid_column (view, "budget"), GTK_SORT_ASCENDING);
}

static void
unsort (DyTableView *view)
{
  GtkColumnView *grid = GTK_COLUMN_VIEW (
      gtk_widget_get_template_child (GTK_WIDGET (view), DY_TYPE_TABLE_VIEW, "column_view"));

  gtk_column_view_sort_by_column (grid, NULL, GTK_SORT_ASCENDING);
}

/* Find in Loaded Rows: TEXT typed into its bar, reported at once (not after the entry's
 * typing pause). */
static void
find_text (DyTableView *view, const char *text)
{
  GtkWidget *entry = view_child (view, "find_entry");

  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  g_signal_emit_by_name (entry, "search-changed");
}

/* A word of 1% of the rows' names (and of a few of them only). */
static void
find_word (DyTableView *view)
{
  find_text (view, "tenant 12");
}

static void
find_number (DyTableView *view)
{
  find_text (view, "4242");
}

static void
find_cleared (DyTableView *view)
{
  find_text (view, "");
}

static void
group (DyTableView *view)
{
  GtkWidget *window = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (view)));

  g_assert_true (gtk_widget_activate_action (window, "win.group", NULL));
}

/* Run from the start, then Load All to the end, with MONITOR watching the main loop and the
 * peak RSS reset first; the seconds both took. */
static double
run_and_load_all (DyWindow *window, DyTableView *view, Monitor *monitor, const char *what)
{
  guint monitor_id;
  gint64 t0;
  double seconds;

  reset_peak_rss ();
  monitor_id = g_timeout_add_full (G_PRIORITY_HIGH, TICK_MS, tick, monitor, NULL);
  settle (300);
  t0 = g_get_monotonic_time ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  wait_for (view_idle, view, "the first page of the scan", 120);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.load-all", NULL));
  wait_for (view_idle, view, what, 3600);
  seconds = (g_get_monotonic_time () - t0) / 1e6;
  settle (300);
  g_source_remove (monitor_id);
  return seconds;
}

static void
run_bench (GApplication *application)
{
  DyWindow *window = DY_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (application)));
  DyConnection *connection;
  DyTableView *view;
  GListModel *items;
  PaintWatch watch = { 0 };
  GdkFrameClock *clock;
  gulong handler;
  gint64 first_rows, listed, described;
  GtkAdjustment *adjustment;
  Monitor monitor = { 0 };
  double seconds;
  guint n;

  wait_for (connection_ready, window, "the table list", 120);
  if (g_getenv ("BENCH_GUI_REMOTE") != NULL)
    {
      bench_remote (window);
      status = 0;
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  listed = g_get_monotonic_time ();
  connection = dy_window_find_connection (window, DY_CONNECTION_DATABASE, db_path);
  view = dy_window_open_table (window, connection, "bench");
  items = dy_table_view_get_items (view);
  wait_for (view_ready, view, "DescribeTable", 120);
  described = g_get_monotonic_time ();
  watch.view = view;
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint), &watch);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  wait_for (painted, &watch, "the first rows drawn", 120);
  first_rows = g_get_monotonic_time ();
  g_signal_handler_disconnect (clock, handler);
  printf ("first page: %u items; tables listed at %.1f ms, table described at %.1f ms, "
          "RSS %.1f MB (anonymous %.1f, files %.1f)\n", g_list_model_get_n_items (items),
          (listed - launched) / 1000.0, (described - launched) / 1000.0,
          rss_kb ("VmRSS:") / 1024.0, rss_kb ("RssAnon:") / 1024.0, rss_kb ("RssFile:") / 1024.0);
  printf ("main thread CPU time until then: %.1f ms (load average %s)\n",
          thread_cpu_time () / 1000.0, load_average ());
  report ("launch to first rows drawn", (first_rows - launched) / 1000.0, "ms",
          GOAL_FIRST_ROWS_MS);
  if (first_rows_only)
    {
      status = 0;
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }

  /* Load All of the whole table: Run from the start, then Load All. */
  wait_for (view_idle, view, "the first page", 120);
  seconds = run_and_load_all (window, view, &monitor, "the full-table scan");
  n = g_list_model_get_n_items (items);
  printf ("Load All: %u items in %.1f s, %.0f items/s; RSS then %.1f MB\n", n, seconds, n / seconds,
          rss_kb ("VmRSS:") / 1024.0);
  report_at_least ("Load All's rate, % of the engine's", 100.0 * n / seconds / engine_rate, "%",
                   GOAL_LOAD_PERCENT);
  report ("peak RSS during Load All", rss_kb ("VmHWM:") / 1024.0, "MB", GOAL_RSS_MB);
  printf ("most main-thread CPU time between two ticks: %.1f ms (load average %s)\n",
          monitor.worst_cpu / 1000.0, load_average ());
  report ("longest main-loop stall during Load All", monitor.worst / 1000.0, "ms", GOAL_STALL_MS);

  /* Arranging the loaded rows. */
  bench_arrange (view, "sorting by a number column", sort_by_budget);
  bench_arrange (view, "back to the order loaded", unsort);
  bench_arrange (view, "grouping into item collections", group);
  bench_arrange (view, "ungrouping", group);
  bench_arrange (view, "finding a word in the loaded rows", find_word);
  bench_arrange (view, "finding a number in the loaded rows", find_number);
  bench_arrange (view, "clearing the find", find_cleared);

  /* Scrolled to the end of the rows. */
  adjustment = gtk_scrolled_window_get_vadjustment (grid_scroller (view));
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  settle (500);
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  settle (500);
  printf ("rows loaded: %u (scrolled to %.0f of %.0f px)\n", g_list_model_get_n_items (items),
          gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment),
          gtk_adjustment_get_upper (adjustment));
  printf ("RSS now: anonymous %.1f MB (SQLite's caches %.1f MB), files %.1f MB, shared memory "
          "%.1f MB\n", rss_kb ("RssAnon:") / 1024.0, sqlite3_memory_used () / 1048576.0,
          rss_kb ("RssFile:") / 1024.0, rss_kb ("RssShmem:") / 1024.0);
  report ("RSS after scrolling to the end", rss_kb ("VmRSS:") / 1024.0, "MB", GOAL_RSS_MB);
  if (g_getenv ("BENCH_GUI_SCREENSHOT") != NULL)
    {
      const char *argv[] = { "import", "-window", "root", g_getenv ("BENCH_GUI_SCREENSHOT"), NULL };

      if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
                         NULL, NULL, NULL))
        fprintf (stderr, "bench-gui: no screenshot (is ImageMagick installed?)\n");
    }

  if (g_getenv ("BENCH_GUI_SKIP_SELECTION") == NULL)
    bench_selection (view);
  status = 0;
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- A remote table (BENCH_GUI_REMOTE) ---- */

static char *self_path; /* argv[0] */

/* `dynoscope-cli serve` on the database, on a free loopback port; its URL. */
static char *
start_serve (GSubprocess **server)
{
  g_autofree char *exe_dir = g_path_get_dirname (self_path);
  g_autofree char *built = g_build_filename (exe_dir, "..", "src", "cli", "dynoscope-cli", NULL);
  const char *cli = g_getenv ("BENCH_GUI_CLI") != NULL ? g_getenv ("BENCH_GUI_CLI") : built;
  g_autoptr (GError) error = NULL;
  g_autoptr (GDataInputStream) out = NULL;
  g_autofree char *line = NULL;

  *server = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, cli, "--db", db_path, "serve",
                              "--port", "0", NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (*server));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (line != NULL && g_str_has_prefix (line, "Listening on "));
  return g_strdup (line + strlen ("Listening on "));
}

typedef struct {
  DdbBackend *backend;
  guint segment;
  guint segments;
  guint64 items;
} PlainSegment;

static gpointer
plain_segment (gpointer data)
{
  PlainSegment *job = data;
  json_t *start_key = NULL;

  do
    {
      json_t *request = json_pack ("{ss}", "TableName", "bench");
      json_t *response = NULL;
      g_autoptr (GError) error = NULL;

      if (job->segments > 1)
        {
          json_object_set_new (request, "Segment", json_integer (job->segment));
          json_object_set_new (request, "TotalSegments", json_integer (job->segments));
        }
      if (start_key != NULL)
        json_object_set_new (request, "ExclusiveStartKey", start_key);
      if (!ddb_backend_read (job->backend, "Scan", request, count_item, &job->items, NULL,
                             &response, &error))
        g_error ("bench-gui: the plain client's Scan failed: %s", error->message);
      start_key = json_object_get (response, "LastEvaluatedKey");
      if (start_key != NULL)
        json_incref (start_key);
      json_decref (request);
      json_decref (response);
    }
  while (start_key != NULL);
  return NULL;
}

/* A plain client's Scan of the served table in SEGMENTS threads (the items read into values,
 * as the app's reader reads them, and counted), in items/s. */
static double
plain_scan_rate (const char *url, guint segments)
{
  const char *const envp[] = { "AWS_ACCESS_KEY_ID=bench", "AWS_SECRET_ACCESS_KEY=bench", NULL };
  DdbClientOptions options = { .region = "us-east-1", .endpoint_url = url, .envp = envp };
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = ddb_backend_open_remote (&options, &error);
  g_autofree PlainSegment *jobs = g_new0 (PlainSegment, segments);
  g_autofree GThread **threads = g_new0 (GThread *, segments);
  gint64 t0 = g_get_monotonic_time ();
  guint64 n = 0;
  double seconds;

  g_assert_no_error (error);
  for (guint i = 0; i < segments; i++)
    {
      jobs[i] = (PlainSegment){ backend, i, segments, 0 };
      threads[i] = g_thread_new ("plain-scan", plain_segment, &jobs[i]);
    }
  for (guint i = 0; i < segments; i++)
    {
      g_thread_join (threads[i]);
      n += jobs[i].items;
    }
  seconds = (g_get_monotonic_time () - t0) / 1e6;
  printf ("plain client's Scan of serve, %u segment%s: %" G_GUINT64_FORMAT " items in %.2f s, "
          "%.0f items/s (load average %s)\n",
          segments, segments == 1 ? "" : "s", n, seconds, n / seconds, load_average ());
  return n / seconds;
}

typedef struct {
  DyWindow *window;
  const char *url;
} EndpointWait;

static gboolean
endpoint_ready (gpointer data)
{
  EndpointWait *wait = data;
  DyConnection *c = dy_window_find_connection (wait->window, DY_CONNECTION_ENDPOINT, wait->url);

  return c != NULL && dy_connection_get_loaded (c) && !dy_connection_get_loading (c);
}

static void
bench_remote (DyWindow *window)
{
  const char *wanted = g_getenv ("BENCH_GUI_SEGMENTS");
  guint segments = wanted != NULL ? (guint) CLAMP (strtoul (wanted, NULL, 10), 1, 16) : 4;
  GSubprocess *server = NULL;
  g_autofree char *url = start_serve (&server);
  g_autoptr (GError) error = NULL;
  EndpointWait wait = { window, url };
  DyConnection *connection;
  DyTableView *view;
  GListModel *items;
  Monitor monitor = { 0 };
  double plain_rate, seconds;
  guint n;

  plain_rate = plain_scan_rate (url, segments);
  if (segments > 1)
    plain_scan_rate (url, 1);
  /* What the plain client's threads freed is not the app's. */
  malloc_trim (0);
  printf ("RSS before the remote Load All: %.1f MB\n", rss_kb ("VmRSS:") / 1024.0);
  g_settings_set_int (dy_window_get_settings (window), "scan-segments", (int) segments);
  connection = dy_window_add_endpoint (window, url, "us-east-1", FALSE, &error);
  g_assert_no_error (error);
  dy_window_expand_connection (window, connection);
  wait_for (endpoint_ready, &wait, "the endpoint's tables", 120);
  view = dy_window_open_table (window, connection, "bench");
  items = dy_table_view_get_items (view);
  wait_for (view_ready, view, "DescribeTable", 120);
  seconds = run_and_load_all (window, view, &monitor, "the remote table's Load All");
  n = g_list_model_get_n_items (items);
  printf ("remote Load All, %u segments: %u items in %.1f s, %.0f items/s; RSS then %.1f MB "
          "(load average %s)\n",
          segments, n, seconds, n / seconds, rss_kb ("VmRSS:") / 1024.0, load_average ());
  report_at_least ("remote Load All's rate, % of the plain client's",
                   100.0 * n / seconds / plain_rate, "%", GOAL_REMOTE_PERCENT);
  report ("peak RSS during the remote Load All", rss_kb ("VmHWM:") / 1024.0, "MB", GOAL_RSS_MB);
  printf ("most main-thread CPU time between two ticks: %.1f ms\n", monitor.worst_cpu / 1000.0);
  report ("longest main-loop stall during the remote Load All", monitor.worst / 1000.0, "ms",
          GOAL_STALL_MS);
  g_subprocess_send_signal (server, SIGTERM);
  g_subprocess_wait (server, NULL, NULL);
  g_object_unref (server);
}

static gboolean
bulk_idle (gpointer data)
{
  GObject *spinner = gtk_widget_get_template_child (data, DY_TYPE_TABLE_VIEW, "selection_spinner");

  return !gtk_spinner_get_spinning (GTK_SPINNER (spinner));
}

/* Many rows at once: N_SELECTED rows staged for delete, then every row copied. */
static void
bench_selection (DyTableView *view)
{
  GtkSelectionModel *rows = dy_table_view_get_rows (view);
  guint n = MIN (N_SELECTED, g_list_model_get_n_items (G_LIST_MODEL (rows)));
  Monitor monitor = { 0 };
  guint monitor_id;
  gint64 start;
  g_autoptr (GPtrArray) staged = NULL;
  g_autofree char *what = NULL;

  dy_staging_prepare (dy_staging_get_default (), dy_table_view_get_connection (view));
  settle (300);
  monitor_id = g_timeout_add_full (G_PRIORITY_HIGH, TICK_MS, tick, &monitor, NULL);
  start = g_get_monotonic_time ();
  gtk_selection_model_select_range (rows, 0, n, TRUE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.delete-selected", NULL));
  settle (20);
  wait_for (bulk_idle, view, "the staged deletes", 600);
  what = g_strdup_printf ("%u selected rows staged for delete", n);
  report (what, (g_get_monotonic_time () - start) / 1000.0, "ms", GOAL_STAGE_MS);
  report ("longest main-loop stall meanwhile", monitor.worst / 1000.0, "ms", GOAL_STALL_MS);
  staged = dy_staging_list (dy_staging_get_default (), dy_table_view_get_connection (view),
                            "bench", NULL);
  printf ("changes staged: %u\n", staged != NULL ? staged->len : 0);

  monitor.worst = 0;
  start = g_get_monotonic_time ();
  gtk_selection_model_select_all (rows);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "view.copy-selected", "s", "jsonl"));
  settle (20);
  wait_for (bulk_idle, view, "the copy", 3600);
  printf ("every row (%u) copied as DynamoDB JSON: %.1f ms\n",
          g_list_model_get_n_items (G_LIST_MODEL (rows)), (g_get_monotonic_time () - start) / 1000.0);
  report ("longest main-loop stall meanwhile", monitor.worst / 1000.0, "ms", GOAL_STALL_MS);
  g_source_remove (monitor_id);
}

static void
opened (GApplication *application, GFile **files, int n_files, const char *hint)
{
  run_bench (application);
}

static char *
make_database (const char *self, guint n, char **dir)
{
  g_autofree char *exe_dir = g_path_get_dirname (self);
  g_autofree char *generator = g_build_filename (exe_dir, "bench-engine", NULL);
  g_autofree char *input = NULL;
  g_autofree char *count = g_strdup_printf ("%u", n);
  char *db;
  const char *argv[] = { generator, "--input", count, NULL, NULL };
  GError *error = NULL;
  int wait_status;
  DdbEngine *engine;
  DdbImportOptions opts = { .table_name = "bench", .key = "PK:S,SK:S" };
  DdbSnapshotProgress progress;

  *dir = g_dir_make_tmp ("bench-gui-XXXXXX", &error);
  g_assert_no_error (error);
  input = g_build_filename (*dir, "items.jsonl", NULL);
  db = g_build_filename (*dir, "bench.db", NULL);
  argv[3] = input;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL,
                     &wait_status, &error)
      || !g_spawn_check_wait_status (wait_status, &error))
    {
      fprintf (stderr, "bench-gui: %s: %s\n", generator, error->message);
      exit (1);
    }
  engine = ddb_engine_open (db, &error);
  g_assert_no_error (error);
  if (!ddb_snapshot_import (engine, input, &opts, &progress, &error))
    {
      fprintf (stderr, "bench-gui: import failed: %s\n", error->message);
      exit (1);
    }
  printf ("database: %u items imported in %.1f s\n", n, progress.seconds);
  ddb_engine_free (engine);
  g_unlink (input);
  return db;
}

/* Removes DIR and everything in it (the temporary database, the app's cache and data). */
static void
remove_tree (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        remove_tree (path);
      else
        g_unlink (path);
    }
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  guint n = argc > 1 ? (guint) strtoul (argv[1], NULL, 10) : 1000000;
  g_autofree char *dir = NULL;
  g_autofree char *cache = g_dir_make_tmp ("bench-gui-cache-XXXXXX", NULL);
  const char *reuse = g_getenv ("BENCH_GUI_DB");
  char *app_argv[3];
  DyApplication *app;

  ddb_malloc_init ();
  self_path = argv[0];
  dy_application_prepare_environment ();
  if (reuse != NULL && g_file_test (reuse, G_FILE_TEST_IS_REGULAR))
    db_path = g_canonicalize_filename (reuse, NULL);
  else
    db_path = make_database (argv[0], n, &dir);
  /* The app as a user starts it on this database, without the demo, settings in memory. */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("XDG_DATA_HOME", cache, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("DYNOSCOPE_NO_DEMO", "1", TRUE);

  first_rows_only = g_getenv ("BENCH_GUI_FIRST_ROWS_ONLY") != NULL;
  if (!first_rows_only && g_getenv ("BENCH_GUI_REMOTE") == NULL)
    engine_rate = engine_scan_rate ();
  launched = g_get_monotonic_time ();
  status = 1;
  app = dy_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  g_signal_connect_after (app, "open", G_CALLBACK (opened), NULL);
  app_argv[0] = argv[0];
  app_argv[1] = db_path;
  app_argv[2] = NULL;
  g_application_run (G_APPLICATION (app), 2, app_argv);
  g_object_unref (app);

  if (dir != NULL && g_getenv ("BENCH_GUI_KEEP") == NULL)
    remove_tree (dir);
  else if (dir != NULL)
    printf ("database kept: %s\n", db_path);
  remove_tree (cache);
  g_free (db_path);
  return status;
}
