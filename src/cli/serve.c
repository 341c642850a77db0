/* serve.c: `dynoscope-cli --db PATH serve [--host H] [--port P] [--auth KEYID:SECRET[:TOKEN] …]
 * [--auth-file PATH]` (and DYNOSCOPE_SERVE_AUTH, so that no secret need stand on a command line): the
 * database answers DynamoDB's JSON 1.0 protocol over HTTP until SIGINT or SIGTERM, then shuts down
 * cleanly: requests in flight are answered and the database is closed, so nothing acknowledged is
 * lost (every acknowledged write was committed before its answer left). */
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/serve-s3.h"
#include "cli/serve.h"
#include "engine/engine.h"
#include "engine/export-target.h"
#include "server/server.h"

#define SERVE_PREFIX "dynoscope-cli serve: "
#define SERVE_USAGE "Usage: dynoscope-cli --db PATH serve [--host HOST] [--port PORT] " \
                    "[--auth KEYID:SECRET[:TOKEN] …] [--auth-file PATH] " \
                    "[--export-dir DIR | --export-s3]"
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

static void
wipe_free (gpointer s)
{
  explicit_bzero (s, strlen (s));
  g_free (s);
}

/* Checks ENTRY (KEYID:SECRET or KEYID:SECRET:SESSION_TOKEN, spaces around it ignored) and adds
 * a copy to KEYS. WHERE says where it came from, for the message: the value itself is never
 * shown, it holds a secret. */
static gboolean
take_auth_entry (GPtrArray *keys, const char *entry, const char *where)
{
  g_autofree char *copy = g_strdup (entry);
  const char *text = g_strstrip (copy);
  const char *c1 = strchr (text, ':');
  const char *c2 = c1 != NULL ? strchr (c1 + 1, ':') : NULL;
  gboolean ok = c1 != NULL && c1 != text && c1[1] != '\0' && c1[1] != ':'
                && (c2 == NULL || (c2[1] != '\0' && strchr (c2 + 1, ':') == NULL));

  if (ok)
    g_ptr_array_add (keys, g_strdup (text));
  else if (strcmp (where, "--auth") == 0)
    fprintf (stderr, SERVE_PREFIX "%s\n",
             _ ("--auth takes KEYID:SECRET or KEYID:SECRET:SESSION_TOKEN"));
  else
    fprintf (stderr, SERVE_PREFIX "%s: %s\n", where,
             _ ("not KEYID:SECRET or KEYID:SECRET:SESSION_TOKEN"));
  explicit_bzero (copy, strlen (copy));
  return ok;
}

/* DYNOSCOPE_SERVE_AUTH: entries separated by commas or newlines. */
static gboolean
take_auth_env (GPtrArray *keys, const char *value)
{
  g_auto (GStrv) parts = g_strsplit_set (value, ",\n", -1);
  gboolean ok = TRUE;

  for (gsize i = 0; parts[i] != NULL && ok; i++)
    {
      g_autofree char *where = g_strdup_printf ("DYNOSCOPE_SERVE_AUTH (entry %zu)", i + 1);

      if (*g_strstrip (parts[i]) != '\0')
        ok = take_auth_entry (keys, parts[i], where);
    }
  wipe_strv (parts);
  return ok;
}

/* --auth-file: one entry a line; blank lines and lines starting with # are skipped. A file
 * others can read is used, with a warning. */
static gboolean
take_auth_file (GPtrArray *keys, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  gsize len = 0;
  GStatBuf st;
  gboolean ok = TRUE;

  if (!g_file_get_contents (path, &text, &len, &error))
    {
      fprintf (stderr, SERVE_PREFIX "--auth-file: %s\n", error->message);
      return FALSE;
    }
  if (g_stat (path, &st) == 0 && (st.st_mode & 0077) != 0)
    fprintf (stderr, SERVE_PREFIX "%s\n",
             _ ("warning: the --auth-file can be read by other users; make it private with "
                "chmod 600"));
  lines = g_strsplit (text, "\n", -1);
  explicit_bzero (text, len);
  for (gsize i = 0; lines[i] != NULL && ok; i++)
    {
      const char *line = g_strstrip (lines[i]);
      g_autofree char *where = NULL;

      if (*line == '\0' || *line == '#')
        continue;
      where = g_strdup_printf ("%s:%zu", path, i + 1);
      ok = take_auth_entry (keys, line, where);
    }
  wipe_strv (lines);
  return ok;
}

