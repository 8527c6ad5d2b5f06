/**
 * The enabled flows on one trigger card, as the engine asks the card's app about them: each
 * distinct set of arguments once (flows on a card often share them), under an id the app keeps
 * them by. Made when the flows change, not per trigger: with a thousand flows on a card, a
 * trigger that listed, compared and serialised every flow's arguments again cost the hub ~3 ms of
 * CPU (a profile of the flows bench); now it sends the app the trigger's state and the list's id,
 * and the arguments only when the app does not have that list yet (flow.filter).
 */
import { randomUUID } from 'node:crypto';
import { deviceOf } from '../../apps/manifest/flow-cards.js';
import type { HubCard } from './hub-card.js';
import type { FlowRecord } from './views.js';

/** What one trigger asks the card's app: which of these flows go on. */
export interface FilterList {
  /** Another list (other flows, other arguments) has another id, in this hub's run. */
  readonly id: string;
  readonly flows: readonly FlowRecord[];
  /** Each distinct set of the flows' arguments, once. */
  readonly args: readonly Record<string, unknown>[];
  /** Per flow (in `flows`' order), the index of its arguments in `args`. */
  readonly argsOf: readonly number[];
}

/** Ids stay distinct across the hub's runs too, so an id the app kept can never name other flows. */
const RUN = randomUUID().slice(0, 8);

function listOf(id: string, flows: readonly FlowRecord[]): FilterList {
  const at = new Map<string, number>();
  const args: Record<string, unknown>[] = [];
  const argsOf = flows.map((f) => {
    const key = JSON.stringify(f.trigger.args);
    let i = at.get(key);
    if (i === undefined) {
      i = args.push(f.trigger.args) - 1;
      at.set(key, i);
    }
    return i;
  });
  return { id, flows, args, argsOf };
}

const NONE = listOf(`${RUN}:none`, []);

export class TriggerFlows {
  private all: FilterList | undefined;
  /** A device card's flows by device: each flow is on one device, so these hold the card's flows once in all. */
  private readonly perDevice = new Map<string, FilterList>();

  /** `flows`: the enabled flows on card `cardId` at revision `revision` of the flows. */
  constructor(
    private readonly cardId: string,
    private readonly revision: number,
    readonly flows: readonly FlowRecord[],
  ) {}

  get length(): number {
    return this.flows.length;
  }

  /** The flows a trigger of `card` goes to: on a device card, those on `device`; otherwise all. */
  list(card: HubCard, device: string | null): FilterList {
    const base = `${RUN}:${this.revision}:${this.cardId}`;
    if (device === null || !card.deviceArg) {
      this.all ??= listOf(base, this.flows);
      return this.all;
    }
    const known = this.perDevice.get(device);
    if (known) return known;
    const on = this.flows.filter((f) => deviceOf(card, f.trigger.args) === device);
    if (on.length === 0) return NONE; // not kept: devices without flows on the card are not bounded
    const made = listOf(`${base}:${device}`, on);
    this.perDevice.set(device, made);
    return made;
  }
}
