/**
 * What the hub asks of the machine at start, each a process spawn of 5-30 ms: the speech engine,
 * its voices and aplay (speech-output), and whether bubblewrap can make namespaces (apps). The
 * hub begins them first thing, so they run while it opens its data dir and starts the managers
 * in order, instead of one after another in its way to its first answer (docs/performance.md).
 * The managers take them up in start() and report a failure there, as before.
 */
import { beginSandboxProbe } from './apps/host/host-prep.js';
import type { Config } from './config.js';
import type { HostProbes } from './managers/context.js';
import { probeSpeech } from './managers/speech-output/probe.js';

export type { HostProbes } from './managers/context.js';

export function beginHostProbes(config: Pick<Config, 'speechEngine' | 'audioOut' | 'appSandbox'>): HostProbes {
  return { speech: probeSpeech(config), sandbox: beginSandboxProbe(config.appSandbox) };
}
