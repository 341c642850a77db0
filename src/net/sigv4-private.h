/* sigv4-private.h: the pieces of a SigV4 signature the signer (sigv4.c) and the verifier
 * (sigv4-verify.c, sigv4-presign.c) share: canonical URI, query and headers, the canonical request
 * and the string to sign, and the signature itself; what the verifier reads of a request's
 * signature, from its Authorization header or its query. */
#pragma once

#include <glib.h>

#include "net/sigv4.h"

G_BEGIN_DECLS

#define ALGORITHM "AWS4-HMAC-SHA256"
#define TERMINATOR "aws4_request"
#define DEFAULT_MAX_SKEW 900
#define SIGV4_MAX_EXPIRES 604800 /* a presigned request lives a week at most */

/* signature = hex(HMAC(kSigning, string_to_sign)), with kSigning derived from the secret through
 * the date, region and service. Every intermediate key is wiped before returning. */
void sigv4_compute_signature (const char *secret, const char *date8, const char *region,
                              const char *service, const char *string_to_sign, char out[65]);

char *sigv4_canonical_uri (const char *path, gboolean normalize);

void sigv4_query_param_free (gpointer p);

/* Each raw parameter is decoded then encoded again, so "ሴ=bar" and "%E1%88%B4=bar" sign alike. */
void sigv4_query_parse (GPtrArray *params, const char *query);

char *sigv4_canonical_query (GPtrArray *params);

char *sigv4_lower_trimmed_name (const char *name);

void sigv4_canon_header_free (gpointer p);

/* Adds a header to the set, joining with ',' an already present name (in arrival order). */
void sigv4_canon_headers_add (GPtrArray *set, const char *lname, const char *value);

const char *sigv4_find_header (const DdbHttpRequest *req, const char *lname);

/* "METHOD\nURI\nQUERY\nheaders...\n\nsigned;headers\npayloadhash"; signed_names gets the
 * "a;b;c" line. The headers are sorted by name. */
char *sigv4_build_canonical_request (const char *method, const char *uri, const char *query,
                                     GPtrArray *headers, const char *payload_hash,
                                     char **signed_names);

char *sigv4_build_string_to_sign (const char *amz_date, const char *scope,
                                  const char *canonical_request);

/* The hex SHA-256 of the request's body (empty when it has none). */
void sigv4_body_sha256_hex (const DdbHttpRequest *req, char out[65]);

/* What a request's signature is made of, as the verifier reads it: from the Authorization header
 * (sigv4-verify.c) or from the query parameters of a presigned request (sigv4-presign.c). */
typedef struct {
  char *algorithm;
  char *credential;
  char *signed_headers;
  char *signature;
  char *date;     /* as sent: the X-Amz-Date (or Date) header, or the X-Amz-Date parameter */
  gint64 expires; /* presigned: X-Amz-Expires, 1 to SIGV4_MAX_EXPIRES; 0 for the header */
  char *query;    /* presigned: the query as sent without X-Amz-Signature; else NULL */
} SigV4Auth;

/* Frees the members (the query may hold a session token: wiped) and zeroes the struct. */
void sigv4_auth_clear (SigV4Auth *a);

/* Whether the query (as sent, may be NULL) has an X-Amz-Algorithm parameter, empty or not: the
 * request is then signed in its query. */
gboolean sigv4_query_has_algorithm (const char *query);

/* Reads a presigned request's parameters into A (DynamoDB's IncompleteSignatureException when
 * one is missing or empty, given twice, or X-Amz-Expires is not 1 to SIGV4_MAX_EXPIRES). */
gboolean sigv4_presigned_parse (const char *query, SigV4Auth *a, GError **error);

G_END_DECLS
