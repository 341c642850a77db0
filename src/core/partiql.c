/* partiql.c: the parser of DynamoDB's PartiQL statements (a recursive descent over the tokens of
 * partiql-lexer.c), building the expression syntax tree of expr.h: conditions as a
 * ConditionExpression's, SET and REMOVE as an UpdateExpression's, literals and parameters as
 * values. */
#include "core/partiql.h"

#include <string.h>

#include "core/error.h"
#include "core/partiql-lexer.h"

#define MALFORMED "Statement wasn't well formed, can't be processed: %s"

typedef struct {
  const char *text;
  gsize len;
  gsize pos;
  PqlToken tok; /* the current token */
  DdbValue *const *params;
  guint n_params;
  guint next_param;
  GError *error; /* the first error; parsing stops at it */
} Parser;

void
ddb_pql_statement_free (DdbPqlStatement *s)
{
  if (s == NULL)
    return;
  g_free (s->table);
  g_free (s->index);
  ddb_projection_free (s->projection);
  ddb_node_free (s->where);
  if (s->order_by != NULL)
    g_ptr_array_unref (s->order_by);
  if (s->item != NULL)
    ddb_value_free (s->item);
  ddb_update_free (s->update);
  g_free (s);
}

/* ---- Tokens ---- */

static void
advance (Parser *p)
{
  pql_token_clear (&p->tok);
  pql_lex (p->text, p->len, &p->pos, &p->tok);
}

static gboolean
failed (Parser *p)
{
  return p->error != NULL;
}

/* A syntax error: DynamoDB quotes the whole statement. Returns FALSE. */
static gboolean
malformed (Parser *p)
{
  if (p->error == NULL)
    g_set_error (&p->error, DDB_ERROR, DDB_ERROR_VALIDATION, MALFORMED, p->text);
  return FALSE;
}

