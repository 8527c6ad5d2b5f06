/**
 * mDNS-SD: asks the LAN for each watched service (`_<name>._<protocol>.local`) and hears every
 * answer and announcement, each instance a result (address, port, host, TXT with lowercase keys).
 * multicast-dns (a small, widely used library) speaks the protocol; it is loaded on first use.
 */
import type { RemoteInfo } from 'node:dgram';
import type { MdnsStrategy } from '../../apps/manifest/drivers.js';
import { type Listener, type Report, serviceOf } from './discovery.js';

type Mdns = import('multicast-dns').MulticastDNS;
type Answer = { name: string; type: string; data: unknown };

function txtOf(data: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of Array.isArray(data) ? data : [data]) {
    const text = Buffer.isBuffer(entry) ? entry.toString('utf8') : String(entry ?? '');
    const eq = text.indexOf('=');
    if (eq > 0) out[text.slice(0, eq).toLowerCase()] = text.slice(eq + 1);
  }
  return out;
}

export class MdnsListener implements Listener<'mdns-sd'> {
  private mdns: Promise<Mdns> | null = null;
  private closed: Mdns | null = null;
  private services = new Set<string>();
  private stopped = false;

  constructor(
    private readonly report: Report,
    private readonly warn: (err: unknown) => void,
  ) {}

  async look(strategies: readonly MdnsStrategy[]): Promise<void> {
    if (this.stopped) return;
    this.services = new Set(strategies.map(serviceOf));
    this.mdns ??= this.open();
    const mdns = await this.mdns;
    mdns.query({ questions: [...this.services].map((name) => ({ name, type: 'PTR' as const })) });
  }

  private async open(): Promise<Mdns> {
    const { default: multicastDns } = await import('multicast-dns');
    const mdns = multicastDns();
    if (this.stopped) mdns.destroy();
    mdns.on('response', (packet: { answers: Answer[]; additionals?: Answer[] }, from: RemoteInfo) => this.heard(packet, from));
    mdns.on('error', (err: Error) => this.warn(err));
    this.closed = mdns;
    return mdns;
  }

  /** An answer or announcement: every instance it names of a watched service, as a result. */
  private heard(packet: { answers: Answer[]; additionals?: Answer[] }, from: RemoteInfo): void {
    const records = [...(packet.answers ?? []), ...(packet.additionals ?? [])];
    for (const ptr of records.filter((r) => r.type === 'PTR')) {
      const service = ptr.name.toLowerCase();
      if (!this.services.has(service)) continue;
      const fullname = String(ptr.data);
      const srv = records.find((r) => r.type === 'SRV' && r.name.toLowerCase() === fullname.toLowerCase())?.data as
        | { port?: number; target?: string }
        | undefined;
      if (!srv?.port) continue;
      const host = srv.target ?? '';
      const a = records.find((r) => r.type === 'A' && r.name.toLowerCase() === host.toLowerCase());
      const txt = txtOf(records.find((r) => r.type === 'TXT' && r.name.toLowerCase() === fullname.toLowerCase())?.data);
      const suffix = `.${service}`;
      this.report(
        {
          type: 'mdns-sd',
          lastSeen: new Date().toISOString(),
          address: typeof a?.data === 'string' ? a.data : from.address,
          port: srv.port,
          name: fullname.toLowerCase().endsWith(suffix) ? fullname.slice(0, -suffix.length) : fullname,
          fullname,
          host,
          txt,
        },
        service,
      );
    }
  }

  stop(): void {
    this.stopped = true;
    this.closed?.destroy();
    this.closed = null;
  }
}
