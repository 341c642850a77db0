/* malloc-init.h: the allocator set up for the work done here, first thing in every executable
 * (the app, the CLI, serve) and in the benchmarks that measure them. GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* glibc's allocator without fast bins. Work here frees thousands of small blocks at once, often
 * on another thread than the one that made them (an answer's JSON trees, an import's items read
 * ahead on a thread of their own). Kept in fast bins, they are all merged again by the next
 * large allocation: that merging was a fifth of a Query's time in serve and over a quarter of an
 * import's CPU time. Without fast bins, blocks merge as they are freed. */
void ddb_malloc_init (void);

G_END_DECLS
