/* sql.c: the SQL connection: a private in-memory SQLite database holding only the virtual
 * tables of the backend's tables and indexes, declared when a statement first names them; the
 * authorizer that keeps it read-only; statements streamed row by row, cancellable; the plan in
 * words; and the reads counted per table. */
#include <string.h>

#include "core/error.h"
#include "core/plainjson.h"
#include "sql/sql-private.h"

#define MAX_RETRIES 256

struct _DdbSqlQuery {
  DdbSql *sql;
  sqlite3_stmt *stmt;
  GCancellable *caller;
  gulong caller_handler;
  gboolean done;
  gboolean stepped; /* a row was asked for */
};

G_DEFINE_QUARK (ddb-sql-error-quark, ddb_sql_error)

const char *
ddb_sql_error_name (DdbSql *sql, const GError *error)
{
  return ddb_backend_error_name (error, sql->error_extra);
}

static const char *const allowed_pragmas[] = {
  "table_info", "table_xinfo", "table_list", "function_list", "collation_list",
};

static void
refuse (DdbSql *sql, const char *message)
{
  if (sql->refusal == NULL)
    sql->refusal = g_strdup (message);
}

static int
authorize (void *data, int action, const char *arg1, const char *arg2, const char *db,
           const char *trigger)
{
  DdbSql *sql = data;

  (void) db;
  (void) trigger;
  if (sql->internal)
    return SQLITE_OK;
  switch (action)
    {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
    case SQLITE_TRANSACTION:
    case SQLITE_SAVEPOINT:
      return SQLITE_OK;
    case SQLITE_FUNCTION:
      if (arg2 != NULL && g_ascii_strcasecmp (arg2, "load_extension") == 0)
        {
          refuse (sql, "Loading extensions is refused");
          return SQLITE_DENY;
        }
      return SQLITE_OK;
    case SQLITE_PRAGMA:
      /* These only read (their argument names a table, it sets nothing). */
      for (guint i = 0; i < G_N_ELEMENTS (allowed_pragmas); i++)
        if (arg1 != NULL && g_ascii_strcasecmp (arg1, allowed_pragmas[i]) == 0)
          {
            /* A table the PRAGMA names is declared (and the statement prepared again). */
            if (arg2 != NULL && i < 2 && sql->pragma_table == NULL)
              sql->pragma_table = g_strdup (arg2);
            return SQLITE_OK;
          }
      refuse (sql, "This PRAGMA is refused: only table_info, table_xinfo, table_list, "
                   "function_list and collation_list can be read");
      return SQLITE_DENY;
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
    case SQLITE_DELETE:
      if (arg1 != NULL && g_str_has_prefix (arg1, "sqlite_"))
        /* SQLite's own bookkeeping of the schema (a table-valued PRAGMA asks for it): any
         * change of the schema is refused by its own action, and the defensive mode refuses
         * writing sqlite_schema directly. */
        return SQLITE_OK;
      refuse (sql, "Writes are refused: SQL here only reads (stage changes from a result "
                   "instead)");
      return SQLITE_DENY;
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
      refuse (sql, "ATTACH and DETACH are refused");
      return SQLITE_DENY;
    default:
      break;
    }
  refuse (sql, "Only queries are allowed: schema changes and other statements are refused");
  return SQLITE_DENY;
}

static int
progress (void *data)
{
  return sql_cancelled (data);
}

