/* sso-device.c: SSO-OIDC (restJson1: JSON bodies, errors named by __type or the OAuth "error"
 * member) and the OAuth device authorization flow of `aws sso login --use-device-code`, as
 * awscli's SSOTokenFetcher does it: a client registration (reused from the cache while valid
 * for 15 more minutes), StartDeviceAuthorization, then CreateToken polled every interval
 * (5 s more after each SlowDownException) until approved, refused or expired; the token
 * written to the cache as the CLI writes it. */
#include "net/hash.h"
#include "net/sso-private.h"

#include <string.h>

/* awscli's SSOTokenFetcher: _SLOW_DOWN_DELAY, _DEFAULT_INTERVAL, _EXPIRY_WINDOW. */
#define SLOW_DOWN_DELAY 5
#define DEFAULT_INTERVAL 5
#define REGISTRATION_WINDOW (15 * 60)
#define DEVICE_CODE_GRANT "urn:ietf:params:oauth:grant-type:device_code"

/* ---- restJson1 ---- */

/* The OAuth error codes (RFC 6749, RFC 8628) as SSO-OIDC's exception names. */
static const struct {
  const char *oauth;
  const char *exception;
} oauth_errors[] = {
  { "authorization_pending", "AuthorizationPendingException" },
  { "slow_down", "SlowDownException" },
  { "expired_token", "ExpiredTokenException" },
  { "access_denied", "AccessDeniedException" },
  { "invalid_grant", "InvalidGrantException" },
  { "invalid_client", "InvalidClientException" },
  { "invalid_request", "InvalidRequestException" },
  { "invalid_scope", "InvalidScopeException" },
  { "unauthorized_client", "UnauthorizedClientException" },
  { "unsupported_grant_type", "UnsupportedGrantTypeException" },
  { "invalid_client_metadata", "InvalidClientMetadataException" },
  { "server_error", "InternalServerException" },
};

static const char *
status_code_name (guint status)
{
  switch (status)
    {
    case 400: return "InvalidRequestException";
    case 401: return "UnauthorizedException";
    case 403: return "ForbiddenException";
    case 404: return "ResourceNotFoundException";
    case 429: return "TooManyRequestsException";
    default: return status >= 500 ? "InternalServerException" : "UnknownError";
    }
}

void
ddb_sso_service_error (DdbSecretJson *json, guint status, char **code, char **message)
{
  const char *type = NULL, *msg = NULL;

  *code = NULL;
  if (json != NULL)
    {
      type = ddb_secret_json_get_string (json, "__type");
      if (type == NULL)
        type = ddb_secret_json_get_string (json, "code");
      if (type != NULL)
        {
          /* "aws.protocoltests#FooError:http://..." -> "FooError", as botocore trims it. */
          const char *hash = strrchr (type, '#');
          const char *start = hash != NULL ? hash + 1 : type;
          const char *colon = strchr (start, ':');

          *code = colon != NULL ? g_strndup (start, colon - start) : g_strdup (start);
        }
      else if ((type = ddb_secret_json_get_string (json, "error")) != NULL)
        {
          for (guint i = 0; i < G_N_ELEMENTS (oauth_errors) && *code == NULL; i++)
            if (strcmp (type, oauth_errors[i].oauth) == 0)
              *code = g_strdup (oauth_errors[i].exception);
        }
      msg = ddb_secret_json_get_string (json, "message");
      if (msg == NULL)
        msg = ddb_secret_json_get_string (json, "Message");
      if (msg == NULL)
        msg = ddb_secret_json_get_string (json, "error_description");
    }
  if (*code == NULL || **code == '\0')
    {
      g_free (*code);
      *code = g_strdup (status_code_name (status));
    }
  *message = g_strdup (msg != NULL ? msg : "");
}

DdbSecretJson *
ddb_sso_oidc_call (DdbAwsSession *s, const char *region, const char *operation, const char *path,
                   const GString *body, char **code, GCancellable *cancellable, GError **error)
{
  static const DdbHttpHeader headers[] = { { "Content-Type", "application/json" } };
  g_autofree char *base = NULL, *url = NULL;
  g_autoptr (GBytes) answer = NULL;
  DdbSecretJson *json;
  DdbAwsRequest req = { 0 };
  guint status = 0;
  const char *data;
  gsize len, n;

  if (code != NULL)
    *code = NULL;
  base = ddb_aws_session_service_url (s, "SSO OIDC", "oidc", region, error);
  if (base == NULL)
    return NULL;
  n = strlen (base);
  while (n > 0 && base[n - 1] == '/')
    base[--n] = '\0';
  url = g_strconcat (base, path, NULL);
  req.method = "POST";
  req.url = url;
  req.headers = headers;
  req.n_headers = G_N_ELEMENTS (headers);
  req.body = (const guint8 *) body->str;
  req.body_len = body->len;
  if (!ddb_aws_session_send (s, &req, &status, &answer, cancellable, error))
    return NULL;
  data = g_bytes_get_data (answer, &len);
  json = ddb_secret_json_parse (data, len, NULL);
  ddb_secure_zero ((gpointer) data, len);
  if (status >= 200 && status <= 299)
    {
      if (json == NULL)
        g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                     "The answer to %s is not a JSON object", operation);
      return json;
    }
  {
    g_autofree char *c = NULL, *message = NULL;

    ddb_sso_service_error (json, status, &c, &message);
    g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                 "An error occurred (%s) when calling the %s operation: %s", c, operation,
                 message);
    if (code != NULL)
      *code = g_steal_pointer (&c);
  }
  ddb_secret_json_free (json);
  return NULL;
}

