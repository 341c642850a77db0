/* test-render.c: the builder's rows rendered as request members: the seed's query and the
 * guarded rename exactly, placeholders for reserved words and odd names, collisions, every
 * condition construct and update form, projections, raw parts, and what is refused. Every
 * rendered request is read back independently with core's parser. */
#include "core/ddbjson.h"
#include "exprbuild/exprbuild.h"
#include "eb-test-util.h"
#include "../core/test-util.h"

static void
assert_member (json_t *req, const char *member, const char *expected)
{
  g_assert_cmpstr (json_string_value (json_object_get (req, member)), ==, expected);
}

/* Renders and reads the request back; returns it. */
static json_t *
render_checked (const DdbEbModel *m)
{
  json_t *req = ebt_render (m);
  EbtParsed parsed;

  ebt_parse (req, &parsed);
  ebt_parsed_clear (&parsed);
  return req;
}

static void
add_test (DdbEbModel *m, DdbNode *node)
{
  ddb_eb_cond_add (m->condition, ddb_eb_cond_new_test (node));
}

/* ---- The seed's query -------------------------------------------------------------------- */

static void
test_seed_query (void)
{
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_QUERY);
  json_t *req;
  EbtParsed parsed;
  DdbKeySchema schema = { "EntityRef", DDB_TYPE_S, "Detail", DDB_TYPE_S };
  DdbKeyCondition kc = { 0 };
  GError *error = NULL;

  ddb_eb_model_set_partition_key (m, "EntityRef", tu_str ("WS#acme"));
  ddb_eb_model_set_sort_key (m, "Detail", DDB_SK_BEGINS_WITH, tu_str ("PROJ#"), NULL);
  req = ebt_render (m);
  ebt_assert_json (req, "{'TableName': 'T',"
                        " 'KeyConditionExpression': '#er = :er AND begins_with(#d, :p)',"
                        " 'ExpressionAttributeNames': {'#er': 'EntityRef', '#d': 'Detail'},"
                        " 'ExpressionAttributeValues': {':er': {'S': 'WS#acme'},"
                        "                               ':p': {'S': 'PROJ#'}}}");
  /* in the order the article writes them */
  g_assert_cmpstr (json_object_iter_key (json_object_iter (
                       json_object_get (req, "ExpressionAttributeNames"))),
                   ==, "#er");

  /* and it is the Query the article means */
  ebt_parse (req, &parsed);
  g_assert_true (ddb_key_condition_analyze (parsed.key, &schema, &kc, &error));
  g_assert_no_error (error);
  g_assert_cmpint (kc.sk_op, ==, DDB_SK_BEGINS_WITH);
  g_assert_cmpstr (kc.pk->bytes.data, ==, "WS#acme");
  g_assert_cmpstr (kc.sk[0]->bytes.data, ==, "PROJ#");
  ddb_key_condition_clear (&kc);
  ebt_parsed_clear (&parsed);
  json_decref (req);
}

static void
test_sort_key_ops (void)
{
  static const struct {
    DdbSortKeyOp op;
    const char *expected;
  } cases[] = {
    { DDB_SK_NONE, "#er = :er" },
    { DDB_SK_EQ, "#er = :er AND #d = :d" },
    { DDB_SK_LT, "#er = :er AND #d < :d" },
    { DDB_SK_LE, "#er = :er AND #d <= :d" },
    { DDB_SK_GT, "#er = :er AND #d > :d" },
    { DDB_SK_GE, "#er = :er AND #d >= :d" },
    { DDB_SK_BETWEEN, "#er = :er AND #d BETWEEN :lo AND :hi" },
    { DDB_SK_BEGINS_WITH, "#er = :er AND begins_with(#d, :p)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_QUERY);
      json_t *req;

      ddb_eb_model_set_partition_key (m, "EntityRef", tu_str ("WS#acme"));
      ddb_eb_model_set_sort_key (m, "Detail", cases[i].op, tu_str ("PROJ#1"),
                                 cases[i].op == DDB_SK_BETWEEN ? tu_str ("PROJ#9") : NULL);
      req = render_checked (m);
      assert_member (req, "KeyConditionExpression", cases[i].expected);
      g_assert_cmpuint (json_object_size (json_object_get (req, "ExpressionAttributeValues")), ==,
                        cases[i].op == DDB_SK_NONE ? 1 : cases[i].op == DDB_SK_BETWEEN ? 3 : 2);
      json_decref (req);
    }
}

/* ---- The guarded rename ------------------------------------------------------------------ */

static void
test_guarded_rename (void)
{
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_UPDATE_ITEM);
  DdbPath author = ebt_path ("authorName");
  json_t *req = ebt_json ("{'TableName': 'Blog', 'Key': {'pk': {'S': 'POST#1'}}}");
  GError *error = NULL;
  EbtParsed parsed;
  g_autoptr (DdbValue) post = tu_item ("{'pk': {'S': 'POST#1'}, 'authorName': {'S': 'Mara Vance'}}");
  g_autoptr (DdbValue) other = tu_item ("{'pk': {'S': 'POST#2'}, 'authorName': {'S': 'M. V.'}}");
  gboolean holds = FALSE;

  ddb_eb_model_add_action (m, ddb_eb_action_new (DDB_UPDATE_SET, &author, ebt_s ("Mara V.")));
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("authorName"), ebt_s ("Mara Vance")));
  ddb_path_clear (&author);

  g_assert_true (ddb_eb_render (m, req, &error));
  g_assert_no_error (error);
  ebt_assert_json (req, "{'TableName': 'Blog', 'Key': {'pk': {'S': 'POST#1'}},"
                        " 'UpdateExpression': 'SET #an = :new',"
                        " 'ConditionExpression': '#an = :old',"
                        " 'ExpressionAttributeNames': {'#an': 'authorName'},"
                        " 'ExpressionAttributeValues': {':new': {'S': 'Mara V.'},"
                        "                               ':old': {'S': 'Mara Vance'}}}");

  ebt_parse (req, &parsed);
  g_assert_true (ddb_condition_eval (parsed.condition, post, &holds, &error) && holds);
  g_assert_true (ddb_condition_eval (parsed.condition, other, &holds, &error) && !holds);
  g_assert_true (ddb_update_apply (parsed.update, post, &error));
  g_assert_no_error (error);
  tu_assert_item (post, "{'pk': {'S': 'POST#1'}, 'authorName': {'S': 'Mara V.'}}");
  ebt_parsed_clear (&parsed);
  json_decref (req);
}

