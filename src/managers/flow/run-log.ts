/**
 * The runs of each flow, newest first, in memory: the last RUNS_KEPT of each (a log to see what
 * a flow did and why it failed, not a history; it starts empty when the hub starts). Also which
 * run caused which (`depth`), for as long as a trigger fired from a run's listener can arrive.
 */
import type { RunView } from './schema.js';

export const RUNS_KEPT = 20;
/** Runs whose depth is remembered after they end (a listener may fire a trigger a little later). */
const DEPTHS_KEPT = 2_000;

export class RunLog {
  private readonly runs = new Map<string, RunView[]>();
  private readonly depths = new Map<string, number>();

  /** A run began `depth` deep in a chain: a trigger its listener fires while it runs is one deeper. */
  begin(id: string, depth: number): void {
    this.depths.set(id, depth);
    if (this.depths.size > DEPTHS_KEPT) this.depths.delete(this.depths.keys().next().value as string);
  }

  add(run: RunView, depth: number): void {
    const list = this.runs.get(run.flow) ?? [];
    list.unshift(run);
    if (list.length > RUNS_KEPT) list.length = RUNS_KEPT;
    this.runs.set(run.flow, list);
    if (!this.depths.has(run.id)) this.begin(run.id, depth);
  }

  of(flowId: string): RunView[] {
    return (this.runs.get(flowId) ?? []).map((r) => ({ ...r, steps: [...r.steps] }));
  }

  /** How many runs deep the run `id` was (0: started by a trigger nothing in a flow fired), or null when unknown. */
  depthOf(id: string): number | null {
    return this.depths.get(id) ?? null;
  }

  forget(flowId: string): void {
    this.runs.delete(flowId);
  }
}
