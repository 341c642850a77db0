/* test-load.c: pasted requests back into rows and out again: the seed's query and the rename
 * come back byte for byte, foreign placeholders are renamed without changing what the request
 * does, what rows cannot hold is kept as raw text, and refusals carry DynamoDB's words. */
#include "core/ddbjson.h"
#include "exprbuild/exprbuild.h"
#include "eb-test-util.h"
#include "../core/test-util.h"

static DdbEbModel *
load_ok (DdbEbOperation op, const char *request)
{
  DdbEbModel *m = ddb_eb_model_new (op);
  json_t *req = ebt_json (request);
  GError *error = NULL;

  if (!ddb_eb_load (m, op, req, &error))
    g_error ("load refused: %s", error->message);
  json_decref (req);
  return m;
}

static void
load_refused (DdbEbOperation op, const char *request, const char *message)
{
  g_autoptr (DdbEbModel) m = ddb_eb_model_new (DDB_EB_SCAN);
  json_t *req = ebt_json (request);
  json_t *out;
  GError *error = NULL;

  /* a model that already holds a row keeps it */
  ddb_eb_cond_add (m->condition,
                   ddb_eb_cond_new_test (ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("kept"),
                                                          ebt_s ("yes"))));
  g_assert_false (ddb_eb_load (m, op, req, &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION, message);
  g_error_free (error);
  g_assert_cmpint (m->operation, ==, DDB_EB_SCAN);
  out = ebt_render (m);
  ebt_assert_json (out, "{'TableName': 'T', 'FilterExpression': '#k = :k',"
                        " 'ExpressionAttributeNames': {'#k': 'kept'},"
                        " 'ExpressionAttributeValues': {':k': {'S': 'yes'}}}");
  json_decref (out);
  json_decref (req);
}

/* REQUEST loaded and rendered again must read back to the same trees (SAME_TREES) and behave
 * the same on the sample items; returns the rendered request. */
static json_t *
round_trip (DdbEbOperation op, const char *request, gboolean same_trees,
            const char *const *items)
{
  g_autoptr (DdbEbModel) m = load_ok (op, request);
  json_t *original = ebt_json (request);
  json_t *again = json_deep_copy (original);
  EbtParsed a, b;
  GError *error = NULL;

  g_assert_true (ddb_eb_render (m, again, &error));
  g_assert_no_error (error);
  ebt_parse (original, &a);
  ebt_parse (again, &b);
  if (same_trees)
    {
      if (a.key != NULL)
        g_assert_true (ddb_eb_node_equal (a.key, b.key));
      if (a.condition != NULL)
        g_assert_true (ddb_eb_node_equal (a.condition, b.condition));
      if (a.projection != NULL)
        {
          g_assert_cmpuint (a.projection->n_paths, ==, b.projection->n_paths);
          for (guint i = 0; i < a.projection->n_paths; i++)
            g_assert_true (ddb_eb_path_equal (&a.projection->paths[i], &b.projection->paths[i]));
        }
      if (a.update != NULL)
        {
          g_assert_cmpuint (a.update->n_actions, ==, b.update->n_actions);
          for (guint i = 0; i < a.update->n_actions; i++)
            {
              DdbUpdateAction *x = &a.update->actions[i], *y = &b.update->actions[i];

              g_assert_cmpint (x->kind, ==, y->kind);
              g_assert_true (ddb_eb_path_equal (&x->path, &y->path));
              g_assert_true ((x->operand == NULL) == (y->operand == NULL));
              if (x->operand != NULL)
                g_assert_true (ddb_eb_node_equal (x->operand, y->operand));
            }
        }
    }
  ebt_assert_same_behaviour (&a, &b, items);
  ebt_parsed_clear (&a);
  ebt_parsed_clear (&b);
  json_decref (original);
  return again;
}

