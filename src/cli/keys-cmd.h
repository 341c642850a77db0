/* keys-cmd.h: `dynoscope-cli CONNECTION keys`, the partition-key health of a table or index:
 * its distribution, sharded families, the partitions a rate would overload, and advice. */
#pragma once

#include "cli/target.h"

/* Exit status: 0 with the report on standard output; 1 when the table cannot be read (the
 * DynamoDB error printed); 2 on a usage error; 130 when interrupted. */
int cli_keys_main (const CliTarget *target, int argc, char **argv);
