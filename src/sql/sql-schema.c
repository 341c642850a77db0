/* sql-schema.c: the tables and indexes SQL can name, described (key schema, item count, size)
 * and sampled (which attributes the items hold, of which types) on first use, and their
 * declarations as virtual tables. Schema lookups and samples are not counted as reads. */
#include <string.h>

#include "core/error.h"
#include "core/value.h"
#include "sql/sql-private.h"

void
sql_table_free (SqlTable *table)
{
  if (table == NULL)
    return;
  g_free (table->sql_name);
  g_free (table->table);
  g_free (table->index);
  g_free (table->pk);
  g_free (table->sk);
  g_free (table->table_pk);
  g_free (table->table_sk);
  g_ptr_array_unref (table->columns);
  g_hash_table_unref (table->lower_names);
  g_free (table);
}

static void
column_free (SqlColumn *column)
{
  g_free (column->name);
  g_free (column);
}

gboolean
sql_table_add_column (SqlTable *table, const char *name, guint types)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);
  gpointer found = g_hash_table_lookup (table->lower_names, lower);
  SqlColumn *column;

  if (found != NULL)
    {
      guint i = GPOINTER_TO_UINT (found) - 1;

      /* Only the exact name gathers the types: another case is another attribute, which
       * stays reachable through _item. */
      if (i < table->columns->len)
        {
          column = g_ptr_array_index (table->columns, i);
          if (strcmp (column->name, name) == 0)
            column->types |= types;
        }
      return FALSE;
    }
  column = g_new0 (SqlColumn, 1);
  column->name = g_strdup (name);
  column->types = types;
  g_ptr_array_add (table->columns, column);
  g_hash_table_insert (table->lower_names, g_steal_pointer (&lower),
                       GUINT_TO_POINTER (table->columns->len));
  return TRUE;
}

gboolean
sql_column_is_number (const SqlTable *table, int column)
{
  SqlColumn *c;

  if (column < 0 || (guint) column >= table->columns->len)
    return FALSE;
  c = g_ptr_array_index (table->columns, column);
  return c->types == (1u << DDB_TYPE_N);
}

char *
sql_table_declaration (const SqlTable *table)
{
  GString *out = g_string_new ("CREATE TABLE x(");

  for (guint i = 0; i < table->columns->len; i++)
    {
      SqlColumn *c = g_ptr_array_index (table->columns, i);
      g_autofree char *q = ddb_sql_quote_identifier (c->name);

      /* No declared type: no affinity, so no value is ever converted. */
      g_string_append_printf (out, "%s%s%s", i > 0 ? ", " : "", q,
                              sql_column_is_number (table, (int) i) ? " COLLATE ddb_number" : "");
    }
  g_string_append (out, ", _item HIDDEN, _size HIDDEN)");
  return g_string_free (out, FALSE);
}

static gboolean
call (DdbSql *sql, const char *operation, json_t *request, GCancellable *cancellable,
      json_t **response, GError **error)
{
  gboolean ok = ddb_backend_call (sql->backend, operation, request, cancellable, response, error);

  json_decref (request);
  if (!ok && response != NULL && *response != NULL)
    {
      /* Keep the exception's name (ddb_sql_error_name). */
      g_mutex_lock (&sql->lock);
      json_decref (sql->error_extra);
      sql->error_extra = g_steal_pointer (response);
      g_mutex_unlock (&sql->lock);
    }
  return ok;
}

static DdbType
attribute_type (json_t *definitions, const char *name)
{
  size_t i;
  json_t *d;
  DdbType type = DDB_TYPE_S;

  json_array_foreach (definitions, i, d)
    if (g_strcmp0 (json_string_value (json_object_get (d, "AttributeName")), name) == 0)
      ddb_type_from_name (json_string_value (json_object_get (d, "AttributeType")), &type);
  return type;
}

static void
read_key_schema (json_t *schema, char **pk, char **sk)
{
  size_t i;
  json_t *k;

  json_array_foreach (schema, i, k)
    {
      const char *name = json_string_value (json_object_get (k, "AttributeName"));
      const char *kind = json_string_value (json_object_get (k, "KeyType"));

      if (name == NULL || kind == NULL)
        continue;
      if (strcmp (kind, "HASH") == 0)
        *pk = g_strdup (name);
      else if (strcmp (kind, "RANGE") == 0)
        *sk = g_strdup (name);
    }
}

/* The index named INDEX among DESCRIPTION's GSIs and LSIs (exactly, or when FOLD
 * case-insensitively), or NULL. */
