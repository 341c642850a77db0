/* compare-cmd.h: `dynoscope-cli CONNECTION compare`, the two-way compare of a table with a
 * table of another database or endpoint (src/compare/compare.h). */
#pragma once

#include "cli/target.h"

/* Exit status: 0 when both tables hold the same items; 1 when they differ; 2 on a usage error;
 * 3 when a side cannot be read (the DynamoDB or IO error printed); 130 when interrupted. */
int cli_compare_main (const CliTarget *target, int argc, char **argv);
