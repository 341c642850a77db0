/* test-times.c: times shown beside values, without a display: the TTL phrases at each unit's
 * boundaries (a fixed "now"), every TTL state's words, and a grid cell's markup and tooltip in
 * each time mode (Off, Beside, Instead) for epoch numbers of each unit, ISO strings, dates
 * alone, values that are no times, text that needs escaping, and the TTL column. */
#include <glib.h>
#include <locale.h>

#include "app/browser/dy-grid.h"
#include "app/common/dy-format-time.h"
#include "core/timestamp.h"

#define NOW G_GINT64_CONSTANT (1796479387) /* 2026-12-05T14:03:07Z */

static DdbValue *
num (const char *text)
{
  DdbNumber n;

  g_assert_true (ddb_number_parse (&n, text, -1, NULL));
  return ddb_value_new_n (&n);
}

static void
assert_ttl_text (gint64 value, const char *expected)
{
  g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, value);
  g_autoptr (DdbValue) v = num (text);
  g_autofree char *got = dy_format_ttl (v, NOW);

  if (g_strcmp0 (got, expected) != 0)
    g_error ("TTL %s (now %+" G_GINT64_FORMAT " s): \"%s\", expected \"%s\"", text,
             value - NOW, got, expected);
}

static void
test_ttl_phrases (void)
{
  static const struct {
    gint64 delta;
    const char *text;
  } cases[] = {
    { 0, "in less than a minute" },
    { 59, "in less than a minute" },
    { 60, "in 1 minute" },
    { 119, "in 1 minute" },
    { 120, "in 2 minutes" },
    { 3599, "in 59 minutes" },
    { 3600, "in 1 hour" },
    { 5 * 3600, "in 5 hours" },
    { 86399, "in 23 hours" },
    { 86400, "in 1 day" },
    { 3 * 86400, "in 3 days" },
    { 3 * 86400 - 1, "in 2 days" },
    { 364 * 86400, "in 364 days" },
    { 365 * 86400, "in 1 year" },
    { 2 * 365 * 86400, "in 2 years" },
    { -1, "expired less than a minute ago, awaiting deletion" },
    { -59, "expired less than a minute ago, awaiting deletion" },
    { -60, "expired 1 minute ago, awaiting deletion" },
    { -120, "expired 2 minutes ago, awaiting deletion" },
    { -3599, "expired 59 minutes ago, awaiting deletion" },
    { -3600, "expired 1 hour ago, awaiting deletion" },
    { -4 * 3600, "expired 4 hours ago, awaiting deletion" },
    { -86399, "expired 23 hours ago, awaiting deletion" },
    { -86400, "expired 1 day ago, awaiting deletion" },
    { -400 * 86400, "expired 400 days ago, awaiting deletion" },
    /* 2021-12-05T14:03:07Z, five years back, is the last second TTL still deletes */
    { 1638712987 - NOW, "expired 1826 days ago, awaiting deletion" },
    { 1638712986 - NOW, "no expiry (more than five years in the past)" },
    { -NOW, "no expiry (more than five years in the past)" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    assert_ttl_text (NOW + cases[i].delta, cases[i].text);
}

static void
test_ttl_states (void)
{
  g_autoptr (DdbValue) s = ddb_value_new_s ("1796479387", -1);
  g_autoptr (DdbValue) ms = num ("1796479387000");
  g_autoptr (DdbValue) us = num ("1796479387000000");
  g_autoptr (DdbValue) ns = num ("1796479387000000000");
  g_autoptr (DdbValue) far = num ("9.99E125");
  g_autofree char *t_none = dy_format_ttl (NULL, NOW);
  g_autofree char *t_s = dy_format_ttl (s, NOW);
  g_autofree char *t_ms = dy_format_ttl (ms, NOW);
  g_autofree char *t_us = dy_format_ttl (us, NOW);
  g_autofree char *t_ns = dy_format_ttl (ns, NOW);
  g_autofree char *t_far = dy_format_ttl (far, NOW);

  g_assert_cmpstr (t_none, ==, "no expiry (not a number)");
  g_assert_cmpstr (t_s, ==, "no expiry (not a number)");
  g_assert_cmpstr (t_ms, ==, "no expiry (milliseconds, not seconds)");
  g_assert_cmpstr (t_us, ==, "no expiry (microseconds, not seconds)");
  g_assert_cmpstr (t_ns, ==, "no expiry (nanoseconds, not seconds)");
  g_assert_cmpstr (t_far, ==, "in more than 1000 years");
}

typedef struct {
  const char *value; /* N text, or S when it starts with "S:" */
  gboolean ttl;
  const char *off, *beside, *instead; /* markup */
  const char *tip_beside, *tip_instead;
} CellCase;

static DdbValue *
value_of (const char *text)
{
  if (g_str_has_prefix (text, "S:"))
    return ddb_value_new_s (text + 2, -1);
  return num (text);
}

static void
test_cell_markup (void)
{
  static const CellCase cases[] = {
    { "1733400000", FALSE, "1733400000",
      "1733400000 <span alpha=\"55%\">· 2024-12-05 12:00:00</span>", "2024-12-05 12:00:00",
      "N", "N · 1733400000" },
    { "1733400000.5", FALSE, "1733400000.5",
      "1733400000.5 <span alpha=\"55%\">· 2024-12-05 12:00:00.500</span>",
      "2024-12-05 12:00:00.500", "N", "N · 1733400000.5" },
    { "1733400000123", FALSE, "1733400000123",
      "1733400000123 <span alpha=\"55%\">· 2024-12-05 12:00:00.123</span>",
      "2024-12-05 12:00:00.123", "N", "N · 1733400000123" },
    { "1733400000123456", FALSE, "1733400000123456",
      "1733400000123456 <span alpha=\"55%\">· 2024-12-05 12:00:00.123</span>",
      "2024-12-05 12:00:00.123", "N", "N · 1733400000123456" },
    { "1733400000123456789", FALSE, "1733400000123456789",
      "1733400000123456789 <span alpha=\"55%\">· 2024-12-05 12:00:00.123</span>",
      "2024-12-05 12:00:00.123", "N", "N · 1733400000123456789" },
    { "S:2026-12-05T14:03:07+02:00", FALSE, "2026-12-05T14:03:07+02:00",
      "2026-12-05T14:03:07+02:00 <span alpha=\"55%\">· 2026-12-05 12:03:07</span>",
      "2026-12-05 12:03:07", "S", "S · 2026-12-05T14:03:07+02:00" },
    /* a date alone reads as itself: nothing added */
    { "S:2026-12-05", FALSE, "2026-12-05", "2026-12-05", "2026-12-05", "S", "S" },
    /* no times: as they are, escaped */
    { "12345", FALSE, "12345", "12345", "12345", "N", "N" },
    { "S:<b>&amp;", FALSE, "&lt;b&gt;&amp;amp;", "&lt;b&gt;&amp;amp;", "&lt;b&gt;&amp;amp;",
      "S", "S" },
    { "S:2026-12-05T14:03:07Z<i>", FALSE, "2026-12-05T14:03:07Z&lt;i&gt;",
      "2026-12-05T14:03:07Z&lt;i&gt;", "2026-12-05T14:03:07Z&lt;i&gt;", "S", "S" },
    /* the TTL column: when the item expires */
    { "1796738587", TRUE, "1796738587", "1796738587 <span alpha=\"55%\">· in 3 days</span>",
      "2026-12-08 14:03:07 · in 3 days", "N · 2026-12-08 14:03:07", "N · 1796738587" },
    { "1796464987", TRUE, "1796464987",
      "1796464987 <span alpha=\"55%\">· expired 4 hours ago, awaiting deletion</span>",
      "2026-12-05 10:03:07 · expired 4 hours ago, awaiting deletion",
      "N · 2026-12-05 10:03:07", "N · 1796464987" },
    { "S:soon", TRUE, "soon", "soon <span alpha=\"55%\">· no expiry (not a number)</span>",
      "no expiry (not a number)", "S", "S · soon" },
    { "1796479387000", TRUE, "1796479387000",
      "1796479387000 <span alpha=\"55%\">· no expiry (milliseconds, not seconds)</span>",
      "2026-12-05 14:03:07.000 · no expiry (milliseconds, not seconds)",
      "N · 2026-12-05 14:03:07.000", "N · 1796479387000" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const CellCase *c = &cases[i];
      g_autoptr (DdbValue) value = value_of (c->value);
      const char *expected[] = { c->off, c->beside, c->instead };
      const char *tips[] = { ddb_type_name (value->type), c->tip_beside, c->tip_instead };

      for (int mode = DY_GRID_TIME_OFF; mode <= DY_GRID_TIME_INSTEAD; mode++)
        {
          g_autofree char *tooltip = NULL;
          g_autofree char *markup = dy_grid_cell_markup (value, mode, c->ttl, NOW, &tooltip);

          if (g_strcmp0 (markup, expected[mode]) != 0 || g_strcmp0 (tooltip, tips[mode]) != 0)
            g_error ("%s, mode %d%s: \"%s\" (tooltip \"%s\"), expected \"%s\" (\"%s\")",
                     c->value, mode, c->ttl ? ", TTL" : "", markup, tooltip, expected[mode],
                     tips[mode]);
          /* whatever the value, the markup parses */
          g_assert_true (pango_parse_markup (markup, -1, 0, NULL, NULL, NULL, NULL));
        }
    }
  /* an item without the attribute: an empty cell */
  {
    g_autofree char *tooltip = NULL;
    g_autofree char *markup = dy_grid_cell_markup (NULL, DY_GRID_TIME_BESIDE, TRUE, NOW,
                                                   &tooltip);

    g_assert_cmpstr (markup, ==, "");
    g_assert_null (tooltip);
  }
}

int
main (int argc, char **argv)
{
  /* the local zone of these dates, and English words */
  g_setenv ("TZ", "UTC", TRUE);
  g_setenv ("LANGUAGE", "C", TRUE);
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/times/ttl-phrases", test_ttl_phrases);
  g_test_add_func ("/times/ttl-states", test_ttl_states);
  g_test_add_func ("/times/cell-markup", test_cell_markup);
  return g_test_run ();
}
