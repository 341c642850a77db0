/* sigv4.h: AWS Signature Version 4 as a pure function: the request, the credentials, the region,
 * the service and the time in; the canonical request, the string to sign, the signature and the
 * headers (or query parameters) to add out. No clock, no environment, no I/O. Also the verifier the
 * local endpoint uses for --auth. Secrets are never logged; derived keys are wiped after use. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  const char *access_key_id;
  const char *secret_access_key;
  const char *session_token; /* or NULL */
} DdbCredentials;

typedef struct {
  const char *name;  /* as sent; canonicalized (lower case, trimmed) by the signer */
  const char *value; /* as sent; may hold folded lines; trimmed and its blank runs collapsed */
} DdbHttpHeader;

typedef struct {
  const char *method; /* "POST" */
  /* The request target's path as it goes on the wire, e.g. "/". Each byte outside the unreserved
   * set and '/' is percent-encoded for the canonical request, so an already encoded path is encoded
   * twice, as every AWS SDK does for services other than S3. */
  const char *path;
  const char *query;            /* the query string without '?', as sent, or NULL */
  const DdbHttpHeader *headers; /* must include Host; repeated names are joined with ',' in order */
  guint n_headers;
  const guint8 *body;
  gsize body_len;
} DdbHttpRequest;

typedef struct {
  const char *region;          /* "us-east-1" */
  const char *service;         /* "dynamodb" */
  gint64 time;                 /* seconds since the epoch (UTC) */
  gboolean normalize_path;     /* FALSE for S3-style services; TRUE for DynamoDB */
  gboolean sign_body;          /* header signing: add a signed x-amz-content-sha256 */
  gboolean omit_session_token; /* add X-Amz-Security-Token without signing it */
  gint64 expires_in;           /* presigned URLs: X-Amz-Expires seconds */
} DdbSigningParams;

typedef struct {
  char *canonical_request;
  char *string_to_sign;
  char *signature; /* lower-case hex */
  /* Header signing: the headers to append to the request, as name, value, name, value, ...,
   * NULL-terminated: X-Amz-Security-Token (with a session token), X-Amz-Date,
   * x-amz-content-sha256 (sign_body), Authorization, in that order.
   * Query signing: NULL, and query_string holds the whole query to send (the request's own query
   * as sent, then X-Amz-Algorithm, X-Amz-Credential, X-Amz-Date, X-Amz-SignedHeaders,
   * X-Amz-Expires, X-Amz-Security-Token, X-Amz-Signature). */
  char **add_headers;
  char *query_string;
} DdbSignature;

/* Frees the members and zeroes the struct; the struct itself is the caller's. */
void ddb_signature_clear (DdbSignature *sig);

/* Signs with an Authorization header. Every header of the request is signed except the ones
 * proxies and HTTP libraries rewrite (User-Agent, Expect, Connection, Transfer-Encoding,
 * X-Amzn-Trace-Id). Fails (DDB_ERROR_INTERNAL) when the request has no Host header or already
 * carries Authorization, X-Amz-Date, X-Amz-Security-Token or x-amz-content-sha256. */
gboolean ddb_sigv4_sign_headers (const DdbHttpRequest *req, const DdbCredentials *creds,
                                 const DdbSigningParams *params, DdbSignature *out, GError **error);

/* Signs as a presigned URL (query parameters). */
gboolean ddb_sigv4_sign_query (const DdbHttpRequest *req, const DdbCredentials *creds,
                               const DdbSigningParams *params, DdbSignature *out, GError **error);

/* "20150830T123600Z" for a time in seconds since the epoch. */
char *ddb_sigv4_format_amz_date (gint64 time);

/* Parses exactly "YYYYMMDDTHHMMSSZ"; FALSE if it is anything else. */
gboolean ddb_sigv4_parse_amz_date (const char *text, gint64 *out_time);

/* The secret access key of an access key id, or NULL when the key is unknown. The returned string
 * is only read during the call. */
typedef const char *(*DdbSecretLookupFunc) (const char *access_key_id, gpointer user_data);

typedef struct {
  const char *region;  /* the scope region required, or NULL to accept any region */
  const char *service; /* the scope service required: "dynamodb" */
  gint64 now;          /* the server's time, seconds since the epoch */
  gint64 max_skew;     /* seconds either way; DynamoDB allows 900 (0 means 900) */
  DdbSecretLookupFunc lookup;
  gpointer user_data;
} DdbSigv4VerifyParams;

/* Checks a request's signature as DynamoDB does, in DynamoDB's order, with DynamoDB's exception
 * and message on refusal (DDB_ERROR domain). The signature is read from the Authorization header
 * (AWS4-HMAC-SHA256), or from the query when it has an X-Amz-Algorithm parameter (a presigned
 * request: X-Amz-Algorithm, X-Amz-Credential, X-Amz-Date, X-Amz-Expires, X-Amz-SignedHeaders,
 * X-Amz-Signature and maybe X-Amz-Security-Token; every parameter but X-Amz-Signature signed):
 * - an Authorization header and X-Amz-Algorithm both: INVALID_SIGNATURE;
 * - no Authorization header (nor X-Amz-Algorithm), or one not starting with "AWS4-":
 *   MISSING_AUTHENTICATION_TOKEN;
 * - missing Credential, SignedHeaders, Signature or date, a parameter without '=', a date not in
 *   ISO 8601 basic format, an algorithm other than AWS4-HMAC-SHA256, a Credential not made of 5
 *   elements: INCOMPLETE_SIGNATURE; so too, presigned, a missing or empty parameter (each named),
 *   one given twice, an X-Amz-Expires that is not a number of seconds from 1 to 604800;
 * - a date more than max_skew away from now (presigned: more than max_skew ahead, or more than
 *   X-Amz-Expires behind), Host not signed, a scope with the wrong region, service, terminator or
 *   date, a signature that does not match: INVALID_SIGNATURE;
 * - an access key id the lookup does not know: UNRECOGNIZED_CLIENT.
 * The date is X-Amz-Date, or Date when there is no X-Amz-Date (presigned: the X-Amz-Date
 * parameter). The payload hash is always computed from the body (UNSIGNED-PAYLOAD is S3's, for
 * presigned requests too). A skew of exactly max_skew, an age of exactly X-Amz-Expires, are
 * accepted. The signatures are compared in constant time. A name SignedHeaders lists twice counts
 * once. A message is UTF-8 (bytes of the request it quotes that are not are replaced with U+FFFD).
 * On success, *out_access_key_id (if not NULL) receives the key id that signed. */
gboolean ddb_sigv4_verify (const DdbHttpRequest *req, const DdbSigv4VerifyParams *params,
                           char **out_access_key_id, GError **error);

/* The session token the request carries, as ddb_sigv4_verify reads the request: the
 * X-Amz-Security-Token query parameter (decoded) of a presigned request, else the
 * X-Amz-Security-Token header; NULL when there is none. Free with ddb_secret_free. */
char *ddb_sigv4_session_token (const DdbHttpRequest *req);

G_END_DECLS
