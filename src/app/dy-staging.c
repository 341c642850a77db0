/* dy-staging.c: the app's staging area over one DdbStaging store. */
#define G_LOG_DOMAIN "dynoscope-staging"

#include <glib/gi18n.h>
#include <string.h>

#include "app/dy-staging.h"
#include "core/ddbjson.h"
#include "staging/diff.h"

#define ID_KEY "dy-staging-id"
#define BACKEND_KEY "dy-staging-backend"

/* The pending changes of one table, by item key. */
typedef struct {
  GHashTable *by_key; /* key text -> Pending */
  GPtrArray *changes; /* DdbChange, owning */
} TableCache;

typedef struct {
  DdbChange *change; /* borrowed from the TableCache */
  char **changed;    /* top-level names, for updates */
} Pending;

struct _DyStaging {
  GObject parent_instance;

  DdbStaging *store;
  GError *open_error;
  GHashTable *cache; /* "id\ntable" -> TableCache */
};

G_DEFINE_FINAL_TYPE (DyStaging, dy_staging, G_TYPE_OBJECT)

enum { SIGNAL_CHANGED, N_SIGNALS };

static guint signals[N_SIGNALS];

/* Guards the per-connection backends opened by worker threads. */
static GMutex backend_lock;

static void
pending_free (Pending *p)
{
  g_strfreev (p->changed);
  g_free (p);
}

static void
table_cache_free (TableCache *tc)
{
  g_hash_table_unref (tc->by_key);
  g_ptr_array_unref (tc->changes);
  g_free (tc);
}

static void
emit_changed (DyStaging *self)
{
  g_hash_table_remove_all (self->cache);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
dy_staging_finalize (GObject *object)
{
  DyStaging *self = DY_STAGING (object);

  g_clear_pointer (&self->store, ddb_staging_free);
  g_clear_error (&self->open_error);
  g_hash_table_unref (self->cache);
  G_OBJECT_CLASS (dy_staging_parent_class)->finalize (object);
}

static void
dy_staging_class_init (DyStagingClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_staging_finalize;
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
dy_staging_init (DyStaging *self)
{
  self->cache
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) table_cache_free);
}

DyStaging *
dy_staging_new (const char *path)
{
  DyStaging *self = g_object_new (DY_TYPE_STAGING, NULL);

  self->store = ddb_staging_open (path, &self->open_error);
  if (self->store == NULL)
    g_warning ("staging store %s: %s", path, self->open_error->message);
  return self;
}

DyStaging *
dy_staging_get_default (void)
{
  static DyStaging *app_staging;

  if (app_staging == NULL)
    {
      g_autofree char *path = ddb_staging_default_path ();

      app_staging = dy_staging_new (path);
    }
  return app_staging;
}

const GError *
dy_staging_get_open_error (DyStaging *self)
{
  return self->open_error;
}

static gboolean
check_open (DyStaging *self, GError **error)
{
  if (self->store != NULL)
    return TRUE;
  g_set_error (error, self->open_error->domain, self->open_error->code,
               _ ("The staging area could not be opened: %s"), self->open_error->message);
  return FALSE;
}

/* Connection ids and backends. */

const char *
dy_staging_connection_id (DyConnection *connection)
{
  const char *id = g_object_get_data (G_OBJECT (connection), ID_KEY);

  if (id != NULL)
    return id;
  switch (dy_connection_get_kind (connection))
    {
      case DY_CONNECTION_DATABASE: {
        const char *path = dy_connection_get_path (connection);
        char *canonical = g_strcmp0 (path, ":memory:") == 0 ? g_strdup (path)
                                                            : g_canonicalize_filename (path, NULL);

        g_object_set_data_full (G_OBJECT (connection), ID_KEY, canonical, g_free);
        return canonical;
      }
    case DY_CONNECTION_ENDPOINT:
      /* The client keeps an endpoint URL as given, so this is its description. */
      return dy_connection_get_url (connection);
    case DY_CONNECTION_PROFILE:
    default:
      return NULL; /* the endpoint it resolves to: see dy_staging_prepare */
    }
}

/* The backend that commits and fan-out plans go through, opened by the first worker that needs
 * it: a second one beside the connection's (the engine's WAL store takes several handles on
 * one file), so that a commit neither queues behind browsing nor holds it up, and with the
 * client's full retry budget for throttling. Worker threads only. */