#define SEED_QUERY                                                                               \
  "{'TableName': 'ControlPlane', 'ScanIndexForward': false,"                                     \
  " 'KeyConditionExpression': '#er = :er AND begins_with(#d, :p)',"                             \
  " 'ExpressionAttributeNames': {'#er': 'EntityRef', '#d': 'Detail'},"                           \
  " 'ExpressionAttributeValues': {':er': {'S': 'WS#acme'}, ':p': {'S': 'PROJ#'}}}"

#define RENAME                                                                                   \
  "{'TableName': 'Blog', 'Key': {'pk': {'S': 'POST#1'}},"                                        \
  " 'UpdateExpression': 'SET #an = :new', 'ConditionExpression': '#an = :old',"                 \
  " 'ExpressionAttributeNames': {'#an': 'authorName'},"                                          \
  " 'ExpressionAttributeValues': {':new': {'S': 'Mara V.'}, ':old': {'S': 'Mara Vance'}}}"

static const char *const items[] = {
  "{'EntityRef': {'S': 'WS#acme'}, 'Detail': {'S': 'PROJ#2026-0042'}, 'n': {'N': '5'},"
  " 'authorName': {'S': 'Mara Vance'}, 'tags': {'SS': ['a', 'b']}, 'log': {'L': [{'S': 'x'}]},"
  " 'a': {'M': {'b': {'L': [{'N': '1'}, {'N': '2'}]}}}, 'Status': {'S': 'open'}}",
  "{'EntityRef': {'S': 'WS#acme'}, 'Detail': {'S': 'META'}, 'n': {'N': '50'},"
  " 'authorName': {'S': 'M. V.'}, 'tags': {'SS': ['c']}, 'Status': {'S': 'closed'}}",
  "{'EntityRef': {'S': 'WS#other'}, 'Detail': {'S': 'PROJ#1'}, 'log': {'S': 'not a list'}}",
  NULL,
};

static void
test_seed_query (void)
{
  g_autoptr (DdbEbModel) m = load_ok (DDB_EB_QUERY, SEED_QUERY);
  json_t *again;

  g_assert_cmpstr (m->pk_name, ==, "EntityRef");
  g_assert_cmpstr (m->pk_value->bytes.data, ==, "WS#acme");
  g_assert_cmpstr (m->sk_name, ==, "Detail");
  g_assert_cmpint (m->sk_op, ==, DDB_SK_BEGINS_WITH);
  g_assert_cmpstr (m->sk_values[0]->bytes.data, ==, "PROJ#");
  g_assert_null (m->key_raw);

  /* byte for byte: the builder writes what the article writes */
  again = round_trip (DDB_EB_QUERY, SEED_QUERY, TRUE, items);
  ebt_assert_json (again, SEED_QUERY);
  json_decref (again);
}

static void
test_rename (void)
{
  g_autoptr (DdbEbModel) m = load_ok (DDB_EB_UPDATE_ITEM, RENAME);
  const DdbEbAction *act;
  const DdbEbCond *test;
  json_t *again;

  g_assert_cmpuint (m->actions->len, ==, 1);
  act = g_ptr_array_index (m->actions, 0);
  g_assert_null (act->raw);
  g_assert_cmpint (act->kind, ==, DDB_UPDATE_SET);
  g_assert_cmpint (ddb_eb_set_form (act->operand), ==, DDB_EB_SET_VALUE);
  /* rows hold no placeholders of their own */
  g_assert_null (act->operand->placeholder);
  g_assert_cmpint (m->condition->kind, ==, DDB_EB_AND);
  g_assert_cmpuint (m->condition->children->len, ==, 1);
  test = g_ptr_array_index (m->condition->children, 0);
  g_assert_cmpint (test->kind, ==, DDB_EB_TEST);
  g_assert_cmpint (test->node->kind, ==, DDB_NODE_EQ);

  again = round_trip (DDB_EB_UPDATE_ITEM, RENAME, TRUE, items);
  ebt_assert_json (again, RENAME);
  json_decref (again);
}

