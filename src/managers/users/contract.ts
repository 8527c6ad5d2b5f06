/**
 * The users contract: who the caller is, in Homey's User shape (`getUserMe`, what HomeyScript's
 * own example asks first). hearth has no people yet: a token is its user (the owner token the
 * home's owner, any other token a user named by it).
 */
import { z } from 'zod';
import { defineContract, lazy, op } from '../../core/contract.js';

export const UserView = lazy(() =>
  z.object({
    id: z.string().describe("a uuid, the same for a token's every call"),
    name: z.string(),
    role: z
      .enum(['owner', 'manager', 'user', 'guest'])
      .describe('owner: the owner token; manager: a token with every scope or the hub settings; user: any other'),
    properties: z.record(z.string(), z.unknown()),
    athomId: z.null(),
    enabled: z.boolean(),
    enabledUntil: z.null(),
    present: z.boolean().nullable(),
    asleep: z.boolean().nullable(),
    avatar: z.null(),
    verified: z.boolean(),
    inviteUrl: z.null(),
    localUsername: z.null(),
  }),
);
export type UserView = z.infer<ReturnType<typeof UserView>>;

export const usersContract = defineContract({
  name: 'users',
  eventScope: null,
  operations: {
    getUserMe: op(
      {
        method: 'GET',
        path: '/user/me',
        // Any token: who am I needs no right.
        scope: null,
        summary: "Who the caller is, in Homey's User shape (a token is its user until hearth has people)",
      },
      () => ({ output: UserView() }),
    ),
  },
});
