#!/usr/bin/env bash
# bench-serve.sh: `dynoscope-cli serve` next to DynamoDB Local and dynalite, in one run: cold start
# to the first answered request, idle RSS, and GetItem / Query (100 items) / PutItem requests per
# second with wrk (Debian's wrk package). A peer that is not installed (build-aux/install-deps.sh
# --tests puts both in ~/.cache/dynoscope) is left out.
# PutItem puts the same item again and again, as the issue's goal is stated; SQLite then finds every
# page unchanged and commits without writing (nor fsync). "new PutItem/s" puts a new item each time,
# so that every acknowledged write is fsynced: the cost of durability.
# dynoscope's start is timed on an existing database file (the usual case: serving a snapshot);
# its first start, which creates the file (several fsyncs), is printed on a line of its own.
# dynoscope runs twice: on a database file (every acknowledged write fsynced: WAL,
# synchronous=FULL) and on ":memory:", the durability class of the peers, which keep everything in
# memory (DynamoDB Local -inMemory, dynalite without --path). The last lines give each dynoscope
# figure over the faster peer's (the issue's goal: at least 3x on each operation).
#
#   bench/bench-serve.sh [path/to/dynoscope-cli] [seconds per operation, default 5]
# BENCH_PEERS=0 leaves the peers out (a quick look at dynoscope alone). Start times are the median
# of BENCH_STARTS starts (default 5).
# Last, the app's Load All of a remote table: bench-gui's BENCH_GUI_REMOTE run (a table of
# BENCH_SERVE_LOAD_ALL_ITEMS items, default 1000000, served on loopback; the app's parallel Load
# All next to a plain client's Scan of serve, in the same run), when the build has bench-gui and
# xvfb-run is there; BENCH_SERVE_LOAD_ALL=0 leaves it out.
set -euo pipefail

