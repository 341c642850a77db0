/* stage-file-cmd.h: `dynoscope-cli CONNECTION stage-file TABLE FILE`: the items of a file
 * (DynamoDB JSON lines, plain JSON, CSV) staged as puts into a table (staging/copystage.h),
 * to be sent by `commit`. */
#pragma once

#include "cli/target.h"

G_BEGIN_DECLS

int cli_stage_file_main (const CliTarget *target, int argc, char **argv);

/* The entry of main.c's command table (name, usage, N_() description, run_target, run_db,
 * run). */
/* clang-format off */
#define CLI_STAGE_FILE_COMMAND                                                                   \
  { "stage-file",                                                                                \
    "CONNECTION stage-file TABLE FILE [--format jsonl|json|csv] [--overwrite] [--staging PATH]", \
    N_ ("Stage the items of a file as puts into a table: every item checked first, nothing "     \
        "staged when any is refused; creates onto existing items come back as conflicts"),      \
    cli_stage_file_main, NULL, NULL }
/* clang-format on */

G_END_DECLS