static gboolean fail (Parser *p, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (Parser *p, const char *format, ...)
{
  va_list ap;

  if (p->error != NULL)
    return FALSE;
  va_start (ap, format);
  p->error = g_error_new_valist (DDB_ERROR, DDB_ERROR_VALIDATION, format, ap);
  va_end (ap);
  return FALSE;
}

static gboolean
is_word (const PqlToken *t, const char *word)
{
  return t->kind == T_WORD && t->len == strlen (word)
         && g_ascii_strncasecmp (t->start, word, t->len) == 0;
}

static gboolean
accept (Parser *p, PqlTokenKind kind)
{
  if (p->tok.kind != kind)
    return FALSE;
  advance (p);
  return TRUE;
}

static gboolean
accept_word (Parser *p, const char *word)
{
  if (!is_word (&p->tok, word))
    return FALSE;
  advance (p);
  return TRUE;
}

static gboolean
expect (Parser *p, PqlTokenKind kind)
{
  return accept (p, kind) || malformed (p);
}

static gboolean
expect_word (Parser *p, const char *word)
{
  return accept_word (p, word) || malformed (p);
}

/* The kind of the token after the current one. */
static PqlTokenKind
peek_next (Parser *p)
{
  gsize pos = p->pos;
  PqlToken t;
  PqlTokenKind kind;

  pql_lex (p->text, p->len, &pos, &t);
  kind = t.kind;
  pql_token_clear (&t);
  return kind;
}

/* A name: unquoted as written, or a quoted one undone. NULL (malformed) otherwise. */
static char *
parse_name (Parser *p)
{
  char *name;

  if (p->tok.kind == T_WORD)
    name = g_strndup (p->tok.start, p->tok.len);
  else if (p->tok.kind == T_QNAME)
    name = g_strndup (p->tok.text->str, p->tok.text->len);
  else
    {
      malformed (p);
      return NULL;
    }
  advance (p);
  return name;
}

/* ---- Values ---- */

static DdbValue *parse_literal (Parser *p);

static DdbValue *
parse_number (Parser *p, gboolean negative)
{
  g_autofree char *text
      = g_strdup_printf ("%s%.*s", negative ? "-" : "", (int) p->tok.len, p->tok.start);
  DdbNumber n;
  GError *local = NULL;

  advance (p);
  if (!ddb_number_parse (&n, text, -1, &local))
    {
      if (strstr (local->message, "38 significant digits") != NULL)
        {
          /* PartiQL's own words for it. */
          g_free (local->message);
          local->message = g_strdup ("DynamoDB only supports precision up to 38 digits");
        }
      if (p->error == NULL)
        p->error = local;
      else
        g_error_free (local);
      return NULL;
    }
  return ddb_value_new_n (&n);
}

static DdbValue *
parse_parameter (Parser *p)
{
  advance (p);
  if (p->next_param >= p->n_params)
    {
      /* Counted again at the end, so the message is the same however many are missing. */
      p->next_param++;
      return ddb_value_new_null ();
    }
  return ddb_value_copy (p->params[p->next_param++]);
}

/* << a, b >>: a string set or a number set (DynamoDB has no other kind of bag). */
static DdbValue *
parse_bag (Parser *p)
{
  g_autoptr (GPtrArray) elems = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  DdbValue *set;
  DdbType type;

  advance (p);
  if (p->tok.kind == T_RBAG)
    {
      fail (p, "Empty bags are not supported");
      return NULL;
    }
  do
    {
      DdbValue *v = parse_literal (p);

      if (v == NULL)
        return NULL;
      g_ptr_array_add (elems, v);
    }
  while (accept (p, T_COMMA));
  if (!expect (p, T_RBAG))
    return NULL;
  type = ((DdbValue *) elems->pdata[0])->type;
  for (guint i = 0; i < elems->len; i++)
    if (((DdbValue *) elems->pdata[i])->type != type || (type != DDB_TYPE_S && type != DDB_TYPE_N))
      {
        fail (p, "Unsupported data type in Bag. DynamoDB only supports either numbers or "
                 "strings in bags");
        return NULL;
      }
  set = ddb_value_new_set (type == DDB_TYPE_S ? DDB_TYPE_SS : DDB_TYPE_NS);
  for (guint i = 0; i < elems->len; i++)
    if (!ddb_value_set_add (set, ddb_value_copy (elems->pdata[i])))
      {
        ddb_value_free (set);
        fail (p, "Input collection contains duplicates");
        return NULL;
      }
  return set;
}

/* { 'name': value, ... } */
static DdbValue *
parse_struct (Parser *p)
{
  g_autoptr (DdbValue) map = ddb_value_new_m ();

  advance (p);
  if (accept (p, T_RBRACE))
    return g_steal_pointer (&map);
  do
    {
      g_autoptr (GString) name = NULL;
      DdbValue *v;

      if (p->tok.kind != T_STRING && p->tok.kind != T_QNAME)
        {
          malformed (p);
          return NULL;
        }
      name = g_steal_pointer (&p->tok.text);
      advance (p);
      if (!expect (p, T_COLON))
        return NULL;
      v = parse_literal (p);
      if (v == NULL)
        return NULL;
      ddb_value_map_remove (map, name->str);
      ddb_value_map_append (map, name->str, name->len, v);
    }
  while (accept (p, T_COMMA));
  if (!expect (p, T_RBRACE))
    return NULL;
  return g_steal_pointer (&map);
}

static DdbValue *
parse_list (Parser *p)
{
  g_autoptr (DdbValue) list = ddb_value_new_l ();

  advance (p);
  if (accept (p, T_RBRACKET))
    return g_steal_pointer (&list);
  do
    {
      DdbValue *v = parse_literal (p);

      if (v == NULL)
        return NULL;
      ddb_value_list_append (list, v);
    }
  while (accept (p, T_COMMA));
  if (!expect (p, T_RBRACKET))
    return NULL;
  return g_steal_pointer (&list);
}

static gboolean
starts_literal (Parser *p)
{
  switch (p->tok.kind)
    {
    case T_STRING:
    case T_NUMBER:
    case T_QMARK:
    case T_LBAG:
    case T_LBRACE:
    case T_LBRACKET:
      return TRUE;
    case T_MINUS:
      return peek_next (p) == T_NUMBER;
    case T_WORD:
      return is_word (&p->tok, "TRUE") || is_word (&p->tok, "FALSE") || is_word (&p->tok, "NULL")
             || is_word (&p->tok, "MISSING");
    default:
      return FALSE;
    }
}

static DdbValue *
parse_literal (Parser *p)
{
  DdbValue *v;

  switch (p->tok.kind)
    {
    case T_STRING:
      v = ddb_value_new_s (p->tok.text->str, p->tok.text->len);
      advance (p);
      return v;
    case T_NUMBER:
      return parse_number (p, FALSE);
    case T_MINUS:
      advance (p);
      if (p->tok.kind != T_NUMBER)
        break;
      return parse_number (p, TRUE);
    case T_QMARK:
      return parse_parameter (p);
    case T_LBAG:
      return parse_bag (p);
    case T_LBRACE:
      return parse_struct (p);
    case T_LBRACKET:
      return parse_list (p);
    case T_WORD:
      if (accept_word (p, "TRUE"))
        return ddb_value_new_bool (TRUE);
      if (accept_word (p, "FALSE"))
        return ddb_value_new_bool (FALSE);
      if (accept_word (p, "NULL"))
        return ddb_value_new_null ();
      if (is_word (&p->tok, "MISSING"))
        {
          fail (p, "Unsupported data type: MISSING");
          return NULL;
        }
      break;
    default:
      break;
    }
  malformed (p);
  return NULL;
}

/* ---- Paths and operands ---- */

static DdbNode *
node_new (DdbNodeKind kind, guint n_args)
{
  DdbNode *n = g_new0 (DdbNode, 1);

  n->kind = kind;
  n->n_args = n_args;
  n->args = n_args > 0 ? g_new0 (DdbNode *, n_args) : NULL;
  return n;
}

static DdbNode *
value_node (DdbValue *v)
{
  DdbNode *n = node_new (DDB_NODE_VALUE, 0);

  n->value = v;
  n->placeholder = g_strdup ("?");
  return n;
}

static gboolean
parse_path (Parser *p, DdbPath *out)
{
  GArray *elems = g_array_new (FALSE, TRUE, sizeof (DdbPathElem));
  DdbPathElem e = { 0 };

  memset (out, 0, sizeof *out);
  e.name = parse_name (p);
  if (e.name == NULL)
    goto bad;
  g_array_append_val (elems, e);
  for (;;)
    {
      memset (&e, 0, sizeof e);
      if (accept (p, T_DOT))
        {
          e.name = parse_name (p);
          if (e.name == NULL)
            goto bad;
        }
      else if (accept (p, T_LBRACKET))
        {
          if (p->tok.kind == T_STRING)
            {
              e.name = g_strndup (p->tok.text->str, p->tok.text->len);
              advance (p);
            }
          else
            {
              g_autofree char *digits = NULL;
              guint64 index;

              if (p->tok.kind == T_NUMBER)
                digits = g_strndup (p->tok.start, p->tok.len);
              if (digits == NULL
                  || !g_ascii_string_to_unsigned (digits, 10, 0, G_MAXUINT32, &index, NULL))
                {
                  malformed (p);
                  goto bad;
                }
              e.index = index;
              advance (p);
            }
          if (!expect (p, T_RBRACKET))
            {
              g_free (e.name);
              goto bad;
            }
        }
      else
        break;
      g_array_append_val (elems, e);
    }
  out->n = elems->len;
  out->elems = (DdbPathElem *) g_array_free (elems, FALSE);
  return TRUE;

bad:
  out->n = elems->len;
  out->elems = (DdbPathElem *) g_array_free (elems, FALSE);
  ddb_path_clear (out);
  return FALSE;
}

static DdbNode *
path_node (Parser *p)
{
  DdbNode *n = node_new (DDB_NODE_PATH, 0);

  if (!parse_path (p, &n->path))
    {
      ddb_node_free (n);
      return NULL;
    }
  return n;
}

/* A function call's name, when the current token starts one. */
static gboolean
at_call (Parser *p, const char *name)
{
  return is_word (&p->tok, name) && peek_next (p) == T_LPAREN;
}

/* name(arg, ...) with `n` operands parsed by `each`; the node has kind `kind`. */
static DdbNode *
parse_call (Parser *p, DdbNodeKind kind, guint n, DdbNode *(*each) (Parser *, guint))
{
  g_autoptr (DdbNode) node = node_new (kind, n);

  advance (p); /* the name */
  advance (p); /* ( */
  for (guint i = 0; i < n; i++)
    {
      if (i > 0 && !expect (p, T_COMMA))
        return NULL;
      node->args[i] = each (p, i);
      if (node->args[i] == NULL)
        return NULL;
    }
  if (!expect (p, T_RPAREN))
    return NULL;
  return g_steal_pointer (&node);
}

static DdbNode *parse_operand (Parser *p);

static DdbNode *
operand_arg (Parser *p, guint i)
{
  (void) i;
  return parse_operand (p);
}

static DdbNode *
path_arg (Parser *p, guint i)
{
  (void) i;
  return path_node (p);
}

/* A path, a literal, or size(path): what a condition compares. */
static DdbNode *
parse_operand (Parser *p)
{
  if (starts_literal (p))
    {
      DdbValue *v = parse_literal (p);

      return v != NULL ? value_node (v) : NULL;
    }
  if (at_call (p, "size"))
    return parse_call (p, DDB_NODE_SIZE, 1, path_arg);
  if (p->tok.kind == T_WORD || p->tok.kind == T_QNAME)
    {
      if (peek_next (p) == T_LPAREN)
        {
          fail (p, "Unrecognized function: %.*s", (int) p->tok.len, p->tok.start);
          return NULL;
        }
      return path_node (p);
    }
  malformed (p);
  return NULL;
}

/* ---- Conditions ---- */

static DdbNode *parse_or (Parser *p);

static DdbNode *
binary (DdbNodeKind kind, DdbNode *a, DdbNode *b)
{
  DdbNode *n = node_new (kind, 2);

  n->args[0] = a;
  n->args[1] = b;
  return n;
}

static DdbNode *
not_node (DdbNode *a)
{
  DdbNode *n = node_new (DDB_NODE_NOT, 1);

  n->args[0] = a;
  return n;
}

/* IN [a, b] or IN (a, b) */
static DdbNode *
parse_in (Parser *p, DdbNode *left)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_node_free);
  PqlTokenKind close;
  DdbNode *n;

  if (accept (p, T_LBRACKET))
    close = T_RBRACKET;
  else if (accept (p, T_LPAREN))
    close = T_RPAREN;
  else
    {
      ddb_node_free (left);
      malformed (p);
      return NULL;
    }
  g_ptr_array_add (args, left);
  do
    {
      DdbNode *a = parse_operand (p);

      if (a == NULL)
        return NULL;
      g_ptr_array_add (args, a);
    }
  while (accept (p, T_COMMA));
  if (!expect (p, close))
    return NULL;
  n = node_new (DDB_NODE_IN, args->len);
  for (guint i = 0; i < args->len; i++)
    n->args[i] = args->pdata[i];
  g_ptr_array_set_free_func (args, NULL);
  return n;
}

