#!/bin/sh
# Runs bench-gui (see bench/bench-gui.c) under a virtual X server, as the GUI tests run:
#   bench/bench-gui.sh [BUILD_DIR] [N_ITEMS [ROWS]]     (defaults: build, 1000000, N_ITEMS)
# Builds what it needs first. Set BENCH_GUI_DB=PATH to reuse a database (table "bench").
set -e
cd "$(dirname "$0")/.."
build=${1:-build}
[ $# -gt 0 ] && shift
ninja -C "$build" bench/bench-gui bench/bench-engine src/app/gschemas.compiled >/dev/null
export GSETTINGS_SCHEMA_DIR="$PWD/$build/src/app"
exec tests/app/run-gui-test.sh "$build/bench/bench-gui" "$@"
