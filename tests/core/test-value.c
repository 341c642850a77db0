/* test-value.c: DdbValue constructors, equality, map/list/set semantics and validation. */
#include <string.h>

#include "core/error.h"
#include "core/value.h"

#include "test-util.h"

static DdbValue *
set_of (DdbType type, ...)
{
  DdbValue *set = ddb_value_new_set (type);
  va_list ap;
  const char *s;

  va_start (ap, type);
  while ((s = va_arg (ap, const char *)) != NULL)
    {
      DdbValue *e = type == DDB_TYPE_NS   ? tu_num (s)
                    : type == DDB_TYPE_SS ? tu_str (s)
                                          : ddb_value_new_b (s, strlen (s));
      /* Append directly so tests can build sets with duplicates. */
      g_ptr_array_add (set->elems, e);
    }
  va_end (ap);
  return set;
}

static void
assert_invalid (const DdbValue *v, const char *message)
{
  GError *error = NULL;

  g_assert_false (ddb_value_validate (v, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  g_error_free (error);
}

static void
assert_valid (const DdbValue *v)
{
  GError *error = NULL;

  g_assert_true (ddb_value_validate (v, &error));
  g_assert_no_error (error);
}

static void
test_type_names (void)
{
  static const char *const names[] = { "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS" };
  DdbType t;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_assert_cmpstr (ddb_type_name ((DdbType) i), ==, names[i]);
      g_assert_true (ddb_type_from_name (names[i], &t));
      g_assert_cmpint (t, ==, i);
    }
  g_assert_null (ddb_type_name ((DdbType) DDB_N_TYPES));
  g_assert_false (ddb_type_from_name ("s", &t));
  g_assert_false (ddb_type_from_name ("", &t));
  g_assert_false (ddb_type_from_name ("SSS", &t));
  g_assert_false (ddb_type_from_name (NULL, &t));

  g_assert_true (ddb_type_is_set (DDB_TYPE_SS));
  g_assert_true (ddb_type_is_set (DDB_TYPE_NS));
  g_assert_true (ddb_type_is_set (DDB_TYPE_BS));
  g_assert_false (ddb_type_is_set (DDB_TYPE_L));
  g_assert_false (ddb_type_is_set (DDB_TYPE_S));
  g_assert_cmpint (ddb_type_set_element (DDB_TYPE_SS), ==, DDB_TYPE_S);
  g_assert_cmpint (ddb_type_set_element (DDB_TYPE_NS), ==, DDB_TYPE_N);
  g_assert_cmpint (ddb_type_set_element (DDB_TYPE_BS), ==, DDB_TYPE_B);
}

static void
test_constructors (void)
{
  static const char bin[] = { 0, 1, (char) 0xff, 0 };
  g_autoptr (DdbValue) s = ddb_value_new_s ("h\0llo", 5);
  g_autoptr (DdbValue) s2 = ddb_value_new_s ("héllo", -1);
  g_autoptr (DdbValue) empty = ddb_value_new_s ("", 0);
  g_autoptr (DdbValue) b = ddb_value_new_b (bin, 3);
  g_autoptr (DdbValue) eb = ddb_value_new_b (NULL, 0);
  g_autoptr (DdbValue) n = tu_num ("-12.50");
  g_autoptr (DdbValue) t = ddb_value_new_bool (TRUE);
  g_autoptr (DdbValue) f = ddb_value_new_bool (FALSE);
  g_autoptr (DdbValue) nul = ddb_value_new_null ();
  g_autoptr (DdbValue) m = ddb_value_new_m ();
  g_autoptr (DdbValue) l = ddb_value_new_l ();
  g_autoptr (DdbValue) ss = ddb_value_new_set (DDB_TYPE_SS);
  g_autofree char *ntext = NULL;
  char *owned;

  g_assert_cmpint (s->type, ==, DDB_TYPE_S);
  g_assert_cmpuint (s->bytes.len, ==, 5);
  g_assert_cmpmem (s->bytes.data, 5, "h\0llo", 5);
  g_assert_cmpint (s->bytes.data[5], ==, '\0');
  g_assert_cmpuint (s2->bytes.len, ==, 6);
  g_assert_cmpstr (s2->bytes.data, ==, "héllo");
  g_assert_cmpuint (empty->bytes.len, ==, 0);
  g_assert_nonnull (empty->bytes.data);
  g_assert_cmpstr (empty->bytes.data, ==, "");

  g_assert_cmpint (b->type, ==, DDB_TYPE_B);
  g_assert_cmpmem (b->bytes.data, b->bytes.len, bin, 3);
  g_assert_cmpint (b->bytes.data[3], ==, '\0');
  g_assert_cmpuint (eb->bytes.len, ==, 0);
  g_assert_nonnull (eb->bytes.data);

  g_assert_cmpint (n->type, ==, DDB_TYPE_N);
  ntext = ddb_number_to_string (&n->number);
  g_assert_cmpstr (ntext, ==, "-12.5");

  g_assert_cmpint (t->type, ==, DDB_TYPE_BOOL);
  g_assert_true (t->boolean);
  g_assert_false (f->boolean);
  g_assert_cmpint (nul->type, ==, DDB_TYPE_NULL);
  g_assert_cmpint (m->type, ==, DDB_TYPE_M);
  g_assert_cmpuint (ddb_value_map_size (m), ==, 0);
  g_assert_cmpint (l->type, ==, DDB_TYPE_L);
  g_assert_cmpuint (ddb_value_list_size (l), ==, 0);
  g_assert_cmpint (ss->type, ==, DDB_TYPE_SS);
  g_assert_cmpuint (ddb_value_set_size (ss), ==, 0);

  owned = g_strdup ("taken");
  {
    g_autoptr (DdbValue) tk = ddb_value_take_bytes (DDB_TYPE_S, owned, 5);
    g_assert_true (tk->bytes.data == owned);
    g_assert_cmpuint (tk->bytes.len, ==, 5);
  }
}

static void
test_map_order_and_replace (void)
{
  g_autoptr (DdbValue) m = ddb_value_new_m ();
  DdbValue *x = tu_str ("x");

  ddb_value_map_set (m, "zeta", tu_num ("1"));
  ddb_value_map_set (m, "alpha", tu_num ("2"));
  ddb_value_map_set (m, "mid", x);
  g_assert_cmpuint (ddb_value_map_size (m), ==, 3);
  g_assert_cmpstr (ddb_value_map_nth (m, 0)->name, ==, "zeta");
  g_assert_cmpstr (ddb_value_map_nth (m, 1)->name, ==, "alpha");
  g_assert_cmpstr (ddb_value_map_nth (m, 2)->name, ==, "mid");
  g_assert_cmpuint (ddb_value_map_nth (m, 1)->name_len, ==, 5);
  g_assert_true (ddb_value_map_get (m, "mid") == x);
  g_assert_null (ddb_value_map_get (m, "Mid"));
  g_assert_null (ddb_value_map_get (m, "mi"));
  g_assert_true (ddb_value_map_get_len (m, "midway", 3) == x);

  /* Replacing keeps the position and the count. */
  ddb_value_map_set (m, "zeta", tu_str ("new"));
  g_assert_cmpuint (ddb_value_map_size (m), ==, 3);
  g_assert_cmpstr (ddb_value_map_nth (m, 0)->name, ==, "zeta");
  g_assert_cmpint (ddb_value_map_nth (m, 0)->value->type, ==, DDB_TYPE_S);
  g_assert_cmpstr (ddb_value_map_nth (m, 0)->value->bytes.data, ==, "new");

  /* Setting the very value already there must not free it. */
  ddb_value_map_set (m, "mid", x);
  g_assert_true (ddb_value_map_get (m, "mid") == x);
  g_assert_cmpstr (x->bytes.data, ==, "x");

  g_assert_true (ddb_value_map_remove (m, "alpha"));
  g_assert_false (ddb_value_map_remove (m, "alpha"));
  g_assert_cmpuint (ddb_value_map_size (m), ==, 2);
  g_assert_cmpstr (ddb_value_map_nth (m, 0)->name, ==, "zeta");
  g_assert_cmpstr (ddb_value_map_nth (m, 1)->name, ==, "mid");

  /* Empty attribute names are plain names too. */
  ddb_value_map_set (m, "", ddb_value_new_null ());
  g_assert_nonnull (ddb_value_map_get (m, ""));
  g_assert_cmpuint (ddb_value_map_size (m), ==, 3);

  ddb_value_map_append (m, "appended", 8, ddb_value_new_bool (TRUE));
  g_assert_cmpstr (ddb_value_map_nth (m, 3)->name, ==, "appended");
}

static void
test_list (void)
{
  g_autoptr (DdbValue) l = ddb_value_new_l ();

  ddb_value_list_append (l, tu_str ("a"));
  ddb_value_list_append (l, tu_num ("1"));
  ddb_value_list_append (l, tu_str ("a"));
  g_assert_cmpuint (ddb_value_list_size (l), ==, 3);
  g_assert_cmpint (ddb_value_list_nth (l, 1)->type, ==, DDB_TYPE_N);
  g_assert_cmpstr (ddb_value_list_nth (l, 2)->bytes.data, ==, "a");
  g_assert_null (ddb_value_list_nth (l, 3));
}

static void
test_set_semantics (void)
{
  g_autoptr (DdbValue) ns = ddb_value_new_set (DDB_TYPE_NS);
  g_autoptr (DdbValue) ss = ddb_value_new_set (DDB_TYPE_SS);
  g_autoptr (DdbValue) bs = ddb_value_new_set (DDB_TYPE_BS);
  g_autoptr (DdbValue) probe = tu_num ("10E-1");
  g_autoptr (DdbValue) probe_s = tu_str ("1");

  g_assert_true (ddb_value_set_add (ns, tu_num ("1")));
  /* 1.0 and 1E0 are the number 1: refused. */
  g_assert_false (ddb_value_set_add (ns, tu_num ("1.0")));
  g_assert_false (ddb_value_set_add (ns, tu_num ("1E0")));
  g_assert_true (ddb_value_set_add (ns, tu_num ("-1")));
  g_assert_true (ddb_value_set_add (ns, tu_num ("0.1")));
  g_assert_cmpuint (ddb_value_set_size (ns), ==, 3);
  g_assert_true (ddb_value_set_contains (ns, probe));
  /* An S is never in an NS. */
  g_assert_false (ddb_value_set_contains (ns, probe_s));

  /* Strings are compared bytewise: no case folding, no normalization. */
  g_assert_true (ddb_value_set_add (ss, tu_str ("a")));
  g_assert_true (ddb_value_set_add (ss, tu_str ("A")));
  g_assert_true (ddb_value_set_add (ss, tu_str ("é")));         /* precomposed */
  g_assert_true (ddb_value_set_add (ss, tu_str ("e\xcc\x81"))); /* decomposed */
  g_assert_false (ddb_value_set_add (ss, tu_str ("a")));
  g_assert_true (ddb_value_set_add (ss, tu_str ("1")));
  g_assert_true (ddb_value_set_add (ss, tu_str ("1.0")));
  g_assert_cmpuint (ddb_value_set_size (ss), ==, 6);

  g_assert_true (ddb_value_set_add (bs, ddb_value_new_b ("\0a", 2)));
  g_assert_true (ddb_value_set_add (bs, ddb_value_new_b ("\0b", 2)));
  g_assert_true (ddb_value_set_add (bs, ddb_value_new_b ("\0", 1)));
  g_assert_false (ddb_value_set_add (bs, ddb_value_new_b ("\0a", 2)));
  g_assert_cmpuint (ddb_value_set_size (bs), ==, 3);

  /* Removal keeps the order of what remains. */
  g_assert_true (ddb_value_set_remove (ns, probe));
  g_assert_false (ddb_value_set_remove (ns, probe));
  g_assert_cmpuint (ddb_value_set_size (ns), ==, 2);
  {
    g_autofree char *a = ddb_number_to_string (&((DdbValue *) ns->elems->pdata[0])->number);
    g_autofree char *b = ddb_number_to_string (&((DdbValue *) ns->elems->pdata[1])->number);
    g_assert_cmpstr (a, ==, "-1");
    g_assert_cmpstr (b, ==, "0.1");
  }
}

static void
test_equal_scalars (void)
{
  g_autoptr (DdbValue) n1 = tu_num ("1");
  g_autoptr (DdbValue) n10 = tu_num ("1.0");
  g_autoptr (DdbValue) n2 = tu_num ("2");
  g_autoptr (DdbValue) s1 = tu_str ("1");
  g_autoptr (DdbValue) snul = ddb_value_new_s ("a\0b", 3);
  g_autoptr (DdbValue) snul2 = ddb_value_new_s ("a\0c", 3);
  g_autoptr (DdbValue) b1 = ddb_value_new_b ("1", 1);
  g_autoptr (DdbValue) t = ddb_value_new_bool (TRUE);
  g_autoptr (DdbValue) f = ddb_value_new_bool (FALSE);
  g_autoptr (DdbValue) nul = ddb_value_new_null ();
  g_autoptr (DdbValue) nul2 = ddb_value_new_null ();
  g_autoptr (DdbValue) es = ddb_value_new_s ("", 0);
  g_autoptr (DdbValue) eb = ddb_value_new_b (NULL, 0);

  g_assert_true (ddb_value_equal (n1, n10));
  g_assert_false (ddb_value_equal (n1, n2));
  /* Same text, different types. */
  g_assert_false (ddb_value_equal (n1, s1));
  g_assert_false (ddb_value_equal (s1, b1));
  g_assert_false (ddb_value_equal (es, eb));
  /* Bytes after an embedded NUL count. */
  g_assert_false (ddb_value_equal (snul, snul2));
  g_assert_true (ddb_value_equal (t, t));
  g_assert_false (ddb_value_equal (t, f));
  g_assert_true (ddb_value_equal (nul, nul2));
  g_assert_false (ddb_value_equal (nul, f));
  g_assert_false (ddb_value_equal (n1, NULL));
  g_assert_true (ddb_value_equal (NULL, NULL));
}

static void
test_equal_containers (void)
{
  g_autoptr (DdbValue) m1 = ddb_value_new_m ();
  g_autoptr (DdbValue) m2 = ddb_value_new_m ();
  g_autoptr (DdbValue) l1 = ddb_value_new_l ();
  g_autoptr (DdbValue) l2 = ddb_value_new_l ();
  g_autoptr (DdbValue) ns1 = set_of (DDB_TYPE_NS, "1", "2", "3", NULL);
  g_autoptr (DdbValue) ns2 = set_of (DDB_TYPE_NS, "3.0", "1", "2E0", NULL);
  g_autoptr (DdbValue) ns3 = set_of (DDB_TYPE_NS, "1", "2", NULL);
  g_autoptr (DdbValue) ss1 = set_of (DDB_TYPE_SS, "1", "2", NULL);
  g_autoptr (DdbValue) dup1 = set_of (DDB_TYPE_SS, "a", "a", NULL);
  g_autoptr (DdbValue) dup2 = set_of (DDB_TYPE_SS, "a", "b", NULL);

  /* Maps: attribute order does not matter. */
  ddb_value_map_set (m1, "a", tu_num ("1"));
  ddb_value_map_set (m1, "b", tu_str ("x"));
  ddb_value_map_set (m2, "b", tu_str ("x"));
  ddb_value_map_set (m2, "a", tu_num ("1.00"));
  g_assert_true (ddb_value_equal (m1, m2));
  ddb_value_map_set (m2, "c", ddb_value_new_null ());
  g_assert_false (ddb_value_equal (m1, m2));
  g_assert_false (ddb_value_equal (m2, m1));
  ddb_value_map_remove (m2, "c");
  ddb_value_map_set (m2, "b", tu_str ("y"));
  g_assert_false (ddb_value_equal (m1, m2));
  ddb_value_map_remove (m2, "b");
  ddb_value_map_set (m2, "B", tu_str ("x"));
  g_assert_false (ddb_value_equal (m1, m2));

  /* Lists: order matters. */
  ddb_value_list_append (l1, tu_num ("1"));
  ddb_value_list_append (l1, tu_num ("2"));
  ddb_value_list_append (l2, tu_num ("2"));
  ddb_value_list_append (l2, tu_num ("1"));
  g_assert_false (ddb_value_equal (l1, l2));
  ddb_value_list_nth (l2, 0)->number = ddb_value_list_nth (l1, 0)->number;
  ddb_value_list_nth (l2, 1)->number = ddb_value_list_nth (l1, 1)->number;
  g_assert_true (ddb_value_equal (l1, l2));
  ddb_value_list_append (l2, ddb_value_new_null ());
  g_assert_false (ddb_value_equal (l1, l2));

  /* Sets: order does not matter, numbers numerically. */
  g_assert_true (ddb_value_equal (ns1, ns2));
  g_assert_true (ddb_value_equal (ns2, ns1));
  g_assert_false (ddb_value_equal (ns1, ns3));
  g_assert_false (ddb_value_equal (ns3, ns1));
  g_assert_false (ddb_value_equal (ns3, ss1));
  /* Same size, but one holds a duplicate: not equal either way. */
  g_assert_false (ddb_value_equal (dup1, dup2));
  g_assert_false (ddb_value_equal (dup2, dup1));

  /* Nested: a map inside a list, compared deeply. */
  ddb_value_list_append (l1, ddb_value_copy (m1));
  g_ptr_array_remove_index (l2->elems, 2);
  ddb_value_list_append (l2, ddb_value_copy (m1));
  g_assert_true (ddb_value_equal (l1, l2));
  ddb_value_map_set (ddb_value_list_nth (l2, 2), "a", tu_num ("2"));
  g_assert_false (ddb_value_equal (l1, l2));
}

static DdbValue *
sample_item (void)
{
  DdbValue *item = ddb_value_new_m ();
  DdbValue *inner = ddb_value_new_m ();
  DdbValue *list = ddb_value_new_l ();

  ddb_value_map_set (inner, "deep", tu_str ("v"));
  ddb_value_list_append (list, tu_num ("1"));
  ddb_value_list_append (list, inner);
  ddb_value_map_set (item, "s", tu_str ("text"));
  ddb_value_map_set (item, "b", ddb_value_new_b ("\1\2", 2));
  ddb_value_map_set (item, "n", tu_num ("3.14"));
  ddb_value_map_set (item, "t", ddb_value_new_bool (TRUE));
  ddb_value_map_set (item, "z", ddb_value_new_null ());
  ddb_value_map_set (item, "l", list);
  ddb_value_map_set (item, "ss", set_of (DDB_TYPE_SS, "a", "b", NULL));
  ddb_value_map_set (item, "ns", set_of (DDB_TYPE_NS, "1", "2", NULL));
  ddb_value_map_set (item, "bs", set_of (DDB_TYPE_BS, "x", "y", NULL));
  return item;
}

static void
test_copy_independent (void)
{
  g_autoptr (DdbValue) item = sample_item ();
  g_autoptr (DdbValue) copy = ddb_value_copy (item);
  DdbValue *inner;

  g_assert_true (copy != item);
  g_assert_true (ddb_value_equal (item, copy));
  for (guint i = 0; i < ddb_value_map_size (item); i++)
    {
      g_assert_cmpstr (ddb_value_map_nth (item, i)->name, ==, ddb_value_map_nth (copy, i)->name);
      g_assert_true (ddb_value_map_nth (item, i)->name != ddb_value_map_nth (copy, i)->name);
      g_assert_true (ddb_value_map_nth (item, i)->value != ddb_value_map_nth (copy, i)->value);
    }

  /* Changing the copy deep down leaves the original alone. */
  inner = ddb_value_list_nth (ddb_value_map_get (copy, "l"), 1);
  ddb_value_map_set (inner, "deep", tu_str ("changed"));
  ddb_value_set_add (ddb_value_map_get (copy, "ss"), tu_str ("c"));
  ddb_value_map_get (copy, "s")->bytes.data[0] = 'T';
  g_assert_false (ddb_value_equal (item, copy));
  g_assert_cmpstr (
      ddb_value_map_get (ddb_value_list_nth (ddb_value_map_get (item, "l"), 1), "deep")->bytes.data,
      ==, "v");
  g_assert_cmpuint (ddb_value_set_size (ddb_value_map_get (item, "ss")), ==, 2);
  g_assert_cmpstr (ddb_value_map_get (item, "s")->bytes.data, ==, "text");

  g_assert_null (ddb_value_copy (NULL));
  assert_valid (item);
}

static void
test_validate_sets (void)
{
  g_autoptr (DdbValue) ss = ddb_value_new_set (DDB_TYPE_SS);
  g_autoptr (DdbValue) ns = ddb_value_new_set (DDB_TYPE_NS);
  g_autoptr (DdbValue) bs = ddb_value_new_set (DDB_TYPE_BS);
  g_autoptr (DdbValue) ssd = set_of (DDB_TYPE_SS, "a", "b", "a", NULL);
  g_autoptr (DdbValue) nsd = set_of (DDB_TYPE_NS, "1", "1.0", NULL);
  g_autoptr (DdbValue) bsd = set_of (DDB_TYPE_BS, "b", "b", NULL);
  g_autoptr (DdbValue) ok = set_of (DDB_TYPE_NS, "1", "1.5", "-1", NULL);
  g_autoptr (DdbValue) m = ddb_value_new_m ();

  assert_invalid (ss, "One or more parameter values were invalid: An string set  may not be empty");
  assert_invalid (ns, "One or more parameter values were invalid: An number set  may not be empty");
  assert_invalid (bs, "One or more parameter values were invalid: Binary sets should not be empty");
  assert_invalid (ssd, "One or more parameter values were invalid: Input collection [a, b, a] "
                       "contains duplicates.");
  /* "1" and "1.0" are one number. */
  assert_invalid (nsd, "Input collection contains duplicates");
  assert_invalid (bsd, "One or more parameter values were invalid: Input collection [Yg==, Yg==]"
                       "of type BS contains duplicates.");
  assert_valid (ok);

  /* Found inside a map as well. */
  ddb_value_map_set (m, "fine", ddb_value_copy (ok));
  assert_valid (m);
  ddb_value_map_set (m, "bad", ddb_value_new_set (DDB_TYPE_SS));
  assert_invalid (m, "One or more parameter values were invalid: An string set  may not be empty");
}

static void
test_validate_big_set_duplicates (void)
{
  /* Past the pairwise threshold the check hashes: numerically equal numbers must still collide. */
  g_autoptr (DdbValue) ns = ddb_value_new_set (DDB_TYPE_NS);
  g_autoptr (DdbValue) ss = ddb_value_new_set (DDB_TYPE_SS);
  DdbNumber n;

  for (int i = 0; i < 200; i++)
    {
      char buf[32];
      g_snprintf (buf, sizeof buf, "%d", i);
      g_ptr_array_add (ns->elems, tu_num (buf));
      g_ptr_array_add (ss->elems, tu_str (buf));
    }
  assert_valid (ns);
  assert_valid (ss);
  g_assert_false (ddb_value_set_has_duplicates (ns));

  g_assert_true (ddb_number_parse (&n, "1.5E2", -1, NULL));
  g_ptr_array_add (ns->elems, ddb_value_new_n (&n)); /* 150 again */
  g_assert_true (ddb_value_set_has_duplicates (ns));
  assert_invalid (ns, "Input collection contains duplicates");

  g_ptr_array_add (ss->elems, tu_str ("150"));
  g_assert_true (ddb_value_set_has_duplicates (ss));
  g_ptr_array_remove_index (ss->elems, ss->elems->len - 1);
  g_ptr_array_add (ss->elems, tu_str ("150.0"));
  g_assert_false (ddb_value_set_has_duplicates (ss));
}

static void
test_validate_utf8 (void)
{
  g_autoptr (DdbValue) bad = ddb_value_new_s ("a\xff", 2);
  g_autoptr (DdbValue) overlong = ddb_value_new_s ("\xc0\xaf", 2);
  g_autoptr (DdbValue) surrogate = ddb_value_new_s ("\xed\xa0\x80", 3);
  g_autoptr (DdbValue) too_big = ddb_value_new_s ("\xf4\x90\x80\x80", 4);
  g_autoptr (DdbValue) truncated = ddb_value_new_s ("ab\xe2\x82", 4);
  g_autoptr (DdbValue) nul = ddb_value_new_s ("a\0b", 3);
  g_autoptr (DdbValue) good = ddb_value_new_s ("€ \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf", -1);
  g_autoptr (DdbValue) bin = ddb_value_new_b ("\xff\xfe", 2);
  g_autoptr (DdbValue) m = ddb_value_new_m ();
  g_autoptr (DdbValue) ss = set_of (DDB_TYPE_SS, "ok", "b\xc3", NULL);

  assert_invalid (bad, DDB_INVALID_UTF8_MESSAGE);
  assert_invalid (overlong, DDB_INVALID_UTF8_MESSAGE);
  assert_invalid (surrogate, DDB_INVALID_UTF8_MESSAGE);
  assert_invalid (too_big, DDB_INVALID_UTF8_MESSAGE);
  assert_invalid (truncated, DDB_INVALID_UTF8_MESSAGE);
  assert_invalid (ss, DDB_INVALID_UTF8_MESSAGE);
  /* U+0000 is a character like any other; B holds any bytes. */
  assert_valid (nul);
  assert_valid (good);
  assert_valid (bin);

  ddb_value_map_set (m, "ok", tu_str ("x"));
  assert_valid (m);
  ddb_value_map_set (m, "bad\xfe", tu_str ("x"));
  assert_invalid (m, DDB_INVALID_UTF8_MESSAGE);
}

/* ddb_utf8_validate takes runs of ASCII eight bytes at a time: a bad or good sequence after a
 * run of any length, at any offset, reads as GLib reads it (no U+0000 here, which GLib refuses). */
static void
test_utf8_runs (void)
{
  static const char *const tails[]
      = { "",         "\xff",         "\xc0\xaf",         "\xed\xa0\x80", "\xf4\x90\x80\x80",
          "\xe2\x82", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc3\xa9",     "\x80",
          "\x7f" };

  for (guint lead = 0; lead < 20; lead++)
    for (guint t = 0; t < G_N_ELEMENTS (tails); t++)
      for (guint trail = 0; trail < 10; trail++)
        {
          g_autoptr (GString) text = g_string_new (NULL);

          for (guint i = 0; i < lead; i++)
            g_string_append_c (text, (char) ('a' + i));
          g_string_append (text, tails[t]);
          for (guint i = 0; i < trail; i++)
            g_string_append_c (text, 'z');
          g_assert_cmpint (ddb_utf8_validate (text->str, text->len), ==,
                           g_utf8_validate_len (text->str, text->len, NULL));
        }
}

/* `levels` values deep: levels - 1 maps around a scalar. */
static DdbValue *
nested (guint levels, gboolean use_list)
{
  DdbValue *v = tu_str ("leaf");

  for (guint i = 1; i < levels; i++)
    {
      DdbValue *c;
      if (use_list && i % 2 == 0)
        {
          c = ddb_value_new_l ();
          ddb_value_list_append (c, v);
        }
      else
        {
          c = ddb_value_new_m ();
          ddb_value_map_set (c, "k", v);
        }
      v = c;
    }
  return v;
}

static void
test_validate_nesting (void)
{
  g_autoptr (DdbValue) v32 = nested (32, FALSE);
  g_autoptr (DdbValue) v33 = nested (33, FALSE);
  g_autoptr (DdbValue) mixed32 = nested (32, TRUE);
  g_autoptr (DdbValue) mixed33 = nested (33, TRUE);
  g_autoptr (DdbValue) item_ok = ddb_value_new_m ();
  g_autoptr (DdbValue) item_bad = ddb_value_new_m ();
  g_autoptr (DdbValue) empty_at_33 = nested (32, FALSE);
  g_autoptr (DdbValue) set_at_32 = nested (32, FALSE);
  DdbValue *inner;
  GError *error = NULL;

  /* A top-level attribute is level 1: 31 wrappers around a scalar is the deepest allowed. */
  assert_valid (v32);
  assert_valid (mixed32);
  assert_invalid (v33, DDB_NESTING_MESSAGE);
  assert_invalid (mixed33, DDB_NESTING_MESSAGE);
  g_assert_cmpstr (DDB_NESTING_MESSAGE, ==,
                   "Nesting Levels have exceeded supported limits: Attributes in the item have "
                   "nested levels beyond supported limit");

  /* The item map itself is not a level. */
  ddb_value_map_set (item_ok, "a", nested (32, FALSE));
  g_assert_true (ddb_item_validate (item_ok, &error));
  g_assert_no_error (error);
  ddb_value_map_set (item_bad, "ok", tu_str ("x"));
  ddb_value_map_set (item_bad, "a", nested (33, TRUE));
  g_assert_false (ddb_item_validate (item_bad, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION, DDB_NESTING_MESSAGE);
  g_clear_error (&error);
  /* But as a value it is one, so a deepest-allowed item value is one too deep. */
  assert_invalid (item_ok, DDB_NESTING_MESSAGE);

  /* A container may sit at level 32, but nothing may go inside it. */
  inner = empty_at_33;
  while (ddb_value_map_get (inner, "k")->type == DDB_TYPE_M)
    inner = ddb_value_map_get (inner, "k");
  ddb_value_map_set (inner, "k", ddb_value_new_m ());
  assert_valid (empty_at_33);
  ddb_value_map_set (ddb_value_map_get (inner, "k"), "x", ddb_value_new_m ());
  assert_invalid (empty_at_33, DDB_NESTING_MESSAGE);

  /* Set elements are not a level. */
  inner = set_at_32;
  while (ddb_value_map_get (inner, "k")->type == DDB_TYPE_M)
    inner = ddb_value_map_get (inner, "k");
  ddb_value_map_set (inner, "k", set_of (DDB_TYPE_SS, "a", NULL));
  assert_valid (set_at_32);
}

static void
test_item_validate_not_map (void)
{
  g_autoptr (DdbValue) s = tu_str ("x");
  GError *error = NULL;

  g_assert_false (ddb_item_validate (s, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/value/type-names", test_type_names);
  g_test_add_func ("/value/constructors", test_constructors);
  g_test_add_func ("/value/map-order-and-replace", test_map_order_and_replace);
  g_test_add_func ("/value/list", test_list);
  g_test_add_func ("/value/set-semantics", test_set_semantics);
  g_test_add_func ("/value/equal-scalars", test_equal_scalars);
  g_test_add_func ("/value/equal-containers", test_equal_containers);
  g_test_add_func ("/value/copy-independent", test_copy_independent);
  g_test_add_func ("/value/validate-sets", test_validate_sets);
  g_test_add_func ("/value/validate-big-set-duplicates", test_validate_big_set_duplicates);
  g_test_add_func ("/value/validate-utf8", test_validate_utf8);
  g_test_add_func ("/value/utf8-runs", test_utf8_runs);
  g_test_add_func ("/value/validate-nesting", test_validate_nesting);
  g_test_add_func ("/value/item-validate-not-map", test_item_validate_not_map);
  return g_test_run ();
}
