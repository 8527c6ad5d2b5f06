/**
 * The enabled flows on one trigger card, as the engine asks the card's app about them: each
 * distinct set of arguments once (flows on a card often share them), under an id the app keeps
 * them by. Made when the flows change, not per trigger: with a thousand flows on a card, a
 * trigger that listed, compared and serialised every flow's arguments again cost the hub ~3 ms of
 * CPU (a profile of the flows bench); now it sends the app the trigger's state and the list's id,
 * and the arguments only when the app does not have that list yet (flow.filter).
 *
 * A list's id is made from its arguments, not from the flows' revision: a flow renamed, moved or
 * saved unchanged keeps the list the app has (the engine reads the app's answer, indexes into the
 * arguments, through the flows of the moment), so the next trigger does not carry the arguments
 * of every flow on the card again (in the home bench, 202 of them after each save).
 */
import { createHash, randomUUID } from 'node:crypto';
import { deviceOf } from '../../apps/manifest/flow-cards.js';
import type { HubCard } from './hub-card.js';
import type { FlowRecord } from './views.js';

/** What one trigger asks the card's app: which of these flows go on. */
export interface FilterList {
  /** Other arguments (or another card or device) have another id; the same arguments, the same id. */
  readonly id: string;
  readonly flows: readonly FlowRecord[];
  /** Each distinct set of the flows' arguments, once. */
  readonly args: readonly Record<string, unknown>[];
  /** Per flow (in `flows`' order), the index of its arguments in `args`. */
  readonly argsOf: readonly number[];
}

/** Ids differ between the hub's runs too: an app never answers by a list another run sent it. */
const RUN = randomUUID().slice(0, 8);

/** `scope`: the card (and device) the list is for, part of its id. */
function listOf(scope: string, flows: readonly FlowRecord[]): FilterList {
  const at = new Map<string, number>();
  const args: Record<string, unknown>[] = [];
  // The distinct arguments in order, each as JSON, one per line (JSON has no bare newline): the
  // list's content, digested into its id (128 bits: no two lists of one home share one).
  const content = createHash('sha256');
  const argsOf = flows.map((f) => {
    const key = JSON.stringify(f.trigger.args);
    let i = at.get(key);
    if (i === undefined) {
      i = args.push(f.trigger.args) - 1;
      at.set(key, i);
      content.update(`${key}\n`);
    }
    return i;
  });
  return { id: `${RUN}:${scope}:${content.digest('hex').slice(0, 32)}`, flows, args, argsOf };
}

const NONE = listOf('none', []);

export class TriggerFlows {
  private all: FilterList | undefined;
  /** A device card's flows by device: each flow is on one device, so these hold the card's flows once in all. */
  private readonly perDevice = new Map<string, FilterList>();

  /** `flows`: the enabled flows on card `cardId`. */
  constructor(
    readonly cardId: string,
    readonly flows: readonly FlowRecord[],
  ) {}

  get length(): number {
    return this.flows.length;
  }

  /** The flows a trigger of `card` goes to: on a device card, those on `device`; otherwise all. */
  list(card: HubCard, device: string | null): FilterList {
    if (device === null || !card.deviceArg) {
      this.all ??= listOf(this.cardId, this.flows);
      return this.all;
    }
    const known = this.perDevice.get(device);
    if (known) return known;
    const on = this.flows.filter((f) => deviceOf(card, f.trigger.args) === device);
    if (on.length === 0) return NONE; // not kept: devices without flows on the card are not bounded
    const made = listOf(`${this.cardId}:${device}`, on);
    this.perDevice.set(device, made);
    return made;
  }
}
