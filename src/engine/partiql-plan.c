/* partiql-plan.c: a PartiQL statement as the request of the DynamoDB operation it stands for:
 * its WHERE split into key and condition, its expressions printed with placeholders, its
 * projection applied to the items read. */
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "engine/partiql-private.h"
#include "engine/request.h"

/* ---- Printing expressions ---- */

void
pql_expr_init (PqlExpr *x)
{
  x->names = json_object ();
  x->values = json_object ();
  x->name_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

void
pql_expr_clear (PqlExpr *x)
{
  g_clear_pointer (&x->names, json_decref);
  g_clear_pointer (&x->values, json_decref);
  g_clear_pointer (&x->name_ids, g_hash_table_unref);
}

void
pql_expr_attach (PqlExpr *x, json_t *request)
{
  if (json_object_size (x->names) > 0)
    json_object_set (request, "ExpressionAttributeNames", x->names);
  if (json_object_size (x->values) > 0)
    json_object_set (request, "ExpressionAttributeValues", x->values);
}

char *
pql_expr_name (PqlExpr *x, const char *name)
{
  const char *id = g_hash_table_lookup (x->name_ids, name);
  char *fresh;

  if (id != NULL)
    return g_strdup (id);
  fresh = g_strdup_printf ("#n%u", g_hash_table_size (x->name_ids));
  json_object_set_new (x->names, fresh, json_string (name));
  g_hash_table_insert (x->name_ids, g_strdup (name), g_strdup (fresh));
  return fresh;
}

char *
pql_expr_value (PqlExpr *x, const DdbValue *value)
{
  char *id = g_strdup_printf (":v%zu", json_object_size (x->values));

  json_object_set_new (x->values, id, ddb_value_to_json (value));
  return id;
}

static void
print_path (PqlExpr *x, GString *out, const DdbPath *p)
{
  for (guint i = 0; i < p->n; i++)
    {
      if (p->elems[i].name != NULL)
        {
          g_autofree char *id = pql_expr_name (x, p->elems[i].name);

          g_string_append_printf (out, "%s%s", i > 0 ? "." : "", id);
        }
      else
        g_string_append_printf (out, "[%u]", p->elems[i].index);
    }
}

static void print_node (PqlExpr *x, GString *out, const DdbNode *n);

static void
print_call (PqlExpr *x, GString *out, const char *name, const DdbNode *n)
{
  g_string_append_printf (out, "%s(", name);
  for (guint i = 0; i < n->n_args; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      print_node (x, out, n->args[i]);
    }
  g_string_append_c (out, ')');
}

static void
print_node (PqlExpr *x, GString *out, const DdbNode *n)
{
  const char *op = ddb_node_kind_operator (n->kind);

  switch (n->kind)
    {
    case DDB_NODE_PATH:
      print_path (x, out, &n->path);
      return;
      case DDB_NODE_VALUE: {
        g_autofree char *id = pql_expr_value (x, n->value);

        g_string_append (out, id);
        return;
      }
    case DDB_NODE_SIZE:
      print_call (x, out, "size", n);
      return;
    case DDB_NODE_IF_NOT_EXISTS:
      print_call (x, out, "if_not_exists", n);
      return;
    case DDB_NODE_LIST_APPEND:
      print_call (x, out, "list_append", n);
      return;
    case DDB_NODE_ATTRIBUTE_EXISTS:
      print_call (x, out, "attribute_exists", n);
      return;
    case DDB_NODE_ATTRIBUTE_NOT_EXISTS:
      print_call (x, out, "attribute_not_exists", n);
      return;
    case DDB_NODE_ATTRIBUTE_TYPE:
      print_call (x, out, "attribute_type", n);
      return;
    case DDB_NODE_BEGINS_WITH:
      print_call (x, out, "begins_with", n);
      return;
    case DDB_NODE_CONTAINS:
      print_call (x, out, "contains", n);
      return;
    case DDB_NODE_BETWEEN:
      g_string_append_c (out, '(');
      print_node (x, out, n->args[0]);
      g_string_append (out, " BETWEEN ");
      print_node (x, out, n->args[1]);
      g_string_append (out, " AND ");
      print_node (x, out, n->args[2]);
      g_string_append_c (out, ')');
      return;
    case DDB_NODE_IN:
      g_string_append_c (out, '(');
      print_node (x, out, n->args[0]);
      g_string_append (out, " IN (");
      for (guint i = 1; i < n->n_args; i++)
        {
          if (i > 1)
            g_string_append (out, ", ");
          print_node (x, out, n->args[i]);
        }
      g_string_append (out, "))");
      return;
    case DDB_NODE_AND:
    case DDB_NODE_OR:
      op = n->kind == DDB_NODE_AND ? "AND" : "OR";
      break;
    case DDB_NODE_NOT:
      g_string_append (out, "(NOT ");
      print_node (x, out, n->args[0]);
      g_string_append_c (out, ')');
      return;
    default:
      break;
    }
  /* Comparisons, arithmetic, AND and OR: binary and infix. SET's arithmetic takes no
   * parentheses around it. */
  if (n->kind != DDB_NODE_PLUS && n->kind != DDB_NODE_MINUS)
    g_string_append_c (out, '(');
  print_node (x, out, n->args[0]);
  g_string_append_printf (out, " %s ", op);
  print_node (x, out, n->args[1]);
  if (n->kind != DDB_NODE_PLUS && n->kind != DDB_NODE_MINUS)
    g_string_append_c (out, ')');
}

char *
pql_print_conjuncts (PqlExpr *x, DdbNode *const *nodes, guint n)
{
  GString *out;

  if (n == 0)
    return NULL;
  out = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (out, " AND ");
      print_node (x, out, nodes[i]);
    }
  return g_string_free (out, FALSE);
}

