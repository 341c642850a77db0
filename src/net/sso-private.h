/* sso-private.h: what sso.c (the configuration and the credential provider), sso-cache.c (the
 * token and registration cache files) and sso-device.c (the SSO-OIDC calls and the device
 * flow) share. */
#pragma once

#include "net/credentials-private.h"
#include "net/hash.h"
#include "net/sso.h"

G_BEGIN_DECLS

/* ---- sso-cache.c ---- */

/* One token cache entry, as botocore's SSOTokenLoader reads it and the CLI writes it. */
typedef struct {
  char *start_url;
  char *region;
  char *access_token;
  gint64 expires_at;
  char *client_id;
  char *client_secret;
  char *registration_expires_at; /* the text as written (passed through when rewritten) */
  char *refresh_token;
} DdbSsoToken;

void ddb_sso_token_free (DdbSsoToken *token);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbSsoToken, ddb_sso_token_free)

/* A client registration as `aws sso login` caches it. */
typedef struct {
  char *client_id;
  char *client_secret;
  char *expires_at; /* text */
  gboolean for_auth_code; /* it has grantTypes: made by the authorization code flow */
} DdbSsoRegistration;

void ddb_sso_registration_free (DdbSsoRegistration *reg);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbSsoRegistration, ddb_sso_registration_free)

/* An ISO 8601 time as dateutil reads the CLI's files: also "...UTC" (older CLIs wrote that). */
gboolean ddb_sso_parse_time (const char *text, gint64 *out);

/* DIR/KEY.json */
char *ddb_sso_cache_path (const char *dir, const char *key);

/* Reads the token cache file PATH. NAME (the session name or start URL) and START_URL only
 * word the errors, as botocore: a missing file is "Token for NAME does not exist" (*MISSING
 * TRUE), one without accessToken or expiresAt "Token for START_URL is invalid"; files that
 * are not JSON, or whose dates are not dates, are errors that say so without quoting them.
 * Errors are DDB_AWS_ERROR_SIGN_IN_REQUIRED, their message without the command hint. */
DdbSsoToken *ddb_sso_token_read (const char *path, const char *name, const char *start_url,
                                 GError **error);

/* The JSON the CLI writes for TOKEN: {"startUrl", "region", "accessToken", "expiresAt",
 * "clientId", "clientSecret", "registrationExpiresAt", "refreshToken"} in that order, the
 * last four when set, json.dumps's separators, no indentation. Wipe it when done. */
GString *ddb_sso_token_to_json (const DdbSsoToken *token);

/* Reads a cached registration; NULL (no error) when absent or unusable. */
DdbSsoRegistration *ddb_sso_registration_read (const char *path);
GString *ddb_sso_registration_to_json (const DdbSsoRegistration *reg, const char *const *scopes);

/* Writes TEXT to DIR/KEY.json as JSONFileCache does, atomically: a temporary file (0600) in
 * DIR, synced, then renamed over it. DIR is made (0700) when missing. */
gboolean ddb_sso_cache_write (const char *dir, const char *key, const GString *text,
                              GError **error);

/* ---- sso.c ---- */

/* The message of an error that a new sign-in fixes, with the command that signs in. */
void ddb_sso_set_sign_in_error (GError **error, const char *profile, const char *what);

/* ---- sso-device.c: SSO-OIDC over restJson1 ---- */

/* POSTs BODY (JSON) to PATH of SSO-OIDC in REGION (through the session's transport and its
 * configured "SSO OIDC" endpoint). A 2xx answer: the parsed JSON. Otherwise NULL with ERROR
 * set: *CODE (may be NULL) gets the service's error code ("AuthorizationPendingException")
 * when the service answered, NULL when no answer came (then ERROR is the transport's). */
DdbSecretJson *ddb_sso_oidc_call (DdbAwsSession *session, const char *region,
                                  const char *operation, const char *path, const GString *body,
                                  char **code, GCancellable *cancellable, GError **error);

/* The restJson1 error code and message of an answer (JSON may be NULL): __type, code, the
 * OAuth "error" as its exception name, else by STATUS. */
void ddb_sso_service_error (DdbSecretJson *json, guint status, char **code, char **message);

G_END_DECLS
