/* eb-node.c: building, copying and comparing core's expression trees for the builder's rows. */
#include "exprbuild/exprbuild.h"

DdbNode *
ddb_eb_node_path (const DdbPath *path)
{
  DdbNode *n = g_new0 (DdbNode, 1);

  n->kind = DDB_NODE_PATH;
  ddb_path_copy (&n->path, path);
  return n;
}

DdbNode *
ddb_eb_node_value (DdbValue *value)
{
  DdbNode *n = g_new0 (DdbNode, 1);

  n->kind = DDB_NODE_VALUE;
  n->value = value;
  return n;
}

DdbNode *
ddb_eb_node_newv (DdbNodeKind kind, guint n_args, DdbNode **args)
{
  DdbNode *n = g_new0 (DdbNode, 1);

  n->kind = kind;
  n->n_args = n_args;
  n->args = g_new0 (DdbNode *, MAX (n_args, 1));
  for (guint i = 0; i < n_args; i++)
    n->args[i] = args[i];
  return n;
}

DdbNode *
ddb_eb_node_new (DdbNodeKind kind, guint n_args, ...)
{
  g_autofree DdbNode **args = g_new0 (DdbNode *, MAX (n_args, 1));
  va_list ap;

  va_start (ap, n_args);
  for (guint i = 0; i < n_args; i++)
    args[i] = va_arg (ap, DdbNode *);
  va_end (ap);
  return ddb_eb_node_newv (kind, n_args, args);
}

DdbNode *
ddb_eb_node_attribute_type (const DdbPath *path, DdbType type)
{
  return ddb_eb_node_new (DDB_NODE_ATTRIBUTE_TYPE, 2, ddb_eb_node_path (path),
                          ddb_eb_node_value (ddb_value_new_s (ddb_type_name (type), -1)));
}

DdbNode *
ddb_eb_node_copy (const DdbNode *node)
{
  DdbNode *n = g_new0 (DdbNode, 1);

  n->kind = node->kind;
  ddb_path_copy (&n->path, &node->path);
  n->value = node->value != NULL ? ddb_value_copy (node->value) : NULL;
  n->placeholder = g_strdup (node->placeholder);
  n->n_args = node->n_args;
  n->args = node->n_args > 0 ? g_new0 (DdbNode *, node->n_args) : NULL;
  for (guint i = 0; i < node->n_args; i++)
    n->args[i] = ddb_eb_node_copy (node->args[i]);
  return n;
}

gboolean
ddb_eb_node_equal (const DdbNode *a, const DdbNode *b)
{
  if (a->kind != b->kind || a->n_args != b->n_args)
    return FALSE;
  if (a->kind == DDB_NODE_PATH)
    return ddb_eb_path_equal (&a->path, &b->path);
  if (a->kind == DDB_NODE_VALUE)
    return ddb_value_equal (a->value, b->value);
  for (guint i = 0; i < a->n_args; i++)
    if (!ddb_eb_node_equal (a->args[i], b->args[i]))
      return FALSE;
  return TRUE;
}

static gboolean
is_kind (const DdbNode *n, DdbNodeKind kind)
{
  return n != NULL && n->kind == kind;
}

static gboolean
is_if_not_exists (const DdbNode *n)
{
  return is_kind (n, DDB_NODE_IF_NOT_EXISTS) && n->n_args == 2
         && is_kind (n->args[0], DDB_NODE_PATH) && is_kind (n->args[1], DDB_NODE_VALUE);
}

DdbEbSetForm
ddb_eb_set_form (const DdbNode *operand)
{
  if (operand == NULL)
    return DDB_EB_SET_OTHER;
  switch (operand->kind)
    {
    case DDB_NODE_VALUE:
      return DDB_EB_SET_VALUE;
    case DDB_NODE_PATH:
      return DDB_EB_SET_PATH;
    case DDB_NODE_PLUS:
    case DDB_NODE_MINUS:
      if (operand->n_args == 2
          && (is_kind (operand->args[0], DDB_NODE_PATH) || is_if_not_exists (operand->args[0]))
          && is_kind (operand->args[1], DDB_NODE_VALUE))
        return operand->kind == DDB_NODE_PLUS ? DDB_EB_SET_PLUS : DDB_EB_SET_MINUS;
      return DDB_EB_SET_OTHER;
    case DDB_NODE_IF_NOT_EXISTS:
      return is_if_not_exists (operand) ? DDB_EB_SET_IF_NOT_EXISTS : DDB_EB_SET_OTHER;
    case DDB_NODE_LIST_APPEND:
      if (operand->n_args == 2
          && ((is_kind (operand->args[0], DDB_NODE_PATH)
               && is_kind (operand->args[1], DDB_NODE_VALUE))
              || (is_kind (operand->args[0], DDB_NODE_VALUE)
                  && is_kind (operand->args[1], DDB_NODE_PATH))))
        return DDB_EB_SET_LIST_APPEND;
      return DDB_EB_SET_OTHER;
    default:
      return DDB_EB_SET_OTHER;
    }
}
