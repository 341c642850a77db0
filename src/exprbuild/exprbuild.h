/* exprbuild.h: the expression builder's model, GTK-free: one request being built (key condition,
 * condition tree, projection, update actions) as rows, rendered to expression text with readable,
 * collision-free placeholders, and loaded back from a pasted request. The app's builder dialog is
 * a thin face on it.
 *
 * Rows reuse core's trees: a path is a DdbPath, a test (comparison, BETWEEN, IN, function) and an
 * operand are DdbNode trees (core/expr.h), values are DdbValue. What rows cannot hold is kept as a
 * DdbEbRaw: validated expression text with its own placeholder maps, never dropped.
 *
 * Placeholders (ddb_eb_render):
 *  - Every attribute name in a path (at every level) goes through a #placeholder. With the
 *    model's `bare_names` a name that is a plain identifier (a letter, then letters, digits, '_')
 *    and not a reserved word is written bare; reserved words (Status, name, size) and any other
 *    name (order-id, a.b) are always placeholdered.
 *  - A name's alias is '#' and the lowercase initials of its words (ddb_eb_initials): words are
 *    split at camelCase and PascalCase humps and at anything that is not an ASCII letter or digit
 *    (snake_case, kebab-case, spaces, dots), so EntityRef -> #er, Detail -> #d,
 *    authorName -> #an, order-id -> #oi; a name without such initials gets #a. One alias per
 *    distinct name; a later name with the same initials gets a digit suffix: #d, #d2, #d3.
 *  - A value's alias comes from where it is used: in a comparison with a path (or size(path)),
 *    in IN, contains() and the partition key's =, the alias of that path's last name without
 *    its '#' (:er); begins_with :p; BETWEEN :lo and :hi; attribute_type :t; a value in an update
 *    action the alias of the path the action sets (SET, ADD, DELETE; also inside +, -,
 *    if_not_exists and list_append); anything else :v.
 *    The guarded change: in an UpdateItem, a path that the update SETs to a plain value and that
 *    the condition compares with a value gets :old in the condition and :new in the SET
 *    (`SET #an = :new` with `#an = :old`); the second such path, in the order the update sets
 *    them, gets :old2 / :new2, and so on.
 *    A value node that carries a written placeholder (it came from parsed text, as raw parts do)
 *    keeps that name as its base.
 *  - Two uses of one base share a placeholder only when their values are the same (same type,
 *    same DynamoDB JSON); otherwise the later one gets a digit suffix (:er, :er2). A suffix is
 *    always one that no other placeholder of the request has.
 *
 * Paths as people type them (ddb_eb_path_parse): names separated by '.', list indexes as [2];
 * a name that is empty, holds . [ ] " \ or a control character, or starts or ends with a space
 * is written as a JSON string: a."x.y"[0] (ddbjson.h's convention for attribute paths). */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "core/expr.h"
#include "core/value.h"

G_BEGIN_DECLS

typedef enum {
  DDB_EB_QUERY,
  DDB_EB_SCAN,
  DDB_EB_GET_ITEM,
  DDB_EB_PUT_ITEM,
  DDB_EB_UPDATE_ITEM,
  DDB_EB_DELETE_ITEM,
} DdbEbOperation;

/* "Query", "Scan", "GetItem", ... as in X-Amz-Target. */
const char *ddb_eb_operation_name (DdbEbOperation operation);
gboolean ddb_eb_operation_from_name (const char *name, DdbEbOperation *out);

/* ---- Values as people type them (eb-value.c) ------------------------------------------- */

/* S as is (empty allowed); N exactly (38 digits, 1E-130 .. 9.9..E+125, core's number parser);
 * B as strict base64; BOOL true or false; NULL empty or null; M, L, SS, NS, BS as DynamoDB JSON
 * ({"SS": ["a"]}, {"a": {"S": "x"}} for M, [{"S": "x"}] for L) or as plain JSON (tagged forms of
 * docs/plain-json.md included), a JSON array for a set (["a", "b"], [1, 2] or ["1"],
 * base64 strings). Text that reads as DynamoDB JSON is taken as DynamoDB JSON. Outside S,
 * surrounding whitespace is ignored. Errors (DDB_ERROR_VALIDATION) are for people and name what
 * is wrong, e.g. "Element 2 of the string set is a number, not a string". */
