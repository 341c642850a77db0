/* test-worddiff.c: the word-level diff used to show how a long string changed. */
#include <string.h>

#include "staging/worddiff.h"

/* The spans as "=same" "-removed" "+added" joined by '|'. */
static char *
spans_text (const char *old_text, const char *new_text)
{
  g_autoptr (GPtrArray) spans = ddb_word_diff (old_text, new_text);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < spans->len; i++)
    {
      DdbWordSpan *s = g_ptr_array_index (spans, i);

      if (i > 0)
        g_string_append_c (out, '|');
      g_string_append_c (out, s->op == DDB_WORD_SAME ? '=' : s->op == DDB_WORD_REMOVED ? '-' : '+');
      g_string_append (out, s->text);
    }
  return g_string_free (out, FALSE);
}

static void
assert_spans (const char *old_text, const char *new_text, const char *expected)
{
  g_autofree char *got = spans_text (old_text, new_text);

  g_assert_cmpstr (got, ==, expected);
}

/* Both texts come back from their spans, and no two neighbours have the same kind. */
static void
assert_reversible (const char *old_text, const char *new_text)
{
  g_autoptr (GPtrArray) spans = ddb_word_diff (old_text, new_text);
  g_autoptr (GString) old_back = g_string_new (NULL);
  g_autoptr (GString) new_back = g_string_new (NULL);

  for (guint i = 0; i < spans->len; i++)
    {
      DdbWordSpan *s = g_ptr_array_index (spans, i);

      g_assert_cmpuint (strlen (s->text), >, 0);
      if (i > 0)
        g_assert_cmpint (((DdbWordSpan *) g_ptr_array_index (spans, i - 1))->op, !=, s->op);
      if (s->op != DDB_WORD_ADDED)
        g_string_append (old_back, s->text);
      if (s->op != DDB_WORD_REMOVED)
        g_string_append (new_back, s->text);
    }
  g_assert_cmpstr (old_back->str, ==, old_text);
  g_assert_cmpstr (new_back->str, ==, new_text);
}

static void
test_basic (void)
{
  assert_spans ("same text", "same text", "=same text");
  assert_spans ("", "", "");
  assert_spans (NULL, "new words", "+new words");
  assert_spans ("old words", "", "-old words");
  assert_spans ("Mara Vance", "Mara V.", "=Mara |-Vance|+V.");
  /* a word inserted in the middle keeps everything around it */
  assert_spans ("the quick fox", "the quick brown fox", "=the quick |+brown |=fox");
  /* a word removed */
  assert_spans ("a b c d", "a c d", "=a |-b |=c d");
  /* removed before added within one changed stretch */
  assert_spans ("one two three", "one deux trois", "=one |-two three|+deux trois");
}

static void
test_longest_common (void)
{
  /* the common words found are the longest common run, not the first match */
  assert_spans ("x a b c y", "a b c z", "-x |=a b c |-y|+z");
  /* white space counts as a token of its own: a changed gap is shown */
  assert_spans ("a  b", "a b", "=a|-  |+ |=b");
  /* UTF-8 words and non-breaking white space */
  assert_spans ("café au lait", "café noir", "=café |-au lait|+noir");
  assert_reversible ("naïve\u00a0façade über", "naïve façade unter");
}

static void
test_reversible_random (void)
{
  static const char *const words[] = { "a", "b", "c", "dd", "é", " ", "  ", "\n" };
  GRand *rand = g_rand_new_with_seed (42);

  for (guint round = 0; round < 500; round++)
    {
      g_autoptr (GString) a = g_string_new (NULL);
      g_autoptr (GString) b = g_string_new (NULL);
      guint na = g_rand_int_range (rand, 0, 30), nb = g_rand_int_range (rand, 0, 30);

      for (guint i = 0; i < na; i++)
        g_string_append (a, words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))]);
      for (guint i = 0; i < nb; i++)
        g_string_append (b, words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))]);
      assert_reversible (a->str, b->str);
    }
  g_rand_free (rand);
}

/* The number of SAME tokens is the LCS length: checked against a brute-force LCS on words
 * only (single spaces between), where the tokens are easy to count. */
static void
test_minimal (void)
{
  g_autoptr (GPtrArray) spans = ddb_word_diff ("a b c a b b a", "c b a b a c");
  guint same_words = 0;

  for (guint i = 0; i < spans->len; i++)
    {
      DdbWordSpan *s = g_ptr_array_index (spans, i);

      if (s->op == DDB_WORD_SAME)
        {
          g_auto (GStrv) parts = g_strsplit (s->text, " ", -1);

          for (guint k = 0; parts[k] != NULL; k++)
            same_words += parts[k][0] != '\0';
        }
    }
  /* LCS of [a b c a b b a] and [c b a b a c] over words is 4 (e.g. b a b a) */
  g_assert_cmpuint (same_words, ==, 4);
  assert_reversible ("a b c a b b a", "c b a b a c");
}

static void
test_large (void)
{
  g_autoptr (GString) a = g_string_new ("start ");
  g_autoptr (GString) b = g_string_new ("start ");
  g_autoptr (GPtrArray) spans = NULL;

  /* 2 x 3000 tokens in the middle: 9M pairs, past the matching limit */
  for (guint i = 0; i < 1500; i++)
    {
      g_string_append_printf (a, "w%u ", i);
      g_string_append_printf (b, "v%u ", i);
    }
  g_string_append (a, "end");
  g_string_append (b, "end");
  spans = ddb_word_diff (a->str, b->str);
  assert_reversible (a->str, b->str);
  g_assert_cmpuint (spans->len, ==, 4);
  g_assert_cmpstr (((DdbWordSpan *) g_ptr_array_index (spans, 0))->text, ==, "start ");
  g_assert_cmpint (((DdbWordSpan *) g_ptr_array_index (spans, 1))->op, ==, DDB_WORD_REMOVED);
  g_assert_cmpint (((DdbWordSpan *) g_ptr_array_index (spans, 2))->op, ==, DDB_WORD_ADDED);
  g_assert_cmpstr (((DdbWordSpan *) g_ptr_array_index (spans, 3))->text, ==, " end");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/worddiff/basic", test_basic);
  g_test_add_func ("/worddiff/longest-common", test_longest_common);
  g_test_add_func ("/worddiff/reversible-random", test_reversible_random);
  g_test_add_func ("/worddiff/minimal", test_minimal);
  g_test_add_func ("/worddiff/large", test_large);
  return g_test_run ();
}
