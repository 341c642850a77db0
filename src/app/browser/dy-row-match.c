/* dy-row-match.c: Find in Loaded Rows' test of a row. A string's bytes stand as they are in an
 * item's encoding (core/itemcodec.h), so a text that only a string can hold (not a number's
 * digits, not part of true, false or null) is first looked for in the encoded bytes: a row
 * without it is passed over undecoded, and the rows with it decoded and checked (the bytes may
 * have been in an attribute's name or a binary value). Case is folded: ASCII letters in place,
 * any other text through g_utf8_casefold (every row decoded then). */
#include "app/browser/dy-row-match.h"

#include <string.h>

#include "core/itemcodec.h"
#include "core/number.h"

struct _DyRowMatch {
  char *folded; /* the text, case-folded */
  gsize len;
  gboolean ascii;        /* only ASCII: folded by g_ascii_tolower, and compared so */
  gboolean strings_only; /* only a string can hold it: look in the encoded bytes first */
};

DyRowMatch *
dy_row_match_new (const char *text)
{
  DyRowMatch *match;
  gboolean number_like = TRUE;
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
  /* A number shows digits, a sign, a point and an exponent's e. */
  for (const char *p = match->folded; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p) && strchr ("+-.e", *p) == NULL)
      number_like = FALSE;
  match->strings_only = match->ascii && !number_like;
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (strstr (words[i], match->folded) != NULL)
      match->strings_only = FALSE;
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

/* Whether HAY (LEN bytes) holds the ASCII-folded NEEDLE, ASCII letters of HAY folded. */
static gboolean
ascii_find (const char *hay, gsize len, const char *needle, gsize n)
{
  char first_lower, first_upper;

  if (n == 0)
    return TRUE;
  if (len < n)
    return FALSE;
  first_lower = needle[0];
  first_upper = g_ascii_toupper (needle[0]);
  for (gsize i = 0; i + n <= len; i++)
    {
      gsize j;

      if (hay[i] != first_lower && hay[i] != first_upper)
        continue;
      for (j = 1; j < n && g_ascii_tolower (hay[i + j]) == needle[j]; j++)
        ;
      if (j == n)
        return TRUE;
    }
  return FALSE;
}

static gboolean
text_matches (const DyRowMatch *match, const char *text, gsize len)
{
  g_autofree char *folded = NULL;

  if (match->ascii)
    return ascii_find (text, len, match->folded, match->len);
  folded = g_utf8_casefold (text, (gssize) len);
  return strstr (folded, match->folded) != NULL;
}

static gboolean
value_matches (const DyRowMatch *match, const DdbValue *value)
{
  switch (value->type)
    {
    case DDB_TYPE_S:
      return text_matches (match, value->bytes.data, value->bytes.len);
      case DDB_TYPE_N: {
        g_autofree char *text = ddb_number_to_string (&value->number);

        return text_matches (match, text, strlen (text));
      }
    case DDB_TYPE_BOOL:
      return text_matches (match, value->boolean ? "true" : "false", value->boolean ? 4 : 5);
    case DDB_TYPE_NULL:
      return text_matches (match, "null", 4);
    case DDB_TYPE_M:
      for (guint i = 0; i < value->attrs->len; i++)
        if (value_matches (match, g_array_index (value->attrs, DdbAttr, i).value))
          return TRUE;
      return FALSE;
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
      for (guint i = 0; i < value->elems->len; i++)
        if (value_matches (match, g_ptr_array_index (value->elems, i)))
          return TRUE;
      return FALSE;
    default:
      /* Binary values and sets of them: not text. */
      return FALSE;
    }
}

gboolean
dy_row_match_item (const DyRowMatch *match, const DdbValue *item)
{
  return match == NULL || value_matches (match, item);
}

gboolean
dy_row_match_encoded (const DyRowMatch *match, const guint8 *bytes, gsize len, gboolean *found,
                      GError **error)
{
  g_autoptr (DdbValue) item = NULL;

  if (match == NULL)
    {
      *found = TRUE;
      return TRUE;
    }
  if (match->strings_only && !ascii_find ((const char *) bytes, len, match->folded, match->len))
    {
      *found = FALSE;
      return TRUE;
    }
  item = ddb_item_decode (bytes, len, error);
  if (item == NULL)
    return FALSE;
  *found = value_matches (match, item);
  return TRUE;
}
