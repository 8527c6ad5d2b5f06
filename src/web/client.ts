/**
 * The web app's typed client of the hub's managers: operations are called by manager and id, with
 * params, query and body typed from the managers' contracts (src/managers/contracts.ts), and
 * answer the type of their output schema; events are heard typed the same way. No path is written
 * here: the web build makes the route table from the same contracts (scripts/build-web.mjs), so a
 * renamed operation or a changed input breaks the build, not the page.
 *
 * @example
 * const d = await call('dashboards', 'getDashboard', { params: { id } });
 * subscribe('backup', (e) => e.name === 'backup.update' && show(e.args[0].state));
 */
import type { ContractOperations, ManagerName, OperationAnswer, OperationInput } from '../core/contract.js';
import type { ContractEvents, EventArgs } from '../core/events.js';
import type { Contracts } from '../managers/contracts.js';
import { api, type CallOptions, listen, seg } from './api.js';

/** Each manager's operations as [method, full path], and its event namespace's path (or null). */
export interface Routes {
  readonly [manager: string]: { readonly operations: Readonly<Record<string, readonly [string, string]>>; readonly events: string | null };
}

/** Put in by the web build (esbuild `define`), made from the managers' contracts. */
declare const __HEARTH_ROUTES__: Routes;
const ROUTES: Routes = __HEARTH_ROUTES__;

type Ops<M extends ManagerName> = ContractOperations<Contracts[M]>;
type OpId<M extends ManagerName> = keyof Ops<M> & string;
/** What a call of operation `O` sends, and what it answers (core/contract.ts). */
export type Input<O> = OperationInput<O>;
export type Answer<O> = OperationAnswer<O>;

// biome-ignore lint/complexity/noBannedTypes: `{} extends T` tests that T has no required key
type Args<O> = {} extends Input<O> ? [input?: Input<O>, options?: CallOptions] : [input: Input<O>, options?: CallOptions];

/** The URL of an operation with its params filled in (for downloads and uploads, which are not JSON). */
export function path<M extends ManagerName, K extends OpId<M>>(manager: M, id: K, ...[input]: Args<Ops<M>[K]>): string {
  return route(manager, id, input as Partial<Record<'params' | 'query', Record<string, unknown>>> | undefined)[1];
}

/** Calls operation `id` of `manager`; answers its output, or throws ApiError with the hub's sentence. */
export function call<M extends ManagerName, K extends OpId<M>>(manager: M, id: K, ...[input, options]: Args<Ops<M>[K]>): Promise<Answer<Ops<M>[K]>> {
  const given = input as Partial<Record<'params' | 'query' | 'body', Record<string, unknown>>> | undefined;
  const [method, url] = route(manager, id, given);
  return api<Answer<Ops<M>[K]>>(method, url, given?.body, options);
}

function route(manager: string, id: string, input: Partial<Record<'params' | 'query', Record<string, unknown>>> | undefined): readonly [string, string] {
  const found = ROUTES[manager]?.operations[id];
  if (!found) throw new Error(`the hub has no operation ${manager}/${id}; the web app was built against other contracts`);
  const [method, template] = found;
  const params = input?.params ?? {};
  let url = template.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => seg(String(params[name])));
  const query = Object.entries(input?.query ?? {}).filter(([, v]) => v !== undefined);
  if (query.length > 0) url += `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}`;
  return [method, url];
}

type Events<M extends ManagerName> = ContractEvents<Contracts[M]>;

/** One event of manager `M`: its name and its arguments, typed by name. */
export type HubEvent<M extends ManagerName> = {
  [E in keyof Events<M> & string]: { readonly name: E; readonly args: EventArgs<Events<M>[E]> };
}[keyof Events<M> & string];

/** Managers with an event namespace. */
export type EventManager = { [M in ManagerName]: Contracts[M]['eventScope'] extends null ? never : M }[ManagerName];

/**
 * Listens to a manager's events (one shared, reconnecting socket per manager); returns the
 * unsubscribe. `resync` is called whenever the socket opens after this call (late, or again after
 * a drop): what was published meanwhile is lost, so state loaded alongside is loaded again there.
 */
export function subscribe<M extends EventManager>(manager: M, handler: (event: HubEvent<M>) => void, resync?: () => void): () => void {
  const at = ROUTES[manager]?.events;
  if (!at) throw new Error(`the ${manager} manager has no events`);
  // Kept open when unused: pages come back to the same few namespaces all the time.
  return listen(at, (name, args) => handler({ name, args } as unknown as HubEvent<M>), false, resync);
}

/** The resources of manager `M` that have create/update/delete events ('app', 'voice', ...). */
export type Resource<M extends EventManager> = { [E in keyof Events<M> & string]: E extends `${infer R}.create` ? R : never }[keyof Events<M> & string];

/** What the events of resource `R` of manager `M` carry. */
export type ResourceItem<M extends EventManager, R extends string> = Extract<HubEvent<M>, { name: `${R}.create` }>['args'] extends readonly [
  infer T,
  ...unknown[],
]
  ? T
  : never;

/**
 * A `<kind>.create|update|delete` event of resource `kind` read from one of manager `M`'s events:
 * the verb and the resource it carries (first, as every resource event's contract says, typed
 * `T` by the caller from that contract), or null for another event. Beside `subscribe`, the other
 * place the wire meets the contract's types.
 */
export function resourceEvent<T>(
  event: { readonly name: string; readonly args: readonly unknown[] },
  kind: string,
): { verb: 'create' | 'update' | 'delete'; item: T & { id: string } } | null {
  const [eventKind, verb] = event.name.split('.');
  const item: unknown = event.args[0];
  if (eventKind !== kind || (verb !== 'create' && verb !== 'update' && verb !== 'delete')) return null;
  if (typeof item !== 'object' || item === null || typeof (item as { id?: unknown }).id !== 'string') return null;
  return { verb, item: item as T & { id: string } };
}
