/* eb-render.c: the model as request members: rows to core's trees, trees to text with readable
 * placeholders (rules in exprbuild.h), and the text parsed back before anything is written. */
#include "exprbuild/eb-private.h"

#include <string.h>

#include "core/error.h"

/* ---- Trees to text --------------------------------------------------------------------- */

/* Binding strength, loosest first, as the parser reads them. */
enum {
  PREC_OR = 1,
  PREC_AND,
  PREC_NOT,
  PREC_TEST,
};

static int
precedence (const DdbNode *n)
{
  switch (n->kind)
    {
    case DDB_NODE_OR:
      return PREC_OR;
    case DDB_NODE_AND:
      return PREC_AND;
    case DDB_NODE_NOT:
      return PREC_NOT;
    default:
      return PREC_TEST;
    }
}

/* The operator of a comparison (= <> < <= > >=), NULL for any other kind. */
static const char *
comparator_text (DdbNodeKind kind)
{
  return kind >= DDB_NODE_EQ && kind <= DDB_NODE_GE ? ddb_node_kind_operator (kind) : NULL;
}

void
eb_render_path (EbAliases *a, GString *out, const DdbPath *path)
{
  for (guint i = 0; i < path->n; i++)
    {
      const char *name = path->elems[i].name;
      const char *alias;

      if (name == NULL)
        {
          g_string_append_printf (out, "[%u]", path->elems[i].index);
          continue;
        }
      if (i > 0)
        g_string_append_c (out, '.');
      alias = eb_alias_name (a, name);
      g_string_append (out, alias != NULL ? alias : name);
    }
}

static gint
guarded_index (EbAliases *a, const DdbPath *path)
{
  for (guint i = 0; i < a->guarded->len; i++)
    if (ddb_eb_path_equal (g_ptr_array_index (a->guarded, i), path))
      return (gint) i;
  return -1;
}

/* "old", "old2", ...: the Nth guarded path's pair of values share a number. */
static char *
guard_base (const char *word, gint index)
{
  return index == 0 ? g_strdup (word) : g_strdup_printf ("%s%d", word, index + 1);
}

static void
render_operand (EbAliases *a, GString *out, const DdbNode *n, const char *base)
{
  static const char *const functions[] = {
    [DDB_NODE_SIZE] = "size",
    [DDB_NODE_IF_NOT_EXISTS] = "if_not_exists",
    [DDB_NODE_LIST_APPEND] = "list_append",
  };

  switch (n->kind)
    {
    case DDB_NODE_PATH:
      eb_render_path (a, out, &n->path);
      return;
    case DDB_NODE_VALUE:
      /* A placeholder written by a person (raw parts) is kept as the base. */
      g_string_append (
          out, eb_alias_value (a, n->placeholder != NULL ? n->placeholder + 1 : base, n->value));
      return;
    case DDB_NODE_PLUS:
    case DDB_NODE_MINUS:
      render_operand (a, out, n->args[0], base);
      g_string_append (out, n->kind == DDB_NODE_PLUS ? " + " : " - ");
      render_operand (a, out, n->args[1], base);
      return;
    default:
      g_string_append (out, functions[n->kind]);
      g_string_append_c (out, '(');
      for (guint i = 0; i < n->n_args; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          render_operand (a, out, n->args[i], base);
        }
      g_string_append_c (out, ')');
      return;
    }
}

/* The base of a value compared with SUBJECT; COMPARISON: by = <> < <= > >=, where the guarded
 * change applies. */
static char *
compared_base (EbAliases *a, const DdbNode *subject, gboolean comparison)
{
  gint guard;

  if (subject->kind == DDB_NODE_SIZE && subject->args[0]->kind == DDB_NODE_PATH)
    return eb_path_base (a, &subject->args[0]->path);
  if (subject->kind != DDB_NODE_PATH)
    return g_strdup ("v");
  guard = comparison ? guarded_index (a, &subject->path) : -1;
  return guard >= 0 ? guard_base ("old", guard) : eb_path_base (a, &subject->path);
}