char *
pql_print_update (PqlExpr *x, const DdbUpdate *u)
{
  static const char *const clause[] = {
    [DDB_UPDATE_SET] = "SET",
    [DDB_UPDATE_REMOVE] = "REMOVE",
    [DDB_UPDATE_ADD] = "ADD",
    [DDB_UPDATE_DELETE] = "DELETE",
  };
  GString *out = g_string_new (NULL);

  /* An UpdateExpression names each clause once: the actions are grouped by kind, in order. */
  for (guint kind = DDB_UPDATE_SET; kind <= DDB_UPDATE_DELETE; kind++)
    {
      gboolean first = TRUE;

      for (guint i = 0; i < u->n_actions; i++)
        {
          const DdbUpdateAction *a = &u->actions[i];

          if (a->kind != kind)
            continue;
          g_string_append_printf (out, first ? "%s%s " : ", ", out->len > 0 ? " " : "",
                                  clause[kind]);
          first = FALSE;
          print_path (x, out, &a->path);
          if (a->kind == DDB_UPDATE_SET)
            g_string_append (out, " = ");
          else if (a->operand != NULL)
            g_string_append_c (out, ' ');
          if (a->operand != NULL)
            print_node (x, out, a->operand);
        }
    }
  return g_string_free (out, FALSE);
}

/* ---- Tables and keys ---- */

DdbTableDef *
pql_table (DdbEngine *e, const DdbPqlStatement *s, const DdbIndexDef **index, GError **error)
{
  GError *local = NULL;
  DdbTableDef *def = ddb_store_table_get (e->store, s->table, &local);

  if (def == NULL)
    {
      if (local != NULL && local->code == DDB_ERROR_RESOURCE_NOT_FOUND)
        {
          g_clear_error (&local);
          return ddb_req_fail (error, DDB_ERROR_RESOURCE_NOT_FOUND,
                               "Cannot do operations on a non-existent table");
        }
      g_propagate_error (error, local);
      return NULL;
    }
  *index = NULL;
  if (s->index != NULL)
    {
      *index = ddb_table_def_index (def, s->index);
      if (*index == NULL)
        {
          ddb_table_def_free (def);
          return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                               "The table does not have the specified index: %s", s->index);
        }
    }
  return def;
}

