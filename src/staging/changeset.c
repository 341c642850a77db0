/* changeset.c: the staging store: schema, staging with merges, listing, reject and discard. */
#include <glib/gstdio.h>

#include "core/ddbjson.h"
#include "staging/diff.h"
#include "staging/staging-private.h"

/* One row per change. An item (connection, table, key) has at most one open change: the
 * partial unique index lets committed history pile up beside it. */
static const char schema_sql[] =
  "CREATE TABLE IF NOT EXISTS changes ("
  "  id INTEGER PRIMARY KEY,"
  "  connection TEXT NOT NULL,"
  "  table_name TEXT NOT NULL,"
  "  item_key TEXT NOT NULL,"
  "  kind INTEGER NOT NULL,"
  "  state INTEGER NOT NULL,"
  "  original TEXT,"
  "  target TEXT,"
  "  current TEXT,"
  "  message TEXT,"
  "  batch TEXT);"
  "CREATE UNIQUE INDEX IF NOT EXISTS changes_open ON changes (connection, table_name, item_key)"
  "  WHERE state <> 2;"
  "CREATE TABLE IF NOT EXISTS journal ("
  "  seq INTEGER PRIMARY KEY,"
  "  change_id INTEGER NOT NULL,"
  "  state INTEGER NOT NULL,"
  "  at INTEGER NOT NULL,"
  "  detail TEXT);"
  "CREATE INDEX IF NOT EXISTS journal_change ON journal (change_id, seq);";

G_STATIC_ASSERT (DDB_CHANGE_COMMITTED == 2);

#define CHANGE_COLUMNS \
  "id, connection, table_name, item_key, kind, state, original, target, current, message, batch"

static const char *const kind_names[] = { "create", "update", "delete" };
static const char *const state_names[] = { "staged", "sending", "committed", "conflict", "failed" };

const char *
ddb_change_kind_name (DdbChangeKind kind)
{
  return (guint) kind < G_N_ELEMENTS (kind_names) ? kind_names[kind] : NULL;
}

const char *
ddb_change_state_name (DdbChangeState state)
{
  return (guint) state < G_N_ELEMENTS (state_names) ? state_names[state] : NULL;
}

void
ddb_change_free (DdbChange *change)
{
  if (change == NULL)
    return;
  g_free (change->connection);
  g_free (change->table);
  g_clear_pointer (&change->key, ddb_value_free);
  g_clear_pointer (&change->original, ddb_value_free);
  g_clear_pointer (&change->target, ddb_value_free);
  g_clear_pointer (&change->current, ddb_value_free);
  g_free (change->message);
  g_free (change->batch);
  g_free (change);
}

GPtrArray *
ddb_change_diff (const DdbChange *change)
{
  g_autoptr (DdbValue) empty = ddb_value_new_m ();

  return ddb_diff_items (change->original != NULL ? change->original : empty,
                         change->target != NULL ? change->target : empty);
}

gboolean
ddb_staging_sql_error (DdbStaging *staging, GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Staging store: %s",
               sqlite3_errmsg (staging->db));
  return FALSE;
}

gboolean
ddb_staging_exec (DdbStaging *staging, const char *sql, GError **error)
{
  if (sqlite3_exec (staging->db, sql, NULL, NULL, NULL) != SQLITE_OK)
    return ddb_staging_sql_error (staging, error);
  return TRUE;
}

void
ddb_staging_bind_text (sqlite3_stmt *stmt, int index, const char *text)
{
  if (text == NULL)
    sqlite3_bind_null (stmt, index);
  else
    sqlite3_bind_text (stmt, index, text, -1, SQLITE_TRANSIENT);
}

void
ddb_staging_bind_item (sqlite3_stmt *stmt, int index, const DdbValue *item)
{
  if (item == NULL)
    {
      sqlite3_bind_null (stmt, index);
      return;
    }
  sqlite3_bind_text (stmt, index, ddb_json_format_item (item), -1, g_free);
}

