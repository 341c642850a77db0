/* client.c: DynamoDB's JSON 1.0 protocol over DdbHttp: signing, CRC32 checks, error mapping
 * and the SDKs' retry behaviour. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/ddbjson.h"
#include "net/client.h"
#include "net/client-private.h"

#define TARGET_PREFIX "DynamoDB_20120810."
#define STREAMS_TARGET_PREFIX "DynamoDBStreams_20120810."
#define CONTENT_TYPE "application/x-amz-json-1.0"

struct _DdbClient {
  DdbHttp *http;
  DdbAwsSession *session;
  char *endpoint;
  char *signing_region;
  char *host;
  char *path;
  /* Where the DynamoDB Streams API is (AWS: a host of its own; else the same URL). */
  char *streams_endpoint;
  char *streams_host;
  guint max_attempts;
  guint base_delay_ms;
  guint max_delay_ms;
  GMutex reload_lock;   /* one re-resolve at a time */
  gint64 last_check_us; /* monotonic time of the last look at the AWS files */
};

/* How often (at most) the AWS files are looked at before a call. */
#define FILES_CHECK_INTERVAL_US G_USEC_PER_SEC

static const char *
nonempty (const char *s)
{
  return s != NULL && *s != '\0' ? s : NULL;
}

DdbClient *
ddb_client_new (const DdbClientOptions *options, GError **error)
{
  g_autoptr (DdbClient) client = g_new0 (DdbClient, 1);
  g_autofree char *standard = NULL;
  DdbHttpOptions http_options = { 0 };
  DdbAwsSessionOptions session_options = { 0 };
  g_autofree char *ca_bundle = NULL;
  g_autoptr (GUri) uri = NULL;
  const char *url;
  const char *region;
  const char *ca;

  http_options.connect_timeout_ms = options->connect_timeout_ms;
  http_options.timeout_ms = options->timeout_ms;
  client->http = ddb_http_new (&http_options, error);
  g_mutex_init (&client->reload_lock);
  if (client->http == NULL)
    return NULL;
  ddb_http_set_proxy_env (client->http, options->envp);

  session_options.profile = options->profile;
  session_options.region = options->region;
  session_options.endpoint_url = options->endpoint_url;
  session_options.envp = options->envp;
  session_options.transport = ddb_http_aws_transport;
  session_options.transport_data = client->http;
  session_options.mfa_prompt = options->mfa_prompt;
  session_options.mfa_prompt_data = options->mfa_prompt_data;
  client->session = ddb_aws_session_new (&session_options, error);
  if (client->session == NULL)
    return NULL;
  if (!ddb_aws_session_get_endpoint (client->session, &url, &region, error))
    return NULL;
  if (!ddb_aws_session_endpoint_is_custom (client->session))
    {
      /* The region's endpoint, FIPS or dual-stack when the profile asks for it. */
      standard = ddb_aws_service_endpoint (ddb_aws_session_get_config (client->session),
                                           ddb_aws_session_get_profile (client->session),
                                           options->envp, "dynamodb", region, error);
      if (standard == NULL)
        return NULL;
      url = standard;
    }
  client->endpoint = g_strdup (url);
  client->signing_region = g_strdup (region);
  client->host = ddb_http_host_header (url, error);
  if (client->host == NULL)
    return NULL;
  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  client->path
      = g_strdup (uri != NULL && *g_uri_get_path (uri) != '\0' ? g_uri_get_path (uri) : "/");
  if (standard != NULL && strcmp (region, "local") != 0)
    {
      client->streams_endpoint = ddb_aws_service_endpoint (
          ddb_aws_session_get_config (client->session),
          ddb_aws_session_get_profile (client->session), options->envp, "streams.dynamodb",
          region, error);
      if (client->streams_endpoint == NULL)
        return NULL;
    }
  else
    client->streams_endpoint = ddb_aws_streams_endpoint (url, region);
  client->streams_host = ddb_http_host_header (client->streams_endpoint, error);
  if (client->streams_host == NULL)
    return NULL;

  /* The AWS CLI's order: --ca-bundle, AWS_CA_BUNDLE, the profile's ca_bundle. */
  ca = nonempty (options->ca_bundle);
  if (ca == NULL)
    ca = nonempty (ddb_aws_getenv (options->envp, "AWS_CA_BUNDLE"));
  if (ca == NULL)
    ca = nonempty (ddb_aws_config_get (ddb_aws_session_get_config (client->session),
                                       ddb_aws_session_get_profile (client->session), "ca_bundle"));
  if (ca != NULL)
    {
      ca_bundle = ddb_aws_expand_path (ca, options->envp);
      if (!g_file_test (ca_bundle, G_FILE_TEST_IS_REGULAR))
        {
          g_set_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_TLS,
                       "The CA bundle %s does not exist or is not a file", ca_bundle);
          return NULL;
        }
      ddb_http_set_ca_bundle (client->http, ca_bundle);
    }

  client->max_attempts
      = options->max_attempts > 0 ? options->max_attempts : DDB_CLIENT_DEFAULT_MAX_ATTEMPTS;
  client->base_delay_ms
      = options->base_delay_ms > 0 ? options->base_delay_ms : DDB_CLIENT_DEFAULT_BASE_DELAY_MS;
  client->max_delay_ms
      = options->max_delay_ms > 0 ? options->max_delay_ms : DDB_CLIENT_DEFAULT_MAX_DELAY_MS;
  return g_steal_pointer (&client);
}

