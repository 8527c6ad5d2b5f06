/**
 * Runs flows. A trigger fires: the card's app says which of the flows on its card (for a device
 * card, on that device) go on (its run listener, by their arguments and the trigger's state:
 * app-filter.ts), and each that goes on runs on its own: its conditions by group (all of a
 * group must hold; any group will do; none is a pass), then the "then" or "else" actions in
 * order, each after its delay. Every card runs in its app's process with a timeout; a card that
 * fails (its app is down, threw, or did not answer) fails that run, with the reason in the run's
 * log, and never the engine or another flow.
 *
 * A flow that triggers itself (an action whose app fires the flow's trigger while it runs) is
 * bounded: each run knows how deep in such a chain it is, and a run past MAX_DEPTH is stopped.
 * Breadth is bounded too (run-bounds.ts): runs under way in all and per flow, and runs per chain;
 * a run past a bound is not started, and the flow's log and the timeline say so, a few times a
 * minute at most, so that a flood refused costs the hub next to nothing.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { type CardKind, deviceOf } from '../../apps/manifest/flow-cards.js';
import type { Actor } from '../../core/actor.js';
import type { HubBus } from '../bus.js';
import type { FlowTokens } from '../flowtoken/registry.js';
import { type AppCaller, AppFilter, type Filtered } from './app-filter.js';
import { type TokenLookup, withTokens } from './arg-values.js';
import type { CardRegistry } from './cards.js';
import type { HubCard } from './hub-card.js';
import { RunBounds } from './run-bounds.js';
import type { Lineage, RunLog } from './run-log.js';
import { readTitle } from './title.js';
import type { TriggerFlows } from './trigger-flows.js';
import type { ActionRef, ConditionRef, FlowRecord, RunStep, RunView } from './views.js';

/** Runs in a chain of flows starting flows, at most (the first is 0). */
export const MAX_DEPTH = 10;
export const CARD_TIMEOUT_MS = 30_000;
/** A flow's refused runs are logged once in this long; the others are counted in the next. */
const REFUSED_LOGGED_EVERY_MS = 10_000;
/**
 * A flow's refused runs reach the timeline once in this long; those refused by the hub's own
 * bound (which many flows meet at once) once in this long from all flows together.
 */
const REFUSED_NOTIFIED_EVERY_MS = 60_000;

export type { AppCaller } from './app-filter.js';
export type Tokens = Record<string, string | number | boolean | null>;

export interface EngineDeps {
  readonly cards: CardRegistry;
  readonly tokens: FlowTokens;
  readonly runs: RunLog;
  readonly bus: HubBus;
  readonly log: Logger;
  readonly call: AppCaller;
  /** Puts a sentence on the home's timeline (a notification, as the flow's own card makes). */
  readonly notify: (text: string) => void;
  /** Why a flow cannot run now (a card, device or variable it names is gone), or null. */
  readonly broken: (flow: FlowRecord) => string | null;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const now = (): string => new Date().toISOString();

export class FlowEngine {
  private readonly stopping = new AbortController();
  readonly bounds = new RunBounds();
  /** Per flow: when a refused run was last logged and put on the timeline, and how many since. */
  private readonly refused = new Map<string, { logged: number; notified: number; quiet: number }>();
  /** When a run refused by the hub's own bound last reached the timeline: one notice for many flows. */
  private hubNotified = 0;

  private readonly apps: AppFilter;

  constructor(private readonly deps: EngineDeps) {
    this.apps = new AppFilter(deps.call);
  }

  /** Ends every delay that is waiting (the hub stops): those runs end as stopped. */
  stop(): void {
    this.stopping.abort();
  }

  /**
   * A trigger fired: `flows` are the enabled flows on its card. Resolves once the app has said
   * which go on (`filtered`: its answer, given with the trigger; app-filter.ts); their runs go on
   * after that. Whether a flow is broken is asked only of those that go on (usually one of many
   * on a card): it looks at every card the flow names.
   */
  async fire(
    card: HubCard,
    flows: TriggerFlows,
    device: string | null,
    tokens: Tokens,
    state: Record<string, unknown>,
    cause: string | null,
    filtered: Filtered | null = null,
  ): Promise<void> {
    const parent = cause === null ? null : this.deps.runs.lineageOf(cause);
    const lineage: Lineage | null = cause === null ? null : { depth: (parent?.depth ?? 0) + 1, chain: parent?.chain ?? cause };
    const depth = lineage?.depth ?? 0;
    const list = flows.list(card, device);
    const on = list.flows;
    if (on.length === 0) return;
    let go: boolean[];
    try {
      const system = card.system;
      if (system) go = on.map((f) => system.filter?.(f.trigger.args, state, f) ?? true);
      else {
        const going = await this.apps.going(card, list, device, state, filtered);
        go = list.argsOf.map((i) => going.has(i));
      }
    } catch (err) {
      for (const flow of on) {
        const run = this.failedAtTrigger(flow, `the trigger's app did not say which flows go on: ${message(err)}`);
        this.record(run, lineage ?? { depth, chain: run.id });
      }
      return;
    }
    on.forEach((flow, i) => {
      if (go[i] === true && this.deps.broken(flow) === null) void this.run(flow, tokens, state, lineage);
    });
  }

