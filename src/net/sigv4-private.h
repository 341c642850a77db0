/* sigv4-private.h: the pieces of a SigV4 signature the signer (sigv4.c) and the verifier
 * (sigv4-verify.c) share: canonical URI, query and headers, the canonical request and the string
 * to sign, and the signature itself. */
#pragma once

#include <glib.h>

#include "net/sigv4.h"

G_BEGIN_DECLS

#define ALGORITHM "AWS4-HMAC-SHA256"
#define TERMINATOR "aws4_request"
#define DEFAULT_MAX_SKEW 900

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

G_END_DECLS
