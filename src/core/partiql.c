/* partiql.c: the parser of DynamoDB's PartiQL statements (a recursive descent over the tokens of
 * partiql-lexer.c), building the expression syntax tree of expr.h: conditions as a
 * ConditionExpression's, SET and REMOVE as an UpdateExpression's, literals and parameters as
 * values. This file holds the clauses, the statements and the public calls; the tokens and
 * values are in partiql-parser.c, the conditions in partiql-conditions.c. */
#include "core/partiql.h"

#include <string.h>

#include "core/error.h"
#include "core/partiql-parser-private.h"

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

/* ---- Clauses ---- */

static gboolean
parse_source (Parser *p, DdbPqlStatement *s)
{
  s->table = pqp_parse_name (p);
  if (s->table == NULL)
    return FALSE;
  if (pqp_accept (p, T_DOT))
    {
      s->index = pqp_parse_name (p);
      if (s->index == NULL)
        return FALSE;
    }
  return TRUE;
}

static gboolean
parse_where (Parser *p, DdbPqlStatement *s)
{
  if (!pqp_accept_word (p, "WHERE"))
    return TRUE;
  s->where = pqp_parse_or (p);
  return s->where != NULL;
}

/* "[a, b, [1]]": a path as DynamoDB quotes it in a projection's errors. */
static char *
path_text (const DdbPath *path)
{
  GString *out = g_string_new ("[");

  for (guint i = 0; i < path->n; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      if (path->elems[i].name != NULL)
        g_string_append (out, path->elems[i].name);
      else
        g_string_append_printf (out, "[%u]", path->elems[i].index);
    }
  g_string_append_c (out, ']');
  return g_string_free (out, FALSE);
}

/* Two projected paths may not be one inside the other (overlap), nor use one attribute both as
 * a map and as a list (conflict). DynamoDB names the later path first. */
static gboolean
check_overlaps (Parser *p, const DdbPath *paths, guint n)
{
  for (guint j = 1; j < n; j++)
    for (guint i = 0; i < j; i++)
      {
        const DdbPath *a = &paths[j], *b = &paths[i];
        guint common = MIN (a->n, b->n), k;
        gboolean conflict = FALSE;
        g_autofree char *one = NULL;
        g_autofree char *two = NULL;

        for (k = 0; k < common; k++)
          {
            const DdbPathElem *x = &a->elems[k], *y = &b->elems[k];

            if ((x->name == NULL) != (y->name == NULL))
              {
                conflict = TRUE;
                break;
              }
            if (x->name != NULL ? strcmp (x->name, y->name) != 0 : x->index != y->index)
              break;
          }
        if (k < common && !conflict)
          continue;
        one = path_text (a);
        two = path_text (b);
        return pqp_fail (p,
                         "Two document paths %s with each other; must remove or rewrite one of "
                         "these paths; path one: %s, path two: %s",
                         conflict ? "conflict" : "overlap", one, two);
      }
  return TRUE;
}

static gboolean
parse_projection (Parser *p, DdbPqlStatement *s)
{
  g_autoptr (GArray) paths = NULL;
  g_autoptr (GHashTable) names = NULL;

  if (pqp_accept (p, T_STAR))
    return TRUE;
  paths = g_array_new (FALSE, TRUE, sizeof (DdbPath));
  names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  s->projection = g_new0 (DdbProjection, 1);
  do
    {
      DdbPath path;
      char *name;

      if (!pqp_parse_path (p, &path))
        break;
      g_array_append_val (paths, path);
      name = ddb_pql_result_name (&path);
      if (!g_hash_table_add (names, name))
        pqp_fail (p, "Duplicate identifiers in select clause: %s", name);
    }
  while (!pqp_failed (p) && pqp_accept (p, T_COMMA));
  s->projection->n_paths = paths->len;
  s->projection->paths = (DdbPath *) g_array_free (g_steal_pointer (&paths), FALSE);
  return !pqp_failed (p) && check_overlaps (p, s->projection->paths, s->projection->n_paths);
}