static void
test_foreign_placeholders (void)
{
  json_t *again = round_trip (
      DDB_EB_SCAN,
      "{'TableName': 'T', 'FilterExpression': '(#n1 = :v1 OR #n1 = :v2) AND NOT contains(#n2, :v3)"
      " AND size(a.b) > :v4',"
      " 'ProjectionExpression': '#n1, a.b[1], #n2',"
      " 'ExpressionAttributeNames': {'#n1': 'Status', '#n2': 'tags'},"
      " 'ExpressionAttributeValues': {':v1': {'S': 'open'}, ':v2': {'S': 'new'},"
      "                               ':v3': {'S': 'c'}, ':v4': {'N': '1'}}}",
      TRUE, items);

  g_assert_cmpstr (json_string_value (json_object_get (again, "FilterExpression")), ==,
                   "(#s = :s OR #s = :s2) AND NOT contains(#t, :t) AND size(#a.#b) > :b");
  g_assert_cmpstr (json_string_value (json_object_get (again, "ProjectionExpression")), ==,
                   "#s, #a.#b[1], #t");
  json_decref (again);
}

static void
test_key_condition_order (void)
{
  static const char *const request
      = "{'TableName': 'T', 'KeyConditionExpression': 'begins_with(#d, :x) AND #er = :y',"
        " 'ExpressionAttributeNames': {'#er': 'EntityRef', '#d': 'Detail'},"
        " 'ExpressionAttributeValues': {':y': {'S': 'WS#acme'}, ':x': {'S': 'PROJ#'}}}";
  g_autoptr (DdbEbModel) m = load_ok (DDB_EB_QUERY, request);
  json_t *again;

  g_assert_cmpstr (m->pk_name, ==, "EntityRef");
  g_assert_cmpstr (m->sk_name, ==, "Detail");
  again = round_trip (DDB_EB_QUERY, request, FALSE, items);
  g_assert_cmpstr (json_string_value (json_object_get (again, "KeyConditionExpression")), ==,
                   "#er = :er AND begins_with(#d, :p)");
  json_decref (again);

  /* two equalities: the key schema says which one is the partition key */
  {
    static const char *const both
        = "{'TableName': 'T', 'KeyConditionExpression': 'sk = :a AND pk = :b',"
          " 'ExpressionAttributeValues': {':a': {'N': '1'}, ':b': {'S': 'p'}}}";
    g_autoptr (DdbEbModel) guess = load_ok (DDB_EB_QUERY, both);
    g_autoptr (DdbEbModel) known = ddb_eb_model_new (DDB_EB_QUERY);
    json_t *req = ebt_json (both);
    GError *error = NULL;

    g_assert_cmpstr (guess->pk_name, ==, "sk");
    ddb_eb_model_set_key_schema (known, "pk", "sk");
    g_assert_true (ddb_eb_load (known, DDB_EB_QUERY, req, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (known->pk_name, ==, "pk");
    g_assert_cmpstr (known->sk_name, ==, "sk");
    g_assert_cmpint (known->sk_op, ==, DDB_SK_EQ);
    json_decref (req);
  }
}

static void
test_kept_as_text (void)
{
  static const char *const key_request
      = "{'TableName': 'T', 'KeyConditionExpression': 'a.b = :v AND #d > :w',"
        " 'ExpressionAttributeNames': {'#d': 'Detail'},"
        " 'ExpressionAttributeValues': {':v': {'S': 'x'}, ':w': {'S': 'y'}}}";
  static const char *const update_request
      = "{'TableName': 'T', 'Key': {'id': {'S': '1'}},"
        " 'UpdateExpression': 'REMOVE #gone SET #l = list_append(if_not_exists(#l, :empty), :more),"
        " #n = #n + :one ADD tags :t',"
        " 'ConditionExpression': 'attribute_exists(#l) OR attribute_not_exists(#n)',"
        " 'ExpressionAttributeNames': {'#gone': 'old', '#l': 'log', '#n': 'n'},"
        " 'ExpressionAttributeValues': {':empty': {'L': []}, ':more': {'L': [{'S': 'y'}]},"
        "                               ':one': {'N': '1'}, ':t': {'SS': ['z']}}}";
  g_autoptr (DdbEbModel) k = load_ok (DDB_EB_QUERY, key_request);
  g_autoptr (DdbEbModel) u = load_ok (DDB_EB_UPDATE_ITEM, update_request);
  const DdbEbAction *raw_act;
  json_t *again;

  /* a nested partition key is no key row */
  g_assert_nonnull (k->key_raw);
  g_assert_null (k->pk_name);
  g_assert_cmpstr (k->key_raw->text, ==, "#a.#b = :v AND #d > :w");
  again = round_trip (DDB_EB_QUERY, key_request, TRUE, items);
  json_decref (again);

  /* list_append over if_not_exists is no SET row; the other actions are */
  g_assert_cmpuint (u->actions->len, ==, 4);
  raw_act = g_ptr_array_index (u->actions, 1);
  g_assert_nonnull (raw_act->raw);
  g_assert_cmpstr (raw_act->raw->text, ==,
                   "SET #l = list_append(if_not_exists(#l, :empty), :more)");
  g_assert_cmpuint (g_hash_table_size (raw_act->raw->values), ==, 2);
  g_assert_null (((DdbEbAction *) g_ptr_array_index (u->actions, 0))->raw);
  g_assert_null (((DdbEbAction *) g_ptr_array_index (u->actions, 2))->raw);
  g_assert_null (((DdbEbAction *) g_ptr_array_index (u->actions, 3))->raw);
  again = round_trip (DDB_EB_UPDATE_ITEM, update_request, TRUE, items);
  g_assert_cmpstr (json_string_value (json_object_get (again, "UpdateExpression")), ==,
                   "REMOVE #o SET #l = list_append(if_not_exists(#l, :empty), :more), "
                   "#n = #n + :n ADD #t :t");
  json_decref (again);
}

/* The length of value PLACEHOLDER's S in a rendered request. */
static gsize
rendered_s_len (json_t *request, const char *placeholder)
{
  json_t *s = json_object_get (
      json_object_get (json_object_get (request, "ExpressionAttributeValues"), placeholder), "S");

  g_assert_true (json_is_string (s));
  return json_string_length (s);
}

/* A string holding U+0000 cannot sit in a row's text entry (it would be cut there): the part
 * that holds one is kept raw, its values whole. */
static void
test_nul_kept_raw (void)
{
  static const char *const pk_request
      = "{'TableName': 'T', 'KeyConditionExpression': 'EntityRef = :e AND Detail > :d',"
        " 'ExpressionAttributeValues': {':e': {'S': 'WS\\u0000acme'}, ':d': {'S': 'P'}}}";
  static const char *const sk_request
      = "{'TableName': 'T', 'KeyConditionExpression': 'EntityRef = :e AND begins_with(Detail, :d)',"
        " 'ExpressionAttributeValues': {':e': {'S': 'WS#acme'}, ':d': {'S': 'P\\u0000'}}}";
  static const char *const update_request
      = "{'TableName': 'T', 'Key': {'id': {'S': '1'}}, 'UpdateExpression': 'SET a = :a, b = :b',"
        " 'ExpressionAttributeValues': {':a': {'S': 'x\\u0000y'}, ':b': {'S': 'xy'}}}";
  g_autoptr (DdbEbModel) pk = load_ok (DDB_EB_QUERY, pk_request);
  g_autoptr (DdbEbModel) sk = load_ok (DDB_EB_QUERY, sk_request);
  g_autoptr (DdbEbModel) u = load_ok (DDB_EB_UPDATE_ITEM, update_request);
  g_autoptr (DdbValue) nul = ddb_value_new_s ("a\0b", 3);
  g_autoptr (DdbValue) plain = ddb_value_new_s ("ab", 2);
  g_autoptr (DdbValue) set = ddb_value_new_set (DDB_TYPE_SS);
  g_autoptr (DdbNode) node = NULL;
  json_t *again;

  ddb_value_set_add (set, ddb_value_new_s ("\0", 1));
  g_assert_false (ddb_eb_value_typeable (nul));
  g_assert_true (ddb_eb_value_typeable (plain));
  /* a set's text is JSON, which escapes it */
  g_assert_true (ddb_eb_value_typeable (set));
  node = ddb_eb_node_new (DDB_NODE_EQ, 2, ebt_p ("a"), ddb_eb_node_value (ddb_value_copy (nul)));
  g_assert_false (ddb_eb_node_typeable (node));

  g_assert_nonnull (pk->key_raw);
  g_assert_null (pk->pk_name);
  again = round_trip (DDB_EB_QUERY, pk_request, TRUE, items);
  g_assert_cmpuint (rendered_s_len (again, ":e"), ==, 7);
  json_decref (again);

  g_assert_nonnull (sk->key_raw);
  g_assert_null (sk->pk_name);
  again = round_trip (DDB_EB_QUERY, sk_request, TRUE, items);
  g_assert_cmpuint (rendered_s_len (again, ":d"), ==, 2);
  json_decref (again);

  g_assert_cmpuint (u->actions->len, ==, 2);
  g_assert_nonnull (((DdbEbAction *) g_ptr_array_index (u->actions, 0))->raw);
  g_assert_null (((DdbEbAction *) g_ptr_array_index (u->actions, 1))->raw);
  again = round_trip (DDB_EB_UPDATE_ITEM, update_request, TRUE, items);
  g_assert_cmpuint (rendered_s_len (again, ":a"), ==, 3);
  json_decref (again);
}

static void
test_corpus (void)
{
  static const struct {
    DdbEbOperation op;
    gboolean same_trees;
    const char *request;
  } corpus[] = {
    { DDB_EB_QUERY, TRUE,
      "{'KeyConditionExpression': 'EntityRef = :pk AND Detail BETWEEN :a AND :b',"
      " 'FilterExpression': 'n IN (:x, :y, :z) OR NOT (attribute_type(n, :type) AND n > :x)',"
      " 'ProjectionExpression': 'Detail, a.b[0]',"
      " 'ExpressionAttributeValues': {':pk': {'S': 'WS#acme'}, ':a': {'S': 'A'}, ':b': {'S': 'Q'},"
      "   ':x': {'N': '5'}, ':y': {'N': '6'}, ':z': {'N': '50'}, ':type': {'S': 'N'}}}" },
    { DDB_EB_SCAN, TRUE,
      "{'FilterExpression': 'size(tags) >= :two AND contains(tags, :a) AND #s <> :closed',"
      " 'ExpressionAttributeNames': {'#s': 'Status'},"
      " 'ExpressionAttributeValues': {':two': {'N': '2'}, ':a': {'S': 'a'},"
      "   ':closed': {'S': 'closed'}}}" },
    /* right-nested: flattened into one group, so the tree differs but not the answers */
    { DDB_EB_SCAN, FALSE,
      "{'FilterExpression': 'n = :a OR (n = :b OR (n = :c OR n = :d))',"
      " 'ExpressionAttributeValues': {':a': {'N': '5'}, ':b': {'N': '50'}, ':c': {'N': '7'},"
      "   ':d': {'N': '8'}}}" },
    { DDB_EB_PUT_ITEM, TRUE,
      "{'Item': {'id': {'S': '1'}}, 'ConditionExpression': 'attribute_not_exists(id)'}" },
    { DDB_EB_DELETE_ITEM, TRUE,
      "{'Key': {'id': {'S': '1'}}, 'ConditionExpression': ':v = n',"
      " 'ExpressionAttributeValues': {':v': {'N': '5'}}}" },
    { DDB_EB_GET_ITEM, TRUE,
      "{'Key': {'id': {'S': '1'}}, 'ProjectionExpression': '#s, tags, a.b[1]',"
      " 'ExpressionAttributeNames': {'#s': 'Status'}}" },
    { DDB_EB_UPDATE_ITEM, TRUE,
      "{'Key': {'id': {'S': '1'}},"
      " 'UpdateExpression': 'SET n = if_not_exists(n, :zero) + :one, dup = Detail,"
      "   #l = list_append(:first, #l) DELETE tags :a',"
      " 'ExpressionAttributeNames': {'#l': 'log'},"
      " 'ExpressionAttributeValues': {':zero': {'N': '0'}, ':one': {'N': '1'},"
      "   ':first': {'L': [{'S': 'f'}]}, ':a': {'SS': ['a']}}}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      json_t *again = round_trip (corpus[i].op, corpus[i].request, corpus[i].same_trees, items);

      json_decref (again);
    }
}

static void
test_refused (void)
{
  load_refused (DDB_EB_QUERY,
                "{'KeyConditionExpression': 'pk = :a', 'ExpressionAttributeValues': {':a': {'S':"
                " 'x'}, ':b': {'S': 'y'}}}",
                "Value provided in ExpressionAttributeValues unused in expressions: keys: {:b}");
  load_refused (DDB_EB_SCAN, "{'FilterExpression': '#a = :a', 'ExpressionAttributeValues': "
                             "{':a': {'S': 'x'}}}",
                "Invalid FilterExpression: An expression attribute name used in the document "
                "path is not defined; attribute name: #a");
  load_refused (DDB_EB_SCAN, "{'FilterExpression': 'a = :a AND', 'ExpressionAttributeValues': "
                             "{':a': {'S': 'x'}}}",
                "Invalid FilterExpression: Syntax error; token: \"<EOF>\", near: \"AND\"");
  load_refused (DDB_EB_SCAN, "{'FilterExpression': 'size = :a', 'ExpressionAttributeValues': "
                             "{':a': {'S': 'x'}}}",
                "Invalid FilterExpression: Attribute name is a reserved keyword; reserved "
                "keyword: size");
  load_refused (DDB_EB_GET_ITEM, "{'FilterExpression': 'a = :a'}",
                "FilterExpression is not a parameter of GetItem");
  load_refused (DDB_EB_QUERY, "{'KeyConditions': {}}",
                "KeyConditions is a legacy parameter, which the builder cannot load; write it as "
                "an expression");
  load_refused (DDB_EB_SCAN, "{'FilterExpression': 5}", "FilterExpression must be a string");
  load_refused (DDB_EB_SCAN, "{'FilterExpression': 'a = :a', 'ExpressionAttributeValues': "
                             "{':a': {'N': 'x1'}}}",
                "ExpressionAttributeValues contains invalid value: The parameter cannot be "
                "converted to a numeric value: x1 for key :a");
  load_refused (DDB_EB_SCAN, "{'FilterExpression': '#a = :a', 'ExpressionAttributeNames': "
                             "{'#a': ''}, 'ExpressionAttributeValues': {':a': {'N': '1'}}}",
                "ExpressionAttributeNames contains invalid value: Empty attribute name for key "
                "#a");
  load_refused (DDB_EB_SCAN, "{'ExpressionAttributeNames': {}}",
                "ExpressionAttributeNames must not be empty");
  load_refused (DDB_EB_SCAN, "{'ExpressionAttributeNames': {'a': 'b'}}",
                "ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\"");
  load_refused (DDB_EB_SCAN, "[]", "The request must be a JSON object");
}

static void
test_load_expression (void)
{
  g_autoptr (DdbEbModel) m = load_ok (DDB_EB_UPDATE_ITEM, RENAME);
  json_t *names = ebt_json ("{'#a': 'authorName', '#x': 'unused'}");
  json_t *values = ebt_json ("{':a': {'S': 'A'}, ':b': {'S': 'B'}}");
  GError *error = NULL;
  json_t *req;

  /* only the condition is replaced, here by an OR at the top */
  g_assert_true (ddb_eb_load_expression (m, DDB_EXPR_CONDITION, "#a = :a OR #a = :b", names,
                                         values, &error));
  g_assert_no_error (error);
  g_assert_cmpint (m->condition->kind, ==, DDB_EB_OR);
  g_assert_cmpuint (m->condition->children->len, ==, 2);
  g_assert_cmpuint (m->actions->len, ==, 1);
  req = ebt_render (m);
  g_assert_cmpstr (json_string_value (json_object_get (req, "ConditionExpression")), ==,
                   "#an = :old OR #an = :old2");
  g_assert_cmpstr (json_string_value (json_object_get (req, "UpdateExpression")), ==,
                   "SET #an = :new");
  json_decref (req);

  /* a refused text leaves the part as it was */
  g_assert_false (ddb_eb_load_expression (m, DDB_EXPR_UPDATE, "SET #a = :zz", names, values,
                                          &error));
  tu_assert_error (error, DDB_ERROR_VALIDATION,
                   "Invalid UpdateExpression: An expression attribute value used in expression "
                   "is not defined; attribute value: :zz");
  g_clear_error (&error);
  g_assert_cmpuint (m->actions->len, ==, 1);

  g_assert_true (ddb_eb_load_expression (m, DDB_EXPR_UPDATE, "REMOVE #a, b", names, NULL,
                                         &error));
  g_assert_cmpuint (m->actions->len, ==, 2);
  g_assert_true (ddb_eb_load_expression (m, DDB_EXPR_PROJECTION, "#a, c.d", names, NULL,
                                         &error));
  g_assert_cmpuint (m->projection->len, ==, 2);
  m->operation = DDB_EB_QUERY;
  g_assert_true (ddb_eb_load_expression (m, DDB_EXPR_KEY_CONDITION, "#x = :a", names, values,
                                         &error));
  g_assert_no_error (error);
  g_assert_cmpstr (m->pk_name, ==, "unused");
  g_assert_cmpint (m->sk_op, ==, DDB_SK_NONE);
  req = ebt_render (m);
  ebt_assert_json (req, "{'TableName': 'T', 'KeyConditionExpression': '#u = :u',"
                        " 'FilterExpression': '#an = :an OR #an = :an2',"
                        " 'ProjectionExpression': '#an, #c.#d',"
                        " 'ExpressionAttributeNames': {'#u': 'unused', '#an': 'authorName',"
                        "                              '#c': 'c', '#d': 'd'},"
                        " 'ExpressionAttributeValues': {':u': {'S': 'A'}, ':an': {'S': 'A'},"
                        "                               ':an2': {'S': 'B'}}}");
  json_decref (req);
  json_decref (names);
  json_decref (values);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/exprbuild/load/seed-query", test_seed_query);
  g_test_add_func ("/exprbuild/load/rename", test_rename);
  g_test_add_func ("/exprbuild/load/foreign-placeholders", test_foreign_placeholders);
  g_test_add_func ("/exprbuild/load/key-condition-order", test_key_condition_order);
  g_test_add_func ("/exprbuild/load/kept-as-text", test_kept_as_text);
  g_test_add_func ("/exprbuild/load/nul-kept-raw", test_nul_kept_raw);
  g_test_add_func ("/exprbuild/load/corpus", test_corpus);
  g_test_add_func ("/exprbuild/load/refused", test_refused);
  g_test_add_func ("/exprbuild/load/load-expression", test_load_expression);
  return g_test_run ();
}
