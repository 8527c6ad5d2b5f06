/**
 * `this.homey.flow`: the app's flow cards and tokens. The hub's flow engine runs the flows; the
 * app's cards hold the listeners it calls (a trigger's filter, a condition, an action, an
 * argument's autocomplete), and `trigger()` tells the hub a trigger fired. A device argument
 * reaches a listener as the app's Device instance, as on Homey.
 *
 * While a listener runs, the run it belongs to is remembered (AsyncLocalStorage): a trigger the
 * listener fires carries it, so the hub can bound a flow that triggers itself through the app.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AppCallHandlers } from '../../apps/wire/protocol.js' with { 'resolution-mode': 'import' };
import type { HomeyContext } from '../context.cjs';
import type { Device } from '../device.cjs';
import { HomeyError } from '../errors.cjs';
import { Manager, SimpleClass } from '../simple-class.cjs';

type Kind = 'trigger' | 'condition' | 'action';
type Listener = (args: any, state: any) => unknown;
type Autocomplete = (query: string, args: any) => unknown;
const LIST: Record<Kind, string> = { trigger: 'triggers', condition: 'conditions', action: 'actions' };
const TOKEN_TYPES = ['string', 'number', 'boolean', 'image'];

/** The run of a flow whose listener is running now (the hub's id for it). */
const currentRun = new AsyncLocalStorage<string>();

/** How the flow manager finds the app's devices: the drivers manager, when the app has drivers. */
export interface DeviceLookup {
  byId(id: string): Device;
  idOf(device: unknown): string;
}

export class FlowArgument extends SimpleClass {
  constructor(
    private readonly card: FlowCard,
    readonly name: string,
  ) {
    super();
  }

  registerAutocompleteListener(listener: Autocomplete): FlowArgument {
    this.card.registerArgumentAutocompleteListener(this.name, listener);
    return this;
  }
}

type Args = Record<string, unknown>;

/**
 * The lists of flows' arguments the hub sent with a trigger (flow.filter), by card and list id,
 * and per card and device the list the hub asked about last. A trigger of a card whose list is
 * known here carries the run listener's answer for it (the hub then asks nothing, unless its
 * flows changed since); the hub sends a list again when the app says it does not have it. At most
 * FILTER_LISTS_KEPT (the wire's: 64) of each, the oldest going first.
 */
class FilterLists {
  private readonly byId = new Map<string, readonly Args[]>();
  private readonly latest = new Map<string, { list: string; args: readonly Args[] }>();

  /** The list `list` of `card`, as sent with `args` now or before; undefined when not kept. */
  take(card: string, device: string | null, list: string, args: readonly Args[] | undefined): readonly Args[] | undefined {
    const key = `${card}\n${list}`;
    const known = args ?? this.byId.get(key);
    if (!known) return undefined;
    keep(this.byId, key, known);
    keep(this.latest, scope(card, device), { list, args: known });
    return known;
  }

  /** The list the hub last asked about for `card` (and `device`), or undefined. */
  last(card: string, device: string | null): { list: string; args: readonly Args[] } | undefined {
    return this.latest.get(scope(card, device));
  }
}

/** A trigger card's scope: the card, and on a device card the device (a list is per device there). */
const scope = (card: string, device: string | null): string => `${card}\n${device ?? ''}`;

/** Sets `key` as the newest of `map`, dropping the oldest past 64. */
function keep<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > 64) map.delete(map.keys().next().value as string);
}

const internals = new WeakMap<
  FlowCard,
  { ctx: HomeyContext; devices: () => DeviceLookup; lists: FilterLists; run: Listener | null; complete: Map<string, Autocomplete> }
>();
const own = (card: FlowCard) => internals.get(card)!;

export class FlowCard extends SimpleClass {
  constructor(
    readonly id: string,
    readonly type: Kind,
    readonly manifest: any,
    ctx: HomeyContext,
    devices: () => DeviceLookup,
    lists: FilterLists,
  ) {
    super();
    internals.set(this, { ctx, devices, lists, run: null, complete: new Map() });
  }