DdbValue *ddb_eb_value_from_text (DdbType type, const char *text, GError **error);
/* Text that ddb_eb_value_from_text (value's type) reads back as an equal value: M and L as plain
 * JSON when that reads back the same, else as DynamoDB JSON; sets as JSON arrays. An S holding
 * U+0000 is returned whole, but C text ends at the first U+0000. */
char *ddb_eb_value_to_text (const DdbValue *value);
/* Whether a text entry can hold VALUE's text: not an S holding U+0000 (every other text escapes
 * it, as JSON), which an entry would cut short. Such a value is kept in a raw part instead. */
gboolean ddb_eb_value_typeable (const DdbValue *value);
/* The same for every value under NODE. */
gboolean ddb_eb_node_typeable (const DdbNode *node);

/* ---- Paths (eb-path.c) ----------------------------------------------------------------- */

/* Fills OUT (clear it with ddb_path_clear). Errors name the character where reading stopped. */
gboolean ddb_eb_path_parse (const char *text, DdbPath *out, GError **error);
/* The same, except that text exactly equal to one of KNOWN (NULL-terminated: the table's key
 * attributes and the attributes seen in results) is that single top-level name, so order-id or
 * a.b typed as is is never mistaken for a path. */
gboolean ddb_eb_path_parse_known (const char *text, const char *const *known, DdbPath *out,
                                  GError **error);
/* The text ddb_eb_path_parse reads back as PATH. */
char *ddb_eb_path_to_text (const DdbPath *path);
gboolean ddb_eb_path_equal (const DdbPath *a, const DdbPath *b);
/* A path of one name. */
void ddb_eb_path_init_name (DdbPath *out, const char *name);

/* The alias base of a name: the lowercase initials of its words ("EntityRef" -> "er"), "a"
 * when it has none. */
char *ddb_eb_initials (const char *name);

/* ---- Tests and operands: core's DdbNode (eb-node.c) ------------------------------------ */

DdbNode *ddb_eb_node_path (const DdbPath *path); /* copies PATH */
DdbNode *ddb_eb_node_value (DdbValue *value);    /* takes VALUE */
/* Any other node from N_ARGS nodes (taken), e.g. (DDB_NODE_EQ, 2, a, b),
 * (DDB_NODE_SIZE, 1, path), (DDB_NODE_BETWEEN, 3, x, lo, hi),
 * (DDB_NODE_ATTRIBUTE_EXISTS, 1, path), (DDB_NODE_IF_NOT_EXISTS, 2, path, value). */
DdbNode *ddb_eb_node_new (DdbNodeKind kind, guint n_args, ...);
/* The same with the nodes in an array (the nodes are taken, the array is not): IN's subject
 * followed by up to 100 operands. */
DdbNode *ddb_eb_node_newv (DdbNodeKind kind, guint n_args, DdbNode **args);
/* attribute_type(path, :t) with TYPE's name as the value. */
DdbNode *ddb_eb_node_attribute_type (const DdbPath *path, DdbType type);
DdbNode *ddb_eb_node_copy (const DdbNode *node);
/* Same shape, paths and values (numbers numerically); written placeholders aside. */
gboolean ddb_eb_node_equal (const DdbNode *a, const DdbNode *b);

/* What a SET action's operand is, as the builder's rows show it. */
typedef enum {
  DDB_EB_SET_VALUE,         /* path = :v */
  DDB_EB_SET_PATH,          /* path = other.path */
  DDB_EB_SET_PLUS,          /* path = a + :v, a a path or if_not_exists(path, :v) */
  DDB_EB_SET_MINUS,         /* path = a - :v, the same */
  DDB_EB_SET_IF_NOT_EXISTS, /* path = if_not_exists(path, :v) */
  DDB_EB_SET_LIST_APPEND,   /* path = list_append(path, :v) or list_append(:v, path) */
  DDB_EB_SET_OTHER,         /* anything else: loading keeps such an action as raw text */
} DdbEbSetForm;

DdbEbSetForm ddb_eb_set_form (const DdbNode *operand);

