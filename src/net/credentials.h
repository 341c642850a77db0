/* credentials.h: a profile resolved as the AWS CLI v2 resolves it: its region, its DynamoDB
 * endpoint and its credentials, from the environment, ~/.aws/credentials and ~/.aws/config:
 * static keys, credential_process (cached until its Expiration) and role_arn + source_profile
 * through STS AssumeRole (chained, loops refused). The STS call itself goes through a transport
 * the caller gives, so this layer does no network I/O. Secrets are wiped when freed and never
 * appear in a GError message or a log line. */
#pragma once

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

/* One STS call for the transport to make: POST BODY (application/x-www-form-urlencoded;
 * charset=utf-8) to URL, signed with SigV4 (service "sts", REGION) with CREDENTIALS. */
typedef struct {
  const char *url;
  const char *region;
  const char *service; /* "sts" */
  const char *content_type;
  const char *body;
  const DdbCredentials *credentials;
} DdbStsRequest;

/* Makes the HTTP call. Returns FALSE with ERROR set only when no HTTP response came back;
 * otherwise sets *STATUS and *BODY (the response body; this layer wipes it when done). */
typedef gboolean (*DdbStsTransport) (const DdbStsRequest *request, guint *status, GBytes **body,
                                     gpointer user_data, GError **error);

typedef struct {
  const char *profile;      /* --profile, or NULL: AWS_DEFAULT_PROFILE, AWS_PROFILE, "default" */
  const char *region;       /* --region, or NULL */
  const char *endpoint_url; /* --endpoint-url, or NULL */
  const char *const *envp;  /* NULL: the process environment */
  DdbStsTransport sts_transport; /* NULL: profiles that assume a role fail clearly */
  gpointer sts_user_data;
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
 * be refreshed when less than 10 minutes remain. Thread-safe. Free the copy returned. */
DdbAwsCredentials *ddb_aws_session_get_credentials (DdbAwsSession *session, gint64 now,
                                                    GError **error);

/* ---- The pieces, for tests and for the client ---- */

/* Parses a credential_process's standard output ({"Version": 1, "AccessKeyId": ...,
 * "SecretAccessKey": ..., "SessionToken": ..., "Expiration": ISO 8601}). */
DdbAwsCredentials *ddb_aws_parse_process_output (const char *text, gsize len, GError **error);

/* The form body of an STS AssumeRole request. EXTERNAL_ID may be NULL, DURATION_SECONDS < 0
 * for none. */
char *ddb_aws_assume_role_body (const char *role_arn, const char *session_name,
                                const char *external_id, gint64 duration_seconds);

/* Parses an STS response: the credentials of an AssumeRoleResponse (STATUS 2xx), or the
 * ErrorResponse's code and message as the CLI prints them. */
DdbAwsCredentials *ddb_aws_parse_assume_role_response (guint status, const char *body, gsize len,
                                                       GError **error);

G_END_DECLS
