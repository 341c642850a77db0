/* serve.h: `dynoscope-cli serve`, the database as a local DynamoDB endpoint over HTTP. */
#pragma once

/* `db_path` may be NULL only when the arguments ask for --help. Returns the process exit status:
 * 0 after a clean shutdown (SIGINT or SIGTERM), 1 when the database cannot be opened or the address
 * cannot be listened on, 2 on a usage error. */
int cli_serve_main (const char *db_path, int argc, char **argv);

/* What cli_serve_main() does once it knows it runs in the process that will serve: dynoscope-cli
 * execs the lean dynoscope-serve next to it (which calls this) and only serves in its own process
 * when that executable is missing. argv[0] is the command name. */
int cli_serve_run (const char *db_path, int argc, char **argv);

/* NAME ("dynoscope-serve", "dynoscope-cli") beside this executable (the build tree keeps them
 * side by side), else in the installed bindir (relative to this executable first, so that a
 * moved installation still works), or NULL. A new string. */
char *cli_serve_find_program (const char *name);
