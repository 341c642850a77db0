#!/usr/bin/env bash
# Installs what is missing, builds, and runs Dynoscope's main job on the embedded demo data.
# Until the GUI exists that is the command-line tool: its help, and the one-to-many demo query.
set -euo pipefail
cd "$(dirname "$0")/.."
build-aux/install-deps.sh
[ -f build/build.ninja ] || meson setup build
ninja -C build
cli=build/src/cli/dynoscope-cli
"$cli" --help
echo
echo "Workspace WS#acme and its projects (one item collection), as the seed article queries it:"
echo "  #er = :er AND begins_with(#d, :p)"
"$cli" eval data/demo/workspaces.jsonl \
  --condition '#er = :er AND begins_with(#d, :p)' \
  --values '{":er": {"S": "WS#acme"}, ":p": {"S": "PROJ#"}}' \
  --projection '#d, #n, budget, checksum' \
  --names '{"#er": "EntityRef", "#d": "Detail", "#n": "name"}'
