/* estimate.c: item sizes, item-collection sizes and capacity costs of a model (see estimate.h
 * for DynamoDB's rules as followed here). */
#include "model/estimate.h"

#include "core/ddbjson.h"
#include "core/itemsize.h"

#include <math.h>
#include <string.h>

double
dy_read_units (double bytes, gboolean consistent, gboolean transactional)
{
  double units = MAX (1.0, ceil (bytes / DY_READ_UNIT_BYTES));
  if (transactional)
    return 2 * units;
  return consistent ? units : units / 2;
}

double
dy_write_units (double bytes, gboolean transactional)
{
  double units = MAX (1.0, ceil (bytes / DY_WRITE_UNIT_BYTES));
  return transactional ? 2 * units : units;
}

double
dy_query_read_units (double bytes, gboolean consistent)
{
  /* Each 1 MB page is its own request: full pages of 256 units, then the rest rounded up. */
  double full = floor (bytes / DY_QUERY_PAGE_BYTES);
  double rest = bytes - full * DY_QUERY_PAGE_BYTES;
  double units = full * (DY_QUERY_PAGE_BYTES / DY_READ_UNIT_BYTES);
  if (rest > 0 || full == 0)
    units += MAX (1.0, ceil (rest / DY_READ_UNIT_BYTES));
  return consistent ? units : units / 2;
}

const char *
dy_items_source_name (DyItemsSource source)
{
  switch (source)
    {
    case DY_ITEMS_ONE:
      return "one";
    case DY_ITEMS_GIVEN:
      return "given";
    case DY_ITEMS_PER_COLLECTION:
      return "per collection";
    case DY_ITEMS_SAMPLE:
      return "sample";
    }
  return "?";
}

/* ---- sample items and their entities ---- */

/* The text a key template is matched against: an S value, or an N value's digits. */
static char *
key_text (const DdbValue *v)
{
  if (v == NULL)
    return NULL;
  if (v->type == DDB_TYPE_S)
    return g_strndup (v->bytes.data, v->bytes.len);
  if (v->type == DDB_TYPE_N)
    return ddb_number_to_string (&v->number);
  return NULL;
}

/* Whether S (LEN bytes) is what PARTS from I on render: literals as they are, a field as one
 * byte or more (a padded one as at least its width in digits). FAILED remembers the (part,
 * offset) pairs that cannot match, so that fields next to each other cost len^2, not len^k. */
static gboolean
match_parts (GPtrArray *parts, guint i, const char *s, gsize off, gsize len, guint8 *failed)
{
  if (i == parts->len)
    return off == len;
  guint8 *seen = &failed[(gsize) i * (len + 1) + off];
  if (*seen)
    return FALSE;
  const DyTemplatePart *p = g_ptr_array_index (parts, i);
  gboolean ok = FALSE;
  if (p->kind == DY_TEMPLATE_LITERAL)
    {
      gsize n = strlen (p->text);
      ok = n <= len - off && memcmp (s + off, p->text, n) == 0
           && match_parts (parts, i + 1, s, off + n, len, failed);
    }
  else
    for (gsize n = 1; !ok && off + n <= len; n++)
      {
        if (p->width > 0 && !p->format && !g_ascii_isdigit (s[off + n - 1]))
          break;
        ok = n >= p->width && match_parts (parts, i + 1, s, off + n, len, failed);
      }
  if (!ok)
    *seen = 1;
  return ok;
}

static gboolean
template_matches (const DyTemplate *tpl, const char *text)
{
  gsize len = strlen (text);
  g_autofree guint8 *failed = g_malloc0 ((gsize) tpl->parts->len * (len + 1) + 1);
  return match_parts (tpl->parts, 0, text, 0, len, failed);
}

static gsize
literal_length (const DyTemplate *tpl)
{
  gsize n = 0;
  for (guint i = 0; i < tpl->parts->len; i++)
    {
      const DyTemplatePart *p = g_ptr_array_index (tpl->parts, i);
      if (p->kind == DY_TEMPLATE_LITERAL)
        n += strlen (p->text);
    }
  return n;
}

/* The literal length the entity's table-key templates match ITEM with; -1 when they do not. */
static gssize
entity_match (const DyModelEntity *e, const DyModelTable *table, const DdbValue *item)
{
  const char *names[] = { table->partition.name, table->sort.name };
  gssize score = 0;
  guint used = 0;
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      if (names[k] == NULL)
        continue;
      const DyModelKey *key = dy_model_entity_find_key (e, names[k]);
      if (key == NULL)
        continue;
      g_autofree char *text = key_text (ddb_value_map_get (item, names[k]));
      if (text == NULL || !template_matches (key->tpl, text))
        return -1;
      score += literal_length (key->tpl);
      used++;
    }
  return used > 0 ? score : -1;
}

