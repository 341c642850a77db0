/* table.c: table definitions (key schema, secondary indexes): copying, lookup, key extraction
 * and the projection of an item into an index. */
#include "engine/table.h"

#include <string.h>

static void
key_def_copy (DdbKeyDef *dst, const DdbKeyDef *src)
{
  dst->hash_name = g_strdup (src->hash_name);
  dst->hash_type = src->hash_type;
  dst->range_name = g_strdup (src->range_name);
  dst->range_type = src->range_type;
}

void
ddb_key_def_clear (DdbKeyDef *key)
{
  g_clear_pointer (&key->hash_name, g_free);
  g_clear_pointer (&key->range_name, g_free);
}

void
ddb_index_def_free (gpointer data)
{
  DdbIndexDef *index = data;

  if (index == NULL)
    return;
  g_free (index->name);
  ddb_key_def_clear (&index->key);
  g_strfreev (index->non_key_attributes);
  if (index->provisioned != NULL)
    json_decref (index->provisioned);
  g_free (index);
}

static DdbIndexDef *
index_def_copy (const DdbIndexDef *src)
{
  DdbIndexDef *index = g_new0 (DdbIndexDef, 1);

  index->name = g_strdup (src->name);
  index->global = src->global;
  key_def_copy (&index->key, &src->key);
  index->projection = src->projection;
  index->non_key_attributes = g_strdupv (src->non_key_attributes);
  index->id = src->id;
  index->provisioned = src->provisioned != NULL ? json_deep_copy (src->provisioned) : NULL;
  return index;
}

DdbTableDef *
ddb_table_def_copy (const DdbTableDef *def)
{
  DdbTableDef *copy = g_new0 (DdbTableDef, 1);

  copy->id = def->id;
  copy->name = g_strdup (def->name);
  key_def_copy (&copy->key, &def->key);
  copy->indexes = g_ptr_array_new_with_free_func (ddb_index_def_free);
  if (def->indexes != NULL)
    {
      for (guint i = 0; i < def->indexes->len; i++)
        g_ptr_array_add (copy->indexes, index_def_copy (def->indexes->pdata[i]));
    }
  copy->meta = def->meta != NULL ? json_deep_copy (def->meta) : json_object ();
  return copy;
}

void
ddb_table_def_free (DdbTableDef *def)
{
  if (def == NULL)
    return;
  g_free (def->name);
  ddb_key_def_clear (&def->key);
  if (def->indexes != NULL)
    {
      /* Callers may have built the array without a free function. */
      for (guint i = 0; i < def->indexes->len; i++)
        {
          ddb_index_def_free (def->indexes->pdata[i]);
          def->indexes->pdata[i] = NULL;
        }
      g_ptr_array_unref (def->indexes);
    }
  if (def->meta != NULL)
    json_decref (def->meta);
  g_free (def);
}

gboolean
ddb_table_def_has_lsi (const DdbTableDef *def)
{
  for (guint i = 0; def->indexes != NULL && i < def->indexes->len; i++)
    if (!((DdbIndexDef *) g_ptr_array_index (def->indexes, i))->global)
      return TRUE;
  return FALSE;
}

DdbIndexDef *
ddb_table_def_index (const DdbTableDef *def, const char *name)
{
  if (def->indexes == NULL || name == NULL)
    return NULL;
  for (guint i = 0; i < def->indexes->len; i++)
    {
      DdbIndexDef *index = def->indexes->pdata[i];

      if (strcmp (index->name, name) == 0)
        return index;
    }
  return NULL;
}

json_t *
ddb_key_def_to_json (const DdbKeyDef *key)
{
  json_t *schema = json_pack ("[{ss ss}]", "AttributeName", key->hash_name, "KeyType", "HASH");

  if (key->range_name != NULL)
    json_array_append_new (
        schema, json_pack ("{ss ss}", "AttributeName", key->range_name, "KeyType", "RANGE"));
  return schema;
}

void
ddb_key_def_schema (const DdbKeyDef *key, DdbKeySchema *out)
{
  out->pk_name = key->hash_name;
  out->pk_type = key->hash_type;
  out->sk_name = key->range_name;
  out->sk_type = key->range_type;
}

DdbValue *
ddb_key_def_extract (const DdbKeyDef *key, const DdbValue *item)
{
  DdbValue *hash = ddb_value_map_get (item, key->hash_name);
  DdbValue *range = NULL;
  DdbValue *out;

  if (hash == NULL)
    return NULL;
  if (key->range_name != NULL)
    {
      range = ddb_value_map_get (item, key->range_name);
      if (range == NULL)
        return NULL;
    }
  out = ddb_value_new_m_sized (2);
  ddb_value_map_set (out, key->hash_name, ddb_value_copy (hash));
  if (range != NULL)
    ddb_value_map_set (out, key->range_name, ddb_value_copy (range));
  return out;
}

static gboolean
has_key_attribute (const DdbValue *item, const char *name, DdbType type)
{
  const DdbValue *v = ddb_value_map_get (item, name);

  return v != NULL && v->type == type;
}

static gboolean
is_key_name (const DdbKeyDef *key, const char *name)
{
  return strcmp (key->hash_name, name) == 0
         || (key->range_name != NULL && strcmp (key->range_name, name) == 0);
}

DdbValue *
ddb_index_project (const DdbTableDef *table, const DdbIndexDef *index, const DdbValue *item)
{
  DdbValue *out;
  guint n;

  if (!has_key_attribute (item, index->key.hash_name, index->key.hash_type))
    return NULL;
  if (index->key.range_name != NULL
      && !has_key_attribute (item, index->key.range_name, index->key.range_type))
    return NULL;

  if (index->projection == DDB_PROJECTION_ALL)
    return ddb_value_copy (item);

  /* Keep the item's attribute order so an index read shows attributes as the table does. */
  n = ddb_value_map_size (item);
  out = ddb_value_new_m_sized (4);
  for (guint i = 0; i < n; i++)
    {
      const DdbAttr *attr = ddb_value_map_nth (item, i);
      gboolean keep
          = is_key_name (&table->key, attr->name) || is_key_name (&index->key, attr->name);

      if (!keep && index->projection == DDB_PROJECTION_INCLUDE && index->non_key_attributes != NULL)
        {
          for (char **p = index->non_key_attributes; *p != NULL; p++)
            {
              if (strcmp (*p, attr->name) == 0)
                {
                  keep = TRUE;
                  break;
                }
            }
        }
      if (keep)
        ddb_value_map_append (out, attr->name, attr->name_len, ddb_value_copy (attr->value));
    }
  return out;
}
