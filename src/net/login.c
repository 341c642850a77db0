/* login.c: botocore's LoginProvider, the `aws login` console credentials of a profile with
 * login_session. `aws login` keeps the session in <cache>/<sha256(login_session)>.json (the cache
 * is AWS_LOGIN_CACHE_DIRECTORY or ~/.aws/login/cache):
 *   {"accessToken": {"accessKeyId", "secretAccessKey", "sessionToken", "accountId",
 *    "expiresAt"}, "tokenType", "refreshToken", "identityToken", "clientId", "dpopKey"}
 * Its access credentials are used while they are valid; near their end they are refreshed with
 * the sign-in service's CreateOAuth2Token (POST <signin>/v1/token, unsigned, a DPoP proof made
 * with the cached dpopKey, the JSON {"clientId", "refreshToken", "grantType": "refresh_token"})
 * and the file is written back as botocore's JSONFileCache writes it (json.dumps, a 0600 temp
 * file renamed over it), so the AWS CLI and Dynoscope keep sharing the session. */
#include "net/cache-file.h"
#include "net/credentials-private.h"

#include "net/hash.h"
#include "net/login-dpop.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

/* botocore refreshes when 5 minutes or less remain (the source's refresh windows say the same
 * to the chain). */
#define REFRESH_THRESHOLD (5 * 60)

typedef struct {
  char *session_name; /* login_session: the session's identifier, e.g. an ARN */
  char *cache_path;   /* <cache dir>/<sha256 hex>.json */
} Login;

static void
login_free (gpointer data)
{
  Login *login = data;

  g_free (login->session_name);
  g_free (login->cache_path);
  g_free (login);
}

/* ---- Errors: they name the profile and the command, never a secret ---- */

static DdbAwsCredentials *
sign_in_required (GError **error, const char *profile, const char *what)
{
  g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_SIGN_IN_REQUIRED,
               "Error loading login session token for profile \"%s\": %s. Please reauthenticate "
               "with 'aws login --profile %s'.",
               profile, what, profile);
  return NULL;
}

/* ---- The cache file ---- */

static const char *const ACCESS_FIELDS[] = {
  "accessKeyId", "secretAccessKey", "sessionToken", "accountId", "expiresAt",
};

/* The file's token, checked for what botocore needs; NULL with a sign-in-required error. */
static DdbSecretJson *
load_token (Login *login, const char *profile, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *what = NULL;
  g_autoptr (GString) missing = g_string_new (NULL);
  static const char *const required[] = { "refreshToken", "dpopKey", "clientId" };
  DdbSecretJson *token;
  char *text = NULL;
  gsize len = 0, offset = 0;

  if (!g_file_get_contents (login->cache_path, &text, &len, &local))
    {
      if (g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        what = g_strdup_printf ("Unable to load an existing login session for session %s "
                                "(no %s)",
                                login->session_name, login->cache_path);
      else
        what = g_strdup_printf ("Unable to read %s: %s", login->cache_path, local->message);
      sign_in_required (error, profile, what);
      return NULL;
    }
  token = ddb_secret_json_parse (text, len, &offset);
  ddb_secure_zero (text, len);
  g_free (text);
  if (token == NULL)
    {
      what = g_strdup_printf ("%s is not a JSON object (at byte %" G_GSIZE_FORMAT ")",
                              login->cache_path, offset);
      sign_in_required (error, profile, what);
      return NULL;
    }
  if (ddb_secret_json_kind (token, "accessToken") != DDB_SECRET_JSON_OBJECT)
    g_string_append (missing, ", accessToken");
  else
    for (guint i = 0; i < G_N_ELEMENTS (ACCESS_FIELDS); i++)
      {
        g_autofree char *path = g_strconcat ("accessToken.", ACCESS_FIELDS[i], NULL);

        if (ddb_secret_json_get_string (token, path) == NULL)
          g_string_append_printf (missing, ", %s", path);
      }
  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    if (ddb_secret_json_get_string (token, required[i]) == NULL)
      g_string_append_printf (missing, ", %s", required[i]);
  if (missing->len > 0)
    {
      ddb_secret_json_free (token);
      what = g_strdup_printf ("Failed to load access token from %s, missing required fields: "
                              "%s",
                              login->cache_path, missing->str + 2);
      sign_in_required (error, profile, what);
      return NULL;
    }
  return token;
}

static DdbAwsCredentials *
token_credentials (DdbSecretJson *token, gint64 expiration)
{
  return ddb_aws_credentials_new (ddb_secret_json_get_string (token, "accessToken.accessKeyId"),
                                  ddb_secret_json_get_string (token, "accessToken.secretAccessKey"),
                                  ddb_secret_json_get_string (token, "accessToken.sessionToken"),
                                  expiration, "login");
}

/* Whether every key in the object at PATH (and below) can be addressed by path: keys with '.'
 * or '[' cannot, so such a file cannot be written back faithfully. */
static gboolean
addressable (DdbSecretJson *json, const char *path)
{
  const char *const *names = ddb_secret_json_members (json, path);

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      g_autofree char *child
          = path[0] != '\0' ? g_strconcat (path, ".", names[i], NULL) : g_strdup (names[i]);

      if (strpbrk (names[i], ".[") != NULL || !addressable (json, child))
        return FALSE;
    }
  for (guint i = 0;; i++)
    {
      g_autofree char *child = g_strdup_printf ("%s[%u]", path, i);
      DdbSecretJsonKind kind = ddb_secret_json_kind (json, child);

      if (kind == DDB_SECRET_JSON_ABSENT)
        return TRUE;
      if (kind == DDB_SECRET_JSON_OBJECT && !addressable (json, child))
        return FALSE;
    }
}