const DyModelEntity *
dy_model_item_entity (const DyModel *model, const DyModelTable *table, const DdbValue *item)
{
  const DyModelEntity *best = NULL, *only = NULL;
  gssize best_score = -1;
  guint n_in_table = 0;
  for (guint i = 0; i < model->entities->len; i++)
    {
      const DyModelEntity *e = g_ptr_array_index (model->entities, i);
      if (!g_str_equal (e->table, table->name))
        continue;
      n_in_table++;
      only = e;
      gssize score = entity_match (e, table, item);
      if (score > best_score)
        {
          best = e;
          best_score = score;
        }
    }
  if (best == NULL && n_in_table == 1 && only->keys->len == 0)
    return only;
  return best;
}

/* ---- projections ---- */

static gboolean
in_index (const DyModelIndex *index, const DdbValue *item)
{
  return ddb_value_map_get (item, index->partition.name) != NULL
         && (index->sort.name == NULL || ddb_value_map_get (item, index->sort.name) != NULL);
}

static gboolean
projects (const DyModelTable *table, const DyModelIndex *index, const char *name)
{
  if (index == NULL || index->projection == NULL || g_str_equal (index->projection, "ALL"))
    return TRUE;
  if (g_strcmp0 (name, table->partition.name) == 0 || g_strcmp0 (name, table->sort.name) == 0
      || g_strcmp0 (name, index->partition.name) == 0 || g_strcmp0 (name, index->sort.name) == 0)
    return TRUE;
  if (g_str_equal (index->projection, "INCLUDE"))
    for (guint i = 0; i < index->non_key->len; i++)
      if (g_str_equal (g_ptr_array_index (index->non_key, i), name))
        return TRUE;
  return FALSE;
}

/* The size of ITEM as INDEX holds it (NULL: the table), by ddb_item_size's rules. */
static gsize
projected_size (const DyModelTable *table, const DyModelIndex *index, const DdbValue *item)
{
  if (index == NULL || index->projection == NULL || g_str_equal (index->projection, "ALL"))
    return ddb_item_size (item);
  g_autoptr (DdbValue) part = ddb_value_new_m ();
  for (guint i = 0; i < ddb_value_map_size (item); i++)
    {
      const DdbAttr *a = ddb_value_map_nth (item, i);
      if (projects (table, index, a->name))
        ddb_value_map_set (part, a->name, ddb_value_copy (a->value));
    }
  return ddb_item_size (part);
}

/* Whether an entity without sample items projects into INDEX: its templates or attributes
 * name the index's keys. */
static gboolean
entity_has_attr (const DyModelEntity *e, const DyModelTable *table, const char *name)
{
  if (name == NULL)
    return TRUE;
  if (g_strcmp0 (name, table->partition.name) == 0 || g_strcmp0 (name, table->sort.name) == 0)
    return TRUE;
  if (dy_model_entity_find_key (e, name))
    return TRUE;
  for (guint i = 0; i < e->attrs->len; i++)
    if (g_str_equal (((DyModelAttr *) g_ptr_array_index (e->attrs, i))->name, name))
      return TRUE;
  return FALSE;
}

/* ---- per entity ---- */

typedef struct {
  DyEntityEstimate *est;
  const DyModelTable *table;
  GPtrArray *items; /* of DdbValue*, the entity's sample items */
} EntityStats;

static void
entity_stats_free (gpointer data)
{
  EntityStats *s = data;
  g_ptr_array_unref (s->items);
  g_free (s);
}

static gboolean
entity_in_index (const EntityStats *s, const DyModelIndex *index)
{
  if (s->items->len == 0)
    return entity_has_attr (s->est->entity, s->table, index->partition.name)
           && entity_has_attr (s->est->entity, s->table, index->sort.name);
  for (guint i = 0; i < s->items->len; i++)
    if (in_index (index, g_ptr_array_index (s->items, i)))
      return TRUE;
  return FALSE;
}

/* The mean WCU of one write of the entity in INDEX (NULL: the table itself), over the sample
 * items (an item that does not project into the index costs it nothing). */
