/* snapshot-csv.c: CSV snapshots (RFC 4180 with a typed header row, see snapshot.h): reading
 * records and typing cells on import, choosing column types and writing records on export. */
#include <string.h>

#include "core/base64.h"
#include "core/ddbjson.h"
#include "core/error.h"
#include "core/plainjson.h"
#include "engine/snapshot-private.h"

/* ---- CSV ---- */
static const char *const csv_type_names[] = {
  [CSV_S] = "S",       [CSV_N] = "N",     [CSV_B] = "B",       [CSV_BOOL] = "BOOL",
  [CSV_NULL] = "NULL", [CSV_DDB] = "DDB", [CSV_JSON] = "JSON",
};

void
snap_csv_column_free (gpointer data)
{
  CsvColumn *c = data;

  g_free (c->name);
  g_free (c->header);
  g_free (c);
}

void
snap_csv_cell_free (gpointer data)
{
  CsvCell *c = data;

  g_string_free (c->text, TRUE);
  g_free (c);
}

/* One record (which a quoted cell may spread over several lines) into `cells`, reusing its
 * members; *ncells set. FALSE at the end (no error) or on error. Blank lines are skipped. */
gboolean
snap_csv_next_record (LineReader *lr, GPtrArray *cells, guint *ncells, guint64 *first_line,
                      const char *display, GError **error)
{
  const char *line;
  gsize len, i = 0;
  CsvCell *cell = NULL;
  enum { START, UNQUOTED, QUOTED, AFTER_QUOTE } state = START;
  GError *local = NULL;

  do
    {
      if (!snap_line_reader_next (lr, &line, &len, display, &local))
        {
          if (local != NULL)
            g_propagate_error (error, local);
          return FALSE;
        }
    }
  while (snap_is_blank (line, len));
  *first_line = lr->line;
  *ncells = 0;

  for (;;)
    {
      if (state == START)
        {
          if (*ncells == cells->len)
            {
              CsvCell *c = g_new0 (CsvCell, 1);
              c->text = g_string_new (NULL);
              g_ptr_array_add (cells, c);
            }
          cell = g_ptr_array_index (cells, *ncells);
          (*ncells)++;
          g_string_truncate (cell->text, 0);
          cell->quoted = FALSE;
          if (i < len && line[i] == '"')
            {
              cell->quoted = TRUE;
              state = QUOTED;
              i++;
            }
          else
            state = UNQUOTED;
        }

      if (state == UNQUOTED)
        {
          gsize s = i;

          while (i < len && line[i] != ',' && line[i] != '"')
            i++;
          g_string_append_len (cell->text, line + s, (gssize) (i - s));
          if (i < len && line[i] == '"')
            {
              g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "%s:%" G_GUINT64_FORMAT ": CSV: a quote inside an unquoted cell "
                           "(quote the whole cell and double the quote: \"\")",
                           display, lr->line);
              return FALSE;
            }
          if (i >= len)
            return TRUE;
          i++; /* ',' */
          state = START;
          continue;
        }

      if (state == QUOTED)
        {
          gsize s = i;

          while (i < len && line[i] != '"')
            i++;
          g_string_append_len (cell->text, line + s, (gssize) (i - s));
          if (i < len)
            {
              i++;
              state = AFTER_QUOTE;
              continue;
            }
          /* The cell goes on on the next line. */
          if (!snap_line_reader_next (lr, &line, &len, display, &local))
            {
              if (local != NULL)
                g_propagate_error (error, local);
              else
                g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                             "%s:%" G_GUINT64_FORMAT ": CSV: a quoted cell is not closed", display,
                             *first_line);
              return FALSE;
            }
          g_string_append_c (cell->text, '\n');
          i = 0;
          continue;
        }

      /* AFTER_QUOTE */
      if (i < len && line[i] == '"')
        {
          g_string_append_c (cell->text, '"');
          i++;
          state = QUOTED;
          continue;
        }
      if (i >= len)
        return TRUE;
      if (line[i] != ',')
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "%s:%" G_GUINT64_FORMAT ": CSV: unexpected text after a closing quote",
                       display, lr->line);
          return FALSE;
        }
      i++;
      state = START;
    }
}

