/**
 * The home's power from a live report: its meters' view and what it makes when it has a meter,
 * else what its devices draw. The service (flow trigger and token) and the web app's Energy page
 * read it the same way; import-free so the web app takes it as it is.
 */
import type { LiveReport } from './contract.js';

export function homePower(r: Pick<LiveReport, 'totalConsumed' | 'totalGenerated' | 'totalCumulative'>): number {
  return r.totalCumulative.W === null ? (r.totalConsumed.W ?? 0) : r.totalCumulative.W + (r.totalGenerated.W ?? 0);
}