static double
entity_write_units (const EntityStats *s, const DyModelIndex *index)
{
  gboolean tx = s->est->entity->write_transactional;
  if (s->items->len == 0)
    {
      if (!s->est->sized || (index && !entity_in_index (s, index)))
        return 0;
      return dy_write_units (s->est->avg_size, tx);
    }
  double sum = 0;
  for (guint i = 0; i < s->items->len; i++)
    {
      const DdbValue *item = g_ptr_array_index (s->items, i);
      if (index == NULL || in_index (index, item))
        sum += dy_write_units (projected_size (s->table, index, item), tx);
    }
  return sum / s->items->len;
}

/* The mean bytes the entity's items take in the table's LSIs. */
static double
entity_lsi_bytes (const EntityStats *s)
{
  double sum = 0;
  for (guint x = 0; x < s->table->indexes->len; x++)
    {
      const DyModelIndex *index = g_ptr_array_index (s->table->indexes, x);
      if (!index->local)
        continue;
      if (s->items->len == 0)
        {
          if (s->est->sized && entity_in_index (s, index))
            sum += s->est->avg_size;
          continue;
        }
      double isum = 0;
      for (guint i = 0; i < s->items->len; i++)
        {
          const DdbValue *item = g_ptr_array_index (s->items, i);
          if (in_index (index, item))
            isum += projected_size (s->table, index, item);
        }
      sum += isum / s->items->len;
    }
  return sum;
}

/* Counts of ITEMS per value of ATTR (items without it left out): the mean, and the most. */
static void
per_partition (GPtrArray *items, const char *attr, double *mean, guint *most)
{
  g_autoptr (GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint total = 0;
  *most = 0;
  for (guint i = 0; i < items->len; i++)
    {
      g_autofree char *text = key_text (ddb_value_map_get (g_ptr_array_index (items, i), attr));
      if (text == NULL)
        continue;
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, text)) + 1;
      *most = MAX (*most, n);
      g_hash_table_insert (counts, g_steal_pointer (&text), GUINT_TO_POINTER (n));
      total++;
    }
  guint groups = g_hash_table_size (counts);
  *mean = groups > 0 ? (double) total / groups : 0;
}

/* Whether the pattern's inputs fix a field of the sort key, so that a Query returns part of
 * the entity's items of a partition rather than all of them. */
static gboolean
narrows_sort_key (const EntityStats *s, const DyModelIndex *index, const DyModelPattern *p)
{
  const char *sk = index ? index->sort.name : s->table->sort.name;
  const DyModelKey *key = sk ? dy_model_entity_find_key (s->est->entity, sk) : NULL;
  if (key == NULL)
    return FALSE;
  for (guint i = 0; i < key->tpl->parts->len; i++)
    {
      const DyTemplatePart *part = g_ptr_array_index (key->tpl->parts, i);
      if (part->kind != DY_TEMPLATE_FIELD)
        continue;
      for (guint k = 0; k < p->inputs->len; k++)
        if (g_str_equal (g_ptr_array_index (p->inputs, k), part->text))
          return TRUE;
    }
  return FALSE;
}

static void
entity_estimate_free (gpointer data)
{
  DyEntityEstimate *e = data;
  g_ptr_array_unref (e->indexes);
  g_free (e);
}

static void
pattern_estimate_free (gpointer data)
{
  DyPatternEstimate *p = data;
  g_free (p->note);
  g_free (p);
}

static void
capacity_free (gpointer data)
{
  DyCapacityEstimate *c = data;
  g_free (c->table);
  g_free (c->index);
  g_free (c);
}

static void
collection_free (gpointer data)
{
  DyCollectionEstimate *c = data;
  g_free (c->table);
  g_free (c->partition);
  g_ptr_array_unref (c->entities);
  g_free (c);
}

void
dy_estimate_free (DyEstimate *estimate)
{
  if (estimate == NULL)
    return;
  g_ptr_array_unref (estimate->entities);
  g_ptr_array_unref (estimate->patterns);
  g_ptr_array_unref (estimate->capacities);
  g_ptr_array_unref (estimate->collections);
  g_free (estimate);
}

static double
price (const DyModel *model, DyPriceKind kind)
{
  return model->prices->price[kind].value;
}

static DyCapacityEstimate *
find_capacity (DyEstimate *est, const char *table, const char *gsi)
{
  for (guint i = 0; i < est->capacities->len; i++)
    {
      DyCapacityEstimate *c = g_ptr_array_index (est->capacities, i);
      if (g_str_equal (c->table, table) && g_strcmp0 (c->index, gsi) == 0)
        return c;
    }
  return NULL;
}

