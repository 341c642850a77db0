/* test-keycodec.c: the key codec's memcmp order is DynamoDB's key order, it round-trips, and it
 * refuses malformed input. */
#include <string.h>

#include "core/error.h"
#include "core/keycodec.h"
#include "core/number.h"
#include "core/value.h"

#include "test-util.h"

/* Appended after encodings to check that decoding stops at the end of the key. */
static const guint8 trailer[] = { 0x00, 0xFF, 0x01, 0x42 };

static int
sign_of (int x)
{
  return (x > 0) - (x < 0);
}

static int
bytes_compare (const void *a, gsize alen, const void *b, gsize blen)
{
  gsize common = MIN (alen, blen);
  int c = common > 0 ? memcmp (a, b, common) : 0;

  if (c != 0)
    return sign_of (c);
  return (alen > blen) - (alen < blen);
}

/* DynamoDB's key order, computed independently of the codec. */
static int
key_compare (const DdbValue *a, const DdbValue *b)
{
  g_assert_cmpint (a->type, ==, b->type);
  if (a->type == DDB_TYPE_N)
    return sign_of (ddb_number_compare (&a->number, &b->number));
  return bytes_compare (a->bytes.data, a->bytes.len, b->bytes.data, b->bytes.len);
}

static GBytes *
encode (const DdbValue *v)
{
  GByteArray *out = g_byte_array_new ();
  GError *error = NULL;

  g_assert_true (ddb_key_encode (v, out, &error));
  g_assert_no_error (error);
  return g_byte_array_free_to_bytes (out);
}

static int
encoded_compare (GBytes *a, GBytes *b)
{
  gsize alen, blen;
  const guint8 *ad = g_bytes_get_data (a, &alen);
  const guint8 *bd = g_bytes_get_data (b, &blen);

  return bytes_compare (ad, alen, bd, blen);
}

static char *
describe (const DdbValue *v)
{
  if (v->type == DDB_TYPE_N)
    return ddb_number_to_string (&v->number);
  return g_strescape (v->bytes.data, NULL);
}

static void
assert_order_matches (GPtrArray *values)
{
  g_autoptr (GPtrArray) encoded = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (guint i = 0; i < values->len; i++)
    g_ptr_array_add (encoded, encode (values->pdata[i]));

  for (guint i = 0; i < values->len; i++)
    for (guint j = 0; j < values->len; j++)
      {
        int expected = key_compare (values->pdata[i], values->pdata[j]);
        int got = encoded_compare (encoded->pdata[i], encoded->pdata[j]);

        if (expected != got)
          {
            g_autofree char *a = describe (values->pdata[i]);
            g_autofree char *b = describe (values->pdata[j]);

            g_error ("order of %s vs %s: expected %d, encoding gives %d", a, b, expected, got);
          }
      }
}

/* Decodes `v`'s encoding (also with bytes after it) and checks it gives `v` back, using all of
 * the encoding and nothing more. */
