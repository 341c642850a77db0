/* dy-query.h: what a table view's filter row asks for, and the Query or Scan request that
 * says it, values always passed as :v placeholders and names as #n placeholders. GTK-free. */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "core/value.h"

G_BEGIN_DECLS

typedef enum {
  DY_SORT_NONE,
  DY_SORT_EQ,
  DY_SORT_LT,
  DY_SORT_LE,
  DY_SORT_GT,
  DY_SORT_GE,
  DY_SORT_BETWEEN,
  DY_SORT_BEGINS_WITH,
} DySortOp;

typedef enum {
  DY_FILTER_NONE,
  DY_FILTER_EQ,
  DY_FILTER_NE,
  DY_FILTER_LT,
  DY_FILTER_LE,
  DY_FILTER_GT,
  DY_FILTER_GE,
  DY_FILTER_BEGINS_WITH,
  DY_FILTER_CONTAINS,
  DY_FILTER_EXISTS,
  DY_FILTER_NOT_EXISTS,
} DyFilterOp;

/* One filter condition; the conditions of a spec are AND-joined. */
typedef struct {
  const char *attr; /* NULL or "": the condition is left out */
  DyFilterOp op;    /* DY_FILTER_NONE: left out */
  DdbType type;     /* S, N or BOOL */
  const char *value;
} DyFilterCond;

typedef struct {
  const char *table_name;
  const char *index_name; /* NULL: the table itself */
  const char *pk_name;    /* the partition key of the table or index */
  DdbType pk_type;        /* S, N or B */
  const char *sk_name;    /* NULL when there is no sort key */
  DdbType sk_type;
  const char *pk_value;   /* NULL or "": Scan */
  DySortOp sk_op;
  const char *sk_value;
  const char *sk_value2;  /* the upper bound of BETWEEN */
  gboolean descending;    /* Query only: ScanIndexForward false */
  const char *filter_attr; /* NULL or "": no filter */
  DyFilterOp filter_op;
  DdbType filter_type;    /* S, N or BOOL */
  const char *filter_value;
  const DyFilterCond *filters; /* more conditions after filter_attr's, AND-joined */
  guint n_filters;
  guint limit;            /* 0: none */
} DyQuerySpec;

/* TRUE when the spec runs as a Query (a partition key value is given), FALSE for a Scan. */
gboolean dy_query_spec_is_query (const DyQuerySpec *spec);
/* "Query" or "Scan". */
const char *dy_query_spec_operation (const DyQuerySpec *spec);
/* The request (new reference), with ReturnConsumedCapacity TOTAL. The filter conditions
 * (filter_attr's first, then FILTERS) are AND-joined with placeholders #f/:f, #f1/:f1, ... in
 * that order, counting only those not left out. A value that is not of its attribute's type
 * (a bad number, bad base64) or a missing operand fails with G_IO_ERROR_INVALID_DATA and a
 * message for people. */
json_t *dy_query_build (const DyQuerySpec *spec, GError **error);

G_END_DECLS
