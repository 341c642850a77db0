/* s3-tool.c: src/net/s3.c driven from the command line, for run-s3-tests.py: each command prints
 * one JSON object (an "error" member on failure, exit status 1).
 *
 *   s3-tool sign < CASES.json          URL, Host and signed headers of each case (no network)
 *   s3-tool [OPTS] put BUCKET KEY FILE
 *   s3-tool [OPTS] get BUCKET KEY FILE [--start N] [--if-match ETAG] [--repeat N]
 *   s3-tool [OPTS] get-parallel BUCKET KEY N   N threads download it at once (sizes, MD5s)
 *   s3-tool [OPTS] head BUCKET KEY
 *   s3-tool [OPTS] list BUCKET [--prefix P] [--delimiter D]
 *   s3-tool [OPTS] bucket-region BUCKET
 *
 * OPTS: --endpoint URL, --region R, --profile P, --style auto|path|virtual, --max-attempts N,
 * --idle-timeout-ms N, --base-delay-ms N. Credentials and everything else come from the
 * environment, as for the AWS CLI. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/s3.h"

static json_t *
error_json (const GError *error)
{
  return json_pack ("{s:{s:s, s:i, s:s}}", "error", "domain", g_quark_to_string (error->domain),
                    "code", error->code, "message", error->message);
}

static int
print_json (json_t *obj)
{
  char *text = json_dumps (obj, JSON_COMPACT | JSON_ENSURE_ASCII);
  int rc = json_object_get (obj, "error") != NULL ? 1 : 0;

  puts (text);
  free (text);
  json_decref (obj);
  return rc;
}

static json_t *
info_json (const DdbS3CallInfo *info)
{
  return json_pack ("{s:i, s:i, s:i}", "attempts", info->attempts, "resumes", info->resumes,
                    "redirects", info->redirects);
}

/* ---- sign: one case ---- */

static json_t *
sign_case (json_t *c)
{
  const char *method = json_string_value (json_object_get (c, "method"));
  const char *endpoint = json_string_value (json_object_get (c, "endpoint"));
  const char *style_s = json_string_value (json_object_get (c, "style"));
  const char *bucket = json_string_value (json_object_get (c, "bucket"));
  const char *key = json_string_value (json_object_get (c, "key"));
  const char *query = json_string_value (json_object_get (c, "query"));
  const char *body_b64 = json_string_value (json_object_get (c, "body_b64"));
  const char *region = json_string_value (json_object_get (c, "region"));
  json_t *in_headers = json_object_get (c, "headers");
  DdbCredentials creds = { 0 };
  DdbS3AddressingStyle style = DDB_S3_ADDRESSING_AUTO;
  DdbS3Target target = { 0 };
  DdbHttpHeader headers[24];
  DdbSignature sig = { 0 };
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *body = NULL;
  gsize body_len = 0;
  guint n = 0;
  json_t *out, *hs;

  creds.access_key_id = json_string_value (json_object_get (c, "akid"));
  creds.secret_access_key = json_string_value (json_object_get (c, "secret"));
  creds.session_token = json_string_value (json_object_get (c, "token"));
  if (style_s != NULL && strcmp (style_s, "path") == 0)
    style = DDB_S3_ADDRESSING_PATH;
  else if (style_s != NULL && strcmp (style_s, "virtual") == 0)
    style = DDB_S3_ADDRESSING_VIRTUAL;
  if (body_b64 != NULL && *body_b64 != '\0')
    body = g_base64_decode (body_b64, &body_len);
  for (size_t i = 0; i < json_array_size (in_headers) && n < 16; i++)
    {
      json_t *h = json_array_get (in_headers, i);

      headers[n++] = (DdbHttpHeader) { json_string_value (json_array_get (h, 0)),
                                       json_string_value (json_array_get (h, 1)) };
    }
  {
    g_autofree char *standard = endpoint == NULL ? ddb_s3_standard_endpoint (region) : NULL;

    if (!ddb_s3_target_build (endpoint != NULL ? endpoint : standard, endpoint != NULL, style,
                              bucket, key, query, &target, &error)
        || !ddb_s3_sign (method, &target, &creds, region,
                         (gint64) json_integer_value (json_object_get (c, "time")), body,
                         body_len, headers, &n, G_N_ELEMENTS (headers), &sig, &error))
      {
        ddb_s3_target_clear (&target);
        return error_json (error);
      }
  }
  hs = json_array ();
  for (guint i = 0; i < n; i++)
    json_array_append_new (hs, json_pack ("[s, s]", headers[i].name, headers[i].value));
  out = json_pack ("{s:s, s:s, s:s, s:o, s:s}", "url", target.url, "host", target.host, "path",
                   target.path, "headers", hs, "canonical_request", sig.canonical_request);
  ddb_signature_clear (&sig);
  ddb_s3_target_clear (&target);
  return out;
}

