/* sql-lookup.c: rows in memory for a JOIN. Each row is the cells of the columns the statement
 * uses, one after the other in one buffer (a tag byte, then 8 bytes of INTEGER or a 4-byte
 * length and the bytes), and a hash table maps the key column's value, normalized so that
 * values SQLite finds equal share a key (a 4-byte length, then the bytes), to the rows holding
 * it; a key is built in a scratch buffer, so finding rows allocates nothing. Reading a row's
 * cells in their order goes on from the cell read before. */
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
  GHashTable *by_key; /* key -> GArray of guint rows; NULL without a key column */
  GByteArray *scratch; /* the key being built */
  gsize overhead;
  /* The cell read last: its row, slot and where the next cell starts. */
  guint last_row;
  int last_slot;
  guint64 last_next; /* an offset in data, which may move as it grows */
};

static guint
key_hash (gconstpointer key)
{
  guint32 len;
  const guint8 *p = key;
  guint h = 2166136261u;

  memcpy (&len, p, sizeof len);
  p += sizeof len;
  for (guint32 i = 0; i < len; i++)
    h = (h ^ p[i]) * 16777619u;
  return h;
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  guint32 la, lb;

  memcpy (&la, a, sizeof la);
  memcpy (&lb, b, sizeof lb);
  return la == lb
         && memcmp ((const guint8 *) a + sizeof la, (const guint8 *) b + sizeof lb, la) == 0;
}

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
    lookup->by_key = g_hash_table_new_full (key_hash, key_equal, g_free, rows_free);
  lookup->scratch = g_byte_array_new ();
  lookup->last_slot = -1;
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
  g_byte_array_unref (lookup->scratch);
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

static void
key_put (GByteArray *key, guint8 tag, const void *data, gsize len)
{
  guint32 n = (guint32) (len + 1);

  g_byte_array_set_size (key, 0);
  g_byte_array_append (key, (const guint8 *) &n, sizeof n);
  g_byte_array_append (key, &tag, 1);
  g_byte_array_append (key, data, (guint) len);
}

/* The normalized key of a value, into the lookup's scratch buffer: in a column of numbers, any
 * number (INTEGER, REAL, decimal TEXT) "n" + its canonical text, so equal numbers meet; else
 * INTEGER (and a REAL that is one) "i" + 8 bytes, another REAL "r" + 8 bytes, TEXT "t" + bytes,
 * BLOB "b" + bytes. FALSE for NULL, which equals nothing. */
static gboolean
normalize (SqlLookup *lookup, int type, gint64 i, double d, const char *data, gsize len)
{
  GByteArray *key = lookup->scratch;

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

          key_put (key, 'n', canonical, strlen (canonical));
          return TRUE;
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
      key_put (key, 'r', &d, sizeof d);
      return TRUE;
    case SQLITE_INTEGER:
    integer:
      key_put (key, 'i', &i, sizeof i);
      return TRUE;
    case SQLITE_TEXT:
      key_put (key, 't', data, len);
      return TRUE;
    case SQLITE_BLOB:
      key_put (key, 'b', data, len);
      return TRUE;
    default:
      return FALSE;
    }
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
  gboolean keyed = FALSE;

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
          return FALSE;
        }
      if (c == lookup->key_column)
        keyed = normalize (lookup, cell.type, cell.i, 0, cell.data, cell.len);
      append_cell (lookup->data, &cell);
      sql_cell_clear (&cell);
    }
  g_array_append_val (lookup->offsets, offset);
  if (keyed)
    {
      GArray *rows = g_hash_table_lookup (lookup->by_key, lookup->scratch->data);

      if (rows == NULL)
        {
          rows = g_array_new (FALSE, FALSE, sizeof (guint));
          lookup->overhead += 64 + lookup->scratch->len;
          g_hash_table_insert (lookup->by_key,
                               g_memdup2 (lookup->scratch->data, lookup->scratch->len), rows);
        }
      g_array_append_val (rows, row);
      lookup->overhead += sizeof (guint);
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
  GArray *found;

  *rows = NULL;
  if (value == NULL || lookup->by_key == NULL)
    return 0;
  if (!normalize (lookup, sqlite3_value_type (value), sqlite3_value_int64 (value),
                  sqlite3_value_double (value), (const char *) sqlite3_value_blob (value),
                  (gsize) sqlite3_value_bytes (value))
      || (found = g_hash_table_lookup (lookup->by_key, lookup->scratch->data)) == NULL)
    return 0;
  *rows = (const guint *) found->data;
  return found->len;
}

gboolean
sql_lookup_cell (SqlLookup *lookup, guint row, int column, SqlCell *cell)
{
  const guint8 *p;
  int slot, s = 0;

  memset (cell, 0, sizeof *cell);
  cell->type = SQLITE_NULL;
  if (column < 0 || column >= lookup->n_columns || (slot = lookup->slot[column]) < 0
      || row >= lookup->offsets->len)
    return FALSE;
  /* Cells are read in their order: go on from the last one read in this row. */
  if (row == lookup->last_row && lookup->last_slot >= 0 && slot > lookup->last_slot)
    {
      p = lookup->data->data + lookup->last_next;
      s = lookup->last_slot + 1;
    }
  else
    p = lookup->data->data + g_array_index (lookup->offsets, guint64, row);
  for (;; s++)
    {
      guint8 tag = *p++;
      guint32 len = 0;

      if (tag == SQLITE_INTEGER)
        len = sizeof (gint64);
      else if (tag == SQLITE_TEXT || tag == SQLITE_BLOB)
        {
          memcpy (&len, p, sizeof len);
          p += sizeof len;
        }
      if (s == slot)
        {
          cell->type = tag;
          if (tag == SQLITE_INTEGER)
            memcpy (&cell->i, p, sizeof cell->i);
          else if (tag == SQLITE_TEXT || tag == SQLITE_BLOB)
            {
              cell->data = (const char *) p;
              cell->len = len;
            }
          lookup->last_row = row;
          lookup->last_slot = slot;
          lookup->last_next = (guint64) (p + len - lookup->data->data);
          return TRUE;
        }
      p += len;
    }
}

void
sql_lookup_column (SqlLookup *lookup, guint row, sqlite3_context *ctx, int column)
{
  SqlCell cell;

  sql_lookup_cell (lookup, row, column, &cell);
  sql_cell_result (ctx, &cell); /* borrowed bytes: SQLite copies them */
}
