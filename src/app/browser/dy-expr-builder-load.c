/* dy-expr-builder-load.c: the expression builder's rows filled from a loaded model: a row for
 * each test and action the rows can hold, a group row for each AND or OR group, text for the
 * rest. */
#define G_LOG_DOMAIN "dynoscope-builder"

#include <glib/gi18n.h>

#include "app/browser/dy-expr-builder-private.h"
#include "core/ddbjson.h"

/* ---- Loading a pasted request ---------------------------------------------------------- */

void
dy_expr_builder_clear_rows (DyExprBuilder *self)
{
  while (self->cond_rows->len > 0)
    {
      CondRow *row = self->cond_rows->pdata[self->cond_rows->len - 1];

      gtk_box_remove (self->condition_rows, row->box);
      g_ptr_array_remove_index (self->cond_rows, self->cond_rows->len - 1);
    }
  while (self->action_rows_->len > 0)
    {
      ActionRow *row = self->action_rows_->pdata[self->action_rows_->len - 1];

      gtk_box_remove (self->action_rows, row->box);
      g_ptr_array_remove_index (self->action_rows_, self->action_rows_->len - 1);
    }
}

void
dy_expr_builder_set_value_entry (GtkEntry *entry, GtkDropDown *type, const DdbValue *value)
{
  g_autofree char *text = ddb_eb_value_to_text (value);

  if (type != NULL)
    gtk_drop_down_set_selected (type, value->type);
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
}

static void
set_path_entry (GtkEntry *entry, const DdbPath *path)
{
  g_autofree char *text = ddb_eb_path_to_text (path);

  gtk_editable_set_text (GTK_EDITABLE (entry), text);
}

static gboolean
is_kind (const DdbNode *node, DdbNodeKind kind)
{
  return node != NULL && node->kind == kind;
}

