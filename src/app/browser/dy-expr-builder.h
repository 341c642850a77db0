/* dy-expr-builder.h: the expression builder: a dialog on a table view that builds a Query, Scan,
 * UpdateItem or DeleteItem from rows (key condition, condition, projection, update actions) with
 * exprbuild's model, shows the rendered request live, runs it in the view, copies it (as JSON or
 * as a program) and stages a built update or delete on the view's items. */
#pragma once

#include <adwaita.h>
#include <jansson.h>

#include "app/browser/dy-table-view.h"

G_BEGIN_DECLS

#define DY_TYPE_EXPR_BUILDER (dy_expr_builder_get_type ())
G_DECLARE_FINAL_TYPE (DyExprBuilder, dy_expr_builder, DY, EXPR_BUILDER, AdwWindow)

/* A builder on VIEW, transient for the window VIEW is in. OPERATION is "Query", "Scan",
 * "UpdateItem" or "DeleteItem" (NULL: Query when the table has a key schema). */
DyExprBuilder *dy_expr_builder_new (DyTableView *view, const char *operation);
/* Opens (presents) a builder on VIEW; the one already open on it when there is one. */
DyExprBuilder *dy_expr_builder_open (DyTableView *view, const char *operation);
/* The builder open on VIEW, or NULL. */
DyExprBuilder *dy_expr_builder_get_for_view (DyTableView *view);

/* Switches the operation ("Query", "Scan", "UpdateItem", "DeleteItem"). */
void dy_expr_builder_set_operation (DyExprBuilder *self, const char *operation);
/* Restricts Stage to ITEM (a map, copied; NULL: every item of the view's result). */
void dy_expr_builder_set_item (DyExprBuilder *self, const DdbValue *item);
/* The rendered request (TableName included) or NULL with the reason shown in the dialog
 * (*ERROR, borrowed, may be NULL). Borrowed until the next change. */
json_t *dy_expr_builder_get_request (DyExprBuilder *self, const char **error);
const char *dy_expr_builder_get_operation (DyExprBuilder *self);
/* What the last Stage did ("Staged 3 changes, 1 skipped"), or NULL. */
const char *dy_expr_builder_get_status (DyExprBuilder *self);
/* Loads a pasted request (JSON text) into the rows; FALSE with the error shown. */
gboolean dy_expr_builder_load_text (DyExprBuilder *self, const char *text);

G_END_DECLS
