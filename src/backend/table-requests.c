/* table-requests.c: table descriptions, their checks, CreateTable and DeleteTable, and reading a
 * DescribeTable answer back into a description. The limits are DynamoDB's documented ones
 * (Developer Guide, "Service, account, and table quotas"; API Reference, CreateTable). */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "backend/table-requests-private.h"

#define MAX_GSIS 20
#define MAX_LSIS 5
#define MAX_NON_KEY_ATTRIBUTES 100
#define MAX_NAME 255

DdbIndexSpec *
ddb_index_spec_new (const char *name, const char *pk_name, const char *pk_type, const char *sk_name,
                    const char *sk_type)
{
  DdbIndexSpec *index = g_new0 (DdbIndexSpec, 1);

  index->name = g_strdup (name);
  index->pk_name = g_strdup (pk_name);
  index->pk_type = g_strdup (pk_type);
  index->sk_name = g_strdup (sk_name);
  index->sk_type = g_strdup (sk_type);
  index->projection = DDB_PROJECTION_ALL;
  index->non_key_attributes = g_ptr_array_new_with_free_func (g_free);
  return index;
}

DdbIndexSpec *
ddb_index_spec_copy (const DdbIndexSpec *index)
{
  DdbIndexSpec *copy = ddb_index_spec_new (index->name, index->pk_name, index->pk_type,
                                           index->sk_name, index->sk_type);

  copy->projection = index->projection;
  for (guint i = 0; i < index->non_key_attributes->len; i++)
    g_ptr_array_add (copy->non_key_attributes, g_strdup (index->non_key_attributes->pdata[i]));
  copy->rcu = index->rcu;
  copy->wcu = index->wcu;
  return copy;
}

void
ddb_index_spec_free (DdbIndexSpec *index)
{
  if (index == NULL)
    return;
  g_free (index->name);
  g_free (index->pk_name);
  g_free (index->pk_type);
  g_free (index->sk_name);
  g_free (index->sk_type);
  g_ptr_array_unref (index->non_key_attributes);
  g_free (index);
}

DdbTableSpec *
ddb_table_spec_new (const char *name, const char *pk_name, const char *pk_type, const char *sk_name,
                    const char *sk_type)
{
  DdbTableSpec *spec = g_new0 (DdbTableSpec, 1);

  spec->name = g_strdup (name);
  spec->pk_name = g_strdup (pk_name);
  spec->pk_type = g_strdup (pk_type);
  spec->sk_name = g_strdup (sk_name);
  spec->sk_type = g_strdup (sk_type);
  spec->billing = DDB_BILLING_PAY_PER_REQUEST;
  spec->gsis = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_index_spec_free);
  spec->lsis = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_index_spec_free);
  spec->stream = DDB_STREAM_OFF;
  return spec;
}

DdbTableSpec *
ddb_table_spec_copy (const DdbTableSpec *spec)
{
  DdbTableSpec *copy
      = ddb_table_spec_new (spec->name, spec->pk_name, spec->pk_type, spec->sk_name, spec->sk_type);

  copy->billing = spec->billing;
  copy->rcu = spec->rcu;
  copy->wcu = spec->wcu;
  for (guint i = 0; i < spec->gsis->len; i++)
    g_ptr_array_add (copy->gsis, ddb_index_spec_copy (spec->gsis->pdata[i]));
  for (guint i = 0; i < spec->lsis->len; i++)
    g_ptr_array_add (copy->lsis, ddb_index_spec_copy (spec->lsis->pdata[i]));
  copy->stream = spec->stream;
  copy->ttl_attribute = g_strdup (spec->ttl_attribute);
  return copy;
}

void
ddb_table_spec_free (DdbTableSpec *spec)
{
  if (spec == NULL)
    return;
  g_free (spec->name);
  g_free (spec->pk_name);
  g_free (spec->pk_type);
  g_free (spec->sk_name);
  g_free (spec->sk_type);
  g_ptr_array_unref (spec->gsis);
  g_ptr_array_unref (spec->lsis);
  g_free (spec->ttl_attribute);
  g_free (spec);
}