cli=${1:-build/src/cli/dynoscope-cli}
secs=${2:-5}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/dynoscope
ddblocal=${DYNOSCOPE_DDBLOCAL_DIR:-$cache/ddblocal}/node_modules/amplify-dynamodb-simulator/emulator
dynalite=${DYNOSCOPE_DYNALITE_DIR:-$cache/dynalite}/node_modules/dynalite/cli.js
command -v wrk >/dev/null || { echo "bench-serve: wrk is needed (apt-get install wrk)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every peer gets the same headers; none of them checks signatures by default.
cat >"$work/wrk.lua" <<'EOF'
local target, body = os.getenv("BENCH_TARGET"), os.getenv("BENCH_BODY")
wrk.method = "POST"
wrk.body = body
wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
wrk.headers["X-Amz-Target"] = "DynamoDB_20120810." .. target
wrk.headers["X-Amz-Date"] = "20240101T000000Z"
wrk.headers["Authorization"] = "AWS4-HMAC-SHA256 Credential=bench/20240101/us-east-1/dynamodb/"
  .. "aws4_request, SignedHeaders=host;x-amz-date, Signature=00"
function response(status, headers, body)
  if status ~= 200 then io.stderr:write("bench-serve: HTTP " .. status .. ": " .. body .. "\n") end
end
EOF

# Starts a server (the command in "$@") STARTS times and times each start to its first answered
# ListTables (the median is printed); then waits one second idle, reads the last one's RSS, creates
# and fills the table. Prints "PID PORT MS RSS_KB".
start_and_measure () {
  local starts=$1 port=$2
  shift 2
  python3 - "$starts" "$port" "$@" <<'EOF'
import http.client, json, os, signal, statistics, subprocess, sys, time
starts, port, cmd = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
headers = {"Content-Type": "application/x-amz-json-1.0", "X-Amz-Date": "20240101T000000Z",
           "Authorization": "AWS4-HMAC-SHA256 Credential=bench/20240101/us-east-1/dynamodb/"
                            "aws4_request, SignedHeaders=host;x-amz-date, Signature=00"}
def call(op, req):
    return call_port(port, op, req)
def call_port(port, op, req):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request("POST", "/", json.dumps(req).encode(), dict(headers, **{"X-Amz-Target": "DynamoDB_20120810." + op}))
    r = c.getresponse(); data = r.read(); c.close()
    return r.status, data
def start(port):
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE if port == 0 else subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    if port == 0:
        port = int(proc.stdout.readline().rsplit(":", 1)[1])
    while True:
        try:
            if call_port(port, "ListTables", {})[0] == 200:
                break
        except OSError:
            pass
        if proc.poll() is not None or time.perf_counter() - t0 > 120:
            sys.exit("bench-serve: %s did not start" % cmd[0])
        time.sleep(0.0005)
    return proc, port, (time.perf_counter() - t0) * 1000
# The median of several starts (a busy machine makes single ones jumpy); the last one serves.
times = []
for i in range(starts):
    proc, used_port, ms = start(port)
    times.append(ms)
    if i < starts - 1:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()
port = used_port
ms = statistics.median(times)
time.sleep(1)
rss = next(int(l.split()[1]) for l in open("/proc/%d/status" % proc.pid) if l.startswith("VmRSS"))
call("CreateTable", {"TableName": "Bench", "BillingMode": "PAY_PER_REQUEST",
     "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"}],
     "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}]})
# dynalite, like DynamoDB, creates tables asynchronously.
while json.loads(call("DescribeTable", {"TableName": "Bench"})[1])["Table"]["TableStatus"] != "ACTIVE":
    time.sleep(0.05)
for start in range(0, 100, 25):
    status, data = call("BatchWriteItem", {"RequestItems": {"Bench": [
        {"PutRequest": {"Item": {"pk": {"S": "p"}, "sk": {"N": str(i)},
                                 "payload": {"S": "x" * 200}}}} for i in range(start, start + 25)]}})
    assert status == 200, data
print(proc.pid, port, "%.1f" % ms, rss)
EOF
}

# A new item per request: a key unique to the thread and the request.
cat >"$work/wrk-new.lua" <<'EOF'
local n = 0
function setup(thread)
  thread:set("tid", math.random(1, 1000000000))
end
function request()
  n = n + 1
  return wrk.format("POST", "/", {
    ["Content-Type"] = "application/x-amz-json-1.0",
    ["X-Amz-Target"] = "DynamoDB_20120810.PutItem",
    ["X-Amz-Date"] = "20240101T000000Z",
    ["Authorization"] = "AWS4-HMAC-SHA256 Credential=bench/20240101/us-east-1/dynamodb/"
      .. "aws4_request, SignedHeaders=host;x-amz-date, Signature=00",
  }, '{"TableName":"Bench","Item":{"pk":{"S":"n' .. tid .. '"},"sk":{"N":"' .. n
    .. '"},"payload":{"S":"hello"}}}')
end
function response(status, headers, body)
  if status ~= 200 then io.stderr:write("bench-serve: HTTP " .. status .. ": " .. body .. "\n") end
end
EOF

rate () {
  BENCH_TARGET=$2 BENCH_BODY=$3 wrk -t2 -c8 -d"${secs}s" -s "$work/${4:-wrk}.lua" \
    "http://127.0.0.1:$1/" | awk '/Requests\/sec/ {printf "%.0f", $2}'
}

get='{"TableName":"Bench","Key":{"pk":{"S":"p"},"sk":{"N":"42"}}}'
query='{"TableName":"Bench","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p"}}}'
put='{"TableName":"Bench","Item":{"pk":{"S":"w"},"sk":{"N":"1"},"payload":{"S":"hello"}}}'

printf "%-18s %10s %12s %10s %10s %10s %14s\n" "server" "start (ms)" "idle RSS" "GetItem/s" \
  "Query/s" "PutItem/s" "new PutItem/s"
# One line per server; its figures are kept (figures[name]="get query put newput") for the ratios.
declare -A figures
names=()
bench_one () {
  local name=$1 port=$2
  shift 2
  local pid ms rss get_s query_s put_s new_s
  read -r pid port ms rss < <(start_and_measure "${BENCH_STARTS:-5}" "$port" "$@")
  get_s=$(rate "$port" GetItem "$get")
  query_s=$(rate "$port" Query "$query")
  put_s=$(rate "$port" PutItem "$put")
  new_s=$(rate "$port" PutItem "" wrk-new)
  printf "%-18s %10s %9s MB %10s %10s %10s %14s\n" "$name" "$ms" \
    "$(awk "BEGIN {printf \"%.1f\", $rss / 1024}")" "$get_s" "$query_s" "$put_s" "$new_s"
  figures[$name]="$get_s $query_s $put_s $new_s"
  names+=("$name")
  kill -TERM -- "-$pid" 2>/dev/null || true
  wait 2>/dev/null || true
}

# Each dynoscope line over the faster peer, operation by operation.
print_ratios () {
  local best="0 0 0 0" name
  for name in "${names[@]}"; do
    case $name in dynoscope*) continue ;; esac
    best=$(awk -v a="$best" -v b="${figures[$name]}" 'BEGIN {
      split(a, x); split(b, y)
      for (i = 1; i <= 4; i++) printf "%s%d", (i > 1 ? " " : ""), (y[i] > x[i] ? y[i] : x[i]) }')
  done
  [ "$best" != "0 0 0 0" ] || return 0
  echo "over the faster peer (goal: 3x on GetItem, Query and PutItem):"
  for name in "${names[@]}"; do
    case $name in dynoscope*) ;; *) continue ;; esac
    awk -v name="$name" -v a="${figures[$name]}" -v b="$best" 'BEGIN {
      split(a, x); split(b, y)
      printf "%-18s %10s %12s", name, "", ""
      for (i = 1; i <= 4; i++) printf (i < 4 ? " %9.2fx" : " %13.2fx"), (y[i] > 0 ? x[i] / y[i] : 0)
      printf "\n" }'
  done
}

