/* read-page.c: the page of a checked Query or Scan, read from a store cursor: Limit and the 1 MB
 * cap counted on the items read before the filter, only the attributes the projection and the
 * filter need decoded, a filter on a Scan's sort key tested on the stored key, the projection,
 * LastEvaluatedKey and the consumed capacity; the items written as JSON or handed to the sink
 * of ddb_engine_read. */
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemsize.h"
#include "engine/read-private.h"

/* A Query or Scan page stops once the items read reach 1 MB; the item that crosses the line
 * is part of the page. */
#define PAGE_BYTES (1024 * 1024)

static GPrivate item_sink; /* const DdbItemSink *, of this thread's ddb_engine_read */

void
ddb_read_set_sink (const DdbItemSink *sink)
{
  g_private_set (&item_sink, (gpointer) sink);
}

/* The LastEvaluatedKey of `item`: the table's key attributes, plus the index's. */
static DdbValue *
evaluated_key (const ReadRequest *r, const DdbValue *item)
{
  DdbValue *key = ddb_key_def_extract (&r->def->key, item);
  const char *names[2];

  if (key == NULL)
    key = ddb_value_new_m ();
  if (r->index == NULL)
    return key;
  names[0] = r->index->key.hash_name;
  names[1] = r->index->key.range_name;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const DdbValue *v = names[i] != NULL ? ddb_value_map_get (item, names[i]) : NULL;

      if (v != NULL && ddb_value_map_get (key, names[i]) == NULL)
        ddb_value_map_set (key, names[i], ddb_value_copy (v));
    }
  return key;
}

/* The item-level attributes a read needs when it hands over only its projection or a count:
 * the projection's and the filter's (key attributes always come); NULL when it needs whole
 * items, or fetches them from the table. */
static GPtrArray *
wanted_names (const ReadRequest *r)
{
  g_autoptr (GPtrArray) paths = NULL;
  GPtrArray *names;

  if (r->fetch || (r->projection == NULL && r->select != SELECT_COUNT))
    return NULL;
  names = g_ptr_array_new ();
  paths = read_filter_paths (r);
  for (guint i = 0; r->projection != NULL && i < r->projection->n_paths; i++)
    g_ptr_array_add (paths, &r->projection->paths[i]);
  for (guint i = 0; i < paths->len; i++)
    {
      const DdbPath *p = g_ptr_array_index (paths, i);
      gboolean seen = FALSE;

      for (guint j = 0; j < names->len && !seen; j++)
        seen = read_path_head_is (p, g_ptr_array_index (names, j));
      if (!seen)
        g_ptr_array_add (names, p->elems[0].name);
    }
  return names;
}

/* The projection of ITEM when every projected path is an attribute of the item itself: the item
 * without its other attributes (in their stored order; a map's order carries no meaning). */
static DdbValue *
prune_to_projection (const DdbProjection *projection, DdbValue *item)
{
  for (guint i = ddb_value_map_size (item); i > 0; i--)
    {
      const DdbAttr *a = ddb_value_map_nth (item, i - 1);
      gboolean projected = FALSE;

      for (guint p = 0; p < projection->n_paths && !projected; p++)
        projected = strcmp (projection->paths[p].elems[0].name, a->name) == 0;
      if (!projected)
        ddb_value_map_remove (item, a->name);
    }
  return item;
}

/* A conjunct of the filter, "SK op value" (either way round), "SK BETWEEN a AND b" or
 * "begins_with(SK, v)" on the sort key read by a Scan, with values of the key's type: a test the
 * store can make on the encoded key before decoding a row. FALSE when the filter has none. */
