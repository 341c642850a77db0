/* bench-keys.c: `keys` (src/model/keys.h) over an engine database of an Orders table of ITEMS
 * items: 40% of them in a hot tenant sharded TENANT#bigco#01 … #10, the rest over 20,000 small
 * tenants. Prints the seconds and the peak RSS (VmHWM, reset between runs) of a full read and of
 * a sample.
 *
 * The database is built once and kept in the cache folder (--dir, default the build's bench
 * folder), named by its size; a process that built it runs itself again, so that the figures
 * do not carry the build's memory.
 *
 * Usage: bench-keys [--items N (1000000)] [--sample N (100000)] [--dir DIR] [--segments N] */
#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "bench-util.h"
#include "engine/engine.h"
#include "engine/snapshot.h"
#include "model/keys.h"

#ifndef BENCH_CACHE_DIR
#define BENCH_CACHE_DIR "."
#endif

#define FORMAT_VERSION 1
#define SMALL_TENANTS 20000

static void
write_orders (FILE *f, guint items)
{
  for (guint i = 0; i < items; i++)
    {
      char key[48];

      if (i % 10 < 4)
        g_snprintf (key, sizeof key, "TENANT#bigco#%02u", (i / 10) % 10 + 1);
      else
        g_snprintf (key, sizeof key, "TENANT#t%05u", (i * 7919u) % SMALL_TENANTS);
      fprintf (f,
               "{\"TenantShard\":{\"S\":\"%s\"},\"CustomerCountryProduct\":{\"S\":\"C#%u#FR#P-%u\"},"
               "\"qty\":{\"N\":\"%u\"},\"total\":{\"N\":\"%u.%02u\"},\"status\":{\"S\":\"shipped\"}}\n",
               key, i, i % 97, 1 + i % 5, 10 + i % 300, i % 100);
    }
}

static void
write_orders_data (FILE *f, gpointer data)
{
  write_orders (f, GPOINTER_TO_UINT (data));
}

static void
build_db (const char *path, const char *dir, guint items)
{
  DdbImportOptions opts = { .table_name = "Orders", .key = "TenantShard:S,CustomerCountryProduct:S" };
  gint64 t0 = g_get_monotonic_time ();

  bench_build_engine_db ("bench-keys", path, dir, &opts, write_orders_data, GUINT_TO_POINTER (items),
                         NULL);
  printf ("built %s: %u items in %.1f s\n", path, items,
          (double) (g_get_monotonic_time () - t0) / 1e6);
}

static void
run (DdbBackend *backend, const char *what, guint64 sample, guint segments)
{
  DdbKeysOptions options = { .table = "Orders", .sample = sample, .segments = segments,
                             .rate_rcu = 20000, .rate_wcu = 4000 };
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbKeysReport) report = NULL;
  gint64 t0;
  double seconds;

  bench_reset_peak_rss ();
  t0 = g_get_monotonic_time ();
  report = ddb_keys_analyze (backend, &options, NULL, NULL, NULL, &error);
  seconds = (double) (g_get_monotonic_time () - t0) / 1e6;
  if (report == NULL)
    bench_die ("bench-keys", what, error);
  printf ("keys %-7s %8" G_GUINT64_FORMAT " items read (%s), %u partitions, %u families, "
          "%u hot: %.2f s (%.0f items/s), peak RSS %.1f MB\n",
          what, report->items, report->sampled ? "sample" : "all", report->partitions->len,
          report->families->len, report->hot->len, seconds, (double) report->items / seconds,
          bench_peak_rss_mb ());
}

int
main (int argc, char **argv)
{
  gint items = 1000000, sample = 100000, segments = 0;
  g_autofree char *dir = NULL, *path = NULL, *name = NULL;
  gboolean rerun = FALSE;
  g_autoptr (GOptionContext) octx = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = NULL;
  GOptionEntry entries[] = {
    { "items", 0, 0, G_OPTION_ARG_INT, &items, "Items in the table", "N" },
    { "sample", 0, 0, G_OPTION_ARG_INT, &sample, "Items of the sampled run", "N" },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir, "The cache folder", "DIR" },
    { "segments", 0, 0, G_OPTION_ARG_INT, &segments, "Segments of the Scan", "N" },
    { "rerun", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &rerun, NULL, NULL },
    { NULL },
  };

  g_option_context_add_main_entries (octx, entries, NULL);
  if (!g_option_context_parse (octx, &argc, &argv, &error) || items < 1 || sample < 1
      || segments < 0)
    {
      fprintf (stderr, "bench-keys: %s\n", error != NULL ? error->message : "bad arguments");
      return 2;
    }
  if (dir == NULL)
    dir = g_strdup (BENCH_CACHE_DIR);
  name = g_strdup_printf ("bench-keys-v%d-%d.db", FORMAT_VERSION, items);
  path = g_build_filename (dir, name, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      build_db (path, dir, (guint) items);
      if (!rerun)
        {
          /* Start again without the build's memory, for a peak RSS of the runs only. */
          GPtrArray *args = g_ptr_array_new ();

          g_ptr_array_add (args, (char *) "bench-keys");
          g_ptr_array_add (args, (char *) "--items");
          g_ptr_array_add (args, g_strdup_printf ("%d", items));
          g_ptr_array_add (args, (char *) "--sample");
          g_ptr_array_add (args, g_strdup_printf ("%d", sample));
          g_ptr_array_add (args, (char *) "--dir");
          g_ptr_array_add (args, dir);
          g_ptr_array_add (args, (char *) "--segments");
          g_ptr_array_add (args, g_strdup_printf ("%d", segments));
          g_ptr_array_add (args, (char *) "--rerun");
          g_ptr_array_add (args, NULL);
          fflush (stdout);
          execv ("/proc/self/exe", (char **) args->pdata);
          fprintf (stderr, "bench-keys: could not run itself again (%s): the peak RSS "
                   "includes the build\n", g_strerror (errno));
        }
    }
  backend = ddb_backend_open_database (path, &error);
  if (backend == NULL)
    bench_die ("bench-keys", path, error);
  printf ("Orders: %d items (40%% in TENANT#bigco#01..#10, the rest over %d tenants); %s\n",
          items, SMALL_TENANTS, path);
  printf ("peak RSS before the runs: %.1f MB\n", bench_peak_rss_mb ());
  run (backend, "full", 0, (guint) segments);
  run (backend, "sampled", (guint64) sample, (guint) segments);
  return 0;
}
