/* plainjson.c: plain JSON to and from DdbValue: a strict RFC 8259 reader that keeps every digit
 * of a number (it hands the token to ddb_number_parse, never to a double), and a writer with a
 * reversible tagged form for binary and sets. The representation is documented in
 * docs/plain-json.md. */
#include "core/plainjson.h"

#include <stdarg.h>
#include <string.h>

#include "core/base64.h"
#include "core/error.h"
#include "core/jsontext.h"

/* Longest piece of user text quoted in a message, in bytes. */
#define QUOTE_MAX 60

/* `s` quoted as a JSON string for a message, cut (at a character boundary) if long. */
static char *
quote_for_message (const char *s, gsize len)
{
  GString *out = g_string_new (NULL);

  if (len > QUOTE_MAX)
    {
      gsize cut = QUOTE_MAX;
      while (cut > 0 && ((guchar) s[cut] & 0xC0) == 0x80)
        cut--;
      ddb_jsontext_append_string (out, s, cut, DDB_JSONTEXT_ESCAPE_LOWER_HEX);
      g_string_insert (out, out->len - 1, "...");
    }
  else
    ddb_jsontext_append_string (out, s, len, DDB_JSONTEXT_ESCAPE_LOWER_HEX);
  return g_string_free (out, FALSE);
}

/* Reader */

typedef struct {
  const guchar *text;
  gsize len;
  gsize pos;
  gboolean tagged;
  DdbJsonTextPath *path;
  GString *scratch; /* unescaped strings; see ddb_jsontext_decode_string() */
  GError *error;
} Reader;

static DdbValue *parse_value (Reader *r, guint level);
static DdbValue *parse_object (Reader *r, guint level, gboolean literal);

static void reader_fail (Reader *r, gsize at, const char *format, ...) G_GNUC_PRINTF (3, 4);

/* Sets the error (the first one wins) at byte offset `at`: line and column (in characters,
 * both from 1), the path being read, then the message. */
static void
reader_fail (Reader *r, gsize at, const char *format, ...)
{
  g_autofree char *msg = NULL;
  GString *s;
  guint line = 1, column = 1;
  va_list args;

  if (r->error != NULL)
    return;
  for (gsize i = 0; i < at && i < r->len; i++)
    {
      if (r->text[i] == '\n')
        line++, column = 1;
      else if ((r->text[i] & 0xC0) != 0x80)
        column++;
    }

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);

  s = g_string_new (NULL);
  g_string_append_printf (s, "line %u, column %u", line, column);
  if (r->path->depth > 0)
    {
      g_string_append (s, " (at ");
      ddb_jsontext_path_append (s, r->path);
      g_string_append_c (s, ')');
    }
  g_string_append (s, ": ");
  g_string_append (s, msg);
  r->error = g_error_new_literal (DDB_ERROR, DDB_ERROR_VALIDATION, s->str);
  g_string_free (s, TRUE);
}

/* What is at `at`, for "expected X, found Y" messages. */
static char *
describe_at (const Reader *r, gsize at)
{
  guchar c;
  gunichar cp;
  gsize n;

  if (at >= r->len)
    return g_strdup ("the end of the input");
  c = r->text[at];
  if (c < 0x20 || c == 0x7F)
    return g_strdup_printf ("control character U+%04X", c);
  if (c == '\'')
    return g_strdup ("a single quote (')");
  if (c < 0x80)
    return g_strdup_printf ("'%c'", c);
  n = ddb_utf8_decode (r->text + at, r->len - at, &cp);
  if (n == 0)
    return g_strdup_printf ("a byte that is not UTF-8 (0x%02X)", c);
  return g_strdup_printf ("'%.*s' (U+%04X)", (int) n, (const char *) r->text + at, cp);
}

/* The kind of JSON value starting at `at`, for "must be a string, found ..." messages. */
static char *
describe_value_at (const Reader *r, gsize at)
{
  if (at < r->len)
    {
      guchar c = r->text[at];
      if (c == '"')
        return g_strdup ("a string");
      if (c == '[')
        return g_strdup ("an array");
      if (c == '{')
        return g_strdup ("an object");
      if (c == '-' || g_ascii_isdigit (c))
        return g_strdup ("a number");
      if (c == 't' || c == 'f')
        return g_strdup ("a boolean");
      if (c == 'n')
        return g_strdup ("null");
    }
  return describe_at (r, at);
}

static void
fail_expected (Reader *r, gsize at, const char *expected)
{
  g_autofree char *found = describe_at (r, at);
  reader_fail (r, at, "expected %s, found %s", expected, found);
}

static gboolean
at_char (const Reader *r, char c)
{
  return r->pos < r->len && r->text[r->pos] == (guchar) c;
}

