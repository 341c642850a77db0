/* sql-scan.c: reading a plan for SQLite (xFilter, xNext): the Query of each partition key
 * value, or the Scan, with the sort key's condition (a key condition or a filter), only the
 * columns used, the comparisons on columns of numbers applied to each row, and the JOIN's
 * lookups built from one Scan. */
#include <string.h>

#include "core/ddbjson.h"
#include "core/keycodec.h"
#include "sql/sql-plan.h"

struct _SqlScan {
  DdbSql *sql;
  SqlPlan *plan;
  SqlTable *table;
  gint64 limit;

  /* Query / Scan */
  json_t *base;          /* the request without the partition key's value */
  GPtrArray *pk_values;  /* json_t*: the values still to Query */
  guint next_pk;
  SqlReader *reader;
  SqlLookup *page; /* the row read, in the reader's page, or NULL */
  guint page_row;

  /* Comparisons on columns of numbers, applied to each row. */
  GArray *filters; /* NumberFilter */

  /* Rows held in memory: the JOIN's lookup (its plan's), or the rows sorted here (ours). */
  gboolean from_lookup;
  SqlLookup *store;
  SqlLookup *sorted;
  guint *sorted_rows;
  const guint *rows;
  guint n_rows;
  guint at;
};

typedef struct {
  int column;
  int op;
  SqlNumberKey key;
  sqlite3_value *value; /* owns what KEY points at */
} NumberFilter;

static void
number_filter_clear (gpointer data)
{
  sqlite3_value_free (((NumberFilter *) data)->value);
}

/* The current row: where it is held; FALSE when there is none. */
static gboolean
current_row (SqlScan *scan, SqlLookup **store, guint *row)
{
  if (scan->from_lookup)
    {
      if (scan->at == 0 || scan->at > scan->n_rows)
        return FALSE;
      *store = scan->store;
      *row = scan->rows[scan->at - 1];
      return TRUE;
    }
  *store = scan->page;
  *row = scan->page_row;
  return scan->page != NULL;
}

/* The columns the rows read must hold: those the statement uses, the key (the rowid), and those
 * the table compares, sorts or looks up by itself. */
static guint64
row_columns (SqlScan *scan)
{
  SqlPlan *plan = scan->plan;
  guint64 columns = plan->columns_used;

  for (guint i = 0; i < scan->table->n_key_columns; i++)
    columns |= (guint64) 1 << MIN (i, 63);
  for (guint t = 0; t < plan->n_sort; t++)
    columns |= (guint64) 1 << MIN (plan->sort[t].column, 63);
  for (guint i = 0; scan->filters != NULL && i < scan->filters->len; i++)
    columns |= (guint64) 1 << MIN (g_array_index (scan->filters, NumberFilter, i).column, 63);
  if (plan->lookup_column >= 0)
    columns |= (guint64) 1 << MIN (plan->lookup_column, 63);
  return columns;
}

/* Whether the current row passes the comparisons on columns of numbers. */
static gboolean
passes (SqlScan *scan)
{
  SqlLookup *store;
  guint row;

  if (!current_row (scan, &store, &row))
    return FALSE;
  for (guint i = 0; scan->filters != NULL && i < scan->filters->len; i++)
    {
      NumberFilter *f = &g_array_index (scan->filters, NumberFilter, i);
      SqlCell cell;
      SqlNumberKey key;
      gboolean comparable;
      int c;

      sql_lookup_cell (store, row, f->column, &cell); /* borrowed bytes */
      comparable = sql_number_key_from_cell (&cell, &key);
      c = comparable ? sql_number_key_compare (&key, &f->key) : 0;
      if (!comparable) /* NULL: no comparison holds */
        return FALSE;
      switch (f->op)
        {
        case SQLITE_INDEX_CONSTRAINT_EQ: if (c != 0) return FALSE; break;
        case SQLITE_INDEX_CONSTRAINT_NE: if (c == 0) return FALSE; break;
        case SQLITE_INDEX_CONSTRAINT_LT: if (c >= 0) return FALSE; break;
        case SQLITE_INDEX_CONSTRAINT_LE: if (c > 0) return FALSE; break;
        case SQLITE_INDEX_CONSTRAINT_GT: if (c <= 0) return FALSE; break;
        case SQLITE_INDEX_CONSTRAINT_GE: if (c < 0) return FALSE; break;
        default: break;
        }
    }
  return TRUE;
}