static DdbNode *
type_test (DdbNode *path, const char *type)
{
  return binary (DDB_NODE_ATTRIBUTE_TYPE, path, value_node (ddb_value_new_s (type, -1)));
}

static DdbNode *
parse_predicate (Parser *p)
{
  static const struct {
    PqlTokenKind tok;
    DdbNodeKind kind;
  } comparisons[] = {
    { T_EQ, DDB_NODE_EQ }, { T_NE, DDB_NODE_NE }, { T_LT, DDB_NODE_LT },
    { T_LE, DDB_NODE_LE }, { T_GT, DDB_NODE_GT }, { T_GE, DDB_NODE_GE },
  };
  g_autoptr (DdbNode) left = NULL;
  gboolean negated;

  if (accept (p, T_LPAREN))
    {
      DdbNode *inner = parse_or (p);

      if (inner != NULL && !expect (p, T_RPAREN))
        g_clear_pointer (&inner, ddb_node_free);
      return inner;
    }
  if (at_call (p, "begins_with"))
    return parse_call (p, DDB_NODE_BEGINS_WITH, 2, operand_arg);
  if (at_call (p, "contains"))
    return parse_call (p, DDB_NODE_CONTAINS, 2, operand_arg);
  if (at_call (p, "attribute_type"))
    return parse_call (p, DDB_NODE_ATTRIBUTE_TYPE, 2, operand_arg);
  if (at_call (p, "attribute_exists"))
    return parse_call (p, DDB_NODE_ATTRIBUTE_EXISTS, 1, path_arg);
  if (at_call (p, "attribute_not_exists"))
    return parse_call (p, DDB_NODE_ATTRIBUTE_NOT_EXISTS, 1, path_arg);

  left = parse_operand (p);
  if (left == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (comparisons); i++)
    if (accept (p, comparisons[i].tok))
      {
        DdbNode *right = parse_operand (p);

        return right != NULL ? binary (comparisons[i].kind, g_steal_pointer (&left), right) : NULL;
      }
  if (accept_word (p, "BETWEEN"))
    {
      g_autoptr (DdbNode) n = node_new (DDB_NODE_BETWEEN, 3);

      n->args[0] = g_steal_pointer (&left);
      if ((n->args[1] = parse_operand (p)) == NULL || !expect_word (p, "AND")
          || (n->args[2] = parse_operand (p)) == NULL)
        return NULL;
      return g_steal_pointer (&n);
    }
  if (accept_word (p, "IS"))
    {
      negated = accept_word (p, "NOT");
      if (left->kind != DDB_NODE_PATH)
        {
          malformed (p);
          return NULL;
        }
      if (accept_word (p, "MISSING"))
        {
          DdbNode *n
              = node_new (negated ? DDB_NODE_ATTRIBUTE_EXISTS : DDB_NODE_ATTRIBUTE_NOT_EXISTS, 1);

          n->args[0] = g_steal_pointer (&left);
          return n;
        }
      if (accept_word (p, "NULL"))
        {
          DdbNode *n = type_test (g_steal_pointer (&left), "NULL");

          return negated ? not_node (n) : n;
        }
      malformed (p);
      return NULL;
    }
  negated = accept_word (p, "NOT");
  if (accept_word (p, "IN"))
    {
      DdbNode *n = parse_in (p, g_steal_pointer (&left));

      return n != NULL && negated ? not_node (n) : n;
    }
  if (negated)
    {
      malformed (p);
      return NULL;
    }
  if (p->tok.kind == T_EOF || is_word (&p->tok, "AND") || is_word (&p->tok, "OR"))
    fail (p, "The arguments to AND/OR must be Expressions");
  else
    malformed (p);
  return NULL;
}

