/* table-tags.c: TagResource, UntagResource, ListTagsOfResource, and the time to live
 * settings (UpdateTimeToLive, DescribeTimeToLive). Expiry itself is ttl-sweep.c's (serve runs it):
 * here a TimeToLive setting is stored and described. */
#include "engine/table-private.h"

#include <string.h>

#include "engine/request.h"

/* Merges `tags` into the list `current` (a tag with an existing key replaces its value). */
void
ddb_table_merge_tags (json_t *current, json_t *tags)
{
  size_t i;
  json_t *t;

  json_array_foreach (tags, i, t)
    {
      const char *key = json_string_value (ddb_table_member (t, "Key"));
      size_t k;
      json_t *c;
      gboolean replaced = FALSE;

      json_array_foreach (current, k, c)
        {
          if (strcmp (json_string_value (json_object_get (c, "Key")), key) == 0)
            {
              json_object_set (c, "Value", ddb_table_member (t, "Value"));
              replaced = TRUE;
              break;
            }
        }
      if (!replaced)
        json_array_append_new (current, json_pack ("{ss sO}", "Key", key, "Value",
                                                   ddb_table_member (t, "Value")));
    }
}

/* ---- Tags ---- */

/* The table an ARN names: TableArn "arn:aws:dynamodb:REGION:ACCOUNT:table/NAME". */
static DdbTableDef *
table_from_arn (DdbEngine *e, json_t *req, GError **error)
{
  json_t *j = ddb_table_member (req, "ResourceArn");
  const char *arn, *slash;
  g_auto (GStrv) parts = NULL;
  g_autofree char *not_found = NULL;
  DdbViolations v;

  if (!ddb_table_check_type (j, JSON_STRING, "String", error))
    return NULL;
  ddb_violations_init (&v);
  if (j == NULL)
    ddb_violation_add (&v, "resourceArn", NULL, "Member must not be null");
  else if (json_string_length (j) < 1)
    ddb_violation_add (&v, "resourceArn", "", "Member must have length greater than or equal to 1");
  else if (json_string_length (j) > 1283)
    ddb_violation_add (&v, "resourceArn", json_string_value (j),
                   "Member must have length less than or equal to 1283");
  if (!ddb_violations_finish (&v, error))
    return NULL;
  arn = json_string_value (j);
  parts = g_strsplit (arn, ":", 6);
  slash = g_strv_length (parts) == 6 ? strchr (parts[5], '/') : NULL;
  /* arn:PARTITION:dynamodb:REGION:ACCOUNT:table/NAME, none of them empty. */
  if (slash == NULL || strcmp (parts[0], "arn") != 0 || strcmp (parts[2], "dynamodb") != 0
      || parts[1][0] == '\0' || parts[3][0] == '\0' || parts[4][0] == '\0'
      || strncmp (parts[5], "table/", 6) != 0 || strchr (slash + 1, '/') != NULL
      || slash[1] == '\0')
    {
      ddb_table_fail (error, DDB_ERROR_VALIDATION,
            "Invalid TableArn: Invalid ResourceArn provided as input %s", arn);
      return NULL;
    }
  not_found = g_strdup_printf ("Requested resource not found: ResourcArn: %s not found", arn);
  /* Sic: DynamoDB's message says "ResourcArn". */
  return ddb_table_get (e, slash + 1, not_found, error);
}

json_t *
ddb_op_tag_resource (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  json_t *tags = ddb_table_member (req, "Tags");
  g_autoptr (DdbTableDef) def = NULL;
  json_t *current;

  (void) extra;
  if (!ddb_table_check_tags (tags, "tags", TRUE, error))
    return NULL;
  def = table_from_arn (e, req, error);
  if (def == NULL)
    return NULL;
  current = json_object_get (def->meta, "Tags");
  if (current == NULL)
    {
      current = json_array ();
      json_object_set_new (def->meta, "Tags", current);
    }
  ddb_table_merge_tags (current, tags);
  if (json_array_size (current) > MAX_TAGS)
    {
      ddb_table_fail (error, DDB_ERROR_VALIDATION, INVALID "Too many tags");
      return NULL;
    }
  if (!ddb_store_table_update (e->store, def, error))
    return NULL;
  return json_object ();
}

json_t *
ddb_op_untag_resource (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  json_t *keys = ddb_table_member (req, "TagKeys");
  g_autoptr (DdbTableDef) def = NULL;
  json_t *current;
  gboolean reserved = FALSE;
  size_t i;
  json_t *k;
  DdbViolations v;

  (void) extra;
  if (!ddb_table_check_type (keys, JSON_ARRAY, "List", error))
    return NULL;
  json_array_foreach (keys, i, k)
    if (!ddb_table_check_type (k, JSON_STRING, "String", error))
      return NULL;
  ddb_violations_init (&v);
  if (keys == NULL)
    ddb_violation_add (&v, "tagKeys", NULL, "Member must not be null");
  json_array_foreach (keys, i, k)
    {
      g_autofree char *path = g_strdup_printf ("tagKeys.%zu.member", i + 1);

      /* AWS's own tags cannot be taken away either. */
      reserved |= ddb_table_check_tag_key (&v, path, k);
    }
  if (!ddb_violations_finish (&v, error))
    return NULL;
  if (reserved)
    return ddb_req_fail (error, DDB_ERROR_VALIDATION, TAG_RESERVED);
  def = table_from_arn (e, req, error);
  if (def == NULL)
    return NULL;
  current = json_object_get (def->meta, "Tags");
  json_array_foreach (keys, i, k)
    {
      for (size_t c = 0; c < json_array_size (current); c++)
        {
          if (strcmp (json_string_value (json_object_get (json_array_get (current, c), "Key")),
                      json_string_value (k))
              == 0)
            {
              json_array_remove (current, c);
              break;
            }
        }
    }
  if (!ddb_store_table_update (e->store, def, error))
    return NULL;
  return json_object ();
}

