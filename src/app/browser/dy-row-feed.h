/* dy-row-feed.h: the grid's model, in front of the rows it shows (its source: the rows as
 * loaded, an order of them, or their item collections). GTK 4.8's list views never reuse a
 * row's widgets for another item: a change of the model makes (every cell of every column of)
 * each row it shows anew in the change's handler, about two hundred rows, freezing the window.
 * So the feed hands the grid slots, not rows: a slot is a place in the grid that shows a row,
 * and when the rows are arranged anew the slots with widgets are given the new rows in place
 * (the cells bound to a slot follow it: dy_grid_follow_slots) instead of being made again.
 * Rows the grid has no widgets for come and go at once; those it has go a few per main-loop
 * iteration, and the first rows of a source come a few per iteration. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define DY_TYPE_ROW_SLOT (dy_row_slot_get_type ())
G_DECLARE_FINAL_TYPE (DyRowSlot, dy_row_slot, DY, ROW_SLOT, GObject)

/* The row the slot shows: a DyItem, or a GtkTreeListRow of a grouping; NULL for a slot asked
 * for where the grid is about to take rows away. Borrowed. Its "changed" signal says it
 * shows another one now. */
GObject *dy_row_slot_get_row (DyRowSlot *self);

#define DY_TYPE_ROW_FEED (dy_row_feed_get_type ())
G_DECLARE_FINAL_TYPE (DyRowFeed, dy_row_feed, DY, ROW_FEED, GObject)

/* A list model of DyRowSlot showing SOURCE's rows. Its "rows-replaced" signal (position,
 * n_items) says which of its rows show another row now, with no items-changed: a selection
 * over the feed drops them. */
DyRowFeed *dy_row_feed_new (GListModel *source);
/* Shows SOURCE (the rows as loaded, a DyRows; an order of them, a DyRowList; or their item
 * collections, a GtkTreeListModel or a sort of one) anew from its first row, in place of what
 * is shown, which may be the same model about to be emptied. The rows with widgets are moved
 * to the top and given SOURCE's first rows (those past its end go a few per iteration); the
 * others go at once. The caller scrolls the grid to the top. */
void dy_row_feed_set_source (DyRowFeed *self, GListModel *source);
GListModel *dy_row_feed_get_source (DyRowFeed *self);
/* The row shown at POSITION (a new reference), or NULL past the end. */
GObject *dy_row_feed_get_row (DyRowFeed *self, guint position);
/* The position in the DyRows of the row shown at POSITION; G_MAXUINT for a row of the previous
 * source being taken away, past the end, or when the source is a grouping's. */
guint dy_row_feed_get_source_position (DyRowFeed *self, guint position);
/* TRUE while rows wait to be shown or taken away. */
gboolean dy_row_feed_get_pending (DyRowFeed *self);

G_END_DECLS
