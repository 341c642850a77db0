/* expr-parse-tree.c: the expression parser's tools: DynamoDB's function table, the tokens,
 * the errors (syntax errors at the furthest token, others prefixed as DynamoDB does), the
 * parse tree's nodes in an arena, and the public DdbNode tree built from a checked parse. */
#include <string.h>

#include "core/error.h"
#include "core/expr-parser-private.h"

const EpFunction ep_functions[] = {
  { "attribute_exists", 1, FN_CONDITION, DDB_NODE_ATTRIBUTE_EXISTS },
  { "attribute_not_exists", 1, FN_CONDITION, DDB_NODE_ATTRIBUTE_NOT_EXISTS },
  { "attribute_type", 2, FN_CONDITION, DDB_NODE_ATTRIBUTE_TYPE },
  { "begins_with", 2, FN_CONDITION, DDB_NODE_BEGINS_WITH },
  { "contains", 2, FN_CONDITION, DDB_NODE_CONTAINS },
  { "size", 1, FN_OPERAND, DDB_NODE_SIZE },
  { "if_not_exists", 2, FN_UPDATE, DDB_NODE_IF_NOT_EXISTS },
  { "list_append", 2, FN_UPDATE, DDB_NODE_LIST_APPEND },
};

const guint ep_n_functions = G_N_ELEMENTS (ep_functions);

/* ---- Small helpers ---------------------------------------------------------------------- */

gpointer
ep_arena_alloc (Parser *p, gsize size)
{
  gpointer mem = g_malloc0 (size);

  g_ptr_array_add (p->arena, mem);
  return mem;
}

const char *
ep_tok_ptr (Parser *p, guint i)
{
  return p->text + p->toks[i].start;
}

guint
ep_tok_len (Parser *p, guint i)
{
  return p->toks[i].len;
}

DdbTokenKind
ep_tok_kind (Parser *p, guint i)
{
  return p->toks[MIN (i, p->n_toks - 1)].kind;
}

/* A NUL-terminated copy of a token's text, freed with the parse tree. */
char *
ep_tok_dup (Parser *p, guint i)
{
  char *s = g_strndup (ep_tok_ptr (p, i), ep_tok_len (p, i));

  g_ptr_array_add (p->arena, s);
  return s;
}

gboolean
ep_tok_is (Parser *p, guint i, const char *word)
{
  return strlen (word) == ep_tok_len (p, i)
         && memcmp (ep_tok_ptr (p, i), word, ep_tok_len (p, i)) == 0;
}

DdbTokenKind
ep_peek (Parser *p)
{
  return ep_tok_kind (p, p->pos);
}

DdbTokenKind
ep_peek_at (Parser *p, guint ahead)
{
  return ep_tok_kind (p, p->pos + ahead);
}

guint
ep_advance (Parser *p)
{
  guint i = p->pos;

  if (p->pos + 1 < p->n_toks)
    p->pos++;
  return i;
}

/* Sets a non-syntax error, prefixed "Invalid <Type>Expression: " as DynamoDB does. */
gpointer
ep_fatal (Parser *p, const char *fmt, ...)
{
  va_list ap;
  char *msg;

  if (p->fatal)
    return NULL;
  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (&p->local_error, DDB_ERROR, DDB_ERROR_VALIDATION, "Invalid %s: %s",
               ddb_expr_type_name (p->type), msg);
  g_free (msg);
  p->fatal = TRUE;
  return NULL;
}

/* DynamoDB names the token where reading stopped and shows the text from the token before it to
 * the token after it. */
void
ep_syntax_error (Parser *p, guint at)
{
  guint from = at > 0 ? p->toks[at - 1].start : 0;
  guint last = at + 1 < p->n_toks ? at + 1 : at;
  guint to = p->toks[last].start + p->toks[last].len;
  GString *tok = g_string_new (NULL);

  if (p->toks[at].kind == DDB_TOK_EOF)
    g_string_append (tok, "<EOF>");
  else
    g_string_append_len (tok, ep_tok_ptr (p, at), ep_tok_len (p, at));
  if (to < from)
    to = from;
  ep_fatal (p, "Syntax error; token: \"%s\", near: \"%.*s\"", tok->str, (int) (to - from),
            p->text + from);
  g_string_free (tok, TRUE);
}

gpointer
ep_fail (Parser *p)
{
  p->err_at = p->pos;
  return NULL;
}

gboolean
ep_expect (Parser *p, DdbTokenKind kind, guint *out)
{
  if (ep_peek (p) != kind)
    {
      ep_fail (p);
      return FALSE;
    }
  if (out != NULL)
    *out = p->pos;
  ep_advance (p);
  return TRUE;
}

