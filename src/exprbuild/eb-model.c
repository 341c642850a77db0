/* eb-model.c: the builder's rows and their ownership. */
#include "exprbuild/exprbuild.h"

#include <string.h>

static const char *const operation_names[] = {
  [DDB_EB_QUERY] = "Query",
  [DDB_EB_SCAN] = "Scan",
  [DDB_EB_GET_ITEM] = "GetItem",
  [DDB_EB_PUT_ITEM] = "PutItem",
  [DDB_EB_UPDATE_ITEM] = "UpdateItem",
  [DDB_EB_DELETE_ITEM] = "DeleteItem",
};

const char *
ddb_eb_operation_name (DdbEbOperation operation)
{
  g_return_val_if_fail (operation <= DDB_EB_DELETE_ITEM, NULL);
  return operation_names[operation];
}

gboolean
ddb_eb_operation_from_name (const char *name, DdbEbOperation *out)
{
  for (guint i = 0; i < G_N_ELEMENTS (operation_names); i++)
    if (g_strcmp0 (name, operation_names[i]) == 0)
      {
        *out = (DdbEbOperation) i;
        return TRUE;
      }
  return FALSE;
}

/* ---- Conditions ------------------------------------------------------------------------ */

DdbEbCond *
ddb_eb_cond_new_group (DdbEbCondKind kind)
{
  DdbEbCond *c;

  g_return_val_if_fail (kind == DDB_EB_AND || kind == DDB_EB_OR || kind == DDB_EB_NOT, NULL);
  c = g_new0 (DdbEbCond, 1);
  c->kind = kind;
  c->children = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_eb_cond_free);
  return c;
}

DdbEbCond *
ddb_eb_cond_new_test (DdbNode *node)
{
  DdbEbCond *c = g_new0 (DdbEbCond, 1);

  c->kind = DDB_EB_TEST;
  c->node = node;
  return c;
}

DdbEbCond *
ddb_eb_cond_new_raw (DdbEbRaw *raw)
{
  DdbEbCond *c;

  g_return_val_if_fail (raw->type != DDB_EXPR_UPDATE, NULL);
  c = g_new0 (DdbEbCond, 1);
  c->kind = DDB_EB_RAW;
  c->raw = raw;
  return c;
}

DdbEbCond *
ddb_eb_cond_add (DdbEbCond *group, DdbEbCond *child)
{
  g_return_val_if_fail (group->children != NULL, NULL);
  g_ptr_array_add (group->children, child);
  return child;
}

void
ddb_eb_cond_free (DdbEbCond *cond)
{
  if (cond == NULL)
    return;
  g_clear_pointer (&cond->children, g_ptr_array_unref);
  ddb_node_free (cond->node);
  ddb_eb_raw_free (cond->raw);
  g_free (cond);
}

/* ---- Update actions -------------------------------------------------------------------- */

DdbEbAction *
ddb_eb_action_new (DdbUpdateKind kind, const DdbPath *path, DdbNode *operand)
{
  DdbEbAction *a = g_new0 (DdbEbAction, 1);

  a->kind = kind;
  ddb_path_copy (&a->path, path);
  a->operand = operand;
  return a;
}

DdbEbAction *
ddb_eb_action_new_raw (DdbEbRaw *raw)
{
  DdbEbAction *a;

  g_return_val_if_fail (raw->type == DDB_EXPR_UPDATE, NULL);
  a = g_new0 (DdbEbAction, 1);
  a->kind = DDB_UPDATE_SET;
  a->raw = raw;
  return a;
}

void
ddb_eb_action_free (DdbEbAction *action)
{
  if (action == NULL)
    return;
  ddb_path_clear (&action->path);
  ddb_node_free (action->operand);
  ddb_eb_raw_free (action->raw);
  g_free (action);
}

/* ---- The model ------------------------------------------------------------------------- */

DdbEbModel *
ddb_eb_model_new (DdbEbOperation operation)
{
  DdbEbModel *m = g_new0 (DdbEbModel, 1);

  m->operation = operation;
  m->condition = ddb_eb_cond_new_group (DDB_EB_AND);
  m->projection = g_array_new (FALSE, TRUE, sizeof (DdbPath));
  g_array_set_clear_func (m->projection, (GDestroyNotify) ddb_path_clear);
  m->actions = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_eb_action_free);
  return m;
}

static void
clear_key (DdbEbModel *m)
{
  g_clear_pointer (&m->pk_name, g_free);
  g_clear_pointer (&m->pk_value, ddb_value_free);
  g_clear_pointer (&m->sk_name, g_free);
  g_clear_pointer (&m->sk_values[0], ddb_value_free);
  g_clear_pointer (&m->sk_values[1], ddb_value_free);
  g_clear_pointer (&m->key_raw, ddb_eb_raw_free);
  m->sk_op = DDB_SK_NONE;
}

void
ddb_eb_model_clear (DdbEbModel *m)
{
  clear_key (m);
  ddb_eb_cond_free (m->condition);
  m->condition = ddb_eb_cond_new_group (DDB_EB_AND);
  g_array_set_size (m->projection, 0);
  g_ptr_array_set_size (m->actions, 0);
}

void
ddb_eb_model_free (DdbEbModel *m)
{
  if (m == NULL)
    return;
  clear_key (m);
  g_free (m->schema_pk);
  g_free (m->schema_sk);
  ddb_eb_cond_free (m->condition);
  g_array_unref (m->projection);
  g_ptr_array_unref (m->actions);
  g_free (m);
}

void
ddb_eb_model_set_key_schema (DdbEbModel *m, const char *pk, const char *sk)
{
  g_free (m->schema_pk);
  g_free (m->schema_sk);
  m->schema_pk = g_strdup (pk);
  m->schema_sk = g_strdup (sk);
}

void
ddb_eb_model_set_partition_key (DdbEbModel *m, const char *name, DdbValue *value)
{
  g_clear_pointer (&m->key_raw, ddb_eb_raw_free);
  g_free (m->pk_name);
  m->pk_name = g_strdup (name);
  if (m->pk_value != NULL)
    ddb_value_free (m->pk_value);
  m->pk_value = value;
}

void
ddb_eb_model_set_sort_key (DdbEbModel *m, const char *name, DdbSortKeyOp op, DdbValue *value,
                           DdbValue *value2)
{
  g_clear_pointer (&m->key_raw, ddb_eb_raw_free);
  g_clear_pointer (&m->sk_name, g_free);
  g_clear_pointer (&m->sk_values[0], ddb_value_free);
  g_clear_pointer (&m->sk_values[1], ddb_value_free);
  m->sk_op = op;
  if (op == DDB_SK_NONE)
    {
      g_clear_pointer (&value, ddb_value_free);
      g_clear_pointer (&value2, ddb_value_free);
      return;
    }
  m->sk_name = g_strdup (name);
  m->sk_values[0] = value;
  m->sk_values[1] = value2;
}

void
ddb_eb_model_set_key_raw (DdbEbModel *m, DdbEbRaw *raw)
{
  g_return_if_fail (raw->type == DDB_EXPR_KEY_CONDITION);
  clear_key (m);
  m->key_raw = raw;
}

void
ddb_eb_model_add_projection (DdbEbModel *m, const DdbPath *path)
{
  DdbPath copy;

  ddb_path_copy (&copy, path);
  g_array_append_val (m->projection, copy);
}

DdbEbAction *
ddb_eb_model_add_action (DdbEbModel *m, DdbEbAction *action)
{
  g_ptr_array_add (m->actions, action);
  return action;
}
