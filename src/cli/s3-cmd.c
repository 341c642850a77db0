/* s3-cmd.c: `dynoscope-cli s3 put s3://BUCKET/KEY FILE` (FILE "-": standard input) and
 * `dynoscope-cli s3 ls s3://BUCKET[/PREFIX]` over the S3 client (net/s3.h). An S3 error is
 * printed as S3 names it ("NoSuchBucket: The specified bucket does not exist. (s3://b/k)") on
 * standard error with exit status 1, which serve's export target (cli/serve-s3.c) reads back. */
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "backend/read-only.h"
#include "cli/subcommand.h"
#include "cli/interrupt.h"
#include "cli/mfa-prompt.h"
#include "cli/s3-cmd.h"
#include "net/s3.h"

#define S3_PREFIX "dynoscope-cli s3: "

/* The S3 client for the global options (--profile, --region, --ca-bundle) and --endpoint-url;
 * NULL with a message printed. */
static DdbS3 *
open_s3 (const CliTarget *target, const char *endpoint_url)
{
  DdbS3Options options = { 0 };
  g_autoptr (GError) error = NULL;
  DdbS3 *s3;

  options.profile = target->profile;
  options.region = target->region;
  options.ca_bundle = target->ca_bundle;
  options.endpoint_url = endpoint_url;
  options.mfa_prompt = cli_mfa_prompt;
  s3 = ddb_s3_new (&options, &error);
  if (s3 == NULL)
    fprintf (stderr, S3_PREFIX "%s\n", error->message);
  return s3;
}

/* An error of a request: S3's own as it names it, others after the command's prefix. */
static int
report (const GError *error)
{
  if (error->domain == DDB_S3_ERROR)
    fprintf (stderr, "%s\n", error->message);
  else
    fprintf (stderr, S3_PREFIX "%s\n", error->message);
  return 1;
}

/* Standard input, whole. */
static GBytes *
read_stdin (GError **error)
{
  GByteArray *buf = g_byte_array_new ();
  guint8 chunk[65536];
  size_t n;

  while ((n = fread (chunk, 1, sizeof chunk, stdin)) > 0)
    g_byte_array_append (buf, chunk, (guint) n);
  if (ferror (stdin))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO, _ ("cannot read standard input"));
      g_byte_array_unref (buf);
      return NULL;
    }
  return g_byte_array_free_to_bytes (buf);
}

/* Parses the options of a subcommand (ENTRIES, then the remaining arguments into *REST);
 * FALSE with a message printed. */
static gboolean
parse_options (const char *summary, GOptionEntry *entries, int *argc, char ***argv)
{
  g_autoptr (GOptionContext) octx = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;

  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (octx, summary);
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, argc, argv, &error))
    {
      fprintf (stderr, S3_PREFIX "%s\n", error->message);
      return FALSE;
    }
  return TRUE;
}

static int
s3_put (const CliTarget *target, int argc, char **argv)
{
  g_autofree char *endpoint = NULL, *content_type = NULL;
  g_auto (GStrv) rest = NULL;
  g_autofree char *bucket = NULL, *key = NULL, *etag = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) data = NULL;
  g_autoptr (DdbS3) s3 = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  GOptionEntry entries[] = {
    { "endpoint-url", 0, 0, G_OPTION_ARG_STRING, &endpoint,
      N_ ("The S3 endpoint (default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the profile's, "
          "else the region's S3)"),
      N_ ("URL") },
    { "content-type", 0, 0, G_OPTION_ARG_STRING, &content_type,
      N_ ("The object's Content-Type (default application/octet-stream)"), N_ ("TYPE") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
      N_ ("s3://BUCKET/KEY FILE") },
    { NULL },
  };

  if (!parse_options (_ ("Write FILE (standard input when FILE is “-”) to the object "
                         "s3://BUCKET/KEY with PutObject, signed with the profile's credentials, "
                         "and print its ETag. S3's errors are printed as S3 names them "
                         "(“NoSuchBucket: …”) with exit status 1."),
                      entries, &argc, &argv))
    return 2;
  if (rest == NULL || rest[0] == NULL || rest[1] == NULL || rest[2] != NULL)
    {
      fprintf (stderr, "%s\n", _ ("Usage: dynoscope-cli s3 put s3://BUCKET/KEY FILE"));
      return 2;
    }
  if (!ddb_s3_parse_url (rest[0], &bucket, &key, &error))
    {
      fprintf (stderr, S3_PREFIX "%s\n", error->message);
      return 2;
    }
  if (*key == '\0' || g_str_has_suffix (key, "/"))
    {
      fprintf (stderr, S3_PREFIX "%s\n", _ ("put needs an object key: s3://BUCKET/KEY"));
      return 2;
    }
  if (target->read_only)
    {
      ddb_backend_set_read_only_error (&error, "s3 put");
      fprintf (stderr, S3_PREFIX "%s\n", error->message);
      return 1;
    }
  if (strcmp (rest[1], "-") == 0)
    data = read_stdin (&error);
  else
    {
      char *contents = NULL;
      gsize len = 0;

      if (g_file_get_contents (rest[1], &contents, &len, &error))
        data = g_bytes_new_take (contents, len);
    }
  if (data == NULL)
    {
      fprintf (stderr, S3_PREFIX "%s\n", error->message);
      return 1;
    }
  s3 = open_s3 (target, endpoint);
  if (s3 == NULL)
    return 2;
  cli_interrupt_cancels (cancellable);
  if (!ddb_s3_put_object (s3, bucket, key, data, content_type, cancellable, &etag, NULL,
                          &error))
    return report (error);
  cli_interrupt_cancels (NULL);
  printf ("%s\n", etag != NULL ? etag : "");
  return 0;
}