/* ---- Raw parts (eb-raw.c) -------------------------------------------------------------- */

/* REQUEST's ExpressionAttributeNames ("#n" -> char*) and ExpressionAttributeValues (":v" ->
 * DdbValue*) as core's parser takes them (ddb_expr_context_new), the maps checked as DynamoDB
 * checks them; a map the request lacks is NULL. */
gboolean ddb_eb_read_maps (json_t *request, GHashTable **names, GHashTable **values,
                           GError **error);

typedef struct {
  DdbExprType type;   /* CONDITION or FILTER: a condition; KEY_CONDITION; UPDATE: clauses */
  char *text;         /* as given */
  GHashTable *names;  /* "#n" -> char*: the ones TEXT uses */
  GHashTable *values; /* ":v" -> DdbValue*: the ones TEXT uses */
} DdbEbRaw;

/* Validates TEXT with core's parser against NAMES and VALUES (JSON objects as in a request's
 * ExpressionAttributeNames/Values, either may be NULL; placeholders TEXT does not use are left
 * out, so the model's whole maps may be passed). The error is the parser's (DynamoDB's words). */
DdbEbRaw *ddb_eb_raw_new (DdbExprType type, const char *text, json_t *names, json_t *values,
                          GError **error);
void ddb_eb_raw_free (DdbEbRaw *raw);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbEbRaw, ddb_eb_raw_free)

/* ---- The condition tree (eb-model.c) --------------------------------------------------- */

typedef enum {
  DDB_EB_AND,  /* all children */
  DDB_EB_OR,   /* any child */
  DDB_EB_NOT,  /* not (all children): normally one */
  DDB_EB_TEST, /* NODE */
  DDB_EB_RAW,  /* RAW, a condition */
} DdbEbCondKind;

typedef struct _DdbEbCond DdbEbCond;
struct _DdbEbCond {
  DdbEbCondKind kind;
  GPtrArray *children; /* AND, OR, NOT: DdbEbCond*, owned; a group without children is left out */
  DdbNode *node;       /* TEST: a comparison (= <> < <= > >=), BETWEEN, IN, attribute_exists,
                        * attribute_not_exists, attribute_type, begins_with or contains over
                        * PATH, VALUE and SIZE operands */
  DdbEbRaw *raw;       /* RAW */
};

DdbEbCond *ddb_eb_cond_new_group (DdbEbCondKind kind);
DdbEbCond *ddb_eb_cond_new_test (DdbNode *node); /* takes NODE */
DdbEbCond *ddb_eb_cond_new_raw (DdbEbRaw *raw);  /* takes RAW */
/* Appends CHILD (taken) to GROUP; returns CHILD. */
DdbEbCond *ddb_eb_cond_add (DdbEbCond *group, DdbEbCond *child);
void ddb_eb_cond_free (DdbEbCond *cond);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbEbCond, ddb_eb_cond_free)

/* ---- Update actions -------------------------------------------------------------------- */

typedef struct {
  DdbUpdateKind kind;
  DdbPath path;
  DdbNode *operand; /* SET: any DdbEbSetForm; ADD, DELETE: a VALUE; REMOVE: NULL */
  DdbEbRaw *raw;    /* non-NULL: update clauses kept as text (the fields above are unused) */
} DdbEbAction;

/* Copies PATH, takes OPERAND. */
DdbEbAction *ddb_eb_action_new (DdbUpdateKind kind, const DdbPath *path, DdbNode *operand);
DdbEbAction *ddb_eb_action_new_raw (DdbEbRaw *raw); /* takes RAW, of type UPDATE */
void ddb_eb_action_free (DdbEbAction *action);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbEbAction, ddb_eb_action_free)

/* ---- The model ------------------------------------------------------------------------- */

/* What each operation renders: Query the key condition, condition (as FilterExpression) and
 * projection; Scan condition (FilterExpression) and projection; GetItem projection; PutItem and
 * DeleteItem condition (ConditionExpression); UpdateItem actions and condition. Parts an
 * operation does not use stay in the model, unrendered, so switching back loses nothing.
 * The fields may be read and changed directly; the setters below keep ownership simple. */
