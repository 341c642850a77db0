/* ion-read.c: the Amazon Ion 1.0 text reader: a recursive-descent parser over one buffer that
 * builds the generic DdbIonValue tree, following ion-docs' grammar (IonText.g4), with every
 * error a "line N: ..." GError. See ion.h for what is accepted. This file holds the values
 * (freeing, accessors, construction), errors and positions, the containers (lists,
 * s-expressions, structs), keywords and annotations, the reader's entry points and local symbol
 * tables; the scalar tokens (numbers, timestamps, quoted text, symbols, blobs and clobs) and
 * whitespace are scanned in ion-lex.c. */
#include "core/ion-private.h"

#include <math.h>
#include <string.h>

#include "core/jsontext.h"

G_DEFINE_QUARK (ddb - ion - error - quark, ddb_ion_error)

static const char *const type_keywords[] = {
  [DDB_ION_TYPE_NULL] = "null",       [DDB_ION_TYPE_BOOL] = "bool",
  [DDB_ION_TYPE_INT] = "int",         [DDB_ION_TYPE_FLOAT] = "float",
  [DDB_ION_TYPE_DECIMAL] = "decimal", [DDB_ION_TYPE_TIMESTAMP] = "timestamp",
  [DDB_ION_TYPE_SYMBOL] = "symbol",   [DDB_ION_TYPE_STRING] = "string",
  [DDB_ION_TYPE_CLOB] = "clob",       [DDB_ION_TYPE_BLOB] = "blob",
  [DDB_ION_TYPE_LIST] = "list",       [DDB_ION_TYPE_SEXP] = "sexp",
  [DDB_ION_TYPE_STRUCT] = "struct",
};

typedef enum { CTX_TOP, CTX_LIST, CTX_SEXP, CTX_STRUCT } Ctx;

/* Values */

void
ddb_ion_value_free (DdbIonValue *v)
{
  if (v == NULL)
    return;
  g_strfreev (v->annotations);
  if (!v->is_null)
    switch (v->type)
      {
      case DDB_ION_TYPE_LIST:
      case DDB_ION_TYPE_SEXP:
        g_ptr_array_unref (v->elems);
        break;
      case DDB_ION_TYPE_STRUCT:
        for (guint i = 0; i < v->fields->len; i++)
          {
            DdbIonField *f = &g_array_index (v->fields, DdbIonField, i);
            g_free (f->name);
            ddb_ion_value_free (f->value);
          }
        g_array_unref (v->fields);
        break;
      case DDB_ION_TYPE_BOOL:
      case DDB_ION_TYPE_NULL:
        break;
      default:
        g_free (v->text.data);
        break;
      }
  g_free (v);
}

gboolean
ddb_ion_value_has_annotation (const DdbIonValue *v, const char *name)
{
  for (guint i = 0; v->annotations != NULL && v->annotations[i] != NULL; i++)
    if (strcmp (v->annotations[i], name) == 0)
      return TRUE;
  return FALSE;
}

DdbIonValue *
ddb_ion_value_get_field (const DdbIonValue *s, const char *name)
{
  gsize len = strlen (name);

  if (s->type != DDB_ION_TYPE_STRUCT || s->is_null)
    return NULL;
  for (guint i = 0; i < s->fields->len; i++)
    {
      DdbIonField *f = &g_array_index (s->fields, DdbIonField, i);
      if (f->name != NULL && f->name_len == len && memcmp (f->name, name, len) == 0)
        return f->value;
    }
  return NULL;
}

/* Errors and positions */

static guint
line_of (DdbIonReader *r, const guchar *at)
{
  const guchar *q;

  if (at < r->line_pos)
    {
      r->line_pos = r->start;
      r->line_at = r->first_line;
    }
  for (q = r->line_pos; q < at; q++)
    if (*q == '\n' || (*q == '\r' && (q + 1 >= r->end || q[1] != '\n')))
      r->line_at++;
  r->line_pos = at;
  return r->line_at;
}

gpointer
ion_fail (DdbIonReader *r, const guchar *at, DdbIonErrorCode code, const char *format, ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  if (r->error != NULL)
    return NULL;
  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  r->error = g_error_new (DDB_ION_ERROR, code, "line %u: %s", line_of (r, at), msg);
  return NULL;
}

