/* sso.h: IAM Identity Center (SSO) as the AWS CLI v2 does it, for the CLI's `sso login` and
 * the app: a profile's SSO configuration (an sso_session and its [sso-session NAME] section, or
 * the legacy sso_start_url / sso_region keys in the profile), the token cache the CLI shares
 * (~/.aws/sso/cache/<sha1>.json) and the OAuth device authorization flow that fills it
 * (RegisterClient, StartDeviceAuthorization, then CreateToken polled until the person
 * approves). Step-wise and cancellable, without GTK: the caller shows the URL and the code,
 * then waits in ddb_sso_login_finish (on a worker thread in the app). The credential provider
 * (GetRoleCredentials, refresh with the refresh token) is part of the chain in credentials.c
 * and needs nothing from here. Secrets (tokens, client secrets) never appear in a GError
 * message. */
#pragma once

#include "net/credentials.h"

G_BEGIN_DECLS

/* A profile's SSO configuration, as `aws sso login` reads it. */
typedef struct {
  char *profile;      /* the profile it was read for */
  char *session_name; /* the sso-session's name, or NULL for a legacy profile */
  char *start_url;
  char *region;       /* sso_region */
  char **scopes;      /* sso_registration_scopes (sso-session only), or NULL */
  char *account_id;   /* sso_account_id, or NULL (a profile for tokens only) */
  char *role_name;    /* sso_role_name, or NULL */
} DdbSsoConfig;

void ddb_sso_config_free (DdbSsoConfig *config);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbSsoConfig, ddb_sso_config_free)

/* The SSO configuration of SESSION's profile as `aws sso login` resolves it: SSO_SESSION
 * (its --sso-session; NULL: the profile's sso_session), else the legacy keys. Errors
 * (DDB_AWS_ERROR_INVALID_CONFIG) as the CLI words them: 'The specified sso-session does not
 * exist: "x"', 'Missing the following required SSO configuration values: sso_start_url,
 * sso_region. ...'. */
DdbSsoConfig *ddb_sso_config_for_login (DdbAwsSession *session, const char *sso_session,
                                        GError **error);

/* Whether SESSION's profile signs in through IAM Identity Center (it names an sso_session or
 * an sso_start_url); if so, its start URL (*START_URL, may be NULL; NULL when the
 * sso-session does not set one) and sso-session name (*SESSION_NAME, may be NULL; NULL for a
 * legacy profile). Reads only the configuration already loaded. */
gboolean ddb_sso_profile_info (DdbAwsSession *session, char **start_url, char **session_name);

/* ---- The token cache ---- */

/* The directory the CLI keeps SSO tokens in: ~/.aws/sso/cache, with the HOME of ENVP. */
char *ddb_sso_cache_dir (const char *const *envp);

/* The cache file's name without ".json": the sha1 (hex) of SESSION_NAME, or of START_URL for
 * a legacy profile (SESSION_NAME NULL), as botocore's SSOTokenLoader names it. */
char *ddb_sso_token_cache_key (const char *start_url, const char *session_name);

/* The name (without ".json") under which `aws sso login` caches its client registration:
 * the sha1 of json.dumps({"tool": "botocore", "startUrl", "region", "scopes",
 * "session_name"}, sort_keys=True). SCOPES may be NULL (JSON null). */
char *ddb_sso_registration_cache_key (const char *start_url, const char *region,
                                      const char *const *scopes, const char *session_name);

/* ---- The device authorization flow (`aws sso login --use-device-code`) ---- */

typedef struct _DdbSsoLogin DdbSsoLogin;

/* How the flow tells the time and waits between polls; tests give their own so that they
 * never sleep. */
typedef struct {
  /* Seconds since the epoch. NULL: the real clock. */
  gint64 (*now) (gpointer user_data);
  /* Waits SECONDS, or less when CANCELLABLE is cancelled: then FALSE with
   * G_IO_ERROR_CANCELLED. NULL: really waits (cancellable at once). */
  gboolean (*wait) (guint seconds, GCancellable *cancellable, gpointer user_data,
                    GError **error);
  gpointer user_data;
} DdbSsoClock;

typedef struct {
  const char *sso_session;  /* as `aws sso login --sso-session`, or NULL: the profile's */
  const DdbSsoClock *clock; /* NULL: the real one */
} DdbSsoLoginOptions;

/* Reads the profile's SSO configuration, registers a client (or reuses the one cached by an
 * earlier login while it is valid for more than 15 minutes, under the CLI's key, and caches a
 * new one) and starts a device authorization. Then show the person the verification URL and
 * the code. Blocks on the network; cancellable. */
DdbSsoLogin *ddb_sso_login_start (DdbAwsSession *session, GCancellable *cancellable,
                                  GError **error);
DdbSsoLogin *ddb_sso_login_start_full (DdbAwsSession *session, const DdbSsoLoginOptions *options,
                                       GCancellable *cancellable, GError **error);

const DdbSsoConfig *ddb_sso_login_get_config (DdbSsoLogin *login);
const char *ddb_sso_login_get_verification_uri (DdbSsoLogin *login);
/* The URI with the code filled in: the one to open in a browser. */
const char *ddb_sso_login_get_verification_uri_complete (DdbSsoLogin *login);
const char *ddb_sso_login_get_user_code (DdbSsoLogin *login);
/* Seconds the code stays valid (from StartDeviceAuthorization), and the polling interval. */
gint64 ddb_sso_login_get_expires_in (DdbSsoLogin *login);
guint ddb_sso_login_get_interval (DdbSsoLogin *login);

/* Polls CreateToken until the person approves (then writes the token cache file as `aws sso
 * login` does and returns TRUE), denies, or the code expires; every interval (5 s more after
 * each SlowDownException). CANCELLABLE stops it at once, also between polls
 * (G_IO_ERROR_CANCELLED). Errors: DDB_AWS_ERROR_SIGN_IN_REQUIRED when the code expired or
 * the sign-in was refused, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL for other answers. */
gboolean ddb_sso_login_finish (DdbSsoLogin *login, GCancellable *cancellable, GError **error);

/* The token cache file written by a finished login. */
const char *ddb_sso_login_get_cache_path (DdbSsoLogin *login);

void ddb_sso_login_free (DdbSsoLogin *login);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbSsoLogin, ddb_sso_login_free)

G_END_DECLS
