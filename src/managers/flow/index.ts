/**
 * Flows: the home's automations (service.ts), the cards apps bring (cards.ts, from the apps'
 * manifests), the engine that runs them (engine.ts, calling the apps' processes) and the SDK
 * calls of the apps' cards (sdk.ts, served on the runtime's router while it runs); app.*
 * events say when an app's cards change.
 */
import type { CardKind } from '../../apps/manifest/flow-cards.js';
import { HearthError, invalid } from '../../core/errors.js';
import type { Manager } from '../../core/managers.js';
import { implement, type Operation } from '../../core/operation.js';
import { clockFor } from '../../core/system-zone.js';
import type { TokenInfo } from '../../core/tokens.js';
import type { Capability } from '../../home/capability.js';
import { notify as notifyTimeline } from '../apps/notify.js';
import type { AppsPort } from '../apps/port.js';
import { appEventOf, type ManagerEvent } from '../bus.js';
import type { ManagerContext } from '../context.js';
import type { DevicesService } from '../devices/service.js';
import type { FlowTokens } from '../flowtoken/registry.js';
import type { LogicService } from '../logic/service.js';
import { checkCardRights, forCaller } from './card-rights.js';
import { CardRegistry } from './cards.js';
import { flowContract } from './contract.js';
import { deviceCards, triggerIds } from './device-cards.js';
import { deviceSide } from './devices-side.js';
import { FlowEngine, type Tokens } from './engine.js';
import { RunLog } from './run-log.js';
import { serveFlows } from './sdk.js';
import { FlowsService, refsOf } from './service.js';
import { systemCards } from './system-cards.js';
import { TimeTriggers } from './time-triggers.js';
import type { CardView } from './views.js';

/** What the hub's own cards need of the other managers. */
export interface HubSide {
  readonly logic: LogicService;
  readonly say: (text: string) => Promise<void>;
  readonly location: () => { latitude: number; longitude: number } | null;
}

