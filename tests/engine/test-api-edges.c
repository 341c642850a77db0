/* test-api-edges.c: DynamoDB API edge cases in the engine (issue 24), as tables of cases:
 * ADD and DELETE of every value type on every type of target, ReturnValues of updates that
 * touch nothing old (list indexes past the end, missing attributes and map members),
 * UpdateTable definitions that give an attribute another type, ListStreams from a stream ARN
 * that names nothing, tag keys and values outside AWS's characters, lengths and prefix, and
 * tag ARNs that are malformed. tests/server/test-api-edges.py holds the same classes through
 * serve, compared with DynamoDB Local. */
#include <string.h>

#include "engine-test-util.h"

#define ARN "arn:aws:dynamodb:ddblocal:000000000000:table/tagt"
#define BAD_TYPE "An operand in the update expression has an incorrect data type"
#define RETYPED \
  "invalid attribute, SchemaElement redefined should be of same type as previously defined"
#define PATTERN \
  "Member must satisfy regular expression pattern: [\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*"
#define RESERVED \
  "One or more parameter values were invalid: Tag keys and values may not begin with the " \
  "prefix aws:, which AWS reserves for the tags it assigns"

static const char *const ITEM
    = "{'pk': {'S': 'k'}, 'n': {'N': '5'}, 's': {'S': 'str'}, 'ss': {'SS': ['x']},"
      " 'ns': {'NS': ['1']}, 'bs': {'BS': ['AQ==']}, 'l': {'L': [{'S': 'a'}, {'S': 'b'}]},"
      " 'm': {'M': {'a': {'N': '1'}}}, 'b': {'BOOL': true}, 'nul': {'NULL': true},"
      " 'bin': {'B': 'AQ=='}}";

/* ---- ADD and DELETE ---- */

typedef struct {
  const char *path;
  const char *type; /* the type there, NULL: nothing */
} Target;

static const Target targets[] = {
  { "n", "N" },     { "ss", "SS" },     { "ns", "NS" },   { "bs", "BS" },     { "s", "S" },
  { "l", "L" },     { "m", "M" },       { "b", "BOOL" },  { "nul", "NULL" },  { "bin", "B" },
  { "zz", NULL },   { "m.a", "N" },     { "m.zz", NULL }, { "l[0]", "S" },    { "l[7]", NULL },
};

typedef struct {
  const char *type;
  const char *value;
  const char *java; /* as DynamoDB names it in an operand-type error */
} Operand;

static const Operand operands[] = {
  { "N", "{'N': '1'}", "NUMBER" },         { "SS", "{'SS': ['y']}", NULL },
  { "NS", "{'NS': ['2']}", NULL },         { "BS", "{'BS': ['Ag==']}", NULL },
  { "S", "{'S': 'z'}", "STRING" },         { "L", "{'L': []}", "LIST" },
  { "M", "{'M': {}}", "MAP" },             { "BOOL", "{'BOOL': false}", "BOOLEAN" },
  { "NULL", "{'NULL': true}", "NULL" },    { "B", "{'B': 'AQ=='}", "BINARY" },
};

static gboolean
is_set (const char *type)
{
  return strcmp (type, "SS") == 0 || strcmp (type, "NS") == 0 || strcmp (type, "BS") == 0;
}

