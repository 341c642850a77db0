/* credentials.h: a profile resolved as the AWS CLI v2 resolves it: its region, its DynamoDB
 * endpoint and its credentials, from the environment, ~/.aws/credentials and ~/.aws/config:
 * static keys, credential_process (cached until its Expiration) and role_arn + source_profile
 * through STS AssumeRole (chained, loops refused). The STS call itself goes through a transport
 * the caller gives, so this layer does no network I/O. Secrets are wiped when freed and never
 * appear in a GError message or a log line. */
#pragma once

#include <gio/gio.h>

#include "net/awsconfig.h"
#include "net/endpoints.h"
#include "net/sigv4.h"

G_BEGIN_DECLS

/* Credentials that own their strings. */
typedef struct {
  DdbCredentials creds;
  gint64 expiration;  /* seconds since the epoch (UTC); 0: they do not expire */
  const char *method; /* where they came from, botocore's names: "env",
                       * "shared-credentials-file", "config-file", "custom-process",
                       * "assume-role" */
} DdbAwsCredentials;

DdbAwsCredentials *ddb_aws_credentials_new (const char *access_key_id,
                                            const char *secret_access_key,
                                            const char *session_token, gint64 expiration,
                                            const char *method);
DdbAwsCredentials *ddb_aws_credentials_copy (const DdbAwsCredentials *creds);
/* Wipes the secrets, then frees. */
void ddb_aws_credentials_free (DdbAwsCredentials *creds);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbAwsCredentials, ddb_aws_credentials_free)

/* One HTTP call for the transport to make, for a credential provider (STS, the SSO portal,
 * SSO-OIDC, sign-in, instance metadata, the container endpoint). The transport adds Host. */
typedef struct {
  const char *method; /* "GET", "PUT", "POST" */
  const char *url;
  const DdbHttpHeader *headers; /* besides Host */
  guint n_headers;
  const guint8 *body;
  gsize body_len;
  guint connect_timeout_ms; /* 0: the transport's default */
  guint timeout_ms;         /* 0: the transport's default */
  /* Signed with SigV4 for SIGN_SERVICE in SIGN_REGION when SIGN_CREDENTIALS is set. */
  const DdbCredentials *sign_credentials;
  const char *sign_region;
  const char *sign_service;
} DdbAwsRequest;

/* Makes the HTTP call. Returns FALSE with ERROR set only when no HTTP response came back;
 * otherwise sets *STATUS and *BODY (the response body; the caller wipes it when done). */
typedef gboolean (*DdbAwsTransport) (const DdbAwsRequest *request, guint *status, GBytes **body,
                                     gpointer user_data, GCancellable *cancellable,
                                     GError **error);

/* Asks the person for the current code of the MFA device MFA_SERIAL, for PROFILE's role: the
 * CLI on its terminal, the app in a dialog. Returns the code, or NULL with an error
 * (G_IO_ERROR_CANCELLED when the person cancelled). Called from the thread that asked for the
 * credentials, with the session's lock held (so that one prompt serves every waiting call). */
typedef char *(*DdbAwsMfaPrompt) (const char *profile, const char *mfa_serial, gpointer user_data,
                                  GCancellable *cancellable, GError **error);

typedef struct {
  const char *profile;      /* --profile, or NULL: AWS_DEFAULT_PROFILE, AWS_PROFILE, "default" */
  const char *region;       /* --region, or NULL */
  const char *endpoint_url; /* --endpoint-url, or NULL */
  const char *const *envp;  /* NULL: the process environment */
  DdbAwsTransport transport; /* NULL: providers that need the network fail clearly */
  gpointer transport_data;
  DdbAwsMfaPrompt mfa_prompt; /* NULL: roles with mfa_serial fail clearly */
  gpointer mfa_prompt_data;
} DdbAwsSessionOptions;

typedef struct _DdbAwsSession DdbAwsSession;

/* Loads the files, resolves the profile, region and endpoint, and works out (without running
 * anything) where credentials will come from. Errors: malformed files, a named profile that
 * does not exist, an invalid region or endpoint, a source_profile that is missing or loops,
 * settings that are not supported (SSO, web identity, mfa_serial). */
DdbAwsSession *ddb_aws_session_new (const DdbAwsSessionOptions *options, GError **error);
void ddb_aws_session_free (DdbAwsSession *session);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbAwsSession, ddb_aws_session_free)

const char *ddb_aws_session_get_profile (DdbAwsSession *session);
/* NULL if no region is configured anywhere. */
const char *ddb_aws_session_get_region (DdbAwsSession *session);
DdbAwsConfig *ddb_aws_session_get_config (DdbAwsSession *session);

/* The URL to send DynamoDB requests to and the region to sign them for: --endpoint-url, else
 * the configured endpoint, else the region's standard endpoint. Fails with
 * DDB_AWS_ERROR_NO_REGION when no region is known (the CLI refuses then too, even with an
 * endpoint, since requests are signed for a region). Strings belong to the session. */
gboolean ddb_aws_session_get_endpoint (DdbAwsSession *session, const char **url,
                                       const char **signing_region, GError **error);
/* Whether the endpoint came from --endpoint-url or configuration rather than the region. */
gboolean ddb_aws_session_endpoint_is_custom (DdbAwsSession *session);

/* Credentials valid at NOW (seconds since the epoch), fetched or refreshed as needed:
 * refreshed when less than 15 minutes remain (failure then keeps the old ones), required to
 * be refreshed when less than 10 minutes remain. Thread-safe. Free the copy returned.
 * CANCELLABLE (may be NULL) stops a fetch under way (a network call, an MFA prompt). */
DdbAwsCredentials *ddb_aws_session_get_credentials (DdbAwsSession *session, gint64 now,
                                                    GCancellable *cancellable, GError **error);

/* Resolves again from the files as they are now: the configuration reloaded, the chain
 * rebuilt, every cached credential dropped (the next call fetches anew). For an ExpiredToken
 * answer, and when the AWS files change. On failure the session keeps its previous state. */
gboolean ddb_aws_session_reload (DdbAwsSession *session, GError **error);

/* Whether the config or credentials file changed (mtime, size or presence) since the session
 * loaded them. */
gboolean ddb_aws_session_files_changed (DdbAwsSession *session);

/* How a person signs in again when this session's credentials need it. */
typedef enum {
  DDB_AWS_SIGN_IN_NONE,  /* nothing to sign in to: keys, roles, a process ... */
  DDB_AWS_SIGN_IN_SSO,   /* IAM Identity Center: `aws sso login` or the device flow */
  DDB_AWS_SIGN_IN_LOGIN, /* `aws login` console credentials */
} DdbAwsSignInKind;

/* The kind, and the command that signs in (for messages): "aws sso login --profile P". */
DdbAwsSignInKind ddb_aws_session_get_sign_in (DdbAwsSession *session, char **command);

/* The name of the provider that the chain resolved to (botocore's method names: "env",
 * "sso", "assume-role", ...), or NULL when no credentials are configured. */
const char *ddb_aws_session_get_method (DdbAwsSession *session);

/* ---- The pieces, for tests and for the client ---- */

/* Parses a credential_process's standard output ({"Version": 1, "AccessKeyId": ...,
 * "SecretAccessKey": ..., "SessionToken": ..., "Expiration": ISO 8601}). */
DdbAwsCredentials *ddb_aws_parse_process_output (const char *text, gsize len, GError **error);


G_END_DECLS
