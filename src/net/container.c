/* container.c: botocore's ContainerProvider (ECS task roles, EKS Pod Identity): a GET of
 * AWS_CONTAINER_CREDENTIALS_RELATIVE_URI on http://169.254.170.2, or of
 * AWS_CONTAINER_CREDENTIALS_FULL_URI when it is https or goes to a loopback address or one of
 * the ECS / EKS hosts (utils.py ContainerMetadataFetcher's rule, checked before any request),
 * with the Authorization header from AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE (read at every
 * fetch) or AWS_CONTAINER_AUTHORIZATION_TOKEN. 2 s timeouts, 3 attempts 1 s apart, as botocore;
 * unlike botocore, a 4xx answer is not retried (it would not change). */
#include "net/credentials-private.h"

#include "net/hash.h"

#include <string.h>

#define METHOD "container-role"
#define ECS_HOST "169.254.170.2"
#define TIMEOUT_MS 2000
#define ATTEMPTS 3
#define SLEEP_MS 1000

static const char *const allowed_hosts[] = { ECS_HOST, "169.254.170.23", "fd00:ec2::23",
                                             "localhost" };

typedef struct {
  char *url;
} Container;

static void
container_free (gpointer data)
{
  Container *c = data;

  g_free (c->url);
  g_free (c);
}

static gboolean
retrieval_error (GError **error, int code, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
retrieval_error (GError **error, int code, const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, DDB_AWS_ERROR, code, "Error when retrieving credentials from " METHOD ": %s",
               msg);
  return FALSE;
}

/* _validate_allowed_url */
static gboolean
check_url (const char *url, GError **error)
{
  g_autoptr (GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  g_autoptr (GInetAddress) address = NULL;
  g_autofree char *list = NULL;
  const char *host;

  if (uri == NULL || g_uri_get_host (uri) == NULL)
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                   "AWS_CONTAINER_CREDENTIALS_FULL_URI is not a URL: %s", url);
      return FALSE;
    }
  if (g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") == 0)
    return TRUE;
  host = g_uri_get_host (uri);
  address = g_inet_address_new_from_string (host);
  if (address != NULL && g_inet_address_get_is_loopback (address))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (allowed_hosts); i++)
    if (g_ascii_strcasecmp (host, allowed_hosts[i]) == 0)
      return TRUE;
  list = g_strjoinv (", ", (char **) allowed_hosts);
  g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
               "Unsupported host '%s'.  Can only retrieve metadata from a loopback address or "
               "one of these hosts: %s",
               host, list);
  return FALSE;
}

/* _build_headers: the token (to wipe), NULL when there is none or on error. */
static char *
auth_token (DdbAwsSession *s, GError **error)
{
  const char *file = ddb_aws_session_getenv (s, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
  char *token = NULL;
  gsize len = 0;

  if (file != NULL)
    {
      GError *local = NULL;

      if (!g_file_get_contents (file, &token, &len, &local))
        {
          retrieval_error (error, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                           "cannot read AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: %s",
                           local->message);
          g_error_free (local);
          return NULL;
        }
    }
  else
    {
      const char *v = ddb_aws_session_getenv (s, "AWS_CONTAINER_AUTHORIZATION_TOKEN");

      if (v == NULL)
        return NULL;
      token = g_strdup (v);
      len = strlen (token);
    }
  if (strchr (token, '\r') != NULL || strchr (token, '\n') != NULL || strlen (token) != len)
    {
      ddb_secret_free (token);
      g_set_error_literal (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                           "Auth token value is not a legal header value");
      return NULL;
    }
  return token;
}

/* Waits MS milliseconds unless CANCELLABLE fires first (FALSE then). */
static gboolean
pause_cancellable (guint ms, GCancellable *cancellable, GError **error)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      g_usleep (20 * 1000);
    }
  return TRUE;
}

