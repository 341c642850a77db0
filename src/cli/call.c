/* call.c: `dynoscope-cli --db PATH call OPERATION [REQUEST_JSON | -]` (or --endpoint URL,
 * --profile NAME, --region R instead of --db): sends one request, as DynamoDB's JSON 1.0 API
 * takes it, through the backend seam (the embedded engine or a remote endpoint) and prints the
 * response. The output is
 * a stable interface for scripts: the response JSON on standard output; a DynamoDB error as
 * "ErrorName: message" on standard error (plus, on the next line, the error's extra members such as
 * CancellationReasons, as JSON) with exit status 1; a usage error exits with 2. */
#include <glib/gi18n.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/call.h"
#include "core/error.h"

#define CALL_PREFIX "dynoscope-cli call: "
#define CALL_USAGE                                                                               \
  N_ ("Usage: dynoscope-cli [--db PATH | --endpoint URL] [--profile NAME] [--region R] call "    \
      "OPERATION [REQUEST_JSON | -]")

/* Reads all of `in`; NULL (with errno-style message in *error) on a read error. */
static char *
read_all (FILE *in, gsize *len, GError **error)
{
  GString *buf = g_string_new (NULL);
  char chunk[8192];
  size_t n;

  while ((n = fread (chunk, 1, sizeof chunk, in)) > 0)
    g_string_append_len (buf, chunk, (gssize) n);
  if (ferror (in))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO, _ ("cannot read standard input"));
      g_string_free (buf, TRUE);
      return NULL;
    }
  *len = buf->len;
  return g_string_free (buf, FALSE);
}

static gboolean
is_blank (const char *text, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isspace (text[i]))
      return FALSE;
  return TRUE;
}

/* The request as a JSON object. Malformed JSON is what DynamoDB answers with a
 * SerializationException, so it is reported the same way (exit status 1, not a usage error). */
static json_t *
parse_request (const char *text, gsize len, GError **error)
{
  json_error_t jerr;
  json_t *root;

  /* An empty request is the empty object: `call ListTables` needs no body. */
  if (is_blank (text, len))
    return json_object ();
  root = json_loadb (text, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
  if (root == NULL)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_SERIALIZATION,
                   _ ("The request is not valid JSON: %s (line %d, column %d)"), jerr.text,
                   jerr.line, jerr.column);
      return NULL;
    }
  if (!json_is_object (root))
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_SERIALIZATION,
                   _ ("The request must be a JSON object, such as {\"TableName\": \"t\"}"));
      json_decref (root);
      return NULL;
    }
  return root;
}

json_t *
cli_read_request (const char *source, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;

  if (source != NULL && strcmp (source, "-") != 0)
    {
      text = g_strdup (source);
      len = strlen (text);
    }
  else if (source == NULL && isatty (STDIN_FILENO))
    {
      text = g_strdup ("{}");
      len = 2;
    }
  else
    {
      text = read_all (stdin, &len, error);
      if (text == NULL)
        return NULL;
    }
  return parse_request (text, len, error);
}

static const char *
error_name (const GError *error)
{
  return ddb_backend_error_name (error, NULL);
}

static gboolean
print_json (FILE *out, json_t *json, gboolean pretty)
{
  /* Members keep the engine's order; numbers in DynamoDB JSON are strings, so every digit is kept. */
  size_t flags = pretty ? JSON_INDENT (2) : JSON_COMPACT;
  char *text = json_dumps (json, flags);
  gboolean ok;

  if (text == NULL)
    return FALSE;
  ok = fputs (text, out) >= 0 && fputc ('\n', out) != EOF;
  free (text);
  return ok;
}

