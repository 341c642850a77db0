/* eb-path.c: document paths as people type them: a.b[2].c, with names that need it written as
 * JSON strings (a."x.y"[0]), the notation of ddbjson.h's attribute paths. */
#include "exprbuild/exprbuild.h"

#include <string.h>

#include "core/error.h"
#include "core/jsontext.h"

typedef struct {
  const char *text; /* the whole text, for messages */
  const char *p;
  const char *end;
  GArray *elems; /* DdbPathElem */
  GString *scratch;
  GError **error;
} PathReader;

G_GNUC_PRINTF (3, 4)
static gboolean
path_error (PathReader *r, const char *at, const char *format, ...)
{
  g_autofree char *what = NULL;
  va_list ap;

  va_start (ap, format);
  what = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (r->error, DDB_ERROR, DDB_ERROR_VALIDATION, "%s at character %ld of “%s”", what,
               g_utf8_pointer_to_offset (r->text, at) + 1, r->text);
  return FALSE;
}

static gboolean
is_delimiter (char c)
{
  return c == '.' || c == '[';
}

static gboolean
add_name (PathReader *r, const char *start, const char *name, gsize len)
{
  DdbPathElem e = { 0 };

  if (len == 0)
    return path_error (r, start, "An attribute name cannot be empty");
  if (memchr (name, '\0', len) != NULL)
    return path_error (r, start, "An attribute name cannot hold U+0000");
  e.name = g_strndup (name, len);
  g_array_append_val (r->elems, e);
  return TRUE;
}

static gboolean
read_quoted (PathReader *r)
{
  const char *start = r->p;
  DdbJsonTextString s;
  DdbJsonTextStringStatus status;

  status = ddb_jsontext_decode_string ((const guchar *) r->p + 1, (const guchar *) r->end,
                                       r->scratch, &s);
  switch (status)
    {
    case DDB_JSONTEXT_STRING_OK:
      r->p = (const char *) s.at;
      return add_name (r, start, s.str, s.len);
    case DDB_JSONTEXT_STRING_UNTERMINATED:
      return path_error (r, start, "The quoted name has no closing quote");
    case DDB_JSONTEXT_STRING_BAD_ESCAPE:
    case DDB_JSONTEXT_STRING_BAD_HEX:
      return path_error (r, (const char *) s.at,
                         "The quoted name has an escape JSON does not know (use \\\" \\\\ "
                         "\\n \\t \\uXXXX)");
    default:
      return path_error (r, (const char *) s.at,
                         "The quoted name is not a valid JSON string (a control character "
                         "or a lone UTF-16 surrogate)");
    }
}

static gboolean
read_bare (PathReader *r)
{
  const char *start = r->p;

  while (r->p < r->end && !is_delimiter (*r->p))
    {
      guchar c = (guchar) *r->p;

      if (c == ']' || c == '"' || c == '\\' || c < 0x20 || c == 0x7f)
        return path_error (r, r->p,
                           c == ']' ? "“]” closes no list index"
                                    : "A name holding “\"”, “\\” or a control character must be "
                                      "written as a JSON string (\"...\")");
      r->p++;
    }
  if (r->p == start)
    return path_error (r, start, "An attribute name is missing");
  if (*start == ' ' || r->p[-1] == ' ')
    return path_error (r, *start == ' ' ? start : r->p - 1,
                       "A name that starts or ends with a space must be written as a JSON "
                       "string (\"...\")");
  return add_name (r, start, start, (gsize) (r->p - start));
}

static gboolean
read_name (PathReader *r)
{
  if (r->p < r->end && *r->p == '"')
    return read_quoted (r);
  return read_bare (r);
}

static gboolean
read_index (PathReader *r)
{
  const char *open = r->p++;
  const char *digits = r->p;
  guint64 v = 0;
  DdbPathElem e = { 0 };

  while (r->p < r->end && g_ascii_isdigit (*r->p))
    {
      v = v * 10 + (guint64) (*r->p - '0');
      if (v > G_MAXINT32)
        return path_error (r, digits, "The list index is larger than DynamoDB allows (%d)",
                           G_MAXINT32);
      r->p++;
    }
  if (r->p == digits)
    return path_error (r, open, "A list index is a number between [ and ]");
  if (*digits == '0' && r->p - digits > 1)
    return path_error (r, digits, "A list index is written without leading zeros");
  if (r->p >= r->end || *r->p != ']')
    return path_error (r, r->p, "The list index is not closed with ]");
  r->p++;
  e.index = (guint32) v;
  g_array_append_val (r->elems, e);
  return TRUE;
}

