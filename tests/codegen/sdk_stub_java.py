"""A stand-in for the AWS SDK for Java v2, written as Java sources for javac to compile the Java
programs of the code generator against (test-codegen-compile.py; the real SDK cannot be fetched
here): the classes the programs name, with the builder methods, overloads and getters of the
SDK's API reference (software.amazon.awssdk.services.dynamodb.model) for the 17 operations
codegen writes, and bodies that do nothing. write(DIR) writes them and returns their paths."""
import os

# Member kinds and the builder methods the SDK has for them (NAME is the member's method).
SIGNATURES = {
    "S": ["String"],
    "INT": ["Integer"],
    "LONG": ["Long"],
    "BOOL": ["Boolean"],
    "ITEM": ["Map<String, AttributeValue>"],
    "NAMES": ["Map<String, String>"],
    "STRS": ["Collection<String>", "String..."],
    "VALS": ["Collection<AttributeValue>", "AttributeValue..."],
    "ITEMS": ["Collection<? extends Map<String, AttributeValue>>",
              "Map<String, AttributeValue>..."],
}

RVOCCF = "returnValuesOnConditionCheckFailure:E:ReturnValuesOnConditionCheckFailure"
RCC = "returnConsumedCapacity:E:ReturnConsumedCapacity"
RICM = "returnItemCollectionMetrics:E:ReturnItemCollectionMetrics"
EXPR = "expressionAttributeNames:NAMES expressionAttributeValues:ITEM"
LEGACY = "expected:SMAP:ExpectedAttributeValue conditionalOperator:E:ConditionalOperator"