static void
conjuncts (DdbNode *n, GPtrArray *out)
{
  if (n == NULL)
    return;
  if (n->kind == DDB_NODE_AND)
    {
      conjuncts (n->args[0], out);
      conjuncts (n->args[1], out);
      return;
    }
  g_ptr_array_add (out, n);
}

static gboolean
is_attribute (const DdbNode *n, const char *name)
{
  return name != NULL && n->kind == DDB_NODE_PATH && n->path.n == 1
         && g_strcmp0 (n->path.elems[0].name, name) == 0;
}

/* `name = value` (or `value = name`): the value, else NULL. */
static const DdbValue *
equality_on (const DdbNode *n, const char *name)
{
  if (n->kind != DDB_NODE_EQ)
    return NULL;
  if (is_attribute (n->args[0], name) && n->args[1]->kind == DDB_NODE_VALUE)
    return n->args[1]->value;
  if (is_attribute (n->args[1], name) && n->args[0]->kind == DDB_NODE_VALUE)
    return n->args[0]->value;
  return NULL;
}

static gboolean
pql_key_type_ok (const char *name, DdbType want, const DdbValue *v, GError **error)
{
  if (v->type == want)
    return TRUE;
  return ddb_set_validation_error (error, PQL_KEY_TYPE, name);
}

gboolean
pql_is_key_type_error (const GError *error)
{
  const char *arg = strstr (PQL_KEY_TYPE, "%s");

  return error->code == DDB_ERROR_VALIDATION
         && strncmp (error->message, PQL_KEY_TYPE, arg - PQL_KEY_TYPE) == 0;
}

static gboolean
is_key_value (const DdbValue *v)
{
  return v->type == DDB_TYPE_S || v->type == DDB_TYPE_N || v->type == DDB_TYPE_B;
}

/* UPDATE and DELETE write one item: a key attribute given two values is an error, and an
 * equality repeated with the same value says nothing more. A read takes the repetition as a
 * condition (then it is no single-item read). */
static gboolean
repeated_key (const DdbPqlStatement *s, const char *name, const DdbValue *have, const DdbValue *v,
              gboolean *drop, GError **error)
{
  *drop = FALSE;
  if (s->kind != DDB_PQL_UPDATE && s->kind != DDB_PQL_DELETE)
    return TRUE;
  if (!ddb_value_equal (have, v))
    return ddb_set_validation_error (error,
                                     "Multiple conditions on same key %s. Only single item "
                                     "Update/Insert/Delete are supported",
                                     name);
  *drop = TRUE;
  return TRUE;
}

gboolean
pql_split_key (const DdbPqlStatement *s, const DdbTableDef *def, DdbValue **key, GPtrArray *rest,
               GError **error)
{
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  const char *names[2] = { def->key.hash_name, def->key.range_name };
  DdbType types[2] = { def->key.hash_type, def->key.range_type };
  const DdbValue *values[2] = { NULL, NULL };

  *key = NULL;
  conjuncts (s->where, all);
  for (guint i = 0; i < all->len; i++)
    {
      DdbNode *c = all->pdata[i];
      gboolean keep = TRUE;

      for (guint k = 0; k < G_N_ELEMENTS (names) && keep; k++)
        {
          const DdbValue *v = equality_on (c, names[k]);
          gboolean drop;

          /* A read takes an equality with a value no key can have as a condition. */
          if (v == NULL || (s->kind == DDB_PQL_SELECT && !is_key_value (v)))
            continue;
          if (values[k] == NULL)
            values[k] = v, keep = FALSE;
          else if (!repeated_key (s, names[k], values[k], v, &drop, error))
            return FALSE;
          else
            keep = !drop;
        }
      if (keep)
        g_ptr_array_add (rest, c);
    }
  if (values[0] == NULL || (names[1] != NULL && values[1] == NULL))
    return FALSE;
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    if (values[k] != NULL && !is_key_value (values[k])
        && (s->kind == DDB_PQL_UPDATE || s->kind == DDB_PQL_DELETE))
      return ddb_set_validation_error (
          error, "Key value must be of type S, N, or B. Key name: %s, Key type: %s", names[k],
          ddb_type_name (values[k]->type));
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    if (values[k] != NULL && !pql_key_type_ok (names[k], types[k], values[k], error))
      return FALSE;
  *key = ddb_value_new_m ();
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    if (values[k] != NULL)
      ddb_value_map_set (*key, names[k], ddb_value_copy (values[k]));
  return TRUE;
}

