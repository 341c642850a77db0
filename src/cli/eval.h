/* eval.h: `dynoscope-cli eval`, DynamoDB expressions over items read from DynamoDB JSON lines. */
#pragma once

int cli_eval_main (int argc, char **argv);
