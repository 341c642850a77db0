/* table-ops.c: the table operations CreateTable, DescribeTable, ListTables, DeleteTable and
 * UpdateTable (their request checks are in table-validate.c, descriptions in table-describe.c,
 * tags and time to live in table-tags.c).
 *
 * Tables are usable as soon as they are created, so descriptions say ACTIVE (as DynamoDB Local
 * does) rather than CREATING/UPDATING; DeleteTable answers DELETING as DynamoDB does. ARNs use
 * the region "ddblocal" and the account 000000000000, as DynamoDB Local's do. */
#include "engine/table-private.h"

#include <string.h>

#include "engine/request.h"

/* ---- Definitions ---- */

static void
key_def_from_schema (json_t *ks, json_t *defs, DdbKeyDef *key)
{
  const char *hash = json_string_value (ddb_table_member (json_array_get (ks, 0), "AttributeName"));
  const char *range = json_array_size (ks) > 1
                        ? json_string_value (ddb_table_member (json_array_get (ks, 1), "AttributeName"))
                        : NULL;

  key->hash_name = g_strdup (hash);
  ddb_table_attr_def_type (defs, hash, &key->hash_type);
  key->range_name = g_strdup (range);
  if (range != NULL)
    ddb_table_attr_def_type (defs, range, &key->range_type);
}

static DdbProjectionType
projection_from_json (json_t *proj)
{
  const char *t = json_string_value (ddb_table_member (proj, "ProjectionType"));

  if (t != NULL && strcmp (t, "KEYS_ONLY") == 0)
    return DDB_PROJECTION_KEYS_ONLY;
  if (t != NULL && strcmp (t, "INCLUDE") == 0)
    return DDB_PROJECTION_INCLUDE;
  return DDB_PROJECTION_ALL;
}

static char **
non_key_attributes (json_t *proj)
{
  json_t *nka = ddb_table_member (proj, "NonKeyAttributes");
  size_t n = json_array_size (nka);
  char **out;

  if (nka == NULL)
    return NULL;
  out = g_new0 (char *, n + 1);
  for (size_t i = 0; i < n; i++)
    out[i] = g_strdup (json_string_value (json_array_get (nka, i)));
  return out;
}

static DdbIndexDef *
index_from_json (json_t *ix, json_t *defs, gboolean gsi, gboolean pay_per_request)
{
  DdbIndexDef *index = g_new0 (DdbIndexDef, 1);
  json_t *proj = ddb_table_member (ix, "Projection");

  index->name = g_strdup (json_string_value (ddb_table_member (ix, "IndexName")));
  index->global = gsi;
  key_def_from_schema (ddb_table_member (ix, "KeySchema"), defs, &index->key);
  index->projection = projection_from_json (proj);
  index->non_key_attributes = non_key_attributes (proj);
  if (gsi)
    {
      json_t *pt = ddb_table_member (ix, "ProvisionedThroughput");

      index->provisioned = pay_per_request
                             ? ddb_table_throughput_json (0, 0)
                             : ddb_table_throughput_json (ddb_table_throughput_value (pt, "ReadCapacityUnits"),
                                                ddb_table_throughput_value (pt, "WriteCapacityUnits"));
    }
  return index;
}

/* AttributeDefinitions holding exactly the attributes the keys use, in the order of `defs`
 * (first definition of a name wins). */
static void
add_key_names (GPtrArray *used, const DdbKeyDef *key)
{
  const char *names[2] = { key->hash_name, key->range_name };

  for (guint i = 0; i < 2; i++)
    {
      gboolean found = FALSE;

      if (names[i] == NULL)
        continue;
      for (guint k = 0; k < used->len && !found; k++)
        found = strcmp (used->pdata[k], names[i]) == 0;
      if (!found)
        g_ptr_array_add (used, (gpointer) names[i]);
    }
}

