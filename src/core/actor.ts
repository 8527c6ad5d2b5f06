/**
 * Who did something: a person (their session, or the owner token: the first owner's), a token that
 * is no one's (a script's), an app, or a flow. Carried in the events where a family asks "who
 * turned the heating off?" (a capability's change: `by`) and in the runs of flows started by
 * hand. Free of Node imports: the contracts and the web app read it.
 */
import { z } from 'zod';
import { lazy } from './lazy.js';

export const ActorView = lazy(() =>
  z.object({
    kind: z.enum(['person', 'token', 'app', 'flow']),
    id: z.string().describe("the person's, the token's, the app's or the flow's id"),
    name: z.string().describe('their name, when it happened'),
  }),
);
export type Actor = z.infer<ReturnType<typeof ActorView>>;
