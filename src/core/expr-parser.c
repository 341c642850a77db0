/* expr-parser.c: recursive-descent parser for condition, key-condition, filter, update and
 * projection expressions, with DynamoDB's checks and error messages.
 *
 * Parsing happens in stages, because DynamoDB reports problems in a fixed order: first the
 * whole text must parse (syntax errors, redundant parentheses), then the operator count, then
 * a pass in written order over reserved words, list indexes and function names and places, then
 * a pass resolving placeholders and checking the operand types it can know from the values.
 * Only then is the DdbNode tree of expr.h built, so it holds real names and copied values. */
#include "core/expr.h"

#include <string.h>

#include "core/error.h"
#include "core/expr-lexer.h"

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

static const struct {
  const char *name;
  guint n_args;
  FnClass cls;
  DdbNodeKind kind;
} functions[] = {
  { "attribute_exists", 1, FN_CONDITION, DDB_NODE_ATTRIBUTE_EXISTS },
  { "attribute_not_exists", 1, FN_CONDITION, DDB_NODE_ATTRIBUTE_NOT_EXISTS },
  { "attribute_type", 2, FN_CONDITION, DDB_NODE_ATTRIBUTE_TYPE },
  { "begins_with", 2, FN_CONDITION, DDB_NODE_BEGINS_WITH },
  { "contains", 2, FN_CONDITION, DDB_NODE_CONTAINS },
  { "size", 1, FN_OPERAND, DDB_NODE_SIZE },
  { "if_not_exists", 2, FN_UPDATE, DDB_NODE_IF_NOT_EXISTS },
  { "list_append", 2, FN_UPDATE, DDB_NODE_LIST_APPEND },
};

/* ---- Small helpers ---------------------------------------------------------------------- */

static gpointer
arena_alloc (Parser *p, gsize size)
{
  gpointer mem = g_malloc0 (size);

  g_ptr_array_add (p->arena, mem);
  return mem;
}

static const char *
tok_ptr (Parser *p, guint i)
{
  return p->text + p->toks[i].start;
}

static guint
tok_len (Parser *p, guint i)
{
  return p->toks[i].len;
}

static DdbTokenKind
tok_kind (Parser *p, guint i)
{
  return p->toks[MIN (i, p->n_toks - 1)].kind;
}

/* A NUL-terminated copy of a token's text, freed with the parse tree. */
static char *
tok_dup (Parser *p, guint i)
{
  char *s = g_strndup (tok_ptr (p, i), tok_len (p, i));

  g_ptr_array_add (p->arena, s);
  return s;
}

static gboolean
tok_is (Parser *p, guint i, const char *word)
{
  return strlen (word) == tok_len (p, i) && memcmp (tok_ptr (p, i), word, tok_len (p, i)) == 0;
}

static DdbTokenKind
peek (Parser *p)
{
  return tok_kind (p, p->pos);
}

static DdbTokenKind
peek_at (Parser *p, guint ahead)
{
  return tok_kind (p, p->pos + ahead);
}

static guint
advance (Parser *p)
{
  guint i = p->pos;

  if (p->pos + 1 < p->n_toks)
    p->pos++;
  return i;
}

/* Sets a non-syntax error, prefixed "Invalid <Type>Expression: " as DynamoDB does. */
G_GNUC_PRINTF (2, 3)
static gpointer
fatal (Parser *p, const char *fmt, ...)
{
  va_list ap;
  char *msg;

  if (p->fatal)
    return NULL;
  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (&p->local_error, DDB_ERROR, DDB_ERROR_VALIDATION, "Invalid %s: %s",
               ddb_expr_type_name (p->type), msg);
  g_free (msg);
  p->fatal = TRUE;
  return NULL;
}

/* DynamoDB names the token where reading stopped and shows the text from the token before it to
 * the token after it. */
static void
syntax_error (Parser *p, guint at)
{
  guint from = at > 0 ? p->toks[at - 1].start : 0;
  guint last = at + 1 < p->n_toks ? at + 1 : at;
  guint to = p->toks[last].start + p->toks[last].len;
  GString *tok = g_string_new (NULL);

  if (p->toks[at].kind == DDB_TOK_EOF)
    g_string_append (tok, "<EOF>");
  else
    g_string_append_len (tok, tok_ptr (p, at), tok_len (p, at));
  if (to < from)
    to = from;
  fatal (p, "Syntax error; token: \"%s\", near: \"%.*s\"", tok->str, (int) (to - from),
         p->text + from);
  g_string_free (tok, TRUE);
}

static gpointer
fail (Parser *p)
{
  p->err_at = p->pos;
  return NULL;
}

static gboolean
expect (Parser *p, DdbTokenKind kind, guint *out)
{
  if (peek (p) != kind)
    {
      fail (p);
      return FALSE;
    }
  if (out != NULL)
    *out = p->pos;
  advance (p);
  return TRUE;
}

static PNode *
new_node (Parser *p, PKind kind, guint tok)
{
  PNode *n = arena_alloc (p, sizeof (PNode));

  n->kind = kind;
  n->tok = tok;
  return n;
}

static void
set_args (Parser *p, PNode *n, GPtrArray *args)
{
  n->n_args = args->len;
  n->args = arena_alloc (p, sizeof (PNode *) * MAX (args->len, 1));
  if (args->len > 0)
    memcpy (n->args, args->pdata, sizeof (PNode *) * args->len);
}

static PNode *
node2 (Parser *p, PKind kind, guint tok, PNode *a, PNode *b)
{
  PNode *n = new_node (p, kind, tok);

  n->n_args = b != NULL ? 2 : 1;
  n->args = arena_alloc (p, sizeof (PNode *) * 2);
  n->args[0] = a;
  n->args[1] = b;
  return n;
}

static PNode *
unwrap (PNode *n)
{
  while (n->kind == P_PAREN)
    n = n->args[0];
  return n;
}

static gint find_function (Parser *p, guint tok);