static void
test_guarded_pairs (void)
{
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_UPDATE_ITEM);
  DdbPath a = ebt_path ("alpha"), b = ebt_path ("beta"), c = ebt_path ("gamma");
  json_t *req;

  /* two guarded paths pair their numbers; a SET the condition does not compare keeps its
   * path's alias, and so does a comparison with a path nobody sets */
  ddb_eb_model_add_action (m, ddb_eb_action_new (DDB_UPDATE_SET, &b, ebt_n ("2")));
  ddb_eb_model_add_action (m, ddb_eb_action_new (DDB_UPDATE_SET, &a, ebt_n ("1")));
  ddb_eb_model_add_action (m, ddb_eb_action_new (DDB_UPDATE_SET, &c, ebt_n ("3")));
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("alpha"), ebt_n ("0")));
  add_test (m, ddb_eb_node_new (DDB_NODE_LT, 2, ebt_p ("beta"), ebt_n ("5")));
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("delta"), ebt_n ("4")));
  req = render_checked (m);
  assert_member (req, "ConditionExpression", "#a = :old2 AND #b < :old AND #d = :d");
  assert_member (req, "UpdateExpression", "SET #b = :new, #a = :new2, #g = :g");
  json_decref (req);

  /* outside UpdateItem there is no guarded change */
  m->operation = DDB_EB_DELETE_ITEM;
  req = render_checked (m);
  assert_member (req, "ConditionExpression", "#a = :a AND #b < :b AND #d = :d");
  g_assert_null (json_object_get (req, "UpdateExpression"));
  json_decref (req);
  ddb_path_clear (&a);
  ddb_path_clear (&b);
  ddb_path_clear (&c);
}

/* ---- Names -------------------------------------------------------------------------------- */

static void
test_reserved_words (void)
{
  for (guint bare = 0; bare < 2; bare++)
    {
      g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_SCAN);
      json_t *req;

      m->bare_names = bare;
      add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("Status"), ebt_s ("x")));
      add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("name"), ebt_s ("y")));
      add_test (m, ddb_eb_node_new (DDB_NODE_GT, 2,
                                    ddb_eb_node_new (DDB_NODE_SIZE, 1, ebt_p ("size")),
                                    ebt_n ("3")));
      add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("authorName"), ebt_s ("z")));
      req = render_checked (m);
      if (bare)
        {
          /* only the plain identifier that is not reserved goes bare */
          assert_member (req, "FilterExpression",
                         "#s = :s AND #n = :n AND size(#s2) > :s2 AND authorName = :an");
          ebt_assert_json (json_object_get (req, "ExpressionAttributeNames"),
                           "{'#s': 'Status', '#n': 'name', '#s2': 'size'}");
        }
      else
        {
          assert_member (req, "FilterExpression",
                         "#s = :s AND #n = :n AND size(#s2) > :s2 AND #an = :an");
          ebt_assert_json (json_object_get (req, "ExpressionAttributeNames"),
                           "{'#s': 'Status', '#n': 'name', '#s2': 'size', '#an': 'authorName'}");
        }
      json_decref (req);
    }
}

static void
test_odd_names_are_single (void)
{
  static const char *const known[] = { "order-id", "a.b", NULL };
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_SCAN);
  DdbPath order, dotted, nested;
  EbtParsed parsed;
  json_t *req;
  GError *error = NULL;
  const DdbNode *n;

  g_assert_true (ddb_eb_path_parse_known ("order-id", known, &order, &error));
  g_assert_true (ddb_eb_path_parse_known ("a.b", known, &dotted, &error));
  g_assert_true (ddb_eb_path_parse_known ("a.b.c", known, &nested, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (dotted.n, ==, 1);
  g_assert_cmpuint (nested.n, ==, 3);

  m->bare_names = TRUE;
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ddb_eb_node_path (&order), ebt_s ("1")));
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ddb_eb_node_path (&dotted), ebt_s ("2")));
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ddb_eb_node_path (&nested), ebt_s ("3")));
  req = render_checked (m);
  assert_member (req, "FilterExpression", "#oi = :oi AND #ab = :ab AND a.b.c = :c");
  ebt_assert_json (json_object_get (req, "ExpressionAttributeNames"),
                   "{'#oi': 'order-id', '#ab': 'a.b'}");

  /* read back, "a.b" is still one attribute */
  ebt_parse (req, &parsed);
  n = parsed.condition->args[0]->args[1]->args[0];
  g_assert_cmpuint (n->path.n, ==, 1);
  g_assert_cmpstr (n->path.elems[0].name, ==, "a.b");
  ebt_parsed_clear (&parsed);
  json_decref (req);
  ddb_path_clear (&order);
  ddb_path_clear (&dotted);
  ddb_path_clear (&nested);
}

