/* dynoscope-serve.c: the lean executable behind `dynoscope-cli --db PATH serve`, linked with only
 * what answering needs (engine, HTTP server, SigV4 verification) so that it starts in a few
 * milliseconds and stays small: dynoscope-cli execs it.
 *
 *   dynoscope-serve --db PATH [serve] [--host HOST] [--port PORT] [--auth KEYID:SECRET …]
 */
#include <glib/gi18n.h>
#include <locale.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "cli/serve.h"
#include "core/i18n.h"
#include "core/malloc-init.h"

int
main (int argc, char **argv)
{
  const char *db_path = NULL;
  int first = 1;

  ddb_malloc_init ();
  /* SQLite's memory statistics (which nothing here reads) take one global lock on every
   * allocation, which the connection threads would contend for. Before SQLite starts. */
  sqlite3_config (SQLITE_CONFIG_MEMSTATUS, 0);
  ddb_i18n_init ();

  if (argc > 2 && strcmp (argv[1], "--db") == 0)
    {
      db_path = argv[2];
      first = 3;
    }
  else if (argc > 1 && g_str_has_prefix (argv[1], "--db="))
    {
      db_path = argv[1] + strlen ("--db=");
      first = 2;
    }
  if (db_path != NULL && *db_path == '\0')
    {
      fprintf (stderr, "dynoscope-cli: %s\n", _ ("--db needs a PATH"));
      return 2;
    }
  /* dynoscope-cli's own form (`--db PATH serve OPTIONS`) is taken too. */
  if (first < argc && strcmp (argv[first], "serve") == 0)
    first++;
  /* The serve options follow, as after "serve" in dynoscope-cli's form. */
  argv[first - 1] = (char *) "serve";
  return cli_serve_run (db_path, argc - first + 1, argv + first - 1);
}
