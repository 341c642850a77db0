/* sso.c: IAM Identity Center (SSO) credentials, as botocore's SSOProvider, SSOTokenProvider and
 * SSOCredentialFetcher do them: a profile's sso_session (with its [sso-session NAME] section)
 * or legacy sso_* keys, the cached access token (refreshed through SSO-OIDC CreateToken with
 * the refresh token when it is in its last 15 minutes, for sso-session profiles only, and the
 * cache file rewritten), exchanged for role credentials with the portal's GetRoleCredentials.
 * Also the configuration as `aws sso login` reads it (sso.h). */
#include "net/hash.h"
#include "net/sso-private.h"

#include <string.h>

/* botocore's SSOTokenProvider._REFRESH_WINDOW. */
#define REFRESH_WINDOW (15 * 60)

typedef struct {
  char *session_name; /* NULL: a legacy profile */
  char *start_url;
  char *region;
  char *account_id;
  char *role_name;
  char *cache_dir;
} SsoSource;

static void
sso_source_free (gpointer data)
{
  SsoSource *src = data;

  g_free (src->session_name);
  g_free (src->start_url);
  g_free (src->region);
  g_free (src->account_id);
  g_free (src->role_name);
  g_free (src->cache_dir);
  g_free (src);
}

void
ddb_sso_config_free (DdbSsoConfig *config)
{
  if (config == NULL)
    return;
  g_free (config->profile);
  g_free (config->session_name);
  g_free (config->start_url);
  g_free (config->region);
  g_strfreev (config->scopes);
  g_free (config->account_id);
  g_free (config->role_name);
  g_free (config);
}

void
ddb_sso_set_sign_in_error (GError **error, const char *profile, const char *what)
{
  static const char expired[] = "The SSO session associated with this profile has expired or is "
                                "otherwise invalid.";

  g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_SIGN_IN_REQUIRED,
               "%s%s To refresh this SSO session run aws sso login with the corresponding "
               "profile (\"aws sso login --profile %s\").",
               what != NULL ? what : expired, what != NULL ? "." : "", profile);
}

static const char *
profile_value (DdbAwsSession *s, const char *profile, const char *key)
{
  return ddb_aws_config_get (ddb_aws_session_get_config (s), profile, key);
}

/* awscli's parse_sso_registration_scopes: comma-separated, blanks dropped. */
static char **
parse_scopes (const char *raw)
{
  g_auto (GStrv) parts = g_strsplit (raw, ",", -1);
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *scope = g_strstrip (parts[i]);

      if (*scope != '\0')
        g_ptr_array_add (out, g_strdup (scope));
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

static void
add_missing (GString *missing, const char *key, const char *sep)
{
  if (missing->len > 0)
    g_string_append (missing, sep);
  g_string_append (missing, key);
}

/* ---- The configuration, as `aws sso login` reads it ---- */

DdbSsoConfig *
ddb_sso_config_for_login (DdbAwsSession *s, const char *sso_session, GError **error)
{
  const char *profile = ddb_aws_session_get_profile (s);
  g_autoptr (DdbSsoConfig) cfg = g_new0 (DdbSsoConfig, 1);
  g_autoptr (GString) missing = g_string_new (NULL);
  static const char *const required[] = { "sso_start_url", "sso_region" };

  cfg->profile = g_strdup (profile);
  if (sso_session == NULL)
    sso_session = profile_value (s, profile, "sso_session");
  if (sso_session != NULL)
    {
      g_autoptr (GHashTable) section
          = ddb_aws_config_get_sso_session (ddb_aws_session_get_config (s), sso_session);
      const char *scopes;

      if (section == NULL)
        {
          g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                       "The specified sso-session does not exist: \"%s\"", sso_session);
          return NULL;
        }
      cfg->session_name = g_strdup (sso_session);
      cfg->start_url = g_strdup (g_hash_table_lookup (section, "sso_start_url"));
      cfg->region = g_strdup (g_hash_table_lookup (section, "sso_region"));
      scopes = g_hash_table_lookup (section, "sso_registration_scopes");
      if (scopes != NULL)
        cfg->scopes = parse_scopes (scopes);
    }
  else
    {
      cfg->start_url = g_strdup (profile_value (s, profile, "sso_start_url"));
      cfg->region = g_strdup (profile_value (s, profile, "sso_region"));
    }
  if (cfg->start_url == NULL)
    add_missing (missing, required[0], ", ");
  if (cfg->region == NULL)
    add_missing (missing, required[1], ", ");
  if (missing->len > 0)
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                   "Missing the following required SSO configuration values: %s. %s",
                   missing->str,
                   cfg->session_name == NULL ? "To make sure this profile is properly "
                                               "configured to use SSO, please run: aws "
                                               "configure sso"
                                             : "");
      return NULL;
    }
  cfg->account_id = g_strdup (profile_value (s, profile, "sso_account_id"));
  cfg->role_name = g_strdup (profile_value (s, profile, "sso_role_name"));
  return g_steal_pointer (&cfg);
}

