/* staging-session.c: what the staging area's commands share (staging-cmd.c, stage-file-cmd.c):
 * Ctrl-C as a cancellation, the staging store and connection id of a command, errors and usage
 * errors worded alike, option parsing.
 *
 * Ctrl-C: the signal handler only writes a byte to a pipe (g_cancellable_cancel() is not
 * async-signal-safe) and a thread cancels. */
#include <errno.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/staging-cmd.h"
#include "cli/staging-session.h"
#include "core/error.h"
/* ------------------------------------------------------------------------------------------ */
/* Ctrl-C as a cancellation */

static int interrupt_fd = -1;

static void
on_sigint (int sig)
{
  int saved = errno;
  char c = 1;
  ssize_t n = write (interrupt_fd, &c, 1);

  (void) n;
  errno = saved;
}

static gpointer
interrupt_watch (gpointer data)
{
  CliStagingInterrupt *in = data;

  for (;;)
    {
      char c = 0;
      ssize_t n = read (in->pipe[0], &c, 1);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0 || c == 0)
        return NULL;
      g_cancellable_cancel (in->cancellable);
    }
}

void
cli_staging_interrupt_begin (CliStagingInterrupt *in)
{
  struct sigaction sa;

  in->cancellable = g_cancellable_new ();
  in->watch = NULL;
  if (!g_unix_open_pipe (in->pipe, FD_CLOEXEC, NULL))
    return; /* no clean cancellation: Ctrl-C still stops the command */
  interrupt_fd = in->pipe[1];
  in->watch = g_thread_new ("dynoscope-sigint", interrupt_watch, in);
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  /* One-shot: a second Ctrl-C kills at once, which the journal also survives. */
  sa.sa_flags = SA_RESETHAND;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
}

void
cli_staging_interrupt_end (CliStagingInterrupt *in)
{
  signal (SIGINT, SIG_DFL);
  if (in->watch != NULL)
    {
      char c = 0;
      ssize_t n = write (in->pipe[1], &c, 1);

      (void) n;
      g_thread_join (in->watch);
      in->watch = NULL;
      interrupt_fd = -1;
      close (in->pipe[0]);
      close (in->pipe[1]);
    }
  g_clear_object (&in->cancellable);
}

/* ------------------------------------------------------------------------------------------ */
/* What every command shares */

void
cli_staging_session_clear (CliStagingSession *s)
{
  g_clear_pointer (&s->backend, ddb_backend_free);
  g_clear_pointer (&s->staging, ddb_staging_free);
  g_clear_pointer (&s->connection, g_free);
}

int
cli_staging_fail (const char *command, const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      fprintf (stderr, "dynoscope-cli %s: %s\n", command, _ ("cancelled"));
      return CLI_STAGING_EXIT_CANCELLED;
    }
  if (error->domain == DDB_ERROR)
    fprintf (stderr, "%s: %s\n", ddb_backend_error_name (error, NULL), error->message);
  else
    fprintf (stderr, "dynoscope-cli %s: %s\n", command, error->message);
  return 1;
}

int
cli_staging_usage_error (const char *command, const char *message)
{
  fprintf (stderr, "dynoscope-cli %s: %s\n", command, message);
  fprintf (stderr, _ ("Run 'dynoscope-cli %s --help' for its options.\n"), command);
  return CLI_STAGING_EXIT_USAGE;
}

/* Opens the staging store and finds the connection id; opens the backend too with
 * NEED_BACKEND (listing and discarding need no database: none is created for them).
 * Returns 0, or the exit status. */
int
cli_staging_session_open (CliStagingSession *s, const char *command, const CliTarget *target,
                          const char *staging_path, gboolean need_backend)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *default_path = NULL;

  memset (s, 0, sizeof *s);
  if (!cli_target_is_remote (target))
    {
      s->connection = cli_staging_connection (target, NULL);
      if (need_backend)
        {
          CliTarget absolute = *target;
          gboolean config_error = FALSE;

          absolute.db_path = s->connection;
          s->backend = cli_target_open (&absolute, &config_error, &error);
          if (s->backend == NULL)
            return cli_staging_fail (command, error);
        }
    }
  else
    {
      gboolean config_error = FALSE;

      /* No request is sent here: the endpoint is known once the profile is read. */
      s->backend = cli_target_open (target, &config_error, &error);
      if (s->backend == NULL)
        {
          fprintf (stderr, "dynoscope-cli %s: %s\n", command, error->message);
          return config_error ? CLI_STAGING_EXIT_USAGE : 1;
        }
      s->connection = cli_staging_connection (target, s->backend);
    }
  if (staging_path == NULL)
    staging_path = default_path = ddb_staging_default_path ();
  s->staging = ddb_staging_open (staging_path, &error);
  if (s->staging == NULL)
    {
      fprintf (stderr, "dynoscope-cli %s: %s: %s\n", command, staging_path, error->message);
      return 1;
    }
  return 0;
}

GOptionContext *
cli_staging_option_context (const char *parameters, const char *summary, GOptionEntry *entries)
{
  GOptionContext *octx = g_option_context_new (parameters);

  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (octx, summary);
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  return octx;
}

gboolean
cli_staging_parse_options (GOptionContext *octx, const char *command, int *argc, char ***argv,
                           int *status)
{
  g_autoptr (GError) error = NULL;

  if (!g_option_context_parse (octx, argc, argv, &error))
    {
      *status = cli_staging_usage_error (command, error->message);
      return FALSE;
    }
  if (*argc > 1)
    {
      g_autofree char *message = g_strdup_printf (_ ("unexpected argument “%s”"), (*argv)[1]);

      *status = cli_staging_usage_error (command, message);
      return FALSE;
    }
  return TRUE;
}