static void
render_function (EbAliases *a, GString *out, const DdbNode *n, const char *name,
                 const char *second_base)
{
  g_string_append_printf (out, "%s(", name);
  render_operand (a, out, n->args[0], "v");
  if (n->n_args > 1)
    {
      g_string_append (out, ", ");
      render_operand (a, out, n->args[1], second_base);
    }
  g_string_append_c (out, ')');
}

static void
render_test (EbAliases *a, GString *out, const DdbNode *n)
{
  g_autofree char *base = NULL;

  switch (n->kind)
    {
    case DDB_NODE_BETWEEN:
      render_operand (a, out, n->args[0], "v");
      g_string_append (out, " BETWEEN ");
      render_operand (a, out, n->args[1], "lo");
      g_string_append (out, " AND ");
      render_operand (a, out, n->args[2], "hi");
      return;
    case DDB_NODE_IN:
      render_operand (a, out, n->args[0], "v");
      g_string_append (out, " IN (");
      base = compared_base (a, n->args[0], FALSE);
      for (guint i = 1; i < n->n_args; i++)
        {
          if (i > 1)
            g_string_append (out, ", ");
          render_operand (a, out, n->args[i], base);
        }
      g_string_append_c (out, ')');
      return;
    case DDB_NODE_ATTRIBUTE_EXISTS:
      render_function (a, out, n, "attribute_exists", NULL);
      return;
    case DDB_NODE_ATTRIBUTE_NOT_EXISTS:
      render_function (a, out, n, "attribute_not_exists", NULL);
      return;
    case DDB_NODE_ATTRIBUTE_TYPE:
      render_function (a, out, n, "attribute_type", "t");
      return;
    case DDB_NODE_BEGINS_WITH:
      render_function (a, out, n, "begins_with", "p");
      return;
    case DDB_NODE_CONTAINS:
      /* The subject is rendered first, so its alias is given out before the value's. */
      g_string_append (out, "contains(");
      render_operand (a, out, n->args[0], "v");
      g_string_append (out, ", ");
      base = compared_base (a, n->args[0], FALSE);
      render_operand (a, out, n->args[1], base);
      g_string_append_c (out, ')');
      return;
    default:
      for (guint i = 0; i < 2; i++)
        {
          if (i == 1)
            g_string_append_printf (out, " %s ", comparator_text (n->kind));
          if (n->args[i]->kind == DDB_NODE_VALUE)
            {
              g_autofree char *b = compared_base (a, n->args[1 - i], TRUE);

              render_operand (a, out, n->args[i], b);
            }
          else
            render_operand (a, out, n->args[i], "v");
        }
      return;
    }
}

static void
render_cond (EbAliases *a, GString *out, const DdbNode *n, int min)
{
  gboolean paren = precedence (n) < min;

  if (paren)
    g_string_append_c (out, '(');
  switch (n->kind)
    {
    case DDB_NODE_OR:
    case DDB_NODE_AND:
      /* Left-associative: a right operand of the same strength keeps its parentheses, so the
       * text parses back to the same tree. */
      render_cond (a, out, n->args[0], precedence (n));
      g_string_append (out, n->kind == DDB_NODE_OR ? " OR " : " AND ");
      render_cond (a, out, n->args[1], precedence (n) + 1);
      break;
    case DDB_NODE_NOT:
      g_string_append (out, "NOT ");
      render_cond (a, out, n->args[0], PREC_NOT);
      break;
    default:
      render_test (a, out, n);
      break;
    }
  if (paren)
    g_string_append_c (out, ')');
}

void
eb_render_condition (EbAliases *a, GString *out, const DdbNode *node)
{
  render_cond (a, out, node, PREC_OR);
}

