/* dy-table-view-private.h: what the parts of the table view share: the instance struct and the
 * few functions that cross from one part to another.
 *
 *   dy-table-view.c          the class: properties, construction, DescribeTable, public getters
 *   dy-table-view-filter.c   the filter row: index and key conditions, filters, the preview
 *   dy-table-view-results.c  paging and results: Run, Load More, footer, request text
 *   dy-table-view-load-all.c Load All: every remaining page, a remote Scan in parallel segments
 *   dy-table-view-columns.c  the grid: columns, cells and their tints, the column chooser
 *   dy-table-view-times.c    the grid's time columns (Off, Beside, Instead) and the TTL attribute
 *   dy-table-view-arrange.c  the grid's order: sorted by columns or grouped into collections
 *   dy-table-view-find.c     Find in Loaded Rows: the search bar keeping the rows with a text
 *   dy-table-view-selection.c  many rows selected: the inspector or the selection bar
 *   dy-table-view-bulk.c     what is done with them: delete, copy as, export, copy to; a file's
 *                            items staged
 *   dy-table-view-panes.c    the inspector's pane: shown, hidden, beside or below, its size
 *   dy-table-view-state.c    the tab's query saved at exit and given back at the next start */
#pragma once

#include "app/browser/dy-query.h"
#include "app/browser/dy-row-selection.h"
#include "app/browser/dy-row-feed.h"
#include "app/browser/dy-rows.h"
#include "app/staging/dy-staging.h"
#include "app/browser/dy-table-view.h"

G_BEGIN_DECLS

/* The keys of the table or of one of its indexes. */
typedef struct {
  char *name; /* NULL: the table */
  char *pk;
  DdbType pk_type;
  char *sk; /* NULL: no sort key */
  DdbType sk_type;
} DyTableViewKeys;

/* Keys of rows shown (dy-table-view-load-all.c): the items a parallel Scan reads again. */
typedef struct _DyTableViewSeen DyTableViewSeen;

/* What failed and may succeed when sent again (dy_connection_error_is_retryable): the error
 * bar's Retry runs it again, and so does the connection's session renewed (signed in again). */
typedef enum {
  DY_TABLE_VIEW_RETRY_NONE,
  DY_TABLE_VIEW_RETRY_DESCRIBE, /* DescribeTable: the view never got ready */
  DY_TABLE_VIEW_RETRY_RUN,      /* the Run's first page */
  DY_TABLE_VIEW_RETRY_MORE,     /* the page after the last one shown */
  DY_TABLE_VIEW_RETRY_ALL,      /* Load All, from the last page shown */
} DyTableViewRetry;

struct _DyTableView {
  GtkBox parent_instance;

  GtkDropDown *index_dropdown;
  GtkLabel *pk_label;
  GtkEntry *pk_entry;
  GtkLabel *sk_label;
  GtkDropDown *sk_op_dropdown;
  GtkEntry *sk_entry;
  GtkEntry *sk_entry2;
  GtkToggleButton *desc_toggle;
  GtkEntry *filter_attr_entry;
  GtkDropDown *filter_op_dropdown;
  GtkDropDown *filter_type_dropdown;
  GtkEntry *filter_value_entry;
  GtkSpinButton *limit_spin;
  GtkLabel *mode_label;
  GtkButton *more_button;
  GtkRevealer *request_revealer;
  GtkTextView *request_view;
  GMenu *more_menu;
  GtkMenuButton *copy_as_button;
  GtkRevealer *error_revealer;
  GtkLabel *error_label;
  GtkWidget *retry_button; /* in the error bar, beside the message */
  GtkRevealer *stale_revealer;
  GtkColumnView *column_view;
  DyInspector *inspector;
  GtkPaned *panes; /* the grid, and the inspector beside or below it */
  AdwFlap *staging_flap; /* over panes: the window's staging panel, while this tab shows */
  GtkLabel *footer_label;
  GtkSpinner *spinner;
  GtkMenuButton *describe_button;
  GtkGrid *describe_grid;
  GtkBox *extra_filters_box;
  GtkMenuButton *columns_button;
  GtkBox *columns_box;
  GtkProgressBar *progress_bar;
  GtkButton *cancel_button;
  GtkRevealer *selection_revealer; /* the bar under the grid while several rows are selected */
  GtkLabel *selection_label;
  GtkSpinner *selection_spinner;
  GtkButton *selection_cancel;
  GtkButton *select_query_button;
  GMenu *selection_menu_model; /* the selection's actions: the bar's menu and the right click's */
  GtkSearchBar *find_bar;
  GtkSearchEntry *find_entry;
  GtkLabel *find_label;