  private failedAtTrigger(flow: FlowRecord, error: string): RunView {
    const at = now();
    return {
      id: randomUUID(),
      flow: flow.id,
      started: at,
      ended: at,
      result: 'failed',
      branch: null,
      error,
      steps: [this.step(flow.trigger.id, 'trigger', 0, 'failed', error)],
      by: null,
    };
  }

  /**
   * Runs one flow with its trigger's tokens; resolves with the run when it ended (never rejects).
   * `from`: where it stands in a chain of runs (null: it starts one).
   */
  async run(flow: FlowRecord, tokens: Tokens, state: Record<string, unknown>, from: Lineage | null, logged = true, by: Actor | null = null): Promise<RunView> {
    const run: RunView = { id: randomUUID(), flow: flow.id, started: now(), ended: null, result: 'running', branch: null, error: null, steps: [], by };
    const lineage = from ?? { depth: 0, chain: run.id };
    const depth = lineage.depth;
    run.steps.push(this.step(flow.trigger.id, 'trigger', 0, 'done', null));
    if (depth > MAX_DEPTH) {
      const why = `stopped: it was started by a chain of ${depth} flow runs, each started by the one before (a flow that starts itself); the bound is ${MAX_DEPTH}`;
      return this.refuse(flow, run, lineage, why, false, logged);
    }
    const refused = this.bounds.admit(flow.id, lineage.chain);
    if (refused !== null) return this.refuse(flow, run, lineage, `not started: ${refused.why}`, refused.hub, logged);
    this.deps.runs.begin(run.id, lineage, { id: flow.id, name: flow.name });
    try {
      return await this.steps(flow, run, tokens, state, lineage, logged);
    } finally {
      this.bounds.release(flow.id, lineage.chain);
    }
  }

  private async steps(flow: FlowRecord, run: RunView, tokens: Tokens, state: Record<string, unknown>, lineage: Lineage, logged: boolean): Promise<RunView> {
    try {
      const pass = await this.conditions(flow.conditions, run, tokens, state);
      if (pass === null) return this.record(run, lineage, logged);
      run.branch = pass ? 'then' : 'else';
      await this.actions(
        flow.actions.filter((a) => a.group === run.branch),
        (a) => flow.actions.indexOf(a),
        run,
        tokens,
        state,
      );
    } catch (err) {
      run.result = 'failed';
      run.error ??= message(err);
    }
    return this.record(run, lineage, logged);
  }

  /**
   * A run past a bound is not started (`error` says which). The first of a flow's refused runs in REFUSED_LOGGED_EVERY_MS
   * is kept in its log (with how many went unsaid before it), and the first in
   * REFUSED_NOTIFIED_EVERY_MS reaches the timeline; the others are only counted, so a flood costs
   * a map lookup each.
   */
  private refuse(flow: FlowRecord, run: RunView, lineage: Lineage, error: string, hubWide: boolean, logged: boolean): RunView {
    run.result = 'stopped';
    run.error = error;
    if (!logged) return this.record(run, lineage, false);
    const at = Date.now();
    const seen = this.refused.get(flow.id) ?? { logged: 0, notified: 0, quiet: 0 };
    this.refused.set(flow.id, seen);
    if (at - seen.logged < REFUSED_LOGGED_EVERY_MS) {
      seen.quiet++;
      run.ended = now();
      return run;
    }
    if (seen.quiet > 0) run.error = `${error} (and ${seen.quiet} runs of it before this one, unlogged)`;
    seen.logged = at;
    seen.quiet = 0;
    if (hubWide) {
      if (at - this.hubNotified >= REFUSED_NOTIFIED_EVERY_MS) {
        this.hubNotified = at;
        this.deps.notify(`Flows were started more often than the hub allows, and some runs were not (flow '${flow.name}' first): ${error}.`);
      }
    } else if (at - seen.notified >= REFUSED_NOTIFIED_EVERY_MS) {
      seen.notified = at;
      this.deps.notify(`Flow '${flow.name}' was started more often than the hub allows: ${error}.`);
    }
    return this.record(run, lineage, true);
  }

  /** A flow was deleted: nothing of it is kept. */
  forget(flowId: string): void {
    this.refused.delete(flowId);
  }

