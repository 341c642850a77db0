/* expr-update.c: applying an UpdateExpression (SET, REMOVE, ADD, DELETE) to an item, with
 * DynamoDB's semantics: every operand is read from the item as it was before the update, list
 * indices refer to the original positions, and a failed update changes nothing. */
#include "core/expr.h"

#include <string.h>

#include "core/error.h"

#define MSG_NO_ATTRIBUTE \
  "The provided expression refers to an attribute that does not exist in the item"
#define MSG_BAD_TYPE "An operand in the update expression has an incorrect data type"
#define MSG_BAD_PATH "The document path provided in the update expression is invalid for update"

/* ---- Operands ------------------------------------------------------------------------- */

static const DdbValue *operand_eval (const DdbNode *n, const DdbValue *item, DdbValue **owned,
                                     GError **error);

/* Evaluates the two operands of `n` (a + b, a - b, list_append), in order, and requires both to
 * be of `type`. Each result is borrowed or held in its `owned_` as for operand_eval. */
static gboolean
operand_pair_eval (const DdbNode *n, const DdbValue *item, DdbType type, const DdbValue **a,
                   DdbValue **owned_a, const DdbValue **b, DdbValue **owned_b, GError **error)
{
  *a = operand_eval (n->args[0], item, owned_a, error);
  if (*a == NULL)
    return FALSE;
  *b = operand_eval (n->args[1], item, owned_b, error);
  if (*b == NULL)
    return FALSE;
  if ((*a)->type != type || (*b)->type != type)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, MSG_BAD_TYPE);
      return FALSE;
    }
  return TRUE;
}

/* Evaluates a SET operand against the item before the update. Returns the value, borrowed
 * from the item or the expression, or held in `*owned` (which the caller then frees); NULL
 * with `error` set on failure. */
static const DdbValue *
operand_eval (const DdbNode *n, const DdbValue *item, DdbValue **owned, GError **error)
{
  const DdbValue *a, *b, *v;
  g_autoptr (DdbValue) owned_a = NULL;
  g_autoptr (DdbValue) owned_b = NULL;
  DdbNumber r;

  *owned = NULL;
  switch (n->kind)
    {
    case DDB_NODE_PATH:
      v = ddb_path_lookup (item, &n->path);
      if (v == NULL)
        g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, MSG_NO_ATTRIBUTE);
      return v;

    case DDB_NODE_VALUE:
      return n->value;

    case DDB_NODE_IF_NOT_EXISTS:
      if (n->n_args != 2 || n->args[0]->kind != DDB_NODE_PATH)
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                               "Invalid UpdateExpression: Operator or function requires a "
                               "document path; operator or function: if_not_exists");
          return NULL;
        }
      v = ddb_path_lookup (item, &n->args[0]->path);
      if (v != NULL)
        return v;
      return operand_eval (n->args[1], item, owned, error);

    case DDB_NODE_PLUS:
    case DDB_NODE_MINUS:
      if (!operand_pair_eval (n, item, DDB_TYPE_N, &a, &owned_a, &b, &owned_b, error))
        return NULL;
      if (n->kind == DDB_NODE_PLUS ? !ddb_number_add (&r, &a->number, &b->number, error)
                                   : !ddb_number_subtract (&r, &a->number, &b->number, error))
        return NULL;
      *owned = ddb_value_new_n (&r);
      return *owned;

    case DDB_NODE_LIST_APPEND:
      if (!operand_pair_eval (n, item, DDB_TYPE_L, &a, &owned_a, &b, &owned_b, error))
        return NULL;
      *owned = ddb_value_new_l_sized (a->elems->len + b->elems->len);
      for (guint i = 0; i < a->elems->len; i++)
        g_ptr_array_add ((*owned)->elems, ddb_value_copy (g_ptr_array_index (a->elems, i)));
      for (guint i = 0; i < b->elems->len; i++)
        g_ptr_array_add ((*owned)->elems, ddb_value_copy (g_ptr_array_index (b->elems, i)));
      return *owned;

    default:
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "Invalid UpdateExpression: node of kind %d is not an update operand",
                   (int) n->kind);
      return NULL;
    }
}

