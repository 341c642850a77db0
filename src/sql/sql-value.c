/* sql-value.c: DynamoDB values as SQLite values and back, and the functions that keep numbers
 * exact in SQL: the collation ddb_number, ddb_n (an order-preserving key), ddb_sum,
 * ddb_total, ddb_min and ddb_max. */
#include <string.h>

#include "core/base64.h"
#include "core/ddbjson.h"
#include "core/keycodec.h"
#include "core/number.h"
#include "core/plainjson.h"
#include "sql/sql-private.h"

gboolean
sql_number_int64 (const DdbNumber *n, gint64 *out)
{
  guint64 magnitude = 0;

  if (n->ndigits == 0)
    {
      *out = 0;
      return TRUE;
    }
  if (n->exponent < n->ndigits || n->exponent > 19)
    return FALSE; /* a fraction, or more digits than any gint64 */
  for (int i = 0; i < n->exponent; i++)
    {
      guint digit = i < n->ndigits ? n->d[i] : 0;
      if (magnitude > (G_MAXUINT64 - digit) / 10)
        return FALSE;
      magnitude = magnitude * 10 + digit;
    }
  if (n->negative ? magnitude > (guint64) G_MAXINT64 + 1 : magnitude > (guint64) G_MAXINT64)
    return FALSE;
  *out = n->negative ? (gint64) (0 - magnitude) : (gint64) magnitude;
  return TRUE;
}

gboolean
sql_number_text_int64 (const char *text, gsize len, gint64 *out)
{
  DdbNumber n;

  return ddb_number_parse (&n, text, (gssize) len, NULL) && sql_number_int64 (&n, out);
}

json_t *
sql_value_to_key (sqlite3_value *value, DdbType type)
{
  int cls = sqlite3_value_type (value);

  switch (type)
    {
    case DDB_TYPE_S:
      /* A key is never empty, and TEXT equals only TEXT. */
      if (cls != SQLITE_TEXT || sqlite3_value_bytes (value) == 0)
        return NULL;
      return json_pack ("{s:s%}", "S", (const char *) sqlite3_value_text (value),
                        (size_t) sqlite3_value_bytes (value));
    case DDB_TYPE_B:
      {
        g_autofree char *b64 = NULL;

        if (cls != SQLITE_BLOB || sqlite3_value_bytes (value) == 0)
          return NULL;
        b64 = ddb_base64_encode (sqlite3_value_blob (value), (gsize) sqlite3_value_bytes (value));
        return json_pack ("{s:s}", "B", b64);
      }
    case DDB_TYPE_N:
      {
        /* Numbers compare as numbers here (sql-plan.c), whatever their class. */
        SqlNumberKey k;
        g_autofree char *canonical = NULL;

        if (!sql_number_key_from_value (value, &k) || k.rank != 1)
          return NULL;
        canonical = ddb_number_to_string (&k.number);
        return json_pack ("{s:s}", "N", canonical);
      }
    default:
      return NULL;
    }
}

void
sql_append_literal (GString *out, sqlite3_value *value)
{
  switch (sqlite3_value_type (value))
    {
    case SQLITE_INTEGER:
    case SQLITE_FLOAT:
      g_string_append (out, (const char *) sqlite3_value_text (value));
      break;
    case SQLITE_TEXT:
      {
        g_autofree char *q = ddb_sql_quote_literal ((const char *) sqlite3_value_text (value),
                                                    (gsize) sqlite3_value_bytes (value));
        g_string_append (out, q);
      }
      break;
    case SQLITE_BLOB:
      {
        const guchar *p = sqlite3_value_blob (value);
        int len = sqlite3_value_bytes (value);

        g_string_append (out, "X'");
        for (int i = 0; i < len; i++)
          g_string_append_printf (out, "%02X", p[i]);
        g_string_append_c (out, '\'');
      }
      break;
    default:
      g_string_append (out, "NULL");
    }
}

static void
number_key_text (SqlNumberKey *k, const char *data, gsize len, int rank)
{
  k->rank = rank;
  k->data = data;
  k->len = len;
  if (rank == 2 && ddb_number_parse (&k->number, data, (gssize) len, NULL))
    k->rank = 1;
}