/* The value at PATH as Python's json.dumps writes it (", " and ": ", ASCII only). Numbers are
 * kept as the file wrote them. */
static void
dump_value (GString *out, DdbSecretJson *json, const char *path)
{
  switch (ddb_secret_json_kind (json, path))
    {
    case DDB_SECRET_JSON_STRING:
      ddb_secret_json_append_string (out, ddb_secret_json_get_string (json, path));
      break;
    case DDB_SECRET_JSON_NUMBER:
      ddb_secret_string_append (out, ddb_secret_json_get (json, path));
      break;
    case DDB_SECRET_JSON_TRUE:
      ddb_secret_string_append (out, "true");
      break;
    case DDB_SECRET_JSON_FALSE:
      ddb_secret_string_append (out, "false");
      break;
    case DDB_SECRET_JSON_NULL:
    case DDB_SECRET_JSON_ABSENT:
      ddb_secret_string_append (out, "null");
      break;
      case DDB_SECRET_JSON_OBJECT: {
        const char *const *names = ddb_secret_json_members (json, path);

        ddb_secret_string_append_c (out, '{');
        for (guint i = 0; names[i] != NULL; i++)
          {
            g_autofree char *child
                = path[0] != '\0' ? g_strconcat (path, ".", names[i], NULL) : g_strdup (names[i]);

            if (i > 0)
              ddb_secret_string_append (out, ", ");
            ddb_secret_json_append_string (out, names[i]);
            ddb_secret_string_append (out, ": ");
            dump_value (out, json, child);
          }
        ddb_secret_string_append_c (out, '}');
        break;
      }
    case DDB_SECRET_JSON_ARRAY:
      ddb_secret_string_append_c (out, '[');
      for (guint i = 0;; i++)
        {
          g_autofree char *child = g_strdup_printf ("%s[%u]", path, i);

          if (ddb_secret_json_kind (json, child) == DDB_SECRET_JSON_ABSENT)
            break;
          if (i > 0)
            ddb_secret_string_append (out, ", ");
          dump_value (out, json, child);
        }
      ddb_secret_string_append_c (out, ']');
      break;
    }
}

/* botocore's token.update ({"accessToken": {...}, "refreshToken": ...}) then json.dumps: every
 * other key kept in its place, accessToken replaced by the five fields in botocore's order. */
