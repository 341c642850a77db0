/* generate-values.c: the values generated items are made of (see generate-private.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/generate-private.h"

static const char *const words[] = {
  "acme",       "globex",    "initech",  "umbrella", "hooli",  "stark",   "wayne",    "wonka",
  "tyrell",     "cyberdyne", "soylent",  "vandelay", "dunder", "pied",    "aperture", "oscorp",
  "massive",    "gringotts", "monarch",  "nakatomi", "duff",   "krusty",  "bluth",    "sterling",
  "ollivander", "prestige",  "virtucon", "zorg",     "rekall", "weyland", "yoyodyne", "octan",
};

static const char *const countries[] = {
  "US", "DE", "FR", "JP", "BR", "GB", "IN", "CA", "AU", "ES", "IT", "NL", "SE", "MX", "KR", "PL",
};

static const char *const statuses[] = { "active", "paused", "done", "archived", "draft" };
static const char *const plans[] = { "free", "team", "business", "enterprise" };
static const char *const first_names[]
    = { "Ada",      "Grace",  "Alan",    "Edsger", "Barbara", "Ken",
        "Margaret", "Dennis", "Frances", "Linus",  "Radia",   "Donald" };
static const char *const last_names[]
    = { "Lovelace", "Hopper",  "Turing", "Dijkstra", "Liskov",  "Thompson",
        "Hamilton", "Ritchie", "Allen",  "Torvalds", "Perlman", "Knuth" };
static const char *const lorem[]
    = { "fast", "ledger", "edge",   "cache",   "billing", "review", "launch", "draft",
        "sync", "audit",  "report", "migrate", "search",  "index",  "stream", "batch" };

gboolean
dy_gen_ends_with_ci (const char *s, const char *suffix)
{
  gsize ls = strlen (s), lx = strlen (suffix);
  return ls >= lx && g_ascii_strcasecmp (s + ls - lx, suffix) == 0;
}

gboolean
dy_gen_is_time_name (const char *name)
{
  gsize len = strlen (name);
  return (len > 2 && g_str_has_suffix (name, "At")) || dy_gen_ends_with_ci (name, "date")
         || dy_gen_ends_with_ci (name, "time") || dy_gen_ends_with_ci (name, "timestamp")
         || g_ascii_strcasecmp (name, "ts") == 0;
}

gboolean
dy_gen_all_digits (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}

static const char *
pick (GRand *rand, const char *const *list, gsize n)
{
  return list[g_rand_int_range (rand, 0, (gint32) n)];
}

#define PICK(rand, list) pick ((rand), (list), G_N_ELEMENTS (list))

char *
dy_gen_iso_time (gint64 t)
{
  g_autoptr (GDateTime) dt = g_date_time_new_from_unix_utc (t);
  return g_date_time_format (dt, "%Y-%m-%dT%H:%M:%SZ");
}

char *
dy_gen_time_part (gint64 t, const char *format)
{
  g_autoptr (GDateTime) dt = g_date_time_new_from_unix_utc (t);
  g_autofree char *text = g_date_time_format (dt, format);
  /* Numbers without their padding: a template pads them itself. */
  return g_strdup_printf ("%d", atoi (text));
}

/* ---- Attribute values ---- */

static json_t *
random_binary (GRand *rand)
{
  guint len = g_rand_int_range (rand, 4, 33);
  guchar buf[32];
  for (guint i = 0; i < len; i++)
    buf[i] = (guchar) g_rand_int_range (rand, 0, 256);
  g_autofree char *b64 = g_base64_encode (buf, len);
  return json_string (b64);
}

static char *
random_number (GRand *rand, const char *name)
{
  static const char *const money[] = { "total", "price", "budget", "amount", "cost", "balance" };
  for (gsize i = 0; i < G_N_ELEMENTS (money); i++)
    if (dy_gen_ends_with_ci (name, money[i]))
      return g_strdup_printf ("%d.%02d", g_rand_int_range (rand, 0, 100000),
                              g_rand_int_range (rand, 0, 100));
  if (dy_gen_ends_with_ci (name, "qty") || dy_gen_ends_with_ci (name, "quantity"))
    return g_strdup_printf ("%u", (guint) floor (pow (g_rand_double (rand), 2) * 9) + 1);
  /* Counts: mostly small, a few large. */
  return g_strdup_printf ("%u", (guint) floor (pow (g_rand_double (rand), 3) * 1000));
}

