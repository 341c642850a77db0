/* dy-staging.c: the app's staging area over one DdbStaging store. */
#define G_LOG_DOMAIN "dynoscope-staging"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "app/dy-staging-private.h"
#include "core/ddbjson.h"
#include "staging/diff.h"

#define ID_KEY "dy-staging-id"
#define BACKEND_KEY "dy-staging-backend"
#define PREPARE_ERROR_KEY "dy-staging-prepare-error"

/* The open changes of one connection as last read from the store. */
typedef struct {
  GPtrArray *changes; /* DdbChange, owning, oldest first */
  GHashTable *by_key; /* "table\nkey text" -> Pending */
  GHashTable *names;  /* table -> its key attribute names, sorted (GStrv) */
} Snapshot;

typedef struct {
  DdbChange *change; /* borrowed from the Snapshot */
  char **changed;    /* top-level names, for updates */
} Pending;

typedef struct {
  char *id;           /* the connection id */
  Snapshot *snapshot; /* NULL until the first load is in */
  GError *error;      /* the last load's */
  gboolean loading;
  gboolean stale; /* the store changed while loading: load again */
} Cached;

/* A draft kept for an item while the app runs. */
typedef struct {
  DyConnection *connection;
  char *table;
  DyInspectorDraft *draft;
} Draft;


G_DEFINE_FINAL_TYPE (DyStaging, dy_staging, G_TYPE_OBJECT)

enum { SIGNAL_CHANGED, SIGNAL_COMMITTED, N_SIGNALS };

static guint signals[N_SIGNALS];

/* Guards the per-connection backends opened by worker threads. */
static GMutex backend_lock;

static void
pending_free (Pending *p)
{
  g_strfreev (p->changed);
  g_free (p);
}

static void snapshot_free (Snapshot *snap);

static void
cached_free (Cached *cached)
{
  g_free (cached->id);
  snapshot_free (cached->snapshot);
  g_clear_error (&cached->error);
  g_free (cached);
}

static void
draft_free (Draft *d)
{
  g_object_unref (d->connection);
  g_free (d->table);
  dy_inspector_draft_free (d->draft);
  g_free (d);
}

static void
dy_staging_finalize (GObject *object)
{
  DyStaging *self = DY_STAGING (object);

  g_clear_pointer (&self->store, ddb_staging_free);
  g_clear_pointer (&self->reader, ddb_staging_free);
  g_clear_error (&self->open_error);
  g_hash_table_unref (self->cache);
  g_hash_table_unref (self->drafts);
  g_ptr_array_unref (self->inspectors);
  G_OBJECT_CLASS (dy_staging_parent_class)->finalize (object);
}

static void
dy_staging_class_init (DyStagingClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_staging_finalize;
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_COMMITTED]
      = g_signal_new ("committed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 3, DY_TYPE_CONNECTION, G_TYPE_STRING, G_TYPE_UINT);
}

static void
dy_staging_init (DyStaging *self)
{
  /* a Cached owns its id, the key */
  self->cache = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) cached_free);
  self->drafts
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) draft_free);
  self->inspectors = g_ptr_array_new ();
}

