/* s3.c: the S3 client: the session and endpoint, one signed request, the retry and region
 * redirect loop, and the operations (GetObject streamed and resumed, HeadObject, PutObject,
 * ListObjectsV2, HeadBucket). URLs and signing are in s3-request.c, XML in s3-xml.c. */
#include <stdio.h>
#include <string.h>

#include "net/client.h"
#include "net/s3.h"

struct _DdbS3 {
  DdbHttp *http;
  DdbAwsSession *session;
  char *endpoint; /* configured or given; NULL: the region's */
  char *region;
  DdbS3AddressingStyle style;
  guint timeout_ms;
  guint idle_timeout_ms;
  guint max_attempts;
  guint base_delay_ms;
  guint max_delay_ms;
  GMutex lock;                /* the fields below */
  GHashTable *bucket_regions; /* bucket -> region, learnt from redirects */
};

#define MAX_HEADERS 16

static gboolean
parse_style (const char *text, DdbS3AddressingStyle *style, GError **error)
{
  if (text == NULL || g_ascii_strcasecmp (text, "auto") == 0)
    *style = DDB_S3_ADDRESSING_AUTO;
  else if (g_ascii_strcasecmp (text, "path") == 0)
    *style = DDB_S3_ADDRESSING_PATH;
  else if (g_ascii_strcasecmp (text, "virtual") == 0)
    *style = DDB_S3_ADDRESSING_VIRTUAL;
  else
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                   "Invalid S3 addressing style “%s”: it must be auto, path or virtual", text);
      return FALSE;
    }
  return TRUE;
}

DdbS3 *
ddb_s3_new (const DdbS3Options *options, GError **error)
{
  g_autoptr (DdbS3) s3 = g_new0 (DdbS3, 1);
  DdbHttpOptions http_options = { 0 };
  DdbAwsSessionOptions session_options = { 0 };
  DdbAwsConfig *config;
  const char *profile;
  const char *region;

  g_mutex_init (&s3->lock);
  s3->bucket_regions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  http_options.connect_timeout_ms = options->connect_timeout_ms;
  http_options.timeout_ms = options->timeout_ms;
  s3->http = ddb_http_new (&http_options, error);
  if (s3->http == NULL)
    return NULL;
  ddb_http_set_proxy_env (s3->http, options->envp);

  session_options.profile = options->profile;
  session_options.region = options->region;
  session_options.envp = options->envp;
  session_options.transport = ddb_http_aws_transport;
  session_options.transport_data = s3->http;
  session_options.mfa_prompt = options->mfa_prompt;
  session_options.mfa_prompt_data = options->mfa_prompt_data;
  s3->session = ddb_aws_session_new (&session_options, error);
  if (s3->session == NULL)
    return NULL;
  config = ddb_aws_session_get_config (s3->session);
  profile = ddb_aws_session_get_profile (s3->session);
  region = ddb_aws_session_get_region (s3->session);
  if (region == NULL)
    {
      g_set_error_literal (error, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_REGION,
                           "You must specify a region.");
      return NULL;
    }
  s3->region = g_strdup (region);

  if (options->endpoint_url != NULL && *options->endpoint_url != '\0')
    {
      if (!ddb_aws_check_endpoint_url (options->endpoint_url, error))
        return NULL;
      s3->endpoint = g_strdup (options->endpoint_url);
    }
  else if (!ddb_aws_configured_endpoint (config, profile, "S3", options->envp, &s3->endpoint,
                                         error))
    return NULL;

  s3->style = options->addressing_style;
  if (s3->style == DDB_S3_ADDRESSING_AUTO
      && !parse_style (ddb_aws_config_get_nested (config, profile, "s3", "addressing_style"),
                       &s3->style, error))
    return NULL;

  if (!ddb_http_configure_ca_bundle (s3->http, options->ca_bundle, options->envp, config,
                                     profile, error))
    return NULL;

  s3->timeout_ms = options->timeout_ms;
  s3->idle_timeout_ms = options->idle_timeout_ms > 0 ? options->idle_timeout_ms
                                                     : DDB_S3_DEFAULT_IDLE_TIMEOUT_MS;
  s3->max_attempts = options->max_attempts > 0 ? options->max_attempts
                                               : DDB_S3_DEFAULT_MAX_ATTEMPTS;
  s3->base_delay_ms = options->base_delay_ms > 0 ? options->base_delay_ms
                                                 : DDB_S3_DEFAULT_BASE_DELAY_MS;
  s3->max_delay_ms = options->max_delay_ms > 0 ? options->max_delay_ms
                                               : DDB_S3_DEFAULT_MAX_DELAY_MS;
  return g_steal_pointer (&s3);
}

