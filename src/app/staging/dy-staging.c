/* dy-staging.c: the app's staging area over one DdbStaging store. */
#define G_LOG_DOMAIN "dynoscope-staging"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "app/staging/dy-staging-private.h"
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
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, dy_staging_draft_free);
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
  /* kept from one commit to the next: it follows the connection's mark as it is now */
  if (backend != NULL)
    dy_connection_apply_mark (connection, backend);
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
char *
dy_staging_key_text (const DdbValue *key, char **names)
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

char **
dy_staging_key_names (const DdbValue *key)
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
  g_autofree char *text = dy_staging_key_text (key, names);

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
          names = dy_staging_key_names (change->key);
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

void
dy_staging_emit_committed (DyStaging *self, DyConnection *connection, const char *table,
                           guint n_committed)
{
  g_signal_emit (self, signals[SIGNAL_COMMITTED], 0, connection, table, n_committed);
}