static void
assert_round_trip (const DdbValue *v)
{
  g_autoptr (GBytes) enc = encode (v);
  gsize len;
  const guint8 *data = g_bytes_get_data (enc, &len);
  g_autofree guint8 *exact = g_memdup2 (data, len);
  g_autofree guint8 *longer = g_malloc (len + sizeof trailer);
  GError *error = NULL;
  gsize consumed = 0;
  g_autoptr (DdbValue) back = NULL;
  g_autoptr (DdbValue) back2 = NULL;

  /* An exact-size heap copy lets ASan catch any read past the end. */
  back = ddb_key_decode (v->type, exact, len, &consumed, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  g_assert_cmpuint (consumed, ==, len);
  g_assert_true (ddb_value_equal (v, back));
  if (v->type == DDB_TYPE_N)
    {
      /* Decoding gives the normalized number, field by field. */
      g_assert_cmpint (back->number.negative, ==, v->number.negative);
      g_assert_cmpint (back->number.ndigits, ==, v->number.ndigits);
      g_assert_cmpint (back->number.exponent, ==, v->number.exponent);
      g_assert_cmpmem (back->number.d, back->number.ndigits, v->number.d, v->number.ndigits);
    }
  else
    {
      g_assert_cmpmem (back->bytes.data, back->bytes.len, v->bytes.data, v->bytes.len);
      g_assert_cmpint (back->bytes.data[back->bytes.len], ==, '\0');
    }

  memcpy (longer, data, len);
  memcpy (longer + len, trailer, sizeof trailer);
  consumed = 0;
  back2 = ddb_key_decode (v->type, longer, len + sizeof trailer, &consumed, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (consumed, ==, len);
  g_assert_true (ddb_value_equal (v, back2));

  /* Self-delimiting: no proper prefix of an encoding is itself a valid encoding. */
  for (gsize cut = 0; cut < len; cut++)
    {
      g_autofree guint8 *prefix = g_memdup2 (data, cut);
      DdbValue *bad = ddb_key_decode (v->type, prefix, cut, &consumed, &error);

      g_assert_null (bad);
      g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
      g_assert_true (g_str_has_prefix (error->message, "Malformed encoded key: "));
      g_clear_error (&error);
    }
}

/* Edge cases and the values of the DESIGN order example. */
static const char *const edge_numbers[] = {
  "0",
  "-0",
  "1",
  "-1",
  "1.0",
  "1E0",
  "10E-1",
  "0.5",
  "-0.5",
  "1.5",
  "-1.5",
  "2",
  "-2",
  "10",
  "-10",
  "11",
  "99",
  "100",
  "101",
  "110",
  "0.1",
  "0.01",
  "0.001",
  "0.11",
  "0.12",
  "0.123",
  "0.1203",
  "0.1299",
  "1E-130",
  "-1E-130",
  "2E-130",
  "1.1E-130",
  "9E-130",
  "1E-129",
  "1E+125",
  "-1E+125",
  "1E+124",
  "9.9999999999999999999999999999999999999E+125",
  "-9.9999999999999999999999999999999999999E+125",
  "9.9999999999999999999999999999999999998E+125",
  "12345678901234567890123456789012345678",
  "-12345678901234567890123456789012345678",
  "1.2345678901234567890123456789012345678",
  "1.0000000000000000000000000000000000001",
  "-1.0000000000000000000000000000000000001",
  "0.99999999999999999999999999999999999999",
  "99999999999999999999999999999999999999",
  "100000000000000000000000000000000000000",
  "12345",
  "-12345",
  "12345.6789",
  "1234567890123456789",
};

static DdbValue *
random_number (void)
{
  DdbNumber n;
  gboolean small_alphabet = g_test_rand_bit ();
  static const guint8 alphabet[] = { 0, 1, 9 };

  memset (&n, 0, sizeof n);
  if (g_test_rand_int_range (0, 25) == 0)
    return ddb_value_new_n (&n);

  n.negative = g_test_rand_bit ();
  switch (g_test_rand_int_range (0, 4))
    {
    case 0:
      n.ndigits = (guint8) g_test_rand_int_range (1, 4);
      break;
    case 1:
      n.ndigits = (guint8) g_test_rand_int_range (1, 9);
      break;
    case 2:
      n.ndigits = (guint8) g_test_rand_int_range (30, DDB_NUMBER_MAX_DIGITS + 1);
      break;
    default:
      n.ndigits = (guint8) g_test_rand_int_range (1, DDB_NUMBER_MAX_DIGITS + 1);
      break;
    }
  for (guint i = 0; i < n.ndigits; i++)
    n.d[i] = small_alphabet ? alphabet[g_test_rand_int_range (0, 3)]
                            : (guint8) g_test_rand_int_range (0, 10);
  if (n.d[0] == 0)
    n.d[0] = 1;
  if (n.d[n.ndigits - 1] == 0)
    n.d[n.ndigits - 1] = 9;
  /* Mostly a narrow exponent window, so that many numbers differ only in their digits. */
  if (g_test_rand_int_range (0, 4) != 0)
    n.exponent = g_test_rand_int_range (-3, 5);
  else
    n.exponent = g_test_rand_int_range (-129, 127);
  return ddb_value_new_n (&n);
}

static GPtrArray *
number_list (void)
{
  GPtrArray *values = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);

  for (guint i = 0; i < G_N_ELEMENTS (edge_numbers); i++)
    g_ptr_array_add (values, tu_num (edge_numbers[i]));
  for (guint i = 0; i < 300; i++)
    g_ptr_array_add (values, random_number ());
  return values;
}

static void
test_number_order (void)
{
  g_autoptr (GPtrArray) values = number_list ();

  assert_order_matches (values);
}

static void
test_number_chain (void)
{
  /* Strictly increasing, as DynamoDB sorts N keys. */
  static const char *const chain[] = {
    "-9.9999999999999999999999999999999999999E+125",
    "-1E+125",
    "-100",
    "-10",
    "-2",
    "-1.5",
    "-1.0000000000000000000000000000000000001",
    "-1",
    "-0.99999999999999999999999999999999999999",
    "-0.5",
    "-1E-129",
    "-1.1E-130",
    "-1E-130",
    "0",
    "1E-130",
    "1.1E-130",
    "1E-129",
    "0.5",
    "0.99999999999999999999999999999999999999",
    "1",
    "1.0000000000000000000000000000000000001",
    "1.5",
    "2",
    "10",
    "100",
    "1E+125",
    "9.9999999999999999999999999999999999999E+125",
  };
  g_autoptr (GPtrArray) encoded = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (guint i = 0; i < G_N_ELEMENTS (chain); i++)
    {
      g_autoptr (DdbValue) v = tu_num (chain[i]);

      g_ptr_array_add (encoded, encode (v));
    }
  for (guint i = 1; i < G_N_ELEMENTS (chain); i++)
    {
      if (encoded_compare (encoded->pdata[i - 1], encoded->pdata[i]) >= 0)
        g_error ("%s does not encode below %s", chain[i - 1], chain[i]);
    }
}

static void
test_number_equal_forms (void)
{
  static const char *const groups[][6] = {
    { "1", "1.0", "1E0", "10E-1", "0.1e1", "1.000000" },
    { "0", "-0", "0.000", "0E5", "-0.0e-7", "000" },
    { "-1.5", "-1.50", "-15E-1", "-0.15E1", "-150e-2", "-001.5" },
    { "100", "1E2", "1e+2", "100.0", "0.001E5", "10E1" },
  };

  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      g_autoptr (DdbValue) first = tu_num (groups[g][0]);
      g_autoptr (GBytes) first_enc = encode (first);

      for (guint i = 1; i < G_N_ELEMENTS (groups[g]); i++)
        {
          g_autoptr (DdbValue) other = tu_num (groups[g][i]);
          g_autoptr (GBytes) other_enc = encode (other);

          if (!g_bytes_equal (first_enc, other_enc))
            g_error ("%s and %s encode differently", groups[g][0], groups[g][i]);
        }
    }
}