static gboolean
at_digit (const Reader *r)
{
  return r->pos < r->len && g_ascii_isdigit (r->text[r->pos]);
}

static void
skip_ws (Reader *r)
{
  r->pos = (gsize) (ddb_jsontext_skip_ws (r->text + r->pos, r->text + r->len) - r->text);
}

/* Reads the string at r->pos (on the opening quote), decoded; the result points into the input
 * or into r->scratch, valid until the next string is read. */
static gboolean
parse_string (Reader *r, const char **out, gsize *out_len)
{
  gsize open = r->pos;
  DdbJsonTextString str;
  DdbJsonTextStringStatus status;
  gsize at;

  status = ddb_jsontext_decode_string (r->text + open + 1, r->text + r->len, r->scratch, &str);
  at = (gsize) (str.at - r->text);
  switch (status)
    {
    case DDB_JSONTEXT_STRING_OK:
      r->pos = at;
      *out = str.str;
      *out_len = str.len;
      return TRUE;
    case DDB_JSONTEXT_STRING_UNTERMINATED:
      reader_fail (r, open, "this string is not closed (a '\"' is missing)");
      break;
    case DDB_JSONTEXT_STRING_CONTROL:
      reader_fail (r, at, "control character U+%04X must be written as an escape inside a string",
                   r->text[at]);
      break;
    case DDB_JSONTEXT_STRING_BAD_UTF8:
      reader_fail (r, at, "the text is not valid UTF-8 (byte 0x%02X)", r->text[at]);
      break;
    case DDB_JSONTEXT_STRING_BAD_HEX:
      reader_fail (r, at, "\\u must be followed by four hex digits");
      break;
    case DDB_JSONTEXT_STRING_LONE_LOW_SURROGATE:
      reader_fail (r, at,
                   "\\u%04X is the second half of a UTF-16 surrogate pair without a first half",
                   str.code);
      break;
    case DDB_JSONTEXT_STRING_LONE_HIGH_SURROGATE:
      reader_fail (r, at,
                   "\\u%04X is the first half of a UTF-16 surrogate pair, but no second half "
                   "(\\uDC00 to \\uDFFF) follows it",
                   str.code);
      break;
    case DDB_JSONTEXT_STRING_BAD_ESCAPE:
      default: {
        g_autofree char *found = describe_at (r, at + 1);
        reader_fail (r, at,
                     "invalid escape: a backslash in a string must be followed by one of "
                     "\" \\ / b f n r t u, found %s",
                     found);
      }
      break;
    }
  return FALSE;
}

/* Checks the token at r->pos against JSON's number grammar and converts it exactly. */
static gboolean
parse_number (Reader *r, DdbNumber *out)
{
  gsize start = r->pos;
  GError *local = NULL;
  g_autofree char *shown = NULL;
  gsize len;

  if (at_char (r, '-'))
    {
      r->pos++;
      if (!at_digit (r))
        {
          fail_expected (r, r->pos, "a digit after '-'");
          return FALSE;
        }
    }
  if (at_char (r, '0'))
    {
      r->pos++;
      if (at_digit (r))
        {
          reader_fail (r, start, "numbers cannot have leading zeros");
          return FALSE;
        }
    }
  else
    while (at_digit (r))
      r->pos++;
  if (at_char (r, '.'))
    {
      r->pos++;
      if (!at_digit (r))
        {
          fail_expected (r, r->pos, "a digit after the decimal point");
          return FALSE;
        }
      while (at_digit (r))
        r->pos++;
    }
  if (at_char (r, 'e') || at_char (r, 'E'))
    {
      r->pos++;
      if (at_char (r, '+') || at_char (r, '-'))
        r->pos++;
      if (!at_digit (r))
        {
          fail_expected (r, r->pos, "a digit in the exponent");
          return FALSE;
        }
      while (at_digit (r))
        r->pos++;
    }

  len = r->pos - start;
  if (ddb_number_parse (out, (const char *) r->text + start, (gssize) len, &local))
    return TRUE;

  /* number.h documents these three messages; anything else is passed on as it is. */
  if (len > QUOTE_MAX)
    shown = g_strdup_printf ("%.*s...%.*s (%" G_GSIZE_FORMAT " characters)", 24,
                             (const char *) r->text + start, 12,
                             (const char *) r->text + r->pos - 12, len);
  else
    shown = g_strndup ((const char *) r->text + start, len);
  if (strstr (local->message, "significant digits") != NULL)
    reader_fail (r, start,
                 "number %s has more than %d significant digits, which DynamoDB cannot store "
                 "exactly (it is not rounded)",
                 shown, DDB_NUMBER_MAX_DIGITS);
  else if (strstr (local->message, "overflow") != NULL)
    reader_fail (r, start,
                 "number %s is too large: DynamoDB numbers range in magnitude up to "
                 "9.9999999999999999999999999999999999999E+125",
                 shown);
  else if (strstr (local->message, "underflow") != NULL)
    reader_fail (r, start,
                 "number %s is too small: the smallest magnitude DynamoDB can store, other "
                 "than 0, is 1E-130",
                 shown);
  else
    reader_fail (r, start, "number %s cannot be stored in DynamoDB: %s", shown, local->message);
  g_error_free (local);
  return FALSE;
}

