#!/usr/bin/env bash
# Removes hearth from a device: the service, the code, the hearth command and the Node.js build
# install.sh may have added. The state (/var/lib/hearth: data, tokens, apps, their userdata and
# backups) and the hearth user stay, so installing again brings the home back as it was.
#
#   sudo ./uninstall.sh            keeps /var/lib/hearth
#   sudo ./uninstall.sh --purge    also deletes /var/lib/hearth, /etc/default/hearth and the user
set -euo pipefail

purge=no
case "${1:-}" in
  '') ;;
  --purge) purge=yes ;;
  *) echo "usage: $0 [--purge]" >&2; exit 2 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "run as root: sudo $0 $*" >&2; exit 1; }

if systemctl list-unit-files hearth.service >/dev/null 2>&1; then
  systemctl disable --now hearth.service >/dev/null 2>&1 || true
fi
rm -f /etc/systemd/system/hearth.service
systemctl daemon-reload || true
rm -rf /opt/hearth /opt/hearth-releases /opt/hearth.before-releases /usr/local/bin/hearth
# The Node.js build install.sh unpacked (only where the distribution had none).
if [ -d /opt/hearth-node ]; then
  for tool in node npm npx; do
    if [ "$(readlink "/usr/local/bin/$tool" 2>/dev/null)" = "/opt/hearth-node/bin/$tool" ]; then rm -f "/usr/local/bin/$tool"; fi
  done
  rm -rf /opt/hearth-node
fi

if [ "$purge" = yes ]; then
  rm -rf /var/lib/hearth /etc/default/hearth
  if id hearth >/dev/null 2>&1; then userdel hearth; fi
  echo "hearth is removed, with its state."
else
  echo "hearth is removed; its state stays in /var/lib/hearth (sudo $0 --purge deletes it)."
fi
