/* expr-parser.c: recursive-descent parser for condition, key-condition, filter, update and
 * projection expressions, with DynamoDB's checks and error messages.
 *
 * Parsing happens in stages, because DynamoDB reports problems in a fixed order: first the
 * whole text must parse (syntax errors, redundant parentheses), then the operator count, then
 * a pass in written order over reserved words, list indexes and function names and places, then
 * a pass resolving placeholders and checking the operand types it can know from the values.
 * Only then is the DdbNode tree of expr.h built, so it holds real names and copied values.
 *
 * The grammar and the entry points are here; the tools in expr-parse-tree.c, the checks in
 * expr-check.c. */
#include "core/expr.h"

#include <string.h>

#include "core/error.h"
#include "core/expr-parser-private.h"

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
    return ep_fatal (p, "The expression has redundant parentheses;");
  n = ep_new_node (p, P_PAREN, open);
  n->n_args = 1;
  n->args = ep_arena_alloc (p, sizeof (PNode *));
  n->args[0] = inner;
  return n;
}

static PNode *
parse_path (Parser *p)
{
  GArray *parts;
  PPart part = { 0 };
  PNode *n;

  if (ep_peek (p) != DDB_TOK_ID && ep_peek (p) != DDB_TOK_NAME)
    return ep_fail (p);
  parts = g_array_new (FALSE, TRUE, sizeof (PPart));
  n = ep_new_node (p, P_PATH, p->pos);
  part.tok = ep_advance (p);
  g_array_append_val (parts, part);
  for (;;)
    {
      memset (&part, 0, sizeof part);
      if (ep_peek (p) == DDB_TOK_DOT)
        {
          ep_advance (p);
          if (ep_peek (p) != DDB_TOK_ID && ep_peek (p) != DDB_TOK_NAME)
            {
              g_array_free (parts, TRUE);
              return ep_fail (p);
            }
          part.tok = ep_advance (p);
        }
      else if (ep_peek (p) == DDB_TOK_LBRACKET)
        {
          guint64 v = 0;

          ep_advance (p);
          if (!ep_expect (p, DDB_TOK_INT, &part.tok) || !ep_expect (p, DDB_TOK_RBRACKET, NULL))
            {
              g_array_free (parts, TRUE);
              return NULL;
            }
          part.is_index = TRUE;
          part.index_ok = ep_tok_len (p, part.tok) <= 10;
          for (guint i = 0; part.index_ok && i < ep_tok_len (p, part.tok); i++)
            v = v * 10 + (guint64) (ep_tok_ptr (p, part.tok)[i] - '0');
          if (v > G_MAXINT32)
            part.index_ok = FALSE;
          part.index = (guint32) v;
        }
      else
        break;
      g_array_append_val (parts, part);
    }
  n->n_parts = parts->len;
  n->parts = ep_arena_alloc (p, sizeof (PPart) * parts->len);
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
      if (ep_peek (p) != DDB_TOK_COMMA)
        return TRUE;
      ep_advance (p);
    }
}

static PNode *
parse_call (Parser *p)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  PNode *n = ep_new_node (p, P_CALL, ep_advance (p));
  gboolean ok;

  if (!ep_expect (p, DDB_TOK_LPAREN, NULL) || !ep_enter (p))
    return NULL;
  ok = parse_operand_list (p, args) && ep_expect (p, DDB_TOK_RPAREN, NULL);
  p->depth--;
  if (!ok)
    return NULL;
  ep_set_args (p, n, args);
  return n;
}

