/* dy-staging-threads.c: the staging area's work on worker threads: commits with progress and
 * cancel, fan-out plans and their staging, the expression builder's staging of a result, and a
 * compare's push. */
#define G_LOG_DOMAIN "dynoscope-staging"

#include <glib/gi18n.h>
#include <string.h>

#include "app/staging/dy-staging-private.h"

/* Commits. */

typedef struct {
  DyStaging *staging;
  DyConnection *connection;
  char *id;
  char *table;
  gint64 change_id;
  DdbCommitMode mode;
  DyStagingProgressFunc progress;
  gpointer progress_data;
  GMainContext *context;
  DdbCommitReport report;
  gboolean ok;
  GError *error;
} CommitData;

static void
commit_data_free (CommitData *d)
{
  g_object_unref (d->staging);
  g_object_unref (d->connection);
  g_free (d->id);
  g_free (d->table);
  g_main_context_unref (d->context);
  ddb_commit_report_clear (&d->report);
  g_clear_error (&d->error);
  g_free (d);
}

typedef struct {
  DyStaging *staging;
  DdbCommitProgress progress;
  DyStagingProgressFunc func;
  gpointer data;
} ProgressCall;

static gboolean
progress_idle (gpointer user_data)
{
  ProgressCall *call = user_data;

  call->func (&call->progress, call->data);
  return G_SOURCE_REMOVE;
}

static void
progress_call_free (gpointer user_data)
{
  ProgressCall *call = user_data;

  g_object_unref (call->staging);
  g_free (call);
}

static void
commit_progress (const DdbCommitProgress *progress, gpointer user_data)
{
  CommitData *d = user_data;
  ProgressCall *call;

  if (d->progress == NULL)
    return;
  call = g_new0 (ProgressCall, 1);
  call->staging = g_object_ref (d->staging);
  call->progress = *progress;
  call->func = d->progress;
  call->data = d->progress_data;
  g_main_context_invoke_full (d->context, G_PRIORITY_DEFAULT, progress_idle, call,
                              progress_call_free);
}

static void
commit_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  CommitData *d = task_data;
  DdbCommitOptions options = { 0 };
  DdbBackend *backend = dy_staging_connection_backend (d->connection, &d->error);

  if (backend == NULL)
    {
      g_task_return_boolean (task, FALSE);
      return;
    }
  options.connection = d->id;
  options.table = d->table;
  options.change_id = d->change_id;
  options.mode = d->mode;
  options.progress = commit_progress;
  options.progress_data = d;
  d->ok = ddb_staging_commit (d->staging->store, backend, &options, cancellable, &d->report,
                              &d->error);
  g_task_return_boolean (task, d->ok);
}

