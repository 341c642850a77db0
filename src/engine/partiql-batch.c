/* partiql-batch.c: BatchExecuteStatement (up to 25 single-item reads or writes, each answered
 * on its own, an error in its place) and ExecuteTransaction (up to 100 statements run as one
 * TransactGetItems or TransactWriteItems, EXISTS as a condition check). */
#include <string.h>

#include "core/error.h"
#include "engine/partiql-private.h"
#include "engine/request.h"

#define MAX_BATCH 25
#define MAX_TRANSACTION 100

/* One statement of the request, parsed and planned. */
typedef struct {
  DdbPqlStatement *s;
  GPtrArray *params;
  json_t *request; /* of `op` */
  const char *op;  /* "GetItem", "PutItem", "UpdateItem", "DeleteItem", "ConditionCheck" */
  GError *error;   /* why it cannot run */
} Planned;

static void
planned_clear (Planned *p)
{
  ddb_pql_statement_free (p->s);
  if (p->params != NULL)
    g_ptr_array_unref (p->params);
  if (p->request != NULL)
    json_decref (p->request);
  g_clear_error (&p->error);
}

/* The statements member `member` of `req`: a list of 1..max objects, each with its Statement;
 * every constraint broken in one message, as DynamoDB lists them. */
static json_t *
statements_member (json_t *req, const char *member, const char *path, guint max, GError **error)
{
  json_t *list = json_object_get (req, member);
  DdbViolations v;
  size_t i;
  json_t *stmt;

  if (list != NULL && !json_is_null (list) && !json_is_array (list))
    {
      ddb_req_type_error (list, "List", error);
      return NULL;
    }
  ddb_violations_init (&v);
  if (list == NULL || json_is_null (list))
    ddb_violation_add (&v, path, NULL, "Member must not be null");
  else if (json_array_size (list) == 0)
    ddb_violation_add (&v, path, "[]", "Member must have length greater than or equal to 1");
  else if (json_array_size (list) > max)
    {
      g_autofree char *c
          = g_strdup_printf ("Member must have length less than or equal to %u", max);

      ddb_violation_add (&v, path, "[...]", c);
    }
  json_array_foreach (list, i, stmt)
    {
      g_autofree char *prefix = g_strdup_printf ("%s.%zu.member.", path, i + 1);

      if (json_is_object (stmt))
        pql_statement_violations (&v, stmt, prefix);
    }
  if (!ddb_violations_finish (&v, error))
    return NULL;
  return list;
}

/* Parses statement `j` (an object with Statement and Parameters); FALSE only for a request
 * DynamoDB refuses as a whole (a member of the wrong type); a statement that does not parse
 * gets p->error. */
static gboolean
parse_one (json_t *j, Planned *p, GError **error)
{
  const char *text;
  GError *local = NULL;

  if (!json_is_object (j))
    return ddb_req_type_error (j, "Structure", error);
  text = ddb_req_string (j, "Statement", TRUE, error);
  if (text == NULL || !pql_parameters (json_object_get (j, "Parameters"), &p->params, error))
    return FALSE;
  p->s = ddb_pql_parse (text, json_string_length (json_object_get (j, "Statement")),
                        (DdbValue *const *) p->params->pdata, p->params->len, &local);
  if (p->s == NULL)
    p->error = local;
  return TRUE;
}

/* The code of a BatchStatementError for an error of an operation. */
static const char *
batch_error_code (const GError *e)
{
  switch (e->code)
    {
    case DDB_ERROR_CONDITIONAL_CHECK_FAILED:
      return "ConditionalCheckFailed";
    case DDB_ERROR_RESOURCE_NOT_FOUND:
      return "ResourceNotFound";
    case DDB_ERROR_DUPLICATE_ITEM:
      return "DuplicateItem";
    case DDB_ERROR_ITEM_COLLECTION_SIZE_LIMIT:
      return "ItemCollectionSizeLimitExceeded";
    case DDB_ERROR_PROVISIONED_THROUGHPUT:
      return "ProvisionedThroughputExceeded";
    case DDB_ERROR_TRANSACTION_CANCELED:
      return "TransactionConflict";
    case DDB_ERROR_LIMIT_EXCEEDED:
      return "RequestLimitExceeded";
    case DDB_ERROR_INTERNAL:
      return "InternalServerError";
    default:
      return "ValidationError";
    }
}