DdbIndexSpec *
ddb_table_spec_find_gsi (const DdbTableSpec *spec, const char *name)
{
  for (guint i = 0; i < spec->gsis->len; i++)
    if (g_strcmp0 (((DdbIndexSpec *) spec->gsis->pdata[i])->name, name) == 0)
      return spec->gsis->pdata[i];
  return NULL;
}

gboolean
ddb_table_spec_remove_gsi (DdbTableSpec *spec, const char *name)
{
  DdbIndexSpec *index = ddb_table_spec_find_gsi (spec, name);

  return index != NULL && g_ptr_array_remove (spec->gsis, index);
}

static const char *const stream_names[] = {
  NULL, "KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES",
};

const char *
ddb_stream_view_name (DdbStreamView view)
{
  return (guint) view < G_N_ELEMENTS (stream_names) ? stream_names[view] : NULL;
}

gboolean
ddb_stream_view_from_name (const char *name, DdbStreamView *view)
{
  for (guint i = 1; i < G_N_ELEMENTS (stream_names); i++)
    if (g_strcmp0 (stream_names[i], name) == 0)
      {
        *view = i;
        return TRUE;
      }
  return FALSE;
}

const char *
ddb_projection_name (DdbProjectionType type)
{
  switch (type)
    {
    case DDB_PROJECTION_ALL:
      return "ALL";
    case DDB_PROJECTION_KEYS_ONLY:
      return "KEYS_ONLY";
    case DDB_PROJECTION_INCLUDE:
      return "INCLUDE";
    }
  return NULL;
}

gboolean
tr_fail (GError **error, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  if (error != NULL)
    *error = g_error_new_valist (G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, format, args);
  va_end (args);
  return FALSE;
}

/* A table's or (INDEX) an index's name. */
static gboolean
check_name (gboolean index, const char *name, GError **error)
{
  gsize len = name != NULL ? strlen (name) : 0;

  if (name == NULL)
    name = "";
  if (len < 3 || len > MAX_NAME)
    return index ? tr_fail (error, _ ("Index name “%s” must be 3 to 255 characters long"), name)
                 : tr_fail (error, _ ("Table name “%s” must be 3 to 255 characters long"), name);
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '.' && *p != '-')
      return index ? tr_fail (error,
                              _ ("Index name “%s” may hold only letters a-z and A-Z, digits, “_”, "
                                 "“.” and “-”"),
                              name)
                   : tr_fail (error,
                              _ ("Table name “%s” may hold only letters a-z and A-Z, digits, “_”, "
                                 "“.” and “-”"),
                              name);
  return TRUE;
}

gboolean
ddb_table_name_validate (const char *name, GError **error)
{
  return check_name (FALSE, name, error);
}

typedef enum { KEY_TABLE_PK, KEY_TABLE_SK, KEY_INDEX_PK, KEY_INDEX_SK } KeyRole;

/* A key attribute of the table or of index INDEX. */
static gboolean
check_key (KeyRole role, const char *index, const char *name, const char *type, GHashTable *types,
           GError **error)
{
  const char *seen;

  if (name == NULL || *name == '\0')
    switch (role)
      {
      case KEY_TABLE_PK:
        return tr_fail (error, _ ("The table’s partition key needs a name"));
      case KEY_TABLE_SK:
        return tr_fail (error, _ ("The table’s sort key needs a name"));
      case KEY_INDEX_PK:
        return tr_fail (error, _ ("The partition key of index “%s” needs a name"), index);
      case KEY_INDEX_SK:
        return tr_fail (error, _ ("The sort key of index “%s” needs a name"), index);
      }
  if (strlen (name) > MAX_NAME)
    return tr_fail (error, _ ("Key attribute name “%.20s…” is longer than 255 bytes"), name);
  if (g_strcmp0 (type, "S") != 0 && g_strcmp0 (type, "N") != 0 && g_strcmp0 (type, "B") != 0)
    return tr_fail (error, _ ("Key attribute “%s” must be of type S, N or B, not “%s”"), name,
                    type != NULL ? type : "");
  seen = g_hash_table_lookup (types, name);
  if (seen != NULL && strcmp (seen, type) != 0)
    return tr_fail (error, _ ("Attribute “%s” is a key of type %s in one place and %s in another"),
                    name, seen, type);
  g_hash_table_insert (types, (gpointer) name, (gpointer) type);
  return TRUE;
}