int
cli_call_main (const CliTarget *target, int argc, char **argv)
{
  gboolean pretty = FALSE, compact = FALSE;
  g_auto (GStrv) rest = NULL;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = NULL;
  gboolean config_error = FALSE;
  g_autofree char *summary = NULL;
  json_t *request = NULL;
  json_t *response = NULL;
  const char *operation;
  const char *source = NULL;
  gboolean use_pretty;
  int status = 0;
  GOptionEntry entries[] = {
    { "pretty", 0, 0, G_OPTION_ARG_NONE, &pretty,
      N_ ("Indent the response JSON (the default when standard output is a terminal)"), NULL },
    { "compact", 0, 0, G_OPTION_ARG_NONE, &compact,
      N_ ("Print the response JSON on one line (the default otherwise)"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL,
      N_ ("OPERATION [REQUEST_JSON | -]") },
    { NULL },
  };

  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  summary = g_strdup_printf (
      "%s\n\n%s\n\n%s\n\n%s",
      _ ("Send one DynamoDB API request (OPERATION is PutItem, Query, CreateTable, …) to the "
         "database given with --db, or to a DynamoDB endpoint (--endpoint URL, or else the "
         "profile's endpoint or its region's standard endpoint; --profile and --region choose), "
         "and print the response JSON on standard output. The DynamoDB Streams API is there "
         "too, under its whole target name: DynamoDBStreams_20120810.ListStreams, "
         "DynamoDBStreams_20120810.DescribeStream, DynamoDBStreams_20120810.GetShardIterator, "
         "DynamoDBStreams_20120810.GetRecords."),
      _ ("The request is DynamoDB JSON, as in the DynamoDB API reference. It is read from "
         "REQUEST_JSON, or from standard input when REQUEST_JSON is “-” or absent; empty input "
         "is the empty request {}. With no REQUEST_JSON and a terminal on standard input, the "
         "request is {}."),
      _ ("The response is indented when standard output is a terminal and on one line "
         "otherwise (--pretty and --compact choose). Numbers keep every digit."),
      _ ("Exit status: 0 on success; 1 on a DynamoDB error, printed on standard error as "
         "“ErrorName: message”, followed by a line of JSON with the error's extra members when "
         "it has some (CancellationReasons of a TransactionCanceledException), or when the "
         "endpoint cannot be reached (after the retries); 2 on a usage or configuration error "
         "(no region, unknown profile, invalid endpoint)."));
  g_option_context_set_summary (octx, summary);
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      fprintf (stderr, CALL_PREFIX "%s\n", error->message);
      return 2;
    }
  if (pretty && compact)
    {
      fprintf (stderr, CALL_PREFIX "%s\n", _ ("--pretty and --compact cannot be used together"));
      return 2;
    }
  if (rest == NULL || rest[0] == NULL)
    {
      fprintf (stderr, CALL_PREFIX "%s\n%s\n", _ ("missing OPERATION"), _ (CALL_USAGE));
      return 2;
    }
  if (rest[1] != NULL && rest[2] != NULL)
    {
      fprintf (stderr, CALL_PREFIX "%s\n%s\n", _ ("too many arguments"), _ (CALL_USAGE));
      return 2;
    }
  operation = rest[0];
  source = rest[1];

  request = cli_read_request (source, &error);
  if (request == NULL)
    {
      if (error->domain == DDB_ERROR)
        fprintf (stderr, "%s: %s\n", error_name (error), error->message);
      else
        fprintf (stderr, CALL_PREFIX "%s\n", error->message);
      return 1;
    }

  backend = cli_target_open (target, &config_error, &error);
  if (backend == NULL)
    {
      fprintf (stderr, CALL_PREFIX "%s\n", error->message);
      json_decref (request);
      return config_error ? 2 : 1;
    }

  use_pretty = pretty || (!compact && isatty (STDOUT_FILENO));
  if (ddb_backend_call (backend, operation, request, NULL, &response, &error))
    {
      if (!print_json (stdout, response, use_pretty) || fflush (stdout) != 0)
        {
          fprintf (stderr, CALL_PREFIX "%s\n", _ ("cannot write the response"));
          status = 1;
        }
    }
  else if (error->domain == DDB_ERROR)
    {
      json_t *extra = ddb_backend_error_extra_members (response);

      fprintf (stderr, "%s: %s\n", ddb_backend_error_name (error, response), error->message);
      if (extra != NULL)
        print_json (stderr, extra, isatty (STDERR_FILENO));
      json_decref (extra);
      status = 1;
    }
  else
    {
      /* No answer from DynamoDB: the endpoint could not be reached, credentials failed. */
      fprintf (stderr, CALL_PREFIX "%s\n", error->message);
      status = 1;
    }
  json_decref (response);
  json_decref (request);
  return status;
}
