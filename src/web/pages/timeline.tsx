/**
 * The timeline (`#/timeline`): what apps, flows and the hub said, newest first, by day, each with
 * who said it and when, live; one deleted with its button, all with Clear; and who may speak at
 * all (an owner turned off is not kept). The home screen links here with what is new since the
 * timeline was last seen on this screen (`TimelineLink`).
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { NotificationView, OwnerView } from '../../managers/notifications/contract.js';
import { call, subscribe } from '../client.js';
import { Icon } from '../icons.js';
import { ActionButton, Err, Switch, useAction, useLiveCollection, useLoad } from '../ui.js';

/** When this screen last showed the timeline: what came after is new. */
const SEEN_KEY = 'hearth:timeline-seen';
const seen = (): string => localStorage.getItem(SEEN_KEY) ?? '';

function dayOf(iso: string): string {
  const d = new Date(iso);
  const today = new Date();
  const yesterday = new Date(today.getTime() - 86_400_000);
  if (d.toDateString() === today.toDateString()) return 'Today';
  if (d.toDateString() === yesterday.toDateString()) return 'Yesterday';
  return d.toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long' });
}

function Owners(): JSX.Element | null {
  const owners = useLoad(() => call('notifications', 'getOwners'));
  const a = useAction();
  useEffect(
    () =>
      subscribe('notifications', (e) => {
        if (e.name === 'owner.update') owners.set((prev) => (prev ? { ...prev, [e.args[0].uri]: e.args[0] } : prev));
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const list = Object.values(owners.data ?? {}).sort((x, y) => x.name.localeCompare(y.name));
  if (list.length === 0) return null;
  const set = (o: OwnerView, enabled: boolean) =>
    void a.run(() => call('notifications', 'setOwnerEnabled', { params: { uri: o.uri }, body: { enabled } }).then(() => undefined));
  return (
    <details class="card timeline-owners">
      <summary>Who may speak</summary>
      <p class="muted small">Turned off, what it says is not kept.</p>
      <ul class="plain">
        {list.map((o) => (
          <li key={o.uri}>
            <Switch class="inline switch" checked={o.enabled} onChange={(on) => set(o, on)}>
              {o.name}
            </Switch>
          </li>
        ))}
      </ul>
      <Err msg={a.error} />
    </details>
  );
}

export function TimelinePage(): JSX.Element {
  const notes = useLoad(() => call('notifications', 'getNotifications'));
  useLiveCollection('notifications', 'notification', notes);
  const [since] = useState(seen);
  const list = Object.values(notes.data ?? {}).sort((a, b) => b.dateCreated.localeCompare(a.dateCreated));
  useEffect(() => {
    // Seen: the home's link shows nothing new until something is said after this.
    if (list[0]) localStorage.setItem(SEEN_KEY, list[0].dateCreated);
  }, [list[0]?.id]);
  if (notes.error) return <Err msg={notes.error} />;
  if (!notes.data) return <p class="muted">Loading…</p>;
  const days: Array<{ day: string; notes: NotificationView[] }> = [];
  for (const n of list) {
    const day = dayOf(n.dateCreated);
    if (days.at(-1)?.day !== day) days.push({ day, notes: [] });
    days.at(-1)?.notes.push(n);
  }
  return (
    <>
      <header class="page-head">
        <h1>Timeline</h1>
        {list.length > 0 ? (
          <ActionButton label="Clear" confirm="Delete everything on the timeline?" onRun={() => call('notifications', 'deleteNotifications', { query: {} })} />
        ) : null}
      </header>
      {list.length === 0 ? (
        <p class="card muted" data-testid="timeline-empty">
          Nothing said yet. Apps, flows and the hub put here what you should know: the washing is done, a door was left open, a backup failed.
        </p>
      ) : null}
      {days.map(({ day, notes: here }) => (
        <section key={day} class="timeline-day">
          <h2>{day}</h2>
          <ol class="plain timeline">
            {here.map((n) => (
              <li key={n.id} class={n.dateCreated > since ? 'new' : undefined} data-testid="timeline-item">
                <div>
                  <strong>{n.ownerName}</strong>
                  <time class="muted small" dateTime={n.dateCreated}>
                    {' '}
                    {new Date(n.dateCreated).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}
                  </time>
                  <p>{n.excerpt}</p>
                </div>
                <ActionButton
                  label="Delete"
                  ariaLabel={`Delete “${n.excerpt.slice(0, 60)}”`}
                  onRun={() => call('notifications', 'deleteNotification', { params: { id: n.id } })}
                />
              </li>
            ))}
          </ol>
        </section>
      ))}
      <Owners />
    </>
  );
}

/** The home screen's way to the timeline: how much it holds, and a mark when something is new. */
export function TimelineLink(): JSX.Element | null {
  const state = useLoad(() => call('notifications', 'getState'));
  useEffect(
    () =>
      subscribe('notifications', (e) => {
        if (e.name === 'notification.create' || e.name === 'notification.delete') state.reload();
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  if (!state.data) return null;
  const fresh = state.data.latest !== null && state.data.latest > seen();
  return (
    <a href="#/timeline" class={fresh ? 'timeline-link new' : 'timeline-link'} data-testid="timeline-link">
      <Icon name="bell" /> Timeline · {state.data.notifications}
      {fresh ? <span class="badge">new</span> : null}
    </a>
  );
}
