/* sql-item.c: an item's columns (as values, not JSON) as SQLite values: S -> TEXT, N -> INTEGER when it fits exactly
 * else its canonical decimal TEXT, B -> BLOB, BOOL -> 0/1, NULL -> NULL, M/L/sets -> tagged
 * plain JSON text (docs/plain-json.md), _item -> DynamoDB JSON, _size -> bytes as DynamoDB
 * counts them. */
#include <string.h>

#include "core/ddbjson.h"
#include "core/itemsize.h"
#include "core/number.h"
#include "core/plainjson.h"
#include "sql/sql-private.h"

void
sql_cell_clear (SqlCell *cell)
{
  g_free (cell->owned);
  memset (cell, 0, sizeof *cell);
  cell->type = SQLITE_NULL;
}

void
sql_cell_result (sqlite3_context *ctx, SqlCell *cell)
{
  switch (cell->type)
    {
    case SQLITE_INTEGER:
      sqlite3_result_int64 (ctx, cell->i);
      break;
    case SQLITE_TEXT:
      sqlite3_result_text64 (ctx, cell->data, cell->len,
                             cell->owned != NULL ? g_free : SQLITE_TRANSIENT, SQLITE_UTF8);
      cell->owned = NULL;
      break;
    case SQLITE_BLOB:
      sqlite3_result_blob64 (ctx, cell->data, cell->len,
                             cell->owned != NULL ? g_free : SQLITE_TRANSIENT);
      cell->owned = NULL;
      break;
    default:
      sqlite3_result_null (ctx);
    }
  sql_cell_clear (cell);
}

static void
set_text (SqlCell *cell, char *owned, gsize len)
{
  cell->type = SQLITE_TEXT;
  cell->owned = owned;
  cell->data = owned;
  cell->len = len;
}

/* VALUE: an attribute's value, NULL for a missing attribute. */
static void
attribute_cell (SqlCell *cell, const DdbValue *value)
{
  char *text;

  sql_cell_clear (cell);
  if (value == NULL)
    return;
  switch (value->type)
    {
    case DDB_TYPE_S:
      cell->type = SQLITE_TEXT;
      cell->data = value->bytes.data;
      cell->len = value->bytes.len;
      break;
    case DDB_TYPE_B:
      cell->type = SQLITE_BLOB;
      cell->data = value->bytes.data;
      cell->len = value->bytes.len;
      break;
    case DDB_TYPE_N:
      if (sql_number_int64 (&value->number, &cell->i))
        cell->type = SQLITE_INTEGER;
      else
        {
          text = ddb_number_to_string (&value->number);
          set_text (cell, text, strlen (text));
        }
      break;
    case DDB_TYPE_BOOL:
      cell->type = SQLITE_INTEGER;
      cell->i = value->boolean;
      break;
    case DDB_TYPE_NULL:
      break;
    default:
      /* M, L and sets: tagged plain JSON, which reads back as exactly this value. */
      text = ddb_plain_format_value (value, DDB_PLAIN_TAGGED, NULL);
      if (text != NULL)
        set_text (cell, text, strlen (text));
    }
}

void
sql_item_cell (SqlTable *table, const DdbValue *item, int column, SqlCell *cell)
{
  memset (cell, 0, sizeof *cell);
  cell->type = SQLITE_NULL;
  if (column >= 0 && (guint) column < table->columns->len)
    {
      SqlColumn *c = g_ptr_array_index (table->columns, column);

      attribute_cell (cell, ddb_value_map_get (item, c->name));
    }
  else if (column == SQL_COL_ITEM (table))
    {
      char *text = ddb_json_format_item (item);

      if (text != NULL)
        set_text (cell, text, strlen (text));
    }
  else if (column == SQL_COL_SIZE (table))
    {
      cell->type = SQLITE_INTEGER;
      cell->i = (gint64) ddb_item_size (item);
    }
}
