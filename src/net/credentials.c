/* credentials.c: the AWS CLI v2 credential chain for one profile (botocore's
 * create_credential_resolver and RefreshableCredentials), plus the region and endpoint the
 * session uses. The chain is decided up front from the configuration alone, as botocore's
 * providers only ever decline for lack of configuration; fetching (running a process, calling
 * STS or SSO, prompting for MFA) happens when credentials are first asked for. Each provider
 * lives in a file of its own (credentials-private.h). */
#include "net/credentials-private.h"

#include "net/hash.h"
#include "net/imds.h"

#include <string.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

/* botocore's RefreshableCredentials windows. */
#define ADVISORY_REFRESH (15 * 60)
#define MANDATORY_REFRESH (10 * 60)

/* ---- DdbAwsCredentials ---- */

DdbAwsCredentials *
ddb_aws_credentials_new (const char *access_key_id, const char *secret_access_key,
                         const char *session_token, gint64 expiration, const char *method)
{
  DdbAwsCredentials *c = g_new0 (DdbAwsCredentials, 1);

  c->creds.access_key_id = g_strdup (access_key_id);
  c->creds.secret_access_key = g_strdup (secret_access_key);
  c->creds.session_token = g_strdup (session_token);
  c->expiration = expiration;
  c->method = method;
  return c;
}

DdbAwsCredentials *
ddb_aws_credentials_copy (const DdbAwsCredentials *creds)
{
  return ddb_aws_credentials_new (creds->creds.access_key_id, creds->creds.secret_access_key,
                                  creds->creds.session_token, creds->expiration, creds->method);
}

void
ddb_aws_credentials_free (DdbAwsCredentials *creds)
{
  if (creds == NULL)
    return;
  ddb_secret_free ((char *) creds->creds.access_key_id);
  ddb_secret_free ((char *) creds->creds.secret_access_key);
  ddb_secret_free ((char *) creds->creds.session_token);
  g_free (creds);
}

static const char *
nonempty (const char *s)
{
  return s != NULL && s[0] != '\0' ? s : NULL;
}

/* ---- Sources ---- */

DdbCredSource *
ddb_cred_source_new (const char *method, const char *profile, DdbCredFetchFunc fetch,
                     gpointer data, GDestroyNotify data_free)
{
  DdbCredSource *src = g_new0 (DdbCredSource, 1);

  src->method = method;
  src->profile = g_strdup (profile);
  src->fetch = fetch;
  src->data = data;
  src->data_free = data_free;
  return src;
}

DdbCredSource *
ddb_cred_source_new_static (const char *method, const char *profile, const char *access_key_id,
                            const char *secret_access_key, const char *session_token)
{
  DdbCredSource *src = ddb_cred_source_new (method, profile, NULL, NULL, NULL);

  src->cached = ddb_aws_credentials_new (access_key_id, secret_access_key, session_token, 0,
                                         method);
  return src;
}

void
ddb_cred_source_free (DdbCredSource *src)
{
  if (src == NULL)
    return;
  g_free (src->profile);
  ddb_aws_credentials_free (src->cached);
  if (src->data_free != NULL)
    src->data_free (src->data);
  ddb_cred_source_free (src->source);
  g_free (src);
}

static gboolean
needs_refresh (const DdbAwsCredentials *c, gint64 now, gint64 window)
{
  return c->expiration != 0 && c->expiration - now < window;
}

/* RefreshableCredentials: refresh when less than 15 minutes remain but keep the old ones if
 * that fails; below 10 minutes a refresh must succeed. */
