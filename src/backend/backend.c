/* backend.c: the two implementations of the seam: the embedded engine and the remote client,
 * and the read-only mode that refuses writes before either sees them. */
#include "backend/backend.h"

#include "core/ddbjson.h"
#include "core/error.h"

struct _DdbBackend {
  DdbBackendKind kind;
  DdbEngine *engine;
  DdbClient *client;
  char *description;
  gint read_only; /* atomic */
};

DdbBackend *
ddb_backend_new_for_engine (DdbEngine *engine, const char *description)
{
  DdbBackend *backend = g_new0 (DdbBackend, 1);

  backend->kind = DDB_BACKEND_ENGINE;
  backend->engine = engine;
  backend->description = g_strdup (description != NULL ? description : ":memory:");
  return backend;
}

DdbBackend *
ddb_backend_open_database (const char *path, GError **error)
{
  DdbEngine *engine = ddb_engine_open (path, error);

  if (engine == NULL)
    return NULL;
  return ddb_backend_new_for_engine (engine, path);
}

DdbBackend *
ddb_backend_new_for_client (DdbClient *client)
{
  DdbBackend *backend = g_new0 (DdbBackend, 1);

  backend->kind = DDB_BACKEND_REMOTE;
  backend->client = client;
  backend->description = g_strdup (ddb_client_get_endpoint (client));
  return backend;
}

DdbBackend *
ddb_backend_open_remote (const DdbClientOptions *options, GError **error)
{
  DdbClient *client = ddb_client_new (options, error);

  if (client == NULL)
    return NULL;
  return ddb_backend_new_for_client (client);
}

void
ddb_backend_free (DdbBackend *backend)
{
  if (backend == NULL)
    return;
  g_clear_pointer (&backend->engine, ddb_engine_free);
  g_clear_pointer (&backend->client, ddb_client_free);
  g_free (backend->description);
  g_free (backend);
}

DdbBackendKind
ddb_backend_get_kind (DdbBackend *backend)
{
  return backend->kind;
}

const char *
ddb_backend_get_description (DdbBackend *backend)
{
  return backend->description;
}

DdbEngine *
ddb_backend_get_engine (DdbBackend *backend)
{
  return backend->engine;
}

DdbClient *
ddb_backend_get_client (DdbBackend *backend)
{
  return backend->client;
}

void
ddb_backend_set_read_only (DdbBackend *backend, gboolean read_only)
{
  g_atomic_int_set (&backend->read_only, read_only ? 1 : 0);
}

gboolean
ddb_backend_get_read_only (DdbBackend *backend)
{
  return g_atomic_int_get (&backend->read_only) != 0;
}

gboolean
ddb_backend_check_writable (DdbBackend *backend, const char *what, GError **error)
{
  if (!ddb_backend_get_read_only (backend))
    return TRUE;
  ddb_backend_set_read_only_error (error, what);
  return FALSE;
}

/* FALSE with the refusal when BACKEND is read-only and OPERATION + REQUEST may write. */
static gboolean
allowed (DdbBackend *backend, const char *operation, json_t *request, GError **error)
{
  return !ddb_backend_get_read_only (backend)
         || !ddb_backend_operation_writes (operation, request, error);
}

gboolean
ddb_backend_call (DdbBackend *backend, const char *operation, json_t *request,
                  GCancellable *cancellable, json_t **response, GError **error)
{
  *response = NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error)
      || !allowed (backend, operation, request, error))
    return FALSE;
  if (backend->kind == DDB_BACKEND_ENGINE)
    return ddb_engine_call (backend->engine, operation, request, response, error);
  return ddb_client_call (backend->client, operation, request, cancellable, response, NULL,
                          error);
}

gboolean
ddb_backend_read (DdbBackend *backend, const char *operation, json_t *request, DdbItemFunc each,
                  gpointer user_data, GCancellable *cancellable, json_t **response,
                  GError **error)
{
  json_t *items;
  size_t i;
  json_t *item;
  GPtrArray *values = NULL;

  *response = NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error)
      || !allowed (backend, operation, request, error))
    return FALSE;
  if (backend->kind == DDB_BACKEND_ENGINE)
    return ddb_engine_read (backend->engine, operation, request, each, user_data, response,
                            error);
  if (!ddb_client_read (backend->client, operation, request, cancellable, response, &values, NULL,
                        error))
    return FALSE;
  if (values != NULL)
    {
      /* Read without a tree: each value handed over as it is. */
      for (guint k = 0; k < values->len; k++)
        each (g_steal_pointer (&values->pdata[k]), user_data);
      g_ptr_array_unref (values);
      return TRUE;
    }
  items = json_object_get (*response, "Items");
  json_array_foreach (items, i, item)
    {
      DdbValue *value = ddb_json_to_item (item, NULL);

      if (value == NULL)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                       "The endpoint answered an item that is not DynamoDB JSON");
          g_clear_pointer (response, json_decref);
          return FALSE;
        }
      each (value, user_data);
    }
  json_object_del (*response, "Items");
  return TRUE;
}

const char *
ddb_backend_error_name (const GError *error, json_t *extra)
{
  return ddb_client_error_name (error, extra);
}

json_t *
ddb_backend_error_extra_members (json_t *extra)
{
  json_t *copy;

  if (!json_is_object (extra))
    return NULL;
  copy = json_copy (extra);
  json_object_del (copy, "__type");
  if (json_object_size (copy) == 0)
    {
      json_decref (copy);
      return NULL;
    }
  return copy;
}
