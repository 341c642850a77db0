/* test-partiql.c: the PartiQL mode's GTK-free parts (no display): a statement's kind and table,
 * the parameters typed for its placeholders (literals and DynamoDB JSON, numbers to the digit,
 * errors naming the parameter), the columns a page of items adds to the grid, and the SQL
 * history keeping each statement's language. */
#define G_LOG_DOMAIN "test-partiql"

#include <gio/gio.h>

#include <glib/gstdio.h>

#include "app/sql/dy-partiql.h"
#include "app/sql/dy-sql-history.h"

static void
assert_kind (const char *statement, DyPartiqlKind expected, const char *table)
{
  g_autofree char *found = NULL;

  g_assert_cmpint (dy_partiql_kind (statement, &found), ==, expected);
  g_assert_cmpstr (found, ==, table);
}

static void
test_kind (void)
{
  assert_kind ("SELECT * FROM Blog WHERE PK = 'USER#12'", DY_PARTIQL_READ, "Blog");
  assert_kind ("select a from \"My \"\"odd\"\" table\".\"ByAuthor\"", DY_PARTIQL_READ,
               "My \"odd\" table");
  /* a FROM inside a string or a quoted name is not the clause */
  assert_kind ("SELECT \"from\" FROM T WHERE a = 'x from y'", DY_PARTIQL_READ, "T");
  assert_kind ("  -- a note\n  INSERT INTO \"Orders\" VALUE {'a': 1}", DY_PARTIQL_INSERT, "Orders");
  assert_kind ("update Blog SET x = 1 WHERE PK = 'a' RETURNING ALL NEW *", DY_PARTIQL_UPDATE,
               "Blog");
  assert_kind ("/* c */ DELETE FROM Workspaces WHERE EntityRef = 'WS#acme'", DY_PARTIQL_DELETE,
               "Workspaces");
  /* a word that only starts like a write is not one */
  assert_kind ("UPDATED", DY_PARTIQL_READ, NULL);
  assert_kind ("", DY_PARTIQL_READ, NULL);
  g_assert_cmpstr (dy_partiql_kind_name (DY_PARTIQL_DELETE), ==, "DELETE");
}

static void
assert_parameters (const char *text, const char *expected)
{
  g_autoptr (GError) error = NULL;
  json_t *values = dy_partiql_parse_parameters (text, &error);
  json_t *want = json_loads (expected, 0, NULL);

  g_assert_no_error (error);
  g_assert_nonnull (want);
  if (!json_equal (values, want))
    {
      g_autofree char *got = json_dumps (values, JSON_COMPACT);

      g_error ("%s: got %s, expected %s", text, got, expected);
    }
  json_decref (values);
  json_decref (want);
}

