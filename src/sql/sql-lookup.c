/* sql-lookup.c: rows in memory for a JOIN. Each row is the cells of the columns the statement
 * uses, one after the other in one buffer (a tag byte, then 8 bytes of INTEGER or a 4-byte
 * length and the bytes), and a hash table maps the key column's value, normalized so that
 * values SQLite finds equal share a key, to the rows holding it. */
#include <string.h>

#include "core/number.h"
#include "sql/sql-lookup.h"

struct _SqlLookup {
  SqlTable *table;
  int key_column;
  int *slot;          /* column -> position among the stored cells, -1: not stored */
  int n_columns;      /* columns the slot map covers */
  int n_stored;
  GByteArray *data;
  GArray *offsets;    /* guint64: where each row starts */
  GHashTable *by_key; /* GBytes -> GArray of guint rows */
  gsize overhead;
};

static void
rows_free (gpointer data)
{
  g_array_unref (data);
}

SqlLookup *
sql_lookup_new (SqlTable *table, guint64 columns_used, int key_column)
{
  SqlLookup *lookup = g_new0 (SqlLookup, 1);

  lookup->table = table;
  lookup->key_column = key_column;
  lookup->n_columns = SQL_COL_SIZE (table) + 1;
  lookup->slot = g_new (int, lookup->n_columns);
  for (int c = 0; c < lookup->n_columns; c++)
    {
      /* colUsed's last bit stands for every column from 63 on. */
      gboolean used = c == key_column || (columns_used & ((guint64) 1 << MIN (c, 63))) != 0;

      lookup->slot[c] = used ? lookup->n_stored++ : -1;
    }
  lookup->data = g_byte_array_new ();
  lookup->offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  if (key_column >= 0)
    lookup->by_key = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                            (GDestroyNotify) g_bytes_unref, rows_free);
  return lookup;
}

void
sql_lookup_free (SqlLookup *lookup)
{
  if (lookup == NULL)
    return;
  g_free (lookup->slot);
  g_byte_array_unref (lookup->data);
  g_array_unref (lookup->offsets);
  if (lookup->by_key != NULL)
    g_hash_table_unref (lookup->by_key);
  g_free (lookup);
}

guint
sql_lookup_n_rows (SqlLookup *lookup)
{
  return lookup->offsets->len;
}

gsize
sql_lookup_bytes (SqlLookup *lookup)
{
  return lookup->data->len + lookup->offsets->len * sizeof (guint64) + lookup->overhead;
}

/* The normalized key of a value: in a column of numbers, any number (INTEGER, REAL, decimal
 * TEXT) "n" + its canonical text, so equal numbers meet; else INTEGER (and a REAL that is one)
 * "i" + 8 bytes, another REAL "r" + 8 bytes, TEXT "t" + bytes, BLOB "b" + bytes. NULL equals
 * nothing. */
static GBytes *
normalize (SqlLookup *lookup, int type, gint64 i, double d, const char *data, gsize len)
{
  GByteArray *key = g_byte_array_new ();
  guint8 tag;

  if (sql_column_is_number (lookup->table, lookup->key_column)
      && (type == SQLITE_INTEGER || type == SQLITE_FLOAT || type == SQLITE_TEXT))
    {
      DdbNumber n;
      char buf[64];
      gboolean is_number;

      if (type == SQLITE_INTEGER)
        {
          ddb_number_set_int (&n, i);
          is_number = TRUE;
        }
      else if (type == SQLITE_FLOAT)
        {
          sql_double_text (d, buf, sizeof buf);
          is_number = ddb_number_parse (&n, buf, -1, NULL);
        }
      else
        is_number = ddb_number_parse (&n, data, (gssize) len, NULL);
      if (is_number)
        {
          g_autofree char *canonical = ddb_number_to_string (&n);

          tag = 'n';
          g_byte_array_append (key, &tag, 1);
          g_byte_array_append (key, (const guint8 *) canonical, (guint) strlen (canonical));
          return g_byte_array_free_to_bytes (key);
        }
    }
  switch (type)
    {
    case SQLITE_FLOAT:
      if (d >= -9.2e18 && d <= 9.2e18 && d == (double) (gint64) d)
        {
          i = (gint64) d;
          goto integer;
        }
      tag = 'r';
      g_byte_array_append (key, &tag, 1);
      g_byte_array_append (key, (const guint8 *) &d, sizeof d);
      break;
    case SQLITE_INTEGER:
    integer:
      tag = 'i';
      g_byte_array_append (key, &tag, 1);
      g_byte_array_append (key, (const guint8 *) &i, sizeof i);
      break;
    case SQLITE_TEXT:
      {
        tag = 't';
        g_byte_array_append (key, &tag, 1);
        g_byte_array_append (key, (const guint8 *) data, (guint) len);
        break;
      }
    case SQLITE_BLOB:
      tag = 'b';
      g_byte_array_append (key, &tag, 1);
      g_byte_array_append (key, (const guint8 *) data, (guint) len);
      break;
    default:
      g_byte_array_unref (key);
      return NULL;
    }
  return g_byte_array_free_to_bytes (key);
}