/* true, false, null, or a word that is none of them. */
static DdbValue *
parse_word (Reader *r)
{
  gsize start = r->pos;
  const char *w = (const char *) r->text + start;
  gsize len;

  while (r->pos < r->len && (g_ascii_isalnum (r->text[r->pos]) || r->text[r->pos] == '_'))
    r->pos++;
  len = r->pos - start;
  if (len == 4 && memcmp (w, "true", 4) == 0)
    return ddb_value_new_bool (TRUE);
  if (len == 5 && memcmp (w, "false", 5) == 0)
    return ddb_value_new_bool (FALSE);
  if (len == 4 && memcmp (w, "null", 4) == 0)
    return ddb_value_new_null ();
  reader_fail (r, start,
               "'%.*s' is not a JSON value (text must be in double quotes; the literals are "
               "true, false and null, in lower case)",
               (int) MIN (len, QUOTE_MAX), w);
  return NULL;
}

/* After the last element or member of an array or object: TRUE when `close` ends it, FALSE
 * with *more set when a comma announces another one, FALSE and an error otherwise. */
static gboolean
parse_separator (Reader *r, char close, const char *what, gboolean *more)
{
  *more = FALSE;
  skip_ws (r);
  if (at_char (r, close))
    {
      r->pos++;
      return TRUE;
    }
  if (at_char (r, ','))
    {
      r->pos++;
      skip_ws (r);
      if (at_char (r, close))
        reader_fail (r, r->pos, "a comma cannot follow the last %s", what);
      else
        *more = TRUE;
      return FALSE;
    }
  {
    g_autofree char *expected
        = g_strdup_printf ("',' or '%c' after %s %s", close, what[0] == 'e' ? "an" : "a", what);
    fail_expected (r, r->pos, expected);
  }
  return FALSE;
}

static DdbValue *
parse_array (Reader *r, guint level)
{
  g_autoptr (DdbValue) list = ddb_value_new_l ();
  gboolean more = TRUE;

  r->pos++;
  skip_ws (r);
  if (at_char (r, ']'))
    {
      r->pos++;
      return g_steal_pointer (&list);
    }
  for (guint i = 0; more; i++)
    {
      DdbValue *elem;

      ddb_jsontext_path_push_index (r->path, i);
      elem = parse_value (r, level + 1);
      ddb_jsontext_path_pop (r->path);
      if (elem == NULL)
        return NULL;
      ddb_value_list_append (list, elem);
      if (parse_separator (r, ']', "element of an array", &more))
        return g_steal_pointer (&list);
    }
  return NULL;
}

/* Skips the JSON value at `p` without checking it, for the one look-ahead the tags need;
 * returns where it ends, or G_MAXSIZE when the input ends first. The real parse that follows
 * reports any error. */
static gsize
skip_string_raw (const guchar *t, gsize len, gsize p)
{
  for (p++; p < len; p++)
    {
      if (t[p] == '\\')
        p++;
      else if (t[p] == '"')
        return p + 1;
    }
  return G_MAXSIZE;
}

static gsize
skip_value_raw (const guchar *t, gsize len, gsize p)
{
  gsize depth = 0;

  if (p >= len)
    return G_MAXSIZE;
  if (t[p] == '"')
    return skip_string_raw (t, len, p);
  if (t[p] != '{' && t[p] != '[')
    {
      while (p < len && t[p] != ',' && t[p] != '}' && t[p] != ']' && t[p] != ' ' && t[p] != '\t'
             && t[p] != '\n' && t[p] != '\r')
        p++;
      return p;
    }
  while (p < len)
    {
      guchar c = t[p];
      if (c == '"')
        {
          p = skip_string_raw (t, len, p);
          if (p == G_MAXSIZE)
            return G_MAXSIZE;
          continue;
        }
      if (c == '{' || c == '[')
        depth++;
      else if ((c == '}' || c == ']') && --depth == 0)
        return p + 1;
      p++;
    }
  return G_MAXSIZE;
}