static gboolean
enter (Parser *p)
{
  gboolean closes = FALSE;

  if (++p->depth <= MAX_DEPTH)
    return TRUE;
  /* No valid expression of 4 KB nests this deep; this only bounds the recursion on hostile
   * input. Give the error DynamoDB would most likely give: an unclosed run of parentheses is a
   * syntax error at the end, calls of an unknown function name it, and anything else deep
   * enough repeats parentheses, which DynamoDB reports as redundant. */
  for (guint i = p->pos; i < p->n_toks && !closes; i++)
    closes = p->toks[i].kind == DDB_TOK_RPAREN;
  if (!closes)
    {
      syntax_error (p, p->n_toks - 1);
      return FALSE;
    }
  for (guint i = 0; i + 1 < p->n_toks; i++)
    if (p->toks[i].kind == DDB_TOK_ID && p->toks[i + 1].kind == DDB_TOK_LPAREN
        && find_function (p, i) < 0)
      {
        fatal (p, "Invalid function name; function: %.*s", (int) tok_len (p, i), tok_ptr (p, i));
        return FALSE;
      }
  if (peek (p) == DDB_TOK_LPAREN)
    fatal (p, "The expression has redundant parentheses;");
  else
    syntax_error (p, p->pos);
  return FALSE;
}

/* ---- Grammar ---------------------------------------------------------------------------- */

static PNode *parse_condition (Parser *p);
static PNode *parse_operand (Parser *p);

/* DynamoDB refuses two parentheses straight around the same thing, and says so as soon as it
 * reads the outer one. */
static PNode *
make_paren (Parser *p, guint open, PNode *inner)
{
  PNode *n;

  if (inner->kind == P_PAREN)
    return fatal (p, "The expression has redundant parentheses;");
  n = new_node (p, P_PAREN, open);
  n->n_args = 1;
  n->args = arena_alloc (p, sizeof (PNode *));
  n->args[0] = inner;
  return n;
}

static PNode *
parse_path (Parser *p)
{
  GArray *parts;
  PPart part = { 0 };
  PNode *n;

  if (peek (p) != DDB_TOK_ID && peek (p) != DDB_TOK_NAME)
    return fail (p);
  parts = g_array_new (FALSE, TRUE, sizeof (PPart));
  n = new_node (p, P_PATH, p->pos);
  part.tok = advance (p);
  g_array_append_val (parts, part);
  for (;;)
    {
      memset (&part, 0, sizeof part);
      if (peek (p) == DDB_TOK_DOT)
        {
          advance (p);
          if (peek (p) != DDB_TOK_ID && peek (p) != DDB_TOK_NAME)
            {
              g_array_free (parts, TRUE);
              return fail (p);
            }
          part.tok = advance (p);
        }
      else if (peek (p) == DDB_TOK_LBRACKET)
        {
          guint64 v = 0;

          advance (p);
          if (!expect (p, DDB_TOK_INT, &part.tok) || !expect (p, DDB_TOK_RBRACKET, NULL))
            {
              g_array_free (parts, TRUE);
              return NULL;
            }
          part.is_index = TRUE;
          part.index_ok = tok_len (p, part.tok) <= 10;
          for (guint i = 0; part.index_ok && i < tok_len (p, part.tok); i++)
            v = v * 10 + (guint64) (tok_ptr (p, part.tok)[i] - '0');
          if (v > G_MAXINT32)
            part.index_ok = FALSE;
          part.index = (guint32) v;
        }
      else
        break;
      g_array_append_val (parts, part);
    }
  n->n_parts = parts->len;
  n->parts = arena_alloc (p, sizeof (PPart) * parts->len);
  memcpy (n->parts, parts->data, sizeof (PPart) * parts->len);
  g_array_free (parts, TRUE);
  return n;
}

/* One or more operands separated by commas, up to (not including) a closing parenthesis. */
static gboolean
parse_operand_list (Parser *p, GPtrArray *out)
{
  for (;;)
    {
      PNode *a = parse_operand (p);

      if (a == NULL)
        return FALSE;
      g_ptr_array_add (out, a);
      if (peek (p) != DDB_TOK_COMMA)
        return TRUE;
      advance (p);
    }
}

static PNode *
parse_call (Parser *p)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  PNode *n = new_node (p, P_CALL, advance (p));
  gboolean ok;

  if (!expect (p, DDB_TOK_LPAREN, NULL) || !enter (p))
    return NULL;
  ok = parse_operand_list (p, args) && expect (p, DDB_TOK_RPAREN, NULL);
  p->depth--;
  if (!ok)
    return NULL;
  set_args (p, n, args);
  return n;
}

static PNode *
parse_operand (Parser *p)
{
  switch (peek (p))
    {
    case DDB_TOK_VALUE:
      return new_node (p, P_VALUE, advance (p));
      case DDB_TOK_LPAREN: {
        guint open = advance (p);
        PNode *inner;
        gboolean ok;

        if (!enter (p))
          return NULL;
        inner = parse_operand (p);
        ok = inner != NULL && expect (p, DDB_TOK_RPAREN, NULL);
        p->depth--;
        return ok ? make_paren (p, open, inner) : NULL;
      }
    case DDB_TOK_ID:
      if (peek_at (p, 1) == DDB_TOK_LPAREN)
        return parse_call (p);
      return parse_path (p);
    case DDB_TOK_NAME:
      return parse_path (p);
    default:
      return fail (p);
    }
}

static gboolean
comparator (DdbTokenKind k, DdbNodeKind *out)
{
  switch (k)
    {
    case DDB_TOK_EQ:
      *out = DDB_NODE_EQ;
      return TRUE;
    case DDB_TOK_NE:
      *out = DDB_NODE_NE;
      return TRUE;
    case DDB_TOK_LT:
      *out = DDB_NODE_LT;
      return TRUE;
    case DDB_TOK_LE:
      *out = DDB_NODE_LE;
      return TRUE;
    case DDB_TOK_GT:
      *out = DDB_NODE_GT;
      return TRUE;
    case DDB_TOK_GE:
      *out = DDB_NODE_GE;
      return TRUE;
    default:
      return FALSE;
    }
}

/* operand comparator operand | operand BETWEEN operand AND operand | operand IN (operands)
 * | function */