  /** Whether the conditions hold; null when one failed (the run says why). */
  private async conditions(conditions: readonly ConditionRef[], run: RunView, tokens: Tokens, state: Record<string, unknown>): Promise<boolean | null> {
    if (conditions.length === 0) return true;
    const groups = new Map<string, ConditionRef[]>();
    const at = new Map(conditions.map((c, i) => [c, i]));
    for (const c of conditions) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
    for (const group of groups.values()) {
      let holds = true;
      for (const c of group) {
        const index = at.get(c) ?? 0;
        try {
          const answer = (await this.runCard('condition', c, tokens, state, run.id)) === true;
          const value = c.inverted ? !answer : answer;
          run.steps.push(this.step(c.id, 'condition', index, value ? 'true' : 'false', null, c.inverted));
          if (!value) {
            holds = false;
            break;
          }
        } catch (err) {
          const failed = this.step(c.id, 'condition', index, 'failed', message(err), c.inverted);
          run.steps.push(failed);
          run.result = 'failed';
          run.error = `the condition ${named(failed)} failed: ${message(err)}`;
          return null;
        }
      }
      if (holds) return true;
    }
    return false;
  }

  /** Runs the branch's actions in order; one that fails is recorded and the next still runs. */
  private async actions(
    actions: readonly ActionRef[],
    index: (a: ActionRef) => number,
    run: RunView,
    tokens: Tokens,
    state: Record<string, unknown>,
  ): Promise<void> {
    const failed: string[] = [];
    for (const a of actions) {
      if (a.delay) {
        try {
          await sleep(a.delay * 1000, undefined, { signal: this.stopping.signal });
        } catch {
          run.steps.push(this.step(a.id, 'action', index(a), 'skipped', 'the hub stopped while it waited for its delay'));
          run.result = 'stopped';
          run.error = 'the hub stopped while an action waited for its delay';
          return;
        }
      }
      try {
        await this.runCard('action', a, tokens, state, run.id);
        run.steps.push(this.step(a.id, 'action', index(a), 'done', null));
      } catch (err) {
        const step = this.step(a.id, 'action', index(a), 'failed', message(err));
        run.steps.push(step);
        failed.push(`the action ${named(step)} failed: ${message(err)}`);
      }
    }
    run.result = failed.length ? 'failed' : 'ran';
    run.error = failed.length ? failed.join('; ') : null;
  }

  /** Runs one card in its app: its arguments with their tokens, its device argument as the device's id. */
  async runCard(
    kind: Exclude<CardKind, 'trigger'>,
    ref: { id: string; args: Record<string, unknown> },
    tokens: Tokens,
    state: Record<string, unknown>,
    runId: string,
  ): Promise<unknown> {
    const card = this.deps.cards.find(kind, ref.id);
    if (!card) throw new Error(`the card no longer exists (its app was uninstalled or changed)`);
    const args = withTokens(card, ref.args, this.lookup(tokens));
    if (card.system) {
      const run = card.system.run;
      if (!run) throw new Error(`card ${card.id} does nothing when run`);
      return run(args, runId);
    }
    const device = deviceOf(card, args);
    return this.deps.call(card.appId, 'flow.run', { kind, card: card.cardId, device, args, state, run: runId }, CARD_TIMEOUT_MS);
  }

  /** Finds a token by how an argument names it: the trigger's own, or a global one. */
  lookup(local: Tokens): TokenLookup {
    return (ref) => {
      const bar = ref.indexOf('|');
      if (bar < 0) {
        if (!Object.hasOwn(local, ref)) throw new Error(`the trigger brings no token '${ref}'`);
        return local[ref] ?? null;
      }
      const token = this.deps.tokens.find(ref.slice(0, bar), ref.slice(bar + 1));
      if (!token) throw new Error(`token [[${ref}]] does not exist (now)`);
      return token.value;
    };
  }

  /**
   * One card's outcome in a run, named as the card was when it ran (a condition as the flow reads
   * it: "It is not raining" when turned round). A condition's outcome is the flow's reading too.
   */
  private step(card: string, kind: CardKind, index: number, outcome: RunStep['outcome'], error: string | null, inverted = false): RunStep {
    const named = this.deps.cards.describe(kind, card);
    return { card, title: named ? readTitle(named.title, inverted) : null, ownerName: named?.ownerName ?? null, kind, index, outcome, error, at: now() };
  }

  private record(run: RunView, lineage: Lineage, logged = true): RunView {
    run.ended = now();
    if (run.result === 'running') run.result = 'ran';
    // A test of an unsaved flow answers its run and keeps no log.
    if (!logged) return run;
    this.deps.runs.add(run, lineage);
    if (run.result === 'failed' || run.result === 'stopped')
      this.deps.log.info({ flow: run.flow, run: run.id, result: run.result, error: run.error }, 'a flow run did not complete');
    this.deps.bus.publish('flow', 'flowrun.create', run);
    return run;
  }
}

/** A step's card as a person reads it: 'weather: Remember a message', or its id when it is gone. */
function named(step: RunStep): string {
  return step.title === null ? step.card : `'${step.ownerName}: ${step.title}'`;
}
