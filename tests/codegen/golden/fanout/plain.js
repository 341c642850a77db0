// Query Orders once per suffix, :pk = TENANT#bigco#01 … TENANT#bigco#10 (10 Queries) on http://127.0.0.1:8000 (profile dev, region eu-west-1)
// npm install @aws-sdk/client-dynamodb, then: node this-file.js
const { DynamoDBClient, QueryCommand } = require("@aws-sdk/client-dynamodb");

const client = new DynamoDBClient({ region: "eu-west-1", endpoint: "http://127.0.0.1:8000", profile: "dev" });

// JSON text of what DynamoDB returned, binary in base64 as in DynamoDB JSON.
function show(value) {
  return JSON.stringify(value, function (key, v) {
    const raw = this[key];
    return raw instanceof Uint8Array ? Buffer.from(raw).toString("base64") : v;
  });
}

async function main() {
  const input = {
    TableName: "Orders",
    KeyConditionExpression: "#pk = :pk",
    ExpressionAttributeNames: {"#pk": "TenantShard"},
    ExpressionAttributeValues: {":pk": {"S": "TENANT#bigco#01"}},
  };
  const placeholder = ":pk";
  const prefix = "TENANT#bigco#";
  const suffixes = [];
  for (let n = 1; n <= 10; n++) suffixes.push(String(n).padStart(2, "0"));
  // The items of one shard, read to the end: each call reads at most 1 MB (or Limit items),
  // then the Query goes on from LastEvaluatedKey.
  async function queryShard(suffix) {
    const shard = {
      ...input,
      ExpressionAttributeValues: {
        ...input.ExpressionAttributeValues,
        [placeholder]: { S: prefix + suffix },
      },
    };
    const items = [];
    for (;;) {
      const output = await client.send(new QueryCommand(shard));
      items.push(...(output.Items ?? []));
      if (output.LastEvaluatedKey === undefined) return items;
      shard.ExclusiveStartKey = output.LastEvaluatedKey;
    }
  }
  // The shards' Queries in parallel; their items merged in suffix order, each shard's in the
  // order its Query returns them (by the sort key).
  const shards = await Promise.all(suffixes.map(queryShard));
  for (const item of shards.flat()) console.log(show(item));
}

main().catch((error) => {
  console.error(`${error.name}: ${error.message}`);
  process.exitCode = 1;
});
