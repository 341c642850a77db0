/* credentials-private.h: what the credential providers (one file each: credential-process.c,
 * assume-role.c, sso.c, web-identity.c, container.c, imds.c, login.c) share with the chain in
 * credentials.c. A provider is a DdbCredSource: credentials.c keeps what it fetched and
 * refreshes it in botocore's windows; the provider only fetches. */
#pragma once

#include "net/credentials.h"
#include "net/secret-json.h"

G_BEGIN_DECLS

typedef struct _DdbCredSource DdbCredSource;

/* Fetches fresh credentials (expiration 0 if they never expire). Runs with the session's
 * lock held. */
typedef DdbAwsCredentials *(*DdbCredFetchFunc) (DdbAwsSession *session, DdbCredSource *src,
                                                gint64 now, GCancellable *cancellable,
                                                GError **error);

struct _DdbCredSource {
  const char *method;     /* botocore's METHOD */
  char *profile;          /* the profile that configured it, or NULL (the environment) */
  DdbCredFetchFunc fetch; /* NULL: static credentials, in CACHED */
  gpointer data;          /* the provider's own, freed with DATA_FREE */
  GDestroyNotify data_free;
  DdbAwsCredentials *cached;
  DdbCredSource *source; /* an assumed role's source credentials */
  DdbAwsSignInKind sign_in; /* how to sign in again, for SSO and `aws login` */
  /* Seconds before expiry when a refresh is tried (failure keeps the current credentials) and
   * when it must succeed; 0: botocore's 15 and 10 minutes. */
  gint64 advisory_refresh;
  gint64 mandatory_refresh;
};

DdbCredSource *ddb_cred_source_new (const char *method, const char *profile,
                                    DdbCredFetchFunc fetch, gpointer data,
                                    GDestroyNotify data_free);
DdbCredSource *ddb_cred_source_new_static (const char *method, const char *profile,
                                           const char *access_key_id,
                                           const char *secret_access_key,
                                           const char *session_token);
void ddb_cred_source_free (DdbCredSource *src);

/* SRC's credentials, from its cache or fetched (with the refresh windows). */
DdbAwsCredentials *ddb_cred_source_get (DdbAwsSession *session, DdbCredSource *src, gint64 now,
                                        GCancellable *cancellable, GError **error);

/* ---- The session, as providers see it ---- */

const char *const *ddb_aws_session_envp (DdbAwsSession *session);
const char *ddb_aws_session_getenv (DdbAwsSession *session, const char *name);
/* The profile's (or merged files') value of KEY, NULL if unset. */
const char *ddb_aws_session_config (DdbAwsSession *session, const char *profile, const char *key);

/* Makes an HTTP call through the session's transport; an error when it has none. */
gboolean ddb_aws_session_send (DdbAwsSession *session, const DdbAwsRequest *request,
                               guint *status, GBytes **body, GCancellable *cancellable,
                               GError **error);

/* The URL of SERVICE_ID ("STS", "SSO", "SSO OIDC", "Signin") for this session's profile: the
 * configured endpoint (AWS_ENDPOINT_URL_<ID>, [services], ...) or the standard one
 * https://PREFIX.REGION.<suffix> (with FIPS / dual-stack when configured). */
char *ddb_aws_session_service_url (DdbAwsSession *session, const char *service_id,
                                   const char *endpoint_prefix, const char *region,
                                   GError **error);

/* Asks for an MFA code through the session's prompt; an error when it has none. */
char *ddb_aws_session_prompt_mfa (DdbAwsSession *session, const char *profile,
                                  const char *mfa_serial, GCancellable *cancellable,
                                  GError **error);

/* The chain's builder for a profile's own providers (botocore's ProfileProviderBuilder:
 * web identity, SSO, the credentials file, `aws login`, credential_process, the config file),
 * shared with assume-role's source_profile. DISABLE_ENV: the environment's web identity
 * variables are not read. *OUT is NULL when the profile configures none. */
gboolean ddb_aws_profile_sources (DdbAwsSession *session, const char *profile,
                                  gboolean disable_env, DdbCredSource **out, GError **error);
/* botocore's EnvProvider. */
gboolean ddb_aws_env_source (DdbAwsSession *session, DdbCredSource **out, GError **error);

/* ---- The providers: each sets *OUT to NULL when it is not configured ---- */

/* credential-process.c: credential_process COMMAND of PROFILE. */
DdbCredSource *ddb_process_source_new (const char *profile, const char *command);
/* assume-role.c: role_arn with source_profile or credential_source. VISITED: the profiles
 * seen so far (loops are refused). */
gboolean ddb_assume_role_source_new (DdbAwsSession *session, const char *profile,
                                     GPtrArray *visited, DdbCredSource **out, GError **error);
/* sso.c: sso_session or the legacy sso_* keys. */
gboolean ddb_sso_source_new (DdbAwsSession *session, const char *profile, DdbCredSource **out,
                             GError **error);
/* login.c: login_session (`aws login`). */
gboolean ddb_login_source_new (DdbAwsSession *session, const char *profile, DdbCredSource **out,
                               GError **error);
/* web-identity.c: web_identity_token_file + role_arn, or AWS_WEB_IDENTITY_TOKEN_FILE +
 * AWS_ROLE_ARN (unless DISABLE_ENV). */
gboolean ddb_web_identity_source_new (DdbAwsSession *session, const char *profile,
                                      gboolean disable_env, DdbCredSource **out, GError **error);
/* container.c: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI / _FULL_URI. */
gboolean ddb_container_source_new (DdbAwsSession *session, DdbCredSource **out, GError **error);
/* imds.c: EC2 instance metadata (IMDSv2), unless AWS_EC2_METADATA_DISABLED. */
gboolean ddb_imds_source_new (DdbAwsSession *session, DdbCredSource **out, GError **error);

G_END_DECLS
