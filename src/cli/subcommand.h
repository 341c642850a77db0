/* subcommand.h: commands made of subcommands (`model check`, `exports start`, `s3 put`): the
 * table of them, their usage lines, and the one dispatch they share. */
#pragma once

#include "cli/target.h"

G_BEGIN_DECLS

typedef struct {
  const char *name;
  const char *usage; /* after "dynoscope-cli " */
  int (*run) (const CliTarget *target, int argc, char **argv);
} CliSubcommand;

/* Runs the subcommand ARGV[1] of GROUP ("model", "exports", "s3") from COMMANDS (N of them) with
 * ARGV shifted by one; with no subcommand, the usage lines on standard error (exit 2); with
 * --help or -h, on standard output (exit 0); an unknown one is named with the usage lines
 * (exit 2). */
int cli_subcommand_run (const char *group, const CliSubcommand *commands, gsize n,
                        const CliTarget *target, int argc, char **argv);
/* Whether ARG asks for help (--help, -h). */
gboolean cli_subcommand_is_help (const char *arg);

G_END_DECLS
