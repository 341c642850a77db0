/* copystage-fixture.c: the copy-staging tests' shared fixture (copystage-fixture.h). */
#include "copystage-fixture.h"

#include "core/ddbjson.h"
#include "staging/commit.h"
#include "../core/test-util.h"
#include "../engine/engine-test-util.h"
#include "../engine/item-corpus.h"

json_t *
cs_call_ok (DdbBackend *be, const char *op, json_t *req)
{
  GError *error = NULL;
  json_t *resp = NULL;

  ddb_backend_call (be, op, req, NULL, &resp, &error);
  g_assert_no_error (error);
  json_decref (req);
  return resp;
}

/* "Target": pk (S) + sk (N), a GSI on email (S), an LSI on rank (N); "Flat": id (S). */
DdbBackend *
cs_target_backend (void)
{
  DdbBackend *be = ddb_backend_new_for_engine (etu_engine_new (), ":memory:");

  json_decref (cs_call_ok (
      be, "CreateTable",
      etu_json ("{'TableName': 'Target', 'BillingMode': 'PAY_PER_REQUEST',"
                " 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'},"
                "                          {'AttributeName': 'sk', 'AttributeType': 'N'},"
                "                          {'AttributeName': 'email', 'AttributeType': 'S'},"
                "                          {'AttributeName': 'rank', 'AttributeType': 'N'}],"
                " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
                "               {'AttributeName': 'sk', 'KeyType': 'RANGE'}],"
                " 'GlobalSecondaryIndexes': [{'IndexName': 'byEmail',"
                "   'KeySchema': [{'AttributeName': 'email', 'KeyType': 'HASH'}],"
                "   'Projection': {'ProjectionType': 'ALL'}}],"
                " 'LocalSecondaryIndexes': [{'IndexName': 'byRank',"
                "   'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'},"
                "                 {'AttributeName': 'rank', 'KeyType': 'RANGE'}],"
                "   'Projection': {'ProjectionType': 'ALL'}}]}")));
  json_decref (cs_call_ok (
      be, "CreateTable",
      etu_json ("{'TableName': 'Flat', 'BillingMode': 'PAY_PER_REQUEST',"
                " 'AttributeDefinitions': [{'AttributeName': 'id', 'AttributeType': 'S'}],"
                " 'KeySchema': [{'AttributeName': 'id', 'KeyType': 'HASH'}]}")));
  return be;
}

void
cs_put_item (DdbBackend *be, const char *table, const DdbValue *item)
{
  json_t *req = json_pack ("{ss so}", "TableName", table, "Item", ddb_item_to_json (item));

  json_decref (cs_call_ok (be, "PutItem", req));
}

/* Every item of TABLE (a Scan). */
GPtrArray *
cs_scan_all (DdbBackend *be, const char *table)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  json_t *start = NULL;

  do
    {
      json_t *req = json_pack ("{ss}", "TableName", table);
      json_t *resp, *elem;
      gsize i;

      if (start != NULL)
        json_object_set_new (req, "ExclusiveStartKey", start);
      resp = cs_call_ok (be, "Scan", req);
      json_array_foreach (json_object_get (resp, "Items"), i, elem)
        g_ptr_array_add (items, ddb_json_to_item (elem, NULL));
      start = json_incref (json_object_get (resp, "LastEvaluatedKey"));
      json_decref (resp);
    }
  while (start != NULL);
  return items;
}

GPtrArray *
cs_open_changes (DdbStaging *st, const char *table)
{
  GError *error = NULL;
  GPtrArray *list = ddb_staging_list (st, CONN, table, FALSE, &error);

  g_assert_no_error (error);
  return list;
}

/* A single-quoted DynamoDB JSON value. */
DdbValue *
cs_value_of (const char *json)
{
  g_autofree char *text = tu_dq (json);
  GError *error = NULL;
  DdbValue *v = ddb_json_parse_value (text, -1, &error);

  g_assert_no_error (error);
  return v;
}

GPtrArray *
cs_items_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
}

/* The corpus, with nothing that the Target's indexes would refuse (email and rank are never
 * generated, so every item fits). */
GPtrArray *
cs_corpus (guint n, guint32 seed)
{
  return corpus_items (n, seed, "pk", "sk");
}

void
cs_commit (DdbStaging *st, DdbBackend *be, guint committed, guint conflicts)
{
  DdbCommitOptions options = { .connection = CONN };
  DdbCommitReport report;
  GError *error = NULL;

  g_assert_true (ddb_staging_commit (st, be, &options, NULL, &report, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (report.committed, ==, committed);
  g_assert_cmpuint (report.conflicts, ==, conflicts);
  g_assert_cmpuint (report.failed, ==, 0);
  ddb_commit_report_clear (&report);
}