static GPtrArray *
used_key_names (const DdbTableDef *def)
{
  GPtrArray *used = g_ptr_array_new ();

  add_key_names (used, &def->key);
  for (guint i = 0; i < def->indexes->len; i++)
    add_key_names (used, &((DdbIndexDef *) def->indexes->pdata[i])->key);
  return used;
}

static const char *
key_type_of (const DdbTableDef *def, const char *name)
{
  const DdbKeyDef *keys[MAX_GSI + MAX_LSI + 1];
  guint n = 0;

  keys[n++] = &def->key;
  for (guint i = 0; i < def->indexes->len && n < G_N_ELEMENTS (keys); i++)
    keys[n++] = &((DdbIndexDef *) def->indexes->pdata[i])->key;
  for (guint i = 0; i < n; i++)
    {
      if (strcmp (keys[i]->hash_name, name) == 0)
        return ddb_type_name (keys[i]->hash_type);
      if (keys[i]->range_name != NULL && strcmp (keys[i]->range_name, name) == 0)
        return ddb_type_name (keys[i]->range_type);
    }
  return "S";
}

/* Rebuilds meta.AttributeDefinitions from the keys in use, keeping the previous order. */
static void
sync_attribute_definitions (DdbTableDef *def)
{
  g_autoptr (GPtrArray) used = used_key_names (def);
  json_t *old = json_object_get (def->meta, "AttributeDefinitions");
  json_t *out = json_array ();
  g_autoptr (GPtrArray) done = g_ptr_array_new ();
  size_t i;
  json_t *d;

  json_array_foreach (old, i, d)
    {
      const char *n = json_string_value (ddb_table_member (d, "AttributeName"));

      for (guint k = 0; n != NULL && k < used->len; k++)
        {
          if (strcmp (used->pdata[k], n) == 0)
            {
              json_array_append_new (out, json_pack ("{ss ss}", "AttributeName", n,
                                                     "AttributeType", key_type_of (def, n)));
              g_ptr_array_add (done, used->pdata[k]);
              g_ptr_array_remove_index (used, k);
              break;
            }
        }
    }
  for (guint k = 0; k < used->len; k++)
    json_array_append_new (out, json_pack ("{ss ss}", "AttributeName",
                                           (const char *) used->pdata[k], "AttributeType",
                                           key_type_of (def, used->pdata[k])));
  json_object_set_new (def->meta, "AttributeDefinitions", out);
}

gint64
ddb_table_now_seconds (void)
{
  return g_get_real_time () / G_USEC_PER_SEC;
}

static char *
stream_label (void)
{
  /* Labels name streams (ARNs), so two enabled within one millisecond (a table dropped and
   * created again at once) must still differ: each is at least a millisecond after the last. */
  static gint64 last_ms;
  G_LOCK_DEFINE_STATIC (last_ms);
  gint64 ms;
  g_autoptr (GDateTime) secs = NULL;
  g_autoptr (GDateTime) now = NULL;

  G_LOCK (last_ms);
  ms = MAX (g_get_real_time () / 1000, last_ms + 1);
  last_ms = ms;
  G_UNLOCK (last_ms);
  secs = g_date_time_new_from_unix_utc (ms / 1000);
  now = g_date_time_add (secs, (ms % 1000) * 1000);
  return g_date_time_format (now, "%Y-%m-%dT%H:%M:%S.%f");
}

static void
enable_stream (DdbTableDef *def, const char *view_type)
{
  g_autofree char *label = stream_label ();
  g_autofree char *full = NULL;
  g_autofree char *arn = NULL;

  /* %f gives microseconds; DynamoDB labels carry milliseconds. */
  full = g_strndup (label, strlen (label) - 3);
  arn = g_strdup_printf (ARN_PREFIX "%s/stream/%s", def->name, full);
  json_object_set_new (def->meta, "StreamSpecification",
                       json_pack ("{sb ss}", "StreamEnabled", 1, "StreamViewType", view_type));
  json_object_set_new (def->meta, "LatestStreamLabel", json_string (full));
  json_object_set_new (def->meta, "LatestStreamArn", json_string (arn));
}