/* The throughput of the table or (INDEX not NULL) of a GSI. */
static gboolean
check_throughput (const char *index, gint64 rcu, gint64 wcu, GError **error)
{
  if (rcu >= 1 && wcu >= 1)
    return TRUE;
  if (index == NULL)
    return tr_fail (error,
                    _ ("A provisioned table needs read and write capacity units of at least 1"));
  return tr_fail (error,
                  _ ("Index “%s” of a provisioned table needs read and write capacity units of at "
                     "least 1"),
                  index);
}

static gboolean
check_index (const DdbTableSpec *spec, const DdbIndexSpec *index, gboolean global,
             GHashTable *types, GHashTable *names, GHashTable *non_key, GError **error)
{
  if (!check_name (TRUE, index->name, error))
    return FALSE;
  if (!g_hash_table_add (names, index->name))
    return tr_fail (error, _ ("Two indexes are named “%s”"), index->name);
  if (global)
    {
      if (!check_key (KEY_INDEX_PK, index->name, index->pk_name, index->pk_type, types, error))
        return FALSE;
    }
  else
    {
      if (index->pk_name != NULL && g_strcmp0 (index->pk_name, spec->pk_name) != 0)
        return tr_fail (error,
                        _ ("Local secondary index “%s” must have the table’s partition key “%s”"),
                        index->name, spec->pk_name);
      if (spec->sk_name == NULL)
        return tr_fail (error, _ ("Local secondary index “%s” needs a table with a sort key"),
                        index->name);
      if (index->sk_name == NULL)
        return tr_fail (error, _ ("Local secondary index “%s” needs a sort key"), index->name);
    }
  if (index->sk_name != NULL)
    {
      if (!check_key (KEY_INDEX_SK, index->name, index->sk_name, index->sk_type, types, error))
        return FALSE;
      if (global && g_strcmp0 (index->sk_name, index->pk_name) == 0)
        return tr_fail (error, _ ("Index “%s” uses “%s” as both its partition and its sort key"),
                        index->name, index->sk_name);
    }
  if (index->projection == DDB_PROJECTION_INCLUDE)
    {
      if (index->non_key_attributes->len == 0)
        return tr_fail (error, _ ("Index “%s” projects INCLUDE but names no attribute to include"),
                        index->name);
      for (guint i = 0; i < index->non_key_attributes->len; i++)
        {
          const char *a = index->non_key_attributes->pdata[i];

          if (a == NULL || *a == '\0' || strlen (a) > MAX_NAME)
            return tr_fail (error,
                            _ ("Index “%s” includes an attribute with an empty or too long name"),
                            index->name);
          g_hash_table_add (non_key, (gpointer) a);
        }
      if (g_hash_table_size (non_key) > MAX_NON_KEY_ATTRIBUTES)
        return tr_fail (
            error,
            _ ("The indexes include %u distinct attributes; DynamoDB allows at most 100 "
               "over all of a table’s indexes"),
            g_hash_table_size (non_key));
    }
  else if (index->non_key_attributes->len > 0)
    return tr_fail (error,
                    _ ("Index “%s” names attributes to include but projects %s, not INCLUDE"),
                    index->name, ddb_projection_name (index->projection));
  if (global && spec->billing == DDB_BILLING_PROVISIONED
      && !check_throughput (index->name, index->rcu, index->wcu, error))
    return FALSE;
  return TRUE;
}