static GPtrArray *
entity_stats (const DyModel *model, DyEstimate *est)
{
  GPtrArray *stats = g_ptr_array_new_with_free_func (entity_stats_free);
  for (guint i = 0; i < model->entities->len; i++)
    {
      EntityStats *s = g_new0 (EntityStats, 1);
      s->est = g_new0 (DyEntityEstimate, 1);
      s->est->entity = g_ptr_array_index (model->entities, i);
      s->est->indexes = g_ptr_array_new_with_free_func (g_free);
      s->table = dy_model_find_table (model, s->est->entity->table);
      s->items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
      g_ptr_array_add (est->entities, s->est);
      g_ptr_array_add (stats, s);
    }
  for (guint t = 0; t < model->tables->len; t++)
    {
      const DyModelTable *table = g_ptr_array_index (model->tables, t);
      size_t i;
      json_t *v;
      json_array_foreach (table->items, i, v)
        {
          DdbValue *item = ddb_json_to_item (v, NULL); /* checked when the model was read */
          const DyModelEntity *e = item ? dy_model_item_entity (model, table, item) : NULL;
          if (e == NULL)
            {
              g_clear_pointer (&item, ddb_value_free);
              continue;
            }
          for (guint k = 0; k < stats->len; k++)
            {
              EntityStats *s = g_ptr_array_index (stats, k);
              if (s->est->entity == e)
                g_ptr_array_add (s->items, g_steal_pointer (&item));
            }
        }
    }
  return stats;
}

static void
estimate_entity (const DyModel *model, DyEstimate *est, EntityStats *s)
{
  DyEntityEstimate *e = s->est;
  e->n_samples = s->items->len;
  double sum = 0;
  for (guint i = 0; i < s->items->len; i++)
    {
      gsize size = ddb_item_size (g_ptr_array_index (s->items, i));
      sum += size;
      e->max_size = MAX (e->max_size, size);
    }
  if (s->items->len > 0)
    {
      e->avg_size = sum / s->items->len;
      e->sized = TRUE;
    }
  else if (e->entity->item_size > 0)
    {
      e->avg_size = e->max_size = e->entity->item_size;
      e->sized = TRUE;
    }
  if (!e->sized || s->table == NULL)
    return;
  e->table_wcu = entity_write_units (s, NULL);
  for (guint x = 0; x < s->table->indexes->len; x++)
    {
      const DyModelIndex *index = g_ptr_array_index (s->table->indexes, x);
      if (!entity_in_index (s, index))
        continue;
      g_ptr_array_add (e->indexes, g_strdup (index->name));
      double units = entity_write_units (s, index);
      if (index->local)
        e->table_wcu += units;
      else
        {
          e->gsi_wcu += units;
          DyCapacityEstimate *c = find_capacity (est, s->table->name, index->name);
          c->wcu_per_second += e->entity->write_rate * units;
        }
    }
  e->rate = e->entity->write_rate;
  e->wcu_per_second = e->rate * (e->table_wcu + e->gsi_wcu);
  find_capacity (est, s->table->name, NULL)->wcu_per_second += e->rate * e->table_wcu;
  e->monthly_on_demand
      = e->wcu_per_second * DY_SECONDS_PER_MONTH / 1e6 * price (model, DY_PRICE_ON_DEMAND_WRITE);
  e->monthly_provisioned
      = ceil (e->wcu_per_second) * DY_HOURS_PER_MONTH * price (model, DY_PRICE_PROVISIONED_WRITE);
}