void
ddb_client_free (DdbClient *client)
{
  if (client == NULL)
    return;
  /* The session's STS transport points at the transport: the session goes first. */
  g_clear_pointer (&client->session, ddb_aws_session_free);
  g_clear_pointer (&client->http, ddb_http_free);
  g_free (client->endpoint);
  g_free (client->signing_region);
  g_free (client->host);
  g_free (client->path);
  g_free (client->streams_endpoint);
  g_free (client->streams_host);
  g_mutex_clear (&client->reload_lock);
  g_free (client);
}

const char *
ddb_client_get_endpoint (DdbClient *client)
{
  return client->endpoint;
}

const char *
ddb_client_get_signing_region (DdbClient *client)
{
  return client->signing_region;
}

DdbAwsSession *
ddb_client_get_session (DdbClient *client)
{
  return client->session;
}

guint32
ddb_crc32 (const guint8 *data, gsize len)
{
  /* zlib's, as serve's: a table a byte at a time was 4 % of Load All's readers (1 MB pages). */
  return (guint32) crc32_z (0, data, len);
}

gboolean
ddb_client_error_code_from_name (const char *type_name, DdbErrorCode *code)
{
  /* Every code up to the first one error.c does not name (it answers InternalServerError). */
  for (guint c = 0; c < 256; c++)
    {
      const char *name = ddb_error_type_name ((DdbErrorCode) c);

      if (c > DDB_ERROR_INTERNAL && strcmp (name, "InternalServerError") == 0)
        break;
      if (strcmp (name, type_name) == 0)
        {
          *code = (DdbErrorCode) c;
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
ddb_client_error_is_expired_token (const char *type_name)
{
  /* The names the AWS SDKs treat as expired credentials (botocore's STS and the Java SDK's
   * AwsErrorCode); DynamoDB answers ExpiredTokenException "The security token included in the
   * request is expired". */
  return type_name != NULL
         && (strcmp (type_name, "ExpiredTokenException") == 0
             || strcmp (type_name, "ExpiredToken") == 0);
}

/* Resolves the session again from the files; FORCE: whatever the files' state (an
 * ExpiredToken answer), else only when they changed (looked at once a second at most). A
 * failure is logged and the session keeps its state: the call goes on and reports what it
 * meets. */
static void
reresolve (DdbClient *client, gboolean force)
{
  g_autoptr (GError) error = NULL;
  gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&client->reload_lock);
  if (!force)
    {
      if (client->last_check_us != 0 && now - client->last_check_us < FILES_CHECK_INTERVAL_US)
        {
          g_mutex_unlock (&client->reload_lock);
          return;
        }
      client->last_check_us = now;
      if (!ddb_aws_session_files_changed (client->session))
        {
          g_mutex_unlock (&client->reload_lock);
          return;
        }
    }
  if (!ddb_aws_session_reload (client->session, &error))
    g_info ("Resolving the AWS profile again failed: %s", error->message);
  client->last_check_us = g_get_monotonic_time ();
  g_mutex_unlock (&client->reload_lock);
}

gboolean
ddb_client_error_is_retryable (const char *type_name, guint http_status)
{
  /* botocore's throttling and transient error codes (standard retry mode), without
   * LimitExceededException: DynamoDB's is about control-plane quotas (concurrent table
   * operations) that do not clear within a backoff, and botocore's legacy DynamoDB policy
   * does not retry it either. */
  static const char *const retryable[] = {
    "Throttling",
    "ThrottlingException",
    "ThrottledException",
    "RequestThrottledException",
    "TooManyRequestsException",
    "ProvisionedThroughputExceededException",
    "TransactionInProgressException",
    "RequestLimitExceeded",
    "BandwidthLimitExceeded",
    "RequestThrottled",
    "SlowDown",
    "PriorRequestNotComplete",
    "RequestTimeout",
    "RequestTimeoutException",
    "InternalServerError",
    "InternalFailure",
    "ServiceUnavailable",
  };

  if (http_status == 500 || http_status == 502 || http_status == 503 || http_status == 504
      || http_status == 509)
    return TRUE;
  if (type_name == NULL)
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (retryable); i++)
    if (strcmp (type_name, retryable[i]) == 0)
      return TRUE;
  return FALSE;
}

const char *
ddb_client_error_name (const GError *error, json_t *extra)
{
  const char *name = json_string_value (json_object_get (extra, "__type"));

  if (name != NULL)
    return name;
  if (error != NULL && error->domain == DDB_ERROR)
    return ddb_error_type_name ((DdbErrorCode) error->code);
  return ddb_error_type_name (DDB_ERROR_INTERNAL);
}

gboolean
ddb_sleep_cancellable (guint ms, GCancellable *cancellable, GError **error)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) ms * 1000;
  GPollFD pfd;
  gboolean have_fd = cancellable != NULL && g_cancellable_make_pollfd (cancellable, &pfd);

  for (;;)
    {
      gint64 left = deadline - g_get_monotonic_time ();

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        break;
      if (left <= 0)
        break;
      if (have_fd)
        g_poll (&pfd, 1, (int) ((left + 999) / 1000));
      else
        g_usleep ((gulong) MIN (left, 10000));
    }
  if (have_fd)
    g_cancellable_release_fd (cancellable);
  return !g_cancellable_is_cancelled (cancellable);
}

