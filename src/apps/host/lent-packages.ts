/**
 * Libraries the hub ships for its built-in apps and lends to every app, read-only: matter.js
 * (`@matter/*`, Apache-2.0, with `@noble/*`, MIT, which it uses) for the Matter app. It is
 * ~140 MB that no app archive should have to carry (Homey apps ship their node_modules), and no
 * secret: lending it grants nothing but reading public code.
 *
 * A lent scope is linked from the apps folder's node_modules, where Node looks after the app's
 * own node_modules, so an app that ships its own copy gets its own. In namespaces the link is
 * made in the app's mount namespace and the scope folder is mounted read-only at its own path
 * (sandbox.ts); the permission model lets the app read it (child-command.ts).
 */
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { replaceLink } from '../../core/files.js';
import { HUB_MODULES } from '../../layout.js';

/** The npm scopes lent, each with every package the hub has in it. */
export const LENT_SCOPES = ['@matter', '@noble'] as const;

/** One lent scope: the link in the apps folder's node_modules and the hub's real folder. */
export interface Lent {
  readonly link: string;
  readonly target: string;
}

/** The lent scopes this hub has (a release without them lends nothing), as links under `modules`. */
export function lentScopes(modules: string, hubModules = HUB_MODULES): Lent[] {
  return LENT_SCOPES.map((scope) => ({ scope, dir: join(hubModules, scope) }))
    .filter(({ dir }) => existsSync(dir))
    .map(({ scope, dir }) => ({ link: join(modules, scope), target: realpathSync(dir) }));
}

/**
 * Makes each link on disk (replaced in one rename), for apps run without namespaces. A real folder
 * of that name (someone put one there) is the owner's: it stays, unlent.
 */
export async function linkLent(lent: readonly Lent[]): Promise<void> {
  for (const { link, target } of lent) await replaceLink(target, link);
}
