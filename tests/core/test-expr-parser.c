/* test-expr-parser.c: parsing of condition, update and projection expressions: the trees they
 * produce and DynamoDB's error for every kind of mistake. */
#include <string.h>

#include <glib.h>

#include "core/error.h"
#include "core/expr.h"

#include "test-util.h"

/* ---- Fixtures --------------------------------------------------------------------------- */

typedef struct {
  GHashTable *names;
  GHashTable *values;
  DdbExprContext *ctx;
} Fixture;

static DdbValue *
string_set (const char *a, const char *b)
{
  DdbValue *set = ddb_value_new_set (DDB_TYPE_SS);

  ddb_value_set_add (set, ddb_value_new_s (a, -1));
  ddb_value_set_add (set, ddb_value_new_s (b, -1));
  return set;
}

static void
fixture_init (Fixture *f)
{
  DdbValue *l = ddb_value_new_l ();
  DdbValue *m = ddb_value_new_m ();

  ddb_value_list_append (l, tu_num ("1"));
  ddb_value_map_set (m, "k", ddb_value_new_s ("v", -1));

  f->names = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (f->names, "#n", "name");
  g_hash_table_insert (f->names, "#a", "attr");
  g_hash_table_insert (f->names, "#st", "status");
  g_hash_table_insert (f->names, "#dot", "a.b");

  f->values
      = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) ddb_value_free);
  g_hash_table_insert (f->values, ":a", tu_num ("1"));
  g_hash_table_insert (f->values, ":b", tu_num ("2"));
  g_hash_table_insert (f->values, ":n", tu_num ("2"));
  g_hash_table_insert (f->values, ":one", tu_num ("1"));
  g_hash_table_insert (f->values, ":s", ddb_value_new_s ("abc", -1));
  g_hash_table_insert (f->values, ":s2", ddb_value_new_s ("abd", -1));
  g_hash_table_insert (f->values, ":t", ddb_value_new_s ("X", -1));
  g_hash_table_insert (f->values, ":tn", ddb_value_new_s ("NS", -1));
  g_hash_table_insert (f->values, ":l", l);
  g_hash_table_insert (f->values, ":m", m);
  g_hash_table_insert (f->values, ":ss", string_set ("x", "y"));
  g_hash_table_insert (f->values, ":bin", ddb_value_new_b ("\x01\x02\x03", 3));
  g_hash_table_insert (f->values, ":bin2", ddb_value_new_b ("\x01", 1));
  g_hash_table_insert (f->values, ":bool", ddb_value_new_bool (TRUE));
  f->ctx = ddb_expr_context_new (f->names, f->values);
}

static void
fixture_clear (Fixture *f)
{
  ddb_expr_context_free (f->ctx);
  g_hash_table_unref (f->names);
  g_hash_table_unref (f->values);
}

static DdbNode *
cond_ok (Fixture *f, const char *text)
{
  return tu_condition_parse (DDB_EXPR_CONDITION, text, f->ctx);
}

static void
cond_fails (DdbExprType type, const char *text, const char *message)
{
  Fixture f;
  g_autoptr (GError) error = NULL;
  DdbNode *n;

  fixture_init (&f);
  n = ddb_condition_parse (type, text, f.ctx, &error);
  g_assert_null (n);
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  fixture_clear (&f);
}

static void
update_fails (const char *text, const char *message)
{
  Fixture f;
  g_autoptr (GError) error = NULL;
  DdbUpdate *u;

  fixture_init (&f);
  u = ddb_update_parse (text, f.ctx, &error);
  g_assert_null (u);
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  fixture_clear (&f);
}

static void
projection_fails (const char *text, const char *message)
{
  Fixture f;
  g_autoptr (GError) error = NULL;
  DdbProjection *p;

  fixture_init (&f);
  p = ddb_projection_parse (text, f.ctx, &error);
  g_assert_null (p);
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  fixture_clear (&f);
}

#define CF(text, msg) cond_fails (DDB_EXPR_CONDITION, text, "Invalid ConditionExpression: " msg)

static void
assert_path (const DdbNode *n, const char *expected)
{
  g_autofree char *s = NULL;

  g_assert_cmpint (n->kind, ==, DDB_NODE_PATH);
  s = ddb_path_to_string (&n->path);
  g_assert_cmpstr (s, ==, expected);
}

static void
assert_value (const DdbNode *n, const char *placeholder, DdbType type)
{
  g_assert_cmpint (n->kind, ==, DDB_NODE_VALUE);
  g_assert_cmpstr (n->placeholder, ==, placeholder);
  g_assert_nonnull (n->value);
  g_assert_cmpint (n->value->type, ==, type);
}

/* ---- Condition trees -------------------------------------------------------------------- */

static void
test_precedence (void)
{
  Fixture f;
  DdbNode *n, *and, *not ;

  fixture_init (&f);
  /* NOT binds tighter than AND, AND tighter than OR. */
  n = cond_ok (&f, "NOT a = :a AND b = :b OR c = :s");
  g_assert_cmpint (n->kind, ==, DDB_NODE_OR);
  g_assert_cmpuint (n->n_args, ==, 2);
  and = n->args[0];
  g_assert_cmpint (and->kind, ==, DDB_NODE_AND);
  not = and->args[0];
  g_assert_cmpint (not ->kind, ==, DDB_NODE_NOT);
  g_assert_cmpuint (not ->n_args, ==, 1);
  g_assert_cmpint (not ->args[0]->kind, ==, DDB_NODE_EQ);
  assert_path (not ->args[0]->args[0], "a");
  assert_value (not ->args[0]->args[1], ":a", DDB_TYPE_N);
  g_assert_cmpint (and->args[1]->kind, ==, DDB_NODE_EQ);
  assert_path (and->args[1]->args[0], "b");
  g_assert_cmpint (n->args[1]->kind, ==, DDB_NODE_EQ);
  assert_path (n->args[1]->args[0], "c");
  assert_value (n->args[1]->args[1], ":s", DDB_TYPE_S);
  g_assert_cmpstr (n->args[1]->args[1]->value->bytes.data, ==, "abc");
  ddb_node_free (n);

  /* Parentheses override it; AND and OR group to the left. */
  n = cond_ok (&f, "a = :a AND (b = :b OR c = :s) AND d = :a");
  g_assert_cmpint (n->kind, ==, DDB_NODE_AND);
  g_assert_cmpint (n->args[0]->kind, ==, DDB_NODE_AND);
  g_assert_cmpint (n->args[0]->args[1]->kind, ==, DDB_NODE_OR);
  assert_path (n->args[1]->args[0], "d");
  ddb_node_free (n);

  /* NOT applies to a parenthesized condition; NOT NOT is allowed. */
  n = cond_ok (&f, "NOT (a = :a OR b = :b)");
  g_assert_cmpint (n->kind, ==, DDB_NODE_NOT);
  g_assert_cmpint (n->args[0]->kind, ==, DDB_NODE_OR);
  ddb_node_free (n);
  n = cond_ok (&f, "not not a = :a");
  g_assert_cmpint (n->kind, ==, DDB_NODE_NOT);
  g_assert_cmpint (n->args[0]->kind, ==, DDB_NODE_NOT);
  g_assert_cmpint (n->args[0]->args[0]->kind, ==, DDB_NODE_EQ);
  ddb_node_free (n);
  fixture_clear (&f);
}

