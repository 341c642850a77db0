/* dy-sql-drift.h: "Find drift…": a duplicated attribute's source (table, the attribute the
 * copies point at, an optional sort key and its value, the attribute) and its copies (table or
 * index, the attribute holding the copy, the one pointing at the source, the copy table's key
 * attributes); Find writes the JOIN (ddb_sql_drift_query) into the SQL tab's editor and runs it.
 * On a connection with the demo's Blog table it opens ready for it. */
#pragma once

#include <adwaita.h>

#include "app/sql/dy-sql-view.h"

G_BEGIN_DECLS

#define DY_TYPE_SQL_DRIFT_DIALOG (dy_sql_drift_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DySqlDriftDialog, dy_sql_drift_dialog, DY, SQL_DRIFT_DIALOG, AdwWindow)

/* The dialog on VIEW (view.find-drift opens it), transient for VIEW's window. */
DySqlDriftDialog *dy_sql_drift_dialog_new (DySqlView *view);
/* The one open on VIEW, or NULL. */
DySqlDriftDialog *dy_sql_view_get_drift_dialog (DySqlView *view);

/* The JOIN the inputs make, or NULL with what is missing. */
char *dy_sql_drift_dialog_dup_query (DySqlDriftDialog *self, GError **error);

G_END_DECLS
