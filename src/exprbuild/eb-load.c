/* eb-load.c: a pasted request (or one expression with its maps) back into the builder's rows,
 * through core's parser so that every error is the one DynamoDB would give. */
#include "exprbuild/eb-private.h"

#include <string.h>

#include "core/error.h"

static const char *const legacy_members[] = {
  "KeyConditions", "QueryFilter",      "ScanFilter",          "AttributesToGet",
  "Expected",      "AttributeUpdates", "ConditionalOperator",
};

static const struct {
  const char *member;
  DdbExprType type;
} expression_members[] = {
  { "KeyConditionExpression", DDB_EXPR_KEY_CONDITION },
  { "FilterExpression", DDB_EXPR_FILTER },
  { "ConditionExpression", DDB_EXPR_CONDITION },
  { "ProjectionExpression", DDB_EXPR_PROJECTION },
  { "UpdateExpression", DDB_EXPR_UPDATE },
};

static gboolean
operation_takes (DdbEbOperation op, DdbExprType type)
{
  switch (type)
    {
    case DDB_EXPR_KEY_CONDITION:
      return op == DDB_EB_QUERY;
    case DDB_EXPR_FILTER:
      return op == DDB_EB_QUERY || op == DDB_EB_SCAN;
    case DDB_EXPR_CONDITION:
      return op == DDB_EB_PUT_ITEM || op == DDB_EB_UPDATE_ITEM || op == DDB_EB_DELETE_ITEM;
    case DDB_EXPR_PROJECTION:
      return op == DDB_EB_QUERY || op == DDB_EB_SCAN || op == DDB_EB_GET_ITEM;
    case DDB_EXPR_UPDATE:
      return op == DDB_EB_UPDATE_ITEM;
    default:
      return FALSE;
    }
}

/* The parsed expressions of one request or one text. */
typedef struct {
  DdbNode *key;
  DdbNode *condition;
  DdbProjection *projection;
  DdbUpdate *update;
} Trees;

static void
trees_clear (Trees *t)
{
  g_clear_pointer (&t->key, ddb_node_free);
  g_clear_pointer (&t->condition, ddb_node_free);
  g_clear_pointer (&t->projection, ddb_projection_free);
  g_clear_pointer (&t->update, ddb_update_free);
}

static gboolean
parse_into (Trees *t, DdbExprType type, const char *text, DdbExprContext *ctx, GError **error)
{
  switch (type)
    {
    case DDB_EXPR_KEY_CONDITION:
      t->key = ddb_condition_parse (type, text, ctx, error);
      return t->key != NULL;
    case DDB_EXPR_PROJECTION:
      t->projection = ddb_projection_parse (text, ctx, error);
      return t->projection != NULL;
    case DDB_EXPR_UPDATE:
      t->update = ddb_update_parse (text, ctx, error);
      return t->update != NULL;
    default:
      t->condition = ddb_condition_parse (type, text, ctx, error);
      return t->condition != NULL;
    }
}

/* ---- Trees to rows --------------------------------------------------------------------- */

/* Rows get the builder's own aliases, not the ones the pasted text happened to use. */
static DdbNode *
copy_unwritten (const DdbNode *n)
{
  DdbNode *copy = ddb_eb_node_copy (n);
  GPtrArray *todo = g_ptr_array_new ();

  g_ptr_array_add (todo, copy);
  while (todo->len > 0)
    {
      DdbNode *x = g_ptr_array_steal_index_fast (todo, todo->len - 1);

      g_clear_pointer (&x->placeholder, g_free);
      for (guint i = 0; i < x->n_args; i++)
        g_ptr_array_add (todo, x->args[i]);
    }
  g_ptr_array_unref (todo);
  return copy;
}

static DdbEbRaw *
raw_condition (DdbExprType type, const DdbNode *node, GError **error)
{
  EbAliases a;
  GString *text = g_string_new (NULL);
  g_autoptr (GHashTable) names = NULL;
  DdbEbRaw *raw;

  eb_aliases_init (&a, FALSE);
  eb_render_condition (&a, text, node);
  names = eb_aliases_name_table (&a);
  raw = eb_raw_new_tables (type, text->str, names, a.value_tab, error);
  g_clear_pointer (&names, g_hash_table_unref);
  eb_aliases_clear (&a);
  g_string_free (text, TRUE);
  return raw;
}