char *
ddb_staging_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "dynoscope", "staging.db", NULL);
}

DdbStaging *
ddb_staging_open (const char *path, GError **error)
{
  DdbStaging *staging;

  if (g_strcmp0 (path, ":memory:") != 0)
    {
      g_autofree char *dir = g_path_get_dirname (path);

      if (g_mkdir_with_parents (dir, 0700) != 0)
        {
          int saved = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       "Cannot create the folder of the staging store %s: %s", path,
                       g_strerror (saved));
          return NULL;
        }
    }
  staging = g_new0 (DdbStaging, 1);
  g_rec_mutex_init (&staging->lock);
  if (sqlite3_open_v2 (path, &staging->db,
                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL)
      != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Cannot open the staging store %s: %s",
                   path, staging->db != NULL ? sqlite3_errmsg (staging->db) : "out of memory");
      ddb_staging_free (staging);
      return NULL;
    }
  sqlite3_busy_timeout (staging->db, 5000);
  /* WAL with synchronous=FULL: a committed transaction is on disk before COMMIT returns, which
   * the journal's promise (recorded before reported) rests on. */
  if (!ddb_staging_exec (staging, "PRAGMA journal_mode=WAL", error)
      || !ddb_staging_exec (staging, "PRAGMA synchronous=FULL", error)
      || !ddb_staging_exec (staging, schema_sql, error))
    {
      ddb_staging_free (staging);
      return NULL;
    }
  return staging;
}

void
ddb_staging_free (DdbStaging *staging)
{
  if (staging == NULL)
    return;
  if (staging->db != NULL)
    sqlite3_close_v2 (staging->db);
  g_rec_mutex_clear (&staging->lock);
  g_free (staging);
}

static int
compare_attr_names (gconstpointer a, gconstpointer b)
{
  const DdbAttr *x = *(const DdbAttr *const *) a;
  const DdbAttr *y = *(const DdbAttr *const *) b;

  return strcmp (x->name, y->name);
}

/* The key's identity: attributes sorted by name, numbers in canonical form (the DynamoDB JSON
 * writer's), so that one item always gets the same text whichever order it came in. */
static char *
key_text (const DdbValue *key)
{
  g_autoptr (DdbValue) sorted = ddb_value_new_m ();
  g_autoptr (GPtrArray) attrs = g_ptr_array_new ();

  for (guint i = 0; i < ddb_value_map_size (key); i++)
    g_ptr_array_add (attrs, ddb_value_map_nth (key, i));
  g_ptr_array_sort (attrs, compare_attr_names);
  for (guint i = 0; i < attrs->len; i++)
    {
      DdbAttr *attr = g_ptr_array_index (attrs, i);

      ddb_value_map_set (sorted, attr->name, ddb_value_copy (attr->value));
    }
  return ddb_json_format_item (sorted);
}

static DdbValue *
column_item (sqlite3_stmt *stmt, int col)
{
  const char *text = (const char *) sqlite3_column_text (stmt, col);

  /* The store only ever holds what ddb_json_format_item wrote. */
  return text != NULL ? ddb_json_parse_item (text, sqlite3_column_bytes (stmt, col), NULL) : NULL;
}

static DdbChange *
row_to_change (sqlite3_stmt *stmt)
{
  DdbChange *change = g_new0 (DdbChange, 1);

  change->id = sqlite3_column_int64 (stmt, 0);
  change->connection = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
  change->table = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
  change->key = column_item (stmt, 3);
  change->kind = sqlite3_column_int (stmt, 4);
  change->state = sqlite3_column_int (stmt, 5);
  change->original = column_item (stmt, 6);
  change->target = column_item (stmt, 7);
  change->current = column_item (stmt, 8);
  change->message = g_strdup ((const char *) sqlite3_column_text (stmt, 9));
  change->batch = g_strdup ((const char *) sqlite3_column_text (stmt, 10));
  return change;
}