/* ---- Path checks ---------------------------------------------------------------------- */

static void
append_path_list (GString *s, const DdbPath *p)
{
  g_string_append_c (s, '[');
  for (guint i = 0; i < p->n; i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      if (p->elems[i].name != NULL)
        g_string_append (s, p->elems[i].name);
      else
        g_string_append_printf (s, "[%u]", p->elems[i].index);
    }
  g_string_append_c (s, ']');
}

/* The parser refuses two actions on overlapping or conflicting paths; the check is repeated
 * here because applying such a pair could free a container another action still points into. */
static gboolean
check_paths (const DdbUpdate *u, GError **error)
{
  for (guint j = 1; j < u->n_actions; j++)
    {
      const DdbPath *q = &u->actions[j].path;

      for (guint i = 0; i < j; i++)
        {
          const DdbPath *p = &u->actions[i].path;
          guint n = MIN (p->n, q->n), k;
          gboolean conflict = FALSE;
          GString *msg;

          for (k = 0; k < n; k++)
            {
              const DdbPathElem *a = &p->elems[k], *b = &q->elems[k];

              if ((a->name == NULL) != (b->name == NULL))
                {
                  conflict = TRUE;
                  break;
                }
              if (a->name != NULL ? strcmp (a->name, b->name) != 0 : a->index != b->index)
                break;
            }
          if (k < n && !conflict)
            continue;
          msg = g_string_new (NULL);
          g_string_append_printf (msg,
                                  "Invalid UpdateExpression: Two document paths %s with each "
                                  "other; must remove or rewrite one of these paths; path one: ",
                                  conflict ? "conflict" : "overlap");
          append_path_list (msg, p);
          g_string_append (msg, ", path two: ");
          append_path_list (msg, q);
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, msg->str);
          g_string_free (msg, TRUE);
          return FALSE;
        }
    }
  return TRUE;
}

/* TRUE if something inside `v` sits more than `levels` levels below it. */
static gboolean
deeper_than (const DdbValue *v, guint levels)
{
  if (v->type == DDB_TYPE_M)
    {
      for (guint i = 0; i < v->attrs->len; i++)
        {
          if (levels == 0 || deeper_than (g_array_index (v->attrs, DdbAttr, i).value, levels - 1))
            return TRUE;
        }
    }
  else if (v->type == DDB_TYPE_L)
    {
      for (guint i = 0; i < v->elems->len; i++)
        {
          if (levels == 0 || deeper_than (g_ptr_array_index (v->elems, i), levels - 1))
            return TRUE;
        }
    }
  return FALSE;
}

/* A value put at path `p` sits at level p->n (a top-level attribute is level 1), and nothing
 * may sit deeper than DDB_MAX_NESTING. */
static gboolean
check_nesting (const DdbPath *p, const DdbValue *v, GError **error)
{
  if (p->n > DDB_MAX_NESTING || deeper_than (v, DDB_MAX_NESTING - p->n))
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, DDB_NESTING_MESSAGE);
      return FALSE;
    }
  return TRUE;
}

/* ---- Application ---------------------------------------------------------------------- */

/* A change to a list that would move other elements: done after every action found its
 * target by original position. */
typedef struct {
  DdbValue *list;
  guint32 index;
  guint seq;
  DdbValue *value; /* appended value (owned), NULL for a removal */
} ListOp;

typedef struct {
  DdbValue *work;       /* the copy being updated */
  gboolean item_is_new; /* the item has no attribute at all: it does not exist */
  gboolean legacy;      /* the update is AttributeUpdates' */
  GArray *removals;     /* ListOp */
  GArray *appends;      /* ListOp */
} Apply;

static void
list_op_clear (gpointer p)
{
  ListOp *op = p;

  ddb_value_free (op->value);
}

