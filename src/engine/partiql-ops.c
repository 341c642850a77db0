/* partiql-ops.c: ExecuteStatement. A SELECT whose WHERE fixes the partition key (by `=` or
 * `IN`) is a Query per key value, with a sort-key condition when there is one; any other
 * SELECT is a Scan; the rest of the WHERE is the filter. INSERT, UPDATE and DELETE are the
 * single-item writes they stand for. */
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "engine/partiql-private.h"
#include "engine/request.h"

/* The members ExecuteStatement shares with the statements of a batch or a transaction. */
typedef struct {
  const char *statement;
  gsize statement_len;
  GPtrArray *params; /* DdbValue* */
  gboolean consistent;
  gint64 limit;
  gboolean has_limit;
  const char *next_token;
  const char *rcc;  /* ReturnConsumedCapacity as given, or NULL */
  const char *rvcf; /* ReturnValuesOnConditionCheckFailure, or NULL */
} Request;

static void
request_clear (Request *r)
{
  g_clear_pointer (&r->params, g_ptr_array_unref);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Request, request_clear)

static gboolean
read_request (json_t *req, Request *r, GError **error)
{
  static const char *const rvcf_values[] = { "ALL_OLD", "NONE", NULL };
  json_t *limit = json_object_get (req, "Limit");
  DdbReturnCapacity rcc;
  DdbViolations v;

  /* The constraints first, all in one message, as DynamoDB lists them. */
  ddb_violations_init (&v);
  pql_statement_violations (&v, req, "");
  if (json_is_integer (limit) && json_integer_value (limit) < 1)
    {
      g_autofree char *text = g_strdup_printf ("%" JSON_INTEGER_FORMAT, json_integer_value (limit));

      ddb_violation_add (&v, "limit", text, "Member must have value greater than or equal to 1");
    }
  if (!ddb_violations_finish (&v, error))
    return FALSE;
  r->statement = ddb_req_string (req, "Statement", TRUE, error);
  if (r->statement == NULL)
    return FALSE;
  r->statement_len = json_string_length (json_object_get (req, "Statement"));
  if (!pql_parameters (json_object_get (req, "Parameters"), &r->params, error)
      || !ddb_req_bool (req, "ConsistentRead", FALSE, &r->consistent, error)
      || !ddb_req_int (req, "Limit", 1, G_MAXINT32, &r->limit, &r->has_limit, error)
      || !ddb_req_return_capacity (req, &rcc, error)
      || ddb_req_enum (req, "ReturnValuesOnConditionCheckFailure", rvcf_values, 1, error) < 0)
    return FALSE;
  r->next_token = ddb_req_string (req, "NextToken", FALSE, error);
  if (r->next_token == NULL && error != NULL && *error != NULL)
    return FALSE;
  r->rcc = json_string_value (json_object_get (req, "ReturnConsumedCapacity"));
  r->rvcf = json_string_value (json_object_get (req, "ReturnValuesOnConditionCheckFailure"));
  return TRUE;
}

/* ---- SELECT ---- */

typedef struct {
  DdbPqlStatement *s;
  DdbTableDef *def;
  const DdbIndexDef *index;
  const DdbKeyDef *key; /* the index's or the table's */
  GPtrArray *pk_values; /* borrowed DdbValue*: one Query each; NULL: a Scan */
  DdbNode *pk_cond;     /* borrowed */
  DdbNode *sk_cond;     /* borrowed, or NULL */
  GPtrArray *filter;    /* borrowed conjuncts */
} Select;

static void
select_clear (Select *q)
{
  g_clear_pointer (&q->def, ddb_table_def_free);
  g_clear_pointer (&q->pk_values, g_ptr_array_unref);
  g_clear_pointer (&q->filter, g_ptr_array_unref);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Select, select_clear)

static gboolean
is_key_attribute (const DdbNode *n, const char *name)
{
  return name != NULL && n->kind == DDB_NODE_PATH && n->path.n == 1
         && strcmp (n->path.elems[0].name, name) == 0;
}

static gboolean
all_values_of (DdbNode *const *args, guint n, DdbType type)
{
  for (guint i = 0; i < n; i++)
    if (args[i]->kind != DDB_NODE_VALUE || args[i]->value->type != type)
      return FALSE;
  return TRUE;
}