DdbAwsCredentials *
ddb_cred_source_get (DdbAwsSession *s, DdbCredSource *src, gint64 now, GCancellable *cancellable,
                     GError **error)
{
  DdbAwsCredentials *fresh;
  GError *local = NULL;

  gint64 advisory = src->advisory_refresh > 0 ? src->advisory_refresh : ADVISORY_REFRESH;
  gint64 mandatory = src->mandatory_refresh > 0 ? src->mandatory_refresh : MANDATORY_REFRESH;

  if (src->cached != NULL && (src->fetch == NULL || !needs_refresh (src->cached, now, advisory)))
    return ddb_aws_credentials_copy (src->cached);

  fresh = src->fetch (s, src, now, cancellable, &local);
  if (fresh == NULL)
    {
      if (src->cached != NULL && !needs_refresh (src->cached, now, mandatory)
          && !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_info ("Refreshing the credentials of profile %s failed; using the current ones "
                  "until they expire: %s",
                  src->profile != NULL ? src->profile : "(environment)", local->message);
          g_error_free (local);
          return ddb_aws_credentials_copy (src->cached);
        }
      g_propagate_error (error, local);
      return NULL;
    }
  /* As botocore: refreshed credentials must not be expired already (short-lived ones, such as
   * `aws login`'s 15 minutes, are fine). */
  if (fresh->expiration != 0 && fresh->expiration <= now)
    {
      ddb_aws_credentials_free (fresh);
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                   "Credentials were refreshed, but the refreshed credentials are still "
                   "expired.");
      return NULL;
    }
  ddb_aws_credentials_free (src->cached);
  src->cached = fresh;
  return ddb_aws_credentials_copy (fresh);
}

/* ---- The session ---- */

typedef struct {
  char *path;
  gboolean exists;
  gint64 mtime_ns;
  gint64 size;
} FileStamp;

struct _DdbAwsSession {
  GStrv envp; /* NULL: the process environment */
  char *cli_profile;
  char *cli_region;
  char *cli_endpoint_url;
  DdbAwsConfig *config;
  FileStamp stamps[2];
  char *profile;
  gboolean profile_explicit;
  char *region;
  char *endpoint_url;
  const char *signing_region;
  gboolean endpoint_custom;
  DdbAwsTransport transport;
  gpointer transport_data;
  DdbAwsMfaPrompt mfa_prompt;
  gpointer mfa_prompt_data;
  DdbCredSource *chain; /* NULL: no credentials configured */
  GMutex lock;
};

const char *const *
ddb_aws_session_envp (DdbAwsSession *s)
{
  return (const char *const *) s->envp;
}

const char *
ddb_aws_session_getenv (DdbAwsSession *s, const char *name)
{
  return ddb_aws_getenv (ddb_aws_session_envp (s), name);
}

const char *
ddb_aws_session_config (DdbAwsSession *s, const char *profile, const char *key)
{
  return ddb_aws_config_get (s->config, profile, key);
}

gboolean
ddb_aws_session_send (DdbAwsSession *s, const DdbAwsRequest *request, guint *status,
                      GBytes **body, GCancellable *cancellable, GError **error)
{
  if (s->transport == NULL)
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_UNSUPPORTED,
                   "The profile \"%s\" needs a network call to get credentials, but no way to "
                   "make one was given",
                   s->profile);
      return FALSE;
    }
  *status = 0;
  *body = NULL;
  if (!s->transport (request, status, body, s->transport_data, cancellable, error))
    return FALSE;
  if (*body == NULL)
    *body = g_bytes_new (NULL, 0);
  return TRUE;
}

char *
ddb_aws_session_service_url (DdbAwsSession *s, const char *service_id, const char *prefix,
                             const char *region, GError **error)
{
  char *url = NULL;

  if (!ddb_aws_configured_endpoint (s->config, s->profile, service_id, ddb_aws_session_envp (s),
                                    &url, error))
    return NULL;
  if (url != NULL)
    return url;
  if (strcmp (prefix, "sts") == 0)
    /* The global endpoint without a region. */
    return ddb_aws_service_endpoint (s->config, s->profile, ddb_aws_session_envp (s), prefix,
                                     region, error);
  if (region == NULL)
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_REGION,
                   "The profile \"%s\" needs a region for %s", s->profile, service_id);
      return NULL;
    }
  return ddb_aws_service_endpoint (s->config, s->profile, ddb_aws_session_envp (s), prefix,
                                   region, error);
}

char *
ddb_aws_session_prompt_mfa (DdbAwsSession *s, const char *profile, const char *mfa_serial,
                            GCancellable *cancellable, GError **error)
{
  if (s->mfa_prompt == NULL)
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_UNSUPPORTED,
                   "The profile \"%s\" needs an MFA code for %s, and there is no way to ask "
                   "for one here",
                   profile, mfa_serial);
      return NULL;
    }
  return s->mfa_prompt (profile, mfa_serial, s->mfa_prompt_data, cancellable, error);
}