  registerRunListener(listener: Listener): this {
    if (typeof listener !== 'function') throw new HomeyError('registerRunListener takes a function (args, state)', 'invalid_args');
    own(this).run = listener;
    return this;
  }

  registerArgumentAutocompleteListener(name: string, listener: Autocomplete): this {
    if (typeof listener !== 'function') throw new HomeyError('registerArgumentAutocompleteListener takes a name and a function (query, args)', 'invalid_args');
    const args: Array<{ name?: unknown; type?: unknown }> = Array.isArray(this.manifest?.args) ? this.manifest.args : [];
    if (!args.some((a) => a?.name === name && a?.type === 'autocomplete')) {
      throw new HomeyError(`flow ${this.type} card '${this.id}' has no autocomplete argument '${name}' in app.json`, 'not_found');
    }
    own(this).complete.set(name, listener);
    return this;
  }

  getArgument(name: string): FlowArgument {
    return new FlowArgument(this, name);
  }

  /** The arguments of every flow that uses this card (for a device card, only those of `device`). */
  async getArgumentValues(device?: unknown): Promise<any[]> {
    const s = own(this);
    const deviceId = device === undefined ? null : s.devices().idOf(device);
    const list = (await s.ctx.transport.call('flow.argumentValues', { kind: this.type, card: this.id, device: deviceId })) as Record<string, unknown>[];
    return list.map((args) => withDevice(s.devices, args));
  }
}

/** A listener's answer that is a promise, or has a `then` as one (awaited as `await` would). */
function isThenable(v: unknown): v is PromiseLike<unknown> {
  return (typeof v === 'object' || typeof v === 'function') && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

/** Puts the Device instance where the hub sends a device argument's id. */
function withDevice(devices: () => DeviceLookup, args: Record<string, unknown>): Record<string, unknown> {
  const arg = args.device as { id?: unknown } | undefined;
  if (arg && typeof arg === 'object' && typeof arg.id === 'string') return { ...args, device: devices().byId(arg.id) };
  return args;
}

/**
 * Which of `args` go on for a trigger's `state`: their indexes, by the card's run listener (a card
 * without one lets every flow go on). Each flow's arguments are asked on their own: one that
 * throws says no for that flow only. A listener's promise is taken as it is (no async wrapper a
 * flow): a card with hundreds of flows makes one promise a flow, not three.
 */
async function going(card: FlowCard, args: readonly Args[], state: unknown): Promise<number[]> {
  const s = own(card);
  const listener = s.run;
  if (!listener) return args.map((_, i) => i);
  const refused = (err: unknown): false => {
    card.error(`the run listener of trigger '${card.id}' threw:`, err);
    return false;
  };
  const answers = await Promise.all(
    args.map((flowArgs) => {
      let said: unknown;
      try {
        said = listener.call(card, withDevice(s.devices, flowArgs), state);
      } catch (err) {
        return refused(err);
      }
      return isThenable(said) ? Promise.resolve(said).then((v) => v === true, refused) : said === true;
    }),
  );
  const go: number[] = [];
  answers.forEach((yes, i) => {
    if (yes) go.push(i);
  });
  return go;
}

/**
 * Tells the hub the trigger fired. When the hub sent this card's flows before, the run listener
 * answers for them here first and the answer goes with the trigger: the hub need not ask (two
 * messages between the processes fewer for every trigger). When its flows changed since, the hub
 * asks as for a first trigger, and the listener answers again, for the new list.
 */
const fired = async (card: FlowCard, device: string | null, tokens: unknown, state: unknown): Promise<void> => {
  if (tokens !== undefined && (typeof tokens !== 'object' || tokens === null || Array.isArray(tokens))) {
    throw new HomeyError(`trigger of '${card.id}' takes tokens as an object of the card's token names`, 'invalid_args');
  }
  const s = own(card);
  const cause = currentRun.getStore() ?? null;
  const given = (state ?? {}) as Record<string, unknown>;
  const known = s.lists.last(card.id, device);
  const filtered = known ? { list: known.list, go: await going(card, known.args, given) } : undefined;
  await s.ctx.transport.call('flow.trigger', {
    card: card.id,
    device,
    tokens: (tokens ?? {}) as Record<string, never>,
    state: given,
    cause,
    ...(filtered ? { filtered } : {}),
  });
};

export class FlowCardTrigger extends FlowCard {
  /** Fires the trigger: every enabled flow on it whose arguments the run listener accepts for `state` runs with `tokens`. */
  async trigger(tokens?: object, state?: object): Promise<void> {
    await fired(this, null, tokens, state);
  }
}
export class FlowCardCondition extends FlowCard {}
export class FlowCardAction extends FlowCard {}
export class FlowCardTriggerDevice extends FlowCard {
  /** Fires the trigger for one of the app's devices: the flows on it for that device run. */
  async trigger(device: unknown, tokens?: object, state?: object): Promise<void> {
    await fired(this, own(this).devices().idOf(device), tokens, state);
  }
}

const tokenState = new WeakMap<FlowToken, { ctx: HomeyContext; value: unknown; forget: () => void }>();

export class FlowToken {
  /** `forget`: takes the token out of the manager that made it (unregister frees its id). */
  constructor(
    readonly id: string,
    readonly opts: { type: string; title: string },
    ctx: HomeyContext,
    forget: () => void = () => undefined,
  ) {
    tokenState.set(this, { ctx, value: null, forget });
  }

  async setValue(value: unknown): Promise<void> {
    const s = tokenState.get(this)!;
    const v = tokenValue(this.opts.type, value, this.id);
    await s.ctx.transport.call('flow.token.set', { id: this.id, value: v });
    s.value = v;
  }

  async unregister(): Promise<void> {
    const s = tokenState.get(this)!;
    s.forget();
    await s.ctx.transport.call('flow.token.unregister', { id: this.id });
  }
}

/** A token's value as the hub keeps it: of the token's type (an image by its id), or null. */
function tokenValue(type: string, value: unknown, id: string): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (type === 'image') {
    const imageId = (value as { id?: unknown })?.id;
    if (typeof imageId === 'string') return imageId;
  } else if (typeof value === type) {
    return value as string | number | boolean;
  }
  throw new HomeyError(`token '${id}' is of type ${type}; it cannot hold ${JSON.stringify(value) ?? typeof value}`, 'invalid_args');
}

