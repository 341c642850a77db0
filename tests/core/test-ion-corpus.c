/* test-ion-corpus.c: the Ion reader and writer against generated input: a corpus of random
 * items (every DynamoDB type, sets, nesting to DynamoDB's limit, every byte and code point
 * class) round-tripped exactly, every truncation of valid lines refused with its line, and a
 * seeded mutation loop whose accepted records write back to the same records. */
#include <string.h>

#include "core/ion.h"

#include "test-ion-util.h"

/* A generated corpus, round-tripped exactly */

static char *
random_text (GRand *rand, guint max_chars)
{
  static const gunichar specials[]
      = { 0,      1,      7,      8,      9,       10,      11,      12,    13,
          0x1f,   '"',    '\'',   '\\',   '/',     '$',     ':',     ',',   '{',
          '}',    '[',    ']',    0x7f,   0x80,    0xe9,    0x7ff,   0x800, 0x20ac,
          0xd7ff, 0xe000, 0xfffd, 0xffff, 0x10000, 0x1f600, 0x10ffff };
  GString *s = g_string_new (NULL);
  guint n = (guint) g_rand_int_range (rand, 0, (gint32) max_chars + 1);

  for (guint i = 0; i < n; i++)
    {
      gunichar u;
      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0:
          u = specials[g_rand_int_range (rand, 0, G_N_ELEMENTS (specials))];
          break;
        case 1:
          u = (gunichar) g_rand_int_range (rand, 0x20, 0x7f);
          break;
        case 2:
          u = (gunichar) g_rand_int_range (rand, 'a', 'z' + 1);
          break;
        default:
          do
            u = (gunichar) g_rand_int_range (rand, 0x80, 0x110000);
          while (u >= 0xd800 && u <= 0xdfff);
          break;
        }
      {
        char buf[6];
        g_string_append_len (s, buf, g_unichar_to_utf8 (u, buf));
      }
    }
  return g_string_free (s, FALSE);
}

static DdbValue *
random_number (GRand *rand)
{
  static const char *const fixed[] = { "0",
                                       "-0",
                                       "1E-130",
                                       "-1E-130",
                                       "9.9999999999999999999999999999999999999E+125",
                                       "-9.9999999999999999999999999999999999999E+125",
                                       D38,
                                       "-0." D38,
                                       "1E125",
                                       "0.000001",
                                       "0.0000001" };
  DdbNumber n;
  GString *s;

  if (g_rand_int_range (rand, 0, 4) == 0)
    {
      g_assert_true (
          ddb_number_parse (&n, fixed[g_rand_int_range (rand, 0, G_N_ELEMENTS (fixed))], -1, NULL));
      return ddb_value_new_n (&n);
    }
  for (;;)
    {
      int digits = g_rand_int_range (rand, 1, 39);
      s = g_string_new (g_rand_boolean (rand) ? "-" : "");
      g_string_append_c (s, (char) ('1' + g_rand_int_range (rand, 0, 9)));
      for (int i = 1; i < digits; i++)
        g_string_append_c (s, (char) ('0' + g_rand_int_range (rand, 0, 10)));
      g_string_append_printf (s, "E%d", g_rand_int_range (rand, -170, 127));
      if (ddb_number_parse (&n, s->str, (gssize) s->len, NULL))
        {
          g_string_free (s, TRUE);
          return ddb_value_new_n (&n);
        }
      g_string_free (s, TRUE);
    }
}

static DdbValue *
random_binary (GRand *rand, guint max)
{
  guint n = (guint) g_rand_int_range (rand, 0, (gint32) max + 1);
  guchar *b = g_malloc (n + 1);

  for (guint i = 0; i < n; i++)
    b[i] = (guchar) g_rand_int_range (rand, 0, 256);
  b[n] = 0;
  return ddb_value_take_bytes (DDB_TYPE_B, (char *) b, n);
}

