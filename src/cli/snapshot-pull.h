/* snapshot-pull.h: `dynoscope-cli --db PATH snapshot pull --table T --from-endpoint URL
 * [--from-table T2] [--segments N] [--profile P] [--region R] [--ca-bundle FILE]`. */
#pragma once

#include <glib.h>

/* READ_ONLY (--read-only): refused, as it writes the database, before anything is read. */
int cli_snapshot_pull_main (const char *db_path, gboolean read_only, int argc, char **argv);
