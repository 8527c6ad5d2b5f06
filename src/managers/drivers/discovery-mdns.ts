/**
 * mDNS-SD discovery for the apps' drivers: for every mdns-sd strategy of an app that runs and
 * has the network (the owner's grant, as for any network use), the hub asks the LAN for the
 * service (`_<name>._<protocol>.local`) at once and every minute, listens to every answer and
 * announcement, turns each instance into a result (address, port, host, TXT), keeps those the
 * strategy's conditions accept under the id its template names, and hands each new or changed
 * one to the app (`discovery.result`). multicast-dns (a small, widely used library) speaks the
 * protocol; it is loaded when the first strategy needs it.
 */
import type { RemoteInfo } from 'node:dgram';
import type { Logger } from 'pino';
import type { MdnsStrategy } from '../../apps/manifest/drivers.js';
import type { DiscoveryResult } from '../../apps/wire/device-calls.js';

type Mdns = import('multicast-dns').MulticastDNS;
type Answer = { name: string; type: string; data: unknown };

const QUERY_EVERY_MS = 60_000;
/** Results kept per strategy at most: a LAN with more instances of one service is not a home. */
const MAX_RESULTS = 256;

export interface DiscoveryApps {
  /** The mdns-sd strategies of every app that runs with the network. */
  watched(): Array<{ appId: string; strategyId: string; strategy: MdnsStrategy }>;
  send(appId: string, strategyId: string, result: DiscoveryResult): Promise<unknown>;
}

const serviceOf = (s: MdnsStrategy): string => `_${s['mdns-sd'].name}._${s['mdns-sd'].protocol}.local`.toLowerCase();

function txtOf(data: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of Array.isArray(data) ? data : [data]) {
    const text = Buffer.isBuffer(entry) ? entry.toString('utf8') : String(entry ?? '');
    const eq = text.indexOf('=');
    if (eq > 0) out[text.slice(0, eq).toLowerCase()] = text.slice(eq + 1);
  }
  return out;
}

/** `{{txt.id}}`, `{{name}}`, `{{host}}`...: a template's fields filled from the result. */
function fill(template: string, r: Omit<DiscoveryResult, 'id'>): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g, (_, field: string) => String(fieldOf(r, field) ?? ''));
}

function fieldOf(r: Omit<DiscoveryResult, 'id'>, field: string): unknown {
  if (field.startsWith('txt.')) return r.txt[field.slice(4).toLowerCase()];
  return (r as Record<string, unknown>)[field];
}

/** Whether a result passes the strategy's conditions: every condition of one group holds. */
function accepted(s: MdnsStrategy, r: Omit<DiscoveryResult, 'id'>): boolean {
  if (!s.conditions || s.conditions.length === 0) return true;
  return s.conditions.some((group) =>
    group.every((c) => {
      const value = String(fieldOf(r, c.field) ?? '');
      if (c.match.type === 'string') return value.toLowerCase() === c.match.value.toLowerCase();
      try {
        return new RegExp(c.match.value, 'i').test(value);
      } catch {
        return false;
      }
    }),
  );
}

export class Discovery {
  private mdns: Mdns | null = null;
  private loading: Promise<Mdns> | null = null;
  private timer: NodeJS.Timeout | undefined;
  /** What each strategy found: `<appId>\0<strategyId>` -> result id -> result. */
  private readonly found = new Map<string, Map<string, DiscoveryResult>>();
  private stopped = false;

  constructor(
    private readonly apps: DiscoveryApps,
    private readonly log: Logger,
  ) {}

  /** What an app's strategies found so far. */
  results(appId: string): Record<string, DiscoveryResult[]> {
    const out: Record<string, DiscoveryResult[]> = {};
    for (const { appId: id, strategyId } of this.apps.watched()) {
      if (id === appId) out[strategyId] = [...(this.found.get(`${appId}\0${strategyId}`)?.values() ?? [])];
    }
    return out;
  }

  /** Looks again at which strategies to run (an app started, stopped, got or lost the network). */
  refresh(): void {
    if (this.stopped) return;
    const services = new Set(this.apps.watched().map((w) => serviceOf(w.strategy)));
    if (services.size === 0) return;
    this.loading ??= this.start();
    void this.loading.then((mdns) => this.query(mdns, services)).catch((err: unknown) => this.log.warn({ err }, 'mDNS discovery could not start'));
  }

  private async start(): Promise<Mdns> {
    const { default: multicastDns } = await import('multicast-dns');
    const mdns = multicastDns();
    mdns.on('response', (packet: { answers: Answer[]; additionals?: Answer[] }, from: RemoteInfo) => this.heard(packet, from));
    mdns.on('error', (err: Error) => this.log.warn({ err }, 'mDNS discovery failed'));
    this.mdns = mdns;
    this.timer = setInterval(() => this.refresh(), QUERY_EVERY_MS);
    this.timer.unref();
    return mdns;
  }

  private query(mdns: Mdns, services: Set<string>): void {
    mdns.query({ questions: [...services].map((name) => ({ name, type: 'PTR' as const })) });
  }

  /** An answer or announcement: every instance it names of a watched service, as a result. */
  private heard(packet: { answers: Answer[]; additionals?: Answer[] }, from: RemoteInfo): void {
    const records = [...(packet.answers ?? []), ...(packet.additionals ?? [])];
    const watched = this.apps.watched();
    for (const ptr of records.filter((r) => r.type === 'PTR')) {
      const service = ptr.name.toLowerCase();
      const interested = watched.filter((w) => serviceOf(w.strategy) === service);
      if (interested.length === 0) continue;
      const fullname = String(ptr.data);
      const srv = records.find((r) => r.type === 'SRV' && r.name.toLowerCase() === fullname.toLowerCase())?.data as
        | { port?: number; target?: string }
        | undefined;
      if (!srv?.port) continue;
      const host = srv.target ?? '';
      const a = records.find((r) => r.type === 'A' && r.name.toLowerCase() === host.toLowerCase());
      const txt = txtOf(records.find((r) => r.type === 'TXT' && r.name.toLowerCase() === fullname.toLowerCase())?.data);
      const suffix = `.${service}`;
      const base = {
        lastSeen: new Date().toISOString(),
        address: typeof a?.data === 'string' ? a.data : from.address,
        port: srv.port,
        name: fullname.toLowerCase().endsWith(suffix) ? fullname.slice(0, -suffix.length) : fullname,
        fullname,
        host,
        txt,
      };
      for (const w of interested) this.take(w.appId, w.strategyId, w.strategy, base);
    }
  }

  private take(appId: string, strategyId: string, strategy: MdnsStrategy, base: Omit<DiscoveryResult, 'id'>): void {
    if (!accepted(strategy, base)) return;
    const id = fill(strategy.id ?? '{{fullname}}', base).slice(0, 256) || base.fullname;
    const key = `${appId}\0${strategyId}`;
    const mine = this.found.get(key) ?? new Map<string, DiscoveryResult>();
    this.found.set(key, mine);
    if (!mine.has(id) && mine.size >= MAX_RESULTS) return;
    const result: DiscoveryResult = { id, ...base };
    mine.set(id, result);
    this.apps.send(appId, strategyId, result).catch((err: unknown) => this.log.debug({ err, app: appId }, 'an app did not take a discovery result'));
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.mdns?.destroy();
    this.mdns = null;
  }
}
