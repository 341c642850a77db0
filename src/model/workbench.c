/* workbench.c: NoSQL Workbench data-model JSON to and from a model. Every object keeps the
 * members this model does not read in its `extra`, so that writing back loses nothing. */
#include "model/workbench.h"

#include "core/ddbjson.h"

#include <string.h>

G_DEFINE_QUARK (dy-workbench-error-quark, dy_workbench_error)

#define EXT "x-dynoscope"

static gboolean
invalid (GError **error, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError **error, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error_literal (error, DY_WORKBENCH_ERROR, DY_WORKBENCH_ERROR_INVALID, msg);
  return FALSE;
}

/* A string member, or NULL when absent; FALSE when present with another type. */
static gboolean
get_string (json_t *obj, const char *member, const char *where, const char **out,
            gboolean required, GError **error)
{
  json_t *v = json_object_get (obj, member);
  *out = NULL;
  if (v == NULL)
    return required ? invalid (error, "%s: %s is missing", where, member) : TRUE;
  if (!json_is_string (v))
    return invalid (error, "%s: %s must be a string", where, member);
  *out = json_string_value (v);
  return TRUE;
}

static gboolean
read_attr (json_t *obj, const char *where, DyModelAttr *attr, GError **error)
{
  const char *name, *type;
  if (!json_is_object (obj))
    return invalid (error, "%s must be an object", where);
  if (!get_string (obj, "AttributeName", where, &name, TRUE, error)
      || !get_string (obj, "AttributeType", where, &type, TRUE, error))
    return FALSE;
  attr->name = g_strdup (name);
  attr->type = g_strdup (type);
  return TRUE;
}

static gboolean
read_key_attributes (json_t *obj, const char *where, DyModelAttr *partition, DyModelAttr *sort,
                     GError **error)
{
  json_t *keys = json_object_get (obj, "KeyAttributes");
  if (!json_is_object (keys))
    return invalid (error, "%s: KeyAttributes must be an object", where);
  g_autofree char *pk_where = g_strdup_printf ("%s: KeyAttributes.PartitionKey", where);
  if (!read_attr (json_object_get (keys, "PartitionKey"), pk_where, partition, error))
    return FALSE;
  json_t *sk = json_object_get (keys, "SortKey");
  g_autofree char *sk_where = g_strdup_printf ("%s: KeyAttributes.SortKey", where);
  return sk == NULL || read_attr (sk, sk_where, sort, error);
}

static json_t *
write_attr (const DyModelAttr *attr)
{
  return json_pack ("{s:s, s:s}", "AttributeName", attr->name, "AttributeType", attr->type);
}

static json_t *
write_key_attributes (const DyModelAttr *partition, const DyModelAttr *sort)
{
  json_t *keys = json_object ();
  json_object_set_new (keys, "PartitionKey", write_attr (partition));
  if (sort->name)
    json_object_set_new (keys, "SortKey", write_attr (sort));
  return keys;
}

/* Copies OBJ without the members the model reads itself, but for empty lists: the writer
 * leaves an empty list out, so one the file has ("NonKeyAttributes": []) is kept from here. */
static json_t *
rest_of (json_t *obj, const char *const *read)
{
  json_t *rest = json_deep_copy (obj);
  for (guint i = 0; read[i]; i++)
    {
      json_t *v = json_object_get (rest, read[i]);
      if (!json_is_array (v) || json_array_size (v) > 0)
        json_object_del (rest, read[i]);
    }
  return rest;
}

