/* infer.c: a model proposed from a table's description and a sample of its items (the rules
 * are in infer.h). The items are sorted by their key first, so that the proposal is the same
 * whichever backend read them and in whatever order its Scan segments returned them. */
#include "model/infer-private.h"

#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "model/keys.h"

static void
group_free (gpointer data)
{
  Group *g = data;
  g_free (g->sig);
  g_ptr_array_unref (g->items);
  g_ptr_array_unref (g->shapes);
  g_free (g->pk_word);
  g_free (g->sk_word);
  g_free (g);
}

static void
key_attr_free (gpointer data)
{
  KeyAttr *k = data;
  g_free (k->name);
  g_free (k->type);
  g_free (k);
}

static const Shape *
find_shape (const Group *group, const char *attr)
{
  for (guint s = 0; s < group->shapes->len; s++)
    {
      const Shape *shape = group->shapes->pdata[s];
      if (g_str_equal (shape->attr, attr))
        return shape;
    }
  return NULL;
}

static gboolean
has_field_named (const Shape *shape, const char *name)
{
  for (guint p = 0; shape != NULL && p < shape->parts->len; p++)
    {
      const Field *f = ((Part *) shape->parts->pdata[p])->field;
      if (f != NULL && g_str_equal (f->name, name))
        return TRUE;
    }
  return FALSE;
}

/* Whether the sort key holds the same value as the partition key in every item. */
static gboolean
sort_is_partition (const Group *group, const KeyAttr *pk, const KeyAttr *sk)
{
  for (guint i = 0; i < group->items->len; i++)
    if (g_strcmp0 (infer_value_text (group->items->pdata[i], pk->name),
                   infer_value_text (group->items->pdata[i], sk->name))
        != 0)
      return FALSE;
  return TRUE;
}

static char *
entity_name (const Group *group, const KeyAttr *pk, const KeyAttr *sk, const char *table,
             GHashTable *used)
{
  const Shape *pks = find_shape (group, pk->name);
  const Shape *sks = sk ? find_shape (group, sk->name) : NULL;
  g_autofree char *base = NULL;
  const char *own;

  if (sks == NULL || sks->n_fields == 0 || group->sk_word == NULL
      || sort_is_partition (group, pk, sk))
    own = group->pk_word;
  else
    own = group->sk_word;
  base = own ? infer_word_name (own) : g_strdup (table);
  if (has_field_named (pks, "shard"))
    {
      char *sharded = g_strconcat ("Sharded", base, NULL);
      g_free (base);
      base = sharded;
    }
  if (!g_hash_table_contains (used, base))
    return g_strdup (base);
  if (own == group->sk_word && group->pk_word != NULL)
    {
      g_autofree char *parent = infer_word_name (group->pk_word);
      char *name = g_strconcat (parent, base, NULL);
      if (!g_hash_table_contains (used, name))
        return name;
      g_free (name);
    }
  for (guint n = 2;; n++)
    {
      char *name = g_strdup_printf ("%s%u", base, n);
      if (!g_hash_table_contains (used, name))
        return name;
      g_free (name);
    }
}

/* The entity's attributes: every attribute of its items but the table's keys, by name, each of
 * the type most of them have. */
static void
entity_attrs (DyModelEntity *entity, const Group *group, const DyModelTable *table)
{
  g_autoptr (GHashTable) types
      = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_hash_table_unref);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  for (guint i = 0; i < group->items->len; i++)
    {
      const char *name;
      json_t *v;
      json_object_foreach (group->items->pdata[i], name, v)
        {
          const char *type = infer_value_type (v);
          if (type == NULL || g_strcmp0 (name, table->partition.name) == 0
              || g_strcmp0 (name, table->sort.name) == 0)
            continue;
          GHashTable *counts = g_hash_table_lookup (types, name);
          if (counts == NULL)
            {
              counts = g_hash_table_new (g_str_hash, g_str_equal);
              g_hash_table_insert (types, (gpointer) name, counts);
              g_ptr_array_add (names, (gpointer) name);
            }
          guint c = GPOINTER_TO_UINT (g_hash_table_lookup (counts, type));
          g_hash_table_insert (counts, (gpointer) type, GUINT_TO_POINTER (c + 1));
        }
    }
  g_ptr_array_sort (names, infer_compare_names);
  for (guint n = 0; n < names->len; n++)
    {
      GHashTable *counts = g_hash_table_lookup (types, names->pdata[n]);
      g_autoptr (GList) keys = g_hash_table_get_keys (counts);
      const char *best = NULL;
      guint most = 0;
      keys = g_list_sort (keys, (GCompareFunc) g_strcmp0);
      for (GList *l = keys; l; l = l->next)
        {
          guint c = GPOINTER_TO_UINT (g_hash_table_lookup (counts, l->data));
          if (c > most)
            {
              most = c;
              best = l->data;
            }
        }
      DyModelAttr *a = g_new0 (DyModelAttr, 1);
      a->name = g_strdup (names->pdata[n]);
      a->type = g_strdup (best);
      g_ptr_array_add (entity->attrs, a);
    }
}

