/* item-ops.c: PutItem, GetItem, UpdateItem and DeleteItem, built from prepared writes and
 * reads that BatchWriteItem, BatchGetItem and the transactions reuse (item-ops.h). */
#include "engine/item-ops.h"

#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemsize.h"
#include "engine/engine-private.h"
#include "engine/legacy.h"

#define CONDITION_FAILED "The conditional request failed"
#define BYTES_PER_GB (1024.0 * 1024.0 * 1024.0)

/* DynamoDB's order of each enum, as its messages list them. */
static const char *const return_values_names[]
    = { "ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW", NULL };
static const DdbReturnValues return_values_modes[]
    = { DDB_RV_ALL_NEW, DDB_RV_UPDATED_OLD, DDB_RV_ALL_OLD, DDB_RV_NONE, DDB_RV_UPDATED_NEW };
static const char *const metrics_names[] = { "SIZE", "NONE", NULL };
static const char *const on_failure_names[] = { "ALL_OLD", "NONE", NULL };
static const char *const conditional_operator_names[] = { "OR", "AND", NULL };

static json_t *
member_get (json_t *req, const char *member)
{
  json_t *j = json_is_object (req) ? json_object_get (req, member) : NULL;

  return j == NULL || json_is_null (j) ? NULL : j;
}

/* ---- Request checks shared by the operations ---- */

/* DynamoDB refuses placeholders in a request that has no expression to use them. */
static gboolean
check_placeholders_have_expressions (json_t *req, const char *const *expressions,
                                     gboolean has_values_member, GError **error)
{
  gboolean any = FALSE;
  guint n = 0;

  for (guint i = 0; expressions[i] != NULL; i++, n++)
    any = any || member_get (req, expressions[i]) != NULL;
  if (member_get (req, "ExpressionAttributeNames") != NULL && !any)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "ExpressionAttributeNames can only be specified when using expressions");
      return FALSE;
    }
  if (has_values_member && member_get (req, "ExpressionAttributeValues") != NULL)
    {
      /* A ProjectionExpression takes no values. */
      gboolean any_valued = FALSE;
      GString *names = g_string_new (NULL);
      guint nv = 0;

      for (guint i = 0; expressions[i] != NULL; i++)
        {
          if (strcmp (expressions[i], "ProjectionExpression") == 0)
            continue;
          any_valued = any_valued || member_get (req, expressions[i]) != NULL;
          g_string_append_printf (names, "%s%s", nv > 0 ? " and " : "", expressions[i]);
          nv++;
        }
      if (!any_valued)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "ExpressionAttributeValues can only be specified when using expressions: "
                       "%s %s null",
                       names->str, nv > 1 ? "are" : "is");
          g_string_free (names, TRUE);
          return FALSE;
        }
      g_string_free (names, TRUE);
    }
  return TRUE;
}

static gboolean
string_member (json_t *req, const char *member, const char **out, GError **error)
{
  GError *local = NULL;

  *out = ddb_req_string (req, member, FALSE, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

/* A shallow copy of `req` without the members the operation's shape does not have: DynamoDB's
 * deserializer drops unknown members, so they must not be validated. */
static json_t *
request_without (json_t *req, const char *const *members)
{
  json_t *copy = json_is_object (req) ? json_copy (req) : json_object ();

  for (guint i = 0; members[i] != NULL; i++)
    json_object_del (copy, members[i]);
  return copy;
}

/* ---- Prepared writes ---- */

void
ddb_write_free (DdbPreparedWrite *w)
{
  if (w == NULL)
    return;
  g_clear_pointer (&w->def, ddb_table_def_free);
  g_clear_pointer (&w->key, ddb_value_free);
  g_clear_pointer (&w->put_item, ddb_value_free);
  g_clear_pointer (&w->update, ddb_update_free);
  g_clear_pointer (&w->condition, ddb_node_free);
  g_clear_pointer (&w->old_item, ddb_value_free);
  g_clear_pointer (&w->new_item, ddb_value_free);
  g_clear_error (&w->invalid);
  g_free (w);
}

static gboolean
is_table_key (const DdbTableDef *def, const char *name)
{
  return strcmp (def->key.hash_name, name) == 0
         || (def->key.range_name != NULL && strcmp (def->key.range_name, name) == 0);
}

static gboolean
check_update_spares_key (const DdbTableDef *def, const DdbUpdate *u, GError **error)
{
  for (guint i = 0; u != NULL && i < u->n_actions; i++)
    {
      const DdbPath *p = &u->actions[i].path;

      if (p->n > 0 && p->elems[0].name != NULL && is_table_key (def, p->elems[0].name))
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "One or more parameter values were invalid: Cannot update attribute %s. "
                       "This attribute is part of the key",
                       p->elems[0].name);
          return FALSE;
        }
    }
  return TRUE;
}