/* The leaves of an OR tree that are all `pk = value` (in either order), as value nodes. */
static gboolean
or_of_equalities (DdbNode *c, const char *pk, GPtrArray *values)
{
  if (c->kind == DDB_NODE_OR)
    return or_of_equalities (c->args[0], pk, values) && or_of_equalities (c->args[1], pk, values);
  if (c->kind != DDB_NODE_EQ)
    return FALSE;
  if (is_key_attribute (c->args[0], pk) && c->args[1]->kind == DDB_NODE_VALUE)
    g_ptr_array_add (values, c->args[1]);
  else if (is_key_attribute (c->args[1], pk) && c->args[0]->kind == DDB_NODE_VALUE)
    g_ptr_array_add (values, c->args[0]);
  else
    return FALSE;
  return TRUE;
}

#define CONDITION_TYPE \
  "One or more parameter values were invalid: Condition parameter type does not match schema " \
  "type"

/* The partition-key values of `c` (`pk = v`, `pk IN [v, ...]`, `pk = v OR pk = w`: the
 * documentation's forms that are no full table scan), or FALSE. */
static gboolean
pk_values (const Select *q, DdbNode *c, GPtrArray **out, GError **error)
{
  const char *pk = q->key->hash_name;
  g_autoptr (GPtrArray) ors = g_ptr_array_new ();
  DdbNode *const *values;
  guint n;

  if (c->kind == DDB_NODE_EQ && is_key_attribute (c->args[0], pk)
      && c->args[1]->kind == DDB_NODE_VALUE)
    values = &c->args[1], n = 1;
  else if (c->kind == DDB_NODE_EQ && is_key_attribute (c->args[1], pk)
           && c->args[0]->kind == DDB_NODE_VALUE)
    values = &c->args[0], n = 1;
  else if (c->kind == DDB_NODE_IN && is_key_attribute (c->args[0], pk)
           && all_values_of (c->args + 1, c->n_args - 1,
                             c->args[1]->kind == DDB_NODE_VALUE ? c->args[1]->value->type
                                                                : DDB_TYPE_NULL))
    values = c->args + 1, n = c->n_args - 1;
  else if (c->kind == DDB_NODE_OR && or_of_equalities (c, pk, ors))
    values = (DdbNode *const *) ors->pdata, n = ors->len;
  else
    return FALSE;
  /* One value is the key of a GetItem or a Query; several are a condition, told as one. */
  for (guint i = 0; i < n; i++)
    if (values[i]->value->type != q->key->hash_type)
      return c->kind == DDB_NODE_EQ ? ddb_set_validation_error (error, PQL_KEY_TYPE, pk)
                                    : ddb_set_validation_error (error, CONDITION_TYPE);
  *out = g_ptr_array_new ();
  for (guint i = 0; i < n; i++)
    {
      gboolean seen = FALSE;

      /* Each partition once, however often the statement names it. */
      for (guint j = 0; j < (*out)->len && !seen; j++)
        seen = ddb_value_equal ((*out)->pdata[j], values[i]->value);
      if (!seen)
        g_ptr_array_add (*out, values[i]->value);
    }
  return TRUE;
}

/* A value a key can have (S, N or B): the only operands `<` and BETWEEN take. */
static gboolean
is_scalar_value (const DdbNode *n)
{
  return n->kind == DDB_NODE_VALUE
         && (n->value->type == DDB_TYPE_S || n->value->type == DDB_TYPE_N
             || n->value->type == DDB_TYPE_B);
}

/* A condition a Query can take on the sort key, whatever the type of its values (a value of
 * another type than the key's is an error, told by sk_types_ok). An ordering or BETWEEN of a
 * value no key can have, BETWEEN with bounds of two types and begins_with with an operand of
 * neither S nor B are left to the filter, whose checks tell what is wrong with them. */