static gboolean
parse_order_by (Parser *p, DdbPqlStatement *s)
{
  gboolean first = TRUE;

  if (!pqp_accept_word (p, "ORDER"))
    return TRUE;
  if (!pqp_expect_word (p, "BY"))
    return FALSE;
  s->order_by = g_ptr_array_new_with_free_func (g_free);
  do
    {
      char *name = pqp_parse_name (p);
      gboolean desc = FALSE;

      if (name == NULL)
        return FALSE;
      g_ptr_array_add (s->order_by, name);
      if (pqp_accept_word (p, "DESC"))
        desc = TRUE;
      else
        pqp_accept_word (p, "ASC");
      if (first)
        s->descending = desc;
      first = FALSE;
    }
  while (pqp_accept (p, T_COMMA));
  return TRUE;
}

static gboolean
parse_select_body (Parser *p, DdbPqlStatement *s)
{
  return pqp_expect_word (p, "SELECT") && parse_projection (p, s) && pqp_expect_word (p, "FROM")
         && parse_source (p, s) && parse_where (p, s) && parse_order_by (p, s);
}

static gboolean
parse_returning (Parser *p, DdbPqlStatement *s)
{
  gboolean all;

  if (!pqp_accept_word (p, "RETURNING"))
    return TRUE;
  if (pqp_accept_word (p, "ALL"))
    all = TRUE;
  else if (pqp_expect_word (p, "MODIFIED"))
    all = FALSE;
  else
    return FALSE;
  if (pqp_accept_word (p, "OLD"))
    s->returning = all ? DDB_PQL_RETURN_ALL_OLD : DDB_PQL_RETURN_MODIFIED_OLD;
  else if (pqp_expect_word (p, "NEW"))
    s->returning = all ? DDB_PQL_RETURN_ALL_NEW : DDB_PQL_RETURN_MODIFIED_NEW;
  else
    return FALSE;
  return pqp_expect (p, T_STAR);
}

/* One term of a SET's value: a literal, a path, list_append or if_not_exists. */
static DdbNode *
parse_term (Parser *p)
{
  if (pqp_at_call (p, "list_append"))
    {
      g_autoptr (DdbNode) n = ddb_node_new (DDB_NODE_LIST_APPEND, 2);

      pqp_advance (p);
      pqp_advance (p);
      if ((n->args[0] = parse_term (p)) == NULL || !pqp_expect (p, T_COMMA)
          || (n->args[1] = parse_term (p)) == NULL || !pqp_expect (p, T_RPAREN))
        return NULL;
      return g_steal_pointer (&n);
    }
  if (pqp_at_call (p, "if_not_exists"))
    {
      g_autoptr (DdbNode) n = ddb_node_new (DDB_NODE_IF_NOT_EXISTS, 2);

      pqp_advance (p);
      pqp_advance (p);
      if ((n->args[0] = pqp_path_node (p)) == NULL || !pqp_expect (p, T_COMMA)
          || (n->args[1] = parse_term (p)) == NULL || !pqp_expect (p, T_RPAREN))
        return NULL;
      return g_steal_pointer (&n);
    }
  return pqp_parse_operand (p);
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

  if (!pqp_parse_path (p, &a.path))
    return FALSE;
  if (!pqp_expect (p, T_EQ))
    goto bad;
  if ((is_add = pqp_at_call (p, "set_add")) || pqp_at_call (p, "set_delete"))
    {
      DdbPath target;
      DdbValue *v;

      pqp_advance (p);
      pqp_advance (p);
      if (!pqp_parse_path (p, &target))
        goto bad;
      if (!same_path (&target, &a.path))
        {
          ddb_path_clear (&target);
          pqp_fail (p, "%s must update the path it is assigned to", is_add ? "set_add" : "set_delete");
          goto bad;
        }
      ddb_path_clear (&target);
      if (!pqp_expect (p, T_COMMA) || (v = pqp_parse_literal (p)) == NULL)
        goto bad;
      a.kind = is_add ? DDB_UPDATE_ADD : DDB_UPDATE_DELETE;
      a.operand = ddb_node_new_value (v, "?");
      if (!pqp_expect (p, T_RPAREN))
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

          pqp_advance (p);
          right = parse_term (p);
          if (right == NULL)
            {
              ddb_node_free (left);
              goto bad;
            }
          left = ddb_node_new_binary (kind, left, right);
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
      if (pqp_accept_word (p, "SET"))
        {
          do
            ok = parse_assignment (p, actions);
          while (ok && pqp_accept (p, T_COMMA));
        }
      else if (pqp_accept_word (p, "REMOVE"))
        {
          do
            {
              DdbUpdateAction a = { DDB_UPDATE_REMOVE };

              ok = pqp_parse_path (p, &a.path);
              if (ok)
                g_array_append_val (actions, a);
            }
          while (ok && pqp_accept (p, T_COMMA));
        }
      else
        break;
      if (!ok)
        break;
    }
  s->update->n_actions = actions->len;
  s->update->actions = (DdbUpdateAction *) g_array_free (actions, FALSE);
  if (ok && s->update->n_actions == 0)
    return pqp_malformed (p);
  return ok;
}

