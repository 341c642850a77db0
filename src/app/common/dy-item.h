/* dy-item.h: one item of a result, as a row of the grid and the subject of the inspector. */
#pragma once

#include <gio/gio.h>
#include <jansson.h>

#include "core/value.h"

G_BEGIN_DECLS

#define DY_TYPE_ITEM (dy_item_get_type ())
G_DECLARE_FINAL_TYPE (DyItem, dy_item, DY, ITEM, GObject)

/* Takes ownership of ITEM (a map). */
DyItem *dy_item_new (DdbValue *item);
/* From DynamoDB JSON; NULL with the parser's error. */
DyItem *dy_item_new_from_json (json_t *json, GError **error);
const DdbValue *dy_item_get_value (DyItem *self);
/* The item's size as DynamoDB counts it. */
gsize dy_item_get_size (DyItem *self);
/* The attribute NAME, or NULL. */
const DdbValue *dy_item_get_attribute (DyItem *self, const char *name);

G_END_DECLS