static void
table_attrs (DyModelTable *table, const DyModel *model)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint e = 0; e < model->entities->len; e++)
    {
      const DyModelEntity *entity = model->entities->pdata[e];
      for (guint i = 0; i < entity->attrs->len; i++)
        {
          const DyModelAttr *a = entity->attrs->pdata[i];
          if (!g_hash_table_add (seen, a->name))
            continue;
          DyModelAttr *copy = g_new0 (DyModelAttr, 1);
          copy->name = g_strdup (a->name);
          copy->type = g_strdup (a->type);
          g_ptr_array_add (table->attrs, copy);
        }
    }
}

/* ---- the description ---- */

static const char *
attr_type (json_t *description, const char *name)
{
  size_t i;
  json_t *def;
  json_array_foreach (json_object_get (description, "AttributeDefinitions"), i, def)
    if (g_strcmp0 (json_string_value (json_object_get (def, "AttributeName")), name) == 0)
      return json_string_value (json_object_get (def, "AttributeType"));
  return NULL;
}

/* The HASH and RANGE attributes of a KeySchema into PARTITION and SORT. */
static gboolean
read_schema (json_t *description, json_t *schema, DyModelAttr *partition, DyModelAttr *sort)
{
  size_t i;
  json_t *entry;
  json_array_foreach (schema, i, entry)
    {
      const char *name = json_string_value (json_object_get (entry, "AttributeName"));
      const char *kind = json_string_value (json_object_get (entry, "KeyType"));
      DyModelAttr *into = g_strcmp0 (kind, "HASH") == 0    ? partition
                          : g_strcmp0 (kind, "RANGE") == 0 ? sort
                                                           : NULL;
      if (name == NULL || into == NULL || into->name != NULL)
        return FALSE;
      into->name = g_strdup (name);
      into->type = g_strdup (attr_type (description, name));
    }
  return partition->name != NULL;
}

static gboolean
read_indexes (DyModelTable *table, json_t *description, GError **error)
{
  static const char *const lists[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    {
      size_t i;
      json_t *entry;
      json_array_foreach (json_object_get (description, lists[l]), i, entry)
        {
          const char *name = json_string_value (json_object_get (entry, "IndexName"));
          json_t *projection = json_object_get (entry, "Projection");
          DyModelIndex *index = dy_model_index_new (name ? name : "");
          size_t j;
          json_t *nk;

          g_ptr_array_add (table->indexes, index);
          index->local = l == 1;
          if (name == NULL
              || !read_schema (description, json_object_get (entry, "KeySchema"), &index->partition,
                               &index->sort))
            {
              g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "DescribeTable gave an index of %s without a key schema", table->name);
              return FALSE;
            }
          index->projection
              = g_strdup (json_string_value (json_object_get (projection, "ProjectionType")));
          if (index->projection == NULL)
            index->projection = g_strdup ("ALL");
          json_array_foreach (json_object_get (projection, "NonKeyAttributes"), j, nk)
            if (json_is_string (nk))
              g_ptr_array_add (index->non_key, g_strdup (json_string_value (nk)));
        }
    }
  return TRUE;
}

static void
read_billing (DyModelTable *table, json_t *description)
{
  const char *mode = json_string_value (
      json_object_get (json_object_get (description, "BillingModeSummary"), "BillingMode"));
  json_t *provisioned = json_object_get (description, "ProvisionedThroughput");
  json_int_t rcu = json_integer_value (json_object_get (provisioned, "ReadCapacityUnits"));
  json_int_t wcu = json_integer_value (json_object_get (provisioned, "WriteCapacityUnits"));

  if (g_strcmp0 (mode, "PAY_PER_REQUEST") == 0)
    table->billing_mode = g_strdup (mode);
  else if (g_strcmp0 (mode, "PROVISIONED") == 0 || rcu > 0 || wcu > 0)
    {
      table->billing_mode = g_strdup ("PROVISIONED");
      table->rcu = rcu;
      table->wcu = wcu;
    }
}

