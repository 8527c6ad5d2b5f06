/**
 * People (`#/people`): you (your name, whether you are home, your sessions on other phones, each
 * ended with a tap), the family (each with their role and whether they are home; those below
 * your own role changed, disabled, signed in on a new phone or removed), and adding someone:
 * their name and role, then a QR code their phone scans to sign in once as them.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { MAX_NAME, mayManage, ROLE_INFO, ROLES, type Role } from '../../core/roles.js';
import { upload } from '../api.js';
import { Avatar } from '../avatar.js';
import { call, path } from '../client.js';
import { Icon } from '../icons.js';
import { meChanged, smallPicture, type UserView, useMe, usePeople } from '../people.js';
import { ActionButton, Card, CopyButton, Err, formatTime, Switch, useAction, useLoad } from '../ui.js';
import { Qr, useCountdown } from './phone-login.js';

/** Roles `mine` may give. */
const givable = (mine: Role): Role[] => ROLES.filter((r) => mayManage(mine, r));

/** The home's zones but its root (a guest is given rooms, not the whole home), by name. */
function useRooms(): Array<{ id: string; name: string }> {
  const zones = useLoad(() => call('zones', 'getZones'));
  return Object.values(zones.data ?? {})
    .filter((z) => z.parent !== null)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A guest's rooms: one checkbox per zone. */
function RoomsPicker({ value, onChange, who }: { value: readonly string[]; onChange: (v: string[]) => void; who: string }): JSX.Element {
  const rooms = useRooms();
  return (
    <fieldset class="rooms-picker" data-testid={`rooms-${who}`}>
      <legend>Rooms {who} may use</legend>
      {rooms.map((r) => (
        <label key={r.id} class="check">
          <input
            type="checkbox"
            checked={value.includes(r.id)}
            onChange={(e) => onChange((e.target as HTMLInputElement).checked ? [...value, r.id] : value.filter((id) => id !== r.id))}
          />
          <span>{r.name}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** A one-time link for someone's phone, as a QR code and the link, with its time left. */
function Invite({ name, code, expiresAt }: { name: string; code: string; expiresAt: string }): JSX.Element {
  const left = useCountdown(expiresAt);
  const link = `${location.origin}/#login=${code}`;
  return (
    <div class="login-link" data-testid="invite">
      {left > 0 ? <Qr text={link} /> : null}
      <div>
        <p>
          {left > 0
            ? `${name}'s phone scans this, or opens the link: it signs in once as ${name}, until ${formatTime(expiresAt)}.`
            : 'This link has expired; make a new one.'}
        </p>
        <code class="break" data-testid="invite-url">
          {link}
        </code>{' '}
        <CopyButton text={link} what="the sign-in link" />
      </div>
    </div>
  );
}

const codeOf = (url: string): string => new URL(url, location.origin).hash.replace(/^#login=/, '');

function You({ me, onChange }: { me: UserView; onChange: (u: UserView) => void }): JSX.Element {
  const [name, setName] = useState(me.name);
  const a = useAction();
  const sessions = useLoad(() => call('users', 'getUserMeSessions'));
  return (
    <Card title="You">
      <form class="inline wrap" onSubmit={a.submit(async () => onChange(await call('users', 'updateUserMe', { body: { name } })))}>
        <label class="inline">
          Your name <input value={name} maxLength={MAX_NAME} required data-testid="my-name" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" disabled={a.busy || name.trim() === me.name}>
          Save
        </button>
      </form>
      <Err msg={a.error} />
      <div class="inline wrap">
        <Avatar name={me.name} avatar={me.avatar} />
        <label class="inline">
          Your picture{' '}
          <input
            type="file"
            accept="image/*"
            data-testid="my-picture"
            onChange={(e) => {
              const file = (e.target as HTMLInputElement).files?.[0];
              if (file) void a.run(async () => onChange(await upload(path('users', 'setUserMeAvatar'), await smallPicture(file), 'image/jpeg', 'PUT')));
            }}
          />
        </label>
      </div>
      <p class="muted small">
        {ROLE_INFO[me.role].label}: {ROLE_INFO[me.role].sentence}
      </p>
      <h3>Your sessions</h3>
      <ul class="plain sessions" data-testid="sessions">
        {Object.values(sessions.data ?? {}).map((s) => (
          <li key={s.id} class="inline wrap">
            <span>
              {s.name.replace(/ \(signed in by link\)$/, '')} <span class="muted small">since {formatTime(s.createdAt)}</span>
            </span>
            {s.current ? (
              <span class="muted small">this browser</span>
            ) : (
              <ActionButton
                label="End"
                ariaLabel={`End the session of ${s.name}`}
                testId={`end-session-${s.id}`}
                onRun={async () => {
                  await call('users', 'deleteUserMeSession', { params: { id: s.id } });
                  await sessions.reload();
                }}
              />
            )}
          </li>
        ))}
      </ul>
      <Err msg={sessions.error} />
    </Card>
  );
}

function Person({ p, mine, self }: { p: UserView; mine: Role; self: boolean }): JSX.Element {
  const a = useAction();
  const [invite, setInvite] = useState<{ code: string; expiresAt: string } | null>(null);
  // One's own role and account are changed by someone else (an owner steps down by making another owner first).
  const manage = mayManage(mine, p.role) && !self;
  const state = p.present ? (p.asleep ? 'asleep' : 'home') : 'away';
  return (
    <li class="person-row" data-testid={`people-${p.name}`}>
      <div class="inline wrap">
        <Avatar name={p.name} avatar={p.avatar} class={state} />
        <span>
          <b>{p.name}</b>
          {self ? ' (you)' : ''} <span class="muted small">{ROLE_INFO[p.role].label}</span> <span class="muted small">· {p.enabled ? state : 'disabled'}</span>
        </span>
      </div>
      {manage ? (
        <div class="inline wrap">
          <label class="inline">
            Role{' '}
            <select
              value={p.role}
              data-testid={`role-${p.name}`}
              onChange={(e) =>
                void a.run(() => call('users', 'updateUser', { params: { id: p.id }, body: { role: (e.target as HTMLSelectElement).value as Role } }))
              }
            >
              {[...new Set([p.role, ...givable(mine)])].map((r) => (
                <option key={r} value={r}>
                  {ROLE_INFO[r].label}
                </option>
              ))}
            </select>
          </label>
          <Switch
            checked={p.enabled}
            testId={`enabled-${p.name}`}
            onChange={(on) => void a.run(() => call('users', 'updateUser', { params: { id: p.id }, body: { enabled: on } }))}
          >
            Enabled
          </Switch>
          {p.enabled ? (
            <ActionButton
              label="Sign in a phone"
              ariaLabel={`Sign in a phone as ${p.name}`}
              testId={`invite-${p.name}`}
              onRun={async () => setInvite(await call('users', 'createUserInvite', { params: { id: p.id } }))}
            />
          ) : null}
          <ActionButton
            label="Remove"
            kind="danger"
            ariaLabel={`Remove ${p.name}`}
            testId={`remove-${p.name}`}
            confirm={`Remove ${p.name} from the home? Every phone signed in as them is signed out.`}
            onRun={() => call('users', 'deleteUser', { params: { id: p.id } })}
          />
        </div>
      ) : null}
      {manage && p.role === 'guest' ? (
        <RoomsPicker
          value={p.zones}
          who={p.name}
          onChange={(zones) => void a.run(() => call('users', 'updateUser', { params: { id: p.id }, body: { zones } }))}
        />
      ) : null}
      {invite ? <Invite name={p.name} {...invite} /> : null}
      <Err msg={a.error} />
    </li>
  );
}

function AddPerson({ mine }: { mine: Role }): JSX.Element | null {
  const roles = givable(mine);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>(roles.includes('user') ? 'user' : (roles[0] ?? 'user'));
  const [made, setMade] = useState<{ name: string; code: string; expiresAt: string } | null>(null);
  const [zones, setZones] = useState<string[]>([]);
  const a = useAction();
  if (roles.length === 0) return null;
  return (
    <Card title="Add someone">
      <form
        class="inline wrap"
        onSubmit={a.submit(async () => {
          const person = await call('users', 'createUser', { body: { name, role, ...(role === 'guest' ? { zones } : {}) } });
          // Valid ten minutes from now, as the hub made it.
          setMade({ name: person.name, code: codeOf(person.inviteUrl ?? ''), expiresAt: new Date(Date.now() + 600_000).toISOString() });
          setName('');
        })}
      >
        <label class="inline">
          Name <input value={name} maxLength={MAX_NAME} required data-testid="new-person-name" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </label>
        <label class="inline">
          Role{' '}
          <select value={role} data-testid="new-person-role" onChange={(e) => setRole((e.target as HTMLSelectElement).value as Role)}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {ROLE_INFO[r].label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary" disabled={a.busy} data-testid="add-person">
          <Icon name="plus" /> Add
        </button>
      </form>
      <p class="muted small">{ROLE_INFO[role].sentence}</p>
      {role === 'guest' ? <RoomsPicker value={zones} onChange={setZones} who="the guest" /> : null}
      <Err msg={a.error} />
      {made ? <Invite {...made} /> : null}
    </Card>
  );
}

export function PeoplePage(): JSX.Element {
  const me = useMe();
  const person = me.data && me.data.present !== null ? me.data : null;
  return (
    <div class="people" data-testid="people">
      <h1>People</h1>
      <Err msg={me.error} />
      {person ? <You me={person} onChange={meChanged} /> : null}
      {me.data && !person ? <p class="muted">This sign-in is a token that belongs to no one ({me.data.name}): it has no account of its own.</p> : null}
      {/* A guest's account is theirs alone: the family is not theirs to see. */}
      {me.data && me.data.role !== 'guest' ? <Family me={me.data} /> : null}
    </div>
  );
}

function Family({ me }: { me: UserView }): JSX.Element {
  const people = usePeople();
  const mine = me.role;
  const family = Object.values(people.data ?? {}).sort((x, y) => ROLES.indexOf(x.role) - ROLES.indexOf(y.role) || x.name.localeCompare(y.name));
  return (
    <>
      {family.length > 0 ? (
        <Card title="The family">
          <ul class="plain people-list">
            {family.map((p) => (
              <Person key={p.id} p={p} mine={mine} self={p.id === me.id} />
            ))}
          </ul>
        </Card>
      ) : null}
      <AddPerson mine={mine} />
    </>
  );
}
