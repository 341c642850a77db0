/* dy-grid.h: the exact-value grid's cells, shared by the table view and the SQL tab: a column
 * per attribute whose cells show each row's value exactly (dy_format_value) with its type as
 * tooltip, sized from the widths a page of rows measured on its worker. */
#pragma once

#include <gtk/gtk.h>

#include "app/browser/dy-group.h"
#include "app/browser/dy-rows.h"

G_BEGIN_DECLS

/* The object a grid row holds (DyItem, or what a GtkTreeListRow holds), new reference. */
GObject *dy_grid_row_item (gpointer row);
/* A "query-tooltip" handler showing the widget's "tooltip" data (a string), if any. */
gboolean dy_grid_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard,
                                GtkTooltip *tooltip, gpointer user_data);
/* A factory of cells showing ATTRIBUTE of each row's DyItem. Each cell widget (a
 * GtkInscription with the CSS class "grid-cell") carries the attribute name as its
 * "attribute" data; handlers connected to "bind" after this run once the text is set. */
GtkListItemFactory *dy_grid_cell_factory_new (const char *attribute);
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
