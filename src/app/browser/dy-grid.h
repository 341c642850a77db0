/* dy-grid.h: the exact-value grid's cells, shared by the table view and the SQL tab: a column
 * per attribute whose cells show each row's value exactly (dy_format_value) with its type as
 * tooltip, sized from the widths a page of rows measured on its worker. */
#pragma once

#include <gtk/gtk.h>

#include "app/browser/dy-group.h"
#include "app/browser/dy-row-feed.h"
#include "app/browser/dy-rows.h"

G_BEGIN_DECLS

/* The row a grid's list item shows: its item, or the row of the DyRowSlot it is (a DyItem or
 * a GtkTreeListRow). Borrowed. */
gpointer dy_grid_row (gpointer item);
/* The object a grid row holds (DyItem, or what a GtkTreeListRow holds), new reference; ROW
 * may be a DyRowSlot. */
GObject *dy_grid_row_item (gpointer row);
/* FACTORY's cells bound to a DyRowSlot are bound again (its "unbind" and "bind" handlers run)
 * whenever the slot shows another row. */
void dy_grid_follow_slots (GtkListItemFactory *factory);
/* A "query-tooltip" handler showing the widget's "tooltip" data (a string), if any. */
gboolean dy_grid_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard,
                                GtkTooltip *tooltip, gpointer user_data);
/* How a column's cells show values that read as times (core/timestamp: epoch numbers and ISO
 * 8601 strings): not at all, the local date and time dimmed beside the value, or the date and
 * time in its place (the exact value then in the tooltip). */
typedef enum {
  DY_GRID_TIME_OFF,
  DY_GRID_TIME_BESIDE,
  DY_GRID_TIME_INSTEAD,
} DyGridTimeMode;

/* The Pango markup of a cell showing VALUE (NULL: the item has none, an empty cell) in MODE,
 * and its tooltip (newly allocated, or NULL). TTL: the column is the table's TTL attribute,
 * whose cells say when the item expires at NOW (epoch seconds) ("in 3 days") beside the value,
 * or after the date in its place. Sorting is never affected: it reads the values. */
char *dy_grid_cell_markup (const DdbValue *value, DyGridTimeMode mode, gboolean ttl, gint64 now,
                           char **tooltip);

/* A factory of cells showing ATTRIBUTE of each row's DyItem. Each cell widget (a
 * GtkInscription with the CSS class "grid-cell") carries the attribute name as its
 * "attribute" data; handlers connected to "bind" after this run once the text is set. */
GtkListItemFactory *dy_grid_cell_factory_new (const char *attribute);
/* How FACTORY's cells show times (see DyGridTimeMode; OFF and not TTL at first). Cells bound
 * after follow; dy_grid_rebind_cell shows it in one bound now. */
void dy_grid_cell_factory_set_time_mode (GtkListItemFactory *factory, DyGridTimeMode mode,
                                         gboolean ttl);
DyGridTimeMode dy_grid_cell_factory_get_time_mode (GtkListItemFactory *factory);
gboolean dy_grid_cell_factory_get_ttl (GtkListItemFactory *factory);
/* Shows LIST_ITEM's value again, as its FACTORY now says. */
void dy_grid_rebind_cell (GtkListItemFactory *factory, GtkListItem *list_item);
/* The cell of the Collection column of a grouped grid: a GtkTreeExpander around a heading label
 * (its "label" data) over a caption for the collection's flags (its "flag" data), both
 * ellipsizing, their full text as their "tooltip" data. For a factory's "setup". */
void dy_grid_setup_collection_cell (GtkListItem *list_item);
/* A collection's heading in that cell: its partition key value, item count and size. */
char *dy_grid_collection_heading (DyGroup *group);
/* A column width in pixels that shows NAME's values whole when they are short (PAGE, may be
 * NULL, measured them): GtkColumnView sizes columns by their cells' minimum width, which for
 * ellipsizing cells is one character. */
int dy_grid_column_width (const char *name, DyRowPage *page);
/* Fits N column WIDTHS into ROOM pixels by narrowing the widest first, none below its FLOOR
 * (what its title needs): the narrow columns keep their values whole, the long values
 * ellipsize. When even the floors do not fit, every column gets its floor. */
void dy_grid_fit_widths (int *widths, const int *floors, guint n, int room);

G_END_DECLS