static void
test_keywords_any_case (void)
{
  Fixture f;
  DdbNode *n;

  fixture_init (&f);
  n = cond_ok (&f, "a BeTwEeN :a aNd :b oR c iN (:a) AND NoT d <> :a");
  g_assert_cmpint (n->kind, ==, DDB_NODE_OR);
  g_assert_cmpint (n->args[0]->kind, ==, DDB_NODE_BETWEEN);
  g_assert_cmpint (n->args[1]->kind, ==, DDB_NODE_AND);
  g_assert_cmpint (n->args[1]->args[0]->kind, ==, DDB_NODE_IN);
  g_assert_cmpint (n->args[1]->args[1]->kind, ==, DDB_NODE_NOT);
  g_assert_cmpint (n->args[1]->args[1]->args[0]->kind, ==, DDB_NODE_NE);
  ddb_node_free (n);
  fixture_clear (&f);
}

static void
test_comparators (void)
{
  static const struct {
    const char *text;
    DdbNodeKind kind;
  } cases[] = {
    { "a = :a", DDB_NODE_EQ },  { "a <> :a", DDB_NODE_NE }, { "a < :a", DDB_NODE_LT },
    { "a <= :a", DDB_NODE_LE }, { "a > :a", DDB_NODE_GT },  { "a >= :a", DDB_NODE_GE },
    { "a>=:a", DDB_NODE_GE },   { ":a < a", DDB_NODE_LT },
  };
  Fixture f;

  fixture_init (&f);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DdbNode *n = cond_ok (&f, cases[i].text);

      g_assert_cmpint (n->kind, ==, cases[i].kind);
      g_assert_cmpuint (n->n_args, ==, 2);
      ddb_node_free (n);
    }
  fixture_clear (&f);
}

static void
test_between_in (void)
{
  Fixture f;
  DdbNode *n;

  fixture_init (&f);
  n = cond_ok (&f, "a BETWEEN :a AND :b");
  g_assert_cmpint (n->kind, ==, DDB_NODE_BETWEEN);
  g_assert_cmpuint (n->n_args, ==, 3);
  assert_path (n->args[0], "a");
  assert_value (n->args[1], ":a", DDB_TYPE_N);
  assert_value (n->args[2], ":b", DDB_TYPE_N);
  ddb_node_free (n);

  n = cond_ok (&f, "a IN (:a, :s, b.c)");
  g_assert_cmpint (n->kind, ==, DDB_NODE_IN);
  g_assert_cmpuint (n->n_args, ==, 4);
  assert_path (n->args[0], "a");
  assert_value (n->args[1], ":a", DDB_TYPE_N);
  assert_value (n->args[2], ":s", DDB_TYPE_S);
  assert_path (n->args[3], "b.c");
  ddb_node_free (n);

  /* Equal bounds are fine, and strings compare by bytes. */
  n = cond_ok (&f, "a BETWEEN :n AND :b");
  ddb_node_free (n);
  n = cond_ok (&f, "a BETWEEN :s AND :s2");
  ddb_node_free (n);
  fixture_clear (&f);
}

static void
test_functions (void)
{
  Fixture f;
  DdbNode *root;
  const DdbNode *n;

  fixture_init (&f);
  root = cond_ok (&f, "attribute_exists(a) AND attribute_not_exists(#n.x) AND "
                      "attribute_type(a, :tn) AND begins_with(a, :s) AND contains(b, :a) AND "
                      "size(c) > :n");
  n = root;
  g_assert_cmpint (n->kind, ==, DDB_NODE_AND);
  g_assert_cmpint (n->args[1]->kind, ==, DDB_NODE_GT);
  g_assert_cmpint (n->args[1]->args[0]->kind, ==, DDB_NODE_SIZE);
  assert_path (n->args[1]->args[0]->args[0], "c");
  n = n->args[0];
  g_assert_cmpint (n->args[1]->kind, ==, DDB_NODE_CONTAINS);
  n = n->args[0];
  g_assert_cmpint (n->args[1]->kind, ==, DDB_NODE_BEGINS_WITH);
  assert_path (n->args[1]->args[0], "a");
  assert_value (n->args[1]->args[1], ":s", DDB_TYPE_S);
  n = n->args[0];
  g_assert_cmpint (n->args[1]->kind, ==, DDB_NODE_ATTRIBUTE_TYPE);
  assert_value (n->args[1]->args[1], ":tn", DDB_TYPE_S);
  n = n->args[0];
  g_assert_cmpint (n->args[1]->kind, ==, DDB_NODE_ATTRIBUTE_NOT_EXISTS);
  assert_path (n->args[1]->args[0], "name.x");
  g_assert_cmpint (n->args[0]->kind, ==, DDB_NODE_ATTRIBUTE_EXISTS);
  g_assert_cmpuint (n->args[0]->n_args, ==, 1);
  ddb_node_free (root);

  root = cond_ok (&f, "size(a) = size(b) AND begins_with(a, :bin)");
  g_assert_cmpint (root->args[0]->args[1]->kind, ==, DDB_NODE_SIZE);
  ddb_node_free (root);
  fixture_clear (&f);
}

