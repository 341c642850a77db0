/* sql.h: real SQL over DynamoDB tables, answered by SQLite itself. Every table of the backend is
 * a SQLite virtual table "Blog", every index one named "Blog.ByAuthor"; JOIN, GROUP BY,
 * aggregates, window functions and json1 are SQLite's, and the rows are read through the
 * backend seam (the engine on a file or a snapshot, or a remote endpoint), with the key
 * conditions pushed down into Query requests (see sql-plan.c).
 *
 * Columns: the key attributes, then every attribute seen in a sample of the table (and those
 * added with ddb_sql_add_column), then hidden `_item` (the whole item as DynamoDB JSON) and
 * `_size` (its size in bytes as DynamoDB counts them). A column an item lacks is NULL.
 * Values: S -> TEXT, N -> INTEGER when it fits exactly, else its exact decimal TEXT (never a
 * double), B -> BLOB, BOOL -> 0/1, NULL -> NULL, M/L/sets -> JSON text (json1 works on it).
 * A comparison (=, <>, <, <=, >, >=) with a column of numbers is made as numbers by the table
 * itself; their TEXT compares numerically (collation "ddb_number"); ddb_n(x) is an
 * order-preserving key for any mix of INTEGER and decimal TEXT (for ORDER BY, min, max, which
 * SQLite does by class), and ddb_sum(x), ddb_total(x) add exactly.
 *
 * Safety: a private in-memory connection holds only these virtual tables; ATTACH, writes,
 * schema changes, PRAGMAs other than table_info / table_xinfo and loading extensions are
 * refused. A query streams its rows and can be cancelled at any time. */
#pragma once

#include <gio/gio.h>

#include "backend/backend.h"
#include "core/value.h"

G_BEGIN_DECLS

#define DDB_SQL_ERROR (ddb_sql_error_quark ())
GQuark ddb_sql_error_quark (void);

typedef enum {
  DDB_SQL_ERROR_SQL,       /* SQLite refused or failed the statement: the message is SQLite's */
  DDB_SQL_ERROR_REFUSED,   /* the authorizer refused it (ATTACH, a write, a PRAGMA…) */
  DDB_SQL_ERROR_CANCELLED, /* ddb_sql_cancel or the query's GCancellable */
} DdbSqlErrorCode;

typedef struct _DdbSql DdbSql;
typedef struct _DdbSqlQuery DdbSqlQuery;

/* Reads of one table or index (or of all of them): the Query and Scan calls that read items
 * (schema lookups and samples are not counted), the pages they answered, the items DynamoDB
 * read (ScannedCount) and the read capacity they consumed. */
typedef struct {
  guint64 requests;
  guint64 pages;
  guint64 items_read;
  double rcu;
} DdbSqlStats;

typedef struct {
  char *name; /* "Blog" or "Blog.ByAuthor" */
  DdbSqlStats stats;
} DdbSqlTableStats;

/* BACKEND is borrowed and must outlive the DdbSql. Nothing is read until a statement names a
 * table. One DdbSql runs one statement at a time, on one thread at a time (the app keeps one
 * per SQL tab and runs it on a worker thread); ddb_sql_cancel may be called from any thread. */
DdbSql *ddb_sql_new (DdbBackend *backend, GError **error);
void ddb_sql_free (DdbSql *sql);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbSql, ddb_sql_free)

/* How many items a table's first read samples for its columns (default 200). */
void ddb_sql_set_sample_size (DdbSql *sql, guint items);
/* Segments of a parallel Scan (default 4 for a remote endpoint, one per processor up to 4 for
 * the engine; 1 = a plain Scan). */
void ddb_sql_set_scan_segments (DdbSql *sql, guint segments);

/* The tables and indexes the backend has, as SQL names ("Blog", "Blog.ByAuthor"), sorted:
 * for completion. Lists and describes every table (schema lookups only). */
GPtrArray *ddb_sql_list_tables (DdbSql *sql, GCancellable *cancellable, GError **error);
/* The visible columns of TABLE (sampling it first if not done yet), key attributes first. */
GPtrArray *ddb_sql_list_columns (DdbSql *sql, const char *table, GCancellable *cancellable,
                                 GError **error);
/* Adds ATTRIBUTE as a column of TABLE (no effect if it is one). Statements that name a column
 * no table has get it added to the tables they read before they are prepared again, so any
 * attribute can be named even when the sample did not see it. */
gboolean ddb_sql_add_column (DdbSql *sql, const char *table, const char *attribute,
                             GCancellable *cancellable, GError **error);

/* The DynamoDB exception name of a DDB_ERROR the last statement failed with (also for an
 * exception no DdbErrorCode names, e.g. AccessDeniedException). */
const char *ddb_sql_error_name (DdbSql *sql, const GError *error);

/* The plan of TEXT in words, one line per step, without reading any item, e.g.
 *   "Query Blog where PK = 'USER#12' — 1 request"
 *   "Scan Blog ≈ 40 pages, ≈ 620 RCU"
 * *SCAN_RCU (may be NULL) gets the estimated read capacity of its Scans of tables (for the
 * app's confirmation before a large Scan of a live table). */