/* The table for DescribeTable/DeleteTable/UpdateTable, whose not-found message names it. */

/* Billing mode PAY_PER_REQUEST from now on. */
static void
set_pay_per_request (DdbTableDef *def)
{
  json_object_set_new (def->meta, "BillingModeSummary",
                       json_pack ("{ss sI}", "BillingMode", "PAY_PER_REQUEST",
                                  "LastUpdateToPayPerRequestDateTime",
                                  (json_int_t) ddb_table_now_seconds ()));
}

/* SSESpecification and TableClass of CreateTable/UpdateTable (either may be NULL). */
static void
set_sse_and_class (DdbTableDef *def, json_t *sse, json_t *table_class)
{
  if (sse != NULL && json_is_true (ddb_table_member (sse, "Enabled")))
    json_object_set_new (def->meta, "SSEDescription",
                         json_pack ("{ss ss}", "Status", "ENABLED", "SSEType", "KMS"));
  else if (sse != NULL)
    json_object_del (def->meta, "SSEDescription");
  if (table_class != NULL)
    json_object_set_new (def->meta, "TableClassSummary",
                         json_pack ("{sO}", "TableClass", table_class));
}

DdbTableDef *
ddb_table_get (DdbEngine *e, const char *name, const char *not_found, GError **error)
{
  GError *local = NULL;
  DdbTableDef *def = ddb_store_table_get (e->store, name, &local);

  if (def == NULL)
    {
      if (g_error_matches (local, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND))
        {
          g_clear_error (&local);
          g_set_error_literal (&local, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND, not_found);
        }
      g_propagate_error (error, local);
    }
  return def;
}

DdbTableDef *
ddb_table_get_named (DdbEngine *e, const char *name, GError **error)
{
  g_autofree char *not_found
    = g_strdup_printf ("Requested resource not found: Table: %s not found", name);

  return ddb_table_get (e, name, not_found, error);
}

DdbTableDef *
ddb_table_from_request (DdbEngine *e, json_t *req, GError **error)
{
  const char *name = ddb_req_table_name (req, "TableName", error);

  return name != NULL ? ddb_table_get_named (e, name, error) : NULL;
}

/* ---- CreateTable ---- */

/* The secondary indexes of CreateTable, added to `def` once each is checked. */
static gboolean
add_create_indexes (DdbTableDef *def, json_t *req, gboolean pay_per_request, GError **error)
{
  json_t *defs = ddb_table_member (req, "AttributeDefinitions");
  json_t *lsis = ddb_table_member (req, "LocalSecondaryIndexes");
  json_t *gsis = ddb_table_member (req, "GlobalSecondaryIndexes");
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  size_t i;
  json_t *ix;

  if (lsis != NULL)
    {
      if (json_array_size (lsis) == 0)
        return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                               INVALID "List of LocalSecondaryIndexes is empty");
      if (def->key.range_name == NULL)
        return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                               INVALID "Table KeySchema does not have a range key, which is "
                                       "required when specifying a LocalSecondaryIndex");
      json_array_foreach (lsis, i, ix)
        {
          if (!ddb_table_check_index (ix, defs, &def->key, FALSE, pay_per_request, seen, error))
            return FALSE;
          g_ptr_array_add (def->indexes, index_from_json (ix, defs, FALSE, pay_per_request));
        }
      if (json_array_size (lsis) > MAX_LSI)
        return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                               INVALID "Number of LocalSecondaryIndexes exceeds per-table limit "
                                       "of 5");
    }
  if (gsis != NULL)
    {
      if (json_array_size (gsis) == 0)
        return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                               INVALID "List of GlobalSecondaryIndexes is empty");
      json_array_foreach (gsis, i, ix)
        {
          if (!ddb_table_check_index (ix, defs, &def->key, TRUE, pay_per_request, seen, error))
            return FALSE;
          g_ptr_array_add (def->indexes, index_from_json (ix, defs, TRUE, pay_per_request));
        }
      if (json_array_size (gsis) > MAX_GSI)
        return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                               INVALID "GlobalSecondaryIndex count exceeds the per-table limit "
                                       "of 20");
    }
  return TRUE;
}