static PNode *
parse_comparison (Parser *p)
{
  PNode *a = parse_operand (p);
  DdbNodeKind op;

  if (a == NULL)
    return NULL;
  if (comparator (peek (p), &op))
    {
      guint tok = advance (p);
      PNode *b = parse_operand (p);
      PNode *n;

      if (b == NULL)
        return NULL;
      n = node2 (p, P_CMP, tok, a, b);
      n->op = op;
      return n;
    }
  if (peek (p) == DDB_TOK_BETWEEN)
    {
      guint tok = advance (p);
      PNode *lo, *hi, *n;

      lo = parse_operand (p);
      if (lo == NULL || !expect (p, DDB_TOK_AND, NULL))
        return NULL;
      hi = parse_operand (p);
      if (hi == NULL)
        return NULL;
      n = new_node (p, P_BETWEEN, tok);
      n->n_args = 3;
      n->args = arena_alloc (p, sizeof (PNode *) * 3);
      n->args[0] = a;
      n->args[1] = lo;
      n->args[2] = hi;
      return n;
    }
  if (peek (p) == DDB_TOK_IN)
    {
      g_autoptr (GPtrArray) args = g_ptr_array_new ();
      guint tok = advance (p);
      PNode *n;

      g_ptr_array_add (args, a);
      if (!expect (p, DDB_TOK_LPAREN, NULL) || !parse_operand_list (p, args)
          || !expect (p, DDB_TOK_RPAREN, NULL))
        return NULL;
      n = new_node (p, P_IN, tok);
      set_args (p, n, args);
      return n;
    }
  if (a->kind == P_CALL)
    {
      a->as_condition = TRUE;
      return a;
    }
  return fail (p);
}

/* A parenthesis can open a condition, "(a = :v)", or an operand, "(a) = :v": try both and keep
 * the error of the attempt that read further, as DynamoDB's parser does. */
static PNode *
parse_primary (Parser *p)
{
  guint start = p->pos;
  guint e1;
  gboolean ok;
  PNode *n;

  if (peek (p) != DDB_TOK_LPAREN)
    return parse_comparison (p);

  advance (p);
  if (!enter (p))
    return NULL;
  n = parse_condition (p);
  ok = n != NULL && expect (p, DDB_TOK_RPAREN, NULL);
  p->depth--;
  if (ok)
    return make_paren (p, start, n);
  if (p->fatal)
    return NULL;
  e1 = p->err_at;

  p->pos = start;
  n = parse_comparison (p);
  if (n != NULL || p->fatal)
    return n;
  if (e1 > p->err_at)
    p->err_at = e1;
  return NULL;
}

static PNode *
parse_not (Parser *p)
{
  g_autoptr (GArray) nots = g_array_new (FALSE, FALSE, sizeof (guint));
  PNode *n;

  /* Iterative, so a long run of NOTs costs no stack. */
  while (peek (p) == DDB_TOK_NOT)
    {
      guint tok = advance (p);

      g_array_append_val (nots, tok);
    }
  n = parse_primary (p);
  for (guint i = nots->len; n != NULL && i > 0; i--)
    n = node2 (p, P_NOT, g_array_index (nots, guint, i - 1), n, NULL);
  return n;
}

/* One left-associative level of the condition grammar: operand (op operand)*. */
static PNode *
parse_left_assoc (Parser *p, PNode *(*operand) (Parser *p), DdbTokenKind op, PKind kind)
{
  PNode *left = operand (p);

  while (left != NULL && peek (p) == op)
    {
      guint tok = advance (p);
      PNode *right = operand (p);

      if (right == NULL)
        return NULL;
      left = node2 (p, kind, tok, left, right);
    }
  return left;
}

static PNode *
parse_and (Parser *p)
{
  return parse_left_assoc (p, parse_not, DDB_TOK_AND, P_AND);
}

static PNode *
parse_condition (Parser *p)
{
  return parse_left_assoc (p, parse_and, DDB_TOK_OR, P_OR);
}

/* SET path = operand [(+|-) operand] */
static gboolean
parse_set_action (Parser *p, PAction *act)
{
  PNode *a;

  act->path = parse_path (p);
  if (act->path == NULL || !expect (p, DDB_TOK_EQ, NULL))
    return FALSE;
  a = parse_operand (p);
  if (a == NULL)
    return FALSE;
  if (peek (p) == DDB_TOK_PLUS || peek (p) == DDB_TOK_MINUS)
    {
      gboolean plus = peek (p) == DDB_TOK_PLUS;
      guint tok = advance (p);
      PNode *b = parse_operand (p);

      if (b == NULL)
        return FALSE;
      a = node2 (p, P_ARITH, tok, a, b);
      a->op = plus ? DDB_NODE_PLUS : DDB_NODE_MINUS;
    }
  act->value = a;
  return TRUE;
}

static gboolean
parse_update_clauses (Parser *p, GArray *clauses, GArray *actions)
{
  do
    {
      PClause c = { 0 };

      switch (peek (p))
        {
        case DDB_TOK_SET:
          c.kind = DDB_UPDATE_SET;
          break;
        case DDB_TOK_REMOVE:
          c.kind = DDB_UPDATE_REMOVE;
          break;
        case DDB_TOK_ADD:
          c.kind = DDB_UPDATE_ADD;
          break;
        case DDB_TOK_DELETE:
          c.kind = DDB_UPDATE_DELETE;
          break;
        default:
          fail (p);
          return FALSE;
        }
      c.tok = advance (p);
      c.first = actions->len;
      for (;;)
        {
          PAction act = { c.kind, NULL, NULL };

          if (c.kind == DDB_UPDATE_SET)
            {
              if (!parse_set_action (p, &act))
                return FALSE;
            }
          else
            {
              act.path = parse_path (p);
              if (act.path == NULL)
                return FALSE;
              if (c.kind != DDB_UPDATE_REMOVE)
                {
                  guint v;

                  if (!expect (p, DDB_TOK_VALUE, &v))
                    return FALSE;
                  act.value = new_node (p, P_VALUE, v);
                }
            }
          g_array_append_val (actions, act);
          if (peek (p) != DDB_TOK_COMMA)
            break;
          advance (p);
        }
      c.n = actions->len - c.first;
      g_array_append_val (clauses, c);
    }
  while (peek (p) != DDB_TOK_EOF);
  return TRUE;
}

/* ---- Shared checks ---------------------------------------------------------------------- */

static gint
find_function (Parser *p, guint tok)
{
  /* Function names are case-sensitive: BEGINS_WITH is an unknown function. */
  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    if (tok_is (p, tok, functions[i].name))
      return (gint) i;
  return -1;
}

static guint
count_operators (Parser *p, PNode *n)
{
  guint c = 0;

  if (n == NULL)
    return 0;
  switch (n->kind)
    {
    case P_CMP:
    case P_BETWEEN:
    case P_IN:
    case P_AND:
    case P_OR:
    case P_NOT:
    case P_ARITH:
      c = 1;
      break;
    case P_CALL:
      /* Condition functions are not counted by DynamoDB; update functions are. */
      c = p->type == DDB_EXPR_UPDATE ? 1 : 0;
      break;
    default:
      break;
    }
  for (guint i = 0; i < n->n_args; i++)
    c += count_operators (p, n->args[i]);
  return c;
}

