/* interrupt.h: Ctrl-C during long work: SIGINT, waited for on a thread of its own, cancels the
 * work in progress (which then ends with a message and cleans up) instead of killing the
 * process; between two pieces of work it exits with status 130, as a shell reports a death by
 * SIGINT. */
#pragma once

#include <gio/gio.h>

typedef void (*CliInterruptFunc) (gpointer data);

/* From now on SIGINT calls FUNC (DATA) on the signal thread; FUNC NULL: SIGINT exits with 130.
 * The first call blocks SIGINT in the calling thread (and the threads it starts after) and
 * starts the signal thread: call it before starting worker threads. */
void cli_interrupt_calls (CliInterruptFunc func, gpointer data);

/* cli_interrupt_calls with g_cancellable_cancel (CANCELLABLE); NULL: SIGINT exits with 130.
 * CANCELLABLE must live until it is replaced. */
void cli_interrupt_cancels (GCancellable *cancellable);
