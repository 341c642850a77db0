/* import.c: `dynoscope-cli [--db PATH | --endpoint URL] import --table NAME [--key pk:S[,sk:N]]
 * [--gsi NAME:pk:S[,sk:S]] [--format s3|jsonl|json|csv] SOURCE [INCREMENTAL…]`: creates the
 * table and puts every item of the snapshot in it, then applies the incremental exports given
 * after a full one. Into a database, in one transaction: a failed import leaves
 * nothing behind. Into an endpoint, with CreateTable then BatchWriteItem: what was written
 * before an error or Ctrl-C stays, and the message says how much. Progress is one updating
 * line on standard error when it is a terminal. SOURCE and INCREMENTAL may be s3:// URLs of
 * exports in a bucket, read straight from S3 (exports/s3-import.h) into a database. */
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "backend/transfer.h"
#include "cli/import.h"
#include "cli/mfa-prompt.h"
#include "cli/snapshot-cmd.h"
#include "exports/s3-import.h"

#define IMPORT_PREFIX "dynoscope-cli import: "
#define IMPORT_USAGE \
  "dynoscope-cli [--db PATH | --endpoint URL] import --table NAME [--key pk:S[,sk:N]] [--gsi " \
  "NAME:pk:S[,sk:S]] " \
  "[--format s3|jsonl|json|csv] SOURCE [INCREMENTAL…]"

static int
usage_error (const char *message)
{
  fprintf (stderr, IMPORT_PREFIX "%s\n%s: %s\n", message, _ ("Usage"), IMPORT_USAGE);
  return 2;
}

/* How many of the sources are s3:// URLs. */
static guint
count_s3_urls (char **rest)
{
  guint n = 0;

  for (guint i = 0; rest[i] != NULL; i++)
    if (g_str_has_prefix (rest[i], "s3://"))
      n++;
  return n;
}

/* The exports at the s3:// URLS into the database of BACKEND, through S3 with the global
 * options' session (--profile, --region, --ca-bundle; AWS_ENDPOINT_URL_S3 and the rest of the
 * environment). *CONFIG_ERROR tells a configuration error (no region, a bad endpoint). */
static gboolean
import_from_s3 (const CliTarget *target, DdbBackend *backend, char **urls,
                const DdbImportOptions *opts, DdbSnapshotProgress *progress,
                gboolean *config_error, GError **error)
{
  DdbS3Options options = { 0 };
  g_autoptr (DdbS3) s3 = NULL;
  GError *local = NULL;

  memset (progress, 0, sizeof *progress);
  if (!ddb_backend_check_writable (backend, "import", error))
    return FALSE;
  options.profile = target->profile;
  options.region = target->region;
  options.ca_bundle = target->ca_bundle;
  options.mfa_prompt = cli_mfa_prompt;
  s3 = ddb_s3_new (&options, &local);
  if (s3 == NULL)
    {
      *config_error = TRUE;
      g_propagate_error (error, local);
      return FALSE;
    }
  return ddb_s3_import (ddb_backend_get_engine (backend), s3, (const char *const *) urls, opts,
                        NULL, progress, error);
}