static gboolean
is_sk_condition (const Select *q, const DdbNode *c)
{
  const char *sk = q->key->range_name;

  switch (c->kind)
    {
    case DDB_NODE_EQ:
      return is_key_attribute (c->args[0], sk) && c->args[1]->kind == DDB_NODE_VALUE;
    case DDB_NODE_LT:
    case DDB_NODE_LE:
    case DDB_NODE_GT:
    case DDB_NODE_GE:
      return is_key_attribute (c->args[0], sk) && is_scalar_value (c->args[1]);
    case DDB_NODE_BETWEEN:
      return is_key_attribute (c->args[0], sk) && is_scalar_value (c->args[1])
             && all_values_of (c->args + 2, 1, c->args[1]->value->type);
    case DDB_NODE_BEGINS_WITH:
      return is_key_attribute (c->args[0], sk) && c->args[1]->kind == DDB_NODE_VALUE
             && (c->args[1]->value->type == DDB_TYPE_S || c->args[1]->value->type == DDB_TYPE_B);
    default:
      return FALSE;
    }
}

static gboolean
is_reversed_sk_condition (const Select *q, const DdbNode *c)
{
  return ((c->kind == DDB_NODE_EQ && c->args[0]->kind == DDB_NODE_VALUE)
          || ((c->kind == DDB_NODE_LT || c->kind == DDB_NODE_LE || c->kind == DDB_NODE_GT
               || c->kind == DDB_NODE_GE)
              && is_scalar_value (c->args[0])))
         && is_key_attribute (c->args[1], q->key->range_name);
}

/* A sort-key value of the wrong type: the key condition of one partition's Query names the
 * key; with several partitions, it is a condition like any other. */
static gboolean
sk_type_error (const Select *q, GError **error)
{
  if (q->pk_cond->kind == DDB_NODE_EQ)
    return ddb_set_validation_error (error, PQL_KEY_TYPE, q->key->range_name);
  return ddb_set_validation_error (error, CONDITION_TYPE);
}

/* A sort-key condition with values of the key's type. */
static gboolean
sk_types_ok (const Select *q, const DdbNode *c, GError **error)
{
  return all_values_of (c->args + 1, c->n_args - 1, q->key->range_type) || sk_type_error (q, error);
}

/* The type of the key attribute `n` names, if it names one (of the table's key, or of the
 * index's the statement reads). */
static gboolean
key_type_of (const Select *q, const DdbNode *n, DdbType *type)
{
  const DdbKeyDef *keys[2] = { q->key, &q->def->key };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      if (is_key_attribute (n, keys[i]->hash_name))
        return (*type = keys[i]->hash_type, TRUE);
      if (is_key_attribute (n, keys[i]->range_name))
        return (*type = keys[i]->range_type, TRUE);
    }
  return FALSE;
}

static gboolean
value_of_type (const DdbNode *n, DdbType type)
{
  return n->kind != DDB_NODE_VALUE || n->value->type == type;
}

/* Whether `n` compares a key attribute with a value of another type anywhere: DynamoDB refuses
 * such a statement rather than find nothing. An ordering or BETWEEN of a value no key can have,
 * a BETWEEN whose bounds differ in type and a begins_with of a number are not counted: their
 * own errors come first. */
static gboolean
mistyped (const Select *q, const DdbNode *n)
{
  DdbType t;

  switch (n->kind)
    {
    case DDB_NODE_AND:
    case DDB_NODE_OR:
      return mistyped (q, n->args[0]) || mistyped (q, n->args[1]);
    case DDB_NODE_NOT:
      return mistyped (q, n->args[0]);
    case DDB_NODE_LT:
    case DDB_NODE_LE:
    case DDB_NODE_GT:
    case DDB_NODE_GE:
      for (guint i = 0; i < 2; i++)
        if (n->args[i]->kind == DDB_NODE_VALUE && !is_scalar_value (n->args[i]))
          return FALSE;
      G_GNUC_FALLTHROUGH;
    case DDB_NODE_EQ:
    case DDB_NODE_NE:
      return (key_type_of (q, n->args[0], &t) && !value_of_type (n->args[1], t))
             || (key_type_of (q, n->args[1], &t) && !value_of_type (n->args[0], t));
    case DDB_NODE_BETWEEN:
      for (guint i = 1; i < 3; i++)
        if (n->args[i]->kind == DDB_NODE_VALUE && !is_scalar_value (n->args[i]))
          return FALSE;
      if (n->args[1]->kind == DDB_NODE_VALUE && n->args[2]->kind == DDB_NODE_VALUE
          && n->args[1]->value->type != n->args[2]->value->type)
        return FALSE;
      return key_type_of (q, n->args[0], &t)
             && (!value_of_type (n->args[1], t) || !value_of_type (n->args[2], t));
    case DDB_NODE_IN:
      if (!key_type_of (q, n->args[0], &t))
        return FALSE;
      for (guint i = 1; i < n->n_args; i++)
        if (!value_of_type (n->args[i], t))
          return TRUE;
      return FALSE;
    case DDB_NODE_BEGINS_WITH:
      return key_type_of (q, n->args[0], &t) && n->args[1]->kind == DDB_NODE_VALUE
             && (n->args[1]->value->type == DDB_TYPE_S || n->args[1]->value->type == DDB_TYPE_B)
             && n->args[1]->value->type != t;
    case DDB_NODE_CONTAINS:
      return key_type_of (q, n->args[0], &t) && !value_of_type (n->args[1], t);
    default:
      return FALSE;
    }
}