static DdbNode *
parse_not (Parser *p)
{
  if (accept_word (p, "NOT"))
    {
      DdbNode *inner = parse_not (p);

      return inner != NULL ? not_node (inner) : NULL;
    }
  return parse_predicate (p);
}

static DdbNode *
parse_and (Parser *p)
{
  DdbNode *left = parse_not (p);

  while (left != NULL && accept_word (p, "AND"))
    {
      DdbNode *right = parse_not (p);

      if (right == NULL)
        g_clear_pointer (&left, ddb_node_free);
      else
        left = binary (DDB_NODE_AND, left, right);
    }
  return left;
}

static DdbNode *
parse_or (Parser *p)
{
  DdbNode *left = parse_and (p);

  while (left != NULL && accept_word (p, "OR"))
    {
      DdbNode *right = parse_and (p);

      if (right == NULL)
        g_clear_pointer (&left, ddb_node_free);
      else
        left = binary (DDB_NODE_OR, left, right);
    }
  return left;
}

/* ---- Clauses ---- */

static gboolean
parse_source (Parser *p, DdbPqlStatement *s)
{
  s->table = parse_name (p);
  if (s->table == NULL)
    return FALSE;
  if (accept (p, T_DOT))
    {
      s->index = parse_name (p);
      if (s->index == NULL)
        return FALSE;
    }
  return TRUE;
}