static DdbBackend *
connection_backend (DyConnection *connection, GError **error)
{
  DdbBackend *backend;

  g_mutex_lock (&backend_lock);
  backend = g_object_get_data (G_OBJECT (connection), BACKEND_KEY);
  if (backend == NULL)
    {
      backend = dy_connection_open_backend (connection, 0, error);
      if (backend != NULL)
        {
          g_object_set_data_full (G_OBJECT (connection), BACKEND_KEY, backend,
                                  (GDestroyNotify) ddb_backend_free);
          if (dy_connection_get_kind (connection) == DY_CONNECTION_PROFILE)
            g_object_set_data_full (G_OBJECT (connection), ID_KEY,
                                    g_strdup (ddb_backend_get_description (backend)), g_free);
        }
    }
  g_mutex_unlock (&backend_lock);
  return backend;
}

static void
prepare_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;

  if (connection_backend (task_data, &error) == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
prepare_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyStaging *self = DY_STAGING (source);
  g_autoptr (GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    g_debug ("staging backend: %s", error->message);
  else
    emit_changed (self);
}

void
dy_staging_prepare (DyStaging *self, DyConnection *connection)
{
  g_autoptr (GTask) task = NULL;

  if (dy_connection_get_kind (connection) != DY_CONNECTION_PROFILE
      || dy_staging_connection_id (connection) != NULL)
    return;
  task = g_task_new (self, NULL, prepare_done, NULL);
  g_task_set_source_tag (task, dy_staging_prepare);
  g_task_set_task_data (task, g_object_ref (connection), g_object_unref);
  g_task_run_in_thread (task, prepare_thread);
}

static const char *
require_id (DyConnection *connection, GError **error)
{
  const char *id = dy_staging_connection_id (connection);

  if (id == NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                 _ ("The endpoint of %s is not resolved yet: try again in a moment"),
                 dy_connection_get_title (connection));
  return id;
}

/* Staging. */

gboolean
dy_staging_stage (DyStaging *self, DyConnection *connection, const char *table, DdbChangeKind kind,
                  const DdbValue *key, const DdbValue *original, const DdbValue *target,
                  GError **error)
{
  const char *id;
  gboolean ok = FALSE;

  if (!check_open (self, error) || (id = require_id (connection, error)) == NULL)
    return FALSE;
  switch (kind)
    {
    case DDB_CHANGE_CREATE:
      ok = ddb_staging_stage_create (self->store, id, table, key, target, NULL, error);
      break;
    case DDB_CHANGE_UPDATE:
      ok = ddb_staging_stage_update (self->store, id, table, key, original, target, NULL, error);
      break;
    case DDB_CHANGE_DELETE:
      ok = ddb_staging_stage_delete (self->store, id, table, key, original, NULL, error);
      break;
    }
  if (ok)
    emit_changed (self);
  return ok;
}

GPtrArray *
dy_staging_list (DyStaging *self, DyConnection *connection, const char *table, GError **error)
{
  const char *id;

  if (!check_open (self, error) || (id = require_id (connection, error)) == NULL)
    return NULL;
  return ddb_staging_list (self->store, id, table, FALSE, error);
}

gboolean
dy_staging_reject_path (DyStaging *self, gint64 id, const char *path, GError **error)
{
  if (!check_open (self, error) || !ddb_staging_reject_path (self->store, id, path, error))
    return FALSE;
  emit_changed (self);
  return TRUE;
}

gboolean
dy_staging_discard (DyStaging *self, gint64 id, GError **error)
{
  if (!check_open (self, error) || !ddb_staging_discard (self->store, id, error))
    return FALSE;
  emit_changed (self);
  return TRUE;
}

gboolean
dy_staging_discard_all (DyStaging *self, DyConnection *connection, const char *table,
                        GError **error)
{
  const char *id;

  if (!check_open (self, error) || (id = require_id (connection, error)) == NULL
      || !ddb_staging_discard_all (self->store, id, table, NULL, error))
    return FALSE;
  emit_changed (self);
  return TRUE;
}

gboolean
dy_staging_requeue (DyStaging *self, gint64 id, GError **error)
{
  if (!check_open (self, error) || !ddb_staging_requeue (self->store, id, error))
    return FALSE;
  emit_changed (self);
  return TRUE;
}

DdbChange *
dy_staging_get (DyStaging *self, gint64 id, GError **error)
{
  if (!check_open (self, error))
    return NULL;
  return ddb_staging_get (self->store, id, error);
}

/* Lookup. */

/* The key as text: its attributes by name (sorted: a key map from a grid row and one from the
 * store may list them in another order), each as DynamoDB JSON. */
static char *
key_text (const DdbValue *key, char **names)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; names[i] != NULL; i++)
    {
      const DdbValue *v = ddb_value_map_get (key, names[i]);

      if (v == NULL)
        {
          g_string_free (text, TRUE);
          return NULL;
        }
      g_string_append (text, names[i]);
      g_string_append_c (text, '\n');
      ddb_json_append_value (text, v);
      g_string_append_c (text, '\n');
    }
  return g_string_free (text, FALSE);
}