/* Fills a new row under PARENT from a test, when a row can hold it. */
static gboolean
test_row_load (DyExprBuilder *self, CondRow *parent, const DdbNode *node, gboolean negated)
{
  CondRow *row;
  const DdbNode *subject;
  int op = -1;

  /* A row's entries would cut a string at U+0000: such a test stays raw, its values exact. */
  if (node->n_args == 0 || !ddb_eb_node_typeable (node))
    return FALSE;
  subject = node->args[0];
  for (guint i = 0; i < G_N_ELEMENTS (dy_expr_builder_comparison_kinds); i++)
    if (node->kind == dy_expr_builder_comparison_kinds[i] && node->n_args == 2
        && is_kind (node->args[1], DDB_NODE_VALUE))
      {
        if (is_kind (subject, DDB_NODE_PATH))
          op = OP_EQ + i;
        else if (is_kind (subject, DDB_NODE_SIZE) && subject->n_args == 1
                 && is_kind (subject->args[0], DDB_NODE_PATH))
          op = OP_SIZE_EQ + i, subject = subject->args[0];
      }
  if (!is_kind (subject, DDB_NODE_PATH))
    return FALSE;
  switch (node->kind)
    {
    case DDB_NODE_BEGINS_WITH:
    case DDB_NODE_CONTAINS:
      if (node->n_args == 2 && is_kind (node->args[1], DDB_NODE_VALUE))
        op = node->kind == DDB_NODE_BEGINS_WITH ? OP_BEGINS_WITH : OP_CONTAINS;
      break;
    case DDB_NODE_BETWEEN:
      if (node->n_args == 3 && is_kind (node->args[1], DDB_NODE_VALUE)
          && is_kind (node->args[2], DDB_NODE_VALUE)
          && node->args[1]->value->type == node->args[2]->value->type)
        op = OP_BETWEEN;
      break;
    case DDB_NODE_IN:
      op = OP_IN;
      for (guint i = 1; i < node->n_args; i++)
        if (!is_kind (node->args[i], DDB_NODE_VALUE)
            || node->args[i]->value->type != node->args[1]->value->type)
          op = -1;
      break;
    case DDB_NODE_ATTRIBUTE_EXISTS:
      op = OP_EXISTS;
      break;
    case DDB_NODE_ATTRIBUTE_NOT_EXISTS:
      op = OP_NOT_EXISTS;
      break;
      case DDB_NODE_ATTRIBUTE_TYPE: {
        DdbType type;

        if (node->n_args == 2 && is_kind (node->args[1], DDB_NODE_VALUE)
            && node->args[1]->value->type == DDB_TYPE_S
            && ddb_type_from_name (node->args[1]->value->bytes.data, &type))
          op = OP_TYPE;
        break;
      }
    default:
      break;
    }
  if (op < 0)
    return FALSE;
  row = dy_expr_builder_cond_row_add (self, parent);
  gtk_toggle_button_set_active (row->not_toggle, negated);
  set_path_entry (row->path, &subject->path);
  gtk_drop_down_set_selected (row->op, op);
  if (op == OP_TYPE)
    {
      DdbType type = DDB_TYPE_S;

      ddb_type_from_name (node->args[1]->value->bytes.data, &type);
      gtk_drop_down_set_selected (row->type, type);
    }
  else if (op == OP_IN)
    {
      json_auto_t *array = json_array ();
      g_autofree char *text = NULL;

      gtk_drop_down_set_selected (row->type, node->args[1]->value->type);
      for (guint i = 1; i < node->n_args; i++)
        {
          g_autofree char *element = ddb_eb_value_to_text (node->args[i]->value);
          json_t *parsed = node->args[i]->value->type == DDB_TYPE_S
                               ? NULL
                               : json_loads (element, JSON_DECODE_ANY, NULL);

          const DdbValue *v = node->args[i]->value;

          json_array_append_new (array, parsed != NULL ? parsed
                                        : v->type == DDB_TYPE_S
                                            ? json_stringn (v->bytes.data, v->bytes.len)
                                            : json_string (element));
        }
      text = json_dumps (array, JSON_COMPACT);
      gtk_editable_set_text (GTK_EDITABLE (row->value), text);
    }
  else if (op != OP_EXISTS && op != OP_NOT_EXISTS)
    {
      dy_expr_builder_set_value_entry (row->value, row->type, node->args[1]->value);
      if (op == OP_BETWEEN)
        dy_expr_builder_set_value_entry (row->value2, NULL, node->args[2]->value);
    }
  return TRUE;
}

/* A condition the rows cannot hold (a nested group, a NOT around several): its text, rendered
 * on its own, as a raw row. COND stays the loaded model's: it is lent to a scratch model for
 * that and taken back. */
static void
raw_row_load (DyExprBuilder *self, CondRow *parent, DdbEbCond *cond)
{
  g_autoptr (DdbEbModel) one = ddb_eb_model_new (DDB_EB_SCAN);
  json_auto_t *request = json_object ();
  g_autoptr (GError) error = NULL;

  ddb_eb_cond_add (one->condition, cond);
  if (ddb_eb_render (one, request, &error))
    {
      dy_expr_builder_cond_row_add_raw (
          self, parent, json_string_value (json_object_get (request, "FilterExpression")),
          json_object_get (request, "ExpressionAttributeNames"),
          json_object_get (request, "ExpressionAttributeValues"));
    }
  else
    g_warning ("a loaded condition does not render: %s", error->message);
  g_ptr_array_steal_index (one->condition->children, 0);
}

void
dy_expr_builder_cond_load (DyExprBuilder *self, CondRow *parent, DdbEbCond *cond)
{
  DdbEbCond *inner = cond;
  gboolean negated = FALSE;

  if (cond->kind == DDB_EB_NOT && cond->children->len == 1)
    {
      inner = cond->children->pdata[0];
      negated = TRUE;
    }
  if (inner->kind == DDB_EB_TEST && test_row_load (self, parent, inner->node, negated))
    return;
  if (inner->kind == DDB_EB_AND || inner->kind == DDB_EB_OR)
    {
      CondRow *group = dy_expr_builder_cond_group_add (self, parent);

      /* The group comes with an empty row to fill in: the loaded rows take its place. */
      gtk_box_remove (group->children_box, ((CondRow *) group->children->pdata[0])->box);
      g_ptr_array_remove_index (group->children, 0);
      gtk_toggle_button_set_active (group->not_toggle, negated);
      gtk_drop_down_set_selected (group->join, inner->kind == DDB_EB_OR ? 1 : 0);
      for (guint i = 0; i < inner->children->len; i++)
        dy_expr_builder_cond_load (self, group, inner->children->pdata[i]);
      return;
    }
  raw_row_load (self, parent, cond);
}