static gboolean
partial (GError **error, const char *provider, const char *missing)
{
  g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_PARTIAL_CREDENTIALS,
               "Partial credentials found in %s, missing: %s", provider, missing);
  return FALSE;
}

/* botocore's EnvProvider: AWS_ACCESS_KEY_ID (non-empty) makes the others required. */
gboolean
ddb_aws_env_source (DdbAwsSession *s, DdbCredSource **out, GError **error)
{
  const char *id = nonempty (ddb_aws_session_getenv (s, "AWS_ACCESS_KEY_ID"));
  const char *secret, *token;

  *out = NULL;
  if (id == NULL)
    return TRUE;
  secret = nonempty (ddb_aws_session_getenv (s, "AWS_SECRET_ACCESS_KEY"));
  if (secret == NULL)
    return partial (error, "env", "AWS_SECRET_ACCESS_KEY");
  token = nonempty (ddb_aws_session_getenv (s, "AWS_SECURITY_TOKEN"));
  if (token == NULL)
    token = nonempty (ddb_aws_session_getenv (s, "AWS_SESSION_TOKEN"));
  *out = ddb_cred_source_new_static ("env", NULL, id, secret, token);
  return TRUE;
}

/* Static keys from one file's profile (SharedCredentialProvider / ConfigProvider). */
static gboolean
file_source (DdbAwsSession *s, DdbAwsFile file, const char *profile, DdbCredSource **out,
             GError **error)
{
  const char *method = file == DDB_AWS_FILE_CREDENTIALS ? "shared-credentials-file" : "config-file";
  const char *id, *secret, *token;

  *out = NULL;
  if (!ddb_aws_config_file_has (s->config, file, profile, "aws_access_key_id"))
    return TRUE;
  id = ddb_aws_config_file_get (s->config, file, profile, "aws_access_key_id");
  secret = ddb_aws_config_file_get (s->config, file, profile, "aws_secret_access_key");
  if (id == NULL)
    return partial (error, method, "aws_access_key_id");
  if (secret == NULL)
    return partial (error, method, "aws_secret_access_key");
  token = ddb_aws_config_file_get (s->config, file, profile, "aws_security_token");
  if (token == NULL)
    token = ddb_aws_config_file_get (s->config, file, profile, "aws_session_token");
  *out = ddb_cred_source_new_static (method, profile, id, secret, token);
  return TRUE;
}

/* botocore's ProfileProviderBuilder.providers, in its order. */
gboolean
ddb_aws_profile_sources (DdbAwsSession *s, const char *profile, gboolean disable_env,
                         DdbCredSource **out, GError **error)
{
  const char *process;

  *out = NULL;
  if (!ddb_web_identity_source_new (s, profile, disable_env, out, error) || *out != NULL)
    return *out != NULL;
  if (!ddb_sso_source_new (s, profile, out, error) || *out != NULL)
    return *out != NULL;
  if (!file_source (s, DDB_AWS_FILE_CREDENTIALS, profile, out, error) || *out != NULL)
    return *out != NULL;
  if (!ddb_login_source_new (s, profile, out, error) || *out != NULL)
    return *out != NULL;
  process = ddb_aws_config_get (s->config, profile, "credential_process");
  if (process != NULL)
    {
      *out = ddb_process_source_new (profile, process);
      return TRUE;
    }
  return file_source (s, DDB_AWS_FILE_CONFIG, profile, out, error);
}

/* botocore's create_credential_resolver order: env (unless --profile named one), assume role,
 * the profile's own providers, then the container and instance metadata. */
static gboolean
build_chain (DdbAwsSession *s, DdbCredSource **chain, GError **error)
{
  g_autoptr (GPtrArray) visited = g_ptr_array_new_with_free_func (g_free);

  *chain = NULL;
  if (!s->profile_explicit)
    {
      if (!ddb_aws_env_source (s, chain, error))
        return FALSE;
      if (*chain != NULL)
        return TRUE;
    }
  g_ptr_array_add (visited, g_strdup (s->profile));
  if (!ddb_assume_role_source_new (s, s->profile, visited, chain, error))
    return FALSE;
  if (*chain != NULL)
    return TRUE;
  if (!ddb_aws_profile_sources (s, s->profile, s->profile_explicit, chain, error))
    return FALSE;
  if (*chain != NULL)
    return TRUE;
  if (!ddb_container_source_new (s, chain, error))
    return FALSE;
  if (*chain != NULL)
    return TRUE;
  return ddb_imds_source_new (s, chain, error);
}

