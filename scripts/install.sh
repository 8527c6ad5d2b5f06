#!/usr/bin/env bash
# Installs (or upgrades) hearth on Debian or Raspberry Pi OS 12 and 13 (arm64, armhf, x86-64)
# as a systemd service, from the release tarball made for the system's architecture
# (`npm run release` makes hearth-<version>-linux-<x64|arm64|armhf>.tgz):
#
#   sudo ./install.sh hearth-<version>-linux-arm64.tgz
#
# Run with no argument from inside an unpacked release, it installs that release. A release
# carries its dependencies, native module included: nothing is compiled or downloaded here but
# Node.js where the system has none that fits. Upgrades swap the code in one rename and restart;
# the state in /var/lib/hearth is never touched.
# Environment: HEARTH_NODE_TARBALL=<node-v20...-linux-<arch>.tar.xz> uses that Node.js build
# where the distribution has no Node 20 >= 20.12 (Debian 12) and nodejs.org cannot be reached.
set -euo pipefail

NODE_MIN=20.12.0
NODE_VERSION=${HEARTH_NODE_VERSION:-20.19.5}   # the official build used where the distribution has none
ROOT=/opt/hearth                    # a symlink to the current release in $RELEASES
RELEASES=/opt/hearth-releases
NODE_HOME=/opt/hearth-node
STATE=/var/lib/hearth
UNIT=/etc/systemd/system/hearth.service
DEFAULTS=/etc/default/hearth

say() { printf '== %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root: sudo $0 $*"
command -v apt-get >/dev/null || die "this installer is for Debian and Raspberry Pi OS (apt-get not found)"

# --- the release to install ---------------------------------------------------------------
work=$(mktemp -d /opt/.hearth-install.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ $# -ge 1 ]; then
  [ -f "$1" ] || die "no release tarball at $1"
  tar -xzf "$1" -C "$work" --no-same-owner
  src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'hearth-*' | head -n 1)
  [ -n "$src" ] && [ -f "$src/dist/cli.js" ] || die "$1 is not a hearth release (no hearth-<version>/dist/cli.js inside)"
else
  src=$(cd "$(dirname "$0")/.." && pwd)
  [ -f "$src/dist/cli.js" ] || die "no release here ($src/dist/cli.js is missing): pass a release tarball, made with npm run release"
fi
version=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$src/package.json" | head -n 1)
[ -n "$version" ] || die "cannot read the version from $src/package.json"

# --- the release is for this system -------------------------------------------------------
# release.json says what the release's native module is built for (scripts/release.mjs).
field() { sed -n "s/^ *\"$1\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$src/release.json" | head -n 1; }
[ -f "$src/release.json" ] || die "this release has no release.json (it predates per-architecture releases): make one with npm run release"
target=$(field target)
release_arch=$(field dpkgArchitecture)
node_major=$(field major)
node_abi=$(field abi)
system_arch=$(dpkg --print-architecture)
if [ "$system_arch" != "$release_arch" ]; then
  case "$system_arch" in
    amd64) fits=linux-x64 ;; arm64) fits=linux-arm64 ;; armhf) fits=linux-armhf ;; *) fits= ;;
  esac
  [ -n "$fits" ] || die "this is the release for $target, and this system is $system_arch, for which there is no hearth release (there are x64, arm64 and armhf)"
  die "this is the release for $target, and this system is $system_arch: install hearth-$version-$fits.tgz"
fi
# Raspberry Pi OS calls the Pi Zero's and Pi 1's ARMv6 armhf too; Node.js runs on ARMv7 and up.
[ "$(uname -m)" != armv6l ] || die "this board's ARMv6 processor (Raspberry Pi Zero or 1) cannot run Node.js $node_major: hearth needs a Pi Zero 2 W, 3, 4 or 5"