static int
list_op_compare (const ListOp *a, const ListOp *b, gboolean descending)
{
  if (a->list != b->list)
    return (guintptr) a->list < (guintptr) b->list ? -1 : 1;
  if (a->index != b->index)
    return (a->index < b->index) != descending ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static gint
removal_compare (gconstpointer a, gconstpointer b)
{
  return list_op_compare (a, b, TRUE);
}

static gint
append_compare (gconstpointer a, gconstpointer b)
{
  return list_op_compare (a, b, FALSE);
}

/* The container holding the last step of `p`, or NULL when it is missing or of the wrong kind
 * (a map for a name, a list for an index); the caller decides whether that is an error. */
static DdbValue *
find_parent (DdbValue *work, const DdbPath *p)
{
  const DdbPathElem *last = &p->elems[p->n - 1];
  DdbValue *parent;

  if (p->n == 1)
    parent = work;
  else
    {
      DdbPath head = { p->n - 1, p->elems };
      parent = ddb_path_lookup (work, &head);
    }
  if (parent == NULL || parent->type != (last->name != NULL ? DDB_TYPE_M : DDB_TYPE_L))
    return NULL;
  return parent;
}

/* The current value at the last step of `p` inside `parent`, or NULL. */
static DdbValue *
child (DdbValue *parent, const DdbPathElem *e)
{
  if (e->name != NULL)
    return ddb_value_map_get (parent, e->name);
  return ddb_value_list_nth (parent, e->index);
}

static void
put (Apply *ap, DdbValue *parent, const DdbPathElem *e, guint seq, DdbValue *v)
{
  if (e->name != NULL)
    ddb_value_map_set (parent, e->name, v);
  else if (e->index < parent->elems->len)
    {
      DdbValue **slot = (DdbValue **) &g_ptr_array_index (parent->elems, e->index);
      ddb_value_free (*slot);
      *slot = v;
    }
  else
    {
      /* Past the end: appended, in the order of the indices written. */
      ListOp op = { parent, e->index, seq, v };
      g_array_append_val (ap->appends, op);
    }
}

static void
take_out (Apply *ap, DdbValue *parent, const DdbPathElem *e, guint seq)
{
  if (e->name != NULL)
    ddb_value_map_remove (parent, e->name);
  else if (e->index < parent->elems->len)
    {
      ListOp op = { parent, e->index, seq, NULL };
      g_array_append_val (ap->removals, op);
    }
}

static gboolean
bad_type (GError **error)
{
  g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, MSG_BAD_TYPE);
  return FALSE;
}

/* ADD or DELETE into an attribute of another type. */
static gboolean
mismatch (const Apply *ap, GError **error)
{
  if (!ap->legacy)
    return bad_type (error);
  g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "Type mismatch for attribute to update");
  return FALSE;
}

static gboolean
apply_add (Apply *ap, DdbValue *parent, const DdbUpdateAction *a, guint seq, const DdbValue *v,
           GError **error)
{
  const DdbPathElem *e = &a->path.elems[a->path.n - 1];
  DdbValue *cur = child (parent, e);
  DdbNumber r;

  if (v->type != DDB_TYPE_N && !ddb_type_is_set (v->type))
    return bad_type (error);
  if (cur == NULL)
    {
      /* A missing number starts from 0, a missing set from the empty set. */
      put (ap, parent, e, seq, ddb_value_copy (v));
      return TRUE;
    }
  if (cur->type != v->type)
    return mismatch (ap, error);
  if (v->type == DDB_TYPE_N)
    {
      if (!ddb_number_add (&r, &cur->number, &v->number, error))
        return FALSE;
      cur->number = r;
      return TRUE;
    }
  for (guint i = 0; i < v->elems->len; i++)
    ddb_value_set_add (cur, ddb_value_copy (g_ptr_array_index (v->elems, i)));
  return TRUE;
}

