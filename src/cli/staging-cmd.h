/* staging-cmd.h: `dynoscope-cli fanout`, `staged`, `commit` and `discard`: the staging area
 * (src/staging/) from the command line, for scripted data fixes. */
#pragma once

#include "cli/target.h"

G_BEGIN_DECLS

int cli_fanout_main (const CliTarget *target, int argc, char **argv);
int cli_staged_main (const CliTarget *target, int argc, char **argv);
int cli_commit_main (const CliTarget *target, int argc, char **argv);
int cli_discard_main (const CliTarget *target, int argc, char **argv);

/* The connection id under which the staging store keeps TARGET's changes: the absolute path
 * of its database, or BACKEND's description (the endpoint). Newly allocated. */
char *cli_staging_connection (const CliTarget *target, DdbBackend *backend);

/* The four entries of main.c's command table (name, usage, N_() description, run_target,
 * run_db, run), kept here so that the table gains one line. */
/* clang-format off */
#define CLI_STAGING_COMMANDS                                                                     \
  { "fanout",                                                                                    \
    "CONNECTION fanout --table T (--index NAME --key VALUE | --scan) --set ATTR --from OLD "     \
    "--to NEW",                                                                                  \
    N_ ("Find every copy of a duplicated value and stage an update of each, guarded by the "     \
        "old value"),                                                                            \
    cli_fanout_main, NULL, NULL },                                                               \
  { "staged", "CONNECTION staged [--table T] [--json]",                                          \
    N_ ("List the staged changes, path by path, old -> new"), cli_staged_main, NULL, NULL },     \
  { "commit", "CONNECTION commit [--table T] [--single]",                                        \
    N_ ("Send the staged changes, each under its optimistic lock; conflicts stay staged"),       \
    cli_commit_main, NULL, NULL },                                                               \
  { "discard", "CONNECTION discard [--table T]", N_ ("Remove staged changes"),                   \
    cli_discard_main, NULL, NULL }
/* clang-format on */

G_END_DECLS
