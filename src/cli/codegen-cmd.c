/* codegen-cmd.c: `dynoscope-cli codegen --lang LANG [--endpoint URL] [--profile P] [--region R]
 * OPERATION [REQUEST_JSON | -]`: the request checked as DynamoDB checks it, then printed as a
 * complete program. */
#include <glib/gi18n.h>
#include <stdio.h>

#include "cli/call.h"
#include "cli/codegen-cmd.h"
#include "codegen/codegen.h"
#include "core/error.h"

#define CODEGEN_PREFIX "dynoscope-cli codegen: "
#define CODEGEN_USAGE                                                                            \
  N_ ("Usage: dynoscope-cli codegen --lang cli|python|js|java|go|rust [--endpoint URL] "         \
      "[--profile P] [--region R] OPERATION [REQUEST_JSON | -]")

int
cli_codegen_main (const CliTarget *target, int argc, char **argv)
{
  g_autofree char *lang_name = NULL;
  g_autofree char *endpoint = NULL;
  g_autofree char *profile = NULL;
  g_autofree char *region = NULL;
  g_auto (GStrv) rest = NULL;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *program = NULL;
  json_t *request;
  DdbLang lang;
  DdbCodegenTarget to;
  GOptionEntry entries[] = {
    { "lang", 'l', 0, G_OPTION_ARG_STRING, &lang_name,
      N_ ("The language: cli (AWS CLI v2, bash), python (boto3), js (AWS SDK v3), java (SDK "
          "v2), go (SDK v2) or rust (aws-sdk-dynamodb)"),
      N_ ("LANG") },
    { "endpoint", 0, 0, G_OPTION_ARG_STRING, &endpoint,
      N_ ("The endpoint the program talks to (default: the global --endpoint, else the SDK's)"),
      N_ ("URL") },
    { "profile", 0, 0, G_OPTION_ARG_STRING, &profile,
      N_ ("The AWS profile the program names (default: the global --profile)"), N_ ("NAME") },
    { "region", 0, 0, G_OPTION_ARG_STRING, &region,
      N_ ("The region the program names (default: the global --region)"), N_ ("REGION") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL,
      N_ ("OPERATION [REQUEST_JSON | -]") },
    { NULL },
  };

  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  summary = g_strdup_printf (
      "%s\n\n%s\n\n%s",
      _ ("Print a complete program that sends one DynamoDB request: OPERATION is GetItem, "
         "PutItem, UpdateItem, DeleteItem, Query, Scan, BatchGetItem, BatchWriteItem, "
         "TransactWriteItems or TransactGetItems, and the request is DynamoDB JSON (from "
         "REQUEST_JSON, or standard input when it is “-” or absent)."),
      _ ("Values stay exact in every language: numbers keep all their digits, binary its bytes, "
         "sets stay sets. Query and Scan programs follow LastEvaluatedKey to the end. No "
         "credentials are written: the program names the profile and the region."),
      _ ("Exit status: 0 with the program on standard output; 1 when DynamoDB would refuse the "
         "request (bad expression, unused placeholder, wrong types), printed as “ErrorName: "
         "message”; 2 on a usage error."));
  g_option_context_set_summary (octx, summary);
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      fprintf (stderr, CODEGEN_PREFIX "%s\n", error->message);
      return 2;
    }
  if (target->db_path != NULL)
    {
      fprintf (stderr, CODEGEN_PREFIX "%s\n",
               _ ("a program talks to an endpoint, not to a database file: give --endpoint URL "
                  "(for a database, the URL of `dynoscope-cli --db PATH serve`)"));
      return 2;
    }
  if (lang_name == NULL)
    {
      fprintf (stderr, CODEGEN_PREFIX "%s\n%s\n", _ ("missing --lang"), _ (CODEGEN_USAGE));
      return 2;
    }
  if (!ddb_lang_from_name (lang_name, &lang))
    {
      fprintf (stderr, CODEGEN_PREFIX "%s\n",
               _ ("--lang must be one of cli, python, js, java, go, rust"));
      return 2;
    }
  if (rest == NULL || rest[0] == NULL)
    {
      fprintf (stderr, CODEGEN_PREFIX "%s\n%s\n", _ ("missing OPERATION"), _ (CODEGEN_USAGE));
      return 2;
    }
  if (rest[1] != NULL && rest[2] != NULL)
    {
      fprintf (stderr, CODEGEN_PREFIX "%s\n%s\n", _ ("too many arguments"), _ (CODEGEN_USAGE));
      return 2;
    }

  request = cli_read_request (rest[1], &error);
  if (request == NULL)
    {
      if (error->domain == DDB_ERROR)
        fprintf (stderr, "%s: %s\n", ddb_error_type_name (error->code), error->message);
      else
        fprintf (stderr, CODEGEN_PREFIX "%s\n", error->message);
      return 1;
    }
  to.endpoint_url = endpoint != NULL ? endpoint : target->endpoint_url;
  to.profile = profile != NULL ? profile : target->profile;
  to.region = region != NULL ? region : target->region;
  program = ddb_codegen_program (lang, rest[0], request, &to, &error);
  json_decref (request);
  if (program == NULL)
    {
      fprintf (stderr, "%s: %s\n", ddb_error_type_name (error->code), error->message);
      return 1;
    }
  if (fputs (program, stdout) < 0 || fflush (stdout) != 0)
    {
      fprintf (stderr, CODEGEN_PREFIX "%s\n", _ ("cannot write the program"));
      return 1;
    }
  return 0;
}