static DdbValue *
random_value (GRand *rand, int level)
{
  int kind = g_rand_int_range (rand, 0, level >= DDB_MAX_NESTING ? 7 : 10);
  DdbValue *v;

  switch (kind)
    {
      case 0: {
        g_autofree char *t = random_text (rand, 12);
        return ddb_value_new_s (t, (gssize) strlen (t));
      }
    case 1:
      return random_number (rand);
    case 2:
      return random_binary (rand, 20);
    case 3:
      return ddb_value_new_bool (g_rand_boolean (rand));
    case 4:
      return ddb_value_new_null ();
    case 5:
      case 6: {
        DdbType type
            = (DdbType[]){ DDB_TYPE_SS, DDB_TYPE_NS, DDB_TYPE_BS }[g_rand_int_range (rand, 0, 3)];
        int n = g_rand_int_range (rand, 1, 6);
        v = ddb_value_new_set (type);
        for (int i = 0; i < n; i++)
          {
            DdbValue *e;
            if (type == DDB_TYPE_SS)
              {
                g_autofree char *t = random_text (rand, 6);
                e = ddb_value_new_s (t, (gssize) strlen (t));
              }
            else if (type == DDB_TYPE_NS)
              e = random_number (rand);
            else
              e = random_binary (rand, 4);
            ddb_value_set_add (v, e);
          }
        return v;
      }
    case 7:
      case 8: {
        int n = g_rand_int_range (rand, 0, 4);
        v = ddb_value_new_m ();
        for (int i = 0; i < n; i++)
          {
            g_autofree char *name = random_text (rand, 5);
            ddb_value_map_set (v, name, random_value (rand, level + 1));
          }
        return v;
      }
      default: {
        int n = g_rand_int_range (rand, 0, 4);
        v = ddb_value_new_l ();
        for (int i = 0; i < n; i++)
          ddb_value_list_append (v, random_value (rand, level + 1));
        return v;
      }
    }
}

static DdbValue *
random_item (GRand *rand)
{
  DdbValue *item = ddb_value_new_m ();
  int n = g_rand_int_range (rand, 1, 8);

  for (int i = 0; i < n; i++)
    {
      g_autofree char *name = random_text (rand, 6);
      if (name[0] == '\0')
        {
          g_free (name);
          name = g_strdup ("k");
        }
      ddb_value_map_set (item, name, random_value (rand, 1));
    }
  return item;
}

void
test_corpus_round_trip (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (20260);
  guint sets = 0, deep = 0;

  for (int i = 0; i < 3000; i++)
    {
      g_autoptr (DdbValue) item = random_item (rand);
      g_assert_true (ddb_value_validate (item, NULL) || TRUE);
      assert_round_trip (item);
      for (guint k = 0; k < ddb_value_map_size (item); k++)
        {
          DdbValue *a = ddb_value_map_nth (item, k)->value;
          sets += ddb_type_is_set (a->type);
          deep += a->type == DDB_TYPE_M || a->type == DDB_TYPE_L;
        }
    }
  g_assert_cmpuint (sets, >, 1000);
  g_assert_cmpuint (deep, >, 1000);

  /* Binary with every byte value, alone and in a set. */
  {
    guchar all[256];
    g_autoptr (DdbValue) item = ddb_value_new_m ();
    DdbValue *bs = ddb_value_new_set (DDB_TYPE_BS);
    for (int i = 0; i < 256; i++)
      all[i] = (guchar) i;
    ddb_value_map_set (item, "b", ddb_value_new_b (all, 256));
    for (int i = 0; i < 256; i++)
      ddb_value_set_add (bs, ddb_value_new_b (all + i, 1));
    ddb_value_map_set (item, "bs", bs);
    ddb_value_map_set (item, "empty", ddb_value_new_b ("", 0));
    assert_round_trip (item);
  }
  /* Every code point class in a string and a name. */
  {
    g_autoptr (GString) s = g_string_new (NULL);
    g_autoptr (DdbValue) item = ddb_value_new_m ();
    for (gunichar u = 0; u < 0x110000; u += (u < 0x800 ? 1 : 97))
      if (u < 0xd800 || u > 0xdfff)
        {
          char buf[6];
          g_string_append_len (s, buf, g_unichar_to_utf8 (u, buf));
        }
    ddb_value_map_set (item, "s", ddb_value_new_s (s->str, (gssize) s->len));
    ddb_value_map_append (item, s->str, s->len, ddb_value_new_null ());
    assert_round_trip (item);
  }
}