/* TransactWriteItems reports a key attribute of the wrong type as the action's cancellation
 * reason (ValidationError), not for the whole request, as DynamoDB Local does (the
 * TransactionCanceledException documentation lists "One or more parameter values were
 * invalid" among the ValidationError reasons). Only when that is the only problem of the Item
 * or Key: every key attribute present and not empty, nothing else in a Key. Sets w->key and
 * w->invalid and returns TRUE then. */
static gboolean
defer_key_type_mismatch (DdbPreparedWrite *w, json_t *json)
{
  const DdbKeyDef *k = &w->def->key;
  const char *names[2] = { k->hash_name, k->range_name };
  const DdbType types[2] = { k->hash_type, k->range_type };
  guint n_keys = k->range_name != NULL ? 2 : 1;
  g_autoptr (DdbValue) map = NULL;
  gboolean mismatch = FALSE;

  if (json == NULL || (map = ddb_req_attribute_map (json, NULL)) == NULL)
    return FALSE;
  if (w->kind != DDB_WRITE_PUT && ddb_value_map_size (map) != n_keys)
    return FALSE;
  for (guint i = 0; i < n_keys; i++)
    {
      const DdbValue *v = ddb_value_map_get (map, names[i]);

      if (v == NULL)
        return FALSE;
      if (v->type == types[i] && (v->type == DDB_TYPE_S || v->type == DDB_TYPE_B)
          && v->bytes.len == 0)
        return FALSE;
      mismatch = mismatch || v->type != types[i];
    }
  if (!mismatch)
    return FALSE;
  w->key = ddb_value_new_m ();
  for (guint i = 0; i < n_keys; i++)
    ddb_value_map_set (w->key, names[i], ddb_value_copy (ddb_value_map_get (map, names[i])));
  /* The reason's wording is DynamoDB Local's, for an Item and a Key alike: the documentation
   * lists only "One or more parameter values were invalid" for it. */
  g_set_error_literal (&w->invalid, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "One or more parameter values were invalid: Type mismatch for key");
  w->invalid_before_read = TRUE;
  return TRUE;
}