static json_t *
find_index (json_t *description, const char *index, gboolean fold)
{
  const char *lists[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };

  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    {
      size_t i;
      json_t *ix;

      json_array_foreach (json_object_get (description, lists[l]), i, ix)
        {
          const char *name = json_string_value (json_object_get (ix, "IndexName"));

          if (name != NULL
              && (fold ? g_ascii_strcasecmp (name, index) == 0 : strcmp (name, index) == 0))
            return ix;
        }
    }
  return NULL;
}

/* DescribeTable's "Table", or NULL with *MISSING when there is no such table. */
static json_t *
describe (DdbSql *sql, const char *table, GCancellable *cancellable, gboolean *missing,
          GError **error)
{
  json_t *response = NULL;
  json_t *description;
  GError *local = NULL;

  *missing = FALSE;
  if (!call (sql, "DescribeTable", json_pack ("{s:s}", "TableName", table), cancellable,
             &response, &local))
    {
      if (g_error_matches (local, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND))
        *missing = TRUE;
      else if (local->domain == DDB_ERROR
               && (local->code == DDB_ERROR_VALIDATION))
        *missing = TRUE; /* a name DynamoDB cannot have */
      if (*missing)
        g_error_free (local);
      else
        g_propagate_error (error, local);
      json_decref (response);
      return NULL;
    }
  description = json_incref (json_object_get (response, "Table"));
  json_decref (response);
  return description;
}

/* Adds the attributes of up to SAMPLE_SIZE items as columns. */
static gboolean
sample (DdbSql *sql, SqlTable *table, GCancellable *cancellable, GError **error)
{
  json_t *request = json_pack ("{s:s, s:i}", "TableName", table->table, "Limit",
                               (json_int_t) sql->sample_size);
  json_t *response = NULL;
  size_t i;
  json_t *item;

  if (sql->sample_size == 0)
    {
      json_decref (request);
      return TRUE;
    }
  if (table->index != NULL)
    json_object_set_new (request, "IndexName", json_string (table->index));
  if (!call (sql, "Scan", request, cancellable, &response, error))
    return FALSE;
  json_array_foreach (json_object_get (response, "Items"), i, item)
    {
      const char *name;
      json_t *value;

      json_object_foreach (item, name, value)
        {
          DdbType type;
          const char *tname = json_object_iter_key (json_object_iter (value));

          if (tname != NULL && ddb_type_from_name (tname, &type))
            sql_table_add_column (table, name, 1u << type);
        }
    }
  if (json_array_size (json_object_get (response, "Items")) > table->item_count)
    table->item_count = json_array_size (json_object_get (response, "Items"));
  json_decref (response);
  return TRUE;
}

static SqlTable *
table_new (const char *sql_name, const char *name, json_t *description, json_t *index)
{
  SqlTable *t = g_new0 (SqlTable, 1);
  json_t *definitions = json_object_get (description, "AttributeDefinitions");
  char *table_pk = NULL, *table_sk = NULL;

  t->sql_name = g_strdup (sql_name);
  t->table = g_strdup (name);
  t->columns = g_ptr_array_new_with_free_func ((GDestroyNotify) column_free);
  t->lower_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* The hidden columns' names are taken. */
  g_hash_table_insert (t->lower_names, g_strdup ("_item"), GUINT_TO_POINTER (G_MAXUINT));
  g_hash_table_insert (t->lower_names, g_strdup ("_size"), GUINT_TO_POINTER (G_MAXUINT));

  read_key_schema (json_object_get (description, "KeySchema"), &table_pk, &table_sk);
  if (index != NULL)
    {
      t->index = g_strdup (json_string_value (json_object_get (index, "IndexName")));
      read_key_schema (json_object_get (index, "KeySchema"), &t->pk, &t->sk);
      t->item_count = (guint64) json_integer_value (json_object_get (index, "ItemCount"));
      t->size_bytes = (guint64) json_integer_value (json_object_get (index, "IndexSizeBytes"));
    }
  else
    {
      t->pk = g_strdup (table_pk);
      t->sk = g_strdup (table_sk);
      t->item_count = (guint64) json_integer_value (json_object_get (description, "ItemCount"));
      t->size_bytes
          = (guint64) json_integer_value (json_object_get (description, "TableSizeBytes"));
    }
  if (t->pk == NULL)
    t->pk = g_strdup ("");
  t->pk_type = attribute_type (definitions, t->pk);
  sql_table_add_column (t, t->pk, 1u << t->pk_type);
  if (t->sk != NULL)
    {
      t->sk_type = attribute_type (definitions, t->sk);
      sql_table_add_column (t, t->sk, 1u << t->sk_type);
    }
  /* An index always projects the table's key. */
  if (table_pk != NULL)
    sql_table_add_column (t, table_pk, 1u << attribute_type (definitions, table_pk));
  if (table_sk != NULL)
    sql_table_add_column (t, table_sk, 1u << attribute_type (definitions, table_sk));
  t->n_key_columns = t->columns->len;
  t->table_pk = table_pk;
  t->table_sk = table_sk;
  return t;
}

