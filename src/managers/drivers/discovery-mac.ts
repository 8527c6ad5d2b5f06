/**
 * MAC addresses: the kernel's neighbour table (`/proc/net/arp`) maps the addresses of the LAN's
 * devices to their MAC addresses, whose first three bytes name the manufacturer. A device the hub
 * has never exchanged a packet with is not in it, so each look first sends one empty datagram to
 * the discard port (9) of every address of the hub's own IPv4 networks (at most 1,024 per
 * network): the kernel asks the LAN who has each address (ARP), and the answers fill the table,
 * which is read a few seconds later. Each complete entry is a result whose id is its MAC address.
 */
import { createSocket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import type { MacStrategy } from '../../apps/manifest/drivers.js';
import type { Listener, Report } from './discovery.js';

const NEIGHBOURS = '/proc/net/arp';
/** How long the kernel gets to hear the ARP answers before the table is read. */
const SETTLE_MS = 3_000;
const MAX_SWEEP = 1_024;
/** ATF_COM: the entry is complete (its MAC address is known). */
const COMPLETE = 0x2;

/** The complete entries of the neighbour table: IPv4 address and MAC address (lowercase). */
export function parseNeighbours(text: string): Array<{ address: string; mac: string }> {
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length >= 4 && (Number.parseInt(f[2] ?? '0', 16) & COMPLETE) !== 0 && /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i.test(f[3] ?? ''))
    .map((f) => ({ address: f[0]!, mac: f[3]!.toLowerCase() }))
    .filter((n) => n.mac !== '00:00:00:00:00:00');
}

/** Every host address of the hub's own IPv4 networks (small ones only), but its own. */
function sweepTargets(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family !== 'IPv4' || a.internal) continue;
      const prefix = Number(a.cidr?.split('/')[1] ?? 32);
      const size = 2 ** (32 - prefix);
      if (prefix < 22 || size < 4) continue;
      const own = a.address.split('.').reduce((n, part) => n * 256 + Number(part), 0) >>> 0;
      const network = (own & (0xffffffff << (32 - prefix))) >>> 0;
      for (let host = 1; host < size - 1 && out.length < MAX_SWEEP * 4; host++) {
        const n = network + host;
        if (n === own) continue;
        out.push([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'));
      }
    }
  }
  return out;
}

export class MacListener implements Listener<'mac'> {
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly report: Report,
    private readonly warn: (err: unknown) => void,
  ) {}

  async look(_strategies: readonly MacStrategy[]): Promise<void> {
    if (this.stopped) return;
    await this.read(); // what the table holds already, at once
    this.sweep();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.read(), SETTLE_MS);
    this.timer.unref();
  }

  private async read(): Promise<void> {
    if (this.stopped) return;
    const text = await readFile(NEIGHBOURS, 'utf8').catch((err: unknown) => {
      this.warn(err);
      return '';
    });
    const at = new Date().toISOString();
    for (const n of parseNeighbours(text)) this.report({ type: 'mac', lastSeen: at, address: n.address, mac: n.mac }, n.mac);
  }

  private sweep(): void {
    const targets = sweepTargets();
    if (targets.length === 0) return;
    const socket = createSocket('udp4');
    socket.on('error', () => undefined); // an unreachable host is the usual answer
    let left = targets.length;
    const done = (): void => {
      if (--left === 0) socket.close();
    };
    for (const address of targets) socket.send(Buffer.alloc(0), 9, address, done);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