static gboolean
parse_where (Parser *p, DdbPqlStatement *s)
{
  if (!accept_word (p, "WHERE"))
    return TRUE;
  s->where = parse_or (p);
  return s->where != NULL;
}

static gboolean
parse_projection (Parser *p, DdbPqlStatement *s)
{
  g_autoptr (GArray) paths = NULL;
  g_autoptr (GHashTable) names = NULL;

  if (accept (p, T_STAR))
    return TRUE;
  paths = g_array_new (FALSE, TRUE, sizeof (DdbPath));
  names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  s->projection = g_new0 (DdbProjection, 1);
  do
    {
      DdbPath path;
      char *name;

      if (!parse_path (p, &path))
        break;
      g_array_append_val (paths, path);
      name = ddb_pql_result_name (&path);
      if (!g_hash_table_add (names, name))
        fail (p, "Duplicate identifiers in select clause: %s", name);
    }
  while (!failed (p) && accept (p, T_COMMA));
  s->projection->n_paths = paths->len;
  s->projection->paths = (DdbPath *) g_array_free (g_steal_pointer (&paths), FALSE);
  return !failed (p);
}

static gboolean
parse_order_by (Parser *p, DdbPqlStatement *s)
{
  gboolean first = TRUE;

  if (!accept_word (p, "ORDER"))
    return TRUE;
  if (!expect_word (p, "BY"))
    return FALSE;
  s->order_by = g_ptr_array_new_with_free_func (g_free);
  do
    {
      char *name = parse_name (p);
      gboolean desc = FALSE;

      if (name == NULL)
        return FALSE;
      g_ptr_array_add (s->order_by, name);
      if (accept_word (p, "DESC"))
        desc = TRUE;
      else
        accept_word (p, "ASC");
      if (first)
        s->descending = desc;
      first = FALSE;
    }
  while (accept (p, T_COMMA));
  return TRUE;
}