gboolean
ddb_sso_profile_info (DdbAwsSession *s, char **start_url, char **session_name)
{
  const char *profile = ddb_aws_session_get_profile (s);
  const char *name = profile_value (s, profile, "sso_session");
  const char *url = NULL;

  if (start_url != NULL)
    *start_url = NULL;
  if (session_name != NULL)
    *session_name = NULL;
  if (name != NULL)
    {
      g_autoptr (GHashTable) section
          = ddb_aws_config_get_sso_session (ddb_aws_session_get_config (s), name);

      if (start_url != NULL && section != NULL)
        *start_url = g_strdup (g_hash_table_lookup (section, "sso_start_url"));
      if (session_name != NULL)
        *session_name = g_strdup (name);
      return TRUE;
    }
  url = profile_value (s, profile, "sso_start_url");
  if (url == NULL)
    return FALSE;
  if (start_url != NULL)
    *start_url = g_strdup (url);
  return TRUE;
}

/* ---- The credential provider ---- */

/* botocore's SSOTokenProvider._refresh_access_token: NULL without an error when the token
 * cannot be refreshed (keys missing, registration expired) or the service refused; NULL with
 * an error when no answer came or the call was cancelled. */
static DdbSsoToken *
refresh_token (DdbAwsSession *s, SsoSource *cfg, const DdbSsoToken *old, gint64 now,
               GCancellable *cancellable, GError **error)
{
  g_autoptr (DdbSecretJson) json = NULL;
  g_autofree char *code = NULL;
  GString *body;
  GError *local = NULL;
  DdbSsoToken *token;
  const char *access, *refresh;
  gint64 reg_expires, expires_in;

  if (old->refresh_token == NULL || old->client_id == NULL || old->client_secret == NULL
      || old->registration_expires_at == NULL)
    {
      g_info ("Unable to refresh the SSO token of %s: the cache has no refresh token",
              cfg->session_name);
      return NULL;
    }
  if (!ddb_sso_parse_time (old->registration_expires_at, &reg_expires) || reg_expires <= now)
    {
      g_info ("The SSO client registration of %s has expired", cfg->session_name);
      return NULL;
    }

  /* The members in CreateToken's model order. */
  body = ddb_secret_string_new (0);
  ddb_secret_string_append (body, "{\"clientId\": ");
  ddb_secret_json_append_string (body, old->client_id);
  ddb_secret_string_append (body, ", \"clientSecret\": ");
  ddb_secret_json_append_string (body, old->client_secret);
  ddb_secret_string_append (body, ", \"grantType\": \"refresh_token\", \"refreshToken\": ");
  ddb_secret_json_append_string (body, old->refresh_token);
  ddb_secret_string_append_c (body, '}');
  json = ddb_sso_oidc_call (s, cfg->region, "CreateToken", "/token", body, &code, cancellable,
                            &local);
  ddb_secret_string_free (body);
  if (json == NULL)
    {
      if (code == NULL)
        {
          g_propagate_error (error, local);
          return NULL;
        }
      g_info ("SSO token refresh attempt failed: %s", local->message);
      g_error_free (local);
      return NULL;
    }
  access = ddb_secret_json_get_string (json, "accessToken");
  refresh = ddb_secret_json_get_string (json, "refreshToken");
  if (access == NULL || !ddb_secret_json_get_int (json, "expiresIn", &expires_in))
    {
      g_info ("SSO token refresh attempt failed: the answer has no accessToken or expiresIn");
      return NULL;
    }
  token = g_new0 (DdbSsoToken, 1);
  token->start_url = g_strdup (cfg->start_url);
  token->region = g_strdup (cfg->region);
  token->access_token = g_strdup (access);
  token->expires_at = now + expires_in;
  token->client_id = g_strdup (old->client_id);
  token->client_secret = g_strdup (old->client_secret);
  token->registration_expires_at = g_strdup (old->registration_expires_at);
  token->refresh_token = g_strdup (refresh);
  return token;
}