  DyConnection *connection;
  char *table_name;
  GPtrArray *keys; /* DyTableViewKeys*: [0] the table, then its indexes */
  DyRows *items;
  DyRowSelection *selection; /* the grid's rows, several selected at once */
  DyRowList *order; /* the rows in a column's order, when sorted and not grouped */
  DyRowFeed *feed;  /* the grid's rows (as loaded, in order or grouped), a few at a time */
  GHashTable *columns; /* attribute name -> GtkColumnViewColumn (owned by the view) */
  GHashTable *bound_cells; /* GtkListItem of the attribute cells bound now: tinted again when
                            * what is staged changes */
  gulong staging_handler;
  gulong committed_handler;
  GHashTable *seen_columns; /* names the results of the last Run hold */
  gboolean prune_columns;   /* once the Run's pages are in, drop the columns not seen */
  gboolean follow_up; /* the Run's first, small page is out: the rest of a full page follows */
  GtkColumnViewColumn *tree_column;
  json_t *request;  /* of the current results, without ExclusiveStartKey */
  json_t *last_key; /* LastEvaluatedKey of the last page; {}: the start of self->segment */
  guint total_segments;  /* Load All read the Scan in this many segments (0: it did not) */
  guint segment;         /* the segment of the last page shown */
  DyTableViewSeen *seen; /* keys of the rows shown before the segments began */
  char *operation;
  GCancellable *cancellable;
  gboolean ready;
  gboolean running;
  gboolean grouped;
  gboolean sorting; /* a column sorts the rows */
  gboolean sort_dirty; /* rows came after the order was made */
  guint arrange_serial; /* of the last sort or grouping asked for; older ones are dropped */
  gboolean arranging;   /* a sort or grouping runs on a worker */
  GCancellable *arrange_cancellable;
  GListModel *groups_waiting; /* a grouping shown once its column is */
  guint groups_kept;
  guint groups_idle;
  guint tree_hide_idle; /* hides the Collection column once rows are flat */
  gboolean loading_all;
  gint64 load_started; /* monotonic µs */
  guint64 load_scanned_before;
  guint64 scanned;
  guint pages;
  guint requests;
  double capacity;
  GArray *filter_conds;      /* DyFilterCond of the extra filter rows, refilled by fill_spec */
  GHashTable *hidden_columns; /* names the column chooser hid, kept across Runs */
  GCancellable *describe_cancellable; /* not replaced by each Run, unlike cancellable */
  DyTableViewRetry retry; /* what failed, run again by Retry or once the session is renewed */
  gulong renewed_handler;
  json_t *description; /* DescribeTable's Table */
  json_t *ttl;         /* DescribeTimeToLive's TimeToLiveDescription */
  char *ttl_error;
  GSettings *layout_settings; /* the window's: the inspector's pane */
  guint pane_tick;
  guint fit_tick;      /* columns wait for the grid to be laid out (dy-table-view-columns.c) */
  guint pane_wait;     /* frames the tick lets pass before it reads the sizes */
  guint pane_tries;    /* moves of the handle towards the remembered size */
  gboolean pane_apply; /* the pane's next layout gets the remembered size */
  GVariant *pending_state; /* a saved query given before DescribeTable answered */
  gboolean missing;        /* DescribeTable: no such table */
  guint times_probe;       /* idle deciding new columns' time mode (dy-table-view-times.c) */
  GtkWidget *selection_menu;      /* the right click's popover over the grid */
  gboolean select_all_pending;    /* every item of the query wanted: selected once loaded */
  guint select_all_idle;          /* looks again once the rows have settled */
  GCancellable *bulk_cancellable; /* work on the selection under way (dy-table-view-selection.c) */
  char *bulk_status;              /* what it is doing, for the bar */
  char *find_text;                /* Find in Loaded Rows' text; NULL: every row */
  guint found;                    /* rows the grid shows: those holding it, or every row loaded */
};