guint
ddb_backoff_full_jitter (guint base_ms, guint max_ms, guint doublings)
{
  guint64 ceiling = base_ms;

  for (guint i = 0; i < doublings && ceiling < max_ms; i++)
    ceiling *= 2;
  ceiling = MIN (ceiling, max_ms);
  return (guint) g_random_int_range (0, (gint32) ceiling + 1);
}

/* Parses an error response into ERROR and *EXTRA. */
static void
set_service_error (const DdbHttpResponse *resp, json_t **extra, char **type_out, GError **error)
{
  gsize len = 0;
  const char *data = g_bytes_get_data (resp->body, &len);
  json_t *body = len > 0 ? json_loadb (data, len, JSON_ALLOW_NUL, NULL) : NULL;
  const char *type = NULL;
  const char *message = NULL;
  g_autofree char *name = NULL;
  g_autofree char *fallback_message = NULL;
  DdbErrorCode code;
  json_t *rest = json_object ();
  const char *key;
  json_t *value;

  if (json_is_object (body))
    {
      type = json_string_value (json_object_get (body, "__type"));
      /* An empty message (or one that starts with U+0000) says nothing: the other spelling,
       * else the fallback below. */
      message = nonempty (json_string_value (json_object_get (body, "message")));
      if (message == NULL)
        message = nonempty (json_string_value (json_object_get (body, "Message")));
      json_object_foreach (body, key, value)
        if (strcmp (key, "__type") != 0 && strcmp (key, "message") != 0
            && strcmp (key, "Message") != 0)
          json_object_set (rest, key, value);
    }
  if (type == NULL)
    type = ddb_http_response_header (resp, "x-amzn-errortype");
  if (type != NULL)
    {
      const char *hash = strrchr (type, '#');
      const char *start = hash != NULL ? hash + 1 : type;

      /* x-amzn-ErrorType may carry ":http://..." after the name. */
      name = g_strndup (start, strcspn (start, ":"));
      /* A header may hold any byte; the name must go into "__type", a JSON string, or
       * ddb_client_error_name would report another name than the one the retry was decided
       * on. */
      if (!g_utf8_validate (name, -1, NULL))
        {
          char *valid = g_utf8_make_valid (name, -1);

          g_free (name);
          name = valid;
        }
    }
  if (name == NULL || *name == '\0')
    {
      g_free (name);
      name = g_strdup (resp->status >= 500 ? "InternalServerError" : "UnknownError");
    }
  if (message == NULL)
    {
      fallback_message
          = g_strdup_printf ("The endpoint answered HTTP %u without a message", resp->status);
      message = fallback_message;
    }
  if (ddb_client_error_code_from_name (name, &code))
    g_set_error_literal (error, DDB_ERROR, code, message);
  else
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INTERNAL, message);
      json_object_set_new (rest, "__type", json_string (name));
    }
  *type_out = g_steal_pointer (&name);
  *extra = rest;
  json_decref (body);
}

