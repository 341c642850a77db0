/* partiql-conditions.c: the PartiQL parser's paths, operands (functions included) and
 * conditions: comparisons, IN, BETWEEN, IS [NOT] MISSING/NULL and types, NOT, AND, OR. */
#include <string.h>

#include "core/error.h"
#include "core/partiql-parser-private.h"

/* ---- Paths and operands ---- */

gboolean
pqp_parse_path (Parser *p, DdbPath *out)
{
  GArray *elems = g_array_new (FALSE, TRUE, sizeof (DdbPathElem));
  DdbPathElem e = { 0 };

  memset (out, 0, sizeof *out);
  e.name = pqp_parse_name (p);
  if (e.name == NULL)
    goto bad;
  g_array_append_val (elems, e);
  for (;;)
    {
      memset (&e, 0, sizeof e);
      if (pqp_accept (p, T_DOT))
        {
          e.name = pqp_parse_name (p);
          if (e.name == NULL)
            goto bad;
        }
      else if (pqp_accept (p, T_LBRACKET))
        {
          if (p->tok.kind == T_STRING)
            {
              e.name = g_strndup (p->tok.text->str, p->tok.text->len);
              pqp_advance (p);
            }
          else
            {
              g_autofree char *digits = NULL;
              guint64 index;

              if (p->tok.kind == T_NUMBER)
                digits = g_strndup (p->tok.start, p->tok.len);
              if (digits == NULL
                  || !g_ascii_string_to_unsigned (digits, 10, 0, G_MAXUINT32, &index, NULL))
                {
                  pqp_malformed (p);
                  goto bad;
                }
              e.index = index;
              pqp_advance (p);
            }
          if (!pqp_expect (p, T_RBRACKET))
            {
              g_free (e.name);
              goto bad;
            }
        }
      else
        break;
      g_array_append_val (elems, e);
    }
  out->n = elems->len;
  out->elems = (DdbPathElem *) g_array_free (elems, FALSE);
  return TRUE;

bad:
  out->n = elems->len;
  out->elems = (DdbPathElem *) g_array_free (elems, FALSE);
  ddb_path_clear (out);
  return FALSE;
}

DdbNode *
pqp_path_node (Parser *p)
{
  DdbNode *n = ddb_node_new (DDB_NODE_PATH, 0);

  if (!pqp_parse_path (p, &n->path))
    {
      ddb_node_free (n);
      return NULL;
    }
  return n;
}

/* A function call's name, when the current token starts one. */
gboolean
pqp_at_call (Parser *p, const char *name)
{
  return pqp_is_word (&p->tok, name) && pqp_peek_next (p) == T_LPAREN;
}

/* name(arg, ...) with `n` operands parsed by `each`; the node has kind `kind`. */
static DdbNode *
parse_call (Parser *p, DdbNodeKind kind, guint n, DdbNode *(*each) (Parser *, guint))
{
  g_autoptr (DdbNode) node = ddb_node_new (kind, n);

  pqp_advance (p); /* the name */
  pqp_advance (p); /* ( */
  for (guint i = 0; i < n; i++)
    {
      if (i > 0 && !pqp_expect (p, T_COMMA))
        return NULL;
      node->args[i] = each (p, i);
      if (node->args[i] == NULL)
        return NULL;
    }
  if (!pqp_expect (p, T_RPAREN))
    return NULL;
  return g_steal_pointer (&node);
}

static DdbNode *
operand_arg (Parser *p, guint i)
{
  (void) i;
  return pqp_parse_operand (p);
}

static DdbNode *
path_arg (Parser *p, guint i)
{
  (void) i;
  return pqp_path_node (p);
}

/* A path, a literal, or size(path): what a condition compares. */
DdbNode *
pqp_parse_operand (Parser *p)
{
  if (pqp_starts_literal (p))
    {
      DdbValue *v = pqp_parse_literal (p);

      return v != NULL ? ddb_node_new_value (v, "?") : NULL;
    }
  if (pqp_at_call (p, "size"))
    return parse_call (p, DDB_NODE_SIZE, 1, path_arg);
  if (p->tok.kind == T_WORD || p->tok.kind == T_QNAME)
    {
      if (pqp_peek_next (p) == T_LPAREN)
        {
          pqp_fail (p, "Unrecognized function: %.*s", (int) p->tok.len, p->tok.start);
          return NULL;
        }
      return pqp_path_node (p);
    }
  pqp_malformed (p);
  return NULL;
}

/* ---- Conditions ---- */

static DdbNode *
not_node (DdbNode *a)
{
  DdbNode *n = ddb_node_new (DDB_NODE_NOT, 1);

  n->args[0] = a;
  return n;
}

/* IN [a, b] or IN (a, b) */
static DdbNode *
parse_in (Parser *p, DdbNode *left)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_node_free);
  PqlTokenKind close;
  DdbNode *n;

  if (pqp_accept (p, T_LBRACKET))
    close = T_RBRACKET;
  else if (pqp_accept (p, T_LPAREN))
    close = T_RPAREN;
  else
    {
      ddb_node_free (left);
      pqp_malformed (p);
      return NULL;
    }
  g_ptr_array_add (args, left);
  do
    {
      DdbNode *a = pqp_parse_operand (p);

      if (a == NULL)
        return NULL;
      g_ptr_array_add (args, a);
    }
  while (pqp_accept (p, T_COMMA));
  if (!pqp_expect (p, close))
    return NULL;
  n = ddb_node_new (DDB_NODE_IN, args->len);
  for (guint i = 0; i < args->len; i++)
    n->args[i] = args->pdata[i];
  g_ptr_array_set_free_func (args, NULL);
  return n;
}

