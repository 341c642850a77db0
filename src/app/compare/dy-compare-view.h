/* dy-compare-view.h: the Compare window of a table (win.compare, Ctrl+Shift+E, the table tab's
 * menu): this table ("here") against another one ("there": a table of any connection, or an
 * export folder or file), read by ddb_compare_run (src/compare/compare.h) on a worker thread with
 * the items read and the rate of each side and Cancel; a summary (same, changed, only here, only
 * there and, with a base, edited here, edited there, both, and where the base came from); the
 * differences listed by key, filtered by kind or class; the selected one's values side by side
 * (base | here | there, or here | there), as the staging panel renders a change; attributes left
 * out of the comparison; and Stage Push (ddb_push_stage, src/compare/push.h) of all the
 * pushable differences or the selected ones on there's connection, opening the staging panel. */
#pragma once

#include <adwaita.h>

#include "app/connections/dy-connection.h"
#include "app/window/dy-window.h"
#include "compare/push.h"

G_BEGIN_DECLS

/* A difference in the list: its kind, class and key (the values are read from the compare's
 * temporary database when it is shown, not kept). */
#define DY_TYPE_COMPARE_ROW (dy_compare_row_get_type ())
G_DECLARE_FINAL_TYPE (DyCompareRow, dy_compare_row, DY, COMPARE_ROW, GObject)

DdbCompareKind dy_compare_row_get_kind (DyCompareRow *self);
DdbCompareClass dy_compare_row_get_class (DyCompareRow *self);
/* The key attributes (a map). */
const DdbValue *dy_compare_row_get_key (DyCompareRow *self);
/* The key as the list shows it. */
const char *dy_compare_row_get_title (DyCompareRow *self);
/* Its place in the compare's key order. */
guint dy_compare_row_get_index (DyCompareRow *self);
/* Whether a push stages it (three-way: edited here; two-way: any). */
gboolean dy_compare_row_get_pushable (DyCompareRow *self);

/* What the list shows. */
typedef enum {
  DY_COMPARE_SHOW_ALL,
  DY_COMPARE_SHOW_CHANGED,
  DY_COMPARE_SHOW_ONLY_HERE,
  DY_COMPARE_SHOW_ONLY_THERE,
  DY_COMPARE_SHOW_PUSHABLE,
  DY_COMPARE_SHOW_EDITED_HERE, /* these three with a base only */
  DY_COMPARE_SHOW_EDITED_THERE,
  DY_COMPARE_SHOW_BOTH,
} DyCompareShow;

/* Where the base comes from. */
typedef enum {
  DY_COMPARE_BASE_RECORDED, /* the engine's recorded base of a snapshot, if there is one */
  DY_COMPARE_BASE_NONE,     /* two-way */
  DY_COMPARE_BASE_EXPORT,   /* an export folder or file */
} DyCompareBase;

#define DY_TYPE_COMPARE_VIEW (dy_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (DyCompareView, dy_compare_view, DY, COMPARE_VIEW, AdwWindow)

/* The window comparing TABLE of CONNECTION over WINDOW, shown (the open one if there is one).
 * The other side starts on a table of the same name in another connection if one lists it;
 * nothing is read until Compare. */
DyCompareView *dy_compare_view_open (DyWindow *window, DyConnection *connection, const char *table);
DyConnection *dy_compare_view_get_connection (DyCompareView *self);
const char *dy_compare_view_get_table_name (DyCompareView *self);

/* The other side, as the controls set it: TABLE of CONNECTION (one of the window's), or an
 * export folder or file at PATH. */
void dy_compare_view_set_other (DyCompareView *self, DyConnection *connection, const char *table);
void dy_compare_view_set_other_export (DyCompareView *self, const char *path);
/* The other side's connection (NULL for an export) and table or path. */
DyConnection *dy_compare_view_get_other_connection (DyCompareView *self);
const char *dy_compare_view_get_other_name (DyCompareView *self);
/* PATH: the export, for DY_COMPARE_BASE_EXPORT. */
void dy_compare_view_set_base (DyCompareView *self, DyCompareBase base, const char *path);
/* Top-level attribute names left out, comma-separated (the entry's text), applied at the next
 * Compare. */
void dy_compare_view_set_exclude (DyCompareView *self, const char *text);

/* Compare (compare.run, Ctrl+Return) and Cancel (compare.cancel, Escape). */
void dy_compare_view_run (DyCompareView *self);
void dy_compare_view_cancel (DyCompareView *self);
gboolean dy_compare_view_get_running (DyCompareView *self);
/* Items read so far on both sides by the running compare (or the last one). */
guint64 dy_compare_view_get_items_read (DyCompareView *self);
/* The last compare's counts, or NULL (none yet, or it failed or was cancelled). */
const DdbCompareCounts *dy_compare_view_get_counts (DyCompareView *self);
/* The summary as shown: its lines, one a line. */
char *dy_compare_view_dup_summary_text (DyCompareView *self);
/* The last error shown, or NULL. */
const char *dy_compare_view_get_error (DyCompareView *self);

/* The differences as listed (DyCompareRow, filtered), and their selection. */
void dy_compare_view_set_show (DyCompareView *self, DyCompareShow show);
GListModel *dy_compare_view_get_rows (DyCompareView *self);
GtkSelectionModel *dy_compare_view_get_selection (DyCompareView *self);
/* The detail: TRUE once the selected difference is shown (its values read); its text, the
 * labels one a line and a row's cells separated by " | ". */
gboolean dy_compare_view_get_detail_ready (DyCompareView *self);
char *dy_compare_view_dup_detail_text (DyCompareView *self);

/* Stage Push (compare.push: SELECTED FALSE, all pushable; compare.push-selected): without a
 * base it first asks (the dialog is returned; its "stage" response goes on), else it stages
 * at once (NULL returned). */
GtkWidget *dy_compare_view_stage_push (DyCompareView *self, gboolean selected);
gboolean dy_compare_view_get_pushing (DyCompareView *self);
/* The Stage Push button (insensitive when there is nothing to push, or nothing to push to). */
GtkWidget *dy_compare_view_get_push_button (DyCompareView *self);
/* The last push's counts; FALSE when there has been none (or it failed). */
gboolean dy_compare_view_get_push_counts (DyCompareView *self, DdbPushCounts *counts);

G_END_DECLS
