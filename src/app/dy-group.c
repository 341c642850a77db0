/* dy-group.c: an item collection. */
#define G_LOG_DOMAIN "dynoscope-group"

#include "app/dy-format.h"
#include "app/dy-group.h"

struct _DyGroup {
  GObject parent_instance;
  char *key_text;
  GListStore *items;
  guint64 total_size;
};

G_DEFINE_FINAL_TYPE (DyGroup, dy_group, G_TYPE_OBJECT)

static void
dy_group_finalize (GObject *object)
{
  DyGroup *self = DY_GROUP (object);

  g_free (self->key_text);
  g_clear_object (&self->items);
  G_OBJECT_CLASS (dy_group_parent_class)->finalize (object);
}

static void
dy_group_class_init (DyGroupClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_group_finalize;
}

static void
dy_group_init (DyGroup *self)
{
  self->items = g_list_store_new (DY_TYPE_ITEM);
}

DyGroup *
dy_group_new (const char *key_text)
{
  DyGroup *self = g_object_new (DY_TYPE_GROUP, NULL);

  self->key_text = g_strdup (key_text);
  return self;
}

const char *
dy_group_get_key_text (DyGroup *self)
{
  return self->key_text;
}

void
dy_group_add (DyGroup *self, DyItem *item)
{
  g_list_store_append (self->items, item);
  self->total_size += dy_item_get_size (item);
}

typedef struct {
  const char *sort_key;
  gboolean descending;
} SortData;

static int
compare_items (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const SortData *data = user_data;
  const DdbValue *va = dy_item_get_attribute ((DyItem *) a, data->sort_key);
  const DdbValue *vb = dy_item_get_attribute ((DyItem *) b, data->sort_key);
  int c;

  /* Items of a GSI may lack its sort key only if they are not in it; keep them last anyway. */
  if (va == NULL || vb == NULL)
    c = (va == NULL) - (vb == NULL);
  else
    c = dy_format_compare_keys (va, vb);
  return data->descending ? -c : c;
}

void
dy_group_sort (DyGroup *self, const char *sort_key, gboolean descending)
{
  SortData data = { sort_key, descending };

  if (sort_key != NULL)
    g_list_store_sort (self->items, compare_items, &data);
}

GListModel *
dy_group_get_items (DyGroup *self)
{
  return G_LIST_MODEL (self->items);
}

guint
dy_group_get_n_items (DyGroup *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->items));
}

guint64
dy_group_get_total_size (DyGroup *self)
{
  return self->total_size;
}