json_t *
ddb_op_create_table (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  json_t *defs = ddb_table_member (req, "AttributeDefinitions");
  json_t *pt = ddb_table_member (req, "ProvisionedThroughput");
  json_t *tags = ddb_table_member (req, "Tags");
  g_autoptr (DdbTableDef) def = NULL;
  g_autoptr (GPtrArray) used = NULL;
  g_autoptr (GPtrArray) def_names = NULL;
  g_autofree char *uuid = NULL;
  gboolean pay_per_request = FALSE, stream_enabled = FALSE;
  const char *view_type = NULL;

  (void) extra;
  if (!ddb_table_check_create_request (req, &pay_per_request, &stream_enabled, &view_type,
                                       error))
    return NULL;

  def = g_new0 (DdbTableDef, 1);
  def->name = g_strdup (json_string_value (ddb_table_member (req, "TableName")));
  def->indexes = g_ptr_array_new ();
  def->meta = json_object ();
  key_def_from_schema (ddb_table_member (req, "KeySchema"), defs, &def->key);
  if (!add_create_indexes (def, req, pay_per_request, error))
    return NULL;
  used = used_key_names (def);
  def_names = ddb_table_attr_def_names (defs);
  if (used->len != def_names->len)
    {
      g_autoptr (GString) msg = g_string_new (INVALID "Some AttributeDefinitions are not used. "
                                                      "AttributeDefinitions: [");

      ddb_table_string_list_join (msg, def_names);
      g_string_append (msg, "], keys used: [");
      ddb_table_string_list_join (msg, used);
      g_string_append_c (msg, ']');
      ddb_table_fail (error, DDB_ERROR_VALIDATION, "%s", msg->str);
      return NULL;
    }
  if (tags != NULL && json_array_size (tags) > MAX_TAGS)
    {
      ddb_table_fail (error, DDB_ERROR_VALIDATION, INVALID "Too many tags");
      return NULL;
    }

  json_object_set (def->meta, "AttributeDefinitions", defs);
  sync_attribute_definitions (def);
  json_object_set_new (def->meta, "CreationDateTime", json_integer (ddb_table_now_seconds ()));
  json_object_set_new (def->meta, "ProvisionedThroughput",
                       pay_per_request
                         ? ddb_table_throughput_json (0, 0)
                         : ddb_table_throughput_json (
                             ddb_table_throughput_value (pt, "ReadCapacityUnits"),
                             ddb_table_throughput_value (pt, "WriteCapacityUnits")));
  uuid = g_uuid_string_random ();
  json_object_set_new (def->meta, "TableId", json_string (uuid));
  /* A table created PROVISIONED has no BillingModeSummary: "You may need to switch to
   * on-demand mode at least once in order to return a BillingModeSummary response" (API
   * Reference, BillingModeSummary); DynamoDB Local omits it too. */
  if (pay_per_request)
    set_pay_per_request (def);
  if (stream_enabled)
    enable_stream (def, view_type);
  set_sse_and_class (def, ddb_table_member (req, "SSESpecification"),
                     ddb_table_member (req, "TableClass"));
  json_object_set_new (def->meta, "DeletionProtectionEnabled",
                       json_boolean (json_is_true (
                         ddb_table_member (req, "DeletionProtectionEnabled"))));
  json_object_set_new (def->meta, "Tags", json_array ());
  if (tags != NULL)
    ddb_table_merge_tags (json_object_get (def->meta, "Tags"), tags);

  if (!ddb_store_table_create (e->store, def, error))
    return NULL;
  return ddb_table_wrap_description (ddb_table_describe (NULL, def, "ACTIVE", error));
}

