/* imds.c: botocore's InstanceMetadataProvider (utils.py InstanceMetadataFetcher), IMDSv2 only:
 * PUT latest/api/token for a session token, then GET latest/meta-data/iam/security-credentials/
 * for the role's name and .../ROLE for its credentials, each with the token. The endpoint is
 * AWS_EC2_METADATA_SERVICE_ENDPOINT / ec2_metadata_service_endpoint, else IPv4 or IPv6 by
 * AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE / ec2_metadata_service_endpoint_mode (or
 * imds_use_ipv6); AWS_EC2_METADATA_DISABLED=true turns it off; AWS_METADATA_SERVICE_TIMEOUT
 * (1 s) and AWS_METADATA_SERVICE_NUM_ATTEMPTS (1) bound every request, so that a machine that
 * is not on EC2 waits at most about a second. Where botocore falls back to IMDSv1 (the token
 * refused), we fail. Credentials that expire soon are given a short extension as botocore's
 * _evaluate_expiration does (the service may be briefly unavailable), never one that would make
 * the chain refresh at every call. Also the instance's region (imds.h). */
#include "net/credentials-private.h"

#include "net/hash.h"

#include "net/endpoints.h"
#include "net/imds.h"

#include <string.h>

#define METHOD "iam-role"
#define BASE_IPV4 "http://169.254.169.254/"
#define BASE_IPV6 "http://[fd00:ec2::254]/"
#define TOKEN_PATH "latest/api/token"
#define TOKEN_TTL "21600"
#define ROLE_PATH "latest/meta-data/iam/security-credentials/"
#define REGION_PATH "latest/meta-data/placement/region"
/* The credential chain's advisory refresh window (credentials.c). */
#define ADVISORY_REFRESH (15 * 60)

typedef struct {
  char *base_url;
  guint timeout_ms;
  guint attempts;
  gboolean for_region; /* errors say so, rather than that credentials are missing */
} Imds;

static void
imds_free (gpointer data)
{
  Imds *m = data;

  if (m == NULL)
    return;
  g_free (m->base_url);
  g_free (m);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Imds, imds_free)

/* The environment's variable, else the profile's key. */
static const char *
setting (DdbAwsSession *s, const char *env, const char *key)
{
  const char *v = ddb_aws_session_getenv (s, env);

  return v != NULL ? v : ddb_aws_session_config (s, ddb_aws_session_get_profile (s), key);
}

static guint
positive_int (const char *text, guint fallback)
{
  g_autofree char *t = text != NULL ? g_strstrip (g_strdup (text)) : NULL;
  guint64 n;

  if (t == NULL || !g_ascii_string_to_unsigned (t, 10, 1, 3600, &n, NULL))
    return fallback;
  return n;
}

static gboolean
is_disabled (DdbAwsSession *s)
{
  const char *v = ddb_aws_session_getenv (s, "AWS_EC2_METADATA_DISABLED");

  return v != NULL && g_ascii_strcasecmp (v, "true") == 0;
}

/* The fetcher's configuration; NULL with *ERROR set when it is invalid, NULL without an error
 * when IMDS is disabled. */
static Imds *
imds_new (DdbAwsSession *s, GError **error)
{
  const char *endpoint, *mode, *ipv6;
  g_autoptr (Imds) m = NULL;
  gboolean use_ipv6 = FALSE;

  if (is_disabled (s))
    return NULL;
  endpoint = setting (s, "AWS_EC2_METADATA_SERVICE_ENDPOINT", "ec2_metadata_service_endpoint");
  mode = setting (s, "AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE",
                  "ec2_metadata_service_endpoint_mode");
  ipv6 = setting (s, "AWS_IMDS_USE_IPV6", "imds_use_ipv6");
  if (mode != NULL)
    {
      if (g_ascii_strcasecmp (mode, "ipv6") == 0)
        use_ipv6 = TRUE;
      else if (g_ascii_strcasecmp (mode, "ipv4") != 0)
        {
          g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                       "Invalid EC2 Instance Metadata endpoint mode: %s Valid endpoint modes "
                       "(case-insensitive): ('ipv4', 'ipv6').",
                       mode);
          return NULL;
        }
    }
  else
    use_ipv6 = ipv6 != NULL && g_ascii_strcasecmp (ipv6, "true") == 0;

  m = g_new0 (Imds, 1);
  if (endpoint != NULL && endpoint[0] != '\0')
    {
      if (!ddb_aws_check_endpoint_url (endpoint, NULL))
        {
          g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                       "Invalid endpoint EC2 Instance Metadata endpoint: %s", endpoint);
          return NULL;
        }
      m->base_url = g_str_has_suffix (endpoint, "/") ? g_strdup (endpoint)
                                                     : g_strconcat (endpoint, "/", NULL);
    }
  else
    m->base_url = g_strdup (use_ipv6 ? BASE_IPV6 : BASE_IPV4);
  m->timeout_ms = 1000 * positive_int (setting (s, "AWS_METADATA_SERVICE_TIMEOUT",
                                                "metadata_service_timeout"),
                                       1);
  m->attempts = positive_int (setting (s, "AWS_METADATA_SERVICE_NUM_ATTEMPTS",
                                       "metadata_service_num_attempts"),
                              1);
  return g_steal_pointer (&m);
}