static GString *
updated_token (DdbSecretJson *token, DdbSecretJson *output, gint64 expiration)
{
  const char *const *names = ddb_secret_json_members (token, "");
  g_autofree char *expires_at = ddb_aws_format_timestamp (expiration);
  GString *out = g_string_new ("{");

  for (guint i = 0; names[i] != NULL; i++)
    {
      if (i > 0)
        ddb_secret_string_append (out, ", ");
      ddb_secret_json_append_string (out, names[i]);
      ddb_secret_string_append (out, ": ");
      if (strcmp (names[i], "accessToken") == 0)
        {
          ddb_secret_string_append (out, "{\"accessKeyId\": ");
          dump_value (out, output, "accessToken.accessKeyId");
          ddb_secret_string_append (out, ", \"secretAccessKey\": ");
          dump_value (out, output, "accessToken.secretAccessKey");
          ddb_secret_string_append (out, ", \"sessionToken\": ");
          dump_value (out, output, "accessToken.sessionToken");
          ddb_secret_string_append (out, ", \"accountId\": ");
          dump_value (out, token, "accessToken.accountId");
          ddb_secret_string_append (out, ", \"expiresAt\": ");
          ddb_secret_json_append_string (out, expires_at);
          ddb_secret_string_append_c (out, '}');
        }
      else if (strcmp (names[i], "refreshToken") == 0)
        dump_value (out, output, "refreshToken");
      else
        dump_value (out, token, names[i]);
    }
  ddb_secret_string_append_c (out, '}');
  return out;
}

/* ---- The sign-in service ---- */

static gboolean
setting_true (DdbAwsSession *s, const char *profile, const char *env, const char *key)
{
  const char *v = ddb_aws_session_getenv (s, env);

  if (v == NULL)
    v = ddb_aws_session_config (s, profile, key);
  return v != NULL && g_ascii_strcasecmp (v, "true") == 0;
}

/* The signin service's endpoint rules (endpoint-rule-set-1.json of signin 2023-01-01): a
 * configured endpoint (AWS_ENDPOINT_URL_SIGNIN, [services], ...), else https://REGION.signin.
 * aws.amazon.com in the aws partition (.amazonaws.cn, .amazonaws-us-gov.com in China and
 * GovCloud), https://signin[-fips].REGION.<suffix> with FIPS or dual-stack or elsewhere. */
static char *
signin_url (DdbAwsSession *s, const char *profile, GError **error)
{
  const char *region = ddb_aws_session_get_region (s);
  gboolean fips = setting_true (s, profile, "AWS_USE_FIPS_ENDPOINT", "use_fips_endpoint");
  gboolean dual = setting_true (s, profile, "AWS_USE_DUALSTACK_ENDPOINT", "use_dualstack_endpoint");
  const char *suffix;
  char *url = NULL;
  gboolean cn, gov;

  if (!ddb_aws_configured_endpoint (ddb_aws_session_get_config (s), profile, "Signin",
                                    ddb_aws_session_envp (s), &url, error))
    return NULL;
  if (url != NULL)
    return url;
  if (region == NULL)
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_REGION,
                   "The profile \"%s\" needs a region to refresh its `aws login` session", profile);
      return NULL;
    }
  suffix = ddb_aws_region_dns_suffix (region);
  cn = g_str_has_prefix (region, "cn-");
  gov = g_str_has_prefix (region, "us-gov-");
  if (dual)
    {
      if (!cn && strcmp (suffix, "amazonaws.com") != 0)
        {
          g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_ENDPOINT,
                       "DualStack is enabled but the partition of %s does not support it", region);
          return NULL;
        }
      suffix = cn ? "api.amazonwebservices.com.cn" : "api.aws";
    }
  if (fips || dual)
    return g_strdup_printf ("https://signin%s.%s.%s", fips ? "-fips" : "", region, suffix);
  if (cn)
    return g_strdup_printf ("https://%s.signin.amazonaws.cn", region);
  if (gov)
    return g_strdup_printf ("https://%s.signin.amazonaws-us-gov.com", region);
  if (strcmp (suffix, "amazonaws.com") == 0)
    return g_strdup_printf ("https://%s.signin.aws.amazon.com", region);
  return g_strdup_printf ("https://signin.%s.%s", region, suffix);
}

