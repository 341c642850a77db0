/* expr-check.c: the expression parser's checks, in DynamoDB's order: the operator count,
 * function names and places, reserved words, list indexes, placeholders resolved and the
 * operand types known from the values, overlapping paths of an update. */
#include <string.h>

#include "core/error.h"
#include "core/expr-parser-private.h"

/* ---- Shared checks ---------------------------------------------------------------------- */

gint
ep_find_function (Parser *p, guint tok)
{
  /* Function names are case-sensitive: BEGINS_WITH is an unknown function. */
  for (guint i = 0; i < ep_n_functions; i++)
    if (ep_tok_is (p, tok, ep_functions[i].name))
      return (gint) i;
  return -1;
}

guint
ep_count_operators (Parser *p, PNode *n)
{
  guint c = 0;

  if (n == NULL)
    return 0;
  switch (n->kind)
    {
    case P_CMP:
    case P_BETWEEN:
    case P_IN:
    case P_AND:
    case P_OR:
    case P_NOT:
    case P_ARITH:
      c = 1;
      break;
    case P_CALL:
      /* Condition functions are not counted by DynamoDB; update functions are. */
      c = p->type == DDB_EXPR_UPDATE ? 1 : 0;
      break;
    default:
      break;
    }
  for (guint i = 0; i < n->n_args; i++)
    c += ep_count_operators (p, n->args[i]);
  return c;
}

gboolean
ep_check_operator_count (Parser *p, guint count)
{
  if (count > DDB_EXPR_MAX_OPERATORS)
    {
      /* DynamoDB stops counting at the first operator over the limit. */
      ep_fatal (p, "The expression contains too many operators; operator count: %u",
                DDB_EXPR_MAX_OPERATORS + 1);
      return FALSE;
    }
  return TRUE;
}

/* Pass 1, in written order: list indexes, reserved words, function names and places. */
gboolean
ep_check_written (Parser *p, PNode *n, gboolean want_condition)
{
  switch (n->kind)
    {
    case P_PATH:
      for (guint i = 0; i < n->n_parts; i++)
        {
          PPart *part = &n->parts[i];

          if (part->is_index)
            {
              if (!part->index_ok)
                {
                  ep_fatal (p, "List index is not within the allowable range; index: [%.*s]",
                            (int) ep_tok_len (p, part->tok), ep_tok_ptr (p, part->tok));
                  return FALSE;
                }
            }
          else if (ep_tok_kind (p, part->tok) == DDB_TOK_ID
                   && ddb_is_reserved_word (ep_tok_ptr (p, part->tok), ep_tok_len (p, part->tok)))
            {
              ep_fatal (p, "Attribute name is a reserved keyword; reserved keyword: %.*s",
                        (int) ep_tok_len (p, part->tok), ep_tok_ptr (p, part->tok));
              return FALSE;
            }
        }
      return TRUE;
      case P_CALL: {
        gint f = ep_find_function (p, n->tok);
        const char *name = ep_tok_dup (p, n->tok);

        if (f < 0)
          {
            ep_fatal (p, "Invalid function name; function: %s", name);
            return FALSE;
          }
        if (p->type == DDB_EXPR_UPDATE)
          {
            if (ep_functions[f].cls != FN_UPDATE)
              {
                ep_fatal (p, "The function is not allowed in an update expression; function: %s",
                          name);
                return FALSE;
              }
          }
        else
          {
            if (ep_functions[f].cls == FN_UPDATE)
              {
                ep_fatal (p, "The function is not allowed in a condition expression; function: %s",
                          name);
                return FALSE;
              }
            if (want_condition != (ep_functions[f].cls == FN_CONDITION))
              {
                ep_fatal (p,
                          "The function is not allowed to be used this way in an expression; "
                          "function: %s",
                          name);
                return FALSE;
              }
            if (n->n_args != ep_functions[f].n_args)
              {
                ep_fatal (p,
                          "Incorrect number of operands for operator or function; "
                          "operator or function: %s, number of operands: %u",
                          name, n->n_args);
                return FALSE;
              }
          }
        for (guint i = 0; i < n->n_args; i++)
          if (!ep_check_written (p, n->args[i], FALSE))
            return FALSE;
        return TRUE;
      }
    case P_PAREN:
      return ep_check_written (p, n->args[0], want_condition);
    case P_AND:
    case P_OR:
    case P_NOT:
      for (guint i = 0; i < n->n_args; i++)
        if (!ep_check_written (p, n->args[i], TRUE))
          return FALSE;
      return TRUE;
    default:
      for (guint i = 0; i < n->n_args; i++)
        if (!ep_check_written (p, n->args[i], FALSE))
          return FALSE;
      return TRUE;
    }
}