/* The comparisons on columns of numbers of ARGV; FALSE when one compares with NULL (nothing
 * passes). */
static gboolean
number_filters (SqlScan *scan, sqlite3_value **argv)
{
  gboolean lo = FALSE, hi = FALSE;

  for (int i = 0; i < scan->plan->n_args; i++)
    {
      lo = lo || scan->plan->args[i].role == ARG_SK_LO;
      hi = hi || scan->plan->args[i].role == ARG_SK_HI;
    }
  for (int i = 0; i < scan->plan->n_args; i++)
    {
      NumberFilter f = { 0 };
      const PlanArg *arg = &scan->plan->args[i];

      /* A number key read BETWEEN both bounds is checked here for a strict one. */
      gboolean strict_bound = lo && hi && scan->table->sk_type == DDB_TYPE_N
                              && ((arg->role == ARG_SK_LO && arg->op == SQLITE_INDEX_CONSTRAINT_GT)
                                  || (arg->role == ARG_SK_HI
                                      && arg->op == SQLITE_INDEX_CONSTRAINT_LT));

      if (arg->role != ARG_NUMBER && !strict_bound)
        continue;
      if (scan->filters == NULL)
        {
          scan->filters = g_array_new (FALSE, TRUE, sizeof (NumberFilter));
          g_array_set_clear_func (scan->filters, number_filter_clear);
        }
      f.column = scan->plan->args[i].column;
      f.op = scan->plan->args[i].op;
      f.value = sqlite3_value_dup (argv[i]);
      if (f.value == NULL || !sql_number_key_from_value (f.value, &f.key))
        {
          sqlite3_value_free (f.value);
          return FALSE;
        }
      g_array_append_val (scan->filters, f);
    }
  return TRUE;
}

/* The sort key condition of ARGV (for a Query's key condition or a Scan's filter) into
 * *EXPR, with its values in VALUES; FALSE when nothing can match. */
static gboolean
sort_key_condition (SqlScan *scan, sqlite3_value **argv, GString *expr, json_t *values)
{
  SqlPlan *plan = scan->plan;
  SqlTable *t = scan->table;
  json_t *lo = NULL, *hi = NULL;

  for (int i = 0; i < plan->n_args; i++)
    {
      sqlite3_value *v = argv[i];
      json_t *key;

      switch (plan->args[i].role)
        {
        case ARG_SK_EQ:
          key = sql_value_to_key (v, t->sk_type);
          if (key == NULL)
            return FALSE; /* no key of another class is equal to it */
          json_decref (lo);
          json_decref (hi);
          lo = hi = NULL;
          g_string_assign (expr, "#s = :s");
          json_object_set_new (values, ":s", key);
          return TRUE;
        case ARG_SK_LO:
          json_decref (lo);
          lo = sql_value_to_key (v, t->sk_type);
          /* Numbers rank below any other value: above one, or NULL, none is. */
          if (lo == NULL && t->sk_type == DDB_TYPE_N)
            {
              json_decref (hi);
              return FALSE;
            }
          break;
        case ARG_SK_HI:
          json_decref (hi);
          hi = sql_value_to_key (v, t->sk_type);
          /* …and every number is below another value: no bound then (but NULL: none). */
          if (hi == NULL && t->sk_type == DDB_TYPE_N && sqlite3_value_type (v) == SQLITE_NULL)
            {
              json_decref (lo);
              return FALSE;
            }
          break;
        case ARG_SK_LIKE:
        case ARG_SK_GLOB:
          {
            gboolean only;
            g_autofree char *prefix = NULL;

            if (sqlite3_value_type (v) != SQLITE_TEXT)
              break;
            prefix = sql_pattern_prefix ((const char *) sqlite3_value_text (v),
                                     plan->args[i].role == ARG_SK_GLOB, &only);
            if (*prefix == '\0')
              break;
            if (plan->args[i].role == ARG_SK_GLOB || !sql_has_ascii_letter (prefix))
              {
                g_string_assign (expr, "begins_with(#s, :s)");
                json_object_set_new (values, ":s", json_pack ("{s:s}", "S", prefix));
              }
            else
              {
                /* Every case of the prefix lies between its upper case and its lower case
                 * followed by the greatest character, up to a key's length. */
                g_autofree char *upper = g_ascii_strup (prefix, -1);
                GString *top = g_string_new (NULL);
                g_autofree char *lower = g_ascii_strdown (prefix, -1);

                g_string_append (top, lower);
                while (top->len + 4 <= SQL_MAX_KEY_BYTES)
                  g_string_append (top, "\xF4\x8F\xBF\xBF");
                g_string_assign (expr, "#s BETWEEN :lo AND :hi");
                json_object_set_new (values, ":lo", json_pack ("{s:s}", "S", upper));
                json_object_set_new (values, ":hi", json_pack ("{s:s%}", "S", top->str,
                                                               top->len));
                g_string_free (top, TRUE);
              }
          }
          break;
        default:
          break;
        }
    }
  if (lo != NULL && hi != NULL)
    {
      g_autoptr (DdbValue) a = ddb_json_to_value (lo, NULL);
      g_autoptr (DdbValue) b = ddb_json_to_value (hi, NULL);
      g_autoptr (GByteArray) ka = g_byte_array_new ();
      g_autoptr (GByteArray) kb = g_byte_array_new ();

      if (a != NULL && b != NULL && ddb_key_encode (a, ka, NULL) && ddb_key_encode (b, kb, NULL))
        {
          int cmp = memcmp (ka->data, kb->data, MIN (ka->len, kb->len));

          if (cmp > 0 || (cmp == 0 && ka->len > kb->len))
            {
              json_decref (lo);
              json_decref (hi);
              return FALSE; /* an empty range */
            }
        }
      g_string_assign (expr, "#s BETWEEN :lo AND :hi");
      json_object_set_new (values, ":lo", lo);
      json_object_set_new (values, ":hi", hi);
    }
  else if (lo != NULL || hi != NULL)
    {
      gboolean is_lo = lo != NULL;
      int op = 0;

      for (int i = 0; i < plan->n_args; i++)
        if (plan->args[i].role == (is_lo ? ARG_SK_LO : ARG_SK_HI))
          op = plan->args[i].op;
      g_string_printf (expr, "#s %s :s", sql_op_text (op));
      json_object_set_new (values, ":s", is_lo ? lo : hi);
    }
  return TRUE;
}

