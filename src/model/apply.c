/* apply.c: CreateTable requests from a model's tables, and the tables created and filled
 * through the backend seam (see apply.h). The waiting and the batched writes are the backend's
 * (backend/batch.h), shared with snapshot imports. */
#include "model/apply.h"

#include <string.h>

#include "backend/batch.h"
#include "backend/table-requests.h"
#include "core/error.h"
#include "model/generate.h"

G_DEFINE_QUARK (dy-apply-error-quark, dy_apply_error)

/* The type of ATTRIBUTE as the model declares it on TABLE: a key attribute of the table or one
 * of its indexes, else one of its attributes; "S" when the model gives none. */
static const char *
attr_type (const DyModelTable *table, const char *name)
{
  const DyModelAttr *keys[2] = { &table->partition, &table->sort };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (g_strcmp0 (keys[i]->name, name) == 0 && keys[i]->type != NULL)
      return keys[i]->type;
  for (guint i = 0; i < table->indexes->len; i++)
    {
      const DyModelIndex *ix = g_ptr_array_index (table->indexes, i);

      if (g_strcmp0 (ix->partition.name, name) == 0 && ix->partition.type != NULL)
        return ix->partition.type;
      if (g_strcmp0 (ix->sort.name, name) == 0 && ix->sort.type != NULL)
        return ix->sort.type;
    }
  for (guint i = 0; i < table->attrs->len; i++)
    {
      const DyModelAttr *attr = g_ptr_array_index (table->attrs, i);

      if (g_strcmp0 (attr->name, name) == 0 && attr->type != NULL)
        return attr->type;
    }
  return "S";
}

static gboolean
is_provisioned (const DyModelTable *table)
{
  return table->billing_mode != NULL && g_str_equal (table->billing_mode, "PROVISIONED");
}

/* TABLE as the backend's table description, which builds and checks its CreateTable. */
static DdbTableSpec *
table_spec (const DyModelTable *table)
{
  const char *sk = table->sort.name;
  DdbTableSpec *spec = ddb_table_spec_new (table->name, table->partition.name,
                                           attr_type (table, table->partition.name), sk,
                                           sk != NULL ? attr_type (table, sk) : NULL);
  gint64 rcu = table->rcu > 0 ? table->rcu : DY_APPLY_DEFAULT_CAPACITY;
  gint64 wcu = table->wcu > 0 ? table->wcu : DY_APPLY_DEFAULT_CAPACITY;

  if (is_provisioned (table))
    {
      spec->billing = DDB_BILLING_PROVISIONED;
      spec->rcu = rcu;
      spec->wcu = wcu;
    }
  for (guint i = 0; i < table->indexes->len; i++)
    {
      const DyModelIndex *ix = g_ptr_array_index (table->indexes, i);
      const char *pk, *isk;
      DdbIndexSpec *index;

      dy_model_key_names (table, ix, &pk, &isk);
      index = ddb_index_spec_new (ix->name, pk, pk != NULL ? attr_type (table, pk) : NULL, isk,
                                  isk != NULL ? attr_type (table, isk) : NULL);
      if (g_strcmp0 (ix->projection, "KEYS_ONLY") == 0)
        index->projection = DDB_PROJECTION_KEYS_ONLY;
      else if (g_strcmp0 (ix->projection, "INCLUDE") == 0)
        {
          index->projection = DDB_PROJECTION_INCLUDE;
          for (guint n = 0; n < ix->non_key->len; n++)
            g_ptr_array_add (index->non_key_attributes,
                             g_strdup (g_ptr_array_index (ix->non_key, n)));
        }
      if (!ix->local && spec->billing == DDB_BILLING_PROVISIONED)
        {
          index->rcu = rcu;
          index->wcu = wcu;
        }
      g_ptr_array_add (ix->local ? spec->lsis : spec->gsis, index);
    }
  return spec;
}

json_t *
dy_model_create_table_request (const DyModel *model, const DyModelTable *table, GError **error)
{
  g_autoptr (DdbTableSpec) spec = NULL;
  g_autoptr (GPtrArray) steps = NULL;

  g_return_val_if_fail (model != NULL && table != NULL, NULL);
  spec = table_spec (table);
  steps = ddb_table_create_steps (spec, error);
  if (steps == NULL)
    return NULL;
  return json_incref (((DdbTableStep *) steps->pdata[0])->request);
}

json_t *
dy_model_apply_items (const DyModel *model, const DyModelTable *table, guint items_per_entity,
                      GError **error)
{
  if (items_per_entity == 0)
    return json_incref (table->items);
  return dy_model_generate (model, table, items_per_entity, DY_APPLY_SEED, error);
}

/* The item's table key as bytes, to keep one key out of a batch twice. */
static GBytes *
item_key (const DyModelTable *table, json_t *item)
{
  json_auto_t *key = json_object ();

  json_object_set (key, "p", json_object_get (item, table->partition.name));
  if (table->sort.name != NULL && json_object_get (item, table->sort.name) != NULL)
    json_object_set (key, "s", json_object_get (item, table->sort.name));
  char *text = json_dumps (key, JSON_COMPACT | JSON_SORT_KEYS);
  return g_bytes_new_take (text, strlen (text));
}

