/* sql-plan.c: how a virtual table is read for SQLite (xBestIndex), and the reading itself
 * (xFilter). A partition key `=` or `IN` is a Query per value, with the sort key's `=`, `<`,
 * `<=`, `>`, `>=`, BETWEEN and prefix LIKE / GLOB in the KeyConditionExpression, ORDER BY the
 * sort key answered by ScanIndexForward and LIMIT ending the paging early; anything else is a
 * (parallel) Scan, with the key conditions as its FilterExpression. A JOIN's equality on a
 * column whose value comes from another table is answered from memory (sql-lookup.c) after one
 * Scan, rather than by a request per row, when that is cheaper for the backend's round trip.
 *
 * What is pushed down never narrows what SQLite's own comparison would accept: a condition
 * DynamoDB would evaluate differently (another class of value, a collation, a range over
 * numbers SQLite orders by class) is left to SQLite, which checks every condition not marked
 * exact (`omit`). */
#include <math.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/keycodec.h"
#include "sql/sql-lookup.h"
#include "sql/sql-private.h"

#define MAX_ARGS 16
#define LOOKUP_BUDGET ((gsize) 1 << 30)
#define MAX_KEY_BYTES 1024

typedef enum {
  ARG_PK,     /* the partition key's value (or IN list) */
  ARG_SK_EQ,
  ARG_SK_LO,  /* > or >= */
  ARG_SK_HI,  /* < or <= */
  ARG_SK_LIKE,
  ARG_SK_GLOB,
  ARG_LOOKUP, /* a join's value for the lookup column */
  ARG_LIMIT,
  ARG_NUMBER, /* a comparison on a column of numbers, applied here, as numbers */
} ArgRole;

typedef struct {
  ArgRole role;
  int op;
  int column;
} PlanArg;

typedef enum {
  PLAN_SCAN,
  PLAN_QUERY,
  PLAN_LOOKUP,
} PlanKind;

struct _SqlPlan {
  PlanKind kind;
  SqlTable *table;
  PlanArg args[MAX_ARGS];
  int n_args;
  gboolean pk_in;
  gboolean descending;
  int lookup_column;
  guint64 columns_used;
  double scan_rcu;
  char *words;
  SqlLookup *lookup;     /* PLAN_LOOKUP: built at the first xFilter */
  gboolean lookup_full;  /* it went over budget: a Query per row instead */
};

void
sql_plan_free (SqlPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->words);
  sql_lookup_free (plan->lookup);
  g_free (plan);
}

SqlPlan *
sql_plan_get (DdbSql *sql, int idx)
{
  if (idx < 0 || (guint) idx >= sql->plans->len)
    return NULL;
  return g_ptr_array_index (sql->plans, idx);
}

SqlTable *
sql_plan_table (SqlPlan *plan)
{
  return plan->table;
}

double
sql_plan_scan_rcu (SqlPlan *plan)
{
  return plan->kind == PLAN_QUERY ? 0 : plan->scan_rcu;
}

/* ---- Planning ------------------------------------------------------------------------- */

typedef struct {
  int pk_const, pk_join, pk_in; /* constraint indexes, -1: none */
  int sk_eq, sk_lo, sk_hi, sk_prefix;
  gboolean sk_prefix_glob;
  int lookup;                   /* a join equality usable for a lookup */
  int limit;
  int numbers[MAX_ARGS];        /* comparisons on columns of numbers */
  int n_numbers;
  gboolean exact[64];           /* constraint i is answered exactly (omit) */
  gboolean any_other;           /* a constraint left to SQLite (or unusable) */
  gboolean has_offset;
} Constraints;

static gboolean
is_binary (sqlite3_index_info *info, int i)
{
  const char *coll = sqlite3_vtab_collation (info, i);

  return coll == NULL || g_ascii_strcasecmp (coll, "BINARY") == 0;
}