static gboolean
parse_select_body (Parser *p, DdbPqlStatement *s)
{
  return expect_word (p, "SELECT") && parse_projection (p, s) && expect_word (p, "FROM")
         && parse_source (p, s) && parse_where (p, s) && parse_order_by (p, s);
}

static gboolean
parse_returning (Parser *p, DdbPqlStatement *s)
{
  gboolean all;

  if (!accept_word (p, "RETURNING"))
    return TRUE;
  if (accept_word (p, "ALL"))
    all = TRUE;
  else if (expect_word (p, "MODIFIED"))
    all = FALSE;
  else
    return FALSE;
  if (accept_word (p, "OLD"))
    s->returning = all ? DDB_PQL_RETURN_ALL_OLD : DDB_PQL_RETURN_MODIFIED_OLD;
  else if (expect_word (p, "NEW"))
    s->returning = all ? DDB_PQL_RETURN_ALL_NEW : DDB_PQL_RETURN_MODIFIED_NEW;
  else
    return FALSE;
  return expect (p, T_STAR);
}

/* One term of a SET's value: a literal, a path, list_append or if_not_exists. */
static DdbNode *
parse_term (Parser *p)
{
  if (at_call (p, "list_append"))
    {
      g_autoptr (DdbNode) n = node_new (DDB_NODE_LIST_APPEND, 2);

      advance (p);
      advance (p);
      if ((n->args[0] = parse_term (p)) == NULL || !expect (p, T_COMMA)
          || (n->args[1] = parse_term (p)) == NULL || !expect (p, T_RPAREN))
        return NULL;
      return g_steal_pointer (&n);
    }
  if (at_call (p, "if_not_exists"))
    {
      g_autoptr (DdbNode) n = node_new (DDB_NODE_IF_NOT_EXISTS, 2);

      advance (p);
      advance (p);
      if ((n->args[0] = path_node (p)) == NULL || !expect (p, T_COMMA)
          || (n->args[1] = parse_term (p)) == NULL || !expect (p, T_RPAREN))
        return NULL;
      return g_steal_pointer (&n);
    }
  return parse_operand (p);
}

