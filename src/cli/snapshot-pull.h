/* snapshot-pull.h: `dynoscope-cli --db PATH snapshot pull --table T --from-endpoint URL
 * [--from-table T2] [--segments N] [--profile P] [--region R] [--ca-bundle FILE]`. */
#pragma once

int cli_snapshot_pull_main (const char *db_path, int argc, char **argv);
