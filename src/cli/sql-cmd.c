/* sql-cmd.c: `dynoscope-cli CONNECTION sql [--format table|jsonl|csv] [--explain] [--stats]
 * 'SELECT …'`: SQL over the connection's tables (src/sql), rows printed as they arrive. */
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "cli/interrupt.h"
#include "cli/sql-cmd.h"
#include "core/base64.h"
#include "core/error.h"
#include "core/plainjson.h"
#include "sql/sql.h"

#define SQL_PREFIX "dynoscope-cli sql: "
#define SQL_USAGE                                                                                \
  N_ ("Usage: dynoscope-cli [--db PATH | --endpoint URL] sql [--format table|jsonl|csv] "        \
      "[--explain] [--stats] [--column TABLE.ATTR]… 'SELECT …'")
#define TABLE_SAMPLE_ROWS 200

typedef enum {
  FORMAT_TABLE,
  FORMAT_JSONL,
  FORMAT_CSV,
} Format;

/* A cell as text for the table and CSV formats: TEXT as is (U+0000 included: *len counts it),
 * numbers exactly, BLOB as base64, NULL as NULL_TEXT. */
static char *
cell_text (DdbSqlQuery *query, guint column, const char *null_text, gsize *len)
{
  const char *data;
  char *text;

  switch (ddb_sql_query_type (query, column))
    {
    case DDB_SQL_NULL:
      text = g_strdup (null_text);
      break;
    case DDB_SQL_BLOB:
      data = ddb_sql_query_bytes (query, column, len);
      text = ddb_base64_encode ((const guchar *) data, *len);
      break;
    case DDB_SQL_REAL:
      {
        g_autoptr (DdbValue) v = ddb_sql_query_value (query, column);

        if (v->type == DDB_TYPE_N)
          text = ddb_number_to_string (&v->number);
        else
          text = g_strndup (v->bytes.data, v->bytes.len);
      }
      break;
    default:
      data = ddb_sql_query_bytes (query, column, len);
      text = g_malloc (*len + 1);
      memcpy (text, data, *len);
      text[*len] = '\0';
      return text;
    }
  *len = strlen (text);
  return text;
}

/* The table format is for the terminal, which shows nothing for U+0000: it is written as the
 * escape the app's cells show, so that "a\u0000b" does not print as "ab" (or, cut, as "a"). */
static char *
table_cell_text (DdbSqlQuery *query, guint column)
{
  gsize len;
  char *text = cell_text (query, column, "NULL", &len);
  GString *out;

  if (memchr (text, '\0', len) == NULL)
    return text;
  out = g_string_sized_new (len + 8);
  for (gsize i = 0; i < len; i++)
    if (text[i] == '\0')
      g_string_append (out, "\\u0000");
    else
      g_string_append_c (out, text[i]);
  g_free (text);
  return g_string_free (out, FALSE);
}

/* RFC 4180; U+0000 is written as the byte, as `export --format csv` writes it. */
static void
print_csv_field (GString *out, const char *text, gsize len)
{
  gboolean quote = FALSE;

  for (gsize i = 0; i < len && !quote; i++)
    quote = strchr (",\"\r\n", text[i]) != NULL && text[i] != '\0';
  if (!quote)
    {
      g_string_append_len (out, text, (gssize) len);
      return;
    }
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      if (text[i] == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, text[i]);
    }
  g_string_append_c (out, '"');
}

/* The row as one line of tagged plain JSON (docs/plain-json.md): numbers exact, binary as
 * {"$B": …}, maps, lists and sets as themselves, NULL cells as null. */
static gboolean
print_jsonl (DdbSqlQuery *query, GString *out, GError **error)
{
  g_autoptr (DdbValue) row = ddb_value_new_m ();
  g_autofree char *text = NULL;

  for (guint i = 0; i < ddb_sql_query_n_columns (query); i++)
    {
      const char *name = ddb_sql_query_column_name (query, i);

      if (ddb_value_map_get (row, name) == NULL)
        ddb_value_map_set (row, name, ddb_sql_query_value (query, i));
    }
  text = ddb_plain_format_value (row, DDB_PLAIN_TAGGED, error);
  if (text == NULL)
    return FALSE;
  g_string_append (out, text);
  g_string_append_c (out, '\n');
  return TRUE;
}

static void
print_table_row (GString *out, GPtrArray *cells, const guint *widths)
{
  for (guint i = 0; i < cells->len; i++)
    {
      const char *text = g_ptr_array_index (cells, i);
      glong chars = g_utf8_validate (text, -1, NULL) ? g_utf8_strlen (text, -1)
                                                      : (glong) strlen (text);

      if (i > 0)
        g_string_append (out, " | ");
      g_string_append (out, text);
      if (i + 1 < cells->len)
        for (glong pad = chars; pad < (glong) widths[i]; pad++)
          g_string_append_c (out, ' ');
    }
  g_string_append_c (out, '\n');
}

static guint
text_width (const char *text)
{
  return g_utf8_validate (text, -1, NULL) ? (guint) g_utf8_strlen (text, -1)
                                          : (guint) strlen (text);
}

