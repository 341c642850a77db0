/* base-cmd.h: `dynoscope-cli --db PATH snapshot base --table T [PATH]`. */
#pragma once

int cli_snapshot_base_main (const char *db_path, int argc, char **argv);
