/* dy-node.h: one value inside an item, as a row of the inspector's typed tree: its document
 * path (a.b[3].c), its type and its value, with its members as children. */
#pragma once

#include <gio/gio.h>

#include "app/common/dy-item.h"

G_BEGIN_DECLS

#define DY_TYPE_NODE (dy_node_get_type ())
G_DECLARE_FINAL_TYPE (DyNode, dy_node, DY, NODE, GObject)

/* The top-level attributes of ITEM (the nodes keep a reference on it). */
GListModel *dy_node_list_for_item (DyItem *item);
/* The members of a map, list or set node; NULL for a scalar. */
GListModel *dy_node_get_children (DyNode *self);
/* The last step of the path: the attribute name or "[i]". */
const char *dy_node_get_name (DyNode *self);
/* The document path from the item, as DynamoDB writes it. */
const char *dy_node_get_path (DyNode *self);
const DdbValue *dy_node_get_value (DyNode *self);
/* The value's exact text for scalars (numbers digit for digit, whole strings, base64), the
 * summary for maps, lists and sets. Newly allocated. */
char *dy_node_dup_value_text (DyNode *self);

G_END_DECLS
