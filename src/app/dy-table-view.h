/* dy-table-view.h: one tab: a table (or one of its indexes) queried or scanned through a filter
 * row, the results in a virtualized grid (flat or grouped into item collections), the item
 * inspector beside it and a footer with what the last action cost. */
#pragma once

#include <gtk/gtk.h>

#include "app/dy-connection.h"
#include "app/dy-inspector.h"

G_BEGIN_DECLS

#define DY_TYPE_TABLE_VIEW (dy_table_view_get_type ())
G_DECLARE_FINAL_TYPE (DyTableView, dy_table_view, DY, TABLE_VIEW, GtkBox)

GtkWidget *dy_table_view_new (DyConnection *connection, const char *table_name);
DyConnection *dy_table_view_get_connection (DyTableView *self);
const char *dy_table_view_get_table_name (DyTableView *self);
/* TRUE once DescribeTable has answered (the filter row knows the keys). */
gboolean dy_table_view_get_ready (DyTableView *self);
/* TRUE while a request is running. */
gboolean dy_table_view_get_running (DyTableView *self);
/* TRUE while the last page carried a LastEvaluatedKey. */
gboolean dy_table_view_get_can_load_more (DyTableView *self);
gboolean dy_table_view_get_grouped (DyTableView *self);
/* Every item loaded since the last Run (DyItem), in the order DynamoDB returned them. */
GListModel *dy_table_view_get_items (DyTableView *self);
/* The grid's rows: DyItem, in the order shown (a column's when sorted); when grouped,
 * GtkTreeListRow of DyGroup (collections and shard sets) and of DyItem. */
GtkSelectionModel *dy_table_view_get_rows (DyTableView *self);
/* TRUE while the rows are being sorted or grouped (on a worker, for many rows): the grid
 * shows them as before until it is done. */
gboolean dy_table_view_get_arranging (DyTableView *self);
/* TRUE once DescribeTable and DescribeTimeToLive have answered (the description popover,
 * template child describe_grid, is filled). */
gboolean dy_table_view_get_described (DyTableView *self);
DyInspector *dy_table_view_get_inspector (DyTableView *self);
/* Figures since the last Run. */
void dy_table_view_get_stats (DyTableView *self, guint64 *scanned, guint *pages,
                              guint *requests, double *capacity);
/* The request JSON the view sends (the last one sent, or the one Run would send). */
char *dy_table_view_dup_request_text (DyTableView *self);

G_END_DECLS