static void
test_number_round_trip (void)
{
  g_autoptr (GPtrArray) values = number_list ();

  for (guint i = 0; i < values->len; i++)
    assert_round_trip (values->pdata[i]);

  /* "-0" decodes as the one zero. */
  {
    g_autoptr (DdbValue) minus_zero = tu_num ("-0");
    g_autoptr (GBytes) enc = encode (minus_zero);
    g_autoptr (DdbValue) back = ddb_key_decode (DDB_TYPE_N, g_bytes_get_data (enc, NULL),
                                                g_bytes_get_size (enc), NULL, NULL);
    g_autofree char *text = ddb_number_to_string (&back->number);

    g_assert_cmpstr (text, ==, "0");
    g_assert_false (back->number.negative);
  }
}

static void
assert_encoding (const DdbValue *v, const void *expected, gsize expected_len)
{
  g_autoptr (GBytes) enc = encode (v);

  g_assert_cmpmem (g_bytes_get_data (enc, NULL), g_bytes_get_size (enc), expected, expected_len);
}

static void
test_golden (void)
{
  /* The layout is stored on disk: a change here must be deliberate. */
  static const struct {
    const char *number;
    const char *bytes;
    gsize len;
  } numbers[] = {
    { "0", "\x02", 1 },
    { "1", "\x03\x82\x0B\x00", 4 },        /* exponent 1 -> 130, digits "1"+pad -> 1 + 10 */
    { "-1", "\x01\x7D\xF4\xFF", 4 },       /* the same, complemented */
    { "12.5", "\x03\x83\x0D\x33\x00", 5 }, /* 0.125E2: pairs 12, 50 -> 13, 51 */
    { "1E-130", "\x03\x00\x0B\x00", 4 },
    { "1E+125", "\x03\xFF\x0B\x00", 4 },
  };
  g_autoptr (DdbValue) ab = ddb_value_new_s ("ab", 2);
  g_autoptr (DdbValue) with_zero = ddb_value_new_b ("a\0b", 3);
  g_autoptr (DdbValue) empty = ddb_value_new_s ("", 0);

  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      g_autoptr (DdbValue) v = tu_num (numbers[i].number);

      assert_encoding (v, numbers[i].bytes, numbers[i].len);
    }
  assert_encoding (ab, "ab\x00\x01", 4);
  assert_encoding (with_zero,
                   "a\x00\xFF"
                   "b\x00\x01",
                   6);
  assert_encoding (empty, "\x00\x01", 2);
}