void
eb_render_update (EbAliases *a, GString *out, const EbActionView *actions, guint n)
{
  static const char *const keywords[] = { "SET", "REMOVE", "ADD", "DELETE" };
  DdbUpdateKind order[4];
  guint n_order = 0;

  for (guint i = 0; i < n; i++)
    {
      gboolean seen = FALSE;

      for (guint o = 0; o < n_order; o++)
        seen = seen || order[o] == actions[i].kind;
      if (!seen)
        order[n_order++] = actions[i].kind;
    }
  for (guint o = 0; o < n_order; o++)
    {
      gboolean first = TRUE;

      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append_printf (out, "%s ", keywords[order[o]]);
      for (guint i = 0; i < n; i++)
        {
          const EbActionView *v = &actions[i];
          g_autofree char *base = NULL;
          gint guard;

          if (v->kind != order[o])
            continue;
          if (!first)
            g_string_append (out, ", ");
          first = FALSE;
          eb_render_path (a, out, v->path);
          if (v->operand == NULL)
            continue;
          guard = v->kind == DDB_UPDATE_SET && v->operand->kind == DDB_NODE_VALUE
                      ? guarded_index (a, v->path)
                      : -1;
          base = guard >= 0 ? guard_base ("new", guard) : eb_path_base (a, v->path);
          g_string_append (out, v->kind == DDB_UPDATE_SET ? " = " : " ");
          render_operand (a, out, v->operand, base);
        }
    }
}

/* ---- Rows to trees --------------------------------------------------------------------- */

G_GNUC_PRINTF (2, 3)
static gboolean
incomplete (GError **error, const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list ap;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, message);
  return FALSE;
}

static const char *
node_name (DdbNodeKind kind)
{
  static const char *const names[] = {
    [DDB_NODE_PATH] = "a path",
    [DDB_NODE_VALUE] = "a value",
    [DDB_NODE_SIZE] = "size()",
    [DDB_NODE_PLUS] = "+",
    [DDB_NODE_MINUS] = "-",
    [DDB_NODE_IF_NOT_EXISTS] = "if_not_exists()",
    [DDB_NODE_LIST_APPEND] = "list_append()",
    [DDB_NODE_EQ] = "=",
    [DDB_NODE_NE] = "<>",
    [DDB_NODE_LT] = "<",
    [DDB_NODE_LE] = "<=",
    [DDB_NODE_GT] = ">",
    [DDB_NODE_GE] = ">=",
    [DDB_NODE_BETWEEN] = "BETWEEN",
    [DDB_NODE_IN] = "IN",
    [DDB_NODE_AND] = "AND",
    [DDB_NODE_OR] = "OR",
    [DDB_NODE_NOT] = "NOT",
    [DDB_NODE_ATTRIBUTE_EXISTS] = "attribute_exists()",
    [DDB_NODE_ATTRIBUTE_NOT_EXISTS] = "attribute_not_exists()",
    [DDB_NODE_ATTRIBUTE_TYPE] = "attribute_type()",
    [DDB_NODE_BEGINS_WITH] = "begins_with()",
    [DDB_NODE_CONTAINS] = "contains()",
  };

  return kind < G_N_ELEMENTS (names) ? names[kind] : "?";
}

static gboolean
is_operand_kind (DdbNodeKind kind)
{
  return kind <= DDB_NODE_LIST_APPEND;
}

/* What the renderer indexes must be there, tests where tests go and operands where operands go;
 * whether DynamoDB takes the rest is the parser's to say when the text is read back. */