/* "price (N)" -> name "price", CSV_N; anything else is an untyped name. */
CsvColumn *
snap_csv_column_new (const char *header)
{
  CsvColumn *c = g_new0 (CsvColumn, 1);
  gsize len = strlen (header);

  c->header = g_strdup (header);
  c->type = CSV_UNTYPED;
  if (len > 3 && header[len - 1] == ')')
    {
      const char *open = g_strrstr (header, " (");

      if (open != NULL)
        {
          g_autofree char *t = g_strndup (open + 2, header + len - 1 - (open + 2));

          for (guint k = 0; k < G_N_ELEMENTS (csv_type_names); k++)
            {
              if (strcmp (t, csv_type_names[k]) == 0)
                {
                  c->type = (CsvType) k;
                  len = (gsize) (open - header);
                  break;
                }
            }
        }
    }
  c->name = g_strndup (header, len);
  c->name_len = len;
  return c;
}

DdbValue *
snap_csv_cell_value (const CsvColumn *col, const CsvCell *cell, const DdbKeyDef *key,
                     GError **error)
{
  const char *s = cell->text->str;
  gsize len = cell->text->len;
  CsvType type = col->type;
  DdbNumber n;

  if (type == CSV_UNTYPED)
    {
      type = CSV_S;
      if (key != NULL && key->hash_name != NULL)
        {
          DdbType kt = DDB_TYPE_S;
          gboolean is_key = FALSE;

          if (strcmp (col->name, key->hash_name) == 0)
            kt = key->hash_type, is_key = TRUE;
          else if (key->range_name != NULL && strcmp (col->name, key->range_name) == 0)
            kt = key->range_type, is_key = TRUE;
          if (is_key)
            type = kt == DDB_TYPE_N ? CSV_N : kt == DDB_TYPE_B ? CSV_B : CSV_S;
        }
    }

  switch (type)
    {
    case CSV_S:
      if (!ddb_utf8_validate (s, len))
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, DDB_INVALID_UTF8_MESSAGE);
          return NULL;
        }
      return ddb_value_new_s (s, (gssize) len);
    case CSV_N:
      if (!ddb_number_parse (&n, s, (gssize) len, error))
        return NULL;
      return ddb_value_new_n (&n);
      case CSV_B: {
        gsize out_len;
        guchar *data = ddb_base64_decode (s, (gssize) len, &out_len, NULL, NULL);

        if (data == NULL)
          {
            g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                                 "Invalid base64 in a binary (B) cell");
            return NULL;
          }
        return ddb_value_take_bytes (DDB_TYPE_B, (char *) data, out_len);
      }
    case CSV_BOOL:
      if (g_ascii_strcasecmp (s, "true") == 0)
        return ddb_value_new_bool (TRUE);
      if (g_ascii_strcasecmp (s, "false") == 0)
        return ddb_value_new_bool (FALSE);
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "A BOOL cell must be true or false");
      return NULL;
    case CSV_NULL:
      return ddb_value_new_null ();
    case CSV_DDB:
      return ddb_json_parse_value (s, (gssize) len, error);
    case CSV_JSON:
      return ddb_plain_parse_value (s, (gssize) len, DDB_PLAIN_TAGGED, error);
    case CSV_UNTYPED:
    default:
      g_return_val_if_reached (NULL);
    }
}

/* ---- CSV output ---- */

static CsvType
csv_type_of (DdbType t)
{
  switch (t)
    {
    case DDB_TYPE_S:
      return CSV_S;
    case DDB_TYPE_N:
      return CSV_N;
    case DDB_TYPE_B:
      return CSV_B;
    case DDB_TYPE_BOOL:
      return CSV_BOOL;
    case DDB_TYPE_NULL:
      return CSV_NULL;
    default:
      return CSV_DDB;
    }
}

/* First pass: the columns in order of first appearance, each with one type if all its values
 * share a scalar type, else DDB. */