void
ddb_s3_free (DdbS3 *s3)
{
  if (s3 == NULL)
    return;
  /* The session's STS transport points at the transport: the session goes first. */
  g_clear_pointer (&s3->session, ddb_aws_session_free);
  g_clear_pointer (&s3->http, ddb_http_free);
  g_free (s3->endpoint);
  g_free (s3->region);
  g_hash_table_unref (s3->bucket_regions);
  g_mutex_clear (&s3->lock);
  g_free (s3);
}

const char *
ddb_s3_get_endpoint (DdbS3 *s3)
{
  return s3->endpoint;
}

const char *
ddb_s3_get_region (DdbS3 *s3)
{
  return s3->region;
}

DdbS3AddressingStyle
ddb_s3_get_addressing_style (DdbS3 *s3)
{
  return s3->style;
}

char *
ddb_s3_get_bucket_region_cached (DdbS3 *s3, const char *bucket)
{
  char *region;

  g_mutex_lock (&s3->lock);
  region = g_strdup (bucket != NULL ? g_hash_table_lookup (s3->bucket_regions, bucket) : NULL);
  g_mutex_unlock (&s3->lock);
  return region != NULL ? region : g_strdup (s3->region);
}

static void
remember_bucket_region (DdbS3 *s3, const char *bucket, const char *region)
{
  g_mutex_lock (&s3->lock);
  g_hash_table_replace (s3->bucket_regions, g_strdup (bucket), g_strdup (region));
  g_mutex_unlock (&s3->lock);
}

void
ddb_s3_object_info_clear (DdbS3ObjectInfo *info)
{
  g_clear_pointer (&info->etag, g_free);
  g_clear_pointer (&info->content_type, g_free);
  memset (info, 0, sizeof *info);
}

/* ---- One request ---- */

typedef struct {
  const char *method;
  const char *bucket;
  const char *key;   /* NULL: the bucket itself */
  const char *query; /* encoded, or NULL */
  DdbHttpHeader headers[6];
  guint n_headers;
  const guint8 *body;
  gsize body_len;
  DdbHttpSinkFunc sink; /* a streamed GetObject */
  gpointer sink_data;
} Call;

static gboolean
send_once (DdbS3 *s3, const Call *call, const char *region, GCancellable *cancellable,
           DdbHttpResponse *response, GError **error)
{
  g_autofree char *standard = NULL;
  g_autoptr (DdbAwsCredentials) creds = NULL;
  DdbS3Target target = { 0 };
  DdbHttpHeader headers[MAX_HEADERS];
  DdbSignature sig = { 0 };
  DdbHttpSend send = { 0 };
  guint n = call->n_headers;
  gboolean ok;

  if (s3->endpoint == NULL)
    standard = ddb_s3_standard_endpoint (region);
  if (!ddb_s3_target_build (s3->endpoint != NULL ? s3->endpoint : standard, s3->endpoint != NULL,
                            s3->style, call->bucket, call->key, call->query, &target, error))
    return FALSE;
  creds = ddb_aws_session_get_credentials (s3->session, g_get_real_time () / G_USEC_PER_SEC,
                                           cancellable, error);
  if (creds == NULL)
    {
      ddb_s3_target_clear (&target);
      return FALSE;
    }
  memcpy (headers, call->headers, call->n_headers * sizeof *headers);
  ok = ddb_s3_sign (call->method, &target, &creds->creds, region,
                    g_get_real_time () / G_USEC_PER_SEC, call->body, call->body_len, headers, &n,
                    G_N_ELEMENTS (headers), &sig, error);
  if (ok)
    {
      send.method = call->method;
      send.url = target.url;
      send.headers = headers;
      send.n_headers = n;
      send.body = call->body;
      send.body_len = call->body_len;
      send.timeout_ms = s3->timeout_ms;
      send.sink = call->sink;
      send.sink_data = call->sink_data;
      send.idle_timeout_ms = call->sink != NULL ? s3->idle_timeout_ms : 0;
      send.path_as_is = TRUE;
      ok = ddb_http_send (s3->http, &send, cancellable, response, error);
    }
  ddb_signature_clear (&sig);
  ddb_s3_target_clear (&target);
  return ok;
}

