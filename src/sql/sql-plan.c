/* sql-plan.c: how a virtual table is read, chosen for SQLite (xBestIndex; sql-scan.c reads
 * it). A partition key `=` or `IN` is a Query per value, with the sort key's `=`, `<`,
 * `<=`, `>`, `>=`, BETWEEN and prefix LIKE / GLOB in the KeyConditionExpression, ORDER BY the
 * sort key answered by ScanIndexForward and LIMIT ending the paging early; anything else is a
 * (parallel) Scan, with the key conditions as its FilterExpression. A JOIN's equality on a
 * column whose value comes from another table is answered from memory (sql-lookup.c) after one
 * Scan, rather than by a request per row, when that is cheaper for the backend's round trip.
 *
 * What is pushed down never narrows what the comparison accepts: a condition DynamoDB would
 * evaluate differently (another class of value, a collation) is left to SQLite, which checks
 * every condition not marked exact (`omit`); a comparison with a column of numbers is made
 * here, as numbers. */
#include <math.h>
#include <string.h>

#include "sql/sql-plan.h"

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
  int numbers[SQL_MAX_ARGS];        /* comparisons on columns of numbers */
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
char *
sql_pattern_prefix (const char *pattern, gboolean glob, gboolean *only_prefix)
{
  const char *stops = glob ? "*?[" : "%_";
  gsize n = strcspn (pattern, stops);

  *only_prefix = pattern[n] == (glob ? '*' : '%') && pattern[n + 1] == '\0';
  return g_strndup (pattern, n);
}

gboolean
sql_has_ascii_letter (const char *s)
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
                      = sql_pattern_prefix ((const char *) sqlite3_value_text (v), glob, &only);

                  if (*prefix != '\0')
                    {
                      c->sk_prefix = i;
                      c->sk_prefix_glob = glob;
                      /* LIKE folds ASCII case: with letters we read the range of all the
                       * prefix's cases and SQLite checks. */
                      c->exact[i] = only && (glob || !sql_has_ascii_letter (prefix));
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
      if (k->iColumn >= 0 && sql_column_is_number (t, k->iColumn) && c->n_numbers < SQL_MAX_ARGS - 8
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
  if (plan->n_args >= SQL_MAX_ARGS)
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

const char *
sql_op_text (int op)
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
                              sql_op_text (info->aConstraint[list[j]].op));
      append_rhs (out, info, list[j]);
      first = FALSE;
    }
}

/* Segments for a Scan of T: no more than its pages, so a small table is one request. */
guint
sql_scan_segments (DdbSql *sql, SqlTable *t)
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
  if (sql_scan_segments (sql, t) > 1)
    g_string_append_printf (out, ", %u segments in parallel", sql_scan_segments (sql, t));
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
                                  : sql_op_text (info->aConstraint[i].op));
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

  /* ORDER BY a column of numbers (and others): sorted here, numbers as numbers. */
  if (!info->orderByConsumed && info->nOrderBy > 0 && info->nOrderBy <= SQL_MAX_SORT
      && plan->kind != PLAN_LOOKUP && !query_per_row)
    {
      gboolean columns = TRUE, numbers = FALSE;

      for (int i = 0; i < info->nOrderBy; i++)
        {
          int col = info->aOrderBy[i].iColumn;

          columns = columns && col >= 0 && col < (int) t->columns->len;
          numbers = numbers || (columns && sql_column_is_number (t, col));
        }
      if (columns && numbers)
        {
          info->orderByConsumed = 1;
          plan->n_sort = (guint) info->nOrderBy;
          for (int i = 0; i < info->nOrderBy; i++)
            {
              plan->sort[i].column = info->aOrderBy[i].iColumn;
              plan->sort[i].desc = info->aOrderBy[i].desc;
            }
          g_string_append (words, ", sorted here (numbers as numbers)");
          info->estimatedCost += info->estimatedRows * log2 (MAX (2.0, info->estimatedRows)) * 0.1;
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
      g_string_append (words, plan->n_sort > 0 ? ", then the LIMIT" : ", stops at the LIMIT");
    }

  plan->words = g_string_free (words, FALSE);
  g_ptr_array_add (sql->plans, plan);
  info->idxNum = (int) sql->plans->len - 1;
  info->idxStr = plan->words;
  info->needToFreeIdxStr = 0;
  return SQLITE_OK;
}