/* Rows of a prepared select of CHANGE_COLUMNS; NULL on error. */
static GPtrArray *
collect (DdbStaging *staging, sqlite3_stmt *stmt, GError **error)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_change_free);
  int rc;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (out, row_to_change (stmt));
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      g_ptr_array_unref (out);
      ddb_staging_sql_error (staging, error);
      return NULL;
    }
  return out;
}

static sqlite3_stmt *
prepare (DdbStaging *staging, const char *sql, GError **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (staging->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      ddb_staging_sql_error (staging, error);
      return NULL;
    }
  return stmt;
}

static gboolean
step_done (DdbStaging *staging, sqlite3_stmt *stmt, GError **error)
{
  int rc = sqlite3_step (stmt);

  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return ddb_staging_sql_error (staging, error);
  return TRUE;
}

static gboolean
find_open (DdbStaging *staging, const char *connection, const char *table, const char *key,
           DdbChange **out, GError **error)
{
  sqlite3_stmt *stmt = prepare (staging,
                                "SELECT " CHANGE_COLUMNS " FROM changes WHERE connection = ?1"
                                " AND table_name = ?2 AND item_key = ?3 AND state <> 2",
                                error);
  GPtrArray *rows;

  *out = NULL;
  if (stmt == NULL)
    return FALSE;
  ddb_staging_bind_text (stmt, 1, connection);
  ddb_staging_bind_text (stmt, 2, table);
  ddb_staging_bind_text (stmt, 3, key);
  rows = collect (staging, stmt, error);
  if (rows == NULL)
    return FALSE;
  if (rows->len > 0)
    *out = g_ptr_array_steal_index (rows, 0);
  g_ptr_array_unref (rows);
  return TRUE;
}

static gboolean
insert_change (DdbStaging *staging, const char *connection, const char *table,
               const DdbValue *key, DdbChangeKind kind, const DdbValue *original,
               const DdbValue *target, gint64 *id, GError **error)
{
  sqlite3_stmt *stmt = prepare (staging,
                                "INSERT INTO changes (connection, table_name, item_key, kind,"
                                " state, original, target) VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6)",
                                error);

  if (stmt == NULL)
    return FALSE;
  ddb_staging_bind_text (stmt, 1, connection);
  ddb_staging_bind_text (stmt, 2, table);
  sqlite3_bind_text (stmt, 3, key_text (key), -1, g_free);
  sqlite3_bind_int (stmt, 4, kind);
  ddb_staging_bind_item (stmt, 5, original);
  ddb_staging_bind_item (stmt, 6, target);
  if (!step_done (staging, stmt, error))
    return FALSE;
  *id = sqlite3_last_insert_rowid (staging->db);
  return ddb_staging_journal_append (staging, *id, DDB_CHANGE_STAGED, ddb_change_kind_name (kind),
                                     error);
}

static gboolean
rewrite_change (DdbStaging *staging, gint64 id, DdbChangeKind kind, const DdbValue *original,
                const DdbValue *target, GError **error)
{
  sqlite3_stmt *stmt = prepare (staging,
                                "UPDATE changes SET kind = ?2, state = 0, original = ?3,"
                                " target = ?4, current = NULL, message = NULL WHERE id = ?1",
                                error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, id);
  sqlite3_bind_int (stmt, 2, kind);
  ddb_staging_bind_item (stmt, 3, original);
  ddb_staging_bind_item (stmt, 4, target);
  if (!step_done (staging, stmt, error))
    return FALSE;
  return ddb_staging_journal_append (staging, id, DDB_CHANGE_STAGED, ddb_change_kind_name (kind),
                                     error);
}