/* The code S3 gives no body for (HEAD) or a body that is not its XML: by status. */
static const char *
code_from_status (const Call *call, guint status)
{
  switch (status)
    {
    case 301:
      return "PermanentRedirect";
    case 307:
      return "TemporaryRedirect";
    case 403:
      return "AccessDenied";
    case 404:
      return call->key != NULL ? "NoSuchKey" : "NoSuchBucket";
    case 412:
      return "PreconditionFailed";
    case 416:
      return "InvalidRange";
    case 500:
      return "InternalError";
    case 503:
      return "SlowDown";
    default:
      return NULL;
    }
}

static void
set_s3_error (const Call *call, guint status, const char *code, const char *message,
              GError **error)
{
  g_autofree char *fallback = NULL;
  g_autofree char *where = NULL;

  if (code == NULL)
    code = fallback = g_strdup_printf ("HTTP%u", status);
  where = call->key != NULL ? g_strdup_printf ("s3://%s/%s", call->bucket, call->key)
                            : g_strdup_printf ("s3://%s", call->bucket);
  g_set_error (error, DDB_S3_ERROR, ddb_s3_error_code_from_name (code), "%s: %s (%s, HTTP %u)",
               code, message != NULL && *message != '\0' ? message : "no message", where,
               status);
}

static gboolean
wants_redirect (const Call *call, guint status, const char *code, const char *xml_region,
                const char *header_region, const char *region)
{
  if (status == 301 || status == 302 || status == 307)
    return TRUE;
  if (code != NULL && strcmp (code, "PermanentRedirect") == 0)
    return TRUE;
  if (code != NULL && strcmp (code, "AuthorizationHeaderMalformed") == 0 && xml_region != NULL)
    return TRUE;
  if (strcmp (call->method, "HEAD") == 0 && status == 400)
    return TRUE;
  /* An answer that names the bucket's region, not the one the request was signed for. */
  return status == 400 && header_region != NULL && strcmp (header_region, region) != 0;
}

char *
ddb_s3_head_bucket_region (DdbS3 *s3, const char *bucket, GCancellable *cancellable,
                           GError **error)
{
  g_autofree char *region = ddb_s3_get_bucket_region_cached (s3, bucket);
  Call call = { 0 };
  DdbHttpResponse response = { 0 };
  const char *found;
  char *out;

  call.method = "HEAD";
  call.bucket = bucket;
  if (!send_once (s3, &call, region, cancellable, &response, error))
    return NULL;
  /* S3 names the region in any answer to HeadBucket, a 301 or a 403 too. */
  found = ddb_http_response_header (&response, "x-amz-bucket-region");
  if (found == NULL || !ddb_aws_region_is_valid (found))
    {
      set_s3_error (&call, response.status, code_from_status (&call, response.status),
                    "the answer to HeadBucket names no region", error);
      ddb_http_response_clear (&response);
      return NULL;
    }
  out = g_strdup (found);
  ddb_http_response_clear (&response);
  return out;
}

/* A streamed GetObject's progress, across its attempts. */
typedef struct {
  DdbS3SinkFunc sink;
  gpointer sink_data;
  guint64 start;     /* the first byte asked for */
  guint64 delivered; /* bytes given to the sink */
  char *etag;        /* the first response's */
  guint64 skip;      /* bytes of this response to drop (a 200 to a ranged request) */
  gboolean checked;  /* this response's headers were looked at */
  gboolean stop;     /* the sink, or a check of ours, stopped the download */
  DdbS3ObjectInfo info;
} GetState;

/* "bytes A-B/T": A and T. */
static gboolean
parse_content_range (const char *text, guint64 *first, guint64 *total)
{
  unsigned long long a, b, t;

  if (text == NULL || sscanf (text, "bytes %llu-%llu/%llu", &a, &b, &t) != 3)
    return FALSE;
  *first = a;
  *total = t;
  return TRUE;
}

