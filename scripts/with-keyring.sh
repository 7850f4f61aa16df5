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
# The command gets OPENPROGRAM_KEYCHAIN_MARKER, a file the keychain suite creates once it really
# used the keychain. When the suite could not run (no dbus-run-session/gnome-keyring, or it ran
# without creating the marker) the script says so loudly on stderr. It then fails (exit 1) when
# OPENPROGRAM_REQUIRE_KEYCHAIN=1 — .ci/run sets that on Linux, where it installs the packages
# (gnome-keyring dbus dbus-x11 libsecret-1-dev), so CI cannot pass without the keychain suite —
# and otherwise exits 0 so that machines without a keyring can still run `npm test`.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: bash scripts/with-keyring.sh <command> [args…]" >&2
  exit 2
fi

not_run() {
  {
    echo
    echo "################################################################################"
    echo "#  KEYCHAIN TESTS DID NOT RUN: $1"
    echo "#  The secret store was NOT tested against a real OS keychain."
    echo "################################################################################"
    echo
  } >&2
  if [ "${OPENPROGRAM_REQUIRE_KEYCHAIN:-}" = "1" ]; then
    echo "OPENPROGRAM_REQUIRE_KEYCHAIN=1: failing." >&2
    exit 1
  fi
  exit 0
}

if ! command -v dbus-run-session >/dev/null 2>&1 || ! command -v gnome-keyring-daemon >/dev/null 2>&1; then
  not_run "no dbus-run-session/gnome-keyring-daemon on this machine"
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/openprogram-keyring.XXXXXX")"
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
mkdir -p "$tmp/data" "$tmp/config" "$tmp/cache" "$tmp/runtime"
chmod 700 "$tmp" "$tmp/runtime"

export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache" XDG_RUNTIME_DIR="$tmp/runtime"
export OPENPROGRAM_KEYRING_TEST=1
export OPENPROGRAM_KEYCHAIN_MARKER="$tmp/keychain-suite-ran"
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
# The keyring daemon may outlive the bus when its output is not a terminal: end the one this run
# started (found by its private XDG_RUNTIME_DIR; Linux /proc), and no other.
for p in /proc/[0-9]*; do
  [ "$(cat "$p/comm" 2>/dev/null)" = "gnome-keyring-d" ] || continue
  # (The process may be gone by now: the redirection's own error is silenced too.)
  if { tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qxF "XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR"; then
    kill "${p#/proc/}" 2>/dev/null || true
  fi
done
set -e
if [ $rc -ne 0 ]; then
  exit $rc
fi
if [ ! -e "$OPENPROGRAM_KEYCHAIN_MARKER" ]; then
  not_run "the command finished without using the keychain (no marker file)"
fi
exit 0
