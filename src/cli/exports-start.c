/* exports-start.c: `dynoscope-cli exports start`: ExportTableToPointInTime, full or incremental,
 * and with --wait, DescribeExport polled until the export ends (a progress line on a terminal;
 * Ctrl-C stops waiting and leaves the export running, saying so). */
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/exports-cmd.h"
#include "cli/interrupt.h"

/* Polling: first after this long, then half as long again each time, up to the maximum. */
#define POLL_FIRST_MS 200
#define POLL_MAX_MS 2000

/* SECONDS as a JSON number: an integer when whole, as AWS's SDKs send timestamps. */
static json_t *
time_json (gdouble seconds)
{
  if (seconds == (gdouble) (gint64) seconds)
    return json_integer ((json_int_t) seconds);
  return json_real (seconds);
}

/* --format: json (DYNAMODB_JSON) or ion (ION), in any case. */
static const char *
format_name (const char *format)
{
  if (format == NULL || g_ascii_strcasecmp (format, "json") == 0
      || g_ascii_strcasecmp (format, "dynamodb_json") == 0)
    return "DYNAMODB_JSON";
  if (g_ascii_strcasecmp (format, "ion") == 0)
    return "ION";
  return NULL;
}

/* --view: NEW_IMAGE or NEW_AND_OLD_IMAGES (the default, as AWS's). */
static const char *
view_name (const char *view)
{
  if (view == NULL || g_ascii_strcasecmp (view, "NEW_AND_OLD_IMAGES") == 0)
    return "NEW_AND_OLD_IMAGES";
  if (g_ascii_strcasecmp (view, "NEW_IMAGE") == 0)
    return "NEW_IMAGE";
  return NULL;
}

/* Sleeps MS milliseconds unless CANCELLABLE is cancelled first; FALSE when it is. */
static gboolean
sleep_unless_cancelled (GCancellable *cancellable, guint ms)
{
  gint64 until = g_get_monotonic_time () + (gint64) ms * 1000;

  while (!g_cancellable_is_cancelled (cancellable))
    {
      gint64 left = until - g_get_monotonic_time ();

      if (left <= 0)
        return TRUE;
      g_usleep ((gulong) MIN (left, 50000));
    }
  return FALSE;
}

/* Clears a progress line on standard error. */
static void
clear_progress (gboolean progress)
{
  if (progress)
    fprintf (stderr, "\r\033[K");
}

/* Polls DescribeExport until ARN is no longer IN_PROGRESS; the last description (new
 * reference), or NULL with *STATUS set (1: an error, printed; 130: Ctrl-C, said). On a
 * database file the export runs in this process: Ctrl-C ends it. */
static json_t *
wait_for (const CliTarget *target, DdbBackend *backend, const char *arn, int *status)
{
  gboolean local = !cli_target_is_remote (target);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  gboolean progress = isatty (STDERR_FILENO);
  gint64 started = g_get_monotonic_time ();
  guint delay = POLL_FIRST_MS;
  json_t *request = json_pack ("{s:s}", "ExportArn", arn);
  json_t *result = NULL;

  cli_interrupt_cancels (cancellable);
  for (;;)
    {
      g_autoptr (GError) error = NULL;
      json_t *response = cli_exports_call (target, backend, "DescribeExport", request, NULL,
                                           cancellable, &error);
      json_t *d = json_object_get (response, "ExportDescription");
      const char *state = json_string_value (json_object_get (d, "ExportStatus"));

      if (response == NULL && !g_cancellable_is_cancelled (cancellable))
        {
          clear_progress (progress);
          *status = 1;
          break;
        }
      if (state != NULL && strcmp (state, "IN_PROGRESS") != 0)
        {
          clear_progress (progress);
          result = json_incref (d);
          json_decref (response);
          break;
        }
      json_decref (response);
      if (progress && !g_cancellable_is_cancelled (cancellable))
        {
          gint64 seconds = (g_get_monotonic_time () - started) / G_USEC_PER_SEC;

          fprintf (stderr, "\r\033[K");
          if (local)
            fprintf (stderr, _ ("Exporting… %d s (Ctrl-C stops the export)"),
                     (int) MIN (seconds, G_MAXINT));
          else
            fprintf (stderr, _ ("Exporting… %d s (Ctrl-C stops waiting; the export goes on)"),
                     (int) MIN (seconds, G_MAXINT));
          fflush (stderr);
        }
      if (g_cancellable_is_cancelled (cancellable)
          || !sleep_unless_cancelled (cancellable, delay))
        {
          clear_progress (progress);
          if (local)
            fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n",
                     _ ("stopped: the export ran in this process and ends with it"));
          else
            {
              fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n",
                       _ ("stopped waiting; the export was not cancelled and goes on"));
              fprintf (stderr, _ ("See how it ends with: dynoscope-cli exports describe %s\n"),
                       arn);
            }
          *status = 130;
          break;
        }
      delay = MIN (delay * 3 / 2, POLL_MAX_MS);
    }
  cli_interrupt_cancels (NULL);
  json_decref (request);
  return result;
}

