/* partiql-parser.c: the PartiQL parser's token helpers and its literal values: numbers,
 * parameters, strings, bags of sets, structs and lists. */
#include <string.h>

#include "core/error.h"
#include "core/partiql-parser-private.h"

/* ---- Tokens ---- */

void
pqp_advance (Parser *p)
{
  pql_token_clear (&p->tok);
  pql_lex (p->text, p->len, &p->pos, &p->tok);
}

gboolean
pqp_failed (Parser *p)
{
  return p->error != NULL;
}

/* A syntax error: DynamoDB quotes the whole statement. Returns FALSE. */
gboolean
pqp_malformed (Parser *p)
{
  if (p->error == NULL)
    g_set_error (&p->error, DDB_ERROR, DDB_ERROR_VALIDATION, MALFORMED, p->text);
  return FALSE;
}

gboolean
pqp_fail (Parser *p, const char *format, ...)
{
  va_list ap;

  if (p->error != NULL)
    return FALSE;
  va_start (ap, format);
  p->error = g_error_new_valist (DDB_ERROR, DDB_ERROR_VALIDATION, format, ap);
  va_end (ap);
  return FALSE;
}

gboolean
pqp_is_word (const PqlToken *t, const char *word)
{
  return t->kind == T_WORD && t->len == strlen (word)
         && g_ascii_strncasecmp (t->start, word, t->len) == 0;
}

gboolean
pqp_accept (Parser *p, PqlTokenKind kind)
{
  if (p->tok.kind != kind)
    return FALSE;
  pqp_advance (p);
  return TRUE;
}

gboolean
pqp_accept_word (Parser *p, const char *word)
{
  if (!pqp_is_word (&p->tok, word))
    return FALSE;
  pqp_advance (p);
  return TRUE;
}

gboolean
pqp_expect (Parser *p, PqlTokenKind kind)
{
  return pqp_accept (p, kind) || pqp_malformed (p);
}

gboolean
pqp_expect_word (Parser *p, const char *word)
{
  return pqp_accept_word (p, word) || pqp_malformed (p);
}

/* The kind of the token after the current one. */
PqlTokenKind
pqp_peek_next (Parser *p)
{
  gsize pos = p->pos;
  PqlToken t;
  PqlTokenKind kind;

  pql_lex (p->text, p->len, &pos, &t);
  kind = t.kind;
  pql_token_clear (&t);
  return kind;
}

/* A name: unquoted as written, or a quoted one undone. NULL (malformed) otherwise. */
char *
pqp_parse_name (Parser *p)
{
  char *name;

  if (p->tok.kind == T_WORD)
    name = g_strndup (p->tok.start, p->tok.len);
  else if (p->tok.kind == T_QNAME)
    name = g_strndup (p->tok.text->str, p->tok.text->len);
  else
    {
      pqp_malformed (p);
      return NULL;
    }
  pqp_advance (p);
  return name;
}

/* ---- Values ---- */

static DdbValue *
parse_number (Parser *p, gboolean negative)
{
  g_autofree char *text
      = g_strdup_printf ("%s%.*s", negative ? "-" : "", (int) p->tok.len, p->tok.start);
  DdbNumber n;
  GError *local = NULL;

  pqp_advance (p);
  if (!ddb_number_parse (&n, text, -1, &local))
    {
      if (strstr (local->message, "38 significant digits") != NULL)
        {
          /* PartiQL's own words for it. */
          g_free (local->message);
          local->message = g_strdup ("DynamoDB only supports precision up to 38 digits");
        }
      if (p->error == NULL)
        p->error = local;
      else
        g_error_free (local);
      return NULL;
    }
  return ddb_value_new_n (&n);
}

static DdbValue *
parse_parameter (Parser *p)
{
  pqp_advance (p);
  if (p->next_param >= p->n_params)
    {
      /* Counted again at the end, so the message is the same however many are missing. */
      p->next_param++;
      return ddb_value_new_null ();
    }
  return ddb_value_copy (p->params[p->next_param++]);
}

