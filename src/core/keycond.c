/* keycond.c: checks a parsed KeyConditionExpression against a key schema the way Query does,
 * and reduces it to a partition-key value and one sort-key range. */
#include "core/expr.h"

#include <string.h>

#include "core/error.h"

typedef struct {
  const char *attr;
  DdbNodeKind op; /* as if the attribute were written first */
  const DdbValue *vals[2];
  guint n_vals;
} Leaf;

/* The operator seen from the other side: ":v < k" is "k > :v". */
static DdbNodeKind
flip (DdbNodeKind op)
{
  switch (op)
    {
    case DDB_NODE_LT:
      return DDB_NODE_GT;
    case DDB_NODE_LE:
      return DDB_NODE_GE;
    case DDB_NODE_GT:
      return DDB_NODE_LT;
    case DDB_NODE_GE:
      return DDB_NODE_LE;
    default:
      return op;
    }
}

static gboolean
collect (const DdbNode *n, GArray *leaves, GError **error)
{
  Leaf leaf = { 0 };
  gint attr_ix = -1;

  switch (n->kind)
    {
    case DDB_NODE_AND:
      return collect (n->args[0], leaves, error) && collect (n->args[1], leaves, error);
    case DDB_NODE_OR:
      return ddb_set_validation_error (error,
                                       "Invalid operator used in KeyConditionExpression: OR");
    case DDB_NODE_NOT:
      return ddb_set_validation_error (error,
                                       "Invalid operator used in KeyConditionExpression: NOT");
    case DDB_NODE_IN:
      return ddb_set_validation_error (error,
                                       "Invalid operator used in KeyConditionExpression: IN");
    case DDB_NODE_NE:
      return ddb_set_validation_error (error,
                                       "Invalid operator used in KeyConditionExpression: <>");
    case DDB_NODE_ATTRIBUTE_EXISTS:
      return ddb_set_validation_error (
          error, "Invalid operator used in KeyConditionExpression: attribute_exists");
    case DDB_NODE_ATTRIBUTE_NOT_EXISTS:
      return ddb_set_validation_error (
          error, "Invalid operator used in KeyConditionExpression: attribute_not_exists");
    case DDB_NODE_ATTRIBUTE_TYPE:
      return ddb_set_validation_error (
          error, "Invalid operator used in KeyConditionExpression: attribute_type");
    case DDB_NODE_CONTAINS:
      return ddb_set_validation_error (error,
                                       "Invalid operator used in KeyConditionExpression: contains");
    case DDB_NODE_BETWEEN:
      if (n->args[0]->kind != DDB_NODE_PATH)
        return ddb_set_validation_error (
            error, "Invalid condition in KeyConditionExpression: BETWEEN operator "
                   "must have the key attribute as its first operand");
      break;
    case DDB_NODE_BEGINS_WITH:
      if (n->args[0]->kind != DDB_NODE_PATH)
        return ddb_set_validation_error (
            error, "Invalid condition in KeyConditionExpression: begins_with "
                   "operator must have the key attribute as its first operand");
      break;
    case DDB_NODE_EQ:
    case DDB_NODE_LT:
    case DDB_NODE_LE:
    case DDB_NODE_GT:
    case DDB_NODE_GE:
      break;
    default:
      return ddb_set_validation_error (error,
                                       "KeyConditionExpressions cannot contain nested operations");
    }

  for (guint i = 0; i < n->n_args; i++)
    {
      const DdbNode *a = n->args[i];

      if (a->kind == DDB_NODE_PATH)
        {
          if (attr_ix >= 0)
            return ddb_set_validation_error (
                error, "Invalid condition in KeyConditionExpression: Multiple "
                       "attribute names used in one condition");
          if (a->path.n > 1)
            return ddb_set_validation_error (
                error, "KeyConditionExpressions cannot have conditions on nested attributes");
          attr_ix = (gint) i;
          leaf.attr = a->path.elems[0].name;
        }
      else if (a->kind == DDB_NODE_VALUE)
        {
          if (leaf.n_vals < 2)
            leaf.vals[leaf.n_vals++] = a->value;
        }
      else
        return ddb_set_validation_error (
            error, "KeyConditionExpressions cannot contain nested operations");
    }
  if (attr_ix < 0)
    return ddb_set_validation_error (
        error, "Invalid condition in KeyConditionExpression: No key attribute "
               "specified");
  for (guint i = 0; i < leaves->len; i++)
    if (strcmp (g_array_index (leaves, Leaf, i).attr, leaf.attr) == 0)
      return ddb_set_validation_error (
          error, "KeyConditionExpressions must only contain one condition per key");
  leaf.op = attr_ix == 0 ? n->kind : flip (n->kind);
  g_array_append_val (leaves, leaf);
  return TRUE;
}

