/* test-diff.c: the item diff rules and path edits of the staging library. */
#include "core/ddbjson.h"
#include "staging/diff.h"
#include "../core/test-util.h"

/* The diff as "path: old -> new" lines (absent written as "-"). */
static char *
diff_text (const char *old_json, const char *new_json)
{
  g_autoptr (DdbValue) a = tu_item (old_json);
  g_autoptr (DdbValue) b = tu_item (new_json);
  g_autoptr (GPtrArray) entries = ddb_diff_items (a, b);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < entries->len; i++)
    {
      DdbDiffEntry *e = g_ptr_array_index (entries, i);
      g_autofree char *path = ddb_path_to_string (&e->path);
      g_autofree char *o = e->old_value != NULL ? ddb_json_format_value (e->old_value) : NULL;
      g_autofree char *n = e->new_value != NULL ? ddb_json_format_value (e->new_value) : NULL;

      g_string_append_printf (out, "%s: %s -> %s\n", path, o != NULL ? o : "-",
                              n != NULL ? n : "-");
    }
  return g_string_free (out, FALSE);
}

static void
assert_diff (const char *old_json, const char *new_json, const char *expected)
{
  g_autofree char *got = diff_text (old_json, new_json);
  g_autofree char *want = tu_dq (expected);

  g_assert_cmpstr (got, ==, want);
}

static void
test_top_level (void)
{
  assert_diff ("{'id': {'S': 'a'}, 'name': {'S': 'Mara Vance'}, 'old': {'N': '1'}}",
               "{'id': {'S': 'a'}, 'name': {'S': 'Mara V.'}, 'new': {'BOOL': true}}",
               "name: {'S':'Mara Vance'} -> {'S':'Mara V.'}\n"
               "old: {'N':'1'} -> -\n"
               "new: - -> {'BOOL':true}\n");
  /* numbers compare numerically, so 1.0 -> 1 is no change */
  assert_diff ("{'n': {'N': '1.0'}}", "{'n': {'N': '1'}}", "");
  /* a change of type is one entry */
  assert_diff ("{'n': {'N': '1'}}", "{'n': {'S': '1'}}", "n: {'N':'1'} -> {'S':'1'}\n");
}

static void
test_nested_maps (void)
{
  assert_diff ("{'settings': {'M': {'theme': {'S': 'dark'}, 'font': {'M': {'size': {'N': '12'}}},"
               " 'gone': {'NULL': true}}}}",
               "{'settings': {'M': {'theme': {'S': 'light'}, 'font': {'M': {'size': {'N': '14'}}},"
               " 'added': {'S': 'x'}}}}",
               "settings.theme: {'S':'dark'} -> {'S':'light'}\n"
               "settings.font.size: {'N':'12'} -> {'N':'14'}\n"
               "settings.gone: {'NULL':true} -> -\n"
               "settings.added: - -> {'S':'x'}\n");
}

static void
test_lists (void)
{
  /* equal lengths: element by element, recursing into maps inside */
  assert_diff ("{'tags': {'L': [{'S': 'a'}, {'S': 'b'}, {'S': 'c'}]}}",
               "{'tags': {'L': [{'S': 'a'}, {'S': 'b'}, {'S': 'C'}]}}",
               "tags[2]: {'S':'c'} -> {'S':'C'}\n");
  assert_diff ("{'l': {'L': [{'M': {'x': {'N': '1'}}}]}}", "{'l': {'L': [{'M': {'x': {'N': '2'}}}]}}",
               "l[0].x: {'N':'1'} -> {'N':'2'}\n");
  /* different lengths: the whole list */
  assert_diff ("{'tags': {'L': [{'S': 'a'}, {'S': 'b'}]}}", "{'tags': {'L': [{'S': 'b'}]}}",
               "tags: {'L':[{'S':'a'},{'S':'b'}]} -> {'L':[{'S':'b'}]}\n");
}

static void
test_sets (void)
{
  /* sets are whole values and ignore order */
  assert_diff ("{'s': {'SS': ['a', 'b']}}", "{'s': {'SS': ['b', 'a']}}", "");
  assert_diff ("{'s': {'SS': ['a', 'b']}}", "{'s': {'SS': ['a', 'c']}}",
               "s: {'SS':['a','b']} -> {'SS':['a','c']}\n");
}

static void
test_path_set (void)
{
  g_autoptr (DdbValue) item
    = tu_item ("{'m': {'M': {'a': {'N': '1'}}}, 'l': {'L': [{'S': 'x'}, {'S': 'y'}]}}");
  g_autoptr (GPtrArray) entries = NULL;
  g_autoptr (DdbValue) other = tu_item ("{'m': {'M': {'a': {'N': '2'}}}, 'l': {'L': [{'S': 'x'}, "
                                        "{'S': 'z'}]}}");

  entries = ddb_diff_items (item, other);
  g_assert_cmpuint (entries->len, ==, 2);
  for (guint i = 0; i < entries->len; i++)
    {
      DdbDiffEntry *e = g_ptr_array_index (entries, i);

      g_assert_true (ddb_path_set (item, &e->path, ddb_value_copy (e->new_value)));
    }
  g_assert_true (ddb_value_equal (item, other));
  /* removing a list element would shift the rest: refused */
  {
    DdbPathElem elems[] = { { (char *) "l", 0 }, { NULL, 1 } };
    DdbPath path = { 2, elems };
    DdbPathElem missing[] = { { (char *) "nope", 0 }, { (char *) "x", 0 } };
    DdbPath missing_path = { 2, missing };

    g_assert_false (ddb_path_set (item, &path, NULL));
    g_assert_false (ddb_path_set (item, &missing_path, tu_str ("v")));
    g_assert_true (ddb_value_equal (item, other));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/staging/diff/top-level", test_top_level);
  g_test_add_func ("/staging/diff/nested-maps", test_nested_maps);
  g_test_add_func ("/staging/diff/lists", test_lists);
  g_test_add_func ("/staging/diff/sets", test_sets);
  g_test_add_func ("/staging/diff/path-set", test_path_set);
  return g_test_run ();
}
