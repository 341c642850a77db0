/* dy-changes-view.h: the Changes tab of a table (win.changes, Ctrl+Shift+C): a live tail of its
 * DynamoDB stream, newest first. GetRecords runs on a worker thread about once a second, at
 * once again while records keep coming, following NextShardIterator and the children of a
 * shard that closes; each record a row with its time, event, key and, for a MODIFY with both
 * images, old -> new per changed attribute. Pause (records are fetched and held, and counted),
 * a key filter, Clear, a count, at most DY_CHANGES_MAX_ROWS rows (the oldest dropped); an
 * expired iterator renewed, trimmed records said and read again from TRIM_HORIZON, other
 * errors in place with Retry; a table without a stream says so in place. */
#pragma once

#include <adwaita.h>

#include "app/connections/dy-connection.h"
#include "app/window/dy-window.h"

G_BEGIN_DECLS

#define DY_CHANGES_MAX_ROWS 10000

#define DY_TYPE_CHANGES_VIEW (dy_changes_view_get_type ())
G_DECLARE_FINAL_TYPE (DyChangesView, dy_changes_view, DY, CHANGES_VIEW, GtkBox)

GtkWidget *dy_changes_view_new (DyConnection *connection, const char *table);
/* The Changes tab of TABLE of CONNECTION in WINDOW, shown (a new one if there is none). */
DyChangesView *dy_changes_view_open (DyWindow *window, DyConnection *connection,
                                     const char *table);
DyConnection *dy_changes_view_get_connection (DyChangesView *self);
const char *dy_changes_view_get_table_name (DyChangesView *self);

/* TRUE once DescribeTable answered and the table has a stream being followed. */
gboolean dy_changes_view_get_streaming (DyChangesView *self);
/* TRUE once DescribeTable answered and the table has no stream (the view says so). */
gboolean dy_changes_view_get_no_stream (DyChangesView *self);
/* DescribeTable again (the no-stream page's Check Again; Retry after its error). */
void dy_changes_view_check_again (DyChangesView *self);
/* Starts over from the oldest record kept (TRIM_HORIZON) or from now (LATEST), rows cleared. */
void dy_changes_view_set_from_oldest (DyChangesView *self, gboolean from_oldest);

/* The rows shown (DyChangeObject, newest first, filter applied). */
GListModel *dy_changes_view_get_rows (DyChangesView *self);
/* Rows kept (filter or not), and records fetched while paused and not shown yet. */
guint dy_changes_view_get_n_changes (DyChangesView *self);
guint dy_changes_view_get_n_waiting (DyChangesView *self);
/* The most rows kept (DY_CHANGES_MAX_ROWS; tests set fewer). */
void dy_changes_view_set_max_rows (DyChangesView *self, guint max_rows);
/* How many GetRecords rounds have come back (tests wait on it). */
guint dy_changes_view_get_n_polls (DyChangesView *self);

void dy_changes_view_set_paused (DyChangesView *self, gboolean paused);
gboolean dy_changes_view_get_paused (DyChangesView *self);
void dy_changes_view_set_filter (DyChangesView *self, const char *text);
void dy_changes_view_clear (DyChangesView *self);
/* The count line, the notice (trimmed records, the stream ended) and the error, or NULL. */
const char *dy_changes_view_get_count_text (DyChangesView *self);
const char *dy_changes_view_get_notice (DyChangesView *self);
const char *dy_changes_view_get_error (DyChangesView *self);
/* Retry after an error. */
void dy_changes_view_retry (DyChangesView *self);

G_END_DECLS