/* Whether an x-amz-crc32 header says CRC, read as botocore reads it (Python's int() of the
 * stripped value): an optional sign, ASCII digits with single '_' between them; "-0" is 0. */
static gboolean
crc_header_matches (const char *header, guint32 crc)
{
  const char *p = header;
  gboolean negative = FALSE;
  guint64 v = 0;

  if (*p == '+' || *p == '-')
    negative = *p++ == '-';
  if (!g_ascii_isdigit (*p))
    return FALSE;
  for (; *p != '\0'; p++)
    {
      if (*p == '_' && g_ascii_isdigit (p[1]))
        continue;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      v = MIN (v * 10 + (guint64) (*p - '0'), (guint64) G_MAXUINT32 + 1);
    }
  return negative ? v == 0 && crc == 0 : v == crc;
}

DdbClientAnswer
ddb_client_read_answer (const DdbHttpResponse *resp, const char *endpoint, json_t **response,
                        GPtrArray **items, gboolean *ok, GError **error)
{
  const char *crc_header;
  g_autofree char *type = NULL;
  gsize len = 0;
  const char *data = g_bytes_get_data (resp->body, &len);

  *ok = FALSE;
  crc_header = ddb_http_response_header (resp, "x-amz-crc32");
  if (crc_header != NULL)
    {
      if (!crc_header_matches (crc_header, ddb_crc32 ((const guint8 *) data, len)))
        {
          /* botocore's still_retry_crc32 policy: a damaged answer is asked again. */
          g_set_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_IO,
                       "The response from %s does not match its x-amz-crc32 checksum", endpoint);
          return DDB_CLIENT_ANSWER_RETRY;
        }
    }

  if (resp->status == 200)
    {
      json_error_t jerr;
      json_t *root;

      /* A page's items read straight into values (the same as from the tree below). */
      if (items != NULL && len > 0 && ddb_json_read_page (data, len, "Items", response, items))
        {
          *ok = TRUE;
          return DDB_CLIENT_ANSWER_DONE;
        }
      /* TagResource and UntagResource answer with no body at all. */
      root = len == 0 ? json_object () : json_loadb (data, len, JSON_ALLOW_NUL, &jerr);

      if (root == NULL && json_error_code (&jerr) == json_error_null_byte_in_key)
        {
          /* DynamoDB takes attribute names holding U+0000 (through ExpressionAttributeNames);
           * jansson, which every answer goes through, cannot hold one as a key. */
          g_set_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_FAILED,
                       "The response from %s holds an attribute name (or map key) with U+0000 "
                       "in it, which Dynoscope cannot read",
                       endpoint);
          return DDB_CLIENT_ANSWER_DONE;
        }
      if (!json_is_object (root))
        {
          json_decref (root);
          g_set_error (error, DDB_HTTP_ERROR, DDB_HTTP_ERROR_FAILED,
                       "The response from %s is not a JSON object", endpoint);
          return DDB_CLIENT_ANSWER_DONE;
        }
      *response = root;
      *ok = TRUE;
      return DDB_CLIENT_ANSWER_DONE;
    }

  set_service_error (resp, response, &type, error);
  return ddb_client_error_is_retryable (type, resp->status) ? DDB_CLIENT_ANSWER_RETRY
                                                            : DDB_CLIENT_ANSWER_DONE;
}