/* ---- The clock ---- */

static gint64
real_now (gpointer user_data)
{
  return g_get_real_time () / G_USEC_PER_SEC;
}

static gboolean
real_wait (guint seconds, GCancellable *cancellable, gpointer user_data, GError **error)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;
  GPollFD pfd;
  gboolean have_fd = cancellable != NULL && g_cancellable_make_pollfd (cancellable, &pfd);

  for (;;)
    {
      gint64 left = deadline - g_get_monotonic_time ();

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          if (have_fd)
            g_cancellable_release_fd (cancellable);
          return FALSE;
        }
      if (left <= 0)
        break;
      if (have_fd)
        g_poll (&pfd, 1, (gint) MIN ((left + 999) / 1000, 1000));
      else
        g_usleep (MIN (left, cancellable != NULL ? 100000 : left));
    }
  if (have_fd)
    g_cancellable_release_fd (cancellable);
  return TRUE;
}

/* ---- The flow ---- */

struct _DdbSsoLogin {
  DdbAwsSession *session;
  DdbSsoConfig *config;
  DdbSsoClock clock;
  char *cache_dir;
  char *cache_path;
  DdbSsoRegistration *reg;
  char *device_code;
  char *user_code;
  char *verification_uri;
  char *verification_uri_complete;
  gint64 expires_in;
  gint64 expires_at;
  guint interval;
};

void
ddb_sso_login_free (DdbSsoLogin *login)
{
  if (login == NULL)
    return;
  ddb_sso_config_free (login->config);
  g_free (login->cache_dir);
  g_free (login->cache_path);
  ddb_sso_registration_free (login->reg);
  ddb_secret_free (login->device_code);
  g_free (login->user_code);
  g_free (login->verification_uri);
  g_free (login->verification_uri_complete);
  g_free (login);
}

static gint64
login_now (DdbSsoLogin *login)
{
  return login->clock.now (login->clock.user_data);
}

static void
append_member (GString *out, const char *key, const char *value)
{
  if (out->len > 1)
    ddb_secret_string_append (out, ", ");
  ddb_secret_json_append_string (out, key);
  ddb_secret_string_append (out, ": ");
  ddb_secret_json_append_string (out, value);
}

static DdbSsoRegistration *
register_client (DdbSsoLogin *login, GCancellable *cancellable, GError **error)
{
  DdbSsoConfig *cfg = login->config;
  g_autoptr (DdbSecretJson) json = NULL;
  g_autofree char *name = NULL;
  g_autoptr (GString) body = g_string_new ("{");
  DdbSsoRegistration *reg;
  const char *id, *secret;
  gint64 expires;

  /* botocore's _generate_client_name: the session name, or the time for a legacy profile. */
  name = cfg->session_name != NULL
             ? g_strdup_printf ("botocore-client-%s", cfg->session_name)
             : g_strdup_printf ("botocore-client-%" G_GINT64_FORMAT, login_now (login));
  append_member (body, "clientName", name);
  append_member (body, "clientType", "public");
  if (cfg->scopes != NULL && cfg->scopes[0] != NULL)
    {
      g_string_append (body, ", \"scopes\": [");
      for (guint i = 0; cfg->scopes[i] != NULL; i++)
        {
          if (i > 0)
            g_string_append (body, ", ");
          ddb_secret_json_append_string (body, cfg->scopes[i]);
        }
      g_string_append_c (body, ']');
    }
  g_string_append_c (body, '}');
  json = ddb_sso_oidc_call (login->session, cfg->region, "RegisterClient", "/client/register",
                            body, NULL, cancellable, error);
  if (json == NULL)
    return NULL;
  id = ddb_secret_json_get_string (json, "clientId");
  secret = ddb_secret_json_get_string (json, "clientSecret");
  if (id == NULL || secret == NULL
      || !ddb_secret_json_get_int (json, "clientSecretExpiresAt", &expires))
    {
      g_set_error_literal (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                           "The answer to RegisterClient has no clientId, clientSecret or "
                           "clientSecretExpiresAt");
      return NULL;
    }
  reg = g_new0 (DdbSsoRegistration, 1);
  reg->client_id = g_strdup (id);
  reg->client_secret = g_strdup (secret);
  reg->expires_at = ddb_aws_format_timestamp (expires);
  return reg;
}