static json_t *
batch_error (const GError *e, json_t *item)
{
  json_t *err = json_pack ("{ss ss}", "Code", batch_error_code (e), "Message", e->message);

  if (item != NULL)
    json_object_set (err, "Item", item);
  return json_pack ("{so}", "Error", err);
}

/* A key's identity for the duplicate check: table and key JSON, members sorted. */
static char *
key_identity (const Planned *p)
{
  g_autofree char *key = json_dumps (json_object_get (p->request, "Key") != NULL
                                         ? json_object_get (p->request, "Key")
                                         : json_object_get (p->request, "Item"),
                                     JSON_COMPACT | JSON_SORT_KEYS);

  return g_strdup_printf ("%s\n%s", json_string_value (json_object_get (p->request, "TableName")),
                          key);
}

/* For an INSERT the identity is its item's key only. */
static char *
planned_identity (DdbEngine *e, const Planned *p)
{
  if (p->s->kind == DDB_PQL_INSERT)
    {
      const DdbIndexDef *index;
      g_autoptr (DdbTableDef) def = pql_table (e, p->s, &index, NULL);
      g_autoptr (json_t) key = json_object ();
      json_t *item = json_object_get (p->request, "Item");
      g_autofree char *text = NULL;

      if (def == NULL)
        return NULL;
      json_object_set (key, def->key.hash_name, json_object_get (item, def->key.hash_name));
      if (def->key.range_name != NULL)
        json_object_set (key, def->key.range_name, json_object_get (item, def->key.range_name));
      text = json_dumps (key, JSON_COMPACT | JSON_SORT_KEYS);
      return g_strdup_printf ("%s\n%s", def->name, text);
    }
  return key_identity (p);
}

static gboolean
check_duplicates (DdbEngine *e, Planned *plans, guint n, GError **error)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < n; i++)
    {
      char *id;

      if (plans[i].request == NULL || (id = planned_identity (e, &plans[i])) == NULL)
        continue;
      if (!g_hash_table_add (seen, id))
        return ddb_set_validation_error (error, "Provided list of item keys contains duplicates");
    }
  return TRUE;
}

static void
add_capacity (GHashTable *by_table, json_t *capacity)
{
  const char *table = json_string_value (json_object_get (capacity, "TableName"));
  json_t *have;

  if (table == NULL)
    return;
  have = g_hash_table_lookup (by_table, table);
  if (have == NULL)
    g_hash_table_insert (by_table, g_strdup (table), json_deep_copy (capacity));
  else
    pql_capacity_add (have, capacity);
}

/* ---- BatchExecuteStatement ---- */

static void
run_batch_one (DdbEngine *e, Planned *p, json_t *stmt, const char *rcc, GHashTable *capacity,
               json_t *responses)
{
  const char *table = json_string_value (json_object_get (p->request, "TableName"));
  g_autoptr (json_t) result = NULL;
  g_autoptr (json_t) extra = NULL;
  GError *local = NULL;
  json_t *entry, *item;

  if (rcc != NULL)
    json_object_set_new (p->request, "ReturnConsumedCapacity", json_string (rcc));
  if (p->s->kind == DDB_PQL_SELECT)
    {
      if (json_is_true (json_object_get (stmt, "ConsistentRead")))
        json_object_set_new (p->request, "ConsistentRead", json_true ());
      result = ddb_op_get_item (e, p->request, &extra, &local);
    }
  else
    result = pql_run_write (e, p->s, p->op, p->request, &extra, &local);
  if (result == NULL)
    {
      entry = batch_error (local, json_object_get (extra, "Item"));
      json_object_set_new (entry, "TableName", json_string (table));
      json_array_append_new (responses, entry);
      g_clear_error (&local);
      return;
    }
  entry = json_pack ("{ss}", "TableName", table);
  item = json_object_get (result, p->s->kind == DDB_PQL_SELECT ? "Item" : "Attributes");
  if (item != NULL)
    json_object_set_new (entry, "Item", pql_project_document (p->s, item));
  if (json_object_get (result, "ConsumedCapacity") != NULL)
    add_capacity (capacity, json_object_get (result, "ConsumedCapacity"));
  json_array_append_new (responses, entry);
}