static gboolean
check_operator_count (Parser *p, guint count)
{
  if (count > DDB_EXPR_MAX_OPERATORS)
    {
      /* DynamoDB stops counting at the first operator over the limit. */
      fatal (p, "The expression contains too many operators; operator count: %u",
             DDB_EXPR_MAX_OPERATORS + 1);
      return FALSE;
    }
  return TRUE;
}

/* Pass 1, in written order: list indexes, reserved words, function names and places. */
static gboolean
check_written (Parser *p, PNode *n, gboolean want_condition)
{
  switch (n->kind)
    {
    case P_PATH:
      for (guint i = 0; i < n->n_parts; i++)
        {
          PPart *part = &n->parts[i];

          if (part->is_index)
            {
              if (!part->index_ok)
                {
                  fatal (p, "List index is not within the allowable range; index: [%.*s]",
                         (int) tok_len (p, part->tok), tok_ptr (p, part->tok));
                  return FALSE;
                }
            }
          else if (tok_kind (p, part->tok) == DDB_TOK_ID
                   && ddb_is_reserved_word (tok_ptr (p, part->tok), tok_len (p, part->tok)))
            {
              fatal (p, "Attribute name is a reserved keyword; reserved keyword: %.*s",
                     (int) tok_len (p, part->tok), tok_ptr (p, part->tok));
              return FALSE;
            }
        }
      return TRUE;
      case P_CALL: {
        gint f = find_function (p, n->tok);
        const char *name = tok_dup (p, n->tok);

        if (f < 0)
          {
            fatal (p, "Invalid function name; function: %s", name);
            return FALSE;
          }
        if (p->type == DDB_EXPR_UPDATE)
          {
            if (functions[f].cls != FN_UPDATE)
              {
                fatal (p, "The function is not allowed in an update expression; function: %s",
                       name);
                return FALSE;
              }
          }
        else
          {
            if (functions[f].cls == FN_UPDATE)
              {
                fatal (p, "The function is not allowed in a condition expression; function: %s",
                       name);
                return FALSE;
              }
            if (want_condition != (functions[f].cls == FN_CONDITION))
              {
                fatal (p,
                       "The function is not allowed to be used this way in an expression; "
                       "function: %s",
                       name);
                return FALSE;
              }
            if (n->n_args != functions[f].n_args)
              {
                fatal (p,
                       "Incorrect number of operands for operator or function; "
                       "operator or function: %s, number of operands: %u",
                       name, n->n_args);
                return FALSE;
              }
          }
        for (guint i = 0; i < n->n_args; i++)
          if (!check_written (p, n->args[i], FALSE))
            return FALSE;
        return TRUE;
      }
    case P_PAREN:
      return check_written (p, n->args[0], want_condition);
    case P_AND:
    case P_OR:
    case P_NOT:
      for (guint i = 0; i < n->n_args; i++)
        if (!check_written (p, n->args[i], TRUE))
          return FALSE;
      return TRUE;
    default:
      for (guint i = 0; i < n->n_args; i++)
        if (!check_written (p, n->args[i], FALSE))
          return FALSE;
      return TRUE;
    }
}

/* Substitutes the #placeholders of a path, recording their use. */
static gboolean
resolve_path (Parser *p, PNode *n)
{
  for (guint i = 0; i < n->n_parts; i++)
    {
      PPart *part = &n->parts[i];

      if (part->is_index || part->resolved != NULL)
        continue;
      if (tok_kind (p, part->tok) == DDB_TOK_NAME)
        {
          const char *key = tok_dup (p, part->tok);
          gpointer orig = NULL, name = NULL;

          if (p->ctx->names == NULL
              || !g_hash_table_lookup_extended (p->ctx->names, key, &orig, &name))
            {
              fatal (p,
                     "An expression attribute name used in the document path is not defined; "
                     "attribute name: %s",
                     key);
              return FALSE;
            }
          g_hash_table_add (p->ctx->used_names, orig);
          part->resolved = name;
        }
      else
        part->resolved = tok_dup (p, part->tok);
    }
  return TRUE;
}

/* The #names of every path under n, without the other checks (DynamoDB looks at an update's
 * names before its values). */
static gboolean
resolve_names_only (Parser *p, PNode *n)
{
  if (n->kind == P_PATH)
    return resolve_path (p, n);
  for (guint i = 0; i < n->n_args; i++)
    if (!resolve_names_only (p, n->args[i]))
      return FALSE;
  return TRUE;
}

static const DdbValue *
value_of (Parser *p, PNode *n)
{
  const char *key = tok_dup (p, n->tok);

  if (p->ctx->values == NULL)
    return NULL;
  return g_hash_table_lookup (p->ctx->values, key);
}

/* The type an operand is known to have before evaluation: a value's, or N for size(). */
static gboolean
static_type (Parser *p, PNode *n, DdbType *out)
{
  const DdbValue *v;

  n = unwrap (n);
  if (n->kind == P_VALUE && (v = value_of (p, n)) != NULL)
    {
      *out = v->type;
      return TRUE;
    }
  if (n->kind == P_CALL && tok_is (p, n->tok, "size"))
    {
      *out = DDB_TYPE_N;
      return TRUE;
    }
  return FALSE;
}

static gboolean
same_path (PNode *a, PNode *b)
{
  a = unwrap (a);
  b = unwrap (b);
  if (a->kind != P_PATH || b->kind != P_PATH || a->n_parts != b->n_parts)
    return FALSE;
  for (guint i = 0; i < a->n_parts; i++)
    {
      PPart *x = &a->parts[i], *y = &b->parts[i];

      if (x->is_index != y->is_index)
        return FALSE;
      if (x->is_index ? x->index != y->index : g_strcmp0 (x->resolved, y->resolved) != 0)
        return FALSE;
    }
  return TRUE;
}

/* "[a, [2], b]", as DynamoDB shows paths in messages. */
static char *
path_text (Parser *p, PNode *n)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < n->n_parts; i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      if (n->parts[i].is_index)
        g_string_append_printf (s, "[%u]", n->parts[i].index);
      else
        g_string_append (s, n->parts[i].resolved);
    }
  g_string_append_c (s, ']');
  g_ptr_array_add (p->arena, s->str);
  return g_string_free (s, FALSE);
}