static void
test_paths_and_placeholders (void)
{
  Fixture f;
  DdbNode *n;
  const DdbPath *p;

  fixture_init (&f);
  n = cond_ok (&f, "a.b[2].c = :a");
  p = &n->args[0]->path;
  g_assert_cmpuint (p->n, ==, 4);
  g_assert_cmpstr (p->elems[0].name, ==, "a");
  g_assert_cmpstr (p->elems[1].name, ==, "b");
  g_assert_null (p->elems[2].name);
  g_assert_cmpuint (p->elems[2].index, ==, 2);
  g_assert_cmpstr (p->elems[3].name, ==, "c");
  ddb_node_free (n);

  /* #names are substituted, even inside a path, and may hold any characters (a dot in a
   * substituted name is part of the name, not a path step). */
  n = cond_ok (&f, "#n.#a[0][10] = :a AND #dot = :b AND #st = :s");
  p = &n->args[0]->args[0]->args[0]->path;
  g_assert_cmpuint (p->n, ==, 4);
  g_assert_cmpstr (p->elems[0].name, ==, "name");
  g_assert_cmpstr (p->elems[1].name, ==, "attr");
  g_assert_cmpuint (p->elems[3].index, ==, 10);
  p = &n->args[0]->args[1]->args[0]->path;
  g_assert_cmpuint (p->n, ==, 1);
  g_assert_cmpstr (p->elems[0].name, ==, "a.b");
  assert_path (n->args[1]->args[0], "status");
  ddb_node_free (n);

  /* Whitespace around path steps, and the largest index. */
  n = cond_ok (&f, " a . b [ 2147483647 ] = :a ");
  g_assert_cmpuint (n->args[0]->path.elems[2].index, ==, 2147483647u);
  ddb_node_free (n);

  /* Parentheses around operands and whole conditions, once each. */
  n = cond_ok (&f, "((a) = :a) AND (b = (:b))");
  g_assert_cmpint (n->kind, ==, DDB_NODE_AND);
  assert_path (n->args[0]->args[0], "a");
  assert_value (n->args[1]->args[1], ":b", DDB_TYPE_N);
  ddb_node_free (n);

  /* 32 levels of nesting are allowed. */
  {
    GString *s = g_string_new ("a");

    for (int i = 1; i < 32; i++)
      g_string_append (s, ".b");
    g_string_append (s, " = :a");
    n = cond_ok (&f, s->str);
    g_assert_cmpuint (n->args[0]->path.n, ==, 32);
    ddb_node_free (n);
    g_string_free (s, TRUE);
  }
  fixture_clear (&f);
}

static void
test_value_copied (void)
{
  Fixture f;
  DdbNode *n;

  fixture_init (&f);
  n = cond_ok (&f, "a = :l");
  assert_value (n->args[1], ":l", DDB_TYPE_L);
  fixture_clear (&f);
  /* The node owns a copy: the request's values are gone, the tree is still whole. */
  g_assert_cmpuint (ddb_value_list_size (n->args[1]->value), ==, 1);
  ddb_node_free (n);
}

/* ---- Errors common to all expressions --------------------------------------------------- */

static void
test_empty (void)
{
  cond_fails (DDB_EXPR_CONDITION, "",
              "Invalid ConditionExpression: The expression can not be empty;");
  cond_fails (DDB_EXPR_FILTER, " \t\n",
              "Invalid FilterExpression: The expression can not be empty;");
  cond_fails (DDB_EXPR_KEY_CONDITION, "",
              "Invalid KeyConditionExpression: The expression can not be empty;");
  update_fails ("", "Invalid UpdateExpression: The expression can not be empty;");
  projection_fails ("", "Invalid ProjectionExpression: The expression can not be empty;");
}

static void
test_size_limit (void)
{
  GString *s = g_string_new ("a = :a");
  Fixture f;
  g_autoptr (GError) error = NULL;
  DdbNode *n;

  fixture_init (&f);
  /* 4096 bytes are fine, padding with spaces. */
  while (s->len < DDB_EXPR_MAX_BYTES)
    g_string_append_c (s, ' ');
  n = ddb_condition_parse (DDB_EXPR_CONDITION, s->str, f.ctx, &error);
  g_assert_no_error (error);
  ddb_node_free (n);
  g_string_append_c (s, ' ');
  n = ddb_condition_parse (DDB_EXPR_CONDITION, s->str, f.ctx, &error);
  g_assert_null (n);
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "Invalid ConditionExpression: Expression size has exceeded the maximum "
                   "allowed size; expression size: 4097");
  g_clear_error (&error);

  /* The size comes before any syntax error. */
  g_string_truncate (s, 0);
  for (int i = 0; i < 5000; i++)
    g_string_append_c (s, '(');
  n = ddb_condition_parse (DDB_EXPR_CONDITION, s->str, f.ctx, &error);
  g_assert_null (n);
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "Invalid ConditionExpression: Expression size has exceeded the maximum "
                   "allowed size; expression size: 5000");
  g_string_free (s, TRUE);
  fixture_clear (&f);
}

