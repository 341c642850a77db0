/* call.h: `dynoscope-cli call`, one DynamoDB API operation against the database file or a
 * remote endpoint. */
#pragma once

#include "cli/target.h"

/* Returns the process exit status: 0 success, 1 DynamoDB error (or unusable request, database
 * or endpoint), 2 usage or configuration error. The target is opened only after the arguments
 * are checked. */
int cli_call_main (const CliTarget *target, int argc, char **argv);
