/* server-guard.c: the connections' deadlines, how many connections serve takes and the bytes of
 * request bodies it holds at once (server-guard.h). */
#include "server/server-guard.h"

#include <sys/resource.h>
#include <sys/socket.h>

/* DDB_GUARD_TIMEOUT_S, and a second more for every MIN_RATE bytes of the body or answer: only a
 * transfer slower than that on average is cut. An idle keep-alive connection is closed after
 * the same minute. */
#define TIMEOUT_US (DDB_GUARD_TIMEOUT_S * G_USEC_PER_SEC)
#define MIN_RATE (16 * 1024)
/* What each connection may need: its socket and, while it reads, a database reader's two files
 * (the database and its write-ahead log); and the descriptors left for everything else. */
#define FDS_PER_CONNECTION 3
#define FDS_SPARE 64

struct _DdbGuard {
  GMutex lock; /* the connections, their deadlines and `body_bytes` */
  GCond wake;  /* the watchdog: only to stop it */
  GQueue conns;
  gsize body_bytes;
  gboolean stopping;
  GThread *watchdog;
};

struct _DdbGuardConn {
  DdbGuard *guard;
  GList link;
  int fd;
  gboolean timed; /* FALSE while its request is answered */
  gboolean cut;   /* shut down by the watchdog */
  gint64 since;   /* monotonic: when it became ready, or began sending its answer */
  gsize bytes;    /* the body received since, or the answer's length */
};

guint
ddb_guard_connection_limit (void)
{
  rlim_t wanted = DDB_GUARD_MAX_CONNECTIONS * FDS_PER_CONNECTION + FDS_SPARE;
  struct rlimit rl;

  if (getrlimit (RLIMIT_NOFILE, &rl) != 0)
    return DDB_GUARD_MAX_CONNECTIONS;
  /* The soft limit (1024 by default, for select()'s sake; nothing here uses select) is raised
   * as servers raise it, within the hard one. */
  if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < wanted)
    {
      struct rlimit raised = rl;

      raised.rlim_cur = rl.rlim_max == RLIM_INFINITY ? wanted : MIN (wanted, rl.rlim_max);
      if (setrlimit (RLIMIT_NOFILE, &raised) == 0)
        rl = raised;
    }
  if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= wanted)
    return DDB_GUARD_MAX_CONNECTIONS;
  if (rl.rlim_cur < FDS_SPARE + FDS_PER_CONNECTION)
    return 1;
  return (guint) ((rl.rlim_cur - FDS_SPARE) / FDS_PER_CONNECTION);
}

static gint64
deadline (const DdbGuardConn *conn)
{
  return conn->since + TIMEOUT_US + (gint64) (conn->bytes / MIN_RATE) * G_USEC_PER_SEC;
}

/* Wakes at the earliest deadline, at most TIMEOUT_US after its last look: every deadline set
 * since is later than that (a deadline is never less than TIMEOUT_US away when set, and only
 * moves later), so nothing is missed and no one needs to wake it. A connection past its
 * deadline is shut down (its socket stays open, and libmicrohttpd, seeing the end of the
 * stream, closes the connection); only closing it frees the socket, and closing it takes the
 * lock first (ddb_guard_close), so the socket shut down is always still this connection's. */
static gpointer
watchdog (gpointer data)
{
  DdbGuard *guard = data;

  g_mutex_lock (&guard->lock);
  while (!guard->stopping)
    {
      gint64 now = g_get_monotonic_time ();
      gint64 next = now + TIMEOUT_US;

      for (GList *l = guard->conns.head; l != NULL; l = l->next)
        {
          DdbGuardConn *conn = l->data;
          gint64 due;

          if (!conn->timed || conn->cut)
            continue;
          due = deadline (conn);
          if (due <= now)
            {
              g_debug ("closing a connection past its deadline (%" G_GSIZE_FORMAT " bytes "
                       "in %" G_GINT64_FORMAT " s)", conn->bytes,
                       (now - conn->since) / G_USEC_PER_SEC);
              shutdown (conn->fd, SHUT_RDWR);
              conn->cut = TRUE;
            }
          else
            next = MIN (next, due);
        }
      g_cond_wait_until (&guard->wake, &guard->lock, next);
    }
  g_mutex_unlock (&guard->lock);
  return NULL;
}