DyStaging *
dy_staging_new (const char *path)
{
  DyStaging *self = g_object_new (DY_TYPE_STAGING, NULL);

  self->store = ddb_staging_open (path, &self->open_error);
  if (self->store == NULL)
    g_warning ("staging store %s: %s", path, self->open_error->message);
  else if (g_strcmp0 (path, ":memory:") != 0)
    {
      g_autoptr (GError) error = NULL;

      self->reader = ddb_staging_open (path, &error);
      if (self->reader == NULL)
        g_debug ("a second handle on %s: %s", path, error->message);
    }
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

gboolean
dy_staging_check_open (DyStaging *self, GError **error)
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
DdbBackend *
dy_staging_connection_backend (DyConnection *connection, GError **error)
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

  if (dy_staging_connection_backend (task_data, &error) == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
prepare_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyStaging *self = DY_STAGING (source);
  GError *error = NULL;

  /* a profile whose endpoint cannot be resolved: the panel says why, not "reading" forever */
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    g_object_set_data_full (g_task_get_task_data (G_TASK (result)), PREPARE_ERROR_KEY, error,
                            (GDestroyNotify) g_error_free);
  dy_staging_emit_changed (self);
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

const char *
dy_staging_require_id (DyConnection *connection, GError **error)
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

  if (!dy_staging_check_open (self, error) || (id = dy_staging_require_id (connection, error)) == NULL)
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
    dy_staging_emit_changed (self);
  return ok;
}

GPtrArray *
dy_staging_list (DyStaging *self, DyConnection *connection, const char *table, GError **error)
{
  const char *id;

  if (!dy_staging_check_open (self, error) || (id = dy_staging_require_id (connection, error)) == NULL)
    return NULL;
  return ddb_staging_list (self->store, id, table, FALSE, error);
}

gboolean
dy_staging_reject_path (DyStaging *self, gint64 id, const char *path, GError **error)
{
  if (!dy_staging_check_open (self, error) || !ddb_staging_reject_path (self->store, id, path, error))
    return FALSE;
  dy_staging_emit_changed (self);
  return TRUE;
}

gboolean
dy_staging_discard (DyStaging *self, gint64 id, GError **error)
{
  if (!dy_staging_check_open (self, error) || !ddb_staging_discard (self->store, id, error))
    return FALSE;
  dy_staging_emit_changed (self);
  return TRUE;
}

gboolean
dy_staging_discard_all (DyStaging *self, DyConnection *connection, const char *table,
                        GError **error)
{
  const char *id;

  if (!dy_staging_check_open (self, error) || (id = dy_staging_require_id (connection, error)) == NULL
      || !ddb_staging_discard_all (self->store, id, table, NULL, error))
    return FALSE;
  dy_staging_emit_changed (self);
  return TRUE;
}

gboolean
dy_staging_requeue (DyStaging *self, gint64 id, GError **error)
{
  if (!dy_staging_check_open (self, error) || !ddb_staging_requeue (self->store, id, error))
    return FALSE;
  dy_staging_emit_changed (self);
  return TRUE;
}

DdbChange *
dy_staging_get (DyStaging *self, gint64 id, GError **error)
{
  if (!dy_staging_check_open (self, error))
    return NULL;
  return ddb_staging_get (self->store, id, error);
}

/* Snapshots.
 *
 * Reading a connection's open changes from the store, and diffing each, is SQLite work that
 * grows with the staging area (10,000 changes after a big fan-out): it runs on a worker thread.
 * The main thread only reads the last snapshot: a store change reloads the snapshots in use,
 * and "changed" is emitted when the new one is in. */

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

/* "table\nkey text": what a snapshot finds an item's change by. */
static char *
item_key_text (const char *table, const DdbValue *key, char **names)
{
  g_autofree char *text = key_text (key, names);

  return text != NULL ? g_strconcat (table, "\n", text, NULL) : NULL;
}

static void
snapshot_free (Snapshot *snap)
{
  if (snap == NULL)
    return;
  g_hash_table_unref (snap->by_key);
  g_hash_table_unref (snap->names);
  g_ptr_array_unref (snap->changes);
  g_free (snap);
}

/* The top-level attribute names an update's diff touches. */
static char **
changed_names (const DdbChange *change)
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
  return (char **) g_ptr_array_free (top, FALSE);
}

/* Worker thread. */
static Snapshot *
snapshot_build (GPtrArray *changes)
{
  Snapshot *snap = g_new0 (Snapshot, 1);

  snap->changes = changes;
  snap->by_key
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) pending_free);
  snap->names
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);
  for (guint i = 0; i < changes->len; i++)
    {
      DdbChange *change = g_ptr_array_index (changes, i);
      char **names = g_hash_table_lookup (snap->names, change->table);
      char *text;
      Pending *p;

      /* every change of a table has the same key attributes */
      if (names == NULL)
        {
          names = key_names (change->key);
          g_hash_table_insert (snap->names, g_strdup (change->table), names);
        }
      text = item_key_text (change->table, change->key, names);
      if (text == NULL)
        continue;
      p = g_new0 (Pending, 1);
      p->change = change;
      if (change->kind == DDB_CHANGE_UPDATE)
        p->changed = changed_names (change);
      g_hash_table_replace (snap->by_key, text, p);
    }
  return snap;
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DyStaging *self = source;
  GError *error = NULL;
  GPtrArray *changes = ddb_staging_list (self->reader != NULL ? self->reader : self->store,
                                         task_data, NULL, FALSE, &error);

  if (changes == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, snapshot_build (changes), (GDestroyNotify) snapshot_free);
}