static int
cmd_sign (void)
{
  json_error_t jerr;
  json_t *cases = json_loadf (stdin, 0, &jerr);
  json_t *out = json_array ();
  char *text;

  if (cases == NULL)
    {
      fprintf (stderr, "bad JSON: %s\n", jerr.text);
      return 2;
    }
  for (size_t i = 0; i < json_array_size (cases); i++)
    json_array_append_new (out, sign_case (json_array_get (cases, i)));
  text = json_dumps (out, JSON_COMPACT | JSON_ENSURE_ASCII);
  puts (text);
  free (text);
  json_decref (out);
  json_decref (cases);
  return 0;
}

/* ---- network commands ---- */

static gboolean
write_sink (const guint8 *data, gsize len, gpointer user_data, GError **error)
{
  FILE *f = user_data;

  if (fwrite (data, 1, len, f) != len)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "write: %s", g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

static int
cmd_get (DdbS3 *s3, int argc, char **argv)
{
  DdbS3GetOptions opts = { 0 };
  int repeat = 1;
  json_t *calls = json_array ();
  json_t *out = NULL;

  if (argc < 3)
    return 2;
  for (int i = 3; i + 1 < argc; i += 2)
    {
      if (strcmp (argv[i], "--start") == 0)
        opts.start = g_ascii_strtoull (argv[i + 1], NULL, 10);
      else if (strcmp (argv[i], "--if-match") == 0)
        opts.if_match = argv[i + 1];
      else if (strcmp (argv[i], "--repeat") == 0)
        repeat = atoi (argv[i + 1]);
    }
  for (int r = 0; r < repeat; r++)
    {
      g_autoptr (GError) error = NULL;
      DdbS3ObjectInfo info = { 0 };
      DdbS3CallInfo ci = { 0 };
      FILE *f = fopen (argv[2], "wb");
      gboolean ok;

      if (f == NULL)
        return 2;
      ok = ddb_s3_get_object (s3, argv[0], argv[1], &opts, write_sink, f, NULL, &info, &ci,
                              &error);
      fclose (f);
      if (!ok)
        {
          out = error_json (error);
          json_object_set_new (out, "calls", calls);
          json_object_set_new (out, "last", info_json (&ci));
          return print_json (out);
        }
      json_array_append_new (calls, info_json (&ci));
      if (r == repeat - 1)
        out = json_pack ("{s:I, s:s?, s:s?, s:o}", "size", (json_int_t) info.size, "etag",
                         info.etag, "content_type", info.content_type, "calls", calls);
      ddb_s3_object_info_clear (&info);
    }
  return print_json (out);
}

/* get-parallel: N threads download the same object at once through one DdbS3. */
typedef struct {
  DdbS3 *s3;
  const char *bucket, *key;
  GByteArray *bytes;
  DdbS3CallInfo info;
  GError *error;
} Download;

static gboolean
memory_sink (const guint8 *data, gsize len, gpointer user_data, GError **error)
{
  g_byte_array_append (user_data, data, (guint) len);
  return TRUE;
}

static gpointer
download_thread (gpointer data)
{
  Download *d = data;

  ddb_s3_get_object (d->s3, d->bucket, d->key, NULL, memory_sink, d->bytes, NULL, NULL,
                     &d->info, &d->error);
  return NULL;
}

static int
cmd_get_parallel (DdbS3 *s3, int argc, char **argv)
{
  guint n = argc >= 3 ? (guint) atoi (argv[2]) : 4;
  Download *d = g_new0 (Download, n);
  GThread **threads = g_new0 (GThread *, n);
  json_t *results = json_array ();

  for (guint i = 0; i < n; i++)
    {
      d[i] = (Download) { s3, argv[0], argv[1], g_byte_array_new (), { 0 }, NULL };
      threads[i] = g_thread_new ("download", download_thread, &d[i]);
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *md5 = NULL;

      g_thread_join (threads[i]);
      md5 = g_compute_checksum_for_data (G_CHECKSUM_MD5, d[i].bytes->data, d[i].bytes->len);
      if (d[i].error != NULL)
        json_array_append_new (results, error_json (d[i].error));
      else
        json_array_append_new (results, json_pack ("{s:I, s:s, s:o}", "size",
                                                   (json_int_t) d[i].bytes->len, "md5", md5,
                                                   "call", info_json (&d[i].info)));
      g_clear_error (&d[i].error);
      g_byte_array_unref (d[i].bytes);
    }
  g_free (threads);
  g_free (d);
  return print_json (json_pack ("{s:o}", "downloads", results));
}

static int
run (DdbS3 *s3, const char *cmd, int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  DdbS3CallInfo ci = { 0 };

  if (strcmp (cmd, "get") == 0)
    return cmd_get (s3, argc, argv);
  if (strcmp (cmd, "get-parallel") == 0 && argc >= 2)
    return cmd_get_parallel (s3, argc, argv);
  if (strcmp (cmd, "put") == 0 && argc >= 3)
    {
      g_autofree char *contents = NULL;
      gsize len = 0;
      g_autoptr (GBytes) data = NULL;
      g_autofree char *etag = NULL;

      if (!g_file_get_contents (argv[2], &contents, &len, &error))
        return print_json (error_json (error));
      data = g_bytes_new (contents, len);
      if (!ddb_s3_put_object (s3, argv[0], argv[1], data, NULL, NULL, &etag, &ci, &error))
        return print_json (error_json (error));
      return print_json (json_pack ("{s:s?, s:o}", "etag", etag, "call", info_json (&ci)));
    }
  if (strcmp (cmd, "head") == 0 && argc >= 2)
    {
      DdbS3ObjectInfo info = { 0 };
      json_t *out;

      if (!ddb_s3_head_object (s3, argv[0], argv[1], NULL, &info, &ci, &error))
        return print_json (error_json (error));
      out = json_pack ("{s:I, s:s?, s:s?, s:I, s:o}", "size", (json_int_t) info.size, "etag",
                       info.etag, "content_type", info.content_type, "last_modified",
                       (json_int_t) info.last_modified, "call", info_json (&ci));
      ddb_s3_object_info_clear (&info);
      return print_json (out);
    }
  if (strcmp (cmd, "list") == 0 && argc >= 1)
    {
      const char *prefix = NULL, *delimiter = NULL;
      g_autoptr (DdbS3Listing) listing = NULL;
      json_t *objects, *prefixes;

      for (int i = 1; i + 1 < argc; i += 2)
        {
          if (strcmp (argv[i], "--prefix") == 0)
            prefix = argv[i + 1];
          else if (strcmp (argv[i], "--delimiter") == 0)
            delimiter = argv[i + 1];
        }
      listing = ddb_s3_list_objects (s3, argv[0], prefix, delimiter, NULL, &ci, &error);
      if (listing == NULL)
        return print_json (error_json (error));
      objects = json_array ();
      for (guint i = 0; i < listing->objects->len; i++)
        {
          DdbS3Object *o = g_ptr_array_index (listing->objects, i);

          json_array_append_new (objects, json_pack ("{s:s, s:I, s:s?}", "key", o->key, "size",
                                                     (json_int_t) o->size, "etag", o->etag));
        }
      prefixes = json_array ();
      for (guint i = 0; i < listing->common_prefixes->len; i++)
        json_array_append_new (prefixes,
                               json_string (g_ptr_array_index (listing->common_prefixes, i)));
      return print_json (json_pack ("{s:o, s:o, s:o}", "objects", objects, "prefixes", prefixes,
                                    "call", info_json (&ci)));
    }
  if (strcmp (cmd, "bucket-region") == 0 && argc >= 1)
    {
      g_autofree char *region = ddb_s3_head_bucket_region (s3, argv[0], NULL, &error);

      if (region == NULL)
        return print_json (error_json (error));
      return print_json (json_pack ("{s:s}", "region", region));
    }
  fprintf (stderr, "unknown command or missing arguments: %s\n", cmd);
  return 2;
}

int
main (int argc, char **argv)
{
  DdbS3Options o = { 0 };
  g_autoptr (DdbS3) s3 = NULL;
  g_autoptr (GError) error = NULL;
  int i = 1;

  if (argc >= 2 && strcmp (argv[1], "sign") == 0)
    return cmd_sign ();
  for (; i + 1 < argc && g_str_has_prefix (argv[i], "--"); i += 2)
    {
      const char *v = argv[i + 1];

      if (strcmp (argv[i], "--endpoint") == 0)
        o.endpoint_url = v;
      else if (strcmp (argv[i], "--region") == 0)
        o.region = v;
      else if (strcmp (argv[i], "--profile") == 0)
        o.profile = v;
      else if (strcmp (argv[i], "--max-attempts") == 0)
        o.max_attempts = (guint) atoi (v);
      else if (strcmp (argv[i], "--idle-timeout-ms") == 0)
        o.idle_timeout_ms = (guint) atoi (v);
      else if (strcmp (argv[i], "--base-delay-ms") == 0)
        o.base_delay_ms = (guint) atoi (v);
      else if (strcmp (argv[i], "--style") == 0)
        o.addressing_style = strcmp (v, "path") == 0      ? DDB_S3_ADDRESSING_PATH
                             : strcmp (v, "virtual") == 0 ? DDB_S3_ADDRESSING_VIRTUAL
                                                          : DDB_S3_ADDRESSING_AUTO;
    }
  if (i >= argc)
    {
      fprintf (stderr, "usage: s3-tool [OPTS] COMMAND ARGS...\n");
      return 2;
    }
  s3 = ddb_s3_new (&o, &error);
  if (s3 == NULL)
    return print_json (error_json (error));
  return run (s3, argv[i], argc - i - 1, argv + i + 1);
}
