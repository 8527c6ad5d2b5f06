/**
 * SSDP: sends an M-SEARCH for each watched search target to the SSDP group (239.255.255.250:1900)
 * and hears the answers (unicast, to the searching socket) and the devices' own `ssdp:alive`
 * announcements (multicast, on port 1900, when that port can be shared). Each answer or
 * announcement is a result: the sender's address, the port of its LOCATION, and its headers with
 * lowercase names, as Homey gives them. Written on node:dgram: the protocol is a few lines of
 * HTTP-like text, and the SSDP libraries looked at either fetch every device's XML description
 * (traffic the hub does not need) or depend on packages with open advisories (docs/dependencies.md).
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import type { SsdpStrategy } from '../../apps/manifest/drivers.js';
import type { Listener, Report } from './discovery.js';

const GROUP = '239.255.255.250';
const PORT = 1900;
/** Seconds a device may wait before it answers (the spec's MX). */
const MX = 2;
const MAX_HEADERS = 40;

/** The headers of an SSDP message (lowercase names), or null if it is none. */
export function parseSsdp(text: string): { start: string; headers: Record<string, string> } | null {
  const lines = text.split(/\r?\n/);
  const start = lines[0]?.trim() ?? '';
  if (!/^(HTTP\/1\.[01] 200|NOTIFY \* HTTP\/1\.[01]|M-SEARCH \* HTTP\/1\.[01])/i.test(start)) return null;
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1, MAX_HEADERS + 1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { start, headers };
}

function portOf(location: string | undefined): number | null {
  if (!location) return null;
  try {
    const url = new URL(location);
    return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  } catch {
    return null;
  }
}

export class SsdpListener implements Listener<'ssdp'> {
  private search: Socket | null = null;
  private notify: Socket | null = null;
  private ready: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly report: Report,
    private readonly warn: (err: unknown) => void,
  ) {}

  async look(strategies: readonly SsdpStrategy[]): Promise<void> {
    if (this.stopped) return;
    this.ready ??= this.open();
    await this.ready;
    for (const target of new Set(strategies.map((s) => s.ssdp.search))) {
      const message = `M-SEARCH * HTTP/1.1\r\nHOST: ${GROUP}:${PORT}\r\nMAN: "ssdp:discover"\r\nMX: ${MX}\r\nST: ${target}\r\n\r\n`;
      this.search?.send(message, PORT, GROUP, (err) => err && this.warn(err));
    }
  }

  private async open(): Promise<void> {
    this.search = createSocket({ type: 'udp4' });
    this.search.on('message', (msg, from) => this.heard(msg, from));
    this.search.on('error', (err) => this.warn(err));
    await new Promise<void>((resolve) => this.search?.bind(0, resolve));
    // Announcements: shared with any other SSDP listener on this machine; without it, searching still works.
    const notify = createSocket({ type: 'udp4', reuseAddr: true });
    notify.on('message', (msg, from) => this.heard(msg, from));
    notify.on('error', (err) => {
      this.warn(err);
      notify.close();
      if (this.notify === notify) this.notify = null;
    });
    notify.bind(PORT, () => {
      try {
        notify.addMembership(GROUP);
        this.notify = notify;
      } catch (err) {
        this.warn(err);
        notify.close();
      }
    });
    if (this.stopped) this.stop();
  }

  private heard(msg: Buffer, from: RemoteInfo): void {
    if (msg.length > 8192) return;
    const parsed = parseSsdp(msg.toString('utf8'));
    if (!parsed || parsed.start.toUpperCase().startsWith('M-SEARCH')) return;
    const { headers } = parsed;
    if (headers.nts === 'ssdp:byebye') return;
    const about = headers.st ?? headers.nt;
    if (!about) return;
    this.report({ type: 'ssdp', lastSeen: new Date().toISOString(), address: from.address, port: portOf(headers.location), headers }, about);
  }

  stop(): void {
    this.stopped = true;
    this.search?.close();
    this.notify?.close();
    this.search = null;
    this.notify = null;
  }
}