static DdbEbRaw *
raw_action (const DdbUpdateAction *action, GError **error)
{
  EbActionView view = { action->kind, &action->path, action->operand };
  EbAliases a;
  GString *text = g_string_new (NULL);
  g_autoptr (GHashTable) names = NULL;
  DdbEbRaw *raw;

  eb_aliases_init (&a, FALSE);
  eb_render_update (&a, text, &view, 1);
  names = eb_aliases_name_table (&a);
  raw = eb_raw_new_tables (DDB_EXPR_UPDATE, text->str, names, a.value_tab, error);
  g_clear_pointer (&names, g_hash_table_unref);
  eb_aliases_clear (&a);
  g_string_free (text, TRUE);
  return raw;
}

static const char *
key_name (const DdbNode *n)
{
  if (n->kind != DDB_NODE_PATH || n->path.n != 1)
    return NULL;
  return n->path.elems[0].name;
}

/* name = :v, name < :v, ..., name BETWEEN :a AND :b, begins_with(name, :v) */
static gboolean
key_shaped (const DdbNode *n, DdbSortKeyOp *op)
{
  static const struct {
    DdbNodeKind kind;
    DdbSortKeyOp op;
  } ops[] = {
    { DDB_NODE_EQ, DDB_SK_EQ },
    { DDB_NODE_LT, DDB_SK_LT },
    { DDB_NODE_LE, DDB_SK_LE },
    { DDB_NODE_GT, DDB_SK_GT },
    { DDB_NODE_GE, DDB_SK_GE },
    { DDB_NODE_BETWEEN, DDB_SK_BETWEEN },
    { DDB_NODE_BEGINS_WITH, DDB_SK_BEGINS_WITH },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (n->kind == ops[i].kind)
      {
        if (key_name (n->args[0]) == NULL)
          return FALSE;
        for (guint k = 1; k < n->n_args; k++)
          if (n->args[k]->kind != DDB_NODE_VALUE || !ddb_eb_value_typeable (n->args[k]->value))
            return FALSE;
        *op = ops[i].op;
        return TRUE;
      }
  return FALSE;
}

static gboolean
fill_key (DdbEbModel *m, const DdbNode *node, GError **error)
{
  const DdbNode *pk = NULL, *sk = NULL;
  DdbSortKeyOp op0, op1;
  DdbEbRaw *raw;

  if (key_shaped (node, &op0) && op0 == DDB_SK_EQ)
    pk = node;
  else if (node->kind == DDB_NODE_AND && key_shaped (node->args[0], &op0)
           && key_shaped (node->args[1], &op1))
    {
      /* Without the key schema, the first equality is taken for the partition key. */
      gboolean first = op0 == DDB_SK_EQ
                       && (m->schema_pk == NULL
                           || g_strcmp0 (key_name (node->args[0]->args[0]), m->schema_pk) == 0);
      gboolean second = op1 == DDB_SK_EQ
                        && (m->schema_pk == NULL
                            || g_strcmp0 (key_name (node->args[1]->args[0]), m->schema_pk) == 0);

      if (first || second)
        {
          pk = node->args[first ? 0 : 1];
          sk = node->args[first ? 1 : 0];
          if (strcmp (key_name (pk->args[0]), key_name (sk->args[0])) == 0)
            pk = sk = NULL;
        }
    }
  if (pk != NULL)
    {
      ddb_eb_model_set_partition_key (m, key_name (pk->args[0]),
                                      ddb_value_copy (pk->args[1]->value));
      if (sk != NULL)
        {
          DdbSortKeyOp op;

          key_shaped (sk, &op);
          ddb_eb_model_set_sort_key (m, key_name (sk->args[0]), op,
                                     ddb_value_copy (sk->args[1]->value),
                                     sk->n_args > 2 ? ddb_value_copy (sk->args[2]->value) : NULL);
        }
      return TRUE;
    }
  raw = raw_condition (DDB_EXPR_KEY_CONDITION, node, error);
  if (raw == NULL)
    return FALSE;
  ddb_eb_model_set_key_raw (m, raw);
  return TRUE;
}

static DdbEbCond *tree_to_cond (const DdbNode *n);

/* a AND b AND c is one group of three, whatever way the text nested it. */
static void
add_flat (DdbEbCond *group, const DdbNode *n, DdbNodeKind kind)
{
  if (n->kind == kind)
    for (guint i = 0; i < n->n_args; i++)
      add_flat (group, n->args[i], kind);
  else
    ddb_eb_cond_add (group, tree_to_cond (n));
}

static DdbEbCond *
tree_to_cond (const DdbNode *n)
{
  DdbEbCond *c;

  switch (n->kind)
    {
    case DDB_NODE_AND:
    case DDB_NODE_OR:
      c = ddb_eb_cond_new_group (n->kind == DDB_NODE_AND ? DDB_EB_AND : DDB_EB_OR);
      add_flat (c, n, n->kind);
      return c;
    case DDB_NODE_NOT:
      c = ddb_eb_cond_new_group (DDB_EB_NOT);
      ddb_eb_cond_add (c, tree_to_cond (n->args[0]));
      return c;
    default:
      return ddb_eb_cond_new_test (copy_unwritten (n));
    }
}

static void
fill_condition (DdbEbModel *m, const DdbNode *node)
{
  ddb_eb_cond_free (m->condition);
  if (node->kind == DDB_NODE_AND || node->kind == DDB_NODE_OR)
    m->condition = tree_to_cond (node);
  else
    {
      m->condition = ddb_eb_cond_new_group (DDB_EB_AND);
      ddb_eb_cond_add (m->condition, tree_to_cond (node));
    }
}

static gboolean
fill_update (DdbEbModel *m, const DdbUpdate *u, GError **error)
{
  for (guint i = 0; i < u->n_actions; i++)
    {
      const DdbUpdateAction *act = &u->actions[i];

      if ((act->kind == DDB_UPDATE_SET && ddb_eb_set_form (act->operand) == DDB_EB_SET_OTHER)
          || !ddb_eb_node_typeable (act->operand))
        {
          DdbEbRaw *raw = raw_action (act, error);

          if (raw == NULL)
            return FALSE;
          ddb_eb_model_add_action (m, ddb_eb_action_new_raw (raw));
        }
      else
        ddb_eb_model_add_action (
            m, ddb_eb_action_new (act->kind, &act->path,
                                  act->operand != NULL ? copy_unwritten (act->operand) : NULL));
    }
  return TRUE;
}

static gboolean
fill (DdbEbModel *m, const Trees *t, GError **error)
{
  if (t->key != NULL && !fill_key (m, t->key, error))
    return FALSE;
  if (t->condition != NULL)
    fill_condition (m, t->condition);
  for (guint i = 0; t->projection != NULL && i < t->projection->n_paths; i++)
    ddb_eb_model_add_projection (m, &t->projection->paths[i]);
  return t->update == NULL || fill_update (m, t->update, error);
}

static DdbEbModel *
fresh_like (const DdbEbModel *m, DdbEbOperation operation)
{
  DdbEbModel *fresh = ddb_eb_model_new (operation);

  fresh->bare_names = m->bare_names;
  ddb_eb_model_set_key_schema (fresh, m->schema_pk, m->schema_sk);
  return fresh;
}

static void
swap_pointers (gpointer *a, gpointer *b)
{
  gpointer tmp = *a;

  *a = *b;
  *b = tmp;
}

static void
swap_models (DdbEbModel *a, DdbEbModel *b)
{
  DdbEbModel tmp = *a;

  *a = *b;
  *b = tmp;
}

/* ---- Entry points ---------------------------------------------------------------------- */

gboolean
ddb_eb_load (DdbEbModel *model, DdbEbOperation operation, json_t *request, GError **error)
{
  g_autoptr (GHashTable) names = NULL;
  g_autoptr (GHashTable) values = NULL;
  g_autoptr (DdbExprContext) ctx = NULL;
  g_autoptr (DdbEbModel) fresh = NULL;
  const char *op_name = ddb_eb_operation_name (operation);
  Trees t = { 0 };
  gboolean ok = TRUE;

  if (!json_is_object (request))
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "The request must be a JSON object");
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (legacy_members); i++)
    if (json_object_get (request, legacy_members[i]) != NULL)
      {
        g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                     "%s is a legacy parameter, which the builder cannot load; write it as an "
                     "expression",
                     legacy_members[i]);
        return FALSE;
      }
  for (guint i = 0; i < G_N_ELEMENTS (expression_members); i++)
    {
      json_t *member = json_object_get (request, expression_members[i].member);

      if (member == NULL)
        continue;
      if (!operation_takes (operation, expression_members[i].type))
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "%s is not a parameter of %s",
                       expression_members[i].member, op_name);
          return FALSE;
        }
      if (!json_is_string (member))
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "%s must be a string",
                       expression_members[i].member);
          return FALSE;
        }
    }
  if (!ddb_eb_read_maps (request, &names, &values, error))
    return FALSE;

  ctx = ddb_expr_context_new (names, values);
  for (guint i = 0; ok && i < G_N_ELEMENTS (expression_members); i++)
    {
      json_t *member = json_object_get (request, expression_members[i].member);

      if (member != NULL)
        ok = parse_into (&t, expression_members[i].type, json_string_value (member), ctx, error);
    }
  ok = ok && ddb_expr_context_check_unused (ctx, error);
  fresh = fresh_like (model, operation);
  ok = ok && fill (fresh, &t, error);
  trees_clear (&t);
  if (ok)
    swap_models (model, fresh);
  return ok;
}

