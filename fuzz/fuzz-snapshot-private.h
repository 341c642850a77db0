/* fuzz-snapshot-private.h: what fuzz-snapshot.c (the sources it builds from the input, the
 * imports and their checks) and fuzz-snapshot-count.c (what a data file holds, counted
 * independently of the importer) share. Shared names start with fsn_. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A finding: prints WHAT (and ERROR's message, when not NULL), then aborts. */
G_NORETURN void fsn_fail (const char *what, const GError *error);

typedef enum { HOLDS_LINES, HOLDS_JSON, HOLDS_CSV, HOLDS_ION } Holds;

/* The items (or changes) the data file STORED holds, as it reads: one a non-blank line, array
 * element, CSV record or Ion record. A finding when gzip -d or the Ion reader refuses it. */
guint64 fsn_count_items (GBytes *stored, Holds holds);

G_END_DECLS
