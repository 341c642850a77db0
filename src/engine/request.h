/* request.h: reading and checking the members of an API request with DynamoDB's messages, and
 * the consumed-capacity figures of a response. Shared by every *-ops.c file (request.c,
 * capacity.c). */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "core/error.h"
#include "core/expr.h"
#include "engine/table.h"

G_BEGIN_DECLS

/* ---- Errors ---- */

/* Sets `error` (may be NULL) to a DDB_ERROR of `code` with the formatted message; returns NULL
 * so that a reader of a pointer can `return ddb_req_fail (...)`. */
gpointer ddb_req_fail (GError **error, DdbErrorCode code, const char *format, ...)
    G_GNUC_PRINTF (3, 4);

/* DynamoDB checks a request's members against their constraints and lists every constraint
 * broken in one message: "2 validation errors detected: Value 'a' at 'tableName' failed to
 * satisfy constraint: ...; Value '0' at 'limit' ...", the members named by their path with a
 * lower-case first letter ('keySchema.1.member.keyType'). */
typedef struct {
  GString *text;
  guint count;
} DdbViolations;

void ddb_violations_init (DdbViolations *v);
/* `value` NULL prints as "Value null". */
void ddb_violation_add (DdbViolations *v, const char *path, const char *value,
                        const char *constraint);
/* Sets `error` (may be NULL) if there were violations; frees `v` either way. */
gboolean ddb_violations_finish (DdbViolations *v, GError **error);

/* ---- Members ---- */

/* The SerializationException DynamoDB's deserializer gives for a member `j` of the wrong JSON
 * type where it expected the Java type `java_type` ("String", "Boolean", "Integer"): "Start of
 * structure or map found where not expected", "Unrecognized collection type class
 * java.lang.String", "NUMBER_VALUE cannot be converted to String"... Returns FALSE. */
gboolean ddb_req_type_error (json_t *j, const char *java_type, GError **error);

/* The TableName member (or `member`), checked as DynamoDB checks it (required, 3..255
 * characters of [a-zA-Z0-9_.-]); DynamoDB's "1 validation error detected: ..." message. */
const char *ddb_req_table_name (json_t *req, const char *member, GError **error);

/* A string member: NULL and no error when absent and not `required`; a non-string is a
 * SerializationException as DynamoDB reports it. */
const char *ddb_req_string (json_t *req, const char *member, gboolean required, GError **error);

/* An optional string member that must be one of `allowed` (NULL-terminated); returns its index
 * in `allowed`, `fallback` when absent, -1 with DynamoDB's enum message when not allowed. */
int ddb_req_enum (json_t *req, const char *member, const char *const *allowed, int fallback,
                  GError **error);

/* An optional boolean member (`fallback` when absent). */
gboolean ddb_req_bool (json_t *req, const char *member, gboolean fallback, gboolean *out,
                       GError **error);

/* An optional integer member within [min, max]; *present tells whether it was given. */
gboolean ddb_req_int (json_t *req, const char *member, gint64 min, gint64 max, gint64 *out,
                      gboolean *present, GError **error);

/* ---- AttributeValues ----
 *
 * Every AttributeValue, item and key a request carries is read through these, never with
 * ddb_json_to_*() directly: the core names the attribute path in its messages
 * (DDB_JSON_PATH_SEPARATOR), which DynamoDB does not send, so the path is cut here; and
 * DynamoDB refuses an empty attribute name, at the top level or in a nested map, with
 * "Empty attribute name" (in document order with the values' own problems; a serialization
 * problem anywhere still wins). */

/* One AttributeValue ({"S": "x"}). */
DdbValue *ddb_req_value (json_t *json, GError **error);
/* A map of attribute names to AttributeValues (Item, Key, ExclusiveStartKey). */
DdbValue *ddb_req_attribute_map (json_t *json, GError **error);
/* An attribute name given as a map key or list element outside an AttributeValue
 * (AttributeUpdates, Expected, ScanFilter, AttributesToGet...): not empty. */
gboolean ddb_req_attribute_name (const char *name, GError **error);