DdbAwsCredentials *
ddb_aws_session_get_credentials (DdbAwsSession *session, gint64 now, GCancellable *cancellable,
                                 GError **error)
{
  DdbAwsCredentials *creds = NULL;
  g_autofree char *imds_detail = NULL;

  g_mutex_lock (&session->lock);
  if (session->chain != NULL)
    {
      GError *local = NULL;

      creds = ddb_cred_source_get (session, session->chain, now, cancellable, &local);
      /* Instance metadata is the last resort, there whenever nothing else is configured: when
       * it gives nothing (or cannot be asked), say what the CLI says when nothing is found. */
      if (creds == NULL && strcmp (session->chain->method, "iam-role") == 0
          && (g_error_matches (local, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_CREDENTIALS)
              || g_error_matches (local, DDB_AWS_ERROR, DDB_AWS_ERROR_UNSUPPORTED)))
        {
          if (local->code == DDB_AWS_ERROR_NO_CREDENTIALS)
            imds_detail = g_steal_pointer (&local->message);
          g_clear_error (&local);
        }
      else if (creds == NULL)
        {
          g_propagate_error (error, local);
          g_mutex_unlock (&session->lock);
          return NULL;
        }
    }
  if (creds == NULL)
    {
      const char *cfg = ddb_aws_config_get_config_path (session->config);
      const char *cred = ddb_aws_config_get_credentials_path (session->config);

      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_CREDENTIALS,
                   "Unable to locate credentials. You can configure credentials by running "
                   "\"aws configure\" (keys), \"aws configure sso\" (IAM Identity Center) or "
                   "\"aws login\". Looked for profile \"%s\" %sin %s and %s.%s%s",
                   session->profile,
                   session->profile_explicit
                       ? ""
                       : "in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), ",
                   cred != NULL ? cred : "(no credentials file)",
                   cfg != NULL ? cfg : "(no config file)", imds_detail != NULL ? " " : "",
                   imds_detail != NULL ? imds_detail : "");
    }
  g_mutex_unlock (&session->lock);
  return creds;
}

static void
stamp_file (FileStamp *stamp, const char *path)
{
  GStatBuf st;

  g_free (stamp->path);
  stamp->path = g_strdup (path);
  stamp->exists = path != NULL && g_stat (path, &st) == 0;
  stamp->mtime_ns = stamp->exists ? (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000)
                                        + st.st_mtim.tv_nsec
                                  : 0;
  stamp->size = stamp->exists ? (gint64) st.st_size : 0;
}

gboolean
ddb_aws_session_files_changed (DdbAwsSession *session)
{
  gboolean changed = FALSE;

  g_mutex_lock (&session->lock);
  for (guint i = 0; i < G_N_ELEMENTS (session->stamps) && !changed; i++)
    {
      FileStamp now = { 0 };

      stamp_file (&now, session->stamps[i].path);
      changed = now.exists != session->stamps[i].exists
                || now.mtime_ns != session->stamps[i].mtime_ns
                || now.size != session->stamps[i].size;
      g_free (now.path);
    }
  g_mutex_unlock (&session->lock);
  return changed;
}

/* Loads the files and resolves everything into S (whose previous state, if any, the caller
 * keeps until this succeeds). */
