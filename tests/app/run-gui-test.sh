#!/bin/sh
# Runs a GUI test program under a virtual X server (and a private session bus when there is
# one), as CI machines have no display: xvfb-run picks a free display number. The screen is
# 1440x900 unless the first arguments are --screen WIDTHxHEIGHT; screenshots take it whole.
set -e
export GDK_BACKEND=x11 GSK_RENDERER=cairo NO_AT_BRIDGE=1 GTK_A11Y=none
size=1440x900
if [ "$1" = --screen ]; then
  size=$2
  shift 2
fi
screen="-screen 0 ${size}x24"
if command -v dbus-run-session >/dev/null 2>&1; then
  exec xvfb-run -a -s "$screen" dbus-run-session -- "$@"
fi
exec xvfb-run -a -s "$screen" "$@"
