#!/usr/bin/env bash
# Query Orders once per suffix, :pk = TENANT#bigco#01 … TENANT#bigco#10 (10 Queries) on http://127.0.0.1:8000 (profile dev, region eu-west-1)
# The AWS CLI follows LastEvaluatedKey itself and prints the items of every page.
# One Query per suffix, one after another: one JSON array of items per suffix, in suffix
# order, each in the order its Query returns them (by the sort key).
set -euo pipefail

IFS= read -r -d '' request <<'JSON' || true
{
  "TableName": "Orders",
  "KeyConditionExpression": "#pk = :pk",
  "ExpressionAttributeNames": {
    "#pk": "TenantShard"
  }
}
JSON

values_before='{":pk": {"S": "TENANT#bigco#'
values_after='"}}'

for ((n = 1; n <= 10; n++)); do
  printf -v suffix '%02d' "$n"
  aws dynamodb query \
    --endpoint-url 'http://127.0.0.1:8000' \
    --profile 'dev' \
    --region 'eu-west-1' \
    --query Items \
    --output json \
    --no-cli-pager \
    --cli-input-json "$request" \
    --expression-attribute-values "$values_before$suffix$values_after"
done
