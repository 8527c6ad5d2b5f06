/**
 * The address a device on the LAN reaches the hub at, as Homey's `homey.cloud.getLocalAddress()`
 * answers it (`192.168.1.5:80`): apps hand it to devices that call back. A hub bound to one
 * address is reached there; one bound to every address is reached at its first IPv4 address
 * that is not a loopback (a Pi has one: its Wi-Fi or Ethernet), or on the loopback when it has none.
 */
import { networkInterfaces } from 'node:os';

const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]']);

/** `host:port` of the hub listening on `host` (as configured) and `port` (as bound). */
export function lanAddress(host: string, port: number, interfaces = networkInterfaces()): string {
  let address = WILDCARDS.has(host) ? null : host;
  if (address === null) {
    for (const list of Object.values(interfaces)) {
      const v4 = list?.find((i) => i.family === 'IPv4' && !i.internal);
      if (v4) {
        address = v4.address;
        break;
      }
    }
  }
  address ??= '127.0.0.1';
  return address.includes(':') && !address.startsWith('[') ? `[${address}]:${port}` : `${address}:${port}`;
}