gboolean
ddb_eb_load_expression (DdbEbModel *model, DdbExprType type, const char *text, json_t *names,
                        json_t *values, GError **error)
{
  g_autoptr (GHashTable) names_tab = NULL;
  g_autoptr (GHashTable) values_tab = NULL;
  g_autoptr (DdbExprContext) ctx = NULL;
  g_autoptr (DdbEbModel) fresh = NULL;
  Trees t = { 0 };
  gboolean ok;

  if (!eb_read_names (names, &names_tab, error) || !eb_read_values (values, &values_tab, error))
    return FALSE;
  ctx = ddb_expr_context_new (names_tab, values_tab);
  fresh = fresh_like (model, model->operation);
  ok = parse_into (&t, type, text, ctx, error) && fill (fresh, &t, error);
  trees_clear (&t);
  if (!ok)
    return FALSE;
  /* The new part goes into MODEL; the old one leaves with FRESH. */
  switch (type)
    {
    case DDB_EXPR_KEY_CONDITION:
      swap_pointers ((gpointer *) &model->pk_name, (gpointer *) &fresh->pk_name);
      swap_pointers ((gpointer *) &model->pk_value, (gpointer *) &fresh->pk_value);
      swap_pointers ((gpointer *) &model->sk_name, (gpointer *) &fresh->sk_name);
      swap_pointers ((gpointer *) &model->sk_values[0], (gpointer *) &fresh->sk_values[0]);
      swap_pointers ((gpointer *) &model->sk_values[1], (gpointer *) &fresh->sk_values[1]);
      swap_pointers ((gpointer *) &model->key_raw, (gpointer *) &fresh->key_raw);
      model->sk_op = fresh->sk_op;
      break;
    case DDB_EXPR_PROJECTION:
      swap_pointers ((gpointer *) &model->projection, (gpointer *) &fresh->projection);
      break;
    case DDB_EXPR_UPDATE:
      swap_pointers ((gpointer *) &model->actions, (gpointer *) &fresh->actions);
      break;
    default:
      swap_pointers ((gpointer *) &model->condition, (gpointer *) &fresh->condition);
      break;
    }
  return TRUE;
}