static void
assert_parameters_error (const char *text, const char *message)
{
  g_autoptr (GError) error = NULL;

  g_assert_null (dy_partiql_parse_parameters (text, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  if (g_strstr_len (error->message, -1, message) == NULL)
    g_error ("%s: the error \"%s\" does not say \"%s\"", text, error->message, message);
}

static void
test_parameters (void)
{
  assert_parameters ("", "[]");
  assert_parameters ("  \n ", "[]");
  assert_parameters ("'USER#12'", "[{\"S\": \"USER#12\"}]");
  assert_parameters (
      "'it''s, here', 12345678901234567890123456789012345678",
      "[{\"S\": \"it's, here\"}, {\"N\": \"12345678901234567890123456789012345678\"}]");
  assert_parameters (
      "TRUE\nfalse\nNULL, -0.5e3",
      "[{\"BOOL\": true}, {\"BOOL\": false}, {\"NULL\": true}, {\"N\": \"-0.5e3\"}]");
  assert_parameters ("{\"S\": \"a}b\"}, {\"SS\": [\"x\", \"y\"]}\n{\"B\": \"3q2+7w==\"}",
                     "[{\"S\": \"a}b\"}, {\"SS\": [\"x\", \"y\"]}, {\"B\": \"3q2+7w==\"}]");
  assert_parameters ("{\"M\": {\"k\": {\"L\": [{\"N\": \"1\"}]}}}",
                     "[{\"M\": {\"k\": {\"L\": [{\"N\": \"1\"}]}}}]");
  assert_parameters ("[{\"S\": \"a\"}, {\"N\": \"2\"}]", "[{\"S\": \"a\"}, {\"N\": \"2\"}]");

  assert_parameters_error ("'a', 'b", "Parameter 2: the string has no closing quote");
  assert_parameters_error ("'a', nope", "Parameter 2: “nope” is not a value");
  assert_parameters_error ("{\"S\": 1}", "Parameter 1:");
  assert_parameters_error ("'a' 'b'", "Parameter 1: a comma or a new line should follow it");
  assert_parameters_error ("[{\"X\": \"a\"}]", "Parameter 1:");
  assert_parameters_error ("[{\"S\": \"a\"", "Parameters:");
  /* DynamoDB's number rules: past 38 digits is refused before it is sent */
  assert_parameters_error ("123456789012345678901234567890123456789", "Parameter 1:");
  assert_parameters_error ("{\"SS\": [\"a\", \"a\"]}", "Parameter 1:");
}

static GPtrArray *
names (const char *first, ...)
{
  GPtrArray *array = g_ptr_array_new ();
  va_list args;

  va_start (args, first);
  for (const char *n = first; n != NULL; n = va_arg (args, const char *))
    g_ptr_array_add (array, (char *) n);
  va_end (args);
  return array;
}

static void
assert_added (GPtrArray *added, const char *const *expected)
{
  g_assert_cmpuint (added->len, ==, g_strv_length ((char **) expected));
  for (guint i = 0; i < added->len; i++)
    g_assert_cmpstr (added->pdata[i], ==, expected[i]);
  g_ptr_array_unref (added);
}

static void
test_columns (void)
{
  const char *const keys[] = { "PK", "SK", NULL };
  const char *const none[] = { NULL };
  const char *const shown[] = { "PK", "SK", "name", NULL };
  g_autoptr (GPtrArray) first = names ("name", "SK", "PK", "email", NULL);
  g_autoptr (GPtrArray) later = names ("PK", "title", "SK", "name", "views", NULL);
  g_autoptr (GPtrArray) projected = names ("email", NULL);
  const char *const e1[] = { "PK", "SK", "name", "email", NULL };
  const char *const e2[] = { "title", "views", NULL };
  const char *const e3[] = { "email", NULL };
  const char *const e4[] = { "name", "SK", "PK", "email", NULL };

  /* the key first, then the rest as the page has them */
  assert_added (dy_partiql_new_columns (none, first, keys), e1);
  /* a later page adds only what is new */
  assert_added (dy_partiql_new_columns (shown, later, keys), e2);
  /* a projection without the key */
  assert_added (dy_partiql_new_columns (NULL, projected, keys), e3);
  /* no key known: the page's order */
  assert_added (dy_partiql_new_columns (none, first, NULL), e4);
}

/* The history keeps each statement's language, in its file too. */
static void
test_history_mode (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-partiql-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "sql-history.json", NULL);
  g_autoptr (DySqlHistory) history = dy_sql_history_new (path);
  g_autoptr (DySqlHistory) again = NULL;

  dy_sql_history_add (history, "SELECT * FROM Blog");
  dy_sql_history_add_in_mode (history, "SELECT * FROM Blog", DY_SQL_MODE_PARTIQL);
  dy_sql_history_add_in_mode (history, "SELECT * FROM \"Orders\"", DY_SQL_MODE_PARTIQL);
  /* the same text in the same language moves up, it is not kept twice */
  dy_sql_history_add (history, "SELECT * FROM Blog");
  g_assert_cmpuint (dy_sql_history_get_n_statements (history), ==, 3);
  g_assert_cmpstr (dy_sql_history_get_statement (history, 0), ==, "SELECT * FROM Blog");
  g_assert_cmpint (dy_sql_history_get_mode (history, 0), ==, DY_SQL_MODE_SQL);
  g_assert_cmpint (dy_sql_history_get_mode (history, 1), ==, DY_SQL_MODE_PARTIQL);
  g_assert_cmpstr (dy_sql_history_get_statement (history, 2), ==, "SELECT * FROM Blog");
  g_assert_cmpint (dy_sql_history_get_mode (history, 2), ==, DY_SQL_MODE_PARTIQL);
  while (dy_sql_history_get_saving (history))
    g_main_context_iteration (NULL, TRUE);

  again = dy_sql_history_new (path);
  g_assert_cmpuint (dy_sql_history_get_n_statements (again), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpstr (dy_sql_history_get_statement (again, i), ==,
                       dy_sql_history_get_statement (history, i));
      g_assert_cmpint (dy_sql_history_get_mode (again, i), ==,
                       dy_sql_history_get_mode (history, i));
    }
  g_assert_cmpint (dy_sql_history_get_mode (again, 3), ==, DY_SQL_MODE_SQL);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/partiql/kind", test_kind);
  g_test_add_func ("/partiql/parameters", test_parameters);
  g_test_add_func ("/partiql/columns", test_columns);
  g_test_add_func ("/partiql/history-mode", test_history_mode);
  return g_test_run ();
}