/* The members each shape of write request has; the rest are dropped unread. */
static json_t *
write_request_view (DdbWriteKind kind, json_t *req, DdbWriteFlags flags)
{
  /* Beyond what the kind of write has no use for (below). */
  static const char *const batch_drop[] = { "TableName",
                                            "ConditionExpression",
                                            "ExpressionAttributeNames",
                                            "ExpressionAttributeValues",
                                            "ReturnValues",
                                            "ReturnConsumedCapacity",
                                            "ReturnItemCollectionMetrics",
                                            "ReturnValuesOnConditionCheckFailure",
                                            "Expected",
                                            "ConditionalOperator",
                                            NULL };
  static const char *const transact_drop[] = { "ReturnValues",
                                               "ReturnConsumedCapacity",
                                               "ReturnItemCollectionMetrics",
                                               "Expected",
                                               "ConditionalOperator",
                                               "AttributeUpdates",
                                               NULL };
  static const char *const put_drop[] = { "Key", "UpdateExpression", "AttributeUpdates", NULL };
  static const char *const update_drop[] = { "Item", NULL };
  static const char *const delete_drop[] = { "Item", "UpdateExpression", "AttributeUpdates", NULL };
  json_t *view, *tmp;

  view = request_without (req, kind == DDB_WRITE_PUT      ? put_drop
                               : kind == DDB_WRITE_UPDATE ? update_drop
                                                          : delete_drop);
  if (flags & (DDB_WRITE_IN_BATCH | DDB_WRITE_IN_TRANSACTION))
    {
      tmp = request_without (view, (flags & DDB_WRITE_IN_BATCH) ? batch_drop : transact_drop);
      json_decref (view);
      view = tmp;
    }
  return view;
}

static DdbPreparedWrite *
write_prepare (DdbStore *store, DdbWriteKind kind, json_t *req, const char *table_name,
               DdbWriteFlags flags, GError **error)
{
  g_autoptr (DdbPreparedWrite) w = g_new0 (DdbPreparedWrite, 1);
  gboolean single = (flags & (DDB_WRITE_IN_TRANSACTION | DDB_WRITE_IN_BATCH)) == 0;
  const char *condition_text = NULL, *update_text = NULL, *conditional_operator = NULL;
  json_t *expected, *attribute_updates;
  DdbReqExpr rx;
  int i;

  w->kind = kind;
  if (table_name == NULL)
    {
      table_name = ddb_req_table_name (req, "TableName", error);
      if (table_name == NULL)
        return NULL;
    }

  /* Members, in the order DynamoDB validates them. */
  if (single)
    {
      i = ddb_req_enum (req, "ReturnValues", return_values_names, 3, error);
      if (i < 0)
        return NULL;
      w->return_values = return_values_modes[i];
      if (!ddb_req_return_capacity (req, &w->return_capacity, error))
        return NULL;
      i = ddb_req_enum (req, "ReturnItemCollectionMetrics", metrics_names, 1, error);
      if (i < 0)
        return NULL;
      w->return_metrics = i == 0;
      i = ddb_req_enum (req, "ConditionalOperator", conditional_operator_names, -2, error);
      if (i == -1)
        return NULL;
      conditional_operator = i >= 0 ? conditional_operator_names[i] : NULL;
    }
  if (!(flags & DDB_WRITE_IN_BATCH))
    {
      i = ddb_req_enum (req, "ReturnValuesOnConditionCheckFailure", on_failure_names, 1, error);
      if (i < 0)
        return NULL;
      w->return_old_on_failure = i == 0;
      if (!string_member (req, "ConditionExpression", &condition_text, error)
          || !string_member (req, "UpdateExpression", &update_text, error))
        return NULL;
    }
  if (kind == DDB_WRITE_CONDITION_CHECK && condition_text == NULL)
    {
      ddb_req_string (req, "ConditionExpression", TRUE, error);
      return NULL;
    }
  if (kind == DDB_WRITE_UPDATE && (flags & DDB_WRITE_IN_TRANSACTION) && update_text == NULL)
    {
      ddb_req_string (req, "UpdateExpression", TRUE, error);
      return NULL;
    }
  if ((kind == DDB_WRITE_PUT || kind == DDB_WRITE_DELETE) && single
      && w->return_values != DDB_RV_NONE && w->return_values != DDB_RV_ALL_OLD)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Return values set to invalid value");
      return NULL;
    }

  if (single && !ddb_legacy_check_not_mixed (req, error))
    return NULL;
  if (!(flags & DDB_WRITE_IN_BATCH))
    {
      static const char *const update_exprs[] = { "UpdateExpression", "ConditionExpression", NULL };
      static const char *const condition_exprs[] = { "ConditionExpression", NULL };

      if (!check_placeholders_have_expressions (
              req, kind == DDB_WRITE_UPDATE ? update_exprs : condition_exprs, TRUE, error))
        return NULL;
    }

  if (!ddb_req_expr_init (&rx, req, error))
    return NULL;
  if (update_text != NULL)
    {
      w->update = ddb_update_parse (update_text, rx.ctx, error);
      if (w->update == NULL)
        goto fail_rx;
    }
  if (condition_text != NULL)
    {
      w->condition = ddb_condition_parse (DDB_EXPR_CONDITION, condition_text, rx.ctx, error);
      if (w->condition == NULL)
        goto fail_rx;
    }
  if (!ddb_expr_context_check_unused (rx.ctx, error))
    goto fail_rx;
  ddb_req_expr_clear (&rx);

  if (single)
    {
      expected = member_get (req, "Expected");
      if (expected != NULL || (conditional_operator != NULL && w->condition == NULL))
        {
          GError *local = NULL;

          /* An empty Expected is no condition; ConditionalOperator needs two or more. */
          w->condition = ddb_legacy_expected (expected, conditional_operator, &local);
          if (local != NULL)
            {
              g_propagate_error (error, local);
              return NULL;
            }
        }
      attribute_updates = member_get (req, "AttributeUpdates");
      if (attribute_updates != NULL && kind == DDB_WRITE_UPDATE)
        {
          w->update = ddb_legacy_attribute_updates (attribute_updates, error);
          if (w->update == NULL)
            return NULL;
        }
    }

  w->def = ddb_store_table_get (store, table_name, error);
  if (w->def == NULL)
    return NULL;

  if ((flags & DDB_WRITE_IN_TRANSACTION)
      && defer_key_type_mismatch (w, member_get (req, kind == DDB_WRITE_PUT ? "Item" : "Key")))
    return g_steal_pointer (&w);
  if (kind == DDB_WRITE_PUT)
    {
      w->put_item = ddb_req_item (member_get (req, "Item"), w->def, error);
      if (w->put_item == NULL)
        return NULL;
      w->key = ddb_key_def_extract (&w->def->key, w->put_item);
    }
  else
    {
      w->key = ddb_req_key (member_get (req, "Key"), w->def, error);
      if (w->key == NULL)
        return NULL;
    }
  if (!check_update_spares_key (w->def, w->update,
                                (flags & DDB_WRITE_IN_TRANSACTION) ? &w->invalid : error)
      && !(flags & DDB_WRITE_IN_TRANSACTION))
    return NULL;
  return g_steal_pointer (&w);