/* Code points chosen to hit the UTF-8 length boundaries and U+0000. */
static const gunichar string_alphabet[]
    = { 0x0, 0x1, 'a', 'b', 0x7F, 0xE9, 0x800, 0xFFFF, 0x10000, 0x10FFFF };
static const guint8 binary_alphabet[] = { 0x00, 0x01, 0x02, 0x7F, 0x80, 0xFE, 0xFF };

static DdbValue *
random_string (void)
{
  g_autoptr (GString) s = g_string_new (NULL);
  int len = g_test_rand_int_range (0, 7);

  for (int i = 0; i < len; i++)
    g_string_append_unichar (
        s, string_alphabet[g_test_rand_int_range (0, G_N_ELEMENTS (string_alphabet))]);
  return ddb_value_new_s (s->str, (gssize) s->len);
}

static DdbValue *
random_binary (void)
{
  guint8 buf[8];
  int len = g_test_rand_int_range (0, (int) sizeof buf + 1);
  gboolean any_byte = g_test_rand_int_range (0, 4) == 0;

  for (int i = 0; i < len; i++)
    buf[i] = any_byte ? (guint8) g_test_rand_int_range (0, 256)
                      : binary_alphabet[g_test_rand_int_range (0, G_N_ELEMENTS (binary_alphabet))];
  return ddb_value_new_b (buf, (gsize) len);
}

static GPtrArray *
bytes_list (DdbType type)
{
  /* Prefix chains around zero bytes and the terminator/escape byte values. */
  static const struct {
    const char *data;
    gsize len;
  } edges[] = {
    { "", 0 },
    { "\0", 1 },
    { "\0\0", 2 },
    { "\x01", 1 },
    { "\0\x01", 2 },
    { "\0\x7F", 2 },
    { "a", 1 },
    { "a\0", 2 },
    { "a\0\0", 3 },
    { "a\x01", 2 },
    { "ab", 2 },
    { "ab\0", 3 },
    { "ab\0c", 4 },
    { "abc", 3 },
    { "abc\0", 4 },
    { "b", 1 },
    { "\x7F", 1 },
    { "\xC3\xA9", 2 },
    { "\xEF\xBF\xBF", 3 },
    { "\xF4\x8F\xBF\xBF", 4 },
  };
  static const struct {
    const char *data;
    gsize len;
  } binary_only[] = {
    { "\xFF", 1 },     { "\0\xFF", 2 }, { "\xFF\0", 2 },
    { "\xFF\xFF", 2 }, { "\x80", 1 },   { "\xFE\x01", 2 },
  };
  GPtrArray *values = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);

  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    g_ptr_array_add (values, type == DDB_TYPE_S
                                 ? ddb_value_new_s (edges[i].data, (gssize) edges[i].len)
                                 : ddb_value_new_b (edges[i].data, edges[i].len));
  if (type == DDB_TYPE_B)
    for (guint i = 0; i < G_N_ELEMENTS (binary_only); i++)
      g_ptr_array_add (values, ddb_value_new_b (binary_only[i].data, binary_only[i].len));
  for (guint i = 0; i < 250; i++)
    g_ptr_array_add (values, type == DDB_TYPE_S ? random_string () : random_binary ());
  return values;
}

static void
test_string_order (void)
{
  g_autoptr (GPtrArray) values = bytes_list (DDB_TYPE_S);

  assert_order_matches (values);
}

