/**
 * `this.homey.flow`: hearth has no flow engine. The cards an app declares exist, take their
 * listeners and triggers, and nothing ever runs them: an app written for Homey's flows starts
 * and does the rest of its work. Tokens are kept in the app only. The app's record lists its
 * cards as what hearth does not run.
 */
import type { HomeyContext } from '../context.cjs';
import { HomeyError } from '../errors.cjs';
import { Manager, SimpleClass } from '../simple-class.cjs';

type Kind = 'trigger' | 'condition' | 'action';
const LIST: Record<Kind, string> = { trigger: 'triggers', condition: 'conditions', action: 'actions' };

export class FlowArgument extends SimpleClass {
  constructor(readonly name: string) {
    super();
  }

  registerAutocompleteListener(_listener: (query: string, args: any) => unknown): FlowArgument {
    return this;
  }
}

export class FlowCard extends SimpleClass {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: kept for the flow engine to call; cards are inert until then
  private runListener: ((args: any, state: any) => unknown) | null = null;

  constructor(
    readonly id: string,
    readonly type: Kind,
    readonly manifest: any,
  ) {
    super();
  }

  /** Kept, never called: hearth runs no flows. */
  registerRunListener(listener: (args: any, state: any) => unknown): FlowCard {
    this.runListener = listener;
    return this;
  }

  registerArgumentAutocompleteListener(_name: string, _listener: (query: string, args: any) => unknown): FlowCard {
    return this;
  }

  getArgument(name: string): FlowArgument {
    return new FlowArgument(name);
  }

  async getArgumentValues(_device?: unknown): Promise<any[]> {
    return [];
  }
}

export class FlowCardTrigger extends FlowCard {
  /** Resolves at once: no flow listens on hearth. */
  async trigger(_tokens?: object, _state?: object): Promise<void> {}
}
export class FlowCardCondition extends FlowCard {}
export class FlowCardAction extends FlowCard {}
export class FlowCardTriggerDevice extends FlowCard {
  async trigger(_device: unknown, _tokens?: object, _state?: object): Promise<void> {}
}

export class FlowToken {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: kept for the flow engine to read; tokens are inert until then
  private value: unknown = null;

  constructor(
    readonly id: string,
    readonly opts: { type: string; title: string },
  ) {}

  async setValue(value: unknown): Promise<void> {
    this.value = value;
  }

  async unregister(): Promise<void> {}
}

export class ManagerFlow extends Manager {
  static ID = 'flow';
  private readonly cards = new Map<string, FlowCard>();
  private readonly tokens = new Map<string, FlowToken>();

  constructor(private readonly ctx: HomeyContext) {
    super();
  }

  private card<C extends FlowCard>(kind: Kind, id: string, Card: new (id: string, type: Kind, manifest: any) => C): C {
    const key = `${kind}:${id}`;
    const made = this.cards.get(key);
    if (made) return made as C;
    const flow = this.ctx.manifest.flow as Record<string, Array<{ id?: unknown }>> | undefined;
    const def = flow?.[LIST[kind]]?.find((c) => c?.id === id);
    if (!def) throw new HomeyError(`the app declares no flow ${kind} card '${id}' in app.json`, 'not_found');
    const card = new Card(id, kind, def);
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
    const token = new FlowToken(id, { type: opts?.type, title: opts?.title });
    if (opts?.value !== undefined) await token.setValue(opts.value);
    this.tokens.set(id, token);
    return token;
  }

  getToken(id: string): FlowToken {
    const token = this.tokens.get(id);
    if (!token) throw new HomeyError(`the app created no flow token '${id}'`, 'not_found');
    return token;
  }

  async unregisterToken(token: FlowToken): Promise<void> {
    this.tokens.delete(token?.id);
  }
}
