/* bench-util.c: what the benchmarks share (see bench-util.h). */
#include "bench-util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "engine/engine.h"

void
bench_die (const char *prog, const char *what, const GError *error)
{
  fprintf (stderr, "%s: %s: %s\n", prog, what, error != NULL ? error->message : "failed");
  exit (1);
}

static G_NORETURN void
die_errno (const char *prog, const char *what)
{
  fprintf (stderr, "%s: %s: %s\n", prog, what, g_strerror (errno));
  exit (1);
}

double
bench_peak_rss_mb (void)
{
  g_autofree char *status = NULL;
  const char *hwm;
  struct rusage ru;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL)
      && (hwm = strstr (status, "VmHWM:")) != NULL)
    return g_ascii_strtod (hwm + 6, NULL) / 1024.0;
  getrusage (RUSAGE_SELF, &ru);
  return (double) ru.ru_maxrss / 1024.0; /* kilobytes on Linux */
}

void
bench_reset_peak_rss (void)
{
  FILE *f = fopen ("/proc/self/clear_refs", "w");

  if (f != NULL)
    {
      fputs ("5", f);
      fclose (f);
    }
}

void
bench_build_engine_db (const char *prog, const char *path, const char *dir,
                       const DdbImportOptions *opts, void (*write) (FILE *f, gpointer data),
                       gpointer data, DdbSnapshotProgress *progress)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *name = g_strconcat (base, ".input.jsonl", NULL);
  g_autofree char *input = g_build_filename (dir, name, NULL);
  g_autofree char *tmp = g_strconcat (path, ".tmp", NULL);
  DdbSnapshotProgress local;
  GError *error = NULL;
  DdbEngine *engine;
  FILE *f = fopen (input, "w");

  if (f == NULL)
    die_errno (prog, input);
  write (f, data);
  if (fclose (f) != 0)
    die_errno (prog, input);
  ddb_engine_remove_files (tmp);
  engine = ddb_engine_open (tmp, &error);
  if (engine == NULL)
    bench_die (prog, tmp, error);
  if (!ddb_snapshot_import (engine, input, opts, progress != NULL ? progress : &local, &error))
    bench_die (prog, "import", error);
  ddb_engine_free (engine); /* checkpoints the WAL into the file */
  g_unlink (input);
  if (g_rename (tmp, path) != 0)
    die_errno (prog, path);
  ddb_engine_remove_files (tmp);
}