export class ManagerFlow extends Manager {
  static ID = 'flow';
  private readonly cards = new Map<string, FlowCard>();
  private readonly tokens = new Map<string, FlowToken>();
  private readonly lists = new FilterLists();

  constructor(
    private readonly ctx: HomeyContext,
    private readonly devices: () => DeviceLookup = () => {
      throw new HomeyError('the app has no drivers, so its cards have no devices', 'not_found');
    },
  ) {
    super();
  }

  private card<C extends FlowCard>(kind: Kind, id: string, Card: new (...args: ConstructorParameters<typeof FlowCard>) => C): C {
    const key = `${kind}:${id}`;
    const made = this.cards.get(key);
    // getTriggerCard and getDeviceTriggerCard of one id share the key: the kind asked for last
    // is made (a plain trigger card would take the device for the tokens) and hears `update`.
    if (made instanceof Card) return made;
    const flow = this.ctx.manifest.flow as Record<string, Array<{ id?: unknown }>> | undefined;
    const def = flow?.[LIST[kind]]?.find((c) => c?.id === id);
    if (!def) throw new HomeyError(`the app declares no flow ${kind} card '${id}' in app.json`, 'not_found');
    const card = new Card(id, kind, def, this.ctx, this.devices, this.lists);
    this.cards.set(key, card);
    return card;
  }

  getTriggerCard(id: string): FlowCardTrigger {
    return this.card('trigger', id, FlowCardTrigger);
  }

  getConditionCard(id: string): FlowCardCondition {
    return this.card('condition', id, FlowCardCondition);
  }

  getActionCard(id: string): FlowCardAction {
    return this.card('action', id, FlowCardAction);
  }

