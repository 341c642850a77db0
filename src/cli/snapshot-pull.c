/* snapshot-pull.c: `dynoscope-cli --db PATH snapshot pull --table T --from-endpoint URL
 * [--from-table T2] [--segments N]`: a live table as a snapshot in one step. The table is
 * exported from the endpoint (a parallel Scan, in the S3 export layout, into a temporary folder
 * removed afterwards) and imported into the database as table T, all or nothing, with the live
 * table "URL/T2" (format "live") recorded as its base, so that compare and push know where the
 * snapshot came from. Ctrl-C cancels either step and leaves nothing behind. */
#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend/transfer.h"
#include "cli/interrupt.h"
#include "cli/snapshot-cmd.h"
#include "cli/snapshot-pull.h"
#include "cli/target.h"
#include "engine/engine.h"

#define PULL_PREFIX "dynoscope-cli snapshot pull: "
#define PULL_USAGE \
  "dynoscope-cli --db PATH snapshot pull --table T --from-endpoint URL [--from-table T2] " \
  "[--segments N] [--profile P] [--region R] [--ca-bundle FILE]"
#define DEFAULT_SEGMENTS 4
#define MAX_SEGMENTS 1000

static int
usage_error (const char *message)
{
  fprintf (stderr, PULL_PREFIX "%s\n%s: %s\n", message, _ ("Usage"), PULL_USAGE);
  return 2;
}

static void
on_progress (const DdbSnapshotProgress *p, gpointer verb)
{
  if (isatty (STDERR_FILENO))
    cli_snapshot_progress_line (p, verb);
}

/* Removes PATH and everything under it (the temporary folder this command made). */
static gboolean
remove_tree (const char *path, GError **error)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr (GDir) dir = g_dir_open (path, 0, error);
      const char *name;

      if (dir == NULL)
        return FALSE;
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (!remove_tree (child, error))
            return FALSE;
        }
      if (g_rmdir (path) == 0)
        return TRUE;
    }
  else if (g_unlink (path) == 0)
    return TRUE;
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), _ ("Cannot remove %s: %s"), path,
               g_strerror (errno));
  return FALSE;
}

/* "URL/TABLE", the URL without its trailing slashes: how a live base is named. */
static char *
live_source (const char *url, const char *table)
{
  g_autofree char *trimmed = g_strdup (url);
  gsize len = strlen (trimmed);

  while (len > 0 && trimmed[len - 1] == '/')
    trimmed[--len] = '\0';
  return g_strdup_printf ("%s/%s", trimmed, table);
}

/* Exports FROM_TABLE of the endpoint into the new folder DEST. */
static gboolean
pull_export (const CliTarget *remote, const char *from_table, guint segments, const char *dest,
             GCancellable *cancellable, DdbSnapshotProgress *progress, gboolean *config_error,
             GError **error)
{
  g_autoptr (DdbBackend) backend = NULL;
  g_autoptr (GPtrArray) more = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_backend_free);
  DdbExportOptions opts = { 0 };

  backend = cli_target_open (remote, config_error, error);
  /* A client serialises its requests: each further segment gets a client of its own. */
  for (guint i = 1; backend != NULL && i < segments; i++)
    {
      DdbBackend *b = cli_target_open (remote, config_error, error);

      if (b == NULL)
        return FALSE;
      g_ptr_array_add (more, b);
    }
  if (backend == NULL)
    return FALSE;
  g_ptr_array_add (more, NULL);
  opts.table_name = from_table;
  opts.format = DDB_SNAPSHOT_S3;
  opts.segments = segments;
  opts.progress = on_progress;
  opts.progress_data = (gpointer) _ ("Exporting");
  opts.cancellable = cancellable;
  return ddb_transfer_export (backend, (DdbBackend *const *) more->pdata, dest, &opts, progress,
                              error);
}

