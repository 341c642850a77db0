/* test-timestamp.c: epoch numbers and ISO 8601 strings read as times, their local text, and
 * TTL states. The wide corpus (timestamp-corpus.tsv) is computed by timestamp-corpus.py with
 * Python's decimal and datetime; every row is checked here, through each entry point. */
#include <glib.h>
#include <string.h>

#include "core/timestamp.h"

static const char *const kind_names[] = { "none", "s", "ms", "us", "ns", "iso" };

static const char *
kind_name (const DdbTime *t)
{
  if (t->kind == DDB_TIME_ISO8601 && t->date_only)
    return "date";
  return kind_names[t->kind];
}

/* UTC+05:30: the zone the corpus reads date-times without zone in and formats in. */
static GTimeZone *
corpus_zone (void)
{
  return g_time_zone_new_offset (5 * 3600 + 30 * 60);
}

static char *
corpus_path (void)
{
  const char *dir = g_getenv ("DYNOSCOPE_SOURCE_DIR");

  g_assert_nonnull (dir);
  return g_build_filename (dir, "tests", "core", "timestamp-corpus.tsv", NULL);
}

/* Checks one entry point's answer against a corpus row. */
static void
check_row (const char *via, const char *input, gboolean ok, const DdbTime *t, char **fields,
           GTimeZone *zone)
{
  g_autofree char *text = NULL;
  g_autofree char *usec = NULL;
  g_autofree char *precision = NULL;

  if (!ok)
    {
      if (g_strcmp0 (fields[2], "none") != 0)
        g_error ("%s(\"%s\"): refused, expected %s", via, input, fields[2]);
      g_assert_cmpint (t->kind, ==, DDB_TIME_NONE);
      return;
    }
  if (g_strcmp0 (fields[2], kind_name (t)) != 0)
    g_error ("%s(\"%s\"): read as %s, expected %s", via, input, kind_name (t), fields[2]);
  usec = g_strdup_printf ("%" G_GINT64_FORMAT, t->usec);
  precision = g_strdup_printf ("%u", t->precision);
  text = ddb_time_format (t, zone);
  if (g_strcmp0 (usec, fields[3]) != 0 || g_strcmp0 (precision, fields[4]) != 0
      || g_strcmp0 (text, fields[5]) != 0)
    g_error ("%s(\"%s\"): %s µs, precision %s, \"%s\"; expected %s µs, precision %s, \"%s\"",
             via, input, usec, precision, text, fields[3], fields[4], fields[5]);
}

static void
test_corpus (void)
{
  g_autofree char *path = corpus_path ();
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GTimeZone) zone = corpus_zone ();
  g_autoptr (GError) error = NULL;
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = 0;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], "\t", -1);
      const char *input = fields[1];
      DdbTime t;
      gboolean ok;

      g_assert_cmpuint (g_strv_length (fields), ==, 6);
      if (g_str_equal (fields[0], "N"))
        {
          DdbNumber number;

          memset (&t, 0x55, sizeof t);
          ok = ddb_time_from_number_text (input, -1, &t);
          check_row ("number_text", input, ok, &t, fields, zone);
          /* the same through a DdbNumber and an N value, when DynamoDB takes the text */
          if (ddb_number_parse (&number, input, -1, NULL))
            {
              DdbValue *value = ddb_value_new_n (&number);

              ok = ddb_time_from_number (&number, &t);
              check_row ("number", input, ok, &t, fields, zone);
              ok = ddb_time_from_value (value, zone, &t);
              check_row ("value N", input, ok, &t, fields, zone);
              ddb_value_free (value);
            }
          else
            g_assert_cmpstr (fields[2], ==, "none");
        }
      else
        {
          DdbValue *value = ddb_value_new_s (input, -1);
          /* not NUL-terminated: the length is what counts */
          char *copy = g_strdup_printf ("%sX", input);

          memset (&t, 0x55, sizeof t);
          ok = ddb_time_from_string (input, -1, zone, &t);
          check_row ("string", input, ok, &t, fields, zone);
          ok = ddb_time_from_string (copy, (gssize) strlen (input), zone, &t);
          check_row ("string len", input, ok, &t, fields, zone);
          ok = ddb_time_from_value (value, zone, &t);
          check_row ("value S", input, ok, &t, fields, zone);
          ddb_value_free (value);
          g_free (copy);
        }
      g_hash_table_add (seen, (gpointer) g_intern_string (fields[2]));
      n++;
    }
  /* the corpus is wide: every kind, and refusals, in numbers */
  g_assert_cmpuint (n, >, 600);
  for (guint k = 0; k < G_N_ELEMENTS (kind_names); k++)
    g_assert_true (g_hash_table_contains (seen, kind_names[k]));
  g_assert_true (g_hash_table_contains (seen, "date"));
  g_hash_table_unref (seen);
}

