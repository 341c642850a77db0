/* sql-lookup.h: a table's rows held in memory, compactly (only the columns the statement uses),
 * and found by one column's value: what a JOIN reads instead of a request per outer row. */
#pragma once

#include "sql/sql-private.h"

G_BEGIN_DECLS

/* COLUMNS_USED is SQLite's colUsed mask; KEY_COLUMN the column looked up by (-1: none, rows
 * only held, as for sorting them). */
SqlLookup *sql_lookup_new (SqlTable *table, guint64 columns_used, int key_column);
void sql_lookup_free (SqlLookup *lookup);
/* Adds ITEM; FALSE when it cannot be held. */
gboolean sql_lookup_add (SqlLookup *lookup, const DdbValue *item);
/* Adds row ROW of FROM (of the same table; a column FROM does not hold is NULL). */
gboolean sql_lookup_add_row (SqlLookup *lookup, SqlLookup *from, guint row);
/* How many rows it holds. */
guint sql_lookup_n_rows (SqlLookup *lookup);
/* The memory held, roughly, in bytes. */
gsize sql_lookup_bytes (SqlLookup *lookup);
/* The rows whose key column equals VALUE (as numbers in a column of numbers, else as SQLite
 * compares them, a superset when SQLite checks again), in *ROWS; returns how many. */
guint sql_lookup_find (SqlLookup *lookup, sqlite3_value *value, const guint **rows);
/* ROW's COLUMN, its bytes borrowed from the lookup; FALSE when the column is not held. */
gboolean sql_lookup_cell (SqlLookup *lookup, guint row, int column, SqlCell *cell);
void sql_lookup_column (SqlLookup *lookup, guint row, sqlite3_context *ctx, int column);

G_END_DECLS
