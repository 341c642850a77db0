/* server.h: the local endpoint: DynamoDB's JSON 1.0 protocol over HTTP (libmicrohttpd) onto an
 * engine, with DynamoDB's health check, protocol errors and, optionally, SigV4 authentication. */
#pragma once

#include <glib.h>

#include "engine/engine.h"

G_BEGIN_DECLS

typedef struct _DdbServer DdbServer;

/* A server for `engine` (borrowed: it must outlive the server). Nothing listens yet. */
DdbServer *ddb_server_new (DdbEngine *engine);

/* Requires every request to be signed (SigV4) by one of the keys added; without any key, requests
 * are accepted whatever their signature, as DynamoDB Local does. The secret is copied, and wiped
 * when the server is freed. Only before ddb_server_start(). */
void ddb_server_add_key (DdbServer *server, const char *access_key_id, const char *secret);

/* ddb_server_add_key for temporary credentials: a request signed with ACCESS_KEY_ID must also
 * carry exactly SESSION_TOKEN as X-Amz-Security-Token (else UnrecognizedClientException "The
 * security token included in the request is invalid.", as DynamoDB answers). SESSION_TOKEN
 * NULL: the key is a long-term one, as with ddb_server_add_key. */
void ddb_server_add_temporary_key (DdbServer *server, const char *access_key_id,
                                   const char *secret, const char *session_token);

/* Listens on `host` (a numeric address or a name; NULL means 127.0.0.1) and `port` (0 picks a free
 * one) and answers on threads of its own. G_FILE_ERROR on failure (GLib's own domain, so that
 * the server needs no GIO). */
gboolean ddb_server_start (DdbServer *server, const char *host, guint16 port, GError **error);

/* The port listened on, once started. */
guint16 ddb_server_get_port (DdbServer *server);

/* Stops accepting connections, refuses requests that start from now on, waits up to `wait_ms` for
 * the requests in flight to be answered, then closes every connection. Every response sent was
 * sent after its operation committed. Idempotent. */
void ddb_server_shutdown (DdbServer *server, guint wait_ms);

/* Shuts down (waiting up to 10 s) if still running; wipes the secrets. */
void ddb_server_free (DdbServer *server);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbServer, ddb_server_free)

G_END_DECLS
