/* dy-sql-history.h: the SQL tabs' history (the last statements run, newest first) and saved
 * queries (named), shared by every tab and kept in a small JSON file in the user's data folder
 * (sql-history.json), each statement with the language it was run in (SQL or PartiQL). It
 * holds statements and names only: never a connection's endpoint, profile or credentials. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* How many statements the history keeps. */
#define DY_SQL_HISTORY_MAX 100

/* The language a statement was run in. */
typedef enum {
  DY_SQL_MODE_SQL,
  DY_SQL_MODE_PARTIQL,
} DySqlMode;

#define DY_TYPE_SQL_HISTORY (dy_sql_history_get_type ())
G_DECLARE_FINAL_TYPE (DySqlHistory, dy_sql_history, DY, SQL_HISTORY, GObject)

/* Signal "changed" (void handler (DySqlHistory *)): the history or the saved queries changed. */

/* The application's history, read from the file on first use. */
DySqlHistory *dy_sql_history_get_default (void);
/* A history kept in the file at PATH (NULL: in memory only), for tests. */
DySqlHistory *dy_sql_history_new (const char *path);
/* Where it is kept (NULL: nowhere). */
const char *dy_sql_history_get_path (DySqlHistory *self);

/* Puts TEXT (stripped) first, dropping an older copy and what is past DY_SQL_HISTORY_MAX;
 * written to the file in the background. */
void dy_sql_history_add (DySqlHistory *self, const char *text);
/* The same for a statement of MODE (the same text in another mode is another entry). */
void dy_sql_history_add_in_mode (DySqlHistory *self, const char *text, DySqlMode mode);
/* The I-th statement's mode. */
DySqlMode dy_sql_history_get_mode (DySqlHistory *self, guint i);
guint dy_sql_history_get_n_statements (DySqlHistory *self);
/* The I-th statement, 0 the newest, or NULL. */
const char *dy_sql_history_get_statement (DySqlHistory *self, guint i);

/* Saves TEXT as NAME, replacing a query of that name. */
void dy_sql_history_save_query (DySqlHistory *self, const char *name, const char *text);
gboolean dy_sql_history_remove_query (DySqlHistory *self, const char *name);
/* The saved query NAME, or NULL. */
const char *dy_sql_history_get_query (DySqlHistory *self, const char *name);
/* The saved queries' names, sorted (NULL-terminated, newly allocated). */
GStrv dy_sql_history_list_queries (DySqlHistory *self);

/* TRUE while a write to the file is under way (tests wait for it). */
gboolean dy_sql_history_get_saving (DySqlHistory *self);

/* TEXT on one line for a menu: spaces collapsed, cut with an ellipsis past MAX_CHARS. */
char *dy_sql_history_summary (const char *text, guint max_chars);

G_END_DECLS