fail_rx:
  ddb_req_expr_clear (&rx);
  return NULL;
}

DdbPreparedWrite *
ddb_write_prepare (DdbStore *store, DdbWriteKind kind, json_t *req, const char *table_name,
                   DdbWriteFlags flags, GError **error)
{
  json_t *view;
  DdbPreparedWrite *w;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (!json_is_object (req))
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_SERIALIZATION,
                           "Start of structure or map found where not expected");
      return NULL;
    }
  view = write_request_view (kind, req, flags);
  w = write_prepare (store, kind, view, table_name, flags, error);
  json_decref (view);
  return w;
}

/* An update whose every action takes away (REMOVE, DELETE from a set; legacy DELETE). */
static gboolean
update_only_removes (const DdbUpdate *u)
{
  if (u == NULL || u->n_actions == 0)
    return FALSE;
  for (guint i = 0; i < u->n_actions; i++)
    if (u->actions[i].kind != DDB_UPDATE_REMOVE && u->actions[i].kind != DDB_UPDATE_DELETE)
      return FALSE;
  return TRUE;
}

gboolean
ddb_write_check (DdbStore *store, DdbPreparedWrite *w, json_t **extra, GError **error)
{
  g_autoptr (DdbValue) next = NULL;

  g_clear_pointer (&w->old_item, ddb_value_free);
  g_clear_pointer (&w->new_item, ddb_value_free);
  w->checked = FALSE;
  if (w->invalid != NULL && w->invalid_before_read)
    {
      g_propagate_error (error, g_error_copy (w->invalid));
      return FALSE;
    }
  if (!ddb_store_item_get (store, w->def, w->key, &w->old_item, error))
    return FALSE;

  if (w->condition != NULL)
    {
      gboolean ok = FALSE;

      if (!ddb_condition_eval (w->condition, w->old_item, &ok, error))
        return FALSE;
      if (!ok)
        {
          if (extra != NULL && w->return_old_on_failure && w->old_item != NULL)
            {
              *extra = json_object ();
              json_object_set_new (*extra, "Item", ddb_item_to_json (w->old_item));
            }
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_CONDITIONAL_CHECK_FAILED,
                               CONDITION_FAILED);
          return FALSE;
        }
    }

  if (w->invalid != NULL)
    {
      g_propagate_error (error, g_error_copy (w->invalid));
      return FALSE;
    }
  switch (w->kind)
    {
    case DDB_WRITE_PUT:
      next = ddb_value_copy (w->put_item);
      break;
    case DDB_WRITE_UPDATE:
      /* A new item starts from its key, which the update may read (SET a = pk). */
      next = ddb_value_copy (w->old_item != NULL ? w->old_item : w->key);
      if (w->update != NULL && !ddb_update_apply (w->update, next, error))
        return FALSE;
      /* Removing from an item that does not exist creates nothing (and returns nothing, even
       * ALL_NEW); its paths are still checked, as on the key alone. */
      if (w->old_item == NULL && update_only_removes (w->update))
        {
          g_clear_pointer (&next, ddb_value_free);
          break;
        }
      if (ddb_item_size (next) > DDB_MAX_ITEM_SIZE)
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                               "Item size to update has exceeded the maximum allowed size");
          return FALSE;
        }
      if (!ddb_item_check_index_keys (w->def, next, TRUE, error))
        return FALSE;
      break;
    case DDB_WRITE_DELETE:
    case DDB_WRITE_CONDITION_CHECK:
      break;
    }
  w->new_item = g_steal_pointer (&next);
  w->checked = TRUE;
  return TRUE;
}