static char *
random_string (GRand *rand, const char *name, gint64 t)
{
  if (dy_gen_is_time_name (name))
    return dy_gen_iso_time (t);
  if (dy_gen_ends_with_ci (name, "email"))
    return g_strdup_printf ("%s.%u@example.com", PICK (rand, words),
                            g_rand_int_range (rand, 1, 1000));
  if (dy_gen_ends_with_ci (name, "status") || dy_gen_ends_with_ci (name, "state"))
    return g_strdup (PICK (rand, statuses));
  if (dy_gen_ends_with_ci (name, "plan") || dy_gen_ends_with_ci (name, "tier"))
    return g_strdup (PICK (rand, plans));
  if (dy_gen_ends_with_ci (name, "name") || dy_gen_ends_with_ci (name, "by")
      || dy_gen_ends_with_ci (name, "owner"))
    return g_strdup_printf ("%s %s", PICK (rand, first_names), PICK (rand, last_names));
  if (dy_gen_ends_with_ci (name, "country"))
    return g_strdup (PICK (rand, countries));
  guint n_words = dy_gen_ends_with_ci (name, "text") || dy_gen_ends_with_ci (name, "description")
                          || dy_gen_ends_with_ci (name, "body")
                      ? (guint) g_rand_int_range (rand, 6, 16)
                      : (guint) g_rand_int_range (rand, 1, 4);
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < n_words; i++)
    {
      if (i > 0)
        g_string_append_c (s, ' ');
      g_string_append (s, PICK (rand, lorem));
    }
  if (dy_gen_ends_with_ci (name, "title") && s->len > 0)
    s->str[0] = g_ascii_toupper (s->str[0]);
  return g_string_free (s, FALSE);
}

/* A set (TYPE SS, NS or BS) of 1 to 4 distinct members. */
static json_t *
random_set (GRand *rand, const char *type)
{
  json_t *set = json_array ();
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint want = g_rand_int_range (rand, 1, 5);
  for (guint tries = 0; json_array_size (set) < want && tries < 50; tries++)
    {
      char *v;
      if (g_str_equal (type, "SS"))
        v = g_strdup (PICK (rand, lorem));
      else if (g_str_equal (type, "NS"))
        v = g_strdup_printf ("%d", g_rand_int_range (rand, -50, 1000));
      else
        {
          json_auto_t *b = random_binary (rand);
          v = g_strdup (json_string_value (b));
        }
      if (!g_hash_table_add (seen, v))
        continue;
      json_array_append_new (set, json_string (v));
    }
  return set;
}

json_t *
dy_gen_attr_value (GRand *rand, const char *name, const char *type, const char *known, gint64 t)
{
  if (type == NULL || g_str_equal (type, "S"))
    {
      g_autofree char *s = known ? g_strdup (known) : random_string (rand, name, t);
      return json_pack ("{s:s}", "S", s);
    }
  if (g_str_equal (type, "N"))
    {
      g_autofree char *s = known && g_ascii_isdigit (known[0]) && dy_gen_all_digits (known)
                               ? g_strdup (known)
                               : random_number (rand, name);
      return json_pack ("{s:s}", "N", s);
    }
  if (g_str_equal (type, "B"))
    return json_pack ("{s:o}", "B", random_binary (rand));
  if (g_str_equal (type, "BOOL"))
    return json_pack ("{s:b}", "BOOL", g_rand_boolean (rand));
  if (g_str_equal (type, "NULL"))
    return json_pack ("{s:b}", "NULL", TRUE);
  if (g_str_equal (type, "SS") || g_str_equal (type, "NS") || g_str_equal (type, "BS"))
    return json_pack ("{s:o}", type, random_set (rand, type));
  if (g_str_equal (type, "L"))
    {
      json_t *list = json_array ();
      guint n = g_rand_int_range (rand, 1, 4);
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *ref = g_strdup_printf ("U#%u", g_rand_int_range (rand, 1, 100));
          json_array_append_new (list, json_pack ("{s:s}", "S", ref));
        }
      return json_pack ("{s:o}", "L", list);
    }
  if (g_str_equal (type, "M"))
    {
      g_autofree char *count = random_number (rand, "count");
      return json_pack ("{s:{s:{s:s}, s:{s:s}, s:{s:b}}}", "M", "label", "S", PICK (rand, lorem),
                        "count", "N", count, "enabled", "BOOL", g_rand_boolean (rand));
    }
  g_autofree char *s = random_string (rand, name, t);
  return json_pack ("{s:s}", "S", s);
}

const char *
dy_gen_word (GRand *rand)
{
  return PICK (rand, words);
}

const char *
dy_gen_country (GRand *rand)
{
  return PICK (rand, countries);
}