static gboolean
read_index (DyModelTable *table, json_t *obj, gboolean local, GError **error)
{
  const char *name;
  if (!json_is_object (obj))
    return invalid (error, "Table %s: an index must be an object", table->name);
  g_autofree char *where = g_strdup_printf ("Table %s: an index", table->name);
  if (!get_string (obj, "IndexName", where, &name, TRUE, error))
    return FALSE;
  DyModelIndex *index = dy_model_index_new (name);
  index->local = local;
  g_ptr_array_add (table->indexes, index);
  g_free (where);
  where = g_strdup_printf ("Table %s: index %s", table->name, name);
  if (!read_key_attributes (obj, where, &index->partition, &index->sort, error))
    return FALSE;
  json_t *proj = json_object_get (obj, "Projection");
  if (proj != NULL)
    {
      const char *type;
      if (!json_is_object (proj))
        return invalid (error, "%s: Projection must be an object", where);
      if (!get_string (proj, "ProjectionType", where, &type, TRUE, error))
        return FALSE;
      index->projection = g_strdup (type);
      json_t *nk = json_object_get (proj, "NonKeyAttributes");
      size_t i;
      json_t *v;
      json_array_foreach (nk, i, v)
        {
          if (!json_is_string (v))
            return invalid (error, "%s: Projection.NonKeyAttributes must hold strings", where);
          g_ptr_array_add (index->non_key, g_strdup (json_string_value (v)));
        }
    }
  return TRUE;
}

static json_t *
write_index (const DyModelIndex *index)
{
  json_t *obj = json_object ();
  json_object_set_new (obj, "IndexName", json_string (index->name));
  json_object_set_new (obj, "KeyAttributes", write_key_attributes (&index->partition, &index->sort));
  if (index->projection)
    {
      json_t *proj = json_pack ("{s:s}", "ProjectionType", index->projection);
      if (index->non_key->len > 0)
        {
          json_t *nk = json_array ();
          for (guint i = 0; i < index->non_key->len; i++)
            json_array_append_new (nk, json_string (g_ptr_array_index (index->non_key, i)));
          json_object_set_new (proj, "NonKeyAttributes", nk);
        }
      json_object_set_new (obj, "Projection", proj);
    }
  return obj;
}

static const DyModelAttr *
find_attr (GPtrArray *attrs, const char *name)
{
  for (guint i = 0; i < attrs->len; i++)
    {
      const DyModelAttr *a = g_ptr_array_index (attrs, i);
      if (g_str_equal (a->name, name))
        return a;
    }
  return NULL;
}

static gboolean
read_facet (DyModel *model, DyModelTable *table, json_t *obj, GError **error)
{
  const char *name;
  if (!json_is_object (obj))
    return invalid (error, "Table %s: a facet must be an object", table->name);
  g_autofree char *where = g_strdup_printf ("Table %s: a facet", table->name);
  if (!get_string (obj, "FacetName", where, &name, TRUE, error))
    return FALSE;
  if (dy_model_find_entity (model, name))
    return invalid (error, "Facet name %s is used twice; it must be unique in the model", name);
  static const char *const read[] = { "FacetName", "NonKeyAttributes", NULL };
  DyModelEntity *entity = dy_model_entity_new (name, table->name);
  g_ptr_array_add (model->entities, entity);
  json_decref (entity->extra);
  entity->extra = rest_of (obj, read);
  json_t *nk = json_object_get (obj, "NonKeyAttributes");
  size_t i;
  json_t *v;
  if (nk != NULL && !json_is_array (nk))
    return invalid (error, "Facet %s: NonKeyAttributes must be an array", name);
  json_array_foreach (nk, i, v)
    {
      if (!json_is_string (v))
        return invalid (error, "Facet %s: NonKeyAttributes must hold attribute names", name);
      const DyModelAttr *ta = find_attr (table->attrs, json_string_value (v));
      DyModelAttr *a = g_new0 (DyModelAttr, 1);
      a->name = g_strdup (json_string_value (v));
      a->type = g_strdup (ta ? ta->type : NULL);
      g_ptr_array_add (entity->attrs, a);
    }
  return TRUE;
}