/* The table format: the widths come from the first rows, which are held until then. */
static void
flush_table (GPtrArray *held, guint n_columns, guint *widths, gboolean *sized)
{
  GString *out = g_string_new (NULL);
  gboolean with_header = !*sized;

  if (!*sized)
    {
      for (guint r = 0; r < held->len; r++)
        {
          GPtrArray *cells = g_ptr_array_index (held, r);

          for (guint i = 0; i < n_columns; i++)
            widths[i] = MAX (widths[i], text_width (g_ptr_array_index (cells, i)));
        }
      *sized = TRUE;
    }
  for (guint r = 0; r < held->len; r++)
    {
      print_table_row (out, g_ptr_array_index (held, r), widths);
      if (r == 0 && with_header)
        {
          for (guint i = 0; i < n_columns; i++)
            {
              if (i > 0)
                g_string_append (out, "-+-");
              for (guint w = 0; w < MAX (widths[i], 1); w++)
                g_string_append_c (out, '-');
            }
          g_string_append_c (out, '\n');
        }
    }
  fwrite (out->str, 1, out->len, stdout);
  g_string_free (out, TRUE);
  g_ptr_array_set_size (held, 0);
}

static void
print_stats (DdbSqlQuery *query)
{
  DdbSqlStats s = { 0 };
  char rcu[G_ASCII_DTOSTR_BUF_SIZE];

  if (query != NULL)
    ddb_sql_query_stats (query, &s);
  g_ascii_formatd (rcu, sizeof rcu, "%.1f", s.rcu);
  fprintf (stderr, "requests=%" G_GUINT64_FORMAT " pages=%" G_GUINT64_FORMAT
                   " items_read=%" G_GUINT64_FORMAT " rcu=%s\n",
           s.requests, s.pages, s.items_read, rcu);
}

static int
report (DdbSql *sql, const GError *error)
{
  if (error->domain == DDB_ERROR)
    fprintf (stderr, "%s: %s\n",
             sql != NULL ? ddb_sql_error_name (sql, error) : ddb_backend_error_name (error, NULL),
             error->message);
  else
    fprintf (stderr, SQL_PREFIX "%s\n", error->message);
  return g_error_matches (error, DDB_SQL_ERROR, DDB_SQL_ERROR_CANCELLED) ? 130 : 1;
}

/* Runs QUERY to its end, printing each row in FORMAT. */
static gboolean
print_rows (DdbSqlQuery *query, Format format, GError **error)
{
  guint n = ddb_sql_query_n_columns (query);
  g_autoptr (GPtrArray) held = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autofree guint *widths = g_new0 (guint, MAX (n, 1));
  gboolean sized = FALSE;
  GString *out = g_string_new (NULL);
  GPtrArray *header = g_ptr_array_new_with_free_func (g_free);
  gboolean ok = TRUE;

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (header, g_strdup (ddb_sql_query_column_name (query, i)));
  if (format == FORMAT_TABLE)
    g_ptr_array_add (held, header);
  else
    {
      if (format == FORMAT_CSV)
        {
          for (guint i = 0; i < n; i++)
            {
              if (i > 0)
                g_string_append_c (out, ',');
              const char *name = g_ptr_array_index (header, i);

              print_csv_field (out, name, strlen (name));
            }
          g_string_append (out, "\r\n");
        }
      g_ptr_array_unref (header);
    }

  while (ok && ddb_sql_query_next (query, error))
    {
      if (format == FORMAT_JSONL)
        ok = print_jsonl (query, out, error);
      else if (format == FORMAT_CSV)
        {
          for (guint i = 0; i < n; i++)
            {
              gsize len;
              g_autofree char *text = cell_text (query, i, "", &len);

              if (i > 0)
                g_string_append_c (out, ',');
              print_csv_field (out, text, len);
            }
          g_string_append (out, "\r\n");
        }
      else
        {
          GPtrArray *cells = g_ptr_array_new_with_free_func (g_free);

          for (guint i = 0; i < n; i++)
            g_ptr_array_add (cells, table_cell_text (query, i));
          g_ptr_array_add (held, cells);
          if (held->len > TABLE_SAMPLE_ROWS || sized)
            flush_table (held, n, widths, &sized);
        }
      if (out->len > 65536)
        {
          fwrite (out->str, 1, out->len, stdout);
          g_string_truncate (out, 0);
        }
    }
  if (format == FORMAT_TABLE)
    flush_table (held, n, widths, &sized);
  fwrite (out->str, 1, out->len, stdout);
  g_string_free (out, TRUE);
  if (fflush (stdout) != 0 && ok)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _ ("cannot write the rows"));
      return FALSE;
    }
  return ok && (error == NULL || *error == NULL);
}

