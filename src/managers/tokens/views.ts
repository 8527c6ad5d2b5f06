/**
 * A token as the token API answers it (never its secret, except once on create), as a zod
 * schema: the operation table declares it and the web app takes its type from here. Free of
 * Node imports, so the browser build can type-check against it.
 */

import { z } from 'zod';
import { lazy } from '../../core/contract.js';

export const TokenInfo = lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.string()),
    createdAt: z.string(),
    owner: z.boolean(),
    /** A browser's session from a one-time sign-in link; revoked like any token. */
    session: z.boolean(),
    zones: z.array(z.string()).nullable().describe("a guest's: the rooms it is held to; null: the whole home"),
    userId: z.string().nullable().describe("the person it belongs to (their role decides what it may do), or null: a script's token"),
  }),
);

/** A one-time sign-in code: the web app makes `<origin>/#login=<code>` of it, the CLI a link to the hub. */
export const LoginCode = lazy(() => z.object({ code: z.string(), expiresAt: z.string(), scopes: z.array(z.string()) }));
export type LoginCodeView = z.infer<ReturnType<typeof LoginCode>>;
export type TokenView = z.infer<ReturnType<typeof TokenInfo>>;