static void
test_syntax_errors (void)
{
  /* The token where reading stopped, and the text from the token before to the one after. */
  CF ("a = :a AND", "Syntax error; token: \"<EOF>\", near: \"AND\"");
  CF ("a b", "Syntax error; token: \"b\", near: \"a b\"");
  CF ("a = :a !", "Syntax error; token: \"!\", near: \":a !\"");
  CF ("a != :a", "Syntax error; token: \"!\", near: \"a !=\"");
  CF ("a = = :a", "Syntax error; token: \"=\", near: \"= = :a\"");
  CF ("a", "Syntax error; token: \"<EOF>\", near: \"a\"");
  CF (":a", "Syntax error; token: \"<EOF>\", near: \":a\"");
  CF ("a = :a AND b", "Syntax error; token: \"<EOF>\", near: \"b\"");
  CF ("a IN ()", "Syntax error; token: \")\", near: \"()\"");
  CF ("attribute_exists()", "Syntax error; token: \")\", near: \"()\"");
  CF ("a BETWEEN :a OR :b", "Syntax error; token: \"OR\", near: \":a OR :b\"");
  /* Names start with a letter; a list index has no leading zero and no sign. */
  CF ("_a = :a", "Syntax error; token: \"_\", near: \"_a\"");
  CF ("1a = :a", "Syntax error; token: \"1\", near: \"1a\"");
  CF ("a[01] = :a", "Syntax error; token: \"1\", near: \"01]\"");
  CF ("a[-1] = :a", "Syntax error; token: \"-\", near: \"[-1\"");
  CF ("a.[1] = :a", "Syntax error; token: \"[\", near: \".[1\"");
  /* # and : need a name after them. */
  CF ("# = :a", "Syntax error; token: \"#\", near: \"# =\"");
  CF ("a = : a", "Syntax error; token: \":\", near: \"= : a\"");
  /* Keywords are not names. */
  CF ("and = :a", "Syntax error; token: \"and\", near: \"and =\"");
  CF ("a.in = :a", "Syntax error; token: \"in\", near: \".in =\"");
  /* A UTF-8 character is one token. */
  CF ("a = :a \xc3\xa9", "Syntax error; token: \"\xc3\xa9\", near: \":a \xc3\xa9\"");
  cond_fails (DDB_EXPR_FILTER, "a = :a)",
              "Invalid FilterExpression: Syntax error; token: \")\", near: \":a)\"");
}

static void
test_redundant_parentheses (void)
{
  CF ("((a = :a))", "The expression has redundant parentheses;");
  CF ("((a)) = :a", "The expression has redundant parentheses;");
  CF ("a = ((:a))", "The expression has redundant parentheses;");
  CF ("(a = :a) AND ((b = :b))", "The expression has redundant parentheses;");
  CF ("size(((a))) = :a", "The expression has redundant parentheses;");
  /* Reported when the outer one is read, before a later syntax error. */
  CF ("((a = :a)) AND", "The expression has redundant parentheses;");
  {
    /* Deep nesting is refused without exhausting the stack. */
    GString *s = g_string_new (NULL);

    for (int i = 0; i < 2000; i++)
      g_string_append_c (s, '(');
    g_string_append (s, "a = :a");
    for (int i = 0; i < 2000; i++)
      g_string_append_c (s, ')');
    CF (s->str, "The expression has redundant parentheses;");
    /* Unclosed, it is a syntax error at the end. */
    g_string_truncate (s, 2000);
    CF (s->str, "Syntax error; token: \"<EOF>\", near: \"(\"");
    /* Deeply nested calls of an unknown function. */
    g_string_assign (s, "a < ");
    for (int i = 0; i < 1355; i++)
      g_string_append (s, "f(");
    g_string_append_c (s, 'b');
    for (int i = 0; i < 1355; i++)
      g_string_append_c (s, ')');
    CF (s->str, "Invalid function name; function: f");
    g_string_free (s, TRUE);
  }
}

static void
test_reserved_words (void)
{
  CF ("status = :a", "Attribute name is a reserved keyword; reserved keyword: status");
  CF ("a.Name = :a", "Attribute name is a reserved keyword; reserved keyword: Name");
  CF ("a = :a AND b = size", "Attribute name is a reserved keyword; reserved keyword: size");
  /* The first one in written order. */
  CF ("a = :a AND b.year = c.zone", "Attribute name is a reserved keyword; reserved keyword: year");
  g_assert_true (ddb_is_reserved_word ("ABORT", 5));
  g_assert_true (ddb_is_reserved_word ("zone", 4));
  g_assert_true (ddb_is_reserved_word ("LocalTimestamp", 14));
  g_assert_true (ddb_is_reserved_word ("statusX", 6));
  g_assert_false (ddb_is_reserved_word ("statusX", 7));
  g_assert_false (ddb_is_reserved_word ("EntityRef", 9));
  g_assert_false (ddb_is_reserved_word ("", 0));
  g_assert_false (ddb_is_reserved_word ("ABORTS", 6));
  g_assert_false (ddb_is_reserved_word ("ZONES", 5));
  g_assert_false (ddb_is_reserved_word ("AAA", 3));
}

static void
test_placeholders_undefined (void)
{
  CF ("#x = :a",
      "An expression attribute name used in the document path is not defined; attribute name: #x");
  CF ("a.#x = :a",
      "An expression attribute name used in the document path is not defined; attribute name: #x");
  CF ("a = :zz",
      "An expression attribute value used in expression is not defined; attribute value: :zz");
  /* In written order, names and values alike. */
  CF ("a = :zz AND #x = :a",
      "An expression attribute value used in expression is not defined; attribute value: :zz");

  {
    /* A request without any placeholders. */
    DdbExprContext *ctx = ddb_expr_context_new (NULL, NULL);
    g_autoptr (GError) error = NULL;
    DdbNode *n;

    n = ddb_condition_parse (DDB_EXPR_FILTER, "#n = :v", ctx, &error);
    g_assert_null (n);
    tu_assert_error (error, DDB_ERROR_VALIDATION,
                     "Invalid FilterExpression: An expression attribute name used in the "
                     "document path is not defined; attribute name: #n");
    g_clear_error (&error);
    n = ddb_condition_parse (DDB_EXPR_FILTER, "attribute_exists(a)", ctx, &error);
    g_assert_no_error (error);
    ddb_node_free (n);
    g_assert_true (ddb_expr_context_check_unused (ctx, &error));
    ddb_expr_context_free (ctx);
  }
}

