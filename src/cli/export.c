/* export.c: `dynoscope-cli --db PATH export --table NAME [--format jsonl|json|csv|s3]
 * [--query REQUEST_JSON] DEST`: writes a table (or the result of a Query on it) to a snapshot.
 * A DynamoDB JSON lines export imported and exported again gives the same bytes. */
#include <glib/gi18n.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli/export.h"
#include "cli/snapshot-cmd.h"
#include "engine/engine.h"
#include "engine/snapshot.h"

#define EXPORT_PREFIX "dynoscope-cli export: "
#define EXPORT_USAGE \
  "dynoscope-cli --db PATH export --table NAME [--format jsonl|json|csv|s3] [--query JSON] DEST"

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
cli_export_main (const char *db_path, int argc, char **argv)
{
  char *table = NULL;
  char *format_name = NULL;
  char *query_text = NULL;
  char **rest = NULL;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbEngine) engine = NULL;
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
      "jsonl|json|csv|s3" },
    { "query", 'q', 0, G_OPTION_ARG_STRING, &query_text,
      N_ ("Export the result of this Query request instead of the whole table "
          "(KeyConditionExpression, IndexName, FilterExpression, … as in the DynamoDB API)"),
      N_ ("JSON") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, N_ ("DEST") },
    { NULL },
  };

  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  summary = g_strdup_printf (
      "%s\n\n%s\n\n%s",
      _ ("Write the items of table NAME, from the database given with --db, to DEST in the table's "
         "Scan order."),
      _ ("Formats: jsonl is one DynamoDB JSON item a line; json is a plain JSON array (binary and "
         "sets in Dynoscope's tagged form); csv has a typed header row (\"price (N)\"; columns "
         "of mixed types hold DynamoDB JSON values); s3 is a folder laid out as DynamoDB's export "
         "to S3 (it must be new or empty). A file name ending in .gz is gzip-compressed; DEST - is "
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
  if (format_name != NULL
      && (!ddb_snapshot_format_from_name (format_name, &format) || format == DDB_SNAPSHOT_AUTO))
    {
      status = usage_error (_ ("--format must be one of jsonl, json, csv, s3"));
      goto out;
    }
  if (query_text != NULL)
    {
      json_error_t jerr;

      query = json_loads (query_text, JSON_REJECT_DUPLICATES, &jerr);
      if (query == NULL || !json_is_object (query))
        {
          status = usage_error (_ ("--query must be a JSON object, a Query request"));
          goto out;
        }
    }
  bad_args = cli_snapshot_check_args (rest, "DEST", db_path);
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

  engine = ddb_engine_open (db_path, &error);
  if (engine == NULL)
    {
      fprintf (stderr, EXPORT_PREFIX "%s\n", error->message);
      status = 1;
      goto out;
    }
  opts.table_name = table;
  opts.format = format;
  opts.query = query;
  cli_snapshot_run_begin (&run, _ ("Exporting"), &opts.progress, &opts.progress_data);
  opts.cancellable = run.cancellable;
  if (!ddb_snapshot_export (engine, rest[0], &opts, &progress, &error))
    status = cli_snapshot_fail ("export", error);
  else if (run.terminal)
    {
      g_autofree char *items = g_strdup_printf ("%" G_GUINT64_FORMAT, progress.items);
      fprintf (stderr, _ ("Exported %s items of %s in %.1f s\n"), items, table, progress.seconds);
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