static gboolean
apply_delete (Apply *ap, DdbValue *parent, const DdbUpdateAction *a, guint seq, const DdbValue *v,
              GError **error)
{
  const DdbPathElem *e = &a->path.elems[a->path.n - 1];
  DdbValue *cur = child (parent, e);

  if (!ddb_type_is_set (v->type))
    return bad_type (error);
  if (cur == NULL)
    return TRUE;
  if (cur->type != v->type)
    return mismatch (ap, error);
  for (guint i = 0; i < v->elems->len && cur->elems->len > 0; i++)
    ddb_value_set_remove (cur, g_ptr_array_index (v->elems, i));
  /* A set cannot be empty: removing its last element removes the attribute. */
  if (cur->elems->len == 0)
    take_out (ap, parent, e, seq);
  return TRUE;
}

static gboolean
apply_action (Apply *ap, const DdbUpdateAction *a, guint seq, DdbValue **owned, const DdbValue *v,
              GError **error)
{
  const DdbPathElem *e;
  DdbValue *parent;

  if (a->path.n == 0 || a->path.elems[0].name == NULL)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, MSG_BAD_PATH);
      return FALSE;
    }
  e = &a->path.elems[a->path.n - 1];
  parent = find_parent (ap->work, &a->path);
  if (parent == NULL)
    {
      /* DynamoDB ignores a REMOVE below a missing attribute only when the whole item is
       * missing. */
      if (a->kind == DDB_UPDATE_REMOVE && ap->item_is_new)
        return TRUE;
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, MSG_BAD_PATH);
      return FALSE;
    }

  switch (a->kind)
    {
    case DDB_UPDATE_SET:
      if (!check_nesting (&a->path, v, error))
        return FALSE;
      put (ap, parent, e, seq, *owned != NULL ? g_steal_pointer (owned) : ddb_value_copy (v));
      return TRUE;
    case DDB_UPDATE_REMOVE:
      take_out (ap, parent, e, seq);
      return TRUE;
    case DDB_UPDATE_ADD:
      return apply_add (ap, parent, a, seq, v, error);
    case DDB_UPDATE_DELETE:
      return apply_delete (ap, parent, a, seq, v, error);
    default:
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "Invalid UpdateExpression: unknown action kind %d", (int) a->kind);
      return FALSE;
    }
}

static void
apply_list_ops (Apply *ap)
{
  g_array_sort (ap->removals, removal_compare);
  for (guint i = 0; i < ap->removals->len; i++)
    {
      ListOp *op = &g_array_index (ap->removals, ListOp, i);

      if (i > 0)
        {
          ListOp *prev = &g_array_index (ap->removals, ListOp, i - 1);
          if (prev->list == op->list && prev->index == op->index)
            continue;
        }
      g_ptr_array_remove_index (op->list->elems, op->index);
    }

  g_array_sort (ap->appends, append_compare);
  for (guint i = 0; i < ap->appends->len; i++)
    {
      ListOp *op = &g_array_index (ap->appends, ListOp, i);
      g_ptr_array_add (op->list->elems, g_steal_pointer (&op->value));
    }
}

