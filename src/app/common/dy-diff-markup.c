/* dy-diff-markup.c: values, changes and keys as markup (see dy-diff-markup.h). */
#define G_LOG_DOMAIN "dynoscope-diff"

#include <glib/gi18n.h>

#include "app/common/dy-diff-markup.h"
#include "app/common/dy-format.h"
#include "staging/worddiff.h"

/* Removed and added text are marked by colour with an alpha, which reads on light and dark
 * backgrounds alike, and removed text is also struck through for those who cannot tell the
 * colours apart. */
#define REMOVED_SPAN "<span background=\"#e01b24\" bgalpha=\"22%\" strikethrough=\"true\">"
#define ADDED_SPAN "<span background=\"#2ec27e\" bgalpha=\"28%\">"

char *
dy_diff_value_text (const DdbValue *value)
{
  if (value == NULL)
    return NULL;
  if (value->type == DDB_TYPE_S)
    return g_strdup_printf ("“%s”", value->bytes.data);
  return dy_format_value (value);
}

char *
dy_diff_key_title (const DdbValue *key)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < ddb_value_map_size (key); i++)
    {
      g_autofree char *part = dy_format_key (ddb_value_map_nth (key, i)->value);

      if (i > 0)
        g_string_append (text, " · ");
      g_string_append (text, part);
    }
  return g_string_free (text, FALSE);
}

gboolean
dy_diff_same_value (const DdbValue *a, const DdbValue *b)
{
  return a == NULL ? b == NULL : b != NULL && ddb_value_equal (a, b);
}

static gboolean
is_long_string (const DdbValue *v)
{
  return v != NULL && v->type == DDB_TYPE_S
         && g_utf8_strlen (v->bytes.data, -1) >= DY_DIFF_LONG_STRING;
}

static char *
word_diff_markup (const char *old_text, const char *new_text)
{
  g_autoptr (GPtrArray) spans = ddb_word_diff (old_text, new_text);
  GString *markup = g_string_new (NULL);

  for (guint i = 0; i < spans->len; i++)
    {
      DdbWordSpan *s = g_ptr_array_index (spans, i);
      g_autofree char *escaped = g_markup_escape_text (s->text, -1);

      if (s->op == DDB_WORD_SAME)
        g_string_append (markup, escaped);
      else if (s->op == DDB_WORD_ADDED && i > 0
               && ((DdbWordSpan *) g_ptr_array_index (spans, i - 1))->op == DDB_WORD_REMOVED)
        /* a gap between the struck and the new words, so that they do not run together */
        g_string_append_printf (markup, " %s%s</span>", ADDED_SPAN, escaped);
      else
        g_string_append_printf (markup, "%s%s</span>",
                                s->op == DDB_WORD_REMOVED ? REMOVED_SPAN : ADDED_SPAN, escaped);
    }
  return g_string_free (markup, FALSE);
}

static gboolean
word_diffable (const DdbValue *old_value, const DdbValue *new_value)
{
  return old_value != NULL && new_value != NULL
         && (is_long_string (old_value) || is_long_string (new_value))
         && old_value->type == new_value->type;
}

char *
dy_diff_change_markup (const DdbValue *old_value, const DdbValue *new_value)
{
  g_autofree char *old_text = dy_diff_value_text (old_value);
  g_autofree char *new_text = dy_diff_value_text (new_value);
  g_autofree char *old_escaped = NULL;
  g_autofree char *new_escaped = NULL;

  if (word_diffable (old_value, new_value))
    return word_diff_markup (old_value->bytes.data, new_value->bytes.data);
  if (old_value == NULL)
    {
      new_escaped = g_markup_escape_text (new_text, -1);
      return g_strdup_printf ("%s%s</span>", ADDED_SPAN, new_escaped);
    }
  if (new_value == NULL)
    {
      old_escaped = g_markup_escape_text (old_text, -1);
      /* TRANSLATORS: an attribute removed by a change, after its old value */
      return g_strdup_printf ("%s%s</span> <i>%s</i>", REMOVED_SPAN, old_escaped, _ ("removed"));
    }
  old_escaped = g_markup_escape_text (old_text, -1);
  new_escaped = g_markup_escape_text (new_text, -1);
  return g_strdup_printf ("%s%s</span> → %s%s</span>", REMOVED_SPAN, old_escaped, ADDED_SPAN,
                          new_escaped);
}

char *
dy_diff_value_markup (const DdbValue *value, DyDiffMark mark)
{
  g_autofree char *text = dy_diff_value_text (value);
  g_autofree char *escaped = NULL;

  if (value == NULL)
    {
      /* TRANSLATORS: a side of a comparison where the attribute or item does not exist */
      g_autofree char *absent = g_markup_printf_escaped ("<i>%s</i>", _ ("absent"));

      if (mark == DY_DIFF_SAME)
        return g_steal_pointer (&absent);
      return g_strdup_printf ("%s%s</span>", mark == DY_DIFF_OLD ? REMOVED_SPAN : ADDED_SPAN,
                              absent);
    }
  escaped = g_markup_escape_text (text, -1);
  if (mark == DY_DIFF_SAME)
    return g_steal_pointer (&escaped);
  return g_strdup_printf ("%s%s</span>", mark == DY_DIFF_OLD ? REMOVED_SPAN : ADDED_SPAN, escaped);
}

char *
dy_diff_side_markup (const DdbValue *reference, const DdbValue *value)
{
  if (dy_diff_same_value (reference, value))
    return dy_diff_value_markup (value, DY_DIFF_SAME);
  if (word_diffable (reference, value))
    return word_diff_markup (reference->bytes.data, value->bytes.data);
  return dy_diff_value_markup (value, DY_DIFF_NEW);
}