static const Leaf *
find_leaf (GArray *leaves, const char *attr)
{
  for (guint i = 0; attr != NULL && i < leaves->len; i++)
    if (strcmp (g_array_index (leaves, Leaf, i).attr, attr) == 0)
      return &g_array_index (leaves, Leaf, i);
  return NULL;
}

static gboolean
check_types (const Leaf *leaf, DdbType type, GError **error)
{
  for (guint i = 0; i < leaf->n_vals; i++)
    {
      const DdbValue *v = leaf->vals[i];

      if (v->type != type)
        return ddb_set_validation_error (
            error, "One or more parameter values were invalid: Condition parameter "
                   "type does not match schema type");
      if ((v->type == DDB_TYPE_S || v->type == DDB_TYPE_B) && v->bytes.len == 0)
        return ddb_set_validation_error (
            error,
            "One or more parameter values are not valid. The AttributeValue "
            "for a key attribute cannot contain an empty %s value. Key: %s",
            v->type == DDB_TYPE_S ? "string" : "binary", leaf->attr);
    }
  return TRUE;
}

static DdbSortKeyOp
sort_key_op (DdbNodeKind op)
{
  switch (op)
    {
    case DDB_NODE_EQ:
      return DDB_SK_EQ;
    case DDB_NODE_LT:
      return DDB_SK_LT;
    case DDB_NODE_LE:
      return DDB_SK_LE;
    case DDB_NODE_GT:
      return DDB_SK_GT;
    case DDB_NODE_GE:
      return DDB_SK_GE;
    case DDB_NODE_BETWEEN:
      return DDB_SK_BETWEEN;
    case DDB_NODE_BEGINS_WITH:
      return DDB_SK_BEGINS_WITH;
    default:
      return DDB_SK_NONE;
    }
}

void
ddb_key_condition_clear (DdbKeyCondition *kc)
{
  if (kc == NULL)
    return;
  g_clear_pointer (&kc->pk, ddb_value_free);
  g_clear_pointer (&kc->sk[0], ddb_value_free);
  g_clear_pointer (&kc->sk[1], ddb_value_free);
  kc->sk_op = DDB_SK_NONE;
}

gboolean
ddb_key_condition_analyze (const DdbNode *cond, const DdbKeySchema *schema, DdbKeyCondition *out,
                           GError **error)
{
  g_autoptr (GArray) leaves = g_array_new (FALSE, TRUE, sizeof (Leaf));
  const Leaf *pk, *sk = NULL;

  g_return_val_if_fail (cond != NULL && schema != NULL && out != NULL, FALSE);
  memset (out, 0, sizeof *out);

  if (!collect (cond, leaves, error))
    return FALSE;
  if (leaves->len != 1 && leaves->len != 2)
    return ddb_set_validation_error (error, "Conditions can be of length 1 or 2 only");

  pk = find_leaf (leaves, schema->pk_name);
  if (pk == NULL)
    return ddb_set_validation_error (error, "Query condition missed key schema element: %s",
                                     schema->pk_name);
  if (leaves->len == 2)
    {
      if (schema->sk_name == NULL)
        return ddb_set_validation_error (error, "Query key condition not supported");
      sk = find_leaf (leaves, schema->sk_name);
      if (sk == NULL)
        return ddb_set_validation_error (error, "Query condition missed key schema element: %s",
                                         schema->sk_name);
    }
  if (pk->op != DDB_NODE_EQ)
    return ddb_set_validation_error (error, "Query key condition not supported");
  if (!check_types (pk, schema->pk_type, error)
      || (sk != NULL && !check_types (sk, schema->sk_type, error)))
    return FALSE;

  out->pk = ddb_value_copy (pk->vals[0]);
  out->sk_op = sk != NULL ? sort_key_op (sk->op) : DDB_SK_NONE;
  for (guint i = 0; sk != NULL && i < sk->n_vals; i++)
    out->sk[i] = ddb_value_copy (sk->vals[i]);
  return TRUE;
}
