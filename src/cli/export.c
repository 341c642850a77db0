/* export.c: `dynoscope-cli [--db PATH | --endpoint URL] export --table NAME
 * [--format jsonl|json|csv|s3|ion] [--query REQUEST_JSON] [--segments N] DEST`: writes a table (or
 * the result of a Query on it) to a snapshot, reading it with Scan (parallel with several
 * segments, each with a connection of its own) or the Query. A DynamoDB JSON lines export
 * imported and exported again gives the same bytes. */
#include <glib/gi18n.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/transfer.h"
#include "cli/export.h"
#include "cli/snapshot-cmd.h"
#include "engine/snapshot.h"

/* A remote export's default: enough to overlap the round trips, few enough for any table. */
#define DEFAULT_REMOTE_SEGMENTS 4
#define MAX_SEGMENTS 1000

#define EXPORT_PREFIX "dynoscope-cli export: "
#define EXPORT_USAGE \
  "dynoscope-cli [--db PATH | --endpoint URL] export --table NAME [--format jsonl|json|csv|s3|ion] " \
  "[--query JSON] [--segments N] DEST"

static int
usage_error (const char *message)
{
  fprintf (stderr, EXPORT_PREFIX "%s\n%s: %s\n", message, _ ("Usage"), EXPORT_USAGE);
  return 2;
}

/* The format from the destination's name when --format is not given. */
static DdbSnapshotFormat
format_for_dest (const char *dest)
{
  g_autofree char *lower = g_ascii_strdown (dest, -1);

  if (g_str_has_suffix (lower, "/") || g_file_test (dest, G_FILE_TEST_IS_DIR))
    return DDB_SNAPSHOT_S3;
  if (g_str_has_suffix (lower, ".csv") || g_str_has_suffix (lower, ".csv.gz"))
    return DDB_SNAPSHOT_CSV;
  if (g_str_has_suffix (lower, ".json") || g_str_has_suffix (lower, ".json.gz"))
    return DDB_SNAPSHOT_JSON;
  return DDB_SNAPSHOT_JSONL;
}