static gboolean
delete_change (DdbStaging *staging, gint64 id, GError **error)
{
  sqlite3_stmt *stmt = prepare (staging, "DELETE FROM journal WHERE change_id = ?1", error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, id);
  if (!step_done (staging, stmt, error))
    return FALSE;
  stmt = prepare (staging, "DELETE FROM changes WHERE id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, id);
  return step_done (staging, stmt, error);
}

/* Applies the diff OLD_ITEM -> NEW_ITEM to TARGET. Where TARGET no longer has the structure a
 * nested path needs, the whole top-level attribute is taken from NEW_ITEM. */
static void
apply_diff (DdbValue *target, const DdbValue *old_item, const DdbValue *new_item)
{
  g_autoptr (GPtrArray) entries = ddb_diff_items (old_item, new_item);

  for (guint i = 0; i < entries->len; i++)
    {
      DdbDiffEntry *e = g_ptr_array_index (entries, i);
      const char *name = e->path.elems[0].name;
      DdbValue *whole;

      if (ddb_path_set (target, &e->path,
                        e->new_value != NULL ? ddb_value_copy (e->new_value) : NULL))
        continue;
      whole = ddb_value_map_get (new_item, name);
      if (whole != NULL)
        ddb_value_map_set (target, name, ddb_value_copy (whole));
      else
        ddb_value_map_remove (target, name);
    }
}

static gboolean
update_is_empty (const DdbValue *original, const DdbValue *target)
{
  g_autoptr (GPtrArray) entries = ddb_diff_items (original, target);

  return entries->len == 0;
}

/* A transaction of the caller's (ddb_staging_batch_begin) takes the place of ours: staging
 * 500 fan-out copies costs one durable commit, not 500. */
static gboolean
begin (DdbStaging *staging, GError **error)
{
  g_rec_mutex_lock (&staging->lock);
  if (staging->batch_depth > 0)
    return TRUE;
  if (!ddb_staging_exec (staging, "BEGIN IMMEDIATE", error))
    {
      g_rec_mutex_unlock (&staging->lock);
      return FALSE;
    }
  return TRUE;
}

/* Commits when OK, else rolls back; returns OK (and the commit's own success). */
static gboolean
finish (DdbStaging *staging, gboolean ok, GError **error)
{
  if (staging->batch_depth == 0)
    {
      if (ok)
        ok = ddb_staging_exec (staging, "COMMIT", error);
      if (!ok)
        sqlite3_exec (staging->db, "ROLLBACK", NULL, NULL, NULL);
    }
  g_rec_mutex_unlock (&staging->lock);
  return ok;
}

gboolean
ddb_staging_batch_begin (DdbStaging *staging, GError **error)
{
  if (!begin (staging, error))
    return FALSE;
  staging->batch_depth++;
  return TRUE;
}

gboolean
ddb_staging_batch_end (DdbStaging *staging, gboolean ok, GError **error)
{
  staging->batch_depth--;
  return finish (staging, ok, error);
}

static gboolean
check_open (const DdbChange *change, GError **error)
{
  if (change->state == DDB_CHANGE_SENDING)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                   "The staged change is being committed; wait until the commit ends");
      return FALSE;
    }
  return TRUE;
}

static gboolean
merge (DdbStaging *staging, DdbChange *existing, DdbChangeKind kind, const DdbValue *a,
       const DdbValue *b, gint64 *id, GError **error)
{
  g_autoptr (DdbValue) target = NULL;

  *id = existing->id;
  if (kind == DDB_CHANGE_UPDATE
      && (existing->kind == DDB_CHANGE_UPDATE || existing->kind == DDB_CHANGE_CREATE))
    {
      target = ddb_value_copy (existing->target);
      apply_diff (target, a, b);
      if (existing->kind == DDB_CHANGE_UPDATE && update_is_empty (existing->original, target))
        {
          *id = 0;
          return delete_change (staging, existing->id, error);
        }
      return rewrite_change (staging, existing->id, existing->kind, existing->original, target,
                             error);
    }
  if (kind == DDB_CHANGE_DELETE && existing->kind == DDB_CHANGE_CREATE)
    {
      *id = 0;
      return delete_change (staging, existing->id, error);
    }
  if (kind == DDB_CHANGE_DELETE && existing->kind == DDB_CHANGE_UPDATE)
    return rewrite_change (staging, existing->id, DDB_CHANGE_DELETE, existing->original, NULL,
                           error);
  if (kind == DDB_CHANGE_CREATE && existing->kind == DDB_CHANGE_DELETE)
    {
      if (update_is_empty (existing->original, a))
        {
          *id = 0;
          return delete_change (staging, existing->id, error);
        }
      return rewrite_change (staging, existing->id, DDB_CHANGE_UPDATE, existing->original, a,
                             error);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
               "The item already has a staged %s; a %s cannot follow it",
               ddb_change_kind_name (existing->kind), ddb_change_kind_name (kind));
  return FALSE;
}

