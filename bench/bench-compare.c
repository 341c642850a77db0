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

#include "bench-util.h"
#include "backend/backend.h"
#include "compare/compare.h"
#include "engine/engine.h"
#include "engine/snapshot.h"

#ifndef BENCH_CACHE_DIR
#define BENCH_CACHE_DIR "."
#endif

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
    bench_die ("bench-compare", here_path, error);
  there = ddb_backend_open_database (there_path, &error);
  if (there == NULL)
    bench_die ("bench-compare", there_path, error);
  options.here.backend = here;
  options.here.table = "Orders";
  options.there.backend = there;
  options.there.table = "Orders";
  options.segments = (guint) segments;
  t0 = g_get_monotonic_time ();
  result = ddb_compare_run (&options, NULL, NULL, NULL, &error);
  seconds = (double) (g_get_monotonic_time () - t0) / 1e6;
  if (result == NULL)
    bench_die ("bench-compare", "compare", error);
  c = ddb_compare_result_counts (result);
  printf ("compare %d keys: same=%" G_GUINT64_FORMAT " changed=%" G_GUINT64_FORMAT
          " only_here=%" G_GUINT64_FORMAT " only_there=%" G_GUINT64_FORMAT
          ": %.2f s (%.0f items/s read), peak RSS %.1f MB\n",
          items, c->same, c->changed, c->only_here, c->only_there, seconds,
          (double) (c->items_here + c->items_there) / seconds, bench_peak_rss_mb ());
  return 0;
}
