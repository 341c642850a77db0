/* table-list.h: a region's tables with their descriptions, read the fast way: every page of
 * ListTables in turn, and DescribeTable for each name as soon as its page arrives, many at once
 * (the client runs concurrent requests on connections of their own), so that an account with
 * hundreds of tables lists in about a second over a slow link instead of a round trip per table.
 * GTK-free; the callbacks run on the threads doing the work. */
#pragma once

#include "backend/backend.h"

G_BEGIN_DECLS

typedef struct {
  char *name;
  json_t *table; /* DescribeTable's "Table", or NULL (not described, or it failed) */
  GError *error; /* why DescribeTable failed (AccessDeniedException...), or NULL */
} DdbTableListEntry;

/* After each page of ListTables: the page's names (NULL-terminated), in ListTables' order. */
typedef void (*DdbTableNamesFunc) (const char *const *names, gpointer user_data);
/* After each DescribeTable, in no particular order; ENTRY stays owned by the list. */
typedef void (*DdbTableDescribedFunc) (const DdbTableListEntry *entry, gpointer user_data);

typedef struct {
  gboolean describe;  /* DescribeTable each table (else names only) */
  guint concurrency;  /* DescribeTable calls in flight at once; 0: DDB_TABLE_LIST_CONCURRENCY */
  guint page_limit;   /* ListTables' Limit; 0: none (DynamoDB's page of 100) */
  DdbTableNamesFunc names_func;
  DdbTableDescribedFunc described_func;
  gpointer user_data;
} DdbTableListOptions;

#define DDB_TABLE_LIST_CONCURRENCY 64

/* Every table of BACKEND as DdbTableListEntry (ListTables' order; free with
 * g_ptr_array_unref). A failed ListTables page fails the whole (the calls in flight cancelled);
 * a failed DescribeTable only its entry. OPTIONS may be NULL (names only). Cancellable from
 * another thread. */
GPtrArray *ddb_backend_list_tables (DdbBackend *backend, const DdbTableListOptions *options,
                                    GCancellable *cancellable, GError **error);

G_END_DECLS
