/* s3-request.c: where an S3 request goes and how it is signed: s3:// URLs, bucket names,
 * virtual-hosted or path-style URLs (botocore's rules, see s3.h), key and query encoding, and
 * SigV4 for "s3" (no path normalization, the payload's hash in x-amz-content-sha256). Pure
 * functions: no I/O. */
#include <string.h>

#include "net/s3.h"

G_DEFINE_QUARK (ddb-s3-error-quark, ddb_s3_error)

static const struct {
  const char *name;
  DdbS3ErrorCode code;
} error_names[] = {
  { "NoSuchKey", DDB_S3_ERROR_NO_SUCH_KEY },
  { "NoSuchBucket", DDB_S3_ERROR_NO_SUCH_BUCKET },
  { "AccessDenied", DDB_S3_ERROR_ACCESS_DENIED },
  { "PreconditionFailed", DDB_S3_ERROR_PRECONDITION_FAILED },
  { "InvalidRange", DDB_S3_ERROR_INVALID_RANGE },
  { "SignatureDoesNotMatch", DDB_S3_ERROR_SIGNATURE_MISMATCH },
  { "InvalidAccessKeyId", DDB_S3_ERROR_INVALID_ACCESS_KEY },
  { "ExpiredToken", DDB_S3_ERROR_EXPIRED_TOKEN },
  { "SlowDown", DDB_S3_ERROR_SLOW_DOWN },
  { "InternalError", DDB_S3_ERROR_INTERNAL },
  { "PermanentRedirect", DDB_S3_ERROR_REDIRECT },
  { "TemporaryRedirect", DDB_S3_ERROR_REDIRECT },
  { "Redirect", DDB_S3_ERROR_REDIRECT },
  { "InvalidBucketName", DDB_S3_ERROR_INVALID_BUCKET },
};

DdbS3ErrorCode
ddb_s3_error_code_from_name (const char *name)
{
  if (name != NULL)
    for (gsize i = 0; i < G_N_ELEMENTS (error_names); i++)
      if (strcmp (error_names[i].name, name) == 0)
        return error_names[i].code;
  return DDB_S3_ERROR_OTHER;
}

/* ---- Bucket names ---- */

/* botocore's VALID_HOST_LABEL_RE: ^(?!-)[a-zA-Z\d-]{1,63}(?<!-)$ */
static gboolean
is_host_label (const char *s, gsize len)
{
  if (len < 1 || len > 63 || s[0] == '-' || s[len - 1] == '-')
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (s[i]) && s[i] != '-')
      return FALSE;
  return TRUE;
}

/* botocore's IPV4_RE: (?:[0-9]{1,3}\.){3}[0-9]{1,3} */
static gboolean
looks_like_ipv4 (const char *s)
{
  for (int part = 0; part < 4; part++)
    {
      int digits = 0;

      while (g_ascii_isdigit (*s))
        s++, digits++;
      if (digits < 1 || digits > 3)
        return FALSE;
      if (part < 3 && *s++ != '.')
        return FALSE;
    }
  return *s == '\0';
}

gboolean
ddb_s3_bucket_is_virtual_hostable (const char *bucket, gboolean allow_dots)
{
  gsize len;

  if (bucket == NULL)
    return FALSE;
  len = strlen (bucket);
  if (len < 3 || looks_like_ipv4 (bucket))
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (g_ascii_isupper (bucket[i]))
      return FALSE;
  if (allow_dots)
    {
      g_auto (GStrv) labels = g_strsplit (bucket, ".", -1);

      for (guint i = 0; labels[i] != NULL; i++)
        if (!is_host_label (labels[i], strlen (labels[i])))
          return FALSE;
      return TRUE;
    }
  return is_host_label (bucket, len);
}

