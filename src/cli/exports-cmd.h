/* exports-cmd.h: `dynoscope-cli [CONNECTION] exports list|describe|start|pitr`: a live table's
 * exports to S3 through the DynamoDB API (ListExports, DescribeExport,
 * ExportTableToPointInTime, DescribeContinuousBackups / UpdateContinuousBackups), on the
 * connection's backend as `call` sends requests; writes refused on a read-only connection. */
#pragma once

#include <jansson.h>

#include "cli/target.h"

/* Exit status: 0 success; 1 on a DynamoDB error ("ErrorName: message" on standard error), an
 * unreachable endpoint or an export that FAILED while waited for; 2 on a usage or
 * configuration error; 130 when Ctrl-C stopped waiting (the export goes on). */
int cli_exports_main (const CliTarget *target, int argc, char **argv);

/* ---- Shared by exports-cmd.c and exports-start.c ---- */

#define CLI_EXPORTS_PREFIX "dynoscope-cli exports: "

/* Parses a subcommand's options (SUMMARY shown by --help); FALSE with the message printed. */
gboolean cli_exports_parse_options (const char *summary, GOptionEntry *entries, int *argc,
                                    char ***argv);
/* Opens the connection; NULL with the message printed and *STATUS the exit status. */
DdbBackend *cli_exports_open (const CliTarget *target, int *status);
/* Sends OPERATION; on failure prints the error (with the hint to turn point-in-time recovery
 * on for TABLE when that is what is missing) and returns NULL. */
json_t *cli_exports_call (const CliTarget *target, DdbBackend *backend, const char *operation,
                          json_t *request, const char *table, GCancellable *cancellable,
                          GError **error);
/* TABLE's ARN (TABLE itself when it is one, else DescribeTable's TableArn); NULL with the error
 * printed. */
char *cli_exports_table_arn (const CliTarget *target, DdbBackend *backend, const char *table);
/* TEXT as seconds since the epoch: ISO 8601 ("2026-01-31T12:00:00Z"; UTC when no zone is
 * given; a date alone is its midnight UTC) or a number of seconds. */
gboolean cli_exports_parse_time (const char *text, gdouble *seconds);
/* An API timestamp (seconds since the epoch, a JSON number) as ISO 8601 in UTC, with
 * milliseconds when it has some; NULL for a missing or non-number value. */
char *cli_exports_format_time (json_t *value);
/* `exports start` (exports-start.c). */
int cli_exports_start_main (const CliTarget *target, int argc, char **argv);
/* An ExportDescription, one "Label  value" line each, or as JSON. */
void cli_exports_print_description (json_t *description, gboolean as_json);