static gboolean
read_table (DyModel *model, json_t *obj, GError **error)
{
  const char *name;
  if (!json_is_object (obj))
    return invalid (error, "DataModel must hold table objects");
  if (!get_string (obj, "TableName", "A table of DataModel", &name, TRUE, error))
    return FALSE;
  if (dy_model_find_table (model, name))
    return invalid (error, "Table %s appears twice in DataModel", name);
  DyModelTable *table = dy_model_table_new (name);
  g_ptr_array_add (model->tables, table);
  g_autofree char *where = g_strdup_printf ("Table %s", name);
  static const char *const read[] = {
    "TableName", "KeyAttributes", "NonKeyAttributes", "TableFacets", "GlobalSecondaryIndexes",
    "LocalSecondaryIndexes", "TableData", "BillingMode", NULL,
  };
  json_decref (table->extra);
  table->extra = rest_of (obj, read);
  if (!read_key_attributes (obj, where, &table->partition, &table->sort, error))
    return FALSE;

  size_t i;
  json_t *v;
  json_t *nk = json_object_get (obj, "NonKeyAttributes");
  if (nk != NULL && !json_is_array (nk))
    return invalid (error, "%s: NonKeyAttributes must be an array", where);
  json_array_foreach (nk, i, v)
    {
      DyModelAttr *a = g_new0 (DyModelAttr, 1);
      g_ptr_array_add (table->attrs, a);
      g_autofree char *aw = g_strdup_printf ("%s: NonKeyAttributes[%zu]", where, i);
      if (!read_attr (v, aw, a, error))
        return FALSE;
    }
  const char *lists[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };
  for (guint l = 0; l < 2; l++)
    {
      json_t *arr = json_object_get (obj, lists[l]);
      if (arr != NULL && !json_is_array (arr))
        return invalid (error, "%s: %s must be an array", where, lists[l]);
      json_array_foreach (arr, i, v)
        if (!read_index (table, v, l == 1, error))
          return FALSE;
    }
  json_t *data = json_object_get (obj, "TableData");
  if (data != NULL)
    {
      if (!json_is_array (data))
        return invalid (error, "%s: TableData must be an array of items", where);
      json_array_foreach (data, i, v)
        {
          /* Checked as DynamoDB JSON, but kept as written, so that the file round trips. */
          g_autoptr (GError) item_error = NULL;
          g_autoptr (DdbValue) item = ddb_json_to_item (v, &item_error);
          if (item == NULL)
            return invalid (error, "%s: TableData[%zu]: %s", where, i, item_error->message);
        }
      json_decref (table->items);
      table->items = json_deep_copy (data);
    }
  const char *billing;
  if (!get_string (obj, "BillingMode", where, &billing, FALSE, error))
    return FALSE;
  table->billing_mode = g_strdup (billing);
  json_t *pt = json_object_get (json_object_get (obj, "ProvisionedCapacitySettings"),
                                "ProvisionedThroughput");
  table->rcu = json_integer_value (json_object_get (pt, "ReadCapacityUnits"));
  table->wcu = json_integer_value (json_object_get (pt, "WriteCapacityUnits"));

  json_t *facets = json_object_get (obj, "TableFacets");
  if (facets != NULL && !json_is_array (facets))
    return invalid (error, "%s: TableFacets must be an array", where);
  json_array_foreach (facets, i, v)
    if (!read_facet (model, table, v, error))
      return FALSE;
  return TRUE;
}

static gboolean
read_strings (json_t *arr, GPtrArray *out, const char *where, const char *member,
              GError **error)
{
  size_t i;
  json_t *v;
  if (arr == NULL)
    return TRUE;
  if (!json_is_array (arr))
    return invalid (error, "%s: %s must be an array of names", where, member);
  json_array_foreach (arr, i, v)
    {
      if (!json_is_string (v))
        return invalid (error, "%s: %s must be an array of names", where, member);
      g_ptr_array_add (out, g_strdup (json_string_value (v)));
    }
  return TRUE;
}

/* An optional number member of at least 0 (a rate); 0 when absent. */
static gboolean
get_rate (json_t *obj, const char *member, const char *where, double *out, GError **error)
{
  json_t *v = json_object_get (obj, member);
  *out = 0;
  if (v == NULL)
    return TRUE;
  if (!json_is_number (v) || !(json_number_value (v) >= 0) || json_number_value (v) > DY_RATE_MAX)
    return invalid (error, "%s: %s must be a number of at least 0 and at most 1e9 (per second)",
                    where, member);
  *out = json_number_value (v);
  return TRUE;
}

/* An optional whole number member of at least 1; 0 when absent. */
static gboolean
get_count (json_t *obj, const char *member, const char *where, gint64 *out, GError **error)
{
  json_t *v = json_object_get (obj, member);
  *out = 0;
  if (v == NULL)
    return TRUE;
  if (!json_is_integer (v) || json_integer_value (v) < 1)
    return invalid (error, "%s: %s must be a whole number of at least 1", where, member);
  *out = json_integer_value (v);
  return TRUE;
}

