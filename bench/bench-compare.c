/* bench-compare.c: the two-way compare (src/compare/compare.h) of two engine databases of an
 * Orders table of ITEMS items each, 1% of the keys different: half of them changed (a nested
 * map path and a number), a quarter only here, a quarter only there. Prints the seconds, the
 * items a second (both sides read) and the peak RSS (VmHWM) of the compare.
 *
 * The databases are built once (in a child process, so that the figures do not carry the
 * build's memory) and kept in the cache folder (--dir, default the build's bench folder),
 * named by their size.
 *
 * Usage: bench-compare [--items N (1000000)] [--dir DIR] [--segments N] */
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/backend.h"
#include "compare/compare.h"
#include "engine/engine.h"
#include "engine/snapshot.h"

#ifndef BENCH_CACHE_DIR
#define BENCH_CACHE_DIR "."
#endif

#define FORMAT_VERSION 1

static void
die (const char *what, const GError *error)
{
  fprintf (stderr, "bench-compare: %s: %s\n", what, error != NULL ? error->message : "failed");
  exit (1);
}

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

static void
build_db (const char *path, const char *dir, guint items, gboolean there)
{
  g_autofree char *input = g_build_filename (dir, "compare-input.jsonl", NULL);
  g_autofree char *tmp = g_strconcat (path, ".tmp", NULL);
  DdbImportOptions opts = { .table_name = "Orders", .key = "pk:S,sk:S" };
  DdbSnapshotProgress progress;
  GError *error = NULL;
  DdbEngine *engine;
  FILE *f;
  gint64 t0 = g_get_monotonic_time ();

  f = fopen (input, "w");
  if (f == NULL)
    {
      fprintf (stderr, "bench-compare: %s: %s\n", input, g_strerror (errno));
      exit (1);
    }
  for (guint i = 0; i < items; i++)
    write_item (f, i, there);
  if (fclose (f) != 0)
    {
      fprintf (stderr, "bench-compare: %s: %s\n", input, g_strerror (errno));
      exit (1);
    }
  ddb_engine_remove_files (tmp);
  engine = ddb_engine_open (tmp, &error);
  if (engine == NULL)
    die (tmp, error);
  if (!ddb_snapshot_import (engine, input, &opts, &progress, &error))
    die ("import", error);
  ddb_engine_free (engine);
  g_unlink (input);
  if (g_rename (tmp, path) != 0)
    {
      fprintf (stderr, "bench-compare: %s: %s\n", path, g_strerror (errno));
      exit (1);
    }
  ddb_engine_remove_files (tmp);
  printf ("built %s: %.1f s\n", path, (double) (g_get_monotonic_time () - t0) / 1e6);
}

static double
peak_rss_mb (void)
{
  g_autofree char *status = NULL;
  const char *hwm;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL)
      && (hwm = strstr (status, "VmHWM:")) != NULL)
    return g_ascii_strtod (hwm + 6, NULL) / 1024.0;
  return 0;
}

int
main (int argc, char **argv)
{
  gint items = 1000000, segments = 0;
  g_autofree char *dir = NULL, *here_path = NULL, *there_path = NULL, *name = NULL;
  g_autoptr (GOptionContext) octx = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) here = NULL;
  g_autoptr (DdbBackend) there = NULL;
  g_autoptr (DdbCompareResult) result = NULL;
  DdbCompareOptions options = { 0 };
  const DdbCompareCounts *c;
  gint64 t0;
  double seconds;
  GOptionEntry entries[] = {
    { "items", 0, 0, G_OPTION_ARG_INT, &items, "Keys in the table", "N" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "The cache folder", "DIR" },
    { "segments", 0, 0, G_OPTION_ARG_INT, &segments, "Segments of each Scan", "N" },
    { NULL },
  };

  g_option_context_add_main_entries (octx, entries, NULL);
  if (!g_option_context_parse (octx, &argc, &argv, &error) || items < 1 || segments < 0)
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
    die (here_path, error);
  there = ddb_backend_open_database (there_path, &error);
  if (there == NULL)
    die (there_path, error);
  options.here.backend = here;
  options.here.table = "Orders";
  options.there.backend = there;
  options.there.table = "Orders";
  options.segments = (guint) segments;
  t0 = g_get_monotonic_time ();
  result = ddb_compare_run (&options, NULL, NULL, NULL, &error);
  seconds = (double) (g_get_monotonic_time () - t0) / 1e6;
  if (result == NULL)
    die ("compare", error);
  c = ddb_compare_result_counts (result);
  printf ("compare %d keys: same=%" G_GUINT64_FORMAT " changed=%" G_GUINT64_FORMAT
          " only_here=%" G_GUINT64_FORMAT " only_there=%" G_GUINT64_FORMAT
          ": %.2f s (%.0f items/s read), peak RSS %.1f MB\n",
          items, c->same, c->changed, c->only_here, c->only_there, seconds,
          (double) (c->items_here + c->items_there) / seconds, peak_rss_mb ());
  return 0;
}
