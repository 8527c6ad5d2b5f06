/**
 * The apps runtime as another manager sees it. hub.ts makes the apps manager (and with it the
 * runtime) before the others and hands each, through its constructor, the part it uses: `router`,
 * where a manager registers the SDK calls it serves in its start() and drops them in its stop(),
 * and whichever of the runtime's reads and calls it names. The apps start last, so every call is
 * served before an app can make it.
 */
import type { AppRuntime } from '../../apps/host/runtime.js';

export type AppsPort<K extends keyof AppRuntime = never> = Pick<AppRuntime, 'router' | K>;
