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


# ---- The wide corpus: the shapes of request a user's work makes, at their sizes ----
# Programs are laid out to a width: every place a line can break (a long expression, a long
# value, many entries, deep nesting) must still give a program that parses and compiles.

LONG_TABLE = ("Codegen." + "Long-table_name." * 20)[:255]  # DynamoDB's longest table name
LONG_S = (NASTY + " ") * 300  # about 20,000 characters: past Java's 8,000-character pieces
LONG_B = base64.b64encode(bytes(range(256)) * 120 + b"\x01\x02\x03").decode()  # 30,723 bytes
ODD_BYTES = [b"\x00", b"\xff\xfe", b"\x80\x00\x7f", b"\x00\x01\x02\x03\xff"]
NUMBERS = [BIG_N, "-" + BIG_N, TINY_N, "-" + TINY_N, HUGE_N, "0", "-0.000000000000000000000000000000000000001",
           "0.1234567890123456789012345678901234567", "1E+125", "100"]


def every_type():
    """One attribute of each DynamoDB type and shape: empty strings and containers where
    DynamoDB allows them (S, B, L, M; not in sets), one-element sets, binary of odd lengths."""
    return {
        "s": s(NASTY), "s_empty": s(""), "s_long": s(LONG_S),
        "n_big": n(BIG_N), "n_neg": n("-" + BIG_N), "n_tiny": n(TINY_N), "n_huge": n(HUGE_N),
        "b_empty": {"B": ""}, "b_long": {"B": LONG_B},
        **{f"b_odd{i}": b(data) for i, data in enumerate(ODD_BYTES)},
        "ss_one": {"SS": [""]}, "ss": {"SS": [NASTY, "a", "\U0001F680", "\u05e9"]},
        "ns_one": {"NS": ["0"]}, "ns": {"NS": NUMBERS},
        "bs_one": {"BS": [""]}, "bs": {"BS": [b(d)["B"] for d in ODD_BYTES]},
        "bool_t": {"BOOL": True}, "bool_f": {"BOOL": False}, "null": {"NULL": True},
        "l_empty": {"L": []}, "m_empty": {"M": {}},
        "l": {"L": [s(""), n(BIG_N), b(b"\x00"), {"SS": ["x"]}, {"NS": ["1"]}, {"BS": ["AA=="]},
                    {"BOOL": True}, {"NULL": True}, {"L": [{"M": {}}]}, {"M": {"\u00e9": s("")}}]},
        "m": {"M": {NASTY.replace("\u0000", ""): s(NASTY), " ": n("0"), "l": {"L": [n(x) for x in NUMBERS]}}},
        "deep_m": deep(31), "deep_l": deep(30),
    }


def many_names(count, prefix="#a"):
    return {f"{prefix}{i}": f"attribute-{i}.{NASTY[:6]}" for i in range(count)}


