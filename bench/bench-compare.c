/* bench-compare.c: the two-way compare (src/compare/compare.h) of two engine databases of an
 * Orders table of ITEMS items each, 1% of the keys different: half of them changed (a nested
 * map path and a number), a quarter only here, a quarter only there. Prints the seconds, the
 * items a second (both sides read) and the peak RSS (VmHWM) of the compare.
 *
 * The databases are built once (in a child process, so that the figures do not carry the
 * build's memory) and kept in the cache folder (--dir, default the build's bench folder),
 * named by their size.
 *
 * Two modes: "engine" reads both databases in process; "serve" reads the other side over HTTP
 * from `dynoscope-cli --db THERE serve --port 0 --auth KEY:SECRET` (started here, on loopback,
 * stopped at the end) through a remote backend signing with that key, as a client of a live
 * table would; its line also gives the server's own peak RSS.
 *
 * Usage: bench-compare [--items N (1000000)] [--dir DIR] [--segments N] [--mode engine|serve|both]
 *                      [--cli PATH (the build's dynoscope-cli)]
 * BENCH_COMPARE_ITEMS in the environment sets the default of --items. */
#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench-util.h"
#include "backend/backend.h"
#include "compare/compare.h"
#include "engine/engine.h"
#include "engine/snapshot.h"

#ifndef BENCH_CACHE_DIR
#define BENCH_CACHE_DIR "."
#endif
#ifndef BENCH_CLI
#define BENCH_CLI "dynoscope-cli"
#endif

/* The key serve checks signatures with, and the client signs with: made up, for this run. */
#define BENCH_KEY_ID "AKIABENCHCOMPARE0000"
#define BENCH_SECRET "bench/compare/secret/not/a/real/one"

#define FORMAT_VERSION 1

/* Key I's item on side THERE (0 or 1); FALSE when the side has no such key. Of every 100 keys,
 * key 0 is changed there, key 1 is only here (when i%200 == 1) or only there (i%200 == 101). */
static gboolean
write_item (FILE *f, guint i, gboolean there)
{
  gboolean changed = there && i % 100 == 0;

  if (i % 200 == 1 && there)
    return FALSE;
  if (i % 200 == 101 && !there)
    return FALSE;
  fprintf (f,
           "{\"pk\":{\"S\":\"TENANT#%05u\"},\"sk\":{\"S\":\"ORDER#%09u\"},"
           "\"qty\":{\"N\":\"%u\"},\"total\":{\"N\":\"%u.%02u\"},\"status\":{\"S\":\"shipped\"},"
           "\"ship\":{\"M\":{\"city\":{\"S\":\"%s\"},\"zip\":{\"S\":\"750%02u\"}}},"
           "\"tags\":{\"SS\":[\"a\",\"b\"]}}\n",
           i % 20000, i, 1 + i % 5 + (changed ? 1 : 0), 10 + i % 300, i % 100,
           changed ? "Lyon" : "Paris", i % 20);
  return TRUE;
}

typedef struct {
  guint items;
  gboolean there;
} Side;

static void
write_side (FILE *f, gpointer data)
{
  const Side *side = data;

  for (guint i = 0; i < side->items; i++)
    write_item (f, i, side->there);
}

static void
build_db (const char *path, const char *dir, guint items, gboolean there)
{
  DdbImportOptions opts = { .table_name = "Orders", .key = "pk:S,sk:S" };
  Side side = { items, there };
  gint64 t0 = g_get_monotonic_time ();

  bench_build_engine_db ("bench-compare", path, dir, &opts, write_side, &side, NULL);
  printf ("built %s: %.1f s\n", path, (double) (g_get_monotonic_time () - t0) / 1e6);
}

