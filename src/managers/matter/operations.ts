/**
 * The matter handlers: each asks the Matter app, through routes of its api.js that app.json does
 * not declare (so only the hub reaches them, after checking the caller's scopes here; an app
 * token for the app's own Web API cannot).
 */
import { HearthError, notFound } from '../../core/errors.js';
import { nullRecord } from '../../core/null-prototype.js';
import { implement, type Operation } from '../../core/operation.js';
import { MATTER_APP, type MatterNode, matterContract } from './contract.js';

/** What the manager needs of the apps runtime. */
export interface MatterApp {
  installed(): boolean;
  running(): boolean;
  /** Runs a route of the app's api.js; rejects with the app's error. */
  call(route: string, params?: Record<string, string>): Promise<unknown>;
  /** The hearth devices made of a node's endpoints, by the app's name for the node. */
  devicesOf(key: string): string[];
  deleteDevices(ids: readonly string[]): Promise<void>;
}

/** A home without the Matter app has no nodes (not an outage); one whose app is stopped cannot say. */
function mustRun(app: MatterApp): void {
  if (!app.running()) throw new HearthError('unavailable', `the Matter app (${MATTER_APP}) is not running: start it from the apps page`);
}

export function matterOperations(app: MatterApp): Operation[] {
  const nodes = async (): Promise<Record<string, MatterNode>> => {
    if (!app.installed()) return nullRecord<MatterNode>();
    mustRun(app);
    const answered = (await app.call('hubNodes')) as Record<string, Omit<MatterNode, 'devices'> & { key: string }>;
    const out = nullRecord<MatterNode>();
    for (const [id, { key, ...node }] of Object.entries(answered)) out[id] = { ...node, devices: app.devicesOf(key) };
    return out;
  };
  const node = async (id: string) => {
    const all = await nodes();
    // An id is looked up as the app's own key only: `__proto__` or `valueOf` is no node.
    if (!Object.hasOwn(all, id)) throw notFound(`Matter node '${id}' does not exist`);
    return all[id] as MatterNode;
  };
  return implement(matterContract.operations, {
    getState: async () => {
      const installed = app.installed();
      const running = installed && app.running();
      return { installed, running, nodes: running ? Object.keys(await nodes()).length : 0 };
    },
    getMatterNodes: () => nodes(),
    getMatterNode: ({ params }) => node(params.id),
    deleteMatterNode: async ({ params }) => {
      const found = await node(params.id);
      await app.call('hubDeleteNode', { id: params.id });
      await app.deleteDevices(found.devices);
      return null;
    },
    pingNode: async ({ params }) => {
      await node(params.id);
      return (await app.call('hubPingNode', { id: params.id })) as { reachable: boolean; ms: number | null; error: string | null };
    },
  });
}
