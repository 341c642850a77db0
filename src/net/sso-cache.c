/* sso-cache.c: the SSO cache the AWS CLI v2 shares, ~/.aws/sso/cache: token files named by
 * the sha1 of the sso-session name (or the start URL), client registrations named by the sha1
 * of their parameters; read with the wiping JSON reader, written as botocore's JSONFileCache
 * writes them (json.dumps, atomically through a temporary file in the same directory). */
#include "net/cache-file.h"
#include "net/sso-private.h"

#include "net/hash.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

char *
ddb_sso_cache_dir (const char *const *envp)
{
  return ddb_aws_expand_path ("~/.aws/sso/cache", envp);
}

char *
ddb_sso_cache_path (const char *dir, const char *key)
{
  g_autofree char *name = g_strconcat (key, ".json", NULL);

  return g_build_filename (dir, name, NULL);
}

char *
ddb_sso_token_cache_key (const char *start_url, const char *session_name)
{
  const char *input = session_name != NULL ? session_name : start_url;

  return g_compute_checksum_for_string (G_CHECKSUM_SHA1, input, -1);
}

char *
ddb_sso_registration_cache_key (const char *start_url, const char *region,
                                const char *const *scopes, const char *session_name)
{
  /* json.dumps (args, sort_keys=True): keys sorted, ", " and ": " as separators. */
  g_autoptr (GString) s = g_string_new ("{\"region\": ");

  ddb_secret_json_append_string (s, region);
  g_string_append (s, ", \"scopes\": ");
  if (scopes == NULL)
    g_string_append (s, "null");
  else
    {
      g_string_append_c (s, '[');
      for (guint i = 0; scopes[i] != NULL; i++)
        {
          if (i > 0)
            g_string_append (s, ", ");
          ddb_secret_json_append_string (s, scopes[i]);
        }
      g_string_append_c (s, ']');
    }
  g_string_append (s, ", \"session_name\": ");
  if (session_name == NULL)
    g_string_append (s, "null");
  else
    ddb_secret_json_append_string (s, session_name);
  g_string_append (s, ", \"startUrl\": ");
  ddb_secret_json_append_string (s, start_url);
  g_string_append (s, ", \"tool\": \"botocore\"}");
  return g_compute_checksum_for_string (G_CHECKSUM_SHA1, s->str, s->len);
}

gboolean
ddb_sso_parse_time (const char *text, gint64 *out)
{
  gsize n;

  if (text == NULL)
    return FALSE;
  n = strlen (text);
  /* The CLI's first releases wrote strftime('%Y-%m-%dT%H:%M:%S%Z'): "...T10:18:51UTC". */
  if (n > 3 && strcmp (text + n - 3, "UTC") == 0)
    {
      g_autofree char *z = g_strndup (text, n - 3);
      g_autofree char *iso = g_strconcat (z, "Z", NULL);

      return ddb_aws_parse_timestamp (iso, out);
    }
  return ddb_aws_parse_timestamp (text, out);
}

void
ddb_sso_token_free (DdbSsoToken *token)
{
  if (token == NULL)
    return;
  g_free (token->start_url);
  g_free (token->region);
  ddb_secret_free (token->access_token);
  g_free (token->client_id);
  ddb_secret_free (token->client_secret);
  g_free (token->registration_expires_at);
  ddb_secret_free (token->refresh_token);
  g_free (token);
}

void
ddb_sso_registration_free (DdbSsoRegistration *reg)
{
  if (reg == NULL)
    return;
  g_free (reg->client_id);
  ddb_secret_free (reg->client_secret);
  g_free (reg->expires_at);
  g_free (reg);
}

/* Reads PATH whole into a buffer the caller wipes; FALSE with *MISSING when there is no such
 * file. */
static gboolean
read_secret_file (const char *path, char **text, gsize *len, gboolean *missing, GError **error)
{
  GError *local = NULL;

  *missing = FALSE;
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      *missing = TRUE;
      return FALSE;
    }
  if (!g_file_get_contents (path, text, len, &local))
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_SIGN_IN_REQUIRED,
                   "Error loading SSO Token: could not read %s (%s)", path, local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

static void
wipe_text (char *text, gsize len)
{
  if (text != NULL)
    ddb_secure_zero (text, len);
  g_free (text);
}

