import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import { clockFor } from '../../core/system-zone.js';
import type { Capability } from '../../home/capability.js';
import type { AlarmsService } from '../alarms/service.js';
import type { AppsPort } from '../apps/port.js';
import { appEventOf, type ManagerEvent } from '../bus.js';
import type { ManagerContext } from '../context.js';
import type { DevicesService } from '../devices/service.js';
import type { EnergyService } from '../energy/service.js';
import type { FlowTokens } from '../flowtoken/registry.js';
import type { LogicService } from '../logic/service.js';
import type { MoodsService } from '../moods/service.js';
import type { Timeline } from '../notifications/service.js';
import type { PresenceService } from '../presence/service.js';
import { alarmCards } from './alarm-cards.js';
import { CardRegistry } from './cards.js';
import { flowContract } from './contract.js';
import { deviceCards, triggerIds } from './device-cards.js';
import { deviceSide } from './devices-side.js';
import { energyCards } from './energy-cards.js';
import { FlowEngine, type Tokens } from './engine.js';
import { moodCards } from './mood-cards.js';
import { flowOperations } from './operations.js';
import { presenceCards, presenceTriggers } from './presence-cards.js';
import { RunLog } from './run-log.js';
import { serveFlows } from './sdk.js';
import { FlowsService } from './service.js';
import { systemCards } from './system-cards.js';
import { TimeTriggers } from './time-triggers.js';

/** What the hub's own cards need of the other managers. */
export interface HubSide {
  readonly logic: LogicService;
  readonly say: (text: string) => Promise<void>;
  readonly location: () => { latitude: number; longitude: number } | null;
  readonly presence: PresenceService;
  readonly moods: MoodsService;
  readonly alarms: AlarmsService;
  readonly energy: EnergyService;
}

export class FlowManager implements Manager {
  readonly name = flowContract.name;
  readonly contract = flowContract;
  readonly operations: readonly Operation[];
  readonly service: FlowsService;
  readonly cards: CardRegistry;
  readonly engine: FlowEngine;
  private readonly runs = new RunLog();
  private off: Array<() => void> = [];
  /** While a flow sets a device's capability, the run that set it (devices-side.ts). */
  private readonly causes = new Map<string, string>();
  /** While a flow sets a logic variable, the run that set it (system-cards.ts). */
  private readonly variableCauses = new Map<string, string>();
  /** The last value each device capability had, so its triggers fire on a change only. */
  private readonly lastValues = new Map<string, unknown>();
  /** The app versions the cards were read for, to read them again after an upgrade. */
  private readonly versions = new Map<string, string>();

  private readonly time: TimeTriggers;

  constructor(
    private readonly ctx: ManagerContext,
    private readonly tokens: FlowTokens,
    private readonly hub: HubSide,
    timeline: Timeline,
    private readonly devices: DevicesService | null,
    private readonly apps: AppsPort<'calls' | 'has' | 'get' | 'supervisor' | 'list' | 'manifest' | 'locale'>,
  ) {
    this.cards = new CardRegistry({
      appIds: () => Object.keys(apps.list()),
      manifest: (id) => apps.manifest(id),
      appName: (id) => (apps.has(id) ? apps.get(id).name : id),
      language: () => apps.locale().language,
    });
    const service = (this.service = new FlowsService(ctx.store, ctx.bus, this.cards, tokens, {
      hasDevice: (id) => devices?.has(id) ?? false,
      hasApp: (id) => apps.has(id),
      cardsChanged: (cards) => {
        for (const c of cards) if (apps.has(c.appId)) apps.supervisor(c.appId).notify({ name: 'flow.update', kind: c.kind, card: c.cardId });
      },
    }));
    const notify = (text: string) => timeline.notify({ uri: 'homey:manager:flow', id: 'flow', name: 'Flows' }, text);
    this.engine = new FlowEngine({
      cards: this.cards,
      tokens,
      runs: this.runs,
      bus: ctx.bus,
      log: ctx.log,
      call: (appId, method, args, timeoutMs) => apps.calls.flow(appId, method, args, timeoutMs),
      notify,
      broken: (f) => service.brokenReason(f),
    });
    const engine = this.engine;
    const clock = clockFor(ctx.config.zone);
    this.cards.setSystem([
      ...systemCards({
        logic: hub.logic,
        say: hub.say,
        notify,
        flows: () => service.records(),
        variableCauses: this.variableCauses,
        startFlow: (id, cause) => this.fireSystem('homey:manager:flow:programmatic_trigger', { flow: id }, cause),
        location: hub.location,
        clock,
        now: Date.now,
      }),
      ...presenceCards({ people: hub.presence.people, presence: hub.presence }),
      ...moodCards(hub.moods, (runId) => this.runs.actorOf(runId)),
      ...alarmCards(hub.alarms),
      ...energyCards(),
    ]);
    if (devices) {
      const side = deviceSide(devices, this.causes, (runId) => this.runs.actorOf(runId));
      this.cards.setDevices({ ids: side.ids, cards: (id) => deviceCards(id, side) });
      tokens.setDevices(side);
    }
    this.time = new TimeTriggers({ clock, now: Date.now, location: hub.location, fire: (id, state) => void this.fireSystem(id, state, null) });
    this.operations = flowOperations({
      service,
      cards: this.cards,
      engine,
      runs: this.runs,
      call: (appId, method, args, timeoutMs) => apps.calls.flow(appId, method, args, timeoutMs),
    });
  }

