/**
 * Scope names of the Web API and the one rule of implication between them:
 * `service.X` covers `service.X.readonly`, `SYSTEM` covers `SYSTEM_READONLY`, `*` covers all.
 * The web app bundles this module for its scope picker: keep it free of imports.
 */

export const SCOPES = [
  'service.dashboard',
  'service.dashboard.readonly',
  'service.app',
  'service.app.readonly',
  'service.app.control',
  'service.speech',
  'service.insights',
  'service.insights.readonly',
  'service.geolocation',
  'service.geolocation.readonly',
  'service.system',
  'service.system.readonly',
  'SYSTEM',
  'SYSTEM_READONLY',
] as const;

export type Scope = (typeof SCOPES)[number];
/** What a token may hold: a scope, or `*` for every scope (the owner token). */
export type GrantedScope = Scope | '*';

const scopeSet: ReadonlySet<string> = new Set(SCOPES);
export const isScope = (s: string): s is Scope => scopeSet.has(s);

/** The scope that a granted scope implies besides itself, if any. */
function impliedBy(granted: Scope): Scope | undefined {
  if (granted === 'SYSTEM') return 'SYSTEM_READONLY';
  const readonly = `${granted}.readonly`;
  return isScope(readonly) ? readonly : undefined;
}

/** True when a token holding `granted` may perform an operation that needs `needed`. */
export function grants(granted: readonly GrantedScope[], needed: Scope): boolean {
  for (const g of granted) {
    if (g === '*' || g === needed) return true;
    if (impliedBy(g) === needed) return true;
  }
  return false;
}
