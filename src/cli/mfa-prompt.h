/* mfa-prompt.h: the MFA code of a role with mfa_serial, asked on the terminal as the AWS CLI
 * asks it ("Enter MFA code for SERIAL: ", without echo), for every command that signs in. */
#pragma once

#include "net/credentials.h"

G_BEGIN_DECLS

/* A DdbAwsMfaPrompt: prompts on /dev/tty (not stdin/stdout, which a command may be using for
 * data) and reads the code without echoing it. Ctrl+C (or Ctrl+D on an empty line) cancels
 * (G_IO_ERROR_CANCELLED), as does CANCELLABLE. Without a controlling terminal: an error
 * (DDB_AWS_ERROR_UNSUPPORTED) saying so. USER_DATA is not used. */
char *cli_mfa_prompt (const char *profile, const char *mfa_serial, gpointer user_data,
                      GCancellable *cancellable, GError **error);

G_END_DECLS