static gboolean
check_distinct (Parser *p, const char *op, PNode *first, PNode **rest, guint n_rest)
{
  if (unwrap (first)->kind != P_PATH)
    return TRUE;
  for (guint i = 0; i < n_rest; i++)
    if (same_path (first, rest[i]))
      {
        fatal (p,
               "The first operand must be distinct from the remaining operands for this "
               "operator or function; operator: %s, first operand: %s",
               op, path_text (p, unwrap (first)));
        return FALSE;
      }
  return TRUE;
}

static gboolean
type_problem (Parser *p, const char *op, const char *type)
{
  fatal (p,
         "Incorrect operand type for operator or function; operator or function: %s, "
         "operand type: %s",
         op, type);
  return FALSE;
}

static gboolean
is_scalar_key_type (DdbType t)
{
  return t == DDB_TYPE_S || t == DDB_TYPE_N || t == DDB_TYPE_B;
}

static const char *
op_text (DdbNodeKind op)
{
  const char *text = ddb_node_kind_operator (op);

  return text != NULL ? text : "?";
}

static int
compare_bytes (const DdbBytes *a, const DdbBytes *b)
{
  int c = memcmp (a->data, b->data, MIN (a->len, b->len));

  if (c != 0)
    return c;
  return a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
}

/* "AttributeValue: {N:2}", DynamoDB's rendering of a BETWEEN bound. */
static char *
bound_text (Parser *p, const DdbValue *v)
{
  GString *s = g_string_new ("AttributeValue: {");

  g_string_append (s, ddb_type_name (v->type));
  g_string_append_c (s, ':');
  switch (v->type)
    {
    case DDB_TYPE_S:
      g_string_append_len (s, v->bytes.data, (gssize) v->bytes.len);
      break;
    case DDB_TYPE_N:
      ddb_number_append (&v->number, s);
      break;
    case DDB_TYPE_B:
      g_string_append_printf (
          s, "java.nio.HeapByteBuffer[pos=0 lim=%" G_GSIZE_FORMAT " cap=%" G_GSIZE_FORMAT "]",
          v->bytes.len, v->bytes.len);
      break;
    default:
      break;
    }
  g_string_append_c (s, '}');
  g_ptr_array_add (p->arena, s->str);
  return g_string_free (s, FALSE);
}

static gboolean check_resolved (Parser *p, PNode *n);