/* The key attributes whose values are read: the table's, then its indexes'. */
static GPtrArray *
key_attrs (const DyModelTable *table, json_t *items)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func (key_attr_free);
  guint n = 2 + 2 * table->indexes->len;
  g_autofree const DyModelAttr **all = g_new0 (const DyModelAttr *, n);

  all[0] = &table->partition;
  all[1] = &table->sort;
  for (guint x = 0; x < table->indexes->len; x++)
    {
      const DyModelIndex *index = table->indexes->pdata[x];
      all[2 + 2 * x] = &index->partition;
      all[3 + 2 * x] = &index->sort;
    }
  for (guint i = 0; i < n; i++)
    {
      if (all[i]->name == NULL || infer_is_key_name (keys, all[i]->name))
        continue;
      KeyAttr *k = g_new0 (KeyAttr, 1);
      k->name = g_strdup (all[i]->name);
      k->type = g_strdup (all[i]->type);
      k->partition = i % 2 == 0;
      k->sep = infer_choose_separator (items, k->name);
      g_ptr_array_add (keys, k);
    }
  return keys;
}

typedef struct {
  const char *pk, *sk;
} SortKeys;

/* Items in the order of their keys as text; items of the same text (a binary key is not read as
 * text) in the order of their whole JSON, so that no order of reading shows through. */
static int
compare_items (gconstpointer a, gconstpointer b, gpointer data)
{
  const SortKeys *keys = data;
  json_t *ia = *(json_t *const *) a, *ib = *(json_t *const *) b;
  int c = g_strcmp0 (infer_value_text (ia, keys->pk), infer_value_text (ib, keys->pk));
  if (c == 0 && keys->sk != NULL)
    c = g_strcmp0 (infer_value_text (ia, keys->sk), infer_value_text (ib, keys->sk));
  if (c == 0)
    {
      g_autofree char *ta = json_dumps (ia, JSON_COMPACT | JSON_SORT_KEYS);
      g_autofree char *tb = json_dumps (ib, JSON_COMPACT | JSON_SORT_KEYS);
      c = g_strcmp0 (ta, tb);
    }
  return c;
}

static gboolean
build_entity (DyModel *model, DyModelTable *table, Group *group, GPtrArray *keys, GHashTable *used,
              GError **error)
{
  const KeyAttr *pk = keys->pdata[0];
  const KeyAttr *sk = table->sort.name ? keys->pdata[1] : NULL;

  for (guint k = 0; k < keys->len; k++)
    {
      const KeyAttr *key = keys->pdata[k];
      if (g_strcmp0 (key->type, "B") == 0)
        continue; /* a template renders text, not bytes */
      Shape *shape = infer_read_shape (group, key);
      if (shape->items->len == 0)
        infer_shape_free (shape);
      else
        g_ptr_array_add (group->shapes, shape);
    }
  infer_name_fields (group, keys);
  g_autofree char *name = entity_name (group, pk, sk, table->name, used);
  DyModelEntity *entity = dy_model_entity_new (name, table->name);
  g_ptr_array_add (model->entities, entity);
  g_hash_table_add (used, g_strdup (name));
  for (guint s = 0; s < group->shapes->len; s++)
    {
      const Shape *shape = group->shapes->pdata[s];
      g_autofree char *text = infer_template_text (shape);
      if (!dy_model_entity_set_key (entity, shape->attr, text, error))
        return FALSE;
      for (guint p = 0; p < shape->parts->len; p++)
        {
          const Field *f = ((Part *) shape->parts->pdata[p])->field;
          guint most;
          if (f == NULL)
            continue;
          most = MAX ((guint) infer_longest (f),
                      GPOINTER_TO_UINT (g_hash_table_lookup (entity->max_lengths, f->name)));
          g_hash_table_insert (entity->max_lengths, g_strdup (f->name), GUINT_TO_POINTER (most));
        }
    }
  entity_attrs (entity, group, table);
  for (guint i = 0; i < group->items->len && i < DY_INFER_ITEMS_PER_ENTITY; i++)
    json_array_append (table->items, group->items->pdata[i]);
  return TRUE;
}