static void
test_functions_misused (void)
{
  CF ("foo(a)", "Invalid function name; function: foo");
  CF ("a = foo(b)", "Invalid function name; function: foo");
  CF ("BEGINS_WITH(a, :s)", "Invalid function name; function: BEGINS_WITH");
  CF ("size(a)",
      "The function is not allowed to be used this way in an expression; function: size");
  CF ("begins_with(a, :s) = :a",
      "The function is not allowed to be used this way in an expression; function: begins_with");
  CF ("NOT size(a)",
      "The function is not allowed to be used this way in an expression; function: size");
  CF ("if_not_exists(a, :a) = :a",
      "The function is not allowed in a condition expression; function: if_not_exists");
  CF ("begins_with(a)", "Incorrect number of operands for operator or function; "
                        "operator or function: begins_with, number of operands: 1");
  CF ("attribute_exists(a, b)", "Incorrect number of operands for operator or function; "
                                "operator or function: attribute_exists, number of operands: 2");
  CF ("size(a, b) = :a", "Incorrect number of operands for operator or function; "
                         "operator or function: size, number of operands: 2");
  CF ("attribute_exists(:a)",
      "Operator or function requires a document path; operator or function: attribute_exists");
}

static void
test_operand_types (void)
{
  CF ("begins_with(a, :a)", "Incorrect operand type for operator or function; "
                            "operator or function: begins_with, operand type: N");
  CF ("attribute_type(a, :a)", "Incorrect operand type for operator or function; "
                               "operator or function: attribute_type, operand type: N");
  CF ("attribute_type(a, :t)", "Invalid attribute type name found; type: X, valid types: "
                               "{N,BS,L,B,NULL,M,S,SS,NS,BOOL}");
  CF ("a < :m", "Incorrect operand type for operator or function; "
                "operator or function: <, operand type: M");
  CF (":ss >= a", "Incorrect operand type for operator or function; "
                  "operator or function: >=, operand type: SS");
  CF ("a BETWEEN :a AND :bool", "Incorrect operand type for operator or function; "
                                "operator or function: BETWEEN, operand type: BOOL");
  CF ("size(:a) = :a", "Incorrect operand type for operator or function; "
                       "operator or function: size, operand type: N");
  CF ("size(size(a)) = :a", "Incorrect operand type for operator or function; "
                            "operator or function: size, operand type: N");
  /* = and <> compare anything. */
  {
    Fixture f;
    DdbNode *n;

    fixture_init (&f);
    n = cond_ok (&f, "a = :m AND b <> :ss AND size(:s) = :a AND :a = :b");
    ddb_node_free (n);
    fixture_clear (&f);
  }
}

static void
test_between_bounds (void)
{
  CF ("a BETWEEN :b AND :one",
      "The BETWEEN operator requires upper bound to be greater than or "
      "equal to lower bound; lower bound operand: AttributeValue: {N:2}, upper bound operand: "
      "AttributeValue: {N:1}");
  CF ("a BETWEEN :s2 AND :s",
      "The BETWEEN operator requires upper bound to be greater than or "
      "equal to lower bound; lower bound operand: AttributeValue: {S:abd}, upper bound operand: "
      "AttributeValue: {S:abc}");
  CF ("a BETWEEN :bin AND :bin2",
      "The BETWEEN operator requires upper bound to be greater than "
      "or equal to lower bound; lower bound operand: AttributeValue: "
      "{B:java.nio.HeapByteBuffer[pos=0 lim=3 cap=3]}, upper bound operand: AttributeValue: "
      "{B:java.nio.HeapByteBuffer[pos=0 lim=1 cap=1]}");
  CF ("a BETWEEN :a AND :s",
      "The BETWEEN operator requires same data type for lower and upper "
      "bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: "
      "{S:abc}");
}

static void
test_distinct_operands (void)
{
  CF ("a = a", "The first operand must be distinct from the remaining operands for this "
               "operator or function; operator: =, first operand: [a]");
  CF ("#a.b[1] <> attr.b[1]",
      "The first operand must be distinct from the remaining operands "
      "for this operator or function; operator: <>, first operand: [attr, b, [1]]");
  CF ("a BETWEEN :a AND a", "The first operand must be distinct from the remaining operands for "
                            "this operator or function; operator: BETWEEN, first operand: [a]");
  CF ("a IN (:a, a)", "The first operand must be distinct from the remaining operands for this "
                      "operator or function; operator: IN, first operand: [a]");
  CF ("contains(a, a)", "The first operand must be distinct from the remaining operands for this "
                        "operator or function; operator: contains, first operand: [a]");
}

static void
test_limits (void)
{
  GString *s = g_string_new (NULL);
  Fixture f;
  DdbNode *n;

  fixture_init (&f);

  /* IN takes up to 100 operands. */
  g_string_assign (s, "a IN (:a");
  for (int i = 1; i < 100; i++)
    g_string_append (s, ",:a");
  g_string_append_c (s, ')');
  n = cond_ok (&f, s->str);
  g_assert_cmpuint (n->n_args, ==, 101);
  ddb_node_free (n);
  g_string_insert (s, 6, ":a,");
  CF (s->str, "The IN operator is provided with too many operands; number of operands: 101");

  /* 300 operators: comparisons, AND/OR/NOT, BETWEEN and IN count, functions do not. */
  g_string_assign (s, "a<:a");
  for (int i = 1; i < 150; i++)
    g_string_append (s, " OR a<:a");
  g_string_append (s, " AND attribute_exists(a)");
  n = cond_ok (&f, s->str);
  ddb_node_free (n);
  g_string_append (s, " AND b = :a");
  CF (s->str, "The expression contains too many operators; operator count: 301");
  g_string_truncate (s, 0);
  for (int i = 0; i < 1000; i++)
    g_string_append (s, "NOT ");
  g_string_append (s, "a = :a");
  CF (s->str, "The expression contains too many operators; operator count: 301");

  /* List indexes fit a signed 32-bit integer; paths nest up to 32 levels. */
  CF ("a[2147483648] = :a", "List index is not within the allowable range; index: [2147483648]");
  CF ("a[99999999999] = :a", "List index is not within the allowable range; index: [99999999999]");
  g_string_assign (s, "a");
  for (int i = 1; i < 33; i++)
    g_string_append (s, "[0]");
  g_string_append (s, " = :a");
  CF (s->str, "The document path has too many nesting levels; nesting levels: 33");
  g_string_free (s, TRUE);
  fixture_clear (&f);
}

