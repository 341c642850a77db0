/* test-itemsize.c: item and attribute sizes as DynamoDB counts them.
 *
 * Sources cited next to the expected values:
 *   [docs]  AWS Developer Guide, "DynamoDB item sizes and formats" (CapacityUnitCalculations.html)
 *   [zac]   Zac Charles' calculator, github.com/zaccharles/dynamodb-calculator index.html,
 *           calculateNumberSizeInBytes / measure (reverse-engineered from ConsumedCapacity)
 *   [dynalite] architect/dynalite db/index.js valSize
 * For numbers [zac] and [dynalite] agree except on negative 38-digit numbers whose mantissa fills
 * 20 base-100 digits, where [zac] caps the size at 21 bytes and [dynalite] says 22. */
#include <string.h>

#include "core/itemcodec.h"
#include "core/itemsize.h"
#include "core/number.h"
#include "core/value.h"

#include "test-util.h"

/* ddb_item_size (ITEM), asserting that its encoding tells the same size without decoding
 * (ddb_item_encoded_size). */
static gsize
item_size (const DdbValue *item)
{
  GByteArray *enc = g_byte_array_new ();
  GError *error = NULL;
  gsize size = 0;

  ddb_item_encode (item, enc);
  g_assert_true (ddb_item_encoded_size (enc->data, enc->len, &size, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (size, ==, ddb_item_size (item));
  g_byte_array_unref (enc);
  return size;
}

static void
test_numbers (void)
{
  static const struct {
    const char *number;
    gsize size;
  } cases[] = {
    /* [zac] `if (decimal == 0) return 1`; [dynalite] the same special case. */
    { "0", 1 },
    { "-0", 1 },
    { "0.000", 1 },
    /* One base-100 digit + the exponent byte: [zac] measure("1") = 1, + 1. [docs] 1 digit
     * -> "1 byte per two significant digits + 1" rounds to the same 2. */
    { "1", 2 },
    { "9", 2 },
    { "1.0", 2 },
    { "1E0", 2 },
    /* "10" is the base-100 digit 10: [zac] measure("10") = 1. */
    { "10", 2 },
    { "99", 2 },
    /* 100 = 1 * 100^1: [zac] measure strips the "00" pair, so 1 byte; [dynalite] c=[1], e=2:
     * 1 + ceil(1/2) + 0 = 2. */
    { "100", 2 },
    { "1000", 2 },
    { "1E+10", 2 },
    /* 101 = 01|01: 2 base-100 digits; [dynalite] c=[1,0,1], e=2: 1 + 2 + 0 = 3. */
    { "101", 3 },
    { "123", 3 },
    { "1234", 3 },
    /* 12345 = 01|23|45; [dynalite] c has 5 digits, e=4: 1 + 3 + 0 = 4. */
    { "12345", 4 },
    /* Negative: one byte more ([zac] `if (fixed.startsWith('-')) size++`; [dynalite]
     * `+ (val.s == -1 ? 1 : 0)`). */
    { "-1", 3 },
    { "-100", 3 },
    { "-12345", 5 },
    /* 1.5 = 01.50: the "5" sits in its own base-100 digit although 15 is two significant digits,
     * so 3 and not the [docs] approximation's 2: [zac] "Z1"+"5Z" -> 2, + 1; [dynalite] c=[1,5],
     * e=0: 1 + 1 + 1 = 3. */
    { "1.5", 3 },
    { "-1.5", 4 },
    { "12.5", 3 },  /* 12.50 */
    { "1.234", 4 }, /* 01.23|40 */
    { "12.34", 3 },
    { "0.5", 2 },   /* .50 */
    { "0.05", 2 },  /* .05 */
    { "0.005", 2 }, /* .00|50: the leading 00 pair is not stored ([zac] zeros(p1, true)) */
    { "0.15", 2 },
    { "0.155", 3 },
    /* The extremes: 1E+125 = 10 * 100^62 and 1E-130 = 01 * 100^-65, one base-100 digit each;
     * [zac] shows -1E-130 as its sample number. */
    { "1E+125", 2 },
    { "1E-130", 2 },
    { "-1E-130", 3 },
    { "-1E+125", 3 },
    { "9.9999999999999999999999999999999999999E+125", 20 },
    /* 38 digits: an even-aligned integer is 19 base-100 digits, [zac] ceil(38/2) + 1 = 20; with
     * the sign, 21 by both sources. */
    { "12345678901234567890123456789012345678", 20 },
    { "-12345678901234567890123456789012345678", 21 },
    { "0.12345678901234567890123456789012345678", 20 },
    /* 38 digits misaligned by one: 01.23|45|..|78 is 20 base-100 digits -> 21 bytes. */
    { "1.2345678901234567890123456789012345678", 21 },
    /* ... and its negative stays at 21: [zac] `if (size > 21) size = 21` (the mantissa is full,
     * so the Oracle-style terminator byte is not written); [dynalite] would say 22. */
    { "-1.2345678901234567890123456789012345678", 21 },
    { "-0.12345678901234567890123456789012345678", 21 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DdbValue) v = tu_num (cases[i].number);
      gsize got = ddb_value_size (v);

      if (got != cases[i].size)
        g_error ("size of %s: expected %" G_GSIZE_FORMAT ", got %" G_GSIZE_FORMAT, cases[i].number,
                 cases[i].size, got);
      g_assert_cmpuint (ddb_number_size (&v->number), ==, cases[i].size);
    }
}

/* An independent model of the number rule: write the plain decimal text, pad both sides to
 * whole base-100 digits around the point, drop zero pairs at both ends, count the pairs. This is
 * the [zac] algorithm on strings, checked against the struct arithmetic over many numbers. */
static gsize
number_size_by_text (const DdbNumber *n)
{
  g_autoptr (GString) intpart = g_string_new (NULL);
  g_autoptr (GString) frac = g_string_new (NULL);
  g_autoptr (GString) all = NULL;
  gsize first = 0, last;
  gsize size;

  if (n->ndigits == 0)
    return 1;
  for (gint32 p = MAX (n->exponent, 0) - 1; p >= MIN (n->exponent - (gint32) n->ndigits, 0); p--)
    {
      gint32 i = n->exponent - 1 - p;
      char c = i >= 0 && i < n->ndigits ? (char) ('0' + n->d[i]) : '0';

      g_string_append_c (p >= 0 ? intpart : frac, c);
    }
  if (intpart->len % 2)
    g_string_prepend_c (intpart, '0');
  if (frac->len % 2)
    g_string_append_c (frac, '0');
  all = g_string_new (intpart->str);
  g_string_append (all, frac->str);
  last = all->len;
  while (first + 2 <= last && all->str[first] == '0' && all->str[first + 1] == '0')
    first += 2;
  while (last >= first + 2 && all->str[last - 1] == '0' && all->str[last - 2] == '0')
    last -= 2;
  size = (last - first) / 2 + 1;
  if (n->negative)
    size++;
  return MIN (size, 21);
}

static void
test_numbers_model (void)
{
  GRand *rand = g_rand_new_with_seed (409600);

  for (guint k = 0; k < 5000; k++)
    {
      DdbNumber n;

      memset (&n, 0, sizeof n);
      n.negative = g_rand_boolean (rand);
      n.ndigits = (guint8) g_rand_int_range (rand, 1, DDB_NUMBER_MAX_DIGITS + 1);
      for (guint i = 0; i < n.ndigits; i++)
        n.d[i] = (guint8) (g_rand_boolean (rand) ? 0 : g_rand_int_range (rand, 0, 10));
      if (n.d[0] == 0)
        n.d[0] = 3;
      if (n.d[n.ndigits - 1] == 0)
        n.d[n.ndigits - 1] = 7;
      n.exponent = g_rand_int_range (rand, -129, 127);

      if (ddb_number_size (&n) != number_size_by_text (&n))
        {
          g_autofree char *text = ddb_number_to_string (&n);

          g_error ("size of %s: %" G_GSIZE_FORMAT " vs model %" G_GSIZE_FORMAT, text,
                   ddb_number_size (&n), number_size_by_text (&n));
        }
      g_assert_cmpuint (ddb_number_size (&n), >=, 2);
      g_assert_cmpuint (ddb_number_size (&n), <=, 21);
    }
  g_rand_free (rand);
}

static void
test_scalars (void)
{
  g_autoptr (DdbValue) empty = tu_str ("");
  g_autoptr (DdbValue) abc = tu_str ("abc");
  g_autoptr (DdbValue) e_acute = tu_str ("\xC3\xA9");
  g_autoptr (DdbValue) emoji = tu_str ("\xF0\x9F\x98\x80");
  g_autoptr (DdbValue) with_nul = ddb_value_new_s ("a\0b", 3);
  g_autoptr (DdbValue) bin = ddb_value_new_b ("\x00\xFF\x10", 3);
  g_autoptr (DdbValue) bin_empty = ddb_value_new_b (NULL, 0);
  g_autoptr (DdbValue) t = ddb_value_new_bool (TRUE);
  g_autoptr (DdbValue) f = ddb_value_new_bool (FALSE);
  g_autoptr (DdbValue) null = ddb_value_new_null ();

  /* [docs] S: number of UTF-8-encoded bytes. */
  g_assert_cmpuint (ddb_value_size (empty), ==, 0);
  g_assert_cmpuint (ddb_value_size (abc), ==, 3);
  g_assert_cmpuint (ddb_value_size (e_acute), ==, 2);
  g_assert_cmpuint (ddb_value_size (emoji), ==, 4);
  g_assert_cmpuint (ddb_value_size (with_nul), ==, 3);
  /* [docs] B: the raw bytes, not the base64 text ("AP8Q" would be 4). */
  g_assert_cmpuint (ddb_value_size (bin), ==, 3);
  g_assert_cmpuint (ddb_value_size (bin_empty), ==, 0);
  /* [docs] null or Boolean: 1 byte. */
  g_assert_cmpuint (ddb_value_size (t), ==, 1);
  g_assert_cmpuint (ddb_value_size (f), ==, 1);
  g_assert_cmpuint (ddb_value_size (null), ==, 1);
}

static void
test_documents (void)
{
  g_autoptr (DdbValue) empty_m = ddb_value_new_m ();
  g_autoptr (DdbValue) empty_l = ddb_value_new_l ();
  g_autoptr (DdbValue) l = ddb_value_new_l ();
  g_autoptr (DdbValue) m = ddb_value_new_m ();
  g_autoptr (DdbValue) nested = ddb_value_new_m ();
  g_autoptr (DdbValue) item = ddb_value_new_m ();
  DdbValue *inner_l = ddb_value_new_l ();
  DdbValue *l_of_empty = ddb_value_new_l ();

  /* [docs] "The size of an empty List or Map is ... + (3 bytes)". */
  g_assert_cmpuint (ddb_value_size (empty_m), ==, 3);
  g_assert_cmpuint (ddb_value_size (empty_l), ==, 3);

  /* [docs] 3 bytes + elements + 1 byte per element: 3 + (1 + 1) + (1 + 2) = 8. */
  ddb_value_list_append (l, tu_str ("a"));
  ddb_value_list_append (l, tu_num ("1"));
  g_assert_cmpuint (ddb_value_size (l), ==, 8);

  /* A map element also counts its name's UTF-8 bytes: 3 + (1 + 1 + 2) + (1 + 2 + 2) = 12. */
  ddb_value_map_set (m, "a", tu_str ("bc"));
  ddb_value_map_set (m, "\xC3\xA9", tu_num ("10"));
  g_assert_cmpuint (ddb_value_size (m), ==, 12);

  /* Nested: cc = [NULL, BOOL] = 3 + (1 + 1) + (1 + 1) = 7;
   * the map = 3 + (1 + len("b") + 2) + (1 + len("cc") + 7) = 17. */
  ddb_value_list_append (inner_l, ddb_value_new_null ());
  ddb_value_list_append (inner_l, ddb_value_new_bool (FALSE));
  ddb_value_map_set (nested, "b", tu_num ("1"));
  ddb_value_map_set (nested, "cc", inner_l);
  g_assert_cmpuint (ddb_value_size (nested), ==, 17);

  /* A list holding an empty list: 3 + 1 + 3. */
  ddb_value_list_append (l_of_empty, ddb_value_new_l ());
  g_assert_cmpuint (ddb_value_size (l_of_empty), ==, 7);

  /* The item itself is not a nested map: names + values only, no 3-byte or per-attribute
   * overhead. */
  ddb_value_map_set (item, "a", ddb_value_copy (nested));
  ddb_value_map_set (item, "x", l_of_empty);
  g_assert_cmpuint (item_size (item), ==, (1 + 17) + (1 + 7));
  g_assert_cmpuint (ddb_value_size (item), ==, 3 + (1 + 1 + 17) + (1 + 1 + 7));
}

static void
test_sets (void)
{
  g_autoptr (DdbValue) ss = ddb_value_new_set (DDB_TYPE_SS);
  g_autoptr (DdbValue) ns = ddb_value_new_set (DDB_TYPE_NS);
  g_autoptr (DdbValue) bs = ddb_value_new_set (DDB_TYPE_BS);
  g_autoptr (DdbValue) item = ddb_value_new_m ();

  /* Sets: the sum of the elements, no per-element overhead ([zac] StringSet / NumberSet /
   * BinarySet branches; [dynalite] valSize SS/NS/BS; [docs] lists no set overhead). */
  ddb_value_set_add (ss, tu_str ("a"));
  ddb_value_set_add (ss, tu_str ("bc"));
  ddb_value_set_add (ss, tu_str (""));
  g_assert_cmpuint (ddb_value_size (ss), ==, 0 + 1 + 2);

  ddb_value_set_add (ns, tu_num ("1"));
  ddb_value_set_add (ns, tu_num ("-1"));
  ddb_value_set_add (ns, tu_num ("1.5"));
  g_assert_cmpuint (ddb_value_size (ns), ==, 2 + 3 + 3);

  ddb_value_set_add (bs, ddb_value_new_b ("\x01\x02\x03", 3));
  ddb_value_set_add (bs, ddb_value_new_b ("\x00", 1));
  g_assert_cmpuint (ddb_value_size (bs), ==, 4);

  /* [zac]'s sample item: 2 + 8 (id) + 8 + 11 (fullName) + 7 + 1 (isAdmin)
   * + 15 + 3 (favouriteNumber -1E-130) + 5 + 11 (foods: pizza, burger) = 71. */
  {
    DdbValue *foods = ddb_value_new_set (DDB_TYPE_SS);

    ddb_value_map_set (item, "id", tu_str ("f0ba8d6c"));
    ddb_value_map_set (item, "fullName", tu_str ("Zac Charles"));
    ddb_value_map_set (item, "isAdmin", ddb_value_new_bool (TRUE));
    ddb_value_map_set (item, "favouriteNumber", tu_num ("-1E-130"));
    ddb_value_set_add (foods, tu_str ("pizza"));
    ddb_value_set_add (foods, tu_str ("burger"));
    ddb_value_map_set (item, "foods", foods);
    g_assert_cmpuint (item_size (item), ==, 71);
  }
}

static void
test_published_examples (void)
{
  g_autoptr (DdbValue) book = ddb_value_new_m ();
  g_autoptr (DdbValue) small = ddb_value_new_m ();
  DdbValue *authors = ddb_value_new_l ();

  /* LeeroyHannigan/DynamoDB-ItemSizeCalculator README: this item is "size: 137":
   * Id 2+3 (101 = 01|01), Title 5+14, ISBN 4+14, Authors 7+(3+1+7), Price 5+2, Dimensions 10+16,
   * PageCount 9+2 (500 = 05|00), InPublication 13+1, ProductCategory 15+4. */
  ddb_value_map_set (book, "Id", tu_num ("101"));
  ddb_value_map_set (book, "Title", tu_str ("Book 101 Title"));
  ddb_value_map_set (book, "ISBN", tu_str ("111-1111111111"));
  ddb_value_list_append (authors, tu_str ("Author1"));
  ddb_value_map_set (book, "Authors", authors);
  ddb_value_map_set (book, "Price", tu_num ("2"));
  ddb_value_map_set (book, "Dimensions", tu_str ("8.5 x 11.0 x 0.5"));
  ddb_value_map_set (book, "PageCount", tu_num ("500"));
  ddb_value_map_set (book, "InPublication", ddb_value_new_bool (TRUE));
  ddb_value_map_set (book, "ProductCategory", tu_str ("Book"));
  g_assert_cmpuint (item_size (book), ==, 137);

  /* mcwhittemore/dyno-item-size README: {string: "string", number: 27, buffer: "buffer"}
   * "=> 32": 6+6, 6+2, 6+6. */
  ddb_value_map_set (small, "string", tu_str ("string"));
  ddb_value_map_set (small, "number", tu_num ("27"));
  ddb_value_map_set (small, "buffer", ddb_value_new_b ("buffer", 6));
  g_assert_cmpuint (item_size (small), ==, 32);
}

static DdbValue *
item_of_size (gsize target, gboolean multibyte)
{
  /* pk "k" (2 + 1 bytes) + "data" (4 bytes) + the padding string. */
  DdbValue *item = ddb_value_new_m ();
  gsize fill = target - 2 - 1 - 4;
  char *data = g_malloc (fill + 1);

  if (multibyte)
    {
      /* As many 2-byte characters as fit, then an ASCII byte if the count is odd. */
      gsize i = 0;

      for (; i + 2 <= fill; i += 2)
        memcpy (data + i, "\xC3\xA9", 2);
      if (i < fill)
        data[i++] = 'x';
    }
  else
    memset (data, 'x', fill);
  data[fill] = '\0';

  ddb_value_map_set (item, "pk", tu_str ("k"));
  ddb_value_map_set (item, "data", ddb_value_take_bytes (DDB_TYPE_S, data, fill));
  return item;
}

static void
test_limit_boundary (void)
{
  g_autoptr (DdbValue) at_limit = item_of_size (409600, FALSE);
  g_autoptr (DdbValue) over_limit = item_of_size (409601, FALSE);
  g_autoptr (DdbValue) at_limit_utf8 = item_of_size (409600, TRUE);
  g_autoptr (DdbValue) over_limit_utf8 = item_of_size (409601, TRUE);
  g_autoptr (DdbValue) list_item = ddb_value_new_m ();
  DdbValue *list = ddb_value_new_l ();

  /* [docs] the item size limit is 400 KB = 409600 bytes, names included. */
  g_assert_cmpuint (DDB_MAX_ITEM_SIZE, ==, 409600);
  g_assert_cmpuint (item_size (at_limit), ==, 409600);
  g_assert_cmpuint (item_size (at_limit), <=, DDB_MAX_ITEM_SIZE);
  g_assert_cmpuint (item_size (over_limit), ==, 409601);
  g_assert_cmpuint (item_size (over_limit), >, DDB_MAX_ITEM_SIZE);
  /* The same in UTF-8 bytes, not characters: 204796 "é" + "x" is 409593 bytes. */
  g_assert_cmpuint (g_utf8_strlen (ddb_value_map_get (at_limit_utf8, "data")->bytes.data, -1), ==,
                    204797);
  g_assert_cmpuint (item_size (at_limit_utf8), ==, 409600);
  g_assert_cmpuint (item_size (over_limit_utf8), ==, 409601);

  /* The per-element byte adds up over a big list: "pk"/"k" (3) + "l" (1) + 3 + 102399 NULLs
   * of 1 byte plus 1 byte of element overhead each = 204806. */
  for (guint i = 0; i < 102399; i++)
    ddb_value_list_append (list, ddb_value_new_null ());
  ddb_value_map_set (list_item, "pk", tu_str ("k"));
  ddb_value_map_set (list_item, "l", list);
  g_assert_cmpuint (item_size (list_item), ==, 3 + 1 + 3 + 102399 * 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/itemsize/number", test_numbers);
  g_test_add_func ("/itemsize/number-model", test_numbers_model);
  g_test_add_func ("/itemsize/scalar", test_scalars);
  g_test_add_func ("/itemsize/document", test_documents);
  g_test_add_func ("/itemsize/set", test_sets);
  g_test_add_func ("/itemsize/published-examples", test_published_examples);
  g_test_add_func ("/itemsize/limit-boundary", test_limit_boundary);

  return g_test_run ();
}
