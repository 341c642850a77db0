/* timestamp.c: epoch numbers and ISO 8601 strings read as times, and TTL states (see
 * timestamp.h). */
#include <string.h>

#include "core/timestamp.h"

#define USEC_PER_SEC G_GINT64_CONSTANT (1000000)

/* Epoch numbers */

static const struct {
  DdbTimeKind kind;
  guint64 per_second; /* units in a second */
} units[] = {
  { DDB_TIME_SECONDS, 1 },
  { DDB_TIME_MILLISECONDS, 1000 },
  { DDB_TIME_MICROSECONDS, 1000000 },
  { DDB_TIME_NANOSECONDS, 1000000000 },
};

gboolean
ddb_time_from_number (const DdbNumber *number, DdbTime *out)
{
  guint64 whole = 0;
  gint64 fraction_usec = 0;
  guint n_fraction;

  g_return_val_if_fail (number != NULL && out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  /* value = 0.d[0]d[1]... * 10^exponent: EXPONENT digits before the point. Nanoseconds before
   * 2100 have 19 of them, which a guint64 holds. */
  if (number->negative || number->ndigits == 0 || number->exponent <= 0
      || number->exponent > 19)
    return FALSE;
  for (int i = 0; i < number->exponent; i++)
    whole = whole * 10 + (i < number->ndigits ? number->d[i] : 0);
  n_fraction = number->ndigits > number->exponent ? number->ndigits - number->exponent : 0;
  for (guint i = 0; i < 6; i++)
    fraction_usec = fraction_usec * 10
                    + (i < n_fraction ? number->d[number->exponent + i] : 0);

  for (gsize u = 0; u < G_N_ELEMENTS (units); u++)
    {
      guint64 low = (guint64) DDB_TIME_EPOCH_MIN * units[u].per_second;
      guint64 end = (guint64) DDB_TIME_EPOCH_END * units[u].per_second;

      if (whole < low || whole >= end)
        continue;
      /* only seconds carry a fraction */
      if (n_fraction > 0 && units[u].kind != DDB_TIME_SECONDS)
        return FALSE;
      out->kind = units[u].kind;
      switch (out->kind)
        {
        case DDB_TIME_SECONDS:
          out->usec = (gint64) whole * USEC_PER_SEC + fraction_usec;
          out->precision = MIN (n_fraction, 9);
          break;
        case DDB_TIME_MILLISECONDS:
          out->usec = (gint64) whole * 1000;
          out->precision = 3;
          break;
        case DDB_TIME_MICROSECONDS:
          out->usec = (gint64) whole;
          out->precision = 6;
          break;
        default:
          out->usec = (gint64) (whole / 1000);
          out->precision = 9;
          break;
        }
      return TRUE;
    }
  return FALSE;
}

gboolean
ddb_time_from_number_text (const char *text, gssize len, DdbTime *out)
{
  DdbNumber number;

  g_return_val_if_fail (text != NULL && out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  if (!ddb_number_parse (&number, text, len, NULL))
    return FALSE;
  return ddb_time_from_number (&number, out);
}

/* ISO 8601 strings */

/* Reads exactly N digits at *P into *OUT, moving *P past them. */
static gboolean
read_digits (const char **p, const char *end, guint n, int *out)
{
  int v = 0;

  if ((gsize) (end - *p) < n)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      if (!g_ascii_isdigit ((*p)[i]))
        return FALSE;
      v = v * 10 + ((*p)[i] - '0');
    }
  *p += n;
  *out = v;
  return TRUE;
}

static gboolean
read_char (const char **p, const char *end, char c)
{
  if (*p >= end || **p != c)
    return FALSE;
  (*p)++;
  return TRUE;
}

/* The zone after a time: Z, or an offset in seconds (east positive) into *OFFSET; *HAS_ZONE
 * FALSE when the text ends before one. */
static gboolean
read_zone (const char **p, const char *end, gboolean *has_zone, int *offset)
{
  int sign, hh, mm = 0;

  *has_zone = FALSE;
  *offset = 0;
  if (*p == end)
    return TRUE;
  *has_zone = TRUE;
  if (**p == 'Z' || **p == 'z')
    {
      (*p)++;
      return TRUE;
    }
  if (**p != '+' && **p != '-')
    return FALSE;
  sign = **p == '-' ? -1 : 1;
  (*p)++;
  if (!read_digits (p, end, 2, &hh) || hh > 23)
    return FALSE;
  if (*p < end)
    {
      read_char (p, end, ':');
      if (!read_digits (p, end, 2, &mm) || mm > 59)
        return FALSE;
    }
  *offset = sign * (hh * 3600 + mm * 60);
  return TRUE;
}

gboolean
ddb_time_from_string (const char *text, gssize len, GTimeZone *local, DdbTime *out)
{
  const char *p = text, *end;
  int year, month, day, hour, minute, second = 0;
  gint64 fraction_usec = 0;
  guint n_fraction = 0;
  gboolean has_zone;
  int offset;
  g_autoptr (GTimeZone) zone = NULL;
  g_autoptr (GDateTime) dt = NULL;

  g_return_val_if_fail (text != NULL && out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  end = text + (len < 0 ? strlen (text) : (gsize) len);
  if (!read_digits (&p, end, 4, &year) || !read_char (&p, end, '-')
      || !read_digits (&p, end, 2, &month) || !read_char (&p, end, '-')
      || !read_digits (&p, end, 2, &day))
    return FALSE;
  if (year < 1 || month < 1 || month > 12 || day < 1
      || day > g_date_get_days_in_month ((GDateMonth) month, (GDateYear) year))
    return FALSE;
  if (p == end)
    {
      dt = g_date_time_new_utc (year, month, day, 0, 0, 0);
      if (dt == NULL)
        return FALSE;
      out->kind = DDB_TIME_ISO8601;
      out->usec = g_date_time_to_unix (dt) * USEC_PER_SEC;
      out->date_only = TRUE;
      return TRUE;
    }
  if (*p != 'T' && *p != 't' && *p != ' ')
    return FALSE;
  p++;
  if (!read_digits (&p, end, 2, &hour) || hour > 23 || !read_char (&p, end, ':')
      || !read_digits (&p, end, 2, &minute) || minute > 59)
    return FALSE;
  if (read_char (&p, end, ':'))
    {
      if (!read_digits (&p, end, 2, &second) || second > 59)
        return FALSE;
      if (p < end && (*p == '.' || *p == ','))
        {
          p++;
          while (p < end && g_ascii_isdigit (*p))
            {
              if (n_fraction < 6)
                fraction_usec = fraction_usec * 10 + (*p - '0');
              n_fraction++;
              p++;
            }
          if (n_fraction == 0)
            return FALSE;
          for (guint i = n_fraction; i < 6; i++)
            fraction_usec *= 10;
        }
    }
  if (!read_zone (&p, end, &has_zone, &offset) || p != end)
    return FALSE;
  if (has_zone)
    zone = g_time_zone_new_offset (offset);
  else
    zone = local != NULL ? g_time_zone_ref (local) : g_time_zone_new_local ();
  dt = g_date_time_new (zone, year, month, day, hour, minute, second);
  if (dt == NULL)
    return FALSE;
  out->kind = DDB_TIME_ISO8601;
  out->usec = g_date_time_to_unix (dt) * USEC_PER_SEC + fraction_usec;
  out->precision = MIN (n_fraction, 9);
  return TRUE;
}

gboolean
ddb_time_from_value (const DdbValue *value, GTimeZone *local, DdbTime *out)
{
  g_return_val_if_fail (out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  if (value == NULL)
    return FALSE;
  if (value->type == DDB_TYPE_N)
    return ddb_time_from_number (&value->number, out);
  if (value->type == DDB_TYPE_S)
    return ddb_time_from_string (value->bytes.data, (gssize) value->bytes.len, local, out);
  return FALSE;
}

/* Formatting */

/* "%Y" does not pad years before 1000 to four digits: ISO 8601 does. */
static char *
date_text (GDateTime *dt)
{
  return g_strdup_printf ("%04d-%02d-%02d", g_date_time_get_year (dt),
                          g_date_time_get_month (dt), g_date_time_get_day_of_month (dt));
}

char *
ddb_time_format (const DdbTime *time, GTimeZone *zone)
{
  gint64 seconds, usec;
  g_autoptr (GDateTime) utc = NULL;
  g_autoptr (GDateTime) shown = NULL;
  g_autofree char *date = NULL;
  GString *text;

  g_return_val_if_fail (time != NULL && time->kind != DDB_TIME_NONE, NULL);
  /* floor division: instants before 1970 have a negative count */
  seconds = time->usec / USEC_PER_SEC;
  usec = time->usec % USEC_PER_SEC;
  if (usec < 0)
    {
      seconds--;
      usec += USEC_PER_SEC;
    }
  utc = g_date_time_new_from_unix_utc (seconds);
  if (utc == NULL)
    return NULL;
  if (time->date_only)
    return date_text (utc);
  if (zone != NULL)
    shown = g_date_time_to_timezone (utc, zone);
  else
    shown = g_date_time_to_local (utc);
  if (shown == NULL)
    return NULL;
  date = date_text (shown);
  text = g_string_new (date);
  g_string_append_printf (text, " %02d:%02d:%02d", g_date_time_get_hour (shown),
                          g_date_time_get_minute (shown), g_date_time_get_second (shown));
  if (time->precision > 0)
    g_string_append_printf (text, ".%03d", (int) (usec / 1000));
  return g_string_free (text, FALSE);
}

/* TTL */

DdbTtl
ddb_ttl_read (const DdbValue *value, gint64 now)
{
  DdbTtl ttl = { DDB_TTL_NOT_NUMBER, 0, 0, DDB_TIME_NONE };
  const DdbNumber *n;
  DdbTime time;
  gint64 expires = 0;
  gboolean huge = FALSE;
  g_autoptr (GDateTime) now_dt = NULL;
  g_autoptr (GDateTime) five_years = NULL;

  if (value == NULL || value->type != DDB_TYPE_N)
    return ttl;
  n = &value->number;
  if (ddb_time_from_number (n, &time) && time.kind != DDB_TIME_SECONDS)
    {
      ttl.state = DDB_TTL_NOT_SECONDS;
      ttl.unit = time.kind;
      return ttl;
    }
  /* the whole seconds, rounded down: at most 18 digits fit in a gint64 */
  if (n->ndigits > 0 && n->exponent > 18)
    huge = TRUE;
  else if (n->ndigits > 0 && n->exponent > 0)
    for (int i = 0; i < n->exponent; i++)
      expires = expires * 10 + (i < n->ndigits ? n->d[i] : 0);
  if (n->negative)
    {
      /* -x.y rounds down to -(x + 1) */
      gboolean fraction = n->exponent <= 0 || n->ndigits > n->exponent;

      if (huge)
        expires = G_MININT64;
      else
        expires = -expires - (fraction ? 1 : 0);
      huge = FALSE;
    }
  if (huge)
    {
      ttl.state = DDB_TTL_PENDING;
      ttl.seconds = G_MAXINT64;
      ttl.expires = G_MAXINT64;
      return ttl;
    }
  ttl.expires = expires;
  now_dt = g_date_time_new_from_unix_utc (now);
  five_years = now_dt != NULL ? g_date_time_add_years (now_dt, -5) : NULL;
  if (five_years != NULL && expires < g_date_time_to_unix (five_years))
    {
      ttl.state = DDB_TTL_TOO_OLD;
      return ttl;
    }
  if (expires < now)
    {
      ttl.state = DDB_TTL_EXPIRED;
      ttl.seconds = now - expires;
    }
  else
    {
      ttl.state = DDB_TTL_PENDING;
      ttl.seconds = expires - now;
    }
  return ttl;
}