/* With r->pos just after an object's first key: is that key its only member? */
static gboolean
single_member_follows (const Reader *r)
{
  Reader probe = *r;

  skip_ws (&probe);
  if (!at_char (&probe, ':'))
    return FALSE;
  probe.pos++;
  skip_ws (&probe);
  probe.pos = skip_value_raw (probe.text, probe.len, probe.pos);
  if (probe.pos == G_MAXSIZE)
    return FALSE;
  skip_ws (&probe);
  return at_char (&probe, '}');
}

static DdbValue *
parse_binary_string (Reader *r, const char *tag)
{
  const char *s;
  gsize len;
  gsize at = r->pos;
  DdbBase64Error problem = DDB_BASE64_OK;
  gsize problem_pos = 0;
  gsize n = 0;
  guchar *data;
  const char *why;

  if (!parse_string (r, &s, &len))
    return NULL;
  data = ddb_base64_decode (s, (gssize) len, &n, &problem, &problem_pos);
  if (data != NULL)
    return ddb_value_take_bytes (DDB_TYPE_B, (char *) data, n);

  switch (problem)
    {
    case DDB_BASE64_BAD_LENGTH:
      why = "its length is not a multiple of 4 (it must be padded with '=')";
      break;
    case DDB_BASE64_BAD_CHARACTER:
      why = "a character that is not standard base64 (only A-Z a-z 0-9 + / and '=' as padding "
            "at the end; no spaces or line breaks)";
      break;
    case DDB_BASE64_BAD_TRAILING_BITS:
      why = "the unused bits of the last character are not zero, so this is not the standard "
            "encoding of any bytes";
      break;
    default:
      why = "not standard padded base64";
      break;
    }
  /* Point at the offending character when the string held no escapes, so that offsets agree. */
  if (problem != DDB_BASE64_BAD_LENGTH && r->pos - at == len + 2 && problem_pos < len)
    at += 1 + problem_pos;
  reader_fail (r, at, "invalid base64 in \"%s\": %s", tag, why);
  return NULL;
}

/* The array of a "$SS", "$NS" or "$BS" tag, at r->pos. */
static DdbValue *
parse_set (Reader *r, DdbType type, const char *tag)
{
  static const char *const wanted[] = { "strings", "numbers", "base64 strings" };
  const char *want = wanted[type == DDB_TYPE_SS ? 0 : type == DDB_TYPE_NS ? 1 : 2];
  g_autoptr (DdbValue) set = NULL;
  gboolean more = TRUE;

  if (!at_char (r, '['))
    {
      g_autofree char *found = describe_value_at (r, r->pos);
      reader_fail (r, r->pos, "the value of \"%s\" must be an array of %s, found %s", tag, want,
                   found);
      return NULL;
    }
  r->pos++;
  skip_ws (r);
  if (at_char (r, ']'))
    {
      reader_fail (r, r->pos - 1,
                   "\"%s\" is an empty set, which DynamoDB does not allow: a set holds at least "
                   "one element",
                   tag);
      return NULL;
    }

  set = ddb_value_new_set (type);
  for (guint i = 0; more; i++)
    {
      gsize at = r->pos;
      DdbValue *elem = NULL;
      g_autofree char *dup_text = NULL;

      ddb_jsontext_path_push_index (r->path, i);
      if (type == DDB_TYPE_NS ? !(at_char (r, '-') || at_digit (r)) : !at_char (r, '"'))
        {
          g_autofree char *found = describe_value_at (r, at);
          reader_fail (r, at, "the elements of \"%s\" must be %s, found %s", tag, want, found);
        }
      else if (type == DDB_TYPE_NS)
        {
          DdbNumber n;
          if (parse_number (r, &n))
            {
              elem = ddb_value_new_n (&n);
              dup_text = g_strndup ((const char *) r->text + at, MIN (r->pos - at, QUOTE_MAX));
            }
        }
      else if (type == DDB_TYPE_BS)
        {
          elem = parse_binary_string (r, tag);
          if (elem != NULL)
            dup_text = g_strndup ((const char *) r->text + at, MIN (r->pos - at, QUOTE_MAX));
        }
      else
        {
          const char *s;
          gsize len;
          if (parse_string (r, &s, &len))
            {
              dup_text = quote_for_message (s, len);
              elem = ddb_value_new_s (s, (gssize) len);
            }
        }
      if (elem == NULL)
        return NULL;
      if (!ddb_value_set_add (set, elem))
        {
          reader_fail (r, at, "%s appears twice in \"%s\"; the elements of a set are unique%s",
                       dup_text, tag,
                       type == DDB_TYPE_NS ? " (numbers are compared by value: 1 = 1.0)" : "");
          return NULL;
        }
      ddb_jsontext_path_pop (r->path);
      if (parse_separator (r, ']', "element of an array", &more))
        return g_steal_pointer (&set);
    }
  return NULL;
}