  getDeviceTriggerCard(id: string): FlowCardTriggerDevice {
    return this.card('trigger', id, FlowCardTriggerDevice);
  }

  async createToken(id: string, opts: { type: string; title: string; value?: unknown }): Promise<FlowToken> {
    if (typeof id !== 'string' || id.length === 0) throw new HomeyError('createToken takes an id', 'invalid_args');
    if (!TOKEN_TYPES.includes(opts?.type)) throw new HomeyError(`token '${id}' needs a type: ${TOKEN_TYPES.join(', ')}`, 'invalid_args');
    if (this.tokens.has(id)) throw new HomeyError(`the app already created a flow token '${id}'`, 'invalid_args');
    const title = typeof opts.title === 'string' ? opts.title : id;
    const value = tokenValue(opts.type, opts.value, id);
    await this.ctx.transport.call('flow.token.create', { id, type: opts.type as 'string', title, value });
    const token: FlowToken = new FlowToken(id, { type: opts.type, title }, this.ctx, () => {
      if (this.tokens.get(id) === token) this.tokens.delete(id);
    });
    this.tokens.set(id, token);
    return token;
  }

  getToken(id: string): FlowToken {
    const token = this.tokens.get(id);
    if (!token) throw new HomeyError(`the app created no flow token '${id}'`, 'not_found');
    return token;
  }

  async unregisterToken(token: FlowToken): Promise<void> {
    if (!(token instanceof FlowToken) || this.tokens.get(token.id) !== token)
      throw new HomeyError('unregisterToken takes a token the app created', 'invalid_args');
    await token.unregister();
  }

  // ---- The hub's calls ------------------------------------------------------------------------

  /** A flow using the card was made, changed or deleted: the card emits `update` (apps read getArgumentValues again). */
  changed(kind: Kind, id: string): void {
    this.cards.get(`${kind}:${id}`)?.emit('update');
  }

  private made(kind: Kind, id: string): FlowCard {
    const card = this.cards.get(`${kind}:${id}`);
    if (card) return card;
    // A card the app never asked for has no listener: Homey's default (a trigger lets every flow
    // go on; a condition or action without a listener is an error the flow's run records).
    return this.card(kind, id, kind === 'trigger' ? FlowCardTrigger : kind === 'condition' ? FlowCardCondition : FlowCardAction);
  }

  /** The hub's flow calls, one handler each (bootstrap.ts forwards them here). */
  readonly calls = {
    'flow.filter': async (a) => {
      const card = this.made('trigger', a.card);
      const args = this.lists.take(a.card, a.device, a.list, a.args);
      if (!args) return { missing: true as const };
      return { go: await going(card, args, a.state) };
    },
    'flow.run': async (a) => {
      const card = this.made(a.kind, a.card);
      const listener = own(card).run;
      if (!listener) throw new HomeyError(`flow ${a.kind} card '${a.card}' has no run listener (registerRunListener)`, 'not_found');
      const result = await currentRun.run(a.run, () => listener.call(card, withDevice(this.devices, a.args), a.state));
      // A condition's answer is taken for its truth, as apps written for Homey expect.
      if (a.kind === 'condition') return Boolean(result);
      // An action may answer tokens (Homey's advanced flows use them); plain JSON only.
      return result === undefined ? null : JSON.parse(JSON.stringify(result));
    },
    'flow.autocomplete': async (a) => {
      const card = this.made(a.kind, a.card);
      const listener = own(card).complete.get(a.name);
      if (!listener) throw new HomeyError(`argument '${a.name}' of '${a.card}' has no autocomplete listener`, 'not_found');
      const found = await listener.call(card, a.query, withDevice(this.devices, a.args));
      if (!Array.isArray(found)) throw new HomeyError(`the autocomplete listener of '${a.name}' answered no list`, 'invalid_args');
      return JSON.parse(JSON.stringify(found));
    },
  } satisfies AppCallHandlers<'flow.filter' | 'flow.run' | 'flow.autocomplete'>;
}