static gboolean
collation_ok (SqlTable *t, sqlite3_index_info *info, int i, int column)
{
  const char *coll = sqlite3_vtab_collation (info, i);

  if (sql_column_is_number (t, column))
    return coll != NULL && g_ascii_strcasecmp (coll, "ddb_number") == 0;
  return is_binary (info, i);
}

/* The class of a constant right-hand side (SQLITE_INTEGER…), 0 when it is not a constant. */
static int
rhs_class (sqlite3_index_info *info, int i, sqlite3_value **value)
{
  sqlite3_value *v = NULL;

  if (sqlite3_vtab_rhs_value (info, i, &v) != SQLITE_OK || v == NULL)
    return 0;
  if (value != NULL)
    *value = v;
  return sqlite3_value_type (v);
}

/* The literal prefix of a LIKE or GLOB pattern, and whether the pattern is that prefix and a
 * final wildcard alone. */
static char *
pattern_prefix (const char *pattern, gboolean glob, gboolean *only_prefix)
{
  const char *stops = glob ? "*?[" : "%_";
  gsize n = strcspn (pattern, stops);

  *only_prefix = pattern[n] == (glob ? '*' : '%') && pattern[n + 1] == '\0';
  return g_strndup (pattern, n);
}

static gboolean
has_ascii_letter (const char *s)
{
  for (; *s; s++)
    if (g_ascii_isalpha (*s))
      return TRUE;
  return FALSE;
}

