/* table-describe.c: the TableDescription DynamoDB returns for a table definition, with its
 * item count and size. */
#include "engine/table-private.h"

json_t *
ddb_table_throughput_json (gint64 read, gint64 write)
{
  return json_pack ("{sI sI sI}", "NumberOfDecreasesToday", (json_int_t) 0, "ReadCapacityUnits",
                    (json_int_t) read, "WriteCapacityUnits", (json_int_t) write);
}

static json_t *
projection_json (const DdbIndexDef *index)
{
  static const char *const names[] = {
    [DDB_PROJECTION_ALL] = "ALL",
    [DDB_PROJECTION_KEYS_ONLY] = "KEYS_ONLY",
    [DDB_PROJECTION_INCLUDE] = "INCLUDE",
  };
  json_t *p = json_pack ("{ss}", "ProjectionType", names[index->projection]);

  if (index->non_key_attributes != NULL)
    {
      json_t *nka = json_array ();

      for (char **a = index->non_key_attributes; *a != NULL; a++)
        json_array_append_new (nka, json_string (*a));
      json_object_set_new (p, "NonKeyAttributes", nka);
    }
  return p;
}

static void
copy_meta (json_t *out, const DdbTableDef *def, const char *name)
{
  json_t *j = json_object_get (def->meta, name);

  if (j != NULL)
    json_object_set_new (out, name, json_deep_copy (j));
}

/* The TableDescription of `def`, with its statistics when `store` is given. */
json_t *
ddb_table_describe (DdbStore *store, const DdbTableDef *def, const char *status, GError **error)
{
  json_t *d = json_object ();
  json_t *lsis = json_array ();
  json_t *gsis = json_array ();
  gint64 count = 0, size = 0;
  g_autofree char *arn = g_strconcat (ARN_PREFIX, def->name, NULL);

  if (store != NULL && !ddb_store_table_stats (store, def, NULL, &count, &size, error))
    goto fail;
  copy_meta (d, def, "AttributeDefinitions");
  json_object_set_new (d, "TableName", json_string (def->name));
  json_object_set_new (d, "KeySchema", ddb_key_def_to_json (&def->key));
  json_object_set_new (d, "TableStatus", json_string (status));
  copy_meta (d, def, "CreationDateTime");
  copy_meta (d, def, "ProvisionedThroughput");
  json_object_set_new (d, "TableSizeBytes", json_integer (size));
  json_object_set_new (d, "ItemCount", json_integer (count));
  json_object_set_new (d, "TableArn", json_string (arn));
  copy_meta (d, def, "TableId");
  copy_meta (d, def, "BillingModeSummary");
  for (guint i = 0; i < def->indexes->len; i++)
    {
      const DdbIndexDef *index = def->indexes->pdata[i];
      json_t *ix = json_object ();
      gint64 icount = 0, isize = 0;

      if (store != NULL && !ddb_store_table_stats (store, def, index, &icount, &isize, error))
        {
          json_decref (ix);
          goto fail;
        }
      json_object_set_new (ix, "IndexName", json_string (index->name));
      json_object_set_new (ix, "KeySchema", ddb_key_def_to_json (&index->key));
      json_object_set_new (ix, "Projection", projection_json (index));
      if (index->global)
        {
          json_object_set_new (ix, "IndexStatus", json_string ("ACTIVE"));
          if (index->provisioned != NULL)
            json_object_set_new (ix, "ProvisionedThroughput", json_deep_copy (index->provisioned));
        }
      json_object_set_new (ix, "IndexSizeBytes", json_integer (isize));
      json_object_set_new (ix, "ItemCount", json_integer (icount));
      json_object_set_new (ix, "IndexArn",
                           json_sprintf ("%s/index/%s", arn, index->name));
      json_array_append_new (index->global ? gsis : lsis, ix);
    }
  if (json_array_size (lsis) > 0)
    json_object_set (d, "LocalSecondaryIndexes", lsis);
  if (json_array_size (gsis) > 0)
    json_object_set (d, "GlobalSecondaryIndexes", gsis);
  json_decref (lsis);
  json_decref (gsis);
  copy_meta (d, def, "StreamSpecification");
  copy_meta (d, def, "LatestStreamLabel");
  copy_meta (d, def, "LatestStreamArn");
  copy_meta (d, def, "SSEDescription");
  copy_meta (d, def, "TableClassSummary");
  if (json_object_get (def->meta, "DeletionProtectionEnabled") != NULL)
    copy_meta (d, def, "DeletionProtectionEnabled");
  else
    json_object_set_new (d, "DeletionProtectionEnabled", json_false ());
  return d;

fail:
  json_decref (lsis);
  json_decref (gsis);
  json_decref (d);
  return NULL;
}

json_t *
ddb_table_wrap_description (json_t *description)
{
  return description != NULL ? json_pack ("{so}", "TableDescription", description) : NULL;
}