int
cli_snapshot_pull_main (const char *db_path, gboolean read_only, int argc, char **argv)
{
  g_autofree char *table = NULL, *from_endpoint = NULL, *from_table = NULL;
  g_autofree char *profile = NULL, *region = NULL, *ca_bundle = NULL;
  g_auto (GStrv) rest = NULL;
  gint segments = DEFAULT_SEGMENTS;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GCancellable) cancellable = NULL;
  g_autoptr (DdbEngine) engine = NULL;
  g_autofree char *tmp = NULL, *dest = NULL, *source = NULL;
  gboolean config_error = FALSE, ok;
  CliTarget remote = { 0 };
  DdbImportOptions opts = { 0 };
  DdbSnapshotProgress exported = { 0 }, imported = { 0 };
  int status = 0;
  GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table,
      N_ ("The snapshot's table in the database (new; required)"), N_ ("T") },
    { "from-endpoint", 0, 0, G_OPTION_ARG_STRING, &from_endpoint,
      N_ ("The endpoint holding the live table (required)"), N_ ("URL") },
    { "from-table", 0, 0, G_OPTION_ARG_STRING, &from_table,
      N_ ("The live table (default: the same name)"), N_ ("T2") },
    { "segments", 's', 0, G_OPTION_ARG_INT, &segments,
      N_ ("Read the live table with a parallel Scan of N segments (1 to 1000, default 4)"),
      N_ ("N") },
    { "profile", 0, 0, G_OPTION_ARG_STRING, &profile,
      N_ ("The AWS profile for the endpoint's credentials and region"), N_ ("P") },
    { "region", 0, 0, G_OPTION_ARG_STRING, &region, N_ ("The endpoint's region"), N_ ("R") },
    { "ca-bundle", 0, 0, G_OPTION_ARG_FILENAME, &ca_bundle,
      N_ ("Trust the certificates in FILE for the endpoint's TLS"), N_ ("FILE") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    { NULL },
  };

  if (argc < 2 || g_strcmp0 (argv[1], "pull") != 0)
    return usage_error (_ ("expected the subcommand pull"));
  argc--;
  argv++;
  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      octx, _ ("Copy the live table T2 of an endpoint into the database as the new table T, in "
               "one step: the table is exported (in the S3 export layout, to a temporary folder "
               "removed afterwards) and imported all or nothing, with the live table recorded as "
               "the snapshot's base (source URL/T2, format live) for compare and push.\n\n"
               "Exit status: 0 on success; 1 on an error reading the table or writing the "
               "database; 2 on a usage error; 130 when interrupted (Ctrl-C), leaving nothing."));
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    return usage_error (error->message);
  if (rest != NULL && rest[0] != NULL)
    return usage_error (_ ("too many arguments"));
  if (db_path == NULL)
    return usage_error (_ ("snapshot pull needs --db PATH"));
  if (table == NULL || *table == '\0')
    return usage_error (_ ("missing --table T"));
  if (from_endpoint == NULL || *from_endpoint == '\0')
    return usage_error (_ ("missing --from-endpoint URL"));
  if (segments < 1 || segments > MAX_SEGMENTS)
    return usage_error (_ ("--segments must be a number from 1 to 1000"));
  if (read_only)
    {
      ddb_backend_set_read_only_error (&error, "snapshot pull");
      fprintf (stderr, PULL_PREFIX "%s\n", error->message);
      return 1;
    }
  if (from_table == NULL)
    from_table = g_strdup (table);
  remote.endpoint_url = from_endpoint;
  remote.profile = profile;
  remote.region = region;
  remote.ca_bundle = ca_bundle;

  tmp = g_dir_make_tmp ("dynoscope-pull-XXXXXX", &error);
  if (tmp == NULL)
    {
      fprintf (stderr, PULL_PREFIX "%s\n", error->message);
      return 1;
    }
  dest = g_build_filename (tmp, "export", NULL);
  cancellable = g_cancellable_new ();
  cli_interrupt_cancels (cancellable);
  ok = pull_export (&remote, from_table, (guint) segments, dest, cancellable, &exported,
                    &config_error, &error);
  if (ok)
    {
      engine = ddb_engine_open (db_path, &error);
      ok = engine != NULL;
    }
  if (ok)
    {
      source = live_source (from_endpoint, from_table);
      opts.table_name = table;
      opts.format = DDB_SNAPSHOT_S3;
      opts.progress = on_progress;
      opts.progress_data = (gpointer) _ ("Importing");
      opts.cancellable = cancellable;
      opts.base_source = source;
      opts.base_format = "live";
      ok = ddb_snapshot_import (engine, dest, &opts, &imported, &error);
    }
  cli_interrupt_cancels (NULL);
  {
    g_autoptr (GError) local = NULL;

    if (!remove_tree (tmp, &local))
      {
        fprintf (stderr, PULL_PREFIX "%s\n", local->message);
        if (ok)
          status = 1;
      }
  }
  if (!ok)
    {
      if (config_error)
        {
          fprintf (stderr, PULL_PREFIX "%s\n", error->message);
          return 2;
        }
      return cli_snapshot_fail ("snapshot pull", error);
    }
  if (status == 0)
    {
      g_autofree char *items = g_strdup_printf ("%" G_GUINT64_FORMAT, imported.items);

      /* TRANSLATORS: "Pulled 5000 items of http://localhost:8000/Orders into Orders in 2.1 s" */
      printf (_ ("Pulled %s items of %s into %s in %.1f s\n"), items, source, table,
              exported.seconds + imported.seconds);
    }
  return status;
}