static void
test_collisions (void)
{
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_SCAN);
  json_t *req;

  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("Detail"), ebt_s ("x")));
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("Date"), ebt_s ("y")));
  add_test (m, ddb_eb_node_new (DDB_NODE_NE, 2, ebt_p ("Detail"), ebt_s ("z")));
  /* the same value on the same alias shares its placeholder; 1.0 is the number 1 */
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("Detail"), ebt_s ("x")));
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("n"), ebt_n ("1")));
  add_test (m, ddb_eb_node_new (DDB_NODE_NE, 2, ebt_p ("n"), ebt_n ("1.0")));
  /* the same value of another type does not */
  add_test (m, ddb_eb_node_new (DDB_NODE_NE, 2, ebt_p ("n"), ebt_s ("1")));
  req = render_checked (m);
  assert_member (req, "FilterExpression",
                 "#d = :d AND #d2 = :d2 AND #d <> :d3 AND #d = :d AND #n = :n AND #n <> :n"
                 " AND #n <> :n2");
  ebt_assert_json (json_object_get (req, "ExpressionAttributeNames"),
                   "{'#d': 'Detail', '#d2': 'Date', '#n': 'n'}");
  ebt_assert_json (json_object_get (req, "ExpressionAttributeValues"),
                   "{':d': {'S': 'x'}, ':d2': {'S': 'y'}, ':d3': {'S': 'z'},"
                   " ':n': {'N': '1'}, ':n2': {'S': '1'}}");
  json_decref (req);
}

static void
test_initials (void)
{
  static const char *const cases[][2] = {
    { "EntityRef", "er" },  { "Detail", "d" },         { "authorName", "an" },
    { "order-id", "oi" },   { "snake_case_name", "scn" }, { "HTTPStatus", "hs" },
    { "userID", "ui" },     { "a.b", "ab" },           { "x y  z", "xyz" },
    { "item2Ref", "ir" },   { "123", "a" },            { "名前", "a" },
    { "Status", "s" },      { "__x__", "x" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = ddb_eb_initials (cases[i][0]);

      g_assert_cmpstr (got, ==, cases[i][1]);
    }
}

/* ---- Every condition construct ------------------------------------------------------------ */

static const char *const sample_items[] = {
  "{'price': {'N': '10'}, 'qty': {'N': '3'}, 'name': {'S': 'apple pie'},"
  " 'tags': {'SS': ['a', 'b']}, 'kind': {'S': 'fruit'}, 'note': {'S': 'n'},"
  " 'a': {'M': {'b': {'L': [{'N': '0'}, {'M': {'c': {'S': 'x'}}}]}}}}",
  "{'price': {'N': '25'}, 'qty': {'N': '30'}, 'name': {'S': 'banana'},"
  " 'tags': {'SS': ['c']}, 'kind': {'N': '1'}}",
  NULL,
};

/* The model's condition rendered as a Scan filter must be EXPECTED, parse back to the tree the
 * rows make, and be true on the sample items as TRUTH says ("TF": true on the first). */
static void
check_condition (DdbEbModel *m, const char *expected, const char *truth)
{
  json_t *req = render_checked (m);
  EbtParsed parsed;

  assert_member (req, "FilterExpression", expected);
  ebt_parse (req, &parsed);
  for (guint i = 0; sample_items[i] != NULL; i++)
    {
      g_autoptr (DdbValue) item = tu_item (sample_items[i]);
      gboolean holds = FALSE;
      GError *error = NULL;

      g_assert_true (ddb_condition_eval (parsed.condition, item, &holds, &error));
      g_assert_no_error (error);
      if (holds != (truth[i] == 'T'))
        g_error ("%s on item %u: %d, expected %c", expected, i, holds, truth[i]);
    }
  ebt_parsed_clear (&parsed);
  json_decref (req);
}

/* One test row; its rendering must also parse back to the very node. */
static void
check_test (DdbNode *node, const char *expected, const char *truth)
{
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_SCAN);
  g_autoptr (DdbNode) copy = ddb_eb_node_copy (node);
  json_t *req;
  EbtParsed parsed;

  add_test (m, node);
  check_condition (m, expected, truth);
  req = render_checked (m);
  ebt_parse (req, &parsed);
  g_assert_true (ddb_eb_node_equal (parsed.condition, copy));
  ebt_parsed_clear (&parsed);
  json_decref (req);
}

