/* sql-vtab.c: the "ddb" virtual-table module: each declared table reads through its plan
 * (sql-plan.c). Read-only: the module has no xUpdate, and the authorizer refuses writes
 * before SQLite would ask. */
#include <string.h>

#include "sql/sql-private.h"

typedef struct {
  sqlite3_vtab base;
  DdbSql *sql;
  SqlTable *table;
} Vtab;

typedef struct {
  sqlite3_vtab_cursor base;
  SqlScan *scan;
  gboolean eof;
} Cursor;

static int
vtab_connect (sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
              char **err)
{
  DdbSql *sql = aux;
  SqlTable *table;
  Vtab *vtab;
  g_autofree char *declaration = NULL;
  int rc;

  if (argc < 3 || (table = g_hash_table_lookup (sql->tables, argv[2])) == NULL)
    {
      *err = sqlite3_mprintf ("no such table: %s", argc >= 3 ? argv[2] : "?");
      return SQLITE_ERROR;
    }
  declaration = sql_table_declaration (table);
  rc = sqlite3_declare_vtab (db, declaration);
  if (rc != SQLITE_OK)
    {
      *err = sqlite3_mprintf ("%s", sqlite3_errmsg (db));
      return rc;
    }
  vtab = sqlite3_malloc (sizeof *vtab);
  if (vtab == NULL)
    return SQLITE_NOMEM;
  memset (vtab, 0, sizeof *vtab);
  vtab->sql = sql;
  vtab->table = table;
  *out = &vtab->base;
  return SQLITE_OK;
}

static int
vtab_disconnect (sqlite3_vtab *base)
{
  sqlite3_free (base);
  return SQLITE_OK;
}

static int
vtab_best_index (sqlite3_vtab *base, sqlite3_index_info *info)
{
  Vtab *vtab = (Vtab *) base;

  return sql_best_index (vtab->sql, vtab->table, info);
}

static int
vtab_open (sqlite3_vtab *base, sqlite3_vtab_cursor **out)
{
  Cursor *cursor = sqlite3_malloc (sizeof *cursor);

  (void) base;
  if (cursor == NULL)
    return SQLITE_NOMEM;
  memset (cursor, 0, sizeof *cursor);
  cursor->eof = TRUE;
  *out = &cursor->base;
  return SQLITE_OK;
}

static int
vtab_close (sqlite3_vtab_cursor *base)
{
  Cursor *cursor = (Cursor *) base;

  sql_scan_free (cursor->scan);
  sqlite3_free (cursor);
  return SQLITE_OK;
}

/* An error of the statement as SQLite's: its message, kept in SQL for the caller. */
static int
fail (Cursor *cursor)
{
  Vtab *vtab = (Vtab *) cursor->base.pVtab;
  DdbSql *sql = vtab->sql;
  const char *message = "The read failed";
  int rc = SQLITE_ERROR;

  g_mutex_lock (&sql->lock);
  if (sql->error != NULL)
    {
      message = sql->error->message;
      if (g_error_matches (sql->error, DDB_SQL_ERROR, DDB_SQL_ERROR_CANCELLED))
        rc = SQLITE_INTERRUPT;
    }
  sqlite3_free (vtab->base.zErrMsg);
  vtab->base.zErrMsg = sqlite3_mprintf ("%s", message);
  g_mutex_unlock (&sql->lock);
  cursor->eof = TRUE;
  return rc;
}

static gboolean
has_error (DdbSql *sql)
{
  gboolean failed;

  g_mutex_lock (&sql->lock);
  failed = sql->error != NULL;
  g_mutex_unlock (&sql->lock);
  return failed;
}

static int
vtab_next (sqlite3_vtab_cursor *base)
{
  Cursor *cursor = (Cursor *) base;
  DdbSql *sql = ((Vtab *) base->pVtab)->sql;

  cursor->eof = !sql_scan_next (cursor->scan);
  if (cursor->eof && has_error (sql))
    return fail (cursor);
  return SQLITE_OK;
}

static int
vtab_filter (sqlite3_vtab_cursor *base, int idx, const char *idx_str, int argc,
             sqlite3_value **argv)
{
  Cursor *cursor = (Cursor *) base;
  DdbSql *sql = ((Vtab *) base->pVtab)->sql;
  SqlPlan *plan = sql_plan_get (sql, idx);
  GError *error = NULL;

  (void) idx_str;
  sql_scan_free (cursor->scan);
  cursor->scan = NULL;
  if (plan == NULL)
    {
      sql_set_error (sql, g_error_new_literal (DDB_SQL_ERROR, DDB_SQL_ERROR_SQL,
                                               "The plan of this statement is gone"));
      return fail (cursor);
    }
  cursor->scan = sql_scan_start (sql, plan, argc, argv, &error);
  if (cursor->scan == NULL)
    {
      sql_set_error (sql, error);
      return fail (cursor);
    }
  return vtab_next (base);
}

static int
vtab_eof (sqlite3_vtab_cursor *base)
{
  return ((Cursor *) base)->eof;
}

static int
vtab_column (sqlite3_vtab_cursor *base, sqlite3_context *ctx, int column)
{
  sql_scan_column (((Cursor *) base)->scan, ctx, column);
  return SQLITE_OK;
}

static int
vtab_rowid (sqlite3_vtab_cursor *base, sqlite3_int64 *rowid)
{
  *rowid = sql_scan_rowid (((Cursor *) base)->scan);
  return SQLITE_OK;
}

static const sqlite3_module module = {
  .iVersion = 0,
  .xCreate = vtab_connect,
  .xConnect = vtab_connect,
  .xBestIndex = vtab_best_index,
  .xDisconnect = vtab_disconnect,
  .xDestroy = vtab_disconnect,
  .xOpen = vtab_open,
  .xClose = vtab_close,
  .xFilter = vtab_filter,
  .xNext = vtab_next,
  .xEof = vtab_eof,
  .xColumn = vtab_column,
  .xRowid = vtab_rowid,
};

gboolean
sql_register_module (DdbSql *sql)
{
  return sqlite3_create_module (sql->db, "ddb", &module, sql) == SQLITE_OK;
}