static void
test_binary_order (void)
{
  g_autoptr (GPtrArray) values = bytes_list (DDB_TYPE_B);

  assert_order_matches (values);
}

static void
test_prefix_chain (void)
{
  /* "ab" < "ab\0" < "ab\0\0" < "ab\x01" < "abc", for S and for B. */
  static const struct {
    const char *data;
    gsize len;
  } chain[] = { { "ab", 2 },    { "ab\0", 3 },   { "ab\0\0", 4 },
                { "ab\0a", 4 }, { "ab\x01", 3 }, { "abc", 3 } };

  for (DdbType type = DDB_TYPE_S; type <= DDB_TYPE_B; type += DDB_TYPE_B - DDB_TYPE_S)
    {
      g_autoptr (GPtrArray) encoded
          = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

      for (guint i = 0; i < G_N_ELEMENTS (chain); i++)
        {
          g_autoptr (DdbValue) v = type == DDB_TYPE_S
                                       ? ddb_value_new_s (chain[i].data, (gssize) chain[i].len)
                                       : ddb_value_new_b (chain[i].data, chain[i].len);

          g_ptr_array_add (encoded, encode (v));
        }
      for (guint i = 1; i < G_N_ELEMENTS (chain); i++)
        g_assert_cmpint (encoded_compare (encoded->pdata[i - 1], encoded->pdata[i]), <, 0);
    }
}

static void
test_bytes_round_trip (void)
{
  g_autoptr (GPtrArray) strings = bytes_list (DDB_TYPE_S);
  g_autoptr (GPtrArray) binaries = bytes_list (DDB_TYPE_B);

  for (guint i = 0; i < strings->len; i++)
    assert_round_trip (strings->pdata[i]);
  for (guint i = 0; i < binaries->len; i++)
    assert_round_trip (binaries->pdata[i]);
}

static GPtrArray *
small_key_list (DdbType type)
{
  GPtrArray *values = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);

  if (type == DDB_TYPE_N)
    {
      static const char *const numbers[] = { "-10", "-1", "-0.5", "0", "0.5", "1", "1.5", "10" };

      for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
        g_ptr_array_add (values, tu_num (numbers[i]));
    }
  else
    {
      static const struct {
        const char *data;
        gsize len;
      } bytes[] = { { "", 0 },     { "\0", 1 },    { "a", 1 },  { "a\0", 2 },
                    { "a\0b", 3 }, { "a\x01", 2 }, { "ab", 2 }, { "b", 1 } };

      for (guint i = 0; i < G_N_ELEMENTS (bytes); i++)
        g_ptr_array_add (values, type == DDB_TYPE_S
                                     ? ddb_value_new_s (bytes[i].data, (gssize) bytes[i].len)
                                     : ddb_value_new_b (bytes[i].data, bytes[i].len));
    }
  return values;
}

