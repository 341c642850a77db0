/* fuzz-sigv4-private.h: what fuzz-sigv4.c (the checks) takes from fuzz-sigv4-request.c (the
 * input as a request): the raw request, header names, the query read independently of the
 * verifier, and requests under construction. Shared names start with fsv_. */
#pragma once

#include <glib.h>

#include "net/sigv4.h"

G_BEGIN_DECLS

typedef struct {
  char *method;
  char *path;
  char *query; /* NULL: no '?' */
  GPtrArray *names;
  GPtrArray *values;
  const guint8 *body;
  gsize body_len;
} RawRequest;

/* The input as a request; the body points into TEXT. */
RawRequest *fsv_parse_raw_request (const char *text, gsize len);
void fsv_raw_request_free (RawRequest *r);

/* A header name as the signer and the verifier compare it: ASCII lower case, blanks around
 * dropped. */
char *fsv_lname (const char *name);
/* Whether NAME, compared so, is WANT (lower case). */
gboolean fsv_is_named (const char *name, const char *want);

/* The parameters a presigned request's signature is made of. */
extern const char *const fsv_presign_names[7];

/* The query's parameters, in order: raw text, decoded key, decoded value. */
typedef struct {
  GPtrArray *raw;
  GPtrArray *keys;
  GPtrArray *values;
} Query;

/* Parses QUERY (NULL: none) into Q, cleared with fsv_query_clear. */
void fsv_query_parse (Query *q, const char *query);
void fsv_query_clear (Query *q);
/* The first value of KEY (NULL if none); *COUNT (if not NULL) gets how many there are. */
const char *fsv_query_get (const Query *q, const char *key, guint *count);
/* The query as sent without the presigned request's parameters, or NULL when it had none. */
char *fsv_query_without_presign (const Query *q, gboolean had_query);
/* Whether QUERY has the parameter KEY. */
gboolean fsv_query_has (const char *query, const char *key);

/* A request under construction: the headers point into strings it owns or the raw request's. */
typedef struct {
  GArray *headers; /* DdbHttpHeader */
  GPtrArray *strings;
} Headers;

void fsv_headers_init (Headers *h);
void fsv_headers_clear (Headers *h);
void fsv_headers_add (Headers *h, const char *name, const char *value);
/* Adds FROM's headers to TO. */
void fsv_headers_copy (Headers *to, const Headers *from);
/* RAW's method, path and body with QUERY and H's headers (pointing into H). */
DdbHttpRequest fsv_as_http (const RawRequest *raw, const char *query, const Headers *h);

G_END_DECLS
