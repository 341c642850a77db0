/* ion-direct.c: the direct path of an export line: one record in the shapes AWS's export
 * writes, read straight into DynamoDB values, without the generic tree of ion-read.c and its
 * mapping in ion.c (which allocate a node, a text and a container per value: about half of
 * an import's time in Ion, by perf).
 *
 * It reads the optional $ion_1_0 marker, one record struct (Item, or Keys with NewImage,
 * OldImage or Metadata), field names as identifiers, quoted symbols or strings, short strings
 * (escapes through ion-lex.c's scanner), ints and decimals (a d exponent), blobs, null,
 * booleans, structs, lists and the $dynamodb_SS / NS / BS sets, with spaces and tabs between.
 * On anything else, and on every error, it gives up without a word and the generic path reads
 * the line: that one accepts the rest of Ion or words the error. So it never accepts what the
 * generic path refuses, and gives the values the generic path gives. */
#include <string.h>

#include "core/base64.h"
#include "core/ion-private.h"
#include "core/jsontext.h"
#include "core/number.h"

/* Spaces and tabs: other whitespace and comments are left to the generic path (it counts
 * lines). */
static inline void
skip_blank (DdbIonReader *r)
{
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t'))
    r->p++;
}

/* After a value in a container: past ',' (TRUE), at `close` (TRUE), or anything else (FALSE). */
static inline gboolean
after_element (DdbIonReader *r, int close)
{
  skip_blank (r);
  if (peek_at (r, 0) == ',')
    {
      r->p++;
      return TRUE;
    }
  return peek_at (r, 0) == close;
}

/* Quoted text whose opening quote r->p is at (a short string or a quoted symbol): *text and
 * *len point into the line when it has no escape, else into `scratch`. */
static gboolean
read_quoted (DdbIonReader *r, GString **scratch, const char **text, gsize *len)
{
  int close = *r->p;
  Quote quote = close == '"' ? QUOTE_SHORT : QUOTE_SYMBOL;
  const guchar *s = ++r->p;

  while (r->p < r->end)
    {
      int c = *r->p;

      if (c == close)
        {
          *text = (const char *) s;
          *len = (gsize) (r->p - s);
          r->p++;
          return TRUE;
        }
      if (c == '\\')
        break;
      if (c < 0x20 && c != '\t' && c != '\v' && c != '\f')
        return FALSE;
      if (c >= 0x80)
        {
          gunichar u;
          gsize n = ddb_utf8_decode (r->p, (gsize) (r->end - r->p), &u);
          if (n == 0)
            return FALSE;
          r->p += n;
        }
      else
        r->p++;
    }
  if (r->p >= r->end)
    return FALSE;
  /* An escape: the shared scanner reads the text again from its start. */
  if (*scratch == NULL)
    *scratch = g_string_sized_new (64);
  g_string_truncate (*scratch, 0);
  r->p = s;
  if (!ion_read_quoted (r, quote, FALSE, *scratch))
    return FALSE;
  *text = (*scratch)->str;
  *len = (*scratch)->len;
  return TRUE;
}

/* A field name followed by ':'; *owned is set when the name had to be copied. */
static gboolean
read_field_name (DdbIonReader *r, GString **scratch, const char **name, gsize *len, char **owned)
{
  int c = peek_at (r, 0);

  *owned = NULL;
  if (c == '"' || (c == '\'' && !at_long_quote (r)))
    {
      if (!read_quoted (r, scratch, name, len))
        return FALSE;
      /* The value read next uses the scratch text: a name there is copied (it may hold
       * U+0000, so not with g_strndup). */
      if (*scratch != NULL && *name == (*scratch)->str)
        *name = *owned = g_memdup2 (*name, *len + 1);
    }
  else if (is_ident_start (c))
    {
      const guchar *s = r->p;
      gsize digits = 0;

      while (is_ident_char (peek_at (r, 0)))
        digits += g_ascii_isdigit (*r->p++) != 0;
      *name = (const char *) s;
      *len = (gsize) (r->p - s);
      /* Keywords and symbol ids ($10) are the generic path's. */
      if ((*len == 4 && (memcmp (s, "null", 4) == 0 || memcmp (s, "true", 4) == 0))
          || (*len == 5 && memcmp (s, "false", 5) == 0) || (*len == 3 && memcmp (s, "nan", 3) == 0)
          || (s[0] == '$' && *len > 1 && digits == *len - 1))
        return FALSE;
    }
  else
    return FALSE;
  skip_blank (r);
  if (peek_at (r, 0) != ':' || peek_at (r, 1) == ':')
    {
      g_clear_pointer (owned, g_free);
      return FALSE;
    }
  r->p++;
  skip_blank (r);
  return TRUE;
}

