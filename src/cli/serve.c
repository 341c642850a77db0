/* serve.c: `dynoscope-cli --db PATH serve [--host H] [--port P] [--auth KEYID:SECRET …]`: the
 * database answers DynamoDB's JSON 1.0 protocol over HTTP until SIGINT or SIGTERM, then shuts down
 * cleanly: requests in flight are answered and the database is closed, so nothing acknowledged is
 * lost (every acknowledged write was committed before its answer left). */
#include <glib/gi18n.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/serve.h"
#include "engine/engine.h"
#include "server/server.h"

#define SERVE_PREFIX "dynoscope-cli serve: "
#define SERVE_USAGE "Usage: dynoscope-cli --db PATH serve [--host HOST] [--port PORT] " \
                    "[--auth KEYID:SECRET …]"
/* Seconds between Time to Live sweeps (DYNOSCOPE_TTL_INTERVAL overrides). */
#define TTL_INTERVAL_DEFAULT 60
/* How long requests in flight get to finish once a shutdown is asked for. */
#define SHUTDOWN_WAIT_MS 10000

static void
wipe_strv (char **strv)
{
  for (gsize i = 0; strv != NULL && strv[i] != NULL; i++)
    explicit_bzero (strv[i], strlen (strv[i]));
}

int
cli_serve_run (const char *db_path, int argc, char **argv)
{
  char *host = NULL;
  int port = 8000;
  char **auth = NULL;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbEngine) engine = NULL;
  g_autoptr (DdbServer) server = NULL;
  DdbTtlSweeper *sweeper = NULL;
  const char *ttl_env = g_getenv ("DYNOSCOPE_TTL_INTERVAL");
  guint64 ttl_interval = TTL_INTERVAL_DEFAULT;
  g_autofree char *summary = NULL;
  g_autofree char *url_host = NULL;
  sigset_t stop_signals;
  int signal_number = 0;
  int status = 0;
  GOptionEntry entries[] = {
    { "host", 0, 0, G_OPTION_ARG_STRING, &host,
      N_ ("The address to listen on (default 127.0.0.1: this machine only)"), N_ ("HOST") },
    { "port", 0, 0, G_OPTION_ARG_INT, &port,
      N_ ("The TCP port to listen on (default 8000; 0 picks a free one)"), N_ ("PORT") },
    { "auth", 0, 0, G_OPTION_ARG_STRING_ARRAY, &auth,
      N_ ("Accept only requests signed (SigV4) with this key; may be repeated"),
      N_ ("KEYID:SECRET") },
    { NULL },
  };

  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  summary = g_strdup_printf (
      "%s\n\n%s\n\n%s",
      _ ("Serve the database given with --db as a DynamoDB endpoint: any AWS SDK or the AWS CLI "
         "can use it with --endpoint-url http://HOST:PORT. Prints “Listening on http://HOST:PORT” "
         "once ready."),
      _ ("Without --auth, requests are accepted whatever their signature, as DynamoDB Local "
         "does. With --auth, every request must carry a valid Signature Version 4 from one of the "
         "keys given."),
      _ ("SIGINT or SIGTERM stops it: requests in flight are answered, the database is closed, "
         "and the exit status is 0. It also answers the DynamoDB Streams API (targets "
         "DynamoDBStreams_20120810.*), and deletes items past their Time to Live every "
         "DYNOSCOPE_TTL_INTERVAL seconds (default 60)."));
  g_option_context_set_summary (octx, summary);
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      fprintf (stderr, SERVE_PREFIX "%s\n", error->message);
      status = 2;
      goto out;
    }
  if (argc > 1)
    {
      fprintf (stderr, SERVE_PREFIX "%s\n%s\n", _ ("too many arguments"), _ (SERVE_USAGE));
      status = 2;
      goto out;
    }
  if (port < 0 || port > 65535)
    {
      fprintf (stderr, SERVE_PREFIX "%s\n", _ ("--port must be between 0 and 65535"));
      status = 2;
      goto out;
    }
  if (host != NULL && *host == '\0')
    {
      fprintf (stderr, SERVE_PREFIX "%s\n", _ ("--host needs an address"));
      status = 2;
      goto out;
    }
  if (db_path == NULL)
    {
      fprintf (stderr, SERVE_PREFIX "%s\n",
               _ ("no database: give one with --db PATH before the command"));
      status = 2;
      goto out;
    }

  engine = ddb_engine_open (db_path, &error);
  if (engine == NULL)
    {
      fprintf (stderr, SERVE_PREFIX "%s\n", error->message);
      status = 1;
      goto out;
    }
  server = ddb_server_new (engine);
  for (gsize i = 0; auth != NULL && auth[i] != NULL; i++)
    {
      char *colon = strchr (auth[i], ':');

      /* The value is never echoed: it holds a secret. */
      if (colon == NULL || colon == auth[i] || colon[1] == '\0')
        {
          fprintf (stderr, SERVE_PREFIX "%s\n", _ ("--auth takes KEYID:SECRET"));
          status = 2;
          goto out;
        }
      *colon = '\0';
      ddb_server_add_key (server, auth[i], colon + 1);
    }

  /* Blocked before any thread starts, so that every thread inherits the mask and the signals
   * are only ever taken by sigwait() below. A client hanging up must not kill the process. */
  sigemptyset (&stop_signals);
  sigaddset (&stop_signals, SIGINT);
  sigaddset (&stop_signals, SIGTERM);
  pthread_sigmask (SIG_BLOCK, &stop_signals, NULL);
  signal (SIGPIPE, SIG_IGN);

  if (ttl_env != NULL
      && (!g_ascii_string_to_unsigned (ttl_env, 10, 1, 86400, &ttl_interval, NULL)))
    {
      fprintf (stderr, SERVE_PREFIX "%s\n",
               _ ("DYNOSCOPE_TTL_INTERVAL must be a number of seconds from 1 to 86400"));
      status = 2;
      goto out;
    }
  if (!ddb_server_start (server, host, (guint16) port, &error))
    {
      fprintf (stderr, SERVE_PREFIX "%s\n", error->message);
      status = 1;
      goto out;
    }
  if (host == NULL)
    url_host = g_strdup ("127.0.0.1");
  else if (strchr (host, ':') != NULL)
    url_host = g_strdup_printf ("[%s]", host);
  else
    url_host = g_strdup (host);
  sweeper = ddb_ttl_sweeper_start (engine, (guint) ttl_interval);
  printf ("Listening on http://%s:%u\n", url_host, (guint) ddb_server_get_port (server));
  fflush (stdout);

  while (sigwait (&stop_signals, &signal_number) != 0)
    ;
  ddb_server_shutdown (server, SHUTDOWN_WAIT_MS);

