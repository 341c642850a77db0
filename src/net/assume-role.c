/* assume-role.c: botocore's AssumeRoleProvider: role_arn with source_profile (any provider
 * as the source, chained, loops refused) or credential_source (Environment,
 * Ec2InstanceMetadata, EcsContainer); mfa_serial (the code asked through the session's
 * prompt), external_id, role_session_name, duration_seconds. Assumed credentials are shared
 * with the AWS CLI through its cache, ~/.aws/cli/cache (role-cache.c): valid ones there are
 * used without calling STS (nor asking for an MFA code), and new ones are written there. */
#include "net/credentials-private.h"
#include "net/hash.h"

#include "net/role-cache.h"
#include "net/sts.h"

#include <string.h>

typedef struct {
  char *role_arn;
  char *session_name; /* or NULL: one is made up per call */
  char *external_id;
  char *mfa_serial;
  gint64 duration_seconds;
  char *cache_key; /* the AWS CLI's */
} Role;

static void
role_free (gpointer data)
{
  Role *role = data;

  g_free (role->role_arn);
  g_free (role->session_name);
  g_free (role->external_id);
  g_free (role->mfa_serial);
  g_free (role->cache_key);
  g_free (role);
}

static gboolean
partial (GError **error, const char *provider, const char *missing)
{
  g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_PARTIAL_CREDENTIALS,
               "Partial credentials found in %s, missing: %s", provider, missing);
  return FALSE;
}

static DdbAwsCredentials *
assume_role (DdbAwsSession *s, DdbCredSource *src, gint64 now, GCancellable *cancellable,
             GError **error)
{
  Role *role = src->data;
  g_autoptr (DdbAwsCredentials) source_creds = NULL;
  g_autofree char *session_name = NULL;
  g_autofree char *body = NULL;
  g_autofree char *cache_dir = ddb_role_cache_dir (s);
  g_autoptr (GBytes) answer = NULL;
  g_autoptr (GError) cache_error = NULL;
  DdbAwsCredentials *creds;
  char *code = NULL;
  guint status = 0;
  gsize len;
  const char *data;

  /* CachedCredentialFetcher: the cache first, before the source or an MFA prompt. */
  creds = ddb_role_cache_load (cache_dir, role->cache_key, now, "assume-role");
  if (creds != NULL)
    {
      g_debug ("Credentials for the role of profile %s retrieved from the cache", src->profile);
      return creds;
    }
  source_creds = ddb_cred_source_get (s, src->source, now, cancellable, error);
  if (source_creds == NULL)
    return NULL;
  if (role->mfa_serial != NULL)
    {
      code = ddb_aws_session_prompt_mfa (s, src->profile, role->mfa_serial, cancellable, error);
      if (code == NULL)
        return NULL;
    }
  /* botocore's name when none is configured: botocore-session-<seconds>. */
  session_name = role->session_name != NULL
                     ? g_strdup (role->session_name)
                     : g_strdup_printf ("dynoscope-session-%" G_GINT64_FORMAT, now);
  body = ddb_sts_assume_role_body (role->role_arn, session_name, role->external_id,
                                   role->duration_seconds, role->mfa_serial, code);
  ddb_secret_free (code);
  if (!ddb_sts_call (s, body, &source_creds->creds, &status, &answer, cancellable, error))
    return NULL;
  data = g_bytes_get_data (answer, &len);
  creds = ddb_sts_parse_credentials ("AssumeRole", status, data, len, "assume-role", error);
  if (creds != NULL
      && !ddb_role_cache_store (cache_dir, role->cache_key, creds, role->role_arn, &cache_error))
    g_info ("Not caching the credentials of profile %s: %s", src->profile, cache_error->message);
  return creds;
}

static gboolean
has_static_credentials (DdbAwsSession *s, const char *profile)
{
  return ddb_aws_config_has (ddb_aws_session_get_config (s), profile, "aws_access_key_id")
         || ddb_aws_config_has (ddb_aws_session_get_config (s), profile, "aws_secret_access_key");
}

static gboolean
has_assume_role_vars (DdbAwsSession *s, const char *profile)
{
  return ddb_aws_config_has (ddb_aws_session_get_config (s), profile, "role_arn")
         && !ddb_aws_config_has (ddb_aws_session_get_config (s), profile, "web_identity_token_file");
}

static gboolean role_source_new (DdbAwsSession *s, const char *profile, GPtrArray *visited,
                                 DdbCredSource **out, GError **error);

static char *
visited_list (GPtrArray *visited)
{
  GString *out = g_string_new ("[");

  for (guint i = 0; i < visited->len; i++)
    g_string_append_printf (out, "%s'%s'", i ? ", " : "", (char *) g_ptr_array_index (visited, i));
  g_string_append_c (out, ']');
  return g_string_free (out, FALSE);
}


