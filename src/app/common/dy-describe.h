/* dy-describe.h: a table's description as the app shows it (keys, indexes with their
 * projections, item count, size, billing mode, TTL), from DescribeTable's Table and
 * DescribeTimeToLive's TimeToLiveDescription. GTK-free. */
#pragma once

#include <glib.h>
#include <jansson.h>

G_BEGIN_DECLS

typedef struct {
  char *label;
  char *value;
  gboolean heading; /* a section title (an index), VALUE NULL */
} DyDescribeRow;

void dy_describe_row_free (DyDescribeRow *row);

/* Rows of label and value, in display order. TTL may be NULL (not asked yet) and TTL_ERROR
 * says why it is unknown when DescribeTimeToLive failed (NULL otherwise). */
GPtrArray *dy_describe_rows (json_t *table, json_t *ttl, const char *ttl_error);
/* The rows of DescribeTable's TABLE alone (no time to live row). */
GPtrArray *dy_describe_table_rows (json_t *table);

/* One line for a list of tables: "1,234 items · 5.6 MB", or the table's status while it is
 * not ACTIVE (CREATING...). New string. */
char *dy_describe_summary (json_t *table);
/* The attribute of KEY_SCHEMA (a KeySchema array) whose KeyType is KEY_TYPE ("HASH" or
 * "RANGE"), or NULL. Borrowed from KEY_SCHEMA. */
const char *dy_describe_key_name (json_t *key_schema, const char *key_type);

/* "label: value" lines of ROWS, for tests and for copying. */
char *dy_describe_rows_to_text (GPtrArray *rows);

G_END_DECLS