char *
ion_describe_at (DdbIonReader *r, const guchar *at)
{
  gunichar c;
  gsize n;

  if (at >= r->end)
    return g_strdup ("the end of the input");
  if (*at >= 0x21 && *at < 0x7f)
    return g_strdup_printf ("'%c'", *at);
  n = ddb_utf8_decode (at, (gsize) (r->end - at), &c);
  if (n > 1)
    return g_strdup_printf ("U+%04X", c);
  return g_strdup_printf ("byte 0x%02X", *at);
}

gpointer
ion_fail_unexpected (DdbIonReader *r, const guchar *at, const char *where)
{
  g_autofree char *what = ion_describe_at (r, at);
  return ion_fail (r, at, DDB_ION_ERROR_SYNTAX, "unexpected %s %s", what, where);
}

/* Operator characters (ion-private.h has the other classes), and new values */

static inline gboolean
is_operator_char (int c)
{
  return c >= 0 && c < 0x80 && c != 0 && strchr ("!#%&*+-./;<=>?@^`|~", c) != NULL;
}

DdbIonValue *
ion_new_value (DdbIonReader *r, DdbIonType type, const guchar *at)
{
  DdbIonValue *v = g_new0 (DdbIonValue, 1);
  v->type = type;
  v->line = line_of (r, at);
  return v;
}

DdbIonValue *
ion_new_text_value (DdbIonReader *r, DdbIonType type, const guchar *at, GString *text)
{
  DdbIonValue *v = ion_new_value (r, type, at);
  v->text.len = text->len;
  v->text.data = g_string_free (text, FALSE);
  return v;
}

/* Containers */

static DdbIonValue *parse_value (DdbIonReader *r, guint depth, Ctx ctx);

static DdbIonValue *
check_depth (DdbIonReader *r, guint depth)
{
  if (depth >= DDB_ION_MAX_DEPTH)
    return ion_fail (r, r->p, DDB_ION_ERROR_UNSUPPORTED, "values nested deeper than %d levels",
                     DDB_ION_MAX_DEPTH);
  return (DdbIonValue *) r; /* anything but NULL */
}

static DdbIonValue *
parse_sequence (DdbIonReader *r, guint depth, gboolean sexp)
{
  const guchar *open = r->p;
  DdbIonValue *v;
  int close = sexp ? ')' : ']';

  if (check_depth (r, depth) == NULL)
    return NULL;
  v = ion_new_value (r, sexp ? DDB_ION_TYPE_SEXP : DDB_ION_TYPE_LIST, open);
  v->elems = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_ion_value_free);
  r->p++;
  for (;;)
    {
      DdbIonValue *e;

      if (!ion_skip_ws (r))
        goto error;
      if (peek_at (r, 0) == close)
        {
          r->p++;
          return v;
        }
      if (peek_at (r, 0) < 0)
        {
          ion_fail (r, open, DDB_ION_ERROR_SYNTAX, "unterminated %s",
                    sexp ? "s-expression" : "list");
          goto error;
        }
      e = parse_value (r, depth + 1, sexp ? CTX_SEXP : CTX_LIST);
      if (e == NULL)
        goto error;
      g_ptr_array_add (v->elems, e);
      if (sexp)
        continue;
      if (!ion_skip_ws (r))
        goto error;
      if (peek_at (r, 0) == ',')
        r->p++;
      else if (peek_at (r, 0) != ']')
        {
          if (peek_at (r, 0) < 0)
            ion_fail (r, open, DDB_ION_ERROR_SYNTAX, "unterminated list");
          else
            ion_fail_unexpected (r, r->p, "in a list (',' or ']' expected)");
          goto error;
        }
    }
error:
  ddb_ion_value_free (v);
  return NULL;
}