static void
estimate_pattern (const DyModel *model, DyEstimate *est, GPtrArray *stats, const DyResolution *r,
                  DyPatternEstimate *pe)
{
  const DyModelPattern *p = pe->pattern;
  pe->kind = r->kind;
  pe->rate = p->rate;
  if (r->kind == DY_RESOLVED_FLAGGED)
    {
      pe->note = g_strdup ("no single request serves it (see model check); not estimated");
      return;
    }
  EntityStats *s = NULL;
  for (guint i = 0; i < stats->len; i++)
    if (g_str_equal (((EntityStats *) g_ptr_array_index (stats, i))->est->entity->name, p->entity))
      s = g_ptr_array_index (stats, i);
  if (s == NULL || s->table == NULL)
    {
      pe->note = g_strdup_printf ("entity %s is not in the model; not estimated", p->entity);
      return;
    }
  const DyModelIndex *index = p->index ? dy_model_table_find_index (s->table, p->index) : NULL;
  if (!s->est->sized)
    {
      pe->note
          = g_strdup_printf ("no sample items of %s and no itemSize; not estimated", p->entity);
      return;
    }
  /* The entity's items as the index holds them. */
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  double size_sum = 0, get_units = 0;
  pe->consistent = p->consistent && !(index && !index->local);
  pe->transactional = p->transactional && r->kind == DY_RESOLVED_GET_ITEM;
  for (guint i = 0; i < s->items->len; i++)
    {
      DdbValue *item = g_ptr_array_index (s->items, i);
      if (index && !in_index (index, item))
        continue;
      g_ptr_array_add (items, item);
      gsize size = projected_size (s->table, index, item);
      size_sum += size;
      get_units += dy_read_units (size, pe->consistent, pe->transactional);
    }
  GString *note = g_string_new (NULL);
  if (p->consistent && !pe->consistent)
    g_string_append (note, "a GSI is read eventually consistent only; ConsistentRead ignored. ");
  if (p->transactional && !pe->transactional)
    g_string_append (note, "a Query cannot be transactional; transactional ignored. ");
  if (items->len > 0)
    pe->item_size = size_sum / items->len;
  else
    {
      pe->item_size = s->est->avg_size;
      get_units = dy_read_units (pe->item_size, pe->consistent, pe->transactional);
      if (index && index->projection && !g_str_equal (index->projection, "ALL"))
        g_string_append (note, "no sample items: the whole item size is assumed (an upper "
                               "bound for this projection). ");
    }

  if (r->kind == DY_RESOLVED_GET_ITEM)
    {
      pe->items = 1;
      pe->items_from = DY_ITEMS_ONE;
      pe->bytes = pe->item_size;
      pe->pages = 1;
      /* The mean of each sample item's own rounded units. */
      pe->rcu = items->len > 0 ? get_units / items->len : get_units;
    }
  else
    {
      if (p->items > 0)
        {
          pe->items = p->items;
          pe->items_from = DY_ITEMS_GIVEN;
        }
      else if (s->est->entity->per_collection > 0 && (index == NULL || index->local))
        {
          pe->items = s->est->entity->per_collection;
          pe->items_from = DY_ITEMS_PER_COLLECTION;
        }
      else
        {
          const char *pk = index ? index->partition.name : s->table->partition.name;
          guint most;
          per_partition (items, pk, &pe->items, &most);
          pe->items_from = DY_ITEMS_SAMPLE;
          if (items->len == 0)
            pe->items = 1;
          if (p->range_from || items->len == 0 || narrows_sort_key (s, index, p))
            g_string_append (note, "items: all of the entity's in a sample collection, though "
                                   "the key condition may return fewer; give \"items\" for a "
                                   "closer figure. ");
        }
      pe->bytes = pe->items * pe->item_size;
      pe->pages = MAX (1.0, ceil (pe->bytes / DY_QUERY_PAGE_BYTES));
      pe->rcu = dy_query_read_units (pe->bytes, pe->consistent);
    }
  if (note->len > 0)
    g_string_truncate (note, note->len - 1);
  pe->note = g_string_free (note, note->len == 0);
  pe->estimated = TRUE;
  pe->rcu_per_second = pe->rate * pe->rcu;
  pe->monthly_units = pe->rcu_per_second * DY_SECONDS_PER_MONTH;
  pe->monthly_on_demand = pe->monthly_units / 1e6 * price (model, DY_PRICE_ON_DEMAND_READ);
  pe->monthly_provisioned
      = ceil (pe->rcu_per_second) * DY_HOURS_PER_MONTH * price (model, DY_PRICE_PROVISIONED_READ);
  const char *holder = index && !index->local ? index->name : NULL;
  find_capacity (est, s->table->name, holder)->rcu_per_second += pe->rcu_per_second;
}

