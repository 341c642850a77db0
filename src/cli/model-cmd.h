/* model-cmd.h: `dynoscope-cli model`, key designs (NoSQL Workbench models) checked against their
 * access patterns. */
#pragma once

/* `model check MODEL.json`: each access pattern's resolution and each flag on standard output.
 * Exit status: 0 when nothing is flagged; 1 when a pattern or a key is; 2 on a usage error or a
 * model that cannot be read. */
int cli_model_main (int argc, char **argv);
