/* cg-shapes.c: the request structures of the operations codegen writes, member by member as the
 * DynamoDB API reference lists them (legacy parameters included, so that any request the app or
 * a user sends can be written). */
#define G_LOG_DOMAIN "dynoscope-codegen"

#include <string.h>

#include "codegen/codegen-private.h"

#define END { NULL, 0, NULL, NULL }
#define STR(n) { n, CG_STRING, NULL, NULL }
#define ENUM(n, t) { n, CG_ENUM, NULL, t }
#define INT(n) { n, CG_INT, NULL, NULL }
#define LONG(n) { n, CG_LONG, NULL, NULL }
#define BOOL(n) { n, CG_BOOL, NULL, NULL }
#define ITEM(n) { n, CG_ITEM, NULL, NULL }
#define NAMES(n) { n, CG_NAMES, NULL, NULL }
#define STRINGS(n) { n, CG_STRINGS, NULL, NULL }
#define RCC ENUM ("ReturnConsumedCapacity", "ReturnConsumedCapacity")
#define RICM ENUM ("ReturnItemCollectionMetrics", "ReturnItemCollectionMetrics")
#define RVOCCF ENUM ("ReturnValuesOnConditionCheckFailure", "ReturnValuesOnConditionCheckFailure")

/* Legacy conditions and updates. */
static const CgMember expected_members[] = {
  { "Value", CG_VALUE, NULL, NULL },
  BOOL ("Exists"),
  ENUM ("ComparisonOperator", "ComparisonOperator"),
  { "AttributeValueList", CG_VALUES, NULL, NULL },
  END,
};
static const CgShape expected_shape = { "ExpectedAttributeValue", FALSE, expected_members };

static const CgMember condition_members[] = {
  { "AttributeValueList", CG_VALUES, NULL, NULL },
  ENUM ("ComparisonOperator", "ComparisonOperator"),
  END,
};
static const CgShape condition_shape = { "Condition", TRUE, condition_members };

static const CgMember value_update_members[] = {
  { "Value", CG_VALUE, NULL, NULL },
  ENUM ("Action", "AttributeAction"),
  END,
};
static const CgShape value_update_shape = { "AttributeValueUpdate", FALSE, value_update_members };

#define EXPECTED { "Expected", CG_STRUCT_MAP, &expected_shape, NULL }
#define CONDOP ENUM ("ConditionalOperator", "ConditionalOperator")
#define EXPR_MAPS NAMES ("ExpressionAttributeNames"), ITEM ("ExpressionAttributeValues")

static const CgMember get_item_members[] = {
  STR ("TableName"), ITEM ("Key"), STRINGS ("AttributesToGet"), BOOL ("ConsistentRead"), RCC,
  STR ("ProjectionExpression"), NAMES ("ExpressionAttributeNames"), END,
};

static const CgMember put_item_members[] = {
  STR ("TableName"), ITEM ("Item"), EXPECTED, ENUM ("ReturnValues", "ReturnValue"), RCC, RICM,
  CONDOP, STR ("ConditionExpression"), EXPR_MAPS, RVOCCF, END,
};

static const CgMember update_item_members[] = {
  STR ("TableName"), ITEM ("Key"),
  { "AttributeUpdates", CG_STRUCT_MAP, &value_update_shape, NULL },
  EXPECTED, CONDOP, ENUM ("ReturnValues", "ReturnValue"), RCC, RICM,
  STR ("UpdateExpression"), STR ("ConditionExpression"), EXPR_MAPS, RVOCCF, END,
};

static const CgMember delete_item_members[] = {
  STR ("TableName"), ITEM ("Key"), EXPECTED, CONDOP, ENUM ("ReturnValues", "ReturnValue"), RCC,
  RICM, STR ("ConditionExpression"), EXPR_MAPS, RVOCCF, END,
};

static const CgMember query_members[] = {
  STR ("TableName"), STR ("IndexName"), ENUM ("Select", "Select"), STRINGS ("AttributesToGet"),
  INT ("Limit"), BOOL ("ConsistentRead"),
  { "KeyConditions", CG_STRUCT_MAP, &condition_shape, NULL },
  { "QueryFilter", CG_STRUCT_MAP, &condition_shape, NULL },
  CONDOP, BOOL ("ScanIndexForward"), ITEM ("ExclusiveStartKey"), RCC,
  STR ("ProjectionExpression"), STR ("FilterExpression"), STR ("KeyConditionExpression"),
  EXPR_MAPS, END,
};