static DdbIonValue *
parse_struct (DdbIonReader *r, guint depth)
{
  const guchar *open = r->p;
  DdbIonValue *v;

  if (check_depth (r, depth) == NULL)
    return NULL;
  v = ion_new_value (r, DDB_ION_TYPE_STRUCT, open);
  v->fields = g_array_new (FALSE, TRUE, sizeof (DdbIonField));
  r->p++;
  for (;;)
    {
      DdbIonField f = { NULL, 0, NULL };
      int c;

      if (!ion_skip_ws (r))
        goto error;
      c = peek_at (r, 0);
      if (c == '}')
        {
          r->p++;
          return v;
        }
      if (c == '"')
        {
          GString *name = g_string_new (NULL);
          r->p++;
          if (!ion_read_quoted (r, QUOTE_SHORT, FALSE, name))
            {
              g_string_free (name, TRUE);
              goto error;
            }
          f.name_len = name->len;
          f.name = g_string_free (name, FALSE);
        }
      else if (at_long_quote (r))
        {
          GString *name = g_string_new (NULL);
          if (!ion_read_long_strings (r, name))
            {
              g_string_free (name, TRUE);
              goto error;
            }
          f.name_len = name->len;
          f.name = g_string_free (name, FALSE);
        }
      else if (is_ident_start (c) || c == '\'')
        {
          SymKind kind;
          const guchar *at = r->p;
          if (!ion_read_symbol (r, &kind, &f.name, &f.name_len))
            goto error;
          if (kind == SYM_KEYWORD)
            {
              g_free (f.name);
              ion_fail (r, at, DDB_ION_ERROR_SYNTAX, "a keyword cannot be a field name unquoted");
              goto error;
            }
        }
      else
        {
          if (c < 0)
            ion_fail (r, open, DDB_ION_ERROR_SYNTAX, "unterminated struct");
          else
            ion_fail_unexpected (r, r->p, "in a struct (a field name expected)");
          goto error;
        }
      if (!ion_skip_ws (r) || peek_at (r, 0) != ':' || peek_at (r, 1) == ':')
        {
          g_free (f.name);
          if (r->error == NULL)
            ion_fail_unexpected (r, r->p, "after a field name (':' expected)");
          goto error;
        }
      r->p++;
      if (!ion_skip_ws (r))
        {
          g_free (f.name);
          goto error;
        }
      f.value = parse_value (r, depth + 1, CTX_STRUCT);
      if (f.value == NULL)
        {
          g_free (f.name);
          goto error;
        }
      g_array_append_val (v->fields, f);
      if (!ion_skip_ws (r))
        goto error;
      if (peek_at (r, 0) == ',')
        r->p++;
      else if (peek_at (r, 0) != '}')
        {
          if (peek_at (r, 0) < 0)
            ion_fail (r, open, DDB_ION_ERROR_SYNTAX, "unterminated struct");
          else
            ion_fail_unexpected (r, r->p, "in a struct (',' or '}' expected)");
          goto error;
        }
    }
error:
  ddb_ion_value_free (v);
  return NULL;
}

/* Values: keywords, annotations, and the choice by the first character */

static DdbIonValue *
keyword_value (DdbIonReader *r, const char *word, const guchar *at)
{
  DdbIonValue *v;

  if (strcmp (word, "true") == 0 || strcmp (word, "false") == 0)
    {
      v = ion_new_value (r, DDB_ION_TYPE_BOOL, at);
      v->boolean = word[0] == 't';
      return v;
    }
  if (strcmp (word, "nan") == 0)
    {
      v = ion_new_text_value (r, DDB_ION_TYPE_FLOAT, at, g_string_new ("nan"));
      v->f = NAN;
      return v;
    }
  /* null, or null.<type> */
  if (peek_at (r, 0) == '.' && is_ident_start (peek_at (r, 1)))
    {
      const guchar *s = ++r->p;
      while (is_ident_char (peek_at (r, 0)))
        r->p++;
      for (guint t = 0; t < G_N_ELEMENTS (type_keywords); t++)
        if ((gsize) (r->p - s) == strlen (type_keywords[t])
            && memcmp (s, type_keywords[t], (gsize) (r->p - s)) == 0)
          {
            v = ion_new_value (r, (DdbIonType) t, at);
            v->is_null = TRUE;
            return v;
          }
      return ion_fail (r, s, DDB_ION_ERROR_SYNTAX, "invalid typed null 'null.%.*s'",
                       (int) MIN (r->p - s, 40), s);
    }
  v = ion_new_value (r, DDB_ION_TYPE_NULL, at);
  v->is_null = TRUE;
  return v;
}

/* In an s-expression "+inf" is a float only when a stop character follows it ("+info" is the
 * operator "+" and the symbol "info"). */
static gboolean
is_inf_stop (DdbIonReader *r)
{
  gboolean stop;

  r->p += 4;
  stop = ion_at_numeric_stop (r);
  r->p -= 4;
  return stop;
}