DdbGuard *
ddb_guard_new (void)
{
  DdbGuard *guard = g_new0 (DdbGuard, 1);

  g_mutex_init (&guard->lock);
  g_cond_init (&guard->wake);
  g_queue_init (&guard->conns);
  guard->watchdog = g_thread_new ("serve-deadlines", watchdog, guard);
  return guard;
}

void
ddb_guard_free (DdbGuard *guard)
{
  if (guard == NULL)
    return;
  g_mutex_lock (&guard->lock);
  guard->stopping = TRUE;
  g_cond_signal (&guard->wake);
  g_mutex_unlock (&guard->lock);
  g_thread_join (guard->watchdog);
  g_warn_if_fail (guard->conns.length == 0);
  g_mutex_clear (&guard->lock);
  g_cond_clear (&guard->wake);
  g_free (guard);
}

DdbGuardConn *
ddb_guard_open (DdbGuard *guard, int fd)
{
  DdbGuardConn *conn = g_new0 (DdbGuardConn, 1);

  conn->guard = guard;
  conn->fd = fd;
  conn->link.data = conn;
  conn->timed = TRUE;
  conn->since = g_get_monotonic_time ();
  g_mutex_lock (&guard->lock);
  g_queue_push_tail_link (&guard->conns, &conn->link);
  g_mutex_unlock (&guard->lock);
  return conn;
}

void
ddb_guard_close (DdbGuardConn *conn)
{
  DdbGuard *guard;

  if (conn == NULL)
    return;
  guard = conn->guard;
  g_mutex_lock (&guard->lock);
  g_queue_unlink (&guard->conns, &conn->link);
  g_mutex_unlock (&guard->lock);
  g_free (conn);
}

gboolean
ddb_guard_body (DdbGuardConn *conn, gsize len, gboolean keep)
{
  DdbGuard *guard = conn->guard;
  gboolean fits;

  g_mutex_lock (&guard->lock);
  conn->bytes += len;
  fits = len <= DDB_GUARD_BODY_BUDGET - guard->body_bytes;
  if (keep && fits)
    guard->body_bytes += len;
  g_mutex_unlock (&guard->lock);
  return fits;
}

gboolean
ddb_guard_body_fits (DdbGuardConn *conn, gsize len)
{
  DdbGuard *guard = conn->guard;
  gboolean fits;

  g_mutex_lock (&guard->lock);
  fits = len <= DDB_GUARD_BODY_BUDGET - guard->body_bytes;
  g_mutex_unlock (&guard->lock);
  return fits;
}

void
ddb_guard_drop_body (DdbGuardConn *conn, gsize len)
{
  DdbGuard *guard = conn->guard;

  g_mutex_lock (&guard->lock);
  g_warn_if_fail (guard->body_bytes >= len);
  guard->body_bytes -= MIN (len, guard->body_bytes);
  g_mutex_unlock (&guard->lock);
}

static void
set_phase (DdbGuardConn *conn, gboolean timed, gsize bytes)
{
  g_mutex_lock (&conn->guard->lock);
  conn->timed = timed;
  conn->since = g_get_monotonic_time ();
  conn->bytes = bytes;
  g_mutex_unlock (&conn->guard->lock);
}

void
ddb_guard_answering (DdbGuardConn *conn)
{
  set_phase (conn, FALSE, 0);
}

void
ddb_guard_sending (DdbGuardConn *conn, gsize len)
{
  set_phase (conn, TRUE, len);
}

void
ddb_guard_ready (DdbGuardConn *conn)
{
  set_phase (conn, TRUE, 0);
}