static void
test_error_order (void)
{
  /* Syntax first, then (in written order) names, functions and reserved words, then
   * placeholders, then types. */
  CF ("#x = :zz AND status = :a AND", "Syntax error; token: \"<EOF>\", near: \"AND\"");
  CF ("#x = :zz AND status = :a", "Attribute name is a reserved keyword; reserved keyword: status");
  CF ("#x = :zz AND foo(a)", "Invalid function name; function: foo");
  CF ("#x = :a AND a < :m",
      "An expression attribute name used in the document path is not defined; attribute name: #x");
  CF ("a < :m AND #x = :a", "Incorrect operand type for operator or function; "
                            "operator or function: <, operand type: M");
  CF ("a < :m AND b = b", "Incorrect operand type for operator or function; "
                          "operator or function: <, operand type: M");
  cond_fails (DDB_EXPR_KEY_CONDITION, "status = :a",
              "Invalid KeyConditionExpression: Attribute name is a reserved keyword; "
              "reserved keyword: status");
}

/* ---- Update expressions ----------------------------------------------------------------- */

static DdbUpdate *
update_ok (Fixture *f, const char *text)
{
  return tu_update_parse (text, f->ctx);
}

static void
assert_action_path (const DdbUpdateAction *a, DdbUpdateKind kind, const char *path)
{
  g_autofree char *s = ddb_path_to_string (&a->path);

  g_assert_cmpint (a->kind, ==, kind);
  g_assert_cmpstr (s, ==, path);
}

static void
test_update_tree (void)
{
  Fixture f;
  DdbUpdate *u;
  const DdbNode *op;

  fixture_init (&f);
  u = update_ok (&f, "SET a = :a, #n.b = b + :n, c[1] = if_not_exists(c[1], :s) "
                     "REMOVE d, e[2] ADD f :n, g :ss delete h :ss");
  g_assert_cmpuint (u->n_actions, ==, 8);
  assert_action_path (&u->actions[0], DDB_UPDATE_SET, "a");
  assert_value (u->actions[0].operand, ":a", DDB_TYPE_N);
  assert_action_path (&u->actions[1], DDB_UPDATE_SET, "name.b");
  op = u->actions[1].operand;
  g_assert_cmpint (op->kind, ==, DDB_NODE_PLUS);
  assert_path (op->args[0], "b");
  assert_value (op->args[1], ":n", DDB_TYPE_N);
  assert_action_path (&u->actions[2], DDB_UPDATE_SET, "c[1]");
  op = u->actions[2].operand;
  g_assert_cmpint (op->kind, ==, DDB_NODE_IF_NOT_EXISTS);
  assert_path (op->args[0], "c[1]");
  assert_action_path (&u->actions[3], DDB_UPDATE_REMOVE, "d");
  g_assert_null (u->actions[3].operand);
  assert_action_path (&u->actions[4], DDB_UPDATE_REMOVE, "e[2]");
  assert_action_path (&u->actions[5], DDB_UPDATE_ADD, "f");
  assert_value (u->actions[5].operand, ":n", DDB_TYPE_N);
  assert_action_path (&u->actions[6], DDB_UPDATE_ADD, "g");
  assert_action_path (&u->actions[7], DDB_UPDATE_DELETE, "h");
  assert_value (u->actions[7].operand, ":ss", DDB_TYPE_SS);
  ddb_update_free (u);

  /* Sections in any order; MINUS and list_append; operand parentheses. */
  u = update_ok (&f, "remove x SET a = (b) - :n, l = list_append(:l, if_not_exists(l, :l))");
  g_assert_cmpuint (u->n_actions, ==, 3);
  assert_action_path (&u->actions[0], DDB_UPDATE_REMOVE, "x");
  g_assert_cmpint (u->actions[1].operand->kind, ==, DDB_NODE_MINUS);
  assert_path (u->actions[1].operand->args[0], "b");
  op = u->actions[2].operand;
  g_assert_cmpint (op->kind, ==, DDB_NODE_LIST_APPEND);
  assert_value (op->args[0], ":l", DDB_TYPE_L);
  g_assert_cmpint (op->args[1]->kind, ==, DDB_NODE_IF_NOT_EXISTS);
  ddb_update_free (u);

  /* Sibling paths do not overlap. */
  u = update_ok (&f, "SET a.b = :a, a.c = :a, l[0] = :a, l[1] = :a");
  ddb_update_free (u);
  fixture_clear (&f);
}

