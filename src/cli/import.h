/* import.h: `dynoscope-cli import`, a table from a snapshot. */
#pragma once

/* `db_path` may be NULL only when the arguments ask for --help. Returns the process exit status:
 * 0 success, 1 DynamoDB error (or unreadable source, unusable database), 2 usage error. */
int cli_import_main (const char *db_path, int argc, char **argv);