static int
compare_names (const void *a, const void *b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

static char **
key_names (const DdbValue *key)
{
  guint n = ddb_value_map_size (key);
  char **names = g_new0 (char *, n + 1);

  for (guint i = 0; i < n; i++)
    names[i] = g_strdup (ddb_value_map_nth (key, i)->name);
  qsort (names, n, sizeof (char *), compare_names);
  return names;
}

static TableCache *
table_cache (DyStaging *self, DyConnection *connection, const char *table)
{
  const char *id = dy_staging_connection_id (connection);
  g_autofree char *cache_key = NULL;
  TableCache *tc;
  GPtrArray *changes;

  if (id == NULL || self->store == NULL)
    return NULL;
  cache_key = g_strdup_printf ("%s\n%s", id, table);
  tc = g_hash_table_lookup (self->cache, cache_key);
  if (tc != NULL)
    return tc;
  changes = ddb_staging_list (self->store, id, table, FALSE, NULL);
  tc = g_new0 (TableCache, 1);
  tc->changes = changes != NULL ? changes : g_ptr_array_new ();
  tc->by_key
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) pending_free);
  for (guint i = 0; i < tc->changes->len; i++)
    {
      DdbChange *change = g_ptr_array_index (tc->changes, i);
      guint n = ddb_value_map_size (change->key);
      char **names = g_new0 (char *, n + 1);
      char *text;
      Pending *p;

      for (guint k = 0; k < n; k++)
        names[k] = ddb_value_map_nth (change->key, k)->name;
      qsort (names, n, sizeof (char *), compare_names);
      text = key_text (change->key, names);
      g_free (names);
      if (text == NULL)
        continue;
      p = g_new0 (Pending, 1);
      p->change = change;
      if (change->kind == DDB_CHANGE_UPDATE)
        {
          g_autoptr (GPtrArray) diff = ddb_change_diff (change);
          GPtrArray *top = g_ptr_array_new ();

          for (guint d = 0; d < diff->len; d++)
            {
              DdbDiffEntry *e = g_ptr_array_index (diff, d);
              const char *name = e->path.elems[0].name;
              gboolean seen = FALSE;

              for (guint t = 0; t < top->len && !seen; t++)
                seen = g_str_equal (g_ptr_array_index (top, t), name);
              if (!seen)
                g_ptr_array_add (top, g_strdup (name));
            }
          g_ptr_array_add (top, NULL);
          p->changed = (char **) g_ptr_array_free (top, FALSE);
        }
      g_hash_table_replace (tc->by_key, text, p);
    }
  g_hash_table_insert (self->cache, g_steal_pointer (&cache_key), tc);
  return tc;
}

static Pending *
lookup (DyStaging *self, DyConnection *connection, const char *table, const DdbValue *item)
{
  TableCache *tc = table_cache (self, connection, table);
  DdbChange *first;
  g_auto (GStrv) names = NULL;
  g_autofree char *text = NULL;

  if (tc == NULL || tc->changes->len == 0 || item == NULL)
    return NULL;
  /* every change of a table has the same key attributes */
  first = g_ptr_array_index (tc->changes, 0);
  names = key_names (first->key);
  text = key_text (item, names);
  return text != NULL ? g_hash_table_lookup (tc->by_key, text) : NULL;
}

