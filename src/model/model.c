/* model.c: the key design's tables, entities, access patterns and their lookups. */
#include "model/model.h"

#include <string.h>

static void
attr_clear (DyModelAttr *attr)
{
  g_clear_pointer (&attr->name, g_free);
  g_clear_pointer (&attr->type, g_free);
}

static void
attr_free (gpointer data)
{
  attr_clear (data);
  g_free (data);
}

static void
index_free (gpointer data)
{
  DyModelIndex *index = data;
  g_free (index->name);
  attr_clear (&index->partition);
  attr_clear (&index->sort);
  g_free (index->projection);
  g_ptr_array_unref (index->non_key);
  g_free (index);
}

static void
table_free (gpointer data)
{
  DyModelTable *table = data;
  g_free (table->name);
  attr_clear (&table->partition);
  attr_clear (&table->sort);
  g_ptr_array_unref (table->attrs);
  g_ptr_array_unref (table->indexes);
  g_free (table->billing_mode);
  json_decref (table->items);
  json_decref (table->extra);
  g_free (table);
}

static void
key_free (gpointer data)
{
  DyModelKey *key = data;
  g_free (key->attr);
  dy_template_free (key->tpl);
  g_free (key);
}

static void
entity_free (gpointer data)
{
  DyModelEntity *entity = data;
  g_free (entity->name);
  g_free (entity->table);
  g_ptr_array_unref (entity->attrs);
  g_ptr_array_unref (entity->keys);
  g_hash_table_unref (entity->max_lengths);
  json_decref (entity->extra);
  g_free (entity);
}

static void
pattern_free (gpointer data)
{
  DyModelPattern *pattern = data;
  g_free (pattern->name);
  g_free (pattern->entity);
  g_free (pattern->index);
  g_ptr_array_unref (pattern->inputs);
  g_hash_table_unref (pattern->examples);
  g_free (pattern->range_from);
  g_free (pattern->range_to);
  g_ptr_array_unref (pattern->filters);
  g_free (pattern);
}

DyModel *
dy_model_new (const char *name)
{
  DyModel *model = g_new0 (DyModel, 1);
  model->name = g_strdup (name);
  model->tables = g_ptr_array_new_with_free_func (table_free);
  model->entities = g_ptr_array_new_with_free_func (entity_free);
  model->patterns = g_ptr_array_new_with_free_func (pattern_free);
  model->extra = json_object ();
  model->prices = dy_prices_new_default ();
  return model;
}

void
dy_model_free (DyModel *model)
{
  if (model == NULL)
    return;
  g_free (model->name);
  g_free (model->author);
  g_free (model->description);
  g_ptr_array_unref (model->tables);
  g_ptr_array_unref (model->entities);
  g_ptr_array_unref (model->patterns);
  json_decref (model->extra);
  dy_prices_free (model->prices);
  g_free (model);
}

DyModelTable *
dy_model_table_new (const char *name)
{
  DyModelTable *table = g_new0 (DyModelTable, 1);
  table->name = g_strdup (name);
  table->attrs = g_ptr_array_new_with_free_func (attr_free);
  table->indexes = g_ptr_array_new_with_free_func (index_free);
  table->items = json_array ();
  table->extra = json_object ();
  return table;
}

DyModelIndex *
dy_model_index_new (const char *name)
{
  DyModelIndex *index = g_new0 (DyModelIndex, 1);
  index->name = g_strdup (name);
  index->non_key = g_ptr_array_new_with_free_func (g_free);
  return index;
}

DyModelEntity *
dy_model_entity_new (const char *name, const char *table)
{
  DyModelEntity *entity = g_new0 (DyModelEntity, 1);
  entity->name = g_strdup (name);
  entity->table = g_strdup (table);
  entity->attrs = g_ptr_array_new_with_free_func (attr_free);
  entity->keys = g_ptr_array_new_with_free_func (key_free);
  entity->max_lengths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  entity->extra = json_object ();
  return entity;
}

DyModelPattern *
dy_model_pattern_new (const char *name, const char *entity)
{
  DyModelPattern *pattern = g_new0 (DyModelPattern, 1);
  pattern->name = g_strdup (name);
  pattern->entity = g_strdup (entity);
  pattern->inputs = g_ptr_array_new_with_free_func (g_free);
  pattern->examples = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  pattern->filters = g_ptr_array_new_with_free_func (g_free);
  return pattern;
}

gboolean
dy_model_entity_set_key (DyModelEntity *entity, const char *attr, const char *text,
                         GError **error)
{
  DyTemplate *tpl = dy_template_parse (text, error);
  if (tpl == NULL)
    return FALSE;
  for (guint i = 0; i < entity->keys->len; i++)
    {
      DyModelKey *key = g_ptr_array_index (entity->keys, i);
      if (g_str_equal (key->attr, attr))
        {
          dy_template_free (key->tpl);
          key->tpl = tpl;
          return TRUE;
        }
    }
  DyModelKey *key = g_new0 (DyModelKey, 1);
  key->attr = g_strdup (attr);
  key->tpl = tpl;
  g_ptr_array_add (entity->keys, key);
  return TRUE;
}

DyModelTable *
dy_model_find_table (const DyModel *model, const char *name)
{
  for (guint i = 0; name && i < model->tables->len; i++)
    {
      DyModelTable *table = g_ptr_array_index (model->tables, i);
      if (g_str_equal (table->name, name))
        return table;
    }
  return NULL;
}

DyModelEntity *
dy_model_find_entity (const DyModel *model, const char *name)
{
  for (guint i = 0; name && i < model->entities->len; i++)
    {
      DyModelEntity *entity = g_ptr_array_index (model->entities, i);
      if (g_str_equal (entity->name, name))
        return entity;
    }
  return NULL;
}

DyModelIndex *
dy_model_table_find_index (const DyModelTable *table, const char *name)
{
  for (guint i = 0; name && i < table->indexes->len; i++)
    {
      DyModelIndex *index = g_ptr_array_index (table->indexes, i);
      if (g_str_equal (index->name, name))
        return index;
    }
  return NULL;
}

const DyModelKey *
dy_model_entity_find_key (const DyModelEntity *entity, const char *attr)
{
  for (guint i = 0; attr && i < entity->keys->len; i++)
    {
      const DyModelKey *key = g_ptr_array_index (entity->keys, i);
      if (g_str_equal (key->attr, attr))
        return key;
    }
  return NULL;
}

void
dy_model_key_names (const DyModelTable *table, const DyModelIndex *index,
                    const char **partition, const char **sort)
{
  if (index == NULL)
    {
      *partition = table->partition.name;
      *sort = table->sort.name;
      return;
    }
  /* An LSI keeps the table's partition key whatever its definition repeats. */
  *partition = index->local ? table->partition.name : index->partition.name;
  *sort = index->sort.name;
}