static void
test_update_errors (void)
{
#define UF(text, msg) update_fails (text, "Invalid UpdateExpression: " msg)
  UF ("ADD hits : incr", "Syntax error; token: \":\", near: \"hits : incr\"");
  UF ("INVALID SYNTAX HERE", "Syntax error; token: \"INVALID\", near: \"INVALID SYNTAX\"");
  UF ("SET a = :a,", "Syntax error; token: \"<EOF>\", near: \",\"");
  UF ("SET a = a + :n + :n", "Syntax error; token: \"+\", near: \":n + :n\"");
  UF ("SET a = (b + :n)", "Syntax error; token: \"+\", near: \"b + :n\"");
  UF ("ADD a b", "Syntax error; token: \"b\", near: \"a b\"");
  UF ("SET a = :a AND b = :a", "Syntax error; token: \"AND\", near: \":a AND b\"");
  UF ("REMOVE a = :a", "Syntax error; token: \"=\", near: \"a = :a\"");
  UF ("SET a = :a SET b = :a",
      "The \"SET\" section can only be used once in an update expression;");
  UF ("REMOVE a ADD b :n remove c",
      "The \"REMOVE\" section can only be used once in an update expression;");
  UF ("SET a = :a REMOVE a.b", "Two document paths overlap with each other; must remove or "
                               "rewrite one of these paths; path one: [a], path two: [a, b]");
  UF ("SET #a = :a, attr = :s", "Two document paths overlap with each other; must remove or "
                                "rewrite one of these paths; path one: [attr], path two: [attr]");
  UF ("SET a[1] = :a, a.b = :a",
      "Two document paths conflict with each other; must remove or "
      "rewrite one of these paths; path one: [a, [1]], path two: [a, b]");
  UF ("ADD a :s", "Incorrect operand type for operator or function; operator: ADD, operand type: "
                  "STRING, typeSet: ALLOWED_FOR_ADD_OPERAND");
  UF ("DELETE a :n", "Incorrect operand type for operator or function; operator: DELETE, operand "
                     "type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND");
  UF ("ADD a :m", "Incorrect operand type for operator or function; operator: ADD, operand type: "
                  "MAP, typeSet: ALLOWED_FOR_ADD_OPERAND");
  UF ("SET a = b + :s", "Incorrect operand type for operator or function; operator or function: "
                        "+, operand type: S");
  UF ("SET a = :l - b", "Incorrect operand type for operator or function; operator or function: "
                        "-, operand type: L");
  UF ("SET a = list_append(a, :n)", "Incorrect operand type for operator or function; operator "
                                    "or function: list_append, operand type: N");
  UF ("SET a = size(b)", "The function is not allowed in an update expression; function: size");
  UF ("SET a = attribute_exists(b)",
      "The function is not allowed in an update expression; function: attribute_exists");
  UF ("SET a = foo(b)", "Invalid function name; function: foo");
  UF ("SET a = if_not_exists(:a, :a)",
      "Operator or function requires a document path; operator or function: if_not_exists");
  UF ("SET a = if_not_exists(a)", "Incorrect number of operands for operator or function; "
                                  "operator or function: if_not_exists, number of operands: 1");
  UF ("SET a = if_not_exists(b, b)",
      "The first operand must be distinct from the remaining "
      "operands for this operator or function; operator: if_not_exists, first operand: [b]");
  UF ("SET status = :a", "Attribute name is a reserved keyword; reserved keyword: status");
  UF ("SET a = :zz",
      "An expression attribute value used in expression is not defined; attribute value: :zz");
  UF ("REMOVE #zz",
      "An expression attribute name used in the document path is not defined; attribute name: #zz");
  /* Overlaps come before values; the last action's values are looked at first. */
  UF ("SET a = :zz, a = :yy", "Two document paths overlap with each other; must remove or "
                              "rewrite one of these paths; path one: [a], path two: [a]");
  UF ("SET a = :zz, b = :yy",
      "An expression attribute value used in expression is not defined; attribute value: :yy");
  UF ("SET a = #zz, b = :yy",
      "An expression attribute name used in the document path is not defined; attribute name: #zz");
  UF ("SET a = ((b))", "The expression has redundant parentheses;");
#undef UF
}

/* ---- Projection expressions ------------------------------------------------------------- */

static void
test_projection (void)
{
  Fixture f;
  g_autoptr (GError) error = NULL;
  DdbProjection *p;
  g_autofree char *s1 = NULL, *s2 = NULL, *s3 = NULL;

  fixture_init (&f);
  p = ddb_projection_parse ("a, #n.b[3], c[0].#a", f.ctx, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->n_paths, ==, 3);
  s1 = ddb_path_to_string (&p->paths[0]);
  s2 = ddb_path_to_string (&p->paths[1]);
  s3 = ddb_path_to_string (&p->paths[2]);
  g_assert_cmpstr (s1, ==, "a");
  g_assert_cmpstr (s2, ==, "name.b[3]");
  g_assert_cmpstr (s3, ==, "c[0].attr");
  ddb_projection_free (p);
  fixture_clear (&f);

#define PF(text, msg) projection_fails (text, "Invalid ProjectionExpression: " msg)
  PF ("!!!", "Syntax error; token: \"!\", near: \"!!\"");
  PF ("a b", "Syntax error; token: \"b\", near: \"a b\"");
  PF ("a,", "Syntax error; token: \"<EOF>\", near: \",\"");
  PF ("a, :a", "Syntax error; token: \":a\", near: \", :a\"");
  PF ("size(a)", "Syntax error; token: \"(\", near: \"size(a\"");
  PF ("a, b, a.c", "Two document paths overlap with each other; must remove or rewrite one of "
                   "these paths; path one: [a], path two: [a, c]");
  PF ("l[0], l.x", "Two document paths conflict with each other; must remove or rewrite one of "
                   "these paths; path one: [l, [0]], path two: [l, x]");
  PF ("a, Comment", "Attribute name is a reserved keyword; reserved keyword: Comment");
  PF ("#q", "An expression attribute name used in the document path is not defined; "
            "attribute name: #q");
#undef PF
}

/* ---- Unused placeholders ---------------------------------------------------------------- */

