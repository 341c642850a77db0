/* expr-parser-private.h: what the expression parser's files share: its parse tree (token
 * positions and unresolved placeholders kept), the parser's state, the function table and the
 * helpers of expr-parse-tree.c (tokens, errors, nodes, building the public tree), the checks of
 * expr-check.c, used by the grammar and entry points of expr-parser.c. */
#pragma once

#include "core/expr-lexer.h"
#include "core/expr.h"

G_BEGIN_DECLS

/* Nesting of parentheses and function calls. No valid expression of 4 KB comes near it; it
 * only bounds the recursion on hostile input. */
#define MAX_DEPTH 1000

struct _DdbExprContext {
  GHashTable *names;      /* borrowed: "#n" -> char* */
  GHashTable *values;     /* borrowed: ":v" -> DdbValue* */
  GHashTable *used_names; /* set of keys borrowed from `names` */
  GHashTable *used_values;
};

/* ---- Parse tree (private; keeps token positions and unresolved placeholders) ------------ */

typedef enum {
  P_PATH,
  P_VALUE,
  P_CALL,
  P_PAREN,
  P_CMP,
  P_BETWEEN,
  P_IN,
  P_AND,
  P_OR,
  P_NOT,
  P_ARITH,
} PKind;

typedef struct {
  guint tok;
  gboolean is_index;
  gboolean index_ok; /* index within 0..2^31-1 */
  guint32 index;
  const char *resolved; /* name after placeholder substitution (borrowed) */
} PPart;

typedef struct _PNode PNode;
struct _PNode {
  PKind kind;
  guint tok;             /* operator, function name, value, open parenthesis or first path token */
  DdbNodeKind op;        /* P_CMP: DDB_NODE_EQ..GE; P_ARITH: DDB_NODE_PLUS/MINUS */
  gboolean as_condition; /* P_CALL written where a condition is expected */
  guint n_args;
  PNode **args;
  guint n_parts;
  PPart *parts;
};

typedef struct {
  DdbUpdateKind kind;
  PNode *path;
  PNode *value; /* NULL for REMOVE */
} PAction;

typedef struct {
  DdbUpdateKind kind;
  guint tok;
  guint first; /* index into the actions array */
  guint n;
} PClause;

typedef struct {
  DdbExprType type;
  const char *text;
  gsize len;
  DdbToken *toks;
  guint n_toks;
  guint pos;
  guint err_at;   /* token where the furthest syntax error of the current attempt lies */
  gboolean fatal; /* *error is set: stop, no backtracking */
  GError **error;
  GError *local_error;
  GPtrArray *arena; /* every allocation of the parse tree */
  guint depth;
  DdbExprContext *ctx;
} Parser;

/* ---- Functions -------------------------------------------------------------------------- */

typedef enum {
  FN_CONDITION, /* a condition by itself */
  FN_OPERAND,   /* an operand of a condition (size) */
  FN_UPDATE,    /* an operand of SET */
} FnClass;

typedef struct {
  const char *name;
  guint n_args;
  FnClass cls;
  DdbNodeKind kind;
} EpFunction;

/* DynamoDB's functions, by name: their arity, where they may be written, their node. */
extern const EpFunction ep_functions[];
extern const guint ep_n_functions;

/* ---- Tokens, errors, nodes and the public tree (expr-parse-tree.c) ---- */
guint ep_advance (Parser *p);
gpointer ep_arena_alloc (Parser *p, gsize size);
gboolean ep_enter (Parser *p);
gboolean ep_expect (Parser *p, DdbTokenKind kind, guint *out);
gpointer ep_fail (Parser *p);
gpointer ep_fatal (Parser *p, const char *fmt, ...) G_GNUC_PRINTF (2, 3);
PNode *ep_new_node (Parser *p, PKind kind, guint tok);
PNode *ep_node2 (Parser *p, PKind kind, guint tok, PNode *a, PNode *b);
DdbTokenKind ep_peek (Parser *p);
DdbTokenKind ep_peek_at (Parser *p, guint ahead);
void ep_set_args (Parser *p, PNode *n, GPtrArray *args);
void ep_syntax_error (Parser *p, guint at);
char *ep_tok_dup (Parser *p, guint i);
gboolean ep_tok_is (Parser *p, guint i, const char *word);
DdbTokenKind ep_tok_kind (Parser *p, guint i);
guint ep_tok_len (Parser *p, guint i);
const char *ep_tok_ptr (Parser *p, guint i);
PNode *ep_unwrap (PNode *n);
DdbNode *ep_build (Parser *p, PNode *n);
void ep_build_path (PNode *n, DdbPath *out);

/* ---- Checks (expr-check.c) ---- */
gboolean ep_check_operator_count (Parser *p, guint count);
gboolean ep_check_overlaps (Parser *p, PNode **paths, guint n);
gboolean ep_check_path_use (Parser *p, PNode *n);
gboolean ep_check_resolved (Parser *p, PNode *n);
gboolean ep_check_written (Parser *p, PNode *n, gboolean want_condition);
guint ep_count_operators (Parser *p, PNode *n);
gint ep_find_function (Parser *p, guint tok);
gboolean ep_resolve_names_only (Parser *p, PNode *n);
gboolean ep_resolve_path (Parser *p, PNode *n);
gboolean ep_static_type (Parser *p, PNode *n, DdbType *out);
const DdbValue *ep_value_of (Parser *p, PNode *n);

G_END_DECLS