gboolean
ddb_write_apply (DdbStore *store, DdbPreparedWrite *w, GError **error)
{
  g_return_val_if_fail (w->checked, FALSE);
  switch (w->kind)
    {
    case DDB_WRITE_PUT:
    case DDB_WRITE_UPDATE:
      if (w->new_item == NULL)
        return TRUE; /* an update that only removed, from no item */
      return ddb_store_item_put (store, w->def, w->new_item, error);
    case DDB_WRITE_DELETE:
      if (w->old_item == NULL)
        return TRUE;
      return ddb_store_item_delete (store, w->def, w->key, error);
    case DDB_WRITE_CONDITION_CHECK:
      return TRUE;
    }
  return TRUE;
}

static gboolean
index_keys_equal (const DdbIndexDef *index, const DdbValue *a, const DdbValue *b)
{
  const char *names[2] = { index->key.hash_name, index->key.range_name };

  for (guint i = 0; i < 2; i++)
    {
      if (names[i] == NULL)
        continue;
      if (!ddb_value_equal (ddb_value_map_get (a, names[i]), ddb_value_map_get (b, names[i])))
        return FALSE;
    }
  return TRUE;
}

void
ddb_write_add_capacity (const DdbPreparedWrite *w, DdbCapacity *cap, double factor)
{
  gsize old_size = w->old_item != NULL ? ddb_item_size (w->old_item) : 0;
  gsize new_size = w->new_item != NULL ? ddb_item_size (w->new_item) : 0;

  cap->table_write += factor * ddb_capacity_write_units (MAX (old_size, new_size));
  if (w->kind == DDB_WRITE_CONDITION_CHECK || w->def->indexes == NULL)
    return;
  /* An index entry costs a write when it appears, disappears or changes, and two when its key
   * changes (the old entry is deleted, the new one put); an index the item is in neither
   * before nor after costs nothing. */
  for (guint i = 0; i < w->def->indexes->len; i++)
    {
      const DdbIndexDef *index = g_ptr_array_index (w->def->indexes, i);
      g_autoptr (DdbValue) before = NULL;
      g_autoptr (DdbValue) after = NULL;
      double units = 0;

      if (w->old_item != NULL)
        before = ddb_index_project (w->def, index, w->old_item);
      if (w->new_item != NULL)
        after = ddb_index_project (w->def, index, w->new_item);
      if (before == NULL && after == NULL)
        continue;
      if (before == NULL)
        units = ddb_capacity_write_units (ddb_item_size (after));
      else if (after == NULL)
        units = ddb_capacity_write_units (ddb_item_size (before));
      else if (!index_keys_equal (index, before, after))
        units = ddb_capacity_write_units (ddb_item_size (before))
                + ddb_capacity_write_units (ddb_item_size (after));
      else if (!ddb_value_equal (before, after))
        units = ddb_capacity_write_units (ddb_item_size (after));
      if (units > 0)
        ddb_capacity_add_index (cap, index, TRUE, factor * units);
    }
}