void
dy_expr_builder_action_row_load (DyExprBuilder *self, DdbEbAction *action)
{
  ActionRow *row;
  const DdbNode *operand = action->operand;
  SetForm form = FORM_VALUE;
  const DdbNode *value = NULL;
  const DdbPath *path2 = NULL;

  if (action->raw != NULL)
    {
      json_auto_t *names = json_object ();
      json_auto_t *values = json_object ();
      GHashTableIter iter;
      gpointer key, v;

      g_hash_table_iter_init (&iter, action->raw->names);
      while (g_hash_table_iter_next (&iter, &key, &v))
        json_object_set_new (names, key, json_string (v));
      g_hash_table_iter_init (&iter, action->raw->values);
      while (g_hash_table_iter_next (&iter, &key, &v))
        json_object_set_new (values, key, ddb_value_to_json (v));
      dy_expr_builder_action_row_add_raw (self, action->raw->text, names, values);
      return;
    }
  if (action->kind == DDB_UPDATE_SET)
    switch (ddb_eb_set_form (operand))
      {
      case DDB_EB_SET_VALUE:
        value = operand;
        break;
      case DDB_EB_SET_PATH:
        form = FORM_PATH;
        path2 = &operand->path;
        break;
      case DDB_EB_SET_PLUS:
      case DDB_EB_SET_MINUS:
      case DDB_EB_SET_IF_NOT_EXISTS:
      case DDB_EB_SET_LIST_APPEND:
        if (is_kind (operand->args[0], DDB_NODE_PATH) && is_kind (operand->args[1], DDB_NODE_VALUE))
          {
            form = operand->kind == DDB_NODE_PLUS            ? FORM_PLUS
                   : operand->kind == DDB_NODE_MINUS         ? FORM_MINUS
                   : operand->kind == DDB_NODE_IF_NOT_EXISTS ? FORM_IF_NOT_EXISTS
                                                             : FORM_LIST_APPEND;
            path2 = &operand->args[0]->path;
            value = operand->args[1];
            break;
          }
        G_GNUC_FALLTHROUGH;
      case DDB_EB_SET_OTHER:
        default: {
          /* A shape the rows cannot hold (if_not_exists inside +, list_append(:v, path)):
           * its own text. */
          g_autoptr (DdbEbModel) one = ddb_eb_model_new (DDB_EB_UPDATE_ITEM);
          json_auto_t *request = json_object ();

          ddb_eb_model_add_action (
              one, ddb_eb_action_new (action->kind, &action->path, ddb_eb_node_copy (operand)));
          if (ddb_eb_render (one, request, NULL))
            {
              dy_expr_builder_action_row_add_raw (
                  self, json_string_value (json_object_get (request, "UpdateExpression")),
                  json_object_get (request, "ExpressionAttributeNames"),
                  json_object_get (request, "ExpressionAttributeValues"));
            }
          return;
        }
      }
  else
    value = operand;
  row = dy_expr_builder_action_row_add (self);
  for (guint i = 0; i < G_N_ELEMENTS (dy_expr_builder_action_kinds); i++)
    if (dy_expr_builder_action_kinds[i] == action->kind)
      gtk_drop_down_set_selected (row->kind, i);
  set_path_entry (row->path, &action->path);
  gtk_drop_down_set_selected (row->form, form);
  if (path2 != NULL && !ddb_eb_path_equal (path2, &action->path))
    set_path_entry (row->path2, path2);
  if (value != NULL)
    dy_expr_builder_set_value_entry (row->value, row->type, value->value);
}
