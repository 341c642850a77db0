/* dy-compare-view-private.h: what the Compare window's files share: dy-compare-view.c (the
 * window, its inputs and the compare on a worker thread), dy-compare-view-list.c (the
 * rows, the summary and the filtered list), dy-compare-view-detail.c (the selected
 * difference read again and shown side by side) and dy-compare-view-push.c (Stage Push). */
#pragma once

#include "app/compare/dy-compare-view.h"

G_BEGIN_DECLS

struct _DyCompareView {
  AdwWindow parent_instance;

  AdwWindowTitle *window_title;
  AdwToastOverlay *toast_overlay;
  GtkDropDown *other_dropdown;
  GtkStringList *other_list;
  GtkDropDown *table_dropdown;
  GtkLabel *export_label;
  GtkDropDown *base_dropdown;
  GtkEntry *exclude_entry;
  GtkWidget *run_button;
  GtkWidget *cancel_button;
  GtkWidget *progress_box;
  GtkSpinner *spinner;
  GtkLabel *progress_label;
  GtkLabel *error_label;
  GtkStack *content_stack;
  AdwStatusPage *empty_page;
  GtkLabel *summary_label;
  GtkLabel *classes_label;
  GtkLabel *base_label;
  GtkLabel *sizes_label;
  GtkDropDown *show_dropdown;
  GtkListView *list_view;
  GtkLabel *list_count_label;
  GtkStack *detail_stack;
  GtkLabel *detail_title;
  GtkLabel *detail_caption;
  GtkGrid *detail_grid;
  GtkLabel *detail_more;
  GtkLabel *push_label;
  GtkWidget *push_button;
  GtkWidget *push_selected_button;

  DyConnection *connection;
  char *table;
  GPtrArray *others; /* DyConnection*, parallel to the first entries of other_list */
  char *other_table; /* the table wanted on the other connection */
  gboolean syncing;  /* the table dropdown is being changed, not picked from */
  char *export_path; /* the other side when it is an export */
  char *base_path;   /* DY_COMPARE_BASE_EXPORT's export */
  gboolean choosing; /* a file chooser is open */
  guint other_previous, base_previous; /* the entries a cancelled chooser goes back to */
  GCancellable *run_cancellable;
  GTask *task; /* while comparing */
  guint progress_timer;
  gint64 started;
  guint64 items_read;
  gboolean disposed;
  char *error;

  /* The last compare: its result is read by one worker at a time (the detail, the push). */
  DdbCompareResult *result;
  GMutex result_lock; /* held around RESULT's use, and to replace it */
  guint generation;   /* counts the results */
  DdbCompareCounts counts;
  gboolean has_counts;
  DyConnection *result_other; /* there's connection of RESULT (NULL: an export) */
  char *result_other_name;
  GListStore *rows;          /* DyCompareRow */
  GtkFilterListModel *shown; /* ROWS through the kind or class filter */
  GtkMultiSelection *selection;
  DyCompareShow show;
  guint n_pushable; /* of ROWS */

  /* The detail. */
  GCancellable *detail_cancellable;
  guint detail_index; /* the row shown (G_MAXUINT: none) */
  gboolean detail_ready;

  /* The push. */
  gboolean pushing;
  gboolean has_push_counts;
  DdbPushCounts push_counts;
};

/* dy-compare-view.c */
/* Shows MESSAGE in the error bar (NULL: hides it). */
void dy_compare_view_set_error (DyCompareView *self, const char *message);
/* The actions and controls follow the state (comparing, pushing, a result). */
void dy_compare_view_update_actions (DyCompareView *self);

/* dy-compare-view-list.c */
/* A row for a difference (its key copied). */
DyCompareRow *dy_compare_row_new (const DdbCompareDifference *difference, guint index);
/* Sets up ROWS, the filter and the selection over them, and the list's rows. */
void dy_compare_view_list_init (DyCompareView *self);
/* Shows the rows (DyCompareRow, taken) of the compare just made, and its summary. */
void dy_compare_view_show_result (DyCompareView *self, GPtrArray *rows, double seconds);
/* Empties the list and the summary. */
void dy_compare_view_clear_result (DyCompareView *self);
/* The pushable rows: all of them, or those selected. */
guint dy_compare_view_count_pushable (DyCompareView *self, gboolean selected_only);
/* The keys (as dy_compare_view_key_text) of the selected pushable rows. */
GHashTable *dy_compare_view_selected_keys (DyCompareView *self);
/* KEY as text for a set of keys: its attributes as DynamoDB JSON. */
char *dy_compare_view_key_text (const DdbValue *key);
/* Updates the push buttons and the line beside them. */
void dy_compare_view_update_push (DyCompareView *self);

/* dy-compare-view-detail.c */
/* Reads the difference at INDEX again (on a worker) and shows it; G_MAXUINT: none. */
void dy_compare_view_show_detail (DyCompareView *self, guint index);

G_END_DECLS