/* The argument of ROLE, or NULL. */
static sqlite3_value *
arg_value (SqlScan *scan, sqlite3_value **argv, ArgRole role)
{
  for (int i = 0; i < scan->plan->n_args; i++)
    if (scan->plan->args[i].role == role)
      return argv[i];
  return NULL;
}

/* Reads only the attributes the statement uses (and the key), unless it uses _item or _size,
 * which need the whole item: less to send, decode and hold (the engine builds only those). */
static void
add_projection (SqlScan *scan, json_t *request, json_t *names)
{
  SqlTable *t = scan->table;
  guint64 used = scan->plan->columns_used;
  GString *projection;

  if ((used >> 63) != 0 || (used >> MIN (SQL_COL_ITEM (t), 63)) & 1
      || (used >> MIN (SQL_COL_SIZE (t), 63)) & 1)
    return;
  projection = g_string_new (NULL);
  for (guint c = 0; c < t->columns->len && c < 63; c++)
    if (c < t->n_key_columns || (used >> c) & 1)
      {
        char name[16];

        g_snprintf (name, sizeof name, "#c%u", c);
        g_string_append_printf (projection, "%s%s", projection->len > 0 ? ", " : "", name);
        json_object_set_new (names, name,
                             json_string (((SqlColumn *) g_ptr_array_index (t->columns, c))->name));
      }
  json_object_set_new (request, "ProjectionExpression", json_string (projection->str));
  g_string_free (projection, TRUE);
}

/* The request of a Query (without the partition key's value) or of a Scan, with the sort
 * key's condition; NULL when nothing can match. */
