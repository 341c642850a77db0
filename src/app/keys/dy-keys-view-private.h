/* dy-keys-view-private.h: what the key-distribution window's files share: dy-keys-view.c (the
 * window, its inputs and the worker) and dy-keys-view-report.c (the report shown). */
#pragma once

#include "app/keys/dy-keys-view.h"

G_BEGIN_DECLS

struct _DyKeysView {
  AdwWindow parent_instance;

  AdwWindowTitle *window_title;
  GtkDropDown *index_dropdown;
  GtkStringList *index_list;
  GtkDropDown *mode_dropdown;
  GtkSpinButton *sample_spin;
  GtkWidget *sample_unit;
  GtkSpinButton *rcu_spin;
  GtkSpinButton *wcu_spin;
  GtkWidget *run_button;
  GtkWidget *cancel_button;
  GtkWidget *progress_box;
  GtkSpinner *spinner;
  GtkLabel *progress_label;
  GtkLabel *error_label;
  GtkStack *content_stack;
  AdwStatusPage *empty_page;
  GtkLabel *source_label;
  GtkLabel *items_value;
  GtkLabel *bytes_value;
  GtkLabel *cardinality_value;
  GtkLabel *cardinality_caption;
  GtkBox *advice_box;
  GtkFrame *chart_frame;
  GtkLabel *heaviest_note;
  GtkBox *heaviest_box;
  GtkLabel *families_note;
  GtkBox *families_box;
  GtkLabel *hot_note;
  GtkBox *hot_box;
  GtkLabel *collections_note;
  GtkBox *collections_box;
  GtkWidget *chart;

  DyConnection *connection;
  char *table;
  json_t *description;    /* DescribeTable's Table, once answered */
  GPtrArray *index_names; /* char*, parallel to index_list; [0] NULL: the table */
  GCancellable *describe_cancellable;
  GCancellable *run_cancellable; /* while running */
  GTask *task;                   /* while running */
  guint progress_timer;
  gint64 started;
  guint64 items_read;
  gboolean ready;
  gboolean disposed;
  DdbKeysReport *report;
  char *error;
  char *source_text;
  GListStore *heaviest, *collections, *families, *hot;
};

/* dy-keys-view-report.c */
/* Sets the line saying where the figures come from (takes TEXT). */
void dy_keys_view_set_source_text (DyKeysView *self, char *text);
/* Shows self->report, read in SECONDS: summary, chart, advice and lists. */
void dy_keys_view_show_report (DyKeysView *self, double seconds);

G_END_DECLS