static void
test_condition_constructs (void)
{
  DdbPath note = ebt_path ("note"), kind = ebt_path ("kind");

  check_test (ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("price"), ebt_n ("10")), "#p = :p", "TF");
  check_test (ddb_eb_node_new (DDB_NODE_NE, 2, ebt_p ("price"), ebt_n ("10")), "#p <> :p",
              "FT");
  check_test (ddb_eb_node_new (DDB_NODE_LT, 2, ebt_p ("price"), ebt_n ("20")), "#p < :p", "TF");
  check_test (ddb_eb_node_new (DDB_NODE_LE, 2, ebt_p ("price"), ebt_n ("25")), "#p <= :p",
              "TT");
  check_test (ddb_eb_node_new (DDB_NODE_GT, 2, ebt_p ("price"), ebt_n ("10")), "#p > :p", "FT");
  check_test (ddb_eb_node_new (DDB_NODE_GE, 2, ebt_p ("price"), ebt_n ("25")), "#p >= :p",
              "FT");
  check_test (ddb_eb_node_new (DDB_NODE_BETWEEN, 3, ebt_p ("price"), ebt_n ("5"), ebt_n ("20")),
              "#p BETWEEN :lo AND :hi", "TF");
  check_test (ddb_eb_node_new (DDB_NODE_IN, 3, ebt_p ("name"), ebt_s ("banana"), ebt_s ("fig")),
              "#n IN (:n, :n2)", "FT");
  check_test (ddb_eb_node_new (DDB_NODE_ATTRIBUTE_EXISTS, 1, ebt_p ("note")),
              "attribute_exists(#n)", "TF");
  check_test (ddb_eb_node_new (DDB_NODE_ATTRIBUTE_NOT_EXISTS, 1, ddb_eb_node_path (&note)),
              "attribute_not_exists(#n)", "FT");
  check_test (ddb_eb_node_attribute_type (&kind, DDB_TYPE_S), "attribute_type(#k, :t)", "TF");
  check_test (ddb_eb_node_attribute_type (&kind, DDB_TYPE_N), "attribute_type(#k, :t)", "FT");
  check_test (ddb_eb_node_new (DDB_NODE_BEGINS_WITH, 2, ebt_p ("name"), ebt_s ("app")),
              "begins_with(#n, :p)", "TF");
  check_test (ddb_eb_node_new (DDB_NODE_CONTAINS, 2, ebt_p ("tags"), ebt_s ("a")),
              "contains(#t, :t)", "TF");
  check_test (ddb_eb_node_new (DDB_NODE_CONTAINS, 2, ebt_p ("name"), ebt_s ("nan")),
              "contains(#n, :n)", "FT");
  check_test (ddb_eb_node_new (DDB_NODE_GT, 2, ddb_eb_node_new (DDB_NODE_SIZE, 1, ebt_p ("name")),
                               ebt_n ("6")),
              "size(#n) > :n", "TF");
  /* the right side may be a path, and a value may come first */
  check_test (ddb_eb_node_new (DDB_NODE_LT, 2, ebt_p ("qty"), ebt_p ("price")), "#q < #p", "TF");
  check_test (ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_n ("10"), ebt_p ("price")), ":p = #p", "TF");
  check_test (ddb_eb_node_new (DDB_NODE_NOT, 1,
                               ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("price"), ebt_n ("10"))),
              "NOT #p = :p", "FT");
  check_test (ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("a.b[1].c"), ebt_s ("x")),
              "#a.#b[1].#c = :c", "TF");
  ddb_path_clear (&note);
  ddb_path_clear (&kind);
}

static void
test_condition_groups (void)
{
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_SCAN);
  DdbEbCond *or, *and, *not;

  /* an OR inside the AND keeps its parentheses */
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("price"), ebt_n ("10")));
  or = ddb_eb_cond_add (m->condition, ddb_eb_cond_new_group (DDB_EB_OR));
  ddb_eb_cond_add (or, ddb_eb_cond_new_test (
                           ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("qty"), ebt_n ("3"))));
  ddb_eb_cond_add (or, ddb_eb_cond_new_test (
                           ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("qty"), ebt_n ("30"))));
  check_condition (m, "#p = :p AND (#q = :q OR #q = :q2)", "TF");

  /* an AND inside an OR needs none */
  ddb_eb_model_clear (m);
  ddb_eb_cond_free (m->condition);
  m->condition = ddb_eb_cond_new_group (DDB_EB_OR);
  and = ddb_eb_cond_add (m->condition, ddb_eb_cond_new_group (DDB_EB_AND));
  ddb_eb_cond_add (and, ddb_eb_cond_new_test (
                            ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("price"), ebt_n ("25"))));
  ddb_eb_cond_add (and, ddb_eb_cond_new_test (
                            ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("qty"), ebt_n ("30"))));
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("name"), ebt_s ("apple pie")));
  check_condition (m, "#p = :p AND #q = :q OR #n = :n", "TT");

  /* NOT over a group of two */
  ddb_eb_model_clear (m);
  not = ddb_eb_cond_add (m->condition, ddb_eb_cond_new_group (DDB_EB_NOT));
  ddb_eb_cond_add (not, ddb_eb_cond_new_test (
                            ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("price"), ebt_n ("10"))));
  ddb_eb_cond_add (not, ddb_eb_cond_new_test (
                            ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("qty"), ebt_n ("3"))));
  check_condition (m, "NOT (#p = :p AND #q = :q)", "FT");

  /* empty groups are left out, and a filter of nothing is no filter */
  ddb_eb_model_clear (m);
  ddb_eb_cond_add (m->condition, ddb_eb_cond_new_group (DDB_EB_OR));
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("price"), ebt_n ("10")));
  check_condition (m, "#p = :p", "TF");
  ddb_eb_model_clear (m);
  ddb_eb_cond_add (m->condition, ddb_eb_cond_new_group (DDB_EB_NOT));
  {
    json_t *req = render_checked (m);

    ebt_assert_json (req, "{'TableName': 'T'}");
    json_decref (req);
  }
}

static void
test_in_limit (void)
{
  for (guint n = 100; n <= 101; n++)
    {
      g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_SCAN);
      g_autofree DdbNode **args = g_new0 (DdbNode *, n + 1);
      json_t *req = json_object ();
      GError *error = NULL;

      args[0] = ebt_p ("x");
      for (guint i = 1; i <= n; i++)
        {
          g_autofree char *text = g_strdup_printf ("%u", i);

          args[i] = ebt_n (text);
        }
      add_test (m, ddb_eb_node_newv (DDB_NODE_IN, n + 1, args));
      if (n == 100)
        {
          const char *text;

          g_assert_true (ddb_eb_render (m, req, &error));
          g_assert_no_error (error);
          text = json_string_value (json_object_get (req, "FilterExpression"));
          g_assert_true (g_str_has_prefix (text, "#x IN (:x, :x2, :x3, "));
          g_assert_true (g_str_has_suffix (text, ", :x99, :x100)"));
          g_assert_cmpuint (json_object_size (json_object_get (req, "ExpressionAttributeValues")),
                            ==, 100);
        }
      else
        {
          g_assert_false (ddb_eb_render (m, req, &error));
          tu_assert_error (error, DDB_ERROR_VALIDATION,
                           "Invalid FilterExpression: The IN operator is provided with too many "
                           "operands; number of operands: 101");
          g_error_free (error);
          g_assert_cmpuint (json_object_size (req), ==, 0);
        }
      json_decref (req);
    }
}