static PNode *
parse_operand (Parser *p)
{
  switch (ep_peek (p))
    {
    case DDB_TOK_VALUE:
      return ep_new_node (p, P_VALUE, ep_advance (p));
      case DDB_TOK_LPAREN: {
        guint open = ep_advance (p);
        PNode *inner;
        gboolean ok;

        if (!ep_enter (p))
          return NULL;
        inner = parse_operand (p);
        ok = inner != NULL && ep_expect (p, DDB_TOK_RPAREN, NULL);
        p->depth--;
        return ok ? make_paren (p, open, inner) : NULL;
      }
    case DDB_TOK_ID:
      if (ep_peek_at (p, 1) == DDB_TOK_LPAREN)
        return parse_call (p);
      return parse_path (p);
    case DDB_TOK_NAME:
      return parse_path (p);
    default:
      return ep_fail (p);
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
  if (comparator (ep_peek (p), &op))
    {
      guint tok = ep_advance (p);
      PNode *b = parse_operand (p);
      PNode *n;

      if (b == NULL)
        return NULL;
      n = ep_node2 (p, P_CMP, tok, a, b);
      n->op = op;
      return n;
    }
  if (ep_peek (p) == DDB_TOK_BETWEEN)
    {
      guint tok = ep_advance (p);
      PNode *lo, *hi, *n;

      lo = parse_operand (p);
      if (lo == NULL || !ep_expect (p, DDB_TOK_AND, NULL))
        return NULL;
      hi = parse_operand (p);
      if (hi == NULL)
        return NULL;
      n = ep_new_node (p, P_BETWEEN, tok);
      n->n_args = 3;
      n->args = ep_arena_alloc (p, sizeof (PNode *) * 3);
      n->args[0] = a;
      n->args[1] = lo;
      n->args[2] = hi;
      return n;
    }
  if (ep_peek (p) == DDB_TOK_IN)
    {
      g_autoptr (GPtrArray) args = g_ptr_array_new ();
      guint tok = ep_advance (p);
      PNode *n;

      g_ptr_array_add (args, a);
      if (!ep_expect (p, DDB_TOK_LPAREN, NULL) || !parse_operand_list (p, args)
          || !ep_expect (p, DDB_TOK_RPAREN, NULL))
        return NULL;
      n = ep_new_node (p, P_IN, tok);
      ep_set_args (p, n, args);
      return n;
    }
  if (a->kind == P_CALL)
    {
      a->as_condition = TRUE;
      return a;
    }
  return ep_fail (p);
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

  if (ep_peek (p) != DDB_TOK_LPAREN)
    return parse_comparison (p);

  ep_advance (p);
  if (!ep_enter (p))
    return NULL;
  n = parse_condition (p);
  ok = n != NULL && ep_expect (p, DDB_TOK_RPAREN, NULL);
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
  while (ep_peek (p) == DDB_TOK_NOT)
    {
      guint tok = ep_advance (p);

      g_array_append_val (nots, tok);
    }
  n = parse_primary (p);
  for (guint i = nots->len; n != NULL && i > 0; i--)
    n = ep_node2 (p, P_NOT, g_array_index (nots, guint, i - 1), n, NULL);
  return n;
}

/* One left-associative level of the condition grammar: operand (op operand)*. */
static PNode *
parse_left_assoc (Parser *p, PNode *(*operand) (Parser *p), DdbTokenKind op, PKind kind)
{
  PNode *left = operand (p);

  while (left != NULL && ep_peek (p) == op)
    {
      guint tok = ep_advance (p);
      PNode *right = operand (p);

      if (right == NULL)
        return NULL;
      left = ep_node2 (p, kind, tok, left, right);
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
  if (act->path == NULL || !ep_expect (p, DDB_TOK_EQ, NULL))
    return FALSE;
  a = parse_operand (p);
  if (a == NULL)
    return FALSE;
  if (ep_peek (p) == DDB_TOK_PLUS || ep_peek (p) == DDB_TOK_MINUS)
    {
      gboolean plus = ep_peek (p) == DDB_TOK_PLUS;
      guint tok = ep_advance (p);
      PNode *b = parse_operand (p);

      if (b == NULL)
        return FALSE;
      a = ep_node2 (p, P_ARITH, tok, a, b);
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

      switch (ep_peek (p))
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
          ep_fail (p);
          return FALSE;
        }
      c.tok = ep_advance (p);
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

                  if (!ep_expect (p, DDB_TOK_VALUE, &v))
                    return FALSE;
                  act.value = ep_new_node (p, P_VALUE, v);
                }
            }
          g_array_append_val (actions, act);
          if (ep_peek (p) != DDB_TOK_COMMA)
            break;
          ep_advance (p);
        }
      c.n = actions->len - c.first;
      g_array_append_val (clauses, c);
    }
  while (ep_peek (p) != DDB_TOK_EOF);
  return TRUE;
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
  if (ok && ep_peek (p) != DDB_TOK_EOF)
    {
      ep_fail (p);
      ok = FALSE;
    }
  if (!ok)
    ep_syntax_error (p, p->err_at);
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
  if (finish_syntax (&p, root != NULL) && ep_check_operator_count (&p, ep_count_operators (&p, root))
      && ep_check_written (&p, root, TRUE) && ep_check_resolved (&p, root))
    out = ep_build (&p, root);
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
    ops += ep_count_operators (&p, g_array_index (actions, PAction, i).value);
  ok = ok && ep_check_operator_count (&p, ops);

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

                  ok = ep_check_written (&p, act->path, FALSE)
                       && (act->value == NULL || ep_check_written (&p, act->value, FALSE));
                }
            }
          if (ok && count > 1)
            {
              static const char *const kw[] = { "SET", "REMOVE", "ADD", "DELETE" };

              ep_fatal (&p, "The \"%s\" section can only be used once in an update expression;",
                     kw[order[o]]);
              ok = FALSE;
            }
        }
    }

  /* The paths' #names and overlaps come before anything about the values. */
  for (guint a = 0; ok && a < actions->len; a++)
    {
      PAction *act = &g_array_index (actions, PAction, a);

      ok = ep_resolve_path (&p, act->path);
      g_ptr_array_add (paths, act->path);
    }
  ok = ok && ep_check_overlaps (&p, (PNode **) paths->pdata, paths->len);

  /* DynamoDB then checks the actions from the last back to the first: every #name first, then
   * the values and their types. */
  for (guint a = actions->len; ok && a > 0; a--)
    {
      PAction *act = &g_array_index (actions, PAction, a - 1);

      ok = ep_resolve_names_only (&p, act->path)
           && (act->value == NULL || ep_resolve_names_only (&p, act->value));
    }
  for (guint a = actions->len; ok && a > 0; a--)
    {
      PAction *act = &g_array_index (actions, PAction, a - 1);
      DdbType t;

      ok = ep_check_resolved (&p, act->path)
           && (act->value == NULL || ep_check_resolved (&p, act->value));
      if (ok && (act->kind == DDB_UPDATE_ADD || act->kind == DDB_UPDATE_DELETE)
          && ep_static_type (&p, act->value, &t)
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

          ep_fatal (&p,
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
              ep_build_path (act->path, &out->actions[o].path);
              if (act->value != NULL)
                out->actions[o].operand = ep_build (&p, act->value);
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
      if (ep_peek (&p) != DDB_TOK_COMMA)
        break;
      ep_advance (&p);
    }
  ok = finish_syntax (&p, ok);
  for (guint i = 0; ok && i < paths->len; i++)
    ok = ep_check_written (&p, paths->pdata[i], FALSE);
  for (guint i = 0; ok && i < paths->len; i++)
    ok = ep_check_path_use (&p, paths->pdata[i]);
  ok = ok && ep_check_overlaps (&p, (PNode **) paths->pdata, paths->len);
  if (ok)
    {
      out = g_new0 (DdbProjection, 1);
      out->n_paths = paths->len;
      out->paths = g_new0 (DdbPath, paths->len);
      for (guint i = 0; i < paths->len; i++)
        ep_build_path (paths->pdata[i], &out->paths[i]);
    }
  parser_clear (&p);
  return out;
}