static gboolean
check_shape (const DdbNode *n, gboolean condition, GError **error)
{
  gboolean args_are_conditions = FALSE;
  guint want;

  if (condition && is_operand_kind (n->kind))
    return incomplete (error, "A test must compare or call a function, not be %s",
                       node_name (n->kind));
  if (!condition && !is_operand_kind (n->kind))
    return incomplete (error, "%s cannot stand where a path or a value goes", node_name (n->kind));
  switch (n->kind)
    {
    case DDB_NODE_PATH:
      if (n->path.n == 0 || n->path.elems[0].name == NULL)
        return incomplete (error, "A path must start with an attribute name");
      return TRUE;
    case DDB_NODE_VALUE:
      if (n->value == NULL)
        return incomplete (error, "A value is missing");
      return TRUE;
    case DDB_NODE_NOT:
      args_are_conditions = TRUE;
      want = 1;
      break;
    case DDB_NODE_AND:
    case DDB_NODE_OR:
      args_are_conditions = TRUE;
      want = 2;
      break;
    case DDB_NODE_SIZE:
    case DDB_NODE_ATTRIBUTE_EXISTS:
    case DDB_NODE_ATTRIBUTE_NOT_EXISTS:
      want = 1;
      break;
    case DDB_NODE_BETWEEN:
      want = 3;
      break;
    case DDB_NODE_IN:
      if (n->n_args < 2)
        return incomplete (error, "IN needs at least one value to compare with");
      want = n->n_args;
      break;
    default:
      want = 2;
      break;
    }
  if (n->n_args != want)
    return incomplete (error, "%s takes %u operands, not %u", node_name (n->kind), want, n->n_args);
  for (guint i = 0; i < n->n_args; i++)
    if (n->args[i] == NULL)
      return incomplete (error, "An operand of %s is missing", node_name (n->kind));
    else if (!check_shape (n->args[i], args_are_conditions, error))
      return FALSE;
  return TRUE;
}

static DdbNode *
join (DdbNodeKind kind, DdbNode *left, DdbNode *right)
{
  return left == NULL ? right : ddb_eb_node_new (kind, 2, left, right);
}

/* *OUT is NULL for a group that holds nothing. */
static gboolean
cond_to_node (const DdbEbCond *c, DdbExprType type, DdbNode **out, GError **error)
{
  DdbNode *acc = NULL;

  *out = NULL;
  switch (c->kind)
    {
    case DDB_EB_TEST:
      if (c->node == NULL)
        return incomplete (error, "A test is empty");
      if (!check_shape (c->node, TRUE, error))
        return FALSE;
      *out = ddb_eb_node_copy (c->node);
      return TRUE;
    case DDB_EB_RAW:
      *out = eb_raw_condition (c->raw, type, error);
      return *out != NULL;
    default:
      for (guint i = 0; i < c->children->len; i++)
        {
          DdbNode *child;

          if (!cond_to_node (g_ptr_array_index (c->children, i), type, &child, error))
            {
              ddb_node_free (acc);
              return FALSE;
            }
          if (child != NULL)
            acc = join (c->kind == DDB_EB_OR ? DDB_NODE_OR : DDB_NODE_AND, acc, child);
        }
      if (c->kind == DDB_EB_NOT && acc != NULL)
        acc = ddb_eb_node_new (DDB_NODE_NOT, 1, acc);
      *out = acc;
      return TRUE;
    }
}

static DdbNode *
key_path_node (const char *name)
{
  DdbPath p;
  DdbNode *n;

  ddb_eb_path_init_name (&p, name);
  n = ddb_eb_node_path (&p);
  ddb_path_clear (&p);
  return n;
}