/* A: the created item, the old item of an update, the original of a delete; B: an update's
 * new item. */
static gboolean
stage (DdbStaging *staging, const char *connection, const char *table, const DdbValue *key,
       DdbChangeKind kind, const DdbValue *a, const DdbValue *b, gint64 *id_out, GError **error)
{
  g_autoptr (DdbChange) existing = NULL;
  g_autofree char *text = key_text (key);
  gint64 id = 0;
  gboolean ok;

  g_return_val_if_fail (key != NULL && key->type == DDB_TYPE_M, FALSE);
  g_return_val_if_fail (a != NULL && a->type == DDB_TYPE_M, FALSE);
  if (!begin (staging, error))
    return FALSE;
  ok = find_open (staging, connection, table, text, &existing, error);
  if (ok && existing != NULL)
    ok = check_open (existing, error) && merge (staging, existing, kind, a, b, &id, error);
  else if (ok && kind == DDB_CHANGE_CREATE)
    ok = insert_change (staging, connection, table, key, kind, NULL, a, &id, error);
  else if (ok && kind == DDB_CHANGE_UPDATE)
    ok = update_is_empty (a, b)
         || insert_change (staging, connection, table, key, kind, a, b, &id, error);
  else if (ok)
    ok = insert_change (staging, connection, table, key, kind, a, NULL, &id, error);
  if (!finish (staging, ok, error))
    return FALSE;
  if (id_out != NULL)
    *id_out = id;
  return TRUE;
}

gboolean
ddb_staging_stage_create (DdbStaging *staging, const char *connection, const char *table,
                          const DdbValue *key, const DdbValue *item, gint64 *id, GError **error)
{
  return stage (staging, connection, table, key, DDB_CHANGE_CREATE, item, NULL, id, error);
}

gboolean
ddb_staging_stage_update (DdbStaging *staging, const char *connection, const char *table,
                          const DdbValue *key, const DdbValue *old_item,
                          const DdbValue *new_item, gint64 *id, GError **error)
{
  g_return_val_if_fail (new_item != NULL && new_item->type == DDB_TYPE_M, FALSE);
  return stage (staging, connection, table, key, DDB_CHANGE_UPDATE, old_item, new_item, id,
                error);
}

gboolean
ddb_staging_stage_delete (DdbStaging *staging, const char *connection, const char *table,
                          const DdbValue *key, const DdbValue *original, gint64 *id,
                          GError **error)
{
  return stage (staging, connection, table, key, DDB_CHANGE_DELETE, original, NULL, id, error);
}

static DdbChange *
get_locked (DdbStaging *staging, gint64 id, GError **error)
{
  sqlite3_stmt *stmt = prepare (staging, "SELECT " CHANGE_COLUMNS " FROM changes WHERE id = ?1",
                                error);
  GPtrArray *rows;
  DdbChange *change = NULL;

  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, id);
  rows = collect (staging, stmt, error);
  if (rows == NULL)
    return NULL;
  if (rows->len > 0)
    change = g_ptr_array_steal_index (rows, 0);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "No staged change %" G_GINT64_FORMAT,
                 id);
  g_ptr_array_unref (rows);
  return change;
}

