/* dy-group.h: an item collection: the items of one partition key value, as a row of the
 * grouped grid that expands to its items. */
#pragma once

#include <gio/gio.h>

#include "app/dy-item.h"

G_BEGIN_DECLS

#define DY_TYPE_GROUP (dy_group_get_type ())
G_DECLARE_FINAL_TYPE (DyGroup, dy_group, DY, GROUP, GObject)

/* KEY_TEXT: the partition key value as shown. */
DyGroup *dy_group_new (const char *key_text);
const char *dy_group_get_key_text (DyGroup *self);
void dy_group_add (DyGroup *self, DyItem *item);
/* Sorts the items by the attribute SORT_KEY (NULL: keeps the order), descending if asked. */
void dy_group_sort (DyGroup *self, const char *sort_key, gboolean descending);
/* The items (DyItem), in sort-key order once sorted. */
GListModel *dy_group_get_items (DyGroup *self);
guint dy_group_get_n_items (DyGroup *self);
guint64 dy_group_get_total_size (DyGroup *self);

G_END_DECLS