# Class -> members ("name:KIND[:Type]"), as the API reference lists them.
MODEL = {
    "GetItemRequest": f"tableName:S key:ITEM attributesToGet:STRS consistentRead:BOOL {RCC} "
                      "projectionExpression:S expressionAttributeNames:NAMES",
    "PutItemRequest": f"tableName:S item:ITEM {LEGACY} returnValues:E:ReturnValue {RCC} {RICM} "
                      f"conditionExpression:S {EXPR} {RVOCCF}",
    "UpdateItemRequest": f"tableName:S key:ITEM attributeUpdates:SMAP:AttributeValueUpdate "
                         f"{LEGACY} returnValues:E:ReturnValue {RCC} {RICM} updateExpression:S "
                         f"conditionExpression:S {EXPR} {RVOCCF}",
    "DeleteItemRequest": f"tableName:S key:ITEM {LEGACY} returnValues:E:ReturnValue {RCC} {RICM} "
                         f"conditionExpression:S {EXPR} {RVOCCF}",
    "QueryRequest": f"tableName:S indexName:S select:E:Select attributesToGet:STRS limit:INT "
                    "consistentRead:BOOL keyConditions:SMAP:Condition queryFilter:SMAP:Condition "
                    "conditionalOperator:E:ConditionalOperator scanIndexForward:BOOL "
                    f"exclusiveStartKey:ITEM {RCC} projectionExpression:S filterExpression:S "
                    f"keyConditionExpression:S {EXPR}",
    "ScanRequest": "tableName:S indexName:S attributesToGet:STRS limit:INT select:E:Select "
                   "scanFilter:SMAP:Condition conditionalOperator:E:ConditionalOperator "
                   f"exclusiveStartKey:ITEM {RCC} totalSegments:INT segment:INT "
                   f"projectionExpression:S filterExpression:S {EXPR} consistentRead:BOOL",
    "BatchGetItemRequest": f"requestItems:SMAP:KeysAndAttributes {RCC}",
    "BatchWriteItemRequest": f"requestItems:LMAP:WriteRequest {RCC} {RICM}",
    "TransactWriteItemsRequest": f"transactItems:LIST:TransactWriteItem {RCC} {RICM} "
                                 "clientRequestToken:S",
    "TransactGetItemsRequest": f"transactItems:LIST:TransactGetItem {RCC}",
    "ExecuteStatementRequest": f"statement:S parameters:VALS consistentRead:BOOL nextToken:S {RCC} "
                               f"limit:INT {RVOCCF}",
    "BatchExecuteStatementRequest": f"statements:LIST:BatchStatementRequest {RCC}",
    "ExecuteTransactionRequest": f"transactStatements:LIST:ParameterizedStatement "
                                 f"clientRequestToken:S {RCC}",
    "CreateTableRequest": "attributeDefinitions:LIST:AttributeDefinition tableName:S "
                          "keySchema:LIST:KeySchemaElement "
                          "localSecondaryIndexes:LIST:LocalSecondaryIndex "
                          "globalSecondaryIndexes:LIST:GlobalSecondaryIndex "
                          "billingMode:E:BillingMode provisionedThroughput:STRUCT:ProvisionedThroughput "
                          "streamSpecification:STRUCT:StreamSpecification "
                          "deletionProtectionEnabled:BOOL",
    "UpdateTableRequest": "attributeDefinitions:LIST:AttributeDefinition tableName:S "
                          "billingMode:E:BillingMode provisionedThroughput:STRUCT:ProvisionedThroughput "
                          "globalSecondaryIndexUpdates:LIST:GlobalSecondaryIndexUpdate "
                          "streamSpecification:STRUCT:StreamSpecification "
                          "deletionProtectionEnabled:BOOL",
    "UpdateTimeToLiveRequest": "tableName:S timeToLiveSpecification:STRUCT:TimeToLiveSpecification",
    "DeleteTableRequest": "tableName:S",
    # Structures.
    "ExpectedAttributeValue": "value:STRUCT:AttributeValue exists:BOOL "
                              "comparisonOperator:E:ComparisonOperator attributeValueList:VALS",
    "Condition": "attributeValueList:VALS comparisonOperator:E:ComparisonOperator",
    "AttributeValueUpdate": "value:STRUCT:AttributeValue action:E:AttributeAction",
    "KeysAndAttributes": "keys:ITEMS attributesToGet:STRS consistentRead:BOOL "
                         "projectionExpression:S expressionAttributeNames:NAMES",
    "PutRequest": "item:ITEM",
    "DeleteRequest": "key:ITEM",
    "WriteRequest": "putRequest:STRUCT:PutRequest deleteRequest:STRUCT:DeleteRequest",
    "ConditionCheck": f"key:ITEM tableName:S conditionExpression:S {EXPR} {RVOCCF}",
    "Put": f"item:ITEM tableName:S conditionExpression:S {EXPR} {RVOCCF}",
    "Delete": f"key:ITEM tableName:S conditionExpression:S {EXPR} {RVOCCF}",
    "Update": f"key:ITEM updateExpression:S tableName:S conditionExpression:S {EXPR} {RVOCCF}",
    "TransactWriteItem": "conditionCheck:STRUCT:ConditionCheck put:STRUCT:Put "
                         "delete:STRUCT:Delete update:STRUCT:Update",
    "Get": "key:ITEM tableName:S projectionExpression:S expressionAttributeNames:NAMES",
    "TransactGetItem": "get:STRUCT:Get",
    "BatchStatementRequest": f"statement:S parameters:VALS consistentRead:BOOL {RVOCCF}",
    "ParameterizedStatement": f"statement:S parameters:VALS {RVOCCF}",
    "AttributeDefinition": "attributeName:S attributeType:E:ScalarAttributeType",
    "KeySchemaElement": "attributeName:S keyType:E:KeyType",
    "ProvisionedThroughput": "readCapacityUnits:LONG writeCapacityUnits:LONG",
    "Projection": "projectionType:E:ProjectionType nonKeyAttributes:STRS",
    "StreamSpecification": "streamEnabled:BOOL streamViewType:E:StreamViewType",
    "GlobalSecondaryIndex": "indexName:S keySchema:LIST:KeySchemaElement "
                            "projection:STRUCT:Projection "
                            "provisionedThroughput:STRUCT:ProvisionedThroughput",
    "LocalSecondaryIndex": "indexName:S keySchema:LIST:KeySchemaElement projection:STRUCT:Projection",
    "CreateGlobalSecondaryIndexAction": "indexName:S keySchema:LIST:KeySchemaElement "
                                        "projection:STRUCT:Projection "
                                        "provisionedThroughput:STRUCT:ProvisionedThroughput",
    "UpdateGlobalSecondaryIndexAction": "indexName:S "
                                        "provisionedThroughput:STRUCT:ProvisionedThroughput",
    "DeleteGlobalSecondaryIndexAction": "indexName:S",
    "GlobalSecondaryIndexUpdate": "update:STRUCT:UpdateGlobalSecondaryIndexAction "
                                  "create:STRUCT:CreateGlobalSecondaryIndexAction "
                                  "delete:STRUCT:DeleteGlobalSecondaryIndexAction",
    "TimeToLiveSpecification": "enabled:BOOL attributeName:S",
    "AttributeValue": "s:S n:S b:STRUCT:SdkBytes ss:STRS ns:STRS bs:BYTES m:ITEM l:VALS bool:BOOL "
                      "nul:BOOL",
}