DyModel *
dy_model_infer_from_items (json_t *description, json_t *items, GError **error)
{
  const char *name = json_string_value (json_object_get (description, "TableName"));
  g_autoptr (DyModel) model = NULL;
  DyModelTable *table;
  g_autoptr (GPtrArray) keys = NULL;
  g_autoptr (GPtrArray) sorted = g_ptr_array_new ();
  g_autoptr (GPtrArray) groups = g_ptr_array_new_with_free_func (group_free);
  g_autoptr (GHashTable) by_sig = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  SortKeys order;
  size_t i;
  json_t *item;

  if (name == NULL)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "DescribeTable gave no TableName");
      return NULL;
    }
  model = dy_model_new (name);
  model->author = g_strdup ("Dynoscope");
  table = dy_model_table_new (name);
  g_ptr_array_add (model->tables, table);
  if (!read_schema (description, json_object_get (description, "KeySchema"), &table->partition,
                    &table->sort))
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "DescribeTable gave no key schema for %s", name);
      return NULL;
    }
  if (!read_indexes (table, description, error))
    return NULL;
  read_billing (table, description);
  model->description = g_strdup_printf (
      "Inferred by Dynoscope from %zu items of table %s: entities by their key prefixes, key "
      "templates, attributes and indexes. Review the names; add the access patterns.",
      json_array_size (items), name);

  keys = key_attrs (table, items);
  json_array_foreach (items, i, item)
    if (infer_value_text (item, table->partition.name) != NULL)
      g_ptr_array_add (sorted, item);
  order.pk = table->partition.name;
  order.sk = table->sort.name;
  g_ptr_array_sort_with_data (sorted, compare_items, &order);

  for (guint n = 0; n < sorted->len; n++)
    {
      json_t *it = sorted->pdata[n];
      const KeyAttr *pk = keys->pdata[0];
      g_autofree char *pk_word = NULL, *sk_word = NULL;
      g_autofree char *pk_sig = infer_key_signature (
          infer_value_text (it, pk->name), g_strcmp0 (pk->type, "S") == 0 ? pk->sep : 0, &pk_word);
      g_autofree char *sk_sig = NULL;
      if (table->sort.name != NULL)
        {
          const KeyAttr *sk = keys->pdata[1];
          const char *v = infer_value_text (it, sk->name);
          sk_sig
              = v ? infer_key_signature (v, g_strcmp0 (sk->type, "S") == 0 ? sk->sep : 0, &sk_word)
                  : g_strdup ("-");
        }
      g_autofree char *sig = g_strconcat (pk_sig, "\x1e", sk_sig, NULL);
      Group *group = g_hash_table_lookup (by_sig, sig);
      if (group == NULL)
        {
          group = g_new0 (Group, 1);
          group->sig = g_steal_pointer (&sig);
          group->items = g_ptr_array_new ();
          group->shapes = g_ptr_array_new_with_free_func (infer_shape_free);
          group->pk_word = g_steal_pointer (&pk_word);
          group->sk_word = g_steal_pointer (&sk_word);
          g_ptr_array_add (groups, group);
          g_hash_table_insert (by_sig, group->sig, group);
        }
      g_ptr_array_add (group->items, it);
    }
  for (guint g = 0; g < groups->len; g++)
    if (!build_entity (model, table, groups->pdata[g], keys, used, error))
      return NULL;
  table_attrs (table, model);
  return g_steal_pointer (&model);
}

/* ---- reading the table ---- */

typedef struct {
  GMutex lock;
  json_t *items;
} Collect;

static void
collect_item (DdbValue *item, guint segment, gpointer user_data)
{
  Collect *collect = user_data;
  json_t *json = ddb_item_to_json (item);
  (void) segment;
  ddb_value_free (item);
  g_mutex_lock (&collect->lock);
  json_array_append_new (collect->items, json);
  g_mutex_unlock (&collect->lock);
}

DyModel *
dy_model_infer (DdbBackend *backend, const char *table, guint64 sample, GCancellable *cancellable,
                GError **error)
{
  json_auto_t *request = json_pack ("{ss}", "TableName", table);
  json_auto_t *response = NULL;
  DdbKeysOptions options = { 0 };
  Collect collect;
  gboolean ok;
  DyModel *model;

  if (!ddb_backend_call (backend, "DescribeTable", request, cancellable, &response, error))
    return NULL;
  options.table = table;
  options.sample = sample > 0 ? sample : DY_INFER_DEFAULT_SAMPLE;
  g_mutex_init (&collect.lock);
  collect.items = json_array ();
  ok = ddb_keys_scan (backend, &options, ddb_keys_scan_segments (backend, 0), collect_item,
                      &collect, NULL, NULL, NULL, cancellable, error);
  g_mutex_clear (&collect.lock);
  model = ok ? dy_model_infer_from_items (json_object_get (response, "Table"), collect.items, error)
             : NULL;
  json_decref (collect.items);
  return model;
}