/* awscli's SSOTokenFetcher._registration: the cached one while valid, else a new one, cached. */
static gboolean
get_registration (DdbSsoLogin *login, GCancellable *cancellable, GError **error)
{
  DdbSsoConfig *cfg = login->config;
  g_autofree char *key = ddb_sso_registration_cache_key (
      cfg->start_url, cfg->region, (const char *const *) cfg->scopes, cfg->session_name);
  g_autofree char *path = ddb_sso_cache_path (login->cache_dir, key);
  DdbSsoRegistration *reg = ddb_sso_registration_read (path);
  gint64 expires;
  GString *text;
  gboolean ok;

  if (reg != NULL && !reg->for_auth_code && ddb_sso_parse_time (reg->expires_at, &expires)
      && expires - login_now (login) >= REGISTRATION_WINDOW)
    {
      login->reg = reg;
      return TRUE;
    }
  ddb_sso_registration_free (reg);
  login->reg = register_client (login, cancellable, error);
  if (login->reg == NULL)
    return FALSE;
  text = ddb_sso_registration_to_json (login->reg, (const char *const *) cfg->scopes);
  ok = ddb_sso_cache_write (login->cache_dir, key, text, error);
  ddb_secret_string_free (text);
  return ok;
}

static gboolean
start_authorization (DdbSsoLogin *login, GCancellable *cancellable, GError **error)
{
  g_autoptr (DdbSecretJson) json = NULL;
  GString *body = ddb_secret_string_new (0);
  const char *device, *user, *uri, *complete;
  gint64 expires_in, interval;

  ddb_secret_string_append_c (body, '{');
  append_member (body, "clientId", login->reg->client_id);
  append_member (body, "clientSecret", login->reg->client_secret);
  append_member (body, "startUrl", login->config->start_url);
  ddb_secret_string_append_c (body, '}');
  json = ddb_sso_oidc_call (login->session, login->config->region, "StartDeviceAuthorization",
                            "/device_authorization", body, NULL, cancellable, error);
  ddb_secret_string_free (body);
  if (json == NULL)
    return FALSE;
  device = ddb_secret_json_get_string (json, "deviceCode");
  user = ddb_secret_json_get_string (json, "userCode");
  uri = ddb_secret_json_get_string (json, "verificationUri");
  complete = ddb_secret_json_get_string (json, "verificationUriComplete");
  if (device == NULL || user == NULL || uri == NULL || complete == NULL
      || !ddb_secret_json_get_int (json, "expiresIn", &expires_in))
    {
      g_set_error_literal (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                           "The answer to StartDeviceAuthorization lacks deviceCode, userCode, "
                           "verificationUri, verificationUriComplete or expiresIn");
      return FALSE;
    }
  login->device_code = g_strdup (device);
  login->user_code = g_strdup (user);
  login->verification_uri = g_strdup (uri);
  login->verification_uri_complete = g_strdup (complete);
  login->expires_in = expires_in;
  login->expires_at = login_now (login) + expires_in;
  if (!ddb_secret_json_get_int (json, "interval", &interval) || interval <= 0
      || interval > 3600)
    interval = DEFAULT_INTERVAL;
  login->interval = interval;
  return TRUE;
}

DdbSsoLogin *
ddb_sso_login_start_full (DdbAwsSession *session, const DdbSsoLoginOptions *options,
                          GCancellable *cancellable, GError **error)
{
  g_autoptr (DdbSsoLogin) login = g_new0 (DdbSsoLogin, 1);

  login->session = session;
  if (options != NULL && options->clock != NULL)
    login->clock = *options->clock;
  if (login->clock.now == NULL)
    login->clock.now = real_now;
  if (login->clock.wait == NULL)
    login->clock.wait = real_wait;
  login->config = ddb_sso_config_for_login (session, options != NULL ? options->sso_session
                                                                     : NULL,
                                            error);
  if (login->config == NULL)
    return NULL;
  login->cache_dir = ddb_sso_cache_dir (ddb_aws_session_envp (session));
  if (!get_registration (login, cancellable, error)
      || !start_authorization (login, cancellable, error))
    return NULL;
  return g_steal_pointer (&login);
}

DdbSsoLogin *
ddb_sso_login_start (DdbAwsSession *session, GCancellable *cancellable, GError **error)
{
  return ddb_sso_login_start_full (session, NULL, cancellable, error);
}

