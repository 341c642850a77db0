/* dy-model-window-private.h: what the Model window's files share: the window (file handling,
 * sidebar and checks in dy-model-window.c), the detail pages (dy-model-window-pages.c) and the
 * sample items grouped into item collections (dy-model-window-items.c). */
#pragma once

#include "app/model/dy-model-window.h"

G_BEGIN_DECLS

struct _DyModelWindow {
  AdwWindow parent_instance;

  AdwWindowTitle *window_title;
  AdwToastOverlay *toast_overlay;
  GtkStack *main_stack;
  GtkListBox *tables_list;
  GtkListBox *entities_list;
  GtkListBox *patterns_list;
  GtkListBox *flags_list;
  GtkLabel *flags_title;
  GtkBox *detail_box;
  GtkLabel *items_title;
  GtkColumnView *items_view;
  GtkWidget *create_on_button;
  GtkWidget *infer_button;

  DyModel *model;
  DyCheckReport *report;
  char *path;
  gboolean modified;
  gboolean close_confirmed; /* the user chose to discard, or the model was saved: close */
  gboolean selecting;       /* selecting a row in code: other lists are not cleared */

  DyModelSelectKind kind; /* what the detail pane shows */
  guint index;            /* its position in the model's array; G_MAXUINT: nothing */
  GHashTable *fields;     /* name -> GtkWidget (borrowed) of the detail page */
  char *items_table;      /* the table whose sample items are shown */
  char *items_index;      /* and the index they are grouped for, or NULL */
  gboolean applying;      /* Create on… is at work */
  char *apply_message;    /* how the last Create on… ended, or NULL */
};

/* The model changed (EDITED) or was replaced: checks it again and updates the sidebar's
 * status, the flags and the shown resolution. */
void dy_model_window_changed (DyModelWindow *self);
/* Rebuilds the sidebar lists from the model. */
void dy_model_window_fill_sidebar (DyModelWindow *self);
void dy_model_window_toast (DyModelWindow *self, const char *text);

/* dy-model-window-pages.c: the detail pane for the selection (self->kind, self->index), and
 * its building blocks: a wrapping, selectable label (CSS_CLASS may be NULL) appended to BOX; a
 * grid of captioned rows appended to BOX; a row of GRID, its WIDGET or (NULL) a label of TEXT;
 * a widget of the page named for dy_model_window_get_field. */
void dy_model_window_show_detail (DyModelWindow *self);
GtkWidget *dy_model_page_label (GtkBox *box, const char *text, const char *css_class);
GtkGrid *dy_model_page_grid (GtkBox *box);
GtkWidget *dy_model_page_row (GtkGrid *grid, int row, const char *caption, GtkWidget *widget,
                              const char *text);
void dy_model_page_set_field (DyModelWindow *self, const char *name, GtkWidget *widget);
/* The access pattern shown and its resolution, or NULL. */
DyModelPattern *dy_model_window_shown_pattern (DyModelWindow *self);
const DyResolution *dy_model_window_shown_resolution (DyModelWindow *self);

/* dy-model-window-pattern.c: the page of access pattern P. */
void dy_model_window_show_pattern (DyModelWindow *self, DyModelPattern *p);
/* Updates the shown pattern's resolution from self->report. */
void dy_model_window_update_resolution (DyModelWindow *self);
/* The sample items as the shown pattern reads them (its index's, its collection open). */
void dy_model_window_pattern_items (DyModelWindow *self);
/* One line on what a pattern resolves to ("Query · GSI1"), for the sidebar. */
char *dy_model_window_resolution_summary (const DyResolution *resolution);
/* model.copy-as (s): the shown pattern's request as a program, on the clipboard. */
void dy_model_window_copy_as (DyModelWindow *self, const char *lang);

/* dy-model-window-items.c: the sample items of TABLE (NULL: none) grouped by partition key,
 * or of its index INDEX (NULL: the table) by the index's partition key, the items without it
 * left out as the index leaves them; with FOCUS (a partition key value as shown, may be NULL)
 * that collection is the one open. With FOLLOW, rows shown already open at FOCUS too (the
 * first collection without it); else they stay as the user left them. */
void dy_model_window_show_items (DyModelWindow *self, const char *table, const char *index,
                                 const char *focus, gboolean follow);

/* dy-model-window-apply.c: model.create-on, which asks where, then shows the review
 * (dy_model_window_review_create). */
void dy_model_window_create_on_action (GtkWidget *widget, const char *action_name,
                                       GVariant *parameter);
/* A dialog with a progress bar and a label (TEXT) under HEADING whose Cancel cancels
 * CANCELLABLE; destroy it when the work ends. */
AdwMessageDialog *dy_model_window_progress_new (DyModelWindow *self, const char *heading,
                                                const char *text, GCancellable *cancellable,
                                                GtkProgressBar **bar, GtkLabel **label);

/* dy-model-window-infer.c: model.infer, which asks for a connection and a table, then shows
 * the model dy_model_infer proposes (in a new window when this one has unsaved changes). */
void dy_model_window_infer_action (GtkWidget *widget, const char *action_name,
                                   GVariant *parameter);

G_END_DECLS
