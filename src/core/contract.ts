/**
 * A manager's contract: what it promises its clients, without behaviour. Each operation's method,
 * path, scope, inputs and answer; the options it keeps; the events it publishes with their
 * arguments. Contracts import only zod and other contracts (no Node module), so the web app takes
 * its types from the same tables the hub mounts, and the web build takes its routes from them
 * (scripts/build-web.mjs). Handlers are bound to a contract by `implement` (core/operation.ts),
 * typed so that a handler answering the wrong shape does not compile.
 */
import { z } from 'zod';
import { lazy } from './lazy.js';
import type { Scope } from './scopes.js';

export { lazy } from './lazy.js';

export const MANAGER_NAMES = [
  'dashboards',
  'apps',
  'speech-output',
  'backup',
  'insights',
  'geolocation',
  'i18n',
  'google-assistant',
  'tokens',
  'system',
  'zones',
  'devices',
  'drivers',
  'images',
  'flow',
  'flowtoken',
  'logic',
  'users',
  'presence',
  'moods',
  'alarms',
  'energy',
  'matter',
  'notifications',
] as const;
export type ManagerName = (typeof MANAGER_NAMES)[number];

/** What a manager publishes: each event's name with the schemas of its arguments, in order. */
export type EventContract = Readonly<Record<string, readonly z.ZodType[]>>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * An operation that takes a file as its body (a backup archive) instead of JSON: the body is
 * handed to the handler as a stream, bounded by `maxBytes` while it streams (never buffered),
 * and refused with 415 unless its Content-Type is one of `types`.
 */
export interface UploadSpec {
  readonly types: readonly string[];
  readonly maxBytes: number;
}

/** One operation as clients see it; its id is its key in the contract's `operations`. */
export interface OperationContract {
  readonly method: HttpMethod;
  /** Path below the manager prefix, Hono syntax: '/dashboard/:id'. A trailing slash is optional. */
  readonly path: string;
  /** Scope needed; null means any valid token (the seed lists no scope). */
  readonly scope: Scope | null;
  /** 'none' only for probes (ping) and documents (openapi). */
  readonly auth?: 'token' | 'none';
  /** Not in the seed: an operation this hub adds (token API, voice catalogue, ...). */
  readonly extension?: boolean;
  readonly summary: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /**
   * For bodies that are one root object (createDashboard's `dashboard`): the wrapper key that
   * is also accepted, `{"dashboard": {...}}`.
   */
  readonly bodyRoot?: string;
  /** A file body instead of JSON (see UploadSpec); the handler gets it as `upload`. */
  readonly upload?: UploadSpec;
  /** The answer's schema: in the OpenAPI document, and checked at run time with --check-answers on. */
  readonly output?: z.ZodType;
  /** The content type of a non-JSON answer (a RawResult), documented as binary instead of `output`. */
  readonly produces?: string;
  /** 200 by default; 204 answers without a body whatever the handler returns. */
  readonly status?: 200 | 201 | 202 | 204;
}

/** An option: one named value of a manager (`/option/<name>`: GET, PUT {value}, DELETE). */
export interface OptionContract<N extends string = string, T = unknown> {
  readonly name: N;
  /** Domain validation of a PUT value; its messages name the problem. */
  readonly schema: z.ZodType<T>;
  readonly default: T | null;
  readonly scopes: { readonly get: Scope | null; readonly set: Scope | null; readonly unset: Scope | null };
  /** Never sent in events or state (the PIN); still readable through its GET with its scope. */
  readonly secret?: boolean;
  readonly summary: string;
}

export function defineOption<const N extends string, T>(def: OptionContract<N, T>): OptionContract<N, T> {
  return def;
}

export interface ManagerContract {
  readonly name: ManagerName;
  /** Scope a token needs to receive this manager's events; null: the manager has no namespace. */
  readonly eventScope: Scope | null;
  readonly operations: Readonly<Record<string, OperationContract>>;
  readonly options?: readonly OptionContract[];
  /** The events it publishes and their arguments' schemas (option.update comes with options), built when first asked for. */
  readonly events?: () => EventContract;
}

/** The parts of an operation that are schemas: built on first use (see `op`). */
export type OperationSchemas = Pick<OperationContract, 'params' | 'query' | 'body' | 'output'>;
const SCHEMA_KEYS = ['params', 'query', 'body', 'output'] as const;

/**
 * An operation whose schemas are built when one of them is first read: its route (method, path,
 * scope, summary, ...) is there at once for mounting and the route table; `params`, `query`,
 * `body` and `output` are getters over `schemas()`, built once. Reading them is all a consumer
 * does, so mounting, validation and the OpenAPI document need not know.
 */