static DdbNode *
key_to_node (const DdbEbModel *m, GError **error)
{
  static const DdbNodeKind sk_kinds[] = {
    [DDB_SK_EQ] = DDB_NODE_EQ,
    [DDB_SK_LT] = DDB_NODE_LT,
    [DDB_SK_LE] = DDB_NODE_LE,
    [DDB_SK_GT] = DDB_NODE_GT,
    [DDB_SK_GE] = DDB_NODE_GE,
    [DDB_SK_BETWEEN] = DDB_NODE_BETWEEN,
    [DDB_SK_BEGINS_WITH] = DDB_NODE_BEGINS_WITH,
  };
  DdbNode *pk, *sk;

  if (m->key_raw != NULL)
    return eb_raw_condition (m->key_raw, DDB_EXPR_KEY_CONDITION, error);
  if (m->pk_name == NULL || m->pk_name[0] == '\0')
    {
      incomplete (error, "A Query needs the partition key's name and value");
      return NULL;
    }
  if (m->pk_value == NULL)
    {
      incomplete (error, "The partition key %s needs a value", m->pk_name);
      return NULL;
    }
  if (m->sk_op != DDB_SK_NONE)
    {
      const char *missing = NULL;

      if (m->sk_name == NULL || m->sk_name[0] == '\0')
        missing = "The sort key condition needs the sort key's name";
      else if (m->sk_values[0] == NULL || (m->sk_op == DDB_SK_BETWEEN && m->sk_values[1] == NULL))
        missing = m->sk_op == DDB_SK_BETWEEN
                      ? "BETWEEN on the sort key needs a lower and an upper value"
                      : "The sort key condition needs a value";
      if (missing != NULL)
        {
          incomplete (error, "%s", missing);
          return NULL;
        }
    }
  pk = ddb_eb_node_new (DDB_NODE_EQ, 2, key_path_node (m->pk_name),
                        ddb_eb_node_value (ddb_value_copy (m->pk_value)));
  if (m->sk_op == DDB_SK_NONE)
    return pk;
  if (m->sk_op == DDB_SK_BETWEEN)
    sk = ddb_eb_node_new (DDB_NODE_BETWEEN, 3, key_path_node (m->sk_name),
                          ddb_eb_node_value (ddb_value_copy (m->sk_values[0])),
                          ddb_eb_node_value (ddb_value_copy (m->sk_values[1])));
  else
    sk = ddb_eb_node_new (sk_kinds[m->sk_op], 2, key_path_node (m->sk_name),
                          ddb_eb_node_value (ddb_value_copy (m->sk_values[0])));
  return ddb_eb_node_new (DDB_NODE_AND, 2, pk, sk);
}

static gboolean
action_views (const DdbEbModel *m, GArray *views, GPtrArray *raw_updates, GError **error)
{
  for (guint i = 0; i < m->actions->len; i++)
    {
      const DdbEbAction *act = g_ptr_array_index (m->actions, i);
      EbActionView v = { act->kind, &act->path, act->operand };
      g_autofree char *path = NULL;

      if (act->raw != NULL)
        {
          DdbUpdate *u = eb_raw_update (act->raw, error);

          if (u == NULL)
            return FALSE;
          g_ptr_array_add (raw_updates, u);
          for (guint k = 0; k < u->n_actions; k++)
            {
              EbActionView rv = { u->actions[k].kind, &u->actions[k].path, u->actions[k].operand };

              g_array_append_val (views, rv);
            }
          continue;
        }
      if (act->path.n == 0 || act->path.elems[0].name == NULL)
        return incomplete (error, "An update action needs the path it changes");
      path = ddb_eb_path_to_text (&act->path);
      if (act->kind == DDB_UPDATE_REMOVE && act->operand != NULL)
        return incomplete (error, "REMOVE %s takes no value", path);
      if (act->kind != DDB_UPDATE_REMOVE && act->operand == NULL)
        return incomplete (error, "%s %s needs a value",
                           act->kind == DDB_UPDATE_SET   ? "SET"
                           : act->kind == DDB_UPDATE_ADD ? "ADD"
                                                         : "DELETE",
                           path);
      if (act->operand != NULL && !check_shape (act->operand, FALSE, error))
        return FALSE;
      g_array_append_val (views, v);
    }
  return TRUE;
}

static gboolean
compares_path (const DdbNode *n, const DdbPath *path)
{
  if (comparator_text (n->kind) != NULL)
    for (guint i = 0; i < 2; i++)
      if (n->args[i]->kind == DDB_NODE_PATH && n->args[1 - i]->kind == DDB_NODE_VALUE
          && ddb_eb_path_equal (&n->args[i]->path, path))
        return TRUE;
  if (n->kind == DDB_NODE_AND || n->kind == DDB_NODE_OR || n->kind == DDB_NODE_NOT)
    for (guint i = 0; i < n->n_args; i++)
      if (compares_path (n->args[i], path))
        return TRUE;
  return FALSE;
}