/* The access token to call the portal with: from the cache, refreshed when due. */
static DdbSsoToken *
load_token (DdbAwsSession *s, DdbCredSource *src, gint64 now, GCancellable *cancellable,
            GError **error)
{
  SsoSource *cfg = src->data;
  g_autofree char *key = ddb_sso_token_cache_key (cfg->start_url, cfg->session_name);
  g_autofree char *path = ddb_sso_cache_path (cfg->cache_dir, key);
  g_autoptr (DdbSsoToken) token = NULL;
  GError *local = NULL;

  token = ddb_sso_token_read (path,
                              cfg->session_name != NULL ? cfg->session_name : cfg->start_url,
                              cfg->start_url, &local);
  if (token == NULL)
    {
      ddb_sso_set_sign_in_error (error, src->profile, local->message);
      g_error_free (local);
      return NULL;
    }
  if (cfg->session_name != NULL && token->expires_at - now < REFRESH_WINDOW)
    {
      DdbSsoToken *fresh = refresh_token (s, cfg, token, now, cancellable, &local);

      if (fresh == NULL && local != NULL)
        {
          g_propagate_error (error, local);
          return NULL;
        }
      if (fresh != NULL)
        {
          GString *text = ddb_sso_token_to_json (fresh);

          if (!ddb_sso_cache_write (cfg->cache_dir, key, text, &local))
            {
              g_warning ("The refreshed SSO token could not be cached: %s", local->message);
              g_clear_error (&local);
            }
          ddb_secret_string_free (text);
          ddb_sso_token_free (token);
          token = fresh;
        }
    }
  if (token->expires_at - now <= 0)
    {
      ddb_sso_set_sign_in_error (error, src->profile, NULL);
      return NULL;
    }
  return g_steal_pointer (&token);
}

static char *
role_credentials_url (DdbAwsSession *s, SsoSource *cfg, GError **error)
{
  g_autofree char *base = ddb_aws_session_service_url (s, "SSO", "portal.sso", cfg->region,
                                                       error);
  g_autofree char *role = NULL, *account = NULL;
  gsize n;

  if (base == NULL)
    return NULL;
  n = strlen (base);
  while (n > 0 && base[n - 1] == '/')
    base[--n] = '\0';
  role = g_uri_escape_string (cfg->role_name, NULL, FALSE);
  account = g_uri_escape_string (cfg->account_id, NULL, FALSE);
  return g_strdup_printf ("%s/federation/credentials?role_name=%s&account_id=%s", base, role,
                          account);
}

static DdbAwsCredentials *
sso_fetch (DdbAwsSession *s, DdbCredSource *src, gint64 now, GCancellable *cancellable,
           GError **error)
{
  SsoSource *cfg = src->data;
  g_autoptr (DdbSsoToken) token = NULL;
  g_autoptr (DdbSecretJson) json = NULL;
  g_autoptr (GBytes) answer = NULL;
  g_autofree char *url = NULL;
  DdbHttpHeader header;
  DdbAwsRequest req = { 0 };
  const char *id, *secret, *session_token, *data;
  gint64 expiration_ms;
  guint status = 0;
  gsize len;

  token = load_token (s, src, now, cancellable, error);
  if (token == NULL)
    return NULL;
  url = role_credentials_url (s, cfg, error);
  if (url == NULL)
    return NULL;
  header.name = "x-amz-sso_bearer_token";
  header.value = token->access_token;
  req.method = "GET";
  req.url = url;
  req.headers = &header;
  req.n_headers = 1;
  if (!ddb_aws_session_send (s, &req, &status, &answer, cancellable, error))
    return NULL;
  data = g_bytes_get_data (answer, &len);
  json = ddb_secret_json_parse (data, len, NULL);
  ddb_secure_zero ((gpointer) data, len);
  if (status < 200 || status > 299)
    {
      g_autofree char *code = NULL, *message = NULL;

      ddb_sso_service_error (json, status, &code, &message);
      if (strcmp (code, "UnauthorizedException") == 0)
        {
          ddb_sso_set_sign_in_error (error, src->profile, NULL);
          return NULL;
        }
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                   "An error occurred (%s) when calling the GetRoleCredentials operation: %s",
                   code, message);
      return NULL;
    }
  id = json != NULL ? ddb_secret_json_get_string (json, "roleCredentials.accessKeyId") : NULL;
  secret = json != NULL ? ddb_secret_json_get_string (json, "roleCredentials.secretAccessKey")
                        : NULL;
  session_token = json != NULL ? ddb_secret_json_get_string (json, "roleCredentials.sessionToken")
                               : NULL;
  if (id == NULL || secret == NULL || session_token == NULL
      || !ddb_secret_json_get_int (json, "roleCredentials.expiration", &expiration_ms))
    {
      g_set_error_literal (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                           "Error when retrieving credentials from sso: the GetRoleCredentials "
                           "answer has no roleCredentials (accessKeyId, secretAccessKey, "
                           "sessionToken, expiration)");
      return NULL;
    }
  /* Milliseconds; botocore keeps whole seconds. */
  return ddb_aws_credentials_new (id, secret, session_token,
                                  expiration_ms >= 0 ? expiration_ms / 1000
                                                     : -((-expiration_ms + 999) / 1000),
                                  "sso");
}

