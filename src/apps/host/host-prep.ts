import { join } from 'node:path';
import type { Logger } from 'pino';
import { makeDirs } from '../../core/files.js';
import { recoverInterrupted } from '../catalogue/install.js';
import { makeAppsFolder } from './examples.js';
import { type Lent, lentScopes, linkLent } from './lent-packages.js';
import { probeSandbox, type Sandbox, type SandboxChoice } from './sandbox.js';
import { prepareAppsFolder } from './sdk-link.js';

export interface PreparedHost {
  /** The SDK link in the apps folder, and that folder (apps may read both), and the libraries lent beside it. */
  sdk: { link: string; modules: string; lent: readonly Lent[] };
  sandbox: Sandbox;
}

/**
 * The sandbox probe, begun before the host is prepared (AppRuntime.prepare()): it spawns
 * bubblewrap, which should not hold up the hub's start. prepareHost() awaits it and reports its
 * failure; until then a rejection is held, so a hub that never gets there stays quiet.
 */
export function beginSandboxProbe(choice: SandboxChoice): Promise<Sandbox> {
  const probe = probeSandbox(choice);
  probe.catch(() => undefined);
  return probe;
}

/** `probed`: what beginSandboxProbe() began. */
export async function prepareHost(opts: { appsDir: string; dataDir: string; log: Logger; probed: Promise<Sandbox> }): Promise<PreparedHost> {
  const examples = await makeAppsFolder(opts.appsDir);
  if (examples.length > 0) opts.log.info({ appsDir: opts.appsDir, examples }, 'made the apps folder, with the example apps');
  const folder = await prepareAppsFolder(opts.appsDir);
  const lent = lentScopes(folder.modules);
  await linkLent(lent);
  const sdk = { ...folder, lent };
  const sandbox = await opts.probed;
  if (sandbox.reason) opts.log.warn({ containment: sandbox.containment, reason: sandbox.reason }, 'apps run with the permission model only');
  else opts.log.info({ containment: sandbox.containment }, 'apps run in namespaces of their own');
  if (sandbox.note) {
    opts.log.warn(
      { bubblewrap: sandbox.note },
      'bubblewrap cannot keep apps from making user namespaces here; the permission model (no native code, no child processes) keeps them from trying',
    );
  }
  await recoverInterrupted(opts.appsDir);
  await makeDirs(join(opts.dataDir, 'apps'));
  return { sdk, sandbox };
}
