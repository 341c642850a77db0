/* snapshot-cmd.h: what `dynoscope-cli import` and `export` share: the checks of their positional
 * arguments, the progress line, Ctrl-C as a clean cancellation, and how errors are printed. */
#pragma once

#include <gio/gio.h>

#include "engine/snapshot.h"

G_BEGIN_DECLS

/* Exit status of a command cancelled with Ctrl-C, as a shell reports a SIGINT death. */
#define CLI_EXIT_CANCELLED 130

/* Checks the one positional argument (`rest`, named `what` in messages: "SOURCE", "DEST"). NULL
 * if all is well, else the message of the usage error (free it). */
char *cli_snapshot_check_args (char **rest, const char *what);

/* Rewrites the progress line on standard error ("VERB: 1200 items, 3.1 MB …"); a final one
 * (p->done) ends it. */
void cli_snapshot_progress_line (const DdbSnapshotProgress *p, const char *verb);

typedef struct {
  GCancellable *cancellable;
  const char *verb;  /* shown on the progress line: "Importing" */
  gboolean terminal; /* standard error is a terminal: show the progress line */
  GThread *watch;    /* turns Ctrl-C into a cancellation */
} CliSnapshotRun;

/* Prepares `run` and catches SIGINT until cli_snapshot_run_end(): the first Ctrl-C cancels the
 * running import or export (which then leaves nothing behind), a second one kills at once.
 * Sets the progress function and data that `progress`/`progress_data` of the options want. */
void cli_snapshot_run_begin (CliSnapshotRun *run, const char *verb,
                             DdbSnapshotProgressFunc *progress, gpointer *progress_data);
void cli_snapshot_run_end (CliSnapshotRun *run);

/* Prints `error` as the snapshot commands do: "ErrorName: message" for a DynamoDB error,
 * "dynoscope-cli COMMAND: message" otherwise, and returns the exit status (1, or
 * CLI_EXIT_CANCELLED for a cancellation). */
int cli_snapshot_fail (const char *command, const GError *error);

G_END_DECLS
