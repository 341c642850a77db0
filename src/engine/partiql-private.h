/* partiql-private.h: what the PartiQL operations (partiql-ops.c: ExecuteStatement,
 * partiql-batch.c: BatchExecuteStatement and ExecuteTransaction) share: a statement turned into
 * the request of the operation it stands for (partiql-plan.c), whose expressions are printed
 * from the statement's syntax tree with placeholders, never spliced from its text. */
#pragma once

#include "core/partiql.h"
#include "engine/engine-private.h"
#include "engine/request.h"
#include "engine/table.h"

G_BEGIN_DECLS

G_DEFINE_AUTOPTR_CLEANUP_FUNC (json_t, json_decref)

/* The placeholders of one request being built: "#n0" -> name, ":v0" -> value. */
typedef struct {
  json_t *names;
  json_t *values;
  GHashTable *name_ids; /* name -> "#nK" (borrowed from `names`' keys) */
} PqlExpr;

void pql_expr_init (PqlExpr *x);
void pql_expr_clear (PqlExpr *x);
/* Moves the placeholders into `request` (ExpressionAttributeNames / Values, when any). */
void pql_expr_attach (PqlExpr *x, json_t *request);
/* The conjuncts `nodes` (borrowed) printed as an expression, joined by AND; NULL when n == 0. */
char *pql_print_conjuncts (PqlExpr *x, DdbNode *const *nodes, guint n);
char *pql_print_update (PqlExpr *x, const DdbUpdate *u);
/* A placeholder for `value` (copied). */
char *pql_expr_value (PqlExpr *x, const DdbValue *value);
char *pql_expr_name (PqlExpr *x, const char *name);

/* The statement's table (and index, if it names one), with DynamoDB's errors. */
DdbTableDef *pql_table (DdbEngine *e, const DdbPqlStatement *s, const DdbIndexDef **index,
                        GError **error);

/* DynamoDB's words for a key attribute given a value of another type than its own. */
#define PQL_KEY_TYPE \
  "Key attribute's data type should match its data type in table's schema: Key %s"

/* Whether `error` is PQL_KEY_TYPE's: in a transaction, a cancellation reason. */
gboolean pql_is_key_type_error (const GError *error);

/* The WHERE clause split for a single-item request: the table's key (a new map) from
 * `key = value` conjuncts, the other conjuncts (borrowed) in `rest`. FALSE when an equality
 * on a key attribute is missing (no error set), or with an error when a key value has the
 * wrong type, or when an UPDATE or DELETE gives a key attribute two values. */
gboolean pql_split_key (const DdbPqlStatement *s, const DdbTableDef *def, DdbValue **key,
                        GPtrArray *rest, GError **error);

/* A write statement (INSERT, UPDATE, DELETE, EXISTS) as the request of PutItem, UpdateItem,
 * DeleteItem or a ConditionCheck; *op names the operation ("ConditionCheck" for EXISTS).
 * `rvcf` is ReturnValuesOnConditionCheckFailure (NULL: absent). */
json_t *pql_write_request (DdbEngine *e, const DdbPqlStatement *s, const char *rvcf,
                           const char **op, GError **error);
/* A SELECT of one item (full key in WHERE, nothing else) as a GetItem request. `what` is the
 * message when it is not one. */
json_t *pql_get_request (DdbEngine *e, const DdbPqlStatement *s, const char *what, GError **error);

/* An item of a SELECT as ExecuteStatement returns it: each projected path's value under its
 * name (ddb_pql_result_name), except where AWS's PartiQL stops at a list index past the end of
 * the projected list ("a.b[2].c" -> "b[2]": {"c": ...}, "a.b[0].c" -> "c"); the whole item for
 * `*`. New reference. */
json_t *pql_project (const DdbPqlStatement *s, json_t *item);
/* The same as a GetItem's ProjectionExpression returns it: the paths nested as in the item, as
 * BatchExecuteStatement and ExecuteTransaction answer a SELECT. New reference. */
json_t *pql_project_document (const DdbPqlStatement *s, json_t *item);

/* DynamoDB's constraints on a statement's members (Statement: present, 1..8192 characters;
 * Parameters: not an empty list), added to `v` under `prefix` ("" or
 * "statements.1.member."). */
void pql_statement_violations (DdbViolations *v, json_t *stmt, const char *prefix);

/* The parameters of a statement (Parameters member, NULL when absent) as values. */
gboolean pql_parameters (json_t *params, GPtrArray **out, GError **error);

/* Runs a write request as its operation (PutItem, UpdateItem, DeleteItem); an INSERT whose key
 * exists is a DuplicateItemException. */
json_t *pql_run_write (DdbEngine *e, const DdbPqlStatement *s, const char *op, json_t *request,
                       json_t **extra, GError **error);

/* An error of an expression as the PartiQL statement's: without the "Invalid
 * ConditionExpression: " (or Filter, KeyCondition) the operation puts before it. */
void pql_error_unprefix (GError **error);

/* Sums the numbers of `add` into `into` (ConsumedCapacity objects of the same table). */
void pql_capacity_add (json_t *into, json_t *add);

/* read-ops.c: a Query or Scan whose filter may name key attributes, as a PartiQL WHERE may. */
json_t *ddb_read_partiql (DdbEngine *e, json_t *req, gboolean is_query, GError **error);

G_END_DECLS