/* Sample items that lack a key attribute or repeat a key would fail or silently overwrite. */
static gboolean
check_items (const DyModelTable *table, json_t *items, GError **error)
{
  g_autoptr (GHashTable) seen
      = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  json_t *item;
  gsize i;

  json_array_foreach (items, i, item)
    {
      const char *missing = NULL;
      if (json_object_get (item, table->partition.name) == NULL)
        missing = table->partition.name;
      else if (table->sort.name != NULL && json_object_get (item, table->sort.name) == NULL)
        missing = table->sort.name;
      if (missing != NULL)
        {
          g_set_error (error, DY_APPLY_ERROR, DY_APPLY_ERROR_MODEL,
                       "Table %s: item %zu has no %s, a key of the table", table->name, i + 1,
                       missing);
          return FALSE;
        }
      GBytes *key = item_key (table, item);
      if (!g_hash_table_add (seen, key))
        {
          g_autofree char *text = g_strndup (g_bytes_get_data (key, NULL), g_bytes_get_size (key));
          g_set_error (error, DY_APPLY_ERROR, DY_APPLY_ERROR_MODEL,
                       "Table %s: item %zu has the key of an earlier item (%s): one would "
                       "overwrite the other",
                       table->name, i + 1, text);
          return FALSE;
        }
    }
  return TRUE;
}

typedef struct {
  const char *table;
  guint64 total;
  DyApplyProgress progress;
  gpointer user_data;
} Progress;

static void
written (guint64 n, gpointer user_data)
{
  Progress *p = user_data;

  if (p->progress != NULL)
    p->progress (p->table, n, p->total, p->user_data);
}

static gboolean
apply_table (DdbBackend *backend, const DyModel *model, const DyModelTable *table, json_t *items,
             DyApplyFlags flags, DyApplyProgress progress, gpointer user_data,
             GCancellable *cancellable, GError **error)
{
  json_auto_t *req = dy_model_create_table_request (model, table, error);
  json_auto_t *resp = NULL;
  GError *local = NULL;
  Progress p = { table->name, json_array_size (items), progress, user_data };

  if (req == NULL)
    return FALSE;
  if (progress != NULL)
    progress (table->name, 0, p.total, user_data);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (!ddb_backend_call (backend, "CreateTable", req, cancellable, &resp, &local))
    {
      if (!(flags & DY_APPLY_EXISTING_OK)
          || !g_error_matches (local, DDB_ERROR, DDB_ERROR_RESOURCE_IN_USE))
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      g_clear_error (&local);
    }
  if (!ddb_transfer_wait_active (backend, table->name, 0, cancellable, error))
    return FALSE;

  g_autoptr (DdbBatchWriter) writer
      = ddb_batch_writer_new (backend, table->name, NULL, cancellable, written, &p);
  json_t *item;
  gsize i;
  json_array_foreach (items, i, item)
    {
      g_autoptr (GBytes) key = item_key (table, item);
      g_autofree char *text = json_dumps (item, JSON_COMPACT);

      if (!ddb_batch_writer_add (writer, item, key, strlen (text) + 32, error))
        return FALSE;
    }
  if (!ddb_batch_writer_flush (writer, error))
    return FALSE;
  if (progress != NULL && p.total == 0)
    progress (table->name, 0, 0, user_data);
  return TRUE;
}

gboolean
dy_model_apply (DdbBackend *backend, const DyModel *model, guint items_per_entity,
                DyApplyFlags flags, DyApplyProgress progress, gpointer user_data,
                GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (backend != NULL && model != NULL, FALSE);
  if (model->tables->len == 0)
    {
      g_set_error (error, DY_APPLY_ERROR, DY_APPLY_ERROR_MODEL, "Model %s has no tables",
                   model->name ? model->name : "");
      return FALSE;
    }
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) json_decref);
  for (guint i = 0; i < model->tables->len; i++)
    {
      const DyModelTable *table = g_ptr_array_index (model->tables, i);
      if (table->name == NULL || *table->name == '\0' || table->partition.name == NULL)
        {
          g_set_error (error, DY_APPLY_ERROR, DY_APPLY_ERROR_MODEL,
                       "Table %u of the model has no %s", i + 1,
                       table->name == NULL || *table->name == '\0' ? "name" : "partition key");
          return FALSE;
        }
      for (guint k = 0; k < table->indexes->len; k++)
        {
          const DyModelIndex *ix = g_ptr_array_index (table->indexes, k);
          if ((!ix->local && ix->partition.name == NULL) || (ix->local && ix->sort.name == NULL))
            {
              g_set_error (error, DY_APPLY_ERROR, DY_APPLY_ERROR_MODEL,
                           "Table %s: index %s has no %s", table->name, ix->name,
                           ix->local ? "sort key" : "partition key");
              return FALSE;
            }
        }
      json_t *t = dy_model_apply_items (model, table, items_per_entity, error);
      if (t == NULL)
        return FALSE;
      g_ptr_array_add (items, t);
      if (!check_items (table, t, error))
        return FALSE;
    }
  for (guint i = 0; i < model->tables->len; i++)
    if (!apply_table (backend, model, g_ptr_array_index (model->tables, i),
                      g_ptr_array_index (items, i), flags, progress, user_data, cancellable, error))
      return FALSE;
  return TRUE;
}
