/* exports-cmd.c: `dynoscope-cli exports`: the subcommands' dispatch, `exports list`,
 * `exports describe`, `exports pitr`, and what they share with `exports start`
 * (exports-start.c): options, errors (with the hint to turn point-in-time recovery on), times
 * and an export's description. */
#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/subcommand.h"
#include "cli/exports-cmd.h"
#include "core/error.h"

/* The widest label of a description, for aligned columns. */
#define LABEL_WIDTH 22

gboolean
cli_exports_parse_options (const char *summary, GOptionEntry *entries, int *argc, char ***argv)
{
  g_autoptr (GOptionContext) octx = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;

  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (octx, summary);
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, argc, argv, &error))
    {
      fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n", error->message);
      return FALSE;
    }
  return TRUE;
}

DdbBackend *
cli_exports_open (const CliTarget *target, int *status)
{
  g_autoptr (GError) error = NULL;
  gboolean config_error = FALSE;
  DdbBackend *backend = cli_target_open (target, &config_error, &error);

  if (backend == NULL)
    {
      fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n", error->message);
      *status = config_error ? 2 : 1;
    }
  return backend;
}

/* WORD as a shell word: quoted only when it needs to be. */
static char *
shell_word (const char *word)
{
  for (const char *p = word; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("._/:@=+,-", *p) == NULL)
      return g_shell_quote (word);
  return *word != '\0' ? g_strdup (word) : g_shell_quote (word);
}

/* "dynoscope-cli [CONNECTION] exports pitr --table T --enable", with the connection's global
 * options as given, so that it can be pasted. */
static char *
pitr_command (const CliTarget *target, const char *table)
{
  GString *cmd = g_string_new ("dynoscope-cli");
  const struct {
    const char *option, *value;
  } globals[] = {
    { "--db", target->db_path },         { "--endpoint", target->endpoint_url },
    { "--profile", target->profile },    { "--region", target->region },
    { "--ca-bundle", target->ca_bundle },
  };
  g_autofree char *quoted = shell_word (table);

  for (gsize i = 0; i < G_N_ELEMENTS (globals); i++)
    if (globals[i].value != NULL)
      {
        g_autofree char *value = shell_word (globals[i].value);

        g_string_append_printf (cmd, " %s %s", globals[i].option, value);
      }
  g_string_append_printf (cmd, " exports pitr --table %s --enable", quoted);
  return g_string_free (cmd, FALSE);
}

json_t *
cli_exports_call (const CliTarget *target, DdbBackend *backend, const char *operation,
                  json_t *request, const char *table, GCancellable *cancellable, GError **error)
{
  json_t *response = NULL;
  GError *local = NULL;

  if (ddb_backend_call (backend, operation, request, cancellable, &response, &local))
    return response;
  if (local->domain == DDB_ERROR)
    {
      const char *name = ddb_backend_error_name (local, response);

      fprintf (stderr, "%s: %s\n", name, local->message);
      if (strcmp (name, "PointInTimeRecoveryUnavailableException") == 0 && table != NULL)
        {
          g_autofree char *cmd = pitr_command (target, table);

          fprintf (stderr, _ ("Point-in-time recovery is off for this table; turn it on with: "
                              "%s\n"),
                   cmd);
        }
    }
  else if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n", local->message);
  json_decref (response);
  g_propagate_error (error, local);
  return NULL;
}

char *
cli_exports_table_arn (const CliTarget *target, DdbBackend *backend, const char *table)
{
  json_t *request, *response;
  const char *arn;
  char *copy = NULL;

  if (g_str_has_prefix (table, "arn:"))
    return g_strdup (table);
  request = json_pack ("{s:s}", "TableName", table);
  response = cli_exports_call (target, backend, "DescribeTable", request, NULL, NULL, NULL);
  json_decref (request);
  if (response == NULL)
    return NULL;
  arn = json_string_value (json_object_get (json_object_get (response, "Table"), "TableArn"));
  if (arn != NULL)
    copy = g_strdup (arn);
  else
    fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n",
             _ ("DescribeTable's answer has no TableArn"));
  json_decref (response);
  return copy;
}

