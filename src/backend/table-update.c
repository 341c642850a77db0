/* table-update.c: the UpdateTable and UpdateTimeToLive calls from a described table to an edited
 * one, and running steps through a backend with the waits between them. DynamoDB takes one GSI
 * creation or deletion per UpdateTable and lets the next one in only when the table is ACTIVE
 * again (API Reference, UpdateTable); a stream's view type changes by a disable and an enable. */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "backend/batch.h"
#include "backend/table-requests-private.h"
#include "net/client.h"

static gboolean
same_keys (const char *a_name, const char *a_type, const char *b_name, const char *b_type)
{
  return g_strcmp0 (a_name, b_name) == 0 && (a_name == NULL || g_strcmp0 (a_type, b_type) == 0);
}

static gboolean
same_index (const DdbIndexSpec *a, const DdbIndexSpec *b, gboolean global)
{
  if ((global && !same_keys (a->pk_name, a->pk_type, b->pk_name, b->pk_type))
      || !same_keys (a->sk_name, a->sk_type, b->sk_name, b->sk_type)
      || a->projection != b->projection || a->non_key_attributes->len != b->non_key_attributes->len)
    return FALSE;
  for (guint i = 0; i < a->non_key_attributes->len; i++)
    if (g_strcmp0 (a->non_key_attributes->pdata[i], b->non_key_attributes->pdata[i]) != 0)
      return FALSE;
  return TRUE;
}

static gboolean
check_unchanged (const DdbTableSpec *current, const DdbTableSpec *edited, GError **error)
{
  if (g_strcmp0 (current->name, edited->name) != 0)
    return tr_fail (error, _ ("A table cannot be renamed (“%s” to “%s”)"), current->name,
                    edited->name);
  if (!same_keys (current->pk_name, current->pk_type, edited->pk_name, edited->pk_type)
      || !same_keys (current->sk_name, current->sk_type, edited->sk_name, edited->sk_type))
    return tr_fail (error, _ ("The key schema of table “%s” cannot change after it is created"),
                    current->name);
  if (current->lsis->len != edited->lsis->len)
    return tr_fail (error,
                    _ ("Local secondary indexes can be defined only when a table is created"));
  for (guint i = 0; i < current->lsis->len; i++)
    {
      const DdbIndexSpec *a = current->lsis->pdata[i], *b = edited->lsis->pdata[i];

      if (g_strcmp0 (a->name, b->name) != 0 || !same_index (a, b, FALSE))
        return tr_fail (error,
                        _ ("Local secondary indexes can be defined only when a table is created"));
    }
  for (guint i = 0; i < edited->gsis->len; i++)
    {
      const DdbIndexSpec *b = edited->gsis->pdata[i];
      const DdbIndexSpec *a = ddb_table_spec_find_gsi (current, b->name);

      if (a != NULL && !same_index (a, b, TRUE))
        return tr_fail (
            error,
            _ ("Index “%s” cannot change its keys or projection: delete it, then create "
               "it again"),
            b->name);
    }
  if (current->ttl_attribute != NULL && edited->ttl_attribute != NULL
      && strcmp (current->ttl_attribute, edited->ttl_attribute) != 0)
    return tr_fail (error,
                    _ ("TTL is on with attribute “%s”: turn it off first (DynamoDB accepts another "
                       "TTL change on the table only about an hour later)"),
                    current->ttl_attribute);
  return TRUE;
}

