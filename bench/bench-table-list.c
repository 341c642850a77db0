/* bench-table-list.c: a region's table list over a slow link. `serve` on an in-memory engine
 * with N tables (600 by default), reached through a loopback proxy that holds every chunk for
 * half the round trip each way and a new connection for one round trip (TCP's handshake), so
 * that the client meets a link of RTT ms (100 by default). Prints, for each concurrency, the
 * seconds ddb_backend_list_tables takes to read every page of ListTables and DescribeTable each
 * table, the HTTP connections it opened, and the time one call after another would take.
 *
 * Run: build/bench/bench-table-list [--tables N] [--rtt-ms MS] [--concurrency 1,16,64]
 * (concurrency 1 over 600 tables is a minute: left out unless asked for). */
#include <gio/gio.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend/table-list.h"
#include "server/server.h"

static const char *prog = "bench-table-list";

static G_NORETURN void
die (const char *what, const GError *error)
{
  fprintf (stderr, "%s: %s: %s\n", prog, what, error != NULL ? error->message : "failed");
  exit (1);
}

/* The proxy: a thread per direction reads chunks and queues them stamped with their arrival;
 * a thread per direction writes each once its one-way delay has passed. */

typedef struct {
  gint64 due; /* monotonic µs */
  GBytes *data; /* NULL: the reading side ended */
} Chunk;

typedef struct {
  GSocket *from;
  GSocket *to;
  GAsyncQueue *queue;
  gint64 delay_us;
} Direction;

typedef struct {
  guint16 upstream_port;
  gint64 rtt_us;
  GSocket *listener;
  gint connections; /* accepted so far */
} Proxy;

static gpointer
read_side (gpointer data)
{
  Direction *d = data;
  char buffer[65536];

  for (;;)
    {
      gssize n = g_socket_receive (d->from, buffer, sizeof buffer, NULL, NULL);
      Chunk *chunk = g_new0 (Chunk, 1);

      chunk->due = g_get_monotonic_time () + d->delay_us;
      if (n > 0)
        chunk->data = g_bytes_new (buffer, (gsize) n);
      g_async_queue_push (d->queue, chunk);
      if (n <= 0)
        return NULL;
    }
}

static gpointer
write_side (gpointer data)
{
  Direction *d = data;

  for (;;)
    {
      Chunk *chunk = g_async_queue_pop (d->queue);
      gint64 wait = chunk->due - g_get_monotonic_time ();
      gsize len = 0;
      const char *bytes;
      gsize sent = 0;

      if (wait > 0)
        g_usleep ((gulong) wait);
      if (chunk->data == NULL)
        {
          g_free (chunk);
          g_socket_shutdown (d->to, FALSE, TRUE, NULL);
          return NULL;
        }
      bytes = g_bytes_get_data (chunk->data, &len);
      while (sent < len)
        {
          gssize n = g_socket_send (d->to, bytes + sent, len - sent, NULL, NULL);

          if (n <= 0)
            break;
          sent += (gsize) n;
        }
      g_bytes_unref (chunk->data);
      g_free (chunk);
    }
}

static void
relay (GSocket *from, GSocket *to, gint64 delay_us, GThread **threads)
{
  Direction *d = g_new0 (Direction, 1);

  d->from = from;
  d->to = to;
  d->queue = g_async_queue_new ();
  d->delay_us = delay_us;
  threads[0] = g_thread_new ("proxy-read", read_side, d);
  threads[1] = g_thread_new ("proxy-write", write_side, d);
}

typedef struct {
  Proxy *proxy;
  GSocket *client;
} Connection;

static gpointer
connection_thread (gpointer data)
{
  Connection *c = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) address
      = g_inet_socket_address_new (loopback, c->proxy->upstream_port);
  GSocket *upstream = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                    G_SOCKET_PROTOCOL_TCP, &error);
  GThread *threads[4];

  /* The handshake's round trip: nothing goes through before it. */
  g_usleep ((gulong) c->proxy->rtt_us);
  if (upstream == NULL || !g_socket_connect (upstream, address, NULL, &error))
    die ("proxy: connect to serve", error);
  g_socket_set_option (upstream, IPPROTO_TCP, TCP_NODELAY, 1, NULL);
  g_socket_set_option (c->client, IPPROTO_TCP, TCP_NODELAY, 1, NULL);
  relay (c->client, upstream, c->proxy->rtt_us / 2, threads);
  relay (upstream, c->client, c->proxy->rtt_us / 2, threads + 2);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  g_socket_close (upstream, NULL);
  g_socket_close (c->client, NULL);
  return NULL;
}

static gpointer
accept_thread (gpointer data)
{
  Proxy *proxy = data;

  for (;;)
    {
      GSocket *client = g_socket_accept (proxy->listener, NULL, NULL);
      Connection *c;

      if (client == NULL)
        return NULL;
      g_atomic_int_inc (&proxy->connections);
      c = g_new0 (Connection, 1);
      c->proxy = proxy;
      c->client = client;
      g_thread_unref (g_thread_new ("proxy-conn", connection_thread, c));
    }
}

