/* cg-lit.c: the layout of the literals and builder chains of a program: a node is written on
 * one line when it fits in the width, otherwise one entry or call per line, indented. */
#define G_LOG_DOMAIN "dynoscope-codegen"

#include <string.h>

#include "codegen/cg-lit.h"

typedef enum {
  LIT_RAW,
  LIT_CONTAINER,
  LIT_CHAIN,
} LitKind;

typedef struct {
  char *prefix; /* "\"k\": ", ".tableName(" */
  CgLit *value;
  char *suffix; /* ")" or NULL */
} LitEntry;

struct _CgLit {
  LitKind kind;
  char *text;  /* RAW: the text; CONTAINER: the opening; CHAIN: the head */
  char *close; /* CONTAINER: the closing; CHAIN: the tail (may be NULL) */
  GArray *entries; /* LitEntry */
  gboolean trailing_comma; /* CONTAINER written on several lines */
};

static void
entry_clear (gpointer data)
{
  LitEntry *e = data;

  g_free (e->prefix);
  cg_lit_free (e->value);
  g_free (e->suffix);
}

static CgLit *
lit_new (LitKind kind, char *text, char *close)
{
  CgLit *lit = g_new0 (CgLit, 1);

  lit->kind = kind;
  lit->text = text;
  lit->close = close;
  if (kind != LIT_RAW)
    {
      lit->entries = g_array_new (FALSE, TRUE, sizeof (LitEntry));
      g_array_set_clear_func (lit->entries, entry_clear);
    }
  return lit;
}

CgLit *
cg_lit_raw (char *text)
{
  return lit_new (LIT_RAW, text, NULL);
}

CgLit *
cg_lit_rawf (const char *format, ...)
{
  va_list args;
  char *text;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  return cg_lit_raw (text);
}

CgLit *
cg_lit_container (const char *open, const char *close, gboolean trailing_comma)
{
  CgLit *lit = lit_new (LIT_CONTAINER, g_strdup (open), g_strdup (close));

  lit->trailing_comma = trailing_comma;
  return lit;
}

CgLit *
cg_lit_chain (const char *head, const char *tail)
{
  return lit_new (LIT_CHAIN, g_strdup (head), g_strdup (tail));
}

void
cg_lit_add (CgLit *lit, char *prefix, CgLit *value, const char *suffix)
{
  LitEntry e = { prefix, value, g_strdup (suffix) };

  g_return_if_fail (lit->kind != LIT_RAW);
  g_array_append_val (lit->entries, e);
}

gboolean
cg_lit_is_empty (const CgLit *lit)
{
  return lit->kind != LIT_RAW && lit->entries->len == 0;
}

void
cg_lit_free (CgLit *lit)
{
  if (lit == NULL)
    return;
  g_free (lit->text);
  g_free (lit->close);
  if (lit->entries != NULL)
    g_array_unref (lit->entries);
  g_free (lit);
}

/* The one-line text, or FALSE when the node holds a line break (a raw text written on several
 * lines) or is longer than LIMIT. */
static gboolean
flat (const CgLit *lit, GString *out, gsize limit)
{
  if (lit->kind == LIT_RAW)
    {
      if (strchr (lit->text, '\n') != NULL)
        return FALSE;
      g_string_append (out, lit->text);
      return out->len <= limit;
    }
  g_string_append (out, lit->text);
  for (guint i = 0; i < lit->entries->len; i++)
    {
      const LitEntry *e = &g_array_index (lit->entries, LitEntry, i);

      if (lit->kind == LIT_CONTAINER && i > 0)
        g_string_append (out, ", ");
      if (e->prefix != NULL)
        g_string_append (out, e->prefix);
      if (e->value != NULL && !flat (e->value, out, limit))
        return FALSE;
      if (e->suffix != NULL)
        g_string_append (out, e->suffix);
      if (out->len > limit)
        return FALSE;
    }
  if (lit->close != NULL)
    g_string_append (out, lit->close);
  return out->len <= limit;
}

static gsize
column (GString *out)
{
  gsize i = out->len;

  while (i > 0 && out->str[i - 1] != '\n')
    i--;
  return out->len - i;
}

static void
newline (GString *out, const char *unit, int level)
{
  g_string_append_c (out, '\n');
  for (int i = 0; i < level; i++)
    g_string_append (out, unit);
}

static void
write_lit (GString *out, const CgLit *lit, const char *unit, int level, gsize width)
{
  gsize col = column (out);
  g_autoptr (GString) one = g_string_new (NULL);

  if (col < width && flat (lit, one, width - col))
    {
      g_string_append_len (out, one->str, one->len);
      return;
    }
  if (lit->kind == LIT_RAW)
    {
      g_string_append (out, lit->text);
      return;
    }
  g_string_append (out, lit->text);
  for (guint i = 0; i < lit->entries->len; i++)
    {
      const LitEntry *e = &g_array_index (lit->entries, LitEntry, i);

      newline (out, unit, level + 1);
      if (e->prefix != NULL)
        g_string_append (out, e->prefix);
      if (e->value != NULL)
        write_lit (out, e->value, unit, level + 1, width);
      if (e->suffix != NULL)
        g_string_append (out, e->suffix);
      if (lit->kind == LIT_CONTAINER && (i + 1 < lit->entries->len || lit->trailing_comma))
        g_string_append_c (out, ',');
    }
  if (lit->close != NULL)
    {
      if (lit->kind == LIT_CONTAINER)
        newline (out, unit, level);
      else if (lit->close[0] != '\0')
        newline (out, unit, level + 1);
      g_string_append (out, lit->close);
    }
}

void
cg_lit_write (GString *out, const CgLit *lit, const char *unit, int level, gsize width)
{
  write_lit (out, lit, unit, level, width);
}
