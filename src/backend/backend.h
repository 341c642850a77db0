/* backend.h: the seam of docs/ARCHITECTURE.md: DynamoDB's own JSON API (operation + request
 * JSON -> response JSON, or a DynamoDB error with its extra members), answered either by the
 * embedded engine on a database file or by a remote endpoint (AWS, DynamoDB Local, dynalite)
 * through the DynamoDB client. The CLI and the GUI talk to DynamoDB only through this. */
#pragma once

#include <gio/gio.h>
#include <jansson.h>

#include "backend/read-only.h"
#include "engine/engine.h"
#include "net/client.h"

G_BEGIN_DECLS

typedef struct _DdbBackend DdbBackend;

typedef enum {
  DDB_BACKEND_ENGINE, /* a database file (or :memory:) */
  DDB_BACKEND_REMOTE, /* an HTTP endpoint */
} DdbBackendKind;

/* Takes ownership of ENGINE. */
DdbBackend *ddb_backend_new_for_engine (DdbEngine *engine, const char *description);
/* Opens (creating if needed) the database at PATH. */
DdbBackend *ddb_backend_open_database (const char *path, GError **error);
/* Takes ownership of CLIENT. */
DdbBackend *ddb_backend_new_for_client (DdbClient *client);
/* A client for OPTIONS (profile, region, endpoint...), as ddb_client_new. */
DdbBackend *ddb_backend_open_remote (const DdbClientOptions *options, GError **error);
void ddb_backend_free (DdbBackend *backend);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbBackend, ddb_backend_free)

DdbBackendKind ddb_backend_get_kind (DdbBackend *backend);
/* "PATH" for a database, the endpoint URL for a remote one. */
const char *ddb_backend_get_description (DdbBackend *backend);
/* The engine of an engine backend, NULL for a remote one (for what only the engine does yet:
 * snapshot import and export). */
DdbEngine *ddb_backend_get_engine (DdbBackend *backend);
/* The client of a remote backend, NULL for an engine. */
DdbClient *ddb_backend_get_client (DdbBackend *backend);

/* Read-only mode, off by default: ddb_backend_call and ddb_backend_read then refuse, before
 * anything is sent or written, every request that ddb_backend_operation_writes (read-only.h)
 * says may write, with its DDB_BACKEND_ERROR_READ_ONLY; reads are answered as before. May be
 * switched at any time from any thread; a call already past the check is not stopped. */
void ddb_backend_set_read_only (DdbBackend *backend, gboolean read_only);
gboolean ddb_backend_get_read_only (DdbBackend *backend);
/* For a write made without a DynamoDB request (an import into a database): TRUE when BACKEND
 * may write, else FALSE with the refusal of WHAT ("import"). */
gboolean ddb_backend_check_writable (DdbBackend *backend, const char *what, GError **error);

/* Runs OPERATION with REQUEST (a JSON object, borrowed). Success: TRUE and *RESPONSE a new
 * reference. A DynamoDB error: FALSE with a DDB_ERROR; *RESPONSE is NULL or a JSON object of
 * the error's extra members (CancellationReasons, Item...), which for a remote exception that
 * no DdbErrorCode names also holds "__type": its name (see ddb_backend_error_name). Other
 * failures (network, credentials, cancellation): another domain, *RESPONSE NULL.
 * Thread-safe. CANCELLABLE may be NULL; the engine finishes a call it has started. */
gboolean ddb_backend_call (DdbBackend *backend, const char *operation, json_t *request,
                           GCancellable *cancellable, json_t **response, GError **error);

/* A Query or Scan like ddb_backend_call, with each item of the page handed to EACH (as a value
 * it then owns) instead of the response's Items: the engine builds no JSON for them, a remote
 * endpoint's JSON items are read into values. Thread-safe. */
gboolean ddb_backend_read (DdbBackend *backend, const char *operation, json_t *request,
                           DdbItemFunc each, gpointer user_data, GCancellable *cancellable,
                           json_t **response, GError **error);

/* The DynamoDB exception name of a DDB_ERROR from ddb_backend_call, whatever the backend:
 * "__type" of EXTRA when present, else the code's name. */
const char *ddb_backend_error_name (const GError *error, json_t *extra);

/* EXTRA without "__type": the members to show after "ErrorName: message", or NULL when there
 * are none. New reference. */
json_t *ddb_backend_error_extra_members (json_t *extra);

G_END_DECLS