/* The billing mode or throughput step, or NULL when neither changes. */
static DdbTableStep *
billing_step (const DdbTableSpec *current, const DdbTableSpec *edited)
{
  gboolean to_provisioned = edited->billing == DDB_BILLING_PROVISIONED;
  gboolean switching = current->billing != edited->billing;
  json_t *req = json_pack ("{ss}", "TableName", edited->name);
  json_t *updates = json_array ();

  if (switching)
    json_object_set_new (req, "BillingMode",
                         json_string (to_provisioned ? "PROVISIONED" : "PAY_PER_REQUEST"));
  if (to_provisioned && (switching || current->rcu != edited->rcu || current->wcu != edited->wcu))
    json_object_set_new (req, "ProvisionedThroughput", tr_throughput (edited->rcu, edited->wcu));
  if (to_provisioned)
    /* The GSIs kept: each needs its throughput when the table becomes provisioned. */
    for (guint i = 0; i < edited->gsis->len; i++)
      {
        const DdbIndexSpec *b = edited->gsis->pdata[i];
        const DdbIndexSpec *a = ddb_table_spec_find_gsi (current, b->name);

        if (a != NULL && (switching || a->rcu != b->rcu || a->wcu != b->wcu))
          json_array_append_new (updates, json_pack ("{s{ssso}}", "Update", "IndexName", b->name,
                                                     "ProvisionedThroughput",
                                                     tr_throughput (b->rcu, b->wcu)));
      }
  if (json_array_size (updates) > 0)
    json_object_set (req, "GlobalSecondaryIndexUpdates", updates);
  json_decref (updates);
  if (json_object_size (req) == 1)
    {
      json_decref (req);
      return NULL;
    }
  return tr_step_new ("UpdateTable", req, DDB_TABLE_WAIT_ACTIVE, NULL);
}

static DdbTableStep *
stream_step (const char *table, DdbStreamView view)
{
  return tr_step_new (
      "UpdateTable",
      json_pack ("{ssso}", "TableName", table, "StreamSpecification", tr_stream_spec (view)),
      DDB_TABLE_WAIT_ACTIVE, NULL);
}

GPtrArray *
ddb_table_update_steps (const DdbTableSpec *current, const DdbTableSpec *edited, GError **error)
{
  g_autoptr (GPtrArray) steps = NULL;
  DdbTableStep *step;

  if (!check_unchanged (current, edited, error) || !ddb_table_spec_validate (edited, error))
    return NULL;
  steps = tr_steps_new ();
  for (guint i = 0; i < current->gsis->len; i++)
    {
      const DdbIndexSpec *a = current->gsis->pdata[i];

      if (ddb_table_spec_find_gsi (edited, a->name) == NULL)
        g_ptr_array_add (steps, tr_step_new ("UpdateTable",
                                             json_pack ("{sss[{s{ss}}]}", "TableName", edited->name,
                                                        "GlobalSecondaryIndexUpdates", "Delete",
                                                        "IndexName", a->name),
                                             DDB_TABLE_WAIT_INDEX_GONE, a->name));
    }
  step = billing_step (current, edited);
  if (step != NULL)
    g_ptr_array_add (steps, step);
  for (guint i = 0; i < edited->gsis->len; i++)
    {
      const DdbIndexSpec *b = edited->gsis->pdata[i];
      json_t *defs, *req;

      if (ddb_table_spec_find_gsi (current, b->name) != NULL)
        continue;
      defs = json_array ();
      tr_add_definition (defs, b->pk_name, b->pk_type);
      tr_add_definition (defs, b->sk_name, b->sk_type);
      req = json_pack ("{sssos[{so}]}", "TableName", edited->name, "AttributeDefinitions", defs,
                       "GlobalSecondaryIndexUpdates", "Create", tr_index_json (edited, b, TRUE));
      g_ptr_array_add (steps,
                       tr_step_new ("UpdateTable", req, DDB_TABLE_WAIT_INDEX_ACTIVE, b->name));
    }
  if (current->stream != edited->stream)
    {
      if (current->stream != DDB_STREAM_OFF)
        g_ptr_array_add (steps, stream_step (edited->name, DDB_STREAM_OFF));
      if (edited->stream != DDB_STREAM_OFF)
        g_ptr_array_add (steps, stream_step (edited->name, edited->stream));
    }
  if (current->ttl_attribute == NULL && edited->ttl_attribute != NULL)
    g_ptr_array_add (steps, tr_step_new ("UpdateTimeToLive",
                                         tr_ttl_request (edited->name, edited->ttl_attribute, TRUE),
                                         DDB_TABLE_WAIT_NONE, NULL));
  else if (current->ttl_attribute != NULL && edited->ttl_attribute == NULL)
    g_ptr_array_add (steps,
                     tr_step_new ("UpdateTimeToLive",
                                  tr_ttl_request (edited->name, current->ttl_attribute, FALSE),
                                  DDB_TABLE_WAIT_NONE, NULL));
  return g_steal_pointer (&steps);
}