/* `CLI --db PATH serve --port 0 --auth KEY:SECRET`, started; its URL in *URL once it listens. */
static GPid
serve_start (const char *cli, const char *path, char **url)
{
  g_autofree char *auth = g_strdup_printf ("%s:%s", BENCH_KEY_ID, BENCH_SECRET);
  const char *argv[] = { cli, "--db", path, "serve", "--port", "0", "--auth", auth, NULL };
  g_autoptr (GError) error = NULL;
  GString *line = g_string_new (NULL);
  GPid pid = 0;
  int out = -1;
  char c;

  if (!g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                 NULL, &pid, NULL, &out, NULL, &error))
    bench_die ("bench-compare", cli, error);
  /* "Listening on http://127.0.0.1:PORT" once the socket is bound. */
  while (read (out, &c, 1) == 1 && c != '\n')
    g_string_append_c (line, c);
  close (out);
  if (!g_str_has_prefix (line->str, "Listening on "))
    {
      fprintf (stderr, "bench-compare: serve did not start (it printed \"%s\")\n", line->str);
      kill (pid, SIGTERM);
      exit (1);
    }
  *url = g_strdup (line->str + strlen ("Listening on "));
  g_string_free (line, TRUE);
  return pid;
}

/* The peak RSS of process PID (VmHWM), in MB; 0 if unknown. */
static double
process_peak_rss_mb (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", (int) pid);
  g_autofree char *status = NULL;
  const char *hwm;

  if (g_file_get_contents (path, &status, NULL, NULL) && (hwm = strstr (status, "VmHWM:")) != NULL)
    return g_ascii_strtod (hwm + 6, NULL) / 1024.0;
  return 0;
}

static void
serve_stop (GPid pid)
{
  int status;

  kill (pid, SIGTERM);
  waitpid (pid, &status, 0);
  g_spawn_close_pid (pid);
}

/* A remote backend to URL signing with the bench key, with no AWS configuration of the user's. */
static DdbBackend *
open_serve_backend (const char *url)
{
  const char *const envp[] = {
    "AWS_ACCESS_KEY_ID=" BENCH_KEY_ID,
    "AWS_SECRET_ACCESS_KEY=" BENCH_SECRET,
    "AWS_CONFIG_FILE=/dev/null",
    "AWS_SHARED_CREDENTIALS_FILE=/dev/null",
    NULL,
  };
  DdbClientOptions options = { .region = "us-east-1", .endpoint_url = url, .envp = envp };
  g_autoptr (GError) error = NULL;
  DdbBackend *backend = ddb_backend_open_remote (&options, &error);

  if (backend == NULL)
    bench_die ("bench-compare", url, error);
  return backend;
}

/* Compares the two sides and prints the figures (with SERVER, that process's peak RSS too). */
static void
run_compare (const char *mode, gint items, DdbBackend *here, DdbBackend *there, guint segments,
             GPid server)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbCompareResult) result = NULL;
  DdbCompareOptions options = { 0 };
  const DdbCompareCounts *c;
  gint64 t0;
  double seconds;

  options.here.backend = here;
  options.here.table = "Orders";
  options.there.backend = there;
  options.there.table = "Orders";
  options.segments = segments;
  bench_reset_peak_rss ();
  t0 = g_get_monotonic_time ();
  result = ddb_compare_run (&options, NULL, NULL, NULL, &error);
  seconds = (double) (g_get_monotonic_time () - t0) / 1e6;
  if (result == NULL)
    bench_die ("bench-compare", "compare", error);
  c = ddb_compare_result_counts (result);
  printf ("compare %d keys (%s): same=%" G_GUINT64_FORMAT " changed=%" G_GUINT64_FORMAT
          " only_here=%" G_GUINT64_FORMAT " only_there=%" G_GUINT64_FORMAT
          ": %.2f s (%.0f items/s read), peak RSS %.1f MB",
          items, mode, c->same, c->changed, c->only_here, c->only_there, seconds,
          (double) (c->items_here + c->items_there) / seconds, bench_peak_rss_mb ());
  if (server != 0)
    printf (" (serve: peak RSS %.1f MB)", process_peak_rss_mb (server));
  printf ("\n");
  fflush (stdout);
  /* The counts are known (see write_item): a wrong result is no figure. */
  if (c->changed != (guint64) (items + 99) / 100)
    {
      fprintf (stderr, "bench-compare: expected %d changed items\n", (items + 99) / 100);
      exit (1);
    }
}