DdbSsoToken *
ddb_sso_token_read (const char *path, const char *name, const char *start_url, GError **error)
{
  g_autoptr (DdbSsoToken) token = NULL;
  g_autoptr (DdbSecretJson) json = NULL;
  char *text = NULL;
  gsize len = 0, offset = 0;
  gboolean missing;
  const char *expires, *v;

  if (!read_secret_file (path, &text, &len, &missing, error))
    {
      if (missing)
        g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_SIGN_IN_REQUIRED,
                     "Error loading SSO Token: Token for %s does not exist", name);
      return NULL;
    }
  json = ddb_secret_json_parse (text, len, &offset);
  wipe_text (text, len);
  if (json == NULL)
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_SIGN_IN_REQUIRED,
                   "Error loading SSO Token: the token cache file %s is not a JSON object "
                   "(at byte %" G_GSIZE_FORMAT ")",
                   path, offset);
      return NULL;
    }
  if (ddb_secret_json_kind (json, "accessToken") == DDB_SECRET_JSON_ABSENT
      || ddb_secret_json_kind (json, "expiresAt") == DDB_SECRET_JSON_ABSENT)
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_SIGN_IN_REQUIRED,
                   "Error loading SSO Token: Token for %s is invalid", start_url);
      return NULL;
    }
  token = g_new0 (DdbSsoToken, 1);
  v = ddb_secret_json_get_string (json, "accessToken");
  if (v == NULL || *v == '\0')
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_SIGN_IN_REQUIRED,
                   "Error loading SSO Token: the accessToken of %s is not a string", path);
      return NULL;
    }
  token->access_token = g_strdup (v);
  expires = ddb_secret_json_get_string (json, "expiresAt");
  if (!ddb_sso_parse_time (expires, &token->expires_at))
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_SIGN_IN_REQUIRED,
                   "Error loading SSO Token: the expiresAt of %s is not a date", path);
      return NULL;
    }
  token->start_url = g_strdup (ddb_secret_json_get_string (json, "startUrl"));
  token->region = g_strdup (ddb_secret_json_get_string (json, "region"));
  token->client_id = g_strdup (ddb_secret_json_get_string (json, "clientId"));
  token->client_secret = g_strdup (ddb_secret_json_get_string (json, "clientSecret"));
  token->registration_expires_at
      = g_strdup (ddb_secret_json_get_string (json, "registrationExpiresAt"));
  token->refresh_token = g_strdup (ddb_secret_json_get_string (json, "refreshToken"));
  return g_steal_pointer (&token);
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

GString *
ddb_sso_token_to_json (const DdbSsoToken *token)
{
  GString *out = ddb_secret_string_new (4096);
  g_autofree char *expires = ddb_aws_format_timestamp (token->expires_at);

  ddb_secret_string_append_c (out, '{');
  append_member (out, "startUrl", token->start_url);
  append_member (out, "region", token->region);
  append_member (out, "accessToken", token->access_token);
  append_member (out, "expiresAt", expires);
  if (token->client_id != NULL)
    {
      append_member (out, "clientId", token->client_id);
      append_member (out, "clientSecret", token->client_secret);
      append_member (out, "registrationExpiresAt", token->registration_expires_at);
    }
  if (token->refresh_token != NULL)
    append_member (out, "refreshToken", token->refresh_token);
  ddb_secret_string_append_c (out, '}');
  return out;
}

DdbSsoRegistration *
ddb_sso_registration_read (const char *path)
{
  g_autoptr (DdbSecretJson) json = NULL;
  DdbSsoRegistration *reg;
  char *text = NULL;
  gsize len = 0;
  gboolean missing;
  const char *id, *secret, *expires;

  if (!read_secret_file (path, &text, &len, &missing, NULL))
    return NULL;
  json = ddb_secret_json_parse (text, len, NULL);
  wipe_text (text, len);
  if (json == NULL)
    return NULL;
  id = ddb_secret_json_get_string (json, "clientId");
  secret = ddb_secret_json_get_string (json, "clientSecret");
  expires = ddb_secret_json_get_string (json, "expiresAt");
  if (id == NULL || secret == NULL || expires == NULL)
    return NULL;
  reg = g_new0 (DdbSsoRegistration, 1);
  reg->client_id = g_strdup (id);
  reg->client_secret = g_strdup (secret);
  reg->expires_at = g_strdup (expires);
  reg->for_auth_code = ddb_secret_json_kind (json, "grantTypes") != DDB_SECRET_JSON_ABSENT;
  return reg;
}

GString *
ddb_sso_registration_to_json (const DdbSsoRegistration *reg, const char *const *scopes)
{
  GString *out = g_string_sized_new (1024);

  ddb_secret_string_append_c (out, '{');
  append_member (out, "clientId", reg->client_id);
  append_member (out, "clientSecret", reg->client_secret);
  append_member (out, "expiresAt", reg->expires_at);
  if (scopes != NULL && scopes[0] != NULL)
    {
      ddb_secret_string_append (out, ", \"scopes\": [");
      for (guint i = 0; scopes[i] != NULL; i++)
        {
          if (i > 0)
            ddb_secret_string_append (out, ", ");
          ddb_secret_json_append_string (out, scopes[i]);
        }
      ddb_secret_string_append_c (out, ']');
    }
  ddb_secret_string_append_c (out, '}');
  return out;
}

gboolean
ddb_sso_cache_write (const char *dir, const char *key, const GString *text, GError **error)
{
  g_autofree char *path = ddb_sso_cache_path (dir, key);

  return ddb_aws_cache_file_write (path, text->str, text->len, error);
}