static const CgMember scan_members[] = {
  STR ("TableName"), STR ("IndexName"), STRINGS ("AttributesToGet"), INT ("Limit"),
  ENUM ("Select", "Select"),
  { "ScanFilter", CG_STRUCT_MAP, &condition_shape, NULL },
  CONDOP, ITEM ("ExclusiveStartKey"), RCC, INT ("TotalSegments"), INT ("Segment"),
  STR ("ProjectionExpression"), STR ("FilterExpression"), EXPR_MAPS, BOOL ("ConsistentRead"),
  END,
};

static const CgMember keys_and_attributes_members[] = {
  { "Keys", CG_ITEMS, NULL, NULL }, STRINGS ("AttributesToGet"), BOOL ("ConsistentRead"),
  STR ("ProjectionExpression"), NAMES ("ExpressionAttributeNames"), END,
};
static const CgShape keys_and_attributes_shape
    = { "KeysAndAttributes", TRUE, keys_and_attributes_members };

static const CgMember batch_get_members[] = {
  { "RequestItems", CG_STRUCT_MAP, &keys_and_attributes_shape, NULL }, RCC, END,
};

static const CgMember put_request_members[] = { ITEM ("Item"), END };
static const CgShape put_request_shape = { "PutRequest", TRUE, put_request_members };
static const CgMember delete_request_members[] = { ITEM ("Key"), END };
static const CgShape delete_request_shape = { "DeleteRequest", TRUE, delete_request_members };
static const CgMember write_request_members[] = {
  { "PutRequest", CG_STRUCT, &put_request_shape, NULL },
  { "DeleteRequest", CG_STRUCT, &delete_request_shape, NULL },
  END,
};
static const CgShape write_request_shape = { "WriteRequest", FALSE, write_request_members };

static const CgMember batch_write_members[] = {
  { "RequestItems", CG_LIST_MAP, &write_request_shape, NULL }, RCC, RICM, END,
};

static const CgMember condition_check_members[] = {
  ITEM ("Key"), STR ("TableName"), STR ("ConditionExpression"), EXPR_MAPS, RVOCCF, END,
};
static const CgShape condition_check_shape
    = { "ConditionCheck", TRUE, condition_check_members };
static const CgMember put_members[] = {
  ITEM ("Item"), STR ("TableName"), STR ("ConditionExpression"), EXPR_MAPS, RVOCCF, END,
};
static const CgShape put_shape = { "Put", TRUE, put_members };
static const CgMember delete_members[] = {
  ITEM ("Key"), STR ("TableName"), STR ("ConditionExpression"), EXPR_MAPS, RVOCCF, END,
};
static const CgShape delete_shape = { "Delete", TRUE, delete_members };
static const CgMember update_members[] = {
  ITEM ("Key"), STR ("UpdateExpression"), STR ("TableName"), STR ("ConditionExpression"),
  EXPR_MAPS, RVOCCF, END,
};
static const CgShape update_shape = { "Update", TRUE, update_members };
static const CgMember transact_write_item_members[] = {
  { "ConditionCheck", CG_STRUCT, &condition_check_shape, NULL },
  { "Put", CG_STRUCT, &put_shape, NULL },
  { "Delete", CG_STRUCT, &delete_shape, NULL },
  { "Update", CG_STRUCT, &update_shape, NULL },
  END,
};
static const CgShape transact_write_item_shape
    = { "TransactWriteItem", FALSE, transact_write_item_members };

static const CgMember transact_write_members[] = {
  { "TransactItems", CG_STRUCT_LIST, &transact_write_item_shape, NULL }, RCC, RICM,
  STR ("ClientRequestToken"), END,
};

static const CgMember get_members[] = {
  ITEM ("Key"), STR ("TableName"), STR ("ProjectionExpression"),
  NAMES ("ExpressionAttributeNames"), END,
};
static const CgShape get_shape = { "Get", TRUE, get_members };
static const CgMember transact_get_item_members[] = {
  { "Get", CG_STRUCT, &get_shape, NULL }, END,
};
/* Get is required, but a structure: the Rust SDK's builder gives the value, not a Result. */
static const CgShape transact_get_item_shape
    = { "TransactGetItem", FALSE, transact_get_item_members };

static const CgMember transact_get_members[] = {
  { "TransactItems", CG_STRUCT_LIST, &transact_get_item_shape, NULL }, RCC, END,
};

/* PartiQL. ReturnValuesOnConditionCheckFailure is in the SDKs' current models of all three
 * statement shapes (botocore before 1.29.150 or so, as Debian's, lacks it). */
#define PARAMETERS { "Parameters", CG_VALUES, NULL, NULL }

