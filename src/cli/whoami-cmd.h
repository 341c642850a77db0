/* whoami-cmd.h: `dynoscope-cli [--profile P] [--region R] whoami [--json]`: who the profile's
 * credentials are (STS GetCallerIdentity), where they came from and when they expire. */
#pragma once

#include "cli/target.h"

/* Returns the process exit status: 0 success, 1 when the credentials or STS fail, 2 on a usage
 * or configuration error. Never prints a secret. */
int cli_whoami_main (const CliTarget *target, int argc, char **argv);
