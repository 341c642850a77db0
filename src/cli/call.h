/* call.h: `dynoscope-cli call`, one DynamoDB API operation against the database file or a
 * remote endpoint. */
#pragma once

#include <jansson.h>

#include "cli/target.h"

/* Returns the process exit status: 0 success, 1 DynamoDB error (or unusable request, database
 * or endpoint), 2 usage or configuration error. The target is opened only after the arguments
 * are checked. */
int cli_call_main (const CliTarget *target, int argc, char **argv);

/* The request of a command taking [REQUEST_JSON | -]: SOURCE itself, or standard input when
 * SOURCE is "-" or NULL (NULL with a terminal on standard input: {}); blank text is {}. Not a
 * JSON object: a DDB_ERROR_SERIALIZATION, as DynamoDB answers it; a read error: G_FILE_ERROR. */
json_t *cli_read_request (const char *source, GError **error);