# --- system packages ----------------------------------------------------------------------
say "system packages"
export DEBIAN_FRONTEND=noninteractive
# A Pi on Wi-Fi drops a download now and then: apt tries each one again before giving up.
apt_get() { apt-get -o Acquire::Retries=5 "$@"; }
apt_get update -qq || die "apt-get update failed: is the network up, and are the package sources in /etc/apt reachable?"
# espeak-ng speaks, alsa-utils plays (aplay), bubblewrap gives each app namespaces of its own,
# curl checks the service. No compiler: the release's native module is built for this system.
apt_get install -y -qq --no-install-recommends espeak-ng alsa-utils bubblewrap curl ca-certificates xz-utils >/dev/null

# --- Node.js 20, >= 20.12 -----------------------------------------------------------------
# The release's native module loads in the Node major it was built for (its ABI): a newer Node on
# the PATH does not do, and hearth gets its own.
version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]; }
node_ok() {
  command -v node >/dev/null && version_ge "$(node -p process.versions.node)" "$NODE_MIN" &&
    [ "$(node -p 'process.versions.node.split(".")[0]')" = "$node_major" ]
}

if ! node_ok; then
  candidate=$(apt-cache policy nodejs 2>/dev/null | sed -n 's/^  Candidate: \([0-9.]*\).*/\1/p')
  if [ -n "$candidate" ] && version_ge "$candidate" "$NODE_MIN" && [ "${candidate%%.*}" = "$node_major" ]; then
    say "Node.js $candidate from the distribution"
    # Only node: hearth runs no npm on the device.
    apt_get install -y -qq --no-install-recommends nodejs >/dev/null
  else
    case "$system_arch" in
      amd64) arch=x64 ;;
      arm64) arch=arm64 ;;
      armhf) arch=armv7l ;;
    esac
    tarball=${HEARTH_NODE_TARBALL:-}
    if [ -z "$tarball" ]; then
      url="https://nodejs.org/dist/v$NODE_VERSION/node-v$NODE_VERSION-linux-$arch.tar.xz"
      tarball="$work/node.tar.xz"
      say "Node.js $NODE_VERSION from nodejs.org (this distribution has ${candidate:-no} nodejs, hearth needs >= $NODE_MIN)"
      other=
      [ "$system_arch" != armhf ] || other=", or use Debian 13 (Raspberry Pi OS trixie), whose own Node.js 20 hearth takes"
      curl -fsSL --retry 2 -o "$tarball" "$url" || die "could not download $url. Download it on another machine, copy it here and run:
  sudo HEARTH_NODE_TARBALL=/path/to/node-v$NODE_VERSION-linux-$arch.tar.xz $0 $*$other"
    else
      say "Node.js from $tarball"
    fi
    rm -rf "$NODE_HOME.new" && mkdir -p "$NODE_HOME.new"
    tar -xJf "$tarball" -C "$NODE_HOME.new" --strip-components=1 --no-same-owner
    rm -rf "$NODE_HOME" && mv "$NODE_HOME.new" "$NODE_HOME"
    for tool in node npm npx; do [ ! -e "$NODE_HOME/bin/$tool" ] || ln -sfn "$NODE_HOME/bin/$tool" "/usr/local/bin/$tool"; done
    hash -r
  fi
fi
node_ok || die "Node.js $node_major (>= $NODE_MIN) is still not on the PATH ($(command -v node || echo none) is $(node --version 2>/dev/null || echo nothing))"
[ "$(node -p process.versions.modules)" = "$node_abi" ] ||
  die "Node.js $(node --version) has the native-module ABI $(node -p process.versions.modules), and this release's is $node_abi: install the release made for Node.js $node_major"
say "Node.js $(node --version)"

# --- user and state -----------------------------------------------------------------------
id hearth >/dev/null 2>&1 || useradd --system --home-dir "$STATE" --shell /usr/sbin/nologin hearth
getent group audio >/dev/null && usermod -a -G audio hearth
install -d -m 0750 -o hearth -g hearth "$STATE" "$STATE/data"
# The apps folder ($STATE/apps) is the hub's to make: at its first start it makes it with the
# example apps (the release's examples/); after that it belongs to the owner, and an upgrade
# brings back no example the owner uninstalled.