/* ---- DescribeTable, DeleteTable, ListTables ---- */

json_t *
ddb_op_describe_table (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  g_autoptr (DdbTableDef) def = ddb_table_from_request (e, req, error);
  json_t *d;

  (void) extra;
  if (def == NULL)
    return NULL;
  d = ddb_table_describe (e->store, def, "ACTIVE", error);
  return d != NULL ? json_pack ("{so}", "Table", d) : NULL;
}

json_t *
ddb_op_delete_table (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  g_autoptr (DdbTableDef) def = ddb_table_from_request (e, req, error);
  json_t *d;

  (void) extra;
  if (def == NULL)
    return NULL;
  if (json_is_true (json_object_get (def->meta, "DeletionProtectionEnabled")))
    {
      ddb_table_fail (error, DDB_ERROR_VALIDATION,
            "Resource cannot be deleted as it is currently protected against deletion. Disable "
            "deletion protection first.");
      return NULL;
    }
  d = ddb_table_describe (e->store, def, "DELETING", error);
  if (d == NULL)
    return NULL;
  /* A deleting table's description tells what goes, not what the table was: the DeleteTable
   * examples (API reference, AWS CLI, botocore's examples-1.json) show TableName, TableStatus
   * DELETING, ItemCount, TableSizeBytes and ProvisionedThroughput only, and the service adds
   * the table's identity and settings (TableArn, TableId, BillingModeSummary, the stream's
   * members, SSEDescription, TableClassSummary, DeletionProtectionEnabled) but no schema: no
   * KeySchema, AttributeDefinitions, CreationDateTime or indexes (which go with the table).
   * DynamoDB Local sends the whole ACTIVE description; the documentation wins. */
  json_object_del (d, "KeySchema");
  json_object_del (d, "AttributeDefinitions");
  json_object_del (d, "CreationDateTime");
  json_object_del (d, "LocalSecondaryIndexes");
  json_object_del (d, "GlobalSecondaryIndexes");
  if (!ddb_store_table_delete (e->store, def, error))
    {
      json_decref (d);
      return NULL;
    }
  return ddb_table_wrap_description (d);
}

json_t *
ddb_op_list_tables (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  const char *start = NULL;
  gint64 limit = 100;
  gboolean present;
  g_autoptr (GPtrArray) names = NULL;
  json_t *list, *out;

  (void) extra;
  if (ddb_table_member (req, "ExclusiveStartTableName") != NULL)
    {
      start = ddb_req_table_name (req, "ExclusiveStartTableName", error);
      if (start == NULL)
        return NULL;
    }
  if (!ddb_req_int (req, "Limit", 1, 100, &limit, &present, error))
    return NULL;
  /* One more than asked tells whether there is a next page. */
  names = ddb_store_table_names (e->store, start, (guint) limit + 1, error);
  if (names == NULL)
    return NULL;
  list = json_array ();
  for (guint i = 0; i < names->len && i < (guint) limit; i++)
    json_array_append_new (list, json_string (names->pdata[i]));
  out = json_pack ("{so}", "TableNames", list);
  if (names->len > (guint) limit)
    json_object_set_new (out, "LastEvaluatedTableName",
                         json_string (names->pdata[(guint) limit - 1]));
  return out;
}

/* ---- UpdateTable ---- */