static void
test_pair_order (void)
{
  static const DdbType combos[][2] = {
    { DDB_TYPE_S, DDB_TYPE_S }, { DDB_TYPE_S, DDB_TYPE_N }, { DDB_TYPE_N, DDB_TYPE_S },
    { DDB_TYPE_B, DDB_TYPE_B }, { DDB_TYPE_N, DDB_TYPE_N }, { DDB_TYPE_B, DDB_TYPE_N },
    { DDB_TYPE_S, DDB_TYPE_B },
  };

  for (guint c = 0; c < G_N_ELEMENTS (combos); c++)
    {
      /* Few partition keys, so that many pairs share one and the sort key decides. */
      g_autoptr (GPtrArray) pks = small_key_list (combos[c][0]);
      g_autoptr (GPtrArray) sks = small_key_list (combos[c][1]);
      g_autoptr (GPtrArray) pairs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      g_autoptr (GArray) pk_of = g_array_new (FALSE, FALSE, sizeof (guint));
      g_autoptr (GArray) sk_of = g_array_new (FALSE, FALSE, sizeof (guint));

      for (guint i = 0; i < 20; i++)
        g_ptr_array_add (sks, combos[c][1] == DDB_TYPE_N   ? random_number ()
                              : combos[c][1] == DDB_TYPE_S ? random_string ()
                                                           : random_binary ());

      for (guint p = 0; p < pks->len; p++)
        for (guint s = 0; s < sks->len; s++)
          {
            GByteArray *out = g_byte_array_new ();

            g_assert_true (ddb_key_encode (pks->pdata[p], out, NULL));
            g_assert_true (ddb_key_encode (sks->pdata[s], out, NULL));
            g_ptr_array_add (pairs, g_byte_array_free_to_bytes (out));
            g_array_append_val (pk_of, p);
            g_array_append_val (sk_of, s);
          }

      for (guint i = 0; i < pairs->len; i++)
        for (guint j = 0; j < pairs->len; j++)
          {
            const DdbValue *pk_i = pks->pdata[g_array_index (pk_of, guint, i)];
            const DdbValue *pk_j = pks->pdata[g_array_index (pk_of, guint, j)];
            const DdbValue *sk_i = sks->pdata[g_array_index (sk_of, guint, i)];
            const DdbValue *sk_j = sks->pdata[g_array_index (sk_of, guint, j)];
            int expected = key_compare (pk_i, pk_j);

            if (expected == 0)
              expected = key_compare (sk_i, sk_j);
            g_assert_cmpint (encoded_compare (pairs->pdata[i], pairs->pdata[j]), ==, expected);
          }

      /* And the pair decodes back, one key after the other. */
      for (guint i = 0; i < pairs->len; i++)
        {
          gsize len, used_pk = 0, used_sk = 0;
          const guint8 *data = g_bytes_get_data (pairs->pdata[i], &len);
          g_autoptr (DdbValue) pk = ddb_key_decode (combos[c][0], data, len, &used_pk, NULL);
          g_autoptr (DdbValue) sk = NULL;

          g_assert_nonnull (pk);
          sk = ddb_key_decode (combos[c][1], data + used_pk, len - used_pk, &used_sk, NULL);
          g_assert_nonnull (sk);
          g_assert_cmpuint (used_pk + used_sk, ==, len);
          g_assert_true (ddb_value_equal (pk, pks->pdata[g_array_index (pk_of, guint, i)]));
          g_assert_true (ddb_value_equal (sk, sks->pdata[g_array_index (sk_of, guint, i)]));
        }
    }
}

