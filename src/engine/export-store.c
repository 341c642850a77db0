/* export-store.c: the export jobs in the database (see export-store.h). */
#include "engine/export-store.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "engine/store-private.h"

static const char export_schema_sql[]
    = "CREATE TABLE IF NOT EXISTS dy_exports ("
      " seq INTEGER PRIMARY KEY AUTOINCREMENT, arn TEXT UNIQUE NOT NULL,"
      " table_arn TEXT NOT NULL, token TEXT, params TEXT NOT NULL, created INTEGER NOT NULL,"
      " pid INTEGER NOT NULL, status TEXT NOT NULL, description TEXT NOT NULL);"
      "CREATE INDEX IF NOT EXISTS dy_exports_by_token ON dy_exports (token, created);";

gboolean
ddb_export_store_init (DdbStore *store, GError **error)
{
  char *msg = NULL;

  if (sqlite3_exec (store->db, export_schema_sql, NULL, NULL, &msg) != SQLITE_OK)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL, "Cannot create the exports' table: %s",
                   msg != NULL ? msg : "?");
      sqlite3_free (msg);
      return FALSE;
    }
  return TRUE;
}

static json_t *
column_json (sqlite3_stmt *stmt, int col)
{
  const char *text = (const char *) sqlite3_column_text (stmt, col);

  return text != NULL ? json_loads (text, 0, NULL) : NULL;
}

static char *
dump (json_t *j)
{
  return json_dumps (j, JSON_COMPACT | JSON_PRESERVE_ORDER);
}

static const char *
status_of (json_t *description)
{
  const char *s = json_string_value (json_object_get (description, "ExportStatus"));

  return s != NULL ? s : "IN_PROGRESS";
}

gboolean
ddb_export_store_recover (DdbStore *store, GError **error)
{
  g_autoptr (GPtrArray) dead = g_ptr_array_new_with_free_func ((GDestroyNotify) json_decref);
  sqlite3_stmt *stmt;
  gboolean own, ok = TRUE;
  int rc;

  if (!store_auto_begin (store, &own, error))
    return FALSE;
  stmt = store_stmt_acquire (store,
                             "SELECT pid, description FROM dy_exports"
                             " WHERE status = 'IN_PROGRESS'",
                             error);
  if (stmt == NULL)
    return store_auto_end (store, own, FALSE, error);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 pid = sqlite3_column_int64 (stmt, 0);
      json_t *d;

      if (pid > 0 && pid != getpid () && (kill ((pid_t) pid, 0) == 0 || errno != ESRCH))
        continue;
      d = column_json (stmt, 1);
      if (d != NULL)
        g_ptr_array_add (dead, d);
    }
  store_stmt_release (store, stmt);
  if (rc != SQLITE_DONE)
    ok = store_sql_error (store, error, "read");
  for (guint i = 0; ok && i < dead->len; i++)
    {
      json_t *d = dead->pdata[i];

      json_object_set_new (d, "ExportStatus", json_string ("FAILED"));
      json_object_set_new (d, "FailureCode", json_string ("UNKNOWN"));
      json_object_set_new (d, "FailureMessage",
                           json_string ("The export was interrupted: the endpoint stopped before "
                                        "it completed"));
      json_object_set_new (d, "EndTime", json_real (g_get_real_time () / 1000 / 1000.0));
      ok = ddb_export_store_set (store, d, error);
    }
  return store_auto_end (store, own, ok, error);
}

