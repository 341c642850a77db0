/* dy-row-selection.h: the grid's selection model: many rows selected, kept as a bitset of
 * positions only. GTK 4.8's GtkMultiSelection also remembers each selected item by fetching
 * it, so selecting a million rows would make (decode) a million DyItems on the main thread; a
 * grid's rows are made only when drawn or used (dy-rows.h). Rows added or removed in the model
 * shift the selection with them. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DY_TYPE_ROW_SELECTION (dy_row_selection_get_type ())
G_DECLARE_FINAL_TYPE (DyRowSelection, dy_row_selection, DY, ROW_SELECTION, GObject)

/* A selection over MODEL (may be NULL), nothing selected. */
DyRowSelection *dy_row_selection_new (GListModel *model);
GListModel *dy_row_selection_get_model (DyRowSelection *self);
/* Shows MODEL instead (nothing selected then). */
void dy_row_selection_set_model (DyRowSelection *self, GListModel *model);
/* How many rows are selected. */
guint64 dy_row_selection_get_n_selected (DyRowSelection *self);

G_END_DECLS
