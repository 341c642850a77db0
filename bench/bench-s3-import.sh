#!/usr/bin/env bash
# bench-s3-import.sh: `dynoscope-cli import` of one export of N items (default 1M, in the seeds'
# shapes of bench-engine --input) straight from S3 (a local s3rver, as the tests start it) and from
# the same export in a folder, in DynamoDB JSON and in Amazon Ion: items/s, seconds and peak RSS of
# each, next to the goals (>= 150k items/s, peak RSS <= 150 MB, from S3).
# The JSON export is written by `dynoscope-cli export --format s3`, the Ion one by serve's
# ExportTableToPointInTime (ExportFormat ION, --export-dir); both are uploaded with boto3 in AWS's
# layout (PREFIX/AWSDynamoDB/ID/...).
#
#   bench/bench-s3-import.sh [BUILD_DIR] [N_ITEMS]
# BENCH_KEEP=DIR keeps (and reuses) the exports in DIR; BENCH_RUNS=N imports each N times (3),
# the median printed. Needs node + s3rver (installed into the
# test cache like the tests do), Debian's python3-boto3 and /usr/bin/time.
set -euo pipefail

build=${1:-build}
n=${2:-1000000}
src=$(cd "$(dirname "$0")/.." && pwd)
cli=$build/src/cli/dynoscope-cli
[ -x "$cli" ] && [ -x "$build/bench/bench-engine" ] \
  || { echo "bench-s3-import: build $cli and $build/bench/bench-engine first" >&2; exit 1; }
cli=$(cd "$(dirname "$cli")" && pwd)/dynoscope-cli

if [ -n "${BENCH_KEEP:-}" ]; then
  work=$BENCH_KEEP
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

# ---- The exports ----
if [ ! -f "$work/json/manifest-summary.json" ] || [ ! -d "$work/ion" ]; then
  rm -rf "$work/json" "$work/ion" "$work/src.db"*
  echo "bench-s3-import: writing $n items and their exports into $work" >&2
  "$build/bench/bench-engine" --input "$n" "$work/items.jsonl" >/dev/null
  "$cli" --db "$work/src.db" import --table Bench --key PK:S,SK:S "$work/items.jsonl"
  "$cli" --db "$work/src.db" export --table Bench --format s3 "$work/json"
  mkdir -p "$work/ion/bkt"
  /usr/bin/python3 - "$cli" "$work" <<'EOF'
import json, re, subprocess, sys, time, http.client
cli, work = sys.argv[1:]
proc = subprocess.Popen([cli, "--db", work + "/src.db", "serve", "--port", "0",
                         "--export-dir", work + "/ion"], stdout=subprocess.PIPE, text=True)
port = int(re.search(r":(\d+)", proc.stdout.readline()).group(1))
def call(op, req):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    c.request("POST", "/", json.dumps(req), {
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + op,
        "Authorization": "AWS4-HMAC-SHA256 Credential=k/20240101/us-east-1/dynamodb/aws4_request,"
                         " SignedHeaders=host, Signature=00", "X-Amz-Date": "20240101T000000Z"})
    r = c.getresponse(); body = json.loads(r.read())
    if r.status != 200:
        sys.exit(f"{op}: {body}")
    return body
call("UpdateContinuousBackups", {"TableName": "Bench", "PointInTimeRecoverySpecification":
                                 {"PointInTimeRecoveryEnabled": True}})
time.sleep(1.1)
arn = call("DescribeTable", {"TableName": "Bench"})["Table"]["TableArn"]
e = call("ExportTableToPointInTime", {"TableArn": arn, "S3Bucket": "bkt", "S3Prefix": "bench/ion",
                                      "ExportFormat": "ION"})["ExportDescription"]
while e["ExportStatus"] == "IN_PROGRESS":
    time.sleep(0.2)
    e = call("DescribeExport", {"ExportArn": e["ExportArn"]})["ExportDescription"]
proc.terminate(); proc.wait()
if e["ExportStatus"] != "COMPLETED":
    sys.exit(f"the Ion export failed: {e}")
EOF
fi

# ---- s3rver, the exports uploaded ----
export BENCH_SRC=$src BENCH_WORK=$work
s3url_file=$work/s3rver.url
/usr/bin/python3 - <<'EOF' &
import json, os, signal, sys, threading
sys.path.insert(0, os.path.join(os.environ["BENCH_SRC"], "tests", "lib"))
import s3rver_lib
work = os.environ["BENCH_WORK"]
cli, why = s3rver_lib.find_or_install()
if cli is None:
    sys.exit("bench-s3-import: " + why)