DyStagedKind
dy_staging_lookup (DyStaging *self, DyConnection *connection, const char *table,
                   const DdbValue *item, const char *const **changed)
{
  Pending *p = lookup (self, connection, table, item);

  if (changed != NULL)
    *changed = p != NULL ? (const char *const *) p->changed : NULL;
  if (p == NULL)
    return DY_STAGED_NONE;
  switch (p->change->kind)
    {
    case DDB_CHANGE_CREATE:
      return DY_STAGED_CREATE;
    case DDB_CHANGE_UPDATE:
      return DY_STAGED_UPDATE;
    case DDB_CHANGE_DELETE:
    default:
      return DY_STAGED_DELETE;
    }
}

const DdbChange *
dy_staging_lookup_change (DyStaging *self, DyConnection *connection, const char *table,
                          const DdbValue *item)
{
  Pending *p = lookup (self, connection, table, item);

  return p != NULL ? p->change : NULL;
}

const char *
dy_staging_kind_css_class (DyStagedKind kind)
{
  switch (kind)
    {
    case DY_STAGED_CREATE:
      return "staged-create";
    case DY_STAGED_UPDATE:
      return "staged-update";
    case DY_STAGED_DELETE:
      return "staged-delete";
    case DY_STAGED_NONE:
    default:
      return NULL;
    }
}

/* Inspector glue. */

typedef struct {
  DyStaging *staging;
  DyConnection *connection;
  char *table;
} Attached;

static void
attached_free (Attached *a)
{
  g_object_unref (a->staging);
  g_object_unref (a->connection);
  g_free (a->table);
  g_free (a);
}

static gboolean
inspector_stage (DyInspector *inspector, int kind, gpointer key, gpointer original, gpointer target,
                 Attached *a)
{
  static const DdbChangeKind kinds[] = {
    [DY_INSPECTOR_STAGE_UPDATE] = DDB_CHANGE_UPDATE,
    [DY_INSPECTOR_STAGE_CREATE] = DDB_CHANGE_CREATE,
    [DY_INSPECTOR_STAGE_DELETE] = DDB_CHANGE_DELETE,
  };
  g_autoptr (GError) error = NULL;
  const DdbChange *pending = NULL;
  DdbChangeKind change_kind = kinds[kind];

  /* An edit of an item staged as new changes that create: the store merges an update into it
   * when the update starts from the created item. */
  if (kind == DY_INSPECTOR_STAGE_UPDATE)
    pending = dy_staging_lookup_change (a->staging, a->connection, a->table, key);
  if (pending != NULL && pending->kind == DDB_CHANGE_CREATE)
    original = pending->target;
  dy_staging_stage (a->staging, a->connection, a->table, change_kind, key, original, target,
                    &error);
  dy_inspector_report_staged (inspector, kind, error);
  return TRUE;
}

static void
inspector_item_changed (DyInspector *inspector, Attached *a)
{
  DyItem *item = dy_inspector_get_item (inspector);
  const DdbChange *change;

  if (item == NULL)
    return;
  change = dy_staging_lookup_change (a->staging, a->connection, a->table, dy_item_get_value (item));
  if (change == NULL)
    {
      dy_inspector_show_staged (inspector, -1, NULL);
      return;
    }
  switch (change->kind)
    {
    case DDB_CHANGE_UPDATE:
      dy_inspector_show_staged (inspector, DY_INSPECTOR_STAGE_UPDATE, change->target);
      break;
    case DDB_CHANGE_CREATE:
      dy_inspector_show_staged (inspector, DY_INSPECTOR_STAGE_CREATE, change->target);
      break;
    case DDB_CHANGE_DELETE:
      dy_inspector_show_staged (inspector, DY_INSPECTOR_STAGE_DELETE, NULL);
      break;
    }
}

/* Staged, discarded or committed elsewhere (the panel, a fan-out): the inspector follows. */
static void
staging_changed (DyStaging *staging, DyInspector *inspector)
{
  Attached *a = g_object_get_data (G_OBJECT (inspector), "dy-staging-attached");

  if (a != NULL)
    inspector_item_changed (inspector, a);
}

static gboolean
key_type (json_t *definitions, const char *name, DdbType *type)
{
  size_t i;
  json_t *d;

  json_array_foreach (definitions, i, d)
    if (g_strcmp0 (json_string_value (json_object_get (d, "AttributeName")), name) == 0)
      return ddb_type_from_name (json_string_value (json_object_get (d, "AttributeType")), type);
  return FALSE;
}