DdbSql *
ddb_sql_new (DdbBackend *backend, GError **error)
{
  DdbSql *sql = g_new0 (DdbSql, 1);
  int rc;

  sql->backend = backend;
  sql->sample_size = 200;
  sql->remote = ddb_backend_get_kind (backend) == DDB_BACKEND_REMOTE;
  /* Parallel segments hide a remote round trip; on the engine they read and decode on the
   * other processors while SQLite joins (one segment per processor, up to 4). Each segment
   * holds two pages read ahead. */
  sql->segments = sql->remote ? 4 : (guint) CLAMP (g_get_num_processors (), 1, 4);
  sql->tables = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                       (GDestroyNotify) sql_table_free);
  sql->plans = g_ptr_array_new_with_free_func ((GDestroyNotify) sql_plan_free);
  g_mutex_init (&sql->lock);
  rc = sqlite3_open_v2 (":memory:", &sql->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY
                            | SQLITE_OPEN_NOMUTEX,
                        NULL);
  if (rc != SQLITE_OK || !sql_register_functions (sql->db) || !sql_register_module (sql))
    {
      g_set_error (error, DDB_SQL_ERROR, DDB_SQL_ERROR_SQL, "Cannot open SQLite: %s",
                   sql->db != NULL ? sqlite3_errmsg (sql->db) : sqlite3_errstr (rc));
      ddb_sql_free (sql);
      return NULL;
    }
  sqlite3_db_config (sql->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
  sqlite3_db_config (sql->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (sql->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  sqlite3_db_config (sql->db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
  sqlite3_db_config (sql->db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
  sqlite3_limit (sql->db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_set_authorizer (sql->db, authorize, sql);
  sqlite3_progress_handler (sql->db, 1000, progress, sql);
  return sql;
}

void
ddb_sql_free (DdbSql *sql)
{
  if (sql == NULL)
    return;
  g_ptr_array_unref (sql->plans);
  if (sql->db != NULL)
    sqlite3_close_v2 (sql->db);
  g_hash_table_unref (sql->tables);
  g_clear_object (&sql->cancellable);
  g_clear_error (&sql->error);
  json_decref (sql->error_extra);
  g_free (sql->refusal);
  g_free (sql->pragma_table);
  g_mutex_clear (&sql->lock);
  g_free (sql);
}

void
ddb_sql_set_sample_size (DdbSql *sql, guint items)
{
  sql->sample_size = items;
}

void
ddb_sql_set_scan_segments (DdbSql *sql, guint segments)
{
  sql->segments = CLAMP (segments, 1, 64);
}

void
ddb_sql_cancel (DdbSql *sql)
{
  g_mutex_lock (&sql->lock);
  if (sql->cancellable != NULL)
    g_cancellable_cancel (sql->cancellable);
  g_mutex_unlock (&sql->lock);
  sqlite3_interrupt (sql->db);
}

/* A new statement begins: its own cancellable, no error, its reads counted from zero. */
static void
begin_statement (DdbSql *sql)
{
  GHashTableIter iter;
  gpointer value;

  g_mutex_lock (&sql->lock);
  g_clear_object (&sql->cancellable);
  sql->cancellable = g_cancellable_new ();
  g_clear_error (&sql->error);
  g_clear_pointer (&sql->error_extra, json_decref);
  g_hash_table_iter_init (&iter, sql->tables);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    memset (&((SqlTable *) value)->stats, 0, sizeof (DdbSqlStats));
  g_mutex_unlock (&sql->lock);
  g_ptr_array_set_size (sql->plans, 0);
  g_clear_pointer (&sql->refusal, g_free);
}

static GError *
take_error (DdbSql *sql)
{
  GError *error;

  g_mutex_lock (&sql->lock);
  error = g_steal_pointer (&sql->error);
  g_mutex_unlock (&sql->lock);
  return error;
}

/* Declares the table SQLite found missing; FALSE with ERROR when there is none. */
static gboolean
declare_missing_table (DdbSql *sql, const char *name, GError **error)
{
  SqlTable *table;

  if (g_ascii_strncasecmp (name, "main.", 5) == 0)
    name += 5;
  table = sql_schema_lookup (sql, name, sql->cancellable, error);
  return table != NULL && (table->declared || sql_schema_declare (sql, table, error));
}

/* NAME (as a PRAGMA names it) is a table declared in the connection. */
static gboolean
table_declared (DdbSql *sql, const char *name)
{
  GHashTableIter iter;
  gpointer value;

  if (g_ascii_strncasecmp (name, "main.", 5) == 0)
    name += 5;
  g_hash_table_iter_init (&iter, sql->tables);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((SqlTable *) value)->declared
        && g_ascii_strcasecmp (((SqlTable *) value)->sql_name, name) == 0)
      return TRUE;
  return FALSE;
}

/* Adds the column SQLite found missing to every table declared so far; FALSE when it is a
 * column of each already (then the error stands). */
static gboolean
declare_missing_column (DdbSql *sql, const char *name, GError **error)
{
  const char *dot = strchr (name, '.');
  GHashTableIter iter;
  gpointer value;
  gboolean added = FALSE;

  if (dot != NULL && dot[1] != '\0')
    name = dot + 1;
  g_hash_table_iter_init (&iter, sql->tables);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      SqlTable *table = value;

      if (table->declared && sql_table_add_column (table, name, 0))
        {
          if (!sql_schema_declare (sql, table, error))
            return FALSE;
          added = TRUE;
        }
    }
  return added;
}

static gboolean
only_space (const char *tail)
{
  for (; tail != NULL && *tail; tail++)
    if (!g_ascii_isspace (*tail) && *tail != ';')
      return FALSE;
  return TRUE;
}

/* Prepares TEXT (after EXPLAIN QUERY PLAN when EXPLAIN), declaring the tables and columns it
 * names as SQLite asks for them. */
static sqlite3_stmt *
prepare (DdbSql *sql, const char *text, gboolean explain, GError **error)
{
  g_autofree char *full = explain ? g_strconcat ("EXPLAIN QUERY PLAN ", text, NULL)
                                  : g_strdup (text);

  for (int attempt = 0; attempt < MAX_RETRIES; attempt++)
    {
      sqlite3_stmt *stmt = NULL;
      const char *tail = NULL;
      const char *message;
      int rc;

      g_clear_pointer (&sql->refusal, g_free);
      g_clear_pointer (&sql->pragma_table, g_free);
      rc = sqlite3_prepare_v2 (sql->db, full, -1, &stmt, &tail);
      if (rc == SQLITE_OK && stmt == NULL)
        {
          g_set_error_literal (error, DDB_SQL_ERROR, DDB_SQL_ERROR_SQL, "The SQL is empty");
          return NULL;
        }
      if (rc == SQLITE_OK && sql->pragma_table != NULL
          && g_hash_table_lookup (sql->tables, sql->pragma_table) == NULL)
        {
          g_autofree char *name = g_steal_pointer (&sql->pragma_table);

          sqlite3_finalize (stmt);
          if (!declare_missing_table (sql, name, error))
            return NULL;
          continue;
        }
      if (rc == SQLITE_OK)
        {
          if (!only_space (tail))
            {
              sqlite3_finalize (stmt);
              g_set_error_literal (error, DDB_SQL_ERROR, DDB_SQL_ERROR_SQL,
                                   "Only one statement at a time");
              return NULL;
            }
          return stmt;
        }
      if (sql->refusal != NULL)
        {
          g_set_error_literal (error, DDB_SQL_ERROR, DDB_SQL_ERROR_REFUSED, sql->refusal);
          return NULL;
        }
      message = sqlite3_errmsg (sql->db);
      if (g_str_has_prefix (message, "no such table: "))
        {
          g_autofree char *name = g_strdup (message + strlen ("no such table: "));

          if (!declare_missing_table (sql, name, error))
            return NULL;
          continue;
        }
      if (g_str_has_prefix (message, "no such column: "))
        {
          g_autofree char *saved = g_strdup (message);
          GError *local = NULL;

          if (declare_missing_column (sql, saved + strlen ("no such column: "), &local))
            continue;
          if (local != NULL)
            g_propagate_error (error, local);
          else
            g_set_error_literal (error, DDB_SQL_ERROR, DDB_SQL_ERROR_SQL, saved);
          return NULL;
        }
      {
        GError *read_error = take_error (sql);

        if (read_error != NULL)
          g_propagate_error (error, read_error);
        else
          g_set_error_literal (error, DDB_SQL_ERROR, DDB_SQL_ERROR_SQL, message);
      }
      return NULL;
    }
  g_set_error_literal (error, DDB_SQL_ERROR, DDB_SQL_ERROR_SQL,
                       "The statement names too many tables and columns");
  return NULL;
}

static void
cancel_statement (GCancellable *caller, gpointer data)
{
  (void) caller;
  ddb_sql_cancel (data);
}

DdbSqlQuery *
ddb_sql_query_new (DdbSql *sql, const char *text, GCancellable *cancellable, GError **error)
{
  DdbSqlQuery *query = g_new0 (DdbSqlQuery, 1);

  begin_statement (sql);
  query->sql = sql;
  if (cancellable != NULL)
    {
      /* Before preparing: the schema lookups are cancellable too. */
      query->caller = g_object_ref (cancellable);
      query->caller_handler
          = g_cancellable_connect (cancellable, G_CALLBACK (cancel_statement), sql, NULL);
    }
  query->stmt = prepare (sql, text, FALSE, error);
  if (query->stmt == NULL)
    {
      ddb_sql_query_free (query);
      return NULL;
    }
  return query;
}

void
ddb_sql_query_free (DdbSqlQuery *query)
{
  if (query == NULL)
    return;
  if (query->caller != NULL)
    {
      g_cancellable_disconnect (query->caller, query->caller_handler);
      g_object_unref (query->caller);
    }
  sqlite3_finalize (query->stmt);
  g_free (query);
}

guint
ddb_sql_query_n_columns (DdbSqlQuery *query)
{
  return (guint) sqlite3_column_count (query->stmt);
}

const char *
ddb_sql_query_column_name (DdbSqlQuery *query, guint column)
{
  const char *name = sqlite3_column_name (query->stmt, (int) column);

  return name != NULL ? name : "";
}

gboolean
ddb_sql_query_column_origin (DdbSqlQuery *query, guint column, DdbSqlColumnOrigin *origin)
{
  const char *t = sqlite3_column_table_name (query->stmt, (int) column);
  const char *a = sqlite3_column_origin_name (query->stmt, (int) column);
  SqlTable *table;

  if (t == NULL || a == NULL || (table = g_hash_table_lookup (query->sql->tables, t)) == NULL)
    return FALSE;
  if (origin != NULL)
    {
      origin->sql_table = table->sql_name;
      origin->table = table->table;
      origin->attribute = a;
      origin->table_pk = table->table_pk;
      origin->table_sk = table->table_sk;
    }
  return TRUE;
}

gboolean
ddb_sql_query_next (DdbSqlQuery *query, GError **error)
{
  DdbSql *sql = query->sql;
  GError *read_error;
  int rc;

  if (query->done)
    return FALSE;
  if (!query->stepped)
    g_clear_pointer (&sql->pragma_table, g_free);
  rc = sqlite3_step (query->stmt);
  if (!query->stepped && (rc == SQLITE_ROW || rc == SQLITE_DONE) && sql->pragma_table != NULL
      && !table_declared (sql, sql->pragma_table))
    {
      /* A table-valued pragma_table_info('X') reads X's columns as it runs: X is declared,
       * and the statement, which has returned nothing yet, runs again from the start. */
      g_autofree char *name = g_steal_pointer (&sql->pragma_table);

      sqlite3_reset (query->stmt);
      if (!declare_missing_table (sql, name, error))
        {
          query->done = TRUE;
          return FALSE;
        }
      rc = sqlite3_step (query->stmt);
    }
  query->stepped = TRUE;
  if (rc == SQLITE_ROW)
    return TRUE;
  query->done = TRUE;
  if (rc == SQLITE_DONE)
    return FALSE;
  read_error = take_error (sql);
  if (read_error != NULL)
    g_propagate_error (error, read_error);
  else if (rc == SQLITE_INTERRUPT || sql_cancelled (sql))
    g_set_error_literal (error, DDB_SQL_ERROR, DDB_SQL_ERROR_CANCELLED,
                         "The query was cancelled");
  else if (sql->refusal != NULL)
    g_set_error_literal (error, DDB_SQL_ERROR, DDB_SQL_ERROR_REFUSED, sql->refusal);
  else
    g_set_error_literal (error, DDB_SQL_ERROR, DDB_SQL_ERROR_SQL, sqlite3_errmsg (sql->db));
  return FALSE;
}

DdbSqlType
ddb_sql_query_type (DdbSqlQuery *query, guint column)
{
  switch (sqlite3_column_type (query->stmt, (int) column))
    {
    case SQLITE_INTEGER: return DDB_SQL_INTEGER;
    case SQLITE_FLOAT: return DDB_SQL_REAL;
    case SQLITE_TEXT: return DDB_SQL_TEXT;
    case SQLITE_BLOB: return DDB_SQL_BLOB;
    default: return DDB_SQL_NULL;
    }
}

gint64
ddb_sql_query_int (DdbSqlQuery *query, guint column)
{
  return sqlite3_column_int64 (query->stmt, (int) column);
}

double
ddb_sql_query_double (DdbSqlQuery *query, guint column)
{
  return sqlite3_column_double (query->stmt, (int) column);
}

const char *
ddb_sql_query_bytes (DdbSqlQuery *query, guint column, gsize *len)
{
  const char *data;

  if (sqlite3_column_type (query->stmt, (int) column) == SQLITE_BLOB)
    data = sqlite3_column_blob (query->stmt, (int) column);
  else
    data = (const char *) sqlite3_column_text (query->stmt, (int) column);
  *len = (gsize) sqlite3_column_bytes (query->stmt, (int) column);
  return data != NULL ? data : "";
}

/* The one type the origin column of COLUMN held in its table's sample, or -1. */
static int
origin_type (DdbSqlQuery *query, guint column)
{
  DdbSqlColumnOrigin origin;
  SqlTable *t;

  if (!ddb_sql_query_column_origin (query, column, &origin)
      || (t = g_hash_table_lookup (query->sql->tables, origin.sql_table)) == NULL)
    return -1;
  for (guint i = 0; i < t->columns->len; i++)
    {
      SqlColumn *c = g_ptr_array_index (t->columns, i);

      if (strcmp (c->name, origin.attribute) == 0)
        for (int type = 0; type < DDB_N_TYPES; type++)
          if (c->types == (1u << type))
            return type;
    }
  return -1;
}

DdbValue *
ddb_sql_query_value (DdbSqlQuery *query, guint column)
{
  gsize len;
  const char *data;
  int type;
  DdbNumber n;

  switch (ddb_sql_query_type (query, column))
    {
    case DDB_SQL_NULL:
      return ddb_value_new_null ();
    case DDB_SQL_INTEGER:
      if (origin_type (query, column) == DDB_TYPE_BOOL)
        return ddb_value_new_bool (ddb_sql_query_int (query, column) != 0);
      ddb_number_set_int (&n, ddb_sql_query_int (query, column));
      return ddb_value_new_n (&n);
    case DDB_SQL_REAL:
      {
        char buf[64];

        sql_double_text (ddb_sql_query_double (query, column), buf, sizeof buf);
        if (ddb_number_parse (&n, buf, -1, NULL))
          return ddb_value_new_n (&n);
        return ddb_value_new_s (buf, -1); /* inf, nan, or out of DynamoDB's range */
      }
    case DDB_SQL_BLOB:
      data = ddb_sql_query_bytes (query, column, &len);
      return ddb_value_new_b (data, len);
    case DDB_SQL_TEXT:
      data = ddb_sql_query_bytes (query, column, &len);
      type = origin_type (query, column);
      if (type == DDB_TYPE_N && ddb_number_parse (&n, data, (gssize) len, NULL))
        return ddb_value_new_n (&n);
      if (type == DDB_TYPE_M || type == DDB_TYPE_L || ddb_type_is_set ((DdbType) MAX (type, 0)))
        {
          DdbValue *v = ddb_plain_parse_value (data, (gssize) len, DDB_PLAIN_TAGGED, NULL);

          if (v != NULL && v->type == (DdbType) type)
            return v;
          ddb_value_free (v);
        }
      return ddb_value_new_s (data, (gssize) len);
    }
  return ddb_value_new_null ();
}

DdbValue *
ddb_sql_query_row_item (DdbSqlQuery *query)
{
  DdbValue *item = ddb_value_new_m ();

  for (guint i = 0; i < ddb_sql_query_n_columns (query); i++)
    {
      const char *name = ddb_sql_query_column_name (query, i);

      if (ddb_sql_query_type (query, i) == DDB_SQL_NULL
          || ddb_value_map_get (item, name) != NULL)
        continue;
      ddb_value_map_set (item, name, ddb_sql_query_value (query, i));
    }
  return item;
}

static void
add_stats (DdbSqlStats *total, const DdbSqlStats *s)
{
  total->requests += s->requests;
  total->pages += s->pages;
  total->items_read += s->items_read;
  total->rcu += s->rcu;
}

void
ddb_sql_query_stats (DdbSqlQuery *query, DdbSqlStats *total)
{
  GHashTableIter iter;
  gpointer value;

  memset (total, 0, sizeof *total);
  g_mutex_lock (&query->sql->lock);
  g_hash_table_iter_init (&iter, query->sql->tables);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    add_stats (total, &((SqlTable *) value)->stats);
  g_mutex_unlock (&query->sql->lock);
}

static int
compare_stats (gconstpointer a, gconstpointer b)
{
  return strcmp ((*(DdbSqlTableStats *const *) a)->name, (*(DdbSqlTableStats *const *) b)->name);
}

GPtrArray *
ddb_sql_query_table_stats (DdbSqlQuery *query)
{
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_sql_table_stats_free);
  GHashTableIter iter;
  gpointer value;

  g_mutex_lock (&query->sql->lock);
  g_hash_table_iter_init (&iter, query->sql->tables);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      SqlTable *t = value;
      DdbSqlTableStats *s;

      if (t->stats.requests == 0)
        continue;
      s = g_new0 (DdbSqlTableStats, 1);
      s->name = g_strdup (t->sql_name);
      s->stats = t->stats;
      g_ptr_array_add (list, s);
    }
  g_mutex_unlock (&query->sql->lock);
  g_ptr_array_sort (list, compare_stats);
  return list;
}

void
ddb_sql_table_stats_free (DdbSqlTableStats *stats)
{
  if (stats == NULL)
    return;
  g_free (stats->name);
  g_free (stats);
}

/* "SCAN p VIRTUAL TABLE INDEX 3:words" -> the plan's words, naming the alias. */
static void
append_step (DdbSql *sql, GString *out, const char *detail, double *rcu)
{
  const char *marker = strstr (detail, " VIRTUAL TABLE INDEX ");
  char *end = NULL;
  gint64 idx;
  SqlPlan *plan;

  if (marker == NULL || !g_str_has_prefix (detail, "SCAN "))
    {
      g_string_append (out, detail);
      return;
    }
  idx = g_ascii_strtoll (marker + strlen (" VIRTUAL TABLE INDEX "), &end, 10);
  plan = end != NULL && *end == ':' ? sql_plan_get (sql, (int) idx) : NULL;
  if (plan == NULL)
    {
      g_string_append (out, detail);
      return;
    }
  g_string_append (out, end + 1);
  {
    g_autofree char *alias = g_strndup (detail + 5, (gsize) (marker - detail - 5));

    if (strcmp (alias, sql_plan_table (plan)->sql_name) != 0)
      g_string_append_printf (out, " (as %s)", alias);
  }
  *rcu += sql_plan_scan_rcu (plan);
}

char *
ddb_sql_explain (DdbSql *sql, const char *text, double *scan_rcu, GCancellable *cancellable,
                 GError **error)
{
  sqlite3_stmt *stmt;
  GString *out = g_string_new (NULL);
  g_autoptr (GHashTable) depth = g_hash_table_new (g_direct_hash, g_direct_equal);
  double rcu = 0;
  int rc;

  (void) cancellable;
  begin_statement (sql);
  stmt = prepare (sql, text, TRUE, error);
  if (stmt == NULL)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  sql->explaining = TRUE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      int id = sqlite3_column_int (stmt, 0);
      int parent = sqlite3_column_int (stmt, 1);
      const char *detail = (const char *) sqlite3_column_text (stmt, 3);
      guint level = GPOINTER_TO_UINT (g_hash_table_lookup (depth, GINT_TO_POINTER (parent)));

      g_hash_table_insert (depth, GINT_TO_POINTER (id), GUINT_TO_POINTER (level + 1));
      for (guint i = 0; i < level; i++)
        g_string_append (out, "  ");
      append_step (sql, out, detail != NULL ? detail : "", &rcu);
      g_string_append_c (out, '\n');
    }
  sql->explaining = FALSE;
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      g_set_error_literal (error, DDB_SQL_ERROR, DDB_SQL_ERROR_SQL, sqlite3_errmsg (sql->db));
      g_string_free (out, TRUE);
      return NULL;
    }
  if (scan_rcu != NULL)
    *scan_rcu = rcu;
  return g_string_free (out, FALSE);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