GPtrArray *
sql_list_table_names (DdbSql *sql, GCancellable *cancellable, GError **error)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  json_t *start = NULL;

  do
    {
      json_t *request = json_object ();
      json_t *response = NULL;
      size_t i;
      json_t *name;

      if (start != NULL)
        json_object_set_new (request, "ExclusiveStartTableName", start);
      if (!call (sql, "ListTables", request, cancellable, &response, error))
        {
          g_ptr_array_unref (names);
          return NULL;
        }
      json_array_foreach (json_object_get (response, "TableNames"), i, name)
        g_ptr_array_add (names, g_strdup (json_string_value (name)));
      start = json_incref (json_object_get (response, "LastEvaluatedTableName"));
      json_decref (response);
    }
  while (start != NULL);
  return names;
}

/* TABLE (or, when FOLD, the name NAMES holds that matches it case-insensitively) with INDEX
 * (NULL: the table itself): a new SqlTable, or NULL with *MISSING when it does not exist. */
static SqlTable *
try_name (DdbSql *sql, const char *sql_name, const char *table, const char *index,
          gboolean fold, GPtrArray *names, GCancellable *cancellable, GError **error)
{
  const char *real = table;
  gboolean missing;
  json_t *description;
  json_t *ix = NULL;
  SqlTable *t = NULL;

  if (fold)
    {
      real = NULL;
      for (guint i = 0; i < names->len && real == NULL; i++)
        if (g_ascii_strcasecmp (g_ptr_array_index (names, i), table) == 0)
          real = g_ptr_array_index (names, i);
      if (real == NULL)
        return NULL;
    }
  description = describe (sql, real, cancellable, &missing, error);
  if (description == NULL)
    return NULL;
  if (index != NULL)
    ix = find_index (description, index, fold);
  if (index == NULL || ix != NULL)
    t = table_new (sql_name, real, description, ix);
  json_decref (description);
  return t;
}

/* Finds TABLE[.INDEX] for NAME: exactly (a table name may itself hold dots, so each dot is
 * tried), else case-insensitively, as SQL names are. */
static SqlTable *
resolve (DdbSql *sql, const char *name, GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) names = NULL;

  for (int fold = 0; fold < 2; fold++)
    {
      const char *dot = NULL;

      if (fold && (names = sql_list_table_names (sql, cancellable, error)) == NULL)
        return NULL;
      do
        {
          g_autofree char *table = dot != NULL ? g_strndup (name, (gsize) (dot - name))
                                               : g_strdup (name);
          GError *local = NULL;
          SqlTable *t = try_name (sql, name, table, dot != NULL ? dot + 1 : NULL, fold, names,
                                  cancellable, &local);

          if (t != NULL)
            return t;
          if (local != NULL)
            {
              g_propagate_error (error, local);
              return NULL;
            }
          dot = strchr (dot != NULL ? dot + 1 : name, '.');
        }
      while (dot != NULL);
    }
  g_set_error (error, DDB_SQL_ERROR, DDB_SQL_ERROR_SQL, "no such table: %s", name);
  return NULL;
}

gboolean
sql_schema_declare (DdbSql *sql, SqlTable *table, GError **error)
{
  g_autofree char *quoted = ddb_sql_quote_identifier (table->sql_name);
  g_autofree char *drop = g_strdup_printf ("DROP TABLE IF EXISTS main.%s", quoted);
  g_autofree char *create = g_strdup_printf ("CREATE VIRTUAL TABLE main.%s USING ddb", quoted);
  char *message = NULL;
  int rc;

  sql->internal = TRUE;
  rc = sqlite3_exec (sql->db, drop, NULL, NULL, &message);
  if (rc == SQLITE_OK)
    rc = sqlite3_exec (sql->db, create, NULL, NULL, &message);
  sql->internal = FALSE;
  if (rc != SQLITE_OK)
    {
      g_set_error (error, DDB_SQL_ERROR, DDB_SQL_ERROR_SQL, "%s",
                   message != NULL ? message : sqlite3_errstr (rc));
      sqlite3_free (message);
      return FALSE;
    }
  table->declared = TRUE;
  return TRUE;
}

SqlTable *
sql_schema_lookup (DdbSql *sql, const char *name, GCancellable *cancellable, GError **error)
{
  SqlTable *table = g_hash_table_lookup (sql->tables, name);

  if (table != NULL)
    return table;
  table = resolve (sql, name, cancellable, error);
  if (table == NULL)
    return NULL;
  if (!sample (sql, table, cancellable, error))
    {
      sql_table_free (table);
      return NULL;
    }
  g_hash_table_insert (sql->tables, table->sql_name, table);
  return table;
}