json_t *
ddb_item_collection_metrics (DdbStore *store, const DdbTableDef *def, const DdbValue *key,
                             GError **error)
{
  g_autoptr (DdbStoreCursor) cursor = NULL;
  DdbStoreRange range = { 0 };
  const DdbValue *hash = ddb_value_map_get (key, def->key.hash_name);
  DdbValue *item;
  GError *local = NULL;
  double bytes = 0, gb;
  json_t *out, *ck;

  range.hash = hash;
  range.range_op = DDB_SK_NONE;
  range.forward = TRUE;
  range.segment = 0;
  range.total_segments = 1;
  cursor = ddb_store_cursor_open (store, def, &range, error);
  if (cursor == NULL)
    return NULL;
  /* The collection is the partition's items and their entries in every local index. */
  while ((item = ddb_store_cursor_next (cursor, NULL, &local)) != NULL)
    {
      bytes += ddb_item_size (item);
      for (guint i = 0; i < def->indexes->len; i++)
        {
          const DdbIndexDef *index = g_ptr_array_index (def->indexes, i);
          DdbValue *entry;

          if (index->global || (entry = ddb_index_project (def, index, item)) == NULL)
            continue;
          bytes += ddb_item_size (entry);
          ddb_value_free (entry);
        }
      ddb_value_free (item);
    }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  gb = (double) (gint64) (bytes / BYTES_PER_GB);
  ck = json_object ();
  json_object_set_new (ck, def->key.hash_name, ddb_value_to_json (hash));
  out = json_object ();
  json_object_set_new (out, "ItemCollectionKey", ck);
  json_object_set_new (out, "SizeEstimateRangeGB", json_pack ("[f,f]", gb, gb + 1.0));
  return out;
}

/* The paths the update touched, picked from `item` (the old item for UPDATED_OLD, the new one
 * for UPDATED_NEW) as a ProjectionExpression of them would: DynamoDB returns only those paths,
 * e.g. {"info": {"M": {"rating": ...}}} for SET info.rating = :r (the getting-started
 * tutorial's MoviesItemOps, UpdateExpression "set info.rating=:r, info.plot=:p, info.actors=:a"
 * with UPDATED_NEW, shows only those three members of info). DynamoDB Local returns whole
 * top-level attributes instead; the documentation wins. */
static DdbValue *
updated_attributes (const DdbUpdate *u, const DdbValue *old_item, const DdbValue *item,
                    gboolean after)
{
  g_autoptr (DdbProjection) paths = NULL;

  if (item == NULL || u == NULL)
    return NULL;
  paths = ddb_update_touched_paths (u, old_item, after);
  if (paths->n_paths == 0)
    return NULL;
  return ddb_projection_apply (paths, item);
}

