/**
 * Where `hearth login` points the browser: the hub as another device on the LAN reaches it. A
 * hub listening on every address (0.0.0.0, the default) or on loopback is named by this
 * machine's first LAN IPv4 address (a phone cannot open 127.0.0.1), else by the host it listens
 * on; `--url` names it outright.
 */
import { networkInterfaces } from 'node:os';

const WILDCARD = new Set(['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost']);

/** The first non-internal IPv4 address of this machine, or null. */
function lanAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return null;
}

/**
 * The base of the link, e.g. `http://192.168.1.20:8720`.
 *
 * @example linkBase({ host: '0.0.0.0', port: 8720 }, undefined) // 'http://192.168.1.20:8720'
 */
export function linkBase(hub: { host: string; port: number }, url: string | undefined): string {
  if (url) return url.replace(/\/+$/, '');
  const host = WILDCARD.has(hub.host) ? (lanAddress() ?? 'localhost') : hub.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${hub.port}`;
}