/* ---- Requests ---- */

#define NOT_FULL_KEY "Where clause does not contain a mandatory equality on all key attributes"

static void
set_condition (json_t *req, PqlExpr *x, GPtrArray *conds)
{
  g_autofree char *text = pql_print_conjuncts (x, (DdbNode *const *) conds->pdata, conds->len);

  if (text != NULL)
    json_object_set_new (req, "ConditionExpression", json_string (text));
}

/* An attribute_exists(pk) condition: UPDATE and EXISTS need the item to be there. */
static DdbNode *
exists_node (const char *name)
{
  DdbNode *n = g_new0 (DdbNode, 1);
  DdbNode *path = g_new0 (DdbNode, 1);

  path->kind = DDB_NODE_PATH;
  path->path.n = 1;
  path->path.elems = g_new0 (DdbPathElem, 1);
  path->path.elems[0].name = g_strdup (name);
  n->kind = DDB_NODE_ATTRIBUTE_EXISTS;
  n->n_args = 1;
  n->args = g_new0 (DdbNode *, 1);
  n->args[0] = path;
  return n;
}

static const char *
return_values (DdbPqlReturning r)
{
  switch (r)
    {
    case DDB_PQL_RETURN_ALL_OLD:
      return "ALL_OLD";
    case DDB_PQL_RETURN_MODIFIED_OLD:
      return "UPDATED_OLD";
    case DDB_PQL_RETURN_ALL_NEW:
      return "ALL_NEW";
    case DDB_PQL_RETURN_MODIFIED_NEW:
      return "UPDATED_NEW";
    default:
      return NULL;
    }
}

static json_t *
insert_request (const DdbPqlStatement *s, const DdbTableDef *def, PqlExpr *x, GError **error)
{
  const char *names[2] = { def->key.hash_name, def->key.range_name };
  DdbType types[2] = { def->key.hash_type, def->key.range_type };
  g_autofree char *id = NULL;
  g_autofree char *cond = NULL;
  json_t *req;

  if (s->where != NULL || s->returning != DDB_PQL_RETURN_NONE)
    return ddb_req_fail (error, DDB_ERROR_VALIDATION, NOT_FULL_KEY);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const DdbValue *v = names[i] != NULL ? ddb_value_map_get (s->item, names[i]) : NULL;

      if (names[i] == NULL)
        continue;
      if (v == NULL)
        return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                             "Key attribute should be present in the item: Key %s", names[i]);
      if (!pql_key_type_ok (names[i], types[i], v, error))
        return NULL;
    }
  id = pql_expr_name (x, def->key.hash_name);
  cond = g_strdup_printf ("attribute_not_exists(%s)", id);
  req = json_pack ("{ss so ss}", "TableName", def->name, "Item", ddb_item_to_json (s->item),
                   "ConditionExpression", cond);
  return req;
}