static gint64
parse_http_date (const char *text)
{
  static const char *const months[]
      = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
  char mon[4] = "";
  int d, y, h, mi, s;
  g_autoptr (GDateTime) dt = NULL;

  if (text == NULL
      || sscanf (text, "%*3s, %d %3s %d %d:%d:%d GMT", &d, mon, &y, &h, &mi, &s) != 6)
    return 0;
  for (int m = 0; m < 12; m++)
    if (strcmp (mon, months[m]) == 0)
      {
        dt = g_date_time_new_utc (y, m + 1, d, h, mi, s);
        return dt != NULL ? g_date_time_to_unix (dt) : 0;
      }
  return 0;
}

/* Size, ETag, type and date of an object from the headers of a response to it. */
static void
info_from_headers (DdbS3ObjectInfo *info, guint status, GHashTable *headers)
{
  const char *length = g_hash_table_lookup (headers, "content-length");
  const char *type = g_hash_table_lookup (headers, "content-type");
  guint64 first, total;

  g_free (info->etag);
  info->etag = g_strdup (g_hash_table_lookup (headers, "etag"));
  g_free (info->content_type);
  info->content_type = g_strdup (type);
  info->last_modified = parse_http_date (g_hash_table_lookup (headers, "last-modified"));
  if (status == 206
      && parse_content_range (g_hash_table_lookup (headers, "content-range"), &first, &total))
    info->size = total;
  else if (length != NULL)
    info->size = g_ascii_strtoull (length, NULL, 10);
}

/* Checks a GetObject response before its body goes to the sink: the same object (ETag) as
 * before, starting where asked. */
static gboolean
get_check_response (GetState *g, guint status, GHashTable *headers, GError **error)
{
  guint64 offset = g->start + g->delivered;
  const char *etag = g_hash_table_lookup (headers, "etag");
  guint64 first, total;

  g->checked = TRUE;
  g->skip = 0;
  if (g->etag != NULL && (etag == NULL || strcmp (etag, g->etag) != 0))
    {
      g_set_error (error, DDB_S3_ERROR, DDB_S3_ERROR_PRECONDITION_FAILED,
                   "PreconditionFailed: the object changed while it was read (ETag %s, then %s)",
                   g->etag, etag != NULL ? etag : "none");
      return FALSE;
    }
  if (g->etag == NULL && etag != NULL)
    g->etag = g_strdup (etag);
  if (status == 206)
    {
      if (!parse_content_range (g_hash_table_lookup (headers, "content-range"), &first, &total)
          || first != offset)
        {
          g_set_error (error, DDB_S3_ERROR, DDB_S3_ERROR_BAD_RESPONSE,
                       "BadResponse: the object's bytes do not start at byte %" G_GUINT64_FORMAT
                       " as asked",
                       offset);
          return FALSE;
        }
    }
  else
    /* A server that ignored Range sends the whole object: the bytes before OFFSET are not
     * given again. */
    g->skip = offset;
  info_from_headers (&g->info, status, headers);
  return TRUE;
}

static gboolean
get_sink (guint status, GHashTable *headers, const guint8 *data, gsize len, gpointer user_data,
          GError **error)
{
  GetState *g = user_data;

  if (!g->checked && !get_check_response (g, status, headers, error))
    {
      g->stop = TRUE;
      return FALSE;
    }
  if (g->skip > 0)
    {
      gsize drop = (gsize) MIN ((guint64) len, g->skip);

      g->skip -= drop;
      data += drop;
      len -= drop;
      if (len == 0)
        return TRUE;
    }
  if (!g->sink (data, len, g->sink_data, error))
    {
      g->stop = TRUE;
      return FALSE;
    }
  g->delivered += len;
  return TRUE;
}

/* Sends CALL with retries and region redirects, as described in s3.h. With GET (a streamed
 * GetObject), each retry after bytes arrived asks for the rest. Success: a 2xx RESPONSE. */