/* ---- Running ---- */

/* Sleeps MS milliseconds unless CANCELLABLE is cancelled first. */
static json_t *
find_index (json_t *table, const char *name)
{
  size_t i;
  json_t *j;

  json_array_foreach (json_object_get (table, "GlobalSecondaryIndexes"), i, j)
    if (g_strcmp0 (json_string_value (json_object_get (j, "IndexName")), name) == 0)
      return j;
  return NULL;
}

/* Polls DescribeTable until STEP's wait is over. */
static gboolean
wait_step (DdbBackend *backend, DdbTableStep *step, guint n, guint poll_ms,
           DdbTableProgressFunc progress, gpointer user_data, GCancellable *cancellable,
           json_t **extra, GError **error)
{
  const char *table = json_string_value (json_object_get (step->request, "TableName"));
  json_auto_t *req = json_pack ("{ss}", "TableName", table);

  if (step->wait == DDB_TABLE_WAIT_NONE)
    return TRUE;
  for (;;)
    {
      g_autoptr (GError) local = NULL;
      json_auto_t *resp = NULL;
      json_t *desc, *index;
      const char *status;
      gboolean done;

      if (!ddb_backend_call (backend, "DescribeTable", req, cancellable, &resp, &local))
        {
          if (step->wait == DDB_TABLE_WAIT_GONE
              && g_error_matches (local, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND))
            return TRUE;
          if (extra != NULL)
            *extra = g_steal_pointer (&resp);
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      desc = json_object_get (resp, "Table");
      status = json_string_value (json_object_get (desc, "TableStatus"));
      index = step->index != NULL ? find_index (desc, step->index) : NULL;
      switch (step->wait)
        {
        case DDB_TABLE_WAIT_ACTIVE:
          done = ddb_table_description_active (desc, &status);
          break;
        case DDB_TABLE_WAIT_INDEX_ACTIVE:
          done = g_strcmp0 (status, "ACTIVE") == 0 && index != NULL
                 && g_strcmp0 (json_string_value (json_object_get (index, "IndexStatus")), "ACTIVE")
                        == 0;
          if (index != NULL && g_strcmp0 (status, "ACTIVE") == 0)
            status = json_string_value (json_object_get (index, "IndexStatus"));
          break;
        case DDB_TABLE_WAIT_INDEX_GONE:
          done = g_strcmp0 (status, "ACTIVE") == 0 && index == NULL;
          if (index != NULL && g_strcmp0 (status, "ACTIVE") == 0)
            status = json_string_value (json_object_get (index, "IndexStatus"));
          break;
        default:
          done = FALSE;
          break;
        }
      if (done)
        return TRUE;
      if (progress != NULL)
        progress (n, status, user_data);
      if (!ddb_sleep_cancellable (poll_ms, cancellable, error))
        return FALSE;
    }
}

gboolean
ddb_table_steps_run (DdbBackend *backend, GPtrArray *steps, guint poll_ms,
                     DdbTableProgressFunc progress, gpointer user_data, GCancellable *cancellable,
                     guint *n_done, json_t **extra, GError **error)
{
  if (n_done != NULL)
    *n_done = 0;
  for (guint n = 0; n < steps->len; n++)
    {
      DdbTableStep *step = steps->pdata[n];
      json_auto_t *resp = NULL;

      if (progress != NULL)
        progress (n, NULL, user_data);
      if (!ddb_backend_call (backend, step->operation, step->request, cancellable, &resp, error))
        {
          if (extra != NULL)
            *extra = g_steal_pointer (&resp);
          return FALSE;
        }
      if (!wait_step (backend, step, n, poll_ms, progress, user_data, cancellable, extra, error))
        return FALSE;
      if (n_done != NULL)
        *n_done = n + 1;
    }
  return TRUE;
}