/* dy-table-view-state.c: a saved query given before the view was ready, now applied. */
void dy_table_view_apply_pending_state (DyTableView *self);

/* dy-table-view-panes.c */
void dy_table_view_panes_class_init (GtkWidgetClass *widget_class);
void dy_table_view_panes_init (DyTableView *self);
void dy_table_view_panes_dispose (DyTableView *self);
/* The grid's width once a row is selected (the inspector beside it then), or 0 before the
 * view is laid out. */
int dy_table_view_grid_room (DyTableView *self);

/* dy-table-view.c */
void dy_table_view_set_running (DyTableView *self, gboolean running);

/* dy-table-view-results.c: runs again what RETRY names (the Run's first page, the next page,
 * Load All) with the request the view holds. */
void dy_table_view_rerun (DyTableView *self, DyTableViewRetry retry);

/* dy-table-view-filter.c */
void dy_table_view_filter_class_init (GtkWidgetClass *widget_class);
void dy_table_view_keys_free (DyTableViewKeys *keys);
/* Takes the table's and its indexes' keys from DescribeTable's TABLE into the index picker;
 * FALSE if TABLE has no key schema. */
gboolean dy_table_view_set_key_schema (DyTableView *self, json_t *table);
/* The keys of the table or index picked in the filter row; NULL before DescribeTable. */
const DyTableViewKeys *dy_table_view_current_keys (DyTableView *self);
void dy_table_view_fill_spec (DyTableView *self, DyQuerySpec *spec);
void dy_table_view_update_key_labels (DyTableView *self);

/* dy-table-view-results.c (and dy_table_view_run_request, public: the seam through which a
 * request built elsewhere runs as Run does) */
void dy_table_view_results_class_init (GtkWidgetClass *widget_class);
/* The grid's scrolling reads the next page ahead (after the template). */
void dy_table_view_results_init (DyTableView *self);
/* MESSAGE in the error bar, without Retry; NULL hides the bar. Either way what failed before
 * is forgotten (self->retry). */
void dy_table_view_show_error (DyTableView *self, const char *message);
/* ERROR of the request RETRY names in the error bar, with Retry when sending it again may
 * succeed (self->retry then RETRY); a session's failure is reported to the connection. */
void dy_table_view_show_failure (DyTableView *self, const GError *error, DyTableViewRetry retry);
void dy_table_view_set_request_text (DyTableView *self, const char *text);
void dy_table_view_update_actions (DyTableView *self);
void dy_table_view_update_footer (DyTableView *self);
/* The staging area's "committed" handler: offers to run again when this table was written. */
void dy_table_view_staging_committed (DyStaging *staging, DyConnection *connection,
                                      const char *table, guint n_committed, DyTableView *self);
/* Gives the memory freed on this worker thread back to the system (malloc_trim): a page's or
 * a sort's millions of small blocks would otherwise stay in its malloc arena. */
void dy_table_view_release_freed_memory (void);

/* A page read on a worker: its rows in the store, and the response's figures (without Items). */
typedef struct {
  json_t *response;
  DyRowPage *rows;
} DyTableViewPage;

/* Reads a page of OPERATION's REQUEST into STORE, the items SEEN holds (if not NULL) left out. */
DyTableViewPage *dy_table_view_read_page (DyConnection *connection, const char *operation,
                                          json_t *request, DyRowStore *store,
                                          const DyTableViewSeen *seen, GCancellable *cancellable,
                                          GError **error);
void dy_table_view_page_free (DyTableViewPage *page);
/* Adds PAGE's rows and figures to the results; its LastEvaluatedKey becomes the view's (or,
 * at the end of a segment, the next segment's start). Main thread. */
void dy_table_view_apply_page (DyTableView *self, DyTableViewPage *page);

/* dy-table-view-load-all.c */
/* Reads every page after the last one shown (view.load-all; Retry of a failed one). */
void dy_table_view_load_all (DyTableView *self);
/* Load All is over (done, failed or cancelled): the view's state follows. */
void dy_table_view_finish_load_all (DyTableView *self);
/* How many segments Load All reads the results' Scan in: 1 for a local table, a Query, or a
 * Scan whose items may lack their keys; else the "scan-segments" setting, or by the table's
 * size when it is 0 (automatic). */