json_t *
pql_write_request (DdbEngine *e, const DdbPqlStatement *s, const char *rvcf, const char **op,
                   GError **error)
{
  g_autoptr (DdbTableDef) def = NULL;
  g_autoptr (DdbValue) key = NULL;
  g_autoptr (GPtrArray) rest = g_ptr_array_new ();
  g_autoptr (DdbNode) exists = NULL;
  const DdbIndexDef *index;
  GError *local = NULL;
  PqlExpr x;
  json_t *req = NULL;

  def = pql_table (e, s, &index, error);
  if (def == NULL)
    return NULL;
  if (index != NULL)
    return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                         "This operation is not supported on an index");
  pql_expr_init (&x);
  if (s->kind == DDB_PQL_INSERT)
    {
      *op = "PutItem";
      req = insert_request (s, def, &x, error);
      goto out;
    }
  if (!pql_split_key (s, def, &key, rest, &local))
    {
      if (local != NULL)
        g_propagate_error (error, local);
      else if (s->kind == DDB_PQL_EXISTS)
        ddb_set_validation_error (error, "EXISTS() must contain a single item read with "
                                         "additional condition");
      else
        ddb_set_validation_error (error, NOT_FULL_KEY);
      goto out;
    }
  if (s->kind == DDB_PQL_UPDATE || s->kind == DDB_PQL_EXISTS)
    {
      if (s->kind == DDB_PQL_EXISTS && rest->len == 0)
        {
          ddb_set_validation_error (error, "EXISTS() must contain a single item read with "
                                           "additional condition");
          goto out;
        }
      exists = exists_node (def->key.hash_name);
      g_ptr_array_insert (rest, 0, exists);
    }
  if (s->kind == DDB_PQL_DELETE && s->returning != DDB_PQL_RETURN_NONE
      && s->returning != DDB_PQL_RETURN_ALL_OLD)
    {
      ddb_set_validation_error (error,
                                "Invalid returning clause: RETURNING %s %s *. Only "
                                "RETURNING ALL OLD * is allowed in DELETE statements.",
                                s->returning == DDB_PQL_RETURN_MODIFIED_OLD
                                        || s->returning == DDB_PQL_RETURN_MODIFIED_NEW
                                    ? "MODIFIED"
                                    : "ALL",
                                s->returning == DDB_PQL_RETURN_MODIFIED_OLD ? "OLD" : "NEW");
      goto out;
    }
  req = json_pack ("{ss so}", "TableName", def->name, "Key", ddb_item_to_json (key));
  if (s->kind == DDB_PQL_UPDATE)
    {
      g_autofree char *update = pql_print_update (&x, s->update);

      *op = "UpdateItem";
      json_object_set_new (req, "UpdateExpression", json_string (update));
    }
  else
    *op = s->kind == DDB_PQL_DELETE ? "DeleteItem" : "ConditionCheck";
  set_condition (req, &x, rest);
  if (return_values (s->returning) != NULL)
    json_object_set_new (req, "ReturnValues", json_string (return_values (s->returning)));

out:
  if (req != NULL)
    {
      pql_expr_attach (&x, req);
      if (rvcf != NULL)
        json_object_set_new (req, "ReturnValuesOnConditionCheckFailure", json_string (rvcf));
    }
  pql_expr_clear (&x);
  return req;
}

json_t *
pql_get_request (DdbEngine *e, const DdbPqlStatement *s, const char *what, GError **error)
{
  g_autoptr (DdbTableDef) def = NULL;
  g_autoptr (DdbValue) key = NULL;
  g_autoptr (GPtrArray) rest = g_ptr_array_new ();
  const DdbIndexDef *index;
  GError *local = NULL;

  def = pql_table (e, s, &index, error);
  if (def == NULL)
    return NULL;
  if (index != NULL || !pql_split_key (s, def, &key, rest, &local) || rest->len > 0
      || s->order_by != NULL)
    {
      if (local != NULL)
        g_propagate_error (error, local);
      else
        ddb_set_validation_error (error, "%s", what);
      return NULL;
    }
  return json_pack ("{ss so}", "TableName", def->name, "Key", ddb_item_to_json (key));
}

/* ---- Results ---- */

/* How many elements of `p` make a SELECT's result attribute, as AWS's PartiQL makes them: it
 * reads each path back from the projected document `doc`, whose lists keep only the projected
 * elements. Where a list index falls past such a list's end, the result is the element at that
 * index (under "b[2]" for "a.b[2].c"); otherwise the value at the whole path (under "c" for
 * "a.b[0].c"). */
static guint
result_depth (const DdbValue *doc, const DdbPath *p)
{
  const DdbValue *v = ddb_value_map_get (doc, p->elems[0].name);
  guint last_index = 0;

  for (guint i = 1; v != NULL && i < p->n; i++)
    {
      if (p->elems[i].name != NULL)
        v = v->type == DDB_TYPE_M ? ddb_value_map_get (v, p->elems[i].name) : NULL;
      else if (v->type != DDB_TYPE_L || p->elems[i].index >= ddb_value_list_size (v))
        return i + 1;
      else
        {
          v = ddb_value_list_nth (v, p->elems[i].index);
          last_index = i + 1;
        }
    }
  return v != NULL || last_index == 0 ? p->n : last_index;
}

