/* dy-value-cell.h: the inspector's Value cell: a value's exact text (selectable, wrapped, never
 * cut) and, dimmed beside it, the local date and time it reads as (epoch numbers, ISO 8601
 * strings), or for the table's TTL attribute when the item expires. The date is only shown:
 * the value, and what the editor edits, stay exactly as stored. */
#pragma once

#include <gtk/gtk.h>

#include "app/inspector/dy-node.h"

G_BEGIN_DECLS

/* A "setup" for the Value column's factory. */
void dy_value_cell_setup (GtkListItem *list_item);
/* Shows NODE (a row at DEPTH of the tree) in the cell; TTL_ATTRIBUTE (NULL: none) is the
 * table's TTL attribute, said of a top-level attribute of that name. */
void dy_value_cell_bind (GtkListItem *list_item, DyNode *node, guint depth,
                         const char *ttl_attribute);
/* The cell's parts, for tests: its value label and its time label (hidden when the value does
 * not read as a time). */
GtkLabel *dy_value_cell_get_value_label (GtkWidget *cell);
GtkLabel *dy_value_cell_get_time_label (GtkWidget *cell);

G_END_DECLS
