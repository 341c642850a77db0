/* dy-group-builder.c: item collections built from a grid's rows. A million rows may make a few
 * hundred thousand collections, so none of them is an object until it is shown: the builder
 * keeps a key text and a slice of one array of row positions per collection, and the list it
 * returns makes a DyGroup when GTK asks for that row, and its items when it is expanded. */
#define G_LOG_DOMAIN "dynoscope-group"

#include "app/browser/dy-group-private.h"

typedef struct {
  guint32 offset; /* of its rows in the positions */
  guint32 n;
  guint64 size;
} Collection;

struct _DyGroupBuilder {
  GHashTable *by_key; /* key text (in keys) -> collection index + 1, of the first n_hashed */
  guint n_hashed;     /* collections made by dy_group_builder_add_collection are hashed later */
  GStringChunk *keys;
  GPtrArray *key_of;   /* const char *, per collection, first seen first */
  GArray *collections; /* Collection */
  guint32 *rows;       /* pairs: position, collection; in the order added */
  gsize n_rows;        /* pairs in rows */
  gsize rows_size;     /* pairs rows has room for */
};

/* What a built list and the groups it made share (atomically reference-counted: the list may
 * be made on a worker). */
typedef struct {
  DyRows *rows;
  GStringChunk *keys;
  const char **key_of;
  Collection *collections;
  guint n_collections;
  guint32 *positions; /* every row, collection by collection */
  DyShardPlan *plan;
} Built;

static void
built_clear (Built *b)
{
  g_object_unref (b->rows);
  g_string_chunk_free (b->keys);
  g_free (b->key_of);
  g_free (b->collections);
  g_free (b->positions);
  dy_shard_plan_free (b->plan);
}

static Built *
built_ref (Built *b)
{
  return g_atomic_rc_box_acquire (b);
}

static void
built_unref (Built *b)
{
  g_atomic_rc_box_release_full (b, (GDestroyNotify) built_clear);
}

/* ---- The list of collections ---- */

#define DY_TYPE_COLLECTIONS (dy_collections_get_type ())
G_DECLARE_FINAL_TYPE (DyCollections, dy_collections, DY, COLLECTIONS, GObject)

struct _DyCollections {
  GObject parent_instance;
  Built *built;
  GPtrArray *made; /* DyGroup or NULL, per entry of the plan */
};

static GType
dy_collections_get_item_type (GListModel *list)
{
  return DY_TYPE_GROUP;
}

static guint
dy_collections_get_n_items (GListModel *list)
{
  return DY_COLLECTIONS (list)->made->len;
}

typedef struct {
  Built *built;
  guint index;
} ItemsOf;

static void
items_of_free (ItemsOf *of)
{
  built_unref (of->built);
  g_free (of);
}

/* A collection's items: its slice of the positions. */
static GListModel *
make_items (gpointer data)
{
  ItemsOf *of = data;
  const Collection *c = &of->built->collections[of->index];
  GArray *positions = g_array_sized_new (FALSE, FALSE, sizeof (guint32), c->n);

  g_array_append_vals (positions, of->built->positions + c->offset, c->n);
  return G_LIST_MODEL (dy_row_list_new (of->built->rows, positions));
}

static DyGroup *
collection_group (Built *built, guint index)
{
  const Collection *c = &built->collections[index];
  DyGroup *group = dy_group_new (built->key_of[index]);
  ItemsOf *of = g_new0 (ItemsOf, 1);

  of->built = built_ref (built);
  of->index = index;
  dy_group_set_lazy_items (group, c->n, c->size, make_items, of, (GDestroyNotify) items_of_free);
  dy_group_set_shard (group, dy_shard_plan_get_mark (built->plan, index));
  return group;
}

static gpointer
dy_collections_get_item (GListModel *list, guint position)
{
  DyCollections *self = DY_COLLECTIONS (list);
  Built *built = self->built;
  const DyShardEntry *entry;

  if (position >= self->made->len)
    return NULL;
  if (self->made->pdata[position] == NULL)
    {
      entry = &g_array_index (built->plan->entries, DyShardEntry, position);
      if (entry->set)
        {
          const DyShardSet *set = built->plan->sets->pdata[entry->index];
          g_autoptr (GListStore) members = g_list_store_new (DY_TYPE_GROUP);

          for (guint m = 0; m < set->members->len; m++)
            {
              g_autoptr (DyGroup) member
                  = collection_group (built, g_array_index (set->members, guint, m));

              g_list_store_append (members, member);
            }
          self->made->pdata[position] = dy_group_new_shard_set (set, G_LIST_MODEL (members));
        }
      else
        self->made->pdata[position] = collection_group (built, entry->index);
    }
  return g_object_ref (self->made->pdata[position]);
}

static void
dy_collections_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = dy_collections_get_item_type;
  iface->get_n_items = dy_collections_get_n_items;
  iface->get_item = dy_collections_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (DyCollections, dy_collections, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      dy_collections_list_model_init))

static void
dy_collections_finalize (GObject *object)
{
  DyCollections *self = DY_COLLECTIONS (object);

  g_ptr_array_unref (self->made);
  built_unref (self->built);
  G_OBJECT_CLASS (dy_collections_parent_class)->finalize (object);
}

static void
dy_collections_class_init (DyCollectionsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_collections_finalize;
}

static void
dy_collections_init (DyCollections *self)
{
}

/* ---- The builder ---- */

static void
unref_made (gpointer group)
{
  if (group != NULL)
    g_object_unref (group);
}