GPtrArray *
ddb_sql_list_tables (DdbSql *sql, GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) tables = sql_list_table_names (sql, cancellable, error);
  GPtrArray *names;
  const char *lists[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };

  if (tables == NULL)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  for (guint t = 0; t < tables->len; t++)
    {
      const char *table = g_ptr_array_index (tables, t);
      json_t *d = NULL;
      json_t *request = json_pack ("{s:s}", "TableName", table);
      gboolean described;

      g_ptr_array_add (names, g_strdup (table));
      described = ddb_backend_call (sql->backend, "DescribeTable", request, cancellable, &d,
                                    NULL);
      json_decref (request);
      if (!described)
        continue; /* deleted meanwhile */
      for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
        {
          size_t j;
          json_t *ix;

          json_array_foreach (json_object_get (json_object_get (d, "Table"), lists[l]), j, ix)
            g_ptr_array_add (names,
                             g_strdup_printf ("%s.%s", table,
                                              json_string_value (json_object_get (ix,
                                                                                  "IndexName"))));
        }
      json_decref (d);
    }
  g_ptr_array_sort (names, compare_names);
  return names;
}

GPtrArray *
ddb_sql_list_columns (DdbSql *sql, const char *table, GCancellable *cancellable, GError **error)
{
  SqlTable *t = sql_schema_lookup (sql, table, cancellable, error);
  GPtrArray *names;

  if (t == NULL)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < t->columns->len; i++)
    g_ptr_array_add (names, g_strdup (((SqlColumn *) g_ptr_array_index (t->columns, i))->name));
  return names;
}

gboolean
ddb_sql_add_column (DdbSql *sql, const char *table, const char *attribute,
                    GCancellable *cancellable, GError **error)
{
  SqlTable *t = sql_schema_lookup (sql, table, cancellable, error);

  if (t == NULL)
    return FALSE;
  if (sql_table_add_column (t, attribute, 0) && t->declared)
    return sql_schema_declare (sql, t, error);
  return TRUE;
}