gboolean
cli_exports_parse_time (const char *text, gdouble *seconds)
{
  g_autoptr (GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr (GDateTime) dt = NULL;
  char *end = NULL;
  gdouble value;

  if (text == NULL || *text == '\0')
    return FALSE;
  /* Seconds since the epoch: digits, maybe a fraction (not hexadecimal, not an exponent). */
  if (strspn (text, "0123456789.") == strlen (text) && g_ascii_isdigit (*text))
    {
      value = g_ascii_strtod (text, &end);
      if (end != NULL && *end == '\0' && isfinite (value))
        {
          *seconds = value;
          return TRUE;
        }
      return FALSE;
    }
  dt = g_date_time_new_from_iso8601 (text, utc);
  if (dt == NULL && strlen (text) == 10)
    {
      g_autofree char *midnight = g_strconcat (text, "T00:00:00", NULL);

      dt = g_date_time_new_from_iso8601 (midnight, utc);
    }
  if (dt == NULL)
    return FALSE;
  *seconds = (gdouble) g_date_time_to_unix (dt) + g_date_time_get_microsecond (dt) / 1e6;
  return TRUE;
}

char *
cli_exports_format_time (json_t *value)
{
  gint64 ms;
  g_autoptr (GDateTime) dt = NULL;
  g_autofree char *whole = NULL;

  if (!json_is_number (value))
    return NULL;
  ms = (gint64) llround (json_number_value (value) * 1000.0);
  dt = g_date_time_new_from_unix_utc (ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
  if (dt == NULL)
    return NULL;
  whole = g_date_time_format (dt, "%Y-%m-%dT%H:%M:%S");
  if (ms % 1000 == 0)
    return g_strconcat (whole, "Z", NULL);
  return g_strdup_printf ("%s.%03dZ", whole, (int) (((ms % 1000) + 1000) % 1000));
}

/* One "Label  value" line; nothing when VALUE is NULL. */
static void
print_line (const char *label, const char *value)
{
  if (value != NULL)
    printf ("%-*s %s\n", LABEL_WIDTH, label, value);
}

static void
print_time_line (const char *label, json_t *value)
{
  g_autofree char *text = cli_exports_format_time (value);

  print_line (label, text);
}

static void
print_json (json_t *json)
{
  char *text = json_dumps (json, JSON_INDENT (2));

  if (text != NULL)
    printf ("%s\n", text);
  free (text);
}

void
cli_exports_print_description (json_t *d, gboolean as_json)
{
  json_t *inc = json_object_get (d, "IncrementalExportSpecification");
  const char *bucket = json_string_value (json_object_get (d, "S3Bucket"));
  const char *prefix = json_string_value (json_object_get (d, "S3Prefix"));
  const char *manifest = json_string_value (json_object_get (d, "ExportManifest"));
  const char *code = json_string_value (json_object_get (d, "FailureCode"));
  const char *message = json_string_value (json_object_get (d, "FailureMessage"));
  json_t *number;

  if (as_json)
    {
      print_json (d);
      return;
    }
  print_line (_ ("Export"), json_string_value (json_object_get (d, "ExportArn")));
  print_line (_ ("Status"), json_string_value (json_object_get (d, "ExportStatus")));
  print_line (_ ("Type"), json_string_value (json_object_get (d, "ExportType")));
  print_line (_ ("Format"), json_string_value (json_object_get (d, "ExportFormat")));
  print_line (_ ("Table"), json_string_value (json_object_get (d, "TableArn")));
  print_time_line (_ ("Export time"), json_object_get (d, "ExportTime"));
  print_time_line (_ ("From (incremental)"), json_object_get (inc, "ExportFromTime"));
  print_time_line (_ ("To (incremental)"), json_object_get (inc, "ExportToTime"));
  print_line (_ ("View (incremental)"), json_string_value (json_object_get (inc, "ExportViewType")));
  print_time_line (_ ("Started"), json_object_get (d, "StartTime"));
  print_time_line (_ ("Ended"), json_object_get (d, "EndTime"));
  number = json_object_get (d, "ItemCount");
  if (json_is_integer (number))
    printf ("%-*s %" JSON_INTEGER_FORMAT "\n", LABEL_WIDTH, _ ("Items"),
            json_integer_value (number));
  number = json_object_get (d, "BilledSizeBytes");
  if (json_is_integer (number))
    printf ("%-*s %" JSON_INTEGER_FORMAT " %s\n", LABEL_WIDTH, _ ("Size"),
            json_integer_value (number), _ ("bytes"));
  if (bucket != NULL)
    {
      g_autofree char *where = g_strdup_printf ("s3://%s/%s", bucket, prefix != NULL ? prefix : "");

      print_line (_ ("S3 location"), where);
    }
  if (bucket != NULL && manifest != NULL)
    {
      g_autofree char *where = g_strdup_printf ("s3://%s/%s", bucket, manifest);

      print_line (_ ("Manifest"), where);
    }
  if (code != NULL || message != NULL)
    {
      g_autofree char *failure = g_strdup_printf ("%s%s%s", code != NULL ? code : "",
                                                  code != NULL && message != NULL ? ": " : "",
                                                  message != NULL ? message : "");

      print_line (_ ("Failure"), failure);
    }
}

/* ---- exports list ---- */

/* The time a listed export stands for: a full export's ExportTime, an incremental one's
 * ExportToTime. */
static char *
listed_time (json_t *d)
{
  json_t *inc = json_object_get (d, "IncrementalExportSpecification");
  char *text = cli_exports_format_time (json_object_get (d, "ExportTime"));

  if (text == NULL)
    text = cli_exports_format_time (json_object_get (inc, "ExportToTime"));
  return text != NULL ? text : g_strdup ("-");
}

static int
exports_list (const CliTarget *target, int argc, char **argv)
{
  g_autofree char *table = NULL;
  gboolean as_json = FALSE;
  g_auto (GStrv) rest = NULL;
  g_autoptr (DdbBackend) backend = NULL;
  g_autofree char *table_arn = NULL;
  g_autofree char *token = NULL;
  json_t *all = json_array ();
  int status = 0;
  GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table,
      N_ ("Only this table's exports (a table name or ARN)"), N_ ("TABLE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json,
      N_ ("Print the exports' descriptions (DescribeExport) as a JSON array"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    { NULL },
  };

  if (!cli_exports_parse_options (
          _ ("List the exports of the account, or of one table (ListExports, every page), "
             "newest last, one a line: status, the time exported (an incremental export's end), "
             "type, format and ARN."),
          entries, &argc, &argv))
    goto usage;
  if (rest != NULL)
    {
      fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n", _ ("exports list takes no arguments"));
      goto usage;
    }
  backend = cli_exports_open (target, &status);
  if (backend == NULL)
    goto out;
  if (table != NULL && (table_arn = cli_exports_table_arn (target, backend, table)) == NULL)
    {
      status = 1;
      goto out;
    }
  if (!as_json && isatty (STDOUT_FILENO))
    printf ("%-11s %-24s %-18s %-13s %s\n", _ ("STATUS"), _ ("TIME"), _ ("TYPE"), _ ("FORMAT"),
            _ ("ARN"));
  do
    {
      json_t *request = json_pack ("{s:i}", "MaxResults", 25);
      json_t *page, *summaries, *summary;
      const char *next;
      size_t i;

      if (table_arn != NULL)
        json_object_set_new (request, "TableArn", json_string (table_arn));
      if (token != NULL)
        json_object_set_new (request, "NextToken", json_string (token));
      page = cli_exports_call (target, backend, "ListExports", request, table, NULL, NULL);
      json_decref (request);
      if (page == NULL)
        {
          status = 1;
          goto out;
        }
      summaries = json_object_get (page, "ExportSummaries");
      json_array_foreach (summaries, i, summary)
        {
          json_t *describe = json_pack ("{s:O}", "ExportArn", json_object_get (summary, "ExportArn"));
          json_t *answer = cli_exports_call (target, backend, "DescribeExport", describe, NULL,
                                             NULL, NULL);
          json_t *d = json_object_get (answer, "ExportDescription");

          json_decref (describe);
          if (answer == NULL)
            {
              status = 1;
              json_decref (page);
              goto out;
            }
          if (as_json)
            json_array_append (all, d);
          else
            {
              g_autofree char *when = listed_time (d);
              const char *format = json_string_value (json_object_get (d, "ExportFormat"));
              const char *type = json_string_value (json_object_get (d, "ExportType"));

              printf ("%-11s %-24s %-18s %-13s %s\n",
                      json_string_value (json_object_get (summary, "ExportStatus")), when,
                      type != NULL ? type : "FULL_EXPORT",
                      format != NULL ? format : "DYNAMODB_JSON",
                      json_string_value (json_object_get (summary, "ExportArn")));
            }
          json_decref (answer);
        }
      next = json_string_value (json_object_get (page, "NextToken"));
      g_free (token);
      token = next != NULL && *next != '\0' ? g_strdup (next) : NULL;
      json_decref (page);
    }
  while (token != NULL);
  if (as_json)
    print_json (all);
  if (fflush (stdout) != 0)
    status = 1;
out:
  json_decref (all);
  return status;
usage:
  json_decref (all);
  fprintf (stderr, "%s\n", _ ("Usage: dynoscope-cli [CONNECTION] exports list [--table T] [--json]"));
  return 2;
}

/* ---- exports describe ---- */

static int
exports_describe (const CliTarget *target, int argc, char **argv)
{
  gboolean as_json = FALSE;
  g_auto (GStrv) rest = NULL;
  g_autoptr (DdbBackend) backend = NULL;
  json_t *request, *response;
  int status = 0;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json,
      N_ ("Print DescribeExport's ExportDescription as JSON"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_ ("EXPORT_ARN") },
    { NULL },
  };

  if (!cli_exports_parse_options (
          _ ("Describe an export (DescribeExport): its status, times, type and format, items and "
             "size, where it is in S3 and why it failed if it did."),
          entries, &argc, &argv)
      || rest == NULL || rest[0] == NULL || rest[1] != NULL)
    {
      fprintf (stderr, "%s\n",
               _ ("Usage: dynoscope-cli [CONNECTION] exports describe EXPORT_ARN [--json]"));
      return 2;
    }
  backend = cli_exports_open (target, &status);
  if (backend == NULL)
    return status;
  request = json_pack ("{s:s}", "ExportArn", rest[0]);
  response = cli_exports_call (target, backend, "DescribeExport", request, NULL, NULL, NULL);
  json_decref (request);
  if (response == NULL)
    return 1;
  cli_exports_print_description (json_object_get (response, "ExportDescription"), as_json);
  json_decref (response);
  return fflush (stdout) == 0 ? 0 : 1;
}

/* ---- exports pitr ---- */

static void
print_backups (json_t *description)
{
  json_t *pitr = json_object_get (description, "PointInTimeRecoveryDescription");
  json_t *days = json_object_get (pitr, "RecoveryPeriodInDays");

  print_line (_ ("Point-in-time recovery"),
              json_string_value (json_object_get (pitr, "PointInTimeRecoveryStatus")));
  print_time_line (_ ("Earliest restorable"), json_object_get (pitr, "EarliestRestorableDateTime"));
  print_time_line (_ ("Latest restorable"), json_object_get (pitr, "LatestRestorableDateTime"));
  if (json_is_integer (days))
    printf ("%-*s %" JSON_INTEGER_FORMAT "\n", LABEL_WIDTH, _ ("Recovery period (days)"),
            json_integer_value (days));
  print_line (_ ("Continuous backups"),
              json_string_value (json_object_get (description, "ContinuousBackupsStatus")));
}

static int
exports_pitr (const CliTarget *target, int argc, char **argv)
{
  g_autofree char *table = NULL;
  gboolean enable = FALSE, disable = FALSE, as_json = FALSE;
  gint days = 0;
  g_auto (GStrv) rest = NULL;
  g_autoptr (DdbBackend) backend = NULL;
  json_t *request, *response;
  int status = 0;
  GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table, N_ ("The table (a name or ARN)"),
      N_ ("TABLE") },
    { "enable", 0, 0, G_OPTION_ARG_NONE, &enable,
      N_ ("Turn point-in-time recovery on (UpdateContinuousBackups)"), NULL },
    { "disable", 0, 0, G_OPTION_ARG_NONE, &disable,
      N_ ("Turn point-in-time recovery off (UpdateContinuousBackups)"), NULL },
    { "recovery-days", 0, 0, G_OPTION_ARG_INT, &days,
      N_ ("With --enable: how many days back it reaches (1 to 35; default 35)"), N_ ("DAYS") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json,
      N_ ("Print the ContinuousBackupsDescription as JSON"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    { NULL },
  };

  if (!cli_exports_parse_options (
          _ ("Show whether a table has point-in-time recovery (DescribeContinuousBackups), "
             "which exports need, and its restorable window; or turn it on or off."),
          entries, &argc, &argv))
    goto usage;
  if (rest != NULL || table == NULL || *table == '\0')
    {
      fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n",
               rest != NULL ? _ ("exports pitr takes no arguments") : _ ("--table is needed"));
      goto usage;
    }
  if (enable && disable)
    {
      fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n",
               _ ("--enable and --disable cannot be used together"));
      goto usage;
    }
  if (days != 0 && (!enable || days < 1 || days > 35))
    {
      fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n",
               _ ("--recovery-days goes with --enable and is from 1 to 35"));
      goto usage;
    }
  backend = cli_exports_open (target, &status);
  if (backend == NULL)
    return status;
  if (enable || disable)
    {
      json_t *spec = json_pack ("{s:b}", "PointInTimeRecoveryEnabled", enable);

      if (days != 0)
        json_object_set_new (spec, "RecoveryPeriodInDays", json_integer (days));
      request = json_pack ("{s:s, s:o}", "TableName", table,
                           "PointInTimeRecoverySpecification", spec);
      response = cli_exports_call (target, backend, "UpdateContinuousBackups", request, NULL,
                                   NULL, NULL);
    }
  else
    {
      request = json_pack ("{s:s}", "TableName", table);
      response = cli_exports_call (target, backend, "DescribeContinuousBackups", request, NULL,
                                   NULL, NULL);
    }
  json_decref (request);
  if (response == NULL)
    return 1;
  if (as_json)
    print_json (json_object_get (response, "ContinuousBackupsDescription"));
  else
    {
      print_line (_ ("Table"), table);
      print_backups (json_object_get (response, "ContinuousBackupsDescription"));
    }
  json_decref (response);
  return fflush (stdout) == 0 ? 0 : 1;
usage:
  fprintf (stderr, "%s\n",
           _ ("Usage: dynoscope-cli [CONNECTION] exports pitr --table T [--enable | --disable]"));
  return 2;
}

/* ---- Dispatch ---- */

static const CliSubcommand exports_commands[] = {
  { "list", "[--db PATH | --endpoint URL] exports list [--table T] [--json]", exports_list },
  { "describe", "[--db PATH | --endpoint URL] exports describe EXPORT_ARN [--json]",
    exports_describe },
  { "start",
    "[--db PATH | --endpoint URL] exports start --table T --bucket B [--prefix P] "
    "[--format json|ion] [--time TIME | --incremental --from TIME [--to TIME] [--view VIEW]] "
    "[--wait]",
    cli_exports_start_main },
  { "pitr", "[--db PATH | --endpoint URL] exports pitr --table T [--enable | --disable]",
    exports_pitr },
};

int
cli_exports_main (const CliTarget *target, int argc, char **argv)
{
  return cli_subcommand_run ("exports", exports_commands, G_N_ELEMENTS (exports_commands), target, argc, argv);
}