static gboolean
check_path_use (Parser *p, PNode *n)
{
  if (!resolve_path (p, n))
    return FALSE;
  if (n->n_parts > DDB_MAX_NESTING)
    {
      fatal (p, "The document path has too many nesting levels; nesting levels: %u", n->n_parts);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_args (Parser *p, PNode *n)
{
  for (guint i = 0; i < n->n_args; i++)
    if (!check_resolved (p, n->args[i]))
      return FALSE;
  return TRUE;
}

static gboolean
check_call (Parser *p, PNode *n)
{
  gint f = find_function (p, n->tok);
  const char *name = functions[f].name;
  DdbNodeKind kind = functions[f].kind;
  PNode *first;
  DdbType t;

  if (p->type == DDB_EXPR_UPDATE && n->n_args != functions[f].n_args)
    {
      fatal (p,
             "Incorrect number of operands for operator or function; operator or function: "
             "%s, number of operands: %u",
             name, n->n_args);
      return FALSE;
    }
  if (!check_args (p, n))
    return FALSE;
  first = unwrap (n->args[0]);
  /* attribute_type takes a value too (attribute_type(:v, :t)), as DynamoDB accepts it. */
  if ((kind == DDB_NODE_ATTRIBUTE_EXISTS || kind == DDB_NODE_ATTRIBUTE_NOT_EXISTS
       || kind == DDB_NODE_IF_NOT_EXISTS)
      && first->kind != P_PATH)
    {
      fatal (p, "Operator or function requires a document path; operator or function: %s", name);
      return FALSE;
    }
  if (kind != DDB_NODE_SIZE && kind != DDB_NODE_LIST_APPEND
      && !check_distinct (p, name, n->args[0], n->args + 1, n->n_args - 1))
    return FALSE;

  switch (kind)
    {
    case DDB_NODE_SIZE:
      if (static_type (p, n->args[0], &t)
          && (t == DDB_TYPE_N || t == DDB_TYPE_BOOL || t == DDB_TYPE_NULL))
        return type_problem (p, name, ddb_type_name (t));
      break;
    case DDB_NODE_BEGINS_WITH:
      for (guint i = 0; i < n->n_args; i++)
        if (static_type (p, n->args[i], &t) && t != DDB_TYPE_S && t != DDB_TYPE_B)
          return type_problem (p, name, ddb_type_name (t));
      break;
      case DDB_NODE_ATTRIBUTE_TYPE: {
        PNode *second = unwrap (n->args[1]);
        const DdbValue *v;
        DdbType parsed;

        if (second->kind != P_VALUE)
          return type_problem (p, name,
                               second->kind == P_CALL
                                   ? "N"
                                   : "{SS,M,DECIMAL,DOUBLESET,HDS,N,B,DICT,INTSET,BOOL,HD,BS,INT,"
                                     "DECIMALSET,NULL,FLOAT,FS,S,L,NS,DOUBLE}");
        v = value_of (p, second);
        if (v == NULL) /* undefined: reported by the placeholder check */
          break;
        if (v->type != DDB_TYPE_S)
          return type_problem (p, name, ddb_type_name (v->type));
        if (strlen (v->bytes.data) != v->bytes.len || !ddb_type_from_name (v->bytes.data, &parsed))
          {
            fatal (p,
                   "Invalid attribute type name found; type: %.*s, valid types: "
                   "{N,BS,L,B,NULL,M,S,SS,NS,BOOL}",
                   (int) v->bytes.len, v->bytes.data);
            return FALSE;
          }
        break;
      }
    case DDB_NODE_LIST_APPEND:
      for (guint i = 0; i < n->n_args; i++)
        if (static_type (p, n->args[i], &t) && t != DDB_TYPE_L)
          return type_problem (p, name, ddb_type_name (t));
      break;
    default:
      break;
    }
  return TRUE;
}

/* Pass 2: placeholders, then what the known values allow. */
static gboolean
check_resolved (Parser *p, PNode *n)
{
  DdbType t;

  switch (n->kind)
    {
    case P_PATH:
      return check_path_use (p, n);
      case P_VALUE: {
        const char *key = tok_dup (p, n->tok);
        gpointer orig = NULL, value = NULL;

        if (p->ctx->values == NULL
            || !g_hash_table_lookup_extended (p->ctx->values, key, &orig, &value))
          {
            fatal (p,
                   "An expression attribute value used in expression is not defined; "
                   "attribute value: %s",
                   key);
            return FALSE;
          }
        g_hash_table_add (p->ctx->used_values, orig);
        return TRUE;
      }
    case P_PAREN:
    case P_AND:
    case P_OR:
    case P_NOT:
      return check_args (p, n);
    case P_CMP:
      if (!check_args (p, n) || !check_distinct (p, op_text (n->op), n->args[0], n->args + 1, 1))
        return FALSE;
      if (n->op != DDB_NODE_EQ && n->op != DDB_NODE_NE)
        for (guint i = 0; i < 2; i++)
          if (static_type (p, n->args[i], &t) && !is_scalar_key_type (t))
            return type_problem (p, op_text (n->op), ddb_type_name (t));
      return TRUE;
      case P_BETWEEN: {
        PNode *lo, *hi;

        if (!check_args (p, n) || !check_distinct (p, "BETWEEN", n->args[0], n->args + 1, 2))
          return FALSE;
        for (guint i = 0; i < 3; i++)
          if (static_type (p, n->args[i], &t) && !is_scalar_key_type (t))
            return type_problem (p, "BETWEEN", ddb_type_name (t));
        lo = unwrap (n->args[1]);
        hi = unwrap (n->args[2]);
        if (lo->kind == P_VALUE && hi->kind == P_VALUE)
          {
            const DdbValue *a = value_of (p, lo), *b = value_of (p, hi);
            int c;

            if (a == NULL || b == NULL) /* undefined: reported by the placeholder check */
              return TRUE;
            if (a->type != b->type)
              {
                fatal (p,
                       "The BETWEEN operator requires same data type for lower and upper "
                       "bounds; lower bound operand: %s, upper bound operand: %s",
                       bound_text (p, a), bound_text (p, b));
                return FALSE;
              }
            c = a->type == DDB_TYPE_N ? ddb_number_compare (&a->number, &b->number)
                                      : compare_bytes (&a->bytes, &b->bytes);
            if (c > 0)
              {
                fatal (p,
                       "The BETWEEN operator requires upper bound to be greater than or "
                       "equal to lower bound; lower bound operand: %s, upper bound operand: %s",
                       bound_text (p, a), bound_text (p, b));
                return FALSE;
              }
          }
        return TRUE;
      }
    case P_IN:
      if (!check_args (p, n))
        return FALSE;
      if (n->n_args - 1 > DDB_EXPR_MAX_IN_OPERANDS)
        {
          fatal (p, "The IN operator is provided with too many operands; number of operands: %u",
                 n->n_args - 1);
          return FALSE;
        }
      return check_distinct (p, "IN", n->args[0], n->args + 1, n->n_args - 1);
    case P_CALL:
      return check_call (p, n);
    case P_ARITH:
      if (!check_args (p, n))
        return FALSE;
      for (guint i = 0; i < 2; i++)
        if (static_type (p, n->args[i], &t) && t != DDB_TYPE_N)
          return type_problem (p, op_text (n->op), ddb_type_name (t));
      return TRUE;
    default:
      return TRUE;
    }
}

/* Two paths of one update or projection may not be the same, one inside the other, or use one
 * attribute both as a map and as a list. */
static gboolean
check_overlaps (Parser *p, PNode **paths, guint n)
{
  for (guint j = 1; j < n; j++)
    for (guint i = 0; i < j; i++)
      {
        PNode *a = paths[i], *b = paths[j];
        guint common = MIN (a->n_parts, b->n_parts);
        gboolean conflict = FALSE;
        guint k;

        for (k = 0; k < common; k++)
          {
            PPart *x = &a->parts[k], *y = &b->parts[k];

            if (x->is_index != y->is_index)
              {
                conflict = TRUE;
                break;
              }
            if (x->is_index ? x->index != y->index : strcmp (x->resolved, y->resolved) != 0)
              break;
          }
        if (k < common && !conflict)
          continue;
        fatal (p,
               "Two document paths %s with each other; must remove or rewrite one of these "
               "paths; path one: %s, path two: %s",
               conflict ? "conflict" : "overlap", path_text (p, a), path_text (p, b));
        return FALSE;
      }
  return TRUE;
}

/* ---- Building the public tree ----------------------------------------------------------- */

static void
build_path (PNode *n, DdbPath *out)
{
  out->n = n->n_parts;
  out->elems = g_new0 (DdbPathElem, n->n_parts);
  for (guint i = 0; i < n->n_parts; i++)
    {
      if (n->parts[i].is_index)
        out->elems[i].index = n->parts[i].index;
      else
        out->elems[i].name = g_strdup (n->parts[i].resolved);
    }
}

static DdbNode *
build (Parser *p, PNode *n)
{
  DdbNode *out;

  n = unwrap (n);
  out = g_new0 (DdbNode, 1);
  switch (n->kind)
    {
    case P_PATH:
      out->kind = DDB_NODE_PATH;
      build_path (n, &out->path);
      return out;
    case P_VALUE:
      out->kind = DDB_NODE_VALUE;
      out->value = ddb_value_copy (value_of (p, n));
      out->placeholder = g_strndup (tok_ptr (p, n->tok), tok_len (p, n->tok));
      return out;
    case P_CALL:
      out->kind = functions[find_function (p, n->tok)].kind;
      break;
    case P_CMP:
    case P_ARITH:
      out->kind = n->op;
      break;
    case P_BETWEEN:
      out->kind = DDB_NODE_BETWEEN;
      break;
    case P_IN:
      out->kind = DDB_NODE_IN;
      break;
    case P_AND:
      out->kind = DDB_NODE_AND;
      break;
    case P_OR:
      out->kind = DDB_NODE_OR;
      break;
    case P_NOT:
      out->kind = DDB_NODE_NOT;
      break;
    default:
      g_assert_not_reached ();
    }
  out->n_args = n->n_args;
  out->args = g_new0 (DdbNode *, n->n_args);
  for (guint i = 0; i < n->n_args; i++)
    out->args[i] = build (p, n->args[i]);
  return out;
}

/* ---- Entry points ----------------------------------------------------------------------- */

static gboolean
parser_init (Parser *p, DdbExprType type, const char *text, DdbExprContext *ctx, GError **error)
{
  GArray *toks;
  gsize len, pos = 0;
  gboolean blank = TRUE;

  memset (p, 0, sizeof *p);
  p->type = type;
  p->text = text;
  p->ctx = ctx;
  p->error = error;
  p->arena = g_ptr_array_new_with_free_func (g_free);

  len = text != NULL ? strlen (text) : 0;
  p->len = len;
  for (gsize i = 0; i < len && blank; i++)
    blank = text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r';
  if (blank)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "Invalid %s: The expression can not be empty;", ddb_expr_type_name (type));
      return FALSE;
    }
  if (len > DDB_EXPR_MAX_BYTES)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "Invalid %s: Expression size has exceeded the maximum allowed size; "
                   "expression size: %" G_GSIZE_FORMAT,
                   ddb_expr_type_name (type), len);
      return FALSE;
    }

  toks = g_array_new (FALSE, FALSE, sizeof (DdbToken));
  for (;;)
    {
      DdbToken t;

      pos = ddb_expr_lex (text, len, pos, &t);
      g_array_append_val (toks, t);
      if (t.kind == DDB_TOK_EOF)
        break;
    }
  p->n_toks = toks->len;
  p->toks = (DdbToken *) g_array_free (toks, FALSE);
  return TRUE;
}