static void
append_cell (GByteArray *data, const SqlCell *cell)
{
  guint8 tag = (guint8) cell->type;
  guint32 len = (guint32) cell->len;

  g_byte_array_append (data, &tag, 1);
  if (cell->type == SQLITE_INTEGER)
    g_byte_array_append (data, (const guint8 *) &cell->i, sizeof cell->i);
  else if (cell->type == SQLITE_TEXT || cell->type == SQLITE_BLOB)
    {
      g_byte_array_append (data, (const guint8 *) &len, sizeof len);
      g_byte_array_append (data, (const guint8 *) cell->data, len);
    }
}

/* Where a row's cells come from: an item, or another lookup's row. */
typedef struct {
  const DdbValue *item;
  SqlLookup *from;
  guint row;
} Source;

static gboolean
add (SqlLookup *lookup, const Source *source)
{
  guint64 offset = lookup->data->len;
  guint row = lookup->offsets->len;
  GBytes *key = NULL;

  if (row == G_MAXUINT)
    return FALSE;
  for (int c = 0; c < lookup->n_columns; c++)
    {
      SqlCell cell;

      if (lookup->slot[c] < 0)
        continue;
      if (source->item != NULL)
        sql_item_cell (lookup->table, source->item, c, &cell);
      else
        sql_lookup_cell (source->from, source->row, c, &cell);
      if (cell.len > G_MAXUINT32)
        {
          sql_cell_clear (&cell);
          g_byte_array_set_size (lookup->data, (guint) offset);
          g_clear_pointer (&key, g_bytes_unref);
          return FALSE;
        }
      if (c == lookup->key_column)
        key = normalize (lookup, cell.type, cell.i, 0, cell.data, cell.len);
      append_cell (lookup->data, &cell);
      sql_cell_clear (&cell);
    }
  g_array_append_val (lookup->offsets, offset);
  if (key != NULL)
    {
      GArray *rows = g_hash_table_lookup (lookup->by_key, key);

      if (rows == NULL)
        {
          rows = g_array_new (FALSE, FALSE, sizeof (guint));
          lookup->overhead += 64 + g_bytes_get_size (key);
          g_hash_table_insert (lookup->by_key, g_bytes_ref (key), rows);
        }
      g_array_append_val (rows, row);
      lookup->overhead += sizeof (guint);
      g_bytes_unref (key);
    }
  return TRUE;
}

gboolean
sql_lookup_add (SqlLookup *lookup, const DdbValue *item)
{
  Source source = { item, NULL, 0 };

  return add (lookup, &source);
}

gboolean
sql_lookup_add_row (SqlLookup *lookup, SqlLookup *from, guint row)
{
  Source source = { NULL, from, row };

  return add (lookup, &source);
}

guint
sql_lookup_find (SqlLookup *lookup, sqlite3_value *value, const guint **rows)
{
  g_autoptr (GBytes) key = NULL;
  GArray *found;

  *rows = NULL;
  if (value == NULL || lookup->by_key == NULL)
    return 0;
  key = normalize (lookup, sqlite3_value_type (value), sqlite3_value_int64 (value),
                   sqlite3_value_double (value), (const char *) sqlite3_value_blob (value),
                   (gsize) sqlite3_value_bytes (value));
  if (key == NULL || (found = g_hash_table_lookup (lookup->by_key, key)) == NULL)
    return 0;
  *rows = (const guint *) found->data;
  return found->len;
}

gboolean
sql_lookup_cell (SqlLookup *lookup, guint row, int column, SqlCell *cell)
{
  const guint8 *p;
  int slot;

  memset (cell, 0, sizeof *cell);
  cell->type = SQLITE_NULL;
  if (column < 0 || column >= lookup->n_columns || (slot = lookup->slot[column]) < 0
      || row >= lookup->offsets->len)
    return FALSE;
  p = lookup->data->data + g_array_index (lookup->offsets, guint64, row);
  for (int s = 0;; s++)
    {
      guint8 tag = *p++;
      guint32 len = 0;

      if (tag == SQLITE_INTEGER)
        {
          if (s == slot)
            {
              cell->type = SQLITE_INTEGER;
              memcpy (&cell->i, p, sizeof cell->i);
              return TRUE;
            }
          p += sizeof (gint64);
          continue;
        }
      if (tag == SQLITE_TEXT || tag == SQLITE_BLOB)
        {
          memcpy (&len, p, sizeof len);
          p += sizeof len;
          if (s == slot)
            {
              cell->type = tag;
              cell->data = (const char *) p;
              cell->len = len;
              return TRUE;
            }
          p += len;
          continue;
        }
      if (s == slot)
        return TRUE;
    }
}

void
sql_lookup_column (SqlLookup *lookup, guint row, sqlite3_context *ctx, int column)
{
  SqlCell cell;

  sql_lookup_cell (lookup, row, column, &cell);
  sql_cell_result (ctx, &cell); /* borrowed bytes: SQLite copies them */
}