static const CgMember execute_statement_members[] = {
  STR ("Statement"), PARAMETERS, BOOL ("ConsistentRead"), STR ("NextToken"), RCC,
  INT ("Limit"), RVOCCF, END,
};

static const CgMember batch_statement_members[] = {
  STR ("Statement"), PARAMETERS, BOOL ("ConsistentRead"), RVOCCF, END,
};
static const CgShape batch_statement_shape
    = { "BatchStatementRequest", TRUE, batch_statement_members };

static const CgMember batch_execute_members[] = {
  { "Statements", CG_STRUCT_LIST, &batch_statement_shape, NULL }, RCC, END,
};

static const CgMember parameterized_statement_members[] = {
  STR ("Statement"), PARAMETERS, RVOCCF, END,
};
static const CgShape parameterized_statement_shape
    = { "ParameterizedStatement", TRUE, parameterized_statement_members };

static const CgMember execute_transaction_members[] = {
  { "TransactStatements", CG_STRUCT_LIST, &parameterized_statement_shape, NULL },
  STR ("ClientRequestToken"), RCC, END,
};

/* Table management. */
static const CgMember attribute_definition_members[] = {
  STR ("AttributeName"), ENUM ("AttributeType", "ScalarAttributeType"), END,
};
static const CgShape attribute_definition_shape
    = { "AttributeDefinition", TRUE, attribute_definition_members };
static const CgMember key_schema_element_members[] = {
  STR ("AttributeName"), ENUM ("KeyType", "KeyType"), END,
};
static const CgShape key_schema_element_shape
    = { "KeySchemaElement", TRUE, key_schema_element_members };
static const CgMember throughput_members[] = {
  LONG ("ReadCapacityUnits"), LONG ("WriteCapacityUnits"), END,
};
static const CgShape throughput_shape = { "ProvisionedThroughput", TRUE, throughput_members };
static const CgMember projection_members[] = {
  ENUM ("ProjectionType", "ProjectionType"), STRINGS ("NonKeyAttributes"), END,
};
static const CgShape projection_shape = { "Projection", FALSE, projection_members };
static const CgMember stream_specification_members[] = {
  BOOL ("StreamEnabled"), ENUM ("StreamViewType", "StreamViewType"), END,
};
static const CgShape stream_specification_shape
    = { "StreamSpecification", TRUE, stream_specification_members };

#define DEFINITIONS { "AttributeDefinitions", CG_STRUCT_LIST, &attribute_definition_shape, NULL }
#define KEY_SCHEMA { "KeySchema", CG_STRUCT_LIST, &key_schema_element_shape, NULL }
#define THROUGHPUT { "ProvisionedThroughput", CG_STRUCT, &throughput_shape, NULL }
#define PROJECTION { "Projection", CG_STRUCT, &projection_shape, NULL }
#define STREAM { "StreamSpecification", CG_STRUCT, &stream_specification_shape, NULL }

static const CgMember gsi_members[] = {
  STR ("IndexName"), KEY_SCHEMA, PROJECTION, THROUGHPUT, END,
};
static const CgShape gsi_shape = { "GlobalSecondaryIndex", TRUE, gsi_members };
static const CgMember lsi_members[] = { STR ("IndexName"), KEY_SCHEMA, PROJECTION, END };
static const CgShape lsi_shape = { "LocalSecondaryIndex", TRUE, lsi_members };

static const CgMember create_table_members[] = {
  DEFINITIONS, STR ("TableName"), KEY_SCHEMA,
  { "LocalSecondaryIndexes", CG_STRUCT_LIST, &lsi_shape, NULL },
  { "GlobalSecondaryIndexes", CG_STRUCT_LIST, &gsi_shape, NULL },
  ENUM ("BillingMode", "BillingMode"), THROUGHPUT, STREAM, BOOL ("DeletionProtectionEnabled"),
  END,
};

static const CgShape create_gsi_action_shape
    = { "CreateGlobalSecondaryIndexAction", TRUE, gsi_members };
static const CgMember update_gsi_action_members[] = { STR ("IndexName"), THROUGHPUT, END };
static const CgShape update_gsi_action_shape
    = { "UpdateGlobalSecondaryIndexAction", TRUE, update_gsi_action_members };
static const CgMember delete_gsi_action_members[] = { STR ("IndexName"), END };
static const CgShape delete_gsi_action_shape
    = { "DeleteGlobalSecondaryIndexAction", TRUE, delete_gsi_action_members };