static gboolean
same_prefix (const DdbPath *a, const DdbPath *b, guint depth)
{
  if (a->n < depth || b->n < depth)
    return FALSE;
  for (guint i = 0; i < depth; i++)
    if (g_strcmp0 (a->elems[i].name, b->elems[i].name) != 0
        || (a->elems[i].name == NULL && a->elems[i].index != b->elems[i].index))
      return FALSE;
  return TRUE;
}

/* The value of the result attribute that `p`'s first `depth` elements name: the value there in
 * `item`, projected by the rest of each path of `proj` that goes through it. New; NULL when
 * nothing is there. */
static DdbValue *
result_value (const DdbProjection *proj, const DdbValue *item, const DdbPath *p, guint depth)
{
  static const char holder_name[] = "v";
  DdbPath prefix = { depth, p->elems };
  const DdbValue *at = ddb_path_lookup (item, &prefix);
  g_autoptr (DdbValue) holder = NULL;
  g_autoptr (DdbValue) projected = NULL;
  g_autoptr (GArray) rest = NULL;
  DdbProjection sub;
  DdbValue *v;

  if (at == NULL || depth == p->n)
    return at != NULL ? ddb_value_copy (at) : NULL;
  /* The rests, under a stand-in name, projected from a map holding the value. */
  holder = ddb_value_new_m ();
  ddb_value_map_set (holder, holder_name, ddb_value_copy (at));
  rest = g_array_new (FALSE, TRUE, sizeof (DdbPath));
  for (guint i = 0; i < proj->n_paths; i++)
    {
      const DdbPath *q = &proj->paths[i];
      DdbPath r;

      if (q->n <= depth || !same_prefix (q, p, depth))
        continue;
      r.n = q->n - depth + 1;
      r.elems = g_new (DdbPathElem, r.n);
      r.elems[0].name = (char *) holder_name;
      memcpy (r.elems + 1, q->elems + depth, (r.n - 1) * sizeof (DdbPathElem));
      g_array_append_val (rest, r);
    }
  sub.n_paths = rest->len;
  sub.paths = (DdbPath *) rest->data;
  projected = ddb_projection_apply (&sub, holder);
  for (guint i = 0; i < rest->len; i++)
    g_free (g_array_index (rest, DdbPath, i).elems);
  v = ddb_value_map_get (projected, holder_name);
  return v != NULL ? ddb_value_copy (v) : NULL;
}

/* ITEM read as a value into *WHOLE and S's projection of it (as a ProjectionExpression
 * nests it), or NULL when ITEM is not an item. */
static DdbValue *
project_nested (const DdbPqlStatement *s, json_t *item, DdbValue **whole)
{
  *whole = ddb_json_to_item (item, NULL);
  return *whole != NULL ? ddb_projection_apply (s->projection, *whole) : NULL;
}

json_t *
pql_project (const DdbPqlStatement *s, json_t *item)
{
  g_autoptr (DdbValue) whole = NULL;
  g_autoptr (DdbValue) doc = NULL;
  g_autoptr (DdbValue) out = NULL;

  if (s->projection == NULL)
    return json_incref (item);
  doc = project_nested (s, item, &whole);
  if (doc == NULL)
    return json_object ();
  out = ddb_value_new_m ();
  for (guint i = 0; i < s->projection->n_paths; i++)
    {
      const DdbPath *p = &s->projection->paths[i];
      DdbPath whole_path = *p;
      guint depth;
      g_autofree char *name = NULL;
      DdbValue *v;

      /* A path the item does not have gives nothing. */
      if (ddb_path_lookup (whole, &whole_path) == NULL)
        continue;
      depth = result_depth (doc, p);
      whole_path.n = depth;
      name = ddb_pql_result_name (&whole_path);
      if (ddb_value_map_get (out, name) != NULL)
        continue;
      v = result_value (s->projection, whole, p, depth);
      if (v != NULL)
        ddb_value_map_set (out, name, v);
    }
  return ddb_item_to_json (out);
}

