/**
 * The home's power from a live report: its meters' view and what it makes when it has a meter,
 * else what its devices draw. The service (flow trigger and token) and the web app's Energy page
 * read it the same way; import-free so the web app takes it as it is.
 */
type Watts = { readonly W: number | null };

export function homePower(r: { readonly totalConsumed: Watts; readonly totalGenerated: Watts; readonly totalCumulative: Watts }): number {
  return r.totalCumulative.W === null ? (r.totalConsumed.W ?? 0) : r.totalCumulative.W + (r.totalGenerated.W ?? 0);
}