gboolean
sql_number_key_from_value (sqlite3_value *value, SqlNumberKey *k)
{
  char buf[64];

  memset (k, 0, sizeof *k);
  switch (sqlite3_value_type (value))
    {
    case SQLITE_INTEGER:
      k->rank = 1;
      ddb_number_set_int (&k->number, sqlite3_value_int64 (value));
      return TRUE;
    case SQLITE_FLOAT:
      sql_double_text (sqlite3_value_double (value), buf, sizeof buf);
      k->rank = 1;
      if (ddb_number_parse (&k->number, buf, -1, NULL))
        return TRUE;
      /* inf, nan or out of DynamoDB's range: above every number, as text would be */
      number_key_text (k, "", 0, 2);
      return TRUE;
    case SQLITE_TEXT:
      number_key_text (k, (const char *) sqlite3_value_text (value),
                       (gsize) sqlite3_value_bytes (value), 2);
      return TRUE;
    case SQLITE_BLOB:
      number_key_text (k, sqlite3_value_blob (value), (gsize) sqlite3_value_bytes (value), 3);
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
sql_number_key_from_cell (const SqlCell *cell, SqlNumberKey *k)
{
  memset (k, 0, sizeof *k);
  switch (cell->type)
    {
    case SQLITE_INTEGER:
      k->rank = 1;
      ddb_number_set_int (&k->number, cell->i);
      return TRUE;
    case SQLITE_TEXT:
      number_key_text (k, cell->data, cell->len, 2);
      return TRUE;
    case SQLITE_BLOB:
      number_key_text (k, cell->data, cell->len, 3);
      return TRUE;
    default:
      return FALSE;
    }
}

int
sql_number_key_compare (const SqlNumberKey *a, const SqlNumberKey *b)
{
  int c;

  if (a->rank != b->rank)
    return a->rank < b->rank ? -1 : 1;
  if (a->rank == 1)
    return ddb_number_compare (&a->number, &b->number);
  c = memcmp (a->data, b->data, MIN (a->len, b->len));
  return c != 0 ? c : (a->len > b->len) - (a->len < b->len);
}

/* ddb_number: texts that are both numbers compare numerically; numbers sort before other
 * texts, which compare as bytes (a total order, as a collation must be). */
static int
collate_number (void *user_data, int alen, const void *a, int blen, const void *b)
{
  DdbNumber na, nb;
  gboolean a_num = ddb_number_parse (&na, a, alen, NULL);
  gboolean b_num = ddb_number_parse (&nb, b, blen, NULL);
  int c;

  (void) user_data;
  if (a_num && b_num)
    return ddb_number_compare (&na, &nb);
  if (a_num != b_num)
    return a_num ? -1 : 1;
  c = memcmp (a, b, (size_t) MIN (alen, blen));
  return c != 0 ? c : (alen > blen) - (alen < blen);
}

void
sql_double_text (double d, char *buf, gsize size)
{
  for (int digits = 15; digits <= 17; digits++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, (int) size, format, d); /* '.' whatever the locale */
      if (g_ascii_strtod (buf, NULL) == d)
        return;
    }
}

/* A SQLite value as an exact number, if it is one: INTEGER, a REAL (its shortest decimal that
 * reads back as the same double: SQLite made the double, not us), or TEXT that parses. */
static gboolean
value_number (sqlite3_value *value, DdbNumber *out)
{
  switch (sqlite3_value_type (value))
    {
    case SQLITE_INTEGER:
      ddb_number_set_int (out, sqlite3_value_int64 (value));
      return TRUE;
    case SQLITE_FLOAT:
      {
        char buf[64];

        sql_double_text (sqlite3_value_double (value), buf, sizeof buf);
        return ddb_number_parse (out, buf, -1, NULL);
      }
    case SQLITE_TEXT:
      return ddb_number_parse (out, (const char *) sqlite3_value_text (value),
                               sqlite3_value_bytes (value), NULL);
    default:
      return FALSE;
    }
}

/* ddb_n(x): for a number, a BLOB whose byte order is the numeric order (the engine's own key
 * encoding of N), so ORDER BY ddb_n(price) and ddb_n(a) < ddb_n(b) are exact across INTEGER
 * and decimal TEXT; NULL for anything else. */
static void
fn_ddb_n (sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
  DdbNumber n;
  g_autoptr (DdbValue) v = NULL;
  g_autoptr (GByteArray) key = g_byte_array_new ();

  (void) argc;
  if (!value_number (argv[0], &n))
    {
      sqlite3_result_null (ctx);
      return;
    }
  v = ddb_value_new_n (&n);
  if (!ddb_key_encode (v, key, NULL))
    {
      sqlite3_result_null (ctx);
      return;
    }
  sqlite3_result_blob64 (ctx, key->data, key->len, SQLITE_TRANSIENT);
}

typedef struct {
  DdbNumber sum;
  gboolean any;
  gboolean failed;
} SumState;

static void
sum_step (sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
  SumState *s = sqlite3_aggregate_context (ctx, sizeof (SumState));
  DdbNumber n, r;
  GError *error = NULL;

  (void) argc;
  if (s == NULL || s->failed || !value_number (argv[0], &n))
    return;
  if (!s->any)
    ddb_number_set_zero (&s->sum);
  s->any = TRUE;
  if (!ddb_number_add (&r, &s->sum, &n, &error))
    {
      s->failed = TRUE;
      sqlite3_result_error (ctx, error->message, -1);
      g_error_free (error);
      return;
    }
  s->sum = r;
}

static void
sum_result (sqlite3_context *ctx, gboolean total)
{
  SumState *s = sqlite3_aggregate_context (ctx, 0);
  g_autofree char *text = NULL;
  gint64 v;

  if (s != NULL && s->failed)
    return;
  if (s == NULL || !s->any)
    {
      if (total)
        sqlite3_result_int (ctx, 0);
      else
        sqlite3_result_null (ctx);
      return;
    }
  text = ddb_number_to_string (&s->sum);
  if (sql_number_text_int64 (text, strlen (text), &v))
    sqlite3_result_int64 (ctx, v);
  else
    sqlite3_result_text (ctx, text, -1, SQLITE_TRANSIENT);
}

static void
sum_final (sqlite3_context *ctx)
{
  sum_result (ctx, FALSE);
}

static void
total_final (sqlite3_context *ctx)
{
  sum_result (ctx, TRUE);
}

/* ddb_min(x), ddb_max(x): the least or greatest value in the order ORDER BY gives a column of
 * numbers (NULLs skipped, then numbers by value, INTEGER and decimal TEXT alike, then other
 * text, then BLOBs), as it was read; built-in min() and max() rank every TEXT above every
 * INTEGER. */
typedef struct {
  sqlite3_value *best;
} ExtremeState;

static void
extreme_step (sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
  ExtremeState *s = sqlite3_aggregate_context (ctx, sizeof (ExtremeState));
  int sign = GPOINTER_TO_INT (sqlite3_user_data (ctx));
  SqlNumberKey value, best;

  (void) argc;
  if (s == NULL || !sql_number_key_from_value (argv[0], &value))
    return;
  if (s->best != NULL && sql_number_key_from_value (s->best, &best)
      && sign * sql_number_key_compare (&value, &best) <= 0)
    return;
  sqlite3_value_free (s->best);
  s->best = sqlite3_value_dup (argv[0]);
  if (s->best == NULL)
    sqlite3_result_error_nomem (ctx);
}

static void
extreme_final (sqlite3_context *ctx)
{
  ExtremeState *s = sqlite3_aggregate_context (ctx, 0);

  if (s == NULL || s->best == NULL)
    {
      sqlite3_result_null (ctx);
      return;
    }
  sqlite3_result_value (ctx, s->best);
  sqlite3_value_free (s->best);
  s->best = NULL;
}

gboolean
sql_register_functions (sqlite3 *db)
{
  int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;

  return sqlite3_create_collation (db, "ddb_number", SQLITE_UTF8, NULL, collate_number)
             == SQLITE_OK
         && sqlite3_create_function (db, "ddb_n", 1, flags, NULL, fn_ddb_n, NULL, NULL)
                == SQLITE_OK
         && sqlite3_create_function (db, "ddb_sum", 1, flags, NULL, NULL, sum_step, sum_final)
                == SQLITE_OK
         && sqlite3_create_function (db, "ddb_total", 1, flags, NULL, NULL, sum_step,
                                     total_final)
                == SQLITE_OK
         && sqlite3_create_function (db, "ddb_min", 1, flags, GINT_TO_POINTER (-1), NULL,
                                     extreme_step, extreme_final)
                == SQLITE_OK
         && sqlite3_create_function (db, "ddb_max", 1, flags, GINT_TO_POINTER (1), NULL,
                                     extreme_step, extreme_final)
                == SQLITE_OK;
}