/* *RETRY: whether the answer was not JSON (botocore retries that, not missing members). */
static DdbAwsCredentials *
parse_answer (const char *data, gsize len, gboolean *retry, GError **error)
{
  g_autoptr (DdbSecretJson) json = ddb_secret_json_parse (data, len, NULL);
  static const char *const required[] = { "AccessKeyId", "SecretAccessKey", "Token",
                                          "Expiration" };
  gint64 expiration = 0;

  *retry = json == NULL;
  if (json == NULL)
    {
      retrieval_error (error, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                       "Unable to parse JSON returned from container metadata services");
      return NULL;
    }
  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    if (ddb_secret_json_get_string (json, required[i]) == NULL)
      {
        retrieval_error (error, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                         "the container metadata has no %s", required[i]);
        return NULL;
      }
  if (!ddb_aws_parse_timestamp (ddb_secret_json_get_string (json, "Expiration"), &expiration))
    {
      retrieval_error (error, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                       "the container metadata has an invalid Expiration");
      return NULL;
    }
  return ddb_aws_credentials_new (ddb_secret_json_get_string (json, "AccessKeyId"),
                                  ddb_secret_json_get_string (json, "SecretAccessKey"),
                                  ddb_secret_json_get_string (json, "Token"), expiration, METHOD);
}

static DdbAwsCredentials *
fetch (DdbAwsSession *s, DdbCredSource *src, gint64 now, GCancellable *cancellable,
       GError **error)
{
  Container *c = src->data;
  DdbHttpHeader headers[2] = { { "Accept", "application/json" }, { "Authorization", NULL } };
  DdbAwsRequest req = { 0 };
  DdbAwsCredentials *creds = NULL;
  GError *local = NULL;
  char *token;

  if (!check_url (c->url, error))
    return NULL;
  token = auth_token (s, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  headers[1].value = token;
  req.method = "GET";
  req.url = c->url;
  req.headers = headers;
  req.n_headers = token != NULL ? 2 : 1;
  req.connect_timeout_ms = TIMEOUT_MS;
  req.timeout_ms = 2 * TIMEOUT_MS; /* urllib3's 2 s to connect, then 2 s to read */

  for (guint attempt = 1; creds == NULL; attempt++)
    {
      g_autoptr (GBytes) body = NULL;
      gboolean retry = TRUE;
      guint status = 0;

      g_clear_error (&local);
      if (!ddb_aws_session_send (s, &req, &status, &body, cancellable, &local))
        {
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED)
              || local->domain == DDB_AWS_ERROR)
            break;
          g_prefix_error (&local, "Error when retrieving credentials from " METHOD
                                  ": Received error when attempting to retrieve container "
                                  "metadata: ");
        }
      else if (status != 200)
        {
          /* The body is not quoted: nothing says it holds no secret. */
          retrieval_error (&local, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                           "Received non 200 response %u from container metadata", status);
          retry = status < 400 || status > 499;
        }
      else
        {
          gsize len;
          const char *data = g_bytes_get_data (body, &len);

          creds = parse_answer (data, len, &retry, &local);
        }
      if (body != NULL)
        {
          gsize len;
          gpointer data = (gpointer) g_bytes_get_data (body, &len);

          ddb_secure_zero (data, len);
        }
      if (creds != NULL || !retry || attempt >= ATTEMPTS)
        break;
      g_debug ("Retrying the container credentials endpoint: %s", local->message);
      if (!pause_cancellable (SLEEP_MS, cancellable, NULL))
        break;
    }
  ddb_secret_free (token);
  if (creds == NULL)
    g_propagate_error (error, local);
  else
    g_clear_error (&local);
  return creds;
}

gboolean
ddb_container_source_new (DdbAwsSession *s, DdbCredSource **out, GError **error)
{
  const char *relative = ddb_aws_session_getenv (s, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
  const char *full = ddb_aws_session_getenv (s, "AWS_CONTAINER_CREDENTIALS_FULL_URI");
  Container *c;

  *out = NULL;
  if (relative == NULL && full == NULL)
    return TRUE;
  c = g_new0 (Container, 1);
  c->url = relative != NULL ? g_strconcat ("http://" ECS_HOST, relative, NULL) : g_strdup (full);
  *out = ddb_cred_source_new (METHOD, NULL, fetch, c, container_free);
  return TRUE;
}