/* ---- Update actions ------------------------------------------------------------------------ */

static void
add_action (DdbEbModel *m, DdbUpdateKind kind, const char *path, DdbNode *operand,
            DdbEbSetForm form)
{
  DdbPath p = ebt_path (path);
  DdbEbAction *a = ddb_eb_model_add_action (m, ddb_eb_action_new (kind, &p, operand));

  if (kind == DDB_UPDATE_SET)
    g_assert_cmpint (ddb_eb_set_form (a->operand), ==, form);
  ddb_path_clear (&p);
}

static void
test_update_forms (void)
{
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_UPDATE_ITEM);
  g_autoptr (DdbValue) item = tu_item (
      "{'id': {'S': '1'}, 'title': {'S': 'old'}, 'views': {'N': '41'},"
      " 'tags': {'L': [{'S': 'a'}]}, 'log': {'L': [{'S': 'second'}]}, 'obsolete': {'BOOL': true},"
      " 'counter': {'N': '1'}, 'colors': {'SS': ['red', 'blue']}}");
  GError *error = NULL;
  EbtParsed parsed;
  json_t *req;

  add_action (m, DDB_UPDATE_SET, "title", ebt_s ("T"), DDB_EB_SET_VALUE);
  add_action (m, DDB_UPDATE_SET, "copy", ebt_p ("title"), DDB_EB_SET_PATH);
  add_action (m, DDB_UPDATE_SET, "views",
              ddb_eb_node_new (DDB_NODE_PLUS, 2, ebt_p ("views"), ebt_n ("1")), DDB_EB_SET_PLUS);
  add_action (m, DDB_UPDATE_SET, "stock",
              ddb_eb_node_new (DDB_NODE_MINUS, 2,
                               ddb_eb_node_new (DDB_NODE_IF_NOT_EXISTS, 2, ebt_p ("stock"),
                                                ebt_n ("10")),
                               ebt_n ("1")),
              DDB_EB_SET_MINUS);
  add_action (m, DDB_UPDATE_SET, "created",
              ddb_eb_node_new (DDB_NODE_IF_NOT_EXISTS, 2, ebt_p ("created"), ebt_s ("now")),
              DDB_EB_SET_IF_NOT_EXISTS);
  add_action (m, DDB_UPDATE_SET, "tags",
              ddb_eb_node_new (DDB_NODE_LIST_APPEND, 2, ebt_p ("tags"), ebt_v ("{'L': [{'S': 'x'}]}")),
              DDB_EB_SET_LIST_APPEND);
  add_action (m, DDB_UPDATE_SET, "log",
              ddb_eb_node_new (DDB_NODE_LIST_APPEND, 2, ebt_v ("{'L': [{'S': 'first'}]}"),
                               ebt_p ("log")),
              DDB_EB_SET_LIST_APPEND);
  add_action (m, DDB_UPDATE_REMOVE, "obsolete", NULL, 0);
  add_action (m, DDB_UPDATE_ADD, "counter", ebt_n ("5"), 0);
  add_action (m, DDB_UPDATE_DELETE, "colors", ebt_v ("{'SS': ['red']}"), 0);

  req = render_checked (m);
  assert_member (req, "UpdateExpression",
                 "SET #t = :t, #c = #t, #v = #v + :v, #s = if_not_exists(#s, :s) - :s2,"
                 " #c2 = if_not_exists(#c2, :c2), #t2 = list_append(#t2, :t2),"
                 " #l = list_append(:l, #l) REMOVE #o ADD #c3 :c3 DELETE #c4 :c4");
  g_assert_null (json_object_get (req, "ConditionExpression"));

  ebt_parse (req, &parsed);
  g_assert_true (ddb_update_apply (parsed.update, item, &error));
  g_assert_no_error (error);
  tu_assert_item (item,
                  "{'id': {'S': '1'}, 'title': {'S': 'T'}, 'copy': {'S': 'old'},"
                  " 'views': {'N': '42'}, 'stock': {'N': '9'}, 'created': {'S': 'now'},"
                  " 'tags': {'L': [{'S': 'a'}, {'S': 'x'}]},"
                  " 'log': {'L': [{'S': 'first'}, {'S': 'second'}]},"
                  " 'counter': {'N': '6'}, 'colors': {'SS': ['blue']}}");
  ebt_parsed_clear (&parsed);
  json_decref (req);

  /* clauses come in the order of their first action */
  ddb_eb_model_clear (m);
  add_action (m, DDB_UPDATE_REMOVE, "obsolete", NULL, 0);
  add_action (m, DDB_UPDATE_SET, "title", ebt_s ("T"), DDB_EB_SET_VALUE);
  add_action (m, DDB_UPDATE_REMOVE, "old", NULL, 0);
  req = render_checked (m);
  assert_member (req, "UpdateExpression", "REMOVE #o, #o2 SET #t = :t");
  json_decref (req);

  {
    g_autoptr (DdbNode) two_paths = ddb_eb_node_new (DDB_NODE_LIST_APPEND, 2, ebt_p ("a"),
                                                     ebt_p ("b"));
    g_autoptr (DdbNode) nested = ddb_eb_node_new (
        DDB_NODE_LIST_APPEND, 2,
        ddb_eb_node_new (DDB_NODE_IF_NOT_EXISTS, 2, ebt_p ("a"), ebt_v ("{'L': []}")),
        ebt_v ("{'L': []}"));

    g_assert_cmpint (ddb_eb_set_form (two_paths), ==, DDB_EB_SET_OTHER);
    g_assert_cmpint (ddb_eb_set_form (nested), ==, DDB_EB_SET_OTHER);
  }
}