static gboolean
get_bool (json_t *obj, const char *member, const char *where, gboolean *out, GError **error)
{
  json_t *v = json_object_get (obj, member);
  if (v != NULL && !json_is_boolean (v))
    return invalid (error, "%s: %s must be true or false", where, member);
  *out = json_is_true (v);
  return TRUE;
}

static gboolean
read_pattern (DyModel *model, json_t *obj, GError **error)
{
  const char *name, *entity, *index, *order, *from, *to;
  if (!json_is_object (obj))
    return invalid (error, EXT ".patterns must hold objects");
  if (!get_string (obj, "name", "An access pattern", &name, TRUE, error))
    return FALSE;
  g_autofree char *where = g_strdup_printf ("Access pattern \"%s\"", name);
  if (!get_string (obj, "entity", where, &entity, TRUE, error)
      || !get_string (obj, "index", where, &index, FALSE, error)
      || !get_string (obj, "order", where, &order, FALSE, error))
    return FALSE;
  DyModelPattern *p = dy_model_pattern_new (name, entity);
  g_ptr_array_add (model->patterns, p);
  p->index = g_strdup (index);
  if (order == NULL)
    p->order = DY_ORDER_NONE;
  else if (g_str_equal (order, "ascending"))
    p->order = DY_ORDER_ASCENDING;
  else if (g_str_equal (order, "descending"))
    p->order = DY_ORDER_DESCENDING;
  else
    return invalid (error, "%s: order must be \"ascending\" or \"descending\"", where);
  json_t *many = json_object_get (obj, "many");
  if (many != NULL && !json_is_boolean (many))
    return invalid (error, "%s: many must be true or false", where);
  p->many = json_is_true (many);
  if (!get_rate (obj, "rate", where, &p->rate, error)
      || !get_count (obj, "items", where, &p->items, error)
      || !get_bool (obj, "consistentRead", where, &p->consistent, error)
      || !get_bool (obj, "transactional", where, &p->transactional, error))
    return FALSE;
  if (!read_strings (json_object_get (obj, "inputs"), p->inputs, where, "inputs", error)
      || !read_strings (json_object_get (obj, "filters"), p->filters, where, "filters", error))
    return FALSE;
  json_t *range = json_object_get (obj, "range");
  if (range != NULL)
    {
      if (!json_is_object (range))
        return invalid (error, "%s: range must be an object", where);
      if (!get_string (range, "from", where, &from, TRUE, error)
          || !get_string (range, "to", where, &to, TRUE, error))
        return FALSE;
      p->range_from = g_strdup (from);
      p->range_to = g_strdup (to);
    }
  json_t *ex = json_object_get (obj, "examples");
  if (ex != NULL && !json_is_object (ex))
    return invalid (error, "%s: examples must be an object of strings", where);
  const char *k;
  json_t *v;
  json_object_foreach (ex, k, v)
    {
      if (!json_is_string (v))
        return invalid (error, "%s: examples.%s must be a string", where, k);
      g_hash_table_insert (p->examples, g_strdup (k), g_strdup (json_string_value (v)));
    }
  return TRUE;
}