static void start_load (DyStaging *self, Cached *cached);

static void
free_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  snapshot_free (task_data);
}

/* Freeing 10,000 changes takes a while too: not on the main thread. */
static void
snapshot_free_later (Snapshot *snap)
{
  g_autoptr (GTask) task = NULL;

  if (snap == NULL)
    return;
  task = g_task_new (NULL, NULL, NULL, NULL);
  g_task_set_task_data (task, snap, NULL);
  g_task_run_in_thread (task, free_thread);
}

static void
load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyStaging *self = DY_STAGING (source);
  Cached *cached = g_hash_table_lookup (self->cache, g_task_get_task_data (G_TASK (result)));
  g_autoptr (GError) error = NULL;
  Snapshot *snap = g_task_propagate_pointer (G_TASK (result), &error);

  if (cached == NULL)
    {
      snapshot_free (snap);
      return;
    }
  cached->loading = FALSE;
  g_clear_error (&cached->error);
  if (snap != NULL)
    {
      snapshot_free_later (cached->snapshot);
      cached->snapshot = snap;
    }
  else
    cached->error = g_steal_pointer (&error);
  if (cached->stale)
    start_load (self, cached);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
start_load (DyStaging *self, Cached *cached)
{
  g_autoptr (GTask) task = NULL;

  cached->stale = FALSE;
  if (self->store == NULL)
    return;
  cached->loading = TRUE;
  task = g_task_new (self, NULL, load_done, NULL);
  g_task_set_source_tag (task, start_load);
  g_task_set_task_data (task, g_strdup (cached->id), g_free);
  g_task_run_in_thread (task, load_thread);
}

/* The store changed: the snapshots in use are reloaded ("changed" follows each), or, when none
 * is, "changed" is emitted now. */
void
dy_staging_emit_changed (DyStaging *self)
{
  GHashTableIter iter;
  Cached *cached;

  if (g_hash_table_size (self->cache) == 0)
    {
      g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
      return;
    }
  g_hash_table_iter_init (&iter, self->cache);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &cached))
    if (cached->loading)
      cached->stale = TRUE;
    else
      start_load (self, cached);
}

/* CONNECTION's snapshot, or NULL while the first is loading (then loads it). */
static Cached *
cached_for (DyStaging *self, DyConnection *connection)
{
  const char *id = dy_staging_connection_id (connection);
  Cached *cached;

  if (id == NULL || self->store == NULL)
    return NULL;
  cached = g_hash_table_lookup (self->cache, id);
  if (cached == NULL)
    {
      cached = g_new0 (Cached, 1);
      cached->id = g_strdup (id);
      g_hash_table_insert (self->cache, cached->id, cached);
      start_load (self, cached);
    }
  return cached;
}

static Snapshot *
snapshot_for (DyStaging *self, DyConnection *connection)
{
  Cached *cached = cached_for (self, connection);

  return cached != NULL ? cached->snapshot : NULL;
}

GPtrArray *
dy_staging_peek (DyStaging *self, DyConnection *connection, guint *n_tables, const GError **error)
{
  Cached *cached;

  *n_tables = 0;
  *error = self->open_error;
  if (self->store == NULL)
    return NULL;
  cached = cached_for (self, connection);
  if (cached == NULL)
    {
      *error = g_object_get_data (G_OBJECT (connection), PREPARE_ERROR_KEY);
      return NULL;
    }
  *error = cached->error;
  if (cached->snapshot == NULL)
    return NULL;
  *n_tables = g_hash_table_size (cached->snapshot->names);
  return cached->snapshot->changes;
}

gboolean
dy_staging_get_loading (DyStaging *self, DyConnection *connection)
{
  const char *id = dy_staging_connection_id (connection);
  Cached *cached = id != NULL ? g_hash_table_lookup (self->cache, id) : NULL;

  return cached != NULL && (cached->loading || cached->stale);
}