/* An int or decimal: [-]digits[.digits][d[+-]digits], as the generic reader gives it to
 * ddb_number_parse (the d becomes e). */
static DdbValue *
read_number (DdbIonReader *r)
{
  const guchar *s = r->p, *d = NULL;
  DdbNumber n;
  char buf[128];

  if (peek_at (r, 0) == '-')
    r->p++;
  if (!g_ascii_isdigit (peek_at (r, 0))
      || (peek_at (r, 0) == '0' && g_ascii_isdigit (peek_at (r, 1))))
    return NULL;
  while (g_ascii_isdigit (peek_at (r, 0)))
    r->p++;
  if (peek_at (r, 0) == '.')
    {
      r->p++;
      while (g_ascii_isdigit (peek_at (r, 0)))
        r->p++;
    }
  if (peek_at (r, 0) == 'd' || peek_at (r, 0) == 'D')
    {
      d = r->p++;
      if (peek_at (r, 0) == '+' || peek_at (r, 0) == '-')
        r->p++;
      if (!g_ascii_isdigit (peek_at (r, 0)))
        return NULL;
      while (g_ascii_isdigit (peek_at (r, 0)))
        r->p++;
    }
  /* '_', an e exponent (a float), a timestamp's '-' or 'T': the generic path's. */
  if (r->p < r->end && (*r->p == '\0' || strchr (" \t,]}", *r->p) == NULL))
    return NULL;
  if (d == NULL)
    return ddb_number_parse (&n, (const char *) s, r->p - s, NULL) ? ddb_value_new_n (&n) : NULL;
  if ((gsize) (r->p - s) > sizeof buf)
    return NULL;
  memcpy (buf, s, (gsize) (r->p - s));
  buf[d - s] = 'e';
  return ddb_number_parse (&n, buf, r->p - s, NULL) ? ddb_value_new_n (&n) : NULL;
}

/* A blob: "{{" base64 "}}" (a clob, or whitespace inside the base64, is the generic path's). */
static DdbValue *
read_blob (DdbIonReader *r)
{
  const guchar *s;
  guchar *bytes;
  gsize n = 0, len;

  r->p += 2;
  skip_blank (r);
  s = r->p;
  while (r->p < r->end && (g_ascii_isalnum (*r->p) || *r->p == '+' || *r->p == '/' || *r->p == '='))
    r->p++;
  len = (gsize) (r->p - s);
  skip_blank (r);
  if (peek_at (r, 0) != '}' || peek_at (r, 1) != '}')
    return NULL;
  r->p += 2;
  bytes = ddb_base64_decode ((const char *) s, (gssize) len, &n, NULL, NULL);
  return bytes != NULL ? ddb_value_take_bytes (DDB_TYPE_B, (char *) bytes, n) : NULL;
}

static DdbValue *
read_string (DdbIonReader *r, GString **scratch)
{
  const char *text;
  gsize len;

  return read_quoted (r, scratch, &text, &len) ? ddb_value_new_s (text, (gssize) len) : NULL;
}

static DdbValue *read_value (DdbIonReader *r, GString **scratch, guint level);

/* A struct whose '{' r->p is at, as a map whose attributes are at `level`. */
static DdbValue *
read_map (DdbIonReader *r, GString **scratch, guint level)
{
  DdbValue *map = ddb_value_new_m ();
  IonNames names = { 0 };

  r->p++;
  for (;;)
    {
      const char *name;
      gsize len;
      char *owned;
      DdbValue *v = NULL;

      skip_blank (r);
      if (peek_at (r, 0) == '}')
        {
          r->p++;
          ion_names_clear (&names);
          return map;
        }
      if (!read_field_name (r, scratch, &name, &len, &owned))
        break;
      if (!ion_names_contain (&names, map, name, len))
        v = read_value (r, scratch, level);
      if (v != NULL)
        ddb_value_map_append (map, name, len, v);
      g_free (owned);
      if (v == NULL || !after_element (r, '}'))
        break;
    }
  ion_names_clear (&names);
  ddb_value_free (map);
  return NULL;
}

/* A list whose '[' r->p is at; its elements at `level`. */
static DdbValue *
read_list (DdbIonReader *r, GString **scratch, guint level)
{
  DdbValue *list = ddb_value_new_l ();

  r->p++;
  for (;;)
    {
      DdbValue *v;

      skip_blank (r);
      if (peek_at (r, 0) == ']')
        {
          r->p++;
          return list;
        }
      v = read_value (r, scratch, level);
      if (v == NULL)
        break;
      ddb_value_list_append (list, v);
      if (!after_element (r, ']'))
        break;
    }
  ddb_value_free (list);
  return NULL;
}

