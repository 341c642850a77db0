/* dy-item.c: one item of a result. */
#define G_LOG_DOMAIN "dynoscope-item"

#include "app/common/dy-item.h"
#include "core/ddbjson.h"
#include "core/itemsize.h"

struct _DyItem {
  GObject parent_instance;
  DdbValue *value;
  gsize size;
};

G_DEFINE_FINAL_TYPE (DyItem, dy_item, G_TYPE_OBJECT)

static void
dy_item_finalize (GObject *object)
{
  DyItem *self = DY_ITEM (object);

  g_clear_pointer (&self->value, ddb_value_free);
  G_OBJECT_CLASS (dy_item_parent_class)->finalize (object);
}

static void
dy_item_class_init (DyItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_item_finalize;
}

static void
dy_item_init (DyItem *self)
{
}

DyItem *
dy_item_new (DdbValue *item)
{
  DyItem *self = g_object_new (DY_TYPE_ITEM, NULL);

  g_return_val_if_fail (item != NULL && item->type == DDB_TYPE_M, NULL);
  self->value = item;
  self->size = ddb_item_size (item);
  return self;
}

DyItem *
dy_item_new_from_json (json_t *json, GError **error)
{
  DdbValue *value = ddb_json_to_item (json, error);

  return value != NULL ? dy_item_new (value) : NULL;
}

const DdbValue *
dy_item_get_value (DyItem *self)
{
  g_return_val_if_fail (DY_IS_ITEM (self), NULL);
  return self->value;
}

gsize
dy_item_get_size (DyItem *self)
{
  g_return_val_if_fail (DY_IS_ITEM (self), 0);
  return self->size;
}

const DdbValue *
dy_item_get_attribute (DyItem *self, const char *name)
{
  g_return_val_if_fail (DY_IS_ITEM (self), NULL);
  return ddb_value_map_get (self->value, name);
}