static gboolean
find_prefilter (const DdbNode *n, const DdbKeyDef *key, DdbSortKeyOp *op, const DdbValue *values[2])
{
  static const struct {
    DdbNodeKind kind;
    DdbSortKeyOp op, flipped; /* path op value, value op path */
  } comparisons[] = {
    { DDB_NODE_EQ, DDB_SK_EQ, DDB_SK_EQ }, { DDB_NODE_LT, DDB_SK_LT, DDB_SK_GT },
    { DDB_NODE_LE, DDB_SK_LE, DDB_SK_GE }, { DDB_NODE_GT, DDB_SK_GT, DDB_SK_LT },
    { DDB_NODE_GE, DDB_SK_GE, DDB_SK_LE },
  };
#define IS_KEY(a) \
  ((a)->kind == DDB_NODE_PATH && (a)->path.n == 1 && read_path_head_is (&(a)->path, key->range_name))
#define IS_VALUE(a) ((a)->kind == DDB_NODE_VALUE && (a)->value->type == key->range_type)

  if (n == NULL || key->range_name == NULL)
    return FALSE;
  if (n->kind == DDB_NODE_AND)
    return find_prefilter (n->args[0], key, op, values)
           || find_prefilter (n->args[1], key, op, values);
  for (guint i = 0; i < G_N_ELEMENTS (comparisons); i++)
    if (n->kind == comparisons[i].kind)
      {
        if (IS_KEY (n->args[0]) && IS_VALUE (n->args[1]))
          *op = comparisons[i].op, values[0] = n->args[1]->value;
        else if (IS_VALUE (n->args[0]) && IS_KEY (n->args[1]))
          *op = comparisons[i].flipped, values[0] = n->args[0]->value;
        else
          return FALSE;
        return TRUE;
      }
  if (n->kind == DDB_NODE_BETWEEN && IS_KEY (n->args[0]) && IS_VALUE (n->args[1])
      && IS_VALUE (n->args[2]))
    {
      *op = DDB_SK_BETWEEN;
      values[0] = n->args[1]->value;
      values[1] = n->args[2]->value;
      return TRUE;
    }
  if (n->kind == DDB_NODE_BEGINS_WITH && IS_KEY (n->args[0]) && IS_VALUE (n->args[1])
      && key->range_type != DDB_TYPE_N)
    {
      *op = DDB_SK_BEGINS_WITH;
      values[0] = n->args[1]->value;
      return TRUE;
    }
  return FALSE;
#undef IS_KEY
#undef IS_VALUE
}

static gboolean
projection_is_flat (const DdbProjection *projection)
{
  for (guint i = 0; projection != NULL && i < projection->n_paths; i++)
    if (projection->paths[i].n != 1)
      return FALSE;
  return projection != NULL;
}