static DdbClientAnswer
attempt (DdbClient *client, const char *target, const char *body, gsize body_len,
         GCancellable *cancellable, json_t **response, GPtrArray **items, DdbClientCallInfo *info,
         gboolean *ok, GError **error)
{
  g_autoptr (DdbAwsCredentials) creds = NULL;
  DdbHttpHeader headers[12];
  DdbHttpRequest req = { 0 };
  DdbSigningParams params = { 0 };
  DdbSignature sig = { 0 };
  DdbHttpResponse resp = { 0 };
  DdbClientAnswer r;
  guint n = 0;
  gboolean sent, streams;

  *ok = FALSE;
  creds = ddb_aws_session_get_credentials (client->session, g_get_real_time () / G_USEC_PER_SEC,
                                           cancellable, error);
  if (creds == NULL)
    return DDB_CLIENT_ANSWER_DONE;

  streams = g_str_has_prefix (target, STREAMS_TARGET_PREFIX);
  headers[n++] = (DdbHttpHeader){ "Host", streams ? client->streams_host : client->host };
  headers[n++] = (DdbHttpHeader){ "Content-Type", CONTENT_TYPE };
  headers[n++] = (DdbHttpHeader){ "X-Amz-Target", target };
  req.method = "POST";
  req.path = client->path;
  req.headers = headers;
  req.n_headers = n;
  req.body = (const guint8 *) body;
  req.body_len = body_len;
  params.region = client->signing_region;
  params.service = "dynamodb";
  params.time = g_get_real_time () / G_USEC_PER_SEC;
  params.normalize_path = TRUE;
  if (!ddb_sigv4_sign_headers (&req, &creds->creds, &params, &sig, error))
    return DDB_CLIENT_ANSWER_DONE;
  for (guint i = 0;
       sig.add_headers[i] != NULL && sig.add_headers[i + 1] != NULL && n < G_N_ELEMENTS (headers);
       i += 2)
    headers[n++] = (DdbHttpHeader){ sig.add_headers[i], sig.add_headers[i + 1] };

  info->attempts++;
  sent = ddb_http_post (client->http, streams ? client->streams_endpoint : client->endpoint,
                        headers, n, req.body, req.body_len,
                        cancellable, &resp, error);
  ddb_signature_clear (&sig);
  if (!sent)
    return ddb_http_error_is_transient (*error) ? DDB_CLIENT_ANSWER_RETRY : DDB_CLIENT_ANSWER_DONE;

  info->last_status = resp.status;
  r = ddb_client_read_answer (&resp, client->endpoint, response, items, ok, error);
  ddb_http_response_clear (&resp);
  return r;
}

static gboolean
call (DdbClient *client, const char *operation, json_t *request, GCancellable *cancellable,
      json_t **response, GPtrArray **items, DdbClientCallInfo *info, GError **error)
{
  /* A name with its API ("DynamoDBStreams_20120810.GetRecords") is the whole target. */
  g_autofree char *target = strchr (operation, '.') != NULL
                                ? g_strdup (operation)
                                : g_strconcat (TARGET_PREFIX, operation, NULL);
  DdbClientCallInfo local_info = { 0 };
  gboolean reresolved = FALSE;
  char *body;
  gsize body_len;
  gboolean ok = FALSE;

  *response = NULL;
  if (info == NULL)
    info = &local_info;
  memset (info, 0, sizeof *info);
  body = json_dumps (request, JSON_COMPACT);
  if (body == NULL)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_SERIALIZATION,
                           "The request cannot be serialised as JSON");
      return FALSE;
    }
  body_len = strlen (body);
  reresolve (client, FALSE);

  for (guint n = 1;; n++)
    {
      GError *attempt_error = NULL;
      DdbClientAnswer r = attempt (client, target, body, body_len, cancellable, response, items,
                                   info, &ok, &attempt_error);

      if (r == DDB_CLIENT_ANSWER_DONE && !ok && !reresolved && attempt_error != NULL
          && attempt_error->domain == DDB_ERROR
          && ddb_client_error_is_expired_token (ddb_client_error_name (attempt_error, *response)))
        {
          /* Expired credentials: resolved again, and the request sent once more at once. */
          reresolved = TRUE;
          g_clear_pointer (response, json_decref);
          g_error_free (attempt_error);
          reresolve (client, TRUE);
          n--;
          continue;
        }
      if (r == DDB_CLIENT_ANSWER_DONE || n >= client->max_attempts)
        {
          if (attempt_error != NULL)
            g_propagate_error (error, attempt_error);
          break;
        }
      /* Retrying: this attempt's error and extra members are dropped. */
      g_clear_pointer (response, json_decref);
      if (!ddb_sleep_cancellable (
              ddb_backoff_full_jitter (client->base_delay_ms, client->max_delay_ms, n - 1),
              cancellable, error))
        {
          g_error_free (attempt_error);
          break;
        }
      g_error_free (attempt_error);
    }
  free (body);
  return ok;
}

gboolean
ddb_client_call (DdbClient *client, const char *operation, json_t *request,
                 GCancellable *cancellable, json_t **response, DdbClientCallInfo *info,
                 GError **error)
{
  return call (client, operation, request, cancellable, response, NULL, info, error);
}

gboolean
ddb_client_read (DdbClient *client, const char *operation, json_t *request,
                 GCancellable *cancellable, json_t **response, GPtrArray **items,
                 DdbClientCallInfo *info, GError **error)
{
  *items = NULL;
  return call (client, operation, request, cancellable, response, items, info, error);
}