static gboolean
resolve (DdbAwsSession *s, GError **error)
{
  const char *profile = nonempty (s->cli_profile);
  g_autofree char *configured = NULL;
  g_autofree char *config_path = ddb_aws_config_file_path (ddb_aws_session_envp (s));
  g_autofree char *credentials_path = ddb_aws_credentials_file_path (ddb_aws_session_envp (s));

  /* Stamped before reading, so that a change while reading is seen as one. */
  stamp_file (&s->stamps[0], config_path);
  stamp_file (&s->stamps[1], credentials_path);
  s->config = ddb_aws_config_load (ddb_aws_session_envp (s), error);
  if (s->config == NULL)
    return FALSE;

  /* --profile is "explicit" (it switches the environment's keys off); AWS_PROFILE is not. */
  s->profile_explicit = profile != NULL;
  if (profile == NULL)
    profile = nonempty (ddb_aws_session_getenv (s, "AWS_DEFAULT_PROFILE"));
  if (profile == NULL)
    profile = nonempty (ddb_aws_session_getenv (s, "AWS_PROFILE"));
  if (profile != NULL && !ddb_aws_config_has_profile (s->config, profile))
    {
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_PROFILE_NOT_FOUND,
                   "The config profile (%s) could not be found", profile);
      return FALSE;
    }
  s->profile = g_strdup (profile != NULL ? profile : "default");

  if (!ddb_aws_resolve_region (s->config, s->profile, s->cli_region, ddb_aws_session_envp (s),
                               &s->region, error))
    return FALSE;
  /* The last region provider, as botocore's: instance metadata (short timeouts; skipped when
   * AWS_EC2_METADATA_DISABLED). */
  if (s->region == NULL && s->transport != NULL)
    {
      g_autoptr (GError) imds_error = NULL;

      s->region = ddb_imds_region (s, NULL, &imds_error);
      if (s->region == NULL)
        g_debug ("No region from instance metadata: %s", imds_error->message);
      else if (!ddb_aws_region_is_valid (s->region))
        {
          /* Not quoted: whatever answered there is not instance metadata. */
          g_debug ("The instance metadata's region is not a region name; ignored");
          g_clear_pointer (&s->region, g_free);
        }
    }

  if (nonempty (s->cli_endpoint_url) != NULL)
    {
      if (!ddb_aws_check_endpoint_url (s->cli_endpoint_url, error))
        return FALSE;
      s->endpoint_url = g_strdup (s->cli_endpoint_url);
      s->endpoint_custom = TRUE;
    }
  else
    {
      if (!ddb_aws_configured_endpoint (s->config, s->profile, "DynamoDB",
                                        ddb_aws_session_envp (s), &configured, error))
        return FALSE;
      if (configured != NULL)
        {
          s->endpoint_url = g_steal_pointer (&configured);
          s->endpoint_custom = TRUE;
        }
      else if (s->region != NULL)
        {
          /* FIPS and dual-stack host names when the profile or environment asks for them. */
          s->endpoint_url = ddb_aws_service_endpoint (s->config, s->profile,
                                                      ddb_aws_session_envp (s), "dynamodb",
                                                      s->region, error);
          if (s->endpoint_url == NULL)
            return FALSE;
        }
    }
  if (s->region != NULL)
    s->signing_region
        = s->endpoint_custom ? s->region : ddb_aws_signing_region ("dynamodb", s->region);

  return build_chain (s, &s->chain, error);
}

/* Frees what resolve() fills. */
static void
clear_resolved (DdbAwsSession *s)
{
  g_clear_pointer (&s->config, ddb_aws_config_unref);
  g_clear_pointer (&s->profile, g_free);
  g_clear_pointer (&s->region, g_free);
  g_clear_pointer (&s->endpoint_url, g_free);
  g_clear_pointer (&s->chain, ddb_cred_source_free);
  for (guint i = 0; i < G_N_ELEMENTS (s->stamps); i++)
    g_clear_pointer (&s->stamps[i].path, g_free);
  s->signing_region = NULL;
  s->endpoint_custom = FALSE;
}

DdbAwsSession *
ddb_aws_session_new (const DdbAwsSessionOptions *options, GError **error)
{
  g_autoptr (DdbAwsSession) s = g_new0 (DdbAwsSession, 1);

  g_mutex_init (&s->lock);
  if (options->envp != NULL)
    s->envp = g_strdupv ((char **) options->envp);
  s->cli_profile = g_strdup (options->profile);
  s->cli_region = g_strdup (options->region);
  s->cli_endpoint_url = g_strdup (options->endpoint_url);
  s->transport = options->transport;
  s->transport_data = options->transport_data;
  s->mfa_prompt = options->mfa_prompt;
  s->mfa_prompt_data = options->mfa_prompt_data;
  if (!resolve (s, error))
    return NULL;
  return g_steal_pointer (&s);
}