static void
collect_conjuncts (DdbNode *n, GPtrArray *out)
{
  if (n == NULL)
    return;
  if (n->kind == DDB_NODE_AND)
    {
      collect_conjuncts (n->args[0], out);
      collect_conjuncts (n->args[1], out);
    }
  else
    g_ptr_array_add (out, n);
}

static gboolean
plan_select (DdbEngine *e, DdbPqlStatement *s, Select *q, GError **error)
{
  g_autoptr (GPtrArray) all = g_ptr_array_new ();

  q->s = s;
  q->def = pql_table (e, s, &q->index, error);
  if (q->def == NULL)
    return FALSE;
  q->key = q->index != NULL ? &q->index->key : &q->def->key;
  q->filter = g_ptr_array_new ();
  collect_conjuncts (s->where, all);
  for (guint i = 0; i < all->len; i++)
    {
      DdbNode *c = all->pdata[i];

      if (q->pk_cond == NULL && pk_values (q, c, &q->pk_values, error))
        q->pk_cond = c;
      else if (error != NULL && *error != NULL)
        return FALSE;
    }
  /* The sort key's condition: an equality if there is one, else the first that can be. */
  for (guint i = 0; q->pk_cond != NULL && i < all->len; i++)
    {
      DdbNode *c = all->pdata[i];

      if (c != q->pk_cond && is_sk_condition (q, c)
          && (q->sk_cond == NULL || (c->kind == DDB_NODE_EQ && q->sk_cond->kind != DDB_NODE_EQ)))
        q->sk_cond = c;
    }
  if (q->sk_cond != NULL && !sk_types_ok (q, q->sk_cond, error))
    return FALSE;
  for (guint i = 0; i < all->len; i++)
    if (all->pdata[i] != q->pk_cond && all->pdata[i] != q->sk_cond)
      g_ptr_array_add (q->filter, all->pdata[i]);
  for (guint i = 0; i < q->filter->len; i++)
    {
      DdbNode *c = q->filter->pdata[i];

      /* `value < sk` is as much a key condition as `sk > value`, and told as one. */
      if (q->pk_cond != NULL && q->sk_cond == NULL && is_reversed_sk_condition (q, c)
          && !value_of_type (c->args[0], q->key->range_type))
        return sk_type_error (q, error);
      if (mistyped (q, c))
        return ddb_set_validation_error (error, CONDITION_TYPE);
    }
  if (s->order_by != NULL)
    {
      if (s->where == NULL)
        return ddb_set_validation_error (
            error, "Must have WHERE clause in the statement when using ORDER BY clause.");
      if (q->pk_cond == NULL)
        return ddb_set_validation_error (error, "Must have at least one non-optional hash key "
                                                "condition in WHERE clause when using ORDER BY "
                                                "clause.");
      for (guint i = 0; i < s->order_by->len; i++)
        {
          const char *name = s->order_by->pdata[i];

          if (g_strcmp0 (name, q->key->hash_name) != 0 && g_strcmp0 (name, q->key->range_name) != 0)
            return ddb_set_validation_error (
                error, "Variable reference %s in ORDER BY clause must be part of the primary key",
                name);
        }
    }
  return TRUE;
}

