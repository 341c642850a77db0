/* dy-sql-stage.h: "Stage update…" on a SQL result that carries the full key of one table: the
 * attribute to set, the column whose value it gets and the column that shows its current
 * value (the guard); ddb_sql_stage then stages one guarded update per row, on a worker, into
 * the connection's staging area, and the dialog reports what was staged, unchanged, in
 * conflict and failed. */
#pragma once

#include <adwaita.h>

#include "app/sql/dy-sql-view.h"

G_BEGIN_DECLS

#define DY_TYPE_SQL_STAGE_DIALOG (dy_sql_stage_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DySqlStageDialog, dy_sql_stage_dialog, DY, SQL_STAGE_DIALOG, AdwWindow)

/* The dialog on VIEW's result (view.stage-update opens it), prefilled: the first column of the
 * table that is not a key is the guard and names the attribute, the next one gives the
 * value (for a drift result: authorName = the source's name, guarded by the post's
 * authorName). NULL when the result carries no table's key. */
DySqlStageDialog *dy_sql_stage_dialog_new (DySqlView *view);
/* The one open on VIEW, or NULL. */
DySqlStageDialog *dy_sql_view_get_stage_dialog (DySqlView *view);

/* Sets the inputs (NULL: leaves one as it is); the columns are result column names. */
void dy_sql_stage_dialog_set (DySqlStageDialog *self, const char *attribute,
                              const char *value_column, const char *guard_column);
const char *dy_sql_stage_dialog_get_attribute (DySqlStageDialog *self);
const char *dy_sql_stage_dialog_get_value_column (DySqlStageDialog *self);
const char *dy_sql_stage_dialog_get_guard_column (DySqlStageDialog *self);
/* TRUE while staging (stage.stage). */
gboolean dy_sql_stage_dialog_get_busy (DySqlStageDialog *self);
/* What the last Stage did ("Staged 2 of 2 rows: 0 unchanged, 0 conflicts, 0 failed"), or
 * the error that stopped it; NULL before. */
const char *dy_sql_stage_dialog_get_report (DySqlStageDialog *self);

G_END_DECLS