static gboolean
same_path (const DdbPath *a, const DdbPath *b)
{
  if (a->n != b->n)
    return FALSE;
  for (guint i = 0; i < a->n; i++)
    if (g_strcmp0 (a->elems[i].name, b->elems[i].name) != 0
        || (a->elems[i].name == NULL && a->elems[i].index != b->elems[i].index))
      return FALSE;
  return TRUE;
}

/* path = value, where value may be set_add(path, <<...>>) / set_delete(path, <<...>>): the
 * ADD and DELETE of an UpdateExpression, on the path assigned. */
static gboolean
parse_assignment (Parser *p, GArray *actions)
{
  DdbUpdateAction a = { DDB_UPDATE_SET };
  gboolean is_add;

  if (!parse_path (p, &a.path))
    return FALSE;
  if (!expect (p, T_EQ))
    goto bad;
  if ((is_add = at_call (p, "set_add")) || at_call (p, "set_delete"))
    {
      DdbPath target;
      DdbValue *v;

      advance (p);
      advance (p);
      if (!parse_path (p, &target))
        goto bad;
      if (!same_path (&target, &a.path))
        {
          ddb_path_clear (&target);
          fail (p, "%s must update the path it is assigned to", is_add ? "set_add" : "set_delete");
          goto bad;
        }
      ddb_path_clear (&target);
      if (!expect (p, T_COMMA) || (v = parse_literal (p)) == NULL)
        goto bad;
      a.kind = is_add ? DDB_UPDATE_ADD : DDB_UPDATE_DELETE;
      a.operand = value_node (v);
      if (!expect (p, T_RPAREN))
        goto bad;
    }
  else
    {
      DdbNode *left = parse_term (p);

      if (left == NULL)
        goto bad;
      if (p->tok.kind == T_PLUS || p->tok.kind == T_MINUS)
        {
          DdbNodeKind kind = p->tok.kind == T_PLUS ? DDB_NODE_PLUS : DDB_NODE_MINUS;
          DdbNode *right;

          advance (p);
          right = parse_term (p);
          if (right == NULL)
            {
              ddb_node_free (left);
              goto bad;
            }
          left = binary (kind, left, right);
        }
      a.operand = left;
    }
  g_array_append_val (actions, a);
  return TRUE;

bad:
  ddb_path_clear (&a.path);
  ddb_node_free (a.operand);
  return FALSE;
}

static gboolean
parse_update_clauses (Parser *p, DdbPqlStatement *s)
{
  GArray *actions = g_array_new (FALSE, TRUE, sizeof (DdbUpdateAction));
  gboolean ok = TRUE;

  s->update = g_new0 (DdbUpdate, 1);
  for (;;)
    {
      if (accept_word (p, "SET"))
        {
          do
            ok = parse_assignment (p, actions);
          while (ok && accept (p, T_COMMA));
        }
      else if (accept_word (p, "REMOVE"))
        {
          do
            {
              DdbUpdateAction a = { DDB_UPDATE_REMOVE };

              ok = parse_path (p, &a.path);
              if (ok)
                g_array_append_val (actions, a);
            }
          while (ok && accept (p, T_COMMA));
        }
      else
        break;
      if (!ok)
        break;
    }
  s->update->n_actions = actions->len;
  s->update->actions = (DdbUpdateAction *) g_array_free (actions, FALSE);
  if (ok && s->update->n_actions == 0)
    return malformed (p);
  return ok;
}