gboolean
ddb_table_spec_validate (const DdbTableSpec *spec, GError **error)
{
  g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) non_key = g_hash_table_new (g_str_hash, g_str_equal);

  if (!ddb_table_name_validate (spec->name, error))
    return FALSE;
  if (!check_key (KEY_TABLE_PK, NULL, spec->pk_name, spec->pk_type, types, error))
    return FALSE;
  if (spec->sk_name != NULL)
    {
      if (g_strcmp0 (spec->sk_name, spec->pk_name) == 0)
        return tr_fail (error, _ ("“%s” cannot be both the partition and the sort key"),
                        spec->sk_name);
      if (!check_key (KEY_TABLE_SK, NULL, spec->sk_name, spec->sk_type, types, error))
        return FALSE;
    }
  if (spec->billing == DDB_BILLING_PROVISIONED
      && !check_throughput (NULL, spec->rcu, spec->wcu, error))
    return FALSE;
  if (spec->gsis->len > MAX_GSIS)
    return tr_fail (error, _ ("A table has at most 20 global secondary indexes, not %u"),
                    spec->gsis->len);
  if (spec->lsis->len > MAX_LSIS)
    return tr_fail (error, _ ("A table has at most 5 local secondary indexes, not %u"),
                    spec->lsis->len);
  for (guint i = 0; i < spec->gsis->len; i++)
    if (!check_index (spec, spec->gsis->pdata[i], TRUE, types, names, non_key, error))
      return FALSE;
  for (guint i = 0; i < spec->lsis->len; i++)
    if (!check_index (spec, spec->lsis->pdata[i], FALSE, types, names, non_key, error))
      return FALSE;
  if (spec->ttl_attribute != NULL
      && (*spec->ttl_attribute == '\0' || strlen (spec->ttl_attribute) > MAX_NAME))
    return tr_fail (error, _ ("The TTL attribute’s name must be 1 to 255 bytes long"));
  if ((guint) spec->stream >= G_N_ELEMENTS (stream_names))
    return tr_fail (error, _ ("Unknown stream view type %d"), spec->stream);
  return TRUE;
}

/* ---- JSON ---- */

json_t *
tr_key_schema (const char *pk, const char *sk)
{
  json_t *schema = json_pack ("[{ssss}]", "AttributeName", pk, "KeyType", "HASH");

  if (sk != NULL)
    json_array_append_new (schema, json_pack ("{ssss}", "AttributeName", sk, "KeyType", "RANGE"));
  return schema;
}

void
tr_add_definition (json_t *defs, const char *name, const char *type)
{
  size_t i;
  json_t *d;

  if (name == NULL)
    return;
  json_array_foreach (defs, i, d)
    if (g_strcmp0 (json_string_value (json_object_get (d, "AttributeName")), name) == 0)
      return;
  json_array_append_new (defs, json_pack ("{ssss}", "AttributeName", name, "AttributeType", type));
}

json_t *
tr_throughput (gint64 rcu, gint64 wcu)
{
  return json_pack ("{sIsI}", "ReadCapacityUnits", (json_int_t) rcu, "WriteCapacityUnits",
                    (json_int_t) wcu);
}

json_t *
tr_index_json (const DdbTableSpec *spec, const DdbIndexSpec *index, gboolean global)
{
  json_t *projection
      = json_pack ("{ss}", "ProjectionType", ddb_projection_name (index->projection));
  json_t *j;

  if (index->projection == DDB_PROJECTION_INCLUDE)
    {
      json_t *names = json_array ();

      for (guint i = 0; i < index->non_key_attributes->len; i++)
        json_array_append_new (names, json_string (index->non_key_attributes->pdata[i]));
      json_object_set_new (projection, "NonKeyAttributes", names);
    }
  j = json_pack ("{ssso}", "IndexName", index->name, "KeySchema",
                 tr_key_schema (global ? index->pk_name : spec->pk_name, index->sk_name));
  json_object_set_new (j, "Projection", projection);
  if (global && spec->billing == DDB_BILLING_PROVISIONED)
    json_object_set_new (j, "ProvisionedThroughput", tr_throughput (index->rcu, index->wcu));
  return j;
}

DdbTableStep *
tr_step_new (const char *operation, json_t *request, DdbTableWait wait, const char *index)
{
  DdbTableStep *step = g_new0 (DdbTableStep, 1);

  step->operation = g_strdup (operation);
  step->request = request;
  step->wait = wait;
  step->index = g_strdup (index);
  return step;
}

void
ddb_table_step_free (DdbTableStep *step)
{
  if (step == NULL)
    return;
  g_free (step->operation);
  json_decref (step->request);
  g_free (step->index);
  g_free (step);
}

GPtrArray *
tr_steps_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_table_step_free);
}

json_t *
tr_ttl_request (const char *table, const char *attribute, gboolean enabled)
{
  return json_pack ("{sss{sbss}}", "TableName", table, "TimeToLiveSpecification", "Enabled",
                    enabled, "AttributeName", attribute);
}

