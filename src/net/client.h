/* client.h: a DynamoDB client over the HTTP transport: DynamoDB's JSON 1.0 protocol (POST /,
 * X-Amz-Target DynamoDB_20120810.<Op>), signed with SigV4 from a profile's credentials
 * (refreshed as they near expiry), responses checked against x-amz-crc32, and retries as the
 * AWS SDKs do them for DynamoDB: throttling, 5xx, connection errors and CRC32 mismatches are
 * retried with capped exponential backoff and full jitter, up to a bounded number of attempts;
 * every other error comes back at once with its DynamoDB name and message. When the AWS files
 * change (checked at most once a second) the session is resolved again before the next call;
 * an ExpiredToken answer resolves it again and sends the request once more with fresh
 * credentials. Proxies come from the environment (HTTPS_PROXY, NO_PROXY, ...), FIPS and
 * dual-stack endpoints from use_fips_endpoint / use_dualstack_endpoint. */
#pragma once

#include <gio/gio.h>
#include <jansson.h>

#include "core/error.h"
#include "net/credentials.h"
#include "net/http.h"

G_BEGIN_DECLS

/* botocore's retry configuration for DynamoDB (_retry.json): 10 attempts, backoff base 50 ms;
 * the delay before retry N (1-based) is uniform in [0, min(cap, base * 2^(N-1))] ("full
 * jitter"), the cap being the standard retry mode's 20 s. */
#define DDB_CLIENT_DEFAULT_MAX_ATTEMPTS 10
#define DDB_CLIENT_DEFAULT_BASE_DELAY_MS 50
#define DDB_CLIENT_DEFAULT_MAX_DELAY_MS 20000

typedef struct {
  /* The session as ddb_aws_session_new takes it (profile, region, endpoint, envp); the client
   * gives it its STS transport. */
  const char *profile;
  const char *region;
  const char *endpoint_url;
  const char *const *envp;  /* NULL: the process environment */
  /* PEM file of CAs to trust; NULL: AWS_CA_BUNDLE, else the profile's ca_bundle, else the
   * system's. TLS verification cannot be turned off. */
  const char *ca_bundle;
  guint connect_timeout_ms; /* 0: 10 s */
  guint timeout_ms;         /* per attempt; 0: 60 s */
  guint max_attempts;       /* 0: DDB_CLIENT_DEFAULT_MAX_ATTEMPTS; 1: no retries */
  guint base_delay_ms;      /* 0: DDB_CLIENT_DEFAULT_BASE_DELAY_MS */
  guint max_delay_ms;       /* 0: DDB_CLIENT_DEFAULT_MAX_DELAY_MS */
  /* Asks for an MFA code for a role with mfa_serial (given to the session); NULL: such roles
   * fail clearly. */
  DdbAwsMfaPrompt mfa_prompt;
  gpointer mfa_prompt_data;
} DdbClientOptions;

typedef struct _DdbClient DdbClient;

/* Resolves the session (DDB_AWS_ERROR on a configuration problem, including no region) and
 * the endpoint. Credentials are fetched at the first call. */
DdbClient *ddb_client_new (const DdbClientOptions *options, GError **error);
void ddb_client_free (DdbClient *client);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbClient, ddb_client_free)

/* The URL requests go to and the region they are signed for. */
const char *ddb_client_get_endpoint (DdbClient *client);
const char *ddb_client_get_signing_region (DdbClient *client);
DdbAwsSession *ddb_client_get_session (DdbClient *client);

typedef struct {
  guint attempts;    /* HTTP requests made */
  guint last_status; /* HTTP status of the last response, 0 if none came */
} DdbClientCallInfo;

/* Sends OPERATION with REQUEST (a JSON object, borrowed), retrying as described above.
 * Success: TRUE, *RESPONSE a new reference to the response object.
 * A DynamoDB error: FALSE with a DDB_ERROR whose code is the exception's (the name after '#'
 * in __type), message its message/Message. *RESPONSE then holds the error body's other
 * members (CancellationReasons, Item, ...), and, when the exception is not one DdbErrorCode
 * names (AccessDeniedException, ThrottlingException, ...), "__type": its short name, the code
 * being DDB_ERROR_INTERNAL; ddb_client_error_name() gives the name to show either way.
 * Other failures: DDB_HTTP_ERROR (no response, after the retries), G_IO_ERROR_CANCELLED,
 * DDB_AWS_ERROR (credentials), with *RESPONSE NULL. INFO (may be NULL) tells what happened.
 * Thread-safe; requests from several threads run at once, each on a connection of its own. */
gboolean ddb_client_call (DdbClient *client, const char *operation, json_t *request,
                          GCancellable *cancellable, json_t **response, DdbClientCallInfo *info,
                          GError **error);

/* ddb_client_call of a Query or Scan whose answer's Items are read straight into values
 * (ddb_json_read_page), without a tree of them: on success *ITEMS holds them (DdbValue*, freed
 * with the array) and *RESPONSE the other members; or *ITEMS is NULL and *RESPONSE holds Items
 * as ddb_client_call's does, when the answer is written in a way only jansson reads. */
gboolean ddb_client_read (DdbClient *client, const char *operation, json_t *request,
                          GCancellable *cancellable, json_t **response, GPtrArray **items,
                          DdbClientCallInfo *info, GError **error);

/* The exception name of a DDB_ERROR from ddb_client_call (or from the engine, with EXTRA
 * NULL or without "__type"). */
const char *ddb_client_error_name (const GError *error, json_t *extra);

/* ---- The pieces, for tests ---- */

/* CRC32 (IEEE 802.3, as zlib's crc32) of DATA. */
guint32 ddb_crc32 (const guint8 *data, gsize len);

/* Whether an exception name means the credentials expired (ExpiredToken,
 * ExpiredTokenException): the session is resolved again and the request sent once more. */
gboolean ddb_client_error_is_expired_token (const char *type_name);

/* Whether an exception name is one the SDKs retry (throttling and transient server errors). */
gboolean ddb_client_error_is_retryable (const char *type_name, guint http_status);

/* The DdbErrorCode of a short exception name; FALSE if no code names it. */
gboolean ddb_client_error_code_from_name (const char *type_name, DdbErrorCode *code);

/* Waits MS milliseconds unless CANCELLABLE (may be NULL) fires first: then FALSE with
 * G_IO_ERROR_CANCELLED. */
gboolean ddb_sleep_cancellable (guint ms, GCancellable *cancellable, GError **error);

/* A retry delay with full jitter, as the AWS SDKs wait: uniform in
 * [0, min(max_ms, base_ms * 2^doublings)]. */
guint ddb_backoff_full_jitter (guint base_ms, guint max_ms, guint doublings);

G_END_DECLS