/* "2026-12-06T07:00:00Z", or blanks of that width when unknown. */
static char *
format_time (gint64 when)
{
  g_autoptr (GDateTime) dt = when > 0 ? g_date_time_new_from_unix_utc (when) : NULL;

  return dt != NULL ? g_date_time_format (dt, "%Y-%m-%dT%H:%M:%SZ")
                    : g_strnfill (20, ' ');
}

static int
s3_ls (const CliTarget *target, int argc, char **argv)
{
  g_autofree char *endpoint = NULL;
  gboolean recursive = FALSE;
  g_auto (GStrv) rest = NULL;
  g_autofree char *bucket = NULL, *prefix = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbS3) s3 = NULL;
  g_autoptr (DdbS3Listing) listing = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  GOptionEntry entries[] = {
    { "endpoint-url", 0, 0, G_OPTION_ARG_STRING, &endpoint,
      N_ ("The S3 endpoint (default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the profile's, "
          "else the region's S3)"),
      N_ ("URL") },
    { "recursive", 'r', 0, G_OPTION_ARG_NONE, &recursive,
      N_ ("List every key under the prefix, not only the next level (folders end with “/”)"),
      NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
      N_ ("s3://BUCKET[/PREFIX]") },
    { NULL },
  };

  if (!parse_options (_ ("List the objects of a bucket under PREFIX (ListObjectsV2, every page), "
                         "one a line: last modified time, size in bytes and key. Without "
                         "--recursive, the keys one level down show as folders (“PRE "
                         "KEY/”), as “aws s3 ls” shows them."),
                      entries, &argc, &argv))
    return 2;
  if (rest == NULL || rest[0] == NULL || rest[1] != NULL)
    {
      fprintf (stderr, "%s\n", _ ("Usage: dynoscope-cli s3 ls s3://BUCKET[/PREFIX]"));
      return 2;
    }
  if (!ddb_s3_parse_url (rest[0], &bucket, &prefix, &error))
    {
      fprintf (stderr, S3_PREFIX "%s\n", error->message);
      return 2;
    }
  s3 = open_s3 (target, endpoint);
  if (s3 == NULL)
    return 2;
  cli_interrupt_cancels (cancellable);
  listing = ddb_s3_list_objects (s3, bucket, prefix, recursive ? NULL : "/", cancellable, NULL,
                                 &error);
  if (listing == NULL)
    return report (error);
  cli_interrupt_cancels (NULL);
  for (guint i = 0; i < listing->common_prefixes->len; i++)
    printf ("%20s %12s %s\n", "", "PRE", (char *) g_ptr_array_index (listing->common_prefixes, i));
  for (guint i = 0; i < listing->objects->len; i++)
    {
      const DdbS3Object *o = g_ptr_array_index (listing->objects, i);
      g_autofree char *when = format_time (o->last_modified);

      printf ("%s %12" G_GUINT64_FORMAT " %s\n", when, o->size, o->key);
    }
  return fflush (stdout) == 0 ? 0 : 1;
}

static const CliSubcommand s3_commands[] = {
  { "put", "[--profile P] [--region R] s3 put [--endpoint-url URL] s3://BUCKET/KEY FILE",
    s3_put },
  { "ls", "[--profile P] [--region R] s3 ls [--endpoint-url URL] [--recursive] "
          "s3://BUCKET[/PREFIX]",
    s3_ls },
};

int
cli_s3_main (const CliTarget *target, int argc, char **argv)
{
  if (argc >= 2 && !cli_subcommand_is_help (argv[1])
      && (target->db_path != NULL || target->endpoint_url != NULL))
    {
      fprintf (stderr, S3_PREFIX "%s\n",
               _ ("--db and --endpoint name a DynamoDB connection; s3 takes --profile, "
                  "--region and --ca-bundle (and --endpoint-url after the subcommand)"));
      return 2;
    }
  return cli_subcommand_run ("s3", s3_commands, G_N_ELEMENTS (s3_commands), target, argc, argv);
}