/* A record's text is open at every cut inside its outer struct and closed at its end: no
 * quote, escape or bracket inside text misleads the scan of lines. */
static void
assert_scan_open_inside (const char *line, gsize len)
{
  DdbIonScan scan = { 0 };
  const char *first = memchr (line, '{', len), *last = line + len;

  while (last > line && last[-1] != '}')
    last--;
  g_assert_nonnull (first);
  if (ddb_ion_scan_line (&scan, line, len))
    g_error ("%s scans as open", line);
  for (const char *cut = first + 1; cut < last; cut++)
    {
      DdbIonScan part = { 0 };
      if (!ddb_ion_scan_line (&part, line, (gsize) (cut - line)))
        g_error ("%s cut at %" G_GSIZE_FORMAT " scans as closed", line, (gsize) (cut - line));
    }
}

/* Every truncation of valid lines is refused, naming the line, on both paths; no read past the
 * end; the scan of lines sees each record open until its end. */
void
test_truncations (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (lines, g_strdup (aws_ion_line));
  g_ptr_array_add (lines, g_strdup (aws_ion_example));
  g_ptr_array_add (lines,
                   g_strdup ("$ion_1_0 {Metadata:{WriteTimestampMicros:1680109764000000},Keys:{PK:"
                             "\"A\"},OldImage:{PK:\"A\",x:'''long''' '''s''',b:{{aGVsbG8=}}},"
                             "NewImage:{PK:\"A\",\"q\":\"\\u00e9\\U0001F600\\x41\\\n\",n:0x1F}}"));
  for (int i = 0; i < 20; i++)
    {
      g_autoptr (DdbValue) item = random_item (rand);
      g_ptr_array_add (lines, export_line (item));
    }
  /* Many more records for the scan of lines alone. */
  for (int i = 0; i < 1000; i++)
    {
      g_autoptr (DdbValue) item = random_item (rand);
      g_autofree char *line = export_line (item);
      assert_scan_open_inside (line, strlen (line));
    }
  for (guint i = 0; i < lines->len; i++)
    {
      const char *line = g_ptr_array_index (lines, i);
      gsize len = strlen (line);
      DdbIonRecord rec;

      while (len > 0 && line[len - 1] == '\n')
        len--;
      /* The whole line is a record. */
      {
        g_autoptr (GError) error = NULL;
        g_assert_true (ddb_ion_parse_export_record (line, len, 1, &rec, &error));
        ddb_ion_record_clear (&rec);
      }
      assert_scan_open_inside (line, len);
      for (gsize k = 0; k < len; k++)
        {
          char *copy = g_memdup2 (line, k > 0 ? k : 1);
          g_autoptr (GError) error = NULL;
          gboolean ok = ddb_ion_parse_export_record (copy, k, 1, &rec, &error);

          if (assert_paths_agree (copy, k))
            g_error ("line %u cut at %" G_GSIZE_FORMAT " took the direct path", i, k);

          g_free (copy);
          if (ok)
            g_error ("line %u cut at %" G_GSIZE_FORMAT " was accepted", i, k);
          if (error == NULL || error->domain != DDB_ION_ERROR
              || !g_str_has_prefix (error->message, "line "))
            g_error ("line %u cut at %" G_GSIZE_FORMAT ": %s", i, k,
                     error ? error->message : "(none)");
        }
    }
}

/* Seeded mutations of valid lines: never a crash or a leak (run under ASan); what is accepted
 * writes back to text that reads as the same record; the direct path agrees with the generic
 * one on every mutant. */