const DdbSsoConfig *
ddb_sso_login_get_config (DdbSsoLogin *login)
{
  return login->config;
}

const char *
ddb_sso_login_get_verification_uri (DdbSsoLogin *login)
{
  return login->verification_uri;
}

const char *
ddb_sso_login_get_verification_uri_complete (DdbSsoLogin *login)
{
  return login->verification_uri_complete;
}

const char *
ddb_sso_login_get_user_code (DdbSsoLogin *login)
{
  return login->user_code;
}

gint64
ddb_sso_login_get_expires_in (DdbSsoLogin *login)
{
  return login->expires_in;
}

guint
ddb_sso_login_get_interval (DdbSsoLogin *login)
{
  return login->interval;
}

const char *
ddb_sso_login_get_cache_path (DdbSsoLogin *login)
{
  return login->cache_path;
}

static gboolean
expired (GError **error)
{
  /* botocore's PendingAuthorizationExpiredError. */
  g_set_error_literal (error, DDB_AWS_ERROR, DDB_AWS_ERROR_SIGN_IN_REQUIRED,
                       "The pending authorization to retrieve an SSO token has expired. The "
                       "login flow to retrieve an SSO token must be restarted.");
  return FALSE;
}

/* The token of an approved authorization, written to the cache. */
static gboolean
save_token (DdbSsoLogin *login, DdbSecretJson *json, gint64 now, GError **error)
{
  DdbSsoConfig *cfg = login->config;
  g_autoptr (DdbSsoToken) token = g_new0 (DdbSsoToken, 1);
  g_autofree char *key = ddb_sso_token_cache_key (cfg->start_url, cfg->session_name);
  const char *access = ddb_secret_json_get_string (json, "accessToken");
  gint64 expires_in;
  GString *text;
  gboolean ok;

  if (access == NULL || !ddb_secret_json_get_int (json, "expiresIn", &expires_in))
    {
      g_set_error_literal (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                           "The answer to CreateToken has no accessToken or expiresIn");
      return FALSE;
    }
  token->start_url = g_strdup (cfg->start_url);
  token->region = g_strdup (cfg->region);
  token->access_token = g_strdup (access);
  token->expires_at = now + expires_in;
  token->client_id = g_strdup (login->reg->client_id);
  token->client_secret = g_strdup (login->reg->client_secret);
  token->registration_expires_at = g_strdup (login->reg->expires_at);
  token->refresh_token = g_strdup (ddb_secret_json_get_string (json, "refreshToken"));
  text = ddb_sso_token_to_json (token);
  ok = ddb_sso_cache_write (login->cache_dir, key, text, error);
  ddb_secret_string_free (text);
  if (ok)
    login->cache_path = ddb_sso_cache_path (login->cache_dir, key);
  return ok;
}

gboolean
ddb_sso_login_finish (DdbSsoLogin *login, GCancellable *cancellable, GError **error)
{
  GString *body = ddb_secret_string_new (0);
  gboolean ok = FALSE;

  ddb_secret_string_append_c (body, '{');
  /* The members in CreateToken's model order. */
  append_member (body, "clientId", login->reg->client_id);
  append_member (body, "clientSecret", login->reg->client_secret);
  append_member (body, "grantType", DEVICE_CODE_GRANT);
  append_member (body, "deviceCode", login->device_code);
  ddb_secret_string_append_c (body, '}');

  for (;;)
    {
      g_autoptr (DdbSecretJson) json = NULL;
      g_autofree char *code = NULL;
      GError *local = NULL;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        break;
      if (login_now (login) >= login->expires_at)
        {
          expired (error);
          break;
        }
      json = ddb_sso_oidc_call (login->session, login->config->region, "CreateToken", "/token",
                                body, &code, cancellable, &local);
      if (json != NULL)
        {
          ok = save_token (login, json, login_now (login), error);
          break;
        }
      if (code == NULL)
        {
          g_propagate_error (error, local);
          break;
        }
      if (strcmp (code, "SlowDownException") == 0)
        login->interval += SLOW_DOWN_DELAY;
      else if (strcmp (code, "ExpiredTokenException") == 0)
        {
          g_error_free (local);
          expired (error);
          break;
        }
      else if (strcmp (code, "AuthorizationPendingException") != 0)
        {
          if (strcmp (code, "AccessDeniedException") == 0)
            local->code = DDB_AWS_ERROR_SIGN_IN_REQUIRED;
          g_propagate_error (error, local);
          break;
        }
      g_clear_error (&local);
      if (!login->clock.wait (login->interval, cancellable, login->clock.user_data, error))
        break;
    }
  ddb_secret_string_free (body);
  return ok;
}
