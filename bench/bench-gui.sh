#!/bin/sh
# Runs bench-gui (see bench/bench-gui.c) under a virtual X server, as the GUI tests run:
#   bench/bench-gui.sh [BUILD_DIR] [N_ITEMS]     (defaults: build, 1000000)
# Builds what it needs first. Set BENCH_GUI_DB=PATH to reuse a database (table "bench").
set -e
cd "$(dirname "$0")/.."
build=${1:-build}
[ $# -gt 0 ] && shift
ninja -C "$build" bench/bench-gui bench/bench-engine src/app/gschemas.compiled >/dev/null
export GSETTINGS_SCHEMA_DIR="$PWD/$build/src/app"
# The goals hold on a machine whose other core is busy: a busy loop runs meanwhile
# (BENCH_GUI_BUSY=0 leaves it out).
if [ "${BENCH_GUI_BUSY:-1}" != 0 ]; then
  sh -c 'while :; do :; done' &
  busy=$!
  trap 'kill $busy' EXIT INT TERM
fi
tests/app/run-gui-test.sh "$build/bench/bench-gui" "$@"