static void
test_unused (void)
{
  GHashTable *names = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTable *values
      = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) ddb_value_free);
  DdbExprContext *ctx;
  g_autoptr (GError) error = NULL;
  DdbNode *n;
  DdbProjection *p;

  g_hash_table_insert (names, "#n", "n");
  g_hash_table_insert (names, "#a", "a");
  g_hash_table_insert (names, "#b", "b");
  g_hash_table_insert (names, "#z9", "z");
  g_hash_table_insert (values, ":v", ddb_value_new_s ("x", -1));
  g_hash_table_insert (values, ":alpha", ddb_value_new_s ("x", -1));
  g_hash_table_insert (values, ":zeta", ddb_value_new_s ("x", -1));
  g_hash_table_insert (values, ":b1", ddb_value_new_s ("x", -1));

  /* Use is counted across all the expressions of a request. */
  ctx = ddb_expr_context_new (names, values);
  n = ddb_condition_parse (DDB_EXPR_CONDITION, "#n = :v", ctx, &error);
  g_assert_no_error (error);
  ddb_node_free (n);
  /* Names are reported first, in DynamoDB's (Java hash set) order. */
  g_assert_false (ddb_expr_context_check_unused (ctx, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "Value provided in ExpressionAttributeNames unused in expressions: "
                   "keys: {#z9, #a, #b}");
  g_clear_error (&error);
  p = ddb_projection_parse ("#a, #b, #z9", ctx, &error);
  g_assert_no_error (error);
  ddb_projection_free (p);
  g_assert_false (ddb_expr_context_check_unused (ctx, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "Value provided in ExpressionAttributeValues unused in expressions: "
                   "keys: {:alpha, :zeta, :b1}");
  g_clear_error (&error);
  n = ddb_condition_parse (DDB_EXPR_FILTER, "#n IN (:alpha, :zeta, :b1)", ctx, &error);
  g_assert_no_error (error);
  ddb_node_free (n);
  g_assert_true (ddb_expr_context_check_unused (ctx, &error));
  g_assert_no_error (error);
  ddb_expr_context_free (ctx);

  /* A failed parse still leaves the others unused. */
  ctx = ddb_expr_context_new (names, NULL);
  g_assert_false (ddb_expr_context_check_unused (ctx, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "Value provided in ExpressionAttributeNames unused in expressions: "
                   "keys: {#z9, #n, #a, #b}");
  ddb_expr_context_free (ctx);

  g_hash_table_unref (names);
  g_hash_table_unref (values);
}

/* ---- Path helpers (expr-ast.c) ---------------------------------------------------------- */

static void
test_path_lookup (void)
{
  DdbValue *item = ddb_value_new_m ();
  DdbValue *inner = ddb_value_new_m ();
  DdbValue *list = ddb_value_new_l ();
  Fixture f;
  DdbNode *n;
  DdbPath copy;

  ddb_value_list_append (list, ddb_value_new_s ("zero", -1));
  ddb_value_list_append (list, inner);
  ddb_value_map_set (inner, "c", ddb_value_new_s ("deep", -1));
  ddb_value_map_set (item, "a", list);
  ddb_value_map_set (item, "s", ddb_value_new_s ("str", -1));

  fixture_init (&f);
  n = cond_ok (&f, "a[1].c = :a AND a[0] = :a AND a[2] = :a AND s.x = :a AND a.c = :a AND "
                   "s[0] = :a AND zz = :a");
  /* Walk the left-leaning AND chain from the last condition back. */
  {
    const DdbNode *conds[7];
    const DdbNode *cur = n;

    for (int i = 6; i > 0; i--)
      {
        conds[i] = cur->args[1];
        cur = cur->args[0];
      }
    conds[0] = cur;
    g_assert_cmpstr (ddb_path_lookup (item, &conds[0]->args[0]->path)->bytes.data, ==, "deep");
    g_assert_cmpstr (ddb_path_lookup (item, &conds[1]->args[0]->path)->bytes.data, ==, "zero");
    g_assert_null (ddb_path_lookup (item, &conds[2]->args[0]->path)); /* past the end */
    g_assert_null (ddb_path_lookup (item, &conds[3]->args[0]->path)); /* S is not a map */
    g_assert_null (ddb_path_lookup (item, &conds[4]->args[0]->path)); /* L is not a map */
    g_assert_null (ddb_path_lookup (item, &conds[5]->args[0]->path)); /* S is not a list */
    g_assert_null (ddb_path_lookup (item, &conds[6]->args[0]->path)); /* missing */
    g_assert_null (ddb_path_lookup (NULL, &conds[0]->args[0]->path));

    ddb_path_copy (&copy, &conds[0]->args[0]->path);
  }
  ddb_node_free (n);
  fixture_clear (&f);
  {
    g_autofree char *s = ddb_path_to_string (&copy);

    g_assert_cmpstr (s, ==, "a[1].c");
  }
  g_assert_cmpstr (ddb_path_lookup (item, &copy)->bytes.data, ==, "deep");
  ddb_path_clear (&copy);
  g_assert_cmpuint (copy.n, ==, 0);
  g_assert_null (copy.elems);
  ddb_value_free (item);

  g_assert_cmpstr (ddb_expr_type_name (DDB_EXPR_KEY_CONDITION), ==, "KeyConditionExpression");
  g_assert_cmpstr (ddb_expr_type_name (DDB_EXPR_PROJECTION), ==, "ProjectionExpression");
  ddb_node_free (NULL);
  ddb_update_free (NULL);
  ddb_projection_free (NULL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/expr-parser/condition/precedence", test_precedence);
  g_test_add_func ("/expr-parser/condition/keywords-any-case", test_keywords_any_case);
  g_test_add_func ("/expr-parser/condition/comparators", test_comparators);
  g_test_add_func ("/expr-parser/condition/between-in", test_between_in);
  g_test_add_func ("/expr-parser/condition/functions", test_functions);
  g_test_add_func ("/expr-parser/condition/paths-placeholders", test_paths_and_placeholders);
  g_test_add_func ("/expr-parser/condition/value-copied", test_value_copied);
  g_test_add_func ("/expr-parser/errors/empty", test_empty);
  g_test_add_func ("/expr-parser/errors/size-limit", test_size_limit);
  g_test_add_func ("/expr-parser/errors/syntax", test_syntax_errors);
  g_test_add_func ("/expr-parser/errors/redundant-parentheses", test_redundant_parentheses);
  g_test_add_func ("/expr-parser/errors/reserved-words", test_reserved_words);
  g_test_add_func ("/expr-parser/errors/undefined-placeholders", test_placeholders_undefined);
  g_test_add_func ("/expr-parser/errors/functions-misused", test_functions_misused);
  g_test_add_func ("/expr-parser/errors/operand-types", test_operand_types);
  g_test_add_func ("/expr-parser/errors/between-bounds", test_between_bounds);
  g_test_add_func ("/expr-parser/errors/distinct-operands", test_distinct_operands);
  g_test_add_func ("/expr-parser/errors/limits", test_limits);
  g_test_add_func ("/expr-parser/errors/order", test_error_order);
  g_test_add_func ("/expr-parser/update/tree", test_update_tree);
  g_test_add_func ("/expr-parser/update/errors", test_update_errors);
  g_test_add_func ("/expr-parser/projection", test_projection);
  g_test_add_func ("/expr-parser/context/unused", test_unused);
  g_test_add_func ("/expr-parser/ast/path-lookup", test_path_lookup);
  return g_test_run ();
}
