/* batch-ops.h: what batch-ops.c offers besides its operations (engine-private.h declares
 * those): the idempotency window of TransactWriteItems' ClientRequestToken, which tests shorten
 * because they cannot wait ten minutes. Private to src/engine and its tests. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* DynamoDB's window: a token is remembered for 10 minutes after the call that used it. */
#define DDB_TRANSACT_TOKEN_WINDOW_SECONDS 600

/* Sets the window, in seconds, for every engine of the process (0: every token has expired by
 * the next call); a negative value restores DynamoDB's. */
void ddb_transact_set_token_window (gint seconds);

G_END_DECLS