/* << a, b >>: a string set or a number set (DynamoDB has no other kind of bag). */
static DdbValue *
parse_bag (Parser *p)
{
  g_autoptr (GPtrArray) elems = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  DdbValue *set;
  DdbType type;

  pqp_advance (p);
  if (p->tok.kind == T_RBAG)
    {
      pqp_fail (p, "Empty bags are not supported");
      return NULL;
    }
  do
    {
      DdbValue *v = pqp_parse_literal (p);

      if (v == NULL)
        return NULL;
      g_ptr_array_add (elems, v);
    }
  while (pqp_accept (p, T_COMMA));
  if (!pqp_expect (p, T_RBAG))
    return NULL;
  type = ((DdbValue *) elems->pdata[0])->type;
  for (guint i = 0; i < elems->len; i++)
    if (((DdbValue *) elems->pdata[i])->type != type || (type != DDB_TYPE_S && type != DDB_TYPE_N))
      {
        pqp_fail (p, "Unsupported data type in Bag. DynamoDB only supports either numbers or "
                     "strings in bags");
        return NULL;
      }
  set = ddb_value_new_set (type == DDB_TYPE_S ? DDB_TYPE_SS : DDB_TYPE_NS);
  for (guint i = 0; i < elems->len; i++)
    if (!ddb_value_set_add (set, ddb_value_copy (elems->pdata[i])))
      {
        ddb_value_free (set);
        pqp_fail (p, "Input collection contains duplicates");
        return NULL;
      }
  return set;
}

/* ---- Tuples and lists ---- */

/* Where token `t` is, as DynamoDB tells it: line:column:length, in characters from 1. */
static char *
token_location (Parser *p, const PqlToken *t)
{
  const char *line = p->text;
  guint n_line = 1;

  for (const char *c = p->text; c < t->start; c++)
    if (*c == '\n')
      {
        n_line++;
        line = c + 1;
      }
  return g_strdup_printf ("%u:%ld:%ld", n_line, g_utf8_pointer_to_offset (line, t->start) + 1,
                          g_utf8_pointer_to_offset (t->start, t->start + t->len));
}

/* An error in a literal's contents, at token `t`: kept until the statement has parsed. */
static void
defer_error (Parser *p, const PqlToken *t, const char *what)
{
  g_autofree char *where = NULL;

  if (p->deferred != NULL)
    return;
  where = token_location (p, t);
  p->deferred = g_error_new (DDB_ERROR, DDB_ERROR_VALIDATION, "%s under %s at %s", what,
                             p->value_path != NULL ? p->value_path->str : "root", where);
}

/* Parses the literal at `member` of the one being parsed (".name" or ".index"). */
static DdbValue *
parse_member (Parser *p, const char *member, gsize member_len)
{
  gsize len;
  DdbValue *v;

  if (p->value_path == NULL)
    p->value_path = g_string_new ("root");
  len = p->value_path->len;
  g_string_append_c (p->value_path, '.');
  g_string_append_len (p->value_path, member, member_len);
  v = pqp_parse_literal (p);
  g_string_truncate (p->value_path, len);
  return v;
}

/* { 'name': value, ... }. A key is a string, each once; INSERT's item (`item`) names the key
 * in errors, another tuple its opening brace, and each of the item's values is a root. */
