/* read-only.c: the requests a read-only connection lets through (reads, by list) and the
 * refusals it gives every other one. */
#include "backend/read-only.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/partiql.h"

G_DEFINE_QUARK (ddb-backend-error-quark, ddb_backend_error)

/* The operations of DynamoDB's API reference that change nothing, and DynamoDB Streams'. */
static const char *const read_operations[] = {
  "BatchGetItem",
  "DescribeBackup",
  "DescribeContinuousBackups",
  "DescribeContributorInsights",
  "DescribeEndpoints",
  "DescribeExport",
  "DescribeGlobalTable",
  "DescribeGlobalTableSettings",
  "DescribeImport",
  "DescribeKinesisStreamingDestination",
  "DescribeLimits",
  "DescribeTable",
  "DescribeTableReplicaAutoScaling",
  "DescribeTimeToLive",
  "GetItem",
  "GetResourcePolicy",
  "ListBackups",
  "ListContributorInsights",
  "ListExports",
  "ListGlobalTables",
  "ListImports",
  "ListTables",
  "ListTagsOfResource",
  "Query",
  "Scan",
  "TransactGetItems",
  /* DynamoDB Streams */
  "DescribeStream",
  "GetRecords",
  "GetShardIterator",
  "ListStreams",
};

/* The writes of items. */
static const char *const item_writes[] = {
  "BatchWriteItem", "DeleteItem", "PutItem", "TransactWriteItems", "UpdateItem",
};

/* The writes of tables and what belongs to them (for a clearer message only: any name in
 * neither list is refused too). */
static const char *const table_writes[] = {
  "CreateBackup",
  "CreateGlobalTable",
  "CreateTable",
  "DeleteBackup",
  "DeleteResourcePolicy",
  "DeleteTable",
  "DisableKinesisStreamingDestination",
  "EnableKinesisStreamingDestination",
  "ExportTableToPointInTime",
  "ImportTable",
  "PutResourcePolicy",
  "RestoreTableFromBackup",
  "RestoreTableToPointInTime",
  "TagResource",
  "UntagResource",
  "UpdateContinuousBackups",
  "UpdateContributorInsights",
  "UpdateGlobalTable",
  "UpdateGlobalTableSettings",
  "UpdateKinesisStreamingDestination",
  "UpdateTable",
  "UpdateTableReplicaAutoScaling",
  "UpdateTimeToLive",
};

/* The target prefixes a name may carry (ddb_client_call sends such a name as the target). */
static const char *const api_prefixes[] = { "DynamoDB_20120810.", "DynamoDBStreams_20120810." };

static gboolean
listed (const char *const *list, gsize n, const char *name)
{
  for (gsize i = 0; i < n; i++)
    if (strcmp (list[i], name) == 0)
      return TRUE;
  return FALSE;
}

/* A statement ({"Statement", "Parameters"} of REQUEST) that parses as a SELECT; else WHY says
 * what it is. */
static gboolean
statement_reads (const char *operation, json_t *statement, GError **why)
{
  json_t *text = json_object_get (statement, "Statement");
  json_t *params = json_object_get (statement, "Parameters");
  g_autoptr (GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  g_autoptr (DdbPqlStatement) parsed = NULL;
  g_autoptr (GError) local = NULL;
  size_t i;
  json_t *param;

  if (!json_is_string (text))
    {
      g_set_error (why, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY,
                   _ ("read-only: %s has no statement to check, so it is refused as a possible "
                      "write; this connection is read-only"),
                   operation);
      return FALSE;
    }
  if (params != NULL && !json_is_array (params))
    local = g_error_new_literal (DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY,
                                 "Parameters is not a list");
  json_array_foreach (params, i, param)
    {
      DdbValue *value = local == NULL ? ddb_json_to_value (param, &local) : NULL;

      if (value == NULL)
        break;
      g_ptr_array_add (values, value);
    }
  if (local == NULL)
    parsed = ddb_pql_parse (json_string_value (text), (gssize) json_string_length (text),
                            (DdbValue *const *) values->pdata, values->len, &local);
  if (parsed == NULL)
    {
      g_set_error (why, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY,
                   _ ("read-only: %s has a statement that does not parse (%s), so it is refused "
                      "as a possible write; this connection is read-only"),
                   operation, local->message);
      return FALSE;
    }
  switch (parsed->kind)
    {
    case DDB_PQL_SELECT:
      return TRUE;
    case DDB_PQL_EXISTS:
      g_set_error (why, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY,
                   _ ("read-only: %s would run a PartiQL EXISTS, the condition of a write "
                      "transaction; this connection is read-only"),
                   operation);
      return FALSE;
    case DDB_PQL_INSERT:
    case DDB_PQL_UPDATE:
    case DDB_PQL_DELETE:
    default:
      g_set_error (why, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY,
                   _ ("read-only: %s would run a PartiQL %s, which writes to the table; this "
                      "connection is read-only"),
                   operation,
                   parsed->kind == DDB_PQL_INSERT   ? "INSERT"
                   : parsed->kind == DDB_PQL_UPDATE ? "UPDATE"
                                                    : "DELETE");
      return FALSE;
    }
}

/* A PartiQL request (NAME without prefix) all of whose statements are SELECTs. */
static gboolean
partiql_reads (const char *operation, const char *name, json_t *request, GError **why)
{
  const char *member = strcmp (name, "BatchExecuteStatement") == 0 ? "Statements"
                       : strcmp (name, "ExecuteTransaction") == 0  ? "TransactStatements"
                                                                   : NULL;
  json_t *list = member != NULL ? json_object_get (request, member) : NULL;
  size_t i;
  json_t *statement;

  if (member == NULL)
    return statement_reads (operation, request, why);
  if (json_array_size (list) == 0)
    return statement_reads (operation, NULL, why);
  json_array_foreach (list, i, statement)
    if (!statement_reads (operation, statement, why))
      return FALSE;
  return TRUE;
}

gboolean
ddb_backend_operation_writes (const char *operation, json_t *request, GError **why)
{
  const char *name = operation != NULL ? operation : "";

  for (gsize i = 0; i < G_N_ELEMENTS (api_prefixes); i++)
    if (g_str_has_prefix (name, api_prefixes[i]))
      {
        name += strlen (api_prefixes[i]);
        break;
      }
  if (listed (read_operations, G_N_ELEMENTS (read_operations), name))
    return FALSE;
  if (strcmp (name, "ExecuteStatement") == 0 || strcmp (name, "BatchExecuteStatement") == 0
      || strcmp (name, "ExecuteTransaction") == 0)
    return !partiql_reads (operation, name, request, why);
  if (listed (item_writes, G_N_ELEMENTS (item_writes), name))
    g_set_error (why, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY,
                 _ ("read-only: %s would write to the table; this connection is read-only"),
                 operation);
  else if (listed (table_writes, G_N_ELEMENTS (table_writes), name))
    g_set_error (why, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY,
                 _ ("read-only: %s would change tables or their settings, backups or exports; "
                    "this connection is read-only"),
                 operation);
  else
    g_set_error (why, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY,
                 _ ("read-only: %s is not known to only read, so it is not sent; this "
                    "connection is read-only"),
                 operation != NULL ? operation : "(null)");
  return TRUE;
}

void
ddb_backend_set_read_only_error (GError **error, const char *what)
{
  g_set_error (error, DDB_BACKEND_ERROR, DDB_BACKEND_ERROR_READ_ONLY,
               _ ("read-only: %s would write; this connection is read-only"), what);
}