static void
parser_clear (Parser *p)
{
  if (p->local_error != NULL)
    g_propagate_error (p->error, p->local_error);
  p->local_error = NULL;
  g_free (p->toks);
  g_ptr_array_unref (p->arena);
}

/* After a parse attempt: the whole text must have been read. */
static gboolean
finish_syntax (Parser *p, gboolean ok)
{
  if (p->fatal)
    return FALSE;
  if (ok && peek (p) != DDB_TOK_EOF)
    {
      fail (p);
      ok = FALSE;
    }
  if (!ok)
    syntax_error (p, p->err_at);
  return ok;
}

DdbExprContext *
ddb_expr_context_new (GHashTable *names, GHashTable *values)
{
  DdbExprContext *ctx = g_new0 (DdbExprContext, 1);

  ctx->names = names;
  ctx->values = values;
  ctx->used_names = g_hash_table_new (g_str_hash, g_str_equal);
  ctx->used_values = g_hash_table_new (g_str_hash, g_str_equal);
  return ctx;
}

void
ddb_expr_context_free (DdbExprContext *ctx)
{
  if (ctx == NULL)
    return;
  g_hash_table_unref (ctx->used_names);
  g_hash_table_unref (ctx->used_values);
  g_free (ctx);
}

/* Java's String.hashCode, over UTF-16 code units. */
static gint32
java_hash (const char *s)
{
  guint32 h = 0;

  if (g_utf8_validate (s, -1, NULL))
    {
      for (const char *q = s; *q; q = g_utf8_next_char (q))
        {
          gunichar c = g_utf8_get_char (q);

          if (c >= 0x10000)
            {
              c -= 0x10000;
              h = 31 * h + (0xd800 + (c >> 10));
              h = 31 * h + (0xdc00 + (c & 0x3ff));
            }
          else
            h = 31 * h + c;
        }
    }
  else
    for (const char *q = s; *q; q++)
      h = 31 * h + (guchar) *q;
  return (gint32) h;
}

typedef struct {
  const char *key;
  guint slot;
} SlotKey;

static int
compare_slot (gconstpointer a, gconstpointer b)
{
  const SlotKey *x = a, *y = b;

  if (x->slot != y->slot)
    return x->slot < y->slot ? -1 : 1;
  return strcmp (x->key, y->key);
}

/* DynamoDB lists the unused keys in the iteration order of a Java HashSet. */
static gboolean
check_unused (GHashTable *table, GHashTable *used, const char *param, GError **error)
{
  g_autoptr (GArray) unused = NULL;
  GHashTableIter it;
  gpointer key;
  guint total, cap = 1, want;
  GString *msg;

  if (table == NULL)
    return TRUE;
  unused = g_array_new (FALSE, FALSE, sizeof (SlotKey));
  total = g_hash_table_size (table);
  want = MAX (total * 4 / 3 + 1, 16);
  while (cap < want)
    cap *= 2;
  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (!g_hash_table_contains (used, key))
      {
        guint32 h = (guint32) java_hash (key);
        SlotKey sk = { key, (h ^ (h >> 16)) & (cap - 1) };

        g_array_append_val (unused, sk);
      }
  if (unused->len == 0)
    return TRUE;
  g_array_sort (unused, compare_slot);
  msg = g_string_new (NULL);
  for (guint i = 0; i < unused->len; i++)
    {
      if (i > 0)
        g_string_append (msg, ", ");
      g_string_append (msg, g_array_index (unused, SlotKey, i).key);
    }
  g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
               "Value provided in %s unused in expressions: keys: {%s}", param, msg->str);
  g_string_free (msg, TRUE);
  return FALSE;
}

gboolean
ddb_expr_context_check_unused (DdbExprContext *ctx, GError **error)
{
  g_return_val_if_fail (ctx != NULL, FALSE);
  return check_unused (ctx->names, ctx->used_names, "ExpressionAttributeNames", error)
         && check_unused (ctx->values, ctx->used_values, "ExpressionAttributeValues", error);
}