/* With r->pos just after the key of a one-member object whose key starts with '$'. */
static DdbValue *
parse_tag (Reader *r, guint level, const GString *key, gsize key_at)
{
  g_autoptr (DdbValue) v = NULL;
  const char *tag = key->str;

  skip_ws (r);
  r->pos++; /* ':', checked by single_member_follows () */
  skip_ws (r);

  if (strcmp (tag, "$B") == 0)
    {
      if (!at_char (r, '"'))
        {
          g_autofree char *found = describe_value_at (r, r->pos);
          reader_fail (r, r->pos, "the value of \"$B\" must be a base64 string, found %s", found);
          return NULL;
        }
      v = parse_binary_string (r, tag);
    }
  else if (strcmp (tag, "$SS") == 0)
    v = parse_set (r, DDB_TYPE_SS, tag);
  else if (strcmp (tag, "$NS") == 0)
    v = parse_set (r, DDB_TYPE_NS, tag);
  else if (strcmp (tag, "$BS") == 0)
    v = parse_set (r, DDB_TYPE_BS, tag);
  else if (strcmp (tag, "$M") == 0)
    {
      if (!at_char (r, '{'))
        {
          g_autofree char *found = describe_value_at (r, r->pos);
          reader_fail (r, r->pos, "the value of \"$M\" must be an object, found %s", found);
          return NULL;
        }
      /* The wrapped object is the map itself, at this level, its keys taken literally. */
      v = parse_object (r, level, TRUE);
    }
  else
    {
      g_autofree char *q = quote_for_message (key->str, key->len);
      reader_fail (r, key_at,
                   "%s is not a known tag ($B, $SS, $NS, $BS, $M); a map whose only key starts "
                   "with '$' must be wrapped as {\"$M\": {...}}",
                   q);
      return NULL;
    }
  if (v == NULL)
    return NULL;

  skip_ws (r);
  if (!at_char (r, '}'))
    {
      fail_expected (r, r->pos, "'}' after the tagged value");
      return NULL;
    }
  r->pos++;
  return g_steal_pointer (&v);
}

/* `literal`: the object of a "$M" tag, whose own keys are never tags. */
static DdbValue *
parse_object (Reader *r, guint level, gboolean literal)
{
  g_autoptr (DdbValue) map = ddb_value_new_m ();
  g_autoptr (GString) key = g_string_new (NULL);
  g_autoptr (GHashTable) names = NULL;
  gboolean more = TRUE;

  r->pos++;
  skip_ws (r);
  if (at_char (r, '}'))
    {
      r->pos++;
      return g_steal_pointer (&map);
    }
  for (guint i = 0; more; i++)
    {
      gsize key_at;
      const char *s;
      gsize len;
      DdbValue *v;
      gboolean dup;

      skip_ws (r);
      key_at = r->pos;
      if (!at_char (r, '"'))
        {
          fail_expected (r, r->pos, "a key in double quotes");
          return NULL;
        }
      if (!parse_string (r, &s, &len))
        return NULL;
      /* Kept apart from r->scratch, which the member's value reuses. */
      g_string_truncate (key, 0);
      g_string_append_len (key, s, (gssize) len);
      if (memchr (key->str, '\0', key->len) != NULL)
        {
          reader_fail (r, key_at, "attribute names cannot contain U+0000");
          return NULL;
        }
      if (i == 0 && !literal && r->tagged && key->len > 0 && key->str[0] == '$'
          && single_member_follows (r))
        return parse_tag (r, level, key, key_at);

      skip_ws (r);
      if (!at_char (r, ':'))
        {
          fail_expected (r, r->pos, "':' after the key");
          return NULL;
        }
      r->pos++;

      /* Linear lookup is cheapest for the small maps most items hold. */
      if (names != NULL)
        dup = g_hash_table_contains (names, key->str);
      else
        dup = ddb_value_map_get_len (map, key->str, key->len) != NULL;
      if (dup)
        {
          g_autofree char *q = quote_for_message (key->str, key->len);
          reader_fail (r, key_at, "duplicate key %s: each key may appear only once in an object",
                       q);
          return NULL;
        }

      ddb_jsontext_path_push_name (r->path, key->str, key->len);
      v = parse_value (r, level + 1);
      ddb_jsontext_path_pop (r->path);
      if (v == NULL)
        return NULL;
      ddb_value_map_append (map, key->str, key->len, v);

      /* The names are owned by the map and never move (only the DdbAttr array does). */
      if (names == NULL && i >= 16)
        {
          names = g_hash_table_new (g_str_hash, g_str_equal);
          for (guint k = 0; k < ddb_value_map_size (map); k++)
            g_hash_table_add (names, ddb_value_map_nth (map, k)->name);
        }
      else if (names != NULL)
        g_hash_table_add (names, ddb_value_map_nth (map, ddb_value_map_size (map) - 1)->name);

      if (parse_separator (r, '}', "member of an object", &more))
        return g_steal_pointer (&map);
    }
  return NULL;
}