/* The corpus is read with a fixed zone; a zone with daylight saving time moves a date-time
 * without zone by the season, and the text is shown back in it. */
static void
test_local_zone (void)
{
  static const struct {
    const char *input;
    gint64 epoch;
  } cases[] = {
    { "2026-01-15T12:00:00", 1768496400 }, /* EST, UTC-5 */
    { "2026-07-15T12:00:00", 1784131200 }, /* EDT, UTC-4 */
    { "2026-07-15 12:00", 1784131200 },
  };
  g_autoptr (GTimeZone) zone = g_time_zone_new_identifier ("America/New_York");

  if (zone == NULL)
    {
      g_test_skip ("no tzdata for America/New_York");
      return;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DdbTime t;
      g_autofree char *text = NULL;
      g_autofree char *utc = NULL;
      g_autoptr (GTimeZone) utc_zone = g_time_zone_new_utc ();

      g_assert_true (ddb_time_from_string (cases[i].input, -1, zone, &t));
      g_assert_cmpint (t.usec, ==, cases[i].epoch * G_USEC_PER_SEC);
      text = ddb_time_format (&t, zone);
      g_assert_cmpstr (text, ==, i == 0 ? "2026-01-15 12:00:00" : "2026-07-15 12:00:00");
      utc = ddb_time_format (&t, utc_zone);
      g_assert_cmpstr (utc + 11, ==, i == 0 ? "17:00:00" : "16:00:00");
    }
}