def wide_steps():
    """Requests of every operation with long expressions (several hundred to thousands of
    characters), many names and values, deep nesting and every type: each is checked as
    DynamoDB checks it, and its program in every language must parse and compile. Not replayed
    against a server (they name tables and indexes of their own)."""
    types = list(every_type().values())
    names60 = many_names(60)
    values60 = {f":v{i}": types[i % len(types)] for i in range(60)}
    long_condition = " AND ".join(f"attribute_not_exists(#a{i})" for i in range(40))
    long_filter = " OR ".join(f"(#a{i} = :v{i} AND size(#a{i}) > :zero)" for i in range(30))
    update = ("SET " + ", ".join(f"#a{i} = if_not_exists(#a{i}, :v{i})" for i in range(40))
              + " REMOVE " + ", ".join(f"#a{i}" for i in range(40, 50))
              + " ADD #a50 :v50, #a51 :one DELETE #a52 :ss")
    many_item = {"pk": s("wide#1"), "sk": n(BIG_N), **every_type(),
                 **{f"attribute {i} {NASTY[:8]}": n(str(i)) for i in range(150)}}
    key = {"pk": s("wide#1"), "sk": n(BIG_N)}
    projection = ", ".join(f"#a{i}" for i in range(60)) + ", deep_m.L[1].M.k1, m.l[9]"
    statement_long = (f'SELECT * FROM "{TABLE}" WHERE pk = ? AND sk = ? AND ('
                      + " OR ".join(f'"attribute-{i}" = ?' for i in range(40)) + ")")
    kinds = ["HASH", "RANGE"]

    def key_schema(*names):
        return [{"AttributeName": a, "KeyType": kinds[i]} for i, a in enumerate(names)]

    return [
        ("PutItem", {"TableName": TABLE, "Item": many_item,
                     "ConditionExpression": long_condition, "ExpressionAttributeNames": many_names(40),
                     "ReturnValues": "ALL_OLD", "ReturnConsumedCapacity": "INDEXES",
                     "ReturnItemCollectionMetrics": "SIZE",
                     "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}),
        ("PutItem", {"TableName": LONG_TABLE, "Item": {"pk": s(LONG_S), "sk": n("-" + HUGE_N),
                                                       "v": {"B": LONG_B}},
                     "Expected": {"pk": {"Exists": False},
                                  "v": {"ComparisonOperator": "IN",
                                        "AttributeValueList": [s(""), s(NASTY), s(LONG_S)]}},
                     "ConditionalOperator": "OR"}),
        ("UpdateItem", {"TableName": TABLE, "Key": key, "UpdateExpression": update,
                        "ConditionExpression": long_filter,
                        "ExpressionAttributeNames": many_names(53),
                        "ExpressionAttributeValues": {**{f":v{i}": values60[f":v{i}"] for i in range(40)},
                                                      ":v50": n("1"), ":one": {"NS": ["1"]},
                                                      ":ss": {"SS": ["a", NASTY]}, ":zero": n("0")},
                        "ReturnValues": "UPDATED_NEW",
                        "ReturnValuesOnConditionCheckFailure": "NONE"}),
        ("UpdateItem", {"TableName": TABLE, "Key": key,
                        "AttributeUpdates": {"v": {"Value": s(LONG_S), "Action": "PUT"},
                                             "c": {"Value": n(BIG_N), "Action": "ADD"},
                                             "t": {"Value": {"SS": ["x"]}, "Action": "DELETE"},
                                             "gone": {"Action": "DELETE"}},
                        "Expected": {"c": {"Value": n("1"), "Exists": True},
                                     "v": {"ComparisonOperator": "BETWEEN",
                                           "AttributeValueList": [s("a"), s("z")]},
                                     "w": {"ComparisonOperator": "NOT_NULL"}},
                        "ConditionalOperator": "AND", "ReturnValues": "ALL_NEW"}),
        ("DeleteItem", {"TableName": TABLE, "Key": key,
                        "ConditionExpression": long_condition.replace("not_", ""),
                        "ExpressionAttributeNames": many_names(40), "ReturnValues": "ALL_OLD",
                        "ReturnItemCollectionMetrics": "SIZE",
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}),
        ("GetItem", {"TableName": TABLE, "Key": key, "ProjectionExpression": projection,
                     "ExpressionAttributeNames": names60, "ConsistentRead": False,
                     "ReturnConsumedCapacity": "TOTAL"}),
        ("GetItem", {"TableName": TABLE, "Key": {"pk": s(LONG_S[:2048]), "sk": n("1")},
                     "AttributesToGet": [f"attribute {i} {NASTY[:8]}" for i in range(100)]}),
        ("Query", {"TableName": TABLE, "IndexName": "index." + "x" * 240,
                   "KeyConditionExpression": "#pk = :pk AND begins_with(#sk, :prefix)",
                   "FilterExpression": long_filter, "ProjectionExpression": projection,
                   "ExpressionAttributeNames": {**names60, "#pk": "pk", "#sk": "sk"},
                   "ExpressionAttributeValues": {**{f":v{i}": values60[f":v{i}"] for i in range(30)},
                                                 ":pk": s(NASTY), ":prefix": s("a"), ":zero": n("0")},
                   "Select": "SPECIFIC_ATTRIBUTES", "Limit": 1000, "ConsistentRead": False,
                   "ScanIndexForward": True, "ExclusiveStartKey": key,
                   "ReturnConsumedCapacity": "INDEXES"}),
        ("Query", {"TableName": TABLE,
                   "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [s(NASTY)]},
                                     "sk": {"ComparisonOperator": "BETWEEN",
                                            "AttributeValueList": [n("-" + BIG_N), n(BIG_N)]}},
                   "QueryFilter": {"v": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [s("$")]},
                                   "b": {"ComparisonOperator": "NOT_NULL"}},
                   "ConditionalOperator": "OR", "AttributesToGet": ["pk", "sk", NASTY],
                   "Select": "SPECIFIC_ATTRIBUTES"}),
        ("Scan", {"TableName": LONG_TABLE, "IndexName": "i" * 255, "TotalSegments": 1000000,
                  "Segment": 999999, "Select": "ALL_PROJECTED_ATTRIBUTES", "ConsistentRead": False,
                  "ScanFilter": {f"attribute {i}": {"ComparisonOperator": op, "AttributeValueList": v}
                                 for i, (op, v) in enumerate([
                                     ("GE", [n(BIG_N)]), ("BEGINS_WITH", [s(NASTY)]),
                                     ("NE", [b(b"\xff")]), ("NULL", []), ("NOT_CONTAINS", [n("1")]),
                                     ("IN", [b(b""), b(b"\x00"), b(bytes(range(256)))])])},
                  "ConditionalOperator": "AND", "ExclusiveStartKey": {"id": {"B": LONG_B[:1024]}}}),
        ("Scan", {"TableName": TABLE, "Select": "COUNT", "FilterExpression": long_filter,
                  "ExpressionAttributeNames": {f"#a{i}": names60[f"#a{i}"] for i in range(30)},
                  "ExpressionAttributeValues": {**{f":v{i}": values60[f":v{i}"] for i in range(30)},
                                                ":zero": n("0")}}),
        ("BatchGetItem", {"RequestItems": {
            TABLE: {"Keys": [{"pk": s(f"k{i} {NASTY}"), "sk": n(NUMBERS[i % 10])} for i in range(60)],
                    "ProjectionExpression": projection, "ExpressionAttributeNames": names60,
                    "ConsistentRead": True},
            LONG_TABLE: {"Keys": [{"id": b(bytes([i]) * (i % 7))} for i in range(1, 41)],
                         "ProjectionExpression": "id, #v", "ExpressionAttributeNames": {"#v": NASTY[:8]}},
        }, "ReturnConsumedCapacity": "TOTAL"}),
        ("BatchWriteItem", {"RequestItems": {
            TABLE: [{"PutRequest": {"Item": {"pk": s(f"w{i}"), "sk": n(NUMBERS[i % 10]), **every_type()}}}
                    for i in range(12)]
            + [{"DeleteRequest": {"Key": {"pk": s(f"d{i} {NASTY}"), "sk": n(str(i))}}} for i in range(8)],
            LONG_TABLE: [{"PutRequest": {"Item": {"id": b(bytes([i]) * 3), "v": deep(31)}}} for i in range(5)],
        }, "ReturnConsumedCapacity": "INDEXES", "ReturnItemCollectionMetrics": "SIZE"}),
        ("TransactWriteItems", {"TransactItems": [
            [{"Put": {"TableName": TABLE, "Item": {"pk": s(f"t{i}"), "sk": n("1"), **every_type()},
                      "ConditionExpression": long_condition, "ExpressionAttributeNames": many_names(40),
                      "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
             {"Update": {"TableName": TABLE, "Key": {"pk": s(f"t{i}"), "sk": n("2")},
                         "UpdateExpression": update.split(" REMOVE ")[0],
                         "ExpressionAttributeNames": {f"#a{j}": names60[f"#a{j}"] for j in range(40)},
                         "ExpressionAttributeValues": {f":v{j}": values60[f":v{j}"] for j in range(40)},
                         "ReturnValuesOnConditionCheckFailure": "NONE"}},
             {"Delete": {"TableName": LONG_TABLE, "Key": {"id": b(bytes([i, 1, 2]))},
                         "ConditionExpression": "attribute_exists(id) AND v <> :e",
                         "ExpressionAttributeValues": {":e": {"BS": ["AA==", "/w=="]}}}},
             {"ConditionCheck": {"TableName": TABLE, "Key": {"pk": s(f"t{i}"), "sk": n("3")},
                                 "ConditionExpression": long_filter,
                                 "ExpressionAttributeNames": {f"#a{j}": names60[f"#a{j}"] for j in range(30)},
                                 "ExpressionAttributeValues": {**{f":v{j}": values60[f":v{j}"]
                                                                  for j in range(30)}, ":zero": n("0")}}}][i % 4]
            for i in range(100)],
            "ReturnConsumedCapacity": "TOTAL", "ReturnItemCollectionMetrics": "SIZE",
            "ClientRequestToken": "t" * 36}),
        ("TransactGetItems", {"TransactItems": [
            {"Get": {"TableName": TABLE, "Key": {"pk": s(f"g{i} {NASTY}"), "sk": n(NUMBERS[i % 10])},
                     "ProjectionExpression": projection, "ExpressionAttributeNames": names60}}
            for i in range(100)], "ReturnConsumedCapacity": "TOTAL"}),
        ("ExecuteStatement", {"Statement": statement_long,
                              "Parameters": [s(NASTY), n(BIG_N)] + [types[i % len(types)] for i in range(40)],
                              "ConsistentRead": True, "Limit": 100,
                              "NextToken": "n" * 1000, "ReturnConsumedCapacity": "INDEXES",
                              "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}),
        ("BatchExecuteStatement", {"Statements": [
            {"Statement": f'UPDATE "{TABLE}" SET v = ?, w = ? WHERE pk = ? AND sk = ?',
             "Parameters": [types[i], s(LONG_S), s(f"b{i}"), n(str(i))],
             "ReturnValuesOnConditionCheckFailure": "ALL_OLD"} for i in range(25)],
            "ReturnConsumedCapacity": "TOTAL"}),
        ("ExecuteTransaction", {"TransactStatements": [
            {"Statement": f'INSERT INTO "{TABLE}" VALUE {{\'pk\': ?, \'sk\': ?, \'v\': ?}}',
             "Parameters": [s(f"x{i} {NASTY}"), n(NUMBERS[i % 10]), types[i % len(types)]],
             "ReturnValuesOnConditionCheckFailure": "NONE"} for i in range(100)],
            "ClientRequestToken": "c" * 36, "ReturnConsumedCapacity": "INDEXES"}),
        ("CreateTable", {
            "TableName": LONG_TABLE,
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "sk", "AttributeType": "N"}]
            + [{"AttributeName": f"g{i}", "AttributeType": "SNB"[i % 3]} for i in range(20)],
            "KeySchema": key_schema("pk", "sk"),
            "BillingMode": "PROVISIONED",
            "ProvisionedThroughput": {"ReadCapacityUnits": 40000, "WriteCapacityUnits": 1},
            "GlobalSecondaryIndexes": [{
                "IndexName": f"gsi-{i}." + "x" * 200,
                "KeySchema": key_schema(f"g{i}", "sk"),
                "Projection": ({"ProjectionType": "INCLUDE",
                                "NonKeyAttributes": [f"{NASTY} {i} {j}" for j in range(4)]}
                               if i % 2 else {"ProjectionType": ["ALL", "KEYS_ONLY"][i % 4 // 2]}),
                "ProvisionedThroughput": {"ReadCapacityUnits": i + 1, "WriteCapacityUnits": 1}}
                for i in range(20)],
            "LocalSecondaryIndexes": [{
                "IndexName": f"lsi-{i}." + "y" * 200,
                "KeySchema": key_schema("pk", f"g{i * 3 + 1}"),
                "Projection": {"ProjectionType": "KEYS_ONLY"}} for i in range(5)],
            "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
            "DeletionProtectionEnabled": True,
        }),
        ("UpdateTable", {
            "TableName": LONG_TABLE,
            "AttributeDefinitions": [{"AttributeName": NASTY, "AttributeType": "B"}],
            "GlobalSecondaryIndexUpdates": [
                {"Update": {"IndexName": "gsi-1." + "x" * 200,
                            "ProvisionedThroughput": {"ReadCapacityUnits": 40000,
                                                      "WriteCapacityUnits": 40000}}},
                {"Create": {"IndexName": "by-nasty",
                            "KeySchema": [{"AttributeName": NASTY, "KeyType": "HASH"}],
                            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a" * 255]},
                            "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}},
            ],
            "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
            "DeletionProtectionEnabled": False}),
        ("UpdateTimeToLive", {"TableName": LONG_TABLE, "TimeToLiveSpecification": {
            "Enabled": False, "AttributeName": NASTY}}),
        ("DeleteTable", {"TableName": LONG_TABLE}),
    ]


# Connections the programs target: named, none, and names long enough to break lines.
TARGETS = [
    ["--endpoint", "http://127.0.0.1:8000", "--profile", "dev", "--region", "eu-west-1"],
    [],
    ["--endpoint", "https://dynamodb." + "very-long-host-name." * 8 + "example:8443/path?x='y'",
     "--profile", "profile " + NASTY.replace("\n", " ").replace("\r", " ").replace("\u0000", ""),
     "--region", "eu-" + "central" * 12 + "-1"],
]


def all_steps():
    """Every request of the corpus, (operation, request), in replay order then the wide ones."""
    return ([(op, r) for op, r, _ in steps() + partiql_steps() + table_steps()]
            + wide_steps())
