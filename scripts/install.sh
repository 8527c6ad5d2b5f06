#!/usr/bin/env bash
# Installs hearth on a Debian or Raspberry Pi OS device as a systemd service.
# Run from a checkout as root:  sudo scripts/install.sh
# Idempotent: running it again upgrades the code and keeps /var/lib/hearth.
set -euo pipefail

PREFIX=/opt/hearth
STATE=/var/lib/hearth
UNIT=/etc/systemd/system/hearth.service
SRC=$(cd "$(dirname "$0")/.." && pwd)

[ "$(id -u)" -eq 0 ] || { echo "run as root: sudo $0" >&2; exit 1; }

echo "== system packages"
apt-get update -qq
# espeak-ng speaks; alsa-utils plays (aplay); a toolchain builds better-sqlite3 where no binary fits.
apt-get install -y -qq nodejs npm espeak-ng alsa-utils python3 make g++ >/dev/null

major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || { echo "hearth needs Node.js 20 or newer; this is $(node --version)" >&2; exit 1; }

echo "== user"
id hearth >/dev/null 2>&1 || useradd --system --home-dir "$STATE" --shell /usr/sbin/nologin --groups audio hearth

echo "== code into $PREFIX"
install -d -m 0755 "$PREFIX"
cp -a "$SRC/package.json" "$SRC/package-lock.json" "$SRC/tsconfig.json" "$SRC/tsconfig.build.json" "$SRC/src" "$SRC/systemd" "$SRC/scripts" "$PREFIX/"
rm -rf "$PREFIX/apps" && cp -a "$SRC/apps" "$PREFIX/apps"
(cd "$PREFIX" && npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev)

echo "== state in $STATE"
install -d -m 0750 -o hearth -g hearth "$STATE" "$STATE/data" "$STATE/apps"
# The example apps are installed once; after that the apps folder belongs to the hub.
for app in "$PREFIX"/apps/*/; do
  id=$(basename "$app")
  [ -e "$STATE/apps/$id" ] || cp -a "$app" "$STATE/apps/$id"
done
chown -R hearth:hearth "$STATE"

echo "== service"
install -m 0644 "$PREFIX/systemd/hearth.service" "$UNIT"
systemctl daemon-reload
systemctl enable hearth.service >/dev/null
systemctl restart hearth.service

for _ in $(seq 1 30); do
  [ -s "$STATE/data/owner-token" ] && break
  sleep 1
done
echo
echo "hearth is running on port 8720."
echo "Owner token: sudo cat $STATE/data/owner-token"
echo "Try: curl -H \"Authorization: Bearer \$(sudo cat $STATE/data/owner-token)\" http://localhost:8720/api/manager/i18n/state"
