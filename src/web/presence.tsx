/**
 * Who is home, on the home screen: a badge per person (home, away or asleep), and this browser's
 * person's own two buttons, "I'm home" / "I'm away" and "Good night" / "Good morning", one tap
 * each. A sign-in that is no one's shows the family without the buttons; one that may not see
 * the family shows only its own.
 */
import type { JSX } from 'preact';
import { Avatar } from './avatar.js';
import { call } from './client.js';
import { Icon } from './icons.js';
import { meChanged, type UserView, useMe, usePeople } from './people.js';
import { Err, type Loaded, useAction } from './ui.js';

function Badge({ p }: { p: UserView }): JSX.Element {
  const state = p.present ? (p.asleep ? 'asleep' : 'home') : 'away';
  return (
    <li class={`person ${state}`} data-testid={`person-${p.name}`} data-state={state}>
      <Avatar name={p.name} avatar={p.avatar} />
      <span class="name">{p.name}</span>
      <span class="muted small">{state}</span>
    </li>
  );
}

/** `family`: the family's badges too (a guest sees only their own buttons: the family is not theirs to see). */
export function HomePresence({ family: withFamily }: { family: boolean }): JSX.Element | null {
  return withFamily ? <WithFamily /> : <Presence people={null} />;
}

function WithFamily(): JSX.Element | null {
  return <Presence people={usePeople()} />;
}

function Presence({ people }: { people: Loaded<Record<string, UserView>> | null }): JSX.Element | null {
  const me = useMe();
  const a = useAction();
  // Mine as the family's list has it (live), else as I was read.
  const mine = me.data ? (people?.data?.[me.data.id] ?? me.data) : undefined;
  const family = Object.values(people?.data ?? {})
    .filter((p) => p.enabled)
    .sort((x, y) => Number(y.present) - Number(x.present) || x.name.localeCompare(y.name));
  const set = (what: 'setPresentMe' | 'setAsleepMe', value: boolean) =>
    void a.run(async () => {
      const after = await call('presence', what, { body: { value } });
      meChanged(after);
      people?.set((prev) => (prev ? { ...prev, [after.id]: after } : prev));
    });
  const person = mine && mine.present !== null ? mine : null;
  if (!person && family.length === 0) return null;
  return (
    <section class="presence" aria-label="Who is home" data-testid="presence">
      {family.length > 0 ? (
        <ul class="plain people-strip">
          {family.map((p) => (
            <Badge key={p.id} p={p} />
          ))}
        </ul>
      ) : null}
      {person ? (
        <div class="inline wrap">
          <button type="button" class="big" data-testid="presence-toggle" disabled={a.busy} onClick={() => set('setPresentMe', !person.present)}>
            <Icon name={person.present ? 'signout' : 'home'} /> {person.present ? "I'm away" : "I'm home"}
          </button>
          {person.present ? (
            <button type="button" class="big" data-testid="sleep-toggle" disabled={a.busy} onClick={() => set('setAsleepMe', !person.asleep)}>
              <Icon name="moon" /> {person.asleep ? 'Good morning' : 'Good night'}
            </button>
          ) : null}
        </div>
      ) : null}
      <Err msg={a.error} />
    </section>
  );
}