static void
test_add_delete_matrix (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  static const char *const actions[] = { "ADD", "DELETE" };
  guint checked = 0;

  etu_create_table (e, "upd", "pk", "S");
  for (guint a = 0; a < G_N_ELEMENTS (actions); a++)
    for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
      for (guint o = 0; o < G_N_ELEMENTS (operands); o++)
        {
          const char *action = actions[a];
          const Target *tg = &targets[t];
          const Operand *op = &operands[o];
          gboolean add = a == 0;
          g_autofree char *operand_error = NULL;

          etu_put (e, "upd", ITEM);
          /* ADD takes a number or a set, DELETE a set: anything else is refused when the
           * expression is read. */
          if (add ? strcmp (op->type, "N") != 0 && !is_set (op->type) : !is_set (op->type))
            operand_error = g_strdup_printf (
                "Invalid UpdateExpression: Incorrect operand type for operator or function; "
                "operator: %s, operand type: %s, typeSet: ALLOWED_FOR_%s_OPERAND",
                action, op->java, action);
          if (operand_error != NULL
              || (tg->type != NULL && strcmp (tg->type, op->type) != 0))
            etu_fails (e, "UpdateItem", DDB_ERROR_VALIDATION,
                       operand_error != NULL ? operand_error : BAD_TYPE,
                       "{'TableName': 'upd', 'Key': {'pk': {'S': 'k'}},"
                       " 'UpdateExpression': '%s %s :v', 'ExpressionAttributeValues': {':v': %s}}",
                       action, tg->path, op->value);
          else
            json_decref (etu_ok (e, "UpdateItem",
                                 "{'TableName': 'upd', 'Key': {'pk': {'S': 'k'}},"
                                 " 'UpdateExpression': '%s %s :v',"
                                 " 'ExpressionAttributeValues': {':v': %s}}",
                                 action, tg->path, op->value));
          checked++;
        }
  g_assert_cmpuint (checked, ==, 2 * G_N_ELEMENTS (targets) * G_N_ELEMENTS (operands));
}

/* ---- ReturnValues ---- */

typedef struct {
  const char *expr;
  const char *updated_old; /* NULL: no Attributes */
  const char *updated_new;
} ReturnCase;

static const ReturnCase return_cases[] = {
  /* Nothing old is past a list's end: UPDATED_OLD has nothing to give. */
  { "SET l[10] = :v", NULL, "{'l': {'L': [{'S': 'new'}]}}" },
  { "SET l[2] = :v, l[3] = :v", NULL, "{'l': {'L': [{'S': 'new'}, {'S': 'new'}]}}" },
  { "ADD l[10] :n", NULL, "{'l': {'L': [{'N': '2'}]}}" },
  { "SET zz = :v", NULL, "{'zz': {'S': 'new'}}" },
  { "SET m.zz = :v", NULL, "{'m': {'M': {'zz': {'S': 'new'}}}}" },
  { "ADD zz :n", NULL, "{'zz': {'N': '2'}}" },
  { "REMOVE l[10]", NULL, NULL },
  { "REMOVE zz", NULL, NULL },
  { "DELETE zz :ss", NULL, NULL },
  { "SET l[1] = :v", "{'l': {'L': [{'S': 'b'}]}}", "{'l': {'L': [{'S': 'new'}]}}" },
  { "SET l[0] = :v, l[10] = :v", "{'l': {'L': [{'S': 'a'}]}}",
    "{'l': {'L': [{'S': 'new'}, {'S': 'new'}]}}" },
  { "SET m.a = :v", "{'m': {'M': {'a': {'N': '1'}}}}", "{'m': {'M': {'a': {'S': 'new'}}}}" },
  { "ADD n :n", "{'n': {'N': '5'}}", "{'n': {'N': '7'}}" },
  { "REMOVE l[0]", "{'l': {'L': [{'S': 'a'}]}}", NULL },
};

static void
test_return_values (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();

  etu_create_table (e, "ret", "pk", "S");
  for (guint i = 0; i < G_N_ELEMENTS (return_cases); i++)
    {
      const ReturnCase *c = &return_cases[i];
      static const char *const kinds[] = { "UPDATED_OLD", "UPDATED_NEW" };

      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
        {
          const char *want = k == 0 ? c->updated_old : c->updated_new;
          json_t *r;

          json_t *req = etu_json ("{'TableName': 'ret', 'Key': {'pk': {'S': 'k'}},"
                                  " 'ReturnValues': '%s'}",
                                  kinds[k]);
          json_t *values = json_object ();

          /* Only the values the expression uses (DynamoDB refuses unused ones). */
          if (strstr (c->expr, ":v") != NULL)
            json_object_set_new (values, ":v", etu_json ("{'S': 'new'}"));
          if (strstr (c->expr, ":n") != NULL)
            json_object_set_new (values, ":n", etu_json ("{'N': '2'}"));
          if (strstr (c->expr, ":ss") != NULL)
            json_object_set_new (values, ":ss", etu_json ("{'SS': ['q']}"));
          json_object_set_new (req, "UpdateExpression", json_string (c->expr));
          if (json_object_size (values) > 0)
            json_object_set (req, "ExpressionAttributeValues", values);
          json_decref (values);
          etu_put (e, "ret", ITEM);
          r = etu_call_ok (e, "UpdateItem", req);
          json_decref (req);
          if (want == NULL)
            g_assert_null (json_object_get (r, "Attributes"));
          else
            etu_assert_json (json_object_get (r, "Attributes"), want);
          json_decref (r);
        }
    }
}

