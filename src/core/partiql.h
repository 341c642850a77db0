/* partiql.h: the PartiQL statements DynamoDB accepts (SELECT, INSERT, UPDATE, DELETE, and EXISTS
 * inside transactions), parsed into the syntax tree of DynamoDB's expression language (expr.h)
 * with the statement's `?` parameters and literals resolved into values, so that the engine can
 * run a statement as the GetItem, Query, Scan or write it stands for. */
#pragma once

#include <glib.h>

#include "core/expr.h"
#include "core/value.h"

G_BEGIN_DECLS

typedef enum {
  DDB_PQL_SELECT,
  DDB_PQL_INSERT,
  DDB_PQL_UPDATE,
  DDB_PQL_DELETE,
  DDB_PQL_EXISTS, /* EXISTS(SELECT ...): a condition check, in ExecuteTransaction only */
} DdbPqlKind;

typedef enum {
  DDB_PQL_RETURN_NONE,
  DDB_PQL_RETURN_ALL_OLD,      /* RETURNING ALL OLD * */
  DDB_PQL_RETURN_MODIFIED_OLD, /* RETURNING MODIFIED OLD * */
  DDB_PQL_RETURN_ALL_NEW,
  DDB_PQL_RETURN_MODIFIED_NEW,
} DdbPqlReturning;

typedef struct {
  DdbPqlKind kind;
  char *table;
  char *index; /* "table"."index", or NULL */
  /* SELECT and EXISTS: the projected paths, NULL for `*`. */
  DdbProjection *projection;
  /* WHERE, NULL when absent. Values are resolved: literals and parameters alike. */
  DdbNode *where;
  /* ORDER BY: attribute names (top-level paths only make sense: keys), and the direction. */
  GPtrArray *order_by; /* of char*, NULL when absent */
  gboolean descending;
  /* INSERT: the item (a map). */
  DdbValue *item;
  /* UPDATE: its SET and REMOVE clauses in order; set_add/set_delete are ADD/DELETE actions. */
  DdbUpdate *update;
  DdbPqlReturning returning;
} DdbPqlStatement;

void ddb_pql_statement_free (DdbPqlStatement *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbPqlStatement, ddb_pql_statement_free)

/* Parses `text` (`len` bytes, -1: NUL-terminated; a string literal may hold U+0000) with `params`
 * (n_params values, borrowed, copied into the tree) for its `?`s. Errors are DDB_ERROR_VALIDATION
 * with DynamoDB's messages: "Statement wasn't well formed, can't be processed: <text>" for a syntax
 * error, "Number of parameters in request and statement don't match.", "Empty bags are not
 * supported", ... */
DdbPqlStatement *ddb_pql_parse (const char *text, gssize len, DdbValue *const *params,
                                guint n_params, GError **error);

/* The first keyword of `text` is SELECT (any case, after blanks and comments): a read. */
gboolean ddb_pql_is_select (const char *text);

/* The name of a projected path: the last attribute name of the path with the list indexes after
 * it ("v.b[1]" -> "b[1]", "v.b" -> "b"). Two paths of a SELECT may not have one name; the
 * attribute of a SELECT's item is that of the path or of a prefix of it, ending at a list index
 * (see pql_project). Newly allocated. */
char *ddb_pql_result_name (const DdbPath *path);

G_END_DECLS