static void
classify (SqlTable *t, sqlite3_index_info *info, Constraints *c)
{
  int pk = 0;
  int sk = t->sk != NULL ? 1 : -1;

  memset (c, 0, sizeof *c);
  c->pk_const = c->pk_join = c->pk_in = c->sk_eq = c->sk_lo = c->sk_hi = c->sk_prefix = -1;
  c->lookup = c->limit = -1;
  for (int i = 0; i < info->nConstraint; i++)
    {
      const struct sqlite3_index_constraint *k = &info->aConstraint[i];
      sqlite3_value *v = NULL;
      int cls;

      if (!k->usable)
        {
          if (k->op != SQLITE_INDEX_CONSTRAINT_LIMIT && k->op != SQLITE_INDEX_CONSTRAINT_OFFSET)
            c->any_other = TRUE;
          continue;
        }
      if (k->op == SQLITE_INDEX_CONSTRAINT_LIMIT)
        {
          c->limit = i;
          continue;
        }
      if (k->op == SQLITE_INDEX_CONSTRAINT_OFFSET)
        {
          c->has_offset = TRUE;
          continue;
        }
      cls = rhs_class (info, i, &v);
      if (k->iColumn == pk && k->op == SQLITE_INDEX_CONSTRAINT_EQ && collation_ok (t, info, i, pk))
        {
          if (sqlite3_vtab_in (info, i, -1))
            {
              if (c->pk_in < 0 && c->pk_const < 0)
                c->pk_in = i;
            }
          else if (cls != 0)
            {
              if (c->pk_const < 0)
                {
                  c->pk_const = i;
                  /* Equality of one class is exact, and of numbers as numbers. */
                  c->exact[i] = (t->pk_type == DDB_TYPE_S && cls == SQLITE_TEXT)
                                || (t->pk_type == DDB_TYPE_B && cls == SQLITE_BLOB)
                                || t->pk_type == DDB_TYPE_N;
                }
            }
          else if (c->pk_join < 0)
            c->pk_join = i;
          if (c->pk_const == i || c->pk_in == i || c->pk_join == i)
            continue;
        }
      if (k->iColumn == sk && sk >= 0 && collation_ok (t, info, i, sk))
        {
          /* A number key is compared as numbers, as DynamoDB does: exact whatever the class
           * of the bound (one that is not a number is settled when reading). */
          gboolean same = (t->sk_type == DDB_TYPE_S && cls == SQLITE_TEXT)
                          || (t->sk_type == DDB_TYPE_B && cls == SQLITE_BLOB)
                          || t->sk_type == DDB_TYPE_N;

          switch (k->op)
            {
            case SQLITE_INDEX_CONSTRAINT_EQ:
              if (c->sk_eq < 0)
                {
                  c->sk_eq = i;
                  c->exact[i] = same;
                  continue;
                }
              break;
            case SQLITE_INDEX_CONSTRAINT_GT:
            case SQLITE_INDEX_CONSTRAINT_GE:
              if (c->sk_lo < 0)
                {
                  c->sk_lo = i;
                  c->exact[i] = same;
                  continue;
                }
              break;
            case SQLITE_INDEX_CONSTRAINT_LT:
            case SQLITE_INDEX_CONSTRAINT_LE:
              if (c->sk_hi < 0)
                {
                  c->sk_hi = i;
                  c->exact[i] = same;
                  continue;
                }
              break;
            case SQLITE_INDEX_CONSTRAINT_LIKE:
            case SQLITE_INDEX_CONSTRAINT_GLOB:
              if (c->sk_prefix < 0 && t->sk_type == DDB_TYPE_S && cls == SQLITE_TEXT)
                {
                  gboolean glob = k->op == SQLITE_INDEX_CONSTRAINT_GLOB;
                  gboolean only;
                  g_autofree char *prefix
                      = pattern_prefix ((const char *) sqlite3_value_text (v), glob, &only);

                  if (*prefix != '\0')
                    {
                      c->sk_prefix = i;
                      c->sk_prefix_glob = glob;
                      /* LIKE folds ASCII case: with letters we read the range of all the
                       * prefix's cases and SQLite checks. */
                      c->exact[i] = only && (glob || !has_ascii_letter (prefix));
                      continue;
                    }
                }
              break;
            default:
              break;
            }
        }
      if (k->op == SQLITE_INDEX_CONSTRAINT_EQ && cls == 0 && c->lookup < 0
          && k->iColumn >= 0 && k->iColumn <= SQL_COL_SIZE (t)
          && (k->iColumn >= (int) t->columns->len || collation_ok (t, info, i, k->iColumn)))
        {
          c->lookup = i;
          continue;
        }
      if (k->iColumn >= 0 && sql_column_is_number (t, k->iColumn) && c->n_numbers < MAX_ARGS - 8
          && collation_ok (t, info, i, k->iColumn)
          && (k->op == SQLITE_INDEX_CONSTRAINT_EQ || k->op == SQLITE_INDEX_CONSTRAINT_NE
              || k->op == SQLITE_INDEX_CONSTRAINT_LT || k->op == SQLITE_INDEX_CONSTRAINT_LE
              || k->op == SQLITE_INDEX_CONSTRAINT_GT || k->op == SQLITE_INDEX_CONSTRAINT_GE))
        {
          /* SQLite would rank decimal TEXT above every INTEGER: we compare as numbers. */
          c->numbers[c->n_numbers++] = i;
          c->exact[i] = TRUE;
          continue;
        }
      c->any_other = TRUE;
    }
}

/* Bounds of a join value are not known while planning: the sort key conditions of a row
 * that come from another table are checked by SQLite too. */
static void
unmark_joins (SqlTable *t, sqlite3_index_info *info, Constraints *c)
{
  int list[] = { c->sk_eq, c->sk_lo, c->sk_hi };

  for (guint j = 0; j < G_N_ELEMENTS (list); j++)
    if (list[j] >= 0 && rhs_class (info, list[j], NULL) == 0 && t->sk_type != DDB_TYPE_N)
      c->exact[list[j]] = FALSE;
}

static int
add_arg (SqlPlan *plan, sqlite3_index_info *info, int constraint, ArgRole role, gboolean omit)
{
  if (plan->n_args >= MAX_ARGS)
    return -1;
  plan->args[plan->n_args].role = role;
  plan->args[plan->n_args].op = info->aConstraint[constraint].op;
  plan->args[plan->n_args].column = info->aConstraint[constraint].iColumn;
  info->aConstraintUsage[constraint].argvIndex = ++plan->n_args;
  info->aConstraintUsage[constraint].omit = omit;
  return plan->n_args;
}