int
cli_export_main (const CliTarget *target, int argc, char **argv)
{
  char *table = NULL;
  char *format_name = NULL;
  gboolean ion;
  char *query_text = NULL;
  char **rest = NULL;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = NULL;
  g_autoptr (GPtrArray) more = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_backend_free);
  gboolean config_error = FALSE;
  int segments = -1;
  g_autofree char *summary = NULL;
  g_autofree char *bad_args = NULL;
  CliSnapshotRun run;
  DdbSnapshotFormat format = DDB_SNAPSHOT_AUTO;
  DdbExportOptions opts = { 0 };
  DdbSnapshotProgress progress;
  json_t *query = NULL;
  int status = 0;
  GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table, N_ ("The table to export (required)"),
      N_ ("NAME") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      N_ ("The snapshot's format (default: from DEST: a folder or a name ending in / is s3, "
          ".csv is csv, .json is json, anything else DynamoDB JSON lines)"),
      "jsonl|json|csv|s3|ion" },
    { "query", 'q', 0, G_OPTION_ARG_STRING, &query_text,
      N_ ("Export the result of this Query request instead of the whole table "
          "(KeyConditionExpression, IndexName, FilterExpression, … as in the DynamoDB API)"),
      N_ ("JSON") },
    { "segments", 's', 0, G_OPTION_ARG_INT, &segments,
      N_ ("Read the table with a parallel Scan of N segments (1 to 1000), each on a thread and "
          "a connection of its own (default: 4 from an endpoint, 1 from a database)"),
      "N" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, N_ ("DEST") },
    { NULL },
  };

  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  summary = g_strdup_printf (
      "%s\n\n%s\n\n%s\n\n%s",
      _ ("Write the items of table NAME, from the database given with --db or from the endpoint, "
         "to DEST."),
      _ ("Order: with one segment (--segments 1, the default from a database) the items come in "
         "the table's Scan order (or the query's), so the same table gives the same file. With "
         "several segments, each segment's pages are written as they arrive and interleave: the "
         "same items, in an order that may change from one run to the next."),
      _ ("Formats: jsonl is one DynamoDB JSON item a line; json is a plain JSON array (binary and "
         "sets in Dynoscope's tagged form); csv has a typed header row (\"price (N)\"; columns "
         "of mixed types hold DynamoDB JSON values); s3 is a folder laid out as DynamoDB's export "
         "to S3 (it must be new or empty), ion the same with its data files in Amazon Ion, as an "
         "export in the ION format writes them. A file name ending in .gz is gzip-compressed; DEST - is "
         "standard output (jsonl, json, csv). A file is written aside and put in place at the "
         "end, so a failed or cancelled (Ctrl-C) export leaves nothing."),
      _ ("Exit status: 0 on success; 1 on a DynamoDB error, printed on standard error as "
         "“ErrorName: message”, or an unwritable destination; 2 on a usage error."));
  g_option_context_set_summary (octx, summary);
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      status = usage_error (error->message);
      goto out;
    }
  if (table == NULL)
    {
      status = usage_error (_ ("missing --table NAME"));
      goto out;
    }
  ion = format_name != NULL && strcmp (format_name, "ion") == 0;
  if (ion)
    format = DDB_SNAPSHOT_S3;
  else if (format_name != NULL
           && (!ddb_snapshot_format_from_name (format_name, &format)
               || format == DDB_SNAPSHOT_AUTO))
    {
      status = usage_error (_ ("--format must be one of jsonl, json, csv, s3, ion"));
      goto out;
    }
  if (query_text != NULL)
    {
      json_error_t jerr;

      /* Values in it may hold U+0000, as DynamoDB's strings may. */
      query = json_loads (query_text, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
      if (query == NULL || !json_is_object (query))
        {
          status = usage_error (_ ("--query must be a JSON object, a Query request"));
          goto out;
        }
    }
  if (segments != -1 && (segments < 1 || segments > MAX_SEGMENTS))
    {
      status = usage_error (_ ("--segments must be a number from 1 to 1000"));
      goto out;
    }
  if (segments != -1 && query != NULL && segments != 1)
    {
      status = usage_error (_ ("--segments is for a Scan of the whole table, not a --query"));
      goto out;
    }
  bad_args = cli_snapshot_check_args (rest, "DEST");
  if (bad_args != NULL)
    {
      status = usage_error (bad_args);
      goto out;
    }
  if (format == DDB_SNAPSHOT_S3 && strcmp (rest[0], "-") == 0)
    {
      status = usage_error (_ ("an s3 export is a folder: it cannot go to standard output (-)"));
      goto out;
    }
  if (format == DDB_SNAPSHOT_AUTO)
    format = format_for_dest (rest[0]);

  if (segments == -1)
    segments = cli_target_is_remote (target) ? DEFAULT_REMOTE_SEGMENTS : 1;
  backend = cli_target_open (target, &config_error, &error);
  /* A client serialises its requests: each further segment gets a client of its own. */
  for (int i = 1; backend != NULL && cli_target_is_remote (target) && i < segments; i++)
    {
      DdbBackend *b = cli_target_open (target, &config_error, &error);

      if (b == NULL)
        g_clear_pointer (&backend, ddb_backend_free);
      else
        g_ptr_array_add (more, b);
    }
  if (backend == NULL)
    {
      fprintf (stderr, EXPORT_PREFIX "%s\n", error->message);
      status = config_error ? 2 : 1;
      goto out;
    }
  g_ptr_array_add (more, NULL);
  opts.table_name = table;
  opts.format = format;
  opts.query = query;
  opts.segments = (guint) segments;
  opts.ion = ion;
  cli_snapshot_run_begin (&run, _ ("Exporting"), &opts.progress, &opts.progress_data);
  opts.cancellable = run.cancellable;
  if (!ddb_transfer_export (backend, (DdbBackend *const *) more->pdata, rest[0], &opts, &progress,
                            &error))
    status = cli_snapshot_fail ("export", error);
  else if (run.terminal)
    {
      g_autofree char *items = g_strdup_printf ("%" G_GUINT64_FORMAT, progress.items);
      fprintf (stderr,
               ngettext ("Exported %s item of %s in %.1f s\n",
                         "Exported %s items of %s in %.1f s\n", (gulong) progress.items),
               items, table, progress.seconds);
    }
  cli_snapshot_run_end (&run);

out:
  if (query != NULL)
    json_decref (query);
  g_free (table);
  g_free (format_name);
  g_free (query_text);
  g_strfreev (rest);
  return status;
}
