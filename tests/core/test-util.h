/* test-util.h: helpers shared by the core unit tests to build their inputs (values, items,
 * placeholders, parsed expressions) and to check DDB_ERROR errors. */
#pragma once

#include <glib.h>

#include "core/error.h"
#include "core/expr.h"
#include "core/value.h"

G_BEGIN_DECLS

/* JSON in C strings reads better with single quotes; returns a copy with them made double. */
char *tu_dq (const char *s);

/* An item parsed from DynamoDB JSON text written with single quotes; fails the test if invalid. */
DdbValue *tu_item (const char *json);

/* Asserts that `got` equals the item written (with single quotes) in `expected_json`. */
void tu_assert_item (const DdbValue *got, const char *expected_json);

/* An N value from its text; fails the test if the text is not a valid number. */
DdbValue *tu_num (const char *text);

/* An S value from a NUL-terminated string. */
DdbValue *tu_str (const char *s);

/* Asserts that `error` is DDB_ERROR `code` with exactly `message`. */
void tu_assert_error (const GError *error, DdbErrorCode code, const char *message);

/* The placeholders of one request: ":v" values given as an item in DynamoDB JSON and "#n" names
 * as a JSON object of strings (both with single quotes, either may be NULL). */
typedef struct {
  DdbValue *values_item;
  GHashTable *values;
  GHashTable *names;
  DdbExprContext *ctx;
} TuPlaceholders;

void tu_placeholders_init (TuPlaceholders *ph, const char *values_json, const char *names_json);
void tu_placeholders_clear (TuPlaceholders *ph);

/* Parse functions that fail the test when the expression is refused. */
DdbNode *tu_condition_parse (DdbExprType type, const char *expr, DdbExprContext *ctx);
DdbUpdate *tu_update_parse (const char *expr, DdbExprContext *ctx);

G_END_DECLS