static gboolean
validate_source_profile (DdbAwsSession *s, const char *parent, const char *source,
                         GPtrArray *visited, GError **error)
{
  gboolean seen = FALSE;

  if (!ddb_aws_config_has_profile (ddb_aws_session_get_config (s), source))
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                   "The source_profile \"%s\" referenced in the profile \"%s\" does not exist.",
                   source, parent);
      return FALSE;
    }
  for (guint i = 0; i < visited->len; i++)
    if (strcmp (g_ptr_array_index (visited, i), source) == 0)
      seen = TRUE;
  /* A profile may name itself to take static keys from its own section. */
  if (seen && (strcmp (source, parent) != 0 || !has_static_credentials (s, source)))
    {
      g_autofree char *list = visited_list (visited);

      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                   "Infinite loop in credential configuration detected. Attempting to load "
                   "from profile %s which has already been visited. Visited profiles: %s",
                   source, list);
      return FALSE;
    }
  return TRUE;
}

static gboolean
role_source_new (DdbAwsSession *s, const char *profile, GPtrArray *visited, DdbCredSource **out,
                 GError **error)
{
  DdbAwsConfig *config = ddb_aws_session_get_config (s);
  const char *source_profile = ddb_aws_config_get (config, profile, "source_profile");
  const char *credential_source = ddb_aws_config_get (config, profile, "credential_source");
  const char *duration = ddb_aws_config_get (config, profile, "duration_seconds");
  DdbCredSource *src, *inner = NULL;
  Role *role;

  *out = NULL;
  if (credential_source != NULL && source_profile != NULL)
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                   "The profile \"%s\" contains both source_profile and credential_source.",
                   profile);
      return FALSE;
    }
  if (credential_source == NULL && source_profile == NULL)
    return partial (error, "assume-role", "source_profile or credential_source");

  if (credential_source != NULL)
    {
      if (strcmp (credential_source, "Environment") == 0)
        {
          if (!ddb_aws_env_source (s, &inner, error))
            return FALSE;
          if (inner == NULL)
            {
              g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                           "Error when retrieving credentials from Environment: No credentials "
                           "found in credential_source referenced in profile %s",
                           profile);
              return FALSE;
            }
        }
      else if (strcmp (credential_source, "Ec2InstanceMetadata") == 0
               || strcmp (credential_source, "EcsContainer") == 0)
        {
          gboolean imds = credential_source[0] == 'E' && credential_source[1] == 'c'
                          && credential_source[2] == '2';

          if (!(imds ? ddb_imds_source_new (s, &inner, error)
                     : ddb_container_source_new (s, &inner, error)))
            return FALSE;
          if (inner == NULL)
            {
              g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                           "Error when retrieving credentials from %s: No credentials found in "
                           "credential_source referenced in profile %s",
                           credential_source, profile);
              return FALSE;
            }
        }
      else
        {
          g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                       "The credential source \"%s\" referenced in profile \"%s\" is not valid.",
                       credential_source, profile);
          return FALSE;
        }
    }
  else
    {
      if (!validate_source_profile (s, profile, source_profile, visited, error))
        return FALSE;
      g_ptr_array_add (visited, g_strdup (source_profile));
      /* Static keys (or no role of its own) end the chain at the source profile. */
      if (has_static_credentials (s, source_profile) || !has_assume_role_vars (s, source_profile))
        {
          if (!ddb_aws_profile_sources (s, source_profile, TRUE, &inner, error))
            return FALSE;
          if (inner == NULL)
            {
              g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_INVALID_CONFIG,
                           "The source profile \"%s\" must have credentials.", source_profile);
              return FALSE;
            }
        }
      else if (!role_source_new (s, source_profile, visited, &inner, error))
        return FALSE;
    }

  role = g_new0 (Role, 1);
  role->role_arn = g_strdup (ddb_aws_config_get (config, profile, "role_arn"));
  role->session_name = g_strdup (ddb_aws_config_get (config, profile, "role_session_name"));
  if (role->session_name != NULL && role->session_name[0] == '\0')
    g_clear_pointer (&role->session_name, g_free); /* botocore makes one up then too */
  role->external_id = g_strdup (ddb_aws_config_get (config, profile, "external_id"));
  role->mfa_serial = g_strdup (ddb_aws_config_get (config, profile, "mfa_serial"));
  role->duration_seconds = -1;
  if (duration != NULL)
    {
      g_autofree char *d = g_strstrip (g_strdup (duration));
      guint64 n;

      /* Python's int() or nothing: an unusable value is ignored, as the CLI does. */
      if (g_ascii_string_to_unsigned (d, 10, 0, G_MAXINT32, &n, NULL))
        role->duration_seconds = n;
    }
  role->cache_key = ddb_role_cache_key (&(DdbRoleCacheArgs){
      .role_arn = role->role_arn,
      .role_session_name = role->session_name,
      .external_id = role->external_id,
      .serial_number = role->mfa_serial,
      .duration_seconds = role->duration_seconds,
  });
  src = ddb_cred_source_new ("assume-role", profile, assume_role, role, role_free);
  src->source = inner;
  *out = src;
  return TRUE;
}

gboolean
ddb_assume_role_source_new (DdbAwsSession *s, const char *profile, GPtrArray *visited,
                            DdbCredSource **out, GError **error)
{
  *out = NULL;
  if (!has_assume_role_vars (s, profile))
    return TRUE;
  return role_source_new (s, profile, visited, out, error);
}
