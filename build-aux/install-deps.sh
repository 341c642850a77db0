#!/usr/bin/env bash
# Installs, with apt-get, the Debian/Ubuntu packages that building and testing Dynoscope need and
# that are not installed yet. Used by run-demo.sh, run-tests.sh and CI.
set -euo pipefail

packages=(
  meson ninja-build gcc pkg-config gettext
  libglib2.0-dev libjansson-dev
  # the libFuzzer targets: clang and its sanitizer runtimes
  clang libclang-rt-dev
  python3
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing packages: ${missing[*]}"
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