json_t *
pql_project_document (const DdbPqlStatement *s, json_t *item)
{
  g_autoptr (DdbValue) whole = NULL;
  g_autoptr (DdbValue) doc = NULL;

  if (s->projection == NULL)
    return json_incref (item);
  doc = project_nested (s, item, &whole);
  return doc != NULL ? ddb_item_to_json (doc) : json_object ();
}

void
pql_statement_violations (DdbViolations *v, json_t *stmt, const char *prefix)
{
  json_t *text = json_object_get (stmt, "Statement");
  json_t *params = json_object_get (stmt, "Parameters");
  g_autofree char *statement = g_strconcat (prefix, "statement", NULL);
  g_autofree char *parameters = g_strconcat (prefix, "parameters", NULL);

  if (text == NULL || json_is_null (text))
    ddb_violation_add (v, statement, NULL, "Member must not be null");
  else if (json_is_string (text) && json_string_length (text) == 0)
    ddb_violation_add (v, statement, "", "Member must have length greater than or equal to 1");
  else if (json_is_string (text) && g_utf8_strlen (json_string_value (text), -1) > 8192)
    ddb_violation_add (v, statement, json_string_value (text),
                       "Member must have length less than or equal to 8192");
  if (json_is_array (params) && json_array_size (params) == 0)
    ddb_violation_add (v, parameters, "[]", "Member must have length greater than or equal to 1");
}

gboolean
pql_parameters (json_t *params, GPtrArray **out, GError **error)
{
  size_t i;
  json_t *v;

  *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  if (params == NULL || json_is_null (params))
    return TRUE;
  if (!json_is_array (params))
    return ddb_req_type_error (params, "List", error);
  json_array_foreach (params, i, v)
    {
      DdbValue *value = ddb_req_value (v, error);

      if (value == NULL)
        return FALSE;
      g_ptr_array_add (*out, value);
    }
  return TRUE;
}

json_t *
pql_run_write (DdbEngine *e, const DdbPqlStatement *s, const char *op, json_t *request,
               json_t **extra, GError **error)
{
  GError *local = NULL;
  json_t *result;

  if (strcmp (op, "PutItem") == 0)
    result = ddb_op_put_item (e, request, extra, &local);
  else if (strcmp (op, "UpdateItem") == 0)
    result = ddb_op_update_item (e, request, extra, &local);
  else
    result = ddb_op_delete_item (e, request, extra, &local);
  if (result == NULL && s->kind == DDB_PQL_INSERT && local != NULL
      && local->code == DDB_ERROR_CONDITIONAL_CHECK_FAILED)
    {
      g_clear_error (&local);
      g_clear_pointer (extra, json_decref);
      return ddb_req_fail (error, DDB_ERROR_DUPLICATE_ITEM,
                           "Duplicate primary key exists in table");
    }
  if (local != NULL)
    {
      pql_error_unprefix (&local);
      g_propagate_error (error, local);
    }
  return result;
}

void
pql_error_unprefix (GError **error)
{
  const char *m = error != NULL && *error != NULL ? (*error)->message : NULL;
  const char *end = m != NULL ? strstr (m, "Expression: ") : NULL;
  char *rest;

  if (end == NULL || !g_str_has_prefix (m, "Invalid "))
    return;
  for (const char *c = m + strlen ("Invalid "); c < end; c++)
    if (!g_ascii_isalpha (*c))
      return;
  rest = g_strdup (end + strlen ("Expression: "));
  g_free ((*error)->message);
  (*error)->message = rest;
}

void
pql_capacity_add (json_t *into, json_t *add)
{
  const char *key;
  json_t *v;

  json_object_foreach (add, key, v)
    {
      json_t *have = json_object_get (into, key);

      if (have == NULL)
        json_object_set (into, key, v);
      else if (json_is_number (have) && json_is_number (v))
        json_object_set_new (into, key,
                             json_real (json_number_value (have) + json_number_value (v)));
      else if (json_is_object (have) && json_is_object (v))
        pql_capacity_add (have, v);
    }
}
