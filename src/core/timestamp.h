/* timestamp.h: values that read as times: DynamoDB numbers that are epoch times (seconds,
 * milliseconds, microseconds or nanoseconds), strings in ISO 8601 / RFC 3339, and what a
 * table's TTL attribute says about an item's expiry. The value itself is never changed: these
 * only read it, for the app to show a date beside it. GTK-free, and without gettext: the app
 * words the TTL state (DdbTtl) in the user's language.
 *
 * Epoch numbers. A number reads as an epoch time when its instant lies in
 * [1990-01-01T00:00:00Z, 2100-01-01T00:00:00Z) in one of the units; the unit is chosen by
 * magnitude, and the units' ranges do not overlap:
 *   seconds       631152000 ..           4102444799  (9 or 10 digits)
 *   milliseconds  631152000000 ..        4102444799999
 *   microseconds  631152000000000 ..     4102444799999999
 *   nanoseconds   631152000000000000 ..  4102444799999999999  (below 2^63)
 * Milliseconds, microseconds and nanoseconds must be integers (that is what those units are
 * for). Seconds may carry a fraction (1733400000.5, as Python's time.time() writes): it is kept
 * to the microsecond (further digits are dropped) and counted as the value's precision. The
 * number's form does not matter (1.7334E9, 0001733400000 and 1733400000.0 are one number, as
 * for DynamoDB); negative numbers, zero and anything else are refused.
 *
 * ISO 8601 strings, the extended format only (what RFC 3339 profiles):
 *   YYYY-MM-DD                                   a calendar date (no instant, no zone)
 *   YYYY-MM-DD(T|t| )hh:mm[:ss[(.|,)f...]][zone] a date-time; hh 00-23, mm and ss 00-59
 *   zone: Z | z | +hh:mm | -hh:mm | +hhmm | -hhmm | +hh | -hh  (hh 00-23, mm 00-59)
 * The fraction may have any number of digits (kept to the microsecond). Without a zone the
 * date-time is local time (the zone the caller gives). Years 0001-9999; the day must exist in
 * its month (2000-02-29 yes, 2100-02-29 no). Refused, though ISO 8601 has them: the basic
 * format (20261205, T140307: such strings are as often IDs as times), week dates (2026-W49-6),
 * ordinal dates (2026-339), reduced dates (2026-12, 2026), a time alone (12:00), 24:00, the
 * leap second :60 (GDateTime cannot hold it), a zone after a date alone, and any leading or
 * trailing character. */
#pragma once

#include <glib.h>

#include "core/number.h"
#include "core/value.h"

G_BEGIN_DECLS

typedef enum {
  DDB_TIME_NONE,
  DDB_TIME_SECONDS,
  DDB_TIME_MILLISECONDS,
  DDB_TIME_MICROSECONDS,
  DDB_TIME_NANOSECONDS,
  DDB_TIME_ISO8601,
} DdbTimeKind;

typedef struct {
  DdbTimeKind kind;
  gint64 usec;     /* the instant: microseconds since 1970-01-01T00:00:00Z (for a date alone,
                    * its midnight in UTC: a calendar date has no zone) */
  guint precision; /* digits of a second the value holds: 0 for whole seconds, 3 for
                    * milliseconds, 6 and 9 for micro- and nanoseconds, 1-9 as written for
                    * a fraction of seconds (or in an ISO string) */
  gboolean date_only; /* an ISO calendar date without a time */
} DdbTime;

/* The earliest and the first instant past the range epoch numbers are read in (seconds). */
#define DDB_TIME_EPOCH_MIN G_GINT64_CONSTANT (631152000)   /* 1990-01-01T00:00:00Z */
#define DDB_TIME_EPOCH_END G_GINT64_CONSTANT (4102444800)  /* 2100-01-01T00:00:00Z */

/* TRUE, filling OUT, when the number reads as an epoch time (see above). */
gboolean ddb_time_from_number (const DdbNumber *number, DdbTime *out);
/* The same from a number's text (any form DynamoDB accepts); FALSE for text that is not a
 * number. LEN may be -1 for a NUL-terminated string. */
gboolean ddb_time_from_number_text (const char *text, gssize len, DdbTime *out);
/* TRUE, filling OUT, when the LEN bytes of TEXT are an ISO 8601 date or date-time (see
 * above). LOCAL is the zone of a date-time without one (NULL: the process's local zone). */
gboolean ddb_time_from_string (const char *text, gssize len, GTimeZone *local, DdbTime *out);
/* An N value as ddb_time_from_number, an S value as ddb_time_from_string; FALSE for others. */
gboolean ddb_time_from_value (const DdbValue *value, GTimeZone *local, DdbTime *out);

/* The instant in ZONE (NULL: local) as "2026-12-05 14:03:07", with ".123" milliseconds when the
 * value holds a fraction of a second; a date alone as "2026-12-05". Newly allocated. */
char *ddb_time_format (const DdbTime *time, GTimeZone *zone);

/* What a table's TTL attribute says about an item, per AWS's developer guide (Time to Live):
 * the attribute must be a top-level Number holding Unix epoch time in seconds; an item whose
 * attribute is of another type, or whose time is more than five years in the past, is not
 * deleted by TTL; one whose time has passed is expired and "typically deleted within a few
 * days", showing in reads until then. */
typedef enum {
  DDB_TTL_NOT_NUMBER,   /* the attribute is not a Number: never deleted by TTL */
  DDB_TTL_TOO_OLD,      /* more than five years in the past: never deleted by TTL */
  DDB_TTL_NOT_SECONDS,  /* reads as milliseconds, microseconds or nanoseconds (UNIT): as
                         * seconds it lies thousands of years ahead, so it will not expire */
  DDB_TTL_PENDING,      /* expires in SECONDS seconds */
  DDB_TTL_EXPIRED,      /* expired SECONDS seconds ago, awaiting deletion */
} DdbTtlState;

typedef struct {
  DdbTtlState state;
  gint64 seconds;  /* PENDING: seconds left (>= 0); EXPIRED: seconds since (> 0) */
  gint64 expires;  /* PENDING, EXPIRED, TOO_OLD: the expiry time, whole epoch seconds */
  DdbTimeKind unit; /* NOT_SECONDS: the unit the value reads in */
} DdbTtl;

/* The TTL state of an item whose TTL attribute holds VALUE (NULL: the item has none, read as
 * NOT_NUMBER), at NOW (epoch seconds). An item is expired once its time is less than NOW (at
 * the very second it is still pending); a fractional time counts to the second below it. Five
 * years back is the same month and day five years before NOW (Feb 29 to Feb 28). A time too
 * of 10^18 seconds or more is pending for G_MAXINT64 seconds. */
DdbTtl ddb_ttl_read (const DdbValue *value, gint64 now);

G_END_DECLS