/* botocore's SSOProvider._load_sso_config and _resolve_sso_session_reference, and the
 * SSOTokenProvider's own check of the sso-session. */
gboolean
ddb_sso_source_new (DdbAwsSession *s, const char *profile, DdbCredSource **out, GError **error)
{
  static const char *const order[]
      = { "sso_role_name", "sso_account_id", "sso_start_url", "sso_region", "sso_session" };
  DdbAwsConfig *config = ddb_aws_session_get_config (s);
  const char *session_name = ddb_aws_config_get (config, profile, "sso_session");
  g_autoptr (GHashTable) merged = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GString) missing = g_string_new (NULL);
  g_autoptr (GHashTable) section = NULL;
  SsoSource *cfg;

  *out = NULL;
  /* Role name or account id make it an SSO profile. */
  if (!ddb_aws_config_has (config, profile, "sso_role_name")
      && !ddb_aws_config_has (config, profile, "sso_account_id"))
    return TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      const char *v = ddb_aws_config_get (config, profile, order[i]);

      if (v != NULL)
        g_hash_table_insert (merged, (gpointer) order[i], (gpointer) v);
    }
  if (session_name != NULL)
    {
      g_autoptr (GList) keys = NULL;
      GString *token_missing;

      section = ddb_aws_config_get_sso_session (config, session_name);
      if (section == NULL)
        {
          g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                       "The specified sso-session does not exist: \"%s\"", session_name);
          return FALSE;
        }
      keys = g_list_sort (g_hash_table_get_keys (section), (GCompareFunc) strcmp);
      for (GList *k = keys; k != NULL; k = k->next)
        {
          const char *pv = ddb_aws_config_get (config, profile, k->data);
          const char *sv = g_hash_table_lookup (section, k->data);

          if (pv != NULL && strcmp (pv, sv) != 0)
            {
              g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                           "The value for %s is inconsistent between profile (%s) and "
                           "sso-session (%s).",
                           (const char *) k->data, pv, sv);
              return FALSE;
            }
          g_hash_table_insert (merged, k->data, (gpointer) sv);
        }
      for (guint i = 0; i < G_N_ELEMENTS (order); i++)
        if (g_hash_table_lookup (merged, order[i]) == NULL)
          add_missing (missing, order[i], ", ");
      if (missing->len > 0)
        goto missing;
      /* The token provider reads the start URL and region from the sso-session only. */
      token_missing = g_string_new (NULL);
      if (g_hash_table_lookup (section, "sso_start_url") == NULL)
        add_missing (token_missing, "'sso_start_url'", ", ");
      if (g_hash_table_lookup (section, "sso_region") == NULL)
        add_missing (token_missing, "'sso_region'", ", ");
      if (token_missing->len > 0)
        {
          g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                       "The profile \"%s\" is configured to use the SSO token provider but is "
                       "missing the following configuration: [%s].",
                       profile, token_missing->str);
          g_string_free (token_missing, TRUE);
          return FALSE;
        }
      g_string_free (token_missing, TRUE);

      cfg = g_new0 (SsoSource, 1);
      cfg->session_name = g_strdup (session_name);
      cfg->start_url = g_strdup (g_hash_table_lookup (section, "sso_start_url"));
      cfg->region = g_strdup (g_hash_table_lookup (section, "sso_region"));
    }
  else
    {
      for (guint i = 0; i < 4; i++)
        if (g_hash_table_lookup (merged, order[i]) == NULL)
          add_missing (missing, order[i], ", ");
      if (missing->len > 0)
        goto missing;
      cfg = g_new0 (SsoSource, 1);
      cfg->start_url = g_strdup (g_hash_table_lookup (merged, "sso_start_url"));
      cfg->region = g_strdup (g_hash_table_lookup (merged, "sso_region"));
    }
  cfg->account_id = g_strdup (g_hash_table_lookup (merged, "sso_account_id"));
  cfg->role_name = g_strdup (g_hash_table_lookup (merged, "sso_role_name"));
  cfg->cache_dir = ddb_sso_cache_dir (ddb_aws_session_envp (s));
  *out = ddb_cred_source_new ("sso", profile, sso_fetch, cfg, sso_source_free);
  (*out)->sign_in = DDB_AWS_SIGN_IN_SSO;
  return TRUE;

missing:
  g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
               "The profile \"%s\" is configured to use SSO but is missing required "
               "configuration: %s",
               profile, missing->str);
  return FALSE;
}