static gboolean
set_table_throughput (DdbTableDef *def, json_t *pt, GError **error)
{
  json_t *cur = json_object_get (def->meta, "ProvisionedThroughput");
  gint64 r = ddb_table_throughput_value (pt, "ReadCapacityUnits");
  gint64 w = ddb_table_throughput_value (pt, "WriteCapacityUnits");
  gint64 cr = json_integer_value (json_object_get (cur, "ReadCapacityUnits"));
  gint64 cw = json_integer_value (json_object_get (cur, "WriteCapacityUnits"));
  json_t *nt;

  if (!ddb_table_check_capacity (pt, error))
    return FALSE;
  nt = cur != NULL ? json_deep_copy (cur) : ddb_table_throughput_json (0, 0);
  if (r > cr || w > cw)
    json_object_set_new (nt, "LastIncreaseDateTime", json_integer (ddb_table_now_seconds ()));
  if (r < cr || w < cw)
    {
      gint64 decreases = json_integer_value (json_object_get (nt, "NumberOfDecreasesToday"));

      json_object_set_new (nt, "LastDecreaseDateTime", json_integer (ddb_table_now_seconds ()));
      json_object_set_new (nt, "NumberOfDecreasesToday", json_integer (decreases + 1));
    }
  json_object_set_new (nt, "ReadCapacityUnits", json_integer (r));
  json_object_set_new (nt, "WriteCapacityUnits", json_integer (w));
  json_object_set_new (def->meta, "ProvisionedThroughput", nt);
  return TRUE;
}

static void
set_all_gsi_throughput (DdbTableDef *def, gint64 r, gint64 w)
{
  for (guint i = 0; i < def->indexes->len; i++)
    {
      DdbIndexDef *index = def->indexes->pdata[i];

      if (!index->global)
        continue;
      if (index->provisioned != NULL)
        json_decref (index->provisioned);
      index->provisioned = ddb_table_throughput_json (r, w);
    }
}

/* Frees an index taken out of a definition's array (whatever its free function). */
static void
index_free (gpointer data)
{
  DdbIndexDef *index = data;

  g_free (index->name);
  g_free (index->key.hash_name);
  g_free (index->key.range_name);
  g_strfreev (index->non_key_attributes);
  if (index->provisioned != NULL)
    json_decref (index->provisioned);
  g_free (index);
}

/* An UpdateTable's AttributeDefinitions may repeat the table's key attributes, with the same
 * type: one that gives an attribute another type than the table's definition, or than an
 * earlier entry of the list, is refused with DynamoDB Local's message (CreateTable refuses any
 * repetition: table-validate.c). */
static gboolean
check_redefinitions (const DdbTableDef *def, json_t *defs, GError **error)
{
  json_t *table_defs = json_object_get (def->meta, "AttributeDefinitions");
  size_t i;
  json_t *d;

  json_array_foreach (defs, i, d)
    {
      const char *n = json_string_value (ddb_table_member (d, "AttributeName"));
      const char *t = json_string_value (ddb_table_member (d, "AttributeType"));
      json_t *earlier[2] = { table_defs, json_array () };
      gboolean same = TRUE;

      for (size_t k = 0; k < i; k++)
        json_array_append (earlier[1], json_array_get (defs, k));
      for (guint l = 0; l < G_N_ELEMENTS (earlier) && same; l++)
        {
          size_t j;
          json_t *e;

          json_array_foreach (earlier[l], j, e)
            if (g_strcmp0 (json_string_value (ddb_table_member (e, "AttributeName")), n) == 0
                && g_strcmp0 (json_string_value (ddb_table_member (e, "AttributeType")), t) != 0)
              same = FALSE;
        }
      json_decref (earlier[1]);
      if (!same)
        return ddb_table_fail (error, DDB_ERROR_VALIDATION,
                               "invalid attribute, SchemaElement redefined should be of same "
                               "type as previously defined");
    }
  return TRUE;
}

/* Index key attributes of a new GSI get their types from the request's AttributeDefinitions,
 * falling back on the table's. */
static json_t *
merged_definitions (const DdbTableDef *def, json_t *defs)
{
  json_t *out = json_deep_copy (json_object_get (def->meta, "AttributeDefinitions"));
  size_t i;
  json_t *d;

  if (out == NULL)
    out = json_array ();
  json_array_foreach (defs, i, d)
    {
      const char *n = json_string_value (ddb_table_member (d, "AttributeName"));
      DdbType t;

      if (n != NULL && !ddb_table_attr_def_type (out, n, &t))
        json_array_append (out, d);
    }
  return out;
}

