/**
 * Which flows on an app's trigger card go on: the card's run listener says, in the app, for each
 * distinct set of the flows' arguments (a list, trigger-flows.ts). An app the hub sent the card's
 * list before answers with the trigger itself (flow.trigger's `filtered`): the hub takes that
 * answer when the list is still the card's, and otherwise (its first trigger, or the flows
 * changed since) asks the app (flow.filter), with the list's arguments when the app was not sent
 * them. Either way the answer is the app's own: its run listener is its to run.
 */
import { FILTER_LISTS_KEPT, type FLOW_APP_CALLS } from '../../apps/wire/flow-calls.js';
import type { AppCallArgs, AppCallResult } from '../../apps/wire/protocol.js';
import { KeptSet } from '../../core/kept.js';
import type { HubCard } from './hub-card.js';
import type { FilterList } from './trigger-flows.js';

type FlowCall = keyof typeof FLOW_APP_CALLS;
export type AppCaller = <M extends FlowCall>(appId: string, method: M, args: AppCallArgs<M>, timeoutMs: number) => Promise<AppCallResult<M>>;

/** The app's answer given with its trigger: for the list `list`, the indexes of the arguments that go on. */
export interface Filtered {
  readonly list: string;
  readonly go: readonly number[];
}

const FILTER_TIMEOUT_MS = 10_000;

export class AppFilter {
  /** Lists an app was sent, by app (a few kept: the app keeps as many, and says when it has not one). */
  private readonly sent = new Map<string, KeptSet<string>>();

  constructor(private readonly call: AppCaller) {}

  /** The indexes in `list.args` that go on for a trigger of `card` with `state`. */
  async going(card: HubCard, list: FilterList, device: string | null, state: Record<string, unknown>, filtered: Filtered | null): Promise<ReadonlySet<number>> {
    const sent = this.sent.get(card.appId) ?? new KeptSet<string>(FILTER_LISTS_KEPT);
    this.sent.set(card.appId, sent);
    if (filtered !== null && filtered.list === list.id) {
      sent.add(list.id);
      return new Set(filtered.go);
    }
    const ask = (withArgs: boolean) =>
      this.call(
        card.appId,
        'flow.filter',
        { card: card.cardId, device, list: list.id, ...(withArgs ? { args: [...list.args] } : {}), state },
        FILTER_TIMEOUT_MS,
      );
    let answer = await ask(!sent.has(list.id));
    // The app restarted since, or let the list go: it is sent again.
    if ('missing' in answer) answer = await ask(true);
    if ('missing' in answer) throw new Error('the app did not keep the list of flows it was sent');
    sent.add(list.id);
    return new Set(answer.go);
  }
}
