/* export.h: `dynoscope-cli export`, a table or a query result to a snapshot, from a database or
 * an endpoint. */
#pragma once

#include "cli/target.h"

/* Returns the process exit status: 0 success, 1 DynamoDB error (or unwritable destination,
 * unusable database, unreachable endpoint), 2 usage or configuration error, 130 cancelled. */
int cli_export_main (const CliTarget *target, int argc, char **argv);
