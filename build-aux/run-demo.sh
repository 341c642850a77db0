#!/usr/bin/env bash
# Installs what is missing, builds, and runs Dynoscope's main job on the embedded demo database.
# With a display (and the app built) that is the desktop app, which builds its demo database from
# the seed articles' worked examples (data/demo/*.jsonl) into ~/.cache/dynoscope the first time.
# Without one (or with --cli) it is the command-line tool: it builds build/demo.db from the same
# examples and runs their queries against it.
set -euo pipefail
cd "$(dirname "$0")/.."
build-aux/install-deps.sh
[ -f build/build.ninja ] || meson setup build
ninja -C build
# The build's compiled catalogs, so that LANGUAGE=tr (it, el) works before any install.
export DYNOSCOPE_LOCALEDIR="$PWD/build/po"

app=build/src/app/dynoscope
if [ "${1:-}" != "--cli" ] && [ -x "$app" ] \
   && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  # Run in place: the schema compiled in the build folder, the demo data of the source tree.
  export GSETTINGS_SCHEMA_DIR="$PWD/build/src/app"
  export DYNOSCOPE_DEMO_DATA="$PWD/data/demo"
  echo "Starting the desktop app on the demo database ($app; --cli for the command-line demo)"
  exec "$app"
fi
cli=build/src/cli/dynoscope-cli
db=build/demo.db

"$cli" --help
echo
rm -f "$db" "$db-wal" "$db-shm"
"$cli" --db "$db" import --table Workspaces --key EntityRef:S,Detail:S data/demo/workspaces.jsonl
"$cli" --db "$db" import --table Posts --key PK:S,SK:S data/demo/posts.jsonl
echo
echo "The workspace WS#acme's projects, newest first: one Query over one item collection"
echo "  KeyConditionExpression #er = :er AND begins_with(#d, :p), ScanIndexForward false"
"$cli" --db "$db" call --pretty Query '{
  "TableName": "Workspaces",
  "KeyConditionExpression": "#er = :er AND begins_with(#d, :p)",
  "ExpressionAttributeNames": {"#er": "EntityRef", "#d": "Detail"},
  "ExpressionAttributeValues": {":er": {"S": "WS#acme"}, ":p": {"S": "PROJ#"}},
  "ScanIndexForward": false,
  "ReturnConsumedCapacity": "TOTAL"
}'
echo
echo "Mara renames herself: the post still holding the old author name changes, guarded by a condition"
"$cli" --db "$db" call --pretty UpdateItem '{
  "TableName": "Posts",
  "Key": {"PK": {"S": "POST#9f3"}, "SK": {"S": "META"}},
  "UpdateExpression": "SET authorName = :new",
  "ConditionExpression": "authorName = :old",
  "ExpressionAttributeValues": {":old": {"S": "Mara Vance"}, ":new": {"S": "Mara V."}},
  "ReturnValues": "UPDATED_OLD"
}'
echo
echo "Demo database: $db (try: $cli --db $db call Scan '{\"TableName\": \"Posts\"}')"
