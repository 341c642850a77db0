/* dy-row-match.c: Find in Loaded Rows' test of a row, on its encoding (core/itemcodec.h),
 * building no item: its scalars are walked where they lie (ddb_item_encoded_foreach_scalar), a
 * number written out as the grid shows it, into a buffer on the stack (unless the text has more
 * than digits, '-' and '.': then no number can hold it). A string's bytes stand as they are in
 * the encoding, so an ASCII text is first looked for in the whole of the bytes: a row without it
 * has no string holding it, and is passed over at once unless a number or true, false or null
 * could hold it. Case is folded: ASCII letters in place, any other text through
 * g_utf8_casefold. */
#include "app/browser/dy-row-match.h"

#include <string.h>

#include "core/itemcodec.h"
#include "core/number.h"

struct _DyRowMatch {
  char *folded; /* the text, case-folded */
  gsize len;
  gboolean ascii;        /* only ASCII: folded by g_ascii_tolower, and compared so */
  char first_upper;      /* ASCII: its first character in upper case */
  gboolean in_numbers;   /* a number's text may hold it: it has only digits, '-' and '.' */
  gboolean in_words;     /* true, false or null may hold it */
};

/* A row's walk: whether its strings may hold the text (its bytes do). */
typedef struct {
  const DyRowMatch *match;
  gboolean strings;
} Walk;

DyRowMatch *
dy_row_match_new (const char *text)
{
  DyRowMatch *match;
  static const char *const words[] = { "true", "false", "null" };

  if (text == NULL || *text == '\0')
    return NULL;
  match = g_new0 (DyRowMatch, 1);
  match->ascii = TRUE;
  for (const char *p = text; *p != '\0'; p++)
    if ((guchar) *p >= 0x80)
      match->ascii = FALSE;
  match->folded = match->ascii ? g_ascii_strdown (text, -1) : g_utf8_casefold (text, -1);
  match->len = strlen (match->folded);
  match->first_upper = g_ascii_toupper (match->folded[0]);
  /* A number shows digits, a sign and a point (never an exponent). */
  match->in_numbers = strspn (match->folded, "0123456789-.") == match->len;
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (strstr (words[i], match->folded) != NULL)
      match->in_words = TRUE;
  return match;
}

void
dy_row_match_free (DyRowMatch *match)
{
  if (match == NULL)
    return;
  g_free (match->folded);
  g_free (match);
}

static inline char
ascii_lower (char c)
{
  return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
}

/* Whether HAY (LEN bytes) holds MATCH's ASCII text, ASCII letters of HAY folded: where its first
 * character is, either case, found by memchr. */
static gboolean
ascii_find (const DyRowMatch *match, const char *hay, gsize len)
{
  const char *needle = match->folded;
  gsize n = match->len;
  char lower = needle[0], upper = match->first_upper;
  const char *end, *next_lower, *next_upper;

  if (len < n)
    return FALSE;
  end = hay + len - n + 1; /* where the last place it may start is */
  next_lower = memchr (hay, lower, (gsize) (end - hay));
  next_upper = upper != lower ? memchr (hay, upper, (gsize) (end - hay)) : NULL;
  while (next_lower != NULL || next_upper != NULL)
    {
      const char *at = next_upper == NULL || (next_lower != NULL && next_lower < next_upper)
                           ? next_lower
                           : next_upper;
      gsize j;

      for (j = 1; j < n && ascii_lower (at[j]) == needle[j]; j++)
        ;
      if (j == n)
        return TRUE;
      if (at == next_lower)
        next_lower = memchr (at + 1, lower, (gsize) (end - at - 1));
      else
        next_upper = memchr (at + 1, upper, (gsize) (end - at - 1));
    }
  return FALSE;
}

static gboolean
text_matches (const DyRowMatch *match, const char *text, gsize len)
{
  const char *end = text + len;

  if (match->ascii)
    return ascii_find (match, text, len);
  /* Folded a piece at a time between NUL characters (a string may hold them; the text cannot),
   * so that what follows one is looked at too. */
  while (text <= end)
    {
      const char *nul = memchr (text, '\0', (gsize) (end - text));
      const char *piece_end = nul != NULL ? nul : end;
      g_autofree char *folded = g_utf8_casefold (text, piece_end - text);

      if (strstr (folded, match->folded) != NULL)
        return TRUE;
      text = piece_end + 1;
    }
  return FALSE;
}

/* One scalar of the encoding: TRUE (stop) when it holds the text. */
static gboolean
scalar_matches (const DdbEncodedScalar *scalar, gpointer data)
{
  const Walk *walk = data;
  const DyRowMatch *match = walk->match;

  switch (scalar->type)
    {
    case DDB_TYPE_S:
      return walk->strings && text_matches (match, (const char *) scalar->bytes, scalar->len);
      case DDB_TYPE_N: {
        char text[DDB_NUMBER_MAX_TEXT];

        return match->in_numbers
               && text_matches (match, text, ddb_number_write (scalar->number, text));
      }
    case DDB_TYPE_BOOL:
      return match->in_words
             && text_matches (match, scalar->boolean ? "true" : "false", scalar->boolean ? 4 : 5);
    case DDB_TYPE_NULL:
      return match->in_words && text_matches (match, "null", 4);
    default:
      return FALSE;
    }
}

gboolean
dy_row_match_encoded (DyRowMatch *match, const guint8 *bytes, gsize len, gboolean *found,
                      GError **error)
{
  Walk walk = { match, TRUE };

  if (match == NULL)
    {
      *found = TRUE;
      return TRUE;
    }
  /* A string's bytes are in the encoding as they are: if they are not there, no string holds
   * the text; and if neither a number nor a word can, no value does. */
  if (match->ascii)
    walk.strings = ascii_find (match, (const char *) bytes, len);
  if (!walk.strings && !match->in_numbers && !match->in_words)
    {
      *found = FALSE;
      return TRUE;
    }
  return ddb_item_encoded_foreach_scalar (bytes, len, scalar_matches, &walk, found, error);
}
