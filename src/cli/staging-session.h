/* staging-session.h: what the staging area's commands share (staging-cmd.c, stage-file-cmd.c):
 * Ctrl-C as a cancellation, the staging store and connection id of a command, errors and usage
 * errors worded alike (exit status 1, 2 for usage, 130 when cancelled), option parsing. */
#pragma once

#include <gio/gio.h>

#include "cli/target.h"
#include "staging/changeset.h"

G_BEGIN_DECLS

#define CLI_STAGING_EXIT_USAGE 2
#define CLI_STAGING_EXIT_CANCELLED 130 /* as a shell reports a SIGINT death */

#define CLI_STAGING_CONNECTION_HELP \
  N_ ("CONNECTION is --db PATH or --endpoint URL [--profile P] [--region R], given before the " \
      "command. Changes are staged per connection: the absolute path of the database, or the " \
      "endpoint URL (two profiles on one endpoint share their staged changes). They are kept " \
      "in the staging store --staging PATH, by default dynoscope/staging.db in the user's data " \
      "directory ($XDG_DATA_HOME), which the app shares.")

/* Ctrl-C cancels CANCELLABLE between cli_staging_interrupt_begin and _end. */
typedef struct {
  GCancellable *cancellable;
  GThread *watch;
  int pipe[2];
} CliStagingInterrupt;

void cli_staging_interrupt_begin (CliStagingInterrupt *in);
void cli_staging_interrupt_end (CliStagingInterrupt *in);

typedef struct {
  DdbBackend *backend; /* NULL when the command did not need one */
  DdbStaging *staging;
  char *connection;
} CliStagingSession;

/* Opens the staging store (STAGING_PATH, else ddb_staging_default_path()) and finds the
 * connection id; opens the backend too with NEED_BACKEND. Returns 0, or the exit status (the
 * message printed). */
int cli_staging_session_open (CliStagingSession *s, const char *command, const CliTarget *target,
                              const char *staging_path, gboolean need_backend);
void cli_staging_session_clear (CliStagingSession *s);

/* Prints ERROR for COMMAND; returns the exit status (1, or 130 when cancelled). */
int cli_staging_fail (const char *command, const GError *error);
/* Prints MESSAGE and where to find the options; returns CLI_STAGING_EXIT_USAGE. */
int cli_staging_usage_error (const char *command, const char *message);

/* An option context with the translation domain, SUMMARY and ENTRIES. */
GOptionContext *cli_staging_option_context (const char *parameters, const char *summary,
                                            GOptionEntry *entries);
/* Parses the options; FALSE with *STATUS on a usage error (an unknown option, an argument
 * left over). */
gboolean cli_staging_parse_options (GOptionContext *octx, const char *command, int *argc,
                                    char ***argv, int *status);

G_END_DECLS
