/* server-private.h: serve's handling of one request without sockets: (method, content type,
 * target, body) in, (status, body, headers) out, exactly as server.c sends it. For the fuzz
 * target (fuzz/fuzz-serve.c); the HTTP server is its only other caller. */
#pragma once

#include <glib.h>

#include "engine/engine.h"

G_BEGIN_DECLS

/* Checks the request's signature; called after the target is known, as DynamoDB checks. */
typedef gboolean (*DdbServerVerifyFunc) (gpointer user_data, GError **error);

typedef struct {
  const char *method;
  const char *content_type; /* NULL: none */
  const char *target;       /* X-Amz-Target; NULL: none */
  const char *host;         /* Host; NULL: none (DescribeEndpoints answers with it) */
  const guint8 *body;
  gsize body_len;
  DdbServerVerifyFunc verify; /* NULL: signatures are not checked */
  gpointer verify_data;
} DdbServerRequest;

typedef struct {
  guint status; /* 0: no answer can be made (the connection is closed) */
  char *body;   /* g_malloc'd; NULL: none at all (no x-amz-crc32 either) */
  gsize body_len;
  const char *content_type; /* static; NULL: none */
  const char *error_type;   /* static x-amzn-ErrorType; NULL: none */
} DdbServerReply;

/* Fills `reply` (clear it with ddb_server_reply_clear) for `request`, on `engine`. */
void ddb_server_handle (DdbEngine *engine, const DdbServerRequest *request, DdbServerReply *reply);
void ddb_server_reply_clear (DdbServerReply *reply);

/* The operation names of DynamoDB's API that serve takes in X-Amz-Target (after
 * "DynamoDB_20120810."), sorted; *n_operations is set to their number. */
const char *const *ddb_server_operations (gsize *n_operations);

G_END_DECLS
