/* main.c: dynoscope-cli, the scriptable face of Dynoscope: global options, then one command. */
#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "cli/call.h"
#include "cli/eval.h"
#include "cli/export.h"
#include "cli/import.h"

typedef struct {
  const char *name;
  const char *usage;       /* synopsis after "dynoscope-cli " */
  const char *description; /* N_() marked */
  int (*run_db) (const char *db_path, int argc, char **argv); /* commands on a database */
  int (*run) (int argc, char **argv);                        /* commands without one */
} CliCommand;

static const CliCommand commands[] = {
  { "call", "--db PATH call OPERATION [REQUEST_JSON | -]",
    N_ ("Send one DynamoDB API request to the database and print the response"), cli_call_main,
    NULL },
  { "import", "--db PATH import --table NAME [OPTION…] SOURCE",
    N_ ("Create a table from a snapshot (S3 export, DynamoDB JSON lines, JSON, CSV)"),
    cli_import_main, NULL },
  { "export", "--db PATH export --table NAME [OPTION…] DEST",
    N_ ("Write a table to a snapshot (DynamoDB JSON lines, JSON, CSV, S3 export layout)"),
    cli_export_main, NULL },
  { "eval", "eval [OPTION…] [FILE…]",
    N_ ("Evaluate DynamoDB expressions over items in DynamoDB JSON lines"), NULL,
    cli_eval_main },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n\n", _ ("Usage: dynoscope-cli [--db PATH] COMMAND [OPTION…]"));
  fprintf (out, "%s\n", _ ("Global options:"));
  fprintf (out, "  %-20s %s\n", "--db PATH",
           _ ("The database file (created if missing); needed by the commands on a database"));
  fprintf (out, "  %-20s %s\n", "-h, --help", _ ("Show this help"));
  fprintf (out, "  %-20s %s\n\n", "--version", _ ("Show the version"));
  fprintf (out, "%s\n", _ ("Commands:"));
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-8s %s\n           dynoscope-cli %s\n", commands[i].name,
             _ (commands[i].description), commands[i].usage);
  fprintf (out, "\n%s\n  %s\n", _ ("Run 'dynoscope-cli COMMAND --help' for a command's options, "
                                   "for example:"),
           "dynoscope-cli call --help");
}

static gboolean
asks_for_help (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--") == 0)
        break;
      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0
          || strcmp (argv[i], "-?") == 0 || g_str_has_prefix (argv[i], "--help-"))
        return TRUE;
    }
  return FALSE;
}

int
main (int argc, char **argv)
{
  const char *db_path = NULL;
  int i = 1;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* Global options come before the command, so that a command's own options never clash. */
  for (; i < argc && argv[i][0] == '-'; i++)
    {
      const char *arg = argv[i];

      if (strcmp (arg, "--help") == 0 || strcmp (arg, "-h") == 0)
        {
          print_usage (stdout);
          return 0;
        }
      else if (strcmp (arg, "--version") == 0)
        {
#ifdef DYNOSCOPE_DEVELOPMENT
          printf ("dynoscope-cli %s (development build)\n", PACKAGE_VERSION);
#else
          printf ("dynoscope-cli %s\n", PACKAGE_VERSION);
#endif
          return 0;
        }
      else if (strcmp (arg, "--db") == 0)
        {
          if (i + 1 >= argc)
            {
              fprintf (stderr, "dynoscope-cli: %s\n", _ ("--db needs a PATH"));
              return 2;
            }
          db_path = argv[++i];
        }
      else if (g_str_has_prefix (arg, "--db="))
        db_path = arg + strlen ("--db=");
      else
        {
          fprintf (stderr, _ ("dynoscope-cli: unknown option “%s”\n"), arg);
          print_usage (stderr);
          return 2;
        }
      if (*db_path == '\0')
        {
          fprintf (stderr, "dynoscope-cli: %s\n", _ ("--db needs a PATH"));
          return 2;
        }
    }

  if (i >= argc)
    {
      print_usage (stderr);
      return 2;
    }
  if (strcmp (argv[i], "help") == 0)
    {
      print_usage (stdout);
      return 0;
    }

  for (gsize c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      const CliCommand *cmd = &commands[c];

      if (strcmp (argv[i], cmd->name) != 0)
        continue;
      if (cmd->run != NULL)
        return cmd->run (argc - i, argv + i);
      if (db_path == NULL && !asks_for_help (argc - i, argv + i))
        {
          fprintf (stderr, _ ("dynoscope-cli %s: no database: give one with --db PATH before the "
                              "command\n"),
                   cmd->name);
          fprintf (stderr, "%s: dynoscope-cli %s\n", _ ("Usage"), cmd->usage);
          return 2;
        }
      return cmd->run_db (db_path, argc - i, argv + i);
    }

  fprintf (stderr, _ ("dynoscope-cli: unknown command “%s”\n"), argv[i]);
  print_usage (stderr);
  return 2;
}