PNode *
ep_new_node (Parser *p, PKind kind, guint tok)
{
  PNode *n = ep_arena_alloc (p, sizeof (PNode));

  n->kind = kind;
  n->tok = tok;
  return n;
}

void
ep_set_args (Parser *p, PNode *n, GPtrArray *args)
{
  n->n_args = args->len;
  n->args = ep_arena_alloc (p, sizeof (PNode *) * MAX (args->len, 1));
  if (args->len > 0)
    memcpy (n->args, args->pdata, sizeof (PNode *) * args->len);
}

PNode *
ep_node2 (Parser *p, PKind kind, guint tok, PNode *a, PNode *b)
{
  PNode *n = ep_new_node (p, kind, tok);

  n->n_args = b != NULL ? 2 : 1;
  n->args = ep_arena_alloc (p, sizeof (PNode *) * 2);
  n->args[0] = a;
  n->args[1] = b;
  return n;
}

PNode *
ep_unwrap (PNode *n)
{
  while (n->kind == P_PAREN)
    n = n->args[0];
  return n;
}

gboolean
ep_enter (Parser *p)
{
  gboolean closes = FALSE;

  if (++p->depth <= MAX_DEPTH)
    return TRUE;
  /* No valid expression of 4 KB nests this deep; this only bounds the recursion on hostile
   * input. Give the error DynamoDB would most likely give: an unclosed run of parentheses is a
   * syntax error at the end, calls of an unknown function name it, and anything else deep
   * enough repeats parentheses, which DynamoDB reports as redundant. */
  for (guint i = p->pos; i < p->n_toks && !closes; i++)
    closes = p->toks[i].kind == DDB_TOK_RPAREN;
  if (!closes)
    {
      ep_syntax_error (p, p->n_toks - 1);
      return FALSE;
    }
  for (guint i = 0; i + 1 < p->n_toks; i++)
    if (p->toks[i].kind == DDB_TOK_ID && p->toks[i + 1].kind == DDB_TOK_LPAREN
        && ep_find_function (p, i) < 0)
      {
        ep_fatal (p, "Invalid function name; function: %.*s", (int) ep_tok_len (p, i),
                  ep_tok_ptr (p, i));
        return FALSE;
      }
  if (ep_peek (p) == DDB_TOK_LPAREN)
    ep_fatal (p, "The expression has redundant parentheses;");
  else
    ep_syntax_error (p, p->pos);
  return FALSE;
}

/* ---- Building the public tree ----------------------------------------------------------- */

void
ep_build_path (PNode *n, DdbPath *out)
{
  out->n = n->n_parts;
  out->elems = g_new0 (DdbPathElem, n->n_parts);
  for (guint i = 0; i < n->n_parts; i++)
    {
      if (n->parts[i].is_index)
        out->elems[i].index = n->parts[i].index;
      else
        out->elems[i].name = g_strdup (n->parts[i].resolved);
    }
}

DdbNode *
ep_build (Parser *p, PNode *n)
{
  DdbNode *out;

  n = ep_unwrap (n);
  out = g_new0 (DdbNode, 1);
  switch (n->kind)
    {
    case P_PATH:
      out->kind = DDB_NODE_PATH;
      ep_build_path (n, &out->path);
      return out;
    case P_VALUE:
      out->kind = DDB_NODE_VALUE;
      out->value = ddb_value_copy (ep_value_of (p, n));
      out->placeholder = g_strndup (ep_tok_ptr (p, n->tok), ep_tok_len (p, n->tok));
      return out;
    case P_CALL:
      out->kind = ep_functions[ep_find_function (p, n->tok)].kind;
      break;
    case P_CMP:
    case P_ARITH:
      out->kind = n->op;
      break;
    case P_BETWEEN:
      out->kind = DDB_NODE_BETWEEN;
      break;
    case P_IN:
      out->kind = DDB_NODE_IN;
      break;
    case P_AND:
      out->kind = DDB_NODE_AND;
      break;
    case P_OR:
      out->kind = DDB_NODE_OR;
      break;
    case P_NOT:
      out->kind = DDB_NODE_NOT;
      break;
    default:
      g_assert_not_reached ();
    }
  out->n_args = n->n_args;
  out->args = g_new0 (DdbNode *, n->n_args);
  for (guint i = 0; i < n->n_args; i++)
    out->args[i] = ep_build (p, n->args[i]);
  return out;
}
