/* import.h: `dynoscope-cli import`, a table from a snapshot, into a database or an endpoint. */
#pragma once

#include "cli/target.h"

/* Returns the process exit status: 0 success, 1 DynamoDB error (or unreadable source, unusable
 * database, unreachable endpoint), 2 usage or configuration error, 130 cancelled. */
int cli_import_main (const CliTarget *target, int argc, char **argv);