static gboolean
imds_error (GError **error, Imds *m, const char *format, ...) G_GNUC_PRINTF (3, 4);

/* DDB_AWS_ERROR_NO_CREDENTIALS: botocore's chain ends with "Unable to locate credentials"
 * when IMDS gives none. */
static gboolean
imds_error (GError **error, Imds *m, const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, DDB_AWS_ERROR,
               m->for_region ? DDB_AWS_ERROR_NO_REGION : DDB_AWS_ERROR_NO_CREDENTIALS,
               "The EC2 instance metadata service at %s %s", m->base_url, msg);
  return FALSE;
}

static void
wipe_bytes (GBytes *body)
{
  gsize len;
  gpointer data;

  if (body == NULL)
    return;
  data = (gpointer) g_bytes_get_data (body, &len);
  ddb_secure_zero (data, len);
}

/* One request; FALSE with ERROR only when cancelled or when the session cannot send. */
static gboolean
send_once (DdbAwsSession *s, Imds *m, const char *method, const char *path,
           const DdbHttpHeader *header, guint *status, GBytes **body, GError **transport_error,
           GCancellable *cancellable, GError **error)
{
  g_autofree char *url = g_strconcat (m->base_url, path, NULL);
  DdbAwsRequest req = { 0 };
  GError *local = NULL;

  req.method = method;
  req.url = url;
  req.headers = header;
  req.n_headers = 1;
  /* urllib3's timeout: as long again to read as to connect. */
  req.connect_timeout_ms = m->timeout_ms;
  req.timeout_ms = 2 * m->timeout_ms;
  if (ddb_aws_session_send (s, &req, status, body, cancellable, &local))
    return TRUE;
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED) || local->domain == DDB_AWS_ERROR)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  g_clear_error (transport_error);
  *transport_error = local;
  *status = 0;
  return TRUE;
}

/* _fetch_metadata_token, without the IMDSv1 fallback. The token is to be wiped. */
static char *
fetch_token (DdbAwsSession *s, Imds *m, GCancellable *cancellable, GError **error)
{
  const DdbHttpHeader ttl = { "x-aws-ec2-metadata-token-ttl-seconds", TOKEN_TTL };
  g_autoptr (GError) transport_error = NULL;
  guint status = 0;

  for (guint i = 0; i < m->attempts; i++)
    {
      g_autoptr (GBytes) body = NULL;
      gsize len;
      const char *data;

      if (!send_once (s, m, "PUT", TOKEN_PATH, &ttl, &status, &body, &transport_error,
                      cancellable, error))
        return NULL;
      if (status == 200)
        {
          char *token;

          data = g_bytes_get_data (body, &len);
          token = g_strndup (data, len);
          wipe_bytes (body);
          g_strstrip (token);
          if (token[0] != '\0')
            return token;
          ddb_secret_free (token);
          imds_error (error, m, "gave an empty IMDSv2 session token");
          return NULL;
        }
      wipe_bytes (body);
      if (status == 403 || status == 404 || status == 405 || status == 400)
        {
          imds_error (error, m,
                      "refused an IMDSv2 session token (HTTP %u); Dynoscope does not fall back "
                      "to IMDSv1",
                      status);
          return NULL;
        }
    }
  if (status == 0 && transport_error != NULL)
    imds_error (error, m, "did not answer: %s", transport_error->message);
  else
    imds_error (error, m, "gave no IMDSv2 session token (HTTP %u)", status);
  return NULL;
}

/* _get_request with the default retry (a non-200 or empty answer), plus invalid JSON when
 * JSON is set. The body is returned (to wipe). */
static GBytes *
get (DdbAwsSession *s, Imds *m, const char *token, const char *path, gboolean json,
     GCancellable *cancellable, GError **error)
{
  const DdbHttpHeader header = { "x-aws-ec2-metadata-token", token };
  g_autoptr (GError) transport_error = NULL;
  guint status = 0;

  for (guint i = 0; i < m->attempts; i++)
    {
      GBytes *body = NULL;
      gsize len = 0;
      const char *data = NULL;
      DdbSecretJson *parsed = NULL;

      if (!send_once (s, m, "GET", path, &header, &status, &body, &transport_error, cancellable,
                      error))
        return NULL;
      if (body != NULL)
        data = g_bytes_get_data (body, &len);
      if (status == 200 && len > 0 && json)
        parsed = ddb_secret_json_parse (data, len, NULL);
      if (status == 200 && len > 0 && (!json || parsed != NULL))
        {
          ddb_secret_json_free (parsed);
          return body;
        }
      if (status == 200)
        status = len == 0 ? 204 : 422; /* for the message below */
      wipe_bytes (body);
      g_clear_pointer (&body, g_bytes_unref);
    }
  if (status == 0 && transport_error != NULL)
    imds_error (error, m, "did not answer GET %s: %s", path, transport_error->message);
  else if (status == 204)
    imds_error (error, m, "gave an empty answer to GET %s", path);
  else if (status == 422)
    imds_error (error, m, "gave an answer to GET %s that is not JSON", path);
  else
    imds_error (error, m, "answered GET %s with HTTP %u", path, status);
  return NULL;
}

