#!/usr/bin/env bash
# bench-partiql.sh: PartiQL through `dynoscope-cli serve` next to the requests it stands for, in
# requests per second with wrk (Debian's wrk package): ExecuteStatement SELECT by full key next to
# GetItem, SELECT of one partition (100 items) next to Query, SELECT with a filter on a non-key
# attribute (a Scan of 1,000 items) next to Scan with that filter. The difference is the cost of
# parsing the statement and printing its request.
#
#   bench/bench-partiql.sh [path/to/dynoscope-cli] [seconds per request, default 5]
set -euo pipefail

cli=${1:-build/src/cli/dynoscope-cli}
secs=${2:-5}
command -v wrk >/dev/null || { echo "bench-partiql: wrk is needed (apt-get install wrk)" >&2; exit 1; }

work=$(mktemp -d)
trap 'kill -TERM "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

cat >"$work/wrk.lua" <<'EOF'
wrk.method = "POST"
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
wrk.headers["X-Amz-Target"] = "DynamoDB_20120810." .. os.getenv("BENCH_TARGET")
wrk.headers["X-Amz-Date"] = "20240101T000000Z"
wrk.headers["Authorization"] = "AWS4-HMAC-SHA256 Credential=bench/20240101/us-east-1/dynamodb/"
  .. "aws4_request, SignedHeaders=host;x-amz-date, Signature=00"
function response(status, headers, body)
  if status ~= 200 then io.stderr:write("bench-partiql: HTTP " .. status .. ": " .. body .. "\n") end
end
EOF

"$cli" --db "$work/bench.db" serve --port 0 >"$work/serve.out" &
pid=$!
for _ in $(seq 100); do grep -q Listening "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/.*:\([0-9]*\)$/\1/p' "$work/serve.out")

python3 - "$port" <<'EOF'
import http.client, json, sys
port = int(sys.argv[1])
def call(op, req):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request("POST", "/", json.dumps(req).encode(), {
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + op})
    r = c.getresponse(); data = r.read(); c.close()
    assert r.status == 200, data
call("CreateTable", {"TableName": "Bench", "BillingMode": "PAY_PER_REQUEST",
     "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"}],
     "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}]})
items = [{"pk": {"S": "p%d" % (i // 100)}, "sk": {"N": str(i % 100)}, "tag": {"S": "t%d" % i},
          "payload": {"S": "x" * 200}} for i in range(1000)]
for start in range(0, len(items), 25):
    call("BatchWriteItem", {"RequestItems": {"Bench": [
        {"PutRequest": {"Item": it}} for it in items[start:start + 25]]}})
EOF

rate () {
  BENCH_TARGET=$1 BENCH_BODY=$2 wrk -t2 -c8 -d"${secs}s" -s "$work/wrk.lua" \
    "http://127.0.0.1:$port/" | awk '/Requests\/sec/ {printf "%.0f", $2}'
}

get='{"TableName":"Bench","Key":{"pk":{"S":"p3"},"sk":{"N":"42"}}}'
get_pql='{"Statement":"SELECT * FROM Bench WHERE pk = ? AND sk = ?","Parameters":[{"S":"p3"},{"N":"42"}]}'
query='{"TableName":"Bench","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p3"}}}'
query_pql='{"Statement":"SELECT * FROM Bench WHERE pk = '"'"'p3'"'"'"}'
scan='{"TableName":"Bench","FilterExpression":"tag = :t","ExpressionAttributeValues":{":t":{"S":"t500"}}}'
scan_pql='{"Statement":"SELECT * FROM Bench WHERE tag = '"'"'t500'"'"'"}'

printf "%-34s %12s %18s %8s\n" "read" "request/s" "ExecuteStatement/s" "ratio"
line () {
  local name=$1 a b
  a=$(rate "$2" "$3")
  b=$(rate ExecuteStatement "$4")
  printf "%-34s %12s %18s %7.2fx\n" "$name" "$a" "$b" "$(awk "BEGIN {print ($a > 0 ? $b / $a : 0)}")"
}
line "by key (GetItem)" GetItem "$get" "$get_pql"
line "one partition, 100 items (Query)" Query "$query" "$query_pql"
line "filter, 1,000 items (Scan)" Scan "$scan" "$scan_pql"