static json_t *
base_request (SqlScan *scan, sqlite3_value **argv, gboolean query)
{
  SqlTable *t = scan->table;
  GString *cond = g_string_new (NULL);
  json_t *values = json_object ();
  json_t *names = json_object ();
  json_t *request = json_pack ("{s:s}", "TableName", t->table);

  if (t->index != NULL)
    json_object_set_new (request, "IndexName", json_string (t->index));
  if (!sort_key_condition (scan, argv, cond, values))
    {
      g_string_free (cond, TRUE);
      json_decref (values);
      json_decref (names);
      json_decref (request);
      return NULL;
    }
  if (cond->len > 0)
    json_object_set_new (names, "#s", json_string (t->sk));
  if (query)
    {
      json_object_set_new (names, "#p", json_string (t->pk));
      g_string_prepend (cond, cond->len > 0 ? "#p = :p AND " : "#p = :p");
      json_object_set_new (request, "KeyConditionExpression", json_string (cond->str));
      if (scan->plan->descending)
        json_object_set_new (request, "ScanIndexForward", json_false ());
    }
  else if (cond->len > 0)
    json_object_set_new (request, "FilterExpression", json_string (cond->str));
  add_projection (scan, request, names);
  if (json_object_size (names) > 0)
    json_object_set_new (request, "ExpressionAttributeNames", names);
  else
    json_decref (names);
  if (json_object_size (values) > 0)
    json_object_set_new (request, "ExpressionAttributeValues", values);
  else
    json_decref (values);
  g_string_free (cond, TRUE);
  return request;
}

/* The requests' Limit: the LIMIT, unless rows are still compared here after reading. */
static gint64
reader_limit (SqlScan *scan)
{
  return scan->filters != NULL || scan->plan->n_sort > 0 ? -1 : scan->limit;
}

/* Starts the Query of the next partition key value; FALSE when none is left. */
static gboolean
next_partition (SqlScan *scan)
{
  json_t *request;
  json_t *values;

  sql_reader_free (scan->reader);
  scan->reader = NULL;
  if (scan->pk_values == NULL || scan->next_pk >= scan->pk_values->len)
    return FALSE;
  request = json_deep_copy (scan->base);
  values = json_object_get (request, "ExpressionAttributeValues");
  if (values == NULL)
    {
      values = json_object ();
      json_object_set_new (request, "ExpressionAttributeValues", values);
    }
  json_object_set (values, ":p", g_ptr_array_index (scan->pk_values, scan->next_pk++));
  scan->reader = sql_reader_new (scan->sql, scan->table, "Query", request, 1, reader_limit (scan),
                                 row_columns (scan));
  return TRUE;
}

/* The partition key values of ARG (a value or an IN list), each once, as DynamoDB keys. */
static GPtrArray *
partition_values (SqlTable *t, sqlite3_value *arg, gboolean in_list)
{
  GPtrArray *values = g_ptr_array_new_with_free_func ((GDestroyNotify) json_decref);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  sqlite3_value *v = NULL;
  int rc = in_list ? sqlite3_vtab_in_first (arg, &v) : SQLITE_OK;

  if (!in_list)
    v = arg;
  while (rc == SQLITE_OK && v != NULL)
    {
      json_t *key = sql_value_to_key (v, t->pk_type);

      if (key != NULL)
        {
          char *text = json_dumps (key, JSON_COMPACT | JSON_SORT_KEYS);

          if (g_hash_table_add (seen, text))
            g_ptr_array_add (values, key);
          else
            json_decref (key);
        }
      if (!in_list)
        break;
      rc = sqlite3_vtab_in_next (arg, &v);
    }
  return values;
}

static gboolean
build_lookup (SqlScan *scan, sqlite3_value **argv, GError **error)
{
  SqlPlan *plan = scan->plan;
  json_t *request = base_request (scan, argv, FALSE);
  SqlReader *reader;
  SqlLookup *page;
  guint row;

  plan->lookup = sql_lookup_new (scan->table, plan->columns_used, plan->lookup_column);
  if (request == NULL)
    return TRUE; /* nothing can match: an empty lookup */
  reader = sql_reader_new (scan->sql, scan->table, "Scan", request,
                           sql_scan_segments (scan->sql, scan->table), -1, row_columns (scan));
  while (sql_reader_next (reader, &page, &row))
    if (!sql_lookup_add_row (plan->lookup, page, row)
        || sql_lookup_bytes (plan->lookup) > SQL_LOOKUP_BUDGET)
      {
        sql_reader_free (reader);
        sql_lookup_free (plan->lookup);
        plan->lookup = NULL;
        if (plan->lookup_column == 0)
          {
            plan->lookup_full = TRUE; /* a Query per row from now on */
            return TRUE;
          }
        g_set_error (error, DDB_SQL_ERROR, DDB_SQL_ERROR_SQL,
                     "The join would hold more than %zu MB of %s in memory: add a condition "
                     "on its key",
                     SQL_LOOKUP_BUDGET >> 20, scan->table->sql_name);
        return FALSE;
      }
  sql_reader_free (reader);
  return TRUE;
}

