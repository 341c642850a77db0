#!/bin/sh
# Runs a GUI test program under a virtual X server (and a private session bus when there is
# one), as CI machines have no display: xvfb-run picks a free display number.
set -e
export GDK_BACKEND=x11 GSK_RENDERER=cairo NO_AT_BRIDGE=1 GTK_A11Y=none
if command -v dbus-run-session >/dev/null 2>&1; then
  exec xvfb-run -a -s "-screen 0 1440x900x24" dbus-run-session -- "$@"
fi
exec xvfb-run -a -s "-screen 0 1440x900x24" "$@"
