/* worddiff.c: word-level diff (longest common subsequence over word and space tokens). */
#include "staging/worddiff.h"

#include <string.h>

/* Past this many token pairs the table would cost tens of megabytes: the middle part is then
 * shown as replaced whole, which is still correct, only coarser. */
#define MAX_CELLS (4u * 1024u * 1024u)

typedef struct {
  const char *start;
  gsize len;
} Token;

static gboolean
is_space (gunichar c)
{
  return g_unichar_isspace (c);
}

/* Words (runs of non-space) and runs of white space, in order. */
static GArray *
tokenize (const char *text)
{
  GArray *tokens = g_array_new (FALSE, FALSE, sizeof (Token));
  const char *p = text;

  while (*p != '\0')
    {
      gboolean space = is_space (g_utf8_get_char (p));
      Token t = { p, 0 };

      while (*p != '\0' && is_space (g_utf8_get_char (p)) == space)
        p = g_utf8_next_char (p);
      t.len = (gsize) (p - t.start);
      g_array_append_val (tokens, t);
    }
  return tokens;
}

static gboolean
token_equal (const Token *a, const Token *b)
{
  return a->len == b->len && memcmp (a->start, b->start, a->len) == 0;
}

static void
span_free (gpointer span)
{
  ddb_word_span_free (span);
}

void
ddb_word_span_free (DdbWordSpan *span)
{
  if (span == NULL)
    return;
  g_free (span->text);
  g_free (span);
}

/* Appends TOKEN's text as OP, merged into the last span when that has the same kind. */
static void
emit (GPtrArray *spans, DdbWordOp op, const Token *token)
{
  DdbWordSpan *last = spans->len > 0 ? g_ptr_array_index (spans, spans->len - 1) : NULL;

  if (last != NULL && last->op == op)
    {
      gsize old_len = strlen (last->text);

      last->text = g_realloc (last->text, old_len + token->len + 1);
      memcpy (last->text + old_len, token->start, token->len);
      last->text[old_len + token->len] = '\0';
      return;
    }
  last = g_new (DdbWordSpan, 1);
  last->op = op;
  last->text = g_strndup (token->start, token->len);
  g_ptr_array_add (spans, last);
}

/* A changed stretch: its removed tokens, then its added ones (so that a reader sees "old new"
 * rather than the two interleaved word by word). */
static void
emit_change (GPtrArray *spans, const Token *removed, guint n_removed, const Token *added,
             guint n_added)
{
  for (guint i = 0; i < n_removed; i++)
    emit (spans, DDB_WORD_REMOVED, &removed[i]);
  for (guint i = 0; i < n_added; i++)
    emit (spans, DDB_WORD_ADDED, &added[i]);
}

/* The LCS of A[0..N) and B[0..M) by dynamic programming over suffixes, then one forward walk
 * emitting the spans. */
static void
diff_middle (GPtrArray *spans, const Token *a, guint n, const Token *b, guint m)
{
  guint32 *len;
  guint i = 0, j = 0, ci = 0, cj = 0;

  if (n == 0 || m == 0 || (guint64) (n + 1) * (m + 1) > MAX_CELLS)
    {
      emit_change (spans, a, n, b, m);
      return;
    }
  /* len[i * (m + 1) + j]: LCS length of a[i..] and b[j..] */
  len = g_new0 (guint32, (gsize) (n + 1) * (m + 1));
  for (guint ii = n; ii-- > 0;)
    for (guint jj = m; jj-- > 0;)
      {
        guint32 *cell = &len[(gsize) ii * (m + 1) + jj];

        if (token_equal (&a[ii], &b[jj]))
          *cell = len[(gsize) (ii + 1) * (m + 1) + jj + 1] + 1;
        else
          *cell = MAX (len[(gsize) (ii + 1) * (m + 1) + jj], len[(gsize) ii * (m + 1) + jj + 1]);
      }
  while (i < n && j < m)
    {
      if (token_equal (&a[i], &b[j]))
        {
          emit_change (spans, &a[ci], i - ci, &b[cj], j - cj);
          emit (spans, DDB_WORD_SAME, &a[i]);
          ci = ++i;
          cj = ++j;
        }
      else if (len[(gsize) (i + 1) * (m + 1) + j] >= len[(gsize) i * (m + 1) + j + 1])
        i++;
      else
        j++;
    }
  emit_change (spans, &a[ci], n - ci, &b[cj], m - cj);
  g_free (len);
}

static gboolean
is_blank (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (!is_space (g_utf8_get_char (p)))
      return FALSE;
  return TRUE;
}

static void
flush (GPtrArray *out, GString *removed, GString *added)
{
  const DdbWordOp ops[] = { DDB_WORD_REMOVED, DDB_WORD_ADDED };
  GString *texts[] = { removed, added };

  for (guint k = 0; k < 2; k++)
    if (texts[k]->len > 0)
      {
        DdbWordSpan *span = g_new (DdbWordSpan, 1);

        span->op = ops[k];
        span->text = g_strndup (texts[k]->str, texts[k]->len);
        g_ptr_array_add (out, span);
        g_string_truncate (texts[k], 0);
      }
}

/* White space kept between two changed words ("two three" -> "deux trois" keeping the space)
 * splits one change into a staircase a reader cannot follow: it joins the change instead. */
static GPtrArray *
absorb_gaps (GPtrArray *spans)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (span_free);
  g_autoptr (GString) removed = g_string_new (NULL);
  g_autoptr (GString) added = g_string_new (NULL);

  for (guint i = 0; i < spans->len; i++)
    {
      DdbWordSpan *s = g_ptr_array_index (spans, i);
      DdbWordSpan *next = i + 1 < spans->len ? g_ptr_array_index (spans, i + 1) : NULL;
      gboolean in_change = removed->len > 0 || added->len > 0;

      if (s->op == DDB_WORD_REMOVED)
        g_string_append (removed, s->text);
      else if (s->op == DDB_WORD_ADDED)
        g_string_append (added, s->text);
      else if (in_change && next != NULL && next->op != DDB_WORD_SAME && is_blank (s->text))
        {
          g_string_append (removed, s->text);
          g_string_append (added, s->text);
        }
      else
        {
          flush (out, removed, added);
          g_ptr_array_add (out, g_steal_pointer (&g_ptr_array_index (spans, i)));
        }
    }
  flush (out, removed, added);
  g_ptr_array_unref (spans);
  return out;
}

GPtrArray *
ddb_word_diff (const char *old_text, const char *new_text)
{
  GPtrArray *spans = g_ptr_array_new_with_free_func (span_free);
  GArray *a = tokenize (old_text != NULL ? old_text : "");
  GArray *b = tokenize (new_text != NULL ? new_text : "");
  const Token *ta = (const Token *) (gpointer) a->data;
  const Token *tb = (const Token *) (gpointer) b->data;
  guint n = a->len, m = b->len, head = 0, tail = 0;

  /* The common beginning and end are cheap to set aside and are most of a typical edit. */
  while (head < n && head < m && token_equal (&ta[head], &tb[head]))
    head++;
  while (tail < n - head && tail < m - head && token_equal (&ta[n - 1 - tail], &tb[m - 1 - tail]))
    tail++;
  for (guint i = 0; i < head; i++)
    emit (spans, DDB_WORD_SAME, &ta[i]);
  diff_middle (spans, ta + head, n - head - tail, tb + head, m - head - tail);
  for (guint i = n - tail; i < n; i++)
    emit (spans, DDB_WORD_SAME, &ta[i]);
  g_array_unref (a);
  g_array_unref (b);
  return absorb_gaps (spans);
}