int
cli_sql_main (const CliTarget *target, int argc, char **argv)
{
  g_autofree char *format_name = NULL;
  g_auto (GStrv) columns = NULL;
  g_auto (GStrv) rest = NULL;
  gboolean explain = FALSE, stats = FALSE;
  gint segments = 0;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = NULL;
  g_autoptr (DdbSql) sql = NULL;
  g_autoptr (DdbSqlQuery) query = NULL;
  gboolean config_error = FALSE;
  Format format = FORMAT_TABLE;
  int status = 0;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      N_ ("How rows are printed: table (default), jsonl (one JSON object per row, tagged plain "
          "JSON) or csv"),
      N_ ("FORMAT") },
    { "explain", 0, 0, G_OPTION_ARG_NONE, &explain,
      N_ ("Print the plan in words (which Query or Scan reads each table) without reading"),
      NULL },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &stats,
      N_ ("Print on standard error: requests=N pages=P items_read=I rcu=R"), NULL },
    { "column", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &columns,
      N_ ("Add an attribute as a column of a table (any column a statement names is added "
          "too)"),
      N_ ("TABLE.ATTR") },
    { "segments", 0, 0, G_OPTION_ARG_INT, &segments,
      N_ ("Segments of a parallel Scan (default 4 for an endpoint, one per processor up to 4 "
          "for a database)"),
      N_ ("N") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_ ("'SELECT …'") },
    { NULL },
  };

  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      octx, _ ("Run one SQL query over the tables (\"Blog\") and indexes (\"Blog.ByAuthor\") of "
               "the database or the endpoint. Conditions on the partition key become Queries; "
               "anything else is a Scan. Columns: the key, the attributes seen in a sample, "
               "and hidden _item (DynamoDB JSON) and _size. Numbers stay exact and compare as "
               "numbers; sort a column mixing integers and decimals with ORDER BY ddb_n(x), sum "
               "with ddb_sum(x), take its least and greatest with ddb_min(x) and ddb_max(x). "
               "Only reads: writes, ATTACH, "
               "PRAGMAs and extensions are refused.\n\nExit status: 0; 1 on a SQL or DynamoDB "
               "error; 2 on a usage error; 130 when interrupted (the statistics so far are "
               "still printed)."));
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      fprintf (stderr, SQL_PREFIX "%s\n", error->message);
      return 2;
    }
  if (format_name != NULL)
    {
      if (strcmp (format_name, "table") == 0)
        format = FORMAT_TABLE;
      else if (strcmp (format_name, "jsonl") == 0)
        format = FORMAT_JSONL;
      else if (strcmp (format_name, "csv") == 0)
        format = FORMAT_CSV;
      else
        {
          fprintf (stderr, SQL_PREFIX "%s\n", _ ("--format is table, jsonl or csv"));
          return 2;
        }
    }
  if (rest == NULL || rest[0] == NULL || rest[1] != NULL)
    {
      fprintf (stderr, SQL_PREFIX "%s\n%s\n",
               rest == NULL || rest[0] == NULL ? _ ("missing the SQL") : _ ("too many arguments"),
               _ (SQL_USAGE));
      return 2;
    }
  if (segments < 0 || segments > 64)
    {
      fprintf (stderr, SQL_PREFIX "%s\n", _ ("--segments is 1 to 64"));
      return 2;
    }
  for (guint i = 0; columns != NULL && columns[i] != NULL; i++)
    if (strrchr (columns[i], '.') == NULL || strrchr (columns[i], '.') == columns[i]
        || strrchr (columns[i], '.')[1] == '\0')
      {
        fprintf (stderr, SQL_PREFIX "%s: %s\n", _ ("--column is TABLE.ATTR"), columns[i]);
        return 2;
      }

  backend = cli_target_open (target, &config_error, &error);
  if (backend == NULL)
    {
      fprintf (stderr, SQL_PREFIX "%s\n", error->message);
      return config_error ? 2 : 1;
    }
  sql = ddb_sql_new (backend, &error);
  if (sql == NULL)
    return report (sql, error);
  if (segments > 0)
    ddb_sql_set_scan_segments (sql, (guint) segments);
  cli_interrupt_calls ((CliInterruptFunc) ddb_sql_cancel, sql);
  for (guint i = 0; columns != NULL && columns[i] != NULL; i++)
    {
      g_autofree char *table = g_strndup (columns[i], (gsize) (strrchr (columns[i], '.')
                                                               - columns[i]));

      if (!ddb_sql_add_column (sql, table, strrchr (columns[i], '.') + 1, NULL, &error))
        {
          cli_interrupt_calls (NULL, NULL);
          return report (sql, error);
        }
    }

  if (explain)
    {
      g_autofree char *plan = ddb_sql_explain (sql, rest[0], NULL, NULL, &error);

      cli_interrupt_calls (NULL, NULL);
      if (plan == NULL)
        return report (sql, error);
      fputs (plan, stdout);
      if (stats)
        print_stats (NULL);
      return fflush (stdout) == 0 ? 0 : 1;
    }

  query = ddb_sql_query_new (sql, rest[0], NULL, &error);
  if (query == NULL)
    status = report (sql, error);
  else if (!print_rows (query, format, &error))
    status = report (sql, error);
  if (stats)
    print_stats (query);
  g_clear_pointer (&query, ddb_sql_query_free);
  cli_interrupt_calls (NULL, NULL);
  return status;
}
