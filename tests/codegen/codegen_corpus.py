"""The requests the code generator's tests write as programs: every operation codegen covers, in
an order that can be replayed (writes build the state the reads then read), with values that
break naive quoting: 38-digit numbers, 1E-130, every byte value in binary, sets, maps and lists
nested 32 deep, empty strings, NUL, quotes, backslashes, $HOME, backticks, newlines, emoji and
right-to-left text."""

import base64

TABLE = "Codegen"
OTHER = "Codegen.Other-2"

TABLES = [
    {"TableName": TABLE,
     "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
     "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"}],
     "BillingMode": "PAY_PER_REQUEST"},
    {"TableName": OTHER,
     "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
     "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "B"}],
     "BillingMode": "PAY_PER_REQUEST"},
]

NASTY = "q'\"\\ $HOME `id` $(id) ${x} \n\r\t \u0000 end \u00e9 \U0001F680 \u05e9\u05dc\u05d5\u05dd " \
        "\u0645\u0631\u062d\u0628\u0627 \u202e\u2066 \u2028 {x} %s %% \x7f"
ALL_BYTES = base64.b64encode(bytes(range(256))).decode()
BIG_N = "12345678901234567890123456789012345678"
TINY_N = "1E-130"
HUGE_N = "9.9999999999999999999999999999999999999E+125"


def s(text):
    return {"S": text}


def n(text):
    return {"N": text}


def b(data):
    return {"B": base64.b64encode(data).decode()}


def deep(levels):
    """A value nested LEVELS deep, alternating maps and lists."""
    v = s("bottom " + NASTY)
    for i in range(levels):
        v = {"M": {"k" + str(i): v}} if i % 2 else {"L": [v, n(str(i))]}
    return v


def rich_item(pk, sk):
    return {
        "pk": s(pk),
        "sk": n(sk),
        "nasty": s(NASTY),
        "empty": s(""),
        "big": n(BIG_N),
        "tiny": n(TINY_N),
        "huge": n("-" + HUGE_N),
        "bytes": {"B": ALL_BYTES},
        "nobytes": {"B": ""},
        "flag": {"BOOL": False},
        "nothing": {"NULL": True},
        "tags": {"SS": ["a", "", NASTY, "\U0001F680"]},
        "nums": {"NS": [BIG_N, TINY_N, "0", "-1.5"]},
        "blobs": {"BS": [ALL_BYTES, "AA==", "/w=="]},
        # Attribute names that need care too: a dot, a dash, a reserved word, quotes, "__proto__".
        "a.b": s("dot"),
        "order-id": s("dash"),
        "Status": s("reserved"),
        "it's \"quoted\" \\": s("name"),
        "__proto__": {"M": {"x": n("1")}},
        "deep": deep(31),
        "list": {"L": [s("x"), n("2"), {"M": {}}, {"L": []}, {"NULL": True}]},
    }