/* Substitutes the #placeholders of a path, recording their use. */
gboolean
ep_resolve_path (Parser *p, PNode *n)
{
  for (guint i = 0; i < n->n_parts; i++)
    {
      PPart *part = &n->parts[i];

      if (part->is_index || part->resolved != NULL)
        continue;
      if (ep_tok_kind (p, part->tok) == DDB_TOK_NAME)
        {
          const char *key = ep_tok_dup (p, part->tok);
          gpointer orig = NULL, name = NULL;

          if (p->ctx->names == NULL
              || !g_hash_table_lookup_extended (p->ctx->names, key, &orig, &name))
            {
              ep_fatal (p,
                        "An expression attribute name used in the document path is not defined; "
                        "attribute name: %s",
                        key);
              return FALSE;
            }
          g_hash_table_add (p->ctx->used_names, orig);
          part->resolved = name;
        }
      else
        part->resolved = ep_tok_dup (p, part->tok);
    }
  return TRUE;
}

/* The #names of every path under n, without the other checks (DynamoDB looks at an update's
 * names before its values). */
gboolean
ep_resolve_names_only (Parser *p, PNode *n)
{
  if (n->kind == P_PATH)
    return ep_resolve_path (p, n);
  for (guint i = 0; i < n->n_args; i++)
    if (!ep_resolve_names_only (p, n->args[i]))
      return FALSE;
  return TRUE;
}

const DdbValue *
ep_value_of (Parser *p, PNode *n)
{
  const char *key = ep_tok_dup (p, n->tok);

  if (p->ctx->values == NULL)
    return NULL;
  return g_hash_table_lookup (p->ctx->values, key);
}

/* The type an operand is known to have before evaluation: a value's, or N for size(). */
gboolean
ep_static_type (Parser *p, PNode *n, DdbType *out)
{
  const DdbValue *v;

  n = ep_unwrap (n);
  if (n->kind == P_VALUE && (v = ep_value_of (p, n)) != NULL)
    {
      *out = v->type;
      return TRUE;
    }
  if (n->kind == P_CALL && ep_tok_is (p, n->tok, "size"))
    {
      *out = DDB_TYPE_N;
      return TRUE;
    }
  return FALSE;
}

static gboolean
same_path (PNode *a, PNode *b)
{
  a = ep_unwrap (a);
  b = ep_unwrap (b);
  if (a->kind != P_PATH || b->kind != P_PATH || a->n_parts != b->n_parts)
    return FALSE;
  for (guint i = 0; i < a->n_parts; i++)
    {
      PPart *x = &a->parts[i], *y = &b->parts[i];

      if (x->is_index != y->is_index)
        return FALSE;
      if (x->is_index ? x->index != y->index : g_strcmp0 (x->resolved, y->resolved) != 0)
        return FALSE;
    }
  return TRUE;
}

/* "[a, [2], b]", as DynamoDB shows paths in messages. */
static char *
path_text (Parser *p, PNode *n)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < n->n_parts; i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      if (n->parts[i].is_index)
        g_string_append_printf (s, "[%u]", n->parts[i].index);
      else
        g_string_append (s, n->parts[i].resolved);
    }
  g_string_append_c (s, ']');
  g_ptr_array_add (p->arena, s->str);
  return g_string_free (s, FALSE);
}

static gboolean
check_distinct (Parser *p, const char *op, PNode *first, PNode **rest, guint n_rest)
{
  if (ep_unwrap (first)->kind != P_PATH)
    return TRUE;
  for (guint i = 0; i < n_rest; i++)
    if (same_path (first, rest[i]))
      {
        ep_fatal (p,
                  "The first operand must be distinct from the remaining operands for this "
                  "operator or function; operator: %s, first operand: %s",
                  op, path_text (p, ep_unwrap (first)));
        return FALSE;
      }
  return TRUE;
}

static gboolean
type_problem (Parser *p, const char *op, const char *type)
{
  ep_fatal (p,
            "Incorrect operand type for operator or function; operator or function: %s, "
            "operand type: %s",
            op, type);
  return FALSE;
}

static gboolean
is_scalar_key_type (DdbType t)
{
  return t == DDB_TYPE_S || t == DDB_TYPE_N || t == DDB_TYPE_B;
}

static const char *
op_text (DdbNodeKind op)
{
  const char *text = ddb_node_kind_operator (op);

  return text != NULL ? text : "?";
}

static int
compare_bytes (const DdbBytes *a, const DdbBytes *b)
{
  int c = memcmp (a->data, b->data, MIN (a->len, b->len));

  if (c != 0)
    return c;
  return a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
}

