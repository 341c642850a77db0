/* stage-file-cmd.c: `dynoscope-cli CONNECTION stage-file TABLE FILE [--format jsonl|json|csv]
 * [--overwrite] [--staging PATH]`: the items of FILE staged as puts into TABLE through the
 * staging area (staging/copystage.h), under the connection's id as the other staging commands
 * keep them (staging-session.h). Every item is read and checked against the table's key schema
 * and indexes before anything is staged: when any is refused, each refusal is printed
 * "FILE:LINE: message" on standard error, nothing is staged, and the exit status is 1.
 * Otherwise standard output carries one stable line for scripts:
 * `created=N overwritten=O unchanged=U`. */
#include <glib/gi18n.h>
#include <stdio.h>

#include "cli/stage-file-cmd.h"
#include "cli/staging-session.h"
#include "engine/snapshot.h"
#include "staging/copystage.h"

int
cli_stage_file_main (const CliTarget *target, int argc, char **argv)
{
  const char *command = "stage-file";
  g_autofree char *format_name = NULL, *staging_path = NULL, *summary = NULL;
  gboolean overwrite = FALSE;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  DdbSnapshotFormat format = DDB_SNAPSHOT_AUTO;
  DdbCopyStageSpec spec = { 0 };
  DdbCopyStageReport report = { 0 };
  CliStagingInterrupt interrupt;
  CliStagingSession session;
  const char *table, *path;
  int status = 0;
  gboolean ok;
  GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format_name,
      N_ ("The file's format: jsonl, json or csv (default: from its name)"), N_ ("FORMAT") },
    { "overwrite", 0, 0, G_OPTION_ARG_NONE, &overwrite,
      N_ ("Read each item first: one that exists is staged as an update from it, one already "
          "equal is left alone"),
      NULL },
    { "staging", 0, 0, G_OPTION_ARG_FILENAME, &staging_path,
      N_ ("The staging store (default: staging.db in the user's data directory)"), N_ ("PATH") },
    { NULL },
  };

  summary = g_strdup_printf (
      "%s\n\n%s\n\n%s\n\n%s",
      _ ("Usage: dynoscope-cli CONNECTION stage-file TABLE FILE [--format jsonl|json|csv] "
         "[--overwrite] [--staging PATH]"),
      _ ("Reads the items of FILE (DynamoDB JSON lines, plain JSON, or CSV with a header row, as "
         "an export writes them; gzip-compressed when it ends in .gz) and stages each as a put "
         "into table TABLE, checked against the table's key schema and indexes. Nothing is "
         "written to the table until `commit`, which sends each put guarded by the item being "
         "absent: an item that exists by then is a conflict, left staged. With --overwrite each "
         "item is read first, and one that exists becomes an update guarded by the values it "
         "changes."),
      _ ("Prints “created=N overwritten=O unchanged=U”. When any item is refused, each refusal "
         "is printed as “FILE:LINE: message” on standard error and nothing is staged. Exit "
         "status: 0 on success, 1 when an item is refused or on an error, 2 on a usage error, "
         "130 when cancelled with Ctrl-C (nothing is staged)."),
      _ (CLI_STAGING_CONNECTION_HELP));
  octx = cli_staging_option_context (_ ("TABLE FILE"), summary, entries);
  g_option_context_set_strict_posix (octx, FALSE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    return cli_staging_usage_error (command, error->message);
  if (argc != 3)
    return cli_staging_usage_error (command, _ ("give the table and the file: TABLE FILE"));
  table = argv[1];
  path = argv[2];
  if (format_name != NULL
      && (!ddb_snapshot_format_from_name (format_name, &format) || format == DDB_SNAPSHOT_S3
          || format == DDB_SNAPSHOT_AUTO))
    {
      g_autofree char *message
          = g_strdup_printf (_ ("--format: “%s” is not jsonl, json or csv"), format_name);

      return cli_staging_usage_error (command, message);
    }

  status = cli_staging_session_open (&session, command, target, staging_path, TRUE);
  if (status != 0)
    {
      cli_staging_session_clear (&session);
      return status;
    }
  spec.connection = session.connection;
  spec.table = table;
  spec.overwrite = overwrite;
  cli_staging_interrupt_begin (&interrupt);
  ok = ddb_copy_stage_file (session.staging, session.backend, &spec, path, format, NULL, NULL,
                            interrupt.cancellable, &report, &error);
  cli_staging_interrupt_end (&interrupt);
  if (!ok)
    status = cli_staging_fail (command, error);
  else if (report.n_failed > 0)
    {
      for (guint i = 0; i < report.failures->len; i++)
        {
          const DdbExprStageFailure *f = g_ptr_array_index (report.failures, i);

          fprintf (stderr, "%s\n", f->message);
        }
      fprintf (stderr,
               g_dngettext (GETTEXT_PACKAGE, "dynoscope-cli %s: %u item refused: nothing staged\n",
                            "dynoscope-cli %s: %u items refused: nothing staged\n",
                            report.n_failed),
               command, report.n_failed);
      status = 1;
    }
  else
    printf ("created=%u overwritten=%u unchanged=%u\n", report.n_created, report.n_overwritten,
            report.n_unchanged);
  if (fflush (stdout) != 0 && status == 0)
    status = 1;
  ddb_copy_stage_report_clear (&report);
  cli_staging_session_clear (&session);
  return status;
}
