/* dy-rows.h: the results of a view as a light list model: each item is kept as its compact
 * encoding (core/itemcodec) in a spill file outside the heap, with only an offset index in
 * memory, and becomes a DyItem only when asked for (a row bound to the grid, the inspector's
 * item), through a small cache. Pages are encoded and written on workers; a snapshot of the
 * index lets workers read every row (sorting, grouping) while the main thread goes on. */
#pragma once

#include <gio/gio.h>

#include "app/common/dy-item.h"
#include "core/value.h"

G_BEGIN_DECLS

/* Where encoded rows go: an unlinked file in the user's cache folder (in memory if none can
 * be made). Any thread may append to it or read from it. */
typedef struct _DyRowStore DyRowStore;

DyRowStore *dy_row_store_ref (DyRowStore *store);
void dy_row_store_unref (DyRowStore *store);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DyRowStore, dy_row_store_unref)

/* A page of rows made on a worker: each item encoded, written to a store, with the names of
 * the attributes it holds (first-seen order) and, for each name, a column width in characters
 * that shows its values whole when they are short. */
typedef struct {
  DyRowStore *store;
  guint64 base;     /* offset of the first row's bytes in the store */
  GArray *lengths;  /* guint32 per row, back to back from base */
  GPtrArray *names; /* char* */
  GArray *widths;   /* int per name, in characters */
} DyRowPage;

/* Encodes ITEMS (DynamoDB JSON items) into STORE. NULL with the parser's error. */
DyRowPage *dy_row_page_new (DyRowStore *store, json_t *items, GError **error);
/* The same for ITEMS (DdbValue maps, borrowed), as the rows of a SQL result come. */
DyRowPage *dy_row_page_new_from_values (DyRowStore *store, GPtrArray *items, GError **error);
void dy_row_page_free (DyRowPage *page);

/* A page built item by item, as a reader hands them over (dy_connection_read_sync): no list
 * of the page's items is ever held. N_EXPECTED: a size hint (0: unknown). */
typedef struct _DyRowPageBuilder DyRowPageBuilder;

DyRowPageBuilder *dy_row_page_builder_new (DyRowStore *store, guint n_expected);
/* Encodes ITEM (taken) as the page's next row; a DdbItemFunc, BUILDER its user data. */
void dy_row_page_builder_take (DdbValue *item, gpointer builder);
/* The page, written to the store (the builder freed); NULL with the store's error. */
DyRowPage *dy_row_page_builder_finish (DyRowPageBuilder *builder, GError **error);
void dy_row_page_builder_free (DyRowPageBuilder *builder);

#define DY_TYPE_ROWS (dy_rows_get_type ())
G_DECLARE_FINAL_TYPE (DyRows, dy_rows, DY, ROWS, GObject)

/* A list model of DyItem, in the order rows were added. */
DyRows *dy_rows_new (void);
/* The store pages for these rows are written to (a new one after each clear). */
DyRowStore *dy_rows_get_store (DyRows *self);
/* Appends PAGE's rows; FALSE (nothing added) if it was written to a store since cleared. */
gboolean dy_rows_add_page (DyRows *self, DyRowPage *page);
/* Drops every row (and the store). */
void dy_rows_clear (DyRows *self);
/* The item at POSITION, or NULL. Main thread only. */
DyItem *dy_rows_get_row (DyRows *self, guint position);

/* A read-only view of the rows added so far, for a worker. */
typedef struct _DyRowsSnapshot DyRowsSnapshot;

DyRowsSnapshot *dy_rows_snapshot (DyRows *self);
void dy_rows_snapshot_free (DyRowsSnapshot *snapshot);
guint dy_rows_snapshot_get_n (DyRowsSnapshot *snapshot);
/* Row I's item, decoded; NULL with an error if the store cannot be read. Any thread. */
DdbValue *dy_rows_snapshot_read (DyRowsSnapshot *snapshot, guint i, GError **error);
/* Hands each row, in order, to FUNC as its encoding (core/itemcodec.h: decode only what is
 * needed), reading the store a page at a time rather than a row at a time. FALSE when FUNC
 * returned FALSE (with its error), CANCELLABLE was cancelled or the store cannot be read. */
typedef gboolean (*DyRowsEachFunc) (guint row, const guint8 *data, gsize len, gpointer user_data,
                                    GError **error);
gboolean dy_rows_snapshot_foreach (DyRowsSnapshot *snapshot, DyRowsEachFunc func,
                                   gpointer user_data, GCancellable *cancellable, GError **error);

#define DY_TYPE_ROW_LIST (dy_row_list_get_type ())
G_DECLARE_FINAL_TYPE (DyRowList, dy_row_list, DY, ROW_LIST, GObject)

/* A list model of DyItem: the rows of ROWS at POSITIONS (guint32, taken), in that order (a
 * sorted grid, a collection's items). May be made on a worker; read on the main thread. */
DyRowList *dy_row_list_new (DyRows *rows, GArray *positions);
/* The position in its DyRows of the row at POSITION. */
guint dy_row_list_get_source_position (DyRowList *self, guint position);
/* Adds rows FROM .. TO-1 of its DyRows at the end (rows loaded after the order was made). */
void dy_row_list_append_range (DyRowList *self, guint from, guint to);

G_END_DECLS