static Pending *
lookup (DyStaging *self, DyConnection *connection, const char *table, const DdbValue *item)
{
  Snapshot *snap = snapshot_for (self, connection);
  char **names;
  g_autofree char *text = NULL;

  if (snap == NULL || item == NULL)
    return NULL;
  names = g_hash_table_lookup (snap->names, table);
  if (names == NULL)
    return NULL;
  text = item_key_text (table, item, names);
  return text != NULL ? g_hash_table_lookup (snap->by_key, text) : NULL;
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
  DyInspector *inspector; /* the one this is attached to (its data) */
} Attached;

static void
attached_free (Attached *a)
{
  g_ptr_array_remove (a->staging->inspectors, a->inspector);
  g_object_unref (a->staging);
  g_object_unref (a->connection);
  g_free (a->table);
  g_free (a);
}

/* Stages an edit as the inspector words it (an update from what the editor started from). */
static gboolean
stage_edit (DyStaging *self, DyConnection *connection, const char *table, DyInspectorStage kind,
            const DdbValue *key, const DdbValue *original, const DdbValue *target, GError **error)
{
  static const DdbChangeKind kinds[] = {
    [DY_INSPECTOR_STAGE_UPDATE] = DDB_CHANGE_UPDATE,
    [DY_INSPECTOR_STAGE_CREATE] = DDB_CHANGE_CREATE,
    [DY_INSPECTOR_STAGE_DELETE] = DDB_CHANGE_DELETE,
  };
  const DdbChange *pending = NULL;

  /* An edit of an item staged as new changes that create: the store merges an update into it
   * when the update starts from the created item. */
  if (kind == DY_INSPECTOR_STAGE_UPDATE)
    pending = dy_staging_lookup_change (self, connection, table, key);
  if (pending != NULL && pending->kind == DDB_CHANGE_CREATE)
    original = pending->target;
  return dy_staging_stage (self, connection, table, kinds[kind], key, original, target, error);
}

static gboolean
inspector_stage (DyInspector *inspector, int kind, gpointer key, gpointer original, gpointer target,
                 Attached *a)
{
  g_autoptr (GError) error = NULL;

  stage_edit (a->staging, a->connection, a->table, kind, key, original, target, &error);
  dy_inspector_report_staged (inspector, kind, error);
  return TRUE;
}

/* Drafts. */

/* The key drafts are kept under: a new item's is one per table. */
static char *
draft_key (DyConnection *connection, const char *table, const DdbValue *key)
{
  const char *id = dy_staging_connection_id (connection);
  g_autofree char *fallback = id == NULL ? g_strdup_printf ("%p", (void *) connection) : NULL;
  g_auto (GStrv) names = NULL;
  g_autofree char *text = NULL;

  if (key != NULL)
    {
      names = key_names (key);
      text = key_text (key, names);
    }
  return g_strdup_printf ("%s\n%s\n%s", id != NULL ? id : fallback, table,
                          text != NULL ? text : "(new)");
}

static void
inspector_draft (DyInspector *inspector, gpointer key, gpointer draft, Attached *a)
{
  char *dkey = draft_key (a->connection, a->table, key);
  Draft *d;

  if (draft == NULL)
    {
      g_hash_table_remove (a->staging->drafts, dkey);
      g_free (dkey);
      return;
    }
  d = g_new0 (Draft, 1);
  d->connection = g_object_ref (a->connection);
  d->table = g_strdup (a->table);
  d->draft = g_new0 (DyInspectorDraft, 1);
  *d->draft = *(const DyInspectorDraft *) draft;
  d->draft->title = g_strdup (d->draft->title);
  d->draft->text = g_strdup (d->draft->text);
  d->draft->key = d->draft->key != NULL ? ddb_value_copy (d->draft->key) : NULL;
  d->draft->base = ddb_value_copy (d->draft->base);
  d->draft->original = d->draft->original != NULL ? ddb_value_copy (d->draft->original) : NULL;
  d->draft->pk_name = g_strdup (d->draft->pk_name);
  d->draft->sk_name = g_strdup (d->draft->sk_name);
  g_hash_table_replace (a->staging->drafts, dkey, d);
}

const DyInspectorDraft *
dy_staging_get_draft (DyStaging *self, DyConnection *connection, const char *table,
                      const DdbValue *key)
{
  g_autofree char *dkey = draft_key (connection, table, key);
  Draft *d = g_hash_table_lookup (self->drafts, dkey);

  return d != NULL ? d->draft : NULL;
}