/* The list of a $dynamodb_ set, r->p at its '['. */
static DdbValue *
read_set (DdbIonReader *r, GString **scratch, DdbType type)
{
  DdbValue *set = ddb_value_new_set (type);

  r->p++;
  for (;;)
    {
      DdbValue *e = NULL;
      int c;

      skip_blank (r);
      c = peek_at (r, 0);
      if (c == ']')
        {
          r->p++;
          if (ddb_value_validate_set (set, NULL))
            return set;
          break;
        }
      if (type == DDB_TYPE_SS && c == '"')
        e = read_string (r, scratch);
      else if (type == DDB_TYPE_NS && (c == '-' || g_ascii_isdigit (c)))
        e = read_number (r);
      else if (type == DDB_TYPE_BS && c == '{' && peek_at (r, 1) == '{')
        e = read_blob (r);
      if (e == NULL)
        break;
      g_ptr_array_add (set->elems, e);
      if (!after_element (r, ']'))
        break;
    }
  ddb_value_free (set);
  return NULL;
}

/* An identifier in value position: null, true, false, or a set's annotation. */
static DdbValue *
read_word (DdbIonReader *r, GString **scratch)
{
  static const char *const set_names[] = { "$dynamodb_SS", "$dynamodb_NS", "$dynamodb_BS" };
  static const DdbType set_types[] = { DDB_TYPE_SS, DDB_TYPE_NS, DDB_TYPE_BS };
  const guchar *s = r->p;
  gsize len;

  while (is_ident_char (peek_at (r, 0)))
    r->p++;
  len = (gsize) (r->p - s);
  if (len == 4 && memcmp (s, "null", 4) == 0)
    return ddb_value_new_null ();
  if (len == 4 && memcmp (s, "true", 4) == 0)
    return ddb_value_new_bool (TRUE);
  if (len == 5 && memcmp (s, "false", 5) == 0)
    return ddb_value_new_bool (FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (set_names); i++)
    if (len == strlen (set_names[i]) && memcmp (s, set_names[i], len) == 0)
      {
        skip_blank (r);
        if (peek_at (r, 0) != ':' || peek_at (r, 1) != ':')
          return NULL;
        r->p += 2;
        skip_blank (r);
        return peek_at (r, 0) == '[' ? read_set (r, scratch, set_types[i]) : NULL;
      }
  return NULL;
}

/* A value at nesting `level` (1 for an item's attribute). */
static DdbValue *
read_value (DdbIonReader *r, GString **scratch, guint level)
{
  int c = peek_at (r, 0);

  if (level > DDB_MAX_NESTING)
    return NULL;
  if (c == '"')
    return read_string (r, scratch);
  if (c == '{')
    return peek_at (r, 1) == '{' ? read_blob (r) : read_map (r, scratch, level + 1);
  if (c == '[')
    return read_list (r, scratch, level + 1);
  if (c == '-' || g_ascii_isdigit (c))
    return read_number (r);
  if (is_ident_start (c))
    return read_word (r, scratch);
  return NULL;
}

gboolean
ddb_ion_direct_export_record (const char *line, gsize len, guint line_no, DdbIonRecord *out)
{
  DdbIonReader r = { 0 };
  GString *scratch = NULL;
  gboolean ok = FALSE;

  memset (out, 0, sizeof *out);
  /* A cursor for the shared scanners; their errors are only the signal to give up. */
  r.start = r.p = r.line_pos = (const guchar *) line;
  r.end = r.start + len;
  r.first_line = r.line_at = 1;

  skip_blank (&r);
  if (len - (gsize) (r.p - r.start) >= 8 && memcmp (r.p, "$ion_1_0", 8) == 0)
    {
      r.p += 8;
      if (is_ident_char (peek_at (&r, 0)))
        goto out;
      skip_blank (&r);
    }
  if (peek_at (&r, 0) != '{' || peek_at (&r, 1) == '{')
    goto out;
  r.p++;
  for (;;)
    {
      const char *name;
      gsize name_len;
      char *owned;
      DdbValue **slot;

      skip_blank (&r);
      if (peek_at (&r, 0) == '}')
        {
          r.p++;
          break;
        }
      if (!read_field_name (&r, &scratch, &name, &name_len, &owned))
        goto out;
      slot = ion_record_slot (out, name, name_len);
      g_free (owned);
      /* Each part is an item: an unannotated struct. */
      if (slot == NULL || *slot != NULL || peek_at (&r, 0) != '{' || peek_at (&r, 1) == '{')
        goto out;
      *slot = read_map (&r, &scratch, 1);
      if (*slot == NULL || !after_element (&r, '}'))
        goto out;
    }
  skip_blank (&r);
  ok = r.p == r.end && ion_record_shape_ok (out);
  out->line = line_no;
out:
  if (!ok)
    ddb_ion_record_clear (out);
  g_clear_error (&r.error);
  if (scratch != NULL)
    g_string_free (scratch, TRUE);
  return ok;
}