json_t *
ddb_op_update_table (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  DdbTableUpdateRequest up;
  g_autoptr (DdbTableDef) def = NULL;
  json_t *all_defs = NULL;
  gboolean was_ppr, ppr;
  size_t i;
  json_t *u;

  (void) extra;
  if (!ddb_table_check_update_request (req, &up, error))
    return NULL;
  def = ddb_table_get_named (e, up.name, error);
  if (def == NULL || !check_redefinitions (def, up.defs, error))
    return NULL;

  /* Billing mode and throughput. */
  was_ppr = g_strcmp0 (json_string_value (json_object_get (
                         json_object_get (def->meta, "BillingModeSummary"), "BillingMode")),
                       "PAY_PER_REQUEST")
            == 0;
  ppr = up.billing != NULL ? strcmp (json_string_value (up.billing), "PAY_PER_REQUEST") == 0
                          : was_ppr;
  if (ppr && up.pt != NULL)
    {
      ddb_table_fail (error, DDB_ERROR_VALIDATION, PPR_WITH_THROUGHPUT);
      return NULL;
    }
  if (!ppr && was_ppr && up.pt == NULL)
    {
      ddb_table_fail (error, DDB_ERROR_VALIDATION, "No provisioned throughput specified for the table");
      return NULL;
    }
  if (up.pt != NULL && !was_ppr && !ppr)
    {
      json_t *cur = json_object_get (def->meta, "ProvisionedThroughput");
      gint64 cr = json_integer_value (json_object_get (cur, "ReadCapacityUnits"));
      gint64 cw = json_integer_value (json_object_get (cur, "WriteCapacityUnits"));
      gint64 r = ddb_table_throughput_value (up.pt, "ReadCapacityUnits");
      gint64 w = ddb_table_throughput_value (up.pt, "WriteCapacityUnits");

      if (r == cr && w == cw)
        {
          ddb_table_fail (error, DDB_ERROR_VALIDATION,
                "The provisioned throughput for the table will not change. The requested value "
                "equals the current value. Current ReadCapacityUnits provisioned for the table: "
                "%" G_GINT64_FORMAT ". Requested ReadCapacityUnits: %" G_GINT64_FORMAT ". Current "
                "WriteCapacityUnits provisioned for the table: %" G_GINT64_FORMAT ". Requested "
                "WriteCapacityUnits: %" G_GINT64_FORMAT ". Refer to the Amazon DynamoDB Developer "
                "Guide for current limits and how to request higher limits.",
                cr, r, cw, w);
          return NULL;
        }
    }
  if (up.pt != NULL && !set_table_throughput (def, up.pt, error))
    return NULL;
  if (ppr && !was_ppr)
    {
      json_object_set_new (def->meta, "ProvisionedThroughput", ddb_table_throughput_json (0, 0));
      set_pay_per_request (def);
      set_all_gsi_throughput (def, 0, 0);
    }
  else if (!ppr && was_ppr)
    {
      /* The summary keeps LastUpdateToPayPerRequestDateTime, as DynamoDB Local's does. */
      json_object_set_new (json_object_get (def->meta, "BillingModeSummary"), "BillingMode",
                           json_string ("PROVISIONED"));
      /* Every GSI needs its own throughput then; an Update below may give it. */
      set_all_gsi_throughput (def, ddb_table_throughput_value (up.pt, "ReadCapacityUnits"),
                              ddb_table_throughput_value (up.pt, "WriteCapacityUnits"));
    }

  /* Index updates. */
  /* Owned by the definition from here; replaced by the synced list after the updates. */
  all_defs = merged_definitions (def, up.defs);
  json_object_set_new (def->meta, "AttributeDefinitions", all_defs);
  json_array_foreach (up.updates, i, u)
    {
      const char *action;
      json_t *body;
      const char *index_name;
      DdbIndexDef *index;

      ddb_table_gsi_update_action (u, &action, &body, NULL);
      index_name = json_string_value (ddb_table_member (body, "IndexName"));
      index = ddb_table_def_index (def, index_name);
      if (strcmp (action, "Delete") == 0)
        {
          if (index == NULL || !index->global)
            {
              ddb_table_fail (error, DDB_ERROR_RESOURCE_NOT_FOUND, "Requested resource not found");
              return NULL;
            }
          for (guint k = 0; k < def->indexes->len; k++)
            if (def->indexes->pdata[k] == index)
              {
                index_free (g_ptr_array_steal_index (def->indexes, k));
                break;
              }
        }
      else if (strcmp (action, "Update") == 0)
        {
          json_t *ipt = ddb_table_member (body, "ProvisionedThroughput");

          if (index == NULL || !index->global)
            {
              ddb_table_fail (error, DDB_ERROR_VALIDATION, "Invalid global secondary index name");
              return NULL;
            }
          if (ppr)
            {
              ddb_table_fail (error, DDB_ERROR_VALIDATION,
                    INVALID "ProvisionedThroughput should not be specified for index: %s when "
                            "BillingMode is PAY_PER_REQUEST",
                    index_name);
              return NULL;
            }
          if (index->provisioned != NULL)
            json_decref (index->provisioned);
          index->provisioned = ddb_table_throughput_json (ddb_table_throughput_value (ipt, "ReadCapacityUnits"),
                                                ddb_table_throughput_value (ipt, "WriteCapacityUnits"));
        }
      else
        {
          g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
          guint gsi_count = 0;

          if (index != NULL)
            {
              ddb_table_fail (error, DDB_ERROR_VALIDATION, INVALID "Index already exists: %s", index_name);
              return NULL;
            }
          if (!ddb_table_check_index (body, all_defs, &def->key, TRUE, ppr, seen, error))
            return NULL;
          for (guint k = 0; k < def->indexes->len; k++)
            gsi_count += ((DdbIndexDef *) def->indexes->pdata[k])->global ? 1 : 0;
          if (gsi_count + 1 > MAX_GSI)
            {
              ddb_table_fail (error, DDB_ERROR_LIMIT_EXCEEDED,
                    "Subscriber limit exceeded: The number of global secondary indexes exceeds "
                    "the per-table limit of 20");
              return NULL;
            }
          g_ptr_array_add (def->indexes, index_from_json (body, all_defs, TRUE, ppr));
        }
    }
  sync_attribute_definitions (def);

  if (up.stream != NULL)
    {
      json_t *cur = json_object_get (def->meta, "StreamSpecification");
      gboolean cur_enabled = json_is_true (json_object_get (cur, "StreamEnabled"));

      if (up.stream_enabled && cur_enabled)
        {
          ddb_table_fail (error, DDB_ERROR_VALIDATION, "Table already has an enabled stream: %s",
                json_string_value (json_object_get (def->meta, "LatestStreamArn")));
          return NULL;
        }
      if (!up.stream_enabled && !cur_enabled)
        {
          ddb_table_fail (error, DDB_ERROR_VALIDATION, "Table has no stream to disable");
          return NULL;
        }
      if (up.stream_enabled)
        enable_stream (def, up.view_type);
      else
        json_object_set_new (def->meta, "StreamSpecification",
                             json_pack ("{sb}", "StreamEnabled", 0));
    }
  if (up.protection != NULL)
    json_object_set_new (def->meta, "DeletionProtectionEnabled",
                         json_boolean (json_is_true (up.protection)));
  set_sse_and_class (def, up.sse, up.table_class);

  if (!ddb_store_table_update (e->store, def, error))
    return NULL;
  return ddb_table_wrap_description (ddb_table_describe (e->store, def, "ACTIVE", error));
}