json_t *
tr_stream_spec (DdbStreamView view)
{
  if (view == DDB_STREAM_OFF)
    return json_pack ("{sb}", "StreamEnabled", 0);
  return json_pack ("{sbss}", "StreamEnabled", 1, "StreamViewType", ddb_stream_view_name (view));
}

GPtrArray *
ddb_table_create_steps (const DdbTableSpec *spec, GError **error)
{
  GPtrArray *steps;
  json_t *defs, *req;

  if (!ddb_table_spec_validate (spec, error))
    return NULL;
  defs = json_array ();
  tr_add_definition (defs, spec->pk_name, spec->pk_type);
  tr_add_definition (defs, spec->sk_name, spec->sk_type);
  for (guint i = 0; i < spec->gsis->len; i++)
    {
      DdbIndexSpec *index = spec->gsis->pdata[i];

      tr_add_definition (defs, index->pk_name, index->pk_type);
      tr_add_definition (defs, index->sk_name, index->sk_type);
    }
  for (guint i = 0; i < spec->lsis->len; i++)
    {
      DdbIndexSpec *index = spec->lsis->pdata[i];

      tr_add_definition (defs, index->sk_name, index->sk_type);
    }
  req = json_pack ("{ssso}", "TableName", spec->name, "AttributeDefinitions", defs);
  json_object_set_new (req, "KeySchema", tr_key_schema (spec->pk_name, spec->sk_name));
  if (spec->billing == DDB_BILLING_PROVISIONED)
    {
      json_object_set_new (req, "BillingMode", json_string ("PROVISIONED"));
      json_object_set_new (req, "ProvisionedThroughput", tr_throughput (spec->rcu, spec->wcu));
    }
  else
    json_object_set_new (req, "BillingMode", json_string ("PAY_PER_REQUEST"));
  if (spec->gsis->len > 0)
    {
      json_t *list = json_array ();

      for (guint i = 0; i < spec->gsis->len; i++)
        json_array_append_new (list, tr_index_json (spec, spec->gsis->pdata[i], TRUE));
      json_object_set_new (req, "GlobalSecondaryIndexes", list);
    }
  if (spec->lsis->len > 0)
    {
      json_t *list = json_array ();

      for (guint i = 0; i < spec->lsis->len; i++)
        json_array_append_new (list, tr_index_json (spec, spec->lsis->pdata[i], FALSE));
      json_object_set_new (req, "LocalSecondaryIndexes", list);
    }
  if (spec->stream != DDB_STREAM_OFF)
    json_object_set_new (req, "StreamSpecification", tr_stream_spec (spec->stream));
  steps = tr_steps_new ();
  g_ptr_array_add (steps, tr_step_new ("CreateTable", req, DDB_TABLE_WAIT_ACTIVE, NULL));
  if (spec->ttl_attribute != NULL)
    g_ptr_array_add (steps, tr_step_new ("UpdateTimeToLive",
                                         tr_ttl_request (spec->name, spec->ttl_attribute, TRUE),
                                         DDB_TABLE_WAIT_NONE, NULL));
  return steps;
}

GPtrArray *
ddb_table_delete_steps (const char *name, GError **error)
{
  GPtrArray *steps;

  if (!ddb_table_name_validate (name, error))
    return NULL;
  steps = tr_steps_new ();
  g_ptr_array_add (steps, tr_step_new ("DeleteTable", json_pack ("{ss}", "TableName", name),
                                       DDB_TABLE_WAIT_GONE, NULL));
  return steps;
}

/* ---- Reading a description back ---- */

static const char *
definition_type (json_t *defs, const char *name)
{
  size_t i;
  json_t *d;

  json_array_foreach (defs, i, d)
    if (g_strcmp0 (json_string_value (json_object_get (d, "AttributeName")), name) == 0)
      return json_string_value (json_object_get (d, "AttributeType"));
  return NULL;
}

static void
read_key_schema (json_t *schema, const char **pk, const char **sk)
{
  size_t i;
  json_t *k;

  *pk = *sk = NULL;
  json_array_foreach (schema, i, k)
    {
      const char *type = json_string_value (json_object_get (k, "KeyType"));
      const char *name = json_string_value (json_object_get (k, "AttributeName"));

      if (g_strcmp0 (type, "HASH") == 0)
        *pk = name;
      else if (g_strcmp0 (type, "RANGE") == 0)
        *sk = name;
    }
}

