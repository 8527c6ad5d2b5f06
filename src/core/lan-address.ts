/**
 * The address a device on the LAN reaches the hub at, as Homey's `homey.cloud.getLocalAddress()`
 * answers it (`192.168.1.5:80`): apps hand it to devices that call back. A hub bound to one
 * address is reached there; one bound to every address is reached at its first IPv4 address
 * that is not a loopback (a Pi has one: its Wi-Fi or Ethernet), or on the loopback when it has none.
 */
import { networkInterfaces } from 'node:os';

const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]']);

/** This machine's first IPv4 address that is not a loopback, or null (the sign-in link's host too). */
export function firstLanIPv4(interfaces = networkInterfaces()): string | null {
  for (const list of Object.values(interfaces)) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return null;
}

/** `host:port` of the hub listening on `host` (as configured) and `port` (as bound). */
export function lanAddress(host: string, port: number, interfaces = networkInterfaces()): string {
  const address = (WILDCARDS.has(host) ? firstLanIPv4(interfaces) : host) ?? '127.0.0.1';
  return address.includes(':') && !address.startsWith('[') ? `[${address}]:${port}` : `${address}:${port}`;
}
