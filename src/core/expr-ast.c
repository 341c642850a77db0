/* expr-ast.c: document paths and the ownership of expression syntax trees (expr.h). */
#include "core/expr.h"

#include <string.h>

const char *
ddb_expr_type_name (DdbExprType type)
{
  switch (type)
    {
    case DDB_EXPR_CONDITION:
      return "ConditionExpression";
    case DDB_EXPR_FILTER:
      return "FilterExpression";
    case DDB_EXPR_KEY_CONDITION:
      return "KeyConditionExpression";
    case DDB_EXPR_PROJECTION:
      return "ProjectionExpression";
    case DDB_EXPR_UPDATE:
      return "UpdateExpression";
    default:
      break;
    }
  return "Expression";
}

void
ddb_path_clear (DdbPath *p)
{
  if (p == NULL)
    return;
  for (guint i = 0; i < p->n; i++)
    g_free (p->elems[i].name);
  g_free (p->elems);
  p->elems = NULL;
  p->n = 0;
}

void
ddb_path_copy (DdbPath *dst, const DdbPath *src)
{
  dst->n = src->n;
  dst->elems = src->n ? g_new0 (DdbPathElem, src->n) : NULL;
  for (guint i = 0; i < src->n; i++)
    {
      dst->elems[i].name = g_strdup (src->elems[i].name);
      dst->elems[i].index = src->elems[i].index;
    }
}

char *
ddb_path_to_string (const DdbPath *p)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < p->n; i++)
    {
      if (p->elems[i].name != NULL)
        {
          if (i > 0)
            g_string_append_c (s, '.');
          g_string_append (s, p->elems[i].name);
        }
      else
        g_string_append_printf (s, "[%u]", p->elems[i].index);
    }
  return g_string_free (s, FALSE);
}

DdbValue *
ddb_path_lookup (const DdbValue *item, const DdbPath *p)
{
  const DdbValue *cur = item;

  if (item == NULL || p->n == 0)
    return NULL;
  for (guint i = 0; i < p->n && cur != NULL; i++)
    {
      const DdbPathElem *e = &p->elems[i];

      if (e->name != NULL)
        {
          if (cur->type != DDB_TYPE_M)
            return NULL;
          cur = ddb_value_map_get (cur, e->name);
        }
      else
        {
          if (cur->type != DDB_TYPE_L || e->index >= ddb_value_list_size (cur))
            return NULL;
          cur = ddb_value_list_nth (cur, e->index);
        }
    }
  return (DdbValue *) cur;
}

DdbNode *
ddb_node_new (DdbNodeKind kind, guint n_args)
{
  DdbNode *n = g_new0 (DdbNode, 1);

  n->kind = kind;
  n->n_args = n_args;
  n->args = g_new0 (DdbNode *, MAX (n_args, 1));
  return n;
}

DdbNode *
ddb_node_new_binary (DdbNodeKind kind, DdbNode *a, DdbNode *b)
{
  DdbNode *n = ddb_node_new (kind, 2);

  n->args[0] = a;
  n->args[1] = b;
  return n;
}

DdbNode *
ddb_node_new_value (DdbValue *v, const char *placeholder)
{
  DdbNode *n = ddb_node_new (DDB_NODE_VALUE, 0);

  n->value = v;
  n->placeholder = g_strdup (placeholder);
  return n;
}

void
ddb_node_free (DdbNode *node)
{
  if (node == NULL)
    return;
  for (guint i = 0; i < node->n_args; i++)
    ddb_node_free (node->args[i]);
  g_free (node->args);
  ddb_path_clear (&node->path);
  if (node->value != NULL)
    ddb_value_free (node->value);
  g_free (node->placeholder);
  g_free (node);
}

void
ddb_update_free (DdbUpdate *u)
{
  if (u == NULL)
    return;
  for (guint i = 0; i < u->n_actions; i++)
    {
      ddb_path_clear (&u->actions[i].path);
      ddb_node_free (u->actions[i].operand);
    }
  g_free (u->actions);
  g_free (u);
}

void
ddb_projection_free (DdbProjection *p)
{
  if (p == NULL)
    return;
  for (guint i = 0; i < p->n_paths; i++)
    ddb_path_clear (&p->paths[i]);
  g_free (p->paths);
  g_free (p);
}

gboolean
ddb_expr_placeholder_valid (const char *key, char sigil)
{
  if (key[0] != sigil || key[1] == '\0')
    return FALSE;
  for (const char *p = key + 1; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;
  return TRUE;
}

const char *
ddb_node_kind_operator (DdbNodeKind kind)
{
  switch (kind)
    {
    case DDB_NODE_EQ: return "=";
    case DDB_NODE_NE: return "<>";
    case DDB_NODE_LT: return "<";
    case DDB_NODE_LE: return "<=";
    case DDB_NODE_GT: return ">";
    case DDB_NODE_GE: return ">=";
    case DDB_NODE_PLUS: return "+";
    case DDB_NODE_MINUS: return "-";
    default: return NULL;
    }
}
