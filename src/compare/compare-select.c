/* compare-select.c: which items a compare looks at, and under which key names: the filter (a
 * FilterExpression evaluated on each item read), the partition list (read with one Query a
 * partition on table sides, picked by key elsewhere), and the key mapping of a there side whose
 * key attributes have other names. */
#include <string.h>

#include "compare/compare-private.h"
#include "core/base64.h"
#include "core/ddbjson.h"
#include "core/error.h"
#include "core/keycodec.h"

static gboolean
partition_value (const char *name, const char *type, const char *text, DdbValue **out,
                 GError **error)
{
  *out = NULL;
  if (strcmp (type, "S") == 0)
    *out = *text != '\0' ? ddb_value_new_s (text, -1) : NULL;
  else if (strcmp (type, "N") == 0)
    {
      DdbNumber n;

      if (ddb_number_parse (&n, text, -1, NULL))
        *out = ddb_value_new_n (&n);
    }
  else
    {
      gsize len = 0;
      g_autofree guchar *data = ddb_base64_decode (text, -1, &len, NULL, NULL);

      if (data != NULL && len > 0)
        *out = ddb_value_new_b (data, len);
    }
  if (*out == NULL)
    g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                 "--partition: “%s” is not a value of the partition key %s (type %s)", text, name,
                 type);
  return *out != NULL;
}

gboolean
compare_select_init (DdbCompareResult *r, GError **error)
{
  const DdbCompareOptions *o = &r->options;

  if (o->filter != NULL)
    {
      const char *text = json_string_value (json_object_get (o->filter, "FilterExpression"));

      if (!json_is_object (o->filter) || text == NULL)
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                               "The compare's filter is a JSON object with a FilterExpression "
                               "(and its ExpressionAttributeNames and ExpressionAttributeValues)");
          return FALSE;
        }
      if (!ddb_req_expr_init (&r->filter_rx, o->filter, error))
        return FALSE;
      r->filter = ddb_condition_parse (DDB_EXPR_FILTER, text, r->filter_rx.ctx, error);
      if (r->filter == NULL || !ddb_expr_context_check_unused (r->filter_rx.ctx, error))
        return FALSE;
    }
  if (o->partitions != NULL && o->partitions[0] != NULL)
    {
      r->partitions = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
      r->partition_set = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                (GDestroyNotify) g_bytes_unref, NULL);
      for (guint i = 0; o->partitions[i] != NULL; i++)
        {
          DdbValue *v = NULL;
          GByteArray *enc;

          if (!partition_value (r->keys.name[0], r->keys.type[0], o->partitions[i], &v, error))
            return FALSE;
          enc = g_byte_array_new ();
          ddb_key_encode (v, enc, NULL);
          if (g_hash_table_add (r->partition_set, g_byte_array_free_to_bytes (enc)))
            g_ptr_array_add (r->partitions, v);
          else
            ddb_value_free (v); /* named twice */
        }
    }
  return TRUE;
}

void
compare_select_clear (DdbCompareResult *r)
{
  g_clear_pointer (&r->filter, ddb_node_free);
  ddb_req_expr_clear (&r->filter_rx);
  g_clear_pointer (&r->partitions, g_ptr_array_unref);
  g_clear_pointer (&r->partition_set, g_hash_table_unref);
}

gboolean
compare_selected (DdbCompareResult *r, const DdbValue *item, gboolean *selected, GError **error)
{
  *selected = TRUE;
  if (r->partition_set != NULL)
    {
      const DdbValue *pk = ddb_value_map_get (item, r->keys.name[0]);
      g_autoptr (GByteArray) enc = g_byte_array_new ();
      g_autoptr (GBytes) bytes = NULL;

      if (pk == NULL || !ddb_key_encode (pk, enc, NULL))
        {
          *selected = FALSE;
          return TRUE;
        }
      bytes = g_bytes_new (enc->data, enc->len);
      *selected = g_hash_table_contains (r->partition_set, bytes);
    }
  if (*selected && r->filter != NULL)
    return ddb_condition_eval (r->filter, item, selected, error);
  return TRUE;
}

/* Renames the key attributes of ITEM (in place) from FROM's names to TO's. */
static gboolean
rename_keys (DdbValue *item, char *const *from, char *const *to, guint n, GError **error)
{
  for (guint i = 0; i < n; i++)
    if (strcmp (from[i], to[i]) != 0 && ddb_value_map_get (item, to[i]) != NULL)
      {
        g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                     "The key names cannot be mapped: an item holds an attribute %s beside its "
                     "key attribute %s",
                     to[i], from[i]);
        return FALSE;
      }
  for (guint i = 0; i < n; i++)
    {
      const DdbValue *v = ddb_value_map_get (item, from[i]);

      if (v != NULL && strcmp (from[i], to[i]) != 0)
        {
          DdbValue *copy = ddb_value_copy (v);

          ddb_value_map_remove (item, from[i]);
          ddb_value_map_set (item, to[i], copy);
        }
    }
  return TRUE;
}

gboolean
compare_map_to_here (DdbCompareResult *r, DdbValue *item, GError **error)
{
  if (!r->rename)
    return TRUE;
  return rename_keys (item, r->there_names, r->keys.name, r->keys.n, error);
}

DdbValue *
compare_map_to_there (DdbCompareResult *r, const DdbValue *item)
{
  DdbValue *copy;

  if (item == NULL)
    return NULL;
  copy = ddb_value_copy (item);
  if (r->rename && !rename_keys (copy, r->keys.name, r->there_names, r->keys.n, NULL))
    g_warn_if_reached (); /* checked when it was read */
  return copy;
}

/* ---- one Query a partition ---- */

gboolean
compare_query_partitions (DdbCompareResult *r, DdbBackend *backend, const char *table,
                          const char *key_name, CompareItemFunc each, gpointer data,
                          CompareProgressFunc progress, gpointer progress_data,
                          GCancellable *cancellable, GError **error)
{
  guint64 items = 0;

  for (guint i = 0; i < r->partitions->len; i++)
    {
      json_t *start = NULL;

      do
        {
          json_t *req = json_pack (
              "{s:s,s:s,s:{s:s},s:{s:o}}", "TableName", table, "KeyConditionExpression",
              "#pk = :pk", "ExpressionAttributeNames", "#pk", key_name, "ExpressionAttributeValues",
              ":pk", ddb_value_to_json (r->partitions->pdata[i]));
          json_t *resp = NULL, *list, *entry;
          gboolean ok;
          size_t k;

          if (start != NULL)
            json_object_set_new (req, "ExclusiveStartKey", start);
          start = NULL;
          ok = ddb_backend_call (backend, "Query", req, cancellable, &resp, error);
          json_decref (req);
          if (!ok)
            {
              json_decref (resp);
              return FALSE;
            }
          list = json_object_get (resp, "Items");
          json_array_foreach (list, k, entry)
            {
              DdbValue *item = ddb_json_to_item (entry, error);

              if (item == NULL || !each (item, data))
                {
                  json_decref (resp);
                  return FALSE;
                }
              items++;
            }
          start = json_incref (json_object_get (resp, "LastEvaluatedKey"));
          json_decref (resp);
          if (progress != NULL)
            progress (items, progress_data);
        }
      while (start != NULL);
    }
  return TRUE;
}