DdbChange *
ddb_staging_get (DdbStaging *staging, gint64 id, GError **error)
{
  DdbChange *change;

  g_rec_mutex_lock (&staging->lock);
  change = get_locked (staging, id, error);
  g_rec_mutex_unlock (&staging->lock);
  return change;
}

GPtrArray *
ddb_staging_list (DdbStaging *staging, const char *connection, const char *table,
                  gboolean include_committed, GError **error)
{
  sqlite3_stmt *stmt;
  GPtrArray *rows = NULL;

  g_rec_mutex_lock (&staging->lock);
  stmt = prepare (staging,
                  "SELECT " CHANGE_COLUMNS " FROM changes WHERE (?1 IS NULL OR connection = ?1)"
                  " AND (?2 IS NULL OR table_name = ?2) AND (?3 OR state <> 2) ORDER BY id",
                  error);
  if (stmt != NULL)
    {
      ddb_staging_bind_text (stmt, 1, connection);
      ddb_staging_bind_text (stmt, 2, table);
      sqlite3_bind_int (stmt, 3, include_committed);
      rows = collect (staging, stmt, error);
    }
  g_rec_mutex_unlock (&staging->lock);
  return rows;
}

static gboolean
reject_locked (DdbStaging *staging, DdbChange *change, const char *path, GError **error)
{
  g_autoptr (GPtrArray) entries = NULL;
  g_autoptr (DdbValue) target = NULL;
  DdbDiffEntry *found = NULL;

  if (!check_open (change, error))
    return FALSE;
  if (change->kind == DDB_CHANGE_DELETE || change->state == DDB_CHANGE_COMMITTED)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Only the paths of a staged create or update can be rejected");
      return FALSE;
    }
  entries = ddb_change_diff (change);
  for (guint i = 0; i < entries->len && found == NULL; i++)
    {
      DdbDiffEntry *e = g_ptr_array_index (entries, i);
      g_autofree char *text = ddb_path_to_string (&e->path);

      if (strcmp (text, path) == 0)
        found = e;
    }
  if (found == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "The staged change has no path %s",
                   path);
      return FALSE;
    }
  if (change->kind == DDB_CHANGE_CREATE && found->path.n == 1
      && ddb_value_map_get (change->key, found->path.elems[0].name) != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s is a key attribute of the created item; discard the change instead", path);
      return FALSE;
    }
  target = ddb_value_copy (change->target);
  if (!ddb_path_set (target, &found->path,
                     found->old_value != NULL ? ddb_value_copy (found->old_value) : NULL))
    g_assert_not_reached (); /* a diff path exists in its new item */
  if (change->kind == DDB_CHANGE_UPDATE && update_is_empty (change->original, target))
    return delete_change (staging, change->id, error);
  return rewrite_change (staging, change->id, change->kind, change->original, target, error);
}

gboolean
ddb_staging_reject_path (DdbStaging *staging, gint64 id, const char *path, GError **error)
{
  g_autoptr (DdbChange) change = NULL;
  gboolean ok;

  if (!begin (staging, error))
    return FALSE;
  change = get_locked (staging, id, error);
  ok = change != NULL && reject_locked (staging, change, path, error);
  return finish (staging, ok, error);
}

gboolean
ddb_staging_discard (DdbStaging *staging, gint64 id, GError **error)
{
  g_autoptr (DdbChange) change = NULL;
  gboolean ok;

  if (!begin (staging, error))
    return FALSE;
  change = get_locked (staging, id, error);
  ok = change != NULL && check_open (change, error);
  if (ok && change->state == DDB_CHANGE_COMMITTED)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "A committed change cannot be discarded");
      ok = FALSE;
    }
  ok = ok && delete_change (staging, id, error);
  return finish (staging, ok, error);
}

