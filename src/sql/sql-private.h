/* sql-private.h: what the SQL layer's files share: the connection (sql.c), the tables as
 * described and sampled (sql-schema.c), the virtual-table module and its plans (sql-vtab.c,
 * sql-plan.c), the paged readers (sql-reader.c), the value conversions and functions
 * (sql-value.c) and the in-memory lookups a JOIN uses instead of a request per row
 * (sql-lookup.c). */
#pragma once

#include <sqlite3.h>

#include "sql/sql.h"

G_BEGIN_DECLS

typedef struct {
  char *name;
  guint types; /* 1 << DdbType of every type the sample saw */
} SqlColumn;

typedef struct {
  char *sql_name; /* "Blog" or "Blog.ByAuthor" */
  char *table;    /* "Blog" */
  char *index;    /* "ByAuthor" or NULL */
  char *pk;       /* this table's or index's partition key */
  char *sk;       /* its sort key, or NULL */
  char *table_pk;  /* the table's key (an index's table's): partition key, sort key or NULL */
  char *table_sk;
  DdbType pk_type, sk_type;
  GPtrArray *columns;     /* SqlColumn*: the key attributes first; then _item, _size */
  guint n_key_columns;    /* the first columns: the key (an index's, then its table's) */
  GHashTable *lower_names; /* casefolded name -> GUINT_TO_POINTER (index + 1) */
  guint64 item_count;
  guint64 size_bytes;
  gboolean declared; /* the virtual table exists in the connection */
  DdbSqlStats stats; /* of the running statement, under DdbSql.lock */
} SqlTable;

/* Hidden columns after the visible ones. */
#define SQL_COL_ITEM(t) ((int) (t)->columns->len)
#define SQL_COL_SIZE(t) ((int) (t)->columns->len + 1)

typedef struct _SqlPlan SqlPlan;

struct _DdbSql {
  DdbBackend *backend;
  sqlite3 *db;
  GHashTable *tables; /* sql_name -> SqlTable* */
  guint sample_size;
  guint segments;
  gboolean remote;

  gboolean internal;   /* our own statements: the authorizer lets them through */
  char *refusal;       /* why the authorizer refused the statement being prepared */
  char *pragma_table;  /* the table a PRAGMA table_info of that statement names */
  GPtrArray *plans;    /* SqlPlan* of the statement: idxNum indexes it */

  GMutex lock;            /* stats, error, cancellable */
  GCancellable *cancellable; /* of the running statement */
  GError *error;          /* the first read error of the running statement */
  json_t *error_extra;    /* its extra members (DynamoDB's exception name…) */
  gboolean explaining;    /* plans only: no xFilter may read */
};

/* sql-schema.c */
void sql_table_free (SqlTable *table);
/* The table or index named NAME (as SQL names it), described and sampled on first use; NULL
 * and a DDB_SQL_ERROR "no such table" (or the backend's error) when there is none. */
SqlTable *sql_schema_lookup (DdbSql *sql, const char *name, GCancellable *cancellable,
                             GError **error);
/* The table names the backend has (every page of ListTables). */
GPtrArray *sql_list_table_names (DdbSql *sql, GCancellable *cancellable, GError **error);
/* Adds a column (no effect and FALSE when it is one already, case-insensitively). */
gboolean sql_table_add_column (SqlTable *table, const char *name, guint types);
/* CREATE TABLE text for sqlite3_declare_vtab. */
char *sql_table_declaration (const SqlTable *table);
/* Declares (or declares again, after a column was added) TABLE in the connection. */
gboolean sql_schema_declare (DdbSql *sql, SqlTable *table, GError **error);
/* TRUE when the column holds only numbers in the sample (or is an N key). */
gboolean sql_column_is_number (const SqlTable *table, int column);

/* sql-item.c: a column of an item (DynamoDB JSON) as a SQLite value. */
typedef struct {
  int type;          /* SQLITE_NULL, SQLITE_INTEGER, SQLITE_TEXT, SQLITE_BLOB */
  gint64 i;
  const char *data;  /* TEXT or BLOB */
  gsize len;
  gpointer owned;    /* freed with g_free when set */
} SqlCell;

/* COLUMN of ITEM (a visible column, _item or _size); clear it with sql_cell_clear. */
void sql_item_cell (SqlTable *table, const DdbValue *item, int column, SqlCell *cell);
/* Hands CELL (and what it owns) to SQLite as the result. */
void sql_cell_result (sqlite3_context *ctx, SqlCell *cell);
void sql_cell_clear (SqlCell *cell);

