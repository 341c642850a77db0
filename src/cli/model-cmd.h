/* model-cmd.h: `dynoscope-cli model`, key designs (NoSQL Workbench models): checked against
 * their access patterns (check), created on a connection (apply), proposed from a table (infer). */
#pragma once

#include "cli/target.h"

/* `model SUBCOMMAND …`: dispatches to the subcommands below. Exit 2 on an unknown one. */
int cli_model_main (const CliTarget *target, int argc, char **argv);

/* `model check MODEL.json`: each access pattern's resolution and each flag on standard output.
 * Exit status: 0 when nothing is flagged; 1 when a pattern or a key is; 2 on a usage error or a
 * model that cannot be read. ARGV[0] is "check". No connection is used. */
int cli_model_check_main (const CliTarget *target, int argc, char **argv);

/* `CONNECTION model apply MODEL.json [--items N] [--dry-run] [--existing]`: creates the model's
 * tables on the connection and writes their sample items (or N generated ones per entity);
 * prints each table created and its item count. --dry-run prints the CreateTable requests and
 * opens no connection. Exit status: 0 success; 1 a DynamoDB error ("ErrorName: message" on
 * standard error); 2 a usage error or a model that cannot be read or applied; 130 cancelled. */
int cli_model_apply_main (const CliTarget *target, int argc, char **argv);
/* `CONNECTION model infer --table T [--sample N]`: the model proposed for the table (see
 * src/model/infer.h) as NoSQL Workbench JSON on standard output. Exit status: 0; 1 when the
 * table cannot be read (DynamoDB's error name and message on standard error); 2 on a usage or
 * configuration error. ARGV[0] is "infer". */
int cli_model_infer_main (const CliTarget *target, int argc, char **argv);
/* `model estimate MODEL.json [--rate PATTERN=N] [--write-rate ENTITY=N] [--price NAME=VALUE]
 * [--json]`: item sizes, item collections and the capacity and monthly cost of each access
 * pattern and entity (model/estimate.h), with the prices used and their sources. Exit 0, or 2
 * on a usage error, a bad rate or price, or a model that cannot be read. ARGV[0] is "estimate". */
int cli_model_estimate_main (const CliTarget *target, int argc, char **argv);