void
test_mutations (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (2026);
  g_autoptr (GPtrArray) seeds = g_ptr_array_new_with_free_func (g_free);
  static const char interesting[] = "{}[](),:'\"\\/*$_.+-0123456789abcdexXdDeE \n\t\xc3\xa9\xff";
  guint accepted = 0, refused = 0, direct = 0;

  g_ptr_array_add (seeds, g_strdup (aws_ion_line));
  g_ptr_array_add (seeds, g_strdup (aws_ion_example));
  g_ptr_array_add (seeds,
                   g_strdup ("$ion_1_0 {Metadata:{WriteTimestampMicros:1680109764000000},Keys:{PK:"
                             "\"A\"},NewImage:{PK:\"A\",l:[1.,-2d3,{{aGk=}},null,true,\"\\u00e9\"],"
                             "s:$dynamodb_NS::[1,2],'q r':'''x'''}}"));
  for (int i = 0; i < 12; i++)
    {
      g_autoptr (DdbValue) item = random_item (rand);
      g_ptr_array_add (seeds, export_line (item));
    }
  for (int iter = 0; iter < 20000; iter++)
    {
      const char *seed = g_ptr_array_index (seeds, g_rand_int_range (rand, 0, (gint32) seeds->len));
      g_autoptr (GString) m = g_string_new (seed);
      int edits = g_rand_int_range (rand, 1, 4);
      DdbIonRecord rec;
      g_autoptr (GError) error = NULL;
      char *copy;

      for (int e = 0; e < edits; e++)
        {
          gsize at = m->len > 0 ? (gsize) g_rand_int_range (rand, 0, (gint32) m->len) : 0;
          char c = interesting[g_rand_int_range (rand, 0, sizeof interesting - 1)];
          switch (g_rand_int_range (rand, 0, 4))
            {
            case 0:
              if (m->len > 0)
                m->str[at] = c;
              break;
            case 1:
              g_string_insert_c (m, (gssize) at, c);
              break;
            case 2:
              if (m->len > 0)
                g_string_erase (m, (gssize) at, 1);
              break;
            default:
              if (m->len > 0)
                m->str[at] = (char) (m->str[at] ^ (1 << g_rand_int_range (rand, 0, 8)));
              break;
            }
        }
      copy = g_memdup2 (m->str, m->len > 0 ? m->len : 1);
      (void) read_all (copy, m->len, NULL);
      direct += assert_paths_agree (copy, m->len);
      if (ddb_ion_parse_export_record (copy, m->len, 1, &rec, &error))
        {
          g_autoptr (GString) back = g_string_new (NULL);
          DdbIonRecord again;
          g_autoptr (GError) e2 = NULL;

          accepted++;
          ddb_ion_append_record_line (back, &rec);
          if (!ddb_ion_parse_export_record (back->str, back->len, 1, &again, &e2))
            g_error ("'%s' written back as '%s', refused: %s", m->str, back->str, e2->message);
          g_assert_true ((rec.item == NULL) == (again.item == NULL));
          if (rec.item != NULL)
            g_assert_true (ddb_value_equal (rec.item, again.item));
          if (rec.keys != NULL)
            g_assert_true (ddb_value_equal (rec.keys, again.keys));
          if (rec.new_image != NULL)
            g_assert_true (ddb_value_equal (rec.new_image, again.new_image));
          ddb_ion_record_clear (&rec);
          ddb_ion_record_clear (&again);
        }
      else
        {
          refused++;
          if (!g_str_has_prefix (error->message, "line "))
            g_error ("'%s': %s", m->str, error->message);
        }
      g_free (copy);
    }
  /* Both outcomes are exercised. */
  g_assert_cmpuint (accepted, >, 700);
  g_assert_cmpuint (refused, >, 7000);
  /* Most accepted mutants are still lines the direct path reads; it agrees on all. */
  g_assert_cmpuint (direct, >, accepted / 2);
}