/* Adds the keys (KEYID:SECRET[:TOKEN], checked) to SERVER. */
static void
add_keys (DdbServer *server, GPtrArray *keys)
{
  for (guint i = 0; i < keys->len; i++)
    {
      g_autofree char *entry = g_strdup (g_ptr_array_index (keys, i));
      char *c1 = strchr (entry, ':');
      char *c2 = strchr (c1 + 1, ':');

      *c1 = '\0';
      if (c2 != NULL)
        *c2 = '\0';
      ddb_server_add_temporary_key (server, entry, c1 + 1, c2 != NULL ? c2 + 1 : NULL);
      explicit_bzero (c1 + 1, strlen (c1 + 1));
      if (c2 != NULL)
        explicit_bzero (c2 + 1, strlen (c2 + 1));
    }
}

int
cli_serve_run (const char *db_path, int argc, char **argv)
{
  char *host = NULL;
  int port = 8000;
  char **auth = NULL;
  char *auth_file = NULL;
  char *export_dir = NULL;
  gboolean export_s3 = FALSE;
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (wipe_free);
  const char *auth_env = g_getenv ("DYNOSCOPE_SERVE_AUTH");
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
      N_ ("Accept only requests signed (SigV4) with this key (and carrying this session token "
          "when one is given); may be repeated"),
      N_ ("KEYID:SECRET[:TOKEN]") },
    { "auth-file", 0, 0, G_OPTION_ARG_FILENAME, &auth_file,
      N_ ("Read keys as --auth takes them from this file, one a line (# starts a comment)"),
      N_ ("PATH") },
    { "export-dir", 0, 0, G_OPTION_ARG_FILENAME, &export_dir,
      N_ ("Write the exports ExportTableToPointInTime asks for into this folder: s3://BUCKET/KEY "
          "becomes DIR/BUCKET/KEY (a bucket is a folder that must exist)"),
      N_ ("DIR") },
    { "export-s3", 0, 0, G_OPTION_ARG_NONE, &export_s3,
      N_ ("Write the exports into S3 through “dynoscope-cli s3 put”, with the credentials and "
          "the S3 endpoint the AWS CLI would use (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, "
          "AWS_PROFILE, …). Without --export-dir, the default when AWS_ENDPOINT_URL_S3 or "
          "AWS_ENDPOINT_URL is set"),
      NULL },
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
         "keys given. Keys can also come from --auth-file or from the DYNOSCOPE_SERVE_AUTH "
         "environment variable (entries separated by commas or newlines), so that no secret "
         "stands on the command line."),
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
  if (export_dir != NULL && export_s3)
    {
      fprintf (stderr, SERVE_PREFIX "%s\n",
               _ ("--export-dir and --export-s3 cannot be used together"));
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
  for (gsize i = 0; auth != NULL && auth[i] != NULL; i++)
    if (!take_auth_entry (keys, auth[i], "--auth"))
      {
        status = 2;
        goto out;
      }
  if ((auth_file != NULL && !take_auth_file (keys, auth_file))
      || (auth_env != NULL && !take_auth_env (keys, auth_env)))
    {
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
  /* Where exports go: a folder, or S3 through dynoscope-cli (serve-s3.h). */
  if (export_dir != NULL)
    ddb_engine_set_export_dir (engine, export_dir);
  else if (cli_serve_s3_wanted (export_s3, export_dir)
           && !cli_serve_s3_set_target (engine, &error))
    {
      fprintf (stderr, SERVE_PREFIX "%s\n", error->message);
      status = 1;
      goto out;
    }
  server = ddb_server_new (engine);
  add_keys (server, keys);

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
  g_free (auth_file);
  g_free (export_dir);
  g_free (host);
  /* The server and the sweeper go before the engine they use. */
  ddb_ttl_sweeper_stop (sweeper);
  g_clear_pointer (&server, ddb_server_free);
  g_clear_pointer (&engine, ddb_engine_free);
  return status;
}

char *
cli_serve_find_program (const char *name)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = NULL;
  const char *candidates[3] = { NULL };
#ifdef CLI_BINDIR_RELATIVE
  g_autofree char *relative = NULL;
#endif
  gsize n = 0;

  if (self != NULL)
    {
      dir = g_path_get_dirname (self);
      candidates[n++] = dir;
#ifdef CLI_BINDIR_RELATIVE
      relative = g_build_filename (dir, CLI_BINDIR_RELATIVE, NULL);
      candidates[n++] = relative;
#endif
    }
  candidates[n++] = CLI_BINDIR_ABSOLUTE;
  for (gsize i = 0; i < n; i++)
    {
      char *path = g_build_filename (candidates[i], name, NULL);

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
  g_autofree char *lean = cli_serve_find_program ("dynoscope-serve");

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