/* An error answer's "error" code, if it is a plain word (it goes into a message). */
static const char *
error_code (DdbSecretJson *answer)
{
  const char *code = answer != NULL ? ddb_secret_json_get_string (answer, "error") : NULL;

  if (code == NULL || code[0] == '\0' || strlen (code) > 64
      || strspn (code, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_") != strlen (code))
    return NULL;
  return code;
}

/* CreateOAuth2Token with grantType refresh_token. Returns the answer's tokenOutput, checked. */
static DdbSecretJson *
create_token (DdbAwsSession *s, const char *profile, DdbSecretJson *token, gint64 now,
              GCancellable *cancellable, GError **error)
{
  g_autoptr (DdbDpopKey) key = NULL;
  g_autoptr (GError) local = NULL;
  g_autoptr (GBytes) answer = NULL;
  g_autofree char *base = NULL;
  g_autofree char *url = NULL;
  g_autofree char *jti = NULL;
  g_autofree char *proof = NULL;
  GString *body;
  DdbAwsRequest req = { 0 };
  DdbHttpHeader headers[2];
  DdbSecretJson *output;
  const char *data, *code;
  gsize len = 0;
  guint status = 0;
  gint64 expires_in;
  gboolean ok;

  key = ddb_dpop_key_new_from_pem (ddb_secret_json_get_string (token, "dpopKey"), &local);
  if (key == NULL)
    {
      sign_in_required (error, profile, local->message);
      return NULL;
    }
  base = signin_url (s, profile, error);
  if (base == NULL)
    return NULL;
  while (g_str_has_suffix (base, "/"))
    base[strlen (base) - 1] = '\0';
  url = g_strconcat (base, "/v1/token", NULL);
  jti = g_uuid_string_random ();
  proof = ddb_dpop_proof (key, "POST", url, now, jti, error);
  if (proof == NULL)
    return NULL;

  /* botocore's rest-json body for the tokenInput payload, observed:
   * {"clientId": "...", "refreshToken": "...", "grantType": "refresh_token"} */
  body = g_string_new ("{\"clientId\": ");
  ddb_secret_json_append_string (body, ddb_secret_json_get_string (token, "clientId"));
  ddb_secret_string_append (body, ", \"refreshToken\": ");
  ddb_secret_json_append_string (body, ddb_secret_json_get_string (token, "refreshToken"));
  ddb_secret_string_append (body, ", \"grantType\": \"refresh_token\"}");

  headers[0] = (DdbHttpHeader){ "Content-Type", "application/json" };
  headers[1] = (DdbHttpHeader){ "DPoP", proof };
  req.method = "POST";
  req.url = url;
  req.headers = headers;
  req.n_headers = G_N_ELEMENTS (headers);
  req.body = (const guint8 *) body->str;
  req.body_len = body->len;
  ok = ddb_aws_session_send (s, &req, &status, &answer, cancellable, error);
  ddb_secret_string_free (body);
  if (!ok)
    return NULL;

  data = g_bytes_get_data (answer, &len);
  output = ddb_secret_json_parse (data != NULL ? data : "", len, NULL);
  ddb_secure_zero ((gpointer) data, len);
  if (status < 200 || status > 299)
    {
      code = error_code (output);
      if (code != NULL
          && (strcmp (code, "TOKEN_EXPIRED") == 0
              || strcmp (code, "USER_CREDENTIALS_CHANGED") == 0))
        g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_SIGN_IN_REQUIRED,
                     "The `aws login` session of profile \"%s\" has expired or its credentials "
                     "have changed (%s). Please reauthenticate using 'aws login --profile %s'.",
                     profile, code, profile);
      else if (code != NULL && strcmp (code, "INSUFFICIENT_PERMISSIONS") == 0)
        g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                     "Unable to create or refresh login credentials for profile \"%s\" due to "
                     "insufficient permissions. You may be missing permission for the "
                     "'signin:CreateOAuth2Token' action.",
                     profile);
      else
        g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                     "Refreshing the `aws login` session of profile \"%s\" failed: the sign-in "
                     "service answered HTTP %u%s%s",
                     profile, status, code != NULL ? " " : "", code != NULL ? code : "");
      ddb_secret_json_free (output);
      return NULL;
    }
  if (output == NULL || ddb_secret_json_get_string (output, "accessToken.accessKeyId") == NULL
      || ddb_secret_json_get_string (output, "accessToken.secretAccessKey") == NULL
      || ddb_secret_json_get_string (output, "accessToken.sessionToken") == NULL
      || ddb_secret_json_get_string (output, "refreshToken") == NULL
      || !ddb_secret_json_get_int (output, "expiresIn", &expires_in) || expires_in <= 0)
    {
      ddb_secret_json_free (output);
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                   "Unable to refresh the access token of profile \"%s\" due to an invalid "
                   "service response. Please try running 'aws login --profile %s' again. If the "
                   "issue persists, there may be a temporary signin service problem.",
                   profile, profile);
      return NULL;
    }
  return output;
}