static gboolean
read_extension (DyModel *model, json_t *ext, GError **error)
{
  if (!json_is_object (ext))
    return invalid (error, EXT " must be an object");
  json_t *entities = json_object_get (ext, "entities");
  if (entities != NULL && !json_is_object (entities))
    return invalid (error, EXT ".entities must be an object");
  const char *name;
  json_t *desc;
  json_object_foreach (entities, name, desc)
    {
      DyModelEntity *entity = dy_model_find_entity (model, name);
      if (entity == NULL)
        return invalid (error, EXT ".entities.%s: no facet of that name", name);
      json_t *keys = json_object_get (desc, "keys");
      if (keys != NULL && !json_is_object (keys))
        return invalid (error, EXT ".entities.%s.keys must be an object", name);
      const char *attr;
      json_t *v;
      json_object_foreach (keys, attr, v)
        {
          if (!json_is_string (v))
            return invalid (error, EXT ".entities.%s.keys.%s must be a template string", name,
                            attr);
          if (!dy_model_entity_set_key (entity, attr, json_string_value (v), error))
            return FALSE;
        }
      json_t *lens = json_object_get (desc, "maxLengths");
      if (lens != NULL && !json_is_object (lens))
        return invalid (error, EXT ".entities.%s.maxLengths must be an object", name);
      json_object_foreach (lens, attr, v)
        {
          if (!json_is_integer (v) || json_integer_value (v) < 0)
            return invalid (error, EXT ".entities.%s.maxLengths.%s must be a whole number",
                            name, attr);
          g_hash_table_insert (entity->max_lengths, g_strdup (attr),
                               GUINT_TO_POINTER ((guint) json_integer_value (v)));
        }
      g_autofree char *where = g_strdup_printf (EXT ".entities.%s", name);
      if (!get_rate (desc, "writeRate", where, &entity->write_rate, error)
          || !get_bool (desc, "transactionalWrites", where, &entity->write_transactional, error)
          || !get_count (desc, "perCollection", where, &entity->per_collection, error)
          || !get_count (desc, "itemSize", where, &entity->item_size, error))
        return FALSE;
    }
  json_t *prices = json_object_get (ext, "prices");
  g_autoptr (GError) price_error = NULL;
  if (prices != NULL && !dy_prices_read_json (model->prices, prices, &price_error))
    return invalid (error, "%s", price_error->message);
  json_t *patterns = json_object_get (ext, "patterns");
  if (patterns != NULL && !json_is_array (patterns))
    return invalid (error, EXT ".patterns must be an array");
  size_t i;
  json_t *v;
  json_array_foreach (patterns, i, v)
    if (!read_pattern (model, v, error))
      return FALSE;
  return TRUE;
}

DyModel *
dy_workbench_read (json_t *json, GError **error)
{
  const char *name;
  if (!json_is_object (json))
    {
      invalid (error, "A data model must be a JSON object");
      return NULL;
    }
  if (!get_string (json, "ModelName", "The data model", &name, TRUE, error))
    return NULL;
  g_autoptr (DyModel) model = dy_model_new (name);
  static const char *const read[] = { "ModelName", "DataModel", EXT, NULL };
  json_decref (model->extra);
  model->extra = rest_of (json, read);
  json_t *meta = json_object_get (json, "ModelMetadata");
  const char *s;
  if (meta != NULL)
    {
      if (!json_is_object (meta))
        {
          invalid (error, "ModelMetadata must be an object");
          return NULL;
        }
      if (!get_string (meta, "Author", "ModelMetadata", &s, FALSE, error))
        return NULL;
      model->author = g_strdup (s);
      if (!get_string (meta, "Description", "ModelMetadata", &s, FALSE, error))
        return NULL;
      model->description = g_strdup (s);
    }
  json_t *tables = json_object_get (json, "DataModel");
  if (!json_is_array (tables))
    {
      invalid (error, "DataModel must be an array of tables");
      return NULL;
    }
  size_t i;
  json_t *v;
  json_array_foreach (tables, i, v)
    if (!read_table (model, v, error))
      return NULL;
  json_t *ext = json_object_get (json, EXT);
  if (ext != NULL && !read_extension (model, ext, error))
    return NULL;
  return g_steal_pointer (&model);
}

DyModel *
dy_workbench_read_file (const char *path, GError **error)
{
  json_error_t jerr;
  json_t *json = json_load_file (path, 0, &jerr);
  if (json == NULL)
    {
      if (jerr.line > 0)
        g_set_error (error, DY_WORKBENCH_ERROR, DY_WORKBENCH_ERROR_INVALID, "%s:%d:%d: %s", path,
                     jerr.line, jerr.column, jerr.text);
      else
        g_set_error (error, DY_WORKBENCH_ERROR, DY_WORKBENCH_ERROR_INVALID, "%s", jerr.text);
      return NULL;
    }
  DyModel *model = dy_workbench_read (json, error);
  json_decref (json);
  if (model == NULL)
    g_prefix_error (error, "%s: ", path);
  return model;
}