static void
clear_elem (gpointer data)
{
  g_free (((DdbPathElem *) data)->name);
}

gboolean
ddb_eb_path_parse (const char *text, DdbPath *out, GError **error)
{
  PathReader r = { text, text, text + strlen (text), NULL, NULL, error };
  gboolean ok;

  memset (out, 0, sizeof *out);
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, "The path is not valid UTF-8");
      return FALSE;
    }
  /* Spaces around the whole path are slips of typing; inside, a name may hold spaces. */
  while (r.p < r.end && g_ascii_isspace (*r.p))
    r.p++;
  while (r.end > r.p && g_ascii_isspace (r.end[-1]))
    r.end--;
  if (r.p == r.end)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, "The path is empty");
      return FALSE;
    }
  if (*r.p == '[')
    return path_error (&r, r.p, "A path starts with an attribute name, not a list index");

  r.elems = g_array_new (FALSE, TRUE, sizeof (DdbPathElem));
  g_array_set_clear_func (r.elems, clear_elem);
  r.scratch = g_string_new (NULL);
  ok = read_name (&r);
  while (ok && r.p < r.end)
    {
      if (*r.p == '[')
        ok = read_index (&r);
      else if (*r.p == '.')
        {
          r.p++;
          ok = read_name (&r);
        }
      else
        ok = path_error (&r, r.p, "“.” or “[” must follow a quoted name or a list index");
    }
  g_string_free (r.scratch, TRUE);
  if (!ok)
    {
      g_array_unref (r.elems);
      return FALSE;
    }
  out->n = r.elems->len;
  out->elems = (DdbPathElem *) g_array_free (r.elems, FALSE);
  return TRUE;
}

void
ddb_eb_path_init_name (DdbPath *out, const char *name)
{
  out->n = 1;
  out->elems = g_new0 (DdbPathElem, 1);
  out->elems[0].name = g_strdup (name);
}

gboolean
ddb_eb_path_parse_known (const char *text, const char *const *known, DdbPath *out, GError **error)
{
  for (guint i = 0; known != NULL && known[i] != NULL; i++)
    if (strcmp (text, known[i]) == 0)
      {
        ddb_eb_path_init_name (out, text);
        return TRUE;
      }
  return ddb_eb_path_parse (text, out, error);
}

/* Core's rule, and a space at either end, which reading what people type would trim. */
static gboolean
name_needs_quotes (const char *name)
{
  gsize len = strlen (name);

  return len == 0 || name[0] == ' ' || name[len - 1] == ' '
         || ddb_jsontext_name_needs_quotes (name, len);
}

char *
ddb_eb_path_to_text (const DdbPath *path)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < path->n; i++)
    {
      const char *name = path->elems[i].name;

      if (name == NULL)
        {
          g_string_append_printf (out, "[%u]", path->elems[i].index);
          continue;
        }
      if (i > 0)
        g_string_append_c (out, '.');
      if (name_needs_quotes (name))
        ddb_jsontext_append_string (out, name, strlen (name), DDB_JSONTEXT_ESCAPE_DEFAULT);
      else
        g_string_append (out, name);
    }
  return g_string_free (out, FALSE);
}

gboolean
ddb_eb_path_equal (const DdbPath *a, const DdbPath *b)
{
  if (a->n != b->n)
    return FALSE;
  for (guint i = 0; i < a->n; i++)
    {
      const DdbPathElem *x = &a->elems[i], *y = &b->elems[i];

      if ((x->name == NULL) != (y->name == NULL))
        return FALSE;
      if (x->name != NULL ? strcmp (x->name, y->name) != 0 : x->index != y->index)
        return FALSE;
    }
  return TRUE;
}