void
dy_staging_commit_async (DyStaging *self, DyConnection *connection, const char *table,
                         gint64 change_id, DdbCommitMode mode, GCancellable *cancellable,
                         DyStagingProgressFunc progress, gpointer progress_data,
                         GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  GError *error = NULL;
  const char *id;
  CommitData *d;

  g_task_set_source_tag (task, dy_staging_commit_async);
  if (!dy_staging_check_open (self, &error) || (id = dy_staging_require_id (connection, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  d = g_new0 (CommitData, 1);
  d->staging = g_object_ref (self);
  d->connection = g_object_ref (connection);
  d->id = g_strdup (id);
  d->table = g_strdup (table);
  d->change_id = change_id;
  d->mode = mode;
  d->progress = progress;
  d->progress_data = progress_data;
  d->context = g_main_context_ref_thread_default ();
  g_task_set_task_data (task, d, (GDestroyNotify) commit_data_free);
  /* the result is read from the task data, so that a failed commit still reports */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, commit_thread);
}

gboolean
dy_staging_commit_finish (DyStaging *self, GAsyncResult *result, DdbCommitReport *report,
                          GError **error)
{
  CommitData *d = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) local = NULL;

  memset (report, 0, sizeof *report);
  if (!g_task_propagate_boolean (G_TASK (result), &local) && d == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  *report = d->report;
  memset (&d->report, 0, sizeof d->report);
  dy_staging_emit_changed (self);
  if (report->committed > 0)
    dy_staging_emit_committed (self, d->connection, d->table,
                   report->committed);
  if (!d->ok)
    {
      g_propagate_error (error, d->error);
      d->error = NULL;
      return FALSE;
    }
  return TRUE;
}

/* Fan-out. */

typedef struct {
  DyConnection *connection;
  char *table, *attribute, *index;
  DdbValue *old_value, *new_value, *index_key;
  char *id;            /* staging: the connection id */
  DdbFanoutPlan *plan; /* staging: the plan, owned */
} PlanData;

static void
plan_data_free (PlanData *d)
{
  g_object_unref (d->connection);
  g_free (d->table);
  g_free (d->attribute);
  g_free (d->index);
  g_clear_pointer (&d->old_value, ddb_value_free);
  g_clear_pointer (&d->new_value, ddb_value_free);
  g_clear_pointer (&d->index_key, ddb_value_free);
  g_free (d->id);
  g_clear_pointer (&d->plan, ddb_fanout_plan_free);
  g_free (d);
}

static void
plan_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  PlanData *d = task_data;
  DdbFanoutSpec spec
      = { d->table, d->attribute, d->old_value, d->new_value, d->index, d->index_key };
  GError *error = NULL;
  DdbBackend *backend = dy_staging_connection_backend (d->connection, &error);
  DdbFanoutPlan *plan = NULL;

  if (backend != NULL)
    plan = ddb_fanout_plan (backend, &spec, cancellable, &error);
  if (plan == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, plan, (GDestroyNotify) ddb_fanout_plan_free);
}

static PlanData *
plan_data_new (DyConnection *connection, const DdbFanoutSpec *spec)
{
  PlanData *d = g_new0 (PlanData, 1);

  d->connection = g_object_ref (connection);
  d->table = g_strdup (spec->table);
  d->attribute = g_strdup (spec->attribute);
  d->index = g_strdup (spec->index);
  d->old_value = ddb_value_copy (spec->old_value);
  d->new_value = ddb_value_copy (spec->new_value);
  d->index_key = spec->index_key != NULL ? ddb_value_copy (spec->index_key) : NULL;
  return d;
}

void
dy_staging_fanout_plan_async (DyStaging *self, DyConnection *connection, const DdbFanoutSpec *spec,
                              GCancellable *cancellable, GAsyncReadyCallback callback,
                              gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  PlanData *d = plan_data_new (connection, spec);

  g_task_set_source_tag (task, dy_staging_fanout_plan_async);
  g_task_set_task_data (task, d, (GDestroyNotify) plan_data_free);
  g_task_run_in_thread (task, plan_thread);
}

DdbFanoutPlan *
dy_staging_fanout_plan_finish (DyStaging *self, GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
fanout_stage_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DyStaging *self = source;
  PlanData *d = task_data;
  DdbFanoutSpec spec
      = { d->table, d->attribute, d->old_value, d->new_value, d->index, d->index_key };
  GError *error = NULL;

  if (ddb_fanout_stage (self->store, d->id, &spec, d->plan, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
dy_staging_fanout_stage_async (DyStaging *self, DyConnection *connection, const DdbFanoutSpec *spec,
                               DdbFanoutPlan *plan, GAsyncReadyCallback callback,
                               gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (self, NULL, callback, user_data);
  GError *error = NULL;
  const char *id;
  PlanData *d;

  g_task_set_source_tag (task, dy_staging_fanout_stage_async);
  if (!dy_staging_check_open (self, &error) || (id = dy_staging_require_id (connection, &error)) == NULL)
    {
      ddb_fanout_plan_free (plan);
      g_task_return_error (task, error);
      return;
    }
  d = plan_data_new (connection, spec);
  d->id = g_strdup (id);
  d->plan = plan;
  g_task_set_task_data (task, d, (GDestroyNotify) plan_data_free);
  g_task_run_in_thread (task, fanout_stage_thread);
}

gboolean
dy_staging_fanout_stage_finish (DyStaging *self, GAsyncResult *result, GError **error)
{
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  dy_staging_emit_changed (self);
  return TRUE;
}

/* The expression builder's Stage: every item in one transaction, off the main loop. */
typedef struct {
  char *id;
  char *table;
  GStrv key_names;
  DdbUpdate *update;
  DdbNode *condition;
  GPtrArray *items; /* DdbValue*, the caller's, taken */
  DdbExprStageReport report;
} ExprStageData;

static void
expr_stage_data_free (ExprStageData *d)
{
  g_free (d->id);
  g_free (d->table);
  g_strfreev (d->key_names);
  g_clear_pointer (&d->update, ddb_update_free);
  g_clear_pointer (&d->condition, ddb_node_free);
  g_clear_pointer (&d->items, g_ptr_array_unref);
  ddb_expr_stage_report_clear (&d->report);
  g_free (d);
}

static void
expr_stage_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DyStaging *self = source;
  ExprStageData *d = task_data;
  DdbExprStageSpec spec
      = { d->id, d->table, (const char *const *) d->key_names, d->update, d->condition };
  GError *error = NULL;

  gboolean ok = ddb_expr_stage (self->store, &spec, d->items, &d->report, &error);

  /* freed here rather than with the task on the main loop: thousands of items */
  g_clear_pointer (&d->items, g_ptr_array_unref);
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
dy_staging_stage_expression_async (DyStaging *self, DyConnection *connection, const char *table,
                                   const char *const *key_names, DdbUpdate *update,
                                   DdbNode *condition, GPtrArray *items,
                                   GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (self, NULL, callback, user_data);
  ExprStageData *d = g_new0 (ExprStageData, 1);
  GError *error = NULL;
  const char *id;

  g_task_set_source_tag (task, dy_staging_stage_expression_async);
  d->table = g_strdup (table);
  d->key_names = g_strdupv ((char **) key_names);
  d->update = update;
  d->condition = condition;
  d->items = items;
  g_task_set_task_data (task, d, (GDestroyNotify) expr_stage_data_free);
  if (!dy_staging_check_open (self, &error) || (id = dy_staging_require_id (connection, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  d->id = g_strdup (id);
  g_task_run_in_thread (task, expr_stage_thread);
}

gboolean
dy_staging_stage_expression_finish (DyStaging *self, GAsyncResult *result,
                                    DdbExprStageReport *report, GError **error)
{
  ExprStageData *d = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  *report = d->report;
  memset (&d->report, 0, sizeof d->report);
  if (report->n_staged > 0)
    dy_staging_emit_changed (self);
  return TRUE;
}

/* A compare's push, off the main loop: one staged change per difference. */
typedef struct {
  char *id;
  DdbCompareResult *result; /* the caller's */
  GMutex *lock;
  DdbPushSelectFunc select;
  gpointer select_data;
  DdbPushCounts counts;
} PushData;

static void
push_data_free (PushData *d)
{
  g_free (d->id);
  g_free (d);
}

static void
push_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DyStaging *self = source;
  PushData *d = task_data;
  GError *error = NULL;
  gboolean ok;

  if (d->lock != NULL)
    g_mutex_lock (d->lock);
  ok = ddb_push_stage (d->result, self->store, d->id, d->select, d->select_data, &d->counts,
                       &error);
  if (d->lock != NULL)
    g_mutex_unlock (d->lock);
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
dy_staging_push_async (DyStaging *self, DyConnection *connection, DdbCompareResult *result,
                       GMutex *lock, DdbPushSelectFunc select, gpointer select_data,
                       GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (self, NULL, callback, user_data);
  PushData *d = g_new0 (PushData, 1);
  GError *error = NULL;
  const char *id;

  g_task_set_source_tag (task, dy_staging_push_async);
  d->result = result;
  d->lock = lock;
  d->select = select;
  d->select_data = select_data;
  g_task_set_task_data (task, d, (GDestroyNotify) push_data_free);
  if (!dy_staging_check_open (self, &error) || (id = dy_staging_require_id (connection, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  d->id = g_strdup (id);
  g_task_run_in_thread (task, push_thread);
}

gboolean
dy_staging_push_finish (DyStaging *self, GAsyncResult *result, DdbPushCounts *counts,
                        GError **error)
{
  PushData *d = g_task_get_task_data (G_TASK (result));
  gboolean ok = g_task_propagate_boolean (G_TASK (result), error);

  if (counts != NULL)
    *counts = d->counts;
  /* a push that stopped part way staged some changes too */
  if (d->counts.staged > 0)
    dy_staging_emit_changed (self);
  return ok;
}