/* The next row read that passes the comparisons here, in scan->page; FALSE at the end. */
static gboolean
next_item (SqlScan *scan)
{
  while (scan->reader != NULL)
    {
      if (sql_reader_next (scan->reader, &scan->page, &scan->page_row))
        {
          if (passes (scan))
            return TRUE;
          continue;
        }
      scan->page = NULL;
      if (scan->sql->error != NULL || scan->limit == 0 || !next_partition (scan))
        break;
    }
  scan->page = NULL;
  return FALSE;
}

/* A cell as ORDER BY ranks it: NULL first, then numbers (as numbers, decimal TEXT too in a
 * column of numbers), then TEXT and BLOB as bytes. */
static int
order_rank (const SqlCell *cell, gboolean numbers, SqlNumberKey *key)
{
  if (!sql_number_key_from_cell (cell, key))
    return 0;
  if (!numbers && cell->type == SQLITE_TEXT)
    key->rank = 2; /* in another column, text that reads as a number is still text */
  return key->rank;
}

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  SqlScan *scan = data;
  guint ra = *(const guint *) a, rb = *(const guint *) b;

  for (guint t = 0; t < scan->plan->n_sort; t++)
    {
      int column = scan->plan->sort[t].column;
      gboolean numbers = sql_column_is_number (scan->table, column);
      SqlCell ca, cb;
      SqlNumberKey ka, kb;
      int rank_a, rank_b, c;

      sql_lookup_cell (scan->sorted, ra, column, &ca);
      sql_lookup_cell (scan->sorted, rb, column, &cb);
      rank_a = order_rank (&ca, numbers, &ka);
      rank_b = order_rank (&cb, numbers, &kb);
      c = rank_a != rank_b ? (rank_a < rank_b ? -1 : 1)
          : rank_a == 0    ? 0
                           : sql_number_key_compare (&ka, &kb);
      if (c != 0)
        return scan->plan->sort[t].desc ? -c : c;
    }
  return (ra > rb) - (ra < rb); /* as read */
}

/* Reads every row into memory and sorts it as ORDER BY asks, numbers as numbers. */
static gboolean
sort_rows (SqlScan *scan, GError **error)
{
  guint64 used = scan->plan->columns_used;
  guint n;

  for (guint t = 0; t < scan->plan->n_sort; t++)
    used |= (guint64) 1 << MIN (scan->plan->sort[t].column, 63);
  scan->sorted = sql_lookup_new (scan->table, used, -1);
  while (next_item (scan))
    if (!sql_lookup_add_row (scan->sorted, scan->page, scan->page_row)
        || sql_lookup_bytes (scan->sorted) > SQL_LOOKUP_BUDGET)
      {
        g_set_error (error, DDB_SQL_ERROR, DDB_SQL_ERROR_SQL,
                     "ORDER BY would hold more than %zu MB of %s in memory: add a condition or a "
                     "LIMIT on the key, or ORDER BY ddb_n(…)",
                     SQL_LOOKUP_BUDGET >> 20, scan->table->sql_name);
        return FALSE;
      }
  if (scan->sql->error != NULL)
    return TRUE; /* the read failed: xNext reports it */
  n = sql_lookup_n_rows (scan->sorted);
  scan->sorted_rows = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    scan->sorted_rows[i] = i;
  g_qsort_with_data (scan->sorted_rows, (gint) n, sizeof (guint), compare_rows, scan);
  sql_reader_free (scan->reader);
  scan->reader = NULL;
  scan->from_lookup = TRUE;
  scan->store = scan->sorted;
  scan->rows = scan->sorted_rows;
  scan->n_rows = n;
  scan->at = 0;
  return TRUE;
}

