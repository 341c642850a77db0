/* sql-cmd.h: `dynoscope-cli sql`, SQL over the tables and indexes of a database or an
 * endpoint (src/sql). */
#pragma once

#include "cli/target.h"

/* Exit status: 0 with the rows on standard output; 1 on a SQL error (SQLite's message) or a
 * DynamoDB error ("ErrorName: message"); 2 on a usage error; 130 when SIGINT cancelled it. */
int cli_sql_main (const CliTarget *target, int argc, char **argv);
