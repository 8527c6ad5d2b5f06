/**
 * A token as the token API answers it (never its secret, except once on create), as a zod
 * schema: the operation table declares it and the web app takes its type from here. Free of
 * Node imports, so the browser build can type-check against it.
 */
import { z } from 'zod';

export const TokenInfo = z.object({ id: z.string(), name: z.string(), scopes: z.array(z.string()), createdAt: z.string(), owner: z.boolean() });
export type TokenView = z.infer<typeof TokenInfo>;
