/* sql-item.c: an item's columns as SQLite values: S -> TEXT, N -> INTEGER when it fits exactly
 * else its canonical decimal TEXT, B -> BLOB, BOOL -> 0/1, NULL -> NULL, M/L/sets -> tagged
 * plain JSON text (docs/plain-json.md), _item -> DynamoDB JSON, _size -> bytes as DynamoDB
 * counts them. */
#include <string.h>

#include "core/base64.h"
#include "core/ddbjson.h"
#include "core/itemsize.h"
#include "core/number.h"
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

static void
number_cell (SqlCell *cell, const char *text)
{
  DdbNumber n;

  if (text == NULL)
    return;
  if (sql_number_text_int64 (text, strlen (text), &cell->i))
    cell->type = SQLITE_INTEGER;
  else if (ddb_number_parse (&n, text, -1, NULL))
    {
      char *canonical = ddb_number_to_string (&n);

      set_text (cell, canonical, strlen (canonical));
    }
}

/* VALUE: a DynamoDB JSON attribute value ({"S": …}), NULL for a missing attribute. */
static void
attribute_cell (SqlCell *cell, json_t *value)
{
  const char *type;
  json_t *payload;

  sql_cell_clear (cell);
  if (value == NULL || !json_is_object (value) || json_object_size (value) != 1)
    return;
  type = json_object_iter_key (json_object_iter (value));
  payload = json_object_iter_value (json_object_iter (value));
  if (strcmp (type, "S") == 0 && json_is_string (payload))
    {
      cell->type = SQLITE_TEXT;
      cell->data = json_string_value (payload);
      cell->len = json_string_length (payload);
    }
  else if (strcmp (type, "N") == 0)
    number_cell (cell, json_string_value (payload));
  else if (strcmp (type, "BOOL") == 0)
    {
      cell->type = SQLITE_INTEGER;
      cell->i = json_is_true (payload);
    }
  else if (strcmp (type, "NULL") == 0)
    return;
  else if (strcmp (type, "B") == 0)
    {
      gsize len = 0;
      guchar *data = ddb_base64_decode (json_string_value (payload), -1, &len, NULL, NULL);

      if (data == NULL)
        return;
      cell->type = SQLITE_BLOB;
      cell->owned = data;
      cell->data = (const char *) data;
      cell->len = len;
    }
  else
    {
      GString *text = g_string_new (NULL);
      gsize len;

      sql_append_plain_json (text, value);
      len = text->len;
      set_text (cell, g_string_free (text, FALSE), len);
    }
}

void
sql_item_cell (SqlTable *table, json_t *item, int column, SqlCell *cell)
{
  memset (cell, 0, sizeof *cell);
  cell->type = SQLITE_NULL;
  if (column >= 0 && (guint) column < table->columns->len)
    {
      SqlColumn *c = g_ptr_array_index (table->columns, column);

      attribute_cell (cell, json_object_get (item, c->name));
    }
  else if (column == SQL_COL_ITEM (table))
    {
      char *text = json_dumps (item, JSON_COMPACT);

      if (text != NULL)
        set_text (cell, text, strlen (text));
    }
  else if (column == SQL_COL_SIZE (table))
    {
      g_autoptr (DdbValue) v = ddb_json_to_item (item, NULL);

      if (v != NULL)
        {
          cell->type = SQLITE_INTEGER;
          cell->i = (gint64) ddb_item_size (v);
        }
    }
}

void
sql_item_column (SqlTable *table, json_t *item, sqlite3_context *ctx, int column)
{
  SqlCell cell;

  sql_item_cell (table, item, column, &cell);
  sql_cell_result (ctx, &cell);
}
