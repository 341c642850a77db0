/* export.h: `dynoscope-cli export`, a table or a query result to a snapshot. */
#pragma once

/* `db_path` may be NULL only when the arguments ask for --help. Returns the process exit status:
 * 0 success, 1 DynamoDB error (or unwritable destination, unusable database), 2 usage error. */
int cli_export_main (const char *db_path, int argc, char **argv);
