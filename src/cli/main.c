/* main.c: dynoscope-cli, the scriptable face of Dynoscope's core. */
#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "cli/eval.h"

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n\n%s\n  %s\n\n%s\n  %s\n", _ ("Usage: dynoscope-cli COMMAND [OPTION…]"),
           _ ("Commands:"),
           _ ("eval      Evaluate DynamoDB expressions over items in DynamoDB JSON lines"),
           _ ("Run 'dynoscope-cli COMMAND --help' for a command's options, for example:"),
           "dynoscope-cli eval --help");
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2)
    {
      print_usage (stderr);
      return 2;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0
      || strcmp (argv[1], "help") == 0)
    {
      print_usage (stdout);
      return 0;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
#ifdef DYNOSCOPE_DEVELOPMENT
      printf ("dynoscope-cli %s (development build)\n", PACKAGE_VERSION);
#else
      printf ("dynoscope-cli %s\n", PACKAGE_VERSION);
#endif
      return 0;
    }
  if (strcmp (argv[1], "eval") == 0)
    return cli_eval_main (argc - 1, argv + 1);

  fprintf (stderr, _ ("dynoscope-cli: unknown command “%s”\n"), argv[1]);
  print_usage (stderr);
  return 2;
}