int
cli_exports_start_main (const CliTarget *target, int argc, char **argv)
{
  g_autofree char *table = NULL, *bucket = NULL, *prefix = NULL, *format = NULL;
  g_autofree char *from = NULL, *to = NULL, *view = NULL, *at = NULL, *owner = NULL;
  gboolean incremental = FALSE, wait = FALSE, as_json = FALSE;
  g_auto (GStrv) rest = NULL;
  g_autoptr (DdbBackend) backend = NULL;
  g_autofree char *table_arn = NULL;
  g_autofree char *token = NULL;
  gdouble from_s = 0, to_s = 0, at_s = 0;
  const char *format_value, *view_value;
  json_t *request = NULL, *response = NULL, *d;
  int status = 0;
  GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table, N_ ("The table (a name or ARN)"),
      N_ ("TABLE") },
    { "bucket", 0, 0, G_OPTION_ARG_STRING, &bucket, N_ ("The S3 bucket to export into"),
      N_ ("BUCKET") },
    { "prefix", 0, 0, G_OPTION_ARG_STRING, &prefix,
      N_ ("The key prefix in the bucket (the export goes under PREFIX/AWSDynamoDB/)"),
      N_ ("PREFIX") },
    { "bucket-owner", 0, 0, G_OPTION_ARG_STRING, &owner,
      N_ ("The account that owns the bucket, when it is another one"), N_ ("ACCOUNT") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format,
      N_ ("json (DynamoDB JSON, the default) or ion (Amazon Ion)"), N_ ("FORMAT") },
    { "time", 0, 0, G_OPTION_ARG_STRING, &at,
      N_ ("A full export of the table as it was at TIME (default: now)"), N_ ("TIME") },
    { "incremental", 0, 0, G_OPTION_ARG_NONE, &incremental,
      N_ ("An incremental export: the changes from --from to --to"), NULL },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from,
      N_ ("With --incremental: the start of the changes (included)"), N_ ("TIME") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to,
      N_ ("With --incremental: their end (excluded; default: the latest time)"), N_ ("TIME") },
    { "view", 0, 0, G_OPTION_ARG_STRING, &view,
      N_ ("With --incremental: NEW_AND_OLD_IMAGES (the default) or NEW_IMAGE"), N_ ("VIEW") },
    { "wait", 'w', 0, G_OPTION_ARG_NONE, &wait,
      N_ ("Wait until the export ends (DescribeExport polled), then describe it; Ctrl-C stops "
          "waiting without cancelling the export. Always, on a database file (--db): the export "
          "runs in this process"),
      NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json,
      N_ ("Print the ExportDescription as JSON instead of the export's ARN (or, with --wait, "
          "its description)"),
      NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    { NULL },
  };

  if (!cli_exports_parse_options (
          _ ("Start an export of a table to S3 (ExportTableToPointInTime), which needs "
             "point-in-time recovery on the table (see exports pitr): a full export as of --time, "
             "or with --incremental the changes between --from and --to. TIME is ISO 8601 "
             "(2026-01-31T12:00:00Z; UTC when no zone is given) or seconds since the epoch. "
             "Prints the export's ARN; with --wait, waits for it to end and describes it, and "
             "exits 1 when it FAILED."),
          entries, &argc, &argv))
    goto usage;
  if (rest != NULL)
    {
      fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n", _ ("exports start takes no arguments"));
      goto usage;
    }
  if (table == NULL || *table == '\0' || bucket == NULL || *bucket == '\0')
    {
      fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n", _ ("--table and --bucket are needed"));
      goto usage;
    }
  format_value = format_name (format);
  view_value = view_name (view);
  if (format_value == NULL)
    {
      fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n", _ ("--format must be json or ion"));
      goto usage;
    }
  if (view_value == NULL)
    {
      fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n",
               _ ("--view must be NEW_AND_OLD_IMAGES or NEW_IMAGE"));
      goto usage;
    }
  if (incremental ? (at != NULL || from == NULL) : (from != NULL || to != NULL || view != NULL))
    {
      fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n",
               incremental ? _ ("--incremental needs --from (and takes no --time)")
                           : _ ("--from, --to and --view go with --incremental"));
      goto usage;
    }
  {
    const struct {
      const char *option, *text;
      gdouble *seconds;
    } times[] = { { "--time", at, &at_s }, { "--from", from, &from_s }, { "--to", to, &to_s } };

    for (gsize i = 0; i < G_N_ELEMENTS (times); i++)
      if (times[i].text != NULL && !cli_exports_parse_time (times[i].text, times[i].seconds))
        {
          fprintf (stderr,
                   _ ("dynoscope-cli exports: %s: “%s” is not a time: give ISO 8601 "
                      "(2026-01-31T12:00:00Z) or seconds since the epoch\n"),
                   times[i].option, times[i].text);
          goto usage;
        }
  }
  if (from != NULL && to != NULL && to_s <= from_s)
    {
      fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n", _ ("--to must be after --from"));
      goto usage;
    }

  backend = cli_exports_open (target, &status);
  if (backend == NULL)
    return status;
  /* On a database file the export runs in this process, which it would end with. */
  if (!cli_target_is_remote (target))
    wait = TRUE;
  table_arn = cli_exports_table_arn (target, backend, table);
  if (table_arn == NULL)
    return 1;
  /* A token of its own, so that a request the client retries starts one export only. */
  token = g_uuid_string_random ();
  request = json_pack ("{s:s, s:s, s:s, s:s, s:s}", "TableArn", table_arn, "S3Bucket", bucket,
                       "ExportFormat", format_value, "ClientToken", token, "ExportType",
                       incremental ? "INCREMENTAL_EXPORT" : "FULL_EXPORT");
  if (prefix != NULL)
    json_object_set_new (request, "S3Prefix", json_string (prefix));
  if (owner != NULL)
    json_object_set_new (request, "S3BucketOwner", json_string (owner));
  if (at != NULL)
    json_object_set_new (request, "ExportTime", time_json (at_s));
  if (incremental)
    {
      json_t *spec = json_pack ("{s:o, s:s}", "ExportFromTime", time_json (from_s),
                                "ExportViewType", view_value);

      if (to != NULL)
        json_object_set_new (spec, "ExportToTime", time_json (to_s));
      json_object_set_new (request, "IncrementalExportSpecification", spec);
    }
  response = cli_exports_call (target, backend, "ExportTableToPointInTime", request, table,
                               NULL, NULL);
  json_decref (request);
  if (response == NULL)
    return 1;
  d = json_object_get (response, "ExportDescription");
  if (!json_is_string (json_object_get (d, "ExportArn")))
    {
      fprintf (stderr, CLI_EXPORTS_PREFIX "%s\n",
               _ ("ExportTableToPointInTime's answer has no ExportArn"));
      json_decref (response);
      return 1;
    }
  if (wait)
    {
      json_t *last = wait_for (target, backend,
                               json_string_value (json_object_get (d, "ExportArn")), &status);

      if (last != NULL)
        {
          const char *state = json_string_value (json_object_get (last, "ExportStatus"));

          cli_exports_print_description (last, as_json);
          if (strcmp (state, "COMPLETED") != 0)
            {
              const char *code = json_string_value (json_object_get (last, "FailureCode"));
              const char *message = json_string_value (json_object_get (last, "FailureMessage"));

              fprintf (stderr, _ ("dynoscope-cli exports: the export ended %s: %s%s%s\n"), state,
                       code != NULL ? code : "", code != NULL ? ": " : "",
                       message != NULL ? message : "");
              status = 1;
            }
          json_decref (last);
        }
    }
  else if (as_json)
    cli_exports_print_description (d, TRUE);
  else
    printf ("%s\n", json_string_value (json_object_get (d, "ExportArn")));
  json_decref (response);
  if (fflush (stdout) != 0 && status == 0)
    status = 1;
  return status;
usage:
  fprintf (stderr, "%s\n",
           _ ("Usage: dynoscope-cli [CONNECTION] exports start --table T --bucket B [--prefix P] "
              "[--format json|ion] [--time TIME | --incremental --from TIME [--to TIME] "
              "[--view VIEW]] [--wait]"));
  return 2;
}