gboolean
ddb_write_add_response (DdbStore *store, const DdbPreparedWrite *w, json_t *response,
                        GError **error)
{
  g_autoptr (DdbValue) attrs = NULL;

  switch (w->return_values)
    {
    case DDB_RV_NONE:
      break;
    case DDB_RV_ALL_OLD:
      if (w->old_item != NULL)
        attrs = ddb_value_copy (w->old_item);
      break;
    case DDB_RV_ALL_NEW:
      if (w->new_item != NULL)
        attrs = ddb_value_copy (w->new_item);
      break;
    case DDB_RV_UPDATED_OLD:
      attrs = updated_attributes (w->update, w->old_item, w->old_item, FALSE);
      break;
    case DDB_RV_UPDATED_NEW:
      attrs = updated_attributes (w->update, w->old_item, w->new_item, TRUE);
      break;
    }
  if (attrs != NULL && ddb_value_map_size (attrs) > 0)
    json_object_set_new (response, "Attributes", ddb_item_to_json (attrs));

  if (w->return_metrics && ddb_table_def_has_lsi (w->def) && w->kind != DDB_WRITE_CONDITION_CHECK)
    {
      json_t *metrics = ddb_item_collection_metrics (store, w->def, w->key, error);

      if (metrics == NULL)
        return FALSE;
      json_object_set_new (response, "ItemCollectionMetrics", metrics);
    }
  return TRUE;
}

/* One write operation: prepare, then check and write in one store transaction. */
static json_t *
run_write (DdbEngine *e, DdbWriteKind kind, json_t *req, json_t **extra, GError **error)
{
  g_autoptr (DdbPreparedWrite) w = NULL;
  json_t *response, *consumed;

  w = ddb_write_prepare (e->store, kind, req, NULL, DDB_WRITE_FLAGS_NONE, error);
  if (w == NULL)
    return NULL;
  if (!ddb_store_begin (e->store, error))
    return NULL;
  if (!ddb_write_check (e->store, w, extra, error) || !ddb_write_apply (e->store, w, error))
    {
      ddb_store_rollback (e->store);
      return NULL;
    }
  if (!ddb_store_commit (e->store, error))
    {
      ddb_store_rollback (e->store);
      return NULL;
    }

  response = json_object ();
  if (!ddb_write_add_response (e->store, w, response, error))
    {
      json_decref (response);
      return NULL;
    }
  if (w->return_capacity != DDB_RCC_NONE)
    {
      DdbCapacity cap;

      ddb_capacity_init (&cap, w->def->name);
      ddb_write_add_capacity (w, &cap, 1.0);
      consumed = ddb_capacity_to_json (&cap, w->return_capacity);
      ddb_capacity_clear (&cap);
      json_object_set_new (response, "ConsumedCapacity", consumed);
    }
  return response;
}

json_t *
ddb_op_put_item (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  return run_write (e, DDB_WRITE_PUT, req, extra, error);
}

json_t *
ddb_op_update_item (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  return run_write (e, DDB_WRITE_UPDATE, req, extra, error);
}

json_t *
ddb_op_delete_item (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  return run_write (e, DDB_WRITE_DELETE, req, extra, error);
}

/* ---- Reads ---- */

void
ddb_get_free (DdbPreparedGet *g)
{
  if (g == NULL)
    return;
  g_clear_pointer (&g->def, ddb_table_def_free);
  g_clear_pointer (&g->key, ddb_value_free);
  g_clear_pointer (&g->projection, ddb_projection_free);
  g_free (g);
}

