/* base-cmd.h: `dynoscope-cli --db PATH snapshot base --table T [PATH]`. */
#pragma once

#include <glib.h>

/* READ_ONLY (--read-only): recording a base is refused, printing it still works. */
int cli_snapshot_base_main (const char *db_path, gboolean read_only, int argc, char **argv);
