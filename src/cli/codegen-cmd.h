/* codegen-cmd.h: `dynoscope-cli codegen`, a DynamoDB request written as a program for the AWS
 * CLI, Python, JavaScript, Java, Go or Rust. */
#pragma once

#include "cli/target.h"

/* Exit status: 0 with the program on standard output; 1 when DynamoDB would refuse the request
 * (printed as "ErrorName: message"); 2 on a usage error. TARGET's endpoint, profile and region
 * (the global options) are what the program targets unless the command's own options say
 * otherwise; nothing is opened or sent. */
int cli_codegen_main (const CliTarget *target, int argc, char **argv);
