/* bench-util.h: what the benchmarks share: failing loudly, the peak RSS, and an engine database
 * built once from a DynamoDB JSON lines snapshot the benchmark writes. */
#pragma once

#include <stdio.h>

#include "engine/snapshot.h"

/* Prints "PROG: WHAT: the error's message" and exits 1. */
G_NORETURN void bench_die (const char *prog, const char *what, const GError *error);

/* The peak RSS since the last bench_reset_peak_rss (VmHWM), in MB; getrusage's ru_maxrss (the
 * process's whole life) where there is no /proc. */
double bench_peak_rss_mb (void);
/* Starts a new peak at the current RSS (Linux: "5" to /proc/self/clear_refs). */
void bench_reset_peak_rss (void);

/* Builds the engine database PATH: WRITE (F, DATA) writes a DynamoDB JSON lines file in DIR,
 * which is imported with OPTS into PATH.tmp, then renamed to PATH (a database is never left
 * half built). *PROGRESS (may be NULL) is the import's. Exits through bench_die on failure. */
void bench_build_engine_db (const char *prog, const char *path, const char *dir,
                            const DdbImportOptions *opts, void (*write) (FILE *f, gpointer data),
                            gpointer data, DdbSnapshotProgress *progress);