/* The Query (for the partition-key value `pk`) or Scan (`pk` NULL) of one page. */
static json_t *
page_request (const Select *q, const Request *r, const DdbValue *pk, gint64 limit, json_t *start)
{
  json_t *req = json_pack ("{ss}", "TableName", q->def->name);
  g_autofree char *filter = NULL;
  PqlExpr x;

  pql_expr_init (&x);
  if (q->index != NULL)
    json_object_set_new (req, "IndexName", json_string (q->index->name));
  if (pk != NULL)
    {
      g_autofree char *name = pql_expr_name (&x, q->key->hash_name);
      g_autofree char *value = pql_expr_value (&x, pk);
      g_autofree char *sk = q->sk_cond != NULL ? pql_print_conjuncts (&x, &q->sk_cond, 1) : NULL;
      g_autofree char *kc = g_strdup_printf ("%s = %s%s%s", name, value, sk != NULL ? " AND " : "",
                                             sk != NULL ? sk : "");

      json_object_set_new (req, "KeyConditionExpression", json_string (kc));
      if (q->s->descending)
        json_object_set_new (req, "ScanIndexForward", json_false ());
    }
  filter = pql_print_conjuncts (&x, (DdbNode *const *) q->filter->pdata, q->filter->len);
  if (filter != NULL)
    json_object_set_new (req, "FilterExpression", json_string (filter));
  pql_expr_attach (&x, req);
  pql_expr_clear (&x);
  if (limit > 0)
    json_object_set_new (req, "Limit", json_integer (limit));
  if (r->consistent)
    json_object_set_new (req, "ConsistentRead", json_true ());
  if (r->rcc != NULL)
    json_object_set_new (req, "ReturnConsumedCapacity", json_string (r->rcc));
  if (start != NULL)
    json_object_set (req, "ExclusiveStartKey", start);
  return req;
}

/* NextToken: which partition-key value of the statement the next page starts at, and the
 * key after which it starts (null: at its beginning). */
static char *
token_encode (guint which, json_t *start)
{
  json_t *t
      = json_pack ("{sI sO}", "i", (json_int_t) which, "k", start != NULL ? start : json_null ());
  g_autofree char *text = json_dumps (t, JSON_COMPACT);

  json_decref (t);
  return g_base64_encode ((const guchar *) text, strlen (text));
}

static gboolean
token_decode (const char *token, guint n_keys, guint *which, json_t **start, GError **error)
{
  gsize len = 0;
  g_autofree guchar *text = token != NULL ? g_base64_decode (token, &len) : NULL;
  json_t *t = text != NULL ? json_loadb ((const char *) text, len, 0, NULL) : NULL;
  json_t *i = json_object_get (t, "i");
  json_t *k = json_object_get (t, "k");

  if (!json_is_integer (i) || json_integer_value (i) < 0
      || json_integer_value (i) >= (json_int_t) MAX (n_keys, 1)
      || (k == NULL || (!json_is_object (k) && !json_is_null (k))))
    {
      if (t != NULL)
        json_decref (t);
      return ddb_set_validation_error (error, "Invalid NextToken");
    }
  *which = json_integer_value (i);
  *start = json_is_object (k) ? json_incref (k) : NULL;
  json_decref (t);
  return TRUE;
}

/* A SELECT of the table by its full key and nothing else: the GetItem it stands for (a Query
 * would find the same item at more cost). *handled is FALSE when it is not one. */
static json_t *
select_one (DdbEngine *e, DdbPqlStatement *s, const Request *r, gboolean *handled, GError **error)
{
  g_autoptr (json_t) req = NULL;
  g_autoptr (json_t) got = NULL;
  g_autoptr (json_t) extra = NULL;
  json_t *item, *response;

  *handled = FALSE;
  if (s->index != NULL || s->order_by != NULL || r->next_token != NULL)
    return NULL;
  req = pql_get_request (e, s, "", NULL);
  if (req == NULL)
    return NULL;
  *handled = TRUE;
  if (r->consistent)
    json_object_set_new (req, "ConsistentRead", json_true ());
  if (r->rcc != NULL)
    json_object_set_new (req, "ReturnConsumedCapacity", json_string (r->rcc));
  got = ddb_op_get_item (e, req, &extra, error);
  if (got == NULL)
    return NULL;
  item = json_object_get (got, "Item");
  response = json_pack ("{s[o*]}", "Items", item != NULL ? pql_project (s, item) : NULL);
  if (json_object_get (got, "ConsumedCapacity") != NULL)
    json_object_set (response, "ConsumedCapacity", json_object_get (got, "ConsumedCapacity"));
  return response;
}