static gboolean
run_call (DdbS3 *s3, Call *call, GetState *get, GCancellable *cancellable,
          DdbHttpResponse *response, DdbS3CallInfo *info, GError **error)
{
  gboolean redirected = FALSE;
  gboolean reloaded = FALSE;
  guint base_headers = call->n_headers;
  guint attempt = 0;
  char range[64];

  for (;;)
    {
      g_autoptr (GError) local = NULL;
      g_autofree char *region = ddb_s3_get_bucket_region_cached (s3, call->bucket);
      g_autofree char *code = NULL;
      g_autofree char *message = NULL;
      g_autofree char *xml_region = NULL;
      const char *header_region;
      const char *body;
      gsize body_len = 0;

      attempt++;
      if (info != NULL)
        info->attempts++;
      call->n_headers = base_headers;
      if (get != NULL)
        {
          guint64 offset = get->start + get->delivered;

          if (get->delivered > 0 && info != NULL)
            info->resumes++;
          get->checked = FALSE;
          if (offset > 0)
            {
              g_snprintf (range, sizeof range, "bytes=%" G_GUINT64_FORMAT "-", offset);
              call->headers[call->n_headers++] = (DdbHttpHeader) { "Range", range };
            }
          /* Resuming: the same object or nothing (the caller's own If-Match is in the base
           * headers). */
          if (get->etag != NULL && base_headers == 0)
            call->headers[call->n_headers++] = (DdbHttpHeader) { "If-Match", get->etag };
        }
      if (!send_once (s3, call, region, cancellable, response, &local))
        {
          if ((get == NULL || !get->stop) && ddb_http_error_is_transient (local)
              && attempt < s3->max_attempts)
            {
              if (!ddb_sleep_cancellable (
                      ddb_backoff_full_jitter (s3->base_delay_ms, s3->max_delay_ms, attempt - 1),
                      cancellable, error))
                return FALSE;
              continue;
            }
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      if (response->status >= 200 && response->status < 300)
        return TRUE;

      body = g_bytes_get_data (response->body, &body_len);
      if (!ddb_s3_parse_error (body, body_len, &code, &message, &xml_region))
        code = g_strdup (code_from_status (call, response->status));
      header_region = ddb_http_response_header (response, "x-amz-bucket-region");

      /* A download that broke right after its last byte: nothing is left to read. */
      if (get != NULL && response->status == 416 && get->delivered > 0 && get->info.size > 0
          && get->start + get->delivered == get->info.size)
        return TRUE;

      if (!redirected && call->bucket != NULL
          && wants_redirect (call, response->status, code, xml_region, header_region, region))
        {
          g_autofree char *found = NULL;

          if (header_region != NULL && ddb_aws_region_is_valid (header_region))
            found = g_strdup (header_region);
          else if (xml_region != NULL && ddb_aws_region_is_valid (xml_region))
            found = g_strdup (xml_region);
          else
            found = ddb_s3_head_bucket_region (s3, call->bucket, cancellable, NULL);
          redirected = TRUE;
          if (found != NULL && strcmp (found, region) != 0)
            {
              g_debug ("S3 bucket %s is in %s, not %s: sending the request there", call->bucket,
                       found, region);
              remember_bucket_region (s3, call->bucket, found);
              if (info != NULL)
                info->redirects++;
              ddb_http_response_clear (response);
              attempt--;
              continue;
            }
        }
      if (!reloaded && code != NULL && ddb_client_error_is_expired_token (code))
        {
          /* Fresh credentials, once. */
          reloaded = TRUE;
          if (ddb_aws_session_reload (s3->session, NULL))
            {
              ddb_http_response_clear (response);
              attempt--;
              continue;
            }
        }
      if (ddb_client_error_is_retryable (code, response->status) && attempt < s3->max_attempts)
        {
          ddb_http_response_clear (response);
          if (!ddb_sleep_cancellable (
                  ddb_backoff_full_jitter (s3->base_delay_ms, s3->max_delay_ms, attempt - 1),
                  cancellable, error))
            return FALSE;
          continue;
        }
      set_s3_error (call, response->status, code, message, error);
      ddb_http_response_clear (response);
      return FALSE;
    }
}

/* ---- Operations ---- */

gboolean
ddb_s3_get_object (DdbS3 *s3, const char *bucket, const char *key,
                   const DdbS3GetOptions *options, DdbS3SinkFunc sink, gpointer sink_data,
                   GCancellable *cancellable, DdbS3ObjectInfo *info, DdbS3CallInfo *call_info,
                   GError **error)
{
  Call call = { 0 };
  GetState g = { 0 };
  DdbHttpResponse response = { 0 };
  gboolean ok;

  call.method = "GET";
  call.bucket = bucket;
  call.key = key;
  call.sink = get_sink;
  call.sink_data = &g;
  if (options != NULL && options->if_match != NULL)
    call.headers[call.n_headers++] = (DdbHttpHeader) { "If-Match", options->if_match };
  g.sink = sink;
  g.sink_data = sink_data;
  g.start = options != NULL ? options->start : 0;
  if (options != NULL && options->if_match != NULL)
    g.etag = g_strdup (options->if_match);
  ok = run_call (s3, &call, &g, cancellable, &response, call_info, error);
  if (ok && !g.checked && response.headers != NULL)
    /* No body came (an empty object): its headers all the same. */
    info_from_headers (&g.info, response.status, response.headers);
  ddb_http_response_clear (&response);
  if (ok && info != NULL)
    {
      *info = g.info;
      memset (&g.info, 0, sizeof g.info);
    }
  ddb_s3_object_info_clear (&g.info);
  g_free (g.etag);
  return ok;
}

gboolean
ddb_s3_head_object (DdbS3 *s3, const char *bucket, const char *key, GCancellable *cancellable,
                    DdbS3ObjectInfo *info, DdbS3CallInfo *call_info, GError **error)
{
  Call call = { 0 };
  DdbHttpResponse response = { 0 };

  call.method = "HEAD";
  call.bucket = bucket;
  call.key = key;
  if (!run_call (s3, &call, NULL, cancellable, &response, call_info, error))
    return FALSE;
  if (info != NULL)
    {
      memset (info, 0, sizeof *info);
      info_from_headers (info, response.status, response.headers);
    }
  ddb_http_response_clear (&response);
  return TRUE;
}

gboolean
ddb_s3_put_object (DdbS3 *s3, const char *bucket, const char *key, GBytes *data,
                   const char *content_type, GCancellable *cancellable, char **etag,
                   DdbS3CallInfo *call_info, GError **error)
{
  Call call = { 0 };
  DdbHttpResponse response = { 0 };
  guint8 digest[16];
  gsize digest_len = sizeof digest;
  g_autoptr (GChecksum) md5 = g_checksum_new (G_CHECKSUM_MD5);
  g_autofree char *md5_b64 = NULL;
  gsize len = 0;
  const guint8 *bytes = g_bytes_get_data (data, &len);

  g_checksum_update (md5, bytes != NULL ? bytes : (const guint8 *) "", len);
  g_checksum_get_digest (md5, digest, &digest_len);
  md5_b64 = g_base64_encode (digest, digest_len);
  call.method = "PUT";
  call.bucket = bucket;
  call.key = key;
  call.body = bytes;
  call.body_len = len;
  call.headers[call.n_headers++] = (DdbHttpHeader) {
    "Content-Type", content_type != NULL ? content_type : "application/octet-stream"
  };
  call.headers[call.n_headers++] = (DdbHttpHeader) { "Content-MD5", md5_b64 };
  if (!run_call (s3, &call, NULL, cancellable, &response, call_info, error))
    return FALSE;
  if (etag != NULL)
    *etag = g_strdup (ddb_http_response_header (&response, "etag"));
  ddb_http_response_clear (&response);
  return TRUE;
}

DdbS3Listing *
ddb_s3_list_objects (DdbS3 *s3, const char *bucket, const char *prefix, const char *delimiter,
                     GCancellable *cancellable, DdbS3CallInfo *call_info, GError **error)
{
  g_autoptr (DdbS3Listing) listing = ddb_s3_listing_new ();
  g_autofree char *token = NULL;

  do
    {
      GString *query = g_string_new ("list-type=2&encoding-type=url");
      Call call = { 0 };
      DdbHttpResponse response = { 0 };
      const char *body;
      gsize len = 0;
      gboolean ok;
      const char *names[] = { "prefix", "delimiter", "continuation-token" };
      const char *values[] = { prefix, delimiter, token };

      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        if (values[i] != NULL && *values[i] != '\0')
          {
            g_autofree char *v = ddb_s3_encode_query_value (values[i]);

            g_string_append_printf (query, "&%s=%s", names[i], v);
          }
      call.method = "GET";
      call.bucket = bucket;
      call.query = query->str;
      ok = run_call (s3, &call, NULL, cancellable, &response, call_info, error);
      g_string_free (query, TRUE);
      if (!ok)
        return NULL;
      g_clear_pointer (&token, g_free);
      body = g_bytes_get_data (response.body, &len);
      ok = ddb_s3_parse_list_page (body, len, listing, &token, error);
      ddb_http_response_clear (&response);
      if (!ok)
        return NULL;
    }
  while (token != NULL);
  return g_steal_pointer (&listing);
}