char *ddb_sql_explain (DdbSql *sql, const char *text, double *scan_rcu,
                       GCancellable *cancellable, GError **error);

/* Prepares TEXT (one statement; trailing text other than a semicolon and space is an error).
 * CANCELLABLE (may be NULL) cancels it as ddb_sql_cancel does. */
DdbSqlQuery *ddb_sql_query_new (DdbSql *sql, const char *text, GCancellable *cancellable,
                                GError **error);
/* Stops the statement running on SQL from any thread: its next step fails with
 * DDB_SQL_ERROR_CANCELLED and no further request is sent. */
void ddb_sql_cancel (DdbSql *sql);

guint ddb_sql_query_n_columns (DdbSqlQuery *query);
const char *ddb_sql_query_column_name (DdbSqlQuery *query, guint column);
/* Where a result column comes from when it is a table's column as is. */
typedef struct {
  const char *sql_table; /* as SQL names it: "Blog" or "Blog.ByAuthor" */
  const char *table;     /* the DynamoDB table it reads: "Blog" */
  const char *attribute; /* the attribute the column is */
  const char *table_pk;  /* that table's key attributes (table_sk NULL when it has none) */
  const char *table_sk;
} DdbSqlColumnOrigin;

/* Fills ORIGIN (its strings live as long as SQL) when COLUMN is a table's column as is, else
 * FALSE. */
gboolean ddb_sql_query_column_origin (DdbSqlQuery *query, guint column,
                                      DdbSqlColumnOrigin *origin);

/* The next row: TRUE with a row, FALSE at the end (ERROR unset) or on an error: a DDB_ERROR
 * from DynamoDB (ddb_backend_error_name gives its name), a DDB_SQL_ERROR, or a network one. */
gboolean ddb_sql_query_next (DdbSqlQuery *query, GError **error);

typedef enum {
  DDB_SQL_NULL,
  DDB_SQL_INTEGER,
  DDB_SQL_REAL,
  DDB_SQL_TEXT,
  DDB_SQL_BLOB,
} DdbSqlType;

/* The current row's cells, valid until the next ddb_sql_query_next. */
DdbSqlType ddb_sql_query_type (DdbSqlQuery *query, guint column);
gint64 ddb_sql_query_int (DdbSqlQuery *query, guint column);
double ddb_sql_query_double (DdbSqlQuery *query, guint column);
/* TEXT (UTF-8, may hold U+0000) or BLOB bytes; *LEN their length. */
const char *ddb_sql_query_bytes (DdbSqlQuery *query, guint column, gsize *len);
/* A cell as a DynamoDB value: INTEGER -> N, REAL -> N (its shortest exact decimal), BLOB -> B,
 * NULL -> NULL, TEXT -> S, except in a column whose origin holds only one other type in the
 * table's sample (N, M, L, SS, NS, BS): its text is read back as that type when it parses. */
DdbValue *ddb_sql_query_value (DdbSqlQuery *query, guint column);
/* The row as an item: column name -> value, NULL cells left out; a name seen twice keeps the
 * first. */
DdbValue *ddb_sql_query_row_item (DdbSqlQuery *query);

/* Reads so far, summed over the tables, and per table (DdbSqlTableStats*, sorted by name). */
void ddb_sql_query_stats (DdbSqlQuery *query, DdbSqlStats *total);
GPtrArray *ddb_sql_query_table_stats (DdbSqlQuery *query);
void ddb_sql_table_stats_free (DdbSqlTableStats *stats);

void ddb_sql_query_free (DdbSqlQuery *query);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbSqlQuery, ddb_sql_query_free)

/* "Find drift": the JOIN that lists each copy of a duplicated attribute that no longer equals
 * its source. The source rows are SOURCE_TABLE's items whose SOURCE_KEY equals the copy's
 * COPY_REF attribute (and, when SOURCE_SORT_KEY is set, whose sort key equals
 * SOURCE_SORT_VALUE, e.g. SK = 'META'); a copy drifts when its COPY_ATTR IS NOT the source's
 * SOURCE_ATTR. The result carries COPY_KEY (the copy table's key attributes), the copy's value
 * and the source's, e.g.
 *   SELECT c."PK", c."SK", c."authorName", s."name" FROM "Blog" AS c JOIN "Blog" AS s
 *   ON s."PK" = c."authorId" AND s."SK" = 'META' WHERE c."authorName" IS NOT s."name"
 * Names are quoted as SQL identifiers and the value as a SQL literal. */
typedef struct {
  const char *source_table;
  const char *source_key;
  const char *source_sort_key;     /* NULL: none */
  const DdbValue *source_sort_value; /* S or N, with SOURCE_SORT_KEY */
  const char *source_attr;
  const char *copy_table;          /* a table or "Table.Index" */
  const char *copy_ref;
  const char *copy_attr;
  const char *const *copy_key;     /* NULL-terminated */
} DdbSqlDriftSpec;

char *ddb_sql_drift_query (const DdbSqlDriftSpec *spec);

/* TEXT quoted as a SQL identifier ("a""b") or string literal ('it''s'). */
char *ddb_sql_quote_identifier (const char *text);
char *ddb_sql_quote_literal (const char *text, gsize len);

G_END_DECLS