static guint16
proxy_start (Proxy *proxy)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GSocketAddress) bound = NULL;

  proxy->listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                  G_SOCKET_PROTOCOL_TCP, &error);
  if (proxy->listener == NULL || !g_socket_bind (proxy->listener, any, TRUE, &error)
      || (g_socket_set_listen_backlog (proxy->listener, 256), !g_socket_listen (proxy->listener,
                                                                               &error))
      || (bound = g_socket_get_local_address (proxy->listener, &error)) == NULL)
    die ("proxy: listen", error);
  g_thread_unref (g_thread_new ("proxy-accept", accept_thread, proxy));
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static void
create_tables (DdbBackend *backend, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("service-%04u-events", i);
      g_autoptr (GError) error = NULL;
      json_t *response = NULL;
      json_t *request = json_pack (
          "{s:s, s:[{s:s, s:s}, {s:s, s:s}], s:[{s:s, s:s}, {s:s, s:s}], s:s}", "TableName",
          name, "AttributeDefinitions", "AttributeName", "pk", "AttributeType", "S",
          "AttributeName", "sk", "AttributeType", "S", "KeySchema", "AttributeName", "pk",
          "KeyType", "HASH", "AttributeName", "sk", "KeyType", "RANGE", "BillingMode",
          "PAY_PER_REQUEST");

      if (!ddb_backend_call (backend, "CreateTable", request, NULL, &response, &error))
        die ("CreateTable", error);
      json_decref (request);
      json_decref (response);
    }
}

int
main (int argc, char **argv)
{
  gint tables = 600;
  gint rtt_ms = 100;
  g_autofree char *levels = g_strdup ("16,64");
  GOptionEntry entries[] = {
    { "tables", 0, 0, G_OPTION_ARG_INT, &tables, "Tables in the region (600)", "N" },
    { "rtt-ms", 0, 0, G_OPTION_ARG_INT, &rtt_ms, "The link's round trip (100)", "MS" },
    { "concurrency", 0, 0, G_OPTION_ARG_STRING, &levels,
      "DescribeTable calls in flight, a run each (16,64)", "N,N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) each = NULL;
  g_autoptr (DdbBackend) local = NULL;
  DdbServer *server;
  Proxy proxy = { 0 };
  guint16 port;
  g_autofree char *url = NULL;
  const char *envp[] = { "AWS_ACCESS_KEY_ID=bench", "AWS_SECRET_ACCESS_KEY=bench",
                         "AWS_EC2_METADATA_DISABLED=true", "AWS_CONFIG_FILE=/dev/null",
                         "AWS_SHARED_CREDENTIALS_FILE=/dev/null", NULL };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    die ("options", error);
  if (tables < 1 || rtt_ms < 0)
    die ("options", NULL);

  local = ddb_backend_open_database (":memory:", &error);
  if (local == NULL)
    die ("engine", error);
  create_tables (local, (guint) tables);
  server = ddb_server_new (ddb_backend_get_engine (local));
  if (!ddb_server_start (server, "127.0.0.1", 0, &error))
    die ("serve", error);
  proxy.upstream_port = ddb_server_get_port (server);
  proxy.rtt_us = (gint64) rtt_ms * 1000;
  port = proxy_start (&proxy);
  url = g_strdup_printf ("http://127.0.0.1:%u", port);

  printf ("%d tables, a link of %d ms round trip (a new connection: one more)\n", tables, rtt_ms);
  printf ("one call after another would take about %.1f s (%d ListTables pages, %d "
          "DescribeTable)\n",
          (double) ((tables + 99) / 100 + tables) * rtt_ms / 1000.0, (tables + 99) / 100,
          tables);
  each = g_strsplit (levels, ",", -1);
  for (guint i = 0; each[i] != NULL; i++)
    {
      guint concurrency = (guint) g_ascii_strtoull (each[i], NULL, 10);
      DdbClientOptions options = { 0 };
      DdbTableListOptions list = { 0 };
      g_autoptr (DdbBackend) backend = NULL;
      g_autoptr (GPtrArray) listed = NULL;
      gint before = g_atomic_int_get (&proxy.connections);
      gint64 start;
      double seconds;
      guint described = 0;

      if (concurrency == 0)
        continue;
      options.endpoint_url = url;
      options.region = "us-east-1";
      options.envp = envp;
      /* A new client each run: its connections start cold, as the app's first listing. */
      backend = ddb_backend_open_remote (&options, &error);
      if (backend == NULL)
        die ("client", error);
      list.describe = TRUE;
      list.concurrency = concurrency;
      start = g_get_monotonic_time ();
      listed = ddb_backend_list_tables (backend, &list, NULL, &error);
      seconds = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
      if (listed == NULL)
        die ("list", error);
      for (guint k = 0; k < listed->len; k++)
        if (((DdbTableListEntry *) g_ptr_array_index (listed, k))->table != NULL)
          described++;
      if (described != (guint) tables)
        die ("list: not every table described", NULL);
      printf ("concurrency %3u: %6.2f s  (%u tables described, %d connections)\n", concurrency,
              seconds, described, g_atomic_int_get (&proxy.connections) - before);
      fflush (stdout);
    }
  ddb_server_free (server);
  return 0;
}
