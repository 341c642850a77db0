#!/usr/bin/env python3
# Query Orders once per suffix, :pk = TENANT#bigco#01 … TENANT#bigco#10 (10 Queries) on http://127.0.0.1:8000 (profile dev, region eu-west-1)
import base64
import concurrent.futures
import json

import boto3

session = boto3.Session(profile_name="dev", region_name="eu-west-1")
client = session.client("dynamodb", endpoint_url="http://127.0.0.1:8000")


def show(value):
    """JSON text of what DynamoDB returned, binary in base64 as in DynamoDB JSON."""
    return json.dumps(value, default=lambda b: base64.b64encode(b).decode("ascii"))


request = {
    "TableName": "Orders",
    "KeyConditionExpression": "#pk = :pk",
    "ExpressionAttributeNames": {"#pk": "TenantShard"},
    "ExpressionAttributeValues": {":pk": {"S": "TENANT#bigco#01"}},
}

PLACEHOLDER = ":pk"
PREFIX = "TENANT#bigco#"
SUFFIXES = [str(n).zfill(2) for n in range(1, 10 + 1)]


def query_shard(suffix):
    """The items of one shard, read to the end: each call reads at most 1 MB (or Limit items),
    then the Query goes on from LastEvaluatedKey."""
    shard = dict(request)
    shard["ExpressionAttributeValues"] = dict(request["ExpressionAttributeValues"])
    shard["ExpressionAttributeValues"][PLACEHOLDER] = {"S": PREFIX + suffix}
    items = []
    while True:
        response = client.query(**shard)
        items.extend(response.get("Items", []))
        if "LastEvaluatedKey" not in response:
            return items
        shard["ExclusiveStartKey"] = response["LastEvaluatedKey"]


# The shards' Queries in parallel; their items merged in suffix order, each shard's in the
# order its Query returns them (by the sort key).
with concurrent.futures.ThreadPoolExecutor(max_workers=min(len(SUFFIXES), 16)) as pool:
    for items in pool.map(query_shard, SUFFIXES):
        for item in items:
            print(show(item))