json_t *
ddb_op_list_tags_of_resource (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  g_autoptr (DdbTableDef) def = NULL;
  json_t *tags;

  (void) extra;
  if (!ddb_table_check_type (ddb_table_member (req, "NextToken"), JSON_STRING, "String", error))
    return NULL;
  def = table_from_arn (e, req, error);
  if (def == NULL)
    return NULL;
  tags = json_object_get (def->meta, "Tags");
  /* Copied: on a reader the definition is shared with the connection's cache. */
  return json_pack ("{so}", "Tags", tags != NULL ? json_deep_copy (tags) : json_array ());
}

/* ---- Time to live ---- */

json_t *
ddb_op_update_time_to_live (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  json_t *spec = ddb_table_member (req, "TimeToLiveSpecification");
  json_t *en, *attr;
  g_autoptr (DdbTableDef) def = NULL;
  json_t *cur;
  const char *name;
  gboolean enabled, cur_enabled;
  DdbViolations v;

  (void) extra;
  if (!ddb_table_check_type (spec, JSON_OBJECT, "Structure", error))
    return NULL;
  en = ddb_table_member (spec, "Enabled");
  attr = ddb_table_member (spec, "AttributeName");
  if (!ddb_table_check_type (en, JSON_TRUE, "Boolean", error)
      || !ddb_table_check_type (attr, JSON_STRING, "String", error))
    return NULL;
  name = ddb_req_table_name (req, "TableName", error);
  if (name == NULL)
    return NULL;
  ddb_violations_init (&v);
  if (spec == NULL)
    ddb_violation_add (&v, "timeToLiveSpecification", NULL, "Member must not be null");
  else
    {
      if (attr == NULL)
        ddb_violation_add (&v, "timeToLiveSpecification.attributeName", NULL,
                       "Member must not be null");
      else if (json_string_length (attr) < 1)
        ddb_violation_add (&v, "timeToLiveSpecification.attributeName", "",
                       "Member must have length greater than or equal to 1");
      else if (g_utf8_strlen (json_string_value (attr), -1) > 255)
        ddb_violation_add (&v, "timeToLiveSpecification.attributeName", json_string_value (attr),
                       "Member must have length less than or equal to 255");
      if (en == NULL)
        ddb_violation_add (&v, "timeToLiveSpecification.enabled", NULL, "Member must not be null");
    }
  if (!ddb_violations_finish (&v, error))
    return NULL;
  def = ddb_table_get_named (e, name, error);
  if (def == NULL)
    return NULL;
  enabled = json_is_true (en);
  cur = json_object_get (def->meta, "TimeToLiveDescription");
  cur_enabled = g_strcmp0 (json_string_value (json_object_get (cur, "TimeToLiveStatus")),
                           "ENABLED")
                == 0;
  if (enabled && cur_enabled)
    {
      ddb_table_fail (error, DDB_ERROR_VALIDATION, "TimeToLive is already enabled");
      return NULL;
    }
  if (!enabled && !cur_enabled)
    {
      ddb_table_fail (error, DDB_ERROR_VALIDATION, "TimeToLive is already disabled");
      return NULL;
    }
  if (!enabled
      && g_strcmp0 (json_string_value (json_object_get (cur, "AttributeName")),
                    json_string_value (attr))
           != 0)
    {
      ddb_table_fail (error, DDB_ERROR_VALIDATION, "TimeToLive is active on a different AttributeName");
      return NULL;
    }
  if (enabled)
    json_object_set_new (def->meta, "TimeToLiveDescription",
                         json_pack ("{ss sO}", "TimeToLiveStatus", "ENABLED", "AttributeName",
                                    attr));
  else
    json_object_set_new (def->meta, "TimeToLiveDescription",
                         json_pack ("{ss}", "TimeToLiveStatus", "DISABLED"));
  if (!ddb_store_table_update (e->store, def, error))
    return NULL;
  return json_pack ("{s{sbsO}}", "TimeToLiveSpecification", "Enabled", enabled, "AttributeName",
                    attr);
}

json_t *
ddb_op_describe_time_to_live (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  g_autoptr (DdbTableDef) def = ddb_table_from_request (e, req, error);
  json_t *cur;

  (void) extra;
  if (def == NULL)
    return NULL;
  cur = json_object_get (def->meta, "TimeToLiveDescription");
  if (cur == NULL)
    return json_pack ("{s{ss}}", "TimeToLiveDescription", "TimeToLiveStatus", "DISABLED");
  return json_pack ("{so}", "TimeToLiveDescription", json_deep_copy (cur));
}