os.makedirs(work + "/s3rver", exist_ok=True)
server = s3rver_lib.S3rver(cli, work + "/s3rver")
if not server.start():
    sys.exit("bench-s3-import: s3rver did not start")
s3 = server.boto3_client()
from boto3.s3.transfer import TransferConfig
config = TransferConfig(multipart_threshold=1 << 40)  # single-part: the manifests' ETags hold
existing = {b["Name"] for b in s3.list_buckets()["Buckets"]}
if "bench" not in existing:
    s3.create_bucket(Bucket="bench")
    # JSON: our export's folder in AWS's layout under bench/json/AWSDynamoDB/<id>/.
    first = json.loads(open(work + "/json/manifest-files.json").readline())
    export_id = first["dataFileS3Key"].split("/")[1]
    for base, _, names in os.walk(work + "/json"):
        for name in names:
            rel = os.path.relpath(os.path.join(base, name), work + "/json")
            s3.upload_file(os.path.join(base, name), "bench",
                           f"bench/json/AWSDynamoDB/{export_id}/{rel}", Config=config)
    # Ion: serve's DIR/BUCKET as it is.
    for base, _, names in os.walk(work + "/ion/bkt"):
        for name in names:
            rel = os.path.relpath(os.path.join(base, name), work + "/ion/bkt")
            s3.upload_file(os.path.join(base, name), "bench", rel, Config=config)
with open(work + "/s3rver.url.tmp", "w") as f:
    f.write(server.url)
os.rename(work + "/s3rver.url.tmp", work + "/s3rver.url")
done = threading.Event()
signal.signal(signal.SIGTERM, lambda *a: done.set())
done.wait()
server.stop()
EOF
s3pid=$!
rm -f "$s3url_file"
stop_s3 () { kill "$s3pid" 2>/dev/null || true; wait "$s3pid" 2>/dev/null || true; }
trap 'stop_s3; [ -n "${BENCH_KEEP:-}" ] || rm -rf "$work"' EXIT
until [ -f "$s3url_file" ]; do
  kill -0 "$s3pid" 2>/dev/null || { echo "bench-s3-import: s3rver setup failed" >&2; exit 1; }
  sleep 0.2
done
endpoint=$(cat "$s3url_file")
ion_folder=$(dirname "$(find "$work/ion/bkt" -name manifest-summary.json | head -1)")

# ---- The imports ----
# run NAME SOURCE: BENCH_RUNS (default 3) imports into a new database, each timed by
# /usr/bin/time; prints the median run's figures and the range of the rates (a shared machine's
# speed moves between runs).
run () {
  local name=$1 source=$2 db=$work/run.db runs=${BENCH_RUNS:-3} i
  : > "$work/runs.txt"
  for ((i = 0; i < runs; i++)); do
    rm -f "$db" "$db"-*
    env AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER AWS_REGION=us-east-1 \
        AWS_EC2_METADATA_DISABLED=true AWS_ENDPOINT_URL_S3="$endpoint" \
        /usr/bin/time -v -o "$work/time.txt" "$cli" --db "$db" import --table Bench "$source" \
        2>"$work/err.txt" || { cat "$work/err.txt" >&2; exit 1; }
    awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0;
           for (i = 1; i <= n; i++) s = s * 60 + p[i]; secs = s}
         /Maximum resident set size/ {rss = $2}
         END {print secs, rss}' "$work/time.txt" >> "$work/runs.txt"
  done
  sort -n "$work/runs.txt" | awk -v name="$name" -v n="$n" '
    {secs[NR] = $1; rss[NR] = $2; if ($2 > peak) peak = $2}
    END {
      m = int((NR + 1) / 2); s = secs[m];
      printf "%-22s %9.0f items/s %7.2f s   peak RSS %6.1f MB   (%d runs: %.0f-%.0f items/s)\n",
             name, n / s, s, peak / 1024, NR, n / secs[NR], n / secs[1];
      if (name ~ /^s3:/)
        printf "  goals: >= 150000 items/s: %s; peak RSS <= 150 MB: %s\n",
               (n / s >= 150000 ? "met" : "NOT met"), (peak / 1024 <= 150 ? "met" : "NOT met") }'
}

echo "import of $n items (json: $(du -sh "$work/json" | cut -f1), ion: $(du -sh "$ion_folder" | cut -f1) on disk)"
run "folder: DynamoDB JSON" "$work/json"
run "s3: DynamoDB JSON" "s3://bench/bench/json"
run "folder: Ion" "$ion_folder"
run "s3: Ion" "s3://bench/bench/ion"
