/* expr.h: DynamoDB's expression language: the syntax tree shared by the parser (expr-parser.c),
 * the evaluator (expr-eval.c) and update application (expr-update.c).
 * Placeholders are resolved at parse time: paths hold real attribute names and value operands
 * hold copies of the ExpressionAttributeValues, so evaluation never looks at the request. */
#pragma once

#include <glib.h>

#include "core/value.h"

G_BEGIN_DECLS

/* Which expression a text is; it names the expression in error messages
 * ("Invalid ConditionExpression: ..."). */
typedef enum {
  DDB_EXPR_CONDITION,
  DDB_EXPR_FILTER,
  DDB_EXPR_KEY_CONDITION,
  DDB_EXPR_PROJECTION,
  DDB_EXPR_UPDATE,
} DdbExprType;

const char *ddb_expr_type_name (DdbExprType type); /* "ConditionExpression", ... */

#define DDB_EXPR_MAX_BYTES 4096
#define DDB_EXPR_MAX_OPERATORS 300
#define DDB_EXPR_MAX_IN_OPERANDS 100

/* ---- Document paths ------------------------------------------------------------------- */

typedef struct {
  char *name;    /* attribute or map key (UTF-8); NULL for a list index */
  guint32 index; /* list index when name == NULL */
} DdbPathElem;

typedef struct {
  guint n;
  DdbPathElem *elems; /* elems[0] is always a name */
} DdbPath;

void ddb_path_clear (DdbPath *p);
void ddb_path_copy (DdbPath *dst, const DdbPath *src);
/* "a.b[2].c" with names as written (no escaping); newly allocated. */
char *ddb_path_to_string (const DdbPath *p);
/* The value at `p` inside `item` (a map), or NULL when any step is missing or of the wrong
 * type. Borrowed. */
DdbValue *ddb_path_lookup (const DdbValue *item, const DdbPath *p);

/* ---- Syntax tree ----------------------------------------------------------------------- */

typedef enum {
  /* operands */
  DDB_NODE_PATH,  /* path */
  DDB_NODE_VALUE, /* value (from :placeholder) */
  DDB_NODE_SIZE,  /* size(args[0]) */
  /* operands of SET only */
  DDB_NODE_PLUS,          /* args[0] + args[1] */
  DDB_NODE_MINUS,         /* args[0] - args[1] */
  DDB_NODE_IF_NOT_EXISTS, /* if_not_exists(args[0] (a PATH), args[1]) */
  DDB_NODE_LIST_APPEND,   /* list_append(args[0], args[1]) */
  /* conditions */
  DDB_NODE_EQ, /* args[0] = args[1] */
  DDB_NODE_NE, /* <> */
  DDB_NODE_LT,
  DDB_NODE_LE,
  DDB_NODE_GT,
  DDB_NODE_GE,
  DDB_NODE_BETWEEN, /* args[0] BETWEEN args[1] AND args[2] */
  DDB_NODE_IN,      /* args[0] IN (args[1], ..., args[n_args-1]) */
  DDB_NODE_AND,     /* args[0] AND args[1] */
  DDB_NODE_OR,
  DDB_NODE_NOT,                  /* NOT args[0] */
  DDB_NODE_ATTRIBUTE_EXISTS,     /* attribute_exists(args[0] (a PATH)) */
  DDB_NODE_ATTRIBUTE_NOT_EXISTS, /* attribute_not_exists(args[0] (a PATH)) */
  DDB_NODE_ATTRIBUTE_TYPE,       /* attribute_type(args[0] (a PATH or a VALUE), args[1] (a VALUE of type S)) */
  DDB_NODE_BEGINS_WITH,          /* begins_with(args[0], args[1]) */
  DDB_NODE_CONTAINS,             /* contains(args[0], args[1]) */
} DdbNodeKind;

typedef struct _DdbNode DdbNode;
struct _DdbNode {
  DdbNodeKind kind;
  guint n_args;
  DdbNode **args;
  DdbPath path;      /* DDB_NODE_PATH */
  DdbValue *value;   /* DDB_NODE_VALUE (owned copy) */
  char *placeholder; /* DDB_NODE_VALUE: ":v" as written, for messages */
};

/* A node of KIND with N_ARGS empty argument slots (args is never NULL, so filling it needs no
 * check). */
DdbNode *ddb_node_new (DdbNodeKind kind, guint n_args);
/* A node of KIND over A and B, taking ownership of both. */
DdbNode *ddb_node_new_binary (DdbNodeKind kind, DdbNode *a, DdbNode *b);
/* A DDB_NODE_VALUE node, taking ownership of V; PLACEHOLDER (may be NULL) is copied. */
DdbNode *ddb_node_new_value (DdbValue *v, const char *placeholder);
void ddb_node_free (DdbNode *node);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbNode, ddb_node_free)

/* ---- Update expressions ---------------------------------------------------------------- */

typedef enum {
  DDB_UPDATE_SET,    /* path = operand */
  DDB_UPDATE_REMOVE, /* path */
  DDB_UPDATE_ADD,    /* path operand(VALUE) */
  DDB_UPDATE_DELETE, /* path operand(VALUE) */
} DdbUpdateKind;

typedef struct {
  DdbUpdateKind kind;
  DdbPath path;
  DdbNode *operand; /* NULL for REMOVE */
} DdbUpdateAction;