/* ---- The model to text ----------------------------------------------------------------- */

typedef struct {
  EbAliases aliases;
  DdbExprType condition_type;
  char *key;
  char *condition;
  char *projection;
  char *update;
} EbRendered;

static void
rendered_clear (EbRendered *r)
{
  eb_aliases_clear (&r->aliases);
  g_clear_pointer (&r->key, g_free);
  g_clear_pointer (&r->condition, g_free);
  g_clear_pointer (&r->projection, g_free);
  g_clear_pointer (&r->update, g_free);
}

static gboolean
uses_condition (DdbEbOperation op)
{
  return op != DDB_EB_GET_ITEM;
}

static gboolean
uses_projection (DdbEbOperation op)
{
  return op == DDB_EB_QUERY || op == DDB_EB_SCAN || op == DDB_EB_GET_ITEM;
}

/* What was rendered, read back as DynamoDB will read it. */
static gboolean
check_rendered (EbRendered *r, GError **error)
{
  g_autoptr (GHashTable) names = eb_aliases_name_table (&r->aliases);
  g_autoptr (DdbExprContext) ctx = ddb_expr_context_new (names, r->aliases.value_tab);
  g_autoptr (DdbNode) key = NULL;
  g_autoptr (DdbNode) cond = NULL;
  g_autoptr (DdbProjection) proj = NULL;
  g_autoptr (DdbUpdate) update = NULL;

  if (r->aliases.bad_name)
    return incomplete (error, "An attribute name is empty or not valid UTF-8");
  if (r->key != NULL
      && (key = ddb_condition_parse (DDB_EXPR_KEY_CONDITION, r->key, ctx, error)) == NULL)
    return FALSE;
  if (r->condition != NULL
      && (cond = ddb_condition_parse (r->condition_type, r->condition, ctx, error)) == NULL)
    return FALSE;
  if (r->projection != NULL && (proj = ddb_projection_parse (r->projection, ctx, error)) == NULL)
    return FALSE;
  if (r->update != NULL && (update = ddb_update_parse (r->update, ctx, error)) == NULL)
    return FALSE;
  return ddb_expr_context_check_unused (ctx, error);
}

static gboolean
render_model (const DdbEbModel *m, EbRendered *r, GError **error)
{
  g_autoptr (DdbNode) key = NULL;
  g_autoptr (DdbNode) cond = NULL;
  g_autoptr (GArray) views = g_array_new (FALSE, FALSE, sizeof (EbActionView));
  g_autoptr (GPtrArray) raw_updates
      = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_update_free);

  memset (r, 0, sizeof *r);
  eb_aliases_init (&r->aliases, m->bare_names);
  r->condition_type = m->operation == DDB_EB_QUERY || m->operation == DDB_EB_SCAN
                          ? DDB_EXPR_FILTER
                          : DDB_EXPR_CONDITION;
  if (m->operation == DDB_EB_QUERY && (key = key_to_node (m, error)) == NULL)
    return FALSE;
  if (uses_condition (m->operation)
      && !cond_to_node (m->condition, r->condition_type, &cond, error))
    return FALSE;
  if (m->operation == DDB_EB_UPDATE_ITEM && !action_views (m, views, raw_updates, error))
    return FALSE;

  for (guint i = 0; cond != NULL && i < views->len; i++)
    {
      const EbActionView *v = &g_array_index (views, EbActionView, i);

      if (v->kind == DDB_UPDATE_SET && v->operand->kind == DDB_NODE_VALUE
          && compares_path (cond, v->path))
        g_ptr_array_add (r->aliases.guarded, (gpointer) v->path);
    }

  if (key != NULL)
    {
      GString *s = g_string_new (NULL);

      eb_render_condition (&r->aliases, s, key);
      r->key = g_string_free (s, FALSE);
    }
  if (cond != NULL)
    {
      GString *s = g_string_new (NULL);

      eb_render_condition (&r->aliases, s, cond);
      r->condition = g_string_free (s, FALSE);
    }
  if (uses_projection (m->operation) && m->projection->len > 0)
    {
      GString *s = g_string_new (NULL);

      for (guint i = 0; i < m->projection->len; i++)
        {
          const DdbPath *p = &g_array_index (m->projection, DdbPath, i);

          if (p->n == 0 || p->elems[0].name == NULL)
            {
              g_string_free (s, TRUE);
              return incomplete (error, "A projected path must start with an attribute name");
            }
          if (i > 0)
            g_string_append (s, ", ");
          eb_render_path (&r->aliases, s, p);
        }
      r->projection = g_string_free (s, FALSE);
    }
  if (views->len > 0)
    {
      GString *s = g_string_new (NULL);

      eb_render_update (&r->aliases, s, (EbActionView *) views->data, views->len);
      r->update = g_string_free (s, FALSE);
    }
  return check_rendered (r, error);
}