static void
test_projection (void)
{
  static const char *const known[] = { "order-id", NULL };
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_GET_ITEM);
  static const char *const paths[] = { "a.b[2].c", "order-id", "Status", "tags[0]" };
  json_t *req;
  EbtParsed parsed;
  g_autoptr (DdbValue) item = tu_item (
      "{'a': {'M': {'b': {'L': [{'N': '0'}, {'N': '1'}, {'M': {'c': {'S': 'deep'}, 'd': {'S': 'no'}}}]}}},"
      " 'order-id': {'S': 'o1'}, 'Status': {'S': 'ok'}, 'tags': {'L': [{'S': 't0'}, {'S': 't1'}]},"
      " 'other': {'S': 'left out'}}");
  g_autoptr (DdbValue) projected = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      DdbPath p;
      GError *error = NULL;

      g_assert_true (ddb_eb_path_parse_known (paths[i], known, &p, &error));
      ddb_eb_model_add_projection (m, &p);
      ddb_path_clear (&p);
    }
  /* a condition row is not GetItem's: neither it nor its value is sent */
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("x"), ebt_s ("y")));
  req = render_checked (m);
  ebt_assert_json (req, "{'TableName': 'T', 'ProjectionExpression': '#a.#b[2].#c, #oi, #s, #t[0]',"
                        " 'ExpressionAttributeNames': {'#a': 'a', '#b': 'b', '#c': 'c',"
                        "                              '#oi': 'order-id', '#s': 'Status',"
                        "                              '#t': 'tags'}}");
  ebt_parse (req, &parsed);
  projected = ddb_projection_apply (parsed.projection, item);
  tu_assert_item (projected,
                  "{'a': {'M': {'b': {'L': [{'M': {'c': {'S': 'deep'}}}]}}},"
                  " 'order-id': {'S': 'o1'}, 'Status': {'S': 'ok'}, 'tags': {'L': [{'S': 't0'}]}}");
  ebt_parsed_clear (&parsed);
  json_decref (req);
}

/* ---- Values of every type -------------------------------------------------------------------- */

static void
test_value_types (void)
{
  static const char *const attrs[][2] = {
    { "s", "{'S': ''}" },
    { "n", "{'N': '-12345678901234567890123456789012345678'}" },
    { "tiny", "{'N': '1E-130'}" },
    { "t", "{'BOOL': false}" },
    { "z", "{'NULL': true}" },
    { "m", "{'M': {'a': {'L': [{'S': 'x'}, {'NS': ['1']}]}, 'e': {'S': ''}}}" },
    { "l", "{'L': []}" },
    { "ss", "{'SS': ['', 'b']}" },
    { "ns", "{'NS': ['1E-130', '9.9999999999999999999999999999999999999E+125']}" },
    { "bs", "{'BS': ['AA==', '/w==']}" },
  };
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_PUT_ITEM);
  g_autoptr (DdbValue) item = ddb_value_new_m ();
  guchar bytes[256];
  EbtParsed parsed;
  json_t *req;
  gboolean holds = FALSE;
  GError *error = NULL;

  for (guint i = 0; i < 256; i++)
    bytes[i] = (guchar) i;
  for (guint i = 0; i < G_N_ELEMENTS (attrs); i++)
    {
      DdbNode *v = ebt_v (attrs[i][1]);

      ddb_value_map_set (item, attrs[i][0], ddb_value_copy (v->value));
      add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p (attrs[i][0]), v));
    }
  ddb_value_map_set (item, "b", ddb_value_new_b (bytes, sizeof bytes));
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("b"),
                                ddb_eb_node_value (ddb_value_new_b (bytes, sizeof bytes))));

  req = render_checked (m);
  ebt_parse (req, &parsed);
  g_assert_cmpuint (g_hash_table_size (parsed.values), ==, G_N_ELEMENTS (attrs) + 1);
  for (guint i = 0; i < ddb_value_map_size (item); i++)
    {
      const DdbValue *want = ddb_value_map_nth (item, i)->value;
      GHashTableIter iter;
      gpointer value;
      gboolean found = FALSE;

      g_hash_table_iter_init (&iter, parsed.values);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        found = found || ddb_value_equal (value, want);
      g_assert_true (found);
    }
  g_assert_true (ddb_condition_eval (parsed.condition, item, &holds, &error) && holds);
  /* one byte off is another value */
  bytes[200] ^= 1;
  ddb_value_map_set (item, "b", ddb_value_new_b (bytes, sizeof bytes));
  g_assert_true (ddb_condition_eval (parsed.condition, item, &holds, &error) && !holds);
  g_assert_no_error (error);
  ebt_parsed_clear (&parsed);
  json_decref (req);
}

/* ---- What is refused ----------------------------------------------------------------------- */