static void
estimate_collections (DyEstimate *est, GPtrArray *stats, const DyModelTable *table)
{
  gboolean has_lsi = FALSE;
  for (guint x = 0; x < table->indexes->len; x++)
    has_lsi = has_lsi || ((DyModelIndex *) g_ptr_array_index (table->indexes, x))->local;
  /* Entities whose partition key has one template share item collections. */
  g_autoptr (GHashTable) by_template = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < stats->len; i++)
    {
      EntityStats *s = g_ptr_array_index (stats, i);
      if (s->table != table || !s->est->sized)
        continue;
      const DyModelKey *key = dy_model_entity_find_key (s->est->entity, table->partition.name);
      const char *partition = key ? key->tpl->source : table->partition.name;
      DyCollectionEstimate *c = g_hash_table_lookup (by_template, partition);
      if (c == NULL)
        {
          c = g_new0 (DyCollectionEstimate, 1);
          c->table = g_strdup (table->name);
          c->partition = g_strdup (partition);
          c->entities = g_ptr_array_new_with_free_func (g_free);
          c->has_lsi = has_lsi;
          c->from_sample = TRUE;
          g_hash_table_insert (by_template, c->partition, c);
          g_ptr_array_add (est->collections, c);
        }
      g_ptr_array_add (c->entities, g_strdup (s->est->entity->name));
      double n;
      if (s->est->entity->per_collection > 0)
        {
          n = s->est->entity->per_collection;
          c->from_sample = FALSE;
        }
      else
        {
          double mean;
          guint most;
          per_partition (s->items, table->partition.name, &mean, &most);
          n = most;
        }
      c->bytes += n * (s->est->avg_size + entity_lsi_bytes (s));
    }
  for (guint i = 0; i < est->collections->len; i++)
    {
      DyCollectionEstimate *c = g_ptr_array_index (est->collections, i);
      c->over_limit = c->has_lsi && c->bytes > DY_LSI_COLLECTION_LIMIT;
    }
}

/* Units per second rounded up to whole units, as provisioned capacity is set. */
static gint64
whole_units (double per_second)
{
  double units = ceil (per_second);
  return units < (double) G_MAXINT64 ? (gint64) units : G_MAXINT64;
}

DyEstimate *
dy_model_estimate (const DyModel *model)
{
  DyEstimate *est = g_new0 (DyEstimate, 1);
  est->prices = model->prices;
  est->entities = g_ptr_array_new_with_free_func (entity_estimate_free);
  est->patterns = g_ptr_array_new_with_free_func (pattern_estimate_free);
  est->capacities = g_ptr_array_new_with_free_func (capacity_free);
  est->collections = g_ptr_array_new_with_free_func (collection_free);
  for (guint t = 0; t < model->tables->len; t++)
    {
      const DyModelTable *table = g_ptr_array_index (model->tables, t);
      for (gint x = -1; x < (gint) table->indexes->len; x++)
        {
          const DyModelIndex *index = x < 0 ? NULL : g_ptr_array_index (table->indexes, x);
          if (index && index->local)
            continue;
          DyCapacityEstimate *c = g_new0 (DyCapacityEstimate, 1);
          c->table = g_strdup (table->name);
          c->index = index ? g_strdup (index->name) : NULL;
          g_ptr_array_add (est->capacities, c);
        }
    }

  g_autoptr (GPtrArray) stats = entity_stats (model, est);
  for (guint i = 0; i < stats->len; i++)
    estimate_entity (model, est, g_ptr_array_index (stats, i));

  g_autoptr (DyCheckReport) report = dy_model_check (model);
  for (guint i = 0; i < report->resolutions->len; i++)
    {
      const DyResolution *r = g_ptr_array_index (report->resolutions, i);
      DyPatternEstimate *pe = g_new0 (DyPatternEstimate, 1);
      pe->pattern = r->pattern;
      g_ptr_array_add (est->patterns, pe);
      estimate_pattern (model, est, stats, r, pe);
    }

  for (guint t = 0; t < model->tables->len; t++)
    estimate_collections (est, stats, g_ptr_array_index (model->tables, t));

  for (guint i = 0; i < est->capacities->len; i++)
    {
      DyCapacityEstimate *c = g_ptr_array_index (est->capacities, i);
      c->rcu = whole_units (c->rcu_per_second);
      c->wcu = whole_units (c->wcu_per_second);
      c->monthly_on_demand
          = c->rcu_per_second * DY_SECONDS_PER_MONTH / 1e6 * price (model, DY_PRICE_ON_DEMAND_READ)
            + c->wcu_per_second * DY_SECONDS_PER_MONTH / 1e6
                  * price (model, DY_PRICE_ON_DEMAND_WRITE);
      c->monthly_provisioned
          = c->rcu * DY_HOURS_PER_MONTH * price (model, DY_PRICE_PROVISIONED_READ)
            + c->wcu * DY_HOURS_PER_MONTH * price (model, DY_PRICE_PROVISIONED_WRITE);
      est->monthly_on_demand += c->monthly_on_demand;
      est->monthly_provisioned += c->monthly_provisioned;
    }
  return est;
}