static DdbIonValue *
parse_value (DdbIonReader *r, guint depth, Ctx ctx)
{
  g_autoptr (GPtrArray) annotations = NULL;
  DdbIonValue *v = NULL;
  const guchar *at;
  int c;

  r->bare_symbol = FALSE;
  for (;;)
    {
      SymKind kind;
      char *text = NULL;
      gsize len = 0;
      const guchar *after;

      at = r->p;
      c = peek_at (r, 0);
      if (!(is_ident_start (c) || (c == '\'' && !at_long_quote (r))))
        break;
      if (!ion_read_symbol (r, &kind, &text, &len))
        return NULL;
      after = r->p;
      if (!ion_skip_ws (r))
        {
          g_free (text);
          return NULL;
        }
      if (peek_at (r, 0) == ':' && peek_at (r, 1) == ':')
        {
          if (kind == SYM_KEYWORD)
            {
              g_free (text);
              return ion_fail (r, at, DDB_ION_ERROR_SYNTAX, "a keyword cannot be an annotation");
            }
          r->p += 2;
          if (!ion_skip_ws (r))
            {
              g_free (text);
              return NULL;
            }
          if (annotations == NULL)
            annotations = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (annotations, text != NULL ? text : g_strdup (""));
          continue;
        }
      r->p = after;
      if (kind == SYM_KEYWORD)
        {
          v = keyword_value (r, text, at);
          g_free (text);
        }
      else
        {
          v = ion_new_value (r, DDB_ION_TYPE_SYMBOL, at);
          v->text.data = text;
          v->text.len = len;
          r->bare_symbol = kind == SYM_IDENT && annotations == NULL;
        }
      goto done;
    }

  if (c == '"')
    {
      GString *s = g_string_new (NULL);
      r->p++;
      if (!ion_read_quoted (r, QUOTE_SHORT, FALSE, s))
        {
          g_string_free (s, TRUE);
          return NULL;
        }
      v = ion_new_text_value (r, DDB_ION_TYPE_STRING, at, s);
    }
  else if (c == '\'')
    {
      GString *s = g_string_new (NULL);
      if (!ion_read_long_strings (r, s))
        {
          g_string_free (s, TRUE);
          return NULL;
        }
      v = ion_new_text_value (r, DDB_ION_TYPE_STRING, at, s);
    }
  else if (c == '{')
    v = peek_at (r, 1) == '{' ? ion_parse_lob (r) : parse_struct (r, depth);
  else if (c == '[')
    v = parse_sequence (r, depth, FALSE);
  else if (c == '(')
    v = parse_sequence (r, depth, TRUE);
  else if ((c >= '0' && c <= '9') || (c == '-' && peek_at (r, 1) >= '0' && peek_at (r, 1) <= '9'))
    v = ion_parse_number (r);
  else if ((c == '+' || c == '-') && peek_at (r, 1) == 'i' && peek_at (r, 2) == 'n'
           && peek_at (r, 3) == 'f' && !is_ident_char (peek_at (r, 4))
           && (ctx != CTX_SEXP || is_inf_stop (r)))
    {
      r->p += 4;
      if (!ion_at_numeric_stop (r))
        return ion_fail_unexpected (r, r->p, "after a number");
      v = ion_new_text_value (r, DDB_ION_TYPE_FLOAT, at, g_string_new (c == '+' ? "+inf" : "-inf"));
      v->f = c == '+' ? INFINITY : -INFINITY;
    }
  else if (ctx == CTX_SEXP && is_operator_char (c))
    {
      while (is_operator_char (peek_at (r, 0))
             && !(peek_at (r, 0) == '/' && (peek_at (r, 1) == '/' || peek_at (r, 1) == '*')))
        r->p++;
      v = ion_new_text_value (r, DDB_ION_TYPE_SYMBOL, at,
                              g_string_new_len ((const char *) at, (gssize) (r->p - at)));
    }
  else if (c < 0)
    return ion_fail (r, at, DDB_ION_ERROR_SYNTAX,
                     annotations != NULL ? "an annotation without a value" : "a value expected");
  else
    return ion_fail_unexpected (r, at, "(a value expected)");

done:
  if (v != NULL && annotations != NULL)
    {
      g_ptr_array_add (annotations, NULL);
      v->annotations = (char **) g_ptr_array_free (g_steal_pointer (&annotations), FALSE);
    }
  return v;
}