def steps():
    """(operation, request, kind) in replay order; kind is "write" or "read"."""
    nm = {"#n": "nasty", "#s": "Status", "#t": "tags", "#c": "count", "#e": "empty"}
    return [
        ("PutItem", {"TableName": TABLE, "Item": rich_item("p#1", "1"),
                     "ReturnConsumedCapacity": "TOTAL"}, "write"),
        ("PutItem", {"TableName": TABLE, "Item": rich_item("p#1", "2.5"),
                     "ConditionExpression": "attribute_not_exists(#n)",
                     "ExpressionAttributeNames": {"#n": "nasty"}}, "write"),
        ("PutItem", {"TableName": TABLE, "Item": {"pk": s("p#1"), "sk": n("3"), "v": s(NASTY)}},
         "write"),
        ("PutItem", {"TableName": TABLE, "Item": {"pk": s("p#2"), "sk": n("-" + TINY_N)}},
         "write"),
        ("UpdateItem", {"TableName": TABLE, "Key": {"pk": s("p#1"), "sk": n("1")},
                        "UpdateExpression": "SET #n = :v, #s = :s ADD #c :big, #t :more "
                                            "REMOVE #e",
                        "ConditionExpression": "#n = :old AND size(#t) > :zero",
                        "ExpressionAttributeNames": nm,
                        "ExpressionAttributeValues": {
                            ":v": s(NASTY + " v2"), ":s": s("`$HOME`"), ":big": n(BIG_N),
                            ":more": {"SS": ["new \u05e9"]}, ":old": s(NASTY), ":zero": n("0")},
                        "ReturnValues": "ALL_NEW"}, "write"),
        ("DeleteItem", {"TableName": TABLE, "Key": {"pk": s("p#2"), "sk": n("-" + TINY_N)},
                        "ConditionExpression": "attribute_exists(pk)",
                        "ReturnValues": "ALL_OLD"}, "write"),
        ("BatchWriteItem", {"RequestItems": {
            TABLE: [{"PutRequest": {"Item": {"pk": s("p#3"), "sk": n(str(i)),
                                             "v": s(NASTY * (i + 1))}}} for i in range(4)]
            + [{"DeleteRequest": {"Key": {"pk": s("p#1"), "sk": n("3")}}}],
            OTHER: [{"PutRequest": {"Item": {"id": {"B": ALL_BYTES}, "v": deep(20)}}},
                    {"PutRequest": {"Item": {"id": b(b"\x00"), "v": s("")}}}],
        }}, "write"),
        ("TransactWriteItems", {"TransactItems": [
            {"Put": {"TableName": TABLE, "Item": {"pk": s("t#1"), "sk": n("1"), "v": s(NASTY)},
                     "ConditionExpression": "attribute_not_exists(pk)"}},
            {"Update": {"TableName": TABLE, "Key": {"pk": s("p#3"), "sk": n("0")},
                        "UpdateExpression": "SET #l = list_append(if_not_exists(#l, :e), :x)",
                        "ExpressionAttributeNames": {"#l": "list"},
                        "ExpressionAttributeValues": {":e": {"L": []},
                                                      ":x": {"L": [s(NASTY), b(b"\xff\x00")]}}}},
            {"ConditionCheck": {"TableName": OTHER, "Key": {"id": b(b"\x00")},
                                "ConditionExpression": "v = :e",
                                "ExpressionAttributeValues": {":e": s("")}}},
            {"Delete": {"TableName": TABLE, "Key": {"pk": s("p#3"), "sk": n("3")}}},
        ], "ReturnConsumedCapacity": "TOTAL"}, "write"),
        ("GetItem", {"TableName": TABLE, "Key": {"pk": s("p#1"), "sk": n("1")},
                     "ConsistentRead": True}, "read"),
        ("GetItem", {"TableName": TABLE, "Key": {"pk": s("p#1"), "sk": n("2.5")},
                     "ProjectionExpression": "#n, deep.L[1], #d",
                     "ExpressionAttributeNames": {"#n": "nasty", "#d": "a.b"}}, "read"),
        ("GetItem", {"TableName": TABLE, "Key": {"pk": s("absent"), "sk": n("1")}}, "read"),
        ("Query", {"TableName": TABLE, "KeyConditionExpression": "#pk = :pk AND #sk BETWEEN :lo AND :hi",
                   "ExpressionAttributeNames": {"#pk": "pk", "#sk": "sk"},
                   "ExpressionAttributeValues": {":pk": s("p#3"), ":lo": n("0"),
                                                 ":hi": n(BIG_N)},
                   "ScanIndexForward": False, "Limit": 1}, "read"),
        ("Query", {"TableName": TABLE, "KeyConditionExpression": "pk = :pk",
                   "FilterExpression": "contains(v, :dollar) OR attribute_exists(nasty)",
                   "ExpressionAttributeValues": {":pk": s("p#1"), ":dollar": s("$HOME")},
                   "Limit": 1}, "read"),
        ("Query", {"TableName": TABLE, "KeyConditionExpression": "pk = :pk",
                   "ExpressionAttributeValues": {":pk": s("p#3")}, "Select": "COUNT"}, "read"),
        ("Scan", {"TableName": TABLE, "Limit": 2, "ReturnConsumedCapacity": "TOTAL"}, "read"),
        ("Scan", {"TableName": OTHER, "FilterExpression": "attribute_type(v, :m) OR v = :e",
                  "ExpressionAttributeValues": {":m": s("L"), ":e": s("")}}, "read"),
        ("BatchGetItem", {"RequestItems": {
            TABLE: {"Keys": [{"pk": s("p#1"), "sk": n("1")}, {"pk": s("p#3"), "sk": n("2")},
                             {"pk": s("nope"), "sk": n("0")}],
                    "ConsistentRead": True},
            OTHER: {"Keys": [{"id": {"B": ALL_BYTES}}, {"id": b(b"\x00")}],
                    "ProjectionExpression": "id, #v", "ExpressionAttributeNames": {"#v": "v"}},
        }}, "read"),
        ("TransactGetItems", {"TransactItems": [
            {"Get": {"TableName": TABLE, "Key": {"pk": s("t#1"), "sk": n("1")}}},
            {"Get": {"TableName": OTHER, "Key": {"id": {"B": ALL_BYTES}},
                     "ProjectionExpression": "#v", "ExpressionAttributeNames": {"#v": "v"}}},
            {"Get": {"TableName": TABLE, "Key": {"pk": s("gone"), "sk": n("1")}}},
        ]}, "read"),
    ]


