/* dy-row-arrange.h: the work of arranging a grid's loaded rows, done on a worker over a snapshot
 * of them (dy-table-view-arrange.c starts it and shows what it makes): the rows sorted by
 * attributes, or grouped into item collections, of the rows Find in Loaded Rows keeps
 * (dy-row-match.h). Each reads every row's stored encoding. GTK-free. */
#pragma once

#include <gio/gio.h>

#include "app/browser/dy-row-match.h"
#include "app/browser/dy-rows.h"

G_BEGIN_DECLS

/* A sort column: the attribute NAME, in ascending or descending order. */
typedef struct {
  char *name;
  gboolean descending;
} DyRowSortKey;

DyRowSortKey *dy_row_sort_key_new (const char *name, gboolean descending);
void dy_row_sort_key_free (DyRowSortKey *key);

/* The positions (guint32) of SNAPSHOT's rows that MATCH keeps (NULL: all), in the order of KEYS
 * (DyRowSortKey*, the first one leading; none: the rows' loaded order): the cells' order
 * (dy_format_compare_cells: numbers exactly, a missing attribute after every value), a
 * descending key's reversed, equal rows in their loaded order. NULL (ERROR set) if cancelled or
 * a row cannot be read. */
GArray *dy_row_arrange_sort (DyRowsSnapshot *snapshot, DyRowMatch *match, GPtrArray *keys,
                             GCancellable *cancellable, GError **error);

/* The item collections (DyGroup) of the rows of SNAPSHOT (of ROWS) that MATCH keeps (NULL: all),
 * by the partition key attribute PK as it shows (dy_format_key; NO_PK_TEXT for a row without
 * it), in first-seen order, each with its items in the order of the sort key attribute SK (may
 * be NULL: as loaded; DESCENDING reverses it), then shard sets gathered; *KEPT says how many
 * rows they hold. NULL (ERROR set) if cancelled or a row cannot be read. */
GListModel *dy_row_arrange_group (DyRows *rows, DyRowsSnapshot *snapshot, DyRowMatch *match,
                                  const char *pk, const char *sk, gboolean descending,
                                  const char *no_pk_text, guint *kept, GCancellable *cancellable,
                                  GError **error);

G_END_DECLS
