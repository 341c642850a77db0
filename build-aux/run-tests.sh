#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test:
#   1. the whole test suite, warnings as errors;
#   2. the GTK-free suites again under AddressSanitizer + UndefinedBehaviorSanitizer (but the
#      'toolchain' suite: javac, go, cargo... compiling generated programs, the same either way);
#   3. each libFuzzer target for FUZZ_SECONDS (default 20) from its committed corpus;
#   4. the slow 'package' suite: the Debian packages built, unpacked, run and linted (about two
#      minutes; the two runs above leave it out).
# After each of the first two runs, build-aux/check-secrets.py reads every test's output for the
# tests' secrets (one more test each).
# Ends with one line "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
build-aux/install-deps.sh --tests || exit 1

fuzz_seconds=${FUZZ_SECONDS:-20}
fuzz_targets="ddbjson plainjson expr codegen requests serve model infer awsconfig tokencache sts ion
  snapshot sigv4 answer itemcodec page"
passed=0
failed=0
skipped=0
failures=""  # the names of what failed, repeated before the last line


count_meson () { # builddir
  local counts
  counts=$(python3 - "$1/meson-logs/testlog.json" <<'PY'
import json, sys
ok = bad = skip = 0
names = []
for line in open(sys.argv[1]):
    t = json.loads(line)
    r = t.get("result")
    if r in ("OK", "EXPECTEDFAIL"):
        ok += 1
    elif r == "SKIP":
        skip += 1
    else:
        bad += 1
        names.append(f"{t.get('name')}({r})")
print(ok, bad, skip, *names)
PY
) || counts="0 1 0 (no-testlog)"
  read -r ok bad skip names <<<"$counts"
  [ -n "$names" ] && failures="$failures $1:${names// / $1:}"
  passed=$((passed + ok))
  failed=$((failed + bad))
  skipped=$((skipped + skip))
}

# The tests' secrets in none of their outputs (build-aux/check-secrets.py), counted as a test.
check_secrets () { # builddir
  if python3 build-aux/check-secrets.py "$1/meson-logs/testlog.txt"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); failures="$failures $1:check-secrets"
  fi
}

setup () { # builddir, options... (quiet unless it fails)
  local dir=$1 log; shift
  log=$(mktemp)
  if [ -f "$dir/build.ninja" ]; then
    meson configure "$dir" "$@" >"$log" 2>&1
  else
    meson setup "$dir" "$@" >"$log" 2>&1
  fi || { tail -30 "$log"; rm -f "$log"; return 1; }
  rm -f "$log"
}

echo "== build (warnings as errors) and full test suite (but the package suite, run last)"
built=false
if setup build -Dwerror=true && ninja -C build; then
  built=true
  # Timeouts are set for this build on an idle machine; twice that holds on a busy one.
  meson test -C build --no-suite package --print-errorlogs --num-processes 2 \
    --timeout-multiplier 2
  count_meson build
  check_secrets build
else
  echo "build failed"; failed=$((failed + 1))
fi

echo "== GTK-free tests (all but the gui and toolchain suites) under address + undefined sanitizers"
if setup build-sanitize -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false \
   && ninja -C build-sanitize; then
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    meson test -C build-sanitize --no-suite gui --no-suite package --no-suite toolchain \
      --print-errorlogs --num-processes 2 --timeout-multiplier 3
  count_meson build-sanitize
  check_secrets build-sanitize
else
  echo "sanitizer build failed"; failed=$((failed + 1))
fi

echo "== fuzz targets, ${fuzz_seconds}s each"
if [ -f build-fuzz/build.ninja ] || CC=clang setup build-fuzz -Dfuzzing=true -Dtests=false \
     -Db_sanitize=address,undefined -Db_lundef=false; then
  if ninja -C build-fuzz; then
    for target in $fuzz_targets; do
      work=$(mktemp -d)
      cp fuzz/corpus/$target/* "$work"/ 2>/dev/null
      # Undefined behaviour stops the target (a finding), as a crash does.
      if UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
           build-fuzz/fuzz/fuzz-$target "$work" -max_total_time="$fuzz_seconds" \
           -print_final_stats=0 >"build-fuzz/fuzz-$target.log" 2>&1; then
        echo "fuzz-$target: ok"; passed=$((passed + 1))
      else
        echo "fuzz-$target: FAILED"; tail -40 "build-fuzz/fuzz-$target.log"; failed=$((failed + 1))
        failures="$failures fuzz-$target"
      fi
      rm -rf "$work"
    done
  else
    echo "fuzz build failed"; failed=$((failed + 1))
  fi
else
  echo "fuzz configure failed"; failed=$((failed + 1))
fi

echo "== Debian packages (suite package)"
if $built; then
  # Counted from its own log: none (a failure) rather than the main run's counted twice.
  rm -f build/meson-logs/testlog.json
  meson test -C build --no-rebuild --suite package --print-errorlogs
  count_meson build
else
  echo "skipped: the build failed"
fi

echo
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