SqlScan *
sql_scan_start (DdbSql *sql, SqlPlan *plan, int argc, sqlite3_value **argv, GError **error)
{
  SqlScan *scan = g_new0 (SqlScan, 1);
  sqlite3_value *v = NULL;

  (void) argc;
  scan->sql = sql;
  scan->plan = plan;
  scan->table = plan->table;
  scan->limit = -1;
  if ((v = arg_value (scan, argv, ARG_LIMIT)) != NULL)
    scan->limit = MAX (0, sqlite3_value_int64 (v));
  if (sql->explaining)
    return scan; /* no rows: only the plan is wanted */
  if (!number_filters (scan, argv))
    return scan; /* a comparison with NULL: no rows */

  if (plan->kind == PLAN_LOOKUP && !plan->lookup_full)
    {
      if (plan->lookup == NULL && !build_lookup (scan, argv, error))
        {
          sql_scan_free (scan);
          return NULL;
        }
      if (!plan->lookup_full)
        {
          scan->from_lookup = TRUE;
          scan->store = plan->lookup;
          scan->n_rows = sql_lookup_find (plan->lookup, arg_value (scan, argv, ARG_LOOKUP),
                                          &scan->rows);
          scan->at = 0;
          return scan;
        }
    }
  if (plan->kind == PLAN_SCAN)
    {
      json_t *request = base_request (scan, argv, FALSE);

      if (request != NULL)
        scan->reader = sql_reader_new (sql, scan->table, "Scan", request,
                                       scan->limit >= 0 ? 1 : sql_scan_segments (sql, scan->table),
                                       reader_limit (scan), row_columns (scan));
    }
  else
    {
      /* A Query per partition key value (a lookup over budget reads its key the same way). */
      scan->base = base_request (scan, argv, TRUE);
      if (scan->base == NULL)
        return scan;
      v = arg_value (scan, argv, plan->kind == PLAN_LOOKUP ? ARG_LOOKUP : ARG_PK);
      scan->pk_values = partition_values (scan->table, v, plan->pk_in);
      next_partition (scan);
    }
  if (plan->n_sort > 0 && !sort_rows (scan, error))
    {
      sql_scan_free (scan);
      return NULL;
    }
  return scan;
}

gboolean
sql_scan_next (SqlScan *scan)
{
  if (scan->limit == 0)
    return FALSE;
  if (scan->from_lookup)
    {
      while (scan->at < scan->n_rows)
        {
          scan->at++;
          /* Sorted rows passed the comparisons when they were read. */
          if (scan->store == scan->sorted || passes (scan))
            {
              if (scan->limit > 0)
                scan->limit--;
              return TRUE;
            }
        }
      return FALSE;
    }
  if (!next_item (scan))
    return FALSE;
  if (scan->limit > 0)
    scan->limit--;
  return TRUE;
}

void
sql_scan_column (SqlScan *scan, sqlite3_context *ctx, int column)
{
  SqlLookup *store;
  guint row;

  if (current_row (scan, &store, &row))
    sql_lookup_column (store, row, ctx, column);
  else
    sqlite3_result_null (ctx);
}

sqlite3_int64
sql_scan_rowid (SqlScan *scan)
{
  guint64 hash = 14695981039346656037u; /* FNV-1a over the key's cells */
  SqlLookup *store;
  guint row;

  if (!current_row (scan, &store, &row))
    return 0;
  if (scan->from_lookup)
    return (sqlite3_int64) (((guint64) 1 << 62) | row);
  for (guint i = 0; i < scan->table->n_key_columns; i++)
    {
      SqlCell cell;
      const guchar *p;
      gsize len;

      /* A number key's cell is its INTEGER or its canonical text: one cell per value. */
      sql_lookup_cell (store, row, (int) i, &cell);
      p = cell.type == SQLITE_INTEGER ? (const guchar *) &cell.i : (const guchar *) cell.data;
      len = cell.type == SQLITE_INTEGER ? sizeof cell.i : cell.len;
      hash = (hash ^ (guint) (cell.type + 1)) * 1099511628211u;
      for (gsize j = 0; p != NULL && j < len; j++)
        hash = (hash ^ p[j]) * 1099511628211u;
    }
  return (sqlite3_int64) (hash >> 2);
}

void
sql_scan_free (SqlScan *scan)
{
  if (scan == NULL)
    return;
  sql_reader_free (scan->reader);
  json_decref (scan->base);
  if (scan->pk_values != NULL)
    g_ptr_array_unref (scan->pk_values);
  if (scan->filters != NULL)
    g_array_unref (scan->filters);
  sql_lookup_free (scan->sorted);
  g_free (scan->sorted_rows);
  g_free (scan);
}