json_t *
read_run_page (ReadRequest *r, DdbEngine *e, GError **error)
{
  DdbStoreRange range = { 0 };
  g_autoptr (DdbStoreCursor) cursor = NULL;
  g_autoptr (DdbValue) last_key = NULL;
  json_t *items = NULL, *response, *capacity;
  gsize bytes = 0;
  double table_units = 0;
  gint64 count = 0, scanned = 0;
  gboolean stopped = FALSE;
  DdbCapacity cap;
  const DdbItemSink *sink = g_private_get (&item_sink);
  g_autoptr (GPtrArray) wanted = NULL;
  gboolean flat = projection_is_flat (r->projection);
  DdbSortKeyOp pre_op = DDB_SK_NONE;
  const DdbValue *pre_values[2] = { NULL, NULL };

  range.index = r->index;
  range.forward = r->forward;
  range.exclusive_start = r->start;
  range.segment = r->has_segment ? (guint) r->segment : 0;
  range.total_segments = r->has_total_segments ? (guint) r->total_segments : 1;
  if (r->is_query)
    {
      range.hash = r->kc.pk;
      range.range_op = r->kc.sk_op;
      range.range[0] = r->kc.sk[0];
      range.range[1] = r->kc.sk[1];
    }
  else
    range.range_op = DDB_SK_NONE;

  cursor = ddb_store_cursor_open (e->store, r->def, &range, error);
  if (cursor == NULL)
    return NULL;
  wanted = wanted_names (r);
  if (wanted != NULL)
    ddb_store_cursor_set_wanted (cursor, (const char *const *) wanted->pdata, wanted->len);
  if (!r->is_query && !r->fetch && find_prefilter (r->filter, r->read_key, &pre_op, pre_values)
      && !ddb_store_cursor_set_prefilter (cursor, pre_op, pre_values, error))
    return NULL;

  if (r->select != SELECT_COUNT && sink == NULL)
    items = json_array ();

  while (!stopped)
    {
      g_autoptr (DdbValue) item = NULL;
      g_autoptr (DdbValue) full = NULL;
      const DdbValue *subject;
      GError *local = NULL;
      gboolean pass = TRUE, skipped = FALSE;

      item = ddb_store_cursor_next (cursor, &skipped, &local);
      if (item == NULL && !skipped)
        {
          if (local != NULL)
            {
              g_propagate_error (error, local);
              json_decref (items);
              return NULL;
            }
          break;
        }

      scanned++;
      bytes += (gsize) ddb_store_cursor_size (cursor);
      /* Only the item that ends the page gives its key (a copy per item was a cost of its own);
       * a row the prefilter skipped is read, and fails the filter, without being decoded. */
      if ((r->has_limit && scanned >= r->limit) || bytes >= PAGE_BYTES)
        {
          g_autoptr (DdbValue) key = skipped ? ddb_store_cursor_key (cursor, error) : NULL;

          if (skipped && key == NULL)
            {
              json_decref (items);
              return NULL;
            }
          stopped = TRUE;
          last_key = evaluated_key (r, skipped ? key : item);
        }
      if (skipped)
        continue;

      subject = item;
      if (r->fetch)
        {
          if (!ddb_store_item_get (e->store, r->def, item, &full, error))
            {
              json_decref (items);
              return NULL;
            }
          if (full != NULL)
            {
              /* Each fetch from the table is its own read, rounded up on its own. */
              table_units += ddb_capacity_read_units (ddb_item_size (full), r->consistent);
              subject = full;
            }
        }

      if (r->filter != NULL && !ddb_condition_eval (r->filter, subject, &pass, error))
        {
          json_decref (items);
          return NULL;
        }
      if (!pass)
        continue;
      count++;
      if (sink != NULL && r->select != SELECT_COUNT)
        {
          /* The values themselves, no JSON: SUBJECT is the item or the row fetched. */
          DdbValue *out;

          if (r->projection == NULL)
            out = subject == full ? g_steal_pointer (&full) : g_steal_pointer (&item);
          else if (flat && subject == item)
            out = prune_to_projection (r->projection, g_steal_pointer (&item));
          else
            out = ddb_projection_apply (r->projection, subject);
          sink->each (out, sink->user_data);
          continue;
        }
      if (items == NULL)
        continue;
      if (r->projection != NULL)
        {
          g_autoptr (DdbValue) projected = ddb_projection_apply (r->projection, subject);

          json_array_append_new (items, ddb_item_to_json (projected));
        }
      else
        json_array_append_new (items, ddb_item_to_json (subject));
    }

  /* Members in the order DynamoDB writes them. */
  response = json_object ();
  ddb_capacity_init (&cap, r->def->name);
  if (r->index == NULL)
    cap.table_read = ddb_capacity_read_units (bytes, r->consistent);
  else
    {
      cap.table_read = table_units;
      ddb_capacity_add_index (&cap, r->index, FALSE,
                              ddb_capacity_read_units (bytes, r->consistent));
    }
  capacity = ddb_capacity_to_json (&cap, r->rcc);
  ddb_capacity_clear (&cap);
  if (capacity != NULL)
    json_object_set_new (response, "ConsumedCapacity", capacity);
  json_object_set_new (response, "Count", json_integer (count));
  if (items != NULL)
    json_object_set_new (response, "Items", items);
  /* DynamoDB does not look ahead: a page cut by Limit or size carries the key of its last
   * item even when nothing follows it. */
  if (stopped && last_key != NULL)
    json_object_set_new (response, "LastEvaluatedKey", ddb_item_to_json (last_key));
  json_object_set_new (response, "ScannedCount", json_integer (scanned));
  return response;
}