/* sql-value.c */
/* A value as a column of numbers compares it: numbers (INTEGER, REAL, decimal TEXT) as
 * numbers, below other TEXT (as bytes), below BLOB (as bytes); NULL is not comparable. */
typedef struct {
  int rank; /* 1 number, 2 text, 3 blob */
  DdbNumber number;
  const char *data;
  gsize len;
} SqlNumberKey;

gboolean sql_number_key_from_value (sqlite3_value *value, SqlNumberKey *key);
gboolean sql_number_key_from_cell (const SqlCell *cell, SqlNumberKey *key);
int sql_number_key_compare (const SqlNumberKey *a, const SqlNumberKey *b);
/* A SQLite value as a DynamoDB key value of TYPE ({"S": …}), or NULL when no item's key
 * column can equal it (TEXT equals only TEXT, BLOB only BLOB, a number key any number). */
json_t *sql_value_to_key (sqlite3_value *value, DdbType type);
/* A SQLite value as SQL text for the plan in words ('it''s', 42, X'00ff'). */
void sql_append_literal (GString *out, sqlite3_value *value);
/* Registers ddb_number (collation), ddb_n, ddb_sum, ddb_total. */
gboolean sql_register_functions (sqlite3 *db);
/* The shortest decimal text that reads back as D (for SQLite's REAL results). */
void sql_double_text (double d, char *buf, gsize size);
/* When N is an integer in gint64, sets *OUT. */
gboolean sql_number_int64 (const DdbNumber *n, gint64 *out);
/* Parses TEXT as a DynamoDB number and, when it is an integer in gint64, sets *OUT. */
gboolean sql_number_text_int64 (const char *text, gsize len, gint64 *out);

/* sql-lookup.c: rows held compactly (sql-lookup.h). */
typedef struct _SqlLookup SqlLookup;

/* sql-reader.c: the pages of a Query or Scan, read through the backend, each item made a
 * compact row of the COLUMNS (a colUsed mask) as it arrives. */
typedef struct _SqlReader SqlReader;
/* REQUEST (stolen) is the first page's; SEGMENTS > 1 reads a Scan's segments in parallel,
 * ahead of the consumer. LIMIT < 0: no limit. */
SqlReader *sql_reader_new (DdbSql *sql, SqlTable *table, const char *operation, json_t *request,
                           guint segments, gint64 limit, guint64 columns);
/* The next row: *PAGE (borrowed until the next call) and its *ROW there; FALSE at the end or
 * on an error (in SQL). */
gboolean sql_reader_next (SqlReader *reader, SqlLookup **page, guint *row);
void sql_reader_free (SqlReader *reader);
/* Records the first error of the statement (takes ownership of both; EXTRA may be NULL). */
void sql_set_error_full (DdbSql *sql, GError *error, json_t *extra);
void sql_set_error (DdbSql *sql, GError *error);
gboolean sql_cancelled (DdbSql *sql);

/* sql-plan.c */
SqlPlan *sql_plan_get (DdbSql *sql, int idx);
SqlTable *sql_plan_table (SqlPlan *plan);
/* The estimated read capacity of the plan's Scan (0 for a Query). */
double sql_plan_scan_rcu (SqlPlan *plan);
int sql_best_index (DdbSql *sql, SqlTable *table, sqlite3_index_info *info);
void sql_plan_free (SqlPlan *plan);

/* One xFilter's reading, whatever the plan: sql-plan.c builds it, sql-vtab.c pulls rows. */
typedef struct _SqlScan SqlScan;
SqlScan *sql_scan_start (DdbSql *sql, SqlPlan *plan, int argc, sqlite3_value **argv,
                         GError **error);
/* Advances to the next row: FALSE at the end or on an error (recorded in SQL). */
gboolean sql_scan_next (SqlScan *scan);
/* The current row's column (as sql-vtab.c numbers them). */
void sql_scan_column (SqlScan *scan, sqlite3_context *ctx, int column);
/* The current row's rowid: the same for the same item whichever filter read it (SQLite's OR
 * plans tell rows apart by it). */
sqlite3_int64 sql_scan_rowid (SqlScan *scan);
void sql_scan_free (SqlScan *scan);

/* sql-vtab.c */
gboolean sql_register_module (DdbSql *sql);

G_END_DECLS
