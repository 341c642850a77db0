/* import.h: `dynoscope-cli import` (a table from a snapshot) and the progress line that the
 * snapshot commands share. */
#pragma once

#include "engine/snapshot.h"

/* `db_path` may be NULL only when the arguments ask for --help. Returns the process exit status:
 * 0 success, 1 DynamoDB error (or unreadable source, unusable database), 2 usage error. */
int cli_import_main (const char *db_path, int argc, char **argv);

/* A DdbSnapshotProgressFunc that keeps one updating line on standard error (user_data: the verb
 * shown, e.g. "Importing"). Use it only when standard error is a terminal. */
void cli_snapshot_progress_line (const DdbSnapshotProgress *progress, gpointer user_data);

/* Prints `error` as the snapshot commands do: "ErrorName: message" for a DynamoDB error,
 * "dynoscope-cli COMMAND: message" otherwise. */
void cli_snapshot_print_error (const char *command, const GError *error);
