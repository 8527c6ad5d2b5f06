/**
 * A call of the protocol any app may make (or be made), without a manifest permission: its
 * arguments' and result's schemas. The device and flow tables (device-calls.ts, flow-calls.ts)
 * are made of these; protocol.ts's own calls may name a permission.
 */
import type { z } from 'zod';

export interface OpenCall {
  readonly args: z.ZodType;
  readonly result: z.ZodType;
  readonly permission: null;
}

export const openCall = <A extends z.ZodType, R extends z.ZodType>(args: A, result: R) => ({ args, result, permission: null }) satisfies OpenCall;
