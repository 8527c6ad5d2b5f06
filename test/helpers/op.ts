/**
 * A hub's operations called by manager and id, typed from the managers' contracts, for tests
 * that are about what an operation does rather than about the wire: no path written by hand, the
 * input and the answer typed as the web app's client types them (src/web/client.ts), and a
 * refusal thrown as an OpError that carries the status and the hub's sentence.
 *
 * @example
 * await hub.op('devices', 'setCapabilityValue', { params: { deviceId, capabilityId: 'onoff' }, body: { value: true } });
 */
import {
  type OperationAnswer as Answer,
  type ContractOperations,
  contractOperations,
  type OperationInput as Input,
  type ManagerName,
} from '../../src/core/contract.js';
import { CONTRACTS, type Contracts } from '../../src/managers/contracts.js';

type Ops<M extends ManagerName> = ContractOperations<Contracts[M]>;
export type OpId<M extends ManagerName> = keyof Ops<M> & string;
// biome-ignore lint/complexity/noBannedTypes: `{} extends T` tests that T has no required key
export type OpArgs<O> = {} extends Input<O> ? [input?: Input<O>] : [input: Input<O>];
export type OpAnswer<M extends ManagerName, K extends OpId<M>> = Answer<Ops<M>[K]>;

/** An operation the hub refused: its status and what it said. */
export class OpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    const said = typeof body === 'object' && body !== null && 'error' in body ? String(body.error) : JSON.stringify(body);
    super(`${what} answered ${status}: ${said}`);
  }
}

/** Method and path of an operation, its params filled in and its query appended. */
export function route(manager: ManagerName, id: string, input: { params?: Record<string, unknown>; query?: Record<string, unknown> } = {}): [string, string] {
  const contract = CONTRACTS[manager];
  const found = contractOperations(contract)[id];
  if (!found) throw new Error(`manager ${manager} has no operation ${id}`);
  let path = `/api/manager/${contract.name}${found.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(String(input.params?.[name])))}`;
  const query = Object.entries(input.query ?? {}).filter(([, v]) => v !== undefined);
  if (query.length > 0) path += `?${new URLSearchParams(query.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
  return [found.method, path];
}

/** Calls operation `id` of `manager` at `base` with `token`; answers its output, or throws OpError. */
export async function callOp<M extends ManagerName, K extends OpId<M>>(
  base: string,
  token: string | null,
  manager: M,
  id: K,
  ...[input]: OpArgs<Ops<M>[K]>
): Promise<OpAnswer<M, K>> {
  const given = (input ?? {}) as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  const [method, path] = route(manager, id, given);
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  if (given.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, ...(given.body !== undefined ? { body: JSON.stringify(given.body) } : {}) });
  const text = await res.text();
  const body: unknown = text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text || null;
  if (!res.ok) throw new OpError(res.status, body, `${manager}.${id} (${method} ${path})`);
  return body as OpAnswer<M, K>;
}
