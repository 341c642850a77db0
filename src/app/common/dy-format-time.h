/* dy-format-time.h: the words and dates the app shows beside values that read as times (epoch
 * numbers, ISO 8601 strings: core/timestamp) and for a table's TTL attribute ("in 3 days",
 * "expired 4 hours ago, awaiting deletion"). The values themselves are never changed. */
#pragma once

#include <glib.h>

#include "core/timestamp.h"

G_BEGIN_DECLS

/* The local date and time VALUE (an N or S value, or NULL) reads as, "2026-12-05 14:03:07"
 * (".123" when it holds a fraction of a second; a date alone as it is), or NULL when it does not
 * read as a time. Newly allocated. */
char *dy_format_time (const DdbValue *value);
/* What TTL says about an item, in words: "in 3 days", "in less than a minute", "expired 4 hours
 * ago, awaiting deletion", "no expiry (not a number)"... The largest whole unit is counted
 * (2 days 23 hours is "in 2 days"). Newly allocated. */
char *dy_format_ttl_state (const DdbTtl *ttl);
/* The same for VALUE (NULL: the item has no TTL attribute) as the table's TTL attribute at NOW
 * (epoch seconds). */
char *dy_format_ttl (const DdbValue *value, gint64 now);
/* Now, in epoch seconds, as dy_format_ttl wants it. */
gint64 dy_format_now (void);

G_END_DECLS
