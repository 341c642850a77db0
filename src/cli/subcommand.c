/* subcommand.c: the dispatch of a command's subcommands (see subcommand.h). */
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "cli/subcommand.h"

gboolean
cli_subcommand_is_help (const char *arg)
{
  return strcmp (arg, "--help") == 0 || strcmp (arg, "-h") == 0;
}

static void
usage (const CliSubcommand *commands, gsize n, FILE *out)
{
  fprintf (out, "%s\n", _ ("Usage:"));
  for (gsize i = 0; i < n; i++)
    fprintf (out, "  dynoscope-cli %s\n", commands[i].usage);
}

int
cli_subcommand_run (const char *group, const CliSubcommand *commands, gsize n,
                    const CliTarget *target, int argc, char **argv)
{
  if (argc < 2 || cli_subcommand_is_help (argv[1]))
    {
      usage (commands, n, argc < 2 ? stderr : stdout);
      return argc < 2 ? 2 : 0;
    }
  for (gsize i = 0; i < n; i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (target, argc - 1, argv + 1);
  /* TRANSLATORS: "dynoscope-cli model: unknown subcommand “chek”" */
  fprintf (stderr, _ ("dynoscope-cli %s: unknown subcommand “%s”\n"), group, argv[1]);
  usage (commands, n, stderr);
  return 2;
}