  /** Fires one of the hub's own triggers; resolves once the flows on it are started. */
  async fireSystem(cardId: string, state: Record<string, unknown>, cause: string | null, tokens: Tokens = {}): Promise<void> {
    const flows = this.service.onTrigger(cardId);
    if (flows.length === 0) return;
    const card = this.cards.find('trigger', cardId);
    if (card) await this.engine.fire(card, flows, null, tokens, state, cause);
  }

  /** A logic variable's value changed: "a variable changed" fires, the new value as its token. */
  private variableChanged(e: ManagerEvent<'logic'>): void {
    if (e.event !== 'variable.update') return;
    const [variable, change] = e.args;
    if (!change.changedKeys.includes('value')) return;
    void this.fireSystem('homey:manager:logic:variable_changed', { variable: variable.id }, this.variableCauses.get(variable.id) ?? null, {
      value: String(variable.value),
    });
  }

  /** A device's capability changed: its card for that change fires, with the value as its token. */
  private capabilityChanged(deviceId: string, capabilityId: string, value: unknown): void {
    const key = `${deviceId}\u0000${capabilityId}`;
    const before = this.lastValues.get(key);
    this.lastValues.set(key, value);
    if (before === value || !this.devices?.has(deviceId)) return;
    let facts: Capability;
    try {
      facts = this.devices.facts(this.devices.record(deviceId), capabilityId);
    } catch {
      return;
    }
    const ids = triggerIds(capabilityId, facts);
    const cardId = facts.type === 'boolean' ? (value === true ? ids.true : value === false ? ids.false : undefined) : ids.changed;
    if (!cardId) return;
    const token = typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string' ? value : null;
    // The run of a device card that set it (a flow switching a lamp) is its cause.
    void this.fireSystem(`homey:device:${deviceId}:${cardId}`, {}, this.causes.get(key) ?? null, facts.type === 'boolean' ? {} : { [capabilityId]: token });
  }

  async start(): Promise<void> {
    this.service.start();
    this.time.start();
    // What each device's capabilities hold now: a value reported again after a restart is no
    // change. Read as stored (a capability without facts has no cards: capabilityChanged asks).
    for (const r of this.devices?.records() ?? []) {
      const values = this.devices?.values.of(r.id);
      for (const cap of r.capabilities) this.lastValues.set(`${r.id}\u0000${cap}`, values?.[cap]?.value ?? null);
    }
    this.off.push(
      ...serveFlows(this.apps.router, {
        cards: this.cards,
        flows: this.service,
        engine: this.engine,
        tokens: this.tokens,
        deviceApp: (id) => (this.devices?.has(id) ? this.devices.record(id).appId : null),
      }),
      this.ctx.bus.on('i18n', () => this.cards.forget()),
      this.ctx.bus.on('logic', (e) => this.variableChanged(e)),
      this.hub.alarms.onRing((alarm) => {
        for (const card of ['alarm_goes_off', 'alarm_goes_off_specific'])
          void this.fireSystem(`homey:manager:alarms:${card}`, { alarm: alarm.id }, null, { name: alarm.name });
      }),
      this.hub.energy.onPower((before, now) => void this.fireSystem('homey:manager:energy:power_above', { before, now }, null, { power: now })),
      this.hub.energy.onToday(
        (before, now) => void this.fireSystem('homey:manager:energy:daily_above', { before, now }, null, { kwh: now }),
        () => this.service.onTrigger('homey:manager:energy:daily_above').length > 0,
      ),
      this.hub.presence.onChange((change) => {
        for (const f of presenceTriggers(change, this.hub.presence.people.list()))
          void this.fireSystem(`homey:manager:presence:${f.cardId}`, f.state, change.cause, f.tokens);
      }),
      this.ctx.bus.on('devices', (e) => {
        if (e.event === 'capability.update') {
          const { deviceId, capabilityId, value } = e.args[0];
          this.capabilityChanged(deviceId, capabilityId, value);
        } else this.cards.forgetDevice(e.args[0].id);
      }),
      this.ctx.bus.on('apps', (e) => {
        const app = appEventOf(e);
        if (!app) return;
        if (app.deleted) {
          this.versions.delete(app.id);
          this.tokens.removeApp(app.id);
          this.cards.forget();
          return;
        }
        // An app's cards change only with its manifest: when it is installed or its version changes.
        const version = app.view.version ?? '';
        if (this.versions.get(app.id) === version) return;
        this.versions.set(app.id, version);
        this.cards.forget();
      }),
    );
  }

  async stop(): Promise<void> {
    for (const f of this.off) f();
    this.off = [];
    this.time.stop();
    this.engine.stop();
  }
}