static void
append_rhs (GString *out, sqlite3_index_info *info, int i)
{
  sqlite3_value *v = NULL;

  if (rhs_class (info, i, &v) != 0)
    sql_append_literal (out, v);
  else
    g_string_append (out, "(each value of the join)");
}

static const char *
op_text (int op)
{
  switch (op)
    {
    case SQLITE_INDEX_CONSTRAINT_EQ: return "=";
    case SQLITE_INDEX_CONSTRAINT_GT: return ">";
    case SQLITE_INDEX_CONSTRAINT_GE: return ">=";
    case SQLITE_INDEX_CONSTRAINT_LT: return "<";
    case SQLITE_INDEX_CONSTRAINT_LE: return "<=";
    case SQLITE_INDEX_CONSTRAINT_LIKE: return "LIKE";
    case SQLITE_INDEX_CONSTRAINT_GLOB: return "GLOB";
    default: return "?";
    }
}

static void
append_sk_words (GString *out, SqlTable *t, sqlite3_index_info *info, const Constraints *c,
                 const char *join)
{
  int list[] = { c->sk_eq, c->sk_lo, c->sk_hi, c->sk_prefix };
  gboolean first = TRUE;

  for (guint j = 0; j < G_N_ELEMENTS (list); j++)
    {
      if (list[j] < 0 || (j > 0 && c->sk_eq >= 0))
        continue;
      g_string_append_printf (out, "%s%s %s ", first ? join : " and ", t->sk,
                              op_text (info->aConstraint[list[j]].op));
      append_rhs (out, info, list[j]);
      first = FALSE;
    }
}

/* Segments for a Scan of T: no more than its pages, so a small table is one request. */
static guint
scan_segments (DdbSql *sql, SqlTable *t)
{
  double pages = ceil ((double) t->size_bytes / (1024.0 * 1024.0));

  return (guint) CLAMP (pages, 1.0, (double) sql->segments);
}

static void
append_scan_estimate (GString *out, DdbSql *sql, SqlTable *t, double *rcu)
{
  double pages = MAX (1.0, ceil ((double) t->size_bytes / (1024.0 * 1024.0)));

  /* Eventually consistent: half a unit per started 4 KB, over the whole table. */
  *rcu = MAX (0.5, ceil ((double) t->size_bytes / 4096.0) * 0.5);
  g_string_append_printf (out, " ≈ %.0f page%s, ≈ %.0f RCU", pages, pages == 1 ? "" : "s",
                          ceil (*rcu));
  if (scan_segments (sql, t) > 1)
    g_string_append_printf (out, ", %u segments in parallel", scan_segments (sql, t));
}