gboolean
ddb_aws_session_reload (DdbAwsSession *session, GError **error)
{
  g_autoptr (DdbAwsSession) fresh = g_new0 (DdbAwsSession, 1);
  DdbAwsSession saved;

  /* Resolved into a scratch session that shares the options, then swapped in. */
  g_mutex_init (&fresh->lock);
  fresh->envp = session->envp;
  fresh->cli_profile = session->cli_profile;
  fresh->cli_region = session->cli_region;
  fresh->cli_endpoint_url = session->cli_endpoint_url;
  fresh->transport = session->transport;
  fresh->transport_data = session->transport_data;
  fresh->mfa_prompt = session->mfa_prompt;
  fresh->mfa_prompt_data = session->mfa_prompt_data;
  if (!resolve (fresh, error))
    {
      fresh->envp = NULL;
      fresh->cli_profile = fresh->cli_region = fresh->cli_endpoint_url = NULL;
      return FALSE;
    }
  g_mutex_lock (&session->lock);
  saved = *session;
  session->config = fresh->config;
  memcpy (session->stamps, fresh->stamps, sizeof session->stamps);
  session->profile = fresh->profile;
  session->profile_explicit = fresh->profile_explicit;
  session->region = fresh->region;
  session->endpoint_url = fresh->endpoint_url;
  session->signing_region = fresh->signing_region;
  session->endpoint_custom = fresh->endpoint_custom;
  session->chain = fresh->chain;
  g_mutex_unlock (&session->lock);

  /* The scratch session now owns the old state, and frees it. */
  fresh->config = saved.config;
  memcpy (fresh->stamps, saved.stamps, sizeof fresh->stamps);
  fresh->profile = saved.profile;
  fresh->region = saved.region;
  fresh->endpoint_url = saved.endpoint_url;
  fresh->chain = saved.chain;
  fresh->envp = NULL;
  fresh->cli_profile = fresh->cli_region = fresh->cli_endpoint_url = NULL;
  return TRUE;
}

void
ddb_aws_session_free (DdbAwsSession *session)
{
  if (session == NULL)
    return;
  clear_resolved (session);
  g_strfreev (session->envp);
  g_free (session->cli_profile);
  g_free (session->cli_region);
  g_free (session->cli_endpoint_url);
  g_mutex_clear (&session->lock);
  g_free (session);
}

const char *
ddb_aws_session_get_profile (DdbAwsSession *session)
{
  return session->profile;
}

const char *
ddb_aws_session_get_region (DdbAwsSession *session)
{
  return session->region;
}

DdbAwsConfig *
ddb_aws_session_get_config (DdbAwsSession *session)
{
  return session->config;
}

const char *
ddb_aws_session_get_method (DdbAwsSession *session)
{
  return session->chain != NULL ? session->chain->method : NULL;
}

DdbAwsSignInKind
ddb_aws_session_get_sign_in (DdbAwsSession *session, char **command)
{
  DdbAwsSignInKind kind = DDB_AWS_SIGN_IN_NONE;
  const char *profile = session->profile;

  /* An assumed role signs in through its source. */
  for (DdbCredSource *src = session->chain; src != NULL; src = src->source)
    if (src->sign_in != DDB_AWS_SIGN_IN_NONE)
      {
        kind = src->sign_in;
        profile = src->profile;
        break;
      }
  if (command != NULL)
    *command = kind == DDB_AWS_SIGN_IN_SSO     ? g_strdup_printf ("aws sso login --profile %s",
                                                                  profile)
               : kind == DDB_AWS_SIGN_IN_LOGIN ? g_strdup_printf ("aws login --profile %s",
                                                                  profile)
                                               : NULL;
  return kind;
}

gboolean
ddb_aws_session_get_endpoint (DdbAwsSession *session, const char **url, const char **signing_region,
                              GError **error)
{
  if (session->region == NULL)
    {
      g_set_error_literal (error, DDB_AWS_ERROR, DDB_AWS_ERROR_NO_REGION,
                           "You must specify a region. You can also configure your region by "
                           "running \"aws configure\".");
      return FALSE;
    }
  if (url != NULL)
    *url = session->endpoint_url;
  if (signing_region != NULL)
    *signing_region = session->signing_region;
  return TRUE;
}

gboolean
ddb_aws_session_endpoint_is_custom (DdbAwsSession *session)
{
  return session->endpoint_custom;
}