/* LoginCredentialFetcher: the cached credentials while they last, else a refresh. */
static DdbAwsCredentials *
login_fetch (DdbAwsSession *s, DdbCredSource *src, gint64 now, GCancellable *cancellable,
             GError **error)
{
  Login *login = src->data;
  g_autoptr (DdbSecretJson) token = NULL;
  g_autoptr (DdbSecretJson) output = NULL;
  g_autoptr (GError) local = NULL;
  GString *text;
  gint64 expiration, expires_in = 0;

  token = load_token (login, src->profile, error);
  if (token == NULL)
    return NULL;
  if (!ddb_aws_parse_timestamp (ddb_secret_json_get_string (token, "accessToken.expiresAt"),
                                &expiration))
    return sign_in_required (error, src->profile,
                             "the cached accessToken.expiresAt is not a "
                             "date and time");
  if (expiration - now > REFRESH_THRESHOLD)
    return token_credentials (token, expiration);

  if (!addressable (token, ""))
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                   "The login cache file %s has keys with '.' or '[', which Dynoscope cannot "
                   "write back; refresh the session with 'aws login --profile %s'",
                   login->cache_path, src->profile);
      return NULL;
    }
  output = create_token (s, src->profile, token, now, cancellable, error);
  if (output == NULL)
    return NULL;
  ddb_secret_json_get_int (output, "expiresIn", &expires_in);
  expiration = now + expires_in;
  text = updated_token (token, output, expiration);
  /* botocore fails the refresh when the cache cannot be written; the refresh token is spent
   * by then, so the fresh credentials are used all the same. */
  if (!ddb_aws_cache_file_write (login->cache_path, text->str, text->len, &local))
    g_warning ("The refreshed `aws login` session of profile %s could not be saved: %s",
               src->profile, local->message);
  ddb_secret_string_free (text);
  return ddb_aws_credentials_new (
      ddb_secret_json_get_string (output, "accessToken.accessKeyId"),
      ddb_secret_json_get_string (output, "accessToken.secretAccessKey"),
      ddb_secret_json_get_string (output, "accessToken.sessionToken"), expiration, "login");
}

/* get_login_token_cache_directory: AWS_LOGIN_CACHE_DIRECTORY (even empty; $VARS and ~
 * expanded), else ~/.aws/login/cache. */
static char *
cache_directory (DdbAwsSession *s)
{
  const char *dir = ddb_aws_session_getenv (s, "AWS_LOGIN_CACHE_DIRECTORY");

  return ddb_aws_expand_path (dir != NULL ? dir : "~/.aws/login/cache", ddb_aws_session_envp (s));
}

gboolean
ddb_login_source_new (DdbAwsSession *s, const char *profile, DdbCredSource **out, GError **error)
{
  const char *session_name;
  g_autofree char *dir = NULL;
  g_autofree char *key = NULL;
  g_autofree char *file = NULL;
  Login *login;

  (void) error;
  *out = NULL;
  if (!ddb_aws_config_has (ddb_aws_session_get_config (s), profile, "login_session"))
    return TRUE;
  session_name = ddb_aws_config_get (ddb_aws_session_get_config (s), profile, "login_session");
  if (session_name == NULL)
    session_name = "";
  dir = cache_directory (s);
  key = g_compute_checksum_for_string (G_CHECKSUM_SHA256, session_name, -1);
  file = g_strconcat (key, ".json", NULL);
  login = g_new0 (Login, 1);
  login->session_name = g_strdup (session_name);
  login->cache_path = dir[0] != '\0' ? g_build_filename (dir, file, NULL) : g_strdup (file);
  *out = ddb_cred_source_new ("login", profile, login_fetch, login, login_free);
  (*out)->sign_in = DDB_AWS_SIGN_IN_LOGIN;
  /* The credentials last 15 minutes: kept until 5 remain, as botocore refreshes them. */
  (*out)->advisory_refresh = REFRESH_THRESHOLD;
  (*out)->mandatory_refresh = 60;
  return TRUE;
}
