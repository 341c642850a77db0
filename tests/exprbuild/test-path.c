/* test-path.c: document paths as people type them: elements, quoted names, the known-names
 * helper, errors that point at the character, and text that reads back as the same path. */
#include "exprbuild/exprbuild.h"
#include "../core/test-util.h"

/* "a|b|[2]|c": the elements a path must read as. */
static void
check (const char *text, const char *elements, const char *canonical)
{
  DdbPath p;
  GError *error = NULL;
  g_auto (GStrv) want = g_strsplit (elements, "|", -1);
  g_autofree char *back = NULL;
  DdbPath again;

  if (!ddb_eb_path_parse (text, &p, &error))
    g_error ("%s refused: %s", text, error->message);
  g_assert_cmpuint (p.n, ==, g_strv_length (want));
  for (guint i = 0; i < p.n; i++)
    {
      g_autofree char *got = p.elems[i].name != NULL ? g_strdup (p.elems[i].name)
                                                     : g_strdup_printf ("[%u]", p.elems[i].index);

      g_assert_cmpstr (got, ==, want[i]);
    }
  back = ddb_eb_path_to_text (&p);
  g_assert_cmpstr (back, ==, canonical);
  g_assert_true (ddb_eb_path_parse (back, &again, &error));
  g_assert_true (ddb_eb_path_equal (&p, &again));
  ddb_path_clear (&again);
  ddb_path_clear (&p);
}

static void
check_refused (const char *text, const char *message)
{
  DdbPath p;
  GError *error = NULL;

  g_assert_false (ddb_eb_path_parse (text, &p, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  g_error_free (error);
  g_assert_cmpuint (p.n, ==, 0);
}

static void
test_paths (void)
{
  check ("a.b[2].c", "a|b|[2]|c", "a.b[2].c");
  check ("tags[0][10]", "tags|[0]|[10]", "tags[0][10]");
  check ("order-id", "order-id", "order-id");
  check ("  Status  ", "Status", "Status");
  check ("my attr.sub key", "my attr|sub key", "my attr.sub key");
  check ("a.\"x.y\"[0]", "a|x.y|[0]", "a.\"x.y\"[0]");
  check ("\"a[1]\".\"q\\\"uote\"", "a[1]|q\"uote", "\"a[1]\".\"q\\\"uote\"");
  check ("\"plain\"", "plain", "plain");
  check ("\" lead\".\"back\\\\slash\"", " lead|back\\slash", "\" lead\".\"back\\\\slash\"");
  check ("\"tab\\there\"", "tab\there", "\"tab\\there\"");
  check ("名前.ü", "名前|ü", "名前.ü");
  check ("a[2147483647]", "a|[2147483647]", "a[2147483647]");
}

static void
test_refused (void)
{
  check_refused ("", "The path is empty");
  check_refused ("a..b", "An attribute name is missing at character 3 of “a..b”");
  check_refused ("a.", "An attribute name is missing at character 3 of “a.”");
  check_refused ("[0]", "A path starts with an attribute name, not a list index at character 1 "
                        "of “[0]”");
  check_refused ("a[01]", "A list index is written without leading zeros at character 3 of "
                          "“a[01]”");
  check_refused ("a[x]", "A list index is a number between [ and ] at character 2 of “a[x]”");
  check_refused ("a[2", "The list index is not closed with ] at character 4 of “a[2”");
  check_refused ("a[2147483648]", "The list index is larger than DynamoDB allows (2147483647) at "
                                  "character 3 of “a[2147483648]”");
  check_refused ("a]", "“]” closes no list index at character 2 of “a]”");
  check_refused ("a.\"x", "The quoted name has no closing quote at character 3 of “a.\"x”");
  check_refused ("a.\"\"", "An attribute name cannot be empty at character 3 of “a.\"\"”");
  check_refused ("a.\"\\q\"", "The quoted name has an escape JSON does not know (use \\\" \\\\ "
                              "\\n \\t \\uXXXX) at character 4 of “a.\"\\q\"”");
  check_refused ("a.\"x\"y", "“.” or “[” must follow a quoted name or a list index at "
                             "character 6 of “a.\"x\"y”");
  check_refused ("a. b", "A name that starts or ends with a space must be written as a JSON "
                         "string (\"...\") at character 3 of “a. b”");
  check_refused ("a\"b", "A name holding “\"”, “\\” or a control character must be written as a "
                         "JSON string (\"...\") at character 2 of “a\"b”");
  check_refused ("é.\"\\u0000\"", "An attribute name cannot hold U+0000 at character 3 of "
                                  "“é.\"\\u0000\"”");
  check_refused ("\xff", "The path is not valid UTF-8");
}

static void
test_known_names (void)
{
  static const char *const known[] = { "a.b", "x[1]", "order-id", NULL };
  DdbPath p;
  GError *error = NULL;

  g_assert_true (ddb_eb_path_parse_known ("a.b", known, &p, &error));
  g_assert_cmpuint (p.n, ==, 1);
  g_assert_cmpstr (p.elems[0].name, ==, "a.b");
  ddb_path_clear (&p);
  g_assert_true (ddb_eb_path_parse_known ("x[1]", known, &p, &error));
  g_assert_cmpuint (p.n, ==, 1);
  ddb_path_clear (&p);
  /* anything else is a path as usual */
  g_assert_true (ddb_eb_path_parse_known ("a.b.c", known, &p, &error));
  g_assert_cmpuint (p.n, ==, 3);
  ddb_path_clear (&p);
  g_assert_true (ddb_eb_path_parse_known ("x[2]", known, &p, &error));
  g_assert_cmpuint (p.n, ==, 2);
  ddb_path_clear (&p);
  g_assert_true (ddb_eb_path_parse_known ("a.b", NULL, &p, &error));
  g_assert_cmpuint (p.n, ==, 2);
  ddb_path_clear (&p);
  g_assert_no_error (error);

  /* and such a name is written so that it reads back as one */
  {
    g_autofree char *text = NULL;

    ddb_eb_path_init_name (&p, "a.b");
    text = ddb_eb_path_to_text (&p);
    g_assert_cmpstr (text, ==, "\"a.b\"");
    ddb_path_clear (&p);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/exprbuild/path/paths", test_paths);
  g_test_add_func ("/exprbuild/path/refused", test_refused);
  g_test_add_func ("/exprbuild/path/known-names", test_known_names);
  return g_test_run ();
}