static const CgMember gsi_update_members[] = {
  { "Update", CG_STRUCT, &update_gsi_action_shape, NULL },
  { "Create", CG_STRUCT, &create_gsi_action_shape, NULL },
  { "Delete", CG_STRUCT, &delete_gsi_action_shape, NULL },
  END,
};
static const CgShape gsi_update_shape = { "GlobalSecondaryIndexUpdate", FALSE, gsi_update_members };

static const CgMember update_table_members[] = {
  DEFINITIONS, STR ("TableName"), ENUM ("BillingMode", "BillingMode"), THROUGHPUT,
  { "GlobalSecondaryIndexUpdates", CG_STRUCT_LIST, &gsi_update_shape, NULL }, STREAM,
  BOOL ("DeletionProtectionEnabled"), END,
};

static const CgMember delete_table_members[] = { STR ("TableName"), END };

static const CgMember ttl_specification_members[] = {
  BOOL ("Enabled"), STR ("AttributeName"), END,
};
static const CgShape ttl_specification_shape
    = { "TimeToLiveSpecification", TRUE, ttl_specification_members };
static const CgMember update_ttl_members[] = {
  STR ("TableName"), { "TimeToLiveSpecification", CG_STRUCT, &ttl_specification_shape, NULL },
  END,
};

static const struct {
  CgShape shape;
  CgFlow flow;
} operations[] = {
  { { "GetItem", TRUE, get_item_members }, CG_READ_ITEM },
  { { "PutItem", TRUE, put_item_members }, CG_WRITE },
  { { "UpdateItem", TRUE, update_item_members }, CG_WRITE },
  { { "DeleteItem", TRUE, delete_item_members }, CG_WRITE },
  { { "Query", TRUE, query_members }, CG_READ_PAGES },
  { { "Scan", TRUE, scan_members }, CG_READ_PAGES },
  { { "BatchGetItem", TRUE, batch_get_members }, CG_READ_BATCH },
  { { "BatchWriteItem", TRUE, batch_write_members }, CG_WRITE_BATCH },
  { { "TransactWriteItems", TRUE, transact_write_members }, CG_WRITE },
  { { "TransactGetItems", TRUE, transact_get_members }, CG_READ_TRANSACT },
  { { "ExecuteStatement", TRUE, execute_statement_members }, CG_STATEMENT },
  { { "BatchExecuteStatement", TRUE, batch_execute_members }, CG_WRITE },
  { { "ExecuteTransaction", TRUE, execute_transaction_members }, CG_WRITE },
  { { "CreateTable", TRUE, create_table_members }, CG_WRITE },
  { { "UpdateTable", TRUE, update_table_members }, CG_WRITE },
  { { "UpdateTimeToLive", TRUE, update_ttl_members }, CG_WRITE },
  { { "DeleteTable", TRUE, delete_table_members }, CG_WRITE },
};

static const char *const operation_names[] = {
  "GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan", "BatchGetItem",
  "BatchWriteItem", "TransactWriteItems", "TransactGetItems", "ExecuteStatement",
  "BatchExecuteStatement", "ExecuteTransaction", "CreateTable", "UpdateTable", "UpdateTimeToLive",
  "DeleteTable", NULL,
};

const char *const *
ddb_codegen_operations (void)
{
  return operation_names;
}

const CgShape *
cg_operation_shape (const char *operation)
{
  for (gsize i = 0; i < G_N_ELEMENTS (operations); i++)
    if (g_strcmp0 (operations[i].shape.name, operation) == 0)
      return &operations[i].shape;
  return NULL;
}

CgFlow
cg_operation_flow (const char *operation)
{
  for (gsize i = 0; i < G_N_ELEMENTS (operations); i++)
    if (g_strcmp0 (operations[i].shape.name, operation) == 0)
      return operations[i].flow;
  g_return_val_if_reached (CG_WRITE);
}

const CgMember *
cg_shape_member (const CgShape *shape, const char *name)
{
  for (const CgMember *m = shape->members; m->name != NULL; m++)
    if (strcmp (m->name, name) == 0)
      return m;
  return NULL;
}

char *
cg_words (const char *name, char separator)
{
  GString *s = g_string_new (NULL);

  for (const char *p = name; *p != '\0'; p++)
    {
      if (g_ascii_isupper (*p) && p != name)
        g_string_append_c (s, separator);
      g_string_append_c (s, g_ascii_tolower (*p));
    }
  return g_string_free (s, FALSE);
}

char *
cg_lower_camel (const char *name)
{
  char *s = g_strdup (name);

  s[0] = g_ascii_tolower (s[0]);
  return s;
}
