/**
 * The runs of each flow, newest first, in memory: the last RUNS_KEPT of each (a log to see what
 * a flow did and why it failed, not a history; it starts empty when the hub starts). Also which
 * run caused which (its lineage), for as long as a trigger fired from a run's listener can arrive.
 */
import type { Actor } from '../../core/actor.js';
import { KeptMap } from '../../core/kept.js';
import { nullRecord } from '../../core/null-prototype.js';
import type { RunView } from './views.js';

/** Where a run stands in a chain of runs starting runs: how deep, and the chain's first run. */
export interface Lineage {
  readonly depth: number;
  readonly chain: string;
}

export const RUNS_KEPT = 20;
/** Runs whose lineage is remembered after they end (a listener may fire a trigger a little later). */
const LINEAGES_KEPT = 2_000;

export class RunLog {
  private readonly runs = new Map<string, RunView[]>();
  private readonly lineages = new KeptMap<string, Lineage>(LINEAGES_KEPT);
  /** Who each run (of the last LINEAGES_KEPT) acts as: its flow, or whoever ran a card by hand. */
  private readonly actors = new KeptMap<string, Actor>(LINEAGES_KEPT);

  /** A run began at `lineage` in a chain: a trigger its listener fires while it runs is one deeper, in the same chain. */
  begin(id: string, lineage: Lineage, flow?: { id: string; name: string }): void {
    this.lineages.set(id, lineage);
    if (flow) this.actAs(id, { kind: 'flow', ...flow });
  }

  /** What run `id` does is done by `actor` (a flow's run: the flow; a card run by hand: its caller). */
  actAs(id: string, actor: Actor): void {
    this.actors.set(id, actor);
  }

  /** Who run `id` acts as, or null when unknown (long ago). */
  actorOf(id: string): Actor | null {
    return this.actors.get(id) ?? null;
  }

  add(run: RunView, lineage: Lineage): void {
    const list = this.runs.get(run.flow) ?? [];
    list.unshift(run);
    if (list.length > RUNS_KEPT) list.length = RUNS_KEPT;
    this.runs.set(run.flow, list);
    if (!this.lineages.has(run.id)) this.begin(run.id, lineage);
  }

  /** Each flow's newest run, by flow id. */
  latest(): Record<string, RunView> {
    const out = nullRecord<RunView>();
    for (const [flow, list] of this.runs) if (list[0]) out[flow] = { ...list[0], steps: [...list[0].steps] };
    return out;
  }

  of(flowId: string): RunView[] {
    return (this.runs.get(flowId) ?? []).map((r) => ({ ...r, steps: [...r.steps] }));
  }

  /** Where the run `id` stood (depth 0: started by a trigger nothing in a flow fired), or null when unknown. */
  lineageOf(id: string): Lineage | null {
    return this.lineages.get(id) ?? null;
  }

  forget(flowId: string): void {
    this.runs.delete(flowId);
  }
}