int
sql_best_index (DdbSql *sql, SqlTable *t, sqlite3_index_info *info)
{
  SqlPlan *plan = g_new0 (SqlPlan, 1);
  Constraints c;
  GString *words = g_string_new (NULL);
  double n = MAX (1.0, (double) t->item_count);
  double pages = MAX (1.0, ceil ((double) t->size_bytes / (1024.0 * 1024.0)));
  double trip = sql->remote ? 50.0 : 2.0; /* a request, in rows read */
  double per_pk;
  double scan_cost = pages * trip + n;
  double selectivity;
  double lookup_cost;
  gboolean query_per_row = FALSE;
  gboolean all_exact;

  classify (t, info, &c);
  unmark_joins (t, info, &c);
  per_pk = c.sk_eq >= 0 ? 1.0 : (c.sk_lo >= 0 || c.sk_hi >= 0 || c.sk_prefix >= 0) ? 5.0 : 10.0;
  selectivity = c.sk_eq >= 0 ? 0.01 : per_pk < 10.0 ? 0.25 : 1.0;
  plan->table = t;
  plan->lookup_column = -1;
  plan->columns_used = info->colUsed;

  /* A lookup in memory costs little once built; the build (one Scan) is paid once, which
   * SQLite cannot be told: the square of what it holds keeps the larger side of a JOIN the
   * outer one, so the smaller is the one held. Never more than a Scan per row. */
  lookup_cost = MIN (1.0 + MIN (per_pk, n) + n * selectivity * n * selectivity * 1e-9,
                     scan_cost / 2);
  if (c.pk_const >= 0 || c.pk_in >= 0)
    plan->kind = PLAN_QUERY;
  else if (c.pk_join >= 0)
    {

      if (lookup_cost < trip + per_pk)
        {
          plan->kind = PLAN_LOOKUP;
          c.lookup = c.pk_join;
        }
      else
        {
          plan->kind = PLAN_QUERY;
          query_per_row = TRUE;
        }
    }
  else if (c.lookup >= 0)
    plan->kind = PLAN_LOOKUP;
  else
    plan->kind = PLAN_SCAN;

  switch (plan->kind)
    {
    case PLAN_QUERY:
      {
        int pk = c.pk_const >= 0 ? c.pk_const : c.pk_in >= 0 ? c.pk_in : c.pk_join;
        double values = c.pk_in >= 0 ? 5.0 : 1.0;

        if (c.pk_in >= 0)
          {
            sqlite3_vtab_in (info, pk, 1);
            plan->pk_in = TRUE;
          }
        add_arg (plan, info, pk, ARG_PK, c.exact[pk]);
        g_string_append_printf (words, "Query %s where %s %s ", t->sql_name, t->pk,
                                c.pk_in >= 0 ? "IN" : "=");
        if (c.pk_in >= 0)
          g_string_append (words, "(the list)");
        else
          append_rhs (words, info, pk);
        append_sk_words (words, t, info, &c, " and ");
        info->estimatedCost = values * (trip + per_pk);
        info->estimatedRows = (sqlite3_int64) (values * per_pk);
        if (c.pk_in < 0 && (c.sk_eq >= 0 || t->sk == NULL))
          info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
        break;
      }
    case PLAN_LOOKUP:
      {
        plan->lookup_column = info->aConstraint[c.lookup].iColumn;
        /* Over numbers the lookup compares as numbers (sql-lookup.c), as SQLite cannot. */
        add_arg (plan, info, c.lookup, ARG_LOOKUP,
                 sql_column_is_number (t, plan->lookup_column));
        g_string_append_printf (words, "Scan %s once", t->sql_name);
        append_sk_words (words, t, info, &c, " where ");
        append_scan_estimate (words, sql, t, &plan->scan_rcu);
        g_string_append_printf (
            words, ", then look up %s in memory",
            plan->lookup_column < (int) t->columns->len
                ? ((SqlColumn *) g_ptr_array_index (t->columns, plan->lookup_column))->name
            : plan->lookup_column == SQL_COL_ITEM (t) ? "_item"
                                                      : "_size");
        info->estimatedCost = lookup_cost;
        info->estimatedRows = (sqlite3_int64) MIN (per_pk, n);
        break;
      }
    case PLAN_SCAN:
      g_string_append_printf (words, "Scan %s", t->sql_name);
      append_sk_words (words, t, info, &c, " where ");
      append_scan_estimate (words, sql, t, &plan->scan_rcu);
      info->estimatedCost = scan_cost;
      info->estimatedRows = (sqlite3_int64) MAX (1.0, n * selectivity);
      break;
    }
  /* The sort key's conditions: key conditions of a Query, else a Scan's filter. */
  if (c.sk_eq >= 0)
    add_arg (plan, info, c.sk_eq, ARG_SK_EQ, c.exact[c.sk_eq]);
  else
    {
      /* Both bounds read BETWEEN, inclusive: a strict one is checked again, by SQLite, or
       * here over numbers (which SQLite would compare by class). */
      gboolean both = c.sk_lo >= 0 && c.sk_hi >= 0;
      gboolean numbers = t->sk_type == DDB_TYPE_N;

      if (c.sk_lo >= 0)
        add_arg (plan, info, c.sk_lo, ARG_SK_LO, c.exact[c.sk_lo] && (!both || numbers));
      if (c.sk_hi >= 0)
        add_arg (plan, info, c.sk_hi, ARG_SK_HI, c.exact[c.sk_hi] && (!both || numbers));
      if (c.sk_lo < 0 && c.sk_hi < 0 && c.sk_prefix >= 0)
        add_arg (plan, info, c.sk_prefix, c.sk_prefix_glob ? ARG_SK_GLOB : ARG_SK_LIKE,
                 c.exact[c.sk_prefix]);
    }
  for (int j = 0; j < c.n_numbers; j++)
    {
      int i = c.numbers[j];
      SqlColumn *col = g_ptr_array_index (t->columns, info->aConstraint[i].iColumn);

      add_arg (plan, info, i, ARG_NUMBER, TRUE);
      g_string_append_printf (words, "%s%s %s ", j == 0 ? ", keeping " : " and ", col->name,
                              info->aConstraint[i].op == SQLITE_INDEX_CONSTRAINT_NE
                                  ? "<>"
                                  : op_text (info->aConstraint[i].op));
      append_rhs (words, info, i);
      if (j + 1 == c.n_numbers)
        g_string_append (words, " (as numbers)");
    }
  if (query_per_row)
    g_string_append (words, " — 1 request per row");
  else if (plan->kind == PLAN_QUERY)
    g_string_append (words, plan->pk_in ? " — 1 request per value" : " — 1 request");

  /* ORDER BY the sort key within one partition. */
  if (plan->kind == PLAN_QUERY && !plan->pk_in && t->sk != NULL && info->nOrderBy >= 1
      && info->nOrderBy <= 2)
    {
      int first = info->nOrderBy == 2 ? 1 : 0;
      gboolean ok = info->aOrderBy[first].iColumn == 1;

      if (info->nOrderBy == 2)
        ok = ok && info->aOrderBy[0].iColumn == 0
             && info->aOrderBy[0].desc == info->aOrderBy[1].desc;
      /* A LIKE with letters reads a range of cases: still in key order. */
      if (ok)
        {
          info->orderByConsumed = 1;
          plan->descending = info->aOrderBy[first].desc;
          g_string_append (words, plan->descending ? ", sort key descending (ScanIndexForward "
                                                     "false)"
                                                   : ", in sort key order");
        }
    }

  /* LIMIT ends the paging when SQLite checks nothing after us. */
  all_exact = !c.any_other && !c.has_offset && !query_per_row && plan->kind != PLAN_LOOKUP
              && (info->nOrderBy == 0 || info->orderByConsumed);
  for (int i = 0; i < info->nConstraint && all_exact; i++)
    if (info->aConstraint[i].usable && info->aConstraint[i].op != SQLITE_INDEX_CONSTRAINT_LIMIT
        && !info->aConstraintUsage[i].omit)
      all_exact = FALSE;
  if (all_exact && c.limit >= 0)
    {
      add_arg (plan, info, c.limit, ARG_LIMIT, TRUE);
      g_string_append (words, ", stops at the LIMIT");
    }

  plan->words = g_string_free (words, FALSE);
  g_ptr_array_add (sql->plans, plan);
  info->idxNum = (int) sql->plans->len - 1;
  info->idxStr = plan->words;
  info->needToFreeIdxStr = 0;
  return SQLITE_OK;
}