/* Text in UTC of the range's ends, and of each unit's precision. */
static void
test_format (void)
{
  static const struct {
    const char *number;
    const char *text;
  } cases[] = {
    { "631152000", "1990-01-01 00:00:00" },
    { "4102444799", "2099-12-31 23:59:59" },
    { "4102444799.999999999", "2099-12-31 23:59:59.999" },
    { "1733400000.5", "2024-12-05 12:00:00.500" },
    { "1733400000.0005", "2024-12-05 12:00:00.000" },
    { "1733400000123", "2024-12-05 12:00:00.123" },
    { "1733400000000", "2024-12-05 12:00:00.000" },
    { "1733400000123456", "2024-12-05 12:00:00.123" },
    { "1733400000987654321", "2024-12-05 12:00:00.987" },
  };
  g_autoptr (GTimeZone) utc = g_time_zone_new_utc ();

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DdbTime t;
      g_autofree char *text = NULL;

      g_assert_true (ddb_time_from_number_text (cases[i].number, -1, &t));
      text = ddb_time_format (&t, utc);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

/* TTL */

#define NOW G_GINT64_CONSTANT (1796479387) /* 2026-12-05T14:03:07Z */

static DdbTtl
ttl_of (const char *number, gint64 now)
{
  DdbNumber n;
  DdbValue *value;
  DdbTtl ttl;

  if (!ddb_number_parse (&n, number, -1, NULL))
    g_error ("\"%s\" is not a number", number);
  value = ddb_value_new_n (&n);
  ttl = ddb_ttl_read (value, now);
  ddb_value_free (value);
  return ttl;
}

static void
assert_ttl (const char *number, gint64 now, DdbTtlState state, gint64 seconds)
{
  DdbTtl ttl = ttl_of (number, now);

  if (ttl.state != state || ttl.seconds != seconds)
    g_error ("TTL %s at %" G_GINT64_FORMAT ": state %d, %" G_GINT64_FORMAT " s; expected "
             "state %d, %" G_GINT64_FORMAT " s", number, now, ttl.state, ttl.seconds, state,
             seconds);
}

static void
test_ttl_not_number (void)
{
  DdbValue *s = ddb_value_new_s ("1796479387", -1);
  DdbValue *b = ddb_value_new_bool (TRUE);
  DdbValue *null = ddb_value_new_null ();
  DdbValue *ns = ddb_value_new_set (DDB_TYPE_NS);
  DdbValue *values[] = { s, b, null, ns, NULL };

  for (gsize i = 0; i < G_N_ELEMENTS (values); i++)
    {
      DdbTtl ttl = ddb_ttl_read (values[i], NOW);

      g_assert_cmpint (ttl.state, ==, DDB_TTL_NOT_NUMBER);
      g_assert_cmpint (ttl.seconds, ==, 0);
      if (values[i] != NULL)
        ddb_value_free (values[i]);
    }
}

static void
test_ttl_boundaries (void)
{
  g_autofree char *now = g_strdup_printf ("%" G_GINT64_FORMAT, NOW);
  DdbTtl ttl;

  /* at the very second it is not yet less than now */
  assert_ttl (now, NOW, DDB_TTL_PENDING, 0);
  assert_ttl ("1796479388", NOW, DDB_TTL_PENDING, 1);
  assert_ttl ("1796479386", NOW, DDB_TTL_EXPIRED, 1);
  assert_ttl ("1796479387.5", NOW, DDB_TTL_PENDING, 0);
  assert_ttl ("1796479386.5", NOW, DDB_TTL_EXPIRED, 1);
  assert_ttl ("1796479386.999999", NOW, DDB_TTL_EXPIRED, 1);
  assert_ttl ("1.796479387E9", NOW, DDB_TTL_PENDING, 0);
  assert_ttl ("1796738587", NOW, DDB_TTL_PENDING, 3 * 86400);
  assert_ttl ("1796464987", NOW, DDB_TTL_EXPIRED, 4 * 3600);
  /* five years back: 2021-12-05T14:03:07Z = 1638713...: expired on it, too old before */
  assert_ttl ("1638712987", NOW, DDB_TTL_EXPIRED, NOW - 1638712987);
  assert_ttl ("1638712986", NOW, DDB_TTL_TOO_OLD, 0);
  assert_ttl ("1638712986.5", NOW, DDB_TTL_TOO_OLD, 0);
  assert_ttl ("0", NOW, DDB_TTL_TOO_OLD, 0);
  assert_ttl ("-1", NOW, DDB_TTL_TOO_OLD, 0);
  assert_ttl ("-0.5", NOW, DDB_TTL_TOO_OLD, 0);
  assert_ttl ("-1E100", NOW, DDB_TTL_TOO_OLD, 0);
  assert_ttl ("0.5", NOW, DDB_TTL_TOO_OLD, 0);
  assert_ttl ("1E-130", NOW, DDB_TTL_TOO_OLD, 0);
  /* five years before 2028-02-29T00:00:00Z is 2023-02-28T00:00:00Z (1677542400) */
  assert_ttl ("1677542400", 1835395200, DDB_TTL_EXPIRED, 1835395200 - 1677542400);
  assert_ttl ("1677542399", 1835395200, DDB_TTL_TOO_OLD, 0);
  /* far ahead, in seconds: pending, however far */
  assert_ttl ("5000000000", NOW, DDB_TTL_PENDING, 5000000000 - NOW);
  assert_ttl ("99999999999999999", NOW, DDB_TTL_PENDING, 99999999999999999 - NOW);
  /* with a fraction it is no nanosecond count: seconds */
  assert_ttl ("999999999999999999.5", NOW, DDB_TTL_PENDING, 999999999999999999 - NOW);
  assert_ttl ("5E18", NOW, DDB_TTL_PENDING, G_MAXINT64);
  assert_ttl ("1E19", NOW, DDB_TTL_PENDING, G_MAXINT64);
  assert_ttl ("9.99E125", NOW, DDB_TTL_PENDING, G_MAXINT64);
  ttl = ttl_of ("1796738587", NOW);
  g_assert_cmpint (ttl.expires, ==, 1796738587);
  ttl = ttl_of ("1796479386.5", NOW);
  g_assert_cmpint (ttl.expires, ==, 1796479386);
}

/* A TTL written in milliseconds (as JavaScript's Date.now() gives) never expires: say so. */
static void
test_ttl_not_seconds (void)
{
  static const struct {
    const char *number;
    DdbTimeKind unit;
  } cases[] = {
    { "1796479387000", DDB_TIME_MILLISECONDS },
    { "631152000000", DDB_TIME_MILLISECONDS },
    { "1796479387000000", DDB_TIME_MICROSECONDS },
    { "1796479387000000000", DDB_TIME_NANOSECONDS },
    { "4102444799999999999", DDB_TIME_NANOSECONDS },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DdbTtl ttl = ttl_of (cases[i].number, NOW);

      g_assert_cmpint (ttl.state, ==, DDB_TTL_NOT_SECONDS);
      g_assert_cmpint (ttl.unit, ==, cases[i].unit);
    }
  /* just outside the ranges, they are seconds far ahead */
  assert_ttl ("631151999999", NOW, DDB_TTL_PENDING, 631151999999 - NOW);
  assert_ttl ("4102444800000000000", NOW, DDB_TTL_PENDING, G_MAXINT64);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/timestamp/corpus", test_corpus);
  g_test_add_func ("/timestamp/local-zone", test_local_zone);
  g_test_add_func ("/timestamp/format", test_format);
  g_test_add_func ("/timestamp/ttl/not-number", test_ttl_not_number);
  g_test_add_func ("/timestamp/ttl/boundaries", test_ttl_boundaries);
  g_test_add_func ("/timestamp/ttl/not-seconds", test_ttl_not_seconds);
  return g_test_run ();
}