/* The first line of a text answer. */
static char *
first_line (GBytes *body)
{
  gsize len;
  const char *data = g_bytes_get_data (body, &len);
  const char *nl = memchr (data, '\n', len);
  char *line = g_strndup (data, nl != NULL ? (gsize) (nl - data) : len);

  return g_strstrip (line);
}

static DdbAwsCredentials *
credentials_from (Imds *m, const char *role, GBytes *body, gint64 now, GError **error)
{
  gsize len;
  const char *data = g_bytes_get_data (body, &len);
  g_autoptr (DdbSecretJson) json = ddb_secret_json_parse (data, len, NULL);
  const char *id = ddb_secret_json_get_string (json, "AccessKeyId");
  const char *secret = ddb_secret_json_get_string (json, "SecretAccessKey");
  const char *token = ddb_secret_json_get_string (json, "Token");
  const char *expires = ddb_secret_json_get_string (json, "Expiration");
  gint64 expiration = 0;

  if (id == NULL || secret == NULL || token == NULL || expires == NULL)
    {
      const char *code = ddb_secret_json_get_string (json, "Code");

      imds_error (error, m, "has no credentials for the role %s%s%s", role,
                  code != NULL ? ": " : "", code != NULL ? code : "");
      return NULL;
    }
  if (!ddb_aws_parse_timestamp (expires, &expiration))
    {
      imds_error (error, m, "gave credentials with an invalid Expiration for the role %s", role);
      return NULL;
    }
  /* _evaluate_expiration: when they expire within the refresh window (plus 2 to 10 minutes
   * of jitter), they are used a little longer, from NOW; here past the chain's advisory window,
   * so that the next attempt comes minutes later rather than at every call. */
  {
    gint64 offset = ADVISORY_REFRESH + g_random_int_range (120, 601);

    if (now >= expiration - offset)
      {
        g_info ("Attempting credential expiration extension due to a credential service "
                "availability issue. A refresh of these credentials will be attempted again "
                "within the next %d minutes.",
                (int) ((offset - ADVISORY_REFRESH + 59) / 60));
        expiration = now + offset;
      }
  }
  return ddb_aws_credentials_new (id, secret, token, expiration, METHOD);
}

static DdbAwsCredentials *
fetch (DdbAwsSession *s, DdbCredSource *src, gint64 now, GCancellable *cancellable,
       GError **error)
{
  Imds *m = src->data;
  g_autoptr (GBytes) names = NULL;
  g_autoptr (GBytes) answer = NULL;
  g_autofree char *role = NULL;
  g_autofree char *path = NULL;
  DdbAwsCredentials *creds = NULL;
  char *token = fetch_token (s, m, cancellable, error);

  if (token == NULL)
    return NULL;
  names = get (s, m, token, ROLE_PATH, FALSE, cancellable, error);
  if (names != NULL)
    {
      role = first_line (names);
      path = g_strconcat (ROLE_PATH, role, NULL);
      answer = get (s, m, token, path, TRUE, cancellable, error);
    }
  if (answer != NULL)
    {
      creds = credentials_from (m, role, answer, now, error);
      wipe_bytes (answer);
    }
  ddb_secret_free (token);
  return creds;
}

gboolean
ddb_imds_source_new (DdbAwsSession *s, DdbCredSource **out, GError **error)
{
  GError *local = NULL;
  Imds *m = imds_new (s, &local);

  *out = NULL;
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (m != NULL)
    *out = ddb_cred_source_new (METHOD, NULL, fetch, m, imds_free);
  return TRUE;
}

char *
ddb_imds_region (DdbAwsSession *s, GCancellable *cancellable, GError **error)
{
  g_autoptr (Imds) m = NULL;
  g_autoptr (GBytes) answer = NULL;
  GError *local = NULL;
  char *token, *region = NULL;

  m = imds_new (s, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  if (m == NULL)
    {
      g_set_error_literal (error, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_REGION,
                           "The EC2 instance metadata service is disabled "
                           "(AWS_EC2_METADATA_DISABLED)");
      return NULL;
    }
  m->for_region = TRUE;
  token = fetch_token (s, m, cancellable, error);
  if (token == NULL)
    return NULL;
  answer = get (s, m, token, REGION_PATH, FALSE, cancellable, error);
  ddb_secret_free (token);
  if (answer != NULL)
    region = first_line (answer);
  return region;
}
