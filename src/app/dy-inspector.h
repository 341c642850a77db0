/* dy-inspector.h: the item inspector beside the grid: a typed tree (path, type, value), the
 * item's DynamoDB JSON (read-only for now) and a size meter against DynamoDB's 400 KB. */
#pragma once

#include <gtk/gtk.h>

#include "app/dy-item.h"

G_BEGIN_DECLS

#define DY_TYPE_INSPECTOR (dy_inspector_get_type ())
G_DECLARE_FINAL_TYPE (DyInspector, dy_inspector, DY, INSPECTOR, GtkBox)

GtkWidget *dy_inspector_new (void);
/* NULL shows the empty state. TITLE names the item (its key). */
void dy_inspector_set_item (DyInspector *self, DyItem *item, const char *title);
DyItem *dy_inspector_get_item (DyInspector *self);
/* The tree's rows (GtkTreeListRow of DyNode), for tests and keyboard navigation. */
GListModel *dy_inspector_get_tree_model (DyInspector *self);
/* The DynamoDB JSON shown. Newly allocated. */
char *dy_inspector_dup_json_text (DyInspector *self);

G_END_DECLS