typedef struct {
  DdbEbOperation operation;
  gboolean bare_names;

  /* The table's key attributes (may be NULL): tell the partition key from the sort key when a
   * key condition is loaded. */
  char *schema_pk;
  char *schema_sk;

  /* Query's key condition: partition key = value, and optionally the sort key. */
  char *pk_name;
  DdbValue *pk_value;
  char *sk_name;
  DdbSortKeyOp sk_op;
  DdbValue *sk_values[2]; /* [1] only for BETWEEN */
  DdbEbRaw *key_raw;      /* non-NULL: the key condition as text, in place of the fields above */

  DdbEbCond *condition; /* a group (AND, OR or NOT), never NULL */
  GArray *projection;   /* DdbPath */
  GPtrArray *actions;   /* DdbEbAction*, in order */
} DdbEbModel;

DdbEbModel *ddb_eb_model_new (DdbEbOperation operation);
void ddb_eb_model_free (DdbEbModel *model);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbEbModel, ddb_eb_model_free)
/* Removes every row; keeps the operation, bare_names and the key schema. */
void ddb_eb_model_clear (DdbEbModel *model);

void ddb_eb_model_set_key_schema (DdbEbModel *model, const char *pk, const char *sk);
/* VALUE is taken. */
void ddb_eb_model_set_partition_key (DdbEbModel *model, const char *name, DdbValue *value);
/* OP DDB_SK_NONE drops the sort key condition; VALUE2 only for BETWEEN. Values are taken. */
void ddb_eb_model_set_sort_key (DdbEbModel *model, const char *name, DdbSortKeyOp op,
                                DdbValue *value, DdbValue *value2);
/* Replaces the key rows with RAW (taken, type KEY_CONDITION). */
void ddb_eb_model_set_key_raw (DdbEbModel *model, DdbEbRaw *raw);
void ddb_eb_model_add_projection (DdbEbModel *model, const DdbPath *path);
/* Takes ACTION; returns it. */
DdbEbAction *ddb_eb_model_add_action (DdbEbModel *model, DdbEbAction *action);

/* ---- Rendering (eb-render.c) ----------------------------------------------------------- */

/* Writes the operation's expressions into REQUEST (a JSON object; other members are left as
 * they are): KeyConditionExpression, FilterExpression or ConditionExpression,
 * ProjectionExpression, UpdateExpression, ExpressionAttributeNames and
 * ExpressionAttributeValues (DynamoDB JSON), removing those it does not write, so no unused
 * placeholder is ever sent. Everything written has been parsed back with core's parser and
 * passed ddb_expr_context_check_unused. Fails, leaving REQUEST untouched, when the model is
 * incomplete (a Query without its partition key value, a SET without a value; our words) or
 * builds something DynamoDB refuses (the parser's words, e.g. begins_with on a number). */
gboolean ddb_eb_render (const DdbEbModel *model, json_t *request, GError **error);

/* Live validation: parses TEXT as an expression of TYPE with the placeholders the model renders
 * now (none if it cannot render), without the unused check. The error is the parser's. */
gboolean ddb_eb_validate_text (const DdbEbModel *model, DdbExprType type, const char *text,
                               GError **error);

/* ---- Loading (eb-load.c) --------------------------------------------------------------- */

/* Fills MODEL's rows (replacing them; operation becomes OPERATION) from a pasted request: its
 * expressions parsed with core's parser as DynamoDB would (errors in DynamoDB's words, unused
 * placeholders refused), then turned into rows; a key condition or SET action that rows cannot
 * hold becomes a raw part. Refuses expression members OPERATION does not take and the legacy
 * parameters (KeyConditions, QueryFilter, ScanFilter, AttributesToGet, Expected,
 * AttributeUpdates, ConditionalOperator). On failure MODEL is unchanged. */
gboolean ddb_eb_load (DdbEbModel *model, DdbEbOperation operation, json_t *request, GError **error);
/* One expression with its maps (JSON objects, either may be NULL; placeholders it does not use
 * are ignored): replaces the part of TYPE (FILTER and CONDITION both fill the condition). */
gboolean ddb_eb_load_expression (DdbEbModel *model, DdbExprType type, const char *text,
                                 json_t *names, json_t *values, GError **error);

G_END_DECLS