/* ---- Reading -------------------------------------------------------------------------- */

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
  json_t *item;

  /* Comparisons on columns of numbers, applied to each row. */
  GArray *filters; /* NumberFilter */

  /* Lookup */
  gboolean from_lookup;
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

/* Whether the current row passes the comparisons on columns of numbers. */
static gboolean
passes (SqlScan *scan)
{
  for (guint i = 0; scan->filters != NULL && i < scan->filters->len; i++)
    {
      NumberFilter *f = &g_array_index (scan->filters, NumberFilter, i);
      SqlCell cell;
      SqlNumberKey key;
      gboolean comparable;
      int c;

      if (scan->from_lookup)
        sql_lookup_cell (scan->plan->lookup, scan->rows[scan->at - 1], f->column, &cell);
      else
        sql_item_cell (scan->table, scan->item, f->column, &cell);
      comparable = sql_number_key_from_cell (&cell, &key);
      c = comparable ? sql_number_key_compare (&key, &f->key) : 0;
      if (!scan->from_lookup)
        sql_cell_clear (&cell);
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
            prefix = pattern_prefix ((const char *) sqlite3_value_text (v),
                                     plan->args[i].role == ARG_SK_GLOB, &only);
            if (*prefix == '\0')
              break;
            if (plan->args[i].role == ARG_SK_GLOB || !has_ascii_letter (prefix))
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
                while (top->len + 4 <= MAX_KEY_BYTES)
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
      g_string_printf (expr, "#s %s :s", op_text (op));
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
 * which need the whole item: less to send, decode and hold. */
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
  return scan->filters != NULL ? -1 : scan->limit;
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
  scan->reader = sql_reader_new (scan->sql, scan->table, "Query", request, 1,
                                 reader_limit (scan));
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
  json_t *item;

  plan->lookup = sql_lookup_new (scan->table, plan->columns_used, plan->lookup_column);
  if (request == NULL)
    return TRUE; /* nothing can match: an empty lookup */
  reader = sql_reader_new (scan->sql, scan->table, "Scan", request,
                           scan_segments (scan->sql, scan->table), -1);
  while ((item = sql_reader_next (reader)) != NULL)
    if (!sql_lookup_add (plan->lookup, item) || sql_lookup_bytes (plan->lookup) > LOOKUP_BUDGET)
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
                     LOOKUP_BUDGET >> 20, scan->table->sql_name);
        return FALSE;
      }
  sql_reader_free (reader);
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
                                       scan->limit >= 0 ? 1 : scan_segments (sql, scan->table),
                                       reader_limit (scan));
      return scan;
    }
  /* A Query per partition key value (a lookup over budget reads its key the same way). */
  scan->base = base_request (scan, argv, TRUE);
  if (scan->base == NULL)
    return scan;
  v = arg_value (scan, argv, plan->kind == PLAN_LOOKUP ? ARG_LOOKUP : ARG_PK);
  scan->pk_values = partition_values (scan->table, v, plan->pk_in);
  next_partition (scan);
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
          if (passes (scan))
            {
              if (scan->limit > 0)
                scan->limit--;
              return TRUE;
            }
        }
      return FALSE;
    }
  while (scan->reader != NULL)
    {
      scan->item = sql_reader_next (scan->reader);
      if (scan->item != NULL)
        {
          if (!passes (scan))
            continue;
          if (scan->limit > 0)
            scan->limit--;
          return TRUE;
        }
      if (scan->sql->error != NULL || scan->limit == 0 || !next_partition (scan))
        break;
    }
  scan->item = NULL;
  return FALSE;
}

void
sql_scan_column (SqlScan *scan, sqlite3_context *ctx, int column)
{
  if (scan->from_lookup)
    sql_lookup_column (scan->plan->lookup, scan->rows[scan->at - 1], ctx, column);
  else if (scan->item != NULL)
    sql_item_column (scan->table, scan->item, ctx, column);
  else
    sqlite3_result_null (ctx);
}

sqlite3_int64
sql_scan_rowid (SqlScan *scan)
{
  guint64 hash = 14695981039346656037u; /* FNV-1a over the key's DynamoDB JSON */

  if (scan->from_lookup)
    return (sqlite3_int64) (((guint64) 1 << 62) | scan->rows[scan->at - 1]);
  for (guint i = 0; scan->item != NULL && i < scan->table->n_key_columns; i++)
    {
      SqlColumn *c = g_ptr_array_index (scan->table->columns, i);
      g_autofree char *text
          = json_dumps (json_object_get (scan->item, c->name), JSON_COMPACT | JSON_ENCODE_ANY);

      for (const char *p = text != NULL ? text : ""; *p; p++)
        hash = (hash ^ (guchar) *p) * 1099511628211u;
      hash = (hash ^ 0xff) * 1099511628211u;
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
  g_free (scan);
}
