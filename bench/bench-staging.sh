#!/usr/bin/env bash
# bench-staging.sh: commit throughput (items/s) of N staged fan-out updates (default 10,000),
# run as a user runs them (dynoscope-cli fanout, then the timed commit), against the embedded
# engine (--db) and against `dynoscope-cli serve` on the same kind of database (--endpoint), in
# both commit modes: TransactWriteItems batches (the default) and single conditional writes.
#
#   bench/bench-staging.sh [path/to/dynoscope-cli] [N] [MODES, default "transactions"; "transactions
#   single" adds single writes, slower: one conditional write and, on a file database, one fsync
#   of the engine per change; the journal syncs twice per group of up to 100]
set -euo pipefail

cli=${1:-build/src/cli/dynoscope-cli}
n=${2:-10000}
modes=${3:-transactions}
work=$(mktemp -d)
serve_pid=
cleanup () {
  if [ -n "$serve_pid" ]; then kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# No AWS configuration of the user's; serve does not check signatures without --auth.
for v in $(env | sed -n 's/^\(AWS_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
export AWS_ACCESS_KEY_ID=AKIABENCHSTAGING0000 AWS_SECRET_ACCESS_KEY=bench/secret
export AWS_REGION=us-east-1 AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null

# N posts by USER#12, each holding a copy of her name.
python3 - "$n" >"$work/posts.jsonl" <<'EOF'
import json, sys
for i in range(int(sys.argv[1])):
    print(json.dumps({"Item": {"id": {"S": f"POST#{i:06d}"}, "author_id": {"S": "USER#12"},
                               "author_name": {"S": "Mara Vance"}, "body": {"S": f"post {i}"}}}))
EOF

now_ns () { date +%s%N; }

# make_db PATH: the Posts table with its by_author index, filled.
make_db () {
  "$cli" --db "$1" import --table Posts --key id:S --gsi by_author:author_id:S \
    --format jsonl "$work/posts.jsonl" >/dev/null
}

# run_commit LABEL STAGING CONNECTION... -- COMMIT_OPTIONS...: stages the fan-out, times the
# commit, prints the figure.
run_commit () {
  local label=$1 staging=$2
  shift 2
  local conn=()
  while [ "$1" != "--" ]; do conn+=("$1"); shift; done
  shift
  "$cli" "${conn[@]}" fanout --staging "$staging" --table Posts --index by_author \
    --key USER#12 --set author_name --from "Mara Vance" --to "Mara V." >"$work/plan.out"
  grep -q "^staged=$n\$" "$work/plan.out" || { echo "bench-staging: fanout: $(cat "$work/plan.out")" >&2; exit 1; }
  local t0 t1 out
  t0=$(now_ns)
  out=$("$cli" "${conn[@]}" commit --staging "$staging" "$@")
  t1=$(now_ns)
  if [ "$out" != "committed=$n conflicts=0 failed=0" ]; then
    echo "bench-staging: $label: $out" >&2
    exit 1
  fi
  awk -v label="$label" -v n="$n" -v ns="$((t1 - t0))" \
    'BEGIN { s = ns / 1e9; printf "%-34s %8.0f items/s  (%d items in %.2f s)\n", label, n / s, n, s }'
}

echo "Commit of $n staged fan-out updates (dynoscope-cli commit, wall clock):"
for mode in $modes; do
  opts=()
  [ "$mode" = single ] && opts=(--single)

  make_db "$work/engine-$mode.db"
  run_commit "engine (--db), $mode" "$work/staging-engine-$mode.db" \
    --db "$work/engine-$mode.db" -- "${opts[@]}"

  make_db "$work/serve-$mode.db"
  "$cli" --db "$work/serve-$mode.db" serve --port 0 >"$work/serve.out" 2>&1 &
  serve_pid=$!
  for _ in $(seq 100); do
    grep -q "^Listening on " "$work/serve.out" && break
    sleep 0.05
  done
  url=$(sed -n 's/^Listening on //p' "$work/serve.out")
  [ -n "$url" ] || { echo "bench-staging: serve did not start: $(cat "$work/serve.out")" >&2; exit 1; }
  run_commit "serve (--endpoint), $mode" "$work/staging-serve-$mode.db" \
    --endpoint "$url" -- "${opts[@]}"
  kill "$serve_pid"
  wait "$serve_pid" 2>/dev/null || true
  serve_pid=
done