/* "AttributeValue: {N:2}", DynamoDB's rendering of a BETWEEN bound. */
static char *
bound_text (Parser *p, const DdbValue *v)
{
  GString *s = g_string_new ("AttributeValue: {");

  g_string_append (s, ddb_type_name (v->type));
  g_string_append_c (s, ':');
  switch (v->type)
    {
    case DDB_TYPE_S:
      g_string_append_len (s, v->bytes.data, (gssize) v->bytes.len);
      break;
    case DDB_TYPE_N:
      ddb_number_append (&v->number, s);
      break;
    case DDB_TYPE_B:
      g_string_append_printf (
          s, "java.nio.HeapByteBuffer[pos=0 lim=%" G_GSIZE_FORMAT " cap=%" G_GSIZE_FORMAT "]",
          v->bytes.len, v->bytes.len);
      break;
    default:
      break;
    }
  g_string_append_c (s, '}');
  g_ptr_array_add (p->arena, s->str);
  return g_string_free (s, FALSE);
}

gboolean
ep_check_path_use (Parser *p, PNode *n)
{
  if (!ep_resolve_path (p, n))
    return FALSE;
  if (n->n_parts > DDB_MAX_NESTING)
    {
      ep_fatal (p, "The document path has too many nesting levels; nesting levels: %u", n->n_parts);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_args (Parser *p, PNode *n)
{
  for (guint i = 0; i < n->n_args; i++)
    if (!ep_check_resolved (p, n->args[i]))
      return FALSE;
  return TRUE;
}

static gboolean
check_call (Parser *p, PNode *n)
{
  gint f = ep_find_function (p, n->tok);
  const char *name = ep_functions[f].name;
  DdbNodeKind kind = ep_functions[f].kind;
  PNode *first;
  DdbType t;

  if (p->type == DDB_EXPR_UPDATE && n->n_args != ep_functions[f].n_args)
    {
      ep_fatal (p,
                "Incorrect number of operands for operator or function; operator or function: "
                "%s, number of operands: %u",
                name, n->n_args);
      return FALSE;
    }
  if (!check_args (p, n))
    return FALSE;
  first = ep_unwrap (n->args[0]);
  /* attribute_type takes a value too (attribute_type(:v, :t)), as DynamoDB accepts it. */
  if ((kind == DDB_NODE_ATTRIBUTE_EXISTS || kind == DDB_NODE_ATTRIBUTE_NOT_EXISTS
       || kind == DDB_NODE_IF_NOT_EXISTS)
      && first->kind != P_PATH)
    {
      ep_fatal (p, "Operator or function requires a document path; operator or function: %s", name);
      return FALSE;
    }
  if (kind != DDB_NODE_SIZE && kind != DDB_NODE_LIST_APPEND
      && !check_distinct (p, name, n->args[0], n->args + 1, n->n_args - 1))
    return FALSE;

  switch (kind)
    {
    case DDB_NODE_SIZE:
      if (ep_static_type (p, n->args[0], &t)
          && (t == DDB_TYPE_N || t == DDB_TYPE_BOOL || t == DDB_TYPE_NULL))
        return type_problem (p, name, ddb_type_name (t));
      break;
    case DDB_NODE_BEGINS_WITH:
      for (guint i = 0; i < n->n_args; i++)
        if (ep_static_type (p, n->args[i], &t) && t != DDB_TYPE_S && t != DDB_TYPE_B)
          return type_problem (p, name, ddb_type_name (t));
      break;
      case DDB_NODE_ATTRIBUTE_TYPE: {
        PNode *second = ep_unwrap (n->args[1]);
        const DdbValue *v;
        DdbType parsed;

        if (second->kind != P_VALUE)
          return type_problem (p, name,
                               second->kind == P_CALL
                                   ? "N"
                                   : "{SS,M,DECIMAL,DOUBLESET,HDS,N,B,DICT,INTSET,BOOL,HD,BS,INT,"
                                     "DECIMALSET,NULL,FLOAT,FS,S,L,NS,DOUBLE}");
        v = ep_value_of (p, second);
        if (v == NULL) /* undefined: reported by the placeholder check */
          break;
        if (v->type != DDB_TYPE_S)
          return type_problem (p, name, ddb_type_name (v->type));
        if (strlen (v->bytes.data) != v->bytes.len || !ddb_type_from_name (v->bytes.data, &parsed))
          {
            ep_fatal (p,
                      "Invalid attribute type name found; type: %.*s, valid types: "
                      "{N,BS,L,B,NULL,M,S,SS,NS,BOOL}",
                      (int) v->bytes.len, v->bytes.data);
            return FALSE;
          }
        break;
      }
    case DDB_NODE_LIST_APPEND:
      for (guint i = 0; i < n->n_args; i++)
        if (ep_static_type (p, n->args[i], &t) && t != DDB_TYPE_L)
          return type_problem (p, name, ddb_type_name (t));
      break;
    default:
      break;
    }
  return TRUE;
}

/* Pass 2: placeholders, then what the known values allow. */
gboolean
ep_check_resolved (Parser *p, PNode *n)
{
  DdbType t;

  switch (n->kind)
    {
    case P_PATH:
      return ep_check_path_use (p, n);
      case P_VALUE: {
        const char *key = ep_tok_dup (p, n->tok);
        gpointer orig = NULL, value = NULL;

        if (p->ctx->values == NULL
            || !g_hash_table_lookup_extended (p->ctx->values, key, &orig, &value))
          {
            ep_fatal (p,
                      "An expression attribute value used in expression is not defined; "
                      "attribute value: %s",
                      key);
            return FALSE;
          }
        g_hash_table_add (p->ctx->used_values, orig);
        return TRUE;
      }
    case P_PAREN:
    case P_AND:
    case P_OR:
    case P_NOT:
      return check_args (p, n);
    case P_CMP:
      if (!check_args (p, n) || !check_distinct (p, op_text (n->op), n->args[0], n->args + 1, 1))
        return FALSE;
      if (n->op != DDB_NODE_EQ && n->op != DDB_NODE_NE)
        for (guint i = 0; i < 2; i++)
          if (ep_static_type (p, n->args[i], &t) && !is_scalar_key_type (t))
            return type_problem (p, op_text (n->op), ddb_type_name (t));
      return TRUE;
      case P_BETWEEN: {
        PNode *lo, *hi;

        if (!check_args (p, n) || !check_distinct (p, "BETWEEN", n->args[0], n->args + 1, 2))
          return FALSE;
        for (guint i = 0; i < 3; i++)
          if (ep_static_type (p, n->args[i], &t) && !is_scalar_key_type (t))
            return type_problem (p, "BETWEEN", ddb_type_name (t));
        lo = ep_unwrap (n->args[1]);
        hi = ep_unwrap (n->args[2]);
        if (lo->kind == P_VALUE && hi->kind == P_VALUE)
          {
            const DdbValue *a = ep_value_of (p, lo), *b = ep_value_of (p, hi);
            int c;

            if (a == NULL || b == NULL) /* undefined: reported by the placeholder check */
              return TRUE;
            if (a->type != b->type)
              {
                ep_fatal (p,
                          "The BETWEEN operator requires same data type for lower and upper "
                          "bounds; lower bound operand: %s, upper bound operand: %s",
                          bound_text (p, a), bound_text (p, b));
                return FALSE;
              }
            c = a->type == DDB_TYPE_N ? ddb_number_compare (&a->number, &b->number)
                                      : compare_bytes (&a->bytes, &b->bytes);
            if (c > 0)
              {
                ep_fatal (p,
                          "The BETWEEN operator requires upper bound to be greater than or "
                          "equal to lower bound; lower bound operand: %s, upper bound operand: %s",
                          bound_text (p, a), bound_text (p, b));
                return FALSE;
              }
          }
        return TRUE;
      }
    case P_IN:
      if (!check_args (p, n))
        return FALSE;
      if (n->n_args - 1 > DDB_EXPR_MAX_IN_OPERANDS)
        {
          ep_fatal (p, "The IN operator is provided with too many operands; number of operands: %u",
                    n->n_args - 1);
          return FALSE;
        }
      return check_distinct (p, "IN", n->args[0], n->args + 1, n->n_args - 1);
    case P_CALL:
      return check_call (p, n);
    case P_ARITH:
      if (!check_args (p, n))
        return FALSE;
      for (guint i = 0; i < 2; i++)
        if (ep_static_type (p, n->args[i], &t) && t != DDB_TYPE_N)
          return type_problem (p, op_text (n->op), ddb_type_name (t));
      return TRUE;
    default:
      return TRUE;
    }
}

/* Two paths of one update or projection may not be the same, one inside the other, or use one
 * attribute both as a map and as a list. */
gboolean
ep_check_overlaps (Parser *p, PNode **paths, guint n)
{
  for (guint j = 1; j < n; j++)
    for (guint i = 0; i < j; i++)
      {
        PNode *a = paths[i], *b = paths[j];
        guint common = MIN (a->n_parts, b->n_parts);
        gboolean conflict = FALSE;
        guint k;

        for (k = 0; k < common; k++)
          {
            PPart *x = &a->parts[k], *y = &b->parts[k];

            if (x->is_index != y->is_index)
              {
                conflict = TRUE;
                break;
              }
            if (x->is_index ? x->index != y->index : strcmp (x->resolved, y->resolved) != 0)
              break;
          }
        if (k < common && !conflict)
          continue;
        ep_fatal (p,
                  "Two document paths %s with each other; must remove or rewrite one of these "
                  "paths; path one: %s, path two: %s",
                  conflict ? "conflict" : "overlap", path_text (p, a), path_text (p, b));
        return FALSE;
      }
  return TRUE;
}