const KIND_OF_PATH: Record<string, CardKind> = { flowcardtrigger: 'trigger', flowcardcondition: 'condition', flowcardaction: 'action' };
const notHere = (): never => {
  throw new HearthError(
    'not_implemented',
    'advanced flows are not part of hearth: build the flow as a standard flow (a trigger, conditions, then and else actions)',
  );
};

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
    hub: HubSide,
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
    const notify = (text: string) => notifyTimeline(ctx.bus, { uri: 'homey:manager:flow', id: 'flow' }, text);
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
    this.cards.setSystem(
      systemCards({
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
    );
    if (devices) {
      const side = deviceSide(devices, this.causes);
      this.cards.setDevices({ ids: side.ids, cards: (id) => deviceCards(id, side) });
      tokens.setDevices(side);
    }
    this.time = new TimeTriggers({ clock, now: Date.now, location: hub.location, fire: (id, state) => void this.fireSystem(id, state, null) });
    this.operations = implement(flowContract.operations, {
      getState: () => {
        const flows = Object.values(service.list());
        return {
          flows: flows.length,
          enabled: flows.filter((f) => f.enabled).length,
          broken: flows.filter((f) => f.broken).length,
          folders: Object.keys(service.folderList()).length,
        };
      },
      getFlows: () => service.list(),
      getFlow: ({ params }) => service.get(params.id),
      createFlow: ({ body }, ctx) => {
        this.mayRun(ctx.token, body);
        return service.create(body);
      },
      updateFlow: ({ params, body }, ctx) => {
        // The cards it is given; and all of them when it is turned on (it will run them).
        const before = service.record(params.id);
        this.mayRun(ctx.token, body.enabled === true && !before.enabled ? { ...before, ...body } : body);
        return service.update(params.id, body);
      },
      deleteFlow: async ({ params }) => {
        await service.remove(params.id);
        this.runs.forget(params.id);
        engine.forget(params.id);
      },
      triggerFlow: async ({ params }) => {
        const flow = service.record(params.id);
        const view = service.view(flow);
        if (view.broken) throw new HearthError('conflict', `flow '${flow.name}' is broken: ${view.brokenReason}`);
        if (!view.triggerable) throw new HearthError('conflict', `flow '${flow.name}' cannot be started by hand: its trigger brings tokens its cards use`);
        return engine.run(flow, {}, {}, null);
      },
      testFlow: ({ body }, ctx) => {
        this.mayRun(ctx.token, body.flow);
        return engine.run(service.unsaved(body.flow), body.tokens, {}, null, false);
      },
      getFlowLog: ({ params }) => {
        service.record(params.id);
        return this.runs.of(params.id);
      },
      getFlowFolders: () => service.folderList(),
      getFlowFolder: ({ params }) => service.folder(params.id),
      createFlowFolder: ({ body }) => service.createFolder(body),
      updateFlowFolder: ({ params, body }) => service.updateFolder(params.id, body),
      deleteFlowFolder: async ({ params }) => {
        await service.removeFolder(params.id);
      },
      getFlowCardTriggers: (_input, ctx) => this.viewsFor(ctx.token, 'trigger'),
      getFlowCardTrigger: ({ params }, ctx) => forCaller(ctx.token, this.cards.view(this.cards.byPath('trigger', params.uri, params.id))),
      getFlowCardConditions: (_input, ctx) => this.viewsFor(ctx.token, 'condition'),
      getFlowCardCondition: ({ params }, ctx) => forCaller(ctx.token, this.cards.view(this.cards.byPath('condition', params.uri, params.id))),
      runFlowCardCondition: async ({ params, body }, ctx) => {
        const card = this.cards.byPath('condition', params.uri, params.id);
        this.mayRun(ctx.token, { conditions: [{ id: card.id, args: {} }] });
        return (await this.runCard('condition', card.id, body)) === true;
      },
      getFlowCardActions: (_input, ctx) => this.viewsFor(ctx.token, 'action'),
      getFlowCardAction: ({ params }, ctx) => forCaller(ctx.token, this.cards.view(this.cards.byPath('action', params.uri, params.id))),
      runFlowCardAction: async ({ params, body }, ctx) => {
        const card = this.cards.byPath('action', params.uri, params.id);
        this.mayRun(ctx.token, { actions: [{ id: card.id, args: {} }] });
        const answer = await this.runCard('action', card.id, body);
        return typeof answer === 'object' && answer !== null && !Array.isArray(answer) ? (answer as Record<string, unknown>) : null;
      },
      getFlowCardAutocomplete: async ({ params, query }) => {
        const kind = KIND_OF_PATH[params.type]!;
        const card = this.cards.byPath(kind, params.uri, params.id);
        if (!card.args.some((a) => a.name === query.name && a.type === 'autocomplete'))
          throw invalid(`card '${card.title}' has no autocomplete argument '${query.name}'`);
        let args: Record<string, unknown> = {};
        if (query.args) {
          try {
            const parsed: unknown = JSON.parse(query.args);
            if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
          } catch {
            throw invalid('args must be the other arguments as a JSON object');
          }
        }
        if (card.system) return card.system.autocomplete?.(query.name, query.query) ?? [];
        const device = card.deviceArg ? ((args[card.deviceArg.name] as { id?: string } | undefined)?.id ?? null) : null;
        return apps.calls.flow(card.appId, 'flow.autocomplete', { kind, card: card.cardId, device, name: query.name, query: query.query, args }, 5_000);
      },
      getAdvancedFlows: notHere,
      getAdvancedFlow: notHere,
      createAdvancedFlow: notHere,
      updateAdvancedFlow: notHere,
      deleteAdvancedFlow: notHere,
      triggerAdvancedFlow: notHere,
    });
  }

  /** Every card of `kind` as `token` sees them (which it may run). */
  private viewsFor(token: TokenInfo | null, kind: CardKind): Record<string, CardView> {
    const views = this.cards.views(kind);
    for (const [id, v] of Object.entries(views)) views[id] = forCaller(token, v);
    return views;
  }

  /** Throws a 403 when `token` may not run one of the cards `flow` names (card-rights.ts); cards that do not exist are the service's to refuse. */
  private mayRun(token: TokenInfo | null, flow: Parameters<typeof refsOf>[0]): void {
    checkCardRights(
      token,
      refsOf(flow).flatMap(([kind, ref]) => {
        const card = this.cards.find(kind, ref.id);
        const named = this.cards.describe(kind, ref.id);
        return card ? [{ card, kind, name: named ? `'${named.ownerName}: ${named.title}'` : card.id }] : [];
      }),
    );
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

  /** Runs one card by hand (runFlowCardCondition/Action): its arguments checked, its tokens given. */
  private async runCard(
    kind: 'condition' | 'action',
    id: string,
    body: { args: Record<string, unknown>; tokens: Record<string, unknown>; state: Record<string, unknown> },
  ): Promise<unknown> {
    const tokens: Tokens = {};
    for (const [k, v] of Object.entries(body.tokens)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) tokens[k] = v as Tokens[string];
    try {
      return await this.engine.runCard(kind, { id, args: body.args }, tokens, body.state, `manual-${Date.now()}`);
    } catch (err) {
      if (err instanceof HearthError) throw err;
      throw invalid((err as Error).message);
    }
  }

  async start(): Promise<void> {
    this.service.start();
    this.time.start();
    // What each device's capabilities hold now: a value reported again after a restart is no change.
    for (const r of this.devices?.records() ?? []) {
      for (const cap of r.capabilities) {
        try {
          this.lastValues.set(`${r.id}\u0000${cap}`, this.devices?.getCapabilityValue(r.id, cap));
        } catch {
          // A capability without facts has no cards.
        }
      }
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