json_t *
ddb_op_batch_execute_statement (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  static const char *const rvcf_values[] = { "ALL_OLD", "NONE", NULL };
  g_autoptr (GHashTable) capacity
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) json_decref);
  json_t *list, *responses, *response;
  DdbReturnCapacity rcc_mode;
  const char *rcc;
  Planned *plans;
  gboolean reads = FALSE, writes = FALSE, ok = FALSE;
  guint n;

  (void) extra;
  list = statements_member (req, "Statements", "statements", MAX_BATCH, error);
  if (list == NULL || !ddb_req_return_capacity (req, &rcc_mode, error))
    return NULL;
  rcc = json_string_value (json_object_get (req, "ReturnConsumedCapacity"));
  n = json_array_size (list);
  plans = g_new0 (Planned, n);
  for (guint i = 0; i < n; i++)
    {
      json_t *stmt = json_array_get (list, i);

      if (!parse_one (stmt, &plans[i], error)
          || ddb_req_enum (stmt, "ReturnValuesOnConditionCheckFailure", rvcf_values, 1, error) < 0)
        goto out;
      if (plans[i].s == NULL)
        continue;
      if (plans[i].s->kind == DDB_PQL_SELECT)
        reads = TRUE;
      else
        writes = TRUE;
    }
  if (reads && writes)
    {
      ddb_set_validation_error (
          error, "Read and write requests together in the same batch is not supported.");
      goto out;
    }
  for (guint i = 0; i < n; i++)
    {
      Planned *p = &plans[i];
      json_t *stmt = json_array_get (list, i);

      if (p->s == NULL)
        continue;
      if (p->s->kind == DDB_PQL_SELECT)
        {
          p->op = "GetItem";
          p->request = pql_get_request (e, p->s, "Only single item select is supported", &p->error);
        }
      else if (p->s->kind == DDB_PQL_EXISTS)
        g_set_error_literal (&p->error, DDB_ERROR, DDB_ERROR_VALIDATION,
                             "EXISTS can only be used in ExecuteTransaction write requests.");
      else
        p->request = pql_write_request (
            e, p->s,
            json_string_value (json_object_get (stmt, "ReturnValuesOnConditionCheckFailure")),
            &p->op, &p->error);
    }
  if (!check_duplicates (e, plans, n, error))
    goto out;
  ok = TRUE;

out:
  if (!ok)
    {
      for (guint i = 0; i < n; i++)
        planned_clear (&plans[i]);
      g_free (plans);
      return NULL;
    }
  responses = json_array ();
  for (guint i = 0; i < n; i++)
    {
      if (plans[i].error != NULL)
        json_array_append_new (responses, batch_error (plans[i].error, NULL));
      else
        run_batch_one (e, &plans[i], json_array_get (list, i), rcc, capacity, responses);
      planned_clear (&plans[i]);
    }
  g_free (plans);
  response = json_pack ("{so}", "Responses", responses);
  if (g_hash_table_size (capacity) > 0)
    {
      json_t *all = json_array ();
      GHashTableIter it;
      gpointer value;

      g_hash_table_iter_init (&it, capacity);
      while (g_hash_table_iter_next (&it, NULL, &value))
        json_array_append (all, value);
      json_object_set_new (response, "ConsumedCapacity", all);
    }
  return response;
}

/* ---- ExecuteTransaction ---- */

/* A statement's error inside a transaction: a validation error names the statement. */
static void
propagate_statement_error (GError **error, GError *local, guint i)
{
  if (local->code == DDB_ERROR_VALIDATION)
    g_prefix_error (&local, "Validation failed in TransactStatements[%u]: ", i);
  g_propagate_error (error, local);
}

