/**
 * Where `hearth login` points the browser: the hub as another device on the LAN reaches it. A
 * hub listening on every address (0.0.0.0, the default) or on loopback is named by this
 * machine's first LAN IPv4 address (a phone cannot open 127.0.0.1), else by the host it listens
 * on; `--url` names it outright.
 */
import { resolve } from 'node:path';
import { firstLanIPv4 } from './core/lan-address.js';

const WILDCARD = new Set(['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost']);

/**
 * The base of the link, e.g. `http://192.168.1.20:8720`.
 *
 * @example linkBase({ host: '0.0.0.0', port: 8720 }, undefined) // 'http://192.168.1.20:8720'
 */
export function linkBase(hub: { host: string; port: number }, url: string | undefined): string {
  if (url) return url.replace(/\/+$/, '');
  const host = WILDCARD.has(hub.host) ? (firstLanIPv4() ?? 'localhost') : hub.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${hub.port}`;
}

const LOCAL = new Set([...WILDCARD]);

/** A word for a shell: as it is when it is plain, else in single quotes. */
const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * The command that signs a browser in to this hub, as the person who started it would type it:
 * `sudo hearth login` under the installed service (its wrapper carries the service's settings),
 * `npx hearth login` in a checkout (where `hearth` is no command), else `hearth login` or the
 * CLI by its path; with the flags that differ from what that command would assume (the port, a
 * host that is not this machine's, a data dir other than ./data).
 *
 * @example loginCommand({ host: '0.0.0.0', dataDir: '/home/me/hearth/data' }, 8720, { cwd: '/home/me/hearth', inCheckout: true }) // 'npx hearth login'
 */
export function loginCommand(
  hub: { host: string; dataDir: string },
  port: number,
  how: { cwd: string; inCheckout: boolean; underService?: boolean; cli?: string },
): string {
  if (how.underService) return 'sudo hearth login';
  const flags: string[] = [];
  if (port !== 8720) flags.push('--port', String(port));
  if (!LOCAL.has(hub.host)) flags.push('--host', hub.host);
  if (hub.dataDir !== resolve(how.cwd, 'data')) flags.push('--data-dir', hub.dataDir);
  const command = how.inCheckout ? 'npx hearth' : how.cli ? `node ${how.cli}` : 'hearth';
  return [command, 'login', ...flags].map((w, i) => (i < 2 ? w : shellWord(w))).join(' ');
}