static DdbValue *
parse_struct (Parser *p, gboolean item)
{
  g_autoptr (DdbValue) map = ddb_value_new_m ();
  PqlToken brace = p->tok;

  brace.text = NULL;
  pqp_advance (p);
  if (pqp_accept (p, T_RBRACE))
    return g_steal_pointer (&map);
  do
    {
      g_autoptr (GString) name = NULL;
      DdbValue *v;

      if (p->tok.kind != T_STRING && p->tok.kind != T_QNAME)
        {
          pqp_malformed (p);
          return NULL;
        }
      if (p->tok.kind == T_QNAME)
        defer_error (p, &p->tok,
                     "Tuple keys must be of type String. Actual type: VariableReference");
      else if (ddb_value_map_get (map, p->tok.text->str) != NULL)
        {
          g_autofree char *what
              = g_strdup_printf ("Duplicate keys in tuple. Key: %s", p->tok.text->str);

          defer_error (p, item ? &p->tok : &brace, what);
        }
      name = g_steal_pointer (&p->tok.text);
      pqp_advance (p);
      if (!pqp_expect (p, T_COLON))
        return NULL;
      if (item)
        {
          if (p->value_path != NULL)
            g_string_assign (p->value_path, "root");
          v = pqp_parse_literal (p);
        }
      else
        v = parse_member (p, name->str, name->len);
      if (v == NULL)
        return NULL;
      ddb_value_map_remove (map, name->str);
      ddb_value_map_append (map, name->str, name->len, v);
    }
  while (pqp_accept (p, T_COMMA));
  if (!pqp_expect (p, T_RBRACE))
    return NULL;
  return g_steal_pointer (&map);
}

DdbValue *
pqp_parse_item (Parser *p)
{
  return parse_struct (p, TRUE);
}

static DdbValue *
parse_list (Parser *p)
{
  g_autoptr (DdbValue) list = ddb_value_new_l ();

  pqp_advance (p);
  if (pqp_accept (p, T_RBRACKET))
    return g_steal_pointer (&list);
  do
    {
      char index[24];
      DdbValue *v;

      g_snprintf (index, sizeof index, "%u", ddb_value_list_size (list));
      v = parse_member (p, index, strlen (index));
      if (v == NULL)
        return NULL;
      ddb_value_list_append (list, v);
    }
  while (pqp_accept (p, T_COMMA));
  if (!pqp_expect (p, T_RBRACKET))
    return NULL;
  return g_steal_pointer (&list);
}

gboolean
pqp_starts_literal (Parser *p)
{
  switch (p->tok.kind)
    {
    case T_STRING:
    case T_NUMBER:
    case T_QMARK:
    case T_LBAG:
    case T_LBRACE:
    case T_LBRACKET:
      return TRUE;
    case T_MINUS:
      return pqp_peek_next (p) == T_NUMBER;
    case T_WORD:
      return pqp_is_word (&p->tok, "TRUE") || pqp_is_word (&p->tok, "FALSE")
             || pqp_is_word (&p->tok, "NULL") || pqp_is_word (&p->tok, "MISSING");
    default:
      return FALSE;
    }
}

DdbValue *
pqp_parse_literal (Parser *p)
{
  DdbValue *v;

  switch (p->tok.kind)
    {
    case T_STRING:
      v = ddb_value_new_s (p->tok.text->str, p->tok.text->len);
      pqp_advance (p);
      return v;
    case T_NUMBER:
      return parse_number (p, FALSE);
    case T_MINUS:
      pqp_advance (p);
      if (p->tok.kind != T_NUMBER)
        break;
      return parse_number (p, TRUE);
    case T_QMARK:
      return parse_parameter (p);
    case T_LBAG:
      return parse_bag (p);
    case T_LBRACE:
      return parse_struct (p, FALSE);
    case T_LBRACKET:
      return parse_list (p);
    case T_WORD:
      if (pqp_accept_word (p, "TRUE"))
        return ddb_value_new_bool (TRUE);
      if (pqp_accept_word (p, "FALSE"))
        return ddb_value_new_bool (FALSE);
      if (pqp_accept_word (p, "NULL"))
        return ddb_value_new_null ();
      if (pqp_is_word (&p->tok, "MISSING"))
        {
          pqp_fail (p, "Unsupported data type: MISSING");
          return NULL;
        }
      break;
    default:
      break;
    }
  pqp_malformed (p);
  return NULL;
}
