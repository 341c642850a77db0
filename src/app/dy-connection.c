/* dy-connection.c: a database and its tables, reached through the backend seam. */
#define G_LOG_DOMAIN "dynoscope-connection"

#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "app/dy-connection.h"
#include "core/error.h"

struct _DyConnection {
  GObject parent_instance;
  char *title;
  char *path;
  DdbBackend *backend;
  GtkStringList *tables;
  GCancellable *cancellable;
  char *error;
  gboolean loading;
};

G_DEFINE_FINAL_TYPE (DyConnection, dy_connection, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_LOADING,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
dy_connection_dispose (GObject *object)
{
  DyConnection *self = DY_CONNECTION (object);

  g_cancellable_cancel (self->cancellable);
  G_OBJECT_CLASS (dy_connection_parent_class)->dispose (object);
}

static void
dy_connection_finalize (GObject *object)
{
  DyConnection *self = DY_CONNECTION (object);

  g_free (self->title);
  g_free (self->path);
  g_free (self->error);
  /* Worker threads hold a reference while they use the backend, so none is using it now. */
  g_clear_pointer (&self->backend, ddb_backend_free);
  g_clear_object (&self->tables);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (dy_connection_parent_class)->finalize (object);
}

static void
dy_connection_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DyConnection *self = DY_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dy_connection_class_init (DyConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dy_connection_dispose;
  object_class->finalize = dy_connection_finalize;
  object_class->get_property = dy_connection_get_property;

  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS
                                                     | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS
                                                  | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
dy_connection_init (DyConnection *self)
{
  self->tables = gtk_string_list_new (NULL);
  self->cancellable = g_cancellable_new ();
}

DyConnection *
dy_connection_new (const char *title, const char *path, DdbBackend *backend)
{
  DyConnection *self = g_object_new (DY_TYPE_CONNECTION, NULL);

  self->title = g_strdup (title);
  self->path = g_strdup (path);
  self->backend = backend;
  return self;
}

typedef struct {
  char *title;
  char *path;
} OpenData;

static void
open_data_free (OpenData *data)
{
  g_free (data->title);
  g_free (data->path);
  g_free (data);
}

static void
open_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  OpenData *data = task_data;
  GError *error = NULL;
  DdbBackend *backend;

  /* Opening a database file must not create one where the user pointed at nothing. */
  if (!g_file_test (data->path, G_FILE_TEST_IS_REGULAR))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               _("%s: no such database file"), data->path);
      return;
    }
  backend = ddb_backend_open_database (data->path, &error);
  if (backend == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, dy_connection_new (data->title, data->path, backend),
                           g_object_unref);
}

void
dy_connection_open_async (const char *title, const char *path, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  OpenData *data = g_new0 (OpenData, 1);

  data->title = g_strdup (title);
  data->path = g_strdup (path);
  g_task_set_source_tag (task, dy_connection_open_async);
  g_task_set_task_data (task, data, (GDestroyNotify) open_data_free);
  g_task_run_in_thread (task, open_thread);
}

DyConnection *
dy_connection_open_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

const char *
dy_connection_get_title (DyConnection *self)
{
  return self->title;
}

const char *
dy_connection_get_path (DyConnection *self)
{
  return self->path;
}

GListModel *
dy_connection_get_tables (DyConnection *self)
{
  return G_LIST_MODEL (self->tables);
}

gboolean
dy_connection_get_loading (DyConnection *self)
{
  return self->loading;
}

const char *
dy_connection_get_error (DyConnection *self)
{
  return self->error;
}

static void
set_error (DyConnection *self, const char *error)
{
  if (g_strcmp0 (error, self->error) == 0)
    return;
  g_free (self->error);
  self->error = g_strdup (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

static void
set_loading (DyConnection *self, gboolean loading)
{
  if (self->loading == loading)
    return;
  self->loading = loading;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

json_t *
dy_connection_call_sync (DyConnection *self, const char *operation, json_t *request,
                         GCancellable *cancellable, GError **error)
{
  json_t *response = NULL;
  GError *local = NULL;

  if (ddb_backend_call (self->backend, operation, request, cancellable, &response, &local))
    return response;
  if (local->domain == DDB_ERROR)
    {
      /* DynamoDB's exception name first: it is what people search for. */
      g_set_error (error, local->domain, local->code, "%s: %s",
                   ddb_backend_error_name (local, response), local->message);
      g_error_free (local);
    }
  else
    g_propagate_error (error, local);
  if (response != NULL)
    json_decref (response);
  return NULL;
}

typedef struct {
  char *operation;
  json_t *request;
} CallData;

static void
call_data_free (CallData *data)
{
  g_free (data->operation);
  json_decref (data->request);
  g_free (data);
}

static void
call_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  CallData *data = task_data;
  GError *error = NULL;
  json_t *response = dy_connection_call_sync (source, data->operation, data->request,
                                              cancellable, &error);

  if (response == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, response, (GDestroyNotify) json_decref);
}

void
dy_connection_call_async (DyConnection *self, const char *operation, json_t *request,
                          GCancellable *cancellable, GAsyncReadyCallback callback,
                          gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  CallData *data = g_new0 (CallData, 1);

  data->operation = g_strdup (operation);
  /* The thread gets a tree of its own, so the view may go on changing its copy. */
  data->request = json_deep_copy (request);
  g_task_set_source_tag (task, dy_connection_call_async);
  g_task_set_task_data (task, data, (GDestroyNotify) call_data_free);
  g_task_run_in_thread (task, call_thread);
}

json_t *
dy_connection_call_finish (DyConnection *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
list_tables_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DyConnection *self = source;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  json_t *start = NULL;

  do
    {
      json_t *request = json_object ();
      json_t *response;
      json_t *list;
      size_t i;
      json_t *name;
      GError *error = NULL;

      if (start != NULL)
        json_object_set_new (request, "ExclusiveStartTableName", start);
      response = dy_connection_call_sync (self, "ListTables", request, cancellable, &error);
      json_decref (request);
      if (response == NULL)
        {
          g_ptr_array_unref (names);
          g_task_return_error (task, error);
          return;
        }
      list = json_object_get (response, "TableNames");
      json_array_foreach (list, i, name)
        g_ptr_array_add (names, g_strdup (json_string_value (name)));
      start = json_incref (json_object_get (response, "LastEvaluatedTableName"));
      json_decref (response);
    }
  while (start != NULL);
  g_ptr_array_add (names, NULL);
  g_task_return_pointer (task, g_ptr_array_free (names, FALSE), (GDestroyNotify) g_strfreev);
}

static void
list_tables_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyConnection *self = DY_CONNECTION (source);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) names = g_task_propagate_pointer (G_TASK (result), &error);

  set_loading (self, FALSE);
  if (names == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_error (self, error->message);
      return;
    }
  set_error (self, NULL);
  gtk_string_list_splice (self->tables, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->tables)),
                          (const char *const *) names);
}

void
dy_connection_refresh_tables (DyConnection *self)
{
  g_autoptr (GTask) task = g_task_new (self, self->cancellable, list_tables_done, NULL);

  set_loading (self, TRUE);
  g_task_set_source_tag (task, dy_connection_refresh_tables);
  g_task_run_in_thread (task, list_tables_thread);
}