DdbNode *
ddb_condition_parse (DdbExprType type, const char *text, DdbExprContext *ctx, GError **error)
{
  Parser p;
  PNode *root;
  DdbNode *out = NULL;

  g_return_val_if_fail (ctx != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (!parser_init (&p, type, text, ctx, error))
    {
      parser_clear (&p);
      return NULL;
    }
  root = parse_condition (&p);
  if (finish_syntax (&p, root != NULL) && check_operator_count (&p, count_operators (&p, root))
      && check_written (&p, root, TRUE) && check_resolved (&p, root))
    out = build (&p, root);
  parser_clear (&p);
  return out;
}

DdbUpdate *
ddb_update_parse (const char *text, DdbExprContext *ctx, GError **error)
{
  Parser p;
  g_autoptr (GArray) clauses = g_array_new (FALSE, FALSE, sizeof (PClause));
  g_autoptr (GArray) actions = g_array_new (FALSE, FALSE, sizeof (PAction));
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  DdbUpdate *out = NULL;
  gboolean ok;
  guint ops = 0;

  g_return_val_if_fail (ctx != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (!parser_init (&p, DDB_EXPR_UPDATE, text, ctx, error))
    {
      parser_clear (&p);
      return NULL;
    }
  ok = finish_syntax (&p, parse_update_clauses (&p, clauses, actions));
  for (guint i = 0; ok && i < actions->len; i++)
    ops += count_operators (&p, g_array_index (actions, PAction, i).value);
  ok = ok && check_operator_count (&p, ops);

  /* Pass 1, a section at a time in the order the sections first appear; each of SET, REMOVE,
   * ADD and DELETE may appear once. */
  if (ok)
    {
      DdbUpdateKind order[4];
      guint n_order = 0;

      for (guint c = 0; c < clauses->len; c++)
        {
          DdbUpdateKind k = g_array_index (clauses, PClause, c).kind;
          gboolean seen = FALSE;

          for (guint o = 0; o < n_order; o++)
            seen = seen || order[o] == k;
          if (!seen)
            order[n_order++] = k;
        }
      for (guint o = 0; ok && o < n_order; o++)
        {
          guint count = 0;

          for (guint c = 0; ok && c < clauses->len; c++)
            {
              const PClause *cl = &g_array_index (clauses, PClause, c);

              if (cl->kind != order[o])
                continue;
              count++;
              for (guint a = cl->first; ok && a < cl->first + cl->n; a++)
                {
                  PAction *act = &g_array_index (actions, PAction, a);

                  ok = check_written (&p, act->path, FALSE)
                       && (act->value == NULL || check_written (&p, act->value, FALSE));
                }
            }
          if (ok && count > 1)
            {
              static const char *const kw[] = { "SET", "REMOVE", "ADD", "DELETE" };

              fatal (&p, "The \"%s\" section can only be used once in an update expression;",
                     kw[order[o]]);
              ok = FALSE;
            }
        }
    }

  /* The paths' #names and overlaps come before anything about the values. */
  for (guint a = 0; ok && a < actions->len; a++)
    {
      PAction *act = &g_array_index (actions, PAction, a);

      ok = resolve_path (&p, act->path);
      g_ptr_array_add (paths, act->path);
    }
  ok = ok && check_overlaps (&p, (PNode **) paths->pdata, paths->len);

  /* DynamoDB then checks the actions from the last back to the first: every #name first, then
   * the values and their types. */
  for (guint a = actions->len; ok && a > 0; a--)
    {
      PAction *act = &g_array_index (actions, PAction, a - 1);

      ok = resolve_names_only (&p, act->path)
           && (act->value == NULL || resolve_names_only (&p, act->value));
    }
  for (guint a = actions->len; ok && a > 0; a--)
    {
      PAction *act = &g_array_index (actions, PAction, a - 1);
      DdbType t;

      ok = check_resolved (&p, act->path)
           && (act->value == NULL || check_resolved (&p, act->value));
      if (ok && (act->kind == DDB_UPDATE_ADD || act->kind == DDB_UPDATE_DELETE)
          && static_type (&p, act->value, &t)
          && !(ddb_type_is_set (t) || (act->kind == DDB_UPDATE_ADD && t == DDB_TYPE_N)))
        {
          static const char *const long_names[DDB_N_TYPES] = {
            [DDB_TYPE_S] = "STRING",      [DDB_TYPE_N] = "NUMBER",
            [DDB_TYPE_B] = "BINARY",      [DDB_TYPE_BOOL] = "BOOLEAN",
            [DDB_TYPE_NULL] = "NULL",     [DDB_TYPE_M] = "MAP",
            [DDB_TYPE_L] = "LIST",        [DDB_TYPE_SS] = "STRING_SET",
            [DDB_TYPE_NS] = "NUMBER_SET", [DDB_TYPE_BS] = "BINARY_SET",
          };
          const char *kw = act->kind == DDB_UPDATE_ADD ? "ADD" : "DELETE";

          fatal (&p,
                 "Incorrect operand type for operator or function; operator: %s, operand "
                 "type: %s, typeSet: ALLOWED_FOR_%s_OPERAND",
                 kw, long_names[t], kw);
          ok = FALSE;
        }
    }

  if (ok)
    {
      out = g_new0 (DdbUpdate, 1);
      out->n_actions = actions->len;
      out->actions = g_new0 (DdbUpdateAction, actions->len);
      /* In written order. */
      for (guint c = 0, o = 0; c < clauses->len; c++)
        {
          const PClause *cl = &g_array_index (clauses, PClause, c);

          for (guint a = cl->first; a < cl->first + cl->n; a++, o++)
            {
              PAction *act = &g_array_index (actions, PAction, a);

              out->actions[o].kind = act->kind;
              build_path (act->path, &out->actions[o].path);
              if (act->value != NULL)
                out->actions[o].operand = build (&p, act->value);
            }
        }
    }
  parser_clear (&p);
  return out;
}

DdbProjection *
ddb_projection_parse (const char *text, DdbExprContext *ctx, GError **error)
{
  Parser p;
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  DdbProjection *out = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (ctx != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (!parser_init (&p, DDB_EXPR_PROJECTION, text, ctx, error))
    {
      parser_clear (&p);
      return NULL;
    }
  for (;;)
    {
      PNode *path = parse_path (&p);

      if (path == NULL)
        {
          ok = FALSE;
          break;
        }
      g_ptr_array_add (paths, path);
      if (peek (&p) != DDB_TOK_COMMA)
        break;
      advance (&p);
    }
  ok = finish_syntax (&p, ok);
  for (guint i = 0; ok && i < paths->len; i++)
    ok = check_written (&p, paths->pdata[i], FALSE);
  for (guint i = 0; ok && i < paths->len; i++)
    ok = check_path_use (&p, paths->pdata[i]);
  ok = ok && check_overlaps (&p, (PNode **) paths->pdata, paths->len);
  if (ok)
    {
      out = g_new0 (DdbProjection, 1);
      out->n_paths = paths->len;
      out->paths = g_new0 (DdbPath, paths->len);
      for (guint i = 0; i < paths->len; i++)
        build_path (paths->pdata[i], &out->paths[i]);
    }
  parser_clear (&p);
  return out;
}