void
dy_staging_save_drafts (DyStaging *self)
{
  for (guint i = 0; i < self->inspectors->len; i++)
    dy_inspector_save_draft (g_ptr_array_index (self->inspectors, i));
}

guint
dy_staging_get_n_drafts (DyStaging *self, guint *n_valid)
{
  GHashTableIter iter;
  Draft *d;

  if (n_valid != NULL)
    {
      *n_valid = 0;
      g_hash_table_iter_init (&iter, self->drafts);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &d))
        {
          g_autoptr (DdbValue) item = dy_inspector_draft_parse (d->draft, NULL);

          *n_valid += item != NULL;
        }
    }
  return g_hash_table_size (self->drafts);
}

/* Stages one draft as the inspector would have; FALSE with an error when the store refused. */
static gboolean
stage_draft (DyStaging *self, Draft *d, const DdbValue *item, GError **error)
{
  const DyInspectorDraft *draft = d->draft;
  g_autoptr (DdbValue) key = NULL;

  if (ddb_value_equal (item, draft->base))
    return TRUE;
  if (draft->key != NULL)
    return stage_edit (self, d->connection, d->table, DY_INSPECTOR_STAGE_UPDATE, draft->key,
                       draft->base, item, error);
  key = ddb_value_new_m ();
  ddb_value_map_set (key, draft->pk_name,
                     ddb_value_copy (ddb_value_map_get (item, draft->pk_name)));
  if (draft->sk_name != NULL)
    ddb_value_map_set (key, draft->sk_name,
                       ddb_value_copy (ddb_value_map_get (item, draft->sk_name)));
  return stage_edit (self, d->connection, d->table, DY_INSPECTOR_STAGE_CREATE, key, NULL, item,
                     error);
}

gboolean
dy_staging_stage_drafts (DyStaging *self, guint *n_staged, GError **error)
{
  GHashTableIter iter;
  Draft *d;

  if (n_staged != NULL)
    *n_staged = 0;
  g_hash_table_iter_init (&iter, self->drafts);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &d))
    {
      g_autoptr (DdbValue) item = dy_inspector_draft_parse (d->draft, NULL);

      if (item == NULL)
        continue;
      if (!stage_draft (self, d, item, error))
        return FALSE;
      if (n_staged != NULL)
        (*n_staged)++;
      g_hash_table_iter_remove (&iter);
    }
  return TRUE;
}

void
dy_staging_discard_drafts (DyStaging *self)
{
  g_hash_table_remove_all (self->drafts);
}

/* Another item is shown: what is staged for it, then its draft if one is kept. */
static void
inspector_show_staged (DyInspector *inspector, Attached *a)
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

static void
inspector_item_changed (DyInspector *inspector, Attached *a)
{
  g_autoptr (DdbValue) key = dy_inspector_dup_key (inspector);
  const DyInspectorDraft *draft = NULL;

  inspector_show_staged (inspector, a);
  if (dy_inspector_get_creating (inspector) || key != NULL)
    draft = dy_staging_get_draft (a->staging, a->connection, a->table, key);
  if (draft != NULL)
    dy_inspector_restore_draft (inspector, draft);
}

static gboolean
destroy_window (gpointer data)
{
  gtk_window_destroy (data);
  return G_SOURCE_REMOVE;
}

static void
close_response (AdwMessageDialog *dialog, const char *response, GtkWindow *window)
{
  DyStaging *self = g_object_get_data (G_OBJECT (dialog), "dy-staging");
  g_autoptr (GError) error = NULL;

  if (g_str_equal (response, "stage") && !dy_staging_stage_drafts (self, NULL, &error))
    {
      g_autofree char *body = g_strdup_printf (
          _ ("%s\n\nThe window stays open: the drafts not staged are still in their items."),
          error->message);
      GtkWidget *failed = adw_message_dialog_new (window, _ ("Could Not Stage the Drafts"), body);

      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (failed), "close", _ ("_Close"));
      gtk_window_present (GTK_WINDOW (failed));
      return;
    }
  if (g_str_equal (response, "stage") || g_str_equal (response, "discard"))
    {
      /* the window's inspectors go with it: what they still hold is what was just discarded */
      for (guint i = 0; i < self->inspectors->len; i++)
        {
          GtkWidget *inspector = g_ptr_array_index (self->inspectors, i);

          if (gtk_widget_get_root (inspector) == GTK_ROOT (window))
            g_signal_handlers_disconnect_matched (inspector, G_SIGNAL_MATCH_FUNC, 0, 0, NULL,
                                                  inspector_draft, NULL);
        }
      dy_staging_discard_drafts (self);
      /* not from inside the dialog's response: the dialog, transient for WINDOW, still
       * unhooks itself from it as it closes */
      g_idle_add_full (G_PRIORITY_DEFAULT, destroy_window, g_object_ref (window), g_object_unref);
    }
}

