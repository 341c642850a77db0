/* server-guard.h: what clients may hold of serve, apart from HTTP: how many connections it takes
 * (as many as its file descriptors allow, up to a maximum), a deadline on each connection for
 * sending a request and for reading the answer (closed past it, as nginx's client_header_timeout
 * and Apache's mod_reqtimeout do, so that a slowloris that sends a byte a second holds nothing
 * for long), and the bytes of request bodies held at once. server.c calls it from
 * libmicrohttpd's callbacks. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _DdbGuard DdbGuard;
typedef struct _DdbGuardConn DdbGuardConn;

/* Raises the soft limit on open files (RLIMIT_NOFILE) as far as the connections could use, up to
 * the hard limit, and returns how many connections to take at once: DDB_GUARD_MAX_CONNECTIONS,
 * fewer when the limit would not leave each one its socket and a database reader's two files,
 * with some to spare for everything else. */
#define DDB_GUARD_MAX_CONNECTIONS 4096
guint ddb_guard_connection_limit (void);

/* A connection has this many seconds to send a whole request once it is ready for one (accepted,
 * or its last answer sent), and its client as many to read an answer, plus a second for every
 * 16 KiB of the body or answer: slower than that on average, it is closed. */
#define DDB_GUARD_TIMEOUT_S 60

/* A guard and its watchdog thread, which closes the connections past their deadline. */
DdbGuard *ddb_guard_new (void);
/* Stops the watchdog; every connection must have been closed. */
void ddb_guard_free (DdbGuard *guard);

/* A connection accepted on FD: ready for a request from now on. */
DdbGuardConn *ddb_guard_open (DdbGuard *guard, int fd);
/* The connection is closed (its socket not yet): forgotten. */
void ddb_guard_close (DdbGuardConn *conn);

/* LEN more bytes of the request's body have come: they extend its deadline. With KEEP, they are
 * also counted with the bodies held, unless that would put those past DDB_GUARD_BODY_BUDGET:
 * FALSE then, and they are not counted. */
#define DDB_GUARD_BODY_BUDGET (256 * 1024 * 1024)
gboolean ddb_guard_body (DdbGuardConn *conn, gsize len, gboolean keep);
/* Whether a body of LEN bytes would still fit, now. */
gboolean ddb_guard_body_fits (DdbGuardConn *conn, gsize len);
/* LEN bytes counted by ddb_guard_body are freed. */
void ddb_guard_drop_body (DdbGuardConn *conn, gsize len);

/* The request is whole: no deadline while it is answered. */
void ddb_guard_answering (DdbGuardConn *conn);
/* Its answer of LEN bytes is being sent: the client must read it in time. */
void ddb_guard_sending (DdbGuardConn *conn, gsize len);
/* The exchange is over: ready for the next request. */
void ddb_guard_ready (DdbGuardConn *conn);

G_END_DECLS