static json_t *
transact_reads (DdbEngine *e, Planned *plans, guint n, const char *rcc, GError **error)
{
  g_autoptr (json_t) request = json_pack ("{s[]}", "TransactItems");
  g_autoptr (json_t) result = NULL;
  json_t *extra = NULL, *responses, *response;

  for (guint i = 0; i < n; i++)
    json_array_append_new (json_object_get (request, "TransactItems"),
                           json_pack ("{sO}", "Get", plans[i].request));
  if (rcc != NULL)
    json_object_set_new (request, "ReturnConsumedCapacity", json_string (rcc));
  result = ddb_op_transact_get_items (e, request, &extra, error);
  if (extra != NULL)
    json_decref (extra);
  if (result == NULL)
    return NULL;
  responses = json_array ();
  for (guint i = 0; i < n; i++)
    {
      json_t *got = json_array_get (json_object_get (result, "Responses"), i);
      json_t *item = json_object_get (got, "Item");
      json_t *entry = json_object ();

      if (item != NULL)
        json_object_set_new (entry, "Item", pql_project_document (plans[i].s, item));
      json_array_append_new (responses, entry);
    }
  response = json_pack ("{so}", "Responses", responses);
  if (json_object_get (result, "ConsumedCapacity") != NULL)
    json_object_set (response, "ConsumedCapacity", json_object_get (result, "ConsumedCapacity"));
  return response;
}

/* An INSERT whose condition failed met an existing item: DuplicateItem, as DynamoDB reports
 * it in a PartiQL transaction's CancellationReasons. */
static void
rewrite_reasons (Planned *plans, guint n, json_t *extra, GError *error)
{
  json_t *reasons = json_object_get (extra, "CancellationReasons");
  GString *codes = g_string_new (NULL);

  for (guint i = 0; i < n && i < json_array_size (reasons); i++)
    {
      json_t *r = json_array_get (reasons, i);
      const char *code = json_string_value (json_object_get (r, "Code"));

      if (plans[i].s->kind == DDB_PQL_INSERT && g_strcmp0 (code, "ConditionalCheckFailed") == 0)
        {
          json_object_set_new (r, "Code", json_string ("DuplicateItem"));
          json_object_set_new (r, "Message", json_string ("Duplicate primary key exists in table"));
          json_object_del (r, "Item");
          code = "DuplicateItem";
        }
      g_string_append_printf (codes, "%s%s", i > 0 ? ", " : "", code != NULL ? code : "None");
    }
  g_free (error->message);
  error->message = g_strdup_printf (
      "Transaction cancelled, please refer cancellation reasons for specific reasons [%s]",
      codes->str);
  g_string_free (codes, TRUE);
}

static json_t *
transact_writes (DdbEngine *e, Planned *plans, guint n, json_t *req, json_t **extra, GError **error)
{
  static const struct {
    const char *op, *member;
  } members[] = {
    { "PutItem", "Put" },
    { "UpdateItem", "Update" },
    { "DeleteItem", "Delete" },
    { "ConditionCheck", "ConditionCheck" },
  };
  g_autoptr (json_t) request = json_pack ("{s[]}", "TransactItems");
  g_autoptr (json_t) result = NULL;
  const char *member = NULL;
  GError *local = NULL;
  json_t *response;

  for (guint i = 0; i < n; i++)
    {
      for (guint k = 0; k < G_N_ELEMENTS (members); k++)
        if (strcmp (plans[i].op, members[k].op) == 0)
          member = members[k].member;
      json_array_append_new (json_object_get (request, "TransactItems"),
                             json_pack ("{sO}", member, plans[i].request));
    }
  if (json_object_get (req, "ClientRequestToken") != NULL)
    json_object_set (request, "ClientRequestToken", json_object_get (req, "ClientRequestToken"));
  if (json_object_get (req, "ReturnConsumedCapacity") != NULL)
    json_object_set (request, "ReturnConsumedCapacity",
                     json_object_get (req, "ReturnConsumedCapacity"));
  result = ddb_op_transact_write_items (e, request, extra, &local);
  if (result == NULL)
    {
      if (local != NULL && local->code == DDB_ERROR_TRANSACTION_CANCELED && *extra != NULL)
        rewrite_reasons (plans, n, *extra, local);
      g_propagate_error (error, local);
      return NULL;
    }
  response = json_pack ("{s[]}", "Responses");
  if (json_object_get (result, "ConsumedCapacity") != NULL)
    json_object_set (response, "ConsumedCapacity", json_object_get (result, "ConsumedCapacity"));
  return response;
}

/* Statements whose key has the wrong type cancel the transaction, each such statement's
 * reason a ValidationError (`reasons`: its message, NULL for the others). */