static DdbPreparedGet *
get_prepare (DdbStore *store, json_t *req, const char *table_name, GError **error)
{
  static const char *const exprs[] = { "ProjectionExpression", NULL };
  g_autoptr (DdbPreparedGet) g = g_new0 (DdbPreparedGet, 1);
  const char *projection_text = NULL;
  json_t *attributes_to_get;
  DdbReqExpr rx;

  if (table_name == NULL)
    {
      table_name = ddb_req_table_name (req, "TableName", error);
      if (table_name == NULL)
        return NULL;
    }
  if (!ddb_req_bool (req, "ConsistentRead", FALSE, &g->consistent, error)
      || !ddb_req_return_capacity (req, &g->return_capacity, error)
      || !string_member (req, "ProjectionExpression", &projection_text, error))
    return NULL;
  if (!ddb_legacy_check_not_mixed (req, error)
      || !check_placeholders_have_expressions (req, exprs, FALSE, error))
    return NULL;

  if (!ddb_req_expr_init (&rx, req, error))
    return NULL;
  if (projection_text != NULL)
    {
      g->projection = ddb_projection_parse (projection_text, rx.ctx, error);
      if (g->projection == NULL)
        goto fail_rx;
    }
  if (!ddb_expr_context_check_unused (rx.ctx, error))
    goto fail_rx;
  ddb_req_expr_clear (&rx);

  attributes_to_get = member_get (req, "AttributesToGet");
  if (attributes_to_get != NULL)
    {
      g->projection = ddb_legacy_attributes_to_get (attributes_to_get, error);
      if (g->projection == NULL)
        return NULL;
    }

  g->def = ddb_store_table_get (store, table_name, error);
  if (g->def == NULL)
    return NULL;
  g->key = ddb_req_key (member_get (req, "Key"), g->def, error);
  if (g->key == NULL)
    return NULL;
  return g_steal_pointer (&g);

fail_rx:
  ddb_req_expr_clear (&rx);
  return NULL;
}

DdbPreparedGet *
ddb_get_prepare (DdbStore *store, json_t *req, const char *table_name, GError **error)
{
  /* GetItem's shape has no ExpressionAttributeValues: the deserializer drops them. */
  static const char *const drop[] = { "ExpressionAttributeValues", NULL };
  json_t *view;
  DdbPreparedGet *g;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (!json_is_object (req))
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_SERIALIZATION,
                           "Start of structure or map found where not expected");
      return NULL;
    }
  view = request_without (req, drop);
  g = get_prepare (store, view, table_name, error);
  json_decref (view);
  return g;
}

gboolean
ddb_get_run (DdbStore *store, const DdbPreparedGet *g, DdbValue **item, gsize *size, GError **error)
{
  DdbValue *found = NULL;

  *item = NULL;
  *size = 0;
  if (!ddb_store_item_get (store, g->def, g->key, &found, error))
    return FALSE;
  if (found == NULL)
    return TRUE;
  *size = ddb_item_size (found);
  if (g->projection != NULL)
    {
      *item = ddb_projection_apply (g->projection, found);
      ddb_value_free (found);
    }
  else
    *item = found;
  return TRUE;
}

json_t *
ddb_op_get_item (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  g_autoptr (DdbPreparedGet) g = NULL;
  g_autoptr (DdbValue) item = NULL;
  gsize size;
  json_t *response;

  g = ddb_get_prepare (e->store, req, NULL, error);
  if (g == NULL || !ddb_get_run (e->store, g, &item, &size, error))
    return NULL;
  response = json_object ();
  if (item != NULL)
    json_object_set_new (response, "Item", ddb_item_to_json (item));
  if (g->return_capacity != DDB_RCC_NONE)
    {
      DdbCapacity cap;

      ddb_capacity_init (&cap, g->def->name);
      cap.table_read = ddb_capacity_read_units (size, g->consistent);
      json_object_set_new (response, "ConsumedCapacity",
                           ddb_capacity_to_json (&cap, g->return_capacity));
      ddb_capacity_clear (&cap);
    }
  return response;
}