gboolean
ddb_update_apply (const DdbUpdate *u, DdbValue *item, GError **error)
{
  const DdbValue **vals;
  DdbValue **owned;
  Apply ap;
  gboolean ok = TRUE;
  GArray *tmp;

  g_return_val_if_fail (u != NULL, FALSE);
  g_return_val_if_fail (item != NULL && item->type == DDB_TYPE_M, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_paths (u, error))
    return FALSE;

  /* Every operand is read before anything is written. */
  vals = g_new0 (const DdbValue *, u->n_actions + 1);
  owned = g_new0 (DdbValue *, u->n_actions + 1);
  for (guint i = 0; i < u->n_actions && ok; i++)
    {
      const DdbUpdateAction *a = &u->actions[i];

      if (a->kind == DDB_UPDATE_REMOVE)
        continue;
      if (a->operand == NULL)
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                               "Invalid UpdateExpression: an action lacks its operand");
          ok = FALSE;
          break;
        }
      vals[i] = operand_eval (a->operand, item, &owned[i], error);
      ok = vals[i] != NULL;
    }

  ap.work = NULL;
  ap.legacy = u->legacy;
  ap.removals = NULL;
  ap.appends = NULL;
  if (ok)
    {
      ap.work = ddb_value_copy (item);
      ap.item_is_new = item->attrs->len == 0;
      ap.removals = g_array_new (FALSE, FALSE, sizeof (ListOp));
      ap.appends = g_array_new (FALSE, FALSE, sizeof (ListOp));
      g_array_set_clear_func (ap.appends, list_op_clear);
      for (guint i = 0; i < u->n_actions && ok; i++)
        ok = apply_action (&ap, &u->actions[i], i, &owned[i], vals[i], error);
    }

  if (ok)
    {
      apply_list_ops (&ap);
      /* The update succeeded: the item takes the new attributes, the copy the old ones. */
      tmp = item->attrs;
      item->attrs = ap.work->attrs;
      ap.work->attrs = tmp;
    }

  for (guint i = 0; i < u->n_actions; i++)
    ddb_value_free (owned[i]);
  g_free (owned);
  g_free (vals);
  ddb_value_free (ap.work);
  if (ap.removals != NULL)
    g_array_unref (ap.removals);
  if (ap.appends != NULL)
    g_array_unref (ap.appends);
  return ok;
}

static gboolean
same_prefix (const DdbPath *a, const DdbPath *b, guint k)
{
  for (guint i = 0; i < k; i++)
    {
      const DdbPathElem *x = &a->elems[i], *y = &b->elems[i];

      if ((x->name == NULL) != (y->name == NULL))
        return FALSE;
      if (x->name != NULL ? strcmp (x->name, y->name) != 0 : x->index != y->index)
        return FALSE;
    }
  return TRUE;
}

/* Where the list element at step `j` of `p` (an index into `list`, as in the old item) sits
 * once `u` is applied: removals from the same list close up the gaps below it, and an index
 * past the end lands after the survivors, in the order of the indices written (as
 * apply_list_ops does). */
static guint32
landed_index (const DdbUpdate *u, const DdbPath *p, guint j, const DdbValue *list)
{
  guint32 idx = p->elems[j].index, len = list->elems->len;
  guint removed = 0, removed_below = 0, appended_below = 0;

  for (guint i = 0; i < u->n_actions; i++)
    {
      const DdbPath *q = &u->actions[i].path;
      guint32 qi;

      if (q->n != j + 1 || q->elems[j].name != NULL || !same_prefix (p, q, j))
        continue;
      qi = q->elems[j].index;
      if (u->actions[i].kind == DDB_UPDATE_REMOVE)
        {
          removed += qi < len;
          removed_below += qi < len && qi < idx;
        }
      else
        appended_below += qi >= len && qi < idx;
    }
  if (idx < len)
    return idx - removed_below;
  return len - removed + appended_below;
}

DdbProjection *
ddb_update_touched_paths (const DdbUpdate *u, const DdbValue *old_item, gboolean after)
{
  DdbProjection *p = g_new0 (DdbProjection, 1);

  p->paths = g_new0 (DdbPath, u->n_actions);
  for (guint i = 0; i < u->n_actions; i++)
    {
      const DdbPath *src = &u->actions[i].path;
      DdbPath *dst;

      if (after && u->actions[i].kind == DDB_UPDATE_REMOVE)
        continue;
      dst = &p->paths[p->n_paths++];
      ddb_path_copy (dst, src);
      for (guint j = 1; after && old_item != NULL && j < src->n; j++)
        {
          DdbPath prefix = { j, src->elems };
          const DdbValue *list;

          if (src->elems[j].name != NULL)
            continue;
          list = ddb_path_lookup (old_item, &prefix);
          if (list != NULL && list->type == DDB_TYPE_L)
            dst->elems[j].index = landed_index (u, src, j, list);
        }
    }
  return p;
}