ITEM_T = "Map<String, AttributeValue>"
ITEMS_T = f"List<{ITEM_T}>"
# Response -> getters the SDK has (return type, name), beyond toString.
RESPONSES = {
    "GetItem": [(ITEM_T, "item"), ("boolean", "hasItem")],
    "PutItem": [(ITEM_T, "attributes")],
    "UpdateItem": [(ITEM_T, "attributes")],
    "DeleteItem": [(ITEM_T, "attributes")],
    "Query": [(ITEMS_T, "items"), ("Integer", "count"), (ITEM_T, "lastEvaluatedKey"),
              ("boolean", "hasLastEvaluatedKey")],
    "Scan": [(ITEMS_T, "items"), ("Integer", "count"), (ITEM_T, "lastEvaluatedKey"),
             ("boolean", "hasLastEvaluatedKey")],
    "BatchGetItem": [(f"Map<String, {ITEMS_T}>", "responses"),
                     ("Map<String, KeysAndAttributes>", "unprocessedKeys")],
    "BatchWriteItem": [("Map<String, List<WriteRequest>>", "unprocessedItems")],
    "TransactWriteItems": [],
    "TransactGetItems": [("List<ItemResponse>", "responses")],
    "ExecuteStatement": [(ITEMS_T, "items"), ("String", "nextToken")],
    "BatchExecuteStatement": [("List<BatchStatementResponse>", "responses")],
    "ExecuteTransaction": [("List<ItemResponse>", "responses")],
    "CreateTable": [], "UpdateTable": [], "UpdateTimeToLive": [], "DeleteTable": [],
}
# Getters of request classes the programs read (the fan-out copies a Query's values).
GETTERS = {"QueryRequest": [(ITEM_T, "expressionAttributeValues")]}

HEADER = "package software.amazon.awssdk.services.dynamodb.model;\n\nimport java.util.*;\n" \
         "import software.amazon.awssdk.core.SdkBytes;\n\n"


def _methods(member):
    name, kind, *rest = member.split(":")
    t = rest[0] if rest else None
    if kind == "E":
        return [(name, "String"), (name, t)]
    if kind == "STRUCT":
        return [(name, t)]
    if kind == "LIST":
        return [(name, f"Collection<{t}>"), (name, f"{t}...")]
    if kind == "SMAP":
        return [(name, f"Map<String, {t}>")]
    if kind == "LMAP":
        return [(name, f"Map<String, ? extends Collection<{t}>>")]
    if kind == "BYTES":
        return [(name, "Collection<SdkBytes>"), (name, "SdkBytes...")]
    return [(name, s) for s in SIGNATURES[kind]]


def _class(name, members, getters=()):
    enums = {m.split(":")[2] for m in members.split() if m.split(":")[1] == "E"}
    lines = [HEADER, f"public final class {name} {{\n",
             f"    public static Builder builder() {{ return null; }}\n",
             f"    public Builder toBuilder() {{ return null; }}\n"]
    for rtype, getter in getters:
        lines.append(f"    public {rtype} {getter}() {{ return null; }}\n")
    if name == "AttributeValue":
        lines.append("    public static AttributeValue fromS(String s) { return null; }\n")
    lines.append("    public interface Builder {\n")
    for member in members.split():
        for method, ptype in _methods(member):
            lines.append(f"        Builder {method}({ptype} value);\n")
    lines.append(f"        {name} build();\n    }}\n}}\n")
    return "".join(lines), enums