/* `level` as ddb_value_validate() counts it: 1 for an attribute's value, one more inside each
 * map or list. */
static DdbValue *
parse_value (Reader *r, guint level)
{
  guchar c;

  skip_ws (r);
  if (r->pos >= r->len)
    {
      reader_fail (r, r->pos, "expected a value, found the end of the input");
      return NULL;
    }
  if (level > DDB_MAX_NESTING)
    {
      reader_fail (r, r->pos,
                   "the value is nested more than %d levels deep, which DynamoDB does not allow",
                   DDB_MAX_NESTING);
      return NULL;
    }

  c = r->text[r->pos];
  switch (c)
    {
    case '{':
      return parse_object (r, level, FALSE);
    case '[':
      return parse_array (r, level);
      case '"': {
        const char *s;
        gsize len;
        if (!parse_string (r, &s, &len))
          return NULL;
        return ddb_value_new_s (s, (gssize) len);
      }
    case '+':
      reader_fail (r, r->pos, "a number cannot start with '+'");
      return NULL;
    case '.':
      reader_fail (r, r->pos, "a number needs a digit before the decimal point");
      return NULL;
    default:
      break;
    }
  if (c == '-' || g_ascii_isdigit (c))
    {
      DdbNumber n;
      if (!parse_number (r, &n))
        return NULL;
      return ddb_value_new_n (&n);
    }
  if (g_ascii_isalpha (c) || c == '_')
    return parse_word (r);
  fail_expected (r, r->pos, "a value");
  return NULL;
}

static DdbValue *
plain_parse (const char *text, gssize len, DdbPlainFlags flags, gboolean item, GError **error)
{
  Reader r = { 0 };
  DdbJsonTextPath path = { .depth = 0 };
  DdbValue *v = NULL;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  r.text = (const guchar *) text;
  r.len = len < 0 ? strlen (text) : (gsize) len;
  r.tagged = (flags & DDB_PLAIN_STRICT) == 0;
  r.path = &path;
  r.scratch = g_string_new (NULL);

  /* RFC 8259 lets a parser ignore a byte order mark; editors on some systems add one. */
  if (r.len >= 3 && memcmp (r.text, "\xEF\xBB\xBF", 3) == 0)
    r.text += 3, r.len -= 3;

  skip_ws (&r);
  if (item && !at_char (&r, '{'))
    {
      g_autofree char *found = describe_value_at (&r, r.pos);
      reader_fail (&r, r.pos, "an item must be a JSON object, found %s", found);
    }
  else
    {
      gsize start = r.pos;

      /* An item is the map holding the level-1 attributes. */
      v = parse_value (&r, item ? 0 : 1);
      if (v != NULL && item && v->type != DDB_TYPE_M)
        {
          reader_fail (&r, start, "an item must be a map, not a tagged %s value",
                       ddb_type_name (v->type));
          g_clear_pointer (&v, ddb_value_free);
        }
      if (v != NULL)
        {
          skip_ws (&r);
          if (r.pos < r.len)
            {
              g_autofree char *found = describe_at (&r, r.pos);
              reader_fail (&r, r.pos, "unexpected %s after the end of the JSON value", found);
              g_clear_pointer (&v, ddb_value_free);
            }
        }
    }

  g_string_free (r.scratch, TRUE);
  if (v == NULL)
    g_propagate_error (error, r.error);
  else
    g_assert (r.error == NULL);
  return v;
}

DdbValue *
ddb_plain_parse_value (const char *text, gssize len, DdbPlainFlags flags, GError **error)
{
  return plain_parse (text, len, flags, FALSE, error);
}

DdbValue *
ddb_plain_parse_item (const char *text, gssize len, DdbPlainFlags flags, GError **error)
{
  return plain_parse (text, len, flags, TRUE, error);
}

/* Writer */

typedef struct {
  GString *out;
  gboolean tagged;
  gboolean pretty;
  DdbJsonTextPath *path;
  GError *error;
} Writer;

