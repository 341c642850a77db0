/* call.h: `dynoscope-cli call`, one DynamoDB API operation against the database file. */
#pragma once

/* `db_path` may be NULL only when the arguments ask for --help. Returns the process exit status:
 * 0 success, 1 DynamoDB error (or unusable request or database), 2 usage error. */
int cli_call_main (const char *db_path, int argc, char **argv);
