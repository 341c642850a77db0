/* dy-table-view.h: one tab: a table (or one of its indexes) queried or scanned through a filter
 * row, the results in a virtualized grid (flat or grouped into item collections), the item
 * inspector beside it and a footer with what the last action cost. */
#pragma once

#include <adwaita.h>

#include "app/connections/dy-connection.h"
#include "app/inspector/dy-inspector.h"
#include "core/value.h"
#include "engine/snapshot.h"

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
/* The current results: every item loaded since the last Run (or dy_table_view_run_request),
 * DyItem, in the order DynamoDB returned them. */
GListModel *dy_table_view_get_items (DyTableView *self);
/* The grid's rows, as DyRowSlot (dy-row-feed.h) showing each a DyItem, in the order shown (a
 * column's when sorted); when grouped, a GtkTreeListRow of DyGroup (collections and shard
 * sets) or of DyItem. */
GtkSelectionModel *dy_table_view_get_rows (DyTableView *self);
/* TRUE while the rows are being sorted or grouped (on a worker, for many rows), or handed to
 * the grid a few at a time: the grid shows them as before until it is done. */
gboolean dy_table_view_get_arranging (DyTableView *self);
/* TRUE once DescribeTable and DescribeTimeToLive have answered (the description popover,
 * template child describe_grid, is filled). */
gboolean dy_table_view_get_described (DyTableView *self);
DyInspector *dy_table_view_get_inspector (DyTableView *self);
/* SETTINGS (the window's, borrowed) hold the inspector's pane: inspector-visible (Shift+F9),
 * inspector-position (beside or below the grid), inspector-width and inspector-height. */
void dy_table_view_set_layout_settings (DyTableView *self, GSettings *settings);
/* The tab's query (a{sv}: index, key conditions, order, filters, Limit, grouping), new
 * reference, for the next start; and that state given back (applied once DescribeTable has
 * answered). */
GVariant *dy_table_view_save_state (DyTableView *self);
void dy_table_view_restore_state (DyTableView *self, GVariant *state);
/* TRUE when DescribeTable found no such table (property "missing"). */
gboolean dy_table_view_get_missing (DyTableView *self);
/* Shows the inspector's pane (uncollapsed) for what the inspector holds. */
void dy_table_view_show_inspector (DyTableView *self);
/* The flap over the grid and the inspector (below the filter rows) in which the window puts
 * its staging panel while this tab is shown. */
AdwFlap *dy_table_view_get_staging_flap (DyTableView *self);
/* Figures since the last Run. */
void dy_table_view_get_stats (DyTableView *self, guint64 *scanned, guint *pages,
                              guint *requests, double *capacity);
/* The request JSON the view sends (the last one sent, or the one Run would send). */
char *dy_table_view_dup_request_text (DyTableView *self);
/* The keys of the table (INDEX_NAME NULL) or of its index INDEX_NAME: the partition key's
 * name and type, and the sort key's (*SORT_KEY is NULL when there is none). Any out argument
 * may be NULL; the names belong to the view. FALSE before DescribeTable has answered (see
 * dy_table_view_get_ready) or when there is no such index. */
gboolean dy_table_view_get_key_schema (DyTableView *self, const char *index_name,
                                       const char **partition_key, DdbType *partition_type,
                                       const char **sort_key, DdbType *sort_type);
/* Runs OPERATION ("Query" or "Scan") with REQUEST (DynamoDB JSON, built by the caller, who
 * keeps it) as Run does with the filter row's: the results are replaced by its pages, Load More
 * and Load All follow its LastEvaluatedKey, the footer counts it (capacity if it asks for
 * ReturnConsumedCapacity) and Show Request shows it. The grid's key columns and item
 * collections follow the index picked in the filter row. Only once the view is ready. */
void dy_table_view_run_request (DyTableView *self, const char *operation, json_t *request);
/* Many rows (dy-table-view-selection.c). Signal "bulk-done" (void handler (DyTableView *,
 * const char *message, DyConnection *staged_connection, const char *staged_table)): work on
 * the selection finished; MESSAGE says what was done, and STAGED_CONNECTION (may be NULL) the
 * connection whose STAGED_TABLE got new staged changes. */
/* Stages the selected items as puts into TABLE of TARGET (the Copy To dialog's choice). */
void dy_table_view_copy_selected_to (DyTableView *self, DyConnection *target, const char *table,
                                     gboolean overwrite);
/* Writes the selected items to the file PATH in FORMAT (jsonl, json or csv; Export). */
void dy_table_view_export_selected (DyTableView *self, const char *path, DdbSnapshotFormat format);
/* Stages the items of the file PATH as puts into the view's table (Stage Items from File). */
void dy_table_view_stage_file (DyTableView *self, const char *path, gboolean overwrite);

G_END_DECLS