gboolean
snap_csv_collect_columns (const DdbValue *item, gpointer data, GError **error)
{
  ExportState *st = data;

  for (guint i = 0; i < ddb_value_map_size (item); i++)
    {
      DdbAttr *a = ddb_value_map_nth (item, i);
      guint idx = GPOINTER_TO_UINT (g_hash_table_lookup (st->column_index, a->name));
      CsvType t = csv_type_of (a->value->type);

      if (idx == 0)
        {
          CsvColumn *c = g_new0 (CsvColumn, 1);
          c->name = g_strndup (a->name, a->name_len);
          c->name_len = a->name_len;
          c->type = t;
          g_ptr_array_add (st->columns, c);
          g_hash_table_insert (st->column_index, c->name, GUINT_TO_POINTER (st->columns->len));
        }
      else
        {
          CsvColumn *c = g_ptr_array_index (st->columns, idx - 1);
          if (c->type != t)
            c->type = CSV_DDB;
        }
    }
  return !g_cancellable_set_error_if_cancelled (st->cancellable, error);
}

static void
csv_append_cell (GString *out, const char *s, gsize len, gboolean force_quotes)
{
  gboolean quote = force_quotes || len == 0;

  for (gsize i = 0; i < len && !quote; i++)
    if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
      quote = TRUE;
  /* A leading space or a trailing one would survive anyway; only syntax needs quotes. */
  if (!quote)
    {
      g_string_append_len (out, s, (gssize) len);
      return;
    }
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      if (s[i] == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, s[i]);
    }
  g_string_append_c (out, '"');
}

gboolean
snap_csv_write_item (const DdbValue *item, gpointer data, GError **error)
{
  ExportState *st = data;
  GString *out = st->w->buf;

  for (guint c = 0; c < st->columns->len; c++)
    {
      CsvColumn *col = g_ptr_array_index (st->columns, c);
      DdbValue *v = ddb_value_map_get_len (item, col->name, col->name_len);

      if (c > 0)
        g_string_append_c (out, ',');
      if (v == NULL)
        continue; /* absent: an empty unquoted cell */
      switch (col->type)
        {
        case CSV_S:
          csv_append_cell (out, v->bytes.data, v->bytes.len, FALSE);
          break;
        case CSV_N:
          ddb_number_append (&v->number, out);
          break;
          case CSV_B: {
            g_autofree char *b64 = ddb_base64_encode ((const guchar *) v->bytes.data, v->bytes.len);
            /* Quoted when empty, so that it reads back as present. */
            csv_append_cell (out, b64, strlen (b64), FALSE);
            break;
          }
        case CSV_BOOL:
          g_string_append (out, v->boolean ? "true" : "false");
          break;
        case CSV_NULL:
          g_string_append (out, "true");
          break;
          default: {
            g_autofree char *text = ddb_json_format_value (v);
            csv_append_cell (out, text, strlen (text), FALSE);
            break;
          }
        }
    }
  g_string_append (out, "\r\n");
  return snap_export_tick (st, error);
}

void
snap_csv_write_header (ExportState *st)
{
  for (guint c = 0; c < st->columns->len; c++)
    {
      CsvColumn *col = g_ptr_array_index (st->columns, c);
      g_autofree char *header = NULL;

      if (c > 0)
        g_string_append_c (st->w->buf, ',');
      /* S columns carry no suffix, unless the name itself looks like a typed header. */
      if (col->type == CSV_S)
        {
          CsvColumn *parsed = snap_csv_column_new (col->name);
          gboolean ambiguous = parsed->type != CSV_UNTYPED;
          snap_csv_column_free (parsed);
          header = ambiguous ? g_strdup_printf ("%s (S)", col->name) : g_strdup (col->name);
        }
      else
        header = g_strdup_printf ("%s (%s)", col->name, csv_type_names[col->type]);
      csv_append_cell (st->w->buf, header, strlen (header), FALSE);
    }
  g_string_append (st->w->buf, "\r\n");
}
