#!/usr/bin/env bash
# The Debian packages, built and used as a user gets them: dpkg-buildpackage builds dynoscope and
# dynoscope-cli from a copy of the source tree, dpkg -x unpacks them into a temporary root, and
# the unpacked dynoscope-cli shows its version, runs a command and serves (one ListTables over
# HTTP); the cli package pulls in no GTK; the app's desktop file, icon, metainfo and GSettings
# schema are where the desktop finds them; lintian reports no error.
#   test-deb.sh SOURCE_DIR        (exit 77 = skipped: the Debian packaging tools are missing)
set -euo pipefail

src=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
for tool in dpkg-buildpackage dh lintian python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool is not installed (build-aux/install-deps.sh --tests installs it)"
    exit 77
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/dynoscope-deb.XXXXXX")
server_pid=
cleanup () {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail () { echo "FAIL: $*"; exit 1; }
start=$SECONDS

# A copy of the tree as it is (tracked and new files, not the build folders nor ignored files),
# so the package is built from exactly what is being tested, and the source tree stays clean.
mkdir "$work/dynoscope"
if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
  (cd "$src" && git ls-files -co --exclude-standard -z \
     | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
     | xargs -0 cp -P --parents -t "$work/dynoscope")
else
  (cd "$src" && tar --exclude='./build*' --exclude=./_build* --exclude=./.git -cf - .) \
    | tar -C "$work/dynoscope" -xf -
fi

echo "== dpkg-buildpackage -us -uc -b"
if ! (cd "$work/dynoscope" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then
  tail -60 "$work/build.log"
  fail "dpkg-buildpackage failed"
fi
version=$(cd "$work/dynoscope" && dpkg-parsechangelog -S Version)
arch=$(dpkg --print-architecture)
cli_deb="$work/dynoscope-cli_${version}_${arch}.deb"
app_deb="$work/dynoscope_${version}_${arch}.deb"
changes="$work/dynoscope_${version}_${arch}.changes"
for f in "$cli_deb" "$app_deb" "$changes"; do
  [ -f "$f" ] || fail "dpkg-buildpackage made no $(basename "$f")"
done
echo "built in $((SECONDS - start)) s: $(cd "$work" && ls ./*.deb | tr '\n' ' ')"

echo "== dynoscope-cli depends on no GTK"
cli_depends=$(dpkg-deb -f "$cli_deb" Depends)
echo "Depends: $cli_depends"
if grep -Eiq 'gtk|adwaita|gtksourceview|libgdk|wayland|libx11' <<<"$cli_depends"; then
  fail "dynoscope-cli depends on a graphical library: $cli_depends"
fi
grep -q 'libmicrohttpd\|libsqlite3' <<<"$cli_depends$(dpkg-deb -f "$cli_deb" Built-Using)" \
  || fail "dynoscope-cli names neither libmicrohttpd nor SQLite in Depends or Built-Using"
dpkg-deb -f "$app_deb" Depends | grep -q 'libgtk-4-1' || fail "dynoscope does not depend on GTK 4"

root="$work/root"
mkdir "$root"
dpkg -x "$cli_deb" "$root"
for exe in usr/bin/dynoscope-cli usr/bin/dynoscope-serve usr/libexec/dynoscope/dynoscope-cli-full; do
  [ -x "$root/$exe" ] || fail "$exe is not in dynoscope-cli"
  if ldd "$root/$exe" | grep -Eiq 'libgtk|libadwaita|libgdk'; then
    fail "$exe links GTK: $(ldd "$root/$exe" | grep -Ei 'gtk|adwaita|gdk')"
  fi
done
for f in usr/share/man/man1/dynoscope-cli.1.gz usr/share/man/man1/dynoscope-serve.1.gz \
         usr/share/bash-completion/completions/dynoscope-cli \
         usr/share/zsh/vendor-completions/_dynoscope-cli; do
  [ -e "$root/$f" ] || fail "$f is not in dynoscope-cli"
done
if command -v man >/dev/null 2>&1; then
  MANPAGER=cat MANWIDTH=80 LC_ALL=C.UTF-8 man -l "$root/usr/share/man/man1/dynoscope-cli.1.gz" \
    | grep -q 'COMMANDS' || fail "the installed dynoscope-cli(1) does not render"
fi

echo "== the unpacked dynoscope-cli runs"
cli="$root/usr/bin/dynoscope-cli"
got=$("$cli" --version) || fail "dynoscope-cli --version failed"
[ "$got" = "dynoscope-cli ${version%%-*}" ] || fail "dynoscope-cli --version: '$got', not ${version%%-*}"
echo "$got"
# The catalogs of po/LINGUAS ship with the CLI (the app recommends it) and are the ones it reads.
for lang in $(grep -v '^#' "$src/po/LINGUAS"); do
  mo="usr/share/locale/$lang/LC_MESSAGES/dynoscope.mo"
  [ -e "$root/$mo" ] || fail "$mo is not in dynoscope-cli"
done
usage=$(LANGUAGE=tr DYNOSCOPE_LOCALEDIR="$root/usr/share/locale" "$cli" --help)
[[ $usage == Kullanım:* ]] || fail "the packaged Turkish catalog is not used: ${usage%%$'\n'*}"
"$cli" --db "$work/t.db" call CreateTable '{"TableName": "Orders", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}' >/dev/null \
  || fail "dynoscope-cli call CreateTable failed"
"$cli" --db "$work/t.db" call PutItem \
  '{"TableName": "Orders", "Item": {"pk": {"S": "a"}, "n": {"N": "12345678901234567890123456789012345678"}}}' \
  >/dev/null || fail "dynoscope-cli call PutItem failed"

echo "== the unpacked dynoscope-cli serves"
"$cli" --db "$work/t.db" serve --port 0 >"$work/serve.out" 2>"$work/serve.err" &
server_pid=$!
url=
for _ in $(seq 100); do
  url=$(sed -n 's/^Listening on \(http:[^ ]*\).*/\1/p' "$work/serve.out")
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
[ -n "$url" ] || fail "serve did not listen: $(cat "$work/serve.err")"
python3 - "$url" <<'PY' || fail "ListTables or GetItem over HTTP failed"
import json, sys, urllib.request

def call(op, body):
    req = urllib.request.Request(sys.argv[1], data=json.dumps(body).encode(), headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoDB_20120810." + op})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)

tables = call("ListTables", {})
assert tables == {"TableNames": ["Orders"]}, tables
item = call("GetItem", {"TableName": "Orders", "Key": {"pk": {"S": "a"}}})
assert item["Item"]["n"] == {"N": "12345678901234567890123456789012345678"}, item
print("ListTables:", json.dumps(tables))
PY
kill -TERM "$server_pid"
wait "$server_pid" || fail "serve did not exit 0 on SIGTERM"
server_pid=

echo "== the app's files are where the desktop finds them"
dpkg -x "$app_deb" "$root"
[ -x "$root/usr/bin/dynoscope" ] || fail "usr/bin/dynoscope is not in dynoscope"
desktop="$root/usr/share/applications/io.github.dynoscope.Dynoscope.desktop"
[ -f "$desktop" ] || fail "no desktop file in usr/share/applications"
icon=$(sed -n 's/^Icon=//p' "$desktop")
ls "$root"/usr/share/icons/hicolor/*/apps/"$icon".* >/dev/null 2>&1 \
  || fail "the desktop file's icon $icon is not in usr/share/icons/hicolor"
if command -v desktop-file-validate >/dev/null 2>&1; then
  desktop-file-validate "$desktop" || fail "desktop-file-validate"
fi
metainfo="$root/usr/share/metainfo/io.github.dynoscope.Dynoscope.metainfo.xml"
[ -f "$metainfo" ] || fail "no metainfo in usr/share/metainfo"
grep -q '<launchable type="desktop-id">io.github.dynoscope.Dynoscope.desktop</launchable>' \
  "$metainfo" || fail "the metainfo does not launch the desktop file"
schemas="$root/usr/share/glib-2.0/schemas"
[ -f "$schemas/io.github.dynoscope.Dynoscope.gschema.xml" ] || fail "no GSettings schema"
# libglib2.0-0's dpkg trigger on this folder compiles it when the package is installed.
glib-compile-schemas --strict --targetdir="$work" "$schemas" || fail "the schema does not compile"
[ -f "$root/usr/share/man/man1/dynoscope.1.gz" ] || fail "no dynoscope(1)"

echo "== lintian"
lintian "$changes" >"$work/lintian.log" 2>&1 || true
grep -v 'running with root privileges' "$work/lintian.log" || true
if grep -q '^E: ' "$work/lintian.log"; then
  fail "lintian reports errors"
fi
echo "lintian: $(grep -c '^W: ' "$work/lintian.log" || true) warnings, no errors"
echo "ok: the packages build, unpack, run and serve ($((SECONDS - start)) s)"
