/**
 * A call of the protocol any app may make (or be made), without a manifest permission: its
 * arguments' and result's schemas. The device and flow tables (device-calls.ts, flow-calls.ts)
 * are made of these; protocol.ts's own calls may name a permission.
 */
import type { z } from 'zod';
import { lazy } from '../../core/lazy.js';

export interface OpenCall {
  readonly args: z.ZodType;
  readonly result: z.ZodType;
  readonly permission: null;
}

/**
 * A call's definition whose schemas are built when the call is first made or answered: the
 * tables declare some 60 calls and their 300 schemas, and an app uses a handful of them.
 */
export function callDef<A extends z.ZodType, R extends z.ZodType, P>(
  args: () => A,
  result: () => R,
  permission: P,
): { readonly args: A; readonly result: R; readonly permission: P } {
  const schemas = lazy(() => ({ args: args(), result: result() }));
  return {
    get args() {
      return schemas().args;
    },
    get result() {
      return schemas().result;
    },
    permission,
  };
}

export const openCall = <A extends z.ZodType, R extends z.ZodType>(args: () => A, result: () => R) => callDef(args, result, null) satisfies OpenCall;