# The first start creates the database file; the table it made is dropped for the timed start.
read -r pid _ new_ms _ < <(start_and_measure 1 0 "$cli" --db "$work/bench.db" serve --port 0)
kill -TERM -- "-$pid" 2>/dev/null || true
while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
"$cli" --db "$work/bench.db" call DeleteTable '{"TableName":"Bench"}' >/dev/null
bench_one "dynoscope serve" 0 "$cli" --db "$work/bench.db" serve --port 0
bench_one "dynoscope :memory:" 0 "$cli" --db :memory: serve --port 0
if [ "${BENCH_PEERS:-1}" = 0 ]; then
  :
elif [ -f "$ddblocal/DynamoDBLocal.jar" ] && command -v java >/dev/null; then
  bench_one "DynamoDB Local" 8196 java "-Djava.library.path=$ddblocal/DynamoDBLocal_lib" \
    -jar "$ddblocal/DynamoDBLocal.jar" -inMemory -port 8196
fi
if [ "${BENCH_PEERS:-1}" != 0 ] && [ -f "$dynalite" ] && command -v node >/dev/null; then
  bench_one "dynalite" 8197 node "$dynalite" --port 8197
fi
print_ratios
echo "(dynoscope serve's first start, which creates the database file: $new_ms ms)"

build=${cli%/src/cli/dynoscope-cli}
if [ "${BENCH_SERVE_LOAD_ALL:-1}" != 0 ] && [ "$build" != "$cli" ] && command -v xvfb-run >/dev/null \
   && ninja -C "$build" bench/bench-gui >/dev/null 2>&1; then
  echo "remote Load All (bench-gui, BENCH_GUI_REMOTE):"
  BENCH_GUI_REMOTE=1 BENCH_GUI_BUSY=0 "$(dirname "$0")/bench-gui.sh" "$build" \
    "${BENCH_SERVE_LOAD_ALL_ITEMS:-1000000}" 2>/dev/null | grep -v '^stall'
fi
