/* dy-connection.h: one place tables live in (a database file, the demo database), with its
 * backend and its table list. Every call goes through the backend seam on a worker thread. */
#pragma once

#include <gio/gio.h>
#include <jansson.h>

#include "backend/backend.h"

G_BEGIN_DECLS

#define DY_TYPE_CONNECTION (dy_connection_get_type ())
G_DECLARE_FINAL_TYPE (DyConnection, dy_connection, DY, CONNECTION, GObject)

/* Takes ownership of BACKEND. */
DyConnection *dy_connection_new (const char *title, const char *path, DdbBackend *backend);
/* Opens the database file at PATH on a thread. */
void dy_connection_open_async (const char *title, const char *path, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data);
DyConnection *dy_connection_open_finish (GAsyncResult *result, GError **error);

const char *dy_connection_get_title (DyConnection *self);
/* The database file, or NULL for a remote connection. */
const char *dy_connection_get_path (DyConnection *self);
/* Table names (GtkStringObject), sorted as ListTables returns them. */
GListModel *dy_connection_get_tables (DyConnection *self);
/* TRUE while the table list is being fetched ("loading" property). */
gboolean dy_connection_get_loading (DyConnection *self);
/* The last error text ("ResourceNotFoundException: ..."), or NULL ("error" property). */
const char *dy_connection_get_error (DyConnection *self);
/* Fetches every page of ListTables on a thread and replaces the table list. */
void dy_connection_refresh_tables (DyConnection *self);

/* Runs OPERATION with REQUEST (borrowed; copied for the thread) on a thread. */
void dy_connection_call_async (DyConnection *self, const char *operation, json_t *request,
                               GCancellable *cancellable, GAsyncReadyCallback callback,
                               gpointer user_data);
/* The response (new reference), or NULL with the error; for a DynamoDB error its message is
 * "ExceptionName: message" as the window shows it. */
json_t *dy_connection_call_finish (DyConnection *self, GAsyncResult *result, GError **error);
/* Blocking form for worker threads. */
json_t *dy_connection_call_sync (DyConnection *self, const char *operation, json_t *request,
                                 GCancellable *cancellable, GError **error);

G_END_DECLS