gboolean
ddb_export_store_add (DdbStore *store, json_t *description, const char *params,
                      gint64 created_us, GError **error)
{
  g_autofree char *text = dump (description);
  sqlite3_stmt *stmt;
  gboolean own, ok;

  if (!store_auto_begin (store, &own, error))
    return FALSE;
  stmt = store_stmt_acquire (store,
                             "INSERT INTO dy_exports (arn, table_arn, token, params, created, pid,"
                             " status, description) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                             error);
  ok = stmt != NULL;
  if (ok)
    {
      sqlite3_bind_text (stmt, 1, json_string_value (json_object_get (description, "ExportArn")),
                         -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (stmt, 2, json_string_value (json_object_get (description, "TableArn")),
                         -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (stmt, 3,
                         json_string_value (json_object_get (description, "ClientToken")), -1,
                         SQLITE_TRANSIENT);
      sqlite3_bind_text (stmt, 4, params, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (stmt, 5, created_us);
      sqlite3_bind_int64 (stmt, 6, getpid ());
      sqlite3_bind_text (stmt, 7, status_of (description), -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 8, text, -1, SQLITE_STATIC);
      ok = store_stmt_run (store, stmt, error);
    }
  return store_auto_end (store, own, ok, error);
}

gboolean
ddb_export_store_set (DdbStore *store, json_t *description, GError **error)
{
  g_autofree char *text = dump (description);
  sqlite3_stmt *stmt;
  gboolean own, ok;

  if (!store_auto_begin (store, &own, error))
    return FALSE;
  stmt = store_stmt_acquire (store,
                             "UPDATE dy_exports SET status = ?2, description = ?3 WHERE arn = ?1",
                             error);
  ok = stmt != NULL;
  if (ok)
    {
      sqlite3_bind_text (stmt, 1, json_string_value (json_object_get (description, "ExportArn")),
                         -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (stmt, 2, status_of (description), -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 3, text, -1, SQLITE_STATIC);
      ok = store_stmt_run (store, stmt, error);
    }
  return store_auto_end (store, own, ok, error);
}

gboolean
ddb_export_store_get (DdbStore *store, const char *arn, json_t **description, GError **error)
{
  sqlite3_stmt *stmt
      = store_stmt_acquire (store, "SELECT description FROM dy_exports WHERE arn = ?1", error);
  int rc;

  *description = NULL;
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, arn, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    *description = column_json (stmt, 0);
  store_stmt_release (store, stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return store_sql_error (store, error, "read");
  return TRUE;
}

gboolean
ddb_export_store_by_token (DdbStore *store, const char *token, gint64 since_us,
                           json_t **description, char **params, GError **error)
{
  sqlite3_stmt *stmt = store_stmt_acquire (store,
                                           "SELECT description, params FROM dy_exports"
                                           " WHERE token = ?1 AND created >= ?2"
                                           " ORDER BY created DESC LIMIT 1",
                                           error);
  int rc;

  *description = NULL;
  *params = NULL;
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, token, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, since_us);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      *description = column_json (stmt, 0);
      *params = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
    }
  store_stmt_release (store, stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return store_sql_error (store, error, "read");
  return TRUE;
}

json_t *
ddb_export_store_list (DdbStore *store, const char *table_arn, const char *after_arn,
                       guint limit, gboolean *more, GError **error)
{
  sqlite3_stmt *stmt = store_stmt_acquire (
      store,
      "SELECT description FROM dy_exports WHERE (?1 IS NULL OR table_arn = ?1)"
      " AND seq > coalesce((SELECT seq FROM dy_exports WHERE arn = ?2), 0)"
      " ORDER BY seq LIMIT ?3",
      error);
  json_t *out;
  int rc;

  *more = FALSE;
  if (stmt == NULL)
    return NULL;
  if (table_arn != NULL)
    sqlite3_bind_text (stmt, 1, table_arn, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null (stmt, 1);
  if (after_arn != NULL)
    sqlite3_bind_text (stmt, 2, after_arn, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null (stmt, 2);
  sqlite3_bind_int64 (stmt, 3, (gint64) limit + 1);
  out = json_array ();
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      json_t *d;

      if (json_array_size (out) == limit)
        {
          *more = TRUE;
          continue;
        }
      d = column_json (stmt, 0);
      if (d != NULL)
        json_array_append_new (out, d);
    }
  store_stmt_release (store, stmt);
  if (rc != SQLITE_DONE)
    {
      json_decref (out);
      store_sql_error (store, error, "read");
      return NULL;
    }
  return out;
}