static DdbIndexSpec *
index_from_json (json_t *j, json_t *defs)
{
  const char *pk, *sk;
  json_t *projection = json_object_get (j, "Projection");
  const char *ptype = json_string_value (json_object_get (projection, "ProjectionType"));
  json_t *pt = json_object_get (j, "ProvisionedThroughput");
  DdbIndexSpec *index;
  size_t i;
  json_t *a;

  read_key_schema (json_object_get (j, "KeySchema"), &pk, &sk);
  if (pk == NULL || json_string_value (json_object_get (j, "IndexName")) == NULL)
    return NULL;
  index = ddb_index_spec_new (json_string_value (json_object_get (j, "IndexName")), pk,
                              definition_type (defs, pk), sk,
                              sk != NULL ? definition_type (defs, sk) : NULL);
  if (g_strcmp0 (ptype, "KEYS_ONLY") == 0)
    index->projection = DDB_PROJECTION_KEYS_ONLY;
  else if (g_strcmp0 (ptype, "INCLUDE") == 0)
    index->projection = DDB_PROJECTION_INCLUDE;
  json_array_foreach (json_object_get (projection, "NonKeyAttributes"), i, a)
    g_ptr_array_add (index->non_key_attributes, g_strdup (json_string_value (a)));
  index->rcu = json_integer_value (json_object_get (pt, "ReadCapacityUnits"));
  index->wcu = json_integer_value (json_object_get (pt, "WriteCapacityUnits"));
  return index;
}

DdbTableSpec *
ddb_table_spec_from_description (json_t *table, json_t *ttl, GError **error)
{
  json_t *defs = json_object_get (table, "AttributeDefinitions");
  const char *pk, *sk, *billing, *ttl_status;
  json_t *stream = json_object_get (table, "StreamSpecification");
  json_t *pt = json_object_get (table, "ProvisionedThroughput");
  DdbTableSpec *spec;
  size_t i;
  json_t *j;

  read_key_schema (json_object_get (table, "KeySchema"), &pk, &sk);
  if (json_string_value (json_object_get (table, "TableName")) == NULL || pk == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _ ("The table description has no TableName or no partition key"));
      return NULL;
    }
  spec = ddb_table_spec_new (json_string_value (json_object_get (table, "TableName")), pk,
                             definition_type (defs, pk), sk,
                             sk != NULL ? definition_type (defs, sk) : NULL);
  /* A table created PROVISIONED may have no BillingModeSummary. */
  billing = json_string_value (
      json_object_get (json_object_get (table, "BillingModeSummary"), "BillingMode"));
  spec->billing = g_strcmp0 (billing, "PAY_PER_REQUEST") == 0 ? DDB_BILLING_PAY_PER_REQUEST
                                                              : DDB_BILLING_PROVISIONED;
  if (spec->billing == DDB_BILLING_PROVISIONED)
    {
      spec->rcu = json_integer_value (json_object_get (pt, "ReadCapacityUnits"));
      spec->wcu = json_integer_value (json_object_get (pt, "WriteCapacityUnits"));
    }
  json_array_foreach (json_object_get (table, "GlobalSecondaryIndexes"), i, j)
    {
      DdbIndexSpec *index = index_from_json (j, defs);

      if (index != NULL)
        g_ptr_array_add (spec->gsis, index);
    }
  json_array_foreach (json_object_get (table, "LocalSecondaryIndexes"), i, j)
    {
      DdbIndexSpec *index = index_from_json (j, defs);

      if (index != NULL)
        g_ptr_array_add (spec->lsis, index);
    }
  if (json_is_true (json_object_get (stream, "StreamEnabled"))
      && !ddb_stream_view_from_name (json_string_value (json_object_get (stream, "StreamViewType")),
                                     &spec->stream))
    spec->stream = DDB_STREAM_OFF;
  ttl_status = json_string_value (json_object_get (ttl, "TimeToLiveStatus"));
  if (g_strcmp0 (ttl_status, "ENABLED") == 0 || g_strcmp0 (ttl_status, "ENABLING") == 0)
    spec->ttl_attribute = g_strdup (json_string_value (json_object_get (ttl, "AttributeName")));
  return spec;
}