static void
described (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyInspector) inspector = user_data;
  g_autoptr (GError) error = NULL;
  json_t *response = dy_connection_call_finish (DY_CONNECTION (source), result, &error);
  json_t *table, *schema, *definitions, *k;
  const char *pk = NULL, *sk = NULL;
  DdbType pk_type = DDB_TYPE_S, sk_type = DDB_TYPE_S;
  size_t i;

  if (response == NULL)
    {
      g_debug ("DescribeTable for the inspector: %s", error->message);
      return;
    }
  table = json_object_get (response, "Table");
  schema = json_object_get (table, "KeySchema");
  definitions = json_object_get (table, "AttributeDefinitions");
  json_array_foreach (schema, i, k)
    {
      const char *name = json_string_value (json_object_get (k, "AttributeName"));
      const char *role = json_string_value (json_object_get (k, "KeyType"));

      if (g_strcmp0 (role, "HASH") == 0 && key_type (definitions, name, &pk_type))
        pk = name;
      else if (g_strcmp0 (role, "RANGE") == 0 && key_type (definitions, name, &sk_type))
        sk = name;
    }
  if (pk != NULL)
    dy_inspector_set_key_schema (inspector, pk, pk_type, sk, sk_type);
  json_decref (response);
}

void
dy_staging_attach_inspector (DyStaging *self, DyInspector *inspector, DyConnection *connection,
                             const char *table)
{
  Attached *a = g_new0 (Attached, 1);
  json_t *request = json_pack ("{ss}", "TableName", table);

  a->staging = g_object_ref (self);
  a->connection = g_object_ref (connection);
  a->table = g_strdup (table);
  g_object_set_data_full (G_OBJECT (inspector), "dy-staging-attached", a,
                          (GDestroyNotify) attached_free);
  g_signal_connect (inspector, "stage", G_CALLBACK (inspector_stage), a);
  g_signal_connect (inspector, "item-changed", G_CALLBACK (inspector_item_changed), a);
  g_signal_connect_object (self, "changed", G_CALLBACK (staging_changed), inspector, 0);
  dy_staging_prepare (self, connection);
  dy_connection_call_async (connection, "DescribeTable", request, NULL, described,
                            g_object_ref (inspector));
  json_decref (request);
}

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
  DdbBackend *backend = connection_backend (d->connection, &d->error);

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
  if (!check_open (self, &error) || (id = require_id (connection, &error)) == NULL)
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
  emit_changed (self);
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
  g_free (d);
}

static void
plan_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  PlanData *d = task_data;
  DdbFanoutSpec spec
      = { d->table, d->attribute, d->old_value, d->new_value, d->index, d->index_key };
  GError *error = NULL;
  DdbBackend *backend = connection_backend (d->connection, &error);
  DdbFanoutPlan *plan = NULL;

  if (backend != NULL)
    plan = ddb_fanout_plan (backend, &spec, cancellable, &error);
  if (plan == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, plan, (GDestroyNotify) ddb_fanout_plan_free);
}

void
dy_staging_fanout_plan_async (DyStaging *self, DyConnection *connection, const DdbFanoutSpec *spec,
                              GCancellable *cancellable, GAsyncReadyCallback callback,
                              gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  PlanData *d = g_new0 (PlanData, 1);

  d->connection = g_object_ref (connection);
  d->table = g_strdup (spec->table);
  d->attribute = g_strdup (spec->attribute);
  d->index = g_strdup (spec->index);
  d->old_value = ddb_value_copy (spec->old_value);
  d->new_value = ddb_value_copy (spec->new_value);
  d->index_key = spec->index_key != NULL ? ddb_value_copy (spec->index_key) : NULL;
  g_task_set_source_tag (task, dy_staging_fanout_plan_async);
  g_task_set_task_data (task, d, (GDestroyNotify) plan_data_free);
  g_task_run_in_thread (task, plan_thread);
}

DdbFanoutPlan *
dy_staging_fanout_plan_finish (DyStaging *self, GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

gboolean
dy_staging_fanout_stage (DyStaging *self, DyConnection *connection, const DdbFanoutSpec *spec,
                         const DdbFanoutPlan *plan, GError **error)
{
  const char *id;

  if (!check_open (self, error) || (id = require_id (connection, error)) == NULL
      || !ddb_fanout_stage (self->store, id, spec, plan, error))
    return FALSE;
  emit_changed (self);
  return TRUE;
}
