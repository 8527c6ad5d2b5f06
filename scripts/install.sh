#!/usr/bin/env bash
# Installs (or upgrades) hearth on Debian or Raspberry Pi OS 12 and 13 (arm64, armhf, x86-64)
# as a systemd service, from a release tarball (`npm run release` makes one):
#
#   sudo ./install.sh hearth-<version>.tgz
#
# Run with no argument from inside an unpacked release, it installs that release. Upgrades swap
# the code in one rename and restart; the state in /var/lib/hearth is never touched.
# Environment: HEARTH_NODE_TARBALL=<node-v20...-linux-<arch>.tar.xz> uses that Node.js build
# where the distribution has no Node >= 20.12 (Debian 12) and nodejs.org cannot be reached.
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

# --- system packages ----------------------------------------------------------------------
say "system packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# espeak-ng speaks, alsa-utils plays (aplay), bubblewrap gives each app namespaces of its own,
# curl checks the service; python3, make and g++
# build better-sqlite3's native module (the only thing compiled on the device).
apt-get install -y -qq --no-install-recommends espeak-ng alsa-utils bubblewrap curl ca-certificates xz-utils python3 make g++ >/dev/null

# --- Node.js >= 20.12 ---------------------------------------------------------------------
version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]; }
node_ok() { command -v node >/dev/null && version_ge "$(node -p process.versions.node)" "$NODE_MIN"; }

if ! node_ok; then
  candidate=$(apt-cache policy nodejs 2>/dev/null | sed -n 's/^  Candidate: \([0-9.]*\).*/\1/p')
  if [ -n "$candidate" ] && version_ge "$candidate" "$NODE_MIN"; then
    say "Node.js $candidate from the distribution"
    # Debian's npm belongs with Debian's nodejs; never beside another Node (the two conflict).
    apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
  else
    case "$(uname -m)" in
      x86_64) arch=x64 ;;
      aarch64) arch=arm64 ;;
      armv7l) arch=armv7l ;;
      *) die "no official Node.js build for $(uname -m)" ;;
    esac
    tarball=${HEARTH_NODE_TARBALL:-}
    if [ -z "$tarball" ]; then
      url="https://nodejs.org/dist/v$NODE_VERSION/node-v$NODE_VERSION-linux-$arch.tar.xz"
      tarball="$work/node.tar.xz"
      say "Node.js $NODE_VERSION from nodejs.org (this distribution has ${candidate:-no} nodejs, hearth needs >= $NODE_MIN)"
      curl -fsSL --retry 2 -o "$tarball" "$url" || die "could not download $url. Download it on another machine, copy it here and run:
  sudo HEARTH_NODE_TARBALL=/path/to/node-v$NODE_VERSION-linux-$arch.tar.xz $0 $*"
    else
      say "Node.js from $tarball"
    fi
    rm -rf "$NODE_HOME.new" && mkdir -p "$NODE_HOME.new"
    tar -xJf "$tarball" -C "$NODE_HOME.new" --strip-components=1 --no-same-owner
    rm -rf "$NODE_HOME" && mv "$NODE_HOME.new" "$NODE_HOME"
    for tool in node npm npx; do ln -sfn "$NODE_HOME/bin/$tool" "/usr/local/bin/$tool"; done
    hash -r
  fi
fi
node_ok || die "Node.js >= $NODE_MIN is still not on the PATH ($(command -v node || echo none))"
say "Node.js $(node --version), npm $(npm --version)"

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
(cd "$release.partial" && npm ci --omit=dev --no-audit --no-fund --no-update-notifier --loglevel=error)
chown -R root:root "$release.partial"
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
[ -e "$DEFAULTS" ] || printf '# Settings of the hearth service, e.g.\n# HEARTH_PORT=8720\n' > "$DEFAULTS"
install -m 0644 "$ROOT/systemd/hearth.service" "$UNIT"
systemctl daemon-reload
systemctl enable hearth.service >/dev/null
systemctl restart hearth.service

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