static json_t *
strings (GPtrArray *arr)
{
  json_t *out = json_array ();
  for (guint i = 0; i < arr->len; i++)
    json_array_append_new (out, json_string (g_ptr_array_index (arr, i)));
  return out;
}

static json_t *
write_table (const DyModel *model, const DyModelTable *table)
{
  json_t *obj = json_deep_copy (table->extra);
  json_object_set_new (obj, "TableName", json_string (table->name));
  json_object_set_new (obj, "KeyAttributes", write_key_attributes (&table->partition, &table->sort));
  json_t *nk = json_array ();
  for (guint i = 0; i < table->attrs->len; i++)
    json_array_append_new (nk, write_attr (g_ptr_array_index (table->attrs, i)));
  /* Empty lists are left out, as Workbench leaves them out, so that a file round trips. */
  if (json_array_size (nk) > 0)
    json_object_set_new (obj, "NonKeyAttributes", nk);
  else
    json_decref (nk);

  json_t *facets = json_array ();
  for (guint i = 0; i < model->entities->len; i++)
    {
      const DyModelEntity *e = g_ptr_array_index (model->entities, i);
      if (!g_str_equal (e->table, table->name))
        continue;
      json_t *f = json_deep_copy (e->extra);
      json_object_set_new (f, "FacetName", json_string (e->name));
      json_t *names = json_array ();
      for (guint a = 0; a < e->attrs->len; a++)
        json_array_append_new (names,
                               json_string (((DyModelAttr *) g_ptr_array_index (e->attrs, a))->name));
      if (json_array_size (names) > 0)
        json_object_set_new (f, "NonKeyAttributes", names);
      else
        json_decref (names);
      json_array_append_new (facets, f);
    }
  if (json_array_size (facets) > 0)
    json_object_set_new (obj, "TableFacets", facets);
  else
    json_decref (facets);

  json_t *gsis = json_array (), *lsis = json_array ();
  for (guint i = 0; i < table->indexes->len; i++)
    {
      const DyModelIndex *index = g_ptr_array_index (table->indexes, i);
      json_array_append_new (index->local ? lsis : gsis, write_index (index));
    }
  if (json_array_size (gsis) > 0)
    json_object_set_new (obj, "GlobalSecondaryIndexes", gsis);
  else
    json_decref (gsis);
  if (json_array_size (lsis) > 0)
    json_object_set_new (obj, "LocalSecondaryIndexes", lsis);
  else
    json_decref (lsis);
  if (json_array_size (table->items) > 0)
    json_object_set (obj, "TableData", table->items);
  if (table->billing_mode)
    json_object_set_new (obj, "BillingMode", json_string (table->billing_mode));
  if (table->rcu > 0 || table->wcu > 0)
    {
      /* Auto scaling settings beside the throughput are kept as they were read. */
      json_t *pcs = json_object_get (obj, "ProvisionedCapacitySettings");
      if (!json_is_object (pcs))
        {
          pcs = json_object ();
          json_object_set_new (obj, "ProvisionedCapacitySettings", pcs);
        }
      json_object_set_new (pcs, "ProvisionedThroughput",
                           json_pack ("{s:I, s:I}", "ReadCapacityUnits", (json_int_t) table->rcu,
                                      "WriteCapacityUnits", (json_int_t) table->wcu));
    }
  return obj;
}

