/**
 * How many flow runs may be under way at once, and how many one chain may make. The depth of a
 * chain (a run starting a run starting a run) is bounded in the engine; its breadth is bounded
 * here: a flow with six "start this flow" actions doubles nothing at depth 10 but makes 6^10 runs.
 * Three counts are held: runs in flight in all, per flow, and runs a chain made (its first run,
 * started by a trigger, a person or the clock, and every run that one caused, in flight or ended).
 * A run past a bound is not started; the engine says so in the flow's log and the timeline.
 */

/**
 * Runs under way at once in the whole hub (a run waiting for a delay counts): a big home's 400
 * flows on one trigger all run at once, with room; a run in flight is a few KiB.
 */
export const MAX_RUNS_IN_FLIGHT = 2_048;
/** Runs of one flow under way at once (a motion flow with a delay, triggered again and again). */
export const MAX_FLOW_RUNS_IN_FLIGHT = 32;
/** Runs one chain makes in all, its first included. */
export const MAX_CHAIN_RUNS = 200;
/** Chains whose counts are remembered after their runs end (a listener may fire a trigger a little later). */
const CHAINS_KEPT = 2_000;

interface Chain {
  runs: number;
  inFlight: number;
}

export class RunBounds {
  private inFlight = 0;
  private readonly perFlow = new Map<string, number>();
  private readonly chains = new Map<string, Chain>();

  /**
   * Takes a place for a run of `flow` in `chain`, or says why there is none ("the chain ... made
   * 200 runs, the bound for one chain"; the run is then not started, and nothing is counted) and
   * whether the bound is the whole hub's (`hub`: many flows meet it at once).
   */
  admit(flow: string, chain: string): { why: string; hub: boolean } | null {
    const c = this.chains.get(chain) ?? { runs: 0, inFlight: 0 };
    if (c.runs >= MAX_CHAIN_RUNS)
      return { why: `the chain of flow runs that started it (flows starting flows) made ${MAX_CHAIN_RUNS} runs, the bound for one chain`, hub: false };
    const mine = this.perFlow.get(flow) ?? 0;
    if (mine >= MAX_FLOW_RUNS_IN_FLIGHT) return { why: `${MAX_FLOW_RUNS_IN_FLIGHT} runs of this flow were under way, the bound for one flow`, hub: false };
    if (this.inFlight >= MAX_RUNS_IN_FLIGHT) return { why: `${MAX_RUNS_IN_FLIGHT} flow runs were under way in the hub, the bound for all flows`, hub: true };
    c.runs++;
    c.inFlight++;
    // Newest last: the oldest chain is forgotten first.
    this.chains.delete(chain);
    this.chains.set(chain, c);
    if (this.chains.size > CHAINS_KEPT) this.forgetOldest();
    this.perFlow.set(flow, mine + 1);
    this.inFlight++;
    return null;
  }

  /** A run admitted by `admit` ended. */
  release(flow: string, chain: string): void {
    this.inFlight--;
    const mine = (this.perFlow.get(flow) ?? 1) - 1;
    if (mine > 0) this.perFlow.set(flow, mine);
    else this.perFlow.delete(flow);
    const c = this.chains.get(chain);
    if (c) c.inFlight--;
  }

  /** Runs under way in the hub now (for tests and the state). */
  get running(): number {
    return this.inFlight;
  }

  private forgetOldest(): void {
    // A chain with runs in flight is kept: forgetting it would let it start over.
    for (const [id, c] of this.chains) {
      if (c.inFlight > 0) continue;
      this.chains.delete(id);
      return;
    }
  }
}
