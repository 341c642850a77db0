#!/usr/bin/env bash
# Writes PNG screenshots of the app's main views (tables, a Query with its request, item
# collections, the inspector, a Scan with a filter, staging, import, the layout with both panels,
# the expression builder, the SQL tab, the Model window, the restored tabs, times as dates, many
# rows selected, production and read-only connections, a table's exports to S3) into
# data/screenshots/ (or $1): it runs the GUI test
# programs, which drive the real window on the demo database under Xvfb and call
# `import -window root` (ImageMagick) at each view.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
out=$(realpath -m "${1:-data/screenshots}")
[ -f "$build/build.ninja" ] || meson setup "$build"
programs=(test-gui test-staging-gui test-import-gui test-builder-gui test-sql-gui test-model-gui
          test-session-gui test-times-gui test-layout-gui test-bulk-gui test-production-gui
          test-exports-gui)
ninja -C "$build" "${programs[@]/#/tests/app/}" src/app/gschemas.compiled src/cli/dynoscope-cli
mkdir -p "$out"
export DYNOSCOPE_SCREENSHOT_DIR="$out"
export GSETTINGS_SCHEMA_DIR="$PWD/$build/src/app"
export DYNOSCOPE_DEMO_DATA="$PWD/data/demo"
export DYNOSCOPE_CLI="$PWD/$build/src/cli/dynoscope-cli"
export GSETTINGS_BACKEND=memory
for program in "${programs[@]}"; do
  tests/app/run-gui-test.sh "$build/tests/app/$program"
done
# the layout at the most common laptop screen (above) and at 1920x1080
DYNOSCOPE_LAYOUT_SIZE=1920x1080 tests/app/run-gui-test.sh --screen 1920x1080 \
  "$build/tests/app/test-layout-gui"
ls -1 "$out"/*.png