/* For a member of a list or map in the request (a transaction's action, a batch's write
 * request): DynamoDB names the member by its full path in "N validation error(s) detected"
 * messages, e.g. 'transactItems.1.member.conditionCheck.conditionExpression'. Rewrites the
 * member names of such a message in `error` (if any) to start with `prefix`
 * ("transactItems.1.member.conditionCheck."). Other errors are left as they are. */
void ddb_req_error_prefix_members (GError *error, const char *prefix);

/* ---- Items and keys ---- */

/* An item member (DynamoDB JSON map): parsed strictly, key attributes present and of the
 * schema's types and not empty, not over 400 KB; DynamoDB's messages ("One or more parameter
 * values were invalid: Missing the key pk in the item", "... Type mismatch for key pk expected:
 * S actual: N", "Item size has exceeded the maximum allowed size", ...). Also checks the
 * item's values against every index's key types ("One or more parameter values were invalid:
 * Type mismatch for Index Key ..."). */
DdbValue *ddb_req_item (json_t *json, const DdbTableDef *def, GError **error);

/* A Key member: exactly the table's key attributes, of the right types and not empty
 * ("The provided key element does not match the schema"). */
DdbValue *ddb_req_key (json_t *json, const DdbTableDef *def, GError **error);

/* ExclusiveStartKey of a Query/Scan on the table or `index` (NULL): the table's key attributes
 * plus the index's, checked as DynamoDB checks them. */
DdbValue *ddb_req_start_key (json_t *json, const DdbTableDef *def, const DdbIndexDef *index,
                             GError **error);

/* ---- Expressions ---- */

/* The request's ExpressionAttributeNames / ExpressionAttributeValues, checked as DynamoDB checks
 * the maps themselves (not empty when present, keys of the form #x / :x, values valid), and the
 * parse context built on them. After parsing every expression of the request call
 * ddb_expr_context_check_unused (rx->ctx, error). */
typedef struct {
  GHashTable *names;    /* "#n" -> char* (owned here); NULL when absent */
  GHashTable *values;   /* ":v" -> DdbValue* (owned by values_map); NULL when absent */
  DdbValue *values_map; /* the parsed ExpressionAttributeValues map */
  DdbExprContext *ctx;
} DdbReqExpr;

gboolean ddb_req_expr_init (DdbReqExpr *rx, json_t *req, GError **error);
void ddb_req_expr_clear (DdbReqExpr *rx);

/* ---- Consumed capacity (capacity.c) ---- */

typedef enum {
  DDB_RCC_NONE,
  DDB_RCC_TOTAL,
  DDB_RCC_INDEXES,
} DdbReturnCapacity;

/* ReturnConsumedCapacity of the request. */
gboolean ddb_req_return_capacity (json_t *req, DdbReturnCapacity *out, GError **error);

/* Read units for `bytes` read in one call: ceil(bytes / 4 KB), at least 1, halved when eventually
 * consistent; writes: ceil(bytes / 1 KB), at least 1. Transactions double both (callers). */
double ddb_capacity_read_units (gsize bytes, gboolean consistent);
double ddb_capacity_write_units (gsize bytes);

/* What one call consumed, table and indexes. */
typedef struct {
  char *table_name;
  double table_read, table_write;
  GHashTable *gsi_read, *gsi_write; /* index name -> double* units, or NULL */
  GHashTable *lsi_read, *lsi_write;
} DdbCapacity;

void ddb_capacity_init (DdbCapacity *cap, const char *table_name);
void ddb_capacity_clear (DdbCapacity *cap);
void ddb_capacity_add_index (DdbCapacity *cap, const DdbIndexDef *index, gboolean write,
                             double units);
/* The ConsumedCapacity object DynamoDB returns for `mode` (NULL for DDB_RCC_NONE). */
json_t *ddb_capacity_to_json (const DdbCapacity *cap, DdbReturnCapacity mode);
/* The same for TransactWriteItems / TransactGetItems, where DynamoDB also splits every figure
 * (the total, Table and each index) into ReadCapacityUnits and WriteCapacityUnits. */
json_t *ddb_capacity_to_json_split (const DdbCapacity *cap, DdbReturnCapacity mode);

G_END_DECLS