def _response(op, getters):
    text = [HEADER, f"public final class {op}Response {{\n"]
    for rtype, getter in getters:
        ret = "false" if rtype == "boolean" else "null"
        text.append(f"    public {rtype} {getter}() {{ return {ret}; }}\n")
    text.append(f"    public Builder toBuilder() {{ return null; }}\n"
                f"    public interface Builder {{ {op}Response build(); }}\n}}\n")
    return "".join(text)


OTHER = {
    "software/amazon/awssdk/core/SdkBytes.java":
        "package software.amazon.awssdk.core;\n\npublic final class SdkBytes {\n"
        "    public static SdkBytes fromByteArray(byte[] bytes) { return null; }\n}\n",
    "software/amazon/awssdk/regions/Region.java":
        "package software.amazon.awssdk.regions;\n\npublic final class Region {\n"
        "    public static Region of(String value) { return null; }\n}\n",
    "software/amazon/awssdk/auth/credentials/AwsCredentialsProvider.java":
        "package software.amazon.awssdk.auth.credentials;\n\n"
        "public interface AwsCredentialsProvider {}\n",
    "software/amazon/awssdk/auth/credentials/ProfileCredentialsProvider.java":
        "package software.amazon.awssdk.auth.credentials;\n\n"
        "public final class ProfileCredentialsProvider implements AwsCredentialsProvider {\n"
        "    public static ProfileCredentialsProvider create(String profileName) { return null; }\n"
        "}\n",
    "software/amazon/awssdk/utils/SdkAutoCloseable.java":
        "package software.amazon.awssdk.utils;\n\n"
        "public interface SdkAutoCloseable extends AutoCloseable {\n    @Override\n"
        "    void close();\n}\n",
    "software/amazon/awssdk/services/dynamodb/model/ItemResponse.java":
        HEADER + "public final class ItemResponse {\n"
        "    public Map<String, AttributeValue> item() { return null; }\n"
        "    public boolean hasItem() { return false; }\n}\n",
    "software/amazon/awssdk/services/dynamodb/model/BatchStatementError.java":
        HEADER + "public final class BatchStatementError {\n"
        "    public String codeAsString() { return null; }\n"
        "    public String message() { return null; }\n"
        "    public Map<String, AttributeValue> item() { return null; }\n}\n",
    "software/amazon/awssdk/services/dynamodb/model/BatchStatementResponse.java":
        HEADER + "public final class BatchStatementResponse {\n"
        "    public BatchStatementError error() { return null; }\n"
        "    public String tableName() { return null; }\n"
        "    public Map<String, AttributeValue> item() { return null; }\n}\n",
}


def write(directory):
    files = dict(OTHER)
    model = "software/amazon/awssdk/services/dynamodb/model/"
    enums = set()
    for name, members in MODEL.items():
        text, used = _class(name, members, GETTERS.get(name, ()))
        files[model + name + ".java"] = text
        enums |= used
    for enum in enums:
        files[model + enum + ".java"] = (HEADER + f"public enum {enum} {{ UNKNOWN_TO_SDK_VERSION }}\n")
    client = ["package software.amazon.awssdk.services.dynamodb;\n\nimport java.net.URI;\n"
              "import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;\n"
              "import software.amazon.awssdk.regions.Region;\n"
              "import software.amazon.awssdk.services.dynamodb.model.*;\n"
              "import software.amazon.awssdk.utils.SdkAutoCloseable;\n\n"
              "public interface DynamoDbClient extends SdkAutoCloseable {\n"
              "    static DynamoDbClientBuilder builder() { return null; }\n"]
    for op, getters in RESPONSES.items():
        method = op[0].lower() + op[1:]
        client.append(f"    default {op}Response {method}({op}Request request) {{ return null; }}\n")
        files[model + op + "Response.java"] = _response(op, getters)
    client.append("    interface DynamoDbClientBuilder {\n"
                  "        DynamoDbClientBuilder region(Region region);\n"
                  "        DynamoDbClientBuilder credentialsProvider(AwsCredentialsProvider p);\n"
                  "        DynamoDbClientBuilder endpointOverride(URI endpoint);\n"
                  "        DynamoDbClient build();\n    }\n}\n")
    files["software/amazon/awssdk/services/dynamodb/DynamoDbClient.java"] = "".join(client)
    paths = []
    for rel, text in files.items():
        path = os.path.join(directory, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        paths.append(path)
    return paths
