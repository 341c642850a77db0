/* itemcheck.c: PutItem's item checks against a table described by DescribeTable (see
 * itemcheck.h): the description becomes a table definition, and the engine's own checks
 * (request.c) run on it. */
#include "engine/itemcheck.h"

#include <string.h>

#include "core/itemsize.h"
#include "core/keycodec.h"
#include "engine/item-ops.h"
#include "engine/snapshot-private.h"
#include "engine/table-private.h"

struct _DdbItemCheck {
  DdbTableDef *def;
};

static gboolean
key_from_schema (json_t *key_schema, json_t *definitions, DdbKeyDef *key, GError **error)
{
  json_t *elem;
  gsize i;

  json_array_foreach (key_schema, i, elem)
    {
      const char *name = json_string_value (json_object_get (elem, "AttributeName"));
      const char *kind = json_string_value (json_object_get (elem, "KeyType"));
      gboolean hash = g_strcmp0 (kind, "HASH") == 0;
      DdbType type;

      if (name == NULL || (!hash && g_strcmp0 (kind, "RANGE") != 0)
          || !ddb_table_attr_def_type (definitions, name, &type))
        return ddb_set_validation_error (error, "The table's description has no usable key "
                                                "schema");
      if (hash)
        {
          key->hash_name = g_strdup (name);
          key->hash_type = type;
        }
      else
        {
          key->range_name = g_strdup (name);
          key->range_type = type;
        }
    }
  if (key->hash_name == NULL)
    return ddb_set_validation_error (error, "The table's description has no partition key");
  return TRUE;
}

static gboolean
add_indexes (DdbTableDef *def, json_t *list, gboolean global, json_t *definitions, GError **error)
{
  json_t *elem;
  gsize i;

  json_array_foreach (list, i, elem)
    {
      DdbIndexDef *index = g_new0 (DdbIndexDef, 1);

      index->name = g_strdup (json_string_value (json_object_get (elem, "IndexName")));
      index->global = global;
      g_ptr_array_add (def->indexes, index);
      if (index->name == NULL
          || !key_from_schema (json_object_get (elem, "KeySchema"), definitions, &index->key,
                               error))
        return FALSE;
    }
  return TRUE;
}

DdbItemCheck *
ddb_item_check_new (json_t *description, GError **error)
{
  g_autoptr (DdbItemCheck) check = g_new0 (DdbItemCheck, 1);
  json_t *definitions = json_object_get (description, "AttributeDefinitions");
  DdbTableDef *def;

  check->def = def = g_new0 (DdbTableDef, 1);
  /* No free function: ddb_table_def_free() frees the indexes itself (see snapshot-keys.c). */
  def->indexes = g_ptr_array_new ();
  def->name = g_strdup (json_string_value (json_object_get (description, "TableName")));
  def->meta = json_object ();
  if (!key_from_schema (json_object_get (description, "KeySchema"), definitions, &def->key, error)
      || !add_indexes (def, json_object_get (description, "GlobalSecondaryIndexes"), TRUE,
                       definitions, error)
      || !add_indexes (def, json_object_get (description, "LocalSecondaryIndexes"), FALSE,
                       definitions, error))
    return NULL;
  return g_steal_pointer (&check);
}

void
ddb_item_check_free (DdbItemCheck *check)
{
  if (check == NULL)
    return;
  g_clear_pointer (&check->def, ddb_table_def_free);
  g_free (check);
}

const char *
ddb_item_check_hash_name (DdbItemCheck *check)
{
  return check->def->key.hash_name;
}

const char *
ddb_item_check_range_name (DdbItemCheck *check)
{
  return check->def->key.range_name;
}

gboolean
ddb_item_check_key_type (DdbItemCheck *check, const char *name, DdbType *type)
{
  const DdbKeyDef *key = &check->def->key;

  if (g_strcmp0 (name, key->hash_name) == 0)
    *type = key->hash_type;
  else if (key->range_name != NULL && g_strcmp0 (name, key->range_name) == 0)
    *type = key->range_type;
  else
    return FALSE;
  return TRUE;
}

char *
ddb_item_check_key_spec (DdbItemCheck *check)
{
  return snap_key_spec_string (&check->def->key);
}

GStrv
ddb_item_check_gsi_specs (DdbItemCheck *check)
{
  g_autoptr (GStrvBuilder) specs = g_strv_builder_new ();

  for (guint i = 0; i < check->def->indexes->len; i++)
    {
      const DdbIndexDef *index = g_ptr_array_index (check->def->indexes, i);
      g_autofree char *key = NULL;
      g_autofree char *spec = NULL;

      if (!index->global)
        continue;
      key = snap_key_spec_string (&index->key);
      spec = g_strdup_printf ("%s:%s", index->name, key);
      g_strv_builder_add (specs, spec);
    }
  return g_strv_builder_end (specs);
}

gboolean
ddb_item_check_item (DdbItemCheck *check, const DdbValue *item, GError **error)
{
  if (item == NULL || item->type != DDB_TYPE_M)
    return ddb_set_validation_error (error, "Not an item");
  if (!ddb_item_validate (item, error))
    return FALSE;
  if (ddb_item_size (item) > DDB_MAX_ITEM_SIZE)
    return ddb_set_validation_error (error, "Item size has exceeded the maximum allowed size");
  return ddb_item_check_keys (check->def, item, error)
         && ddb_item_check_index_keys (check->def, item, FALSE, error);
}

DdbValue *
ddb_item_check_key (DdbItemCheck *check, const DdbValue *item)
{
  return ddb_key_def_extract (&check->def->key, item);
}

GBytes *
ddb_item_check_key_code (DdbItemCheck *check, const DdbValue *item)
{
  const DdbKeyDef *key = &check->def->key;
  g_autoptr (GByteArray) out = g_byte_array_new ();
  const DdbValue *h = ddb_value_map_get (item, key->hash_name);
  const DdbValue *s = key->range_name != NULL ? ddb_value_map_get (item, key->range_name) : NULL;

  if (h == NULL || !ddb_key_encode (h, out, NULL)
      || (key->range_name != NULL && (s == NULL || !ddb_key_encode (s, out, NULL))))
    return NULL;
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}