# --- code: a new release folder, then one rename of the symlink -------------------------
say "hearth $version into $RELEASES"
install -d -m 0755 "$RELEASES"
release="$RELEASES/$version-$(date -u +%Y%m%dT%H%M%SZ)"
cp -a "$src" "$release.partial"
chown -R root:root "$release.partial"
# The running hub stays until the new release's native module is known to load here.
(cd "$release.partial" && node -e "new (require('better-sqlite3'))(':memory:').close()") || {
  rm -rf "$release.partial"
  die "the release's native module (better-sqlite3) does not load with $(command -v node) $(node --version): the release is not for this system"
}
mv "$release.partial" "$release"
previous=$(readlink "$ROOT" 2>/dev/null || true)
[ -e "$ROOT" ] && [ ! -L "$ROOT" ] && mv "$ROOT" "$ROOT.before-releases"   # an install from before releases
ln -sfn "$release" "$ROOT.new" && mv -T "$ROOT.new" "$ROOT"

# --- the hearth command -------------------------------------------------------------------
cat > /usr/local/bin/hearth <<'EOF'
#!/bin/sh
# hearth on this device: runs the CLI as the hearth user with the service's settings
# (/etc/default/hearth), so `sudo hearth token create ...`, `hearth backup` and `hearth restore`
# see the same data and port as the service.
set -e
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
[ -r /etc/default/hearth ] && . /etc/default/hearth
node=$(command -v node)
set -- env HEARTH_DATA_DIR="${HEARTH_DATA_DIR:-/var/lib/hearth/data}" HEARTH_APPS_DIR="${HEARTH_APPS_DIR:-/var/lib/hearth/apps}" \
  ${HEARTH_PORT:+HEARTH_PORT="$HEARTH_PORT"} ${HEARTH_TOKEN:+HEARTH_TOKEN="$HEARTH_TOKEN"} "$node" /opt/hearth/dist/cli.js "$@"
if [ "$(id -un)" = hearth ]; then exec "$@"; fi
[ "$(id -u)" -eq 0 ] || { echo "hearth: run it as root (sudo hearth ...) or as the hearth user" >&2; exit 1; }
exec runuser -u hearth -- "$@"
EOF
chmod 0755 /usr/local/bin/hearth

# --- service ------------------------------------------------------------------------------
say "service"
[ -e "$DEFAULTS" ] || printf '%s\n' '# Settings of the hearth service, e.g.' '# HEARTH_PORT=8720' \
  '# HEARTH_APP_SANDBOX=off runs apps where user namespaces do not work, with Node'"'"'s permission' \
  '# model alone: there any app can reach the network and signal (stop) the hub. Your choice to make;' \
  '# the default (auto) holds every app there instead.' > "$DEFAULTS"
install -m 0644 "$ROOT/systemd/hearth.service" "$UNIT"
systemctl daemon-reload
systemctl enable hearth.service >/dev/null
if ! systemctl restart hearth.service; then
  echo "hearth did not start; the service's last lines:" >&2
  journalctl -u hearth.service -n 30 --no-pager >&2 || true
  exit 1
fi

port=$( (. "$DEFAULTS"; echo "${HEARTH_PORT:-8720}") )
for _ in $(seq 1 60); do
  if curl -fsS "http://127.0.0.1:$port/api/manager/system/ping" >/dev/null 2>&1; then
    # Only the current and the previous release are kept (the previous one for a rollback).
    for old in "$RELEASES"/*; do
      [ "$old" = "$release" ] || [ "$old" = "$previous" ] || rm -rf "$old"
    done
    echo
    echo "hearth $version is running on port $port."
    echo "Owner token: sudo cat $STATE/data/owner-token"
    echo "A token for a tablet: sudo hearth token create --name tablet --scope service.dashboard.readonly"
    exit 0
  fi
  sleep 1
done
echo "hearth did not answer on port $port within 60 s; the service's last lines:" >&2
journalctl -u hearth.service -n 30 --no-pager >&2 || true
exit 1