static void
assert_refused (const DdbEbModel *m, const char *message)
{
  json_t *req = ebt_json ("{'TableName': 'T', 'FilterExpression': 'stale'}");
  GError *error = NULL;

  g_assert_false (ddb_eb_render (m, req, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  g_error_free (error);
  /* untouched */
  ebt_assert_json (req, "{'TableName': 'T', 'FilterExpression': 'stale'}");
  json_decref (req);
}

static void
test_refused (void)
{
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_QUERY);
  DdbPath a = ebt_path ("a"), empty;

  assert_refused (m, "A Query needs the partition key's name and value");
  ddb_eb_model_set_partition_key (m, "pk", NULL);
  assert_refused (m, "The partition key pk needs a value");
  ddb_eb_model_set_partition_key (m, "pk", tu_str ("x"));
  ddb_eb_model_set_sort_key (m, "sk", DDB_SK_BETWEEN, tu_num ("1"), NULL);
  assert_refused (m, "BETWEEN on the sort key needs a lower and an upper value");
  ddb_eb_model_set_sort_key (m, "sk", DDB_SK_BEGINS_WITH, tu_num ("1"), NULL);
  assert_refused (m, "Invalid KeyConditionExpression: Incorrect operand type for operator or "
                     "function; operator or function: begins_with, operand type: N");
  ddb_eb_model_set_sort_key (m, "sk", DDB_SK_BETWEEN, tu_num ("9"), tu_num ("1"));
  assert_refused (m, "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound "
                     "to be greater than or equal to lower bound; lower bound operand: "
                     "AttributeValue: {N:9}, upper bound operand: AttributeValue: {N:1}");
  ddb_eb_model_set_sort_key (m, "sk", DDB_SK_NONE, NULL, NULL);

  /* tests and operands in their places */
  add_test (m, ebt_p ("a"));
  assert_refused (m, "A test must compare or call a function, not be a path");
  ddb_eb_model_clear (m);
  ddb_eb_model_set_partition_key (m, "pk", tu_str ("x"));
  add_test (m, ddb_eb_node_new (DDB_NODE_BETWEEN, 2, ebt_p ("a"), ebt_n ("1")));
  assert_refused (m, "BETWEEN takes 3 operands, not 2");
  ddb_eb_model_clear (m);
  ddb_eb_model_set_partition_key (m, "pk", tu_str ("x"));
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("a"),
                                ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("b"), ebt_n ("1"))));
  assert_refused (m, "= cannot stand where a path or a value goes");
  ddb_eb_model_clear (m);
  ddb_eb_model_set_partition_key (m, "pk", tu_str ("x"));
  ddb_eb_path_init_name (&empty, "");
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ddb_eb_node_path (&empty), ebt_n ("1")));
  assert_refused (m, "An attribute name is empty or not valid UTF-8");
  ddb_path_clear (&empty);

  /* update actions */
  ddb_eb_model_clear (m);
  m->operation = DDB_EB_UPDATE_ITEM;
  ddb_eb_model_add_action (m, ddb_eb_action_new (DDB_UPDATE_SET, &a, NULL));
  assert_refused (m, "SET a needs a value");
  ddb_eb_model_clear (m);
  ddb_eb_model_add_action (m, ddb_eb_action_new (DDB_UPDATE_SET, &a, ebt_n ("1")));
  ddb_eb_model_add_action (m, ddb_eb_action_new (DDB_UPDATE_REMOVE, &a, NULL));
  assert_refused (m, "Invalid UpdateExpression: Two document paths overlap with each other; must "
                     "remove or rewrite one of these paths; path one: [a], path two: [a]");
  ddb_eb_model_clear (m);
  ddb_eb_model_add_action (m, ddb_eb_action_new (DDB_UPDATE_ADD, &a, ebt_s ("x")));
  assert_refused (m, "Invalid UpdateExpression: Incorrect operand type for operator or function; "
                     "operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND");
  ddb_path_clear (&a);
}

static void
test_stale_members_removed (void)
{
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_SCAN);
  DdbPath p = ebt_path ("x");
  json_t *req = ebt_json ("{'TableName': 'T', 'Limit': 5, 'FilterExpression': '#a = :old',"
                          " 'ConditionExpression': 'c', 'KeyConditionExpression': 'k',"
                          " 'UpdateExpression': 'u',"
                          " 'ExpressionAttributeNames': {'#a': 'a'},"
                          " 'ExpressionAttributeValues': {':old': {'S': 'v'}}}");
  GError *error = NULL;

  ddb_eb_model_add_projection (m, &p);
  g_assert_true (ddb_eb_render (m, req, &error));
  g_assert_no_error (error);
  ebt_assert_json (req, "{'TableName': 'T', 'Limit': 5, 'ProjectionExpression': '#x',"
                        " 'ExpressionAttributeNames': {'#x': 'x'}}");
  ddb_eb_model_clear (m);
  g_assert_true (ddb_eb_render (m, req, &error));
  ebt_assert_json (req, "{'TableName': 'T', 'Limit': 5}");
  json_decref (req);
  ddb_path_clear (&p);
}

/* ---- Raw parts ----------------------------------------------------------------------------- */

static DdbEbRaw *
raw (DdbExprType type, const char *text, const char *names, const char *values)
{
  json_t *n = names != NULL ? ebt_json (names) : NULL;
  json_t *v = values != NULL ? ebt_json (values) : NULL;
  GError *error = NULL;
  DdbEbRaw *r = ddb_eb_raw_new (type, text, n, v, &error);

  g_assert_no_error (error);
  g_assert_nonnull (r);
  if (n != NULL)
    json_decref (n);
  if (v != NULL)
    json_decref (v);
  return r;
}

