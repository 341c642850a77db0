/* test-itemcodec.c: the stored item encoding round-trips every type exactly (order kept), is
 * compact, and refuses every malformed or truncated input cleanly. */
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemcodec.h"
#include "core/itemsize.h"
#include "core/value.h"

#include "test-util.h"

static GBytes *
encode (const DdbValue *item)
{
  GByteArray *out = g_byte_array_new ();

  ddb_item_encode (item, out);
  return g_byte_array_free_to_bytes (out);
}

/* A scalar written out: its type and its value ("S:text", "N:1.5", "B:<bytes>", "BOOL:1"). */
static void
describe_scalar (GString *out, DdbType type, const void *bytes, gsize len, const DdbNumber *n,
                 gboolean boolean)
{
  g_string_append_printf (out, "%d:", type);
  if (type == DDB_TYPE_S || type == DDB_TYPE_B)
    g_string_append_len (out, bytes, (gssize) len);
  else if (type == DDB_TYPE_N)
    ddb_number_append (n, out);
  else if (type == DDB_TYPE_BOOL)
    g_string_append_c (out, boolean ? '1' : '0');
  g_string_append_c (out, '|');
}

/* The scalars of VALUE in stored order, from the built item. */
static void
describe_scalars (GString *out, const DdbValue *value)
{
  switch (value->type)
    {
    case DDB_TYPE_M:
      for (guint i = 0; i < value->attrs->len; i++)
        describe_scalars (out, g_array_index (value->attrs, DdbAttr, i).value);
      break;
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      for (guint i = 0; i < value->elems->len; i++)
        describe_scalars (out, g_ptr_array_index (value->elems, i));
      break;
    default:
      describe_scalar (out, value->type, value->bytes.data, value->bytes.len, &value->number,
                       value->boolean);
    }
}

typedef struct {
  GString *out;
  guint seen;
  guint stop_at; /* 0: never */
} Walk;

static gboolean
walk_scalar (const DdbEncodedScalar *scalar, gpointer data)
{
  Walk *w = data;

  describe_scalar (w->out, scalar->type, scalar->bytes, scalar->len, scalar->number,
                   scalar->boolean);
  return ++w->seen == w->stop_at;
}

/* VALUE (found by ddb_item_encoded_lookup) is WANT: decoded, and read as a scalar. */
static void
assert_encoded_value (const DdbEncodedValue *value, const DdbValue *want)
{
  GError *error = NULL;
  g_autoptr (DdbValue) built = ddb_encoded_value_decode (value, &error);
  DdbEncodedScalar scalar;
  DdbNumber number;

  g_assert_no_error (error);
  g_assert_nonnull (built);
  g_assert_true (ddb_value_equal (built, want));
  g_assert_cmpint (value->type, ==, want->type);
  g_assert_true (ddb_encoded_value_get_scalar (value, &scalar, &number, &error));
  g_assert_no_error (error);
  g_assert_cmpint (scalar.type, ==, want->type);
  switch (want->type)
    {
    case DDB_TYPE_S:
    case DDB_TYPE_B:
      g_assert_cmpmem (scalar.bytes, scalar.len, want->bytes.data, want->bytes.len);
      break;
    case DDB_TYPE_N:
      g_assert_true (scalar.number == &number);
      g_assert_true (ddb_number_equal (&number, &want->number));
      g_assert_cmpint (number.ndigits, ==, want->number.ndigits);
      break;
    case DDB_TYPE_BOOL:
      g_assert_cmpint (scalar.boolean, ==, want->boolean);
      break;
    default:
      break;
    }
}

/* Each of the item's attributes is found where it lies, alone and all at once (with the item's
 * size), a name it does not hold is missing. */