export function op<const R extends Omit<OperationContract, keyof OperationSchemas>, S extends OperationSchemas>(route: R, schemas: () => S): R & S {
  const built = lazy(schemas);
  const operation = { ...route };
  for (const key of SCHEMA_KEYS) Object.defineProperty(operation, key, { enumerable: true, get: () => built()[key] });
  return operation as R & S;
}

/** An operation's own copy with more fields, keeping `op`'s getters unbuilt (a spread would build them). */
export function extendOperation<O extends OperationContract, E extends object>(operation: O, extra: E): O & E {
  return Object.defineProperties(Object.defineProperties({}, Object.getOwnPropertyDescriptors(operation)), Object.getOwnPropertyDescriptors(extra)) as O & E;
}

/** Declares a contract keeping every literal (methods, paths, schemas) for the types derived from it. */
export function defineContract<const C extends ManagerContract>(contract: C): C {
  return contract;
}

/** The `GET /state` most managers have: a small object a dashboard can show at a glance. */
export function stateOperation<const O extends z.ZodType>(spec: { summary: string; output: () => O; scope?: Scope }) {
  return op({ method: 'GET', path: '/state', scope: spec.scope ?? 'service.system.readonly', summary: spec.summary } as const, () => ({
    output: spec.output(),
  }));
}

const OptionValue = lazy(() => z.object({ value: z.unknown() }));

type OptionOperations<D> =
  D extends OptionContract<infer N, infer T>
    ? {
        readonly [K in `getOption${Capitalize<N>}`]: {
          method: 'GET';
          path: string;
          scope: Scope | null;
          summary: string;
          output: z.ZodType<{ value: T | null }>;
        };
      } & {
        readonly [K in `setOption${Capitalize<N>}`]: {
          method: 'PUT';
          path: string;
          scope: Scope | null;
          summary: string;
          body: z.ZodType<{ value: T }, { value: unknown }>;
          output: z.ZodType<{ value: T }>;
        };
      } & { readonly [K in `unsetOption${Capitalize<N>}`]: { method: 'DELETE'; path: string; scope: Scope | null; summary: string; status: 204 } }
    : never;

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every operation of a contract by id: its own and three per option (getOptionX, setOptionX, unsetOptionX). */
export type ContractOperations<C extends ManagerContract> = C['operations'] &
  (C['options'] extends readonly (infer D)[] ? ([D] extends [never] ? unknown : Intersection<OptionOperations<D>>) : unknown);

/** An option's three operations, with the seed's ids. */
export function optionOperations(def: OptionContract): Record<string, OperationContract> {
  const cap = def.name[0]!.toUpperCase() + def.name.slice(1);
  const path = `/option/${def.name}`;
  return {
    [`getOption${cap}`]: op({ method: 'GET', path, scope: def.scopes.get, summary: `Read ${def.summary}` }, () => ({ output: OptionValue() })),
    [`setOption${cap}`]: op({ method: 'PUT', path, scope: def.scopes.set, summary: `Set ${def.summary}` }, () => ({
      body: z.strictObject({ value: def.schema }),
      output: OptionValue(),
    })),
    [`unsetOption${cap}`]: { method: 'DELETE', path, scope: def.scopes.unset, summary: `Restore the default of ${def.summary}`, status: 204 },
  };
}

/** A contract's operations, its options' included, keyed by id. */
export function contractOperations(contract: ManagerContract): Record<string, OperationContract> {
  const all: Record<string, OperationContract> = { ...contract.operations };
  for (const def of contract.options ?? []) Object.assign(all, optionOperations(def));
  return all;
}

// ---- what a call sends and answers, typed from an operation's schemas (the web client, tests) ----

type Field<O, K extends string> = O extends { readonly [k in K]: infer S extends z.ZodType } ? z.input<S> : never;
// `{} extends T`: T has no required key (biome's noBannedTypes is about values typed `{}`, not this test).
// biome-ignore lint/complexity/noBannedTypes: see above
type Part<O, K extends string> = [Field<O, K>] extends [never] ? unknown : {} extends Field<O, K> ? { [k in K]?: Field<O, K> } : { [k in K]: Field<O, K> };

/** What a call of operation `O` sends: its params, query and body, each where it has one. */
export type OperationInput<O> = Part<O, 'params'> & Part<O, 'query'> & Part<O, 'body'>;

/** What operation `O` answers: its output schema's type; null for a 204. */
export type OperationAnswer<O> = O extends { readonly status: 204 } ? null : O extends { readonly output: infer S extends z.ZodType } ? z.output<S> : unknown;
