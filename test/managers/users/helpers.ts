/** People in tests: one added and their phone signed in with the link, as the People page does. */
import { expect } from 'vitest';
import type { RunningHub } from '../../helpers/hub.js';

export interface User {
  id: string;
  name: string;
  role: string;
  enabled: boolean;
  present: boolean | null;
  asleep: boolean | null;
  inviteUrl: string | null;
  zones: string[];
}

/** The code of a sign-in link (`…/#login=<code>`). */
export const codeOf = (link: string): string => new URL(link).hash.replace('#login=', '');

/** Adds `name` as `role` (by `by`, the owner by default; a guest with `zones`) and signs their phone in: the person and the session's token. */
export async function addPerson(
  hub: RunningHub,
  name: string,
  role: string,
  opts: { by?: string; zones?: string[] } = {},
): Promise<{ user: User; token: string }> {
  const made = await hub.call<User>('POST', '/api/manager/users/user', {
    body: { name, role, ...(opts.zones ? { zones: opts.zones } : {}) },
    ...(opts.by ? { token: opts.by } : {}),
  });
  expect(made.status, made.text).toBe(201);
  const session = await hub.call<{ token: string; userId: string }>('POST', '/api/manager/tokens/login/redeem', {
    token: null,
    body: { code: codeOf(made.body.inviteUrl!), browser: `${name}'s phone` },
  });
  expect(session.status).toBe(201);
  expect(session.body.userId).toBe(made.body.id);
  return { user: made.body, token: session.body.token };
}