static void
assert_lookup (const guint8 *data, gsize len, const DdbValue *item)
{
  guint n = ddb_value_map_size (item);
  g_autofree const char **names = g_new0 (const char *, n + 2);
  g_autofree DdbEncodedValue *values = g_new0 (DdbEncodedValue, n + 2);
  GError *error = NULL;
  gsize size = 0;

  for (guint i = 0; i < n; i++)
    {
      const DdbAttr *a = ddb_value_map_nth (item, i);
      DdbEncodedValue one;

      /* A name holding U+0000 cannot be asked for by a C string. */
      if (strlen (a->name) != a->name_len)
        return;
      names[n - 1 - i] = a->name;
      g_assert_true (ddb_item_encoded_lookup (data, len, &names[n - 1 - i], 1, &one, NULL, &error));
      g_assert_no_error (error);
      g_assert_nonnull (one.data);
      g_assert_true (one.data > data && one.data + one.len <= data + len);
      assert_encoded_value (&one, a->value);
    }
  names[n] = "not an attribute of it";
  names[n + 1] = n > 0 ? names[0] : "nor this";
  g_assert_true (ddb_item_encoded_lookup (data, len, names, n + 2, values, &size, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (size, ==, ddb_item_size (item));
  for (guint i = 0; i < n; i++)
    assert_encoded_value (&values[i], ddb_value_map_get (item, names[i]));
  g_assert_null (values[n].data);
  if (n > 0)
    {
      g_assert_true (values[n + 1].data == values[0].data);
      g_assert_cmpuint (values[n + 1].len, ==, values[0].len);
    }
}

/* The size read from the encoding is the item's size, and the scalars walked in it are the
 * item's, in order; a walk told to stop stops there. Its attributes are found where they lie. */
static void
assert_encoded_size (const guint8 *data, gsize len, const DdbValue *item)
{
  GError *error = NULL;
  gsize size = 0;
  g_autoptr (GString) want = g_string_new (NULL);
  Walk walk = { g_string_new (NULL), 0, 0 };
  gboolean stopped = TRUE;

  g_assert_true (ddb_item_encoded_size (data, len, &size, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (size, ==, ddb_item_size (item));
  describe_scalars (want, item);
  g_assert_true (ddb_item_encoded_foreach_scalar (data, len, walk_scalar, &walk, &stopped, &error));
  g_assert_no_error (error);
  g_assert_false (stopped);
  g_assert_cmpstr (walk.out->str, ==, want->str);
  if (walk.seen >= 2)
    {
      guint all = walk.seen;

      g_string_truncate (walk.out, 0);
      walk.seen = 0;
      walk.stop_at = all / 2;
      g_assert_true (
          ddb_item_encoded_foreach_scalar (data, len, walk_scalar, &walk, &stopped, &error));
      g_assert_true (stopped);
      g_assert_cmpuint (walk.seen, ==, all / 2);
    }
  g_string_free (walk.out, TRUE);
  assert_lookup (data, len, item);
}

/* Encodes, decodes, and checks the result is written back as the same DynamoDB JSON text, which
 * keeps attribute and set element order: what an export needs. */
static void
assert_round_trip (const DdbValue *item)
{
  g_autoptr (GBytes) enc = encode (item);
  GError *error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (enc, &len);
  g_autoptr (DdbValue) back = ddb_item_decode (data, len, &error);
  g_autofree char *want = ddb_json_format_item (item);
  g_autofree char *got = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (back);
  got = ddb_json_format_item (back);
  g_assert_cmpstr (got, ==, want);
  g_assert_true (ddb_value_equal (item, back));
  assert_encoded_size (data, len, item);
}

static void
assert_round_trip_json (const char *json)
{
  g_autoptr (DdbValue) item = tu_item (json);

  assert_round_trip (item);
}

static void
assert_malformed (const guint8 *data, gsize len, const char *what)
{
  GError *error = NULL;
  DdbValue *v = ddb_item_decode (data, len, &error);
  g_autofree char *msg = g_strconcat ("Malformed stored item: ", what, NULL);

  g_assert_null (v);
  tu_assert_error (error, DDB_ERROR_INTERNAL, msg);
  g_clear_error (&error);
}

static void
test_types (void)
{
  assert_round_trip_json ("{'s': {'S': 'hello'}, 'e': {'S': ''}, 'b': {'B': 'AAEC/w=='},"
                          " 'eb': {'B': ''}, 'bt': {'BOOL': true}, 'bf': {'BOOL': false},"
                          " 'nl': {'NULL': true}, 'm': {'M': {}}, 'l': {'L': []},"
                          " 'ss': {'SS': ['b', 'a', '']}, 'ns': {'NS': ['3', '-1', '0.5']},"
                          " 'bs': {'BS': ['AQ==', 'AA==', '']}}");
  assert_round_trip_json ("{}");
  assert_round_trip_json ("{'': {'S': 'empty name'}, 'nul': {'S': 'a\\u0000b'},"
                          " 'u': {'S': '\\u00e9\\u4e2d\\ud83d\\ude00'}}");
}

static void
test_numbers (void)
{
  static const char *const numbers[] = {
    "0",
    "1",
    "-1",
    "5",
    "10",
    "100",
    "0.5",
    "-0.05",
    "123456789",
    "1E-130",
    "-1E-130",
    "9.9999999999999999999999999999999999999E+125",
    "-9.9999999999999999999999999999999999999E+125",
    "12345678901234567890123456789012345678",
    "-0.12345678901234567890123456789012345678",
    "1.2345678901234",
    "12345678901234",
    "123456789012345",
    "3.14159",
    "1E+125",
    "1E-129",
  };

  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      g_autofree char *json = g_strdup_printf ("{'n': {'N': '%s'}}", numbers[i]);
      g_autoptr (DdbValue) item = tu_item (json);
      g_autoptr (GBytes) enc = encode (item);
      g_autoptr (DdbValue) back = NULL;
      DdbValue *n;
      GError *error = NULL;
      gsize len;
      const guint8 *data = g_bytes_get_data (enc, &len);

      back = ddb_item_decode (data, len, &error);
      g_assert_no_error (error);
      n = ddb_value_map_get (back, "n");
      g_assert_nonnull (n);
      g_assert_cmpint (n->type, ==, DDB_TYPE_N);
      g_assert_true (memcmp (&n->number, &ddb_value_map_get (item, "n")->number,
                             G_STRUCT_OFFSET (DdbNumber, d) + n->number.ndigits)
                     == 0);
      g_assert_cmpint (n->number.exponent, ==, ddb_value_map_get (item, "n")->number.exponent);
      /* name (1 + 1) + map tag + number: at most tag, count, 2 exponent bytes, 19 pairs */
      g_assert_cmpuint (len, <=, 3 + 1 + 1 + 2 + 19);
    }
}

/* The format is stored on disk: pin a few encodings so that a change cannot go unnoticed. */
static void
test_layout (void)
{
  static const guint8 s[] = { 0x15, 0x01, 'a', 0x10, 'x' };
  static const guint8 n5[] = { 0x15, 0x01, 'a', 0x11, 0x04, 50 };
  static const guint8 nneg[] = { 0x15, 0x01, 'a', 0x11, 0x03, 50 };
  static const guint8 zero[] = { 0x15, 0x01, 'a', 0x01 };
  static const guint8 misc[]
      = { 0x35, 0x01, 'b', 0x13, 0x01, 'z', 0x04, 0x01, 'l', 0x26, 0x02, 0x10, 'q' };
  struct {
    const char *json;
    const guint8 *bytes;
    gsize len;
  } cases[] = {
    { "{'a': {'S': 'x'}}", s, sizeof s },
    { "{'a': {'N': '5'}}", n5, sizeof n5 },
    { "{'a': {'N': '-0.05'}}", nneg, sizeof nneg },
    { "{'a': {'N': '-0'}}", zero, sizeof zero },
    { "{'b': {'BOOL': true}, 'z': {'NULL': true}, 'l': {'L': [{'B': ''}, {'S': 'q'}]}}", misc,
      sizeof misc },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DdbValue) item = tu_item (cases[i].json);
      g_autoptr (GBytes) enc = encode (item);
      g_autoptr (GBytes) want = g_bytes_new_static (cases[i].bytes, cases[i].len);

      g_assert_true (g_bytes_equal (enc, want));
    }
}

static void
test_long_lengths (void)
{
  g_autoptr (DdbValue) item = ddb_value_new_m ();
  GString *s = g_string_new (NULL);
  g_autoptr (GBytes) enc = NULL;
  gsize len;

  /* Around the one-byte / extended boundaries of the tag and of the varint. */
  for (guint n = 0; n < 20; n++)
    {
      g_autofree char *name = g_strdup_printf ("s%u", n);
      ddb_value_map_set (item, name, ddb_value_new_s (s->str, (gssize) s->len));
      g_string_append_c (s, 'a' + n);
    }
  g_string_set_size (s, 0);
  for (guint n = 0; n < 70000; n++)
    g_string_append_c (s, (char) ('a' + n % 26));
  ddb_value_map_set (item, "long", ddb_value_new_s (s->str, 142));
  ddb_value_map_set (item, "longer", ddb_value_new_s (s->str, 16383 + 15));
  ddb_value_map_set (item, "longest", ddb_value_new_b (s->str, 70000));
  g_string_free (s, TRUE);
  assert_round_trip (item);

  /* Framing is small: 70000 bytes cost a tag and a three-byte varint. */
  enc = encode (item);
  g_bytes_get_data (enc, &len);
  g_assert_cmpuint (len, <, 70000 + 16398 + 142 + 20 * 22 / 2 + 200);
}

/* Wraps `inner` in `depth` single-attribute maps (or lists). */
static DdbValue *
wrap (DdbValue *inner, guint depth, gboolean lists)
{
  for (guint i = 0; i < depth; i++)
    {
      DdbValue *w = lists ? ddb_value_new_l () : ddb_value_new_m ();
      if (lists)
        ddb_value_list_append (w, inner);
      else
        ddb_value_map_set (w, "x", inner);
      inner = w;
    }
  return inner;
}

static void
test_nesting (void)
{
  for (guint lists = 0; lists < 2; lists++)
    {
      /* 31 wraps around a scalar: the scalar is at level 32, the deepest DynamoDB accepts. */
      g_autoptr (DdbValue) ok = ddb_value_new_m ();
      g_autoptr (DdbValue) deep = ddb_value_new_m ();
      g_autoptr (GBytes) enc = NULL;
      GError *error = NULL;
      gsize len;
      const guint8 *data;

      ddb_value_map_set (ok, "a", wrap (ddb_value_new_s ("deep", -1), 31, lists));
      g_assert_true (ddb_item_validate (ok, NULL));
      assert_round_trip (ok);

      /* One more is refused, as ddb_item_validate() refuses it: a stored item can never hold
       * what DynamoDB refuses, and decoding cannot recurse without bound. */
      ddb_value_map_set (deep, "a", wrap (ddb_value_new_s ("deep", -1), 32, lists));
      g_assert_false (ddb_item_validate (deep, &error));
      g_clear_error (&error);
      enc = encode (deep);
      data = g_bytes_get_data (enc, &len);
      assert_malformed (data, len, "nested too deep");
    }
}

static void
test_big_sets (void)
{
  g_autoptr (DdbValue) item = ddb_value_new_m ();
  DdbValue *ss = ddb_value_new_set (DDB_TYPE_SS);
  DdbValue *ns = ddb_value_new_set (DDB_TYPE_NS);
  DdbValue *bs = ddb_value_new_set (DDB_TYPE_BS);
  DdbValue *l = ddb_value_new_l ();

  /* Not in sorted order, to see that order is kept. */
  for (guint i = 0; i < 5000; i++)
    {
      guint k = (i * 7919) % 5000;
      g_autofree char *s = g_strdup_printf ("elem-%u", k);
      g_autofree char *n = g_strdup_printf ("%u.%u", k, k % 7 + 1);
      DdbNumber num;
      guint8 b[4] = { (guint8) (k >> 8), (guint8) k, 0, (guint8) (k % 3) };

      g_assert_true (ddb_value_set_add (ss, ddb_value_new_s (s, -1)));
      g_assert_true (ddb_number_parse (&num, n, -1, NULL));
      g_assert_true (ddb_value_set_add (ns, ddb_value_new_n (&num)));
      g_assert_true (ddb_value_set_add (bs, ddb_value_new_b (b, sizeof b)));
      ddb_value_list_append (l, ddb_value_new_n (&num));
    }
  ddb_value_map_set (item, "ss", ss);
  ddb_value_map_set (item, "ns", ns);
  ddb_value_map_set (item, "bs", bs);
  ddb_value_map_set (item, "l", l);
  assert_round_trip (item);
}

static void
test_many_attributes (void)
{
  g_autoptr (DdbValue) item = ddb_value_new_m ();
  g_autoptr (GBytes) enc = NULL;
  g_autoptr (GByteArray) dup = NULL;
  gsize len;
  const guint8 *data;

  /* Past the pairwise duplicate check, into the hashed one. */
  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *name = g_strdup_printf ("attr%03u", 299 - i);
      ddb_value_map_set (item, name, ddb_value_new_bool (i % 2));
    }
  assert_round_trip (item);

  /* The same with the last name made equal to the first. */
  enc = encode (item);
  data = g_bytes_get_data (enc, &len);
  dup = g_byte_array_new ();
  g_byte_array_append (dup, data, (guint) len);
  g_assert_cmpuint (len, >, 20);
  /* last attribute: varint 7, "attr000", bool tag: rename it to attr299 */
  g_assert_cmpmem (dup->data + dup->len - 8, 7, "attr000", 7);
  memcpy (dup->data + dup->len - 8, "attr299", 7);
  assert_malformed (dup->data, dup->len, "duplicate attribute name");
}

static DdbValue *
realistic_item (void)
{
  return tu_item ("{'PK': {'S': 'WS#acme'}, 'SK': {'S': 'PROJ#000042'},"
                  " 'name': {'S': 'Project forty-two'}, 'owner': {'S': 'USER#12'},"
                  " 'budget': {'N': '12345678901234567890123456789012345678'},"
                  " 'created': {'N': '1714564800'}, 'tags': {'SS': ['blue', 'green']},"
                  " 'scores': {'NS': ['1', '2.5', '-3']}, 'active': {'BOOL': true},"
                  " 'meta': {'M': {'region': {'S': 'eu-west-1'}, 'tier': {'N': '3'},"
                  " 'flags': {'L': [{'S': 'a'}, {'NULL': true}, {'B': 'AAEC'}]}}}}");
}

/* Every prefix of a valid encoding is refused with a clean error (ASan checks the reads). */
static void
test_truncation (void)
{
  g_autoptr (DdbValue) item = realistic_item ();
  g_autoptr (GBytes) enc = encode (item);
  gsize len;
  const guint8 *data = g_bytes_get_data (enc, &len);

  for (gsize n = 0; n < len; n++)
    {
      /* A heap copy of exactly n bytes, so that any read past it is caught. */
      guint8 *copy = g_memdup2 (data, n);
      GError *error = NULL;
      DdbValue *v = ddb_item_decode (copy, n, &error);

      g_assert_null (v);
      g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
      g_assert_true (g_str_has_prefix (error->message, "Malformed stored item: "));
      g_clear_error (&error);
      {
        gsize size = 0;

        g_assert_false (ddb_item_encoded_size (copy, n, &size, &error));
        g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
        g_assert_true (g_str_has_prefix (error->message, "Malformed stored item: "));
        g_clear_error (&error);
      }
      {
        Walk walk = { g_string_new (NULL), 0, 0 };

        g_assert_false (
            ddb_item_encoded_foreach_scalar (copy, n, walk_scalar, &walk, NULL, &error));
        g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
        g_clear_error (&error);
        g_string_free (walk.out, TRUE);
      }
      {
        /* With the size, the whole item is walked: refused. Without, an attribute found before
         * the cut is whole and reads as it is. */
        const char *names[] = { "PK", "budget", "meta", "none" };
        DdbEncodedValue values[G_N_ELEMENTS (names)];
        gsize size;

        g_assert_false (
            ddb_item_encoded_lookup (copy, n, names, G_N_ELEMENTS (names), values, &size, &error));
        g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
        g_clear_error (&error);
        for (guint j = 0; j < G_N_ELEMENTS (names); j++)
          {
            DdbEncodedValue one;

            if (!ddb_item_encoded_lookup (copy, n, &names[j], 1, &one, NULL, &error))
              {
                g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
                g_clear_error (&error);
                continue;
              }
            g_assert_nonnull (one.data);
            g_assert_true (one.data + one.len <= copy + n);
            assert_encoded_value (&one, ddb_value_map_get (item, names[j]));
          }
      }
      g_free (copy);
    }
}

/* Every single-byte change either decodes to a valid item or fails cleanly. */
static void
test_corruption (void)
{
  g_autoptr (DdbValue) item = realistic_item ();
  g_autoptr (GBytes) enc = encode (item);
  gsize len;
  const guint8 *data = g_bytes_get_data (enc, &len);
  static const guint8 patterns[] = { 0x00, 0x01, 0x0F, 0x10, 0x7F, 0x80, 0xF0, 0xFF };

  for (gsize i = 0; i < len; i++)
    for (guint k = 0; k < G_N_ELEMENTS (patterns) + 1; k++)
      {
        guint8 *copy = g_memdup2 (data, len);
        GError *error = NULL;
        DdbValue *v;

        copy[i] = k < G_N_ELEMENTS (patterns) ? patterns[k] : (guint8) (copy[i] ^ 0x5A);
        v = ddb_item_decode (copy, len, &error);
        if (v != NULL)
          {
            g_assert_no_error (error);
            g_assert_true (ddb_item_validate (v, NULL));
            assert_encoded_size (copy, len, v);
            ddb_value_free (v);
          }
        else
          {
            gsize size;

            g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
            g_clear_error (&error);
            /* What decoding refuses, the size may read (it checks framing only), or refuse;
             * as the walk of its scalars does, which reads the numbers' digits too. */
            {
              Walk walk = { g_string_new (NULL), 0, 0 };
              GError *walk_error = NULL;
              gboolean sized = ddb_item_encoded_size (copy, len, &size, &error);
              gboolean walked = ddb_item_encoded_foreach_scalar (copy, len, walk_scalar, &walk,
                                                                 NULL, &walk_error);

              gboolean digits = !walked
                                && (strstr (walk_error->message, "number digits") != NULL
                                    || strstr (walk_error->message, "not normalized") != NULL);

              /* The same error, unless the walk met bad digits first. */
              if (!sized)
                {
                  g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
                  g_assert_false (walked);
                  if (!digits)
                    g_assert_cmpstr (walk_error->message, ==, error->message);
                }
              else if (!walked)
                g_assert_true (digits);
              g_clear_error (&walk_error);
              g_string_free (walk.out, TRUE);
            }
            g_clear_error (&error);
            /* And so may a lookup; what it finds lies within the bytes, and reads or is
             * refused. */
            {
              const char *names[] = { "PK", "budget", "active", "meta", "none" };
              DdbEncodedValue values[G_N_ELEMENTS (names)];

              for (guint with_size = 0; with_size < 2; with_size++)
                {
                  if (!ddb_item_encoded_lookup (copy, len, names, G_N_ELEMENTS (names), values,
                                                with_size ? &size : NULL, &error))
                    {
                      g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
                      g_clear_error (&error);
                      continue;
                    }
                  for (guint j = 0; j < G_N_ELEMENTS (names); j++)
                    {
                      DdbEncodedScalar scalar;
                      DdbNumber number;
                      DdbValue *built;

                      if (values[j].data == NULL)
                        continue;
                      g_assert_true (values[j].data > copy);
                      g_assert_true (values[j].data + values[j].len <= copy + len);
                      if (!ddb_encoded_value_get_scalar (&values[j], &scalar, &number, &error))
                        g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
                      g_clear_error (&error);
                      built = ddb_encoded_value_decode (&values[j], &error);
                      if (built == NULL)
                        g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
                      g_clear_error (&error);
                      g_clear_pointer (&built, ddb_value_free);
                    }
                }
            }
          }
        g_free (copy);
      }
}

static void
test_malformed (void)
{
  /* {'a': ...} prefix: map of 1, name "a" */
#define M1 0x15, 0x01, 'a'
  static const guint8 not_map[] = { 0x10, 'x' };
  static const guint8 trailing[] = { M1, 0x10, 'x', 0x00 };
  static const guint8 bad_tag[] = { M1, 0x0A };
  static const guint8 bad_utf8[] = { M1, 0x10, 0xC0 };
  static const guint8 bad_name[] = { 0x15, 0x01, 0xFF, 0x02 };
  static const guint8 dup_names[] = { 0x25, 0x01, 'a', 0x02, 0x01, 'a', 0x02 };
  static const guint8 empty_set[] = { M1, 0x07 };
  static const guint8 dup_set[] = { M1, 0x27, 0x10, 'x', 0x10, 'x' };
  static const guint8 dup_nset[] = { M1, 0x28, 0x11, 0x04, 50, 0x11, 0x04, 50 };
  static const guint8 wrong_elem[] = { M1, 0x17, 0x11, 0x04, 50 };
  static const guint8 bad_bool[] = { M1, 0x23 };
  static const guint8 bad_null[] = { M1, 0x14 };
  static const guint8 bad_digit[] = { M1, 0x11, 0x04, 100 };
  static const guint8 pad_digit[] = { M1, 0x11, 0x04, 51 };
  static const guint8 lead_zero[] = { M1, 0x21, 0x04, 5 };
  static const guint8 trail_zero[] = { M1, 0x21, 0x04, 50 };
  static const guint8 exp_big[] = { M1, 0x11, 0xFC, 0x03, 50 };   /* exponent 127 */
  static const guint8 exp_small[] = { M1, 0x11, 0x86, 0x04, 50 }; /* exponent -130 */
  static const guint8 many_digits[] = { M1, 0xF1, 39 };
  static const guint8 short_count[] = { M1, 0xF1, 14 };
  static const guint8 overlong[] = { M1, 0x11, 0x84, 0x00, 50 };
  static const guint8 huge_len[] = { M1, 0xF0, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F };
  static const guint8 huge_count[]
      = { 0xF5, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01 };
  static const guint8 varint_over[]
      = { 0xF5, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02 };

  assert_malformed (NULL, 0, "empty");
  assert_malformed (not_map, sizeof not_map, "not a map");
  assert_malformed (trailing, sizeof trailing, "trailing bytes");
  assert_malformed (bad_tag, sizeof bad_tag, "unknown type tag");
  assert_malformed (bad_utf8, sizeof bad_utf8, "string is not valid UTF-8");
  assert_malformed (bad_name, sizeof bad_name, "attribute name is not valid UTF-8");
  assert_malformed (dup_names, sizeof dup_names, "duplicate attribute name");
  assert_malformed (empty_set, sizeof empty_set, "empty set");
  assert_malformed (dup_set, sizeof dup_set, "duplicate set element");
  assert_malformed (dup_nset, sizeof dup_nset, "duplicate set element");
  assert_malformed (wrong_elem, sizeof wrong_elem, "set element of the wrong type");
  assert_malformed (bad_bool, sizeof bad_bool, "invalid boolean");
  assert_malformed (bad_null, sizeof bad_null, "invalid null");
  assert_malformed (bad_digit, sizeof bad_digit, "invalid number digits");
  assert_malformed (pad_digit, sizeof pad_digit, "invalid number digits");
  assert_malformed (lead_zero, sizeof lead_zero, "number not normalized");
  assert_malformed (trail_zero, sizeof trail_zero, "number not normalized");
  assert_malformed (exp_big, sizeof exp_big, "number exponent out of range");
  assert_malformed (exp_small, sizeof exp_small, "number exponent out of range");
  assert_malformed (many_digits, sizeof many_digits, "number has too many digits");
  assert_malformed (short_count, sizeof short_count, "overlong number digit count");
  assert_malformed (overlong, sizeof overlong, "overlong length");
  assert_malformed (huge_len, sizeof huge_len, "truncated value");
  assert_malformed (huge_count, sizeof huge_count, "length out of range");
  assert_malformed (varint_over, sizeof varint_over, "length out of range");
#undef M1
}

/* The value of attribute NAME of the item DATA (LEN bytes) is refused as a scalar with WHAT. */
static void
assert_bad_scalar (const guint8 *data, gsize len, const char *name, const char *what)
{
  DdbEncodedValue value;
  DdbEncodedScalar scalar;
  DdbNumber number;
  GError *error = NULL;
  g_autofree char *msg = g_strconcat ("Malformed stored item: ", what, NULL);

  g_assert_true (ddb_item_encoded_lookup (data, len, &name, 1, &value, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (value.data);
  g_assert_false (ddb_encoded_value_get_scalar (&value, &scalar, &number, &error));
  tu_assert_error (error, DDB_ERROR_INTERNAL, msg);
  g_clear_error (&error);
  g_assert_null (ddb_encoded_value_decode (&value, &error));
  tu_assert_error (error, DDB_ERROR_INTERNAL, msg);
  g_clear_error (&error);
}

static void
assert_lookup_fails (const guint8 *data, gsize len, const char *name, gboolean with_size,
                     const char *what)
{
  DdbEncodedValue value;
  gsize size;
  GError *error = NULL;
  g_autofree char *msg = g_strconcat ("Malformed stored item: ", what, NULL);

  g_assert_false (
      ddb_item_encoded_lookup (data, len, &name, 1, &value, with_size ? &size : NULL, &error));
  tu_assert_error (error, DDB_ERROR_INTERNAL, msg);
  g_clear_error (&error);
}

/* Attributes found where they lie: the walk stops at the last one asked for (what follows is not
 * looked at, unless the size is asked for too), their contents are checked only when read. */
static void
test_lookup (void)
{
#define M1 0x15, 0x01, 'a'
#define M2 0x25, 0x01, 'a'
  static const guint8 then_bad_tag[] = { M2, 0x10, 'x', 0x01, 'b', 0x0A };
  static const guint8 then_cut[] = { M2, 0x10, 'x', 0x01, 'b', 0x30, 'y' };
  static const guint8 dup_names[] = { 0x25, 0x01, 'a', 0x10, '1', 0x01, 'a', 0x10, '2' };
  static const guint8 bad_utf8[] = { M1, 0x10, 0xC0 };
  static const guint8 bad_bool[] = { M1, 0x23 };
  static const guint8 bad_null[] = { M1, 0x14 };
  static const guint8 bad_digit[] = { M1, 0x11, 0x04, 100 };
  static const guint8 pad_digit[] = { M1, 0x11, 0x04, 51 };
  static const guint8 lead_zero[] = { M1, 0x21, 0x04, 5 };
  static const guint8 trail_zero[] = { M1, 0x21, 0x04, 50 };
  static const guint8 exp_big[] = { M1, 0x11, 0xFC, 0x03, 50 };
  static const guint8 many_digits[] = { M1, 0xF1, 39 };
  static const guint8 short_number[] = { M1, 0x31, 0x04, 12 };
  static const guint8 not_map[] = { 0x10, 'x' };
  static const guint8 empty_set[] = { M1, 0x07 };
  const char *a = "a", *b = "b";
  DdbEncodedValue values[12];
  const char *names[12];
  GError *error = NULL;
  gsize size = 0;

  /* Found before what is wrong: no error, unless the whole item is walked for its size. */
  g_assert_true (
      ddb_item_encoded_lookup (then_bad_tag, sizeof then_bad_tag, &a, 1, values, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (values[0].data, values[0].len, then_bad_tag + 3, 2);
  assert_lookup_fails (then_bad_tag, sizeof then_bad_tag, a, TRUE, "unknown type tag");
  assert_lookup_fails (then_bad_tag, sizeof then_bad_tag, b, FALSE, "unknown type tag");
  g_assert_true (ddb_item_encoded_lookup (then_cut, sizeof then_cut, &a, 1, values, NULL, &error));
  assert_lookup_fails (then_cut, sizeof then_cut, b, FALSE, "truncated value");
  assert_lookup_fails (then_cut, sizeof then_cut, a, TRUE, "truncated value");
  /* A name held twice: the first. */
  g_assert_true (
      ddb_item_encoded_lookup (dup_names, sizeof dup_names, &a, 1, values, &size, &error));
  g_assert_cmpmem (values[0].data, values[0].len, dup_names + 3, 2);
  /* What decoding checks in a value, reading it checks. */
  assert_bad_scalar (bad_utf8, sizeof bad_utf8, a, "string is not valid UTF-8");
  assert_bad_scalar (bad_bool, sizeof bad_bool, a, "invalid boolean");
  assert_bad_scalar (bad_null, sizeof bad_null, a, "invalid null");
  assert_bad_scalar (bad_digit, sizeof bad_digit, a, "invalid number digits");
  assert_bad_scalar (pad_digit, sizeof pad_digit, a, "invalid number digits");
  assert_bad_scalar (lead_zero, sizeof lead_zero, a, "number not normalized");
  assert_bad_scalar (trail_zero, sizeof trail_zero, a, "number not normalized");
  /* A number's digits do not make its size: not looked at by the walk; its framing is. */
  g_assert_true (ddb_item_encoded_size (bad_digit, sizeof bad_digit, &size, &error));
  g_assert_cmpuint (size, ==, 1 + 2);
  assert_lookup_fails (exp_big, sizeof exp_big, a, FALSE, "number exponent out of range");
  assert_lookup_fails (many_digits, sizeof many_digits, a, FALSE, "number has too many digits");
  assert_lookup_fails (short_number, sizeof short_number, a, FALSE, "truncated number");
  assert_lookup_fails (not_map, sizeof not_map, a, FALSE, "not a map");
  assert_lookup_fails (not_map, 0, a, FALSE, "empty");
  /* A set is read as its type only, and decoded whole (here refused). */
  {
    DdbEncodedScalar scalar;
    DdbNumber number;

    g_assert_true (
        ddb_item_encoded_lookup (empty_set, sizeof empty_set, &a, 1, values, NULL, &error));
    g_assert_true (ddb_encoded_value_get_scalar (&values[0], &scalar, &number, &error));
    g_assert_cmpint (scalar.type, ==, DDB_TYPE_SS);
    g_assert_null (ddb_encoded_value_decode (&values[0], &error));
    tu_assert_error (error, DDB_ERROR_INTERNAL, "Malformed stored item: empty set");
    g_clear_error (&error);
  }
  /* More names than are counted on the stack. */
  {
    g_autoptr (DdbValue) item = realistic_item ();
    g_autoptr (GBytes) enc = encode (item);
    gsize len;
    const guint8 *data = g_bytes_get_data (enc, &len);

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      names[i] = i < ddb_value_map_size (item) ? ddb_value_map_nth (item, i)->name : "absent";
    g_assert_true (
        ddb_item_encoded_lookup (data, len, names, G_N_ELEMENTS (names), values, &size, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (size, ==, ddb_item_size (item));
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      if (i < ddb_value_map_size (item))
        assert_encoded_value (&values[i], ddb_value_map_nth (item, i)->value);
      else
        g_assert_null (values[i].data);
  }
#undef M1
#undef M2
}

/* The demo items (the seeds' shapes) are stored in at most 0.6 of their DynamoDB JSON size. */
static void
test_size (void)
{
  const char *srcdir = g_getenv ("DYNOSCOPE_SOURCE_DIR");
  static const char *const files[] = { "posts.jsonl", "workspaces.jsonl" };
  gsize json_total = 0, enc_total = 0;

  if (srcdir == NULL)
    {
      g_test_skip ("DYNOSCOPE_SOURCE_DIR is not set");
      return;
    }
  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = g_build_filename (srcdir, "data", "demo", files[f], NULL);
      g_autofree char *text = NULL;
      g_auto (GStrv) lines = NULL;
      GError *error = NULL;

      g_assert_true (g_file_get_contents (path, &text, NULL, &error));
      g_assert_no_error (error);
      lines = g_strsplit (text, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        {
          g_autoptr (DdbValue) item = NULL;
          g_autoptr (GBytes) enc = NULL;

          if (lines[i][0] == '\0')
            continue;
          item = ddb_json_parse_item (lines[i], -1, &error);
          g_assert_no_error (error);
          assert_round_trip (item);
          enc = encode (item);
          json_total += strlen (lines[i]);
          enc_total += g_bytes_get_size (enc);
          /* Each item on its own too (an item of long strings saves less than the average). */
          g_assert_cmpuint (g_bytes_get_size (enc) * 10, <=, strlen (lines[i]) * 7);
        }
    }
  g_assert_cmpuint (json_total, >, 1000);
  g_test_message ("demo items: %" G_GSIZE_FORMAT " bytes encoded, %" G_GSIZE_FORMAT
                  " bytes of DynamoDB JSON",
                  enc_total, json_total);
  g_assert_cmpuint (enc_total * 10, <=, json_total * 6);
}

/* Keyless: key attributes leave a two-byte placeholder and come back at their place; a
 * placeholder or value out of place is malformed; nested maps never hold placeholders. */
static void
test_keyless (void)
{
  g_autoptr (DdbValue) item = tu_item ("{'a': {'S': 'x'}, 'sk': {'N': '12'}, 'm': {'M': {'pk': {'S': 'in'}}}, 'pk': {'S': 'key'}}");
  const char *names[DDB_ITEM_MAX_KEY_SLOTS] = { "pk", "sk", NULL, "absent" };
  g_autoptr (GByteArray) keyless = g_byte_array_new ();
  g_autoptr (GByteArray) full = g_byte_array_new ();
  DdbValue *values[DDB_ITEM_MAX_KEY_SLOTS] = { tu_str ("key"), tu_num ("12"), NULL, NULL };
  GError *error = NULL;
  g_autoptr (DdbValue) back = NULL;
  g_autofree char *want = ddb_json_format_item (item);
  g_autofree char *got = NULL;

  ddb_item_encode_keyless (item, names, DDB_ITEM_MAX_KEY_SLOTS, keyless);
  ddb_item_encode (item, full);
  /* "pk" + S "key" (1 + 2 + 1 + 3) and "sk" + N 12 (1 + 2 + 1 + 1 + 1) become 2 bytes each. */
  g_assert_cmpuint (keyless->len, ==, full->len - 7 - 6 + 4);
  back = ddb_item_decode_keyed (keyless->data, keyless->len, names, values,
                                DDB_ITEM_MAX_KEY_SLOTS, &error);
  g_assert_no_error (error);
  got = ddb_json_format_item (back);
  g_assert_cmpstr (got, ==, want);
  g_assert_null (values[0]);
  g_assert_null (values[1]);

  /* A missing value, a value without its placeholder, and a plain decode of a keyless blob. */
  {
    DdbValue *v2[DDB_ITEM_MAX_KEY_SLOTS] = { tu_str ("key"), NULL, NULL, NULL };
    DdbValue *r = ddb_item_decode_keyed (keyless->data, keyless->len, names, v2,
                                         DDB_ITEM_MAX_KEY_SLOTS, &error);

    g_assert_null (r);
    tu_assert_error (error, DDB_ERROR_INTERNAL,
                     "Malformed stored item: key placeholder without its value");
    g_clear_error (&error);
    g_assert_null (v2[0]);
  }
  {
    DdbValue *v3[DDB_ITEM_MAX_KEY_SLOTS] = { tu_str ("key"), tu_num ("12"), tu_num ("1"), NULL };
    DdbValue *r = ddb_item_decode_keyed (keyless->data, keyless->len, names, v3,
                                         DDB_ITEM_MAX_KEY_SLOTS, &error);

    g_assert_null (r);
    tu_assert_error (error, DDB_ERROR_INTERNAL,
                     "Malformed stored item: key attribute without its placeholder");
    g_clear_error (&error);
    g_assert_null (v3[2]);
  }
  {
    DdbValue *r = ddb_item_decode (keyless->data, keyless->len, &error);

    g_assert_null (r);
    g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
    g_clear_error (&error);
  }
  /* Truncated anywhere: refused, nothing leaked. */
  for (guint n = 0; n < keyless->len; n++)
    {
      DdbValue *v4[DDB_ITEM_MAX_KEY_SLOTS] = { tu_str ("key"), tu_num ("12"), NULL, NULL };
      DdbValue *r = ddb_item_decode_keyed (keyless->data, n, names, v4, DDB_ITEM_MAX_KEY_SLOTS,
                                           &error);

      g_assert_null (r);
      g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
      g_clear_error (&error);
    }
}

/* Decoding only some attributes: the keys and the wanted ones come back in their stored order,
 * the others (of every type, nested too) are stepped over; a blob cut anywhere is still refused,
 * inside an attribute stepped over too. */
static void
test_keyed_some (void)
{
  g_autoptr (DdbValue) item = tu_item (
      "{'m': {'M': {'x': {'L': [{'N': '1'}, {'SS': ['a', 'b']}, {'NULL': true}]}}}, 'a': {'S': "
      "'x'}, 'pk': {'S': 'key'}, 'n': {'N': '-12.5E40'}, 'bin': {'B': 'AAEC'}, 'ns': {'NS': ['1', "
      "'2']}, 'ok': {'BOOL': true}, 'long': {'S': '0123456789012345678901234567890123456789'}, "
      "'z': {'N': '7'}}");
  const char *names[DDB_ITEM_MAX_KEY_SLOTS] = { "pk", NULL, NULL, NULL };
  const char *const wanted[] = { "z", "a", "absent" };
  g_autoptr (GByteArray) keyless = g_byte_array_new ();
  GError *error = NULL;

  ddb_item_encode_keyless (item, names, DDB_ITEM_MAX_KEY_SLOTS, keyless);
  {
    DdbValue *values[DDB_ITEM_MAX_KEY_SLOTS] = { tu_str ("key"), NULL, NULL, NULL };
    g_autoptr (DdbValue) some = ddb_item_decode_keyed_some (keyless->data, keyless->len, names,
                                                            values, DDB_ITEM_MAX_KEY_SLOTS, wanted,
                                                            G_N_ELEMENTS (wanted), &error);
    g_autofree char *got = NULL;

    g_assert_no_error (error);
    got = ddb_json_format_item (some);
    g_assert_cmpstr (got, ==, "{\"a\":{\"S\":\"x\"},\"pk\":{\"S\":\"key\"},\"z\":{\"N\":\"7\"}}");
  }
  {
    /* None wanted: the key alone. */
    DdbValue *values[DDB_ITEM_MAX_KEY_SLOTS] = { tu_str ("key"), NULL, NULL, NULL };
    g_autoptr (DdbValue) keys = ddb_item_decode_keyed_some (
        keyless->data, keyless->len, names, values, DDB_ITEM_MAX_KEY_SLOTS, wanted, 0, &error);
    g_autofree char *got = NULL;

    g_assert_no_error (error);
    got = ddb_json_format_item (keys);
    g_assert_cmpstr (got, ==, "{\"pk\":{\"S\":\"key\"}}");
  }
  for (guint n = 0; n < keyless->len; n++)
    {
      DdbValue *values[DDB_ITEM_MAX_KEY_SLOTS] = { tu_str ("key"), NULL, NULL, NULL };
      DdbValue *r = ddb_item_decode_keyed_some (keyless->data, n, names, values,
                                                DDB_ITEM_MAX_KEY_SLOTS, wanted, 1, &error);

      g_assert_null (r);
      g_assert_error (error, DDB_ERROR, DDB_ERROR_INTERNAL);
      g_clear_error (&error);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/itemcodec/types", test_types);
  g_test_add_func ("/itemcodec/keyless", test_keyless);
  g_test_add_func ("/itemcodec/keyed-some", test_keyed_some);
  g_test_add_func ("/itemcodec/numbers", test_numbers);
  g_test_add_func ("/itemcodec/layout", test_layout);
  g_test_add_func ("/itemcodec/long-lengths", test_long_lengths);
  g_test_add_func ("/itemcodec/nesting", test_nesting);
  g_test_add_func ("/itemcodec/big-sets", test_big_sets);
  g_test_add_func ("/itemcodec/many-attributes", test_many_attributes);
  g_test_add_func ("/itemcodec/truncation", test_truncation);
  g_test_add_func ("/itemcodec/corruption", test_corruption);
  g_test_add_func ("/itemcodec/malformed", test_malformed);
  g_test_add_func ("/itemcodec/size", test_size);
  g_test_add_func ("/itemcodec/lookup", test_lookup);

  return g_test_run ();
}