/* botocore's VALID_BUCKET: ^[a-zA-Z0-9.\-_]{1,255}$ */
static gboolean
bucket_name_is_valid (const char *bucket)
{
  gsize len = strlen (bucket);

  if (len < 1 || len > 255)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (bucket[i]) && bucket[i] != '.' && bucket[i] != '-' && bucket[i] != '_')
      return FALSE;
  return TRUE;
}

gboolean
ddb_s3_parse_url (const char *url, char **bucket, char **key, GError **error)
{
  const char *rest, *slash;
  g_autofree char *b = NULL;

  *bucket = NULL;
  *key = NULL;
  if (url == NULL || !g_str_has_prefix (url, "s3://"))
    {
      g_set_error (error, DDB_S3_ERROR, DDB_S3_ERROR_INVALID_URL,
                   "“%s” is not an S3 URL: it must start with s3://", url != NULL ? url : "");
      return FALSE;
    }
  rest = url + 5;
  slash = strchr (rest, '/');
  b = slash != NULL ? g_strndup (rest, slash - rest) : g_strdup (rest);
  if (*b == '\0')
    {
      g_set_error (error, DDB_S3_ERROR, DDB_S3_ERROR_INVALID_URL,
                   "“%s” names no bucket: write s3://BUCKET/KEY", url);
      return FALSE;
    }
  if (g_str_has_prefix (b, "arn:"))
    {
      g_set_error (error, DDB_S3_ERROR, DDB_S3_ERROR_INVALID_URL,
                   "“%s”: access point and Outposts ARNs are not supported; name the bucket",
                   url);
      return FALSE;
    }
  if (!bucket_name_is_valid (b))
    {
      g_set_error (error, DDB_S3_ERROR, DDB_S3_ERROR_INVALID_URL,
                   "“%s”: “%s” is not a valid bucket name (letters, digits, '.', '-' and '_', "
                   "at most 255)",
                   url, b);
      return FALSE;
    }
  *bucket = g_steal_pointer (&b);
  *key = g_strdup (slash != NULL ? slash + 1 : "");
  return TRUE;
}

/* ---- URLs ---- */

char *
ddb_s3_standard_endpoint (const char *region)
{
  if (strcmp (region, "aws-global") == 0)
    return g_strdup ("https://s3.amazonaws.com");
  return g_strdup_printf ("https://s3.%s.%s", region, ddb_aws_region_dns_suffix (region));
}

static void
percent_encode (GString *out, const char *s, gboolean keep_slash)
{
  static const char hex[] = "0123456789ABCDEF";

  for (const guchar *p = (const guchar *) s; *p != '\0'; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '-' || *p == '.' || *p == '_' || *p == '~'
          || (keep_slash && *p == '/'))
        g_string_append_c (out, (char) *p);
      else
        g_string_append_printf (out, "%%%c%c", hex[*p >> 4], hex[*p & 0xf]);
    }
}

char *
ddb_s3_encode_key (const char *key)
{
  GString *out = g_string_new ("");

  percent_encode (out, key, TRUE);
  return g_string_free (out, FALSE);
}

char *
ddb_s3_encode_query_value (const char *value)
{
  GString *out = g_string_new ("");

  percent_encode (out, value, FALSE);
  return g_string_free (out, FALSE);
}

void
ddb_s3_target_clear (DdbS3Target *target)
{
  g_clear_pointer (&target->url, g_free);
  g_clear_pointer (&target->host, g_free);
  g_clear_pointer (&target->path, g_free);
}

static gboolean
host_is_ip (GUri *uri)
{
  const char *host = g_uri_get_host (uri);

  return host != NULL && (strchr (host, ':') != NULL || looks_like_ipv4 (host));
}