static void
test_malformed (void)
{
  static const struct {
    DdbType type;
    const char *bytes;
    gsize len;
    const char *message;
  } cases[] = {
    { DDB_TYPE_S, "", 0, "Malformed encoded key: missing string terminator" },
    { DDB_TYPE_S, "ab", 2, "Malformed encoded key: missing string terminator" },
    { DDB_TYPE_S, "ab\0", 3, "Malformed encoded key: truncated escape" },
    { DDB_TYPE_S, "ab\0\x02", 4, "Malformed encoded key: invalid escape" },
    { DDB_TYPE_S, "ab\0\0", 4, "Malformed encoded key: invalid escape" },
    { DDB_TYPE_S, "\0\xFF\0", 3, "Malformed encoded key: truncated escape" },
    { DDB_TYPE_S, "\xC3\0\x01", 3, "Malformed encoded key: string is not valid UTF-8" },
    { DDB_TYPE_S, "\xFF\0\x01", 3, "Malformed encoded key: string is not valid UTF-8" },
    { DDB_TYPE_S, "\0\xFF\xC3\0\x01", 5, "Malformed encoded key: string is not valid UTF-8" },
    { DDB_TYPE_S, "\xED\xA0\x80\0\x01", 5, "Malformed encoded key: string is not valid UTF-8" },
    { DDB_TYPE_B, "", 0, "Malformed encoded key: missing string terminator" },
    { DDB_TYPE_B, "\xFF", 1, "Malformed encoded key: missing string terminator" },
    { DDB_TYPE_B, "\0", 1, "Malformed encoded key: truncated escape" },
    { DDB_TYPE_B, "\0\x80", 2, "Malformed encoded key: invalid escape" },
    { DDB_TYPE_N, "", 0, "Malformed encoded key: truncated number" },
    { DDB_TYPE_N, "\x00", 1, "Malformed encoded key: invalid number sign" },
    { DDB_TYPE_N, "\x04", 1, "Malformed encoded key: invalid number sign" },
    { DDB_TYPE_N, "\xFF", 1, "Malformed encoded key: invalid number sign" },
    { DDB_TYPE_N, "\x03", 1, "Malformed encoded key: truncated number" },
    { DDB_TYPE_N, "\x03\x82", 2, "Malformed encoded key: truncated number" },
    { DDB_TYPE_N, "\x03\x82\x0B", 3, "Malformed encoded key: truncated number" },
    { DDB_TYPE_N, "\x01\x7D\xF4", 3, "Malformed encoded key: truncated number" },
    /* a negative number ended by a positive terminator */
    { DDB_TYPE_N, "\x01\x7D\xF4\x00", 4, "Malformed encoded key: invalid number digits" },
    { DDB_TYPE_N, "\x03\x82\x00", 3, "Malformed encoded key: number digits not normalized" },
    { DDB_TYPE_N, "\x01\x7D\xFF", 3, "Malformed encoded key: number digits not normalized" },
    { DDB_TYPE_N, "\x03\x82\x65\x00", 4, "Malformed encoded key: invalid number digits" },
    { DDB_TYPE_N, "\x03\x82\xFF\x00", 4, "Malformed encoded key: invalid number digits" },
    /* leading zero digit: pair "05" */
    { DDB_TYPE_N, "\x03\x82\x06\x00", 4, "Malformed encoded key: number digits not normalized" },
    /* trailing zero pair after "1": "1" "00" */
    { DDB_TYPE_N, "\x03\x82\x0B\x01\x00", 5,
      "Malformed encoded key: number digits not normalized" },
    { DDB_TYPE_N, "\x03\x82\x01\x00", 4, "Malformed encoded key: number digits not normalized" },
    /* 20 digit pairs = 40 digits */
    { DDB_TYPE_N,
      "\x03\x82\x0C\x0C\x0C\x0C\x0C\x0C\x0C\x0C\x0C\x0C\x0C\x0C\x0C\x0C\x0C\x0C\x0C\x0C\x0C\x0C"
      "\x00",
      23, "Malformed encoded key: too many number digits" },
    { DDB_TYPE_BOOL, "\x02", 1, "Cannot decode a key of type BOOL: keys are S, N or B" },
    { DDB_TYPE_M, "\x02", 1, "Cannot decode a key of type M: keys are S, N or B" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree guint8 *exact = g_memdup2 (cases[i].bytes, cases[i].len);
      GError *error = NULL;
      gsize consumed = 12345;
      DdbValue *v = ddb_key_decode (cases[i].type, exact, cases[i].len, &consumed, &error);

      if (v != NULL)
        g_error ("case %u decoded", i);
      tu_assert_error (error, DDB_ERROR_INTERNAL, cases[i].message);
      g_assert_cmpuint (consumed, ==, 12345);
      g_clear_error (&error);
    }

  /* 19 pairs (38 digits) are accepted. */
  {
    static const guint8 max_digits[]
        = { 0x03, 0x82, 0x0C, 0x0C, 0x0C, 0x0C, 0x0C, 0x0C, 0x0C, 0x0C, 0x0C,
            0x0C, 0x0C, 0x0C, 0x0C, 0x0C, 0x0C, 0x0C, 0x0C, 0x0C, 0x0C, 0x00 };
    gsize consumed = 0;
    g_autoptr (DdbValue) v
        = ddb_key_decode (DDB_TYPE_N, max_digits, sizeof max_digits, &consumed, NULL);
    g_autoptr (DdbValue) expected = tu_num ("1.1111111111111111111111111111111111111");

    g_assert_nonnull (v);
    g_assert_cmpuint (consumed, ==, sizeof max_digits);
    g_assert_true (ddb_value_equal (v, expected));
  }
}

static void
test_encode_errors (void)
{
  g_autoptr (DdbValue) b = ddb_value_new_bool (TRUE);
  g_autoptr (DdbValue) m = ddb_value_new_m ();
  g_autoptr (DdbValue) ss = ddb_value_new_set (DDB_TYPE_SS);
  g_autoptr (GByteArray) out = g_byte_array_new ();
  DdbNumber n;
  GError *error = NULL;

  g_assert_false (ddb_key_encode (b, out, &error));
  tu_assert_error (error, DDB_ERROR_INTERNAL,
                   "Cannot encode a key of type BOOL: keys are S, N or B");
  g_clear_error (&error);
  g_assert_false (ddb_key_encode (m, out, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_clear_error (&error);
  g_assert_false (ddb_key_encode (ss, out, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
  g_clear_error (&error);

  /* Numbers outside DynamoDB's range cannot be keys (and have no exponent byte). */
  memset (&n, 0, sizeof n);
  n.ndigits = 1;
  n.d[0] = 1;
  n.exponent = 127; /* 1E+126 */
  {
    g_autoptr (DdbValue) v = ddb_value_new_n (&n);

    g_assert_false (ddb_key_encode (v, out, &error));
    g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
    g_assert_cmpstr (error->message, ==,
                     "Number overflow. Attempting to store a number with magnitude larger than "
                     "supported range");
    g_clear_error (&error);
  }
  n.exponent = -130; /* 1E-131 */
  {
    g_autoptr (DdbValue) v = ddb_value_new_n (&n);

    g_assert_false (ddb_key_encode (v, out, &error));
    g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
    g_assert_cmpstr (error->message, ==,
                     "Number underflow. Attempting to store a number with magnitude smaller "
                     "than supported range");
    g_clear_error (&error);
  }
  n.exponent = 1;
  n.ndigits = DDB_NUMBER_MAX_DIGITS + 1;
  {
    g_autoptr (DdbValue) v = ddb_value_new_n (&n);

    g_assert_false (ddb_key_encode (v, out, &error));
    g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
    g_assert_cmpstr (error->message, ==,
                     "Attempting to store more than 38 significant digits in a Number");
    g_clear_error (&error);
  }
  /* A second encoding of one number would split a key in two. */
  n.ndigits = 2;
  n.d[0] = 1;
  n.d[1] = 0;
  {
    g_autoptr (DdbValue) v = ddb_value_new_n (&n);

    g_assert_false (ddb_key_encode (v, out, &error));
    tu_assert_error (error, DDB_ERROR_INTERNAL, "Cannot encode a key number: not normalized");
    g_clear_error (&error);
  }
  n.d[0] = 0;
  n.d[1] = 1;
  {
    g_autoptr (DdbValue) v = ddb_value_new_n (&n);

    g_assert_false (ddb_key_encode (v, out, &error));
    g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
    g_clear_error (&error);
  }
  n.d[0] = 10;
  {
    g_autoptr (DdbValue) v = ddb_value_new_n (&n);

    g_assert_false (ddb_key_encode (v, out, &error));
    tu_assert_error (error, DDB_ERROR_INTERNAL, "Cannot encode a key number: digit out of range");
    g_clear_error (&error);
  }
  /* Failures append nothing. */
  g_assert_cmpuint (out->len, ==, 0);
}

int
main (int argc, char **argv)
{
  /* A fixed seed makes the g_test_rand values the same on every run; --seed=... overrides it. */
  static char seed_arg[] = "--seed=R02S6b6579636f6465632d736565642d3031";
  static char *args[64];
  gboolean has_seed = FALSE;

  for (int i = 1; i < argc; i++)
    has_seed |= g_str_has_prefix (argv[i], "--seed");
  if (!has_seed && argc + 1 < (int) G_N_ELEMENTS (args))
    {
      for (int i = 0; i < argc; i++)
        args[i] = argv[i];
      args[argc++] = seed_arg;
      args[argc] = NULL;
      argv = args;
    }
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/keycodec/number/order", test_number_order);
  g_test_add_func ("/keycodec/number/chain", test_number_chain);
  g_test_add_func ("/keycodec/number/equal-forms", test_number_equal_forms);
  g_test_add_func ("/keycodec/number/round-trip", test_number_round_trip);
  g_test_add_func ("/keycodec/golden", test_golden);
  g_test_add_func ("/keycodec/string/order", test_string_order);
  g_test_add_func ("/keycodec/binary/order", test_binary_order);
  g_test_add_func ("/keycodec/bytes/prefix-chain", test_prefix_chain);
  g_test_add_func ("/keycodec/bytes/round-trip", test_bytes_round_trip);
  g_test_add_func ("/keycodec/pair/order", test_pair_order);
  g_test_add_func ("/keycodec/malformed", test_malformed);
  g_test_add_func ("/keycodec/encode-errors", test_encode_errors);

  return g_test_run ();
}
