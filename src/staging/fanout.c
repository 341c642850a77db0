/* fanout.c: finding the copies of a duplicated value and staging their updates. */
#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemsize.h"
#include "staging/fanout.h"
#include "staging/writes.h"
#include "staging/staging-private.h"

void
ddb_fanout_plan_free (DdbFanoutPlan *plan)
{
  if (plan == NULL)
    return;
  g_ptr_array_unref (plan->keys);
  g_ptr_array_unref (plan->items);
  g_free (plan);
}

static const char *
hash_key_of (json_t *key_schema)
{
  json_t *elem;
  gsize i;

  json_array_foreach (key_schema, i, elem)
    if (g_strcmp0 (json_string_value (json_object_get (elem, "KeyType")), "HASH") == 0)
      return json_string_value (json_object_get (elem, "AttributeName"));
  return NULL;
}

static gboolean
find_index_key (json_t *table, const char *index, char **out, GError **error)
{
  static const char *const kinds[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      json_t *elem;
      gsize i;

      json_array_foreach (json_object_get (table, kinds[k]), i, elem)
        if (g_strcmp0 (json_string_value (json_object_get (elem, "IndexName")), index) == 0)
          {
            *out = g_strdup (hash_key_of (json_object_get (elem, "KeySchema")));
            return *out != NULL;
          }
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "The table has no index %s", index);
  return FALSE;
}

static gboolean
add_items (DdbFanoutPlan *plan, json_t *key_schema, const DdbFanoutSpec *spec, json_t *items,
           GError **error)
{
  json_t *elem;
  gsize i;

  json_array_foreach (items, i, elem)
    {
      g_autoptr (DdbValue) item = ddb_json_to_item (elem, error);
      g_autoptr (DdbValue) after = NULL;
      DdbValue *key;
      json_t *k;
      gsize j;
      gsize before_size, after_size;

      if (item == NULL)
        return FALSE;
      key = ddb_value_new_m ();
      json_array_foreach (key_schema, j, k)
        {
          const char *name = json_string_value (json_object_get (k, "AttributeName"));
          DdbValue *v = name != NULL ? ddb_value_map_get (item, name) : NULL;

          if (v != NULL)
            ddb_value_map_set (key, name, ddb_value_copy (v));
        }
      g_ptr_array_add (plan->keys, key);
      after = ddb_value_copy (item);
      ddb_value_map_set (after, spec->attribute, ddb_value_copy (spec->new_value));
      before_size = ddb_item_size (item);
      after_size = ddb_item_size (after);
      plan->total_size += after_size;
      plan->write_units += ddb_write_units (before_size, after_size);
      g_ptr_array_add (plan->items, g_steal_pointer (&item));
    }
  return TRUE;
}

DdbFanoutPlan *
ddb_fanout_plan (DdbBackend *backend, const DdbFanoutSpec *spec, GCancellable *cancellable,
                 GError **error)
{
  g_autoptr (DdbFanoutPlan) plan = g_new0 (DdbFanoutPlan, 1);
  json_t *describe_req = json_pack ("{ss}", "TableName", spec->table);
  json_t *described = NULL;
  json_t *key_schema, *req;
  g_autofree char *index_key = NULL;
  gboolean ok;

  plan->keys = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  plan->items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  ok = ddb_backend_call (backend, "DescribeTable", describe_req, cancellable, &described, error);
  json_decref (describe_req);
  if (!ok)
    {
      g_clear_pointer (&described, json_decref);
      return NULL;
    }
  key_schema = json_object_get (json_object_get (described, "Table"), "KeySchema");
  if (spec->index != NULL
      && !find_index_key (json_object_get (described, "Table"), spec->index, &index_key, error))
    {
      json_decref (described);
      return NULL;
    }

  req = json_pack ("{ss s{ss} s{so}}", "TableName", spec->table, "ExpressionAttributeNames",
                   "#a", spec->attribute, "ExpressionAttributeValues", ":old",
                   ddb_value_to_json (spec->old_value));
  json_object_set_new (req, "FilterExpression", json_string ("#a = :old"));
  if (spec->index != NULL)
    {
      json_object_set_new (req, "IndexName", json_string (spec->index));
      json_object_set_new (req, "KeyConditionExpression", json_string ("#k = :k"));
      json_object_set_new (json_object_get (req, "ExpressionAttributeNames"), "#k",
                           json_string (index_key));
      json_object_set_new (json_object_get (req, "ExpressionAttributeValues"), ":k",
                           ddb_value_to_json (spec->index_key));
    }
  for (;;)
    {
      json_t *page = NULL;
      json_t *last;

      ok = ddb_backend_call (backend, spec->index != NULL ? "Query" : "Scan", req, cancellable,
                             &page, error)
           && add_items (plan, key_schema, spec, json_object_get (page, "Items"), error);
      last = ok ? json_object_get (page, "LastEvaluatedKey") : NULL;
      if (last != NULL)
        json_object_set (req, "ExclusiveStartKey", last);
      g_clear_pointer (&page, json_decref);
      if (!ok || last == NULL)
        break;
    }
  json_decref (req);
  json_decref (described);
  if (!ok)
    return NULL;
  plan->n_items = plan->items->len;
  plan->write_units_transactions = 2 * plan->write_units;
  return g_steal_pointer (&plan);
}

gboolean
ddb_fanout_stage (DdbStaging *staging, const char *connection, const DdbFanoutSpec *spec,
                  const DdbFanoutPlan *plan, GError **error)
{
  gboolean ok;

  if (!ddb_staging_batch_begin (staging, error))
    return FALSE;
  ok = TRUE;
  for (guint i = 0; ok && i < plan->items->len; i++)
    {
      const DdbValue *item = g_ptr_array_index (plan->items, i);
      g_autoptr (DdbValue) after = ddb_value_copy (item);

      ddb_value_map_set (after, spec->attribute, ddb_value_copy (spec->new_value));
      ok = ddb_staging_stage_update (staging, connection, spec->table,
                                     g_ptr_array_index (plan->keys, i), item, after, NULL, error);
    }
  return ddb_staging_batch_end (staging, ok, error);
}