gboolean
ddb_staging_discard_all (DdbStaging *staging, const char *connection, const char *table,
                         guint *n_discarded, GError **error)
{
  static const char *const sql[] = {
    "DELETE FROM journal WHERE change_id IN (SELECT id FROM changes WHERE state NOT IN (1, 2)"
    " AND (?1 IS NULL OR connection = ?1) AND (?2 IS NULL OR table_name = ?2))",
    "DELETE FROM changes WHERE state NOT IN (1, 2) AND (?1 IS NULL OR connection = ?1)"
    " AND (?2 IS NULL OR table_name = ?2)",
  };
  gboolean ok = TRUE;

  if (!begin (staging, error))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (sql) && ok; i++)
    {
      sqlite3_stmt *stmt = prepare (staging, sql[i], error);

      ok = stmt != NULL;
      if (!ok)
        break;
      ddb_staging_bind_text (stmt, 1, connection);
      ddb_staging_bind_text (stmt, 2, table);
      ok = step_done (staging, stmt, error);
    }
  if (ok && n_discarded != NULL)
    *n_discarded = sqlite3_changes (staging->db);
  return finish (staging, ok, error);
}

/* A conflicted change is rebased on the item as found, so that sending it again applies the
 * user's diff to what is there now instead of conflicting forever. */
static gboolean
requeue_locked (DdbStaging *staging, DdbChange *change, GError **error)
{
  g_autoptr (DdbValue) target = NULL;

  if (change->state != DDB_CHANGE_CONFLICT && change->state != DDB_CHANGE_FAILED)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Only a conflicted or failed change can be sent again");
      return FALSE;
    }
  if (change->state == DDB_CHANGE_FAILED)
    return rewrite_change (staging, change->id, change->kind, change->original, change->target,
                           error);
  switch (change->kind)
    {
    case DDB_CHANGE_UPDATE:
      if (change->current == NULL)
        return rewrite_change (staging, change->id, DDB_CHANGE_CREATE, NULL, change->target,
                               error);
      target = ddb_value_copy (change->current);
      apply_diff (target, change->original, change->target);
      return rewrite_change (staging, change->id, DDB_CHANGE_UPDATE, change->current, target,
                             error);
    case DDB_CHANGE_CREATE:
      if (change->current == NULL)
        break;
      return rewrite_change (staging, change->id, DDB_CHANGE_UPDATE, change->current,
                             change->target, error);
    case DDB_CHANGE_DELETE:
      if (change->current == NULL)
        return delete_change (staging, change->id, error);
      return rewrite_change (staging, change->id, DDB_CHANGE_DELETE, change->current, NULL,
                             error);
    }
  return rewrite_change (staging, change->id, change->kind, change->original, change->target,
                         error);
}

gboolean
ddb_staging_requeue (DdbStaging *staging, gint64 id, GError **error)
{
  g_autoptr (DdbChange) change = NULL;
  gboolean ok;

  if (!begin (staging, error))
    return FALSE;
  change = get_locked (staging, id, error);
  ok = change != NULL && requeue_locked (staging, change, error);
  return finish (staging, ok, error);
}

GStrv
ddb_staging_journal (DdbStaging *staging, gint64 id, GError **error)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  sqlite3_stmt *stmt;
  int rc;

  g_rec_mutex_lock (&staging->lock);
  stmt = prepare (staging, "SELECT state FROM journal WHERE change_id = ?1 ORDER BY seq", error);
  if (stmt == NULL)
    {
      g_rec_mutex_unlock (&staging->lock);
      return NULL;
    }
  sqlite3_bind_int64 (stmt, 1, id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_strv_builder_add (builder, ddb_change_state_name (sqlite3_column_int (stmt, 0)));
  sqlite3_finalize (stmt);
  g_rec_mutex_unlock (&staging->lock);
  if (rc != SQLITE_DONE)
    {
      ddb_staging_sql_error (staging, error);
      return NULL;
    }
  return g_strv_builder_end (builder);
}
