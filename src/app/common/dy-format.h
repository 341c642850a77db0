/* dy-format.h: how the app shows DynamoDB values in one line (grid cells, tree rows): exact
 * numbers, sets as sets, binary as base64 with its length, maps and lists summarized. */
#pragma once

#include <glib.h>

#include "core/value.h"

G_BEGIN_DECLS

/* Longest text a cell shows before it is cut with an ellipsis (numbers are never cut: at most
 * 38 digits plus sign, point and exponent). */
#define DY_FORMAT_MAX_CELL 160

/* One-line text for a value. Newly allocated. */
char *dy_format_value (const DdbValue *value);
/* The same for a key value, never summarized or cut (S, N or B). */
char *dy_format_key (const DdbValue *value);
/* "1.2 KB", "312 B", "400 KB". Newly allocated. */
char *dy_format_size (guint64 bytes);
/* N with the locale's thousands separators, as the chrome shows counts. Newly allocated. */
char *dy_format_count (guint64 n);
/* Orders two key values as DynamoDB orders keys of one type (S and B by unsigned bytes, N
 * numerically); values of different types order by type. */
int dy_format_compare_keys (const DdbValue *a, const DdbValue *b);

/* Orders two cells of a column for client-side sorting: numbers numerically and exactly
 * (ddb_number_compare), strings and binary by unsigned bytes, false before true, other types
 * by their one-line text; values of different types order by type; a missing value (NULL)
 * after every value. */
int dy_format_compare_cells (const DdbValue *a, const DdbValue *b);

G_END_DECLS
