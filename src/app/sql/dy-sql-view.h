/* dy-sql-view.h: a SQL tab on one connection (src/sql: every table a SQLite virtual table read
 * through the backend): an editor with SQL highlighting, completion of table and column names,
 * history and saved queries; Run on a worker thread with the rows streamed into the
 * exact-value grid in batches; Cancel; the plan in words before and the reads per table
 * after; a confirmation before a large Scan of a live table; export of the result (CSV, JSON
 * lines); "Find drift…" (the JOIN of a duplicated attribute against its source) and
 * "Stage update…" (a guarded update per row of a result that carries one table's key); and a
 * PartiQL mode sending the statement to DynamoDB itself (ExecuteStatement). */
#pragma once

#include <adwaita.h>

#include "app/connections/dy-connection.h"
#include "app/window/dy-window.h"
#include "sql/sql.h"

G_BEGIN_DECLS

/* The estimated read capacity of a live table's Scans past which Run asks first. */
#define DY_SQL_CONFIRM_RCU 1000.0

typedef enum {
  DY_SQL_EXPORT_CSV,   /* RFC 4180, a header of the columns, values as the grid shows them */
  DY_SQL_EXPORT_JSONL, /* one plain JSON object per row (numbers exact, binary and sets tagged) */
} DySqlExportFormat;

#define DY_TYPE_SQL_VIEW (dy_sql_view_get_type ())
G_DECLARE_FINAL_TYPE (DySqlView, dy_sql_view, DY, SQL_VIEW, GtkBox)

GtkWidget *dy_sql_view_new (DyConnection *connection);
/* The SQL tab of CONNECTION in WINDOW, shown (a new one if it has none). */
DySqlView *dy_sql_view_open (DyWindow *window, DyConnection *connection);
/* win.sql (Ctrl+Shift+L): the SQL tab of CONNECTION (the selected tab's), else of the
 * connection of SIDEBAR_ROW (the sidebar's selected GtkTreeListRow), else of the first one. */
DySqlView *dy_sql_view_open_current (DyWindow *window, DyConnection *connection,
                                     gpointer sidebar_row);
DyConnection *dy_sql_view_get_connection (DySqlView *self);

void dy_sql_view_set_text (DySqlView *self, const char *text);
char *dy_sql_view_dup_text (DySqlView *self);
/* Runs the editor's statement (view.run, Ctrl+Return): the plan first, then the rows. */
void dy_sql_view_run (DySqlView *self);
/* The PartiQL mode (view.language "partiql", Ctrl+Shift+P switches): Run sends the statement
 * as ExecuteStatement to the connection, with the parameters row's values and Limit, and
 * Load more (view.load-more, Ctrl+L) reads the next page. Per tab; the tab's title says it. */
void dy_sql_view_set_partiql (DySqlView *self, gboolean partiql);
gboolean dy_sql_view_get_partiql (DySqlView *self);
/* The confirmation of a write to a live connection asked now, or NULL ("run", "cancel"). */
AdwMessageDialog *dy_sql_view_get_write_dialog (DySqlView *self);
/* PartiQL mode: TRUE when the last page came with a NextToken. */
gboolean dy_sql_view_get_can_load_more (DySqlView *self);
/* The ExecuteStatement request Run would send now (the editor's statement, the parameters,
 * Limit), or NULL with the parameters' error. New reference. */
json_t *dy_sql_view_partiql_request (DySqlView *self, GError **error);
/* TRUE from Run until the last row (or the error, or Cancel), confirmation included. */
gboolean dy_sql_view_get_running (DySqlView *self);
/* The rows of the last Run, DyItem (result column name -> value; a column NULL in a row is
 * absent), in the statement's order. */
GListModel *dy_sql_view_get_rows (DySqlView *self);
/* The grid's columns: the result's column names in order (a name seen twice shows once). */
const char *const *dy_sql_view_get_columns (DySqlView *self);
/* The last plan in words, the last error and the footer line (or NULL). */
const char *dy_sql_view_get_plan (DySqlView *self);
const char *dy_sql_view_get_error (DySqlView *self);
const char *dy_sql_view_get_status (DySqlView *self);
/* What the last Run read, summed over its tables. */
void dy_sql_view_get_stats (DySqlView *self, DdbSqlStats *stats);
/* TRUE when the last Run was cancelled. */
gboolean dy_sql_view_get_cancelled (DySqlView *self);

/* The RCU past which a live table's Scan asks first (the setting sql-confirm-rcu, else
 * DY_SQL_CONFIRM_RCU). */
void dy_sql_view_set_confirm_rcu (DySqlView *self, double rcu);
/* The confirmation asked now, or NULL ("run" and "cancel" are its responses). */
AdwMessageDialog *dy_sql_view_get_confirm_dialog (DySqlView *self);

/* The table whose full key the last result carries (Stage update… works on it), or NULL. */
const char *dy_sql_view_get_stage_table (DySqlView *self);

/* Writes the rows of the last Run to FILE on a worker thread, with progress in the footer
 * (view.export asks for the file). */
void dy_sql_view_export (DySqlView *self, GFile *file, DySqlExportFormat format);
gboolean dy_sql_view_get_exporting (DySqlView *self);

/* The table and column names fetched for completion so far (tests): the tables (NULL until
 * listed) and TABLE's columns (NULL until fetched). Borrowed. */
GPtrArray *dy_sql_view_get_completion_tables (DySqlView *self);
GPtrArray *dy_sql_view_get_completion_columns (DySqlView *self, const char *table);

G_END_DECLS