static json_t *
run_select (DdbEngine *e, DdbPqlStatement *s, const Request *r, GError **error)
{
  g_auto (Select) q = { 0 };
  g_autoptr (json_t) items = json_array ();
  json_t *start = NULL, *response, *capacity = NULL, *last = NULL;
  guint n_keys, which = 0;
  gint64 scanned = 0;

  if (!plan_select (e, s, &q, error))
    return NULL;
  n_keys = q.pk_values != NULL ? q.pk_values->len : 1;
  if (r->next_token != NULL && !token_decode (r->next_token, n_keys, &which, &start, error))
    return NULL;
  while (which < n_keys)
    {
      gint64 limit = r->has_limit ? r->limit - scanned : 0;
      g_autoptr (json_t) req = page_request (
          &q, r, q.pk_values != NULL ? q.pk_values->pdata[which] : NULL, limit, start);
      g_autoptr (json_t) page = NULL;
      json_t *item, *lek;
      size_t i;

      g_clear_pointer (&start, json_decref);
      page = ddb_read_partiql (e, req, q.pk_values != NULL, error);
      if (page == NULL)
        {
          pql_error_unprefix (error);
          if (capacity != NULL)
            json_decref (capacity);
          return NULL;
        }
      json_array_foreach (json_object_get (page, "Items"), i, item)
        json_array_append_new (items, pql_project (s, item));
      scanned += json_integer_value (json_object_get (page, "ScannedCount"));
      if (json_object_get (page, "ConsumedCapacity") != NULL)
        {
          if (capacity == NULL)
            capacity = json_deep_copy (json_object_get (page, "ConsumedCapacity"));
          else
            pql_capacity_add (capacity, json_object_get (page, "ConsumedCapacity"));
        }
      lek = json_object_get (page, "LastEvaluatedKey");
      if (lek != NULL)
        {
          last = json_incref (lek);
          break;
        }
      which++;
      if (r->has_limit && scanned >= r->limit)
        break;
    }
  response = json_pack ("{sO}", "Items", items);
  if (last != NULL || which < n_keys)
    {
      g_autofree char *token = token_encode (which, last);

      json_object_set_new (response, "NextToken", json_string (token));
      if (last != NULL)
        json_object_set_new (response, "LastEvaluatedKey", last);
    }
  if (capacity != NULL)
    json_object_set_new (response, "ConsumedCapacity", capacity);
  return response;
}

/* ---- ExecuteStatement ---- */

json_t *
ddb_op_execute_statement (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  g_auto (Request) r = { 0 };
  g_autoptr (DdbPqlStatement) s = NULL;
  g_autoptr (json_t) write = NULL;
  g_autoptr (json_t) result = NULL;
  const char *op = NULL;
  json_t *attributes;

  if (!read_request (req, &r, error))
    return NULL;
  s = ddb_pql_parse (r.statement, r.statement_len, (DdbValue *const *) r.params->pdata,
                     r.params->len, error);
  if (s == NULL)
    return NULL;
  if (s->kind == DDB_PQL_SELECT)
    {
      gboolean handled;
      json_t *one = select_one (e, s, &r, &handled, error);

      if (handled)
        return one;
      return run_select (e, s, &r, error);
    }
  if (s->kind == DDB_PQL_EXISTS)
    return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                         "EXISTS can only be used in ExecuteTransaction write requests.");
  write = pql_write_request (e, s, r.rvcf, &op, error);
  if (write == NULL)
    return NULL;
  if (r.rcc != NULL)
    json_object_set_new (write, "ReturnConsumedCapacity", json_string (r.rcc));
  result = pql_run_write (e, s, op, write, extra, error);
  if (result == NULL)
    return NULL;
  attributes = json_object_get (result, "Attributes");
  return json_pack ("{s[O*] sO*}", "Items", attributes, "ConsumedCapacity",
                    json_object_get (result, "ConsumedCapacity"));
}