int
main (int argc, char **argv)
{
  const char *items_env = g_getenv ("BENCH_COMPARE_ITEMS");
  gint items = items_env != NULL ? atoi (items_env) : 1000000, segments = 0;
  g_autofree char *dir = NULL, *here_path = NULL, *there_path = NULL, *name = NULL;
  g_autofree char *mode = NULL, *cli = NULL;
  g_autoptr (GOptionContext) octx = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) here = NULL;
  g_autoptr (DdbBackend) there = NULL;
  GOptionEntry entries[] = {
    { "items", 0, 0, G_OPTION_ARG_INT, &items, "Keys in the table", "N" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "The cache folder", "DIR" },
    { "segments", 0, 0, G_OPTION_ARG_INT, &segments, "Segments of each Scan", "N" },
    { "mode", 0, 0, G_OPTION_ARG_STRING, &mode,
      "engine (both databases in process), serve (the other through serve) or both", "MODE" },
    { "cli", 0, 0, G_OPTION_ARG_FILENAME, &cli, "The dynoscope-cli that serves", "PATH" },
    { NULL },
  };

  g_option_context_add_main_entries (octx, entries, NULL);
  if (!g_option_context_parse (octx, &argc, &argv, &error) || items < 1 || segments < 0
      || (mode != NULL && strcmp (mode, "engine") != 0 && strcmp (mode, "serve") != 0
          && strcmp (mode, "both") != 0))
    {
      fprintf (stderr, "bench-compare: %s\n", error != NULL ? error->message : "bad arguments");
      return 2;
    }
  if (dir == NULL)
    dir = g_strdup (BENCH_CACHE_DIR);
  name = g_strdup_printf ("bench-compare-v%d-%d-here.db", FORMAT_VERSION, items);
  here_path = g_build_filename (dir, name, NULL);
  g_free (name);
  name = g_strdup_printf ("bench-compare-v%d-%d-there.db", FORMAT_VERSION, items);
  there_path = g_build_filename (dir, name, NULL);
  for (int side = 0; side < 2; side++)
    {
      const char *path = side == 0 ? here_path : there_path;
      pid_t pid;
      int status;

      if (g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      fflush (stdout);
      pid = fork ();
      if (pid == 0)
        {
          build_db (path, dir, (guint) items, side == 1);
          fflush (stdout);
          _exit (0);
        }
      if (pid < 0 || waitpid (pid, &status, 0) < 0 || !WIFEXITED (status)
          || WEXITSTATUS (status) != 0)
        {
          fprintf (stderr, "bench-compare: building %s failed\n", path);
          return 1;
        }
    }
  here = ddb_backend_open_database (here_path, &error);
  if (here == NULL)
    bench_die ("bench-compare", here_path, error);
  if (mode == NULL || strcmp (mode, "serve") != 0)
    {
      there = ddb_backend_open_database (there_path, &error);
      if (there == NULL)
        bench_die ("bench-compare", there_path, error);
      run_compare ("engine vs engine", items, here, there, (guint) segments, 0);
      g_clear_pointer (&there, ddb_backend_free);
    }
  if (mode == NULL || strcmp (mode, "engine") != 0)
    {
      g_autofree char *url = NULL;
      GPid server = serve_start (cli != NULL ? cli : BENCH_CLI, there_path, &url);

      there = open_serve_backend (url);
      run_compare ("engine vs serve", items, here, there, (guint) segments, server);
      g_clear_pointer (&there, ddb_backend_free);
      serve_stop (server);
    }
  return 0;
}
