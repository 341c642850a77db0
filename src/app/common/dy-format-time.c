/* dy-format-time.c: dates beside values and TTL states in words (see dy-format-time.h). */
#define G_LOG_DOMAIN "dynoscope-format"

#include <glib/gi18n.h>

#include "app/common/dy-format-time.h"

#define MINUTE 60
#define HOUR (60 * MINUTE)
#define DAY (24 * HOUR)
#define YEAR (365 * DAY)

char *
dy_format_time (const DdbValue *value)
{
  DdbTime time;

  if (!ddb_time_from_value (value, NULL, &time))
    return NULL;
  return ddb_time_format (&time, NULL);
}

static char *
pending_text (gint64 seconds)
{
  int n;

  if (seconds < MINUTE)
    return g_strdup (_("in less than a minute"));
  if (seconds < HOUR)
    {
      n = (int) (seconds / MINUTE);
      /* TRANSLATORS: when an item's TTL expires it */
      return g_strdup_printf (ngettext ("in %d minute", "in %d minutes", n), n);
    }
  if (seconds < DAY)
    {
      n = (int) (seconds / HOUR);
      return g_strdup_printf (ngettext ("in %d hour", "in %d hours", n), n);
    }
  if (seconds < YEAR)
    {
      n = (int) (seconds / DAY);
      return g_strdup_printf (ngettext ("in %d day", "in %d days", n), n);
    }
  if (seconds / YEAR < 1000)
    {
      n = (int) (seconds / YEAR);
      return g_strdup_printf (ngettext ("in %d year", "in %d years", n), n);
    }
  return g_strdup (_("in more than 1000 years"));
}

/* DynamoDB deletes expired items in the background, "typically within a few days", and they
 * show in reads until then. At most five years back (older ones are TOO_OLD): days suffice. */
static char *
expired_text (gint64 seconds)
{
  int n;

  if (seconds < MINUTE)
    return g_strdup (_("expired less than a minute ago, awaiting deletion"));
  if (seconds < HOUR)
    {
      n = (int) (seconds / MINUTE);
      return g_strdup_printf (ngettext ("expired %d minute ago, awaiting deletion",
                                        "expired %d minutes ago, awaiting deletion", n), n);
    }
  if (seconds < DAY)
    {
      n = (int) (seconds / HOUR);
      return g_strdup_printf (ngettext ("expired %d hour ago, awaiting deletion",
                                        "expired %d hours ago, awaiting deletion", n), n);
    }
  n = (int) MIN (seconds / DAY, G_MAXINT);
  return g_strdup_printf (ngettext ("expired %d day ago, awaiting deletion",
                                    "expired %d days ago, awaiting deletion", n), n);
}

char *
dy_format_ttl_state (const DdbTtl *ttl)
{
  switch (ttl->state)
    {
    case DDB_TTL_NOT_NUMBER:
      /* TRANSLATORS: TTL deletes only items whose TTL attribute is a Number */
      return g_strdup (_("no expiry (not a number)"));
    case DDB_TTL_TOO_OLD:
      /* TRANSLATORS: TTL does not delete items whose time is more than five years past */
      return g_strdup (_("no expiry (more than five years in the past)"));
    case DDB_TTL_NOT_SECONDS:
      /* TRANSLATORS: TTL reads epoch seconds; this value counts smaller units, so its time
       * lies thousands of years ahead */
      if (ttl->unit == DDB_TIME_MILLISECONDS)
        return g_strdup (_("no expiry (milliseconds, not seconds)"));
      if (ttl->unit == DDB_TIME_MICROSECONDS)
        return g_strdup (_("no expiry (microseconds, not seconds)"));
      return g_strdup (_("no expiry (nanoseconds, not seconds)"));
    case DDB_TTL_PENDING:
      return pending_text (ttl->seconds);
    case DDB_TTL_EXPIRED:
      return expired_text (ttl->seconds);
    default:
      g_return_val_if_reached (NULL);
    }
}

char *
dy_format_ttl (const DdbValue *value, gint64 now)
{
  DdbTtl ttl = ddb_ttl_read (value, now);

  return dy_format_ttl_state (&ttl);
}

gint64
dy_format_now (void)
{
  return g_get_real_time () / G_USEC_PER_SEC;
}
