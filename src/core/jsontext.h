/* jsontext.h: the low-level JSON text machinery that the DynamoDB JSON codec (ddbjson.c), the
 * plain JSON codec (plainjson.c) and value.c share, so there is one way to do each: strict
 * UTF-8 decoding, JSON whitespace, string literal decoding and escaping, and the attribute path
 * that error messages end with. GTK-free; the string decoder is on the hot path of
 * ddb_json_parse_*(), so it allocates only for strings that hold escapes. */
#pragma once

#include <glib.h>

#include "core/value.h"

G_BEGIN_DECLS

/* UTF-8 */

/* Length (1..4) of the strict UTF-8 sequence at `p` and its code point in *out, or 0 (and *out
 * untouched) when it is not one: a stray continuation byte, a truncated sequence, an overlong
 * form, a UTF-16 surrogate or a code point past U+10FFFF. ddb_utf8_validate() is this in a
 * loop. Inline because it runs once for every non-ASCII character parsed or validated. */
static inline gsize
ddb_utf8_decode (const guchar *p, gsize avail, gunichar *out)
{
  guint c;
  gsize need;
  guint min;

  if (avail == 0)
    return 0;
  c = p[0];
  if (c < 0x80)
    {
      *out = c;
      return 1;
    }
  if (c >= 0xC2 && c <= 0xDF)
    need = 1, min = 0x80, c &= 0x1F;
  else if (c >= 0xE0 && c <= 0xEF)
    need = 2, min = 0x800, c &= 0x0F;
  else if (c >= 0xF0 && c <= 0xF4)
    need = 3, min = 0x10000, c &= 0x07;
  else
    return 0;
  if (avail <= need)
    return 0;
  for (gsize k = 1; k <= need; k++)
    {
      if ((p[k] & 0xC0) != 0x80)
        return 0;
      c = (c << 6) | (p[k] & 0x3F);
    }
  if (c < min || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF)
    return 0;
  *out = c;
  return need + 1;
}

/* Whitespace */

/* Past RFC 8259's four whitespace characters (space, tab, LF, CR) from `p`. */
static inline const guchar *
ddb_jsontext_skip_ws (const guchar *p, const guchar *end)
{
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  return p;
}

/* Reading string literals */

/* Why a string literal is refused. The checks are jansson's (and RFC 8259's), so that the
 * DynamoDB JSON fast path accepts exactly what its jansson fallback accepts. */
typedef enum {
  DDB_JSONTEXT_STRING_OK = 0,
  /* The input ends before the closing quote (perhaps inside an escape). */
  DDB_JSONTEXT_STRING_UNTERMINATED,
  /* A raw control character (U+0000 to U+001F), at `at`. */
  DDB_JSONTEXT_STRING_CONTROL,
  /* A byte at `at` that does not start a strict UTF-8 sequence (see ddb_utf8_decode()). */
  DDB_JSONTEXT_STRING_BAD_UTF8,
  /* A backslash at `at` followed by something other than " \ / b f n r t u. */
  DDB_JSONTEXT_STRING_BAD_ESCAPE,
  /* \u at `at` without four hex digits after it. */
  DDB_JSONTEXT_STRING_BAD_HEX,
  /* \uDC00 to \uDFFF (in `code`) at `at`, with no first half before it. */
  DDB_JSONTEXT_STRING_LONE_LOW_SURROGATE,
  /* \uD800 to \uDBFF (in `code`) at `at`, not followed by \uDC00 to \uDFFF. */
  DDB_JSONTEXT_STRING_LONE_HIGH_SURROGATE,
} DdbJsonTextStringStatus;

typedef struct {
  /* Success: the decoded bytes, pointing into the input when the literal holds no escape, else
   * into the scratch string (valid until it is next used). */
  const char *str;
  gsize len;
  /* Success: just past the closing quote. Failure: where the problem is (the backslash of a
   * bad escape; the end of the input when unterminated), for the caller's own message. */
  const guchar *at;
  /* The \u value, for the surrogate failures. */
  guint code;
} DdbJsonTextString;

/* Decodes the string literal whose opening quote is just before `p`, in text ending at `end`.
 * `scratch` is overwritten only when the literal holds an escape. */
DdbJsonTextStringStatus ddb_jsontext_decode_string (const guchar *p, const guchar *end,
                                                    GString *scratch, DdbJsonTextString *out);

/* Writing string literals */

typedef enum {
  /* \u00XX with upper-case hex, as DynamoDB and jansson write control characters. */
  DDB_JSONTEXT_ESCAPE_DEFAULT = 0,
  /* \u00xx with lower-case hex (plain JSON output). */
  DDB_JSONTEXT_ESCAPE_LOWER_HEX = 1 << 0,
} DdbJsonTextEscapeFlags;

/* Appends `s` as a JSON string literal: '"' and '\' escaped, \b \f \n \r \t short, the other
 * controls as \u00XX, everything else (DEL and non-ASCII included) as it is. Bytes that are
 * not UTF-8 (only possible in values built by hand) become U+FFFD, so the output is always
 * valid JSON. */
void ddb_jsontext_append_string (GString *out, const char *s, gsize len,
                                 DdbJsonTextEscapeFlags flags);

/* Attribute paths in messages */

typedef struct {
  const char *name; /* borrowed; NULL for an element index */
  gsize name_len;
  guint index;
} DdbJsonTextPathStep;

/* The path to the value being read or written. Both codecs refuse a value nested deeper than
 * DDB_MAX_NESTING before descending into it, so a path never holds more than that many levels
 * plus a set element index (and the one step an item's attribute adds). */
typedef struct {
  DdbJsonTextPathStep steps[DDB_MAX_NESTING + 2];
  guint depth;
} DdbJsonTextPath;

static inline void
ddb_jsontext_path_push_name (DdbJsonTextPath *path, const char *name, gsize len)
{
  g_assert (path->depth < G_N_ELEMENTS (path->steps));
  path->steps[path->depth].name = name;
  path->steps[path->depth].name_len = len;
  path->depth++;
}

static inline void
ddb_jsontext_path_push_index (DdbJsonTextPath *path, guint index)
{
  g_assert (path->depth < G_N_ELEMENTS (path->steps));
  path->steps[path->depth].name = NULL;
  path->steps[path->depth].index = index;
  path->depth++;
}

static inline void
ddb_jsontext_path_pop (DdbJsonTextPath *path)
{
  path->depth--;
}

/* TRUE when NAME[0..LEN) cannot stand bare in an attribute path as written here: empty, or
 * holding . [ ] " \ or a control character (it is then written as a JSON string). */
gboolean ddb_jsontext_name_needs_quotes (const char *name, gsize len);

/* Appends the path in DynamoDB's document-path notation, as ddbjson.h documents it: top-level
 * names bare, map keys after '.', list and set elements as [i]; a name that is empty or holds
 * . [ ] " \ or a control character is written as a JSON string: `a."x.y"[0]`. */
void ddb_jsontext_path_append (GString *out, const DdbJsonTextPath *path);

G_END_DECLS