static void
set_or_remove (json_t *request, const char *member, const char *text)
{
  if (text != NULL)
    json_object_set_new (request, member, json_string (text));
  else
    json_object_del (request, member);
}

gboolean
ddb_eb_render (const DdbEbModel *model, json_t *request, GError **error)
{
  EbRendered r;
  gboolean filter;

  g_return_val_if_fail (json_is_object (request), FALSE);
  if (!render_model (model, &r, error))
    {
      rendered_clear (&r);
      return FALSE;
    }
  filter = r.condition_type == DDB_EXPR_FILTER;
  set_or_remove (request, "KeyConditionExpression", r.key);
  set_or_remove (request, "FilterExpression", filter ? r.condition : NULL);
  set_or_remove (request, "ConditionExpression", filter ? NULL : r.condition);
  set_or_remove (request, "ProjectionExpression", r.projection);
  set_or_remove (request, "UpdateExpression", r.update);
  if (json_object_size (r.aliases.names) > 0)
    json_object_set (request, "ExpressionAttributeNames", r.aliases.names);
  else
    json_object_del (request, "ExpressionAttributeNames");
  if (json_object_size (r.aliases.values) > 0)
    json_object_set (request, "ExpressionAttributeValues", r.aliases.values);
  else
    json_object_del (request, "ExpressionAttributeValues");
  rendered_clear (&r);
  return TRUE;
}

gboolean
ddb_eb_validate_text (const DdbEbModel *model, DdbExprType type, const char *text, GError **error)
{
  EbRendered r;
  g_autoptr (GHashTable) names = NULL;
  g_autoptr (DdbExprContext) ctx = NULL;
  gboolean ok;

  if (!render_model (model, &r, NULL))
    {
      /* The model's own problem is not this text's: check it against no placeholders. */
      rendered_clear (&r);
      eb_aliases_init (&r.aliases, model->bare_names);
    }
  names = eb_aliases_name_table (&r.aliases);
  ctx = ddb_expr_context_new (names, r.aliases.value_tab);
  if (type == DDB_EXPR_PROJECTION)
    {
      g_autoptr (DdbProjection) p = ddb_projection_parse (text, ctx, error);

      ok = p != NULL;
    }
  else if (type == DDB_EXPR_UPDATE)
    {
      g_autoptr (DdbUpdate) u = ddb_update_parse (text, ctx, error);

      ok = u != NULL;
    }
  else
    {
      g_autoptr (DdbNode) n = ddb_condition_parse (type, text, ctx, error);

      ok = n != NULL;
    }
  g_clear_pointer (&ctx, ddb_expr_context_free);
  g_clear_pointer (&names, g_hash_table_unref);
  rendered_clear (&r);
  return ok;
}