/* ---- UpdateTable: definitions that retype ---- */

static void
test_update_table_redefinitions (void)
{
  static const struct {
    const char *defs;
    const char *keys;
    gboolean ok;
  } cases[] = {
    { "[{'AttributeName': 'pk', 'AttributeType': 'N'}]",
      "[{'AttributeName': 'pk', 'KeyType': 'HASH'}]", FALSE },
    { "[{'AttributeName': 'x', 'AttributeType': 'S'}, {'AttributeName': 'pk', 'AttributeType': 'B'}]",
      "[{'AttributeName': 'x', 'KeyType': 'HASH'}]", FALSE },
    { "[{'AttributeName': 'x', 'AttributeType': 'S'}, {'AttributeName': 'x', 'AttributeType': 'N'}]",
      "[{'AttributeName': 'x', 'KeyType': 'HASH'}]", FALSE },
    { "[{'AttributeName': 'pk', 'AttributeType': 'N'}]",
      "[{'AttributeName': 'x', 'KeyType': 'HASH'}]", FALSE },
    { "[{'AttributeName': 'x', 'AttributeType': 'S'}, {'AttributeName': 'pk', 'AttributeType': 'S'}]",
      "[{'AttributeName': 'x', 'KeyType': 'HASH'}, {'AttributeName': 'pk', 'KeyType': 'RANGE'}]",
      TRUE },
    { "[{'AttributeName': 'x', 'AttributeType': 'N'}, {'AttributeName': 'x', 'AttributeType': 'N'}]",
      "[{'AttributeName': 'x', 'KeyType': 'HASH'}]", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (DdbEngine) e = etu_engine_new ();
      json_t *req = etu_json ("{'TableName': 'redef', 'AttributeDefinitions': %s,"
                              " 'GlobalSecondaryIndexUpdates': [{'Create': {'IndexName': 'newidx',"
                              " 'KeySchema': %s, 'Projection': {'ProjectionType': 'ALL'}}}]}",
                              cases[i].defs, cases[i].keys);
      json_t *r;

      etu_create_table (e, "redef", "pk", "S");
      if (!cases[i].ok)
        {
          etu_call_fails (e, "UpdateTable", req, DDB_ERROR_VALIDATION, RETYPED);
          r = etu_ok (e, "DescribeTable", "{'TableName': 'redef'}");
          g_assert_null (json_object_get (json_object_get (r, "Table"), "GlobalSecondaryIndexes"));
          etu_assert_json (json_object_get (json_object_get (r, "Table"), "AttributeDefinitions"),
                           "[{'AttributeName': 'pk', 'AttributeType': 'S'}]");
        }
      else
        r = etu_call_ok (e, "UpdateTable", req);
      json_decref (r);
      json_decref (req);
    }
}

/* ---- ListStreams from an ARN ---- */

static void
test_list_streams_start (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();
  const char *nowhere = "arn:aws:dynamodb:ddblocal:000000000000:table/none/stream/2000-01-01T00:00:00.000";
  g_autofree char *msg
      = g_strdup_printf ("Requested resource not found: Stream: %s not found", nowhere);
  json_t *r, *streams;

  for (guint i = 0; i < 3; i++)
    json_decref (etu_ok (e, "CreateTable",
                         "{'TableName': 'str%u', 'BillingMode': 'PAY_PER_REQUEST',"
                         " 'AttributeDefinitions': [{'AttributeName': 'pk', 'AttributeType': 'S'}],"
                         " 'KeySchema': [{'AttributeName': 'pk', 'KeyType': 'HASH'}],"
                         " 'StreamSpecification': {'StreamEnabled': true,"
                         " 'StreamViewType': 'KEYS_ONLY'}}",
                         i));
  r = etu_ok (e, "DynamoDBStreams_20120810.ListStreams", "{}");
  streams = json_object_get (r, "Streams");
  g_assert_cmpuint (json_array_size (streams), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const char *arn = json_string_value (
          json_object_get (json_array_get (streams, i), "StreamArn"));
      json_t *page = etu_ok (e, "DynamoDBStreams_20120810.ListStreams",
                             "{'ExclusiveStartStreamArn': '%s'}", arn);

      g_assert_cmpuint (json_array_size (json_object_get (page, "Streams")), ==, 2 - i);
      json_decref (page);
    }
  json_decref (r);
  /* Naming no stream is no place to page on from. */
  etu_fails (e, "DynamoDBStreams_20120810.ListStreams", DDB_ERROR_RESOURCE_NOT_FOUND, msg,
             "{'ExclusiveStartStreamArn': '%s'}", nowhere);
  etu_fails (e, "DynamoDBStreams_20120810.ListStreams", DDB_ERROR_VALIDATION,
             "1 validation error detected: Value 'arn:aws:dynamodb:::table/t' at "
             "'exclusiveStartStreamArn' failed to satisfy constraint: Member must have length "
             "greater than or equal to 37",
             "{'ExclusiveStartStreamArn': 'arn:aws:dynamodb:::table/t'}");
}

/* ---- Tags ---- */

typedef struct {
  const char *key;
  const char *value;
  const char *error; /* NULL: accepted; else the constraint the key or value fails */
} TagCase;

static const TagCase tag_cases[] = {
  { "a", "v", NULL },
  { "a b", "a b", NULL },
  { "_.:/=+-@", "_.:/=+-@", NULL },
  { "\xc3\xbc", "\xe6\x97\xa5\xe6\x9c\xac", NULL },        /* ü, 日本: letters */
  { "\xd9\xa3", "\xe2\x85\xab", NULL },                    /* ٣, Ⅻ: numbers */
  { "a\xc2\xa0" "b", "a\xe2\x80\xa8" "b", NULL },          /* space and line separators */
  { "awsx", "aws", NULL },
  { "k", "", NULL },
  { "a#", "v", PATTERN },
  { "a,b", "v", PATTERN },
  { "a\tb", "v", PATTERN },
  { "a\nb", "v", PATTERN },
  { "\xf0\x9f\x98\x80", "v", PATTERN },                    /* an emoji: a symbol */
  { "e\xcc\x81", "v", PATTERN },                           /* a combining mark */
  { "k", "v*", PATTERN },
  { "k", "v;", PATTERN },
  { "k", "\xf0\x9f\x98\x80", PATTERN },
  { "", "v", "Member must have length greater than or equal to 1" },
  { "aws:x", "v", RESERVED },
  { "AWS:x", "v", RESERVED },
  { "k", "aws:x", RESERVED },
  { "k", "Aws:x", RESERVED },
};

static void
test_tag_text (void)
{
  g_autoptr (DdbEngine) e = etu_engine_new ();

  etu_create_table (e, "tagt", "pk", "S");
  for (guint i = 0; i < G_N_ELEMENTS (tag_cases); i++)
    {
      const TagCase *c = &tag_cases[i];
      json_t *req = json_pack ("{ss s[{ssss}]}", "ResourceArn", ARN, "Tags", "Key", c->key,
                               "Value", c->value);
      json_t *untag = json_pack ("{ss s[s]}", "ResourceArn", ARN, "TagKeys", c->key);
      json_t *list;

      if (c->error == NULL)
        {
          json_decref (etu_call_ok (e, "TagResource", req));
          list = etu_ok (e, "ListTagsOfResource", "{'ResourceArn': '" ARN "'}");
          g_assert_cmpuint (json_array_size (json_object_get (list, "Tags")), ==, 1);
          g_assert_cmpstr (json_string_value (json_object_get (
                               json_array_get (json_object_get (list, "Tags"), 0), "Value")),
                           ==, c->value);
          json_decref (list);
          json_decref (etu_call_ok (e, "UntagResource", untag));
        }
      else if (strcmp (c->error, RESERVED) == 0)
        etu_call_fails (e, "TagResource", req, DDB_ERROR_VALIDATION, RESERVED);
      else
        {
          gboolean on_key = strcmp (c->value, "v") == 0;
          g_autofree char *msg = g_strdup_printf (
              "1 validation error detected: Value '%s' at 'tags.1.member.%s' failed to satisfy "
              "constraint: %s",
              on_key ? c->key : c->value, on_key ? "key" : "value", c->error);

          etu_call_fails (e, "TagResource", req, DDB_ERROR_VALIDATION, msg);
          if (on_key)
            {
              g_free (msg);
              msg = g_strdup_printf ("1 validation error detected: Value '%s' at "
                                     "'tagKeys.1.member' failed to satisfy constraint: %s",
                                     c->key, c->error);
              etu_call_fails (e, "UntagResource", untag, DDB_ERROR_VALIDATION, msg);
            }
        }
      list = etu_ok (e, "ListTagsOfResource", "{'ResourceArn': '" ARN "'}");
      etu_assert_json (json_object_get (list, "Tags"), "[]");
      json_decref (list);
      json_decref (untag);
      json_decref (req);
    }
  /* A NUL is no allowed character (a C string of the text would stop short of it). */
  {
    json_t *req = json_pack ("{ss s[{so ss}]}", "ResourceArn", ARN, "Tags", "Key",
                             json_stringn ("a\0b", 3), "Value", "v");

    etu_call_fails (e, "TagResource", req, DDB_ERROR_VALIDATION, NULL);
    json_decref (req);
  }
  /* AWS's own tags cannot be taken away. */
  etu_fails (e, "UntagResource", DDB_ERROR_VALIDATION, RESERVED,
             "{'ResourceArn': '" ARN "', 'TagKeys': ['aws:cloudformation:stack-name']}");
}

static void
test_tag_arns (void)
{
  static const char *const bad[] = {
    "arn:aws:dynamodb:::table/tagt",
    "arn:aws:dynamodb:us-east-1::table/tagt",
    "arn::dynamodb:us-east-1:000000000000:table/tagt",
    "arn:aws:dynamodb:us-east-1:000000000000:table/",
    "arn:aws:dynamodb:us-east-1:000000000000:tables/tagt",
    "arn:aws:dynamodb:us-east-1:000000000000:table/tagt/index/i",
    "arn:aws:s3:::bucket",
    "tagt",
  };
  g_autoptr (DdbEngine) e = etu_engine_new ();

  etu_create_table (e, "tagt", "pk", "S");
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *msg
          = g_strdup_printf ("Invalid TableArn: Invalid ResourceArn provided as input %s", bad[i]);

      etu_fails (e, "TagResource", DDB_ERROR_VALIDATION, msg,
                 "{'ResourceArn': '%s', 'Tags': [{'Key': 'k', 'Value': 'v'}]}", bad[i]);
      etu_fails (e, "UntagResource", DDB_ERROR_VALIDATION, msg,
                 "{'ResourceArn': '%s', 'TagKeys': ['k']}", bad[i]);
      etu_fails (e, "ListTagsOfResource", DDB_ERROR_VALIDATION, msg, "{'ResourceArn': '%s'}",
                 bad[i]);
    }
  json_decref (etu_ok (e, "ListTagsOfResource",
                       "{'ResourceArn': 'arn:aws-cn:dynamodb:cn-north-1:123456789012:table/tagt'}"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/api-edges/add-delete-matrix", test_add_delete_matrix);
  g_test_add_func ("/api-edges/return-values", test_return_values);
  g_test_add_func ("/api-edges/update-table-redefinitions", test_update_table_redefinitions);
  g_test_add_func ("/api-edges/list-streams-start", test_list_streams_start);
  g_test_add_func ("/api-edges/tag-text", test_tag_text);
  g_test_add_func ("/api-edges/tag-arns", test_tag_arns);
  return g_test_run ();
}