typedef struct {
  guint n_actions;
  DdbUpdateAction *actions; /* in the order written */
  gboolean legacy;          /* from AttributeUpdates: a type mismatch is told in its words */
} DdbUpdate;

void ddb_update_free (DdbUpdate *u);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbUpdate, ddb_update_free)

/* ---- Projection expressions ------------------------------------------------------------ */

typedef struct {
  guint n_paths;
  DdbPath *paths;
} DdbProjection;

void ddb_projection_free (DdbProjection *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbProjection, ddb_projection_free)

/* ---- Parsing (expr-parser.c) ----------------------------------------------------------- */

/* The placeholders of one request: all its expressions share them, and DynamoDB refuses a
 * request in which a placeholder is defined but used by none of them. */
typedef struct _DdbExprContext DdbExprContext;

/* `names`: "#n" -> attribute name (char*), `values`: ":v" -> DdbValue*; either may be NULL
 * (absent from the request). Both are borrowed and must outlive the context. */
DdbExprContext *ddb_expr_context_new (GHashTable *names, GHashTable *values);
void ddb_expr_context_free (DdbExprContext *ctx);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbExprContext, ddb_expr_context_free)

/* After every expression of the request was parsed: fails with DynamoDB's
 * "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}" or the
 * ExpressionAttributeValues one. */
gboolean ddb_expr_context_check_unused (DdbExprContext *ctx, GError **error);

/* Condition, filter and key-condition expressions. `type` names the expression in errors. */
DdbNode *ddb_condition_parse (DdbExprType type, const char *text, DdbExprContext *ctx,
                              GError **error);
DdbUpdate *ddb_update_parse (const char *text, DdbExprContext *ctx, GError **error);
DdbProjection *ddb_projection_parse (const char *text, DdbExprContext *ctx, GError **error);

/* TRUE if KEY is a placeholder of the form SIGIL ('#' or ':') followed by one or more ASCII
 * letters, digits or '_', as ExpressionAttributeNames / ExpressionAttributeValues keys must be. */
gboolean ddb_expr_placeholder_valid (const char *key, char sigil);

/* The operator of a comparison or of SET's arithmetic as written: "=", "<>", "<", "<=", ">",
 * ">=", "+", "-"; NULL for any other kind. */
const char *ddb_node_kind_operator (DdbNodeKind kind);

/* TRUE if `word` (any case) is one of DynamoDB's reserved words. */
gboolean ddb_is_reserved_word (const char *word, gsize len);

/* ---- Evaluation (expr-eval.c) ---------------------------------------------------------- */

/* Evaluates a condition against `item` (a map; NULL means the item does not exist, as for a
 * conditional put of a new item). Type mismatches make a comparison false, never an error. */
gboolean ddb_condition_eval (const DdbNode *cond, const DdbValue *item, gboolean *result,
                             GError **error);

/* A new item holding only the projected paths of `item`, nested as in the original (list
 * elements picked by index are compacted in index order, as DynamoDB returns them). */
DdbValue *ddb_projection_apply (const DdbProjection *p, const DdbValue *item);

/* ---- Update application (expr-update.c) ------------------------------------------------ */

/* Applies `u` to `item` (a map, modified in place; an empty map for an item that does not exist
 * yet). On error the item is left unchanged. Errors carry DynamoDB's messages, e.g.
 * "The provided expression refers to an attribute that does not exist in the item" and
 * "The document path provided in the update expression is invalid for update". */
gboolean ddb_update_apply (const DdbUpdate *u, DdbValue *item, GError **error);

/* The paths `u` touches, as a projection for ReturnValues UPDATED_OLD (`after` FALSE: the paths
 * as written, to pick from the old item) or UPDATED_NEW (`after` TRUE: REMOVEd paths left out,
 * and a list index moved to where the element sits in the new item, given `old_item` (NULL for
 * an item that did not exist): a SET past a list's end lands at its end, so that is where it is
 * returned from, and a REMOVE of an earlier element shifts it down). */
DdbProjection *ddb_update_touched_paths (const DdbUpdate *u, const DdbValue *old_item,
                                         gboolean after);

/* ---- Key conditions (keycond.c) -------------------------------------------------------- */

typedef enum {
  DDB_SK_NONE, /* no sort-key condition */
  DDB_SK_EQ,
  DDB_SK_LT,
  DDB_SK_LE,
  DDB_SK_GT,
  DDB_SK_GE,
  DDB_SK_BETWEEN,
  DDB_SK_BEGINS_WITH,
} DdbSortKeyOp;

typedef struct {
  const char *pk_name; /* partition key attribute */
  DdbType pk_type;     /* S, N or B */
  const char *sk_name; /* sort key attribute or NULL */
  DdbType sk_type;
} DdbKeySchema;

typedef struct {
  DdbValue *pk; /* owned */
  DdbSortKeyOp sk_op;
  DdbValue *sk[2]; /* owned; sk[1] only for BETWEEN */
} DdbKeyCondition;

void ddb_key_condition_clear (DdbKeyCondition *kc);

/* Checks a parsed KeyConditionExpression against a key schema, as Query does: the partition key
 * by `=` only, at most one condition on the sort key (= < <= > >= BETWEEN begins_with), no other
 * attributes, operands of the key's type. Fills `out` on success. */
gboolean ddb_key_condition_analyze (const DdbNode *cond, const DdbKeySchema *schema,
                                    DdbKeyCondition *out, GError **error);

G_END_DECLS