def partiql_steps():
    """The PartiQL operations, after steps() (their programs are checked for syntax and against
    golden files, and run against serve and DynamoDB Local by test-codegen-clients.py)."""
    return [
        ("ExecuteStatement", {"Statement": f'SELECT * FROM "{TABLE}" WHERE pk = ? AND sk = ?',
                              "Parameters": [s("p#1"), n(BIG_N)], "ConsistentRead": True,
                              "Limit": 5, "ReturnConsumedCapacity": "TOTAL"}, "read"),
        # One item a call: the program follows NextToken through the partition's two items.
        ("ExecuteStatement", {"Statement": f'SELECT * FROM "{TABLE}" WHERE pk = ?',
                              "Parameters": [s("p#1")], "Limit": 1}, "read"),
        ("ExecuteStatement", {"Statement": f'UPDATE "{TABLE}" SET v = ? WHERE pk = ? AND sk = ?',
                              "Parameters": [s(NASTY), s("p#1"), n("1")],
                              "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}, "write"),
        # DynamoDB refuses reads and writes together in one batch.
        ("BatchExecuteStatement", {"Statements": [
            {"Statement": f'SELECT * FROM "{TABLE}" WHERE pk = ? AND sk = ?',
             "Parameters": [s("p#1"), n("1")], "ConsistentRead": True},
            {"Statement": f'SELECT v FROM "{TABLE}" WHERE pk = ? AND sk = ?',
             "Parameters": [s("p#1"), n(BIG_N)]},
        ]}, "read"),
        ("BatchExecuteStatement", {"Statements": [
            {"Statement": f'UPDATE "{TABLE}" SET w = ? WHERE pk = ? AND sk = ?',
             "Parameters": [n(TINY_N), s("p#1"), n("1")]},
            {"Statement": f'INSERT INTO "{OTHER}" VALUE {{\'id\': ?, \'v\': ?}}',
             "Parameters": [{"B": ALL_BYTES}, {"SS": ["a", NASTY]}],
             "ReturnValuesOnConditionCheckFailure": "NONE"},
        ], "ReturnConsumedCapacity": "INDEXES"}, "write"),
        ("ExecuteTransaction", {"TransactStatements": [
            {"Statement": f'UPDATE "{TABLE}" SET n = ? WHERE pk = ? AND sk = ?',
             "Parameters": [n(HUGE_N), s("p#1"), n("1")],
             "ReturnValuesOnConditionCheckFailure": "ALL_OLD"},
            {"Statement": f'DELETE FROM "{OTHER}" WHERE id = ?', "Parameters": [b(b"\x00")]},
        ], "ClientRequestToken": "codegen-token-1", "ReturnConsumedCapacity": "TOTAL"}, "write"),
    ]


def table_steps():
    """Table management (the requests the app's table dialogs send), after the others: their
    programs are checked for syntax and against golden files."""
    table = "Codegen.Tables-1"
    keys = [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]
    return [
        ("CreateTable", {
            "TableName": table,
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "sk", "AttributeType": "N"},
                                     {"AttributeName": "owner", "AttributeType": "B"}],
            "KeySchema": keys,
            "BillingMode": "PROVISIONED",
            "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 40000},
            "GlobalSecondaryIndexes": [{
                "IndexName": "byOwner",
                "KeySchema": [{"AttributeName": "owner", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["title", NASTY]},
                "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}],
            "LocalSecondaryIndexes": [{
                "IndexName": "bySk",
                "KeySchema": keys,
                "Projection": {"ProjectionType": "KEYS_ONLY"}}],
            "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
        }, "write"),
        ("UpdateTable", {
            "TableName": table,
            "AttributeDefinitions": [{"AttributeName": "status", "AttributeType": "S"}],
            "GlobalSecondaryIndexUpdates": [{"Create": {
                "IndexName": "byStatus",
                "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
                "ProvisionedThroughput": {"ReadCapacityUnits": 2, "WriteCapacityUnits": 2}}}],
        }, "write"),
        ("UpdateTable", {"TableName": table,
                         "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "byOwner"}}]},
         "write"),
        ("UpdateTable", {"TableName": table, "BillingMode": "PAY_PER_REQUEST",
                         "StreamSpecification": {"StreamEnabled": False}}, "write"),
        ("UpdateTimeToLive", {"TableName": table, "TimeToLiveSpecification": {
            "Enabled": True, "AttributeName": "expiresAt"}}, "write"),
        ("DeleteTable", {"TableName": table}, "write"),
    ]