static void
test_raw_parts (void)
{
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_SCAN);
  DdbEbRaw *r;
  DdbPath a = ebt_path ("a");
  json_t *req;

  /* only what the text uses is kept */
  r = raw (DDB_EXPR_CONDITION, "attribute_exists(#x) OR size(#y) > :n",
           "{'#x': 'x-ray', '#y': 'yield', '#z': 'unused'}",
           "{':n': {'N': '3'}, ':unused': {'S': 'u'}}");
  g_assert_cmpuint (g_hash_table_size (r->names), ==, 2);
  g_assert_cmpuint (g_hash_table_size (r->values), ==, 1);
  g_assert_cmpstr (r->text, ==, "attribute_exists(#x) OR size(#y) > :n");
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("Status"), ebt_s ("a")));
  ddb_eb_cond_add (m->condition, ddb_eb_cond_new_raw (r));
  req = render_checked (m);
  assert_member (req, "FilterExpression",
                 "#s = :s AND (attribute_exists(#xr) OR size(#y) > :n)");
  json_decref (req);

  /* a raw part's placeholder that a row's alias took is renamed, never shared */
  ddb_eb_model_clear (m);
  add_test (m, ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("Detail"), ebt_s ("x")));
  ddb_eb_cond_add (m->condition,
                   ddb_eb_cond_new_raw (raw (DDB_EXPR_CONDITION, "#dept = :d",
                                             "{'#dept': 'Dept'}", "{':d': {'S': 'other'}}")));
  req = render_checked (m);
  assert_member (req, "FilterExpression", "#d = :d AND #d2 = :d2");
  ebt_assert_json (json_object_get (req, "ExpressionAttributeValues"),
                   "{':d': {'S': 'x'}, ':d2': {'S': 'other'}}");
  json_decref (req);

  /* update clauses */
  m->operation = DDB_EB_UPDATE_ITEM;
  ddb_eb_model_clear (m);
  ddb_eb_model_add_action (m, ddb_eb_action_new (DDB_UPDATE_SET, &a, ebt_n ("1")));
  ddb_eb_model_add_action (
      m, ddb_eb_action_new_raw (raw (DDB_EXPR_UPDATE,
                                     "SET #l = list_append(if_not_exists(#l, :empty), :v)",
                                     "{'#l': 'log'}",
                                     "{':empty': {'L': []}, ':v': {'L': [{'S': 'x'}]}}")));
  req = render_checked (m);
  assert_member (req, "UpdateExpression",
                 "SET #a = :a, #l = list_append(if_not_exists(#l, :empty), :v)");
  json_decref (req);

  /* a key condition */
  m->operation = DDB_EB_QUERY;
  ddb_eb_model_set_key_raw (m, raw (DDB_EXPR_KEY_CONDITION, "pk = :pk AND sk > :sk", NULL,
                                    "{':pk': {'S': 'a'}, ':sk': {'N': '2'}}"));
  req = render_checked (m);
  assert_member (req, "KeyConditionExpression", "#p = :pk AND #s > :sk");
  json_decref (req);
  ddb_path_clear (&a);
}

static void
test_raw_refused (void)
{
  json_t *names = ebt_json ("{'#a': 'a'}");
  GError *error = NULL;

  g_assert_null (ddb_eb_raw_new (DDB_EXPR_FILTER, "#q = :v", names, NULL, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "Invalid FilterExpression: An expression attribute name used in the document "
                   "path is not defined; attribute name: #q");
  g_clear_error (&error);
  g_assert_null (ddb_eb_raw_new (DDB_EXPR_CONDITION, "#a = ", names, NULL, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"= \"");
  g_clear_error (&error);
  g_assert_null (ddb_eb_raw_new (DDB_EXPR_CONDITION, "Status = #a", names, NULL, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved "
                   "keyword: Status");
  g_clear_error (&error);
  json_decref (names);
}

/* ---- Live validation ----------------------------------------------------------------------- */

static void
test_validate_text (void)
{
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_QUERY);
  GError *error = NULL;

  ddb_eb_model_set_partition_key (m, "EntityRef", tu_str ("WS#acme"));
  ddb_eb_model_set_sort_key (m, "Detail", DDB_SK_BEGINS_WITH, tu_str ("PROJ#"), NULL);
  g_assert_true (ddb_eb_validate_text (m, DDB_EXPR_KEY_CONDITION, "#er = :er", &error));
  g_assert_no_error (error);
  g_assert_true (ddb_eb_validate_text (m, DDB_EXPR_PROJECTION, "#d, #er", &error));
  g_assert_no_error (error);
  g_assert_false (ddb_eb_validate_text (m, DDB_EXPR_FILTER, "#d = :zz", &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "Invalid FilterExpression: An expression attribute value used in expression "
                   "is not defined; attribute value: :zz");
  g_clear_error (&error);
  g_assert_false (ddb_eb_validate_text (m, DDB_EXPR_UPDATE, "SET #d = :p REMOVE #d", &error));
  g_assert_true (g_str_has_prefix (error->message,
                                   "Invalid UpdateExpression: Two document paths overlap"));
  g_clear_error (&error);

  /* a model that cannot render lends no placeholders */
  ddb_eb_model_set_partition_key (m, "EntityRef", NULL);
  g_assert_false (ddb_eb_validate_text (m, DDB_EXPR_KEY_CONDITION, "#er = :er", &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "Invalid KeyConditionExpression: An expression attribute name used in the "
                   "document path is not defined; attribute name: #er");
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/exprbuild/render/seed-query", test_seed_query);
  g_test_add_func ("/exprbuild/render/sort-key-ops", test_sort_key_ops);
  g_test_add_func ("/exprbuild/render/guarded-rename", test_guarded_rename);
  g_test_add_func ("/exprbuild/render/guarded-pairs", test_guarded_pairs);
  g_test_add_func ("/exprbuild/render/reserved-words", test_reserved_words);
  g_test_add_func ("/exprbuild/render/odd-names-are-single", test_odd_names_are_single);
  g_test_add_func ("/exprbuild/render/collisions", test_collisions);
  g_test_add_func ("/exprbuild/render/initials", test_initials);
  g_test_add_func ("/exprbuild/render/condition-constructs", test_condition_constructs);
  g_test_add_func ("/exprbuild/render/condition-groups", test_condition_groups);
  g_test_add_func ("/exprbuild/render/in-limit", test_in_limit);
  g_test_add_func ("/exprbuild/render/update-forms", test_update_forms);
  g_test_add_func ("/exprbuild/render/projection", test_projection);
  g_test_add_func ("/exprbuild/render/value-types", test_value_types);
  g_test_add_func ("/exprbuild/render/refused", test_refused);
  g_test_add_func ("/exprbuild/render/stale-members-removed", test_stale_members_removed);
  g_test_add_func ("/exprbuild/render/raw-parts", test_raw_parts);
  g_test_add_func ("/exprbuild/render/raw-refused", test_raw_refused);
  g_test_add_func ("/exprbuild/render/validate-text", test_validate_text);
  return g_test_run ();
}