int
cli_import_main (const CliTarget *target, int argc, char **argv)
{
  char *table = NULL;
  char *key = NULL;
  char *format_name = NULL;
  char **gsis = NULL;
  char **rest = NULL;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = NULL;
  gboolean config_error = FALSE;
  g_autofree char *summary = NULL;
  CliSnapshotRun run;
  guint n_s3 = 0;
  gboolean ok;
  DdbSnapshotFormat format = DDB_SNAPSHOT_AUTO;
  DdbImportOptions opts = { 0 };
  DdbSnapshotProgress progress;
  int status = 0;
  GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table, N_ ("The table to create (required)"),
      N_ ("NAME") },
    { "key", 'k', 0, G_OPTION_ARG_STRING, &key,
      N_ ("The key schema: partition key and optional sort key, types S, N or B (default: "
          "recorded in the snapshot, or inferred from the items when unambiguous)"),
      "pk:S[,sk:N]" },
    { "gsi", 'g', 0, G_OPTION_ARG_STRING_ARRAY, &gsis,
      N_ ("Declare a global secondary index (projection ALL); may be repeated"),
      "NAME:pk:S[,sk:S]" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      N_ ("The snapshot's format (default: s3 for a folder, else from the file name: .csv, "
          ".json, anything else DynamoDB JSON lines)"),
      "s3|jsonl|json|csv" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
      N_ ("SOURCE [INCREMENTAL…]") },
    { NULL },
  };

  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  summary = g_strdup_printf (
      "%s\n\n%s\n\n%s\n\n%s\n\n%s\n\n%s\n\n%s",
      _ ("Create table NAME in the database given with --db and put every item of SOURCE in it, "
         "in one transaction: on any error nothing is left behind."),
      _ ("With --endpoint (or a profile's endpoint or region), the table is created there "
         "(on-demand, PAY_PER_REQUEST), the import waits until it is ACTIVE, then writes the "
         "items with BatchWriteItem, 25 at a time, retrying unprocessed items. Such an import "
         "is NOT atomic: on an error or Ctrl-C the table and the items written so far stay, and "
         "the message says how many items were written before the error."),
      _ ("Formats: s3 is a folder as DynamoDB's export to S3 writes it (manifest-summary.json, "
         "manifest-files.json, data/*.json.gz; checksums and item counts are verified); jsonl is "
         "one DynamoDB JSON item a line ({\"Item\": …} lines too); json is plain JSON, an array "
         "or one object a line; csv has a header row whose cells may type their column: "
         "\"price (N)\", with S N B BOOL NULL DDB JSON (DDB: DynamoDB JSON values; JSON: plain "
         "JSON values). An empty cell is an absent attribute, \"\" an empty string. Files may be "
         "gzip-compressed."),
      _ ("INCREMENTAL: DynamoDB's incremental exports (folders whose manifest-summary.json says "
         "INCREMENTAL_EXPORT), applied in time order on top of SOURCE, a full export: each "
         "change puts its new image or deletes the item, giving the table as of the last "
         "export's time. They must follow the full export without a gap. Into a database "
         "only."),
      _ ("SOURCE and INCREMENTAL may be exports in S3, read from the bucket without a copy on "
         "disk: s3://BUCKET/PREFIX/AWSDynamoDB/EXPORT_ID (the export's folder), its "
         "manifest-summary.json, or s3://BUCKET/PREFIX when exactly one export lies under "
         "PREFIX/AWSDynamoDB/ (with several, the message names each, newest first). The data "
         "files are fetched several at a time, each checked against the manifest's item count "
         "and MD5, a broken download resumed. S3 is reached with --profile and --region (or "
         "AWS_PROFILE, AWS_REGION…) and the endpoint the AWS CLI would use for S3 "
         "(AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the profile's). Into a database only."),
      _ ("A bad item stops the import with “FILE:LINE: message”."),
      _ ("Exit status: 0 on success; 1 on a DynamoDB error, printed on standard error as "
         "“ErrorName: message”, or an unreadable source; 2 on a usage error."));
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
  if (format_name != NULL && (!ddb_snapshot_format_from_name (format_name, &format)))
    {
      status = usage_error (_ ("--format must be one of s3, jsonl, json, csv"));
      goto out;
    }
  if (key != NULL && !ddb_snapshot_check_key_spec (key, FALSE, &error))
    {
      status = usage_error (error->message);
      goto out;
    }
  for (guint i = 0; gsis != NULL && gsis[i] != NULL; i++)
    {
      if (!ddb_snapshot_check_key_spec (gsis[i], TRUE, &error))
        {
          status = usage_error (error->message);
          goto out;
        }
    }
  if (rest == NULL || rest[0] == NULL)
    {
      status = usage_error (_ ("missing SOURCE"));
      goto out;
    }
  n_s3 = count_s3_urls (rest);
  if (n_s3 > 0 && rest[n_s3] != NULL)
    {
      status = usage_error (_ ("SOURCE and INCREMENTAL must be all s3:// URLs or all local "
                               "paths"));
      goto out;
    }
  if (n_s3 > 0 && format != DDB_SNAPSHOT_AUTO && format != DDB_SNAPSHOT_S3)
    {
      status = usage_error (_ ("an s3:// source is an S3 export: give --format s3 or none"));
      goto out;
    }
  if (n_s3 > 0 && cli_target_is_remote (target))
    {
      fprintf (stderr, IMPORT_PREFIX "%s\n",
               _ ("an export in S3 (s3://…) is imported into a database (--db PATH) only; to "
                  "put it on an endpoint, import it into a database first, or copy the export's "
                  "folder down and import the folder"));
      status = 2;
      goto out;
    }

  backend = cli_target_open (target, &config_error, &error);
  if (backend == NULL)
    {
      fprintf (stderr, IMPORT_PREFIX "%s\n", error->message);
      status = config_error ? 2 : 1;
      goto out;
    }
  opts.table_name = table;
  opts.format = format;
  opts.key = key;
  opts.gsis = (const char *const *) gsis;
  opts.incrementals = (const char *const *) rest + 1;
  cli_snapshot_run_begin (&run, _ ("Importing"), &opts.progress, &opts.progress_data);
  opts.cancellable = run.cancellable;
  if (n_s3 > 0)
    ok = import_from_s3 (target, backend, rest, &opts, &progress, &config_error, &error);
  else
    ok = ddb_transfer_import (backend, rest[0], &opts, NULL, &progress, &error);
  if (!ok && config_error)
    {
      fprintf (stderr, IMPORT_PREFIX "%s\n", error->message);
      status = 2;
    }
  else if (!ok)
    {
      status = cli_snapshot_fail ("import", error);
      if (status == CLI_EXIT_CANCELLED && ddb_backend_get_kind (backend) == DDB_BACKEND_REMOTE)
        {
          g_autofree char *items = g_strdup_printf ("%" G_GUINT64_FORMAT, progress.items);
          fprintf (stderr,
                   ngettext ("dynoscope-cli import: %s item was written before the import was "
                             "cancelled; an import to an endpoint is not undone: table %s "
                             "stays\n",
                             "dynoscope-cli import: %s items were written before the import was "
                             "cancelled; an import to an endpoint is not undone: table %s "
                             "stays\n",
                             (gulong) progress.items),
                   items, table);
        }
    }
  else if (run.terminal)
    {
      g_autofree char *items = g_strdup_printf ("%" G_GUINT64_FORMAT, progress.items);
      fprintf (stderr,
               ngettext ("Imported %s item into %s in %.1f s\n",
                         "Imported %s items into %s in %.1f s\n", (gulong) progress.items),
               items, table, progress.seconds);
    }
  cli_snapshot_run_end (&run);

out:
  g_free (table);
  g_free (key);
  g_free (format_name);
  g_strfreev (gsis);
  g_strfreev (rest);
  return status;
}
