#!/usr/bin/env bash
# Installs, with apt-get, the Debian/Ubuntu packages that building and testing Dynoscope need and
# that are not installed yet. Used by run-demo.sh and, with --tests (which adds what the tests
# need: Java, npm, AWS's DynamoDB Local for the differential and client tests, dynalite for
# the client tests and s3rver for the S3 client's, debhelper and lintian for the package
# suite), by run-tests.sh and CI.
set -euo pipefail

for_tests=false
[ "${1:-}" = "--tests" ] && for_tests=true

packages=(
  meson ninja-build gcc pkg-config gettext
  libglib2.0-dev libjansson-dev libsqlite3-dev libcurl4-openssl-dev
  # OpenSSL's libcrypto signs the DPoP proofs of `aws login` sessions (ES256)
  libssl-dev
  # the libFuzzer targets: clang and its sanitizer runtimes
  clang libclang-rt-dev
  python3
  # the local endpoint (dynoscope-cli serve)
  libmicrohttpd-dev zlib1g-dev
  # the desktop app (src/app) and the checks of its data/ files
  libgtk-4-dev libadwaita-1-dev libgtksourceview-5-dev desktop-file-utils appstream
  # the GUI tests and build-aux/screenshots.sh: a virtual X server and ImageMagick's import;
  # XTest, with which stall-gui types into the window as a keyboard does
  xvfb xauth imagemagick libxtst-dev
  # the man pages' check (man renders them) and bash-completion's completionsdir
  man-db bash-completion
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed; then
    missing+=("$p")
  fi
done
# The differential tests (tests/diff) run AWS's DynamoDB Local: Java 17 and npm to fetch it.
# A Java or npm already on PATH (from any source) is used as it is.
if $for_tests; then
  command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jre-headless)
  # javac compiles the Java literals of the code generator's tests (tests/codegen).
  command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
  command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
  # The local endpoint's tests (tests/server) run the AWS CLI v2 and boto3 from Debian.
  # tests/lib makes a self-signed certificate with the openssl command for the TLS tests.
  # The code generator's tests (tests/codegen) parse the Go and Rust programs with gofmt and
  # rustfmt, compile the literals of every language (rustc for Rust) and type-check every
  # generated program (cargo, Debian's 1.65 with rustc 1.63, for Rust).
  # The completion tests drive bash (and zsh, which the completion is also written for).
  # The package suite (tests/package) builds the Debian packages and lints them.
  for p in awscli python3-boto3 openssl golang-go rustfmt rustc cargo bash zsh \
           dpkg-dev debhelper lintian; do
    dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed || missing+=("$p")
  done
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing missing packages: ${missing[*]}"
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# DynamoDB Local itself, once, into a cache outside the source tree (tests/diff/run-diff.py looks
# there; DYNOSCOPE_DDBLOCAL_DIR overrides the place).
ddblocal=${DYNOSCOPE_DDBLOCAL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dynoscope/ddblocal}
if $for_tests \
   && [ ! -f "$ddblocal/node_modules/amplify-dynamodb-simulator/emulator/DynamoDBLocal.jar" ] \
   && command -v npm >/dev/null 2>&1; then
  echo "Installing DynamoDB Local (amplify-dynamodb-simulator@2.9.30) into $ddblocal"
  mkdir -p "$ddblocal"
  npm install --no-audit --no-fund --no-save --prefix "$ddblocal" \
    amplify-dynamodb-simulator@2.9.30 >/dev/null \
    || echo "warning: npm could not install DynamoDB Local; the diff tests will try again"
fi

# dynalite (a Node implementation of DynamoDB) for the client tests, likewise into the cache
# (tests/lib/dynoscope_testlib.py looks there; DYNOSCOPE_DYNALITE_DIR overrides the place).
dynalite=${DYNOSCOPE_DYNALITE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dynoscope/dynalite}
if $for_tests && [ ! -f "$dynalite/node_modules/dynalite/cli.js" ] \
   && command -v npm >/dev/null 2>&1; then
  echo "Installing dynalite@4 into $dynalite"
  mkdir -p "$dynalite"
  npm install --no-audit --no-fund --no-save --prefix "$dynalite" dynalite@4 >/dev/null \
    || echo "warning: npm could not install dynalite; the client tests will try again"
fi
# s3rver (a Node implementation of S3) for the S3 client's tests, likewise into the cache
# (tests/net/run-s3-tests.py looks there; DYNOSCOPE_S3RVER_DIR overrides the place).
s3rver=${DYNOSCOPE_S3RVER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dynoscope/s3rver}
if $for_tests && [ ! -f "$s3rver/node_modules/s3rver/bin/s3rver.js" ] \
   && command -v npm >/dev/null 2>&1; then
  echo "Installing s3rver@3.7.1 into $s3rver"
  mkdir -p "$s3rver"
  npm install --no-audit --no-fund --no-save --prefix "$s3rver" s3rver@3.7.1 >/dev/null \
    || echo "warning: npm could not install s3rver; the S3 tests will try again"
fi
# The AWS SDK for JavaScript v3's DynamoDB client for the code generator's tests, likewise
# (tests/codegen looks there; DYNOSCOPE_AWS_SDK_JS_DIR overrides the place).
sdkjs=${DYNOSCOPE_AWS_SDK_JS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dynoscope/aws-sdk-js}
if $for_tests && [ ! -f "$sdkjs/node_modules/@aws-sdk/client-dynamodb/package.json" ] \
   && command -v npm >/dev/null 2>&1; then
  echo "Installing @aws-sdk/client-dynamodb into $sdkjs"
  mkdir -p "$sdkjs"
  npm install --no-audit --no-fund --no-save --prefix "$sdkjs" @aws-sdk/client-dynamodb@3 >/dev/null \
    || echo "warning: npm could not install @aws-sdk/client-dynamodb; the codegen tests will try again"
fi
exit 0