static void writer_fail (Writer *w, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* The message is about the value at the current path, which it follows: "attribute a.b",
 * "element [2]" or "the value", then the message. */
static void
writer_fail (Writer *w, const char *format, ...)
{
  g_autofree char *msg = NULL;
  GString *s;
  va_list args;

  if (w->error != NULL)
    return;
  s = g_string_new (NULL);
  if (w->path->depth == 0)
    g_string_append (s, "the value");
  else
    {
      g_string_append (s, w->path->steps[0].name != NULL ? "attribute " : "element ");
      ddb_jsontext_path_append (s, w->path);
    }

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_string_append_c (s, ' ');
  g_string_append (s, msg);
  w->error = g_error_new_literal (DDB_ERROR, DDB_ERROR_VALIDATION, s->str);
  g_string_free (s, TRUE);
}

static void
write_newline (Writer *w, guint indent)
{
  if (!w->pretty)
    return;
  g_string_append_c (w->out, '\n');
  for (guint i = 0; i < indent; i++)
    g_string_append (w->out, "  ");
}

static void
write_key (Writer *w, const char *name, gsize len)
{
  ddb_jsontext_append_string (w->out, name, len, DDB_JSONTEXT_ESCAPE_LOWER_HEX);
  g_string_append (w->out, w->pretty ? ": " : ":");
}

static gboolean write_value (Writer *w, const DdbValue *v, guint level, guint indent);

static gboolean
write_members (Writer *w, const DdbValue *m, guint level, guint indent)
{
  g_string_append_c (w->out, '{');
  for (guint i = 0; i < m->attrs->len; i++)
    {
      const DdbAttr *a = &g_array_index (m->attrs, DdbAttr, i);
      gboolean ok;

      if (a->name == NULL || !ddb_utf8_validate (a->name, a->name_len))
        {
          writer_fail (w, "has an attribute name that is not valid UTF-8");
          return FALSE;
        }
      if (memchr (a->name, '\0', a->name_len) != NULL)
        {
          writer_fail (w, "has an attribute name that contains U+0000");
          return FALSE;
        }
      if (i > 0)
        g_string_append_c (w->out, ',');
      write_newline (w, indent + 1);
      write_key (w, a->name, a->name_len);
      ddb_jsontext_path_push_name (w->path, a->name, a->name_len);
      ok = write_value (w, a->value, level + 1, indent + 1);
      ddb_jsontext_path_pop (w->path);
      if (!ok)
        return FALSE;
    }
  write_newline (w, indent);
  g_string_append_c (w->out, '}');
  return TRUE;
}

static gboolean
write_map (Writer *w, const DdbValue *m, guint level, guint indent)
{
  const DdbAttr *only;

  if (m->attrs->len == 0)
    {
      g_string_append (w->out, "{}");
      return TRUE;
    }
  only = m->attrs->len == 1 ? &g_array_index (m->attrs, DdbAttr, 0) : NULL;
  if (!w->tagged || only == NULL || only->name_len == 0 || only->name[0] != '$')
    return write_members (w, m, level, indent);

  /* A lone "$..." key would read back as a tag: wrap the map. */
  g_string_append_c (w->out, '{');
  write_newline (w, indent + 1);
  write_key (w, "$M", 2);
  if (!write_members (w, m, level, indent + 1))
    return FALSE;
  write_newline (w, indent);
  g_string_append_c (w->out, '}');
  return TRUE;
}

static gboolean
write_list (Writer *w, const DdbValue *l, guint level, guint indent)
{
  if (l->elems->len == 0)
    {
      g_string_append (w->out, "[]");
      return TRUE;
    }
  g_string_append_c (w->out, '[');
  for (guint i = 0; i < l->elems->len; i++)
    {
      gboolean ok;

      if (i > 0)
        g_string_append_c (w->out, ',');
      write_newline (w, indent + 1);
      ddb_jsontext_path_push_index (w->path, i);
      ok = write_value (w, g_ptr_array_index (l->elems, i), level + 1, indent + 1);
      ddb_jsontext_path_pop (w->path);
      if (!ok)
        return FALSE;
    }
  write_newline (w, indent);
  g_string_append_c (w->out, ']');
  return TRUE;
}

static const char *
type_description (DdbType type)
{
  switch (type)
    {
    case DDB_TYPE_B:
      return "a binary value (B)";
    case DDB_TYPE_SS:
      return "a string set (SS)";
    case DDB_TYPE_NS:
      return "a number set (NS)";
    case DDB_TYPE_BS:
      return "a binary set (BS)";
    default:
      return "a value";
    }
}

/* Tagged values go on one line even when pretty: they are leaves to a reader. */
static gboolean
write_tagged (Writer *w, const DdbValue *v)
{
  const char *sep = w->pretty ? ", " : ",";

  if (!w->tagged)
    {
      writer_fail (w,
                   "is %s, which plain JSON cannot represent; use DynamoDB JSON or the "
                   "tagged form",
                   type_description (v->type));
      return FALSE;
    }

  g_string_append_c (w->out, '{');
  if (v->type == DDB_TYPE_B)
    {
      write_key (w, "$B", 2);
      g_string_append_c (w->out, '"');
      ddb_base64_append (w->out, (const guchar *) v->bytes.data, v->bytes.len);
      g_string_append_c (w->out, '"');
    }
  else
    {
      g_autoptr (GError) local = NULL;

      /* Empty sets and duplicates would not read back (and are not DynamoDB values). */
      if (!ddb_value_validate_set (v, &local))
        {
          writer_fail (w, "is %s that DynamoDB would refuse: %s", type_description (v->type),
                       local->message);
          return FALSE;
        }
      write_key (w, v->type == DDB_TYPE_SS ? "$SS" : v->type == DDB_TYPE_NS ? "$NS" : "$BS", 3);
      g_string_append_c (w->out, '[');
      for (guint i = 0; i < v->elems->len; i++)
        {
          const DdbValue *e = g_ptr_array_index (v->elems, i);

          if (i > 0)
            g_string_append (w->out, sep);
          if (e->type == DDB_TYPE_N)
            ddb_number_append (&e->number, w->out);
          else if (e->type == DDB_TYPE_S)
            ddb_jsontext_append_string (w->out, e->bytes.data, e->bytes.len,
                                        DDB_JSONTEXT_ESCAPE_LOWER_HEX);
          else
            {
              g_string_append_c (w->out, '"');
              ddb_base64_append (w->out, (const guchar *) e->bytes.data, e->bytes.len);
              g_string_append_c (w->out, '"');
            }
        }
      g_string_append_c (w->out, ']');
    }
  g_string_append_c (w->out, '}');
  return TRUE;
}

static gboolean
write_value (Writer *w, const DdbValue *v, guint level, guint indent)
{
  if (v == NULL)
    {
      writer_fail (w, "is missing (NULL)");
      return FALSE;
    }
  if (level > DDB_MAX_NESTING)
    {
      writer_fail (w, "is nested more than %d levels deep, which DynamoDB does not allow",
                   DDB_MAX_NESTING);
      return FALSE;
    }
  switch (v->type)
    {
    case DDB_TYPE_S:
      if (!ddb_utf8_validate (v->bytes.data, v->bytes.len))
        {
          writer_fail (w, "is a string that is not valid UTF-8");
          return FALSE;
        }
      ddb_jsontext_append_string (w->out, v->bytes.data, v->bytes.len,
                                  DDB_JSONTEXT_ESCAPE_LOWER_HEX);
      return TRUE;
    case DDB_TYPE_N:
      ddb_number_append (&v->number, w->out);
      return TRUE;
    case DDB_TYPE_BOOL:
      g_string_append (w->out, v->boolean ? "true" : "false");
      return TRUE;
    case DDB_TYPE_NULL:
      g_string_append (w->out, "null");
      return TRUE;
    case DDB_TYPE_M:
      return write_map (w, v, level, indent);
    case DDB_TYPE_L:
      return write_list (w, v, level, indent);
    case DDB_TYPE_B:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      return write_tagged (w, v);
    default:
      writer_fail (w, "has an invalid type (%d)", (int) v->type);
      return FALSE;
    }
}

static char *
plain_format (const DdbValue *value, DdbPlainFlags flags, gboolean item, GError **error)
{
  Writer w = { 0 };
  DdbJsonTextPath path = { .depth = 0 };
  gboolean ok;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  w.out = g_string_new (NULL);
  w.tagged = (flags & DDB_PLAIN_STRICT) == 0;
  w.pretty = (flags & DDB_PLAIN_PRETTY) != 0;
  w.path = &path;

  if (item && (value == NULL || value->type != DDB_TYPE_M))
    {
      w.error = g_error_new_literal (DDB_ERROR, DDB_ERROR_VALIDATION, "an item must be a map");
      ok = FALSE;
    }
  else if (item)
    ok = write_map (&w, value, 0, 0);
  else
    ok = write_value (&w, value, 1, 0);

  if (!ok)
    {
      g_propagate_error (error, w.error);
      g_string_free (w.out, TRUE);
      return NULL;
    }
  return g_string_free (w.out, FALSE);
}

char *
ddb_plain_format_value (const DdbValue *value, DdbPlainFlags flags, GError **error)
{
  return plain_format (value, flags, FALSE, error);
}

char *
ddb_plain_format_item (const DdbValue *item, DdbPlainFlags flags, GError **error)
{
  return plain_format (item, flags, TRUE, error);
}