static json_t *
write_extension (const DyModel *model)
{
  json_t *ext = json_object ();
  json_t *entities = json_object ();
  for (guint i = 0; i < model->entities->len; i++)
    {
      const DyModelEntity *e = g_ptr_array_index (model->entities, i);
      json_t *desc = json_object ();
      if (e->keys->len > 0)
        {
          json_t *keys = json_object ();
          for (guint k = 0; k < e->keys->len; k++)
            {
              const DyModelKey *key = g_ptr_array_index (e->keys, k);
              json_object_set_new (keys, key->attr, json_string (key->tpl->source));
            }
          json_object_set_new (desc, "keys", keys);
        }
      if (g_hash_table_size (e->max_lengths) > 0)
        {
          json_t *lens = json_object ();
          GHashTableIter iter;
          gpointer k, v;
          g_hash_table_iter_init (&iter, e->max_lengths);
          while (g_hash_table_iter_next (&iter, &k, &v))
            json_object_set_new (lens, k, json_integer (GPOINTER_TO_UINT (v)));
          json_object_set_new (desc, "maxLengths", lens);
        }
      if (e->write_rate > 0)
        json_object_set_new (desc, "writeRate", dy_json_number (e->write_rate));
      if (e->write_transactional)
        json_object_set_new (desc, "transactionalWrites", json_true ());
      if (e->per_collection > 0)
        json_object_set_new (desc, "perCollection", json_integer (e->per_collection));
      if (e->item_size > 0)
        json_object_set_new (desc, "itemSize", json_integer (e->item_size));
      if (json_object_size (desc) > 0)
        json_object_set_new (entities, e->name, desc);
      else
        json_decref (desc);
    }
  if (json_object_size (entities) > 0)
    json_object_set_new (ext, "entities", entities);
  else
    json_decref (entities);

  json_t *patterns = json_array ();
  for (guint i = 0; i < model->patterns->len; i++)
    {
      const DyModelPattern *p = g_ptr_array_index (model->patterns, i);
      json_t *obj = json_pack ("{s:s, s:s}", "name", p->name, "entity", p->entity);
      if (p->index)
        json_object_set_new (obj, "index", json_string (p->index));
      if (p->inputs->len > 0)
        json_object_set_new (obj, "inputs", strings (p->inputs));
      if (p->many)
        json_object_set_new (obj, "many", json_true ());
      if (p->order != DY_ORDER_NONE)
        json_object_set_new (obj, "order", json_string (p->order == DY_ORDER_ASCENDING
                                                        ? "ascending" : "descending"));
      if (p->range_from)
        json_object_set_new (obj, "range",
                             json_pack ("{s:s, s:s}", "from", p->range_from, "to", p->range_to));
      if (p->filters->len > 0)
        json_object_set_new (obj, "filters", strings (p->filters));
      if (p->rate > 0)
        json_object_set_new (obj, "rate", dy_json_number (p->rate));
      if (p->items > 0)
        json_object_set_new (obj, "items", json_integer (p->items));
      if (p->consistent)
        json_object_set_new (obj, "consistentRead", json_true ());
      if (p->transactional)
        json_object_set_new (obj, "transactional", json_true ());
      if (g_hash_table_size (p->examples) > 0)
        {
          json_t *ex = json_object ();
          GHashTableIter iter;
          gpointer k, v;
          g_hash_table_iter_init (&iter, p->examples);
          while (g_hash_table_iter_next (&iter, &k, &v))
            json_object_set_new (ex, k, json_string (v));
          json_object_set_new (obj, "examples", ex);
        }
      json_array_append_new (patterns, obj);
    }
  if (json_array_size (patterns) > 0)
    json_object_set_new (ext, "patterns", patterns);
  else
    json_decref (patterns);
  json_t *prices = dy_prices_write_json (model->prices);
  if (json_object_size (prices) > 0)
    json_object_set_new (ext, "prices", prices);
  else
    json_decref (prices);
  return ext;
}

json_t *
dy_workbench_write (const DyModel *model)
{
  json_t *obj = json_deep_copy (model->extra);
  json_object_set_new (obj, "ModelName", json_string (model->name));
  if (model->author || model->description)
    {
      json_t *meta = json_object_get (obj, "ModelMetadata");
      if (meta == NULL)
        {
          meta = json_object ();
          json_object_set_new (obj, "ModelMetadata", meta);
        }
      if (model->author)
        json_object_set_new (meta, "Author", json_string (model->author));
      if (model->description)
        json_object_set_new (meta, "Description", json_string (model->description));
    }
  json_t *tables = json_array ();
  for (guint i = 0; i < model->tables->len; i++)
    json_array_append_new (tables, write_table (model, g_ptr_array_index (model->tables, i)));
  json_object_set_new (obj, "DataModel", tables);
  json_t *ext = write_extension (model);
  if (json_object_size (ext) > 0)
    json_object_set_new (obj, EXT, ext);
  else
    json_decref (ext);
  return obj;
}
