/* dy-staging-bulk.c: the staging area's bulk puts on worker threads: a grid selection copied
 * into a table of any connection, and the items of a file staged as puts (see
 * staging/copystage.h: creates guarded by attribute_not_exists, or overwrites staged as
 * updates from the item as read; all or nothing). */
#define G_LOG_DOMAIN "dynoscope-staging"

#include <string.h>

#include "app/staging/dy-staging-private.h"

typedef struct {
  DyConnection *connection;
  char *table;
  GStrv source_key_names; /* NULL: the items as they are */
  gboolean overwrite;
  GPtrArray *items; /* DdbValue*, or NULL for a file */
  char *path;
  DdbSnapshotFormat format;
  DdbCopyStageReport report;
} CopyData;

static void
copy_data_free (CopyData *d)
{
  g_object_unref (d->connection);
  g_free (d->table);
  g_strfreev (d->source_key_names);
  g_clear_pointer (&d->items, g_ptr_array_unref);
  g_free (d->path);
  ddb_copy_stage_report_clear (&d->report);
  g_free (d);
}

static void
copy_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DyStaging *self = source;
  CopyData *d = task_data;
  DdbCopyStageSpec spec = { 0 };
  GError *error = NULL;
  DdbBackend *backend;
  gboolean ok;

  /* the backend first: a profile's connection id is known once it is open */
  if ((backend = dy_staging_connection_backend (d->connection, &error)) == NULL
      || (spec.connection = dy_staging_require_id (d->connection, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  spec.table = d->table;
  spec.source_key_names = (const char *const *) d->source_key_names;
  spec.overwrite = d->overwrite;
  if (d->items != NULL)
    ok = ddb_copy_stage (self->store, backend, &spec, d->items, cancellable, &d->report, &error);
  else
    ok = ddb_copy_stage_file (self->store, backend, &spec, d->path, d->format, NULL, NULL,
                              cancellable, &d->report, &error);
  /* freed here rather than with the task on the main loop: thousands of items */
  g_clear_pointer (&d->items, g_ptr_array_unref);
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
copy_start (DyStaging *self, CopyData *d, GCancellable *cancellable,
            GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  GError *error = NULL;

  g_task_set_source_tag (task, copy_start);
  g_task_set_task_data (task, d, (GDestroyNotify) copy_data_free);
  /* a database's id is made here, on the main thread; a profile's once its backend is open */
  dy_staging_connection_id (d->connection);
  if (!dy_staging_check_open (self, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_run_in_thread (task, copy_thread);
}

void
dy_staging_copy_async (DyStaging *self, DyConnection *connection, const char *table,
                       const char *const *source_key_names, gboolean overwrite,
                       GPtrArray *items, GCancellable *cancellable,
                       GAsyncReadyCallback callback, gpointer user_data)
{
  CopyData *d = g_new0 (CopyData, 1);

  d->connection = g_object_ref (connection);
  d->table = g_strdup (table);
  d->source_key_names = g_strdupv ((char **) source_key_names);
  d->overwrite = overwrite;
  d->items = items;
  copy_start (self, d, cancellable, callback, user_data);
}

void
dy_staging_copy_file_async (DyStaging *self, DyConnection *connection, const char *table,
                            const char *path, DdbSnapshotFormat format, gboolean overwrite,
                            GCancellable *cancellable, GAsyncReadyCallback callback,
                            gpointer user_data)
{
  CopyData *d = g_new0 (CopyData, 1);

  d->connection = g_object_ref (connection);
  d->table = g_strdup (table);
  d->path = g_strdup (path);
  d->format = format;
  d->overwrite = overwrite;
  copy_start (self, d, cancellable, callback, user_data);
}

gboolean
dy_staging_copy_finish (DyStaging *self, GAsyncResult *result, DdbCopyStageReport *report,
                        GError **error)
{
  CopyData *d = g_task_get_task_data (G_TASK (result));

  memset (report, 0, sizeof *report);
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  *report = d->report;
  memset (&d->report, 0, sizeof d->report);
  if (report->n_created + report->n_overwritten > 0)
    dy_staging_emit_changed (self);
  return TRUE;
}
