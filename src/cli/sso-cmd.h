/* sso-cmd.h: `dynoscope-cli [--profile P] sso login [--no-browser] [--sso-session NAME]`:
 * signs in to IAM Identity Center with the device authorization flow, as `aws sso login
 * --use-device-code` does, and leaves the token in the cache the AWS CLI shares. */
#pragma once

#include "cli/target.h"

/* Exit status: 0 signed in; 2 on a usage or configuration error; 3 when the sign-in failed
 * (refused, expired, the service unreachable); 130 when interrupted. */
int cli_sso_main (const CliTarget *target, int argc, char **argv);