static DdbPqlStatement *
parse_statement (Parser *p)
{
  g_autoptr (DdbPqlStatement) s = g_new0 (DdbPqlStatement, 1);
  gboolean ok;

  if (pqp_is_word (&p->tok, "SELECT"))
    {
      s->kind = DDB_PQL_SELECT;
      ok = parse_select_body (p, s);
    }
  else if (pqp_accept_word (p, "EXISTS"))
    {
      s->kind = DDB_PQL_EXISTS;
      ok = pqp_expect (p, T_LPAREN) && parse_select_body (p, s) && pqp_expect (p, T_RPAREN);
    }
  else if (pqp_accept_word (p, "INSERT"))
    {
      s->kind = DDB_PQL_INSERT;
      ok = pqp_expect_word (p, "INTO") && parse_source (p, s) && pqp_expect_word (p, "VALUE");
      if (ok && p->tok.kind != T_LBRACE)
        {
          if (p->tok.kind == T_EOF)
            return (pqp_malformed (p), NULL);
          return (pqp_fail (p, "Unsupported format in item expression. Please use struct format "
                           "{...} to express item values for insert statement."),
                  NULL);
        }
      ok = ok && (s->item = pqp_parse_item (p)) != NULL;
    }
  else if (pqp_accept_word (p, "UPDATE"))
    {
      s->kind = DDB_PQL_UPDATE;
      ok = parse_source (p, s) && parse_update_clauses (p, s) && parse_where (p, s)
           && parse_returning (p, s);
    }
  else if (pqp_accept_word (p, "DELETE"))
    {
      s->kind = DDB_PQL_DELETE;
      ok = pqp_expect_word (p, "FROM") && parse_source (p, s) && parse_where (p, s)
           && parse_returning (p, s);
    }
  else
    ok = pqp_malformed (p);
  if (!ok)
    return NULL;
  pqp_accept (p, T_SEMICOLON);
  if (p->tok.kind != T_EOF)
    return (pqp_malformed (p), NULL);
  return g_steal_pointer (&s);
}

DdbPqlStatement *
ddb_pql_parse (const char *text, gssize len, DdbValue *const *params, guint n_params,
               GError **error)
{
  Parser p
      = { text, len < 0 ? strlen (text) : (gsize) len, 0, { 0 }, params, n_params, 0, NULL, NULL,
          NULL };
  DdbPqlStatement *s;

  pqp_advance (&p);
  s = parse_statement (&p);
  pql_token_clear (&p.tok);
  if (p.value_path != NULL)
    g_string_free (p.value_path, TRUE);
  if (s != NULL && p.deferred != NULL)
    {
      g_clear_pointer (&s, ddb_pql_statement_free);
      p.error = g_steal_pointer (&p.deferred);
    }
  g_clear_error (&p.deferred);
  /* More parameters than `?`s are ignored, as DynamoDB does; fewer is an error. */
  if (s != NULL && p.next_param > n_params)
    {
      g_clear_pointer (&s, ddb_pql_statement_free);
      pqp_fail (&p, "Number of parameters in request and statement don't match.");
    }
  if (s == NULL)
    {
      if (p.error == NULL)
        pqp_malformed (&p);
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
  select = pqp_is_word (&t, "SELECT");
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
