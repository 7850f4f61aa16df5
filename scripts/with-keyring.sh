#!/usr/bin/env bash
# Run a command inside a private D-Bus session with an unlocked GNOME Keyring (a real
# freedesktop.org Secret Service), so keychain tests talk to a real OS keychain without touching
# the user's own keyring.
#
#   bash scripts/with-keyring.sh <command> [args…]
#
# XDG_DATA_HOME / XDG_CONFIG_HOME / XDG_CACHE_HOME / XDG_RUNTIME_DIR point at a temp dir (removed
# afterwards), so the keyring files ("login" keyring, password "pw") live only there. The command
# sees OPENPROGRAM_KEYRING_TEST=1. Exit status: the command's.
#
# Without dbus-run-session or gnome-keyring-daemon it prints "keychain tests skipped: …" and exits
# 0. On Linux CI both are installed by .ci/run (packages gnome-keyring dbus dbus-x11
# libsecret-1-dev), so there the tests really run.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: bash scripts/with-keyring.sh <command> [args…]" >&2
  exit 2
fi
if ! command -v dbus-run-session >/dev/null 2>&1 || ! command -v gnome-keyring-daemon >/dev/null 2>&1; then
  echo "keychain tests skipped: no dbus-run-session/gnome-keyring on this machine"
  exit 0
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/openprogram-keyring.XXXXXX")"
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
mkdir -p "$tmp/data" "$tmp/config" "$tmp/cache" "$tmp/runtime"
chmod 700 "$tmp" "$tmp/runtime"

export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache" XDG_RUNTIME_DIR="$tmp/runtime"
export OPENPROGRAM_KEYRING_TEST=1
unset DBUS_SESSION_BUS_ADDRESS GNOME_KEYRING_CONTROL

# The inner script: start and unlock the keyring daemon (creating the "login" keyring with
# password "pw"), export the variables it prints, run the command. When the command ends,
# dbus-run-session ends the bus and the daemon exits with it.
# shellcheck disable=SC2016
inner='
set -euo pipefail
out="$(printf %s pw | gnome-keyring-daemon --unlock --components=secrets)"
while IFS= read -r line; do
  case "$line" in
    [A-Z_]*=*) export "${line?}" ;;
  esac
done <<<"$out"
"$@"
'
# dbus-daemon's "Failed to set fd limit" (unprivileged containers) is noise: filter it out.
set +e
dbus-run-session -- bash -c "$inner" with-keyring "$@" 2> >(grep -v --line-buffered "Failed to set fd limit" >&2)
rc=$?
wait 2>/dev/null || true
set -e
exit $rc
