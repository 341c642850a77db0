/* web-identity.c: botocore's AssumeRoleWithWebIdentityProvider: web_identity_token_file and
 * role_arn (and role_session_name) from AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN and
 * AWS_ROLE_SESSION_NAME unless the environment is off, else from the profile. The token file is
 * read at every fetch (Kubernetes and CI rotate it) and sent to STS AssumeRoleWithWebIdentity
 * unsigned. The credentials are shared with the AWS CLI's cache as assumed roles are
 * (role-cache.c). botocore sends no DurationSeconds here, so neither do we. */
#include "net/credentials-private.h"

#include "net/hash.h"

#include "net/role-cache.h"
#include "net/sts.h"

#include <string.h>

#define OPERATION "AssumeRoleWithWebIdentity"
#define METHOD "assume-role-with-web-identity"
#define ATTEMPTS 3 /* the standard retry mode's, for IDPCommunicationError */

typedef struct {
  char *token_file;
  char *role_arn;
  char *session_name; /* or NULL: one is made up per call */
  char *cache_key;
} WebIdentity;

static void
web_identity_free (gpointer data)
{
  WebIdentity *w = data;

  g_free (w->token_file);
  g_free (w->role_arn);
  g_free (w->session_name);
  g_free (w->cache_key);
  g_free (w);
}

/* The token, in a buffer to wipe; NULL with an error. */
static char *
read_token (const char *path, GError **error)
{
  GError *local = NULL;
  char *token = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &token, &len, &local))
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                   "Error when retrieving credentials from " METHOD
                   ": cannot read the web identity token file: %s",
                   local->message);
      g_error_free (local);
      return NULL;
    }
  if (len == 0 || strlen (token) != len)
    {
      ddb_secure_zero (token, len);
      g_free (token);
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                   "Error when retrieving credentials from " METHOD
                   ": the web identity token file %s is %s",
                   path, len == 0 ? "empty" : "not text");
      return NULL;
    }
  return token;
}

static gboolean
is_retryable (const GError *error)
{
  return error->domain == DDB_AWS_ERROR
         && g_str_has_prefix (error->message, "An error occurred (IDPCommunicationError)");
}

static DdbAwsCredentials *
fetch (DdbAwsSession *s, DdbCredSource *src, gint64 now, GCancellable *cancellable,
       GError **error)
{
  WebIdentity *w = src->data;
  g_autofree char *cache_dir = ddb_role_cache_dir (s);
  g_autofree char *session_name = NULL;
  g_autoptr (GError) cache_error = NULL;
  DdbAwsCredentials *creds;
  char *token;

  creds = ddb_role_cache_load (cache_dir, w->cache_key, now, METHOD);
  if (creds != NULL)
    return creds;

  token = read_token (w->token_file, error);
  if (token == NULL)
    return NULL;
  session_name = w->session_name != NULL
                     ? g_strdup (w->session_name)
                     : g_strdup_printf ("dynoscope-session-%" G_GINT64_FORMAT, now);
  for (guint attempt = 1; creds == NULL; attempt++)
    {
      g_autoptr (GBytes) answer = NULL;
      GError *local = NULL;
      char *body = ddb_sts_web_identity_body (w->role_arn, session_name, token, -1);
      guint status = 0;
      const char *data;
      gsize len;

      /* Unsigned: the token is the proof. */
      if (ddb_sts_call (s, body, NULL, &status, &answer, cancellable, &local))
        {
          data = g_bytes_get_data (answer, &len);
          creds = ddb_sts_parse_credentials (OPERATION, status, data, len, METHOD, &local);
        }
      ddb_secret_free (body);
      if (creds == NULL && (attempt >= ATTEMPTS || !is_retryable (local)))
        {
          g_propagate_error (error, local);
          break;
        }
      g_clear_error (&local);
    }
  ddb_secret_free (token);
  if (creds != NULL
      && !ddb_role_cache_store (cache_dir, w->cache_key, creds, w->role_arn, &cache_error))
    g_info ("Not caching the web identity credentials of profile %s: %s",
            src->profile != NULL ? src->profile : "(environment)", cache_error->message);
  return creds;
}

/* AssumeRoleWithWebIdentityProvider._get_config: the environment's variable when it is set
 * (even empty), else the profile's key. */
static const char *
get_config (DdbAwsSession *s, const char *profile, gboolean disable_env, const char *key,
            const char *env)
{
  const char *v = disable_env ? NULL : ddb_aws_session_getenv (s, env);

  if (v != NULL)
    return v;
  return ddb_aws_session_config (s, profile, key);
}

gboolean
ddb_web_identity_source_new (DdbAwsSession *s, const char *profile, gboolean disable_env,
                             DdbCredSource **out, GError **error)
{
  const char *token_file, *role_arn, *session_name;
  WebIdentity *w;

  *out = NULL;
  token_file = get_config (s, profile, disable_env, "web_identity_token_file",
                           "AWS_WEB_IDENTITY_TOKEN_FILE");
  if (token_file == NULL || token_file[0] == '\0')
    return TRUE;
  role_arn = get_config (s, profile, disable_env, "role_arn", "AWS_ROLE_ARN");
  if (role_arn == NULL || role_arn[0] == '\0')
    {
      g_set_error_literal (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                           "The provided profile or the current environment is configured to "
                           "assume role with web identity but has no role ARN configured. "
                           "Ensure that the profile has the role_arn configuration set or the "
                           "AWS_ROLE_ARN env var is set.");
      return FALSE;
    }
  session_name = get_config (s, profile, disable_env, "role_session_name",
                             "AWS_ROLE_SESSION_NAME");

  w = g_new0 (WebIdentity, 1);
  w->token_file = g_strdup (token_file);
  w->role_arn = g_strdup (role_arn);
  /* An empty name is made up, as botocore does. */
  w->session_name = session_name != NULL && session_name[0] != '\0' ? g_strdup (session_name)
                                                                     : NULL;
  w->cache_key = ddb_role_cache_key (&(DdbRoleCacheArgs){
      .role_arn = w->role_arn,
      .role_session_name = w->session_name,
      .duration_seconds = -1,
  });
  *out = ddb_cred_source_new (METHOD, profile, fetch, w, web_identity_free);
  return TRUE;
}