static void
cancel_for_keys (GPtrArray *reasons, json_t **extra, GError **error)
{
  json_t *list = json_array ();
  GString *codes = g_string_new (NULL);

  for (guint i = 0; i < reasons->len; i++)
    {
      const char *message = reasons->pdata[i];
      json_t *reason = json_pack ("{ss}", "Code", message != NULL ? "ValidationError" : "None");

      if (message != NULL)
        json_object_set_new (reason, "Message", json_string (message));
      json_array_append_new (list, reason);
      g_string_append_printf (codes, "%s%s", i > 0 ? ", " : "",
                              message != NULL ? "ValidationError" : "None");
    }
  *extra = json_pack ("{so}", "CancellationReasons", list);
  g_set_error (error, DDB_ERROR, DDB_ERROR_TRANSACTION_CANCELED,
               "Transaction cancelled, please refer cancellation reasons for specific reasons [%s]",
               codes->str);
  g_string_free (codes, TRUE);
}

json_t *
ddb_op_execute_transaction (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  static const char *const rvcf_values[] = { "ALL_OLD", "NONE", NULL };
  DdbReturnCapacity rcc_mode;
  json_t *list, *response = NULL;
  Planned *plans;
  g_autoptr (GPtrArray) key_errors = g_ptr_array_new_with_free_func (g_free);
  gboolean reads = FALSE, writes = FALSE, mistyped_keys = FALSE;
  guint n;

  list
      = statements_member (req, "TransactStatements", "transactStatements", MAX_TRANSACTION, error);
  if (list == NULL || !ddb_req_return_capacity (req, &rcc_mode, error))
    return NULL;
  if (json_object_get (req, "ClientRequestToken") != NULL
      && ddb_req_string (req, "ClientRequestToken", FALSE, error) == NULL)
    return NULL;
  n = json_array_size (list);
  plans = g_new0 (Planned, n);
  for (guint i = 0; i < n; i++)
    {
      json_t *stmt = json_array_get (list, i);

      if (!parse_one (stmt, &plans[i], error)
          || ddb_req_enum (stmt, "ReturnValuesOnConditionCheckFailure", rvcf_values, 1, error) < 0)
        goto out;
      if (plans[i].error != NULL)
        {
          propagate_statement_error (error, g_steal_pointer (&plans[i].error), i);
          goto out;
        }
      if (plans[i].s->kind == DDB_PQL_SELECT)
        reads = TRUE;
      else
        writes = TRUE;
    }
  if (reads && writes)
    {
      ddb_set_validation_error (error, "ExecuteTransaction API does not support both read and "
                                       "write operations in the same request.");
      goto out;
    }
  for (guint i = 0; i < n; i++)
    {
      Planned *p = &plans[i];
      GError *local = NULL;

      if (p->s->returning != DDB_PQL_RETURN_NONE)
        {
          g_set_error_literal (&local, DDB_ERROR, DDB_ERROR_VALIDATION,
                               "RETURNING clause is not supported in ExecuteTransaction.");
          propagate_statement_error (error, local, i);
          goto out;
        }
      if (reads)
        {
          p->op = "GetItem";
          p->request = pql_get_request (e, p->s,
                                        "Select statements within ExecuteTransaction must specify "
                                        "the primary key in the where clause.",
                                        &local);
        }
      else
        p->request = pql_write_request (
            e, p->s,
            json_string_value (
                json_object_get (json_array_get (list, i), "ReturnValuesOnConditionCheckFailure")),
            &p->op, &local);
      if (p->request == NULL && pql_is_key_type_error (local))
        {
          g_ptr_array_add (key_errors, g_strdup (local->message));
          g_clear_error (&local);
          mistyped_keys = TRUE;
          continue;
        }
      if (p->request == NULL)
        {
          propagate_statement_error (error, local, i);
          goto out;
        }
      g_ptr_array_add (key_errors, NULL);
    }
  if (mistyped_keys)
    cancel_for_keys (key_errors, extra, error);
  else if (reads)
    response = transact_reads (
        e, plans, n, json_string_value (json_object_get (req, "ReturnConsumedCapacity")), error);
  else
    response = transact_writes (e, plans, n, req, extra, error);

out:
  for (guint i = 0; i < n; i++)
    planned_clear (&plans[i]);
  g_free (plans);
  return response;
}