/* The reader */

DdbIonReader *
ddb_ion_reader_new (const char *text, gsize len)
{
  DdbIonReader *r = g_new0 (DdbIonReader, 1);

  r->start = r->p = r->line_pos = (const guchar *) text;
  r->end = r->start + len;
  r->first_line = r->line_at = 1;
  r->symbols = g_ptr_array_new_with_free_func (g_free);
  return r;
}

void
ddb_ion_reader_set_first_line (DdbIonReader *r, guint line)
{
  r->first_line = line;
  r->line_pos = r->start;
  r->line_at = line;
}

gsize
ddb_ion_reader_offset (const DdbIonReader *r)
{
  return (gsize) (r->p - r->start);
}

void
ddb_ion_reader_free (DdbIonReader *r)
{
  if (r == NULL)
    return;
  g_ptr_array_unref (r->symbols);
  g_clear_error (&r->error);
  g_free (r);
}

/* A local symbol table: FALSE (failed) for what is not supported. */
static gboolean
apply_symbol_table (DdbIonReader *r, const DdbIonValue *table)
{
  const DdbIonValue *imports, *symbols;

  if (table->is_null)
    return TRUE;
  imports = ddb_ion_value_get_field (table, "imports");
  symbols = ddb_ion_value_get_field (table, "symbols");
  if (imports != NULL && imports->type == DDB_ION_TYPE_LIST && !imports->is_null
      && imports->elems->len > 0)
    return ion_fail (r, r->p, DDB_ION_ERROR_UNSUPPORTED,
                     "symbol tables importing shared symbol tables are not supported"),
           FALSE;
  if (imports == NULL || imports->type != DDB_ION_TYPE_SYMBOL || imports->is_null
      || g_strcmp0 (imports->text.data, "$ion_symbol_table") != 0)
    g_ptr_array_set_size (r->symbols, 0);
  if (symbols != NULL && symbols->type == DDB_ION_TYPE_LIST && !symbols->is_null)
    for (guint i = 0; i < symbols->elems->len; i++)
      {
        const DdbIonValue *s = g_ptr_array_index (symbols->elems, i);
        g_ptr_array_add (r->symbols, s->type == DDB_ION_TYPE_STRING && !s->is_null
                                         ? g_strdup (s->text.data)
                                         : NULL);
      }
  return TRUE;
}

/* $ion_<digits>_<digits> */
static gboolean
is_version_marker (const char *s)
{
  gsize n;

  if (!g_str_has_prefix (s, "$ion_"))
    return FALSE;
  s += 5;
  n = strspn (s, "0123456789");
  if (n == 0 || s[n] != '_')
    return FALSE;
  s += n + 1;
  n = strspn (s, "0123456789");
  return n > 0 && s[n] == '\0';
}

gboolean
ddb_ion_reader_next_value (DdbIonReader *r, DdbIonValue **out, GError **error)
{
  *out = NULL;
  while (r->error == NULL)
    {
      DdbIonValue *v;
      const guchar *at;

      if (!ion_skip_ws (r))
        break;
      if (r->p >= r->end)
        return TRUE;
      at = r->p;
      v = parse_value (r, 0, CTX_TOP);
      if (v == NULL)
        break;
      if (v->type == DDB_ION_TYPE_SYMBOL && r->bare_symbol && v->text.data != NULL
          && is_version_marker (v->text.data))
        {
          gboolean ok = strcmp (v->text.data, "$ion_1_0") == 0;
          if (!ok)
            ion_fail (r, at, DDB_ION_ERROR_UNSUPPORTED, "Ion version %s is not supported",
                      v->text.data + 1);
          else
            g_ptr_array_set_size (r->symbols, 0);
          ddb_ion_value_free (v);
          continue;
        }
      if (v->annotations != NULL && strcmp (v->annotations[0], "$ion_symbol_table") == 0
          && v->type == DDB_ION_TYPE_STRUCT)
        {
          apply_symbol_table (r, v);
          ddb_ion_value_free (v);
          continue;
        }
      *out = v;
      return TRUE;
    }
  g_propagate_error (error, g_error_copy (r->error));
  return FALSE;
}