/* The other windows of WINDOW's application that keep the app (and so its drafts) running. */
static gboolean
other_main_windows (GtkWindow *window)
{
  GtkApplication *app = gtk_window_get_application (window);

  for (GList *l = app != NULL ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    if (l->data != window && gtk_window_get_transient_for (l->data) == NULL)
      return TRUE;
  return FALSE;
}

gboolean
dy_staging_confirm_close (DyStaging *self, GtkWindow *window)
{
  guint n, n_valid;
  g_autoptr (GString) body = g_string_new (NULL);
  GtkWidget *dialog;

  dy_staging_save_drafts (self);
  n = dy_staging_get_n_drafts (self, &n_valid);
  if (n == 0 || other_main_windows (window))
    return FALSE;
  g_string_append_printf (
      body,
      g_dngettext (
          NULL, "%u item has edits that are not staged. Drafts live only while the app runs.",
          "%u items have edits that are not staged. Drafts live only while the app runs.", n),
      n);
  if (n_valid < n)
    {
      g_string_append (body, "\n\n");
      g_string_append_printf (
          body,
          g_dngettext (NULL,
                       "%u draft is not a valid item and cannot be staged: cancel to fix it, or it "
                       "is lost.",
                       "%u drafts are not valid items and cannot be staged: cancel to fix them, or "
                       "they are lost.",
                       n - n_valid),
          n - n_valid);
    }
  dialog = adw_message_dialog_new (window, _ ("Stage Your Drafts?"), body->str);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "discard",
                                    _ ("_Discard"), "stage", _ ("_Stage All Valid Drafts"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "stage",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "stage", n_valid > 0);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog),
                                           n_valid > 0 ? "stage" : "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "dy-staging", g_object_ref (self), g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (close_response), window, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

/* Staged, discarded or committed elsewhere (the panel, a fan-out): the inspector follows. */
static void
staging_changed (DyStaging *staging, DyInspector *inspector)
{
  Attached *a = g_object_get_data (G_OBJECT (inspector), "dy-staging-attached");

  if (a != NULL)
    inspector_show_staged (inspector, a);
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
      g_autofree char *described
          = dy_connection_describe_error (DY_CONNECTION (source), error, NULL);
      /* TRANSLATORS: %s is DynamoDB's error and what to do about it */
      g_autofree char *message = g_strdup_printf (
          _ ("The table’s key schema could not be read, so nothing can be staged: %s"), described);

      dy_inspector_set_key_schema_error (inspector, message);
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
  a->inspector = inspector;
  g_ptr_array_add (self->inspectors, inspector);
  g_object_set_data_full (G_OBJECT (inspector), "dy-staging-attached", a,
                          (GDestroyNotify) attached_free);
  g_signal_connect (inspector, "stage", G_CALLBACK (inspector_stage), a);
  g_signal_connect (inspector, "item-changed", G_CALLBACK (inspector_item_changed), a);
  g_signal_connect (inspector, "draft", G_CALLBACK (inspector_draft), a);
  g_signal_connect_object (self, "changed", G_CALLBACK (staging_changed), inspector, 0);
  dy_staging_prepare (self, connection);
  dy_connection_call_async (connection, "DescribeTable", request, NULL, described,
                            g_object_ref (inspector));
  json_decref (request);
}

void
dy_staging_emit_committed (DyStaging *self, DyConnection *connection, const char *table,
                           guint n_committed)
{
  g_signal_emit (self, signals[SIGNAL_COMMITTED], 0, connection, table, n_committed);
}
