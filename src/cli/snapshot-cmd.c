/* snapshot-cmd.c: what `dynoscope-cli import` and `export` share: argument checks, the progress
 * line on standard error, Ctrl-C turned into a GCancellable cancellation, error printing.
 *
 * The signal handler only writes a byte to a pipe (g_cancellable_cancel() is not
 * async-signal-safe); a thread waiting on the pipe cancels. So a Ctrl-C is noticed at once,
 * even while the work waits on the network (a request in flight, a backoff, a table becoming
 * ACTIVE), not only when the next item comes. */
#include <errno.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/snapshot-cmd.h"
#include "core/error.h"

static int signal_pipe[2] = { -1, -1 };

static void
on_sigint (int sig)
{
  int saved = errno;
  char c = 1;
  ssize_t n = write (signal_pipe[1], &c, 1);

  (void) n;
  errno = saved;
}

static gpointer
signal_watch (gpointer data)
{
  CliSnapshotRun *run = data;

  for (;;)
    {
      char c = 0;
      ssize_t n = read (signal_pipe[0], &c, 1);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0 || c == 0)
        return NULL;
      g_cancellable_cancel (run->cancellable);
    }
}

char *
cli_snapshot_check_args (char **rest, const char *what)
{
  if (rest == NULL || rest[0] == NULL)
    return g_strdup_printf (_ ("missing %s"), what);
  if (rest[1] != NULL)
    return g_strdup (_ ("too many arguments"));
  return NULL;
}

void
cli_snapshot_progress_line (const DdbSnapshotProgress *p, const char *verb)
{
  g_autofree char *bytes = g_format_size (p->bytes);
  g_autofree char *rate = g_format_size ((guint64) p->bytes_per_second);
  g_autofree char *items = g_strdup_printf ("%" G_GUINT64_FORMAT, p->items);
  GString *line = g_string_new (NULL);

  /* TRANSLATORS: "Importing: 1200 items, 3.1 MB (40%), 52000 items/s, 8.2 MB/s" */
  if (p->total_bytes > 0)
    g_string_append_printf (line,
                            ngettext ("%s: %s item, %s (%.0f%%), %.0f items/s, %s/s",
                                      "%s: %s items, %s (%.0f%%), %.0f items/s, %s/s",
                                      (gulong) p->items),
                            verb, items, bytes,
                            100.0 * (double) p->bytes / (double) p->total_bytes,
                            p->items_per_second, rate);
  else
    g_string_append_printf (line,
                            ngettext ("%s: %s item, %s, %.0f items/s, %s/s",
                                      "%s: %s items, %s, %.0f items/s, %s/s", (gulong) p->items),
                            verb, items, bytes, p->items_per_second, rate);
  /* TRANSLATORS: appended to the line above: ", 3/10 files" (data files read, in all) */
  if (p->total_files > 0)
    g_string_append_printf (line, ngettext (", %u/%u file", ", %u/%u files", p->total_files),
                            p->files, p->total_files);
  /* \r and clear to the end of the line: the line is rewritten in place. */
  fprintf (stderr, "\r%s\033[K%s", line->str, p->done ? "\n" : "");
  fflush (stderr);
  g_string_free (line, TRUE);
}

static void
on_progress (const DdbSnapshotProgress *p, gpointer user_data)
{
  CliSnapshotRun *run = user_data;

  if (run->terminal)
    cli_snapshot_progress_line (p, run->verb);
}

void
cli_snapshot_run_begin (CliSnapshotRun *run, const char *verb, DdbSnapshotProgressFunc *progress,
                        gpointer *progress_data)
{
  struct sigaction sa;

  memset (run, 0, sizeof *run);
  run->cancellable = g_cancellable_new ();
  run->verb = verb;
  run->terminal = isatty (STDERR_FILENO);
  *progress = on_progress;
  *progress_data = run;

  if (!g_unix_open_pipe (signal_pipe, FD_CLOEXEC, NULL))
    return; /* no Ctrl-C handling: the default action still stops the command */
  run->watch = g_thread_new ("dynoscope-sigint", signal_watch, run);
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  /* One-shot: a second Ctrl-C gets the default action. Killed mid-import, the database is
   * still whole: the transaction was never committed (an endpoint keeps what was written). */
  sa.sa_flags = SA_RESETHAND;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
}

void
cli_snapshot_run_end (CliSnapshotRun *run)
{
  signal (SIGINT, SIG_DFL);
  if (run->watch != NULL)
    {
      char c = 0;
      ssize_t n = write (signal_pipe[1], &c, 1);

      (void) n;
      g_thread_join (run->watch);
      run->watch = NULL;
      close (signal_pipe[0]);
      close (signal_pipe[1]);
      signal_pipe[0] = signal_pipe[1] = -1;
    }
  g_clear_object (&run->cancellable);
}

int
cli_snapshot_fail (const char *command, const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      fprintf (stderr, "dynoscope-cli %s: %s\n", command, _ ("cancelled"));
      return CLI_EXIT_CANCELLED;
    }
  if (error->domain == DDB_ERROR)
    fprintf (stderr, "%s: %s\n", ddb_error_type_name ((DdbErrorCode) error->code), error->message);
  else
    fprintf (stderr, "dynoscope-cli %s: %s\n", command, error->message);
  return 1;
}
