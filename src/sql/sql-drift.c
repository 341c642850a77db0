/* sql-drift.c: the "Find drift" JOIN, and SQL quoting for the text we write. */
#include <string.h>

#include "core/number.h"
#include "sql/sql-private.h"

char *
ddb_sql_quote_identifier (const char *text)
{
  GString *out = g_string_new ("\"");

  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

char *
ddb_sql_quote_literal (const char *text, gsize len)
{
  GString *out = g_string_new ("'");
  gboolean nul = memchr (text, '\0', len) != NULL;

  if (nul)
    {
      /* SQL text cannot hold U+0000: write the bytes as a BLOB cast to TEXT. */
      g_string_assign (out, "CAST(X'");
      for (gsize i = 0; i < len; i++)
        g_string_append_printf (out, "%02X", (guchar) text[i]);
      g_string_append (out, "' AS TEXT)");
      return g_string_free (out, FALSE);
    }
  for (gsize i = 0; i < len; i++)
    {
      if (text[i] == '\'')
        g_string_append_c (out, '\'');
      g_string_append_c (out, text[i]);
    }
  g_string_append_c (out, '\'');
  return g_string_free (out, FALSE);
}

/* A key value as the SQL literal its column holds: S as text, N as an integer or (when no
 * gint64 holds it) its decimal text, as sql-item.c makes them. */
static char *
key_literal (const DdbValue *value)
{
  if (value->type == DDB_TYPE_N)
    {
      g_autofree char *text = ddb_number_to_string (&value->number);
      gint64 i;

      if (sql_number_text_int64 (text, strlen (text), &i))
        return g_strdup_printf ("%" G_GINT64_FORMAT, i);
      return ddb_sql_quote_literal (text, strlen (text));
    }
  if (value->type == DDB_TYPE_B)
    {
      GString *out = g_string_new ("X'");

      for (gsize i = 0; i < value->bytes.len; i++)
        g_string_append_printf (out, "%02X", (guchar) value->bytes.data[i]);
      g_string_append_c (out, '\'');
      return g_string_free (out, FALSE);
    }
  return ddb_sql_quote_literal (value->bytes.data, value->bytes.len);
}

char *
ddb_sql_drift_query (const DdbSqlDriftSpec *spec)
{
  GString *out = g_string_new ("SELECT ");
  g_autofree char *copy_table = ddb_sql_quote_identifier (spec->copy_table);
  g_autofree char *source_table = ddb_sql_quote_identifier (spec->source_table);
  g_autofree char *copy_attr = ddb_sql_quote_identifier (spec->copy_attr);
  g_autofree char *source_attr = ddb_sql_quote_identifier (spec->source_attr);
  g_autofree char *copy_ref = ddb_sql_quote_identifier (spec->copy_ref);
  g_autofree char *source_key = ddb_sql_quote_identifier (spec->source_key);

  for (guint i = 0; spec->copy_key != NULL && spec->copy_key[i] != NULL; i++)
    {
      g_autofree char *k = ddb_sql_quote_identifier (spec->copy_key[i]);

      g_string_append_printf (out, "c.%s, ", k);
    }
  g_string_append_printf (out, "c.%s, s.%s FROM %s AS c JOIN %s AS s ON s.%s = c.%s", copy_attr,
                          source_attr, copy_table, source_table, source_key, copy_ref);
  if (spec->source_sort_key != NULL && spec->source_sort_value != NULL)
    {
      g_autofree char *sk = ddb_sql_quote_identifier (spec->source_sort_key);
      g_autofree char *value = key_literal (spec->source_sort_value);

      g_string_append_printf (out, " AND s.%s = %s", sk, value);
    }
  g_string_append_printf (out, " WHERE c.%s IS NOT s.%s", copy_attr, source_attr);
  return g_string_free (out, FALSE);
}
