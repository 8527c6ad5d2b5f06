/**
 * Pairing sessions, held in memory: each is one person (or script) adding a device with one
 * driver, with the driver's onPair running in its app for as long as the session lasts. A
 * session ends when deleted, when its app stops, or after IDLE_MS without a call.
 */
import { randomUUID } from 'node:crypto';
import type { PairDevice } from '../../apps/wire/device-calls.js';
import { PairDevice as PairDeviceSchema } from '../../apps/wire/device-calls.js';
import { diff } from '../../core/diff.js';
import { conflict, HearthError, notFound } from '../../core/errors.js';
import { describeIssues } from '../../core/zod-issues.js';
import type { HubBus } from '../bus.js';
import type { DevicesService } from '../devices/service.js';
import type { DeviceView } from '../devices/views.js';
import type { PairSessionView } from './contract.js';
import type { DriverCatalog } from './drivers.js';

const IDLE_MS = 10 * 60_000;
const MAX_SESSIONS = 10;
const MAX_TO_VIEW = 50;
/** How long a driver's onPair and a handler may take. */
const HANDLER_TIMEOUT_MS = 60_000;

interface Session {
  view: PairSessionView;
  appId: string;
  localDriverId: string;
  timer: NodeJS.Timeout;
  seq: number;
}

export class PairSessions {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly drivers: DriverCatalog,
    private readonly devices: DevicesService,
    private readonly bus: HubBus,
  ) {}

  get count(): number {
    return this.sessions.size;
  }

  private must(id: string): Session {
    const s = this.sessions.get(id);
    if (!s) throw notFound(`pairing session '${id}' does not exist (or it ended)`);
    this.touch(s);
    return s;
  }

  private touch(s: Session): void {
    clearTimeout(s.timer);
    s.timer = setTimeout(() => void this.end(s.view.id).catch(() => undefined), IDLE_MS);
    s.timer.unref();
  }

  /** The app whose driver the session pairs with. */
  appOf(id: string): string {
    return this.must(id).appId;
  }

  get(id: string): PairSessionView {
    return this.must(id).view;
  }

  async create(body: { type: 'pair' | 'repair'; driverId: string; deviceId?: string | undefined; zoneId?: string | undefined }): Promise<PairSessionView> {
    const driver = this.drivers.get(body.driverId);
    if (driver.view.unpairable) throw conflict(`devices cannot be added with ${driver.view.name}: ${driver.view.unpairable}`);
    if (body.type === 'repair') {
      const device = this.devices.record(body.deviceId ?? '');
      if (device.appId !== driver.appId || device.driverId !== driver.localId)
        throw new HearthError('invalid_parameter', `device '${device.name}' is not one of ${driver.view.name}'s`);
    }
    if (this.sessions.size >= MAX_SESSIONS) throw conflict(`${MAX_SESSIONS} pairing sessions are open already; end one first`);
    const views = body.type === 'repair' ? driver.view.repair : driver.view.pair;
    const view: PairSessionView = {
      id: randomUUID(),
      type: body.type,
      driverId: driver.view.id,
      deviceId: body.deviceId ?? null,
      zoneId: body.zoneId ?? null,
      view: views[0]?.id ?? null,
      toView: [],
      done: false,
      created: new Date().toISOString(),
    };
    const session: Session = { view, appId: driver.appId, localDriverId: driver.localId, timer: setTimeout(() => undefined, 0), seq: 0 };
    this.sessions.set(view.id, session);
    this.touch(session);
    try {
      await this.drivers.call(
        driver.appId,
        'pair.start',
        { session: view.id, driverId: driver.localId, type: body.type, ...(body.deviceId ? { deviceId: body.deviceId } : {}) },
        HANDLER_TIMEOUT_MS,
      );
    } catch (err) {
      clearTimeout(session.timer);
      this.sessions.delete(view.id);
      throw err;
    }
    this.bus.publish('drivers', 'pairsession.create', view);
    return view;
  }

  /**
   * An event from a pairing view to the driver, answered with what its handler answers. The
   * devices `list_devices` answers leave out those already paired (by their data), as Homey's
   * docs say: a person sees only what can still be added.
   */
  async emit(id: string, event: string, data: unknown) {
    const s = this.must(id);
    const answer = await this.drivers.call(s.appId, 'pair.emit', { session: id, event, data: data ?? null }, HANDLER_TIMEOUT_MS);
    if (event !== 'list_devices' || !Array.isArray(answer)) return answer;
    const paired = this.devices.pairedWith(s.appId, s.localDriverId);
    return answer.filter((d: unknown) => !paired((d as { data?: unknown } | null)?.data));
  }

  async addDevice(id: string, body: unknown): Promise<DeviceView> {
    const s = this.must(id);
    if (s.view.type !== 'pair') throw new HearthError('invalid_parameter', 'a repair session adds no device');
    const parsed = PairDeviceSchema.safeParse(body);
    if (!parsed.success) throw new HearthError('invalid_parameter', describeIssues(parsed.error, 'device'));
    return this.devices.create(s.appId, s.localDriverId, parsed.data as PairDevice, s.view.zoneId ?? undefined);
  }

  /** What the driver sends its views (the app's `pair.toView`). */
  toView(appId: string, id: string, message: { kind: PairSessionView['toView'][number]['kind']; event?: string | undefined; data: unknown }): null {
    const s = this.sessions.get(id);
    if (!s || s.appId !== appId) throw notFound(`pairing session '${id}' does not exist (or it ended)`);
    const before = s.view;
    const views = s.view.type === 'repair' ? this.drivers.get(s.view.driverId).view.repair : this.drivers.get(s.view.driverId).view.pair;
    const at = views.find((v) => v.id === s.view.view);
    let view = s.view.view;
    if (message.kind === 'showView') view = message.event ?? view;
    else if (message.kind === 'nextView') view = at?.next ?? views[views.indexOf(at!) + 1]?.id ?? view;
    else if (message.kind === 'prevView') view = at?.prev ?? views[views.indexOf(at!) - 1]?.id ?? view;
    const entry = { seq: ++s.seq, kind: message.kind, event: message.event ?? null, data: message.data ?? null };
    s.view = { ...s.view, view, done: s.view.done || message.kind === 'done', toView: [...s.view.toView, entry].slice(-MAX_TO_VIEW) };
    this.bus.publish('drivers', 'pairsession.update', s.view, diff(before, s.view));
    return null;
  }

  async end(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) throw notFound(`pairing session '${id}' does not exist (or it ended)`);
    clearTimeout(s.timer);
    this.sessions.delete(id);
    this.bus.publish('drivers', 'pairsession.delete', s.view);
    await this.drivers.call(s.appId, 'pair.end', { session: id }, HANDLER_TIMEOUT_MS).catch(() => undefined);
  }

  /** Ends the sessions of an app that stopped (its onPair is gone with it). */
  appStopped(appId: string): void {
    for (const s of [...this.sessions.values()]) {
      if (s.appId !== appId) continue;
      clearTimeout(s.timer);
      this.sessions.delete(s.view.id);
      this.bus.publish('drivers', 'pairsession.delete', s.view);
    }
  }

  stop(): void {
    for (const s of this.sessions.values()) clearTimeout(s.timer);
    this.sessions.clear();
  }
}
