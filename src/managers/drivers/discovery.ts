/**
 * Discovery for the apps' drivers: for every strategy of an app that runs and has the network
 * (the owner's grant, as for any network use) and that one of its drivers names, the hub looks
 * on the LAN at once and every minute, with the listener of the strategy's kind: mDNS-SD
 * (discovery-mdns.ts), SSDP (discovery-ssdp.ts) or MAC addresses (discovery-mac.ts). Each thing
 * found becomes a result; the strategy's conditions decide which count, its id template names
 * them (a MAC result's id is its MAC address), and each new or changed one goes to the app
 * (`discovery.result`). A listener is started when the first strategy of its kind needs it.
 */
import type { Logger } from 'pino';
import type { DiscoveryStrategy } from '../../apps/manifest/drivers.js';
import type { DiscoveryResult } from '../../apps/wire/device-calls.js';
import { MacListener } from './discovery-mac.js';
import { MdnsListener } from './discovery-mdns.js';
import { SsdpListener } from './discovery-ssdp.js';

const LOOK_EVERY_MS = 60_000;
/** Results kept per strategy at most: a LAN with more instances of one service is not a home. */
const MAX_RESULTS = 256;

/** A result before its strategy names it. */
export type Found = DiscoveryResult extends infer R ? (R extends DiscoveryResult ? Omit<R, 'id'> : never) : never;
export type Kind = DiscoveryStrategy['type'];
type Strategy<K extends Kind> = Extract<DiscoveryStrategy, { type: K }>;

/**
 * One kind's way of looking: asked to look for what the strategies want, it reports what it
 * finds, with what it is about (the mDNS service, the SSDP search target or notification type).
 */
export type Report = (found: Found, about: string) => void;
export interface Listener<K extends Kind> {
  look(strategies: ReadonlyArray<Strategy<K>>): Promise<void>;
  stop(): void;
}

export interface DiscoveryApps {
  /** The strategies of every app that runs with the network, that one of its drivers uses. */
  watched(): Array<{ appId: string; strategyId: string; strategy: DiscoveryStrategy }>;
  send(appId: string, strategyId: string, result: DiscoveryResult): Promise<unknown>;
}

/** A field of a result for a condition or an id template: `txt.<key>`, `headers.<name>`, or a top-level one. */
function fieldOf(r: Found, field: string): unknown {
  const lower = field.toLowerCase();
  if (r.type === 'mdns-sd' && lower.startsWith('txt.')) return r.txt[lower.slice(4)];
  if (r.type === 'ssdp' && lower.startsWith('headers.')) return r.headers[lower.slice(8)];
  return (r as Record<string, unknown>)[field];
}

/** `{{txt.id}}`, `{{headers.usn}}`, `{{name}}`...: a template's fields filled from the result. */
function fill(template: string, r: Found): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (_, field: string) => String(fieldOf(r, field) ?? ''));
}

/** Whether a result passes the strategy's conditions: every condition of one group holds. */
function accepted(s: DiscoveryStrategy, r: Found): boolean {
  if (s.type === 'mac' || !s.conditions || s.conditions.length === 0) return true;
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

function idOf(s: DiscoveryStrategy, r: Found): string {
  if (r.type === 'mac') return r.mac;
  const fallback = r.type === 'mdns-sd' ? r.fullname : (r.headers.usn ?? `${r.address}:${r.port ?? ''}`);
  return (s.type === 'mac' ? '' : fill(s.id ?? '', r)).slice(0, 256) || fallback.slice(0, 256);
}

export class Discovery {
  private mdns: MdnsListener | null = null;
  private ssdp: SsdpListener | null = null;
  private mac: MacListener | null = null;
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

  /** Looks again (an app started, stopped, got or lost the network; and every minute). */
  refresh(): void {
    if (this.stopped) return;
    const watched = this.apps.watched();
    if (watched.length === 0) return;
    this.timer ??= setInterval(() => this.refresh(), LOOK_EVERY_MS);
    this.timer.unref();
    const of = <K extends Kind>(kind: K): Array<Strategy<K>> => watched.map((w) => w.strategy).filter((s): s is Strategy<K> => s.type === kind);
    const report: Report = (found, about) => this.heard(found, about);
    const look = <K extends Kind>(kind: K, make: () => Listener<K>): void => {
      const strategies = of(kind);
      if (strategies.length === 0) return;
      make()
        .look(strategies)
        .catch((err: unknown) => this.log.warn({ err, kind }, 'discovery could not look on the LAN'));
    };
    const warn =
      (kind: Kind) =>
      (err: unknown): void =>
        this.log.warn({ err, kind }, 'discovery failed');
    look('mdns-sd', () => (this.mdns ??= new MdnsListener(report, warn('mdns-sd'))));
    look('ssdp', () => (this.ssdp ??= new SsdpListener(report, warn('ssdp'))));
    look('mac', () => (this.mac ??= new MacListener(report, warn('mac'))));
  }

  /** Something a listener found: a result for every watched strategy of its kind that accepts it. */
  private heard(found: Found, about: string): void {
    for (const w of this.apps.watched()) {
      if (w.strategy.type !== found.type || !wants(w.strategy, found, about) || !accepted(w.strategy, found)) continue;
      this.take(w.appId, w.strategyId, { ...found, id: idOf(w.strategy, found) } as DiscoveryResult);
    }
  }

  private take(appId: string, strategyId: string, result: DiscoveryResult): void {
    const key = `${appId}\0${strategyId}`;
    const mine = this.found.get(key) ?? new Map<string, DiscoveryResult>();
    this.found.set(key, mine);
    if (!mine.has(result.id) && mine.size >= MAX_RESULTS) return;
    mine.set(result.id, result);
    this.apps.send(appId, strategyId, result).catch((err: unknown) => this.log.debug({ err, app: appId }, 'an app did not take a discovery result'));
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    for (const l of [this.mdns, this.ssdp, this.mac]) l?.stop();
  }
}

/** Whether what was found is what this strategy looks for: its service, its search target, its manufacturers. */
function wants(s: DiscoveryStrategy, found: Found, about: string): boolean {
  if (s.type === 'mdns-sd' && found.type === 'mdns-sd') return about === serviceOf(s);
  if (s.type === 'ssdp' && found.type === 'ssdp') return s.ssdp.search === 'ssdp:all' || about === s.ssdp.search;
  if (s.type === 'mac' && found.type === 'mac')
    return s.mac.manufacturer.some((m) => found.mac.startsWith(m.map((b) => b.toString(16).padStart(2, '0')).join(':')));
  return false;
}

export const serviceOf = (s: Extract<DiscoveryStrategy, { type: 'mdns-sd' }>): string => `_${s['mdns-sd'].name}._${s['mdns-sd'].protocol}.local`.toLowerCase();