DyGroupBuilder *
dy_group_builder_new (void)
{
  DyGroupBuilder *b = g_new0 (DyGroupBuilder, 1);

  b->by_key = g_hash_table_new (g_str_hash, g_str_equal);
  b->keys = g_string_chunk_new (64 * 1024);
  b->key_of = g_ptr_array_new ();
  b->collections = g_array_new (FALSE, FALSE, sizeof (Collection));
  return b;
}

void
dy_group_builder_reserve (DyGroupBuilder *builder, guint n_rows)
{
  g_return_if_fail (builder->n_rows == 0);

  g_free (builder->rows);
  builder->rows = g_new (guint32, 2 * (gsize) n_rows);
  builder->rows_size = n_rows;
}

void
dy_group_builder_free (DyGroupBuilder *builder)
{
  if (builder == NULL)
    return;
  g_hash_table_unref (builder->by_key);
  if (builder->keys != NULL)
    g_string_chunk_free (builder->keys);
  g_ptr_array_unref (builder->key_of);
  g_array_unref (builder->collections);
  g_free (builder->rows);
  g_free (builder);
}

guint
dy_group_builder_add_collection (DyGroupBuilder *builder, const char *key_text)
{
  const char *key = g_string_chunk_insert (builder->keys, key_text);
  Collection c = { 0 };

  g_array_append_val (builder->collections, c);
  g_ptr_array_add (builder->key_of, (gpointer) key);
  return builder->collections->len - 1;
}

guint
dy_group_builder_add (DyGroupBuilder *builder, const char *key_text, guint32 position, guint64 size)
{
  gpointer found;
  guint index;

  for (; builder->n_hashed < builder->collections->len; builder->n_hashed++)
    g_hash_table_insert (builder->by_key, builder->key_of->pdata[builder->n_hashed],
                         GUINT_TO_POINTER (builder->n_hashed + 1));
  found = g_hash_table_lookup (builder->by_key, key_text);
  if (found == NULL)
    {
      index = dy_group_builder_add_collection (builder, key_text);
      g_hash_table_insert (builder->by_key, builder->key_of->pdata[index],
                           GUINT_TO_POINTER (index + 1));
      builder->n_hashed++;
    }
  else
    index = GPOINTER_TO_UINT (found) - 1;
  dy_group_builder_add_to (builder, index, position, size);
  return index;
}

void
dy_group_builder_add_to (DyGroupBuilder *builder, guint index, guint32 position, guint64 size)
{
  Collection *c;

  g_return_if_fail (index < builder->collections->len);
  c = &g_array_index (builder->collections, Collection, index);
  c->n++;
  c->size += size;
  if (builder->n_rows == builder->rows_size)
    {
      builder->rows_size = MAX (2 * builder->rows_size, 1024);
      builder->rows = g_renew (guint32, builder->rows, 2 * builder->rows_size);
    }
  builder->rows[2 * builder->n_rows] = position;
  builder->rows[2 * builder->n_rows + 1] = index;
  builder->n_rows++;
}

GListModel *
dy_group_builder_finish (DyGroupBuilder *builder, DyRows *rows, GCompareDataFunc compare,
                         gpointer user_data)
{
  Built *built = g_atomic_rc_box_new0 (Built);
  DyCollections *list;
  guint n = builder->collections->len;
  g_autofree guint32 *fill = NULL;
  guint32 offset = 0;

  built->rows = g_object_ref (rows);
  built->n_collections = n;
  built->collections = (Collection *) g_array_free (builder->collections, FALSE);
  builder->collections = g_array_new (FALSE, FALSE, sizeof (Collection));
  built->key_of = (const char **) g_ptr_array_free (builder->key_of, FALSE);
  builder->key_of = g_ptr_array_new ();
  built->keys = builder->keys;
  builder->keys = g_string_chunk_new (64 * 1024);
  g_hash_table_remove_all (builder->by_key);
  builder->n_hashed = 0;

  /* Each collection's rows together, in the order they were added, then sorted. */
  fill = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      built->collections[i].offset = offset;
      fill[i] = offset;
      offset += built->collections[i].n;
    }
  built->positions = g_new (guint32, MAX (offset, 1));
  for (gsize r = 0; r < builder->n_rows; r++)
    {
      const guint32 *pair = builder->rows + 2 * r;

      built->positions[fill[pair[1]]++] = pair[0];
    }
  builder->n_rows = 0;
  for (guint i = 0; compare != NULL && i < n; i++)
    {
      guint32 *p = built->positions + built->collections[i].offset;
      guint32 c = built->collections[i].n, j = 1;

      /* Rows mostly come in their order already (a Query's, a Scan's within a partition): the
       * sort, stable, would leave them as they are; or in the reverse of it, each before the
       * next (none equal): then reversed is sorted. */
      while (j < c && compare (&p[j - 1], &p[j], user_data) <= 0)
        j++;
      if (j == c)
        continue;
      for (j = 1; j < c && compare (&p[j - 1], &p[j], user_data) > 0; j++)
        ;
      if (j == c)
        for (guint32 a = 0, b = c - 1; a < b; a++, b--)
          {
            guint32 t = p[a];

            p[a] = p[b];
            p[b] = t;
          }
      else
        g_qsort_with_data (p, (gint) c, sizeof (guint32), compare, user_data);
    }

  built->plan = dy_shard_plan_new (built->key_of, n);
  list = g_object_new (DY_TYPE_COLLECTIONS, NULL);
  list->built = built;
  list->made = g_ptr_array_new_with_free_func (unref_made);
  g_ptr_array_set_size (list->made, built->plan->entries->len);
  return G_LIST_MODEL (list);
}