static DdbPqlStatement *
parse_statement (Parser *p)
{
  g_autoptr (DdbPqlStatement) s = g_new0 (DdbPqlStatement, 1);
  gboolean ok;

  if (is_word (&p->tok, "SELECT"))
    {
      s->kind = DDB_PQL_SELECT;
      ok = parse_select_body (p, s);
    }
  else if (accept_word (p, "EXISTS"))
    {
      s->kind = DDB_PQL_EXISTS;
      ok = expect (p, T_LPAREN) && parse_select_body (p, s) && expect (p, T_RPAREN);
    }
  else if (accept_word (p, "INSERT"))
    {
      s->kind = DDB_PQL_INSERT;
      ok = expect_word (p, "INTO") && parse_source (p, s) && expect_word (p, "VALUE");
      if (ok && p->tok.kind != T_LBRACE)
        {
          if (p->tok.kind == T_EOF)
            return (malformed (p), NULL);
          return (fail (p, "Unsupported format in item expression. Please use struct format "
                           "{...} to express item values for insert statement."),
                  NULL);
        }
      ok = ok && (s->item = parse_struct (p)) != NULL;
    }
  else if (accept_word (p, "UPDATE"))
    {
      s->kind = DDB_PQL_UPDATE;
      ok = parse_source (p, s) && parse_update_clauses (p, s) && parse_where (p, s)
           && parse_returning (p, s);
    }
  else if (accept_word (p, "DELETE"))
    {
      s->kind = DDB_PQL_DELETE;
      ok = expect_word (p, "FROM") && parse_source (p, s) && parse_where (p, s)
           && parse_returning (p, s);
    }
  else
    ok = malformed (p);
  if (!ok)
    return NULL;
  accept (p, T_SEMICOLON);
  if (p->tok.kind != T_EOF)
    return (malformed (p), NULL);
  return g_steal_pointer (&s);
}

DdbPqlStatement *
ddb_pql_parse (const char *text, gssize len, DdbValue *const *params, guint n_params,
               GError **error)
{
  Parser p = { text, len < 0 ? strlen (text) : (gsize) len, 0, { 0 }, params, n_params, 0, NULL };
  DdbPqlStatement *s;

  advance (&p);
  s = parse_statement (&p);
  pql_token_clear (&p.tok);
  /* More parameters than `?`s are ignored, as DynamoDB does; fewer is an error. */
  if (s != NULL && p.next_param > n_params)
    {
      g_clear_pointer (&s, ddb_pql_statement_free);
      fail (&p, "Number of parameters in request and statement don't match.");
    }
  if (s == NULL)
    {
      if (p.error == NULL)
        malformed (&p);
      g_propagate_error (error, p.error);
      return NULL;
    }
  g_clear_error (&p.error);
  return s;
}

gboolean
ddb_pql_is_select (const char *text)
{
  gsize pos = 0;
  PqlToken t;
  gboolean select;

  pql_lex (text, strlen (text), &pos, &t);
  select = is_word (&t, "SELECT");
  pql_token_clear (&t);
  return select;
}

char *
ddb_pql_result_name (const DdbPath *path)
{
  guint last = 0;
  GString *out;

  for (guint i = 0; i < path->n; i++)
    if (path->elems[i].name != NULL)
      last = i;
  out = g_string_new (path->elems[last].name);
  for (guint i = last + 1; i < path->n; i++)
    g_string_append_printf (out, "[%u]", path->elems[i].index);
  return g_string_free (out, FALSE);
}