static DdbNode *
type_test (DdbNode *path, const char *type)
{
  return ddb_node_new_binary (DDB_NODE_ATTRIBUTE_TYPE, path,
                              ddb_node_new_value (ddb_value_new_s (type, -1), "?"));
}

static DdbNode *
parse_predicate (Parser *p)
{
  static const struct {
    PqlTokenKind tok;
    DdbNodeKind kind;
  } comparisons[] = {
    { T_EQ, DDB_NODE_EQ }, { T_NE, DDB_NODE_NE }, { T_LT, DDB_NODE_LT },
    { T_LE, DDB_NODE_LE }, { T_GT, DDB_NODE_GT }, { T_GE, DDB_NODE_GE },
  };
  g_autoptr (DdbNode) left = NULL;
  gboolean negated;

  if (pqp_accept (p, T_LPAREN))
    {
      DdbNode *inner = pqp_parse_or (p);

      if (inner != NULL && !pqp_expect (p, T_RPAREN))
        g_clear_pointer (&inner, ddb_node_free);
      return inner;
    }
  if (pqp_at_call (p, "begins_with"))
    return parse_call (p, DDB_NODE_BEGINS_WITH, 2, operand_arg);
  if (pqp_at_call (p, "contains"))
    return parse_call (p, DDB_NODE_CONTAINS, 2, operand_arg);
  if (pqp_at_call (p, "attribute_type"))
    return parse_call (p, DDB_NODE_ATTRIBUTE_TYPE, 2, operand_arg);
  if (pqp_at_call (p, "attribute_exists"))
    return parse_call (p, DDB_NODE_ATTRIBUTE_EXISTS, 1, path_arg);
  if (pqp_at_call (p, "attribute_not_exists"))
    return parse_call (p, DDB_NODE_ATTRIBUTE_NOT_EXISTS, 1, path_arg);

  left = pqp_parse_operand (p);
  if (left == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (comparisons); i++)
    if (pqp_accept (p, comparisons[i].tok))
      {
        DdbNode *right = pqp_parse_operand (p);

        return right != NULL
                   ? ddb_node_new_binary (comparisons[i].kind, g_steal_pointer (&left), right)
                   : NULL;
      }
  if (pqp_accept_word (p, "BETWEEN"))
    {
      g_autoptr (DdbNode) n = ddb_node_new (DDB_NODE_BETWEEN, 3);

      n->args[0] = g_steal_pointer (&left);
      if ((n->args[1] = pqp_parse_operand (p)) == NULL || !pqp_expect_word (p, "AND")
          || (n->args[2] = pqp_parse_operand (p)) == NULL)
        return NULL;
      return g_steal_pointer (&n);
    }
  if (pqp_accept_word (p, "IS"))
    {
      negated = pqp_accept_word (p, "NOT");
      if (left->kind != DDB_NODE_PATH)
        {
          pqp_malformed (p);
          return NULL;
        }
      if (pqp_accept_word (p, "MISSING"))
        {
          DdbNode *n = ddb_node_new (
              negated ? DDB_NODE_ATTRIBUTE_EXISTS : DDB_NODE_ATTRIBUTE_NOT_EXISTS, 1);

          n->args[0] = g_steal_pointer (&left);
          return n;
        }
      if (pqp_accept_word (p, "NULL"))
        {
          DdbNode *n = type_test (g_steal_pointer (&left), "NULL");

          return negated ? not_node (n) : n;
        }
      pqp_malformed (p);
      return NULL;
    }
  negated = pqp_accept_word (p, "NOT");
  if (pqp_accept_word (p, "IN"))
    {
      DdbNode *n = parse_in (p, g_steal_pointer (&left));

      return n != NULL && negated ? not_node (n) : n;
    }
  if (negated)
    {
      pqp_malformed (p);
      return NULL;
    }
  if (p->tok.kind == T_EOF || pqp_is_word (&p->tok, "AND") || pqp_is_word (&p->tok, "OR"))
    pqp_fail (p, "The arguments to AND/OR must be Expressions");
  else
    pqp_malformed (p);
  return NULL;
}

static DdbNode *
parse_not (Parser *p)
{
  if (pqp_accept_word (p, "NOT"))
    {
      DdbNode *inner = parse_not (p);

      return inner != NULL ? not_node (inner) : NULL;
    }
  return parse_predicate (p);
}

static DdbNode *
parse_and (Parser *p)
{
  DdbNode *left = parse_not (p);

  while (left != NULL && pqp_accept_word (p, "AND"))
    {
      DdbNode *right = parse_not (p);

      if (right == NULL)
        g_clear_pointer (&left, ddb_node_free);
      else
        left = ddb_node_new_binary (DDB_NODE_AND, left, right);
    }
  return left;
}

DdbNode *
pqp_parse_or (Parser *p)
{
  DdbNode *left = parse_and (p);

  while (left != NULL && pqp_accept_word (p, "OR"))
    {
      DdbNode *right = parse_and (p);

      if (right == NULL)
        g_clear_pointer (&left, ddb_node_free);
      else
        left = ddb_node_new_binary (DDB_NODE_OR, left, right);
    }
  return left;
}