guint dy_table_view_scan_segments (DyTableView *self);
DyTableViewSeen *dy_table_view_seen_ref (DyTableViewSeen *seen);
void dy_table_view_seen_unref (DyTableViewSeen *seen);
/* ITEM's key is among the rows SEEN holds. Any thread. */
gboolean dy_table_view_seen_has (const DyTableViewSeen *seen, const DdbValue *item);

/* dy-table-view-columns.c */
void dy_table_view_columns_class_init (GtkWidgetClass *widget_class);
/* The grid's selection and its Collection column; after the template. */
void dy_table_view_columns_init (DyTableView *self);
/* The staging area's "changed" handler: tints the cells shown again. */
void dy_table_view_staging_changed (DyTableView *self);
/* A column per attribute of PAGE (the key columns first), sized to its values. */
void dy_table_view_add_page_columns (DyTableView *self, DyRowPage *page);
/* Drops the columns that no page of the last Run held. */
void dy_table_view_prune_columns (DyTableView *self);
/* Shares the grid's room among the columns again (a column's natural width changed: its
 * "natural-width" data; those the user resized keep their width). */
void dy_table_view_fit_columns (DyTableView *self);

/* dy-table-view-selection.c */
void dy_table_view_selection_class_init (GtkWidgetClass *widget_class);
/* The grid's selection model and its shortcuts; after the template. */
void dy_table_view_selection_init (DyTableView *self);
void dy_table_view_selection_dispose (DyTableView *self);
/* The selection bar and the selection's actions follow the selection and the view's state
 * (and select every row once the query's pages are in, when that was asked for). */
void dy_table_view_selection_update (DyTableView *self);
/* Every loaded row is selected (the grid's whole model is, the rows settled). */
gboolean dy_table_view_all_rows_selected (DyTableView *self);

/* dy-table-view-bulk.c */
void dy_table_view_bulk_class_init (GtkWidgetClass *widget_class);
/* Cancels what works on the selection. */
void dy_table_view_bulk_dispose (DyTableView *self);

/* dy-table-view-times.c */
/* The table's TTL attribute (TTL ENABLED or ENABLING), or NULL. */
const char *dy_table_view_ttl_attribute (DyTableView *self);
/* A new attribute column gets its header menu of time modes and its mode (the one the user
 * set for it, else the default); a column removed loses its actions. */
void dy_table_view_times_column_added (DyTableView *self, GtkColumnViewColumn *column);
void dy_table_view_times_column_removed (DyTableView *self, GtkColumnViewColumn *column);

/* dy-table-view-find.c */
void dy_table_view_find_class_init (GtkWidgetClass *widget_class);
void dy_table_view_find_init (DyTableView *self);
/* Find has a text: the grid shows only the loaded rows holding it. */
gboolean dy_table_view_finding (DyTableView *self);
/* The bar's count of the rows kept, once arranged. */
void dy_table_view_find_update (DyTableView *self);

/* dy-table-view-arrange.c */
/* Sorts or groups the rows anew, as the column sorter and the grouping say. */
void dy_table_view_rebuild_rows (DyTableView *self);
/* Rows FROM to TO were loaded: a column's order takes them at its end until sorted again. */
void dy_table_view_rows_added (DyTableView *self, guint from, guint to);
/* After a page or Load All: the order or the collections take in the new rows. */
void dy_table_view_rearrange (DyTableView *self);
/* The grid shows SOURCE (self->items, self->order, or the item collections) through the feed
 * from its first row (dy_row_feed_set_source: the rows with widgets are given the new rows in
 * place), scrolled to the top; nothing changes if it shows it already. */
void dy_table_view_show_rows (DyTableView *self, GListModel *source);
/* Scrolls the grid to its first row. */
void dy_table_view_scroll_to_top (DyTableView *self);
/* Drops a grouping made but not shown yet. */
void dy_table_view_drop_waiting_groups (DyTableView *self);

G_END_DECLS
