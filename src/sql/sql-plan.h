/* sql-plan.h: a plan as sql-plan.c chooses it for SQLite (xBestIndex) and sql-scan.c reads it
 * (xFilter): its kind, its arguments (what each argv value of xFilter is) and its words. */
#pragma once

#include "sql/sql-lookup.h"
#include "sql/sql-private.h"

G_BEGIN_DECLS

#define SQL_MAX_ARGS 16
#define SQL_LOOKUP_BUDGET ((gsize) 1 << 30)
#define SQL_MAX_KEY_BYTES 1024
#define SQL_MAX_SORT 8

typedef enum {
  ARG_PK,     /* the partition key's value (or IN list) */
  ARG_SK_EQ,
  ARG_SK_LO,  /* > or >= */
  ARG_SK_HI,  /* < or <= */
  ARG_SK_LIKE,
  ARG_SK_GLOB,
  ARG_LOOKUP, /* a join's value for the lookup column */
  ARG_LIMIT,
  ARG_NUMBER, /* a comparison on a column of numbers, applied here, as numbers */
} ArgRole;

typedef struct {
  ArgRole role;
  int op;
  int column;
} PlanArg;

typedef enum {
  PLAN_SCAN,
  PLAN_QUERY,
  PLAN_LOOKUP,
} PlanKind;

struct _SqlPlan {
  PlanKind kind;
  SqlTable *table;
  PlanArg args[SQL_MAX_ARGS];
  int n_args;
  gboolean pk_in;
  gboolean descending;
  int lookup_column;
  guint64 columns_used;
  double scan_rcu;
  char *words;
  SqlLookup *lookup;     /* PLAN_LOOKUP: built at the first xFilter */
  gboolean lookup_full;  /* it went over budget: a Query per row instead */
  /* ORDER BY over a column of numbers, sorted here (SQLite would rank decimal TEXT above
   * every INTEGER): the terms, in order. */
  guint n_sort;
  struct {
    int column;
    gboolean desc;
  } sort[SQL_MAX_SORT];
};


/* The literal prefix of a LIKE or GLOB pattern, and whether the pattern is that prefix and a
 * final wildcard alone. */
char *sql_pattern_prefix (const char *pattern, gboolean glob, gboolean *only_prefix);
gboolean sql_has_ascii_letter (const char *s);
/* "=", "<", …, "LIKE" for an SQLITE_INDEX_CONSTRAINT_ operator. */
const char *sql_op_text (int op);
/* Segments for a Scan of T: no more than its pages, so a small table is one request. */
guint sql_scan_segments (DdbSql *sql, SqlTable *t);

G_END_DECLS