out:
  wipe_strv (auth);
  g_strfreev (auth);
  g_free (host);
  /* The server and the sweeper go before the engine they use. */
  ddb_ttl_sweeper_stop (sweeper);
  g_clear_pointer (&server, ddb_server_free);
  g_clear_pointer (&engine, ddb_engine_free);
  return status;
}

/* dynoscope-serve beside this executable (the build tree keeps them side by side), else in the
 * installed bindir (this is the full CLI, which an installation keeps in libexecdir), or NULL. */
static char *
find_lean_server (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = NULL;
  const char *candidates[3] = { NULL };
  g_autofree char *relative = NULL;

  if (self == NULL)
    return NULL;
  dir = g_path_get_dirname (self);
  candidates[0] = dir;
#ifdef CLI_BINDIR_RELATIVE
  relative = g_build_filename (dir, CLI_BINDIR_RELATIVE, NULL);
  candidates[1] = relative;
  candidates[2] = CLI_BINDIR_ABSOLUTE;
#endif
  for (gsize i = 0; i < G_N_ELEMENTS (candidates) && candidates[i] != NULL; i++)
    {
      char *path = g_build_filename (candidates[i], "dynoscope-serve", NULL);

      if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
        return path;
      g_free (path);
    }
  return NULL;
}

int
cli_serve_main (const char *db_path, int argc, char **argv)
{
  /* dynoscope-cli carries libcurl and the rest of the client side: loading them is most of its
   * start time and memory. The lean executable serves instead, in this process's place (same
   * pid, so signals sent to it reach the server). */
  g_autofree char *lean = find_lean_server ();

  if (lean != NULL && db_path != NULL)
    {
      char **args = g_new0 (char *, argc + 3);
      int n = 0;

      args[n++] = lean;
      args[n++] = (char *) "--db";
      args[n++] = (char *) db_path;
      for (int i = 1; i < argc; i++)
        args[n++] = argv[i];
      fflush (NULL);
      execv (lean, args);
      g_free (args);
      /* Not runnable after all: serve from here. */
    }
  return cli_serve_run (db_path, argc, argv);
}