gboolean
ddb_s3_target_build (const char *endpoint, gboolean custom, DdbS3AddressingStyle style,
                     const char *bucket, const char *key, const char *query,
                     DdbS3Target *target, GError **error)
{
  g_autoptr (GUri) uri = NULL;
  g_autofree char *base_path = NULL;
  g_autofree char *host = NULL;
  GString *raw = g_string_new ("");
  GString *url = g_string_new ("");
  const char *scheme;
  gboolean force_path, is_http, virtual_host;

  memset (target, 0, sizeof *target);
  uri = g_uri_parse (endpoint, G_URI_FLAGS_ENCODED, NULL);
  host = ddb_http_host_header (endpoint, error);
  if (uri == NULL || host == NULL)
    {
      g_string_free (raw, TRUE);
      g_string_free (url, TRUE);
      if (host != NULL)
        g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_ENDPOINT,
                     "Invalid endpoint: %s", endpoint);
      return FALSE;
    }
  scheme = g_uri_get_scheme (uri);
  is_http = g_ascii_strcasecmp (scheme, "http") == 0;
  /* The endpoint's own path, decoded, without its trailing slashes: the bucket or the key
   * follows it. */
  base_path = g_uri_unescape_string (g_uri_get_path (uri), NULL);
  if (base_path == NULL)
    base_path = g_strdup (g_uri_get_path (uri));
  while (*base_path != '\0' && base_path[strlen (base_path) - 1] == '/')
    base_path[strlen (base_path) - 1] = '\0';

  /* botocore: a given endpoint forces path-style unless "virtual" was asked for. */
  force_path = style == DDB_S3_ADDRESSING_PATH
               || (custom && style != DDB_S3_ADDRESSING_VIRTUAL);
  virtual_host = bucket != NULL && !force_path && !host_is_ip (uri)
                 && ddb_s3_bucket_is_virtual_hostable (bucket, is_http);

  g_string_append (raw, base_path);
  if (virtual_host)
    {
      target->host = g_strconcat (bucket, ".", host, NULL);
      g_string_append_c (raw, '/');
    }
  else
    {
      target->host = g_steal_pointer (&host);
      if (bucket != NULL)
        {
          g_string_append_c (raw, '/');
          g_string_append (raw, bucket);
          if (key != NULL)
            g_string_append_c (raw, '/');
        }
      else
        g_string_append_c (raw, '/');
    }
  if (key != NULL)
    g_string_append (raw, key);

  g_string_append_printf (url, "%s://%s", scheme, target->host);
  percent_encode (url, raw->str, TRUE);
  if (query != NULL && *query != '\0')
    g_string_append_printf (url, "?%s", query);
  target->path = g_string_free (raw, FALSE);
  target->url = g_string_free (url, FALSE);
  return TRUE;
}

/* ---- Signing ---- */

gboolean
ddb_s3_sign (const char *method, const DdbS3Target *target, const DdbCredentials *creds,
             const char *region, gint64 now, const guint8 *body, gsize body_len,
             DdbHttpHeader *headers, guint *n_headers, guint n_max, DdbSignature *sig,
             GError **error)
{
  DdbHttpRequest req = { 0 };
  DdbSigningParams params = { 0 };
  const char *q = strchr (target->url, '?');
  guint n = *n_headers;

  if (n + 5 > n_max)
    {
      g_set_error_literal (error, DDB_S3_ERROR, DDB_S3_ERROR_OTHER, "Too many headers");
      return FALSE;
    }
  headers[n++] = (DdbHttpHeader) { "Host", target->host };
  req.method = method;
  req.path = target->path;
  req.query = q != NULL ? q + 1 : NULL;
  req.headers = headers;
  req.n_headers = n;
  req.body = body;
  req.body_len = body_len;
  params.region = region;
  params.service = "s3";
  params.time = now;
  params.normalize_path = FALSE;
  params.sign_body = TRUE;
  if (!ddb_sigv4_sign_headers (&req, creds, &params, sig, error))
    return FALSE;
  for (guint i = 0; sig->add_headers[i] != NULL && sig->add_headers[i + 1] != NULL; i += 2)
    headers[n++] = (DdbHttpHeader) { sig->add_headers[i], sig->add_headers[i + 1] };
  *n_headers = n;
  return TRUE;
}
